//! `resolve`'s outcome: what was written, the renumbering map and the next step; as text and the `resolve --format json` document.

use super::Render;
use crate::merge::resolve::Outcome;
use crate::merge::{Change, DropReason};
use crate::report::paint::Painter;
use serde::Serialize;

impl Render for Outcome {
    /// What was written, the renumbering map and the next step (the file named as the
    /// request named it: the front end passes it as it is shown).
    fn to_text(&self, _painter: Painter) -> String {
        let shown = self.path.display().to_string();
        let shown = shown.as_str();
        let merged = &self.merged;
        let mut out = format!("Resolved {shown} from the conflict stages in git's index.\n");
        out.push_str(&merged.report(shown, &self.decision.reason));
        if merged.is_clean() {
            out.push_str(&format!(
                "Review it, then `git add {shown}` and continue.\n"
            ));
        } else {
            out.push_str(&format!(
                "Keep one side of each marked rule, run `autofix check`, then `git add {shown}`.\n"
            ));
        }
        out
    }

    /// The `resolve --format json` document.
    fn to_json(&self) -> String {
        let shown = self.path.display().to_string();
        let shown = shown.as_str();
        #[derive(Serialize)]
        struct Number {
            from: u64,
            to: u64,
        }
        #[derive(Serialize)]
        struct DroppedJson {
            from: u64,
            to: u64,
            reason: &'static str,
        }
        #[derive(Serialize)]
        struct ConflictJson {
            number: u64,
            ours: &'static str,
            theirs: &'static str,
        }
        #[derive(Serialize)]
        struct Json<'a> {
            version: u32,
            path: &'a str,
            status: &'static str,
            kept: &'static str,
            reason: &'a str,
            added: Vec<Number>,
            dropped: Vec<DroppedJson>,
            conflicts: Vec<ConflictJson>,
            /// The warnings' messages (kept from before `diagnostics`).
            warnings: Vec<&'a str>,
            diagnostics: Vec<crate::report::diagnostics::DiagnosticJson<'a>>,
        }
        let change = |change: Change| match change {
            Change::Unchanged => "unchanged",
            Change::Edited => "edited",
            Change::Deleted => "deleted",
        };
        let merged = &self.merged;
        let json = Json {
            version: 1,
            path: shown,
            status: if merged.is_clean() {
                "merged"
            } else {
                "conflict"
            },
            kept: merged.keep.name(),
            reason: &self.decision.reason,
            added: merged
                .added
                .iter()
                .map(|a| Number {
                    from: a.from,
                    to: a.to,
                })
                .collect(),
            dropped: merged
                .dropped
                .iter()
                .map(|d| DroppedJson {
                    from: d.from,
                    to: d.to,
                    reason: match d.reason {
                        DropReason::SameContent => "same-content",
                        DropReason::SameInstruction => "same-instruction",
                    },
                })
                .collect(),
            conflicts: merged
                .conflicts
                .iter()
                .map(|c| ConflictJson {
                    number: c.number,
                    ours: change(c.ours),
                    theirs: change(c.theirs),
                })
                .collect(),
            warnings: merged.warnings.iter().map(|w| &*w.message).collect(),
            diagnostics: crate::report::diagnostics::json_of(&merged.warnings),
        };
        crate::report::text::json_document(&json)
    }
}
