//! `doctor`'s report: one line a check, its fix, the count of failures; as text and the `doctor --format json` document.

use super::Render;
use crate::merge::doctor::{Check, Report};
use crate::report::diagnostics::DiagnosticJson;
use crate::report::paint::Painter;
use serde::Serialize;

impl Render for Report {
    fn to_text(&self, painter: Painter) -> String {
        let width = self.checks.iter().map(|c| c.name.len()).max().unwrap_or(0);
        let mut out = String::new();
        for check in &self.checks {
            let verdict = if check.note {
                painter.warning("note")
            } else if check.ok {
                painter.good("ok  ")
            } else {
                painter.error("FAIL")
            };
            let code = check
                .code
                .map(|code| painter.dim(&format!(" [{}]", code.as_str())))
                .unwrap_or_default();
            out.push_str(&format!(
                "{verdict}  {:width$}  {}{code}\n",
                check.name, check.message
            ));
            if let Some(fix) = &check.fix {
                out.push_str(&format!(
                    "      {:width$}  {} {fix}\n",
                    "",
                    painter.dim("fix:")
                ));
            }
        }
        let failed = self.checks.iter().filter(|c| !c.ok).count();
        out.push_str(&match failed {
            0 => "All checks passed.\n".to_string(),
            1 => "1 check failed.\n".to_string(),
            n => format!("{n} checks failed.\n"),
        });
        out
    }

    fn to_json(&self) -> String {
        #[derive(Serialize)]
        struct Json<'a> {
            version: u32,
            ok: bool,
            checks: &'a [Check],
            /// The failed checks as findings, each with its code and its fix as the help.
            diagnostics: Vec<DiagnosticJson<'static>>,
        }
        let json = Json {
            version: 1,
            ok: self.ok(),
            checks: &self.checks,
            diagnostics: self
                .diagnostics()
                .into_iter()
                .map(DiagnosticJson::owned)
                .collect(),
        };
        crate::report::text::json_document(&json)
    }
}
