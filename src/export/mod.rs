//! `autofix export`: puts the active rules where every agent looks, touching only bytes it
//! owns. Two write modes ([`block`] between markers in files people edit, [`owned`] stamped
//! files of our own), a table of [`targets`] with defaults and budgets, and one code path
//! for writing, `--dry-run`, `--check` and `--remove`: each target is planned (read,
//! validated, rendered, compared with CRLF normalised), then written atomically only when
//! its bytes change. A target that cannot be handled safely is refused, left
//! byte-identical, and the others go on.

pub(crate) mod block;
pub(crate) mod diff;
pub(crate) mod handwritten;
pub(crate) mod hook;
pub(crate) mod markdown;
pub(crate) mod owned;
pub(crate) mod peers;
mod scoped;
pub(crate) mod targets;

use std::borrow::Cow;
use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use serde::Serialize;

use crate::io::atomic;
use crate::io::safe_write::{self, Fence};
use crate::report::diagnostics::{Code, Diagnostic};
use crate::report::text::plural_s;
use crate::rules::listing::{self, Listing, MarkdownStyle};
use crate::rules::{self, RulesError};
use targets::{Facts, Kind};

/// What to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Mode {
    /// Write what changed.
    Write,
    /// Plan and report, write nothing.
    DryRun,
    /// Plan and report drift, write nothing (the CI gate).
    Check,
}

/// One `export` run.
#[derive(Clone, Debug)]
pub(crate) struct Request {
    /// The workspace root: targets are relative to it and must stay inside it.
    pub root: PathBuf,
    pub rules_file: PathBuf,
    pub targets: Targets,
    pub mode: Mode,
    /// Take our blocks and stamped files out instead of writing them.
    pub remove: bool,
    /// Whether to drop the oldest rules to fit a budget instead of refusing the target.
    pub truncate: Truncate,
    /// Attach a unified diff to every change.
    pub diff: bool,
}

/// Whether a target over its agent's budget loses its oldest rules or is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Truncate {
    /// Refuse it (`export` without `--truncate`).
    Never,
    /// Drop the oldest rules (`--truncate`).
    Always,
    /// As the copy on disk was written: drop them where it already says rules were left
    /// out (`learn` refreshing a copy exported with `--truncate`), refuse elsewhere.
    AsBefore,
}

/// An empty block's note in a file that holds text of its own.
const BY_HAND_NOTE: &str =
    "_No rules recorded by autofix yet: the text outside this block is the file's own._\n";

/// The end of the note a truncated copy carries, by which `AsBefore` knows it.
const OMITTED_NOTE_END: &str = "`autofix rules` lists them all._";

/// Which targets a run covers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Targets {
    /// These ids (`--target`).
    Named(Vec<String>),
    /// The defaults plus every target exported before: `export` without `--target`.
    Defaults,
    /// Only the targets exported before: keeping copies fresh after `learn`, which must
    /// not start exporting where nobody asked for it.
    Exported,
}

/// Whether an exported file `agent` loads (see [`targets::read_by`]) holds the active rules
/// as they are now: a block or a stamped file that `export --check` finds in sync, scoped
/// files included. A broken block, or a copy gone stale (`learn --no-export`, a hand edit, a
/// pull nobody exported after), does not count: the session hook then says the rules.
pub(crate) fn delivers(root: &Path, rules_file: &Path, agent: &str) -> bool {
    let ids = targets::read_by(root, agent);
    if ids.is_empty() {
        return false;
    }
    let request = Request {
        root: root.to_path_buf(),
        rules_file: rules_file.to_path_buf(),
        targets: Targets::Named(ids.iter().map(ToString::to_string).collect()),
        mode: Mode::Check,
        remove: false,
        truncate: Truncate::AsBefore,
        diff: false,
    };
    let Ok(report) = run(&request) else {
        return false;
    };
    ids.iter().any(|id| {
        let mut outcomes = report.outcomes.iter().filter(|o| o.id == *id).peekable();
        outcomes.peek().is_some() && outcomes.all(|o| o.status == Status::Unchanged)
    })
}

/// Why `export` could not run at all (exit 2).
#[derive(Debug, thiserror::Error)]
pub(crate) enum ExportError {
    #[error(transparent)]
    Rules(#[from] RulesError),
    #[error("unknown export target `{0}`; the targets are {ids}", ids = targets::IDS.join(", "))]
    UnknownTarget(String),
    #[error("cannot use {} as the workspace root: {error}", path.display())]
    Root { path: PathBuf, error: io::Error },
    #[error(
        "the targets `{file}` and `{folder}` cannot be used together: `{file}` is the file \
         {path} and `{folder}` a file in the folder {path}/; choose one"
    )]
    FileAndFolder {
        file: &'static str,
        folder: &'static str,
        path: &'static str,
    },
}

/// What happened (or would happen) to one target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Status {
    Created,
    Updated,
    Removed,
    Unchanged,
    /// The same file as an earlier target (a link): handled there.
    Skipped,
    /// Not safe to touch: left byte-identical (exit 1).
    Refused,
    /// The write itself failed (exit 2).
    Failed,
}

impl Status {
    /// Whether `export` would change the target.
    pub(crate) fn is_change(self) -> bool {
        matches!(self, Status::Created | Status::Updated | Status::Removed)
    }
}

/// Why a target was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Problem {
    /// Orphaned, doubled or misplaced markers.
    MalformedMarkers,
    /// A file without our stamp at an owned path.
    Unowned,
    /// A file another generator owns.
    ForeignGenerator,
    /// The target's real path leaves the repository.
    OutsideRepository,
    /// The target's real path is inside `.git/`, or is the rules file or its lock.
    Protected,
    /// Another program changed the target while autofix was writing it.
    Changed,
    /// Over an agent's budget, without `--truncate`.
    OverBudget,
    /// Not a readable UTF-8 regular file, or a dangling link.
    Unreadable,
    /// Read-only, or the write failed.
    Unwritable,
}

impl Problem {
    /// The diagnostic code that `explain` and the annotations name.
    pub(crate) fn code(self) -> Code {
        match self {
            Problem::MalformedMarkers => Code::ExportMalformedMarkers,
            Problem::Unowned => Code::ExportUnowned,
            Problem::ForeignGenerator => Code::ExportForeignGenerator,
            Problem::OutsideRepository => Code::ExportOutsideRepository,
            Problem::Protected => Code::ExportProtected,
            Problem::Changed => Code::ExportChanged,
            Problem::OverBudget => Code::ExportOverBudget,
            Problem::Unreadable => Code::ExportUnreadable,
            Problem::Unwritable => Code::ExportUnwritable,
        }
    }
}

/// The outcome for one target.
#[derive(Clone, Debug)]
pub(crate) struct Outcome {
    pub id: &'static str,
    /// Relative to the workspace root: the target's file, or one of its scoped files.
    pub path: String,
    pub kind: Kind,
    /// Why the target was selected.
    pub reason: String,
    pub status: Status,
    pub problem: Option<Problem>,
    /// The line a refusal is about.
    pub line: Option<usize>,
    pub message: Option<String>,
    /// Rules written to the target.
    pub rules: usize,
    /// Oldest rules dropped to fit the budget.
    pub omitted: usize,
    pub diff: Option<String>,
}

/// The result of a run.
#[derive(Clone, Debug)]
pub(crate) struct Report {
    pub mode: Mode,
    pub remove: bool,
    /// The rules file, relative to the root.
    pub rules_file: String,
    pub rules_file_exists: bool,
    /// Active rules in the rules file.
    pub active_rules: usize,
    pub outcomes: Vec<Outcome>,
    /// Findings besides the targets' own (an agent reading the rules twice, a copy git
    /// ignores, ...): warnings, each with its code.
    pub warnings: Vec<Diagnostic>,
    /// Other changes the run made (a `.gitattributes` line for the merge driver).
    pub notes: Vec<String>,
    /// Some active rules cannot be read as written (a warning says which): exit 1.
    pub unreadable_rules: bool,
}

impl Report {
    /// 2 when a write failed, 1 on a refused target (or, for `--check`, any drift), else 0.
    pub(crate) fn exit_code(&self) -> u8 {
        let any = |f: &dyn Fn(&Outcome) -> bool| self.outcomes.iter().any(f);
        if any(&|o| o.status == Status::Failed) {
            2
        } else if any(&|o| o.status == Status::Refused)
            || (self.mode == Mode::Check && any(&|o| o.status.is_change()))
            || self.unreadable_rules
        {
            1
        } else {
            0
        }
    }
}

/// A refusal, before it becomes an outcome.
struct Refusal {
    problem: Problem,
    line: Option<usize>,
    message: String,
}

impl Refusal {
    fn new(problem: Problem, line: Option<usize>, message: impl Into<String>) -> Self {
        Refusal {
            problem,
            line,
            message: message.into(),
        }
    }
}

enum Change {
    Keep,
    Write(String),
    Delete,
}

struct Plan {
    change: Change,
    rules: usize,
    omitted: usize,
    note: Option<String>,
}

impl Plan {
    fn keep(note: Option<&str>) -> Plan {
        Plan {
            change: Change::Keep,
            rules: 0,
            omitted: 0,
            note: note.map(str::to_string),
        }
    }
}

/// Everything the planners share.
struct Context<'a> {
    request: &'a Request,
    root: PathBuf,
    listing: Listing,
    rules_shown: String,
    remove: bool,
    /// The listing's positions under each scope heading, ascending: a scoped file takes its
    /// rules from here instead of testing every rule (20k scopes took minutes).
    scope_members: std::cell::OnceCell<std::collections::HashMap<String, Vec<usize>>>,
    /// Where a target may be written: inside the repository, never `.git/` or the rules file.
    fence: Fence,
    facts: Facts,
    /// The imported rules (`org:N`) the target's own file carries before the local ones.
    imported: Vec<(String, crate::sources::vendor::Imported)>,
}

/// The files `export` writes by default in the repository at `root` (the defaults and
/// every target exported before, less what rulesync or Ruler generate): those the merge
/// driver for exported copies must cover.
pub(crate) fn default_paths(root: &Path) -> Vec<crate::io::merge_setup::Exported> {
    let facts = Facts::of(root);
    targets::select(root, &Targets::Defaults, &facts)
        .iter()
        .filter(|selected| facts.peers.owner(root, selected.target.path).is_none())
        .flat_map(|selected| scoped::covered(root, selected.target))
        .collect()
}

/// Every file in the repository at `root` that holds an export of ours (a target's file
/// with our block or stamp, and every stamped scoped file), relative to `root`: what
/// `doctor` checks the export driver covers. A file rulesync or Ruler generates is theirs,
/// even when it carries our stamp copied from their source.
pub(crate) fn exported_files(root: &Path) -> Vec<String> {
    let peers = peers::Peers::detect(root);
    targets::TARGETS
        .iter()
        .filter(|target| peers.owner(root, target.path).is_none())
        .flat_map(|target| scoped::files_of(root, target, targets::exported(root, target)))
        .collect()
}

/// After a write: the files written, each covered by the export merge driver when the
/// repository routes exported copies to it (a target exported later, a new scope's
/// file). What changed in `.gitattributes`, as notes; a failure is a warning.
fn cover_written(
    root: &Path,
    rules_file: &Path,
    outcomes: &[Outcome],
) -> (Vec<String>, Vec<Diagnostic>) {
    let Some(top) = crate::io::workspace::walk_to_top(root, &[]) else {
        return Default::default();
    };
    let mut covered = Vec::new();
    for outcome in outcomes.iter().filter(|o| {
        matches!(
            o.status,
            Status::Created | Status::Updated | Status::Unchanged
        )
    }) {
        if let Some(target) = targets::by_id(outcome.id) {
            for entry in scoped::covered(root, target) {
                if !covered.contains(&entry) {
                    covered.push(entry);
                }
            }
        }
    }
    match crate::io::merge_setup::cover_exports(&top, rules_file, &covered) {
        Ok(setup) => (
            setup.steps.into_iter().map(|step| step.message).collect(),
            Vec::new(),
        ),
        Err(error) => (
            Vec::new(),
            vec![Diagnostic::new(
                Code::ExportNotCovered,
                format!(
                    "the exported copies are not all covered by the merge driver: {error}; \
                     run `autofix merge-driver --install`"
                ),
            )],
        ),
    }
}

/// Runs `export` (or its check, dry run or removal).
pub(crate) fn run(request: &Request) -> Result<Report, ExportError> {
    if let Targets::Named(ids) = &request.targets
        && let Some(unknown) = ids.iter().find(|id| targets::by_id(id).is_none())
    {
        return Err(ExportError::UnknownTarget(unknown.clone()));
    }
    let root = fs::canonicalize(&request.root).map_err(|source| ExportError::Root {
        path: request.root.clone(),
        error: source,
    })?;
    let rules_shown = relative(&request.rules_file, &request.root, &root);
    let document = rules::load(&request.rules_file)?;
    let exists = document.is_some();
    let query = listing::Query::default();
    let listing = listing::build(rules_shown.clone(), document.map(Arc::new), &query);
    let facts = Facts::of(&root);
    let selected = targets::select(&root, &request.targets, &facts);
    if let Some((file, folder)) = targets::file_and_folder(&selected) {
        return Err(ExportError::FileAndFolder {
            file: file.id,
            folder: folder.id,
            path: file.path,
        });
    }
    let context = Context {
        request,
        root: root.clone(),
        rules_shown,
        // Without a rules file there is nothing to export: what was exported is orphaned.
        remove: request.remove || !exists,
        listing,
        scope_members: Default::default(),
        // The files it writes are named relative to the root, as given or canonical.
        fence: Fence::repository(&root, &request.rules_file).naming_below(&[&root, &request.root]),
        facts,
        imported: crate::sources::layers::for_export(&root, &request.rules_file),
    };
    let jobs = context.jobs(selected);
    let mut seen: std::collections::HashMap<PathBuf, &'static str> = Default::default();
    let mut warnings = Vec::new();
    let outcomes: Vec<Outcome> = jobs
        .iter()
        .map(|job| {
            let outcome = context.process(job, &mut seen, &mut warnings);
            if job.covered {
                covered_note(outcome, job.target)
            } else {
                outcome
            }
        })
        .collect();
    let mut notes = Vec::new();
    let unreadable = if context.remove {
        None
    } else {
        context.listing.unreadable_warning()
    };
    warnings.extend(unreadable.clone());
    warnings.extend(
        context
            .facts
            .peers
            .problems()
            .iter()
            .map(|problem| Diagnostic::new(Code::PeerConfigInvalid, problem.clone())),
    );
    if !context.remove {
        warnings.extend(duplicate_readers(&context.root, &outcomes, &context.facts));
        warnings.extend(other_case(&outcomes));
        warnings.extend(context.stated_by_hand(&outcomes));
        warnings.extend(ignored_by_git(&context.root, &outcomes));
        if request.mode == Mode::Write {
            let (added, failed) = cover_written(&context.root, &request.rules_file, &outcomes);
            notes = added;
            warnings.extend(failed);
        }
    }
    Ok(Report {
        mode: request.mode,
        remove: request.remove,
        rules_file: context.rules_shown.clone(),
        rules_file_exists: exists,
        active_rules: context.listing.counts.active,
        outcomes,
        warnings,
        notes,
        unreadable_rules: unreadable.is_some(),
    })
}

impl Context<'_> {
    /// The files the run's targets stand for, the second copies among them turned into
    /// removals of what is ours.
    fn jobs(&self, selected: Vec<targets::Selected>) -> Vec<scoped::Job> {
        // The claude target's guard matters only where our AGENTS.md block would reach Claude
        // Code; beside rulesync or Ruler, what Claude Code reads is theirs.
        let guard = self.facts.peers.is_empty()
            && (selected.iter().any(|s| s.target.id == "agents-md")
                || targets::agents_md_exported(&self.root));
        let imported_scopes: Vec<&[String]> = self
            .imported
            .iter()
            .map(|(_, rule)| rule.paths.as_slice())
            .collect();
        let (selected, second_copies) = one_copy(self, selected);
        selected
            .iter()
            .flat_map(|selected| {
                let covered = second_copies.contains(&selected.target.id);
                let mut jobs = scoped::jobs(
                    &self.root,
                    selected,
                    &self.listing,
                    &imported_scopes,
                    self.remove || covered,
                    guard,
                );
                if covered {
                    for job in &mut jobs {
                        job.part = scoped::Part::Orphan;
                        job.covered = true;
                    }
                }
                jobs
            })
            .collect()
    }

    fn process(
        &self,
        job: &scoped::Job,
        seen: &mut std::collections::HashMap<PathBuf, &'static str>,
        warnings: &mut Vec<Diagnostic>,
    ) -> Outcome {
        let target = job.target;
        let mut outcome = Outcome {
            id: target.id,
            path: job.path.clone(),
            kind: target.kind,
            reason: job.reason.clone(),
            status: Status::Unchanged,
            problem: None,
            line: None,
            message: None,
            rules: 0,
            omitted: 0,
            diff: None,
        };
        if let Some(owner) = self.facts.peers.owner(&self.root, &job.path) {
            outcome.status = Status::Skipped;
            outcome.message = Some(owner.export_note());
            return outcome;
        }
        let path = self.root.join(&job.path);
        let real = match self.fence.resolve(&path) {
            Ok(real) => real,
            Err(error) => return refuse(outcome, self.refusal(&error)),
        };
        let location = crate::io::workspace::real_location(&real.path);
        if let Some(other) = seen.get(&location) {
            outcome.status = Status::Skipped;
            outcome.message = Some(format!(
                "the same file as target `{other}`, which handles it"
            ));
            return outcome;
        }
        seen.insert(location, target.id);
        // Another program may save the target between the read and the rename: then the
        // write is refused, and the target is read and planned again.
        safe_write::retrying(
            || self.handle(job, &path, outcome.clone(), warnings),
            |handled| handled.problem == Some(Problem::Changed),
        )
    }

    /// Reads, plans and (in write mode) writes one target.
    fn handle(
        &self,
        job: &scoped::Job,
        path: &Path,
        mut outcome: Outcome,
        warnings: &mut Vec<Diagnostic>,
    ) -> Outcome {
        let real = match self.fence.resolve(path) {
            Ok(real) => real,
            Err(error) => return refuse(outcome, self.refusal(&error)),
        };
        let (bytes, existing) = match self.read(&real) {
            Ok(Some((bytes, text))) => (Some(bytes), Some(text)),
            Ok(None) => (None, None),
            Err(refusal) => return refuse(outcome, refusal),
        };
        let removing = self.remove || job.part == scoped::Part::Orphan;
        let plan = match self.plan(job, existing.as_deref(), removing) {
            Ok(plan) => plan,
            Err(refusal) => return refuse(outcome, refusal),
        };
        outcome.rules = plan.rules;
        outcome.omitted = plan.omitted;
        outcome.message = plan.note;
        outcome.status = status(&plan.change, existing.is_some(), removing);
        if !outcome.status.is_change() {
            if self.request.mode == Mode::Write {
                // Temp files a killed export left are swept even when nothing changes.
                let _ = self.fence.sweep(path);
            }
            return outcome;
        }
        if self.request.diff {
            let new = match &plan.change {
                Change::Write(text) => Some(markdown::normalize(text)),
                _ => None,
            };
            let old = existing.as_deref().map(markdown::normalize);
            outcome.diff = Some(diff::unified(old.as_deref(), new.as_deref(), &job.path));
        }
        if self.request.mode != Mode::Write {
            return outcome;
        }
        if let Err(error) = real.check_writable() {
            return refuse(outcome, self.refusal(&self.fence.named(error)));
        }
        match self.write(path, &plan.change, bytes.as_deref()) {
            Ok(warning) => {
                warnings.extend(warning.map(|w| Diagnostic::new(Code::NotFlushed, w)));
            }
            Err(error @ atomic::AtomicError::Refused(_)) => {
                return refuse(outcome, self.refusal(&error));
            }
            Err(error) => {
                outcome.status = Status::Failed;
                outcome.problem = Some(Problem::Unwritable);
                outcome.message = Some(error.to_string());
            }
        }
        outcome
    }

    /// The listing's positions a file of `part` shows, in order.
    fn shown_by(&self, part: &scoped::Part) -> Vec<usize> {
        let rules = &self.listing.rules;
        let scoped::Part::Scope(heading) = part else {
            return (0..rules.len())
                .filter(|&at| part.shows(&rules.get(at)))
                .collect();
        };
        let members = self.scope_members.get_or_init(|| {
            let mut members: std::collections::HashMap<String, Vec<usize>> = Default::default();
            for (at, entry) in rules.iter().enumerate() {
                if !entry.paths.is_empty() {
                    members.entry(scoped::key(&entry)).or_default().push(at);
                }
            }
            members
        });
        members.get(heading).cloned().unwrap_or_default()
    }

    /// What to do with the file: write it, or take out what is ours.
    fn plan(
        &self,
        job: &scoped::Job,
        existing: Option<&str>,
        removing: bool,
    ) -> Result<Plan, Refusal> {
        match (job.target.kind, removing) {
            (Kind::Block, false) => self.plan_block(job, existing),
            (Kind::Owned, false) => self.plan_owned(job, existing),
            (Kind::Block, true) => plan_block_removal(existing),
            (Kind::Owned, true) => Ok(plan_owned_removal(existing)),
        }
    }

    /// Writes or removes the target through the safe-write path: under its lock, and only
    /// if it still holds `expected`, the bytes it was planned from.
    fn write(
        &self,
        path: &Path,
        change: &Change,
        expected: Option<&[u8]>,
    ) -> Result<Option<String>, atomic::AtomicError> {
        let locked = self.fence.lock(path, safe_write::timeout()?)?;
        match (change, expected) {
            (Change::Write(text), _) => locked.write(&[text.as_bytes()], expected),
            (Change::Delete, Some(expected)) => locked.remove(expected).map(|()| None),
            (Change::Delete, None) | (Change::Keep, _) => Ok(None),
        }
    }

    /// A refusal for an error of the safe-write path.
    fn refusal(&self, error: &atomic::AtomicError) -> Refusal {
        use atomic::Refusal as Fenced;
        let problem = match error {
            atomic::AtomicError::Refused(Fenced::Outside { .. }) => Problem::OutsideRepository,
            atomic::AtomicError::Refused(Fenced::Changed { .. }) => Problem::Changed,
            atomic::AtomicError::Refused(_) => Problem::Protected,
            atomic::AtomicError::ReadOnly { .. } => Problem::Unwritable,
            _ => Problem::Unreadable,
        };
        Refusal::new(problem, None, error.to_string())
    }

    /// The file's bytes and text; `None` when it does not exist.
    fn read(&self, real: &atomic::Target) -> Result<Option<(Vec<u8>, String)>, Refusal> {
        let shown = |path: &Path| self.fence.show(path).display().to_string();
        let Some(metadata) = &real.metadata else {
            return Ok(None);
        };
        if !metadata.is_file() {
            return Err(Refusal::new(
                Problem::Unreadable,
                None,
                format!("{} is not a regular file", shown(&real.path)),
            ));
        }
        let bytes = crate::io::limits::read_file(&real.path).map_err(|error| {
            Refusal::new(
                Problem::Unreadable,
                None,
                format!("cannot read {}: {error}", shown(&real.path)),
            )
        })?;
        match markdown::decode(bytes.clone()) {
            Ok(text) => Ok(Some((bytes, text))),
            Err(line) => Err(Refusal::new(
                Problem::Unreadable,
                Some(line),
                "the file is not valid UTF-8; autofix edits only UTF-8 text",
            )),
        }
    }

    fn plan_block(&self, job: &scoped::Job, existing: Option<&str>) -> Result<Plan, Refusal> {
        let source = existing.unwrap_or("");
        let found = find_block(source)?;
        if let Some((line, tool)) = block::foreign(source, found.as_ref()) {
            return Err(foreign(tool, line));
        }
        let eol = markdown::eol(source);
        let build = |body: &str| {
            let rendered = block::render(body, eol);
            block::splice(source, found.as_ref(), &rendered, eol)
        };
        self.plan_write(job, existing, build, "block")
    }

    fn plan_owned(&self, job: &scoped::Job, existing: Option<&str>) -> Result<Plan, Refusal> {
        if let Some(source) = existing.filter(|s| !owned::is_stamped(s)) {
            if let Some((line, tool)) = block::foreign(source, None) {
                return Err(foreign(tool, line));
            }
            let line = owned::stamp_line(source);
            return Err(Refusal::new(
                Problem::Unowned,
                Some(line),
                format!(
                    "the file exists without the `{}` stamp, so it is not autofix's to \
                     overwrite; move it away (or delete it) and export again",
                    owned::STAMP
                ),
            ));
        }
        let eol = existing.map_or("\n", markdown::eol);
        let bom = existing.is_some_and(|s| s.starts_with(markdown::BOM));
        let stamp = owned::stamp(&block::escape(&self.rules_shown, true));
        let build = |body: &str| owned::render(&job.frontmatter, &stamp, body, eol, bom);
        self.plan_write(job, existing, build, "file")
    }

    /// Renders the target with all rules, or with the oldest dropped to fit its budget.
    fn plan_write(
        &self,
        job: &scoped::Job,
        existing: Option<&str>,
        build: impl Fn(&str) -> String,
        what: &str,
    ) -> Result<Plan, Refusal> {
        let target = job.target;
        let escape = escaper(target.at_tokens);
        let lead = format!(
            "Rules from {}, exported by `autofix export`: record and change rules with \
             `autofix learn`, never by editing this {what}. {}{}",
            escape(&self.rules_shown),
            rules::PRECEDENCE,
            job.scope_note
        );
        // The imported rules (`org:N`) this file holds: those of its scope, or unscoped.
        let imported: Vec<&(String, crate::sources::vendor::Imported)> = (self.imported.iter())
            .filter(|(_, rule)| job.part.shows_imported(&rule.paths))
            .collect();
        let lead = if imported.is_empty() {
            lead
        } else {
            format!("{lead} {}", crate::sources::layers::EXPORT_NOTE)
        };
        let style = MarkdownStyle {
            lead: Some(&lead),
            escape: &escape,
        };
        let head = listing::to_string(|out| self.listing.write_markdown_head(out, &style));
        let items: Vec<(String, String)> = (imported.iter())
            .map(|(name, rule)| {
                let item = crate::sources::layers::markdown_item(name, rule, &escape);
                (job.part.imported_heading(&rule.paths), item)
            })
            .chain(
                self.shown_by(&job.part)
                    .into_iter()
                    .map(|at| self.listing.rules.get(at))
                    .map(|entry| {
                        let item = listing::to_string(|out| {
                            Listing::write_markdown_item(out, &entry, &style)
                        });
                        (job.part.heading(&entry), item)
                    }),
            )
            .collect();
        let note = |omitted: usize| match target.budget {
            Some(budget) if omitted > 0 => format!(
                "- _{omitted} older rule{} omitted: {}. {OMITTED_NOTE_END}\n",
                plural_s(omitted),
                budget.describe()
            ),
            _ => String::new(),
        };
        let render = |omitted: usize| {
            let mut body = head.clone();
            body.push_str(&note(omitted));
            body.push_str(&listing::group_by_scope(&items[omitted..]));
            if items.is_empty() {
                let no_rules = self.listing.rules.is_empty() && self.imported.is_empty();
                // Beside rules written by hand, "no rules" would say those are none.
                let by_hand =
                    target.kind == Kind::Block && existing.is_some_and(block::has_text_outside);
                body.push_str(if by_hand && no_rules {
                    BY_HAND_NOTE
                } else {
                    job.part.empty_note(no_rules)
                });
            }
            build(&body)
        };
        let truncate = match self.request.truncate {
            Truncate::Never => false,
            Truncate::Always => true,
            Truncate::AsBefore => existing.is_some_and(|text| text.contains(OMITTED_NOTE_END)),
        };
        let (text, omitted) = self.fit(job, items.len(), truncate, render)?;
        let same = existing.is_some_and(|e| markdown::normalize(e) == markdown::normalize(&text));
        Ok(Plan {
            change: if same {
                Change::Keep
            } else {
                Change::Write(text)
            },
            rules: items.len() - omitted,
            omitted,
            note: (omitted > 0).then(|| {
                format!(
                    "{omitted} oldest rule{} omitted: {}",
                    plural_s(omitted),
                    target.budget.map_or("", |b| b.describe())
                )
            }),
        })
    }

    /// The text with as few rules omitted as the target's budget allows.
    fn fit(
        &self,
        job: &scoped::Job,
        rules: usize,
        truncate: bool,
        render: impl Fn(usize) -> String,
    ) -> Result<(String, usize), Refusal> {
        let full = render(0);
        let Some(budget) = job.target.budget else {
            return Ok((full, 0));
        };
        let (size, limit) = budget.measure(&full);
        if size <= limit {
            return Ok((full, 0));
        }
        let fits = |omitted: usize| budget.measure(&render(omitted)).0 <= limit;
        let over = |message: String| Err(Refusal::new(Problem::OverBudget, None, message));
        if !truncate {
            return over(format!(
                "{} would be {} long, over the budget ({}); pass --truncate to drop the \
                 oldest rules, or supersede old rules",
                job.path,
                budget.amount(size),
                budget.describe()
            ));
        }
        if !fits(rules) {
            return over(format!(
                "{} is over the budget even without any rule ({})",
                job.path,
                budget.describe()
            ));
        }
        let omitted = crate::rules::budget::fit_newest(rules, fits);
        Ok((render(omitted), omitted))
    }
}

fn refuse(mut outcome: Outcome, refusal: Refusal) -> Outcome {
    outcome.status = Status::Refused;
    outcome.problem = Some(refusal.problem);
    outcome.line = refusal.line;
    outcome.message = Some(refusal.message);
    outcome
}

/// What a change does to a file that exists or not.
fn status(change: &Change, exists: bool, removing: bool) -> Status {
    match (change, exists) {
        (Change::Keep, _) | (Change::Delete, false) => Status::Unchanged,
        (Change::Write(_), false) => Status::Created,
        (Change::Write(_), true) if removing => Status::Removed,
        (Change::Write(_), true) => Status::Updated,
        (Change::Delete, true) => Status::Removed,
    }
}

/// Our block in `source`, if any; ambiguous markers refuse the target.
fn find_block(source: &str) -> Result<Option<block::Block>, Refusal> {
    block::find(source).map_err(|malformed| {
        Refusal::new(
            Problem::MalformedMarkers,
            Some(malformed.line),
            format!("{}; fix the markers by hand", malformed.reason),
        )
    })
}

fn plan_block_removal(existing: Option<&str>) -> Result<Plan, Refusal> {
    let Some(source) = existing else {
        return Ok(Plan::keep(Some("nothing to remove")));
    };
    let found = find_block(source)?;
    let Some(found) = found else {
        return Ok(Plan::keep(Some("nothing to remove")));
    };
    Ok(Plan {
        change: match block::remove(source, &found) {
            Some(text) => Change::Write(text),
            None => Change::Delete,
        },
        ..Plan::keep(None)
    })
}

fn plan_owned_removal(existing: Option<&str>) -> Plan {
    match existing {
        None => Plan::keep(Some("nothing to remove")),
        Some(source) if owned::is_stamped(source) => Plan {
            change: Change::Delete,
            ..Plan::keep(None)
        },
        Some(_) => Plan::keep(Some("not autofix's (no stamp): left alone")),
    }
}

/// The escaping of rule text for a target (a function, so the closure is higher-ranked).
fn escaper(at_tokens: bool) -> impl for<'t> Fn(&'t str) -> Cow<'t, str> {
    move |text| block::escape(text, at_tokens)
}

fn foreign(tool: &str, line: usize) -> Refusal {
    Refusal::new(
        Problem::ForeignGenerator,
        Some(line),
        format!(
            "{tool} generates this file and would overwrite what autofix writes; export to \
             {tool}'s sources instead (for Ruler the `ruler` target)"
        ),
    )
}

/// `path` relative to the root, for messages and the exported text: never absolute when a
/// relative form exists (`../rules.json` for a rules file beside the root).
pub(crate) fn relative(path: &Path, root: &Path, canonical_root: &Path) -> String {
    // A path given relative (the rules file by its display path) is where the file system
    // reads it: from the current directory.
    let path = &std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    if let Ok(below) = path.strip_prefix(root) {
        return below.display().to_string();
    }
    let real = crate::io::workspace::real_location(path);
    if let Ok(below) = real.strip_prefix(canonical_root) {
        return below.display().to_string();
    }
    let base: Vec<Component<'_>> = canonical_root.components().collect();
    let target: Vec<Component<'_>> = real.components().collect();
    let common = base.iter().zip(&target).take_while(|(a, b)| a == b).count();
    let mut relative = PathBuf::new();
    for _ in common..base.len() {
        relative.push("..");
    }
    for part in &target[common..] {
        relative.push(part);
    }
    relative.display().to_string()
}

/// One copy per agent: the targets of the run, with every copy of ours exported before
/// that is now a second copy (to be taken out) and the claude target when AGENTS.md carries
/// the rules (its guard then holds its rules), and the ids of the second copies: targets
/// one of whose agents already reads the rules from another target of the run (see
/// `targets::second_copies`), not written.
fn one_copy(
    context: &Context<'_>,
    selected: Vec<targets::Selected>,
) -> (Vec<targets::Selected>, Vec<&'static str>) {
    let adjusting = !context.remove && context.facts.peers.is_empty();
    let agents_md_carries = adjusting
        && (selected.iter().any(|s| s.target.id == "agents-md")
            || targets::agents_md_exported(&context.root));
    let second_copies: Vec<&str> = if adjusting {
        let in_run = |t: &targets::Target| {
            selected.iter().any(|s| s.target.id == t.id) || targets::exported(&context.root, t)
        };
        targets::second_copies(&context.root, in_run, agents_md_carries)
    } else {
        Vec::new()
    };
    let mut selected = selected;
    let left: Vec<targets::Selected> = (targets::TARGETS.iter())
        .filter(|t| {
            (second_copies.contains(&t.id) || (t.id == "claude" && agents_md_carries))
                && targets::exported(&context.root, t)
                && !selected.iter().any(|s| s.target.id == t.id)
        })
        .map(|target| targets::Selected {
            target,
            reason: "exported before".to_string(),
        })
        .collect();
    selected.extend(left);
    (selected, second_copies)
}

/// The outcome of a target not written because its agents already read the rules from
/// another target of the run: why, beside what was done (a copy of ours taken out, or a
/// file of the user's left alone).
fn covered_note(mut outcome: Outcome, target: &targets::Target) -> Outcome {
    let why = format!(
        "not written, one copy per agent: {} already read{} the rules from another \
         exported file",
        target.readers.join(" and "),
        if target.readers.len() == 1 { "s" } else { "" }
    );
    // Nothing of ours was there: the target is passed over, as one rulesync generates is.
    if outcome.status == Status::Unchanged {
        outcome.status = Status::Skipped;
    }
    outcome.message = Some(match outcome.message.take() {
        Some(note) if note != "nothing to remove" => format!("{note}; {why}"),
        _ => why,
    });
    outcome
}

/// One warning for each agent that would read the rules from two targets.
fn duplicate_readers(root: &Path, outcomes: &[Outcome], facts: &Facts) -> Vec<Diagnostic> {
    let mut agents: Vec<(&'static str, Vec<&'static str>)> = Vec::new();
    for outcome in outcomes {
        if matches!(
            outcome.status,
            Status::Refused | Status::Skipped | Status::Failed | Status::Removed
        ) {
            continue;
        }
        let Some(target) = targets::by_id(outcome.id) else {
            continue;
        };
        for agent in targets::readers(root, target, facts) {
            match agents.iter_mut().find(|(a, _)| *a == agent) {
                Some((_, ids)) if ids.contains(&target.id) => {}
                Some((_, ids)) => ids.push(target.id),
                None => agents.push((agent, vec![target.id])),
            }
        }
    }
    agents
        .into_iter()
        .filter(|(_, ids)| ids.len() > 1)
        .map(|(agent, ids)| {
            // Beside a rule-sync tool, its source is the copy to keep.
            let is_source =
                |id: &&str| facts.peers.tools().iter().any(|t| t.source_target() == *id);
            let remove = ids
                .iter()
                .rev()
                .find(|id| !is_source(id))
                .unwrap_or(&ids[0]);
            let message = format!(
                "{agent} reads the rules twice: from targets {}; keep one (e.g. `autofix \
                 export --remove --target {remove}`)",
                ids.join(" and "),
            );
            Diagnostic::new(Code::ExportReadTwice, message)
        })
        .collect()
}

/// A warning for each block written into a file under another letter case than the
/// target's (`agents.md`): found, not doubled, but not read where case matters.
fn other_case(outcomes: &[Outcome]) -> Vec<Diagnostic> {
    outcomes
        .iter()
        .filter(|o| !matches!(o.status, Status::Refused | Status::Skipped | Status::Failed))
        .filter_map(|o| {
            let target = targets::by_id(o.id)?;
            (o.path != target.path && o.path.eq_ignore_ascii_case(target.path)).then(|| {
                let message = format!(
                    "{} is the {} target's file under another letter case: autofix writes \
                     its block there rather than beside it, but agents look for {} on \
                     case-sensitive file systems; rename it (`git mv {} {}`)",
                    o.path, o.id, target.path, o.path, target.path
                );
                Diagnostic::new(Code::ExportNameCase, message).in_file(&o.path)
            })
        })
        .collect()
}

impl Context<'_> {
    /// The active rules that a hand-written file also states, where an agent reading it
    /// reads one of this run's copies (or another exported copy, or the session hook).
    fn stated_by_hand(&self, outcomes: &[Outcome]) -> Vec<Diagnostic> {
        let mut agents = Vec::new();
        for outcome in outcomes.iter().filter(|o| {
            !matches!(
                o.status,
                Status::Refused | Status::Skipped | Status::Failed | Status::Removed
            )
        }) {
            if let Some(target) = targets::by_id(outcome.id) {
                agents.extend(targets::readers(&self.root, target, &self.facts));
            }
        }
        let Some(found) = handwritten::worth_comparing(&self.root, &agents) else {
            return Vec::new();
        };
        let rules = handwritten::active_rules(&self.listing);
        handwritten::stated_by_hand(
            &self.root,
            &found,
            &self.rules_shown,
            &rules,
            &ToString::to_string,
        )
    }
}

/// Targets that git ignores (autofix never edits `.gitignore`; it only says so). Quiet
/// when git or a repository is not there.
fn ignored_by_git(root: &Path, outcomes: &[Outcome]) -> Vec<Diagnostic> {
    let paths: Vec<&str> = outcomes
        .iter()
        .filter(|o| !matches!(o.status, Status::Refused | Status::Skipped))
        .map(|o| o.path.as_str())
        .collect();
    if paths.is_empty() || !root.join(".git").exists() {
        return Vec::new();
    }
    crate::io::git::Git::new(root)
        .ignored(&paths)
        .into_iter()
        .map(|path| {
            let message = format!(
                "{path} is ignored by git, so other clones will not get it (autofix never \
                 edits .gitignore)"
            );
            Diagnostic::new(Code::ExportIgnored, message)
        })
        .collect()
}
