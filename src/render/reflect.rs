//! `reflect`'s report: the corrections found in the agents' transcripts, the repeats of active rules, the places read; as text and the `reflect --format json` document.

use super::Render;
use crate::capture::reflect::Report;
use crate::report::paint::Painter;
use crate::report::text;
use std::fmt::Write as _;

impl Render for Report {
    fn to_text(&self, _painter: Painter) -> String {
        let mut out = String::from("Searched:\n");
        for place in &self.searched {
            let found = if !place.exists {
                "not found".to_string()
            } else {
                let plural = if place.sessions == 1 { "" } else { "s" };
                format!("{} session{plural} of this repository", place.sessions)
            };
            let _ = writeln!(
                out,
                "  {:<7} {} ({found})",
                place.agent.as_str(),
                place.path
            );
        }
        if self.candidates.is_empty() {
            out.push_str("No corrections to learn: none found, or each is already a rule.\n");
            self.write_repeats(&mut out);
            return out;
        }
        let count = self.candidates.len();
        let plural = if count == 1 { "" } else { "s" };
        let _ = writeln!(
            out,
            "\n{count} correction{plural} not yet learned, newest first:"
        );
        for candidate in &self.candidates {
            let _ = writeln!(
                out,
                "\n{}  {}  session {}",
                text::shown(&candidate.time),
                candidate.agent.as_str(),
                text::shown(&candidate.session)
            );
            // A transcript is untrusted text: each line shown safely, after a prefix.
            for line in candidate.text.lines() {
                let _ = writeln!(out, "  > {}", text::shown(line));
            }
            if let Some(context) = &candidate.context {
                let _ = writeln!(out, "  after the agent {}", text::shown(context));
            }
            if let Some(near) = &candidate.near {
                let _ = writeln!(
                    out,
                    "  near rule {}: {} (it may say this rule again: if so, it is no new rule)",
                    near.shown(),
                    text::shown(&near.instruction)
                );
            }
        }
        out.push_str("\nRecord the lasting ones with `autofix learn`.\n");
        self.write_repeats(&mut out);
        out
    }

    fn to_json(&self) -> String {
        crate::report::text::json_document(self)
    }
}

impl Report {
    /// The corrections that repeat a rule: the rule is there, the agent did not follow it.
    fn write_repeats(&self, out: &mut String) {
        if self.repeats.is_empty() {
            return;
        }
        let count = self.repeats.len();
        let plural = if count == 1 { "" } else { "s" };
        let _ = writeln!(
            out,
            "\n{count} correction{plural} repeating a rule already recorded (not to learn \
             again; the agent did not follow the rule):"
        );
        for repeat in &self.repeats {
            let _ = writeln!(
                out,
                "\n{}  {}  session {}  repeats rule {}: {}",
                text::shown(&repeat.time),
                repeat.agent.as_str(),
                text::shown(&repeat.session),
                crate::capture::repeats::rule_shown(repeat.source.as_deref(), repeat.rule),
                text::shown(&repeat.instruction)
            );
            for line in repeat.text.lines() {
                let _ = writeln!(out, "  > {}", text::shown(line));
            }
        }
    }
}
