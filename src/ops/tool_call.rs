//! The after-tool hook's input, read from each agent's payload into one [`ToolCall`]: the
//! files the tool wrote (and what it wrote into them), or the failure it ended in.
//!
//! - Claude Code `PostToolUse` on `Write`, `Edit`, `MultiEdit`: `{"session_id", "cwd",
//!   "tool_name", "tool_input": {"file_path", "content" | "new_string" | "edits"}}`
//!   (<https://code.claude.com/docs/en/hooks#posttooluse>); `PostToolUseFailure` on every
//!   tool: the same and `"error"`, the failure's text
//!   (<https://code.claude.com/docs/en/hooks#posttoolusefailure>).
//! - Codex `PostToolUse`: `{"session_id", "cwd", "tool_name", "tool_input",
//!   "tool_response"}`; `apply_patch` gives the patch as `tool_input.command`, a shell call
//!   (`Bash`) the command line, and `tool_response` what it returned
//!   (<https://developers.openai.com/codex/hooks>, schema
//!   <https://github.com/openai/codex/blob/main/codex-rs/hooks/schema/generated/post-tool-use.command.input.schema.json>;
//!   the patch format: <https://github.com/openai/codex/blob/main/codex-rs/apply-patch/apply_patch_tool_instructions.md>).
//! - Gemini CLI `AfterTool`: `{"session_id", "cwd", "tool_name", "tool_input",
//!   "tool_response": {"llmContent", "returnDisplay", "error"}}`; `write_file` and
//!   `replace` take `file_path`, `content`, `new_string`, `run_shell_command` a `command`
//!   whose failure adds `Exit Code: N` to `llmContent`
//!   (<https://github.com/google-gemini/gemini-cli/blob/main/docs/hooks/reference.md#aftertool>).

use std::path::PathBuf;

use serde::Deserialize;
use serde_json::Value;

/// The agents whose after-tool hook autofix answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ToolAgent {
    Claude,
    Codex,
    Gemini,
}

/// The edit an agent made: the file (absolute, or from the hook's `cwd`) and the texts it
/// wrote into it (`None`: the whole file).
pub(crate) struct Written {
    pub file: PathBuf,
    pub pieces: Option<Vec<String>>,
}

/// A tool call that failed: the command (empty for a tool that is not a shell), the
/// file it named, and what the failure printed.
pub(crate) struct Failed {
    pub command: String,
    pub path: Option<String>,
    pub output: String,
}

/// One tool call, as the hook sees it.
pub(crate) struct ToolCall {
    pub session: Option<String>,
    pub cwd: Option<PathBuf>,
    pub written: Vec<Written>,
    pub failed: Option<Failed>,
}

#[derive(Deserialize)]
struct Payload {
    session_id: Option<String>,
    cwd: Option<String>,
    hook_event_name: Option<String>,
    tool_name: Option<String>,
    #[serde(default)]
    tool_input: Value,
    #[serde(default)]
    tool_response: Value,
    /// Claude Code's `PostToolUseFailure`.
    error: Option<String>,
    /// Claude Code: the user stopped the tool; nothing was assumed.
    #[serde(default)]
    is_interrupt: bool,
}

/// Reads an agent's after-tool payload; `None` when it is not JSON.
pub(crate) fn read(agent: ToolAgent, input: &[u8]) -> Option<ToolCall> {
    let payload: Payload = serde_json::from_slice(input).ok()?;
    let tool = payload.tool_name.as_deref().unwrap_or("");
    let input = &payload.tool_input;
    let text = |key: &str| input.get(key).and_then(Value::as_str).map(str::to_string);
    let (written, failed) = match agent {
        ToolAgent::Claude if payload.hook_event_name.as_deref() == Some("PostToolUseFailure") => {
            let failed = Failed {
                command: text("command").unwrap_or_default(),
                path: text("file_path"),
                output: payload.error.clone().unwrap_or_default(),
            };
            (Vec::new(), (!payload.is_interrupt).then_some(failed))
        }
        ToolAgent::Claude => (claude_written(input).into_iter().collect(), None),
        // A patch through the shell (`apply_patch <<'EOF'`) is an edit too.
        ToolAgent::Codex
            if tool == "apply_patch"
                || text("command").is_some_and(|c| c.contains("*** Begin Patch")) =>
        {
            (patch_written(&text("command").unwrap_or_default()), None)
        }
        ToolAgent::Codex => (Vec::new(), shell_failure(input, &payload.tool_response)),
        ToolAgent::Gemini => match tool {
            "write_file" | "replace" => (gemini_written(input).into_iter().collect(), None),
            _ => (Vec::new(), gemini_failure(input, &payload.tool_response)),
        },
    };
    Some(ToolCall {
        session: payload.session_id,
        cwd: payload.cwd.map(PathBuf::from),
        written,
        failed,
    })
}

/// `Write` (`content`: the whole file), `Edit` (`new_string`), `MultiEdit` (`edits`).
fn claude_written(input: &Value) -> Option<Written> {
    let file = PathBuf::from(input.get("file_path")?.as_str()?);
    let pieces = if input.get("content").is_some() {
        None
    } else if let Some(new) = input.get("new_string").and_then(Value::as_str) {
        Some(vec![new.to_string()])
    } else {
        Some(
            input
                .get("edits")?
                .as_array()?
                .iter()
                .filter_map(|edit| edit.get("new_string")?.as_str().map(str::to_string))
                .collect(),
        )
    };
    Some(Written { file, pieces })
}

/// `write_file` (`content`: the whole file), `replace` (`new_string`).
fn gemini_written(input: &Value) -> Option<Written> {
    let file = input
        .get("file_path")
        .or_else(|| input.get("absolute_path"))?
        .as_str()?;
    let pieces = input
        .get("new_string")
        .and_then(Value::as_str)
        .map(|new| vec![new.to_string()]);
    Some(Written {
        file: PathBuf::from(file),
        pieces,
    })
}

/// The files a Codex patch adds (whole) or updates (the `+` lines, each run of them one
/// piece).
fn patch_written(patch: &str) -> Vec<Written> {
    let mut out: Vec<Written> = Vec::new();
    let mut run: Vec<&str> = Vec::new();
    let flush = |out: &mut Vec<Written>, run: &mut Vec<&str>| {
        if let (Some(last), false) = (out.last_mut(), run.is_empty())
            && let Some(pieces) = last.pieces.as_mut()
        {
            pieces.push(run.join("\n"));
        }
        run.clear();
    };
    for line in patch.lines() {
        if let Some(header) = line.strip_prefix("*** ") {
            flush(&mut out, &mut run);
            if let Some(file) = header.strip_prefix("Add File: ") {
                out.push(Written {
                    file: PathBuf::from(file.trim()),
                    pieces: None,
                });
            } else if let Some(file) = header.strip_prefix("Update File: ") {
                out.push(Written {
                    file: PathBuf::from(file.trim()),
                    pieces: Some(Vec::new()),
                });
            } else if let (Some(file), Some(last)) =
                (header.strip_prefix("Move to: "), out.last_mut())
            {
                last.file = PathBuf::from(file.trim());
            }
        } else if let Some(added) = line.strip_prefix('+') {
            run.push(added);
        } else {
            flush(&mut out, &mut run);
        }
    }
    flush(&mut out, &mut run);
    out
}

/// Every string in a JSON value, one a line.
fn strings(value: &Value, out: &mut String) {
    match value {
        Value::String(s) => {
            out.push_str(s);
            out.push('\n');
        }
        Value::Array(items) => items.iter().for_each(|v| strings(v, out)),
        Value::Object(map) => map.values().for_each(|v| strings(v, out)),
        _ => {}
    }
}

/// The exit status a tool response states: an `exit_code` (or `exitCode`) member, else
/// `Exit code: N` / `Process exited with code N` in its text.
fn exit_status(response: &Value, text: &str) -> Option<i64> {
    let member = ["exit_code", "exitCode"]
        .iter()
        .find_map(|key| response.get(key)?.as_i64());
    member.or_else(|| {
        let lower = text.to_ascii_lowercase();
        ["exit code: ", "exit code ", "exited with code "]
            .iter()
            .find_map(|marker| {
                let at = lower.find(marker)? + marker.len();
                let digits: String = lower[at..]
                    .chars()
                    .take_while(char::is_ascii_digit)
                    .collect();
                digits.parse().ok()
            })
    })
}

/// A Codex shell call that exited with a status other than 0, or whose response states
/// none (Codex 0.169.0 gives a `Bash` call's output alone as `tool_response`): the cause is
/// then read from the output.
fn shell_failure(input: &Value, response: &Value) -> Option<Failed> {
    let command = input.get("command")?.as_str()?.to_string();
    let mut output = String::new();
    strings(response, &mut output);
    let status = exit_status(response, &output).unwrap_or(1);
    (status != 0).then_some(Failed {
        command,
        path: None,
        output,
    })
}

/// A Gemini CLI tool call whose response holds an `error`, or a shell call that exited
/// with a status other than 0.
fn gemini_failure(input: &Value, response: &Value) -> Option<Failed> {
    let mut output = String::new();
    strings(response, &mut output);
    let errored = response.get("error").is_some_and(|e| !e.is_null());
    let status = exit_status(response, &output).unwrap_or(0);
    (errored || status != 0).then(|| Failed {
        command: input
            .get("command")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string(),
        path: ["file_path", "absolute_path", "dir_path"]
            .iter()
            .find_map(|key| input.get(key)?.as_str().map(str::to_string)),
        output,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_three_claude_tools() {
        let read = |json: &[u8]| read(ToolAgent::Claude, json).unwrap();
        let write = read(br#"{"cwd": "/r", "tool_name": "Write", "tool_input": {"file_path": "src/a.ts", "content": "x"}}"#);
        assert!(write.written[0].pieces.is_none());
        let edit = read(
            br#"{"tool_input": {"file_path": "/r/a", "old_string": "a", "new_string": "b\nc"}}"#,
        );
        assert_eq!(edit.written[0].pieces.as_deref().unwrap(), ["b\nc"]);
        let multi = read(br#"{"tool_input": {"file_path": "/r/a", "edits": [{"old_string": "a", "new_string": "y"}]}}"#);
        assert_eq!(multi.written[0].pieces.as_deref().unwrap(), ["y"]);
        assert!(
            read(br#"{"tool_input": {"command": "ls"}}"#)
                .written
                .is_empty()
        );
        let failed = read(br#"{"hook_event_name": "PostToolUseFailure", "tool_name": "Bash", "tool_input": {"command": "rg x"}, "error": "bash: rg: command not found"}"#);
        assert_eq!(failed.failed.unwrap().command, "rg x");
        let stopped = read(br#"{"hook_event_name": "PostToolUseFailure", "tool_name": "Bash", "tool_input": {"command": "rg x"}, "error": "Interrupted", "is_interrupt": true}"#);
        assert!(stopped.failed.is_none());
        assert!(super::read(ToolAgent::Claude, b"not json").is_none());
    }

    #[test]
    fn reads_a_codex_patch_and_a_failed_command() {
        let patch = "*** Begin Patch\n*** Add File: src/new.ts\n+export const a = 1;\n*** Update File: src/old.ts\n@@ fn\n context\n-old\n+new one\n+new two\n context\n+again\n*** End Patch";
        let written = patch_written(patch);
        assert_eq!(written.len(), 2);
        assert_eq!(written[0].file, PathBuf::from("src/new.ts"));
        assert!(written[0].pieces.is_none());
        assert_eq!(
            written[1].pieces.as_deref().unwrap(),
            ["new one\nnew two", "again"]
        );
        let failed = read(ToolAgent::Codex, br#"{"tool_name": "Bash", "tool_input": {"command": "rg x"}, "tool_response": "Exit code: 127\nWall time: 0 seconds\nOutput:\nbash: rg: command not found"}"#).unwrap();
        assert!(failed.failed.is_some());
        let fine = read(ToolAgent::Codex, br#"{"tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_response": "Exit code: 0\nOutput:\na"}"#).unwrap();
        assert!(fine.failed.is_none());
    }

    #[test]
    fn reads_gemini_edits_and_failures() {
        let edit = read(ToolAgent::Gemini, br#"{"tool_name": "replace", "tool_input": {"file_path": "/r/a.ts", "old_string": "a", "new_string": "b"}, "tool_response": {"llmContent": "ok"}}"#).unwrap();
        assert_eq!(edit.written[0].pieces.as_deref().unwrap(), ["b"]);
        let shell = read(ToolAgent::Gemini, br#"{"tool_name": "run_shell_command", "tool_input": {"command": "rg x"}, "tool_response": {"llmContent": "Output: bash: rg: command not found\nExit Code: 127"}}"#).unwrap();
        assert_eq!(shell.failed.unwrap().command, "rg x");
        let fine = read(ToolAgent::Gemini, br#"{"tool_name": "run_shell_command", "tool_input": {"command": "ls"}, "tool_response": {"llmContent": "Output: a"}}"#).unwrap();
        assert!(fine.failed.is_none());
    }
}
