//! `hook post-tool --agent claude|codex|gemini`: the rules' checks on the file an agent
//! just wrote, at the moment of the edit, and a reminder to record the lesson when a tool
//! call failed on a wrong assumption (`capture::failure`). Each agent's payload is read by
//! `tool_call`; every agent's edit goes through the one [`violations`]. What it found is a
//! value, [`Output`], which `render::edit_hook` words in the form each agent reads.
//!
//! When nothing is broken and no cause is found, no output at all. Only the text the tool
//! wrote is checked (the whole file for a whole-file write), so old code in the file does
//! not nag the agent on every edit. A failure's reminder comes once per session and cause:
//! the causes already named are kept in the per-user cache
//! (`$XDG_CACHE_HOME/autofix/sessions/`, one small file a session, removed after 30 days
//! untouched), never in the repository.

use std::path::{Path, PathBuf};

use super::enforce::{self, Compiled};
use super::tool_call::{self, Failed, ToolAgent, Written};
use crate::capture::failure::{self, Found};
use crate::io::workspace::Workspace;
use crate::report::diagnostics::Diagnostic;
use crate::rules::pattern::Kind;

/// How long one edit's checks may take to compile: a file in the scope of a thousand
/// checks must not hold the agent past its hook's timeout. The checks not compiled by
/// then are not run on this edit (said on stderr); `autofix enforce` runs them all.
pub(crate) const COMPILE_BUDGET: std::time::Duration = std::time::Duration::from_millis(700);

/// What the hook found: the rules the edit breaks, the wrong assumption behind a failed
/// call when this session has not been told of it yet, and how many checks it had no time
/// to run.
pub(crate) struct Output {
    pub agent: ToolAgent,
    pub broken: Vec<Diagnostic>,
    pub failure: Option<Found>,
    pub not_run: usize,
}

/// The hook's answer to `input`, the agent's payload, in the project the payload's `cwd`
/// lies in (as `finder` finds it).
pub(crate) fn respond(
    agent: ToolAgent,
    input: &[u8],
    finder: &crate::io::workspace::Finder,
) -> anyhow::Result<Output> {
    let Some(call) = tool_call::read(agent, input) else {
        return Ok(Output {
            agent,
            broken: Vec::new(),
            failure: None,
            not_run: 0,
        });
    };
    let workspace = Workspace::of_hook(finder, call.cwd.as_ref().and_then(|c| c.to_str()));
    let (broken, not_run) = violations(&workspace, call.cwd.as_deref(), &call.written)?;
    let failure = call.failed.as_ref().and_then(|failed| {
        let found = cause_of(&workspace, call.cwd.as_deref(), failed)?;
        first_in_session(agent, call.session.as_deref(), &found).then_some(found)
    });
    Ok(Output {
        agent,
        broken,
        failure,
        not_run,
    })
}

/// The rules the written files break, as `rule-broken` diagnostics: the one check of an
/// agent's edit, whichever agent made it. None for a file outside the workspace,
/// unreadable, or in no checked rule's scope. Beside them, how many applying checks were
/// not run, past [`COMPILE_BUDGET`].
fn violations(
    workspace: &Workspace,
    cwd: Option<&Path>,
    written: &[Written],
) -> anyhow::Result<(Vec<Diagnostic>, usize)> {
    if written.is_empty() {
        return Ok((Vec::new(), 0));
    }
    let checks = enforce::compiled(workspace)?;
    let mut out = Vec::new();
    if checks.is_empty() {
        return Ok((out, 0));
    }
    let deadline = std::time::Instant::now() + COMPILE_BUDGET;
    let mut not_run = 0;
    for one in written {
        let file = match cwd {
            Some(cwd) => cwd.join(&one.file),
            None => one.file.clone(),
        };
        let edit = Edit {
            file: &file,
            pieces: one.pieces.as_deref(),
        };
        not_run += check_file(workspace, &checks, &edit, deadline, &mut out);
    }
    // Kept for the ledger; a receipt that cannot be written never stops the hook.
    let _ = enforce::keep_receipts(workspace, super::receipts::Via::Edit, &out);
    Ok((out, not_run))
}

/// A file an agent wrote, and the pieces it wrote (`None`: the whole file).
struct Edit<'a> {
    file: &'a Path,
    pieces: Option<&'a [String]>,
}

/// The checks whose scope holds the edited file, on the lines its pieces wrote; a check
/// not compiled yet past `deadline` is passed over. How many were passed over.
fn check_file(
    workspace: &Workspace,
    checks: &[Compiled],
    edit: &Edit<'_>,
    deadline: std::time::Instant,
    out: &mut Vec<Diagnostic>,
) -> usize {
    let Some(path) = inside(&workspace.root, edit.file) else {
        return 0;
    };
    let applying = enforce::applying(workspace, checks, &path);
    if applying.is_empty() {
        return 0;
    }
    let Ok(text) = crate::io::limits::read_to_string(edit.file) else {
        return 0;
    };
    let pieces = edit.pieces;
    let whole: Vec<(usize, String)> = text
        .lines()
        .enumerate()
        .map(|(k, line)| (k + 1, line.to_string()))
        .collect();
    let lines = match pieces {
        None => whole.clone(),
        Some(pieces) => written_lines(&text, pieces),
    };
    let shown = PathBuf::from(path);
    let mut not_run = 0;
    for check in applying {
        if !check.is_compiled() && std::time::Instant::now() > deadline {
            not_run += 1;
            continue;
        }
        check_one(check, &shown, &lines, &whole, out);
    }
    not_run
}

fn check_one(
    check: &Compiled,
    shown: &Path,
    lines: &[(usize, String)],
    whole: &[(usize, String)],
    out: &mut Vec<Diagnostic>,
) {
    match check.kind {
        Kind::Forbid => enforce::forbid(check, shown, lines, out),
        Kind::Require => enforce::require(check, shown, whole, out),
    }
}

/// The lines of `text` each piece the tool wrote covers (where it first occurs), numbered
/// as in the file. One pass over the file finds every piece (a MultiEdit of thousands of
/// pieces must not read the file once per piece).
fn written_lines(text: &str, pieces: &[String]) -> Vec<(usize, String)> {
    let pieces: Vec<&str> = (pieces.iter())
        .map(String::as_str)
        .filter(|p| !p.is_empty())
        .collect();
    let Ok(finder) = aho_corasick::AhoCorasick::new(&pieces) else {
        return Vec::new();
    };
    let mut first_at: Vec<Option<usize>> = vec![None; pieces.len()];
    let mut missing = pieces.len();
    for found in finder.find_overlapping_iter(text) {
        let slot = &mut first_at[found.pattern().as_usize()];
        if slot.is_none() {
            *slot = Some(found.start());
            missing -= 1;
            if missing == 0 {
                break;
            }
        }
    }
    let starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(at, _)| at + 1))
        .collect();
    let file_lines: Vec<&str> = text.lines().collect();
    let mut numbers: Vec<usize> = Vec::new();
    for (piece, at) in pieces.iter().zip(first_at) {
        let Some(at) = at else { continue };
        let first = starts.partition_point(|&start| start <= at) - 1;
        let count = piece.lines().count().max(1);
        numbers.extend((first..first + count).filter(|&k| k < file_lines.len()));
    }
    numbers.sort_unstable();
    numbers.dedup();
    (numbers.into_iter())
        .map(|k| (k + 1, file_lines[k].to_string()))
        .collect()
}

/// `file` from the workspace root, `/`-separated; `None` outside it.
fn inside(root: &Path, file: &Path) -> Option<String> {
    let real_root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    let real_file = std::fs::canonicalize(file).unwrap_or_else(|_| file.to_path_buf());
    let rest = real_file.strip_prefix(&real_root).ok()?;
    let parts: Vec<String> = rest
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    (!parts.is_empty()).then(|| parts.join("/"))
}

/// The wrong assumption behind a failed call, the lockfiles looked for at the workspace
/// root and in the call's folder.
fn cause_of(workspace: &Workspace, cwd: Option<&Path>, failed: &Failed) -> Option<Found> {
    let has_file = |name: &str| {
        workspace.root.join(name).is_file() || cwd.is_some_and(|cwd| cwd.join(name).is_file())
    };
    let mut found = failure::cause(&failed.command, &failed.output, &has_file)?;
    // A file tool names the path itself; its message often does not.
    if let (failure::Cause::MissingPath, Some(path)) = (found.cause, &failed.path)
        && !found.subject.contains(path.as_str())
    {
        found.subject.clone_from(path);
    }
    Some(found)
}

/// Whether `found` is named for the first time in this session, remembering it. Without
/// a session id, or a cache to keep it in, every time.
fn first_in_session(agent: ToolAgent, session: Option<&str>, found: &Found) -> bool {
    use std::io::Write as _;
    let (Some(session), Some(base)) = (session, crate::io::settings::get().cache_home.clone())
    else {
        return true;
    };
    let agent = match agent {
        ToolAgent::Claude => "claude",
        ToolAgent::Codex => "codex",
        ToolAgent::Gemini => "gemini",
    };
    let key = crate::report::digest::hex_of_parts([agent.as_bytes(), b"\0", session.as_bytes()]);
    let dir = base.join("autofix").join("sessions");
    let file = dir.join(&key[..32]);
    // One line a cause: a subject's line break (`\r` too, which `lines` would drop) is a space.
    let entry = format!(
        "{} {}",
        found.cause.as_str(),
        found.subject.replace(['\n', '\r'], " ")
    );
    let held = std::fs::read_to_string(&file).unwrap_or_default();
    if held.lines().any(|seen| seen == entry) {
        return false;
    }
    if held.is_empty() {
        forget_old_sessions(&dir);
    }
    if std::fs::create_dir_all(&dir).is_ok()
        && let Ok(mut temp) = tempfile::NamedTempFile::new_in(&dir)
        && temp
            .write_all(format!("{held}{entry}\n").as_bytes())
            .is_ok()
    {
        let _ = temp.persist(&file);
    }
    true
}

/// How long a session's causes are kept after its last reminder: a session resumed later
/// may be reminded once more, and the cache does not grow with every session ever run.
const SESSION_KEPT: std::time::Duration = std::time::Duration::from_secs(30 * 24 * 60 * 60);

/// Removes the session files of `dir` untouched for [`SESSION_KEPT`]; once a session, when
/// its first cause is kept.
fn forget_old_sessions(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let Some(cutoff) = std::time::SystemTime::now().checked_sub(SESSION_KEPT) else {
        return;
    };
    for entry in entries.flatten() {
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .is_ok_and(|modified| modified < cutoff);
        if old && entry.file_type().is_ok_and(|t| t.is_file()) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_lines_each_piece_wrote() {
        let text = "one\ntwo\nthree\nfour\n";
        assert_eq!(
            written_lines(text, &["two\nthr".to_string()]),
            [(2, "two".to_string()), (3, "three".to_string())]
        );
    }
}
