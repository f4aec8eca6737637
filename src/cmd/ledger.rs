//! `autofix rules N` (one rule whole), `autofix retire` and `autofix ledger`: the rules'
//! history — who learned each, what replaced or retired it, and whether it held.

use std::process::ExitCode;

use anyhow::Context as _;

use crate::capture::reflect;
use crate::learning::{self, AfterLearning, Learned};
use crate::rules::provenance::History;
use crate::rules::{self, learn, retire, show};
use crate::workspace::Workspace;

use crate::cli::{LedgerArgs, RetireArgs, RulesFormat, TextOrJson};
use crate::cmd::{Context, eprint, print, shown};

/// Rule `number` of the workspace's rules file, whole: its text and JSON forms.
pub(crate) fn shown_rule(workspace: &Workspace, number: u64) -> anyhow::Result<(String, String)> {
    let path = shown(&workspace.rules_file);
    let source = rules::read(&workspace.rules_file)?
        .with_context(|| format!("no rules file yet ({path}), so no rule {number}"))?;
    let document = rules::parse_tolerant(&workspace.rules_file, &source)?;
    let history = History::read(&workspace.rules_file);
    let report = show::report(&path, &document, &history, number)
        .with_context(|| format!("no rule {number} in {path}"))?;
    Ok((report.to_text(), report.to_json()))
}

/// `rules N`: the rule whole, in text or JSON.
pub(crate) fn show(
    context: &Context,
    number: u64,
    format: RulesFormat,
) -> anyhow::Result<ExitCode> {
    if matches!(format, RulesFormat::Markdown | RulesFormat::Hook) {
        anyhow::bail!("`rules {number}` prints text or json");
    }
    let (text, json) = shown_rule(&context.workspace()?, number)?;
    print(if format == RulesFormat::Json {
        &json
    } else {
        &text
    })?;
    Ok(ExitCode::SUCCESS)
}

/// Retires rule `number` of the workspace's rules file for `why`: the record appended
/// through `learn`'s locked splice, then the exported copies refreshed.
pub(crate) fn retire_rule(
    workspace: &Workspace,
    number: u64,
    why: &str,
    dry_run: bool,
    after: AfterLearning,
) -> anyhow::Result<Learned> {
    let path = shown(&workspace.rules_file);
    let source = rules::read(&workspace.rules_file)?
        .with_context(|| format!("no rules file yet ({path}), so no rule {number}"))?;
    let document = rules::parse_tolerant(&workspace.rules_file, &source)?;
    let request = retire::request(&document, &path, number, why)?;
    let options = learn::Options {
        dry_run,
        lock_timeout: crate::lock::timeout_from_env().map_err(anyhow::Error::msg)?,
    };
    Ok(learning::learn(workspace, &request, &options, after)?)
}

/// The retirement's text and JSON, as the CLI and the MCP tool print them.
pub(crate) fn retired_output(
    learned: &Learned,
    path: &str,
    number: u64,
    why: &str,
) -> (String, String) {
    let record = &learned.outcome.rule;
    let dry_run = learned.outcome.status == learn::Status::DryRun;
    let mut text = if dry_run {
        format!(
            "Would retire rule #{number} with record #{}: {} (dry run; {path} unchanged)\n",
            record.number,
            crate::text::shown(why.trim())
        )
    } else {
        format!(
            "Retired rule #{number} with record #{}: {} — saved to {path}\n",
            record.number,
            crate::text::shown(why.trim())
        )
    };
    if !learned.exports.is_empty() {
        let paths: Vec<&str> = learned.exports.iter().map(|e| e.path.as_str()).collect();
        text.push_str(&format!(
            "exported copies refreshed: {}\n",
            paths.join(", ")
        ));
    }
    let json = crate::text::json_document(&retire::Json {
        version: 1,
        status: if dry_run { "dry_run" } else { "retired" },
        path,
        retired: number,
        reason: why.trim(),
        record,
        exports: &learned.exports,
        warnings: &learned.warnings,
    });
    (text, json)
}

pub(crate) fn retire(context: &Context, args: RetireArgs) -> anyhow::Result<ExitCode> {
    let workspace = context.workspace()?;
    let after = if args.no_export {
        AfterLearning::Skip
    } else {
        AfterLearning::Export
    };
    let learned = retire_rule(&workspace, args.number, &args.why, args.dry_run, after)?;
    let painter = context.stderr_painter();
    for warning in &learned.warnings {
        eprint(&format!("{} {warning}\n", painter.warning("warning:")));
    }
    let path = shown(&workspace.rules_file);
    let (text, json) = retired_output(&learned, &path, args.number, &args.why);
    match args.format {
        TextOrJson::Text if args.quiet => {}
        TextOrJson::Text => print(&text)?,
        TextOrJson::Json => print(&json)?,
    }
    Ok(ExitCode::SUCCESS)
}

pub(crate) fn ledger(context: &Context, args: LedgerArgs) -> anyhow::Result<ExitCode> {
    let (home, agents) = crate::cmd::capture::sessions(&args.sessions)?;
    let workspace = context.workspace()?;
    let source = rules::read(&workspace.rules_file)?;
    let document = source
        .as_deref()
        .map(|source| rules::parse_tolerant(&workspace.rules_file, source))
        .transpose()?;
    let history = History::read(&workspace.rules_file);
    // Every correction: none is dropped for being a rule already, that is the point.
    let reflected = reflect::run(&reflect::Request {
        home,
        root: workspace.root.clone(),
        agents,
        since: args.sessions.since.clone(),
        rules: Vec::new(),
    });
    // The imported rules, each dated by the history of its source's vendored copy here.
    let layers = crate::sources::layers::for_workspace(&workspace);
    let layout = crate::sources::Layout::of(&workspace);
    let copies: Vec<History> = layers
        .layers
        .iter()
        .map(|layer| History::read(&layout.copy(&layer.name)))
        .collect();
    let imported = (!layers.layers.is_empty()).then_some(crate::ledger::Imported {
        layers: &layers,
        copies: &copies,
    });
    let report = crate::ledger::build(
        shown(&workspace.rules_file),
        args.sessions.since,
        document.as_ref(),
        &history,
        imported,
        reflected,
    );
    print(&match args.format {
        TextOrJson::Text => report.to_text(),
        TextOrJson::Json => report.to_json(),
    })?;
    Ok(ExitCode::SUCCESS)
}
