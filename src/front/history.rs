//! What both front ends answer alike about the rules' history: one rule whole (`rules N`)
//! and a retirement (`retire`, which `ops::retire` makes), each in text and JSON.

use anyhow::Context as _;
use serde::Serialize;

use crate::io::workspace::Workspace;
use crate::ops::learning::{self, Learned};
use crate::render::Render as _;
use crate::rules::append::StoredRule;
use crate::rules::provenance::History;
use crate::rules::reference::RuleRef;
use crate::rules::{self, learn, show};

/// Rule `rule` whole, its text and JSON forms: a local rule from the rules file and its
/// history, an imported one (`org:4`) from its source's verified copy.
pub(crate) fn shown_rule(
    workspace: &Workspace,
    rule: &RuleRef,
) -> anyhow::Result<(String, String)> {
    let number = match rule {
        RuleRef::Local(number) => *number,
        RuleRef::Imported { source, number } => {
            let layers = crate::sources::layers::for_workspace(workspace);
            return crate::sources::layers::shown(&layers, source, *number)
                .map_err(anyhow::Error::msg);
        }
    };
    let path = &workspace.shown;
    let document = rules::load(workspace.shown_path())?
        .with_context(|| format!("no rules file yet ({path}), so no rule {number}"))?;
    let history = History::read(&workspace.rules_file);
    let report = show::report(workspace, &document, &history, number)
        .with_context(|| format!("no rule {number} in {path}"))?;
    Ok((
        report.to_text(crate::report::paint::Painter::new(false)),
        report.to_json(),
    ))
}

/// The retirement's text and JSON, as the CLI and the MCP tool print them.
pub(crate) fn retired_output(learned: &Learned, rule: &RuleRef, why: &str) -> (String, String) {
    let number = match rule {
        RuleRef::Local(number) => format!("rule #{number}"),
        imported => imported.to_string(),
    };
    let record = &learned.outcome.rule;
    let path = learned.path.as_str();
    let dry_run = learned.outcome.status == learn::Status::DryRun;
    let mut text = if dry_run {
        format!(
            "Would retire {number} with record #{}: {} (dry run; {path} unchanged)\n",
            record.number,
            crate::report::text::shown(why.trim())
        )
    } else {
        format!(
            "Retired {number} with record #{}: {} — saved to {path}\n",
            record.number,
            crate::report::text::shown(why.trim())
        )
    };
    // Indented as `learn` indents it: a line under the acknowledgement.
    text.push_str(&crate::front::i18n::exports_refreshed(
        learned,
        crate::front::i18n::Lang::En,
    ));
    let json = crate::report::text::json_document(&RetireJson {
        version: 1,
        status: if dry_run { "dry_run" } else { "retired" },
        path,
        retired: match rule {
            RuleRef::Local(number) => serde_json::json!(number),
            imported => serde_json::json!(imported.to_string()),
        },
        reason: why.trim(),
        record,
        exports: &learned.exports,
        warnings: learned.warning_messages(),
        diagnostics: crate::report::diagnostics::json_of(&learned.warnings),
    });
    (text, json)
}

/// The record's text and JSON, as `distinct` prints them.
pub(crate) fn distinct_output(learned: &Learned, why: &str) -> (String, String) {
    let record = &learned.outcome.rule;
    let [a, b] = record.distinct.unwrap_or_default();
    let path = learned.path.as_str();
    let dry_run = learned.outcome.status == learn::Status::DryRun;
    let reason = why.trim();
    let why = crate::report::text::shown(reason);
    let text = if dry_run {
        format!(
            "Would record rules #{a} and #{b} as distinct with record #{}: {why} (dry run; {path} unchanged)\n",
            record.number
        )
    } else {
        format!(
            "Recorded rules #{a} and #{b} as distinct with record #{}: {why} — saved to {path}; `check` notes the pair no more\n",
            record.number
        )
    };
    let json = crate::report::text::json_document(&serde_json::json!({
        "version": 1,
        "status": if dry_run { "dry_run" } else { "recorded" },
        "path": path,
        "distinct": [a, b],
        "reason": reason,
        "record": record,
        "warnings": learned.warning_messages(),
        "diagnostics": crate::report::diagnostics::json_of(&learned.warnings),
    }));
    (text, json)
}

/// The `retire --format json` document.
#[derive(Serialize)]
struct RetireJson<'a> {
    pub version: u32,
    /// `retired`, or `dry_run`.
    pub status: &'static str,
    pub path: &'a str,
    /// The number of the rule retired, or `"org:5"` for an imported one.
    pub retired: serde_json::Value,
    pub reason: &'a str,
    /// The record appended.
    pub record: &'a StoredRule,
    pub exports: &'a [learning::Refreshed],
    /// The warnings' messages (kept from before `diagnostics`).
    pub warnings: Vec<&'a str>,
    /// The warnings with their codes.
    pub diagnostics: Vec<crate::report::diagnostics::DiagnosticJson<'a>>,
}
