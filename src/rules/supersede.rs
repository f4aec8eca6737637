//! Precedence ("newest wins"): which rules a rule supersedes, read from its `Supersedes`
//! array and from the markers people and agents write in `Why` or `Instruction`, and which
//! rules are therefore no longer active.
//!
//! The marker grammar, case-insensitive:
//!
//! ```text
//! marker  = verb ws+ [noun ws*] ref { sep [noun ws*] ref }
//! verb    = "supersedes" | "supersede" | "replaces" | "overrides" | "remplace"
//! noun    = "rules" | "rule" | "les règles" | "la règle" | "règles" | "règle"   (also without the accent)
//! ref     = ["#"] digits
//! sep     = ws* ("," | "&" | "and" | "et") ws*
//! ```
//!
//! So `supersedes rule 1`, `Supersedes #1`, `replaces rules 3 and 5`, `overrides #2, #4`
//! and `remplace la règle 1` all count; `supersedes the old rule` does not. A negated verb
//! (`never replaces rule 1`, `does not supersede rule 1`, `ne remplace pas la règle 1`)
//! is found but marked, and supersedes nothing.

use std::ops::Range;

use crate::report::text::has_byte;

use super::file::{Document, Supersedes};

/// The verbs of a supersede marker, for the local references (here) and the imported
/// ones (`sources::layers`) alike.
pub(crate) const VERBS: [&str; 5] = [
    "supersedes",
    "supersede",
    "replaces",
    "overrides",
    "remplace",
];
const NOUNS: [&str; 10] = [
    "les règles",
    "les regles",
    "la règle",
    "la regle",
    "règles",
    "regles",
    "règle",
    "regle",
    "rules",
    "rule",
];
const SEPARATORS: [&str; 4] = [",", "&", "and", "et"];

/// One reference of a marker: the byte range of its digits and the number they spell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Reference {
    pub digits: Range<usize>,
    pub number: u64,
    /// The verb is negated ("never replaces rule 1"): a mention, not a supersession.
    pub negated: bool,
}

/// Words that, right before the verb, deny it: "never replaces", "does not supersede",
/// "won't override", "ne remplace pas", "jamais remplace".
const NEGATIONS: [&str; 11] = [
    "never", "not", "don't", "doesn't", "didn't", "won't", "cannot", "can't", "no", "ne", "jamais",
];

/// Whether the word before byte `at` (the verb's start) negates it.
fn negated_before(text: &str, at: usize) -> bool {
    let before = text[..at].trim_end();
    let word_start = before
        .char_indices()
        .rev()
        .find(|(_, c)| !(c.is_alphanumeric() || *c == '\'' || *c == '\u{2019}'))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let word = before[word_start..].to_lowercase().replace('\u{2019}', "'");
    NEGATIONS.contains(&word.as_str())
}

/// The references that supersede markers in `text` make, in order of appearance.
pub(crate) fn marker_references(text: &str) -> Vec<Reference> {
    let mut found = Vec::new();
    let mut at = 0;
    while at < text.len() {
        let rest = &text[at..];
        let boundary = text[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric());
        let verb = if boundary {
            VERBS.iter().find_map(|verb| prefix_ci(rest, verb))
        } else {
            None
        };
        match verb {
            Some(length) => {
                let negated = negated_before(text, at);
                let first = found.len();
                at += length;
                if text[at..].starts_with(char::is_whitespace) {
                    at += refs(text, at, &mut found);
                }
                for reference in &mut found[first..] {
                    reference.negated = negated;
                }
            }
            None => at += rest.chars().next().map_or(1, char::len_utf8),
        }
    }
    found
}

/// The length in `text` of a prefix that lower-cases to `pattern`.
fn prefix_ci(text: &str, pattern: &str) -> Option<usize> {
    let mut expected = pattern.chars().peekable();
    let mut used = 0;
    for c in text.chars() {
        if expected.peek().is_none() {
            return Some(used);
        }
        for lower in c.to_lowercase() {
            if expected.next() != Some(lower) {
                return None;
            }
        }
        used += c.len_utf8();
    }
    expected.peek().is_none().then_some(used)
}

/// Reads `ws+ [noun ws*] ref { sep [noun ws*] ref }` at `start`; returns the bytes used.
fn refs(text: &str, start: usize, found: &mut Vec<Reference>) -> usize {
    let after_ws = |at: usize| at + (text[at..].len() - text[at..].trim_start().len());
    let mut at = after_ws(start);
    loop {
        let Some((found_here, end)) = reference(text, at) else {
            return at - start;
        };
        found.push(found_here);
        at = end;
        let trimmed = after_ws(at);
        let Some(sep) = SEPARATORS
            .iter()
            .find_map(|sep| prefix_ci(&text[trimmed..], sep))
        else {
            return at - start;
        };
        let next = after_ws(trimmed + sep);
        if reference(text, next).is_none() {
            return at - start;
        }
        at = next;
    }
}

/// `[noun ws*] ["#"] digits` at `at`: the reference and where it ends.
fn reference(text: &str, at: usize) -> Option<(Reference, usize)> {
    let mut at = at;
    if let Some(noun) = NOUNS.iter().find_map(|noun| prefix_ci(&text[at..], noun)) {
        at += noun;
        at += text[at..].len() - text[at..].trim_start().len();
    }
    if text[at..].starts_with('#') {
        at += 1;
    }
    let digits = text[at..].bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let number = text[at..at + digits].parse().ok()?;
    let end = at + digits;
    // "rule 12b" is not a reference to 12.
    if text[end..].starts_with(char::is_alphanumeric) {
        return None;
    }
    Some((
        Reference {
            digits: at..end,
            number,
            negated: false,
        },
        end,
    ))
}

/// The rule numbers that supersede markers in `text` refer to, in order of appearance.
pub(crate) fn markers(text: &str) -> Vec<u64> {
    // Cheap filter first: most instructions mention none of the verbs.
    if !has_verb_stem(text) {
        return Vec::new();
    }
    marker_references(text)
        .into_iter()
        .filter(|reference| !reference.negated)
        .map(|reference| reference.number)
        .collect()
}

/// Whether `text` contains a verb stem in any ASCII case, in one cheap pass (this runs for
/// every rule of every listing).
fn has_verb_stem(text: &str) -> bool {
    const FOLD: u64 = 0x2020_2020_2020_2020;
    let bytes = text.as_bytes();
    // A position is a candidate when it and the next byte spell, case-folded, the start of
    // a stem: "su", "re" or "ov". Eight positions are tested at once; only candidates are
    // compared with the stems.
    let pair = |a: u64, b: u64, first: u8, second: u8| has_byte(a, first) & has_byte(b, second);
    let mut i = 0;
    while let (Some(here), Some(next)) = (bytes.get(i..i + 8), bytes.get(i + 1..i + 9)) {
        let a = u64::from_le_bytes(here.try_into().expect("eight bytes")) | FOLD;
        let b = u64::from_le_bytes(next.try_into().expect("eight bytes")) | FOLD;
        let mut candidates =
            pair(a, b, b's', b'u') | pair(a, b, b'r', b'e') | pair(a, b, b'o', b'v');
        while candidates != 0 {
            let at = i + candidates.trailing_zeros() as usize / 8;
            if stem_at(&bytes[at..]) {
                return true;
            }
            candidates &= candidates - 1;
        }
        i += 8;
    }
    (i..bytes.len()).any(|at| stem_at(&bytes[at..]))
}

fn stem_at(rest: &[u8]) -> bool {
    ["supersede", "replace", "remplace", "override"]
        .iter()
        .any(|stem| {
            rest.get(..stem.len())
                .is_some_and(|w| w.eq_ignore_ascii_case(stem.as_bytes()))
        })
}

/// Why a supersede reference does not count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DanglingReason {
    /// No rule has that number.
    Missing,
    /// The referenced rule is not older (its number is not lower).
    NotOlder,
}

/// A reference that does not count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Dangling {
    /// Index of the referencing rule.
    pub index: usize,
    pub reference: u64,
    pub reason: DanglingReason,
}

/// The outcome of precedence: for each rule (by index), the numbers of the rules that
/// supersede it (empty = active), and the references that did not count.
#[derive(Debug, Default)]
pub(crate) struct Resolution {
    pub superseded_by: Vec<Vec<u64>>,
    pub dangling: Vec<Dangling>,
    /// For each rule (by index), whether it is a retirement record
    /// ([`super::retire`]): it supersedes, but is no rule of its own.
    pub retirement: Vec<bool>,
    /// For each rule (by index), whether it records two rules as distinct
    /// ([`super::distinct`]): no rule of its own either.
    pub distinct: Vec<bool>,
}

impl Resolution {
    pub(crate) fn is_active(&self, index: usize) -> bool {
        self.superseded_by[index].is_empty() && !self.is_record(index)
    }

    /// Whether the rule at `index` is a record (a retirement, or two rules distinct), no
    /// rule of its own.
    pub(crate) fn is_record(&self, index: usize) -> bool {
        self.is_retirement(index) || self.distinct.get(index).copied().unwrap_or(false)
    }

    pub(crate) fn is_retirement(&self, index: usize) -> bool {
        self.retirement.get(index).copied().unwrap_or(false)
    }

    pub(crate) fn active_count(&self) -> usize {
        (0..self.superseded_by.len())
            .filter(|&index| self.is_active(index))
            .count()
    }

    pub(crate) fn retirement_count(&self) -> usize {
        self.retirement.iter().filter(|&&r| r).count()
    }

    /// How many records there are: retirements, and two rules distinct.
    pub(crate) fn record_count(&self) -> usize {
        (0..self.retirement.len())
            .filter(|&index| self.is_record(index))
            .count()
    }
}

/// Why a rule number names no active rule of its own.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Inactive {
    Missing,
    /// A record (a retirement, or two rules distinct), no rule itself.
    Record,
    /// Superseded by these rules ("12, 14").
    SupersededBy(String),
}

/// Why rule `number` of `document` is not active (`None`: it is), as `retire` and
/// `distinct` refuse it.
pub(crate) fn inactive(
    document: &Document,
    resolution: &Resolution,
    number: u64,
) -> Option<Inactive> {
    let Some(rule) = document
        .rules()
        .find(|rule| rule.number().value() == Some(number))
    else {
        return Some(Inactive::Missing);
    };
    if resolution.is_record(rule.index) {
        return Some(Inactive::Record);
    }
    let by = &resolution.superseded_by[rule.index];
    (!by.is_empty()).then(|| {
        let by: Vec<String> = by.iter().map(u64::to_string).collect();
        Inactive::SupersededBy(by.join(", "))
    })
}

/// Every reference a rule makes: its `Supersedes` array, then markers in `Why` and
/// `Instruction`, without repeats.
pub(crate) fn references(rule: &super::file::Rule<'_>) -> Vec<u64> {
    let mut all = match &rule.supersedes() {
        Supersedes::Numbers(numbers) => numbers.to_vec(),
        _ => Vec::new(),
    };
    all.extend(markers(rule.why().display()));
    all.extend(markers(rule.instruction().display()));
    let mut seen = std::collections::HashSet::new();
    all.retain(|n| seen.insert(*n));
    all
}

/// Decides which rules are active. A rule supersedes only lower-numbered rules that exist;
/// a superseded rule stays superseded even if its superseder is later superseded too.
pub(crate) fn resolve(document: &Document) -> Resolution {
    // (number, index) sorted: one allocation, and the rules holding a number are a range.
    let mut by_number: Vec<(u64, usize)> = (0..document.len())
        .filter_map(|index| Some((document.number(index)?, index)))
        .collect();
    by_number.sort_unstable();
    let holders = |number: u64| {
        let start = by_number.partition_point(|&(n, _)| n < number);
        by_number[start..]
            .iter()
            .take_while(move |&&(n, _)| n == number)
            .map(|&(_, index)| index)
    };
    let mut resolution = Resolution {
        superseded_by: vec![Vec::new(); document.len()],
        dangling: Vec::new(),
        retirement: (0..document.len())
            .map(|index| super::file::is_retirement(&document.rule(index)))
            .collect(),
        distinct: (0..document.len())
            .map(|index| super::file::distinct_pair(&document.rule(index)).is_some())
            .collect(),
    };
    for rule in document.rules() {
        let Some(number) = rule.number().value() else {
            continue;
        };
        for reference in references(&rule) {
            let reason = if reference >= number {
                Some(DanglingReason::NotOlder)
            } else if holders(reference).next().is_none() {
                Some(DanglingReason::Missing)
            } else {
                None
            };
            match reason {
                Some(reason) => resolution.dangling.push(Dangling {
                    index: rule.index,
                    reference,
                    reason,
                }),
                None => {
                    for target in holders(reference) {
                        resolution.superseded_by[target].push(number);
                    }
                }
            }
        }
    }
    for by in &mut resolution.superseded_by {
        by.sort_unstable();
        by.dedup();
    }
    resolution
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cheap filter never drops a marker: each verb holds a stem it looks for.
    #[test]
    fn every_verb_passes_the_stem_filter() {
        for verb in VERBS {
            assert!(has_verb_stem(verb), "{verb}");
            assert!(has_verb_stem(&format!(
                "why (x {} rule 1)",
                verb.to_uppercase()
            )));
        }
    }

    #[test]
    fn english_and_french_markers() {
        assert_eq!(markers("user preference (supersedes rule 1)"), [1]);
        assert_eq!(markers("Supersedes #12."), [12]);
        assert_eq!(markers("REPLACES RULE 3"), [3]);
        assert_eq!(markers("overrides rule #4"), [4]);
        assert_eq!(markers("remplace la règle 5"), [5]);
        assert_eq!(markers("Remplace la REGLE 6"), [6]);
        assert_eq!(markers("supersedes rules 1 and 3, #7 & 9"), [1, 3, 7, 9]);
        assert_eq!(markers("remplace les règles 2 et 4"), [2, 4]);
    }

    #[test]
    fn stems_are_found_at_every_offset_and_in_any_case() {
        for verb in ["supersedes", "REPLACES", "Overrides", "rEmPlAcE"] {
            for offset in 0..20 {
                let text = format!("{} {verb} rule 7 tail", "a".repeat(offset));
                assert!(has_verb_stem(&text), "{text:?}");
                assert_eq!(markers(&text), [7], "{text:?}");
            }
        }
        assert!(!has_verb_stem("su re ov superb repla overrid"));
    }

    #[test]
    fn negated_verbs_supersede_nothing() {
        for text in [
            "this never replaces rule 1",
            "it does not supersede rule 1",
            "Doesn't override #1",
            "ne remplace pas la règle 1",
            "jamais remplace la règle 1",
        ] {
            assert_eq!(markers(text), Vec::<u64>::new(), "{text}");
            // "ne remplace pas la règle 1" is no marker at all: `pas` is not a noun.
            assert!(marker_references(text).iter().all(|r| r.negated), "{text}");
        }
        assert_eq!(markers("not this one; replaces rule 2"), [2]);
        assert_eq!(markers("Notably replaces rule 3"), [3]);
    }

    #[test]
    fn non_markers() {
        assert!(markers("supersedes the old approach").is_empty());
        assert!(markers("it replaces nothing").is_empty());
        assert!(markers("unsupersedes rule 1").is_empty());
        assert!(markers("supersedes rule 12b").is_empty());
        assert!(markers("supersedes1").is_empty());
        assert!(markers("Use the overrides file 2 times").is_empty());
        // Case folding must not create a word boundary: `İ` lower-cases to `i` + U+0307.
        assert!(markers("İsupersedes rule 2").is_empty());
        assert_eq!(markers("İ supersedes rule 2"), [2]);
    }

    #[test]
    fn only_older_existing_rules_are_superseded() {
        let source = r#"[
            {"Rule_number": 1, "Instruction": "a", "Why": "x"},
            {"Rule_number": 5, "Instruction": "b", "Why": "supersedes rule 1, rule 3"},
            {"Rule_number": 6, "Instruction": "c", "Why": "x", "Supersedes": [6]}
        ]"#;
        let document = super::super::file::parse_str(source).unwrap();
        let resolution = resolve(&document);
        assert_eq!(resolution.superseded_by, vec![vec![5], vec![], vec![]]);
        assert_eq!(resolution.dangling.len(), 2);
        assert_eq!(resolution.dangling[0].reason, DanglingReason::Missing);
        assert_eq!(resolution.dangling[1].reason, DanglingReason::NotOlder);
    }
}
