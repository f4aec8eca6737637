//! `check`: the lint of the rules file. Errors are what makes a file unreliable (syntax,
//! shape, numbers, fields, supersede references); warnings are style (instructions that
//! are not imperative, repeated instructions).

use std::collections::HashMap;
use std::path::Path;

use serde::Serialize;

use super::file::{self, Document, Number, ParseError, Rule, Supersedes, Text};
use super::supersede::{self, DanglingReason};
use super::{Category, RulesError, same_instruction};
use crate::diagnostics::{self, Code, Counts, Diagnostic, DiagnosticJson};
use crate::jsonpos;
use crate::paint::Painter;
use crate::text::counted;

/// The outcome of `check`.
#[derive(Clone, Debug)]
pub struct Report {
    /// The rules file as shown to the user.
    pub path: String,
    pub exists: bool,
    pub rules: usize,
    pub diagnostics: Vec<Diagnostic>,
}

/// Lints `source` (`None`: no rules file, nothing to check). `path` is how the file is named
/// in diagnostics. A file that is not UTF-8 is a finding; one that cannot be read at all is
/// an error (the caller exits 2).
pub fn check(
    path: &Path,
    source: Result<Option<String>, RulesError>,
) -> Result<Report, RulesError> {
    check_in(path, source, None)
}

/// [`check`], with the files git tracks (`unmatched-scope` needs them; see
/// [`super::scope_check::tracked_files`]).
pub fn check_in(
    path: &Path,
    source: Result<Option<String>, RulesError>,
    tracked: Option<&[String]>,
) -> Result<Report, RulesError> {
    let display = path.display().to_string();
    let mut report = Report {
        path: display,
        exists: true,
        rules: 0,
        diagnostics: Vec::new(),
    };
    let source = match source {
        Ok(Some(source)) => source,
        Ok(None) => {
            report.exists = false;
            return Ok(report);
        }
        Err(RulesError::NotUtf8 { line, column, .. }) => {
            report.diagnostics.push(
                Diagnostic::new(Code::InvalidJson, "the file is not valid UTF-8")
                    .in_file(path)
                    .at("", Some(diagnostics::Position { line, column })),
            );
            return Ok(report);
        }
        Err(other) => return Err(other),
    };
    match file::parse(&source) {
        Ok(document) => {
            report.rules = document.rules.len();
            lint(path, &document, &mut report.diagnostics);
            super::scope_check::lint(path, &document, tracked, &mut report.diagnostics);
        }
        Err(error) => report.diagnostics.push(shape_error(path, &source, error)),
    }
    diagnostics::sort(&mut report.diagnostics);
    Ok(report)
}

fn shape_error(path: &Path, source: &str, error: ParseError) -> Diagnostic {
    match error {
        ParseError::Syntax {
            line,
            column,
            message,
        } => {
            // A leftover conflict marker is reported at its own line, whatever serde saw.
            let marker = source.lines().enumerate().find(|(_, l)| {
                ["<<<<<<<", "=======", ">>>>>>>"]
                    .iter()
                    .any(|m| l.starts_with(m))
            });
            if let Some((index, text)) = marker {
                let marker = text.split_whitespace().next().unwrap_or(text);
                return Diagnostic::new(
                    Code::InvalidJson,
                    format!("leftover merge conflict marker `{marker}`"),
                )
                .in_file(path)
                .at(
                    "",
                    Some(diagnostics::Position {
                        line: index + 1,
                        column: 1,
                    }),
                )
                .with_help(
                    "this is a leftover merge conflict marker: run `autofix resolve` to merge the rules again from git's index, or keep one side of each conflict",
                );
            }
            Diagnostic::new(Code::InvalidJson, message)
                .in_file(path)
                .at("", Some(diagnostics::Position { line, column }))
        }
        ParseError::NotArray { found } => Diagnostic::new(
            Code::NotAnArray,
            format!("the top level is {found}, not an array of rules"),
        )
        .in_file(path)
        .at("", jsonpos::locate(source, "")),
        ParseError::NotObject {
            index,
            offset,
            found,
        } => Diagnostic::new(
            Code::NotAnArray,
            format!("element {index} is {found}, not a rule object"),
        )
        .in_file(path)
        .at(format!("/{index}"), Some(jsonpos::position(source, offset))),
    }
}

/// Where `field` of `rule` is, as a pointer and a position.
fn field_at(
    document: &Document<'_>,
    rule: &Rule<'_>,
    field: &str,
) -> (String, Option<diagnostics::Position>) {
    if field.is_empty() {
        let position = jsonpos::position(document.source, rule.offset);
        return (format!("/{}", rule.index), Some(position));
    }
    let pointer = format!("/{}/{field}", rule.index);
    let offset = jsonpos::find_pointer(rule.raw, &format!("/{field}")).unwrap_or(0);
    (
        pointer,
        Some(jsonpos::position(document.source, rule.offset + offset)),
    )
}

/// The fix for a problem in the rules file, where the code's general fix also speaks of
/// presets.
fn rules_help(code: Code) -> &'static str {
    match code {
        Code::InvalidField => {
            "Write texts as strings and `Supersedes` as a list of rule numbers; rules are never \
             edited, so for a published rule learn a new rule that supersedes this one."
        }
        _ => code.fix(),
    }
}

fn lint(path: &Path, document: &Document<'_>, out: &mut Vec<Diagnostic>) {
    let resolution = supersede::resolve(document);
    let mut emit = |rule: &Rule<'_>, field: &str, code: Code, message: String| {
        let (pointer, position) = field_at(document, rule, field);
        let diagnostic = Diagnostic::new(code, message)
            .in_file(path)
            .at(pointer, position)
            .with_help(rules_help(code));
        // History judged by its fix: a superseded rule's problem has been dealt with.
        out.push(if resolution.is_active(rule.index) {
            diagnostic
        } else {
            diagnostic.in_history()
        });
    };
    let mut first_with_number: HashMap<u64, u64> = HashMap::new();
    for rule in &document.rules {
        let name = rule_name(rule);
        if let Some(problem) = &rule.malformed {
            emit(rule, "", Code::InvalidField, format!("{name}: {problem}"));
            continue;
        }
        match rule.number {
            Number::Missing => emit(
                rule,
                "",
                Code::MissingField,
                format!("{name} has no `Rule_number`"),
            ),
            Number::Invalid(raw) => emit(
                rule,
                "Rule_number",
                Code::InvalidRuleNumber,
                format!("{name}: `Rule_number` {raw} is not a positive integer below 2^63"),
            ),
            Number::Valid(n) => {
                if first_with_number.insert(n, n).is_some() {
                    emit(
                        rule,
                        "Rule_number",
                        Code::DuplicateRuleNumber,
                        format!("rule number {n} is used more than once"),
                    );
                }
            }
        }
        match &rule.category {
            Text::Str(category) if Category::parse(category).is_none() => emit(
                rule,
                "Category",
                Code::UnknownCategory,
                format!(
                    "{name}: category `{category}` is not one of {}",
                    Category::list()
                ),
            ),
            _ => {}
        }
        for (field, text) in [
            ("Category", &rule.category),
            ("Instruction", &rule.instruction),
            ("Why", &rule.why),
        ] {
            match text {
                Text::Missing => emit(
                    rule,
                    "",
                    Code::MissingField,
                    format!("{name} has no `{field}`"),
                ),
                Text::Other(raw) => emit(
                    rule,
                    field,
                    Code::InvalidField,
                    format!("{name}: `{field}` is {}, not a string", file::kind_of(raw)),
                ),
                Text::Str(text) if text.trim().is_empty() => emit(
                    rule,
                    field,
                    Code::EmptyText,
                    format!("{name}: `{field}` is empty"),
                ),
                Text::Str(_) => {}
            }
        }
        if let Supersedes::Invalid(raw) = &rule.supersedes {
            emit(
                rule,
                "Supersedes",
                Code::InvalidField,
                format!("{name}: `Supersedes` is {raw}, not an array of rule numbers",),
            );
        }
    }

    for dangling in &resolution.dangling {
        let rule = &document.rules[dangling.index];
        let reason = match dangling.reason {
            DanglingReason::Missing => "no rule has that number",
            DanglingReason::NotOlder => "only an older (lower-numbered) rule can be superseded",
        };
        emit(
            rule,
            "",
            Code::DanglingSupersedes,
            format!(
                "{} supersedes rule {}, but {reason}",
                rule_name(rule),
                dangling.reference
            ),
        );
    }

    for rule in &document.rules {
        let active_by: Vec<&Rule<'_>> = resolution.superseded_by[rule.index]
            .iter()
            .flat_map(|n| {
                document
                    .rules
                    .iter()
                    .filter(move |r| r.number == Number::Valid(*n))
            })
            .filter(|r| resolution.is_active(r.index))
            .collect();
        if let [first, rest @ ..] = active_by.as_slice() {
            for later in rest {
                emit(
                    later,
                    "",
                    Code::MultipleSupersedes,
                    format!(
                        "{} supersedes {}, which {} also supersedes",
                        rule_name(later),
                        rule_name(rule),
                        rule_name(first)
                    ),
                );
            }
        }
    }

    let mut active_instructions: Vec<(&Rule<'_>, &str)> = Vec::new();
    for rule in &document.rules {
        if !resolution.is_active(rule.index) {
            continue;
        }
        let Some(instruction) = rule.instruction.as_str() else {
            continue;
        };
        if !instruction.trim().is_empty() && !is_imperative(instruction) {
            emit(
                rule,
                "Instruction",
                Code::NotImperative,
                format!(
                    "{}: \"{}\" does not read as an imperative",
                    rule_name(rule),
                    shorten(instruction.trim())
                ),
            );
        }
        if let Some((earlier, _)) = active_instructions
            .iter()
            .find(|(_, text)| same_instruction(text, instruction))
        {
            emit(
                rule,
                "Instruction",
                Code::DuplicateInstruction,
                format!(
                    "{} repeats the instruction of {}",
                    rule_name(rule),
                    rule_name(earlier)
                ),
            );
        } else {
            active_instructions.push((rule, instruction));
        }
    }
}

fn rule_name(rule: &Rule<'_>) -> String {
    match rule.number {
        Number::Valid(n) => format!("rule {n}"),
        _ => format!("the rule at index {}", rule.index),
    }
}

fn shorten(text: &str) -> String {
    match text.char_indices().nth(60) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text.to_string(),
    }
}

/// Words that open a statement, not a command.
const NON_IMPERATIVE_OPENERS: &[&str] = &[
    "the", "a", "an", "this", "that", "these", "those", "it", "its", "it's", "we", "i", "you",
    "they", "he", "she", "our", "my", "your", "their", "there", "here", "all", "some", "most",
];
/// A second word that makes the first a subject: "Functions should be pure".
const STATEMENT_VERBS: &[&str] = &[
    "should", "must", "is", "are", "was", "were", "will", "can", "may", "has", "have", "needs",
    "seems", "looks", "uses",
];

/// A heuristic: an instruction reads as an imperative unless it opens with an article or
/// pronoun, with an `-ing`/`-ed` form ("Using", "Added"), or with a subject followed by a
/// modal or copula ("Tests should ..."). Conditions ("When ..., do ...") pass.
pub fn is_imperative(instruction: &str) -> bool {
    let mut words = instruction
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
                .to_lowercase()
        })
        .filter(|w| !w.is_empty());
    let Some(first) = words.next() else {
        return true;
    };
    if NON_IMPERATIVE_OPENERS.contains(&first.as_str()) {
        return false;
    }
    if first.len() >= 5 && first.ends_with("ing") && first != "bring" {
        return false;
    }
    if first.len() > 4
        && first.ends_with("ed")
        && !["embed", "proceed", "exceed", "succeed"].contains(&first.as_str())
    {
        return false;
    }
    !words
        .next()
        .is_some_and(|second| STATEMENT_VERBS.contains(&second.as_str()))
}

impl Report {
    pub fn counts(&self) -> Counts {
        Counts::of(&self.diagnostics)
    }

    pub fn has_errors(&self) -> bool {
        self.counts().errors > 0
    }

    fn summary(&self) -> String {
        if !self.exists {
            return format!("No rules file at {}; nothing to check.", self.path);
        }
        let counts = self.counts();
        let notes = match counts.notes {
            0 => String::new(),
            n => format!(" ({} on superseded rules)", counted(n, "note")),
        };
        format!(
            "Checked {} in {}: {}, {}{notes}.",
            counted(self.rules, "rule"),
            self.path,
            counted(counts.errors, "error"),
            counted(counts.warnings, "warning"),
        )
    }

    pub fn to_text(&self, painter: Painter) -> String {
        let mut out = String::new();
        for diagnostic in &self.diagnostics {
            diagnostics::render_text(&mut out, diagnostic, painter);
        }
        if !self.diagnostics.is_empty() {
            out.push('\n');
        }
        out.push_str(&self.summary());
        out.push('\n');
        out
    }

    pub fn to_github(&self) -> String {
        let mut out = String::new();
        for diagnostic in &self.diagnostics {
            diagnostics::render_github(&mut out, diagnostic);
        }
        out
    }

    pub fn to_json(&self) -> String {
        #[derive(Serialize)]
        struct Json<'a> {
            version: u32,
            path: &'a str,
            exists: bool,
            rules: usize,
            ok: bool,
            summary: Counts,
            diagnostics: Vec<DiagnosticJson<'a>>,
        }
        let json = Json {
            version: 1,
            path: &self.path,
            exists: self.exists,
            rules: self.rules,
            ok: !self.has_errors(),
            summary: self.counts(),
            diagnostics: self.diagnostics.iter().map(DiagnosticJson::from).collect(),
        };
        let mut text = serde_json::to_string_pretty(&json).expect("a report always serialises");
        text.push('\n');
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(source: &str) -> Vec<(Code, Option<diagnostics::Position>, Option<String>)> {
        check(Path::new("a.json"), Ok(Some(source.to_string())))
            .expect("text that was read always lints")
            .diagnostics
            .into_iter()
            .map(|d| (d.code, d.position, d.help))
            .collect()
    }

    #[test]
    fn two_active_rules_superseding_one_rule_warn() {
        let rule = |n: u64, why: &str| {
            format!(
                r#"{{"Rule_number": {n}, "Category": "CODE", "Instruction": "Always {n}", "Why": "{why}"}}"#
            )
        };
        let both = format!(
            "[{}, {}, {}]",
            rule(1, "x"),
            rule(2, "supersedes rule 1"),
            rule(3, "supersedes rule 1")
        );
        let found = codes(&both);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, Code::MultipleSupersedes);
        // A chain is not a conflict: 3 replaces both 1 and 2.
        let chain = format!(
            "[{}, {}, {}]",
            rule(1, "x"),
            rule(2, "supersedes rule 1"),
            rule(3, "supersedes rules 1 and 2")
        );
        assert!(codes(&chain).is_empty());
    }

    #[test]
    fn conflict_markers_are_reported_at_their_line() {
        let found = codes("[\n  {\"Rule_number\": 1,\n<<<<<<< HEAD\n\"Why\": \"a\"}\n=======\n]\n");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0, Code::InvalidJson);
        assert_eq!(
            found[0].1,
            Some(diagnostics::Position { line: 3, column: 1 })
        );
        assert!(found[0].2.as_deref().unwrap().contains("autofix resolve"));
    }

    #[test]
    fn imperative_heuristic() {
        for good in [
            "Always use named exports",
            "Never commit secrets - because leaks.",
            "Use pnpm, not npm",
            "When a test fails, read the log first",
            "Prefer composition",
            "Don't mock the database",
            "Embed assets at build time",
        ] {
            assert!(is_imperative(good), "{good}");
        }
        for bad in [
            "The API returns JSON",
            "We use tabs",
            "Using tabs everywhere",
            "Added a retry",
            "Functions should be pure",
            "Tests must pass",
        ] {
            assert!(!is_imperative(bad), "{bad}");
        }
    }
}
