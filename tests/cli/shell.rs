//! CI and shell ergonomics: SARIF (validated by Microsoft's SARIF Multitool where it is
//! installed), `explain`, completions, the man page, and the JSON reference (src/docs/output.md).

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use autofix::Code;

use crate::support::{Run, Sandbox, example_workspace};

const JSON_REFERENCE: &str = include_str!("../../src/docs/output.md");

/// The example workspace with a `.git` marker, so SARIF URIs are relative to it.
fn example_repository() -> Sandbox {
    let sandbox = example_workspace();
    fs::create_dir(sandbox.join(".git")).unwrap();
    sandbox
}

#[test]
fn explain_covers_every_code() {
    let sandbox = Sandbox::new();
    for code in Code::ALL {
        let run = sandbox.run(&["explain", code.as_str()]).expect(0);
        for part in [code.summary(), code.why(), code.fix()] {
            assert!(
                run.stdout.contains(part),
                "{}: {}",
                code.as_str(),
                run.stdout
            );
        }
        assert!(run.stdout.starts_with(&format!(
            "{} ({})",
            code.as_str(),
            code.severity().as_str()
        )));
    }
    let list = sandbox.run(&["explain", "--list"]).expect(0);
    assert_eq!(list.stdout.lines().count(), Code::ALL.len());
}

#[test]
fn explain_an_unknown_code_suggests_the_closest() {
    let run = Sandbox::new()
        .run(&["explain", "command-skil-not-in-requirement"])
        .expect(2);
    assert!(
        run.stderr
            .contains("did you mean `command-skill-not-in-requirements`"),
        "{}",
        run.stderr
    );
    Sandbox::new().run(&["explain"]).expect(2);
}

#[test]
fn completion_scripts() {
    let sandbox = Sandbox::new();
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let run = sandbox.run(&["completions", shell]).expect(0);
        assert!(run.stdout.contains("preset"), "{shell}");
    }
    let script = sandbox.run(&["completions", "bash"]).expect(0).stdout;
    let path = sandbox.write("autofix.bash", &script);
    let syntax = Command::new("bash").arg("-n").arg(&path).status();
    let Ok(syntax) = syntax else {
        return crate::support::skip("bash", "bash is not installed");
    };
    assert!(syntax.success());
    let probe = format!(
        "source {}; COMP_WORDS=(autofix pre); COMP_CWORD=1; COMP_LINE='autofix pre'; \
         COMP_POINT=${{#COMP_LINE}}; _autofix autofix pre autofix; echo \"${{COMPREPLY[@]}}\"",
        path.display()
    );
    let output = Command::new("bash").args(["-c", &probe]).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&output.stdout).trim(), "preset");
}

/// Renders a man page with `man -l`, or `None` (recorded as a skip) without `man`.
fn render_man(page: &str) -> Option<String> {
    let Ok(mut man) = Command::new("man")
        .args(["-l", "-"])
        .env("MANPAGER", "cat")
        .env("MANWIDTH", "100")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    else {
        crate::support::skip("man", "rendering the man pages (man is not installed)");
        return None;
    };
    man.stdin
        .take()
        .unwrap()
        .write_all(page.as_bytes())
        .unwrap();
    let rendered = man.wait_with_output().unwrap();
    assert!(
        rendered.stderr.is_empty(),
        "man warns: {}",
        String::from_utf8_lossy(&rendered.stderr)
    );
    Some(String::from_utf8_lossy(&rendered.stdout).into_owned())
}

#[test]
fn the_man_page_renders() {
    let page = Sandbox::new().run(&["man"]).expect(0).stdout;
    assert!(page.contains(".TH autofix 1"), "{page}");
    let Some(text) = render_man(&page) else {
        return;
    };
    assert!(text.contains("NAME") && text.contains("autofix"), "{text}");
    // The environment is documented, and the exit-status block keeps its columns.
    assert!(text.contains("AUTOFIX_LOCK_TIMEOUT"), "{text}");
    assert!(text.contains("AUTOFIX_CEILING_DIRECTORIES"), "{text}");
    assert!(
        text.lines()
            .any(|line| line.trim_start().starts_with("2  it could not do its job")),
        "{text}"
    );
}

#[test]
fn man_prints_the_page_of_any_command() {
    let sandbox = Sandbox::new();
    let learn = sandbox.run(&["man", "learn"]).expect(0).stdout;
    assert!(learn.contains(".TH autofix-learn 1"), "{learn}");
    let validate = sandbox.run(&["man", "preset", "validate"]).expect(0).stdout;
    assert!(
        validate.contains(".TH autofix-preset-validate 1"),
        "{validate}"
    );
    let Some(text) = render_man(&learn) else {
        return;
    };
    assert!(text.contains("EXIT STATUS"), "{text}");
    assert!(
        text.lines().any(|line| line
            .trim_start()
            .starts_with("0  learned, or already known")),
        "{text}"
    );
    // Required arguments read as required in the synopsis.
    assert!(
        text.contains("autofix learn [OPTIONS] <INSTRUCTION>"),
        "{text}"
    );

    let unknown = sandbox.run(&["man", "lern"]).expect(2);
    assert!(
        unknown.stderr.contains("no man page for `lern`") && unknown.stderr.contains("learn"),
        "{}",
        unknown.stderr
    );
}

#[test]
fn man_writes_one_page_per_command() {
    let sandbox = Sandbox::new();
    let run = sandbox.run(&["man", "--dir", "pages"]).expect(0);
    assert!(
        run.stdout.starts_with("Wrote 38 man pages to pages"),
        "{}",
        run.stdout
    );
    let mut names: Vec<String> = fs::read_dir(sandbox.join("pages"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for expected in [
        "autofix.1",
        "autofix-learn.1",
        "autofix-preset-render.1",
        "autofix-merge-driver.1",
    ] {
        assert!(names.iter().any(|n| n == expected), "{names:?}");
    }
    for name in &names {
        let page = sandbox.read(format!("pages/{name}"));
        if render_man(&page).is_none() {
            return;
        }
    }
}

/// `man --dir` writes through the one safe-write path: a page linked into `.git/` is
/// refused and the link's target left alone; a page linked elsewhere is written where the
/// link leads; nothing (lock, temp file) is left beside the pages.
#[test]
fn man_dir_writes_through_safe_write() {
    let sandbox = Sandbox::new();
    sandbox.write(".git/config", "[core]\n");
    sandbox.write("elsewhere/learn.1", "old page\n");
    fs::create_dir_all(sandbox.join("pages")).unwrap();
    std::os::unix::fs::symlink("../.git/config", sandbox.join("pages/autofix.1")).unwrap();
    let refused = sandbox.run(&["man", "--dir", "pages"]);
    assert_eq!(refused.code, 2, "{}", refused.stdout);
    assert!(
        refused.stderr.contains("git's own directory"),
        "{}",
        refused.stderr
    );
    assert_eq!(sandbox.read(".git/config"), "[core]\n");

    fs::remove_file(sandbox.join("pages/autofix.1")).unwrap();
    std::os::unix::fs::symlink(
        "../elsewhere/learn.1",
        sandbox.join("pages/autofix-learn.1"),
    )
    .unwrap();
    let run = sandbox.run(&["man", "--dir", "pages/"]).expect(0);
    assert!(
        run.stdout.starts_with("Wrote 38 man pages"),
        "{}",
        run.stdout
    );
    assert!(
        sandbox
            .read("elsewhere/learn.1")
            .contains(".TH autofix-learn 1"),
        "the link's target holds the page"
    );
    assert!(
        fs::symlink_metadata(sandbox.join("pages/autofix-learn.1"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    // Again: the same pages, nothing left beside them.
    sandbox.run(&["man", "--dir", "pages"]).expect(0);
    let names = crate::support::files_below(&sandbox.join("pages"));
    assert_eq!(names.len(), 38, "{names:?}");
    assert!(names.iter().all(|name| name.ends_with(".1")), "{names:?}");
}

#[test]
fn help_groups_global_options_and_shows_them_where_they_apply() {
    let sandbox = Sandbox::new();
    let top = sandbox.run(&["--help"]).expect(0).stdout;
    let commands: Vec<&str> = top
        .lines()
        .skip_while(|line| *line != "Commands:")
        .skip(1)
        .take_while(|line| !line.is_empty())
        .filter_map(|line| line.split_whitespace().next())
        .collect();
    assert_eq!(
        commands,
        [
            "init",
            "learn",
            "rules",
            "retire",
            "distinct",
            "verdict",
            "check",
            "enforce",
            "export",
            "import",
            "where",
            "reflect",
            "ledger",
            "sources",
            "preset",
            "merge-driver",
            "resolve",
            "doctor",
            "hook",
            "mcp",
            "explain",
            "completions",
            "man",
            "help"
        ]
    );
    assert!(top.contains("Global options:\n  -C, --root <DIR>"), "{top}");
    assert!(top.contains("Environment:\n  AUTOFIX_FILE"), "{top}");

    let learn = sandbox.run(&["learn", "--help"]).expect(0).stdout;
    assert!(learn.contains("Global options:"), "{learn}");
    assert!(learn.contains("--file <PATH>"), "{learn}");
    assert!(learn.contains("AUTOFIX_LOCK_TIMEOUT"), "{learn}");
    assert!(
        learn.contains("Usage: autofix learn [OPTIONS] <INSTRUCTION>"),
        "{learn}"
    );
    // The rules file means nothing to these commands, so they do not offer --file.
    for command in [
        &["explain", "--help"][..],
        &["man", "--help"],
        &["preset", "validate", "--help"],
    ] {
        let help = sandbox.run(command).expect(0).stdout;
        assert!(!help.contains("--file"), "{command:?}:\n{help}");
        assert!(help.contains("Exit status:"), "{command:?}:\n{help}");
    }
    sandbox
        .run(&["explain", "--file", "x.json", "invalid-json"])
        .expect(2);
    // Both places work for the workspace options.
    sandbox.write("w/.agents/autofix.json", "[]");
    let before = sandbox.run(&["-C", "w", "where"]).expect(0).stdout;
    let after = sandbox.run(&["where", "-C", "w"]).expect(0).stdout;
    assert_eq!(before, after);
    assert!(before.starts_with("w/.agents/autofix.json"), "{before}");
}

/// Validates a SARIF file with Microsoft's SARIF Multitool when `SARIF_MULTITOOL` names
/// it (`.ci/run` installs it from the npm registry); returns whether it ran.
pub(crate) fn multitool_validates(sarif: &Path) -> bool {
    let Some(tool) = std::env::var_os("SARIF_MULTITOOL").filter(|t| Path::new(t).exists()) else {
        crate::support::skip(
            "sarif-multitool",
            "SARIF schema validation (set SARIF_MULTITOOL to the sarif-multitool)",
        );
        return false;
    };
    let report = sarif.with_extension("validation.sarif");
    let output = Command::new(&tool)
        .arg("validate")
        .arg(sarif)
        .arg("-o")
        .arg(&report)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
    let report: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&report).unwrap()).unwrap();
    let errors: Vec<&serde_json::Value> = report["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["level"] == "error")
        .collect();
    assert!(
        errors.is_empty(),
        "the SARIF validator reports errors: {errors:#?}"
    );
    true
}

pub(crate) fn assert_github_ready(log: &serde_json::Value, category: &str) {
    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    assert_eq!(run["automationDetails"]["id"], category);
    assert_eq!(run["columnKind"], "unicodeCodePoints");
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    assert_eq!(rules.len(), Code::ALL.len());
    for result in run["results"]
        .as_array()
        .expect("results is always present")
    {
        assert!(result.get("partialFingerprints").is_none());
        assert!(!result["message"]["text"].as_str().unwrap().is_empty());
        let location = &result["locations"][0]["physicalLocation"];
        let uri = location["artifactLocation"]["uri"].as_str().unwrap();
        assert!(!uri.starts_with('/') && !uri.contains('\\'), "{uri}");
        assert!(location["region"]["startLine"].as_u64().unwrap() >= 1);
        assert!(location["region"]["startColumn"].as_u64().unwrap() >= 1);
        let index = result["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[index]["id"], result["ruleId"]);
    }
}

#[test]
fn sarif_for_presets_and_the_rules_file() {
    let sandbox = example_repository();
    let run = sandbox
        .run(&["preset", "validate", "broken-presets", "--format", "sarif"])
        .expect(1);
    let log = run.json();
    assert_github_ready(&log, "autofix-presets/");
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 3);
    assert_eq!(
        results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "broken-presets/release-notes/commands.json"
    );
    // The snapshot pins the whole document.
    let snapshot = include_str!("../snapshots/broken-presets.sarif");
    assert_eq!(
        run.stdout.replace(env!("CARGO_PKG_VERSION"), "VERSION"),
        snapshot,
        "the SARIF output changed; if on purpose, update tests/snapshots/broken-presets.sarif"
    );
    let path = sandbox.write("presets.sarif", &run.stdout);
    multitool_validates(&path);

    // A clean run still has `results`, and the rules file's problems get positions.
    let clean = sandbox
        .run(&["check", "--format", "sarif"])
        .expect(0)
        .json();
    assert_github_ready(&clean, "autofix-check/");
    assert_eq!(clean["runs"][0]["results"], serde_json::json!([]));
    sandbox.write(".agents/autofix.json", "[\n  {\"Rule_number\": 0}\n]\n");
    let broken = sandbox.run(&["check", "--format", "sarif"]).expect(1);
    let log = broken.json();
    assert_github_ready(&log, "autofix-check/");
    assert_eq!(
        log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        ".agents/autofix.json"
    );
    let path = sandbox.write("check.sarif", &broken.stdout);
    multitool_validates(&path);
}

/// Each command with a JSON document: its name in the reference, its exit status in the
/// example repository (1 where it finds something: `export --check` there has never
/// exported, `doctor` sees a `.git` folder that is no repository, `requirements` a missing
/// skill), its arguments and the top-level fields its document carries.
const JSON_CASES: &[(&str, i32, &[&str], &[&str])] = &[
    (
        "rules",
        0,
        &["rules", "--format", "json"],
        &[
            "path",
            "exists",
            "precedence",
            "counts",
            "categories",
            "rules",
        ],
    ),
    (
        "learn",
        0,
        &[
            "learn",
            "--dry-run",
            "-c",
            "code",
            "-w",
            "w",
            "Always x",
            "--format",
            "json",
        ],
        &["status", "path", "rule", "warnings", "diagnostics"],
    ),
    (
        "export",
        1,
        &["export", "--check", "--format", "json"],
        &["mode", "targets", "warnings", "diagnostics"],
    ),
    (
        "doctor",
        1,
        &["doctor", "--format", "json"],
        &["ok", "checks", "diagnostics"],
    ),
    (
        "check",
        0,
        &["check", "--format", "json"],
        &["path", "exists", "rules", "ok", "summary", "diagnostics"],
    ),
    (
        "where",
        0,
        &["where", "--format", "json"],
        &["path", "exists", "source", "root", "candidates"],
    ),
    (
        "import",
        0,
        &["import", "--format", "json"],
        &[
            "write",
            "move",
            "rules_file",
            "files",
            "rules",
            "skipped",
            "moved",
            "diagnostics",
        ],
    ),
    (
        "preset list",
        0,
        &["preset", "list", "presets", "--format", "json"],
        &["presets"],
    ),
    (
        "preset validate",
        0,
        &["preset", "validate", "presets", "--format", "json"],
        &["presets", "summary"],
    ),
    (
        "preset render",
        0,
        &["preset", "render", "presets/last30days", "--format", "json"],
        &["preset", "commands"],
    ),
    (
        "preset requirements",
        1,
        &[
            "preset",
            "requirements",
            "presets/last30days",
            "--format",
            "json",
        ],
        &[
            "preset",
            "path",
            "enabled",
            "requirements",
            "summary",
            "diagnostics",
        ],
    ),
];

/// The JSON reference page names, for each command, the top-level fields; each
/// document must carry them and `version`.
#[test]
fn every_json_document_matches_the_readme_reference() {
    let sandbox = example_repository();
    for (name, code, args, fields) in JSON_CASES {
        let run = sandbox.run(args);
        assert_eq!(run.code, *code, "{name}: {}{}", run.stdout, run.stderr);
        let json = run.json();
        assert_eq!(json["version"], 1, "{name}");
        let mut lines = JSON_REFERENCE
            .lines()
            .skip_while(|l| !l.starts_with(&format!("- `{name}`:")));
        let bullet = lines
            .next()
            .into_iter()
            .chain(lines.take_while(|l| !l.is_empty() && !l.starts_with("- ")))
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            !bullet.is_empty(),
            "src/docs/output.md has no entry for `{name}`"
        );
        for field in *fields {
            assert!(json.get(field).is_some(), "{name}: no `{field}` in {json}");
            assert!(
                bullet.contains(field),
                "the JSON reference entry for `{name}` does not name `{field}`"
            );
        }
    }
}

#[test]
fn version_is_printed() {
    let run: Run = Sandbox::new().run(&["--version"]).expect(0);
    assert_eq!(
        run.stdout,
        format!("autofix {}\n", env!("CARGO_PKG_VERSION"))
    );
}

/// The README's install block (completions and man pages) runs as written on a fresh
/// HOME, where none of its folders exist yet.
#[test]
fn the_readme_install_lines_run_on_a_fresh_home() {
    let readme = include_str!("../../README.md");
    let start = readme.find("Shell completion and man pages").unwrap();
    let block = &readme[start..];
    let block = &block[block.find("```sh\n").unwrap() + 6..];
    let block = &block[..block.find("```").unwrap()];
    let sandbox = Sandbox::new();
    let bin_dir = std::path::Path::new(crate::support::BIN).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for line in block.lines().filter(|l| !l.trim().is_empty()) {
        // The man line ends with a pipe into `man`, which a test machine may lack.
        let line = line.split(" | ").next().unwrap();
        let line = line.split("  #").next().unwrap().trim();
        let line = line.split(';').next().unwrap();
        let run = crate::support::Run::from_command(
            sandbox.program("sh", &["-c", line]).env("PATH", &path),
        );
        assert_eq!(run.code, 0, "{line}: {}", run.stderr);
    }
    let script = sandbox.read("home/.local/share/bash-completion/completions/autofix");
    assert!(script.contains("_autofix"));
    assert!(
        sandbox
            .join("home/.local/share/man/man1/autofix.1")
            .exists()
    );
}

/// Every `autofix … --format F` the README names is a format that command accepts.
#[test]
fn the_readme_names_only_formats_the_commands_have() {
    let readme = include_str!("../../README.md");
    let sandbox = crate::support::example_workspace();
    let mut seen = 0;
    for span in readme.split('`').skip(1).step_by(2) {
        if !span.starts_with("autofix ") || !span.contains("--format") {
            continue;
        }
        let words: Vec<&str> = span.split_whitespace().skip(1).collect();
        let format_at = words.iter().position(|w| *w == "--format").unwrap();
        let mut args: Vec<&str> = words[..format_at + 2].to_vec();
        args.push("--help");
        let run = sandbox.run(&args);
        assert_eq!(run.code, 0, "`{span}`: {}", run.stderr);
        seen += 1;
    }
    assert!(seen >= 4, "{seen}");
}
