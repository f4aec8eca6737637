//! `check`: the lint of the rules file. Errors are what makes a file unreliable (syntax,
//! shape, numbers, fields, supersede references); warnings are style (instructions that
//! are not imperative, repeated instructions).

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;

use super::budget::{self, Budget, Delivered};
use super::file::{self, Document, Number, ParseError, Rule, Supersedes, Text, rule_name};
use super::listing;
use super::similar::{self, Kind};
use super::supersede::{self, DanglingReason};
use super::{Category, RulesError, instruction_key};
use crate::report::diagnostics::{self, Code, Counts, Diagnostic};
use crate::report::jsonpos;
use crate::report::text::{self, JsonKind};

/// The outcome of `check`.
#[derive(Clone, Debug)]
pub(crate) struct Report {
    /// The rules file as shown to the user.
    pub path: String,
    pub exists: bool,
    pub rules: usize,
    pub diagnostics: Vec<Diagnostic>,
}

/// Lints `source` (`None`: no rules file, nothing to check). `path` is how the file is named
/// in diagnostics. A file that is not UTF-8 is a finding; one that cannot be read at all is
/// an error (the caller exits 2).
pub(crate) fn check(
    path: &Path,
    source: Result<Option<String>, RulesError>,
) -> Result<Report, RulesError> {
    check_with(path, source, &Context::default())
}

/// What `check` needs beyond the file: the budgets of the enabled export targets and hooks
/// (each with its target id) and what the delivered rules take in each, for
/// `rules-over-budget`, and the files git tracks, for `unmatched-scope` (see
/// [`crate::io::git::Git::tracked_files`]).
#[derive(Default)]
pub(crate) struct Context<'a> {
    pub budgets: &'a [(Budget, &'a str)],
    /// What the rules delivered to the agents take against a budget, given the local
    /// listing: supplied by the caller, who knows what else reaches them (the imported
    /// rules) and how the session hook renders it. `None`: the listing's text alone.
    pub delivered: Option<&'a Measure<'a>>,
    pub tracked: Option<&'a [String]>,
    /// The workspace root the tracked files are relative to, for `stale-path`.
    pub root: Option<&'a Path>,
    /// Whether to seek `near-rules` pairs with the sentence model.
    pub near_rules: bool,
    /// The git folder where the rules' vectors are kept (none: every rule read again).
    pub git_dir: Option<&'a Path>,
}

/// What the delivered rules take against a budget, given the local listing.
pub(crate) type Measure<'a> = dyn Fn(Budget, &listing::Listing) -> Delivered + 'a;

/// [`check`] with its context.
pub(crate) fn check_with(
    path: &Path,
    source: Result<Option<String>, RulesError>,
    context: &Context<'_>,
) -> Result<Report, RulesError> {
    let display = path.display().to_string();
    let mut report = Report {
        path: display,
        exists: true,
        rules: 0,
        diagnostics: Vec::new(),
    };
    let source = match source {
        Ok(Some(source)) => source,
        Ok(None) => {
            report.exists = false;
            return Ok(report);
        }
        Err(RulesError::NotUtf8 { line, column, .. }) => {
            report.diagnostics.push(
                Diagnostic::new(Code::InvalidJson, "the file is not valid UTF-8")
                    .in_file(path)
                    .at("", Some(diagnostics::Position::new(line, column))),
            );
            return Ok(report);
        }
        Err(other) => return Err(other),
    };
    match file::parse(source) {
        Ok(document) => {
            let document = Arc::new(document);
            report.rules = document.len();
            lint(path, &document, context, &mut report.diagnostics);
            report
                .diagnostics
                .extend(over_budget(path, &document, context));
            super::scope_check::lint(path, &document, context.tracked, &mut report.diagnostics);
            super::pattern_check::lint(path, &document, &mut report.diagnostics);
            if let (Some(tracked), Some(root)) = (context.tracked, context.root) {
                let repository = super::stale::Repository {
                    root,
                    tracked,
                    ignored: &|paths| crate::io::git::Git::new(root).ignored(paths),
                    history: &|names| super::stale::history_paths(root, names),
                };
                super::stale::lint(path, &document, &repository, &mut report.diagnostics);
            }
        }
        Err((error, source)) => report.diagnostics.push(shape_error(path, &source, error)),
    }
    diagnostics::sort(&mut report.diagnostics);
    Ok(report)
}

fn shape_error(path: &Path, source: &str, error: ParseError) -> Diagnostic {
    match error {
        ParseError::Syntax {
            line,
            column,
            message,
        } => {
            // A leftover conflict marker is reported at its own line, whatever serde saw.
            if let Some((line, marker)) = super::conflict_marker(source) {
                return Diagnostic::new(
                    Code::InvalidJson,
                    format!("leftover merge conflict marker `{marker}`"),
                )
                .in_file(path)
                .at("", Some(diagnostics::Position::new(line, 1)))
                .with_help(
                    "this is a leftover merge conflict marker: run `autofix resolve` to merge the rules again from git's index, or keep one side of each conflict",
                );
            }
            Diagnostic::new(Code::InvalidJson, message)
                .in_file(path)
                .at("", Some(diagnostics::Position::new(line, column)))
        }
        ParseError::NotArray { found } => Diagnostic::new(
            Code::NotAnArray,
            format!("the top level is {found}, not an array of rules"),
        )
        .in_file(path)
        .at("", jsonpos::locate(source, "")),
        ParseError::NotObject {
            index,
            offset,
            found,
        } => Diagnostic::new(
            Code::NotAnArray,
            format!(
                "element {} of the array is {found}, not a rule object",
                index + 1
            ),
        )
        .in_file(path)
        .at(format!("/{index}"), Some(jsonpos::position(source, offset))),
    }
}

/// The field that holds `rule`'s reference to `number`: the element of `Supersedes`,
/// else `Why` or `Instruction` where a marker names it; "" (the whole rule) otherwise.
fn reference_field(rule: &Rule<'_>, number: u64) -> String {
    if let Supersedes::Numbers(numbers) = &rule.supersedes()
        && let Some(at) = numbers.iter().position(|&n| n == number)
    {
        return format!("Supersedes/{at}");
    }
    for (field, text) in [("Why", &rule.why()), ("Instruction", &rule.instruction())] {
        if text
            .as_str()
            .is_some_and(|text| super::supersede::markers(text).contains(&number))
        {
            return field.to_string();
        }
    }
    String::new()
}

/// Where `field` of `rule` is, as a pointer and a position.
fn field_at(
    document: &Document,
    locator: &jsonpos::Locator,
    rule: &Rule<'_>,
    field: &str,
) -> (String, Option<diagnostics::Position>) {
    if field.is_empty() {
        let position = locator.position(&document.source, rule.offset);
        return (format!("/{}", rule.index), Some(position));
    }
    let pointer = format!("/{}/{field}", rule.index);
    let offset = jsonpos::find_pointer(rule.raw, &format!("/{field}")).unwrap_or(0);
    (
        pointer,
        Some(locator.position(&document.source, rule.offset + offset)),
    )
}

/// The fix for a problem in the rules file, where the code's general fix also speaks of
/// presets.
fn rules_help(code: Code) -> &'static str {
    match code {
        Code::InvalidField => {
            "Write texts as strings and `Supersedes` as a list of rule numbers; rules are never \
             edited, so for a published rule learn a new rule that supersedes this one."
        }
        _ => code.fix(),
    }
}

fn lint(path: &Path, document: &Document, context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let mut linter = Linter {
        path: path.into(),
        document,
        resolution: supersede::resolve(document),
        locator: jsonpos::Locator::default(),
        out,
    };
    {
        // Dropped before the consistency checks, where `check`'s memory peaks.
        let mut first_with_number: HashMap<u64, u64> = HashMap::new();
        for rule in document.rules() {
            linter.fields(&rule, &mut first_with_number);
        }
    }
    linter.precedence();
    let active = linter.active_instructions();
    let strict = lint_consistency(path, document, &linter.locator, &active, linter.out);
    if context.near_rules {
        let near = Near {
            active: &active,
            strict: &strict,
            git_dir: context.git_dir,
        };
        lint_near(path, document, &linter.locator, &near, linter.out);
    }
}

/// The state of one `lint`: where diagnostics go, and what every check needs.
struct Linter<'d> {
    /// The file's name, shared by its findings.
    path: std::sync::Arc<Path>,
    document: &'d Document,
    resolution: supersede::Resolution,
    /// One line index for every diagnostic's position: a file with a problem in each of
    /// n rules is located in O(n log n).
    locator: jsonpos::Locator,
    out: &'d mut Vec<Diagnostic>,
}

impl<'d> Linter<'d> {
    fn emit(&mut self, rule: &Rule<'_>, field: &str, code: Code, message: String) {
        let (pointer, position) = field_at(self.document, &self.locator, rule, field);
        let diagnostic = Diagnostic::new(code, message)
            .in_shared_file(std::sync::Arc::clone(&self.path))
            .at(pointer, position)
            .with_help(rules_help(code));
        // History judged by its fix: a superseded rule's problem has been dealt with.
        self.out.push(if self.resolution.is_active(rule.index) {
            diagnostic
        } else {
            diagnostic.in_history()
        });
    }

    /// One rule's own fields: its number (missing, invalid, repeated), category, texts and
    /// `Supersedes`.
    fn fields(&mut self, rule: &Rule<'_>, first_with_number: &mut HashMap<u64, u64>) {
        let name = rule_name(rule);
        if let Some(problem) = &rule.malformed() {
            self.emit(rule, "", Code::InvalidField, format!("{name}: {problem}"));
            return;
        }
        match rule.number() {
            Number::Missing => self.emit(
                rule,
                "",
                Code::MissingField,
                format!("{name} has no `Rule_number`"),
            ),
            Number::Invalid(raw) => self.emit(
                rule,
                "Rule_number",
                Code::InvalidRuleNumber,
                format!("{name}: `Rule_number` {raw} is not a positive integer below 2^63"),
            ),
            Number::Valid(n) => {
                if first_with_number.insert(n, n).is_some() {
                    self.emit(
                        rule,
                        "Rule_number",
                        Code::DuplicateRuleNumber,
                        format!("rule number {n} is used more than once"),
                    );
                }
            }
        }
        if let Text::Str(category) = &rule.category()
            && Category::parse(category).is_none()
        {
            let message = format!(
                "{name}: category `{category}` is not one of {}",
                Category::list()
            );
            self.emit(rule, "Category", Code::UnknownCategory, message);
        }
        self.texts(rule, &name);
        if let Supersedes::Invalid(raw) = &rule.supersedes() {
            let message = format!("{name}: `Supersedes` is {raw}, not an array of rule numbers");
            self.emit(rule, "Supersedes", Code::InvalidField, message);
        }
    }

    /// `Category`, `Instruction` and `Why`: present, strings, not empty.
    fn texts(&mut self, rule: &Rule<'_>, name: &str) {
        for (field, text) in [
            ("Category", &rule.category()),
            ("Instruction", &rule.instruction()),
            ("Why", &rule.why()),
        ] {
            let (at, code, message) = match text {
                Text::Missing => ("", Code::MissingField, format!("{name} has no `{field}`")),
                Text::Other(raw) => (
                    field,
                    Code::InvalidField,
                    format!(
                        "{name}: `{field}` is {}, not a string",
                        JsonKind::of_raw(raw).name()
                    ),
                ),
                Text::Str(text) if text.trim().is_empty() => (
                    field,
                    Code::EmptyText,
                    format!("{name}: `{field}` is empty"),
                ),
                Text::Str(_) => continue,
            };
            self.emit(rule, at, code, message);
        }
    }

    /// References that do not count, and rules superseded by more than one active rule.
    fn precedence(&mut self) {
        let document = self.document;
        let dangling = std::mem::take(&mut self.resolution.dangling);
        for found in &dangling {
            let rule = &document.rule(found.index);
            let reason = match found.reason {
                DanglingReason::Missing => "no rule has that number",
                DanglingReason::NotOlder => "only an older (lower-numbered) rule can be superseded",
            };
            let message = format!(
                "{} supersedes rule {}, but {reason}",
                rule_name(rule),
                found.reference
            );
            let field = reference_field(rule, found.reference);
            self.emit(rule, &field, Code::DanglingSupersedes, message);
        }
        self.resolution.dangling = dangling;
        // The rules holding each number, found once (not a scan per reference).
        let mut holders: HashMap<u64, Vec<usize>> = HashMap::new();
        for index in 0..document.len() {
            if let Some(number) = document.number(index) {
                holders.entry(number).or_default().push(index);
            }
        }
        for rule in document.rules() {
            let active_by: Vec<usize> = self.resolution.superseded_by[rule.index]
                .iter()
                .flat_map(|n| holders.get(n).into_iter().flatten().copied())
                .filter(|&index| self.resolution.is_active(index))
                .collect();
            if let [first, rest @ ..] = active_by.as_slice() {
                let first = document.rule(*first);
                for &later in rest {
                    let later = document.rule(later);
                    let message = format!(
                        "{} supersedes {}, which {} also supersedes",
                        rule_name(&later),
                        rule_name(&rule),
                        rule_name(&first)
                    );
                    self.emit(&later, "", Code::MultipleSupersedes, message);
                }
            }
        }
    }

    /// The style of the active rules (imperative, not repeated); returns each active
    /// instruction once, for the consistency checks.
    fn active_instructions(&mut self) -> Active<'d> {
        let document = self.document;
        let mut active = Active::default();
        let mut first_with_text: FirstWithText = FirstWithText::default();
        for rule in document.rules() {
            // A superseded rule is still in the file, and in its history: every rule.
            for (field, text) in [
                ("Instruction", rule.instruction().as_str()),
                ("Why", rule.why().as_str()),
            ] {
                if let Some(kind) = text.and_then(super::secrets::find) {
                    let message = format!(
                        "{}: its {} holds {kind}",
                        rule_name(&rule),
                        field.to_lowercase()
                    );
                    self.emit(&rule, field, Code::SecretInRule, message);
                }
            }
            if !self.resolution.is_active(rule.index) {
                continue;
            }
            let Some(instruction) = rule.instruction().as_str() else {
                continue;
            };
            if !instruction.trim().is_empty() && !is_imperative(instruction) {
                let message = format!(
                    "{}: \"{}\" does not read as an imperative",
                    rule_name(&rule),
                    // A credential is reported by `secret-in-rule`, never shown here.
                    text::clipped(&super::secrets::redacted(instruction), 60)
                );
                self.emit(&rule, "Instruction", Code::NotImperative, message);
            }
            if let Some(earlier) = first_with_text.earlier(document, rule.index, instruction) {
                let message = format!(
                    "{} repeats the instruction of {}",
                    rule_name(&rule),
                    rule_name(&document.rule(earlier))
                );
                self.emit(&rule, "Instruction", Code::DuplicateInstruction, message);
            } else {
                active.index.push(rule.index);
                active.text.push(instruction);
            }
        }
        active
    }
}

/// The active rules, each instruction once: their positions in the document, and their
/// instructions in a list of their own, which the strict relation and the model read as
/// it is. Two lists, not one of pairs copied into a list of texts: a file of 100k rules
/// keeps 3.2 MB here at `check`'s peak of memory, not 4.7 (heaptrack).
#[derive(Default)]
struct Active<'d> {
    index: Vec<usize>,
    text: Vec<&'d str>,
}

/// `rules-over-budget`: the active rules, as listed for an agent, against the smallest
/// budget that applies (in that budget's unit).
fn over_budget(path: &Path, document: &Arc<Document>, context: &Context<'_>) -> Option<Diagnostic> {
    let (smallest, target) = context
        .budgets
        .iter()
        .min_by_key(|(budget, _)| budget.limit())?;
    let query = listing::Query::default();
    let listing = listing::build(path.display().to_string(), Some(document.clone()), &query);
    let delivered = match context.delivered {
        Some(measure) => measure(*smallest, &listing),
        None => Delivered {
            rules: listing.counts.active,
            size: smallest.measure(&listing.plain_text()).0,
            tokens: listing.tokens,
        },
    };
    let limit = smallest.limit();
    if delivered.size <= limit {
        return None;
    }
    let message = format!(
        "the {} active rules take {} (about {} tokens), more than the smallest budget of the enabled targets, `{target}`: {}",
        delivered.rules,
        smallest.amount(delivered.size),
        delivered.tokens,
        smallest.describe()
    );
    let fitting = budget::tokens(limit);
    Some(
        Diagnostic::new(Code::RulesOverBudget, message)
            .in_file(path)
            .at("", jsonpos::locate(&document.source, ""))
            .with_help(format!(
                "{} `autofix rules --budget {fitting}` shows the rules that fit.",
                Code::RulesOverBudget.fix()
            )),
    )
}

/// `similar-rules` and `conflicting-rules` among the active rules (each instruction once:
/// exact repeats are `duplicate-instruction`), reported on the newer rule of each pair: the
/// strict relation ([`similar`]), the same directive in the same words or its reversal.
/// The pairs found, by the two rules' indices in the document.
fn lint_consistency(
    path: &Path,
    document: &Document,
    locator: &jsonpos::Locator,
    active: &Active<'_>,
    out: &mut Vec<Diagnostic>,
) -> HashSet<(usize, usize)> {
    let pairs = similar::pairs(&active.text);
    let found = (pairs.iter())
        .map(|pair| (active.index[pair.earlier], active.index[pair.later]))
        .collect();
    for pair in pairs {
        let Some((older, newer, old, new)) = ordered(document, active, pair.earlier, pair.later)
        else {
            continue;
        };
        let (code, relation) = match pair.kind {
            Kind::Duplicate => (Code::SimilarRules, "says the same as"),
            Kind::Contradiction => (Code::ConflictingRules, "reverses"),
        };
        let (pointer, position) = field_at(document, locator, &newer, "Instruction");
        out.push(
            Diagnostic::new(
                code,
                format!(
                    "rule {new} \"{}\" {relation} rule {old} \"{}\"",
                    text::clipped(newer.instruction().display(), 60),
                    text::clipped(older.instruction().display(), 60),
                ),
            )
            .in_file(path)
            .at(pointer, position)
            .with_help(format!(
                "Supersede one: learn the rule that holds again with `--supersedes {old} --supersedes {new}`, or learn a rule that supersedes only the one that does not."
            )),
        );
    }
    found
}

/// Two active rules (positions in `active`) as (older, newer, older's number, newer's),
/// when both have a valid number.
fn ordered<'d>(
    document: &'d Document,
    active: &Active<'_>,
    a: usize,
    b: usize,
) -> Option<(Rule<'d>, Rule<'d>, u64, u64)> {
    let (mut older, mut newer) = (
        document.rule(active.index[a]),
        document.rule(active.index[b]),
    );
    if older.number().value() > newer.number().value() {
        std::mem::swap(&mut older, &mut newer);
    }
    let (old, new) = (older.number().value()?, newer.number().value()?);
    Some((older, newer, old, new))
}

/// What `near-rules` compares: the active rules (document index, instruction), and the
/// pairs already in the strict relation (by document index), which are not noted twice.
struct Near<'a> {
    active: &'a Active<'a>,
    strict: &'a HashSet<(usize, usize)>,
    git_dir: Option<&'a Path>,
}

/// `near-rules`: pairs of active rules of the same scope that the sentence model finds
/// near ([`crate::meaning::near_pairs`]) and the strict relation does not judge, unless a
/// record says the two are distinct; each newer rule once, beside its nearest. Each is a
/// note, for the one who knows the project to settle: supersede one, retire one, or
/// record that they are distinct.
fn lint_near(
    path: &Path,
    document: &Document,
    locator: &jsonpos::Locator,
    near: &Near<'_>,
    out: &mut Vec<Diagnostic>,
) {
    let active = near.active;
    if active.text.len() > crate::meaning::MAX_COMPARED {
        out.push(
            Diagnostic::new(
                Code::NearRules,
                format!(
                    "near rules not sought: {} active rules, past {}",
                    active.text.len(),
                    crate::meaning::MAX_COMPARED
                ),
            )
            .in_file(path),
        );
        return;
    }
    // Only what `learn` accepts of an instruction is compared: a rule past it is an error
    // already, and reading megabytes of it would cost the model's memory many times over.
    let mut compared = Active::default();
    for (&index, &text) in active.index.iter().zip(&active.text) {
        if text.chars().count() <= super::file::MAX_FIELD_CHARS {
            compared.index.push(index);
            compared.text.push(text);
        }
    }
    let active = compared;
    if active.text.len() < 2 {
        return;
    }
    let mut cache = crate::meaning::Cache::open(near.git_dir);
    let Ok(pairs) = crate::meaning::near_pairs(&active.text, &mut cache) else {
        return;
    };
    cache.save();
    let distinct = super::distinct::pairs(document);
    let mut found = Vec::new();
    // Each rule once, beside the older rule nearest it: a topic of four rules is three
    // notes, not six, and settling one shows the next.
    let mut noted = std::collections::HashSet::new();
    for pair in pairs {
        if near
            .strict
            .contains(&(active.index[pair.earlier], active.index[pair.later]))
        {
            continue;
        }
        let Some((older, newer, old, new)) = ordered(document, &active, pair.earlier, pair.later)
        else {
            continue;
        };
        let scope = |rule: &Rule<'_>| {
            let mut globs: Vec<String> = rule.paths().globs().to_vec();
            globs.sort_unstable();
            globs
        };
        // Two rules under one number are `duplicate-rule-number`'s to report.
        if old == new || distinct.contains(&(old, new)) || scope(&older) != scope(&newer) {
            continue;
        }
        if !noted.insert(new) {
            continue;
        }
        let (pointer, position) = field_at(document, locator, &newer, "Instruction");
        found.push(
            Diagnostic::new(
                Code::NearRules,
                format!(
                    "rule {new} \"{}\" comes near rule {old} \"{}\" (cosine {:.2})",
                    text::clipped(newer.instruction().display(), 60),
                    text::clipped(older.instruction().display(), 60),
                    pair.score
                ),
            )
            .in_file(path)
            .at(pointer, position)
            .with_help(format!(
                "If one replaces the other, learn the rule that holds with `--supersedes {old}` (or `--supersedes {new}`); if one no longer holds, `autofix retire {old}`; if both hold, `autofix distinct {old} {new} --why \"…\"` records it and silences this note."
            )),
        );
    }
    out.extend(found);
}

/// The first rule of each instruction, as `same_instruction` compares them, so a file of
/// 100k rules is not compared pair by pair. Kept by the key's hash (random keys), not a
/// copy of every text: two texts of one hash are compared by their keys, and the rare
/// second text of a hash is kept whole.
#[derive(Default)]
struct FirstWithText<S = std::collections::hash_map::RandomState> {
    hasher: S,
    by_hash: HashMap<u64, usize>,
    collided: HashMap<String, usize>,
}

impl<S: std::hash::BuildHasher> FirstWithText<S> {
    /// The earlier rule with `instruction`, or `None` (then rule `index` is the first).
    fn earlier(&mut self, document: &Document, index: usize, instruction: &str) -> Option<usize> {
        let key = instruction_key(instruction);
        let hash = self.hasher.hash_one(&key);
        let Some(&first) = self.by_hash.get(&hash) else {
            self.by_hash.insert(hash, index);
            return None;
        };
        let first_key = (document.rule(first).instruction().as_str()).map(instruction_key);
        if first_key.as_deref() == Some(key.as_str()) {
            return Some(first);
        }
        match self.collided.get(&key) {
            Some(&earlier) => Some(earlier),
            None => {
                self.collided.insert(key, index);
                None
            }
        }
    }
}

/// Words that open a statement, not a command.
const NON_IMPERATIVE_OPENERS: &[&str] = &[
    "the", "a", "an", "this", "that", "these", "those", "it", "its", "it's", "we", "i", "you",
    "they", "he", "she", "our", "my", "your", "their", "there", "here", "all", "some", "most",
];
/// A second word that makes the first a subject: "Functions should be pure".
const STATEMENT_VERBS: &[&str] = &[
    "should", "must", "is", "are", "was", "were", "will", "can", "may", "has", "have", "needs",
    "seems", "looks", "uses",
];

/// A heuristic: an instruction reads as an imperative unless it opens with an article or
/// pronoun, with an `-ing`/`-ed` form ("Using", "Added"), or with a subject followed by a
/// modal or copula ("Tests should ..."). Conditions ("When ..., do ...") pass.
pub(crate) fn is_imperative(instruction: &str) -> bool {
    let mut words = instruction
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
                .to_lowercase()
        })
        .filter(|w| !w.is_empty());
    let Some(first) = words.next() else {
        return true;
    };
    if NON_IMPERATIVE_OPENERS.contains(&first.as_str()) {
        return false;
    }
    if first.len() >= 5 && first.ends_with("ing") && first != "bring" {
        return false;
    }
    if first.len() > 4
        && first.ends_with("ed")
        && !["embed", "proceed", "exceed", "succeed"].contains(&first.as_str())
    {
        return false;
    }
    !words
        .next()
        .is_some_and(|second| STATEMENT_VERBS.contains(&second.as_str()))
}

impl Report {
    pub(crate) fn counts(&self) -> Counts {
        Counts::of(&self.diagnostics)
    }

    pub(crate) fn has_errors(&self) -> bool {
        self.counts().errors > 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_rule_of_each_instruction_survives_colliding_hashes() {
        let source = r#"[
  {"Rule_number": 1, "Category": "CODE", "Instruction": "Use tabs", "Why": "w"},
  {"Rule_number": 2, "Category": "CODE", "Instruction": "Use pnpm", "Why": "w"},
  {"Rule_number": 3, "Category": "CODE", "Instruction": " use TABS ", "Why": "w"},
  {"Rule_number": 4, "Category": "CODE", "Instruction": "USE PNPM", "Why": "w"},
  {"Rule_number": 5, "Category": "CODE", "Instruction": "Use yarn", "Why": "w"}
]"#;
        let document = crate::rules::file::parse(source.to_string()).unwrap();
        type Colliding = std::hash::BuildHasherDefault<crate::rules::similar::tests::Colliding>;
        let mut first: FirstWithText<Colliding> = FirstWithText::default();
        let earlier: Vec<Option<usize>> = (document.rules())
            .map(|rule| first.earlier(&document, rule.index, rule.instruction().as_str().unwrap()))
            .collect();
        assert_eq!(earlier, [None, None, Some(0), Some(1), None]);
    }

    fn codes(source: &str) -> Vec<(Code, Option<diagnostics::Position>, Option<String>)> {
        check(Path::new("a.json"), Ok(Some(source.to_string())))
            .expect("text that was read always lints")
            .diagnostics
            .into_iter()
            .map(|d| (d.code, d.position, d.help.map(String::from)))
            .collect()
    }

    #[test]
    fn two_active_rules_superseding_one_rule_warn() {
        let rule = |n: u64, why: &str| {
            format!(
                r#"{{"Rule_number": {n}, "Category": "CODE", "Instruction": "Always {n}", "Why": "{why}"}}"#
            )
        };
        let both = format!(
            "[{}, {}, {}]",
            rule(1, "x"),
            rule(2, "supersedes rule 1"),
            rule(3, "supersedes rule 1")
        );
        let found = codes(&both);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, Code::MultipleSupersedes);
        // A chain is not a conflict: 3 replaces both 1 and 2.
        let chain = format!(
            "[{}, {}, {}]",
            rule(1, "x"),
            rule(2, "supersedes rule 1"),
            rule(3, "supersedes rules 1 and 2")
        );
        assert!(codes(&chain).is_empty());
    }

    #[test]
    fn conflict_markers_are_reported_at_their_line() {
        let found = codes("[\n  {\"Rule_number\": 1,\n<<<<<<< HEAD\n\"Why\": \"a\"}\n=======\n]\n");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0, Code::InvalidJson);
        assert_eq!(
            found[0].1,
            Some(diagnostics::Position { line: 3, column: 1 })
        );
        assert!(found[0].2.as_deref().unwrap().contains("autofix resolve"));
    }

    #[test]
    fn imperative_heuristic() {
        for good in [
            "Always use named exports",
            "Never commit secrets - because leaks.",
            "Use pnpm, not npm",
            "When a test fails, read the log first",
            "Prefer composition",
            "Don't mock the database",
            "Embed assets at build time",
        ] {
            assert!(is_imperative(good), "{good}");
        }
        for bad in [
            "The API returns JSON",
            "We use tabs",
            "Using tabs everywhere",
            "Added a retry",
            "Functions should be pure",
            "Tests must pass",
        ] {
            assert!(!is_imperative(bad), "{bad}");
        }
    }
}
