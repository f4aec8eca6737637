//! Merging three versions of the rules file (the team half): a pure function of (base,
//! ours, theirs, options) that replays one side's new rules onto the other as `learn`
//! would, plus what runs it for git ([`driver`]), after a conflict ([`resolve`]) and the
//! set-up and its checks ([`crate::io::git`], [`doctor`]).
//!
//! The model ([`crate::docs::team`]): rules are identified by content, never by number. One side is
//! *kept*: its bytes and numbers stay, and the other side's new rules are appended after
//! its last rule, numbered from the highest number on the kept side or in the base, with
//! every supersede reference rewritten through the map from the other side's numbers to
//! the result's. A new rule that the kept side already has (same content, references
//! compared through the map) or whose instruction equals a rule of the kept side that is
//! active, or superseded only by rules the kept side added since the base, is dropped and
//! mapped to that rule. An edit or deletion of a base rule is a conflict, wrapped in
//! markers around that rule's object alone. Running the merge again on its own output
//! gives the same bytes.

pub(crate) mod doctor;
pub(crate) mod driver;
pub(crate) mod exported;
mod refs;
mod render;
pub(crate) mod resolve;

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::path::Path;

use crate::report::diagnostics::{Code, Diagnostic};
use crate::rules::append::{self, Layout};
use crate::rules::file::{Document, MAX_RULE_NUMBER, Rule};
use crate::rules::{self, instruction_key, same_instruction, supersede};

pub(crate) use render::{Pick, pick};

use render::{Markers, Slot};

/// One side of a merge, as git names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Side {
    Ours,
    Theirs,
}

impl Side {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Side::Ours => "ours",
            Side::Theirs => "theirs",
        }
    }

    /// `ours'` or `theirs'`, for "theirs' rule 44".
    fn possessive(self) -> &'static str {
        match self {
            Side::Ours => "ours'",
            Side::Theirs => "theirs'",
        }
    }

    pub(crate) fn other(self) -> Side {
        match self {
            Side::Ours => Side::Theirs,
            Side::Theirs => Side::Ours,
        }
    }
}

/// The labels git passes as `%S`, `%X` and `%Y` (git 2.44 and newer).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Labels {
    pub base: Option<String>,
    pub ours: Option<String>,
    pub theirs: Option<String>,
}

/// The three versions of the file.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Input<'a> {
    pub base: &'a str,
    pub ours: &'a str,
    pub theirs: &'a str,
}

/// How to merge.
#[derive(Clone, Debug)]
pub(crate) struct Options {
    pub labels: Labels,
    /// The length of conflict markers (git's `%L`, 7 by default).
    pub marker_size: usize,
    /// Take an edit or deletion made on one side only instead of reporting a conflict.
    pub accept_one_sided_edits: bool,
    /// The side whose numbers are published: its bytes and numbers are kept, and the
    /// other side's new rules are renumbered.
    pub keep: Side,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            labels: Labels::default(),
            marker_size: 7,
            accept_one_sided_edits: false,
            keep: Side::Ours,
        }
    }
}

/// What happened to a base rule on one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Change {
    Unchanged,
    Edited,
    Deleted,
}

impl Change {
    fn describe(self) -> &'static str {
        match self {
            Change::Unchanged => "kept",
            Change::Edited => "edited",
            Change::Deleted => "deleted",
        }
    }
}

/// A base rule that was edited or deleted, and how each side treated it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Conflict {
    /// The rule's number in the result.
    pub number: u64,
    pub ours: Change,
    pub theirs: Change,
}

/// A one-sided edit or deletion taken because of `accept_one_sided_edits`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Accepted {
    pub number: u64,
    pub side: Side,
    pub change: Change,
}

/// A new rule of the replayed side and its number in the result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Added {
    pub from: u64,
    pub to: u64,
}

/// Why a new rule of the replayed side was not added.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DropReason {
    /// The kept side has the same rule (same content, references compared through the map).
    SameContent,
    /// The kept side has a rule with the same instruction (learn's idempotency).
    SameInstruction,
}

/// A new rule of the replayed side that was already there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Dropped {
    pub from: u64,
    /// The kept side's rule it maps to.
    pub to: u64,
    pub reason: DropReason,
}

/// The result of a merge.
#[derive(Clone, Debug)]
pub(crate) struct Merged {
    /// The merged file (with conflict markers when `conflicts` is not empty).
    pub text: String,
    /// The side whose numbers were kept.
    pub keep: Side,
    pub added: Vec<Added>,
    pub dropped: Vec<Dropped>,
    pub conflicts: Vec<Conflict>,
    pub accepted: Vec<Accepted>,
    /// What the result may still get wrong: `merge-dangling-reference`,
    /// `multiple-supersedes`.
    pub warnings: Vec<Diagnostic>,
}

impl Merged {
    pub(crate) fn is_clean(&self) -> bool {
        self.conflicts.is_empty()
    }

    /// The side whose new rules were replayed (and renumbered).
    pub(crate) fn replayed(&self) -> Side {
        self.keep.other()
    }

    /// The human report: what was kept, the renumbering map, what was dropped, the
    /// conflicts. One item a line, for stderr.
    /// `reason` says why that side's numbers were kept.
    pub(crate) fn report(&self, path: &str, reason: &str) -> String {
        let replayed = self.replayed();
        let mut out = String::new();
        let _ = write!(
            out,
            "{path}: kept {} numbers ({reason}); ",
            self.keep.possessive()
        );
        match self.added.len() {
            0 => out.push_str("no new rules to add"),
            1 => {
                let _ = write!(out, "added 1 rule from {}", replayed.name());
            }
            n => {
                let _ = write!(out, "added {n} rules from {}", replayed.name());
            }
        }
        match self.conflicts.len() {
            0 => {}
            1 => out.push_str("; 1 conflict"),
            n => {
                let _ = write!(out, "; {n} conflicts");
            }
        }
        out.push('\n');
        for added in &self.added {
            let _ = writeln!(
                out,
                "  {} rule {} \u{2192} {}",
                replayed.possessive(),
                added.from,
                added.to
            );
        }
        for dropped in &self.dropped {
            let why = match dropped.reason {
                DropReason::SameContent => "the same rule",
                DropReason::SameInstruction => "the same instruction",
            };
            let _ = writeln!(
                out,
                "  {} rule {} is already {} rule {} ({why}); not added again",
                replayed.possessive(),
                dropped.from,
                self.keep.possessive(),
                dropped.to
            );
        }
        for accepted in &self.accepted {
            let _ = writeln!(
                out,
                "  rule {}: took the {} made on {} side only",
                accepted.number,
                match accepted.change {
                    Change::Deleted => "deletion",
                    _ => "edit",
                },
                accepted.side.possessive()
            );
        }
        for conflict in &self.conflicts {
            let _ = writeln!(
                out,
                "  CONFLICT rule {}: {} on ours, {} on theirs; keep one side (each side is a whole rule)",
                conflict.number,
                conflict.ours.describe(),
                conflict.theirs.describe()
            );
        }
        // The shared text form, indented under the merge's own lines.
        let warnings = crate::report::diagnostics::text_of(
            &self.warnings,
            crate::report::paint::Painter::new(false),
        );
        for line in warnings.lines() {
            let _ = writeln!(out, "  {line}");
        }
        out
    }
}

/// Why a merge could not be made.
#[derive(Debug, thiserror::Error)]
pub(crate) enum MergeError {
    /// A version is not a rules file the writer accepts; the caller falls back to a text
    /// merge.
    #[error("{0}")]
    Unparsable(String),
    /// A bug: the result did not read back as intended.
    #[error("internal error: {0}")]
    Internal(String),
}

/// Merges the three versions. See the module documentation for the model.
pub(crate) fn merge(input: &Input<'_>, options: &Options) -> Result<Merged, MergeError> {
    let base = parse("base", input.base)?;
    let ours = parse("ours", input.ours)?;
    let theirs = parse("theirs", input.theirs)?;
    let (kept, replayed) = match options.keep {
        Side::Ours => (&ours, &theirs),
        Side::Theirs => (&theirs, &ours),
    };
    Merger::new(&base, kept, replayed, options).run()
}

fn parse(name: &str, text: &str) -> Result<Document, MergeError> {
    rules::parse_strict(Path::new(name), text.to_string())
        .map_err(|error| MergeError::Unparsable(error.to_string()))
}

/// The content of a rule, as a canonical string: the object without `Rule_number`, keys
/// sorted, with every supersede reference renumbered through `map`. Two rules are the same
/// rule when their contents are equal.
fn content(rule: &Rule<'_>, map: &dyn Fn(u64) -> Option<u64>) -> String {
    let Ok(mut value) = serde_json::from_str::<serde_json::Value>(rule.raw) else {
        return rule.raw.to_string();
    };
    if let serde_json::Value::Object(object) = &mut value {
        object.remove("Rule_number");
        for key in ["Instruction", "Why"] {
            if let Some(serde_json::Value::String(text)) = object.get_mut(key) {
                *text = refs::rewrite_text(text, map);
            }
        }
        for key in ["Supersedes", "Distinct"] {
            if let Some(serde_json::Value::Array(items)) = object.get_mut(key) {
                for item in items {
                    if let Some(new) = item.as_u64().and_then(map) {
                        *item = new.into();
                    }
                }
            }
        }
    }
    value.to_string()
}

/// What became of a base rule on one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fate {
    /// The same rule, at this index of the side (perhaps renumbered).
    Kept(usize),
    /// A different rule holds its number at this index.
    Edited(usize),
    Deleted,
}

impl Fate {
    fn index(self) -> Option<usize> {
        match self {
            Fate::Kept(index) | Fate::Edited(index) => Some(index),
            Fate::Deleted => None,
        }
    }

    fn change(self) -> Change {
        match self {
            Fate::Kept(_) => Change::Unchanged,
            Fate::Edited(_) => Change::Edited,
            Fate::Deleted => Change::Deleted,
        }
    }
}

/// How a side relates to the base.
struct Matching {
    /// Per base rule.
    fate: Vec<Fate>,
    /// Per rule of the side: the base rule it continues, if any.
    claimed: Vec<Option<usize>>,
}

/// Base rules in the order references allow: lower numbers first.
fn by_number(document: &Document) -> Vec<usize> {
    let mut order: Vec<usize> = (0..document.len()).collect();
    order.sort_by_key(|&i| (document.rule(i).number().value().unwrap_or(u64::MAX), i));
    order
}

fn number(rule: &Rule<'_>) -> u64 {
    // Documents are parsed strictly: every rule has a valid number.
    rule.number().value().unwrap_or_default()
}

/// Matches every base rule to the side: first by content (references through the base →
/// side numbers found so far, so a renumbered rule is still itself), then an unmatched base
/// rule counts as edited when the side still uses its number for an unmatched rule with a
/// similar instruction; else as deleted (the side never had it, as in a cherry-pick of a
/// branch's second commit, or removed it).
fn match_base(base: &Document, side: &Document) -> Matching {
    let mut by_content: HashMap<String, Vec<usize>> = HashMap::new();
    for rule in side.rules() {
        by_content
            .entry(content(&rule, &|_| None))
            .or_default()
            .push(rule.index);
    }
    let mut map: HashMap<u64, u64> = HashMap::new();
    let mut fate = vec![Fate::Deleted; base.len()];
    let mut claimed = vec![None; side.len()];
    let mut unmatched = Vec::new();
    for b in by_number(base) {
        let rule = &base.rule(b);
        let key = content(rule, &|n| map.get(&n).copied());
        let candidates = by_content.get(&key).map_or(&[][..], Vec::as_slice);
        let free = || candidates.iter().copied().filter(|&s| claimed[s].is_none());
        let found = free()
            .find(|&s| number(&side.rule(s)) == number(rule))
            .or_else(|| free().next());
        match found {
            Some(s) => {
                claimed[s] = Some(b);
                fate[b] = Fate::Kept(s);
                map.entry(number(rule)).or_insert(number(&side.rule(s)));
            }
            None => unmatched.push(b),
        }
    }
    let mut by_number: HashMap<u64, Vec<usize>> = HashMap::new();
    if !unmatched.is_empty() {
        for rule in side.rules() {
            by_number.entry(number(&rule)).or_default().push(rule.index);
        }
    }
    for b in unmatched {
        let rule = &base.rule(b);
        let same_number = by_number.get(&number(rule)).map_or(&[][..], Vec::as_slice);
        let edited = same_number
            .iter()
            .copied()
            .find(|&s| claimed[s].is_none() && similar(rule, &side.rule(s)));
        if let Some(s) = edited {
            claimed[s] = Some(b);
            fate[b] = Fate::Edited(s);
        }
    }
    Matching { fate, claimed }
}

/// Whether `b` reads as an edit of `a`: the same instruction (ignoring case), or at least
/// half of their words in common. A category or `Why` change keeps the instruction; a
/// reworded instruction keeps most words; an unrelated rule shares few.
fn similar(a: &Rule<'_>, b: &Rule<'_>) -> bool {
    let (Some(a), Some(b)) = (a.instruction().as_str(), b.instruction().as_str()) else {
        return false;
    };
    if same_instruction(a, b) {
        return true;
    }
    let words = |text: &str| -> HashSet<String> {
        text.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect()
    };
    let (a, b) = (words(a), words(b));
    let union = a.union(&b).count();
    union > 0 && 2 * a.intersection(&b).count() >= union
}

struct Merger<'d> {
    base: &'d Document,
    kept: &'d Document,
    replayed: &'d Document,
    options: &'d Options,
    layout: Layout<'d>,
    replayed_layout: Layout<'d>,
}

impl<'d> Merger<'d> {
    fn new(
        base: &'d Document,
        kept: &'d Document,
        replayed: &'d Document,
        options: &'d Options,
    ) -> Self {
        Merger {
            base,
            kept,
            replayed,
            options,
            layout: append::layout(kept),
            replayed_layout: append::layout(replayed),
        }
    }

    fn run(&self) -> Result<Merged, MergeError> {
        let on_kept = match_base(self.base, self.kept);
        let on_replayed = match_base(self.base, self.replayed);
        let mut numbering = self.numbering(&on_kept, &on_replayed)?;
        let mut merged = Merged {
            text: String::new(),
            keep: self.options.keep,
            added: Vec::new(),
            dropped: Vec::new(),
            conflicts: Vec::new(),
            accepted: Vec::new(),
            warnings: Vec::new(),
        };
        let appended = self.replay(
            &on_kept,
            &on_replayed,
            &mut numbering.map,
            &mut numbering.next,
            &mut merged,
        )?;
        let placement = self.base_changes(&on_kept, &on_replayed, &numbering, &mut merged)?;
        merged.text = self.assemble(placement, appended);
        self.verify(&mut merged)?;
        Ok(merged)
    }

    /// The result's numbers: where new ones start, the fresh numbers of base rules offered
    /// back, and the replayed side's numbers mapped to the result's.
    fn numbering(
        &self,
        on_kept: &Matching,
        on_replayed: &Matching,
    ) -> Result<Numbering, MergeError> {
        let (kept, replayed) = (self.kept, self.replayed);
        // Numbers are never reused: new ones start above the kept side's and the base's.
        let mut next = kept.max_number().max(self.base.max_number());
        // A base rule the kept side lacks but the replayed side still has appears (inside a
        // conflict) under its base number, or a fresh one when the kept side reuses that.
        let kept_numbers: HashSet<u64> = kept.rules().map(|rule| number(&rule)).collect();
        let mut fresh: HashMap<usize, u64> = HashMap::new();
        for b in by_number(self.base) {
            let lacking = on_kept.fate[b] == Fate::Deleted && on_replayed.fate[b] != Fate::Deleted;
            if lacking && kept_numbers.contains(&number(&self.base.rule(b))) {
                next = bump(next)?;
                fresh.insert(b, next);
            }
        }
        let mut numbering = Numbering {
            next,
            fresh,
            result: Vec::new(),
            map: HashMap::new(),
        };
        numbering.result = (0..self.base.len())
            .map(|b| match on_kept.fate[b].index() {
                Some(k) => number(&kept.rule(k)),
                None => numbering
                    .fresh
                    .get(&b)
                    .copied()
                    .unwrap_or_else(|| number(&self.base.rule(b))),
            })
            .collect();
        for rule in replayed.rules() {
            if let Some(b) = on_replayed.claimed[rule.index] {
                numbering
                    .map
                    .entry(number(&rule))
                    .or_insert(numbering.result[b]);
            }
        }
        Ok(numbering)
    }

    /// The edits and deletions of base rules: taken when one-sided and accepted, else
    /// conflicts placed where the rule stood.
    fn base_changes(
        &self,
        on_kept: &Matching,
        on_replayed: &Matching,
        numbering: &Numbering,
        merged: &mut Merged,
    ) -> Result<Placement, MergeError> {
        let (kept, replayed) = (self.kept, self.replayed);
        let lookup = |n: u64| numbering.map.get(&n).copied();
        let mut placement = Placement::default();
        let mut last_anchor: Option<usize> = None;
        for b in 0..self.base.len() {
            let (kf, pf) = (on_kept.fate[b], on_replayed.fate[b]);
            if let Some(k) = kf.index() {
                last_anchor = Some(k);
            }
            let target = numbering.result[b];
            let replayed_text = |p: usize| self.rewritten(&replayed.rule(p), target, &lookup);
            let one_sided = match (kf, pf) {
                (Fate::Kept(_), Fate::Kept(_)) | (Fate::Deleted, Fate::Deleted) => continue,
                (Fate::Edited(k), Fate::Edited(p)) => {
                    if content(&kept.rule(k), &|_| None) == content(&replayed.rule(p), &lookup) {
                        continue;
                    }
                    None
                }
                (Fate::Kept(k), Fate::Edited(p)) => Some(OneSided {
                    side: self.options.keep.other(),
                    change: Change::Edited,
                    replacement: Some(Slot::Text(replayed_text(p)?)),
                    kept_index: Some(k),
                }),
                (Fate::Kept(k), Fate::Deleted) => Some(OneSided {
                    side: self.options.keep.other(),
                    change: Change::Deleted,
                    replacement: None,
                    kept_index: Some(k),
                }),
                (Fate::Edited(_) | Fate::Deleted, Fate::Kept(_)) => Some(OneSided {
                    side: self.options.keep,
                    change: kf.change(),
                    replacement: None,
                    kept_index: None,
                }),
                _ => None,
            };
            if self.options.accept_one_sided_edits
                && let Some(taken) = one_sided
            {
                merged.accepted.push(Accepted {
                    number: target,
                    side: taken.side,
                    change: taken.change,
                });
                match (taken.replacement, taken.kept_index) {
                    (Some(slot), Some(k)) => {
                        placement.at_kept.insert(k, slot);
                    }
                    (None, Some(k)) => {
                        placement.removed.insert(k);
                    }
                    _ => {}
                }
                continue;
            }
            let replayed_side: Vec<String> = match pf.index() {
                Some(p) => vec![replayed_text(p)?],
                None => Vec::new(),
            };
            let block = self.conflict(target, (kf, pf), replayed_side, merged);
            match kf.index() {
                Some(k) => {
                    placement.at_kept.insert(k, block);
                }
                // Under its base number where the neighbours have theirs; under a fresh
                // number after the kept rules, so numbers still ascend.
                None if numbering.fresh.contains_key(&b) => placement
                    .inserted
                    .entry(kept.len().checked_sub(1))
                    .or_default()
                    .push(block),
                None => placement
                    .inserted
                    .entry(last_anchor)
                    .or_default()
                    .push(block),
            }
        }
        Ok(placement)
    }

    /// A conflict over a base rule (numbered `target` in the result): recorded, and the
    /// two sides' texts as a block of markers, ours first.
    fn conflict(
        &self,
        target: u64,
        (kf, pf): (Fate, Fate),
        replayed_side: Vec<String>,
        merged: &mut Merged,
    ) -> Slot {
        let kept_side: Vec<String> = kf
            .index()
            .map(|k| self.kept.rule(k).raw.to_string())
            .into_iter()
            .collect();
        let (ours, theirs, ours_change, theirs_change) = match self.options.keep {
            Side::Ours => (kept_side, replayed_side, kf.change(), pf.change()),
            Side::Theirs => (replayed_side, kept_side, pf.change(), kf.change()),
        };
        merged.conflicts.push(Conflict {
            number: target,
            ours: ours_change,
            theirs: theirs_change,
        });
        Slot::Block { ours, theirs }
    }

    /// The merged text: the kept side's own bytes when nothing but appending happened,
    /// else every slot rendered in order.
    fn assemble(&self, mut placement: Placement, appended: Vec<String>) -> String {
        let kept = self.kept;
        if placement.at_kept.is_empty()
            && placement.removed.is_empty()
            && placement.inserted.is_empty()
        {
            return append::append_objects(kept, &appended);
        }
        let mut slots: Vec<Slot> = placement.inserted.remove(&None).unwrap_or_default();
        for k in 0..kept.len() {
            if let Some(slot) = placement.at_kept.remove(&k) {
                slots.push(slot);
            } else if !placement.removed.contains(&k) {
                slots.push(Slot::Keep(k));
            }
            slots.extend(placement.inserted.remove(&Some(k)).unwrap_or_default());
        }
        slots.extend(appended.into_iter().map(Slot::Text));
        let markers = Markers {
            size: self.options.marker_size,
            ours: self.options.labels.ours.as_deref().unwrap_or("ours"),
            theirs: self.options.labels.theirs.as_deref().unwrap_or("theirs"),
        };
        render::render(kept, self.layout, slots, &markers)
    }

    /// Replays the replayed side's new rules in number order: each is dropped (already
    /// there) or appended with the next number. Returns the appended objects' texts.
    fn replay(
        &self,
        on_kept: &Matching,
        on_replayed: &Matching,
        map: &mut HashMap<u64, u64>,
        next: &mut u64,
        merged: &mut Merged,
    ) -> Result<Vec<String>, MergeError> {
        let (kept, replayed) = (self.kept, self.replayed);
        let mut known: HashMap<String, u64> = HashMap::new();
        for rule in kept.rules() {
            known
                .entry(content(&rule, &|_| None))
                .or_insert(number(&rule));
        }
        // Rules the kept side shares with the base; a supersession by one of them is final.
        let since_base: HashSet<u64> = kept
            .rules()
            .filter(|rule| on_kept.claimed[rule.index].is_some())
            .map(|rule| number(&rule))
            .collect();
        let resolution = supersede::resolve(kept);
        let holds_instruction = |rule: &Rule<'_>| {
            resolution.superseded_by[rule.index]
                .iter()
                .all(|by| !since_base.contains(by))
        };
        // The first kept rule that holds each instruction, by `instruction_key`: one lookup
        // a replayed rule instead of a scan of the kept side (10k new rules a side took 1.8 s).
        let mut holding: HashMap<String, u64> = HashMap::new();
        for existing in kept.rules().filter(|rule| holds_instruction(rule)) {
            if let Some(text) = existing.instruction().as_str() {
                holding
                    .entry(instruction_key(text))
                    .or_insert(number(&existing));
            }
        }
        let numbers: HashSet<u64> = replayed.rules().map(|rule| number(&rule)).collect();
        let mut appended = Vec::new();
        for p in by_number(replayed) {
            if on_replayed.claimed[p].is_some() {
                continue;
            }
            let rule = &replayed.rule(p);
            let from = number(rule);
            let key = content(rule, &|n| map.get(&n).copied());
            if let Some(&to) = known.get(&key) {
                merged.dropped.push(Dropped {
                    from,
                    to,
                    reason: DropReason::SameContent,
                });
                map.entry(from).or_insert(to);
                continue;
            }
            let same = rule
                .instruction()
                .as_str()
                .and_then(|instruction| holding.get(&instruction_key(instruction)));
            if let Some(&to) = same {
                merged.dropped.push(Dropped {
                    from,
                    to,
                    reason: DropReason::SameInstruction,
                });
                map.entry(from).or_insert(to);
                continue;
            }
            *next = bump(*next)?;
            let next = *next;
            map.entry(from).or_insert(next);
            known.entry(key).or_insert(next);
            for reference in supersede::references(rule) {
                if !numbers.contains(&reference) {
                    let message = format!(
                        "{} rule {from} refers to rule {reference}, which {} does not have; the reference was left as written",
                        self.options.keep.other().possessive(),
                        self.options.keep.other().name()
                    );
                    merged
                        .warnings
                        .push(Diagnostic::new(Code::MergeDanglingReference, message));
                }
            }
            appended.push(self.rewritten(rule, next, &|n| map.get(&n).copied())?);
            merged.added.push(Added { from, to: next });
        }
        Ok(appended)
    }

    /// A replayed rule's text for the result: renumbered, references through the map, in
    /// the kept side's layout.
    fn rewritten(
        &self,
        rule: &Rule<'_>,
        number: u64,
        map: &dyn Fn(u64) -> Option<u64>,
    ) -> Result<String, MergeError> {
        let text = refs::rewrite_object(rule.raw, number, map).ok_or_else(|| {
            MergeError::Internal(format!(
                "cannot renumber rule {} (its object cannot be read field by field)",
                rule.number().value().unwrap_or_default()
            ))
        })?;
        Ok(relayout(&text, self.replayed_layout, self.layout))
    }

    /// The result must read back: a clean merge as a valid rules file, a conflicted one as
    /// a valid rules file whichever side of each conflict is kept.
    fn verify(&self, merged: &mut Merged) -> Result<(), MergeError> {
        let check = |text: &str, what: &str| -> Result<(), MergeError> {
            rules::parse_strict(Path::new("result"), text.to_string())
                .map(drop)
                .map_err(|error| {
                    MergeError::Internal(format!("{what} does not read back: {error}"))
                })
        };
        if !merged.is_clean() {
            let size = self.options.marker_size;
            check(
                &pick(&merged.text, Pick::Ours, size),
                "the result with ours' sides",
            )?;
            return check(
                &pick(&merged.text, Pick::Theirs, size),
                "the result with theirs' sides",
            );
        }
        let document =
            rules::parse_strict(Path::new("result"), merged.text.clone()).map_err(|error| {
                MergeError::Internal(format!("the result does not read back: {error}"))
            })?;
        let added: HashSet<u64> = merged.added.iter().map(|a| a.to).collect();
        let resolution = supersede::resolve(&document);
        let active = |n: u64| {
            document
                .rules()
                .any(|rule| number(&rule) == n && resolution.is_active(rule.index))
        };
        for dangling in &resolution.dangling {
            let from = number(&document.rule(dangling.index));
            if added.contains(&from) && dangling.reason == supersede::DanglingReason::Missing {
                let message = format!(
                    "rule {from} supersedes rule {}, which the result does not have; run `autofix check`",
                    dangling.reference
                );
                merged
                    .warnings
                    .push(Diagnostic::new(Code::MergeDanglingReference, message));
            }
        }
        for rule in document.rules() {
            let by: Vec<u64> = resolution.superseded_by[rule.index]
                .iter()
                .copied()
                .filter(|&n| active(n))
                .collect();
            if by.len() >= 2 && by.iter().any(|n| added.contains(n)) {
                let (last, others) = by.split_last().unwrap_or((&0, &[]));
                let others: Vec<String> = others.iter().map(u64::to_string).collect();
                let message = format!(
                    "rules {} and {last} both supersede rule {}; run `autofix check` and keep one",
                    others.join(", "),
                    number(&rule)
                );
                merged
                    .warnings
                    .push(Diagnostic::new(Code::MultipleSupersedes, message));
            }
        }
        Ok(())
    }
}

/// The number after `n`, if it is still a valid rule number.
/// The result's numbers (see [`Merger::numbering`]).
struct Numbering {
    /// The highest number given so far; new rules take the next ones.
    next: u64,
    /// Base rules offered back under a fresh number, by base index.
    fresh: HashMap<usize, u64>,
    /// Each base rule's number in the result, by base index.
    result: Vec<u64>,
    /// The replayed side's numbers → the result's.
    map: HashMap<u64, u64>,
}

/// Where the changes to base rules go in the result.
#[derive(Default)]
struct Placement {
    /// A slot that takes the place of the kept side's rule at that index.
    at_kept: HashMap<usize, Slot>,
    /// Kept rules (by index) deleted on the other side, the deletion accepted.
    removed: HashSet<usize>,
    /// Slots after the kept rule at that index (`None`: before the first).
    inserted: HashMap<Option<usize>, Vec<Slot>>,
}

/// An edit or deletion made on one side only, which `--accept-one-sided-edits` takes.
struct OneSided {
    side: Side,
    change: Change,
    /// The replayed side's text for an edit of a rule the kept side has.
    replacement: Option<Slot>,
    /// The kept side's index of the rule, when it has it.
    kept_index: Option<usize>,
}

fn bump(n: u64) -> Result<u64, MergeError> {
    n.checked_add(1)
        .filter(|n| *n <= MAX_RULE_NUMBER)
        .ok_or_else(|| MergeError::Internal("the next rule number would exceed 2^63 - 1".into()))
}

/// `object` (first line unindented) moved from one file layout to another: line endings,
/// and each leading indentation unit.
fn relayout(object: &str, from: Layout<'_>, to: Layout<'_>) -> String {
    if from == to {
        return object.to_string();
    }
    let normalised = object.replace("\r\n", "\n");
    let mut out = String::with_capacity(object.len() + 16);
    for (i, line) in normalised.split('\n').enumerate() {
        if i > 0 {
            out.push_str(to.newline);
            let mut rest = line;
            while !from.unit.is_empty()
                && let Some(after) = rest.strip_prefix(from.unit)
            {
                out.push_str(to.unit);
                rest = after;
            }
            out.push_str(rest);
        } else {
            out.push_str(line);
        }
    }
    out
}

#[cfg(test)]
mod tests;
