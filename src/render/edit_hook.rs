//! `hook post-tool`'s answer, in the form each agent feeds back to its model, and the line
//! the person reads on stderr when checks were not run.
//!
//! - Claude Code, an edit that breaks a rule: `{"decision": "block", "reason": NOTICE}` (the
//!   tool has run; the "block" only prompts Claude with the reason:
//!   <https://code.claude.com/docs/en/hooks#posttooluse-decision-control>); a failure:
//!   `{"hookSpecificOutput": {"hookEventName": "PostToolUseFailure", "additionalContext"}}`
//!   (<https://code.claude.com/docs/en/hooks#posttoolusefailure>).
//! - Codex: `{"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext"}}`,
//!   added to the next model request
//!   (<https://github.com/openai/codex/blob/main/codex-rs/hooks/schema/generated/post-tool-use.command.output.schema.json>).
//! - Gemini CLI: `{"hookSpecificOutput": {"hookEventName": "AfterTool", "additionalContext"}}`,
//!   appended to the tool's result
//!   (<https://github.com/google-gemini/gemini-cli/blob/main/docs/hooks/reference.md#aftertool>).
//!
//! When nothing is broken and no cause is found, no output at all.

use crate::capture::failure::Found;
use crate::ops::edit_hook::{COMPILE_BUDGET, Output};
use crate::ops::tool_call::ToolAgent;
use crate::report::diagnostics::Diagnostic;

/// The most violations one notice names (the rest are counted).
const MAX_NAMED: usize = 10;

/// The JSON object the agent reads, with a final newline; `None`: print nothing.
pub(crate) fn to_agent(output: &Output) -> Option<String> {
    let reminder = output.failure.as_ref().map(reminder);
    answer(output.agent, &output.broken, reminder.as_deref())
}

/// The line for the person, when checks had no time to run on this edit.
pub(crate) fn not_run(output: &Output) -> Option<String> {
    (output.not_run > 0).then(|| {
        format!(
            "autofix: {} not run on this edit (over the hook's {} ms to compile them); \
             `autofix enforce` runs every check\n",
            crate::report::text::counted(output.not_run, "check"),
            COMPILE_BUDGET.as_millis()
        )
    })
}

/// The notice naming each broken rule (its number and instruction), or `None`.
fn notice(violations: &[Diagnostic]) -> Option<String> {
    if violations.is_empty() {
        return None;
    }
    let mut notice = String::from(
        "autofix: this edit breaks a rule of this repository. Fix it now, before going on:\n",
    );
    for diagnostic in violations.iter().take(MAX_NAMED) {
        let file = diagnostic
            .file
            .as_deref()
            .map(|f| f.display().to_string())
            .unwrap_or_default();
        let line = diagnostic.position.map_or(1, |p| p.line);
        notice.push_str(&format!("- {file}:{line} {}\n", diagnostic.message));
    }
    if violations.len() > MAX_NAMED {
        notice.push_str(&format!("- and {} more\n", violations.len() - MAX_NAMED));
    }
    Some(notice.trim_end().to_string())
}

/// The agent's answer: the notice of the broken rules and the failure's reminder.
fn answer(agent: ToolAgent, broken: &[Diagnostic], reminder: Option<&str>) -> Option<String> {
    let notice = notice(broken);
    match agent {
        ToolAgent::Claude => match (notice, reminder) {
            (Some(reason), _) => {
                let answer = serde_json::json!({"decision": "block", "reason": reason});
                Some(format!("{answer}\n"))
            }
            (None, Some(reminder)) => Some(crate::export::hook::additional_context(
                "PostToolUseFailure",
                reminder,
            )),
            (None, None) => None,
        },
        ToolAgent::Codex | ToolAgent::Gemini => {
            let text: Vec<String> = notice
                .into_iter()
                .chain(reminder.map(String::from))
                .collect();
            let event = if agent == ToolAgent::Codex {
                "PostToolUse"
            } else {
                "AfterTool"
            };
            (!text.is_empty())
                .then(|| crate::export::hook::additional_context(event, &text.join("\n\n")))
        }
    }
}

/// The reminder to record the lesson of a failure.
fn reminder(found: &Found) -> String {
    let categories = crate::rules::Category::ALL
        .map(crate::rules::Category::as_str)
        .join(", ");
    format!(
        "autofix: this tool call failed on a wrong assumption ({}: `{}`). Once it is put \
         right, if it taught something about this repository, record it as a rule so that \
         no session assumes it again: autofix learn -c CATEGORY -w \"WHY\" \"Always/Never \
         ...\" (CATEGORY: {categories}).",
        found.cause.describe(),
        found.subject
    )
}
