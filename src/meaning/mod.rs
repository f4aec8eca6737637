//! Meaning: which rules a text comes near, by a pretrained sentence model compiled into
//! the binary ([`encoder`]), the rules' vectors kept on disk ([`cache`]). The one
//! retrieval its callers ask: it ranks rules by meaning and gives each its score; it
//! judges nothing. What a text means to do is for the one who reads the whole
//! conversation (the agent, or the person at the terminal).

pub(crate) mod cache;
pub(crate) mod encoder;

pub(crate) use cache::Cache;
pub(crate) use encoder::ModelError;

/// A rule near a text: its position among the rules ranked, and the cosine of the two.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Near {
    pub at: usize,
    pub score: f32,
}

/// The most pieces of a text compared one by one: its sentences, past the whole.
const MAX_PIECES: usize = 8;

/// `rules` ranked by how near each one's directive (its text before the reason) comes to
/// `text`, best first. A text is compared whole and sentence by sentence (a rule said
/// again is often one sentence of a longer request), each rule scored by its nearest
/// piece. Of two rules scored alike, the later comes first: callers list local rules
/// after imported ones, and a local rule wins. The model reads the rules the cache does
/// not hold for at most `budget` (at least one batch): a rule it had no time for is left
/// out of this ranking (and read by a later call).
pub(crate) fn rank(
    text: &str,
    rules: &[&str],
    cache: &mut Cache,
    budget: Option<std::time::Duration>,
) -> Result<Vec<Near>, ModelError> {
    if rules.is_empty() || text.trim().is_empty() {
        return Ok(Vec::new());
    }
    let mut pieces = vec![text.trim()];
    let sentences: Vec<&str> = worded_sentences(text).collect();
    if sentences.len() > 1 {
        pieces.extend(sentences.into_iter().take(MAX_PIECES));
    }
    let piece_vectors = encoder::embed(&pieces)?;
    let directives: Vec<&str> = rules.iter().map(|rule| directive(rule)).collect();
    let deadline = budget.map(|budget| std::time::Instant::now() + budget);
    let rule_vectors = cache.vectors(&directives, deadline)?;
    let mut ranked: Vec<Near> = (rule_vectors.iter().enumerate())
        .filter_map(|(at, rule)| {
            let rule = rule.as_ref()?;
            let score = (piece_vectors.iter())
                .map(|piece| encoder::cosine(piece, rule))
                .fold(f32::MIN, f32::max);
            Some(Near { at, score })
        })
        .collect();
    ranked.sort_by(|a, b| b.score.total_cmp(&a.score).then(b.at.cmp(&a.at)));
    Ok(ranked)
}

/// What opens a rule's reason, in lower case: the text before it is the directive.
pub(crate) const REASONS: [&str; 7] = [
    " - ",
    " — ",
    " – ",
    " because ",
    " parce qu",
    " car ",
    " since ",
];

/// A rule's directive: its text before the reason (" - because …", " — ", "parce que …",
/// "car …", "since …"), which says why, not what.
pub(crate) fn directive(rule: &str) -> &str {
    // ASCII lower case keeps every byte's place, so an offset found in it cuts `rule`.
    let lower = rule.to_ascii_lowercase();
    let end = (REASONS.iter())
        .filter_map(|reason| lower.find(reason))
        .min()
        .unwrap_or(rule.len());
    rule[..end].trim_end_matches([' ', ',', ';'])
}

/// The sentences of `text`, each with its end mark: split after a line break or `;`, and
/// after `.`, `!` or `?` that ends a word (followed by a space or the end), so `.env` or
/// `main.rs` stay in their sentence. The one splitter of the matcher and the hook.
pub(crate) fn sentences(text: &str) -> impl Iterator<Item = &str> {
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
            Some(at) => (&rest[..=at], &rest[at + 1..]),
            None => (rest, ""),
        };
        rest = next;
        Some(piece.trim_end_matches(['\n', ';']))
    })
}

/// The sentences of `text` that hold a word, trimmed.
fn worded_sentences(text: &str) -> impl Iterator<Item = &str> {
    sentences(text)
        .map(str::trim)
        .filter(|sentence| sentence.chars().any(char::is_alphanumeric))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_directive_ends_where_the_reason_starts() {
        assert_eq!(
            directive("Never use var - because of hoisting."),
            "Never use var"
        );
        assert_eq!(
            directive("Use pnpm, since the lockfile is pnpm's"),
            "Use pnpm"
        );
        assert_eq!(
            directive("Utiliser pnpm parce que le lockfile est celui de pnpm."),
            "Utiliser pnpm"
        );
        assert_eq!(directive("Prefer named exports."), "Prefer named exports.");
    }

    #[test]
    fn sentences_end_at_stops_not_at_dots_inside_words() {
        let text = "Use e.g. tabs. Keep src/main.rs small!Done\nnext; last";
        assert_eq!(
            sentences(text).map(str::trim).collect::<Vec<_>>(),
            [
                "Use e.g.",
                "tabs.",
                "Keep src/main.rs small!Done",
                "next",
                "last"
            ]
        );
        let worded: Vec<&str> = worded_sentences("Keep it small. No, use pnpm!\n;\nthen").collect();
        assert_eq!(worded, ["Keep it small.", "No, use pnpm!", "then"]);
    }

    #[test]
    fn a_french_correction_finds_its_english_rule_first() {
        let rules = [
            "Use pnpm to install packages - because the lockfile is pnpm's.",
            "Never call the database directly from React components.",
            "Run cargo fmt before committing.",
            "Prefer named exports over default exports.",
        ];
        let mut cache = Cache::open(None);
        let rank = |text: &str, cache: &mut Cache| rank(text, &rules, cache, None).unwrap()[0].at;
        assert_eq!(rank("Non, utilise pnpm, pas npm.", &mut cache), 0);
        assert_eq!(
            rank(
                "N'appelle pas la base depuis un composant React",
                &mut cache
            ),
            1
        );
        assert_eq!(
            rank(
                "you forgot to format the code before the commit again",
                &mut cache
            ),
            2
        );
        assert_eq!(rank("pas d'export par défaut", &mut cache), 3);
    }
}
