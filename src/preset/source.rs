//! Reading a preset's files: resolving a path declared inside the preset (it must stay in
//! the preset directory, symlinks included), reading a file as UTF-8 JSON, and typed access
//! to JSON members that turns every wrong or missing field into a diagnostic.

use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};

use serde_json::{Map, Value};

use crate::report::diagnostics::{Code, Diagnostic, Position};
use crate::report::jsonpos;
use crate::report::text::JsonKind;

/// A preset that could not be read at all (as opposed to one with problems, which loads
/// with diagnostics).
#[derive(Debug, thiserror::Error)]
pub(crate) enum LoadError {
    #[error("cannot read `{}`", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
}

/// Why a [`Resolved::Missing`] file is missing, when nothing at all is there.
const NOT_FOUND: &str = "does not exist";

/// Whether a member must be there: a missing required member is reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Presence {
    Required,
    Optional,
}

impl Presence {
    /// Required in a HagiTask package, optional in the flat form.
    pub(crate) fn in_hagitask(form: super::Form) -> Presence {
        match form {
            super::Form::HagiTask => Presence::Required,
            super::Form::Flat => Presence::Optional,
        }
    }
}

/// A parsed JSON file of a preset.
#[derive(Debug)]
pub(crate) struct Doc {
    /// The path shown to the user: the preset directory as given, joined with `rel`.
    pub path: PathBuf,
    /// The path relative to the preset directory, normalised (`frontend/commands.json`).
    pub rel: PathBuf,
    pub text: String,
    pub value: Value,
    /// Positions in `text`, indexed on first use: a report may locate every command.
    pub locator: jsonpos::Locator,
}

impl Doc {
    /// Where the value at `pointer` starts, if it exists.
    pub(crate) fn locate(&self, pointer: &str) -> Option<Position> {
        self.locator.locate(&self.text, pointer)
    }

    /// A diagnostic in this file at `pointer` (its line and column filled in).
    pub(crate) fn diagnostic(
        &self,
        code: Code,
        message: impl Into<String>,
        pointer: &str,
    ) -> Diagnostic {
        Diagnostic::new(code, message)
            .in_file(&self.path)
            .at(pointer, self.locate(pointer))
    }

    /// The top-level object, or an `invalid-field` diagnostic.
    pub(crate) fn root<'a>(
        &'a self,
        what: &str,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Option<Obj<'a>> {
        Obj::new(
            self,
            &self.value,
            String::new(),
            what.to_string(),
            diagnostics,
        )
    }
}

/// A file at the top of a preset, opened.
#[derive(Debug)]
pub(crate) enum Opened {
    Doc(Doc),
    /// There, but unusable (reported).
    Broken,
    Absent,
}

impl Opened {
    pub(crate) fn doc(self) -> Option<Doc> {
        match self {
            Opened::Doc(doc) => Some(doc),
            Opened::Broken | Opened::Absent => None,
        }
    }
}

/// The outcome of resolving a path declared inside a preset.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Resolved {
    /// The file exists inside the preset: its real path and its normalised relative path.
    Found { real: PathBuf, rel: PathBuf },
    /// Nothing usable is there (`why` says what was found instead).
    Missing { rel: PathBuf, why: &'static str },
    /// The path is absolute, climbs out with `..`, or a symlink leads outside.
    Escapes,
}

/// A preset directory: how it is shown, and where it really is.
#[derive(Debug, Clone)]
pub(crate) struct Dir {
    pub shown: PathBuf,
    pub real: PathBuf,
}

impl Dir {
    pub(crate) fn new(shown: &Path) -> io::Result<Dir> {
        Ok(Dir {
            // `a//b/./c` is shown as `a/b/c`.
            shown: shown.components().collect(),
            real: fs::canonicalize(shown)?,
        })
    }

    /// The displayed path of a file inside the preset.
    pub(crate) fn shown(&self, rel: &Path) -> PathBuf {
        if self.shown == Path::new(".") {
            rel.to_path_buf()
        } else {
            self.shown.join(rel)
        }
    }

    /// Resolves `declared`, relative to the directory `base` inside the preset
    /// (`""` for the preset itself). Never touches anything outside the preset.
    pub(crate) fn resolve(&self, base: &Path, declared: &str) -> Resolved {
        self.resolve_as(base, declared, false)
    }

    /// As [`Dir::resolve`], for a declared directory (`site.storePage`).
    pub(crate) fn resolve_dir(&self, base: &Path, declared: &str) -> Resolved {
        self.resolve_as(base, declared, true)
    }

    fn resolve_as(&self, base: &Path, declared: &str, directory: bool) -> Resolved {
        let Some(rel) = normalise(base, Path::new(declared)) else {
            return Resolved::Escapes;
        };
        let joined = self.real.join(&rel);
        if joined.symlink_metadata().is_err() {
            return Resolved::Missing {
                rel,
                why: NOT_FOUND,
            };
        }
        let Ok(real) = fs::canonicalize(&joined) else {
            return Resolved::Missing {
                rel,
                why: "is a dangling link",
            };
        };
        if !real.starts_with(&self.real) {
            return Resolved::Escapes;
        }
        if directory && !real.is_dir() {
            return Resolved::Missing {
                rel,
                why: "is not a directory",
            };
        }
        if !directory && !real.is_file() {
            return Resolved::Missing {
                rel,
                why: "is not a file",
            };
        }
        Resolved::Found { real, rel }
    }

    /// Reads and parses a resolved file. A file that is not UTF-8 or not JSON yields an
    /// `invalid-json` diagnostic and `None`; an unreadable file is an error.
    pub(crate) fn read_json(
        &self,
        real: &Path,
        rel: PathBuf,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Result<Option<Doc>, LoadError> {
        let path = self.shown(&rel);
        let bytes = crate::io::limits::read_file(real).map_err(|source| LoadError::Read {
            path: path.clone(),
            source,
        })?;
        let text = match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(error) => {
                let offset = error.utf8_error().valid_up_to();
                let text = String::from_utf8_lossy(error.as_bytes()).into_owned();
                diagnostics.push(
                    Diagnostic::new(Code::InvalidJson, "the file is not UTF-8 text")
                        .in_file(&path)
                        .at("", Some(jsonpos::position(&text, offset))),
                );
                return Ok(None);
            }
        };
        let body = text.strip_prefix('\u{feff}').unwrap_or(&text);
        match serde_json::from_str::<Value>(body) {
            Ok(value) => Ok(Some(Doc {
                path,
                rel,
                text,
                value,
                locator: jsonpos::Locator::default(),
            })),
            Err(error) => {
                let position = (error.line() > 0).then(|| {
                    let column = jsonpos::char_column(body, error.line(), error.column());
                    Position::new(error.line(), column)
                });
                diagnostics.push(
                    Diagnostic::new(
                        Code::InvalidJson,
                        format!(
                            "invalid JSON: {}",
                            jsonpos::message_without_position(&error.to_string())
                        ),
                    )
                    .in_file(&path)
                    .at("", position),
                );
                Ok(None)
            }
        }
    }

    /// Opens a file at the top of the preset that is there by convention rather than
    /// declared (`manifest.json`, the flat form's files). An absent file is reported only
    /// when `required` (with that help); a directory, a dangling link or a link out of
    /// the preset always is.
    pub(crate) fn open_top(
        &self,
        name: &str,
        required: Option<&str>,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Result<Opened, LoadError> {
        let shown = self.shown(Path::new(name));
        let diagnostic = match self.resolve(Path::new(""), name) {
            Resolved::Found { real, rel } => {
                return Ok(match self.read_json(&real, rel, diagnostics)? {
                    Some(doc) => Opened::Doc(doc),
                    None => Opened::Broken,
                });
            }
            Resolved::Missing { why, .. } if required.is_some() || why != NOT_FOUND => {
                Diagnostic::new(Code::MissingFile, format!("`{name}` {why}"))
                    .in_file(shown)
                    .with_help(
                        required
                            .unwrap_or("replace it with a JSON file, or remove it")
                            .to_string(),
                    )
            }
            Resolved::Missing { .. } => return Ok(Opened::Absent),
            Resolved::Escapes => Diagnostic::new(
                Code::PathEscapesPreset,
                format!("`{name}` is a link to a file outside the preset directory"),
            )
            .in_file(shown)
            .with_help("copy the file into the preset instead of linking to it"),
        };
        diagnostics.push(diagnostic);
        Ok(Opened::Broken)
    }

    /// Opens the file a document member declares (`ui.commands` → `./frontend/commands.json`),
    /// reporting `path-escapes-preset` or `missing-file` at that member.
    pub(crate) fn open_declared(
        &self,
        from: &Doc,
        pointer: &str,
        base: &Path,
        declared: &str,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Result<Option<Doc>, LoadError> {
        let member = pointer_to_dotted(pointer);
        match self.resolve(base, declared) {
            Resolved::Found { real, rel } => self.read_json(&real, rel, diagnostics),
            resolved => {
                diagnostics.extend(declared_problem(from, pointer, &member, declared, resolved));
                Ok(None)
            }
        }
    }

    /// Checks that a file a document member declares exists inside the preset, without
    /// reading it (prompt templates).
    pub(crate) fn check_declared(
        &self,
        from: &Doc,
        pointer: &str,
        base: &Path,
        declared: &str,
        diagnostics: &mut Vec<Diagnostic>,
    ) {
        let resolved = self.resolve(base, declared);
        self.report_declared(from, pointer, declared, resolved, diagnostics);
    }

    /// Reports a declared path that did not resolve to what it must be (nothing when it
    /// is [`Resolved::Found`]).
    pub(crate) fn report_declared(
        &self,
        from: &Doc,
        pointer: &str,
        declared: &str,
        resolved: Resolved,
        diagnostics: &mut Vec<Diagnostic>,
    ) {
        let member = pointer_to_dotted(pointer);
        diagnostics.extend(declared_problem(from, pointer, &member, declared, resolved));
    }
}

fn declared_problem(
    from: &Doc,
    pointer: &str,
    member: &str,
    declared: &str,
    resolved: Resolved,
) -> Option<Diagnostic> {
    let diagnostic = match resolved {
        Resolved::Escapes => from
            .diagnostic(
                Code::PathEscapesPreset,
                format!("`{member}` names `{declared}`, which is outside the preset directory"),
                pointer,
            )
            .with_help("use a relative path inside the preset, such as `./frontend/commands.json`"),
        Resolved::Missing { rel, why } => from
            .diagnostic(
                Code::MissingFile,
                format!("`{member}` names `{declared}`, which {why}"),
                pointer,
            )
            .with_help(format!(
                "create `{}` in the preset, or correct `{member}`",
                rel.display()
            )),
        Resolved::Found { .. } => return None,
    };
    Some(diagnostic)
}

/// `/ui/commands` → `ui.commands` (how validators and people name a member).
fn pointer_to_dotted(pointer: &str) -> String {
    pointer
        .trim_start_matches('/')
        .split('/')
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .collect::<Vec<_>>()
        .join(".")
}

/// `base` joined with `path`, with `.` and `..` applied lexically; `None` when the result
/// would leave the preset (an absolute path, or `..` above its top).
fn normalise(base: &Path, path: &Path) -> Option<PathBuf> {
    let mut parts: Vec<&std::ffi::OsStr> = Vec::new();
    for component in base.components().chain(path.components()) {
        match component {
            Component::CurDir => {}
            Component::Normal(part) => parts.push(part),
            Component::ParentDir => {
                parts.pop()?;
            }
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    // A Windows drive path (`C:\x`) is absolute on Windows only; refuse it everywhere.
    let text = path.to_string_lossy();
    if text.starts_with('\\') || text.as_bytes().get(1) == Some(&b':') {
        return None;
    }
    Some(parts.iter().collect())
}

/// Appends an RFC 6901 token to a pointer.
pub(crate) fn child(pointer: &str, token: &str) -> String {
    let mut out = String::with_capacity(pointer.len() + 1 + token.len());
    out.push_str(pointer);
    out.push('/');
    // Most tokens need no escape: pushed as they are, without two passes of `replace`.
    if token.contains(['~', '/']) {
        out.push_str(&token.replace('~', "~0").replace('/', "~1"));
    } else {
        out.push_str(token);
    }
    out
}

/// A JSON object inside a document, with typed member access. Every access that finds a
/// missing required member or a wrong type pushes an `invalid-field` diagnostic.
#[derive(Clone)]
pub(crate) struct Obj<'a> {
    pub doc: &'a Doc,
    pub map: &'a Map<String, Value>,
    pub pointer: String,
    /// How the object is named in messages ("the manifest", "command `review`").
    pub what: String,
}

impl<'a> Obj<'a> {
    /// `value` as an object, or an `invalid-field` diagnostic.
    pub(crate) fn new(
        doc: &'a Doc,
        value: &'a Value,
        pointer: String,
        what: String,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Option<Obj<'a>> {
        match value {
            Value::Object(map) => Some(Obj {
                doc,
                map,
                pointer,
                what,
            }),
            other => {
                diagnostics.push(doc.diagnostic(
                    Code::InvalidField,
                    format!(
                        "{what} must be an object, found {}",
                        JsonKind::of(other).name()
                    ),
                    &pointer,
                ));
                None
            }
        }
    }

    pub(crate) fn pointer_of(&self, key: &str) -> String {
        child(&self.pointer, key)
    }

    pub(crate) fn get(&self, key: &str) -> Option<&'a Value> {
        self.map.get(key)
    }

    fn missing(&self, key: &str, diagnostics: &mut Vec<Diagnostic>) {
        diagnostics.push(self.doc.diagnostic(
            Code::InvalidField,
            format!("{} has no `{key}`", self.what),
            &self.pointer,
        ));
    }

    fn wrong(&self, key: &str, expected: &str, found: &Value, diagnostics: &mut Vec<Diagnostic>) {
        diagnostics.push(self.doc.diagnostic(
            Code::InvalidField,
            format!(
                "`{key}` of {} must be {expected}, found {}",
                self.what,
                JsonKind::of(found).name()
            ),
            &self.pointer_of(key),
        ));
    }

    /// A string member. `None` when absent (reported if `required`) or mistyped (reported).
    pub(crate) fn string(
        &self,
        key: &str,
        presence: Presence,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Option<&'a str> {
        match self.get(key) {
            None if presence == Presence::Required => {
                self.missing(key, diagnostics);
                None
            }
            None => None,
            Some(Value::String(text)) => Some(text),
            Some(other) => {
                self.wrong(key, "a string", other, diagnostics);
                None
            }
        }
    }

    /// A non-empty string member (after trimming); an empty one is reported.
    pub(crate) fn name(
        &self,
        key: &str,
        presence: Presence,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Option<&'a str> {
        let text = self.string(key, presence, diagnostics)?;
        let trimmed = text.trim();
        if trimmed.is_empty() {
            diagnostics.push(self.doc.diagnostic(
                Code::InvalidField,
                format!("`{key}` of {} is empty", self.what),
                &self.pointer_of(key),
            ));
            return None;
        }
        Some(trimmed)
    }

    /// An array member, with its pointer.
    pub(crate) fn array(
        &self,
        key: &str,
        presence: Presence,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Option<&'a [Value]> {
        match self.get(key) {
            None if presence == Presence::Required => {
                self.missing(key, diagnostics);
                None
            }
            None => None,
            Some(Value::Array(items)) => Some(items),
            Some(other) => {
                self.wrong(key, "an array", other, diagnostics);
                None
            }
        }
    }

    /// An object member.
    pub(crate) fn object(
        &self,
        key: &str,
        what: &str,
        presence: Presence,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Option<Obj<'a>> {
        match self.get(key) {
            None if presence == Presence::Required => {
                self.missing(key, diagnostics);
                None
            }
            None => None,
            Some(value @ Value::Object(_)) => Obj::new(
                self.doc,
                value,
                self.pointer_of(key),
                what.to_string(),
                diagnostics,
            ),
            Some(other) => {
                self.wrong(key, "an object", other, diagnostics);
                None
            }
        }
    }

    /// An array of strings member; a non-string element is reported and skipped.
    pub(crate) fn strings(
        &self,
        key: &str,
        presence: Presence,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Option<Vec<&'a str>> {
        let items = self.array(key, presence, diagnostics)?;
        let pointer = self.pointer_of(key);
        let mut out = Vec::new();
        for (index, item) in items.iter().enumerate() {
            match item {
                Value::String(text) => out.push(text.as_str()),
                other => diagnostics.push(self.doc.diagnostic(
                    Code::InvalidField,
                    format!(
                        "`{key}` of {} must hold strings, found {}",
                        self.what,
                        JsonKind::of(other).name()
                    ),
                    &child(&pointer, &index.to_string()),
                )),
            }
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalise_keeps_paths_inside() {
        let n = |base: &str, p: &str| normalise(Path::new(base), Path::new(p));
        assert_eq!(
            n("", "./frontend/commands.json"),
            Some(PathBuf::from("frontend/commands.json"))
        );
        assert_eq!(
            n("backend", "./templates/en/system.md"),
            Some(PathBuf::from("backend/templates/en/system.md"))
        );
        assert_eq!(n("", "a/../b.json"), Some(PathBuf::from("b.json")));
        assert_eq!(n("backend", "../x.json"), Some(PathBuf::from("x.json")));
        assert_eq!(n("", "../x.json"), None);
        assert_eq!(n("backend", "../../x.json"), None);
        assert_eq!(n("", "/etc/passwd"), None);
        assert_eq!(n("", "C:\\x.json"), None);
    }

    #[test]
    fn pointers_escape_tokens() {
        assert_eq!(child("/a", "b/c~d"), "/a/b~1c~0d");
        assert_eq!(pointer_to_dotted("/ui/commands"), "ui.commands");
    }
}
