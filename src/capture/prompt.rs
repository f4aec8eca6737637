//! The prompt hook's vocabulary: the event each agent fires when the user submits a
//! prompt, the command `init` installs for it, and the note a correction is given
//! (`ops::prompt_hook` runs the hook; `render::prompt_hook` words its answer).
//!
//! The three agents take the same answer shape, `{"hookSpecificOutput": {"hookEventName",
//! "additionalContext"}}`, each with its own event name:
//! - Claude Code `UserPromptSubmit`, input `{"prompt", "cwd", "session_id", …}`:
//!   <https://code.claude.com/docs/en/hooks#userpromptsubmit>
//! - Codex `UserPromptSubmit`, the same input plus `turn_id` and `model`:
//!   <https://developers.openai.com/codex/hooks>, schemas in
//!   <https://github.com/openai/codex/tree/main/codex-rs/hooks/schema/generated>
//!   (`user-prompt-submit.command.input.schema.json`, `….output.schema.json`)
//! - Gemini CLI `BeforeAgent`, input `{"prompt", "session_id", "cwd", …}`:
//!   <https://github.com/google-gemini/gemini-cli/blob/main/docs/hooks/reference.md>

pub(crate) use super::injected::REMINDER;
pub(crate) use super::repeats::Heard;
use crate::export::hook::Agent;

/// The hook event each agent fires when the user submits a prompt; `None` for an agent
/// without one that can add context.
pub(crate) fn event(agent: Agent) -> Option<&'static str> {
    match agent {
        Agent::Claude | Agent::Codex => Some("UserPromptSubmit"),
        Agent::Gemini => Some("BeforeAgent"),
        // <https://docs.github.com/en/copilot/reference/copilot-cli-reference/cli-hooks-reference>,
        // input `{"sessionId", "cwd", "prompt", …}`.
        Agent::Copilot => Some("userPromptSubmitted"),
        // <https://qwenlm.github.io/qwen-code-docs/en/users/features/hooks>.
        Agent::Qwen => Some("UserPromptSubmit"),
        Agent::Cursor => None,
    }
}

/// The command the prompt hook runs.
pub(crate) fn command(agent: Agent) -> String {
    format!("autofix hook user-prompt --agent {}", agent.as_str())
}

/// A note the hook gives, as the notes kept in the repository ([`crate::ops::notes`])
/// number it: the id the agent answers it with, and the rules shown that the user has
/// had to restate before.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Note {
    pub id: String,
    pub restated: Vec<Restated>,
}

/// A rule shown in a note, restated `times` before.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Restated {
    /// How a command names it: `12`, or `org:12`.
    pub rule: String,
    /// How a person reads its name: `#12`, or `org:12`.
    pub shown: String,
    pub instruction: String,
    pub times: usize,
}

/// How many times the user has had to restate a rule before its next note asks for a
/// check.
pub(crate) const CHECK_AFTER: usize = 2;
