//! The design's flat form: a directory holding `commands.json` (required), and optionally
//! `manifest.json` (for `taskPresetId`), `panel.json` (declared inputs) and the requirements
//! in `task-preset.json` or, when that is absent, `prompts.json`.

use super::Form;
use super::parts::{self, Draft};
use super::source::LoadError;
use super::source::{Dir, Doc, Opened, Presence};

/// The help for a flat preset without `commands.json`.
const NEEDS_COMMANDS: &str = "a flat preset needs `commands.json`; a HagiTask package names \
                              its files in `manifest.json` (`ui`, `backend`)";

/// Loads a flat preset; `manifest` is its parsed `manifest.json`, if it has a valid one.
pub(crate) fn load(dir: &Dir, manifest: Option<Doc>) -> Result<Draft, LoadError> {
    let mut draft = Draft::new(Form::Flat);
    let diagnostics = &mut draft.diagnostics;
    if let Some(manifest) = &manifest
        && let Some(root) = manifest.root("the manifest", diagnostics)
    {
        draft.id = parts::manifest_id(&root, diagnostics);
    }
    let commands = dir.open_top("commands.json", Some(NEEDS_COMMANDS), diagnostics)?;
    if let Opened::Doc(doc) = &commands {
        draft.commands = parts::commands(doc, Form::Flat, diagnostics);
    }
    // Inputs are declared by a panel, input bindings or prompt inputs; a broken file among
    // them (reported already) leaves them unknown, and placeholders unchecked.
    let mut inputs: Option<Vec<String>> = None;
    let mut inputs_known = true;
    let panel = dir.open_top("panel.json", None, diagnostics)?;
    match &panel {
        Opened::Doc(doc) => {
            let outputs = parts::panel_outputs(doc, Form::Flat, diagnostics);
            inputs
                .get_or_insert_default()
                .extend(outputs.into_iter().map(str::to_string));
        }
        Opened::Broken => inputs_known = false,
        Opened::Absent => {}
    }
    let task_preset = dir.open_top("task-preset.json", None, diagnostics)?;
    let prompts = dir.open_top("prompts.json", None, diagnostics)?;
    let task_preset_absent = matches!(task_preset, Opened::Absent);
    for (opened, holds_requirements) in [(&task_preset, true), (&prompts, task_preset_absent)] {
        let root = match opened {
            Opened::Doc(doc) => doc.root("the file", diagnostics),
            Opened::Broken => None,
            Opened::Absent => continue,
        };
        let Some(root) = root else {
            inputs_known = false;
            if holds_requirements {
                draft.requirements_known = false;
            }
            continue;
        };
        if holds_requirements {
            draft.requirements = parts::requirements(&root, Form::Flat, diagnostics);
            draft.requirements_file = Some(root.doc.rel.clone());
        }
        for names in [
            parts::binding_inputs(&root, Presence::Optional, diagnostics),
            parts::prompt_inputs(&root, Presence::Optional, diagnostics),
        ]
        .into_iter()
        .flatten()
        {
            inputs
                .get_or_insert_default()
                .extend(names.into_iter().map(str::to_string));
        }
    }
    draft.inputs = inputs
        .filter(|_| inputs_known)
        .map(|names| names.into_iter().collect());
    draft.docs = [
        manifest,
        commands.doc(),
        panel.doc(),
        task_preset.doc(),
        prompts.doc(),
    ]
    .into_iter()
    .flatten()
    .collect();
    Ok(draft)
}
