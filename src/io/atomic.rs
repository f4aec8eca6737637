//! Replacing a file so that a crash at any instant leaves the old bytes or the new ones:
//! resolve the symlink chain to the real target, write a temp file in the target's
//! directory, fsync it, rename it over the target, fsync the directory (cargo's
//! `write_atomic`, git's lockfile commit, SQLite's journal all follow this order).

use std::fmt;
use std::fs::{self, File, Permissions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// How many links a chain may have before it counts as a loop (Linux's own limit).
const MAX_LINKS: usize = 40;

#[derive(Debug, thiserror::Error)]
pub(crate) enum AtomicError {
    #[error("{} is a symbolic link to {}, which does not exist", link.display(), target.display())]
    DanglingLink { link: PathBuf, target: PathBuf },
    #[error("{} is a symbolic link loop (more than {MAX_LINKS} links)", path.display())]
    LinkLoop { path: PathBuf },
    #[error("cannot inspect {}: {error}", path.display())]
    Inspect { path: PathBuf, error: io::Error },
    #[error("{} is not a regular file", path.display())]
    NotAFile { path: PathBuf },
    #[error("{} is read-only; make it writable (chmod u+w) and try again", path.display())]
    ReadOnly { path: PathBuf },
    #[error("cannot create the directory {}: {error}", path.display())]
    CreateDir { path: PathBuf, error: io::Error },
    #[error("cannot create a temporary file in {}: {error}", dir.display())]
    CreateTemp { dir: PathBuf, error: io::Error },
    #[error("cannot write {}: {error}", path.display())]
    Write { path: PathBuf, error: io::Error },
    #[error("cannot flush {} to disk: {error}", path.display())]
    Sync { path: PathBuf, error: io::Error },
    #[error("cannot rename the temporary file over {}: {error}", path.display())]
    Rename { path: PathBuf, error: io::Error },
    #[error(transparent)]
    Refused(#[from] Refusal),
    #[error(transparent)]
    Lock(#[from] crate::io::lock::LockError),
}

impl AtomicError {
    /// The same error, each file it names shown below the first of `roots` it lies in
    /// (see [`crate::io::workspace::below`]).
    pub(crate) fn relative_to(self, roots: &[PathBuf]) -> AtomicError {
        let b = |path: PathBuf| crate::io::workspace::below(&path, roots);
        match self {
            AtomicError::DanglingLink { link, target } => AtomicError::DanglingLink {
                link: b(link),
                target: b(target),
            },
            AtomicError::LinkLoop { path } => AtomicError::LinkLoop { path: b(path) },
            AtomicError::Inspect { path, error } => AtomicError::Inspect {
                path: b(path),
                error,
            },
            AtomicError::NotAFile { path } => AtomicError::NotAFile { path: b(path) },
            AtomicError::ReadOnly { path } => AtomicError::ReadOnly { path: b(path) },
            AtomicError::CreateDir { path, error } => AtomicError::CreateDir {
                path: b(path),
                error,
            },
            AtomicError::CreateTemp { dir, error } => {
                AtomicError::CreateTemp { dir: b(dir), error }
            }
            AtomicError::Write { path, error } => AtomicError::Write {
                path: b(path),
                error,
            },
            AtomicError::Sync { path, error } => AtomicError::Sync {
                path: b(path),
                error,
            },
            AtomicError::Rename { path, error } => AtomicError::Rename {
                path: b(path),
                error,
            },
            AtomicError::Refused(refusal) => AtomicError::Refused(refusal.relative_to(roots)),
            AtomicError::Lock(error) => AtomicError::Lock(error.relative_to(roots)),
        }
    }
}

/// The file was replaced, but its directory could not be flushed to disk: the new
/// content is in place, so this is a warning, not a failure.
#[derive(Debug)]
pub(crate) struct Unflushed {
    pub dir: PathBuf,
    pub error: io::Error,
}

impl Unflushed {
    /// The same warning, its directory shown below the first of `roots` it lies in.
    pub(crate) fn relative_to(self, roots: &[PathBuf]) -> Unflushed {
        Unflushed {
            dir: crate::io::workspace::below(&self.dir, roots),
            error: self.error,
        }
    }
}

impl fmt::Display for Unflushed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the file was replaced, but its directory {} could not be flushed to disk: {}",
            self.dir.display(),
            self.error
        )
    }
}

/// Why a write was refused before anything was changed: what `safe_write`'s fence and its
/// unchanged check decide.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Refusal {
    #[error(
        "{} leads into git's own directory ({}); autofix never writes there",
        path.display(),
        real.display()
    )]
    GitDirectory { path: PathBuf, real: PathBuf },
    #[error(
        "{} leads to the rules file; autofix never writes the rules file under another name",
        path.display()
    )]
    RulesFile { path: PathBuf },
    #[error("{} leads to the rules file's lock; autofix never writes there", path.display())]
    RulesLock { path: PathBuf },
    #[error("{} leads outside the repository; autofix writes only inside it", path.display())]
    Outside { path: PathBuf },
    #[error(
        "{} changed while autofix was writing it (another program saved it); it was left as \
         that program wrote it: run again",
        path.display()
    )]
    Changed { path: PathBuf },
}

impl Refusal {
    /// The same refusal, each file it names shown below the first of `roots` it lies in.
    pub(crate) fn relative_to(self, roots: &[PathBuf]) -> Refusal {
        let b = |path: PathBuf| crate::io::workspace::below(&path, roots);
        match self {
            Refusal::GitDirectory { path, real } => Refusal::GitDirectory {
                path: b(path),
                real: b(real),
            },
            Refusal::RulesFile { path } => Refusal::RulesFile { path: b(path) },
            Refusal::RulesLock { path } => Refusal::RulesLock { path: b(path) },
            Refusal::Outside { path } => Refusal::Outside { path: b(path) },
            Refusal::Changed { path } => Refusal::Changed { path: b(path) },
        }
    }
}

/// The real file behind a path: the end of its symlink chain.
#[derive(Clone, Debug)]
pub(crate) struct Target {
    pub path: PathBuf,
    /// The file's metadata, when it exists.
    pub metadata: Option<fs::Metadata>,
}

/// Follows the whole symlink chain from `path`, each relative link against the directory
/// that holds it. A missing final file is fine (it will be created), unless a link points
/// at it: a dangling link is an error, so that a typo is not silently replaced by a file.
pub(crate) fn resolve(path: &Path) -> Result<Target, AtomicError> {
    let mut current = path.to_path_buf();
    for _ in 0..=MAX_LINKS {
        match current.symlink_metadata() {
            Ok(metadata) if metadata.file_type().is_symlink() => {
                let link = fs::read_link(&current).map_err(|source| AtomicError::Inspect {
                    path: current.clone(),
                    error: source,
                })?;
                let next = match current.parent() {
                    Some(parent) => parent.join(&link),
                    None => link,
                };
                if next.symlink_metadata().is_err() {
                    return Err(AtomicError::DanglingLink {
                        link: path.to_path_buf(),
                        target: next,
                    });
                }
                current = next;
            }
            Ok(metadata) => {
                return Ok(Target {
                    path: current,
                    metadata: Some(metadata),
                });
            }
            Err(error) if error.kind() == io::ErrorKind::NotFound => {
                return Ok(Target {
                    path: current,
                    metadata: None,
                });
            }
            Err(source) => {
                return Err(AtomicError::Inspect {
                    path: current,
                    error: source,
                });
            }
        }
    }
    Err(AtomicError::LinkLoop {
        path: path.to_path_buf(),
    })
}

impl Target {
    /// Refuses what cannot be replaced: a directory or special file, or a file without a
    /// write bit (refused even for root, who could otherwise replace it).
    pub(crate) fn check_writable(&self) -> Result<(), AtomicError> {
        let Some(metadata) = &self.metadata else {
            return Ok(());
        };
        if !metadata.is_file() {
            return Err(AtomicError::NotAFile {
                path: self.path.clone(),
            });
        }
        // No write bit for anyone (`readonly` on unix; the read-only attribute elsewhere).
        if metadata.permissions().readonly() {
            return Err(AtomicError::ReadOnly {
                path: self.path.clone(),
            });
        }
        Ok(())
    }

    pub(crate) fn dir(&self) -> &Path {
        match self.path.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        }
    }

    /// The prefix of this target's temp files: `.<name>.` (e.g. `.autofix.json.`).
    fn temp_prefix(&self) -> String {
        let name = self.path.file_name().unwrap_or_default().to_string_lossy();
        format!(".{name}.")
    }

    /// Creates the target's directory when it does not exist yet.
    pub(crate) fn create_dir(&self) -> Result<(), AtomicError> {
        let dir = self.dir();
        fs::create_dir_all(dir).map_err(|source| AtomicError::CreateDir {
            path: dir.to_path_buf(),
            error: source,
        })
    }

    /// Removes temp files a killed writer left behind. Call only while holding the lock
    /// that every writer of this target takes before creating its temp file.
    pub(crate) fn remove_stale_temps(&self) {
        for temp in self.stale_temps() {
            let _ = fs::remove_file(&temp);
            listings::forget(self.dir(), &temp);
        }
    }

    /// Whether temp files of this target lie in its directory.
    pub(crate) fn has_stale_temps(&self) -> bool {
        !self.stale_temps().is_empty()
    }

    fn stale_temps(&self) -> Vec<PathBuf> {
        let prefix = self.temp_prefix();
        listings::temps_in(self.dir())
            .into_iter()
            .filter(|path| {
                path.file_name()
                    .is_some_and(|name| name.to_string_lossy().starts_with(&prefix))
            })
            .collect()
    }

    /// Replaces the target with `bytes`. The mode of the old file is kept; a new file gets
    /// 0666 less the umask. Returns a warning when the rename happened but the directory
    /// could not be flushed: the new content is in place, so this is not a failure.
    pub(crate) fn write(&self, bytes: &[u8]) -> Result<Option<Unflushed>, AtomicError> {
        self.write_checked(&[bytes], || Ok(()))
    }

    /// [`Target::write`] of the concatenation of `pieces`, with `check` called after the
    /// temp file is flushed and right before the rename: an error from it leaves the
    /// target untouched and removes the temp file.
    pub(crate) fn write_checked(
        &self,
        pieces: &[&[u8]],
        check: impl FnOnce() -> Result<(), AtomicError>,
    ) -> Result<Option<Unflushed>, AtomicError> {
        let dir = self.dir();
        // The temp file is created with the final mode (the umask can only narrow it), so
        // it is never readable by more people than the file it replaces.
        let permissions = kept_permissions(self.metadata.as_ref());
        let prefix = self.temp_prefix();
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(TEMP_SUFFIX);
        if let Some(permissions) = &permissions {
            builder.permissions(permissions.clone());
        }
        let mut temp = builder
            .tempfile_in(dir)
            .map_err(|source| AtomicError::CreateTemp {
                dir: dir.to_path_buf(),
                error: source,
            })?;
        let temp_path = temp.path().to_path_buf();
        let write_error = |source| AtomicError::Write {
            path: temp_path.clone(),
            error: source,
        };
        for piece in pieces {
            temp.write_all(piece).map_err(write_error)?;
        }
        if let (Some(permissions), Some(_)) = (permissions, &self.metadata) {
            // fchmod is not subject to the umask, so the old mode comes back exactly
            // (never wider than it: the temp file was created with at most these bits).
            temp.as_file()
                .set_permissions(permissions)
                .map_err(write_error)?;
        }
        // If the data cannot be flushed, do not rename: the temp file is dropped (removed)
        // and the target is untouched. Never retry a failed fsync (PostgreSQL's lesson).
        temp.as_file()
            .sync_all()
            .map_err(|source| AtomicError::Sync {
                path: temp_path.clone(),
                error: source,
            })?;
        check()?;
        temp.persist(&self.path)
            .map_err(|error| AtomicError::Rename {
                path: self.path.clone(),
                error: error.error,
            })?;
        Ok(sync_dir(dir).err().map(|error| Unflushed {
            dir: dir.to_path_buf(),
            error,
        }))
    }
}

/// Every temp file ends so, which keeps the stale-file sweep from touching anything else.
const TEMP_SUFFIX: &str = ".tmp";

/// The temp files found in each directory, listed once per command: a writer sweeps its
/// target's leftovers before every write, and listing the whole folder each time made
/// `export` quadratic in the files of a folder (1,000 scoped files: a million entries
/// read). A temp file left after the listing (by a writer killed meanwhile) is swept by
/// the next command; the MCP server starts each request afresh ([`forget_listings`]).
mod listings {
    use std::collections::HashMap;
    use std::path::{Path, PathBuf};
    use std::sync::Mutex;

    static FOUND: Mutex<Option<HashMap<PathBuf, Vec<PathBuf>>>> = Mutex::new(None);

    /// The temp files (`.*.tmp`) of `dir`, listed the first time it is asked for.
    pub(super) fn temps_in(dir: &Path) -> Vec<PathBuf> {
        let mut found = FOUND
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        found
            .get_or_insert_with(HashMap::new)
            .entry(dir.to_path_buf())
            .or_insert_with(|| list(dir))
            .clone()
    }

    /// `temp` is gone (swept).
    pub(super) fn forget(dir: &Path, temp: &Path) {
        let mut found = FOUND
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(temps) = found.as_mut().and_then(|found| found.get_mut(dir)) {
            temps.retain(|known| known != temp);
        }
    }

    /// Drops every listing, so the next sweep reads its folder again.
    pub(super) fn clear() {
        *FOUND
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = None;
    }

    fn list(dir: &Path) -> Vec<PathBuf> {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return Vec::new();
        };
        entries
            .flatten()
            .filter(|entry| {
                let name = entry.file_name();
                let name = name.to_string_lossy();
                name.starts_with('.') && name.ends_with(super::TEMP_SUFFIX)
            })
            .map(|entry| entry.path())
            .collect()
    }
}

/// Forgets the folders listed for temp files: for a process that runs many commands (the
/// MCP server), before each, so that each sweeps what was left since the last.
pub(crate) fn forget_listings() {
    listings::clear();
}

fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

/// The permissions the replacement gets: the old file's mode bits (0666 for a new file,
/// which the umask narrows) on unix; elsewhere the old file's, or the system's default.
#[cfg(unix)]
fn kept_permissions(old: Option<&std::fs::Metadata>) -> Option<Permissions> {
    use std::os::unix::fs::PermissionsExt;
    let mode = old.map_or(0o666, |metadata| metadata.permissions().mode() & 0o7777);
    Some(Permissions::from_mode(mode))
}

#[cfg(not(unix))]
fn kept_permissions(old: Option<&std::fs::Metadata>) -> Option<Permissions> {
    old.map(std::fs::Metadata::permissions)
}

#[cfg(test)]
mod tests {
    #[cfg(unix)]
    use super::*;
    #[cfg(unix)]
    use std::os::unix::fs::symlink;

    #[cfg(unix)]
    #[test]
    fn follows_relative_chains() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        fs::create_dir(dir.join("real")).unwrap();
        fs::write(dir.join("real/rules.json"), "[]").unwrap();
        symlink("real/rules.json", dir.join("one")).unwrap();
        symlink("one", dir.join("two")).unwrap();
        let target = resolve(&dir.join("two")).unwrap();
        assert_eq!(target.path, dir.join("real/rules.json"));
        assert!(target.metadata.is_some());
    }

    #[cfg(unix)]
    #[test]
    fn dangling_and_looping_links_are_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        symlink("nowhere", dir.join("dangling")).unwrap();
        assert!(matches!(
            resolve(&dir.join("dangling")),
            Err(AtomicError::DanglingLink { .. })
        ));
        symlink("b", dir.join("a")).unwrap();
        symlink("a", dir.join("b")).unwrap();
        assert!(matches!(
            resolve(&dir.join("a")),
            Err(AtomicError::LinkLoop { .. })
        ));
    }
}
