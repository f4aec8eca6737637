//! `autofix import`: adopt the rules a team already wrote by hand. The hand-written files
//! are read ([`crate::export::handwritten`]), each rule found is compared with the active
//! rules and with the rules found before it (the shared matcher), and the rest is what
//! would be added. With `write`, each is learned through the one learn path (locked,
//! atomic, numbered highest + 1); with `move_lines` too, the lines of every rule autofix
//! now holds are taken out of the hand-written file (every other byte kept) so that the
//! agent reads each rule once, from autofix's copy; then the exported copies are
//! refreshed once.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;

use crate::export::handwritten::{self, Found, HandFile, Skipped};
use crate::io::atomic::AtomicError;
use crate::io::safe_write::Fence;
use crate::io::workspace::Workspace;
use crate::ops::learning::{self, AfterLearning, Refreshed};
use crate::report::diagnostics::{Code, Diagnostic};
use crate::rules::similar::{self, Kind};
use crate::rules::{self, RulesError, learn, listing};

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
    fn held(self) -> bool {
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
}

/// What a move did (or would do) to one hand-written file.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Moved {
    pub file: String,
    /// Lines taken out.
    pub lines: usize,
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
    if request.write {
        learn_all(workspace, request, &mut report)?;
    }
    drop_repeats_of_what_is_not_held(&mut report.items);
    if request.move_lines {
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
    // The same words are the same rule, whatever the matcher makes of them.
    for later in 0..found.len() {
        for earlier in 0..later {
            if rules::same_instruction(texts[earlier], texts[later]) {
                later_of.push((earlier, later, Kind::Duplicate));
            }
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

/// A rule that repeats or reverses a rule imported from a git source is refused as `learn`
/// refuses it (a locked one whatever the flags): `learn`'s front ends ask the sources'
/// layers before the learn path, and so does `import`.
fn refuse_what_an_import_holds(workspace: &Workspace, items: &mut [Item]) {
    for item in items.iter_mut().filter(|i| i.status == Verdict::Add) {
        let request = learn::Request {
            category: item.category.to_string(),
            instruction: item.found.instruction.clone(),
            why: item.why.clone(),
            paths: item.found.paths.clone(),
            ..Default::default()
        };
        match crate::sources::layers::imported_refusal(workspace, &request) {
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

/// Learns every rule to add, one by one through the learn path, which checks each again
/// under the lock (another writer may have learned it meanwhile).
fn learn_all(
    workspace: &Workspace,
    request: &Request,
    report: &mut Report,
) -> Result<(), ImportError> {
    let options = learn::Options {
        dry_run: false,
        lock_timeout: request.lock_timeout,
    };
    for item in report.items.iter_mut().filter(|i| i.status == Verdict::Add) {
        let rule = learn::Request {
            category: item.category.to_string(),
            instruction: item.found.instruction.clone(),
            why: item.why.clone(),
            paths: item.found.paths.clone(),
            ..Default::default()
        };
        let learned = match learning::learn(workspace, &rule, &options, AfterLearning::Skip) {
            Ok(learned) => learned,
            Err(error) if refuses_the_rule(&error) => {
                item.status = Verdict::Refused;
                item.rule = None;
                item.message = Some(error.to_string());
                continue;
            }
            Err(error) => return Err(error.into()),
        };
        let outcome = &learned.outcome;
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
        // That the rule is still written by hand is the move's business, said once.
        report.warnings.extend(
            (learned.warnings.into_iter()).filter(|w| w.code != Code::HandwrittenDuplicate),
        );
    }
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
            .filter(|i| i.found.file == file.path && i.status.held())
            .flat_map(|i| i.found.ranges.iter().copied())
            .collect();
        if ranges.is_empty() {
            continue;
        }
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
            lines: ranges.len(),
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

impl Report {
    /// The rules added (or, in a preview, to add), the repeats, the rest.
    fn counts(&self) -> (usize, usize, usize) {
        let count = |f: &dyn Fn(Verdict) -> bool| self.items.iter().filter(|i| f(i.status)).count();
        (
            count(&|s| matches!(s, Verdict::Add | Verdict::Added)),
            count(&|s| matches!(s, Verdict::RepeatsRule | Verdict::RepeatsFound)),
            count(&|s| matches!(s, Verdict::Contradicts | Verdict::Refused)),
        )
    }

    /// The report for a person: the files, one line a rule found, what is not a rule
    /// (counted; one by one with `verbose`), the moves, the exports, what to do next.
    pub(crate) fn to_text(&self, verbose: bool) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        let shown = |text: &str| crate::report::text::shown(text).into_owned();
        if self.files.is_empty() && self.skipped.is_empty() {
            let _ = writeln!(
                out,
                "No hand-written rule files found (CLAUDE.md, .claude/rules/, AGENTS.md, GEMINI.md, .cursor/rules/, \
                 .cursorrules, .windsurfrules, .github/copilot-instructions.md, \
                 .github/instructions/, .clinerules): nothing to import."
            );
            return out;
        }
        let mode = if self.write {
            ""
        } else {
            " (a preview: --write adds the rules)"
        };
        let _ = writeln!(
            out,
            "Importing {} into {}{mode}",
            crate::report::text::counted(self.files.len(), "hand-written file"),
            shown(&self.rules_file)
        );
        for (path, readers, _) in &self.files {
            let _ = writeln!(out, "  {} (read by {})", shown(path), readers.join(", "));
        }
        let width = (self.items.iter().map(|i| i.found.place().len()))
            .chain(
                verbose
                    .then(|| self.skipped.iter().map(place_of))
                    .into_iter()
                    .flatten()
                    .map(|p| p.len()),
            )
            .max()
            .unwrap_or(0);
        if !self.items.is_empty() {
            let _ = writeln!(out, "Rules found:");
        }
        for item in &self.items {
            let _ = writeln!(
                out,
                "  {:<width$}  {}",
                shown(&item.found.place()),
                shown(&item.describe())
            );
        }
        self.write_skipped(&mut out, verbose, width);
        for moved in &self.moved {
            let why = match &moved.message {
                Some(message) => format!(": {message}"),
                None => format!(
                    " ({} taken out, the rest unchanged)",
                    crate::report::text::counted(moved.lines, "line")
                ),
            };
            let status = moved.status.replace('-', " ");
            let _ = writeln!(out, "  {status:<12} {}{why}", shown(&moved.file));
        }
        for export in &self.exports {
            let _ = writeln!(
                out,
                "  {:<12} {} (export)",
                export.status,
                shown(&export.path)
            );
        }
        out.push_str(&self.summary());
        out
    }

    fn write_skipped(&self, out: &mut String, verbose: bool, width: usize) {
        use std::fmt::Write as _;
        if self.skipped.is_empty() {
            return;
        }
        if verbose {
            let _ = writeln!(out, "Not rules (left where they are):");
            for skipped in &self.skipped {
                let _ = writeln!(
                    out,
                    "  {:<width$}  {}",
                    crate::report::text::shown(&place_of(skipped)),
                    skipped.kind.why()
                );
            }
            return;
        }
        // A file that could not be read is named whatever the verbosity.
        for skipped in (self.skipped.iter()).filter(|s| s.kind == handwritten::Kind::Unreadable) {
            let _ = writeln!(
                out,
                "  {}: {}",
                crate::report::text::shown(&skipped.file),
                skipped.kind.why()
            );
        }
        let mut kinds: Vec<(handwritten::Kind, usize)> = Vec::new();
        for skipped in &self.skipped {
            match kinds.iter_mut().find(|(k, _)| *k == skipped.kind) {
                Some((_, n)) => *n += 1,
                None => kinds.push((skipped.kind, 1)),
            }
        }
        let parts: Vec<String> = kinds
            .iter()
            .map(|(kind, n)| format!("{n} × {}", kind.why()))
            .collect();
        let _ = writeln!(
            out,
            "Not rules, left where they are: {} (`--verbose` lists them)",
            parts.join("; ")
        );
    }

    fn summary(&self) -> String {
        let (added, repeats, not) = self.counts();
        let rules = crate::report::text::counted(added, "rule");
        let mut line = match self.write {
            true => format!("Added {rules} to {}", self.rules_file),
            false => format!("Would add {rules}"),
        };
        line.push_str(&format!(
            " ({} skipped as repeats{}).\n",
            repeats,
            if not > 0 {
                format!(", {not} not imported")
            } else {
                String::new()
            }
        ));
        let held = self.items.iter().filter(|i| i.status.held()).count();
        if !self.write && (added > 0 || (self.move_lines && held > 0)) {
            line.push_str(if self.move_lines {
                "Run `autofix import --write --move` to add them and take them out of the hand-written files.\n"
            } else {
                "Run `autofix import --write` to add them (with `--move`, they are also taken out of the hand-written files, so no agent reads them twice).\n"
            });
        } else if self.write && !self.move_lines && held > 0 {
            line.push_str(&format!(
                "The hand-written files still state {}: an agent that reads them and autofix's copy gets each twice. Run `autofix import --write --move` to take them out.\n",
                crate::report::text::counted(held, "of these rules")
            ));
        }
        line
    }

    /// The `import --format json` document.
    pub(crate) fn to_json(&self) -> String {
        #[derive(Serialize)]
        struct FileJson<'a> {
            path: &'a str,
            readers: &'a [&'a str],
            format: &'a str,
        }
        #[derive(Serialize)]
        struct Json<'a> {
            version: u32,
            write: bool,
            #[serde(rename = "move")]
            move_lines: bool,
            rules_file: &'a str,
            files: Vec<FileJson<'a>>,
            rules: &'a [Item],
            skipped: &'a [Skipped],
            moved: &'a [Moved],
            exports: &'a [Refreshed],
            diagnostics: Vec<crate::report::diagnostics::DiagnosticJson<'a>>,
        }
        crate::report::text::json_document(&Json {
            version: 1,
            write: self.write,
            move_lines: self.move_lines,
            rules_file: &self.rules_file,
            files: (self.files.iter())
                .map(|(path, readers, format)| FileJson {
                    path,
                    readers,
                    format,
                })
                .collect(),
            rules: &self.items,
            skipped: &self.skipped,
            moved: &self.moved,
            exports: &self.exports,
            diagnostics: crate::report::diagnostics::json_of(&self.warnings),
        })
    }
}

fn place_of(skipped: &Skipped) -> String {
    if skipped.last_line > skipped.line {
        format!("{}:{}-{}", skipped.file, skipped.line, skipped.last_line)
    } else {
        format!("{}:{}", skipped.file, skipped.line)
    }
}

impl Item {
    /// `add #4 [TOOL] Always use pnpm (src/**)`, `skip: repeats rule 2: …`.
    fn describe(&self) -> String {
        let text = &self.found.instruction;
        let scope = if self.found.paths.is_empty() {
            String::new()
        } else {
            format!(" (for {})", self.found.paths.join(", "))
        };
        let number = self.rule.map_or_else(String::new, |n| n.to_string());
        match self.status {
            Verdict::Add => format!("add #{number} [{}] {text}{scope}", self.category),
            Verdict::Added => format!("added #{number} [{}] {text}{scope}", self.category),
            Verdict::RepeatsRule => format!("skip: repeats rule {number}: {text}"),
            Verdict::RepeatsFound => format!(
                "skip: repeats {}: {text}",
                self.earlier.as_deref().unwrap_or("")
            ),
            Verdict::Contradicts => match &self.earlier {
                Some(earlier) => format!("not imported: contradicts {earlier}: {text}"),
                None => format!("not imported: contradicts rule {number}: {text}"),
            },
            Verdict::Refused => format!(
                "not imported: {}: {text}",
                self.message.as_deref().unwrap_or("refused")
            ),
        }
    }
}
