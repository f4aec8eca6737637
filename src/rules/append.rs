//! Appending one rule to the text of a rules file without touching the existing rules:
//! the new object is spliced in before the closing `]`, in the file's own indentation and
//! line endings. For a file the tool wrote, the diff is the new rule plus the comma that
//! ends the rule before it. The merge driver splices several objects the same way
//! ([`append_objects`]).

use serde::Serialize;

use super::file::Document;

/// A rule as the writer stores it: the four fields, in this key order, then `Paths` for a
/// scoped rule and `Check` for a checked one (a plain rule keeps exactly the four fields of
/// the original format).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct StoredRule {
    #[serde(rename = "Rule_number")]
    pub number: u64,
    #[serde(rename = "Category")]
    pub category: String,
    #[serde(rename = "Instruction")]
    pub instruction: String,
    #[serde(rename = "Why")]
    pub why: String,
    #[serde(rename = "Paths", skip_serializing_if = "Vec::is_empty")]
    pub paths: Vec<String>,
    /// `"Check": {"Forbid": …}` or `{"Require": …}` on a rule that checks itself
    /// ([`super::pattern`]), else absent.
    #[serde(rename = "Check", skip_serializing_if = "Option::is_none")]
    pub check: Option<super::pattern::Check>,
    /// `"Retirement": true` on a retirement record ([`super::retire`]), else absent.
    #[serde(rename = "Retirement", skip_serializing_if = "std::ops::Not::not")]
    pub retirement: bool,
    /// `"Distinct": [A, B]` on a record of two distinct rules ([`super::distinct`]), else
    /// absent.
    #[serde(rename = "Distinct", skip_serializing_if = "Option::is_none")]
    pub distinct: Option<[u64; 2]>,
}

/// How a file lays out its elements: the indentation of one level and the line ending.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Layout<'a> {
    pub unit: &'a str,
    pub newline: &'static str,
}

/// The layout of `document`: CRLF when the file has any, the first rule's indentation.
pub(crate) fn layout(document: &Document) -> Layout<'_> {
    let newline = if document.source.contains("\r\n") {
        "\r\n"
    } else {
        "\n"
    };
    Layout {
        unit: indent_unit(document),
        newline,
    }
}

/// A new text of the file in pieces: the old text up to the insertion point, the inserted
/// text, the old text from the closing `]` on, and a newline when the old text had none at
/// its end. Written piece by piece, a large file is never copied in memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Splice<'a> {
    pub head: &'a str,
    pub inserted: String,
    pub tail: &'a str,
    pub end: &'static str,
}

impl Splice<'_> {
    pub(crate) fn pieces(&self) -> [&str; 4] {
        [self.head, &self.inserted, self.tail, self.end]
    }

    /// The new text of the file, its pieces joined.
    pub(crate) fn joined(&self) -> String {
        self.pieces().concat()
    }
}

/// The new text of the file: `document.source` with `rule` added as the last element.
#[cfg(test)]
pub(crate) fn append(document: &Document, rule: &StoredRule) -> String {
    splice(document, rule).joined()
}

/// The file with `rule` added as the last element, in pieces (the text is `joined`).
pub(crate) fn splice<'a>(document: &'a Document, rule: &StoredRule) -> Splice<'a> {
    let Layout { unit, newline } = layout(document);
    splice_objects(document, &[render_object(rule, unit, newline)])
}

/// The file with `rules` (at least one) added as the last elements, in order, in pieces.
pub(crate) fn splice_rules<'a>(document: &'a Document, rules: &[StoredRule]) -> Splice<'a> {
    let Layout { unit, newline } = layout(document);
    let objects: Vec<String> = (rules.iter())
        .map(|rule| render_object(rule, unit, newline))
        .collect();
    splice_objects(document, &objects)
}

/// The new text of the file with `objects` added as the last elements, in order. Each
/// object is already laid out for the file ([`layout`]): its first line unindented, its
/// other lines indented one level deeper than the array's elements. No objects: the
/// source unchanged.
pub(crate) fn append_objects(document: &Document, objects: &[String]) -> String {
    if objects.is_empty() {
        return document.source.clone();
    }
    splice_objects(document, objects).joined()
}

/// [`append_objects`], in pieces (`objects` must not be empty).
fn splice_objects<'a>(document: &'a Document, objects: &[String]) -> Splice<'a> {
    let source = document.source.as_str();
    let Layout { unit, newline } = layout(document);
    let object = objects.join(&format!(",{newline}{unit}"));

    let Some(close) = closing_bracket(document) else {
        // Empty or whitespace-only file: a fresh array (the BOM, if any, is kept).
        let bom = if document.has_bom {
            &source[..super::file::BOM.len()]
        } else {
            ""
        };
        return Splice {
            head: bom,
            inserted: format!("[{newline}{unit}{object}{newline}]{newline}"),
            tail: "",
            end: "",
        };
    };
    let (before, after) = source.split_at(close);
    let content_end = before.trim_end().len();
    let gap = &before[content_end..];
    let mut inserted = String::with_capacity(object.len() + 16);
    if !document.is_empty() {
        inserted.push(',');
    }
    // `[]` or `[ \n ]`: the element goes between the brackets.
    inserted.push_str(newline);
    inserted.push_str(unit);
    inserted.push_str(&object);
    // Keep the whitespace that stood before `]` when it ended a line; else add a newline.
    if !document.is_empty() && gap.contains('\n') {
        inserted.push_str(gap);
    } else {
        inserted.push_str(newline);
    }
    Splice {
        head: &before[..content_end],
        inserted,
        tail: after,
        end: if after == "]" { newline } else { "" },
    }
}

/// Byte offset of the array's closing `]`, or `None` for an empty file.
fn closing_bracket(document: &Document) -> Option<usize> {
    let trimmed = document.source.trim_end();
    trimmed.ends_with(']').then(|| trimmed.len() - 1)
}

/// The indentation of the first rule when it starts its own line, else two spaces.
fn indent_unit(document: &Document) -> &str {
    let default = "  ";
    let Some(first) = document.rules().next() else {
        return default;
    };
    let before = &document.source[..first.offset];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let indent = &before[line_start..];
    if !indent.is_empty() && indent.bytes().all(|b| b == b' ' || b == b'\t') && line_start > 0 {
        indent
    } else {
        default
    }
}

/// The object, pretty-printed with `unit` per level, its first line unindented.
fn render_object(rule: &StoredRule, unit: &str, newline: &str) -> String {
    let string = |text: &str| serde_json::to_string(text).expect("strings always serialise");
    let mut fields = vec![
        ("Rule_number", rule.number.to_string()),
        ("Category", string(&rule.category)),
        ("Instruction", string(&rule.instruction)),
        ("Why", string(&rule.why)),
    ];
    if !rule.paths.is_empty() {
        // On one line: one learned rule stays one block of the diff, each field a line.
        let globs: Vec<String> = rule.paths.iter().map(|g| string(g)).collect();
        fields.push(("Paths", format!("[{}]", globs.join(", "))));
    }
    if let Some(check) = &rule.check {
        fields.push((
            "Check",
            format!("{{\"{}\": {}}}", check.kind.key(), string(&check.pattern)),
        ));
    }
    if rule.retirement {
        fields.push((super::file::FIELD, "true".to_string()));
    }
    if let Some([a, b]) = rule.distinct {
        fields.push((super::file::DISTINCT, format!("[{a}, {b}]")));
    }
    let mut out = String::from("{");
    for (i, (key, value)) in fields.iter().enumerate() {
        out.push_str(newline);
        out.push_str(unit);
        out.push_str(unit);
        out.push('"');
        out.push_str(key);
        out.push_str("\": ");
        out.push_str(value);
        if i + 1 < fields.len() {
            out.push(',');
        }
    }
    out.push_str(newline);
    out.push_str(unit);
    out.push('}');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::file::parse_str as parse;

    fn rule(number: u64) -> StoredRule {
        StoredRule {
            number,
            category: "CODE".into(),
            instruction: "Always \"quote\" é".into(),
            why: "user preference".into(),
            paths: Vec::new(),
            check: None,
            retirement: false,
            distinct: None,
        }
    }

    const ONE: &str = "[\n  {\n    \"Rule_number\": 1,\n    \"Category\": \"CODE\",\n    \"Instruction\": \"Always \\\"quote\\\" é\",\n    \"Why\": \"user preference\"\n  }\n]\n";

    #[test]
    fn new_and_empty_files() {
        for empty in ["", "  \n", "[]", "[]\n", "[\n]\n", "[ ]"] {
            let document = parse(empty).unwrap();
            assert_eq!(append(&document, &rule(1)), ONE, "from {empty:?}");
        }
    }

    #[test]
    fn appending_keeps_the_old_text_as_a_prefix() {
        let document = parse(ONE).unwrap();
        let text = append(&document, &rule(2));
        assert!(text.starts_with(&ONE[..ONE.len() - 3]));
        assert!(text.ends_with("    \"Why\": \"user preference\"\n  }\n]\n"));
        let reparsed = parse(&text).unwrap();
        assert_eq!(reparsed.len(), 2);
        assert_eq!(reparsed.rule(0).raw, document.rule(0).raw);
    }

    #[test]
    fn keeps_indentation_crlf_bom_and_compact_files() {
        let four = "\u{feff}[\r\n    {\"Rule_number\": 1}\r\n]";
        let text = append(&parse(four).unwrap(), &rule(2));
        assert!(text.starts_with(
            "\u{feff}[\r\n    {\"Rule_number\": 1},\r\n    {\r\n        \"Rule_number\": 2,"
        ));
        assert!(text.ends_with("    }\r\n]\r\n"));
        let compact = r#"[{"Rule_number":1}]"#;
        let text = append(&parse(compact).unwrap(), &rule(2));
        assert!(text.starts_with("[{\"Rule_number\":1},\n  {\n"));
        assert_eq!(parse(&text).unwrap().len(), 2);
    }

    #[test]
    fn a_scoped_rule_ends_with_its_paths() {
        let scoped = StoredRule {
            paths: vec!["src/**/*.rs".into(), "my \"docs\"/".into()],
            retirement: false,
            distinct: None,
            ..rule(1)
        };
        let text = append(&parse("").unwrap(), &scoped);
        assert!(text.ends_with(
            "    \"Why\": \"user preference\",\n    \"Paths\": [\"src/**/*.rs\", \"my \\\"docs\\\"/\"]\n  }\n]\n"
        ), "{text}");
        let read = parse(&text).unwrap();
        let globs: Vec<&str> = read
            .rule(0)
            .paths()
            .globs()
            .iter()
            .map(AsRef::as_ref)
            .collect();
        assert_eq!(globs, ["src/**/*.rs", "my \"docs\"/"]);
    }

    #[test]
    fn several_objects_at_once_equal_one_at_a_time() {
        for start in ["", "[]", ONE, "\u{feff}[\r\n    {\"Rule_number\": 1}\r\n]"] {
            let document = parse(start).unwrap();
            let Layout { unit, newline } = layout(&document);
            let objects: Vec<String> = [7, 8]
                .map(|n| render_object(&rule(n), unit, newline))
                .to_vec();
            let once = append(&parse(start).unwrap(), &rule(7));
            let twice = append(&parse(&once).unwrap(), &rule(8));
            assert_eq!(append_objects(&document, &objects), twice, "from {start:?}");
        }
        assert_eq!(append_objects(&parse(ONE).unwrap(), &[]), ONE);
    }
}
