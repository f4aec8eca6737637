//! `hook post-tool --agent claude`: the rules' checks on the file an agent just wrote, at
//! the moment of the edit. Claude Code runs it as a `PostToolUse` hook on `Write`, `Edit`
//! and `MultiEdit` (<https://code.claude.com/docs/en/hooks#posttooluse>): its stdin is
//! `{"cwd", "tool_name", "tool_input": {"file_path", "content" | "new_string" | "edits"},
//! …}`. When the new text breaks a checked rule, the answer is `{"decision": "block",
//! "reason": NOTICE}`, which Claude Code feeds back to the model (the tool has run; the
//! "block" only prompts Claude with the reason: <https://code.claude.com/docs/en/hooks#posttooluse-decision-control>);
//! when it breaks nothing, no output at all. Only the text the tool wrote is checked (the
//! whole file for `Write`), so old code in the file does not nag the agent on every edit.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::enforce::{self, Compiled};
use crate::io::workspace::Workspace;
use crate::report::diagnostics::Diagnostic;
use crate::rules::pattern::Kind;

/// The most violations one notice names (the rest are counted).
const MAX_NAMED: usize = 10;

#[derive(Deserialize)]
struct Payload {
    cwd: Option<String>,
    tool_input: Option<ToolInput>,
}

#[derive(Deserialize)]
struct ToolInput {
    file_path: Option<String>,
    /// `Write`: the whole file.
    content: Option<String>,
    /// `Edit`: the replacement.
    new_string: Option<String>,
    /// `MultiEdit`: each replacement.
    edits: Option<Vec<Edit>>,
}

#[derive(Deserialize)]
struct Edit {
    new_string: Option<String>,
}

/// The edit an agent made: the file (absolute, or from the hook's `cwd`) and the texts it
/// wrote into it (`None`: the whole file).
pub(crate) struct Written {
    pub cwd: Option<PathBuf>,
    pub file: PathBuf,
    pub pieces: Option<Vec<String>>,
}

/// Reads Claude Code's `PostToolUse` payload; `None` for a tool call that wrote no file.
pub(crate) fn read_claude(input: &[u8]) -> Option<Written> {
    let payload: Payload = serde_json::from_slice(input).ok()?;
    let tool = payload.tool_input?;
    let file = PathBuf::from(tool.file_path?);
    let pieces = if tool.content.is_some() {
        None
    } else if let Some(new) = tool.new_string {
        Some(vec![new])
    } else {
        Some(
            tool.edits?
                .into_iter()
                .filter_map(|e| e.new_string)
                .collect(),
        )
    };
    Some(Written {
        cwd: payload.cwd.map(PathBuf::from),
        file,
        pieces,
    })
}

/// The rules the edit breaks, as `rule-broken` diagnostics; none when the file is outside
/// the workspace, unreadable, or in no checked rule's scope.
pub(crate) fn violations(
    workspace: &Workspace,
    written: &Written,
) -> anyhow::Result<Vec<Diagnostic>> {
    let checks = enforce::compiled(workspace)?;
    if checks.is_empty() {
        return Ok(Vec::new());
    }
    let file = match &written.cwd {
        Some(cwd) => cwd.join(&written.file),
        None => written.file.clone(),
    };
    let Some(path) = inside(&workspace.root, &file) else {
        return Ok(Vec::new());
    };
    let applying = enforce::applying(workspace, &checks, &path);
    if applying.is_empty() {
        return Ok(Vec::new());
    }
    let Ok(text) = crate::io::limits::read_to_string(&file) else {
        return Ok(Vec::new());
    };
    let whole: Vec<(usize, String)> = text
        .lines()
        .enumerate()
        .map(|(k, line)| (k + 1, line.to_string()))
        .collect();
    let lines = match &written.pieces {
        None => whole.clone(),
        Some(pieces) => written_lines(&text, pieces),
    };
    let shown = PathBuf::from(path);
    let mut out = Vec::new();
    for check in applying {
        check_one(check, &shown, &lines, &whole, &mut out);
    }
    // Kept for the ledger; a receipt that cannot be written never stops the hook.
    let _ = enforce::keep_receipts(workspace, super::receipts::Via::Edit, &out);
    Ok(out)
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
/// as in the file.
fn written_lines(text: &str, pieces: &[String]) -> Vec<(usize, String)> {
    let mut lines = Vec::new();
    for piece in pieces.iter().filter(|p| !p.is_empty()) {
        let Some(at) = text.find(piece.as_str()) else {
            continue;
        };
        let first = text[..at].matches('\n').count();
        let count = piece.lines().count().max(1);
        lines.extend(
            text.lines()
                .enumerate()
                .skip(first)
                .take(count)
                .map(|(k, line)| (k + 1, line.to_string())),
        );
    }
    lines.sort();
    lines.dedup();
    lines
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

/// Claude Code's answer for these violations: `{"decision": "block", "reason": …}` naming
/// each rule, or `None` (print nothing) when there are none.
pub(crate) fn claude_answer(violations: &[Diagnostic]) -> Option<String> {
    if violations.is_empty() {
        return None;
    }
    let mut reason = String::from(
        "autofix: this edit breaks a rule of this repository. Fix it now, before going on:\n",
    );
    for diagnostic in violations.iter().take(MAX_NAMED) {
        let file = diagnostic
            .file
            .as_deref()
            .map(|f| f.display().to_string())
            .unwrap_or_default();
        let line = diagnostic.position.map_or(1, |p| p.line);
        reason.push_str(&format!("- {file}:{line} {}\n", diagnostic.message));
    }
    if violations.len() > MAX_NAMED {
        reason.push_str(&format!("- and {} more\n", violations.len() - MAX_NAMED));
    }
    let answer = serde_json::json!({"decision": "block", "reason": reason.trim_end()});
    Some(format!("{answer}\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_three_tools_and_finds_what_they_wrote() {
        let write = read_claude(br#"{"cwd": "/r", "tool_name": "Write", "tool_input": {"file_path": "src/a.ts", "content": "x"}}"#).unwrap();
        assert!(write.pieces.is_none());
        let edit = read_claude(
            br#"{"tool_input": {"file_path": "/r/a", "old_string": "a", "new_string": "b\nc"}}"#,
        )
        .unwrap();
        assert_eq!(edit.pieces.unwrap(), ["b\nc"]);
        let multi = read_claude(br#"{"tool_input": {"file_path": "/r/a", "edits": [{"old_string": "a", "new_string": "y"}]}}"#).unwrap();
        assert_eq!(multi.pieces.unwrap(), ["y"]);
        assert!(read_claude(br#"{"tool_input": {"command": "ls"}}"#).is_none());
        assert!(read_claude(b"not json").is_none());
        let text = "one\ntwo\nthree\nfour\n";
        assert_eq!(
            written_lines(text, &["two\nthr".to_string()]),
            [(2, "two".to_string()), (3, "three".to_string())]
        );
    }
}
