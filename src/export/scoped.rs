//! The files one selected target stands for. A target whose agent has a scoped form
//! ([`Scoping::Files`]) is its own file with the unscoped rules, one stamped file per scope
//! beside it (`autofix-<scope>.<ext>`, frontmatter from the scope's globs), and, to be
//! removed, any such file whose scope no active rule has any more. Every other target is
//! one file with every rule, the scoped ones under a heading naming their globs.

use std::fs;
use std::path::Path;

use super::owned;
use super::targets::{
    CLAUDE_GUARD, ClaudeFiles, Scoping, Selected, Target, agents_md_has_own_text,
};
use crate::rules::listing::{self, Entry, Listing};
use crate::rules::scope;

/// Which rules a file holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Part {
    /// Every rule, scoped ones under their heading.
    All,
    /// Only the unscoped rules (the target's own file when scopes have files).
    Unscoped,
    /// The rules of one scope, named by its [`key`] (its globs as written: two scopes
    /// whose headings read alike, `::x` and `\u{3a}:x`, stay two).
    Scope(String),
    /// A scoped file of ours that no scope needs, or a file the target no longer uses
    /// (`.claude/rules/autofix.md` once the guard carries the rules): to be removed.
    Orphan,
}

impl Part {
    pub(super) fn shows(&self, entry: &Entry<'_>) -> bool {
        match self {
            Part::All => true,
            Part::Unscoped => entry.paths.is_empty(),
            Part::Scope(scope) => *scope == key(entry),
            Part::Orphan => false,
        }
    }

    /// Whether the file holds the imported rule scoped to `paths` (none: unscoped).
    pub(super) fn shows_imported(&self, paths: &[String]) -> bool {
        match self {
            Part::All => true,
            Part::Unscoped => paths.is_empty(),
            Part::Scope(scope) => !paths.is_empty() && *scope == paths.join("\n"),
            Part::Orphan => false,
        }
    }

    /// The heading an imported rule scoped to `paths` goes under in this file (see
    /// [`Part::heading`]).
    pub(super) fn imported_heading(&self, paths: &[String]) -> String {
        match self {
            Part::All => listing::heading_for(paths),
            _ => String::new(),
        }
    }

    /// What a file with no rule says: that there are none, or, for a target's own file
    /// when every rule is scoped, where they are.
    pub(super) fn empty_note(&self, no_rules_at_all: bool) -> &'static str {
        match self {
            Part::Unscoped if !no_rules_at_all => {
                "_Every rule applies only to some files: they are in the `autofix-*` files beside this one._\n"
            }
            _ => "_No rules recorded yet._\n",
        }
    }

    /// The heading an item goes under in this file: none in a file of one scope, whose
    /// frontmatter says it (the lead says the exclusions).
    pub(super) fn heading(&self, entry: &Entry<'_>) -> String {
        match self {
            Part::All => listing::scope_heading(entry),
            _ => String::new(),
        }
    }
}

/// One file to plan.
#[derive(Debug)]
pub(super) struct Job {
    pub(super) target: &'static Target,
    /// Relative to the workspace root.
    pub(super) path: String,
    pub(super) frontmatter: String,
    pub(super) part: Part,
    pub(super) reason: String,
    /// For a scoped file, the sentence after the lead that says the scope in words.
    pub(super) scope_note: String,
    /// Not written because the target's agents read the rules from another target of the
    /// run (see [`super::targets::second_copies`]): a removal of what is ours.
    pub(super) covered: bool,
}

/// The files `selected` stands for in this run; with `guard`, the claude target's
/// [`CLAUDE_GUARD`] where it is needed. `imported` are the globs of the imported rules
/// exported (`org:N` with `Paths`): their scopes have files as the local ones do.
pub(super) fn jobs(
    root: &Path,
    selected: &Selected,
    rules: &Listing,
    imported: &[&[String]],
    remove: bool,
    guard: bool,
) -> Vec<Job> {
    let target = selected.target;
    let job = |path: String, frontmatter: String, part: Part| Job {
        target,
        path,
        frontmatter,
        part,
        reason: selected.reason.clone(),
        scope_note: String::new(),
        covered: false,
    };
    let Scoping::Files { frontmatter, .. } = target.scoping else {
        // A file people edit is found in any letter case (`agents.md`), never doubled.
        let path = match target.kind {
            super::Kind::Block => super::markdown::on_disk(root, target.path),
            super::Kind::Owned => target.path.to_string(),
        };
        let mut jobs = vec![job(path, target.frontmatter.to_string(), Part::All)];
        // A target whose scoped files gave way to headings (cline-rules, continue): the
        // stamped files an older export left are taken out.
        if target
            .path
            .rsplit('/')
            .next()
            .is_some_and(|name| name.starts_with("autofix."))
        {
            for path in existing_scoped_files(root, target) {
                jobs.push(job(path, String::new(), Part::Orphan));
            }
        }
        return jobs;
    };
    let mut jobs = vec![job(
        target.path.to_string(),
        target.frontmatter.to_string(),
        Part::Unscoped,
    )];
    let scopes = if remove {
        Vec::new()
    } else {
        scopes(rules, imported)
    };
    let mut wanted: std::collections::HashSet<String> =
        jobs.iter().map(|j| j.path.clone()).collect();
    let guarded = target.id == "claude" && guard && !remove && guard_needed(root);
    for (scope, globs) in &scopes {
        let native = scope::native(globs.iter().map(String::as_str));
        let mut frontmatter = frontmatter(&native);
        if guarded {
            frontmatter = for_claude_code_alone(&frontmatter);
        }
        // Two scopes whose names and short hashes agree: the later one takes the whole
        // hash, so no scope's file is ever another's.
        let mut path = file_for(target, globs, SHORT_HASH);
        if !wanted.insert(path.clone()) {
            path = file_for(target, globs, 64);
            wanted.insert(path.clone());
        }
        jobs.push(Job {
            scope_note: scope_note(globs),
            ..job(path, frontmatter, Part::Scope(scope.clone()))
        });
    }
    if target.id == "claude" {
        match (guarded, guard_exists(root)) {
            // The guard carries the unscoped rules itself: GitHub Copilot CLI reads
            // `AGENTS.md` and every `.claude/rules/*.md` but not `.claude/CLAUDE.md` (seen in
            // Copilot CLI 1.0.102 with a stub model), so rules there would reach it twice.
            (true, _) => {
                jobs[0].path = CLAUDE_GUARD.to_string();
                wanted.insert(CLAUDE_GUARD.to_string());
                if root.join(target.path).symlink_metadata().is_ok() {
                    jobs.push(job(target.path.to_string(), String::new(), Part::Orphan));
                }
            }
            (false, true) => jobs.push(job(CLAUDE_GUARD.to_string(), String::new(), Part::Orphan)),
            (false, false) => {}
        }
    }
    for path in existing_scoped_files(root, target) {
        if !wanted.contains(&path) {
            jobs.push(job(path, String::new(), Part::Orphan));
        }
    }
    jobs
}

/// A scoped file's frontmatter that GitHub Copilot CLI passes over: `excludeAgent:
/// "coding-agent"` (<https://docs.github.com/en/copilot/how-tos/configure-custom-instructions/add-repository-instructions>,
/// the keyword of its path-specific instructions). Copilot CLI reads every
/// `.claude/rules/*.md`, and beside `AGENTS.md`, which already shows the rule under its
/// heading, attached this file too once a matching file was read; with the keyword it did
/// not, and Claude Code still loaded the file for its paths alone (Copilot CLI 1.0.102,
/// Claude Code 2.1.328, a stub model).
fn for_claude_code_alone(frontmatter: &str) -> String {
    match frontmatter.strip_suffix("---\n") {
        Some(head) => format!("{head}excludeAgent: \"coding-agent\"\n---\n"),
        None => frontmatter.to_string(),
    }
}

/// Whether the claude target keeps its unscoped rules in its guard, `.claude/CLAUDE.md`,
/// beside the `AGENTS.md` block (`guard` in [`jobs`]): without a CLAUDE.md that counts,
/// Claude Code would load `AGENTS.md` too, and GitHub Copilot CLI reads `AGENTS.md` and
/// every `.claude/rules/*.md` but not `.claude/CLAUDE.md`; Claude Code reads a root
/// CLAUDE.md of the user's and `.claude/CLAUDE.md` both (seen in Claude Code 2.1.328 and
/// Copilot CLI 1.0.102 with a stub model). Not when `AGENTS.md` has text of the user's own
/// (the guard would hide it from Claude Code where no CLAUDE.md counts; and where one does,
/// deciding by it would flip between runs when the claude-md target writes it), nor where a
/// file of the user's holds the guard's path.
fn guard_needed(root: &Path) -> bool {
    !ClaudeFiles::of(root).users_guard_path && !agents_md_has_own_text(root)
}

/// Whether our guard is there (stamped).
fn guard_exists(root: &Path) -> bool {
    ClaudeFiles::of(root).guard
}

/// The scope in words, as written in the rules file: the frontmatter has only the
/// including globs (no agent's frontmatter can exclude), so the exclusions are said here.
fn scope_note(globs: &[String]) -> String {
    let spans = |negated: bool| -> Vec<String> {
        globs
            .iter()
            .filter(|g| g.starts_with('!') == negated)
            .map(|g| crate::rules::listing::code_span(g.trim_start_matches('!')))
            .collect()
    };
    let (include, exclude) = (spans(false), spans(true));
    let mut note = format!(
        " These rules apply to files matching {}",
        include.join(", ")
    );
    if !exclude.is_empty() {
        note.push_str(&format!(", except those matching {}", exclude.join(", ")));
    }
    note.push('.');
    note
}

/// What tells one scope from another: its globs as written, one a line (no glob holds a
/// line break).
pub(super) fn key(entry: &Entry<'_>) -> String {
    entry
        .paths
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Hex digits of the globs' SHA-256 in a scoped file's name: 64 bits, so that finding two
/// scopes with one name takes billions of tries (8 digits took half a second).
const SHORT_HASH: usize = 16;

/// Each distinct scope of the listed rules, then of the imported ones, in the order it
/// first appears: its key and its globs.
fn scopes(rules: &Listing, imported: &[&[String]]) -> Vec<(String, Vec<String>)> {
    let mut scopes: Vec<(String, Vec<String>)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for entry in rules.rules.iter().filter(|e| !e.paths.is_empty()) {
        let heading = key(&entry);
        if seen.insert(heading.clone()) {
            let globs = entry.paths.iter().map(ToString::to_string).collect();
            scopes.push((heading, globs));
        }
    }
    for globs in imported.iter().filter(|globs| !globs.is_empty()) {
        let heading = globs.join("\n");
        if seen.insert(heading.clone()) {
            scopes.push((heading, globs.to_vec()));
        }
    }
    scopes
}

/// `dir/autofix-<name>-<hash><ext>` beside the target's `dir/autofix<ext>`: readable, and
/// the same for the same globs on every machine.
fn file_for(target: &Target, globs: &[String], digits: usize) -> String {
    let (dir, suffix) = split(target);
    let first = globs
        .iter()
        .find(|g| !g.starts_with('!'))
        .map_or("", String::as_str);
    let mut name = String::new();
    for c in first.chars() {
        if c.is_ascii_alphanumeric() {
            name.push(c.to_ascii_lowercase());
        } else if !name.ends_with('-') && !name.is_empty() {
            name.push('-');
        }
    }
    let name: String = name.trim_end_matches('-').chars().take(32).collect();
    let name = name.trim_end_matches('-');
    let hash = crate::report::digest::hex(globs.join("\n").as_bytes());
    let hash = &hash[..digits];
    if name.is_empty() {
        format!("{dir}autofix-{hash}{suffix}")
    } else {
        format!("{dir}autofix-{name}-{hash}{suffix}")
    }
}

/// The export driver's cover for `target`: its file and, when it has scoped files, every
/// `autofix-*<ext>` beside it (learned later, on any branch).
pub(super) fn covered(root: &Path, target: &Target) -> Vec<crate::io::merge_setup::Exported> {
    let mut covered = vec![crate::io::merge_setup::Exported::File(
        root.join(target.path),
    )];
    if target.id == "claude" {
        covered.push(crate::io::merge_setup::Exported::File(
            root.join(CLAUDE_GUARD),
        ));
    }
    if matches!(target.scoping, Scoping::Files { .. }) {
        let (dir, suffix) = split(target);
        covered.push(crate::io::merge_setup::Exported::Scoped {
            dir: root.join(dir.trim_end_matches('/')),
            name: format!("autofix-*{suffix}"),
        });
    }
    covered
}

/// Every file of `target` that holds something of ours: its own (when `exported`) and
/// its stamped scoped files.
pub(super) fn files_of(root: &Path, target: &Target, exported: bool) -> Vec<String> {
    let mut files = Vec::new();
    let path = super::markdown::on_disk(root, target.path);
    if exported && root.join(&path).exists() {
        files.push(path);
    }
    if target.id == "claude" && guard_exists(root) {
        files.push(CLAUDE_GUARD.to_string());
    }
    if matches!(target.scoping, Scoping::Files { .. }) {
        files.extend(existing_scoped_files(root, target));
    }
    files
}

/// The target's folder (with its `/`) and what follows `autofix` in its file name.
fn split(target: &Target) -> (&'static str, &'static str) {
    let (dir, file) = match target.path.rfind('/') {
        Some(at) => target.path.split_at(at + 1),
        None => ("", target.path),
    };
    (dir, file.strip_prefix("autofix").unwrap_or(file))
}

/// The stamped scoped files of `target` already in its folder (sorted, for a stable run).
fn existing_scoped_files(root: &Path, target: &Target) -> Vec<String> {
    let (dir, suffix) = split(target);
    let Ok(entries) = fs::read_dir(root.join(dir)) else {
        return Vec::new();
    };
    let mut found: Vec<String> = entries
        .filter_map(Result::ok)
        .filter_map(|entry| entry.file_name().into_string().ok())
        .filter(|name| name.starts_with("autofix-") && name.ends_with(suffix))
        .filter(|name| {
            crate::io::limits::read_to_string(&root.join(dir).join(name))
                .is_ok_and(|text| owned::is_stamped(&text))
        })
        .map(|name| format!("{dir}{name}"))
        .collect();
    found.sort();
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::targets::by_id;

    #[test]
    fn scoped_files_sit_beside_the_target_with_its_extension() {
        let globs = vec!["src/api/**".to_string(), "!src/api/gen/**".to_string()];
        let cursor = file_for(by_id("cursor").unwrap(), &globs, SHORT_HASH);
        assert!(
            cursor.starts_with(".cursor/rules/autofix-src-api-"),
            "{cursor}"
        );
        assert!(cursor.ends_with(".mdc"));
        let copilot = file_for(by_id("copilot").unwrap(), &globs, SHORT_HASH);
        assert!(copilot.starts_with(".github/instructions/autofix-src-api-"));
        assert!(copilot.ends_with(".instructions.md"));
        assert_ne!(
            file_for(by_id("claude").unwrap(), &globs, SHORT_HASH),
            file_for(by_id("claude").unwrap(), &globs[..1], SHORT_HASH)
        );
        let odd = file_for(by_id("claude").unwrap(), &["**".to_string()], SHORT_HASH);
        assert!(
            odd.starts_with(".claude/rules/autofix-") && odd.len() == 41,
            "{odd}"
        );
    }
}
