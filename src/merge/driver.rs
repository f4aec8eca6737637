//! `autofix merge-driver %O %A %B %P`: what git runs when both sides changed the rules
//! file. It reads the three versions, decides which side's numbers are published, merges,
//! and writes the result into `%A` the way `learn` writes (temp file, fsync, rename).
//!
//! Exit status is git's contract, not the project's: 0 merged, 1 conflict (the file holds
//! markers), 255 the merge could not be made (git then fails that file cleanly). A side
//! that is not a rules file falls back to `git merge-file` (exit 1), as does
//! `AUTOFIX_MERGE_DRIVER=0` (exit 0 or 1, like git's own text merge). A panic is caught and
//! becomes 255.
//!
//! Which side keeps its numbers ([`decide`]), first match wins:
//! 1. `AUTOFIX_MERGE_UPSTREAM=ours|theirs`;
//! 2. theirs' label (`%Y`) names an upstream branch: `main`, `master` or a remote's HEAD
//!    branch, alone or as `refs/heads/<b>`, `<remote>/<b>`, `refs/remotes/<remote>/<b>` —
//!    keep theirs;
//! 3. a `git pull` that merges (`GIT_REFLOG_ACTION` starts with `pull`, has no `--rebase`
//!    or `-r`, and theirs' label is a full object id, or there is no label and no rebase
//!    is in progress) — keep theirs;
//! 4. otherwise keep ours (a merge into the current branch, a rebase, a cherry-pick).

use std::any::Any;
use std::io;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use super::{Input, Labels, MergeError, Options, Side, merge};
use crate::io::atomic::{self, AtomicError};
use crate::io::git::{Git, GitError};

/// `AUTOFIX_MERGE_UPSTREAM`: `ours` or `theirs` — the side whose numbers are published.
const UPSTREAM_ENV: &str = "AUTOFIX_MERGE_UPSTREAM";

/// `AUTOFIX_MERGE_DRIVER=0`: behave like `git merge-file`.
const DISABLE_ENV: &str = "AUTOFIX_MERGE_DRIVER";

/// What git passed.
#[derive(Clone, Debug)]
pub(crate) struct Request {
    /// `%O`: the merge base's version.
    pub base: PathBuf,
    /// `%A`: ours; the result is written here.
    pub ours: PathBuf,
    /// `%B`: theirs.
    pub theirs: PathBuf,
    /// `%P`: the file's path in the repository, for messages.
    pub path: Option<String>,
    pub labels: Labels,
    pub marker_size: usize,
    pub accept_one_sided_edits: bool,
}

impl Request {
    /// How the file is named in messages.
    pub(crate) fn shown(&self) -> String {
        self.path
            .clone()
            .unwrap_or_else(|| self.ours.display().to_string())
    }
}

/// A label as git passed it: git older than 2.44 leaves `%S`, `%X`, `%Y` unexpanded.
pub(crate) fn label(text: Option<String>) -> Option<String> {
    text.filter(|t| !t.is_empty() && !matches!(t.as_str(), "%S" | "%X" | "%Y"))
}

/// What decides which side's numbers are kept, besides the labels.
#[derive(Clone, Debug, Default)]
pub(crate) struct Environment {
    /// `AUTOFIX_MERGE_UPSTREAM`.
    pub upstream_override: Option<String>,
    /// `GIT_REFLOG_ACTION`, which git sets for the command running the merge.
    pub reflog_action: Option<String>,
    /// Branch names that count as upstream (`main`, `master`, the remotes' HEAD branches).
    pub upstream_branches: Vec<String>,
    pub remotes: Vec<String>,
    pub rebase_in_progress: bool,
    /// `AUTOFIX_MERGE_DRIVER=0`.
    pub disabled: bool,
}

impl Environment {
    /// Takes the settings the front end read from the environment, asking git (in `git`'s directory) only what the labels
    /// leave open.
    pub(crate) fn from_process(git: &Git, labels: &Labels) -> Environment {
        let settings = crate::io::settings::get();
        let mut env = Environment {
            upstream_override: settings.merge_upstream.clone(),
            reflog_action: settings.git_reflog_action.clone(),
            disabled: settings.merge_driver.as_deref() == Some("0"),
            ..Environment::default()
        };
        if env.upstream_override.is_none() {
            if labels.theirs.is_some() {
                (env.upstream_branches, env.remotes) = git.upstream_names();
            } else if is_pull(env.reflog_action.as_deref()) {
                env.rebase_in_progress = ["rebase-merge", "rebase-apply"]
                    .iter()
                    .any(|dir| git.git_path(dir).is_ok_and(|path| path.exists()));
            }
        }
        env
    }
}

/// Which side keeps its numbers, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Decision {
    pub keep: Side,
    pub reason: String,
}

#[derive(Debug, thiserror::Error)]
pub(crate) enum DriverError {
    #[error("{UPSTREAM_ENV} must be `ours` or `theirs`, not `{0}`")]
    BadUpstream(String),
    #[error("cannot read {}: {error}", path.display())]
    Read { path: PathBuf, error: io::Error },
    #[error(transparent)]
    Write(#[from] AtomicError),
    #[error(transparent)]
    Git(#[from] GitError),
    #[error("`git merge-file` failed: {0}")]
    MergeFile(String),
    #[error(transparent)]
    Merge(MergeError),
    #[error("the merge panicked: {0}")]
    Panic(String),
}

/// Decides which side's numbers are published (see the module documentation).
pub(crate) fn decide(labels: &Labels, env: &Environment) -> Result<Decision, DriverError> {
    match env.upstream_override.as_deref() {
        Some("ours") => {
            return Ok(Decision {
                keep: Side::Ours,
                reason: format!("{UPSTREAM_ENV}=ours"),
            });
        }
        Some("theirs") => {
            return Ok(Decision {
                keep: Side::Theirs,
                reason: format!("{UPSTREAM_ENV}=theirs"),
            });
        }
        Some(other) => return Err(DriverError::BadUpstream(other.to_string())),
        None => {}
    }
    if let Some(theirs) = &labels.theirs
        && let Some(branch) = upstream_branch(theirs, env)
    {
        return Ok(Decision {
            keep: Side::Theirs,
            reason: format!("theirs is `{theirs}`, the upstream branch `{branch}`"),
        });
    }
    let pull = is_pull(env.reflog_action.as_deref())
        && match &labels.theirs {
            Some(theirs) => is_object_id(theirs),
            None => !env.rebase_in_progress,
        };
    if pull {
        return Ok(Decision {
            keep: Side::Theirs,
            reason: "a `git pull` merges the upstream into the local branch".into(),
        });
    }
    Ok(Decision {
        keep: Side::Ours,
        reason: match &labels.theirs {
            Some(theirs) => format!("theirs (`{theirs}`) is not an upstream branch"),
            None => "no upstream branch was named".into(),
        },
    })
}

fn upstream_branch<'e>(label: &str, env: &'e Environment) -> Option<&'e str> {
    let label = label.strip_prefix("refs/heads/").unwrap_or(label);
    let label = label.strip_prefix("refs/remotes/").unwrap_or(label);
    env.upstream_branches
        .iter()
        .find(|branch| {
            label == branch.as_str()
                || env
                    .remotes
                    .iter()
                    .any(|remote| label == format!("{remote}/{branch}"))
        })
        .map(String::as_str)
}

fn is_pull(action: Option<&str>) -> bool {
    let Some(action) = action else {
        return false;
    };
    let mut words = action.split_whitespace();
    words.next() == Some("pull")
        && !words.any(|w| w == "-r" || w == "--rebase" || w.starts_with("--rebase="))
}

fn is_object_id(label: &str) -> bool {
    matches!(label.len(), 40 | 64) && label.bytes().all(|b| b.is_ascii_hexdigit())
}

/// How the driver ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Status {
    Merged,
    Conflict,
    Failed,
}

impl Status {
    /// git's exit status for a driver.
    pub(crate) fn exit_code(self) -> u8 {
        match self {
            Status::Merged => 0,
            Status::Conflict => 1,
            Status::Failed => 255,
        }
    }
}

/// What the driver did: its status, the merge (when the rules merge ran) and the lines for
/// stderr.
#[derive(Clone, Debug)]
pub(crate) struct Outcome {
    pub status: Status,
    pub report: String,
}

impl Outcome {
    fn failed(request: &Request, error: &DriverError) -> Outcome {
        Outcome {
            status: Status::Failed,
            report: format!(
                "{}: {error}; the file was not merged (git reports it as failed)\n",
                request.shown()
            ),
        }
    }
}

/// Runs the driver; never panics (a panic becomes [`Status::Failed`]).
pub(crate) fn run(request: &Request, env: &Environment) -> Outcome {
    guarded(request, || run_unguarded(request, env))
}

/// Runs `work`, turning an error or a panic into a failed outcome.
fn guarded(request: &Request, work: impl FnOnce() -> Result<Outcome, DriverError>) -> Outcome {
    match panic::catch_unwind(AssertUnwindSafe(work)) {
        Ok(Ok(outcome)) => outcome,
        Ok(Err(error)) => Outcome::failed(request, &error),
        Err(payload) => Outcome::failed(request, &DriverError::Panic(panic_message(&*payload))),
    }
}

fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_string()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "unknown panic".into()
    }
}

fn run_unguarded(request: &Request, env: &Environment) -> Result<Outcome, DriverError> {
    let shown = request.shown();
    if env.disabled {
        let (status, note) = text_merge(request)?;
        return Ok(Outcome {
            status,
            report: format!(
                "{shown}: {DISABLE_ENV}=0, merged as text by `git merge-file`: {note}\n"
            ),
        });
    }
    let read = |path: &Path| {
        crate::io::limits::read_file(path).map_err(|source| DriverError::Read {
            path: path.to_path_buf(),
            error: source,
        })
    };
    let (base, ours, theirs) = (
        read(&request.base)?,
        read(&request.ours)?,
        read(&request.theirs)?,
    );
    let texts = (
        String::from_utf8(base),
        String::from_utf8(ours),
        String::from_utf8(theirs),
    );
    let (Ok(base), Ok(ours), Ok(theirs)) = texts else {
        return fallback(request, "a version is not valid UTF-8");
    };
    let decision = decide(&request.labels, env)?;
    let options = Options {
        labels: request.labels.clone(),
        marker_size: request.marker_size,
        accept_one_sided_edits: request.accept_one_sided_edits,
        keep: decision.keep,
    };
    let input = Input {
        base: &base,
        ours: &ours,
        theirs: &theirs,
    };
    let merged = match merge(&input, &options) {
        Ok(merged) => merged,
        Err(MergeError::Unparsable(problem)) => return fallback(request, &problem),
        Err(error) => return Err(DriverError::Merge(error)),
    };
    if merged.text != ours {
        atomic::resolve(&request.ours)?.write(merged.text.as_bytes())?;
    }
    let status = if merged.is_clean() {
        Status::Merged
    } else {
        Status::Conflict
    };
    let mut report = merged.report(&shown, &decision.reason);
    if !merged.is_clean() {
        report.push_str(&format!(
            "{shown}: keep one side of each marked rule, then run `autofix check` and `git add {shown}`\n"
        ));
    }
    Ok(Outcome { status, report })
}

/// A version is not a rules file: merge as text so a person can repair it; always a
/// conflict.
fn fallback(request: &Request, problem: &str) -> Result<Outcome, DriverError> {
    let (_, note) = text_merge(request)?;
    Ok(Outcome {
        status: Status::Conflict,
        report: format!(
            "{}: cannot merge as rules ({problem}); merged as text by `git merge-file`: {note}. \
             Repair the file, then run `autofix check`.\n",
            request.shown()
        ),
    })
}

/// `git merge-file` into `%A`: its status and a note ("clean" or "N conflicts").
fn text_merge(request: &Request) -> Result<(Status, String), DriverError> {
    let labels = &request.labels;
    let dir = request
        .ours
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let git = Git::new(dir);
    let marker_size = format!("--marker-size={}", request.marker_size);
    let args: Vec<&std::ffi::OsStr> = vec![
        "merge-file".as_ref(),
        "-p".as_ref(),
        marker_size.as_ref(),
        "-L".as_ref(),
        labels.ours.as_deref().unwrap_or("ours").as_ref(),
        "-L".as_ref(),
        labels.base.as_deref().unwrap_or("base").as_ref(),
        "-L".as_ref(),
        labels.theirs.as_deref().unwrap_or("theirs").as_ref(),
        "--".as_ref(),
        request.ours.as_os_str(),
        request.base.as_os_str(),
        request.theirs.as_os_str(),
    ];
    let output = git.output(&args)?;
    let Some(conflicts @ 0..=127) = output.status.code() else {
        return Err(DriverError::MergeFile(
            String::from_utf8_lossy(&output.stderr).trim().to_string(),
        ));
    };
    atomic::resolve(&request.ours)?.write(&output.stdout)?;
    Ok(match conflicts {
        0 => (Status::Merged, "clean".into()),
        1 => (Status::Conflict, "1 conflict".into()),
        n => (Status::Conflict, format!("{n} conflicts")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(theirs: Option<&str>) -> Labels {
        Labels {
            base: None,
            ours: Some("HEAD".into()),
            theirs: theirs.map(str::to_string),
        }
    }

    fn env() -> Environment {
        Environment {
            upstream_branches: vec!["main".into(), "master".into(), "develop".into()],
            remotes: vec!["origin".into(), "upstream".into()],
            ..Environment::default()
        }
    }

    #[test]
    fn upstream_branches_keep_theirs() {
        for theirs in [
            "main",
            "master",
            "origin/main",
            "refs/heads/main",
            "refs/remotes/upstream/develop",
            "develop",
        ] {
            assert_eq!(
                decide(&labels(Some(theirs)), &env()).unwrap().keep,
                Side::Theirs,
                "{theirs}"
            );
        }
        for theirs in [
            "feature",
            "feature/main",
            "13e065a (feat)",
            "mainline",
            "Temporary merge branch 2",
        ] {
            assert_eq!(
                decide(&labels(Some(theirs)), &env()).unwrap().keep,
                Side::Ours,
                "{theirs}"
            );
        }
    }

    #[test]
    fn a_pull_merge_keeps_theirs_but_a_pull_rebase_does_not() {
        let sha = "6199dda847e5f2a09ec830320fef41983e8aaa24";
        let pull = |action: &str| Environment {
            reflog_action: Some(action.into()),
            ..env()
        };
        let keep =
            |theirs: Option<&str>, env: &Environment| decide(&labels(theirs), env).unwrap().keep;
        assert_eq!(keep(Some(sha), &pull("pull --no-edit")), Side::Theirs);
        assert_eq!(keep(Some(sha), &pull("pull")), Side::Theirs);
        assert_eq!(keep(Some(sha), &pull("pull --rebase")), Side::Ours);
        assert_eq!(keep(Some(sha), &pull("pull -r origin")), Side::Ours);
        // pull.rebase=true: the action says "pull", but the pick's label is not an id.
        assert_eq!(keep(Some("d8038b7 (local)"), &pull("pull")), Side::Ours);
        assert_eq!(keep(None, &pull("pull")), Side::Theirs);
        let rebasing = Environment {
            rebase_in_progress: true,
            ..pull("pull")
        };
        assert_eq!(keep(None, &rebasing), Side::Ours);
        assert_eq!(keep(Some(sha), &pull("merge main")), Side::Ours);
    }

    #[test]
    fn the_override_wins_and_is_checked() {
        let with = |value: &str| Environment {
            upstream_override: Some(value.into()),
            ..env()
        };
        assert_eq!(
            decide(&labels(Some("main")), &with("ours")).unwrap().keep,
            Side::Ours
        );
        assert_eq!(
            decide(&labels(Some("x")), &with("theirs")).unwrap().keep,
            Side::Theirs
        );
        assert!(matches!(
            decide(&labels(None), &with("main")),
            Err(DriverError::BadUpstream(_))
        ));
    }

    #[test]
    fn old_git_leaves_placeholders() {
        assert_eq!(label(Some("%Y".into())), None);
        assert_eq!(label(Some(String::new())), None);
        assert_eq!(label(Some("main".into())).as_deref(), Some("main"));
    }

    #[test]
    fn a_panic_is_a_failure_not_a_crash() {
        let request = Request {
            base: "o".into(),
            ours: "a".into(),
            theirs: "b".into(),
            path: Some("rules.json".into()),
            labels: Labels::default(),
            marker_size: 7,
            accept_one_sided_edits: false,
        };
        let outcome = guarded(&request, || panic!("boom"));
        assert_eq!(outcome.status, Status::Failed);
        assert_eq!(outcome.status.exit_code(), 255);
        assert!(
            outcome.report.contains("panicked: boom"),
            "{}",
            outcome.report
        );
    }
}
