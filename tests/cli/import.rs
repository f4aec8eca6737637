//! `autofix import`: the hand-written rule files of every supported format
//! (`tests/fixtures/import/`, one folder a format) are read, previewed, written through
//! `learn`, moved out of their file byte for byte, and exported back to the same agent
//! without any rule reaching it twice; the findings that say a rule is written twice.

use std::fs;
use std::path::Path;

use crate::support::{Sandbox, copy_dir, files_below};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/import");

/// Each fixture folder and the export target of the same agent's own format.
const FORMATS: [(&str, &str); 11] = [
    ("claude", "claude-md"),
    ("claude-rules", "claude"),
    ("agents", "agents-md"),
    ("gemini", "gemini-md"),
    ("cursor", "cursor"),
    ("cursorrules", "cursor"),
    ("windsurf", "windsurf"),
    ("copilot", "copilot-md"),
    ("copilot-scoped", "copilot"),
    ("cline-file", "cline"),
    ("cline-folder", "cline-rules"),
];

/// A sandbox whose `repo/` is a copy of the fixture (without its `expected.tsv`).
fn repo_of(fixture: &str) -> Sandbox {
    let sandbox = Sandbox::new();
    copy_dir(&Path::new(FIXTURES).join(fixture), &sandbox.join("repo"));
    fs::remove_file(sandbox.join("repo/expected.tsv")).unwrap();
    sandbox
}

fn import(sandbox: &Sandbox, args: &[&str]) -> crate::support::Run {
    let mut all = vec!["-C", "repo", "import"];
    all.extend_from_slice(args);
    sandbox.run(&all)
}

/// (file, line, globs, instruction) of each rule a JSON report lists.
fn found(report: &serde_json::Value) -> Vec<(String, u64, String, String)> {
    report["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|rule| {
            let paths: Vec<&str> = rule["paths"]
                .as_array()
                .map(|p| p.iter().map(|g| g.as_str().unwrap()).collect())
                .unwrap_or_default();
            let paths = if paths.is_empty() {
                "-".to_string()
            } else {
                paths.join(",")
            };
            (
                rule["file"].as_str().unwrap().to_string(),
                rule["line"].as_u64().unwrap(),
                paths,
                rule["instruction"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn expected(fixture: &str) -> Vec<(String, u64, String, String)> {
    fs::read_to_string(Path::new(FIXTURES).join(fixture).join("expected.tsv"))
        .unwrap()
        .lines()
        .map(|line| {
            let parts: Vec<&str> = line.splitn(4, '\t').collect();
            (
                parts[0].to_string(),
                parts[1].parse().unwrap(),
                parts[2].to_string(),
                parts[3].to_string(),
            )
        })
        .collect()
}

/// `text` without the lines numbered in `lines` (1-based), each with its line ending.
fn without_lines(text: &str, lines: &[u64]) -> String {
    text.split_inclusive('\n')
        .enumerate()
        .filter(|(at, _)| !lines.contains(&(*at as u64 + 1)))
        .map(|(_, line)| line)
        .collect()
}

/// The lines a move takes out of `text` besides the rules' `moved` lines: each heading (a
/// `#` line outside a code fence) over a section that the move leaves blank, and that
/// section's blank lines; a heading over nothing before the move stays, as does a `#`
/// title.
fn emptied_heading_lines(text: &str, moved: &[u64]) -> Vec<u64> {
    let lines: Vec<&str> = text.lines().collect();
    let mut fenced = false;
    let mut level = vec![None; lines.len()];
    for (at, line) in lines.iter().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            level[at] = Some(line.bytes().take_while(|&b| b == b'#').count());
        }
    }
    let mut out: Vec<u64> = moved.to_vec();
    let mut headings: Vec<(usize, usize)> = (level.iter().enumerate())
        .filter_map(|(at, l)| Some((at, (*l)?)))
        .filter(|&(_, depth)| depth > 1)
        .collect();
    headings.sort_by_key(|&(at, depth)| (std::cmp::Reverse(depth), at));
    for (at, depth) in headings {
        let section: Vec<usize> = (at + 1..lines.len())
            .take_while(|&k| level[k].is_none_or(|inner| inner > depth))
            .collect();
        let taken = |k: usize| out.contains(&(k as u64 + 1));
        let any_taken = section.iter().any(|&k| taken(k));
        let all_gone = section
            .iter()
            .all(|&k| taken(k) || lines[k].trim().is_empty());
        if any_taken && all_gone {
            out.push(at as u64 + 1);
            out.extend(section.iter().map(|&k| k as u64 + 1));
        }
    }
    out
}

/// Whether a file keeps nothing but frontmatter, blank lines and (in a rule folder)
/// headings: what a move removes whole.
fn is_empty_rule_file(path: &str, text: &str) -> bool {
    let in_folder = path.starts_with(".cursor/")
        || path.starts_with(".claude/rules/")
        || path.starts_with(".github/instructions/")
        || path.starts_with(".clinerules/");
    let mut in_front = text.starts_with("---");
    let mut first = true;
    text.lines().all(|line| {
        let t = line.trim();
        if in_front {
            if t == "---" && !first {
                in_front = false;
            }
            first = false;
            return true;
        }
        t.is_empty() || (in_folder && t.starts_with('#'))
    })
}

#[test]
fn import_round_trips_every_supported_format() {
    for (fixture, target) in FORMATS {
        let sandbox = repo_of(fixture);
        let before: Vec<(String, Vec<u8>)> = files_below(&sandbox.join("repo"))
            .into_iter()
            .map(|f| {
                let bytes = sandbox.read_bytes(format!("repo/{f}"));
                (f, bytes)
            })
            .collect();
        // The preview finds exactly the fixture's rules, and writes nothing.
        let preview = import(&sandbox, &["--format", "json"]).expect(0).json();
        let rules = found(&preview);
        assert_eq!(rules, expected(fixture), "{fixture}");
        assert!(
            preview["rules"]
                .as_array()
                .unwrap()
                .iter()
                .all(|r| r["status"] == "add"),
            "{fixture}: {preview}"
        );
        assert_eq!(
            files_below(&sandbox.join("repo")),
            before.iter().map(|(f, _)| f.clone()).collect::<Vec<_>>(),
            "{fixture}: the preview wrote"
        );
        // Written and moved: the rules file holds each rule with its globs.
        let written = import(&sandbox, &["--write", "--move", "--format", "json"])
            .expect(0)
            .json();
        assert!(
            (written["rules"].as_array().unwrap().iter()).all(|r| r["status"] == "added"),
            "{fixture}: {written}"
        );
        let listing = sandbox
            .run(&["-C", "repo", "rules", "--format", "json"])
            .expect(0)
            .json();
        let learned: Vec<(String, String)> = (listing["rules"].as_array().unwrap().iter())
            .map(|r| {
                let paths: Vec<&str> = r["paths"]
                    .as_array()
                    .map(|p| p.iter().map(|g| g.as_str().unwrap()).collect())
                    .unwrap_or_default();
                let paths = if paths.is_empty() {
                    "-".into()
                } else {
                    paths.join(",")
                };
                (paths, r["instruction"].as_str().unwrap().to_string())
            })
            .collect();
        let wanted: Vec<(String, String)> = (expected(fixture).into_iter())
            .map(|(_, _, paths, text)| (paths, text))
            .collect();
        assert_eq!(learned, wanted, "{fixture}");
        // Every byte that was not a rule is where it was.
        for (file, bytes) in &before {
            let text = String::from_utf8(bytes.clone()).unwrap();
            let moved: Vec<u64> = (preview["rules"].as_array().unwrap().iter())
                .filter(|r| r["file"] == file.as_str())
                .flat_map(|r| r["line"].as_u64().unwrap()..=r["last_line"].as_u64().unwrap())
                .collect();
            let kept = without_lines(&text, &emptied_heading_lines(&text, &moved));
            let path = sandbox.join(format!("repo/{file}"));
            if is_empty_rule_file(file, &kept) {
                assert!(!path.exists(), "{fixture}: {file} should be gone");
            } else {
                assert_eq!(
                    fs::read_to_string(&path).unwrap(),
                    kept,
                    "{fixture}: {file}"
                );
            }
        }
        // Exported back to the agent's own format, and imported again: nothing new, so
        // the agent reads each rule once, from autofix's copy.
        sandbox
            .run(&["-C", "repo", "export", "--target", target])
            .expect(0);
        let exported: String = files_below(&sandbox.join("repo"))
            .iter()
            .filter(|f| !f.starts_with(".agents/"))
            .map(|f| sandbox.read(format!("repo/{f}")))
            .collect();
        for (_, _, _, text) in expected(fixture) {
            assert_eq!(
                exported.matches(&text).count(),
                1,
                "{fixture}: {text}\n{exported}"
            );
        }
        let again = import(&sandbox, &["--format", "json"]).expect(0).json();
        assert_eq!(found(&again), [], "{fixture}: {again}");
        let check = sandbox
            .run(&["-C", "repo", "check", "--format", "json"])
            .expect(0)
            .json();
        assert_eq!(check["summary"]["warnings"], 0, "{fixture}: {check}");
    }
}

/// `import` whole: the preview (text, verbose, JSON) and the write with `--move`.
#[test]
fn import_previews_and_writes_in_every_format() {
    let sandbox = repo_of("claude");
    for (name, args) in [
        ("import_text", &[][..]),
        ("import_verbose", &["--verbose"]),
        ("import_json", &["--format", "json"]),
        ("import_write_move", &["--write", "--move"]),
    ] {
        let run = import(&sandbox, args);
        insta::assert_snapshot!(name, crate::snapshots::shown(&sandbox, &run));
    }
}

#[test]
fn the_preview_says_what_is_not_a_rule_and_why() {
    let sandbox = repo_of("claude");
    let run = import(&sandbox, &["--verbose"]).expect(0);
    for line in [
        "CLAUDE.md:1     a heading",
        "CLAUDE.md:3     prose, not an instruction",
        "CLAUDE.md:7-10  a code block",
        "CLAUDE.md:23    an @import of another file",
        "CLAUDE.md:14    add #1 [CODE] Always use named exports",
        "Would add 5 rules (0 skipped as repeats).",
    ] {
        assert!(run.stdout.contains(line), "{line:?} in\n{}", run.stdout);
    }
    assert!(!sandbox.join("repo/.agents/autofix.json").exists());
}

#[test]
fn repeats_of_existing_rules_and_of_each_other_are_skipped_and_moved() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "repo/CLAUDE.md",
        "# Rules\n\n- Always use pnpm to install packages.\n- Never log secrets.\n",
    );
    sandbox.write(
        "repo/AGENTS.md",
        "# Rules\n\n- Use pnpm to install packages.\n- Prefer named exports.\n",
    );
    sandbox
        .run(&[
            "-C",
            "repo",
            "learn",
            "-c",
            "code",
            "-w",
            "team",
            "Never log secrets - because logs are shared.",
        ])
        .expect(0);
    let report = import(&sandbox, &["--format", "json"]).expect(0).json();
    let statuses: Vec<(&str, u64, &str)> = (report["rules"].as_array().unwrap().iter())
        .map(|r| {
            (
                r["file"].as_str().unwrap(),
                r["line"].as_u64().unwrap(),
                r["status"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        statuses,
        [
            ("CLAUDE.md", 3, "add"),
            ("CLAUDE.md", 4, "repeats-rule"),
            ("AGENTS.md", 3, "repeats-found"),
            ("AGENTS.md", 4, "add"),
        ]
    );
    assert_eq!(report["rules"][1]["rule"], 1);
    assert_eq!(report["rules"][2]["earlier"], "CLAUDE.md:3");
    let run = import(&sandbox, &["--write", "--move"]).expect(0);
    assert_eq!(sandbox.read("repo/CLAUDE.md"), "# Rules\n\n");
    // A repeat in other words stays where it is: only the same words leave a file.
    assert_eq!(
        sandbox.read("repo/AGENTS.md"),
        "# Rules\n\n- Use pnpm to install packages.\n"
    );
    assert!(
        run.stdout
            .contains("(stays in AGENTS.md: not in these words)")
            && run.stdout.contains("1 line stays in its hand-written file"),
        "{}",
        run.stdout
    );
    let listing = sandbox
        .run(&["-C", "repo", "rules", "--format", "json"])
        .json();
    assert_eq!(listing["counts"]["active"], 3, "{listing}");
}

/// A rule to add that comes near an active rule or a rule found before it (the same job,
/// another tool) is added, and the preview says which, before anything is written.
#[test]
fn the_preview_names_the_rules_near_a_rule_to_add() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "repo/CLAUDE.md",
        "# Rules\n\n- Use npm to install packages.\n- Run cargo fmt before committing.\n- Run cargo clippy before committing.\n",
    );
    sandbox
        .run(&[
            "-C",
            "repo",
            "learn",
            "-c",
            "tool",
            "-w",
            "team",
            "Use pnpm to install packages.",
        ])
        .expect(0);
    let text = import(&sandbox, &[]).expect(0).stdout;
    assert!(
        text.contains("add #2 [TOOL] Use npm to install packages. (near rule 1, cosine 0."),
        "{text}"
    );
    assert!(
        text.contains("Run cargo clippy before committing. (near CLAUDE.md:4, cosine 0."),
        "{text}"
    );
    let report = import(&sandbox, &["--format", "json"]).expect(0).json();
    let near: Vec<&serde_json::Value> = (report["rules"].as_array().unwrap().iter())
        .map(|r| &r["near"])
        .collect();
    assert_eq!(near[0]["rule"], 1, "{report}");
    assert_eq!(near[1], &serde_json::Value::Null, "{report}");
    assert_eq!(near[2]["place"], "CLAUDE.md:4", "{report}");
}

#[test]
fn without_move_the_hand_written_files_stay_byte_for_byte() {
    let sandbox = repo_of("agents");
    let before = sandbox.read_bytes("repo/AGENTS.md");
    let run = import(&sandbox, &["--write"]).expect(0);
    assert!(run.stdout.contains("Added 5 rules"), "{}", run.stdout);
    assert!(run.stdout.contains("--write --move"), "{}", run.stdout);
    assert_eq!(sandbox.read_bytes("repo/AGENTS.md"), before);
}

#[test]
fn a_rule_written_by_hand_and_by_autofix_is_reported_in_both_places() {
    let sandbox = Sandbox::new();
    sandbox.write("repo/.git/HEAD", "ref: refs/heads/main\n");
    sandbox.write("repo/CLAUDE.md", "# Notes\n\n- Never log secrets.\n");
    sandbox.run(&["-C", "repo", "init", "--export"]).expect(0);
    let learned = sandbox
        .run(&[
            "-C",
            "repo",
            "learn",
            "-c",
            "code",
            "-w",
            "team",
            "Never log secrets - because logs are shared.",
        ])
        .expect_noisy(0);
    let finding = "rule 1 of repo/.agents/autofix.json is also written by hand in repo/CLAUDE.md:3";
    assert!(learned.stderr.contains(finding), "{}", learned.stderr);
    assert!(
        learned.stderr.contains("Claude Code reads both"),
        "{}",
        learned.stderr
    );
    let check = sandbox
        .run(&["-C", "repo", "check", "--format", "json"])
        .expect(0)
        .json();
    let diagnostic = &check["diagnostics"][0];
    assert_eq!(diagnostic["code"], "handwritten-duplicate", "{check}");
    assert_eq!(diagnostic["file"], "repo/CLAUDE.md");
    assert_eq!(diagnostic["line"], 3);
    let export = sandbox.run(&["-C", "repo", "export", "--check", "--format", "github"]);
    assert!(
        export
            .stdout
            .contains("::warning file=CLAUDE.md,line=3,title=handwritten-duplicate::"),
        "{}",
        export.stdout
    );
    sandbox.run(&["explain", "handwritten-duplicate"]).expect(0);
    // Moved into autofix: said once, and nothing reported any more.
    import(&sandbox, &["--write", "--move"]).expect(0);
    assert_eq!(sandbox.read("repo/CLAUDE.md"), "# Notes\n\n");
    let check = sandbox
        .run(&["-C", "repo", "check", "--format", "json"])
        .expect(0)
        .json();
    assert_eq!(check["summary"]["warnings"], 0, "{check}");
}

#[test]
fn a_lower_case_agents_md_gets_the_block_and_no_twin() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "repo/agents.md",
        "# Agents\n\n- Prefer small pull requests.\n",
    );
    sandbox.write("repo/.agents/autofix.json", "[]\n");
    let run = sandbox.run(&["-C", "repo", "export"]).expect_noisy(0);
    assert!(
        run.stderr.contains("warning[export-name-case]"),
        "{}",
        run.stderr
    );
    let names: Vec<String> = fs::read_dir(sandbox.join("repo"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.eq_ignore_ascii_case("agents.md"))
        .collect();
    assert_eq!(names, ["agents.md"]);
    let text = sandbox.read("repo/agents.md");
    assert!(
        text.starts_with("# Agents\n\n- Prefer small pull requests.\n"),
        "{text}"
    );
    assert!(text.contains("No rules recorded by autofix yet"), "{text}");
    assert!(!text.contains("_No rules recorded yet._"), "{text}");
    // Exported again: in sync, still one file.
    sandbox
        .run(&["-C", "repo", "export", "--check"])
        .expect_noisy(0);
}

#[test]
fn errors_name_the_file() {
    let sandbox = Sandbox::new();
    sandbox.write("repo/CLAUDE.md", b"- Use tabs.\n\xff\n");
    let run = import(&sandbox, &[]).expect(1);
    assert!(
        run.stdout.contains("CLAUDE.md: not readable as UTF-8 text"),
        "{}",
        run.stdout
    );
    // A FILE is named from the current directory.
    sandbox.write("repo/AGENTS.md", "- Prefer tabs.\n");
    let only = import(&sandbox, &["repo/AGENTS.md", "--format", "json"])
        .expect(0)
        .json();
    assert_eq!(only["files"][0]["path"], "AGENTS.md", "{only}");
    assert_eq!(only["files"].as_array().unwrap().len(), 1, "{only}");
    let run = import(&sandbox, &["NOTES.md"]).expect(2);
    assert!(
        run.stderr
            .contains("NOTES.md is not a hand-written rule file"),
        "{}",
        run.stderr
    );
    sandbox.write("repo/.agents/autofix.json", "[{");
    let run = import(&sandbox, &[]).expect(2);
    assert!(
        run.stderr.contains(".agents/autofix.json"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_move_keeps_the_bom_and_the_crlf_line_endings_of_the_rest() {
    let sandbox = Sandbox::new();
    let text = "\u{feff}# Rules\r\n\r\nSome context.\r\n- Never log secrets.\r\n- Use tabs.\r\n\r\n## End\r\n";
    sandbox.write("repo/AGENTS.md", text);
    import(&sandbox, &["--write", "--move"]).expect(0);
    assert_eq!(
        sandbox.read("repo/AGENTS.md"),
        "\u{feff}# Rules\r\n\r\nSome context.\r\n\r\n## End\r\n"
    );
}

#[test]
fn a_claude_md_linked_to_agents_md_is_read_once() {
    let sandbox = Sandbox::new();
    sandbox.write("repo/AGENTS.md", "- Never log secrets.\n");
    std::os::unix::fs::symlink("AGENTS.md", sandbox.join("repo/CLAUDE.md")).unwrap();
    let report = import(&sandbox, &["--format", "json"]).expect(0).json();
    assert_eq!(report["files"].as_array().unwrap().len(), 1, "{report}");
    assert_eq!(report["rules"].as_array().unwrap().len(), 1, "{report}");
}

/// A glob's braces hold commas that are not the list's: `{ts,tsx}` stays one glob, in
/// Cursor's `globs:` and in a YAML list alike.
#[test]
fn globs_with_braces_are_read_whole() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "repo/.cursor/rules/ts.mdc",
        "---\ndescription: TypeScript\nglobs: src/**/*.{ts,tsx}, docs/**\nalwaysApply: false\n---\n\n- Always use strict null checks.\n",
    );
    sandbox.write(
        "repo/.claude/rules/api.md",
        "---\npaths:\n  - \"api/**/*.{js,mjs}\"\n---\n\n- Never log request bodies.\n",
    );
    let report = import(&sandbox, &["--format", "json"]).expect(0).json();
    let paths_of = |file: &str| -> Vec<String> {
        report["rules"]
            .as_array()
            .unwrap()
            .iter()
            .find(|rule| rule["file"] == file)
            .unwrap_or_else(|| panic!("{file}: {report}"))["paths"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g.as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        paths_of(".cursor/rules/ts.mdc"),
        ["src/**/*.{ts,tsx}", "docs/**"]
    );
    assert_eq!(paths_of(".claude/rules/api.md"), ["api/**/*.{js,mjs}"]);
}

/// A rule that repeats one found before it is moved out only when that one was added: here
/// the first is refused (an invisible character), so the second stays where it was written.
#[test]
fn a_repeat_of_a_rule_not_added_stays_in_its_file() {
    let sandbox = Sandbox::new();
    let claude = "# Rules\n\n- Never use eval\u{200b} in scripts.\n- Never use eval in scripts.\n";
    sandbox.write("repo/CLAUDE.md", claude);
    let report = import(&sandbox, &["--write", "--move", "--format", "json"]).json();
    let statuses: Vec<&str> = report["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["refused", "refused"], "{report}");
    assert_eq!(sandbox.read("repo/CLAUDE.md"), claude);
}

/// `--move` takes a line out only when the rules file then holds its words: the lines a
/// meaning-based judge once took out as "repeats" (running the dev server against starting
/// it, all tests against the system tests only, a repeat of a line itself skipped) stay,
/// and every rule line of the hand-written files is afterwards in its file or, word for
/// word, in the rules file.
#[test]
fn a_move_loses_no_line() {
    let sandbox = Sandbox::new();
    let claude = "# Project\n\n## Commands\n\n\
        - Start the dev server with `pnpm dev`.\n\
        - Never run the dev server yourself; ask the user to start it.\n\
        - Run the system tests only before a release.\n\
        - Run all tests before you commit.\n\
        - Use **pnpm** to install packages.\n\n\
        ## Style\n\n\
        - Prefer named exports.\n\
        - Never use `any` in TypeScript.\n";
    let cursor = "---\ndescription: TypeScript\nalwaysApply: true\n---\n\n\
        - Always use pnpm to install packages.\n\
        - Avoid the `any` type.\n\
        - prefer named exports\n\
        - Do not use default exports.\n";
    sandbox.write("repo/CLAUDE.md", claude);
    sandbox.write("repo/.cursor/rules/typescript.mdc", cursor);
    sandbox
        .run(&[
            "-C",
            "repo",
            "learn",
            "-c",
            "tool",
            "-w",
            "team",
            "Use pnpm to install packages - because the lockfile is pnpm's.",
        ])
        .expect(0);
    let preview = import(&sandbox, &["--move", "--format", "json"])
        .expect(0)
        .json();
    let run = import(&sandbox, &["--write", "--move", "--format", "json"])
        .expect(0)
        .json();
    assert_eq!(preview["rules"].as_array().unwrap().len(), 11, "{preview}");
    let held: Vec<String> = sandbox
        .run(&["-C", "repo", "rules", "--format", "json"])
        .json()["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| words(r["instruction"].as_str().unwrap()))
        .collect();
    let before_reason = |rule: &str| rule.split(" - because").next().unwrap().to_string();
    for (file, original) in [
        ("CLAUDE.md", claude),
        (".cursor/rules/typescript.mdc", cursor),
    ] {
        // A file left with nothing is removed.
        let now = fs::read_to_string(sandbox.join(format!("repo/{file}"))).unwrap_or_default();
        for line in original.lines().filter(|l| l.starts_with("- ")) {
            let line = line.trim_start_matches("- ");
            let kept = now.lines().any(|l| l.trim_start_matches("- ") == line);
            let in_rules = held
                .iter()
                .any(|r| *r == words(line) || before_reason(r) == words(line));
            assert!(
                kept || in_rules,
                "{file}: {line:?} is in neither place:\n{now}\n{held:?}"
            );
        }
    }
    // The two dev-server lines say different things: both stay somewhere, and the
    // prohibition is not taken out as a repeat of the command.
    assert!(
        held.iter()
            .any(|r| r.starts_with("never run the dev server"))
            || sandbox
                .read("repo/CLAUDE.md")
                .contains("Never run the dev server"),
    );
    // Every line the run took out is one the rules file holds word for word; the preview
    // said which would stay, and the run agrees with it.
    let stays = |report: &serde_json::Value| -> Vec<String> {
        (report["rules"].as_array().unwrap().iter())
            .filter(|r| r["stays"] == true)
            .map(|r| r["instruction"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(stays(&preview), stays(&run), "{preview}\n{run}");
    // A line that stays is one whose words no rule holds.
    for line in stays(&run) {
        assert!(!held.contains(&words(&line)), "{line}: {run}");
    }
    assert!(
        !sandbox.read("repo/CLAUDE.md").contains("Use pnpm"),
        "the same words left"
    );
    assert!(
        !sandbox
            .read("repo/.cursor/rules/typescript.mdc")
            .contains("prefer named exports"),
        "the same words, in another case and without a period, left"
    );
}

/// A text as `--move` compares it: lower case, no Markdown marks, single spaces, no final
/// period.
fn words(text: &str) -> String {
    let unmarked: String = text
        .chars()
        .filter(|c| !matches!(c, '*' | '_' | '`' | '~'))
        .flat_map(char::to_lowercase)
        .collect();
    let joined = unmarked.split_whitespace().collect::<Vec<_>>().join(" ");
    joined.trim_end_matches('.').to_string()
}

/// `--move` leaves no heading over nothing (a heading over prose, or empty before, stays),
/// and the imported rules' provenance stays in the file: the exported copies and the
/// listing agents read carry the rule, not "Imported from CLAUDE.md:5".
#[test]
fn a_move_leaves_no_empty_heading_and_agents_read_no_provenance() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "repo/CLAUDE.md",
        "# Rules\n\n## Tooling\n\n- Always use pnpm to install packages.\n- Never commit the .env file.\n\n## Style\n\n### Naming\n\n- Always name files in kebab-case.\n\n## Notes\n\nThe app is a shop.\n\n## Empty on purpose\n",
    );
    fs::create_dir(sandbox.join("repo/.git")).unwrap();
    let run = import(&sandbox, &["--write", "--move"]).expect(0);
    assert!(
        run.stdout.contains(
            "CLAUDE.md (3 lines taken out, and 3 headings left empty; the rest unchanged)"
        ),
        "{}",
        run.stdout
    );
    assert_eq!(
        sandbox.read("repo/CLAUDE.md"),
        "# Rules\n\n## Notes\n\nThe app is a shop.\n\n## Empty on purpose\n"
    );
    sandbox.run(&["-C", "repo", "export"]).expect(0);
    let agents = sandbox.read("repo/AGENTS.md");
    assert!(
        agents.contains("Always use pnpm to install packages."),
        "{agents}"
    );
    assert!(!agents.contains("Imported from"), "{agents}");
    let listing = sandbox.run(&["-C", "repo", "rules"]).expect(0).stdout;
    assert!(!listing.contains("Imported from"), "{listing}");
    let whole = sandbox.run(&["-C", "repo", "rules", "1"]).expect(0).stdout;
    assert!(
        whole.contains("Imported from CLAUDE.md:5 by `autofix import`"),
        "{whole}"
    );
}

/// A hand-written file of `lines` distinct rules, and every third one said again.
fn many_rules(lines: usize) -> String {
    let mut text = String::from("# Rules\n\n");
    for i in 0..lines {
        text.push_str(&format!(
            "- Always call helper_{i} before step {i} in module m{}.\n",
            i % 97
        ));
    }
    for i in (0..lines).step_by(3) {
        text.push_str(&format!(
            "- always call helper_{i} before step {i} in module m{}\n",
            i % 97
        ));
    }
    text
}

/// The renames onto the rules file in an `strace` log: how many times it was replaced.
fn replaces_of_the_rules_file(trace: &str) -> usize {
    (trace.lines())
        .filter(|line| line.contains("rename") && line.contains("autofix.json\""))
        .filter(|line| !line.contains("= -1"))
        .count()
}

/// Imports `lines` rules into a file holding one rule already: one locked replace of the
/// rules file for the whole import, the new rules numbered on from the old one in the
/// order found, each said-again line skipped as a repeat.
fn one_write_for_a_whole_import(lines: usize) {
    let sandbox = Sandbox::new();
    fs::create_dir_all(sandbox.join("repo/.git")).unwrap();
    sandbox.write("repo/CLAUDE.md", many_rules(lines));
    sandbox
        .run(&["-C", "repo", "learn", "Never push to main."])
        .expect(0);
    let trace = sandbox.join("trace.txt");
    let mut command = sandbox.program(
        "strace",
        &[
            "-f",
            "-qq",
            // Only the traced calls stop the process (the model's threads make many more).
            "--seccomp-bpf",
            "-e",
            "trace=rename,renameat,renameat2",
            "-o",
            trace.to_str().unwrap(),
            crate::support::BIN,
            "-C",
            "repo",
            "import",
            "--write",
        ],
    );
    let run = crate::support::Run::from_command(&mut command).expect(0);
    let repeats = lines.div_ceil(3);
    assert!(
        run.stdout.contains(&format!(
            "Added {lines} rules to repo/.agents/autofix.json ({repeats} skipped as repeats)."
        )),
        "{}",
        run.stdout
    );
    assert_eq!(
        replaces_of_the_rules_file(&fs::read_to_string(&trace).unwrap()),
        1
    );
    let rules: Vec<serde_json::Value> =
        serde_json::from_str(&sandbox.read("repo/.agents/autofix.json")).unwrap();
    assert_eq!(rules.len(), lines + 1);
    for (at, rule) in rules.iter().enumerate().skip(1) {
        assert_eq!(rule["Rule_number"], at + 1);
        let i = at - 1;
        let said = format!(
            "Always call helper_{i} before step {i} in module m{}.",
            i % 97
        );
        assert_eq!(rule["Instruction"], said.as_str());
    }
    sandbox.run(&["-C", "repo", "check"]).expect(0);
}

#[test]
fn an_import_is_one_locked_write() {
    if crate::support::which("strace").is_none() {
        return crate::support::skip("strace", "the count of writes needs strace");
    }
    one_write_for_a_whole_import(90);
}

#[test]
#[ignore = "heavy: run in release by .ci/run"]
fn an_import_of_100k_lines_is_one_locked_write() {
    if crate::support::which("strace").is_none() {
        return crate::support::skip("strace", "the count of writes needs strace");
    }
    one_write_for_a_whole_import(100_000);
}
