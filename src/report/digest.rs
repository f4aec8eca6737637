//! The digests autofix needs, from the RustCrypto crates: SHA-256 (Gemini CLI files its
//! chats under the hex digest of the project's root path, scoped exports name their files
//! by a digest of the scope, the sources lock pins each vendored copy) and git's blob id
//! (SHA-1 of `blob <size>\0` and the bytes), which the lock also pins.

use sha2::Digest as _;

fn to_hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    let mut out = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        let _ = write!(out, "{byte:02x}");
    }
    out
}

/// The lower-case hex SHA-256 digest of `data`.
pub(crate) fn hex(data: &[u8]) -> String {
    to_hex(&sha2::Sha256::digest(data))
}

/// The lower-case hex SHA-256 digest of the concatenation of `parts`, without copying them.
pub(crate) fn hex_of_parts<'a>(parts: impl IntoIterator<Item = &'a [u8]>) -> String {
    to_hex(&bytes_of_parts(parts))
}

/// The SHA-256 digest of the concatenation of `parts`, as bytes.
pub(crate) fn bytes_of_parts<'a>(parts: impl IntoIterator<Item = &'a [u8]>) -> [u8; 32] {
    let mut hasher = sha2::Sha256::new();
    for part in parts {
        hasher.update(part);
    }
    hasher.finalize().into()
}

/// git's id of a blob holding `data` (the SHA-1 object format): what `git hash-object`
/// prints for that file.
pub(crate) fn git_blob_id(data: &[u8]) -> String {
    let mut hasher = sha1::Sha1::new();
    hasher.update(format!("blob {}\0", data.len()).as_bytes());
    hasher.update(data);
    to_hex(&hasher.finalize())
}

#[cfg(test)]
mod tests {
    use super::{git_blob_id, hex, hex_of_parts};

    #[test]
    fn known_digests() {
        assert_eq!(
            hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(hex_of_parts([&b"a"[..], b"bc"]), hex(b"abc"));
        // `printf 'hello\n' | git hash-object --stdin`
        assert_eq!(
            git_blob_id(b"hello\n"),
            "ce013625030ba8dba906f756967f9e9ca394464a"
        );
    }
}
