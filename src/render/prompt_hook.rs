//! The prompt hook's answer as the client reads it: one line of context for the agent, in
//! the client's JSON shape (`export::hook::context_for`).

use crate::capture::prompt::{CHECK_AFTER, Heard, Note, REMINDER};
use crate::capture::repeats::Nearby;
use crate::ops::prompt_hook::Answer;

/// The JSON object `answer.agent` reads, with a final newline.
pub(crate) fn to_client(answer: &Answer) -> String {
    crate::export::hook::context_for(
        answer.agent,
        answer.event,
        &reminder(&answer.heard, answer.note.as_ref()),
    )
}

/// The context line added to a prompt the hook hears (`capture::repeats::hear`): for a
/// rule said word for word, to follow it; for a correction, the rules nearest it for the
/// agent to judge, and the one command that answers the note (`note`, when the repository
/// keeps notes): said again, `verdict ID restated N`; changed, `learn … --supersedes N
/// --note ID`; new, `learn … --note ID`; none of these, `verdict ID nothing`. Each command
/// stands in a code span, ready to copy but for its placeholders.
fn reminder(heard: &Heard, note: Option<&Note>) -> String {
    let learn = "autofix learn \"Always/Never ...\"";
    // The rule is in the agent's context already: the note names it by its number and
    // what it asks, without its reason, so the rule's text reaches the model once more at
    // most.
    let quoted = |rule: &Nearby| {
        format!(
            "rule {} (\"{}\")",
            rule.shown(),
            crate::text::directive(&rule.instruction)
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
