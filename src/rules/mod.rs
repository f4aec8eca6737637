//! The rules half: the `autofix.json` format ([`file`](mod@file)), categories ([`category`]),
//! precedence ([`supersede`]), the lint ([`check`]), the locked atomic append ([`learn`],
//! [`append`]) and the listing with its renderers ([`listing`]).

pub(crate) mod append;
pub(crate) mod budget;
pub(crate) mod category;
pub(crate) mod check;
pub(crate) mod distinct;
pub(crate) mod error;
pub(crate) mod file;
pub(crate) mod learn;
pub(crate) mod listing;
pub(crate) mod pattern;
pub(crate) mod pattern_check;
pub(crate) mod provenance;
pub(crate) mod reference;
pub(crate) mod retire;
pub(crate) mod scope;
pub(crate) mod scope_check;
pub(crate) mod secrets;
pub(crate) mod show;
pub(crate) mod similar;
pub(crate) mod stale;
pub(crate) mod supersede;

use std::io;
use std::path::Path;

pub(crate) use category::Category;
pub(crate) use error::RulesError;
pub(crate) use file::Document;

use crate::report::jsonpos;
use file::{Number, ParseError};

/// The sentence every listing carries, so an agent applies precedence the same way.
pub(crate) const PRECEDENCE: &str = "On conflict, the higher-numbered rule wins.";

/// Reads the rules file as text; `None` when it does not exist. A symbolic link whose
/// target is missing is an error, not an absent file: it names a file that should be there.
pub(crate) fn read(path: &Path) -> Result<Option<String>, RulesError> {
    let bytes = match crate::io::limits::read_file(path) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == io::ErrorKind::NotFound => {
            if path.symlink_metadata().is_ok() {
                crate::io::atomic::resolve(path)?;
            }
            return Ok(None);
        }
        Err(source) => {
            return Err(RulesError::Read {
                path: path.to_path_buf(),
                error: source,
            });
        }
    };
    match String::from_utf8(bytes) {
        Ok(text) => Ok(Some(text)),
        Err(error) => {
            let valid = error.utf8_error().valid_up_to();
            let text = String::from_utf8_lossy(&error.as_bytes()[..valid]);
            let position = jsonpos::position(&text, valid);
            Err(RulesError::NotUtf8 {
                path: path.to_path_buf(),
                line: position.line as usize,
                column: position.column as usize,
            })
        }
    }
}

/// The first line (1-based) that starts with a merge conflict marker, and the marker: a
/// file git left mid-merge is named as such, not as a puzzling JSON error.
pub(crate) fn conflict_marker(source: &str) -> Option<(usize, &'static str)> {
    source.lines().enumerate().find_map(|(index, line)| {
        ["<<<<<<<", "=======", ">>>>>>>"]
            .into_iter()
            .find(|marker| line.starts_with(marker))
            .map(|marker| (index + 1, marker))
    })
}

/// Reads and parses the rules file for reading ([`parse_tolerant`]); `None` when it does
/// not exist. The one way a command loads the rules it lists, exports or checks against.
pub(crate) fn load(path: &Path) -> Result<Option<Document>, RulesError> {
    read(path)?
        .map(|source| parse_tolerant(path, source))
        .transpose()
}

/// Parses for reading: any JSON array of objects is accepted.
pub(crate) fn parse_tolerant(path: &Path, source: String) -> Result<Document, RulesError> {
    file::parse(source).map_err(|(error, source)| shape_error(path, &source, error))
}

/// The error of a file that is not an array of objects, named as what it is.
fn shape_error(path: &Path, source: &str, error: ParseError) -> RulesError {
    match error {
        ParseError::Syntax { .. } if conflict_marker(source).is_some() => {
            let (line, marker) = conflict_marker(source).expect("checked");
            RulesError::ConflictMarker {
                path: path.to_path_buf(),
                line,
                marker,
            }
        }
        ParseError::Syntax {
            line,
            column,
            message,
        } => RulesError::InvalidJson {
            path: path.to_path_buf(),
            line,
            column,
            message,
        },
        ParseError::NotArray { found } => RulesError::NotArray {
            path: path.to_path_buf(),
            found,
        },
        ParseError::NotObject {
            index,
            offset,
            found,
        } => {
            let position = jsonpos::position(source, offset);
            RulesError::NotObject {
                path: path.to_path_buf(),
                line: position.line as usize,
                column: position.column as usize,
                position: index + 1,
                found,
            }
        }
    }
}

/// Parses for writing: additionally every rule needs a valid `Rule_number` and must be
/// readable field by field, or the writer would compute a wrong next number.
pub(crate) fn parse_strict(path: &Path, source: String) -> Result<Document, RulesError> {
    let document = parse_tolerant(path, source)?;
    for rule in document.rules() {
        let problem = if let Some(problem) = rule.malformed() {
            problem.to_string()
        } else {
            match rule.number() {
                Number::Valid(_) => continue,
                Number::Missing => "`Rule_number` is missing".to_string(),
                Number::Invalid(raw) => {
                    format!("`Rule_number` {raw} is not a positive integer below 2^63")
                }
            }
        };
        let position = jsonpos::position(&document.source, rule.offset);
        return Err(RulesError::BadRule {
            path: path.to_path_buf(),
            line: position.line as usize,
            column: position.column as usize,
            position: rule.index + 1,
            problem,
        });
    }
    Ok(document)
}

/// Whether a hand-written line says nothing the rule `rule` does not: the same words (see
/// [`crate::text::words_only`]), or the same words as the rule's directive, its text before the reason
/// (" - because …", "parce que …"). Only the rule's reason is set aside: a line's own
/// reason is something the rule would not hold.
pub(crate) fn holds_words_of(rule: &str, line: &str) -> bool {
    use crate::text::{directive, words_only};
    let line = words_only(line);
    line == words_only(rule) || line == words_only(directive(rule))
}

/// The key two instructions share exactly when [`same_instruction`] holds for them: trimmed
/// and lower-cased (ASCII lower-casing is the same as Unicode's on ASCII text). For maps
/// that find a repeated instruction in one look-up, not a scan.
pub(crate) fn instruction_key(text: &str) -> String {
    text.trim().to_lowercase()
}

/// Instructions compare equal ignoring case and surrounding whitespace.
pub(crate) fn same_instruction(a: &str, b: &str) -> bool {
    let (a, b) = (a.trim(), b.trim());
    if a.is_ascii() && b.is_ascii() {
        a.eq_ignore_ascii_case(b)
    } else {
        a.to_lowercase() == b.to_lowercase()
    }
}
