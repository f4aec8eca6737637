//! `autofix hook user-prompt` and `autofix reflect`: the commands that catch corrections.
//! Each converts its arguments, calls the library, prints.

use std::process::ExitCode;

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
                    let agent = prompt_agent(args.agent);
                    if let Some(answer) = ops::prompt_hook::respond(agent, &input, &finder(context))
                    {
                        if let Some(why) = &answer.not_kept {
                            eprint(&format!("autofix: the note was not kept: {why}\n"));
                        }
                        let _ = print(&crate::render::prompt_hook::to_client(&answer));
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
        crate::ops::edit_hook::respond(agent, &input, &finder(context))
    })();
    match answer {
        Ok(output) => {
            if let Some(text) = crate::render::edit_hook::to_agent(&output) {
                let _ = print(&text);
            }
            if let Some(line) = crate::render::edit_hook::not_run(&output) {
                eprint(&line);
            }
        }
        Err(error) => eprint(&format!(
            "autofix: the edit was not checked: {}\n",
            crate::front::context::describe(&error)
        )),
    }
}

/// What finds the workspace of the project a hook ran in (from the hook input's `cwd`),
/// as every command finds its workspace.
fn finder(context: &Context) -> crate::io::workspace::Finder {
    crate::io::workspace::Finder {
        cwd: context
            .cwd()
            .map(std::path::Path::to_path_buf)
            .unwrap_or_default(),
        rules_file: crate::io::settings::get().rules_file.clone(),
        ceilings: crate::io::settings::get().ceilings.clone(),
    }
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
