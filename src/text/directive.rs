//! A rule's directive (its text before the reason) and its content (the directive without
//! the words that only give its polarity).

use super::cues::{AFFIRMING, DENYING, REASONS};
use super::words::bare;

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

/// What a rule is about: its directive without the words that only give its polarity
/// ("Always", "Never", "Do not", "Ne … jamais"). Rules compared with each other are
/// compared so: in a file where many open with "Never", the word made every two of
/// them near.
pub(crate) fn content(rule: &str) -> String {
    let mut kept: Vec<&str> = Vec::new();
    for word in directive(rule).split_whitespace() {
        let lower = bare(word).to_lowercase().replace('’', "'");
        if lower == "do" || AFFIRMING.contains(&lower.as_str()) || DENYING.contains(&lower.as_str())
        {
            continue;
        }
        // "N'utilise": the verb stays, the denial goes.
        let elided = (lower
            .strip_prefix("n'")
            .is_some_and(|rest| !rest.is_empty()))
        .then(|| word.find(['\'', '’']))
        .flatten();
        match elided {
            Some(at) => kept.push(word[at..].trim_start_matches(['\'', '’'])),
            None => kept.push(word),
        }
    }
    kept.join(" ")
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
    fn a_rules_content_leaves_its_polarity_and_reason_out() {
        assert_eq!(
            content("Never use `var` - because of hoisting."),
            "use `var`"
        );
        assert_eq!(content("Always prefer named exports."), "named exports.");
        assert_eq!(content("Do not push to main"), "push to main");
        assert_eq!(
            content("N'utilise jamais Moment.js parce que c'est lourd"),
            "utilise Moment.js"
        );
        assert_eq!(content("Never."), "");
    }
}
