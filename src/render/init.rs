//! How an `init` run is shown: one line per path, the export's own lines with `--export`,
//! whether anything changed, and the next steps. Text and JSON; renderers return a
//! `String`.

use std::fmt::Write as _;

use serde::Serialize;

use super::{Render, export};
use crate::export::Mode;
use crate::init::{Action, Report, Shown, Step};
use crate::report::diagnostics::{Code, Diagnostic, DiagnosticJson, Position};
use crate::report::paint::Painter;

impl Report {
    /// What follows the steps: the export's lines, whether it is done, the next steps.
    fn rest_text(&self, painter: Painter) -> String {
        let mut out = String::new();
        if let Some(export) = &self.export {
            out.push_str(&export.to_text(painter));
            out.push_str(&export.warnings_text(painter));
        }
        let summary = if self.exit_code() != 0 && self.mode == Mode::Check {
            "Not set up: `autofix init` would change the files above."
        } else if self.mode == Mode::Write && self.exit_code() == 2 {
            "Not done: a write failed above; fix it and run `autofix init` again."
        } else if self.mode == Mode::Write && self.exit_code() == 1 {
            "Done, except what was refused above (left unchanged); fix it and run `autofix init` again."
        } else if self.is_noop() {
            "Nothing to change: the repository is already set up."
        } else if self.mode == Mode::Write {
            "Done."
        } else {
            "Nothing was written (dry run)."
        };
        let _ = writeln!(out, "{summary}");
        if !self.next_steps.is_empty() && self.mode != Mode::Check {
            out.push_str("Next steps:\n");
            for step in &self.next_steps {
                let _ = writeln!(out, "  - {step}");
            }
        }
        out
    }

    fn word(&self, action: Action) -> &'static str {
        match (self.mode, action) {
            (Mode::Write, Action::Created) => "created",
            (Mode::Write, Action::Updated) => "updated",
            (_, Action::Created) => "would create",
            (_, Action::Updated) => "would update",
            (_, Action::Unchanged) => "unchanged",
            (_, Action::Refused) => "refused",
            (_, Action::Skipped) => "skipped",
            (_, Action::Note) => "note",
            (_, Action::Failed) => "failed",
        }
    }
}

impl Report {
    /// The steps refused or failed, as diagnostics.
    pub(crate) fn diagnostics(&self) -> Vec<Diagnostic> {
        self.steps
            .iter()
            .filter_map(|step| {
                let mut diagnostic = Diagnostic::new(step.code()?, describe(step));
                if let Some(path) = &step.path {
                    diagnostic = diagnostic
                        .in_file(path)
                        .at("", step.line.map(|line| Position::new(line, 0)));
                }
                Some(diagnostic)
            })
            .collect()
    }
}

impl Step {
    /// The code of a step that was refused (`init-refused`) or failed (`init-failed`).
    fn code(&self) -> Option<Code> {
        match self.action {
            Action::Refused => Some(Code::InitRefused),
            Action::Failed => Some(Code::InitFailed),
            _ => None,
        }
    }
}

/// `path:line (step): message`.
fn describe(step: &Step) -> String {
    let mut text = match &step.path {
        Some(path) => path.clone(),
        None => step.step.clone(),
    };
    if let Some(line) = step.line {
        let _ = write!(text, ":{line}");
    }
    if step.path.is_some() {
        let _ = write!(text, " ({})", step.step);
    }
    if let Some(message) = &step.message {
        let _ = write!(text, ": {message}");
        if step.action == Action::Refused {
            text.push_str("; left unchanged");
        }
    }
    text
}

impl Render for Shown<'_> {
    fn to_text(&self, painter: Painter) -> String {
        let report = self.report;
        let mut out = String::new();
        let (folded, listed): (Vec<&Step>, Vec<&Step>) = (report.steps.iter())
            .partition(|step| !self.verbose && report.mode == Mode::Write && is_merge_setup(step));
        let width = listed
            .iter()
            .map(|s| report.word(s.action).len())
            .chain((!folded.is_empty()).then(|| {
                let any_changed = folded.iter().any(|s| s.action != Action::Unchanged);
                let shown = if any_changed {
                    Action::Updated
                } else {
                    Action::Unchanged
                };
                report.word(shown).len()
            }))
            .max()
            .unwrap_or(0);
        for step in &listed {
            let padded = format!("{:width$}", report.word(step.action));
            let word = match step.action {
                Action::Refused | Action::Failed => painter.error(&padded),
                Action::Created | Action::Updated => painter.good(&padded),
                Action::Note => painter.warning(&padded),
                _ => painter.dim(&padded),
            };
            let code = step
                .code()
                .map(|code| painter.dim(&format!(" [{}]", code.as_str())))
                .unwrap_or_default();
            let _ = writeln!(out, "  {word}  {}{code}", describe(step));
        }
        if let Some(line) = merge_setup_line(report, &folded, width, painter) {
            out.push_str(&line);
        }
        out.push_str(&report.rest_text(painter));
        out
    }

    fn to_json(&self) -> String {
        self.report.to_json()
    }
}

/// A step of the merge drivers' setup: a git config entry or a `.gitattributes` line,
/// done or already there (a refusal or a failure is always listed). Folded only when
/// written: `--check` and `--dry-run` list what they would change.
fn is_merge_setup(step: &Step) -> bool {
    step.step.ends_with("merge driver")
        && matches!(
            step.action,
            Action::Created | Action::Updated | Action::Unchanged
        )
}

/// The one line the folded merge-driver steps make: what changed, in counts.
fn merge_setup_line(
    report: &Report,
    folded: &[&Step],
    width: usize,
    painter: Painter,
) -> Option<String> {
    let changed: Vec<&&Step> = folded
        .iter()
        .filter(|s| s.action != Action::Unchanged)
        .collect();
    if changed.is_empty() {
        let word = format!("{:width$}", report.word(Action::Unchanged));
        return (!folded.is_empty()).then(|| {
            format!(
                "  {}  merge drivers: installed already (`--verbose` lists them)\n",
                painter.dim(&word)
            )
        });
    }
    let lines = changed.iter().filter(|s| s.path.is_some()).count();
    let entries = changed.len() - lines;
    let mut parts = Vec::new();
    if entries > 0 {
        parts.push(format!(
            "{} (this clone's)",
            crate::report::text::counted(entries, "git config setting")
        ));
    }
    if lines > 0 {
        parts.push(crate::report::text::counted(lines, ".gitattributes line"));
    }
    let word = format!("{:width$}", report.word(Action::Updated));
    Some(format!(
        "  {}  merge drivers, so that git merges the rules, the exported files and the sources as autofix does: {} (`--verbose` lists them)\n",
        painter.good(&word),
        parts.join(", ")
    ))
}

impl Render for Report {
    fn to_text(&self, painter: Painter) -> String {
        Shown {
            report: self,
            verbose: true,
        }
        .to_text(painter)
    }

    fn to_json(&self) -> String {
        #[derive(Serialize)]
        struct Json<'a> {
            version: u32,
            mode: Mode,
            ok: bool,
            changed: bool,
            steps: &'a [Step],
            export: Option<export::ReportJson<'a>>,
            next_steps: &'a [String],
            /// The steps refused or failed, with their codes (the export's are in `export`).
            diagnostics: Vec<DiagnosticJson<'static>>,
        }
        let export = self.export.as_ref().map(|e| e.json());
        let json = Json {
            version: 1,
            mode: self.mode,
            ok: self.exit_code() == 0,
            changed: !self.is_noop(),
            steps: &self.steps,
            export,
            next_steps: &self.next_steps,
            diagnostics: self
                .diagnostics()
                .into_iter()
                .map(DiagnosticJson::owned)
                .collect(),
        };
        crate::report::text::json_document(&json)
    }
}
