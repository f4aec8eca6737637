//! Whether a correction repeats, or contradicts, a rule already recorded: the same matcher
//! `learn` uses to refuse a duplicate (`rules::similar`), tried on the whole prompt and on
//! each of its sentences, so "No, always use named exports. Fix the header." still finds
//! rule "Always use named exports".

use serde::Serialize;

use super::{classify, injected};
use crate::rules::similar::{self, Kind};

/// An active rule, as the hook and `reflect` compare corrections with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ActiveRule {
    pub(crate) number: u64,
    pub(crate) instruction: String,
    /// The source of an imported rule (`org` for `org:12`); `None` for a local rule.
    pub(crate) source: Option<String>,
}

/// The rule a correction repeats or contradicts.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct Known {
    pub rule: u64,
    /// The source of an imported rule (`org` for `org:12`); absent for a local rule.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// `duplicate` (the rule says this already) or `contradiction` (the rule says otherwise).
    pub kind: Kind,
    pub instruction: String,
}

/// At most this many sentences of a prompt are compared with the rules, the ones the
/// classifier reads as corrections: a correction is said in a few sentences, and a pasted
/// log must not cost one comparison per line.
const MAX_SENTENCES: usize = 40;
/// The whole prompt is compared too when it is at most this long.
const MAX_WHOLE: usize = 4_000;

impl Known {
    /// How a command names the rule: `12`, or `org:12` for an imported one.
    pub(crate) fn id(&self) -> String {
        match &self.source {
            Some(source) => format!("{source}:{}", self.rule),
            None => self.rule.to_string(),
        }
    }
}

/// The rule `prompt` repeats (preferred) or contradicts, if any; `prompt` as the user
/// typed it, autofix's injected text is dropped here. Of two rules matched as closely,
/// the later in `rules` wins (list the local rules last: they win over imported ones).
pub(crate) fn find(prompt: &str, rules: &[ActiveRule]) -> Option<Known> {
    if rules.is_empty() {
        return None;
    }
    let text = injected::strip(prompt);
    let mut pieces: Vec<&str> = Vec::new();
    if text.len() <= MAX_WHOLE {
        pieces.push(text.trim());
    }
    for sentence in sentences(&text)
        .map(str::trim)
        .filter(|s| s.split_whitespace().count() >= 2)
        .filter(|s| text.len() <= MAX_WHOLE || classify::is_correction(s))
        .take(MAX_SENTENCES)
    {
        pieces.push(sentence);
        // What follows an opening "No," or "I told you:" is the rule itself: the opener's
        // "no" must not read as the opposite polarity.
        if let Some((_, rest)) = sentence.split_once([',', ':'])
            && rest.split_whitespace().count() >= 2
        {
            pieces.push(rest.trim());
        }
    }
    let mut best: Option<similar::Match> = None;
    for piece in pieces {
        // Numbered by position: a local rule and `org:N` may share a number.
        let candidates = (0u64..).zip(rules.iter().map(|r| r.instruction.as_str()));
        for found in similar::matches(piece, candidates) {
            // A repeat beats a contradiction (the user insists on a rule, not against it);
            // then the closer match.
            let better = best.as_ref().is_none_or(|b| {
                (found.kind == Kind::Duplicate && b.kind != Kind::Duplicate)
                    || (found.kind == b.kind && found.score > b.score)
                    // A tie goes to the later rule in `rules`, whichever piece found it.
                    || (found.kind == b.kind && found.score == b.score && found.rule > b.rule)
            });
            if better {
                best = Some(found);
            }
        }
    }
    let best = best?;
    let rule = &rules[usize::try_from(best.rule).ok()?];
    Some(Known {
        rule: rule.number,
        source: rule.source.clone(),
        kind: best.kind,
        instruction: best.instruction,
    })
}

/// The sentences of `text`: split at a line break or `;`, and at `.`, `!` or `?` that ends
/// a word (followed by a space or the end), so `.env` or `main.rs` stay in their sentence.
fn sentences(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let bytes = rest.as_bytes();
        let end = (0..bytes.len()).find(|&at| match bytes[at] {
            b'\n' | b';' => true,
            b'.' | b'!' | b'?' => bytes.get(at + 1).is_none_or(u8::is_ascii_whitespace),
            _ => false,
        });
        let (piece, next) = match end {
            Some(at) => (&rest[..at], &rest[at + 1..]),
            None => (rest, ""),
        };
        rest = next;
        Some(piece)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules() -> Vec<ActiveRule> {
        [
            (1, "Always run cargo fmt before committing"),
            (2, "Always use named exports"),
            (3, "Never push directly to main"),
        ]
        .into_iter()
        .map(|(number, text)| ActiveRule {
            number,
            instruction: text.to_string(),
            source: None,
        })
        .collect()
    }

    #[test]
    fn finds_the_rule_a_correction_repeats() {
        let known = find("No, always use named exports", &rules()).unwrap();
        assert_eq!((known.rule, known.kind), (2, Kind::Duplicate));
        let buried = find(
            "Fix the header. No, always use named exports! Thanks",
            &rules(),
        );
        assert_eq!(buried.map(|k| k.rule), Some(2));
        assert_eq!(find("Use tabs, not spaces", &rules()), None);
        // Deep in a long prompt, the sentence that is a correction is still compared.
        let long = format!(
            "{}No, always use named exports.",
            "Please refactor the upload handler and keep the tests green. ".repeat(2_000)
        );
        assert_eq!(find(&long, &rules()).map(|k| k.rule), Some(2));
        assert_eq!(find("No, always use named exports", &[]), None);
    }

    #[test]
    fn of_two_rules_matched_as_closely_the_later_wins() {
        let rule = |number, text: &str, source: Option<&str>| ActiveRule {
            number,
            instruction: text.to_string(),
            source: source.map(str::to_string),
        };
        // In one piece: the same text imported and local.
        let same = [
            rule(1, "Always use named exports", Some("org")),
            rule(5, "Always use named exports", None),
        ];
        let known = find("Always use named exports", &same).unwrap();
        assert_eq!((known.rule, known.source), (5, None));
        // In two pieces: each sentence repeats another rule, word for word.
        let two = [
            rule(1, "Always use tabs for indentation", Some("org")),
            rule(5, "Never push directly to main", None),
        ];
        let prompt = "Always use tabs for indentation. Never push directly to main.";
        let known = find(prompt, &two).unwrap();
        assert_eq!((known.rule, known.source), (5, None));
    }

    #[test]
    fn a_dot_inside_a_word_does_not_end_the_sentence() {
        let rules = [ActiveRule {
            number: 7,
            instruction: "Never commit the .env file".to_string(),
            source: None,
        }];
        let prompt = "That broke the deploy again, and I had to rotate every key we have. \
                      No, never commit the .env file. Revert it and push the fix to main.";
        assert_eq!(find(prompt, &rules).map(|k| k.rule), Some(7));
        assert_eq!(
            sentences("Use e.g. tabs. Keep src/main.rs small!Done\nnext; last")
                .map(str::trim)
                .collect::<Vec<_>>(),
            [
                "Use e.g",
                "tabs",
                "Keep src/main.rs small!Done",
                "next",
                "last"
            ]
        );
    }
}
