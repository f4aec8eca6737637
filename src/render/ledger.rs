//! `ledger`'s report: each rule with the corrections that led to it, its repeats since and
//! the breaks its check caught; as text, the `ledger --format json` document, and the page
//! `ledger --html` writes ([`super::ledger_page`]).

use super::Render;
use super::ledger_page::{self, Ledger, Period, Rule};
use crate::ops::ledger::{Report, RuleRecord};
use crate::report::paint::Painter;
use crate::report::text::{counted, shown};
use std::fmt::Write as _;

impl Render for Report<'_> {
    fn to_text(&self, _painter: Painter) -> String {
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
        let _ = writeln!(
            out,
            "Breaks caught by a check before the user saw them: {}",
            figure.catches
        );
        let notes = &figure.notes;
        if let Some(share) = notes.answered_share {
            let _ = writeln!(
                out,
                "Notes the prompt hook gave: {}, answered by the agent: {} ({:.1}%): restated {}, changed {}, new {}, no lasting rule {}; unanswered {}",
                notes.given,
                notes.answered,
                share * 100.0,
                notes.restated,
                notes.changed,
                notes.learned,
                notes.nothing,
                notes.unanswered
            );
        }
        if let Some(share) = figure.caught_first {
            let _ = writeln!(
                out,
                "Rule breaks caught first: {} of {} ({:.1}%)",
                figure.catches,
                figure.catches + figure.repeats,
                share * 100.0
            );
        }
        if figure.repeats > 0 {
            let _ = writeln!(
                out,
                "Repeats judged by the agent on a note: {}; found word for word by the tool (its estimate): {}",
                figure.repeats_by_agent, figure.repeats_by_tool
            );
        }
        let shown_rules = (self.rules.iter())
            .filter(|r| !r.repeats.is_empty() || !r.catches.is_empty() || !r.changes.is_empty());
        for record in shown_rules {
            record_text(&mut out, record);
        }
        out
    }

    fn to_json(&self) -> String {
        crate::report::text::json_document(self)
    }
}

impl Render for crate::ops::notes::Verdict {
    fn to_text(&self, _painter: Painter) -> String {
        use crate::ops::notes::Said;
        let rule = |verb: &str| {
            self.rule.as_ref().map_or_else(String::new, |rule| {
                format!(
                    "{verb} rule {} (\"{}\")",
                    rule.id(),
                    shown(&rule.instruction)
                )
            })
        };
        let what = match self.said {
            Said::Restated => format!("the user {}: follow it", rule("restated")),
            Said::Changed => rule("the user changed"),
            Said::New => "the user said something new".to_string(),
            Said::Nothing => "no lasting rule".to_string(),
        };
        format!("Note {}: {what}.\n", self.note)
    }

    fn to_json(&self) -> String {
        #[derive(serde::Serialize)]
        struct Document<'a> {
            version: u32,
            #[serde(flatten)]
            verdict: &'a crate::ops::notes::Verdict,
        }
        crate::report::text::json_document(&Document {
            version: 1,
            verdict: self,
        })
    }
}

/// One rule's part of the text: its origin, its repeats, its catches.
fn record_text(out: &mut String, record: &RuleRecord<'_>) {
    let (id, learned) = match record.source {
        Some(source) => (
            crate::sources::layers::id(source, record.number),
            "imported",
        ),
        None => (record.number.to_string(), "learned"),
    };
    let _ = writeln!(
        out,
        "\n{id} [{}] {}\n  {learned} {}",
        shown(record.category),
        shown(record.instruction),
        record.provenance.describe()
    );
    if let Some(until) = record.until {
        let _ = writeln!(out, "  in force until {until} (then superseded or retired)");
    }
    if record.needs_check {
        let _ = writeln!(
            out,
            "  needs a check: restated {} with none; if a pattern can catch a break of it: autofix learn … --supersedes {id} --check 'REGEX'",
            counted(record.repeats.len(), "time")
        );
    } else if record.check_misses {
        let _ = writeln!(out, "  its check misses: restated although it has a check");
    }
    if !record.repeats.is_empty() {
        let _ = writeln!(
            out,
            "  repeated {} since:",
            counted(record.repeats.len(), "time")
        );
    }
    for repeat in &record.repeats {
        let first = repeat.text.lines().next().unwrap_or_default();
        let by = match &repeat.note {
            Some(note) => format!("agent, note {note}"),
            None => "tool".to_string(),
        };
        let _ = writeln!(
            out,
            "    {}  {}  session {}  ({by})  > {}",
            shown(&repeat.time),
            shown(&repeat.agent),
            shown(&repeat.session),
            shown(first)
        );
    }
    for change in &record.changes {
        let learned = change
            .learned
            .map_or_else(String::new, |n| format!(": rule {n} learned in its place"));
        let _ = writeln!(
            out,
            "  changed {} (note {}){learned}",
            shown(&change.time),
            change.note
        );
    }
    if !record.catches.is_empty() {
        let _ = writeln!(
            out,
            "  caught {} before the user saw it:",
            counted(record.catches.len(), "time")
        );
    }
    for catch in &record.catches {
        let _ = writeln!(
            out,
            "    {}  {:<9}  {}:{}",
            shown(&catch.time),
            catch.via,
            shown(&catch.file),
            catch.line
        );
    }
}

/// The page `ledger --html` writes.
pub(crate) fn to_html(report: &Report<'_>) -> String {
    let figure = &report.figure;
    let written = crate::report::calendar::now();
    let page = Ledger {
        path: &report.path,
        since: report.since.as_deref(),
        written: &written,
        corrections: figure.corrections,
        repeats: figure.repeats,
        repeat_rate: figure.repeat_rate,
        catches: figure.catches,
        caught_first: figure.caught_first,
        notes_given: figure.notes.given,
        notes_answered: figure.notes.answered,
        repeats_by_agent: figure.repeats_by_agent,
        unit: report.timeline.unit,
        periods: (report.timeline.periods.iter())
            .map(|p| Period {
                start: &p.start,
                corrections: p.corrections,
                repeats: p.repeats,
                catches: p.catches,
            })
            .collect(),
        earlier: report.timeline.earlier.as_ref().map(|e| Period {
            start: &e.before,
            corrections: e.corrections,
            repeats: e.repeats,
            catches: e.catches,
        }),
        rules: (report.rules.iter())
            .map(|r| Rule {
                id: r.source.map_or_else(
                    || r.number.to_string(),
                    |source| crate::sources::layers::id(source, r.number),
                ),
                category: r.category,
                instruction: r.instruction,
                active: r.active,
                repeats: r.repeats.len(),
                catches: r.catches.len(),
                needs_check: r.needs_check,
                check_misses: r.check_misses,
            })
            .collect(),
    };
    ledger_page::render(&page)
}
