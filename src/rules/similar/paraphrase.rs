//! What the model weighs of a text against a rule, beyond the strict statement match: its
//! cues, how much of the rule's words it says (tools and choices weighing double, the verb
//! and the scope half) and how much of its own, whether it names the rule's reason, reports
//! the thing the rule forbids, or moves what the rule asks for to another tool of its group
//! ("Playwright" → "Cypress").

use std::collections::HashSet;
use std::sync::LazyLock;

use memchr::memmem::Finder;

use super::{Clause, Shape, Stems, Word, lexicon, meaning};

/// What a text says around a rule: that it repeats itself, that something changes from now
/// on, that it asks a question.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Cues {
    pub(super) repeat: bool,
    pub(super) change: bool,
    pub(super) question: bool,
    /// It tells what was done ("you imported moment", "il reste un unwrap()") rather than
    /// asking for something.
    pub(super) report: bool,
    /// It allows something ("X is fine", "tu peux", "c'est pas grave").
    pub(super) permits: bool,
    /// It reads as a rule: short before its reason, and opening as a rule does ("Always",
    /// "Never") or not as conversation does ("we", "the", "ok") and neither a report, a
    /// question, a repeat nor a change.
    pub(super) rule_like: bool,
}

impl Cues {
    /// The cues of `folded` and the text with the cue phrases that carry no polarity
    /// removed, so "from now on" is not read as words of the rule.
    pub(super) fn read(folded: &str) -> (Cues, String) {
        let [repeat, change, report, permits] = &*CUE_FINDERS;
        let has = |finders: &[(Finder<'static>, &str)]| {
            // The searchers are built once: building one a phrase a text was half of `check`.
            finders.iter().any(|(finder, phrase)| {
                finder.find(folded.as_bytes()).is_some() && contains_phrase(folded, phrase)
            })
        };
        let cues = Cues {
            repeat: has(repeat),
            change: has(change),
            question: folded.trim_end().ends_with('?'),
            report: has(report),
            permits: has(permits),
            rule_like: false,
        };
        let first = folded
            .split(|c: char| !c.is_alphanumeric() && c != '\'')
            .find(|w| !w.is_empty())
            .unwrap_or("");
        // The reason ("- because …") may be long: a rule is short before it.
        let short = super::directive(folded).split_whitespace().count() <= 20;
        // "Always list the files you changed": a rule's marker outweighs a report's words.
        let marked = lexicon::RULE_OPENERS.contains(&first) && !cues.question;
        let cues = Cues {
            rule_like: short
                && (marked
                    || (!cues.report
                        && !cues.repeat
                        && !cues.question
                        && !cues.change
                        && !lexicon::CONVERSATION_OPENERS.contains(&first))),
            ..cues
        };
        if !cues.repeat && !cues.change {
            return (cues, folded.to_string());
        }
        let mut plain = folded.to_string();
        for cue in lexicon::REPEAT_CUES.iter().chain(lexicon::CHANGE_CUES) {
            let negates = ["no", "not", "plus", "arrete", "anymore", "any more"]
                .iter()
                .any(|n| contains_phrase(cue, n));
            if !negates && contains_phrase(&plain, cue) {
                // Whole words only: "now" is no part of "unknown".
                plain = lexicon::replace_phrase(&plain, cue, " ");
            }
        }
        (cues, plain)
    }
}

/// A searcher for each cue phrase, with the phrase: repeat, change, report and permit cues.
static CUE_FINDERS: LazyLock<[Vec<(Finder<'static>, &'static str)>; 4]> = LazyLock::new(|| {
    let finders = |cues: &'static [&'static str]| {
        cues.iter()
            .map(|&cue| (Finder::new(cue.as_bytes()), cue))
            .collect()
    };
    [
        finders(lexicon::REPEAT_CUES),
        finders(lexicon::CHANGE_CUES),
        finders(lexicon::REPORT_CUES),
        finders(lexicon::PERMIT_CUES),
    ]
});

/// Whether `phrase` occurs in `text` as whole words.
fn contains_phrase(text: &str, phrase: &str) -> bool {
    lexicon::phrase_at(text, phrase, 0).is_some()
}

/// A conversational word with no part in a rule ("seriously", "encore").
pub(super) fn is_filler(word: &str) -> bool {
    static WORDS: LazyLock<HashSet<&'static str, super::Fnv>> =
        LazyLock::new(|| lexicon::FILLER.iter().copied().collect());
    WORDS.contains(word)
}

/// The weight of a word of the rule: a tool or a choice twice an ordinary word of its
/// object, the verb and the words of its scope ("… for end-to-end tests") half (users name
/// the thing and drop the rest), a generic word nothing.
fn weight(word: Word, clause: &Clause, stems: &Stems) -> f64 {
    if word.generic {
        0.0
    } else if stems.is_key(word) {
        2.0
    } else if clause.object.binary_search(&word).is_ok() {
        1.0
    } else {
        0.5
    }
}

fn holds(words: &[Word], word: Word) -> bool {
    words.binary_search(&word).is_ok()
}

/// How a text's `said` words meet a rule's clause.
pub(super) struct Overlap {
    /// The share of the rule's weight the text says.
    pub(super) covered: f64,
    /// The share of the text's own weight that is the rule's (`known`: the rule's words,
    /// its replaced thing's included).
    pub(super) precise: f64,
    /// Both sides have a meaningful word the other lacks: "cargo clippy" for "cargo fmt",
    /// "Testez" for "Documentez" — another rule, however much else they share.
    pub(super) substituted: bool,
}

fn overlap(rule: &Clause, said: &[Word], known: &[&[Word]], stems: &Stems) -> Overlap {
    let (mut total, mut shared, mut missing) = (0.0, 0.0, false);
    for &word in rule.words.iter() {
        let w = weight(word, rule, stems);
        total += w;
        if holds(said, word) {
            shared += w;
        } else if w > 0.0 {
            missing = true;
        }
    }
    let extra: f64 = said
        .iter()
        .filter(|&&w| !w.generic && !stems.is_filler(w))
        .filter(|&&w| !known.iter().any(|k| holds(k, w)))
        .map(|&w| if stems.is_key(w) { 2.0 } else { 1.0 })
        .sum();
    if total == 0.0 || shared == 0.0 {
        return Overlap {
            covered: 0.0,
            precise: 0.0,
            substituted: true,
        };
    }
    Overlap {
        covered: shared / total,
        precise: shared / (shared + extra),
        substituted: missing && extra > 0.0,
    }
}

/// How the text's main statement meets `clause` of `rule` (its main statement, or that
/// said through its word's opposite).
pub(super) fn overlap_of(clause: &Clause, text: &Shape, rule: &Shape, stems: &Stems) -> Overlap {
    let flipped: &[Word] = rule.flipped.as_deref().map_or(&[], |r| &r.words);
    overlap(
        clause,
        &text.main.words,
        &[&rule.main.words, flipped],
        stems,
    )
}

/// How the text's main statement meets what `rule` replaces, the rule's own words known.
pub(super) fn overlap_of_replaced(
    replaced: &Clause,
    text: &Shape,
    rule: &Shape,
    stems: &Stems,
) -> Overlap {
    overlap(
        replaced,
        &text.main.words,
        &[&replaced.words, &rule.main.words],
        stems,
    )
}

/// The stance `shape` takes on `word`: against it (`true`) in a negative statement or in
/// what a positive one replaces, for it (`false`) the other way; none when it does not say
/// the word, or says it both ways ("use podman compose instead of docker compose").
fn stance(shape: &Shape, word: Word) -> Option<bool> {
    let main = holds(&shape.main.words, word).then_some(shape.main.negative);
    let replaced = shape
        .replaced
        .as_deref()
        .and_then(|r| holds(&r.words, word).then_some(r.negative));
    match (main, replaced) {
        (Some(a), Some(b)) if a != b => None,
        (Some(a), _) | (None, Some(a)) => Some(a),
        (None, None) => None,
    }
}

/// The shares of the rule's meaningful words (tools double) on which the text takes the
/// rule's stance, and the opposite one: word by word, so "use podman instead of docker"
/// is against the docker that "Use docker compose" is for, whatever the main statements'
/// polarities.
pub(super) fn stances(text: &Shape, rule: &Shape, stems: &Stems) -> (f64, f64) {
    let mut words: Vec<Word> = rule
        .main
        .words
        .iter()
        .chain(rule.replaced.iter().flat_map(|r| r.words.iter()))
        .copied()
        .filter(|&w| !w.generic && !stems.is_filler(w))
        .collect();
    words.sort();
    words.dedup();
    let (mut agreed, mut opposed, mut total) = (0.0, 0.0, 0.0);
    for word in words {
        let weight = if stems.is_key(word) { 2.0 } else { 1.0 };
        total += weight;
        match (stance(text, word), stance(rule, word)) {
            (Some(a), Some(b)) if a == b => agreed += weight,
            (Some(_), Some(_)) => opposed += weight,
            _ => {}
        }
    }
    if total == 0.0 {
        (0.0, 0.0)
    } else {
        (agreed / total, opposed / total)
    }
}

/// The share of the rule's reason the text names ("the bundle grew because of axios" for
/// "- because we dropped axios to cut the bundle size").
pub(super) fn reason_covered(text: &Shape, rule: &Shape, stems: &Stems) -> f64 {
    let meaningful: Vec<Word> = rule
        .reason
        .iter()
        .copied()
        .filter(|&w| !w.generic && !stems.is_filler(w))
        .collect();
    if meaningful.is_empty() {
        return 0.0;
    }
    let said = meaningful
        .iter()
        .filter(|&&w| holds(&text.main.words, w))
        .count();
    said as f64 / meaningful.len() as f64
}

/// 1 when the text asks for the thing the rule replaces ("use moment for dates" against
/// "use date-fns, not moment"), without the rule's own choice.
pub(super) fn asks_for_replaced(text: &Shape, rule: &Shape) -> f64 {
    let said = &text.main.words;
    let asked = rule.replaced.as_deref().is_some_and(|old| {
        !old.object.is_empty()
            && old.object.iter().all(|&w| holds(said, w))
            && !rule.main.object.iter().any(|&w| holds(said, w))
    });
    f64::from(u8::from(asked && !text.main.negative))
}

/// 1 when the text replaces what the rule asks for: "X instead of O" said of the rule's O.
pub(super) fn replaces_the_object(text: &Shape, rule: &Shape) -> f64 {
    let replaces = text.replaced.as_deref().is_some_and(|new_replaced| {
        !rule.main.object.is_empty()
            && rule
                .main
                .object
                .iter()
                .all(|&w| holds(&new_replaced.words, w))
            && !text.main.object.is_empty()
            && !text.main.object.iter().all(|&w| holds(&rule.main.words, w))
    });
    f64::from(u8::from(replaces && !rule.main.negative))
}

/// The tools, the meaningful words the text shares with the rule (its replaced thing and
/// reason included), and the text's meaningful words of its own.
pub(super) fn counts(text: &Shape, rule: &Shape, stems: &Stems) -> (usize, usize, usize) {
    let replaced: &[Word] = rule.replaced.as_deref().map_or(&[], |r| &r.words);
    let known = [&rule.main.words[..], replaced, &rule.reason];
    let (mut keys, mut shared, mut own) = (0, 0, 0);
    for &w in text
        .main
        .words
        .iter()
        .filter(|w| !w.generic && !stems.is_filler(**w))
    {
        if known.iter().any(|k| holds(k, w)) {
            shared += 1;
            keys += usize::from(stems.is_key(w));
        } else {
            own += 1;
        }
    }
    (keys, shared, own)
}

/// How much of the rule's statement the text says word for word in meaning, and how much
/// of the text the rule accounts for: each meaningful word of one side is matched with its
/// closest word of the other (the same stem is 1; another word its cosine of meaning above
/// [`WORD_GATE`], rescaled), so "a large file" says "a big file" in part without sharing
/// "big" (cosine 0.84; "defect" and "bug" 0.57).
pub(super) fn aligned(text: &Shape, rule: &Shape, stems: &Stems) -> Aligned {
    let content = |words: &[Word]| -> Vec<Word> {
        words
            .iter()
            .copied()
            .filter(|w| !w.generic && !stems.is_filler(*w))
            .collect()
    };
    let said: Vec<Word> = [
        &text.main.words[..],
        text.replaced.as_deref().map_or(&[], |r| &r.words),
        &text.reason,
    ]
    .concat();
    let (said, asked) = (content(&said), content(&rule.main.words));
    if said.is_empty() || asked.is_empty() {
        return Aligned::default();
    }
    let closeness = |a: Word, b: Word| -> f64 {
        if a.stem == b.stem {
            return 1.0;
        }
        match (stems.vector(a), stems.vector(b)) {
            (Some(x), Some(y)) => {
                ((meaning::closeness(x, y) - WORD_GATE) / (1.0 - WORD_GATE)).max(0.0)
            }
            _ => 0.0,
        }
    };
    // Each pair's closeness once: a row a word of the rule, a column a word of the text.
    let table: Vec<f64> = asked
        .iter()
        .flat_map(|&a| said.iter().map(move |&b| (a, b)))
        .map(|(a, b)| closeness(a, b))
        .collect();
    let row = |r: usize| table[r * said.len()..(r + 1) * said.len()].iter().copied();
    let best_of_row = |r: usize| row(r).fold(0.0, f64::max);
    let covered = (0..asked.len()).map(best_of_row).sum::<f64>() / asked.len() as f64;
    let best_of_column = |c: usize| {
        (0..asked.len())
            .map(|r| table[r * said.len() + c])
            .fold(0.0, f64::max)
    };
    let precise = (0..said.len()).map(best_of_column).sum::<f64>() / said.len() as f64;
    // The object is what sets a rule apart from the others of its topic: "snapshot tests",
    // not "tests".
    let object = asked
        .iter()
        .enumerate()
        .filter(|(_, w)| rule.main.object.contains(w))
        .map(|(r, _)| best_of_row(r))
        .reduce(f64::min);
    Aligned {
        covered,
        precise,
        object: object.unwrap_or(covered),
    }
}

/// How much of a rule a text says in meaning, word by word ([`aligned`]).
#[derive(Default)]
pub(super) struct Aligned {
    /// The share of the rule's statement said.
    pub(super) covered: f64,
    /// The share of the text the rule accounts for.
    pub(super) precise: f64,
    /// The least said of the words of the rule's object (its statement's share when it
    /// names none).
    pub(super) object: f64,
}

/// The cosine of two words' meanings below which they are other words.
const WORD_GATE: f64 = 0.4;

/// "Let's move the e2e tests to Cypress" against "Always use Playwright for end-to-end
/// tests": the rule's tool gone and another of its group asked for in its place. `None`
/// when not; else the share of the rest of the rule (its scope) the text keeps.
pub(super) fn substitutes(text: &Shape, rule: &Shape, stems: &Stems) -> Option<f64> {
    if text.main.negative || rule.main.negative {
        return None;
    }
    let said = &text.main.words;
    let replaced: &[Word] = rule.replaced.as_deref().map_or(&[], |r| &r.words);
    let (old, group) = rule
        .main
        .object
        .iter()
        .find_map(|&w| Some((w, stems.group(w)?)))?;
    if holds(said, old) {
        return None;
    }
    let moved_to = said.iter().any(|&w| {
        w != old
            && stems.group(w) == Some(group)
            && (!holds(&rule.main.words, w) || holds(replaced, w))
    });
    if !moved_to {
        return None;
    }
    let context: Vec<Word> = rule
        .main
        .words
        .iter()
        .copied()
        .filter(|&w| !w.generic && w != old && rule.main.verb != Some(w))
        .filter(|&w| stems.group(w) != Some(group))
        .collect();
    let kept = context.iter().filter(|&&w| holds(said, w)).count();
    Some(if context.is_empty() {
        1.0
    } else {
        kept as f64 / context.len() as f64
    })
}

/// "You imported moment in the new component", "double quotes again": a text that names
/// the very thing the rule forbids (what it replaces, the object of a "never", the other
/// side of its choice) while telling what was done is the user repeating the rule.
pub(super) fn complains(text: &Shape, rule: &Shape, stems: &Stems) -> Option<f64> {
    if !text.cues.report && !text.cues.repeat && !text.cues.question {
        return None;
    }
    let said = &text.main.words;
    let mut forbidden: Vec<Word> = Vec::new();
    if let Some(old) = rule.replaced.as_deref() {
        forbidden.extend(old.object.iter().copied());
    }
    if rule.main.negative {
        forbidden.extend(rule.main.object.iter().copied());
    }
    if let Some(flipped) = rule.flipped.as_deref() {
        forbidden.extend(
            flipped
                .object
                .iter()
                .filter(|w| !holds(&rule.main.words, **w)),
        );
    }
    let named: Vec<Word> = forbidden
        .into_iter()
        .filter(|&w| !w.generic && holds(said, w))
        .collect();
    if !named.iter().any(|&w| stems.is_key(w)) && named.len() < 2 {
        return None;
    }
    let context = rule
        .main
        .words
        .iter()
        .chain(rule.reason.iter())
        .filter(|&&w| !w.generic && !named.contains(&w) && holds(said, w))
        .count();
    Some(0.6 + 0.1 * context.min(3) as f64)
}

/// Two words alike enough to be one misspelt or inflected otherwise: the same stem, the
/// same first five letters of two long words ("suppression", "supprimer"), or one letter
/// apart in words of five letters or more ("lockfle", "lockfile").
fn alike(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    let (la, lb) = (a.chars().count(), b.chars().count());
    if la >= 6 && lb >= 6 && a.is_ascii() && b.is_ascii() && a[..5] == b[..5] {
        return true;
    }
    la >= 5 && lb >= 5 && la.abs_diff(lb) <= 1 && strsim::damerau_levenshtein(a, b) <= 1
}

/// The loose overlap of the text with the rule's main statement and with its reason:
/// words matched by [`alike`] count, as [`overlap`] counts exact ones (covered of the
/// statement, covered of the reason, precise).
pub(super) fn loosely(text: &Shape, rule: &Shape, stems: &Stems) -> (f64, f64, f64) {
    let said: Vec<&str> = text
        .main
        .words
        .iter()
        .filter(|w| !w.generic && !stems.is_filler(**w))
        .map(|&w| stems.text(w.stem))
        .collect();
    let found = |word: Word| said.iter().any(|s| alike(s, stems.text(word.stem)));
    let (mut total, mut shared) = (0.0, 0.0);
    for &word in rule.main.words.iter() {
        let w = weight(word, &rule.main, stems);
        total += w;
        if w > 0.0 && found(word) {
            shared += w;
        }
    }
    let reason: Vec<Word> = rule
        .reason
        .iter()
        .copied()
        .filter(|&w| !w.generic && !stems.is_filler(w))
        .collect();
    let reason_said = reason.iter().filter(|&&w| found(w)).count();
    let known: Vec<&str> = rule
        .main
        .words
        .iter()
        .chain(rule.replaced.iter().flat_map(|r| r.words.iter()))
        .chain(reason.iter())
        .map(|&w| stems.text(w.stem))
        .collect();
    let own = said
        .iter()
        .filter(|s| !known.iter().any(|k| alike(s, k)))
        .count();
    let matched = said.len() - own;
    (
        if total > 0.0 { shared / total } else { 0.0 },
        if reason.is_empty() {
            0.0
        } else {
            reason_said as f64 / reason.len() as f64
        },
        if said.is_empty() {
            0.0
        } else {
            matched as f64 / said.len() as f64
        },
    )
}

/// Where the two statements differ: each has a word of its object the other lacks
/// ("cargo [clippy]" for "cargo [fmt]", "named [imports]" for "named [exports]") or its own
/// verb ("[log] errors" for "[return] errors"), and each a word of its scope the other
/// lacks ("… in [Python]" for "… in [YAML]").
pub(super) fn substitutions(text: &Shape, rule: &Shape, stems: &Stems) -> (bool, bool) {
    let meaningful = |w: &Word| !w.generic && !stems.is_filler(*w);
    let rule_knows = |w: Word| {
        holds(&rule.main.words, w)
            || rule.replaced.as_deref().is_some_and(|r| holds(&r.words, w))
            || rule.flipped.as_deref().is_some_and(|f| holds(&f.words, w))
    };
    let scope = |clause: &Clause| -> Vec<Word> {
        clause
            .words
            .iter()
            .copied()
            .filter(|w| meaningful(w) && clause.verb != Some(*w) && !holds(&clause.object, *w))
            .collect()
    };
    let said = &text.main.words;
    let object = rule
        .main
        .object
        .iter()
        .any(|&w| meaningful(&w) && !holds(said, w))
        && text
            .main
            .object
            .iter()
            .any(|&w| meaningful(&w) && !rule_knows(w));
    let scoped = scope(&rule.main).iter().any(|&w| !holds(said, w))
        && scope(&text.main).iter().any(|&w| !rule_knows(w));
    // Another action on the same thing: "log errors" for "return errors".
    let verb = match (rule.main.verb, text.main.verb) {
        (Some(a), Some(b)) => {
            a != b && meaningful(&a) && meaningful(&b) && !holds(said, a) && !rule_knows(b)
        }
        _ => false,
    };
    (object || verb, scoped)
}
