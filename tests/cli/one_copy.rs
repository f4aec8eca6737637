//! One copy per agent, whatever mix of targets is exported: each agent's files, as the
//! agent itself reads them (its documentation and what the real clients sent a stub model
//! in `clients.rs`, not autofix's own table), hold each unscoped rule exactly once after
//! any set of targets is exported, at once or one after another.

use crate::support::Sandbox;

/// The rule every mix exports.
const RULE: &str = "Always use pnpm - because the lockfile is pnpm-lock.yaml.";

/// The targets mixed: every one whose agent also reads another target's file.
const TARGETS: [&str; 11] = [
    "agents-md",
    "claude",
    "claude-md",
    "cursor",
    "copilot",
    "copilot-md",
    "windsurf",
    "cline-rules",
    "continue",
    "gemini-md",
    "kiro",
];

/// Whether the file's text loads whatever file the agent works on: no `paths:`/`globs:`
/// scope, or Cursor's `alwaysApply: true`, Copilot's `applyTo: "**"`, Windsurf's
/// `trigger: always_on`, Kiro's `inclusion: always`.
fn always_loaded(text: &str) -> bool {
    let head = text
        .strip_prefix("---\n")
        .and_then(|rest| rest.split("\n---\n").next())
        .unwrap_or("");
    !head.contains("paths:") && !head.contains("globs:") && !head.contains("fileMatchPattern")
        || head.contains("alwaysApply: true")
}

/// The files `agent` loads in `sandbox`, each with its text.
fn read_by(sandbox: &Sandbox, agent: &str) -> Vec<(String, String)> {
    let file = |path: &str| -> Option<(String, String)> {
        std::fs::read_to_string(sandbox.join(path))
            .ok()
            .map(|text| (path.to_string(), text))
    };
    let folder = |dir: &str, suffix: &str| -> Vec<(String, String)> {
        if !sandbox.join(dir).is_dir() {
            return Vec::new();
        }
        crate::support::files_below(&sandbox.join(dir))
            .into_iter()
            .filter(|name| name.ends_with(suffix))
            .filter_map(|name| file(&format!("{dir}/{name}")))
            .filter(|(_, text)| always_loaded(text))
            .collect()
    };
    // Claude Code loads AGENTS.md only where no CLAUDE.md has text besides HTML comments
    // (its built-in `cc-plugin-agents-md`).
    let claude_files: Vec<(String, String)> = ["CLAUDE.md", ".claude/CLAUDE.md"]
        .iter()
        .filter_map(|path| file(path))
        .collect();
    let counts = claude_files.iter().any(|(_, text)| {
        let mut rest = text.as_str();
        while let Some(at) = rest.find("<!--") {
            if !rest[..at].trim().is_empty() {
                return true;
            }
            rest = rest[at..]
                .find("-->")
                .map_or("", |end| &rest[at + end + 3..]);
        }
        !rest.trim().is_empty()
    });
    let mut files: Vec<(String, String)> = match agent {
        "Claude Code" => {
            let mut files = claude_files;
            files.extend(folder(".claude/rules", ".md"));
            if !counts {
                files.extend(file("AGENTS.md"));
            }
            files
        }
        // AGENTS.md, a root CLAUDE.md, `.github/` instructions and every `.claude/rules/*.md`
        // (Copilot CLI 1.0.102).
        "Copilot" => {
            let mut files: Vec<_> = ["AGENTS.md", "CLAUDE.md", ".github/copilot-instructions.md"]
                .iter()
                .filter_map(|path| file(path))
                .collect();
            files.extend(folder(".github/instructions", ".instructions.md"));
            files.extend(folder(".claude/rules", ".md"));
            files
        }
        "Codex" | "OpenCode" | "Qwen Code" => file("AGENTS.md").into_iter().collect(),
        "Gemini CLI" => file("GEMINI.md").into_iter().collect(),
        "Cursor" => [file("AGENTS.md")]
            .into_iter()
            .flatten()
            .chain(folder(".cursor/rules", ".mdc"))
            .collect(),
        "Windsurf" => [file("AGENTS.md")]
            .into_iter()
            .flatten()
            .chain(folder(".windsurf/rules", ".md"))
            .collect(),
        "Cline" => [file("AGENTS.md")]
            .into_iter()
            .flatten()
            .chain(folder(".clinerules", ".md"))
            .collect(),
        "Continue" => [file("AGENTS.md")]
            .into_iter()
            .flatten()
            .chain(folder(".continue/rules", ".md"))
            .collect(),
        "Kiro" => folder(".kiro/steering", ".md"),
        _ => unreachable!("{agent}"),
    };
    files.dedup_by(|a, b| a.0 == b.0);
    files
}

const AGENTS: [&str; 11] = [
    "Claude Code",
    "Copilot",
    "Codex",
    "OpenCode",
    "Qwen Code",
    "Gemini CLI",
    "Cursor",
    "Windsurf",
    "Cline",
    "Continue",
    "Kiro",
];

/// Asserts that no agent reads the rule twice, and names who read it once.
#[track_caller]
fn assert_one_copy(sandbox: &Sandbox, mix: &str) -> Vec<&'static str> {
    let mut reached = Vec::new();
    for agent in AGENTS {
        let files = read_by(sandbox, agent);
        let copies: Vec<&str> = files
            .iter()
            .filter(|(_, text)| text.contains(RULE))
            .map(|(path, _)| path.as_str())
            .collect();
        assert!(copies.len() <= 1, "{mix}: {agent} reads {copies:?}");
        if copies.len() == 1 {
            reached.push(agent);
        }
    }
    reached
}

fn repository() -> Sandbox {
    let sandbox = Sandbox::new();
    sandbox
        .run(&["learn", "-c", "tool", "-w", "team", RULE])
        .expect(0);
    sandbox
        .run(&[
            "learn",
            "-c",
            "code",
            "-w",
            "w",
            "--path",
            "src/api/**",
            "Always validate input - because it is untrusted.",
        ])
        .expect(0);
    sandbox
}

/// Every pair and triple of targets, exported at once.
#[test]
fn no_mix_of_targets_gives_an_agent_two_copies() {
    let mut mixes: Vec<Vec<&str>> = Vec::new();
    for (a, first) in TARGETS.iter().enumerate() {
        for (b, second) in TARGETS.iter().enumerate().skip(a + 1) {
            mixes.push(vec![first, second]);
            for third in &TARGETS[b + 1..] {
                mixes.push(vec![first, second, third]);
            }
        }
    }
    mixes.push(TARGETS.to_vec());
    for mix in &mixes {
        let sandbox = repository();
        let mix = mix.join(",");
        // Some mixes still warn (Claude Code reads CLAUDE.md and `.claude/rules/` both
        // where AGENTS.md is not there to take over): the copies are counted below.
        sandbox.run(&["export", "--target", &mix]).expect_noisy(0);
        let reached = assert_one_copy(&sandbox, &mix);
        // AGENTS.md reaches every agent that reads it.
        if mix.split(',').any(|id| id == "agents-md") {
            for agent in [
                "Codex", "Copilot", "Cursor", "Cline", "Continue", "Windsurf",
            ] {
                assert!(reached.contains(&agent), "{mix}: {agent} reads nothing");
            }
        }
    }
}

/// Targets exported one after another (a copy exported before stays exported, and the
/// defaults are exported after): each agent still reads one copy.
#[test]
fn targets_exported_one_after_another_leave_one_copy() {
    for first in TARGETS {
        for second in TARGETS {
            let sandbox = repository();
            sandbox.run(&["export", "--target", first]).expect_noisy(0);
            sandbox.run(&["export", "--target", second]).expect_noisy(0);
            let mix = format!("{first} then {second}");
            assert_one_copy(&sandbox, &mix);
            // And the defaults after (`.claude/` makes the claude target one).
            std::fs::create_dir_all(sandbox.join(".claude")).unwrap();
            sandbox.run(&["export"]).expect_noisy(0);
            let reached = assert_one_copy(&sandbox, &format!("{mix} then the defaults"));
            for agent in ["Claude Code", "Copilot", "Codex"] {
                assert!(reached.contains(&agent), "{mix}: {agent} reads nothing");
            }
        }
    }
}
