//! The one trainer: logistic regression over sparse features, an example scored by its
//! best unit (a positive example needs one unit that reads so; a negative one needs none),
//! fitted by stochastic gradient descent in a fixed order, so the same corpus writes the
//! same model. It writes the file [`super::linear`] reads.

use std::collections::HashMap;
use std::fmt::Write as _;

/// A labelled example: its units, each a list of feature ids.
pub(crate) struct Example {
    pub positive: bool,
    pub units: Vec<Vec<usize>>,
}

/// How the weights are fitted.
pub(crate) struct Schedule {
    pub epochs: usize,
    /// The first epoch's step; each later one's is smaller.
    pub rate: f32,
    /// How much more a missed positive costs than a false alarm.
    pub positive_weight: f32,
    pub l2: f32,
}

/// A trained model: the feature ids, the weights, the bias, and the threshold at which a
/// unit counts.
pub(crate) struct Model {
    pub ids: HashMap<String, usize>,
    pub weights: Vec<f32>,
    pub bias: f32,
    pub threshold: f32,
}

/// An example's best unit: its score and its position.
fn best(weights: &[f32], bias: f32, example: &Example) -> (f32, usize) {
    example
        .units
        .iter()
        .enumerate()
        .map(|(at, unit)| (bias + unit.iter().map(|&f| weights[f]).sum::<f32>(), at))
        .fold((f32::NEG_INFINITY, 0), |a, b| if b.0 > a.0 { b } else { a })
}

/// Each example's score (its best unit's) and label.
pub(crate) fn scores(weights: &[f32], bias: f32, examples: &[Example]) -> Vec<(f32, bool)> {
    examples
        .iter()
        .map(|e| (best(weights, bias, e).0, e.positive))
        .collect()
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

/// At `threshold`: the positives found, the positives, the false alarms, the negatives.
pub(crate) fn figures(scores: &[(f32, bool)], threshold: f32) -> (usize, usize, usize, usize) {
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

/// Fits the weights and the bias on `train`, `features` ids in all.
pub(crate) fn fit(train: &[Example], features: usize, schedule: &Schedule) -> (Vec<f32>, f32) {
    let mut weights = vec![0f32; features];
    let mut bias = 0f32;
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    // The average of the weights over the second half of training (Polyak averaging):
    // steadier than the last weights, and better on phrasings the corpus lacks.
    let mut sum = vec![0f64; weights.len()];
    let mut bias_sum = 0f64;
    let mut steps = 0f64;
    for epoch in 0..schedule.epochs {
        shuffle(&mut order, &mut seed);
        let rate = schedule.rate / (1.0 + epoch as f32 * 0.2);
        for &at in &order {
            let example = &train[at];
            let (score, unit) = best(&weights, bias, example);
            let p = 1.0 / (1.0 + (-score).exp());
            let target = if example.positive { 1.0 } else { 0.0 };
            let scale = if example.positive {
                schedule.positive_weight
            } else {
                1.0
            };
            let gradient = (target - p) * scale * rate;
            bias += gradient * 0.1;
            for &f in &example.units[unit] {
                weights[f] += gradient - schedule.l2 * weights[f];
            }
        }
        if epoch >= schedule.epochs / 2 {
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
pub(crate) fn choose_threshold(dev_scores: &[Vec<(f32, bool)>]) -> f32 {
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

/// What a model's file holds: `comment` (`#` lines), a head with the bias and the
/// threshold, a blank line, then the weights kept (not zero), one `FEATURE<TAB>WEIGHT` line
/// each, sorted by the feature's bytes (the order [`super::linear::Linear::weight`]
/// searches), three decimals.
pub(crate) fn model_text(comment: &str, model: &Model) -> String {
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
    let mut out = String::from(comment);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Two features that each mark a positive (one of them in a positive's second unit),
    /// one that marks a negative: the fitted model weighs them so, separates the corpus, and
    /// its file reads back.
    #[test]
    fn a_separable_corpus_is_learned_and_written_back() {
        let example = |positive, units: &[&[usize]]| Example {
            positive,
            units: units.iter().map(|unit| unit.to_vec()).collect(),
        };
        let train = [
            example(true, &[&[0, 3]]),
            example(true, &[&[1, 3]]),
            example(true, &[&[3], &[0]]),
            example(false, &[&[2, 3]]),
            example(false, &[&[3]]),
        ];
        let schedule = Schedule {
            epochs: 200,
            rate: 0.5,
            positive_weight: 1.0,
            l2: 0.0,
        };
        let (weights, bias) = fit(&train, 4, &schedule);
        assert!(weights[0] > 0.0 && weights[1] > 0.0 && weights[2] < 0.0);
        let threshold = choose_threshold(&[scores(&weights, bias, &train)]);
        assert_eq!(
            figures(&scores(&weights, bias, &train), threshold),
            (3, 3, 0, 2)
        );
        let ids = ["a", "b", "c", "d"].map(String::from).into_iter().zip(0..);
        let model = Model {
            ids: ids.collect(),
            weights,
            bias,
            threshold,
        };
        let text = model_text("# test\n", &model);
        let read = super::super::linear::Linear::read(Box::leak(text.into_boxed_str()));
        super::super::linear::assert_searchable(&read);
        assert_eq!(read.threshold, threshold);
        assert!(read.weight("a").unwrap() > 0.0);
    }
}
