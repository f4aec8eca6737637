//! The `autofix` binary: parse the command line, dispatch to a subcommand, turn the outcome
//! into an exit status. This is the only place that prints errors.

mod cli;
mod cmd;
mod mcp;

use std::io;
use std::process::ExitCode;

use clap::Parser;

use crate::cli::{Cli, Command};

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            // clap prints help and version to stdout (exit 0) and usage errors to stderr.
            let _ = error.print();
            return if error.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    let workspace = cli
        .workspace
        .overridden_by(cli.command.workspace().as_ref());
    let context = cmd::Context::new(&cli.global, workspace);
    let outcome = match cli.command {
        Command::Learn(args) => cmd::rules::learn(&context, args),
        Command::Rules(args) => cmd::rules::rules(&context, args),
        Command::Check(args) => cmd::rules::check(&context, args),
        Command::Where(args) => cmd::rules::where_(&context, args),
        Command::Preset(command) => cmd::preset::run(&context, command),
        Command::Explain(args) => cmd::shell::explain(args),
        Command::Completions(args) => cmd::shell::completions(args),
        Command::Man(args) => cmd::shell::man(args),
        Command::Mcp(_) => mcp::serve(&context),
        Command::Export(args) => cmd::agents::export(&context, args),
        Command::Init(args) => cmd::agents::init(&context, args),
        Command::MergeDriver(args) => cmd::team::merge_driver(&context, args),
        Command::Resolve(args) => cmd::team::resolve(&context, args),
        Command::Doctor(args) => cmd::team::doctor(&context, args),
        Command::Hook(command) => Ok(cmd::capture::hook(command)),
        Command::Reflect(args) => cmd::capture::reflect(&context, args),
    };
    match outcome {
        Ok(code) => code,
        Err(error) if is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            let painter = context.stderr_painter();
            // An error may quote file data (a path, an id): each line is shown safely.
            let text = cmd::describe(&error);
            let lines: Vec<_> = text.split('\n').map(autofix::text::shown).collect();
            eprintln!("{} {}", painter.error("error:"), lines.join("\n"));
            ExitCode::from(2)
        }
    }
}

/// A closed pipe (`autofix rules | head -1`) is not an error.
fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}
