//! Why a rules-file operation could not be done. Every variant names the file.

use std::io;
use std::path::PathBuf;

use crate::io::atomic::AtomicError;
use crate::io::lock::LockError;

#[derive(Debug, thiserror::Error)]
pub(crate) enum RulesError {
    #[error("cannot read {}: {error}", path.display())]
    Read { path: PathBuf, error: io::Error },
    #[error("{}:{line}:{column}: the file is not valid UTF-8", path.display())]
    NotUtf8 {
        path: PathBuf,
        line: usize,
        column: usize,
    },
    #[error("{}:{line}:{column}: invalid JSON: {message}", path.display())]
    InvalidJson {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
    #[error(
        "{}:{line}: leftover merge conflict marker `{marker}`: run `autofix resolve` to merge \
         the rules again from git's index (or keep one side of each conflict)",
        path.display()
    )]
    ConflictMarker {
        path: PathBuf,
        line: usize,
        marker: &'static str,
    },
    #[error("{}: not a JSON array of rules (the top level is {found})", path.display())]
    NotArray { path: PathBuf, found: &'static str },
    #[error("{}:{line}:{column}: rule {position} of the array is {found}, not an object", path.display())]
    NotObject {
        path: PathBuf,
        line: usize,
        column: usize,
        position: usize,
        found: &'static str,
    },
    #[error("{}:{line}:{column}: rule {position} of the array: {problem}", path.display())]
    BadRule {
        path: PathBuf,
        line: usize,
        column: usize,
        position: usize,
        problem: String,
    },
    #[error("unknown category `{given}`; use one of {allowed}{hint}")]
    UnknownCategory {
        given: String,
        allowed: String,
        /// "; did you mean `CODE`?", or empty.
        hint: String,
    },
    #[error(
        "no rule has the category `{given}`, and it is not a standard one (known: {known}){hint}"
    )]
    UnknownFilter {
        given: String,
        known: String,
        hint: String,
    },
    #[error("the {field} is empty")]
    EmptyField { field: &'static str },
    #[error(
        "the {field} contains a line break, a line separator or another control character (bidirectional controls and invisible tag characters included); write it on one line, in plain text"
    )]
    ControlCharacter { field: &'static str },
    #[error(
        "the {field} holds {kind}: a rule is committed and exported into every agent's file; keep the credential where secrets live and name it in the rule instead (\"read the token from $DEPLOY_TOKEN\") [secret-in-rule]"
    )]
    Secret {
        field: &'static str,
        kind: &'static str,
    },
    #[error(
        "the {field} contains an invisible character, U+{code:04X}: an agent reads it, nobody sees it; remove it"
    )]
    InvisibleCharacter { field: &'static str, code: u32 },
    #[error(
        "the {field} is {length} characters long, more than the {max} a rule may hold: a rule is one instruction an agent loads every session; say it shorter, or keep the detail in a document the rule names"
    )]
    TooLong {
        field: &'static str,
        length: usize,
        max: usize,
    },
    #[error("invalid glob `{glob}` for --path: it {problem}")]
    InvalidGlob {
        glob: String,
        problem: super::scope::GlobProblem,
    },
    #[error("invalid check `{pattern}` for {flag}: {problem}")]
    InvalidCheck {
        pattern: String,
        /// `--check` or `--require` (`Check` from JSON input).
        flag: &'static str,
        problem: String,
    },
    #[error(
        "cannot supersede rule {number} (from {from}): {} has no rule with that number",
        path.display()
    )]
    UnknownSupersedes {
        path: PathBuf,
        number: u64,
        /// Where the reference was read: `--supersedes`, `Why` or `Instruction`.
        from: &'static str,
    },
    #[error("{}: the next rule number would exceed 2^63 - 1", path.display())]
    NumberOverflow { path: PathBuf },
    #[error(
        "{}: rule {number} is no longer active (another writer superseded or retired it); \
         only an active rule can be retired",
        path.display()
    )]
    NotRetirable { path: PathBuf, number: u64 },
    #[error(
        "{}: rule {number} is no longer active (another writer superseded or retired it); \
         only active rules can be recorded as distinct",
        path.display()
    )]
    NotActive { path: PathBuf, number: u64 },
    #[error(
        "refusing to write {}: the new text does not read back as the old rules plus the new one \
         (this is a bug in autofix; the file is unchanged)",
        path.display()
    )]
    Verify { path: PathBuf },
    #[error(transparent)]
    Lock(#[from] LockError),
    #[error(transparent)]
    Write(#[from] AtomicError),
}
