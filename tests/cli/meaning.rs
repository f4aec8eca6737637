//! The prompt hook over the frozen held-out corpus (`tests/fixtures/meaning/`, written
//! apart from the code and frozen before the gate was tuned): four realistic rules files
//! (three English, one French) and the prompts typed against them, each through the real
//! binary. What the targets ask of the hook: the right rule among those shown for a repeat
//! or a reversal, a note for a correction, no note for an ordinary request, and no false
//! verdict. The floors sit a little below what this session measured (the docs give the
//! figures: `src/docs/consistency.md`).

use serde_json::{Value, json};

use crate::support::{Sandbox, hermetic_git};

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/meaning");

/// What the hook told the agent of a prompt.
#[derive(Debug, PartialEq)]
enum Note {
    None,
    /// "the user says rule #N again, word for word".
    Verdict(u64),
    /// A correction, with the rules shown (maybe none).
    Shown(Vec<u64>),
}

/// A git repository holding the rules file of `rules` (`(number, text)`), so the rules'
/// vectors are kept between calls as a user's would be.
fn repo_with(rules: &[(u64, String)]) -> Sandbox {
    let sandbox = Sandbox::new();
    let file: Vec<Value> = (rules.iter())
        .map(|(n, text)| json!({"Rule_number": n, "Category": "CODE", "Instruction": text, "Why": "team"}))
        .collect();
    sandbox.write(
        ".agents/autofix.json",
        serde_json::to_string_pretty(&file).unwrap(),
    );
    let mut init = sandbox.program("git", &["init", "-q"]);
    assert!(hermetic_git(&mut init).status().unwrap().success());
    sandbox
}

fn note(sandbox: &Sandbox, prompt: &str) -> Note {
    let input = json!({"session_id": "s1", "cwd": sandbox.path().to_str().unwrap(),
        "hook_event_name": "UserPromptSubmit", "prompt": prompt})
    .to_string();
    let run = sandbox
        .run_with_stdin(&["hook", "user-prompt", "--agent", "claude"], &input)
        .expect(0);
    if run.stdout.trim().is_empty() {
        return Note::None;
    }
    let context = run.json()["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap()
        .to_string();
    let numbers_after = |text: &str| -> Vec<u64> {
        text.split("rule #")
            .skip(1)
            .filter_map(|rest| {
                rest.split(|c: char| !c.is_ascii_digit())
                    .next()?
                    .parse()
                    .ok()
            })
            .collect()
    };
    if context.contains("again, word for word") {
        return Note::Verdict(numbers_after(&context)[0]);
    }
    match context.split_once("The recorded rules nearest it: ") {
        Some((_, rest)) => Note::Shown(numbers_after(rest.split(". Judge").next().unwrap())),
        None => Note::Shown(Vec::new()),
    }
}

fn rules_of(file: &str) -> Vec<(u64, String)> {
    let text = std::fs::read_to_string(format!("{CORPUS}/files/{file}.json")).unwrap();
    let rules: Vec<Value> = serde_json::from_str(&text).unwrap();
    (rules.iter())
        .map(|r| {
            (
                r["n"].as_u64().unwrap(),
                r["text"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn prompts_of(file: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(format!("{CORPUS}/prompts/{file}.jsonl")).unwrap();
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Counts over one file's prompts.
#[derive(Default, Debug)]
struct Figures {
    /// Repeats and reversals; those whose rule was shown (or named by a verdict); those
    /// given a note at all.
    positives: usize,
    right: usize,
    positives_noted: usize,
    /// The same, for the prompts written in French.
    french: usize,
    french_right: usize,
    /// Corrections (repeats, reversals, new ones) and those given a note.
    corrections: usize,
    noticed: usize,
    /// Ordinary requests, those given a note, and false verdicts anywhere.
    ordinary: usize,
    ordinary_noted: usize,
    false_verdicts: usize,
}

/// The figures of `prompts` against `rules`, once the rules' vectors are all kept: a hook
/// call loads the model and reads rules within 0.6 s, so the first calls fill the cache a
/// part at a time, as a user's first prompts would, and what a call shows would depend on
/// the machine's speed until it is full.
fn measure(name: &str, rules: &[(u64, String)], prompts: &[Value]) -> Figures {
    let sandbox = repo_with(rules);
    let cache = sandbox.join(".git/autofix/vectors.bin");
    // The file's header, then a key and 384 f16 values a rule.
    let full = 8 + rules.len() as u64 * (16 + 384 * 2);
    for _ in 0..500 {
        if std::fs::metadata(&cache).is_ok_and(|m| m.len() >= full) {
            break;
        }
        assert_ne!(note(&sandbox, "No, don't do that again."), Note::None);
    }
    assert!(std::fs::metadata(&cache).unwrap().len() >= full);
    measure_in(&sandbox, name, rules, prompts)
}

fn measure_in(
    sandbox: &Sandbox,
    name: &str,
    rules: &[(u64, String)],
    prompts: &[Value],
) -> Figures {
    let mut f = Figures::default();
    for prompt in prompts {
        let note = note(sandbox, prompt["text"].as_str().unwrap());
        let label = prompt["label"].as_str().unwrap();
        let target = prompt["rule"].as_u64();
        let right = match (&note, target) {
            (Note::Verdict(n), Some(t)) => *n == t,
            (Note::Shown(shown), Some(t)) => shown.contains(&t),
            _ => false,
        };
        f.false_verdicts += usize::from(matches!(note, Note::Verdict(n) if Some(n) != target));
        if label == "ordinary" {
            f.ordinary += 1;
            f.ordinary_noted += usize::from(note != Note::None);
            continue;
        }
        f.corrections += 1;
        f.noticed += usize::from(note != Note::None);
        if target.is_some() {
            f.positives += 1;
            f.right += usize::from(right);
            f.positives_noted += usize::from(note != Note::None);
            if prompt["lang"] == "fr" {
                f.french += 1;
                f.french_right += usize::from(right);
            }
        }
    }
    eprintln!(
        "{name} ({} rules): right rule shown {}/{} ({} given a note), French {}/{}; corrections noticed {}/{}; ordinary requests given a note {}/{}; false verdicts {}",
        rules.len(),
        f.right,
        f.positives,
        f.positives_noted,
        f.french_right,
        f.french,
        f.noticed,
        f.corrections,
        f.ordinary_noted,
        f.ordinary,
        f.false_verdicts
    );
    f
}

/// Checks one file's figures against the floors: (right shown, corrections noticed,
/// ordinary noted at most).
fn hold(f: &Figures, right: f64, noticed: f64, ordinary: f64) {
    let share = |n: usize, of: usize| n as f64 / of.max(1) as f64;
    assert!(share(f.right, f.positives) >= right, "{f:?}");
    assert!(share(f.noticed, f.corrections) >= noticed, "{f:?}");
    assert!(share(f.ordinary_noted, f.ordinary) <= ordinary, "{f:?}");
    assert_eq!(f.false_verdicts, 0, "{f:?}");
}

/// One file of the corpus against its prompts, held to [`FLOORS`] (a test a file, so the
/// four run side by side).
fn held_out(file: &str) {
    let f = measure(file, &rules_of(file), &prompts_of(file));
    hold(&f, FLOORS.0, FLOORS.1, FLOORS.2);
}

#[test]
fn the_hook_over_the_held_out_web_file() {
    held_out("web");
}

#[test]
fn the_hook_over_the_held_out_cli_file() {
    held_out("cli");
}

#[test]
fn the_hook_over_the_held_out_data_file() {
    held_out("data");
}

#[test]
fn the_hook_over_the_held_out_french_file() {
    held_out("fr");
}

/// The web file padded to 1,000 rules with the corpus's filler rules: the repeats and
/// reversals only (the gate does not depend on the file's size).
#[test]
fn the_hook_over_the_held_out_web_file_at_1000_rules() {
    let mut rules = rules_of("web");
    let filler = std::fs::read_to_string(format!("{CORPUS}/filler.txt")).unwrap();
    let next = rules.len() as u64 + 1;
    rules.extend((next..).zip(filler.lines().map(str::to_string)));
    assert_eq!(rules.len(), 1000);
    let positives: Vec<Value> = (prompts_of("web").into_iter())
        .filter(|p| p["rule"].is_u64())
        .collect();
    let f = measure("web at 1,000 rules", &rules, &positives);
    hold(&f, FLOORS_AT_1000, 0.0, 1.0);
}

/// Right rule shown (of repeats and reversals), corrections noticed, ordinary requests
/// given a note (at most): a little below the figures measured since the classifier read
/// the styles sets (right rule 62-71%, noticed 66-76%, ordinary noted 3-9%; 63% at 1,000
/// rules). The targets are far above: the classifier's gate lets a quarter of the
/// corrections by.
const FLOORS: (f64, f64, f64) = (0.58, 0.62, 0.12);
const FLOORS_AT_1000: f64 = 0.58;

/// The rules' vectors kept under `.git/autofix/`: a damaged file is read as empty and
/// written anew, an edited rule is read again (a vector is keyed by its text), and git
/// never sees the file.
#[test]
fn the_kept_vectors_are_rebuilt_when_damaged_and_never_stale() {
    let rules = [
        (1, "Never push directly to main".to_string()),
        (2, "Always use named exports".to_string()),
    ];
    let sandbox = repo_with(&rules);
    let cache = sandbox.join(".git/autofix/vectors.bin");
    let correction = "No, changes to main go through a pull request.";
    assert!(matches!(note(&sandbox, correction), Note::Shown(s) if s.first() == Some(&1)));
    let kept = std::fs::read(&cache).unwrap();
    assert!(kept.starts_with(b"AFVEC01\n"));
    assert_eq!(kept.len(), 8 + 2 * (16 + 384 * 2));
    // Damaged: read as nothing kept, and written anew.
    std::fs::write(&cache, b"not vectors at all").unwrap();
    assert!(matches!(note(&sandbox, correction), Note::Shown(s) if s.first() == Some(&1)));
    assert_eq!(std::fs::read(&cache).unwrap(), kept);
    // An edited rule is a new text: its vector is read, and the note follows the edit.
    let edited = [
        (1, "Always use named exports".to_string()),
        (
            2,
            "Merge into main only through a reviewed pull request".to_string(),
        ),
    ];
    let file: Vec<Value> = (edited.iter())
        .map(|(n, text)| json!({"Rule_number": n, "Category": "CODE", "Instruction": text, "Why": "team"}))
        .collect();
    sandbox.write(
        ".agents/autofix.json",
        serde_json::to_string_pretty(&file).unwrap(),
    );
    assert!(matches!(note(&sandbox, correction), Note::Shown(s) if s.first() == Some(&2)));
    assert_eq!(std::fs::read(&cache).unwrap().len(), 8 + 3 * (16 + 384 * 2));
    // git does not list it: it lives in git's own folder.
    let mut status = sandbox.program("git", &["status", "--porcelain", "--untracked-files=all"]);
    let status = hermetic_git(&mut status).output().unwrap();
    assert!(!String::from_utf8_lossy(&status.stdout).contains("vectors"));
}

/// Outside git (the personal rules, a folder that is no repository) the vectors are kept
/// in the per-user cache, `$XDG_CACHE_HOME/autofix/` else `~/.cache/autofix/`: a vector
/// for each rule compared, and nothing written beside the rules.
#[test]
fn outside_git_the_vectors_are_kept_in_the_per_user_cache() {
    let sandbox = Sandbox::new();
    let record = 16 + 384 * 2;
    let learned = ["Always use named exports", "Never push directly to main"];
    for rule in learned {
        sandbox.run(&["learn", rule, "--no-export"]).expect(0);
    }
    // The first rule's vector, kept when the second was compared with it, then the second's.
    let cache = sandbox.join("home/.cache/autofix/vectors.bin");
    let kept = std::fs::read(&cache).unwrap();
    assert!(kept.starts_with(b"AFVEC01\n"));
    assert_eq!(kept.len(), 8 + 2 * record);
    let mut beside: Vec<_> = std::fs::read_dir(sandbox.join(".agents"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    beside.sort();
    assert_eq!(beside, [".gitignore", "autofix.json"]);
    // `XDG_CACHE_HOME` names another folder.
    let mut learn = sandbox.command(&["learn", "Always run the linter", "--no-export"]);
    let status = learn
        .env("XDG_CACHE_HOME", sandbox.join("xdg"))
        .status()
        .unwrap();
    assert!(status.success());
    let elsewhere = std::fs::read(sandbox.join("xdg/autofix/vectors.bin")).unwrap();
    assert_eq!(elsewhere.len(), 8 + 3 * record);
}

/// What `check` reports of a pair of rules: a verdict of its own (the same words, or
/// their reversal: what `learn` refuses), a near pair to settle, or nothing.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Reported {
    Verdict,
    Near,
    Nothing,
}

/// The pairs `check` reports among `rules` (numbered from 1), by their two numbers.
fn reported_pairs(sandbox: &Sandbox) -> Vec<(u64, u64, Reported)> {
    let report = sandbox.run(&["check", "--format", "json"]).json();
    let numbers = |message: &str| -> Vec<u64> {
        message
            .split("rule ")
            .skip(1)
            .filter_map(|rest| rest.split(' ').next()?.parse().ok())
            .collect()
    };
    (report["diagnostics"].as_array().unwrap().iter())
        .filter_map(|d| {
            let kind = match d["code"].as_str()? {
                "similar-rules" | "conflicting-rules" => Reported::Verdict,
                "near-rules" => Reported::Near,
                _ => return None,
            };
            let n = numbers(d["message"].as_str()?);
            Some((n[0].min(n[1]), n[0].max(n[1]), kind))
        })
        .collect()
}

/// The frozen held-out pairs (`pairs.jsonl`: the same rule in other words or another
/// language, the same job done another way, and distinct rules of a topic), each pair in
/// a scope of its own in one rules file, through one `check`: the pairs it reports, and
/// a sample of `learn` refusals. Floors a little below what this session measured.
#[test]
fn check_over_the_held_out_rule_pairs() {
    let text = std::fs::read_to_string(format!("{CORPUS}/pairs.jsonl")).unwrap();
    let pairs: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut file = Vec::new();
    for (at, pair) in pairs.iter().enumerate() {
        for (side, text) in [(1, &pair["a"]), (2, &pair["b"])] {
            file.push(json!({"Rule_number": 2 * at + side, "Category": "CODE",
                "Instruction": text, "Why": "team", "Paths": [format!("pair{at}/**")]}));
        }
    }
    let sandbox = Sandbox::new();
    sandbox.write(
        ".agents/autofix.json",
        serde_json::to_string_pretty(&file).unwrap(),
    );
    let reported = reported_pairs(&sandbox);
    let of_pair = |at: usize| {
        let (a, b) = (2 * at as u64 + 1, 2 * at as u64 + 2);
        (reported.iter())
            .find(|(x, y, _)| (*x, *y) == (a, b))
            .map_or(Reported::Nothing, |r| r.2)
    };
    let mut counts: std::collections::BTreeMap<(&str, &str), usize> = Default::default();
    for (at, pair) in pairs.iter().enumerate() {
        let label = pair["label"].as_str().unwrap();
        let got = match of_pair(at) {
            Reported::Verdict => "verdict",
            Reported::Near => "near",
            Reported::Nothing => "nothing",
        };
        *counts.entry((label, got)).or_default() += 1;
    }
    eprintln!("held-out pairs through check: {counts:?}");
    let count = |label: &str, got: &str| counts.get(&(label, got)).copied().unwrap_or(0);
    let all = |label: &str| {
        ["verdict", "near", "nothing"]
            .iter()
            .map(|g| count(label, g))
            .sum::<usize>()
    };
    let found = |label: &str| count(label, "verdict") + count(label, "near");
    // No distinct pair gets a verdict: `learn` refuses none of them.
    assert_eq!(count("distinct", "verdict"), 0, "{counts:?}");
    assert!(
        found("same") as f64 / all("same") as f64 >= FOUND_SAME,
        "{counts:?}"
    );
    assert!(
        found("near") as f64 / all("near") as f64 >= FOUND_NEAR,
        "{counts:?}"
    );
    assert!(
        found("distinct") as f64 / all("distinct") as f64 <= FOUND_DISTINCT,
        "{counts:?}"
    );
    // `learn` refuses as `check` judges: a sample of the distinct pairs, each learned
    // beside its first rule, none refused.
    for pair in pairs.iter().filter(|p| p["label"] == "distinct").take(12) {
        let one = Sandbox::new();
        let first = json!([{"Rule_number": 1, "Category": "CODE", "Instruction": pair["a"], "Why": "team"}]);
        one.write(".agents/autofix.json", first.to_string());
        let run = one.run(&[
            "learn",
            "--dry-run",
            "-c",
            "code",
            "-w",
            "w",
            "--format",
            "json",
            pair["b"].as_str().unwrap(),
        ]);
        // (A rule written as a statement is refused as one, with no rule matched.)
        assert_eq!(run.json()["matches"], json!([]), "{pair}");
    }
}

/// Same-rule pairs (in other words, or the other language) and same-job pairs `check`
/// reports at least; distinct pairs of a topic it reports at most. Measured once: same
/// 57/60, near 50/60, distinct 17/80 (none with a verdict).
const FOUND_SAME: f64 = 0.93;
const FOUND_NEAR: f64 = 0.80;
const FOUND_DISTINCT: f64 = 0.25;

/// The notes `check` gives on each realistic held-out file as it stands (every rule a
/// rule of its own, several on one topic): near pairs a team must settle, or record as
/// distinct, before `check` is quiet.
#[test]
fn check_over_the_held_out_files() {
    for file in ["web", "cli", "data", "fr"] {
        let rules = rules_of(file);
        let sandbox = repo_with(&rules);
        let reported = reported_pairs(&sandbox);
        let near = reported.iter().filter(|r| r.2 == Reported::Near).count();
        let verdicts = reported.iter().filter(|r| r.2 == Reported::Verdict).count();
        eprintln!(
            "{file} ({} rules): near pairs {near}, verdicts {verdicts}",
            rules.len()
        );
        assert_eq!(verdicts, 0, "{reported:?}");
        assert!(near <= MAX_NEAR_IN_A_FILE, "{file}: {reported:?}");
    }
}

/// The most near pairs `check` may report in a realistic file of 50 to 60 rules (measured
/// once: web 13, cli 16, data 17, fr 18).
const MAX_NEAR_IN_A_FILE: usize = 20;
