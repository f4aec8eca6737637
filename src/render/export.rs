//! How an `export` run is shown: text for people and agents, JSON for programs, GitHub
//! workflow commands for CI annotations. Renderers return a `String`. What the run finds
//! (a target refused or out of sync, a warning) is a [`Diagnostic`] with its code, shown
//! by the shared renderers of [`crate::report::diagnostics`].

use std::fmt::Write as _;

use serde::Serialize;

use super::{Annotate, Render};
use crate::export::{Mode, Outcome, Problem, Report, Status};
use crate::report::diagnostics::{self, Code, Diagnostic, DiagnosticJson, Position};
use crate::report::paint::Painter;
use crate::report::text::counted;

/// The `export --format json` document.
#[derive(Serialize)]
pub(crate) struct ReportJson<'a> {
    version: u32,
    mode: Mode,
    remove: bool,
    ok: bool,
    rules_file: &'a str,
    rules_file_exists: bool,
    active_rules: usize,
    targets: Vec<TargetJson<'a>>,
    /// The warnings' messages (kept from before `diagnostics`).
    warnings: Vec<&'a str>,
    notes: &'a [String],
    /// Every finding: the targets refused, failed or (`--check`) out of sync, then the
    /// warnings.
    diagnostics: Vec<DiagnosticJson<'a>>,
}

/// One target in [`ReportJson`].
#[derive(Serialize)]
struct TargetJson<'a> {
    id: &'a str,
    path: &'a str,
    kind: &'a str,
    selected_by: &'a str,
    status: &'a str,
    problem: Option<Problem>,
    line: Option<usize>,
    message: Option<&'a str>,
    rules: usize,
    omitted: usize,
    diff: Option<&'a str>,
}

impl Report {
    /// The status word of an outcome in this run's mode (`created`, `would create`,
    /// `missing`, …). `word` is the machine form (`would-create`), else the human form.
    fn status_word(&self, status: Status, machine: bool) -> &'static str {
        let words = match (self.mode, status) {
            (_, Status::Skipped) => ("skipped", "skipped"),
            (_, Status::Refused) => ("refused", "refused"),
            (_, Status::Failed) => ("failed", "failed"),
            (Mode::Check, Status::Created) => ("missing", "missing"),
            (Mode::Check, Status::Updated) => ("stale", "stale"),
            (Mode::Check, Status::Removed) if self.remove => ("present", "present"),
            (Mode::Check, Status::Removed) => ("orphaned", "orphaned"),
            (Mode::Check, Status::Unchanged) => ("in-sync", "in sync"),
            (Mode::DryRun, Status::Created) => ("would-create", "would create"),
            (Mode::DryRun, Status::Updated) => ("would-update", "would update"),
            (Mode::DryRun, Status::Removed) => ("would-remove", "would remove"),
            (_, Status::Created) => ("created", "created"),
            (_, Status::Updated) => ("updated", "updated"),
            (_, Status::Removed) => ("removed", "removed"),
            (_, Status::Unchanged) => ("unchanged", "unchanged"),
        };
        if machine { words.0 } else { words.1 }
    }

    fn is_problem(&self, outcome: &Outcome) -> bool {
        matches!(outcome.status, Status::Refused | Status::Failed)
            || (self.mode == Mode::Check && outcome.status.is_change())
    }

    fn headline(&self) -> String {
        // A target with scoped files has several outcomes: it is named once.
        let mut list: Vec<String> = self
            .outcomes
            .iter()
            .map(|o| format!("{} ({})", o.id, o.reason))
            .collect();
        list.dedup();
        let targets = if list.is_empty() {
            "no targets".to_string()
        } else {
            list.join(", ")
        };
        let source = if self.rules_file_exists {
            format!(
                "{} ({})",
                self.rules_file,
                counted(self.active_rules, "active rule")
            )
        } else {
            format!(
                "{} (no rules file: removing what was exported)",
                self.rules_file
            )
        };
        let verb = match (self.mode, self.remove) {
            (Mode::Check, _) => "Checking the export of",
            (_, true) => "Removing the export of",
            _ => "Exporting",
        };
        format!("{verb} {source} to: {targets}")
    }

    fn summary(&self) -> String {
        let mut counts: Vec<(&'static str, usize)> = Vec::new();
        for outcome in &self.outcomes {
            let word = self.status_word(outcome.status, false);
            match counts.iter_mut().find(|(w, _)| *w == word) {
                Some((_, n)) => *n += 1,
                None => counts.push((word, 1)),
            }
        }
        let counts: Vec<String> = counts.iter().map(|(w, n)| format!("{n} {w}")).collect();
        let counts = counts.join(", ");
        match self.mode {
            Mode::Check if self.exit_code() == 0 => format!("In sync ({counts})."),
            Mode::Check => {
                let fix = if self.remove {
                    "autofix export --remove"
                } else {
                    "autofix export"
                };
                let refused = if self.outcomes.iter().any(|o| o.status == Status::Refused) {
                    " and fix the refused targets by hand"
                } else {
                    ""
                };
                format!("Out of sync ({counts}): run `{fix}`{refused}.")
            }
            _ if self.outcomes.is_empty() => "Nothing to do.".to_string(),
            _ => format!("{}.", capitalize(&counts)),
        }
    }

    /// The warnings, `warning[code]: ...` each, for stderr.
    pub(crate) fn warnings_text(&self, painter: Painter) -> String {
        diagnostics::text_of(&self.warnings, painter)
    }

    /// The `export --format json` document as a value (`init --format json` embeds it).
    pub(crate) fn json(&self) -> ReportJson<'_> {
        let findings = self.findings();
        ReportJson {
            version: 1,
            mode: self.mode,
            remove: self.remove,
            ok: self.exit_code() == 0,
            rules_file: &self.rules_file,
            rules_file_exists: self.rules_file_exists,
            active_rules: self.active_rules,
            targets: self
                .outcomes
                .iter()
                .map(|o| TargetJson {
                    id: o.id,
                    path: &o.path,
                    kind: o.kind.as_str(),
                    selected_by: &o.reason,
                    status: self.status_word(o.status, true),
                    problem: o.problem,
                    line: o.line,
                    message: o.message.as_deref(),
                    rules: o.rules,
                    omitted: o.omitted,
                    diff: o.diff.as_deref(),
                })
                .collect(),
            warnings: self.warnings.iter().map(|w| &*w.message).collect(),
            notes: &self.notes,
            diagnostics: findings
                .into_iter()
                .map(|finding| match finding {
                    Finding::Target(diagnostic) => DiagnosticJson::owned(diagnostic),
                    Finding::Warning(diagnostic) => DiagnosticJson::from(diagnostic),
                })
                .collect(),
        }
    }

    /// Every finding of the run as a diagnostic (see [`Report::findings`]).
    pub(crate) fn diagnostics(&self) -> Vec<Diagnostic> {
        self.findings()
            .into_iter()
            .map(|finding| match finding {
                Finding::Target(diagnostic) => diagnostic,
                Finding::Warning(diagnostic) => diagnostic.clone(),
            })
            .collect()
    }

    /// Every finding of the run: each target refused, failed or (`--check`) out of sync,
    /// titled with its code (`export-out-of-sync` for drift), then the warnings.
    fn findings(&self) -> Vec<Finding<'_>> {
        let targets = self
            .outcomes
            .iter()
            .filter(|o| self.is_problem(o))
            .map(|outcome| {
                let mut message = format!(
                    "{} is {} ({} target `{}`)",
                    outcome.path,
                    self.status_word(outcome.status, false),
                    outcome.kind.as_str(),
                    outcome.id
                );
                if let Some(detail) = &outcome.message {
                    let _ = write!(message, ": {detail}");
                } else {
                    message.push_str(": run `autofix export` and commit the result");
                }
                let code = outcome.problem.map_or(Code::ExportOutOfSync, Problem::code);
                let line = outcome.line.map(|line| Position::new(line, 0));
                Finding::Target(
                    Diagnostic::new(code, message)
                        .in_file(&outcome.path)
                        .at("", line),
                )
            });
        targets
            .chain(self.warnings.iter().map(Finding::Warning))
            .collect()
    }
}

/// A finding of the run: a target's, made for the report, or a warning it holds.
enum Finding<'a> {
    Target(Diagnostic),
    Warning(&'a Diagnostic),
}

fn problem_words(problem: Problem) -> &'static str {
    match problem {
        Problem::MalformedMarkers => "malformed markers",
        Problem::Unowned => "not owned by autofix",
        Problem::ForeignGenerator => "owned by another generator",
        Problem::OutsideRepository => "outside the repository",
        Problem::Protected => "protected",
        Problem::Changed => "changed meanwhile",
        Problem::OverBudget => "over budget",
        Problem::Unreadable => "unreadable",
        Problem::Unwritable => "unwritable",
    }
}

fn capitalize(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

impl Render for Report {
    /// One line per target, warnings on stderr (returned apart), a summary.
    fn to_text(&self, painter: Painter) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "{}", self.headline());
        let width = self
            .outcomes
            .iter()
            .map(|o| self.status_word(o.status, false).len())
            .max()
            .unwrap_or(0);
        for outcome in &self.outcomes {
            let word = self.status_word(outcome.status, false);
            let padded = format!("{word:width$}");
            let word = if self.is_problem(outcome) {
                painter.error(&padded)
            } else if outcome.status.is_change() {
                painter.good(&padded)
            } else {
                painter.dim(&padded)
            };
            let mut location = outcome.path.clone();
            if let Some(line) = outcome.line {
                let _ = write!(location, ":{line}");
            }
            let mut detail = String::new();
            if outcome.status == Status::Refused || outcome.status == Status::Failed {
                if let Some(problem) = outcome.problem {
                    let _ = write!(detail, ": {}", problem_words(problem));
                }
                if let Some(message) = &outcome.message {
                    let _ = write!(detail, ": {message}; left unchanged");
                }
                if let Some(problem) = outcome.problem {
                    detail.push_str(&painter.dim(&format!(" [{}]", problem.code().as_str())));
                }
            } else if let Some(message) = &outcome.message {
                let _ = write!(detail, " ({message})");
            }
            let _ = writeln!(out, "  {word}  {location}{detail}");
            if let Some(diff) = &outcome.diff {
                out.push_str(diff);
            }
        }
        for note in &self.notes {
            let _ = writeln!(out, "  {note}");
        }
        let _ = writeln!(out, "{}", self.summary());
        out
    }

    fn to_json(&self) -> String {
        crate::report::text::json_document(&self.json())
    }
}

impl Annotate for Report {
    /// A GitHub Actions annotation for every finding.
    fn to_github(&self) -> String {
        diagnostics::github_of(&self.diagnostics())
    }
}
