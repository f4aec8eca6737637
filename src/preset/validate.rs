//! Cross-validation of a loaded preset (the rules of [`crate::docs::presets`]): the binding (`commands[].skill`)
//! against the gate (the requirements), duplicate ids and requirements, placeholders no
//! input provides, and templates that start with another skill's slash command. Plus the
//! one check that needs a whole collection: two presets with one id.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::report::diagnostics::{Code, Diagnostic};

use super::render::{self, COMMAND_ID};
use super::source::{Doc, child};
use super::{Command, Form, Preset};

/// The checks on one preset; `docs` are its parsed files, for line and column. Without
/// `requirements_known` (the requirements file is broken, which is reported already) the
/// binding is not checked against the gate.
pub(crate) fn check(preset: &Preset, docs: &[Doc], requirements_known: bool) -> Vec<Diagnostic> {
    let mut checker = Checker {
        preset,
        docs,
        out: Vec::new(),
    };
    checker.command_ids();
    if requirements_known {
        checker.bindings();
    }
    checker.requirements();
    checker.templates();
    checker.out
}

/// One preset's cross-checks, collecting diagnostics.
struct Checker<'p> {
    preset: &'p Preset,
    docs: &'p [Doc],
    out: Vec<Diagnostic>,
}

impl Checker<'_> {
    /// A diagnostic at `pointer` in `file`, located through that file's locator.
    fn push(&mut self, file: &Path, pointer: &str, code: Code, message: String, help: String) {
        let position = self
            .docs
            .iter()
            .find(|d| d.path == file)
            .and_then(|d| d.locate(pointer));
        self.out.push(
            Diagnostic::new(code, message)
                .in_file(file)
                .at(pointer, position)
                .with_help(help),
        );
    }

    /// `duplicate-command-id`.
    fn command_ids(&mut self) {
        let mut ids = BTreeSet::new();
        for command in &self.preset.commands {
            if !ids.insert(command.id.as_str()) {
                self.push(
                    &command.file,
                    &child(&command.pointer, "id"),
                    Code::DuplicateCommandId,
                    format!("command id `{}` is used twice", command.id),
                    "give every command a unique `id`".into(),
                );
            }
        }
    }

    /// `command-skill-not-in-requirements`: the gate.
    fn bindings(&mut self) {
        for command in &self.preset.commands {
            if let Some(skill) = &command.skill
                && !self.preset.requires_skill(skill)
            {
                self.push(
                    &command.file,
                    &child(&command.pointer, "skill"),
                    Code::CommandSkillNotInRequirements,
                    format!(
                        "command `{}` is bound to skill `{skill}`, which no requirement declares",
                        command.id
                    ),
                    declare_skill_help(self.preset, skill),
                );
            }
        }
    }

    /// `duplicate-requirement`.
    fn requirements(&mut self) {
        let mut cache_keys: BTreeMap<&str, &str> = BTreeMap::new();
        for requirement in &self.preset.requirements {
            match cache_keys.get(requirement.cache_key.as_str()) {
                Some(first) => self.push(
                    &requirement.file,
                    &requirement.pointer,
                    Code::DuplicateRequirement,
                    format!(
                        "requirement `{}` is declared twice (first at `{first}`)",
                        requirement.cache_key
                    ),
                    "delete the repeat; several commands bound to one skill need one requirement"
                        .into(),
                ),
                None => {
                    cache_keys.insert(&requirement.cache_key, &requirement.pointer);
                }
            }
        }
    }

    /// `unknown-placeholder` and `conflicting-prelude` in each command's template.
    fn templates(&mut self) {
        for command in &self.preset.commands {
            let Some(template) = &command.template else {
                continue;
            };
            let pointer = child(&command.pointer, command.template_field);
            if let Some(inputs) = &self.preset.inputs {
                for name in render::placeholders(template) {
                    if name != COMMAND_ID && !inputs.contains(name) {
                        self.push(
                            &command.file,
                            &pointer,
                            Code::UnknownPlaceholder,
                            format!(
                                "command `{}` uses `{{{name}}}`, which no panel field, input or `commandId` provides",
                                command.id
                            ),
                            placeholder_help(name, inputs),
                        );
                    }
                }
            }
            if let Some(message) = conflicting_prelude(command) {
                self.push(
                    &command.file,
                    &pointer,
                    Code::ConflictingPrelude,
                    message,
                    "bind the command to the skill its template starts with, or drop that \
                     slash command from the template"
                        .into(),
                );
            }
        }
    }
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
        .or_else(|| {
            inputs
                .iter()
                .find(|known| strsim::levenshtein(known, name) <= 2)
        });
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

/// `duplicate-preset-id`: every preset whose id another preset of the collection shares.
pub(crate) fn check_collection(presets: &mut [Preset]) {
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
            crate::report::diagnostics::sort(&mut preset.diagnostics);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_inputs_are_suggested() {
        let inputs: BTreeSet<String> = ["topic", "Audience"].map(String::from).into();
        assert_eq!(
            placeholder_help("topci", &inputs),
            "did you mean `{topic}`?"
        );
        assert_eq!(
            placeholder_help("audience", &inputs),
            "did you mean `{Audience}`?"
        );
        assert!(placeholder_help("zzzzzz", &inputs).starts_with("declare an input"));
    }
}
