//! Scoped rules through the binary: `learn --path`, `rules --for`, the session hook,
//! `check`'s `invalid-glob` and `unmatched-scope`, and the scoped export forms.

use serde_json::json;

use crate::support::{Sandbox, tracked_repo};

const RULES: &str = ".agents/autofix.json";

fn learn(sandbox: &Sandbox, instruction: &str, paths: &[&str]) -> crate::support::Run {
    let mut args = vec!["learn", "-c", "code", "-w", "why", instruction];
    for path in paths {
        args.extend(["--path", path]);
    }
    sandbox.run(&args)
}

#[test]
fn a_scoped_rule_stores_paths_after_why_and_an_unscoped_one_keeps_four_fields() {
    let sandbox = Sandbox::new();
    learn(&sandbox, "Always use tabs", &[]).expect(0);
    let run = learn(
        &sandbox,
        "Never panic in handlers",
        &["src/api/**", "!src/api/gen/**", "src/api/**"],
    )
    .expect(0);
    assert_eq!(
        run.stdout,
        "Learned rule #2 ([CODE]): Never panic in handlers \u{2014} saved to .agents/autofix.json\n  applies to `src/api/**`, `!src/api/gen/**`\n"
    );
    assert_eq!(
        sandbox.read(RULES),
        "[\n  {\n    \"Rule_number\": 1,\n    \"Category\": \"CODE\",\n    \"Instruction\": \"Always use tabs\",\n    \"Why\": \"why\"\n  },\n  {\n    \"Rule_number\": 2,\n    \"Category\": \"CODE\",\n    \"Instruction\": \"Never panic in handlers\",\n    \"Why\": \"why\",\n    \"Paths\": [\"src/api/**\", \"!src/api/gen/**\"]\n  }\n]\n"
    );
    let json = sandbox
        .run_with_stdin(
            &["learn", "--json", "--format", "json"],
            r#"{"Category": "STYLE", "Instruction": "Wrap at 80", "Why": "docs", "Paths": ["my docs/*.md"]}"#,
        )
        .expect(0)
        .json();
    assert_eq!(json["rule"]["Paths"], json!(["my docs/*.md"]));
    let unscoped = sandbox
        .run(&[
            "learn", "-c", "code", "-w", "w", "Always x", "--format", "json",
        ])
        .expect(0)
        .json();
    assert!(unscoped["rule"].get("Paths").is_none(), "{unscoped}");
    sandbox.run(&["check"]).expect(0);
}

#[test]
fn an_invalid_glob_is_refused_and_nothing_is_written() {
    let sandbox = Sandbox::new();
    learn(&sandbox, "Always use tabs", &[]).expect(0);
    let before = sandbox.read(RULES);
    for (glob, problem) in [
        ("src/[api", "has a `[` class without its `]`"),
        ("../outside/**", "names `.` or `..`"),
        ("", "is empty"),
        ("a\\", "ends with a lone `\\`"),
        (
            "[z-a].rs",
            "has a class range whose end comes before its start",
        ),
    ] {
        let run = learn(&sandbox, "Do y", &[glob]).expect(2);
        assert!(
            run.stderr
                .contains(&format!("invalid glob `{glob}` for --path: it {problem}")),
            "{glob}: {}",
            run.stderr
        );
    }
    let run = learn(&sandbox, "Do y", &["!vendor/**"]).expect(2);
    assert!(run.stderr.contains("only excludes"), "{}", run.stderr);
    let french = sandbox
        .run(&[
            "learn", "--lang", "fr", "-c", "code", "-w", "w", "Do y", "--path", "[x",
        ])
        .expect(2);
    assert!(
        french
            .stderr
            .contains("motif invalide `[x` pour --path : il a une classe `[` sans son `]`"),
        "{}",
        french.stderr
    );
    assert_eq!(sandbox.read(RULES), before);
}

#[test]
fn a_superseding_rule_may_change_the_scope_and_a_new_scope_is_not_a_repeat() {
    let sandbox = Sandbox::new();
    learn(&sandbox, "Use snake_case", &["src/**"]).expect(0);
    let again = learn(&sandbox, "Use snake_case", &["src/**"]).expect(0);
    assert!(
        again.stdout.starts_with("Already known as rule #1"),
        "{}",
        again.stdout
    );
    learn(&sandbox, "Use snake_case", &["lib/**"]).expect(0);
    sandbox
        .run(&[
            "learn",
            "-c",
            "code",
            "-w",
            "w",
            "-s",
            "1",
            "-s",
            "2",
            "Use snake_case",
            "--path",
            "*.py",
        ])
        .expect(0);
    let listed = sandbox
        .run(&["rules", "--for", "src/a.rs", "tool.py"])
        .expect(0);
    assert_eq!(
        listed.stdout,
        "Rules from .agents/autofix.json that apply to src/a.rs, tool.py: 1 of 1 active. On conflict, the higher-numbered rule wins.\n\
         3 [CODE] Use snake_case \u{2014} w (supersedes rules 1 and 2) [applies to tool.py: *.py]\n"
    );
}

/// Rules scoped with every kind of glob, and one unscoped rule.
fn scoped_rules(sandbox: &Sandbox) {
    learn(sandbox, "Always log errors", &[]).expect(0);
    learn(
        sandbox,
        "Never panic in handlers",
        &["src/api/**", "!src/api/gen/**"],
    )
    .expect(0);
    learn(
        sandbox,
        "Keep migrations reversible",
        &["db/migrations/v[0-9]*.sql"],
    )
    .expect(0);
    learn(sandbox, "Name fixtures by case", &["test_?.py"]).expect(0);
    learn(sandbox, "Write one sentence a line", &["my docs/*.md"]).expect(0);
}

#[test]
fn rules_for_lists_what_applies_and_why() {
    let sandbox = Sandbox::new();
    scoped_rules(&sandbox);
    let cases: &[(&str, &[u64])] = &[
        ("src/api/users/get.rs", &[1, 2]),
        ("src/api/gen/client.rs", &[1]),
        ("db/migrations/v12_add.sql", &[1, 3]),
        ("db/migrations/vx.sql", &[1]),
        ("deep/down/test_a.py", &[1, 4]),
        ("test_ab.py", &[1]),
        ("my docs/read me.md", &[1, 5]),
        ("README.md", &[1]),
    ];
    for (path, numbers) in cases {
        let json = sandbox
            .run(&["rules", "--for", path, "--format", "json"])
            .expect(0)
            .json();
        let listed: Vec<u64> = json["rules"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["number"].as_u64().unwrap())
            .collect();
        assert_eq!(listed, *numbers, "{path}");
        assert_eq!(json["for"], json!([path]));
        assert_eq!(
            json["rules"][0]["applies"],
            json!([{"path": path, "scope": "unscoped"}])
        );
    }
    let text = sandbox
        .run(&["rules", "--for", "src/api/x.rs", "my docs/a.md"])
        .expect(0)
        .stdout;
    assert_eq!(
        text,
        "Rules from .agents/autofix.json that apply to src/api/x.rs, my docs/a.md: 3 of 5 active. On conflict, the higher-numbered rule wins.\n\
         1 [CODE] Always log errors \u{2014} why [applies: unscoped]\n\
         2 [CODE] Never panic in handlers \u{2014} why [applies to src/api/x.rs: src/api/**]\n\
         5 [CODE] Write one sentence a line \u{2014} why [applies to my docs/a.md: my docs/*.md]\n"
    );
    // A path is read from the current directory, as a shell user means it.
    sandbox.write("src/api/.keep", "");
    let inside = crate::support::Run::from_command(
        &mut sandbox.command_in("src/api", &["rules", "--for", "h.rs", "--format", "json"]),
    )
    .expect(0)
    .json();
    assert_eq!(inside["for"], json!(["src/api/h.rs"]));
    assert_eq!(inside["rules"].as_array().unwrap().len(), 2);
    let outside = sandbox
        .run(&["rules", "--for", "../elsewhere.rs"])
        .expect(2);
    assert!(
        outside.stderr.contains("outside the workspace"),
        "{}",
        outside.stderr
    );
}

#[test]
fn rules_without_for_shows_every_scope_and_the_hook_only_unscoped_rules() {
    let sandbox = Sandbox::new();
    scoped_rules(&sandbox);
    let text = sandbox.run(&["rules"]).expect(0).stdout;
    assert!(
        text.contains(
            "2 [CODE] Never panic in handlers \u{2014} why [paths: src/api/**, !src/api/gen/**]\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("1 [CODE] Always log errors \u{2014} why\n"),
        "{text}"
    );
    let json = sandbox.run(&["rules", "--format", "json"]).expect(0).json();
    assert_eq!(
        json["rules"][1]["paths"],
        json!(["src/api/**", "!src/api/gen/**"])
    );
    assert!(json["rules"][0].get("paths").is_none());
    let hook = sandbox
        .run(&["rules", "--format", "hook", "--agent", "claude"])
        .expect(0)
        .json();
    let context = hook["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap();
    assert_eq!(
        context,
        "Project rules recorded in .agents/autofix.json (newer rules supersede older ones; on conflict the higher-numbered rule wins):\n\
         1 [CODE] Always log errors \u{2014} why\n\
         4 more rules apply only to files matching `src/api/**`, `!src/api/gen/**`, `db/migrations/v[0-9]*.sql`, `test_?.py`, `my docs/*.md`; before working on such a file, run `autofix rules --for PATH` to see the rules for it."
    );
}

#[test]
fn check_reports_invalid_and_unmatched_globs_in_every_format() {
    let Some(sandbox) = tracked_repo(&["src/api/get.rs", "docs/guide.md"]) else {
        return;
    };
    sandbox.write(
        RULES,
        r#"[
  {"Rule_number": 1, "Category": "CODE", "Instruction": "Never panic", "Why": "w", "Paths": ["src/api/**", "[oops"]},
  {"Rule_number": 2, "Category": "CODE", "Instruction": "Keep docs short", "Why": "w", "Paths": ["docz/**"]},
  {"Rule_number": 3, "Category": "CODE", "Instruction": "Use tabs", "Why": "w"}
]
"#,
    );
    let text = sandbox.run(&["check"]).expect(1).stdout;
    assert!(
        text.contains("error[invalid-glob]: rule 1: glob `[oops` has a `[` class without its `]`\n  --> .agents/autofix.json:2:108 (/0/Paths/1)"),
        "{text}"
    );
    assert!(
        text.contains("warning[unmatched-scope]: rule 2: glob `docz/**` matches no file git tracks, so the rule never applies"),
        "{text}"
    );
    let json = sandbox.run(&["check", "--format", "json"]).expect(1).json();
    let codes: Vec<&str> = json["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["invalid-glob", "unmatched-scope"]);
    let github = sandbox
        .run(&["check", "--format", "github"])
        .expect(1)
        .stdout;
    assert!(
        github.contains("::error file=.agents/autofix.json,line=2,col=108,title=invalid-glob::"),
        "{github}"
    );
    assert!(
        github.contains("::warning file=.agents/autofix.json,line=3,"),
        "{github}"
    );
    let sarif = sandbox
        .run(&["check", "--format", "sarif"])
        .expect(1)
        .json();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let ids: Vec<&str> = results
        .iter()
        .map(|r| r["ruleId"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["invalid-glob", "unmatched-scope"]);
    for code in ["invalid-glob", "unmatched-scope"] {
        let explained = sandbox.run(&["explain", code]).expect(0).stdout;
        assert!(explained.starts_with(code), "{explained}");
    }
    // Once the file is tracked, the scope matches and only the bad glob remains.
    sandbox.write("docz/a.md", "");
    assert!(
        sandbox
            .program("git", &["add", "docz"])
            .status()
            .unwrap()
            .success()
    );
    let json = sandbox.run(&["check", "--format", "json"]).expect(1).json();
    assert_eq!(json["diagnostics"].as_array().unwrap().len(), 1);
}

#[test]
fn without_git_a_scope_is_not_judged_by_tracked_files() {
    let sandbox = Sandbox::new();
    learn(&sandbox, "Never panic", &["nowhere/**"]).expect(0);
    sandbox.run(&["check"]).expect(0);
}

/// The targets whose agents have a scoped form, and files every agent reads: exported in
/// groups, each in a repository of its own, since beside a target whose file one of its
/// agents already reads (`AGENTS.md` for Cursor, Windsurf, Cline and Continue; the claude
/// target's `.claude/rules/` and CLAUDE.md for Copilot CLI) a target is a second copy, not
/// written. The first group's repository has an `AGENTS.md` of its own.
const GROUPS: [&str; 4] = [
    "agents-md,claude,kiro,junie",
    "cursor,windsurf,cline-rules,continue",
    "claude-md",
    "copilot",
];

/// The rules of the export fixtures: unscoped, scoped with an exclusion, scoped by a
/// pattern and a folder whose name holds a space.
fn export_rules(sandbox: &Sandbox) {
    learn(sandbox, "Always log errors with context", &[]).expect(0);
    learn(
        sandbox,
        "Never panic in request handlers",
        &["src/api/**", "!src/api/gen/**"],
    )
    .expect(0);
    learn(sandbox, "Wrap prose at 80 columns", &["*.md", "my docs/"]).expect(0);
}

/// A fixture's name for an exported file: flat, and never a file an agent would read.
fn fixture_name(path: &str) -> String {
    format!("scoping/export/{}.expected", path.replace('/', "__"))
}

#[test]
fn every_scoped_form_is_written_byte_for_byte() {
    let sandboxes: Vec<Sandbox> = GROUPS.iter().map(|_| Sandbox::new()).collect();
    sandboxes[0].write("AGENTS.md", "# Agents\n\nHand-written.\n");
    let mut written: std::collections::BTreeMap<String, String> = Default::default();
    for (sandbox, targets) in sandboxes.iter().zip(GROUPS) {
        export_rules(sandbox);
        // Copilot CLI reads AGENTS.md and `.claude/rules/` both in the first (the guard
        // would hide AGENTS.md's own text from Claude Code): warned on stderr.
        sandbox
            .run(&["export", "--target", targets])
            .expect_noisy(0);
        for file in crate::support::files_below(sandbox.path()) {
            if file.starts_with(".agents/") {
                continue;
            }
            let text = sandbox.read(&file);
            // A file both write (the claude target's scoped files) is the same in both.
            if let Some(other) = written.insert(file.clone(), text.clone()) {
                assert_eq!(other, text, "{file}");
            }
        }
    }
    assert_eq!(written.len(), 20, "{:#?}", written.keys());
    for (file, text) in &written {
        crate::support::assert_fixture(&fixture_name(file), text);
    }
    // And no fixture lacks its file.
    let dir = std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/scoping/export"
    ));
    let mut fixtures: Vec<String> = crate::support::files_below(dir);
    let mut named: Vec<String> = written
        .keys()
        .map(|f| fixture_name(f)["scoping/export/".len()..].to_string())
        .collect();
    fixtures.sort();
    named.sort();
    assert_eq!(fixtures, named);
    for (sandbox, targets) in sandboxes.iter().zip(GROUPS) {
        sandbox
            .run(&["export", "--check", "--target", targets])
            .expect_noisy(0);
    }
}

#[test]
fn check_sees_a_stale_missing_or_orphaned_scoped_file() {
    let sandbox = Sandbox::new();
    export_rules(&sandbox);
    sandbox
        .run(&["export", "--target", "agents-md,claude,kiro"])
        .expect_noisy(0);
    sandbox.run(&["export", "--check"]).expect_noisy(0);
    // A new scope, a superseded one, a new rule in a kept scope (learned without the
    // refresh `learn` makes, so that the copies go stale).
    sandbox
        .run(&[
            "learn",
            "--no-export",
            "-c",
            "style",
            "-w",
            "w",
            "-s",
            "3",
            "Wrap prose at 100 columns",
            "--path",
            "docs/**",
        ])
        .expect(0);
    sandbox
        .run(&[
            "learn",
            "--no-export",
            "-c",
            "code",
            "-w",
            "why",
            "Return typed errors from handlers",
            "--path",
            "src/api/**",
            "--path",
            "!src/api/gen/**",
        ])
        .expect(0);
    let before = crate::support::files_below(sandbox.path());
    let check = sandbox
        .run(&["export", "--check", "--format", "json"])
        .expect(1)
        .json();
    assert_eq!(
        crate::support::files_below(sandbox.path()),
        before,
        "--check wrote"
    );
    let statuses: Vec<(String, String)> = check["targets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["path"].as_str().unwrap().to_string(),
                t["status"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let status = |prefix: &str, name: &str| -> Vec<String> {
        statuses
            .iter()
            .filter(|(p, _)| p.starts_with(prefix) && p.contains(name))
            .map(|(_, s)| s.clone())
            .collect()
    };
    for dir in [".claude/rules/", ".kiro/steering/"] {
        assert_eq!(status(dir, "autofix-src-api-"), ["stale"], "{statuses:?}");
        assert_eq!(status(dir, "autofix-docs-"), ["missing"], "{statuses:?}");
        assert_eq!(status(dir, "autofix-md-"), ["orphaned"], "{statuses:?}");
    }
    sandbox.run(&["export"]).expect_noisy(0);
    sandbox.run(&["export", "--check"]).expect_noisy(0);
    assert!(
        !crate::support::files_below(sandbox.path())
            .iter()
            .any(|f| f.contains("autofix-md-"))
    );
    // An unstamped file that looks like ours is never touched.
    sandbox.write(".claude/rules/autofix-mine.md", "# Mine\n");
    sandbox.run(&["export", "--check"]).expect_noisy(0);
    sandbox.run(&["export", "--remove"]).expect(0);
    assert_eq!(sandbox.read(".claude/rules/autofix-mine.md"), "# Mine\n");
    let left: Vec<String> = crate::support::files_below(sandbox.path())
        .into_iter()
        .filter(|f| f.contains("autofix") && !f.starts_with(".agents/"))
        .collect();
    assert_eq!(left, [".claude/rules/autofix-mine.md"]);
}

#[test]
fn the_target_registry_lists_every_target_with_its_source() {
    let sandbox = Sandbox::new();
    let json = sandbox
        .run(&["export", "--list-targets", "--format", "json"])
        .expect(0)
        .json();
    let targets = json["targets"].as_array().unwrap();
    assert!(targets.len() >= 20, "{}", targets.len());
    let mut ids: Vec<&str> = targets.iter().map(|t| t["id"].as_str().unwrap()).collect();
    for target in targets {
        let source = target["source"].as_str().unwrap();
        assert!(source.starts_with("https://"), "{target}");
        assert!(["block", "owned"].contains(&target["mode"].as_str().unwrap()));
    }
    let scoped: Vec<&str> = targets
        .iter()
        .filter(|t| t["scoping"] != "heading")
        .map(|t| t["id"].as_str().unwrap())
        .collect();
    // cline and Continue document scoped files, but their CLIs did not honour them with a
    // stub model (cline loaded one before any read, `cn` never): headings there.
    assert_eq!(scoped, ["claude", "cursor", "copilot", "windsurf", "kiro"]);
    let text = sandbox.run(&["export", "--list-targets"]).expect(0).stdout;
    for id in &ids {
        assert!(
            text.lines().any(|l| l.starts_with(&format!("{id} ("))),
            "{id}"
        );
    }
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), targets.len());
    // Every listed id is accepted by --target.
    sandbox
        .run(&["export", "--target", "goose,aider,openhands", "--dry-run"])
        .expect(0);
}

#[test]
fn a_new_agent_folder_brings_its_target_and_its_scoped_files() {
    let sandbox = Sandbox::new();
    export_rules(&sandbox);
    std::fs::create_dir_all(sandbox.join(".kiro")).unwrap();
    std::fs::create_dir_all(sandbox.join(".junie")).unwrap();
    let run = sandbox.run(&["export"]).expect(0);
    assert!(
        run.stdout
            .contains("kiro (.kiro/ exists), junie (.junie/ exists)"),
        "{}",
        run.stdout
    );
    let kiro: Vec<String> = crate::support::files_below(sandbox.path())
        .into_iter()
        .filter(|f| f.starts_with(".kiro/"))
        .collect();
    assert_eq!(kiro.len(), 3, "{kiro:?}");
    assert!(
        sandbox
            .read(".junie/guidelines.md")
            .contains("### Only for files matching `*.md`, `my docs/`")
    );
    // Neither is written where its folder is absent and nobody asked.
    let bare = Sandbox::new();
    export_rules(&bare);
    bare.run(&["export"]).expect(0);
    assert!(!bare.join(".kiro").exists() && !bare.join(".junie").exists());
}

#[test]
fn a_target_file_says_where_the_rules_are_when_every_rule_is_scoped() {
    let sandbox = Sandbox::new();
    learn(&sandbox, "Never panic in request handlers", &["src/api/**"]).expect(0);
    sandbox.run(&["export", "--target", "claude"]).expect(0);
    let own = sandbox.read(".claude/rules/autofix.md");
    assert!(
        own.ends_with("_Every rule applies only to some files: they are in the `autofix-*` files beside this one._\n"),
        "{own}"
    );
}

/// A glob from a committed rules file cannot stall `rules --for` or `check`: the matcher
/// never tries every split at every star.
#[test]
fn a_glob_with_many_stars_is_matched_without_blowing_up() {
    let sandbox = Sandbox::new();
    learn(&sandbox, "Always mind the stars", &["*a*a*a*a*a*a*a*a*a*b"]).expect(0);
    let path = "a".repeat(120);
    let run = sandbox
        .run(&["rules", "--for", &path, "--format", "json"])
        .expect(0);
    assert_eq!(run.json()["rules"], serde_json::json!([]), "{}", run.stdout);
    let run = sandbox
        .run(&["rules", "--for", &format!("{path}b"), "--format", "json"])
        .expect(0);
    assert_eq!(run.json()["rules"][0]["number"], 1, "{}", run.stdout);
}

/// Two scopes whose globs share a file name and the first 8 hex digits of their SHA-256
/// (`df98ecd6`, a pair found in half a second) each keep their file, and two globs that
/// read alike (`::x` and `\u{3a}:x`) stay two scopes.
#[test]
fn scopes_never_share_a_scoped_file() {
    let sandbox = Sandbox::new();
    sandbox.write(".claude/settings.json", "{}\n");
    let pairs = [
        (
            "src/components/generated/widgets/49020/**",
            "src/components/generated/widgets/134174/**",
        ),
        ("::x", "\\u{3a}:x"),
    ];
    for (first, second) in pairs {
        learn(&sandbox, &format!("Always check {first}"), &[first]).expect(0);
        learn(&sandbox, &format!("Always check {second}"), &[second]).expect(0);
    }
    sandbox.run(&["export"]).expect(0);
    let scoped: Vec<String> = crate::support::files_below(sandbox.path())
        .into_iter()
        .filter(|f| f.starts_with(".claude/rules/autofix-"))
        .collect();
    assert_eq!(scoped.len(), 4, "{scoped:#?}");
    let frontmatter = |file: &str| sandbox.read(file).split("---").nth(1).unwrap().to_string();
    for (first, second) in pairs {
        let holding = |glob: &str| -> Vec<String> {
            scoped
                .iter()
                .filter(|f| sandbox.read(f).contains(&format!("Always check {glob}")))
                .cloned()
                .collect()
        };
        let (a, b) = (holding(first), holding(second));
        assert!(a.len() == 1 && b.len() == 1 && a != b, "{a:?} {b:?}");
        assert_ne!(frontmatter(&a[0]), frontmatter(&b[0]));
    }
    sandbox.run(&["export", "--check"]).expect(0);
}

/// Braces expand as Claude Code, Copilot, Kiro, Continue and Cline expand them:
/// `*.{ts,tsx}` applies to a `.tsx` file, matches tracked files, and reaches the
/// comma-joined `globs:` of Cursor as two globs; a comma outside braces is refused.
#[test]
fn braces_match_the_way_the_agents_match() {
    let Some(sandbox) = tracked_repo(&["src/web/app.tsx", "src/web/util.ts"]) else {
        return;
    };
    learn(&sandbox, "Always type props", &["*.{ts,tsx}"]).expect(0);
    let run = sandbox
        .run(&["rules", "--for", "src/web/app.tsx"])
        .expect(0);
    assert!(run.stdout.contains("Always type props"), "{}", run.stdout);
    let run = sandbox.run(&["rules", "--for", "src/web/app.js"]).expect(0);
    assert!(!run.stdout.contains("Always type props"), "{}", run.stdout);
    sandbox.run(&["check"]).expect(0);
    sandbox
        .run(&["export", "--target", "cursor,copilot,windsurf"])
        .expect(0);
    let scoped = |dir: &str| {
        crate::support::files_below(sandbox.path())
            .into_iter()
            .find(|f| f.starts_with(dir) && f.contains("/autofix-"))
            .map(|f| sandbox.read(f))
            .unwrap()
    };
    let cursor = scoped(".cursor/rules/");
    assert!(cursor.contains("\nglobs: **/*.ts,**/*.tsx\n"), "{cursor}");
    let copilot = scoped(".github/instructions/");
    assert!(
        copilot.contains("applyTo: \"**/*.ts,**/*.tsx\""),
        "{copilot}"
    );
    let windsurf = scoped(".windsurf/rules/");
    assert!(windsurf.contains("globs: **/*.ts,**/*.tsx"), "{windsurf}");
    let run = learn(&sandbox, "Never commit secrets", &["config/a,b.env"]).expect_noisy(2);
    assert!(
        run.stderr.contains("has a `,` outside `{}`"),
        "{}",
        run.stderr
    );
}

/// Braces are expanded in time and memory bounded by their result: `{a,a}` written 30
/// times is the one glob `aaa…a`, found at once by `learn`, `rules --for`, `check`, the
/// hook and `export` (working out every branch first took 2^30 steps); braces whose
/// distinct alternatives pass the cap, or a glob longer than a path pattern, are refused
/// with what is wrong, and a hand-written one is reported by `check`.
#[test]
fn braces_that_repeat_a_choice_cost_their_result_not_two_to_the_n() {
    let sandbox = Sandbox::new();
    let repeated = "{a,a}".repeat(30);
    let mut learned = sandbox.command(&[
        "learn",
        "-c",
        "code",
        "-w",
        "why",
        "Always mind the braces",
        "--path",
        &repeated,
    ]);
    crate::support::Run::within(&mut learned, 60).expect(0);
    let for_path = "a".repeat(30);
    for args in [
        vec!["rules", "--for", for_path.as_str(), "--format", "json"],
        vec!["check"],
        vec!["rules", "--format", "hook", "--agent", "claude"],
        vec!["export", "--target", "cursor"],
    ] {
        let run = crate::support::Run::within(&mut sandbox.command(&args), 60).expect(0);
        if args.get(1) == Some(&"--for") {
            assert_eq!(run.json()["rules"][0]["number"], 1, "{}", run.stdout);
        }
    }
    let too_many = "{a,b}".repeat(30);
    let run = learn(&sandbox, "Always mind more braces", &[&too_many]).expect_noisy(2);
    assert!(
        run.stderr
            .contains("has braces that expand to more than 64 globs"),
        "{}",
        run.stderr
    );
    let long = format!("src/{}", "x".repeat(1100));
    let run = learn(&sandbox, "Always mind long globs", &[&long]).expect_noisy(2);
    assert!(
        run.stderr.contains("is longer than 1024 bytes"),
        "{}",
        run.stderr
    );
    let mut rules: serde_json::Value = serde_json::from_str(&sandbox.read(RULES)).unwrap();
    rules[0]["Paths"] = json!([too_many]);
    sandbox.write(RULES, serde_json::to_string_pretty(&rules).unwrap());
    let run = crate::support::Run::within(&mut sandbox.command(&["check"]), 60);
    assert!(
        run.code == 1
            && run
                .stdout
                .contains("has braces that expand to more than 64 globs"),
        "{}",
        run.stdout
    );
}

/// `export` lists a folder it writes into once, not once per file: with 300 scopes it read
/// `.claude/rules/` whole for every scoped file it wrote or checked (a sweep for temp
/// files killed writers left), which made it quadratic in the scopes. Counted as the
/// `getdents64` calls under `strace`, for a first export and a re-export.
#[test]
fn export_lists_the_scoped_folder_once_whatever_the_number_of_scopes() {
    let traced = Sandbox::new()
        .program("strace", &["-f", "-qq", "-o", "/dev/null", "true"])
        .status();
    if !traced.is_ok_and(|status| status.success()) {
        crate::support::skip("strace", "count the folder listings of export");
        return;
    }
    let sandbox = Sandbox::new();
    sandbox.write(".claude/settings.json", "{}\n");
    let rules: Vec<serde_json::Value> = (1..=300)
        .map(|n| {
            json!({"Rule_number": n, "Category": "CODE", "Instruction": format!("Always check part {n}"),
                   "Why": "why", "Paths": [format!("src/part{n}/**")]})
        })
        .collect();
    sandbox.write(RULES, serde_json::to_string_pretty(&rules).unwrap());
    let listings = |args: &[&str]| {
        let log = sandbox.join("strace.log");
        let mut traced = vec![
            "-f",
            "-qq",
            "-e",
            "trace=getdents64",
            "-o",
            log.to_str().unwrap(),
        ];
        traced.push(crate::support::BIN);
        traced.extend(args);
        let run = crate::support::Run::from_command(&mut sandbox.program("strace", &traced));
        assert_eq!(run.code, 0, "{}", run.stderr);
        std::fs::read_to_string(&log).unwrap().lines().count()
    };
    for args in [&["export"][..], &["export"], &["export", "--check"]] {
        let count = listings(args);
        assert!(
            count < 40,
            "{args:?}: {count} folder reads for 300 scoped files"
        );
    }
    let scoped = crate::support::files_below(&sandbox.join(".claude/rules"));
    assert!(scoped.len() >= 300, "{}", scoped.len());
}

/// Cursor's `description:` is a quoted YAML string, so a glob holding `: ` or ` #` does
/// not end it early or make it a mapping.
#[test]
fn the_cursor_description_is_quoted_yaml() {
    let sandbox = Sandbox::new();
    learn(&sandbox, "Keep drafts short", &["notes: draft #1/**"]).expect(0);
    sandbox.run(&["export", "--target", "cursor"]).expect(0);
    let file = crate::support::files_below(sandbox.path())
        .into_iter()
        .find(|f| f.starts_with(".cursor/rules/autofix-"))
        .unwrap();
    let text = sandbox.read(&file);
    let line = text
        .lines()
        .find(|l| l.starts_with("description:"))
        .unwrap();
    let value = line.strip_prefix("description: ").unwrap();
    let decoded: String = serde_json::from_str(value).unwrap_or_else(|e| panic!("{e}: {line}"));
    assert_eq!(
        decoded,
        "Project rules recorded with autofix for files matching notes: draft #1/**"
    );
}
