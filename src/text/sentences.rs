//! The one sentence splitter: where a text's sentences end.

/// The sentences of `text`, each with its end mark: split after a line break or `;`, and
/// after `.`, `!` or `?` that ends a word (followed by a space or the end), so `.env` or
/// `main.rs` stay in their sentence. A clause a semicolon closes keeps it, for a reader
/// that takes it with the next (the classifier: "You used X; does it stream?" is one
/// thought).
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
        Some(piece.trim_end_matches('\n'))
    })
}

/// The sentences of `text` that hold a word, trimmed (of a closing `;` too).
pub(crate) fn worded_sentences(text: &str) -> impl Iterator<Item = &str> {
    sentences(text)
        .map(|sentence| sentence.trim().trim_end_matches(';').trim_end())
        .filter(|sentence| sentence.chars().any(char::is_alphanumeric))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentences_end_at_stops_not_at_dots_inside_words() {
        let text = "Use e.g. tabs. Keep src/main.rs small!Done\nnext; last";
        assert_eq!(
            sentences(text).map(str::trim).collect::<Vec<_>>(),
            [
                "Use e.g.",
                "tabs.",
                "Keep src/main.rs small!Done",
                "next;",
                "last"
            ]
        );
        let worded: Vec<&str> = worded_sentences("Keep it small. No, use pnpm!\n;\nthen").collect();
        assert_eq!(worded, ["Keep it small.", "No, use pnpm!", "then"]);
    }
}
