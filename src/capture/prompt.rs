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
pub(crate) use super::repeats::Heard;
use super::repeats::{self, ActiveRule, Nearby};
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

/// The context line added to a prompt the hook hears ([`repeats::hear`]): for a rule said
/// word for word, to follow it; for a correction, the rules nearest it for the agent to
/// judge, and the one command that answers the note (`note`, when the repository keeps
/// notes): said again, `verdict ID restated N`; changed, `learn … --supersedes N --note
/// ID`; new, `learn … --note ID`; none of these, `verdict ID nothing`. Each command stands
/// in a code span, ready to copy but for its placeholders.
fn reminder(heard: &Heard, note: Option<&Note>) -> String {
    let learn = "autofix learn \"Always/Never ...\"";
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
    let (heading, tag) = match note {
        Some(note) => (
            format!("note {}. This", note.id),
            format!(" --note {}", note.id),
        ),
        None => ("this".to_string(), String::new()),
    };
    match heard {
        Heard::Restates(rule) => format!(
            "{REMINDER}the user says {} again, word for word: follow it. Do not learn it again.",
            quoted(rule)
        ),
        Heard::Correction(near) if near.is_empty() => {
            let nothing = note.map_or_else(
                || "If it is not a lasting rule, ignore this note.".to_string(),
                |note| {
                    format!(
                        "If it is not a lasting rule, say so: `autofix verdict {} nothing`.",
                        note.id
                    )
                },
            );
            format!(
                "{REMINDER}{heading} prompt looks like a correction or a project convention. \
                 Before continuing, record it as one imperative rule: `{learn}{tag}`; add \
                 `--supersedes N` when it replaces rule N. {nothing}"
            )
        }
        Heard::Correction(near) => {
            let shown: Vec<String> = near.iter().map(quoted).collect();
            let example = near[0].id();
            let mut text = format!(
                "{REMINDER}{heading} prompt looks like a correction or a project convention. \
                 The recorded rules nearest it: {}. Judge it against them before continuing. ",
                shown.join("; ")
            );
            match note {
                Some(note) => text.push_str(&format!(
                    "Then answer the note with one command (N: the rule's number, e.g. \
                     {example}): if it says one of them again, follow that rule and run \
                     `autofix verdict {id} restated N`; if it changes one: `{learn} \
                     --supersedes N --note {id}`; if it says something new: `{learn} --note \
                     {id}`; if it is none of these (no lasting rule): `autofix verdict {id} \
                     nothing`.",
                    id = note.id
                )),
                None => text.push_str(&format!(
                    "If it says one of them again, follow that rule and learn nothing; if it \
                     changes one, record the change: `{learn} --supersedes N` (N: that rule's \
                     number, e.g. {example}); if it says something new, record it: `{learn}`. \
                     If it is not a lasting rule, ignore this note."
                )),
            }
            for restated in note.iter().flat_map(|note| &note.restated) {
                if restated.times >= CHECK_AFTER {
                    text.push_str(&format!(
                        " The user has had to say rule {shown} again {times} times: if a \
                         pattern in the code can catch a break of it, give it a check: \
                         `autofix learn {instruction} --supersedes {rule} --check 'REGEX'`.",
                        rule = restated.rule,
                        shown = restated.shown,
                        times = restated.times,
                        instruction = crate::report::text::shell_quote(&restated.instruction),
                    ));
                }
            }
            text
        }
    }
}

/// How many times the user has had to restate a rule before its next note asks for a
/// check.
pub(crate) const CHECK_AFTER: usize = 2;

/// Who typed the prompt a hook call heard, and what: for the note it gives.
pub(crate) struct Typed<'a> {
    /// The project's root (git's directory there keeps the notes).
    pub root: &'a std::path::Path,
    pub agent: Agent,
    /// The session, as the client names it (`session_id`, Copilot's `sessionId`).
    pub session: &'a str,
    pub prompt: &'a str,
}

/// The hook's answer to `input` (the bytes on stdin): the JSON object with a final
/// newline, or `None` (print nothing) when the prompt is neither a correction nor a repeat
/// of a rule, the input is not the hook's JSON, or the agent has no prompt hook. `rules`
/// gives the active rules of the project the prompt was typed in (from the input's `cwd`
/// when it has one), and the project's root; `note` records what was heard and gives the
/// note its id (none outside git).
pub(crate) fn respond(
    agent: Agent,
    input: &[u8],
    rules: impl FnOnce(Option<&str>) -> (Vec<ActiveRule>, std::path::PathBuf),
    note: impl FnOnce(&Heard, &Typed<'_>) -> Option<Note>,
) -> Option<String> {
    let event = event(agent)?;
    // An object, not a struct: serde would also accept `["…"]` for a one-field struct.
    let input: serde_json::Map<String, serde_json::Value> = serde_json::from_slice(input).ok()?;
    let prompt = input.get("prompt")?.as_str()?;
    let cwd = input.get("cwd").and_then(|c| c.as_str());
    let session = (input.get("session_id").or_else(|| input.get("sessionId")))
        .and_then(|s| s.as_str())
        .unwrap_or_default();
    let root = std::cell::RefCell::new(None);
    let heard = repeats::hear(
        prompt,
        || {
            let (rules, at) = rules(cwd);
            *root.borrow_mut() = Some(at);
            rules
        },
        // The rules' vectors are kept under git's common directory, asked of git only
        // when the model runs.
        || {
            crate::io::git::Git::new(root.borrow().as_ref()?)
                .common_dir()
                .ok()
        },
    )?;
    let root = root.into_inner().unwrap_or_default();
    let typed = Typed {
        root: &root,
        agent,
        session,
        prompt,
    };
    let note = note(&heard, &typed);
    Some(crate::export::hook::context_for(
        agent,
        event,
        &reminder(&heard, note.as_ref()),
    ))
}
