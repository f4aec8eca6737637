//! `autofix preset ...` through the binary.
//!
//! Fixtures live in `tests/fixtures/presets/` (`good/` presets that must load clean, and
//! `codes/<code>/` with one preset triggering each diagnostic code); each case copies what
//! it needs into its sandbox so that displayed paths are short and stable.

use std::fs;
use std::path::Path;

use serde_json::{Value, json};

use crate::support::{Run, Sandbox, copy_dir};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/presets");
const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples");

/// Copies `tests/fixtures/presets/<fixture>` to `<sandbox>/<to>`.
fn fixture(sandbox: &Sandbox, fixture: &str, to: &str) {
    copy_dir(&Path::new(FIXTURES).join(fixture), &sandbox.join(to));
}

/// The diagnostics of every preset in a `validate --format json` run.
fn diagnostics(run: &Run) -> Vec<Value> {
    run.json()["presets"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| p["diagnostics"].as_array().unwrap().clone())
        .collect()
}

/// Validates one fixture of `codes/` and returns its only diagnostic.
fn only_diagnostic(code: &str, preset: &str, expected_status: i32) -> Value {
    let sandbox = Sandbox::new();
    fixture(&sandbox, &format!("codes/{code}"), "p");
    let run = sandbox
        .run(&[
            "preset",
            "validate",
            &format!("p/{preset}"),
            "--format",
            "json",
        ])
        .expect(expected_status);
    let found = diagnostics(&run);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0]["code"], code);
    found[0].clone()
}

fn lines(text: &str) -> Vec<&str> {
    text.lines().collect()
}

// --- the two formats -------------------------------------------------------------------

#[test]
fn a_preset_named_twice_is_checked_once() {
    let sandbox = Sandbox::new();
    fixture(&sandbox, "good/studio", "presets/studio");
    let run = sandbox
        .run(&[
            "preset",
            "validate",
            "presets/studio",
            "presets",
            "presets/../presets/studio",
        ])
        .expect(0);
    assert_eq!(
        run.stdout,
        "Checked 1 preset: 1 enabled, 0 disabled (0 errors, 0 warnings)\n"
    );
}

#[test]
fn a_hagitask_package_validates_clean() {
    let sandbox = Sandbox::new();
    fixture(&sandbox, "good/studio", "presets/studio");
    let run = sandbox
        .run(&["preset", "validate", "presets/studio"])
        .expect(0);
    assert_eq!(
        run.stdout,
        "Checked 1 preset: 1 enabled, 0 disabled (0 errors, 0 warnings)\n"
    );
    assert_eq!(run.stderr, "");
}

#[test]
fn both_forms_are_listed() {
    let sandbox = Sandbox::new();
    fixture(&sandbox, "good", "presets");
    let run = sandbox.run(&["preset", "list", "presets"]).expect(0);
    assert_eq!(
        lines(&run.stdout),
        [
            "flat-prompts   enabled   2 commands  skills: helper",
            "flat-research  enabled   3 commands  skills: trend-scan",
            "studio         enabled   5 commands  skills: studio-kit, studio-audit",
        ]
    );
}

#[test]
fn list_json_describes_each_preset() {
    let sandbox = Sandbox::new();
    fixture(&sandbox, "good", "presets");
    fixture(
        &sandbox,
        "codes/command-skill-not-in-requirements",
        "presets",
    );
    let json = sandbox
        .run(&["preset", "list", "presets", "--format", "json"])
        .expect(0)
        .json();
    assert_eq!(json["version"], 1);
    let presets = json["presets"].as_array().unwrap();
    let ids: Vec<&str> = presets.iter().map(|p| p["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["flat-prompts", "flat-research", "gated", "studio"]);
    let gated = &presets[2];
    assert_eq!(gated["enabled"], false);
    assert_eq!(
        gated["disabled_by"],
        json!(["command-skill-not-in-requirements"])
    );
    assert_eq!(presets[0]["disabled_by"], json!([]));
    // The text says why too.
    let text = sandbox.run(&["preset", "list", "presets"]).expect(0);
    assert!(
        text.stdout.contains(
            "(disabled by command-skill-not-in-requirements: `autofix preset validate` says where)"
        ),
        "{}",
        text.stdout
    );
    assert_eq!(gated["form"], "hagitask");
    assert_eq!(gated["path"], "presets/gated");
    assert_eq!(gated["commands"], 2);
    let studio = &presets[3];
    assert_eq!(studio["enabled"], true);
    assert_eq!(
        studio["skills"],
        serde_json::json!(["studio-kit", "studio-audit"])
    );
    assert_eq!(
        studio["requirements"],
        serde_json::json!([
            "agent:any",
            "skill:studio-kit",
            "skill:studio-audit",
            "cli:studio-kit",
            "agent:claude,codex"
        ])
    );
    assert_eq!(presets[1]["form"], "flat");
}

#[test]
fn flat_requirements_may_live_in_prompts_json() {
    let sandbox = Sandbox::new();
    fixture(&sandbox, "good/flat-prompts", "flat-prompts");
    let json = sandbox
        .run(&["preset", "requirements", "flat-prompts", "--format", "json"])
        .expect(1)
        .json();
    let requirement = &json["requirements"][0];
    assert_eq!(requirement["kind"], "skill");
    assert_eq!(requirement["cache_key"], "skill:helper");
    assert_eq!(requirement["commands"], serde_json::json!(["one"]));
    // No panel and no inputs: placeholders are not checked.
    sandbox
        .run(&["preset", "validate", "flat-prompts", "--deny-warnings"])
        .expect(0);
}

// --- one fixture per diagnostic code ----------------------------------------------------

#[test]
fn code_invalid_json() {
    let d = only_diagnostic("invalid-json", "bad", 1);
    assert_eq!(d["severity"], "error");
    assert_eq!(d["file"], "p/bad/commands.json");
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(3), Some(17))
    );
}

#[test]
fn code_missing_file() {
    let d = only_diagnostic("missing-file", "lost", 1);
    assert_eq!(d["file"], "p/lost/manifest.json");
    assert_eq!(d["pointer"], "/ui/commands");
    assert_eq!(d["line"], 3);
    assert!(
        d["help"]
            .as_str()
            .unwrap()
            .contains("frontend/commands.json")
    );
}

#[test]
fn code_path_escapes_preset() {
    let d = only_diagnostic("path-escapes-preset", "escaper", 1);
    assert_eq!(d["file"], "p/escaper/manifest.json");
    assert_eq!(d["pointer"], "/backend/prompts");
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("../outside/prompts.json")
    );
}

#[test]
fn code_invalid_field() {
    let d = only_diagnostic("invalid-field", "two-skills", 1);
    assert_eq!(d["pointer"], "/commands/0/skill");
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(3), Some(30))
    );
    assert!(d["help"].as_str().unwrap().contains("requirements"));
}

#[test]
fn code_duplicate_command_id() {
    let d = only_diagnostic("duplicate-command-id", "twice", 1);
    assert_eq!(d["pointer"], "/commands/2/id");
    assert_eq!(d["line"], 5);
}

#[test]
fn code_unknown_command_group() {
    let d = only_diagnostic("unknown-command-group", "grouped", 1);
    assert_eq!(d["file"], "p/grouped/frontend/commands.json");
    assert_eq!(d["pointer"], "/commands/1/groupId");
    assert!(d["message"].as_str().unwrap().contains("`mian`"));
}

#[test]
fn code_command_skill_not_in_requirements_disables_the_preset() {
    let sandbox = Sandbox::new();
    fixture(
        &sandbox,
        "codes/command-skill-not-in-requirements",
        "presets",
    );
    let run = sandbox.run(&["preset", "validate", "presets"]).expect(1);
    assert_eq!(
        run.stdout,
        "error[command-skill-not-in-requirements]: command `review` is bound to skill \
         `runner-review`, which no requirement declares\n  \
         --> presets/gated/frontend/commands.json:6:70 (/commands/1/skill)\n  \
         = help: add {\"type\": \"skills\", \"name\": \"runner-review\"} to backend/task-preset.json\n\
         \n\
         Checked 1 preset: 0 enabled, 1 disabled (1 error, 0 warnings)\n\
         disabled: presets/gated\n"
    );
    // The whole preset is off: even the command whose skill is declared renders nothing.
    let run = sandbox
        .run(&[
            "preset",
            "render",
            "presets/gated",
            "--command",
            "go",
            "--set",
            "query=q",
        ])
        .expect(1);
    assert_eq!(run.stdout, "");
    assert!(run.stderr.contains("command-skill-not-in-requirements"));
    assert!(run.stderr.contains("preset `gated` is disabled"));
}

#[test]
fn code_preset_id_mismatch() {
    let d = only_diagnostic("preset-id-mismatch", "dirname", 1);
    assert_eq!(d["file"], "p/dirname/manifest.json");
    assert_eq!(d["pointer"], "/taskPresetId");
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(1), Some(19))
    );
}

#[test]
fn code_duplicate_preset_id() {
    let sandbox = Sandbox::new();
    fixture(&sandbox, "codes/duplicate-preset-id", "p");
    let run = sandbox
        .run(&[
            "preset",
            "validate",
            "p/one/alpha",
            "p/two/alpha",
            "--format",
            "json",
        ])
        .expect(1);
    let found = diagnostics(&run);
    assert_eq!(found.len(), 2);
    for d in &found {
        assert_eq!(d["code"], "duplicate-preset-id");
    }
    assert!(
        found[0]["message"]
            .as_str()
            .unwrap()
            .contains("p/two/alpha")
    );
    assert!(
        found[1]["message"]
            .as_str()
            .unwrap()
            .contains("p/one/alpha")
    );
    // Each alone is fine.
    sandbox
        .run(&["preset", "validate", "p/one/alpha"])
        .expect(0);
}

#[test]
fn code_duplicate_requirement_is_a_warning() {
    let d = only_diagnostic("duplicate-requirement", "repeat", 0);
    assert_eq!(d["severity"], "warning");
    assert_eq!(d["file"], "p/repeat/task-preset.json");
    assert_eq!(d["pointer"], "/requirements/1");
}

#[test]
fn code_unknown_placeholder_is_a_warning() {
    let d = only_diagnostic("unknown-placeholder", "typo", 0);
    assert_eq!(d["severity"], "warning");
    assert_eq!(d["pointer"], "/commands/0/prompt");
    assert!(d["message"].as_str().unwrap().contains("{toppic}"));
    assert_eq!(d["help"], "did you mean `{topic}`?");
}

#[test]
fn code_conflicting_prelude_is_a_warning() {
    let d = only_diagnostic("conflicting-prelude", "clash", 0);
    assert_eq!(d["severity"], "warning");
    assert!(d["message"].as_str().unwrap().contains("`/reviewer`"));
}

#[test]
fn deny_warnings_fails_on_warnings() {
    let sandbox = Sandbox::new();
    fixture(&sandbox, "codes/unknown-placeholder", "p");
    sandbox.run(&["preset", "validate", "p"]).expect(0);
    let run = sandbox
        .run(&["preset", "validate", "p", "--deny-warnings"])
        .expect(1);
    assert!(run.stdout.contains("warning[unknown-placeholder]"));
}

#[test]
fn validate_github_annotations() {
    let sandbox = Sandbox::new();
    fixture(&sandbox, "codes/duplicate-command-id", "p");
    let run = sandbox
        .run(&["preset", "validate", "p", "--format", "github"])
        .expect(1);
    assert_eq!(
        lines(&run.stdout)[0],
        "::error file=p/twice/commands.json,line=5,col=13,title=duplicate-command-id::command id \
         `same` is used twice%0Ahelp: give every command a unique `id`"
    );
}

#[test]
fn validate_json_has_a_summary() {
    let sandbox = Sandbox::new();
    fixture(&sandbox, "good", "presets");
    fixture(&sandbox, "codes/invalid-json", "presets");
    let json = sandbox
        .run(&["preset", "validate", "presets", "--format", "json"])
        .expect(1)
        .json();
    assert_eq!(json["version"], 1);
    assert_eq!(
        json["summary"],
        serde_json::json!({"presets": 4, "enabled": 3, "disabled": 1, "errors": 1, "warnings": 0})
    );
    let bad = &json["presets"][0];
    assert_eq!(bad["id"], "bad");
    assert_eq!(bad["enabled"], false);
    assert_eq!(bad["commands"], 0);
    assert_eq!(bad["diagnostics"][0]["code"], "invalid-json");
}

// --- the gate vs the binding ------------------------------------------------------------

#[test]
fn several_commands_bound_to_one_skill_are_one_requirement() {
    let sandbox = Sandbox::new();
    fixture(&sandbox, "good/studio", "studio");
    let json = sandbox
        .run(&["preset", "requirements", "studio", "--format", "json"])
        .expect(1)
        .json();
    let requirements = json["requirements"].as_array().unwrap();
    let keys: Vec<&str> = requirements
        .iter()
        .map(|r| r["cache_key"].as_str().unwrap())
        .collect();
    assert_eq!(
        keys,
        [
            "agent:any",
            "skill:studio-kit",
            "skill:studio-audit",
            "cli:studio-kit",
            "agent:claude,codex"
        ]
    );
    // `sketch` and `polish` (whose skill is " studio-kit ", trimmed) share one requirement.
    assert_eq!(
        requirements[1]["commands"],
        serde_json::json!(["sketch", "polish"])
    );
    assert_eq!(requirements[1]["status"], "missing");
    assert_eq!(
        requirements[1]["install"],
        "npx skills add studio-kit -g -y"
    );
    assert_eq!(requirements[3]["kind"], "cli");
    assert_eq!(requirements[3]["command"], "studio-kit-cli");
    assert_eq!(requirements[3]["commands"], serde_json::json!([]));
    assert_eq!(requirements[0]["status"], "not-checked");
    assert_eq!(json["summary"]["missing_skills"], 2);
}

// --- render: the prelude and placeholders ------------------------------------------------

const PRELUDE_CASES: &str = r#"{
  "commands": [
    { "id": "plain", "skill": "tool", "prompt": "do {x}" },
    { "id": "prefixed", "skill": "tool", "prompt": "/tool do {x}" },
    { "id": "indented", "skill": "tool", "prompt": "   /tool indented" },
    { "id": "boundary", "skill": "tool", "prompt": "/tool-review {x}" },
    { "id": "bare", "skill": "tool" },
    { "id": "unbound", "prompt": "/native as is" },
    { "id": "nothing" },
    { "id": "empty-skill", "skill": "", "prompt": "no prelude" },
    { "id": "blank-skill", "skill": "  \t", "prompt": "none either" },
    { "id": "null-skill", "skill": null, "prompt": "nor here" },
    { "id": "id", "skill": "tool", "prompt": "{commandId} {x}" }
  ]
}"#;

fn prelude_sandbox() -> Sandbox {
    let sandbox = Sandbox::new();
    sandbox.write("cases/commands.json", PRELUDE_CASES);
    sandbox.write(
        "cases/task-preset.json",
        r#"{"requirements": [{"key": "tool"}]}"#,
    );
    sandbox
}

#[test]
fn render_applies_the_prelude_once() {
    let sandbox = prelude_sandbox();
    let run = sandbox
        .run(&["preset", "render", "cases", "--set", "x=it"])
        .expect_noisy(0);
    assert_eq!(
        lines(&run.stdout),
        [
            "/tool do it",
            "/tool do it",
            "/tool indented",
            "/tool /tool-review it",
            "/tool",
            "/native as is",
            "no prelude",
            "none either",
            "nor here",
            "/tool id it",
        ]
    );
    // The boundary case is legal but suspicious: a warning on stderr, not an error.
    assert!(run.stderr.contains("warning[conflicting-prelude]"));
}

#[test]
fn render_json_shows_commands_without_a_line() {
    let sandbox = prelude_sandbox();
    let json = sandbox
        .run(&["preset", "render", "cases", "--format", "json"])
        .expect_noisy(0)
        .json();
    assert_eq!(json["version"], 1);
    assert_eq!(json["preset"], "cases");
    let commands = json["commands"].as_array().unwrap();
    assert_eq!(commands.len(), 11);
    assert_eq!(
        commands[0],
        serde_json::json!({"id": "plain", "skill": "tool", "line": "/tool do {x}", "missing": ["x"]})
    );
    assert_eq!(
        commands[6],
        serde_json::json!({"id": "nothing", "skill": null, "line": null, "missing": []})
    );
    assert_eq!(commands[7]["skill"], Value::Null);
    assert_eq!(commands[8]["skill"], Value::Null);
}

#[test]
fn render_selects_commands_in_file_order() {
    let sandbox = prelude_sandbox();
    let run = sandbox
        .run(&[
            "preset",
            "render",
            "cases",
            "--command",
            "unbound",
            "--command",
            "plain",
            "--set",
            "x=1",
        ])
        .expect_noisy(0);
    assert_eq!(run.stdout, "/tool do 1\n/native as is\n");
}

#[test]
fn render_refuses_an_unknown_command() {
    let sandbox = Sandbox::new();
    fixture(&sandbox, "good/flat-research", "flat-research");
    let run = sandbox
        .run(&["preset", "render", "flat-research", "--command", "nope"])
        .expect(2);
    assert_eq!(run.stdout, "");
    assert!(run.stderr.contains("no command `nope`"), "{}", run.stderr);
    assert!(
        run.stderr.contains("`scan`, `compare`, `brief`"),
        "{}",
        run.stderr
    );
}

#[test]
fn placeholders_are_kept_without_values() {
    let sandbox = Sandbox::new();
    fixture(&sandbox, "good/flat-research", "flat-research");
    let run = sandbox
        .run(&["preset", "render", "flat-research"])
        .expect_noisy(0);
    assert_eq!(
        lines(&run.stdout),
        [
            "/trend-scan Scan {topic} at depth {depth}",
            "/trend-scan compare {topic}",
            "Write a brief about {topic}",
        ]
    );
    let run = sandbox
        .run(&[
            "preset",
            "render",
            "flat-research",
            "--set",
            "topic=rust async",
            "--set",
            "depth=2",
        ])
        .expect(0);
    assert_eq!(
        lines(&run.stdout),
        [
            "/trend-scan Scan rust async at depth 2",
            "/trend-scan compare rust async",
            "Write a brief about rust async",
        ]
    );
}

#[test]
fn strict_names_every_missing_value() {
    let sandbox = Sandbox::new();
    fixture(&sandbox, "good/flat-research", "flat-research");
    let run = sandbox
        .run(&["preset", "render", "flat-research", "--strict"])
        .expect(2);
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr
            .contains("{topic} (used by `scan`, `compare`, `brief`), {depth} (used by `scan`)"),
        "{}",
        run.stderr
    );
    // Only the selected commands count.
    sandbox
        .run(&[
            "preset",
            "render",
            "flat-research",
            "--strict",
            "--command",
            "brief",
            "--set",
            "topic=t",
        ])
        .expect(0);
    sandbox
        .run(&[
            "preset",
            "render",
            "flat-research",
            "--strict",
            "--set",
            "topic=t",
            "--set",
            "depth=1",
        ])
        .expect(0);
}

#[test]
fn render_nul_terminates_lines() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "multi/commands.json",
        r#"{"commands": [{"id": "a", "prompt": "two\nlines"}, {"id": "b", "prompt": "one"}]}"#,
    );
    let run = sandbox.run(&["preset", "render", "multi", "-0"]).expect(0);
    assert_eq!(run.stdout, "two\nlines\0one\0");
}

#[test]
fn render_finds_a_preset_by_name_in_the_workspace() {
    let sandbox = Sandbox::new();
    fixture(
        &sandbox,
        "good/flat-research",
        ".agents/presets/flat-research",
    );
    let run = sandbox
        .run(&["preset", "render", "flat-research", "--command", "brief"])
        .expect_noisy(0);
    assert_eq!(run.stdout, "Write a brief about {topic}\n");
    let run = sandbox.run(&["preset", "render", "nope"]).expect(2);
    assert!(run.stderr.contains("no preset `nope`"), "{}", run.stderr);
}

#[test]
fn preset_commands_write_nothing_and_ignore_stdin() {
    let sandbox = Sandbox::new();
    fixture(&sandbox, "good/studio", "studio");
    let before = sandbox.read_bytes("studio/frontend/commands.json");
    let manifest = sandbox.read("studio/manifest.json");
    let plain = sandbox.run(&["preset", "render", "studio"]).expect_noisy(0);
    // In a pipeline, standard input is not ours: it is neither read nor rendered.
    let piped = sandbox
        .run_with_stdin(&["preset", "render", "studio"], "{\"commands\": []}\n")
        .expect_noisy(0);
    assert_eq!(piped.stdout, plain.stdout);
    sandbox.run(&["preset", "validate", "studio"]).expect(0);
    sandbox.run(&["preset", "requirements", "studio"]).expect(1);
    assert_eq!(sandbox.read_bytes("studio/frontend/commands.json"), before);
    assert_eq!(sandbox.read("studio/manifest.json"), manifest);
    let mut entries: Vec<String> = fs::read_dir(sandbox.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    entries.sort();
    assert_eq!(entries, ["home", "studio"]);
}

// --- requirements: installed or not -----------------------------------------------------

fn install_skill(sandbox: &Sandbox, dir: &str, skill: &str) {
    sandbox.write(format!("{dir}/{skill}/SKILL.md"), format!("# {skill}\n"));
}

#[test]
fn requirements_report_missing_skills_with_a_hint() {
    let sandbox = Sandbox::new();
    fixture(&sandbox, "good/flat-research", "flat-research");
    let run = sandbox
        .run(&["preset", "requirements", "flat-research"])
        .expect(1);
    assert_eq!(
        run.stdout,
        "flat-research (flat-research): 1 requirement\n  \
         skill:trend-scan  missing      commands: scan, compare  [skill-not-installed]\n                    \
         install: npx skills add trend-scan -g -y\n\
         1 of 1 skill not installed\n"
    );
}

#[test]
fn skills_installed_in_home_count() {
    let sandbox = Sandbox::new();
    fixture(&sandbox, "good/flat-research", "flat-research");
    install_skill(&sandbox, "home/.agents/skills", "trend-scan");
    let run = sandbox
        .run(&["preset", "requirements", "flat-research"])
        .expect(0);
    assert!(
        run.stdout.contains("skill:trend-scan  installed"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.ends_with("all 1 skill installed\n"),
        "{}",
        run.stdout
    );
    let json = sandbox
        .run(&[
            "preset",
            "requirements",
            "flat-research",
            "--format",
            "json",
        ])
        .expect(0)
        .json();
    let path = json["requirements"][0]["path"].as_str().unwrap();
    assert!(
        path.ends_with("home/.agents/skills/trend-scan/SKILL.md"),
        "{path}"
    );
    assert_eq!(json["requirements"][0]["install"], Value::Null);
}

#[test]
fn skills_installed_in_the_project_or_a_skills_dir_count() {
    let sandbox = Sandbox::new();
    fixture(&sandbox, "good/studio", "studio");
    install_skill(&sandbox, ".claude/skills", "studio-kit");
    let json = sandbox
        .run(&["preset", "requirements", "studio", "--format", "json"])
        .expect(1)
        .json();
    assert_eq!(json["requirements"][1]["status"], "installed");
    assert_eq!(json["requirements"][2]["status"], "missing");
    install_skill(&sandbox, "extra", "studio-audit");
    // A directory without SKILL.md is not an installed skill.
    fs::create_dir_all(sandbox.join("home/.claude/skills/studio-audit")).unwrap();
    sandbox
        .run(&["preset", "requirements", "studio", "--skills-dir", "extra"])
        .expect(0);
}

#[cfg(unix)]
#[test]
fn cli_requirements_are_looked_up_on_path_and_never_run() {
    use std::os::unix::fs::PermissionsExt;
    let sandbox = Sandbox::new();
    fixture(&sandbox, "good/studio", "studio");
    install_skill(&sandbox, ".agents/skills", "studio-kit");
    install_skill(&sandbox, ".agents/skills", "studio-audit");
    let marker = sandbox.join("ran");
    let tool = sandbox.write(
        "bin/studio-kit-cli",
        format!("#!/bin/sh\ntouch '{}'\n", marker.display()),
    );
    let path_without = sandbox.join("empty");
    fs::create_dir_all(&path_without).unwrap();
    let run = |path: &Path| {
        let output = sandbox
            .command(&["preset", "requirements", "studio", "--format", "json"])
            .env("PATH", path)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0));
        serde_json::from_slice::<Value>(&output.stdout).unwrap()
    };
    assert_eq!(run(&path_without)["requirements"][3]["status"], "not-found");
    fs::set_permissions(&tool, fs::Permissions::from_mode(0o755)).unwrap();
    let json = run(&sandbox.path().join("bin"));
    assert_eq!(json["requirements"][3]["status"], "found");
    assert_eq!(json["requirements"][3]["path"], tool.display().to_string());
    assert!(!marker.exists(), "the CLI was executed");
}

#[test]
fn requirements_of_a_disabled_preset_fail() {
    let sandbox = Sandbox::new();
    fixture(&sandbox, "codes/command-skill-not-in-requirements", "p");
    install_skill(&sandbox, "home/.agents/skills", "runner");
    let run = sandbox
        .run(&["preset", "requirements", "p/gated"])
        .expect(1);
    assert!(
        run.stdout.contains("all 1 skill installed"),
        "{}",
        run.stdout
    );
    assert!(run.stderr.contains("command-skill-not-in-requirements"));
}

// --- collections and discovery ----------------------------------------------------------

#[test]
fn without_a_path_the_workspace_presets_are_used() {
    let sandbox = Sandbox::new();
    fs::create_dir_all(sandbox.join(".git")).unwrap();
    fs::create_dir_all(sandbox.join("src/deep")).unwrap();
    fixture(&sandbox, "good/studio", ".agents/presets/studio");
    fixture(&sandbox, "good/flat-research", "presets/flat-research");
    sandbox.write("presets/notes/README.md", "not a preset\n");
    let output = sandbox
        .command_in("src/deep", &["preset", "list"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let stdout = String::from_utf8(output.stdout).unwrap();
    let ids: Vec<&str> = stdout
        .lines()
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    assert_eq!(ids, ["studio", "flat-research"]);
    let run = sandbox.run(&["preset", "validate"]).expect(0);
    assert!(run.stdout.starts_with("Checked 2 presets: 2 enabled"));
}

#[test]
fn an_empty_workspace_has_no_presets() {
    let sandbox = Sandbox::new();
    let run = sandbox.run(&["preset", "validate"]).expect_noisy(0);
    assert_eq!(
        run.stdout,
        "Checked 0 presets: 0 enabled, 0 disabled (0 errors, 0 warnings)\n"
    );
    assert!(
        run.stderr
            .starts_with("note[no-presets-found]: no presets found"),
        "{}",
        run.stderr
    );
    let explained = sandbox.run(&["explain", "no-presets-found"]).expect(0);
    assert!(explained.stdout.contains("default collection folder"));
}

#[test]
fn a_path_without_presets_is_a_usage_error() {
    let sandbox = Sandbox::new();
    let run = sandbox.run(&["preset", "validate", "missing"]).expect(2);
    assert!(
        run.stderr.contains("`missing` does not exist"),
        "{}",
        run.stderr
    );
    sandbox.write("empty/notes.txt", "hello\n");
    let run = sandbox.run(&["preset", "list", "empty"]).expect(2);
    assert!(
        run.stderr.contains("`empty` holds no preset"),
        "{}",
        run.stderr
    );
    let run = sandbox.run(&["preset", "render", "empty"]).expect(2);
    assert!(
        run.stderr.contains("`empty` is not a preset"),
        "{}",
        run.stderr
    );
}

#[test]
fn the_examples_behave_as_documented() {
    let sandbox = Sandbox::new();
    copy_dir(
        &Path::new(EXAMPLES).join("presets"),
        &sandbox.join("examples/presets"),
    );
    copy_dir(
        &Path::new(EXAMPLES).join("broken-presets"),
        &sandbox.join("examples/broken-presets"),
    );
    sandbox
        .run(&["preset", "validate", "examples/presets", "--deny-warnings"])
        .expect(0);
    let run = sandbox
        .run(&["preset", "validate", "examples/broken-presets"])
        .expect(1);
    assert!(
        run.stdout
            .contains("error[command-skill-not-in-requirements]")
    );
    let run = sandbox
        .run(&[
            "preset",
            "render",
            "examples/presets/last30days",
            "--set",
            "topic=rust",
        ])
        .expect_noisy(0);
    assert_eq!(
        lines(&run.stdout)[..2],
        [
            "/last30days Research the real discussion about rust over the last 30 days",
            "/last30days rust --competitors"
        ]
    );
}

// --- hostile input ----------------------------------------------------------------------

#[test]
fn hostile_files_are_diagnostics_not_crashes() {
    let sandbox = Sandbox::new();
    let cases: &[(&str, &[u8])] = &[
        ("top-array", b"[]"),
        ("top-number", b"42"),
        ("empty", b""),
        ("not-utf8", b"{\"commands\": [\xff\xfe]}"),
        ("deep", &[b'['; 100_000]),
        ("commands-object", br#"{"commands": {"id": "a"}}"#),
        ("ids", br#"{"commands": [{"id": 7}, {"id": ""}, {"id": "   "}, 3, null]}"#),
        ("skills", br#"{"commands": [{"id": "a", "skill": {"name": "x"}}, {"id": "b", "skill": 1}]}"#),
        ("templates", br#"{"commands": [{"id": "a", "prompt": ["x"]}, {"id": "b", "preludeTemplate": "{{{"}]}"#),
        ("bom", b"\xEF\xBB\xBF{\"commands\": [{\"id\": \"a\", \"prompt\": \"ok\"}]}"),
    ];
    for (name, contents) in cases {
        sandbox.write(format!("presets/{name}/commands.json"), contents);
    }
    sandbox.write(
        "presets/requirements/commands.json",
        r#"{"commands": [{"id": "a", "skill": "s"}]}"#,
    );
    sandbox.write(
        "presets/requirements/task-preset.json",
        r#"{"requirements": [{"type": "skills"}, {"type": "bogus", "name": "x"}, "s", {"key": 5}, {"type": "agent"}, {"type": "cli", "name": "c", "args": [1]}]}"#,
    );
    sandbox.write(
        "presets/manifest-only/manifest.json",
        r#"{"taskPresetId": "manifest-only"}"#,
    );
    sandbox.write(
        "presets/hagi-wrong/manifest.json",
        r#"{"ui": "x", "backend": {"taskPreset": 5, "prompts": "/etc/passwd"}}"#,
    );
    sandbox.write(
        "presets/hagi-dir/manifest.json",
        r#"{"ui": {"panel": "."}, "backend": {"taskPreset": "frontend", "prompts": ""}}"#,
    );
    fs::create_dir_all(sandbox.join("presets/hagi-dir/frontend")).unwrap();
    let run = sandbox
        .run(&["preset", "validate", "presets", "--format", "json"])
        .expect(1);
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    let json = run.json();
    for preset in json["presets"].as_array().unwrap() {
        let enabled = preset["enabled"].as_bool().unwrap();
        assert_eq!(enabled, preset["id"] == "bom", "{preset:#}");
    }
    for format in ["text", "github"] {
        let run = sandbox.run(&["preset", "validate", "presets", "--format", format]);
        assert_eq!(run.code, 1, "{}", run.stderr);
    }
    for preset in ["not-utf8", "deep", "hagi-wrong", "requirements"] {
        let run = sandbox.run(&["preset", "render", &format!("presets/{preset}")]);
        assert_eq!(
            (run.code, run.stdout.as_str()),
            (1, ""),
            "{preset}: {}",
            run.stderr
        );
        let run = sandbox.run(&["preset", "requirements", &format!("presets/{preset}")]);
        assert_eq!(run.code, 1, "{preset}: {}", run.stderr);
    }
}

#[cfg(unix)]
#[test]
fn links_out_of_the_preset_are_refused() {
    use std::os::unix::fs::symlink;
    let sandbox = Sandbox::new();
    sandbox.write(
        "secret/commands.json",
        r#"{"commands": [{"id": "x", "prompt": "secret"}]}"#,
    );
    fs::create_dir_all(sandbox.join("presets/linked")).unwrap();
    symlink(
        sandbox.join("secret/commands.json"),
        sandbox.join("presets/linked/commands.json"),
    )
    .unwrap();
    sandbox.write("secret/manifest.json", r#"{"taskPresetId": "secret"}"#);
    sandbox.write("presets/mlink/commands.json", r#"{"commands": []}"#);
    symlink(
        sandbox.join("secret/manifest.json"),
        sandbox.join("presets/mlink/manifest.json"),
    )
    .unwrap();
    fixture(&sandbox, "good/studio", "presets/studio");
    fs::remove_dir_all(sandbox.join("presets/studio/backend")).unwrap();
    fixture(&sandbox, "good/studio/backend", "elsewhere");
    symlink(
        sandbox.join("elsewhere"),
        sandbox.join("presets/studio/backend"),
    )
    .unwrap();
    let run = sandbox
        .run(&["preset", "validate", "presets", "--format", "json"])
        .expect(1);
    let found = diagnostics(&run);
    let codes: Vec<(&str, &str)> = found
        .iter()
        .map(|d| (d["code"].as_str().unwrap(), d["file"].as_str().unwrap()))
        .collect();
    assert_eq!(
        codes,
        [
            ("path-escapes-preset", "presets/linked/commands.json"),
            ("path-escapes-preset", "presets/mlink/manifest.json"),
            ("path-escapes-preset", "presets/studio/manifest.json"),
            ("path-escapes-preset", "presets/studio/manifest.json"),
        ]
    );
    let run = sandbox
        .run(&["preset", "render", "presets/linked"])
        .expect(1);
    assert!(!run.stdout.contains("secret"));
}

#[test]
fn a_preset_directory_may_itself_be_the_collection_root() {
    let sandbox = Sandbox::new();
    fixture(&sandbox, "good/flat-research", "flat-research");
    let output = sandbox
        .command_in("flat-research", &["preset", "validate", "."])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let output = sandbox
        .command_in("flat-research", &["preset", "list", "."])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&output.stdout).starts_with("flat-research  enabled"));
}

// --- the checks of HagiCode's package validator -----------------------------------------
//
// `hagitask/atlas` is a complete package that passes every check; each `hagitask/bad/<case>`
// holds the files that, laid over a copy of it, break one check, and each
// `hagitask/good/<case>` files that keep it valid another way the schemas allow.

/// `hagitask/atlas` at `<sandbox>/p/atlas`, with the files of `hagitask/bad/<case>` over it.
fn atlas(sandbox: &Sandbox, case: Option<&str>) {
    fixture(sandbox, "hagitask/atlas", "p/atlas");
    if let Some(case) = case {
        fixture(sandbox, &format!("hagitask/bad/{case}"), "p/atlas");
    }
}

/// The diagnostics of atlas broken by `case` (which must disable it: exit 1).
fn broken_atlas(case: &str) -> Vec<Value> {
    let sandbox = Sandbox::new();
    atlas(&sandbox, Some(case));
    let run = sandbox
        .run(&["preset", "validate", "p/atlas", "--format", "json"])
        .expect(1);
    diagnostics(&run)
}

/// (code, file, pointer, line) of each diagnostic.
fn places(found: &[Value]) -> Vec<(String, String, String, u64)> {
    found
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["file"].as_str().unwrap().to_string(),
                d["pointer"].as_str().unwrap().to_string(),
                d["line"].as_u64().unwrap_or(0),
            )
        })
        .collect()
}

fn place(code: &str, file: &str, pointer: &str, line: u64) -> (String, String, String, u64) {
    let file = format!("p/atlas/{file}");
    (code.into(), file, pointer.into(), line)
}

fn messages(found: &[Value]) -> Vec<&str> {
    found
        .iter()
        .map(|d| d["message"].as_str().unwrap())
        .collect()
}

#[test]
fn a_complete_package_passes_every_package_check() {
    let sandbox = Sandbox::new();
    atlas(&sandbox, None);
    let run = sandbox
        .run(&["preset", "validate", "p/atlas", "--deny-warnings"])
        .expect(0);
    assert_eq!(
        run.stdout,
        "Checked 1 preset: 1 enabled, 0 disabled (0 errors, 0 warnings)\n"
    );
}

#[test]
fn every_json_file_of_a_package_must_parse() {
    let found = broken_atlas("invalid-json");
    assert_eq!(
        places(&found),
        [place("invalid-json", "notes/broken.json", "", 1)]
    );
    assert_eq!(found[0]["column"], 29);

    // A broken manifest does not hide the other files' problems.
    let sandbox = Sandbox::new();
    atlas(&sandbox, Some("invalid-json"));
    sandbox.write("p/atlas/manifest.json", "{ \"taskPresetId\": \"atlas\",\n");
    let run = sandbox
        .run(&["preset", "validate", "p/atlas", "--format", "json"])
        .expect(1);
    assert_eq!(
        places(&diagnostics(&run)),
        [
            place("invalid-json", "manifest.json", "", 2),
            place("invalid-json", "notes/broken.json", "", 1),
        ]
    );
}

#[test]
fn schema_references_resolve_by_their_tail() {
    // atlas itself uses the three forms seen in real packages: a relative path, a
    // raw.githubusercontent.com and a tasks.hagicode.com address.
    let found = broken_atlas("unresolved-schema");
    assert_eq!(
        places(&found),
        [place(
            "unresolved-schema",
            "locales/zh-CN.json",
            "/$schema",
            2
        )]
    );
    assert!(messages(&found)[0].contains("locale.schema.json"));
    assert!(
        found[0]["help"]
            .as_str()
            .unwrap()
            .contains("`locales.schema.json`")
    );
}

#[test]
fn scope_sources_are_the_three_hagicode_lists() {
    let found = broken_atlas("unsupported-scope-source");
    let pointer = "/targets/vaults/selections/0/scope/source";
    assert_eq!(
        places(&found),
        [place(
            "unsupported-scope-source",
            "backend/task-preset.json",
            pointer,
            23
        )]
    );
    assert_eq!(
        messages(&found),
        ["selection `referenceVaults` uses unsupported scope source `vault-list`"]
    );
}

#[test]
fn an_extension_strategy_needs_its_extension_point() {
    let found = broken_atlas("invalid-execution");
    assert_eq!(
        places(&found),
        [place(
            "invalid-execution",
            "backend/task-preset.json",
            "/execution",
            40
        )]
    );
    assert!(messages(&found)[0].contains("required for the `extension` strategy"));
}

#[test]
fn input_bindings_never_alias_themselves_and_url_lists_agree() {
    let found = broken_atlas("invalid-input-binding");
    let at = |pointer, line| {
        place(
            "invalid-input-binding",
            "backend/task-preset.json",
            pointer,
            line,
        )
    };
    assert_eq!(
        places(&found),
        [
            at("/inputBindings/0/aliases/1", 35),
            at("/inputBindings/0/aliases/2", 35),
            at("/inputBindings/1/transform", 37),
            at("/inputBindings/3", 39),
        ]
    );
    assert_eq!(
        messages(&found),
        [
            "input binding `atlasQuery` lists its own name among its `aliases`",
            "input binding `atlasQuery` lists alias `query` twice",
            "input binding `atlasLinks` has `transform: url-list` but its `valueType` is not `url-list`",
            "input binding `atlasNotes` has neither `promptParameter` nor `metadataKey`",
        ]
    );
}

#[test]
fn declared_paths_stay_inside_and_the_store_page_is_a_directory() {
    let found = broken_atlas("escaping-bundle");
    let pointer = "/localization/bundles/zh-CN";
    assert_eq!(
        places(&found),
        [place("path-escapes-preset", "manifest.json", pointer, 19)]
    );
    let found = broken_atlas("store-page-not-a-directory");
    assert_eq!(
        places(&found),
        [place(
            "missing-file",
            "manifest.json",
            "/site/storePage",
            23
        )]
    );
    assert!(messages(&found)[0].ends_with("which is not a directory"));
}

#[test]
fn every_supported_locale_has_a_bundle_and_a_store_page() {
    let found = broken_atlas("missing-locale-bundle");
    assert_eq!(
        places(&found),
        [place(
            "missing-locale-bundle",
            "manifest.json",
            "/localization/bundles",
            19
        )]
    );
    assert_eq!(messages(&found), ["supported locale `zh-CN` has no bundle"]);
    let found = broken_atlas("missing-store-page");
    assert_eq!(
        places(&found),
        [place(
            "missing-store-page",
            "manifest.json",
            "/site/storePage",
            23
        )]
    );
    assert!(messages(&found)[0].contains("store-page/index.ja-JP.md"));
    let found = broken_atlas("default-locale-not-supported");
    assert_eq!(
        places(&found),
        [place(
            "default-locale-not-supported",
            "manifest.json",
            "/localization/defaultLocale",
            17
        )]
    );
}

#[test]
fn store_page_frontmatter_agrees_with_its_package() {
    let found = broken_atlas("invalid-store-page");
    let (de, zh) = ("store-page/index.de-DE.md", "store-page/index.zh-CN.md");
    assert_eq!(
        places(&found),
        [
            place("invalid-store-page", de, "", 1),
            place("invalid-store-page", zh, "/locale", 2),
            place("invalid-store-page", zh, "/slug", 3),
            place("invalid-store-page", zh, "/status", 6),
            place("invalid-store-page", zh, "/rating", 7),
        ]
    );
    assert_eq!(
        messages(&found),
        [
            "store page locale `de-DE` is not in the manifest's `supportedLocales`",
            "`locale` is `en-US` but the file is the `zh-CN` page",
            "`slug` is `atlas-map` but the task id is `atlas`",
            "`status` is `draft`, not `active`, `experimental` or `disabled`",
            "the frontmatter has an unknown key `rating`",
        ]
    );
    let found = broken_atlas("store-page-without-frontmatter");
    let page = "store-page/index.en-US.md";
    assert_eq!(places(&found), [place("invalid-store-page", page, "", 1)]);
}

#[test]
fn prompt_templates_exist_and_prompt_locales_are_declared() {
    let found = broken_atlas("missing-template");
    let file = "backend/prompts.json";
    assert_eq!(
        places(&found),
        [
            place(
                "missing-file",
                file,
                "/variants/fallback/systemTemplate",
                22
            ),
            place("missing-file", file, "/commandSystemPrompts/map/zh-CN", 25),
        ]
    );
    let found = broken_atlas("malformed-command-prompts");
    assert_eq!(
        places(&found),
        [
            place("invalid-field", file, "/commandSystemPrompts/map", 25),
            place(
                "invalid-field",
                file,
                "/commandSystemPrompts/survey/en-US",
                26
            ),
        ]
    );
    let found = broken_atlas("undeclared-prompt-locale");
    assert_eq!(
        places(&found),
        [place(
            "undeclared-prompt-locale",
            file,
            "/supportedLocales/2",
            6
        )]
    );
}

#[test]
fn requirements_keep_to_the_members_of_their_type() {
    let found = broken_atlas("invalid-requirement");
    let file = "backend/task-preset.json";
    assert_eq!(
        places(&found),
        [
            place("invalid-requirement", file, "/requirements/0/names/1", 7),
            place("invalid-requirement", file, "/requirements/0/args", 7),
            place("invalid-requirement", file, "/requirements/1", 8),
            place("invalid-requirement", file, "/requirements/1/names/1", 8),
            place("invalid-requirement", file, "/requirements/2/command", 9),
            place("invalid-requirement", file, "/requirements/3/names", 10),
        ]
    );
    assert_eq!(
        messages(&found),
        [
            "`gpt-5` is not a known agent id",
            "the `agent` requirement must not have `args`",
            "the `agent` requirement has both `name` and `names`",
            "agent `codex` is named twice",
            "the `skills` requirement must not have `command`",
            "the `cli` requirement must not have `names`",
        ]
    );
}

#[test]
fn a_package_repository_is_its_data_folder() {
    // The root manifest is not a package (it would not even load as one), and a folder of
    // `data/` without a manifest is not a package either.
    let sandbox = Sandbox::new();
    fixture(&sandbox, "hagitask/repository", "repo");
    fixture(&sandbox, "hagitask/atlas", "repo/data/atlas");
    let run = sandbox.run(&["preset", "validate", "repo"]).expect(0);
    assert_eq!(
        run.stdout,
        "Checked 1 preset: 1 enabled, 0 disabled (0 errors, 0 warnings)\n"
    );
    let run = sandbox.run(&["preset", "list", "repo"]).expect(0);
    assert_eq!(lines(&run.stdout).len(), 1, "{}", run.stdout);
    assert!(run.stdout.starts_with("atlas  enabled"), "{}", run.stdout);
}

#[test]
fn package_checks_reach_every_format() {
    let sandbox = Sandbox::new();
    atlas(&sandbox, Some("unsupported-scope-source"));
    let validate = |format: &str| {
        sandbox
            .run(&["preset", "validate", "p/atlas", "--format", format])
            .expect(1)
    };
    let text = validate("text").stdout;
    assert!(
        text.starts_with(
            "error[unsupported-scope-source]: selection `referenceVaults` uses unsupported scope \
         source `vault-list`\n  --> p/atlas/backend/task-preset.json:23:54 \
         (/targets/vaults/selections/0/scope/source)\n  = help: use one of \
         `owner-project-repositories`, `vault-registry`, `project-registry`\n"
        ),
        "{text}"
    );
    let github = validate("github").stdout;
    assert!(
        github.starts_with(
            "::error file=p/atlas/backend/task-preset.json,line=23,col=54,\
         title=unsupported-scope-source::selection `referenceVaults`"
        ),
        "{github}"
    );
    let sarif = validate("sarif").json();
    let result = &sarif["runs"][0]["results"][0];
    assert_eq!(result["ruleId"], "unsupported-scope-source");
    let region = &result["locations"][0]["physicalLocation"]["region"];
    assert_eq!(
        (region["startLine"].as_u64(), region["startColumn"].as_u64()),
        (Some(23), Some(54))
    );
    let explain = sandbox
        .run(&["explain", "unsupported-scope-source"])
        .expect(0);
    assert!(explain.stdout.contains("vault-registry"));
}

#[test]
fn the_manifest_keeps_to_its_schema() {
    let found = broken_atlas("schema-violation");
    assert_eq!(
        places(&found),
        [
            place("invalid-field", "manifest.json", "", 1),
            place("invalid-field", "manifest.json", "/kind", 8),
        ]
    );
    assert_eq!(
        messages(&found),
        [
            "the manifest has no `version`",
            "`kind` of the manifest is `not-a-kind`, which is not one of `custom-executor`, \
             `session-automation`, `proposal-stage`",
        ]
    );
}

#[test]
fn what_the_schemas_allow_passes() {
    // `hagitask/good/<case>` laid over atlas: a declarative execution with `agent: any`,
    // a prompt package with `locales` only. (Host-provided strings without bundles are
    // reported: HagiCode's validator asks for a bundle per locale whatever the strategy.)
    for case in ["declarative", "locales-only"] {
        let sandbox = Sandbox::new();
        atlas(&sandbox, None);
        fixture(&sandbox, &format!("hagitask/good/{case}"), "p/atlas");
        let run = sandbox
            .run(&["preset", "validate", "p/atlas", "--deny-warnings"])
            .expect(0);
        assert!(run.stdout.contains("(0 errors, 0 warnings)"), "{case}");
    }
}

#[test]
fn render_without_a_value_says_what_was_left_as_written() {
    let sandbox = Sandbox::new();
    let preset = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/presets/last30days");
    let run = sandbox
        .run(&["preset", "render", preset, "--set", "topic=rust"])
        .expect_noisy(0);
    assert!(
        run.stdout.contains("for {audience} in five"),
        "{}",
        run.stdout
    );
    assert_eq!(
        run.stderr,
        "note[missing-value]: no value for {audience} (used by `summarize`), left as written; give each with \
         --set NAME=VALUE (--strict makes this an error)\n"
    );
    let run = sandbox
        .run(&[
            "preset",
            "render",
            preset,
            "--set",
            "topic=rust",
            "--set",
            "audience=devs",
        ])
        .expect(0);
    assert_eq!(run.stderr, "");
}

/// The studio package with `edit` applied to one of its files (relative to the package).
fn studio_with(file: &str, edit: impl Fn(String) -> String) -> Sandbox {
    let sandbox = Sandbox::new();
    fixture(&sandbox, "good/studio", "studio");
    let path = format!("studio/{file}");
    sandbox.write(&path, edit(sandbox.read(&path)));
    sandbox
}

/// A command member the commands schema does not allow (`skills`, `prelude`) is an error
/// naming the member meant: dropped, the binding's checks would never run.
#[test]
fn an_unknown_command_member_is_refused_with_the_member_meant() {
    let sandbox = studio_with("frontend/commands.json", |text| {
        text.replace(r#""skill": "studio-audit""#, r#""skills": "studio-audit""#)
            .replace(
                r#""preludeTemplate": "Write notes"#,
                r#""prelude": "Write notes"#,
            )
    });
    let run = sandbox
        .run(&["preset", "validate", "studio", "--format", "json"])
        .expect(1);
    let found = diagnostics(&run);
    let unknown: Vec<(&str, &str, &str)> = found
        .iter()
        .filter(|d| d["message"].as_str().unwrap().contains("unknown member"))
        .map(|d| {
            (
                d["pointer"].as_str().unwrap(),
                d["code"].as_str().unwrap(),
                d["help"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(unknown.len(), 2, "{found:#?}");
    assert_eq!(unknown[0].0, "/commands/2/skills");
    assert_eq!(unknown[0].1, "invalid-field");
    assert!(
        unknown[0].2.starts_with("did you mean `skill`?"),
        "{}",
        unknown[0].2
    );
    assert_eq!(unknown[1].0, "/commands/3/prelude");
    assert!(
        unknown[1].2.starts_with("did you mean `preludeTemplate`?"),
        "{}",
        unknown[1].2
    );
}

/// With `host-i18n-bridge` and no `bundles`, each supported locale is reported, as
/// HagiCode's package validator reports it.
#[test]
fn host_i18n_bridge_without_bundles_reports_each_locale() {
    let sandbox = studio_with("manifest.json", |text| {
        text.replace(
            r#""strategy": "plugin-bundles""#,
            r#""strategy": "host-i18n-bridge""#,
        )
        .replace(r#", "bundles": {"en-US": "./locales/en-US.json"}"#, "")
    });
    assert!(!sandbox.read("studio/manifest.json").contains("bundles"));
    let run = sandbox
        .run(&["preset", "validate", "studio", "--format", "json"])
        .expect(1);
    let found = diagnostics(&run);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0]["code"], "missing-locale-bundle");
    assert_eq!(found[0]["pointer"], "/localization");
    assert!(found[0]["message"].as_str().unwrap().contains("`en-US`"));
}

/// With `variants`, the validator ignores `locales`: a missing `locales` template is then
/// not reported, a missing variant template still is.
#[test]
fn locales_templates_are_ignored_beside_variants() {
    let variants = r#""variants": {"selectors": ["locale"], "entries": [{"when": {"locale": "en-US"}, "systemTemplate": "./templates/system.md", "userTemplate": "./templates/user.hbs"}], "fallback": {"systemTemplate": "./templates/system.md", "userTemplate": "./templates/user.hbs"}},"#;
    let sandbox = studio_with("backend/prompts.json", |text| {
        text.replace("./templates/system.md\"", "./templates/gone.md\"")
            .replace(r#""version""#, &format!("{variants} \"version\""))
    });
    sandbox.run(&["preset", "validate", "studio"]).expect(0);
    let sandbox = studio_with("backend/prompts.json", |text| {
        text.replace(
            r#""version""#,
            &format!(
                "{} \"version\"",
                variants.replace(
                    "fallback\": {\"systemTemplate\": \"./templates/system.md",
                    "fallback\": {\"systemTemplate\": \"./templates/lost.md"
                )
            ),
        )
    });
    let run = sandbox
        .run(&["preset", "validate", "studio", "--format", "json"])
        .expect(1);
    let found = diagnostics(&run);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0]["code"], "missing-file");
    assert_eq!(found[0]["pointer"], "/variants/fallback/systemTemplate");
}

/// `render` says which commands have no line instead of dropping them silently.
#[test]
fn render_names_the_commands_it_leaves_out() {
    let sandbox = Sandbox::new();
    fixture(&sandbox, "good/studio", "studio");
    let run = sandbox
        .run(&["preset", "render", "studio", "--set", "studioBrief=b"])
        .expect_noisy(0);
    assert!(
        run.stderr.contains(
            "note[command-without-line]: 1 command has no line, left out: it has neither a skill nor a prelude (`tidy`)"
        ),
        "{}",
        run.stderr
    );
    assert!(!run.stdout.contains("tidy"), "{}", run.stdout);
}

/// A `--set` name that no rendered command uses (`studioBrif`) is said, with the name
/// meant, instead of being ignored.
#[test]
fn render_warns_about_a_value_nothing_uses() {
    let sandbox = Sandbox::new();
    fixture(&sandbox, "good/studio", "studio");
    let run = sandbox
        .run(&["preset", "render", "studio", "--set", "studioBrif=b"])
        .expect_noisy(0);
    assert!(
        run.stderr.contains(
            "warning[unused-value]: --set studioBrif: no rendered command has the placeholder {studioBrif}, so the value is unused; did you mean `studioBrief`?"
        ),
        "{}",
        run.stderr
    );
    let run = sandbox
        .run(&["preset", "render", "studio", "--set", "studioBrief=b"])
        .expect_noisy(0);
    assert!(!run.stderr.contains("unused"), "{}", run.stderr);
}

/// `preset requirements` without a preset checks the workspace's only one, and names them
/// when there are several.
#[test]
fn requirements_default_to_the_only_preset() {
    let sandbox = Sandbox::new();
    let run = sandbox.run(&["preset", "requirements"]).expect(2);
    assert!(run.stderr.contains("no preset in `"), "{}", run.stderr);
    fixture(&sandbox, "good/flat-research", "presets/flat-research");
    let named = sandbox
        .run(&["preset", "requirements", "flat-research"])
        .expect(1)
        .stdout;
    let run = sandbox.run(&["preset", "requirements"]).expect(1);
    assert_eq!(run.stdout, named);
    fixture(&sandbox, "good/studio", "presets/studio");
    let run = sandbox.run(&["preset", "requirements"]).expect(2);
    assert!(
        run.stderr
            .contains("2 presets here (`flat-research`, `studio`): name the one to check"),
        "{}",
        run.stderr
    );
}
