//! The one relation of a text to the rules, through every caller: one table of (rules,
//! text, answer) rows, each asked of `learn --dry-run`, the MCP `learn` tool, `check` (the
//! text learned as the newest rule), `reflect` and `ledger` (the text typed in a Claude
//! Code session after the rules were committed). The answer is the tool's own verdict
//! (the rule's words said again, or reversed) or the rule the sentence model finds nearest
//! for whoever judges, and each caller gives it as its form allows: `learn` refuses a
//! verdict and lists a near rule, `check` warns of a verdict and notes a near pair,
//! `reflect` names a repeat and shows a near rule (or the rule a reversal reverses) under
//! the candidate, `ledger` counts a repeat. Then the frozen held-out pairs of the older
//! matcher, the texts written as rules measured through `learn`.

use serde_json::{Value, json};

use crate::support::{Sandbox, hermetic_git};

const RULES: &str = ".agents/autofix.json";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Answer {
    Repeats(u64),
    Reverses(u64),
    Near(u64),
    New,
}

use Answer::{Near, New, Repeats, Reverses};

/// The table: the rules of a file, a text typed later, the answer.
const TABLE: &[(&[&str], &str, Answer)] = &[
    (
        &["Never push directly to main."],
        "No, never push directly to main!",
        Repeats(1),
    ),
    (
        &[
            "Always run cargo fmt before committing.",
            "Always use named exports.",
        ],
        "Never use `named exports`.",
        Reverses(2),
    ),
    (
        &["Always use `rg` instead of `grep` in scripts."],
        "No, we use ripgrep in our scripts, not grep.",
        Near(1),
    ),
    (
        &[
            "Always use Playwright for end-to-end tests.",
            "Always run the linter before pushing.",
        ],
        "From now on, use Cypress for the end-to-end tests.",
        Near(1),
    ),
    (
        &["Always use pnpm to install packages."],
        "I told you: never commit the .env file.",
        New,
    ),
    (
        &["Toujours écrire les textes de l'interface en français."],
        "Je te l'ai déjà dit : les textes de l'interface sont en français.",
        Near(1),
    ),
    (
        &["Never use default exports."],
        "From now on, default exports are fine, use them.",
        Near(1),
    ),
    (
        &[
            "Always run cargo fmt before committing.",
            "Never push directly to main.",
        ],
        "I told you: never push straight to main.",
        Near(2),
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

fn by_learn_json(output: &Value) -> Answer {
    let rule = |v: &Value| v["rule"].as_u64().unwrap();
    if let Some(found) = output["matches"].as_array().unwrap().first() {
        return match found["kind"].as_str().unwrap() {
            "duplicate" => Repeats(rule(found)),
            "contradiction" => Reverses(rule(found)),
            other => panic!("kind {other}"),
        };
    }
    output["near"]
        .as_array()
        .unwrap()
        .first()
        .map_or(New, |n| Near(rule(n)))
}

fn by_learn(sandbox: &Sandbox, text: &str) -> Answer {
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
    by_learn_json(&run.json())
}

fn by_mcp(sandbox: &Sandbox, text: &str) -> Answer {
    let arguments = json!({"category": "CODE", "instruction": text, "why": "w", "dry_run": true});
    let answer = crate::support::mcp_call(sandbox, "", "learn", arguments);
    by_learn_json(&answer["result"]["structuredContent"])
}

/// What `check` reports of each newer rule of `rules` (numbered from 1): by the newer
/// rule's number, the answer about the older one.
fn check_answers(sandbox: &Sandbox) -> Vec<(u64, Answer)> {
    let report = sandbox.run(&["check", "--format", "json"]).json();
    (report["diagnostics"].as_array().unwrap().iter())
        .filter_map(|d| {
            let kind: fn(u64) -> Answer = match d["code"].as_str()? {
                "similar-rules" => Repeats,
                "conflicting-rules" => Reverses,
                "near-rules" => Near,
                _ => return None,
            };
            let numbers: Vec<u64> = (d["message"].as_str()?.split("rule ").skip(1))
                .filter_map(|rest| rest.split(' ').next()?.parse().ok())
                .collect();
            let (newer, answer) = (numbers[0], kind(numbers[1]));
            Some((newer, answer))
        })
        .collect()
}

fn by_check(sandbox: &Sandbox, rules: usize, text: &str) -> Answer {
    let mut document: Value = serde_json::from_str(&sandbox.read(RULES)).unwrap();
    let newest = rules as u64 + 1;
    document
        .as_array_mut()
        .unwrap()
        .push(json!({"Rule_number": newest, "Category": "CODE", "Instruction": text, "Why": "w"}));
    let checked = Sandbox::new();
    checked.write(RULES, serde_json::to_string_pretty(&document).unwrap());
    (check_answers(&checked).into_iter())
        .find(|(newer, _)| *newer == newest)
        .map_or(New, |(_, answer)| answer)
}

/// `reflect` names a repeat; under a candidate, the rule near it (or the rule a reversal
/// reverses).
fn by_reflect(sandbox: &Sandbox) -> Answer {
    let report = sandbox
        .run(&["reflect", "--format", "json"])
        .expect(0)
        .json();
    if let Some(repeat) = report["repeats"].as_array().unwrap().first() {
        return Repeats(repeat["rule"].as_u64().unwrap());
    }
    (report["candidates"].as_array().unwrap().first())
        .and_then(|c| c["near"]["rule"].as_u64())
        .map_or(New, Near)
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
fn one_table_one_answer_in_every_caller() {
    for &(rules, text, answer) in TABLE {
        let sandbox = repo_with(rules);
        type_in_a_session(&sandbox, text);
        let context = format!("{text:?} against {rules:?}");
        assert_eq!(by_learn(&sandbox, text), answer, "learn: {context}");
        assert_eq!(by_mcp(&sandbox, text), answer, "mcp learn: {context}");
        assert_eq!(
            by_check(&sandbox, rules.len(), text),
            answer,
            "check: {context}"
        );
        // `reflect` reads what was typed as the hook does (the rules nearest a correction,
        // past the hook's floor): a new text may show a rule, never a repeat; a reversal
        // is a candidate shown beside the rule it changes.
        match (answer, by_reflect(&sandbox)) {
            (New, got) => assert!(!matches!(got, Repeats(_)), "reflect: {context}: {got:?}"),
            (Reverses(n), got) => assert_eq!(got, Near(n), "reflect: {context}"),
            (expected, got) => assert_eq!(got, expected, "reflect: {context}"),
        }
        let repeated = match answer {
            Repeats(n) => Some(n),
            _ => None,
        };
        assert_eq!(by_ledger(&sandbox), repeated, "ledger: {context}");
    }
}

/// What `learn --dry-run` makes of a set of held-out pairs whose text is written as a rule
/// (what `learn` is given; the prompts are the hook's, measured in `meaning.rs`), each
/// asked in a rules file of its own: the rule it refuses the text for, or those it lists
/// near.
#[derive(Default, Debug)]
struct HeldOut {
    /// Repeats and reversals, and those whose rule is refused for or listed.
    positives: usize,
    shown: usize,
    /// Of those, refused for (a verdict).
    verdicts: usize,
    /// A verdict naming another rule, or any rule for another text.
    wrong_verdicts: usize,
    /// Other texts (related and new rules), and those given any rule.
    others: usize,
    others_shown: usize,
}

impl HeldOut {
    fn measure(name: &str, corpus: &str) -> HeldOut {
        let mut h = HeldOut::default();
        let lines = (corpus.lines())
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .map(|l| l.split('\t').collect::<Vec<&str>>())
            .filter(|f| f[4] == "rule");
        for f in lines {
            let sandbox = Sandbox::new();
            let objects: Vec<Value> = (f[2].split(" ¦ ").enumerate())
                .map(|(i, text)| json!({"Rule_number": i + 1, "Category": "CODE", "Instruction": text, "Why": "w"}))
                .collect();
            sandbox.write(RULES, serde_json::to_string(&objects).unwrap());
            let run = sandbox.run(&[
                "learn",
                "--dry-run",
                "-c",
                "code",
                "-w",
                "w",
                "--format",
                "json",
                &f[3].replace("\\n", " "),
            ]);
            let output = run.json();
            let rule = |v: &Value| v["rule"].as_u64().unwrap();
            let verdict = output["matches"].as_array().unwrap().first().map(rule);
            let near: Vec<u64> = output["near"]
                .as_array()
                .unwrap()
                .iter()
                .map(rule)
                .collect();
            match f[1].parse::<u64>().ok() {
                Some(target) => {
                    h.positives += 1;
                    h.shown += usize::from(verdict == Some(target) || near.contains(&target));
                    h.verdicts += usize::from(verdict == Some(target));
                    h.wrong_verdicts += usize::from(verdict.is_some_and(|v| v != target));
                }
                None => {
                    h.others += 1;
                    h.others_shown += usize::from(verdict.is_some() || !near.is_empty());
                    h.wrong_verdicts += usize::from(verdict.is_some());
                }
            }
        }
        eprintln!("{name}: {h:?}");
        h
    }
}

/// The first frozen held-out pairs of the older matcher: held a little below what this
/// session measured (see src/docs/consistency.md).
#[test]
fn learn_over_the_frozen_held_out_pairs() {
    let h = HeldOut::measure("held-out", include_str!("../fixtures/pairs/heldout.tsv"));
    assert!(h.shown as f64 / h.positives as f64 >= HELD_OUT.0, "{h:?}");
    assert!(h.wrong_verdicts <= HELD_OUT.1, "{h:?}");
}

/// The second frozen held-out pairs, written apart from the corpus and the older matcher.
#[test]
fn learn_over_the_second_held_out_pairs() {
    let h = HeldOut::measure("held-out 2", include_str!("../fixtures/pairs/heldout2.tsv"));
    assert!(h.shown as f64 / h.positives as f64 >= HELD_OUT_2.0, "{h:?}");
    assert!(h.wrong_verdicts <= HELD_OUT_2.1, "{h:?}");
}

/// The share of repeats and reversals whose rule `learn` refuses the text for or lists
/// near, and the most wrong verdicts.
/// Measured once: 32 of 62 and 94 of 131 shown (none refused for), no wrong verdict;
/// a rule shown for 16 of 96 and 17 of 99 other texts.
const HELD_OUT: (f64, usize) = (0.48, 0);
const HELD_OUT_2: (f64, usize) = (0.68, 0);
