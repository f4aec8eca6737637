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
        if let Some(share) = figure.caught_first {
            let _ = writeln!(
                out,
                "Rule breaks caught first: {} of {} ({:.1}%)",
                figure.catches,
                figure.catches + figure.repeats,
                share * 100.0
            );
        }
        let shown_rules =
            (self.rules.iter()).filter(|r| !r.repeats.is_empty() || !r.catches.is_empty());
        for record in shown_rules {
            record_text(&mut out, record);
        }
        out
    }

    fn to_json(&self) -> String {
        crate::report::text::json_document(self)
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
    if !record.repeats.is_empty() {
        let _ = writeln!(
            out,
            "  repeated {} since:",
            counted(record.repeats.len(), "time")
        );
    }
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
            })
            .collect(),
    };
    ledger_page::render(&page)
}
