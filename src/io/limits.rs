//! Caps on every input, so a file linked to `/dev/zero` or a huge standard input fails fast
//! with an error naming it and the cap, instead of growing the process to gigabytes.

use std::fmt;
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// The environment variable that raises (or lowers) the cap on a file, in bytes.
const MAX_FILE_ENV: &str = "AUTOFIX_MAX_FILE_BYTES";

/// The default cap on one file: 64 MiB, three times a file of 100,000 realistic rules
/// (21.7 MB) and far above any preset file.
pub(crate) const DEFAULT_MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// The input was larger than its cap; the error's text names the cap and how to raise it.
#[derive(Debug)]
struct TooLarge {
    cap: u64,
}

impl fmt::Display for TooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "larger than {} bytes, the cap on an input (set {MAX_FILE_ENV} to raise it)",
            self.cap
        )
    }
}

impl std::error::Error for TooLarge {}

/// The cap on one file: `AUTOFIX_MAX_FILE_BYTES` as the front end read it, else 64 MiB.
/// A value that is not a positive number of bytes is an error, not silently the default:
/// a user who set it meant it.
pub(crate) fn max_file_bytes() -> io::Result<u64> {
    crate::io::settings::get()
        .max_file_bytes
        .clone()
        .map(|cap| cap.unwrap_or(DEFAULT_MAX_FILE_BYTES))
        .map_err(|message| io::Error::new(io::ErrorKind::InvalidInput, message))
}

/// Reads a whole file, up to the cap: one byte more is an `InvalidData` error holding a
/// [`TooLarge`]. The file is read, never sized by its metadata. Only a regular file (or a
/// link to one) is read, see [`open_regular`].
pub(crate) fn read_file(path: &Path) -> io::Result<Vec<u8>> {
    let cap = max_file_bytes()?;
    let file = open_regular(path)?;
    // Sized from the file's length (and one byte to see its end), not grown by doubling:
    // a large rules file would otherwise hold up to twice its size while it is read.
    let length = file.metadata()?.len().min(cap);
    let bytes = Vec::with_capacity(usize::try_from(length).unwrap_or(0).saturating_add(1));
    read_capped_into(file, cap, bytes)
}

/// [`read_file`], for a file of the repository at `root`: one whose real location (links
/// followed) lies outside `root` is refused (`PermissionDenied`), so a link committed in a
/// work tree (`notes.md -> /proc/self/environ`, `CLAUDE.md -> ../secret.md`) reads nothing
/// from outside it.
pub(crate) fn read_file_within(root: &Path, path: &Path) -> io::Result<Vec<u8>> {
    let real_root = std::fs::canonicalize(root)?;
    let real = std::fs::canonicalize(path)?;
    if !real.starts_with(&real_root) {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!(
                "a link that leads outside the repository (to {}), which autofix never reads",
                real.display()
            ),
        ));
    }
    read_file(&real)
}

/// Reads `input` to its end, failing once it holds more than `cap` bytes.
pub(crate) fn read_capped(input: impl Read, cap: u64) -> io::Result<Vec<u8>> {
    read_capped_into(input, cap, Vec::new())
}

/// [`read_capped`] into `bytes` (empty, with the capacity the caller expects to need).
fn read_capped_into(input: impl Read, cap: u64, mut bytes: Vec<u8>) -> io::Result<Vec<u8>> {
    input.take(cap.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(io::Error::new(io::ErrorKind::InvalidData, TooLarge { cap }));
    }
    Ok(bytes)
}

/// The first bytes of a file, up to the cap: for a file only looked into (does it hold our
/// marker?), where a larger file is no error. Only a regular file, as [`read_file`].
pub(crate) fn read_prefix(path: &Path) -> io::Result<Vec<u8>> {
    let cap = max_file_bytes()?;
    let mut bytes = Vec::new();
    open_regular(path)?.take(cap).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// `path` opened for reading when it is a regular file (or a link to one); anything else
/// is an `InvalidInput` error naming what it is. Opening a FIFO for reading waits for a
/// writer, and a device never ends, so the file is opened with `O_NONBLOCK` (which returns
/// at once for a FIFO, and changes nothing for a regular file) and then checked with
/// `fstat` on what was opened, not on the path, which another program could swap between
/// a check and the open.
pub(crate) fn open_regular(path: &Path) -> io::Result<File> {
    let file = open_without_waiting(path)?;
    let kind = file.metadata()?.file_type();
    if kind.is_file() {
        return Ok(file);
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        format!(
            "not a regular file ({}), which autofix never reads",
            what_it_is(kind)
        ),
    ))
}

#[cfg(unix)]
fn open_without_waiting(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
}

/// Elsewhere an open does not wait for a pipe's writer.
#[cfg(not(unix))]
fn open_without_waiting(path: &Path) -> io::Result<File> {
    File::open(path)
}

/// What a file that is not a regular one is, for the error.
#[cfg(unix)]
fn what_it_is(kind: std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_char_device() || kind.is_block_device() {
        "a device"
    } else if kind.is_socket() {
        "a socket"
    } else if kind.is_dir() {
        "a folder"
    } else {
        "not a file"
    }
}

#[cfg(not(unix))]
fn what_it_is(kind: std::fs::FileType) -> &'static str {
    if kind.is_dir() {
        "a folder"
    } else {
        "not a file"
    }
}

/// Calls `each` with every line of `reader` up to `cap` bytes (longer ones are skipped),
/// without its line break, until it returns `false`.
pub(crate) fn for_each_line(
    mut reader: impl io::BufRead,
    cap: usize,
    mut each: impl FnMut(&[u8]) -> bool,
) {
    let mut line = Vec::new();
    let mut too_long = false;
    loop {
        let (used, ended) = {
            let Ok(buffer) = reader.fill_buf() else {
                return;
            };
            if buffer.is_empty() {
                break;
            }
            let (chunk, used, ended) = match memchr::memchr(b'\n', buffer) {
                Some(at) => (&buffer[..at], at + 1, true),
                None => (buffer, buffer.len(), false),
            };
            if !too_long {
                if line.len() + chunk.len() > cap {
                    too_long = true;
                    line = Vec::new();
                } else {
                    line.extend_from_slice(chunk);
                }
            }
            (used, ended)
        };
        reader.consume(used);
        if ended {
            if !too_long && !each(&line) {
                return;
            }
            too_long = false;
            // A long line's buffer is not kept for the short ones after it.
            if line.capacity() > 1 << 20 {
                line = Vec::new();
            } else {
                line.clear();
            }
        }
    }
    if !too_long && !line.is_empty() {
        each(&line);
    }
}

/// [`read_file`] as text; invalid UTF-8 is an `InvalidData` error.
pub(crate) fn read_to_string(path: &Path) -> io::Result<String> {
    String::from_utf8(read_file(path)?)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.utf8_error()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_one_at_a_time_and_long_ones_skipped() {
        let text = b"{\"a\":1}\n0123456789abcdef\n\n{\"b\":2}";
        let mut seen = Vec::new();
        // A buffer smaller than a line, so lines arrive in pieces.
        let reader = io::BufReader::with_capacity(4, &text[..]);
        for_each_line(reader, 10, |line| {
            seen.push(String::from_utf8(line.to_vec()).unwrap());
            true
        });
        assert_eq!(seen, ["{\"a\":1}", "", "{\"b\":2}"]);
        let mut first = Vec::new();
        for_each_line(&text[..], 100, |line| {
            first.push(line.len());
            false
        });
        assert_eq!(first, [7]);
    }

    #[test]
    fn the_cap_is_exact() {
        assert_eq!(read_capped(&b"abcd"[..], 4).unwrap(), b"abcd");
        let error = read_capped(&b"abcde"[..], 4).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::InvalidData);
        assert!(error.to_string().contains("larger than 4 bytes"), "{error}");
        assert!(read_capped(io::repeat(0), 1 << 20).is_err());
    }
}
