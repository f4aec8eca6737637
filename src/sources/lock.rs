//! The committed lock, `autofix.sources.lock.json`: each source pinned to a commit and the
//! SHA-256 of its vendored copy. Sorted by name, no timestamps, so the same pins always
//! give the same bytes and an update is a one-line diff per source.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::manifest::Source;

/// The lock's shape (`version` 1).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Lock {
    pub version: u32,
    #[serde(default)]
    pub sources: BTreeMap<String, Pin>,
}

/// One source's pin: what was asked (url, ref, path) and what was got.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Pin {
    pub url: String,
    #[serde(rename = "ref")]
    pub reference: String,
    pub path: String,
    /// The commit the ref resolved to.
    pub commit: String,
    /// git's blob id of the rules file at that commit.
    pub blob: String,
    /// SHA-256 of the vendored copy, line endings normalised to LF.
    pub sha256: String,
    /// How many rules the copy holds, and its highest number.
    pub rules: usize,
    pub highest: u64,
}

impl Pin {
    /// Whether the pin was made for what the manifest asks now.
    pub(crate) fn matches(&self, source: &Source) -> bool {
        self.url == source.url && self.reference == source.reference && self.path == source.path
    }
}

impl Pin {
    /// Whether `bytes` are the copy this pin names: both its SHA-256 and git's blob id
    /// match, so a copy edited with the digest recomputed in the lock is still caught
    /// (forging both needs a SHA-1 collision in a JSON rules file).
    pub(crate) fn holds(&self, bytes: &[u8]) -> bool {
        digest(bytes) == self.sha256 && blob_matches(bytes, &self.blob)
    }
}

impl Lock {
    pub(crate) fn parse(text: &str) -> Result<Lock, String> {
        let lock: Lock = serde_json::from_str(text.trim_start_matches('\u{feff}'))
            .map_err(|error| error.to_string())?;
        if lock.version != 1 {
            return Err(format!("version {} is not 1", lock.version));
        }
        Ok(lock)
    }

    /// The text written: pretty JSON, 2-space indented, with a final newline.
    pub(crate) fn file_text(&self) -> String {
        crate::report::text::json_document(self)
    }
}

/// The digest a pin records: SHA-256 of `bytes` with CRLF read as LF, so a checkout with
/// `core.autocrlf` does not look like tampering. The `\r` of each CRLF is skipped, never
/// copied around.
pub(crate) fn digest(bytes: &[u8]) -> String {
    crate::report::digest::hex_of_parts(lf_parts(bytes))
}

/// `bytes` in pieces that, joined, are `bytes` with each CRLF read as LF.
fn lf_parts(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut rest = bytes;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let cut = memchr::memmem::find(rest, b"\r\n").map_or(rest.len(), |at| at + 1);
        let (part, after) = rest.split_at(cut);
        rest = after;
        // A part that ends a CRLF ends with its `\r`: leave it out.
        Some(
            if after.first() == Some(&b'\n') && part.last() == Some(&b'\r') {
                &part[..part.len() - 1]
            } else {
                part
            },
        )
    })
}

/// Whether `bytes` are the blob `id` pinned: as vendored, or with CRLF read as LF (a
/// checkout with `core.autocrlf` turned the source's LF into CRLF).
pub(crate) fn blob_matches(bytes: &[u8], id: &str) -> bool {
    use crate::report::digest::git_blob_id;
    if git_blob_id(bytes) == id {
        return true;
    }
    memchr::memmem::find(bytes, b"\r\n").is_some() && {
        let normalised: Vec<u8> = lf_parts(bytes).flatten().copied().collect();
        git_blob_id(&normalised) == id
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crlf_and_lf_digest_alike_and_other_bytes_do_not() {
        assert_eq!(digest(b"[\r\n]\r\n"), digest(b"[\n]\n"));
        assert_ne!(digest(b"[\n]\n"), digest(b"[\n] \n"));
        // A lone CR stays; the CR of each CRLF goes.
        assert_eq!(
            digest(b"a\rb\r\n\r\r\n"),
            crate::report::digest::hex(b"a\rb\n\r\n")
        );
        let id = crate::report::digest::git_blob_id(b"[\n]\n");
        assert!(blob_matches(b"[\r\n]\r\n", &id) && blob_matches(b"[\n]\n", &id));
        assert!(!blob_matches(b"[\n] \n", &id));
    }
}
