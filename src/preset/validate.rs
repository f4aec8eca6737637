//! Cross-validation of a loaded preset (the rules of [`crate::docs::presets`]): the binding (`commands[].skill`)
//! against the gate (the requirements), duplicate ids and requirements, placeholders no
//! input provides, and templates that start with another skill's slash command. Plus the
//! one check that needs a whole collection: two presets with one id.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::diagnostics::{Code, Diagnostic};

use super::render::{self, COMMAND_ID};
use super::source::{Doc, child};
use super::{Command, Form, Preset};

/// The checks on one preset; `docs` are its parsed files, for line and column. Without
/// `requirements_known` (the requirements file is broken, which is reported already) the
/// binding is not checked against the gate.
pub(crate) fn check(preset: &Preset, docs: &[Doc], requirements_known: bool) -> Vec<Diagnostic> {
    let at = |file: &Path, pointer: &str, code: Code, message: String| {
        let position = docs
            .iter()
            .find(|d| d.path == file)
            .and_then(|d| d.locate(pointer));
        Diagnostic::new(code, message)
            .in_file(file)
            .at(pointer, position)
    };
    let mut out = Vec::new();

    let mut ids = BTreeSet::new();
    for command in &preset.commands {
        if !ids.insert(command.id.as_str()) {
            out.push(
                at(
                    &command.file,
                    &child(&command.pointer, "id"),
                    Code::DuplicateCommandId,
                    format!("command id `{}` is used twice", command.id),
                )
                .with_help("give every command a unique `id`"),
            );
        }
    }

    for command in preset.commands.iter().filter(|_| requirements_known) {
        if let Some(skill) = &command.skill
            && !preset.requires_skill(skill)
        {
            out.push(
                at(
                    &command.file,
                    &child(&command.pointer, "skill"),
                    Code::CommandSkillNotInRequirements,
                    format!(
                        "command `{}` is bound to skill `{skill}`, which no requirement declares",
                        command.id
                    ),
                )
                .with_help(declare_skill_help(preset, skill)),
            );
        }
    }

    let mut cache_keys: BTreeMap<&str, &str> = BTreeMap::new();
    for requirement in &preset.requirements {
        match cache_keys.get(requirement.cache_key.as_str()) {
            Some(first) => out.push(
                at(
                    &requirement.file,
                    &requirement.pointer,
                    Code::DuplicateRequirement,
                    format!(
                        "requirement `{}` is declared twice (first at `{first}`)",
                        requirement.cache_key
                    ),
                )
                .with_help(
                    "delete the repeat; several commands bound to one skill need one requirement",
                ),
            ),
            None => {
                cache_keys.insert(&requirement.cache_key, &requirement.pointer);
            }
        }
    }

    for command in &preset.commands {
        let Some(template) = &command.template else {
            continue;
        };
        let pointer = child(&command.pointer, command.template_field);
        if let Some(inputs) = &preset.inputs {
            for name in render::placeholders(template) {
                if name != COMMAND_ID && !inputs.contains(name) {
                    out.push(
                        at(
                            &command.file,
                            &pointer,
                            Code::UnknownPlaceholder,
                            format!(
                                "command `{}` uses `{{{name}}}`, which no panel field, input or `commandId` provides",
                                command.id
                            ),
                        )
                        .with_help(placeholder_help(name, inputs)),
                    );
                }
            }
        }
        if let Some(message) = conflicting_prelude(command) {
            out.push(
                at(&command.file, &pointer, Code::ConflictingPrelude, message).with_help(
                    "bind the command to the skill its template starts with, or drop that \
                     slash command from the template",
                ),
            );
        }
    }
    out
}

/// Where to declare a missing skill, in the preset's own requirements syntax.
fn declare_skill_help(preset: &Preset, skill: &str) -> String {
    let file = preset.requirements_file.as_ref().map(|f| {
        f.components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/")
    });
    match (preset.form, file) {
        (Form::HagiTask, Some(file)) => {
            format!(r#"add {{"type": "skills", "name": "{skill}"}} to {file}"#)
        }
        (Form::HagiTask, None) => format!(
            r#"add {{"type": "skills", "name": "{skill}"}} to the `requirements` of the task preset file"#
        ),
        (Form::Flat, Some(file)) => {
            format!(
                r#"add {{"key": "{skill}", "cacheKey": "skill:{skill}"}} to `requirements` in {file}"#
            )
        }
        (Form::Flat, None) => format!(
            r#"create task-preset.json with {{"requirements": [{{"key": "{skill}", "cacheKey": "skill:{skill}"}}]}}"#
        ),
    }
}

fn placeholder_help(name: &str, inputs: &BTreeSet<String>) -> String {
    let near = inputs
        .iter()
        .find(|known| known.eq_ignore_ascii_case(name))
        .or_else(|| inputs.iter().find(|known| edit_distance(known, name) <= 2));
    match near {
        Some(known) => format!("did you mean `{{{known}}}`?"),
        None => format!(
            "declare an input named `{name}` (a panel field `output` or an input binding), or correct the spelling"
        ),
    }
}

/// Bound to S, but the template starts with another slash command `/T`.
fn conflicting_prelude(command: &Command) -> Option<String> {
    let skill = command.skill.as_deref()?;
    let leading = render::leading_slash_command(command.template.as_deref()?)?;
    (leading != skill).then(|| {
        format!(
            "command `{}` is bound to skill `{skill}` but its template starts with `/{leading}`; it renders as `/{skill} /{leading} …`",
            command.id
        )
    })
}

/// Levenshtein distance, for "did you mean" (names are short).
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let next = (diagonal + usize::from(ca != cb))
                .min(row[j] + 1)
                .min(row[j + 1] + 1);
            diagonal = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// `duplicate-preset-id`: every preset whose id another preset of the collection shares.
pub fn check_collection(presets: &mut [Preset]) {
    let mut by_id: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (index, preset) in presets.iter().enumerate() {
        by_id.entry(preset.id.clone()).or_default().push(index);
    }
    for (id, indices) in by_id.into_iter().filter(|(_, i)| i.len() > 1) {
        for &index in &indices {
            let others: Vec<String> = indices
                .iter()
                .filter(|&&other| other != index)
                .map(|&other| format!("`{}`", presets[other].dir.display()))
                .collect();
            let preset = &mut presets[index];
            let mut diagnostic = Diagnostic::new(
                Code::DuplicatePresetId,
                format!("preset id `{id}` is also used by {}", others.join(", ")),
            )
            .with_help("give each preset a unique `taskPresetId` and directory name");
            diagnostic = match &preset.id_location {
                Some(location) => diagnostic
                    .in_file(&location.file)
                    .at(location.pointer.clone(), location.position),
                None => diagnostic.in_file(&preset.dir),
            };
            preset.diagnostics.push(diagnostic);
            crate::diagnostics::sort(&mut preset.diagnostics);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(edit_distance("topic", "topic"), 0);
        assert_eq!(edit_distance("topic", "topci"), 2);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
}
