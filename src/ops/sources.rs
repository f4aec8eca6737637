//! `autofix sources`: the flows that change the imported rules, each from one typed
//! request — add a source, update its pin, remove it, lock or unlock one of its rules —
//! each followed by the refresh of the exported copies `learn` does; and the state of each
//! source's pin and vendored copy for `sources list`. What they return is data: the front
//! end says it.

use std::path::PathBuf;

use crate::io::workspace::Workspace;
use crate::ops::learning::Refreshed;
use crate::report::diagnostics::Diagnostic;
use crate::sources::lock::Pin;
use crate::sources::manifest::Source;
use crate::sources::{self, Added, CopyState, Layout, SourceError, Updated};

/// The exports brought up to date after the imported rules changed, and the warnings of
/// the refresh (the sources are written whatever they say).
#[derive(Debug, Default)]
pub(crate) struct Exports {
    pub refreshed: Vec<Refreshed>,
    pub warnings: Vec<Diagnostic>,
}

/// Refreshes the exported copies, as `learn` does after it wrote the rules.
fn refresh(workspace: &Workspace) -> Exports {
    let (refreshed, warnings) =
        crate::ops::learning::refresh(workspace, "the sources are written, but");
    Exports {
        refreshed,
        warnings,
    }
}

/// `sources add`: the source to pin and vendor.
#[derive(Debug)]
pub(crate) struct AddRequest {
    pub source: Source,
}

/// `sources add`: pins the source, vendors its rules, refreshes the exports.
pub(crate) fn add(
    workspace: &Workspace,
    request: AddRequest,
) -> Result<(Added, Exports), SourceError> {
    let added = sources::add(&Layout::of(workspace), request.source)?;
    Ok((added, refresh(workspace)))
}

/// `sources update`: the sources to move (none: every source of the manifest).
#[derive(Debug)]
pub(crate) struct UpdateRequest {
    pub names: Vec<String>,
    /// Only say what would change.
    pub dry_run: bool,
    /// Re-pin a rewritten history, after review.
    pub force: bool,
}

/// What `sources update` did: each source's outcome in order, and the exports refreshed
/// when a pin moved (`None` when none did).
#[derive(Debug)]
pub(crate) struct Updates {
    pub sources: Vec<(String, Result<Updated, SourceError>)>,
    pub exports: Option<Exports>,
}

/// `sources update`: moves each source's pin in turn (one failing does not stop the
/// others), then refreshes the exports if a pin moved.
pub(crate) fn update(
    workspace: &Workspace,
    request: UpdateRequest,
) -> Result<Updates, SourceError> {
    let layout = Layout::of(workspace);
    let state = layout.read()?;
    let names = if request.names.is_empty() {
        state
            .manifest
            .sources
            .iter()
            .map(|s| s.name.clone())
            .collect()
    } else {
        request.names
    };
    let mut moved = false;
    let sources = names
        .into_iter()
        .map(|name| {
            let updated = sources::update(&layout, &name, request.dry_run, request.force);
            moved |= !request.dry_run && matches!(updated, Ok(Updated::Moved { .. }));
            (name, updated)
        })
        .collect();
    Ok(Updates {
        sources,
        exports: moved.then(|| refresh(workspace)),
    })
}

/// `sources remove`: the source to drop with its pin and copy.
#[derive(Debug)]
pub(crate) struct RemoveRequest {
    pub name: String,
}

/// `sources remove`: drops the source, its pin and its copy, refreshes the exports.
pub(crate) fn remove(
    workspace: &Workspace,
    request: RemoveRequest,
) -> Result<Exports, SourceError> {
    sources::remove(&Layout::of(workspace), &request.name)?;
    Ok(refresh(workspace))
}

/// `sources lock NAME:N` / `unlock`: the imported rule, and which way.
#[derive(Debug)]
pub(crate) struct LockRequest {
    pub source: String,
    pub number: u64,
    pub lock: bool,
}

/// `sources lock` / `unlock`: marks the rule in the manifest; the exports refreshed when
/// that changed anything (`None`: it was so already).
pub(crate) fn set_locked(
    workspace: &Workspace,
    request: &LockRequest,
) -> Result<Option<Exports>, SourceError> {
    let layout = Layout::of(workspace);
    let changed = sources::set_locked(&layout, &request.source, request.number, request.lock)?;
    Ok(changed.then(|| refresh(workspace)))
}

/// The state of one source's pin and vendored copy.
#[derive(Debug)]
pub(crate) enum Standing {
    NotLocked,
    /// The lock pins another url, ref or path than the manifest names.
    LockStale,
    CopyMissing,
    CopyDiffers,
    /// An interrupted run left the copy behind (the next update finishes it).
    Interrupted,
    Ok,
}

/// One source of `sources list`.
#[derive(Debug)]
pub(crate) struct Listed {
    pub source: Source,
    pub pin: Option<Pin>,
    pub copy: PathBuf,
    pub standing: Standing,
}

/// `sources list`: each source of the manifest with its pin and the state of its copy.
pub(crate) fn list(workspace: &Workspace) -> Result<Vec<Listed>, SourceError> {
    let layout = Layout::of(workspace);
    let state = layout.read()?;
    Ok(state
        .manifest
        .sources
        .iter()
        .map(|source| {
            let pin = state.lock.sources.get(&source.name);
            let standing = match pin {
                None => Standing::NotLocked,
                Some(pin) if !pin.matches(source) => Standing::LockStale,
                Some(pin) => match layout.pinned_copy(&source.name, pin) {
                    CopyState::Missing => Standing::CopyMissing,
                    CopyState::Differs => Standing::CopyDiffers,
                    CopyState::Interrupted(_) => Standing::Interrupted,
                    CopyState::Matches(_) => Standing::Ok,
                },
            };
            Listed {
                source: source.clone(),
                pin: pin.cloned(),
                copy: layout.copy(&source.name),
                standing,
            }
        })
        .collect())
}
