#!/usr/bin/env python3
"""A stub model server for the real-client tests: it speaks just enough of the Anthropic
Messages, OpenAI Responses, OpenAI Chat Completions and Gemini generateContent APIs
(streaming and not) to finish an agent's turn, and logs every request body so a test can
assert on what the model saw.

    stub_model.py --log LOG [--read FILE] [--timeout S] [--interactive] -- COMMAND...

Starts the server on an ephemeral loopback port, runs COMMAND with `{port}` replaced in
its arguments and in the variables named by --env-with-port, waits for it (killed after
--timeout seconds), and exits with its status. With --read FILE the first answer to an
Anthropic request is a `Read` tool call for FILE (for Chat Completions: a call of the
client's own file-reading tool, as --read-tool gives it); the next one (which carries the tool
result) and every other answer is plain text. With --call JSON (repeatable:
`{"name": TOOL, "input": ARGUMENTS}`), the answer to a request that holds N tool results
is the (N+1)th call, when the request offers that tool (Anthropic Messages, Gemini
generateContent, OpenAI Responses; a Responses tool of type `custom` takes `input` as its
text), then plain text. Only loopback is ever bound.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ANSWER = "Done."


def sse(handler, events):
    """Writes server-sent events: (name or None, JSON payload) pairs."""
    handler.send_response(200)
    handler.send_header("Content-Type", "text/event-stream")
    handler.send_header("Cache-Control", "no-cache")
    handler.send_header("Connection", "close")
    handler.end_headers()
    for name, payload in events:
        chunk = ""
        if name:
            chunk += f"event: {name}\n"
        chunk += f"data: {json.dumps(payload)}\n\n"
        handler.wfile.write(chunk.encode())
        handler.wfile.flush()
    handler.close_connection = True


def send_json(handler, payload, status=200):
    body = json.dumps(payload).encode()
    handler.send_response(status)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)


def has_tool_result(body):
    for message in body.get("messages", []):
        content = message.get("content")
        if isinstance(content, list) and any(
            isinstance(block, dict) and block.get("type") == "tool_result" for block in content
        ):
            return True
    return False


def tool_results(body):
    """How many tool results a request holds (Anthropic, Gemini, Responses)."""
    count = 0
    for message in body.get("messages", []):
        content = message.get("content")
        if isinstance(content, list):
            count += sum(1 for b in content if isinstance(b, dict) and b.get("type") == "tool_result")
    for content in body.get("contents", []):
        count += sum(1 for part in content.get("parts", []) if isinstance(part, dict) and "functionResponse" in part)
    if isinstance(body.get("input"), list):
        count += sum(
            1 for item in body["input"]
            if isinstance(item, dict) and item.get("type") in ("function_call_output", "custom_tool_call_output")
        )
    return count


def scripted(body, calls, offered):
    """The scripted call due for this request, when the request offers its tool."""
    if not calls:
        return None
    done = tool_results(body)
    if done >= len(calls) or calls[done]["name"] not in offered:
        return None
    call = calls[done]
    # `{note}` stands for the id of the last note of autofix's prompt hook the request holds,
    # as a model would copy it from the note.
    text = json.dumps(call)
    if "{note}" in text:
        found = re.findall(r"note ([0-9a-z]{6})\. ", json.dumps(body))
        if found:
            call = json.loads(text.replace("{note}", found[-1]))
    return done, call


def anthropic(handler, body, read_file, calls=()):
    """Messages API: https://docs.anthropic.com/en/api/messages-streaming"""
    tools = {tool.get("name") for tool in body.get("tools", []) if isinstance(tool, dict)}
    due = scripted(body, calls, tools)
    if due:
        read_file = None
    call = read_file and "Read" in tools and not has_tool_result(body)
    usage = {"input_tokens": 10, "output_tokens": 1}
    message = {
        "id": "msg_stub",
        "type": "message",
        "role": "assistant",
        "model": body.get("model", "stub"),
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": usage,
    }
    if due:
        index, chosen = due
        block = {"type": "tool_use", "id": f"toolu_stub{index + 1}", "name": chosen["name"], "input": {}}
        delta = {"type": "input_json_delta", "partial_json": json.dumps(chosen["input"])}
        stop = "tool_use"
        final = dict(block, input=chosen["input"])
    elif call:
        block = {"type": "tool_use", "id": "toolu_stub1", "name": "Read", "input": {}}
        delta = {"type": "input_json_delta", "partial_json": json.dumps({"file_path": read_file})}
        stop = "tool_use"
        final = dict(block, input={"file_path": read_file})
    else:
        block = {"type": "text", "text": ""}
        delta = {"type": "text_delta", "text": ANSWER}
        stop = "end_turn"
        final = {"type": "text", "text": ANSWER}
    if not body.get("stream"):
        send_json(handler, dict(message, content=[final], stop_reason=stop))
        return
    sse(
        handler,
        [
            ("message_start", {"type": "message_start", "message": message}),
            ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": block}),
            ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
            ("content_block_stop", {"type": "content_block_stop", "index": 0}),
            (
                "message_delta",
                {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None}, "usage": {"output_tokens": 1}},
            ),
            ("message_stop", {"type": "message_stop"}),
        ],
    )


def responses(handler, body, calls=()):
    """Responses API streaming events: https://platform.openai.com/docs/api-reference/responses-streaming"""
    kinds = {tool.get("name"): tool.get("type") for tool in body.get("tools", []) if isinstance(tool, dict)}
    due = scripted(body, calls, set(kinds))
    item = {
        "type": "message",
        "id": "msg_stub",
        "status": "completed",
        "role": "assistant",
        "content": [{"type": "output_text", "text": ANSWER, "annotations": []}],
    }
    if due:
        index, chosen = due
        call_id = f"call_stub{index + 1}"
        if kinds[chosen["name"]] == "custom":
            item = {"type": "custom_tool_call", "id": f"ctc_stub{index + 1}", "status": "completed",
                    "call_id": call_id, "name": chosen["name"], "input": chosen["input"]}
        else:
            # A text input for a function tool is its one `input` argument (Codex's
            # apply_patch as a JSON tool).
            arguments = chosen["input"] if isinstance(chosen["input"], dict) else {"input": chosen["input"]}
            item = {"type": "function_call", "id": f"fc_stub{index + 1}", "status": "completed",
                    "call_id": call_id, "name": chosen["name"], "arguments": json.dumps(arguments)}
    response = {
        "id": "resp_stub",
        "object": "response",
        "status": "completed",
        "model": body.get("model", "stub"),
        "output": [item],
        "usage": {"input_tokens": 10, "output_tokens": 1, "total_tokens": 11,
                  "input_tokens_details": {"cached_tokens": 0},
                  "output_tokens_details": {"reasoning_tokens": 0}},
    }
    if not body.get("stream"):
        send_json(handler, response)
        return
    events = [("response.created", {"type": "response.created", "response": dict(response, status="in_progress", output=[])})]
    if due:
        events.append(("response.output_item.added", {"type": "response.output_item.added", "output_index": 0, "item": dict(item, status="in_progress")}))
    else:
        events += [
            ("response.output_item.added", {"type": "response.output_item.added", "output_index": 0, "item": dict(item, content=[], status="in_progress")}),
            ("response.output_text.delta", {"type": "response.output_text.delta", "output_index": 0, "content_index": 0, "item_id": "msg_stub", "delta": ANSWER}),
        ]
    events += [
        ("response.output_item.done", {"type": "response.output_item.done", "output_index": 0, "item": item}),
        ("response.completed", {"type": "response.completed", "response": response}),
    ]
    sse(handler, events)


def chat_has_tool_result(body):
    return any(m.get("role") == "tool" for m in body.get("messages", []) if isinstance(m, dict))


def read_call(body, read_file, read_tool):
    """The tool call that reads `read_file`, when the request offers the tool `read_tool`
    names (`NAME=ARGUMENTS`, a JSON object in which `@FILE@` stands for the file) and holds
    no tool result yet."""
    if not read_file or not read_tool or chat_has_tool_result(body):
        return None
    name, _, arguments = read_tool.partition("=")
    offered = {
        (tool.get("function") or {}).get("name")
        for tool in body.get("tools", [])
        if isinstance(tool, dict)
    }
    if name not in offered:
        return None
    return {
        "index": 0,
        "id": "call_stub1",
        "type": "function",
        "function": {"name": name, "arguments": arguments.replace("@FILE@", read_file)},
    }


def chat(handler, body, read_file, read_tool):
    """Chat Completions, streamed as chunks ending in `data: [DONE]`:
    https://platform.openai.com/docs/api-reference/chat-streaming"""
    call = read_call(body, read_file, read_tool)
    base = {"id": "chatcmpl-stub", "object": "chat.completion.chunk", "created": 0, "model": body.get("model", "stub")}
    usage = {"prompt_tokens": 10, "completion_tokens": 1, "total_tokens": 11}
    if call:
        delta = {"role": "assistant", "content": None, "tool_calls": [call]}
        finish = "tool_calls"
    else:
        delta = {"role": "assistant", "content": ANSWER}
        finish = "stop"
    if not body.get("stream"):
        message = {k: v for k, v in delta.items()}
        if call:
            message["tool_calls"] = [{k: v for k, v in call.items() if k != "index"}]
        send_json(handler, dict(base, object="chat.completion", choices=[{"index": 0, "message": message, "finish_reason": finish}], usage=usage))
        return
    handler.send_response(200)
    handler.send_header("Content-Type", "text/event-stream")
    handler.send_header("Cache-Control", "no-cache")
    handler.send_header("Connection", "close")
    handler.end_headers()
    chunks = [
        dict(base, choices=[{"index": 0, "delta": delta, "finish_reason": None}]),
        dict(base, choices=[{"index": 0, "delta": {}, "finish_reason": finish}]),
        dict(base, choices=[], usage=usage),
    ]
    for chunk in chunks:
        handler.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
    handler.wfile.write(b"data: [DONE]\n\n")
    handler.wfile.flush()
    handler.close_connection = True


def models(handler):
    """GET /v1/models, asked by some clients before they start:
    https://platform.openai.com/docs/api-reference/models/list"""
    model = {"id": "stub-model", "object": "model", "created": 0, "owned_by": "stub"}
    send_json(handler, {"object": "list", "data": [model], "models": []})


def gemini(handler, body, stream, calls=()):
    """generateContent: https://ai.google.dev/api/generate-content"""
    offered = {
        declaration.get("name")
        for tool in body.get("tools", []) if isinstance(tool, dict)
        for declaration in tool.get("functionDeclarations", []) if isinstance(declaration, dict)
    }
    due = scripted(body, calls, offered)
    text = ANSWER
    config = body.get("generationConfig") or body.get("config") or {}
    if config.get("responseMimeType") == "application/json" or config.get("responseJsonSchema") or config.get("responseSchema"):
        # Gemini CLI's helper calls (next speaker, routing) ask for JSON.
        text = json.dumps({"reasoning": "stub", "next_speaker": "user", "model_choice": "flash"})
    parts = [{"text": text}]
    if due:
        parts = [{"functionCall": {"name": due[1]["name"], "args": due[1]["input"]}}]
    chunk = {
        "candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 1, "totalTokenCount": 11},
        "modelVersion": "stub",
    }
    if stream:
        sse(handler, [(None, chunk)])
    else:
        send_json(handler, chunk)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def record(self, body):
        entry = {"method": self.command, "path": self.path, "body": body}
        with self.server.lock:
            with open(self.server.log, "a", encoding="utf-8") as log:
                log.write(json.dumps(entry) + "\n")

    def do_GET(self):
        self.record(None)
        if "/models" in self.path:
            models(self)
        else:
            send_json(self, {})

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if self.headers.get("Content-Encoding") == "zstd" or self.headers.get("Content-Encoding") == "gzip":
            self.record({"undecoded": self.headers.get("Content-Encoding")})
            send_json(self, {"error": "compressed bodies are not supported"}, 400)
            return
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {"unparsed": raw.decode("utf-8", "replace")}
        self.record(body)
        path = self.path.split("?")[0]
        if path.endswith("/count_tokens"):
            send_json(self, {"input_tokens": 10})
        elif path.endswith("/messages"):
            anthropic(self, body, self.server.read_file, self.server.calls)
        elif path.endswith("/chat/completions"):
            chat(self, body, self.server.read_file, self.server.read_tool)
        elif path.endswith("/responses"):
            responses(self, body, self.server.calls)
        elif path.endswith(":streamGenerateContent"):
            gemini(self, body, True, self.server.calls)
        elif path.endswith(":generateContent"):
            gemini(self, body, False, self.server.calls)
        elif path.endswith(":countTokens"):
            send_json(self, {"totalTokens": 10})
        else:
            send_json(self, {})


def reap(marker):
    """Ends, by their ids, the processes the command left behind (cline leaves a detached
    `--cline-hub-daemon`) whose command line holds `marker`, a path of the test's own
    sandbox, so that nothing this run did not start matches; this process and its
    ancestors are spared."""
    spared = set()
    pid = os.getpid()
    while pid > 1:
        spared.add(pid)
        try:
            with open(f"/proc/{pid}/stat", encoding="utf-8") as f:
                pid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            break
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) in spared:
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmdline = f.read().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:
            continue
        if marker in cmdline:
            try:
                os.kill(int(entry), 9)
            except OSError:
                pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--log", required=True)
    parser.add_argument("--read")
    parser.add_argument("--read-tool", help='the Chat Completions tool that reads --read: NAME={"path": "@FILE@"}')
    parser.add_argument("--call", action="append", default=[], help='a scripted tool call: {"name": TOOL, "input": ARGUMENTS}')
    parser.add_argument("--reap", help="after the command, end the processes it left whose command line holds this text")
    parser.add_argument("--timeout", type=float, default=90)
    parser.add_argument("--env-with-port", action="append", default=[])
    parser.add_argument("--interactive", action="store_true", help="keep the terminal")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.log = args.log
    server.lock = threading.Lock()
    server.read_file = args.read
    server.read_tool = args.read_tool
    server.calls = [json.loads(call) for call in args.call]
    port = str(server.server_address[1])
    threading.Thread(target=server.serve_forever, daemon=True).start()

    env = dict(os.environ)
    for name in args.env_with_port:
        env[name] = env.get(name, "").replace("{port}", port)
    command = [part.replace("{port}", port) for part in command]
    # A headless client gets no input and its own process group (killed whole on time-out);
    # an interactive one keeps the terminal.
    if args.interactive:
        child = subprocess.Popen(command, env=env)
    else:
        child = subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        code = child.wait(timeout=args.timeout)
    except subprocess.TimeoutExpired:
        if args.interactive:
            child.kill()
        else:
            os.killpg(child.pid, 9)
        child.wait()
        print(f"stub_model: {command[0]} did not finish in {args.timeout} s", file=sys.stderr)
        code = 124
    if args.reap:
        reap(args.reap)
    server.shutdown()
    sys.exit(code)


if __name__ == "__main__":
    main()
