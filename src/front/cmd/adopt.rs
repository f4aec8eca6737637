//! `autofix import`: adopt the rules a team already wrote by hand. Converts the
//! arguments, runs [`crate::ops::import`], prints its report.

use std::process::ExitCode;

use crate::front::cli::{ImportArgs, TextOrJson};
use crate::front::context::{Context, eprint, print};
use crate::ops::import;
use crate::render::Render as _;

pub(crate) fn import(context: &Context, args: ImportArgs) -> anyhow::Result<ExitCode> {
    let workspace = context.workspace()?;
    // A FILE is named from the current directory, as the shell completes it; the library
    // takes paths below the workspace root.
    let only = (args.files.iter())
        .map(|given| {
            let path = workspace.cwd.join(given);
            let root = std::fs::canonicalize(&workspace.root).unwrap_or(workspace.root.clone());
            let real = path.parent().and_then(|p| std::fs::canonicalize(p).ok());
            match (real, path.file_name()) {
                (Some(dir), Some(name)) => dir
                    .join(name)
                    .strip_prefix(&root)
                    .map_or_else(|_| given.clone(), |p| p.display().to_string()),
                _ => given.clone(),
            }
        })
        .collect();
    let request = import::Request {
        only,
        write: args.write && !args.dry_run,
        move_lines: args.move_lines,
        lock_timeout: crate::io::lock::timeout()?,
    };
    let report = import::run(&workspace, &request)?;
    eprint(&crate::report::diagnostics::text_of(
        &report.warnings,
        context.stderr_painter(),
    ));
    print(&match args.format {
        TextOrJson::Text if args.verbose => report.to_verbose_text(),
        TextOrJson::Text => report.to_text(context.stdout_painter()),
        TextOrJson::Json => report.to_json(),
    })?;
    Ok(ExitCode::from(report.exit_code()))
}
