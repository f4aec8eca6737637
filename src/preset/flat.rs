//! The design's flat form: a directory holding `commands.json` (required), and optionally
//! `manifest.json` (for `taskPresetId`), `panel.json` (declared inputs) and the requirements
//! in `task-preset.json` or, when that is absent, `prompts.json`.

use std::path::Path;

use crate::diagnostics::{Code, Diagnostic};

use super::Form;
use super::load::{self, Draft, LoadError};
use super::source::{Dir, Doc, NOT_FOUND, Resolved};

/// Loads a flat preset; `manifest` is its parsed `manifest.json`, if it has a valid one.
pub(crate) fn load(dir: &Dir, manifest: Option<Doc>) -> Result<Draft, LoadError> {
    let mut draft = Draft::new(Form::Flat);
    let diagnostics = &mut draft.diagnostics;
    if let Some(manifest) = &manifest
        && let Some(root) = manifest.root("the manifest", diagnostics)
    {
        draft.id = load::manifest_id(&root, diagnostics);
    }
    let commands = open(dir, "commands.json", true, diagnostics)?;
    if let Some(doc) = &commands {
        draft.commands = load::commands(doc, false, diagnostics);
    }
    let panel = open(dir, "panel.json", false, diagnostics)?;
    let mut inputs: Option<Vec<String>> = None;
    if let Some(doc) = &panel {
        let outputs = load::panel_outputs(doc, false, diagnostics);
        inputs
            .get_or_insert_default()
            .extend(outputs.into_iter().map(str::to_string));
    }
    let task_preset = open(dir, "task-preset.json", false, diagnostics)?;
    let prompts = open(dir, "prompts.json", false, diagnostics)?;
    for (doc, holds_requirements) in [(&task_preset, true), (&prompts, task_preset.is_none())] {
        let Some(doc) = doc else { continue };
        let Some(root) = doc.root("the file", diagnostics) else {
            continue;
        };
        if holds_requirements {
            draft.requirements = load::requirements(&root, true, diagnostics);
            draft.requirements_file = Some(doc.rel.clone());
        }
        for names in [
            load::binding_inputs(&root, false, diagnostics),
            load::prompt_inputs(&root, false, diagnostics),
        ]
        .into_iter()
        .flatten()
        {
            inputs
                .get_or_insert_default()
                .extend(names.into_iter().map(str::to_string));
        }
    }
    draft.inputs = inputs.map(|names| names.into_iter().collect());
    draft.docs = [manifest, commands, panel, task_preset, prompts]
        .into_iter()
        .flatten()
        .collect();
    Ok(draft)
}

/// Opens one of the flat form's fixed files. An absent optional file is not a problem.
fn open(
    dir: &Dir,
    name: &str,
    required: bool,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<Option<Doc>, LoadError> {
    let shown = dir.shown(Path::new(name));
    match dir.resolve(Path::new(""), name) {
        Resolved::Found { real, rel } => dir.read_json(&real, rel, diagnostics),
        Resolved::Missing { why, .. } if required || why != NOT_FOUND => {
            diagnostics.push(
                Diagnostic::new(Code::MissingFile, format!("`{name}` {why}"))
                    .in_file(shown)
                    .with_help(if required {
                        "a flat preset needs `commands.json`; a HagiTask package names its files \
                         in `manifest.json` (`ui`, `backend`)"
                    } else {
                        "replace it with a JSON file, or remove it"
                    }),
            );
            Ok(None)
        }
        Resolved::Missing { .. } => Ok(None),
        Resolved::Escapes => {
            diagnostics.push(
                Diagnostic::new(
                    Code::PathEscapesPreset,
                    format!("`{name}` is a link to a file outside the preset directory"),
                )
                .in_file(shown)
                .with_help("copy the file into the preset instead of linking to it"),
            );
            Ok(None)
        }
    }
}
