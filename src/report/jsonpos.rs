//! Finding things in JSON source text: the byte offset of a JSON pointer, and the line
//! and column of a byte offset. serde_json reports positions only for syntax errors;
//! semantic diagnostics use this to point at the exact value.

use crate::report::diagnostics::Position;

/// The line and column (1-based, columns in characters) of a byte offset in `source`.
pub(crate) fn position(source: &str, offset: usize) -> Position {
    let offset = floor_char_boundary(source, offset.min(source.len()));
    let before = &source[..offset];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    Position::new(
        memchr::memchr_iter(b'\n', before.as_bytes()).count() + 1,
        before[line_start..].chars().count() + 1,
    )
}

/// A parser's 1-based byte column on 1-based `line` as a 1-based code-point column, the
/// unit every output declares (serde_json counts bytes, so a line with `é` before the
/// error would be reported too far right). 0 ("before the first character") becomes 1.
pub(crate) fn char_column(source: &str, line: usize, byte_column: usize) -> usize {
    let Some(text) = source.split('\n').nth(line.saturating_sub(1)) else {
        return byte_column.max(1);
    };
    // Column k names the byte at index k - 1: the characters before it, plus itself.
    let before = floor_char_boundary(text, byte_column.saturating_sub(1).min(text.len()));
    text[..before].chars().count() + 1
}

/// The largest char boundary of `source` at or before `offset` (at most its length).
pub(crate) fn floor_char_boundary(source: &str, mut offset: usize) -> usize {
    while !source.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// serde_json's message without its " at line L column C" suffix (positions are reported
/// separately).
pub(crate) fn message_without_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(at) => message[..at].to_string(),
        None => message.to_string(),
    }
}

/// Where the value at `pointer` (RFC 6901) starts in `source`, if the document is valid
/// enough to walk there.
pub(crate) fn find_pointer(source: &str, pointer: &str) -> Option<usize> {
    let bytes = source.as_bytes();
    let mut at = skip_ws(bytes, skip_bom(bytes));
    if pointer.is_empty() {
        return Some(at);
    }
    for token in pointer.strip_prefix('/')?.split('/') {
        let token = token.replace("~1", "/").replace("~0", "~");
        at = match bytes.get(at)? {
            b'{' => member(source, at, &token)?,
            b'[' => element(source, at, token.parse().ok()?)?,
            _ => return None,
        };
    }
    Some(at)
}

/// Where the value at `pointer` starts, as a position.
pub(crate) fn locate(source: &str, pointer: &str) -> Option<Position> {
    find_pointer(source, pointer).map(|offset| position(source, offset))
}

/// Positions in one document, for many lookups: the start of every [`STRIDE`]th line is
/// indexed once, and the element offsets of every array walked through are remembered, so
/// a report with a diagnostic on each of n commands costs O(n log n), not O(n²). Holds
/// offsets only: the caller passes the same `source` to every call.
#[derive(Debug, Default)]
pub(crate) struct Locator {
    /// The starts of lines 1, 1 + STRIDE, 1 + 2 × STRIDE, …
    line_starts: std::cell::OnceCell<Vec<usize>>,
    arrays: std::cell::RefCell<std::collections::HashMap<usize, Vec<usize>>>,
}

/// Lines between two indexed line starts: a position counts at most this many line breaks
/// past the nearest, and a file of short lines (a rules file of 100,000 rules has 600,000)
/// keeps a sixteenth of an index that `check`'s memory would otherwise carry at its peak.
const STRIDE: usize = 16;

impl Locator {
    /// The position of byte `offset` (columns in characters, as [`position`]).
    pub(crate) fn position(&self, source: &str, offset: usize) -> Position {
        let offset = floor_char_boundary(source, offset.min(source.len()));
        let bytes = source.as_bytes();
        let starts = self.line_starts.get_or_init(|| {
            let breaks = memchr::memchr_iter(b'\n', bytes);
            let every = breaks.enumerate().filter(|(n, _)| (n + 1) % STRIDE == 0);
            std::iter::once(0)
                .chain(every.map(|(_, at)| at + 1))
                .collect()
        });
        let block = starts.partition_point(|&start| start <= offset) - 1;
        let before = &bytes[starts[block]..offset];
        let line = block * STRIDE + 1 + memchr::memchr_iter(b'\n', before).count();
        let line_start =
            memchr::memrchr(b'\n', before).map_or(starts[block], |at| starts[block] + at + 1);
        Position::new(line, source[line_start..offset].chars().count() + 1)
    }

    /// Where the value at `pointer` starts, as a position.
    pub(crate) fn locate(&self, source: &str, pointer: &str) -> Option<Position> {
        self.find_pointer(source, pointer)
            .map(|offset| self.position(source, offset))
    }

    /// [`find_pointer`], with each array's elements found once.
    pub(crate) fn find_pointer(&self, source: &str, pointer: &str) -> Option<usize> {
        let bytes = source.as_bytes();
        let mut at = skip_ws(bytes, skip_bom(bytes));
        if pointer.is_empty() {
            return Some(at);
        }
        for token in pointer.strip_prefix('/')?.split('/') {
            let token = token.replace("~1", "/").replace("~0", "~");
            at = match bytes.get(at)? {
                b'{' => member(source, at, &token)?,
                b'[' => {
                    let index: usize = token.parse().ok()?;
                    let mut arrays = self.arrays.borrow_mut();
                    let elements = arrays
                        .entry(at)
                        .or_insert_with(|| elements(source, at).unwrap_or_default());
                    *elements.get(index)?
                }
                _ => return None,
            };
        }
        Some(at)
    }
}

/// The offsets of every element of the array starting at `at`.
fn elements(text: &str, at: usize) -> Option<Vec<usize>> {
    let bytes = text.as_bytes();
    let mut at = skip_ws(bytes, at + 1);
    let mut found = Vec::new();
    if bytes.get(at) == Some(&b']') {
        return Some(found);
    }
    loop {
        found.push(at);
        at = skip_ws(bytes, skip_value(text, at)?);
        match bytes.get(at)? {
            b',' => at = skip_ws(bytes, at + 1),
            _ => return Some(found),
        }
    }
}

fn skip_bom(bytes: &[u8]) -> usize {
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    }
}

pub(crate) fn skip_ws(bytes: &[u8], mut at: usize) -> usize {
    while matches!(bytes.get(at), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        at += 1;
    }
    at
}

/// The offset of the value of member `key` in the object starting at `at`.
fn member(text: &str, at: usize, key: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut at = skip_ws(bytes, at + 1);
    if bytes.get(at) == Some(&b'}') {
        return None;
    }
    loop {
        let key_start = at;
        let key_end = skip_string(text, at)?;
        let raw_key = std::str::from_utf8(&bytes[key_start..key_end]).ok()?;
        let name: String = serde_json::from_str(raw_key).ok()?;
        at = skip_ws(bytes, key_end);
        if bytes.get(at) != Some(&b':') {
            return None;
        }
        at = skip_ws(bytes, at + 1);
        if name == key {
            return Some(at);
        }
        at = skip_ws(bytes, skip_value(text, at)?);
        match bytes.get(at)? {
            b',' => at = skip_ws(bytes, at + 1),
            _ => return None,
        }
    }
}

/// The offset of element `index` in the array starting at `at`.
fn element(text: &str, at: usize, index: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut at = skip_ws(bytes, at + 1);
    if bytes.get(at) == Some(&b']') {
        return None;
    }
    for _ in 0..index {
        at = skip_ws(bytes, skip_value(text, at)?);
        match bytes.get(at)? {
            b',' => at = skip_ws(bytes, at + 1),
            _ => return None,
        }
    }
    Some(at)
}

/// The offset just past the string starting at `at` (which must be a `"`).
fn skip_string(text: &str, at: usize) -> Option<usize> {
    string_end(text, at).map(|(end, _)| end)
}

/// The offset just past the string starting at `at` (which must be a `"`), and whether it
/// holds an escape. `memchr2` jumps to the next `"` or `\\`: this walk runs over every
/// string of every rule.
pub(crate) fn string_end(text: &str, at: usize) -> Option<(usize, bool)> {
    let bytes = text.as_bytes();
    if bytes.get(at) != Some(&b'"') {
        return None;
    }
    let mut i = at + 1;
    let mut escaped = false;
    loop {
        i += memchr::memchr2(b'"', b'\\', bytes.get(i..)?)?;
        if bytes[i] == b'"' {
            return Some((i + 1, escaped));
        }
        escaped = true;
        i += 2;
    }
}

/// The offset just past the value starting at `at`. Containers are skipped by counting
/// brackets outside strings; the document was already checked by a real parser or is
/// only being searched, so this need not validate.
pub(crate) fn skip_value(text: &str, at: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    match bytes.get(at)? {
        b'"' => skip_string(text, at),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut i = at;
            loop {
                match bytes.get(i)? {
                    b'"' => {
                        i = skip_string(text, i)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(i + 1);
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
        }
        _ => {
            let mut i = at;
            while let Some(b) = bytes.get(i) {
                if matches!(b, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
                    break;
                }
                i += 1;
            }
            (i > at).then_some(i)
        }
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn the_locator_agrees_with_the_one_shot_functions() {
        let source = "{\"a\": [1,\n {\"b\": \"é\"},\n  [2, 3]],\n \"c\": null}";
        let locator = Locator::default();
        for pointer in [
            "", "/a", "/a/0", "/a/1", "/a/1/b", "/a/2/1", "/c", "/a/9", "/x",
        ] {
            assert_eq!(
                locator.locate(source, pointer),
                locate(source, pointer),
                "{pointer}"
            );
        }
        for offset in 0..source.len() {
            assert_eq!(locator.position(source, offset), position(source, offset));
        }
    }

    #[test]
    fn the_sparse_index_agrees_with_counting_every_line() {
        let lines: Vec<String> = (0..100)
            .map(|n| "é".repeat(n % 7) + &"x".repeat(n % 3))
            .collect();
        let source = lines.join("\n");
        let locator = Locator::default();
        for offset in (0..=source.len()).filter(|&at| source.is_char_boundary(at)) {
            assert_eq!(
                locator.position(&source, offset),
                position(&source, offset),
                "{offset}"
            );
        }
    }

    #[test]
    fn char_columns_count_code_points_not_bytes() {
        let source = "[\n  {\"Instruction\": \"été\",}\n]";
        let error = serde_json::from_str::<serde_json::Value>(source).unwrap_err();
        // The `}` after the comma is byte 27 of the line but its 25th character.
        assert_eq!((error.line(), error.column()), (2, 27));
        assert_eq!(char_column(source, 2, error.column()), 25);
        assert_eq!(char_column("x", 1, 0), 1);
        assert_eq!(char_column("x", 9, 5), 5);
    }

    use super::*;

    const DOC: &str = "{\n  \"a\": [1, {\"b/c\": \"x\\\"y\"}],\n  \"d\": {\"e\": true}\n}";

    #[test]
    fn finds_nested_values() {
        assert_eq!(locate(DOC, ""), Some(Position { line: 1, column: 1 }));
        assert_eq!(locate(DOC, "/a/0"), Some(Position { line: 2, column: 9 }));
        assert_eq!(
            locate(DOC, "/a/1/b~1c"),
            Some(Position {
                line: 2,
                column: 20
            })
        );
        assert_eq!(
            locate(DOC, "/d/e"),
            Some(Position {
                line: 3,
                column: 14
            })
        );
    }

    #[test]
    fn missing_paths_are_none() {
        assert_eq!(find_pointer(DOC, "/zz"), None);
        assert_eq!(find_pointer(DOC, "/a/5"), None);
        assert_eq!(find_pointer(DOC, "/a/0/x"), None);
        assert_eq!(find_pointer("[]", "/0"), None);
    }

    #[test]
    fn strings_end_at_the_unescaped_quote() {
        for (text, end, escaped) in [
            (r#""""#, 2, false),
            (r#""abc" x"#, 5, false),
            (r#""a long string without escapes" x"#, 31, false),
            (r#""a long string with an \" escaped quote" x"#, 40, true),
            (r#""ends with a backslash \\" x"#, 26, true),
            (r#""ééééééééééé""#, 24, false),
        ] {
            assert_eq!(string_end(text, 0), Some((end, escaped)), "{text}");
        }
        assert_eq!(string_end(r#""unterminated"#, 0), None);
        assert_eq!(string_end(r#""unterminated \""#, 0), None);
    }

    #[test]
    fn columns_count_characters() {
        assert_eq!(position("é\"x", 2), Position { line: 1, column: 2 });
        assert_eq!(position("a\nb", 99), Position { line: 2, column: 2 });
    }
}
