//! The package checks of HagiCode's own validator (`hagitask validate`) that loading does
//! not need: localization and its bundles, the store page and its frontmatter, the target
//! scope sources, `execution`, input bindings, the members each requirement type allows,
//! the prompt package's locales, and every JSON file of the package parsing with a
//! resolvable `$schema`.
//!
//! The rules follow the published task-preset-plugin schemas
//! (<https://github.com/HagiCode-org/hagitask/tree/main/schemas/task-preset-plugin>) and the
//! community packages' validator
//! (<https://github.com/HagiCode-org/hagitask-community-packages/blob/main/scripts/validate-community-packages.mjs>).
//! Members the schemas do not constrain are left alone.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::diagnostics::{Code, Diagnostic};

use super::frontmatter;
use super::load::LoadError;
use super::source::{Dir, Doc, Obj, Resolved, child, kind_of};

/// The schema files a `$schema` may name after `schemas/task-preset-plugin/`.
const SCHEMAS: [&str; 7] = [
    "commands.schema.json",
    "locales.schema.json",
    "manifest.schema.json",
    "panel.schema.json",
    "prompt-package.schema.json",
    "store-page-frontmatter.schema.json",
    "task-preset.schema.json",
];
const SCHEMA_DIR: &str = "schemas/task-preset-plugin/";

/// The agent ids a requirement may name (the task-preset schema's agent enum).
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

/// Reports each member of `obj` that `required` names and `obj` lacks.
fn require(obj: &Obj<'_>, required: &[&str], diagnostics: &mut Vec<Diagnostic>) {
    for key in required {
        if obj.get(key).is_none() {
            diagnostics.push(obj.doc.diagnostic(
                Code::InvalidField,
                format!("{} has no `{key}`", obj.what),
                &obj.pointer,
            ));
        }
    }
}

/// Reports a string member that is not one of `allowed` (with `code`).
fn one_of(
    obj: &Obj<'_>,
    key: &str,
    allowed: &[&str],
    code: Code,
    diagnostics: &mut Vec<Diagnostic>,
) {
    if let Some(value) = obj.string(key, false, diagnostics)
        && !allowed.contains(&value)
    {
        diagnostics.push(obj.doc.diagnostic(
            code,
            format!(
                "`{key}` of {} is `{value}`, which is not one of {}",
                obj.what,
                quoted(allowed)
            ),
            &obj.pointer_of(key),
        ));
    }
}

/// Reports each member of `obj` that `known` does not list (the schemas forbid others).
fn no_unknown(obj: &Obj<'_>, known: &[&str], code: Code, diagnostics: &mut Vec<Diagnostic>) {
    for key in obj.map.keys().filter(|k| !known.contains(&k.as_str())) {
        diagnostics.push(
            obj.doc
                .diagnostic(
                    code,
                    format!("{} has an unknown member `{key}`", obj.what),
                    &obj.pointer_of(key),
                )
                .with_help(format!("the members allowed here are {}", quoted(known))),
        );
    }
}

fn quoted(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

// --- manifest.json ---------------------------------------------------------------------

/// The manifest's required members, its localization and its store page. Returns the
/// supported locales, when the manifest declares them.
pub(crate) fn check_manifest(
    dir: &Dir,
    root: &Obj<'_>,
    task_id: Option<&str>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<Option<BTreeSet<String>>, LoadError> {
    require(
        root,
        &[
            "schemaVersion",
            "taskPresetId",
            "version",
            "displayName",
            "description",
            "kind",
            "status",
            "localization",
        ],
        diagnostics,
    );
    let kinds = ["custom-executor", "session-automation", "proposal-stage"];
    one_of(root, "kind", &kinds, Code::InvalidField, diagnostics);
    let statuses = ["active", "experimental", "disabled"];
    one_of(root, "status", &statuses, Code::InvalidField, diagnostics);
    let supported = check_localization(dir, root, diagnostics);
    check_store_page(dir, root, task_id, supported.as_ref(), diagnostics)?;
    Ok(supported)
}

fn check_localization(
    dir: &Dir,
    root: &Obj<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<BTreeSet<String>> {
    let localization = root.object("localization", "`localization`", false, diagnostics)?;
    require(
        &localization,
        &["strategy", "namespace", "defaultLocale", "supportedLocales"],
        diagnostics,
    );
    let strategies = ["plugin-bundles", "host-i18n-bridge"];
    one_of(
        &localization,
        "strategy",
        &strategies,
        Code::InvalidField,
        diagnostics,
    );
    let listed = localization.strings("supportedLocales", false, diagnostics)?;
    let supported: BTreeSet<String> = listed.iter().map(|l| l.to_string()).collect();
    if supported.is_empty() {
        diagnostics.push(localization.doc.diagnostic(
            Code::InvalidField,
            "`localization.supportedLocales` is empty",
            &localization.pointer_of("supportedLocales"),
        ));
    }
    if let Some(default) = localization.string("defaultLocale", false, diagnostics)
        && !supported.contains(default)
    {
        diagnostics.push(
            localization
                .doc
                .diagnostic(
                    Code::DefaultLocaleNotSupported,
                    format!("default locale `{default}` is not in `supportedLocales`"),
                    &localization.pointer_of("defaultLocale"),
                )
                .with_help(format!(
                    "add `{default}` to `supportedLocales`, or make one of {} the default",
                    quoted(&listed)
                )),
        );
    }
    // Bundles are required only for the `plugin-bundles` strategy (the manifest schema).
    let bundled = localization.get("strategy") == Some(&Value::from("plugin-bundles"));
    let what = "`localization.bundles`";
    if let Some(bundles) = localization.object("bundles", what, bundled, diagnostics) {
        for (locale, path) in bundles.map {
            let pointer = bundles.pointer_of(locale);
            match path {
                Value::String(path) => {
                    dir.check_declared(bundles.doc, &pointer, Path::new(""), path, diagnostics)
                }
                other => diagnostics.push(bundles.doc.diagnostic(
                    Code::InvalidField,
                    format!(
                        "the bundle of `{locale}` must be a path, found {}",
                        kind_of(other)
                    ),
                    &pointer,
                )),
            }
        }
        for locale in listed.iter().filter(|l| !bundles.map.contains_key(**l)) {
            diagnostics.push(
                bundles
                    .doc
                    .diagnostic(
                        Code::MissingLocaleBundle,
                        format!("supported locale `{locale}` has no bundle"),
                        &bundles.pointer,
                    )
                    .with_help(format!(
                        "add \"{locale}\": \"./locales/{locale}.json\" to `localization.bundles` and create the file"
                    )),
            );
        }
    }
    Some(supported)
}

/// `site.storePage` must be a directory inside the package with one `index.<locale>.md`
/// per supported locale; every such page's frontmatter is checked.
fn check_store_page(
    dir: &Dir,
    root: &Obj<'_>,
    task_id: Option<&str>,
    supported: Option<&BTreeSet<String>>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<(), LoadError> {
    let Some(site) = root.object("site", "`site`", true, diagnostics) else {
        return Ok(());
    };
    let Some(declared) = site.string("storePage", true, diagnostics) else {
        return Ok(());
    };
    let pointer = site.pointer_of("storePage");
    let store = match dir.resolve_dir(Path::new(""), declared) {
        Resolved::Found { rel, .. } => rel,
        resolved => {
            dir.report_declared(site.doc, &pointer, declared, resolved, diagnostics);
            return Ok(());
        }
    };
    let pages = store_pages(dir, &store)?;
    for locale in supported.into_iter().flatten() {
        if !pages.contains_key(locale) {
            let page = store.join(format!("index.{locale}.md"));
            diagnostics.push(
                site.doc
                    .diagnostic(
                        Code::MissingStorePage,
                        format!(
                            "supported locale `{locale}` has no store page `{}`",
                            page.display()
                        ),
                        &pointer,
                    )
                    .with_help(format!(
                        "create `{}` with the frontmatter keys `locale`, `slug`, `title`, `summary` and `status`",
                        page.display()
                    )),
            );
        }
    }
    for (locale, (real, rel)) in &pages {
        let shown = dir.shown(rel);
        let page = frontmatter::Page {
            shown: &shown,
            locale,
            task_id,
            supported,
        };
        match fs::read(real) {
            Ok(bytes) => frontmatter::check(&page, &bytes, diagnostics),
            Err(source) => {
                return Err(LoadError::Read {
                    path: shown,
                    source,
                });
            }
        }
    }
    Ok(())
}

/// The `index.<locale>.md` files of the store page directory (links out of the package
/// are left out), by locale.
fn store_pages(dir: &Dir, store: &Path) -> Result<BTreeMap<String, (PathBuf, PathBuf)>, LoadError> {
    let read_error = |source| LoadError::Read {
        path: dir.shown(store),
        source,
    };
    let mut pages = BTreeMap::new();
    for entry in fs::read_dir(dir.real.join(store)).map_err(read_error)? {
        let name = entry.map_err(read_error)?.file_name();
        let Some(locale) = name
            .to_str()
            .and_then(|n| n.strip_prefix("index."))
            .and_then(|n| n.strip_suffix(".md"))
            .filter(|l| !l.is_empty())
        else {
            continue;
        };
        let declared = name.to_string_lossy();
        if let Resolved::Found { real, rel } = dir.resolve(store, &declared) {
            pages.insert(locale.to_string(), (real, rel));
        }
    }
    Ok(pages)
}

// --- backend/task-preset.json ----------------------------------------------------------

/// The task preset's required members, targets, `execution`, input bindings and the
/// members of each requirement.
pub(crate) fn check_task_preset(root: &Obj<'_>, diagnostics: &mut Vec<Diagnostic>) {
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
    if let Some(targets) = root.object("targets", "`targets`", false, diagnostics) {
        check_targets(&targets, diagnostics);
    }
    if let Some(execution) = root.object("execution", "`execution`", false, diagnostics) {
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
        let Some(target) = targets.object(kind, &what, true, diagnostics) else {
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
        for selection in objects(&target, "selections", "the selection", diagnostics) {
            let Some(scope) = selection.object("scope", "the scope", false, diagnostics) else {
                continue;
            };
            let id = selection.string("id", false, diagnostics).unwrap_or("?");
            match scope.string("source", true, diagnostics) {
                Some(source) if !SCOPE_SOURCES.contains(&source) => diagnostics.push(
                    scope
                        .doc
                        .diagnostic(
                            Code::UnsupportedScopeSource,
                            format!("selection `{id}` uses unsupported scope source `{source}`"),
                            &scope.pointer_of("source"),
                        )
                        .with_help(format!("use one of {}", quoted(&SCOPE_SOURCES))),
                ),
                _ => {}
            }
        }
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
    match execution.string("schemaVersion", false, diagnostics) {
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
    match execution.string("strategy", false, diagnostics) {
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
    if let Some(point) = execution.string("extensionPoint", false, diagnostics)
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
    if let Some(aliases) = binding.strings("aliases", false, diagnostics) {
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
    for (pointer, agent) in agents.into_iter().filter(|(_, a)| !AGENTS.contains(a)) {
        diagnostics.push(
            requirement
                .doc
                .diagnostic(code, format!("`{agent}` is not a known agent id"), &pointer)
                .with_help(format!("use `any`, or one of {}", quoted(&AGENTS))),
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

// --- backend/prompts.json --------------------------------------------------------------

/// The prompt package's required members, its locales against the manifest's, and the
/// shape of `commandSystemPrompts`.
pub(crate) fn check_prompts(
    root: &Obj<'_>,
    manifest_locales: Option<&BTreeSet<String>>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    require(
        root,
        &[
            "version",
            "templateEngine",
            "defaultLocale",
            "supportedLocales",
        ],
        diagnostics,
    );
    one_of(
        root,
        "templateEngine",
        &["handlebars"],
        Code::InvalidField,
        diagnostics,
    );
    if root.get("locales").is_none() && root.get("variants").is_none() {
        diagnostics.push(root.doc.diagnostic(
            Code::InvalidField,
            "the prompt package has neither `locales` nor `variants`",
            &root.pointer,
        ));
    }
    if let Some(variants) = root.object("variants", "`variants`", false, diagnostics) {
        require(
            &variants,
            &["selectors", "entries", "fallback"],
            diagnostics,
        );
    }
    if let Some(manifest) = manifest_locales {
        let mut used: Vec<(String, &str)> = Vec::new();
        if let Some(Value::Array(listed)) = root.get("supportedLocales") {
            for (index, locale) in listed.iter().enumerate() {
                if let Value::String(locale) = locale {
                    let pointer = child(&root.pointer_of("supportedLocales"), &index.to_string());
                    used.push((pointer, locale));
                }
            }
        }
        if let Some(Value::Object(locales)) = root.get("locales") {
            used.extend(
                locales
                    .keys()
                    .map(|l| (child(&root.pointer_of("locales"), l), l.as_str())),
            );
        }
        for (pointer, locale) in used.into_iter().filter(|(_, l)| !manifest.contains(*l)) {
            diagnostics.push(
                root.doc
                    .diagnostic(
                        Code::UndeclaredPromptLocale,
                        format!("prompt locale `{locale}` is not in the manifest's `supportedLocales`"),
                        &pointer,
                    )
                    .with_help(format!(
                        "add `{locale}` to `localization.supportedLocales` in the manifest, or remove it here"
                    )),
            );
        }
    }
    check_command_prompts(root, diagnostics);
}

/// `commandSystemPrompts`: command id → {locale → non-empty template path}.
fn check_command_prompts(root: &Obj<'_>, diagnostics: &mut Vec<Diagnostic>) {
    let what = "`commandSystemPrompts`";
    let Some(commands) = root.object("commandSystemPrompts", what, false, diagnostics) else {
        return;
    };
    for (command, locales) in commands.map {
        let pointer = commands.pointer_of(command);
        let help = format!(
            "map each locale to a template: \"{command}\": {{\"en-US\": \"./templates/en-US/commands/{command}.md\"}}"
        );
        let Value::Object(locales) = locales else {
            diagnostics.push(
                root.doc
                    .diagnostic(
                        Code::InvalidField,
                        format!("the prompt of command `{command}` must be an object of locales, found {}", kind_of(locales)),
                        &pointer,
                    )
                    .with_help(help),
            );
            continue;
        };
        if locales.is_empty() {
            diagnostics.push(
                root.doc
                    .diagnostic(
                        Code::InvalidField,
                        format!("the prompt of command `{command}` names no locale"),
                        &pointer,
                    )
                    .with_help(help.clone()),
            );
        }
        for (locale, path) in locales {
            if path.as_str().is_none_or(|p| p.trim().is_empty()) {
                diagnostics.push(
                    root.doc
                        .diagnostic(
                            Code::InvalidField,
                            format!("the `{locale}` prompt of command `{command}` must be a non-empty path"),
                            &child(&pointer, locale),
                        )
                        .with_help(help.clone()),
                );
            }
        }
    }
}

// --- every JSON file -------------------------------------------------------------------

/// Every `.json` file in the package parses (those not read yet are read now), and every
/// `$schema` names a published schema. Links are not followed: a declared file behind a
/// link was checked when it was resolved.
pub(crate) fn check_files(
    dir: &Dir,
    docs: &mut Vec<Doc>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<(), LoadError> {
    // A file already reported as broken is not read twice.
    let mut seen: HashSet<PathBuf> = diagnostics
        .iter()
        .filter(|d| d.code == Code::InvalidJson)
        .filter_map(|d| d.file.clone())
        .collect();
    seen.extend(docs.iter().map(|d| d.path.clone()));
    let mut pending = vec![PathBuf::new()];
    while let Some(rel) = pending.pop() {
        let read_error = |source| LoadError::Read {
            path: dir.shown(&rel),
            source,
        };
        let mut entries = fs::read_dir(dir.real.join(&rel))
            .map_err(read_error)?
            .map(|e| e.map(|e| e.file_name()))
            .collect::<Result<Vec<_>, _>>()
            .map_err(read_error)?;
        entries.sort();
        for name in entries {
            let child_rel = rel.join(&name);
            let real = dir.real.join(&child_rel);
            let Ok(metadata) = real.symlink_metadata() else {
                continue;
            };
            if metadata.is_dir() {
                pending.push(child_rel);
            } else if metadata.is_file()
                && Path::new(&name).extension().is_some_and(|e| e == "json")
                && !seen.contains(&dir.shown(&child_rel))
            {
                docs.extend(dir.read_json(&real, child_rel, diagnostics)?);
            }
        }
    }
    for doc in docs.iter() {
        check_schema_ref(doc, diagnostics);
    }
    Ok(())
}

fn check_schema_ref(doc: &Doc, diagnostics: &mut Vec<Diagnostic>) {
    let Some(reference) = doc.value.get("$schema") else {
        return;
    };
    let resolved = reference
        .as_str()
        .and_then(|r| r.rfind(SCHEMA_DIR).map(|at| &r[at + SCHEMA_DIR.len()..]))
        .is_some_and(|name| SCHEMAS.contains(&name));
    if !resolved {
        let message = match reference {
            Value::String(text) => {
                format!("`$schema` `{text}` does not name a schema of `{SCHEMA_DIR}`")
            }
            other => format!("`$schema` must be a string, found {}", kind_of(other)),
        };
        diagnostics.push(
            doc.diagnostic(Code::UnresolvedSchema, message, "/$schema")
            .with_help(format!(
                "use `https://tasks.hagicode.com/{SCHEMA_DIR}<name>`, where <name> is one of {}",
                quoted(&SCHEMAS)
            )),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn execution(json: &str) -> Vec<String> {
        let doc = Doc {
            path: PathBuf::from("task-preset.json"),
            rel: PathBuf::from("task-preset.json"),
            text: json.to_string(),
            value: serde_json::from_str(json).unwrap(),
        };
        let mut diagnostics = Vec::new();
        let root = doc.root("`execution`", &mut diagnostics).unwrap();
        check_execution(&root, &mut diagnostics);
        diagnostics.into_iter().map(|d| d.message).collect()
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
