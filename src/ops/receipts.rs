//! Receipts: each rule break a check caught before the user saw it, kept on this machine
//! for `ledger`. The after-edit hook and `enforce` over the lines a change adds (the
//! pre-commit hook's `--staged`, or the work tree by hand) record one receipt per
//! violation in `autofix/receipts.jsonl` under git's common directory (never committed,
//! never sent anywhere), one JSON object a line, through the one write path under its
//! lock ([`Journal`]). The same break seen again the same day (the hook, then the pre-commit hook, on
//! one line) is one receipt. The file keeps its newest [`MAX_BYTES`].

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::io::journal::{self, Journal};
use crate::io::workspace::Workspace;

/// The most bytes the receipts file keeps (some 5,000 receipts); the oldest go first.
const MAX_BYTES: usize = 1024 * 1024;

/// Which run caught the break.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Via {
    /// The after-edit hook (`hook post-tool`), on the text the agent just wrote.
    Edit,
    /// `enforce --staged`: the pre-commit hook, on what the commit would add.
    Staged,
    /// `enforce` over the work tree's changes, run by hand.
    WorkTree,
}

impl Via {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Via::Edit => "edit",
            Via::Staged => "staged",
            Via::WorkTree => "work-tree",
        }
    }
}

/// One break caught.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Receipt {
    /// When, UTC (`2026-12-01T21:47:32Z`).
    pub time: String,
    pub via: Via,
    /// The rule's number and instruction when it was caught (the instruction finds the rule
    /// again after a merge renumbered it).
    pub rule: u64,
    pub instruction: String,
    /// The file from the workspace root, and the line.
    pub file: String,
    pub line: usize,
    /// A digest of the rule, the file and the line's text: the same break seen again.
    pub key: String,
}

/// The receipts file of the repository the workspace lies in; `None` outside git.
fn journal_of(workspace: &Workspace) -> Option<Journal> {
    Journal::of_repository(&workspace.root, "receipts.jsonl", MAX_BYTES)
}

/// One break a check caught: the rule (number and instruction), and where.
pub(crate) struct Break<'a> {
    pub rule: u64,
    pub instruction: &'a str,
    /// The file as the finding shows it (from the current directory, or from the root).
    pub file: &'a Path,
    pub line: usize,
}

/// Records `breaks` as caught by `via`. Outside a git repository nothing is recorded. The
/// caller decides whether an error matters (a hook goes on without its receipt).
pub(crate) fn record(workspace: &Workspace, via: Via, breaks: &[Break<'_>]) -> anyhow::Result<()> {
    if breaks.is_empty() {
        return Ok(());
    }
    let Some(journal) = journal_of(workspace) else {
        return Ok(());
    };
    let time = crate::report::calendar::now();
    let fresh: Vec<Receipt> = breaks
        .iter()
        .map(|caught| {
            let file = from_root(workspace, caught.file);
            let text = line_text(&workspace.root.join(&file), caught.line);
            let key = crate::report::digest::hex_of_parts([
                caught.rule.to_string().as_bytes(),
                b"\0",
                file.as_bytes(),
                b"\0",
                text.as_bytes(),
            ])[..16]
                .to_string();
            Receipt {
                time: time.clone(),
                via,
                rule: caught.rule,
                instruction: caught.instruction.to_string(),
                file,
                line: caught.line,
                key,
            }
        })
        .collect();
    append(&journal, &fresh)
}

/// Appends the receipts not already recorded today.
fn append(journal: &Journal, fresh: &[Receipt]) -> anyhow::Result<()> {
    journal.append(|old| {
        let mut keys: std::collections::HashSet<(String, String)> = journal::parse(old)
            .map(|r: Receipt| (day_of(&r.time).to_string(), r.key))
            .collect();
        let mut added = String::new();
        for receipt in fresh {
            if keys.insert((day_of(&receipt.time).to_string(), receipt.key.clone())) {
                added.push_str(&serde_json::to_string(receipt)?);
                added.push('\n');
            }
        }
        Ok((added, ()))
    })
}

fn day_of(time: &str) -> &str {
    time.get(..10).unwrap_or(time)
}

/// The receipts recorded in the workspace's repository (a line that does not read as one
/// is passed over); none outside git or before the first.
pub(crate) fn read(workspace: &Workspace) -> Vec<Receipt> {
    journal_of(workspace).map_or_else(Vec::new, |journal| journal.read())
}

/// A diagnostic's file (shown from the current directory, or from the root by the hook)
/// as a path from the workspace root, `/`-separated.
fn from_root(workspace: &Workspace, shown: &Path) -> String {
    let root = std::fs::canonicalize(&workspace.root).unwrap_or_else(|_| workspace.root.clone());
    let found = [workspace.cwd.join(shown), workspace.root.join(shown)]
        .into_iter()
        .find_map(|candidate| std::fs::canonicalize(candidate).ok());
    let relative = found
        .as_deref()
        .and_then(|full| full.strip_prefix(&root).ok())
        .unwrap_or(shown);
    let parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    parts.join("/")
}

/// The text of line `line` of the file (empty when it cannot be read).
fn line_text(file: &Path, line: usize) -> String {
    crate::io::limits::read_to_string(file)
        .ok()
        .and_then(|text| text.lines().nth(line.saturating_sub(1)).map(str::to_string))
        .unwrap_or_default()
}
