//! The command-line front end: parse, dispatch to a subcommand, turn the outcome into an
//! exit status. Each subcommand converts its clap arguments into a library request, calls
//! the library, and writes the rendered result. Printing happens here and in `mcp`, nowhere
//! else.

pub(crate) mod agents;
pub(crate) mod capture;
pub(crate) mod preset;
pub(crate) mod rules;
pub(crate) mod shell;
pub(crate) mod sources;
pub(crate) mod team;

use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

use clap::Parser;

use crate::paint::{ColorChoice, Painter};
use crate::workspace::{self, Workspace};

use crate::cli::{Cli, Color, Command, GlobalArgs, WorkspaceArgs};
use crate::mcp;

/// Whether the command line is one an agent's hook runs: `autofix hook …`, or `autofix
/// rules --format hook`. Only for a command line clap refused, so a plain `hook` word
/// anywhere is enough: with a newer version's subcommand or flag, nothing else parses.
fn is_hook(args: impl Iterator<Item = std::ffi::OsString>) -> bool {
    args.skip(1)
        .any(|arg| arg == "hook" || arg == "--format=hook")
}

/// Runs the command line of this process: what `main` does. This is the only place that
/// prints errors.
pub(crate) fn run() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) if error.use_stderr() && is_hook(std::env::args_os()) => {
            // An agent runs hooks on every session and prompt, and Claude Code reads exit 2
            // as "block the prompt": a hook from another autofix version, or a misspelled
            // one, must cost one line on stderr and nothing else.
            let first = error.to_string();
            let first = first
                .lines()
                .next()
                .unwrap_or("")
                .trim_start_matches("error: ");
            eprint(&format!("autofix: hook not run: {first}\n"));
            return ExitCode::SUCCESS;
        }
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
    let context = Context::new(&cli.global, workspace);
    let outcome = match cli.command {
        Command::Learn(args) => rules::learn(&context, args),
        Command::Rules(args) => rules::rules(&context, args),
        Command::Check(args) => rules::check(&context, args),
        Command::Where(args) => rules::where_(&context, args),
        Command::Preset(command) => preset::run(&context, command),
        Command::Sources(args) => sources::run(&context, args),
        Command::Explain(args) => shell::explain(args),
        Command::Completions(args) => shell::completions(args),
        Command::Man(args) => shell::man(args),
        Command::Mcp(_) => mcp::serve(&context),
        Command::Export(args) => agents::export(&context, args),
        Command::Init(args) => agents::init(&context, args),
        Command::MergeDriver(args) => team::merge_driver(&context, args),
        Command::Resolve(args) => team::resolve(&context, args),
        Command::Doctor(args) => team::doctor(&context, args),
        Command::Hook(command) => Ok(capture::hook(command)),
        Command::Reflect(args) => capture::reflect(&context, args),
    };
    match outcome {
        Ok(code) => code,
        Err(error) if is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            let painter = context.stderr_painter();
            // An error may quote file data (a path, an id): each line is shown safely.
            let text = describe(&error);
            let lines: Vec<_> = text.split('\n').map(crate::text::shown).collect();
            eprint(&format!(
                "{} {}\n",
                painter.error("error:"),
                lines.join("\n")
            ));
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

/// What every subcommand needs from the global and workspace options.
pub(crate) struct Context {
    pub(crate) options: workspace::Options,
    pub(crate) color: ColorChoice,
}

impl Context {
    pub(crate) fn new(global: &GlobalArgs, workspace: WorkspaceArgs) -> Self {
        Context {
            options: workspace::Options {
                root: workspace.root,
                file: workspace.file,
            },
            color: match global.color {
                Color::Auto => ColorChoice::Auto,
                Color::Always => ColorChoice::Always,
                Color::Never => ColorChoice::Never,
            },
        }
    }

    pub(crate) fn workspace(&self) -> anyhow::Result<Workspace> {
        Ok(Workspace::discover(&self.options)?)
    }

    pub(crate) fn stdout_painter(&self) -> Painter {
        Painter::for_stream(self.color, &io::stdout())
    }

    pub(crate) fn stderr_painter(&self) -> Painter {
        Painter::for_stream(self.color, &io::stderr())
    }
}

/// Writes a result to stdout in one go; a closed pipe surfaces as `BrokenPipe`, which
/// `run` treats as success.
pub(crate) fn print(text: &str) -> io::Result<()> {
    let mut stdout = io::stdout().lock();
    stdout.write_all(text.as_bytes())?;
    stdout.flush()
}

/// Writes warnings and diagnostics to stderr; a closed stderr is ignored.
pub(crate) fn eprint(text: &str) {
    let _ = io::stderr().lock().write_all(text.as_bytes());
}

/// How a path is shown: relative to the current directory when it lies below it, else as
/// is. Deterministic for a given working directory, never a surprise absolute path in a
/// listing made from the workspace.
pub(crate) fn shown(path: &Path) -> String {
    let cwd = std::env::current_dir().unwrap_or_default();
    workspace::display_path(path, &cwd)
}

/// An error and its causes on one line, like anyhow's `{:#}`. The library's errors carry
/// their cause in their own message and expose no separate source, so nothing repeats.
pub(crate) fn describe(error: &anyhow::Error) -> String {
    let text = error
        .chain()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(": ");
    match std::env::current_dir() {
        // The library names files by their absolute paths; a person reads them relative to
        // where they are, as every listing shows them.
        Ok(cwd) => workspace::strip_roots(&text, &[&cwd]),
        Err(_) => text,
    }
}

/// Exit status 1 when problems were found, else 0.
pub(crate) fn status(problems: bool) -> ExitCode {
    if problems {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
