//! Reading `autofix.json`: a tolerant parser that keeps every rule's exact source text
//! and position, so that listing accepts real-world files and the writer can append
//! without touching a byte of the existing rules.
//!
//! serde_json validates the file once and splits it into borrowed element slices
//! (`RawValue`); a structural walk then finds each rule's known fields in its own slice.
//! Strings without escapes are borrowed; unknown fields are never decoded.

use std::borrow::Cow;

use serde_json::value::RawValue;

use crate::report::jsonpos;
use crate::report::text::JsonKind;

/// The UTF-8 byte order mark, tolerated on read and kept on write.
pub(crate) const BOM: &str = "\u{feff}";

/// Why a file is not a JSON array of rule objects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ParseError {
    /// Not JSON at all; position from serde_json (1-based).
    Syntax {
        line: usize,
        column: usize,
        message: String,
    },
    /// Valid JSON whose top level is not an array.
    NotArray { found: &'static str },
    /// An element of the array is not an object.
    NotObject {
        index: usize,
        offset: usize,
        found: &'static str,
    },
}

/// A parsed rules file: it owns its text, and each rule keeps byte ranges into it (strings
/// with escapes, and the globs of `Paths`, are kept decoded), so a loaded document can be
/// returned and stored; [`Document::rule`] and [`Document::rules`] lend out [`Rule`] views.
#[derive(Debug, Default)]
pub(crate) struct Document {
    /// The whole file as read (including any BOM).
    pub source: String,
    pub has_bom: bool,
    records: Vec<Record>,
}

/// A byte range of the document's source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Span {
    start: usize,
    end: usize,
}

impl Span {
    /// The range `part` (a slice of `source`) covers.
    fn of(source: &str, part: &str) -> Span {
        let start = part.as_ptr() as usize - source.as_ptr() as usize;
        Span {
            start,
            end: start + part.len(),
        }
    }

    #[inline]
    fn get(self, source: &str) -> &str {
        &source[self.start..self.end]
    }
}

/// One rule as stored: ranges into the source, decoded text where it had escapes.
#[derive(Debug)]
struct Record {
    index: usize,
    raw: Span,
    number: Stored<u64>,
    category: StoredText,
    instruction: StoredText,
    why: StoredText,
    /// The fields most rules do not have, kept apart: a file of 100k plain rules holds
    /// none of them (see `src/docs/performance.md`).
    rare: Option<Box<Rare>>,
}

/// A rule's optional fields, and the problem of an object not read field by field.
#[derive(Debug)]
struct Rare {
    supersedes: Stored<Vec<u64>>,
    paths: Stored<Vec<String>>,
    check: Stored<super::pattern::Check>,
    malformed: Option<String>,
}

/// No optional field: what a record without [`Rare`] reads as.
static NONE_RARE: Rare = Rare {
    supersedes: Stored::Missing,
    paths: Stored::Missing,
    check: Stored::Missing,
    malformed: None,
};

/// A field that is missing, read (`T`), or present as other raw JSON.
#[derive(Debug)]
enum Stored<T> {
    Missing,
    Read(T),
    Invalid(Span),
}

/// A text field as stored.
#[derive(Debug)]
enum StoredText {
    Missing,
    /// A string without escapes: the range between its quotes.
    Plain(Span),
    /// A string with escapes, decoded.
    Decoded(Box<str>),
    /// Present but not a string: the raw JSON.
    Other(Span),
}

impl StoredText {
    #[inline]
    fn view<'a>(&'a self, source: &'a str) -> Text<'a> {
        match self {
            StoredText::Missing => Text::Missing,
            StoredText::Plain(span) => Text::Str(span.get(source)),
            StoredText::Decoded(text) => Text::Str(text),
            StoredText::Other(span) => Text::Other(span.get(source)),
        }
    }
}

/// One rule object, as written: a view of a [`Document`]'s rule, which reads each field
/// when asked.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rule<'a> {
    /// Index in the array.
    pub index: usize,
    /// Byte offset of the object in the source.
    pub offset: usize,
    /// The object's exact source text.
    pub raw: &'a str,
    source: &'a str,
    record: &'a Record,
}

impl<'a> Rule<'a> {
    pub(crate) fn number(&self) -> Number<'a> {
        match self.record.number {
            Stored::Missing => Number::Missing,
            Stored::Read(n) => Number::Valid(n),
            Stored::Invalid(span) => Number::Invalid(span.get(self.source)),
        }
    }

    pub(crate) fn category(&self) -> Text<'a> {
        self.record.category.view(self.source)
    }

    pub(crate) fn instruction(&self) -> Text<'a> {
        self.record.instruction.view(self.source)
    }

    pub(crate) fn why(&self) -> Text<'a> {
        self.record.why.view(self.source)
    }

    /// The optional `Supersedes` array.
    pub(crate) fn supersedes(&self) -> Supersedes<'a> {
        match &self.record.rare().supersedes {
            Stored::Missing => Supersedes::Missing,
            Stored::Read(numbers) => Supersedes::Numbers(numbers),
            Stored::Invalid(span) => Supersedes::Invalid(span.get(self.source)),
        }
    }

    /// The optional `Paths` array: the globs the rule is scoped to ([`super::scope`]).
    pub(crate) fn paths(&self) -> Paths<'a> {
        match &self.record.rare().paths {
            Stored::Missing => Paths::Missing,
            Stored::Read(globs) => Paths::Globs(globs),
            Stored::Invalid(span) => Paths::Invalid(span.get(self.source)),
        }
    }

    /// The optional `Check` ([`super::pattern`]): what `enforce` looks for in scope.
    pub(crate) fn check(&self) -> CheckField<'a> {
        match &self.record.rare().check {
            Stored::Missing => CheckField::Missing,
            Stored::Read(check) => CheckField::Check(check),
            Stored::Invalid(span) => CheckField::Invalid(span.get(self.source)),
        }
    }

    /// Set when the object could not be read field by field (a repeated key).
    pub(crate) fn malformed(&self) -> Option<&'a str> {
        self.record.rare().malformed.as_deref()
    }
}

impl Record {
    fn rare(&self) -> &Rare {
        self.rare.as_deref().unwrap_or(&NONE_RARE)
    }

    fn view<'a>(&'a self, source: &'a str) -> Rule<'a> {
        Rule {
            index: self.index,
            offset: self.raw.start,
            raw: self.raw.get(source),
            source,
            record: self,
        }
    }
}

/// A `Rule_number` as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Number<'a> {
    Missing,
    /// A positive integer below 2^63.
    Valid(u64),
    /// Anything else: a string, zero, negative, fractional, exponent or too large.
    Invalid(&'a str),
}

impl Number<'_> {
    pub(crate) fn value(self) -> Option<u64> {
        match self {
            Number::Valid(n) => Some(n),
            _ => None,
        }
    }
}

/// A text field as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Text<'a> {
    Missing,
    Str(&'a str),
    /// Present but not a string: the raw JSON.
    Other(&'a str),
}

impl<'a> Text<'a> {
    /// The text to show: the string, the raw JSON of another type, or "".
    pub(crate) fn display(&self) -> &'a str {
        match *self {
            Text::Missing => "",
            Text::Str(text) | Text::Other(text) => text,
        }
    }

    pub(crate) fn as_str(&self) -> Option<&'a str> {
        match *self {
            Text::Str(text) => Some(text),
            _ => None,
        }
    }
}

/// The optional `Supersedes` field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Supersedes<'a> {
    Missing,
    Numbers(&'a [u64]),
    /// Present but not an array of positive integers: the raw JSON.
    Invalid(&'a str),
}

/// The optional `Paths` field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Paths<'a> {
    /// No `Paths`: the rule applies everywhere.
    Missing,
    /// An array of strings, as written (validity of each glob is `check`'s business).
    Globs(&'a [String]),
    /// Present but not an array of strings: the raw JSON.
    Invalid(&'a str),
}

impl<'a> Paths<'a> {
    /// The globs; empty when there are none or they cannot be read.
    pub(crate) fn globs(&self) -> &'a [String] {
        match *self {
            Paths::Globs(globs) => globs,
            _ => &[],
        }
    }
}

/// The optional `Check` field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CheckField<'a> {
    Missing,
    /// `{"Forbid": …}` or `{"Require": …}` (whether the pattern compiles is `check`'s
    /// business).
    Check(&'a super::pattern::Check),
    /// Present but not of that shape: the raw JSON.
    Invalid(&'a str),
}

/// The raw values of the known fields of one rule object.
#[derive(Default)]
pub(crate) struct Fields<'a> {
    pub(crate) number: Option<Field<'a>>,
    pub(crate) category: Option<Field<'a>>,
    pub(crate) instruction: Option<Field<'a>>,
    pub(crate) why: Option<Field<'a>>,
    pub(crate) supersedes: Option<Field<'a>>,
    pub(crate) paths: Option<Field<'a>>,
    pub(crate) check: Option<Field<'a>>,
    /// A record's pair of distinct rules ([`super::distinct`]).
    pub(crate) distinct: Option<Field<'a>>,
}

/// A member's raw value (a slice of the object's text), and for a string whether it holds
/// an escape.
#[derive(Clone, Copy)]
pub(crate) struct Field<'a> {
    pub(crate) raw: &'a str,
    pub(crate) escaped: bool,
}

/// Finds the known top-level members of an object that serde_json has already validated
/// (the reader, and the merge driver's renumbering, use it),
/// without decoding anything else: a structural walk, far cheaper than deserialising.
/// A known key that appears twice is an error, as it would be for serde.
pub(crate) fn scan_fields(raw: &str) -> Result<Fields<'_>, String> {
    use crate::report::jsonpos::{skip_value, skip_ws, string_end};
    let bytes = raw.as_bytes();
    let mut fields = Fields::default();
    let mut at = skip_ws(bytes, 1);
    let broken = || "the object could not be read".to_string();
    while bytes.get(at) == Some(&b'"') {
        let (key_end, key_escaped) = string_end(raw, at).ok_or_else(broken)?;
        let key = string_at(&raw[at..key_end], key_escaped);
        at = skip_ws(bytes, skip_ws(bytes, key_end) + 1);
        let (value_end, escaped) = if bytes.get(at) == Some(&b'"') {
            string_end(raw, at).ok_or_else(broken)?
        } else {
            (skip_value(raw, at).ok_or_else(broken)?, false)
        };
        let value = Field {
            raw: &raw[at..value_end],
            escaped,
        };
        let slot = match key.as_ref() {
            "Rule_number" => &mut fields.number,
            "Category" => &mut fields.category,
            "Instruction" => &mut fields.instruction,
            "Why" => &mut fields.why,
            "Supersedes" => &mut fields.supersedes,
            "Paths" => &mut fields.paths,
            "Check" => &mut fields.check,
            "Distinct" => &mut fields.distinct,
            _ => &mut None,
        };
        if slot.replace(value).is_some() {
            return Err(format!("duplicate field `{key}`"));
        }
        at = skip_ws(bytes, value_end);
        if bytes.get(at) == Some(&b',') {
            at = skip_ws(bytes, at + 1);
        }
    }
    Ok(fields)
}

/// Decodes a validated JSON string literal, borrowing when it has no escapes. A lone
/// surrogate escape (`\ud800`), which JSON's grammar allows but no string can hold, is
/// decoded as U+FFFD: [`text`] reports it rather than reading the field as empty.
fn string_at(literal: &str, escaped: bool) -> Cow<'_, str> {
    if escaped {
        Cow::Owned(decode(literal).unwrap_or_else(|| {
            serde_json::from_str(&without_lone_surrogates(literal)).unwrap_or_default()
        }))
    } else {
        Cow::Borrowed(&literal[1..literal.len() - 1])
    }
}

fn decode(literal: &str) -> Option<String> {
    serde_json::from_str(literal).ok()
}

/// The literal with each `\uXXXX` escape of a surrogate that is not half of a pair
/// replaced by `\ufffd`.
fn without_lone_surrogates(literal: &str) -> String {
    let surrogate = |at: usize| {
        let hex = literal.get(at + 2..at + 6)?;
        let unit = u16::from_str_radix(hex, 16).ok()?;
        (literal[at..].starts_with("\\u") && (0xd800..0xe000).contains(&unit)).then_some(unit)
    };
    let mut out = String::with_capacity(literal.len());
    let mut copied = 0;
    let mut at = 0;
    while let Some(i) = literal[at..].find('\\') {
        let start = at + i;
        at = start + 2;
        let Some(unit) = surrogate(start) else {
            continue;
        };
        let paired = unit < 0xdc00 && surrogate(start + 6).is_some_and(|low| low >= 0xdc00);
        if paired {
            at = start + 12;
        } else {
            out.push_str(&literal[copied..start]);
            out.push_str("\\ufffd");
            at = start + 6;
            copied = at;
        }
    }
    out.push_str(&literal[copied..]);
    out
}

/// The largest accepted `Rule_number`: numbers are signed 64-bit in most readers.
pub(crate) const MAX_RULE_NUMBER: u64 = i64::MAX as u64;

/// Parses a rules file, which the document then owns; on failure the error and the text
/// come back. Empty or whitespace-only text (after a BOM) is an empty array.
pub(crate) fn parse(source: String) -> Result<Document, (ParseError, String)> {
    match records(&source) {
        Ok((has_bom, records)) => Ok(Document {
            source,
            has_bom,
            records,
        }),
        Err(error) => Err((error, source)),
    }
}

/// [`parse`] of a copy of `source`, for tests.
#[cfg(test)]
pub(crate) fn parse_str(source: &str) -> Result<Document, ParseError> {
    parse(source.to_string()).map_err(|(error, _)| error)
}

/// Whether `source` starts with a BOM, and its rules.
fn records(source: &str) -> Result<(bool, Vec<Record>), ParseError> {
    let has_bom = source.starts_with(BOM);
    let body = &source[if has_bom { BOM.len() } else { 0 }..];
    // Only JSON's own whitespace: U+3000 or NBSP makes the file invalid, not empty.
    if body
        .trim_matches(|c| matches!(c, ' ' | '\t' | '\n' | '\r'))
        .is_empty()
    {
        return Ok((has_bom, Vec::new()));
    }
    let elements: Vec<&RawValue> = match serde_json::from_str(body) {
        Ok(elements) => elements,
        Err(error) => return Err(classify(body, &error)),
    };
    let mut records = Vec::with_capacity(elements.len());
    for (index, element) in elements.into_iter().enumerate() {
        let raw = element.get();
        if !raw.starts_with('{') {
            return Err(ParseError::NotObject {
                index,
                offset: Span::of(source, raw).start,
                found: JsonKind::of_raw(raw).name(),
            });
        }
        records.push(read_rule(source, index, raw));
    }
    Ok((has_bom, records))
}

fn read_rule(source: &str, index: usize, raw: &str) -> Record {
    let mut rule = Record {
        index,
        raw: Span::of(source, raw),
        number: Stored::Missing,
        category: StoredText::Missing,
        instruction: StoredText::Missing,
        why: StoredText::Missing,
        rare: None,
    };
    let mut rare = Rare {
        supersedes: Stored::Missing,
        paths: Stored::Missing,
        check: Stored::Missing,
        malformed: None,
    };
    match scan_fields(raw) {
        Ok(fields) => {
            rule.number = fields
                .number
                .map_or(Stored::Missing, |f| match number(f.raw) {
                    Number::Valid(n) => Stored::Read(n),
                    _ => Stored::Invalid(Span::of(source, f.raw)),
                });
            rule.category = text(source, fields.category);
            rule.instruction = text(source, fields.instruction);
            rule.why = text(source, fields.why);
            rare.supersedes = fields
                .supersedes
                .map_or(Stored::Missing, |f| supersedes(source, f.raw));
            rare.paths = fields
                .paths
                .map_or(Stored::Missing, |f| paths(source, f.raw));
            rare.check = fields.check.map_or(Stored::Missing, |f| {
                super::pattern::Check::from_json(f.raw)
                    .map_or_else(|_| Stored::Invalid(Span::of(source, f.raw)), Stored::Read)
            });
            rare.malformed = undecodable("Category", fields.category)
                .or_else(|| undecodable("Instruction", fields.instruction))
                .or_else(|| undecodable("Why", fields.why));
        }
        Err(problem) => rare.malformed = Some(problem),
    }
    let none = matches!(
        (&rare.supersedes, &rare.paths, &rare.check, &rare.malformed),
        (Stored::Missing, Stored::Missing, Stored::Missing, None)
    );
    rule.rare = (!none).then(|| Box::new(rare));
    rule
}

/// A `Rule_number` is valid when written as a plain positive integer below 2^63.
fn number(raw: &str) -> Number<'_> {
    let valid = !raw.is_empty() && raw.bytes().all(|b| b.is_ascii_digit());
    match raw.parse::<u64>() {
        Ok(n) if valid && n > 0 && n <= MAX_RULE_NUMBER => Number::Valid(n),
        _ => Number::Invalid(raw),
    }
}

fn text(source: &str, field: Option<Field<'_>>) -> StoredText {
    match field {
        None => StoredText::Missing,
        Some(field) if field.raw.starts_with('"') => {
            if field.escaped {
                StoredText::Decoded(string_at(field.raw, true).into())
            } else {
                StoredText::Plain(Span::of(source, &field.raw[1..field.raw.len() - 1]))
            }
        }
        Some(field) => StoredText::Other(Span::of(source, field.raw)),
    }
}

/// The problem of a text field whose escapes do not decode: a lone surrogate.
fn undecodable(name: &str, field: Option<Field<'_>>) -> Option<String> {
    let field = field.filter(|f| f.escaped && f.raw.starts_with('"'))?;
    decode(field.raw).is_none().then(|| {
        format!("`{name}` holds a `\\u` escape of a lone surrogate, which is not a character")
    })
}

fn supersedes(source: &str, raw: &str) -> Stored<Vec<u64>> {
    let invalid = || Stored::Invalid(Span::of(source, raw));
    let Ok(items) = serde_json::from_str::<Vec<&RawValue>>(raw) else {
        return invalid();
    };
    let numbers: Option<Vec<u64>> = items
        .iter()
        .map(|item| number(item.get()).value())
        .collect();
    numbers.map_or_else(invalid, Stored::Read)
}

fn paths(source: &str, raw: &str) -> Stored<Vec<String>> {
    let invalid = || Stored::Invalid(Span::of(source, raw));
    let Ok(items) = serde_json::from_str::<Vec<&RawValue>>(raw) else {
        return invalid();
    };
    let globs: Option<Vec<String>> = items
        .iter()
        .map(|item| {
            let literal = item.get();
            literal
                .starts_with('"')
                .then(|| string_at(literal, literal.contains('\\')).into_owned())
        })
        .collect();
    globs.map_or_else(invalid, Stored::Read)
}

fn classify(body: &str, error: &serde_json::Error) -> ParseError {
    // Valid JSON of another shape is "not an array"; anything else is a syntax error.
    if let Ok(value) = serde_json::from_str::<&RawValue>(body) {
        let raw = value.get();
        if !raw.starts_with('[') {
            return ParseError::NotArray {
                found: JsonKind::of_raw(raw).name(),
            };
        }
    }
    if let Some(found) = trailing_comma(body, error) {
        return found;
    }
    ParseError::Syntax {
        line: error.line(),
        column: crate::report::jsonpos::char_column(body, error.line(), error.column()),
        message: crate::report::jsonpos::message_without_position(&error.to_string()),
    }
}

/// A comma before `}` or `]`, which serde reports as "key must be a string" or "trailing
/// comma" at the bracket (often a line later): said as what it is, at the comma.
fn trailing_comma(body: &str, error: &serde_json::Error) -> Option<ParseError> {
    let line_start: usize = body
        .split_inclusive('\n')
        .take(error.line().saturating_sub(1))
        .map(str::len)
        .sum();
    let at = (line_start + error.column().saturating_sub(1)).min(body.len());
    let bytes = body.as_bytes();
    let close = *bytes.get(at).filter(|b| matches!(b, b'}' | b']'))?;
    let before = body[..at].trim_end_matches([' ', '\t', '\n', '\r']);
    if !before.ends_with(',') {
        return None;
    }
    let comma = before.len() - 1;
    let line = body[..comma].matches('\n').count() + 1;
    let line_begin = body[..comma].rfind('\n').map_or(0, |i| i + 1);
    let column = body[line_begin..comma].chars().count() + 1;
    let closes = if close == b'}' { "object" } else { "array" };
    Some(ParseError::Syntax {
        line,
        column,
        message: format!(
            "trailing comma: JSON allows no comma after the last member of an {closes}; remove it"
        ),
    })
}

impl Document {
    /// The rule at `index` (in file order).
    pub(crate) fn rule(&self, index: usize) -> Rule<'_> {
        self.records[index].view(&self.source)
    }

    /// The rules, in file order.
    pub(crate) fn rules(
        &self,
    ) -> impl ExactSizeIterator<Item = Rule<'_>> + DoubleEndedIterator + Clone + '_ {
        self.records.iter().map(|record| record.view(&self.source))
    }

    /// How many rules the file holds.
    pub(crate) fn len(&self) -> usize {
        self.records.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The valid `Rule_number` of the rule at `index`, without making its view.
    pub(crate) fn number(&self, index: usize) -> Option<u64> {
        match self.records[index].number {
            Stored::Read(n) => Some(n),
            _ => None,
        }
    }

    /// The highest valid `Rule_number`, or 0 for an empty file.
    pub(crate) fn max_number(&self) -> u64 {
        (0..self.len())
            .filter_map(|index| self.number(index))
            .max()
            .unwrap_or(0)
    }
}

/// The most characters an instruction or a why may hold: a rule is one instruction an
/// agent loads every session (a 7 MiB one made the file unreadable for every command).
pub(crate) const MAX_FIELD_CHARS: usize = 2000;

/// The field that marks a retirement record ([`super::retire`]).
pub(crate) const FIELD: &str = "Retirement";

/// Whether `rule` is a retirement record: its top-level `Retirement` is `true`.
pub(crate) fn is_retirement(rule: &Rule<'_>) -> bool {
    let raw = rule.raw;
    // A cheap filter first: this runs for every rule of every listing.
    if memchr::memmem::find(raw.as_bytes(), b"\"Retirement\"").is_none() {
        return false;
    }
    jsonpos::find_pointer(raw, "/Retirement").is_some_and(|at| raw[at..].starts_with("true"))
}

/// The field that marks a record of two distinct rules ([`super::distinct`]).
pub(crate) const DISTINCT: &str = "Distinct";

/// The pair a record of two distinct rules names, smaller number first; `None` for any
/// other rule, or a `Distinct` that is not two rule numbers.
pub(crate) fn distinct_pair(rule: &Rule<'_>) -> Option<(u64, u64)> {
    let raw = rule.raw;
    // A cheap filter first: this runs for every rule of every listing.
    memchr::memmem::find(raw.as_bytes(), b"\"Distinct\"")?;
    let at = jsonpos::find_pointer(raw, "/Distinct")?;
    let mut stream = serde_json::Deserializer::from_str(&raw[at..]).into_iter::<[u64; 2]>();
    let [a, b] = stream.next()?.ok()?;
    (a != b).then_some((a.min(b), a.max(b)))
}

/// "rule 12", or "the rule at position 4" (1-based, as every other message counts) for one
/// without a valid number: how every check names a rule.
pub(crate) fn rule_name(rule: &Rule<'_>) -> String {
    match rule.number() {
        Number::Valid(n) => format!("rule {n}"),
        _ => format!("the rule at position {}", rule.index + 1),
    }
}

#[cfg(test)]
mod tests {
    use super::parse_str as parse;
    use super::*;

    #[test]
    fn empty_and_whitespace_are_empty_arrays() {
        assert!(parse("\u{3000}\n").is_err());
        assert!(parse("\u{a0}").is_err());
        assert!(parse("").unwrap().is_empty());
        assert!(parse(" \n\t").unwrap().is_empty());
        assert!(parse("\u{feff}\n").unwrap().has_bom);
    }

    #[test]
    fn reads_fields_and_keeps_raw_text() {
        let source = "\u{feff}[\n  {\"Rule_number\": 7, \"Category\": \"[code]\", \"Instruction\": \"Use \\\"x\\\"\", \"Why\": 3, \"extra\": {\"a\": [1]}}\n]\n";
        let document = parse(source).unwrap();
        let rule = document.rule(0);
        assert_eq!(rule.number(), Number::Valid(7));
        assert_eq!(rule.category().as_str(), Some("[code]"));
        assert_eq!(rule.instruction().as_str(), Some("Use \"x\""));
        assert_eq!(rule.why(), Text::Other("3"));
        assert_eq!(&source[rule.offset..rule.offset + rule.raw.len()], rule.raw);
        assert!(rule.raw.ends_with("}}"));
    }

    #[test]
    fn number_spellings() {
        for bad in [
            "0",
            "-1",
            "1.0",
            "1e2",
            "\"3\"",
            "9223372036854775808",
            "-0",
            "null",
        ] {
            assert_eq!(number(bad), Number::Invalid(bad), "{bad}");
        }
        assert_eq!(
            number("9223372036854775807"),
            Number::Valid(MAX_RULE_NUMBER)
        );
    }

    #[test]
    fn shapes_are_classified() {
        assert!(matches!(
            parse("{}"),
            Err(ParseError::NotArray { found: "an object" })
        ));
        assert!(matches!(
            parse("null"),
            Err(ParseError::NotArray { found: "null" })
        ));
        assert!(matches!(
            parse("[1]"),
            Err(ParseError::NotObject { index: 0, .. })
        ));
        assert!(matches!(parse("[1,2"), Err(ParseError::Syntax { .. })));
        assert!(matches!(parse("[] x"), Err(ParseError::Syntax { .. })));
    }

    #[test]
    fn paths_are_read_as_written() {
        let document =
            parse(r#"[{"Paths": ["src/**/*.rs", "a\\b"]}, {"Paths": "x"}, {"Paths": [1]}, {}]"#)
                .unwrap();
        let globs: Vec<&str> = document
            .rule(0)
            .paths()
            .globs()
            .iter()
            .map(AsRef::as_ref)
            .collect();
        assert_eq!(globs, ["src/**/*.rs", "a\\b"]);
        assert_eq!(document.rule(1).paths(), Paths::Invalid("\"x\""));
        assert_eq!(document.rule(2).paths(), Paths::Invalid("[1]"));
        assert_eq!(document.rule(3).paths(), Paths::Missing);
        assert!(document.rule(3).paths().globs().is_empty());
    }

    #[test]
    fn repeated_keys_are_malformed_not_fatal() {
        let document = parse(r#"[{"Why": "a", "Why": "b"}]"#).unwrap();
        assert!(document.rule(0).malformed().unwrap().contains("duplicate"));
    }
}
