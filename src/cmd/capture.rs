//! `autofix hook user-prompt` and `autofix reflect`: the commands that catch corrections.
//! Each converts its arguments, calls the library, prints.

use std::io::Read;
use std::process::ExitCode;

use autofix::capture::prompt;
use autofix::hook::Agent;

use crate::cli::{HookCommand, PromptAgent};
use crate::cmd::print;

fn agent(agent: PromptAgent) -> Agent {
    match agent {
        PromptAgent::Claude => Agent::Claude,
        PromptAgent::Codex => Agent::Codex,
        PromptAgent::Gemini => Agent::Gemini,
    }
}

/// A hook never blocks the prompt: whatever happens, exit 0; unreadable input is no
/// correction.
pub(crate) fn hook(command: HookCommand) -> ExitCode {
    match command {
        HookCommand::UserPrompt(args) => {
            let mut input = Vec::new();
            if std::io::stdin().lock().read_to_end(&mut input).is_ok()
                && let Some(output) = prompt::respond(agent(args.agent), &input)
            {
                let _ = print(&output);
            }
            ExitCode::SUCCESS
        }
    }
}
