//! `ledger`'s report: each rule with the corrections that led to it and its repeats since; as text and the `ledger --format json` document.

use super::Render;
use crate::ops::ledger::Report;
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
        for record in self.rules.iter().filter(|r| !r.repeats.is_empty()) {
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

    fn to_json(&self) -> String {
        crate::report::text::json_document(self)
    }
}
