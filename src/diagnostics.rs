//! Diagnostics as values: a closed set of stable codes, each with a severity, and the
//! renderers (text, JSON, GitHub annotations) that `check` and `preset validate` share.

use std::fmt::Write as _;
use std::path::PathBuf;

use serde::Serialize;

use crate::paint::Painter;

/// How bad a diagnostic is. Errors make `check` fail and disable a preset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

macro_rules! codes {
    ($($variant:ident = $name:literal, $severity:ident, $summary:literal, $fix:literal;)*) => {
        /// Every diagnostic the tool can emit. A code never changes meaning.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code { $($variant,)* }

        impl Code {
            /// All codes, in documentation order.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            /// The stable kebab-case name, e.g. `command-skill-not-in-requirements`.
            pub fn as_str(self) -> &'static str {
                match self { $(Code::$variant => $name,)* }
            }

            pub fn severity(self) -> Severity {
                match self { $(Code::$variant => Severity::$severity,)* }
            }

            /// What the code means, in one sentence.
            pub fn summary(self) -> &'static str {
                match self { $(Code::$variant => $summary,)* }
            }

            /// How to fix it, in one sentence.
            pub fn fix(self) -> &'static str {
                match self { $(Code::$variant => $fix,)* }
            }

            pub fn from_name(name: &str) -> Option<Code> {
                Code::ALL.iter().copied().find(|code| code.as_str() == name)
            }
        }
    };
}

codes! {
    // Shared by the rules file and preset files.
    InvalidJson = "invalid-json", Error,
        "The file is not valid JSON.",
        "Fix the syntax at the reported line and column (a leftover merge marker, a missing comma or bracket).";
    // The rules file.
    NotAnArray = "not-an-array", Error,
        "The rules file is not a JSON array of objects.",
        "Make the top level an array `[...]` whose elements are rule objects.";
    MissingField = "missing-field", Error,
        "A rule lacks one of `Rule_number`, `Category`, `Instruction`, `Why`.",
        "Add the field; `autofix learn` always writes all four.";
    InvalidRuleNumber = "invalid-rule-number", Error,
        "A `Rule_number` is not a positive integer below 2^63.",
        "Write the number as a plain positive integer such as `12`.";
    DuplicateRuleNumber = "duplicate-rule-number", Error,
        "Two rules share one `Rule_number` (often after a merge).",
        "Renumber the newer rule to the next free number, and update references to it.";
    UnknownCategory = "unknown-category", Error,
        "A rule's `Category` is not one of STYLE CODE ARCH TOOL PROCESS DATA UX OTHER.",
        "Learn a superseding rule under a listed category; brackets and case are tolerated.";
    EmptyText = "empty-text", Error,
        "A rule's `Instruction` or `Why` is empty.",
        "Learn a superseding rule that states the instruction and its reason.";
    DanglingSupersedes = "dangling-supersedes", Error,
        "A supersede reference names a rule that does not exist or is not older.",
        "Reference an existing, lower-numbered rule; only a newer rule can replace an older one.";
    NotImperative = "not-imperative", Warning,
        "An instruction does not read as an imperative (\"Never/Always do X\").",
        "Start the instruction with a verb: \"Always ...\", \"Never ...\", \"Use ...\".";
    DuplicateInstruction = "duplicate-instruction", Warning,
        "Two active rules carry the same instruction.",
        "Supersede the older one, or drop the repeat in review.";
    MultipleSupersedes = "multiple-supersedes", Warning,
        "Two active rules supersede the same rule (often two branches replaced it independently).",
        "Keep one: learn a rule that supersedes both, or the one you do not want.";
    // Presets.
    MissingFile = "missing-file", Error,
        "A file that the manifest declares, or that the preset form requires, is absent.",
        "Create the file or correct the path in `manifest.json`.";
    PathEscapesPreset = "path-escapes-preset", Error,
        "A manifest path is absolute or leaves the preset directory.",
        "Use a relative path inside the preset, such as `./frontend/commands.json`.";
    InvalidField = "invalid-field", Error,
        "A field is missing or has the wrong type.",
        "Give the field the type the format expects (see the README's preset formats).";
    DuplicateCommandId = "duplicate-command-id", Error,
        "Two commands in one preset share an `id`.",
        "Give every command a unique `id`.";
    UnknownCommandGroup = "unknown-command-group", Error,
        "A command's `groupId` names no entry of `groups`.",
        "Add the group to `groups` or correct the command's `groupId`.";
    CommandSkillNotInRequirements = "command-skill-not-in-requirements", Error,
        "A command is bound to a skill that no requirement declares; the whole preset is disabled.",
        "Declare the skill in the preset's requirements, or remove the command's `skill`.";
    PresetIdMismatch = "preset-id-mismatch", Error,
        "The manifest's `taskPresetId` differs from the preset's directory name.",
        "Rename the directory or the `taskPresetId` so they match.";
    DuplicatePresetId = "duplicate-preset-id", Error,
        "Two presets in one collection share an id.",
        "Give each preset a unique `taskPresetId` (and directory name).";
    DuplicateRequirement = "duplicate-requirement", Warning,
        "One requirement (one cache key) is declared twice.",
        "Delete the repeat; several commands bound to one skill need one requirement.";
    UnknownPlaceholder = "unknown-placeholder", Warning,
        "A template uses `{name}` that no panel field, input binding or `commandId` provides.",
        "Correct the placeholder's spelling, or declare the input it needs.";
    ConflictingPrelude = "conflicting-prelude", Warning,
        "A command bound to skill S has a template that starts with another slash command `/T`.",
        "Bind the command to `T`, or drop the leading `/T` from its template.";
}

/// A 1-based line and column (columns count characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

/// One finding: what, where, and how to fix it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub code: Code,
    pub message: String,
    pub file: Option<PathBuf>,
    /// A JSON pointer into the file (`/commands/3/skill`); empty for the whole document.
    pub pointer: String,
    pub position: Option<Position>,
    pub help: Option<String>,
}

impl Diagnostic {
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            message: message.into(),
            file: None,
            pointer: String::new(),
            position: None,
            help: None,
        }
    }

    pub fn in_file(mut self, file: impl Into<PathBuf>) -> Self {
        self.file = Some(file.into());
        self
    }

    pub fn at(mut self, pointer: impl Into<String>, position: Option<Position>) -> Self {
        self.pointer = pointer.into();
        self.position = position;
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub fn severity(&self) -> Severity {
        self.code.severity()
    }

    pub fn is_error(&self) -> bool {
        self.severity() == Severity::Error
    }

    fn sort_key(&self) -> (&Option<PathBuf>, Option<Position>, &str, Code) {
        (&self.file, self.position, &self.pointer, self.code)
    }
}

/// Puts diagnostics in a stable order: by file, then position, pointer and code.
pub fn sort(diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
}

/// Error and warning counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    pub errors: usize,
    pub warnings: usize,
}

impl Counts {
    pub fn of<'a>(diagnostics: impl IntoIterator<Item = &'a Diagnostic>) -> Counts {
        let mut counts = Counts::default();
        for diagnostic in diagnostics {
            match diagnostic.severity() {
                Severity::Error => counts.errors += 1,
                Severity::Warning => counts.warnings += 1,
            }
        }
        counts
    }
}

/// The compiler-like human form:
///
/// ```text
/// error[code]: message
///   --> file:line:col (/pointer)
///   = help: ...
/// ```
pub fn render_text(out: &mut String, diagnostic: &Diagnostic, painter: Painter) {
    let severity = diagnostic.severity();
    let label = match severity {
        Severity::Error => painter.error(severity.as_str()),
        Severity::Warning => painter.warning(severity.as_str()),
    };
    let _ = writeln!(
        out,
        "{label}{}",
        painter.bold(&format!(
            "[{}]: {}",
            diagnostic.code.as_str(),
            diagnostic.message
        ))
    );
    if let Some(file) = &diagnostic.file {
        let mut location = file.display().to_string();
        if let Some(position) = diagnostic.position {
            let _ = write!(location, ":{}:{}", position.line, position.column);
        }
        if !diagnostic.pointer.is_empty() {
            let _ = write!(location, " ({})", diagnostic.pointer);
        }
        let _ = writeln!(out, "  {} {location}", painter.dim("-->"));
    }
    if let Some(help) = &diagnostic.help {
        let _ = writeln!(out, "  {} {help}", painter.dim("= help:"));
    }
}

/// One GitHub Actions workflow command per diagnostic.
pub fn render_github(out: &mut String, diagnostic: &Diagnostic) {
    let _ = write!(out, "::{}", diagnostic.severity().as_str());
    let mut properties = Vec::new();
    if let Some(file) = &diagnostic.file {
        properties.push(format!(
            "file={}",
            escape_property(&file.display().to_string())
        ));
        if let Some(position) = diagnostic.position {
            properties.push(format!("line={}", position.line));
            properties.push(format!("col={}", position.column));
        }
    }
    properties.push(format!("title={}", diagnostic.code.as_str()));
    let _ = write!(out, " {}", properties.join(","));
    let mut message = diagnostic.message.clone();
    if let Some(help) = &diagnostic.help {
        message.push_str("\nhelp: ");
        message.push_str(help);
    }
    let _ = writeln!(out, "::{}", escape_data(&message));
}

// GitHub's escaping rules for workflow commands (actions/toolkit `command.ts`).
fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// The JSON shape of one diagnostic, shared by every `--format json` document.
#[derive(Serialize)]
pub struct DiagnosticJson<'a> {
    pub code: &'static str,
    pub severity: Severity,
    pub message: &'a str,
    pub file: Option<String>,
    pub pointer: &'a str,
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub help: Option<&'a str>,
}

impl<'a> From<&'a Diagnostic> for DiagnosticJson<'a> {
    fn from(diagnostic: &'a Diagnostic) -> Self {
        DiagnosticJson {
            code: diagnostic.code.as_str(),
            severity: diagnostic.severity(),
            message: &diagnostic.message,
            file: diagnostic.file.as_ref().map(|f| f.display().to_string()),
            pointer: &diagnostic.pointer,
            line: diagnostic.position.map(|p| p.line),
            column: diagnostic.position.map(|p| p.column),
            help: diagnostic.help.as_deref(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_kebab_case() {
        let mut seen = std::collections::HashSet::new();
        for code in Code::ALL {
            let name = code.as_str();
            assert!(seen.insert(name), "duplicate code {name}");
            assert!(
                name.split('-')
                    .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_lowercase())),
                "{name} is not kebab-case"
            );
            assert_eq!(Code::from_name(name), Some(*code));
        }
    }

    #[test]
    fn readme_lists_every_code() {
        let readme = include_str!("../README.md");
        for code in Code::ALL {
            assert!(
                readme.contains(&format!("`{}`", code.as_str())),
                "README.md does not document `{}`",
                code.as_str()
            );
        }
    }

    #[test]
    fn github_escapes_newlines_and_properties() {
        let diagnostic = Diagnostic::new(Code::InvalidJson, "bad\nthing 100%")
            .in_file("a,b:c.json")
            .at("", Some(Position { line: 2, column: 3 }));
        let mut out = String::new();
        render_github(&mut out, &diagnostic);
        assert_eq!(
            out,
            "::error file=a%2Cb%3Ac.json,line=2,col=3,title=invalid-json::bad%0Athing 100%25\n"
        );
    }
}
