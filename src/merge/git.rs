//! Talking to git: running `git` itself (never a program named by input), and the driver's
//! set-up — `merge.autofix.*` in the local or global config and the `merge=autofix` line in
//! `.gitattributes` — installed and removed idempotently. Also the few queries the driver,
//! `resolve` and `doctor` need: the top level, config values, attributes, the index's
//! conflict stages, blobs, the remotes' HEAD branches.

use std::ffi::OsStr;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::atomic::AtomicError;
use crate::safe_write::{self, Fence};

/// The driver's name in `merge.<name>.*` and in `merge=<name>`.
pub const DRIVER: &str = "autofix";

/// `merge.autofix.driver`: git substitutes the placeholders and runs it with `sh -c` from
/// the top of the work tree.
pub const DRIVER_COMMAND: &str = "autofix merge-driver --marker-size %L --base-label %S --ours-label %X --theirs-label %Y %O %A %B %P";

/// `merge.autofix.name`, shown by git in some messages.
pub const DRIVER_NAME: &str =
    "autofix rules-file merge (renumbers new rules, keeps published numbers)";

#[derive(Debug, thiserror::Error)]
pub enum GitError {
    #[error("cannot run git (is it installed and on PATH?): {source}")]
    Spawn { source: io::Error },
    #[error("`git {args}` failed: {message}")]
    Failed { args: String, message: String },
    #[error("{} is not inside a git work tree{hint}", dir.display())]
    NotARepository { dir: PathBuf, hint: &'static str },
    #[error("cannot read {}: {source}", path.display())]
    Read { path: PathBuf, source: io::Error },
    #[error(transparent)]
    Write(#[from] AtomicError),
}

/// Where `git config` reads and writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// The repository's own `.git/config`.
    Local,
    /// The user's global config (`~/.gitconfig`, or `GIT_CONFIG_GLOBAL`).
    Global,
}

impl Scope {
    fn flag(self) -> &'static str {
        match self {
            Scope::Local => "--local",
            Scope::Global => "--global",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Scope::Local => "local",
            Scope::Global => "global",
        }
    }
}

/// `git` run in one directory.
#[derive(Clone, Debug)]
pub struct Git {
    dir: PathBuf,
}

impl Git {
    pub fn new(dir: impl Into<PathBuf>) -> Git {
        Git { dir: dir.into() }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn command<S: AsRef<OsStr>>(&self, args: &[S]) -> Command {
        let mut command = Command::new("git");
        command
            .args(args)
            .current_dir(&self.dir)
            .stdin(Stdio::null());
        command
    }

    /// Runs git and returns its output, whatever the exit status.
    pub fn output<S: AsRef<OsStr>>(&self, args: &[S]) -> Result<Output, GitError> {
        self.command(args)
            .output()
            .map_err(|source| GitError::Spawn { source })
    }

    /// Runs git; its stdout when it succeeds.
    pub fn run<S: AsRef<OsStr>>(&self, args: &[S]) -> Result<Vec<u8>, GitError> {
        let output = self.output(args)?;
        if output.status.success() {
            Ok(output.stdout)
        } else {
            Err(failed(args, &output))
        }
    }

    /// Runs git; its stdout as text without the final newline.
    pub fn text<S: AsRef<OsStr>>(&self, args: &[S]) -> Result<String, GitError> {
        let stdout = self.run(args)?;
        let text = String::from_utf8_lossy(&stdout);
        Ok(text.trim_end_matches(['\n', '\r']).to_string())
    }

    /// The top of the work tree, or `None` outside one.
    pub fn top_level(&self) -> Result<Option<PathBuf>, GitError> {
        let output = self.output(&["rev-parse", "--show-toplevel"])?;
        if !output.status.success() {
            return Ok(None);
        }
        let text = String::from_utf8_lossy(&output.stdout);
        let top = text.trim_end_matches(['\n', '\r']);
        Ok((!top.is_empty()).then(|| PathBuf::from(top)))
    }

    /// The work tree's top, or an error naming the directory.
    pub fn require_top_level(&self, hint: &'static str) -> Result<PathBuf, GitError> {
        self.top_level()?.ok_or_else(|| GitError::NotARepository {
            dir: self.dir.clone(),
            hint,
        })
    }

    /// A path inside git's directory (`MERGE_MSG`, `rebase-merge`), as git resolves it.
    pub fn git_path(&self, name: &str) -> Result<PathBuf, GitError> {
        let path = PathBuf::from(self.text(&["rev-parse", "--git-path", name])?);
        Ok(if path.is_absolute() {
            path
        } else {
            self.dir.join(path)
        })
    }

    /// A config value; `None` when unset. `scope` `None` reads the merged config.
    pub fn config_get(&self, scope: Option<Scope>, key: &str) -> Result<Option<String>, GitError> {
        let mut args = vec!["config"];
        if let Some(scope) = scope {
            args.push(scope.flag());
        }
        args.extend(["--get", key]);
        let output = self.output(&args)?;
        match output.status.code() {
            Some(0) => Ok(Some(
                String::from_utf8_lossy(&output.stdout)
                    .trim_end_matches(['\n', '\r'])
                    .to_string(),
            )),
            // 1: the key is not set.
            Some(1) => Ok(None),
            _ => Err(failed(&args, &output)),
        }
    }

    /// The scope (`local`, `global`, ...) a config key comes from, when it is set.
    pub fn config_scope(&self, key: &str) -> Result<Option<String>, GitError> {
        let output = self.output(&["config", "--show-scope", "--get", key])?;
        if !output.status.success() {
            return Ok(None);
        }
        let text = String::from_utf8_lossy(&output.stdout);
        Ok(text.split('\t').next().map(str::to_string))
    }

    /// The value of attribute `name` for `path` (relative to this directory), as
    /// `git check-attr` reports it: `unspecified`, `set`, `unset` or the value.
    pub fn attribute(&self, name: &str, path: &Path) -> Result<String, GitError> {
        let stdout = self.run(&[
            OsStr::new("check-attr"),
            OsStr::new("-z"),
            OsStr::new(name),
            OsStr::new("--"),
            path.as_os_str(),
        ])?;
        // path NUL attribute NUL value NUL
        let fields: Vec<&[u8]> = stdout.split(|&b| b == 0).collect();
        Ok(fields
            .get(2)
            .map(|value| String::from_utf8_lossy(value).into_owned())
            .unwrap_or_else(|| "unspecified".into()))
    }

    /// The index's conflict stages for `path` (relative to this directory): the blob id of
    /// stage 1 (base), 2 (ours) and 3 (theirs), each when present.
    pub fn conflict_stages(&self, path: &Path) -> Result<[Option<String>; 3], GitError> {
        let stdout = self.run(&[
            OsStr::new("ls-files"),
            OsStr::new("-u"),
            OsStr::new("-z"),
            OsStr::new("--"),
            path.as_os_str(),
        ])?;
        let mut stages: [Option<String>; 3] = Default::default();
        for entry in stdout.split(|&b| b == 0).filter(|e| !e.is_empty()) {
            let entry = String::from_utf8_lossy(entry);
            let Some((info, _path)) = entry.split_once('\t') else {
                continue;
            };
            let fields: Vec<&str> = info.split(' ').collect();
            if let [_mode, id, stage] = fields.as_slice()
                && let Ok(stage @ 1..=3) = stage.parse::<usize>()
            {
                stages[stage - 1] = Some((*id).to_string());
            }
        }
        Ok(stages)
    }

    /// The bytes of a blob.
    pub fn blob(&self, id: &str) -> Result<Vec<u8>, GitError> {
        self.run(&["cat-file", "blob", id])
    }

    /// The branch names that count as upstream: `main`, `master` and the branch each
    /// remote's HEAD points at; and the remotes' names.
    pub fn upstream_names(&self) -> (Vec<String>, Vec<String>) {
        let mut branches = vec!["main".to_string(), "master".to_string()];
        let remotes: Vec<String> = self
            .text(&["remote"])
            .map(|text| text.lines().map(str::to_string).collect())
            .unwrap_or_default();
        let heads = self
            .text(&[
                "for-each-ref",
                "--format=%(refname) %(symref)",
                "refs/remotes/*/HEAD",
            ])
            .unwrap_or_default();
        for line in heads.lines() {
            let Some((head, target)) = line.split_once(' ') else {
                continue;
            };
            let remote = head
                .strip_prefix("refs/remotes/")
                .and_then(|rest| rest.strip_suffix("/HEAD"));
            if let Some(remote) = remote
                && let Some(branch) = target.strip_prefix(&format!("refs/remotes/{remote}/"))
                && !branches.iter().any(|b| b == branch)
            {
                branches.push(branch.to_string());
            }
        }
        (branches, remotes)
    }

    /// `git version`'s numbers, e.g. (2, 47).
    pub fn version(&self) -> Result<(u32, u32), GitError> {
        let text = self.text(&["version"])?;
        let numbers = text.trim_start_matches("git version ");
        let mut parts = numbers.split(['.', ' ']).map(|p| p.parse::<u32>().ok());
        match (parts.next().flatten(), parts.next().flatten()) {
            (Some(major), Some(minor)) => Ok((major, minor)),
            _ => Err(GitError::Failed {
                args: "version".into(),
                message: format!("unexpected output {text:?}"),
            }),
        }
    }
}

fn failed<S: AsRef<OsStr>>(args: &[S], output: &Output) -> GitError {
    let args: Vec<String> = args
        .iter()
        .map(|a| a.as_ref().to_string_lossy().into_owned())
        .collect();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let message = match stderr.trim() {
        "" => format!("exit status {}", output.status.code().unwrap_or(-1)),
        text => text.to_string(),
    };
    GitError::Failed {
        args: args.join(" "),
        message,
    }
}

/// What a set-up step did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub changed: bool,
    pub message: String,
    /// The versioned file the step changed, relative to the work tree's top
    /// (`.gitattributes`), so callers can tell the user to commit it.
    pub file: Option<&'static str>,
}

/// What `install` or `uninstall` did, step by step.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Setup {
    pub steps: Vec<Step>,
}

impl Setup {
    pub fn changed(&self) -> bool {
        self.steps.iter().any(|step| step.changed)
    }

    fn step(&mut self, changed: bool, message: String) {
        self.steps.push(Step {
            changed,
            message,
            file: None,
        });
    }

    /// A step that changed `.gitattributes`.
    fn attributes_step(&mut self, message: String) {
        self.steps.push(Step {
            changed: true,
            message,
            file: Some(".gitattributes"),
        });
    }
}

/// Installs the driver: `merge.autofix.name` and `.driver` in the `scope` config, and the
/// `merge=autofix` attribute for `rules_file` in the work tree's top `.gitattributes` (when
/// `cwd` is in a work tree and the file lies inside it). Running it again changes nothing.
pub fn install(cwd: &Path, rules_file: &Path, scope: Scope) -> Result<Setup, GitError> {
    let git = Git::new(cwd);
    let top = match scope {
        Scope::Local => {
            Some(git.require_top_level(" (use --global to install for every repository)")?)
        }
        Scope::Global => git.top_level()?,
    };
    if let Some(top) = &top {
        // Refuse a linked `.gitattributes` before changing the config: all or nothing.
        Fence::repository(top, rules_file).resolve(&top.join(".gitattributes"))?;
    }
    let mut setup = Setup::default();
    for (key, value) in [
        ("merge.autofix.name", DRIVER_NAME),
        ("merge.autofix.driver", DRIVER_COMMAND),
    ] {
        if git.config_get(Some(scope), key)?.as_deref() == Some(value) {
            setup.step(
                false,
                format!("{key} already set ({} config)", scope.name()),
            );
        } else {
            git.run(&["config", scope.flag(), key, value])?;
            setup.step(true, format!("set {key} ({} config)", scope.name()));
        }
    }
    if let Some(top) = top {
        attribute_step(&top, rules_file, &mut setup, add_attribute)?;
    }
    Ok(setup)
}

/// Removes the driver: the whole `merge.autofix` section of the `scope` config (removing
/// only `driver` would make every merge of the file fail) and the `merge=autofix`
/// attributes from the work tree's top `.gitattributes`. Running it again changes nothing.
pub fn uninstall(cwd: &Path, rules_file: &Path, scope: Scope) -> Result<Setup, GitError> {
    let git = Git::new(cwd);
    let top = match scope {
        Scope::Local => Some(git.require_top_level(" (use --global for the global config)")?),
        Scope::Global => git.top_level()?,
    };
    let mut setup = Setup::default();
    let present = git
        .config_get(Some(scope), "merge.autofix.driver")?
        .is_some()
        || git.config_get(Some(scope), "merge.autofix.name")?.is_some();
    if present {
        git.run(&["config", scope.flag(), "--remove-section", "merge.autofix"])?;
        setup.step(
            true,
            format!(
                "removed the merge.autofix section ({} config)",
                scope.name()
            ),
        );
    } else {
        setup.step(
            false,
            format!("no merge.autofix section ({} config)", scope.name()),
        );
    }
    if let Some(top) = top {
        attribute_step(&top, rules_file, &mut setup, |text, _| {
            remove_attribute(text)
        })?;
    }
    Ok(setup)
}

fn attribute_step(
    top: &Path,
    rules_file: &Path,
    setup: &mut Setup,
    edit: fn(&str, &str) -> Option<String>,
) -> Result<(), GitError> {
    let Some(pattern) = pattern_for(top, rules_file) else {
        setup.step(
            false,
            format!(
                "{} is outside the work tree {}; no attribute written",
                rules_file.display(),
                top.display()
            ),
        );
        return Ok(());
    };
    let path = top.join(".gitattributes");
    // A committed `.gitattributes` may be a link: never read or write through one that
    // leads out of the work tree, into `.git/` or onto the rules file.
    let fence = Fence::repository(top, rules_file);
    fence.resolve(&path)?;
    let old = match fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(error) if error.kind() == io::ErrorKind::NotFound => None,
        Err(source) => return Err(GitError::Read { path, source }),
    };
    let line = format!("{pattern} merge={DRIVER}");
    match edit(old.as_deref().unwrap_or(""), &pattern) {
        None => setup.step(false, format!(".gitattributes unchanged (`{line}`)")),
        Some(new) if new.trim().is_empty() && old.is_some() => {
            fs::remove_file(&path).map_err(|source| GitError::Read {
                path: path.clone(),
                source,
            })?;
            setup.attributes_step("removed .gitattributes (it held only the driver's line)".into());
        }
        Some(new) => {
            let adding = new.len() > old.as_deref().unwrap_or("").len();
            let expected = old.as_deref().map(str::as_bytes);
            safe_write::write(&fence, &path, new.as_bytes(), expected)?;
            let message = if adding {
                format!("added `{line}` to .gitattributes (commit it so the team gets it)")
            } else {
                "removed the merge=autofix attributes from .gitattributes".to_string()
            };
            setup.attributes_step(message);
        }
    }
    Ok(())
}

/// The `.gitattributes` pattern for `rules_file` at the top `top`: its path from the top,
/// anchored (`/autofix.json`) when it has no directory part. `None` when outside.
pub fn pattern_for(top: &Path, rules_file: &Path) -> Option<String> {
    let relative = relative_to_top(top, rules_file)?;
    let text = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/");
    // Glob characters match themselves when escaped; whitespace and quotes need git's
    // C-style quoting of the whole pattern.
    let mut escaped = String::with_capacity(text.len() + 2);
    for c in text.chars() {
        if matches!(c, '*' | '?' | '[' | '\\') {
            escaped.push('\\');
        }
        escaped.push(c);
    }
    if !escaped.contains('/') {
        escaped.insert(0, '/');
    }
    Some(
        if escaped.contains(|c: char| c.is_whitespace() || c.is_control() || c == '"') {
            let quoted = escaped.replace('\\', "\\\\").replace('"', "\\\"");
            format!("\"{}\"", quote_controls(&quoted))
        } else {
            escaped
        },
    )
}

/// Control characters in git's C-style quoting (`\n`, `\t`, octal for the rest), so that a
/// file name with a line break cannot add a line to `.gitattributes`.
fn quote_controls(text: &str) -> String {
    let mut quoted = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' => quoted.push_str("\\n"),
            '\t' => quoted.push_str("\\t"),
            '\r' => quoted.push_str("\\r"),
            c if c.is_control() => {
                let mut buffer = [0; 4];
                for byte in c.encode_utf8(&mut buffer).bytes() {
                    quoted.push_str(&format!("\\{byte:03o}"));
                }
            }
            c => quoted.push(c),
        }
    }
    quoted
}

/// `path` relative to the work tree's top, comparing real paths (the top git reports has
/// its symlinks resolved; the rules file or its directories may not exist yet).
pub fn relative_to_top(top: &Path, path: &Path) -> Option<PathBuf> {
    let top = fs::canonicalize(top).unwrap_or_else(|_| top.to_path_buf());
    let path = crate::workspace::real_location(path);
    let relative = path.strip_prefix(&top).ok()?;
    (!relative.as_os_str().is_empty()).then(|| relative.to_path_buf())
}

/// `.gitattributes` with `pattern merge=autofix` added, or `None` when a line already
/// gives `pattern` that attribute. The file's line endings are kept.
pub fn add_attribute(text: &str, pattern: &str) -> Option<String> {
    let anchored = |p: &str| {
        p.trim_start_matches('"')
            .trim_start_matches('/')
            .to_string()
    };
    let wanted = anchored(pattern);
    let present = text.lines().any(|line| {
        let (first, attributes) = split_pattern(line);
        anchored(first) == wanted
            && attributes
                .split_whitespace()
                .any(|word| word == format!("merge={DRIVER}"))
    });
    if present {
        return None;
    }
    let newline = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let mut new = text.to_string();
    if !new.is_empty() && !new.ends_with('\n') {
        new.push_str(newline);
    }
    new.push_str(&format!("{pattern} merge={DRIVER}{newline}"));
    Some(new)
}

/// A `.gitattributes` line's pattern (C-quoted or not) and the rest.
fn split_pattern(line: &str) -> (&str, &str) {
    let line = line.trim_start();
    let end = if line.starts_with('"') {
        let mut escaped = false;
        line.char_indices()
            .skip(1)
            .find(|&(_, c)| {
                let close = c == '"' && !escaped;
                escaped = c == '\\' && !escaped;
                close
            })
            .map_or(line.len(), |(at, _)| at + 1)
    } else {
        line.find(char::is_whitespace).unwrap_or(line.len())
    };
    line.split_at(end)
}

/// `.gitattributes` without any `merge=autofix` attribute (a line left with no attribute
/// goes), or `None` when there is none.
pub fn remove_attribute(text: &str) -> Option<String> {
    let ours = format!("merge={DRIVER}");
    let mut changed = false;
    let mut new = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let content = line.trim_end_matches(['\n', '\r']);
        let (pattern, attributes) = split_pattern(content);
        let words: Vec<&str> = attributes.split_whitespace().collect();
        if content.trim_start().starts_with('#') || !words.contains(&ours.as_str()) {
            new.push_str(line);
            continue;
        }
        changed = true;
        let kept: Vec<&str> = words.into_iter().filter(|w| *w != ours).collect();
        if !kept.is_empty() {
            new.push_str(pattern);
            for word in kept {
                new.push(' ');
                new.push_str(word);
            }
            new.push_str(&line[content.len()..]);
        }
    }
    changed.then_some(new)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attributes_are_added_once_and_removed() {
        let added = add_attribute("", ".agents/autofix.json").unwrap();
        assert_eq!(added, ".agents/autofix.json merge=autofix\n");
        assert_eq!(add_attribute(&added, ".agents/autofix.json"), None);
        assert_eq!(add_attribute("/x merge=autofix text\n", "x"), None);
        let crlf = add_attribute("*.sh text eol=lf\r\n", "/autofix.json").unwrap();
        assert_eq!(crlf, "*.sh text eol=lf\r\n/autofix.json merge=autofix\r\n");
        let unterminated = add_attribute("*.sh text", "/a").unwrap();
        assert_eq!(unterminated, "*.sh text\n/a merge=autofix\n");

        assert_eq!(remove_attribute(&crlf).unwrap(), "*.sh text eol=lf\r\n");
        assert_eq!(
            remove_attribute("x text merge=autofix -diff\n").unwrap(),
            "x text -diff\n"
        );
        assert_eq!(remove_attribute("# x merge=autofix\n"), None);
        assert_eq!(remove_attribute("*.sh text\n"), None);
        assert_eq!(remove_attribute(&added).unwrap(), "");
        let quoted = add_attribute("", "\"my rules/a.json\"").unwrap();
        assert_eq!(add_attribute(&quoted, "\"my rules/a.json\""), None);
        assert_eq!(remove_attribute(&quoted).unwrap(), "");
    }

    #[test]
    fn patterns_are_relative_and_anchored() {
        let top = tempfile::tempdir().unwrap();
        let top = top.path();
        assert_eq!(
            pattern_for(top, &top.join(".agents/autofix.json")).as_deref(),
            Some(".agents/autofix.json")
        );
        assert_eq!(
            pattern_for(top, &top.join("autofix.json")).as_deref(),
            Some("/autofix.json")
        );
        assert_eq!(
            pattern_for(top, &top.join("my rules/a.json")).as_deref(),
            Some("\"my rules/a.json\"")
        );
        assert_eq!(
            pattern_for(top, &top.join("b*.json")).as_deref(),
            Some("/b\\*.json")
        );
        assert_eq!(pattern_for(top, Path::new("/elsewhere/autofix.json")), None);
    }
}
