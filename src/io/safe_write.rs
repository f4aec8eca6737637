//! The one way autofix writes a file, for every command that writes one (`learn`, `init`,
//! `export`, `resolve`, `merge-driver --install`, `man --dir`, the MCP server): follow the symlink chain
//! and refuse a real location the [`Fence`] forbids (inside `.git/`, but for git's hooks
//! folder when the fence is [`Fence::git_hooks`] and autofix's own folder there when it is
//! [`Fence::git_folder`]; the rules file or its lock; outside the repository); take the
//! file's sidecar lock; sweep the temp files a killed writer left; check, right before the rename, that the file still holds what the
//! writer read; then replace it atomically ([`crate::io::atomic`]). Every refusal is a
//! [`Refusal`], which `atomic` declares among the write's errors.

use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};
use std::time::Duration;

use crate::io::atomic::{self, AtomicError, Refusal, Target};
use crate::io::lock::{self, FileLock};

/// Where a write may land.
#[derive(Clone, Debug, Default)]
pub(crate) struct Fence {
    /// The canonical repository root, when the file must stay inside one.
    root: Option<PathBuf>,
    /// The rules file's real location, when this is not a write of the rules file.
    rules: Option<PathBuf>,
    /// The roots the errors and warnings name files below, relative (see
    /// [`Fence::naming_below`]); none: every file by the path it was reached by.
    shown_below: Vec<PathBuf>,
    /// The one folder inside `.git/` a write may land in (git's hooks folder for `init
    /// --pre-commit`, `.git/autofix/` for the receipts): only files directly in it.
    git_folder: Option<PathBuf>,
}

impl Fence {
    /// A fence for the rules file itself: it may lie anywhere the user named (`--file`),
    /// but never inside a `.git` directory.
    pub(crate) fn rules_file() -> Fence {
        Fence::default()
    }

    /// A fence for files written where the user pointed, outside any repository's
    /// bookkeeping (`man --dir`): anywhere but inside a `.git` directory.
    pub(crate) fn user_directory() -> Fence {
        Fence::default()
    }

    /// A fence for the rules file that `init` creates in the repository at `root`: inside
    /// it, and not in `.git/`.
    pub(crate) fn rules_file_in(root: &Path) -> Fence {
        Fence {
            root: Some(fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf())),
            rules: None,
            shown_below: Vec::new(),
            git_folder: None,
        }
    }

    /// A fence for a hook script in git's hooks folder `hooks` (as `git rev-parse
    /// --git-path hooks` names it): a file directly in that folder, nowhere else.
    pub(crate) fn git_hooks(hooks: &Path) -> Fence {
        Fence::git_folder(hooks)
    }

    /// A fence for autofix's local records in git's directory (`.git/autofix/`, never
    /// committed): a file directly in `folder`, nowhere else.
    pub(crate) fn git_folder(folder: &Path) -> Fence {
        Fence {
            git_folder: Some(crate::io::workspace::real_location(folder)),
            ..Fence::default()
        }
    }

    /// A fence for the files a command writes in the repository at `root`: inside it, not
    /// in `.git/`, and not the rules file or its lock.
    pub(crate) fn repository(root: &Path, rules_file: &Path) -> Fence {
        Fence {
            root: Some(fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf())),
            rules: Some(crate::io::workspace::real_location(
                &atomic::resolve(rules_file).map_or_else(|_| rules_file.to_path_buf(), |t| t.path),
            )),
            shown_below: Vec::new(),
            git_folder: None,
        }
    }

    /// This fence, its errors and warnings naming the files below `roots` relative to the
    /// first they lie in: a command that shows its files relative to the workspace root
    /// keeps the root (as given and canonical) next to the absolute paths it writes.
    pub(crate) fn naming_below(mut self, roots: &[&Path]) -> Fence {
        self.shown_below = roots.iter().map(|root| root.to_path_buf()).collect();
        self
    }

    /// `error` as this fence's messages name its files (for a check made on a target
    /// outside the fence's own calls, such as [`Target::check_writable`]).
    pub(crate) fn named(&self, error: AtomicError) -> AtomicError {
        error.relative_to(&self.shown_below)
    }

    /// `path` as this fence's messages name it.
    pub(crate) fn show(&self, path: &Path) -> PathBuf {
        crate::io::workspace::below(path, &self.shown_below)
    }

    /// Resolves `path` to its real file and refuses what this fence forbids.
    pub(crate) fn resolve(&self, path: &Path) -> Result<Target, AtomicError> {
        let resolved = || -> Result<Target, AtomicError> {
            let target = atomic::resolve(path)?;
            self.check(path, &target.path)?;
            Ok(target)
        };
        resolved().map_err(|error| error.relative_to(&self.shown_below))
    }

    fn check(&self, path: &Path, real: &Path) -> Result<(), Refusal> {
        let location = crate::io::workspace::real_location(real);
        let refused = |make: fn(PathBuf) -> Refusal| Err(make(path.to_path_buf()));
        if let Some(folder) = &self.git_folder {
            return if location.parent() == Some(folder.as_path()) {
                Ok(())
            } else {
                refused(|path| Refusal::Outside { path })
            };
        }
        if location
            .components()
            .any(|part| part == Component::Normal(".git".as_ref()))
        {
            return Err(Refusal::GitDirectory {
                path: path.to_path_buf(),
                real: location,
            });
        }
        if let Some(rules) = &self.rules {
            if location == *rules {
                return refused(|path| Refusal::RulesFile { path });
            }
            if location == lock::lock_path_for(rules) {
                return refused(|path| Refusal::RulesLock { path });
            }
        }
        match &self.root {
            Some(root) if !location.starts_with(root) || location == *root => {
                refused(|path| Refusal::Outside { path })
            }
            _ => Ok(()),
        }
    }

    /// Resolves and locks `path` for a write: the sidecar lock held, the directory created,
    /// stale temp files swept, the target inspected again under the lock.
    pub(crate) fn lock(&self, path: &Path, timeout: Duration) -> Result<Locked, AtomicError> {
        let locked = || -> Result<Locked, AtomicError> {
            let target = self.resolve(path)?;
            target.check_writable()?;
            target.create_dir()?;
            let lock = lock::acquire(&lock::lock_path_for(&target.path), timeout)?;
            // Under the lock: a writer may have replaced the file (or a link) since.
            let target = self.resolve(path)?;
            target.check_writable()?;
            target.remove_stale_temps();
            Ok(Locked {
                target,
                _lock: lock,
                shown_below: self.shown_below.clone(),
            })
        };
        locked().map_err(|error| error.relative_to(&self.shown_below))
    }
}

impl Fence {
    /// Removes the temp files a killed writer left beside `path`, under its lock; for a
    /// run that has nothing to write there. Takes the lock only when there are some.
    /// A lock file a killed writer left goes too (taking it and releasing it deletes it).
    pub(crate) fn sweep(&self, path: &Path) -> Result<(), AtomicError> {
        let target = self.resolve(path)?;
        let lock_path = lock::lock_path_for(&target.path);
        if !target.has_stale_temps() && lock_path.symlink_metadata().is_err() {
            return Ok(());
        }
        let _lock = lock::acquire(&lock_path, timeout()?)
            .map_err(|error| error.relative_to(&self.shown_below))?;
        target.remove_stale_temps();
        Ok(())
    }
}

/// A file locked for writing: the lock is released when this is dropped.
#[derive(Debug)]
pub(crate) struct Locked {
    target: Target,
    _lock: FileLock,
    /// The fence's roots its messages name files below.
    shown_below: Vec<PathBuf>,
}

impl Locked {
    pub(crate) fn target(&self) -> &Target {
        &self.target
    }

    /// The file's bytes now; `None` when it does not exist.
    pub(crate) fn read(&self) -> Result<Option<Vec<u8>>, AtomicError> {
        read(&self.target.path).map_err(|error| error.relative_to(&self.shown_below))
    }

    /// Replaces the file with `pieces`, provided that it still holds `expected` (`None`:
    /// that it still does not exist) right before the rename.
    pub(crate) fn write(
        &self,
        pieces: &[&[u8]],
        expected: Option<&[u8]>,
    ) -> Result<Option<String>, AtomicError> {
        match self
            .target
            .write_checked(pieces, || self.unchanged(expected))
        {
            Ok(warning) => Ok(warning.map(|w| w.relative_to(&self.shown_below).to_string())),
            Err(error) => Err(error.relative_to(&self.shown_below)),
        }
    }

    /// Removes the file, provided that it still holds `expected`.
    pub(crate) fn remove(&self, expected: &[u8]) -> Result<(), AtomicError> {
        let removed = self.unchanged(Some(expected)).and_then(|()| {
            fs::remove_file(&self.target.path).map_err(|source| AtomicError::Write {
                path: self.target.path.clone(),
                error: source,
            })
        });
        removed.map_err(|error| error.relative_to(&self.shown_below))
    }

    fn unchanged(&self, expected: Option<&[u8]>) -> Result<(), AtomicError> {
        if read(&self.target.path)?.as_deref() == expected {
            Ok(())
        } else {
            Err(Refusal::Changed {
                path: self.target.path.clone(),
            }
            .into())
        }
    }
}

fn read(path: &Path) -> Result<Option<Vec<u8>>, AtomicError> {
    match crate::io::limits::read_file(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(AtomicError::Inspect {
            path: path.to_path_buf(),
            error: source,
        }),
    }
}

/// Writes `bytes` at `path` through the fence, under the lock, provided that the file
/// still holds `expected` (`None`: still absent). The writers outside `learn` use this.
pub(crate) fn write(
    fence: &Fence,
    path: &Path,
    bytes: &[u8],
    expected: Option<&[u8]>,
) -> Result<Option<String>, AtomicError> {
    fence.lock(path, timeout()?)?.write(&[bytes], expected)
}

/// Replaces whatever `path` holds with `bytes` through the fence, under the lock (the
/// file's bytes read under the lock are the ones expected right before the rename): for
/// files autofix owns whole, such as the man pages. A file that already holds `bytes` is
/// left alone. The warning is the write's own (a directory that could not be synced).
pub(crate) fn replace(
    fence: &Fence,
    path: &Path,
    bytes: &[u8],
) -> Result<Option<String>, AtomicError> {
    let locked = fence.lock(path, timeout()?)?;
    let before = locked.read()?;
    if before.as_deref() == Some(bytes) {
        return Ok(None);
    }
    locked.write(&[bytes], before.as_deref())
}

/// How many times a writer reads, plans and writes a file before another program's saves
/// in between make it give up on that file.
const ATTEMPTS: usize = 3;

/// Runs `attempt` (read, plan, write) again while `changed_meanwhile` says another program
/// saved the file between its read and its write, at most [`ATTEMPTS`] times in all; the
/// last result.
pub(crate) fn retrying<R>(
    mut attempt: impl FnMut() -> R,
    changed_meanwhile: impl Fn(&R) -> bool,
) -> R {
    for _ in 1..ATTEMPTS {
        let result = attempt();
        if !changed_meanwhile(&result) {
            return result;
        }
    }
    attempt()
}

/// The lock timeout for writers that take no option for it: `AUTOFIX_LOCK_TIMEOUT`, or
/// the default when it is unset; a bad value is the write's error.
pub(crate) fn timeout() -> Result<Duration, AtomicError> {
    Ok(lock::timeout()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(unix)]
    use std::os::unix::fs::symlink;

    #[cfg(unix)]
    #[test]
    fn the_fence_refuses_git_the_rules_file_its_lock_and_the_outside() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("repo");
        fs::create_dir_all(root.join(".git/hooks")).unwrap();
        fs::create_dir_all(root.join(".agents")).unwrap();
        fs::write(root.join(".agents/autofix.json"), "[]").unwrap();
        fs::write(root.join(".agents/autofix.json.lock"), "").unwrap();
        fs::write(root.join(".git/config"), "").unwrap();
        fs::write(root.join(".git/hooks/pre-commit"), "").unwrap();
        let fence = Fence::repository(&root, &root.join(".agents/autofix.json"));
        let refused = |link: &str, to: &Path| {
            symlink(to, root.join(link)).unwrap();
            match fence.resolve(&root.join(link)) {
                Err(AtomicError::Refused(refusal)) => refusal,
                other => panic!("{link}: {other:?}"),
            }
        };
        assert!(matches!(
            refused("a", &root.join(".git/config")),
            Refusal::GitDirectory { .. }
        ));
        assert!(matches!(
            refused("b", &root.join(".git/hooks/pre-commit")),
            Refusal::GitDirectory { .. }
        ));
        assert!(matches!(
            refused("c", Path::new(".agents/autofix.json")),
            Refusal::RulesFile { .. }
        ));
        assert!(matches!(
            refused("d", Path::new(".agents/autofix.json.lock")),
            Refusal::RulesLock { .. }
        ));
        fs::write(tmp.path().join("outside"), "x").unwrap();
        assert!(matches!(
            refused("e", &tmp.path().join("outside")),
            Refusal::Outside { .. }
        ));
        assert!(fence.resolve(&root.join("AGENTS.md")).is_ok());
    }

    #[test]
    fn a_git_folder_fence_admits_its_own_files_only() {
        let tmp = tempfile::tempdir().unwrap();
        let git = tmp.path().join(".git");
        fs::create_dir_all(&git).unwrap();
        let fence = Fence::git_folder(&git.join("autofix"));
        // The folder need not exist yet: the first receipt creates it.
        assert!(fence.resolve(&git.join("autofix/receipts.jsonl")).is_ok());
        for refused in [
            "config",
            "autofix/deeper/receipts.jsonl",
            "hooks/pre-commit",
        ] {
            assert!(
                matches!(
                    fence.resolve(&git.join(refused)),
                    Err(AtomicError::Refused(Refusal::Outside { .. }))
                ),
                "{refused}"
            );
        }
    }
}
