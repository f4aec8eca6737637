//! Fetching one source's rules file with the system git, safely: a fresh private bare
//! repository, `fetch --filter=tree:0` of the one ref (commits only where the server
//! filters), the file read with `ls-tree`/`cat-file` (never checked out: no hook, filter
//! or link of the source can act), the pinned commit required in the new history, and
//! caps on time, size and rule count.

use std::time::Duration;

use crate::io::git::{Remote, Watch};

use super::SourceError;
use super::manifest::Source;

/// The largest rules file a source may hold.
pub(crate) const MAX_FILE_BYTES: u64 = 1024 * 1024;
/// The most rules a source may hold.
pub(crate) const MAX_RULES: usize = 5_000;
/// The longest instruction or reason of an imported rule, in bytes.
pub(crate) const MAX_TEXT_BYTES: usize = 4 * 1024;
/// The most the fetched objects may weigh on disk (a server that ignores the filter sends
/// the whole history).
const MAX_FETCHED_BYTES: u64 = 256 * 1024 * 1024;

/// What a fetch brought back.
#[derive(Debug)]
pub(crate) struct Fetched {
    pub commit: String,
    pub blob: String,
    pub bytes: Vec<u8>,
}

/// How long each git step may take: `AUTOFIX_SOURCES_TIMEOUT` as the front end read it,
/// else 60 s; a bad value is the fetch's error, never silently the default.
fn timeout() -> Result<Duration, SourceError> {
    crate::io::settings::get()
        .sources_timeout
        .clone()
        .map(|wait| wait.unwrap_or(Duration::from_secs(60)))
        .map_err(SourceError::Io)
}

/// A scratch bare repository for one fetch, removed when dropped, even when a signal
/// ends the run (then the signal is raised again once it is gone).
struct Scratch {
    // Dropped in this order: the folder goes before the guard raises a caught signal.
    dir: tempfile::TempDir,
    _guard: crate::io::interrupt::Guard,
}

/// What every scratch folder's name starts with; the process's id follows, so a later run
/// knows whether the run that made it still lives.
const SCRATCH_PREFIX: &str = "autofix-source-";

fn scratch() -> Result<(Scratch, Remote), SourceError> {
    let guard = crate::io::interrupt::Guard::new();
    reclaim_scratch(&std::env::temp_dir());
    let dir = tempfile::Builder::new()
        .prefix(&format!("{SCRATCH_PREFIX}{}-", std::process::id()))
        .tempdir()
        .map_err(|error| SourceError::Io(format!("cannot create a scratch directory: {error}")))?;
    let remote = Remote::new(dir.path(), timeout()?);
    let scratch = Scratch { dir, _guard: guard };
    remote.run(&["init", "--bare", "-q", "."], 4096)?;
    Ok((scratch, remote))
}

/// Removes the scratch folders in `temp` that a run killed outright (`kill -9`) left, and
/// ends the git run each names if it still runs: those of this user whose process is gone.
#[cfg(unix)]
fn reclaim_scratch(temp: &std::path::Path) {
    use std::os::unix::fs::MetadataExt as _;
    let Ok(entries) = std::fs::read_dir(temp) else {
        return;
    };
    let me = crate::io::git::current_uid();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = (name.to_str())
            .and_then(|name| name.strip_prefix(SCRATCH_PREFIX))
            .and_then(|rest| rest.split_once('-'))
            .and_then(|(pid, _)| pid.parse::<u32>().ok())
        else {
            continue;
        };
        let path = entry.path();
        let mine = (std::fs::symlink_metadata(&path)).is_ok_and(|m| m.is_dir() && m.uid() == me);
        if !mine || pid == std::process::id() || crate::io::git::process_lives(pid) {
            continue;
        }
        if let Ok(record) = std::fs::read_to_string(path.join(crate::io::git::GROUP_FILE)) {
            crate::io::git::end_left_group(&record);
        }
        let _ = std::fs::remove_dir_all(&path);
    }
}

#[cfg(not(unix))]
fn reclaim_scratch(_temp: &std::path::Path) {}

/// The cap on what a fetch may bring: `AUTOFIX_SOURCES_MAX_FETCH` bytes when set (to
/// refuse less on a small runner), else [`MAX_FETCHED_BYTES`].
fn fetch_cap() -> Result<u64, SourceError> {
    crate::io::settings::get()
        .sources_max_fetch
        .clone()
        .map(|cap| cap.unwrap_or(MAX_FETCHED_BYTES))
        .map_err(SourceError::Io)
}

/// A scratch repository holding `source`'s ref, commits and trees only (`tree:0`: no
/// file is fetched until it is read); the ref's full name and commit. The fetch is held to
/// the cap while it runs, not only once it is done.
fn fetched(source: &Source) -> Result<(Scratch, Remote, Resolved), SourceError> {
    let (dir, remote) = scratch()?;
    let resolved = resolve_in(&remote, source)?;
    let progress = format!("fetching `{}` from {}", source.name, source.url);
    let cap = fetch_cap()?;
    let run = remote.run_watched(
        &[
            "fetch",
            "--quiet",
            "--no-tags",
            "--no-recurse-submodules",
            "--filter=tree:0",
            "--",
            &source.url,
            &resolved.name,
        ],
        MAX_FILE_BYTES,
        &Watch {
            dir_cap: Some((dir.dir.path(), cap)),
            progress: Some(&progress),
        },
    );
    match run {
        Err(crate::io::git::GitError::OverCap { .. }) => {
            return Err(SourceError::TooLarge {
                name: source.name.clone(),
                what: "the fetched history".into(),
                cap,
            });
        }
        other => other?,
    };
    Ok((dir, remote, resolved))
}

/// A ref resolved on the server: its full name (`refs/heads/main`, `refs/tags/v1`, or the
/// commit id itself) and the commit it names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Resolved {
    pub name: String,
    pub commit: String,
}

/// Which commit `source`'s ref names on its server now (`git ls-remote`); a commit id
/// is its own answer.
pub(crate) fn resolve(source: &Source) -> Result<String, SourceError> {
    source.validate().map_err(SourceError::Invalid)?;
    if is_commit_id(&source.reference) {
        return Ok(source.reference.clone());
    }
    let (_dir, remote) = scratch()?;
    Ok(resolve_in(&remote, source)?.commit)
}

/// The one reading of a ref every command shares: a commit id is itself; a full name
/// (`refs/heads/x`, `refs/tags/x`) is looked up as written; a short name is the branch
/// `refs/heads/NAME` when there is one, else the tag `refs/tags/NAME` (peeled to its
/// commit). Never git's DWIM, which would let a tag named `main` stand in for the branch.
fn resolve_in(remote: &Remote, source: &Source) -> Result<Resolved, SourceError> {
    let reference = &source.reference;
    if is_commit_id(reference) {
        return Ok(Resolved {
            name: reference.clone(),
            commit: reference.clone(),
        });
    }
    let progress = format!("asking {} for `{reference}`", source.url);
    let listed = remote.run_watched(
        &["ls-remote", "--", &source.url, reference],
        MAX_FILE_BYTES,
        &Watch {
            dir_cap: None,
            progress: Some(&progress),
        },
    )?;
    let text = String::from_utf8_lossy(&listed);
    let id_of = |name: &str| {
        text.lines().find_map(|line| {
            let (id, refname) = line.split_once('\t')?;
            (refname == name).then(|| id.to_string())
        })
    };
    let candidates = if reference.starts_with("refs/") {
        vec![reference.clone()]
    } else {
        vec![
            format!("refs/heads/{reference}"),
            format!("refs/tags/{reference}"),
        ]
    };
    for name in candidates {
        // A tag's commit is its peeled line when it is annotated.
        if let Some(commit) = id_of(&format!("{name}^{{}}")).or_else(|| id_of(&name)) {
            return Ok(Resolved { name, commit });
        }
    }
    Err(SourceError::NoSuchRef {
        name: source.name.clone(),
        reference: reference.clone(),
    })
}

pub(crate) fn is_commit_id(text: &str) -> bool {
    (text.len() == 40 || text.len() == 64) && text.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Fetches `source`'s ref and reads its rules file. With `pinned`, that commit must be
/// the new one or one of its ancestors, or the source's history was rewritten: fail
/// closed.
pub(crate) fn fetch(source: &Source, pinned: Option<&str>) -> Result<Fetched, SourceError> {
    source.validate().map_err(SourceError::Invalid)?;
    let (_dir, remote, _resolved) = fetched(source)?;
    let weight = remote.run(&["count-objects", "-v"], 4096)?;
    let kib: u64 = String::from_utf8_lossy(&weight)
        .lines()
        .filter_map(|line| {
            let (key, value) = line.split_once(": ")?;
            matches!(key, "size" | "size-pack").then(|| value.trim().parse::<u64>().ok())?
        })
        .sum();
    let cap = fetch_cap()?;
    if kib.saturating_mul(1024) > cap {
        return Err(SourceError::TooLarge {
            name: source.name.clone(),
            what: format!("the fetched history ({kib} KiB)"),
            cap,
        });
    }
    let commit = String::from_utf8_lossy(&remote.run(
        &["rev-parse", "--verify", "--quiet", "FETCH_HEAD^{commit}"],
        4096,
    )?)
    .trim()
    .to_string();
    if let Some(pinned) = pinned {
        require_in_history(&remote, source, pinned, &commit)?;
    }
    let (blob, bytes) = read_file(&remote, source, &commit)?;
    Ok(Fetched {
        commit,
        blob,
        bytes,
    })
}

/// What a source's server holds for a pin: the commit its ref names now, and the blob id
/// of its rules file at the pinned commit (`sources outdated` compares it with the lock's:
/// a copy re-hashed with both its digest and its blob id passes every offline check, never
/// this one). The pinned commit must be in the ref's history, as for a fetch.
pub(crate) fn pinned_blob(source: &Source, pinned: &str) -> Result<(String, String), SourceError> {
    source.validate().map_err(SourceError::Invalid)?;
    if !is_commit_id(pinned) {
        return Err(SourceError::Invalid("a pin is not a commit id".into()));
    }
    let (_dir, remote, resolved) = fetched(source)?;
    require_in_history(&remote, source, pinned, &resolved.commit)?;
    let blob = blob_id(&remote, source, pinned)?;
    Ok((resolved.commit, blob))
}

/// The pinned commit is `now` or one of its ancestors, or the source's history was
/// rewritten: fail closed.
fn require_in_history(
    remote: &Remote,
    source: &Source,
    pinned: &str,
    now: &str,
) -> Result<(), SourceError> {
    let ancestor = || (remote.run(&["merge-base", "--is-ancestor", pinned, now], 4096)).is_ok();
    if pinned == now || ancestor() {
        return Ok(());
    }
    Err(SourceError::Rewritten {
        name: source.name.clone(),
        reference: source.reference.clone(),
        pinned: pinned.to_string(),
        now: now.to_string(),
    })
}

/// The rules file at `commit`: a regular file (not a link, not a folder), within the cap.
fn read_file(
    remote: &Remote,
    source: &Source,
    commit: &str,
) -> Result<(String, Vec<u8>), SourceError> {
    let id = blob_id(remote, source, commit)?;
    let size = String::from_utf8_lossy(&remote.run(&["cat-file", "-s", &id], 4096)?)
        .trim()
        .parse::<u64>()
        .unwrap_or(u64::MAX);
    if size > MAX_FILE_BYTES {
        return Err(SourceError::TooLarge {
            name: source.name.clone(),
            what: format!("{} ({size} bytes)", source.path),
            cap: MAX_FILE_BYTES,
        });
    }
    let bytes = remote.run(&["cat-file", "blob", &id], MAX_FILE_BYTES)?;
    Ok((id, bytes))
}

/// The blob id of the rules file at `commit`, a regular file (not a link, not a folder).
fn blob_id(remote: &Remote, source: &Source, commit: &str) -> Result<String, SourceError> {
    let missing = || SourceError::NoFile {
        name: source.name.clone(),
        path: source.path.clone(),
        commit: commit.to_string(),
    };
    let listed = remote.run(&["ls-tree", "-z", commit, "--", &source.path], 64 * 1024)?;
    let entry = String::from_utf8_lossy(&listed);
    let (info, _) = entry.split_once('\t').ok_or_else(missing)?;
    let fields: Vec<&str> = info.split(' ').collect();
    let [mode, kind, id] = fields.as_slice() else {
        return Err(missing());
    };
    if *kind != "blob" || !matches!(*mode, "100644" | "100755") {
        return Err(SourceError::Invalid(format!(
            "source `{}`: {} at {commit} is not a regular file (mode {mode}, {kind})",
            source.name, source.path
        )));
    }
    Ok((*id).to_string())
}

/// Whether commit `b` descends from commit `a` (`Some(true)`), `a` from `b`
/// (`Some(false)`), or neither (`None`), in the history of `source`'s ref on its server.
pub(crate) fn descends(source: &Source, a: &str, b: &str) -> Result<Option<bool>, SourceError> {
    source.validate().map_err(SourceError::Invalid)?;
    if !is_commit_id(a) || !is_commit_id(b) {
        return Err(SourceError::Invalid("a pin is not a commit id".into()));
    }
    let (_dir, remote, _resolved) = fetched(source)?;
    let ancestor = |x: &str, y: &str| {
        remote
            .run(&["merge-base", "--is-ancestor", x, y], 4096)
            .is_ok()
    };
    Ok(if ancestor(a, b) {
        Some(true)
    } else if ancestor(b, a) {
        Some(false)
    } else {
        None
    })
}
