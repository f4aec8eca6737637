//! `autofix init` through the binary: idempotence, the skill, hooks merged into existing
//! settings, refusals.

use std::fs;
use std::time::{Duration, SystemTime};

use crate::support::Sandbox;

const SKILLS: [&str; 2] = [
    ".agents/skills/autofix/SKILL.md",
    ".claude/skills/autofix/SKILL.md",
];

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

/// A sandbox that is a git repository (a real one when git is installed, so that the
/// merge-driver step has something to install into).
fn repo() -> Sandbox {
    let sandbox = Sandbox::new();
    let initialised = sandbox
        .program("git", &["init", "-q"])
        .status()
        .is_ok_and(|s| s.success());
    if !initialised {
        fs::create_dir(sandbox.join(".git")).unwrap();
    }
    sandbox
}

fn git_installed() -> bool {
    std::process::Command::new("git")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Ages every file below the sandbox's dot folders; returns the paths and their mtime.
fn age_all(sandbox: &Sandbox, paths: &[&str]) -> SystemTime {
    let old = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000_000);
    for path in paths {
        fs::File::options()
            .write(true)
            .open(sandbox.join(path))
            .unwrap()
            .set_modified(old)
            .unwrap();
    }
    old
}

#[test]
fn init_twice_the_second_run_is_a_no_op() {
    let sandbox = repo();
    let run = sandbox.run(&["init", "--check"]).expect(1);
    assert!(
        squash(&run.stdout).contains("would create .agents/autofix.json"),
        "{}",
        run.stdout
    );
    assert!(!sandbox.join(".agents").exists());
    let run = sandbox.run(&["init", "--dry-run"]).expect(0);
    assert!(
        squash(&run.stdout).contains("Nothing was written"),
        "{}",
        run.stdout
    );
    assert!(!sandbox.join(".agents").exists());

    let run = sandbox.run(&["init"]).expect(0);
    assert!(
        run.stdout.starts_with("Setting up autofix in .\n"),
        "{}",
        run.stdout
    );
    assert!(
        squash(&run.stdout).contains("created .agents/autofix.json (rules file)"),
        "{}",
        run.stdout
    );
    if git_installed() {
        assert!(
            squash(&run.stdout).contains("updated merge driver"),
            "{}",
            run.stdout
        );
        let attributes = sandbox.read(".gitattributes");
        assert!(attributes.contains("merge=autofix"), "{attributes}");
    } else {
        crate::support::skip("git", "the merge-driver step (git is not installed)");
    }
    assert!(
        squash(&run.stdout).contains("autofix export --check --format github"),
        "{}",
        run.stdout
    );
    assert_eq!(sandbox.read(".agents/autofix.json"), "[]\n");
    let skill = sandbox.read(SKILLS[0]);
    assert_eq!(sandbox.read(SKILLS[1]), skill);
    assert!(skill.starts_with("---\nname: autofix\ndescription: "));
    assert!(
        skill.contains("metadata:\n  generator: autofix\n  autofix-skill-version: \"5\"\n---\n")
    );
    assert!(skill.contains("STYLE, CODE, ARCH, TOOL, PROCESS, DATA, UX, OTHER"));

    let mut files = vec![".agents/autofix.json"];
    files.extend(SKILLS);
    let old = age_all(&sandbox, &files);
    let run = sandbox.run(&["init"]).expect(0);
    assert!(
        squash(&run.stdout).contains("Nothing to change"),
        "{}",
        run.stdout
    );
    assert!(!squash(&run.stdout).contains("created"), "{}", run.stdout);
    for file in &files {
        assert_eq!(
            fs::metadata(sandbox.join(file))
                .unwrap()
                .modified()
                .unwrap(),
            old,
            "{file}"
        );
    }
    sandbox.run(&["init", "--check"]).expect(0);
    let json = sandbox.run(&["init", "--format", "json"]).expect(0).json();
    assert_eq!(json["changed"], false);
    assert_eq!(json["steps"][0]["action"], "unchanged");
}

#[test]
fn outside_a_repository_init_needs_a_root() {
    let sandbox = Sandbox::new();
    let run = sandbox.run(&["init"]).expect(2);
    assert!(
        run.stderr.contains("not inside a git repository"),
        "{}",
        run.stderr
    );
    assert!(!sandbox.join(".agents").exists());
    sandbox.run(&["-C", ".", "init"]).expect(0);
    assert!(sandbox.join(".agents/autofix.json").exists());
    // From a subdirectory, the git top level is the root.
    let sandbox = repo();
    fs::create_dir_all(sandbox.join("src/deep")).unwrap();
    let run = sandbox.command_in("src/deep", &["init"]).output().unwrap();
    assert_eq!(run.status.code(), Some(0));
    let stdout = String::from_utf8(run.stdout).unwrap();
    assert!(
        stdout.starts_with("Setting up autofix in ../..\n"),
        "{stdout}"
    );
    assert!(sandbox.join(".agents/skills/autofix/SKILL.md").exists());
    assert!(!sandbox.join("src/deep/.agents").exists());
}

#[test]
fn an_existing_rules_file_and_user_skills_are_kept() {
    let sandbox = repo();
    sandbox.write("autofix.json", "[{\"Rule_number\": 1, \"Category\": \"CODE\", \"Instruction\": \"Always x\", \"Why\": \"w\"}]\n");
    let theirs = "---\nname: autofix\ndescription: mine\n---\nMy own.\n";
    sandbox.write(SKILLS[1], theirs);
    sandbox.write(
        ".agents/skills/self-repair/SKILL.md",
        "Edit autofix.json directly.\n",
    );
    let run = sandbox.run(&["init"]).expect(1);
    assert!(
        squash(&run.stdout).contains("unchanged autofix.json (rules file): 1 rule"),
        "{}",
        run.stdout
    );
    assert!(
        squash(&run.stdout).contains("refused .claude/skills/autofix/SKILL.md:1 (skill): a SKILL.md without `generator: autofix`"),
        "{}",
        run.stdout
    );
    assert!(
        squash(&run.stdout).contains("note .agents/skills/self-repair/ (note): an older skill"),
        "{}",
        run.stdout
    );
    assert_eq!(sandbox.read(SKILLS[1]), theirs);
    assert!(sandbox.read(SKILLS[0]).contains("`autofix.json`"));
    assert!(!sandbox.join(".agents/autofix.json").exists());
    assert!(sandbox.join(".agents/skills/self-repair/SKILL.md").exists());
}

#[test]
fn hook_claude_writes_the_documented_shape() {
    let sandbox = repo();
    sandbox.run(&["init", "--hook", "claude"]).expect(0);
    assert_eq!(
        sandbox.read(".claude/settings.json"),
        r#"{
  "hooks": {
    "SessionStart": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "autofix rules --format hook --agent claude",
            "timeout": 10
          }
        ]
      }
    ],
    "UserPromptSubmit": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "autofix hook user-prompt --agent claude",
            "timeout": 10
          }
        ]
      }
    ],
    "PostToolUse": [
      {
        "matcher": "Write|Edit|MultiEdit",
        "hooks": [
          {
            "type": "command",
            "command": "autofix hook post-tool --agent claude",
            "timeout": 10
          }
        ]
      }
    ],
    "PostToolUseFailure": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "autofix hook post-tool --agent claude",
            "timeout": 10
          }
        ]
      }
    ]
  }
}
"#
    );
    sandbox
        .run(&["init", "--hook", "claude", "--local"])
        .expect(0);
    assert!(sandbox.join(".claude/settings.local.json").exists());
    sandbox
        .run(&["init", "--hook", "codex,cursor,gemini"])
        .expect(0);
    let cursor: serde_json::Value =
        serde_json::from_str(&sandbox.read(".cursor/hooks.json")).unwrap();
    assert_eq!(cursor["version"], 1);
    assert_eq!(
        cursor["hooks"]["sessionStart"][0]["command"],
        "autofix rules --format hook --agent cursor"
    );
    let gemini: serde_json::Value =
        serde_json::from_str(&sandbox.read(".gemini/settings.json")).unwrap();
    assert_eq!(
        gemini["hooks"]["SessionStart"][0]["hooks"][0]["timeout"],
        10_000
    );
    let codex: serde_json::Value =
        serde_json::from_str(&sandbox.read(".codex/hooks.json")).unwrap();
    assert_eq!(
        codex["hooks"]["SessionStart"][0]["hooks"][0]["command"],
        "autofix rules --format hook --agent codex"
    );
    let run = sandbox
        .run(&["init", "--hook", "claude,codex,cursor,gemini"])
        .expect(0);
    assert!(
        squash(&run.stdout).contains("Nothing to change"),
        "{}",
        run.stdout
    );
}

#[test]
fn existing_hooks_and_keys_are_kept_and_ours_replaced() {
    let sandbox = repo();
    let existing = r#"{
    "permissions": {"allow": ["Bash(npm test)"]},
    "hooks": {
        "SessionStart": [
            {"matcher": "startup", "hooks": [{"type": "command", "command": "./scripts/warm.sh"}]},
            {"hooks": [{"type": "command", "command": "autofix rules --format hook --agent claude", "timeout": 3}]}
        ],
        "Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]
    },
    "model": "opus"
}"#;
    sandbox.write(".claude/settings.json", existing);
    sandbox.run(&["init", "--hook", "claude"]).expect(0);
    let text = sandbox.read(".claude/settings.json");
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(value["permissions"]["allow"][0], "Bash(npm test)");
    assert_eq!(value["model"], "opus");
    assert_eq!(value["hooks"]["Stop"][0]["hooks"][0]["command"], "say done");
    let start = value["hooks"]["SessionStart"].as_array().unwrap();
    assert_eq!(start.len(), 2);
    assert_eq!(start[0]["hooks"][0]["command"], "./scripts/warm.sh");
    assert_eq!(
        start[1]["hooks"][0]["command"],
        "autofix rules --format hook --agent claude"
    );
    assert_eq!(text.matches("autofix rules").count(), 1);
    // Keys stay in their order.
    let order: Vec<usize> = ["\"permissions\"", "\"hooks\"", "\"model\""]
        .iter()
        .map(|k| text.find(k).unwrap())
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{text}");
    // Once merged, a rerun leaves the bytes alone.
    sandbox.run(&["init", "--hook", "claude"]).expect(0);
    assert_eq!(sandbox.read(".claude/settings.json"), text);
}

#[test]
fn invalid_settings_are_refused_byte_identical() {
    let sandbox = repo();
    let broken = "{\n  \"hooks\": {\n    \"SessionStart\": [,]\n  }\n}\n";
    sandbox.write(".claude/settings.json", broken);
    sandbox.write(".cursor/hooks.json", "[]");
    let run = sandbox
        .run(&["init", "--hook", "claude,cursor,gemini"])
        .expect(1);
    assert!(
        squash(&run.stdout)
            .contains("refused .claude/settings.json:3 (hook claude): not valid JSON"),
        "{}",
        run.stdout
    );
    assert!(
        squash(&run.stdout)
            .contains("refused .cursor/hooks.json (hook cursor): the top level is an array"),
        "{}",
        run.stdout
    );
    assert_eq!(sandbox.read(".claude/settings.json"), broken);
    assert_eq!(sandbox.read(".cursor/hooks.json"), "[]");
    // The rest was done.
    assert!(sandbox.join(".gemini/settings.json").exists());
    assert!(sandbox.join(".agents/autofix.json").exists());
}

#[test]
fn init_export_puts_the_rules_in_agents_md() {
    let sandbox = repo();
    let run = sandbox.run(&["init", "--export"]).expect(0);
    assert!(
        squash(&run.stdout).contains("created AGENTS.md"),
        "{}",
        run.stdout
    );
    assert!(
        sandbox
            .read("AGENTS.md")
            .starts_with("<!-- BEGIN:autofix-rules -->\n")
    );
    let run = sandbox.run(&["init", "--export", "--check"]).expect(0);
    assert!(squash(&run.stdout).contains("in sync"), "{}", run.stdout);
    // learn keeps what was exported fresh; --no-export leaves it stale.
    sandbox
        .run(&["learn", "-c", "code", "-w", "w", "Always x"])
        .expect(0);
    assert!(sandbox.read("AGENTS.md").contains("Always x"));
    sandbox.run(&["init", "--export", "--check"]).expect(0);
    sandbox
        .run(&["learn", "--no-export", "-c", "code", "-w", "w", "Always y"])
        .expect(0);
    sandbox.run(&["init", "--export", "--check"]).expect(1);
}

/// Each agent's `/learn` command: where `init` writes it, and the fixture it must equal
/// byte for byte.
const COMMANDS: [(&str, &str, &str); 5] = [
    ("claude", ".claude/commands/learn.md", "claude.md"),
    (
        "copilot",
        ".github/prompts/learn.prompt.md",
        "copilot.prompt.md",
    ),
    ("cursor", ".cursor/commands/learn.md", "cursor.md"),
    ("gemini", ".gemini/commands/learn.toml", "gemini.toml"),
    ("opencode", ".opencode/commands/learn.md", "opencode.md"),
];

fn command_fixture(name: &str) -> Vec<u8> {
    fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/commands")
            .join(name),
    )
    .unwrap()
}

#[test]
fn init_writes_learn_commands_for_the_agents_set_up_here() {
    let sandbox = repo();
    // Gemini CLI and OpenCode are set up; Cursor and Copilot are not (a bare `.github/`
    // does not count).
    fs::create_dir(sandbox.join(".gemini")).unwrap();
    sandbox.write("opencode.json", "{}\n");
    fs::create_dir_all(sandbox.join(".github/workflows")).unwrap();
    let run = sandbox.run(&["init", "--check"]).expect(1);
    assert!(
        squash(&run.stdout).contains("would create .gemini/commands/learn.toml (command gemini)"),
        "{}",
        run.stdout
    );
    let run = sandbox.run(&["init", "--dry-run"]).expect(0);
    assert!(
        squash(&run.stdout).contains("would create .claude/commands/learn.md (command claude)"),
        "{}",
        run.stdout
    );
    assert!(!sandbox.join(".claude/commands").exists());

    let run = sandbox.run(&["init"]).expect(0);
    assert!(
        squash(&run.stdout).contains(
            "created .opencode/commands/learn.md (command opencode): `/learn` in OpenCode"
        ),
        "{}",
        run.stdout
    );
    for (agent, path, fixture) in COMMANDS {
        let expected = ["claude", "gemini", "opencode"].contains(&agent);
        assert_eq!(sandbox.join(path).exists(), expected, "{path}");
        if expected {
            assert_eq!(sandbox.read_bytes(path), command_fixture(fixture), "{path}");
        }
    }
    // Asked for with --command; and a hook's agent gets its command in the same run.
    sandbox.run(&["init", "--command", "copilot"]).expect(0);
    sandbox.run(&["init", "--hook", "cursor"]).expect(0);
    for (_, path, fixture) in COMMANDS {
        assert_eq!(sandbox.read_bytes(path), command_fixture(fixture), "{path}");
    }

    // Idempotent: nothing to change, not even an mtime; --check agrees.
    let paths: Vec<&str> = COMMANDS.iter().map(|(_, path, _)| *path).collect();
    let old = age_all(&sandbox, &paths);
    let run = sandbox.run(&["init"]).expect(0);
    assert!(
        squash(&run.stdout).contains("Nothing to change"),
        "{}",
        run.stdout
    );
    assert!(
        squash(&run.stdout).contains("unchanged .github/prompts/learn.prompt.md (command copilot)"),
        "{}",
        run.stdout
    );
    for path in &paths {
        let modified = fs::metadata(sandbox.join(path))
            .unwrap()
            .modified()
            .unwrap();
        assert_eq!(modified, old, "{path}");
    }
    sandbox.run(&["init", "--check"]).expect(0);
}

#[test]
fn an_outdated_learn_command_of_ours_is_updated() {
    let sandbox = repo();
    sandbox.run(&["init", "--command", "gemini"]).expect(0);
    let path = ".gemini/commands/learn.toml";
    // An older autofix's text: stamped, different words.
    let old = String::from_utf8(command_fixture("gemini.toml"))
        .unwrap()
        .replace("OTHER", "MISC");
    sandbox.write(path, &old);
    let run = sandbox.run(&["init", "--check"]).expect(1);
    assert!(
        squash(&run.stdout).contains(&format!("would update {path} (command gemini)")),
        "{}",
        run.stdout
    );
    assert_eq!(sandbox.read(path), old);
    let run = sandbox.run(&["init"]).expect(0);
    assert!(
        squash(&run.stdout).contains(&format!("updated {path} (command gemini)")),
        "{}",
        run.stdout
    );
    assert_eq!(sandbox.read_bytes(path), command_fixture("gemini.toml"));
}

#[test]
fn a_users_own_learn_command_is_kept_and_refused() {
    let sandbox = repo();
    let claude = "---\ndescription: my learn\n---\nSave $ARGUMENTS to notes.md.\n";
    let cursor = "Write the lesson in LESSONS.md.\n";
    sandbox.write(".claude/commands/learn.md", claude);
    sandbox.write(".cursor/commands/learn.md", cursor);
    let run = sandbox.run(&["init", "--check"]).expect(1);
    assert!(
        squash(&run.stdout).contains("refused .claude/commands/learn.md:4 (command claude)"),
        "{}",
        run.stdout
    );
    let run = sandbox.run(&["init"]).expect(1);
    let stdout = squash(&run.stdout);
    // The line where the stamp would be, after any frontmatter.
    for path in [".claude/commands/learn.md:4", ".cursor/commands/learn.md:1"] {
        assert!(
            stdout.contains(&format!("refused {path} (command")),
            "{}",
            run.stdout
        );
    }
    assert!(
        stdout.contains(
            "a `learn` command without the `autofix:owned` stamp is the user's; autofix \
             leaves it alone; left unchanged"
        ),
        "{}",
        run.stdout
    );
    assert_eq!(sandbox.read(".claude/commands/learn.md"), claude);
    assert_eq!(sandbox.read(".cursor/commands/learn.md"), cursor);
    // The rest of the setup went on.
    assert!(sandbox.join(SKILLS[1]).exists());
}

/// A rules file `init` cannot count is named for what is wrong with it: not valid JSON
/// rules, or not readable as text.
#[test]
fn an_existing_rules_file_that_does_not_read_is_said_to() {
    let sandbox = repo();
    sandbox.write("autofix.json", "[{\"Rule_number\": 1,\n");
    let run = sandbox.run(&["init"]).expect(0);
    assert!(
        squash(&run.stdout)
            .contains("unchanged autofix.json (rules file): not valid: run `autofix check`"),
        "{}",
        run.stdout
    );
    sandbox.write(
        "autofix.json",
        b"[{\"Rule_number\": 1, \"Instruction\": \"\xff\"}]",
    );
    let run = sandbox.run(&["init"]).expect(0);
    assert!(
        squash(&run.stdout)
            .contains("unchanged autofix.json (rules file): unreadable: run `autofix check`"),
        "{}",
        run.stdout
    );
}

/// A root `autofix.json` that is another program's (a Scoop manifest, a JSON object) is
/// left alone: `init` creates `.agents/autofix.json`, says so, and the merge driver is
/// registered for the rules file, never for the manifest.
#[test]
fn init_beside_a_foreign_autofix_json_creates_the_rules_file() {
    if !git_installed() {
        crate::support::skip("git", "init beside a foreign autofix.json");
        return;
    }
    let sandbox = repo();
    let manifest =
        "{\n    \"version\": \"1.2.0\",\n    \"url\": \"https://example.com/autofix.zip\"\n}\n";
    sandbox.write("autofix.json", manifest);
    let run = sandbox.run(&["init"]).expect(0);
    let out = squash(&run.stdout);
    assert!(
        out.contains("note autofix.json (rules file): not an autofix rules file"),
        "{}",
        run.stdout
    );
    assert_eq!(sandbox.read(".agents/autofix.json"), "[]\n");
    assert_eq!(sandbox.read("autofix.json"), manifest);
    let attributes = sandbox.read(".gitattributes");
    assert!(
        attributes
            .lines()
            .any(|l| l == ".agents/autofix.json merge=autofix")
            && !attributes.lines().any(|l| l.starts_with("/autofix.json")),
        "{attributes}"
    );
    sandbox
        .run(&["learn", "-c", "code", "-w", "pref", "Always write tests"])
        .expect(0);
    assert_eq!(sandbox.read("autofix.json"), manifest);
}

/// A `.gitattributes` that cannot be written is a failure (exit 2), and `init --check`
/// still sees the step left.
#[test]
fn a_failed_gitattributes_write_is_a_failure_not_a_skip() {
    if !git_installed() {
        crate::support::skip("git", "a failed .gitattributes write");
        return;
    }
    let sandbox = repo();
    fs::create_dir(sandbox.join(".gitattributes")).unwrap();
    let run = sandbox.run(&["init"]).expect_noisy(2);
    let out = squash(&run.stdout);
    assert!(out.contains("failed .gitattributes"), "{}", run.stdout);
    let check = sandbox.run(&["init", "--check"]).expect_noisy(1);
    assert!(
        !check.stdout.contains("Nothing to change"),
        "{}",
        check.stdout
    );
}

/// The summary and next steps say what is true: each file once in the `git add` hint,
/// no "Done." after a refusal, and no reminder of what the repository already has.
#[test]
fn init_messages_say_what_is_true() {
    if !git_installed() {
        crate::support::skip("git", "init's next steps");
        return;
    }
    let sandbox = repo();
    let run = sandbox
        .run(&["init", "--export", "--hook", "claude"])
        .expect(0);
    let add = run
        .stdout
        .lines()
        .find(|l| l.contains("git add"))
        .unwrap_or_else(|| panic!("{}", run.stdout));
    assert_eq!(add.matches(".gitattributes").count(), 1, "{add}");
    let again = sandbox.run(&["init"]).expect(0);
    assert!(
        !again.stdout.contains("Run `autofix export`"),
        "{}",
        again.stdout
    );
    assert!(
        !again.stdout.contains("autofix init --hook"),
        "{}",
        again.stdout
    );
    let fresh = repo();
    let first = fresh.run(&["init"]).expect(0);
    assert!(
        first.stdout.contains("Run `autofix export`"),
        "{}",
        first.stdout
    );
    assert!(
        first.stdout.contains("autofix init --hook"),
        "{}",
        first.stdout
    );

    let refused = repo();
    refused.write(".cursor/hooks.json", "[]");
    let run = refused.run(&["init", "--hook", "cursor"]).expect(1);
    assert!(!run.stdout.contains("\nDone.\n"), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("Done, except what was refused above (left unchanged); fix it and run `autofix init` again."),
        "{}",
        run.stdout
    );
}

/// A `/learn` command written by an older autofix (its stamp an HTML comment after the
/// frontmatter, which Claude Code sent to the model) is still ours: `init` rewrites it with
/// the stamp in the frontmatter.
#[test]
fn init_moves_an_old_command_stamp_into_the_frontmatter() {
    let sandbox = Sandbox::new();
    sandbox.write(".git/HEAD", "ref: refs/heads/main\n");
    let old = include_str!("../fixtures/commands/before-4/claude.md");
    sandbox.write(".claude/commands/learn.md", old);
    sandbox.run(&["init", "--command", "claude"]).expect(0);
    assert_eq!(
        sandbox.read_bytes(".claude/commands/learn.md"),
        command_fixture("claude.md")
    );
}

/// The README's `init` example is what the binary prints in a new repository, line for
/// line; the merge drivers' settings are one line unless `--verbose` lists them.
#[test]
fn init_prints_what_the_readme_shows_in_a_few_lines() {
    let sandbox = repo();
    let readme = include_str!("../../README.md");
    let command = "$ autofix init --hook claude --export\n";
    let start = readme.find(command).expect("the README's init example") + command.len();
    let shown = &readme[start..start + readme[start..].find("```").unwrap()];
    let run = sandbox
        .run(&["init", "--hook", "claude", "--export"])
        .expect(0);
    assert_eq!(run.stdout, shown);
    assert!(run.stdout.lines().count() <= 20, "{}", run.stdout);
    // Listed one by one where asked for.
    let other = repo();
    let verbose = other
        .run(&["init", "--hook", "claude", "--export", "--verbose"])
        .expect(0);
    assert!(
        verbose
            .stdout
            .contains("merge driver: set merge.autofix.driver (local config)"),
        "{}",
        verbose.stdout
    );
    assert!(!verbose.stdout.contains("`--verbose` lists them"));
}

/// The default setup warns about nothing: in a repository with a hand-written CLAUDE.md
/// and a `.github/` folder, `init --export` and every later `export` write each agent's
/// copy once, and no advice would remove what a client the user set up reads.
#[test]
fn the_default_setup_is_warning_free() {
    let sandbox = repo();
    sandbox.write("CLAUDE.md", "# Project\n\nThe app is a shop.\n");
    sandbox.write(".github/workflows/ci.yml", "on: push\n");
    let init = sandbox.run(&["init", "--hook", "claude", "--export"]);
    assert_eq!(init.code, 0, "{}", init.stderr);
    assert_eq!(init.stderr, "");
    sandbox
        .run(&["learn", "Always use pnpm to install packages."])
        .expect(0);
    let export = sandbox.run(&["export"]);
    assert_eq!(export.code, 0, "{}", export.stderr);
    assert!(!export.stderr.contains("warning"), "{}", export.stderr);
    assert!(!export.stdout.contains("warning"), "{}", export.stdout);
}

/// A repository whose AGENTS.md holds rules written by hand: `init` names them and how they
/// come in (autofix's block beside them says it records none yet), and `learn` of one of
/// them warns that the agents would get it twice.
#[test]
fn rules_written_by_hand_are_named_at_init_and_at_learn() {
    let sandbox = repo();
    sandbox.write(
        "AGENTS.md",
        "# Agents\n\n## Rules\n\n- Always use pnpm to install packages.\n- Never commit the .env file.\n",
    );
    let init = sandbox.run(&["init", "--export"]).expect(0);
    assert!(
        init.stdout
            .contains("2 rules are written by hand in AGENTS.md: `autofix import` shows them"),
        "{}",
        init.stdout
    );
    assert!(
        sandbox
            .read("AGENTS.md")
            .contains("the text outside this block is the file's own")
    );
    let learn = sandbox
        .run(&["learn", "Always use pnpm to install packages."])
        .expect_noisy(0);
    assert!(
        learn.stderr.contains("warning[handwritten-duplicate]")
            && learn.stderr.contains("AGENTS.md:5"),
        "{}",
        learn.stderr
    );
}

/// The README's first console session (learn, rules, check in a new repository) is what
/// the binary prints, command by command.
#[test]
fn the_readmes_first_session_is_what_the_binary_prints() {
    let readme = include_str!("../../README.md");
    let start = readme
        .find("```console\n$ autofix learn")
        .expect("the README's session")
        + 11;
    let block = &readme[start..start + readme[start..].find("```").unwrap()];
    let sandbox = repo();
    let mut commands = 0;
    for session in block.split("$ autofix ").filter(|s| !s.is_empty()) {
        let (line, shown) = session.split_once('\n').unwrap();
        let run = sandbox.run(&words(line)).expect(0);
        assert_eq!(run.stdout, shown, "autofix {line}");
        commands += 1;
    }
    assert_eq!(commands, 3);
}

/// A command line's words as a shell splits them: spaces outside double quotes.
fn words(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = line.trim();
    while !rest.is_empty() {
        if let Some(quoted) = rest.strip_prefix('"') {
            let end = quoted.find('"').unwrap();
            out.push(&quoted[..end]);
            rest = quoted[end + 1..].trim_start();
        } else {
            let end = rest.find(' ').unwrap_or(rest.len());
            out.push(&rest[..end]);
            rest = rest[end..].trim_start();
        }
    }
    out
}

/// `init`'s output whole on a fresh git repository, then `doctor`'s on what it set up
/// (text and JSON), with this build first on `PATH`, where git finds the merge driver.
#[test]
fn init_and_doctor_outputs_whole() {
    let sandbox = Sandbox::new();
    let run = |program: &str, args: &[&str]| {
        let mut command = sandbox.program(program, args);
        crate::support::Run::from_command(crate::support::hermetic_git(&mut command))
    };
    if run("git", &["init", "-q", "-b", "main"]).code != 0 {
        crate::support::skip("git", "the snapshots of init and doctor");
        return;
    }
    // The machine's git version and this build's path, as doctor names them.
    let version = run("git", &["--version"]).stdout;
    let version: Vec<&str> = (version.split_whitespace().nth(2).unwrap_or("").split('.'))
        .take(2)
        .collect();
    let shown = |run: &crate::support::Run| {
        (crate::snapshots::shown(&sandbox, run))
            .replace(crate::support::BIN, "[autofix]")
            .replace(&format!("git {},", version.join(".")), "git [version],")
    };
    let init = run(crate::support::BIN, &["init"]);
    insta::assert_snapshot!("init_text", shown(&init));
    let again = run(crate::support::BIN, &["init"]);
    insta::assert_snapshot!("init_again_text", shown(&again));
    for format in ["text", "json"] {
        let doctor = run(crate::support::BIN, &["doctor", "--format", format]);
        insta::assert_snapshot!(format!("doctor_{format}"), shown(&doctor));
    }
}
