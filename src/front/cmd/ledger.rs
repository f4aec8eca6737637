//! `autofix retire`, `autofix distinct` and `autofix ledger`: the rules' history — who
//! learned each, what replaced or retired it, which near rules both hold, and whether
//! they held.

use std::process::ExitCode;

use crate::ops;
use crate::ops::learning::AfterLearning;
use crate::render::Render as _;

use crate::front::cli::{DistinctArgs, LedgerArgs, RetireArgs, SaidArg, TextOrJson, VerdictArgs};
use crate::front::context::{Context, eprint, print};
use crate::front::history::{distinct_output, retired_output};

pub(crate) fn retire(context: &Context, args: RetireArgs) -> anyhow::Result<ExitCode> {
    let workspace = context.workspace()?;
    let after = AfterLearning::exporting(!args.no_export);
    let request = ops::retire::Request {
        rule: args.number,
        why: args.why,
        dry_run: args.dry_run,
        after,
    };
    let learned = ops::retire::retire(&workspace, &request)?;
    let painter = context.stderr_painter();
    eprint(&learned.warnings_text(painter));
    let (text, json) = retired_output(&learned, &request.rule, &request.why);
    match args.format {
        TextOrJson::Text if args.quiet => {}
        TextOrJson::Text => print(&text)?,
        TextOrJson::Json => print(&json)?,
    }
    Ok(ExitCode::SUCCESS)
}

pub(crate) fn distinct(context: &Context, args: DistinctArgs) -> anyhow::Result<ExitCode> {
    let workspace = context.workspace()?;
    let request = ops::distinct::Request {
        rules: [args.rules[0], args.rules[1]],
        why: args.why,
        dry_run: args.dry_run,
    };
    let learned = ops::distinct::record(&workspace, &request)?;
    eprint(&learned.warnings_text(context.stderr_painter()));
    let (text, json) = distinct_output(&learned, &request.why);
    match args.format {
        TextOrJson::Text if args.quiet => {}
        TextOrJson::Text => print(&text)?,
        TextOrJson::Json => print(&json)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// `autofix verdict`: records the agent's answer to a note of the prompt hook.
pub(crate) fn verdict(context: &Context, args: VerdictArgs) -> anyhow::Result<ExitCode> {
    let workspace = context.workspace()?;
    let said = match args.said {
        SaidArg::Restated => ops::notes::Said::Restated,
        SaidArg::Nothing => ops::notes::Said::Nothing,
    };
    let answer = ops::notes::Answer {
        note: &args.note,
        said,
        rule: args.rule.as_ref(),
        learned: None,
    };
    let verdict = ops::notes::answer(&workspace, &answer)?;
    match args.format {
        TextOrJson::Text if args.quiet => {}
        TextOrJson::Text => print(&verdict.to_text(context.stdout_painter()))?,
        TextOrJson::Json => print(&verdict.to_json())?,
    }
    Ok(ExitCode::SUCCESS)
}

pub(crate) fn ledger(context: &Context, args: LedgerArgs) -> anyhow::Result<ExitCode> {
    let request = ops::ledger::Request {
        sessions: crate::front::context::sessions(&args.sessions)?,
    };
    let ledger = ops::ledger::read(&context.workspace()?, request)?;
    let report = ledger.report();
    // `--html -` puts the page on standard output, in place of the report, as `-` names
    // standard output for every other file argument of a well-made CLI.
    if args.html.as_deref() == Some(std::path::Path::new("-")) {
        print(&crate::render::ledger::to_html(&report))?;
        return Ok(ExitCode::SUCCESS);
    }
    print(&match args.format {
        TextOrJson::Text => report.to_text(context.stdout_painter()),
        TextOrJson::Json => report.to_json(),
    })?;
    if let Some(path) = &args.html {
        write_page(context, path, &crate::render::ledger::to_html(&report))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes the `--html` page through the one write path, and says where on stderr.
fn write_page(context: &Context, path: &std::path::Path, page: &str) -> anyhow::Result<()> {
    use anyhow::Context as _;
    let fence = crate::io::safe_write::Fence::user_directory();
    let fence = match context.cwd() {
        Ok(cwd) => fence.naming_below(&[cwd]),
        Err(_) => fence,
    };
    let shown = context.shown(path);
    if let Some(warning) = crate::io::safe_write::replace(&fence, path, page.as_bytes())
        .with_context(|| format!("cannot write {shown}"))?
    {
        eprint(&format!("warning: {warning}\n"));
    }
    eprint(&format!("Ledger page written to {shown}\n"));
    Ok(())
}
