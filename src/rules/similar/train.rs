//! Fits the matcher's two logistic models and writes `weights.rs`:
//! `cargo test --lib rules::similar::train -- --ignored --nocapture`. The training pairs
//! (`tests/fixtures/pairs/train.tsv` and the learn-time pairs of `rule-pairs.tsv`) fit the
//! weights by stochastic gradient descent in a fixed order; the development pairs
//! (`dev.tsv`) choose the four thresholds; the frozen held-out pairs are never read here.

// A tool run by hand: it reports its figures on the terminal.
#![allow(clippy::print_stdout)]

use std::fmt::Write as _;
use std::path::Path;

use super::model::{self, Features, NAMES};
use super::{Shape, Stems, judge};

const EPOCHS: usize = 300;
const RATE: f64 = 0.05;
const L2: f64 = 1e-4;
/// A pair's own rule is one among several: its weight balances the others.
const POSITIVE_WEIGHT: f64 = 3.0;
/// The share of development pairs that may name a wrong rule (or any rule, for a new one).
const MAX_FALSE: f64 = 0.02;
/// The share of development pairs that may name the right rule the wrong way round (a
/// repeat as a reversal, or the reverse).
const MAX_WRONG_WAY: f64 = 0.03;
/// The share of learn-time pairs (`rule-pairs.tsv`) that may be refused wrongly.
const MAX_LEARN_FALSE: f64 = 0.02;
/// The share of development pairs whose text is new (related or unrelated) that may be
/// shown a near rule: the hint costs the agent a look, and a rule of the topic is often
/// near.
const MAX_NEAR_NEW: f64 = 0.15;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Label {
    Repeat,
    Reversal,
    Related,
    Unrelated,
}

/// One labelled pair: the text, the rules of its file, and the rule it repeats or reverses.
pub(super) struct Pair {
    pub(super) label: Label,
    /// The position of the rule repeated or reversed, from 0.
    pub(super) target: Option<usize>,
    pub(super) rules: Vec<String>,
    pub(super) text: String,
}

/// The pairs of a `pairs/*.tsv` file (`LABEL TARGET RULES TEXT FORM LANG`).
pub(super) fn read_pairs(text: &str) -> Vec<Pair> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            assert!(f.len() >= 4, "six columns: {line}");
            let label = match f[0] {
                "repeat" => Label::Repeat,
                "reversal" => Label::Reversal,
                "related" => Label::Related,
                "unrelated" => Label::Unrelated,
                other => panic!("unknown label {other:?}"),
            };
            Pair {
                label,
                target: f[1].parse::<usize>().ok().map(|n| n - 1),
                rules: f[2].split(" ¦ ").map(str::to_string).collect(),
                text: f[3].replace("\\n", "\n"),
            }
        })
        .collect()
}

/// The learn-time pairs of `rule-pairs.tsv` (`LABEL LANG EXISTING NEW`) as pairs.
fn read_rule_pairs(text: &str) -> Vec<Pair> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            let label = match f[0] {
                "duplicate" => Label::Repeat,
                "contradiction" => Label::Reversal,
                _ => Label::Related,
            };
            Pair {
                label,
                target: (label != Label::Related).then_some(0),
                rules: vec![f[2].to_string()],
                text: f[3].to_string(),
            }
        })
        .collect()
}

/// Every two distinct rules of the files of `pairs`, the later against the earlier: rules of
/// one project's file are other rules (each file's rules are about different concerns),
/// the negatives `check` meets.
fn rule_against_rule(pairs: &[Pair]) -> Vec<Pair> {
    let mut seen = std::collections::BTreeSet::new();
    let mut out = Vec::new();
    for pair in pairs {
        for (at, later) in pair.rules.iter().enumerate() {
            for earlier in &pair.rules[..at] {
                if earlier != later && seen.insert((earlier.clone(), later.clone())) {
                    out.push(Pair {
                        label: Label::Related,
                        target: None,
                        rules: vec![earlier.clone()],
                        text: later.clone(),
                    });
                }
            }
        }
    }
    out
}

/// How `judge::relation` reads a piece against a rule: by the model, as conversation or as
/// a rule (each with its thresholds), by the strict match of a piece that reads as a rule
/// (no threshold), or, for a piece that says too little to be weighed, only for how near
/// it comes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Reading {
    Conversation,
    RuleLike,
    Strict,
    NearOnly,
}

/// The features of each piece of a pair's text against each of its rules, as `judge`
/// reads them: each piece the model weighs, each strict match of a piece that reads as a
/// rule, and each piece read only for how near it comes.
pub(super) fn features_of(pair: &Pair) -> Vec<Vec<(Reading, Features)>> {
    let mut stems = Stems::new();
    let pieces: Vec<Shape> = judge::pieces(&pair.text)
        .into_iter()
        .map(|p| Shape::of(p, &mut stems))
        .collect();
    pair.rules
        .iter()
        .map(|rule| {
            let rule = Shape::of(rule, &mut stems);
            let mut read = Vec::new();
            for piece in &pieces {
                let f = model::features(piece, &rule, &stems);
                if piece.cues.rule_like && (f[0] > 0.0 || f[1] > 0.0) {
                    read.push((Reading::Strict, f));
                }
                let reading = if !model::says_enough(&f) {
                    if !model::comes_near(&f) {
                        continue;
                    }
                    Reading::NearOnly
                } else if piece.cues.rule_like {
                    Reading::RuleLike
                } else {
                    Reading::Conversation
                };
                read.push((reading, f));
            }
            read
        })
        .collect()
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(file: &str) -> String {
    std::fs::read_to_string(root().join(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// Logistic regression by SGD over `(pieces' features, positive)` rows, in a fixed shuffled
/// order; a row is scored by its best piece, and the gradient goes to that piece (a repeat
/// needs one piece that says the rule; a new text none).
fn fit(rows: &[(Vec<Features>, bool)]) -> (Vec<f64>, f64) {
    let mut weights = vec![0.0; NAMES.len()];
    let mut bias = 0.0;
    let mut order: Vec<usize> = (0..rows.len()).collect();
    let mut seed: u64 = 33;
    for _ in 0..EPOCHS {
        for i in (1..order.len()).rev() {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            order.swap(i, (seed >> 33) as usize % (i + 1));
        }
        for &at in &order {
            let (pieces, positive) = &rows[at];
            let Some((p, f)) = pieces
                .iter()
                .map(|f| (model::logistic(&weights, bias, f), f))
                .max_by(|a, b| a.0.total_cmp(&b.0))
            else {
                continue;
            };
            let target = f64::from(u8::from(*positive));
            let scale = if *positive { POSITIVE_WEIGHT } else { 1.0 };
            let gradient = (p - target) * scale;
            for (w, x) in weights.iter_mut().zip(f) {
                *w -= RATE * (gradient * x + L2 * *w);
            }
            bias -= RATE * gradient;
        }
    }
    (weights, bias)
}

/// The odds of each piece a pair's text against one rule: how it is read, its odds of a
/// repeat and of a reversal (for a strict match, its score as the one of its kind), and
/// the near rule's odds.
type Odds = Vec<(Reading, f64, f64, f64)>;

/// The thresholds of a repeat and of a reversal, for a piece of conversation and for one
/// that reads as a rule.
type Thresholds = [(f64, f64); 2];

/// What the judgment says of one pair's rules' odds: the rule and kind named, if any, as
/// `judge::relation` decides (each piece against its thresholds, the closest winning).
fn decide(odds: &[Odds], thresholds: Thresholds) -> Option<(usize, Label)> {
    let mut best: Option<(f64, usize, Label)> = None;
    for (at, pieces) in odds.iter().enumerate() {
        for &(reading, repeat, reversal, _) in pieces {
            let at_least = match reading {
                Reading::Conversation => thresholds[0],
                Reading::RuleLike => thresholds[1],
                Reading::Strict => (0.0, 0.0),
                Reading::NearOnly => continue,
            };
            let Some((kind, p)) = model::verdict_at((repeat, reversal), at_least) else {
                continue;
            };
            let label = match kind {
                super::Kind::Duplicate => Label::Repeat,
                super::Kind::Contradiction => Label::Reversal,
            };
            // The later rule wins a tie, as in `judge`.
            if best.is_none_or(|(b, _, _)| p >= b) {
                best = Some((p, at, label));
            }
        }
    }
    best.map(|(_, at, label)| (at, label))
}

/// (repeats named, reversals named, a wrong rule or one for a new text, the right rule the
/// wrong way round) over the pairs.
fn score(pairs: &[Pair], odds: &[Vec<Odds>], thresholds: Thresholds) -> [usize; 4] {
    let mut counts = [0; 4];
    for (pair, odds) in pairs.iter().zip(odds) {
        match (decide(odds, thresholds), pair.label) {
            (Some((at, Label::Repeat)), Label::Repeat) if Some(at) == pair.target => counts[0] += 1,
            (Some((at, Label::Reversal)), Label::Reversal) if Some(at) == pair.target => {
                counts[1] += 1;
            }
            (Some((at, _)), _) if Some(at) != pair.target => counts[2] += 1,
            (Some(_), _) => counts[3] += 1,
            (None, _) => {}
        }
    }
    counts
}

/// The rule a pair's text is shown when the judgment names none: the one of the highest
/// near odds of any piece, when they reach `near` (the later rule wins a tie, as in
/// `judge`).
fn nearest(odds: &[Odds], near: f64) -> Option<usize> {
    let mut best: Option<(f64, usize)> = None;
    for (at, pieces) in odds.iter().enumerate() {
        for &(reading, _, _, p) in pieces {
            if reading != Reading::Strict && p >= near && best.is_none_or(|(b, _)| p >= b) {
                best = Some((p, at));
            }
        }
    }
    best.map(|(_, at)| at)
}

/// (the right rule named or shown as near, of the repeats and reversals; a rule named or
/// shown, of the new texts) over the pairs.
fn shown(pairs: &[Pair], odds: &[Vec<Odds>], thresholds: Thresholds, near: f64) -> [usize; 2] {
    let mut counts = [0; 2];
    for (pair, odds) in pairs.iter().zip(odds) {
        let named = decide(odds, thresholds)
            .map(|(at, _)| at)
            .or_else(|| nearest(odds, near));
        match (named, pair.target) {
            (Some(at), Some(target)) if at == target => counts[0] += 1,
            (Some(_), None) => counts[1] += 1,
            _ => {}
        }
    }
    counts
}

/// The lowest threshold of a near rule (by steps of 0.025) that shows a rule to at most
/// [`MAX_NEAR_NEW`] of the development pairs whose text is new.
fn choose_near(pairs: &[Pair], odds: &[Vec<Odds>], thresholds: Thresholds) -> f64 {
    let new = pairs.iter().filter(|p| p.target.is_none()).count();
    (2..=40)
        .map(|step| f64::from(step) * 0.025)
        .find(|&near| shown(pairs, odds, thresholds, near)[1] as f64 <= MAX_NEAR_NEW * new as f64)
        .unwrap_or(1.0)
}

/// The text of `weights.rs` for these weights and thresholds.
fn weights_text(models: &Models, thresholds: Thresholds, near: f64) -> String {
    let ((repeat, repeat_bias), (reversal, reversal_bias), (near_model, near_bias)) =
        (&models.repeat, &models.reversal, &models.near);
    let list = |w: &[f64]| {
        w.iter()
            .map(|x| format!("{x:.4}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut out = String::from(
        "//! The matcher's weights, written by `cargo test --lib rules::similar::train -- \
         --ignored\n//! --nocapture` from the pair corpus (`tests/fixtures/pairs/`): do not \
         edit by hand. One\n//! weight a feature, in the order of `model::NAMES`.\n\n",
    );
    let n = NAMES.len();
    let mut constant = |name: &str, value: String| {
        let _ = writeln!(out, "pub(super) const {name}{value};");
    };
    constant("REPEAT", format!(": [f64; {n}] = [{}]", list(repeat)));
    constant("REPEAT_BIAS", format!(": f64 = {repeat_bias:.4}"));
    constant("REVERSAL", format!(": [f64; {n}] = [{}]", list(reversal)));
    constant("REVERSAL_BIAS", format!(": f64 = {reversal_bias:.4}"));
    constant("NEAR", format!(": [f64; {n}] = [{}]", list(near_model)));
    constant("NEAR_BIAS", format!(": f64 = {near_bias:.4}"));
    let [(repeat, reversal), (rule_repeat, rule_reversal)] = thresholds;
    constant("REPEAT_THRESHOLD", format!(": f64 = {repeat:.3}"));
    constant("REVERSAL_THRESHOLD", format!(": f64 = {reversal:.3}"));
    constant("RULE_REPEAT_THRESHOLD", format!(": f64 = {rule_repeat:.3}"));
    constant(
        "RULE_REVERSAL_THRESHOLD",
        format!(": f64 = {rule_reversal:.3}"),
    );
    constant("NEAR_THRESHOLD", format!(": f64 = {near:.3}"));
    out
}

#[test]
#[ignore = "retrains the matcher and rewrites src/rules/similar/weights.rs"]
fn train() {
    std::fs::write(root().join("src/rules/similar/weights.rs"), trained()).unwrap();
}

/// The committed weights are the ones the pair corpus trains: a change to the corpus, the
/// features or the fit not followed by a new `weights.rs` fails here. Some 16 s in a debug
/// build: `.ci/run`'s heavy suite runs it (release).
#[test]
#[ignore = "16 s in debug: run by .ci/run's heavy suite"]
fn the_committed_weights_are_what_training_writes() {
    let committed = read("src/rules/similar/weights.rs");
    assert!(
        committed == trained(),
        "src/rules/similar/weights.rs is not what training writes: run \
         `cargo test --lib -- --ignored --exact rules::similar::train::train` and commit the file"
    );
}

/// The two pairs of thresholds in turn, each the best that `holds` (the right verdicts on
/// dev, or `None` past a bound) given the other; pieces that read as rules start judged by
/// the strict match alone (thresholds out of reach).
fn choose(holds: impl Fn(Thresholds) -> Option<usize>) -> Thresholds {
    let grid = || {
        (2..=40).flat_map(|a| (2..=40).map(move |b| (f64::from(a) * 0.025, f64::from(b) * 0.025)))
    };
    let mut best: Thresholds = [(0.5, 0.5), (1.0, 1.0)];
    let mut right = holds(best).unwrap_or(0);
    for _ in 0..2 {
        for kind in 0..2 {
            for pair in grid() {
                let mut tried = best;
                tried[kind] = pair;
                if let Some(r) = holds(tried)
                    && r > right
                {
                    (best, right) = (tried, r);
                }
            }
        }
    }
    best
}

/// The rows of one model: each rule of each pair, the pieces the model reads (with `near`,
/// those read only for how near they come too), and whether the pair's label is one of
/// `labels` at that rule.
fn rows(pairs: &[Pair], labels: &[Label], near: bool) -> Vec<(Vec<Features>, bool)> {
    pairs
        .iter()
        .flat_map(|pair| {
            features_of(pair)
                .into_iter()
                .enumerate()
                .map(move |(at, pieces)| {
                    let f = pieces
                        .into_iter()
                        .filter(|(reading, _)| match reading {
                            Reading::Conversation | Reading::RuleLike => true,
                            Reading::NearOnly => near,
                            Reading::Strict => false,
                        })
                        .map(|(_, f)| f)
                        .collect();
                    (f, labels.contains(&pair.label) && pair.target == Some(at))
                })
        })
        .collect()
}

/// The three fitted models (weights and bias): a repeat, a reversal, and the near rule.
struct Models {
    repeat: (Vec<f64>, f64),
    reversal: (Vec<f64>, f64),
    near: (Vec<f64>, f64),
}

impl Models {
    /// The odds of each piece of each pair's text against each of its rules.
    fn odds(&self, pairs: &[Pair]) -> Vec<Vec<Odds>> {
        let odds =
            |(weights, bias): &(Vec<f64>, f64), f: &Features| model::logistic(weights, *bias, f);
        pairs
            .iter()
            .map(|pair| {
                features_of(pair)
                    .iter()
                    .map(|pieces| {
                        pieces
                            .iter()
                            .map(|&(reading, f)| {
                                let near = odds(&self.near, &f);
                                match reading {
                                    Reading::Strict => (reading, f[0], f[1], near),
                                    _ => (
                                        reading,
                                        odds(&self.repeat, &f),
                                        odds(&self.reversal, &f),
                                        near,
                                    ),
                                }
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect()
    }
}

/// Fits the matcher on the corpus (the same on every run) and prints its figures; the text
/// of `weights.rs` it gives.
fn trained() -> String {
    let mut train = read_pairs(&read("tests/fixtures/pairs/train.tsv"));
    // The learn-time pairs weigh three times: a wrong refusal stops a correction.
    for _ in 0..3 {
        train.extend(read_rule_pairs(&read("tests/fixtures/rule-pairs.tsv")));
    }
    let dev = read_pairs(&read("tests/fixtures/pairs/dev.tsv"));
    let rules_apart = rule_against_rule(&train);
    println!("{} pairs of distinct rules", rules_apart.len());
    train.extend(rules_apart);
    let dev_rules_apart = rule_against_rule(&dev);
    let models = Models {
        repeat: fit(&rows(&train, &[Label::Repeat], false)),
        reversal: fit(&rows(&train, &[Label::Reversal], false)),
        // Whether a piece, weighed or not, says its rule at all.
        near: fit(&rows(&train, &[Label::Repeat, Label::Reversal], true)),
    };
    let odds = |pairs: &[Pair]| models.odds(pairs);
    let (train_odds, dev_odds) = (odds(&train), odds(&dev));
    // The learn-time pairs hold the thresholds too: `learn` refuses on the verdict.
    let learned = read_rule_pairs(&read("tests/fixtures/rule-pairs.tsv"));
    let learned_odds = odds(&learned);
    let dev_rules_apart_odds = odds(&dev_rules_apart);
    let allowed = (MAX_FALSE * dev.len() as f64) as usize;
    let holds = |thresholds: Thresholds| -> Option<usize> {
        let counts = score(&dev, &dev_odds, thresholds);
        let learn_false = score(&learned, &learned_odds, thresholds)[2];
        let apart_false = score(&dev_rules_apart, &dev_rules_apart_odds, thresholds)[2];
        (counts[2] <= allowed
            && counts[3] as f64 <= MAX_WRONG_WAY * dev.len() as f64
            && learn_false as f64 <= MAX_LEARN_FALSE * learned.len() as f64
            && apart_false as f64 <= MAX_LEARN_FALSE * dev_rules_apart.len() as f64)
            .then_some(counts[0] + counts[1])
    };
    let thresholds = choose(holds);
    for (name, pairs, odds) in [("train", &train, &train_odds), ("dev", &dev, &dev_odds)] {
        let [repeats, reversals, wrong, wrong_way] = score(pairs, odds, thresholds);
        let count = |label| pairs.iter().filter(|p| p.label == label).count();
        println!(
            "{name}: repeats {repeats}/{}, reversals {reversals}/{}, false {wrong}/{}, the wrong way {wrong_way}",
            count(Label::Repeat),
            count(Label::Reversal),
            pairs.len()
        );
    }
    println!("thresholds {thresholds:?}");
    let near = choose_near(&dev, &dev_odds, thresholds);
    for (name, pairs, odds) in [("train", &train, &train_odds), ("dev", &dev, &dev_odds)] {
        let [right, new] = shown(pairs, odds, thresholds, near);
        println!(
            "{name}, a near rule from {near:.3}: the right rule named or shown {right}/{}, a rule for a new text {new}/{}",
            pairs.iter().filter(|p| p.target.is_some()).count(),
            pairs.iter().filter(|p| p.target.is_none()).count(),
        );
    }
    println!(
        "learn-time pairs: {:?} of {}; dev rules against each other: {:?} of {}",
        score(&learned, &learned_odds, thresholds),
        learned.len(),
        score(&dev_rules_apart, &dev_rules_apart_odds, thresholds),
        dev_rules_apart.len()
    );
    weights_text(&models, thresholds, near)
}

/// The figures of the judgment (`matches`, as every caller asks it) on one set, by label,
/// language and form: `AUTOFIX_PAIRS=dev.tsv cargo test --lib rules::similar::train::figures
/// -- --ignored --nocapture` (`AUTOFIX_MISSES=1` lists what it gets wrong).
#[test]
#[ignore = "prints the judgment's figures on the set AUTOFIX_PAIRS names"]
fn figures() {
    let file = std::env::var("AUTOFIX_PAIRS").unwrap_or_else(|_| "dev.tsv".into());
    let text = read(&format!("tests/fixtures/pairs/{file}"));
    let misses = std::env::var("AUTOFIX_MISSES").is_ok();
    let mut counts: std::collections::BTreeMap<String, (usize, usize)> = Default::default();
    let forms: Vec<(&str, &str)> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[4], f[5])
        })
        .collect();
    for (pair, (form, lang)) in read_pairs(&text).iter().zip(forms) {
        let rules = pair.rules.iter().map(String::as_str);
        let judgment = super::judgment(&pair.text, (0u64..).zip(rules));
        let named = judgment.matches.first().map(|m| (m.rule as usize, m.kind));
        let label = format!("{:?}", pair.label).to_lowercase();
        // What a caller shows: the rule named, or else the near rule.
        let shown = named
            .map(|(at, _)| at)
            .or(judgment.near.as_ref().map(|n| n.rule as usize));
        let (of, hit) = match pair.target {
            Some(target) => ("the right rule named or near", shown == Some(target)),
            None => ("a rule named or near, for a new text", shown.is_some()),
        };
        for key in [of.to_string(), format!("{of}/{label}")] {
            let entry = counts.entry(key).or_default();
            entry.0 += usize::from(hit);
            entry.1 += 1;
        }
        if pair.target.is_some() {
            let entry = counts
                .entry("a wrong rule named or near, for a repeat or reversal".into())
                .or_default();
            entry.0 += usize::from(shown.is_some() && !hit);
            entry.1 += 1;
        }
        let right = match pair.label {
            Label::Repeat => named == pair.target.map(|t| (t, super::Kind::Duplicate)),
            Label::Reversal => named == pair.target.map(|t| (t, super::Kind::Contradiction)),
            Label::Related | Label::Unrelated => named.is_none(),
        };
        // A wrong rule (or any, for a new text), and the right rule the wrong way round.
        let wrong = match named {
            Some((at, _)) if Some(at) != pair.target => "a wrong rule",
            Some(_) if !right => "the wrong way",
            _ => "",
        };
        if !wrong.is_empty() {
            counts.entry(wrong.into()).or_default().0 += 1;
        }
        counts.entry("a wrong rule".into()).or_default().1 += 1;
        counts.entry("the wrong way".into()).or_default().1 += 1;
        for key in [
            label.clone(),
            format!("{label}/{lang}"),
            format!("{label}/{form}"),
        ] {
            let entry = counts.entry(key).or_default();
            entry.0 += usize::from(right);
            entry.1 += 1;
        }
        if misses && !right {
            println!(
                "MISS {label} {:?} got {named:?}\n  text: {}",
                pair.target, pair.text
            );
        }
    }
    for (key, (right, all)) in counts {
        println!(
            "{file} {key}: {right}/{all} = {:.3}",
            right as f64 / all as f64
        );
    }
}

/// How the judgment reads `AUTOFIX_TEXT` against `AUTOFIX_RULE`: each piece's features and
/// odds (`cargo test --lib rules::similar::train::explain -- --ignored --nocapture`).
#[test]
#[ignore = "prints the features of AUTOFIX_TEXT against AUTOFIX_RULE"]
fn explain() {
    let pair = Pair {
        label: Label::Related,
        target: None,
        rules: vec![std::env::var("AUTOFIX_RULE").unwrap()],
        text: std::env::var("AUTOFIX_TEXT").unwrap(),
    };
    let mut stems = Stems::new();
    let rule = Shape::of(&pair.rules[0], &mut stems);
    for piece in judge::pieces(&pair.text) {
        let shape = Shape::of(piece, &mut stems);
        let f = model::features(&shape, &rule, &stems);
        let weighed = model::says_enough(&f);
        println!(
            "{piece:?}: odds {:?}, near {:.3}, weighed {weighed}, comes near {}, reads as a rule {}",
            model::odds(&f),
            model::near_odds(&f),
            model::comes_near(&f),
            shape.cues.rule_like
        );
        for (name, value) in NAMES.iter().zip(&f) {
            if *value != 0.0 {
                println!("    {name}: {value:.2}");
            }
        }
    }
}
