//! The HagiTask package form: `manifest.json` names the panel, the optional command
//! catalog, the task preset (requirements, input bindings) and the prompt package, by
//! convention under `frontend/` and `backend/`. Every named path must stay inside the
//! package; the prompt package's template files are checked to exist. The rest of what
//! HagiCode's package validator checks is in the `package` module.

use std::path::Path;

use serde_json::Value;

use crate::report::diagnostics::Diagnostic;

use super::Form;
use super::parts::{self, Draft};
use super::source::LoadError;
use super::source::{Dir, Doc, Obj, Presence, child};
use super::{package, task_preset};

/// Loads a HagiTask package whose manifest is `manifest`.
pub(crate) fn load(dir: &Dir, manifest: Doc) -> Result<Draft, LoadError> {
    let mut draft = Draft::new(Form::HagiTask);
    let diagnostics = &mut draft.diagnostics;
    let mut docs = Vec::new();
    if let Some(root) = manifest.root("the manifest", diagnostics) {
        draft.id = parts::manifest_id(&root, diagnostics);
        let task_id = draft.id.as_ref().map(|(id, _)| id.as_str());
        let supported = package::check_manifest(dir, &root, task_id, diagnostics)?;
        let ui = root.object("ui", "`ui`", Presence::Required, diagnostics);
        let backend = root.object("backend", "`backend`", Presence::Required, diagnostics);
        let open = |owner: &Option<Obj<'_>>,
                    key: &str,
                    presence: Presence,
                    diagnostics: &mut Vec<Diagnostic>|
         -> Result<Option<Doc>, LoadError> {
            let Some(owner) = owner else { return Ok(None) };
            let Some(declared) = owner.string(key, presence, diagnostics) else {
                return Ok(None);
            };
            dir.open_declared(
                &manifest,
                &owner.pointer_of(key),
                Path::new(""),
                declared,
                diagnostics,
            )
        };
        let panel = open(&ui, "panel", Presence::Required, diagnostics)?;
        let commands = open(&ui, "commands", Presence::Optional, diagnostics)?;
        let task_preset = open(&backend, "taskPreset", Presence::Required, diagnostics)?;
        let prompts = open(&backend, "prompts", Presence::Required, diagnostics)?;

        // Placeholders come from panel outputs, input bindings and prompt inputs. The
        // panel is required, so a package always declares its inputs — unless one of
        // these files is broken (reported already), and then placeholders go unchecked.
        let mut inputs: Vec<String> = Vec::new();
        let mut inputs_known = true;
        match &panel {
            Some(panel) => {
                let outputs = parts::panel_outputs(panel, Form::HagiTask, diagnostics);
                inputs.extend(outputs.into_iter().map(str::to_string));
            }
            None => inputs_known = false,
        }
        if let Some(doc) = &commands {
            draft.commands = parts::commands(doc, Form::HagiTask, diagnostics);
        }
        match task_preset
            .as_ref()
            .and_then(|doc| doc.root("the task preset", diagnostics))
        {
            Some(root) => {
                draft.requirements = parts::requirements(&root, Form::HagiTask, diagnostics);
                task_preset::check(&root, diagnostics);
                draft.requirements_file = Some(root.doc.rel.clone());
                let bound = parts::binding_inputs(&root, Presence::Required, diagnostics);
                inputs.extend(bound.unwrap_or_default().into_iter().map(str::to_string));
            }
            None => {
                draft.requirements_known = false;
                inputs_known = false;
            }
        }
        match prompts
            .as_ref()
            .and_then(|doc| doc.root("the prompt package", diagnostics))
        {
            Some(root) => {
                let names = parts::prompt_inputs(&root, Presence::Required, diagnostics);
                inputs.extend(names.unwrap_or_default().into_iter().map(str::to_string));
                check_templates(dir, &root, diagnostics);
                package::check_prompts(&root, supported.as_ref(), diagnostics);
            }
            None => inputs_known = false,
        }
        draft.inputs = inputs_known.then(|| inputs.into_iter().collect());
        docs.extend(
            [panel, commands, task_preset, prompts]
                .into_iter()
                .flatten(),
        );
    }
    docs.push(manifest);
    package::check_files(dir, &mut docs, &mut draft.diagnostics)?;
    draft.docs = docs;
    Ok(draft)
}

/// Every template path of a prompt package (`locales.*.*Template`, `variants.entries[]`,
/// `variants.fallback`, `commandSystemPrompts.*.*`) must exist inside the package,
/// relative to the prompt package's own directory.
fn check_templates(dir: &Dir, root: &Obj<'_>, diagnostics: &mut Vec<Diagnostic>) {
    let doc = root.doc;
    let base = doc.rel.parent().unwrap_or(Path::new(""));
    let mut paths: Vec<(String, &str)> = Vec::new();
    // With `variants.entries` the package validator reads only the variants: `locales` is
    // then ignored, and so are its templates
    // (<https://github.com/HagiCode-org/hagitask-community-packages/blob/main/scripts/validate-community-packages.mjs>).
    let variants_used = root
        .get("variants")
        .and_then(|v| v.get("entries"))
        .is_some_and(Value::is_array);
    if !variants_used && let Some(Value::Object(locales)) = root.get("locales") {
        for (locale, entry) in locales {
            let pointer = child(&root.pointer_of("locales"), locale);
            collect_templates(entry, &pointer, &mut paths);
        }
    }
    if let Some(Value::Object(variants)) = root.get("variants") {
        let pointer = root.pointer_of("variants");
        if let Some(Value::Array(entries)) = variants.get("entries") {
            for (index, entry) in entries.iter().enumerate() {
                let pointer = child(&child(&pointer, "entries"), &index.to_string());
                collect_templates(entry, &pointer, &mut paths);
            }
        }
        if let Some(fallback) = variants.get("fallback") {
            collect_templates(fallback, &child(&pointer, "fallback"), &mut paths);
        }
    }
    if let Some(Value::Object(commands)) = root.get("commandSystemPrompts") {
        for (command, locales) in commands {
            let pointer = child(&root.pointer_of("commandSystemPrompts"), command);
            if let Value::Object(locales) = locales {
                for (locale, path) in locales {
                    if let Value::String(path) = path {
                        paths.push((child(&pointer, locale), path));
                    }
                }
            }
        }
    }
    for (pointer, path) in paths {
        if !path.trim().is_empty() {
            dir.check_declared(doc, &pointer, base, path, diagnostics);
        }
    }
}

fn collect_templates<'a>(value: &'a Value, pointer: &str, paths: &mut Vec<(String, &'a str)>) {
    let Value::Object(entry) = value else { return };
    for key in ["systemTemplate", "userTemplate", "developerTemplate"] {
        if let Some(Value::String(path)) = entry.get(key) {
            paths.push((child(pointer, key), path));
        }
    }
}
