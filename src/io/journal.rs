//! A journal: a file of JSON lines under git's common directory (this clone's own, never
//! committed, never sent anywhere) that commands add to through the one write path, under
//! its lock, keeping its newest [`Journal::max_bytes`]. A line that does not read is passed
//! over, so the file always reads, whatever a crash left.

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

use super::git::Git;
use super::safe_write::{self, Fence};

/// One journal file.
pub(crate) struct Journal {
    path: PathBuf,
    /// The most bytes kept: the oldest whole lines go first.
    max_bytes: usize,
}

impl Journal {
    /// The journal `name` (`receipts.jsonl`) of the repository `root` lies in, in
    /// `autofix/` under git's common directory; `None` outside git.
    pub(crate) fn of_repository(root: &Path, name: &str, max_bytes: usize) -> Option<Journal> {
        let common = Git::new(root).common_dir().ok()?;
        Some(Journal {
            path: common.join("autofix").join(name),
            max_bytes,
        })
    }

    /// Adds the lines `added` returns, given the journal's text as it is under the lock
    /// (every line ending in `\n`; an empty string adds nothing). What `added` returns
    /// besides the lines is handed back.
    pub(crate) fn append<T>(
        &self,
        added: impl FnOnce(&str) -> anyhow::Result<(String, T)>,
    ) -> anyhow::Result<T> {
        let folder = self.path.parent().unwrap_or(Path::new("."));
        let locked = Fence::git_folder(folder).lock(&self.path, safe_write::timeout()?)?;
        let before = locked.read()?;
        let mut text = String::from_utf8_lossy(before.as_deref().unwrap_or_default()).into_owned();
        if !text.is_empty() && !text.ends_with('\n') {
            // A line cut short by a crash ends here; it will not read, and is passed over.
            text.push('\n');
        }
        let (lines, answer) = added(&text)?;
        if !lines.is_empty() {
            text.push_str(&lines);
            locked.write(&[kept(&text, self.max_bytes).as_bytes()], before.as_deref())?;
        }
        Ok(answer)
    }

    /// Every line that reads as a `T`, oldest first; none before the first line is written.
    pub(crate) fn read<T: DeserializeOwned>(&self) -> Vec<T> {
        let Ok(bytes) = super::limits::read_file(&self.path) else {
            return Vec::new();
        };
        parse(&String::from_utf8_lossy(&bytes)).collect()
    }
}

/// The lines of `text` that read as a `T`.
pub(crate) fn parse<T: DeserializeOwned>(text: &str) -> impl Iterator<Item = T> + '_ {
    text.lines()
        .filter_map(|line| serde_json::from_str::<T>(line).ok())
}

/// The newest whole lines of `text` that fit in `max_bytes`.
fn kept(text: &str, max_bytes: usize) -> &str {
    if text.len() <= max_bytes {
        return text;
    }
    let cut = text.len() - max_bytes;
    match text[cut..].find('\n') {
        Some(at) => &text[cut + at + 1..],
        None => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_keeps_its_newest_whole_lines() {
        let most = 1024 * 1024;
        let line = format!("{}\n", "x".repeat(99));
        let text = line.repeat(most / 100 + 5);
        let kept = kept(&text, most);
        assert!(kept.len() <= most);
        assert!(kept.len() > most - 100);
        assert!(kept.starts_with('x') && kept.ends_with('\n'));
        assert_eq!(super::kept("a\n", most), "a\n");
    }
}
