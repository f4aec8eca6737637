//! The classifier's weights, read from `model.tsv` (written by `train`): a unit's score is
//! the bias plus the weights of its features; the threshold was chosen on the development
//! sets.
//!
//! The file is a head (`bias` and `threshold` lines), a blank line, then one
//! `FEATURE<TAB>WEIGHT` line a feature, sorted by the feature's bytes. A lookup is a binary
//! search over those lines as they are, so a hook call pays for the few dozen features it
//! looks up, not for reading 15,000 lines first.

use std::sync::OnceLock;

const MODEL: &str = include_str!("model.tsv");

/// The head's numbers and the sorted weight lines.
struct Model {
    bias: f32,
    threshold: f32,
    weights: &'static str,
}

fn model() -> &'static Model {
    static MODEL_READ: OnceLock<Model> = OnceLock::new();
    MODEL_READ.get_or_init(|| {
        let (head, weights) = MODEL.split_once("\n\n").unwrap_or(("", MODEL));
        let number = |name: &str| {
            (head.lines())
                .find_map(|line| line.strip_prefix(name)?.strip_prefix('\t'))
                .and_then(|value| value.parse().ok())
                .unwrap_or_default()
        };
        Model {
            bias: number("bias"),
            threshold: number("threshold"),
            weights,
        }
    })
}

/// The model's bias: every unit's score starts from it.
pub(super) fn bias() -> f32 {
    model().bias
}

/// The score at which a unit reads as a correction.
pub(super) fn threshold() -> f32 {
    model().threshold
}

/// The weight of `feature`, when the model has one.
pub(super) fn weight(feature: &str) -> Option<f32> {
    let lines = model().weights;
    // `low` is always a line's start; `high` the end of the range still searched.
    let (mut low, mut high) = (0, lines.len());
    while low < high {
        let middle = low + (high - low) / 2;
        let start = lines[..middle].rfind('\n').map_or(0, |at| at + 1).max(low);
        let end = lines[start..]
            .find('\n')
            .map_or(lines.len(), |at| start + at);
        let (name, value) = lines[start..end].split_once('\t')?;
        match name.cmp(feature) {
            std::cmp::Ordering::Equal => return value.parse().ok(),
            std::cmp::Ordering::Less => low = end + 1,
            std::cmp::Ordering::Greater => high = start,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every line of the table is a feature and a number, in the order the search needs,
    /// and each is found where it is.
    #[test]
    fn every_weight_is_found_by_the_search() {
        let mut previous = "";
        for line in model().weights.lines() {
            let (name, value) = line.split_once('\t').expect("FEATURE<TAB>WEIGHT");
            assert!(previous < name, "{previous:?} is not before {name:?}");
            let value: f32 = value.parse().expect("a number");
            assert_eq!(weight(name), Some(value), "{name:?}");
            previous = name;
        }
        assert!(threshold() != 0.0 && bias() != 0.0);
        assert_eq!(weight("no such feature"), None);
        assert_eq!(weight(""), None);
    }
}
