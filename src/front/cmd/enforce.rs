//! `autofix enforce`: the rules' checks over what changed, in text, JSON, GitHub
//! annotations or SARIF.

use std::path::Path;
use std::process::ExitCode;

use crate::front::cli::{DiagnosticsFormat, EnforceArgs};
use crate::front::context::{Context, print, status};
use crate::ops::enforce::{self, Changes, Report};
use crate::report::diagnostics::{self, Counts};
use crate::report::text::json_document;

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
    print(&match args.format {
        DiagnosticsFormat::Text => {
            let mut text = diagnostics::text_of(&report.diagnostics, context.stdout_painter());
            text.push_str(&summary(&report));
            text
        }
        DiagnosticsFormat::Json => json(&report),
        DiagnosticsFormat::Github => diagnostics::github_of(&report.diagnostics),
        DiagnosticsFormat::Sarif => crate::report::sarif::render(
            &report.diagnostics,
            "autofix-enforce/",
            &workspace.repository_root(),
            Path::new(&workspace.shown),
        ),
    })?;
    Ok(status(Counts::of(&report.diagnostics).errors > 0))
}

fn summary(report: &Report) -> String {
    use crate::report::text::{counted, plural_s};
    if report.checks == 0 {
        return "No active rule has a check: nothing to enforce (add one with `autofix learn --check REGEX`).\n"
            .to_string();
    }
    format!(
        "Checked {} against {} rule{} with a check: {}.\n",
        counted(report.files, "file"),
        report.checks,
        plural_s(report.checks),
        counted(report.diagnostics.len(), "violation"),
    )
}

fn json(report: &Report) -> String {
    json_document(&serde_json::json!({
        "version": 1,
        "checks": report.checks,
        "files": report.files,
        "diagnostics": diagnostics::json_of(&report.diagnostics),
    }))
}
