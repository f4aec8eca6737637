//! Small text helpers shared by every renderer: counted nouns ("1 rule", "2 rules"),
//! "did you mean" suggestions, and the one way a JSON document is printed.

/// `n` and the noun, plural unless `n` is one: `counted(1, "rule")` is "1 rule".
/// Every noun the tool counts takes a plain `s`.
pub fn counted(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// The plural ending alone, for a count printed elsewhere in the sentence.
pub fn plural_s(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The candidates closest to `name` by edit distance, best first, at most three: those
/// that contain it, then those within a third of its length (at least two edits), as
/// cargo's suggestions allow. Compared ignoring ASCII case.
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let name = name.to_ascii_lowercase();
    let limit = (name.chars().count() / 3).max(2);
    let mut scored: Vec<(usize, &'a str)> = candidates
        .into_iter()
        .filter_map(|candidate| {
            let lower = candidate.to_ascii_lowercase();
            let distance = if !name.is_empty() && lower.contains(&name) {
                0
            } else {
                strsim::levenshtein(&name, &lower)
            };
            (distance <= limit).then_some((distance, candidate))
        })
        .collect();
    scored.sort();
    scored.into_iter().take(3).map(|(_, c)| c).collect()
}

/// "; did you mean `A` or `B`?" for a message, or nothing without a suggestion.
pub fn did_you_mean(suggestions: &[&str]) -> String {
    if suggestions.is_empty() {
        return String::new();
    }
    let names: Vec<String> = suggestions.iter().map(|s| format!("`{s}`")).collect();
    format!("; did you mean {}?", names.join(" or "))
}

/// A JSON document as every `--format json` prints it: pretty, with a final newline. The
/// documents are plain data (strings, numbers, maps with string keys), which always
/// serialise.
pub fn json_document(value: &impl serde::Serialize) -> String {
    let mut text = serde_json::to_string_pretty(value).expect("a JSON document always serialises");
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_are_close_and_few() {
        assert_eq!(closest("cod", ["STYLE", "CODE", "ARCH"]), ["CODE"]);
        assert_eq!(closest("tools", ["TOOL", "DATA"]), ["TOOL"]);
        assert!(closest("zzzzzzzz", ["CODE"]).is_empty());
        assert_eq!(did_you_mean(&["CODE"]), "; did you mean `CODE`?");
        assert_eq!(did_you_mean(&[]), "");
    }

    #[test]
    fn one_is_singular_and_everything_else_plural() {
        assert_eq!(counted(0, "rule"), "0 rules");
        assert_eq!(counted(1, "rule"), "1 rule");
        assert_eq!(counted(2, "warning"), "2 warnings");
        assert_eq!(plural_s(1), "");
        assert_eq!(plural_s(7), "s");
    }
}
