//! `autofix ledger`: whether the rules hold. The corrections the user typed in this
//! repository's agent sessions (read by `reflect`'s readers and classifier) are matched
//! against the rules as `reflect` finds repeats ([`crate::capture::repeats`], the matcher
//! `learn` uses for duplicates); a correction typed after
//! the commit that added a rule stating it, while that rule was in force, is a repeat: the
//! rule did not hold. Reported per rule, and as the repository's repeat rate. The rules
//! imported from git sources (`org:12`) count as the local ones, in force from the commit
//! of this repository that brought them into the vendored copy. Local only: the personal
//! layer is no rule of the ledger. Beside the repeats, the breaks the rules' checks caught
//! before the user saw them ([`super::receipts`]), per rule, and the share of the rule
//! breaks caught first: catches / (catches + repeats). Over time, per day or per week
//! ([`Timeline`]), for the page `--html` writes (the renderer's `ledger_page`).

use std::collections::HashMap;

use serde::Serialize;

use crate::capture::prompt::CHECK_AFTER;
use crate::capture::reflect;
use crate::capture::repeats::{self, ActiveRule};
use crate::io::workspace::Workspace;
use crate::ops::notes;
use crate::ops::receipts::Receipt;
use crate::ops::reflect::Sessions;
use crate::rules::file::Document;
use crate::rules::provenance::{History, Origin};
use crate::rules::similar::Kind;
use crate::rules::supersede;
use crate::rules::{self, RulesError};
use crate::sources::layers::Layers;

/// One correction typed again after its rule was learned.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Repeat {
    pub time: String,
    pub agent: String,
    pub session: String,
    pub text: String,
    /// Who judged it a repeat: `agent` (its verdict on a note of the prompt hook) or
    /// `tool` (the rule said word for word, read from the sessions: the tool's estimate).
    pub by: &'static str,
    /// The note the agent answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A rule changed through a note: the agent learned the rule that supersedes it.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Change {
    pub time: String,
    pub note: String,
    /// The rule learned in its place.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub learned: Option<u64>,
}

/// One rule's record: when it was learned, and the corrections it did not prevent.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct RuleRecord<'a> {
    /// The source an imported rule comes from (`org` for `org:12`); absent for a local rule.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<&'a str>,
    pub number: u64,
    pub category: &'a str,
    pub instruction: &'a str,
    pub active: bool,
    pub provenance: Origin<'a>,
    /// Until when it was in force: the date of the commit that superseded or retired it
    /// (for an imported rule, that brought its superseder here, or learned the local rule
    /// that supersedes it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub until: Option<&'a str>,
    pub repeats: Vec<Repeat>,
    /// The breaks of it a check caught before the user saw them.
    pub catches: Vec<Catch>,
    /// The changes the agent learned for it, answering a note.
    pub changes: Vec<Change>,
    /// Whether it has a check (`enforce` and the after-edit hook run it).
    pub checked: bool,
    /// Restated at least twice with no check: give it one, if a pattern can catch a
    /// break of it (`learn --supersedes N --check …`).
    pub needs_check: bool,
    /// Restated although it has a check: the check misses what the user keeps seeing.
    pub check_misses: bool,
}

/// One break of a rule a check caught (a receipt).
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Catch {
    pub time: String,
    pub via: &'static str,
    pub file: String,
    pub line: usize,
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
    /// Breaks a check caught before the user saw them (receipts of a rule of the ledger).
    pub catches: usize,
    /// Rules with at least one catch.
    pub rules_caught: usize,
    /// catches / (catches + repeats); `None` when neither happened.
    pub caught_first: Option<f64>,
    /// Of the repeats, those the agent judged (answering a note) and those the tool
    /// found word for word in the sessions (its estimate, the only kind before notes).
    pub repeats_by_agent: usize,
    pub repeats_by_tool: usize,
    /// The prompt hook's notes and the agent's answers.
    pub notes: NoteFigure,
}

/// The notes the prompt hook gave over the period, and how the agent answered them.
#[derive(Clone, Debug, Default, Serialize)]
pub(crate) struct NoteFigure {
    pub given: usize,
    pub answered: usize,
    pub unanswered: usize,
    /// answered / given; `None` when no note was given.
    pub answered_share: Option<f64>,
    /// The user restated a rule.
    pub restated: usize,
    /// The user changed a rule (a superseding rule learned).
    pub changed: usize,
    /// The user said something new (a rule learned).
    pub learned: usize,
    /// No lasting rule.
    pub nothing: usize,
}

/// The corrections, repeats and catches per day (or per week, over more than
/// [`DAILY_UP_TO`] days), every period from the first event to the last, at most
/// [`MOST_WEEKS`] weeks: what is older is folded into `earlier`.
#[derive(Clone, Debug, Default, Serialize)]
pub(crate) struct Timeline {
    pub unit: &'static str,
    pub periods: Vec<Period>,
    /// The events before the first period, when the span is longer than the window.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub earlier: Option<Earlier>,
}

/// The events older than the timeline's window, counted as one.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Earlier {
    /// The first period's start: every event folded here is before it.
    pub before: String,
    pub corrections: usize,
    pub repeats: usize,
    pub catches: usize,
}

#[derive(Clone, Debug, Serialize)]
pub(crate) struct Period {
    /// The period's first day, `YYYY-MM-DD` (a Monday for a week).
    pub start: String,
    pub corrections: usize,
    pub repeats: usize,
    pub catches: usize,
}

/// The longest span shown per day; a longer one is shown per week.
const DAILY_UP_TO: i64 = 62;

/// The most weeks shown (two years), so a stray old date (a clock at 1970, a `0001-01-01`)
/// cannot make the timeline hundreds of thousands of periods long.
const MOST_WEEKS: i64 = 104;

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
    pub timeline: Timeline,
    /// Every committed rule (and any other with a catch), those repeated most first, then
    /// those caught most.
    pub rules: Vec<RuleRecord<'a>>,
}

/// The first 19 characters of an ISO 8601 UTC time (`2026-11-12T09:00:00`), so a commit's
/// date and a transcript's time (`…00.000Z`) compare as text.
fn instant(time: &str) -> &str {
    time.get(..19).unwrap_or(time)
}

/// `autofix ledger`'s request: which transcripts to read (the `--html` page is the front
/// end's: the op returns the report, `render/` draws it). The MCP server offers no ledger.
#[derive(Debug)]
pub(crate) struct Request {
    pub sessions: Sessions,
}

/// What the ledger of a workspace is built from, each read once: the rules file and its
/// history, the sources' layers and the history of each layer's vendored copy here, every
/// correction typed in the sessions, and the receipts. [`Ledger::report`] borrows from it.
pub(crate) struct Ledger {
    path: String,
    since: Option<String>,
    document: Option<Document>,
    history: History,
    layers: Layers,
    copies: Vec<History>,
    reflected: reflect::Report,
    receipts: Vec<Receipt>,
    notes: Vec<notes::Entry>,
}

/// Reads what the ledger of `workspace` is built from.
pub(crate) fn read(workspace: &Workspace, request: Request) -> Result<Ledger, RulesError> {
    let document = rules::load(workspace.shown_path())?;
    let history = History::read(&workspace.rules_file);
    let Sessions {
        home,
        agents,
        since,
    } = request.sessions;
    // Every correction: none is dropped for being a rule already, that is the point.
    let reflected = reflect::run(&reflect::Request {
        home,
        root: workspace.root.clone(),
        agents,
        since: since.clone(),
        rules: Vec::new(),
    });
    // The imported rules, each dated by the history of its source's vendored copy here.
    let layers = crate::sources::layers::for_workspace(workspace);
    let layout = crate::sources::Layout::of(workspace);
    let copies = layers
        .layers
        .iter()
        .map(|layer| History::read(&layout.copy(&layer.name)))
        .collect();
    Ok(Ledger {
        path: workspace.shown.clone(),
        since,
        document,
        history,
        layers,
        copies,
        reflected,
        receipts: super::receipts::read(workspace),
        notes: notes::read(workspace),
    })
}

impl Ledger {
    /// The ledger: the rules and the imported rules matched with the corrections and the
    /// receipts.
    pub(crate) fn report(&self) -> Report<'_> {
        let imported = (!self.layers.layers.is_empty()).then_some(Imported {
            layers: &self.layers,
            copies: &self.copies,
        });
        build(self, imported)
    }
}

/// The imported rules the ledger reads: the sources' layers, and the history of each
/// layer's vendored copy in this repository (in the layers' order).
#[derive(Clone, Copy)]
struct Imported<'a> {
    layers: &'a Layers,
    copies: &'a [History],
}

/// Builds the ledger of the rules file and the `imported` rules from the corrections
/// (read with no learned rules, so every correction is there), the file's history and the
/// receipts of the breaks caught.
fn build<'a>(ledger: &'a Ledger, imported: Option<Imported<'a>>) -> Report<'a> {
    let Ledger {
        document,
        history,
        since,
        reflected,
        receipts,
        notes,
        ..
    } = ledger;
    let document = document.as_ref();
    // The imported rules first: a correction both state as closely counts for the later
    // record, the local rule, which wins over them.
    let mut records = imported.map_or_else(Vec::new, |imported| {
        imported_records(document, history, imported)
    });
    records.extend(local_records(document, history, true, |_, _| true));
    let mut figure = Figure {
        committed_rules: records.len(),
        ..Figure::default()
    };
    let mut events = Events::default();
    count_repeats(
        &mut records,
        &mut figure,
        &mut events,
        &reflected.candidates,
    );
    let receipts: Vec<&Receipt> = receipts
        .iter()
        .filter(|r| {
            since
                .as_deref()
                .is_none_or(|since| r.time.as_str() >= since)
        })
        .collect();
    count_catches(document, history, &mut records, &mut events, receipts);
    let in_period = |time: &str| since.as_deref().is_none_or(|since| time >= since);
    count_notes(
        document,
        history,
        &mut records,
        &mut figure,
        &mut events,
        reflected,
        notes.iter().filter(|entry| in_period(entry_time(entry))),
    );
    figure.repeats_by_tool = figure.repeats - figure.repeats_by_agent;
    if figure.corrections > 0 {
        figure.repeat_rate = rounded(figure.repeats as f64 / figure.corrections as f64);
    }
    figure.rules_repeated = records.iter().filter(|r| !r.repeats.is_empty()).count();
    figure.catches = events.catches.len();
    figure.rules_caught = records.iter().filter(|r| !r.catches.is_empty()).count();
    let breaks = figure.catches + figure.repeats;
    figure.caught_first = (breaks > 0).then(|| rounded(figure.catches as f64 / breaks as f64));
    for record in &mut records {
        record.repeats.sort_by(|a, b| a.time.cmp(&b.time));
        record.catches.sort_by(|a, b| a.time.cmp(&b.time));
        let restated = record.repeats.len();
        record.needs_check = !record.checked && restated >= CHECK_AFTER;
        record.check_misses = record.checked && restated > 0;
    }
    // The rules to act on first: those that need a check, or whose check misses.
    records.sort_by(|a, b| {
        let to_act_on = |r: &RuleRecord<'_>| r.needs_check || r.check_misses;
        (to_act_on(b).cmp(&to_act_on(a)))
            .then((b.repeats.len(), b.catches.len()).cmp(&(a.repeats.len(), a.catches.len())))
            .then(a.source.cmp(&b.source))
            .then(a.number.cmp(&b.number))
    });
    Report {
        version: 1,
        path: ledger.path.clone(),
        since: since.clone(),
        searched: reflected.searched.clone(),
        history: history.available,
        figure,
        timeline: events.timeline(),
        rules: records,
    }
}

/// To three decimals.
fn rounded(share: f64) -> f64 {
    (share * 1000.0).round() / 1000.0
}

/// The times of what the ledger counts, for its timeline.
#[derive(Default)]
struct Events {
    corrections: Vec<String>,
    repeats: Vec<String>,
    catches: Vec<String>,
}

impl Events {
    /// Every period from the first event to the last, per day, or per week over a longer
    /// span than [`DAILY_UP_TO`] days; over more than [`MOST_WEEKS`] weeks, the last ones,
    /// the events before them counted in `earlier`.
    fn timeline(&self) -> Timeline {
        use crate::report::calendar::{date, day, monday_of};
        let all = || {
            [&self.corrections, &self.repeats, &self.catches]
                .into_iter()
                .flatten()
                .filter_map(|time| day(time))
        };
        let (Some(first), Some(last)) = (all().min(), all().max()) else {
            return Timeline {
                unit: "day",
                periods: Vec::new(),
                earlier: None,
            };
        };
        let weekly = last - first > DAILY_UP_TO;
        let start_of = |d: i64| if weekly { monday_of(d) } else { d };
        let step = if weekly { 7 } else { 1 };
        let last = start_of(last);
        let first = start_of(first).max(last - (MOST_WEEKS - 1) * 7);
        let count = usize::try_from((last - first) / step + 1).unwrap_or_default();
        let mut periods: Vec<Period> = (0..count)
            .map(|k| Period {
                start: date(first + k as i64 * step),
                corrections: 0,
                repeats: 0,
                catches: 0,
            })
            .collect();
        let mut earlier = Earlier {
            before: date(first),
            corrections: 0,
            repeats: 0,
            catches: 0,
        };
        // `None` for a time that is no date; `Err` for one before the window.
        let slot = |time: &String| {
            let at = (start_of(day(time)?) - first) / step;
            Some(usize::try_from(at).map_err(|_| ()))
        };
        let mut count = |times: &[String], field: fn(&mut Period) -> &mut usize| {
            let mut older = 0;
            for at in times.iter().filter_map(slot) {
                match at.map(|at| periods.get_mut(at)) {
                    Ok(Some(period)) => *field(period) += 1,
                    Ok(None) => {}
                    Err(()) => older += 1,
                }
            }
            older
        };
        earlier.corrections = count(&self.corrections, |p| &mut p.corrections);
        earlier.repeats = count(&self.repeats, |p| &mut p.repeats);
        earlier.catches = count(&self.catches, |p| &mut p.catches);
        let folded = earlier.corrections + earlier.repeats + earlier.catches > 0;
        Timeline {
            unit: if weekly { "week" } else { "day" },
            periods,
            earlier: folded.then_some(earlier),
        }
    }
}

/// Counts each correction, and the repeat of the rule in force that stated it.
fn count_repeats(
    records: &mut [RuleRecord<'_>],
    figure: &mut Figure,
    events: &mut Events,
    candidates: &[reflect::Candidate],
) {
    let mut in_force = InForce::new(records);
    for correction in candidates {
        figure.corrections += 1;
        let time = correction.time.as_str();
        if figure.from.as_deref().is_none_or(|from| time < from) {
            figure.from = Some(correction.time.clone());
        }
        if figure.to.as_deref().is_none_or(|to| time > to) {
            figure.to = Some(correction.time.clone());
        }
        events.corrections.push(correction.time.clone());
        if let Some(at) = in_force.held(records, &correction.text, time) {
            figure.repeats += 1;
            events.repeats.push(correction.time.clone());
            records[at].repeats.push(Repeat {
                time: correction.time.clone(),
                agent: correction.agent.as_str().to_string(),
                session: correction.session.clone(),
                text: correction.text.clone(),
                by: "tool",
                note: None,
            });
        }
    }
}

/// Counts each receipt for its local rule: the one with its number and instruction, else
/// its instruction (a merge renumbered it). A rule not committed yet gets a record for its
/// catches; a receipt of a rule the file does not have (another branch's) is left out.
fn count_catches<'a>(
    document: Option<&'a Document>,
    history: &'a History,
    records: &mut Vec<RuleRecord<'a>>,
    events: &mut Events,
    receipts: Vec<&Receipt>,
) {
    let find = |records: &[RuleRecord<'_>], receipt: &Receipt| {
        record_of(records, None, receipt.rule, &receipt.instruction)
    };
    let named: Vec<(u64, &str)> = (receipts.iter())
        .map(|r| (r.rule, r.instruction.as_str()))
        .collect();
    add_uncommitted(document, history, records, &named);
    for receipt in receipts {
        let Some(at) = find(records, receipt) else {
            continue;
        };
        events.catches.push(receipt.time.clone());
        records[at].catches.push(Catch {
            time: receipt.time.clone(),
            via: receipt.via.as_str(),
            file: receipt.file.clone(),
            line: receipt.line,
        });
    }
}

/// The record of the rule of `source` with `number` and `instruction`, else with
/// `instruction` (a merge renumbered it).
fn record_of(
    records: &[RuleRecord<'_>],
    source: Option<&str>,
    number: u64,
    instruction: &str,
) -> Option<usize> {
    let same_source = || (records.iter().enumerate()).filter(|(_, r)| r.source == source);
    (same_source().find(|(_, r)| r.number == number && r.instruction == instruction))
        .or_else(|| same_source().find(|(_, r)| r.instruction == instruction))
        .map(|(at, _)| at)
}

/// When a line of the notes was written.
fn entry_time(entry: &notes::Entry) -> &str {
    match entry {
        notes::Entry::Note(given) => &given.time,
        notes::Entry::Verdict(verdict) => &verdict.time,
    }
}

/// Counts the prompt hook's notes and the agent's verdicts on them: a rule restated is a
/// repeat of it (the agent's), a rule changed is a change of it. A note given in a session
/// the transcripts do not hold counts among the corrections too (the hook gave it for
/// one). The tool's own verdicts are read from the sessions ([`count_repeats`]), not here.
fn count_notes<'a, 'e>(
    document: Option<&'a Document>,
    history: &'a History,
    records: &mut Vec<RuleRecord<'a>>,
    figure: &mut Figure,
    events: &mut Events,
    reflected: &reflect::Report,
    entries: impl Iterator<Item = &'e notes::Entry>,
) {
    use notes::{By, Entry, Said};
    let mut given: HashMap<&str, &notes::Given> = HashMap::new();
    let mut verdicts: Vec<&notes::Verdict> = Vec::new();
    for entry in entries {
        match entry {
            Entry::Note(note) => {
                given.insert(note.id.as_str(), note);
            }
            Entry::Verdict(verdict) if verdict.by == By::Agent => verdicts.push(verdict),
            Entry::Verdict(_) => {}
        }
    }
    let read_sessions: std::collections::HashSet<&str> = (reflected.candidates.iter())
        .map(|c| c.session.as_str())
        .collect();
    for note in given.values() {
        figure.notes.given += 1;
        if !read_sessions.contains(note.session.as_str()) {
            figure.corrections += 1;
            events.corrections.push(note.time.clone());
            let time = note.time.as_str();
            if figure.from.as_deref().is_none_or(|from| time < from) {
                figure.from = Some(note.time.clone());
            }
            if figure.to.as_deref().is_none_or(|to| time > to) {
                figure.to = Some(note.time.clone());
            }
        }
    }
    let named: Vec<(u64, &str)> = (verdicts.iter())
        .filter_map(|v| v.rule.as_ref())
        .filter(|rule| rule.source.is_none())
        .map(|rule| (rule.rule, rule.instruction.as_str()))
        .collect();
    add_uncommitted(document, history, records, &named);
    let mut answered = std::collections::HashSet::new();
    for verdict in verdicts {
        let Some(note) = given.get(verdict.note.as_str()) else {
            continue;
        };
        if !answered.insert(verdict.note.as_str()) {
            continue;
        }
        match verdict.said {
            Said::Restated => figure.notes.restated += 1,
            Said::Changed => figure.notes.changed += 1,
            Said::New => figure.notes.learned += 1,
            Said::Nothing => figure.notes.nothing += 1,
        }
        let at = (verdict.rule.as_ref()).and_then(|rule| {
            record_of(
                records,
                rule.source.as_deref(),
                rule.rule,
                &rule.instruction,
            )
        });
        let Some(at) = at else {
            continue;
        };
        match verdict.said {
            Said::Restated => {
                figure.repeats += 1;
                figure.repeats_by_agent += 1;
                events.repeats.push(note.time.clone());
                records[at].repeats.push(Repeat {
                    time: note.time.clone(),
                    agent: note.agent.clone(),
                    session: note.session.clone(),
                    text: note.prompt.clone(),
                    by: "agent",
                    note: Some(note.id.clone()),
                });
            }
            Said::Changed => records[at].changes.push(Change {
                time: verdict.time.clone(),
                note: note.id.clone(),
                learned: verdict.learned,
            }),
            Said::New | Said::Nothing => {}
        }
    }
    figure.notes.answered = answered.len();
    figure.notes.unanswered = figure.notes.given - figure.notes.answered;
    figure.notes.answered_share = (figure.notes.given > 0)
        .then(|| rounded(figure.notes.answered as f64 / figure.notes.given as f64));
}

/// Adds the records of the local rules `named` (number, instruction) that have none yet:
/// rules not committed, which a catch or a verdict still counts for; each at most once. A
/// rule the file does not have (another branch's) gets none.
fn add_uncommitted<'a>(
    document: Option<&'a Document>,
    history: &'a History,
    records: &mut Vec<RuleRecord<'a>>,
    named: &[(u64, &str)],
) {
    let missing: Vec<&(u64, &str)> = (named.iter())
        .filter(|(number, instruction)| record_of(records, None, *number, instruction).is_none())
        .collect();
    if missing.is_empty() {
        return;
    }
    let known: Vec<u64> = (records.iter())
        .filter(|r| r.source.is_none())
        .map(|r| r.number)
        .collect();
    let more = local_records(document, history, false, |number, instruction| {
        (missing.iter()).any(|(n, text)| *n == number || *text == instruction)
    });
    records.extend(more.into_iter().filter(|r| !known.contains(&r.number)));
}

/// The date of the commit that added local rule `number` with `instruction`, if any.
fn committed<'h>(history: &'h History, number: u64, instruction: &str) -> Option<&'h str> {
    match history.origin(Some(number), instruction) {
        Origin::Commit(commit) => Some(commit.date.as_str()),
        _ => None,
    }
}

/// The records of the local rules `wanted` keeps (by number and instruction), among the
/// committed ones (`of_committed`) or the others (retirement records are none).
fn local_records<'a>(
    document: Option<&'a Document>,
    history: &'a History,
    of_committed: bool,
    wanted: impl Fn(u64, &str) -> bool,
) -> Vec<RuleRecord<'a>> {
    let rules_of = || document.into_iter().flat_map(Document::rules);
    let resolution = document.map(supersede::resolve).unwrap_or_default();
    let by_number: HashMap<u64, crate::rules::file::Rule<'a>> = rules_of()
        .filter_map(|rule| Some((rule.number().value()?, rule)))
        .collect();
    let mut records: Vec<RuleRecord<'a>> = Vec::new();
    for rule in rules_of() {
        let (Some(number), Some(instruction)) =
            (rule.number().value(), rule.instruction().as_str())
        else {
            continue;
        };
        if resolution.is_retirement(rule.index) {
            continue;
        }
        let provenance = history.origin(Some(number), instruction.trim());
        if matches!(provenance, Origin::Commit(_)) != of_committed
            || !wanted(number, instruction.trim())
        {
            continue;
        }
        // In force until the oldest commit that superseded it.
        let until = resolution.superseded_by[rule.index]
            .iter()
            .filter_map(|&by| {
                let newer = by_number.get(&by)?;
                committed(history, by, newer.instruction().display().trim())
            })
            .min();
        records.push(RuleRecord {
            source: None,
            number,
            category: rule.category().display().trim(),
            instruction: instruction.trim(),
            active: resolution.is_active(rule.index),
            provenance,
            until,
            repeats: Vec::new(),
            catches: Vec::new(),
            changes: Vec::new(),
            checked: !matches!(rule.check(), crate::rules::file::CheckField::Missing),
            needs_check: false,
            check_misses: false,
        });
    }
    records
}

/// The records of the imported rules the manifest selects, each in force from the commit
/// that brought it into its vendored copy here, until the commit that brought a superseder
/// of its source's, or that added the local rule superseding it (a locked rule kept over
/// it stays in force).
fn imported_records<'a>(
    document: Option<&'a Document>,
    history: &'a History,
    imported: Imported<'a>,
) -> Vec<RuleRecord<'a>> {
    use crate::sources::layers::Status;
    let local_date = |by: u64| {
        let rule = document?
            .rules()
            .find(|rule| rule.number().value() == Some(by))?;
        committed(history, by, rule.instruction().display().trim())
    };
    let mut records = Vec::new();
    for (layer, copy) in imported.layers.layers.iter().zip(imported.copies) {
        let copy_date = |by: u64| {
            let rule = layer.rules.iter().find(|rule| rule.number == by)?;
            committed(copy, by, &rule.instruction)
        };
        for (at, rule) in layer.rules.iter().enumerate() {
            let provenance = copy.origin(Some(rule.number), &rule.instruction);
            if !matches!(provenance, Origin::Commit(_)) {
                continue;
            }
            let (active, until) = match imported.layers.status(layer, at) {
                Status::NotSelected => continue,
                Status::Active | Status::LockedKept(_) => (true, None),
                Status::InSource(by) => (false, by.iter().filter_map(|&n| copy_date(n)).min()),
                Status::Locally(by) => (false, by.iter().filter_map(|&n| local_date(n)).min()),
            };
            records.push(RuleRecord {
                source: Some(layer.name.as_str()),
                number: rule.number,
                category: &rule.category,
                instruction: &rule.instruction,
                active,
                provenance,
                until,
                repeats: Vec::new(),
                catches: Vec::new(),
                changes: Vec::new(),
                // A source's checks are not run here (see `src/docs/sources.md`).
                checked: false,
                needs_check: false,
                check_misses: false,
            });
        }
    }
    records
}

/// Whether a record's rule was in force at `time`: after the commit that added it, before
/// the commit of what superseded or retired it.
fn in_force_at(record: &RuleRecord<'_>, time: &str) -> bool {
    let Origin::Commit(commit) = record.provenance else {
        return false;
    };
    instant(&commit.date) < instant(time)
        && record
            .until
            .is_none_or(|until| instant(time) < instant(until))
}

/// The rules in force at each time a correction was typed, made once for every span
/// between two dates of the history (a rule's commit, its superseder's), not once per
/// correction.
struct InForce {
    /// Every date that starts or ends a rule's time in force, sorted.
    dates: Vec<String>,
    spans: HashMap<(usize, usize), Vec<ActiveRule>>,
}

impl InForce {
    fn new(records: &[RuleRecord<'_>]) -> InForce {
        let mut dates: Vec<String> = Vec::new();
        for record in records {
            if let Origin::Commit(commit) = record.provenance {
                dates.push(instant(&commit.date).to_string());
            }
            if let Some(until) = record.until {
                dates.push(instant(until).to_string());
            }
        }
        dates.sort_unstable();
        dates.dedup();
        InForce {
            dates,
            spans: HashMap::new(),
        }
    }

    /// The record (by position) of the rule that already stated `text` when it was typed
    /// at `time`: the rule `reflect` names as the one a correction repeats (the matcher
    /// `learn` refuses duplicates with, on the whole prompt and on each sentence), among
    /// the rules in force then. A contradiction is no repeat.
    fn held(&mut self, records: &[RuleRecord<'_>], text: &str, time: &str) -> Option<usize> {
        let at = instant(time);
        // Two times with the same dates before and at them have the same rules in force.
        let span = (
            self.dates.partition_point(|d| d.as_str() < at),
            self.dates.partition_point(|d| d.as_str() <= at),
        );
        let rules = self.spans.entry(span).or_insert_with(|| {
            records
                .iter()
                .enumerate()
                .filter(|(_, r)| in_force_at(r, time))
                // Numbered by their record: of two as close, the matcher takes the later.
                .map(|(at, r)| ActiveRule {
                    number: at as u64,
                    instruction: r.instruction.to_string(),
                    source: None,
                    // In force at `time` already: the ledger has the dates.
                    learned: None,
                })
                .collect()
        });
        let known = repeats::find(text, rules).filter(|k| k.kind == Kind::Duplicate)?;
        usize::try_from(known.rule).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_timeline_is_daily_up_to_62_days_then_weekly_with_every_period() {
        let events = Events {
            corrections: vec![
                "2026-11-01T09:00:00.000Z".into(),
                "2026-11-03T09:00:00Z".into(),
            ],
            repeats: vec!["2026-11-03T09:00:00Z".into()],
            catches: vec!["2026-11-03T10:00:00Z".into(), "not a time".into()],
        };
        let daily = events.timeline();
        assert_eq!(daily.unit, "day");
        let counts: Vec<(&str, usize, usize, usize)> = daily
            .periods
            .iter()
            .map(|p| (p.start.as_str(), p.corrections, p.repeats, p.catches))
            .collect();
        assert_eq!(
            counts,
            [
                ("2026-11-01", 1, 0, 0),
                ("2026-11-02", 0, 0, 0),
                ("2026-11-03", 1, 1, 1)
            ]
        );
        let weekly = Events {
            corrections: vec!["2026-09-01T00:00:00Z".into()],
            repeats: Vec::new(),
            catches: vec!["2026-12-01T00:00:00Z".into(), "2026-11-30T00:00:00Z".into()],
        }
        .timeline();
        assert_eq!(weekly.unit, "week");
        // From the Monday before Sep 1 (Aug 31) to the week of Nov 30: 14 weeks.
        assert_eq!(weekly.periods.len(), 14);
        assert_eq!(weekly.periods[0].start, "2026-08-31");
        assert_eq!(weekly.periods[13].start, "2026-11-30");
        assert_eq!(weekly.periods[13].catches, 2);
        assert!(weekly.earlier.is_none());
        assert!(Events::default().timeline().periods.is_empty());
    }

    #[test]
    fn the_timeline_folds_what_is_older_than_two_years_into_earlier() {
        let timeline = Events {
            corrections: vec!["0001-01-01T00:00:00Z".into(), "2026-12-01T00:00:00Z".into()],
            repeats: vec!["1970-01-01T00:00:00Z".into()],
            catches: vec!["2024-12-09T00:00:00Z".into(), "2024-12-08T23:59:59Z".into()],
        }
        .timeline();
        assert_eq!(timeline.unit, "week");
        assert_eq!(timeline.periods.len(), 104);
        // 104 weeks to that of 2026-11-30: from 2024-12-09; the Sunday before is earlier.
        assert_eq!(timeline.periods[0].start, "2024-12-09");
        assert_eq!(timeline.periods[0].catches, 1);
        assert_eq!(timeline.periods[103].corrections, 1);
        let earlier = timeline.earlier.expect("the old events are folded");
        assert_eq!(earlier.before, "2024-12-09");
        assert_eq!(
            (earlier.corrections, earlier.repeats, earlier.catches),
            (1, 1, 1)
        );
    }

    #[test]
    fn times_compare_to_the_second() {
        assert_eq!(instant("2026-11-12T09:00:00.000Z"), "2026-11-12T09:00:00");
        assert_eq!(instant("2026-11-12T09:00:00Z"), "2026-11-12T09:00:00");
    }
}
