//! The ledger: provenance from real git history (`rules --provenance`, `rules N`),
//! search, retirement, and the recurrence ledger over fixture transcripts.

use serde_json::Value;

use crate::support::{BIN, Run, Sandbox, hermetic_git};

const RULES: &str = ".agents/autofix.json";

/// A sandbox that is a git repository, with helpers that commit as a given author on a
/// given date.
struct Repo {
    sandbox: Sandbox,
}

impl Repo {
    fn new() -> Repo {
        let repo = Repo {
            sandbox: Sandbox::new(),
        };
        repo.git(&["init", "-q", "-b", "main"], None).expect(0);
        repo.sandbox.write(".gitignore", "home/\n*.lock\n");
        repo
    }

    fn git(&self, args: &[&str], author: Option<(&str, &str)>) -> Run {
        let mut command = self.sandbox.program("git", args);
        hermetic_git(&mut command);
        if let Some((name, date)) = author {
            command
                .env("GIT_AUTHOR_NAME", name)
                .env(
                    "GIT_AUTHOR_EMAIL",
                    format!("{}@example.com", name.to_lowercase()),
                )
                .env("GIT_AUTHOR_DATE", date)
                .env("GIT_COMMITTER_DATE", date);
        }
        Run::from_command(&mut command)
    }

    fn autofix(&self, args: &[&str]) -> Run {
        let mut command = self.sandbox.program(BIN, args);
        Run::from_command(hermetic_git(&mut command))
    }

    fn learn(&self, category: &str, instruction: &str) {
        self.autofix(&["learn", "-c", category, "-w", "pref", instruction])
            .expect(0);
    }

    /// Commits everything as `name` on `date`.
    fn commit(&self, name: &str, date: &str, message: &str) {
        self.git(&["add", "-A"], None).expect(0);
        self.git(&["commit", "-q", "-m", message], Some((name, date)))
            .expect(0);
    }

    fn json(&self, args: &[&str]) -> Value {
        let run = self.autofix(args).expect(0);
        serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}", run.stdout))
    }
}

const PNPM: &str = "Always use pnpm to install packages - because the lockfile is pnpm-lock.yaml.";
const ENV: &str = "Never commit the .env file - because it holds secrets.";
const SECRETS: &str = "Never commit secrets to the repository - because they leak.";
const API: &str = "Always keep the handlers in `src/api/` - because the router loads them there.";

/// Two rules committed by two people on two days, the file moved once in between, and a
/// third rule not committed yet.
fn history() -> Repo {
    let repo = Repo::new();
    repo.autofix(&[
        "--file",
        "autofix.json",
        "learn",
        "-c",
        "tool",
        "-w",
        "pref",
        PNPM,
    ])
    .expect(0);
    repo.commit("Ana", "2026-11-02T10:00:00Z", "learn pnpm");
    std::fs::create_dir_all(repo.sandbox.join(".agents")).unwrap();
    repo.git(&["mv", "autofix.json", RULES], None).expect(0);
    repo.commit("Ana", "2026-11-02T11:00:00Z", "move the rules");
    repo.learn("tool", ENV);
    repo.commit("Bo", "2026-11-03T10:00:00Z", "learn env");
    repo.learn("arch", API);
    repo
}

fn provenance_of(listing: &Value, number: u64) -> Value {
    listing["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["number"] == number)
        .unwrap_or_else(|| panic!("no rule {number} in {listing}"))["provenance"]
        .clone()
}

#[test]
fn provenance_names_the_commit_author_and_date_of_each_rule() {
    let repo = history();
    let listing = repo.json(&["rules", "--provenance", "--format", "json"]);
    let first = provenance_of(&listing, 1);
    assert_eq!(first["status"], "committed");
    // Learned before the file was moved: `--follow` finds the commit that added it.
    assert_eq!(first["author"], "Ana");
    assert_eq!(first["date"], "2026-11-02T10:00:00Z");
    assert_eq!(first["subject"], "learn pnpm");
    let second = provenance_of(&listing, 2);
    assert_eq!(
        (&second["author"], &second["date"]),
        (&Value::from("Bo"), &Value::from("2026-11-03T10:00:00Z"))
    );
    let log = repo
        .git(&["log", "--format=%H", "--", RULES], None)
        .expect(0)
        .stdout;
    assert_eq!(second["commit"], log.lines().next().unwrap());
    assert_eq!(provenance_of(&listing, 3)["status"], "uncommitted");
    // Without --provenance the listing has no such field; the text form names the commit.
    let plain = repo.json(&["rules", "--format", "json"]);
    assert!(plain["rules"][0].get("provenance").is_none());
    let text = repo.autofix(&["rules", "--provenance"]).expect(0).stdout;
    let short = &second["commit"].as_str().unwrap()[..7];
    assert!(
        text.contains(&format!(
            "[added: {short} by Bo <bo@example.com>, 2026-11-03T10:00:00Z]"
        )),
        "{text}"
    );
    assert!(text.contains("[added: uncommitted"), "{text}");
}

#[test]
fn provenance_before_the_first_commit_is_uncommitted() {
    let repo = Repo::new();
    repo.learn("tool", PNPM);
    let listing = repo.json(&["rules", "--provenance", "--format", "json"]);
    assert_eq!(provenance_of(&listing, 1)["status"], "uncommitted");
}

/// The log's fields are NUL-separated: a 0x1F in a subject and a 0x1E in an author's name
/// (both allowed by git) are text, and the rules they committed read as committed.
#[test]
fn provenance_reads_separator_bytes_in_names_and_subjects_as_text() {
    let repo = Repo::new();
    repo.learn("tool", PNPM);
    repo.commit("Ana\u{1e}Bo", "2026-11-02T10:00:00Z", "learn\u{1f}pnpm");
    repo.learn("tool", ENV);
    repo.commit("Cy", "2026-11-03T10:00:00Z", "learn \u{1e}env\u{1f}");
    let listing = repo.json(&["rules", "--provenance", "--format", "json"]);
    let first = provenance_of(&listing, 1);
    assert_eq!(
        (&first["status"], &first["author"], &first["subject"]),
        (
            &Value::from("committed"),
            &Value::from("Ana\u{1e}Bo"),
            &Value::from("learn\u{1f}pnpm")
        ),
        "{listing}"
    );
    let second = provenance_of(&listing, 2);
    assert_eq!(
        (&second["status"], &second["author"], &second["date"]),
        (
            &Value::from("committed"),
            &Value::from("Cy"),
            &Value::from("2026-11-03T10:00:00Z")
        ),
        "{listing}"
    );
}

/// `git log -p` of a large rules file reformatted a few times is far larger than the file
/// (here about 3 MB, 16 commits: about 90 MB of log); it is read a line at a time, so
/// `rules N` answers under a 100 MB address-space limit (reading it whole aborted).
#[test]
fn provenance_of_a_long_history_is_read_in_bounded_memory() {
    let repo = Repo::new();
    let rules: Vec<Value> = (1..=15_000)
        .map(|n| {
            serde_json::json!({"Rule_number": n, "Category": "CODE", "Why": "team",
                "Instruction": format!("Always follow the convention number {n} of the team.")})
        })
        .collect();
    for commit in 0..16 {
        let indent = " ".repeat(2 + commit % 2 * 2);
        let mut text = Vec::new();
        let formatter = serde_json::ser::PrettyFormatter::with_indent(indent.as_bytes());
        let mut serializer = serde_json::Serializer::with_formatter(&mut text, formatter);
        serde::Serialize::serialize(&rules, &mut serializer).unwrap();
        repo.sandbox.write(RULES, text);
        repo.commit("Ana", "2026-11-02T10:00:00Z", &format!("reformat {commit}"));
    }
    let script = format!("ulimit -v 100000; exec \"{BIN}\" rules 5 --format json");
    let mut command = repo.sandbox.program("sh", &["-c", &script]);
    let run = Run::from_command(hermetic_git(&mut command)).expect(0);
    let shown: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(
        shown["rule"]["provenance"]["subject"], "reformat 0",
        "{shown}"
    );
}

#[test]
fn provenance_outside_git_is_unknown() {
    let sandbox = Sandbox::new();
    sandbox
        .run(&["learn", "-c", "tool", "-w", "pref", PNPM])
        .expect(0);
    let run = sandbox
        .run(&["rules", "--provenance", "--format", "json"])
        .expect(0);
    let listing: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(listing["rules"][0]["provenance"]["status"], "unknown");
}

#[test]
fn one_rule_is_shown_whole_with_what_it_replaced_and_what_replaced_it() {
    let repo = history();
    repo.autofix(&[
        "learn",
        "-c",
        "tool",
        "-w",
        "moved to bun",
        "--supersedes",
        "1",
        "Always use bun to install packages - because the repo moved to bun.",
    ])
    .expect(0);
    repo.commit("Cy", "2026-11-04T09:30:00Z", "learn bun");
    let old = repo.json(&["rules", "1", "--format", "json"]);
    assert_eq!(old["rule"]["instruction"], PNPM);
    assert_eq!(old["rule"]["active"], false);
    assert_eq!(old["rule"]["provenance"]["author"], "Ana");
    assert_eq!(old["superseded_by"][0]["number"], 4);
    assert_eq!(old["superseded_by"][0]["provenance"]["author"], "Cy");
    assert_eq!(old["supersedes"], Value::Array(Vec::new()));
    let new = repo.json(&["rules", "4", "--format", "json"]);
    assert_eq!(new["supersedes"][0]["number"], 1);
    assert_eq!(new["rule"]["active"], true);
    let text = repo.autofix(&["rules", "1"]).expect(0).stdout;
    assert!(
        text.starts_with(&format!("Rule 1 [TOOL] {PNPM} from {RULES}: superseded\n")),
        "{text}"
    );
    assert!(text.contains("  added:   "), "{text}");
    assert!(
        text.contains("by Ana <ana@example.com>, 2026-11-02T10:00:00Z"),
        "{text}"
    );
    assert!(
        text.contains("  superseded by: 4 [TOOL] Always use bun"),
        "{text}"
    );
    // Rule 3 went into Cy's commit with rule 4.
    let third = repo.autofix(&["rules", "3"]).expect(0).stdout;
    assert!(third.contains("scope:   everywhere"), "{third}");
    assert!(
        third.contains("by Cy <cy@example.com>, 2026-11-04T09:30:00Z"),
        "{third}"
    );
    repo.autofix(&[
        "learn",
        "-c",
        "code",
        "-w",
        "pref",
        "--path",
        "src/**",
        "--path",
        "*.sql",
        "Always quote identifiers - because of reserved words.",
    ])
    .expect(0);
    let scoped = repo.autofix(&["rules", "5"]).expect(0).stdout;
    assert!(scoped.contains("scope:   src/**, *.sql"), "{scoped}");
    assert!(scoped.contains("added:   uncommitted"), "{scoped}");
    let missing = repo.autofix(&["rules", "9"]).expect_noisy(2);
    assert!(
        missing.stderr.contains("no rule 9 in .agents/autofix.json"),
        "{}",
        missing.stderr
    );
}

#[test]
fn search_lists_the_rules_that_mention_a_text() {
    let repo = history();
    let found = repo.json(&["rules", "--search", "PNPM", "--format", "json"]);
    let numbers: Vec<&Value> = found["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["number"])
        .collect();
    assert_eq!(numbers, [&Value::from(1)]);
    assert_eq!(found["search"], "PNPM");
    // The why is searched too; a text no rule holds lists none.
    let why = repo.json(&["rules", "--search", "pref", "--format", "json"]);
    assert_eq!(why["rules"].as_array().unwrap().len(), 3);
    let none = repo.json(&["rules", "--search", "kubernetes", "--format", "json"]);
    assert_eq!(none["rules"], Value::Array(Vec::new()));
    let text = repo
        .autofix(&["rules", "--search", ".env"])
        .expect(0)
        .stdout;
    assert!(
        text.contains("Showing only the 1 rule mentioning `.env`."),
        "{text}"
    );
    assert!(text.contains(&format!("2 [TOOL] {ENV}")), "{text}");
    assert!(!text.contains(PNPM), "{text}");
}

#[test]
fn retire_appends_a_record_and_the_rule_leaves_every_listing_and_export() {
    let repo = history();
    repo.autofix(&["export", "-t", "agents-md"]).expect(0);
    let before = repo.sandbox.read(RULES);
    let run = repo
        .autofix(&["retire", "2", "--why", "secrets moved to a vault"])
        .expect(0);
    assert!(
        run.stdout.starts_with(&format!(
            "Retired rule #2 with record #4: secrets moved to a vault — saved to {RULES}\n"
        )),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("exported copies refreshed: AGENTS.md"),
        "{}",
        run.stdout
    );
    // Appended, never deleted: the old text is a prefix of the new one but for its `]`.
    let after = repo.sandbox.read(RULES);
    let kept = before.trim_end().trim_end_matches(']').trim_end();
    assert!(after.starts_with(kept), "{after}");
    let record: Vec<Value> = serde_json::from_str(&after).unwrap();
    assert_eq!(record[3]["Retirement"], true);
    assert_eq!(
        record[3]["Why"],
        "retired: secrets moved to a vault (supersedes rule 2)"
    );
    let active = repo.json(&["rules", "--format", "json"]);
    let numbers: Vec<u64> = active["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["number"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, [1, 3]);
    assert_eq!(active["counts"]["retirements"], 1);
    assert_eq!(active["counts"]["retired"], 1);
    assert_eq!(active["counts"]["superseded"], 1);
    let headline = repo.autofix(&["rules"]).expect(0).stdout;
    assert!(
        headline.starts_with(&format!(
            "Rules from {RULES}: 2 active, 1 superseded (1 retired)."
        )),
        "{headline}"
    );
    let agents = repo.sandbox.read("AGENTS.md");
    assert!(!agents.contains("Never commit the .env file"), "{agents}");
    assert!(!agents.contains("Stop following rule 2"), "{agents}");
    repo.autofix(&["export", "--check"]).expect(0);
    let all = repo.autofix(&["rules", "--all"]).expect(0).stdout;
    assert!(
        all.contains(&format!("2 [TOOL] {ENV} — pref [retired by 4]")),
        "{all}"
    );
    assert!(all.contains("[retirement record]"), "{all}");
    let shown = repo.json(&["rules", "2", "--format", "json"]);
    assert_eq!(shown["superseded_by"][0]["retirement"], true);
    let record = repo.autofix(&["rules", "4"]).expect(0).stdout;
    assert!(record.contains(": a retirement record\n"), "{record}");
    assert!(
        record.contains(&format!("  retires: 2 [TOOL] {ENV}\n")),
        "{record}"
    );
    let all_json = repo.json(&["rules", "--all", "--format", "json"]);
    assert_eq!(all_json["rules"][1]["retired"], true);
    assert_eq!(all_json["rules"][3]["retirement"], true);
    assert_eq!(all_json["rules"][3]["active"], false);
    assert!(all_json["rules"][0].get("retired").is_none());
    assert!(
        repo.autofix(&["rules", "2"])
            .expect(0)
            .stdout
            .contains(": retired\n")
    );
    // The record is no rule: `check` lints nothing in it (the one warning is rule 3's
    // `src/api/`, a folder this repository does not have).
    let check = repo.autofix(&["check"]).expect(0).stdout;
    assert!(check.contains("0 errors, 1 warning"), "{check}");
    assert!(check.contains("warning[stale-path]: rule 3:"), "{check}");
}

#[test]
fn retire_refuses_what_it_cannot_retire_and_writes_nothing() {
    let repo = history();
    repo.autofix(&["retire", "2", "--why", "secrets moved to a vault"])
        .expect(0);
    let after = repo.sandbox.read(RULES);
    // Refusals write nothing.
    for (args, message) in [
        (&["retire", "2", "--why", "again"][..], "already superseded"),
        (
            &["retire", "4", "--why", "x"][..],
            "is a record (a retirement, or two rules distinct), not a rule",
        ),
        (&["retire", "7", "--why", "x"][..], "no rule 7"),
        (&["retire", "1", "--why", "  "][..], "the reason is empty"),
    ] {
        let refused = repo.autofix(args).expect_noisy(2);
        assert!(
            refused.stderr.contains(message),
            "{args:?}: {}",
            refused.stderr
        );
    }
    assert_eq!(repo.sandbox.read(RULES), after);
    let dry = repo.json(&[
        "retire",
        "1",
        "--why",
        "bun now",
        "--dry-run",
        "--format",
        "json",
    ]);
    assert_eq!(dry["status"], "dry_run");
    assert_eq!(dry["record"]["Rule_number"], 5);
    assert_eq!(repo.sandbox.read(RULES), after);
}

#[test]
fn the_merge_driver_keeps_a_retirement_like_any_rule() {
    let repo = history();
    repo.commit("Ana", "2026-11-04T10:00:00Z", "learn api");
    let driver = format!(
        "'{BIN}' merge-driver --marker-size %L --base-label %S --ours-label %X --theirs-label %Y %O %A %B %P"
    );
    repo.git(&["config", "merge.autofix.driver", &driver], None)
        .expect(0);
    repo.sandbox
        .write(".gitattributes", format!("{RULES} merge=autofix\n"));
    repo.commit("Ana", "2026-11-04T10:01:00Z", "driver");
    repo.git(&["checkout", "-q", "-b", "retire"], None)
        .expect(0);
    repo.autofix(&["retire", "2", "--why", "vault"]).expect(0);
    repo.commit("Bo", "2026-11-05T10:00:00Z", "retire 2");
    repo.git(&["checkout", "-q", "main"], None).expect(0);
    repo.learn(
        "code",
        "Always name files in kebab-case - because imports stay predictable.",
    );
    repo.commit("Ana", "2026-11-05T11:00:00Z", "learn kebab");
    repo.git(&["merge", "-q", "--no-edit", "retire"], None)
        .expect_noisy(0);
    let merged: Vec<Value> = serde_json::from_str(&repo.sandbox.read(RULES)).unwrap();
    let record = merged
        .iter()
        .find(|r| r["Retirement"] == true)
        .expect("the record is kept");
    assert_eq!(record["Rule_number"], 5);
    let active = repo.json(&["rules", "--format", "json"]);
    let numbers: Vec<u64> = active["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["number"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, [1, 3, 4]);
    // The record keeps its author: Bo's commit on the branch, not the merge.
    let shown = repo.json(&["rules", "2", "--format", "json"]);
    assert_eq!(shown["superseded_by"][0]["provenance"]["author"], "Bo");
}

/// The history of `ledger_repo`: rule 1 committed on Nov 2, rule 2 on Nov 3 and retired on
/// Nov 10; the transcript's corrections fall before, during and after.
fn ledger_repo() -> Repo {
    let repo = Repo::new();
    repo.learn("tool", PNPM);
    repo.commit("Ana", "2026-11-02T10:00:00Z", "learn pnpm");
    repo.learn("tool", SECRETS);
    repo.commit("Bo", "2026-11-03T10:00:00Z", "learn secrets");
    repo.autofix(&["retire", "2", "--why", "secrets moved to a vault"])
        .expect(0);
    repo.commit("Bo", "2026-11-10T10:00:00Z", "retire secrets");
    let root = repo.sandbox.path().to_str().unwrap().to_string();
    let folder: String = root
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    repo.sandbox.write(
        format!("home/.claude/projects/{folder}/ledger-1.jsonl"),
        include_str!("../fixtures/ledger/claude.jsonl").replace("{ROOT}", &root),
    );
    repo
}

#[test]
fn the_ledger_counts_the_corrections_a_rule_did_not_prevent() {
    let repo = ledger_repo();
    let ledger = repo.json(&["ledger", "--format", "json"]);
    let figure = &ledger["figure"];
    // Six prompts, five corrections ("Add a health check endpoint" is none).
    assert_eq!(figure["corrections"], 5, "{ledger}");
    // Repeats: the pnpm correction of Nov 5 (rule 1 since Nov 2) and the secrets one of
    // Nov 6 (rule 2 from Nov 3 to Nov 10). Not the pnpm one of Nov 1 (before rule 1),
    // nor the secrets one of Nov 12 (rule 2 was retired), nor the unmatched one.
    assert_eq!(figure["repeats"], 2, "{ledger}");
    assert_eq!(figure["repeat_rate"], 0.4);
    assert_eq!(figure["from"], "2026-11-01T09:00:00.000Z");
    assert_eq!(figure["to"], "2026-11-12T10:00:00.000Z");
    assert_eq!(figure["committed_rules"], 2);
    assert_eq!(figure["rules_repeated"], 2);
    let rules = ledger["rules"].as_array().unwrap();
    let rule = |n: u64| rules.iter().find(|r| r["number"] == n).unwrap();
    assert_eq!(rule(1)["provenance"]["date"], "2026-11-02T10:00:00Z");
    assert_eq!(rule(1)["repeats"][0]["time"], "2026-11-05T10:00:00.000Z");
    assert_eq!(
        rule(1)["repeats"][0]["text"],
        "No, use pnpm to install packages, not npm."
    );
    assert_eq!(rule(1)["repeats"][0]["agent"], "claude");
    assert_eq!(rule(1)["repeats"][0]["session"], "ledger-1");
    assert_eq!(rule(2)["until"], "2026-11-10T10:00:00Z");
    assert_eq!(rule(2)["repeats"].as_array().unwrap().len(), 1);
    assert_eq!(
        rule(2)["repeats"][0]["text"],
        "I told you: never commit secrets to the repository"
    );
    // The record is no rule of the ledger.
    assert!(rules.iter().all(|r| r["number"] != 3));
    let text = repo.autofix(&["ledger"]).expect(0).stdout;
    assert!(text.contains("Corrections captured: 5\nRepeats of a rule already learned: 2 (40.0%)\nRules that did not hold: 2 of 2 committed\n"), "{text}");
    assert!(text.contains("  repeated 1 time since:\n    2026-11-05T10:00:00.000Z  claude  session ledger-1  (tool)  > No, use pnpm to install packages, not npm.\n"), "{text}");
}

/// The ledger (text, JSON and its page) and `reflect` (text and JSON) whole, as people and
/// programs read them, on the history of `ledger_repo`.
#[test]
fn the_ledger_and_reflect_in_every_format() {
    let repo = ledger_repo();
    // Claude Code's folder of the sandbox's sessions: its path with `-` for each other
    // character.
    let folder: String = (repo.sandbox.path().display().to_string().chars())
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    for (name, args) in [
        ("ledger_text", &["ledger"][..]),
        ("ledger_json", &["ledger", "--format", "json"]),
        ("ledger_html", &["ledger", "--html", "-"]),
        ("reflect_text", &["reflect"]),
        ("reflect_json", &["reflect", "--format", "json"]),
    ] {
        let run = repo.autofix(args);
        let mut shown = crate::snapshots::shown(&repo.sandbox, &run).replace(&folder, "[folder]");
        // The page says when it was written (a UTC time of 20 characters).
        if let Some(at) = shown.find("--html</code> on ") {
            let time = at + "--html</code> on ".len();
            shown.replace_range(time..time + 20, "[time]");
        }
        insta::assert_snapshot!(name, shown);
    }
}

#[test]
fn the_ledger_since_a_date_counts_that_period_only() {
    let repo = ledger_repo();
    let ledger = repo.json(&["ledger", "--since", "2026-11-06", "--format", "json"]);
    assert_eq!(ledger["since"], "2026-11-06");
    assert_eq!(ledger["figure"]["corrections"], 3, "{ledger}");
    assert_eq!(ledger["figure"]["repeats"], 1, "{ledger}");
    assert_eq!(ledger["figure"]["repeat_rate"], 0.333);
    // Another agent's sessions only: none here.
    let codex = repo.json(&["ledger", "--agent", "codex", "--format", "json"]);
    assert_eq!(codex["figure"]["corrections"], 0, "{codex}");
    assert_eq!(codex["searched"].as_array().unwrap().len(), 1);
    let bad = repo
        .autofix(&["ledger", "--since", "last week"])
        .expect_noisy(2);
    assert!(bad.stderr.contains("expected YYYY-MM-DD"), "{}", bad.stderr);
}

#[test]
fn reflect_calls_a_correction_a_repeat_only_after_its_rule_was_committed() {
    let repo = ledger_repo();
    // The same correction typed on Nov 1, before rule 1 was committed (Nov 2), and Nov 5.
    let root = repo.sandbox.path().to_str().unwrap().to_string();
    let folder: String = root
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let line = |uuid: &str, time: &str| {
        serde_json::json!({"type": "user", "cwd": root, "sessionId": "twice", "uuid": uuid,
            "timestamp": time, "userType": "external",
            "message": {"role": "user", "content": "No, use pnpm to install packages, not npm."}})
        .to_string()
    };
    repo.sandbox.write(
        format!("home/.claude/projects/{folder}/ledger-1.jsonl"),
        format!(
            "{}\n{}\n",
            line("t1", "2026-11-01T08:00:00.000Z"),
            line("t2", "2026-11-05T08:00:00.000Z")
        ),
    );
    let report = repo.json(&["reflect", "--format", "json"]);
    let times = |list: &str| -> Vec<String> {
        report[list]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["time"].as_str().unwrap().to_string())
            .collect()
    };
    // Nov 5 repeats rule 1; Nov 1 is the correction it was learned from: neither a repeat
    // nor still to learn.
    assert_eq!(times("repeats"), ["2026-11-05T08:00:00.000Z"], "{report}");
    assert_eq!(times("candidates"), Vec::<String>::new(), "{report}");
}

#[test]
fn the_ledger_without_history_or_transcripts_says_so() {
    let sandbox = Sandbox::new();
    sandbox
        .run(&["learn", "-c", "tool", "-w", "pref", PNPM])
        .expect(0);
    let run = sandbox.run(&["ledger"]).expect(0);
    assert!(
        run.stdout.contains("no corrections found"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("no git history here"), "{}", run.stdout);
    assert!(
        run.stdout.contains("Corrections captured: 0\n"),
        "{}",
        run.stdout
    );
}

#[test]
fn check_warns_of_a_rule_whose_path_is_gone() {
    let repo = Repo::new();
    repo.sandbox.write("src/routes/users.rs", "");
    repo.sandbox
        .write(".gitignore", "home/\n*.lock\nsecrets.json\n");
    for (category, instruction) in [
        (
            "arch",
            "Always keep the handlers in `src/api/` - because the router loads them there.",
        ),
        (
            "arch",
            "Always keep the routes in `src/routes/` - because the web server mounts them.",
        ),
        (
            "tool",
            "Always list settings in `config/*.toml` - because the loader reads them.",
        ),
        (
            "tool",
            "Never commit `secrets.json` - because it holds keys.",
        ),
        (
            "tool",
            "Always run `cargo fmt` before committing - because CI checks it.",
        ),
        (
            "code",
            "Always add a test to `src/routes/users.rs` - because routes regress.",
        ),
    ] {
        repo.learn(category, instruction);
    }
    repo.commit("Ana", "2026-11-02T10:00:00Z", "rules");
    // On disk but not committed yet: not stale.
    repo.sandbox.write("notes/plan.md", "");
    repo.learn(
        "process",
        "Always update `notes/plan.md` - because the team reads it.",
    );
    // A superseded rule's path is history.
    repo.autofix(&[
        "learn",
        "-c",
        "arch",
        "-w",
        "moved",
        "--supersedes",
        "1",
        "Always keep each handler beside its route - because the router moved.",
    ])
    .expect(0);
    // Scoped rules: one whose glob matches now, one whose glob never matched (a typo).
    for (glob, instruction) in [
        (
            "src/routes/**",
            "Always validate the input of a route - because of injection.",
        ),
        ("scr/**", "Always log the request id - because of tracing."),
    ] {
        repo.autofix(&[
            "learn",
            "-c",
            "code",
            "-w",
            "pref",
            "--path",
            glob,
            instruction,
        ])
        .expect(0);
    }
    let codes = |report: &Value, code: &str| -> Vec<(String, String)> {
        report["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["code"] == code)
            .map(|d| {
                (
                    d["pointer"].as_str().unwrap().to_string(),
                    d["message"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    let run = repo.autofix(&["check", "--format", "json"]).expect(0);
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    let stale = codes(&report, "stale-path");
    assert_eq!(stale.len(), 1, "{stale:?}");
    assert_eq!(stale[0].0, "/2/Instruction");
    assert_eq!(
        stale[0].1,
        "rule 3: path `config/*.toml` matches nothing in the repository (no file git tracks, nothing in the work tree)"
    );
    let unmatched = codes(&report, "unmatched-scope");
    assert_eq!(unmatched.len(), 1, "{unmatched:?}");
    assert_eq!(unmatched[0].0, "/9/Paths/0");
    // Retire the rule, then remove a folder: the rules that name it, in their text or in
    // their scope, are stale; the glob that never matched stays unmatched-scope.
    repo.autofix(&["retire", "3", "--why", "settings moved to the environment"])
        .expect(0);
    repo.git(&["rm", "-q", "-r", "src/routes"], None).expect(0);
    let run = repo.autofix(&["check", "--format", "json"]).expect(0);
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    let stale = codes(&report, "stale-path");
    let pointers: Vec<&str> = stale.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        pointers,
        ["/1/Instruction", "/5/Instruction", "/8/Paths/0"],
        "{stale:?}"
    );
    assert_eq!(
        stale[2].1,
        "rule 9: scope glob `src/routes/**` matches nothing in the repository any more: it matched `src/routes/users.rs` in an earlier commit"
    );
    assert!(
        stale[1].1.starts_with(
            "rule 6: path `src/routes/users.rs` matches nothing in the repository any more"
        ),
        "{stale:?}"
    );
    let unmatched = codes(&report, "unmatched-scope");
    let pointers: Vec<&str> = unmatched.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(pointers, ["/9/Paths/0"], "{unmatched:?}");
    let text = repo.autofix(&["check"]).expect(0).stdout;
    assert!(
        text.contains("warning[stale-path]: rule 2: path `src/routes/` matches nothing in the repository any more"),
        "{text}"
    );
    assert!(!text.contains("config/*.toml"), "{text}");
    assert!(!text.contains("secrets.json"), "{text}");
    let sarif = repo
        .autofix(&["check", "--format", "sarif"])
        .expect(0)
        .stdout;
    assert!(sarif.contains("\"ruleId\": \"stale-path\""), "{sarif}");
    let explained = repo.autofix(&["explain", "stale-path"]).expect(0).stdout;
    assert!(
        explained.contains("matches nothing in the repository"),
        "{explained}"
    );
}

const LOGS: &str = "Never call `console.log` in src - because logs leak user data.";
const DEBUGGER: &str = "Never leave a `debugger` statement in src - because it halts the app.";

/// `ledger_repo` with rule 4, forbidding `console.log` in `src/**`, committed on Nov 4;
/// rule 5, forbidding `debugger`, learned and not committed; two receipts of rule 4 from
/// Nov 8 and 9 (as the after-edit hook writes them) and a line that is none; then breaks
/// caught for real: by the after-edit hook (twice the same, counted once) and by
/// `enforce --staged` (the pre-commit hook's run), not by `enforce --base` once committed.
fn caught_repo() -> Repo {
    let repo = ledger_repo();
    let learn_check = |regex: &str, instruction: &str| {
        repo.autofix(&[
            "learn",
            "-c",
            "code",
            "-w",
            "bug lesson",
            "--path",
            "src/**",
            "--check",
            regex,
            instruction,
        ])
        .expect(0);
    };
    learn_check("console\\.log", LOGS);
    repo.sandbox.write("src/app.ts", "const a = 1;\n");
    repo.commit("Cy", "2026-11-04T10:00:00Z", "learn logs");
    learn_check("debugger", DEBUGGER);
    let earlier = |time: &str, key: &str| {
        format!(
            "{{\"time\":\"{time}\",\"via\":\"edit\",\"rule\":4,\"instruction\":{},\"file\":\"src/app.ts\",\"line\":2,\"key\":\"{key}\"}}\n",
            serde_json::to_string(LOGS).unwrap()
        )
    };
    repo.sandbox.write(
        ".git/autofix/receipts.jsonl",
        format!(
            "{}not a receipt\n{}",
            earlier("2026-11-08T10:00:00Z", "a1"),
            earlier("2026-11-09T09:30:00Z", "a2")
        ),
    );
    let content = "const a = 1;\nconsole.log(a);\ndebugger;\n";
    repo.sandbox.write("src/app.ts", content);
    let payload = serde_json::json!({
        "session_id": "s1",
        "cwd": repo.sandbox.path(),
        "hook_event_name": "PostToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": repo.sandbox.join("src/app.ts"), "content": content},
    })
    .to_string();
    for _ in 0..2 {
        let run = repo
            .sandbox
            .run_with_stdin(&["hook", "post-tool", "--agent", "claude"], &payload)
            .expect(0);
        assert!(run.stdout.contains("breaks rule 5"), "{}", run.stdout);
    }
    repo.sandbox
        .write("src/app.ts", format!("{content}console.log(\"b\");\n"));
    repo.git(&["add", "src/app.ts"], None).expect(0);
    repo.autofix(&["enforce", "--staged"]).expect(1);
    // Committed, the same breaks are seen again by `--base` (CI's run): no receipt.
    repo.git(
        &["commit", "-q", "-m", "app"],
        Some(("Cy", "2026-11-20T10:00:00Z")),
    )
    .expect(0);
    let base = repo.autofix(&["enforce", "--base", "HEAD~1"]).expect(1);
    assert!(base.stdout.contains("3 violations"), "{}", base.stdout);
    repo
}

#[test]
fn the_ledger_counts_the_breaks_caught_before_the_user_saw_them() {
    let repo = caught_repo();
    let receipts = repo.sandbox.read(".git/autofix/receipts.jsonl");
    // Two earlier, the hook's two (once, though it ran twice), the staged run's new line.
    assert_eq!(receipts.lines().count(), 3 + 3, "{receipts}");
    assert!(
        receipts
            .lines()
            .last()
            .unwrap()
            .contains("\"via\":\"staged\""),
        "{receipts}"
    );
    let ledger = repo.json(&["ledger", "--format", "json"]);
    let figure = &ledger["figure"];
    assert_eq!(figure["repeats"], 2, "{ledger}");
    assert_eq!(figure["catches"], 5, "{ledger}");
    assert_eq!(figure["rules_caught"], 2, "{ledger}");
    assert_eq!(figure["caught_first"], 0.714, "{ledger}");
    let rules = ledger["rules"].as_array().unwrap();
    let rule = |n: u64| rules.iter().find(|r| r["number"] == n).unwrap();
    let vias: Vec<&str> = rule(4)["catches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["via"].as_str().unwrap())
        .collect();
    assert_eq!(vias, ["edit", "edit", "edit", "staged"], "{ledger}");
    assert_eq!(rule(4)["catches"][3]["line"], 4);
    assert_eq!(rule(4)["catches"][0]["time"], "2026-11-08T10:00:00Z");
    // Rule 5 is not committed: no repeat can count for it, but its catch does.
    assert_eq!(rule(5)["provenance"]["status"], "uncommitted");
    assert_eq!(rule(5)["catches"][0]["file"], "src/app.ts");
    assert_eq!(rule(5)["catches"][0]["line"], 3);
    // The timeline: one period a day from the first correction to today's catches.
    assert_eq!(ledger["timeline"]["unit"], "day");
    let periods = ledger["timeline"]["periods"].as_array().unwrap();
    assert_eq!(periods[0]["start"], "2026-11-01");
    let on = |day: &str| periods.iter().find(|p| p["start"] == day).unwrap().clone();
    assert_eq!(on("2026-11-05")["repeats"], 1);
    assert_eq!(on("2026-11-08")["catches"], 1);
    assert_eq!(periods.last().unwrap()["catches"], 3);
    let text = repo.autofix(&["ledger"]).expect(0).stdout;
    assert!(
        text.contains("Breaks caught by a check before the user saw them: 5\nRule breaks caught first: 5 of 7 (71.4%)\n"),
        "{text}"
    );
    assert!(
        text.contains("  caught 4 times before the user saw it:\n    2026-11-08T10:00:00Z  edit       src/app.ts:2\n"),
        "{text}"
    );
    // Since Nov 9: the earlier receipt of Nov 8 is out of the period.
    let since = repo.json(&["ledger", "--since", "2026-11-09", "--format", "json"]);
    assert_eq!(since["figure"]["catches"], 4, "{since}");
}

#[test]
fn html_dash_prints_the_page_alone_and_writes_no_file_named_dash() {
    let repo = ledger_repo();
    repo.autofix(&["ledger", "--html", "ledger.html"])
        .expect_noisy(0);
    let written = repo.sandbox.read("ledger.html");
    let run = repo.autofix(&["ledger", "--html", "-"]).expect(0);
    assert_eq!(
        run.stdout, written,
        "the page on stdout is the page --html FILE writes"
    );
    assert!(run.stdout.starts_with("<!DOCTYPE html>"), "{}", run.stdout);
    assert!(
        !repo.sandbox.join("-").exists(),
        "a file named - was written"
    );
}

#[test]
fn a_stray_old_date_folds_into_earlier_and_the_timeline_stays_bounded() {
    // `ledger_repo`'s corrections are of Nov 1 to 12, 2026; one receipt of rule 1 is
    // dated 0001-01-01 (a broken clock): a week a period from then would be ~105,000.
    let repo = ledger_repo();
    repo.sandbox.write(
        ".git/autofix/receipts.jsonl",
        format!(
            "{{\"time\":\"0001-01-01T00:00:00Z\",\"via\":\"edit\",\"rule\":1,\"instruction\":{},\"file\":\"package.json\",\"line\":1,\"key\":\"old\"}}\n",
            serde_json::to_string(PNPM).unwrap()
        ),
    );
    let run = repo
        .autofix(&["ledger", "--html", "ledger.html", "--format", "json"])
        .expect_noisy(0);
    let ledger: Value = serde_json::from_str(&run.stdout).unwrap();
    // Still counted in the totals.
    assert_eq!(ledger["figure"]["catches"], 1, "{ledger}");
    assert_eq!(ledger["figure"]["corrections"], 5, "{ledger}");
    let timeline = &ledger["timeline"];
    assert_eq!(timeline["unit"], "week");
    let periods = timeline["periods"].as_array().unwrap();
    // Two years of weeks, to the week of Nov 9, 2026.
    assert_eq!(periods.len(), 104);
    assert_eq!(periods[0]["start"], "2024-11-18");
    assert_eq!(periods[103]["start"], "2026-11-09");
    let charted = |field: &str| -> u64 { periods.iter().map(|p| p[field].as_u64().unwrap()).sum() };
    assert_eq!((charted("corrections"), charted("catches")), (5, 0));
    let earlier = &timeline["earlier"];
    assert_eq!(earlier["before"], "2024-11-18", "{timeline}");
    assert_eq!(
        (earlier["corrections"].as_u64(), earlier["catches"].as_u64()),
        (Some(0), Some(1))
    );
    let html = repo.sandbox.read("ledger.html");
    assert_eq!(html.matches("<g class=\"period\"").count(), 104);
    assert!(
        html.contains("; 0 corrections and 1 catch before 2024-11-18, counted but not charted."),
        "{html}"
    );
    // A normal span has no `earlier`.
    let normal = ledger_repo().json(&["ledger", "--format", "json"]);
    assert!(normal["timeline"].get("earlier").is_none(), "{normal}");
}

/// Chromium, as `.ci/run` installs it from Debian's packages (`AUTOFIX_CHROMIUM`, else
/// `/usr/bin/chromium`), if it starts.
fn chromium() -> Option<std::path::PathBuf> {
    let path = std::env::var_os("AUTOFIX_CHROMIUM")
        .map_or_else(|| "/usr/bin/chromium".into(), std::path::PathBuf::from);
    let works = std::process::Command::new(&path)
        .arg("--version")
        .output()
        .is_ok_and(|out| out.status.success());
    works.then_some(path)
}

/// Runs headless Chromium on `page` with `what` (`--dump-dom`, `--screenshot=…`): no
/// sandbox (tests may run as root), no network, a fresh profile.
fn headless(
    chromium: &std::path::Path,
    profile: &std::path::Path,
    what: &[&str],
    page: &std::path::Path,
) -> String {
    let out = std::process::Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(what)
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn the_ledger_page_renders_its_charts_and_ranked_rules_in_a_browser() {
    let Some(chromium) = chromium() else {
        return crate::support::skip(
            "chromium",
            "the ledger page is checked in a headless browser",
        );
    };
    let repo = caught_repo();
    let run = repo
        .autofix(&["ledger", "--html", "ledger.html", "--format", "json"])
        .expect_noisy(0);
    assert!(
        run.stderr.contains("Ledger page written to ledger.html"),
        "{}",
        run.stderr
    );
    let ledger: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(ledger["figure"]["catches"], 5);
    let page = repo.sandbox.join("ledger.html");
    let html = repo.sandbox.read("ledger.html");
    // Self-contained: nothing is fetched, nothing runs.
    for outside in ["<script", "src=\"http", "href=\"http", "@import", "url("] {
        assert!(!html.contains(outside), "{outside} in the page");
    }
    let profile = repo.sandbox.join("chromium-profile");
    let dom = headless(&chromium, &profile, &["--dump-dom"], &page);
    // The figures of that ledger run, as the browser has them.
    assert!(
        dom.contains("<div class=\"card\" id=\"caught-first\"><div class=\"value\">71%</div>"),
        "{dom}"
    );
    assert!(
        dom.contains("<div class=\"card\" id=\"repeat-rate\"><div class=\"value\">40%</div>"),
        "{dom}"
    );
    // The chart: a bar pair per day, Nov 1 to today, with that day's catches and repeats.
    let chart = &dom[dom
        .find("<svg class=\"chart\" id=\"breaks-chart\"")
        .expect("the chart")..];
    let chart = &chart[..chart.find("</svg>").unwrap()];
    let periods = ledger["timeline"]["periods"].as_array().unwrap();
    assert_eq!(chart.matches("<g class=\"period\"").count(), periods.len());
    assert_eq!(chart.matches("<rect ").count(), 2 * periods.len());
    assert!(
        chart.contains("data-start=\"2026-11-08\" data-catches=\"1\" data-repeats=\"0\""),
        "{chart}"
    );
    assert!(
        chart.contains("data-start=\"2026-11-05\" data-catches=\"0\" data-repeats=\"1\""),
        "{chart}"
    );
    assert!(
        dom.contains("<svg class=\"chart\" id=\"rate-chart\""),
        "{dom}"
    );
    // The rules ranked: by catches rule 4 (four) then rule 5 (one); by repeats rules 1, 2.
    let ranked = |id: &str| -> Vec<(String, String)> {
        let section = &dom[dom.find(&format!("<section id=\"{id}\">")).unwrap()..];
        let section = &section[..section.find("</section>").unwrap()];
        section
            .split("<tr class=\"rule\" data-rule=\"")
            .skip(1)
            .map(|row| {
                let id = row[..row.find('"').unwrap()].to_string();
                let count = row.rsplit("<td class=\"n\">").next().unwrap();
                (id, count[..count.find('<').unwrap()].to_string())
            })
            .collect()
    };
    let pairs = |list: &[(&str, &str)]| -> Vec<(String, String)> {
        list.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    };
    assert_eq!(ranked("by-catches"), pairs(&[("4", "4"), ("5", "1")]));
    assert_eq!(ranked("by-repeats"), pairs(&[("1", "1"), ("2", "1")]));
    assert!(
        dom.contains("Never call `console.log` in src - because logs leak user data."),
        "{dom}"
    );
    // And it paints: a screenshot, kept beside the test binary's files for a person to see.
    let shot = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("ledger-page.png");
    let _ = std::fs::remove_file(&shot);
    headless(
        &chromium,
        &profile,
        &[
            &format!("--screenshot={}", shot.display()),
            "--window-size=1100,1500",
        ],
        &page,
    );
    let png = std::fs::read(&shot).unwrap();
    assert_eq!(&png[1..4], b"PNG");
}
