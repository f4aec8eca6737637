//! `enforce`: run the active rules' checks ([`crate::rules::pattern`]) over what changed,
//! so a rule the agent breaks is caught before the user sees it. What is looked at: the
//! work tree's changes against `HEAD` (untracked files whole), the staged diff (what a
//! pre-commit hook sees), the commits since a base, or files named outright. By default
//! only the lines a change adds are checked, so old code does not fail the build; a
//! `Require` check reads the whole file of each changed file in scope. Each violation is a
//! `rule-broken` diagnostic naming the rule's number and text.

use std::path::{Path, PathBuf};

use regex::Regex;

use crate::io::git::Git;
use crate::io::workspace::Workspace;
use crate::report::diagnostics::{Code, Diagnostic, Position};
use crate::rules::file::{CheckField, Number};
use crate::rules::pattern::Kind;
use crate::rules::{scope, supersede};

/// The tree git compares an unborn branch's work against (git's well-known empty tree).
const EMPTY_TREE: &str = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

/// The longest line a check reads (longer ones, minified code, are passed over).
pub(crate) const MAX_LINE_BYTES: usize = 64 * 1024;

/// What to check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Changes {
    /// The work tree against `HEAD`, and the untracked files.
    WorkTree,
    /// The index against `HEAD`: what the next commit holds.
    Staged,
    /// The commits since the branch left this ref (`git diff REF...HEAD`).
    Base(String),
    /// These files, whole (paths relative to the current directory).
    Files(Vec<String>),
}

#[derive(Clone, Debug)]
pub(crate) struct Request {
    pub changes: Changes,
    /// Check every line of each file looked at, not only the added ones.
    pub all_lines: bool,
}

/// What `enforce` found.
#[derive(Debug, Default)]
pub(crate) struct Report {
    pub diagnostics: Vec<Diagnostic>,
    /// Active rules with a check that runs.
    pub checks: usize,
    /// Files looked at (in at least one rule's scope or not).
    pub files: usize,
    /// Why the violations caught could not be recorded as receipts, if they could not.
    pub unrecorded: Option<String>,
}

/// An active rule's check, compiled.
pub(crate) struct Compiled {
    /// The rule's place in the rules file (its index among the objects).
    pub index: usize,
    pub number: u64,
    pub instruction: String,
    globs: Vec<String>,
    pub kind: Kind,
    pattern: String,
    /// Compiled when first asked for ([`Compiled::regex`]): a check whose scope holds no
    /// file of the run costs nothing.
    regex: std::cell::OnceCell<Option<Regex>>,
}

impl Compiled {
    fn applies_to(&self, path: &str) -> bool {
        self.globs.is_empty()
            || scope::matching(self.globs.iter().map(String::as_str), path).is_some()
    }

    /// The check's pattern compiled, or `None` when it does not compile (`check`'s
    /// `invalid-check` says why; no run applies it).
    pub(crate) fn regex(&self) -> Option<&Regex> {
        self.regex
            .get_or_init(|| crate::rules::pattern::compile(&self.pattern).ok())
            .as_ref()
    }

    /// The pattern as the rule writes it.
    pub(crate) fn pattern(&self) -> &str {
        &self.pattern
    }

    /// Whether the pattern was compiled already (by an earlier file of the run).
    pub(crate) fn is_compiled(&self) -> bool {
        self.regex.get().is_some()
    }
}

/// The active rules' checks, their patterns compiled when first used (one that does not
/// compile is `check`'s `invalid-check`, and no run applies it).
pub(crate) fn compiled(workspace: &Workspace) -> anyhow::Result<Vec<Compiled>> {
    let Some(document) = crate::rules::load(workspace.shown_path())? else {
        return Ok(Vec::new());
    };
    let resolution = supersede::resolve(&document);
    let mut checks = Vec::new();
    for rule in document.rules() {
        let (CheckField::Check(check), Number::Valid(number)) = (rule.check(), rule.number())
        else {
            continue;
        };
        if !resolution.is_active(rule.index) {
            continue;
        }
        checks.push(Compiled {
            index: rule.index,
            number,
            instruction: rule.instruction().display().to_string(),
            globs: rule.paths().globs().to_vec(),
            kind: check.kind,
            pattern: check.pattern.clone(),
            regex: std::cell::OnceCell::new(),
        });
    }
    Ok(checks)
}

/// One file to look at: its path from the workspace root, where to read it, and the
/// lines the change added (`None`: every line).
struct Target {
    path: String,
    shown: PathBuf,
    added: Option<Vec<(usize, String)>>,
}

/// Runs the checks over the changes the request names.
pub(crate) fn run(workspace: &Workspace, request: &Request) -> anyhow::Result<Report> {
    let mut checks = compiled(workspace)?;
    // The report counts the checks that run: those that compile.
    checks.retain(|check| check.regex().is_some());
    let mut report = Report {
        checks: checks.len(),
        ..Report::default()
    };
    if checks.is_empty() {
        return Ok(report);
    }
    let git = Git::new(&workspace.root);
    let targets = targets(workspace, &git, &request.changes)?;
    report.files = targets.len();
    let staged = request.changes == Changes::Staged;
    for target in targets {
        let applying = applying(workspace, &checks, &target.path);
        if applying.is_empty() {
            continue;
        }
        let whole = || read_whole(workspace, &git, &target, staged);
        let lines = match (&target.added, request.all_lines) {
            (Some(added), false) => added.clone(),
            _ => whole(),
        };
        for check in &applying {
            match check.kind {
                Kind::Forbid => forbid(check, &target.shown, &lines, &mut report.diagnostics),
                Kind::Require => {
                    let file = if target.added.is_some() {
                        whole()
                    } else {
                        lines.clone()
                    };
                    require(check, &target.shown, &file, &mut report.diagnostics);
                }
            }
        }
    }
    if let Some(via) = request.receipt() {
        let recorded = keep_receipts(workspace, via, &report.diagnostics);
        report.unrecorded = recorded.err().map(|error| format!("{error:#}"));
    }
    Ok(report)
}

impl Request {
    /// The runs whose violations are breaks caught before the user saw them: those over
    /// the lines a change adds, in the index (the pre-commit hook) or the work tree. Not
    /// `--base` (commits already made, seen again on every push), nor whole files
    /// (`--all-lines`, named files: old code).
    fn receipt(&self) -> Option<super::receipts::Via> {
        use super::receipts::Via;
        match (&self.changes, self.all_lines) {
            (Changes::Staged, false) => Some(Via::Staged),
            (Changes::WorkTree, false) => Some(Via::WorkTree),
            _ => None,
        }
    }
}

/// The checks that apply to `path` (from the workspace root): none for autofix's own files.
pub(crate) fn applying<'c>(
    workspace: &Workspace,
    checks: &'c [Compiled],
    path: &str,
) -> Vec<&'c Compiled> {
    if is_own_file(workspace, path) {
        return Vec::new();
    }
    // Only the scope is looked at: a pattern is compiled when a line is matched.
    checks.iter().filter(|c| c.applies_to(path)).collect()
}

/// The rules file and the vendored sources hold the rules' own text: never checked.
fn is_own_file(workspace: &Workspace, path: &str) -> bool {
    use crate::io::workspace::real_location;
    let full = real_location(&workspace.root.join(path));
    let rules = real_location(&workspace.cwd.join(&workspace.rules_file));
    full == rules
        || rules
            .parent()
            .is_some_and(|folder| full.starts_with(folder.join("sources")))
}

pub(crate) fn forbid(
    check: &Compiled,
    shown: &Path,
    lines: &[(usize, String)],
    out: &mut Vec<Diagnostic>,
) {
    for (number, line) in lines {
        let Some(found) = check.regex().and_then(|regex| regex.find(line)) else {
            continue;
        };
        // A line that states the rule (an exported copy, a doc quoting it) obeys it.
        if line.contains(check.instruction.as_str()) {
            continue;
        }
        let column = line[..found.start()].chars().count() + 1;
        let message = format!(
            "breaks rule {}: {} (`{}` matches `{}`)",
            check.number,
            check.instruction,
            crate::report::text::shown(found.as_str()),
            check.pattern
        );
        out.push(violation(message, shown, *number, column));
    }
}

pub(crate) fn require(
    check: &Compiled,
    shown: &Path,
    file: &[(usize, String)],
    out: &mut Vec<Diagnostic>,
) {
    if (file.iter()).any(|(_, line)| check.regex().is_some_and(|regex| regex.is_match(line))) {
        return;
    }
    let message = format!(
        "breaks rule {}: {} (no line matches `{}`)",
        check.number, check.instruction, check.pattern
    );
    out.push(violation(message, shown, 1, 0));
}

/// Keeps a receipt of each `rule-broken` finding of `violations` for the ledger
/// ([`super::receipts`]): the one call of the after-edit hook and of `enforce`.
pub(crate) fn keep_receipts(
    workspace: &Workspace,
    via: super::receipts::Via,
    violations: &[Diagnostic],
) -> anyhow::Result<()> {
    let numbers: Vec<(u64, &Diagnostic)> = violations
        .iter()
        .filter(|d| d.code == Code::RuleBroken)
        .filter_map(|d| Some((broken_rule(d)?, d)))
        .collect();
    if numbers.is_empty() {
        return Ok(());
    }
    let checks = compiled(workspace)?;
    let breaks: Vec<super::receipts::Break<'_>> = numbers
        .into_iter()
        .map(|(rule, diagnostic)| super::receipts::Break {
            rule,
            instruction: checks
                .iter()
                .find(|c| c.number == rule)
                .map_or("", |c| c.instruction.as_str()),
            file: diagnostic.file.as_deref().unwrap_or(Path::new("")),
            line: diagnostic.position.map_or(1, |p| p.line as usize),
        })
        .collect();
    super::receipts::record(workspace, via, &breaks)
}

/// The number of the rule a `rule-broken` finding names (its message starts `breaks rule
/// N: `, as [`forbid`] and [`require`] write it).
fn broken_rule(diagnostic: &Diagnostic) -> Option<u64> {
    let rest = diagnostic.message.strip_prefix("breaks rule ")?;
    rest.split_once(':')?.0.parse().ok()
}

fn violation(message: String, shown: &Path, line: usize, column: usize) -> Diagnostic {
    Diagnostic::new(Code::RuleBroken, message)
        .in_file(shown)
        .at("", Some(Position::new(line, column)))
        .with_help("Change the code so the rule holds, or supersede the rule if it no longer does.")
}

/// Every line of the file as the change leaves it: the index's copy for `--staged`, else
/// the work tree's. A file that cannot be read (deleted, binary, too large, a link that
/// leads outside the workspace) has none.
fn read_whole(
    workspace: &Workspace,
    git: &Git,
    target: &Target,
    staged: bool,
) -> Vec<(usize, String)> {
    let bytes = if staged {
        // The index's copy, if it is within the read cap as a file on disk must be.
        let blob = format!(":{}", target.path);
        let size = git.text(&["cat-file", "-s", &blob]).ok();
        let cap = crate::io::limits::max_file_bytes().unwrap_or(u64::MAX);
        size.and_then(|size| size.trim().parse::<u64>().ok())
            .filter(|&size| size <= cap)
            .and_then(|_| git.run(&["show", &blob]).ok())
    } else {
        // Never through a link that leaves the workspace: a change controls both the link
        // and the rule, and the finding would print what it reads.
        crate::io::limits::read_file_within(&workspace.root, &workspace.root.join(&target.path))
            .ok()
    };
    let Some(text) = bytes.and_then(|b| String::from_utf8(b).ok()) else {
        return Vec::new();
    };
    text.lines()
        .enumerate()
        .filter(|(_, line)| line.len() <= MAX_LINE_BYTES)
        .map(|(k, line)| (k + 1, line.to_string()))
        .collect()
}

/// The files the request names, each with the lines its change adds.
fn targets(workspace: &Workspace, git: &Git, changes: &Changes) -> anyhow::Result<Vec<Target>> {
    // Only changes need git: files named are read from disk, in a repository or not.
    let top = || git.require_top_level("`autofix enforce` reads the changes from git");
    let diff = |top: &Path, range: &[&str]| -> anyhow::Result<Vec<Target>> {
        let mut args = vec![
            "-c",
            "core.quotePath=false",
            "diff",
            "--unified=0",
            "--no-color",
            "--no-ext-diff",
            "--no-textconv",
            "--diff-filter=d",
        ];
        args.extend_from_slice(range);
        let mut parser = DiffParser {
            cap: crate::io::limits::max_file_bytes()?,
            ..DiffParser::default()
        };
        git.each_line(&args, MAX_LINE_BYTES, |line| parser.line(line))?;
        Ok(parser
            .files
            .into_iter()
            .filter_map(|(path, added)| target(workspace, top, &path, Some(added)))
            .collect())
    };
    match changes {
        Changes::Staged => diff(&top()?, &["--cached"]),
        Changes::Base(base) => {
            let top = top()?;
            // A ref is never an option: `--output=FILE...HEAD` would have git write a file.
            if base.starts_with('-') || base.is_empty() {
                anyhow::bail!("--base `{base}`: not a git ref (a ref cannot start with `-`)");
            }
            let commit = format!("{base}^{{commit}}");
            if git.run(&["rev-parse", "--verify", "-q", &commit]).is_err() {
                anyhow::bail!(
                    "--base `{base}`: no such commit here (a shallow clone may need to fetch it)"
                );
            }
            let range = format!("{base}...HEAD");
            diff(&top, &[range.as_str()])
        }
        Changes::WorkTree => {
            let top = top()?;
            let head = if git.run(&["rev-parse", "--verify", "-q", "HEAD"]).is_ok() {
                "HEAD"
            } else {
                EMPTY_TREE
            };
            let mut found = diff(&top, &[head])?;
            let untracked = git.run(&[
                "ls-files",
                "-z",
                "--others",
                "--exclude-standard",
                "--full-name",
            ])?;
            for path in String::from_utf8_lossy(&untracked)
                .split('\0')
                .filter(|p| !p.is_empty())
            {
                found.extend(target(workspace, &top, path, None));
            }
            Ok(found)
        }
        Changes::Files(given) => {
            let inside = workspace
                .paths_inside(given)
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            if let Some(wrong) = given.iter().find(|p| !workspace.cwd.join(p).is_file()) {
                if workspace.cwd.join(wrong).is_dir() {
                    anyhow::bail!("{wrong}: a folder (enforce checks files, not folders)");
                }
                anyhow::bail!("{wrong}: no such file");
            }
            Ok(inside
                .into_iter()
                .map(|path| Target {
                    shown: PathBuf::from(workspace.show(&workspace.root.join(&path))),
                    path,
                    added: None,
                })
                .collect())
        }
    }
}

/// A file from git (its path from the top) as a target; `None` outside the workspace.
fn target(
    workspace: &Workspace,
    top: &Path,
    path: &str,
    added: Option<Vec<(usize, String)>>,
) -> Option<Target> {
    let full = top.join(path);
    let root = std::fs::canonicalize(&workspace.root).unwrap_or_else(|_| workspace.root.clone());
    let inside = full.strip_prefix(&root).ok()?;
    let parts: Vec<String> = inside
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    Some(Target {
        path: parts.join("/"),
        shown: PathBuf::from(workspace.show(&workspace.root.join(inside))),
        added,
    })
}

/// Reads `git diff --unified=0`: each file's new path and the lines it adds, numbered as
/// in the new file.
#[derive(Default)]
struct DiffParser {
    files: Vec<(String, Vec<(usize, String)>)>,
    /// The next line number of the new file inside a hunk; `None` in a file's header.
    next: Option<usize>,
    /// The most bytes of added lines one file may hold (`AUTOFIX_MAX_FILE_BYTES`, as
    /// every read): past it, the file's lines are dropped and the file passed over.
    cap: u64,
    /// The bytes of the current file's added lines so far.
    held: u64,
}

impl DiffParser {
    fn line(&mut self, line: &[u8]) {
        let line = String::from_utf8_lossy(line);
        if line.starts_with("diff --git ") {
            self.next = None;
            self.held = 0;
            return;
        }
        if let Some(hunk) = line.strip_prefix("@@ ") {
            self.next = hunk_start(hunk);
            return;
        }
        match self.next {
            None => {
                if let Some(path) = line.strip_prefix("+++ b/") {
                    self.files.push((path.to_string(), Vec::new()));
                }
            }
            Some(number) => {
                if let Some(added) = line.strip_prefix('+') {
                    self.held += added.len() as u64 + 1;
                    if let Some((_, lines)) = self.files.last_mut() {
                        if self.held > self.cap {
                            // Over the read cap, as a file read from disk would be.
                            *lines = Vec::new();
                        } else {
                            lines.push((number, added.to_string()));
                        }
                    }
                    self.next = Some(number + 1);
                }
            }
        }
    }
}

/// The first line of the new side of a hunk header's `+c,d`.
fn hunk_start(hunk: &str) -> Option<usize> {
    let new = hunk
        .split_whitespace()
        .find_map(|part| part.strip_prefix('+'))?;
    new.split(',').next()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_added_lines_with_their_numbers() {
        let diff = "diff --git a/src/a.ts b/src/a.ts\nindex 1..2 100644\n--- a/src/a.ts\n+++ b/src/a.ts\n@@ -3,0 +4,2 @@ fn\n+console.log(1)\n++++ not a header\n@@ -9 +11 @@\n-old\n+new\ndiff --git a/b b/b\nnew file mode 100644\n--- /dev/null\n+++ b/b\n@@ -0,0 +1 @@\n+x\n";
        let mut parser = DiffParser {
            cap: u64::MAX,
            ..DiffParser::default()
        };
        for line in diff.lines() {
            parser.line(line.as_bytes());
        }
        assert_eq!(parser.files.len(), 2);
        assert_eq!(parser.files[0].0, "src/a.ts");
        assert_eq!(
            parser.files[0].1,
            [
                (4, "console.log(1)".to_string()),
                (5, "+++ not a header".to_string()),
                (11, "new".to_string())
            ]
        );
        assert_eq!(parser.files[1].1, [(1, "x".to_string())]);
    }
}
