//! The command-line front end: parse, dispatch to a subcommand, turn the outcome into an
//! exit status. Each subcommand converts its clap arguments into a library request, calls
//! the library, and writes the rendered result. Printing happens only in the front ends
//! (here, `mcp` and the `context` helpers both use).

pub(crate) mod adopt;
pub(crate) mod agents;
pub(crate) mod capture;
pub(crate) mod enforce;
pub(crate) mod ledger;
pub(crate) mod preset;
pub(crate) mod rules;
pub(crate) mod shell;
pub(crate) mod sources;
pub(crate) mod team;

use std::io::{self};
use std::process::ExitCode;

use clap::Parser;

use crate::front::cli::{Cli, Command};
use crate::front::context::{Context, describe, eprint};
use crate::front::mcp;

/// Whether the command line is one an agent's hook runs: the subcommand `hook` (the first
/// word that is neither an option nor the value of one of the options taken before the
/// subcommand), or `rules` with `--format hook`.
fn is_hook(args: &[String]) -> bool {
    let mut words = args.iter().skip(1);
    let subcommand = loop {
        match words.next().map(String::as_str) {
            // The options before the subcommand that take a value (see `cli::Cli`).
            Some("-C" | "--root" | "--file" | "--color") => {
                words.next();
            }
            Some(option) if option.starts_with('-') => {}
            other => break other,
        }
    };
    match subcommand {
        Some("hook") => true,
        Some("rules") => {
            let rest: Vec<&str> = words.map(String::as_str).collect();
            rest.windows(2).any(|pair| pair == ["--format", "hook"])
                || rest.contains(&"--format=hook")
        }
        _ => false,
    }
}

/// A hint after clap's own message where it says too little: `learn` given an instruction
/// of several unquoted words gets "unexpected argument 'use'", which the shell, not the
/// user, split.
fn usage_hint(error: &clap::Error) -> Option<String> {
    if error.kind() != clap::error::ErrorKind::UnknownArgument {
        return None;
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    let learn = args.iter().position(|a| a == "learn")?;
    // The words after `learn` that are no option nor an option's value.
    let mut words = Vec::new();
    let mut skip_value = false;
    for arg in &args[learn + 1..] {
        if std::mem::take(&mut skip_value) {
            continue;
        }
        if arg.starts_with('-') {
            skip_value = matches!(
                arg.as_str(),
                "-c" | "--category"
                    | "-w"
                    | "--why"
                    | "-s"
                    | "--supersedes"
                    | "--path"
                    | "--lang"
                    | "--format"
                    | "-C"
                    | "--root"
                    | "--file"
                    | "--note"
            );
            continue;
        }
        words.push(arg.as_str());
    }
    (words.len() > 1).then(|| {
        format!(
            "hint: the shell passed the instruction as {} words; quote it to pass one: \
             autofix learn … \"{}\"\n",
            words.len(),
            crate::report::text::shown(&words.join(" "))
        )
    })
}

/// clap's tip for an unknown `--json` ("to pass '--json' as a value, use '-- --json'") leads
/// nowhere: where the command takes `--format json`, the tip says that instead.
fn json_tip(error: &mut clap::Error) {
    use clap::error::{ContextKind, ContextValue};
    if error.kind() != clap::error::ErrorKind::UnknownArgument {
        return;
    }
    let Some(ContextValue::String(given)) = error.get(ContextKind::InvalidArg) else {
        return;
    };
    if given != "--json" && !given.starts_with("--json=") {
        return;
    }
    // The command the argument was given to: the deepest subcommand named on the line.
    let mut command = <Cli as clap::CommandFactory>::command();
    for word in std::env::args().skip(1) {
        match command.find_subcommand(&word) {
            Some(sub) => command = sub.clone(),
            None if !word.starts_with('-') => break,
            None => {}
        }
    }
    let takes_json = command.get_arguments().any(|arg| {
        arg.get_id() == "format"
            && arg
                .get_possible_values()
                .iter()
                .any(|value| value.get_name() == "json")
    });
    if takes_json {
        error.insert(
            ContextKind::Suggested,
            ContextValue::StyledStrs(vec!["for JSON output, use '--format json'".into()]),
        );
    }
}

/// Runs the command line of this process: what `main` does. This is the only place that
/// prints errors.
pub(crate) fn run() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error)
            if error.use_stderr()
                && error.kind()
                    != clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
                && is_hook(&std::env::args().collect::<Vec<_>>()) =>
        {
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
        Err(mut error) => {
            json_tip(&mut error);
            // clap prints help and version to stdout (exit 0) and usage errors to stderr.
            let _ = error.print();
            if let Some(hint) = usage_hint(&error) {
                eprint(&hint);
            }
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
        Command::Enforce(args) => enforce::enforce(&context, args),
        Command::Retire(args) => ledger::retire(&context, args),
        Command::Distinct(args) => ledger::distinct(&context, args),
        Command::Verdict(args) => ledger::verdict(&context, args),
        Command::Ledger(args) => ledger::ledger(&context, args),
        Command::Where(args) => rules::where_(&context, args),
        Command::Preset(command) => preset::run(&context, command),
        Command::Sources(args) => sources::run(&context, args),
        Command::Explain(args) => shell::explain(args),
        Command::Completions(args) => shell::completions(args),
        Command::Man(args) => shell::man(&context, args),
        Command::Mcp(_) => mcp::serve(&context),
        Command::Export(args) => agents::export(&context, args),
        Command::Import(args) => adopt::import(&context, args),
        Command::Init(args) => agents::init(&context, args),
        Command::MergeDriver(args) => team::merge_driver(&context, args),
        Command::Resolve(args) => team::resolve(&context, args),
        Command::Doctor(args) => team::doctor(&context, args),
        Command::Hook(args) => Ok(capture::hook(&context, args.command)),
        Command::Reflect(args) => capture::reflect(&context, args),
    };
    match outcome {
        Ok(code) => code,
        Err(error) if is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            let painter = context.stderr_painter();
            // An error may quote file data (a path, an id): each line is shown safely.
            let text = describe(&error);
            let lines: Vec<_> = text.split('\n').map(crate::report::text::shown).collect();
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
