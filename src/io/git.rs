//! The one place that talks to git: running `git` itself (never a program named by input);
//! finding the work tree's top (by asking git, or by walking up to `.git` where git must not
//! be run); the queries the commands need (config values, attributes, the index's conflict
//! stages, blobs, the remotes' HEAD branches, tracked and ignored files); and looking a
//! program up on `PATH` as git and a shell would. The merge drivers' set-up, which writes
//! files, is `merge_setup`'s.

use std::ffi::OsStr;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::io::atomic::AtomicError;

#[derive(Debug, thiserror::Error)]
pub(crate) enum GitError {
    #[error("cannot run git (is it installed and on PATH?): {error}")]
    Spawn { error: io::Error },
    #[error("`git {args}` failed: {message}")]
    Failed { args: String, message: String },
    #[error("`git {args}` was stopped: what it fetched grew over the cap of {cap} bytes")]
    OverCap { args: String, cap: u64 },
    /// `hint` says why git is needed or what to do instead, shown in brackets after the
    /// directory; empty for none.
    #[error("{} is not inside a git work tree{}", dir.display(), bracketed(hint))]
    NotARepository { dir: PathBuf, hint: &'static str },
    #[error("cannot read {}: {error}", path.display())]
    Read { path: PathBuf, error: io::Error },
    #[error(transparent)]
    Write(#[from] AtomicError),
}

/// ` (hint)`, or nothing for an empty hint.
fn bracketed(hint: &str) -> String {
    if hint.is_empty() {
        String::new()
    } else {
        format!(" ({hint})")
    }
}

impl GitError {
    /// The same error, each file it names shown below the first of `roots` it lies in.
    pub(crate) fn relative_to(self, roots: &[PathBuf]) -> GitError {
        let b = |path: PathBuf| crate::io::workspace::below(&path, roots);
        match self {
            GitError::NotARepository { dir, hint } => {
                GitError::NotARepository { dir: b(dir), hint }
            }
            GitError::Read { path, error } => GitError::Read {
                path: b(path),
                error,
            },
            GitError::Write(error) => GitError::Write(error.relative_to(roots)),
            other @ (GitError::Spawn { .. }
            | GitError::Failed { .. }
            | GitError::OverCap { .. }) => other,
        }
    }
}

/// Where `git config` reads and writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Scope {
    /// The repository's own `.git/config`.
    Local,
    /// The user's global config (`~/.gitconfig`, or `GIT_CONFIG_GLOBAL`).
    Global,
}

impl Scope {
    pub(crate) fn flag(self) -> &'static str {
        match self {
            Scope::Local => "--local",
            Scope::Global => "--global",
        }
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            Scope::Local => "local",
            Scope::Global => "global",
        }
    }
}

/// `git` run in one directory.
#[derive(Clone, Debug)]
pub(crate) struct Git {
    dir: PathBuf,
}

/// What every local run turns off: the program a repository's own configuration could
/// have git run while it only reads (a file-system monitor hook). No local run commits,
/// merges or checks out, so no git hook runs; `init --pre-commit` asks git where the
/// hooks live, so `core.hooksPath` is left as configured. The diffs `enforce` reads also
/// pass `--no-ext-diff` and `--no-textconv`.
const LOCAL_CONFIG: [&str; 2] = ["-c", "core.fsmonitor=false"];

impl Git {
    pub(crate) fn new(dir: impl Into<PathBuf>) -> Git {
        Git { dir: dir.into() }
    }

    fn command<S: AsRef<OsStr>>(&self, args: &[S]) -> Command {
        let mut command = Command::new("git");
        command
            .args(LOCAL_CONFIG)
            .args(args)
            .current_dir(&self.dir)
            .stdin(Stdio::null())
            // An external diff named in the environment runs a program too.
            .env_remove("GIT_EXTERNAL_DIFF");
        command
    }

    /// Runs git and returns its output, whatever the exit status.
    pub(crate) fn output<S: AsRef<OsStr>>(&self, args: &[S]) -> Result<Output, GitError> {
        self.command(args)
            .output()
            .map_err(|error| GitError::Spawn { error })
    }

    /// The files git tracks under this directory, relative to it and `/`-separated
    /// (`git ls-files`); `None` outside a work tree or when git cannot run.
    pub(crate) fn tracked_files(&self) -> Option<Vec<String>> {
        let listed = self
            .run(&["ls-files", "-z", "--cached", "--full-name", "--", "."])
            .ok()?;
        // `--full-name` paths are not quoted, whatever `core.quotePath` says; they start
        // at the top, so the directory's own prefix (`src/app/`) comes off.
        let prefix = self
            .text(&["rev-parse", "--show-prefix"])
            .unwrap_or_default();
        let text = String::from_utf8_lossy(&listed);
        Some(
            text.split('\0')
                .filter(|f| !f.is_empty())
                .map(|f| f.strip_prefix(prefix.as_str()).unwrap_or(f).to_string())
                .collect(),
        )
    }

    /// Those of `paths` (relative to this directory) that git ignores; none when git
    /// cannot tell.
    pub(crate) fn ignored(&self, paths: &[&str]) -> Vec<String> {
        use std::io::Write as _;
        let child = self
            .command(&["check-ignore", "--stdin", "-z"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn();
        let Ok(mut child) = child else {
            return Vec::new();
        };
        if let Some(mut stdin) = child.stdin.take() {
            let input: String = paths.iter().map(|p| format!("{p}\0")).collect();
            let _ = stdin.write_all(input.as_bytes());
        }
        let Ok(output) = child.wait_with_output() else {
            return Vec::new();
        };
        String::from_utf8_lossy(&output.stdout)
            .split('\0')
            .filter(|p| !p.is_empty())
            .map(str::to_string)
            .collect()
    }

    /// Runs git; its stdout when it succeeds.
    pub(crate) fn run<S: AsRef<OsStr>>(&self, args: &[S]) -> Result<Vec<u8>, GitError> {
        let output = self.output(args)?;
        if output.status.success() {
            Ok(output.stdout)
        } else {
            Err(failed(args, &output))
        }
    }

    /// Runs git and hands `each` every line of its stdout (without the `\n`), one line held
    /// at a time, so that a long output (`git log -p` of a large file: hundreds of MB) costs
    /// the memory of its longest line; a line longer than `cap` bytes is passed over
    /// without being held. Errors as [`Git::run`], once the output is read.
    pub(crate) fn each_line<S: AsRef<OsStr>>(
        &self,
        args: &[S],
        cap: usize,
        mut each: impl FnMut(&[u8]),
    ) -> Result<(), GitError> {
        use std::io::{Read as _, Seek as _};
        // stderr goes to a file, not a pipe, so a git that writes much there never waits.
        let mut stderr = tempfile::tempfile().map_err(|error| GitError::Spawn { error })?;
        let errors = stderr
            .try_clone()
            .map_err(|error| GitError::Spawn { error })?;
        let mut child = self
            .command(args)
            .stdout(Stdio::piped())
            .stderr(errors)
            .spawn()
            .map_err(|error| GitError::Spawn { error })?;
        let stdout = io::BufReader::new(child.stdout.take().expect("piped"));
        super::limits::for_each_line(stdout, cap, |line| {
            each(line);
            true
        });
        let status = child.wait().map_err(|error| GitError::Spawn { error })?;
        if status.success() {
            return Ok(());
        }
        let mut text = Vec::new();
        let _ = stderr.seek(io::SeekFrom::Start(0));
        let _ = stderr.take(64 * 1024).read_to_end(&mut text);
        Err(failed(
            args,
            &Output {
                status,
                stdout: Vec::new(),
                stderr: text,
            },
        ))
    }

    /// Runs git; its stdout as text without the final newline.
    pub(crate) fn text<S: AsRef<OsStr>>(&self, args: &[S]) -> Result<String, GitError> {
        let stdout = self.run(args)?;
        let text = String::from_utf8_lossy(&stdout);
        Ok(text.trim_end_matches(['\n', '\r']).to_string())
    }

    /// The top of the work tree, or `None` outside one.
    pub(crate) fn top_level(&self) -> Result<Option<PathBuf>, GitError> {
        let output = self.output(&["rev-parse", "--show-toplevel"])?;
        if !output.status.success() {
            return Ok(None);
        }
        let text = String::from_utf8_lossy(&output.stdout);
        let top = text.trim_end_matches(['\n', '\r']);
        Ok((!top.is_empty()).then(|| PathBuf::from(top)))
    }

    /// The work tree's top, or an error naming the directory.
    pub(crate) fn require_top_level(&self, hint: &'static str) -> Result<PathBuf, GitError> {
        self.top_level()?.ok_or_else(|| GitError::NotARepository {
            dir: self.dir.clone(),
            hint,
        })
    }

    /// A path inside git's directory (`MERGE_MSG`, `rebase-merge`), as git resolves it.
    pub(crate) fn git_path(&self, name: &str) -> Result<PathBuf, GitError> {
        let path = PathBuf::from(self.text(&["rev-parse", "--git-path", name])?);
        Ok(if path.is_absolute() {
            path
        } else {
            self.dir.join(path)
        })
    }

    /// git's common directory (`.git` of the main work tree, shared by its worktrees).
    pub(crate) fn common_dir(&self) -> Result<PathBuf, GitError> {
        let path = PathBuf::from(self.text(&["rev-parse", "--git-common-dir"])?);
        Ok(if path.is_absolute() {
            path
        } else {
            self.dir.join(path)
        })
    }

    /// A config value; `None` when unset. `scope` `None` reads the merged config.
    pub(crate) fn config_get(
        &self,
        scope: Option<Scope>,
        key: &str,
    ) -> Result<Option<String>, GitError> {
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
    pub(crate) fn config_scope(&self, key: &str) -> Result<Option<String>, GitError> {
        let output = self.output(&["config", "--show-scope", "--get", key])?;
        if !output.status.success() {
            return Ok(None);
        }
        let text = String::from_utf8_lossy(&output.stdout);
        Ok(text.split('\t').next().map(str::to_string))
    }

    /// The value of attribute `name` for `path` (relative to this directory), as
    /// `git check-attr` reports it: `unspecified`, `set`, `unset` or the value.
    pub(crate) fn attribute(&self, name: &str, path: &Path) -> Result<String, GitError> {
        let stdout = self.run(&[
            OsStr::new("check-attr"),
            OsStr::new("-z"),
            OsStr::new(name),
            OsStr::new("--"),
            path.as_os_str(),
        ])?;
        // path NUL attribute NUL value NUL
        let fields: Vec<&[u8]> = stdout.split(|&b| b == 0).collect();
        Ok(fields.get(2).map_or_else(
            || "unspecified".into(),
            |value| String::from_utf8_lossy(value).into_owned(),
        ))
    }

    /// The index's conflict stages for `path` (relative to this directory): the blob id of
    /// stage 1 (base), 2 (ours) and 3 (theirs), each when present.
    pub(crate) fn conflict_stages(&self, path: &Path) -> Result<[Option<String>; 3], GitError> {
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
    pub(crate) fn blob(&self, id: &str) -> Result<Vec<u8>, GitError> {
        self.run(&["cat-file", "blob", id])
    }

    /// The branch names that count as upstream: `main`, `master` and the branch each
    /// remote's HEAD points at; and the remotes' names.
    pub(crate) fn upstream_names(&self) -> (Vec<String>, Vec<String>) {
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
    pub(crate) fn version(&self) -> Result<(u32, u32), GitError> {
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

/// Looks `program` up on `path` the way a shell would, without running it. A name with a
/// slash is checked as a path.
pub(crate) fn find_program(program: &str, path: Option<&std::ffi::OsStr>) -> Option<PathBuf> {
    if program.is_empty() || program.contains('\0') {
        return None;
    }
    if program.contains('/') {
        let candidate = PathBuf::from(program);
        return is_executable(&candidate).then_some(candidate);
    }
    std::env::split_paths(path?)
        .filter(|dir| !dir.as_os_str().is_empty())
        .flat_map(|dir| candidates(&dir, program))
        .find(|candidate| is_executable(candidate))
}

#[cfg(not(windows))]
fn candidates(dir: &Path, program: &str) -> Vec<PathBuf> {
    vec![dir.join(program)]
}

#[cfg(windows)]
fn candidates(dir: &Path, program: &str) -> Vec<PathBuf> {
    ["", ".exe", ".cmd", ".bat"]
        .iter()
        .map(|ext| dir.join(format!("{program}{ext}")))
        .collect()
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(path: &Path) -> bool {
    path.is_file()
}

/// git run against a source someone else controls (`autofix sources`): in a private bare
/// repository, with no hooks (`core.hooksPath=/dev/null`), only the https, ssh and file
/// transports, no terminal prompt, no ambient repository, a time limit and a cap on what
/// it prints. Nothing is ever checked out, so no filter, hook or link of the source runs.
#[derive(Debug)]
pub(crate) struct Remote {
    dir: PathBuf,
    timeout: std::time::Duration,
}

/// The settings every remote run gets, before its own arguments.
const REMOTE_CONFIG: [&str; 14] = [
    "-c",
    "core.hooksPath=/dev/null",
    "-c",
    "protocol.allow=never",
    "-c",
    "protocol.https.allow=always",
    "-c",
    "protocol.ssh.allow=always",
    "-c",
    "protocol.file.allow=always",
    "-c",
    "core.fsmonitor=false",
    "-c",
    "transfer.fsckObjects=true",
];

/// What a remote run is held to beyond its time limit: a cap on what the directory it
/// fills may weigh while it runs (a fetch from a server that ignores the filter), and a
/// label to report progress under while it runs long.
#[derive(Debug, Default)]
pub(crate) struct Watch<'a> {
    /// The directory and the most it may weigh, in bytes.
    pub dir_cap: Option<(&'a Path, u64)>,
    /// What is running, for the progress lines on stderr (`fetching org from URL`).
    pub progress: Option<&'a str>,
}

/// How a remote run ended when it did not end by itself.
enum Stopped {
    TimedOut,
    TooLarge(u64),
    /// A signal came ([`crate::io::interrupt`]).
    Interrupted,
}

impl Remote {
    /// A remote runner in `dir` (a bare repository it creates when `init` is called).
    pub(crate) fn new(dir: &Path, timeout: std::time::Duration) -> Remote {
        Remote {
            dir: dir.to_path_buf(),
            timeout,
        }
    }

    /// The command for `git <settings> <args>`, in its own process group.
    fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new("git");
        command
            .args(REMOTE_CONFIG)
            .args(args)
            .current_dir(&self.dir)
            .env("GIT_TERMINAL_PROMPT", "0")
            .env("GIT_ASKPASS", "/bin/false")
            .env("SSH_ASKPASS", "/bin/false")
            .env("GCM_INTERACTIVE", "never")
            .env_remove("GIT_DIR")
            .env_remove("GIT_WORK_TREE")
            .env_remove("GIT_INDEX_FILE")
            .env_remove("GIT_ALLOW_PROTOCOL")
            .env_remove("GIT_PROTOCOL_FROM_USER")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // Its own process group, so the end of a run also ends what git started (ssh, a
        // remote helper), which would otherwise live on and keep the pipes open.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        command
    }

    /// Runs `git <settings> <args>` in the directory; its stdout when it succeeds within the
    /// time limit and prints at most `cap` bytes.
    pub(crate) fn run(&self, args: &[&str], cap: u64) -> Result<Vec<u8>, GitError> {
        self.run_watched(args, cap, &Watch::default())
    }

    /// [`Remote::run`], also held to `watch`.
    pub(crate) fn run_watched(
        &self,
        args: &[&str],
        cap: u64,
        watch: &Watch<'_>,
    ) -> Result<Vec<u8>, GitError> {
        let mut child = self
            .command(args)
            .spawn()
            .map_err(|error| GitError::Spawn { error })?;
        // Who leads git's group, for a later run to end it if this one is killed outright.
        let _ = fs::write(self.dir.join(GROUP_FILE), group_record(child.id()));
        let stdout = read_in_thread(child.stdout.take().expect("piped"), cap + 1);
        let stderr = read_in_thread(child.stderr.take().expect("piped"), 64 * 1024);
        let ended = self.wait(&mut child, watch);
        // Whatever git left running in its group ends with it: no orphan holds a pipe.
        kill_group(child.id());
        let status = match ended {
            Ok(status) => status,
            Err(stopped) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(match stopped {
                    Stopped::TimedOut => GitError::Failed {
                        args: args.join(" "),
                        message: format!("timed out after {} s", self.timeout.as_secs()),
                    },
                    Stopped::TooLarge(cap) => GitError::OverCap {
                        args: args.join(" "),
                        cap,
                    },
                    Stopped::Interrupted => GitError::Failed {
                        args: args.join(" "),
                        message: "interrupted by a signal".into(),
                    },
                });
            }
        };
        // A helper outside the group (one that left it) may still hold a pipe: wait for
        // it only briefly.
        let grace = std::time::Duration::from_secs(2);
        let stdout = stdout
            .recv_timeout(grace)
            .unwrap_or_else(|_| Ok(Vec::new()));
        let stderr = stderr
            .recv_timeout(grace)
            .unwrap_or_else(|_| Ok(Vec::new()));
        finish(args, cap, status, stdout, &stderr.unwrap_or_default())
    }

    /// Waits for `child` within the time limit and `watch`'s cap, printing progress on a
    /// long run; the whole group is killed when it goes over.
    fn wait(
        &self,
        child: &mut std::process::Child,
        watch: &Watch<'_>,
    ) -> Result<std::process::ExitStatus, Stopped> {
        use std::time::{Duration, Instant};
        let start = Instant::now();
        let every = (self.timeout / 4).clamp(Duration::from_secs(1), Duration::from_secs(10));
        let mut next_progress = every;
        let mut next_measure = Duration::ZERO;
        loop {
            match child.try_wait() {
                Ok(Some(status)) => return Ok(status),
                Ok(None) => {}
                Err(_) => return Err(Stopped::TimedOut),
            }
            if crate::io::interrupt::interrupted() {
                kill_group(child.id());
                return Err(Stopped::Interrupted);
            }
            let elapsed = start.elapsed();
            if elapsed >= self.timeout {
                kill_group(child.id());
                return Err(Stopped::TimedOut);
            }
            if let Some((dir, most)) = watch.dir_cap
                && elapsed >= next_measure
            {
                next_measure = elapsed + Duration::from_millis(200);
                if weight(dir) > most {
                    kill_group(child.id());
                    return Err(Stopped::TooLarge(most));
                }
            }
            if let Some(what) = watch.progress
                && elapsed >= next_progress
            {
                next_progress += every;
                use std::io::Write as _;
                let _ = writeln!(
                    io::stderr().lock(),
                    "autofix sources: still {what} ({} s; stopped at {} s, AUTOFIX_SOURCES_TIMEOUT)",
                    elapsed.as_secs(),
                    self.timeout.as_secs()
                );
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

/// Reads up to `cap` bytes of `pipe` in a thread (then drains the rest), sending them when
/// the pipe closes.
fn read_in_thread(
    mut pipe: impl io::Read + Send + 'static,
    cap: u64,
) -> std::sync::mpsc::Receiver<io::Result<Vec<u8>>> {
    use std::io::Read as _;
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let read = (&mut pipe).take(cap).read_to_end(&mut bytes);
        let _ = io::copy(&mut pipe, &mut io::sink());
        let _ = send.send(read.map(|_| bytes));
    });
    receive
}

/// A finished remote run's result: its stdout, unless it printed over `cap` or failed.
fn finish(
    args: &[&str],
    cap: u64,
    status: std::process::ExitStatus,
    stdout: io::Result<Vec<u8>>,
    stderr: &[u8],
) -> Result<Vec<u8>, GitError> {
    let shown = || args.join(" ");
    let stdout = stdout.map_err(|error| GitError::Spawn { error })?;
    if u64::try_from(stdout.len()).unwrap_or(u64::MAX) > cap {
        return Err(GitError::Failed {
            args: shown(),
            message: format!("printed more than {cap} bytes"),
        });
    }
    if !status.success() {
        let text = String::from_utf8_lossy(stderr);
        return Err(GitError::Failed {
            args: shown(),
            message: match text.trim() {
                "" => format!("exit status {}", status.code().unwrap_or(-1)),
                text => text.to_string(),
            },
        });
    }
    Ok(stdout)
}

/// What the files under `dir` weigh, in bytes (links not followed).
fn weight(dir: &Path) -> u64 {
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .map(|entry| match entry.file_type() {
            Ok(kind) if kind.is_dir() => weight(&entry.path()),
            Ok(kind) if kind.is_file() => entry.metadata().map_or(0, |m| m.len()),
            _ => 0,
        })
        .sum()
}

/// The file in a remote run's directory naming the process group of its git run.
pub(crate) const GROUP_FILE: &str = "autofix-git-group";

/// `PID START`: the group's leader and when it started (Linux's `/proc/PID/stat` field
/// 22), so a later run ends that group only if its leader is that same process.
fn group_record(leader: u32) -> String {
    format!("{leader} {}", started(leader).unwrap_or_default())
}

/// When process `pid` started, in clock ticks after boot (Linux only).
fn started(pid: u32) -> Option<String> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The name (field 2) is in brackets and may hold spaces: count after its `)`.
    let after = stat.rsplit_once(')')?.1;
    after.split_whitespace().nth(19).map(str::to_string)
}

/// Ends the process group a killed run left, as `record` ([`group_record`]) names it: only
/// when its leader still runs and started when recorded (never a stranger that took the
/// number since).
#[cfg(unix)]
pub(crate) fn end_left_group(record: &str) {
    let Some((leader, start)) = record.trim().split_once(' ') else {
        return;
    };
    let Ok(leader) = leader.parse::<u32>() else {
        return;
    };
    if !start.is_empty() && started(leader).as_deref() == Some(start) {
        kill_group(leader);
    }
}

/// Sends SIGKILL to the process group `leader` leads: git and all it started. Done here,
/// not by a shell's `kill -- -PGID`, which some shells (dash) refuse.
#[cfg(unix)]
#[allow(unsafe_code)]
fn kill_group(leader: u32) {
    let Ok(group) = libc::pid_t::try_from(leader) else {
        return;
    };
    if group > 1 {
        // SAFETY: `killpg` only sends a signal; it reads and writes no memory of ours. The
        // group was made for this run (`process_group(0)`), so it is no one else's.
        unsafe {
            libc::killpg(group, libc::SIGKILL);
        }
    }
}

#[cfg(not(unix))]
fn kill_group(_leader: u32) {}

/// Whether process `pid` runs (or has yet to be reaped).
#[cfg(unix)]
#[allow(unsafe_code)]
pub(crate) fn process_lives(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    // SAFETY: signal 0 sends nothing; `kill` only says whether the process exists.
    let sent = unsafe { libc::kill(pid, 0) };
    sent == 0 || io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

/// The user this process runs as.
#[cfg(unix)]
#[allow(unsafe_code)]
pub(crate) fn current_uid() -> u32 {
    // SAFETY: `geteuid` reads no memory of ours and cannot fail.
    unsafe { libc::geteuid() }
}

/// `path` relative to the work tree's top, comparing real paths (the top git reports has
/// its symlinks resolved; the rules file or its directories may not exist yet).
pub(crate) fn relative_to_top(top: &Path, path: &Path) -> Option<PathBuf> {
    let top = fs::canonicalize(top).unwrap_or_else(|_| top.to_path_buf());
    let path = crate::io::workspace::real_location(path);
    let relative = path.strip_prefix(&top).ok()?;
    (!relative.as_os_str().is_empty()).then(|| relative.to_path_buf())
}

#[cfg(test)]
mod tests {
    #[cfg(unix)]
    use super::*;

    #[cfg(unix)]
    #[test]
    fn programs_need_the_execute_bit() {
        use std::os::unix::fs::PermissionsExt;
        let tmp = tempfile::tempdir().unwrap();
        let tool = tmp.path().join("tool");
        fs::write(&tool, "#!/bin/sh\n").unwrap();
        let path = Some(tmp.path().as_os_str());
        assert_eq!(find_program("tool", path), None);
        fs::set_permissions(&tool, fs::Permissions::from_mode(0o755)).unwrap();
        assert_eq!(find_program("tool", path), Some(tool));
        assert_eq!(find_program("nope", path), None);
        assert_eq!(find_program("tool", None), None);
    }

    #[cfg(unix)]
    #[test]
    fn programs_are_found_on_the_path_or_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let program = dir.path().join("autofix");
        fs::write(&program, "#!/bin/sh\n").unwrap();
        fs::set_permissions(
            &program,
            <fs::Permissions as std::os::unix::fs::PermissionsExt>::from_mode(0o755),
        )
        .unwrap();
        let path = std::env::join_paths(["/nonexistent".as_ref(), dir.path()]).unwrap();
        assert_eq!(find_program("autofix", Some(&path)), Some(program.clone()));
        assert_eq!(find_program("other", Some(&path)), None);
        assert_eq!(
            find_program(program.to_str().unwrap(), None),
            Some(program.clone())
        );
        fs::set_permissions(
            &program,
            <fs::Permissions as std::os::unix::fs::PermissionsExt>::from_mode(0o644),
        )
        .unwrap();
        assert_eq!(find_program(program.to_str().unwrap(), None), None);
    }
}
