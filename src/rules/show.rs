//! `rules N`: one rule whole — its text, scope and state, the commit that added it, the
//! rules it superseded and those that supersede (or retire) it, each with its origin.

use serde::Serialize;

use super::file::{Document, Rule};
use super::provenance::{History, Origin};
use super::supersede::{self, Resolution};
use crate::io::workspace::Workspace;
use crate::report::text::shown;

/// A rule as `rules N` shows it, and as it names its relatives.
#[derive(Serialize)]
pub(crate) struct Shown<'a> {
    pub number: Option<u64>,
    pub category: &'a str,
    pub instruction: &'a str,
    pub why: &'a str,
    pub active: bool,
    /// A retirement record: it retires the rules it supersedes and is no rule itself.
    pub retirement: bool,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub paths: Vec<&'a str>,
    pub provenance: Origin<'a>,
}

/// The `rules N --format json` document.
#[derive(Serialize)]
pub(crate) struct Report<'a> {
    pub version: u32,
    pub path: &'a str,
    pub rule: Shown<'a>,
    /// The older rules this one supersedes (for a retirement record: retires).
    pub supersedes: Vec<Shown<'a>>,
    /// The newer rules that supersede it, retirement records included.
    pub superseded_by: Vec<Shown<'a>>,
}

fn shown_rule<'a>(rule: &Rule<'a>, resolution: &Resolution, history: &'a History) -> Shown<'a> {
    let instruction = rule.instruction().display().trim();
    Shown {
        number: rule.number().value(),
        category: rule.category().display().trim(),
        instruction,
        why: rule.why().display().trim(),
        active: resolution.is_active(rule.index),
        retirement: resolution.is_retirement(rule.index),
        paths: rule.paths().globs().iter().map(AsRef::as_ref).collect(),
        provenance: history.origin(rule.number().value(), instruction),
    }
}

/// Rule `number` of `document` (the rules file of `workspace`, named by its display
/// path), whole; `None` when no rule has that number.
pub(crate) fn report<'a>(
    workspace: &'a Workspace,
    document: &'a Document,
    history: &'a History,
    number: u64,
) -> Option<Report<'a>> {
    let resolution = supersede::resolve(document);
    let rule = document
        .rules()
        .find(|rule| rule.number().value() == Some(number))?;
    let by_number = |n: u64| {
        document
            .rules()
            .filter(move |rule| rule.number().value() == Some(n))
    };
    let older: Vec<u64> = supersede::references(&rule)
        .into_iter()
        .filter(|&n| n < number)
        .collect();
    Some(Report {
        version: 1,
        path: &workspace.shown,
        rule: shown_rule(&rule, &resolution, history),
        supersedes: older
            .iter()
            .flat_map(|&n| by_number(n))
            .map(|r| shown_rule(&r, &resolution, history))
            .collect(),
        superseded_by: resolution.superseded_by[rule.index]
            .iter()
            .flat_map(|&n| by_number(n))
            .map(|r| shown_rule(&r, &resolution, history))
            .collect(),
    })
}

/// `12 [CODE] Instruction`.
pub(crate) fn line(rule: &Shown<'_>) -> String {
    let number = rule.number.map_or("?".to_string(), |n| n.to_string());
    format!(
        "{number} [{}] {}",
        shown(rule.category),
        shown(rule.instruction)
    )
}

impl Report<'_> {}
