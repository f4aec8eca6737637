//! Fetching one source's rules file with the system git, safely: a fresh private bare
//! repository, `fetch --filter=tree:0` of the one ref (commits only where the server
//! filters), the file read with `ls-tree`/`cat-file` (never checked out: no hook, filter
//! or link of the source can act), the pinned commit required in the new history, and
//! caps on time, size and rule count.

use std::time::Duration;

use crate::io::git::Remote;

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
/// Environment variable: seconds each git step may take (default 60).
pub(crate) const TIMEOUT_ENV: &str = "AUTOFIX_SOURCES_TIMEOUT";

/// What a fetch brought back.
#[derive(Debug)]
pub(crate) struct Fetched {
    pub commit: String,
    pub blob: String,
    pub bytes: Vec<u8>,
}

fn timeout() -> Duration {
    std::env::var(TIMEOUT_ENV)
        .ok()
        .and_then(|value| value.trim().parse::<u64>().ok())
        .map_or(Duration::from_secs(60), Duration::from_secs)
}

/// A scratch bare repository for one fetch; removed when dropped.
fn scratch() -> Result<(tempfile::TempDir, Remote), SourceError> {
    let dir = tempfile::Builder::new()
        .prefix("autofix-source-")
        .tempdir()
        .map_err(|error| SourceError::Io(format!("cannot create a scratch directory: {error}")))?;
    let remote = Remote::new(dir.path(), timeout());
    remote.run(&["init", "--bare", "-q", "."], 4096)?;
    Ok((dir, remote))
}

/// A scratch repository holding `source`'s ref, commits and trees only (`tree:0`: no
/// file is fetched until it is read).
fn fetched(source: &Source) -> Result<(tempfile::TempDir, Remote), SourceError> {
    let (dir, remote) = scratch()?;
    remote.run(
        &[
            "fetch",
            "--quiet",
            "--no-tags",
            "--no-recurse-submodules",
            "--filter=tree:0",
            "--",
            &source.url,
            &source.reference,
        ],
        MAX_FILE_BYTES,
    )?;
    Ok((dir, remote))
}

/// Which commit `source`'s ref names on its server now (`git ls-remote`); a commit id
/// is its own answer.
pub(crate) fn resolve(source: &Source) -> Result<String, SourceError> {
    source.validate().map_err(SourceError::Invalid)?;
    if is_commit_id(&source.reference) {
        return Ok(source.reference.clone());
    }
    let (_dir, remote) = scratch()?;
    let listed = remote.run(
        &["ls-remote", "--", &source.url, &source.reference],
        MAX_FILE_BYTES,
    )?;
    let text = String::from_utf8_lossy(&listed);
    let wanted = [
        format!("refs/heads/{}", source.reference),
        format!("refs/tags/{}^{{}}", source.reference),
        format!("refs/tags/{}", source.reference),
        source.reference.clone(),
    ];
    for name in &wanted {
        if let Some(id) = text.lines().find_map(|line| {
            let (id, refname) = line.split_once('\t')?;
            (refname == name).then(|| id.to_string())
        }) {
            return Ok(id);
        }
    }
    Err(SourceError::NoSuchRef {
        name: source.name.clone(),
        reference: source.reference.clone(),
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
    let (_dir, remote) = fetched(source)?;
    let weight = remote.run(&["count-objects", "-v"], 4096)?;
    let kib: u64 = String::from_utf8_lossy(&weight)
        .lines()
        .filter_map(|line| {
            let (key, value) = line.split_once(": ")?;
            matches!(key, "size" | "size-pack").then(|| value.trim().parse::<u64>().ok())?
        })
        .sum();
    if kib.saturating_mul(1024) > MAX_FETCHED_BYTES {
        return Err(SourceError::TooLarge {
            name: source.name.clone(),
            what: format!("the fetched history ({kib} KiB)"),
            cap: MAX_FETCHED_BYTES,
        });
    }
    let commit = String::from_utf8_lossy(&remote.run(
        &["rev-parse", "--verify", "--quiet", "FETCH_HEAD^{commit}"],
        4096,
    )?)
    .trim()
    .to_string();
    if let Some(pinned) = pinned
        && pinned != commit
        && remote
            .run(&["merge-base", "--is-ancestor", pinned, &commit], 4096)
            .is_err()
    {
        return Err(SourceError::Rewritten {
            name: source.name.clone(),
            reference: source.reference.clone(),
            pinned: pinned.to_string(),
            now: commit,
        });
    }
    let (blob, bytes) = read_file(&remote, source, &commit)?;
    Ok(Fetched {
        commit,
        blob,
        bytes,
    })
}

/// The rules file at `commit`: a regular file (not a link, not a folder), within the cap.
fn read_file(
    remote: &Remote,
    source: &Source,
    commit: &str,
) -> Result<(String, Vec<u8>), SourceError> {
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
    let size = String::from_utf8_lossy(&remote.run(&["cat-file", "-s", id], 4096)?)
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
    let bytes = remote.run(&["cat-file", "blob", id], MAX_FILE_BYTES)?;
    Ok(((*id).to_string(), bytes))
}

/// Whether commit `b` descends from commit `a` (`Some(true)`), `a` from `b`
/// (`Some(false)`), or neither (`None`), in the history of `source`'s ref on its server.
pub(crate) fn descends(source: &Source, a: &str, b: &str) -> Result<Option<bool>, SourceError> {
    source.validate().map_err(SourceError::Invalid)?;
    if !is_commit_id(a) || !is_commit_id(b) {
        return Err(SourceError::Invalid("a pin is not a commit id".into()));
    }
    let (_dir, remote) = fetched(source)?;
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
