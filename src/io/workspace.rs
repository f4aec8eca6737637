//! Where things are: the workspace root and the rules file (`-C`, `--file`/`AUTOFIX_FILE`,
//! then walking up from the current directory, never past the repository root), fenced by
//! `AUTOFIX_CEILING_DIRECTORIES` so tests never pick up a stray file above their sandbox.

use std::env;
use std::ffi::OsString;
use std::fs;
use std::path::{Component, Path, PathBuf};

/// The rules file candidates, relative to the workspace root, highest priority first.
const CANDIDATES: [&str; 3] = [
    ".agents/autofix.json",
    "autofix.json",
    ".rules/autofix.json",
];

/// Where a new rules file is created when none exists.
const DEFAULT_CANDIDATE: &str = CANDIDATES[0];

/// Environment variable naming the rules file directly.
pub(crate) const FILE_ENV: &str = "AUTOFIX_FILE";

/// Environment variable with directories (separated like `PATH`) that discovery does not
/// walk above, like git's `GIT_CEILING_DIRECTORIES`. A ceiling itself is still searched.
pub(crate) const CEILING_ENV: &str = "AUTOFIX_CEILING_DIRECTORIES";

/// What the user said on the command line about where to look.
#[derive(Clone, Debug, Default)]
pub(crate) struct Options {
    /// `-C/--root`: the workspace root, no walking up.
    pub root: Option<PathBuf>,
    /// `--file`: the rules file itself.
    pub file: Option<PathBuf>,
}

/// What finds a hook's workspace, handed down by the front end: the process's directory
/// and the settings discovery reads (`AUTOFIX_FILE`, the ceiling directories).
#[derive(Clone, Debug, Default)]
pub(crate) struct Finder {
    pub cwd: PathBuf,
    pub rules_file: Option<OsString>,
    pub ceilings: Option<OsString>,
}

/// How the rules file was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Source {
    /// `--file` on the command line.
    FileFlag,
    /// The `AUTOFIX_FILE` environment variable.
    FileEnv,
    /// The first existing candidate under the workspace root.
    Candidate,
    /// No candidate exists: the path `learn` would create.
    Default,
}

impl Source {
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Source::FileFlag => "--file",
            Source::FileEnv => FILE_ENV,
            Source::Candidate => "discovered",
            Source::Default => "default (created by the first learn)",
        }
    }
}

/// Why the workspace cannot be used. Nothing is created in any of these cases: a typo in
/// `-C` or `--file` must not grow a directory tree. The paths are shown relative to the
/// current directory when below it.
#[derive(Debug, thiserror::Error)]
pub(crate) enum WorkspaceError {
    #[error("-C {}: no such directory", .0.display())]
    MissingRoot(PathBuf),
    #[error(
        "{}: the directory {} does not exist (autofix creates a rules file, not the folders \
         above it)",
        file.display(),
        parent.display()
    )]
    MissingParent { file: PathBuf, parent: PathBuf },
    #[error(
        "{}: the rules file found in the repository leads outside it (to {}); a link there \
         would make `learn` write outside the repository and `export` publish that file's \
         rules in it. Name a rules file elsewhere only on purpose, with --file or AUTOFIX_FILE",
        file.display(),
        real.display()
    )]
    LeadsOutside { file: PathBuf, real: PathBuf },
}

/// Why a path given for `rules --for` (or MCP's `for`) names nothing inside the workspace.
#[derive(Debug, thiserror::Error)]
pub(crate) enum PathInsideError {
    #[error("{path}: the path is outside the workspace ({})", root.display())]
    Outside { path: String, root: PathBuf },
    #[error("{path}: name a file or folder inside the workspace")]
    IsTheRoot { path: String },
}

/// The resolved workspace: its root and its rules file, and how messages name them.
#[derive(Clone, Debug)]
pub(crate) struct Workspace {
    pub root: PathBuf,
    pub rules_file: PathBuf,
    /// The rules file as every message and listing names it, computed once at discovery:
    /// relative to `cwd` when it lies below it, else as is.
    pub shown: String,
    /// The directory the workspace was discovered from, which relative paths are read
    /// from and displayed paths are relative to.
    pub cwd: PathBuf,
    pub source: Source,
    /// The candidate paths considered, in priority order (empty when a file was named).
    pub candidates: Vec<PathBuf>,
}

impl Workspace {
    /// Resolves the workspace from the options, the settings (`AUTOFIX_FILE`,
    /// `AUTOFIX_CEILING_DIRECTORIES`) and `cwd`, the current
    /// directory the front end resolved.
    pub(crate) fn discover(options: &Options, cwd: &Path) -> Result<Workspace, WorkspaceError> {
        let workspace = Self::discover_from(
            options,
            cwd,
            crate::io::settings::get().rules_file.clone(),
            crate::io::settings::get().ceilings.clone(),
        );
        workspace.check_places(options)?;
        Ok(workspace)
    }

    /// A root named with `-C` must be a directory, and a named rules file must have one
    /// to live in; discovered places exist by construction.
    pub(crate) fn check_places(&self, options: &Options) -> Result<(), WorkspaceError> {
        if options.root.is_some() && !self.root.is_dir() {
            return Err(WorkspaceError::MissingRoot(self.show(&self.root).into()));
        }
        if matches!(self.source, Source::Candidate | Source::Default) {
            // A link committed as `.agents/autofix.json` (or as `.agents/`) to the user's
            // personal rules: discovery never leaves the repository.
            let real = real_location(&self.rules_file);
            if !real.starts_with(real_location(&self.root)) {
                return Err(WorkspaceError::LeadsOutside {
                    file: self.shown.clone().into(),
                    real,
                });
            }
        }
        if matches!(self.source, Source::FileFlag | Source::FileEnv) {
            let parent = self.rules_file.parent().unwrap_or(Path::new("/"));
            if !parent.is_dir() {
                return Err(WorkspaceError::MissingParent {
                    file: self.shown.clone().into(),
                    parent: self.show(parent).into(),
                });
            }
        }
        Ok(())
    }

    /// `given` paths relative to the root and `/`-separated, as scopes are matched: a
    /// relative path is read from the current directory, as a shell user means it.
    pub(crate) fn paths_inside(&self, given: &[String]) -> Result<Vec<String>, PathInsideError> {
        let cwd = &self.cwd;
        let root = lexical(&cwd.join(&self.root));
        let real_root = fs::canonicalize(&root).unwrap_or_else(|_| root.clone());
        given
            .iter()
            .map(|path| {
                let full = lexical(&cwd.join(path));
                let inside = full
                    .strip_prefix(&root)
                    .or_else(|_| full.strip_prefix(&real_root))
                    .map_err(|_| PathInsideError::Outside {
                        path: path.clone(),
                        root: self.show(&self.root).into(),
                    })?;
                let parts: Vec<String> = inside
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                if parts.is_empty() {
                    return Err(PathInsideError::IsTheRoot { path: path.clone() });
                }
                Ok(parts.join("/"))
            })
            .collect()
    }

    /// The workspace of the project a hook ran in: found from `cwd`, the directory the
    /// hook's input names (else `finder`'s own), as every command finds its workspace, and
    /// shown (so read) from this process's directory.
    pub(crate) fn of_hook(finder: &Finder, cwd: Option<&str>) -> Workspace {
        let from = match cwd.map(Path::new) {
            Some(cwd) if cwd.is_absolute() && cwd.is_dir() => cwd,
            _ => finder.cwd.as_path(),
        };
        let found = Workspace::discover_from(
            &Options::default(),
            from,
            finder.rules_file.clone(),
            finder.ceilings.clone(),
        );
        Workspace::new(
            found.root,
            found.rules_file,
            found.source,
            found.candidates,
            &finder.cwd,
        )
    }

    /// The pure part of [`Workspace::discover`], for tests.
    pub(crate) fn discover_from(
        options: &Options,
        cwd: &Path,
        file_env: Option<OsString>,
        ceilings: Option<OsString>,
    ) -> Workspace {
        let ceilings: Vec<PathBuf> = ceilings
            .map(|value| {
                env::split_paths(&value)
                    .filter(|p| p.is_absolute())
                    .collect()
            })
            .unwrap_or_default();
        let root = match &options.root {
            Some(root) => cwd.join(root),
            None => find_root(cwd, &ceilings),
        };
        let named = match (&options.file, file_env.filter(|v| !v.is_empty())) {
            (Some(file), _) => Some((cwd.join(file), Source::FileFlag)),
            (None, Some(file)) => Some((cwd.join(file), Source::FileEnv)),
            (None, None) => None,
        };
        if let Some((rules_file, source)) = named {
            return Workspace::new(root, rules_file, source, Vec::new(), cwd);
        }
        let candidates: Vec<PathBuf> = CANDIDATES.iter().map(|c| root.join(c)).collect();
        let (rules_file, source) = match candidates
            .iter()
            .enumerate()
            .find(|(at, c)| exists_or_link(c) && !(*at > 0 && is_foreign(c)))
            .map(|(_, c)| c)
        {
            Some(found) => (found.clone(), Source::Candidate),
            None => (root.join(DEFAULT_CANDIDATE), Source::Default),
        };
        Workspace::new(root, rules_file, source, candidates, cwd)
    }

    /// A workspace of these parts, its rules file shown relative to `cwd`.
    pub(crate) fn new(
        root: PathBuf,
        rules_file: PathBuf,
        source: Source,
        candidates: Vec<PathBuf>,
        cwd: &Path,
    ) -> Workspace {
        Workspace {
            shown: display_path(&rules_file, cwd),
            cwd: cwd.to_path_buf(),
            root,
            rules_file,
            source,
            candidates,
        }
    }

    /// The rules file by its display path, which is also a valid path from the current
    /// directory: the path it is read and written through, so that every error about it
    /// names it as the listings do, with no absolute path to take back out of the text.
    pub(crate) fn shown_path(&self) -> &Path {
        Path::new(&self.shown)
    }

    /// `path` as messages name it: relative to the current directory when it lies below
    /// it, as the rules file is shown.
    pub(crate) fn show(&self, path: &Path) -> String {
        display_path(path, &self.cwd)
    }

    /// The directory SARIF URIs are relative to: the nearest ancestor of the root that
    /// holds `.git` (what GitHub sees as the checkout), else the root itself.
    pub(crate) fn repository_root(&self) -> PathBuf {
        walk_to_top(&self.root, &[]).unwrap_or_else(|| self.root.clone())
    }

    /// Whether the rules file exists (a dangling link counts as existing, so that it is
    /// reported rather than silently replaced).
    pub(crate) fn rules_file_exists(&self) -> bool {
        exists_or_link(&self.rules_file)
    }
}

fn exists_or_link(path: &Path) -> bool {
    path.symlink_metadata().is_ok()
}

/// Whether `path` is another program's file that only shares the name: a JSON object (a
/// Scoop manifest is a root `autofix.json`), where a rules file is an array. Only the
/// names other tools use too are judged so (never `.agents/autofix.json`), and a file
/// that merely does not parse is still the rules file, for `check` to report.
pub(crate) fn is_foreign(path: &Path) -> bool {
    use std::io::Read as _;
    let mut bytes = Vec::new();
    let read =
        super::limits::open_regular(path).and_then(|file| file.take(4096).read_to_end(&mut bytes));
    if read.is_err() {
        return false;
    }
    let text = String::from_utf8_lossy(&bytes);
    text.trim_start_matches('\u{feff}')
        .trim_start()
        .starts_with('{')
}

/// The nearest ancestor holding a rules file candidate, else the nearest holding `.git`,
/// else `cwd` itself; never above a ceiling, and never above the repository root: a rules
/// file planted in a shared parent folder is not this repository's.
fn find_root(cwd: &Path, ceilings: &[PathBuf]) -> PathBuf {
    let top = walk_to_top(cwd, ceilings);
    let ancestors: Vec<&Path> = {
        let mut list = Vec::new();
        for dir in cwd.ancestors() {
            list.push(dir);
            if ceilings.iter().any(|c| c == dir) || top.as_deref() == Some(dir) {
                break;
            }
        }
        list
    };
    let with_candidate = ancestors
        .iter()
        .find(|dir| CANDIDATES.iter().any(|c| exists_or_link(&dir.join(c))));
    with_candidate
        .map(|dir| dir.to_path_buf())
        .or(top)
        .unwrap_or_else(|| cwd.to_path_buf())
}

/// `path` with `.` removed and `..` resolved by name, without touching the file system
/// (the file need not exist, and links are not followed).
pub(crate) fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// Where `path` really is: its longest existing prefix canonicalised (links resolved), the
/// rest (which does not exist yet, so holds no link) normalised lexically.
pub(crate) fn real_location(path: &Path) -> PathBuf {
    // A relative path is read as the file system reads it, from the current directory.
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let absolute = without_dots(&absolute);
    let mut existing = absolute.clone();
    let mut rest = Vec::new();
    while fs::canonicalize(&existing).is_err() {
        match (existing.file_name(), existing.parent()) {
            (Some(name), Some(parent)) => {
                rest.push(name.to_os_string());
                existing = parent.to_path_buf();
            }
            _ => return absolute,
        }
    }
    let mut real = fs::canonicalize(&existing).unwrap_or(existing);
    for name in rest.into_iter().rev() {
        real.push(name);
    }
    real
}

/// `path` (absolute) without `.` and `..`, each `..` taken where the file system takes it:
/// after following the links of what exists before it (`a/link/..` is the link target's
/// parent), by name only where nothing exists (no link can hide there). A lexical pass
/// alone would let `missing/../../etc` or `link/..` pass for a path inside a folder.
fn without_dots(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if let Ok(real) = fs::canonicalize(&out) {
                    out = real;
                }
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// `path` without the first of `roots` it lies strictly below, else as is: how a message
/// names a file below a root it shows relative (the paths of an error, mapped one by one,
/// never its text).
pub(crate) fn below(path: &Path, roots: &[PathBuf]) -> PathBuf {
    roots
        .iter()
        .filter(|root| root.as_os_str().len() > 1)
        .find_map(|root| path.strip_prefix(root).ok())
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(path)
        .to_path_buf()
}

/// Shows `path` relative to `base` when it lies below it, for messages.
pub(crate) fn display_path(path: &Path, base: &Path) -> String {
    path.strip_prefix(base)
        .ok()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// The nearest ancestor of `start` (itself included) that holds `.git` (a directory, or
/// a file in a linked worktree), never above a ceiling: the work tree's top, found without
/// running git, for discovery that must not depend on it.
pub(crate) fn walk_to_top(start: &Path, ceilings: &[PathBuf]) -> Option<PathBuf> {
    for dir in start.ancestors() {
        if dir.join(".git").symlink_metadata().is_ok() {
            return Some(dir.to_path_buf());
        }
        if ceilings.iter().any(|c| c == dir) {
            break;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn discover(dir: &Path, cwd: &Path, options: &Options) -> Workspace {
        Workspace::discover_from(options, cwd, None, Some(dir.as_os_str().to_owned()))
    }

    #[cfg(unix)]
    #[test]
    fn real_locations_take_dots_where_the_file_system_does() {
        let tmp = tempfile::tempdir().unwrap();
        let top = fs::canonicalize(tmp.path()).unwrap();
        fs::create_dir_all(top.join("repo")).unwrap();
        fs::create_dir_all(top.join("elsewhere/deep")).unwrap();
        std::os::unix::fs::symlink(top.join("elsewhere/deep"), top.join("repo/link")).unwrap();
        // A missing folder hides no link: its `..` is taken by name, never left in place.
        assert_eq!(
            real_location(&top.join("repo/missing/../../x")),
            top.join("x")
        );
        // Through a link, `..` is the target's parent, not the folder the link is in.
        assert_eq!(
            real_location(&top.join("repo/link/../y")),
            top.join("elsewhere/y")
        );
        assert_eq!(real_location(&top.join("repo/./a/b")), top.join("repo/a/b"));
    }

    #[test]
    fn walks_up_to_the_nearest_candidate_within_the_repository() {
        let tmp = tempfile::tempdir().unwrap();
        let top = tmp.path();
        fs::create_dir_all(top.join("repo/.git")).unwrap();
        fs::create_dir_all(top.join("repo/a/b")).unwrap();
        fs::write(top.join("repo/a/autofix.json"), "[]").unwrap();
        let ws = discover(top, &top.join("repo/a/b"), &Options::default());
        assert_eq!(ws.root, top.join("repo/a"));
        assert_eq!(ws.rules_file, top.join("repo/a/autofix.json"));
        assert_eq!(ws.source, Source::Candidate);
    }

    #[test]
    fn never_walks_above_the_repository_root() {
        let tmp = tempfile::tempdir().unwrap();
        let top = tmp.path();
        fs::create_dir_all(top.join("a/b/.git")).unwrap();
        fs::write(top.join("autofix.json"), "[]").unwrap();
        let ws = discover(top, &top.join("a/b"), &Options::default());
        assert_eq!(ws.root, top.join("a/b"));
        assert_eq!(ws.source, Source::Default);
    }

    #[test]
    fn falls_back_to_git_then_cwd() {
        let tmp = tempfile::tempdir().unwrap();
        let top = tmp.path();
        fs::create_dir_all(top.join("repo/.git")).unwrap();
        fs::create_dir_all(top.join("repo/src")).unwrap();
        let ws = discover(top, &top.join("repo/src"), &Options::default());
        assert_eq!(ws.root, top.join("repo"));
        assert_eq!(ws.rules_file, top.join("repo/.agents/autofix.json"));
        assert_eq!(ws.source, Source::Default);
        let ws = discover(top, top, &Options::default());
        assert_eq!(ws.root, top);
    }

    #[test]
    fn priority_follows_the_candidate_order() {
        let tmp = tempfile::tempdir().unwrap();
        let top = tmp.path();
        fs::create_dir_all(top.join(".rules")).unwrap();
        fs::write(top.join(".rules/autofix.json"), "[]").unwrap();
        assert_eq!(
            discover(top, top, &Options::default()).rules_file,
            top.join(".rules/autofix.json")
        );
        fs::write(top.join("autofix.json"), "[]").unwrap();
        assert_eq!(
            discover(top, top, &Options::default()).rules_file,
            top.join("autofix.json")
        );
    }

    #[test]
    fn the_ceiling_stops_the_walk() {
        let tmp = tempfile::tempdir().unwrap();
        let top = tmp.path();
        fs::write(top.join("autofix.json"), "[]").unwrap();
        fs::create_dir_all(top.join("inner")).unwrap();
        let ws = discover(&top.join("inner"), &top.join("inner"), &Options::default());
        assert_eq!(ws.root, top.join("inner"));
    }
}
