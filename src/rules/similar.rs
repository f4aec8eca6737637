//! The strict relation of a text to the rules: the one verdict the tool states itself. A
//! text *repeats* a rule when one of its sentences says the rule's directive (its text
//! before the reason) in the same words, and *reverses* it when it says the same words
//! under the opposite polarity ("Always use X" / "Never use X", "Prefer X" / "Avoid X",
//! "Utilise X" / "N'utilise pas X"). Case, spacing, punctuation at a word's edges and
//! Markdown marks are set aside, and so are the words that only give a polarity. Anything
//! less than that is for the sentence model to retrieve ([`crate::meaning`]) and for the
//! agent or the person to judge: the tool states no verdict it cannot back.

use std::collections::HashMap;

use serde::Serialize;

use crate::report::jsonpos;
use crate::text::cues::{ADDRESSES, AFFIRMING, ALTERNATIVES, DENYING};
use crate::text::{self, words_only};

/// How a text relates to a rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Kind {
    /// The rule's directive in the same words.
    Duplicate,
    /// The rule's directive in the same words under the opposite polarity.
    Contradiction,
}

/// An existing rule that a text repeats or reverses.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct Match {
    /// The existing rule's number.
    pub rule: u64,
    pub kind: Kind,
    /// The existing rule's instruction.
    pub instruction: String,
}

/// A directive read strictly: its words, the polarity words taken out, and whether it
/// forbids what they say.
#[derive(Debug, PartialEq, Eq)]
struct Statement {
    words: String,
    forbids: bool,
}

/// `said` without a last clause that addresses the agent ("…, I told you").
fn without_address_after(said: &str) -> &str {
    (ADDRESSES.iter())
        .find_map(|address| said.strip_suffix(address)?.strip_suffix(", "))
        .unwrap_or(said)
}

/// `said` without its opening address to the agent ("No, …", "I told you: …", "je te l'ai
/// dit : …"), if it has one.
fn without_address_before(said: &str) -> Option<&str> {
    ADDRESSES.iter().find_map(|address| {
        let rest = said.strip_prefix(address)?;
        let rest = rest.strip_prefix(' ').unwrap_or(rest);
        rest.strip_prefix([',', ':'])?.strip_prefix(' ')
    })
}

/// How `text` reads strictly: `None` for a question, or when no word is left.
fn statement(text: &str) -> Option<Statement> {
    // A question asks; it states no rule.
    if text.trim_end().ends_with('?') {
        return None;
    }
    // Only what `learn` accepts of an instruction is compared.
    let end = jsonpos::floor_char_boundary(text, text.len().min(super::file::MAX_FIELD_CHARS * 4));
    let flat = words_only(text::directive(&text[..end])).replace('’', "'");
    let mut said = flat.trim_end_matches(['!', '.', ';', ' ']);
    said = without_address_after(said);
    while let Some(rest) = without_address_before(said) {
        said = rest;
    }
    let mut words: Vec<&str> = Vec::new();
    let mut forbids = false;
    for word in text::words(said) {
        let word = word.trim_start_matches('\'');
        let (word, elided) = match word.strip_prefix("n'") {
            Some(rest) if !rest.is_empty() => (rest, true),
            _ => (word, false),
        };
        forbids |= elided;
        if let Some(base) = word
            .strip_suffix("n't")
            .filter(|_| !DENYING.contains(&word))
        {
            forbids = true;
            words.push(if base == "wo" { "will" } else { base });
        } else if DENYING.contains(&word) {
            // Any denial forbids: French says one twice ("ne … pas", "n'… jamais").
            forbids = true;
        } else if !word.is_empty() && !AFFIRMING.contains(&word) {
            words.push(word);
        }
    }
    // "do" is emphasis or the auxiliary of a denial ("do not"): never what a rule says.
    words.retain(|word| *word != "do");
    (!words.is_empty()).then(|| Statement {
        words: words.join(" "),
        forbids,
    })
}

/// The statements a text makes: the whole, each sentence of a longer one, and each of
/// those before an alternative it sets aside.
fn statements(text: &str) -> Vec<Statement> {
    let mut pieces = vec![text];
    let sentences: Vec<&str> = text::sentences(text).collect();
    if sentences.len() > 1 {
        pieces.extend(sentences);
    }
    let mut said = Vec::new();
    for piece in pieces {
        said.extend(statement(piece));
        // ASCII lower case keeps every byte's place, so an offset found in it cuts `piece`.
        let lower = piece.to_ascii_lowercase();
        if let Some(cut) = ALTERNATIVES.iter().filter_map(|a| lower.find(a)).min() {
            said.extend(statement(&piece[..cut]));
        }
    }
    said
}

/// The rules among `candidates` (number, instruction) that `text` repeats or reverses:
/// repeats first, then the later rule.
pub(crate) fn matches<'a>(
    text: &str,
    candidates: impl Iterator<Item = (u64, &'a str)>,
) -> Vec<Match> {
    let said = statements(text);
    if said.is_empty() {
        return Vec::new();
    }
    let mut found: Vec<(usize, Match)> = Vec::new();
    for (at, (rule, instruction)) in candidates.enumerate() {
        let Some(holds) = statement(instruction) else {
            continue;
        };
        let kinds = (said.iter()).filter(|s| s.words == holds.words).map(|s| {
            match s.forbids == holds.forbids {
                true => Kind::Duplicate,
                false => Kind::Contradiction,
            }
        });
        if let Some(kind) = kinds.min() {
            let instruction = instruction.to_string();
            found.push((
                at,
                Match {
                    rule,
                    kind,
                    instruction,
                },
            ));
        }
    }
    found.sort_by(|(a_at, a), (b_at, b)| a.kind.cmp(&b.kind).then(b_at.cmp(a_at)));
    found.into_iter().map(|(_, m)| m).collect()
}

/// Two rules of a list in the strict relation: their positions, `earlier` < `later`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pair {
    pub(crate) earlier: usize,
    pub(crate) later: usize,
    pub(crate) kind: Kind,
}

/// Every pair of `instructions` in the strict relation, by their later then earlier rule:
/// rules are grouped by their words, so the cost is linear in the file.
pub(crate) fn pairs(instructions: &[&str]) -> Vec<Pair> {
    // Random keys: no text is made to collide.
    pairs_hashed(
        instructions,
        &std::collections::hash_map::RandomState::new(),
    )
}

/// [`pairs`], each statement's words kept as a hash by `state`, not a copy: a file of 100k
/// rules would hold its words twice. Rules of one hash are compared by their words again,
/// so a collision joins nothing.
fn pairs_hashed(instructions: &[&str], state: &impl std::hash::BuildHasher) -> Vec<Pair> {
    let mut keyed: Vec<(u64, usize)> = (instructions.iter().enumerate())
        .filter_map(|(at, text)| Some((state.hash_one(statement(text)?.words), at)))
        .collect();
    keyed.sort_unstable();
    let mut pairs = Vec::new();
    for run in keyed
        .chunk_by(|a, b| a.0 == b.0)
        .filter(|run| run.len() > 1)
    {
        let mut by_words: HashMap<String, Vec<(usize, bool)>> = HashMap::new();
        for &(_, at) in run {
            if let Some(said) = statement(instructions[at]) {
                by_words
                    .entry(said.words)
                    .or_default()
                    .push((at, said.forbids));
            }
        }
        for group in by_words.values().filter(|group| group.len() > 1) {
            pair_within(group, &mut pairs);
        }
    }
    pairs.sort_by_key(|pair| (pair.later, pair.earlier));
    pairs
}

/// The pairs among `group` (rules of the same words, in file order): each against the
/// nearest earlier rule of each polarity, so a file holding a rule ten times is nine
/// repeats, not forty-five.
fn pair_within(group: &[(usize, bool)], pairs: &mut Vec<Pair>) {
    let mut last: [Option<usize>; 2] = [None, None];
    for &(later, forbids) in group {
        for polarity in [forbids, !forbids] {
            if let Some(earlier) = last[usize::from(polarity)] {
                let kind = match polarity == forbids {
                    true => Kind::Duplicate,
                    false => Kind::Contradiction,
                };
                pairs.push(Pair {
                    earlier,
                    later,
                    kind,
                });
            }
        }
        last[usize::from(forbids)] = Some(later);
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A hasher that gives every text the same hash: every look-up collides (also for
    /// `check`'s first rule of each instruction).
    #[derive(Default)]
    pub(in crate::rules) struct Colliding;

    impl std::hash::Hasher for Colliding {
        fn finish(&self) -> u64 {
            0
        }
        fn write(&mut self, _bytes: &[u8]) {}
    }

    #[test]
    fn colliding_hashes_pair_only_rules_of_the_same_words() {
        let rules = [
            "Use tabs.",
            "Use pnpm.",
            "Never use tabs.",
            "use pnpm",
            "Use yarn.",
        ];
        let colliding = std::hash::BuildHasherDefault::<Colliding>::default();
        assert_eq!(pairs_hashed(&rules, &colliding), pairs(&rules));
        let found: Vec<(usize, usize)> = (pairs(&rules).iter())
            .map(|pair| (pair.earlier, pair.later))
            .collect();
        assert_eq!(found, [(0, 2), (1, 3)]);
    }

    fn kind(text: &str, rule: &str) -> Option<Kind> {
        matches(text, [(1, rule)].into_iter())
            .first()
            .map(|m| m.kind)
    }

    #[test]
    fn the_same_words_repeat_and_the_opposite_polarity_reverses() {
        let rule = "Never use var in JavaScript - because of hoisting.";
        assert_eq!(
            kind("never use `var` in JavaScript", rule),
            Some(Kind::Duplicate)
        );
        assert_eq!(
            kind("Never use var in JavaScript!", rule),
            Some(Kind::Duplicate)
        );
        assert_eq!(
            kind("I told you: never use var in JavaScript", rule),
            Some(Kind::Duplicate)
        );
        assert_eq!(
            kind("No, never use var in JavaScript, I told you.", rule),
            Some(Kind::Duplicate)
        );
        // One list of addresses to the agent, before or after the rule.
        for said in [
            "Please, never use var in JavaScript.",
            "Okay: never use var in JavaScript",
            "Je te l'ai dit : never use var in JavaScript",
            "Never use var in JavaScript, please!",
            "Non, never use var in JavaScript, je t’ai dit.",
        ] {
            assert_eq!(kind(said, rule), Some(Kind::Duplicate), "{said}");
        }
        // An address is whole words: "nonsense" does not open with "non".
        assert_eq!(kind("Nonsense, never use var in JavaScript", rule), None);
        assert_eq!(
            kind("Always use var in JavaScript.", rule),
            Some(Kind::Contradiction)
        );
        assert_eq!(
            kind("Use var in JavaScript.", rule),
            Some(Kind::Contradiction)
        );
        assert_eq!(
            kind("Prefer named exports.", "Avoid named exports."),
            Some(Kind::Contradiction)
        );
        assert_eq!(
            kind("Don't push to main", "Push to main."),
            Some(Kind::Contradiction)
        );
        assert_eq!(
            kind("Do not push to main", "Never push to main."),
            Some(Kind::Duplicate)
        );
        assert_eq!(
            kind("You shouldn't mock the DB", "You should mock the DB"),
            Some(Kind::Contradiction)
        );
        assert_eq!(
            kind("N'utilise pas Moment.js", "Utilise Moment.js - parce que."),
            Some(Kind::Contradiction)
        );
        assert_eq!(
            kind(
                "Ne jamais committer le fichier .env",
                "Toujours committer le fichier .env"
            ),
            Some(Kind::Contradiction)
        );
    }

    #[test]
    fn the_directive_before_an_alternative_set_aside_repeats() {
        let rule = "Always use pnpm to install packages - because of the lockfile.";
        for text in [
            "No, use pnpm to install packages, not npm.",
            "Use pnpm to install packages instead of npm!",
            "Utilise pnpm pour installer les paquets, pas npm.",
        ] {
            let rule = match text.starts_with("Utilise") {
                true => "Utilise pnpm pour installer les paquets.",
                false => rule,
            };
            assert_eq!(kind(text, rule), Some(Kind::Duplicate), "{text}");
        }
        // The rule says more than the text: no verdict.
        assert_eq!(kind("Use pnpm.", "Use pnpm instead of npm."), None);
    }

    #[test]
    fn other_words_are_not_a_verdict() {
        assert_eq!(
            kind(
                "Run cargo clippy before committing.",
                "Run cargo fmt before committing."
            ),
            None
        );
        assert_eq!(
            kind(
                "Use npm to install packages.",
                "Use pnpm to install packages."
            ),
            None
        );
        assert_eq!(
            kind(
                "Install dependencies with pnpm.",
                "Use pnpm to install packages."
            ),
            None
        );
        assert_eq!(kind("Never.", "Always."), None);
    }

    #[test]
    fn a_sentence_of_a_longer_text_repeats() {
        let text = "That broke the deploy again. No, never commit the .env file. Revert it.";
        let found = matches(text, [(7, "Never commit the .env file.")].into_iter());
        assert_eq!(
            found.first().map(|m| (m.rule, m.kind)),
            Some((7, Kind::Duplicate))
        );
    }

    #[test]
    fn pairs_are_found_by_their_words() {
        let rules = [
            "Use tabs.",
            "Never push to main.",
            "Always use tabs - because.",
            "Push to main.",
            "use tabs",
        ];
        let found: Vec<(usize, usize, Kind)> = pairs(&rules)
            .iter()
            .map(|p| (p.earlier, p.later, p.kind))
            .collect();
        assert_eq!(
            found,
            [
                (0, 2, Kind::Duplicate),
                (1, 3, Kind::Contradiction),
                (2, 4, Kind::Duplicate)
            ]
        );
    }
}
