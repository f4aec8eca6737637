//! `init --pre-commit`: run `autofix enforce --staged` before every commit, from git's
//! pre-commit hook (<https://git-scm.com/docs/githooks#_pre_commit>), in the hooks folder
//! git names (`git rev-parse --git-path hooks`, so `core.hooksPath` is followed). Merge-safe:
//! an existing hook is never overwritten; autofix's lines go in a marked block appended to
//! it, and `--uninstall-pre-commit` takes exactly that block out again (and the file, when
//! autofix created it and nothing else was added).

use std::path::{Path, PathBuf};

use crate::io::git::Git;
use crate::io::safe_write::{self, Fence};

const BEGIN: &str = "# BEGIN autofix enforce (autofix init --pre-commit; remove with autofix init --uninstall-pre-commit)";
const END: &str = "# END autofix enforce";
const SHEBANG: &str = "#!/bin/sh\n";

/// The block's body: the staged changes checked, the commit stopped on a broken rule; a
/// machine without autofix on `PATH` is told so and not stopped.
const BODY: &str = "\
if command -v autofix >/dev/null 2>&1; then
  autofix enforce --staged || exit 1
else
  echo \"autofix is not on PATH: the rules' checks did not run\" >&2
fi
";

/// What the install or the uninstall did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    Created,
    Appended,
    AlreadyInstalled,
    Removed,
    /// The block was taken out of a hook that holds other lines.
    BlockRemoved,
    NotInstalled,
}

impl Outcome {
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Outcome::Created => "created",
            Outcome::Appended => "added autofix's block to",
            Outcome::AlreadyInstalled => "autofix's block is already in",
            Outcome::Removed => "removed",
            Outcome::BlockRemoved => "took autofix's block out of",
            Outcome::NotInstalled => "no autofix block in",
        }
    }
}

/// The pre-commit hook's path for the repository at `root`.
pub(crate) fn hook_path(root: &Path) -> anyhow::Result<PathBuf> {
    let git = Git::new(root);
    git.require_top_level("`autofix init --pre-commit` installs a git hook")?;
    Ok(git.git_path("hooks")?.join("pre-commit"))
}

fn block() -> String {
    format!("{BEGIN}\n{BODY}{END}\n")
}

/// Installs the block in the repository's pre-commit hook.
pub(crate) fn install(root: &Path) -> anyhow::Result<(Outcome, PathBuf)> {
    let path = hook_path(root)?;
    let hooks = path.parent().expect("a file in the hooks folder");
    std::fs::create_dir_all(hooks)?;
    let locked = Fence::git_hooks(hooks).lock(&path, safe_write::timeout()?)?;
    let old = locked.read()?;
    let (text, outcome) = match &old {
        None => (format!("{SHEBANG}{}", block()), Outcome::Created),
        Some(bytes) => {
            let old = String::from_utf8_lossy(bytes);
            if old.contains(BEGIN) {
                return Ok((Outcome::AlreadyInstalled, path));
            }
            let separator = if old.ends_with('\n') || old.is_empty() {
                ""
            } else {
                "\n"
            };
            (format!("{old}{separator}{}", block()), Outcome::Appended)
        }
    };
    locked.write(&[text.as_bytes()], old.as_deref())?;
    if outcome == Outcome::Created {
        executable(&path)?;
    }
    Ok((outcome, path))
}

/// Takes the block out of the repository's pre-commit hook.
pub(crate) fn uninstall(root: &Path) -> anyhow::Result<(Outcome, PathBuf)> {
    let path = hook_path(root)?;
    let Some(hooks) = path.parent().filter(|hooks| hooks.is_dir()) else {
        return Ok((Outcome::NotInstalled, path));
    };
    let locked = Fence::git_hooks(hooks).lock(&path, safe_write::timeout()?)?;
    let Some(old) = locked.read()? else {
        return Ok((Outcome::NotInstalled, path));
    };
    let text = String::from_utf8_lossy(&old).into_owned();
    let (Some(start), Some(end)) = (text.find(BEGIN), text.find(END)) else {
        return Ok((Outcome::NotInstalled, path));
    };
    let end = (end + END.len() + 1).min(text.len());
    if end <= start {
        anyhow::bail!(
            "{}: autofix's block is damaged (its END line comes before its BEGIN line); \
             remove it by hand",
            path.display()
        );
    }
    let rest = format!("{}{}", &text[..start], &text[end..]);
    if rest.trim().is_empty() || rest == SHEBANG {
        locked.remove(&old)?;
        return Ok((Outcome::Removed, path));
    }
    locked.write(&[rest.as_bytes()], Some(&old))?;
    Ok((Outcome::BlockRemoved, path))
}

/// A hook git runs must be executable (git skips, with a hint, one that is not).
#[cfg(unix)]
fn executable(path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt as _;
    let mode = std::fs::metadata(path)?.permissions().mode();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode | 0o755))
}

#[cfg(not(unix))]
fn executable(_: &Path) -> std::io::Result<()> {
    Ok(())
}
