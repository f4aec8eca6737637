#!/usr/bin/env python3
"""Measures the figures src/docs/capture.md reports for the prompt hook and `reflect`:

    cargo build --release && python3 tests/scripts/capture_figures.py target/release/autofix

Prints the hook's time per prompt against the process's start-up (`autofix --version`),
its time on a 1 MB prompt, and `reflect`'s time and peak memory (maximum resident set
size, by GNU time) on the attack cases: 40 links `lN -> .` below ~/.codex/sessions, a 60 MB
transcript, a project folder linked out of HOME.
"""

import json
import os
import resource
import subprocess
import sys
import tempfile
import time

BINARY = os.path.abspath(sys.argv[1])


def timed(args, stdin=b"", env=None, cwd=None):
    """Wall time and peak RSS (MiB) of one run, as GNU time (/usr/bin/time) reports them:
    measured in Python, a forked child would count the parent's pages it shares."""
    run = subprocess.run(["/usr/bin/time", "-f", "%e %M", *args], input=stdin,
                         capture_output=True, env=env, cwd=cwd)
    took, peak_kb = run.stderr.decode().strip().splitlines()[-1].split()
    return float(took), int(peak_kb) / 1024, run


def per_run(args, stdin, runs=300):
    start = time.perf_counter()
    for _ in range(runs):
        subprocess.run(args, input=stdin, capture_output=True)
    return (time.perf_counter() - start) / runs * 1000


def hook_figures():
    prompt = json.dumps({"prompt": "No, always use named exports"}).encode()
    quiet = json.dumps({"prompt": "Add a health check endpoint"}).encode()
    startup = per_run([BINARY, "--version"], b"")
    hook = per_run([BINARY, "hook", "user-prompt", "--agent", "claude"], prompt)
    silent = per_run([BINARY, "hook", "user-prompt", "--agent", "claude"], quiet)
    print(f"start-up (--version): {startup:.2f} ms; hook on a correction: {hook:.2f} ms; "
          f"on an ordinary prompt: {silent:.2f} ms ({hook / startup:.2f}x start-up)")
    sentence = "Please refactor the upload handler and keep the tests green. "
    big = json.dumps({"prompt": sentence * (1_000_000 // len(sentence))}).encode()
    took, _, _ = timed([BINARY, "hook", "user-prompt", "--agent", "claude"], big)
    print(f"hook on a 1 MB prompt: {took * 1000:.0f} ms")


def sandbox():
    root = tempfile.mkdtemp(prefix="autofix-figures-")
    home = os.path.join(root, "home")
    os.makedirs(home)
    env = dict(os.environ, HOME=home, AUTOFIX_CEILING_DIRECTORIES=root)
    return root, home, env


def claude_dir(home, root):
    name = "".join(c if c.isalnum() and c.isascii() else "-" for c in root)
    path = os.path.join(home, ".claude", "projects", name)
    os.makedirs(path, exist_ok=True)
    return path


def reflect_figures():
    # 40 links to their own folder below ~/.codex/sessions.
    root, home, env = sandbox()
    sessions = os.path.join(home, ".codex", "sessions")
    os.makedirs(sessions)
    for n in range(40):
        os.symlink(".", os.path.join(sessions, f"l{n}"))
    took, peak, run = timed([BINARY, "reflect", "--agent", "codex"], env=env, cwd=root)
    print(f"reflect, 40 links lN -> . below ~/.codex/sessions: {took:.2f} s, "
          f"{peak:.0f} MiB, exit {run.returncode}")

    # A 60 MB transcript: 1 MB tool results between typed prompts.
    root, home, env = sandbox()
    blob = "x" * 1_000_000
    lines = []
    for n in range(60):
        lines.append(json.dumps({"type": "user", "cwd": root, "sessionId": "big",
                                 "timestamp": f"2026-11-30T00:00:{n:02}.000Z",
                                 "message": {"role": "user", "content": [
                                     {"type": "tool_result", "tool_use_id": f"t{n}", "content": blob}]}}))
        lines.append(json.dumps({"type": "user", "cwd": root, "sessionId": "big",
                                 "timestamp": f"2026-11-30T00:00:{n:02}.500Z",
                                 "message": {"role": "user", "content": "From now on, keep the fixtures small."}}))
    with open(os.path.join(claude_dir(home, root), "big.jsonl"), "w") as f:
        f.write("\n".join(lines) + "\n")
    size = os.path.getsize(os.path.join(claude_dir(home, root), "big.jsonl")) / 1e6
    took, peak, run = timed([BINARY, "reflect", "--agent", "claude", "--format", "json"], env=env, cwd=root)
    found = len(json.loads(run.stdout)["candidates"]) if run.returncode == 0 else "-"
    print(f"reflect, one {size:.0f} MB transcript: {took:.2f} s, {peak:.0f} MiB, "
          f"{found} candidates, exit {run.returncode}")

    # A 60 MB transcript of short lines: the agent's words and typed prompts, one in ten
    # a correction.
    root, home, env = sandbox()
    path = os.path.join(claude_dir(home, root), "many.jsonl")
    with open(path, "w") as f:
        n = 0
        while f.tell() < 60_000_000:
            said = {"type": "assistant", "cwd": root, "sessionId": "many",
                    "timestamp": "2026-11-30T00:00:00.000Z",
                    "message": {"role": "assistant", "content": [
                        {"type": "text", "text": "I updated the handler and the tests pass. " * 8}]}}
            typed = "From now on, keep the fixtures small." if n % 10 == 0 else \
                "Add a retry to the HTTP client and log the status code of each attempt."
            user = {"type": "user", "cwd": root, "sessionId": "many",
                    "timestamp": "2026-11-30T00:00:01.000Z",
                    "message": {"role": "user", "content": typed}}
            f.write(json.dumps(said) + "\n" + json.dumps(user) + "\n")
            n += 1
    size = os.path.getsize(path) / 1e6
    took, peak, run = timed([BINARY, "reflect", "--agent", "claude", "--format", "json"], env=env, cwd=root)
    found = len(json.loads(run.stdout)["candidates"]) if run.returncode == 0 else "-"
    print(f"reflect, one {size:.0f} MB transcript of {2 * n} short lines: {took:.2f} s, "
          f"{peak:.0f} MiB, {found} candidates, exit {run.returncode}")

    # A project folder linked out of HOME.
    root, home, env = sandbox()
    outside = tempfile.mkdtemp(prefix="autofix-outside-")
    with open(os.path.join(outside, "s.jsonl"), "w") as f:
        f.write(json.dumps({"type": "user", "cwd": root, "sessionId": "outside",
                            "timestamp": "2026-11-30T00:00:00.000Z",
                            "message": {"role": "user", "content": "Never use semicolons, I told you."}}) + "\n")
    folder = claude_dir(home, root)
    os.rmdir(folder)
    os.symlink(outside, folder)
    took, peak, run = timed([BINARY, "reflect", "--agent", "claude", "--format", "json"], env=env, cwd=root)
    found = json.loads(run.stdout)["candidates"] if run.returncode == 0 else "-"
    print(f"reflect, project folder linked out of HOME: {len(found)} candidates read through the link")


if __name__ == "__main__":
    which = sys.argv[2] if len(sys.argv) > 2 else "all"
    if which in ("all", "hook"):
        hook_figures()
    if which in ("all", "reflect"):
        reflect_figures()
