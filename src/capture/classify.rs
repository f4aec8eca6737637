//! The correction classifier: decides, deterministically and in time linear in the
//! prompt's length, whether a prompt corrects the agent or states a project convention
//! ("no, use pnpm not npm", "I prefer early returns", "retiens : les migrations doivent
//! toujours être réversibles"). English and French.
//!
//! The prompt is reduced to lower-case, accent-free tokens with sentence breaks, quoted and
//! fenced text dropped (a quoted error message is not the user speaking) and autofix's own
//! injected text dropped before that. Each sentence, and each pair of adjacent sentences,
//! becomes a set of features: its words, pairs of words, first words, letter groups (so a
//! typo still matches), whether it is a question, and which hand-written cue phrases it
//! holds (the lists below). A linear model (`model.rs`, trained by `train.rs` on the
//! labelled corpus) scores each unit; the prompt is a correction when its best unit
//! reaches the threshold, so a correction buried in a long request still counts.

use std::sync::OnceLock;

use crate::text::cues::{EXCUSES, PERSONAL, QUESTION_WORDS, STRONG, STRONG_OPENERS, TOLD, WEAK};
use crate::text::linear::Linear;
use crate::text::{self, fold_accent};

/// The model's file, written by `train` (see [`crate::text::linear`] for its form).
const MODEL_FILE: &str = include_str!("model.tsv");

/// The classifier's model, read on first use.
fn model() -> &'static Linear {
    static MODEL: OnceLock<Linear> = OnceLock::new();
    MODEL.get_or_init(|| Linear::read(MODEL_FILE))
}

/// Whether `prompt` is a correction or a convention worth recording as a rule: the best
/// score of its sentences (alone or with the next one) reaches the model's threshold. It
/// stops at the first unit that does.
pub(crate) fn is_correction(prompt: &str) -> bool {
    let threshold = model().threshold;
    best_unit(prompt, Some(threshold)) >= threshold
}

/// The prompt's score: the model's logit of its most correction-like unit (a sentence, or
/// two adjacent ones), after autofix's injected text is dropped.
#[cfg(test)]
pub(crate) fn score(prompt: &str) -> f32 {
    best_unit(prompt, None)
}

/// The best unit's score, scoring one sentence at a time (memory follows the longest
/// sentence, not the prompt); with `stop_at`, the first score reaching it is returned.
/// The same units, features and order of addition as [`prompt_units`], which training
/// scores.
fn best_unit(prompt: &str, stop_at: Option<f32>) -> f32 {
    let text = normalize(&super::injected::strip(prompt));
    let mut best = f32::NEG_INFINITY;
    let mut previous: Option<Vec<(String, f32)>> = None;
    for sentence in sentences(&text) {
        let weighted: Vec<(String, f32)> = sentence
            .into_iter()
            .map(|feature| {
                let weight = model().weight(&feature).unwrap_or(0.0);
                (feature, weight)
            })
            .collect();
        let alone = model().bias + weighted.iter().map(|(_, w)| w).sum::<f32>();
        best = best.max(alone);
        if let Some(previous) = &previous {
            best = best.max(model().bias + union_sum(previous, &weighted));
        }
        if stop_at.is_some_and(|at| best >= at) {
            return best;
        }
        previous = Some(weighted);
    }
    if best == f32::NEG_INFINITY {
        // No sentence at all: the one unit `empty`.
        return model().bias + model().weight("empty").unwrap_or(0.0);
    }
    best
}

/// The sum of the weights of the union of two sorted feature lists, in sorted order.
fn union_sum(a: &[(String, f32)], b: &[(String, f32)]) -> f32 {
    let (mut i, mut j, mut sum) = (0, 0, 0f32);
    while i < a.len() || j < b.len() {
        let take_a = j == b.len() || (i < a.len() && a[i].0 <= b[j].0);
        if take_a {
            if j < b.len() && a[i].0 == b[j].0 {
                j += 1;
            }
            sum += a[i].1;
            i += 1;
        } else {
            sum += b[j].1;
            j += 1;
        }
    }
    sum
}

/// The feature sets of the sentences of a normalised text, in order.
fn sentences(text: &str) -> impl Iterator<Item = Vec<String>> + '_ {
    text.split('|')
        .map(str::trim)
        .filter(|s| !s.is_empty() && *s != "," && *s != "?")
        .map(sentence_features)
}

/// The units of `prompt` as the model scores them, autofix's injected text dropped: each
/// sentence, and each sentence with the next (a correction may span "ugh, not again.
/// tabs, not spaces"). Sorted, without repeats. Training scores these.
#[cfg(test)]
pub(crate) fn prompt_units(prompt: &str) -> Vec<Vec<String>> {
    let text = normalize(&super::injected::strip(prompt));
    let sentences: Vec<Vec<String>> = sentences(&text).collect();
    if sentences.is_empty() {
        return vec![vec!["empty".to_string()]];
    }
    let mut units: Vec<Vec<String>> = Vec::with_capacity(sentences.len() * 2);
    for (at, sentence) in sentences.iter().enumerate() {
        units.push(sentence.clone());
        if let Some(next) = sentences.get(at + 1) {
            let mut pair = sentence.clone();
            pair.extend(next.iter().cloned());
            pair.sort_unstable();
            pair.dedup();
            units.push(pair);
        }
    }
    units
}

/// The features of one normalised sentence (`sentence` without its `|` marks): words,
/// adjacent pairs of words, its first words, letter groups (for typos), whether it is a
/// question, and the cue phrases it holds.
fn sentence_features(sentence: &str) -> Vec<String> {
    let tokens: Vec<&str> = sentence.split(' ').filter(|t| !t.is_empty()).collect();
    let question = tokens.last() == Some(&"?");
    let words: Vec<&str> = tokens.iter().copied().filter(|t| *t != "?").collect();
    let mut features = Vec::with_capacity(words.len() * 8 + 8);
    let marked = format!("| {} |", words.join(" "));
    if let Some(first) = words.first() {
        features.push(format!("^ {first}"));
        if let Some(second) = words.get(1) {
            features.push(format!("^^ {first} {second}"));
        }
    }
    let mut previous = "^";
    for &word in &words {
        if word != "," {
            features.push(format!("w {word}"));
            if question {
                features.push(format!("?w {word}"));
            }
            if word.chars().count() >= 4 {
                let letters: Vec<char> = format!("<{word}>").chars().collect();
                for gram in letters.windows(4) {
                    features.push(format!("c {}", gram.iter().collect::<String>()));
                }
            }
        }
        features.push(format!("b {previous} {word}"));
        previous = word;
    }
    if question {
        features.push("?".to_string());
        if let Some(first) = words.first() {
            features.push(format!("?^ {first}"));
        }
    }
    features.push(
        match words.len() {
            0..=3 => "n short",
            4..=9 => "n medium",
            10..=24 => "n long",
            _ => "n very long",
        }
        .to_string(),
    );
    cue_features(&marked, question, &mut features);
    features.sort_unstable();
    features.dedup();
    features
}

/// The hand-written cue phrases as features: which kinds a sentence holds.
fn cue_features(sentence: &str, question: bool, features: &mut Vec<String>) {
    let count = |cues: &[&str]| cues.iter().filter(|cue| has_cue(sentence, cue)).count();
    let mut push = |name: &str, n: usize| {
        if n > 0 {
            features.push(format!("k {name}"));
            // A cue in a question ("Should we always…?") weighs otherwise.
            if question {
                features.push(format!("k {name} ?"));
            }
        }
        if n > 1 {
            features.push(format!("k {name} 2"));
        }
    };
    push("personal", count(PERSONAL) + count(&TOLD));
    push("strong", count(STRONG));
    push("opener", count(STRONG_OPENERS));
    push("weak", count(WEAK));
    push("ne jamais", usize::from(french_never(sentence)));
    push(
        "excuse",
        usize::from(EXCUSES.iter().any(|cue| sentence.starts_with(cue))),
    );
    let first_word = sentence[2..].split(' ').next().unwrap_or("");
    push(
        "asks",
        usize::from(question && QUESTION_WORDS.contains(&first_word)),
    );
}

/// French "ne … jamais" around any verb ("ne supprime jamais", "n'ajoute jamais").
fn french_never(sentence: &str) -> bool {
    let words: Vec<&str> = sentence.split(' ').collect();
    words.iter().enumerate().any(|(at, word)| {
        *word == "jamais"
            && words[at.saturating_sub(3)..at]
                .iter()
                .any(|w| *w == "ne" || (w.starts_with("n'") && w.len() > 2))
    })
}

/// Whether `cue` occurs in `sentence` on token boundaries. Cues that start with `|` or
/// end with a space carry their own boundaries.
fn has_cue(sentence: &str, cue: &str) -> bool {
    let bytes = sentence.as_bytes();
    sentence.match_indices(cue).any(|(at, _)| {
        let before = at == 0 || bytes[at - 1] == b' ' || cue.starts_with('|');
        let end = at + cue.len();
        let after = end == bytes.len() || bytes[end] == b' ' || cue.ends_with(' ');
        before && after
    })
}

/// The prompt as the model reads it: each sentence (as [`text::sentences`] splits them)
/// in lower-case, accent-free tokens separated by single spaces and closed by ` |`;
/// commas, colons and question marks kept as tokens. What the user did not say in their
/// own words is dropped first ([`spoken`]).
fn normalize(prompt: &str) -> String {
    let spoken = spoken(prompt);
    let mut out = String::with_capacity(spoken.len() + 8);
    let push_token = |out: &mut String, token: &str| {
        if !out.ends_with(' ') && !out.is_empty() {
            out.push(' ');
        }
        out.push_str(token);
        out.push(' ');
    };
    let worded = text::sentences(&spoken).filter(|s| s.chars().any(char::is_alphanumeric));
    for sentence in worded {
        for c in sentence.chars() {
            match c {
                '\'' | '\u{2019}' | '\u{2018}' => out.push('\''),
                '-' if !out.ends_with(' ') && !out.is_empty() => out.push('-'),
                ',' => push_token(&mut out, ","),
                // A colon or semicolon joins clauses of one thought ("I told you: never…",
                // "You used X; does it stream?"): a token, and no sentence ends at it.
                ':' | ';' => push_token(&mut out, ":"),
                '?' => push_token(&mut out, "?"),
                c if c.is_alphanumeric() => {
                    for lower in c.to_lowercase() {
                        out.push(fold_accent(lower));
                    }
                }
                _ => {
                    if !out.ends_with(' ') && !out.is_empty() {
                        out.push(' ');
                    }
                }
            }
        }
        if !sentence.ends_with(';') {
            push_token(&mut out, "|");
        }
    }
    out
}

/// `prompt` without what the user did not say in their own words: fenced code blocks and
/// `>` quoted lines (pasted text), and text inside backticks, double quotes and guillemets
/// (a quoted error message is not the user speaking), each left as a space.
fn spoken(prompt: &str) -> String {
    let mut out = String::with_capacity(prompt.len());
    let mut quoted: Option<char> = None;
    let mut fenced = false;
    let lines = prompt.split_inclusive('\n').filter(|line| {
        let line = line.trim_start();
        if line.starts_with("```") || line.starts_with("~~~") {
            fenced = !fenced;
            return false;
        }
        !fenced && !line.starts_with('>')
    });
    for c in lines.flat_map(str::chars) {
        if let Some(close) = quoted {
            if c == close || (close == '`' && c == '\n') {
                quoted = None;
                out.push(if c == '\n' { '\n' } else { ' ' });
            }
            continue;
        }
        match c {
            '`' => quoted = Some('`'),
            '"' => quoted = Some('"'),
            '\u{201c}' => quoted = Some('\u{201d}'),
            '\u{ab}' => quoted = Some('\u{bb}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalizes_to_tokens_and_sentences() {
        assert_eq!(
            normalize("No, use `npm ci`. Désormais: tabs!"),
            "no , use | desormais : tabs | "
        );
        assert_eq!(normalize("I said \"never\" here?"), "i said here ? | ");
        assert_eq!(normalize("C’est faux"), "c'est faux | ");
        assert_eq!(
            normalize("Why?\n```\nno, never\n```\n> no, always\nok"),
            "why ? | ok | "
        );
        // The one splitter's sentences: a dot inside a word ends none, and a semicolon
        // joins its clauses.
        assert_eq!(
            normalize("Keep .env out (always); see main.rs now. Done"),
            "keep env out always : see main rs now | done | "
        );
    }

    /// The score as training computes it: every unit whole.
    fn reference_score(prompt: &str) -> f32 {
        prompt_units(prompt)
            .iter()
            .map(|unit| {
                model().bias
                    + unit
                        .iter()
                        .map(|f| model().weight(f).unwrap_or(0.0))
                        .sum::<f32>()
            })
            .fold(f32::NEG_INFINITY, f32::max)
    }

    #[test]
    fn every_weight_of_the_model_is_found_by_the_search() {
        crate::text::linear::assert_searchable(model());
        assert!(model().threshold != 0.0 && model().bias != 0.0);
    }

    #[test]
    fn scoring_one_sentence_at_a_time_is_scoring_every_unit() {
        for prompt in [
            "",
            "ugh, not again. tabs, not spaces",
            "Fix the parser. Then the lexer. No, use pnpm not npm! Thanks",
            "Pourquoi ? Parce que. Retiens : les migrations doivent toujours être réversibles.",
            "a a a. a a. b",
        ] {
            assert_eq!(score(prompt), reference_score(prompt), "{prompt}");
        }
    }

    #[test]
    fn the_examples_of_the_issue() {
        for prompt in [
            "no, use pnpm not npm",
            "I told you: never commit .env",
            "from now on, run the linter before you commit",
            "we use tabs here",
            "Non, utilise plutôt fetch",
            "you forgot the changelog again",
        ] {
            assert!(is_correction(prompt), "{prompt}: {}", score(prompt));
            assert_eq!(score(prompt), reference_score(prompt), "{prompt}");
        }
        for prompt in [
            "How do I never lose data?",
            "Use the debugger to find the crash",
            "Never mind, let's look at the parser",
            "Fix the error \"never use a moved value\"",
            "",
        ] {
            assert!(!is_correction(prompt), "{prompt}: {}", score(prompt));
        }
    }
}
