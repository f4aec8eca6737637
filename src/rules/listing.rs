//! `rules`: the active constraints, and their text, JSON and Markdown renderers. One
//! builder and one JSON shape serve the CLI and every other front end.

use std::borrow::Cow;
use std::io::{self, Write};
use std::sync::Arc;

use crate::report::paint::Painter;
use crate::report::text::{closest, did_you_mean};

use serde::Serialize;

use super::RulesError;
use super::budget;
use super::category::{Category, normalize};
use super::file::Document;
use super::supersede::Resolution;
use super::{PRECEDENCE, supersede};

/// What to list.
#[derive(Clone, Debug, Default)]
pub(crate) struct Query {
    /// Only these categories (compared bare and upper-case); empty = all.
    pub categories: Vec<String>,
    /// Include superseded rules.
    pub all: bool,
    /// Show only the newest rules whose compact form fits this many estimated tokens.
    pub budget: Option<usize>,
    /// Only the rules that apply to these paths (relative to the workspace root,
    /// `/`-separated): the unscoped ones and those whose globs match; empty = all.
    pub paths: Vec<String>,
    /// Only the rules whose instruction or why holds this text (ignoring case).
    pub search: Option<String>,
    /// Each rule's origin from this history ([`super::provenance`]); `None`: not shown.
    pub provenance: Option<Arc<super::provenance::History>>,
}

/// One listed rule, borrowing its text from the document.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Entry<'a> {
    /// `null` when the file's `Rule_number` is not a valid number.
    pub number: Option<u64>,
    pub category: Cow<'a, str>,
    pub instruction: &'a str,
    pub why: &'a str,
    pub active: bool,
    pub superseded_by: &'a [u64],
    /// A retirement record: it retires the rules it supersedes and is no rule itself.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub retirement: bool,
    /// A record that two rules are distinct ([`super::distinct`]): no rule itself.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub distinct: bool,
    /// Superseded by retirement records only: retired, nothing replaces it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub retired: bool,
    /// The globs the rule is scoped to (absent: it applies everywhere).
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub paths: &'a [String],
    /// With `--for`: why the rule applies to each path it applies to.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub applies: Vec<Applies<'a>>,
    /// With `--provenance`: the commit that added the rule.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provenance: Option<super::provenance::Origin<'a>>,
}

/// Why a rule applies to a path asked about: it is unscoped, or one of its globs matched.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct Applies<'a> {
    pub path: &'a str,
    /// `unscoped`, or `glob` with the glob that matched.
    pub scope: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub glob: Option<&'a str>,
}

#[derive(Clone, Copy, Debug, Default, Serialize)]
pub(crate) struct Counts {
    pub total: usize,
    pub active: usize,
    pub superseded: usize,
    /// Superseded rules retired (superseded by retirement records only).
    pub retired: usize,
    /// Retirement records (neither active nor superseded).
    pub retirements: usize,
}

/// The `rules` result: the JSON document of `rules --format json`. It shares the document
/// it lists, so it can be returned and kept.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Listing {
    pub version: u32,
    /// The rules file, relative to the workspace root when it lies below it.
    pub path: String,
    pub exists: bool,
    pub precedence: &'static str,
    pub counts: Counts,
    /// The category filter, as given (bare, upper-case).
    pub categories: Vec<String>,
    /// The paths of `--for`, when given.
    #[serde(rename = "for", skip_serializing_if = "Vec::is_empty")]
    pub for_paths: Vec<String>,
    pub rules: Entries,
    /// Selected rules left out to fit the budget (the oldest ones).
    pub omitted: usize,
    /// The estimated tokens of the text form (characters / 4, rounded up).
    pub tokens: usize,
    /// The budget the listing was cut to.
    #[serde(skip)]
    budget: Option<usize>,
    /// Active rules agents would get broken (no readable `Instruction`, a `Rule_number`
    /// that is not a number), each said in words: the front ends warn and exit 1. Those
    /// without an instruction are left out of the listing.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unreadable: Vec<String>,
    /// The text of `--search`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search: Option<String>,
}

/// The listed rules, made on demand from the document: a listing of 100k rules holds
/// indices, not copies.
#[derive(Clone, Debug, Default)]
pub(crate) struct Entries {
    document: Option<Arc<Document>>,
    superseded_by: Vec<Vec<u64>>,
    retirement: Vec<bool>,
    distinct: Vec<bool>,
    /// The numbers of the retirement records, sorted.
    records: Vec<u64>,
    selected: Vec<usize>,
    /// With `--for`: the paths asked about, and why each selected rule applies to them
    /// (in `selected` order).
    paths: Vec<String>,
    applies: Vec<Vec<Reason>>,
    history: Option<Arc<super::provenance::History>>,
}

/// Why a rule applies to the path at `path` of the paths asked about: unscoped (`None`),
/// or this glob of its `Paths` matched.
#[derive(Clone, Debug)]
struct Reason {
    path: usize,
    glob: Option<usize>,
}

impl Entries {
    pub(crate) fn len(&self) -> usize {
        self.selected.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.selected.is_empty()
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = Entry<'_>> {
        self.selected
            .iter()
            .enumerate()
            .map(|(at, &index)| self.entry(at, index))
    }

    /// The entry at position `at` of the listing.
    pub(crate) fn get(&self, at: usize) -> Entry<'_> {
        self.entry(at, self.selected[at])
    }

    fn entry(&self, at: usize, index: usize) -> Entry<'_> {
        let document = self
            .document
            .as_deref()
            .expect("entries come from a document");
        let superseded_by = &self.superseded_by[index];
        let retirement = self.retirement.get(index).copied().unwrap_or(false);
        let distinct = self.distinct.get(index).copied().unwrap_or(false);
        let rule = document.rule(index);
        let number = rule.number().value();
        let instruction = rule.instruction().display().trim();
        let globs = rule.paths().globs();
        Entry {
            number,
            category: bare_category(rule.category().display()),
            instruction,
            why: rule.why().display().trim(),
            active: superseded_by.is_empty() && !retirement && !distinct,
            superseded_by,
            retirement,
            distinct,
            retired: !superseded_by.is_empty()
                && superseded_by
                    .iter()
                    .all(|n| self.records.binary_search(n).is_ok()),
            paths: globs,
            applies: self.applies.get(at).map_or_else(Vec::new, |reasons| {
                reasons
                    .iter()
                    .map(|reason| Applies {
                        path: &self.paths[reason.path],
                        scope: if reason.glob.is_some() {
                            "glob"
                        } else {
                            "unscoped"
                        },
                        glob: reason.glob.map(|glob| globs[glob].as_str()),
                    })
                    .collect()
            }),
            provenance: self
                .history
                .as_deref()
                .map(|history| history.origin(number, instruction)),
        }
    }
}

impl Serialize for Entries {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

/// Refuses a category filter that can match nothing: neither a standard category nor one
/// the file holds (`rules -c tools` would otherwise list nothing and exit 0).
pub(crate) fn check_filter(query: &Query, document: Option<&Document>) -> Result<(), RulesError> {
    if query.categories.is_empty() {
        return Ok(());
    }
    let mut known: Vec<String> = Category::ALL.map(|c| c.as_str().to_string()).to_vec();
    for rule in document.iter().flat_map(|d| d.rules()) {
        let category = bare_category(rule.category().display());
        if !category.is_empty() && !known.iter().any(|k| *k == category) {
            known.push(category.into_owned());
        }
    }
    for given in &query.categories {
        let wanted = normalize(given);
        if !known.contains(&wanted) {
            let hint = did_you_mean(&closest(&wanted, known.iter().map(String::as_str)));
            return Err(RulesError::UnknownFilter {
                given: given.clone(),
                known: known.join(", "),
                hint,
            });
        }
    }
    Ok(())
}

/// Builds the listing of `document` (`None`: there is no rules file).
pub(crate) fn build(path: String, document: Option<Arc<Document>>, query: &Query) -> Listing {
    let categories: Vec<String> = query.categories.iter().map(|c| normalize(c)).collect();
    let mut listing = Listing {
        version: 1,
        path,
        exists: document.is_some(),
        precedence: PRECEDENCE,
        counts: Counts::default(),
        categories,
        for_paths: query.paths.clone(),
        rules: Entries::default(),
        omitted: 0,
        tokens: 0,
        budget: query.budget,
        unreadable: Vec::new(),
        search: query.search.clone(),
    };
    let Some(document) = document else {
        listing.tokens = budget::tokens(listing.headline().chars().count() + 1);
        return listing;
    };
    let resolution: Resolution = supersede::resolve(&document);
    let mut left_out = vec![false; document.len()];
    for (index, rule) in document.rules().enumerate() {
        if !resolution.is_active(index) {
            continue;
        }
        if let Some(problem) = unreadable(&rule) {
            left_out[index] = rule
                .instruction()
                .as_str()
                .is_none_or(|i| i.trim().is_empty());
            listing.unreadable.push(problem);
        }
    }
    let left = left_out.iter().filter(|&&out| out).count();
    let mut records: Vec<u64> = (0..document.len())
        .filter(|&index| resolution.is_retirement(index))
        .filter_map(|index| document.number(index))
        .collect();
    records.sort_unstable();
    let retired =
        |by: &[u64]| !by.is_empty() && by.iter().all(|n| records.binary_search(n).is_ok());
    listing.counts = Counts {
        total: document.len(),
        active: resolution.active_count() - left,
        superseded: document.len() - resolution.active_count() - resolution.record_count(),
        retired: if records.is_empty() {
            0
        } else {
            resolution
                .superseded_by
                .iter()
                .filter(|by| retired(by))
                .count()
        },
        retirements: resolution.retirement_count(),
    };
    let mut selected: Vec<usize> = (0..document.len())
        .filter(|&index| !left_out[index])
        .filter(|&index| query.all || resolution.is_active(index))
        .filter(|&index| {
            listing.categories.is_empty()
                || listing
                    .categories
                    .iter()
                    .any(|c| *c == bare_category(document.rule(index).category().display()))
        })
        .filter(|&index| {
            query
                .search
                .as_deref()
                .is_none_or(|text| mentions(&document.rule(index), text))
        })
        .collect();
    // Ascending number, file order for ties; unnumbered rules last.
    selected.sort_by_key(|&i| (document.number(i).unwrap_or(u64::MAX), i));
    let mut applies = Vec::new();
    if !query.paths.is_empty() {
        let reasons = |index: usize| applying(&document.rule(index), &query.paths);
        (selected, applies) = selected
            .into_iter()
            .map(|index| (index, reasons(index)))
            .filter(|(_, reasons)| !reasons.is_empty())
            .unzip();
    }
    listing.rules = Entries {
        document: Some(document),
        superseded_by: resolution.superseded_by,
        records,
        retirement: resolution.retirement,
        distinct: resolution.distinct,
        selected,
        paths: query.paths.clone(),
        applies,
        history: query.provenance.clone(),
    };
    listing.fit_budget();
    listing
}

impl Listing {
    /// The warning (`unreadable-rules`) for [`Listing::unreadable`], or `None` when every
    /// active rule reads.
    pub(crate) fn unreadable_warning(&self) -> Option<crate::report::diagnostics::Diagnostic> {
        if self.unreadable.is_empty() {
            return None;
        }
        let shown: Vec<&str> = self.unreadable.iter().take(3).map(String::as_str).collect();
        let more = match self.unreadable.len().saturating_sub(3) {
            0 => String::new(),
            n => format!("; and {n} more"),
        };
        let message = format!(
            "{} in {} cannot be read as written, so agents would get {} broken (rules \
             without an instruction are left out; `autofix check` says more): {}{more}",
            crate::report::text::counted(self.unreadable.len(), "active rule"),
            self.path,
            if self.unreadable.len() == 1 {
                "it"
            } else {
                "them"
            },
            shown.join("; ")
        );
        Some(crate::report::diagnostics::Diagnostic::new(
            crate::report::diagnostics::Code::UnreadableRules,
            message,
        ))
    }
}

/// The field names a rule object has, as written in the format.
const FIELDS: [&str; 6] = [
    "Rule_number",
    "Category",
    "Instruction",
    "Why",
    "Supersedes",
    "Paths",
];

/// What an agent would get broken of `rule`, in words ("the rule at position 3: no
/// `Instruction` (`instruction` is not a field name; did you mean `Instruction`?)"), or
/// `None` when its number and instruction read as written.
fn unreadable(rule: &super::file::Rule<'_>) -> Option<String> {
    use super::file::{Number, Text};
    let mut problems = Vec::new();
    match rule.number() {
        Number::Valid(_) => {}
        Number::Missing => problems.push("no `Rule_number`".to_string()),
        Number::Invalid(raw) => problems.push(format!(
            "`Rule_number` is {}, not a whole number",
            crate::report::text::shown(raw)
        )),
    }
    match &rule.instruction() {
        Text::Str(text) if !text.trim().is_empty() => {}
        Text::Str(_) => problems.push("an empty `Instruction`".to_string()),
        Text::Other(raw) => problems.push(format!(
            "`Instruction` is {}, not a string",
            crate::report::text::shown(raw)
        )),
        Text::Missing => problems.push("no `Instruction`".to_string()),
    }
    if problems.is_empty() {
        return None;
    }
    // Keys that are no field name but look like one: lower-case `instruction`, `rule_number`.
    let keys: Vec<String> =
        serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(rule.raw)
            .map(|object| object.keys().cloned().collect())
            .unwrap_or_default();
    let near: Vec<String> = keys
        .iter()
        .filter(|k| !FIELDS.contains(&k.as_str()))
        .filter_map(|key| {
            let near = closest(key, FIELDS);
            let near: Vec<String> = near.iter().map(|n| code_span(n)).collect();
            (!near.is_empty()).then(|| format!("{} for {}", code_span(key), near.join(" or ")))
        })
        .collect();
    let hint = if near.is_empty() {
        String::new()
    } else {
        format!(" (field names are case-sensitive: {})", near.join(", "))
    };
    Some(format!(
        "the rule at position {}: {}{hint}",
        rule.index + 1,
        problems.join(", ")
    ))
}

/// Whether `rule`'s instruction or why holds `text`, ignoring case.
fn mentions(rule: &super::file::Rule<'_>, text: &str) -> bool {
    mentions_text(rule.instruction().display(), rule.why().display(), text)
}

/// What `--search TEXT` keeps, for a rule of any layer: its instruction or why holds
/// `text`, ignoring case.
pub(crate) fn mentions_text(instruction: &str, why: &str, text: &str) -> bool {
    let wanted = text.trim().to_lowercase();
    [instruction, why]
        .iter()
        .any(|field| field.to_lowercase().contains(&wanted))
}

/// Why `rule` applies to each of `paths`: everywhere when unscoped (or when its `Paths`
/// cannot be read: a rule is shown rather than lost), else where a glob matches.
fn applying(rule: &super::file::Rule<'_>, paths: &[String]) -> Vec<Reason> {
    let globs = rule.paths().globs();
    paths
        .iter()
        .enumerate()
        .filter_map(|(at, path)| {
            if globs.is_empty() {
                return Some(Reason {
                    path: at,
                    glob: None,
                });
            }
            let glob = super::scope::matching(globs.iter().map(String::as_str), path)?;
            Some(Reason {
                path: at,
                glob: globs.iter().position(|g| std::ptr::eq(g.as_str(), glob)),
            })
        })
        .collect()
}

/// The number of characters of `text`, counted without decoding when it is ASCII.
fn chars(text: &str) -> usize {
    if text.is_ascii() {
        text.len()
    } else {
        text.chars().count()
    }
}

impl Listing {
    /// The characters of each selected rule's line in the text form: compact
    /// (`12 [CODE] Instruction`) with a budget, else with the why and what superseded it.
    fn line_chars(&self) -> Vec<usize> {
        self.rules
            .iter()
            .map(|entry| {
                let number = entry.number.map_or(1, |n| n.to_string().len());
                let mut line =
                    number + 2 + chars(&entry.category) + 2 + chars(entry.instruction) + 1;
                if self.budget.is_none() && !only_provenance(entry.why) {
                    line += 3 + chars(entry.why);
                }
                if !entry.superseded_by.is_empty() {
                    let by: Vec<String> = entry.superseded_by.iter().map(u64::to_string).collect();
                    let mark = if entry.retired {
                        " [retired by ]"
                    } else {
                        " [superseded by ]"
                    };
                    line += mark.len() + by.join(", ").len();
                }
                if entry.retirement {
                    line += RETIREMENT_MARK.len();
                }
                if entry.distinct {
                    line += DISTINCT_MARK.len();
                }
                line
            })
            .collect()
    }

    /// Keeps the newest rules that fit the budget, and counts the text form's tokens.
    fn fit_budget(&mut self) {
        let lines = self.line_chars();
        let headline = chars(&self.headline()) + 1;
        // suffix[i]: the characters of the lines from the i-th on.
        let mut suffix = vec![0; lines.len() + 1];
        for i in (0..lines.len()).rev() {
            suffix[i] = suffix[i + 1] + lines[i];
        }
        let cost = |omitted: usize, to_fit: &str| {
            let note = if omitted > 0 {
                chars(&budget::omitted_note(omitted, to_fit)) + 1
            } else {
                0
            };
            budget::tokens(headline + note + suffix[omitted])
        };
        let Some(limit) = self.budget else {
            self.tokens = cost(0, "");
            return;
        };
        let to_fit = format!("{limit} tokens");
        let omitted = budget::fit_newest(lines.len(), |omitted| cost(omitted, &to_fit) <= limit);
        self.omitted = omitted;
        self.tokens = cost(omitted, &to_fit);
        self.rules.selected.drain(..omitted);
    }

    /// The note that says how many rules the budget left out, if any.
    fn omitted_line(&self) -> Option<String> {
        let limit = self.budget?;
        if self.omitted > 0 && self.rules.is_empty() {
            // Not "older": every rule was left out, the newest too.
            return Some(format!(
                "(No rule fits in {limit} tokens, not even the newest: all {} left out; raise \
                 --budget, or `autofix rules` lists them all.)",
                self.omitted
            ));
        }
        (self.omitted > 0).then(|| budget::omitted_note(self.omitted, &format!("{limit} tokens")))
    }
}

/// The category as listed: bare and upper-case, borrowed when the file already says so.
fn bare_category(text: &str) -> Cow<'_, str> {
    let plain = text
        .bytes()
        .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_');
    if plain {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(normalize(text))
    }
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
        let filter = match &self.search {
            Some(text) => format!(
                "{filter} Showing only the {} mentioning `{}`.",
                crate::report::text::counted(self.rules.len(), "rule"),
                crate::report::text::shown(text)
            ),
            None => filter,
        };
        if !self.for_paths.is_empty() {
            return format!(
                "Rules from {} that apply to {}: {} of {} active. {}{filter}",
                self.path,
                self.for_paths.join(", "),
                self.rules.len(),
                self.counts.active,
                self.precedence
            );
        }
        let retired = if self.counts.retired > 0 {
            format!(" ({} retired)", self.counts.retired)
        } else {
            String::new()
        };
        format!(
            "Rules from {}: {} active, {} superseded{retired}. {}{filter}",
            self.path, self.counts.active, self.counts.superseded, self.precedence
        )
    }

    /// The compact form an agent reads into its context: a headline, then one rule a line.
    /// With a budget, the note on what was left out and the compact lines
    /// (`12 [CODE] Instruction`).
    pub(crate) fn write_text(&self, out: &mut impl Write) -> io::Result<()> {
        writeln!(out, "{}", self.headline())?;
        if let Some(note) = self.omitted_line() {
            writeln!(out, "{note}")?;
        }
        for entry in self.rules.iter() {
            if self.budget.is_some() {
                write_compact_item(out, &entry)?;
            } else {
                Self::write_text_item(out, &entry)?;
            }
        }
        Ok(())
    }

    /// For a person at a terminal: numbers aligned, categories colored by `painter`, and,
    /// with a `width`, long rules wrapped under their own text, so every line that starts
    /// at the left edge still starts a rule.
    pub(crate) fn write_terminal(
        &self,
        out: &mut impl Write,
        painter: Painter,
        width: Option<usize>,
    ) -> io::Result<()> {
        for line in wrap(&self.headline(), width.unwrap_or(usize::MAX)) {
            writeln!(out, "{}", painter.bold(&line))?;
        }
        let digits = self
            .rules
            .iter()
            .map(|entry| entry.number.map_or(1, |n| n.to_string().len()))
            .max()
            .unwrap_or(1);
        for entry in self.rules.iter() {
            let number = entry.number.map_or("?".to_string(), |n| n.to_string());
            let category = format!("[{}]", one_line(&entry.category));
            let body = to_string(|out| write_body(out, &entry, "", &one_line, true));
            let indent = digits + 1;
            let room = width.map_or(usize::MAX, |w| w.saturating_sub(indent).max(20));
            let first = format!("{category} {body}");
            for (i, line) in wrap(&first, room).into_iter().enumerate() {
                if i == 0 {
                    let rest = &line[category.len()..];
                    writeln!(
                        out,
                        "{number:>digits$} {}{rest}",
                        painter.category(&category)
                    )?;
                } else {
                    writeln!(out, "{:indent$}{line}", "")?;
                }
            }
        }
        Ok(())
    }

    /// For pasting into AGENTS.md / CLAUDE.md: one list item a rule.
    pub(crate) fn write_markdown(&self, out: &mut impl Write) -> io::Result<()> {
        self.write_markdown_styled(out, &MarkdownStyle::PLAIN)
    }

    /// The Markdown renderer that `rules --format markdown` and `export` share.
    fn write_markdown_styled(
        &self,
        out: &mut impl Write,
        style: &MarkdownStyle<'_>,
    ) -> io::Result<()> {
        self.write_markdown_head(out, style)?;
        out.write_all(group_by_scope(&self.markdown_items(style)).as_bytes())
    }

    /// Each rule as a Markdown list item, with the heading of its scope (empty for an
    /// unscoped rule), for [`group_by_scope`].
    pub(crate) fn markdown_items(&self, style: &MarkdownStyle<'_>) -> Vec<(String, String)> {
        self.rules
            .iter()
            .map(|entry| {
                let item = to_string(|out| Self::write_markdown_item(out, &entry, style));
                (scope_heading(&entry), item)
            })
            .collect()
    }

    /// The heading and the paragraph under it.
    pub(crate) fn write_markdown_head(
        &self,
        out: &mut impl Write,
        style: &MarkdownStyle<'_>,
    ) -> io::Result<()> {
        match style.lead {
            Some(lead) => write!(out, "## Project rules (autofix)\n\n{lead}\n\n"),
            None => write!(out, "## Project rules (autofix)\n\n{}\n\n", self.headline()),
        }
    }

    /// One rule as a list item: `- **12** [CODE] Instruction — _why_`.
    pub(crate) fn write_markdown_item(
        out: &mut impl Write,
        entry: &Entry<'_>,
        style: &MarkdownStyle<'_>,
    ) -> io::Result<()> {
        out.write_all(b"- ")?;
        write_line(out, entry, "**", "_", style.escape)
    }

    /// One rule as a line of the text format: `12 [CODE] Instruction — why`.
    pub(crate) fn write_text_item(out: &mut impl Write, entry: &Entry<'_>) -> io::Result<()> {
        write_line(out, entry, "", "", &one_line)
    }

    pub(crate) fn write_json(&self, out: &mut impl Write) -> io::Result<()> {
        serde_json::to_writer_pretty(&mut *out, self)?;
        out.write_all(b"\n")
    }

    /// The listing as plain text: what the prompt hook delivers and the budgets measure.
    pub(crate) fn plain_text(&self) -> String {
        to_string(|out| self.write_text(out))
    }
}

/// The heading a scoped rule is listed under in Markdown (`### Only for files matching
/// `src/**``), or "" for an unscoped rule.
pub(crate) fn scope_heading(entry: &Entry<'_>) -> String {
    heading_for(entry.paths)
}

/// The heading of the rules scoped to `globs` ("" for none): `### Only for files matching …`.
pub(crate) fn heading_for<S: AsRef<str>>(globs: &[S]) -> String {
    if globs.is_empty() {
        return String::new();
    }
    let spans: Vec<String> = globs.iter().map(|glob| code_span(glob.as_ref())).collect();
    format!("### Only for files matching {}", spans.join(", "))
}

/// `text` as a Markdown code span, fenced with more backticks than it holds in a row.
pub(crate) fn code_span(text: &str) -> String {
    let text = one_line(text);
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if longest > 0 { " " } else { "" };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// Markdown list items, each with its scope heading ("" for unscoped), as the files read
/// by every agent show them: the unscoped items first, then one section a scope, in the
/// order the scopes first appear; items keep their order within a section.
pub(crate) fn group_by_scope(items: &[(String, String)]) -> String {
    let mut out = String::new();
    for (heading, item) in items.iter().filter(|(h, _)| h.is_empty()) {
        debug_assert!(heading.is_empty());
        out.push_str(item);
    }
    // Each section's items, sections in first-appearance order: one pass, however many.
    let mut section: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    let mut sections: Vec<(&str, Vec<&str>)> = Vec::new();
    for (heading, item) in items.iter().filter(|(h, _)| !h.is_empty()) {
        let at = *section.entry(heading).or_insert_with(|| {
            sections.push((heading, Vec::new()));
            sections.len() - 1
        });
        sections[at].1.push(item);
    }
    for (heading, items) in sections {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(heading);
        out.push_str("\n\n");
        for item in items {
            out.push_str(item);
        }
    }
    out
}

/// What a writer-based renderer writes, as a `String`.
pub(crate) fn to_string(write: impl FnOnce(&mut Vec<u8>) -> io::Result<()>) -> String {
    let mut buffer = Vec::new();
    write(&mut buffer).expect("writing to memory cannot fail");
    String::from_utf8(buffer).expect("renderers write UTF-8")
}

/// Makes a piece of rule text (category, instruction, why) safe for where it goes.
type Escape = dyn Fn(&str) -> Cow<'_, str>;

/// How the Markdown renderer adapts to its destination.
pub(crate) struct MarkdownStyle<'s> {
    /// The paragraph under the heading; `None`: the headline with the file and the counts.
    pub lead: Option<&'s str>,
    /// Applied to every category, instruction and why.
    pub escape: &'s Escape,
}

impl MarkdownStyle<'static> {
    /// What `rules --format markdown` prints: the headline, the text on one line.
    pub(crate) const PLAIN: MarkdownStyle<'static> = MarkdownStyle {
        lead: None,
        escape: &one_line,
    };
}

/// The text as written, on one line and safe to show ([`crate::report::text::shown`]): a line
/// break or another control character in a hand-edited file would otherwise start a line
/// that reads like another rule, or a CI command.
fn one_line(text: &str) -> Cow<'_, str> {
    crate::report::text::shown(text)
}

/// `text` in lines of at most `room` characters, broken at spaces (a word longer than
/// `room` gets a line of its own).
fn wrap(text: &str, room: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    let mut length = 0;
    for word in text.split(' ') {
        let size = word.chars().count();
        if length > 0 && length + 1 + size > room {
            lines.push(std::mem::take(&mut line));
            length = 0;
        }
        if length > 0 {
            line.push(' ');
            length += 1;
        }
        line.push_str(word);
        length += size;
    }
    lines.push(line);
    lines
}

/// `12 [CODE] Instruction`: the compact line of a budgeted listing.
fn write_compact_item(out: &mut impl Write, entry: &Entry<'_>) -> io::Result<()> {
    match entry.number {
        Some(number) => write!(out, "{number}")?,
        None => out.write_all(b"?")?,
    }
    for part in [
        " [",
        &one_line(&entry.category),
        "] ",
        &one_line(entry.instruction),
    ] {
        out.write_all(part.as_bytes())?;
    }
    write_superseded_by(out, entry)?;
    out.write_all(b"\n")
}

/// What follows a retirement record listed with `--all`.
const RETIREMENT_MARK: &str = " [retirement record]";

/// What follows a record of two distinct rules listed with `--all`.
const DISTINCT_MARK: &str = " [distinct record]";

/// ` [superseded by 7, 9]` after a superseded rule (listed with `--all`), or
/// ` [retirement record]` after a retirement record (` [distinct record]`).
fn write_superseded_by(out: &mut impl Write, entry: &Entry<'_>) -> io::Result<()> {
    if entry.retirement {
        out.write_all(RETIREMENT_MARK.as_bytes())?;
    }
    if entry.distinct {
        out.write_all(DISTINCT_MARK.as_bytes())?;
    }
    if !entry.superseded_by.is_empty() {
        out.write_all(if entry.retired {
            b" [retired by "
        } else {
            b" [superseded by "
        })?;
        for (i, number) in entry.superseded_by.iter().enumerate() {
            if i > 0 {
                out.write_all(b", ")?;
            }
            write!(out, "{number}")?;
        }
        out.write_all(b"]")?;
    }
    Ok(())
}

/// `12 [CODE] Instruction — why`, with `strong`/`emphasis` around the number and the why.
fn write_line(
    out: &mut impl Write,
    entry: &Entry<'_>,
    strong: &str,
    emphasis: &str,
    escape: &Escape,
) -> io::Result<()> {
    out.write_all(strong.as_bytes())?;
    match entry.number {
        Some(number) => write!(out, "{number}")?,
        None => out.write_all(b"?")?,
    }
    for part in [strong, " [", &escape(&entry.category), "] "] {
        out.write_all(part.as_bytes())?;
    }
    // Markdown shows a scope as a heading (see `write_markdown_styled`), text on the line.
    write_body(out, entry, emphasis, escape, strong.is_empty())?;
    out.write_all(b"\n")
}

/// Whether a rule's reason only says where it came from (`import` writes "Imported from
/// CLAUDE.md:7 by `autofix import`"): kept in the file (`rules N` shows it), left out of
/// what agents read, where it would cost tokens on every rule and tell them nothing.
pub(crate) fn only_provenance(why: &str) -> bool {
    why.starts_with("Imported from ") && why.ends_with(" by `autofix import`")
}

/// `Instruction — why [superseded by N]`: a rule after its number and category (the why
/// left out when it [only says where the rule came from](only_provenance)).
fn write_body(
    out: &mut impl Write,
    entry: &Entry<'_>,
    emphasis: &str,
    escape: &Escape,
    scope: bool,
) -> io::Result<()> {
    out.write_all(escape(entry.instruction).as_bytes())?;
    if !only_provenance(entry.why) {
        for part in [" \u{2014} ", emphasis, &escape(entry.why), emphasis] {
            out.write_all(part.as_bytes())?;
        }
    }
    write_superseded_by(out, entry)?;
    if scope {
        write_scope(out, entry, escape)?;
    }
    Ok(())
}

/// ` [paths: a, b]` for a scoped rule, or with `--for` ` [applies: unscoped]`,
/// ` [applies to src/a.rs: src/**]`.
fn write_scope(out: &mut impl Write, entry: &Entry<'_>, escape: &Escape) -> io::Result<()> {
    if let [first, ..] = entry.applies.as_slice() {
        if first.glob.is_none() {
            return out.write_all(b" [applies: unscoped]");
        }
        for applies in &entry.applies {
            let glob = applies.glob.unwrap_or_default();
            write!(
                out,
                " [applies to {}: {}]",
                escape(applies.path),
                escape(glob)
            )?;
        }
        return Ok(());
    }
    if !entry.paths.is_empty() {
        let globs: Vec<Cow<'_, str>> = entry.paths.iter().map(|g| escape(g)).collect();
        write!(out, " [paths: {}]", globs.join(", "))?;
    }
    if let Some(origin) = &entry.provenance {
        write!(out, " [added: {}]", escape(&origin.describe()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_breaks_at_spaces_within_the_room() {
        assert_eq!(wrap("aa bb cc", 5), ["aa bb", "cc"]);
        assert_eq!(wrap("a verylongword b", 4), ["a", "verylongword", "b"]);
        assert_eq!(wrap("été là", 6), ["été là"]);
    }

    #[test]
    fn control_characters_are_found_wherever_they_are() {
        for text in [
            "a\nb",
            "0123456789\t",
            "\u{7f}",
            "long text without any \u{85}",
            "\u{1f}",
        ] {
            assert!(one_line(text).chars().all(|c| !c.is_control()), "{text:?}");
        }
        for text in [
            "",
            "plain ascii text, longer than eight",
            "é日本 ü ß — “quotes”",
        ] {
            assert!(matches!(one_line(text), Cow::Borrowed(_)));
        }
    }
}
