//! The one linear scorer: a unit's score is the model's bias plus the weights of its
//! features, and the unit counts when its score reaches the model's threshold.
//!
//! A model's file (written by [`super::train`]) is a head (`bias` and `threshold` lines), a
//! blank line, then one `FEATURE<TAB>WEIGHT` line a feature, sorted by the feature's bytes.
//! A lookup is a binary search over those lines as they are, so a hook call pays for the
//! few dozen features it looks up, not for reading 15,000 lines first.

/// A model's head and its sorted weight lines.
pub(crate) struct Linear {
    pub bias: f32,
    pub threshold: f32,
    weights: &'static str,
}

impl Linear {
    /// The model `file` holds (a file without a head reads as bias and threshold 0).
    pub(crate) fn read(file: &'static str) -> Linear {
        let (head, weights) = file.split_once("\n\n").unwrap_or(("", file));
        let number = |name: &str| {
            (head.lines())
                .find_map(|line| line.strip_prefix(name)?.strip_prefix('\t'))
                .and_then(|value| value.parse().ok())
                .unwrap_or_default()
        };
        Linear {
            bias: number("bias"),
            threshold: number("threshold"),
            weights,
        }
    }

    /// The weight of `feature`, when the model has one.
    pub(crate) fn weight(&self, feature: &str) -> Option<f32> {
        let lines = self.weights;
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

    /// Every `(feature, weight)` line of the model, in its order.
    #[cfg(test)]
    pub(crate) fn lines(&self) -> impl Iterator<Item = (&'static str, &'static str)> {
        (self.weights.lines()).map(|line| line.split_once('\t').expect("FEATURE<TAB>WEIGHT"))
    }
}

/// Every line of `model`'s table is a feature and a number, in the order the search needs,
/// and each is found where it is.
#[cfg(test)]
pub(crate) fn assert_searchable(model: &Linear) {
    let mut previous = "";
    for (name, value) in model.lines() {
        assert!(previous < name, "{previous:?} is not before {name:?}");
        let value: f32 = value.parse().expect("a number");
        assert_eq!(model.weight(name), Some(value), "{name:?}");
        previous = name;
    }
    assert_eq!(model.weight("no such feature"), None);
    assert_eq!(model.weight(""), None);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_weight_is_found_by_the_search() {
        let model =
            Linear::read("# a comment\nbias\t-1.5\nthreshold\t0.25\n\na b\t0.5\nc\t-2\nd\t1\n");
        assert_eq!((model.bias, model.threshold), (-1.5, 0.25));
        assert_searchable(&model);
        assert_eq!(model.weight("c"), Some(-2.0));
        assert_eq!(model.weight("b"), None);
    }
}
