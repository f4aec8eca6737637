//! `autofix preset list|validate|render|requirements`: turn the clap arguments into library
//! calls, print the rendered result, and choose the exit status (0 ok, 1 problems found;
//! an `Err` is exit 2).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::ops::service;
use crate::preset::requirements::{self, Environment, Status};
use crate::preset::{Preset, collection, render};
use crate::render::preset as report;
use crate::render::{Annotate as _, Render as _};
use crate::report::diagnostics::{self, Code, Diagnostic};

use crate::front::cli::{
    DiagnosticsFormat, PresetCommand, PresetListArgs, PresetRenderArgs, PresetRequirementsArgs,
    PresetValidateArgs, TextOrJson,
};
use crate::front::context::{Context, eprint, print, status};

pub(crate) fn run(context: &Context, command: PresetCommand) -> anyhow::Result<ExitCode> {
    match command {
        PresetCommand::List(args) => list(context, args),
        PresetCommand::Validate(args) => validate(context, args),
        PresetCommand::Render(args) => render(context, args),
        PresetCommand::Requirements(args) => requirements(context, args),
    }
}

/// Loads the presets the paths name (or the default collections).
pub(crate) fn load_presets(context: &Context, paths: &[PathBuf]) -> anyhow::Result<Vec<Preset>> {
    let workspace = context.workspace()?;
    let found = service::load_presets(&workspace, paths)?;
    if found.none_in_defaults {
        let note = Diagnostic::new(
            Code::NoPresetsFound,
            format!(
                "no presets found in `{}` or `{}` under `{}`",
                collection::DEFAULT_DIRS[0],
                collection::DEFAULT_DIRS[1],
                workspace.root.display()
            ),
        );
        eprint(&diagnostics::text_of(&[note], context.stderr_painter()));
    }
    Ok(found.presets)
}

pub(crate) fn load_one(context: &Context, path: &Path) -> anyhow::Result<Preset> {
    Ok(service::load_one(&context.workspace()?, path)?)
}

fn list(context: &Context, args: PresetListArgs) -> anyhow::Result<ExitCode> {
    let presets = load_presets(context, &args.paths)?;
    let text = match args.format {
        TextOrJson::Text => report::Listed(&presets).to_text(context.stdout_painter()),
        TextOrJson::Json => report::Listed(&presets).to_json(),
    };
    print(&text)?;
    Ok(ExitCode::SUCCESS)
}

fn validate(context: &Context, args: PresetValidateArgs) -> anyhow::Result<ExitCode> {
    let presets = load_presets(context, &args.paths)?;
    let validated = report::Validated {
        presets: &presets,
        deny_warnings: args.deny_warnings,
    };
    let text = match args.format {
        DiagnosticsFormat::Text => validated.to_text(context.stdout_painter()),
        DiagnosticsFormat::Json => validated.to_json(),
        DiagnosticsFormat::Github => validated.to_github(),
        DiagnosticsFormat::Sarif => {
            let diagnostics: Vec<_> = presets
                .iter()
                .flat_map(|p| p.diagnostics.iter().cloned())
                .collect();
            crate::report::sarif::render(
                &diagnostics,
                "autofix-presets/",
                &context.workspace()?.repository_root(),
                Path::new("presets"),
            )
        }
    };
    print(&text)?;
    Ok(status(
        !report::Totals::of(&presets).pass(args.deny_warnings),
    ))
}

/// Puts a preset's diagnostics on stderr; says so when they disable it.
fn report_diagnostics(context: &Context, preset: &Preset, consequence: &str) {
    let painter = context.stderr_painter();
    let mut text = report::diagnostics_text(&preset.diagnostics, painter);
    if !preset.enabled() {
        text.push_str(&format!(
            "{} preset `{}` is disabled by the errors above; {consequence}\n",
            painter.error("error:"),
            crate::report::text::shown(&preset.id)
        ));
    }
    eprint(&text);
}

fn render(context: &Context, args: PresetRenderArgs) -> anyhow::Result<ExitCode> {
    let preset = load_one(context, &args.preset)?;
    report_diagnostics(context, &preset, "nothing rendered");
    if !preset.enabled() {
        return Ok(status(true));
    }
    let request = render::Request {
        commands: args.commands,
        values: args.values.into_iter().collect::<BTreeMap<_, _>>(),
        strict: args.strict,
    };
    let rendered = render::render(&preset, &request)?;
    let unused: Vec<Diagnostic> = render::unused_values(&preset, &request)
        .into_iter()
        .map(|(name, near)| {
            let near: Vec<&str> = near.iter().map(String::as_str).collect();
            let message = format!(
                "--set {name}: no rendered command has the placeholder {{{name}}}, so the value is unused{}",
                crate::report::text::did_you_mean(&near)
            );
            Diagnostic::new(Code::UnusedValue, message)
        })
        .collect();
    eprint(&diagnostics::text_of(&unused, context.stderr_painter()));
    let missing = render::missing_values(&rendered);
    let commands = report::Commands {
        preset: &preset,
        rendered: &rendered,
        nul: args.null,
    };
    let text = match args.format {
        TextOrJson::Text => {
            let notes = render_notes(&rendered, &missing);
            eprint(&diagnostics::text_of(&notes, context.stderr_painter()));
            commands.to_text(context.stdout_painter())
        }
        TextOrJson::Json => commands.to_json(),
    };
    print(&text)?;
    Ok(ExitCode::SUCCESS)
}

/// `render`'s notes: the commands left out for want of a line (`command-without-line`),
/// and the placeholders without a value (`missing-value`).
fn render_notes(
    rendered: &[render::Rendered],
    missing: &[(String, Vec<String>)],
) -> Vec<Diagnostic> {
    let mut notes = Vec::new();
    let silent: Vec<String> = rendered
        .iter()
        .filter(|r| r.line.is_none())
        .map(|r| format!("`{}`", r.id))
        .collect();
    if !silent.is_empty() {
        let (count, they) = match silent.len() {
            1 => ("1 command has".to_string(), "it has"),
            n => (format!("{n} commands have"), "they have"),
        };
        let message = format!(
            "{count} no line, left out: {they} neither a skill nor a prelude ({})",
            silent.join(", ")
        );
        notes.push(Diagnostic::new(Code::CommandWithoutLine, message));
    }
    if !missing.is_empty() {
        let message = format!(
            "no value for {}, left as written; give each with --set NAME=VALUE (--strict \
             makes this an error)",
            render::describe_missing(missing)
        );
        notes.push(Diagnostic::new(Code::MissingValue, message));
    }
    notes
}

fn requirements(context: &Context, args: PresetRequirementsArgs) -> anyhow::Result<ExitCode> {
    let preset = match &args.preset {
        Some(path) => load_one(context, path)?,
        None => only_preset(context)?,
    };
    let workspace = context.workspace()?;
    // Skills installed in the workspace are shown relative to it when it is here.
    let root = if workspace.root == workspace.cwd {
        PathBuf::new()
    } else {
        workspace.root
    };
    let home = home_dir();
    let environment = Environment::new(
        &root,
        home.as_deref(),
        &args.skills_dirs,
        crate::io::settings::get().path.clone(),
    );
    let summaries = requirements::summarize(&preset, &environment);
    let requirements = report::Requirements {
        preset: &preset,
        summaries: &summaries,
    };
    let text = match args.format {
        TextOrJson::Text => requirements.to_text(context.stdout_painter()),
        TextOrJson::Json => requirements.to_json(),
    };
    print(&text)?;
    report_diagnostics(context, &preset, "fix them before running it");
    let missing = summaries
        .iter()
        .any(|s| matches!(s.status, Status::Missing { .. }));
    Ok(status(missing || !preset.enabled()))
}

/// The workspace's one preset (in `.agents/presets` or `presets`), for a command given
/// none; several or none is an error that names them or the folders.
fn only_preset(context: &Context) -> anyhow::Result<Preset> {
    let workspace = context.workspace()?;
    let mut found = service::load_presets(&workspace, &[])?.presets;
    match found.len() {
        1 => Ok(found.remove(0)),
        0 => anyhow::bail!(
            "no preset in `{}` or `{}`: name one, e.g. `autofix preset requirements path/to/preset`",
            collection::DEFAULT_DIRS[0],
            collection::DEFAULT_DIRS[1]
        ),
        _ => {
            let names: Vec<String> = found
                .iter()
                .map(|p| format!("`{}`", crate::report::text::shown(&p.id)))
                .collect();
            anyhow::bail!(
                "{} presets here ({}): name the one to check",
                found.len(),
                names.join(", ")
            )
        }
    }
}

fn home_dir() -> Option<PathBuf> {
    crate::io::settings::get().home.clone()
}
