//! The task preset's checks from HagiCode's own validator (`hagitask validate`): the
//! required members, the target scope sources, `execution`, input bindings and the
//! members each requirement type allows. They follow the published task-preset schema
//! (<https://github.com/HagiCode-org/hagitask/tree/main/schemas/task-preset-plugin>);
//! members it does not constrain are left alone.

use std::collections::HashSet;

use serde_json::Value;

use crate::report::diagnostics::{Code, Diagnostic};

use super::package::{no_unknown, one_of, quoted, require};
use super::source::{Obj, Presence, child};

/// The agent ids a requirement may name: the `canonicalAgentId` enum of the earlier
/// task-preset schema (<https://github.com/HagiCode-org/hagitask/blob/82154c1958ba059ff8a125db844fa801bcc54a9c/schemas/task-preset-plugin/task-preset.schema.json>);
/// the current schema no longer lists them.
const AGENTS: [&str; 14] = [
    "claude",
    "codex",
    "copilot",
    "codebuddy",
    "iflow",
    "opencode",
    "hermes",
    "qoder",
    "kiro",
    "kimi",
    "gemini",
    "deepagents",
    "reasonix",
    "pi",
];

const SCOPE_SOURCES: [&str; 3] = [
    "owner-project-repositories",
    "vault-registry",
    "project-registry",
];

/// The task preset's required members, targets, `execution`, input bindings and the
/// members of each requirement.
pub(crate) fn check(root: &Obj<'_>, diagnostics: &mut Vec<Diagnostic>) {
    require(
        root,
        // `inputBindings` is the loader's.
        &["taskKey", "scriptKey", "defaultTargetType", "targets"],
        diagnostics,
    );
    let types = ["repository", "vault", "project"];
    one_of(
        root,
        "defaultTargetType",
        &types,
        Code::InvalidField,
        diagnostics,
    );
    if let Some(targets) = root.object("targets", "`targets`", Presence::Optional, diagnostics) {
        check_targets(&targets, diagnostics);
    }
    if let Some(execution) =
        root.object("execution", "`execution`", Presence::Optional, diagnostics)
    {
        check_execution(&execution, diagnostics);
    }
    for binding in objects(root, "inputBindings", "the input binding", diagnostics) {
        check_binding(&binding, diagnostics);
    }
    for requirement in objects(root, "requirements", "the requirement", diagnostics) {
        check_requirement(&requirement, diagnostics);
    }
}

/// The object elements of an array member (others are reported by the loader).
fn objects<'a>(
    root: &Obj<'a>,
    key: &str,
    what: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Obj<'a>> {
    let Some(Value::Array(items)) = root.get(key) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let pointer = child(&root.pointer_of(key), &index.to_string());
        if item.is_object() {
            let what = format!("{what} at `{pointer}`");
            out.extend(Obj::new(root.doc, item, pointer, what, diagnostics));
        }
    }
    out
}

fn check_targets(targets: &Obj<'_>, diagnostics: &mut Vec<Diagnostic>) {
    for kind in ["repositories", "vaults", "projects"] {
        let what = format!("`targets.{kind}`");
        let Some(target) = targets.object(kind, &what, Presence::Required, diagnostics) else {
            continue;
        };
        let enabled = target.get("enabled");
        if !matches!(enabled, Some(Value::Bool(_))) {
            diagnostics.push(target.doc.diagnostic(
                Code::InvalidField,
                format!("{what} needs `enabled`: true or false"),
                &target.pointer,
            ));
        }
        if enabled == Some(&Value::Bool(true)) && target.get("selections").is_none() {
            diagnostics.push(target.doc.diagnostic(
                Code::InvalidField,
                format!("{what} is enabled but has no `selections`"),
                &target.pointer,
            ));
        }
        let selections = target.array("selections", Presence::Optional, diagnostics);
        for (index, item) in selections.unwrap_or_default().iter().enumerate() {
            let pointer = child(&target.pointer_of("selections"), &index.to_string());
            let what = format!("the selection at `{pointer}`");
            if let Some(selection) = Obj::new(target.doc, item, pointer, what, diagnostics) {
                check_scope(&selection, diagnostics);
            }
        }
    }
}

/// A selection's `scope.source` names one of the lists HagiCode fills selections from.
fn check_scope(selection: &Obj<'_>, diagnostics: &mut Vec<Diagnostic>) {
    let id = selection
        .string("id", Presence::Optional, diagnostics)
        .unwrap_or("?");
    let what = format!("the scope of selection `{id}`");
    if let Some(scope) = selection.object("scope", &what, Presence::Optional, diagnostics)
        && let Some(source) = scope.string("source", Presence::Required, diagnostics)
        && !SCOPE_SOURCES.contains(&source)
    {
        diagnostics.push(
            scope
                .doc
                .diagnostic(
                    Code::UnsupportedScopeSource,
                    format!("selection `{id}` uses unsupported scope source `{source}`"),
                    &scope.pointer_of("source"),
                )
                .with_help(format!("use one of {}", quoted(&SCOPE_SOURCES))),
        );
    }
}

fn check_execution(execution: &Obj<'_>, diagnostics: &mut Vec<Diagnostic>) {
    let code = Code::InvalidExecution;
    no_unknown(
        execution,
        &["schemaVersion", "strategy", "extensionPoint"],
        code,
        diagnostics,
    );
    let problem = |pointer: &str, message: String| {
        execution.doc.diagnostic(code, message, pointer).with_help(
            "declare {\"schemaVersion\": \"1.0\", \"strategy\": \"declarative\"}, or \
             \"strategy\": \"extension\" with an `extensionPoint`",
        )
    };
    match execution.string("schemaVersion", Presence::Optional, diagnostics) {
        Some(version) if version.starts_with("1.") => {}
        Some(version) => diagnostics.push(problem(
            &execution.pointer_of("schemaVersion"),
            format!("`execution.schemaVersion` must be 1.x, found `{version}`"),
        )),
        None if execution.get("schemaVersion").is_none() => diagnostics.push(problem(
            &execution.pointer,
            "`execution` has no `schemaVersion`".to_string(),
        )),
        None => {}
    }
    let point = execution.get("extensionPoint");
    match execution.string("strategy", Presence::Optional, diagnostics) {
        Some("extension") if point.is_none() => diagnostics.push(problem(
            &execution.pointer,
            "`execution.extensionPoint` is required for the `extension` strategy".to_string(),
        )),
        Some("declarative") if point.is_some() => diagnostics.push(problem(
            &execution.pointer_of("extensionPoint"),
            "`execution.extensionPoint` must be omitted for the `declarative` strategy".to_string(),
        )),
        Some("extension" | "declarative") => {}
        Some(other) => diagnostics.push(problem(
            &execution.pointer_of("strategy"),
            format!("`execution.strategy` must be `declarative` or `extension`, found `{other}`"),
        )),
        None if execution.get("strategy").is_none() => diagnostics.push(problem(
            &execution.pointer,
            "`execution` has no `strategy`".to_string(),
        )),
        None => {}
    }
    if let Some(point) = execution.string("extensionPoint", Presence::Optional, diagnostics)
        && !is_extension_point(point)
    {
        diagnostics.push(problem(
            &execution.pointer_of("extensionPoint"),
            format!("`execution.extensionPoint` `{point}` is not lowercase dotted words"),
        ));
    }
}

/// `^[a-z][a-z0-9.-]*$`
fn is_extension_point(point: &str) -> bool {
    point.bytes().next().is_some_and(|b| b.is_ascii_lowercase())
        && point
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'.' || b == b'-')
}

fn check_binding(binding: &Obj<'_>, diagnostics: &mut Vec<Diagnostic>) {
    let code = Code::InvalidInputBinding;
    no_unknown(
        binding,
        &[
            "input",
            "promptParameter",
            "metadataKey",
            "valueType",
            "transform",
            "aliases",
            "producer",
            "required",
        ],
        code,
        diagnostics,
    );
    let value_types = ["text", "boolean", "single", "multiple", "url-list"];
    one_of(binding, "valueType", &value_types, code, diagnostics);
    let transforms = ["trim", "string-list", "url-list"];
    one_of(binding, "transform", &transforms, code, diagnostics);
    let producers = ["field-output", "frontend-computed", "runtime-defaulted"];
    one_of(binding, "producer", &producers, code, diagnostics);
    let input = binding.get("input").and_then(Value::as_str).unwrap_or("");
    let name = if input.is_empty() {
        binding.what.clone()
    } else {
        format!("input binding `{input}`")
    };
    if binding.get("promptParameter").is_none() && binding.get("metadataKey").is_none() {
        diagnostics.push(
            binding
                .doc
                .diagnostic(
                    code,
                    format!("{name} has neither `promptParameter` nor `metadataKey`"),
                    &binding.pointer,
                )
                .with_help("name the prompt parameter or the metadata key the input fills"),
        );
    }
    if let Some(aliases) = binding.strings("aliases", Presence::Optional, diagnostics) {
        let mut seen = HashSet::new();
        for (index, alias) in aliases.iter().enumerate() {
            let pointer = child(&binding.pointer_of("aliases"), &index.to_string());
            let message = if *alias == input {
                format!("{name} lists its own name among its `aliases`")
            } else if !seen.insert(*alias) {
                format!("{name} lists alias `{alias}` twice")
            } else {
                continue;
            };
            diagnostics.push(
                binding
                    .doc
                    .diagnostic(code, message, &pointer)
                    .with_help("delete this alias: aliases are the other names of the input"),
            );
        }
    }
    let transform = binding.get("transform").and_then(Value::as_str);
    let value_type = binding.get("valueType").and_then(Value::as_str);
    if transform == Some("url-list") && value_type != Some("url-list") {
        diagnostics.push(
            binding
                .doc
                .diagnostic(
                    code,
                    format!(
                        "{name} has `transform: url-list` but its `valueType` is not `url-list`"
                    ),
                    &binding.pointer_of("transform"),
                )
                .with_help("set \"valueType\": \"url-list\", or use another transform"),
        );
    }
}

/// The members each requirement type allows. `type` itself and a missing `name` are the
/// loader's (`invalid-field`).
fn check_requirement(requirement: &Obj<'_>, diagnostics: &mut Vec<Diagnostic>) {
    let code = Code::InvalidRequirement;
    no_unknown(
        requirement,
        &["type", "name", "names", "command", "args"],
        code,
        diagnostics,
    );
    let Some(kind) = requirement.get("type").and_then(Value::as_str) else {
        return;
    };
    let forbidden: &[&str] = match kind {
        "cli" => &["names"],
        "skills" => &["command", "names"],
        "agent" => &["command", "args"],
        _ => return,
    };
    for key in forbidden.iter().filter(|k| requirement.get(k).is_some()) {
        diagnostics.push(
            requirement
                .doc
                .diagnostic(
                    code,
                    format!("the `{kind}` requirement must not have `{key}`"),
                    &requirement.pointer_of(key),
                )
                .with_help(requirement_help(kind)),
        );
    }
    if kind != "agent" {
        return;
    }
    let name = requirement.get("name").and_then(Value::as_str);
    if name.is_some() && requirement.get("names").is_some() {
        diagnostics.push(
            requirement
                .doc
                .diagnostic(
                    code,
                    "the `agent` requirement has both `name` and `names`",
                    &requirement.pointer,
                )
                .with_help(requirement_help(kind)),
        );
    }
    let mut agents: Vec<(String, &str)> = Vec::new();
    if let Some(name) = name.filter(|n| *n != "any") {
        agents.push((requirement.pointer_of("name"), name));
    }
    if let Some(Value::Array(names)) = requirement.get("names") {
        for (index, name) in names.iter().enumerate() {
            if let Value::String(name) = name {
                let pointer = child(&requirement.pointer_of("names"), &index.to_string());
                agents.push((pointer, name));
            }
        }
    }
    let mut seen = HashSet::new();
    for (pointer, agent) in agents {
        let (message, help) = if !AGENTS.contains(&agent) {
            let help = format!("use `any`, or one of {}", quoted(&AGENTS));
            (format!("`{agent}` is not a known agent id"), help)
        } else if !seen.insert(agent) {
            let help = "delete the repeat: `names` are alternatives".to_string();
            (format!("agent `{agent}` is named twice"), help)
        } else {
            continue;
        };
        diagnostics.push(
            requirement
                .doc
                .diagnostic(code, message, &pointer)
                .with_help(help),
        );
    }
}

fn requirement_help(kind: &str) -> &'static str {
    match kind {
        "cli" => "a `cli` requirement is {\"name\", \"command\"?, \"args\"?}",
        "skills" => "a `skills` requirement is {\"name\"}: the skill is probed by name",
        _ => {
            "an `agent` requirement is {\"name\": \"any\" or an agent id} or {\"names\": [agent ids]}"
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::super::source::Doc;
    use super::*;

    fn execution(json: &str) -> Vec<String> {
        let doc = Doc {
            path: PathBuf::from("task-preset.json"),
            rel: PathBuf::from("task-preset.json"),
            text: json.to_string(),
            value: serde_json::from_str(json).unwrap(),
            locator: crate::report::jsonpos::Locator::default(),
        };
        let mut diagnostics = Vec::new();
        let root = doc.root("`execution`", &mut diagnostics).unwrap();
        check_execution(&root, &mut diagnostics);
        diagnostics
            .into_iter()
            .map(|d| d.message.into_string())
            .collect()
    }

    #[test]
    fn execution_is_one_x_with_a_known_strategy() {
        let declarative = r#"{"schemaVersion": "1.0", "strategy": "declarative"}"#;
        assert!(execution(declarative).is_empty());
        let extension =
            r#"{"schemaVersion": "1.3", "strategy": "extension", "extensionPoint": "a.b-c2"}"#;
        assert!(execution(extension).is_empty());
        assert_eq!(
            execution(r#"{"schemaVersion": "2.0", "strategy": "declarative"}"#),
            ["`execution.schemaVersion` must be 1.x, found `2.0`"]
        );
        assert_eq!(
            execution(
                r#"{"schemaVersion": "1.0", "strategy": "declarative", "extensionPoint": "a"}"#
            ),
            ["`execution.extensionPoint` must be omitted for the `declarative` strategy"]
        );
        assert_eq!(
            execution(r#"{"schemaVersion": "1.0", "strategy": "script"}"#),
            ["`execution.strategy` must be `declarative` or `extension`, found `script`"]
        );
        assert_eq!(
            execution(
                r#"{"schemaVersion": "1.0", "strategy": "extension", "extensionPoint": "Tasks"}"#
            ),
            ["`execution.extensionPoint` `Tasks` is not lowercase dotted words"]
        );
        assert_eq!(
            execution(r#"{"timeout": 5}"#),
            [
                "`execution` has an unknown member `timeout`",
                "`execution` has no `schemaVersion`",
                "`execution` has no `strategy`",
            ]
        );
    }
}
