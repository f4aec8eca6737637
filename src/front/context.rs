//! What both front ends share: the global options as a [`Context`], printing, and how
//! paths and errors are shown to a person.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::export::hook;
use crate::front::cli::{Color, GlobalArgs, HookAgent, PromptAgent, SessionsArgs, WorkspaceArgs};
use crate::io::workspace::{self, Workspace};
use crate::report::paint::{ColorChoice, Painter};

/// What every subcommand needs from the global and workspace options, and the settings
/// of the process resolved once at start: the current directory.
pub(crate) struct Context {
    pub(crate) options: workspace::Options,
    pub(crate) color: ColorChoice,
    /// The current directory, read once; kept as its error when it cannot be read (a
    /// deleted folder), which only the commands that need it report.
    cwd: Result<PathBuf, String>,
}

impl Context {
    pub(crate) fn new(global: &GlobalArgs, workspace: WorkspaceArgs) -> Self {
        crate::front::settings::settle();
        Context {
            cwd: std::env::current_dir().map_err(|error| error.to_string()),
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
        Ok(Workspace::discover(&self.options, self.cwd()?)?)
    }

    /// The personal rules file as a workspace of its own, for `learn --user`: nothing is
    /// exported from it.
    pub(crate) fn personal_workspace(&self) -> anyhow::Result<Workspace> {
        let Some(path) = crate::sources::layers::personal_path() else {
            anyhow::bail!("--user: neither XDG_CONFIG_HOME nor HOME is set");
        };
        let root = path.parent().map(Path::to_path_buf).unwrap_or_default();
        Ok(Workspace::new(
            root,
            path,
            workspace::Source::FileFlag,
            Vec::new(),
            self.cwd()?,
        ))
    }

    /// The current directory, as the process started in it.
    pub(crate) fn cwd(&self) -> anyhow::Result<&Path> {
        self.cwd
            .as_deref()
            .map_err(|error| anyhow::anyhow!("cannot determine the current directory: {error}"))
    }

    /// How a path is shown: relative to the current directory when it lies below it,
    /// else as is. Deterministic for a given working directory, never a surprise absolute
    /// path in a listing made from the workspace.
    pub(crate) fn shown(&self, path: &Path) -> String {
        match &self.cwd {
            Ok(cwd) => workspace::display_path(path, cwd),
            Err(_) => path.display().to_string(),
        }
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

/// An error and its causes on one line, like anyhow's `{:#}`. The library's errors carry
/// their cause in their own message and expose no separate source, so nothing repeats;
/// they name files by the paths they were given, the rules file and what lies beside it
/// by its display path (see [`Workspace::shown_path`]).
pub(crate) fn describe(error: &anyhow::Error) -> String {
    error
        .chain()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(": ")
}

/// Exit status 1 when problems were found, else 0.
pub(crate) fn status(problems: bool) -> ExitCode {
    if problems {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// The agent `--agent` or `--hook` names.
pub(crate) fn hook_agent(agent: HookAgent) -> hook::Agent {
    match agent {
        HookAgent::Claude => hook::Agent::Claude,
        HookAgent::Codex => hook::Agent::Codex,
        HookAgent::Cursor => hook::Agent::Cursor,
        HookAgent::Gemini => hook::Agent::Gemini,
        HookAgent::Copilot => hook::Agent::Copilot,
        HookAgent::Qwen => hook::Agent::Qwen,
    }
}

/// The agent a prompt hook or `--agent` of `reflect` names.
pub(crate) fn prompt_agent(agent: PromptAgent) -> hook::Agent {
    match agent {
        PromptAgent::Claude => hook::Agent::Claude,
        PromptAgent::Codex => hook::Agent::Codex,
        PromptAgent::Gemini => hook::Agent::Gemini,
        PromptAgent::Copilot => hook::Agent::Copilot,
        PromptAgent::Qwen => hook::Agent::Qwen,
    }
}

/// The sessions `reflect` and `ledger` read: where the agents keep their transcripts
/// (`HOME`), and the agents named (all three when none is), each once.
pub(crate) fn sessions(sessions: &SessionsArgs) -> anyhow::Result<crate::ops::reflect::Sessions> {
    use anyhow::Context as _;
    let home = (crate::io::settings::get().home.clone())
        .context("HOME is not set: it locates the agents' transcripts")?;
    let mut agents: Vec<hook::Agent> = Vec::new();
    for named in sessions.agents.iter().copied().map(prompt_agent) {
        if !agents.contains(&named) {
            agents.push(named);
        }
    }
    if agents.is_empty() {
        agents = vec![hook::Agent::Claude, hook::Agent::Codex, hook::Agent::Gemini];
    }
    Ok(crate::ops::reflect::Sessions {
        home,
        agents,
        since: sessions.since.clone(),
    })
}
