//! Snapshots of every format people and CI read, driven through the real binary: `check`
//! (text, JSON, GitHub workflow commands, SARIF), the listing (text, Markdown, JSON), the
//! Markdown files `export` writes and its `--check` report (text, JSON, GitHub, SARIF),
//! `learn`'s answer, a rule's history (`rules N`), `preset list|render|validate`, `explain`
//! and `--help`. The outputs whose set-up lives in another module are snapshot there with
//! [`shown`]: every hook's answer for each client (`hooks`), `init` and `doctor` (`init`),
//! `sources` (`sources`), the ledger and `reflect` (`ledger`), `import`, `enforce` and the
//! MCP tools' results (`mcp`). Each output is made deterministic (no color: not a terminal; the sandbox's
//! path replaced by `[sandbox]`; no dates in these outputs) and compared with its snapshot
//! in `tests/cli/snapshots/`. A missing snapshot fails: insta writes a `.snap.new` beside
//! it and, under CI (`CI` set, and `.ci/run` exports `INSTA_UPDATE=no`), writes nothing
//! (`INSTA_UPDATE` unset is `auto`, which under CI updates nothing: insta/src/env.rs,
//! https://github.com/mitsuhiko/insta/blob/master/insta/src/env.rs). Review a change with
//! `INSTA_UPDATE=always cargo test --test cli snapshots::` and `git diff`.

use crate::support::{Run, Sandbox, example_workspace};

const RULES: &str = ".agents/autofix.json";

/// A rules file with a finding of each severity: a repeated instruction (warning) and a
/// supersede reference to a rule that does not exist (error).
const RULES_WITH_FINDINGS: &str = r#"[
  {"Rule_number": 1, "Category": "CODE", "Instruction": "Always run cargo fmt before committing", "Why": "CI rejects unformatted code"},
  {"Rule_number": 2, "Category": "TOOL", "Instruction": "Use pnpm, never npm", "Why": "the lockfile is pnpm's", "Paths": ["web/**"]},
  {"Rule_number": 3, "Category": "CODE", "Instruction": "Always run cargo fmt before committing", "Why": "repeated"},
  {"Rule_number": 4, "Category": "STYLE", "Instruction": "Prefer early returns", "Why": "flat code reads faster", "Supersedes": [9]}
]
"#;

/// What a run printed, the sandbox's path replaced so the snapshot is the same anywhere.
pub(crate) fn shown(sandbox: &Sandbox, run: &Run) -> String {
    let path = sandbox.path().display().to_string();
    let mut out = format!("exit: {}\n--- stdout\n{}", run.code, run.stdout);
    if !run.stderr.is_empty() {
        out.push_str(&format!("--- stderr\n{}", run.stderr));
    }
    out.replace(&path, "[sandbox]")
}

fn with_findings() -> Sandbox {
    let sandbox = Sandbox::new();
    std::fs::create_dir(sandbox.join(".git")).unwrap();
    sandbox.write(RULES, RULES_WITH_FINDINGS);
    sandbox
}

#[test]
fn check_in_every_format() {
    let sandbox = with_findings();
    for format in ["text", "json", "github", "sarif"] {
        let run = sandbox.run(&["check", "--format", format]);
        insta::assert_snapshot!(format!("check_{format}"), shown(&sandbox, &run));
    }
}

#[test]
fn the_listing_in_every_format() {
    let sandbox = with_findings();
    for format in ["text", "markdown", "json"] {
        let run = sandbox.run(&["rules", "--format", format]);
        insta::assert_snapshot!(format!("rules_{format}"), shown(&sandbox, &run));
    }
}

#[test]
fn export_writes_markdown_and_reports_in_every_format() {
    let sandbox = with_findings();
    let check = sandbox.run(&["export", "--check"]);
    insta::assert_snapshot!("export_check_text", shown(&sandbox, &check));
    for format in ["json", "github", "sarif"] {
        let run = sandbox.run(&["export", "--check", "--format", format]);
        insta::assert_snapshot!(format!("export_check_{format}"), shown(&sandbox, &run));
    }
    let written = sandbox.run(&["export"]);
    insta::assert_snapshot!("export_text", shown(&sandbox, &written));
    insta::assert_snapshot!("export_agents_md", sandbox.read("AGENTS.md"));
}

#[test]
fn learn_and_a_rules_history_in_every_format() {
    let sandbox = with_findings();
    let learn = [
        "learn",
        "--dry-run",
        "-c",
        "TOOL",
        "-w",
        "the lockfile is pnpm's",
    ];
    let text = sandbox.run(&[&learn[..], &["Always use pnpm, never npm", "--lang", "en"]].concat());
    insta::assert_snapshot!("learn_text", shown(&sandbox, &text));
    let json = sandbox.run(
        &[
            &learn[..],
            &["Run the linter before pushing", "--format", "json"],
        ]
        .concat(),
    );
    insta::assert_snapshot!("learn_json", shown(&sandbox, &json));
    for format in ["text", "json"] {
        let run = sandbox.run(&["rules", "2", "--format", format]);
        insta::assert_snapshot!(format!("rules_2_{format}"), shown(&sandbox, &run));
    }
}

#[test]
fn presets_listed_and_rendered() {
    let sandbox = example_workspace();
    for format in ["text", "json"] {
        let listed = sandbox.run(&["preset", "list", "presets", "--format", format]);
        insta::assert_snapshot!(format!("preset_list_{format}"), shown(&sandbox, &listed));
        let rendered = sandbox.run(&["preset", "render", "presets/last30days", "--format", format]);
        insta::assert_snapshot!(
            format!("preset_render_{format}"),
            shown(&sandbox, &rendered)
        );
    }
}

#[test]
fn preset_validate_in_every_format() {
    let sandbox = example_workspace();
    for format in ["text", "json", "github"] {
        let run = sandbox.run(&["preset", "validate", "broken-presets", "--format", format]);
        insta::assert_snapshot!(format!("preset_validate_{format}"), shown(&sandbox, &run));
    }
}

#[test]
fn explain_and_help() {
    let sandbox = Sandbox::new();
    let explained = sandbox.run(&["explain", "similar-rules"]);
    insta::assert_snapshot!("explain_similar_rules", shown(&sandbox, &explained));
    let help = sandbox.run(&["--help"]);
    insta::assert_snapshot!("help", shown(&sandbox, &help));
    let check_help = sandbox.run(&["check", "--help"]);
    insta::assert_snapshot!("check_help", shown(&sandbox, &check_help));
}
