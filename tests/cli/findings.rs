//! One finding type: every problem a command reports (export, doctor, learn, the merge
//! driver, `preset render`) carries a code from the one table, shown as `warning[code]`
//! in text, listed in the JSON documents' `diagnostics`, titled with it in GitHub
//! annotations, and known to `explain`.

use serde_json::Value;

use crate::support::{Run, Sandbox, tracked_repo};

const RULES: &str = ".agents/autofix.json";

fn rules(sandbox: &Sandbox, instructions: &[&str]) {
    let rules: Vec<Value> = instructions
        .iter()
        .enumerate()
        .map(|(i, text)| {
            serde_json::json!({"Rule_number": i + 1, "Category": "CODE", "Instruction": text, "Why": "user preference"})
        })
        .collect();
    sandbox.write(RULES, serde_json::to_string_pretty(&rules).unwrap());
}

/// The codes of a JSON document's `diagnostics`, each checked to be known to `explain`.
fn codes(sandbox: &Sandbox, json: &Value) -> Vec<String> {
    let codes: Vec<String> = json["diagnostics"]
        .as_array()
        .unwrap_or_else(|| panic!("no `diagnostics` in {json}"))
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_string())
        .collect();
    for code in &codes {
        let explained = sandbox.run(&["explain", code]).expect(0).stdout;
        assert!(explained.starts_with(code.as_str()), "{explained}");
    }
    codes
}

#[test]
fn export_findings_have_codes_in_every_format() {
    let Some(sandbox) = tracked_repo(&[]) else {
        return;
    };
    rules(&sandbox, &["Always use pnpm"]);
    sandbox.write(".gitignore", "AGENTS.md\n");

    // Drift: the target's finding, with the file it is about.
    let json = sandbox
        .run(&["export", "--check", "--format", "json"])
        .expect(1)
        .json();
    assert_eq!(
        codes(&sandbox, &json),
        ["export-out-of-sync", "export-ignored"]
    );
    assert_eq!(json["diagnostics"][0]["file"], "AGENTS.md");
    assert_eq!(json["diagnostics"][0]["severity"], "error");

    // Warnings: an agent reading the rules twice (Copilot CLI reads AGENTS.md and
    // `.claude/rules/`, where the rules go when `.claude/CLAUDE.md` is the user's), a copy
    // git ignores.
    sandbox.write(".claude/CLAUDE.md", "# Mine\n");
    let run = sandbox
        .run(&["export", "--target", "agents-md,claude"])
        .expect_noisy(0);
    assert!(
        run.stderr.contains(
            "warning[export-read-twice]: Copilot reads the rules twice: from targets agents-md and claude"
        ),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("warning[export-ignored]: AGENTS.md is ignored by git"),
        "{}",
        run.stderr
    );
    let json = sandbox
        .run(&["export", "--target", "agents-md,claude", "--format", "json"])
        .expect(0)
        .json();
    assert_eq!(
        codes(&sandbox, &json),
        ["export-read-twice", "export-ignored"]
    );
    // The warnings' messages stay where they were.
    assert!(
        json["warnings"][0]
            .as_str()
            .unwrap()
            .starts_with("Copilot reads the rules twice"),
        "{json}"
    );
    let github = sandbox
        .run(&[
            "export",
            "--target",
            "agents-md,claude",
            "--format",
            "github",
        ])
        .expect(0)
        .stdout;
    assert!(
        github.contains("::warning title=export-read-twice::Copilot reads the rules twice"),
        "{github}"
    );
    assert!(
        github.contains("::warning title=export-ignored::AGENTS.md is ignored by git"),
        "{github}"
    );
}

#[test]
fn export_findings_in_sarif() {
    let sandbox = Sandbox::new();
    std::fs::create_dir(sandbox.join(".git")).unwrap();
    rules(&sandbox, &["Always use pnpm"]);
    sandbox.write("sub/.keep", "");
    // From a subfolder: the URIs are still relative to the repository.
    let run = Run::from_command(
        &mut sandbox.command_in("sub", &["export", "--check", "--format", "sarif"]),
    )
    .expect(1);
    let log = run.json();
    let run = &log["runs"][0];
    assert_eq!(run["automationDetails"]["id"], "autofix-export/");
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), 1, "{log}");
    assert_eq!(results[0]["ruleId"], "export-out-of-sync");
    assert_eq!(
        results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "AGENTS.md"
    );
    let index = results[0]["ruleIndex"].as_u64().unwrap() as usize;
    assert_eq!(
        run["tool"]["driver"]["rules"][index]["id"],
        "export-out-of-sync"
    );
}

#[test]
fn unreadable_rules_are_a_finding_of_the_listing_and_the_export() {
    let sandbox = Sandbox::new();
    sandbox.write(
        RULES,
        r#"[{"Rule_number": 1, "Category": "CODE", "Instruction": 7, "Why": "w"},
            {"Rule_number": 2, "Category": "CODE", "Instruction": "Always x", "Why": "w"}]"#,
    );
    let run = sandbox.run(&["rules"]).expect_noisy(1);
    assert!(
        run.stderr
            .starts_with("warning[unreadable-rules]: 1 active rule in"),
        "{}",
        run.stderr
    );
    let json = sandbox
        .run(&["export", "--format", "json"])
        .expect(1)
        .json();
    assert_eq!(codes(&sandbox, &json), ["unreadable-rules"]);
}

#[test]
fn learn_warnings_have_codes() {
    let sandbox = Sandbox::new();
    sandbox.write(
        RULES,
        r#"[{"Rule_number": 1, "Category": "CODE", "Instruction": "Always a", "Why": "w"},
            {"Rule_number": 1, "Category": "CODE", "Instruction": "Never b", "Why": "w"}]"#,
    );
    let run = sandbox
        .run(&[
            "learn", "-c", "code", "-w", "w", "Always c", "--format", "json",
        ])
        .expect_noisy(0);
    assert!(
        run.stderr.contains("[duplicate-rule-number]: "),
        "{}",
        run.stderr
    );
    let json = run.json();
    assert_eq!(codes(&sandbox, &json), ["duplicate-rule-number"]);
    assert!(
        json["warnings"][0]
            .as_str()
            .unwrap()
            .contains("has duplicate Rule_numbers"),
        "{json}"
    );
}

#[test]
fn the_merge_drivers_warnings_have_codes() {
    let sandbox = Sandbox::new();
    let rule = |n: u64, instruction: &str, why: &str| serde_json::json!({"Rule_number": n, "Category": "CODE", "Instruction": instruction, "Why": why});
    let file = |rules: Vec<Value>| serde_json::to_string_pretty(&rules).unwrap() + "\n";
    let base = vec![rule(1, "Always a", "w")];
    sandbox.write("o.json", file(base.clone()));
    sandbox.write(
        "a.json",
        file([base.clone(), vec![rule(2, "Always o", "w")]].concat()),
    );
    sandbox.write(
        "b.json",
        file([base, vec![rule(2, "Always z", "w (supersedes rule 9)")]].concat()),
    );
    let run = Run::from_command(
        sandbox
            .command(&["merge-driver", "o.json", "a.json", "b.json", RULES])
            .env_remove("AUTOFIX_MERGE_UPSTREAM")
            .env_remove("AUTOFIX_MERGE_DRIVER")
            .env_remove("GIT_REFLOG_ACTION"),
    )
    .expect_noisy(0);
    assert!(
        run.stderr
            .contains("  warning[merge-dangling-reference]: theirs' rule 2 refers to rule 9"),
        "{}",
        run.stderr
    );
    sandbox
        .run(&["explain", "merge-dangling-reference"])
        .expect(0);
}

#[test]
fn doctors_failed_checks_have_codes() {
    // Outside a repository: git's check fails.
    let sandbox = Sandbox::new();
    let run = sandbox.run(&["doctor", "--format", "json"]).expect(1);
    let json = run.json();
    assert!(
        codes(&sandbox, &json).contains(&"git-unavailable".to_string()),
        "{json}"
    );
    let git = json["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "git")
        .unwrap();
    assert_eq!(git["code"], "git-unavailable");

    // A repository without the driver: each failed check has its code, the passed ones none.
    let Some(repo) = tracked_repo(&[]) else {
        return;
    };
    rules(&repo, &["Always x"]);
    let run = repo.run(&["doctor"]).expect(1);
    assert!(
        run.stdout.contains("FAIL  driver")
            && run.stdout.contains("[merge-driver-missing]")
            && run.stdout.contains("[merge-attribute-missing]"),
        "{}",
        run.stdout
    );
    let json = repo.run(&["doctor", "--format", "json"]).expect(1).json();
    let found = codes(&repo, &json);
    for code in ["merge-driver-missing", "merge-attribute-missing"] {
        assert!(found.contains(&code.to_string()), "{json}");
    }
    for check in json["checks"].as_array().unwrap() {
        assert_eq!(check["ok"], check["code"].is_null(), "{check}");
    }
    // The fix is the finding's help.
    let driver = json["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "merge-driver-missing")
        .unwrap();
    assert_eq!(driver["help"], "autofix merge-driver --install");

    // The same findings as annotations and as SARIF.
    let github = repo.run(&["doctor", "--format", "github"]).expect(1).stdout;
    assert!(
        github.contains(
            "::error title=merge-driver-missing::merge.autofix.driver is not set: git merges \
             the rules file as text%0Ahelp: autofix merge-driver --install\n"
        ),
        "{github}"
    );
    assert!(!github.contains("title=git-unavailable"), "{github}");
    let sarif = repo.run(&["doctor", "--format", "sarif"]).expect(1).json();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let ids: Vec<&str> = results
        .iter()
        .map(|r| r["ruleId"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&"merge-driver-missing"), "{sarif}");
    assert_eq!(
        results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        RULES
    );
}

#[test]
fn a_rules_file_with_errors_is_a_doctor_finding() {
    let Some(repo) = tracked_repo(&[]) else {
        return;
    };
    repo.write(RULES, "[{\"Rule_number\": 1}]");
    let json = repo.run(&["doctor", "--format", "json"]).expect(1).json();
    assert!(
        codes(&repo, &json).contains(&"rules-file-invalid".to_string()),
        "{json}"
    );
}

#[test]
fn refusals_in_the_tables_of_init_and_export_end_with_their_code() {
    let Some(sandbox) = tracked_repo(&[]) else {
        return;
    };
    sandbox.write(".claude/settings.json", "{\"hooks\": ");
    let run = sandbox.run(&["init", "--hook", "claude"]).expect(1);
    assert!(
        run.stdout.contains(
            "refused  .claude/settings.json:1 (hook claude): not valid JSON (EOF while parsing"
        ) && run.stdout.contains("; left unchanged [init-refused]\n"),
        "{}",
        run.stdout
    );
    let json = sandbox
        .run(&["init", "--hook", "claude", "--format", "json"])
        .expect(1)
        .json();
    assert_eq!(codes(&sandbox, &json), ["init-refused"]);
    assert_eq!(json["diagnostics"][0]["file"], ".claude/settings.json");
    assert_eq!(json["diagnostics"][0]["line"], 1);

    sandbox.write(".claude/rules/autofix.md", "my own notes\n");
    let run = sandbox.run(&["export", "--target", "claude"]).expect(1);
    assert!(
        run.stdout
            .contains("refused  .claude/rules/autofix.md:1: not owned by autofix: ")
            && run.stdout.contains("; left unchanged [export-unowned]\n"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_learn_refused_for_a_near_duplicate_names_the_code_check_would_give() {
    let sandbox = Sandbox::new();
    rules(
        &sandbox,
        &[
            "Never commit secrets to the repository.",
            "Use Axios for HTTP requests.",
        ],
    );
    let run = sandbox
        .run(&[
            "learn",
            "-c",
            "code",
            "-w",
            "w",
            "never commit **secrets** to the repository!",
            "--format",
            "json",
        ])
        .expect(1);
    let json = run.json();
    assert_eq!(json["status"], "refused", "{json}");
    assert_eq!(codes(&sandbox, &json), ["similar-rules"]);
    assert!(
        json["diagnostics"][0]["message"]
            .as_str()
            .unwrap()
            .starts_with("the new rule repeats rule 1 "),
        "{json}"
    );
    let json = sandbox
        .run(&[
            "learn",
            "-c",
            "code",
            "-w",
            "w",
            "Never use Axios for HTTP requests.",
            "--format",
            "json",
        ])
        .expect(1)
        .json();
    assert_eq!(codes(&sandbox, &json), ["conflicting-rules"]);
}

#[test]
fn unmet_requirements_have_codes() {
    let sandbox = crate::support::example_workspace();
    let run = sandbox
        .run(&["preset", "requirements", "presets/last30days"])
        .expect(1);
    assert!(
        run.stdout
            .contains("missing      commands: research, competitors  [skill-not-installed]\n"),
        "{}",
        run.stdout
    );
    let json = sandbox
        .run(&[
            "preset",
            "requirements",
            "presets/last30days",
            "--format",
            "json",
        ])
        .expect(1)
        .json();
    assert_eq!(codes(&sandbox, &json), ["skill-not-installed"]);
    assert_eq!(
        json["diagnostics"][0]["help"],
        "install it: npx skills add last30days -g -y"
    );
}
