//! A per-user cache of the vendored copies already verified against their pins, so the
//! readers that run on every prompt (the hooks) hash no copy twice: an entry a copy, named
//! by a digest of its path, holding the copy's identity when it matched (device, inode,
//! size, modification and change times) and the pin's SHA-256 and blob id. Any edit to the
//! copy changes its change time (which no program can set back), so it is hashed again;
//! deleting the cache changes no result, only the time. It lives in
//! `$XDG_CACHE_HOME/autofix/verified/` (else `~/.cache/autofix/verified/`).

use std::fs::Metadata;
use std::path::{Path, PathBuf};

use super::lock::Pin;

/// The cache folder; `None` without `XDG_CACHE_HOME` (absolute) or `HOME`.
fn folder() -> Option<PathBuf> {
    let base = crate::io::settings::get().cache_home.clone()?;
    Some(base.join("autofix").join("verified"))
}

/// The entry of the copy at `path`.
fn entry(path: &Path) -> Option<PathBuf> {
    let real = std::fs::canonicalize(path).ok()?;
    let key = crate::report::digest::hex(real.as_os_str().as_encoded_bytes());
    Some(folder()?.join(&key[..32]))
}

/// The line an entry holds: the copy's identity, then what it matched.
#[cfg(unix)]
fn line(meta: &Metadata, pin: &Pin) -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    // A copy changed within the last second may change again within the same tick of
    // the clock: never remembered (git's "racy clean" case).
    let changed = std::time::UNIX_EPOCH
        + std::time::Duration::new(
            u64::try_from(meta.ctime()).ok()?,
            u32::try_from(meta.ctime_nsec()).ok()?,
        );
    let age = std::time::SystemTime::now().duration_since(changed).ok()?;
    (age >= std::time::Duration::from_secs(1)).then(|| {
        format!(
            "1 {} {} {} {}.{} {}.{} {} {}\n",
            meta.dev(),
            meta.ino(),
            meta.size(),
            meta.mtime(),
            meta.mtime_nsec(),
            meta.ctime(),
            meta.ctime_nsec(),
            pin.sha256,
            pin.blob
        )
    })
}

#[cfg(not(unix))]
fn line(_meta: &Metadata, _pin: &Pin) -> Option<String> {
    None
}

/// Whether the copy at `path`, whose metadata (taken after its bytes were read) is
/// `meta`, was verified against `pin` as it is now.
pub(crate) fn known(path: &Path, meta: &Metadata, pin: &Pin) -> bool {
    let (Some(entry), Some(line)) = (entry(path), line(meta, pin)) else {
        return false;
    };
    std::fs::read(entry).is_ok_and(|held| held == line.as_bytes())
}

/// Remembers that the copy at `path` (metadata `meta`) matched `pin`. Best effort: a
/// cache that cannot be written only costs the next reader a hash.
pub(crate) fn remember(path: &Path, meta: &Metadata, pin: &Pin) {
    use std::io::Write as _;
    let (Some(entry), Some(line)) = (entry(path), line(meta, pin)) else {
        return;
    };
    let Some(dir) = entry.parent() else {
        return;
    };
    if std::fs::create_dir_all(dir).is_err() {
        return;
    }
    // A temp file renamed over the entry: a reader never sees half a line.
    if let Ok(mut temp) = tempfile::NamedTempFile::new_in(dir)
        && temp.write_all(line.as_bytes()).is_ok()
    {
        let _ = temp.persist(&entry);
    }
}
