//! Supersede references as places in the text, so a merge can renumber them: where each
//! number of a marker (`supersedes rule 44`) sits in a `Why` or `Instruction`, and the
//! rewriting of a rule object's raw JSON (its `Rule_number`, its `Supersedes` array, the
//! digits of its markers) through a renumbering map, every other byte kept.
//!
//! The marker scanner itself is [`crate::rules::supersede::marker_references`], which reports
//! each reference's byte range in the original text.

use std::ops::Range;

use serde_json::value::RawValue;

#[cfg(test)]
use crate::rules::supersede;
use crate::rules::supersede::marker_references;

/// `text` with every marker reference renumbered through `map` (unmapped ones kept).
pub(crate) fn rewrite_text(text: &str, map: &dyn Fn(u64) -> Option<u64>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    for reference in marker_references(text) {
        if let Some(new) = map(reference.number).filter(|new| *new != reference.number) {
            out.push_str(&text[copied..reference.digits.start]);
            out.push_str(&new.to_string());
            copied = reference.digits.end;
        }
    }
    out.push_str(&text[copied..]);
    out
}

/// `raw` (one rule object) with its `Rule_number` set to `number` and every supersede
/// reference, in markers and in `Supersedes`, and a record's `Distinct` pair renumbered
/// through `map`; every other byte
/// is kept. `None` when the object cannot be read field by field (a repeated key) or has
/// no `Rule_number` to replace.
pub(crate) fn rewrite_object(
    raw: &str,
    number: u64,
    map: &dyn Fn(u64) -> Option<u64>,
) -> Option<String> {
    let fields = crate::rules::file::scan_fields(raw).ok()?;
    let offset = |slice: &str| slice.as_ptr() as usize - raw.as_ptr() as usize;
    let mut edits: Vec<(Range<usize>, String)> = Vec::new();
    let value = fields.number?.raw;
    let at = offset(value);
    edits.push((at..at + value.len(), number.to_string()));
    for text in [fields.instruction, fields.why].into_iter().flatten() {
        // Markers live in strings only.
        if !text.raw.starts_with('"') {
            continue;
        }
        let at = offset(text.raw);
        edits.extend(
            string_edits(text.raw, map)
                .into_iter()
                .map(|(range, new)| (range.start + at..range.end + at, new)),
        );
    }
    // A record's distinct pair names rules as `Supersedes` does: renumbered alike.
    for list in [fields.supersedes, fields.distinct].into_iter().flatten() {
        let Ok(items) = serde_json::from_str::<Vec<&RawValue>>(list.raw) else {
            continue;
        };
        for item in items {
            let spelled = item.get();
            let old = spelled
                .bytes()
                .all(|b| b.is_ascii_digit())
                .then(|| spelled.parse::<u64>().ok())
                .flatten();
            if let Some(new) = old.and_then(map).filter(|new| Some(*new) != old) {
                let at = offset(item.get());
                edits.push((at..at + spelled.len(), new.to_string()));
            }
        }
    }
    edits.sort_by_key(|(range, _)| range.start);
    let mut out = String::with_capacity(raw.len() + 8);
    let mut copied = 0;
    for (range, new) in edits {
        out.push_str(&raw[copied..range.start]);
        out.push_str(&new);
        copied = range.end;
    }
    out.push_str(&raw[copied..]);
    Some(out)
}

/// The edits, as byte ranges of the JSON string literal `literal`, that renumber its
/// markers. Digits written as `\u` escapes are replaced together with their escapes.
fn string_edits(literal: &str, map: &dyn Fn(u64) -> Option<u64>) -> Vec<(Range<usize>, String)> {
    let Some((decoded, offsets)) = decode(literal) else {
        return Vec::new();
    };
    marker_references(&decoded)
        .into_iter()
        .filter_map(|reference| {
            let new = map(reference.number).filter(|new| *new != reference.number)?;
            let range = offsets[reference.digits.start]..offsets[reference.digits.end];
            Some((range, new.to_string()))
        })
        .collect()
}

/// Decodes a JSON string literal, with, for every byte of the decoded text (and one past
/// its end), the offset in `literal` where the escape or character that produced it starts.
fn decode(literal: &str) -> Option<(String, Vec<usize>)> {
    let body = literal.strip_prefix('"')?.strip_suffix('"')?;
    let mut decoded = String::with_capacity(body.len());
    let mut offsets = Vec::with_capacity(body.len() + 1);
    let bytes = body.as_bytes();
    let mut at = 0;
    while at < body.len() {
        let start = at;
        let c = if bytes[at] == b'\\' {
            let escape = *bytes.get(at + 1)?;
            at += 2;
            match escape {
                b'"' => '"',
                b'\\' => '\\',
                b'/' => '/',
                b'b' => '\u{8}',
                b'f' => '\u{c}',
                b'n' => '\n',
                b'r' => '\r',
                b't' => '\t',
                b'u' => {
                    let high = hex4(body.get(at..at + 4)?)?;
                    at += 4;
                    if (0xD800..0xDC00).contains(&high) && body[at..].starts_with("\\u") {
                        let low = hex4(body.get(at + 2..at + 6)?)?;
                        at += 6;
                        char::from_u32(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))?
                    } else {
                        char::from_u32(high).unwrap_or('\u{fffd}')
                    }
                }
                _ => return None,
            }
        } else {
            let c = body[at..].chars().next()?;
            at += c.len_utf8();
            c
        };
        // Offsets are relative to the literal, which starts with the opening quote.
        offsets.extend(std::iter::repeat_n(start + 1, c.len_utf8()));
        decoded.push(c);
    }
    offsets.push(body.len() + 1);
    Some((decoded, offsets))
}

fn hex4(digits: &str) -> Option<u32> {
    u32::from_str_radix(digits, 16).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    const CASES: &[&str] = &[
        "user preference (supersedes rule 1)",
        "Supersedes #12.",
        "REPLACES RULE 3",
        "overrides rule #4",
        "remplace la règle 5",
        "Remplace la REGLE 6",
        "Remplace LA RÈGLE 16",
        "supersedes rules 1 and 3, #7 & 9",
        "remplace les règles 2 et 4",
        "supersedes the old approach",
        "it replaces nothing",
        "unsupersedes rule 1",
        "supersedes rule 12b",
        "supersedes1",
        "Use the overrides file 2 times",
        "supersedes rule 1 and the rest, overrides #2,#3 ,  #4 and",
        "İ supersedes rule 7; ÉCRASE supersedes  rules\t8 AND 9",
        "supersedes rule 99999999999999999999999",
        "supersedes rule 5 and rule 6",
    ];

    #[test]
    fn agrees_with_the_resolver_on_the_grammar() {
        for case in CASES {
            let numbers: Vec<u64> = marker_references(case).iter().map(|r| r.number).collect();
            assert_eq!(numbers, supersede::markers(case), "{case}");
            for reference in marker_references(case) {
                assert_eq!(
                    case[reference.digits].parse::<u64>().unwrap(),
                    reference.number
                );
            }
        }
    }

    #[test]
    fn rewrites_only_the_digits_of_markers() {
        let map = |n: u64| (n < 10).then_some(n + 40);
        assert_eq!(
            rewrite_text("Always 3 things (supersedes rules 1, #2 and 30)", &map),
            "Always 3 things (supersedes rules 41, #42 and 30)"
        );
        assert_eq!(
            rewrite_text("remplace la Règle 5", &map),
            "remplace la Règle 45"
        );
    }

    #[test]
    fn rewrites_an_object_keeping_its_bytes() {
        let raw = "{\n    \"Rule_number\":  44,\n    \"Category\": \"CODE\",\n    \"Instruction\": \"Use \\\"x\\\" \\u00e9 (replaces #3)\",\n    \"Why\": \"pref (supersedes rule 4\\u0032)\",\n    \"Supersedes\": [3, 42, 7],\n    \"x\": \"supersedes rule 3\"\n  }";
        let map = |n: u64| match n {
            3 => Some(30),
            42 => Some(45),
            _ => None,
        };
        let new = rewrite_object(raw, 46, &map).unwrap();
        assert_eq!(
            new,
            "{\n    \"Rule_number\":  46,\n    \"Category\": \"CODE\",\n    \"Instruction\": \"Use \\\"x\\\" \\u00e9 (replaces #30)\",\n    \"Why\": \"pref (supersedes rule 45)\",\n    \"Supersedes\": [30, 45, 7],\n    \"x\": \"supersedes rule 3\"\n  }"
        );
        let value: serde_json::Value = serde_json::from_str(&new).unwrap();
        assert_eq!(value["Instruction"], "Use \"x\" é (replaces #30)");
        assert!(rewrite_object(r#"{"Why": "a", "Why": "b", "Rule_number": 1}"#, 2, &map).is_none());
        assert!(rewrite_object(r#"{"Why": "a"}"#, 2, &map).is_none());
    }

    #[test]
    fn renumbers_a_distinct_records_pair() {
        let raw =
            r#"{"Rule_number": 9, "Instruction": "Keep both near rules", "Distinct": [3, 4]}"#;
        let map = |n: u64| (n == 4).then_some(12);
        assert_eq!(
            rewrite_object(raw, 13, &map).unwrap(),
            r#"{"Rule_number": 13, "Instruction": "Keep both near rules", "Distinct": [3, 12]}"#
        );
    }

    #[test]
    fn decodes_surrogate_pairs_with_offsets() {
        let (text, offsets) = decode("\"a\\ud83d\\ude00b\"").unwrap();
        assert_eq!(text, "a\u{1f600}b");
        assert_eq!(offsets[0], 1);
        assert_eq!(offsets[1], 2);
        assert_eq!(offsets[5], 14);
        assert_eq!(*offsets.last().unwrap(), 15);
    }
}
