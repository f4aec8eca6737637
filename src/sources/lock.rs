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

impl Lock {
    pub(crate) fn parse(text: &str) -> Result<Lock, String> {
        let lock: Lock = serde_json::from_str(text.trim_start_matches('\u{feff}'))
            .map_err(|error| error.to_string())?;
        if lock.version != 1 {
            return Err(format!("version {} is not 1", lock.version));
        }
        Ok(lock)
    }

    pub(crate) fn to_text(&self) -> String {
        crate::report::text::json_document(self)
    }
}

/// The digest a pin records: SHA-256 of `bytes` with CRLF read as LF, so a checkout with
/// `core.autocrlf` does not look like tampering.
pub(crate) fn digest(bytes: &[u8]) -> String {
    if bytes.windows(2).any(|pair| pair == b"\r\n") {
        let mut normalised = Vec::with_capacity(bytes.len());
        let mut iter = bytes.iter().peekable();
        while let Some(&byte) = iter.next() {
            if byte == b'\r' && iter.peek() == Some(&&b'\n') {
                continue;
            }
            normalised.push(byte);
        }
        crate::report::digest::hex(&normalised)
    } else {
        crate::report::digest::hex(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crlf_and_lf_digest_alike_and_other_bytes_do_not() {
        assert_eq!(digest(b"[\r\n]\r\n"), digest(b"[\n]\n"));
        assert_ne!(digest(b"[\n]\n"), digest(b"[\n] \n"));
    }
}
