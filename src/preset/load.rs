//! Loading one preset directory: decide its form, hand the form-specific files to
//! [`super::flat`] or [`super::hagitask`] (which read what both forms share with
//! [`super::parts`]), then run the cross-checks on the result while the sources are still
//! at hand for line and column.

use std::path::Path;

use serde_json::Value;

use crate::report::diagnostics::{self, Code, Diagnostic};

use super::parts::Draft;
use super::source::{Dir, LoadError, Opened, Resolved};
use super::{Form, Preset, flat, hagitask, package, validate};

/// Loads the preset in `dir`. Problems with its files are diagnostics on the result; only
/// a directory or file that cannot be read at all is an error.
pub(crate) fn load(dir: &Path) -> Result<Preset, LoadError> {
    let dir = Dir::new(dir).map_err(|source| LoadError::Read {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut diagnostics = Vec::new();
    let manifest = dir.open_top("manifest.json", None, &mut diagnostics)?;
    let has_commands = matches!(
        dir.resolve(Path::new(""), "commands.json"),
        Resolved::Found { .. }
    );
    let mut draft = match manifest {
        // A manifest that names `ui` or `backend` is a HagiTask package.
        Opened::Doc(doc) if is_hagitask(&doc.value) => hagitask::load(&dir, doc)?,
        Opened::Doc(doc) => flat::load(&dir, Some(doc))?,
        // A broken manifest: keep going only if the flat form's files are there.
        Opened::Broken if has_commands => flat::load(&dir, None)?,
        // A broken manifest: the package's other JSON files are still checked to parse.
        Opened::Broken => {
            let mut draft = Draft::new(Form::HagiTask);
            package::check_files(&dir, &mut draft.docs, &mut diagnostics)?;
            draft
        }
        Opened::Absent => flat::load(&dir, None)?,
    };
    diagnostics.append(&mut draft.diagnostics);

    let dir_name = dir_name(&dir);
    let id = match &draft.id {
        Some((id, location)) => {
            if *id != dir_name {
                diagnostics.push(
                    Diagnostic::new(
                        Code::PresetIdMismatch,
                        format!("`taskPresetId` is `{id}` but the directory is `{dir_name}`"),
                    )
                    .in_file(&location.file)
                    .at(location.pointer.clone(), location.position)
                    .with_help(format!(
                        "rename the directory to `{id}`, or set `taskPresetId` to `{dir_name}`"
                    )),
                );
            }
            id.clone()
        }
        None => dir_name,
    };
    let mut preset = Preset {
        id,
        dir: dir.shown.clone(),
        form: draft.form,
        commands: draft.commands,
        requirements: draft.requirements,
        inputs: draft.inputs,
        diagnostics,
        id_location: draft.id.map(|(_, location)| location),
        requirements_file: draft.requirements_file,
    };
    let found = validate::check(&preset, &draft.docs, draft.requirements_known);
    preset.diagnostics.extend(found);
    diagnostics::sort(&mut preset.diagnostics);
    Ok(preset)
}

fn is_hagitask(manifest: &Value) -> bool {
    manifest
        .as_object()
        .is_some_and(|m| m.contains_key("ui") || m.contains_key("backend"))
}

/// The directory's own name as the user named it (a symlinked preset keeps its link name).
fn dir_name(dir: &Dir) -> String {
    std::path::absolute(&dir.shown)
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .or_else(|| {
            dir.real
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
        })
        .unwrap_or_default()
}
