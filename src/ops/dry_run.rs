//! `check --dry-run`: each active rule's `Forbid` check run over the files of the
//! repository it applies to (`git ls-files` in its `Paths`), so a check that would fire on
//! old code is seen before it is relied on. `enforce` looks only at the lines a change
//! adds, so such matches fail no commit, but `enforce --all-lines` and an agent's `Write`
//! of the whole file report them. Bounded: at most [`MAX_FILES`] files are read, each
//! within the read cap, its lines up to [`super::enforce::MAX_LINE_BYTES`].

use std::fmt::Write as _;

use super::enforce::{self, Compiled, MAX_LINE_BYTES};
use crate::io::git::Git;
use crate::io::workspace::Workspace;
use crate::report::diagnostics::{Code, Diagnostic};
use crate::rules::pattern::Kind;

/// The most tracked files one dry run reads.
const MAX_FILES: usize = 20_000;

/// The places of the first matches a finding names.
const NAMED: usize = 3;

/// What one rule's check matched in the files it applies to.
#[derive(Default)]
struct Matched {
    lines: usize,
    files: usize,
    first: Vec<String>,
}

/// A `check-matches-existing` warning for each active `Forbid` check that already matches
/// a line of a tracked file in its scope; none outside git.
pub(crate) fn existing_matches(workspace: &Workspace) -> anyhow::Result<Vec<Diagnostic>> {
    let checks: Vec<Compiled> = enforce::compiled(workspace)?
        .into_iter()
        .filter(|c| c.kind == Kind::Forbid)
        .collect();
    if checks.is_empty() {
        return Ok(Vec::new());
    }
    let Some(tracked) = Git::new(&workspace.root).tracked_files() else {
        return Ok(Vec::new());
    };
    let mut matched: Vec<Matched> = checks.iter().map(|_| Matched::default()).collect();
    let mut read = 0;
    // Set only when a file in scope is left unread: exactly MAX_FILES files is no stop.
    let mut truncated = false;
    for path in &tracked {
        let applying = enforce::applying(workspace, &checks, path);
        if applying.is_empty() {
            continue;
        }
        if read == MAX_FILES {
            truncated = true;
            break;
        }
        read += 1;
        let Ok(text) = crate::io::limits::read_to_string(&workspace.root.join(path)) else {
            continue;
        };
        for check in applying {
            let at = checks
                .iter()
                .position(|c| std::ptr::eq(c, check))
                .unwrap_or_default();
            scan(check, path, &text, &mut matched[at]);
        }
    }
    Ok(checks
        .iter()
        .zip(matched)
        .filter(|(_, m)| m.lines > 0)
        .map(|(check, m)| finding(workspace, check, &m, truncated))
        .collect())
}

fn scan(check: &Compiled, path: &str, text: &str, out: &mut Matched) {
    let mut found = false;
    for (k, line) in text.lines().enumerate() {
        // As `enforce`: a long line is passed over, a line that states the rule obeys it.
        if line.len() > MAX_LINE_BYTES
            || !check.regex().is_some_and(|regex| regex.is_match(line))
            || line.contains(check.instruction.as_str())
        {
            continue;
        }
        out.lines += 1;
        found = true;
        if out.first.len() < NAMED {
            out.first.push(format!("{path}:{}", k + 1));
        }
    }
    out.files += usize::from(found);
}

fn finding(
    workspace: &Workspace,
    check: &Compiled,
    matched: &Matched,
    truncated: bool,
) -> Diagnostic {
    use crate::report::text::counted;
    let mut message = format!(
        "rule {}: its check `{}` already matches {} in {} it applies to: {}",
        check.number,
        check.pattern(),
        counted(matched.lines, "line"),
        counted(matched.files, "file"),
        matched.first.join(", ")
    );
    if matched.lines > matched.first.len() {
        let _ = write!(message, " and {} more", matched.lines - matched.first.len());
    }
    if truncated {
        let _ = write!(message, " (in the first {MAX_FILES} files read)");
    }
    let position = crate::rules::load(workspace.shown_path())
        .ok()
        .flatten()
        .and_then(|document| {
            let rule = document.rules().find(|r| r.index == check.index)?;
            let at = crate::report::jsonpos::find_pointer(rule.raw, "/Check")?;
            Some(crate::report::jsonpos::position(
                &document.source,
                rule.offset + at,
            ))
        });
    Diagnostic::new(Code::CheckMatchesExisting, message)
        .in_file(workspace.shown_path())
        .at(format!("/{}/Check", check.index), position)
        .with_help(Code::CheckMatchesExisting.fix())
}
