//! Reading Markdown files the way the exporters need: line by line with exact byte
//! offsets, each line tagged as text, fenced code or frontmatter, plus the file's line
//! ending and its byte order mark. Nothing here changes a byte; the writers splice.

use std::borrow::Cow;

/// The UTF-8 byte order mark: kept where a file has it, never added.
pub(crate) const BOM: &str = "\u{feff}";

/// Where a line sits in the document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Context {
    Text,
    /// Inside a fenced code block, its fence lines included.
    Fence,
    /// Inside the YAML frontmatter, its `---` lines included.
    Frontmatter,
}

/// One line: 1-based number, byte range without and with its line ending.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Line<'a> {
    pub number: usize,
    /// Byte offset of the line's first byte (after the BOM on line 1).
    pub start: usize,
    /// The line without its ending (`\n` or `\r\n`).
    pub text: &'a str,
    /// Byte offset just past the line ending (or the end of the file).
    pub next: usize,
    pub context: Context,
}

impl Line<'_> {
    /// Byte offset of the end of the line's text (where its ending starts).
    pub(crate) fn text_end(&self) -> usize {
        self.start + self.text.len()
    }
}

/// Splits `source` into lines and tags each with its context.
pub(crate) fn lines(source: &str) -> Vec<Line<'_>> {
    let body_start = if source.starts_with(BOM) {
        BOM.len()
    } else {
        0
    };
    let mut lines = Vec::new();
    let mut at = body_start;
    while at < source.len() {
        let (text_end, next) = match source[at..].find('\n') {
            Some(i) => (at + i, at + i + 1),
            None => (source.len(), source.len()),
        };
        let text = source[at..text_end]
            .strip_suffix('\r')
            .unwrap_or(&source[at..text_end]);
        lines.push(Line {
            number: lines.len() + 1,
            start: at,
            text,
            next,
            context: Context::Text,
        });
        at = next;
    }
    tag(&mut lines);
    lines
}

fn tag(lines: &mut [Line<'_>]) {
    let mut from = 0;
    if lines.first().is_some_and(|l| l.text.trim_end() == "---") {
        let close = lines
            .iter()
            .skip(1)
            .position(|l| matches!(l.text.trim_end(), "---" | "..."));
        if let Some(close) = close {
            for line in &mut lines[..close + 2] {
                line.context = Context::Frontmatter;
            }
            from = close + 2;
        }
    }
    let mut open: Option<(char, usize)> = None;
    for line in &mut lines[from..] {
        match open {
            Some((fence, length)) => {
                line.context = Context::Fence;
                if closes(line.text, fence, length) {
                    open = None;
                }
            }
            None => {
                if let Some(fence) = opens(line.text) {
                    line.context = Context::Fence;
                    open = Some(fence);
                }
            }
        }
    }
}

/// Leading spaces, when there are at most three (CommonMark's limit for a block start).
fn indent_ok(text: &str) -> Option<&str> {
    let trimmed = text.trim_start_matches(' ');
    (text.len() - trimmed.len() <= 3).then_some(trimmed)
}

/// A fence opener: three or more backticks (info string without backticks) or tildes.
fn opens(text: &str) -> Option<(char, usize)> {
    let rest = indent_ok(text)?;
    let fence = rest.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let length = rest.chars().take_while(|c| *c == fence).count();
    if length < 3 || (fence == '`' && rest[length..].contains('`')) {
        return None;
    }
    Some((fence, length))
}

fn closes(text: &str, fence: char, length: usize) -> bool {
    let Some(rest) = indent_ok(text) else {
        return false;
    };
    let run = rest.chars().take_while(|c| *c == fence).count();
    run >= length && rest[run..].trim().is_empty()
}

/// The file's line ending: that of its first line, `\n` when it has none.
pub(crate) fn eol(source: &str) -> &'static str {
    match source.find('\n') {
        Some(i) if source[..i].ends_with('\r') => "\r\n",
        _ => "\n",
    }
}

/// `text` with `\r\n` turned into `\n`: how contents are compared.
pub(crate) fn normalize(text: &str) -> Cow<'_, str> {
    if text.contains("\r\n") {
        Cow::Owned(text.replace("\r\n", "\n"))
    } else {
        Cow::Borrowed(text)
    }
}

/// `text` (written with `\n`) with the line ending `eol`.
pub(crate) fn with_eol(text: &str, eol: &str) -> String {
    if eol == "\n" {
        text.to_string()
    } else {
        text.replace('\n', eol)
    }
}

/// Decodes a file; on invalid UTF-8, the 1-based line of the first bad byte.
pub(crate) fn decode(bytes: Vec<u8>) -> Result<String, usize> {
    String::from_utf8(bytes).map_err(|error| {
        let valid = error.utf8_error().valid_up_to();
        memchr::memchr_iter(b'\n', &error.as_bytes()[..valid]).count() + 1
    })
}

/// The first line outside the frontmatter (where a stamp goes), if any.
pub(crate) fn first_body_line<'a>(lines: &[Line<'a>]) -> Option<Line<'a>> {
    lines
        .iter()
        .find(|l| l.context != Context::Frontmatter)
        .copied()
}

/// The value of a top-level `key: value` line of the frontmatter, unquoted.
pub(crate) fn frontmatter_value<'a>(lines: &[Line<'a>], key: &str) -> Option<&'a str> {
    lines
        .iter()
        .take_while(|l| l.context == Context::Frontmatter)
        .find_map(|l| {
            let (k, v) = l.text.split_once(':')?;
            (k.trim() == key).then(|| v.trim().trim_matches(|c| c == '"' || c == '\''))
        })
}

/// `relative` as it is spelled on disk when only another letter case of its file name
/// exists there (`agents.md` for `AGENTS.md`); else `relative` itself. The folders are
/// taken as written.
pub(crate) fn on_disk(root: &std::path::Path, relative: &str) -> String {
    let path = root.join(relative);
    if path.symlink_metadata().is_ok() {
        return relative.to_string();
    }
    let (folder, name) = match relative.rsplit_once('/') {
        Some((folder, name)) => (Some(folder), name),
        None => (None, relative),
    };
    let dir = folder.map_or_else(|| root.to_path_buf(), |f| root.join(f));
    let mut variants: Vec<String> = names_in(&dir)
        .into_iter()
        .filter(|found| found.eq_ignore_ascii_case(name))
        .collect();
    variants.sort();
    match (variants.first(), folder) {
        (Some(found), Some(folder)) => format!("{folder}/{found}"),
        (Some(found), None) => found.clone(),
        (None, _) => relative.to_string(),
    }
}

/// The names in each folder, listed once per command: `on_disk` is asked of every target
/// of an export, and most of them are absent (a folder read each, 70 of the root on an
/// export of 300 scoped files). A name this command writes is found by its exact spelling
/// before the listing is looked at. The MCP server starts each request afresh
/// ([`forget_names`]).
static NAMES: std::sync::Mutex<Option<std::collections::HashMap<std::path::PathBuf, Vec<String>>>> =
    std::sync::Mutex::new(None);

fn names_in(dir: &std::path::Path) -> Vec<String> {
    let mut names = NAMES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    names
        .get_or_insert_with(Default::default)
        .entry(dir.to_path_buf())
        .or_insert_with(|| {
            std::fs::read_dir(dir).map_or_else(
                |_| Vec::new(),
                |entries| {
                    entries
                        .filter_map(Result::ok)
                        .filter_map(|entry| entry.file_name().into_string().ok())
                        .collect()
                },
            )
        })
        .clone()
}

/// Forgets the folders listed for other spellings: for a process that runs many commands
/// (the MCP server), before each.
pub(crate) fn forget_names() {
    *NAMES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = None;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contexts(source: &str) -> Vec<Context> {
        lines(source).iter().map(|l| l.context).collect()
    }

    #[test]
    fn offsets_skip_the_bom_and_keep_crlf_out_of_the_text() {
        let source = "\u{feff}a\r\nb\nc";
        let lines = lines(source);
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0].start, 3);
        assert_eq!(lines[0].text, "a");
        assert_eq!(lines[0].next, 6);
        assert_eq!(lines[2].text, "c");
        assert_eq!(lines[2].next, source.len());
        assert_eq!(eol(source), "\r\n");
        assert_eq!(eol("x"), "\n");
    }

    #[test]
    fn fences_and_frontmatter() {
        use Context::*;
        let source = "---\na: b\n---\ntext\n```rust\ncode\n```\n~~~~\n```\n~~~~\nafter\n";
        assert_eq!(
            contexts(source),
            [
                Frontmatter,
                Frontmatter,
                Frontmatter,
                Text,
                Fence,
                Fence,
                Fence,
                Fence,
                Fence,
                Fence,
                Text
            ]
        );
        // An unclosed frontmatter is text; an unclosed fence runs to the end.
        assert_eq!(contexts("---\nx\n"), [Text, Text]);
        assert_eq!(contexts("```\nx\n"), [Fence, Fence]);
        // Four spaces of indentation is not a fence; backticks in the info string neither.
        assert_eq!(contexts("    ```\nx\n"), [Text, Text]);
        assert_eq!(contexts("``` a`b\nx\n"), [Text, Text]);
    }

    #[test]
    fn frontmatter_values_and_bad_utf8() {
        let lines = lines("---\nname: autofix\nmetadata:\n  generator: \"autofix\"\n---\nbody\n");
        assert_eq!(frontmatter_value(&lines, "name"), Some("autofix"));
        assert_eq!(first_body_line(&lines).unwrap().text, "body");
        assert_eq!(decode(b"ok\nok\n\xff".to_vec()), Err(3));
    }
}
