//! The sandbox every case runs in: a temp directory that is the workspace, `HOME` inside
//! it, discovery fenced at it, and no behaviour-changing environment from outside.
#![allow(dead_code)] // Each helper is used by some modules, not all.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

pub(crate) const BIN: &str = env!("CARGO_BIN_EXE_autofix");

pub(crate) struct Sandbox {
    dir: tempfile::TempDir,
}

/// What a run produced.
pub(crate) struct Run {
    pub(crate) code: i32,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

impl Run {
    /// Runs a prepared command to completion.
    pub(crate) fn from_command(command: &mut Command) -> Run {
        Run::from(command.output().unwrap())
    }

    /// Runs a prepared command, killing it if it has not ended after `seconds`: for inputs
    /// that once made a command hang (a FIFO, an exponential glob). The bound is far above
    /// any honest run's time; reaching it fails the test, so it measures nothing.
    #[track_caller]
    pub(crate) fn within(command: &mut Command, seconds: u64) -> Run {
        let out = tempfile::tempfile().unwrap();
        let err = tempfile::tempfile().unwrap();
        let mut child = command
            .stdout(out.try_clone().unwrap())
            .stderr(err.try_clone().unwrap())
            .spawn()
            .unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(seconds);
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if std::time::Instant::now() > deadline {
                child.kill().unwrap();
                child.wait().unwrap();
                panic!("{command:?} had not ended after {seconds} s: killed");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        let read = |mut file: fs::File| {
            use std::io::{Read, Seek};
            let mut text = Vec::new();
            file.seek(std::io::SeekFrom::Start(0)).unwrap();
            file.read_to_end(&mut text).unwrap();
            String::from_utf8_lossy(&text).into_owned()
        };
        Run {
            code: status.code().unwrap_or(-1),
            stdout: read(out),
            stderr: read(err),
        }
    }

    fn from(output: Output) -> Run {
        Run {
            code: output.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }

    /// Asserts the exit status, showing both streams when it differs. A success must also
    /// be silent on stderr: a stray warning or error is a finding, not noise (use
    /// [`Run::expect_noisy`] where the test wants one, and assert on it).
    #[track_caller]
    pub(crate) fn expect(self, code: i32) -> Run {
        let run = self.expect_noisy(code);
        if code == 0 {
            assert!(
                run.stderr.is_empty(),
                "a successful run wrote to stderr\n--- stdout\n{}\n--- stderr\n{}",
                run.stdout,
                run.stderr
            );
        }
        run
    }

    /// Asserts the exit status only; the test checks stderr itself.
    #[track_caller]
    pub(crate) fn expect_noisy(self, code: i32) -> Run {
        assert_eq!(
            self.code, code,
            "exit status\n--- stdout\n{}\n--- stderr\n{}",
            self.stdout, self.stderr
        );
        self
    }

    pub(crate) fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{}", self.stdout))
    }
}

/// Copies a directory tree (files and folders; the example workspace's lock file is not
/// data and is left out).
pub(crate) fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else if entry.file_name() != "autofix.json.lock" {
            fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// A sandbox holding a copy of the bundled example workspace.
pub(crate) fn example_workspace() -> Sandbox {
    let sandbox = Sandbox::new();
    copy_dir(
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/examples")),
        sandbox.path(),
    );
    sandbox
}

impl Sandbox {
    pub(crate) fn new() -> Sandbox {
        let dir = tempfile::Builder::new()
            .prefix("autofix-test-")
            .tempdir()
            .unwrap();
        fs::create_dir(dir.path().join("home")).unwrap();
        Sandbox { dir }
    }

    pub(crate) fn path(&self) -> &Path {
        self.dir.path()
    }

    pub(crate) fn join(&self, relative: impl AsRef<Path>) -> PathBuf {
        self.dir.path().join(relative)
    }

    /// Writes a file (creating its directories) and returns its path.
    pub(crate) fn write(&self, relative: impl AsRef<Path>, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.join(relative);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, contents).unwrap();
        path
    }

    pub(crate) fn read(&self, relative: impl AsRef<Path>) -> String {
        fs::read_to_string(self.join(relative)).unwrap()
    }

    pub(crate) fn read_bytes(&self, relative: impl AsRef<Path>) -> Vec<u8> {
        fs::read(self.join(relative)).unwrap()
    }

    /// A command for the binary, run from `relative_cwd` inside the sandbox.
    pub(crate) fn command_in(&self, relative_cwd: &str, args: &[&str]) -> Command {
        let mut command = self.program(BIN, args);
        command.current_dir(self.join(relative_cwd));
        command
    }

    /// A command for any program (`strace`, `sh`), with the sandbox's directory and
    /// environment.
    pub(crate) fn program(&self, program: &str, args: &[&str]) -> Command {
        let mut command = Command::new(program);
        command
            .args(args)
            .current_dir(self.path())
            .env_remove("NO_COLOR")
            .env_remove("AUTOFIX_FILE")
            .env_remove("AUTOFIX_LOCK_TIMEOUT")
            // The other settings the front end reads (src/front/settings.rs), which a
            // developer's shell may hold.
            .env_remove("AUTOFIX_MAX_FILE_BYTES")
            .env_remove("AUTOFIX_SOURCES_TIMEOUT")
            .env_remove("AUTOFIX_SOURCES_MAX_FETCH")
            .env_remove("AUTOFIX_MERGE_UPSTREAM")
            .env_remove("AUTOFIX_MERGE_DRIVER")
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("CODEX_HOME")
            .env_remove("COPILOT_HOME")
            .env_remove("COLUMNS")
            .env_remove("CLICOLOR_FORCE")
            // `learn` answers in the locale's language; tests choose it themselves.
            .env_remove("LC_ALL")
            .env_remove("LC_MESSAGES")
            .env_remove("LANG")
            .env("HOME", self.join("home"))
            // The personal layer is read from `$XDG_CONFIG_HOME` (else `$HOME/.config`).
            .env_remove("XDG_CONFIG_HOME")
            // The sources' verified-copy cache goes to `$HOME/.cache` then.
            .env_remove("XDG_CACHE_HOME")
            .env("AUTOFIX_CEILING_DIRECTORIES", self.path())
            // git (run by tests and by `init`) reads no machine-wide configuration.
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .stdin(Stdio::null());
        command
    }

    pub(crate) fn command(&self, args: &[&str]) -> Command {
        self.command_in("", args)
    }

    /// Runs the binary in the sandbox root.
    pub(crate) fn run(&self, args: &[&str]) -> Run {
        Run::from(self.command(args).output().unwrap())
    }

    /// Runs the binary with `input` on standard input.
    pub(crate) fn run_with_stdin(&self, args: &[&str], input: &str) -> Run {
        self.run_with_stdin_in("", args, input)
    }

    /// Runs the binary in `relative_cwd` with `input` on standard input.
    pub(crate) fn run_with_stdin_in(&self, relative_cwd: &str, args: &[&str], input: &str) -> Run {
        let mut child = self
            .command_in(relative_cwd, args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // A program may exit without reading its input; that is its answer, not a
        // harness failure.
        if let Err(error) = child.stdin.take().unwrap().write_all(input.as_bytes()) {
            assert_eq!(error.kind(), std::io::ErrorKind::BrokenPipe, "{error}");
        }
        Run::from(child.wait_with_output().unwrap())
    }
}

/// Records that a test could not make its check because `tool` is missing, as a line
/// `skipped: <tool>: <what>` in `target/tmp/skipped.log`, which `.ci/run` counts and
/// prints (the test harness hides a passing test's output). When `CI` is set and `.ci/run`
/// installed the tool itself (it lists such tools in `AUTOFIX_CI_TOOLS`), a skip means the
/// install is broken, and the test fails instead.
#[track_caller]
/// Where `program` is on `PATH`, if anywhere.
pub(crate) fn which(program: &str) -> Option<String> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|candidate| candidate.is_file())
        .map(|found| found.display().to_string())
}

pub(crate) fn skip(tool: &str, what: &str) {
    let installed_by_ci = std::env::var("AUTOFIX_CI_TOOLS")
        .is_ok_and(|tools| tools.split_whitespace().any(|t| t == tool));
    if std::env::var_os("CI").is_some() && installed_by_ci {
        panic!("{tool} was installed by .ci/run but cannot be used: {what}");
    }
    let line = format!("skipped: {tool}: {what}\n");
    eprint!("{line}");
    let log = Path::new(env!("CARGO_TARGET_TMPDIR")).join("skipped.log");
    if let Ok(mut file) = fs::OpenOptions::new().create(true).append(true).open(log) {
        let _ = file.write_all(line.as_bytes());
    }
}

/// A sandbox that is a git repository tracking `files` (created empty); `None`, with the
/// skip recorded, when git cannot run.
pub(crate) fn tracked_repo(files: &[&str]) -> Option<Sandbox> {
    let sandbox = Sandbox::new();
    for file in files {
        sandbox.write(file, "");
    }
    let git = |args: &[&str]| {
        sandbox
            .program("git", args)
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if !(git(&["init", "-q"]) && git(&["add", "--", "."])) {
        skip(
            "git",
            "a repository whose tracked files decide `unmatched-scope`",
        );
        return None;
    }
    Some(sandbox)
}

/// Every file below `dir`, as `/`-separated paths relative to it, sorted (`.git` and the
/// sandbox's `home` left out).
pub(crate) fn files_below(dir: &Path) -> Vec<String> {
    fn walk(base: &Path, dir: &Path, out: &mut Vec<String>) {
        for entry in fs::read_dir(dir).unwrap() {
            let entry = entry.unwrap();
            let name = entry.file_name().into_string().unwrap();
            if dir == base && (name == ".git" || name == "home") {
                continue;
            }
            if entry.file_type().unwrap().is_dir() {
                walk(base, &entry.path(), out);
            } else {
                let relative = entry.path().strip_prefix(base).unwrap().to_path_buf();
                out.push(relative.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// Compares `actual` with the fixture at `tests/fixtures/<name>`, byte for byte; with
/// `AUTOFIX_BLESS=1` in the environment, writes the fixture instead (review the diff).
#[track_caller]
pub(crate) fn assert_fixture(name: &str, actual: &str) {
    let path = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures")).join(name);
    if std::env::var_os("AUTOFIX_BLESS").is_some() {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, actual).unwrap();
        return;
    }
    let expected = fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (AUTOFIX_BLESS=1 writes it)", path.display()));
    assert_eq!(actual, expected, "{name} differs from its fixture");
}

/// `command` isolated from the machine's git set-up: no system or global config, a fixed
/// identity and dates, no editor, no inherited repository or merge settings, and this
/// build's `autofix` first on `PATH` (for the merge drivers git runs).
pub(crate) fn hermetic_git(command: &mut Command) -> &mut Command {
    let bin_dir = Path::new(BIN).parent().unwrap();
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut paths = vec![bin_dir.to_path_buf()];
    paths.extend(std::env::split_paths(&path));
    command
        .env("PATH", std::env::join_paths(paths).unwrap())
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_NAME", "Ada")
        .env("GIT_AUTHOR_EMAIL", "ada@example.com")
        .env("GIT_COMMITTER_NAME", "Ada")
        .env("GIT_COMMITTER_EMAIL", "ada@example.com")
        .env("GIT_AUTHOR_DATE", "2024-01-01T00:00:00Z")
        .env("GIT_COMMITTER_DATE", "2024-01-01T00:00:00Z")
        .env("GIT_EDITOR", "true")
        .env("GIT_SEQUENCE_EDITOR", "true")
        .env("GIT_MERGE_AUTOEDIT", "no")
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE")
        .env_remove("GIT_REFLOG_ACTION")
        .env_remove("AUTOFIX_MERGE_UPSTREAM")
        .env_remove("AUTOFIX_MERGE_DRIVER")
}

/// The reply of the MCP server, run in `relative_cwd`, to one call of tool `name` with
/// `arguments` (the server answers a call without a handshake).
pub(crate) fn mcp_call(
    sandbox: &Sandbox,
    relative_cwd: &str,
    name: &str,
    arguments: serde_json::Value,
) -> serde_json::Value {
    let request = serde_json::json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": name, "arguments": arguments}
    });
    let run = sandbox.run_with_stdin_in(relative_cwd, &["mcp"], &format!("{request}\n"));
    serde_json::from_str(run.stdout.lines().next().unwrap()).unwrap()
}
