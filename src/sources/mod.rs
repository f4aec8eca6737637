//! Rules beyond one repository: git sources named in a committed manifest
//! ([`manifest`]), pinned in a committed lock ([`lock`]), fetched safely ([`fetch`]) and
//! vendored beside the rules file ([`vendor`]); the `sources` commands (`add`, `update`,
//! `outdated`, `list`, `remove`) and the offline verification `check` runs ([`verify`]).
//! Every file is written through [`crate::io::safe_write`], under the manifest's lock, so two
//! updates at once lose nothing.

pub(crate) mod fetch;
pub(crate) mod layers;
pub(crate) mod lock;
pub(crate) mod manifest;
pub(crate) mod merge;
pub(crate) mod vendor;
pub(crate) mod verified;
pub(crate) mod verify;

use std::path::{Path, PathBuf};

use crate::io::atomic::AtomicError;
use crate::io::git::GitError;
use crate::io::safe_write::{self, Fence};
use crate::io::workspace::Workspace;

use lock::{Lock, Pin};
use manifest::{Manifest, Source};
use vendor::Imported;

/// The manifest's file name, beside the rules file.
pub(crate) const MANIFEST: &str = "autofix.sources.json";
/// The lock's file name, beside the rules file.
pub(crate) const LOCK: &str = "autofix.sources.lock.json";
/// The folder of vendored copies, beside the rules file.
pub(crate) const VENDOR: &str = "sources";

#[derive(Debug, thiserror::Error)]
pub(crate) enum SourceError {
    #[error("{0}")]
    Invalid(String),
    #[error("{0}")]
    Io(String),
    #[error("{}: {message}", path.display())]
    File { path: PathBuf, message: String },
    #[error(transparent)]
    Git(#[from] GitError),
    #[error(transparent)]
    Write(#[from] AtomicError),
    #[error("source `{name}`: the ref `{reference}` does not exist on the server")]
    NoSuchRef { name: String, reference: String },
    #[error("source `{name}`: no file {path} at commit {commit}")]
    NoFile {
        name: String,
        path: String,
        commit: String,
    },
    #[error("source `{name}`: {what} is over the cap of {cap}; refused, nothing written")]
    TooLarge {
        name: String,
        what: String,
        cap: u64,
    },
    #[error(
        "source `{name}`: the pinned commit {pinned} is not in the history of `{reference}` \
         (now {now}): the source was force-pushed or the commit removed. Nothing was written; \
         review the new history, then `autofix sources update --force {name}` to re-pin it"
    )]
    Rewritten {
        name: String,
        reference: String,
        pinned: String,
        now: String,
    },
    #[error(
        "source `{name}`: the vendored copy {} does not match the lock's sha256 or git blob id (edited by \
         hand?). Nothing was written; restore it with `git checkout -- {}`",
        path.display(),
        path.display()
    )]
    Tampered { name: String, path: PathBuf },
    #[error(
        "source `{name}`: the vendored copy {} is missing. Nothing was written; restore it \
         with `git checkout -- {}`",
        path.display(),
        path.display()
    )]
    CopyMissing { name: String, path: PathBuf },
    #[error("source `{0}` is already in the manifest (use `autofix sources update {0}`)")]
    Exists(String),
    #[error("no source named `{0}` in the manifest")]
    Unknown(String),
    #[error("source `{0}` was updated by another run meanwhile; nothing written, run again")]
    Changed(String),
}

impl SourceError {
    /// A refusal that protects the pins (a rewritten history, a tampered copy): a finding,
    /// exit 1, rather than a failure to run.
    pub(crate) fn fails_closed(&self) -> bool {
        matches!(
            self,
            SourceError::Rewritten { .. }
                | SourceError::Tampered { .. }
                | SourceError::CopyMissing { .. }
                | SourceError::TooLarge { .. }
        )
    }
}

impl SourceError {
    /// The same error, each file it names shown below the first of `roots` it lies in.
    pub(crate) fn relative_to(self, roots: &[PathBuf]) -> SourceError {
        let b = |path: PathBuf| crate::io::workspace::below(&path, roots);
        match self {
            SourceError::File { path, message } => SourceError::File {
                path: b(path),
                message,
            },
            SourceError::Git(error) => SourceError::Git(error.relative_to(roots)),
            SourceError::Write(error) => SourceError::Write(error.relative_to(roots)),
            SourceError::Tampered { name, path } => SourceError::Tampered {
                name,
                path: b(path),
            },
            SourceError::CopyMissing { name, path } => SourceError::CopyMissing {
                name,
                path: b(path),
            },
            other => other,
        }
    }
}

/// Where a workspace keeps its sources: beside the rules file.
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    pub manifest: PathBuf,
    pub lock: PathBuf,
    pub vendor: PathBuf,
    /// The local rules file the sources sit beside.
    pub rules_file: PathBuf,
    fence: Fence,
}

impl Layout {
    pub(crate) fn of(workspace: &Workspace) -> Layout {
        // Beside the rules file as it is shown: every path joined to it, and every error
        // naming one, reads relative to the current directory as the listings do.
        Layout::beside(workspace.shown_path(), &workspace.repository_root())
    }

    /// The layout of the sources beside `rules_file`, written inside `repository`.
    pub(crate) fn beside(rules_file: &Path, repository: &Path) -> Layout {
        let dir = rules_file
            .parent()
            .map_or_else(|| repository.to_path_buf(), Path::to_path_buf);
        Layout {
            manifest: dir.join(MANIFEST),
            lock: dir.join(LOCK),
            vendor: dir.join(VENDOR),
            rules_file: rules_file.to_path_buf(),
            fence: Fence::repository(repository, rules_file),
        }
    }

    /// The vendored copy of source `name`.
    pub(crate) fn copy(&self, name: &str) -> PathBuf {
        self.vendor.join(format!("{name}.json"))
    }

    /// The new copy of `name` a write stages before it moves the lock: what a run killed
    /// between the lock and the copy leaves, so the next one can finish.
    fn pending(&self, name: &str) -> PathBuf {
        self.vendor.join(format!(".{name}.pending"))
    }

    /// The copy of `name` as it stands against `pin`, offline.
    pub(crate) fn pinned_copy(&self, name: &str, pin: &Pin) -> CopyState {
        let path = self.copy(name);
        let copy = read_bytes(&path).ok().flatten();
        if let Some(bytes) = &copy {
            // Taken after the read: a change before or during it shows in the metadata.
            let meta = std::fs::metadata(&path).ok();
            let same_size = |m: &std::fs::Metadata| m.len() == bytes.len() as u64;
            let known = meta
                .as_ref()
                .is_some_and(|m| same_size(m) && verified::known(&path, m, pin));
            if known || pin.holds(bytes) {
                if !known && let Some(meta) = meta.as_ref().filter(|m| same_size(m)) {
                    verified::remember(&path, meta, pin);
                }
                return CopyState::Matches(copy.unwrap_or_default());
            }
        }
        let pending = read_bytes(&self.pending(name)).ok().flatten();
        match (copy, pending) {
            (_, Some(staged)) if pin.holds(&staged) => CopyState::Interrupted(staged),
            (Some(_), _) => CopyState::Differs,
            (None, _) => CopyState::Missing,
        }
    }

    /// Whether a killed run left a staged copy behind.
    fn has_pending(&self) -> bool {
        std::fs::read_dir(&self.vendor).is_ok_and(|entries| {
            entries.flatten().any(|entry| {
                let file = entry.file_name();
                let file = file.to_string_lossy();
                file.starts_with('.') && file.ends_with(".pending")
            })
        })
    }

    /// Finishes what a killed run left half done, under the manifest's lock: a staged copy
    /// the lock already pins replaces the copy; one it does not pin (killed before the lock
    /// moved) is dropped.
    fn finish_pending(&self, lock: &Lock) -> Result<(), SourceError> {
        let Ok(entries) = std::fs::read_dir(&self.vendor) else {
            return Ok(());
        };
        for entry in entries.flatten() {
            let file = entry.file_name();
            let Some(name) = file
                .to_str()
                .and_then(|f| f.strip_prefix('.'))
                .and_then(|f| f.strip_suffix(".pending"))
            else {
                continue;
            };
            let path = self.pending(name);
            let Some(staged) = read_bytes(&path)? else {
                continue;
            };
            if lock.sources.get(name).is_some_and(|pin| pin.holds(&staged)) {
                let copy = self.copy(name);
                let before = read_bytes(&copy)?;
                if before.as_deref() != Some(staged.as_slice()) {
                    safe_write::write(&self.fence, &copy, &staged, before.as_deref())?;
                }
            }
            self.fence
                .lock(&path, safe_write::timeout()?)?
                .remove(&staged)?;
        }
        Ok(())
    }
}

/// A vendored copy against its pin.
#[derive(Debug)]
pub(crate) enum CopyState {
    /// The copy is the pinned file.
    Matches(Vec<u8>),
    /// A run was killed after it moved the lock and before it replaced the copy: the staged
    /// copy is the pinned file (the next `sources` command puts it in place).
    Interrupted(Vec<u8>),
    /// The copy is not the pinned file (edited, or from another pin).
    Differs,
    Missing,
}

impl CopyState {
    /// The pinned file's bytes, when there are some to trust.
    pub(crate) fn trusted(self) -> Option<Vec<u8>> {
        match self {
            CopyState::Matches(bytes) | CopyState::Interrupted(bytes) => Some(bytes),
            CopyState::Differs | CopyState::Missing => None,
        }
    }
}

/// The manifest, the lock and their texts as read (`None`: the file does not exist).
#[derive(Debug, Default)]
pub(crate) struct State {
    pub manifest: Manifest,
    pub manifest_text: Option<String>,
    pub lock: Lock,
    pub lock_text: Option<String>,
}

fn read_text(path: &Path) -> Result<Option<String>, SourceError> {
    match crate::io::limits::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(SourceError::File {
            path: path.to_path_buf(),
            message: error.to_string(),
        }),
    }
}

pub(crate) fn read_bytes(path: &Path) -> Result<Option<Vec<u8>>, SourceError> {
    match crate::io::limits::read_file(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(SourceError::File {
            path: path.to_path_buf(),
            message: error.to_string(),
        }),
    }
}

impl Layout {
    /// Reads the manifest and the lock (an absent one is empty).
    pub(crate) fn read(&self) -> Result<State, SourceError> {
        let bad = |path: &Path, message: String| SourceError::File {
            path: path.to_path_buf(),
            message,
        };
        let manifest_text = read_text(&self.manifest)?;
        let manifest = match &manifest_text {
            Some(text) => Manifest::parse(text).map_err(|m| bad(&self.manifest, m))?,
            None => Manifest {
                version: 1,
                ..Manifest::default()
            },
        };
        let lock_text = read_text(&self.lock)?;
        let lock = match &lock_text {
            Some(text) => Lock::parse(text).map_err(|m| bad(&self.lock, m))?,
            None => Lock {
                version: 1,
                ..Lock::default()
            },
        };
        Ok(State {
            manifest,
            manifest_text,
            lock,
            lock_text,
        })
    }

    /// Runs `change` on the state read under the manifest's lock, then writes what it
    /// returns (a copy's new bytes, or `None` to delete it) so that no kill leaves the lock
    /// and a copy out of step: each new copy staged first, then the lock, then the copies,
    /// then the manifest; a copy to delete goes before the lock that drops it. A run killed
    /// in between leaves what the next one finishes ([`Layout::finish_pending`]), and the
    /// readers trust a staged copy the lock pins meanwhile.
    fn commit(
        &self,
        change: impl FnOnce(&mut State) -> Result<Vec<(String, Option<Vec<u8>>)>, SourceError>,
    ) -> Result<(), SourceError> {
        let held = self.fence.lock(&self.manifest, safe_write::timeout()?)?;
        self.finish_pending(&self.read()?.lock)?;
        let mut state = self.read()?;
        let copies = change(&mut state)?;
        let mut staged = Vec::new();
        for (name, bytes) in &copies {
            let path = self.copy(name);
            let before = read_bytes(&path)?;
            match bytes {
                Some(bytes) if before.as_deref() != Some(bytes.as_slice()) => {
                    let pending = self.pending(name);
                    let old = read_bytes(&pending)?;
                    safe_write::write(&self.fence, &pending, bytes, old.as_deref())?;
                    staged.push((path, before, bytes, pending));
                }
                None => {
                    if let Some(before) = before {
                        self.fence
                            .lock(&path, safe_write::timeout()?)?
                            .remove(&before)?;
                    }
                }
                Some(_) => {}
            }
        }
        let lock_text = state.lock.file_text();
        if state.lock_text.as_deref() != Some(lock_text.as_str()) {
            let expected = state.lock_text.as_deref().map(str::as_bytes);
            safe_write::write(&self.fence, &self.lock, lock_text.as_bytes(), expected)?;
        }
        for (path, before, bytes, pending) in staged {
            safe_write::write(&self.fence, &path, bytes, before.as_deref())?;
            self.fence
                .lock(&pending, safe_write::timeout()?)?
                .remove(bytes)?;
        }
        let manifest_text = state.manifest.file_text();
        if state.manifest_text.as_deref() != Some(manifest_text.as_str()) {
            let expected = state.manifest_text.as_deref().map(str::as_bytes);
            // The lock on the manifest is held by this run: write it in place.
            held.write(&[manifest_text.as_bytes()], expected)?;
        }
        Ok(())
    }
}

/// A pin for `source` from what was fetched.
fn pin(source: &Source, fetched: &fetch::Fetched, rules: &[Imported]) -> Pin {
    Pin {
        url: source.url.clone(),
        reference: source.reference.clone(),
        path: source.path.clone(),
        commit: fetched.commit.clone(),
        blob: fetched.blob.clone(),
        sha256: lock::digest(&fetched.bytes),
        rules: rules.len(),
        highest: rules.iter().map(|r| r.number).max().unwrap_or(0),
    }
}

/// What `sources add` did.
#[derive(Debug)]
pub(crate) struct Added {
    pub pin: Pin,
    pub active: usize,
    pub copy: PathBuf,
}

/// `sources add`: fetch the source, then record it in the manifest, the lock and a copy.
pub(crate) fn add(layout: &Layout, source: Source) -> Result<Added, SourceError> {
    source.validate().map_err(SourceError::Invalid)?;
    if layout.read()?.manifest.source(&source.name).is_some() {
        return Err(SourceError::Exists(source.name));
    }
    let fetched = fetch::fetch(&source, None)?;
    let rules = vendor::parse(&source.name, &fetched.bytes)?;
    vendor::refuse_checks(&source.name, &rules)?;
    let pin = pin(&source, &fetched, &rules);
    let active = rules.iter().filter(|r| r.superseded_by.is_empty()).count();
    let name = source.name.clone();
    let copy = layout.copy(&name);
    let recorded = pin.clone();
    layout.commit(move |state| {
        if state.manifest.source(&source.name).is_some() {
            return Err(SourceError::Exists(source.name.clone()));
        }
        state.lock.sources.insert(source.name.clone(), recorded);
        state.manifest.sources.push(source);
        Ok(vec![(name, Some(fetched.bytes))])
    })?;
    Ok(Added { pin, active, copy })
}

/// What `sources update` did to one source.
#[derive(Debug)]
pub(crate) enum Updated {
    /// Already at the ref's commit.
    Current { commit: String },
    /// Moved (or pinned for the first time, `from` `None`), with the rule-level changes.
    Moved {
        from: Option<String>,
        to: String,
        changes: Vec<String>,
    },
}

/// The pin and copy of `name` as they stand, verified: a copy that does not match its
/// pin fails closed.
fn verified_copy(
    layout: &Layout,
    state: &State,
    name: &str,
) -> Result<Option<(Pin, Vec<Imported>)>, SourceError> {
    let Some(pin) = state.lock.sources.get(name) else {
        return Ok(None);
    };
    let path = layout.copy(name);
    let bytes = match layout.pinned_copy(name, pin) {
        CopyState::Matches(bytes) | CopyState::Interrupted(bytes) => bytes,
        CopyState::Differs => {
            return Err(SourceError::Tampered {
                name: name.to_string(),
                path,
            });
        }
        CopyState::Missing => {
            return Err(SourceError::CopyMissing {
                name: name.to_string(),
                path,
            });
        }
    };
    Ok(Some((pin.clone(), vendor::parse(name, &bytes)?)))
}

/// `sources update NAME`: move the pin to the ref's commit now, refusing a rewritten
/// history or a tampered copy; with `dry_run`, only say what would change.
pub(crate) fn update(
    layout: &Layout,
    name: &str,
    dry_run: bool,
    force: bool,
) -> Result<Updated, SourceError> {
    if !dry_run && layout.has_pending() {
        // A run killed half way is finished first, even when the pin stays where it is.
        layout.commit(|_| Ok(Vec::new()))?;
    }
    let state = layout.read()?;
    let source = state
        .manifest
        .source(name)
        .cloned()
        .ok_or_else(|| SourceError::Unknown(name.to_string()))?;
    let before = verified_copy(layout, &state, name)?;
    // A pin made for another URL, ref or path is not an ancestor to require: the manifest
    // change was reviewed.
    // `--force`: a rewritten history re-pinned on purpose, after review.
    let pinned = before
        .as_ref()
        .filter(|(pin, _)| pin.matches(&source) && !force)
        .map(|(pin, _)| pin.commit.clone());
    let fetched = fetch::fetch(&source, pinned.as_deref())?;
    let rules = vendor::parse(name, &fetched.bytes)?;
    vendor::refuse_checks(name, &rules)?;
    let new_pin = pin(&source, &fetched, &rules);
    if let Some((old, _)) = &before
        && *old == new_pin
    {
        return Ok(Updated::Current {
            commit: new_pin.commit,
        });
    }
    let mut changes = vendor::diff(
        name,
        before.as_ref().map_or(&[], |(_, r)| r.as_slice()),
        &rules,
    );
    let local = layers::local_references(layers::referencing(&layout.rules_file).as_ref());
    changes.extend(now_dangling(&local, name, &rules));
    changes.extend(reopened(
        &local,
        name,
        before.as_ref().map_or(&[], |(_, r)| r.as_slice()),
        &rules,
    ));
    let from = before.as_ref().map(|(pin, _)| pin.commit.clone());
    if !dry_run {
        let expected = before.map(|(pin, _)| pin);
        let recorded = new_pin.clone();
        layout.commit(|state| {
            let now = state.lock.sources.get(name);
            // Another run pinned the same commit meanwhile: nothing is lost, nothing to do.
            if now != expected.as_ref() && now != Some(&recorded) {
                return Err(SourceError::Changed(name.to_string()));
            }
            state.lock.sources.insert(name.to_string(), recorded);
            Ok(vec![(name.to_string(), Some(fetched.bytes))])
        })?;
    }
    Ok(Updated::Moved {
        from,
        to: new_pin.commit,
        changes,
    })
}

/// The local rules whose `name:N` references the new version of source `name` no longer
/// holds: `? rule 7 supersedes org:3, which the new version does not hold`.
fn now_dangling(local: &[layers::SourceRef], name: &str, rules: &[Imported]) -> Vec<String> {
    local
        .iter()
        .filter(|r| r.source == name && !rules.iter().any(|rule| rule.number == r.number))
        .map(|r| {
            format!(
                "? rule {} supersedes {name}:{}, which the new version does not hold",
                r.local, r.number
            )
        })
        .collect()
}

/// The new or changed active rules of source `name` that say again what a local rule
/// overrode in the old version (`org:4` restating `org:2`, which local rule 1 supersedes):
/// `! org:4 reopens …`. The local rule does not name the new one, so without this the
/// concern would come back without a word.
fn reopened(
    local: &[layers::SourceRef],
    name: &str,
    old: &[Imported],
    new: &[Imported],
) -> Vec<String> {
    let overridden: Vec<(&layers::SourceRef, &Imported)> = local
        .iter()
        .filter(|r| r.source == name)
        .filter_map(|r| Some((r, old.iter().find(|rule| rule.number == r.number)?)))
        .collect();
    if overridden.is_empty() {
        return Vec::new();
    }
    let mut lines = Vec::new();
    for rule in new.iter().filter(|rule| rule.superseded_by.is_empty()) {
        let unchanged = old
            .iter()
            .any(|o| o.number == rule.number && o.instruction == rule.instruction);
        let named = local
            .iter()
            .any(|r| r.source == name && r.number == rule.number);
        if unchanged || named {
            continue;
        }
        let texts = overridden
            .iter()
            .enumerate()
            .map(|(at, (_, o))| (at as u64, o.instruction.as_str()));
        // The same words, or near in meaning as `learn` finds a rule near a new one.
        let near = || {
            let texts: Vec<&str> = overridden
                .iter()
                .map(|(_, o)| o.instruction.as_str())
                .collect();
            let mut cache = crate::meaning::Cache::default();
            let found = crate::meaning::near_rules(&rule.instruction, &texts, &mut cache, None);
            found.ok()?.first().map(|near| near.at)
        };
        let alike = crate::rules::similar::matches(&rule.instruction, texts)
            .into_iter()
            .map(|m| m.rule as usize)
            .chain(overridden.iter().enumerate().filter_map(|(at, (_, o))| {
                crate::rules::same_instruction(&o.instruction, &rule.instruction).then_some(at)
            }))
            .next()
            .or_else(near);
        if let Some((reference, o)) = alike.and_then(|at| overridden.get(at)) {
            lines.push(format!(
                "! {name}:{} reopens what local rule {} overrode in {name}:{}: it is active; \
                 if rule {} still holds, make it supersede {name}:{} too",
                rule.number, reference.local, o.number, reference.local, rule.number
            ));
        }
    }
    lines
}

/// Where a source stands against its server.
#[derive(Debug)]
pub(crate) enum Outdated {
    Current {
        commit: String,
    },
    /// The pinned commit is no longer in the ref's history (a force-push).
    Rewritten {
        pinned: String,
        now: String,
    },
    /// The lock names a blob the source's file never was at the pinned commit: the copy
    /// and its lock were edited together.
    Differs {
        commit: String,
        locked: String,
        source: String,
    },
    Behind {
        pinned: String,
        now: String,
    },
    NotLocked {
        now: String,
    },
    Unknown {
        error: String,
    },
}

/// `sources outdated`: each source's pin against its server: the commit its ref names
/// now, and the rules file's blob id at the pinned commit against the lock's.
pub(crate) fn outdated(layout: &Layout) -> Result<Vec<(String, Outdated)>, SourceError> {
    let state = layout.read()?;
    Ok(state
        .manifest
        .sources
        .iter()
        .map(|source| {
            let pin = state
                .lock
                .sources
                .get(&source.name)
                .filter(|pin| pin.matches(source));
            let remote = match pin {
                Some(pin) => fetch::pinned_blob(source, &pin.commit).map(|(now, b)| (now, Some(b))),
                None => fetch::resolve(source).map(|now| (now, None)),
            };
            let status = match (remote, pin) {
                (Err(SourceError::Rewritten { pinned, now, .. }), _) => {
                    Outdated::Rewritten { pinned, now }
                }
                (Err(error), _) => Outdated::Unknown {
                    error: error.to_string(),
                },
                (Ok((now, _)), None) => Outdated::NotLocked { now },
                (Ok((_, Some(blob))), Some(pin)) if blob != pin.blob => Outdated::Differs {
                    commit: pin.commit.clone(),
                    locked: pin.blob.clone(),
                    source: blob,
                },
                (Ok((now, _)), Some(pin)) if now == pin.commit => Outdated::Current { commit: now },
                (Ok((now, _)), Some(pin)) => Outdated::Behind {
                    pinned: pin.commit.clone(),
                    now,
                },
            };
            (source.name.clone(), status)
        })
        .collect())
}

/// `sources lock org:N` (`lock` true) or `unlock`: the manifest's `locked` list, for a
/// rule the source holds now. `Ok(false)`: nothing to change.
pub(crate) fn set_locked(
    layout: &Layout,
    source: &str,
    number: u64,
    lock: bool,
) -> Result<bool, SourceError> {
    let rule_id = layers::id(source, number);
    let held = layers::load(layout, None)
        .layer(source)
        .map(|layer| layer.rules.iter().any(|r| r.number == number));
    match held {
        None => {
            return Err(SourceError::Invalid(format!(
                "{rule_id}: no source `{source}` is imported here, or its copy does not match its pin (autofix sources list)"
            )));
        }
        Some(false) => {
            return Err(SourceError::Invalid(format!(
                "{rule_id}: source `{source}` holds no rule {number}"
            )));
        }
        Some(true) => {}
    }
    let mut changed = false;
    layout.commit(|state| {
        let list = &mut state.manifest.locked;
        let at = list.iter().position(|id| *id == rule_id);
        match (lock, at) {
            (true, None) => list.push(rule_id.clone()),
            (false, Some(at)) => {
                list.remove(at);
            }
            _ => return Ok(Vec::new()),
        }
        list.sort();
        changed = true;
        Ok(Vec::new())
    })?;
    Ok(changed)
}

/// `sources remove NAME`: drop it from the manifest and the lock, and its copy (first, so
/// a kill leaves a source whose copy is missing, which `check` reports and a second
/// `remove` finishes, never an orphan copy).
pub(crate) fn remove(layout: &Layout, name: &str) -> Result<(), SourceError> {
    layout.commit(|state| {
        let before = state.manifest.sources.len();
        state.manifest.sources.retain(|source| source.name != name);
        if state.manifest.sources.len() == before {
            return Err(SourceError::Unknown(name.to_string()));
        }
        state.lock.sources.remove(name);
        let prefix = format!("{name}:");
        state
            .manifest
            .overrides
            .retain(|id, _| !id.starts_with(&prefix));
        state.manifest.locked.retain(|id| !id.starts_with(&prefix));
        Ok(vec![(name.to_string(), None)])
    })
}
