//! `hook user-prompt` end to end, in one descent: the agent's input read, the prompt heard
//! (the classifier first, then the active rules of the project it was typed in, loaded
//! once, and the rules the sentence model finds nearest it), what was heard kept as a note,
//! and the answer returned as a value, which `render::prompt_hook` turns into the client's
//! JSON.

use std::cell::OnceCell;
use std::path::PathBuf;

use crate::capture::prompt::{self, Heard, Note};
use crate::capture::repeats;
use crate::export::hook::Agent;
use crate::io::workspace::{Finder, Workspace};

/// What the hook heard of a prompt, for `agent`'s `event`, and the note it gave (none
/// outside git, or when it could not be kept: then `not_kept` says why).
pub(crate) struct Answer {
    pub agent: Agent,
    pub event: &'static str,
    pub heard: Heard,
    pub note: Option<Note>,
    pub not_kept: Option<String>,
}

/// The hook's answer to `input` (the bytes on stdin); `None` (answer nothing) when the
/// prompt is neither a correction nor a rule said again, the input is not the hook's JSON,
/// or the agent has no prompt hook. The project is the one the input's `cwd` lies in.
pub(crate) fn respond(agent: Agent, input: &[u8], finder: &Finder) -> Option<Answer> {
    let event = prompt::event(agent)?;
    // An object, not a struct: serde would also accept `["…"]` for a one-field struct.
    let input: serde_json::Map<String, serde_json::Value> = serde_json::from_slice(input).ok()?;
    let text = input.get("prompt")?.as_str()?;
    let cwd = input.get("cwd").and_then(|c| c.as_str());
    let session = (input.get("session_id").or_else(|| input.get("sessionId")))
        .and_then(|s| s.as_str())
        .unwrap_or_default();
    // Found when the rules are first needed (a long prompt that is no correction never
    // needs them).
    let workspace = OnceCell::new();
    let heard = repeats::hear(
        text,
        || {
            let workspace = workspace.get_or_init(|| Workspace::of_hook(finder, cwd));
            super::reflect::active_rules(workspace).unwrap_or_default()
        },
        // The rules' vectors are kept under git's common directory, asked of git only when
        // the model runs.
        || {
            let root = &workspace.get()?.root;
            crate::io::git::Git::new(root).common_dir().ok()
        },
    )?;
    let root: PathBuf = workspace.get().map(|w| w.root.clone()).unwrap_or_default();
    let asked = super::notes::Asked {
        root: &root,
        agent: agent.as_str(),
        session,
        prompt: text,
    };
    let kept = match &heard {
        Heard::Restates(rule) => super::notes::heard_word_for_word(&asked, rule).map(|()| None),
        Heard::Correction(near) => super::notes::give(&asked, near),
    };
    let (note, not_kept) = match kept {
        Ok(note) => (note, None),
        Err(error) => (None, Some(format!("{error:#}"))),
    };
    Some(Answer {
        agent,
        event,
        heard,
        note,
        not_kept,
    })
}
