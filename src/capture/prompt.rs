//! `autofix hook user-prompt`: reads the agent's prompt-submit hook input (JSON on stdin)
//! and, when the prompt is a correction or a convention, answers with one line of context
//! asking the agent to record it with `autofix learn`, or to follow the rule it repeats.
//! Otherwise it answers nothing.
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

use super::injected::REMINDER;
use super::repeats::{self, ActiveRule, Known, Recall};
use crate::export::hook::Agent;
use crate::rules::Category;
use crate::rules::similar::Kind;

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

/// The context line added to a prompt the hook hears ([`repeats::hear`]): a reminder to
/// learn it, or, when it repeats an active rule, to follow that rule; when it contradicts
/// one, to learn it as that rule's replacement if it is one; when it comes near one, to
/// tell which.
fn reminder(recalled: &Recall) -> String {
    let categories = Category::ALL.map(Category::as_str).join(", ");
    let learn = format!(
        "autofix learn -c CATEGORY -w \"WHY\" \"Always/Never ...\" (CATEGORY: {categories}"
    );
    // The rule is in the agent's context already: the reminder names it by its number and
    // what it asks, without its reason, so the rule's text reaches the model once.
    let directive = |instruction: &str| {
        [" - ", " — ", " – "]
            .iter()
            .filter_map(|separator| instruction.find(separator))
            .min()
            .map_or(instruction, |end| &instruction[..end])
            .to_string()
    };
    match recalled {
        Recall::Known(
            known @ Known {
                kind: Kind::Duplicate,
                instruction,
                ..
            },
        ) => format!(
            "{REMINDER}the user repeats a recorded rule: rule {} already says this \
             (\"{}\"): follow it. Do not learn it again.",
            known.shown(),
            directive(instruction)
        ),
        Recall::Known(
            known @ Known {
                kind: Kind::Contradiction,
                instruction,
                ..
            },
        ) => format!(
            "{REMINDER}this prompt looks like a correction that goes against rule {} \
             (\"{}\"). If it replaces that rule, record it before continuing: \
             {learn}) --supersedes {} \"...\". If it is not a lasting rule, ignore this note.",
            known.shown(),
            directive(instruction),
            known.id()
        ),
        // The matcher cannot tell this one from another rule of its topic; the agent can.
        Recall::Near(near) => format!(
            "{REMINDER}this prompt looks like a correction or a project convention, and it \
             may say again, in other words, what rule {} says (\"{}\"): if it does, follow \
             that rule and do not learn it again; if it replaces that rule, record it before \
             continuing: {learn}) --supersedes {} \"...\". Otherwise record it as one \
             imperative rule: {learn}). If it is not a lasting rule, ignore this note.",
            near.shown(),
            directive(&near.instruction),
            near.id()
        ),
        Recall::New => format!(
            "{REMINDER}this prompt looks like a correction or a project convention. Before \
             continuing, record it as one imperative rule: {learn}; add --supersedes N when \
             it replaces rule N). If it is not a lasting rule, ignore this note."
        ),
    }
}

/// The hook's answer to `input` (the bytes on stdin): the JSON object with a final
/// newline, or `None` (print nothing) when the prompt is neither a correction nor a repeat
/// of a rule, the input is not the hook's JSON, or the agent has no prompt hook. `rules`
/// gives the active rules of the project the prompt was typed in (from the input's `cwd`
/// when it has one).
pub(crate) fn respond(
    agent: Agent,
    input: &[u8],
    rules: impl FnOnce(Option<&str>) -> Vec<ActiveRule>,
) -> Option<String> {
    let event = event(agent)?;
    // An object, not a struct: serde would also accept `["…"]` for a one-field struct.
    let input: serde_json::Map<String, serde_json::Value> = serde_json::from_slice(input).ok()?;
    let prompt = input.get("prompt")?.as_str()?;
    let cwd = input.get("cwd").and_then(|c| c.as_str());
    let recalled = repeats::hear(prompt, || rules(cwd))?;
    Some(crate::export::hook::context_for(
        agent,
        event,
        &reminder(&recalled),
    ))
}
