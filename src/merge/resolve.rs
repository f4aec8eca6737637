//! `autofix resolve`: after git merged the rules file as text (the driver was not
//! installed, or the conflict came from a patch-based rebase), rebuild the merge from the
//! index's conflict stages — 1 base, 2 ours, 3 theirs — and write the result over the work
//! tree's file. The labels come from the conflict markers git left in that file; a pull is
//! recognised by `MERGE_MSG` ("Merge branch 'main' of …"). The index is not touched: the
//! user reviews the result and runs `git add`.

use std::path::{Path, PathBuf};

use super::driver::{self, Decision, DriverError, Environment};
use crate::io::git::{Git, GitError};

use super::{Input, Labels, MergeError, Merged, Options, merge};
use crate::io::atomic::AtomicError;
use crate::io::safe_write::{self, Fence};
use crate::rules;

/// What to resolve.
#[derive(Clone, Debug)]
pub(crate) struct Request {
    /// The rules file in the work tree.
    pub path: PathBuf,
    pub marker_size: usize,
    pub accept_one_sided_edits: bool,
    /// Drop rules the work tree's file holds that the merge does not (`--drop-work-tree-rules`).
    pub drop_work_tree_rules: bool,
}

/// What `resolve` wrote.
#[derive(Clone, Debug)]
pub(crate) struct Outcome {
    pub path: PathBuf,
    pub decision: Decision,
    pub merged: Merged,
}

#[derive(Debug, thiserror::Error)]
pub(crate) enum ResolveError {
    #[error(transparent)]
    Git(#[from] GitError),
    #[error(
        "{} has no merge conflict in the index; nothing to resolve (if you already staged it, \
         `git checkout -m -- {}` recreates the conflict while the merge is in progress)",
        path.display(),
        path.display()
    )]
    NotConflicted { path: PathBuf },
    #[error(
        "{} was deleted on {side}'s side; keep or delete the file by hand (`git add` or `git rm`)",
        path.display()
    )]
    Deleted { path: PathBuf, side: &'static str },
    #[error("{} cannot be merged as rules: {problem}", path.display())]
    Unparsable { path: PathBuf, problem: String },
    #[error("a version of {} in the index is not valid UTF-8", path.display())]
    NotUtf8 { path: PathBuf },
    #[error(transparent)]
    Driver(#[from] DriverError),
    #[error(transparent)]
    Merge(MergeError),
    #[error(
        "{} holds {} that the merge rebuilt from git's index does not (learned after the \
         conflict?); nothing was written. If the file is already resolved, `git add` it; to \
         drop them, run again with --drop-work-tree-rules",
        path.display(),
        describe(rules)
    )]
    WouldDrop {
        path: PathBuf,
        rules: Vec<(Option<u64>, String)>,
    },
    #[error(transparent)]
    Write(#[from] AtomicError),
}

/// `rule 4 ("Always x")` or `rules 4 ("Always x") and 5 ("Never y")`.
fn describe(rules: &[(Option<u64>, String)]) -> String {
    let one = |(number, instruction): &(Option<u64>, String)| match number {
        Some(number) => format!("{number} (\"{instruction}\")"),
        None => format!("\"{instruction}\""),
    };
    let all: Vec<String> = rules.iter().map(one).collect();
    match all.as_slice() {
        [one] => format!("rule {one}"),
        [init @ .., last] => format!("rules {} and {last}", init.join(", ")),
        [] => "no rule".to_string(),
    }
}

/// The rules of `working` (the work tree's file, when it parses as rules) whose instruction
/// no rule of `merged` holds: what writing `merged` would lose.
fn dropped(working: &str, merged: &str) -> Vec<(Option<u64>, String)> {
    let name = Path::new("work tree");
    let (Ok(working), Ok(merged)) = (
        rules::parse_tolerant(name, working.to_string()),
        rules::parse_tolerant(name, merged.to_string()),
    ) else {
        return Vec::new();
    };
    working
        .rules()
        .filter(|rule| {
            !merged.rules().any(|kept| {
                rules::same_instruction(kept.instruction().display(), rule.instruction().display())
            })
        })
        .map(|rule| {
            (
                rule.number().value(),
                rule.instruction().display().to_string(),
            )
        })
        .collect()
}

/// Rebuilds the merge of `request.path` from the index and writes it.
pub(crate) fn resolve(request: &Request) -> Result<Outcome, ResolveError> {
    let path = &request.path;
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = Path::new(path.file_name().unwrap_or(path.as_os_str()));
    if !dir.is_dir() {
        // No folder, so no file and no conflict (git itself is fine).
        return Err(ResolveError::NotConflicted { path: path.clone() });
    }
    let git = Git::new(dir);
    git.require_top_level("")?;
    let [base, ours, theirs] = git.conflict_stages(name)?;
    if base.is_none() && ours.is_none() && theirs.is_none() {
        return Err(ResolveError::NotConflicted { path: path.clone() });
    }
    let (ours, theirs) = match (ours, theirs) {
        (Some(ours), Some(theirs)) => (ours, theirs),
        (None, _) => {
            return Err(ResolveError::Deleted {
                path: path.clone(),
                side: "ours",
            });
        }
        (_, None) => {
            return Err(ResolveError::Deleted {
                path: path.clone(),
                side: "theirs",
            });
        }
    };
    let text = |id: Option<&str>| -> Result<String, ResolveError> {
        let bytes = match id {
            Some(id) => git.blob(id)?,
            None => Vec::new(),
        };
        String::from_utf8(bytes).map_err(|_| ResolveError::NotUtf8 { path: path.clone() })
    };
    let (base, ours, theirs) = (
        text(base.as_deref())?,
        text(Some(&ours))?,
        text(Some(&theirs))?,
    );

    // Every writer of the rules file holds its lock; the file is read under it, so a rule
    // learned since the conflict is seen (and never silently dropped).
    let locked = Fence::rules_file().lock(path, safe_write::timeout()?)?;
    let working_bytes = locked.read()?;
    let working = String::from_utf8_lossy(working_bytes.as_deref().unwrap_or_default());
    let mut labels = labels_from_markers(&working, request.marker_size);
    let message = merge_message(&git);
    if labels.theirs.is_none() {
        // Markers already gone (a second run): the branch named by the merge message.
        labels.theirs = message.as_deref().and_then(merged_branch);
    }
    let mut env = Environment::from_process(&git, &labels);
    if env.reflog_action.is_none() && message.as_deref().is_some_and(is_pull_message) {
        env.reflog_action = Some("pull".into());
    }
    let decision = driver::decide(&labels, &env)?;
    let options = Options {
        labels: labels.clone(),
        marker_size: request.marker_size,
        accept_one_sided_edits: request.accept_one_sided_edits,
        keep: decision.keep,
    };
    let input = Input {
        base: &base,
        ours: &ours,
        theirs: &theirs,
    };
    let merged = merge(&input, &options).map_err(|error| match error {
        MergeError::Unparsable(problem) => ResolveError::Unparsable {
            path: path.clone(),
            problem,
        },
        other => ResolveError::Merge(other),
    })?;
    let lost = dropped(&working, &merged.text);
    if !lost.is_empty() && !request.drop_work_tree_rules {
        return Err(ResolveError::WouldDrop {
            path: path.clone(),
            rules: lost,
        });
    }
    locked.write(&[merged.text.as_bytes()], working_bytes.as_deref())?;
    Ok(Outcome {
        path: path.clone(),
        decision,
        merged,
    })
}

impl Outcome {}

/// The labels of the first conflict's `<<<<<<<` and `>>>>>>>` lines.
fn labels_from_markers(text: &str, size: usize) -> Labels {
    let find = |marker: char| {
        let prefix: String = std::iter::repeat_n(marker, size).collect();
        text.lines().find_map(|line| {
            let rest = line.strip_prefix(&prefix)?.strip_prefix(' ')?;
            let label = rest.trim_end_matches('\r');
            (!label.is_empty()).then(|| label.to_string())
        })
    };
    Labels {
        base: find('|'),
        ours: find('<'),
        theirs: find('>'),
    }
}

/// The first line of `MERGE_MSG` while a merge is in progress.
fn merge_message(git: &Git) -> Option<String> {
    let path = git.git_path("MERGE_MSG").ok()?;
    let text = crate::io::limits::read_to_string(&path).ok()?;
    text.lines().next().map(str::to_string)
}

/// The branch a merge message names: `Merge branch 'main' [into x]`, `Merge branch 'main'
/// of <url>`, `Merge remote-tracking branch 'origin/main'`.
fn merged_branch(message: &str) -> Option<String> {
    let rest = message
        .strip_prefix("Merge branch '")
        .or_else(|| message.strip_prefix("Merge remote-tracking branch '"))?;
    let (branch, _) = rest.split_once('\'')?;
    Some(branch.to_string())
}

/// A pull's merge message: "Merge branch 'main' of <url>".
fn is_pull_message(message: &str) -> bool {
    message.starts_with("Merge branch '") && message.contains("' of ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_come_from_the_first_conflict() {
        let text = "[\n<<<<<<< HEAD\n  {},\n||||||| parent of 1a2b (x)\n=======\n>>>>>>> main\r\n]\n<<<<<<< other\n";
        let labels = labels_from_markers(text, 7);
        assert_eq!(labels.ours.as_deref(), Some("HEAD"));
        assert_eq!(labels.base.as_deref(), Some("parent of 1a2b (x)"));
        assert_eq!(labels.theirs.as_deref(), Some("main"));
        assert_eq!(labels_from_markers("[]", 7), Labels::default());
    }

    #[test]
    fn merge_messages_name_the_branch() {
        assert_eq!(
            merged_branch("Merge branch 'main'").as_deref(),
            Some("main")
        );
        assert_eq!(
            merged_branch("Merge branch 'main' into feature").as_deref(),
            Some("main")
        );
        assert_eq!(
            merged_branch("Merge remote-tracking branch 'origin/main'").as_deref(),
            Some("origin/main")
        );
        assert_eq!(merged_branch("Revert \"x\""), None);
        assert!(is_pull_message(
            "Merge branch 'main' of https://example.com/r"
        ));
        assert!(!is_pull_message("Merge branch 'main' into feature"));
    }
}
