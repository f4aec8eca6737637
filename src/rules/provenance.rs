//! Provenance: which commit added each rule, by whom and when, read from the rules file's
//! git history in one `git log --follow -p -U0` call (no field in the file). Each commit's
//! added lines are scanned for `"Rule_number": N` and the `"Instruction"` after it; a rule
//! is attributed to the oldest commit that added its number with its instruction, else
//! (a merge renumbered it) the oldest that added its instruction. A rule no commit added is
//! uncommitted. Merge commits show no diff, so a rule is credited to the commit that learned
//! it on its branch, not to the merge.

use std::collections::HashMap;
use std::path::Path;

use serde::Serialize;

use crate::io::git::Git;
use crate::report::jsonpos::{skip_ws, string_end};

/// One commit of the rules file's history.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct Commit {
    pub commit: String,
    pub author: String,
    pub email: String,
    /// The author date in UTC, ISO 8601 (`2026-11-12T09:00:00Z`).
    pub date: String,
    pub subject: String,
}

/// Where a rule came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Origin<'h> {
    /// The commit that added it.
    Commit(&'h Commit),
    /// In the work tree only: no commit added it yet.
    Uncommitted,
    /// No history to read: the file is outside a git work tree, or git cannot run.
    Unknown,
}

impl Origin<'_> {
    pub(crate) fn status(self) -> &'static str {
        match self {
            Origin::Commit(_) => "committed",
            Origin::Uncommitted => "uncommitted",
            Origin::Unknown => "unknown",
        }
    }

    /// `a1b2c3d by Ana <ana@x>, 2026-11-12T09:00:00Z: subject`, or the status.
    pub(crate) fn describe(self) -> String {
        match self {
            Origin::Commit(commit) => format!(
                "{} by {} <{}>, {}",
                commit.commit.get(..7).unwrap_or(&commit.commit),
                crate::report::text::shown(&commit.author),
                crate::report::text::shown(&commit.email),
                commit.date
            ),
            Origin::Uncommitted => {
                "uncommitted (in the work tree, not in a commit yet)".to_string()
            }
            Origin::Unknown => "unknown (the rules file is not in a git history)".to_string(),
        }
    }
}

/// The provenance JSON of one rule: `{"status", "commit"?, "author"?, "email"?, "date"?,
/// "subject"?}`.
#[derive(Serialize)]
struct OriginJson<'h> {
    status: &'static str,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    commit: Option<&'h Commit>,
}

impl Serialize for Origin<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        OriginJson {
            status: self.status(),
            commit: match self {
                Origin::Commit(commit) => Some(commit),
                _ => None,
            },
        }
        .serialize(serializer)
    }
}

/// The rules file's history, indexed for lookups.
#[derive(Clone, Debug, Default)]
pub(crate) struct History {
    /// Whether a history was read at all.
    pub available: bool,
    /// Oldest first.
    pub commits: Vec<Commit>,
    /// (number, instruction) to the oldest commit that added them together.
    pairs: HashMap<(u64, String), usize>,
    /// An instruction to the oldest commit that added it.
    texts: HashMap<String, usize>,
}

impl History {
    /// Reads the history of the rules file at `path` with one git call; empty and not
    /// `available` when there is none. git's output is read line by line as it comes (a
    /// 6 MB file reformatted 16 times is 190 MB of log), one line held at a time; a line
    /// over the file cap is passed over.
    pub(crate) fn read(path: &Path) -> History {
        let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
            return History::default();
        };
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        let args: Vec<&std::ffi::OsStr> = [
            "-c",
            "core.quotePath=false",
            "log",
            "--follow",
            "--no-color",
            "--no-ext-diff",
            "--no-textconv",
            "-p",
            "-U0",
            // NUL-separated: no byte of a name or a subject can be taken for a separator
            // (git refuses NUL in both), and a header line is one that starts with NUL,
            // which no line of a diff does.
            "--format=%x00%H%x00%an%x00%ae%x00%at%x00%s",
            "--",
        ]
        .iter()
        .map(std::ffi::OsStr::new)
        .chain(std::iter::once(name))
        .collect();
        let cap = crate::io::limits::max_file_bytes()
            .ok()
            .and_then(|cap| usize::try_from(cap).ok())
            .unwrap_or(usize::MAX);
        let git = Git::new(dir);
        let mut reader = Reader::default();
        match git.each_line(&args, cap, |line| reader.line(line)) {
            Ok(()) => reader.finish(),
            // A work tree without a commit yet: every rule is uncommitted.
            Err(_) if matches!(git.top_level(), Ok(Some(_))) => History {
                available: true,
                ..History::default()
            },
            Err(_) => History::default(),
        }
    }

    /// The history from `git log`'s output (newest first, as git prints it).
    pub(crate) fn parse(log: &str) -> History {
        let mut reader = Reader::default();
        for line in log.split('\n') {
            reader.line(line.as_bytes());
        }
        reader.finish()
    }

    /// Where rule `number` with `instruction` came from.
    pub(crate) fn origin(&self, number: Option<u64>, instruction: &str) -> Origin<'_> {
        if !self.available {
            return Origin::Unknown;
        }
        let found = number
            .and_then(|n| self.pairs.get(&(n, instruction.to_string())))
            .or_else(|| self.texts.get(instruction));
        match found {
            Some(&index) => Origin::Commit(&self.commits[index]),
            None => Origin::Uncommitted,
        }
    }
}

/// `git log`'s output read a line at a time: the commits newest first, each rule credited
/// to the last (so the oldest) commit read that added it.
#[derive(Default)]
struct Reader {
    /// Newest first, as read.
    commits: Vec<Commit>,
    pairs: HashMap<(u64, String), usize>,
    texts: HashMap<String, usize>,
    /// The commit whose diff is being read; `None` before the first header, or after a
    /// header that is not ours.
    current: Option<usize>,
    /// The `"Rule_number"` added before in the current hunk.
    number: Option<u64>,
}

impl Reader {
    fn line(&mut self, line: &[u8]) {
        if let Some(header) = line.strip_prefix(b"\0") {
            self.header(header);
            return;
        }
        let Some(index) = self.current else {
            return;
        };
        if line.starts_with(b"@@") {
            self.number = None;
            return;
        }
        let Some(added) = line.strip_prefix(b"+") else {
            return;
        };
        if added.starts_with(b"++ ") {
            return;
        }
        let mut found = Vec::new();
        scan_line(
            &String::from_utf8_lossy(added),
            &mut self.number,
            &mut found,
        );
        for (number, instruction) in found {
            if let Some(number) = number {
                self.pairs.insert((number, instruction.clone()), index);
            }
            self.texts.insert(instruction, index);
        }
    }

    /// `H`, `an`, `ae`, `at` and `s`, NUL-separated (the subject last, whole).
    fn header(&mut self, header: &[u8]) {
        let text = String::from_utf8_lossy(header);
        let fields: Vec<&str> = text.splitn(5, '\0').collect();
        self.number = None;
        self.current = None;
        let [commit, author, email, time, subject] = fields.as_slice() else {
            return;
        };
        self.current = Some(self.commits.len());
        self.commits.push(Commit {
            commit: (*commit).to_string(),
            author: (*author).to_string(),
            email: (*email).to_string(),
            date: time.parse().map(utc_date).unwrap_or_default(),
            subject: (*subject).to_string(),
        });
    }

    /// The history, oldest first.
    fn finish(mut self) -> History {
        let last = self.commits.len().saturating_sub(1);
        self.commits.reverse();
        let oldest_first = |index: usize| last - index;
        History {
            available: true,
            commits: self.commits,
            pairs: self
                .pairs
                .into_iter()
                .map(|(key, index)| (key, oldest_first(index)))
                .collect(),
            texts: self
                .texts
                .into_iter()
                .map(|(key, index)| (key, oldest_first(index)))
                .collect(),
        }
    }
}

/// Reads the `"Rule_number": N` and `"Instruction": "…"` members of one line, in order. A
/// `{` starts another object; an instruction written before its object's number gets the
/// number when it comes.
fn scan_line(line: &str, number: &mut Option<u64>, found: &mut Vec<(Option<u64>, String)>) {
    let bytes = line.as_bytes();
    let mut at = 0;
    while let Some(offset) = line[at..].find(['"', '{']) {
        let start = at + offset;
        if bytes[start] == b'{' {
            *number = None;
            at = start + 1;
            continue;
        }
        let Some((end, _)) = string_end(line, start) else {
            return;
        };
        let key = &line[start..end];
        let value = skip_ws(bytes, end);
        if bytes.get(value) != Some(&b':') {
            at = end;
            continue;
        }
        let value = skip_ws(bytes, value + 1);
        match key {
            "\"Rule_number\"" => {
                let digits = bytes[value..]
                    .iter()
                    .take_while(|b| b.is_ascii_digit())
                    .count();
                *number = line[value..value + digits].parse().ok();
                if let Some(last) = found.last_mut().filter(|last| last.0.is_none()) {
                    last.0 = *number;
                }
                at = value + digits;
            }
            "\"Instruction\"" => {
                let Some((text_end, _)) = string_end(line, value) else {
                    return;
                };
                if let Ok(text) = serde_json::from_str::<String>(&line[value..text_end]) {
                    found.push((*number, text.trim().to_string()));
                }
                at = text_end;
            }
            _ => at = end,
        }
    }
}

/// A Unix time as `YYYY-MM-DDTHH:MM:SSZ` (the proleptic Gregorian calendar, UTC).
pub(crate) fn utc_date(seconds: i64) -> String {
    let days = seconds.div_euclid(86_400);
    let rest = seconds.rem_euclid(86_400);
    // Howard Hinnant's days-to-civil algorithm.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unix_times_are_utc_dates() {
        assert_eq!(utc_date(0), "1970-01-01T00:00:00Z");
        assert_eq!(utc_date(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(utc_date(1_795_000_000), "2026-11-18T11:06:40Z");
    }

    #[test]
    fn the_oldest_commit_adding_a_rule_is_its_origin() {
        let log = "\0c2\0Bo\0b@x\x00200\0second\n\ndiff\n@@ -1 +1 @@\n+  {\"Rule_number\": 2, \"Instruction\": \"Use b.\"},\n+    \"Rule_number\": 3,\n+    \"Instruction\": \"Use \\\"c\\\".\",\n+  {\"Instruction\": \"Use e.\", \"Rule_number\": 5}\n\
                   \0c1\0Ana\0a@x\x00100\0first\n\n@@ -0,0 +1 @@\n+    \"Rule_number\": 1,\n+    \"Category\": \"CODE\",\n+    \"Instruction\": \"Use a.\",\n+  {\"Rule_number\": 9, \"Instruction\": \"Use e.\"}\n";
        let history = History::parse(log);
        let commit = |n: u64, text: &str| match history.origin(Some(n), text) {
            Origin::Commit(c) => c.commit.clone(),
            other => other.status().to_string(),
        };
        assert_eq!(commit(1, "Use a."), "c1");
        assert_eq!(commit(2, "Use b."), "c2");
        assert_eq!(commit(3, "Use \"c\"."), "c2");
        // Its number after its instruction: still paired, so not taken for rule 9's text.
        assert_eq!(commit(5, "Use e."), "c2");
        assert_eq!(commit(9, "Use e."), "c1");
        // Renumbered by a merge: found by its instruction.
        assert_eq!(commit(8, "Use a."), "c1");
        assert_eq!(commit(4, "Use d."), "uncommitted");
        assert_eq!(
            History::default().origin(Some(1), "Use a.").status(),
            "unknown"
        );
    }
}
