//! Learning end to end, the one call the CLI and the MCP server share: append the rule,
//! then bring every copy exported before up to date, so no agent reads a stale list and
//! `export --check` stays green after every correction.

use serde::{Deserialize, Serialize};

use crate::export::{self, Mode, Status, Targets};
use crate::io::workspace::Workspace;
use crate::report::diagnostics::{Code, Diagnostic};
use crate::rules::RulesError;
use crate::rules::learn;
use crate::rules::reference::RuleRef;
use crate::sources::layers::{self, NotLearned};

/// Whether to refresh the exported copies after learning.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum AfterLearning {
    /// Refresh every target exported before (the default).
    #[default]
    Export,
    /// `--no-export`: leave the copies as they are.
    Skip,
}

impl AfterLearning {
    /// `Export` when `export` is asked (MCP's `export`, the CLI's missing `--no-export`).
    pub(crate) fn exporting(export: bool) -> AfterLearning {
        if export {
            AfterLearning::Export
        } else {
            AfterLearning::Skip
        }
    }
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
    /// The active rules the sentence model finds near the new one, past those it repeats
    /// or reverses in the same words, best first: shown so that whoever learns it can
    /// supersede one it replaces (only `learn` and its MCP tool ask; `import` does not).
    pub near: Vec<NearRule>,
}

/// An active rule near a new one.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct NearRule {
    pub rule: u64,
    pub instruction: String,
    /// The sentence model's cosine of the two directives, rounded.
    pub score: f64,
}

/// The most near rules `learn` lists.
const NEAR_SHOWN: usize = 3;

/// How long `learn` lets the model read rules its cache does not hold: past it, the rules
/// not read are left out of the listing (a later call reads on).
const NEAR_READING: std::time::Duration = std::time::Duration::from_millis(800);

/// One exported file brought up to date.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Refreshed {
    pub target: &'static str,
    /// Relative to the workspace root.
    pub path: String,
    /// `created`, `updated` or `removed`.
    pub status: &'static str,
}

/// What to learn, as a front end hands it over: the CLI's flags, the MCP tool's
/// arguments and `learn --json`'s object each build this one request (`--json` reads it:
/// a key it does not name is refused, not dropped; dropped, `path` for `Paths` would save
/// the rule unscoped). A rule it supersedes is a number or an imported rule, `org:12`,
/// in every form.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Request {
    #[serde(rename = "Category", alias = "category")]
    pub category: String,
    #[serde(rename = "Instruction", alias = "instruction")]
    pub instruction: String,
    #[serde(rename = "Why", alias = "why")]
    pub why: String,
    #[serde(rename = "Supersedes", alias = "supersedes", default)]
    pub supersedes: Vec<RuleRef>,
    /// Learn it even when it repeats or contradicts an active rule (keep both).
    #[serde(rename = "Force", alias = "force", default)]
    pub force: bool,
    /// The globs the rule is scoped to; empty: it applies everywhere.
    #[serde(rename = "Paths", alias = "paths", default)]
    pub paths: Vec<String>,
    /// The rule's check: `{"Forbid": "REGEX"}` or `{"Require": …}`.
    #[serde(rename = "Check", alias = "check", default)]
    pub check: Option<crate::rules::pattern::Check>,
    /// Show the rule that would be learned; write nothing.
    #[serde(skip)]
    pub dry_run: bool,
    #[serde(skip)]
    pub after: AfterLearning,
}

/// Which rules file learns it.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Destination<'a> {
    /// The workspace's, over its imported rules.
    Project(&'a Workspace),
    /// The personal rules file (`learn --user`), a workspace of its own: nothing is
    /// exported from it, and it supersedes only personal rules.
    Personal(&'a Workspace),
}

/// A rule learned (or refused, or known) by the learn code, or not learned over the
/// imported rules.
#[derive(Debug)]
pub(crate) enum Answer {
    Learned(Box<Learned>),
    NotLearned(NotLearned),
}

/// `learn`: `request` into the rules file `into`. Its imported rules superseded get their
/// `(supersedes org:12)` marker in the reason (`option` names the field in an error), and
/// a rule an imported one already holds, or one it reverses, is not learned. A local
/// rule's own refusals are the learn code's (`Answer::Learned`, status `refused`).
pub(crate) fn learn_rule(
    into: Destination<'_>,
    request: Request,
    option: &str,
) -> anyhow::Result<Answer> {
    // Once learned a rule stays in the file for good: a statement is refused at once, as
    // `check` would report it (`not-imperative`), unless the person insists. What learning
    // it would say (the rules it repeats, those near it) is still said.
    let instruction = request.instruction.trim();
    let statement = !request.force
        && !instruction.is_empty()
        && !crate::rules::check::is_imperative(instruction);
    let (mut local, mut imported) = (Vec::new(), Vec::new());
    for rule in request.supersedes {
        match rule {
            RuleRef::Local(number) => local.push(number),
            RuleRef::Imported { source, number } => imported.push((source, number)),
        }
    }
    let (workspace, after) = match into {
        Destination::Personal(_) if !imported.is_empty() => {
            anyhow::bail!("--user: a personal rule supersedes only personal rules (--supersedes N)")
        }
        Destination::Personal(workspace) => (workspace, AfterLearning::Skip),
        Destination::Project(workspace) => (workspace, request.after),
    };
    let mut why = request.why;
    if !imported.is_empty() {
        match layers::mark_superseded(workspace, &why, &imported, option)? {
            Ok(marked) => why = marked,
            Err(refusal) => return Ok(Answer::NotLearned(NotLearned::Refused(refusal))),
        }
    }
    let rule = learn::Request {
        category: request.category,
        instruction: request.instruction,
        why,
        supersedes: local,
        force: request.force,
        paths: request.paths,
        check: request.check,
        ..learn::Request::default()
    };
    if let Destination::Project(workspace) = into
        && let Some(refusal) = layers::imported_refusal(workspace, &rule)
    {
        return Ok(Answer::NotLearned(refusal));
    }
    let options = learn::Options {
        dry_run: request.dry_run || statement,
        lock_timeout: crate::io::lock::timeout()?,
    };
    let mut learned = learn(workspace, &rule, &options, after)?;
    if statement && learned.outcome.status == learn::Status::DryRun {
        learned.outcome.status = learn::Status::Refused;
    }
    learned.near = near_rules(workspace, &learned.outcome);
    Ok(Answer::Learned(Box::new(learned)))
}

/// The active rules of the new rule's scope that the sentence model finds within
/// [`crate::meaning::NEAR_RULES`] of it (at most [`NEAR_SHOWN`]), past the rule itself,
/// those it repeats or reverses in the same words, and those it supersedes; none past
/// [`crate::meaning::MAX_COMPARED`] rules.
fn near_rules(workspace: &Workspace, outcome: &learn::Outcome) -> Vec<NearRule> {
    if outcome.status == learn::Status::Duplicate {
        return Vec::new();
    }
    let Ok(Some(document)) = crate::rules::load(workspace.shown_path()) else {
        return Vec::new();
    };
    let rule = &outcome.rule;
    let mut scope: Vec<&str> = rule.paths.iter().map(String::as_str).collect();
    scope.sort_unstable();
    let resolution = crate::rules::supersede::resolve(&document);
    let left_out = |number: u64| {
        number == rule.number
            || outcome.matches.iter().any(|m| m.rule == number)
            || outcome.supersedes.iter().any(|s| s.rule == number)
    };
    let candidates: Vec<(u64, &str)> = document
        .rules()
        .filter(|r| resolution.is_active(r.index))
        .filter(|r| {
            let mut globs: Vec<&str> = r.paths().globs().iter().map(AsRef::as_ref).collect();
            globs.sort_unstable();
            globs == scope
        })
        .filter_map(|r| Some((r.number().value()?, r.instruction().as_str()?)))
        .filter(|(number, _)| !left_out(*number))
        .collect();
    // Past the bound the model is not asked: a file that large is bulk work.
    if candidates.len() > crate::meaning::MAX_COMPARED {
        return Vec::new();
    }
    let texts: Vec<&str> = candidates.iter().map(|(_, text)| *text).collect();
    let mut cache = crate::meaning::Cache::of_work_tree(&workspace.root);
    let near =
        crate::meaning::near_rules(&rule.instruction, &texts, &mut cache, Some(NEAR_READING));
    cache.save();
    (near.unwrap_or_default().into_iter())
        .take(NEAR_SHOWN)
        .map(|near| NearRule {
            rule: candidates[near.at].0,
            instruction: candidates[near.at].1.to_string(),
            score: (f64::from(near.score) * 100.0).round() / 100.0,
        })
        .collect()
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
        near: Vec::new(),
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
    /// Refused as a statement, not an instruction (no active rule matched).
    pub(crate) fn refused_as_statement(&self) -> bool {
        self.outcome.status == learn::Status::Refused && self.outcome.matches.is_empty()
    }

    /// The warnings' messages alone, as the JSON documents' `warnings` list them.
    pub(crate) fn warning_messages(&self) -> Vec<&str> {
        self.warnings.iter().map(|w| &*w.message).collect()
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
            .chain(self.refused_as_statement().then(|| {
                let message = format!(
                    "\"{}\" does not read as an imperative",
                    self.outcome.rule.instruction
                );
                Diagnostic::new(Code::NotImperative, message).in_file(&self.path)
            }))
            .collect()
    }
}
