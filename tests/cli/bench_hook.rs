//! The prompt hook's cost beside the process start-up (ignored with the benchmark; figures,
//! never assertions): the hook runs before every prompt an agent sends, so its target is
//! under three times `autofix --version`, measured alternately in the same run.
//!
//! ```sh
//! cargo test --release --test cli bench -- --ignored --nocapture --test-threads=1
//! ```

use std::fs::File;
use std::process::{Command, Stdio};

use crate::bench::{Side, compare, noop};
use crate::capture::prompt_input as payload;
use crate::support::Sandbox;

const RULES: &str = r#"[
  {"Rule_number": 1, "Category": "TOOL", "Instruction": "Always run cargo fmt before committing.", "Why": "CI checks it"},
  {"Rule_number": 2, "Category": "CODE", "Instruction": "Always use named exports", "Why": "tree shaking"},
  {"Rule_number": 3, "Category": "PROCESS", "Instruction": "Never push directly to main", "Why": "reviews"}
]"#;

#[test]
#[ignore = "benchmark: cargo test --release --test cli bench -- --ignored --nocapture --test-threads=1"]
fn bench_hook() {
    let sandbox = Sandbox::new();
    sandbox.write(".agents/autofix.json", RULES);
    let ordinary = sandbox.write(
        "ordinary.json",
        payload(
            "Why is the build slow on CI? Check the logs of the last three runs, tell me what \
             you find, then fix it and add a test for the cache key.",
        ),
    );
    let repeat = sandbox.write("repeat.json", payload("No, always use named exports"));
    // Each run reads its payload from a fresh handle on the file, as a hook reads a pipe.
    let hook = |input: &std::path::Path| {
        let mut command = sandbox.command(&["hook", "user-prompt", "--agent", "claude"]);
        command.stdin(Stdio::from(File::open(input).unwrap()));
        command
    };
    let mut make_version = || -> Command { sandbox.command(&["--version"]) };
    let mut make_quiet = || hook(&ordinary);
    let mut make_repeat = || hook(&repeat);
    let (mut n1, mut n2, mut n3) = (noop, noop, noop);
    let sides: &mut [Side<'_>] = &mut [
        ("autofix --version", &mut make_version, &mut n1),
        (
            "hook user-prompt, ordinary prompt",
            &mut make_quiet,
            &mut n2,
        ),
        ("hook user-prompt, repeated rule", &mut make_repeat, &mut n3),
    ];
    compare(
        "prompt hook beside the start-up",
        "each hook run < 3 x autofix --version (autofix / this > 0.33)",
        sides,
    );
}

/// The after-tool hook runs after every edit an agent makes: a `Write` of a 1,000-line
/// file against 100 rules with a check each (their scopes all hold it), beside the
/// start-up. Target: under three times `autofix --version`.
#[test]
#[ignore = "benchmark: cargo test --release --test cli bench -- --ignored --nocapture --test-threads=1"]
fn bench_post_tool_hook() {
    let sandbox = Sandbox::new();
    let rules: Vec<serde_json::Value> = (1..=100)
        .map(|n| {
            serde_json::json!({"Rule_number": n, "Category": "CODE",
                "Instruction": format!("Never call forbidden_{n} in src"), "Why": "w",
                "Paths": ["src/**"], "Check": {"Forbid": format!(r"forbidden_{n}\(")}})
        })
        .collect();
    sandbox.write(
        ".agents/autofix.json",
        serde_json::to_string_pretty(&rules).unwrap(),
    );
    let text: String = (1..=1000)
        .map(|n| format!("export const value_{n} = compute({n}, \"some text on line {n}\");\n"))
        .collect();
    let hook = Hook {
        file: "src/big.ts",
        text: &text,
        label: "hook post-tool, 1,000 lines, 100 checks",
    };
    post_tool_beside_the_start_up(
        &sandbox,
        &hook,
        "after-tool hook beside the start-up",
        "the hook run < 3 x autofix --version (autofix / this > 0.33)",
    );
}

/// The after-tool hook in a repository of 1,000 checked rules: 300 whose scope holds the
/// file written, 700 scoped elsewhere (which cost nothing: a pattern is compiled only for
/// a file it applies to), each pattern a heavy one (`(?:\w+\s*){0,8}…`). Target: under
/// a second, whatever the checks (past 700 ms of compiling, the rest are not run on that
/// edit, and stderr says so).
#[test]
#[ignore = "benchmark: cargo test --release --test cli bench -- --ignored --nocapture --test-threads=1"]
fn bench_post_tool_hook_at_1000_checks() {
    let sandbox = Sandbox::new();
    let rules: Vec<serde_json::Value> = (1..=1000)
        .map(|n| {
            let mut rule = serde_json::json!({"Rule_number": n, "Category": "CODE",
                "Instruction": format!("Never call legacy_api_{n} in new code"), "Why": "w",
                "Check": {"Forbid": format!(r"(?:\w+\s*){{0,8}}legacy_api_{n}\s*\(")}});
            if n > 300 {
                rule["Paths"] = serde_json::json!([format!("services/s{n}/**")]);
            }
            rule
        })
        .collect();
    sandbox.write(
        ".agents/autofix.json",
        serde_json::to_string_pretty(&rules).unwrap(),
    );
    let hook = Hook {
        file: "src/app.ts",
        text: "export const a = 1;\nlegacy_api_5(x);\n",
        label: "hook post-tool, 1,000 checked rules (300 applying)",
    };
    post_tool_beside_the_start_up(
        &sandbox,
        &hook,
        "after-tool hook at 1,000 checked rules beside the start-up",
        "each hook run under 1 s",
    );
}

/// The file a benchmarked `Write` writes, and how the comparison names the hook's run.
struct Hook<'a> {
    file: &'a str,
    text: &'a str,
    label: &'a str,
}

/// Compares `hook post-tool` on a `Write` of `hook.file` with `autofix --version`, in
/// `sandbox` (its rules written already).
fn post_tool_beside_the_start_up(sandbox: &Sandbox, hook: &Hook<'_>, title: &str, target: &str) {
    let file = sandbox.write(hook.file, hook.text);
    let payload = serde_json::json!({"session_id": "s", "cwd": sandbox.path(),
        "hook_event_name": "PostToolUse", "tool_name": "Write",
        "tool_input": {"file_path": file, "content": hook.text}, "tool_response": {}});
    let input = sandbox.write("post-tool.json", payload.to_string());
    let mut make_version = || -> Command { sandbox.command(&["--version"]) };
    let mut make_hook = || {
        let mut command = sandbox.command(&["hook", "post-tool", "--agent", "claude"]);
        command.stdin(Stdio::from(File::open(&input).unwrap()));
        command
    };
    let (mut n1, mut n2) = (noop, noop);
    let sides: &mut [Side<'_>] = &mut [
        ("autofix --version", &mut make_version, &mut n1),
        (hook.label, &mut make_hook, &mut n2),
    ];
    compare(title, target, sides);
}
