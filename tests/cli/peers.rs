//! Beside rulesync and Ruler, with fixture repositories (no Node needed): where `.rulesync/`
//! or `.ruler/` exists, `export` writes only the tool's source, leaves every path the
//! tool generates alone (saying so, exit 0), and `init` puts the skill in the tool's
//! skills folder where the tool manages the agents' skill folders.

use crate::support::{Run, Sandbox, tracked_repo};

const RULES: &str = ".agents/autofix.json";

/// A sandbox with a rules file holding one rule.
fn with_rule() -> Sandbox {
    let sandbox = Sandbox::new();
    sandbox.write(
        RULES,
        r#"[{"Rule_number": 1, "Category": "CODE", "Instruction": "Always use pnpm", "Why": "user preference"}]"#,
    );
    sandbox
}

/// The output with runs of spaces squashed (the status column's width varies).
fn squash(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c != ' ' || !out.ends_with(' ') {
            out.push(c);
        }
    }
    out
}

#[track_caller]
fn says(run: &Run, line: &str) {
    assert!(
        squash(&run.stdout).contains(line),
        "{line}\n---\n{}",
        run.stdout
    );
}

/// rulesync with Claude Code, Cursor, Copilot and AGENTS.md, rules and skills.
const RULESYNC_CONFIG: &str = r#"{
  // as `rulesync init` writes it, narrowed
  "targets": ["claudecode", "cursor", "copilot", "agentsmd"],
  "features": ["rules", "skills"],
  "delete": true,
}
"#;

#[test]
fn beside_rulesync_only_its_source_is_written() {
    let sandbox = with_rule();
    sandbox.write("rulesync.jsonc", RULESYNC_CONFIG);
    sandbox.write(
        ".rulesync/rules/overview.md",
        "---\nroot: true\n---\n# Overview\n",
    );
    sandbox.write(".claude/settings.json", "{}\n");
    let run = sandbox.run(&["export"]).expect(0);
    says(&run, "to: rulesync (.rulesync/ exists)");
    says(&run, "created .rulesync/rules/autofix.md");
    let source = sandbox.read(".rulesync/rules/autofix.md");
    assert!(source.starts_with("---\nroot: false\n"), "{source}");
    assert!(source.contains("Always use pnpm"));
    for path in ["AGENTS.md", ".claude/rules/autofix.md", "CLAUDE.md"] {
        assert!(!sandbox.join(path).exists(), "{path}");
    }
    // What `rulesync generate` makes of the source: the body, stamp included, under its
    // own frontmatter. It is rulesync's file, so the check does not compare it.
    let body = source.split_once("---\n").unwrap().1;
    let body = body.split_once("---\n").unwrap().1;
    let generated = format!("---\npaths:\n  - '**/*'\n---\n{body}");
    sandbox.write(".claude/rules/autofix.md", &generated);
    sandbox.write(
        ".cursor/rules/autofix.mdc",
        format!("---\nalwaysApply: true\n---\n{body}"),
    );
    let run = sandbox.run(&["export", "--check"]).expect(0);
    says(&run, "in sync .rulesync/rules/autofix.md");
    says(
        &run,
        "skipped .claude/rules/autofix.md (rulesync generates this path (target `claudecode`, \
         feature `rules`, from rulesync.jsonc), so autofix leaves it alone: the rules reach the \
         agents through .rulesync/rules/autofix.md",
    );
    says(
        &run,
        "skipped .cursor/rules/autofix.mdc (rulesync generates",
    );
    // Asked for by name, a generated path is still left alone, and not an error.
    let run = sandbox
        .run(&["export", "--target", "claude,agents-md"])
        .expect(0);
    says(
        &run,
        "skipped AGENTS.md (rulesync generates this path (target `agentsmd`",
    );
    sandbox
        .run(&["export", "--remove", "--target", "claude"])
        .expect(0);
    assert_eq!(sandbox.read(".claude/rules/autofix.md"), generated);
    assert!(!sandbox.join("AGENTS.md").exists());
    let json = sandbox
        .run(&["export", "--check", "--format", "json"])
        .expect(0)
        .json();
    let skipped: Vec<&str> = json["targets"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["status"] == "skipped")
        .map(|t| t["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        skipped,
        [".claude/rules/autofix.md", ".cursor/rules/autofix.mdc"]
    );
}

#[test]
fn copies_exported_before_a_peer_arrived_are_left_alone() {
    let sandbox = with_rule();
    sandbox.write("CLAUDE.md", "# Mine\n");
    sandbox.write(".clinerules", "# Cline\n");
    sandbox.write("GEMINI.md", "# Gemini\n");
    sandbox
        .run(&[
            "export",
            "--target",
            "agents-md,claude-md,cline,gemini-md,claude",
        ])
        // Claude Code reads the claude target's files and Cline AGENTS.md, so CLAUDE.md and
        // `.clinerules` are left as they are.
        .expect_noisy(0);
    let before: Vec<(&str, Vec<u8>)> = [
        "AGENTS.md",
        "CLAUDE.md",
        ".clinerules",
        "GEMINI.md",
        ".claude/CLAUDE.md",
    ]
    .iter()
    .map(|p| (*p, sandbox.read_bytes(p)))
    .collect();
    // Ruler is adopted: it lists what it generates in its .gitignore block (CLAUDE.md and
    // .clinerules without a header), and GEMINI.md already carries its source lines.
    sandbox.write(".ruler/AGENTS.md", "# Ruler's rules\n");
    sandbox.write(
        ".gitignore",
        "target/\n\n# START Ruler Generated Files\n/.clinerules\n/.clinerules.bak\n/AGENTS.md\n/AGENTS.md.bak\n/CLAUDE.md\n/CLAUDE.md.bak\n# END Ruler Generated Files\n",
    );
    let gemini = format!(
        "{}\n<!-- Source: .ruler/AGENTS.md -->\n\n# Ruler's rules\n",
        sandbox.read("GEMINI.md")
    );
    sandbox.write("GEMINI.md", &gemini);
    sandbox
        .run(&["learn", "-c", "code", "-w", "w", "Never use npm"])
        .expect(0);
    // Ruler's CLAUDE.md carries .ruler/autofix.md to Claude Code, which also reads the copy
    // exported before to .claude/rules/: said, with the copy to drop.
    let run = sandbox.run(&["export"]).expect_noisy(0);
    assert!(
        run.stderr.contains(
            "Claude Code reads the rules twice: from targets claude and ruler; keep one (e.g. `autofix export --remove --target claude`)"
        ),
        "{}",
        run.stderr
    );
    says(&run, "ruler (.ruler/ exists)");
    says(&run, "created .ruler/autofix.md");
    // Neither CLAUDE.md's block nor `.clinerules` was ever exported: Claude Code read the
    // claude target's files, Cline AGENTS.md.
    assert!(!run.stdout.contains("CLAUDE.md ("), "{}", run.stdout);
    assert!(!run.stdout.contains(".clinerules"), "{}", run.stdout);
    says(&run, "skipped AGENTS.md (Ruler generates");
    says(
        &run,
        "skipped GEMINI.md (Ruler generates this path (it carries Ruler's header)",
    );
    for (path, bytes) in &before[..3] {
        assert_eq!(&sandbox.read_bytes(path), bytes, "{path}");
    }
    assert_eq!(sandbox.read("GEMINI.md"), gemini);
    // Ruler never writes .claude/rules/: that copy stays autofix's, and fresh.
    assert!(
        sandbox
            .read(".claude/rules/autofix.md")
            .contains("Never use npm")
    );
    assert!(sandbox.read(".ruler/autofix.md").contains("Never use npm"));
    sandbox.run(&["export", "--check"]).expect_noisy(0);
    // Taking the advice ends the double reading.
    sandbox
        .run(&["export", "--remove", "--target", "claude"])
        .expect(0);
    sandbox.run(&["export", "--check"]).expect(0);
}

#[test]
fn learn_refreshes_the_source_and_not_what_the_peer_generates() {
    let sandbox = with_rule();
    sandbox.write("rulesync.jsonc", RULESYNC_CONFIG);
    sandbox.write(
        ".rulesync/rules/overview.md",
        "---\nroot: true\n---\n# Overview\n",
    );
    sandbox.run(&["export"]).expect(0);
    let generated = "---\npaths:\n  - '**/*'\n---\n<!-- autofix:owned: generated by `autofix export` from .agents/autofix.json -->\n- old\n";
    sandbox.write(".claude/rules/autofix.md", generated);
    let run = sandbox
        .run(&["learn", "-c", "code", "-w", "w", "Never use npm"])
        .expect(0);
    assert!(
        run.stdout.contains(".rulesync/rules/autofix.md"),
        "{}",
        run.stdout
    );
    assert!(
        sandbox
            .read(".rulesync/rules/autofix.md")
            .contains("Never use npm")
    );
    assert_eq!(sandbox.read(".claude/rules/autofix.md"), generated);
    sandbox.run(&["export", "--check"]).expect(0);
}

#[test]
fn init_gives_rulesync_the_skill_where_it_manages_skill_folders() {
    let Some(sandbox) = tracked_repo(&[]) else {
        return;
    };
    sandbox.write("rulesync.jsonc", RULESYNC_CONFIG);
    sandbox.write(
        ".rulesync/rules/overview.md",
        "---\nroot: true\n---\n# Overview\n",
    );
    let run = sandbox.run(&["init", "--export"]).expect(0);
    says(&run, "created .rulesync/skills/autofix/SKILL.md");
    says(
        &run,
        "skipped .claude/skills/autofix/SKILL.md (skill): rulesync generates this path (target \
         `claudecode`, feature `skills`, from rulesync.jsonc), so autofix leaves it alone: the \
         skill reaches the agents through .rulesync/skills/autofix/SKILL.md",
    );
    // No configured target writes .agents/skills/ here: that copy is still autofix's.
    says(&run, "created .agents/skills/autofix/SKILL.md");
    says(&run, "created .rulesync/rules/autofix.md");
    says(
        &run,
        "Run `rulesync generate`: rulesync takes the rules to the agents from its sources. \
         Add `rulesync generate --check` to CI too.",
    );
    assert!(!sandbox.join(".claude/skills").exists());
    assert_eq!(
        sandbox.read(".rulesync/skills/autofix/SKILL.md"),
        sandbox.read(".agents/skills/autofix/SKILL.md")
    );
    sandbox.run(&["init", "--export", "--check"]).expect(0);
}

#[test]
fn init_gives_ruler_the_skill_only_where_it_has_a_skills_folder() {
    let Some(sandbox) = tracked_repo(&[]) else {
        return;
    };
    sandbox.write(".ruler/AGENTS.md", "# Ruler's rules\n");
    let run = sandbox.run(&["init"]).expect(0);
    says(&run, "created .claude/skills/autofix/SKILL.md");
    says(&run, "created .agents/skills/autofix/SKILL.md");
    assert!(!sandbox.join(".ruler/skills").exists());

    let Some(sandbox) = tracked_repo(&[]) else {
        return;
    };
    sandbox.write(".ruler/skills/review/SKILL.md", "---\nname: review\n---\n");
    let run = sandbox.run(&["init"]).expect(0);
    says(&run, "created .ruler/skills/autofix/SKILL.md");
    says(
        &run,
        "skipped .claude/skills/autofix/SKILL.md (skill): Ruler generates this path (Ruler \
         replaces this skill folder with a copy of .ruler/skills/)",
    );
    says(
        &run,
        "skipped .agents/skills/autofix/SKILL.md (skill): Ruler generates",
    );
    assert!(!sandbox.join(".claude/skills").exists());
    assert!(!sandbox.join(".agents/skills").exists());
    sandbox.run(&["init", "--check"]).expect(0);
}

#[test]
fn rulesync_commands_folders_get_no_learn_command() {
    let Some(sandbox) = tracked_repo(&[]) else {
        return;
    };
    sandbox.write(
        "rulesync.jsonc",
        r#"{"targets": ["claudecode", "cursor"], "features": "*"}"#,
    );
    sandbox.write(
        ".rulesync/rules/overview.md",
        "---\nroot: true\n---\n# Overview\n",
    );
    sandbox.write(".cursor/rules/x.mdc", "");
    let run = sandbox.run(&["init"]).expect(0);
    says(
        &run,
        "skipped .claude/commands/learn.md (command claude): rulesync generates",
    );
    says(
        &run,
        "skipped .cursor/commands/learn.md (command cursor): rulesync generates",
    );
    assert!(!sandbox.join(".claude/commands").exists());
}

#[test]
fn rulesync_hooks_feature_owns_the_agents_hook_files() {
    let Some(sandbox) = tracked_repo(&[]) else {
        return;
    };
    sandbox.write(
        "rulesync.jsonc",
        r#"{"targets": ["claudecode", "codexcli"], "features": ["rules", "hooks"]}"#,
    );
    sandbox.write(".rulesync/hooks.jsonc", "{\"version\": 1, \"hooks\": {}}\n");
    let run = sandbox
        .run(&["init", "--hook", "claude,codex,gemini"])
        .expect(0);
    says(
        &run,
        "skipped .claude/settings.json (hook claude): rulesync generates this path (target \
         `claudecode`, feature `hooks`, from rulesync.jsonc), so autofix leaves it alone: add \
         autofix's hook commands to .rulesync/hooks.jsonc for that target (`autofix rules \
         --format hook --agent claude` at sessionStart)",
    );
    says(
        &run,
        "skipped .codex/hooks.json (hook codex): rulesync generates",
    );
    says(&run, "created .gemini/settings.json (hook gemini)");
    assert!(!sandbox.join(".claude/settings.json").exists());
    // Claude Code's local settings are not rulesync's: `--local` still installs the hook.
    let run = sandbox
        .run(&["init", "--hook", "claude", "--local"])
        .expect(0);
    says(&run, "created .claude/settings.local.json (hook claude)");
}

/// A `rulesync.jsonc` that does not parse is said out loud: autofix then guesses
/// rulesync's paths from its defaults, and rulesync itself would refuse the file.
#[test]
fn a_malformed_rulesync_config_is_a_warning() {
    let sandbox = with_rule();
    sandbox.write(".rulesync/rules/overview.md", "# Overview\n");
    sandbox.write(
        "rulesync.jsonc",
        "{\n  // targets\n  \"targets\": [\"claudecode\" \"cursor\"],\n}\n",
    );
    let run = sandbox.run(&["export"]).expect_noisy(0);
    assert!(
        run.stderr.contains(
            "warning[peer-config-invalid]: rulesync.jsonc is not valid JSON with comments (expected `,` or `]` at line 3"
        ),
        "{}",
        run.stderr
    );
    sandbox.write("rulesync.jsonc", "{\"targets\": [\"claudecode\"],}\n");
    sandbox.run(&["export"]).expect(0);
}
