//! The one tokeniser: a text's words with the punctuation at their edges set aside, the
//! accent fold, and a text reduced to the words two texts must share to say the same thing.

/// `word` without the punctuation at its edges (an apostrophe stays: "n'utilise", "don't").
pub(crate) fn bare(word: &str) -> &str {
    word.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'' && c != '’')
}

/// The words of `text`, split at whitespace, each [`bare`]; a word of punctuation alone is
/// left out.
pub(crate) fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split_whitespace()
        .map(bare)
        .filter(|word| !word.is_empty())
}

/// French accents folded, so "désormais" and "desormais" read as one word.
pub(crate) fn fold_accent(c: char) -> char {
    match c {
        'à' | 'â' | 'ä' => 'a',
        'é' | 'è' | 'ê' | 'ë' => 'e',
        'î' | 'ï' => 'i',
        'ô' | 'ö' => 'o',
        'ù' | 'û' | 'ü' => 'u',
        'ç' => 'c',
        other => other,
    }
}

/// `text` in the words two texts must share to say the same thing word for word: lower
/// case, without Markdown's marks (`*`, `_`, `` ` ``, `~`), one space between words, no
/// final period.
pub(crate) fn words_only(text: &str) -> String {
    let unmarked: String = (text.chars())
        .filter(|c| !matches!(c, '*' | '_' | '`' | '~'))
        .flat_map(char::to_lowercase)
        .collect();
    let words = unmarked.split_whitespace().collect::<Vec<_>>().join(" ");
    match words.strip_suffix('.') {
        Some(stem) => stem.trim_end().to_string(),
        None => words,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_lose_the_punctuation_at_their_edges_only() {
        assert_eq!(
            words("No, use `npm ci` — don't run .env/main.rs!").collect::<Vec<_>>(),
            ["No", "use", "npm", "ci", "don't", "run", "env/main.rs"]
        );
        assert_eq!(fold_accent('é'), 'e');
        assert_eq!(words_only("  **Never** use `var`.  "), "never use var");
    }
}
