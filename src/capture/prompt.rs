//! `autofix hook user-prompt`: reads the agent's prompt-submit hook input (JSON on stdin)
//! and, when the prompt is a correction or a convention, answers with one line of context
//! asking the agent to record it with `autofix learn`. Otherwise it answers nothing.
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

use super::classify;
use crate::hook::Agent;
use crate::rules::Category;

/// The hook event each agent fires when the user submits a prompt; `None` for an agent
/// without one that can add context.
pub(crate) fn event(agent: Agent) -> Option<&'static str> {
    match agent {
        Agent::Claude | Agent::Codex => Some("UserPromptSubmit"),
        Agent::Gemini => Some("BeforeAgent"),
        Agent::Cursor => None,
    }
}

/// The command the prompt hook runs.
pub(crate) fn command(agent: Agent) -> String {
    format!("autofix hook user-prompt --agent {}", agent.as_str())
}

/// The context line added to a prompt that looks like a correction.
fn reminder() -> String {
    let categories = Category::ALL.map(Category::as_str).join(", ");
    format!(
        "autofix: this prompt looks like a correction or a project convention. Before \
         continuing, record it as one imperative rule: autofix learn -c CATEGORY -w \"WHY\" \
         \"Always/Never ...\" (CATEGORY: {categories}; add --supersedes N when it replaces \
         rule N). If it is not a lasting rule, ignore this note."
    )
}

/// The hook's answer to `input` (the bytes on stdin): the JSON object with a final
/// newline, or `None` (print nothing) when the prompt is not a correction, the input is
/// not the hook's JSON, or the agent has no prompt hook.
pub(crate) fn respond(agent: Agent, input: &[u8]) -> Option<String> {
    let event = event(agent)?;
    // An object, not a struct: serde would also accept `["…"]` for a one-field struct.
    let input: serde_json::Map<String, serde_json::Value> = serde_json::from_slice(input).ok()?;
    if !classify::is_correction(input.get("prompt")?.as_str()?) {
        return None;
    }
    Some(crate::hook::additional_context(event, &reminder()))
}
