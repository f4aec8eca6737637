//! The one judgment of a text against the rules, through every caller: one table of
//! (rules, text, verdict) rows, each asked of `learn --dry-run`, the MCP `learn` tool,
//! `check` (the text learned as the newest rule), `reflect` and `ledger` (the text typed
//! in a Claude Code session after the rules were committed), and the same verdict
//! required of each. Then the frozen held-out pairs, measured through `learn`. The prompt
//! hook asks the sentence model instead, and judges nothing (`meaning.rs`).

use serde_json::{Value, json};

use crate::support::{Sandbox, hermetic_git};

const RULES: &str = ".agents/autofix.json";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    Repeats(u64),
    Reverses(u64),
    New,
}

use Verdict::{New, Repeats, Reverses};

/// The table: the rules of a file, a correction typed later, the verdict.
const TABLE: &[(&[&str], &str, Verdict)] = &[
    (
        &["Always use `rg` instead of `grep` in scripts."],
        "No, we use ripgrep in our scripts, not grep.",
        Repeats(1),
    ),
    (
        &[
            "Always use Playwright for end-to-end tests.",
            "Always run the linter before pushing.",
        ],
        "From now on, use Cypress for the end-to-end tests.",
        Reverses(1),
    ),
    (
        &["Never use default exports - because renames break."],
        "No, use named exports only.",
        Repeats(1),
    ),
    (
        &["Always use pnpm to install packages."],
        "I told you: never commit the .env file.",
        New,
    ),
    (
        &["Toujours écrire les textes de l'interface en français."],
        "Je te l'ai déjà dit : les textes de l'interface sont en français.",
        Repeats(1),
    ),
    (
        &["Never use default exports."],
        "From now on, default exports are fine, use them.",
        Reverses(1),
    ),
    (
        &[
            "Always run cargo fmt before committing.",
            "Never push directly to main.",
        ],
        "I told you: never push straight to main.",
        Repeats(2),
    ),
];

/// A git repository holding `rules` as rules 1, 2, … committed on 2026-11-02.
fn repo_with(rules: &[&str]) -> Sandbox {
    let sandbox = Sandbox::new();
    let objects: Vec<Value> = rules
        .iter()
        .enumerate()
        .map(|(i, text)| json!({"Rule_number": i + 1, "Category": "CODE", "Instruction": text, "Why": "w"}))
        .collect();
    sandbox.write(
        RULES,
        serde_json::to_string_pretty(&objects).unwrap() + "\n",
    );
    sandbox.write(".gitignore", "home/\n*.lock\n");
    for args in [
        &["init", "-q", "-b", "main"][..],
        &["add", "-A"],
        &["commit", "-q", "-m", "rules"],
    ] {
        let mut git = sandbox.program("git", args);
        hermetic_git(&mut git)
            .env("GIT_AUTHOR_NAME", "Ana")
            .env("GIT_AUTHOR_EMAIL", "ana@example.com")
            .env("GIT_AUTHOR_DATE", "2026-11-02T10:00:00Z")
            .env("GIT_COMMITTER_DATE", "2026-11-02T10:00:00Z");
        assert!(git.status().unwrap().success(), "git {args:?}");
    }
    sandbox
}

/// A sandbox holding `rules` as rules 1, 2, … (no repository).
fn rules_file<'a>(rules: impl Iterator<Item = &'a str>) -> Sandbox {
    let sandbox = Sandbox::new();
    let objects: Vec<Value> = rules
        .enumerate()
        .map(|(i, text)| json!({"Rule_number": i + 1, "Category": "CODE", "Instruction": text, "Why": "w"}))
        .collect();
    sandbox.write(RULES, serde_json::to_string(&objects).unwrap());
    sandbox
}

/// `text` typed in a Claude Code session of the sandbox on 2026-11-05.
fn type_in_a_session(sandbox: &Sandbox, text: &str) {
    let root = sandbox.path().to_str().unwrap().to_string();
    let folder: String = root
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let line = json!({"type": "user", "userType": "external", "cwd": root, "sessionId": "s1",
        "uuid": "u1", "timestamp": "2026-11-05T10:00:00.000Z",
        "message": {"role": "user", "content": text}});
    sandbox.write(
        format!("home/.claude/projects/{folder}/s1.jsonl"),
        format!("{line}\n"),
    );
}

fn from_match(found: &Value) -> Verdict {
    let rule = found["rule"].as_u64().unwrap();
    match found["kind"].as_str().unwrap() {
        "duplicate" => Repeats(rule),
        "contradiction" => Reverses(rule),
        other => panic!("kind {other}"),
    }
}

fn by_learn(sandbox: &Sandbox, text: &str) -> Verdict {
    let run = sandbox.run(&[
        "learn",
        "--dry-run",
        "-c",
        "code",
        "-w",
        "w",
        "--format",
        "json",
        text,
    ]);
    let output = run.json();
    match output["matches"].as_array().unwrap().first() {
        Some(found) => from_match(found),
        None => New,
    }
}

fn by_mcp(sandbox: &Sandbox, text: &str) -> Verdict {
    let arguments = json!({"category": "CODE", "instruction": text, "why": "w", "dry_run": true});
    let answer = crate::support::mcp_call(sandbox, "", "learn", arguments);
    match answer["result"]["structuredContent"]["matches"]
        .as_array()
        .unwrap()
        .first()
    {
        Some(found) => from_match(found),
        None => New,
    }
}

fn by_check(sandbox: &Sandbox, rules: usize, text: &str) -> Verdict {
    let mut document: Value = serde_json::from_str(&sandbox.read(RULES)).unwrap();
    let newest = rules as u64 + 1;
    document
        .as_array_mut()
        .unwrap()
        .push(json!({"Rule_number": newest, "Category": "CODE", "Instruction": text, "Why": "w"}));
    let checked = Sandbox::new();
    checked.write(RULES, serde_json::to_string_pretty(&document).unwrap());
    let report = checked.run(&["check", "--format", "json"]).json();
    let findings: Vec<&Value> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "similar-rules" || d["code"] == "conflicting-rules")
        .collect();
    let Some(finding) = findings.first() else {
        return New;
    };
    let message = finding["message"].as_str().unwrap();
    let rule = (1..=rules as u64)
        .find(|n| message.contains(&format!(" rule {n} \"")))
        .unwrap_or_else(|| panic!("{message}"));
    assert!(message.starts_with(&format!("rule {newest} ")), "{message}");
    if finding["code"] == "similar-rules" {
        Repeats(rule)
    } else {
        Reverses(rule)
    }
}

/// `reflect` names a repeat only; a reversal or a new rule is a correction to learn.
fn by_reflect(sandbox: &Sandbox) -> Option<u64> {
    let report = sandbox
        .run(&["reflect", "--format", "json"])
        .expect(0)
        .json();
    report["repeats"]
        .as_array()
        .unwrap()
        .first()
        .map(|r| r["rule"].as_u64().unwrap())
}

/// `ledger` credits a repeat to its rule, and nothing else.
fn by_ledger(sandbox: &Sandbox) -> Option<u64> {
    let ledger = sandbox
        .run(&["ledger", "--format", "json"])
        .expect(0)
        .json();
    let credited: Vec<u64> = ledger["rules"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| !r["repeats"].as_array().unwrap().is_empty())
        .map(|r| r["number"].as_u64().unwrap())
        .collect();
    assert_eq!(
        ledger["figure"]["repeats"].as_u64().unwrap() as usize,
        credited.len(),
        "{ledger}"
    );
    credited.first().copied()
}

#[test]
fn one_table_one_verdict_in_every_caller() {
    for &(rules, text, verdict) in TABLE {
        let sandbox = repo_with(rules);
        type_in_a_session(&sandbox, text);
        let repeated = match verdict {
            Repeats(n) => Some(n),
            _ => None,
        };
        let context = format!("{text:?} against {rules:?}");
        assert_eq!(by_learn(&sandbox, text), verdict, "learn: {context}");
        assert_eq!(by_mcp(&sandbox, text), verdict, "mcp learn: {context}");
        assert_eq!(
            by_check(&sandbox, rules.len(), text),
            verdict,
            "check: {context}"
        );
        assert_eq!(by_reflect(&sandbox), repeated, "reflect: {context}");
        assert_eq!(by_ledger(&sandbox), repeated, "ledger: {context}");
    }
}

/// What `learn --dry-run` makes of a set of held-out pairs, each asked in a rules file of
/// its own.
#[derive(Default)]
struct HeldOut {
    repeats_named: usize,
    repeats: usize,
    reversals_named: usize,
    reversals: usize,
    /// A wrong rule named, or a rule for a new text.
    wrong: usize,
    /// The right rule the wrong way round.
    wrong_way: usize,
    all: usize,
}

impl HeldOut {
    fn measure(name: &str, corpus: &str) -> HeldOut {
        let mut h = HeldOut::default();
        for line in corpus
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            let f: Vec<&str> = line.split('\t').collect();
            let sandbox = rules_file(f[2].split(" ¦ "));
            let got = by_learn(&sandbox, &f[3].replace("\\n", " "));
            let target = f[1].parse::<u64>().ok();
            h.all += 1;
            match (f[0], got) {
                ("repeat", Repeats(n)) if Some(n) == target => h.repeats_named += 1,
                ("reversal", Reverses(n)) if Some(n) == target => h.reversals_named += 1,
                (_, New) => {}
                (_, Repeats(n) | Reverses(n)) if Some(n) == target => h.wrong_way += 1,
                _ => h.wrong += 1,
            }
            h.repeats += usize::from(f[0] == "repeat");
            h.reversals += usize::from(f[0] == "reversal");
        }
        eprintln!(
            "{name}: repeats named {}/{}, reversals named {}/{}, a wrong rule {}/{}, the right rule the wrong way {}/{}",
            h.repeats_named,
            h.repeats,
            h.reversals_named,
            h.reversals,
            h.wrong,
            h.all,
            h.wrong_way,
            h.all
        );
        h
    }

    /// Holds the floors (and the ceilings of the wrong verdicts) given.
    fn holds(&self, repeats: f64, reversals: f64, wrong: f64, wrong_way: f64) {
        let share = |n: usize, of: usize| n as f64 / of as f64;
        assert!(
            share(self.repeats_named, self.repeats) >= repeats,
            "{}",
            self.repeats_named
        );
        assert!(
            share(self.reversals_named, self.reversals) >= reversals,
            "{}",
            self.reversals_named
        );
        assert!(share(self.wrong, self.all) <= wrong, "{}", self.wrong);
        assert!(
            share(self.wrong_way, self.all) <= wrong_way,
            "{}",
            self.wrong_way
        );
    }
}

/// The first frozen held-out pairs: the figures of src/docs/consistency.md, held a little
/// below what they measured (above, for the wrong verdicts; the wrong rules at the issue's
/// bound of 5%).
#[test]
fn the_judgment_over_the_frozen_held_out_pairs() {
    HeldOut::measure("held-out", include_str!("../fixtures/pairs/heldout.tsv"))
        .holds(0.48, 0.49, 0.05, 0.04);
}

/// The second frozen held-out pairs, written apart from the corpus and the matcher after
/// the first had been looked at too often, measured once by the ninth session's matcher
/// (124/289 repeats, 73/165 reversals, 7/845 wrong rules, 44/845 the wrong way) and a
/// second time by the tenth's (125, 74, 7, 44): held a little below that, the wrong rules
/// at the bound.
#[test]
fn the_judgment_over_the_second_held_out_pairs() {
    HeldOut::measure("held-out 2", include_str!("../fixtures/pairs/heldout2.tsv"))
        .holds(0.42, 0.44, 0.05, 0.06);
}
