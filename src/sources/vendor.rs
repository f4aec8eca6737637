//! The vendored copies, `sources/<name>.json` beside the rules file: each source's rules
//! file exactly as fetched, so clones, CI and offline runs need no network. Read into
//! imported rules (number, text, lock, supersession inside the source), with the caps a
//! fetched file is held to, and compared rule by rule for `sources update`.

use std::path::Path;

use crate::rules::file::{Paths, Rule};
use crate::rules::{self, scope, supersede};

use super::SourceError;
use super::fetch::{MAX_RULES, MAX_TEXT_BYTES};

/// One rule of a source, as imported.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Imported {
    pub number: u64,
    pub category: String,
    pub instruction: String,
    pub why: String,
    pub paths: Vec<String>,
    /// `"Locked": true`: a local rule may supersede it only with a manifest override.
    pub locked: bool,
    /// The source's own rules that supersede it (empty: active in the source).
    pub superseded_by: Vec<u64>,
    /// Whether the source gives it a `Check`, which no repository runs for an imported
    /// rule: `sources add` and `update` refuse such a version ([`refuse_checks`]).
    pub checked: bool,
}

/// Reads a source's rules file: valid UTF-8, strictly an autofix rules file, within the
/// caps, with no hidden character in a text an agent would read.
pub(crate) fn parse(name: &str, bytes: &[u8]) -> Result<Vec<Imported>, SourceError> {
    let invalid = |why: String| SourceError::Invalid(format!("source `{name}`: {why}"));
    let text =
        std::str::from_utf8(bytes).map_err(|_| invalid("the rules file is not UTF-8".into()))?;
    let document = rules::parse_strict(Path::new(name), text.to_string())
        .map_err(|error| invalid(format!("not an autofix rules file: {error}")))?;
    if document.len() > MAX_RULES {
        return Err(SourceError::TooLarge {
            name: name.to_string(),
            what: format!("{} rules", document.len()),
            cap: MAX_RULES as u64,
        });
    }
    let resolution = supersede::resolve(&document);
    let mut imported = Vec::with_capacity(document.len());
    let mut seen = std::collections::HashSet::with_capacity(document.len());
    for ((rule, superseded_by), retirement) in document
        .rules()
        .zip(resolution.superseded_by)
        .zip(resolution.retirement)
    {
        let number = rule.number().value().unwrap_or_default();
        if !seen.insert(number) {
            // `org:3` must name one rule, or a reference and a supersede mean two things.
            return Err(invalid(format!("rule number {number} is used twice")));
        }
        if retirement {
            // A retirement record is no rule to follow: its supersede took effect above.
            continue;
        }
        let instruction = rule.instruction().display().trim().to_string();
        let why = rule.why().display().trim().to_string();
        for text in [&instruction, &why] {
            if text.len() > MAX_TEXT_BYTES {
                return Err(SourceError::TooLarge {
                    name: name.to_string(),
                    what: format!("rule {number}'s text ({} bytes)", text.len()),
                    cap: MAX_TEXT_BYTES as u64,
                });
            }
            if holds_refused(text) {
                return Err(invalid(format!(
                    "rule {number} holds a control, bidirectional or invisible character"
                )));
            }
            if let Some(kind) = crate::rules::secrets::find(text) {
                return Err(invalid(format!(
                    "rule {number} holds {kind}, which would be exported into every agent's file [secret-in-rule]"
                )));
            }
        }
        let paths = imported_paths(&rule, number).map_err(invalid)?;
        let locked = locked(&rule, number).map_err(invalid)?;
        imported.push(Imported {
            number,
            category: crate::rules::category::normalize(rule.category().display()),
            instruction,
            why,
            paths,
            locked,
            superseded_by,
            checked: !matches!(rule.check(), crate::rules::file::CheckField::Missing),
        });
    }
    imported.sort_by_key(|rule| rule.number);
    Ok(imported)
}

/// A rule's globs, held to what `learn` accepts of a local rule: an array of valid globs
/// (at least one including), none with a hidden character. They reach the scoped files'
/// frontmatter and the hook, so a source cannot put there what a local rule may not, and
/// `Paths` that cannot be read never turn a scoped rule into one for every file.
fn imported_paths(rule: &Rule<'_>, number: u64) -> Result<Vec<String>, String> {
    let globs: Vec<String> = match rule.paths() {
        Paths::Missing => return Ok(Vec::new()),
        Paths::Invalid(_) => {
            return Err(format!(
                "rule {number}'s `Paths` is not an array of glob strings"
            ));
        }
        Paths::Globs(globs) => globs.iter().map(ToString::to_string).collect(),
    };
    if globs.iter().any(|glob| holds_refused(glob)) {
        return Err(format!(
            "rule {number}'s `Paths` holds a control, bidirectional or invisible character"
        ));
    }
    scope::parse_scope(&globs).map_err(|error| format!("rule {number}'s `Paths`: {error}"))?;
    Ok(globs)
}

/// The one gate for imported text, the same as `learn`'s for a new rule: whether `text`
/// holds a control, bidirectional or tag character (shown escaped), or an invisible one
/// (Unicode's category Cf, [`crate::report::text::first_invisible`]); printable ASCII, the
/// usual text, is passed at a byte's cost.
fn holds_refused(text: &str) -> bool {
    !text.bytes().all(|b| (0x20..0x7f).contains(&b))
        && (text.chars().any(crate::report::text::is_hidden)
            || crate::report::text::first_invisible(text).is_some())
}

/// A rule's `Locked`: absent is unlocked, `true` or `false` as written; anything else
/// (`"yes"`, `1`) is refused, never read as unlocked.
fn locked(rule: &Rule<'_>, number: u64) -> Result<bool, String> {
    if memchr::memmem::find(rule.raw.as_bytes(), b"\"Locked\"").is_none() {
        return Ok(false);
    }
    let value: serde_json::Value = serde_json::from_str(rule.raw).unwrap_or_default();
    match value.get("Locked") {
        None => Ok(false),
        Some(serde_json::Value::Bool(locked)) => Ok(*locked),
        Some(other) => Err(format!(
            "rule {number}'s `Locked` is {other}, not true or false"
        )),
    }
}

/// How a change line names a rule's scope: its globs, or every file.
fn scope_of(paths: &[String]) -> String {
    if paths.is_empty() {
        "every file".to_string()
    } else {
        let globs: Vec<String> = paths.iter().map(|g| format!("`{g}`")).collect();
        globs.join(", ")
    }
}

/// Refuses a version of source `name` whose rules give a `Check`: a check runs in every
/// repository that imports it (the after-edit hook, the pre-commit hook, CI), so a source
/// does not get to add one; accepted and ignored, a team would believe it enforced.
pub(crate) fn refuse_checks(name: &str, rules: &[Imported]) -> Result<(), SourceError> {
    let checked: Vec<String> = (rules.iter())
        .filter(|rule| rule.checked)
        .map(|rule| format!("{name}:{}", rule.number))
        .collect();
    if checked.is_empty() {
        return Ok(());
    }
    Err(SourceError::Invalid(format!(
        "source `{name}`: {} a `Check`, and autofix runs no check of an imported rule; \
         drop it from the source, or learn the rule here with `--check` (a local rule \
         that supersedes it)",
        match checked.as_slice() {
            [one] => format!("rule {one} has"),
            many => format!("rules {} have", many.join(", ")),
        }
    )))
}

/// The rule-level difference between two versions of a source, one line a change:
/// `+` a new rule, `-` a rule gone, `~` a rule whose text, scope (`Paths`) or reason
/// changed, `=` a rule the new version supersedes, `!` a rule newly locked or unlocked.
pub(crate) fn diff(name: &str, old: &[Imported], new: &[Imported]) -> Vec<String> {
    let find = |rules: &[Imported], number: u64| rules.iter().find(|r| r.number == number).cloned();
    let mut lines = Vec::new();
    for rule in new {
        let id = format!("{name}:{}", rule.number);
        match find(old, rule.number) {
            None => lines.push(format!("+ {id} [{}] {}", rule.category, rule.instruction)),
            Some(before) => {
                if before.instruction != rule.instruction || before.category != rule.category {
                    lines.push(format!(
                        "~ {id} [{}] {} (was [{}] {})",
                        rule.category, rule.instruction, before.category, before.instruction
                    ));
                }
                if before.paths != rule.paths {
                    lines.push(format!(
                        "~ {id} scope now {} (was {})",
                        scope_of(&rule.paths),
                        scope_of(&before.paths)
                    ));
                }
                if before.why != rule.why {
                    lines.push(format!(
                        "~ {id} why now \"{}\" (was \"{}\")",
                        rule.why, before.why
                    ));
                }
                if before.superseded_by.is_empty() && !rule.superseded_by.is_empty() {
                    let by: Vec<String> = rule
                        .superseded_by
                        .iter()
                        .map(|n| format!("{name}:{n}"))
                        .collect();
                    lines.push(format!("= {id} now superseded by {}", by.join(", ")));
                }
                if before.locked != rule.locked {
                    let now = if rule.locked { "locked" } else { "unlocked" };
                    lines.push(format!("! {id} is now {now}"));
                }
            }
        }
    }
    for rule in old {
        if find(new, rule.number).is_none() {
            lines.push(format!(
                "- {name}:{} [{}] {}",
                rule.number, rule.category, rule.instruction
            ));
        }
    }
    lines
}
