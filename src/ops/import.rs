//! `autofix import`: adopt the rules a team already wrote by hand. The hand-written files
//! are read ([`crate::export::handwritten`]), each rule found is compared with the active
//! rules and with the rules found before it (the shared matcher), and the rest is what
//! would be added. With `write`, each is learned through the one learn path (locked,
//! atomic, numbered highest + 1); with `move_lines` too, the lines of every rule the rules
//! file now holds in the same words are taken out of the hand-written file (every other
//! byte kept) so that the agent reads each rule once, from autofix's copy; a line held
//! only in other words stays. Then the exported copies are refreshed once.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;

use crate::export::handwritten::{self, Found, HandFile, Skipped};
use crate::io::atomic::AtomicError;
use crate::io::safe_write::Fence;
use crate::io::workspace::Workspace;
use crate::ops::learning::{self, Refreshed};
use crate::report::diagnostics::Diagnostic;
use crate::rules::similar::{self, Kind};
use crate::rules::{self, RulesError, learn, listing};
use crate::text::{directive, words_only};

/// One `import` run.
#[derive(Clone, Debug)]
pub(crate) struct Request {
    /// Only these hand-written files (relative to the root); empty: every one found.
    pub only: Vec<String>,
    /// Add the rules (else: a preview).
    pub write: bool,
    /// Take the imported lines out of the hand-written files.
    pub move_lines: bool,
    pub lock_timeout: Duration,
}

/// Why `import` could not run (exit 2).
#[derive(Debug, thiserror::Error)]
pub(crate) enum ImportError {
    #[error(transparent)]
    Rules(#[from] RulesError),
    #[error(
        "{0} is not a hand-written rule file autofix reads (CLAUDE.md, .claude/rules/*.md, \
         AGENTS.md, GEMINI.md, .cursor/rules/*.mdc, .cursorrules, .windsurfrules, .github/copilot-instructions.md, \
         .github/instructions/*.instructions.md, .clinerules), or it does not exist"
    )]
    NotRuleFile(String),
}

/// What becomes of a rule found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Verdict {
    /// Would be added (a preview).
    Add,
    /// Added.
    Added,
    /// An active rule states it already.
    RepeatsRule,
    /// A rule found before it in the hand-written files states it.
    RepeatsFound,
    /// It contradicts an active rule, or a rule found before it: not added.
    Contradicts,
    /// `learn` refused it (a glob it cannot read, a character a rule may not hold).
    Refused,
}

impl Verdict {
    /// Whether autofix holds the rule once the run is done: its lines may be moved out.
    pub(crate) fn held(self) -> bool {
        matches!(
            self,
            Verdict::Add | Verdict::Added | Verdict::RepeatsRule | Verdict::RepeatsFound
        )
    }
}

/// A rule found, and what becomes of it.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Item {
    #[serde(flatten)]
    pub found: Found,
    pub category: &'static str,
    pub why: String,
    pub status: Verdict,
    /// The number it got (or would get), or the active rule it repeats or contradicts.
    pub rule: Option<u64>,
    /// The rule found before it that it repeats or contradicts (`CLAUDE.md:5`).
    pub earlier: Option<String>,
    /// Its position among the items, for a repeat: held only while that one is.
    #[serde(skip)]
    pub earlier_at: Option<usize>,
    /// Why `learn` refused it.
    pub message: Option<String>,
    /// Held, but not in these words: with `--move`, its lines stay in their file, since
    /// taking them out could lose what only they say.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub stays: bool,
    /// For a rule to add, the rule the sentence model finds nearest it, if near: an
    /// active rule or one found before it, for the person to settle after the import
    /// (`check` then notes the pair).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub near: Option<NearTo>,
}

/// The rule near a rule to import: an active rule (`rule`) or one found before it
/// (`place`, `CLAUDE.md:5`), and the cosine.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct NearTo {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub place: Option<String>,
    pub score: f64,
}

/// What a move did (or would do) to one hand-written file.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Moved {
    pub file: String,
    /// Lines taken out.
    pub lines: usize,
    /// Headings taken out with them: each left over nothing but blank lines.
    pub headings: usize,
    /// `updated`, `removed` (nothing but frontmatter, blank lines or, in a rule folder,
    /// headings was left), `would-update` and `would-remove` in a preview, or `refused`.
    pub status: &'static str,
    pub message: Option<String>,
}

/// The result of a run.
#[derive(Debug)]
pub(crate) struct Report {
    pub write: bool,
    pub move_lines: bool,
    pub rules_file: String,
    /// The hand-written files read, with the agents that read each and the format's
    /// documentation.
    pub files: Vec<(String, Vec<&'static str>, &'static str)>,
    pub items: Vec<Item>,
    pub skipped: Vec<Skipped>,
    pub moved: Vec<Moved>,
    pub exports: Vec<Refreshed>,
    pub warnings: Vec<Diagnostic>,
}

impl Report {
    /// 1 when a rule could not be imported (a contradiction, a refusal), a file could not
    /// be read or a move was refused; else 0.
    pub(crate) fn exit_code(&self) -> u8 {
        let problem = self
            .items
            .iter()
            .any(|i| matches!(i.status, Verdict::Contradicts | Verdict::Refused))
            || self.moved.iter().any(|m| m.status == "refused")
            || (self.skipped.iter()).any(|s| s.kind == handwritten::Kind::Unreadable);
        u8::from(problem)
    }
}

/// Runs `import` in the workspace.
pub(crate) fn run(workspace: &Workspace, request: &Request) -> Result<Report, ImportError> {
    let root = &workspace.root;
    let only = (!request.only.is_empty()).then_some(request.only.as_slice());
    let reading = handwritten::read(root, only);
    for given in &request.only {
        let given_path = given.trim_start_matches("./");
        let found = reading
            .files
            .iter()
            .map(|f| f.path.as_str())
            .chain(reading.skipped.iter().map(|s| s.file.as_str()))
            .any(|path| path.eq_ignore_ascii_case(given_path));
        if !found {
            return Err(ImportError::NotRuleFile(given.clone()));
        }
    }
    let document = rules::load(workspace.shown_path())?;
    let next = document.as_ref().map_or(0, rules::Document::max_number) + 1;
    let listing = listing::build(
        workspace.shown.clone(),
        document.map(Arc::new),
        &listing::Query::default(),
    );
    let active = handwritten::active_rules(&listing);
    let mut rules_then: Vec<(String, Vec<String>)> = (active.iter())
        .map(|(_, text, paths)| (text.to_string(), paths.to_vec()))
        .collect();
    let facts = crate::export::targets::Facts::of(root);
    let mut report = Report {
        write: request.write,
        move_lines: request.move_lines,
        rules_file: workspace.shown.clone(),
        files: (reading.files.iter())
            .map(|f| (f.path.clone(), f.readers(&facts), f.format.source))
            .collect(),
        items: judge(&reading.rules, &active, next),
        skipped: reading.skipped.clone(),
        moved: Vec::new(),
        exports: Vec::new(),
        warnings: Vec::new(),
    };
    refuse_what_an_import_holds(workspace, &mut report.items);
    mark_near(workspace, &mut report.items, &active);
    if request.write {
        learn_all(workspace, request, &mut report)?;
    }
    drop_repeats_of_what_is_not_held(&mut report.items);
    if request.move_lines {
        rules_then.extend(
            (report.items.iter())
                .filter(|i| matches!(i.status, Verdict::Add | Verdict::Added))
                .map(|i| (i.found.instruction.clone(), i.found.paths.clone())),
        );
        keep_what_no_rule_words(&mut report.items, &rules_then);
        report.moved = move_out(workspace, request, &reading.files, &report.items);
    }
    let changed = (report.items.iter()).any(|i| i.status == Verdict::Added)
        || (report.moved.iter()).any(|m| matches!(m.status, "updated" | "removed"));
    if request.write && changed {
        let (exports, warnings) = learning::refresh(workspace, "the rules are imported, but");
        report.exports = exports;
        report.warnings.extend(warnings);
    }
    Ok(report)
}

/// What becomes of each rule found: a repeat of an active rule or of a rule found before
/// it (the same words, or the same rule in other words), a contradiction, or a rule to add
/// (numbered from `next`).
fn judge(found: &[Found], active: &[handwritten::ActiveRule<'_>], next: u64) -> Vec<Item> {
    let mut items: Vec<Item> = found
        .iter()
        .map(|found| {
            let category = found.category().as_str();
            Item {
                why: format!("Imported from {} by `autofix import`", found.place()),
                found: found.clone(),
                category,
                status: Verdict::Add,
                rule: None,
                earlier: None,
                earlier_at: None,
                message: None,
                stays: false,
                near: None,
            }
        })
        .collect();
    for item in &mut items {
        if let Some((status, rule)) = against_active(&item.found, active) {
            item.status = status;
            item.rule = Some(rule);
        }
    }
    let texts: Vec<&str> = found.iter().map(|f| f.instruction.as_str()).collect();
    let mut later_of: Vec<(usize, usize, Kind)> = similar::pairs(&texts)
        .into_iter()
        .map(|pair| (pair.earlier, pair.later, pair.kind))
        .collect();
    // The same words are the same rule, whatever the matcher makes of them: each later
    // one repeats the first of its scope (keyed as `same_globs` compares scopes, so a long
    // file is read once, not once a line).
    let mut first_of: std::collections::HashMap<(String, Vec<&str>), usize> =
        std::collections::HashMap::new();
    for (at, found) in found.iter().enumerate() {
        let mut scope: Vec<&str> = found.paths.iter().map(String::as_str).collect();
        scope.sort_unstable();
        scope.dedup();
        let key = (rules::instruction_key(texts[at]), scope);
        match first_of.get(&key) {
            Some(&earlier) => later_of.push((earlier, at, Kind::Duplicate)),
            None => _ = first_of.insert(key, at),
        }
    }
    later_of.sort_by_key(|&(earlier, later, _)| (later, earlier));
    for (earlier, later, kind) in later_of {
        let same_scope = handwritten::same_globs(&found[earlier].paths, &found[later].paths);
        if !same_scope || items[later].status != Verdict::Add {
            continue;
        }
        items[later].status = match kind {
            Kind::Duplicate => Verdict::RepeatsFound,
            Kind::Contradiction => Verdict::Contradicts,
        };
        items[later].earlier = Some(found[earlier].place());
        items[later].earlier_at = Some(earlier);
    }
    let adding = items.iter_mut().filter(|i| i.status == Verdict::Add);
    for (number, item) in (next..).zip(adding) {
        item.rule = Some(number);
    }
    items
}

/// Marks each rule to add with the rule nearest it, if near ([`crate::meaning::near_pairs`],
/// as `check` finds pairs): an active rule of the same scope or a rule to add found before
/// it. Said before anything is written; past [`crate::meaning::MAX_COMPARED`] rules,
/// nothing is sought.
fn mark_near(workspace: &Workspace, items: &mut [Item], active: &[handwritten::ActiveRule<'_>]) {
    let adding: Vec<usize> = (0..items.len())
        .filter(|&at| items[at].status == Verdict::Add)
        .collect();
    let total = active.len() + adding.len();
    if adding.is_empty() || total > crate::meaning::MAX_COMPARED {
        return;
    }
    let mut texts: Vec<&str> = active.iter().map(|(_, text, _)| *text).collect();
    texts.extend(
        adding
            .iter()
            .map(|&at| items[at].found.instruction.as_str()),
    );
    let mut cache = crate::meaning::Cache::of_work_tree(&workspace.root);
    let Ok(pairs) = crate::meaning::near_pairs(&texts, &mut cache) else {
        return;
    };
    cache.save();
    let paths_of = |at: usize| -> &[String] {
        match at.checked_sub(active.len()) {
            None => active[at].2,
            Some(found) => &items[adding[found]].found.paths,
        }
    };
    let mut marks: Vec<(usize, NearTo)> = Vec::new();
    for pair in pairs {
        let Some(later) = pair.later.checked_sub(active.len()).map(|at| adding[at]) else {
            continue;
        };
        let same_scope = handwritten::same_globs(paths_of(pair.earlier), paths_of(pair.later));
        if !same_scope || marks.iter().any(|(at, _)| *at == later) {
            continue;
        }
        let near = match pair.earlier.checked_sub(active.len()) {
            None => NearTo {
                rule: Some(active[pair.earlier].0),
                place: None,
                score: (f64::from(pair.score) * 100.0).round() / 100.0,
            },
            Some(found) => NearTo {
                rule: None,
                place: Some(items[adding[found]].found.place()),
                score: (f64::from(pair.score) * 100.0).round() / 100.0,
            },
        };
        marks.push((later, near));
    }
    for (at, near) in marks {
        items[at].near = Some(near);
    }
}

/// A rule that repeats or reverses a rule imported from a git source is refused as `learn`
/// refuses it (a locked one whatever the flags): `learn`'s front ends ask the sources'
/// layers before the learn path, and so does `import`.
fn refuse_what_an_import_holds(workspace: &Workspace, items: &mut [Item]) {
    let Some(imports) = crate::sources::layers::Imports::open(workspace) else {
        return;
    };
    for item in items.iter_mut().filter(|i| i.status == Verdict::Add) {
        let request = learn::Request {
            category: item.category.to_string(),
            instruction: item.found.instruction.clone(),
            why: item.why.clone(),
            paths: item.found.paths.clone(),
            ..Default::default()
        };
        match imports.refusal(workspace, &request) {
            Some(crate::sources::layers::NotLearned::Refused(why)) => {
                item.status = Verdict::Refused;
                item.rule = None;
                item.message = Some(why);
            }
            Some(crate::sources::layers::NotLearned::Repeat { message, .. }) => {
                item.status = Verdict::RepeatsRule;
                item.rule = None;
                item.message = Some(message);
            }
            None => {}
        }
    }
}

/// A rule found that repeats one found before it is held only while that one is: when the
/// earlier was refused or contradicts a rule, the later is not in autofix either, and its
/// lines must stay where they are.
fn drop_repeats_of_what_is_not_held(items: &mut [Item]) {
    for at in 0..items.len() {
        let Some(earlier) = items[at].earlier_at else {
            continue;
        };
        if items[at].status == Verdict::RepeatsFound && !items[earlier].status.held() {
            let place = items[earlier].found.place();
            items[at].status = Verdict::Refused;
            items[at].message = Some(format!("the rule it repeats ({place}) was not added"));
        }
    }
}

/// A held rule whose words no rule of the rules file holds for the same paths (see
/// [`rules::holds_words_of`]) stays in its file: a repeat judged by meaning may say
/// something its rule does not.
fn keep_what_no_rule_words(items: &mut [Item], rules_then: &[(String, Vec<String>)]) {
    let scope = |paths: &[String]| {
        let mut globs: Vec<String> = paths.to_vec();
        globs.sort_unstable();
        globs.dedup();
        globs
    };
    // Each rule's words, whole and without its reason, as `holds_words_of` compares them:
    // one look-up a line, not a scan of the rules.
    let worded: std::collections::HashSet<(String, Vec<String>)> = (rules_then.iter())
        .flat_map(|(rule, paths)| {
            let whole = words_only(rule);
            let directive = words_only(directive(rule));
            [(whole, scope(paths)), (directive, scope(paths))]
        })
        .collect();
    for item in items.iter_mut().filter(|i| i.status.held()) {
        let key = (
            words_only(&item.found.instruction),
            scope(&item.found.paths),
        );
        item.stays = !worded.contains(&key);
    }
}

/// The active rule of the same scope that `found` repeats or contradicts.
fn against_active(found: &Found, active: &[handwritten::ActiveRule<'_>]) -> Option<(Verdict, u64)> {
    if let Some(rule) = handwritten::repeated(found, active) {
        return Some((Verdict::RepeatsRule, rule));
    }
    let same_scope = active
        .iter()
        .filter(|(_, _, paths)| handwritten::same_globs(paths, &found.paths))
        .map(|(number, text, _)| (*number, *text));
    similar::matches(&found.instruction, same_scope)
        .into_iter()
        .find(|m| m.kind == Kind::Contradiction)
        .map(|m| (Verdict::Contradicts, m.rule))
}

/// Learns every rule to add in one locked write ([`learn::learn_all`]), which checks each
/// again under the lock (another writer may have learned it meanwhile).
fn learn_all(
    workspace: &Workspace,
    request: &Request,
    report: &mut Report,
) -> Result<(), ImportError> {
    let mut adding: Vec<&mut Item> = (report.items.iter_mut())
        .filter(|i| i.status == Verdict::Add)
        .collect();
    let requests: Vec<learn::Request> = (adding.iter())
        .map(|item| learn::Request {
            category: item.category.to_string(),
            instruction: item.found.instruction.clone(),
            why: item.why.clone(),
            paths: item.found.paths.clone(),
            ..Default::default()
        })
        .collect();
    let batch = learn::learn_all(workspace.shown_path(), &requests, request.lock_timeout)?;
    for (item, outcome) in adding.iter_mut().zip(batch.outcomes) {
        let outcome = match outcome {
            Ok(outcome) => outcome,
            Err(error) if refuses_the_rule(&error) => {
                item.status = Verdict::Refused;
                item.rule = None;
                item.message = Some(error.to_string());
                if matches!(error, RulesError::Secret { .. }) {
                    // The report names the kind; the value is shown nowhere.
                    item.found.instruction =
                        crate::rules::secrets::redacted(&item.found.instruction);
                }
                continue;
            }
            Err(error) => return Err(error.into()),
        };
        (item.status, item.rule) = match outcome.status {
            learn::Status::Duplicate => (Verdict::RepeatsRule, Some(outcome.rule.number)),
            learn::Status::Refused => match outcome.matches.first() {
                Some(m) if m.kind == Kind::Contradiction => (Verdict::Contradicts, Some(m.rule)),
                Some(m) => (Verdict::RepeatsRule, Some(m.rule)),
                None => (Verdict::Refused, None),
            },
            learn::Status::Learned | learn::Status::DryRun => {
                (Verdict::Added, Some(outcome.rule.number))
            }
        };
        report.warnings.extend(outcome.warnings);
    }
    report.warnings.extend(batch.warnings);
    Ok(())
}

/// Errors about the rule itself, not the rules file: that rule is not imported, the others
/// are.
fn refuses_the_rule(error: &RulesError) -> bool {
    matches!(
        error,
        RulesError::InvalidGlob { .. }
            | RulesError::TooLong { .. }
            | RulesError::ControlCharacter { .. }
            | RulesError::InvisibleCharacter { .. }
            | RulesError::Secret { .. }
            | RulesError::EmptyField { .. }
    )
}

/// Takes the lines of every rule autofix holds out of its hand-written file (or says what
/// it would take, in a preview): the rest of the file byte for byte; a file left with
/// nothing but its frontmatter and blank lines (in a rule folder, headings too) is
/// removed.
fn move_out(
    workspace: &Workspace,
    request: &Request,
    files: &[HandFile],
    items: &[Item],
) -> Vec<Moved> {
    let fence =
        Fence::repository(&workspace.root, &workspace.rules_file).naming_below(&[&workspace.root]);
    let mut moved = Vec::new();
    for file in files {
        let mut ranges: Vec<(usize, usize)> = items
            .iter()
            .filter(|i| i.found.file == file.path && i.status.held() && !i.stays)
            .flat_map(|i| i.found.ranges.iter().copied())
            .collect();
        if ranges.is_empty() {
            continue;
        }
        let taken_lines = ranges.len();
        let headings = emptied_headings(&file.text, &mut ranges);
        ranges.sort_unstable();
        let mut kept = String::with_capacity(file.text.len());
        let mut at = 0;
        for &(start, next) in &ranges {
            kept.push_str(&file.text[at..start]);
            at = next;
        }
        kept.push_str(&file.text[at..]);
        let empty = nothing_left(&kept, file.format.is_folder());
        let mut entry = Moved {
            file: file.path.clone(),
            lines: taken_lines,
            headings,
            status: match (request.write, empty) {
                (false, false) => "would-update",
                (false, true) => "would-remove",
                (true, false) => "updated",
                (true, true) => "removed",
            },
            message: None,
        };
        if request.write {
            let path: PathBuf = workspace.root.join(&file.path);
            let written = fence.lock(&path, request.lock_timeout).and_then(|locked| {
                if empty {
                    locked.remove(&file.bytes).map(|()| None)
                } else {
                    locked.write(&[kept.as_bytes()], Some(&file.bytes))
                }
            });
            if let Err(error) = written {
                entry.status = "refused";
                entry.message = Some(refusal(&error));
            }
        }
        moved.push(entry);
    }
    moved
}

/// Adds to `ranges` (the lines taken out of `text`) each heading whose section they leave
/// empty: every line under it, to the next heading of its level or above, taken out or
/// blank, and at least one taken out. A heading that had nothing under it before stays,
/// as does one over what is left (a parent over a subsection that remains), and the
/// document's `#` title.
fn emptied_headings(text: &str, ranges: &mut Vec<(usize, usize)>) -> usize {
    use crate::export::markdown::{self, Context};
    let lines = markdown::lines(text);
    let level = |line: &markdown::Line<'_>| {
        let trimmed = line.text.trim_start();
        (line.context == Context::Text && trimmed.starts_with('#'))
            .then(|| trimmed.bytes().take_while(|&b| b == b'#').count())
    };
    let taken = |ranges: &[(usize, usize)], line: &markdown::Line<'_>| {
        ranges
            .iter()
            .any(|&(start, next)| start <= line.start && line.next <= next)
    };
    // Deepest first, so that a parent whose last subsection goes is seen after it.
    // A `#` title names the document, not a section: it stays.
    let mut headings: Vec<(usize, usize)> = (lines.iter().enumerate())
        .filter_map(|(at, line)| Some((at, level(line)?)))
        .filter(|&(_, depth)| depth > 1)
        .collect();
    headings.sort_by_key(|&(at, depth)| (std::cmp::Reverse(depth), at));
    let mut emptied = 0;
    for (at, depth) in headings {
        let section = lines[at + 1..]
            .iter()
            .take_while(|line| level(line).is_none_or(|inner| inner > depth));
        let (mut any_taken, mut all_gone) = (false, true);
        for line in section {
            if taken(ranges, line) {
                any_taken = true;
            } else if !line.text.trim().is_empty() {
                all_gone = false;
            }
        }
        if any_taken && all_gone {
            // The heading, and the blank lines of its section with it.
            ranges.push((lines[at].start, lines[at].next));
            let blank = lines[at + 1..]
                .iter()
                .take_while(|line| level(line).is_none_or(|inner| inner > depth))
                .filter(|line| line.text.trim().is_empty() && !taken(ranges, line))
                .map(|line| (line.start, line.next))
                .collect::<Vec<_>>();
            ranges.extend(blank);
            emptied += 1;
        }
    }
    emptied
}

fn refusal(error: &AtomicError) -> String {
    format!("{error}; the file is left as it was")
}

/// Whether a file holds nothing once its frontmatter and blank lines are set aside (and,
/// in a rule folder, where a file of nothing but headings is an empty rule, its headings).
fn nothing_left(text: &str, in_folder: bool) -> bool {
    use crate::export::markdown::{self, Context};
    markdown::lines(text).iter().all(|line| {
        let text = line.text.trim();
        line.context == Context::Frontmatter
            || text.is_empty()
            || (in_folder && line.context == Context::Text && text.starts_with('#'))
    })
}
