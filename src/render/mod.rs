//! The renderings of every report a command prints, one module per report kind, behind one
//! trait: the domains and `ops/` return data (a report, an outcome), and this floor, above
//! them and below the front ends, turns it into text for people, the `--format json`
//! document, and GitHub workflow commands where a report has them. The renderers of the
//! one finding type (`report::diagnostics`, `report::sarif`) sit below the domains, which
//! build findings; the rules listing (`rules::listing`) is what the exports deliver and the
//! budgets measure, so it is the domain's own content.

pub(crate) mod check;
pub(crate) mod doctor;
pub(crate) mod edit_hook;
pub(crate) mod enforce;
pub(crate) mod export;
pub(crate) mod import;
pub(crate) mod init;
pub(crate) mod learn;
pub(crate) mod ledger;
pub(crate) mod ledger_page;
pub(crate) mod preset;
pub(crate) mod prompt_hook;
pub(crate) mod reflect;
pub(crate) mod resolve;
pub(crate) mod show;

use crate::report::paint::Painter;

/// A report in the formats every command offers.
pub(crate) trait Render {
    /// The text for people; `painter` colors it where the report uses color (a report
    /// without color ignores it).
    fn to_text(&self, painter: Painter) -> String;

    /// [`Render::to_text`], written to `out` as it is made: a report of many findings
    /// need not be held whole in memory.
    fn write_text(&self, out: &mut dyn std::io::Write, painter: Painter) -> std::io::Result<()> {
        out.write_all(self.to_text(painter).as_bytes())
    }

    /// The `--format json` document: pretty JSON with its `version`, then a newline.
    fn to_json(&self) -> String;

    /// [`Render::to_json`], written to `out` as it is made.
    fn write_json(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        out.write_all(self.to_json().as_bytes())
    }
}

/// A report with a GitHub Actions form: one workflow command per finding.
pub(crate) trait Annotate: Render {
    fn to_github(&self) -> String;
}

/// The text `write` writes, collected: [`Render::to_text`] of a report that streams it.
fn written(write: impl FnOnce(&mut Vec<u8>) -> std::io::Result<()>) -> String {
    let mut out = Vec::new();
    write(&mut out).expect("writing to memory cannot fail");
    String::from_utf8(out).expect("a report is text")
}
