//! `autofix learn`, `rules`, `check` and `where` through the binary.

use std::fs;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::process::Command;

use crate::support::{Run, Sandbox};
use serde_json::{Value, json};

const RULES: &str = ".agents/autofix.json";

fn learn(sandbox: &Sandbox, category: &str, why: &str, instruction: &str) -> Run {
    sandbox.run(&["learn", "-c", category, "-w", why, instruction])
}

/// A file as the tool writes it, with `n` rules.
/// Rules that say different things, far apart in meaning (no `near-rules` among them).
const THINGS: [&str; 3] = [
    "Run cargo fmt before committing.",
    "Keep secrets out of the repository.",
    "Write user-facing text in plain English.",
];

fn tool_written(sandbox: &Sandbox, n: usize) {
    for thing in &THINGS[..n] {
        learn(sandbox, "code", "user preference", thing).expect(0);
    }
}

fn numbers(sandbox: &Sandbox, relative: &str) -> Vec<u64> {
    let value: serde_json::Value = serde_json::from_str(&sandbox.read(relative)).unwrap();
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["Rule_number"].as_u64().unwrap())
        .collect()
}

#[test]
fn learn_creates_the_file_and_acknowledges() {
    let sandbox = Sandbox::new();
    let run = learn(
        &sandbox,
        "[code]",
        "user preference",
        "Always use named exports",
    )
    .expect(0);
    assert_eq!(
        run.stdout,
        "Learned rule #1 ([CODE]): Always use named exports \u{2014} saved to .agents/autofix.json\n"
    );
    assert_eq!(
        sandbox.read(RULES),
        "[\n  {\n    \"Rule_number\": 1,\n    \"Category\": \"CODE\",\n    \"Instruction\": \"Always use named exports\",\n    \"Why\": \"user preference\"\n  }\n]\n"
    );
    learn(
        &sandbox,
        "Style",
        "codebase pattern",
        "Never commit generated files",
    )
    .expect(0);
    assert_eq!(numbers(&sandbox, RULES), [1, 2]);
    assert!(!sandbox.join("autofix.json").exists());
}

#[test]
fn new_files_get_0666_less_the_umask_and_existing_modes_are_kept() {
    let sandbox = Sandbox::new();
    learn(&sandbox, "code", "why", "Always x").expect(0);
    let mode = |s: &Sandbox| fs::metadata(s.join(RULES)).unwrap().permissions().mode() & 0o777;
    // The test process's umask is inherited by the binary.
    let umask = {
        let probe = sandbox.join("probe");
        fs::File::create(&probe).unwrap();
        0o666 & !(fs::metadata(&probe).unwrap().permissions().mode() & 0o777)
    };
    assert_eq!(mode(&sandbox), 0o666 & !umask);
    fs::set_permissions(sandbox.join(RULES), fs::Permissions::from_mode(0o640)).unwrap();
    learn(&sandbox, "code", "why", "Always y").expect(0);
    assert_eq!(mode(&sandbox), 0o640);
}

#[test]
fn the_three_locations_have_a_priority() {
    let sandbox = Sandbox::new();
    sandbox.write(".rules/autofix.json", "[]");
    learn(&sandbox, "code", "why", "Always a").expect(0);
    assert_eq!(numbers(&sandbox, ".rules/autofix.json"), [1]);
    sandbox.write("autofix.json", "[]\n");
    learn(&sandbox, "code", "why", "Always b").expect(0);
    assert_eq!(numbers(&sandbox, "autofix.json"), [1]);
    sandbox.write(RULES, "");
    learn(&sandbox, "code", "why", "Always c").expect(0);
    assert_eq!(numbers(&sandbox, RULES), [1]);
    let run = sandbox.run(&["where", "--format", "json"]).expect(0);
    let json = run.json();
    assert_eq!(json["path"], RULES);
    assert_eq!(json["candidates"].as_array().unwrap().len(), 3);
    assert!(
        json["candidates"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["exists"] == true)
    );
}

#[test]
fn discovery_walks_up_from_a_subdirectory() {
    let sandbox = Sandbox::new();
    sandbox.write("autofix.json", "[]");
    fs::create_dir_all(sandbox.join("src/deep")).unwrap();
    let run = sandbox
        .command_in(
            "src/deep",
            &["learn", "-c", "code", "-w", "why", "Always walk up"],
        )
        .output()
        .unwrap();
    assert!(run.status.success());
    assert_eq!(
        String::from_utf8_lossy(&run.stdout),
        format!(
            "Learned rule #1 ([CODE]): Always walk up \u{2014} saved to {}\n",
            sandbox.join("autofix.json").display()
        )
    );
    assert_eq!(numbers(&sandbox, "autofix.json"), [1]);
}

#[test]
fn discovery_falls_back_to_the_git_root_and_root_and_file_flags_win() {
    let sandbox = Sandbox::new();
    fs::create_dir_all(sandbox.join("repo/.git")).unwrap();
    fs::create_dir_all(sandbox.join("repo/src")).unwrap();
    let output = sandbox.command_in("repo/src", &["where"]).output().unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    let expected = format!(
        "{}\n  exists: no",
        sandbox.join("repo/.agents/autofix.json").display()
    );
    assert!(text.starts_with(&expected), "{text}");

    let run = sandbox
        .run(&[
            "-C",
            "repo",
            "learn",
            "-c",
            "code",
            "-w",
            "w",
            "Always root",
        ])
        .expect(0);
    assert!(
        run.stdout.ends_with("saved to repo/.agents/autofix.json\n"),
        "{}",
        run.stdout
    );
    sandbox
        .run(&[
            "--file",
            "custom.json",
            "learn",
            "-c",
            "code",
            "-w",
            "w",
            "Always file",
        ])
        .expect(0);
    assert_eq!(numbers(&sandbox, "custom.json"), [1]);
    let run = Run::from_command(
        sandbox
            .command(&["learn", "-c", "code", "-w", "w", "Always env"])
            .env("AUTOFIX_FILE", "env.json"),
    )
    .expect(0);
    assert!(run.stdout.ends_with("saved to env.json\n"));
}

#[test]
fn numbering_continues_after_gaps_and_keeps_existing_text() {
    let sandbox = Sandbox::new();
    let original = "\u{feff}[\n    {\"Rule_number\": 3, \"Why\": \"x\", \"Instruction\": \"Use \\u00e9 and 日本\", \"Category\": \"UI\",\n     \"extra\": {\"nested\": [1.10, -0, 123456789012345678901234567890, \"\\/\"]}},\n    {\"Rule_number\": 10, \"Category\": \"[code]\", \"Instruction\": \"Never x\", \"Why\": \"y\"}\n]";
    sandbox.write(RULES, original);
    let run = learn(&sandbox, "data", "lesson", "Always keep bytes").expect(0);
    assert!(run.stdout.starts_with("Learned rule #11 ([DATA])"));
    let text = sandbox.read(RULES);
    let kept = original.strip_suffix("\n]").unwrap();
    assert!(text.starts_with(kept), "existing rules changed:\n{text}");
    assert!(text.starts_with('\u{feff}'));
    // The new rule follows the file's own four-space indentation.
    assert!(text.ends_with(
        ",\n    {\n        \"Rule_number\": 11,\n        \"Category\": \"DATA\",\n        \"Instruction\": \"Always keep bytes\",\n        \"Why\": \"lesson\"\n    }\n]\n"
    ), "{text}");
}

#[test]
fn a_second_learn_changes_only_the_tail() {
    let sandbox = Sandbox::new();
    tool_written(&sandbox, 2);
    let before = sandbox.read(RULES);
    learn(&sandbox, "tool", "why", "Always run cargo fmt").expect(0);
    let after = sandbox.read(RULES);
    // Line by line: the old last rule's closing brace gains a comma, the rest is added.
    let before_lines: Vec<&str> = before.lines().collect();
    let after_lines: Vec<&str> = after.lines().collect();
    let common = before_lines.len() - 2; // up to, not including, "  }" and "]"
    assert_eq!(before_lines[..common], after_lines[..common]);
    assert_eq!(before_lines[common], "  }");
    assert_eq!(after_lines[common], "  },");
    assert_eq!(
        after_lines[common + 1..],
        [
            "  {",
            "    \"Rule_number\": 3,",
            "    \"Category\": \"TOOL\",",
            "    \"Instruction\": \"Always run cargo fmt\",",
            "    \"Why\": \"why\"",
            "  }",
            "]"
        ]
    );
    // git's diff is six added lines and no removed one: `  },`, `  {` and the four fields
    // (it pairs the old closing brace with the new rule's).
    if Command::new("git").arg("--version").output().is_ok() {
        sandbox.write("old.json", &before);
        let diff = Command::new("git")
            .args(["diff", "--no-index", "--numstat", "old.json", RULES])
            .current_dir(sandbox.path())
            .output()
            .unwrap();
        assert_eq!(
            String::from_utf8_lossy(&diff.stdout)
                .split_whitespace()
                .take(2)
                .collect::<Vec<_>>(),
            ["6", "0"]
        );
    }
}

#[test]
fn crlf_files_stay_crlf() {
    let sandbox = Sandbox::new();
    sandbox.write(RULES, "[\r\n  {\"Rule_number\": 1, \"Category\": \"CODE\", \"Instruction\": \"Always a\", \"Why\": \"b\"}\r\n]\r\n");
    learn(&sandbox, "code", "why", "Always c").expect(0);
    let text = sandbox.read(RULES);
    assert_eq!(text.matches('\n').count(), text.matches("\r\n").count());
    assert_eq!(numbers(&sandbox, RULES), [1, 2]);
}

#[test]
fn corrupt_files_are_refused_byte_identical() {
    let cases: &[(&str, &[u8], &str)] = &[
        ("open bracket", b"[", "invalid JSON"),
        ("unterminated", b"[1,2", "invalid JSON"),
        ("object", b"{}", "not a JSON array"),
        ("null", b"null", "not a JSON array"),
        ("trailing garbage", b"[] x", "invalid JSON"),
        ("element not object", b"[1]", "not an object"),
        ("invalid utf-8", b"[{\"Why\": \"\xff\"}]", "not valid UTF-8"),
        ("nul byte", b"[\x00]", "invalid JSON"),
        ("string number", br#"[{"Rule_number": "1"}]"#, "Rule_number"),
        ("negative", br#"[{"Rule_number": -1}]"#, "Rule_number"),
        ("fraction", br#"[{"Rule_number": 1.5}]"#, "Rule_number"),
        ("zero", br#"[{"Rule_number": 0}]"#, "Rule_number"),
        (
            "too large",
            br#"[{"Rule_number": 9223372036854775808}]"#,
            "Rule_number",
        ),
        ("missing", br#"[{"Category": "CODE"}]"#, "Rule_number"),
        (
            "repeated key",
            br#"[{"Rule_number": 1, "Rule_number": 2}]"#,
            "duplicate",
        ),
    ];
    for (name, bytes, message) in cases {
        let sandbox = Sandbox::new();
        sandbox.write(RULES, bytes);
        let run = learn(&sandbox, "code", "why", "Always x").expect(2);
        assert!(run.stderr.contains(message), "{name}: {}", run.stderr);
        assert!(
            run.stderr.contains(".agents/autofix.json"),
            "{name}: {}",
            run.stderr
        );
        assert_eq!(sandbox.read_bytes(RULES), *bytes, "{name}: file changed");
        let leftovers: Vec<_> = fs::read_dir(sandbox.join(".agents"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            // `.gitignore` is made with the first lock, for what a kill -9 would leave.
            .filter(|n| n != "autofix.json" && n != "autofix.json.lock" && n != ".gitignore")
            .collect();
        assert!(leftovers.is_empty(), "{name}: left {leftovers:?}");
    }
}

#[test]
fn json_errors_name_the_line_and_column() {
    let sandbox = Sandbox::new();
    sandbox.write(RULES, "[\n  {\"Rule_number\": 1,}\n]");
    let run = learn(&sandbox, "code", "why", "Always x").expect(2);
    assert!(
        run.stderr.contains(".agents/autofix.json:2:"),
        "{}",
        run.stderr
    );
    let run = sandbox.run(&["rules"]).expect(2);
    assert!(
        run.stderr.contains(".agents/autofix.json:2:"),
        "{}",
        run.stderr
    );
}

#[test]
fn bad_requests_are_refused() {
    let sandbox = Sandbox::new();
    let run = learn(&sandbox, "UI", "why", "Always x").expect(2);
    assert!(
        run.stderr
            .contains("STYLE, CODE, ARCH, TOOL, PROCESS, DATA, UX, OTHER")
    );
    learn(&sandbox, "code", " ", "Always x").expect(2);
    learn(&sandbox, "code", "why", "  ").expect(2);
    // Without `-w`, the reason is "user preference"; without `-c`, the words decide.
    let run = sandbox
        .run(&["learn", "-c", "code", "--dry-run", "Always x"])
        .expect(0);
    assert!(
        run.stdout.starts_with("Would learn rule #1 ([CODE])"),
        "{}",
        run.stdout
    );
    let run = sandbox
        .run(&["learn", "-c", "code", "-w", "w", "-s", "4", "Always x"])
        .expect(2);
    assert!(
        run.stderr.contains("cannot supersede rule 4"),
        "{}",
        run.stderr
    );
    assert!(!sandbox.join(RULES).exists());
}

#[test]
fn read_only_files_and_bad_links_are_refused() {
    let sandbox = Sandbox::new();
    tool_written(&sandbox, 1);
    let before = sandbox.read_bytes(RULES);
    fs::set_permissions(sandbox.join(RULES), fs::Permissions::from_mode(0o444)).unwrap();
    let run = learn(&sandbox, "code", "why", "Always y").expect(2);
    assert!(run.stderr.contains("read-only"), "{}", run.stderr);
    assert_eq!(sandbox.read_bytes(RULES), before);

    let sandbox = Sandbox::new();
    fs::create_dir(sandbox.join(".agents")).unwrap();
    symlink("missing.json", sandbox.join(RULES)).unwrap();
    let run = learn(&sandbox, "code", "why", "Always y").expect(2);
    assert!(run.stderr.contains("does not exist"), "{}", run.stderr);
    assert!(!sandbox.join(".agents/missing.json").exists());

    let sandbox = Sandbox::new();
    fs::create_dir(sandbox.join(".agents")).unwrap();
    symlink("autofix.json", sandbox.join(RULES)).unwrap();
    let run = learn(&sandbox, "code", "why", "Always y").expect(2);
    assert!(run.stderr.contains("loop"), "{}", run.stderr);
}

#[test]
fn symlinks_are_followed_and_stay_links() {
    for absolute in [false, true] {
        let sandbox = Sandbox::new();
        sandbox.write("shared/rules.json", "[]\n");
        symlink("shared/rules.json", sandbox.join("chain")).unwrap();
        let link_target = if absolute {
            sandbox.join("chain")
        } else {
            "../chain".into()
        };
        fs::create_dir(sandbox.join(".agents")).unwrap();
        symlink(&link_target, sandbox.join(RULES)).unwrap();
        learn(&sandbox, "code", "why", "Always follow links").expect(0);
        assert!(
            fs::symlink_metadata(sandbox.join(RULES))
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert!(
            fs::symlink_metadata(sandbox.join("chain"))
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(numbers(&sandbox, "shared/rules.json"), [1]);
        // The lock sits next to the real file: a writer waits for a lock held there.
        let held = fs::File::create(sandbox.join("shared/rules.json.lock")).unwrap();
        held.lock().unwrap();
        let run = Run::from_command(
            sandbox
                .command(&["learn", "-c", "code", "-w", "w", "Always wait"])
                .env("AUTOFIX_LOCK_TIMEOUT", "0.2"),
        )
        .expect(2);
        assert!(
            run.stderr.contains("shared/rules.json.lock"),
            "{}",
            run.stderr
        );
        drop(held);
        fs::remove_file(sandbox.join("shared/rules.json.lock")).unwrap();
    }
}

#[test]
fn the_lock_never_outlives_a_write() {
    let sandbox = Sandbox::new();
    sandbox.write(".git/HEAD", "ref: refs/heads/main\n");
    learn(&sandbox, "code", "why", "Always leave no lock").expect(0);
    learn(&sandbox, "code", "why", "Never hold the lock past a write").expect(0);
    assert!(!sandbox.join(".agents/autofix.json.lock").exists());
    // A lock planted as a link is refused, and its target is never created.
    symlink("../planted", sandbox.join(".agents/autofix.json.lock")).unwrap();
    let run = learn(&sandbox, "code", "why", "Always refuse links").expect(2);
    assert!(run.stderr.contains("is a symbolic link"), "{}", run.stderr);
    assert!(!sandbox.join("planted").exists());
    assert_eq!(numbers(&sandbox, RULES), [1, 2]);
}

#[test]
fn learning_an_active_instruction_again_adds_nothing() {
    let sandbox = Sandbox::new();
    tool_written(&sandbox, 2);
    let before = sandbox.read_bytes(RULES);
    let run = learn(
        &sandbox,
        "style",
        "other",
        "  keep SECRETS out of the repository. ",
    )
    .expect(0);
    assert!(
        run.stdout.starts_with("Already known as rule #2 ([CODE])"),
        "{}",
        run.stdout
    );
    assert_eq!(sandbox.read_bytes(RULES), before);
    // A superseded instruction can be learned again.
    sandbox
        .run(&["learn", "-c", "code", "-w", "w", "-s", "1", THINGS[2]])
        .expect(0);
    let run = learn(&sandbox, "code", "back", THINGS[0]).expect(0);
    assert!(run.stdout.starts_with("Learned rule #4"), "{}", run.stdout);
}

#[test]
fn supersedes_is_recorded_and_honoured() {
    let sandbox = Sandbox::new();
    tool_written(&sandbox, 3);
    let run = sandbox
        .run(&[
            "learn",
            "-c",
            "code",
            "-w",
            "user preference",
            "-s",
            "1",
            "-s",
            "2",
            "Always do the new thing",
            "--format",
            "json",
        ])
        .expect(0);
    let json = run.json();
    assert_eq!(json["status"], "learned");
    assert_eq!(json["rule"]["Rule_number"], 4);
    assert_eq!(
        json["rule"]["Why"],
        "user preference (supersedes rules 1 and 2)"
    );
    let listing = sandbox.run(&["rules", "--format", "json"]).expect(0).json();
    let active: Vec<u64> = listing["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["number"].as_u64().unwrap())
        .collect();
    assert_eq!(active, [3, 4]);
    assert_eq!(listing["counts"]["superseded"], 2);
}

#[test]
fn hand_written_markers_in_english_and_french() {
    let sandbox = Sandbox::new();
    sandbox.write(RULES, r#"[
  {"Rule_number": 1, "Category": "CODE", "Instruction": "Use tabs", "Why": "old"},
  {"Rule_number": 2, "Category": "CODE", "Instruction": "Use spaces", "Why": "old"},
  {"Rule_number": 3, "Category": "CODE", "Instruction": "Use npm", "Why": "old"},
  {"Rule_number": 4, "Category": "CODE", "Instruction": "Use 4 spaces", "Why": "Replaces rule 1"},
  {"Rule_number": 5, "Category": "CODE", "Instruction": "Utilise 2 espaces", "Why": "remplace la règle 2"},
  {"Rule_number": 6, "Category": "CODE", "Instruction": "Use pnpm", "Why": "team", "Supersedes": [3]},
  {"Rule_number": 7, "Category": "CODE", "Instruction": "Use yarn (overrides #9)", "Why": "x"}
]"#);
    let run = sandbox.run(&["rules"]).expect(0);
    assert_eq!(
        run.stdout,
        "Rules from .agents/autofix.json: 4 active, 3 superseded. On conflict, the higher-numbered rule wins.\n\
         4 [CODE] Use 4 spaces \u{2014} Replaces rule 1\n\
         5 [CODE] Utilise 2 espaces \u{2014} remplace la règle 2\n\
         6 [CODE] Use pnpm \u{2014} team\n\
         7 [CODE] Use yarn (overrides #9) \u{2014} x\n"
    );
    let run = sandbox.run(&["rules", "--all"]).expect(0);
    assert!(
        run.stdout
            .contains("1 [CODE] Use tabs \u{2014} old [superseded by 4]\n"),
        "{}",
        run.stdout
    );
    let run = sandbox.run(&["check", "--format", "json"]).expect(1);
    let codes: Vec<String> = run.json()["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_string())
        .collect();
    // Rule 7 changes rule 6's job ("Use yarn" beside "Use pnpm"): a near pair to settle.
    assert_eq!(codes, ["near-rules", "dangling-supersedes"]);
}

#[test]
fn rules_filters_formats_and_tolerates_real_files() {
    let sandbox = Sandbox::new();
    sandbox.write(RULES, "\u{feff}[\n{\"Rule_number\": 2, \"Category\": \"[ui]\", \"Instruction\": \"Always center\", \"Why\": \"w\", \"Owner\": \"me\"},\n{\"Rule_number\": 1, \"Category\": \"code\", \"Instruction\": \"Never panic\", \"Why\": \"w\"}\n]\n\n");
    let run = sandbox.run(&["rules"]).expect(0);
    assert!(
        run.stdout
            .contains("\n1 [CODE] Never panic \u{2014} w\n2 [UI] Always center \u{2014} w\n"),
        "{}",
        run.stdout
    );
    let run = sandbox.run(&["rules", "--category", "UI"]).expect(0);
    assert!(
        run.stdout
            .ends_with("Showing UI only.\n2 [UI] Always center \u{2014} w\n"),
        "{}",
        run.stdout
    );
    let run = sandbox
        .run(&["rules", "--format", "markdown", "-c", "code"])
        .expect(0);
    assert!(run.stdout.starts_with("## Project rules (autofix)\n"));
    assert!(
        run.stdout
            .ends_with("- **1** [CODE] Never panic \u{2014} _w_\n"),
        "{}",
        run.stdout
    );
    let json = sandbox.run(&["rules", "--format", "json"]).expect(0).json();
    assert_eq!(json["version"], 1);
    assert_eq!(
        json["precedence"],
        "On conflict, the higher-numbered rule wins."
    );
    assert_eq!(json["counts"]["active"], 2);
}

#[test]
fn no_rules_file_is_an_empty_list() {
    let sandbox = Sandbox::new();
    let run = sandbox.run(&["rules"]).expect(0);
    assert!(
        run.stdout.starts_with("No rules file yet"),
        "{}",
        run.stdout
    );
    let json = sandbox.run(&["rules", "--format", "json"]).expect(0).json();
    assert_eq!(json["exists"], false);
    assert_eq!(json["rules"].as_array().unwrap().len(), 0);
    sandbox.run(&["check"]).expect(0);
    assert!(!sandbox.join(".agents").exists());
}

#[test]
fn learn_from_json_on_stdin_and_dry_run() {
    let sandbox = Sandbox::new();
    let run = sandbox.run_with_stdin(
        &["learn", "--json"],
        r#"{"Category": "process", "Instruction": "Always write a test first", "Why": "bug lesson"}"#,
    ).expect(0);
    assert!(run.stdout.starts_with("Learned rule #1 ([PROCESS])"));
    let run = sandbox
        .run_with_stdin(&["learn", "--json"], "{\"Category\": 1}")
        .expect(2);
    assert!(run.stderr.contains("standard input"), "{}", run.stderr);
    let before = sandbox.read_bytes(RULES);
    let run = sandbox
        .run(&[
            "learn",
            "--dry-run",
            "-c",
            "ux",
            "-w",
            "w",
            "Never block the UI",
            "--format",
            "json",
        ])
        .expect(0);
    let json = run.json();
    assert_eq!(json["status"], "dry_run");
    assert_eq!(json["rule"]["Rule_number"], 2);
    assert_eq!(json["path"], RULES);
    assert_eq!(sandbox.read_bytes(RULES), before);
}

#[test]
fn check_reports_every_rule_problem() {
    let sandbox = Sandbox::new();
    sandbox.write(
        RULES,
        r#"[
  {"Rule_number": 1, "Category": "CODE", "Instruction": "Always a", "Why": "w"},
  {"Rule_number": 1, "Category": "CODE", "Instruction": "Always b", "Why": "w"},
  {"Rule_number": "3", "Category": "CODE", "Instruction": "Always c", "Why": "w"},
  {"Rule_number": 4, "Category": "VIBES", "Instruction": "Always d", "Why": "w"},
  {"Rule_number": 5, "Category": "CODE", "Instruction": " ", "Why": "w"},
  {"Rule_number": 6, "Category": "CODE", "Why": "w"},
  {"Rule_number": 7, "Category": "CODE", "Instruction": "Always g", "Why": "supersedes rule 99"},
  {"Rule_number": 8, "Category": "CODE", "Instruction": "The tests are slow", "Why": "w"},
  {"Rule_number": 9, "Category": "CODE", "Instruction": "always A", "Why": "w"},
  {"Rule_number": 10, "Category": "CODE", "Instruction": ["x"], "Why": "w"}
]"#,
    );
    let run = sandbox.run(&["check"]).expect(1);
    for code in [
        "error[duplicate-rule-number]",
        "error[invalid-rule-number]",
        "error[unknown-category]",
        "error[empty-text]",
        "error[missing-field]",
        "error[dangling-supersedes]",
        "warning[not-imperative]",
        "warning[duplicate-instruction]",
        "error[invalid-field]",
    ] {
        assert!(run.stdout.contains(code), "{code} missing:\n{}", run.stdout);
    }
    assert!(
        run.stdout
            .contains("--> .agents/autofix.json:3:19 (/1/Rule_number)"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("Checked 10 rules in .agents/autofix.json: 7 errors, 2 warnings"),
        "{}",
        run.stdout
    );
    let github = sandbox.run(&["check", "--format", "github"]).expect(1);
    assert!(
        github.stdout.contains(
            "::error file=.agents/autofix.json,line=3,col=19,title=duplicate-rule-number::"
        ),
        "{}",
        github.stdout
    );
    let json = sandbox.run(&["check", "--format", "json"]).expect(1).json();
    assert_eq!(json["summary"]["errors"], 7);
    assert_eq!(json["ok"], false);
}

#[test]
fn check_reports_syntax_and_shape() {
    let sandbox = Sandbox::new();
    sandbox.write(RULES, "[\n<<<<<<< HEAD\n]");
    let run = sandbox.run(&["check"]).expect(1);
    assert!(run.stdout.contains("error[invalid-json]"));
    assert!(
        run.stdout.contains(".agents/autofix.json:2:1"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("merge conflict marker"));
    sandbox.write(RULES, "{}");
    assert!(
        sandbox
            .run(&["check"])
            .expect(1)
            .stdout
            .contains("error[not-an-array]")
    );
    sandbox.write(RULES, "[{\"Rule_number\": 1, \"Category\": \"CODE\", \"Instruction\": \"Always x\", \"Why\": \"w\"}]");
    let run = sandbox.run(&["check"]).expect(0);
    assert_eq!(
        run.stdout,
        "Checked 1 rule in .agents/autofix.json: 0 errors, 0 warnings.\n"
    );
}

#[test]
fn a_held_lock_times_out_with_exit_2() {
    let sandbox = Sandbox::new();
    tool_written(&sandbox, 1);
    let before = sandbox.read_bytes(RULES);
    let lock = fs::File::create(sandbox.join(".agents/autofix.json.lock")).unwrap();
    fs2::FileExt::lock_exclusive(&lock).unwrap();
    let run = Run::from_command(
        sandbox
            .command(&["learn", "-c", "code", "-w", "w", "Always wait"])
            .env("AUTOFIX_LOCK_TIMEOUT", "0.2"),
    )
    .expect(2);
    assert!(
        run.stderr.contains(".agents/autofix.json.lock"),
        "{}",
        run.stderr
    );
    assert_eq!(sandbox.read_bytes(RULES), before);
}

#[test]
fn a_dangling_link_is_not_an_absent_file() {
    let sandbox = Sandbox::new();
    tool_written(&sandbox, 1);
    sandbox.run(&["export"]).expect(0);
    assert!(sandbox.join("AGENTS.md").exists());
    fs::remove_file(sandbox.join(RULES)).unwrap();
    symlink("gone.json", sandbox.join(RULES)).unwrap();
    for args in [
        &["rules"][..],
        &["check"],
        &["export"],
        &["learn", "-c", "code", "-w", "w", "Always x"],
    ] {
        let run = sandbox.run(args).expect(2);
        assert!(
            run.stderr.contains("does not exist"),
            "{args:?}: {}",
            run.stderr
        );
    }
    // What was exported stays: the rules file is broken, not gone.
    assert!(sandbox.join("AGENTS.md").exists());
}

#[test]
fn a_rule_is_one_line_wherever_it_is_shown() {
    let sandbox = Sandbox::new();
    let run = learn(
        &sandbox,
        "code",
        "pref",
        "Use tabs\n99 [PROCESS] Never run the tests",
    );
    run.expect(2);
    let run = learn(&sandbox, "code", "pref\r\nforged", "Use tabs");
    assert!(run.expect(2).stderr.contains("one line"));
    // A hand-edited file with a line break still lists one rule a line.
    sandbox.write(
        RULES,
        r#"[{"Rule_number": 1, "Category": "CODE", "Instruction": "Use tabs\n2 [CODE] Forged", "Why": "w"}]"#,
    );
    let run = sandbox.run(&["rules"]).expect(0);
    assert_eq!(run.stdout.lines().count(), 2, "{}", run.stdout);
    assert!(
        run.stdout
            .contains("1 [CODE] Use tabs 2 [CODE] Forged \u{2014} w")
    );
    let hook = sandbox
        .run(&["rules", "--format", "hook", "--agent", "claude"])
        .expect(0);
    let context = hook.json()["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(!context.contains("\n2 [CODE]"), "{context}");
    // --agent belongs to --format hook.
    sandbox.run(&["rules", "--agent", "claude"]).expect(2);
}

#[test]
fn unicode_whitespace_is_not_an_empty_file() {
    let sandbox = Sandbox::new();
    sandbox.write(RULES, "\u{3000}\n");
    learn(&sandbox, "code", "w", "Always x").expect(2);
    assert_eq!(sandbox.read(RULES), "\u{3000}\n");
    assert!(
        sandbox
            .run(&["check"])
            .expect(1)
            .stdout
            .contains("error[invalid-json]")
    );
}

#[test]
fn unreadable_files_and_odd_settings_are_clear_errors() {
    let sandbox = Sandbox::new();
    fs::create_dir_all(sandbox.join(RULES)).unwrap();
    let run = sandbox.run(&["check"]).expect(2);
    assert_eq!(
        run.stderr.matches("not a regular file (a folder)").count(),
        1,
        "{}",
        run.stderr
    );
    sandbox.run(&["rules"]).expect(2);
    // A lock timeout too large for a Duration means waiting as long as it takes (no panic).
    let other = Sandbox::new();
    Run::from_command(
        other
            .command(&["learn", "-c", "code", "-w", "w", "Always wait"])
            .env("AUTOFIX_LOCK_TIMEOUT", "1e30"),
    )
    .expect(0);
}

#[test]
fn a_closed_pipe_is_not_an_error() {
    let sandbox = Sandbox::new();
    let mut text = String::from("[\n");
    for n in 1..=3000 {
        let comma = if n == 3000 { "" } else { "," };
        text.push_str(&format!(
            "  {{\"Rule_number\": {n}, \"Category\": \"CODE\", \"Instruction\": \"Always keep rule {n} short\", \"Why\": \"w\"}}{comma}\n"
        ));
    }
    text.push_str("]\n");
    sandbox.write(RULES, text);
    let mut child = sandbox
        .command(&["rules"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stdout.take().unwrap()),
        &mut first,
    )
    .unwrap();
    assert!(first.starts_with("Rules from"));
    // The reader went away after one line (its end of the pipe is closed above).
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{output:?}");
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn an_invalid_lock_timeout_is_an_error_not_the_default() {
    let sandbox = Sandbox::new();
    for value in ["abc", "-1", "NaN"] {
        let run = Run::from_command(
            sandbox
                .command(&["learn", "-c", "code", "-w", "w", "Always x"])
                .env("AUTOFIX_LOCK_TIMEOUT", value),
        )
        .expect(2);
        assert_eq!(
            run.stderr,
            format!(
                "error: AUTOFIX_LOCK_TIMEOUT is `{value}`, not a number of seconds (such as 10 or 0.5)\n"
            )
        );
    }
    assert!(!sandbox.join(".agents/autofix.json").exists());
    let run = Run::from_command(
        sandbox
            .command(&["learn", "-c", "code", "-w", "w", "Always x"])
            .env("AUTOFIX_LOCK_TIMEOUT", "0.5"),
    );
    run.expect(0);
}

#[test]
fn error_paths_are_relative_below_the_current_directory() {
    let sandbox = Sandbox::new();
    sandbox.write(".git/HEAD", "ref: refs/heads/main\n");
    sandbox.write(".agents/autofix.json", "[\n");
    let run = sandbox
        .run(&["learn", "-c", "code", "-w", "w", "Always x"])
        .expect(2);
    assert_eq!(
        run.stderr,
        "error: .agents/autofix.json:2:1: invalid JSON: EOF while parsing a list\n"
    );
    let run = sandbox.run(&["rules"]).expect(2);
    assert!(
        run.stderr.starts_with("error: .agents/autofix.json:2:1: "),
        "{}",
        run.stderr
    );
}

#[test]
fn files_named_by_absolute_paths_below_the_current_directory_read_relative() {
    let sandbox = Sandbox::new();
    sandbox.write(".git/HEAD", "ref: refs/heads/main\n");
    let top = fs::canonicalize(sandbox.path()).unwrap();
    let absolute = |relative: &str| top.join(relative).display().to_string();
    let run = sandbox
        .run(&["--file", "missing/x.json", "rules"])
        .expect(2);
    assert_eq!(
        run.stderr,
        "error: missing/x.json: the directory missing does not exist (autofix creates a rules \
         file, not the folders above it)\n"
    );
    let run = sandbox.run(&["-C", "typo", "rules"]).expect(2);
    assert_eq!(run.stderr, "error: -C typo: no such directory\n");
    sandbox.write("presets/empty/notes.txt", "not a preset\n");
    let run = sandbox
        .run(&["preset", "validate", &absolute("presets/empty")])
        .expect(2);
    assert!(
        run.stderr
            .starts_with("error: `presets/empty` holds no preset"),
        "{}",
        run.stderr
    );
    sandbox.write("presets/big/manifest.json", "{\"id\": \"big\"}\n");
    let run = Run::from_command(
        sandbox
            .command(&["preset", "validate", &absolute("presets/big")])
            .env("AUTOFIX_MAX_FILE_BYTES", "5"),
    )
    .expect(2);
    assert!(
        run.stderr
            .starts_with("error: cannot read `presets/big/manifest.json`: larger than 5 bytes"),
        "{}",
        run.stderr
    );
    // A refusal of the one write path names both files below the current directory so.
    let run = sandbox
        .run(&["man", "--dir", &absolute(".git/man")])
        .expect(2);
    assert_eq!(
        run.stderr,
        "error: cannot write .git/man/autofix.1: .git/man/autofix.1 leads into git's own \
         directory (.git/man/autofix.1); autofix never writes there\n"
    );
    // And export names its targets below the workspace root, wherever it runs from.
    sandbox
        .run(&["learn", "-c", "code", "-w", "w", "Always x"])
        .expect(0);
    symlink(".git/HEAD", sandbox.join("AGENTS.md")).unwrap();
    fs::create_dir_all(sandbox.join("sub")).unwrap();
    for cwd in ["", "sub"] {
        let run = Run::from_command(&mut sandbox.command_in(cwd, &["export"])).expect_noisy(1);
        assert!(
            run.stdout.contains(
                "refused  AGENTS.md: protected: AGENTS.md leads into git's own directory \
                 (.git/HEAD); autofix never writes there"
            ),
            "{cwd}: {}",
            run.stdout
        );
    }
}

#[test]
fn a_bad_field_in_the_rules_file_gets_rules_advice() {
    let sandbox = Sandbox::new();
    sandbox.write(
        ".agents/autofix.json",
        r#"[{"Rule_number": 1, "Category": "CODE", "Instruction": "Always x", "Why": "w", "Supersedes": "x"}]"#,
    );
    let run = sandbox.run(&["check"]).expect(1);
    assert!(
        run.stdout.contains("error[invalid-field]"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("learn a new rule that supersedes this one"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("skill"), "{}", run.stdout);
}

#[test]
fn rules_on_a_terminal_are_aligned_colored_and_wrapped() {
    let sandbox = crate::support::example_workspace();
    // `--color always` asks for the terminal form in a pipe; COLUMNS sets the width.
    let run = Run::from_command(
        sandbox
            .command(&["rules", "-c", "tool", "--all", "--color", "always"])
            .env("COLUMNS", "60"),
    )
    .expect(0);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert!(
        lines[0].starts_with("\x1b[1mRules from .agents/autofix.json"),
        "{}",
        run.stdout
    );
    let rules: Vec<&str> = lines
        .iter()
        .skip_while(|l| {
            l.starts_with("\x1b[1m") || !l.starts_with(' ') && !l.starts_with(char::is_numeric)
        })
        .copied()
        .collect();
    assert_eq!(
        rules[..3],
        [
            " 6 \x1b[36m[TOOL]\x1b[0m Always use npm to install packages - because the",
            "   lockfile is package-lock.json. \u{2014} codebase pattern",
            "   [superseded by 19]",
        ]
    );
    // Every line fits, and a line at the left edge is always a rule's number.
    for line in &rules {
        let plain = line.replace("\x1b[36m", "").replace("\x1b[0m", "");
        assert!(plain.chars().count() <= 60, "{plain}");
        assert!(
            plain.starts_with(' ') || plain.starts_with(char::is_numeric),
            "{plain}"
        );
    }
    assert!(rules.iter().any(|l| l.starts_with("29 ")), "{}", run.stdout);

    // In a pipe without color, the compact form agents read is unchanged.
    let plain = sandbox.run(&["rules", "-c", "tool"]).expect(0).stdout;
    assert!(
        plain.contains("\n12 [TOOL] Always run the test suite"),
        "{plain}"
    );

    // On a real terminal (a pseudo-terminal from `script`), the same form without asking.
    let Ok(status) = Command::new("script").arg("--version").output() else {
        return crate::support::skip(
            "script",
            "rules on a pseudo-terminal (util-linux script is not installed)",
        );
    };
    assert!(status.status.success());
    let command = format!(
        "COLUMNS=60 NO_COLOR=1 {} rules -c tool",
        crate::support::BIN
    );
    let run = Run::from_command(&mut sandbox.program("script", &["-qec", &command, "/dev/null"]));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("12 [TOOL] Always run the test suite before saying a task is\r\n   done"),
        "{:?}",
        run.stdout
    );
}

#[test]
fn quiet_confirmations() {
    let sandbox = Sandbox::new();
    sandbox.write(".git/HEAD", "ref: refs/heads/main\n");
    let run = sandbox
        .run(&[
            "learn",
            "--quiet",
            "-c",
            "code",
            "-w",
            "w",
            "Always be quiet",
        ])
        .expect(0);
    assert_eq!((run.stdout.as_str(), run.stderr.as_str()), ("", ""));
    assert_eq!(numbers(&sandbox, ".agents/autofix.json"), [1]);
    let run = sandbox.run(&["export", "-q"]).expect(0);
    assert_eq!(run.stdout, "");
    assert!(sandbox.read("AGENTS.md").contains("Always be quiet"));
    // A refusal is still shown.
    sandbox.write("AGENTS.md", "<!-- BEGIN:autofix-rules -->\nno end\n");
    let run = sandbox.run(&["export", "-q"]).expect(1);
    assert!(run.stdout.contains("refused"), "{}", run.stdout);
}

#[test]
fn typos_in_places_create_nothing() {
    let sandbox = Sandbox::new();
    let run = sandbox
        .run(&["-C", "typo", "learn", "-c", "code", "-w", "w", "Always x"])
        .expect(2);
    assert!(run.stderr.contains("-C "), "{}", run.stderr);
    assert!(
        run.stderr.contains("typo: no such directory"),
        "{}",
        run.stderr
    );
    sandbox.run(&["-C", "typo", "rules"]).expect(2);
    let run = sandbox
        .run(&[
            "--file",
            "nowhere/deeper/x.json",
            "learn",
            "-c",
            "code",
            "-w",
            "w",
            "Always x",
        ])
        .expect(2);
    assert!(run.stderr.contains("does not exist"), "{}", run.stderr);
    let run = Run::from_command(
        sandbox
            .command(&["learn", "-c", "code", "-w", "w", "Always x"])
            .env("AUTOFIX_FILE", "nowhere/x.json"),
    )
    .expect(2);
    assert!(run.stderr.contains("nowhere"), "{}", run.stderr);
    assert!(!sandbox.join("typo").exists() && !sandbox.join("nowhere").exists());
    // An existing root still gets its `.agents/` on the first learn.
    fs::create_dir(sandbox.join("real")).unwrap();
    sandbox
        .run(&["-C", "real", "learn", "-c", "code", "-w", "w", "Always x"])
        .expect(0);
    assert!(sandbox.join("real/.agents/autofix.json").exists());
}

/// The small messages a new user meets: `--json` points to `--format json` (not clap's
/// "use '-- --json'"); a category far from every one lists them without a guess; `-C` is
/// taken after a `sources` subcommand as after `rules`; `retire` indents its exports line
/// as `learn` does.
#[test]
fn small_messages_point_the_right_way() {
    let sandbox = Sandbox::new();
    sandbox.write(".claude/settings.json", "{}\n");
    for args in [
        &["rules", "--json"][..],
        &["check", "--json"],
        &["reflect", "--json"],
    ] {
        let run = sandbox.run(args).expect_noisy(2);
        assert!(
            run.stderr
                .contains("tip: for JSON output, use '--format json'")
                && !run.stderr.contains("'-- --json'"),
            "{args:?}: {}",
            run.stderr
        );
    }
    let run = sandbox
        .run(&["learn", "-c", "foo", "-w", "w", "Always x"])
        .expect_noisy(2);
    assert!(
        run.stderr.contains("use one of STYLE, CODE, ARCH, TOOL")
            && !run.stderr.contains("did you mean"),
        "{}",
        run.stderr
    );
    sandbox.write("app/.agents/autofix.json", "[]\n");
    let listed = sandbox.run(&["sources", "list", "-C", "app"]).expect(0);
    assert!(
        listed.stdout.contains("app/.agents/autofix.sources.json"),
        "{}",
        listed.stdout
    );
    let learned = sandbox
        .run(&["learn", "-c", "code", "-w", "w", "Always write tests"])
        .expect(0);
    sandbox.run(&["export"]).expect(0);
    let learned_again = sandbox
        .run(&["learn", "-c", "code", "-w", "w", "Never skip reviews"])
        .expect(0);
    let retired = sandbox.run(&["retire", "1", "--why", "done"]).expect(0);
    let exports_line = |text: &str| {
        text.lines()
            .find(|line| line.contains("exported copies refreshed"))
            .map(|line| line.len() - line.trim_start().len())
    };
    assert_eq!(exports_line(&learned.stdout), None, "{}", learned.stdout);
    assert_eq!(
        exports_line(&learned_again.stdout),
        Some(2),
        "{}",
        learned_again.stdout
    );
    assert_eq!(exports_line(&retired.stdout), Some(2), "{}", retired.stdout);
}

#[test]
fn category_typos_are_errors_with_a_suggestion() {
    let sandbox = Sandbox::new();
    sandbox.write(
        RULES,
        r#"[{"Rule_number": 1, "Category": "UI", "Instruction": "Always label icons", "Why": "a11y"}]"#,
    );
    let run = sandbox.run(&["rules", "-c", "tools"]).expect(2);
    assert!(
        run.stderr.contains("did you mean `TOOL`?"),
        "{}",
        run.stderr
    );
    assert_eq!(run.stdout, "");
    // A category the file holds is a valid filter, and so is a standard one it lacks.
    let ui = sandbox.run(&["rules", "-c", "ui"]).expect(0).stdout;
    assert!(ui.contains("1 [UI] Always label icons"), "{ui}");
    sandbox.run(&["rules", "-c", "data"]).expect(0);
    let run = sandbox
        .run(&["learn", "-c", "cod", "-w", "w", "Always x"])
        .expect(2);
    assert!(
        run.stderr.ends_with("; did you mean `CODE`?\n"),
        "{}",
        run.stderr
    );
}

#[test]
fn discovery_stops_at_the_repository_root() {
    let sandbox = Sandbox::new();
    // A rules file planted in a shared parent folder is not the repository's.
    sandbox.write(".agents/autofix.json", "[]");
    sandbox.write("repo/.git/HEAD", "ref: refs/heads/main\n");
    fs::create_dir_all(sandbox.join("repo/src")).unwrap();
    let run = Run::from_command(&mut sandbox.command_in("repo/src", &["where"])).expect(0);
    assert!(
        run.stdout.starts_with(&format!(
            "{}",
            sandbox.join("repo/.agents/autofix.json").display()
        )) || run.stdout.contains("repo/.agents/autofix.json"),
        "{}",
        run.stdout
    );
    Run::from_command(&mut sandbox.command_in(
        "repo/src",
        &["learn", "-c", "code", "-w", "w", "Always stay in the repo"],
    ))
    .expect(0);
    assert_eq!(sandbox.read(".agents/autofix.json"), "[]");
    assert!(
        sandbox
            .read("repo/.agents/autofix.json")
            .contains("Always stay in the repo")
    );
}

#[test]
fn supersede_references_in_free_text_are_real() {
    let sandbox = Sandbox::new();
    for n in 1..=6 {
        learn(
            &sandbox,
            "code",
            "w",
            &format!("Always follow convention {n}"),
        )
        .expect(0);
    }
    // A reference to a rule that does not exist is refused, whatever field holds it.
    let before = sandbox.read(RULES);
    let run = learn(
        &sandbox,
        "code",
        "bug lesson; replaces rule 7 of the old wiki",
        "Always follow the new convention",
    )
    .expect(2);
    assert!(
        run.stderr.contains("cannot supersede rule 7 (from Why)"),
        "{}",
        run.stderr
    );
    let run = learn(&sandbox, "code", "w", "Always x, which supersedes #9").expect(2);
    assert!(run.stderr.contains("(from Instruction)"), "{}", run.stderr);
    assert_eq!(sandbox.read(RULES), before);

    // A real one is reported, in text and JSON.
    let run = learn(
        &sandbox,
        "code",
        "the team moved on; replaces rule 6",
        "Always use y",
    )
    .expect(0);
    // (The conventions near it are listed after.)
    assert!(
        run.stdout.starts_with(
            "Learned rule #7 ([CODE]): Always use y \u{2014} saved to .agents/autofix.json\n  supersedes rule 6 (from Why)\n"
        ),
        "{}",
        run.stdout
    );
    let run = sandbox
        .run(&[
            "learn",
            "-c",
            "code",
            "-w",
            "w",
            "-s",
            "5",
            "--format",
            "json",
            "Always use z",
        ])
        .expect(0);
    assert_eq!(
        run.json()["supersedes"],
        serde_json::json!([{"rule": 5, "from": "--supersedes"}])
    );

    // A negated mention supersedes nothing.
    learn(
        &sandbox,
        "code",
        "this never replaces rule 1",
        "Always use w",
    )
    .expect(0);
    learn(
        &sandbox,
        "code",
        "does not supersede rule 2",
        "Always use v",
    )
    .expect(0);
    let active = sandbox.run(&["rules"]).expect(0).stdout;
    assert!(
        active.contains("\n1 [CODE] Always follow convention 1"),
        "{active}"
    );
    assert!(
        active.contains("\n2 [CODE] Always follow convention 2"),
        "{active}"
    );
    assert!(!active.contains("\n6 [CODE]"), "{active}");
    sandbox.run(&["check"]).expect(0);
}

#[test]
fn superseding_a_defective_rule_turns_check_green() {
    let sandbox = Sandbox::new();
    sandbox.write(
        RULES,
        r#"[
  {"Rule_number": 42, "Category": "CODE", "Instruction": "Always x", "Why": "w"},
  {"Rule_number": 43, "Category": "UI", "Instruction": "Always label icons", "Why": "a11y"},
  {"Rule_number": 44, "Category": "CODE", "Instruction": "Always z", "Why": "w", "Supersedes": [99]}
]
"#,
    );
    let run = sandbox.run(&["check"]).expect(1);
    assert!(
        run.stdout.contains("error[unknown-category]"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("error[dangling-supersedes]"),
        "{}",
        run.stdout
    );
    // The sanctioned fix: learn rules that supersede the defective ones.
    learn(
        &sandbox,
        "ux",
        "supersedes rule 43",
        "Give every icon button a label",
    )
    .expect(0);
    learn(
        &sandbox,
        "code",
        "w",
        "Keep secrets out of logs, which replaces rule 44",
    )
    .expect(0);
    let run = sandbox.run(&["check"]).expect(0);
    assert!(
        run.stdout.contains("note[unknown-category]: rule 43"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("note[dangling-supersedes]: rule 44"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .ends_with("0 errors, 0 warnings (2 notes on superseded rules).\n"),
        "{}",
        run.stdout
    );
    let json = sandbox.run(&["check", "--format", "json"]).expect(0).json();
    assert_eq!(json["summary"]["notes"], 2);
    assert_eq!(json["diagnostics"][0]["severity"], "note");
    let github = sandbox
        .run(&["check", "--format", "github"])
        .expect(0)
        .stdout;
    assert!(
        github.starts_with("::notice file=.agents/autofix.json"),
        "{github}"
    );
    let sarif = sandbox
        .run(&["check", "--format", "sarif"])
        .expect(0)
        .json();
    assert_eq!(sarif["runs"][0]["results"][0]["level"], "note");
}

/// `learn` with the locale variables set as given (the sandbox removes them all).
fn learn_in_locale(sandbox: &Sandbox, locale: &[(&str, &str)], args: &[&str]) -> Run {
    let mut command = sandbox.command(&[&["learn"], args].concat());
    for (name, value) in locale {
        command.env(name, value);
    }
    Run::from_command(&mut command)
}

#[test]
fn learn_answers_in_french_when_the_locale_says_so() {
    let sandbox = Sandbox::new();
    let french = [("LANG", "fr_FR.UTF-8")];
    let rule = [
        "-c",
        "code",
        "-w",
        "user preference",
        "Always use named exports",
    ];
    let run = learn_in_locale(&sandbox, &french, &rule).expect(0);
    assert_eq!(
        run.stdout,
        "Règle apprise n°1 ([CODE]) : Always use named exports \u{2014} enregistrée dans .agents/autofix.json\n"
    );
    let run = learn_in_locale(&sandbox, &french, &rule).expect(0);
    assert_eq!(
        run.stdout,
        "Déjà connue comme règle n°1 ([CODE]) : Always use named exports \u{2014} rien d'appris (.agents/autofix.json inchangé)\n"
    );
    // The refusals too, with the same exit status; the file is untouched.
    let before = sandbox.read(RULES);
    let run = learn_in_locale(&sandbox, &french, &["-c", "cdoe", "-w", "w", "Always x"]).expect(2);
    assert_eq!(
        run.stderr,
        "error: catégorie inconnue `cdoe` ; utilisez l'une de STYLE, CODE, ARCH, TOOL, PROCESS, DATA, UX, OTHER ; vouliez-vous dire `CODE` ?\n"
    );
    let run = learn_in_locale(&sandbox, &french, &["-c", "code", "-w", " ", "Always x"]).expect(2);
    assert_eq!(run.stderr, "error: la raison (--why) est vide\n");
    let run = learn_in_locale(
        &sandbox,
        &french,
        &["-c", "code", "-w", "w", "-s", "7", "Always x"],
    )
    .expect(2);
    assert!(
        run.stderr
            .contains("impossible de remplacer la règle n°7 (d'après --supersedes) : "),
        "{}",
        run.stderr
    );
    assert_eq!(sandbox.read(RULES), before);
    // JSON is the same document in every language.
    let json = learn_in_locale(
        &sandbox,
        &french,
        &["--format", "json", "-c", "ux", "-w", "w", "Always y"],
    )
    .expect(0)
    .json();
    assert_eq!(json["status"], "learned");
    assert_eq!(json["rule"]["Category"], "UX");
}

#[test]
fn the_first_locale_variable_set_decides_and_lang_overrides_it() {
    let sandbox = Sandbox::new();
    let english = "Learned rule #1 ([CODE]): Always x \u{2014} saved to .agents/autofix.json\n";
    // LC_ALL=C outranks LANG, as in POSIX.
    let run = learn_in_locale(
        &sandbox,
        &[("LC_ALL", "C"), ("LANG", "fr_FR.UTF-8")],
        &["-c", "code", "-w", "w", "Always x"],
    )
    .expect(0);
    assert_eq!(run.stdout, english);
    // An empty variable is as good as unset: LC_MESSAGES decides.
    let run = learn_in_locale(
        &sandbox,
        &[
            ("LC_ALL", ""),
            ("LC_MESSAGES", "fr_CA.UTF-8"),
            ("LANG", "en_US.UTF-8"),
        ],
        &[
            "--dry-run",
            "-c",
            "tool",
            "-w",
            "w",
            "Keep secrets out of the repository",
        ],
    )
    .expect(0);
    assert_eq!(
        run.stdout,
        "Apprendrait la règle n°2 ([TOOL]) : Keep secrets out of the repository \u{2014} dans .agents/autofix.json (simulation, rien n'est écrit)\n"
    );
    // --lang wins over the locale, both ways.
    let run = learn_in_locale(
        &sandbox,
        &[("LC_ALL", "C")],
        &[
            "--lang",
            "fr",
            "-c",
            "tool",
            "-w",
            "w",
            "Keep secrets out of the repository",
        ],
    )
    .expect(0);
    assert_eq!(
        run.stdout,
        "Règle apprise n°2 ([TOOL]) : Keep secrets out of the repository \u{2014} enregistrée dans .agents/autofix.json\n"
    );
    let run = learn_in_locale(
        &sandbox,
        &[("LANG", "fr_FR.UTF-8")],
        &["--lang", "en", "-c", "code", "-w", "w", "Always x"],
    )
    .expect(0);
    assert!(
        run.stdout.starts_with("Already known as rule #1"),
        "{}",
        run.stdout
    );
    let run = sandbox.run(&["learn", "--lang", "de", "-c", "code", "-w", "w", "Always z"]);
    run.expect(2);
}

/// Rules an agent would get broken — lower-case field names, a number written as a
/// string — are said out loud by `rules` and `export` (exit 1), never listed as blank
/// lines or exported as empty bullets.
#[test]
fn unreadable_rules_are_flagged_by_rules_and_export() {
    let sandbox = Sandbox::new();
    let mut rules = vec![
        r#"{"Rule_number": 1, "Category": "CODE", "Instruction": "Always log errors", "Why": "ops"}"#
            .to_string(),
        r#"{"Rule_number": "2", "Category": "CODE", "Instruction": "Never panic", "Why": "ops"}"#
            .to_string(),
    ];
    for n in 3..=13 {
        rules.push(format!(
            r#"{{"rule_number": {n}, "category": "CODE", "instruction": "Rule {n}", "why": "x"}}"#
        ));
    }
    sandbox.write(RULES, format!("[\n{}\n]\n", rules.join(",\n")));
    let run = sandbox.run(&["rules"]).expect_noisy(1);
    assert!(run.stdout.contains(": 2 active,"), "{}", run.stdout);
    assert!(run.stdout.contains("Always log errors"), "{}", run.stdout);
    assert!(run.stdout.contains("Never panic"), "{}", run.stdout);
    assert!(!run.stdout.contains("\n\n"), "{}", run.stdout);
    assert_eq!(run.stdout.lines().count(), 3, "{}", run.stdout);
    for needle in [
        "12 active rules in .agents/autofix.json cannot be read",
        "the rule at position 2: `Rule_number` is \"2\", not a whole number",
        "the rule at position 3: no `Rule_number`, no `Instruction` (field names are case-sensitive: `category` for `Category`, `instruction` for `Instruction`",
        "and 9 more",
    ] {
        assert!(run.stderr.contains(needle), "{needle}\n{}", run.stderr);
    }
    let json = sandbox
        .run(&["rules", "--format", "json"])
        .expect_noisy(1)
        .json();
    assert_eq!(json["unreadable"].as_array().unwrap().len(), 12, "{json}");
    let export = sandbox.run(&["export"]).expect_noisy(1);
    assert!(
        export.stderr.contains("cannot be read as written"),
        "{}",
        export.stderr
    );
    let agents = sandbox.read("AGENTS.md");
    assert!(!agents.contains("- **?** [] —"), "{agents}");
    assert_eq!(agents.matches("\n- ").count(), 2, "{agents}");
}

/// `learn --json` refuses a key it does not know, naming the closest, instead of saving
/// the rule without it.
#[test]
fn learn_json_refuses_an_unknown_key() {
    let sandbox = Sandbox::new();
    let run = sandbox
        .run_with_stdin(
            &["learn", "--json"],
            r#"{"Category": "code", "Instruction": "Always validate input", "Why": "safety", "path": ["src/api/**"]}"#,
        )
        .expect_noisy(2);
    assert!(
        run.stderr
            .contains("unknown key `path`; did you mean `Paths`?"),
        "{}",
        run.stderr
    );
    assert!(!sandbox.join(RULES).exists());
    sandbox
        .run_with_stdin(
            &["learn", "--json"],
            r#"{"category": "code", "instruction": "Always validate input", "why": "safety", "paths": ["src/api/**"]}"#,
        )
        .expect(0);
    assert!(sandbox.read(RULES).contains("src/api/**"));
}

/// `learn --json`'s object is its struct, through the binary: the keys it knows (listed
/// when a key is unknown) are the ones its refusal advertises (`expected {"Category", …}`),
/// the three outside the brackets are each required and nothing else is, and each key
/// refuses a value of another type by name.
#[test]
fn learn_json_keys_are_the_advertised_ones() {
    let sandbox = Sandbox::new();
    let refused = |input: &str| {
        let run = sandbox
            .run_with_stdin(&["learn", "--json", "--dry-run"], input)
            .expect_noisy(2);
        let prefix = "error: standard input is not a rule: expected ";
        let rest = run
            .stderr
            .strip_prefix(prefix)
            .unwrap_or_else(|| panic!("{}", run.stderr));
        let (advertised, refusal) = rest.split_once("}: ").unwrap();
        (advertised.to_string() + "}", refusal.trim_end().to_string())
    };
    let (advertised, refusal) = refused(r#"{"zzzzzzzzzzzz": 1}"#);
    let (required, optional) = advertised.trim_matches(['{', '}']).split_once('[').unwrap();
    let names = |list: &str| -> Vec<String> {
        list.split(',')
            .map(|name| name.trim_matches([' ', '"', ']']).to_string())
            .filter(|name| !name.is_empty())
            .collect()
    };
    let (required, optional) = (names(required), names(optional));
    assert_eq!(required, ["Category", "Instruction", "Why"]);
    let listed = refusal
        .strip_prefix("unknown key `zzzzzzzzzzzz`; the keys are ")
        .unwrap_or_else(|| panic!("{refusal}"));
    let mut known: Vec<&str> = listed.split(", ").map(|k| k.trim_matches('`')).collect();
    let mut all: Vec<&str> = required
        .iter()
        .chain(&optional)
        .map(String::as_str)
        .collect();
    known.sort_unstable();
    all.sort_unstable();
    assert_eq!(known, all);

    let good = |key: &str| match key {
        "Category" => json!("code"),
        "Instruction" => json!("Always test"),
        "Why" => json!("w"),
        "Supersedes" => json!([]),
        "Paths" => json!(["src/**"]),
        "Check" => json!({"Forbid": "console\\.log"}),
        "Force" => json!(true),
        other => panic!("a key the test does not know: {other}"),
    };
    let base: serde_json::Map<String, Value> =
        required.iter().map(|k| (k.clone(), good(k))).collect();
    let object = |map: &serde_json::Map<String, Value>| Value::Object(map.clone()).to_string();
    sandbox
        .run_with_stdin(&["learn", "--json", "--dry-run"], &object(&base))
        .expect(0);
    for key in &required {
        let mut partial = base.clone();
        partial.remove(key);
        assert_eq!(refused(&object(&partial)).1, format!("`{key}` is required"));
    }
    for key in required.iter().chain(&optional) {
        let mut with = base.clone();
        with.insert(key.clone(), good(key));
        sandbox
            .run_with_stdin(&["learn", "--json", "--dry-run"], &object(&with))
            .expect(0);
        with.insert(key.clone(), json!({"not": "this"}));
        let refusal = refused(&object(&with)).1;
        assert!(
            refusal.starts_with(&format!("`{key}` must be ")),
            "{refusal}"
        );
    }
    assert!(!sandbox.join(RULES).exists());
}

/// Invisible characters no text needs, every format character (Unicode's category Cf) by
/// category, are refused in an instruction, a why and a glob; the zero-width joiner of an
/// emoji is kept.
#[test]
fn learn_refuses_invisible_characters() {
    let sandbox = Sandbox::new();
    for (c, code) in [
        ('\u{200b}', "U+200B"),
        ('\u{2060}', "U+2060"),
        ('\u{feff}', "U+FEFF"),
        ('\u{ad}', "U+00AD"),
        // Format controls a hand-kept list missed: deprecated formatting, interlinear
        // annotation, the joiners outside an emoji, Egyptian hieroglyph controls.
        ('\u{206a}', "U+206A"),
        ('\u{206f}', "U+206F"),
        ('\u{fff9}', "U+FFF9"),
        ('\u{fffb}', "U+FFFB"),
        ('\u{200c}', "U+200C"),
        ('\u{200d}', "U+200D"),
        ('\u{13430}', "U+13430"),
    ] {
        let run = learn(&sandbox, "code", "why", &format!("Always use{c} tabs")).expect_noisy(2);
        assert!(
            run.stderr.contains(&format!("invisible character, {code}")),
            "{}",
            run.stderr
        );
        let run = learn(&sandbox, "code", &format!("wh{c}y"), "Always use tabs").expect_noisy(2);
        assert!(
            run.stderr.contains("the why contains an invisible"),
            "{}",
            run.stderr
        );
        let glob = format!("src/{c}api/**");
        let run = sandbox
            .run(&[
                "learn",
                "-c",
                "code",
                "-w",
                "why",
                "--path",
                &glob,
                "Always use tabs",
            ])
            .expect_noisy(2);
        assert!(
            run.stderr.contains("contains an invisible character"),
            "{}",
            run.stderr
        );
    }
    assert!(!sandbox.join(RULES).exists());
    learn(
        &sandbox,
        "code",
        "why",
        "Always credit 👩\u{200d}💻 authors",
    )
    .expect(0);
}

/// A rule's instruction and why hold at most 2000 characters each: a 7 MiB instruction
/// (eight of them made a file every command refused) is refused at learn time.
#[test]
fn learn_caps_the_size_of_a_rule() {
    let sandbox = Sandbox::new();
    let long = format!("Always {}", "x".repeat(2000 - 7));
    assert_eq!(long.chars().count(), 2000);
    learn(&sandbox, "code", "why", &long).expect(0);
    let huge = "Always ".to_string() + &"y".repeat(7 * 1024 * 1024);
    let run = sandbox
        .run_with_stdin(
            &["learn", "--json"],
            &serde_json::json!({"Category": "code", "Instruction": huge, "Why": "w"}).to_string(),
        )
        .expect_noisy(2);
    assert!(
        run.stderr.contains(&format!(
            "the instruction is {} characters long, more than the 2000 a rule may hold",
            huge.chars().count()
        )),
        "{}",
        run.stderr
    );
    let run = learn(&sandbox, "code", &"w".repeat(2001), "Never x").expect_noisy(2);
    assert!(
        run.stderr.contains("the why is 2001 characters long"),
        "{}",
        run.stderr
    );
    assert_eq!(numbers(&sandbox, RULES), [1]);
}

/// A trailing comma is called one, at the comma, in an object and in the array (serde
/// says "key must be a string", or points at the next line's `]`).
#[test]
fn a_trailing_comma_is_named_at_the_comma() {
    let sandbox = Sandbox::new();
    let rule = r#"{"Rule_number": 1, "Category": "CODE", "Instruction": "Always x", "Why": "y""#;
    for (text, closes, column) in [
        (format!("[\n  {rule},}}\n]\n"), "object", rule.len() + 3),
        (format!("[\n  {rule}}},\n]\n"), "array", rule.len() + 4),
    ] {
        sandbox.write(RULES, &text);
        let run = sandbox.run(&["check"]).expect(1);
        let expected = format!(
            "error[invalid-json]: trailing comma: JSON allows no comma after the last member of an {closes}; remove it\n  --> .agents/autofix.json:2:{column}\n"
        );
        assert!(run.stdout.contains(&expected), "{expected}\n{}", run.stdout);
        let run = sandbox.run(&["rules"]).expect_noisy(2);
        assert!(
            run.stderr.contains(&format!(
                ".agents/autofix.json:2:{column}: invalid JSON: trailing comma"
            )),
            "{}",
            run.stderr
        );
    }
}

/// `check` counts rules from 1, as every other message does.
#[test]
fn check_names_an_unnumbered_rule_by_its_position_from_one() {
    let sandbox = Sandbox::new();
    sandbox.write(
        RULES,
        r#"[
  {"Rule_number": 1, "Category": "CODE", "Instruction": "Always x", "Why": "y"},
  {"Rule_number": "two", "Category": "CODE", "Instruction": "Never y", "Why": "y"},
  3
]
"#,
    );
    let run = sandbox.run(&["check"]).expect(1);
    assert!(
        run.stdout
            .contains("element 3 of the array is a number, not a rule object"),
        "{}",
        run.stdout
    );
    sandbox.write(
        RULES,
        r#"[
  {"Rule_number": 1, "Category": "CODE", "Instruction": "Always x", "Why": "y"},
  {"Rule_number": "two", "Category": "CODE", "Instruction": "Never y", "Why": "y"}
]
"#,
    );
    let run = sandbox.run(&["check"]).expect(1);
    assert!(
        run.stdout.contains("the rule at position 2"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("index 1"), "{}", run.stdout);
}

/// `check --format github` ends with the same summary as the text form (a plain log
/// line, never a workflow command), spelled as `preset validate` spells its own.
#[test]
fn check_github_ends_with_the_summary() {
    let sandbox = Sandbox::new();
    tool_written(&sandbox, 2);
    let github = sandbox
        .run(&["check", "--format", "github"])
        .expect(0)
        .stdout;
    assert_eq!(
        github,
        "Checked 2 rules in .agents/autofix.json: 0 errors, 0 warnings.\n"
    );
    let text = sandbox.run(&["check"]).expect(0).stdout;
    assert_eq!(text, github);
}

/// `dangling-supersedes` points at the reference itself: the element of `Supersedes`, or
/// the field whose marker names the missing rule.
#[test]
fn a_dangling_reference_is_pointed_at_where_it_is_written() {
    let sandbox = Sandbox::new();
    sandbox.write(
        RULES,
        r#"[
  {"Rule_number": 1, "Category": "CODE", "Instruction": "Always x", "Why": "y"},
  {"Rule_number": 2, "Category": "CODE", "Instruction": "Never y", "Why": "z",
   "Supersedes": [1, 7]},
  {"Rule_number": 3, "Category": "CODE", "Instruction": "Never z", "Why": "w (supersedes rule 9)"}
]
"#,
    );
    let json = sandbox.run(&["check", "--format", "json"]).expect(1).json();
    let found: Vec<(String, u64, u64)> = json["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "dangling-supersedes")
        .map(|d| {
            (
                d["pointer"].as_str().unwrap().to_string(),
                d["line"].as_u64().unwrap(),
                d["column"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            ("/1/Supersedes/1".to_string(), 4, 22),
            ("/2/Why".to_string(), 5, 75)
        ]
    );
}

/// An instruction the shell split into words gets a hint to quote it, after clap's
/// "unexpected argument".
#[test]
fn an_unquoted_instruction_gets_a_hint_to_quote_it() {
    let sandbox = Sandbox::new();
    let run = sandbox
        .run(&[
            "learn", "-c", "code", "-w", "pref", "--format", "text", "Always", "use", "tabs",
        ])
        .expect_noisy(2);
    assert!(
        run.stderr.contains("unexpected argument 'use'"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.ends_with(
            "hint: the shell passed the instruction as 3 words; quote it to pass one: autofix learn … \"Always use tabs\"\n"
        ),
        "{}",
        run.stderr
    );
    assert!(!sandbox.join(RULES).exists());
}
