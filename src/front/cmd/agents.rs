//! `autofix export` and `autofix init`: the commands that get the rules to every agent. Each converts its arguments, calls the library, prints.

use std::env;
use std::process::ExitCode;

use crate::export::{self, Mode};
use crate::init;
use crate::io::workspace::{self, Workspace};
use crate::render::{Annotate as _, Render as _};
use anyhow::Context as _;

use crate::front::cli::{CommandAgentArg, ExportArgs, ExportFormat, InitArgs, TextOrJson};
use crate::front::context::{Context, eprint, hook_agent, print};

fn mode(check: bool, dry_run: bool) -> Mode {
    if check {
        Mode::Check
    } else if dry_run {
        Mode::DryRun
    } else {
        Mode::Write
    }
}

fn command_agent(agent: CommandAgentArg) -> init::command::CommandAgent {
    use init::command::CommandAgent;
    match agent {
        CommandAgentArg::Claude => CommandAgent::Claude,
        CommandAgentArg::Copilot => CommandAgent::Copilot,
        CommandAgentArg::Cursor => CommandAgent::Cursor,
        CommandAgentArg::Gemini => CommandAgent::Gemini,
        CommandAgentArg::OpenCode => CommandAgent::OpenCode,
    }
}

pub(crate) fn export(context: &Context, args: ExportArgs) -> anyhow::Result<ExitCode> {
    if args.list_targets {
        print(&match args.format {
            ExportFormat::Json => export::targets::list_json(),
            _ => export::targets::list_text(),
        })?;
        return Ok(ExitCode::SUCCESS);
    }
    let workspace = context.workspace()?;
    let repository = workspace.repository_root();
    let request = export::Request {
        // By its display path, so an error reading it names it as the listings do.
        rules_file: workspace.shown_path().to_path_buf(),
        root: workspace.root,
        targets: if args.targets.is_empty() {
            export::Targets::Defaults
        } else {
            export::Targets::Named(args.targets)
        },
        mode: mode(args.check, args.dry_run),
        remove: args.remove,
        truncate: if args.truncate {
            export::Truncate::Always
        } else {
            export::Truncate::Never
        },
        diff: args.diff,
    };
    let report = export::run(&request)?;
    let text = match args.format {
        ExportFormat::Text => {
            eprint(&report.warnings_text(context.stderr_painter()));
            report.to_text(context.stdout_painter())
        }
        ExportFormat::Json => report.to_json(),
        ExportFormat::Github => report.to_github(),
        ExportFormat::Sarif => {
            // The findings' files are relative to the workspace root.
            let findings: Vec<_> = report
                .diagnostics()
                .into_iter()
                .map(|mut finding| {
                    finding.file = finding.file.map(|file| request.root.join(file).into());
                    finding
                })
                .collect();
            crate::report::sarif::render(
                &findings,
                "autofix-export/",
                &repository,
                &request.rules_file,
            )
        }
    };
    let quiet = args.quiet && args.format == ExportFormat::Text && report.exit_code() == 0;
    if !quiet {
        print(&text)?;
    }
    Ok(ExitCode::from(report.exit_code()))
}

pub(crate) fn init(context: &Context, args: InitArgs) -> anyhow::Result<ExitCode> {
    let cwd = context.cwd()?.to_path_buf();
    let root = match &context.options.root {
        Some(root) => cwd.join(root),
        None => {
            let ceilings: Vec<_> = (crate::io::settings::get().ceilings.clone())
                .map(|v| env::split_paths(&v).filter(|p| p.is_absolute()).collect())
                .unwrap_or_default();
            crate::io::workspace::walk_to_top(&cwd, &ceilings).context(
                "not inside a git repository: run `autofix init` in your repository, or name \
                 its root with -C DIR",
            )?
        }
    };
    let options = workspace::Options {
        root: Some(root),
        file: context.options.file.clone(),
    };
    let workspace = Workspace::discover_from(
        &options,
        &cwd,
        crate::io::settings::get().rules_file.clone(),
        crate::io::settings::get().ceilings.clone(),
    );
    workspace.check_places(&options)?;
    if args.uninstall_pre_commit {
        let (outcome, path) = init::precommit::uninstall(&workspace.root)?;
        print(&format!(
            "pre-commit hook: {} {}\n",
            outcome.describe(),
            workspace.show(&path)
        ))?;
        return Ok(ExitCode::SUCCESS);
    }
    let request = init::Request {
        root: workspace.root.clone(),
        rules_file: workspace.shown_path().to_path_buf(),
        hooks: args.hooks.into_iter().map(hook_agent).collect(),
        local: args.local,
        commands: args.commands.into_iter().map(command_agent).collect(),
        export: args.export,
        mode: mode(args.check, args.dry_run),
    };
    let report = init::run(&request)?;
    let text = match args.format {
        TextOrJson::Text => {
            // Relative to where the user is (`../..` from a subdirectory), never absolute.
            let canonical_cwd = std::fs::canonicalize(&cwd).unwrap_or_else(|_| cwd.clone());
            let root = match export::relative(&workspace.root, &cwd, &canonical_cwd) {
                root if root.is_empty() => ".".to_string(),
                root => root,
            };
            let report = init::Shown {
                report: &report,
                verbose: args.verbose,
            };
            format!(
                "Setting up autofix in {root}\n{}",
                report.to_text(context.stdout_painter())
            )
        }
        TextOrJson::Json => report.to_json(),
    };
    let quiet = args.quiet && args.format == TextOrJson::Text && report.exit_code() == 0;
    if !quiet {
        print(&text)?;
    }
    if args.pre_commit && !args.dry_run && !args.check {
        let (outcome, path) = init::precommit::install(&workspace.root)?;
        let line = format!(
            "pre-commit hook: {} {} (runs `autofix enforce --staged`)\n",
            outcome.describe(),
            workspace.show(&path)
        );
        match args.format {
            TextOrJson::Text if quiet => {}
            TextOrJson::Text => print(&line)?,
            // The JSON document stays alone on stdout.
            TextOrJson::Json => crate::front::context::eprint(&line),
        }
    }
    Ok(ExitCode::from(report.exit_code()))
}
