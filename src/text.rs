//! Small text helpers shared by every renderer: counted nouns ("1 rule", "2 rules").

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_and_everything_else_plural() {
        assert_eq!(counted(0, "rule"), "0 rules");
        assert_eq!(counted(1, "rule"), "1 rule");
        assert_eq!(counted(2, "warning"), "2 warnings");
        assert_eq!(plural_s(1), "");
        assert_eq!(plural_s(7), "s");
    }
}
