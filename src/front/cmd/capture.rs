//! `autofix hook user-prompt` and `autofix reflect`: the commands that catch corrections.
//! Each converts its arguments, calls the library, prints.

use std::process::ExitCode;

use crate::capture::prompt;
use crate::capture::repeats::ActiveRule;
use crate::ops;
use crate::render::Render as _;

use crate::front::cli::{HookCommand, ReflectArgs, TextOrJson};
use crate::front::context::{Context, eprint, print, prompt_agent, sessions};

/// The most bytes of hook input read: a prompt longer than this is pasted data, not a
/// correction, and classifying it must end well within the 10 s `init` gives the hook.
const PROMPT_CAP: u64 = 1024 * 1024;

/// A hook never blocks the prompt: whatever happens, exit 0; unreadable or oversized
/// input is no correction (said in one line on stderr).
pub(crate) fn hook(context: &Context, command: Option<HookCommand>) -> ExitCode {
    let Some(command) = command else {
        eprint(
            "autofix: hook not run: no event named (user-prompt or post-tool); \
             `autofix hook --help` lists them\n",
        );
        return ExitCode::SUCCESS;
    };
    match command {
        HookCommand::UserPrompt(args) => {
            match crate::io::limits::read_capped(std::io::stdin().lock(), PROMPT_CAP) {
                Ok(input) => {
                    let rules = |cwd: Option<&str>| hook_rules(context, cwd);
                    let agent = prompt_agent(args.agent);
                    if let Some(output) = prompt::respond(agent, &input, rules, give_note) {
                        let _ = print(&output);
                    }
                }
                Err(error) if error.kind() == std::io::ErrorKind::InvalidData => {
                    eprint("autofix: prompt not classified: the hook's input is over 1 MiB\n");
                }
                Err(error) => eprint(&format!("autofix: prompt not classified: {error}\n")),
            }
            ExitCode::SUCCESS
        }
        HookCommand::PostTool(args) => {
            post_tool(context, args.agent);
            ExitCode::SUCCESS
        }
    }
}

/// `hook post-tool`: the checks on the file just written, the reminder on a failure; one
/// line on stderr when it cannot run, never a failure (a hook must not stop the agent).
fn post_tool(context: &Context, agent: crate::front::cli::EditAgent) {
    use crate::front::cli::EditAgent;
    use crate::ops::tool_call::ToolAgent;
    let agent = match agent {
        EditAgent::Claude => ToolAgent::Claude,
        EditAgent::Codex => ToolAgent::Codex,
        EditAgent::Gemini => ToolAgent::Gemini,
    };
    let answer = (|| -> anyhow::Result<crate::ops::edit_hook::Output> {
        let cap = crate::io::limits::max_file_bytes()?;
        let input = crate::io::limits::read_capped(std::io::stdin().lock(), cap)?;
        crate::ops::edit_hook::respond(agent, &input, |cwd| hook_workspace(context, cwd))
    })();
    match answer {
        Ok(output) => {
            if let Some(text) = output.answer {
                let _ = print(&text);
            }
            if let Some(line) = output.not_run {
                eprint(&line);
            }
        }
        Err(error) => eprint(&format!(
            "autofix: the edit was not checked: {}\n",
            crate::front::context::describe(&error)
        )),
    }
}

/// Records what the prompt hook heard in the repository's notes, and gives a correction's
/// note its id; a note that cannot be kept goes without one (said on stderr: the hook
/// never fails the prompt).
fn give_note(heard: &prompt::Heard, typed: &prompt::Typed<'_>) -> Option<prompt::Note> {
    let asked = ops::notes::Asked {
        root: typed.root,
        agent: typed.agent.as_str(),
        session: typed.session,
        prompt: typed.prompt,
    };
    let kept = match heard {
        prompt::Heard::Restates(rule) => {
            ops::notes::heard_word_for_word(&asked, rule).map(|()| None)
        }
        prompt::Heard::Correction(near) => ops::notes::give(&asked, near),
    };
    kept.unwrap_or_else(|error| {
        eprint(&format!("autofix: the note was not kept: {error:#}\n"));
        None
    })
}

/// The active rules of the project a prompt was typed in, found from the hook input's
/// `cwd` (else the current directory) as every command finds its workspace; none when
/// there is no readable rules file: the reminder is then the plain one. With them, the
/// project's root (git's directory there keeps the rules' vectors).
fn hook_rules(context: &Context, cwd: Option<&str>) -> (Vec<ActiveRule>, std::path::PathBuf) {
    let workspace = hook_workspace(context, cwd);
    let rules = ops::reflect::active_rules(&workspace).unwrap_or_default();
    (rules, workspace.root)
}

/// The workspace of the project a hook ran in: found from the hook input's `cwd` (else
/// the current directory) as every command finds its workspace.
fn hook_workspace(context: &Context, cwd: Option<&str>) -> crate::io::workspace::Workspace {
    let from = match cwd.map(std::path::Path::new) {
        Some(cwd) if cwd.is_absolute() && cwd.is_dir() => cwd.to_path_buf(),
        _ => context
            .cwd()
            .map(std::path::Path::to_path_buf)
            .unwrap_or_default(),
    };
    let found = crate::io::workspace::Workspace::discover_from(
        &crate::io::workspace::Options::default(),
        &from,
        crate::io::settings::get().rules_file.clone(),
        crate::io::settings::get().ceilings.clone(),
    );
    // Shown (and so read) from this process's directory, not the prompt's.
    crate::io::workspace::Workspace::new(
        found.root,
        found.rules_file,
        found.source,
        found.candidates,
        context.cwd().unwrap_or(std::path::Path::new("")),
    )
}

pub(crate) fn reflect(context: &Context, args: ReflectArgs) -> anyhow::Result<ExitCode> {
    let sessions = sessions(&args.sessions)?;
    let report = ops::reflect::reflect(&context.workspace()?, sessions)?;
    print(&match args.format {
        TextOrJson::Text => report.to_text(context.stdout_painter()),
        TextOrJson::Json => report.to_json(),
    })?;
    Ok(ExitCode::SUCCESS)
}
