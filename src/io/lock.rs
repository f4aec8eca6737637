//! The one place that touches file locks: an exclusive lock on a sidecar file next to the
//! file it guards (`autofix.json.lock` for the rules file, `AGENTS.md.lock` for an export
//! target), never on the data file itself, because renaming a new file over a locked one
//! hands the next writer a different inode.
//!
//! The sidecar exists only while a writer holds it, so it never shows in `git status`:
//! the holder deletes it before unlocking, and a waiter that then wins the lock on the
//! deleted inode sees that the path no longer names it and starts over on the new file.
//! A holder killed with `kill -9` leaves it until the next command; in `.agents/` a
//! `.gitignore` keeps git from committing it meanwhile.
//!
//! `fs2` is called fully qualified: since Rust 1.89 std's own `File::lock*` methods shadow
//! fs2's of the same names.

use std::ffi::OsString;
use std::fs::{File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};
use std::thread;
use std::time::{Duration, Instant};

/// Environment variable: how long to wait for the lock, in seconds (fractions allowed).
const TIMEOUT_ENV: &str = "AUTOFIX_LOCK_TIMEOUT";

/// The default wait for the lock.
pub(crate) const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

#[derive(Debug, thiserror::Error)]
pub(crate) enum LockError {
    #[error("cannot open the lock file {}: {error}", path.display())]
    Open { path: PathBuf, error: io::Error },
    #[error(
        "the lock file {} is a symbolic link; autofix never follows one (remove it)",
        path.display()
    )]
    Link { path: PathBuf },
    #[error("cannot lock {}: {error}", path.display())]
    Lock { path: PathBuf, error: io::Error },
    #[error(
        "timed out after {:.1}s waiting for the lock {} (another autofix command is writing the file; \
         raise {TIMEOUT_ENV} to wait longer)",
        waited.as_secs_f64(),
        path.display()
    )]
    Timeout { path: PathBuf, waited: Duration },
    #[error("{0}")]
    Setting(String),
}

impl LockError {
    /// The same error, its lock file shown below the first of `roots` it lies in.
    pub(crate) fn relative_to(self, roots: &[PathBuf]) -> LockError {
        let b = |path: PathBuf| crate::io::workspace::below(&path, roots);
        match self {
            LockError::Open { path, error } => LockError::Open {
                path: b(path),
                error,
            },
            LockError::Link { path } => LockError::Link { path: b(path) },
            LockError::Lock { path, error } => LockError::Lock {
                path: b(path),
                error,
            },
            LockError::Timeout { path, waited } => LockError::Timeout {
                path: b(path),
                waited,
            },
            LockError::Setting(message) => LockError::Setting(message),
        }
    }
}

/// An exclusive lock, held until dropped: the sidecar is deleted, then closing the file
/// releases the lock.
#[derive(Debug)]
pub(crate) struct FileLock {
    file: File,
    path: PathBuf,
}

impl Drop for FileLock {
    fn drop(&mut self) {
        // Still holding the lock, so no other writer can be using this name; a waiter on
        // this inode will notice it is gone (see `names_this_file`).
        if names_this_file(&self.path, &self.file) {
            let _ = std::fs::remove_file(&self.path);
        }
        let _ = fs2::FileExt::unlock(&self.file);
    }
}

/// The sidecar lock path for a data file: `<file>.lock`.
pub(crate) fn lock_path_for(target: &Path) -> PathBuf {
    let mut name = target.file_name().map(OsString::from).unwrap_or_default();
    name.push(".lock");
    target.with_file_name(name)
}

/// The lock timeout: `AUTOFIX_LOCK_TIMEOUT` seconds as the front end read it, else 10 s.
/// A value that is not a number of seconds is an error, not silently the default: a user
/// who set it meant it.
pub(crate) fn timeout() -> Result<Duration, LockError> {
    crate::io::settings::get()
        .lock_timeout
        .clone()
        .map(|wait| wait.unwrap_or(DEFAULT_TIMEOUT))
        .map_err(LockError::Setting)
}

/// Takes the exclusive lock on `path`, creating the file if needed (never through a
/// symbolic link); retries with backoff until `timeout` has passed.
pub(crate) fn acquire(path: &Path, timeout: Duration) -> Result<FileLock, LockError> {
    ignore_leftovers(path);
    let start = Instant::now();
    let mut pause = Duration::from_millis(1);
    loop {
        let file = open(path)?;
        match fs2::FileExt::try_lock_exclusive(&file) {
            // Won the lock on a file a previous holder has deleted or replaced: start
            // over on the file the name holds now.
            Ok(()) if !names_this_file(path, &file) && start.elapsed() < timeout => continue,
            Ok(()) if !names_this_file(path, &file) => {
                return Err(LockError::Timeout {
                    path: path.to_path_buf(),
                    waited: start.elapsed(),
                });
            }
            Ok(()) => {
                return Ok(FileLock {
                    file,
                    path: path.to_path_buf(),
                });
            }
            Err(error) if is_contended(&error) => {}
            Err(source) => {
                return Err(LockError::Lock {
                    path: path.to_path_buf(),
                    error: source,
                });
            }
        }
        let waited = start.elapsed();
        if waited >= timeout {
            return Err(LockError::Timeout {
                path: path.to_path_buf(),
                waited,
            });
        }
        thread::sleep(pause.min(timeout.saturating_sub(waited)));
        pause = (pause * 2).min(Duration::from_millis(25));
    }
}

/// What autofix writes in `.agents/.gitignore` when the folder has none.
const AGENTS_GITIGNORE: &str = "# Written by autofix: a lock or temp file that a killed autofix command left\n\
# (the next command removes it), or a source's staged copy, is never committed.\n*.lock\n.*.tmp\n.*.pending\n";

/// A `kill -9` leaves the sidecar (and the writer's temp file) until the next command, and
/// a `git add .agents` in between would commit it. So a lock taken in autofix's own folder
/// `.agents/` (or a folder below it) first makes sure the folder has a `.gitignore`: one
/// is created when there is none (never through a link, never over a file), and one that
/// exists is left as it is, whatever it holds. Elsewhere (beside `AGENTS.md`) nothing is
/// written: those folders are the user's.
fn ignore_leftovers(lock: &Path) {
    use std::io::Write as _;
    let Some(agents) = lock
        .ancestors()
        .skip(1)
        .take(3)
        .find(|dir| dir.file_name().is_some_and(|name| name == ".agents"))
    else {
        return;
    };
    let ignore = agents.join(".gitignore");
    if ignore.symlink_metadata().is_ok() {
        return;
    }
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    if let Ok(mut file) = no_follow(&mut options, 0o666).open(&ignore) {
        let _ = file.write_all(AGENTS_GITIGNORE.as_bytes());
    }
}

/// `options` made to create a file with `mode` and never to follow a link at the last
/// component (`O_NOFOLLOW`: the open fails with `ELOOP`), nor to leak into a child.
#[cfg(unix)]
fn no_follow(options: &mut OpenOptions, mode: u32) -> &mut OpenOptions {
    use std::os::unix::fs::OpenOptionsExt;
    options
        .mode(mode)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
}

/// Elsewhere no flag refuses a link at open: [`open`] checks the path first instead.
#[cfg(not(unix))]
fn no_follow(options: &mut OpenOptions, _mode: u32) -> &mut OpenOptions {
    options
}

/// Whether opening failed because the path is a symbolic link.
#[cfg(unix)]
fn is_link_refusal(error: &io::Error, _path: &Path) -> bool {
    error.raw_os_error() == Some(libc::ELOOP)
}

#[cfg(not(unix))]
fn is_link_refusal(_error: &io::Error, path: &Path) -> bool {
    path.is_symlink()
}

/// Opens (or creates, mode 0600: it holds nothing) the sidecar without following a link.
fn open(path: &Path) -> Result<File, LockError> {
    let link = || LockError::Link {
        path: path.to_path_buf(),
    };
    // Without `O_NOFOLLOW`, a link is refused before the open (a race a unix build has not).
    #[cfg(not(unix))]
    if path.is_symlink() {
        return Err(link());
    }
    let mut options = OpenOptions::new();
    options.read(true).write(true).create(true).truncate(false);
    no_follow(&mut options, 0o600).open(path).map_err(|source| {
        if is_link_refusal(&source, path) {
            link()
        } else {
            LockError::Open {
                path: path.to_path_buf(),
                error: source,
            }
        }
    })
}

/// Whether `path` still names the open `file` (same device and inode).
#[cfg(unix)]
fn names_this_file(path: &Path, file: &File) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::symlink_metadata(path), file.metadata()) {
        (Ok(named), Ok(open)) => named.dev() == open.dev() && named.ino() == open.ino(),
        _ => false,
    }
}

/// Without a stable file identity on other systems: the path still names a file of the
/// same size and creation time (the sidecar is empty, so the time tells a new one apart).
#[cfg(not(unix))]
fn names_this_file(path: &Path, file: &File) -> bool {
    match (std::fs::symlink_metadata(path), file.metadata()) {
        (Ok(named), Ok(open)) => {
            named.is_file()
                && named.len() == open.len()
                && named.created().ok() == open.created().ok()
        }
        _ => false,
    }
}

fn is_contended(error: &io::Error) -> bool {
    error.kind() == io::ErrorKind::WouldBlock
        || error.raw_os_error() == fs2::lock_contended_error().raw_os_error()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lock_is_a_sidecar() {
        assert_eq!(
            lock_path_for(Path::new("/x/.agents/autofix.json")),
            Path::new("/x/.agents/autofix.json.lock")
        );
    }

    #[test]
    fn the_sidecar_exists_only_while_held() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.lock");
        let held = acquire(&path, Duration::ZERO).unwrap();
        assert!(path.exists());
        drop(held);
        assert!(!path.exists());
        let again = acquire(&path, Duration::ZERO).unwrap();
        assert!(path.exists());
        drop(again);
    }

    #[cfg(unix)]
    #[test]
    fn a_link_is_never_followed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.lock");
        std::os::unix::fs::symlink(dir.path().join("target"), &path).unwrap();
        let error = acquire(&path, Duration::ZERO).unwrap_err();
        assert!(matches!(error, LockError::Link { .. }), "{error}");
        assert!(!dir.path().join("target").exists());
    }

    #[test]
    fn a_held_lock_times_out() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.lock");
        let _held = acquire(&path, Duration::ZERO).unwrap();
        let error = acquire(&path, Duration::from_millis(20)).unwrap_err();
        assert!(matches!(error, LockError::Timeout { .. }), "{error}");
    }
}
