//! `learn`'s JSON document (also the MCP tool's structured result) and its warnings as
//! text. The acknowledgement itself is written per language by the front end
//! (`front/i18n.rs`), so `Learned` is not a `Render`.

use crate::ops::learning::{Learned, Refreshed};
use crate::report::diagnostics::{self, DiagnosticJson};
use crate::rules::append::StoredRule;
use crate::rules::learn::SupersedeReference;
use crate::rules::similar::Match;
use serde::Serialize;

impl Learned {
    /// The warnings in the shared text form (`warning[code]: ...`), for stderr or MCP.
    pub(crate) fn warnings_text(&self, painter: crate::report::paint::Painter) -> String {
        diagnostics::text_of(&self.warnings, painter)
    }

    /// The `learn --format json` document.
    pub(crate) fn to_json(&self) -> String {
        crate::report::text::json_document(&self.json())
    }

    /// The same document as a value (the MCP tool's structured result).
    pub(crate) fn to_value(&self) -> serde_json::Value {
        serde_json::to_value(self.json()).expect("an outcome always serialises")
    }

    fn json(&self) -> LearnedJson<'_> {
        LearnedJson {
            version: 1,
            status: self.outcome.status.as_str(),
            path: &self.path,
            rule: &self.outcome.rule,
            supersedes: &self.outcome.supersedes,
            matches: &self.outcome.matches,
            near: &self.near,
            exports: &self.exports,
            warnings: self.warning_messages(),
            diagnostics: self
                .match_diagnostics()
                .into_iter()
                .map(|found| -> DiagnosticJson<'_> { DiagnosticJson::owned(found) })
                .chain(diagnostics::json_of(&self.warnings))
                .collect(),
            proposed_check: self
                .outcome
                .rule
                .check
                .is_none()
                .then(|| crate::rules::pattern::propose(&self.outcome.rule.instruction))
                .flatten(),
        }
    }
}

/// The `learn --format json` document.
#[derive(Serialize)]
struct LearnedJson<'a> {
    version: u32,
    status: &'static str,
    path: &'a str,
    rule: &'a StoredRule,
    supersedes: &'a [SupersedeReference],
    matches: &'a [Match],
    /// The active rules the sentence model finds near the new one, best first.
    near: &'a [crate::ops::learning::NearRule],
    exports: &'a [Refreshed],
    /// The warnings' messages (kept from before `diagnostics`).
    warnings: Vec<&'a str>,
    /// The rules the new one repeats or contradicts, then the warnings, with their codes.
    diagnostics: Vec<DiagnosticJson<'a>>,
    /// The check the rule's shape suggests when it has none (shown, never added).
    #[serde(skip_serializing_if = "Option::is_none")]
    proposed_check: Option<crate::rules::pattern::Check>,
}
