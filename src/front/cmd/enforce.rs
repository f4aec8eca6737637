//! `autofix enforce`: the rules' checks over what changed, in text, JSON, GitHub
//! annotations or SARIF.

use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;

use crate::front::cli::{DiagnosticsFormat, EnforceArgs};
use crate::front::context::{Context, status};
use crate::ops::enforce::{self, Changes};
use crate::render::Render as _;
use crate::report::diagnostics::{self, Counts};

pub(crate) fn enforce(context: &Context, args: EnforceArgs) -> anyhow::Result<ExitCode> {
    let workspace = context.workspace()?;
    let changes = match (args.staged, args.base) {
        (true, _) => Changes::Staged,
        (false, Some(base)) => Changes::Base(base),
        (false, None) if !args.paths.is_empty() => Changes::Files(args.paths),
        (false, None) => Changes::WorkTree,
    };
    let request = enforce::Request {
        changes,
        all_lines: args.all_lines,
    };
    let mut report = enforce::run(&workspace, &request)?;
    if let Some(error) = &report.unrecorded {
        crate::front::context::eprint(&format!(
            "autofix: the breaks caught were not recorded: {error}\n"
        ));
    }
    diagnostics::sort(&mut report.diagnostics);
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    match args.format {
        // Written as they are made: a run over a whole repository can find many breaks.
        DiagnosticsFormat::Text => report.write_text(&mut stdout, context.stdout_painter())?,
        DiagnosticsFormat::Json => report.write_json(&mut stdout)?,
        DiagnosticsFormat::Github => {
            stdout.write_all(diagnostics::github_of(&report.diagnostics).as_bytes())?;
        }
        DiagnosticsFormat::Sarif => crate::report::sarif::write(
            &mut stdout,
            &report.diagnostics,
            "autofix-enforce/",
            &workspace.repository_root(),
            Path::new(&workspace.shown),
        )?,
    }
    stdout.flush()?;
    Ok(status(Counts::of(&report.diagnostics).errors > 0))
}
