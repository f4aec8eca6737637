//! Text autofix itself put into a prompt, dropped before the prompt is classified or shown:
//! the session hook's context (Gemini CLI in `-p` mode prepends it to the prompt inside
//! `<hook_context>…</hook_context>`, see `packages/cli/src/gemini.tsx` in
//! <https://github.com/google-gemini/gemini-cli>), the agents' other injected blocks of
//! the same kind, our rules list (its header, its `N [CATEGORY] …` lines, its notes) and
//! our own reminder line. What is left is what the user typed.

use std::borrow::Cow;

use crate::export::hook;
use crate::rules::budget;

/// Blocks an agent program wraps around context it injects, never typed by the user.
const BLOCKS: [(&str, &str); 4] = [
    ("<hook_context>", "</hook_context>"),
    ("<hook_prompt", "</hook_prompt>"),
    ("<session_context>", "</session_context>"),
    ("<system-reminder>", "</system-reminder>"),
];

/// The start of the prompt hook's reminder (`capture::prompt` writes it).
pub(crate) const REMINDER: &str = "autofix: ";

/// The start of the lines of our own hook texts (`rules --format hook`, the reminder),
/// as their producers define them.
const OUR_LINES: [&str; 4] = [
    hook::RULES_HEADER,
    hook::NO_RULES,
    REMINDER,
    budget::OMITTED_END,
];

/// `prompt` without the blocks and lines autofix or the agent injected; borrowed when
/// there were none.
pub(crate) fn strip(prompt: &str) -> Cow<'_, str> {
    let has_block = BLOCKS.iter().any(|(open, _)| prompt.contains(open));
    let has_line = prompt.lines().any(is_our_line);
    if !has_block && !has_line {
        return Cow::Borrowed(prompt);
    }
    let mut text = prompt.to_string();
    for (open, close) in BLOCKS {
        while let Some(start) = text.find(open) {
            // An unclosed block runs to the end: it is all injected.
            let end = text[start..]
                .find(close)
                .map_or(text.len(), |at| start + at + close.len());
            text.replace_range(start..end, "\n");
        }
    }
    let kept: Vec<&str> = text.lines().filter(|line| !is_our_line(line)).collect();
    Cow::Owned(kept.join("\n"))
}

/// A line of our rules list or reminder: its header, a rule (`12 [CODE] Never …`), the
/// scoped-rules note, the omitted-rules note, the reminder.
fn is_our_line(line: &str) -> bool {
    let line = line.trim_start();
    if OUR_LINES.iter().any(|start| line.starts_with(start)) {
        return true;
    }
    if line.starts_with('(') && line.contains(budget::OMITTED) {
        return true;
    }
    if line.contains(hook::SCOPED_NOTE) && line.contains(hook::FOR_PATH) {
        return true;
    }
    // `N [CATEGORY] instruction`: digits, a space, a bracketed upper-case category.
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &line[digits..];
    digits > 0
        && rest.starts_with(" [")
        && rest[2..].split_once(']').is_some_and(|(category, _)| {
            !category.is_empty() && category.bytes().all(|b| b.is_ascii_uppercase())
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drops_hook_context_and_our_lines() {
        let prompt = "<hook_context>Project rules recorded in .agents/autofix.json (newer rules \
                      supersede older ones):\n2 [CODE] Never use default exports</hook_context>\n\n\
                      Add a health check";
        assert_eq!(strip(prompt).trim(), "Add a health check");
        let listed = "Project rules recorded in r.json (newer…):\n7 [STYLE] Always use tabs\n\
                      (2 older rules omitted to fit 100 tokens; `autofix rules` lists them all.)\n\
                      why is the build red?";
        assert_eq!(strip(listed).trim(), "why is the build red?");
        assert_eq!(strip("<hook_context>never stop").trim(), "");
        assert!(matches!(strip("1 [x] is typed"), Cow::Borrowed(_)));
        assert_eq!(strip("12 [CODE] typed by nobody\nok"), "ok");
    }

    /// The session hook's text as `export::hook` writes it (the header, a rule, the
    /// omitted-rules note, the scoped-rules note) is dropped whole: the markers are the
    /// producers' own constants, so a change of wording there cannot leave it behind.
    #[test]
    fn drops_the_session_hooks_text_as_its_producer_writes_it() {
        use crate::rules::file;
        use crate::rules::listing::{Query, build};
        let document = file::parse_str(
            r#"[{"Rule_number": 1, "Category": "CODE", "Instruction": "Always a", "Why": "w"},
                {"Rule_number": 2, "Category": "CODE", "Instruction": "Always b", "Why": "w"},
                {"Rule_number": 3, "Category": "CODE", "Instruction": "Always c", "Why": "w",
                 "Paths": ["src/**"]}]"#,
        )
        .unwrap();
        let listing = build("r.json".into(), Some(document.into()), &Query::default());
        let layers = crate::sources::layers::ForHook::default();
        let rendered = hook::render(hook::Agent::Claude, &listing, Some(12), &layers);
        let value: serde_json::Value = serde_json::from_str(&rendered).unwrap();
        let text = value["hookSpecificOutput"]["additionalContext"]
            .as_str()
            .unwrap();
        assert!(text.contains(budget::OMITTED), "{text}");
        assert!(text.contains(hook::SCOPED_NOTE), "{text}");
        assert_eq!(
            strip(&format!("{text}\nwhy is the build red?")).trim(),
            "why is the build red?"
        );
        let empty = build("r.json".into(), None, &Query::default());
        let rendered = hook::render(hook::Agent::Claude, &empty, None, &layers);
        let value: serde_json::Value = serde_json::from_str(&rendered).unwrap();
        let text = value["hookSpecificOutput"]["additionalContext"]
            .as_str()
            .unwrap();
        assert_eq!(strip(&format!("{text}\nok")).trim(), "ok");
    }
}
