//! `learn`: validate a new rule, then append it under the sidecar lock with an atomic
//! replace ([`crate::docs::reliability`]): lock, re-read and parse strictly, number = highest + 1, splice
//! the text, check it reads back, write a temp file, fsync, rename, fsync the directory.
//! Once the rename has happened the rule is committed; later trouble is only a warning.

use std::collections::HashMap;
use std::path::Path;
use std::time::Duration;

use super::append::{Splice, StoredRule, splice, splice_rules};
use super::category::normalize;
use super::file::{self, Document, MAX_RULE_NUMBER, Number};
use super::similar::{self, Match};
use super::{Category, RulesError, same_instruction, scope, supersede};
use crate::io::atomic::AtomicError;
use crate::io::safe_write::{Fence, Locked};
use crate::report::diagnostics::{Code, Diagnostic};

/// What to learn, its imported supersessions already marked in the reason (the front
/// ends' request is `ops::learning::Request`, which `learn --json` reads).
#[derive(Clone, Debug, Default)]
pub(crate) struct Request {
    pub category: String,
    pub instruction: String,
    pub why: String,
    pub supersedes: Vec<u64>,
    /// Learn it even when it repeats or contradicts an active rule (keep both).
    pub force: bool,
    /// The globs the rule is scoped to; empty: it applies everywhere.
    pub paths: Vec<String>,
    /// The rule's check ([`super::pattern`]).
    pub check: Option<super::pattern::Check>,
    /// A retirement record ([`super::retire`]), made by `retire`, never read from input.
    pub retirement: bool,
    /// A record that these two rules are distinct ([`super::distinct`]), made by
    /// `distinct`, never read from input.
    pub distinct: Option<[u64; 2]>,
}

/// How to learn it.
#[derive(Clone, Debug)]
pub(crate) struct Options {
    pub dry_run: bool,
    pub lock_timeout: Duration,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Status {
    /// The rule was appended.
    Learned,
    /// An active rule already holds this instruction; nothing was written.
    Duplicate,
    /// `--dry-run`: the rule that would be appended.
    DryRun,
    /// The rule repeats or contradicts an active rule it does not supersede; nothing was
    /// written.
    Refused,
}

impl Status {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Status::Learned => "learned",
            Status::Duplicate => "duplicate",
            Status::DryRun => "dry_run",
            Status::Refused => "refused",
        }
    }
}

/// The outcome of a `learn`.
#[derive(Clone, Debug)]
pub(crate) struct Outcome {
    pub status: Status,
    /// Every rule the new rule supersedes, and where the reference was read.
    pub supersedes: Vec<SupersedeReference>,
    /// The new rule, or for a duplicate the rule that already holds the instruction.
    pub rule: StoredRule,
    /// The active rules the new one repeats or reverses in their words (the strict
    /// relation), repeats first (kept with `--force`, and left out when it supersedes them).
    pub matches: Vec<Match>,
    pub warnings: Vec<Diagnostic>,
}

/// A rule the new rule supersedes, and where that was said: `--supersedes` (the
/// `Supersedes` array of `--json`), or a marker in `Why` or `Instruction`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub(crate) struct SupersedeReference {
    pub rule: u64,
    pub from: &'static str,
}

/// A request checked and normalised: category upper-case, texts trimmed, supersede
/// markers added to `Why`.
#[derive(Clone, Debug)]
struct Validated {
    category: Category,
    instruction: String,
    why: String,
    /// Every reference, checked like `--supersedes`: a marker in free text is as real.
    references: Vec<SupersedeReference>,
    /// The scope, each glob checked, repeats dropped, in the order given.
    paths: Vec<String>,
    /// The check, its pattern compiled once to prove it can run.
    check: Option<super::pattern::Check>,
    force: bool,
    retirement: bool,
    distinct: Option<[u64; 2]>,
}

impl Validated {
    /// The rules this one supersedes, from `--supersedes` and the markers in its texts.
    fn superseded(&self) -> Vec<u64> {
        self.references.iter().map(|r| r.rule).collect()
    }
}

fn validate(request: &Request) -> Result<Validated, RulesError> {
    let category =
        Category::parse(&request.category).ok_or_else(|| RulesError::UnknownCategory {
            given: request.category.clone(),
            allowed: Category::list(),
            hint: crate::report::text::did_you_mean(&crate::report::text::closest(
                &normalize(&request.category),
                Category::ALL.map(Category::as_str),
            )),
        })?;
    let instruction = request.instruction.trim();
    if instruction.is_empty() {
        return Err(RulesError::EmptyField {
            field: "instruction",
        });
    }
    let why = request.why.trim();
    if why.is_empty() {
        return Err(RulesError::EmptyField { field: "why" });
    }
    // A rule is one line wherever it is shown: a line break could forge another rule, and
    // a bidirectional control could make it read as another (U+202E reverses what follows).
    for (field, text) in [("instruction", instruction), ("why", why)] {
        if text.chars().any(crate::report::text::is_hidden) {
            return Err(RulesError::ControlCharacter { field });
        }
        if let Some(c) = crate::report::text::first_invisible(text) {
            return Err(RulesError::InvisibleCharacter {
                field,
                code: u32::from(c),
            });
        }
        if let Some(kind) = super::secrets::find(text) {
            return Err(RulesError::Secret { field, kind });
        }
        let length = text.chars().count();
        if length > file::MAX_FIELD_CHARS {
            return Err(RulesError::TooLong {
                field,
                length,
                max: file::MAX_FIELD_CHARS,
            });
        }
    }
    let paths = validate_paths(&request.paths)?;
    if let Some(check) = &request.check {
        check
            .compile()
            .map_err(|problem| RulesError::InvalidCheck {
                pattern: check.pattern.clone(),
                flag: match check.kind {
                    super::pattern::Kind::Forbid => "--check",
                    super::pattern::Kind::Require => "--require",
                },
                problem,
            })?;
    }
    let mut supersedes = request.supersedes.clone();
    supersedes.sort_unstable();
    supersedes.dedup();
    let mut references: Vec<SupersedeReference> = supersedes
        .iter()
        .map(|&rule| SupersedeReference {
            rule,
            from: "--supersedes",
        })
        .collect();
    for (from, text) in [("Why", why), ("Instruction", instruction)] {
        for rule in supersede::markers(text) {
            if !references.iter().any(|r| r.rule == rule) {
                references.push(SupersedeReference { rule, from });
            }
        }
    }
    Ok(Validated {
        category,
        instruction: instruction.to_string(),
        why: with_marker(why, &supersedes),
        references,
        force: request.force,
        paths,
        check: request.check.clone(),
        retirement: request.retirement,
        distinct: request.distinct,
    })
}

/// The scope as it will be stored: each glob parsed, repeats dropped.
fn validate_paths(given: &[String]) -> Result<Vec<String>, RulesError> {
    let mut paths: Vec<String> = Vec::with_capacity(given.len());
    for glob in given {
        if !paths.contains(glob) {
            paths.push(glob.clone());
        }
    }
    scope::parse_scope(&paths).map_err(|error| RulesError::InvalidGlob {
        glob: error.glob,
        problem: error.problem,
    })?;
    Ok(paths)
}

/// `why (supersedes rule 1)`, or `(supersedes rules 1 and 3)`, unless `why` already says so.
fn with_marker(why: &str, supersedes: &[u64]) -> String {
    let present = supersede::markers(why);
    let missing: Vec<String> = supersedes
        .iter()
        .filter(|n| !present.contains(n))
        .map(u64::to_string)
        .collect();
    match missing.as_slice() {
        [] => why.to_string(),
        [one] => format!("{why} (supersedes rule {one})"),
        [init @ .., last] => format!("{why} (supersedes rules {} and {last})", init.join(", ")),
    }
}

/// Learns a rule into the rules file at `path` (created, with its directory, if absent).
pub(crate) fn learn(
    path: &Path,
    request: &Request,
    options: &Options,
) -> Result<Outcome, RulesError> {
    let rule = validate(request)?;
    let target = Fence::rules_file().resolve(path)?;
    target.check_writable()?;
    if options.dry_run {
        let source = super::read(&target.path)?.unwrap_or_default();
        let document = super::parse_strict(path, source)?;
        return plan(path, &document, &rule, Status::DryRun).map(|(outcome, _)| outcome);
    }
    let (locked, document, existed) = read_locked(path, options.lock_timeout)?;
    let (mut outcome, text) = plan(path, &document, &rule, Status::Learned)?;
    let Some(text) = text else {
        return Ok(outcome);
    };
    let rules = std::slice::from_ref(&outcome.rule);
    let warning = write_verified(path, &locked, &document, existed, &text, rules)?;
    outcome.warnings.extend(warning);
    Ok(outcome)
}

/// The one safe-write path, its first half: the sidecar lock, stale temp files swept, and
/// the file read again under it (another writer may have appended since we resolved); and
/// whether it existed.
fn read_locked(path: &Path, timeout: Duration) -> Result<(Locked, Document, bool), RulesError> {
    let locked = Fence::rules_file()
        .lock(path, timeout)
        .map_err(from_atomic)?;
    let source = super::read(&locked.target().path)?;
    let existed = source.is_some();
    let document = super::parse_strict(path, source.unwrap_or_default())?;
    Ok((locked, document, existed))
}

/// Its second half: `text` must read back as `document` and `rules` ([`verify`]), then
/// replaces the file, unless it changed since it was read. A write not flushed to disk
/// is a warning: the rules are saved.
fn write_verified(
    path: &Path,
    locked: &Locked,
    document: &Document,
    existed: bool,
    text: &Splice<'_>,
    rules: &[StoredRule],
) -> Result<Option<Diagnostic>, RulesError> {
    verify(path, document, text, rules)?;
    let pieces: Vec<&[u8]> = text.pieces().iter().map(|piece| piece.as_bytes()).collect();
    let expected = existed.then_some(document.source.as_bytes());
    let warning = locked.write(&pieces, expected).map_err(from_atomic)?;
    Ok(warning.map(|warning| Diagnostic::new(Code::NotFlushed, warning)))
}

/// What [`learn_all`] did: each request's outcome, or why that rule is not a valid one,
/// in order; and the file's warnings.
#[derive(Debug)]
pub(crate) struct Batch {
    pub outcomes: Vec<Result<Outcome, RulesError>>,
    pub warnings: Vec<Diagnostic>,
}

/// Learns `requests` in one locked write (`import`): each checked as `learn` checks it,
/// against the rules the file held and against the batch's rules before it in the same
/// words; numbered on from the highest; the new text read back, then written once. A
/// request that is not a valid rule is refused alone (its error in `outcomes`); a problem
/// with the file refuses them all. Rules of the batch near each other in other words are
/// the caller's to compare (`import` compares them before).
pub(crate) fn learn_all(
    path: &Path,
    requests: &[Request],
    lock_timeout: Duration,
) -> Result<Batch, RulesError> {
    let (locked, document, existed) = read_locked(path, lock_timeout)?;
    let numbers = sorted_numbers(&document);
    // The file's rules by their instruction as `same_instruction` compares it: one look-up
    // a request, not a scan of the file.
    let mut held: HashMap<String, Vec<usize>> = HashMap::new();
    for rule in document.rules() {
        if let Some(text) = rule.instruction().as_str() {
            held.entry(super::instruction_key(text))
                .or_default()
                .push(rule.index);
        }
    }
    let mut planned: Vec<StoredRule> = Vec::new();
    let mut planned_at: HashMap<(String, Vec<String>), usize> = HashMap::new();
    let mut outcomes = Vec::with_capacity(requests.len());
    for request in requests {
        let rule = match validate(request) {
            Ok(rule) => rule,
            Err(error) => {
                outcomes.push(Err(error));
                continue;
            }
        };
        let key = super::instruction_key(&rule.instruction);
        let candidates = held.get(&key).into_iter().flatten().copied();
        if let Some(existing) = holder(&document, &rule, candidates) {
            outcomes.push(Ok(duplicate(&existing)));
            continue;
        }
        let mut scope = rule.paths.clone();
        scope.sort_unstable();
        let key = (key, scope);
        if let Some(&at) = planned_at.get(&key) {
            outcomes.push(Ok(Outcome {
                status: Status::Duplicate,
                supersedes: Vec::new(),
                rule: planned[at].clone(),
                matches: Vec::new(),
                warnings: Vec::new(),
            }));
            continue;
        }
        let number = numbered(path, document.max_number(), planned.len() as u64 + 1)?;
        let mut outcome = plan_new(path, &document, &rule, Status::Learned, &numbers, number)?;
        if outcome.status != Status::Refused {
            planned_at.insert(key, planned.len());
            planned.push(outcome.rule.clone());
        }
        // The file's duplicate numbers are said once, not once a rule.
        if has_duplicate_numbers(&numbers) {
            outcome.warnings.clear();
        }
        outcomes.push(Ok(outcome));
    }
    let mut warnings = Vec::new();
    if has_duplicate_numbers(&numbers) && !planned.is_empty() {
        let message = format!(
            "{} has duplicate Rule_numbers; learned from {} (highest + 1). Run `autofix check`.",
            path.display(),
            planned[0].number
        );
        warnings.push(Diagnostic::new(Code::DuplicateRuleNumber, message));
    }
    if planned.is_empty() {
        return Ok(Batch { outcomes, warnings });
    }
    let text = splice_rules(&document, &planned);
    let warning = write_verified(path, &locked, &document, existed, &text, &planned)?;
    warnings.extend(warning);
    Ok(Batch { outcomes, warnings })
}

/// A lock failure stays a lock failure (it has its own message in every language).
fn from_atomic(error: AtomicError) -> RulesError {
    match error {
        AtomicError::Lock(error) => RulesError::Lock(error),
        other => RulesError::Write(other),
    }
}

/// Decides what learning means for this document: a duplicate (no text), or the new rule
/// and the new text.
fn plan<'a>(
    path: &Path,
    document: &'a Document,
    rule: &Validated,
    status: Status,
) -> Result<(Outcome, Option<Splice<'a>>), RulesError> {
    let candidates = document.rules().map(|existing| existing.index);
    if let Some(existing) = holder(document, rule, candidates) {
        return Ok((duplicate(&existing), None));
    }
    let numbers = sorted_numbers(document);
    let number = numbered(path, document.max_number(), 1)?;
    let outcome = plan_new(path, document, rule, status, &numbers, number)?;
    if outcome.status == Status::Refused {
        return Ok((outcome, None));
    }
    let text = splice(document, &outcome.rule);
    Ok((outcome, Some(text)))
}

/// The number of the `nth` rule appended (from 1) to a file whose highest is `highest`.
fn numbered(path: &Path, highest: u64, nth: u64) -> Result<u64, RulesError> {
    (highest.checked_add(nth))
        .filter(|n| *n <= MAX_RULE_NUMBER)
        .ok_or_else(|| RulesError::NumberOverflow {
            path: path.to_path_buf(),
        })
}

/// The outcome of appending `rule` as `number` to `document` (`numbers`: its rule numbers,
/// sorted), which holds no rule with its instruction: learned, or refused as a repeat or a
/// reversal of an active rule.
fn plan_new(
    path: &Path,
    document: &Document,
    rule: &Validated,
    status: Status,
    numbers: &[u64],
    number: u64,
) -> Result<Outcome, RulesError> {
    check_references(path, document, rule, numbers)?;
    let stored = StoredRule {
        number,
        category: rule.category.as_str().to_string(),
        instruction: rule.instruction.clone(),
        why: rule.why.clone(),
        paths: rule.paths.clone(),
        check: rule.check.clone(),
        retirement: rule.retirement,
        distinct: rule.distinct,
    };
    let mut warnings = Vec::new();
    if has_duplicate_numbers(numbers) {
        let message = format!(
            "{} has duplicate Rule_numbers; learned as {number} (highest + 1). Run `autofix check`.",
            path.display()
        );
        warnings.push(Diagnostic::new(Code::DuplicateRuleNumber, message));
    }
    let matches = strict_matches(document, rule);
    let refused = !matches.is_empty() && !rule.force;
    Ok(Outcome {
        status: if refused { Status::Refused } else { status },
        supersedes: if refused {
            Vec::new()
        } else {
            rule.references.clone()
        },
        rule: stored,
        matches,
        warnings,
    })
}

/// The outcome of learning a rule `existing` already holds: that rule, nothing written.
fn duplicate(existing: &file::Rule<'_>) -> Outcome {
    Outcome {
        status: Status::Duplicate,
        supersedes: Vec::new(),
        rule: StoredRule {
            number: existing.number().value().unwrap_or_default(),
            category: existing.category().display().to_string(),
            instruction: existing.instruction().display().to_string(),
            why: existing.why().display().to_string(),
            paths: existing
                .paths()
                .globs()
                .iter()
                .map(ToString::to_string)
                .collect(),
            check: match existing.check() {
                super::file::CheckField::Check(check) => Some(check.clone()),
                _ => None,
            },
            retirement: super::file::is_retirement(existing),
            distinct: super::file::distinct_pair(existing).map(|(a, b)| [a, b]),
        },
        matches: Vec::new(),
        warnings: Vec::new(),
    }
}

/// Every rule `rule` supersedes exists (`numbers` sorted), and when it retires them, each
/// is active.
fn check_references(
    path: &Path,
    document: &Document,
    rule: &Validated,
    numbers: &[u64],
) -> Result<(), RulesError> {
    for reference in &rule.references {
        if numbers.binary_search(&reference.rule).is_err() {
            return Err(RulesError::UnknownSupersedes {
                path: path.to_path_buf(),
                number: reference.rule,
                from: reference.from,
            });
        }
    }
    if rule.retirement {
        // Checked again under the lock: another writer may have retired it meanwhile.
        let resolution = supersede::resolve(document);
        for reference in &rule.references {
            let active = document.rules().any(|r| {
                r.number().value() == Some(reference.rule) && resolution.is_active(r.index)
            });
            if !active {
                return Err(RulesError::NotRetirable {
                    path: path.to_path_buf(),
                    number: reference.rule,
                });
            }
        }
    }
    if let Some(pair) = rule.distinct {
        // Checked again under the lock: another writer may have replaced one meanwhile.
        let resolution = supersede::resolve(document);
        for number in pair {
            let active = document
                .rules()
                .any(|r| r.number().value() == Some(number) && resolution.is_active(r.index));
            if !active {
                return Err(RulesError::NotActive {
                    path: path.to_path_buf(),
                    number,
                });
            }
        }
    }
    Ok(())
}

/// The active rule among `candidates` (indexes into `document`) that already holds
/// `rule`'s instruction, unless `rule` supersedes it.
fn holder<'d>(
    document: &'d Document,
    rule: &Validated,
    candidates: impl Iterator<Item = usize>,
) -> Option<file::Rule<'d>> {
    // Precedence (a scan of every rule's text) matters only when some rule holds the same
    // instruction, which is rare: find those first.
    let mut same: Vec<usize> = candidates
        .map(|index| document.rule(index))
        .filter(|existing| {
            existing
                .instruction()
                .as_str()
                .is_some_and(|text| same_instruction(text, &rule.instruction))
                && same_scope(&existing.paths(), &rule.paths)
        })
        .map(|existing| existing.index)
        .collect();
    if !same.is_empty() {
        // A rule the new one supersedes does not hold the instruction any more: learning
        // its text again with `--supersedes` consolidates, it is not a repeat.
        let replaced = rule.superseded();
        let resolution = supersede::resolve(document);
        same.retain(|&index| {
            resolution.is_active(index)
                && document
                    .rule(index)
                    .number()
                    .value()
                    .is_none_or(|n| !replaced.contains(&n))
        });
    }
    same.first().map(|&index| document.rule(index))
}

/// The active rules whose words `rule` says again or reverses ([`similar`]), except those
/// it supersedes. Precedence is resolved only when something matched, which is rare.
fn strict_matches(document: &Document, rule: &Validated) -> Vec<Match> {
    // Rules of another scope are other rules, however alike their words.
    let candidates = document
        .rules()
        .filter(|r| same_scope(&r.paths(), &rule.paths))
        .filter_map(|r| Some((r.number().value()?, r.instruction().as_str()?)));
    let mut matches = similar::matches(&rule.instruction, candidates);
    if matches.is_empty() {
        return matches;
    }
    let superseded = rule.superseded();
    let resolution = supersede::resolve(document);
    let active: std::collections::HashSet<u64> = document
        .rules()
        .filter(|r| resolution.is_active(r.index))
        .filter_map(|r| r.number().value())
        .collect();
    matches.retain(|m| active.contains(&m.rule) && !superseded.contains(&m.rule));
    matches
}

/// The same scope: the same globs, in any order (a rule without `Paths` is unscoped).
fn same_scope(existing: &file::Paths<'_>, new: &[String]) -> bool {
    let mut old: Vec<&str> = existing.globs().iter().map(AsRef::as_ref).collect();
    let mut new: Vec<&str> = new.iter().map(String::as_str).collect();
    old.sort_unstable();
    old.dedup();
    new.sort_unstable();
    (matches!(existing, file::Paths::Invalid(_)) && new.is_empty()) || old == new
}

/// The valid rule numbers, sorted (repeats kept).
fn sorted_numbers(document: &Document) -> Vec<u64> {
    let mut numbers: Vec<u64> = document
        .rules()
        .filter_map(|r| r.number().value())
        .collect();
    numbers.sort_unstable();
    numbers
}

fn has_duplicate_numbers(numbers: &[u64]) -> bool {
    numbers.windows(2).any(|pair| pair[0] == pair[1])
}

/// Whether the check read back is the one stored (none for none).
fn same_check(read: super::file::CheckField<'_>, stored: Option<&super::pattern::Check>) -> bool {
    match (read, stored) {
        (super::file::CheckField::Missing, None) => true,
        (super::file::CheckField::Check(read), Some(stored)) => read == stored,
        _ => false,
    }
}

/// The new text must read back as exactly the old rules (same bytes) plus the new ones.
/// `append` only inserts between the last rule and the closing `]`, so it is enough to
/// check that everything around the insertion is the old text, byte for byte, and that the
/// inserted text is one comma and the objects holding the new rules, in order: together
/// with the old text being a valid array (it was parsed), that makes the new text the old
/// array plus those objects, without parsing the whole file a second time.
fn verify(
    path: &Path,
    old: &Document,
    new: &Splice<'_>,
    rules: &[StoredRule],
) -> Result<(), RulesError> {
    let failed = || RulesError::Verify {
        path: path.to_path_buf(),
    };
    let source = old.source.as_str();
    let trimmed = source.trim_end();
    // The old text around the insertion: up to the last rule (or `[`), and from `]` on. A
    // file that was empty keeps only its BOM, and the insertion is a whole array.
    let (head, tail) = match trimmed.strip_suffix(']') {
        Some(before) => (before.trim_end(), &source[before.len()..]),
        None => (if old.has_bom { file::BOM } else { "" }, ""),
    };
    // `append` ends the text with a newline when the old one had none.
    if new.head != head || new.tail != tail || !["", "\n", "\r\n"].contains(&new.end) {
        return Err(failed());
    }
    let middle = new.inserted.trim();
    let wrapped = match (tail.is_empty(), old.is_empty()) {
        (true, _) => middle.to_string(),
        (false, true) => format!("[{middle}]"),
        (false, false) => format!("[{}]", middle.strip_prefix(',').ok_or_else(failed)?),
    };
    let new = file::parse(wrapped).map_err(|_| failed())?;
    let same_new = new.len() == rules.len()
        && (new.rules().zip(rules)).all(|(read, rule)| {
            read.number() == Number::Valid(rule.number)
                && read.category().as_str() == Some(&rule.category)
                && read.instruction().as_str() == Some(&rule.instruction)
                && read.why().as_str() == Some(&rule.why)
                && same_paths(&read.paths(), &rule.paths)
                && same_check(read.check(), rule.check.as_ref())
                && super::file::is_retirement(&read) == rule.retirement
                && super::file::distinct_pair(&read) == rule.distinct.map(|[a, b]| (a, b))
        });
    if same_new { Ok(()) } else { Err(failed()) }
}

/// The paths read back are exactly the paths written (none: no `Paths` field at all).
fn same_paths(read: &file::Paths<'_>, written: &[String]) -> bool {
    match read {
        file::Paths::Missing => written.is_empty(),
        file::Paths::Globs(globs) => !written.is_empty() && globs.iter().eq(written.iter()),
        file::Paths::Invalid(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn supersede_markers_are_readable_and_not_repeated() {
        assert_eq!(with_marker("pref", &[]), "pref");
        assert_eq!(with_marker("pref", &[1]), "pref (supersedes rule 1)");
        assert_eq!(
            with_marker("pref", &[1, 2, 3]),
            "pref (supersedes rules 1, 2 and 3)"
        );
        assert_eq!(with_marker("supersedes rule 1", &[1]), "supersedes rule 1");
        assert_eq!(supersede::markers(&with_marker("x", &[4, 5, 6])), [4, 5, 6]);
    }

    #[test]
    fn verify_accepts_every_append_and_refuses_tampering() {
        let path = Path::new("autofix.json");
        for source in [
            "",
            "  \n",
            "\u{feff}",
            "[]",
            "[ ]\n",
            "[\n]",
            "[{\"Rule_number\":1}]",
            "\u{feff}[\r\n  {\"Rule_number\": 1}\r\n]\r\n",
            "[\n    {\"Rule_number\": 1},\n    {\"Rule_number\": 5}\n]\n\n",
        ] {
            let document = file::parse_str(source).unwrap();
            let rule = StoredRule {
                number: document.max_number() + 1,
                category: "CODE".into(),
                instruction: "Always \"verify\"".into(),
                why: "w".into(),
                paths: if source.is_empty() {
                    vec!["src/**".into(), "!src/gen/".into()]
                } else {
                    Vec::new()
                },
                check: source.is_empty().then(|| crate::rules::pattern::Check {
                    kind: crate::rules::pattern::Kind::Forbid,
                    pattern: "console\\.log\"(".into(),
                }),
                retirement: false,
                distinct: None,
            };
            let text = splice(&document, &rule);
            verify(path, &document, &text, std::slice::from_ref(&rule))
                .unwrap_or_else(|e| panic!("{source:?}: {e}"));
            let other = StoredRule {
                why: "other".into(),
                ..rule.clone()
            };
            assert!(
                verify(path, &document, &text, std::slice::from_ref(&other)).is_err(),
                "{source:?}"
            );
            let rechecked = StoredRule {
                check: None,
                ..rule.clone()
            };
            assert_eq!(
                verify(path, &document, &text, std::slice::from_ref(&rechecked)).is_err(),
                rule.check.is_some(),
                "{source:?}"
            );
            let rescoped = StoredRule {
                paths: vec!["docs/**".into()],
                ..rule.clone()
            };
            assert!(
                verify(path, &document, &text, std::slice::from_ref(&rescoped)).is_err(),
                "{source:?}"
            );
            let no_comma = Splice {
                inserted: text.inserted.replacen(',', "", 1),
                ..text.clone()
            };
            if !document.is_empty() {
                assert!(
                    verify(path, &document, &no_comma, std::slice::from_ref(&rule)).is_err(),
                    "{source:?}"
                );
            }
            if let Some((last, _)) = text.head.char_indices().next_back() {
                let shorter_head = Splice {
                    head: &text.head[..last],
                    ..text.clone()
                };
                assert!(
                    verify(path, &document, &shorter_head, std::slice::from_ref(&rule)).is_err(),
                    "{source:?}"
                );
            }
            let renamed = Splice {
                inserted: text.inserted.replacen("Rule_number", "Rule_numbeR", 1),
                ..text.clone()
            };
            assert!(
                verify(path, &document, &renamed, std::slice::from_ref(&rule)).is_err(),
                "{source:?}"
            );
        }
    }

    #[test]
    fn categories_and_texts_are_checked() {
        let request = |category: &str, instruction: &str, why: &str| Request {
            category: category.into(),
            instruction: instruction.into(),
            why: why.into(),
            supersedes: vec![],
            force: false,
            paths: vec![],
            check: None,
            retirement: false,
            distinct: None,
        };
        assert_eq!(
            validate(&request("[code]", " Do x ", "y"))
                .unwrap()
                .instruction,
            "Do x"
        );
        assert!(matches!(
            validate(&request("UI", "Do x", "y")),
            Err(RulesError::UnknownCategory { .. })
        ));
        assert!(matches!(
            validate(&request("CODE", "  ", "y")),
            Err(RulesError::EmptyField {
                field: "instruction"
            })
        ));
        assert!(matches!(
            validate(&request("CODE", "x", "")),
            Err(RulesError::EmptyField { field: "why" })
        ));
    }
}
