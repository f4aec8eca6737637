//! `check`'s report: the findings, then the summary line; as text, GitHub workflow
//! commands, and the `check --format json` document (also the MCP tool's structured
//! result).

use serde::Serialize;

use super::{Annotate, Render};
use crate::report::diagnostics::{self, Counts, JsonFindings};
use crate::report::paint::Painter;
use crate::report::text::counted;
use crate::rules::check::Report;

fn summary(report: &Report) -> String {
    if !report.exists {
        return format!("No rules file at {}; nothing to check.", report.path);
    }
    let counts = report.counts();
    let near = (report.diagnostics.iter())
        .filter(|d| d.code == crate::report::diagnostics::Code::NearRules)
        .count();
    let mut notes = Vec::new();
    if near > 0 {
        notes.push(format!("{} to settle", counted(near, "near pair")));
    }
    if counts.notes > near {
        notes.push(format!(
            "{} on superseded rules",
            counted(counts.notes - near, "note")
        ));
    }
    let notes = match notes.is_empty() {
        true => String::new(),
        false => format!(" ({})", notes.join(", ")),
    };
    format!(
        "Checked {} in {}: {}, {}{notes}.",
        counted(report.rules, "rule"),
        report.path,
        counted(counts.errors, "error"),
        counted(counts.warnings, "warning"),
    )
}

impl Render for Report {
    fn to_text(&self, painter: Painter) -> String {
        super::written(|out| self.write_text(out, painter))
    }

    fn write_text(&self, out: &mut dyn std::io::Write, painter: Painter) -> std::io::Result<()> {
        diagnostics::write_text(out, &self.diagnostics, painter)?;
        if !self.diagnostics.is_empty() {
            out.write_all(b"\n")?;
        }
        writeln!(out, "{}", summary(self))
    }

    fn to_json(&self) -> String {
        crate::report::text::json_document(&document(self))
    }

    /// Each finding's JSON made as it is written: a file with a finding on every rule
    /// need not hold the document, nor a copy of each finding, beside the report.
    fn write_json(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        serde_json::to_writer_pretty(&mut *out, &document(self))?;
        out.write_all(b"\n")
    }
}

impl Annotate for Report {
    /// One workflow command per diagnostic, then the summary as a plain log line (as
    /// `preset validate --format github` ends).
    fn to_github(&self) -> String {
        let mut out = diagnostics::github_of(&self.diagnostics);
        out.push_str(&crate::report::text::shown(&summary(self)));
        out.push('\n');
        out
    }
}

/// The `check --format json` document as a value (the MCP tool's structured result).
pub(crate) fn value(report: &Report) -> serde_json::Value {
    serde_json::to_value(document(report)).expect("a report always serialises")
}

fn document(report: &Report) -> ReportJson<'_> {
    ReportJson {
        version: 1,
        path: &report.path,
        exists: report.exists,
        rules: report.rules,
        ok: !report.has_errors(),
        summary: report.counts(),
        diagnostics: JsonFindings(&report.diagnostics),
    }
}

/// The `check --format json` document.
#[derive(Serialize)]
struct ReportJson<'a> {
    version: u32,
    path: &'a str,
    exists: bool,
    rules: usize,
    ok: bool,
    summary: Counts,
    diagnostics: JsonFindings<'a>,
}
