//! `autofix rules --format hook`: the one JSON object a session-start hook prints so the
//! agent starts with the rules in context. Worded as facts, capped below Claude Code's
//! 10,000-character limit by dropping the oldest rules with a note.

use serde::Serialize;

use crate::rules::budget;
use crate::rules::listing::Listing;
use crate::sources::layers::ForHook;

/// The words the session hook's text starts with, before the rules file's path; the
/// prompt hook knows the text by them (`capture::injected`) when an agent pastes it back.
pub(crate) const RULES_HEADER: &str = "Project rules recorded in ";
/// The start of the text when there are no rules.
pub(crate) const NO_RULES: &str = "No project rules are recorded in ";
/// The scoped rules' note: "N more rules apply only to files matching …".
pub(crate) const SCOPED_NOTE: &str = " only to files matching";
/// The command the scoped rules' note names.
pub(crate) const FOR_PATH: &str = "autofix rules --for";

/// The most characters the printed JSON may have: Claude Code keeps 10,000 of the context
/// (<https://code.claude.com/docs/en/hooks>, "JSON output"), and the JSON around it and its
/// escapes must fit too. `check` measures the rules the same way ([`full_size`]).
pub(crate) const CAP: usize = 9_000;

/// The most characters the scoped rules' globs take in the hook's note about them.
const SCOPES_CAP: usize = 1_000;

/// The agents with a session-start hook.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Agent {
    Claude,
    Codex,
    Cursor,
    Gemini,
    /// GitHub Copilot CLI: `.github/hooks/*.json`, `sessionStart` and `userPromptSubmitted`
    /// whose `{"additionalContext"}` output it adds to the session (seen in 1.0.102, though
    /// <https://docs.github.com/en/copilot/reference/copilot-cli-reference/cli-hooks-reference>
    /// still says their output is not processed).
    Copilot,
    /// Qwen Code: Claude Code's hook format in `.qwen/settings.json`
    /// (<https://qwenlm.github.io/qwen-code-docs/en/users/features/hooks>).
    Qwen,
}

impl Agent {
    pub(crate) const ALL: [Agent; 6] = [
        Agent::Claude,
        Agent::Codex,
        Agent::Cursor,
        Agent::Gemini,
        Agent::Copilot,
        Agent::Qwen,
    ];

    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Agent::Claude => "claude",
            Agent::Codex => "codex",
            Agent::Cursor => "cursor",
            Agent::Gemini => "gemini",
            Agent::Copilot => "copilot",
            Agent::Qwen => "qwen",
        }
    }

    /// The agent's name as the export targets list their readers.
    pub(crate) fn reader(self) -> &'static str {
        match self {
            Agent::Claude => "Claude Code",
            Agent::Codex => "Codex",
            Agent::Cursor => "Cursor",
            Agent::Gemini => "Gemini CLI",
            Agent::Copilot => "Copilot",
            Agent::Qwen => "Qwen Code",
        }
    }

    /// Where the agent keeps its hooks, relative to the root (`local`: Claude Code's
    /// uncommitted settings).
    pub(crate) fn hooks_file(self, local: bool) -> &'static str {
        match self {
            Agent::Claude if local => ".claude/settings.local.json",
            Agent::Claude => ".claude/settings.json",
            Agent::Codex => ".codex/hooks.json",
            Agent::Cursor => ".cursor/hooks.json",
            Agent::Gemini => ".gemini/settings.json",
            // Copilot CLI loads every `.github/hooks/*.json`: this one is ours alone.
            Agent::Copilot => ".github/hooks/autofix.json",
            Agent::Qwen => ".qwen/settings.json",
        }
    }

    /// The command a hook runs.
    pub(crate) fn command(self) -> String {
        format!("autofix rules --format hook --agent {}", self.as_str())
    }
}

/// What to print when there is nothing to say (no rules file, or an invalid one): nothing,
/// or an empty object for Cursor, which expects JSON.
pub(crate) fn empty(agent: Agent) -> &'static str {
    match agent {
        Agent::Cursor => "{}\n",
        _ => "",
    }
}

/// The hook's output for `listing`, with a final newline; at most [`CAP`] characters and,
/// when given, `budget_tokens` estimated tokens. The oldest rules are left out with a note.
///
/// `layers` are the rules beyond this repository (imported `name:N`, personal `user:N`):
/// the unscoped ones listed before its own rules and left out first, the scoped ones
/// counted with its scoped rules.
pub(crate) fn render(
    agent: Agent,
    listing: &Listing,
    budget_tokens: Option<usize>,
    layers: &ForHook,
) -> String {
    let output = Output::new(agent, listing, budget_tokens, layers);
    // The cap in characters, and a token budget if one was given (context the agent reads).
    let fits = |omitted: usize| {
        let chars = output.text(omitted).chars().count();
        chars <= CAP && budget_tokens.is_none_or(|b| budget::tokens(chars) <= b)
    };
    output.text(budget::fit_newest(output.lines.len(), fits))
}

/// How many characters Claude Code's hook would print with every unscoped rule, the
/// imported ones of `layers` included: over [`CAP`], it leaves the oldest out. `check`
/// measures the rules with it.
pub(crate) fn full_size(listing: &Listing, layers: &ForHook) -> usize {
    Output::new(Agent::Claude, listing, None, layers)
        .text(0)
        .chars()
        .count()
}

/// The pieces of the hook's output, from which it is put together with the oldest rules
/// left out.
struct Output<'l> {
    agent: Agent,
    path: &'l str,
    header: String,
    lines: Vec<String>,
    scoped: String,
    to_fit: String,
}

impl<'l> Output<'l> {
    fn new(
        agent: Agent,
        listing: &'l Listing,
        budget_tokens: Option<usize>,
        layers: &ForHook,
    ) -> Self {
        // Scoped rules stay out of the session's context: a line says they exist and how to
        // see the ones for a file.
        let local = listing
            .rules
            .iter()
            .filter(|entry| entry.paths.is_empty())
            .map(|entry| {
                let mut line = Vec::new();
                Listing::write_text_item(&mut line, &entry).expect("writing to memory cannot fail");
                String::from_utf8(line).expect("renderers write UTF-8")
            });
        let mut header = format!(
            "{RULES_HEADER}{} (newer rules supersede older ones; on conflict the \
             higher-numbered rule wins):\n",
            listing.path
        );
        // Said only when such a rule is listed: scoped ones are only counted in the note.
        if !layers.lines.is_empty() {
            header.push_str(
                "Rules named `name:N` come from git sources and `user:N` are the user's own; \
                 this repository's numbered rules win over them, except a rule marked \
                 [locked], which holds whatever a local rule says.\n",
            );
        }
        Output {
            agent,
            path: &listing.path,
            header,
            lines: layers.lines.iter().cloned().chain(local).collect(),
            scoped: scoped_note(listing, &layers.scoped),
            to_fit: match budget_tokens {
                Some(tokens) => format!("{tokens} tokens"),
                None => "the hook's size limit".to_string(),
            },
        }
    }

    /// The output with the `omitted` oldest rules left out.
    fn text(&self, omitted: usize) -> String {
        let mut text = if self.lines.is_empty() && self.scoped.is_empty() {
            format!("{NO_RULES}{} yet.\n", self.path)
        } else {
            self.header.clone()
        };
        if omitted > 0 {
            text.push_str(&budget::omitted_note(omitted, &self.to_fit));
            text.push('\n');
        }
        for line in &self.lines[omitted..] {
            text.push_str(line);
        }
        text.push_str(&self.scoped);
        wrap(self.agent, text.trim_end())
    }
}

/// The line about scoped rules: how many, their globs, and the command that lists the rules
/// for a file; empty when every rule is unscoped.
/// The imported and personal scoped rules (`layered`, their globs) count as the local ones.
fn scoped_note(listing: &Listing, layered: &[Vec<String>]) -> String {
    let mut count = 0;
    let mut globs: Vec<&str> = Vec::new();
    let scoped = listing.rules.iter().filter(|entry| !entry.paths.is_empty());
    let layered = layered.iter().map(|paths| paths.iter().map(String::as_str));
    for paths in scoped
        .map(|entry| entry.paths.iter().map(AsRef::as_ref).collect::<Vec<&str>>())
        .chain(layered.map(Iterator::collect))
    {
        count += 1;
        for glob in paths {
            if !globs.contains(&glob) {
                globs.push(glob);
            }
        }
    }
    if count == 0 {
        return String::new();
    }
    // The globs are named up to a part of the cap, so that scopes never crowd out the
    // unscoped rules: `rules --for PATH` lists the rest.
    let mut named = String::new();
    let mut shown = 0;
    for glob in &globs {
        let item = format!("`{}`", crate::report::text::clipped(glob, 200));
        if !named.is_empty() && named.chars().count() + item.chars().count() > SCOPES_CAP {
            break;
        }
        if !named.is_empty() {
            named.push_str(", ");
        }
        named.push_str(&item);
        shown += 1;
    }
    if shown < globs.len() {
        named.push_str(&format!(" and {} more", globs.len() - shown));
    }
    format!(
        "{count} more rule{s}{SCOPED_NOTE} {named}; before working on such a \
         file, run `{FOR_PATH} PATH` to see the rules for it.\n",
        s = if count == 1 { " applies" } else { "s apply" },
    )
}

fn wrap(agent: Agent, text: &str) -> String {
    #[derive(Serialize)]
    struct Cursor<'a> {
        additional_context: &'a str,
    }
    match agent {
        Agent::Cursor => {
            let mut json = serde_json::to_string(&Cursor {
                additional_context: text,
            })
            .expect("strings always serialise");
            json.push('\n');
            json
        }
        _ => context_for(agent, "SessionStart", text),
    }
}

/// The hook output that adds `text` to `agent`'s context on `event`: Copilot CLI's
/// camelCase hooks take `{"additionalContext": text}`, the others Claude Code's
/// [`additional_context`].
pub(crate) fn context_for(agent: Agent, event: &str, text: &str) -> String {
    if agent != Agent::Copilot {
        return additional_context(event, text);
    }
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Copilot<'a> {
        additional_context: &'a str,
    }
    let mut json = serde_json::to_string(&Copilot {
        additional_context: text,
    })
    .expect("strings always serialise");
    json.push('\n');
    json
}

/// `{"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}` and a
/// newline: how Claude Code, Codex and Gemini CLI hooks add context, whatever the event.
pub(crate) fn additional_context(event: &str, text: &str) -> String {
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Specific<'a> {
        hook_event_name: &'a str,
        additional_context: &'a str,
    }
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Output<'a> {
        hook_specific_output: Specific<'a>,
    }
    let mut json = serde_json::to_string(&Output {
        hook_specific_output: Specific {
            hook_event_name: event,
            additional_context: text,
        },
    })
    .expect("strings always serialise");
    json.push('\n');
    json
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::file;
    use crate::rules::listing::{Query, build};

    #[test]
    fn shapes_and_cap() {
        let mut source = String::from("[");
        for n in 1..=400 {
            if n > 1 {
                source.push(',');
            }
            source.push_str(&format!(
                "{{\"Rule_number\": {n}, \"Category\": \"CODE\", \"Instruction\": \"Always do \\\"thing\\\" number {n} carefully\", \"Why\": \"w\"}}"
            ));
        }
        source.push(']');
        let document = file::parse_str(&source).unwrap();
        let query = Query::default();
        let listing = build("r.json".into(), Some(document.into()), &query);
        let claude = render(Agent::Claude, &listing, None, &ForHook::default());
        assert!(claude.chars().count() <= CAP);
        let value: serde_json::Value = serde_json::from_str(&claude).unwrap();
        let text = value["hookSpecificOutput"]["additionalContext"]
            .as_str()
            .unwrap();
        assert_eq!(value["hookSpecificOutput"]["hookEventName"], "SessionStart");
        assert!(text.starts_with("Project rules recorded in r.json"));
        assert!(text.contains("older rules omitted"));
        assert!(text.ends_with("400 [CODE] Always do \"thing\" number 400 carefully \u{2014} w"));
        let cursor = render(Agent::Cursor, &listing, None, &ForHook::default());
        let value: serde_json::Value = serde_json::from_str(&cursor).unwrap();
        assert!(value["additional_context"].is_string());
        assert_eq!(empty(Agent::Cursor), "{}\n");
        assert_eq!(empty(Agent::Gemini), "");
    }
}
