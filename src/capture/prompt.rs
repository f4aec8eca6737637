//! `autofix hook user-prompt`: reads the agent's prompt-submit hook input (JSON on stdin)
//! and, when the prompt is a correction or a convention, answers with one line of context
//! that shows the recorded rules nearest it and asks the agent to judge (follow one, learn
//! a change with `--supersedes`, or learn a new rule), or, for a rule said word for word,
//! to follow it. Otherwise it answers nothing.
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
use super::repeats::{self, ActiveRule, Heard, Nearby};
use crate::export::hook::Agent;
use crate::rules::Category;

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

/// The context line added to a prompt the hook hears ([`repeats::hear`]): for a rule said
/// word for word, to follow it; for a correction, the rules nearest it for the agent to
/// judge (said again: follow it; changed: learn the change with `--supersedes`; new:
/// learn it), or, with none near, to learn it.
fn reminder(heard: &Heard) -> String {
    let categories = Category::ALL.map(Category::as_str).join(", ");
    let learn = "autofix learn -c CATEGORY -w \"WHY\" \"Always/Never ...\"";
    let choose = format!("(CATEGORY: {categories}; WHY: the reason the user gave)");
    // The rule is in the agent's context already: the note names it by its number and
    // what it asks, without its reason, so the rule's text reaches the model once more at
    // most.
    let quoted = |rule: &Nearby| {
        format!(
            "rule {} (\"{}\")",
            rule.shown(),
            crate::meaning::directive(&rule.instruction)
        )
    };
    match heard {
        Heard::Restates(rule) => format!(
            "{REMINDER}the user says {} again, word for word: follow it. Do not learn it again.",
            quoted(rule)
        ),
        Heard::Correction(near) if near.is_empty() => format!(
            "{REMINDER}this prompt looks like a correction or a project convention. Before \
             continuing, record it as one imperative rule: `{learn}` {choose}; add \
             `--supersedes N` when it replaces rule N. If it is not a lasting rule, ignore \
             this note."
        ),
        Heard::Correction(near) => {
            let shown: Vec<String> = near.iter().map(quoted).collect();
            let example = near[0].id();
            format!(
                "{REMINDER}this prompt looks like a correction or a project convention. The \
                 recorded rules nearest it: {}. Judge it against them before continuing: if \
                 it says one of them again, follow that rule and learn nothing; if it \
                 changes one, record the change: `{learn} --supersedes N` (N: that rule's \
                 number, e.g. {example}); if it says something new, record it: `{learn}` \
                 {choose}. If it is not a lasting rule, ignore this note.",
                shown.join("; ")
            )
        }
    }
}

/// The hook's answer to `input` (the bytes on stdin): the JSON object with a final
/// newline, or `None` (print nothing) when the prompt is neither a correction nor a repeat
/// of a rule, the input is not the hook's JSON, or the agent has no prompt hook. `rules`
/// gives the active rules of the project the prompt was typed in (from the input's `cwd`
/// when it has one), and the project's root.
pub(crate) fn respond(
    agent: Agent,
    input: &[u8],
    rules: impl FnOnce(Option<&str>) -> (Vec<ActiveRule>, std::path::PathBuf),
) -> Option<String> {
    let event = event(agent)?;
    // An object, not a struct: serde would also accept `["…"]` for a one-field struct.
    let input: serde_json::Map<String, serde_json::Value> = serde_json::from_slice(input).ok()?;
    let prompt = input.get("prompt")?.as_str()?;
    let cwd = input.get("cwd").and_then(|c| c.as_str());
    let root = std::cell::Cell::new(None);
    let heard = repeats::hear(
        prompt,
        || {
            let (rules, at) = rules(cwd);
            root.set(Some(at));
            rules
        },
        // The rules' vectors are kept under git's common directory, asked of git only
        // when the model runs.
        || crate::io::git::Git::new(&root.take()?).common_dir().ok(),
    )?;
    Some(crate::export::hook::context_for(
        agent,
        event,
        &reminder(&heard),
    ))
}
