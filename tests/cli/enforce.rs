//! Rules that check themselves: `learn --check`/`--require` (validated, proposed, never added
//! unasked), `check`'s `invalid-check`, `enforce` over the staged diff, the work tree, a
//! base and named files (added lines only by default), its formats, the merge driver
//! keeping a check, and the pre-commit hook `init --pre-commit` installs and removes.

use std::fs;

use crate::support::{BIN, Run, Sandbox, hermetic_git};

const RULE: &str = "Never call `console.log` in src - because logs leak user data.";

/// The `learn` that records [`RULE`] with its check over `src/**`.
const LEARN_RULE: [&str; 10] = [
    "learn",
    "-c",
    "code",
    "-w",
    "bug lesson",
    "--path",
    "src/**",
    "--check",
    "console\\.log",
    RULE,
];

/// A git repository whose first rule forbids `console.log` in `src/**`, with one old
/// `console.log` committed in `src/app.ts`.
struct Repo {
    sandbox: Sandbox,
}

impl Repo {
    fn new() -> Repo {
        let repo = Repo {
            sandbox: Sandbox::new(),
        };
        repo.git(&["init", "-q", "-b", "main"]).expect(0);
        repo.sandbox.write(".gitignore", "home/\n*.lock\n");
        repo.sandbox
            .write("src/app.ts", "const a = 1;\nconsole.log(\"old\");\n");
        repo.autofix(&LEARN_RULE).expect(0);
        repo.git(&["add", "-A"]).expect(0);
        repo.git(&["commit", "-q", "-m", "start"]).expect(0);
        repo
    }

    fn git(&self, args: &[&str]) -> Run {
        let mut command = self.sandbox.program("git", args);
        Run::from_command(hermetic_git(&mut command))
    }

    fn autofix(&self, args: &[&str]) -> Run {
        let mut command = self.sandbox.program(BIN, args);
        Run::from_command(hermetic_git(&mut command))
    }

    /// `src/app.ts` with a new `console.log` on line 3, staged.
    fn stage_a_new_log(&self) {
        self.sandbox.write(
            "src/app.ts",
            "const a = 1;\nconsole.log(\"old\");\n  console.log(\"new\");\n",
        );
        self.git(&["add", "src/app.ts"]).expect(0);
    }
}

#[test]
fn a_staged_console_log_in_scope_is_caught_and_an_old_one_is_not() {
    let repo = Repo::new();
    // Nothing changed: nothing to report.
    let clean = repo.autofix(&["enforce", "--staged"]).expect(0);
    assert!(clean.stdout.contains("0 violations"), "{}", clean.stdout);

    repo.stage_a_new_log();
    // Out of scope: the same call in lib/ breaks nothing.
    repo.sandbox.write("lib/x.ts", "console.log(1);\n");
    repo.git(&["add", "lib/x.ts"]).expect(0);
    let run = repo.autofix(&["enforce", "--staged"]).expect(1);
    assert!(
        run.stdout.contains("error[rule-broken]: breaks rule 1: "),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains(RULE), "{}", run.stdout);
    assert!(
        run.stdout.contains("--> src/app.ts:3:3\n"),
        "{}",
        run.stdout
    );
    assert!(
        !run.stdout.contains("src/app.ts:2"),
        "the old line is not checked: {}",
        run.stdout
    );
    assert!(!run.stdout.contains("lib/x.ts"), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("Checked 2 files against 1 rule with a check: 1 violation."),
        "{}",
        run.stdout
    );

    // --all-lines reads the whole staged file: the old line too.
    let all = repo
        .autofix(&["enforce", "--staged", "--all-lines"])
        .expect(1);
    assert!(all.stdout.contains("src/app.ts:2:1"), "{}", all.stdout);
    assert!(all.stdout.contains("src/app.ts:3:3"), "{}", all.stdout);

    // GitHub annotations and JSON carry the same finding.
    let github = repo
        .autofix(&["enforce", "--staged", "--format", "github"])
        .expect(1);
    assert!(
        github.stdout.starts_with(
            "::error file=src/app.ts,line=3,col=3,title=rule-broken::breaks rule 1: Never call"
        ),
        "{}",
        github.stdout
    );
    let json = repo
        .autofix(&["enforce", "--staged", "--format", "json"])
        .expect(1)
        .json();
    assert_eq!(json["checks"], 1);
    assert_eq!(json["diagnostics"][0]["code"], "rule-broken");
    assert_eq!(json["diagnostics"][0]["line"], 3);

    // Fixed in the index (the work tree still has it): --staged is what gets committed.
    repo.git(&["reset", "-q", "src/app.ts"]).expect(0);
    repo.autofix(&["enforce", "--staged"]).expect(0);
    // The default looks at the work tree's changes, and untracked files whole.
    let work = repo.autofix(&["enforce"]).expect(1);
    assert!(work.stdout.contains("src/app.ts:3:3"), "{}", work.stdout);
    repo.sandbox
        .write("src/new.ts", "let b;\nconsole.log(b);\n");
    let work = repo.autofix(&["enforce"]).expect(1);
    assert!(work.stdout.contains("src/new.ts:2:1"), "{}", work.stdout);
}

/// Files named are read from disk, so `enforce FILE` needs no repository; the changes do.
/// `enforce` whole in each format, on a staged `console.log` the rule forbids.
#[test]
fn enforce_in_every_format() {
    let repo = Repo::new();
    repo.stage_a_new_log();
    for format in ["text", "json", "github", "sarif"] {
        let run = repo.autofix(&["enforce", "--format", format]);
        insta::assert_snapshot!(
            format!("enforce_{format}"),
            crate::snapshots::shown(&repo.sandbox, &run)
        );
    }
}

#[test]
fn named_files_are_checked_outside_a_git_work_tree() {
    let sandbox = Sandbox::new();
    sandbox.write("src/app.ts", "const a = 1;\nconsole.log(\"old\");\n");
    sandbox.run(&LEARN_RULE).expect(0);
    let named = sandbox.run(&["enforce", "src/app.ts"]).expect(1);
    assert!(named.stdout.contains("src/app.ts:2:1"), "{}", named.stdout);
    let changes = sandbox.run(&["enforce"]).expect(2);
    assert!(
        changes.stderr.contains("is not inside a git work tree"),
        "{}",
        changes.stderr
    );
}

#[test]
fn a_base_and_named_files_and_a_required_pattern() {
    let repo = Repo::new();
    repo.git(&["checkout", "-q", "-b", "topic"]).expect(0);
    repo.stage_a_new_log();
    repo.git(&["commit", "-q", "-m", "log"]).expect(0);
    let run = repo.autofix(&["enforce", "--base", "main"]).expect(1);
    assert!(run.stdout.contains("src/app.ts:3:3"), "{}", run.stdout);
    assert!(!run.stdout.contains("src/app.ts:2"), "{}", run.stdout);
    repo.autofix(&["enforce", "--base", "topic"]).expect(0);
    let unknown = repo
        .autofix(&["enforce", "--base", "no-such-ref"])
        .expect(2);
    assert_eq!(
        unknown.stderr,
        "error: --base `no-such-ref`: no such commit here (a shallow clone may need to fetch it)\n"
    );
    // A ref is never taken for an option of git's (`--output` would write a file).
    let option = repo
        .autofix(&["enforce", "--base=--output=written"])
        .expect(2);
    assert!(option.stderr.contains("not a git ref"), "{}", option.stderr);
    assert!(!repo.sandbox.join("written...HEAD").exists());
    let missing = repo.autofix(&["enforce", "src/nope.ts"]).expect(2);
    assert_eq!(missing.stderr, "error: src/nope.ts: no such file\n");
    let folder = repo.autofix(&["enforce", "src"]).expect(2);
    assert_eq!(
        folder.stderr,
        "error: src: a folder (enforce checks files, not folders)\n"
    );

    // Named files are checked whole.
    let named = repo.autofix(&["enforce", "src/app.ts"]).expect(1);
    assert!(named.stdout.contains("src/app.ts:2:1"), "{}", named.stdout);
    assert!(named.stdout.contains("src/app.ts:3:3"), "{}", named.stdout);

    // A Require check: a changed file in scope must hold the pattern somewhere.
    repo.autofix(&[
        "learn",
        "-c",
        "style",
        "-w",
        "policy",
        "--path",
        "*.sh",
        "--require",
        "^set -eu",
        "Always start shell scripts with `set -eu` - because errors must stop them.",
    ])
    .expect(0);
    repo.sandbox.write("run.sh", "#!/bin/sh\necho hi\n");
    let missing = repo.autofix(&["enforce"]).expect(1);
    assert!(
        missing.stdout.contains("--> run.sh:1\n"),
        "{}",
        missing.stdout
    );
    assert!(
        missing
            .stdout
            .contains("breaks rule 2: Always start shell scripts"),
        "{}",
        missing.stdout
    );
    repo.sandbox
        .write("run.sh", "#!/bin/sh\nset -eu\necho hi\n");
    let held = repo.autofix(&["enforce", "run.sh"]).expect(0);
    assert!(held.stdout.contains("0 violations"), "{}", held.stdout);
}

#[test]
fn learn_validates_a_check_and_proposes_one_without_adding_it() {
    let sandbox = Sandbox::new();
    let bad = sandbox
        .run(&[
            "learn",
            "-c",
            "code",
            "-w",
            "w",
            "--check",
            "console.log(",
            RULE,
        ])
        .expect(2);
    assert!(
        bad.stderr
            .contains("invalid check `console.log(` for --check: not a valid regular expression"),
        "{}",
        bad.stderr
    );
    assert!(
        !sandbox.join(".agents/autofix.json").exists(),
        "nothing written"
    );
    let huge = sandbox
        .run(&[
            "learn",
            "-c",
            "code",
            "-w",
            "w",
            "--check",
            "\\w{1000}{1000}",
            RULE,
        ])
        .expect(2);
    assert!(
        huge.stderr.contains("compiles to more than"),
        "{}",
        huge.stderr
    );

    // The shape "Never call `X`" gets a proposal, shown, not added.
    let learned = sandbox
        .run(&["learn", "-c", "code", "-w", "w", RULE])
        .expect(0);
    assert!(
        learned.stdout.contains(
            "a check could enforce it (not added): learn it with `--check 'console\\.log'`"
        ),
        "{}",
        learned.stdout
    );
    assert!(!sandbox.read(".agents/autofix.json").contains("Check"));
    let json = sandbox
        .run(&[
            "learn",
            "-c",
            "code",
            "-w",
            "w",
            "--dry-run",
            "--format",
            "json",
            "Never use moment.js - because it is heavy.",
        ])
        .expect(0)
        .json();
    assert_eq!(
        json["proposed_check"],
        serde_json::json!({"Forbid": "moment\\.js"})
    );
    assert!(json["rule"].get("Check").is_none());
}

#[test]
fn a_check_asked_for_is_stored_on_one_line_from_the_cli_and_from_json() {
    let sandbox = Sandbox::new();
    // Asked for, it is stored on one line, and read back from --json too.
    sandbox
        .run(&[
            "learn",
            "-c",
            "code",
            "-w",
            "w",
            "--check",
            "console\\.log",
            RULE,
        ])
        .expect(0);
    assert!(
        sandbox
            .read(".agents/autofix.json")
            .contains("\n    \"Check\": {\"Forbid\": \"console\\\\.log\"}\n")
    );
    let from_json = sandbox
        .run_with_stdin(
            &["learn", "--json", "--format", "json"],
            r#"{"Category": "TOOL", "Instruction": "Never run npm install - because the lockfile is pnpm's.", "Why": "w", "Check": {"Forbid": "npm install"}}"#,
        )
        .expect(0)
        .json();
    assert_eq!(
        from_json["rule"]["Check"],
        serde_json::json!({"Forbid": "npm install"})
    );
    let refused = sandbox
        .run_with_stdin(
            &["learn", "--json"],
            r#"{"Category": "TOOL", "Instruction": "Never x.", "Why": "w", "Check": {"Match": "x"}}"#,
        )
        .expect(2);
    assert!(
        refused.stderr.contains("`Check` must be"),
        "{}",
        refused.stderr
    );
    sandbox.run(&["check"]).expect(0);
}

#[test]
fn check_reports_a_check_that_cannot_run() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "autofix.json",
        r#"[
  {"Rule_number": 1, "Category": "CODE", "Instruction": "Never use x.", "Why": "w", "Check": {"Forbid": "("}},
  {"Rule_number": 2, "Category": "CODE", "Instruction": "Never use y.", "Why": "w", "Check": "y"},
  {"Rule_number": 3, "Category": "CODE", "Instruction": "Never use z.", "Why": "w", "Check": {"Require": "z"}}
]
"#,
    );
    let run = sandbox.run(&["check"]).expect(1);
    assert!(run.stdout.contains("error[invalid-check]: rule 1: the pattern `(` cannot be used: not a valid regular expression"), "{}", run.stdout);
    assert!(
        run.stdout.contains("--> autofix.json:2:94 (/0/Check)"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("error[invalid-check]: rule 2: `Check` must be an object"),
        "{}",
        run.stdout
    );
    assert_eq!(
        run.stdout.matches("invalid-check").count(),
        2,
        "{}",
        run.stdout
    );
    let explained = sandbox.run(&["explain", "invalid-check"]).expect(0);
    assert!(explained.stdout.contains("What it means: A rule's `Check`"));
}

#[test]
fn sarif_of_enforce_is_github_ready_and_validates() {
    let repo = Repo::new();
    repo.stage_a_new_log();
    let run = repo
        .autofix(&["enforce", "--staged", "--format", "sarif"])
        .expect(1);
    let log = run.json();
    crate::shell::assert_github_ready(&log, "autofix-enforce/");
    let result = &log["runs"][0]["results"][0];
    assert_eq!(result["ruleId"], "rule-broken");
    assert_eq!(
        result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "src/app.ts"
    );
    assert_eq!(
        result["locations"][0]["physicalLocation"]["region"]["startLine"],
        3
    );
    let path = repo.sandbox.write("enforce.sarif", &run.stdout);
    crate::shell::multitool_validates(&path);
}

#[test]
fn the_merge_driver_keeps_a_rule_s_check() {
    let repo = Repo::new();
    let base = repo.sandbox.read(".agents/autofix.json");
    repo.autofix(&[
        "learn",
        "-c",
        "tool",
        "-w",
        "w",
        "--check",
        "npm install",
        "Never run npm install - because of pnpm.",
    ])
    .expect(0);
    let ours = repo.sandbox.read(".agents/autofix.json");
    fs::write(repo.sandbox.join(".agents/autofix.json"), &base).unwrap();
    repo.autofix(&[
        "learn",
        "-c",
        "code",
        "-w",
        "w",
        "--require",
        "^// SPDX",
        "Always start a file with its SPDX line - because of audits.",
    ])
    .expect(0);
    let theirs = repo.sandbox.read(".agents/autofix.json");
    repo.sandbox.write("o.json", &base);
    repo.sandbox.write("a.json", &ours);
    repo.sandbox.write("b.json", &theirs);
    repo.autofix(&["merge-driver", "o.json", "a.json", "b.json"])
        .expect_noisy(0);
    let merged = repo.sandbox.read("a.json");
    assert!(
        merged.contains("\"Check\": {\"Forbid\": \"npm install\"}"),
        "{merged}"
    );
    assert!(
        merged.contains("\"Check\": {\"Require\": \"^// SPDX\"}"),
        "{merged}"
    );
    fs::write(repo.sandbox.join(".agents/autofix.json"), &merged).unwrap();
    let listed = repo.autofix(&["check"]).expect_noisy(0);
    assert!(
        !listed.stdout.contains("invalid-check"),
        "{}",
        listed.stdout
    );
}

#[test]
fn the_pre_commit_hook_stops_a_commit_that_breaks_a_rule_and_comes_out_cleanly() {
    let repo = Repo::new();
    let hook = repo.sandbox.join(".git/hooks/pre-commit");
    let theirs = "#!/bin/sh\necho their hook ran\n";
    fs::write(&hook, theirs).unwrap();
    // git runs only an executable hook.
    let mut command = repo
        .sandbox
        .program("chmod", &["755", ".git/hooks/pre-commit"]);
    Run::from_command(&mut command).expect(0);
    let installed = repo.autofix(&["init", "--pre-commit"]).expect(0);
    assert!(
        installed
            .stdout
            .contains("pre-commit hook: added autofix's block to .git/hooks/pre-commit"),
        "{}",
        installed.stdout
    );
    let text = fs::read_to_string(&hook).unwrap();
    assert!(text.starts_with(theirs), "their hook is kept: {text}");
    assert!(
        text.contains("autofix enforce --staged || exit 1"),
        "{text}"
    );
    // Again: nothing added twice.
    repo.autofix(&["init", "--pre-commit"]).expect(0);
    assert_eq!(fs::read_to_string(&hook).unwrap(), text);

    repo.stage_a_new_log();
    let refused = repo.git(&["commit", "-q", "-m", "log"]).expect_noisy(1);
    // git sends a hook's output to its stderr.
    let said = format!("{}{}", refused.stdout, refused.stderr);
    assert!(said.contains("their hook ran"), "{said}");
    assert!(said.contains("breaks rule 1: Never call"), "{said}");
    assert!(said.contains("src/app.ts:3:3"), "{said}");
    // The fixed change commits.
    repo.sandbox.write(
        "src/app.ts",
        "const a = 1;\nconsole.log(\"old\");\nlet b = 2;\n",
    );
    repo.git(&["add", "src/app.ts"]).expect(0);
    repo.git(&["commit", "-q", "-m", "no log"]).expect_noisy(0);

    let removed = repo.autofix(&["init", "--uninstall-pre-commit"]).expect(0);
    assert!(
        removed.stdout.contains("took autofix's block out of"),
        "{}",
        removed.stdout
    );
    assert_eq!(
        fs::read_to_string(&hook).unwrap(),
        theirs,
        "their hook, byte for byte"
    );

    // A hook autofix created goes away whole.
    fs::remove_file(&hook).unwrap();
    repo.autofix(&["init", "--pre-commit", "-q"]).expect(0);
    assert!(
        fs::read_to_string(&hook)
            .unwrap()
            .starts_with("#!/bin/sh\n# BEGIN autofix enforce")
    );
    repo.autofix(&["init", "--uninstall-pre-commit"]).expect(0);
    assert!(!hook.exists());
    let again = repo.autofix(&["init", "--uninstall-pre-commit"]).expect(0);
    assert!(
        again.stdout.contains("no autofix block in"),
        "{}",
        again.stdout
    );
}

/// Runs `hook post-tool --agent claude` with Claude Code's `PostToolUse` payload for a
/// tool call on `file` (`tool_input` given), from the repository.
fn post_tool(repo: &Repo, tool: &str, tool_input: serde_json::Value) -> Run {
    let payload = serde_json::json!({
        "session_id": "s1",
        "cwd": repo.sandbox.path(),
        "hook_event_name": "PostToolUse",
        "tool_name": tool,
        "tool_input": tool_input,
        "tool_response": {"success": true},
    });
    repo.sandbox.run_with_stdin(
        &["hook", "post-tool", "--agent", "claude"],
        &payload.to_string(),
    )
}

#[test]
fn the_after_edit_hook_names_the_rule_an_edit_breaks_and_is_silent_otherwise() {
    let repo = Repo::new();
    let file = repo.sandbox.join("src/app.ts");
    // An edit that adds a console.log: the answer Claude Code feeds back to the model.
    repo.stage_a_new_log();
    let run = post_tool(
        &repo,
        "Edit",
        serde_json::json!({"file_path": file, "old_string": "x", "new_string": "  console.log(\"new\");"}),
    )
    .expect(0);
    let answer: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(answer["decision"], "block");
    let reason = answer["reason"].as_str().unwrap();
    assert!(reason.contains("src/app.ts:3 breaks rule 1: "), "{reason}");
    assert!(reason.contains(RULE), "{reason}");
    assert!(
        !reason.contains("src/app.ts:2"),
        "the old line is not the edit's: {reason}"
    );

    // An edit elsewhere in the same file breaks nothing: no output at all.
    repo.sandbox.write(
        "src/app.ts",
        "const a = 1;\nconsole.log(\"old\");\nlet b = 2;\n",
    );
    let quiet = post_tool(
        &repo,
        "MultiEdit",
        serde_json::json!({"file_path": file, "edits": [{"old_string": "x", "new_string": "let b = 2;"}]}),
    )
    .expect(0);
    assert_eq!(quiet.stdout, "");

    // A Write is the whole file; out of scope is silent; so is what is not an edit.
    let written = post_tool(
        &repo,
        "Write",
        serde_json::json!({"file_path": file, "content": "…"}),
    )
    .expect(0);
    assert!(
        written.stdout.contains("src/app.ts:2 breaks rule 1"),
        "{}",
        written.stdout
    );
    repo.sandbox.write("lib/x.ts", "console.log(1);\n");
    let outside = post_tool(
        &repo,
        "Write",
        serde_json::json!({"file_path": repo.sandbox.join("lib/x.ts"), "content": "console.log(1);\n"}),
    )
    .expect(0);
    assert_eq!(outside.stdout, "");
    let bash = post_tool(&repo, "Bash", serde_json::json!({"command": "ls"})).expect(0);
    assert_eq!(bash.stdout, "");
}

#[test]
fn check_dry_run_shows_a_check_that_already_matches_old_code() {
    let repo = Repo::new();
    // Without --dry-run nothing is read but the rules file: the old line is not named.
    let plain = repo.autofix(&["check"]).expect(0);
    assert!(
        !plain.stdout.contains("check-matches-existing"),
        "{}",
        plain.stdout
    );
    // Four more old lines in two files in scope, one out of scope, one untracked.
    repo.sandbox.write(
        "src/b.ts",
        "console.log(1);\nconsole.log(2);\nconsole.log(3);\n",
    );
    repo.sandbox.write("lib/c.ts", "console.log(4);\n");
    repo.git(&["add", "src/b.ts", "lib/c.ts"]).expect(0);
    repo.git(&["commit", "-q", "-m", "more"]).expect(0);
    repo.sandbox.write("src/untracked.ts", "console.log(5);\n");
    let run = repo.autofix(&["check", "--dry-run"]).expect(0);
    assert!(
        run.stdout.contains("warning[check-matches-existing]: rule 1: its check `console\\.log` already matches 4 lines in 2 files it applies to: src/app.ts:2, src/b.ts:1, src/b.ts:2 and 1 more"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("--> .agents/autofix.json:"),
        "{}",
        run.stdout
    );
    let json = repo
        .autofix(&["check", "--dry-run", "--format", "json"])
        .expect(0)
        .json();
    let codes: Vec<&str> = json["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["check-matches-existing"], "{json}");
    assert_eq!(json["diagnostics"][0]["pointer"], "/0/Check");
    let explained = repo
        .autofix(&["explain", "check-matches-existing"])
        .expect(0);
    assert!(
        explained.stdout.contains("--dry-run"),
        "{}",
        explained.stdout
    );
}

#[test]
fn only_the_runs_over_added_lines_keep_receipts() {
    let repo = Repo::new();
    let receipts =
        || fs::read_to_string(repo.sandbox.join(".git/autofix/receipts.jsonl")).unwrap_or_default();
    // Old code, whole files: seen on every such run, no receipt.
    repo.autofix(&["enforce", "src/app.ts"]).expect(1);
    repo.autofix(&["enforce", "--all-lines", "--base", "HEAD"])
        .expect(0);
    repo.sandbox.write(
        "src/app.ts",
        "const a = 1;\nconsole.log(\"old\");\n  console.log(\"new\");\n",
    );
    repo.autofix(&["enforce", "--all-lines"]).expect(1);
    assert_eq!(receipts(), "");
    // The work tree's added line, by hand: one receipt; the same run again adds none.
    for _ in 0..2 {
        repo.autofix(&["enforce"]).expect(1);
    }
    let kept = receipts();
    assert_eq!(kept.lines().count(), 1, "{kept}");
    let receipt: serde_json::Value = serde_json::from_str(kept.trim()).unwrap();
    assert_eq!(receipt["via"], "work-tree");
    assert_eq!(receipt["rule"], 1);
    assert_eq!(receipt["instruction"], RULE);
    assert_eq!(
        (&receipt["file"], &receipt["line"]),
        (&"src/app.ts".into(), &3.into())
    );
    // Inside `.git/`: nothing git would commit.
    let status = repo.git(&["status", "--porcelain"]).expect(0).stdout;
    assert_eq!(status, " M src/app.ts\n");
}

#[test]
fn outside_a_repository_enforce_and_the_merge_driver_say_why_they_need_git() {
    let repo = Repo::new();
    let outside = Sandbox::new();
    fs::create_dir_all(outside.join(".agents")).unwrap();
    fs::copy(
        repo.sandbox.join(".agents/autofix.json"),
        outside.join(".agents/autofix.json"),
    )
    .unwrap();
    for (args, before, why) in [
        (
            &["enforce"][..],
            "",
            "`autofix enforce` reads the changes from git",
        ),
        (
            &["merge-driver", "--install"][..],
            "cannot install the merge driver: ",
            "use --global to install for every repository",
        ),
    ] {
        let mut command = outside.program(BIN, args);
        hermetic_git(&mut command).env("GIT_CEILING_DIRECTORIES", outside.path());
        let run = Run::from_command(&mut command).expect(2);
        assert_eq!(
            run.stderr,
            format!(
                "error: {before}{} is not inside a git work tree ({why})\n",
                outside.path().display()
            ),
            "{args:?}"
        );
    }
}

/// The diff path reads no more than a file read from disk may be (`AUTOFIX_MAX_FILE_BYTES`):
/// a staged file over the cap is passed over, as in the work tree, not held in memory.
#[test]
fn the_staged_diff_keeps_to_the_read_cap() {
    let Some(sandbox) = crate::support::tracked_repo(&[]) else {
        return;
    };
    sandbox
        .run(&[
            "learn",
            "Never call console.log in src.",
            "--check",
            r"console\.log",
        ])
        .expect(0);
    let big: String = (0..200).map(|n| format!("const v{n} = {n};\n")).collect();
    sandbox.write("src/big.ts", format!("{big}console.log(1);\n"));
    let mut add = sandbox.program("git", &["add", "src/big.ts"]);
    Run::from_command(crate::support::hermetic_git(&mut add)).expect(0);
    for args in [
        &["enforce", "--staged"][..],
        &["enforce", "--staged", "--all-lines"],
    ] {
        sandbox.run(args).expect(1);
        let capped = Run::from_command(sandbox.command(args).env("AUTOFIX_MAX_FILE_BYTES", "1000"));
        assert_eq!(capped.code, 0, "{args:?}: {}", capped.stdout);
    }
}
