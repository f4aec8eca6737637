//! `rules`: the active constraints, and their text, JSON and Markdown renderers. One
//! builder and one JSON shape serve the CLI and every other front end.

use std::fmt::Write as _;

use serde::Serialize;

use super::category::normalize;
use super::file::{Document, Number};
use super::supersede::Resolution;
use super::{PRECEDENCE, supersede};

/// What to list.
#[derive(Clone, Debug, Default)]
pub struct Query {
    /// Only these categories (compared bare and upper-case); empty = all.
    pub categories: Vec<String>,
    /// Include superseded rules.
    pub all: bool,
}

/// One listed rule.
#[derive(Clone, Debug, Serialize)]
pub struct Entry {
    /// `null` when the file's `Rule_number` is not a valid number.
    pub number: Option<u64>,
    pub category: String,
    pub instruction: String,
    pub why: String,
    pub active: bool,
    pub superseded_by: Vec<u64>,
}

#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Counts {
    pub total: usize,
    pub active: usize,
    pub superseded: usize,
}

/// The `rules` result: the JSON document of `rules --format json`.
#[derive(Clone, Debug, Serialize)]
pub struct Listing {
    pub version: u32,
    /// The rules file, relative to the workspace root when it lies below it.
    pub path: String,
    pub exists: bool,
    pub precedence: &'static str,
    pub counts: Counts,
    /// The category filter, as given (bare, upper-case).
    pub categories: Vec<String>,
    pub rules: Vec<Entry>,
}

/// Builds the listing of `document` (`None`: there is no rules file).
pub fn build(path: String, document: Option<&Document<'_>>, query: &Query) -> Listing {
    let categories: Vec<String> = query.categories.iter().map(|c| normalize(c)).collect();
    let mut listing = Listing {
        version: 1,
        path,
        exists: document.is_some(),
        precedence: PRECEDENCE,
        counts: Counts::default(),
        categories,
        rules: Vec::new(),
    };
    let Some(document) = document else {
        return listing;
    };
    let resolution: Resolution = supersede::resolve(document);
    listing.counts = Counts {
        total: document.rules.len(),
        active: resolution.active_count(),
        superseded: document.rules.len() - resolution.active_count(),
    };
    let mut order: Vec<usize> = (0..document.rules.len()).collect();
    // Ascending number, file order for ties; unnumbered rules last.
    order.sort_by_key(|&i| (document.rules[i].number.value().unwrap_or(u64::MAX), i));
    for index in order {
        let rule = &document.rules[index];
        let active = resolution.is_active(index);
        if !active && !query.all {
            continue;
        }
        let category = normalize(rule.category.display());
        if !listing.categories.is_empty() && !listing.categories.contains(&category) {
            continue;
        }
        listing.rules.push(Entry {
            number: match rule.number {
                Number::Valid(n) => Some(n),
                _ => None,
            },
            category,
            instruction: rule.instruction.display().trim().to_string(),
            why: rule.why.display().trim().to_string(),
            active,
            superseded_by: resolution.superseded_by[index].clone(),
        });
    }
    listing
}

impl Listing {
    fn headline(&self) -> String {
        if !self.exists {
            return format!(
                "No rules file yet ({}); `autofix learn` creates it.",
                self.path
            );
        }
        let filter = if self.categories.is_empty() {
            String::new()
        } else {
            format!(" Showing {} only.", self.categories.join(", "))
        };
        format!(
            "Rules from {}: {} active, {} superseded. {}{filter}",
            self.path, self.counts.active, self.counts.superseded, self.precedence
        )
    }

    /// The compact form an agent reads into its context: a headline, then one rule a line.
    pub fn to_text(&self) -> String {
        let mut out = self.headline();
        out.push('\n');
        for entry in &self.rules {
            let _ = writeln!(out, "{}", line(entry, "", ""));
        }
        out
    }

    /// For pasting into AGENTS.md / CLAUDE.md: one list item a rule.
    pub fn to_markdown(&self) -> String {
        let mut out = String::from("## Project rules (autofix)\n\n");
        out.push_str(&self.headline());
        out.push_str("\n\n");
        for entry in &self.rules {
            let _ = writeln!(out, "- {}", line(entry, "**", "_"));
        }
        out
    }

    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).expect("a listing always serialises");
        text.push('\n');
        text
    }
}

/// `12 [CODE] Instruction — why`, with `strong`/`emphasis` around the number and the why.
fn line(entry: &Entry, strong: &str, emphasis: &str) -> String {
    let number = entry
        .number
        .map_or_else(|| "?".to_string(), |n| n.to_string());
    let mut text = format!(
        "{strong}{number}{strong} [{}] {} \u{2014} {emphasis}{}{emphasis}",
        entry.category, entry.instruction, entry.why
    );
    if !entry.active {
        let by: Vec<String> = entry.superseded_by.iter().map(u64::to_string).collect();
        let _ = write!(text, " [superseded by {}]", by.join(", "));
    }
    text
}
