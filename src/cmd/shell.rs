//! `autofix explain`, `completions` and `man`: help for people at a terminal.

use std::process::ExitCode;

use autofix::diagnostics::Code;
use autofix::explain;
use clap::CommandFactory;

use crate::cli::{Cli, CompletionsArgs, ExplainArgs};
use crate::cmd::print;

pub(crate) fn explain(args: ExplainArgs) -> anyhow::Result<ExitCode> {
    let Some(name) = args.code.filter(|_| !args.list) else {
        print(&explain::list())?;
        return Ok(ExitCode::SUCCESS);
    };
    let wanted = name.trim().trim_start_matches('[').trim_end_matches(']');
    match Code::from_name(wanted) {
        Some(code) => {
            print(&explain::text(code))?;
            Ok(ExitCode::SUCCESS)
        }
        None => {
            let closest = explain::closest(wanted);
            let hint = if closest.is_empty() {
                String::new()
            } else {
                let names: Vec<String> = closest.iter().map(|c| format!("`{c}`")).collect();
                format!("; did you mean {}?", names.join(" or "))
            };
            anyhow::bail!("unknown code `{wanted}`{hint} (`autofix explain --list` shows them all)")
        }
    }
}

pub(crate) fn completions(args: CompletionsArgs) -> anyhow::Result<ExitCode> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "autofix", &mut script);
    print(&String::from_utf8_lossy(&script))?;
    Ok(ExitCode::SUCCESS)
}

pub(crate) fn man() -> anyhow::Result<ExitCode> {
    let mut page = Vec::new();
    clap_mangen::Man::new(Cli::command()).render(&mut page)?;
    print(&String::from_utf8_lossy(&page))?;
    Ok(ExitCode::SUCCESS)
}
