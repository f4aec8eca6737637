//! The one judgment every caller makes of a text against the active rules: *repeats rule
//! N*, *reverses rule N*, or nothing (a new rule). `learn` asks it of a new instruction,
//! the prompt hook, `reflect` and `ledger` of what the user typed, `check` of each pair of
//! rules: the same pieces (one sentence splitter), the same words (one normaliser), the
//! same relation, the same order of the matches.

use memchr::memmem::Finder;

use super::{
    Judgment, Kind, Match, Near, Shape, Stems, clip, fold, meaning, model, needles, relate, round,
    weights,
};

/// At most this many pieces of a text are compared with the rules: a correction is said in
/// a few sentences, and a pasted log must not cost one comparison per line.
const MAX_PIECES: usize = 60;

/// The relation of a text, read as its pieces, to a rule, and the piece it rests on: the
/// closest of the strict statement match of a piece that reads as a rule (short, not a
/// report, a question nor a repeat) and the model's verdicts on the pieces it weighs, each
/// against the thresholds of its kind of piece.
pub(super) fn relation<'s>(
    pieces: &'s [Shape],
    rule: &Shape,
    stems: &Stems,
) -> Option<(Kind, f64, &'s Shape)> {
    weigh(pieces, rule, stems).0
}

/// The closer of two verdicts: the higher score, then a repeat before a reversal.
fn closer(a: &(Kind, f64, &Shape), b: &(Kind, f64, &Shape)) -> std::cmp::Ordering {
    a.1.total_cmp(&b.1).then(b.0.cmp(&a.0))
}

/// [`relation`], and the highest near odds of any piece, weighed or not
/// ([`model::near_odds`]): how near the text comes to the rule when it reaches no verdict.
fn weigh<'s>(
    pieces: &'s [Shape],
    rule: &Shape,
    stems: &Stems,
) -> (Option<(Kind, f64, &'s Shape)>, f64) {
    let strict = pieces
        .iter()
        .filter(|piece| piece.cues.rule_like)
        .filter_map(|piece| {
            let (kind, score) = relate(piece, rule)?;
            Some((kind, score, piece))
        })
        .max_by(closer);
    let mut modelled: Option<(Kind, f64, &Shape)> = None;
    let mut nearest = 0.0_f64;
    for piece in pieces {
        let f = model::features(piece, rule, stems);
        // A piece that says too little for a verdict may still come near: the agent the
        // near rule is shown to tells which.
        if !model::says_enough(&f) {
            if model::comes_near(&f) {
                nearest = nearest.max(model::near_odds(&f));
            }
            continue;
        }
        nearest = nearest.max(model::near_odds(&f));
        if let Some((kind, score)) = model::verdict(model::odds(&f), piece.cues.rule_like) {
            let found = (kind, score, piece);
            if modelled.is_none_or(|best| closer(&found, &best).is_gt()) {
                modelled = Some(found);
            }
        }
    }
    (
        [strict, modelled].into_iter().flatten().max_by(closer),
        nearest,
    )
}

/// The pieces of `text` compared with each rule: each sentence of two words or more, and
/// each of its clauses (between commas and colons), so what follows "No, …" or "I told
/// you: …" is read without the opener, whose "no" is not the rule's polarity.
pub(super) fn pieces(text: &str) -> Vec<&str> {
    let mut pieces = Vec::new();
    for sentence in crate::meaning::sentences(text)
        .map(str::trim)
        .filter(|s| s.split_whitespace().count() >= 2)
    {
        pieces.push(sentence);
        // Each clause too: "please use pnpm, npm keeps breaking the lockfile".
        let clauses: Vec<&str> = sentence.split([',', ':']).map(str::trim).collect();
        if clauses.len() > 1 {
            pieces.extend(
                clauses
                    .into_iter()
                    .filter(|c| c.split_whitespace().count() >= 2),
            );
        }
        if pieces.len() >= MAX_PIECES {
            break;
        }
    }
    pieces
}

/// The rules among `candidates` (number, instruction) that `text` repeats or reverses,
/// best first: the closest, then a repeat before a reversal, then the later rule.
pub(crate) fn matches<'a>(
    text: &str,
    candidates: impl Iterator<Item = (u64, &'a str)>,
) -> Vec<Match> {
    judgment(text, candidates).matches
}

/// What the judgment makes of a text against `candidates` (number, instruction): the rules
/// it repeats or reverses, best first (the closest, then a repeat before a reversal, then
/// the later rule), and, when it repeats or reverses none, the rule it comes nearest to
/// saying, if the model's odds reach [`weights::NEAR_THRESHOLD`].
pub(crate) fn judgment<'a>(
    text: &str,
    candidates: impl Iterator<Item = (u64, &'a str)>,
) -> Judgment {
    let mut stems = Stems::new();
    let shapes: Vec<Shape> = pieces(text)
        .into_iter()
        .map(|piece| Shape::of(piece, &mut stems))
        .filter(|shape| shape.meaningful().next().is_some())
        .collect();
    if shapes.is_empty() {
        return Judgment::default();
    }
    // Most rules share no meaningful word with the text: a substring search rules them out
    // before they are parsed into words.
    let mut wanted: Vec<String> = shapes.iter().flat_map(|s| needles(s, &stems)).collect();
    wanted.sort();
    wanted.dedup();
    let finders: Vec<Finder<'_>> = wanted
        .iter()
        .map(|needle| Finder::new(needle.as_bytes()))
        .collect();
    // Only conversation is judged by meaning alone (`model::weighs`).
    let meanings: Vec<&meaning::Meaning> = shapes
        .iter()
        .filter(|shape| !shape.cues.rule_like)
        .filter_map(Shape::meaning)
        .collect();
    let mut near: Option<Near> = None;
    let mut found: Vec<Match> = candidates
        .filter_map(|(rule, instruction)| {
            let folded = fold(clip(instruction, crate::rules::file::MAX_FIELD_CHARS));
            // The rule's meaning, read once: for the gate when it shares no needle, then
            // for the model.
            let meaning = if finders.iter().any(|f| holds_needle(f, folded.as_bytes())) {
                meaning::of_folded(&folded)
            } else {
                if meanings.is_empty() {
                    return None;
                }
                let meaning = meaning::of_folded(&folded)?;
                if !means_the_same(&meanings, &meaning) {
                    return None;
                }
                Some(meaning)
            };
            let old = Shape::of_folded_with(&folded, meaning, &mut stems);
            let (verdict, nearest) = weigh(&shapes, &old, &stems);
            // The later rule wins a tie, as it does among the matches.
            if nearest >= weights::NEAR_THRESHOLD && near.as_ref().is_none_or(|n| nearest >= n.odds)
            {
                near = Some(Near {
                    rule,
                    odds: nearest,
                    score: round(nearest.min(0.99)),
                    instruction: instruction.trim().to_string(),
                });
            }
            let (kind, score, piece) = verdict?;
            Some(Match {
                rule,
                kind,
                // A probability; 1.00 would read as the same text, which is no match.
                score: round(score.min(0.99)),
                instruction: instruction.trim().to_string(),
                words: shared_words(piece, &old, &stems),
            })
        })
        .collect();
    found.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then(a.kind.cmp(&b.kind))
            .then(b.rule.cmp(&a.rule))
    });
    Judgment {
        near: near.filter(|_| found.is_empty()),
        matches: found,
    }
}

/// Whether a piece's meaning is close to that of a rule: a rule sharing no word with the
/// text is still judged then.
fn means_the_same(pieces: &[&meaning::Meaning], rule: &meaning::Meaning) -> bool {
    pieces
        .iter()
        .any(|piece| meaning::closeness(piece, rule) >= model::MEANING_GATE)
}

/// Whether `haystack` holds the needle of `finder`; a short one (" ag", "`rg": its first
/// byte the edge of a word) only as a whole word, so "agreed" does not hold "ag".
fn holds_needle(finder: &Finder<'_>, haystack: &[u8]) -> bool {
    let needle = finder.needle();
    let short = needle.len() <= 4 && !needle[0].is_ascii_alphanumeric();
    if !short {
        return finder.find(haystack).is_some();
    }
    finder.find_iter(haystack).any(|at| {
        haystack
            .get(at + needle.len())
            .is_none_or(|&next| !next.is_ascii_alphanumeric())
    })
}

/// The meaningful words a text and a rule share, as their stems read: what a verdict
/// rests on.
fn shared_words(text: &Shape, rule: &Shape, stems: &Stems) -> Vec<String> {
    let said = |shape: &Shape| {
        let mut words: Vec<_> = shape.main.words.to_vec();
        if let Some(replaced) = &shape.replaced {
            words.extend(replaced.words.iter().copied());
        }
        words.sort();
        words
    };
    let (ours, theirs) = (said(text), said(rule));
    let mut shared: Vec<String> = ours
        .iter()
        .filter(|w| !w.generic && theirs.binary_search(w).is_ok())
        .map(|&w| stems.form(w).to_string())
        .collect();
    shared.dedup();
    shared
}
