//! `autofix ledger`: whether the rules hold. The corrections the user typed in this
//! repository's agent sessions (read by `reflect`'s readers and classifier) are matched
//! against the rules with the matcher `learn` uses for duplicates; a correction typed after
//! the commit that added a rule stating it, while that rule was in force, is a repeat: the
//! rule did not hold. Reported per rule, and as the repository's repeat rate. Local only.

use std::fmt::Write as _;

use serde::Serialize;

use crate::capture::reflect;
use crate::rules::file::Document;
use crate::rules::provenance::{History, Origin};
use crate::rules::similar::{self, Kind};
use crate::rules::{same_instruction, supersede};
use crate::text::{counted, shown};

/// One correction typed again after its rule was learned.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Repeat {
    pub time: String,
    pub agent: crate::hook::Agent,
    pub session: String,
    pub text: String,
}

/// One rule's record: when it was learned, and the corrections it did not prevent.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct RuleRecord<'a> {
    pub number: u64,
    pub category: &'a str,
    pub instruction: &'a str,
    pub active: bool,
    pub provenance: Origin<'a>,
    /// Until when it was in force: the date of the commit that superseded or retired it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub until: Option<&'a str>,
    pub repeats: Vec<Repeat>,
}

/// The repository's figure over the period read.
#[derive(Clone, Debug, Default, Serialize)]
pub(crate) struct Figure {
    /// The oldest and newest correction read (UTC, as the transcripts have them).
    pub from: Option<String>,
    pub to: Option<String>,
    pub corrections: usize,
    pub repeats: usize,
    /// repeats / corrections, 0 when there are none.
    pub repeat_rate: f64,
    /// Rules with a commit date (only those can be repeated).
    pub committed_rules: usize,
    /// Rules with at least one repeat.
    pub rules_repeated: usize,
}

/// The `ledger --format json` document.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Report<'a> {
    pub version: u32,
    pub path: String,
    pub since: Option<String>,
    pub searched: Vec<reflect::Place>,
    /// Whether the rules file's git history could be read (no history: no dates, no
    /// repeats).
    pub history: bool,
    pub figure: Figure,
    /// Every committed rule, those repeated most first.
    pub rules: Vec<RuleRecord<'a>>,
}

/// The first 19 characters of an ISO 8601 UTC time (`2026-11-12T09:00:00`), so a commit's
/// date and a transcript's time (`…00.000Z`) compare as text.
fn instant(time: &str) -> &str {
    time.get(..19).unwrap_or(time)
}

/// Builds the ledger of `document` from the corrections of `reflected` (read with no
/// learned rules, so every correction is there) and the file's `history`.
pub(crate) fn build<'a>(
    path: String,
    since: Option<String>,
    document: Option<&'a Document<'a>>,
    history: &'a History,
    reflected: reflect::Report,
) -> Report<'a> {
    let rules_of: &'a [crate::rules::file::Rule<'a>] = document.map_or(&[], |d| &d.rules);
    let resolution = document.map(supersede::resolve).unwrap_or_default();
    let date_of = |number: u64, instruction: &str| match history.origin(Some(number), instruction) {
        Origin::Commit(commit) => Some(commit.date.as_str()),
        _ => None,
    };
    let by_number: std::collections::HashMap<u64, &crate::rules::file::Rule<'a>> = rules_of
        .iter()
        .filter_map(|rule| Some((rule.number.value()?, rule)))
        .collect();
    let mut records: Vec<RuleRecord<'a>> = Vec::new();
    for rule in rules_of {
        let (Some(number), Some(instruction)) = (rule.number.value(), rule.instruction.as_str())
        else {
            continue;
        };
        if resolution.is_retirement(rule.index) {
            continue;
        }
        let provenance = history.origin(Some(number), instruction.trim());
        if !matches!(provenance, Origin::Commit(_)) {
            continue;
        }
        // In force until the oldest commit that superseded it.
        let until = resolution.superseded_by[rule.index]
            .iter()
            .filter_map(|&by| {
                let newer = by_number.get(&by)?;
                date_of(by, newer.instruction.display().trim())
            })
            .min();
        records.push(RuleRecord {
            number,
            category: rule.category.display().trim(),
            instruction: instruction.trim(),
            active: resolution.is_active(rule.index),
            provenance,
            until,
            repeats: Vec::new(),
        });
    }
    let mut figure = Figure {
        committed_rules: records.len(),
        ..Figure::default()
    };
    for correction in reflected.candidates {
        figure.corrections += 1;
        let time = correction.time.as_str();
        if figure.from.as_deref().is_none_or(|from| time < from) {
            figure.from = Some(correction.time.clone());
        }
        if figure.to.as_deref().is_none_or(|to| time > to) {
            figure.to = Some(correction.time.clone());
        }
        if let Some(at) = held(&records, &correction.text, time) {
            figure.repeats += 1;
            records[at].repeats.push(Repeat {
                time: correction.time,
                agent: correction.agent,
                session: correction.session,
                text: correction.text,
            });
        }
    }
    if figure.corrections > 0 {
        let rate = figure.repeats as f64 / figure.corrections as f64;
        figure.repeat_rate = (rate * 1000.0).round() / 1000.0;
    }
    figure.rules_repeated = records.iter().filter(|r| !r.repeats.is_empty()).count();
    for record in &mut records {
        record.repeats.sort_by(|a, b| a.time.cmp(&b.time));
    }
    records.sort_by(|a, b| {
        b.repeats
            .len()
            .cmp(&a.repeats.len())
            .then(a.number.cmp(&b.number))
    });
    Report {
        version: 1,
        path,
        since,
        searched: reflected.searched,
        history: history.available,
        figure,
        rules: records,
    }
}

/// The record (by position) of the rule that already stated `text` when it was typed at
/// `time`: the same instruction, or the same statement in other words (`learn`'s duplicate
/// matcher), learned before `time` and not yet superseded.
fn held(records: &[RuleRecord<'_>], text: &str, time: &str) -> Option<usize> {
    let in_force = |record: &RuleRecord<'_>| {
        let Origin::Commit(commit) = record.provenance else {
            return false;
        };
        instant(&commit.date) < instant(time)
            && record
                .until
                .is_none_or(|until| instant(time) < instant(until))
    };
    if let Some(at) = records
        .iter()
        .position(|r| in_force(r) && same_instruction(r.instruction, text))
    {
        return Some(at);
    }
    // A prompt says more than its rule ("No, use pnpm to install packages, not npm."):
    // the whole prompt, then each of its clauses, is matched; the closest duplicate wins.
    let mut best: Option<(f64, u64)> = None;
    for piece in clauses(text) {
        let candidates = records
            .iter()
            .filter(|r| in_force(r))
            .map(|r| (r.number, r.instruction));
        let found = similar::matches(piece, candidates)
            .into_iter()
            .find(|found| found.kind == Kind::Duplicate);
        if let Some(found) = found
            && best.is_none_or(|(score, _)| found.score > score)
        {
            best = Some((found.score, found.rule));
        }
    }
    let (_, rule) = best?;
    records.iter().position(|r| r.number == rule)
}

/// The prompt whole, then its clauses: the pieces between sentence punctuation and commas
/// (a `.` ends a sentence only before a space or the end: `.env` is a word).
fn clauses(text: &str) -> Vec<&str> {
    let whole = text.trim();
    let mut pieces = vec![whole];
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let next_is_space = chars.peek().is_none_or(|(_, n)| n.is_whitespace());
        let ends = matches!(c, '!' | '?' | ';' | ':' | ',' | '\n') || (c == '.' && next_is_space);
        if ends {
            pieces.push(text[start..at].trim());
            start = at + c.len_utf8();
        }
    }
    pieces.push(text[start..].trim());
    let mut seen = std::collections::HashSet::new();
    pieces.retain(|piece| !piece.is_empty() && seen.insert(*piece));
    pieces
}

impl Report<'_> {
    pub(crate) fn to_text(&self) -> String {
        let mut out = format!("Ledger of {}", self.path);
        let figure = &self.figure;
        match (&figure.from, &figure.to) {
            (Some(from), Some(to)) => {
                let _ = write!(out, ": corrections from {} to {}", shown(from), shown(to));
            }
            _ => out.push_str(": no corrections found"),
        }
        if let Some(since) = &self.since {
            let _ = write!(out, " (since {})", shown(since));
        }
        out.push('\n');
        for place in &self.searched {
            let found = if place.exists {
                counted(place.sessions, "session")
            } else {
                "not found".to_string()
            };
            let _ = writeln!(
                out,
                "  {:<7} {} ({found})",
                place.agent.as_str(),
                place.path
            );
        }
        if !self.history {
            out.push_str(
                "The rules file has no git history here: no rule has a date, so none can be repeated.\n",
            );
        }
        let percent = figure.repeat_rate * 100.0;
        let _ = writeln!(
            out,
            "\nCorrections captured: {}\nRepeats of a rule already learned: {} ({percent:.1}%)\nRules that did not hold: {} of {} committed",
            figure.corrections, figure.repeats, figure.rules_repeated, figure.committed_rules
        );
        for record in self.rules.iter().filter(|r| !r.repeats.is_empty()) {
            let _ = writeln!(
                out,
                "\n{} [{}] {}\n  learned {}",
                record.number,
                shown(record.category),
                shown(record.instruction),
                record.provenance.describe()
            );
            if let Some(until) = record.until {
                let _ = writeln!(out, "  in force until {until} (then superseded or retired)");
            }
            let _ = writeln!(
                out,
                "  repeated {} since:",
                counted(record.repeats.len(), "time")
            );
            for repeat in &record.repeats {
                let first = repeat.text.lines().next().unwrap_or_default();
                let _ = writeln!(
                    out,
                    "    {}  {}  session {}  > {}",
                    shown(&repeat.time),
                    repeat.agent.as_str(),
                    shown(&repeat.session),
                    shown(first)
                );
            }
        }
        out
    }

    pub(crate) fn to_json(&self) -> String {
        crate::text::json_document(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prompt_is_matched_whole_and_clause_by_clause() {
        assert_eq!(
            clauses("No, use pnpm to install packages, not npm."),
            [
                "No, use pnpm to install packages, not npm.",
                "No",
                "use pnpm to install packages",
                "not npm"
            ]
        );
        // A dot inside a word (`.env`, `v1.2`) ends no sentence.
        assert_eq!(
            clauses("I told you: never commit the .env file. Again!"),
            [
                "I told you: never commit the .env file. Again!",
                "I told you",
                "never commit the .env file",
                "Again"
            ]
        );
        assert_eq!(instant("2026-11-12T09:00:00.000Z"), "2026-11-12T09:00:00");
        assert_eq!(instant("2026-11-12T09:00:00Z"), "2026-11-12T09:00:00");
    }
}
