//! `autofix export` (and `--check`, `--remove`) and `rules --format hook` through the
//! binary, over small fixture repositories built in the sandbox.

use std::fs;
use std::os::unix::fs::symlink;
use std::time::{Duration, SystemTime};

use crate::support::{Run, Sandbox};

const RULES: &str = ".agents/autofix.json";
const BEGIN: &str = "<!-- BEGIN:autofix-rules -->";
const END: &str = "<!-- END:autofix-rules -->";

/// Writes a rules file with these instructions (numbered from 1, category CODE).
fn rules(sandbox: &Sandbox, instructions: &[&str]) {
    let rules: Vec<serde_json::Value> = instructions
        .iter()
        .enumerate()
        .map(|(i, text)| {
            serde_json::json!({"Rule_number": i + 1, "Category": "CODE", "Instruction": text, "Why": "user preference"})
        })
        .collect();
    sandbox.write(RULES, serde_json::to_string_pretty(&rules).unwrap());
}

fn export(sandbox: &Sandbox, args: &[&str]) -> Run {
    let mut all = vec!["export"];
    all.extend_from_slice(args);
    sandbox.run(&all)
}

/// Sets a file's mtime far in the past, so that a rewrite would show.
fn age(sandbox: &Sandbox, relative: &str) -> SystemTime {
    let old = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000_000);
    let file = fs::File::options()
        .write(true)
        .open(sandbox.join(relative))
        .unwrap();
    file.set_modified(old).unwrap();
    old
}

fn mtime(sandbox: &Sandbox, relative: &str) -> SystemTime {
    fs::metadata(sandbox.join(relative))
        .unwrap()
        .modified()
        .unwrap()
}

fn count(haystack: &str, needle: &str) -> usize {
    haystack.matches(needle).count()
}

#[test]
fn inserts_into_agents_md_keeping_bom_crlf_and_every_outside_byte() {
    let sandbox = Sandbox::new();
    rules(&sandbox, &["Always use pnpm", "Never commit secrets"]);
    let original = "\u{feff}# Agents\r\n\r\nHand-written text.\r\n";
    sandbox.write("AGENTS.md", original);
    let run = export(&sandbox, &[]).expect(0);
    assert!(run.stdout.contains("agents-md (default)"), "{}", run.stdout);
    assert!(run.stdout.contains("updated  AGENTS.md"), "{}", run.stdout);
    let written = sandbox.read("AGENTS.md");
    assert!(written.starts_with(original), "{written:?}");
    let block = &written[original.len()..];
    assert!(block.starts_with(&format!("\r\n{BEGIN}\r\n## Project rules (autofix)\r\n")));
    assert!(block.ends_with(&format!("{END}\r\n")), "{block:?}");
    assert!(!block.replace("\r\n", "").contains('\n'), "{block:?}");
    assert!(block.contains("- **1** [CODE] Always use pnpm \u{2014} _user preference_\r\n"));
    assert!(
        !block.contains("active, "),
        "no counts in the block: {block}"
    );

    // A second export changes nothing, not even the mtime.
    let old = age(&sandbox, "AGENTS.md");
    let run = export(&sandbox, &[]).expect(0);
    assert!(
        run.stdout.contains("unchanged  AGENTS.md"),
        "{}",
        run.stdout
    );
    assert_eq!(mtime(&sandbox, "AGENTS.md"), old);
    assert_eq!(sandbox.read("AGENTS.md"), written);

    // A new rule rewrites only the block: text after it stays byte-identical too.
    let with_tail = format!("{written}\r\nMore hand text.\r\n");
    sandbox.write("AGENTS.md", &with_tail);
    rules(
        &sandbox,
        &["Always use pnpm", "Never commit secrets", "Always test"],
    );
    export(&sandbox, &[]).expect(0);
    let updated = sandbox.read("AGENTS.md");
    let begin = updated.find(BEGIN).unwrap();
    assert_eq!(&updated[..begin], &with_tail[..begin]);
    assert!(updated.ends_with(&format!("{END}\r\n\r\nMore hand text.\r\n")));
    assert!(updated.contains("- **3** [CODE] Always test"));
    export(&sandbox, &["--check"]).expect(0);
}

#[test]
fn creates_agents_md_and_removes_it_again() {
    let sandbox = Sandbox::new();
    rules(&sandbox, &["Always use pnpm"]);
    let run = export(&sandbox, &["--dry-run", "--diff"]).expect(0);
    assert!(
        run.stdout.contains("would create  AGENTS.md"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("+++ b/AGENTS.md\n"), "{}", run.stdout);
    assert!(!sandbox.join("AGENTS.md").exists());
    export(&sandbox, &[]).expect(0);
    assert!(sandbox.read("AGENTS.md").starts_with(BEGIN));
    let run = export(&sandbox, &["--remove"]).expect(0);
    assert!(run.stdout.contains("removed  AGENTS.md"), "{}", run.stdout);
    assert!(!sandbox.join("AGENTS.md").exists());
    let run = export(&sandbox, &["--remove"]).expect(0);
    assert!(run.stdout.contains("nothing to remove"), "{}", run.stdout);
}

#[test]
fn every_malformed_marker_state_is_refused_byte_identical_with_its_line() {
    let cases: Vec<(String, usize, &str)> = vec![
        (format!("# A\n{BEGIN}\nold\n"), 2, "without an END"),
        (format!("# A\n\nold\n{END}\n"), 4, "without a BEGIN"),
        (format!("{END}\nx\n{BEGIN}\n"), 1, "before the BEGIN"),
        (
            format!("{BEGIN}\na\n{END}\n{BEGIN}\nb\n{END}\n"),
            4,
            "two blocks",
        ),
        (
            format!("# A\n```md\n{BEGIN}\n{END}\n```\n"),
            3,
            "fenced code",
        ),
        (format!("Put {BEGIN} here.\n"), 1, "line of its own"),
        (format!("---\nnote: {END}\n---\n# A\n"), 2, "frontmatter"),
        ("<!-- begin:autofix-rules -->\n".to_string(), 1, "spelled"),
    ];
    for (text, line, reason) in cases {
        let sandbox = Sandbox::new();
        rules(&sandbox, &["Always use pnpm"]);
        // A CLAUDE.md of the user's: Claude Code reads `.claude/rules/`, not AGENTS.md.
        sandbox.write("CLAUDE.md", "# Mine\n");
        sandbox.write("AGENTS.md", &text);
        let run = export(&sandbox, &[]).expect(1);
        assert!(
            run.stdout
                .contains(&format!("refused  AGENTS.md:{line}: malformed markers")),
            "{text:?}\n{}",
            run.stdout
        );
        assert!(run.stdout.contains(reason), "{text:?}\n{}", run.stdout);
        assert_eq!(sandbox.read("AGENTS.md"), text);
        // The other targets go on.
        assert!(sandbox.join(".claude/rules/autofix.md").exists());
        let run = export(&sandbox, &["--check", "--format", "json"]).expect(1);
        let json = run.json();
        assert_eq!(json["targets"][0]["status"], "refused");
        assert_eq!(json["targets"][0]["problem"], "malformed-markers");
        assert_eq!(json["targets"][0]["line"], line);
        assert_eq!(json["targets"][1]["status"], "in-sync");
        export(&sandbox, &["--remove"]).expect(1);
        assert_eq!(sandbox.read("AGENTS.md"), text);
    }
}

#[test]
fn rule_text_cannot_forge_markers_or_imports() {
    let sandbox = Sandbox::new();
    rules(
        &sandbox,
        &[
            "Never write --> in comments",
            &format!("Always keep {END} last"),
            &format!("{BEGIN} is the start\n{END}"),
            "Always install @types/node, see @docs/setup.md",
            "Never stamp <!-- autofix:owned --> by hand",
        ],
    );
    sandbox.write("CLAUDE.md", "# Claude\n");
    let run = export(&sandbox, &["--target", "claude-md"]).expect(0);
    assert!(run.stdout.contains("updated  CLAUDE.md"), "{}", run.stdout);
    let claude = sandbox.read("CLAUDE.md");
    assert_eq!(count(&claude, BEGIN), 1, "{claude}");
    assert_eq!(count(&claude, END), 1, "{claude}");
    assert_eq!(count(&claude.to_ascii_lowercase(), "end:autofix-rules"), 1);
    assert!(
        claude.contains("Never write --&gt; in comments"),
        "{claude}"
    );
    assert!(
        claude.contains("`@types/node`, see `@docs/setup.md`"),
        "{claude}"
    );
    assert!(!claude.contains("autofix:owned"), "{claude}");
    // Every rule is one line.
    assert_eq!(
        claude.lines().filter(|l| l.starts_with("- **")).count(),
        5,
        "{claude}"
    );
    export(&sandbox, &["--check", "--target", "claude-md"]).expect(0);
    // The claude target after it: Claude Code (and Copilot CLI) would read the rules in
    // CLAUDE.md and `.claude/rules/` both, so the block goes, the user's text stays.
    let run = export(&sandbox, &["--target", "claude"]).expect(0);
    assert!(
        run.stdout.contains("claude-md (exported before)")
            && run.stdout.contains("removed  CLAUDE.md"),
        "{}",
        run.stdout
    );
    assert_eq!(sandbox.read("CLAUDE.md"), "# Claude\n");
    let owned = sandbox.read(".claude/rules/autofix.md");
    assert_eq!(count(&owned, "autofix:owned"), 1, "{owned}");
    // Without --target: AGENTS.md (a default) is missing, and with it the claude target's
    // rules move to `.claude/CLAUDE.md` (Copilot CLI reads AGENTS.md and `.claude/rules/`,
    // not that file).
    let run = export(&sandbox, &["--check"]).expect(1);
    let missing = |path: &str| {
        run.stdout
            .lines()
            .any(|line| line.split_whitespace().collect::<Vec<_>>() == ["missing", path])
    };
    assert!(missing("AGENTS.md"), "{}", run.stdout);
    assert!(missing(".claude/CLAUDE.md"), "{}", run.stdout);
    export(&sandbox, &[]).expect(0);
    assert_eq!(sandbox.read("CLAUDE.md"), "# Claude\n");
    assert!(!sandbox.join(".claude/rules/autofix.md").exists());
}

#[test]
fn owned_files_need_the_stamp_and_remove_takes_only_ours() {
    let sandbox = Sandbox::new();
    rules(&sandbox, &["Always use pnpm"]);
    let mine = "# My own cursor rule\n";
    sandbox.write(".cursor/rules/autofix.mdc", mine);
    let run = export(&sandbox, &["--target", "cursor,windsurf"]).expect(1);
    assert!(
        run.stdout
            .contains("refused  .cursor/rules/autofix.mdc:1: not owned by autofix"),
        "{}",
        run.stdout
    );
    assert_eq!(sandbox.read(".cursor/rules/autofix.mdc"), mine);
    let windsurf = sandbox.read(".windsurf/rules/autofix.md");
    assert!(windsurf.starts_with("---\ntrigger: always_on\n---\n<!-- autofix:owned"));
    export(&sandbox, &["--check", "--target", "cursor"]).expect(1);

    // Stamped: ours to rewrite, and stays exported without --target.
    fs::remove_file(sandbox.join(".cursor/rules/autofix.mdc")).unwrap();
    export(&sandbox, &["--target", "cursor"]).expect(0);
    let cursor = sandbox.read(".cursor/rules/autofix.mdc");
    assert!(cursor.starts_with(
        "---\ndescription: Project rules recorded with autofix (newer rules supersede older ones)\nalwaysApply: true\n---\n<!-- autofix:owned"
    ));
    rules(&sandbox, &["Always use pnpm", "Never use yarn"]);
    export(&sandbox, &["--target", "cursor"]).expect(0);
    assert!(
        sandbox
            .read(".cursor/rules/autofix.mdc")
            .contains("Never use yarn")
    );
    // Cursor reads AGENTS.md as well, which the defaults export: one copy per agent, so
    // Cursor's own goes (the user's file would stay).
    let run = export(&sandbox, &[]).expect(0);
    assert!(
        run.stdout.contains("cursor (exported before)")
            && run.stdout.contains(
                "removed  .cursor/rules/autofix.mdc (not written, one copy per agent: \
                 Cursor already reads the rules from another exported file)"
            ),
        "{}",
        run.stdout
    );
    assert!(!sandbox.join(".cursor/rules/autofix.mdc").exists());
    export(&sandbox, &["--target", "cursor", "--check"]).expect(0);

    // --remove takes our block and our files, nothing else.
    sandbox.write("AGENTS.md", "# Mine\n");
    export(&sandbox, &["--target", "agents-md"]).expect(0);
    sandbox.write(".claude/rules/autofix.md", "# not ours\n");
    let run = export(
        &sandbox,
        &["--remove", "--target", "agents-md,cursor,windsurf,claude"],
    )
    .expect(0);
    assert!(run.stdout.contains("not autofix's"), "{}", run.stdout);
    assert_eq!(sandbox.read("AGENTS.md"), "# Mine\n");
    assert!(!sandbox.join(".cursor/rules/autofix.mdc").exists());
    assert!(!sandbox.join(".windsurf/rules/autofix.md").exists());
    assert_eq!(sandbox.read(".claude/rules/autofix.md"), "# not ours\n");
}

#[test]
fn claude_md_linked_to_or_importing_agents_md() {
    // Importing: Claude Code reads the AGENTS.md block, so `claude` is not a default.
    let sandbox = Sandbox::new();
    rules(&sandbox, &["Always use pnpm"]);
    fs::create_dir(sandbox.join(".claude")).unwrap();
    sandbox.write("CLAUDE.md", "# Claude\n\n@AGENTS.md\n");
    let run = export(&sandbox, &[]).expect(0);
    assert!(
        run.stdout.contains("to: agents-md (default)\n"),
        "{}",
        run.stdout
    );
    assert!(!sandbox.join(".claude/rules").exists());
    assert_eq!(sandbox.read("CLAUDE.md"), "# Claude\n\n@AGENTS.md\n");
    // Asked for anyway: Claude Code would read the rules twice.
    let run = export(&sandbox, &["--target", "agents-md,claude"]).expect_noisy(0);
    assert!(
        run.stderr.contains("Claude Code reads the rules twice"),
        "{}",
        run.stderr
    );

    // Linked: one file, one block, whichever targets name it.
    let sandbox = Sandbox::new();
    rules(&sandbox, &["Always use pnpm"]);
    fs::create_dir(sandbox.join(".claude")).unwrap();
    sandbox.write("AGENTS.md", "# Agents\n");
    symlink("AGENTS.md", sandbox.join("CLAUDE.md")).unwrap();
    let run = export(&sandbox, &[]).expect(0);
    assert!(
        run.stdout.contains("to: agents-md (default)\n"),
        "{}",
        run.stdout
    );
    let run = export(&sandbox, &["--target", "agents-md,claude-md"]).expect(0);
    assert!(
        run.stdout
            .contains("skipped    CLAUDE.md (the same file as target `agents-md`"),
        "{}",
        run.stdout
    );
    assert_eq!(count(&sandbox.read("AGENTS.md"), BEGIN), 1);
    assert!(
        sandbox
            .join("CLAUDE.md")
            .symlink_metadata()
            .unwrap()
            .file_type()
            .is_symlink()
    );

    // Neither: `.claude/` makes the owned rule file a default.
    let sandbox = Sandbox::new();
    rules(&sandbox, &["Always use pnpm"]);
    sandbox.write("CLAUDE.md", "# Claude\n");
    let run = export(&sandbox, &[]).expect(0);
    assert!(
        run.stdout.contains("claude (CLAUDE.md exists)"),
        "{}",
        run.stdout
    );
    // Claude Code reads the user's CLAUDE.md and `.claude/CLAUDE.md` both; Copilot CLI
    // reads AGENTS.md and `.claude/rules/`: the rules go to `.claude/CLAUDE.md`, once each.
    assert!(
        sandbox
            .read(".claude/CLAUDE.md")
            .contains("Always use pnpm")
    );
    assert!(!sandbox.join(".claude/rules/autofix.md").exists());
}

#[test]
fn check_exit_codes_in_every_state_and_it_never_creates_a_file() {
    let sandbox = Sandbox::new();
    // No rules file and nothing exported: in sync.
    export(&sandbox, &["--check"]).expect(0);
    // Missing.
    rules(&sandbox, &["Always use pnpm"]);
    let run = export(&sandbox, &["--check"]).expect(1);
    assert!(run.stdout.contains("missing  AGENTS.md"), "{}", run.stdout);
    assert!(!sandbox.join("AGENTS.md").exists());
    let run = export(&sandbox, &["--check", "--format", "github"]).expect(1);
    assert_eq!(
        run.stdout,
        "::error file=AGENTS.md,title=export-out-of-sync::AGENTS.md is missing (block target \
         `agents-md`): run `autofix export` and commit the result\n"
    );
    // In sync.
    export(&sandbox, &[]).expect(0);
    export(&sandbox, &["--check"]).expect(0);
    // Line endings alone are not drift.
    let crlf = sandbox.read("AGENTS.md").replace('\n', "\r\n");
    sandbox.write("AGENTS.md", &crlf);
    export(&sandbox, &["--check"]).expect(0);
    // Stale.
    rules(&sandbox, &["Always use pnpm", "Never use npm"]);
    let run = export(&sandbox, &["--check", "--diff"]).expect(1);
    assert!(run.stdout.contains("stale  AGENTS.md"), "{}", run.stdout);
    assert!(
        run.stdout.contains("+- **2** [CODE] Never use npm"),
        "{}",
        run.stdout
    );
    assert_eq!(sandbox.read("AGENTS.md"), crlf);
    export(&sandbox, &[]).expect(0);
    // Unowned file at an owned path.
    sandbox.write(".kiro/steering/autofix.md", "# mine\n");
    let run = export(&sandbox, &["--check", "--target", "kiro"]).expect(1);
    assert!(
        run.stdout.contains("not owned by autofix"),
        "{}",
        run.stdout
    );
    fs::remove_dir_all(sandbox.join(".kiro")).unwrap();
    // Over budget.
    sandbox.write("AGENTS.md", format!("{}\n", "x".repeat(33_000)));
    let run = export(&sandbox, &["--check"]).expect(1);
    assert!(run.stdout.contains("over budget"), "{}", run.stdout);
    fs::remove_file(sandbox.join("AGENTS.md")).unwrap();
    export(&sandbox, &[]).expect(0);
    // Orphaned: the rules file is gone, the block is not.
    fs::remove_file(sandbox.join(RULES)).unwrap();
    let run = export(&sandbox, &["--check", "--format", "json"]).expect(1);
    assert_eq!(run.json()["targets"][0]["status"], "orphaned");
    export(&sandbox, &[]).expect(0);
    assert!(!sandbox.join("AGENTS.md").exists());
    export(&sandbox, &["--check"]).expect(0);
    // Could not run: an invalid rules file.
    sandbox.write(RULES, "[{");
    let run = export(&sandbox, &["--check"]).expect(2);
    assert!(run.stderr.contains("invalid JSON"), "{}", run.stderr);
    // --check never created anything along the way.
    assert!(!sandbox.join("AGENTS.md").exists());
    assert!(!sandbox.join(".claude/rules/autofix.md").exists());
}

#[test]
fn budgets_refuse_or_truncate_the_oldest_rules() {
    let sandbox = Sandbox::new();
    let long: Vec<String> = (1..=200)
        .map(|n| {
            format!(
                "Always follow the long convention number {n} {}",
                "x".repeat(150)
            )
        })
        .collect();
    let refs: Vec<&str> = long.iter().map(String::as_str).collect();
    rules(&sandbox, &refs);
    let mine = "# Agents\n";
    sandbox.write("AGENTS.md", mine);
    let run = export(&sandbox, &["--target", "agents-md"]).expect(1);
    assert!(
        run.stdout.contains("refused  AGENTS.md: over budget"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("32 KiB"), "{}", run.stdout);
    // The size names its unit.
    assert!(
        run.stdout.contains("AGENTS.md would be ") && run.stdout.contains(" bytes long"),
        "{}",
        run.stdout
    );
    assert_eq!(sandbox.read("AGENTS.md"), mine);
    let run = export(&sandbox, &["--target", "agents-md", "--truncate"]).expect_noisy(0);
    assert!(
        run.stdout.contains("oldest rules omitted"),
        "{}",
        run.stdout
    );
    let agents = sandbox.read("AGENTS.md");
    assert!(agents.len() <= 32 * 1024, "{}", agents.len());
    assert!(agents.contains("older rules omitted"));
    assert!(agents.contains("convention number 200 "));
    assert!(!agents.contains("convention number 1 "));
    export(
        &sandbox,
        &["--check", "--target", "agents-md", "--truncate"],
    )
    .expect_noisy(0);
    export(&sandbox, &["--check", "--target", "agents-md"]).expect(1);
    // Windsurf's budget, where no AGENTS.md carries the rules (one that does makes
    // Windsurf's own copy a second one, not written).
    let windsurf = Sandbox::new();
    rules(&windsurf, &refs);
    let run = export(&windsurf, &["--target", "windsurf"]).expect(1);
    assert!(run.stdout.contains("over budget"), "{}", run.stdout);
    assert!(!windsurf.join(".windsurf/rules/autofix.md").exists());
    export(&windsurf, &["--target", "windsurf", "--truncate"]).expect(0);
    let text = windsurf.read(".windsurf/rules/autofix.md");
    assert!(text.chars().count() <= 12_000);
}

#[test]
fn targets_outside_the_repository_and_foreign_files_are_refused() {
    let sandbox = Sandbox::new();
    let outside = tempfile::tempdir().unwrap();
    rules(&sandbox, &["Always use pnpm"]);
    symlink(outside.path(), sandbox.join(".claude")).unwrap();
    let ruled = "<!-- Generated by Ruler -->\n# Agents\n";
    sandbox.write("AGENTS.md", ruled);
    let run = export(&sandbox, &["--target", "claude,agents-md"]).expect(1);
    assert!(
        run.stdout.contains(
            "refused  .claude/rules/autofix.md: outside the repository: .claude/rules/autofix.md leads outside the repository"
        ),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("refused  AGENTS.md:1: owned by another generator: Ruler generates"),
        "{}",
        run.stdout
    );
    assert_eq!(fs::read_dir(outside.path()).unwrap().count(), 0);
    assert_eq!(sandbox.read("AGENTS.md"), ruled);
    // With a .ruler/ folder, the default is Ruler's source, not AGENTS.md.
    fs::create_dir(sandbox.join(".ruler")).unwrap();
    fs::remove_file(sandbox.join(".claude")).unwrap();
    let run = export(&sandbox, &[]).expect(0);
    assert!(
        run.stdout.contains("to: ruler (.ruler/ exists)\n"),
        "{}",
        run.stdout
    );
    assert!(
        sandbox
            .read(".ruler/autofix.md")
            .starts_with("<!-- autofix:owned")
    );
}

#[test]
fn the_hook_prints_one_capped_json_object_and_always_exits_0() {
    let sandbox = Sandbox::new();
    // No rules file: nothing (an empty object for Cursor).
    let run = sandbox
        .run(&["rules", "--format", "hook", "--agent", "claude"])
        .expect(0);
    assert_eq!(run.stdout, "");
    let run = sandbox
        .run(&["rules", "--format", "hook", "--agent", "cursor"])
        .expect(0);
    assert_eq!(run.stdout, "{}\n");
    assert!(!sandbox.join(".agents").exists());
    // An invalid file: nothing on stdout, the reason on stderr.
    sandbox.write(RULES, "[{]");
    let run = sandbox
        .run(&["rules", "--format", "hook", "--agent", "codex"])
        .expect_noisy(0);
    assert_eq!(run.stdout, "");
    assert!(run.stderr.contains("invalid JSON"), "{}", run.stderr);
    // Many rules: capped, the newest kept, valid JSON.
    let long: Vec<String> = (1..=300)
        .map(|n| format!("Always keep \"convention\" {n} in mind {}", "y".repeat(40)))
        .collect();
    let refs: Vec<&str> = long.iter().map(String::as_str).collect();
    rules(&sandbox, &refs);
    for agent in ["claude", "codex", "gemini", "cursor"] {
        let run = sandbox
            .run(&["rules", "--format", "hook", "--agent", agent])
            .expect(0);
        assert!(run.stdout.chars().count() <= 9_000, "{agent}");
        assert_eq!(run.stdout.lines().count(), 1);
        let json = run.json();
        let text = if agent == "cursor" {
            json["additional_context"].as_str().unwrap().to_string()
        } else {
            assert_eq!(json["hookSpecificOutput"]["hookEventName"], "SessionStart");
            json["hookSpecificOutput"]["additionalContext"]
                .as_str()
                .unwrap()
                .to_string()
        };
        assert!(text.starts_with(
            "Project rules recorded in .agents/autofix.json (newer rules supersede older ones"
        ));
        assert!(text.contains("older rules omitted"), "{text}");
        assert!(text.contains("\"convention\" 300 "), "{text}");
    }
}

/// The loop: a learned rule reaches every copy exported before, in the same run, and
/// `export --check` (the CI step) stays green; nothing is exported where nothing was.
#[test]
fn learn_refreshes_what_was_exported() {
    let sandbox = Sandbox::new();
    sandbox.write(".git/HEAD", "ref: refs/heads/main\n");
    // Nothing exported yet: learn creates no AGENTS.md.
    sandbox
        .run(&["learn", "-c", "code", "-w", "w", "Always start small"])
        .expect(0);
    assert!(!sandbox.join("AGENTS.md").exists());
    export(&sandbox, &["--target", "agents-md,kiro"]).expect_noisy(0);
    let run = sandbox
        .run(&[
            "learn",
            "-c",
            "code",
            "-w",
            "w",
            "Keep secrets out of the repository",
        ])
        .expect(0);
    assert_eq!(
        run.stdout,
        "Learned rule #2 ([CODE]): Keep secrets out of the repository \u{2014} saved to .agents/autofix.json\n  exported copies refreshed: AGENTS.md, .kiro/steering/autofix.md\n"
    );
    assert!(
        sandbox
            .read("AGENTS.md")
            .contains("Keep secrets out of the repository")
    );
    assert!(
        sandbox
            .read(".kiro/steering/autofix.md")
            .contains("Keep secrets out of the repository")
    );
    sandbox.run(&["export", "--check"]).expect_noisy(0);

    let json = sandbox
        .run(&[
            "learn",
            "-c",
            "code",
            "-w",
            "w",
            "--format",
            "json",
            "Always report copies",
        ])
        .expect(0)
        .json();
    assert_eq!(
        json["exports"],
        serde_json::json!([
            {"target": "agents-md", "path": "AGENTS.md", "status": "updated"},
            {"target": "kiro", "path": ".kiro/steering/autofix.md", "status": "updated"}
        ])
    );

    // A copy that cannot be refreshed never undoes the rule: exit 0, a warning.
    sandbox.write("AGENTS.md", "<!-- BEGIN:autofix-rules -->\nno end marker\n");
    let run = sandbox
        .run(&["learn", "-c", "code", "-w", "w", "Always keep the rule"])
        .expect_noisy(0);
    assert!(
        run.stderr.contains(
            "warning[export-not-refreshed]: the rule is saved, but AGENTS.md was not refreshed"
        ),
        "{}",
        run.stderr
    );
    assert!(sandbox.read(RULES).contains("Always keep the rule"));
    assert!(
        sandbox
            .read(".kiro/steering/autofix.md")
            .contains("Always keep the rule")
    );
}

/// A refused target is a diagnostic code like any other: its annotation names the code and
/// `explain` knows it.
#[test]
fn refusals_have_codes_that_explain_knows() {
    let sandbox = Sandbox::new();
    rules(&sandbox, &["Always x"]);
    sandbox.write(".claude/rules/autofix.md", "my own notes\n");
    let run = export(&sandbox, &["--target", "claude", "--format", "github"]).expect(1);
    assert!(
        run.stdout
            .starts_with("::error file=.claude/rules/autofix.md,line=1,title=export-unowned::"),
        "{}",
        run.stdout
    );
    let explained = sandbox.run(&["explain", "export-unowned"]).expect(0).stdout;
    assert!(explained.contains("autofix:owned"), "{explained}");
}

/// `learn` refreshes a copy exported with `--truncate` the same way, and still refuses to
/// drop rules from a copy nobody asked to truncate.
#[test]
fn learn_keeps_a_truncated_copy_truncated() {
    let sandbox = Sandbox::new();
    let long: Vec<String> = (1..=200)
        .map(|n| {
            format!(
                "Always follow the long convention number {n} {}",
                "x".repeat(150)
            )
        })
        .collect();
    let refs: Vec<&str> = long.iter().map(String::as_str).collect();
    rules(&sandbox, &refs);
    export(&sandbox, &["--target", "windsurf", "--truncate"]).expect(0);
    let run = sandbox
        .run(&[
            "learn",
            "-c",
            "code",
            "-w",
            "w",
            "Always keep the newest rule",
        ])
        .expect(0);
    assert!(
        run.stdout
            .contains("exported copies refreshed: .windsurf/rules/autofix.md"),
        "{}",
        run.stdout
    );
    let copy = sandbox.read(".windsurf/rules/autofix.md");
    assert!(
        copy.contains("Always keep the newest rule") && copy.contains("omitted"),
        "{copy}"
    );
    // `export` itself still truncates only when asked.
    let run = export(&sandbox, &["--target", "windsurf"]).expect(1);
    assert!(run.stdout.contains("over budget"), "{}", run.stdout);
}

#[test]
fn a_file_target_and_a_folder_target_at_one_path_are_a_usage_error() {
    let sandbox = Sandbox::new();
    rules(&sandbox, &["Always x"]);
    for extra in [&[][..], &["--check"], &["--remove"]] {
        let mut args = vec!["--target", "cline", "--target", "cline-rules"];
        args.extend_from_slice(extra);
        let run = export(&sandbox, &args).expect_noisy(2);
        assert!(
            run.stderr.contains(
                "the targets `cline` and `cline-rules` cannot be used together: `cline` is the file .clinerules and `cline-rules` a file in the folder .clinerules/; choose one"
            ),
            "{}",
            run.stderr
        );
    }
    assert!(!sandbox.join(".clinerules").exists());
    export(&sandbox, &["--target", "cline-rules"]).expect(0);
    assert!(sandbox.join(".clinerules/autofix.md").is_file());
}
