//! Writes that must never land where they were not meant to: through a link into `.git/`,
//! onto the rules file or out of the repository; over another program's save; with a
//! temp file left behind; or as a forged `.gitattributes` line. Each case through the binary.

use std::fs;
use std::os::unix::fs::symlink;
use std::process::Stdio;

use crate::support::Sandbox;

const RULES: &str = ".agents/autofix.json";

/// A git repository with one rule.
fn repo() -> Sandbox {
    let sandbox = Sandbox::new();
    let status = sandbox.program("git", &["init", "-q"]).status().unwrap();
    assert!(status.success());
    sandbox
        .run(&["learn", "-c", "code", "-w", "w", "Always test"])
        .expect(0);
    sandbox
}

#[test]
fn export_never_writes_through_a_link_into_git_or_onto_the_rules_file() {
    for target in [".git/config", ".git/hooks/pre-commit", RULES] {
        let sandbox = repo();
        sandbox.write(".git/hooks/pre-commit", "#!/bin/sh\nexit 0\n");
        let before = sandbox.read_bytes(target);
        symlink(target, sandbox.join("AGENTS.md")).unwrap();
        let run = sandbox.run(&["export", "--target", "agents-md"]).expect(1);
        assert!(run.stdout.contains("refused"), "{target}: {}", run.stdout);
        assert_eq!(sandbox.read_bytes(target), before, "{target} was written");
    }
}

#[test]
fn init_and_install_never_append_to_a_linked_gitattributes_outside() {
    let outside = tempfile::tempdir().unwrap();
    let theirs = outside.path().join("attributes");
    fs::write(&theirs, "* text=auto\n").unwrap();
    let sandbox = repo();
    symlink(&theirs, sandbox.join(".gitattributes")).unwrap();
    let check = sandbox.run(&["init", "--check"]).expect(1);
    assert!(check.stdout.contains("leads outside"), "{}", check.stdout);
    let run = sandbox.run(&["init"]).expect(1);
    assert!(
        run.stdout.contains("refused")
            && run
                .stdout
                .contains(".gitattributes (merge driver): .gitattributes leads outside"),
        "{}",
        run.stdout
    );
    assert_eq!(fs::read_to_string(&theirs).unwrap(), "* text=auto\n");
    let run = sandbox.run(&["merge-driver", "--install"]);
    assert_ne!(run.code, 0, "{}", run.stdout);
    assert!(
        run.stderr.contains("outside the repository"),
        "{}",
        run.stderr
    );
    assert_eq!(fs::read_to_string(&theirs).unwrap(), "* text=auto\n");
    // All or nothing: the config was not changed either.
    let config = sandbox.read(".git/config");
    assert!(!config.contains("autofix"), "{config}");
}

#[test]
fn a_rules_path_with_a_line_break_adds_one_quoted_attribute_line() {
    let sandbox = repo();
    let name = "evil\n* merge=binary.json";
    sandbox
        .run(&["--file", name, "learn", "-c", "code", "-w", "w", "Always x"])
        .expect(0);
    sandbox
        .run(&["--file", name, "merge-driver", "--install"])
        .expect(0);
    let attributes = sandbox.read(".gitattributes");
    // One line for the rules file (and one for the exported copies' driver).
    let rules_lines: Vec<&str> = attributes
        .lines()
        .filter(|line| line.ends_with(" merge=autofix"))
        .collect();
    // git reads it back as the one name (`git check-attr` agrees).
    assert_eq!(
        rules_lines,
        ["\"/evil\\n\\\\* merge=binary.json\" merge=autofix"],
        "{attributes}"
    );
    assert_eq!(attributes.lines().count(), 2, "{attributes}");
}

#[test]
fn stale_temp_files_are_swept_by_the_next_export_and_init() {
    let sandbox = repo();
    sandbox.run(&["init"]).expect(0);
    sandbox.run(&["export"]).expect(0);
    // What a writer killed between creating its temp file and the rename leaves.
    let stale = [
        ".AGENTS.md.a1B2c3.tmp",
        ".agents/skills/autofix/.SKILL.md.x9Y8z7.tmp",
    ];
    for path in stale {
        sandbox.write(path, "partial");
    }
    sandbox.run(&["export"]).expect(0);
    assert!(!sandbox.join(stale[0]).exists(), "export left {}", stale[0]);
    sandbox.run(&["init"]).expect(0);
    assert!(!sandbox.join(stale[1]).exists(), "init left {}", stale[1]);
}

#[test]
fn init_keeps_a_users_hook_that_mentions_ours() {
    let sandbox = repo();
    let mine = r#"{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "autofix rules --format hook --agent claude > /tmp/rules.log"}]}]}}"#;
    sandbox.write(".claude/settings.json", mine);
    sandbox.run(&["init", "--hook", "claude"]).expect(0);
    let text = sandbox.read(".claude/settings.json");
    assert!(text.contains("> /tmp/rules.log"), "{text}");
    assert!(
        text.contains("\"command\": \"autofix rules --format hook --agent claude\""),
        "{text}"
    );
}

/// Options a user adds to our hook's command keep it ours: `init` neither doubles the
/// hook nor drops the options.
#[test]
fn init_keeps_our_hook_with_the_users_options_once() {
    let sandbox = repo();
    sandbox.run(&["init", "--hook", "claude"]).expect(0);
    let tuned = sandbox.read(".claude/settings.json").replace(
        "autofix rules --format hook --agent claude\"",
        "autofix rules --format hook --agent claude --budget 2000\"",
    );
    sandbox.write(".claude/settings.json", &tuned);
    sandbox.run(&["init", "--hook", "claude"]).expect(0);
    let text = sandbox.read(".claude/settings.json");
    assert_eq!(text, tuned);
    assert_eq!(
        text.matches("autofix rules --format hook").count(),
        1,
        "{text}"
    );
    sandbox
        .run(&["init", "--hook", "claude", "--check"])
        .expect(0);
}

#[test]
fn init_refuses_a_settings_file_with_a_repeated_key() {
    let sandbox = repo();
    let twice = "{\n  \"hooks\": {},\n  \"model\": \"x\",\n  \"hooks\": {\"Stop\": []}\n}\n";
    sandbox.write(".claude/settings.json", twice);
    for args in [
        &["init", "--hook", "claude", "--check"][..],
        &["init", "--hook", "claude"],
    ] {
        let run = sandbox.run(args).expect(1);
        assert!(
            run.stdout.contains("`hooks` appears twice") && run.stdout.contains("line 4"),
            "{args:?}: {}",
            run.stdout
        );
    }
    assert_eq!(sandbox.read(".claude/settings.json"), twice);
}

#[test]
fn learn_to_a_full_stdout_saves_and_says_so_on_stderr() {
    let sandbox = repo();
    let full = fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let output = sandbox
        .command(&["learn", "-c", "code", "-w", "w", "Always be heard"])
        .stdout(Stdio::from(full))
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("rule #2 was saved"), "{stderr}");
    assert!(sandbox.read(RULES).contains("Always be heard"));
}

#[test]
fn init_and_learn_never_write_through_a_link_into_git() {
    let sandbox = repo();
    fs::create_dir_all(sandbox.join(".claude/commands")).unwrap();
    symlink(
        "../../.git/config",
        sandbox.join(".claude/commands/learn.md"),
    )
    .unwrap();
    let run = sandbox.run(&["init", "--command", "claude"]).expect(1);
    assert!(run.stdout.contains("git's own directory"), "{}", run.stdout);
    // git's config holds the merge driver init installs, and nothing of the command.
    let config = sandbox.read(".git/config");
    assert!(!config.contains("autofix:owned"), "{config}");
    assert!(config.starts_with("[core]"), "{config}");

    let other = Sandbox::new();
    assert!(
        other
            .program("git", &["init", "-q"])
            .status()
            .unwrap()
            .success()
    );
    other.write(".git/rules.json", "[]\n");
    fs::create_dir_all(other.join(".agents")).unwrap();
    symlink("../.git/rules.json", other.join(RULES)).unwrap();
    let run = other.run(&["learn", "-c", "code", "-w", "w", "Always x"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("git's own directory"), "{}", run.stderr);
    assert_eq!(other.read(".git/rules.json"), "[]\n");
}
