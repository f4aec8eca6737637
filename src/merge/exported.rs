//! `autofix merge-driver --exported`: what git runs for an exported copy of the rules
//! (`AGENTS.md`, `.claude/rules/autofix.md`, …) when both sides changed it. autofix's part
//! of such a file is generated from the rules file, so it is never merged line by line:
//!
//! - a file autofix owns (stamped `autofix:owned`) is taken from our side whole;
//! - in a file with autofix's block, the block is set aside on all three sides, the rest
//!   (the people's text) is merged by `git merge-file` as git would, and our block is put
//!   back.
//!
//! Either way the two sides' different rule lists never conflict; the block is then stale
//! until `autofix export` regenerates it from the merged rules file (`export --check` says
//! so, and `doctor` names the step). A side whose markers are damaged is merged as plain
//! text, so nothing is hidden.

use std::fs;
use std::path::Path;

use crate::export::{block, owned};
use crate::io::git::{Git, GitError};

/// Stands for the block while the rest of the file is merged: one line, the same on all
/// three sides, so the block's lines never meet the other side's.
const PLACEHOLDER: &str = "<!-- autofix-rules: set aside for the merge -->";

/// The merged text and the number of conflicts `git merge-file` left in it.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Merged {
    pub text: String,
    pub conflicts: usize,
}

/// Merges the three versions of an exported file. `labels` are ours, base and theirs, for
/// markers around a conflict in the people's text.
pub(crate) fn merge(
    dir: &Path,
    [base, ours, theirs]: [&str; 3],
    labels: [&str; 3],
    marker_size: usize,
) -> Result<Merged, GitError> {
    if owned::is_stamped(ours) || (owned::is_stamped(theirs) && ours.trim().is_empty()) {
        let kept = if owned::is_stamped(ours) {
            ours
        } else {
            theirs
        };
        return Ok(Merged {
            text: kept.to_string(),
            conflicts: 0,
        });
    }
    // The people's text may hold the placeholder line itself: then another one is used,
    // one that no side holds, so only our block is put back where it stood.
    let placeholder = (0..)
        .map(|n| match n {
            0 => PLACEHOLDER.to_string(),
            n => PLACEHOLDER.replace(" -->", &format!(" ({n}) -->")),
        })
        .find(|p| {
            ![base, ours, theirs]
                .iter()
                .any(|side| side.contains(p.as_str()))
        })
        .expect("some numbered placeholder is in no side");
    let sides = [base, ours, theirs].map(|side| set_aside(side, &placeholder));
    if sides.iter().any(Option::is_none) {
        return merge_file(dir, [base, ours, theirs], labels, marker_size);
    }
    let [base, ours, theirs] = sides.map(|side| side.expect("checked above"));
    let ours_block = ours.block.clone().or(theirs.block.clone());
    let mut merged = merge_file(
        dir,
        [&base.text, &ours.text, &theirs.text],
        labels,
        marker_size,
    )?;
    if let Some(block) = ours_block {
        // Twice only inside a conflict (both sides added a block): each gets the block.
        merged.text = merged.text.replace(&placeholder, &block);
    }
    Ok(merged)
}

/// A side with its block replaced by the placeholder, and the block's text; `None` when
/// its markers are damaged.
struct SetAside {
    text: String,
    block: Option<String>,
}

fn set_aside(source: &str, placeholder: &str) -> Option<SetAside> {
    match block::find(source).ok()? {
        Some(found) => Some(SetAside {
            text: [&source[..found.start], placeholder, &source[found.end..]].concat(),
            block: Some(source[found.start..found.end].to_string()),
        }),
        None => Some(SetAside {
            text: source.to_string(),
            block: None,
        }),
    }
}

/// `git merge-file -p` over three texts, through temporary files in `dir`.
fn merge_file(
    dir: &Path,
    texts: [&str; 3],
    [ours_label, base_label, theirs_label]: [&str; 3],
    marker_size: usize,
) -> Result<Merged, GitError> {
    let scratch = tempfile::Builder::new()
        .prefix(".autofix-merge-")
        .tempdir_in(dir)
        .map_err(|source| GitError::Read {
            path: dir.to_path_buf(),
            error: source,
        })?;
    let [base, ours, theirs] = ["base", "ours", "theirs"].map(|name| scratch.path().join(name));
    for (path, text) in [(&base, texts[0]), (&ours, texts[1]), (&theirs, texts[2])] {
        fs::write(path, text).map_err(|source| GitError::Read {
            path: path.clone(),
            error: source,
        })?;
    }
    let marker_size = format!("--marker-size={marker_size}");
    let args: Vec<&std::ffi::OsStr> = vec![
        "merge-file".as_ref(),
        "-p".as_ref(),
        marker_size.as_ref(),
        "-L".as_ref(),
        ours_label.as_ref(),
        "-L".as_ref(),
        base_label.as_ref(),
        "-L".as_ref(),
        theirs_label.as_ref(),
        "--".as_ref(),
        ours.as_os_str(),
        base.as_os_str(),
        theirs.as_os_str(),
    ];
    let output = Git::new(dir).output(&args)?;
    let conflicts = match output.status.code() {
        Some(code @ 0..=127) => code as usize,
        _ => {
            return Err(GitError::Read {
                path: dir.to_path_buf(),
                error: std::io::Error::other(
                    String::from_utf8_lossy(&output.stderr).trim().to_string(),
                ),
            });
        }
    };
    Ok(Merged {
        text: String::from_utf8_lossy(&output.stdout).into_owned(),
        conflicts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agents(mine: &str, rules: &str) -> String {
        format!(
            "# Agents\n\n{mine}\n\n{}\n{rules}\n{}\n",
            block::BEGIN,
            block::END
        )
    }

    fn merge3(base: &str, ours: &str, theirs: &str) -> Merged {
        let dir = tempfile::tempdir().unwrap();
        merge(
            dir.path(),
            [base, ours, theirs],
            ["ours", "base", "theirs"],
            7,
        )
        .unwrap()
    }

    #[test]
    fn two_rule_lists_never_conflict_and_the_peoples_text_merges() {
        let base = agents("Be kind.", "- 1 rule one");
        let ours = agents("Be kind.", "- 1 rule one\n- 2 ours");
        let theirs =
            agents("Be kind.", "- 1 rule one\n- 2 theirs").replace("# Agents", "# Our agents");
        let merged = merge3(&base, &ours, &theirs);
        assert_eq!(merged.conflicts, 0, "{}", merged.text);
        assert_eq!(
            merged.text,
            agents("Be kind.", "- 1 rule one\n- 2 ours").replace("# Agents", "# Our agents")
        );
    }

    #[test]
    fn a_real_conflict_in_the_peoples_text_is_still_one() {
        let base = agents("Be kind.", "- 1");
        let merged = merge3(
            &base,
            &agents("Be brief.", "- 1\n- 2"),
            &agents("Be bold.", "- 1\n- 3"),
        );
        assert_eq!(merged.conflicts, 1);
        assert!(merged.text.contains("- 1\n- 2"), "{}", merged.text);
        assert!(!merged.text.contains(PLACEHOLDER), "{}", merged.text);
    }

    #[test]
    fn an_owned_file_is_taken_from_our_side() {
        let stamped = |body: &str| format!("{}\n{body}\n", owned::stamp(".agents/autofix.json"));
        let merged = merge3(&stamped("1"), &stamped("1\n2"), &stamped("1\n3"));
        assert_eq!((merged.text, merged.conflicts), (stamped("1\n2"), 0));
    }
}
