//! What the flat and HagiTask forms share: the [`Draft`] a form loader fills, and the
//! parsing of the manifest id, commands, requirements and panel fields.

use std::collections::BTreeSet;
use std::path::PathBuf;

use serde_json::Value;

use crate::report::diagnostics::{Code, Diagnostic};
use crate::report::text::JsonKind;

use super::source::{Doc, Obj, Presence, child};
use super::{Command, Form, Kind, Location, Requirement};

/// What a form loader produces; [`super::load`] turns it into a [`Preset`].
#[derive(Debug)]
pub(crate) struct Draft {
    pub(crate) form: Form,
    /// The manifest's `taskPresetId`, where it was declared.
    pub(crate) id: Option<(String, Location)>,
    pub(crate) commands: Vec<Command>,
    pub(crate) requirements: Vec<Requirement>,
    pub(crate) inputs: Option<BTreeSet<String>>,
    pub(crate) requirements_file: Option<PathBuf>,
    /// False when the requirements file exists but could not be read: then no command
    /// is blamed for a skill the unreadable file may well declare.
    pub(crate) requirements_known: bool,
    /// Every JSON file read, for positions in later checks.
    pub(crate) docs: Vec<Doc>,
    pub(crate) diagnostics: Vec<Diagnostic>,
}

impl Draft {
    pub(crate) fn new(form: Form) -> Draft {
        Draft {
            form,
            id: None,
            commands: Vec::new(),
            requirements: Vec::new(),
            inputs: None,
            requirements_file: None,
            requirements_known: true,
            docs: Vec::new(),
            diagnostics: Vec::new(),
        }
    }
}

/// Reads `taskPresetId` from a manifest: a string matching `^[a-z0-9][a-z0-9-]*$`.
pub(crate) fn manifest_id(
    manifest: &Obj<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<(String, Location)> {
    let id = manifest.string("taskPresetId", Presence::Optional, diagnostics)?;
    let pointer = manifest.pointer_of("taskPresetId");
    let valid = id
        .bytes()
        .next()
        .is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    if !valid {
        diagnostics.push(
            manifest
                .doc
                .diagnostic(
                    Code::InvalidField,
                    format!("`taskPresetId` `{id}` is not a valid preset id"),
                    &pointer,
                )
                .with_help(
                    "use lowercase letters, digits and `-`, starting with a letter or digit",
                ),
        );
    }
    let location = Location {
        file: manifest.doc.path.clone(),
        position: manifest.doc.locate(&pointer),
        pointer,
    };
    Some((id.to_string(), location))
}

/// Parses a commands file. A HagiTask package demands its fields (`selectionMode`,
/// `groups`, and each command's `groupId` and `label`); the flat form needs only `id`.
pub(crate) fn commands(doc: &Doc, form: Form, diagnostics: &mut Vec<Diagnostic>) -> Vec<Command> {
    let hagitask = Presence::in_hagitask(form);
    let Some(root) = doc.root("the commands file", diagnostics) else {
        return Vec::new();
    };
    if let Some(mode) = root.string("selectionMode", hagitask, diagnostics)
        && mode != "single"
        && mode != "multiple"
    {
        diagnostics.push(doc.diagnostic(
            Code::InvalidField,
            format!("`selectionMode` must be `single` or `multiple`, found `{mode}`"),
            &root.pointer_of("selectionMode"),
        ));
    }
    root.string("version", Presence::Optional, diagnostics);
    let groups = root.array("groups", hagitask, diagnostics).map(|items| {
        let mut ids = BTreeSet::new();
        for (index, item) in items.iter().enumerate() {
            let pointer = child(&root.pointer_of("groups"), &index.to_string());
            let what = format!("group `{pointer}`");
            if let Some(group) = Obj::new(doc, item, pointer, what, diagnostics)
                && let Some(id) = group.name("id", Presence::Required, diagnostics)
            {
                ids.insert(id.to_string());
            }
        }
        ids
    });
    let Some(items) = root.array("commands", Presence::Required, diagnostics) else {
        return Vec::new();
    };
    let mut commands = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let pointer = child(&root.pointer_of("commands"), &index.to_string());
        let what = format!("the command at `{pointer}`");
        let Some(mut command) = Obj::new(doc, item, pointer.clone(), what, diagnostics) else {
            continue;
        };
        let id = command.string("id", Presence::Required, diagnostics);
        if let Some(id) = id {
            if id.trim().is_empty() {
                diagnostics.push(doc.diagnostic(
                    Code::InvalidField,
                    format!("the command at `{pointer}` has an empty `id`"),
                    &command.pointer_of("id"),
                ));
            } else {
                command.what = format!("command `{id}`");
            }
        }
        if let Some(group) = command.string("groupId", hagitask, diagnostics)
            && let Some(groups) = &groups
            && !groups.contains(group)
        {
            let known = groups.iter().map(|g| format!("`{g}`")).collect::<Vec<_>>();
            diagnostics.push(
                doc.diagnostic(
                    Code::UnknownCommandGroup,
                    format!(
                        "{} names group `{group}`, which `groups` does not declare",
                        command.what
                    ),
                    &command.pointer_of("groupId"),
                )
                .with_help(if known.is_empty() {
                    format!("add {{\"id\": \"{group}\", ...}} to `groups`")
                } else {
                    format!(
                        "use one of {}, or add `{group}` to `groups`",
                        known.join(", ")
                    )
                }),
            );
        }
        command.string("label", hagitask, diagnostics);
        if form == Form::HagiTask {
            unknown_command_members(&command, diagnostics);
        }
        let skill = skill(&command, diagnostics);
        let (template, template_field) = template(&command, diagnostics);
        if let Some(id) = id.filter(|id| !id.trim().is_empty()) {
            commands.push(Command {
                id: id.to_string(),
                skill,
                template,
                file: doc.path.clone(),
                pointer,
                template_field,
            });
        }
    }
    commands
}

/// The members of a HagiTask command: the published commands schema has
/// `additionalProperties: false`
/// (<https://github.com/HagiCode-org/hagitask/blob/main/schemas/task-preset-plugin/commands.schema.json>).
const COMMAND_MEMBERS: [&str; 7] = [
    "id",
    "groupId",
    "label",
    "skill",
    "description",
    "docsSlug",
    "preludeTemplate",
];

/// A member the schema does not allow (`skills` for `skill`, `prelude` for
/// `preludeTemplate`) is an error naming the closest member: ignored, it would drop the
/// command's binding, and the checks that need it would never run.
fn unknown_command_members(command: &Obj<'_>, diagnostics: &mut Vec<Diagnostic>) {
    for key in command
        .map
        .keys()
        .filter(|k| !COMMAND_MEMBERS.contains(&k.as_str()))
    {
        let near = crate::report::text::closest(key, COMMAND_MEMBERS);
        let help = if near.is_empty() {
            format!(
                "the members of a command are {}",
                super::package::quoted(&COMMAND_MEMBERS)
            )
        } else {
            format!(
                "did you mean {}? The members of a command are {}",
                super::package::quoted(&near),
                super::package::quoted(&COMMAND_MEMBERS)
            )
        };
        diagnostics.push(
            command
                .doc
                .diagnostic(
                    Code::InvalidField,
                    format!("{} has an unknown member `{key}`", command.what),
                    &command.pointer_of(key),
                )
                .with_help(help),
        );
    }
}

/// A missing, `null`, empty or whitespace `skill` is no skill; otherwise it is
/// trimmed. Anything but a string is `invalid-field`: one command binds at most one skill.
fn skill(command: &Obj<'_>, diagnostics: &mut Vec<Diagnostic>) -> Option<String> {
    match command.get("skill")? {
        Value::Null => None,
        Value::String(text) => Some(text.trim().to_string()).filter(|s| !s.is_empty()),
        other => {
            diagnostics.push(
                command
                    .doc
                    .diagnostic(
                        Code::InvalidField,
                        format!(
                            "`skill` of {} must be a string naming one skill, found {}",
                            command.what,
                            JsonKind::of(other).name()
                        ),
                        &command.pointer_of("skill"),
                    )
                    .with_help(
                        "a command binds at most one skill: declare several skills in the \
                         preset's requirements and bind each command to one of them",
                    ),
            );
            None
        }
    }
}

/// `preludeTemplate`, else `prompt`; blank means none.
fn template(
    command: &Obj<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) -> (Option<String>, &'static str) {
    for field in ["preludeTemplate", "prompt"] {
        if command.get(field).is_some() {
            let text = command.string(field, Presence::Optional, diagnostics);
            let text = text.filter(|t| !t.trim().is_empty()).map(str::to_string);
            return (text, field);
        }
    }
    (None, "preludeTemplate")
}

/// Parses `requirements` of a requirements file. HagiTask entries are
/// `{type, name?, names?, command?, args?}`; the flat form also accepts `{key, cacheKey?}`
/// (a skill requirement).
pub(crate) fn requirements(
    root: &Obj<'_>,
    form: Form,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Requirement> {
    let Some(items) = root.array("requirements", Presence::Optional, diagnostics) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let pointer = child(&root.pointer_of("requirements"), &index.to_string());
        let what = format!("the requirement at `{pointer}`");
        let Some(entry) = Obj::new(root.doc, item, pointer, what, diagnostics) else {
            continue;
        };
        let parsed = if form == Form::Flat && entry.get("type").is_none() {
            flat_requirement(&entry, diagnostics)
        } else {
            typed_requirement(&entry, diagnostics)
        };
        out.extend(parsed);
    }
    out
}

fn flat_requirement(entry: &Obj<'_>, diagnostics: &mut Vec<Diagnostic>) -> Option<Requirement> {
    let key = entry.name("key", Presence::Required, diagnostics)?;
    let cache_key = entry
        .name("cacheKey", Presence::Optional, diagnostics)
        .map_or_else(|| format!("skill:{key}"), str::to_string);
    Some(Requirement {
        kind: Kind::Skill,
        key: key.to_string(),
        cache_key,
        command: None,
        args: Vec::new(),
        file: entry.doc.path.clone(),
        pointer: entry.pointer.clone(),
    })
}

fn typed_requirement(entry: &Obj<'_>, diagnostics: &mut Vec<Diagnostic>) -> Option<Requirement> {
    let kind = match entry.string("type", Presence::Required, diagnostics)? {
        "skills" => Kind::Skill,
        "cli" => Kind::Cli,
        "agent" => Kind::Agent,
        other => {
            diagnostics.push(entry.doc.diagnostic(
                Code::InvalidField,
                format!(
                    "`type` of {} must be `skills`, `cli` or `agent`, found `{other}`",
                    entry.what
                ),
                &entry.pointer_of("type"),
            ));
            return None;
        }
    };
    let name = entry.name("name", Presence::Optional, diagnostics);
    let names = entry.strings("names", Presence::Optional, diagnostics);
    let command = entry
        .name("command", Presence::Optional, diagnostics)
        .map(str::to_string);
    let args = entry
        .strings("args", Presence::Optional, diagnostics)
        .unwrap_or_default()
        .into_iter()
        .map(str::to_string)
        .collect();
    let key = match (kind, name, names) {
        (_, Some(name), _) => name.to_string(),
        (Kind::Agent, None, Some(names)) if !names.is_empty() => {
            names.iter().map(|n| n.trim()).collect::<Vec<_>>().join(",")
        }
        _ => {
            let needs = if kind == Kind::Agent {
                "`name` or `names`"
            } else {
                "`name`"
            };
            diagnostics.push(entry.doc.diagnostic(
                Code::InvalidField,
                format!("{} has no {needs}", entry.what),
                &entry.pointer,
            ));
            return None;
        }
    };
    Some(Requirement {
        kind,
        cache_key: format!("{}:{key}", kind.as_str()),
        key,
        command,
        args,
        file: entry.doc.path.clone(),
        pointer: entry.pointer.clone(),
    })
}

/// The `output` of every panel field: `sections[].fields[]`, and (flat form) `fields[]`.
pub(crate) fn panel_outputs<'a>(
    doc: &'a Doc,
    form: Form,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<&'a str> {
    let hagitask = Presence::in_hagitask(form);
    let Some(root) = doc.root("the panel", diagnostics) else {
        return Vec::new();
    };
    let mut outputs = Vec::new();
    let mut fields = |owner: &Obj<'a>, presence: Presence, diagnostics: &mut Vec<Diagnostic>| {
        for (index, item) in owner
            .array("fields", presence, diagnostics)
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            let pointer = child(&owner.pointer_of("fields"), &index.to_string());
            let what = format!("the field at `{pointer}`");
            if let Some(field) = Obj::new(doc, item, pointer, what, diagnostics) {
                outputs.extend(field.name("output", hagitask, diagnostics));
            }
        }
    };
    let sections = root
        .array("sections", hagitask, diagnostics)
        .unwrap_or_default();
    for (index, item) in sections.iter().enumerate() {
        let pointer = child(&root.pointer_of("sections"), &index.to_string());
        let what = format!("the section at `{pointer}`");
        if let Some(section) = Obj::new(doc, item, pointer, what, diagnostics) {
            fields(&section, hagitask, diagnostics);
        }
    }
    if form == Form::Flat {
        fields(&root, Presence::Optional, diagnostics);
    }
    outputs
}

/// The names `inputBindings` provide (`input` and `promptParameter`).
pub(crate) fn binding_inputs<'a>(
    root: &Obj<'a>,
    presence: Presence,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Vec<&'a str>> {
    let items = root.array("inputBindings", presence, diagnostics)?;
    let mut names = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let pointer = child(&root.pointer_of("inputBindings"), &index.to_string());
        let what = format!("the input binding at `{pointer}`");
        if let Some(binding) = Obj::new(root.doc, item, pointer, what, diagnostics) {
            names.extend(binding.name("input", Presence::Required, diagnostics));
            names.extend(binding.name("promptParameter", Presence::Optional, diagnostics));
        }
    }
    Some(names)
}

/// The names `inputs[].name` of a prompts file provide.
pub(crate) fn prompt_inputs<'a>(
    root: &Obj<'a>,
    presence: Presence,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Vec<&'a str>> {
    let items = root.array("inputs", presence, diagnostics)?;
    let mut names = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let pointer = child(&root.pointer_of("inputs"), &index.to_string());
        let what = format!("the input at `{pointer}`");
        if let Some(input) = Obj::new(root.doc, item, pointer, what, diagnostics) {
            names.extend(input.name("name", Presence::Required, diagnostics));
        }
    }
    Some(names)
}
