//! Small text helpers shared by every renderer: untrusted text made safe to show
//! ([`shown`]), counted nouns ("1 rule", "2 rules"), "did you mean" suggestions, long text
//! cut to a line, how a JSON value's kind is named, and the one way a JSON document is
//! printed.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Text from a file (a rule, an id, a skill name, a path) as every renderer shows it: on
/// one line, with nothing a terminal, a CI log or a reader would take for anything but
/// text. A line break (`\n`, `\r`, U+0085, U+2028, U+2029) or a tab becomes a space;
/// another control character (ESC, NUL, C1) or a bidirectional control (U+061C, U+200E,
/// U+200F, U+202A-U+202E, U+2066-U+2069) or a tag character (U+E0000-U+E007F, invisible
/// text an agent still reads) becomes a visible escape like `\u{1b}`; a
/// leading `::` (after spaces) becomes `\u{3a}:`, since GitHub Actions reads a line that
/// starts with `::` as a workflow command. Borrowed when there is nothing to change: the
/// scan tests eight bytes at a time.
pub(crate) fn shown(text: &str) -> Cow<'_, str> {
    let leading = text.trim_start_matches([' ', '\t']).starts_with("::");
    if !leading && !may_hold_unsafe(text.as_bytes()) {
        return Cow::Borrowed(text);
    }
    if !leading && !text.chars().any(|c| is_unsafe(c).is_some()) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    let mut at_start = leading;
    for c in text.chars() {
        if at_start && c == ':' {
            out.push_str("\\u{3a}");
            at_start = false;
            continue;
        }
        match is_unsafe(c) {
            Some(true) => out.push(' '),
            Some(false) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            None => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Whether [`shown`] changes `c`: a control character, a line or paragraph separator, or a
/// bidirectional control. `learn` refuses such a character in a new rule.
pub(crate) fn is_hidden(c: char) -> bool {
    is_unsafe(c).is_some()
}

/// The first invisible character of `text` that no rule needs and a model still reads:
/// any of Unicode's category Cf (format), found by category, not by a list (the soft
/// hyphen U+00AD, U+180E, U+200B-U+200D, U+2060-U+2064, U+206A-U+206F, U+FEFF,
/// U+FFF9-U+FFFB, the format controls later versions add), but the zero-width joiner
/// inside an emoji sequence (👩‍💻), which emoji need
/// (<https://www.unicode.org/reports/tr51/#Emoji_ZWJ_Sequences>). `learn` refuses these in
/// a new rule and its globs, and `sources` in an imported one.
pub(crate) fn first_invisible(text: &str) -> Option<char> {
    use unicode_properties::{GeneralCategory, UnicodeEmoji, UnicodeGeneralCategory};
    if text.is_ascii() {
        return None;
    }
    let chars: Vec<char> = text.chars().collect();
    let emoji = |c: Option<&char>| {
        c.is_some_and(|&c| c.is_emoji_char_or_emoji_component() && !c.is_ascii())
    };
    (chars.iter().enumerate())
        .find(|&(at, &c)| {
            c.general_category() == GeneralCategory::Format
                && !(c == '\u{200d}'
                    && emoji(at.checked_sub(1).and_then(|b| chars.get(b)))
                    && emoji(chars.get(at + 1)))
        })
        .map(|(_, &c)| c)
}

/// `Some(true)` for a line break or tab (shown as a space), `Some(false)` for another
/// control or a bidirectional control (shown escaped), `None` for a character shown as is.
fn is_unsafe(c: char) -> Option<bool> {
    match c {
        '\t' | '\n' | '\r' | '\u{0b}' | '\u{0c}' | '\u{85}' | '\u{2028}' | '\u{2029}' => Some(true),
        '\u{61c}'
        | '\u{200e}'
        | '\u{200f}'
        | '\u{202a}'..='\u{202e}'
        | '\u{2066}'..='\u{2069}'
        | '\u{e0000}'..='\u{e007f}' => Some(false),
        c if c.is_control() => Some(false),
        _ => None,
    }
}

/// Whether `bytes` may hold a character [`shown`] changes: U+0000-U+001F and U+007F are
/// one byte each, U+0080-U+009F start with 0xC2, U+061C with 0xD8, the bidirectional
/// controls and separators from U+200E with 0xE2, and the tag characters with 0xF3.
fn may_hold_unsafe(bytes: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let chunks = bytes.chunks_exact(8);
    let rest = chunks.remainder();
    let flagged = |b: u8| b < 0x20 || matches!(b, 0x7f | 0xc2 | 0xd8 | 0xe2 | 0xf3);
    chunks
        .map(|chunk| u64::from_le_bytes(chunk.try_into().expect("eight bytes")))
        .any(|word| {
            // A byte below 0x20 borrows in `word - 0x20..20` while its high bit is clear.
            let below_space = word.wrapping_sub(ONES * 0x20) & !word & HIGHS;
            below_space
                | has_byte(word, 0x7f)
                | has_byte(word, 0xc2)
                | has_byte(word, 0xd8)
                | has_byte(word, 0xe2)
                | has_byte(word, 0xf3)
                != 0
        })
        || rest.iter().copied().any(flagged)
}

/// `n` and the noun, plural unless `n` is one: `counted(1, "rule")` is "1 rule".
/// Every noun the tool counts takes a plain `s`.
pub(crate) fn counted(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// The plural ending alone, for a count printed elsewhere in the sentence.
pub(crate) fn plural_s(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The candidates closest to `name` by edit distance, best first, at most three: those
/// that contain it, then those within a third of its length (at least one edit; two
/// swapped letters count as one), as cargo's suggestions allow, so `foo` suggests no
/// `TOOL` and `cdoe` suggests `CODE`. Compared ignoring ASCII case.
pub(crate) fn closest<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Vec<&'a str> {
    let name = name.to_ascii_lowercase();
    let limit = (name.chars().count() / 3).max(1);
    let mut scored: Vec<(usize, &'a str)> = candidates
        .into_iter()
        .filter_map(|candidate| {
            let lower = candidate.to_ascii_lowercase();
            let distance = if !name.is_empty() && lower.contains(&name) {
                0
            } else {
                strsim::osa_distance(&name, &lower)
            };
            (distance <= limit).then_some((distance, candidate))
        })
        .collect();
    scored.sort_unstable();
    scored.into_iter().take(3).map(|(_, c)| c).collect()
}

/// "; did you mean `A` or `B`?" for a message, or nothing without a suggestion.
pub(crate) fn did_you_mean(suggestions: &[&str]) -> String {
    if suggestions.is_empty() {
        return String::new();
    }
    let names: Vec<String> = suggestions.iter().map(|s| format!("`{s}`")).collect();
    format!("; did you mean {}?", names.join(" or "))
}

/// Text on one line (runs of whitespace become one space) of at most `max` characters, the
/// last of them `…` when it was cut (`max` is at least 1).
pub(crate) fn clipped(text: &str, max: usize) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match line.char_indices().nth(max.max(1) - 1) {
        Some((at, _)) if line[at..].chars().nth(1).is_some() => format!("{}…", &line[..at]),
        _ => line,
    }
}

/// A JSON value's kind, as messages name it: "an object", "a string", "null", ...
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum JsonKind {
    Null,
    Boolean,
    Number,
    String,
    Array,
    Object,
}

impl JsonKind {
    pub(crate) fn of(value: &serde_json::Value) -> JsonKind {
        use serde_json::Value;
        match value {
            Value::Null => JsonKind::Null,
            Value::Bool(_) => JsonKind::Boolean,
            Value::Number(_) => JsonKind::Number,
            Value::String(_) => JsonKind::String,
            Value::Array(_) => JsonKind::Array,
            Value::Object(_) => JsonKind::Object,
        }
    }

    /// The kind of a value's raw text, from its first byte (the text is valid JSON).
    pub(crate) fn of_raw(raw: &str) -> JsonKind {
        match raw.as_bytes().first() {
            Some(b'{') => JsonKind::Object,
            Some(b'[') => JsonKind::Array,
            Some(b'"') => JsonKind::String,
            Some(b't' | b'f') => JsonKind::Boolean,
            Some(b'n') => JsonKind::Null,
            _ => JsonKind::Number,
        }
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            JsonKind::Null => "null",
            JsonKind::Boolean => "a boolean",
            JsonKind::Number => "a number",
            JsonKind::String => "a string",
            JsonKind::Array => "an array",
            JsonKind::Object => "an object",
        }
    }
}

/// A JSON document as every `--format json` prints it: pretty, with a final newline. The
/// documents are plain data (strings, numbers, maps with string keys), which always
/// serialise.
pub(crate) fn json_document(value: &impl serde::Serialize) -> String {
    let mut text = serde_json::to_string_pretty(value).expect("a JSON document always serialises");
    text.push('\n');
    text
}

/// Nonzero when some byte of `word` equals `byte` (the classic "has zero byte" test).
pub(crate) fn has_byte(word: u64, byte: u8) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let x = word ^ (ONES * u64::from(byte));
    x.wrapping_sub(ONES) & !x & HIGHS
}

/// `word` as a POSIX shell reads it back: as it is when it is plain, else in single
/// quotes.
pub(crate) fn shell_quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "@%+=:,./_-".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clipped_cuts_only_what_is_over() {
        assert_eq!(clipped("a\n  b\tc", 10), "a b c");
        assert_eq!(clipped("abcde", 5), "abcde");
        assert_eq!(clipped("abcdef", 5), "abcd…");
        assert_eq!(clipped("ééééé ééééé", 4), "ééé…");
    }

    #[test]
    fn json_kinds_agree_on_values_and_raw_text() {
        for raw in ["null", "true", "0.5", "\"x\"", "[1]", "{}"] {
            let value: serde_json::Value = serde_json::from_str(raw).unwrap();
            assert_eq!(JsonKind::of(&value), JsonKind::of_raw(raw), "{raw}");
        }
        assert_eq!(JsonKind::of_raw("[]").name(), "an array");
    }

    #[test]
    fn suggestions_are_close_and_few() {
        assert_eq!(closest("cod", ["STYLE", "CODE", "ARCH"]), ["CODE"]);
        assert_eq!(closest("tools", ["TOOL", "DATA"]), ["TOOL"]);
        assert!(closest("zzzzzzzz", ["CODE"]).is_empty());
        assert_eq!(did_you_mean(&["CODE"]), "; did you mean `CODE`?");
        assert_eq!(did_you_mean(&[]), "");
    }

    #[test]
    fn untrusted_text_is_shown_on_one_line_without_controls() {
        assert!(matches!(shown("plain std::fs text é"), Cow::Borrowed(_)));
        assert_eq!(shown("a\nb\r\u{2028}c\td"), "a b  c d");
        assert_eq!(shown("\u{1b}[31m\0"), "\\u{1b}[31m\\u{0}");
        assert_eq!(
            shown("x\u{202e}y\u{2066}\u{9b}"),
            "x\\u{202e}y\\u{2066}\\u{9b}"
        );
        assert_eq!(shown("::error::x"), "\\u{3a}:error::x");
        assert_eq!(shown("a\u{e0041}"), "a\\u{e0041}");
        assert!(is_hidden('\u{e0041}') && !is_hidden('\u{1f600}'));
        assert_eq!(shown("  ::x"), "  \\u{3a}:x");
        assert_eq!(shown("a ::x"), "a ::x");
        // Every position of the eight-byte scan.
        for i in 0..17 {
            let text = format!("{}\u{1b}{}", "a".repeat(i), "b".repeat(16 - i));
            assert!(shown(&text).contains("\\u{1b}"), "{i}");
        }
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
