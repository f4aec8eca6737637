//! Trains the classifier's model and writes `src/capture/model.tsv`:
//! `cargo test --lib capture::train -- --ignored --nocapture`. The one trainer of
//! [`crate::text::train`] over the units of `classify::prompt_units`, the prompt scored by
//! its best unit (a positive prompt needs one correction-like sentence; a negative one
//! needs none). Training reads only the training sets; the development sets pick the
//! threshold and are reported; the frozen held-out sets are never read here.

// A tool run by hand: it reports its figures on the terminal.
#![allow(clippy::print_stdout)]

use std::collections::HashMap;
use std::path::Path;

use super::classify;
use crate::text::train::{
    Example, Model, Schedule, choose_threshold, figures, fit, model_text, scores,
};

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
/// `l2` was chosen on the development sets among 1e-4, 1e-3, 3e-3 and 1e-2 (with `rate`
/// among 0.02, 0.05 and 0.1), and again among 3e-4, 1e-3, 3e-3 and 1e-2 once the styles
/// sets (complaints, questions, terse and buried corrections) joined the corpus. A missed
/// correction costs twice a false alarm.
const SCHEDULE: Schedule = Schedule {
    epochs: 40,
    rate: 0.05,
    positive_weight: 2.0,
    l2: 1e-3,
};
/// What opens the model's file.
const COMMENT: &str = "# The correction classifier's weights, written by `cargo test --lib capture::train --\n\
                       # --ignored` (src/capture/train.rs) from the training sets it names; do not edit.\n";
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

/// The model the corpus trains (the same on every run: a fixed order, no randomness left),
/// with the development sets' scores under it.
fn fitted() -> (Model, Vec<Vec<(f32, bool)>>) {
    let mut ids = HashMap::new();
    let train: Vec<Example> = load(&TRAIN, &mut ids, true).into_iter().flatten().collect();
    let dev = load(&DEV, &mut ids, false);
    let (mut weights, bias) = fit(&train, ids.len(), &SCHEDULE);
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
    let text = model_text(COMMENT, &model);
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
    let generated = model_text(COMMENT, &fitted().0);
    assert!(
        committed == generated,
        "src/capture/model.tsv is not what training writes: run \
         `cargo test --lib capture::train -- --ignored` and commit the file"
    );
}
