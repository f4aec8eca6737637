//! `rules N`'s report: one rule, its history and what superseded it; as text and the `rules N --format json` document.

use super::Render;
use crate::report::paint::Painter;
use crate::report::text::shown;
use crate::rules::provenance::Origin;
use crate::rules::show::Report;
use std::fmt::Write as _;

impl Render for Report<'_> {
    fn to_text(&self, _painter: Painter) -> String {
        let rule = &self.rule;
        let state = if rule.retirement {
            "a retirement record".to_string()
        } else if rule.active {
            "active".to_string()
        } else if self.superseded_by.iter().all(|by| by.retirement) {
            "retired".to_string()
        } else {
            "superseded".to_string()
        };
        let mut out = format!(
            "Rule {} from {}: {state}\n",
            crate::rules::show::line(rule),
            self.path
        );
        let _ = writeln!(out, "  why:     {}", shown(rule.why));
        let scope = if rule.paths.is_empty() {
            "everywhere".to_string()
        } else {
            rule.paths
                .iter()
                .map(|g| shown(g))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let _ = writeln!(out, "  scope:   {scope}");
        let _ = writeln!(out, "  added:   {}", rule.provenance.describe());
        if let Origin::Commit(commit) = rule.provenance {
            let _ = writeln!(
                out,
                "  commit:  {} {}",
                commit.commit,
                shown(&commit.subject)
            );
        }
        let verb = if rule.retirement {
            "retires"
        } else {
            "supersedes"
        };
        for older in &self.supersedes {
            let _ = writeln!(out, "  {verb}: {}", crate::rules::show::line(older));
        }
        for newer in &self.superseded_by {
            let (verb, text) = if newer.retirement {
                (
                    "retired by",
                    format!("{} — {}", crate::rules::show::line(newer), shown(newer.why)),
                )
            } else {
                ("superseded by", crate::rules::show::line(newer))
            };
            let _ = writeln!(out, "  {verb}: {text}");
            let _ = writeln!(out, "    added: {}", newer.provenance.describe());
        }
        out
    }

    fn to_json(&self) -> String {
        crate::report::text::json_document(self)
    }
}
