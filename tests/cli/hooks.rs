//! The hooks an agent runs on every session and prompt never block it, never say the rules
//! twice, and stay within their budget whatever the input.

use crate::support::{Run, Sandbox};

/// A sandbox with a rules file holding `rules` (instruction, paths) in order.
fn with_rules(rules: &[(&str, &[&str])]) -> Sandbox {
    let sandbox = Sandbox::new();
    let items: Vec<serde_json::Value> = rules
        .iter()
        .enumerate()
        .map(|(at, (instruction, paths))| {
            let mut rule = serde_json::json!({
                "Rule_number": at + 1,
                "Category": "CODE",
                "Instruction": instruction,
                "Why": "w",
            });
            if !paths.is_empty() {
                rule["Paths"] = serde_json::json!(paths);
            }
            rule
        })
        .collect();
    sandbox.write(
        ".agents/autofix.json",
        serde_json::to_string_pretty(&items).unwrap(),
    );
    sandbox
}

#[track_caller]
fn silent_success(run: &Run) {
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "");
    assert_eq!(
        run.stderr.lines().count(),
        1,
        "one line on stderr: {}",
        run.stderr
    );
}

#[test]
fn a_hook_command_line_from_another_version_exits_0_with_one_line() {
    let sandbox = with_rules(&[("Always use pnpm - because lockfile.", &[])]);
    for args in [
        &["hook", "user-prompt", "--agent", "Claude"][..],
        &[
            "hook",
            "user-prompt",
            "--agent",
            "claude",
            "--brand-new-flag",
        ],
        &["hook", "session-end", "--agent", "claude"],
        &["rules", "--format", "hook", "--agent", "windsurf"],
    ] {
        let run = sandbox.run_with_stdin(args, r#"{"prompt":"No, always use pnpm"}"#);
        silent_success(&run);
        assert!(
            run.stderr.starts_with("autofix: hook not run: "),
            "{}",
            run.stderr
        );
    }
    // Other commands keep clap's usage errors, even with the word `hook` among their
    // arguments.
    for args in [
        &["learn", "--brand-new-flag"][..],
        &["export", "--check", "--target", "hook"],
        &["learn", "-c", "code", "-w", "w", "hook", "--bogus"],
    ] {
        assert_eq!(sandbox.run(args).code, 2, "{args:?}");
    }
    silent_success(&sandbox.run(&["-C", ".", "hook", "session-end"]));
}

#[test]
fn an_oversized_prompt_is_not_read_past_the_cap() {
    let sandbox = with_rules(&[]);
    let prompt = format!(
        r#"{{"prompt":"No, never use npm here. {}"}}"#,
        "x".repeat(2 << 20)
    );
    let run = sandbox.run_with_stdin(&["hook", "user-prompt", "--agent", "claude"], &prompt);
    silent_success(&run);
    assert!(run.stderr.contains("over 1 MiB"), "{}", run.stderr);
    // Just under the cap, the same correction is classified.
    let prompt = format!(
        r#"{{"prompt":"No, never use npm here, we use pnpm. {}"}}"#,
        "x ".repeat(400_000)
    );
    let run = sandbox.run_with_stdin(&["hook", "user-prompt", "--agent", "claude"], &prompt);
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains("additionalContext"), "{}", run.stderr);
}

#[test]
fn many_scopes_never_crowd_the_unscoped_rules_out_of_the_session_hook() {
    let globs: Vec<String> = (0..200)
        .map(|n| format!("src/module{n:03}/some/deeper/folder/**"))
        .collect();
    let mut rules: Vec<(&str, &[&str])> = vec![("Always use pnpm - because lockfile.", &[])];
    let scoped: Vec<[&str; 1]> = globs.iter().map(|g| [g.as_str()]).collect();
    for glob in &scoped {
        rules.push(("Always validate inputs - because untrusted.", glob));
    }
    let sandbox = with_rules(&rules);
    let run = sandbox
        .run(&["rules", "--format", "hook", "--agent", "claude"])
        .expect(0);
    assert!(run.stdout.chars().count() <= 9_000, "{}", run.stdout.len());
    let context = run.json()["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(context.contains("Always use pnpm"), "{context}");
    assert!(context.contains("200 more rules apply only to files matching"));
    assert!(
        context.contains(" more; before working on such a file"),
        "{context}"
    );
}

#[test]
fn the_session_hook_is_silent_where_an_instructions_file_carries_the_rules() {
    let sandbox = with_rules(&[("Always use pnpm - because lockfile.", &[])]);
    std::fs::create_dir_all(sandbox.join(".gemini")).unwrap();
    for agent in ["claude", "codex", "gemini"] {
        let run = sandbox
            .run(&["rules", "--format", "hook", "--agent", agent])
            .expect(0);
        assert!(
            run.stdout.contains("Always use pnpm"),
            "{agent}: {}",
            run.stdout
        );
    }
    // AGENTS.md reaches Codex, and Claude Code too while the project has no CLAUDE.md;
    // GEMINI.md (`.gemini/` is set up) reaches Gemini CLI.
    sandbox.run(&["export"]).expect(0);
    for agent in ["claude", "codex", "gemini"] {
        let run = sandbox
            .run(&["rules", "--format", "hook", "--agent", agent])
            .expect(0);
        assert_eq!(run.stdout, "", "{agent}");
    }
    // A CLAUDE.md of the user's: Claude Code no longer reads AGENTS.md, the hook speaks.
    sandbox.write("CLAUDE.md", "# Ours\n");
    let run = sandbox
        .run(&["rules", "--format", "hook", "--agent", "claude"])
        .expect(0);
    assert!(run.stdout.contains("Always use pnpm"), "{}", run.stdout);
}

#[test]
fn init_says_what_each_agent_needs_trusted_and_doctor_looks() {
    let Some(sandbox) = crate::support::tracked_repo(&[]) else {
        return;
    };
    let run = sandbox
        .run(&["init", "--hook", "claude,codex,gemini"])
        .expect(0);
    for agent in [
        "Claude Code: accept",
        "Codex: trust the project",
        "Gemini CLI: trust the folder",
    ] {
        assert!(run.stdout.contains(agent), "{agent}\n{}", run.stdout);
    }
    // Outside CI: on a runner (`CI` set) the same finding is a note (below).
    let doctor = |sandbox: &Sandbox| {
        let mut command = sandbox.command(&["doctor", "--format", "json"]);
        let json = Run::from_command(command.env_remove("CI")).json();
        let checks = json["checks"].as_array().unwrap().clone();
        checks
            .into_iter()
            .filter(|c| c["name"].as_str().unwrap().starts_with("trust "))
            .map(|c| (c["name"].as_str().unwrap().to_string(), c["ok"] == true))
            .collect::<Vec<_>>()
    };
    let untrusted = doctor(&sandbox);
    assert_eq!(
        untrusted,
        [
            ("trust claude".to_string(), false),
            ("trust codex".to_string(), false),
            ("trust gemini".to_string(), false)
        ]
    );
    // Where CI is set no agent runs, so no agent trusted the checkout: a note, not a
    // failure that fails every runner.
    let mut on_ci = sandbox.command(&["doctor"]);
    let ci = Run::from_command(on_ci.env("CI", "true"));
    assert!(
        ci.stdout
            .contains("note  trust claude  Claude Code does not trust this repository yet")
            && ci
                .stdout
                .contains("(CI is set: no agent runs here, so this is a note)"),
        "{}",
        ci.stdout
    );
    assert!(!ci.stdout.contains("FAIL  trust"), "{}", ci.stdout);
    let root = std::fs::canonicalize(sandbox.path()).unwrap();
    let root = root.display();
    sandbox.write(
        "home/.claude.json",
        format!(r#"{{"projects":{{"{root}":{{"hasTrustDialogAccepted":true}}}}}}"#),
    );
    sandbox.write(
        "home/.codex/config.toml",
        format!("[projects.\"{root}\"]\ntrust_level = \"trusted\"\n"),
    );
    // TRUST_PARENT on a folder inside trusts the folder above it: the repository.
    sandbox.write(
        "home/.gemini/trustedFolders.json",
        format!(r#"{{"{root}/src": "TRUST_PARENT"}}"#),
    );
    assert!(
        doctor(&sandbox).iter().all(|(_, ok)| *ok),
        "{:?}",
        doctor(&sandbox)
    );
}

#[test]
fn claude_code_reads_claude_rules_alone_while_agents_md_is_autofixs() {
    let sandbox = with_rules(&[("Always use pnpm - because lockfile.", &[])]);
    std::fs::create_dir_all(sandbox.join(".claude")).unwrap();
    let run = sandbox.run(&["export"]).expect(0);
    assert!(
        run.stdout.contains("created  .claude/CLAUDE.md"),
        "{}",
        run.stdout
    );
    // The guard holds the unscoped rules itself: GitHub Copilot CLI reads AGENTS.md and
    // `.claude/rules/`, not `.claude/CLAUDE.md`.
    let guard = sandbox.read(".claude/CLAUDE.md");
    assert!(guard.starts_with("<!-- autofix:owned"), "{guard}");
    assert!(guard.contains("- **1** [CODE] Always use pnpm"), "{guard}");
    assert!(!sandbox.join(".claude/rules/autofix.md").exists());
    // Exporting one target keeps it, and so does a second run.
    sandbox.run(&["export", "--target", "claude"]).expect(0);
    assert!(sandbox.join(".claude/CLAUDE.md").exists());
    // A CLAUDE.md of the user's: Claude Code reads it and ours both, so ours stays.
    sandbox.write("CLAUDE.md", "# Ours\n");
    let run = sandbox.run(&["export"]).expect(0);
    assert!(
        run.stdout.contains("unchanged  .claude/CLAUDE.md"),
        "{}",
        run.stdout
    );
    assert!(!sandbox.join(".claude/rules/autofix.md").exists());
    // One of the user's at the guard's path: the rules go to `.claude/rules/` instead.
    std::fs::remove_file(sandbox.join(".claude/CLAUDE.md")).unwrap();
    sandbox.write(".claude/CLAUDE.md", "# Mine too\n");
    sandbox.run(&["export"]).expect_noisy(0);
    assert!(sandbox.join(".claude/rules/autofix.md").exists());
    assert_eq!(sandbox.read(".claude/CLAUDE.md"), "# Mine too\n");
}

#[test]
fn agents_md_with_the_users_text_stays_claude_codes_instructions() {
    let sandbox = with_rules(&[("Always use pnpm - because lockfile.", &[])]);
    std::fs::create_dir_all(sandbox.join(".claude")).unwrap();
    sandbox.write("AGENTS.md", "# Our agents\n\nBe kind.\n");
    let run = sandbox.run(&["export"]).expect(0);
    assert!(
        run.stdout.contains("to: agents-md (default)\n"),
        "{}",
        run.stdout
    );
    assert!(!sandbox.join(".claude/CLAUDE.md").exists());
    assert!(!sandbox.join(".claude/rules/autofix.md").exists());
    // Claude Code reads the rules in AGENTS.md: the session hook stays silent.
    let run = sandbox
        .run(&["rules", "--format", "hook", "--agent", "claude"])
        .expect(0);
    assert_eq!(run.stdout, "");
}

#[test]
fn the_session_hook_speaks_when_the_exported_copy_is_stale_or_broken() {
    let sandbox = with_rules(&[("Always use pnpm - because lockfile.", &[])]);
    sandbox.run(&["export"]).expect(0);
    let hook = |sandbox: &Sandbox| {
        sandbox
            .run(&["rules", "--format", "hook", "--agent", "codex"])
            .expect(0)
            .stdout
    };
    assert_eq!(hook(&sandbox), "");
    // A rule learned without refreshing the copies: AGENTS.md lacks it, the hook says all.
    sandbox
        .run(&[
            "learn",
            "--no-export",
            "-c",
            "code",
            "-w",
            "w",
            "Never log secrets - because logs are shared.",
        ])
        .expect(0);
    let said = hook(&sandbox);
    assert!(
        said.contains("Never log secrets") && said.contains("Always use pnpm"),
        "{said}"
    );
    // In sync again, silent again; a block broken by hand is no channel.
    sandbox.run(&["export"]).expect(0);
    assert_eq!(hook(&sandbox), "");
    let agents = sandbox.read("AGENTS.md");
    sandbox.write(
        "AGENTS.md",
        agents.replace("<!-- END:autofix-rules -->\n", ""),
    );
    assert!(hook(&sandbox).contains("Never log secrets"));
}

#[test]
fn a_claude_md_of_nothing_but_comments_does_not_count() {
    let sandbox = with_rules(&[("Always use pnpm - because lockfile.", &[])]);
    std::fs::create_dir_all(sandbox.join(".claude")).unwrap();
    // Claude Code strips HTML comments and takes an empty CLAUDE.md for none: it still
    // loads AGENTS.md, so the guard is written.
    sandbox.write("CLAUDE.md", "<!-- to be written -->\n");
    sandbox.run(&["export"]).expect(0);
    assert!(sandbox.join(".claude/CLAUDE.md").exists());
    // One that imports AGENTS.md from .claude/ reads the block: no claude target by default.
    let sandbox = with_rules(&[("Always use pnpm - because lockfile.", &[])]);
    sandbox.write(".claude/CLAUDE.md", "Read @../AGENTS.md first.\n");
    let run = sandbox.run(&["export"]).expect(0);
    assert!(
        run.stdout.contains("to: agents-md (default)\n"),
        "{}",
        run.stdout
    );
    assert!(!sandbox.join(".claude/rules/autofix.md").exists());
}

/// GitHub Copilot CLI's hooks go to a file of their own in its format (`bash`,
/// `timeoutSec`, camelCase events) and answer `{"additionalContext"}`; Qwen Code's take
/// Claude Code's shape in `.qwen/settings.json`, with milliseconds.
#[test]
fn copilot_and_qwen_hooks_in_their_own_formats() {
    let sandbox = with_rules(&[("Always use pnpm - because lockfile.", &[])]);
    std::fs::create_dir_all(sandbox.join(".git")).unwrap();
    let run = sandbox.run(&["init", "--hook", "copilot,qwen"]).expect(0);
    assert!(
        run.stdout.contains("GitHub Copilot CLI: trust the folder")
            && run.stdout.contains("Qwen Code: trust the folder"),
        "{}",
        run.stdout
    );
    let copilot: serde_json::Value =
        serde_json::from_str(&sandbox.read(".github/hooks/autofix.json")).unwrap();
    assert_eq!(copilot["version"], 1);
    assert_eq!(
        copilot["hooks"]["userPromptSubmitted"][0],
        serde_json::json!({"type": "command", "bash": "autofix hook user-prompt --agent copilot", "timeoutSec": 10})
    );
    assert_eq!(
        copilot["hooks"]["sessionStart"][0]["bash"],
        "autofix rules --format hook --agent copilot"
    );
    let qwen: serde_json::Value =
        serde_json::from_str(&sandbox.read(".qwen/settings.json")).unwrap();
    let handler = &qwen["hooks"]["UserPromptSubmit"][0]["hooks"][0];
    assert_eq!(handler["command"], "autofix hook user-prompt --agent qwen");
    assert_eq!(handler["timeout"], 10_000);
    // A second init changes nothing: our entries are recognised in both formats.
    let again = sandbox.run(&["init", "--hook", "copilot,qwen"]).expect(0);
    for file in [".github/hooks/autofix.json", ".qwen/settings.json"] {
        let line = again.stdout.lines().find(|l| l.contains(file)).unwrap();
        assert!(line.trim_start().starts_with("unchanged"), "{line}");
    }
    let correction =
        r#"{"prompt": "No, don't use default exports anymore, we use named ones here"}"#;
    let answer = sandbox
        .run_with_stdin(&["hook", "user-prompt", "--agent", "copilot"], correction)
        .expect(0);
    let answer: serde_json::Value = serde_json::from_str(&answer.stdout).unwrap();
    assert!(
        answer["additionalContext"]
            .as_str()
            .unwrap()
            .contains("looks like a correction"),
        "{answer}"
    );
    let answer = sandbox
        .run_with_stdin(&["hook", "user-prompt", "--agent", "qwen"], correction)
        .expect(0);
    let answer: serde_json::Value = serde_json::from_str(&answer.stdout).unwrap();
    assert_eq!(
        answer["hookSpecificOutput"]["hookEventName"],
        "UserPromptSubmit"
    );
    // Without an exported copy, the session hook says the rules, in each one's shape.
    let rules = sandbox
        .run(&["rules", "--format", "hook", "--agent", "copilot"])
        .expect(0);
    let rules: serde_json::Value = serde_json::from_str(&rules.stdout).unwrap();
    assert!(
        rules["additionalContext"]
            .as_str()
            .unwrap()
            .contains("Always use pnpm"),
        "{rules}"
    );
}

/// A sandbox whose one rule forbids `console.log` in `src/`.
fn with_a_checked_rule() -> Sandbox {
    let sandbox = Sandbox::new();
    sandbox.write(
        ".agents/autofix.json",
        r#"[{"Rule_number": 1, "Category": "CODE", "Instruction": "Never call console.log in src", "Why": "w", "Paths": ["src/**"], "Check": {"Forbid": "console\\.log"}}]"#,
    );
    sandbox
}

fn post_tool(sandbox: &Sandbox, agent: &str, payload: &serde_json::Value) -> Run {
    sandbox
        .run_with_stdin(
            &["hook", "post-tool", "--agent", agent],
            &payload.to_string(),
        )
        .expect(0)
}

/// The context a hook answer adds for the model, with the event it names.
fn context_of(run: &Run) -> (String, String) {
    let answer: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let specific = &answer["hookSpecificOutput"];
    (
        specific["hookEventName"].as_str().unwrap().to_string(),
        specific["additionalContext"].as_str().unwrap().to_string(),
    )
}

#[test]
fn codex_and_gemini_edits_are_checked_and_answered_in_their_forms() {
    let sandbox = with_a_checked_rule();
    let file = sandbox.write("src/a.ts", "const a = 1;\nconsole.log(a);\n");
    let cwd = sandbox.path().display().to_string();
    // Codex's `apply_patch`: the `+` lines of each file the patch touches.
    let patch = "*** Begin Patch\n*** Update File: src/a.ts\n@@\n const a = 1;\n+console.log(a);\n*** End Patch\n";
    let codex = post_tool(
        &sandbox,
        "codex",
        &serde_json::json!({"session_id": "c1", "cwd": cwd, "hook_event_name": "PostToolUse",
            "tool_name": "apply_patch", "tool_input": {"command": patch}, "tool_response": "Success"}),
    );
    let (event, context) = context_of(&codex);
    assert_eq!(event, "PostToolUse");
    assert!(
        context.contains("src/a.ts:2 breaks rule 1: Never call console.log in src"),
        "{context}"
    );
    // Gemini CLI's `replace`.
    let gemini = post_tool(
        &sandbox,
        "gemini",
        &serde_json::json!({"session_id": "g1", "cwd": cwd, "hook_event_name": "AfterTool",
            "tool_name": "replace", "tool_input": {"file_path": file, "old_string": "x", "new_string": "console.log(a);"},
            "tool_response": {"llmContent": "ok"}}),
    );
    let (event, context) = context_of(&gemini);
    assert_eq!(event, "AfterTool");
    assert!(context.contains("breaks rule 1"), "{context}");
    // An edit that breaks nothing: no output.
    let clean = post_tool(
        &sandbox,
        "gemini",
        &serde_json::json!({"cwd": cwd, "tool_name": "write_file",
            "tool_input": {"file_path": sandbox.write("src/b.ts", "export const b = 1;\n"), "content": "export const b = 1;\n"},
            "tool_response": {"llmContent": "ok"}}),
    );
    assert_eq!(clean.stdout, "");
}

/// Claude Code's `PostToolUseFailure` payload for a failed `Bash` call.
fn failed_bash(sandbox: &Sandbox, session: &str, command: &str, error: &str) -> serde_json::Value {
    serde_json::json!({"session_id": session, "cwd": sandbox.path(), "hook_event_name": "PostToolUseFailure",
        "tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": "t1",
        "error": error, "is_interrupt": false})
}

#[test]
fn a_failure_from_a_wrong_assumption_is_named_once_a_session_and_others_not_at_all() {
    let sandbox = with_a_checked_rule();
    sandbox.write("pnpm-lock.yaml", "lockfileVersion: '9.0'\n");
    let npm = failed_bash(
        &sandbox,
        "s1",
        "npm install",
        "npm error code EUNSUPPORTEDPROTOCOL",
    );
    let first = post_tool(&sandbox, "claude", &npm);
    let (event, context) = context_of(&first);
    assert_eq!(event, "PostToolUseFailure");
    assert!(
        context.contains("a package manager the lockfile contradicts: `npm with pnpm-lock.yaml`"),
        "{context}"
    );
    assert!(context.contains("autofix learn -c CATEGORY"), "{context}");
    // The same cause again in the session: nothing; in another session: again.
    assert_eq!(post_tool(&sandbox, "claude", &npm).stdout, "");
    // A new session forgets the sessions untouched for 30 days, and keeps the others.
    let sessions = sandbox.join("home/.cache/autofix/sessions");
    let kept = crate::support::files_below(&sessions);
    assert_eq!(kept.len(), 1, "{kept:?}");
    let stale = sessions.join("0123456789abcdef0123456789abcdef");
    std::fs::write(&stale, "cause subject\n").unwrap();
    let month_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(31 * 86_400);
    std::fs::File::options()
        .write(true)
        .open(&stale)
        .unwrap()
        .set_modified(month_ago)
        .unwrap();
    let other = failed_bash(
        &sandbox,
        "s2",
        "npm install",
        "npm error code EUNSUPPORTEDPROTOCOL",
    );
    assert!(
        post_tool(&sandbox, "claude", &other)
            .stdout
            .contains("wrong assumption")
    );
    assert!(!stale.exists(), "a stale session file was kept");
    assert_eq!(crate::support::files_below(&sessions).len(), 2);
    // Another cause in the first session is named.
    let missing = failed_bash(
        &sandbox,
        "s1",
        "rg x",
        "Exit code 127\nbash: rg: command not found",
    );
    assert!(
        post_tool(&sandbox, "claude", &missing)
            .stdout
            .contains("`rg`")
    );
    // A file tool's path with a carriage return is remembered whole: one reminder too.
    let read = serde_json::json!({"session_id": "s1", "cwd": sandbox.path(),
        "hook_event_name": "PostToolUseFailure", "tool_name": "Read",
        "tool_input": {"file_path": "docs/nope.md\r"}, "error": "File does not exist."});
    assert!(
        post_tool(&sandbox, "claude", &read)
            .stdout
            .contains("a path that does not exist")
    );
    assert_eq!(post_tool(&sandbox, "claude", &read).stdout, "");
    // A failing test is no wrong assumption: nothing.
    let test = failed_bash(
        &sandbox,
        "s1",
        "cargo test",
        "test result: FAILED. 1 passed; 1 failed",
    );
    assert_eq!(post_tool(&sandbox, "claude", &test).stdout, "");
    // The session's memory is kept outside the repository.
    assert!(sandbox.join("home/.cache/autofix/sessions").is_dir());
    assert_eq!(
        crate::support::files_below(&sandbox.join(".agents")),
        ["autofix.json"]
    );
}

/// A hook command line without its event does nothing and exits 0, as one from another
/// version does: an agent reads exit 2 from a prompt hook as "block the prompt".
#[test]
fn a_bare_hook_command_exits_0_and_says_why() {
    let sandbox = Sandbox::new();
    let run = sandbox.run_with_stdin(&["hook"], r#"{"prompt":"No, always use pnpm"}"#);
    silent_success(&run);
    assert!(
        run.stderr
            .starts_with("autofix: hook not run: no event named (user-prompt or post-tool)"),
        "{}",
        run.stderr
    );
    // The help names a rule's check as `learn` does.
    let help = sandbox.run(&["check", "--help"]).expect(0);
    assert!(
        help.stdout.contains("check (`learn --check`)"),
        "{}",
        help.stdout
    );
    assert!(!help.stdout.contains("`Forbid`"), "{}", help.stdout);
}

/// A thousand heavy checks whose scope holds the file: the hook answers (the rule broken
/// early in the file is named), and any check it had no time to compile is counted on
/// stderr, never silently dropped.
#[test]
fn the_after_edit_hook_at_a_thousand_checks_names_the_break_and_counts_what_it_skips() {
    let sandbox = Sandbox::new();
    let rules: Vec<serde_json::Value> = (1..=1000)
        .map(|n| {
            serde_json::json!({"Rule_number": n, "Category": "CODE",
                "Instruction": format!("Never call legacy_api_{n} in new code"), "Why": "w",
                "Check": {"Forbid": format!(r"(?:\w+\s*){{0,8}}legacy_api_{n}\s*\(")}})
        })
        .collect();
    sandbox.write(
        ".agents/autofix.json",
        serde_json::to_string_pretty(&rules).unwrap(),
    );
    let text = "export const a = 1;\nlegacy_api_1(x);\n";
    let file = sandbox.write("src/app.ts", text);
    let payload = serde_json::json!({"session_id": "s", "cwd": sandbox.path(),
        "hook_event_name": "PostToolUse", "tool_name": "Write",
        "tool_input": {"file_path": file, "content": text}, "tool_response": {}});
    let run = sandbox.run_with_stdin(
        &["hook", "post-tool", "--agent", "claude"],
        &payload.to_string(),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("breaks rule 1:"), "{}", run.stdout);
    // Either every check ran, or stderr says how many did not.
    if !run.stderr.is_empty() {
        assert!(
            run.stderr.contains("checks not run on this edit")
                && run.stderr.contains("`autofix enforce` runs every check"),
            "{}",
            run.stderr
        );
    }
}

/// A MultiEdit of 2,000 pieces on a 20,000-line file: every piece is found in one pass,
/// and the break in one of them is named at its line.
#[test]
fn a_multiedit_of_two_thousand_pieces_names_the_break_at_its_line() {
    let sandbox = Sandbox::new();
    sandbox.write(
        ".agents/autofix.json",
        r#"[{"Rule_number": 1, "Category": "CODE", "Instruction": "Never call console.log in src", "Why": "w", "Check": {"Forbid": "console\\.log"}}]"#,
    );
    let mut lines: Vec<String> = (1..=20_000)
        .map(|n| format!("export const value_{n} = compute_{n}({n});"))
        .collect();
    lines[19_990] = "console.log(value_19991);".to_string();
    let file = sandbox.write("src/big.ts", lines.join("\n") + "\n");
    let edits: Vec<serde_json::Value> = (18_000..20_000)
        .map(|k| serde_json::json!({"old_string": "x", "new_string": lines[k]}))
        .collect();
    let payload = serde_json::json!({"session_id": "s", "cwd": sandbox.path(),
        "hook_event_name": "PostToolUse", "tool_name": "MultiEdit",
        "tool_input": {"file_path": file, "edits": edits}, "tool_response": {}});
    let run = sandbox
        .run_with_stdin(
            &["hook", "post-tool", "--agent", "claude"],
            &payload.to_string(),
        )
        .expect(0);
    assert!(
        run.stdout.contains("src/big.ts:19991 breaks rule 1"),
        "{}",
        run.stdout
    );
    assert_eq!(
        run.stdout.matches("breaks rule 1").count(),
        1,
        "{}",
        run.stdout
    );
}

/// Every hook's answer whole, in each client's shape: the session hook, the prompt hook on
/// a correction (the recorded rules nearest it shown; outside git, with no note id), the
/// after-edit hook on a broken check and the after-failure hook on a wrong package manager.
#[test]
fn every_hooks_answer_for_each_client() {
    let sandbox = with_a_checked_rule();
    // And a rule for every file, which the session hook says.
    let mut rules: serde_json::Value =
        serde_json::from_str(&sandbox.read(".agents/autofix.json")).unwrap();
    rules.as_array_mut().unwrap().push(serde_json::json!({"Rule_number": 2,
        "Category": "TOOL", "Instruction": "Always use pnpm to install packages", "Why": "the lockfile"}));
    sandbox.write(".agents/autofix.json", rules.to_string());
    sandbox.write("pnpm-lock.yaml", "lockfileVersion: '9.0'\n");
    let shown = |run: &Run| crate::snapshots::shown(&sandbox, run);
    let correction = r#"{"prompt": "No, don't use console.log in src, we log through the logger"}"#;
    for agent in ["claude", "codex", "gemini", "copilot", "qwen"] {
        let session = sandbox.run(&["rules", "--format", "hook", "--agent", agent]);
        insta::assert_snapshot!(format!("hook_session_{agent}"), shown(&session));
        let prompt = sandbox.run_with_stdin(&["hook", "user-prompt", "--agent", agent], correction);
        insta::assert_snapshot!(format!("hook_user_prompt_{agent}"), shown(&prompt));
    }
    let file = sandbox.write("src/a.ts", "const a = 1;\nconsole.log(a);\n");
    let cwd = sandbox.path().display().to_string();
    let patch = "*** Begin Patch\n*** Update File: src/a.ts\n@@\n const a = 1;\n+console.log(a);\n*** End Patch\n";
    for (agent, payload) in [
        (
            "claude",
            serde_json::json!({"session_id": "s", "cwd": cwd, "hook_event_name": "PostToolUse",
                "tool_name": "Write", "tool_input": {"file_path": file, "content": "const a = 1;\nconsole.log(a);\n"},
                "tool_response": {}}),
        ),
        (
            "codex",
            serde_json::json!({"session_id": "c1", "cwd": cwd, "hook_event_name": "PostToolUse",
                "tool_name": "apply_patch", "tool_input": {"command": patch}, "tool_response": "Success"}),
        ),
        (
            "gemini",
            serde_json::json!({"session_id": "g1", "cwd": cwd, "hook_event_name": "AfterTool",
                "tool_name": "replace", "tool_input": {"file_path": file, "old_string": "x", "new_string": "console.log(a);"},
                "tool_response": {"llmContent": "ok"}}),
        ),
    ] {
        let run = post_tool(&sandbox, agent, &payload);
        insta::assert_snapshot!(format!("hook_post_tool_{agent}"), shown(&run));
    }
    let failure = post_tool(
        &sandbox,
        "claude",
        &failed_bash(
            &sandbox,
            "s1",
            "npm install",
            "npm error code EUNSUPPORTEDPROTOCOL",
        ),
    );
    insta::assert_snapshot!("hook_post_tool_failure_claude", shown(&failure));
}
