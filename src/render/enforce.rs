//! `enforce`'s report: the breaks found and the summary line as text, and the `--format
//! json` document, each written as it is made (a run over a whole repository can find many).

use serde::Serialize;

use super::Render;
use crate::ops::enforce::Report;
use crate::report::diagnostics::{self, JsonFindings};
use crate::report::paint::Painter;
use crate::report::text::{counted, plural_s};

impl Render for Report {
    fn to_text(&self, painter: Painter) -> String {
        super::written(|out| self.write_text(out, painter))
    }

    fn write_text(&self, out: &mut dyn std::io::Write, painter: Painter) -> std::io::Result<()> {
        diagnostics::write_text(out, &self.diagnostics, painter)?;
        out.write_all(summary(self).as_bytes())
    }

    fn to_json(&self) -> String {
        crate::report::text::json_document(&document(self))
    }

    fn write_json(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        serde_json::to_writer_pretty(&mut *out, &document(self))?;
        out.write_all(b"\n")
    }
}

fn summary(report: &Report) -> String {
    if report.checks == 0 {
        return "No active rule has a check: nothing to enforce (add one with `autofix learn --check REGEX`).\n"
            .to_string();
    }
    format!(
        "Checked {} against {} rule{} with a check: {}.\n",
        counted(report.files, "file"),
        report.checks,
        plural_s(report.checks),
        counted(report.diagnostics.len(), "violation"),
    )
}

fn document(report: &Report) -> ReportJson<'_> {
    ReportJson {
        version: 1,
        checks: report.checks,
        files: report.files,
        diagnostics: JsonFindings(&report.diagnostics),
    }
}

/// The `enforce --format json` document; its findings in the shape of `check`'s.
#[derive(Serialize)]
struct ReportJson<'a> {
    version: u32,
    checks: usize,
    files: usize,
    diagnostics: JsonFindings<'a>,
}
