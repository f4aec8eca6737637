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
    if let Opened::Doc(doc) = &commands {
        draft.commands = load::commands(doc, false, diagnostics);
    }
    // Inputs are declared by a panel, input bindings or prompt inputs; a broken file among
    // them (reported already) leaves them unknown, and placeholders unchecked.
    let mut inputs: Option<Vec<String>> = None;
    let mut inputs_known = true;
    let panel = open(dir, "panel.json", false, diagnostics)?;
    match &panel {
        Opened::Doc(doc) => {
            let outputs = load::panel_outputs(doc, false, diagnostics);
            inputs
                .get_or_insert_default()
                .extend(outputs.into_iter().map(str::to_string));
        }
        Opened::Broken => inputs_known = false,
        Opened::Absent => {}
    }
    let task_preset = open(dir, "task-preset.json", false, diagnostics)?;
    let prompts = open(dir, "prompts.json", false, diagnostics)?;
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
            draft.requirements = load::requirements(&root, true, diagnostics);
            draft.requirements_file = Some(root.doc.rel.clone());
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

/// One of the flat form's fixed files.
enum Opened {
    Doc(Doc),
    /// There, but unusable (reported).
    Broken,
    Absent,
}

impl Opened {
    fn doc(self) -> Option<Doc> {
        match self {
            Opened::Doc(doc) => Some(doc),
            Opened::Broken | Opened::Absent => None,
        }
    }
}

/// Opens one of the flat form's fixed files. An absent optional file is not a problem.
fn open(
    dir: &Dir,
    name: &str,
    required: bool,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<Opened, LoadError> {
    let shown = dir.shown(Path::new(name));
    let diagnostic = match dir.resolve(Path::new(""), name) {
        Resolved::Found { real, rel } => {
            return Ok(match dir.read_json(&real, rel, diagnostics)? {
                Some(doc) => Opened::Doc(doc),
                None => Opened::Broken,
            });
        }
        Resolved::Missing { why, .. } if required || why != NOT_FOUND => {
            Diagnostic::new(Code::MissingFile, format!("`{name}` {why}"))
                .in_file(shown)
                .with_help(if required {
                    "a flat preset needs `commands.json`; a HagiTask package names its files \
                     in `manifest.json` (`ui`, `backend`)"
                } else {
                    "replace it with a JSON file, or remove it"
                })
        }
        Resolved::Missing { .. } => return Ok(Opened::Absent),
        Resolved::Escapes => Diagnostic::new(
            Code::PathEscapesPreset,
            format!("`{name}` is a link to a file outside the preset directory"),
        )
        .in_file(shown)
        .with_help("copy the file into the preset instead of linking to it"),
    };
    diagnostics.push(diagnostic);
    Ok(Opened::Broken)
}
