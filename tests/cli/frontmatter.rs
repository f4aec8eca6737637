//! Every YAML frontmatter autofix writes (the skill, the `/learn` commands, the scoped rule
//! files of every target) parses as YAML with a real YAML reader, PyYAML: strict readers
//! (GitHub Copilot CLI's skill loader among them) drop a file whose frontmatter does not.

use std::process::Command;

use crate::support::{Sandbox, files_below, skip};

/// A `python3` that can import PyYAML: the venv `.ci/run` prepares (`AUTOFIX_MCP_PYTHON`,
/// which it installs PyYAML into), or any `python3` on PATH.
fn python_with_yaml() -> Option<String> {
    let candidates = std::env::var("AUTOFIX_MCP_PYTHON")
        .ok()
        .into_iter()
        .chain(["python3".to_string()]);
    candidates.into_iter().find(|python| {
        Command::new(python)
            .args(["-c", "import yaml"])
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

/// Reads each file named on the command line, parses the text between its first two `---`
/// lines with `yaml.safe_load`, and prints `<file>\t<error>` for each that fails (or holds
/// something other than a mapping).
///
/// One line is left out: Cursor's and Windsurf's `globs:`, which their readers take as the
/// rest of the line, quotes included, so a quoted (valid YAML) glob matches no file
/// (<https://github.com/cosai-oasis/project-codeguard/issues/121>,
/// <https://github.com/oven-sh/bun/pull/24853>): there no form satisfies both readers, and
/// autofix writes the one the agent matches with.
const CHECK: &str = r#"
import sys, yaml
for path in sys.argv[1:]:
    text = open(path, encoding="utf-8").read()
    if not text.startswith("---\n"):
        continue
    head = text[4:].split("\n---\n", 1)[0]
    if "/.cursor/rules/" in path or "/.windsurf/rules/" in path:
        head = "\n".join(l for l in head.split("\n") if not l.startswith("globs: "))
    try:
        value = yaml.safe_load(head)
        if not isinstance(value, dict):
            print(f"{path}\tnot a mapping: {value!r}")
    except yaml.YAMLError as error:
        print(f"{path}\t{error}")
    print(f"checked\t{path}")
"#;

#[test]
fn every_frontmatter_autofix_writes_is_valid_yaml() {
    let Some(python) = python_with_yaml() else {
        return skip("pyyaml", "no python3 with PyYAML (set AUTOFIX_MCP_PYTHON)");
    };
    // The targets whose agents read AGENTS.md too (Cursor, Windsurf, Cline, Continue) are
    // exported without it, and Copilot's apart from the claude target's `.claude/rules/`,
    // which Copilot CLI reads: beside those, they would be second copies, not written.
    let groups = [
        "claude,cursor,windsurf,kiro,continue,augment,rulesync,cline-rules",
        "copilot",
    ];
    let sandboxes: Vec<Sandbox> = groups.iter().map(|targets| written(targets)).collect();
    let mut files: Vec<String> = Vec::new();
    let mut paths = Vec::new();
    for sandbox in &sandboxes {
        for file in files_below(sandbox.path()) {
            if file.ends_with(".md") || file.ends_with(".mdc") {
                paths.push(sandbox.join(&file));
                files.push(file);
            }
        }
    }
    let output = Command::new(&python)
        .arg("-c")
        .arg(CHECK)
        .args(&paths)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let report = String::from_utf8(output.stdout).unwrap();
    let checked = report
        .lines()
        .filter(|l| l.starts_with("checked\t"))
        .count();
    let failed: Vec<&str> = report
        .lines()
        .filter(|l| !l.starts_with("checked\t"))
        .collect();
    assert!(
        failed.is_empty(),
        "invalid YAML frontmatter:\n{}",
        failed.join("\n")
    );
    // The skill (two copies), the commands with frontmatter, and a scoped file per target
    // and scope: a check that read nothing would pass.
    for expected in [
        ".claude/skills/autofix/SKILL.md",
        ".agents/skills/autofix/SKILL.md",
        ".claude/commands/learn.md",
        ".opencode/commands/learn.md",
        ".github/prompts/learn.prompt.md",
        ".cursor/rules/autofix.mdc",
        ".continue/rules/autofix.md",
        ".github/instructions/autofix.instructions.md",
    ] {
        assert!(
            files.iter().any(|f| f == expected),
            "{expected} not written"
        );
    }
    assert!(
        checked >= 20,
        "only {checked} files with frontmatter:\n{report}"
    );
}

/// A repository set up by `init` with three rules scoped by globs holding what YAML gives
/// meaning to (`: `, ` #`, a leading `*`, braces), exported to `targets`.
fn written(targets: &str) -> Sandbox {
    let sandbox = Sandbox::new();
    // `init` wants a repository; a `.git` folder is one to it.
    std::fs::create_dir(sandbox.join(".git")).unwrap();
    sandbox
        .run(&[
            "init",
            "--hook",
            "claude,codex,gemini",
            "--command",
            "claude,copilot,cursor,gemini,opencode",
        ])
        .expect(0);
    for (glob, rule) in [
        (
            "src/api/**",
            "Always validate input - because it is untrusted.",
        ),
        (
            "docs/a: b #c/*.md",
            "Always wrap docs at 80 - because diffs.",
        ),
        ("*.{ts,tsx}", "Never use any - because types matter."),
    ] {
        sandbox
            .run(&["learn", "-c", "code", "-w", "w", "--path", glob, rule])
            .expect(0);
    }
    sandbox.run(&["export", "--target", targets]).expect(0);
    sandbox
}
