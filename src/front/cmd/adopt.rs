//! `autofix import`: adopt the rules a team already wrote by hand. Converts the
//! arguments, runs [`crate::ops::import`], prints its report.

use std::process::ExitCode;

use crate::front::cli::{ImportArgs, TextOrJson};
use crate::front::context::{Context, eprint, print};
use crate::ops::import;

pub(crate) fn import(context: &Context, args: ImportArgs) -> anyhow::Result<ExitCode> {
    let workspace = context.workspace()?;
    let request = import::Request {
        only: args.files,
        write: args.write && !args.dry_run,
        move_lines: args.move_lines,
        lock_timeout: crate::io::lock::timeout_from_env().map_err(anyhow::Error::msg)?,
    };
    let report = import::run(&workspace, &request)?;
    eprint(&crate::report::diagnostics::text_of(
        &report.warnings,
        context.stderr_painter(),
    ));
    print(&match args.format {
        TextOrJson::Text => report.to_text(args.verbose),
        TextOrJson::Json => report.to_json(),
    })?;
    Ok(ExitCode::from(report.exit_code()))
}
