//! The package checks of HagiCode's own validator (`hagitask validate`) that loading does
//! not need: localization and its bundles, the store page and its frontmatter, the prompt
//! package's locales, and every JSON file of the package parsing with a resolvable
//! `$schema`. The task preset's checks are in `task_preset`.
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

use crate::report::diagnostics::{Code, Diagnostic};
use crate::report::text::JsonKind;

use super::frontmatter;
use super::source::LoadError;
use super::source::{Dir, Doc, Obj, Presence, Resolved, child};

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

/// Reports each member of `obj` that `required` names and `obj` lacks.
pub(super) fn require(obj: &Obj<'_>, required: &[&str], diagnostics: &mut Vec<Diagnostic>) {
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
pub(super) fn one_of(
    obj: &Obj<'_>,
    key: &str,
    allowed: &[&str],
    code: Code,
    diagnostics: &mut Vec<Diagnostic>,
) {
    if let Some(value) = obj.string(key, Presence::Optional, diagnostics)
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
pub(super) fn no_unknown(
    obj: &Obj<'_>,
    known: &[&str],
    code: Code,
    diagnostics: &mut Vec<Diagnostic>,
) {
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

pub(super) fn quoted(names: &[&str]) -> String {
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
    let localization = root.object(
        "localization",
        "`localization`",
        Presence::Optional,
        diagnostics,
    )?;
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
    let listed = localization.strings("supportedLocales", Presence::Optional, diagnostics)?;
    let supported: BTreeSet<String> = listed.iter().map(ToString::to_string).collect();
    if supported.is_empty() {
        diagnostics.push(localization.doc.diagnostic(
            Code::InvalidField,
            "`localization.supportedLocales` is empty",
            &localization.pointer_of("supportedLocales"),
        ));
    }
    if let Some(default) = localization.string("defaultLocale", Presence::Optional, diagnostics)
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
    // The manifest schema requires `bundles` only for `plugin-bundles`.
    let bundled = if localization.get("strategy") == Some(&Value::from("plugin-bundles")) {
        Presence::Required
    } else {
        Presence::Optional
    };
    let what = "`localization.bundles`";
    let bundles = localization.object("bundles", what, bundled, diagnostics);
    if bundles.is_none() && bundled == Presence::Optional {
        no_bundles(&localization, &supported, diagnostics);
    }
    if let Some(bundles) = bundles {
        for (locale, path) in bundles.map {
            let pointer = bundles.pointer_of(locale);
            match path {
                Value::String(path) => {
                    dir.check_declared(bundles.doc, &pointer, Path::new(""), path, diagnostics);
                }
                other => diagnostics.push(bundles.doc.diagnostic(
                    Code::InvalidField,
                    format!(
                        "the bundle of `{locale}` must be a path, found {}",
                        JsonKind::of(other).name()
                    ),
                    &pointer,
                )),
            }
        }
        for locale in supported.iter().filter(|l| !bundles.map.contains_key(*l)) {
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

/// Every supported locale reported: `localization` has no `bundles`.
fn no_bundles(
    localization: &Obj<'_>,
    supported: &BTreeSet<String>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    // The package validator reports every supported locale without a bundle, whatever
    // the strategy (<https://github.com/HagiCode-org/hagitask-community-packages/blob/main/scripts/validate-community-packages.mjs>).
    for locale in supported {
        diagnostics.push(
            localization
                .doc
                .diagnostic(
                    Code::MissingLocaleBundle,
                    format!("supported locale `{locale}` has no bundle"),
                    &localization.pointer,
                )
                .with_help(format!(
                    "add \"bundles\": {{\"{locale}\": \"./locales/{locale}.json\"}} to `localization` and create the file (HagiCode's validator asks for it even with `host-i18n-bridge`)"
                )),
        );
    }
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
    let Some(site) = root.object("site", "`site`", Presence::Required, diagnostics) else {
        return Ok(());
    };
    let Some(declared) = site.string("storePage", Presence::Required, diagnostics) else {
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
        match crate::io::limits::read_file(real) {
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
    if let Some(variants) = root.object("variants", "`variants`", Presence::Optional, diagnostics) {
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
    let Some(commands) = root.object(
        "commandSystemPrompts",
        what,
        Presence::Optional,
        diagnostics,
    ) else {
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
                        format!("the prompt of command `{command}` must be an object of locales, found {}", JsonKind::of(locales).name()),
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
        .filter_map(|d| d.file.as_deref().map(Path::to_path_buf))
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
            other => format!(
                "`$schema` must be a string, found {}",
                JsonKind::of(other).name()
            ),
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
