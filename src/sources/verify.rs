//! What `check` says about the sources, offline: the manifest against the lock, each
//! vendored copy against its pin (tampering), the local rules' `name:N` references
//! (dangling, or overriding a locked rule with or without the manifest's override), and
//! conflicts between layers that no supersede settles.

use std::path::Path;

use crate::report::diagnostics::{Code, Diagnostic};
use crate::rules::reference::RuleRef;
use crate::rules::{Document, similar};

use super::layers::{self, Status};
use super::{Layout, lock, read_bytes, vendor};

/// The diagnostics of the workspace's sources, files shown relative to the current
/// directory when they lie below it.
pub(crate) fn for_workspace(workspace: &crate::io::workspace::Workspace) -> Vec<Diagnostic> {
    let layout = Layout::of(workspace);
    let shown = |path: &Path| workspace.show(path);
    // No manifest and no lock: only a dangling `name:N` can be wrong, and a file with no
    // such marker is not parsed a second time (`check` on 100k rules: 43% of its time).
    if layout.manifest.symlink_metadata().is_err() && layout.lock.symlink_metadata().is_err() {
        let document = layers::referencing(&workspace.rules_file);
        return verify(&layout, document.as_ref(), &shown);
    }
    let document = crate::rules::load(&workspace.rules_file).ok().flatten();
    verify(&layout, document.as_ref(), &shown)
}

/// The diagnostics of the sources of `layout`, with the local `document`. Nothing when the
/// workspace has neither a manifest nor a lock.
pub(crate) fn verify(
    layout: &Layout,
    document: Option<&Document>,
    shown: &dyn Fn(&Path) -> String,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let manifest_file = shown(&layout.manifest);
    let rules_file = &shown(&layout.rules_file);
    let lock_file = shown(&layout.lock);
    let state = match layout.read() {
        Ok(state) => state,
        Err(error) => {
            out.push(
                Diagnostic::new(Code::SourceManifestInvalid, error.to_string())
                    .with_help("Fix the file, or run `autofix sources add` to write it."),
            );
            return out;
        }
    };
    if state.manifest_text.is_none() && state.lock_text.is_none() {
        return verify_references(
            &layers::load(layout, document),
            document,
            [rules_file, &manifest_file],
            out,
        );
    }
    for source in &state.manifest.sources {
        let name = &source.name;
        let Some(pin) = state.lock.sources.get(name) else {
            out.push(
                Diagnostic::new(
                    Code::SourceNotLocked,
                    format!("source `{name}` is in the manifest but not in the lock"),
                )
                .in_file(&manifest_file)
                .with_help(format!(
                    "Run `autofix sources update {name}` and commit the lock and the copy."
                )),
            );
            continue;
        };
        if !pin.matches(source) {
            out.push(
                Diagnostic::new(
                    Code::SourceLockStale,
                    format!(
                        "source `{name}`: the lock pins {} {} {}, the manifest asks for {} {} {}",
                        pin.url, pin.reference, pin.path, source.url, source.reference, source.path
                    ),
                )
                .in_file(&lock_file)
                .with_help(format!(
                    "Run `autofix sources update {name}` to pin what the manifest asks for."
                )),
            );
        }
        out.extend(verify_copy(layout, name, pin, shown));
    }
    for name in state.lock.sources.keys() {
        if state.manifest.source(name).is_none() {
            out.push(
                Diagnostic::new(
                    Code::SourceLockStale,
                    format!("the lock pins `{name}`, which the manifest does not name"),
                )
                .in_file(&lock_file)
                .with_help(format!(
                    "Run `autofix sources remove {name}`, or add it back to the manifest."
                )),
            );
        }
    }
    out.extend(orphan_copies(layout, &state, shown));
    verify_references(
        &layers::load(layout, document),
        document,
        [rules_file, &manifest_file],
        out,
    )
}

/// The vendored copies no source of the manifest or the lock names (a hand-made file, or
/// what an older `remove` killed half way left): reported, never read.
fn orphan_copies(
    layout: &Layout,
    state: &super::State,
    shown: &dyn Fn(&Path) -> String,
) -> Vec<Diagnostic> {
    let Ok(entries) = std::fs::read_dir(&layout.vendor) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .flatten()
        .filter_map(|entry| {
            let file = entry.file_name().to_str()?.to_string();
            let name = file.strip_suffix(".json")?;
            (!name.starts_with('.')
                && state.manifest.source(name).is_none()
                && !state.lock.sources.contains_key(name))
            .then(|| name.to_string())
        })
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|name| {
            let copy = shown(&layout.copy(&name));
            Diagnostic::new(
                Code::SourceLockStale,
                format!("the vendored copy {copy} belongs to no source of the manifest or the lock"),
            )
            .in_file(&copy)
            .with_help(format!("Delete it (`git rm {copy}`), or add the source back with `autofix sources add {name}`."))
        })
        .collect()
}

/// The vendored copy of `name` against its pin: present, and matching its digest and counts.
fn verify_copy(
    layout: &Layout,
    name: &str,
    pin: &super::lock::Pin,
    shown: &dyn Fn(&Path) -> String,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let copy = layout.copy(name);
    let copy_file = shown(&copy);
    if let super::CopyState::Interrupted(_) = layout.pinned_copy(name, pin) {
        // Readers use the staged copy meanwhile, but a commit now would take the lock
        // without its copy.
        out.push(
            Diagnostic::new(
                Code::SourceTampered,
                format!("source `{name}`: an interrupted `sources` run moved the lock but not yet the vendored copy {copy_file}"),
            )
            .in_file(&copy_file)
            .with_help(format!("Run `autofix sources update {name}`, which finishes it, before committing.")),
        );
        return out;
    }
    let Some(bytes) = read_bytes(&copy).ok().flatten() else {
        out.push(
            Diagnostic::new(
                Code::SourceCopyMissing,
                format!("source `{name}`: the vendored copy {copy_file} is missing"),
            )
            .in_file(&copy_file)
            .with_help(format!(
                "Restore it from git, or run `autofix sources update {name}`."
            )),
        );
        return out;
    };
    let digest = lock::digest(&bytes);
    let parsed = vendor::parse(name, &bytes);
    let counts_match = parsed.as_ref().is_ok_and(|rules| {
        rules.len() == pin.rules && rules.iter().map(|r| r.number).max().unwrap_or(0) == pin.highest
    });
    if !pin.holds(&bytes) || !counts_match {
        out.push(
            Diagnostic::new(
                Code::SourceTampered,
                format!(
                    "source `{name}`: the vendored copy does not match the lock (sha256 {}, pinned {}; git blob {}, pinned {}); it is left out of every listing",
                    layers::short(&digest),
                    layers::short(&pin.sha256),
                    layers::short(&crate::report::digest::git_blob_id(&bytes)),
                    layers::short(&pin.blob)
                ),
            )
            .in_file(&copy_file)
            .with_help(format!("Restore it with `git checkout -- {copy_file}`; imported rules change only through `autofix sources update`.")),
        );
    }
    out
}

/// The local rules' `name:N` references, the locked rules they supersede, and the
/// undeclared conflicts between layers.
fn verify_references(
    layers: &layers::Layers,
    document: Option<&Document>,
    [rules_file, manifest_file]: [&str; 2],
    mut out: Vec<Diagnostic>,
) -> Vec<Diagnostic> {
    let start = out.len();
    for reference in &layers.refs {
        let id = layers::id(&reference.source, reference.number);
        let local = reference.local;
        let Some(layer) = layers.layer(&reference.source) else {
            if layers.named.contains(&reference.source) {
                // Left out (not locked, tampered): that error is reported already.
                continue;
            }
            out.push(
                Diagnostic::new(
                    Code::DanglingSourceRule,
                    format!(
                        "rule {local} supersedes {id}, but no source `{}` is imported",
                        reference.source
                    ),
                )
                .with_help("Add the source (`autofix sources add`), or fix the reference."),
            );
            continue;
        };
        let Some(at) = layer
            .rules
            .iter()
            .position(|r| r.number == reference.number)
        else {
            out.push(
                Diagnostic::new(
                    Code::DanglingSourceRule,
                    format!(
                        "rule {local} supersedes {id}, which source `{}` does not hold at {}",
                        layer.name,
                        layers::short(&layer.commit)
                    ),
                )
                .with_help("Reference a rule the source holds (`autofix rules --all` lists them)."),
            );
            continue;
        };
        match layers.status(layer, at) {
            Status::LockedKept(_) => out.push(
                Diagnostic::new(Code::SourceLockedRule, format!("rule {local} supersedes {id}, which the source locks: {id} stays active"))
                    .with_help(format!("Add `\"{id}\": \"<reason>\"` to `overrides` in the manifest, reviewed like code, or supersede rule {local}.")),
            ),
            _ if layer.rules[at].locked => out.push(
                Diagnostic::new(Code::SourceOverride, format!(
                    "rule {local} overrides the locked rule {id} (manifest: {})",
                    layers.overrides.get(&id).map_or("", String::as_str)
                ))
                .with_help("This is said on every check, so the override stays visible; remove it from `overrides` to restore the rule."),
            ),
            _ => {}
        }
    }
    for id in layers.overrides.keys() {
        let locked = match id.parse::<RuleRef>() {
            Ok(RuleRef::Imported { source, number }) => match layers.layer(&source) {
                Some(layer) => layer.rules.iter().any(|r| r.locked && r.number == number),
                // Left out (tampered, not locked): that is reported already.
                None => layers.named.contains(&source),
            },
            _ => false,
        };
        if !locked {
            out.push(
                Diagnostic::new(
                    Code::SourceOverrideUnused,
                    format!("the manifest overrides {id}, which is no locked imported rule"),
                )
                .with_help("Remove the entry from `overrides`.")
                .in_file(manifest_file),
            );
        }
    }
    out.extend(layer_conflicts(layers, document));
    for diagnostic in &mut out[start..] {
        if diagnostic.file.is_none() {
            diagnostic.file = Some(Path::new(rules_file).into());
        }
    }
    out
}

/// Pairs of active rules from different layers that contradict each other and that no
/// supersede settles: reported with the order that wins (local, then sources in manifest
/// order).
fn layer_conflicts(layers: &layers::Layers, document: Option<&Document>) -> Vec<Diagnostic> {
    let mut owners: Vec<(usize, String)> = Vec::new();
    let mut texts: Vec<String> = Vec::new();
    if let Some(document) = document {
        let resolution = crate::rules::supersede::resolve(document);
        for rule in document.rules() {
            if resolution.is_active(rule.index)
                && let Some(number) = rule.number().value()
            {
                owners.push((0, format!("local rule {number}")));
                texts.push(rule.instruction().display().to_string());
            }
        }
    }
    for (layer, rule) in layers.active() {
        let rank = 1 + layers
            .layers
            .iter()
            .position(|l| l.name == layer.name)
            .unwrap_or(0);
        owners.push((rank, layers::id(&layer.name, rule.number)));
        texts.push(rule.instruction.clone());
    }
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let mut out = Vec::new();
    for pair in similar::pairs(&refs) {
        let (a, b) = (&owners[pair.earlier], &owners[pair.later]);
        if a.0 == b.0 || pair.kind != similar::Kind::Contradiction {
            continue;
        }
        let (winner, loser) = if a.0 < b.0 { (a, b) } else { (b, a) };
        out.push(
            Diagnostic::new(
                Code::LayerConflict,
                format!("{} and {} contradict each other and neither supersedes the other: {} wins (local, then sources in manifest order)", winner.1, loser.1, winner.1),
            )
            .with_help("Learn a local rule with `--supersedes` naming the one that no longer holds, so every reader resolves it alike."),
        );
    }
    out
}
