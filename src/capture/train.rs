//! Trains the classifier's model and writes `src/capture/model.tsv`:
//! `cargo test --lib capture::train -- --ignored --nocapture`. Logistic regression over
//! the features of `classify::units`, the prompt scored by its best unit (a positive
//! prompt needs one correction-like sentence; a negative one needs none), fitted by
//! stochastic gradient descent in a fixed order, so the same corpus writes the same file.
//! Training reads only the training sets; the development sets pick the threshold and are
//! reported; the frozen held-out sets are never read here.

// A tool run by hand: it reports its figures on the terminal.
#![allow(clippy::print_stdout)]

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

use super::classify;

/// The training sets, relative to the crate's root.
const TRAIN: [&str; 4] = [
    "tests/fixtures/prompts-train-en.tsv",
    "tests/fixtures/prompts-train-fr.tsv",
    "tests/fixtures/prompts.tsv",
    "tests/fixtures/prompts-train-styles.tsv",
];
/// The development sets: they choose the threshold, never the weights.
const DEV: [&str; 4] = [
    "tests/fixtures/prompts-dev-en.tsv",
    "tests/fixtures/prompts-dev-fr.tsv",
    "tests/fixtures/prompts-holdout.tsv",
    "tests/fixtures/prompts-dev-styles.tsv",
];
/// Where the model is written, relative to the crate's root.
const MODEL_FILE: &str = "src/capture/model.tsv";
const EPOCHS: usize = 40;
const RATE: f32 = 0.05;
/// A missed correction costs more than a false alarm.
const POSITIVE_WEIGHT: f32 = 2.0;
/// Chosen on the development sets among 1e-4, 1e-3, 3e-3 and 1e-2 (with `RATE` among
/// 0.02, 0.05 and 0.1), and again among 3e-4, 1e-3, 3e-3 and 1e-2 once the styles sets
/// (complaints, questions, terse and buried corrections) joined the corpus.
const L2: f32 = 1e-3;
/// Weights smaller than this are left out of the model's file.
const PRUNE: f32 = 0.02;

/// `(is_correction, prompt)` rows of a `LABEL<TAB>PROMPT` file (labels `correction`/`1`
/// and `other`/`0`; `\n` in a prompt is a line break).
pub(super) fn read_labelled(text: &str) -> Vec<(bool, String)> {
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let (label, prompt) = line.split_once('\t').expect("LABEL<TAB>PROMPT");
            let positive = match label.trim() {
                "correction" | "1" => true,
                "other" | "0" => false,
                other => panic!("unknown label {other:?}"),
            };
            (positive, prompt.replace("\\n", "\n"))
        })
        .collect()
}

struct Example {
    positive: bool,
    units: Vec<Vec<usize>>,
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn load(files: &[&str], ids: &mut HashMap<String, usize>, grow: bool) -> Vec<Vec<Example>> {
    files
        .iter()
        .map(|file| {
            let text = std::fs::read_to_string(root().join(file)).expect(file);
            read_labelled(&text)
                .into_iter()
                .map(|(positive, prompt)| Example {
                    positive,
                    units: classify::prompt_units(&prompt)
                        .into_iter()
                        .map(|unit| {
                            unit.into_iter()
                                .filter_map(|f| {
                                    let next = ids.len();
                                    if grow {
                                        Some(*ids.entry(f).or_insert(next))
                                    } else {
                                        ids.get(&f).copied()
                                    }
                                })
                                .collect()
                        })
                        .collect(),
                })
                .collect()
        })
        .collect()
}

fn best(weights: &[f32], bias: f32, example: &Example) -> (f32, usize) {
    example
        .units
        .iter()
        .enumerate()
        .map(|(at, unit)| (bias + unit.iter().map(|&f| weights[f]).sum::<f32>(), at))
        .fold((f32::NEG_INFINITY, 0), |a, b| if b.0 > a.0 { b } else { a })
}

/// A small deterministic generator for the order of the examples.
fn shuffle<T>(items: &mut [T], seed: &mut u64) {
    for i in (1..items.len()).rev() {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        items.swap(i, (*seed % (i as u64 + 1)) as usize);
    }
}

fn figures(scores: &[(f32, bool)], threshold: f32) -> (usize, usize, usize, usize) {
    let (mut tp, mut fp, mut positives, mut negatives) = (0, 0, 0, 0);
    for &(score, positive) in scores {
        if positive {
            positives += 1;
            tp += usize::from(score >= threshold);
        } else {
            negatives += 1;
            fp += usize::from(score >= threshold);
        }
    }
    (tp, positives, fp, negatives)
}

/// Fits the weights and the bias on `train`.
fn fit(train: &[Example], features: usize) -> (Vec<f32>, f32) {
    let mut weights = vec![0f32; features];
    let mut bias = 0f32;
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    // The average of the weights over the second half of training (Polyak averaging):
    // steadier than the last weights, and better on phrasings the corpus lacks.
    let mut sum = vec![0f64; weights.len()];
    let mut bias_sum = 0f64;
    let mut steps = 0f64;
    for epoch in 0..EPOCHS {
        shuffle(&mut order, &mut seed);
        let rate = RATE / (1.0 + epoch as f32 * 0.2);
        for &at in &order {
            let example = &train[at];
            let (score, unit) = best(&weights, bias, example);
            let p = 1.0 / (1.0 + (-score).exp());
            let target = if example.positive { 1.0 } else { 0.0 };
            let scale = if example.positive {
                POSITIVE_WEIGHT
            } else {
                1.0
            };
            let gradient = (target - p) * scale * rate;
            bias += gradient * 0.1;
            for &f in &example.units[unit] {
                weights[f] += gradient - L2 * weights[f];
            }
        }
        if epoch >= EPOCHS / 2 {
            for (total, w) in sum.iter_mut().zip(&weights) {
                *total += f64::from(*w);
            }
            bias_sum += f64::from(bias);
            steps += 1.0;
        }
    }
    let weights = sum.iter().map(|total| (total / steps) as f32).collect();
    (weights, (bias_sum / steps) as f32)
}

/// The threshold that best trades recall for false alarms on the development sets,
/// recall counting twice: a miss costs the whole loop, a false alarm one line.
fn choose_threshold(dev_scores: &[Vec<(f32, bool)>]) -> f32 {
    let mut candidates: Vec<f32> = dev_scores.iter().flatten().map(|s| s.0).collect();
    candidates.sort_by(f32::total_cmp);
    let merit = |t: f32| -> f64 {
        dev_scores
            .iter()
            .map(|set| {
                let (tp, positives, fp, negatives) = figures(set, t);
                2.0 * tp as f64 / positives as f64 - fp as f64 / negatives as f64
            })
            .sum()
    };
    candidates
        .iter()
        .copied()
        .fold((f32::NEG_INFINITY, f64::NEG_INFINITY), |best, t| {
            let m = merit(t);
            if m > best.1 { (t, m) } else { best }
        })
        .0
        - 1e-3
}

fn report(name: &str, scores: &[(f32, bool)], threshold: f32) {
    let (tp, positives, fp, negatives) = figures(scores, threshold);
    println!(
        "{name}: recall {tp}/{positives} = {:.3}, false alarms {fp}/{negatives} = {:.3}",
        tp as f64 / positives as f64,
        fp as f64 / negatives as f64
    );
}

/// The prompts of the development sets the classifier gets wrong (`TRAIN_ERRORS=1`).
fn print_errors() {
    for file in DEV {
        let text = std::fs::read_to_string(root().join(file)).unwrap();
        for (positive, prompt) in read_labelled(&text) {
            if classify::is_correction(&prompt) != positive {
                let score = classify::score(&prompt);
                println!("ERR {} {score:.2} {prompt:?}", u8::from(positive));
            }
        }
    }
}

/// What a model's file holds: a head with the bias and the threshold, a blank line, then
/// the weights kept (not zero), one `FEATURE<TAB>WEIGHT` line each, sorted by the feature's
/// bytes (the order `model::weight` searches), three decimals.
fn model_text(model: &Model) -> String {
    let Model {
        ids,
        weights,
        bias,
        threshold,
    } = model;
    let mut kept: Vec<(&String, f32)> = ids
        .iter()
        .map(|(name, &id)| (name, weights[id]))
        .filter(|(_, w)| *w != 0.0)
        .collect();
    kept.sort_by(|a, b| a.0.cmp(b.0));
    let mut out = String::from(
        "# The correction classifier's weights, written by `cargo test --lib capture::train --\n\
         # --ignored` (src/capture/train.rs) from the training sets it names; do not edit.\n",
    );
    let _ = writeln!(out, "bias\t{bias:?}\nthreshold\t{threshold:?}\n");
    for (name, weight) in &kept {
        assert!(
            !name.contains(['\t', '\n']),
            "a feature with a tab or a line break: {name:?}"
        );
        let _ = writeln!(out, "{name}\t{:?}", (weight * 1000.0).round() / 1000.0);
    }
    out
}

/// A trained model: the feature ids, the weights as the model's file holds them (small
/// ones left out, three decimals), the bias and the threshold chosen on the development sets.
struct Model {
    ids: HashMap<String, usize>,
    weights: Vec<f32>,
    bias: f32,
    threshold: f32,
}

/// The model the corpus trains (the same on every run: a fixed order, no randomness left),
/// with the development sets' scores under it.
fn fitted() -> (Model, Vec<Vec<(f32, bool)>>) {
    let mut ids = HashMap::new();
    let train: Vec<Example> = load(&TRAIN, &mut ids, true).into_iter().flatten().collect();
    let dev = load(&DEV, &mut ids, false);
    let (mut weights, bias) = fit(&train, ids.len());
    // So the threshold and the figures are those of the shipped model.
    for w in &mut weights {
        *w = if w.abs() < PRUNE {
            0.0
        } else {
            (*w * 1000.0).round() / 1000.0
        };
    }
    let dev_scores: Vec<Vec<(f32, bool)>> =
        dev.iter().map(|set| scores(&weights, bias, set)).collect();
    let threshold = choose_threshold(&dev_scores);
    let model = Model {
        ids,
        weights,
        bias,
        threshold,
    };
    (model, dev_scores)
}

fn scores(weights: &[f32], bias: f32, examples: &[Example]) -> Vec<(f32, bool)> {
    examples
        .iter()
        .map(|e| (best(weights, bias, e).0, e.positive))
        .collect()
}

#[test]
#[ignore = "writes src/capture/model.tsv; run by hand after changing the corpus or the features"]
fn train() {
    let (mut model, dev_scores) = fitted();
    let threshold = model.threshold;
    println!("threshold {threshold}");
    for (name, set) in TRAIN.iter().zip(load(&TRAIN, &mut model.ids, false)) {
        report(name, &scores(&model.weights, model.bias, &set), threshold);
    }
    for (name, scores) in DEV.iter().zip(&dev_scores) {
        report(name, scores, threshold);
    }
    let text = model_text(&model);
    std::fs::write(root().join(MODEL_FILE), text).unwrap();
    let kept = model.weights.iter().filter(|w| **w != 0.0).count();
    println!("{} features, {kept} kept", model.ids.len());
    if std::env::var_os("TRAIN_ERRORS").is_some() {
        print_errors();
    }
}

/// The committed model is the one the corpus trains: a change to the corpus, the features
/// or the training that was not followed by a new `model.tsv` fails here.
#[test]
fn the_committed_model_is_what_training_writes() {
    let committed = std::fs::read_to_string(root().join(MODEL_FILE)).unwrap();
    let generated = model_text(&fitted().0);
    assert!(
        committed == generated,
        "src/capture/model.tsv is not what training writes: run \
         `cargo test --lib capture::train -- --ignored` and commit the file"
    );
}
