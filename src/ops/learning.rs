//! Learning end to end, the one call the CLI and the MCP server share: append the rule,
//! then bring every copy exported before up to date, so no agent reads a stale list and
//! `export --check` stays green after every correction.

use serde::Serialize;

use crate::export::{self, Mode, Status, Targets};
use crate::io::workspace::Workspace;
use crate::report::diagnostics::{Code, Diagnostic};
use crate::rules::RulesError;
use crate::rules::learn::{self};

/// Whether to refresh the exported copies after learning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AfterLearning {
    /// Refresh every target exported before (the default).
    Export,
    /// `--no-export`: leave the copies as they are.
    Skip,
}

/// A rule learned (or found known), and the copies brought up to date.
#[derive(Debug)]
pub(crate) struct Learned {
    /// The rules file as messages name it (the workspace's display path).
    pub path: String,
    pub outcome: learn::Outcome,
    /// The exported files this run changed.
    pub exports: Vec<Refreshed>,
    /// The rule's warnings, then any export problem: an export that fails never undoes
    /// or hides the learned rule.
    pub warnings: Vec<Diagnostic>,
}

/// One exported file brought up to date.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Refreshed {
    pub target: &'static str,
    /// Relative to the workspace root.
    pub path: String,
    /// `created`, `updated` or `removed`.
    pub status: &'static str,
}

/// Learns `request` into the workspace's rules file, then (unless told not to) refreshes
/// the exports. Errors are the rule's own: once the rule is saved, export problems are
/// warnings.
pub(crate) fn learn(
    workspace: &Workspace,
    request: &learn::Request,
    options: &learn::Options,
    after: AfterLearning,
) -> Result<Learned, RulesError> {
    let outcome = learn::learn(workspace.shown_path(), request, options)?;
    let mut learned = Learned {
        path: workspace.shown.clone(),
        warnings: outcome.warnings.clone(),
        outcome,
        exports: Vec::new(),
    };
    if after == AfterLearning::Export && learned.outcome.status == learn::Status::Learned {
        refresh_exports(workspace, &mut learned);
    }
    if learned.outcome.status == learn::Status::Learned
        && let Some(found) = crate::export::handwritten::worth_comparing(&workspace.root, &[])
    {
        let rule = &learned.outcome.rule;
        let twice = crate::export::handwritten::stated_by_hand(
            &workspace.root,
            &found,
            &workspace.shown,
            &[(rule.number, &rule.instruction, &rule.paths)],
            &|file| crate::ops::service::from_cwd(workspace, file),
        );
        learned.warnings.extend(twice);
    }
    Ok(learned)
}

fn refresh_exports(workspace: &Workspace, learned: &mut Learned) {
    let (exports, warnings) = refresh(workspace, "the rule is saved, but");
    learned.exports = exports;
    learned.warnings.extend(warnings);
}

/// Brings every copy exported before up to date with the rules file and the imported
/// rules (after `learn`, `retire`, or a `sources` command that moved a pin): the files it
/// changed, and a warning for each it could not (`saved` says what is done regardless).
pub(crate) fn refresh(workspace: &Workspace, saved: &str) -> (Vec<Refreshed>, Vec<Diagnostic>) {
    let (mut exports, mut warnings) = (Vec::new(), Vec::new());
    // Most repositories export nothing: then the rules file need not be read again.
    if !export::targets::any_exported(&workspace.root) {
        return (exports, warnings);
    }
    let request = export::Request {
        root: workspace.root.clone(),
        rules_file: workspace.rules_file.clone(),
        targets: Targets::Exported,
        mode: Mode::Write,
        remove: false,
        // A copy exported with `--truncate` stays truncated; any other copy over its
        // budget is a warning, not rules dropped without anyone asking.
        truncate: export::Truncate::AsBefore,
        diff: false,
    };
    let report = match export::run(&request) {
        Ok(report) => report,
        Err(error) => {
            warnings.push(Diagnostic::new(
                Code::ExportNotRefreshed,
                format!(
                    "{saved} the exported copies could not be refreshed: {error}; run \
                     `autofix export`"
                ),
            ));
            return (exports, warnings);
        }
    };
    for outcome in &report.outcomes {
        let status = match outcome.status {
            Status::Created => "created",
            Status::Updated => "updated",
            Status::Removed => "removed",
            Status::Refused | Status::Failed => {
                let why = outcome.message.as_deref().unwrap_or("it was refused");
                let message = format!(
                    "{saved} {} was not refreshed: {why}; fix it, then run `autofix export`",
                    outcome.path
                );
                warnings.push(Diagnostic::new(Code::ExportNotRefreshed, message));
                continue;
            }
            Status::Unchanged | Status::Skipped => continue,
        };
        exports.push(Refreshed {
            target: outcome.id,
            path: outcome.path.clone(),
            status,
        });
    }
    (exports, warnings)
}

impl Learned {
    /// The warnings' messages alone, as the JSON documents' `warnings` list them.
    pub(crate) fn warning_messages(&self) -> Vec<&str> {
        self.warnings.iter().map(|w| w.message.as_str()).collect()
    }

    /// The active rules the new one repeats (`similar-rules`) or contradicts
    /// (`conflicting-rules`): why `learn` refused it, or what `--force` kept beside it.
    pub(crate) fn match_diagnostics(&self) -> Vec<Diagnostic> {
        self.outcome
            .matches
            .iter()
            .map(|found| {
                let (code, verb) = match found.kind {
                    crate::rules::similar::Kind::Duplicate => (Code::SimilarRules, "repeats"),
                    crate::rules::similar::Kind::Contradiction => {
                        (Code::ConflictingRules, "contradicts")
                    }
                };
                let message = format!(
                    "the new rule {verb} rule {} \"{}\"",
                    found.rule, found.instruction
                );
                Diagnostic::new(code, message).in_file(&self.path)
            })
            .collect()
    }
}
