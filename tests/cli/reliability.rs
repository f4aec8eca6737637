//! The crash, fault and concurrency matrix of src/docs/reliability.md, driven through the binary.
//!
//! Oracle for the concurrent and crash cases: the file parses as an array, numbers are
//! unique and contiguous, every invocation that exited 0 is present with the number it
//! printed, no rule appears that nobody tried to learn, and old rules keep their bytes.
//! Cases that need `strace`, root, `mount` or `chattr` print `skipped: <reason>` where
//! those are missing. The heavy cases are `#[ignore]`d; `.ci/run` runs them in release.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::support::{BIN, Run, Sandbox, which};

const RULES: &str = ".agents/autofix.json";

/// A rule as read back for the oracle.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Stored {
    number: u64,
    instruction: String,
}

fn stored(text: &str) -> Vec<Stored> {
    let value: serde_json::Value =
        serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}):\n{text}"));
    value
        .as_array()
        .expect("an array")
        .iter()
        .map(|rule| Stored {
            number: rule["Rule_number"].as_u64().expect("a number"),
            instruction: rule["Instruction"].as_str().expect("a string").to_string(),
        })
        .collect()
}

/// Numbers unique and contiguous from 1; every rule one somebody tried to learn; 2-space
/// indentation.
fn assert_sound(text: &str, attempted: &HashSet<String>) -> Vec<Stored> {
    let rules = stored(text);
    let numbers: Vec<u64> = rules.iter().map(|r| r.number).collect();
    assert_eq!(numbers, (1..=rules.len() as u64).collect::<Vec<_>>());
    for rule in &rules {
        assert!(
            attempted.contains(&rule.instruction),
            "phantom rule {rule:?}"
        );
    }
    if !rules.is_empty() {
        assert!(
            text.starts_with("[\n  {\n    \"Rule_number\": 1,"),
            "{text}"
        );
    }
    rules
}

/// The number in "Learned rule #N (...".
fn acknowledged_number(stdout: &str) -> u64 {
    let rest = stdout
        .strip_prefix("Learned rule #")
        .unwrap_or_else(|| panic!("unexpected acknowledgement: {stdout}"));
    rest[..rest.find(' ').unwrap()].parse().unwrap()
}

/// A tiny xorshift generator: the suite needs randomness, not a dependency.
struct Random(u64);

impl Random {
    fn new(salt: u64) -> Random {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_nanos() as u64;
        Random((nanos ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15)) | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn learn_command(sandbox: &Sandbox, instruction: &str) -> Command {
    let mut command = sandbox.command(&["learn", "-c", "code", "-w", "test", instruction]);
    command
        .env("AUTOFIX_LOCK_TIMEOUT", "120")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

/// `workers` processes each learning `per_worker` rules; with `kill_percent`, that share
/// of invocations is SIGKILLed after a random pause.
fn hammer(workers: u64, per_worker: u64, kill_percent: u64) {
    let sandbox = Arc::new(Sandbox::new());
    let acknowledged = Arc::new(Mutex::new(HashMap::<String, u64>::new()));
    let mut attempted = HashSet::new();
    for worker in 0..workers {
        for i in 0..per_worker {
            attempted.insert(format!("Always do {worker}-{i}"));
        }
    }
    let threads: Vec<_> = (0..workers)
        .map(|worker| {
            let sandbox = Arc::clone(&sandbox);
            let acknowledged = Arc::clone(&acknowledged);
            thread::spawn(move || {
                let mut random = Random::new(worker);
                for i in 0..per_worker {
                    let instruction = format!("Always do {worker}-{i}");
                    let mut child = learn_command(&sandbox, &instruction).spawn().unwrap();
                    if random.below(100) < kill_percent {
                        thread::sleep(Duration::from_micros(random.below(4000)));
                        let _ = child.kill();
                    }
                    let output = child.wait_with_output().unwrap();
                    if output.status.success() {
                        let number = acknowledged_number(&String::from_utf8_lossy(&output.stdout));
                        acknowledged.lock().unwrap().insert(instruction, number);
                    } else if kill_percent == 0 {
                        panic!("learn failed: {}", String::from_utf8_lossy(&output.stderr));
                    }
                }
            })
        })
        .collect();
    for thread in threads {
        thread.join().unwrap();
    }
    let rules = assert_sound(&sandbox.read(RULES), &attempted);
    let in_file: HashMap<&str, u64> = rules
        .iter()
        .map(|r| (r.instruction.as_str(), r.number))
        .collect();
    let acknowledged = acknowledged.lock().unwrap();
    for (instruction, number) in acknowledged.iter() {
        assert_eq!(
            in_file.get(instruction.as_str()),
            Some(number),
            "acknowledged rule {instruction} (#{number}) is missing or renumbered"
        );
    }
    if kill_percent == 0 {
        assert_eq!(rules.len() as u64, workers * per_worker);
    }
    eprintln!(
        "{} rules in the file, {} acknowledged",
        rules.len(),
        acknowledged.len()
    );
}

#[test]
fn c2_four_processes_times_fifty() {
    hammer(4, 50, 0);
}

#[test]
#[ignore = "heavy: run in release by .ci/run"]
fn c1_eight_processes_times_two_hundred() {
    hammer(8, 200, 0);
}

#[test]
#[ignore = "heavy: run in release by .ci/run"]
fn c4_eight_processes_with_random_kills() {
    hammer(8, 200, 30);
}

#[test]
fn c5_waiters_proceed_when_the_holder_dies() {
    let Some(python) = which("python3") else {
        return crate::support::skip("python3", "c5 needs python3 to hold a lock");
    };
    let sandbox = Sandbox::new();
    sandbox.write(RULES, "[]\n");
    let lock = sandbox.join(".agents/autofix.json.lock");
    let script = "import fcntl, sys, time\nf = open(sys.argv[1], 'a')\nfcntl.flock(f, fcntl.LOCK_EX)\nprint('held', flush=True)\ntime.sleep(120)\n";
    let mut holder = Command::new(python)
        .args(["-c", script, lock.to_str().unwrap()])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(holder.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert_eq!(line, "held\n");
    let waiters: Vec<Child> = (0..3)
        .map(|i| {
            learn_command(&sandbox, &format!("Always wait {i}"))
                .spawn()
                .unwrap()
        })
        .collect();
    holder.kill().unwrap();
    holder.wait().unwrap();
    for waiter in waiters {
        let output = waiter.wait_with_output().unwrap();
        assert!(output.status.success(), "{output:?}");
    }
    assert_eq!(stored(&sandbox.read(RULES)).len(), 3);
}

#[test]
fn t2_readers_never_see_a_partial_file() {
    let sandbox = Arc::new(Sandbox::new());
    sandbox.write(RULES, "[]\n");
    let done = Arc::new(AtomicBool::new(false));
    let readers: Vec<_> = (0..4)
        .map(|_| {
            let sandbox = Arc::clone(&sandbox);
            let done = Arc::clone(&done);
            thread::spawn(move || {
                let (mut reads, mut last) = (0u64, 0usize);
                while !done.load(Ordering::Relaxed) {
                    let text = fs::read_to_string(sandbox.join(RULES)).unwrap();
                    let count = stored(&text).len();
                    assert!(count >= last, "the count went down from {last} to {count}");
                    last = count;
                    reads += 1;
                }
                reads
            })
        })
        .collect();
    for i in 0..60 {
        learn_command(&sandbox, &format!("Always read {i}"))
            .output()
            .map(|o| assert!(o.status.success()))
            .unwrap();
    }
    done.store(true, Ordering::Relaxed);
    for reader in readers {
        assert!(reader.join().unwrap() > 0);
    }
    // The binary's own reader, too.
    let json = sandbox.run(&["rules", "--format", "json"]).expect(0).json();
    assert_eq!(json["counts"]["active"], 60);
}

/// K1: kill -9 at a random instant, many times; each time the file must be the old bytes,
/// or the old bytes with exactly the new rule appended.
#[test]
#[ignore = "heavy: run in release by .ci/run"]
fn k1_a_thousand_random_kills() {
    let sandbox = Sandbox::new();
    let mut random = Random::new(7);
    let mut attempted = HashSet::new();
    let (mut committed, mut killed) = (0, 0);
    for i in 0..1000 {
        let before = sandbox.join(RULES).exists().then(|| sandbox.read(RULES));
        let instruction = format!("Always survive {i}");
        attempted.insert(instruction.clone());
        let mut child = learn_command(&sandbox, &instruction).spawn().unwrap();
        thread::sleep(Duration::from_micros(random.below(3000)));
        let _ = child.kill();
        let status = child.wait().unwrap();
        killed += usize::from(!status.success());
        let Some(after) = sandbox.join(RULES).exists().then(|| sandbox.read(RULES)) else {
            assert!(before.is_none());
            continue;
        };
        match &before {
            Some(before) if *before == after => continue,
            _ => {}
        }
        committed += 1;
        let rules = assert_sound(&after, &attempted);
        assert_eq!(rules.last().unwrap().instruction, instruction);
        if let Some(before) = &before {
            let old = stored(before);
            assert_eq!(rules[..rules.len() - 1], old[..]);
            // The old text survives up to the brace of its last rule.
            let kept = before.trim_end().strip_suffix(']').unwrap().trim_end();
            assert!(after.starts_with(kept));
        }
    }
    eprintln!("1000 runs: {committed} committed, {killed} killed");
}

/// Whether `strace` can trace and inject here (it needs ptrace).
fn strace_works() -> bool {
    which("strace").is_some()
        && Command::new("strace")
            .args([
                "-f",
                "-qq",
                "-o",
                "/dev/null",
                "-e",
                "inject=getpid:error=EPERM",
                "true",
            ])
            .output()
            .is_ok_and(|o| o.status.success())
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// Runs `learn` under `strace -f` with one injection.
fn learn_injected(sandbox: &Sandbox, inject: &str, instruction: &str) -> Run {
    Run::from_command(&mut sandbox.program(
        "strace",
        &[
            "-f",
            "-qq",
            "-o",
            "/dev/null",
            "-e",
            inject,
            BIN,
            "learn",
            "-c",
            "code",
            "-w",
            "test",
            instruction,
        ],
    ))
}

/// Files next to the rules file other than the file and its lock: leftover temp files.
fn leftovers(sandbox: &Sandbox) -> Vec<String> {
    fs::read_dir(sandbox.join(".agents"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "autofix.json" && n != "autofix.json.lock" && n != ".gitignore")
        .collect()
}

/// A workspace with two tool-written rules.
fn two_rules() -> (Sandbox, String) {
    let sandbox = Sandbox::new();
    for i in 1..=2 {
        sandbox
            .run(&[
                "learn",
                "-c",
                "code",
                "-w",
                "w",
                &format!("Always start {i}"),
            ])
            .expect(0);
    }
    let text = sandbox.read(RULES);
    (sandbox, text)
}

#[test]
fn k2_a_kill_at_each_step_leaves_old_or_new() {
    if !strace_works() {
        return crate::support::skip("strace", "k2 needs strace with ptrace");
    }
    // Syscalls in protocol order; the first two fsyncs are the temp file's and the
    // directory's. Before the rename the file must be the old one; after it, the new one.
    let steps = [
        ("flock", false),
        ("write", false),
        ("fchmod", false),
        ("fsync", false),
        ("rename,renameat,renameat2", false),
        ("fsync:when=2", true),
    ];
    for (step, committed) in steps {
        let (sandbox, before) = two_rules();
        let inject = match step.split_once(':') {
            Some((call, when)) => format!("inject={call}:signal=SIGKILL:{when}"),
            None => format!("inject={step}:signal=SIGKILL:when=1"),
        };
        let run = learn_injected(&sandbox, &inject, "Always die");
        assert_ne!(run.code, 0, "{step}: the process was not killed");
        let after = sandbox.read(RULES);
        if committed {
            let rules = stored(&after);
            assert_eq!(rules.len(), 3, "{step}");
            assert_eq!(rules[2].instruction, "Always die");
        } else {
            assert_eq!(after, before, "{step}: the file changed");
        }
        // A later learn sweeps any temp file the killed writer left.
        sandbox
            .run(&["learn", "-c", "code", "-w", "w", "Always recover"])
            .expect(0);
        assert!(
            leftovers(&sandbox).is_empty(),
            "{step}: {:?}",
            leftovers(&sandbox)
        );
        stored(&sandbox.read(RULES));
    }
}

/// What a `learn` killed after its temp file leaves in `.agents/` (its lock and its temp
/// file, until the next command sweeps them) is ignored by git: `git add .agents` then
/// stages the rules file and `.agents/.gitignore`, nothing else.
#[test]
fn k2b_a_killed_learn_leaves_nothing_git_would_commit() {
    if !strace_works() {
        return crate::support::skip("strace", "a kill -9 mid-write needs strace with ptrace");
    }
    let (sandbox, _) = two_rules();
    let git = |args: &[&str]| {
        let mut command = sandbox.program("git", args);
        Run::from_command(crate::support::hermetic_git(&mut command)).expect(0)
    };
    git(&["init", "-q"]);
    let run = learn_injected(
        &sandbox,
        "inject=rename,renameat,renameat2:signal=SIGKILL:when=1",
        "Always die",
    );
    assert_ne!(run.code, 0, "the process was not killed");
    let left = lock_files(sandbox.path());
    assert!(
        !left.is_empty() && !temp_files(sandbox.path()).is_empty(),
        "{left:?}"
    );
    git(&["add", ".agents"]);
    let staged = git(&["diff", "--cached", "--name-only"]).stdout;
    assert_eq!(staged, ".agents/.gitignore\n.agents/autofix.json\n");
    // A `.gitignore` of the user's is left as it is.
    sandbox.write(".agents/.gitignore", "# mine\n");
    sandbox
        .run(&["learn", "-c", "code", "-w", "w", "Always recover"])
        .expect(0);
    assert_eq!(sandbox.read(".agents/.gitignore"), "# mine\n");
}

#[test]
fn f_injected_faults_leave_the_file_unchanged() {
    if !strace_works() {
        return crate::support::skip("strace", "fault injection needs strace with ptrace");
    }
    let faults = [
        (
            "F1 ENOSPC on write",
            "inject=write:error=ENOSPC:when=1",
            "No space left",
        ),
        ("F3 EIO on fsync", "inject=fsync:error=EIO:when=1", "flush"),
        (
            "F4 EXDEV on rename",
            "inject=rename,renameat,renameat2:error=EXDEV",
            "rename",
        ),
        (
            "F4 EACCES on rename",
            "inject=rename,renameat,renameat2:error=EACCES",
            "rename",
        ),
        (
            "F4 EROFS on rename",
            "inject=rename,renameat,renameat2:error=EROFS",
            "rename",
        ),
    ];
    for (name, inject, message) in faults {
        let (sandbox, before) = two_rules();
        let run = learn_injected(&sandbox, inject, "Always fail");
        assert_eq!(run.code, 2, "{name}: {}", run.stderr);
        assert!(run.stderr.contains(message), "{name}: {}", run.stderr);
        assert_eq!(sandbox.read(RULES), before, "{name}: the file changed");
        assert!(
            leftovers(&sandbox).is_empty(),
            "{name}: {:?}",
            leftovers(&sandbox)
        );
    }
}

#[test]
fn f5_a_failed_directory_fsync_after_the_rename_is_a_warning() {
    if !strace_works() {
        return crate::support::skip("strace", "f5 needs strace with ptrace");
    }
    let (sandbox, _) = two_rules();
    let run = learn_injected(&sandbox, "inject=fsync:error=EIO:when=2", "Always commit");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with("Learned rule #3"));
    assert!(
        run.stderr
            .contains("warning[not-flushed]: the file was replaced"),
        "{}",
        run.stderr
    );
    assert_eq!(stored(&sandbox.read(RULES)).len(), 3);
}

#[test]
fn t1_syscall_order() {
    if !strace_works() {
        return crate::support::skip("strace", "t1 needs strace");
    }
    let (sandbox, _) = two_rules();
    let log = sandbox.join("trace.log");
    let log_arg = log.display().to_string();
    Run::from_command(&mut sandbox.program(
        "strace",
        &[
            "-f",
            "-qq",
            "-o",
            &log_arg,
            "-e",
            "trace=flock,openat,open,creat,write,fsync,fdatasync,rename,renameat,renameat2",
            BIN,
            "learn",
            "-c",
            "code",
            "-w",
            "w",
            "Always trace",
        ],
    ))
    .expect(0);
    let trace = fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = trace.lines().collect();
    let find = |what: &dyn Fn(&str) -> bool| lines.iter().position(|l| what(l));
    let lock = find(&|l| l.contains("flock(") && l.contains("LOCK_EX")).expect("no flock");
    let temp =
        find(&|l| l.contains("openat(") && l.contains("/.autofix.json.") && l.contains("O_CREAT"))
            .expect("no temp file");
    let temp_fd = lines[temp].rsplit("= ").next().unwrap().trim().to_string();
    let write = find(&|l| l.contains(&format!("write({temp_fd},"))).expect("no write");
    let sync = find(&|l| l.contains(&format!("fsync({temp_fd})"))).expect("no fsync");
    let rename =
        find(&|l| l.contains("rename") && l.contains("autofix.json\"")).expect("no rename");
    let dir_sync = lines[rename..]
        .iter()
        .position(|l| l.contains("fsync("))
        .map(|i| i + rename)
        .expect("no directory fsync after the rename");
    assert!(lock < temp && temp < write && write < sync && sync < rename && rename < dir_sync);
    // The data file itself is only ever opened for reading.
    for line in &lines {
        if line.contains("/autofix.json\"") && line.contains("open") {
            assert!(line.contains("O_RDONLY"), "opened for writing: {line}");
        }
    }
}

/// A tmpfs mounted for one test, unmounted when dropped.
struct Mount(std::path::PathBuf);

impl Mount {
    fn tmpfs(at: &Path, size: &str) -> Option<Mount> {
        fs::create_dir_all(at).unwrap();
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(at)
            .output()
            .is_ok_and(|o| o.status.success());
        ok.then(|| Mount(at.to_path_buf()))
    }

    fn remount_read_only(&self) -> bool {
        Command::new("mount")
            .args(["-o", "remount,ro"])
            .arg(&self.0)
            .output()
            .is_ok_and(|o| o.status.success())
    }
}

impl Drop for Mount {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).output();
    }
}

#[test]
fn f1_a_full_filesystem_leaves_the_file_unchanged() {
    if !is_root() {
        return crate::support::skip("root", "f1 (real ENOSPC) needs root to mount a tmpfs");
    }
    let sandbox = Sandbox::new();
    let Some(_mount) = Mount::tmpfs(&sandbox.join("small"), "64k") else {
        return crate::support::skip("mount", "f1 cannot mount a tmpfs here");
    };
    // A rules file of about 40 KiB leaves too little room for its replacement.
    let mut text = String::from("[\n");
    for i in 1..=200 {
        text.push_str(&format!(
            "  {{\"Rule_number\": {i}, \"Category\": \"CODE\", \"Instruction\": \"Always fill the disk, rule {i:0>100}\", \"Why\": \"w\"}},\n"
        ));
    }
    text.push_str("  {\"Rule_number\": 201, \"Category\": \"CODE\", \"Instruction\": \"Always x\", \"Why\": \"w\"}\n]\n");
    assert!(text.len() > 33 * 1024 && text.len() < 60 * 1024);
    sandbox.write("small/.agents/autofix.json", &text);
    let run = Run::from_command(
        sandbox
            .command_in(
                "small",
                &["learn", "-c", "code", "-w", "w", "Always overflow"],
            )
            .env("AUTOFIX_CEILING_DIRECTORIES", sandbox.join("small")),
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("No space left"), "{}", run.stderr);
    assert_eq!(sandbox.read("small/.agents/autofix.json"), text);
    let entries: Vec<_> = fs::read_dir(sandbox.join("small/.agents"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(entries.is_empty(), "temp files left: {entries:?}");
}

#[test]
fn f7_read_only_filesystem_and_immutable_file() {
    if !is_root() {
        return crate::support::skip("root", "f7 needs root for mount and chattr");
    }
    let sandbox = Sandbox::new();
    if let Some(mount) = Mount::tmpfs(&sandbox.join("ro"), "1m") {
        sandbox.write("ro/.agents/autofix.json", "[]\n");
        assert!(mount.remount_read_only());
        let run = Run::from_command(
            sandbox
                .command_in(
                    "ro",
                    &["learn", "-c", "code", "-w", "w", "Always read only"],
                )
                .env("AUTOFIX_CEILING_DIRECTORIES", sandbox.join("ro")),
        );
        assert_eq!(run.code, 2, "{}", run.stderr);
        // Named relative to the current directory, `ro`.
        assert!(
            run.stderr.contains(" .agents/autofix.json"),
            "{}",
            run.stderr
        );
        assert_eq!(sandbox.read("ro/.agents/autofix.json"), "[]\n");
    } else {
        crate::support::skip(
            "mount",
            "f7 read-only filesystem (cannot mount a tmpfs here)",
        );
    }

    let (sandbox, before) = two_rules();
    let file = sandbox.join(RULES);
    let immutable = Command::new("chattr").arg("+i").arg(&file).output();
    if !immutable.is_ok_and(|o| o.status.success()) {
        return crate::support::skip("chattr", "f7 chattr +i (not supported on this filesystem)");
    }
    let run = sandbox.run(&["learn", "-c", "code", "-w", "w", "Always immutable"]);
    let _ = Command::new("chattr").arg("-i").arg(&file).output();
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(sandbox.read(RULES), before);
    assert!(leftovers(&sandbox).is_empty(), "{:?}", leftovers(&sandbox));
}

// ---- The other writers: init, export, resolve (the one safe-write path) ----

/// Every temp file under the sandbox (outside `.git`): what a killed writer leaves.
fn temp_files(dir: &Path) -> Vec<String> {
    files_named(dir, &|name| name.starts_with('.') && name.ends_with(".tmp"))
}

/// Every lock file under the sandbox (outside `.git`).
fn lock_files(dir: &Path) -> Vec<String> {
    files_named(dir, &|name| name.ends_with(".lock"))
}

fn files_named(dir: &Path, wanted: &dyn Fn(&str) -> bool) -> Vec<String> {
    let mut found = Vec::new();
    for entry in fs::read_dir(dir).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if entry.file_type().unwrap().is_dir() {
            if name != ".git" && name != "home" {
                found.extend(files_named(&entry.path(), wanted));
            }
        } else if wanted(&name) {
            found.push(entry.path().display().to_string());
        }
    }
    found
}

/// Polls until a temp file exists under the sandbox (a writer is between creating it and
/// the rename), for at most 20 s.
fn wait_for_temp(sandbox: &Sandbox) {
    for _ in 0..2000 {
        if !temp_files(sandbox.path()).is_empty() {
            return;
        }
        thread::sleep(Duration::from_millis(10));
    }
    panic!("no writer created a temp file");
}

/// The binary under `strace -f` with one injection, not waited for.
fn spawn_injected(sandbox: &Sandbox, inject: &str, args: &[&str]) -> Child {
    let mut all = vec!["-f", "-qq", "-o", "/dev/null", "-e", inject, BIN];
    all.extend_from_slice(args);
    sandbox
        .program("strace", &all)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// A git repository (identity set, no rules file yet).
fn git_sandbox() -> Sandbox {
    let sandbox = Sandbox::new();
    git(&sandbox, &["init", "-q", "-b", "main"]);
    sandbox
}

fn git(sandbox: &Sandbox, args: &[&str]) -> bool {
    crate::support::hermetic_git(&mut sandbox.program("git", args))
        .output()
        .unwrap()
        .status
        .success()
}

/// A repository in the middle of a merge whose rules file conflicted (no driver).
fn conflicted() -> Sandbox {
    let sandbox = git_sandbox();
    let learn = |instruction: &str| {
        sandbox
            .run(&["learn", "-c", "code", "-w", "w", instruction])
            .expect(0);
        // No lock is left for `git add -A` to commit.
        assert_eq!(lock_files(sandbox.path()), Vec::<String>::new());
        assert!(git(&sandbox, &["add", "-A"]));
        assert!(git(&sandbox, &["commit", "-q", "-m", instruction]));
    };
    learn("Always base");
    assert!(git(&sandbox, &["checkout", "-q", "-b", "feature"]));
    learn("Always feature");
    assert!(git(&sandbox, &["checkout", "-q", "main"]));
    learn("Always main");
    assert!(!git(&sandbox, &["merge", "--no-edit", "feature"]));
    assert!(sandbox.read(RULES).contains("<<<<<<<"));
    sandbox
}

#[test]
fn w1_init_racing_the_first_learn_keeps_the_learned_rule() {
    if !strace_works() {
        return crate::support::skip("strace", "w1 needs strace to hold init mid-write");
    }
    let sandbox = git_sandbox();
    // init creates the rules file; hold it between its temp file and the rename.
    let init = spawn_injected(
        &sandbox,
        "inject=fsync:delay_enter=1500000:when=1",
        &["init"],
    );
    wait_for_temp(&sandbox);
    let learned = learn_command(&sandbox, "Always survive init")
        .output()
        .unwrap();
    let init = init.wait_with_output().unwrap();
    assert!(learned.status.success(), "{learned:?}");
    assert!(init.status.success(), "{init:?}");
    let rules = stored(&sandbox.read(RULES));
    assert_eq!(rules.len(), 1, "the acknowledged rule was lost");
    assert_eq!(rules[0].instruction, "Always survive init");
}

#[test]
fn w2_an_editor_save_while_export_writes_is_kept() {
    if !strace_works() {
        return crate::support::skip("strace", "w2 needs strace to hold export mid-write");
    }
    let (sandbox, _) = two_rules();
    sandbox.write("AGENTS.md", "# Mine\n");
    let export = spawn_injected(
        &sandbox,
        "inject=fsync:delay_enter=1500000:when=1",
        &["export", "--target", "agents-md"],
    );
    wait_for_temp(&sandbox);
    // The editor saves while export holds its temp file.
    sandbox.write("AGENTS.md", "# Mine\nSaved by the editor.\n");
    let export = export.wait_with_output().unwrap();
    assert!(export.status.success(), "{export:?}");
    let text = sandbox.read("AGENTS.md");
    assert!(text.starts_with("# Mine\nSaved by the editor.\n"), "{text}");
    assert!(text.contains("Always start 2"), "{text}");
}

#[test]
fn w3_the_temp_file_is_created_with_the_files_mode() {
    use std::os::unix::fs::PermissionsExt;
    if !strace_works() {
        return crate::support::skip("strace", "w3 needs strace to see the temp file's mode");
    }
    let (sandbox, _) = two_rules();
    fs::set_permissions(sandbox.join(RULES), fs::Permissions::from_mode(0o600)).unwrap();
    let log = sandbox.join("trace.log");
    let log_arg = log.display().to_string();
    let args = [
        "-f",
        "-qq",
        "-o",
        &log_arg,
        "-e",
        "trace=openat,open,creat",
        BIN,
    ];
    let mut all = args.to_vec();
    all.extend(["learn", "-c", "code", "-w", "w", "Always private"]);
    Run::from_command(&mut sandbox.program("strace", &all)).expect(0);
    let trace = fs::read_to_string(&log).unwrap();
    let create = trace
        .lines()
        .find(|l| l.contains("/.autofix.json.") && l.contains("O_CREAT"))
        .expect("no temp file in the trace");
    assert!(
        create.contains(", 0600)"),
        "created wider than 0600: {create}"
    );
    let mode = fs::metadata(sandbox.join(RULES))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);
}

/// The writers other than learn, each killed at the steps of the protocol: the target is
/// its old bytes (the rename had not happened), a temp file is left, and the next run of
/// the same command sweeps it and finishes.
#[test]
fn k3_a_kill_during_init_export_or_resolve_is_old_bytes_then_swept() {
    if !strace_works() {
        return crate::support::skip("strace", "k3 needs strace with ptrace");
    }
    type Setup = fn() -> Sandbox;
    let init: Setup = || {
        let sandbox = git_sandbox();
        sandbox.write(RULES, "[]\n");
        sandbox
    };
    let export: Setup = || {
        let (sandbox, _) = two_rules();
        sandbox.write("AGENTS.md", "# Mine\n");
        sandbox
    };
    let cases: [(&str, Setup, &[&str], &str); 3] = [
        ("init", init, &["init"], ".agents/skills/autofix/SKILL.md"),
        (
            "export",
            export,
            &["export", "--target", "agents-md"],
            "AGENTS.md",
        ),
        ("resolve", conflicted, &["resolve"], RULES),
    ];
    for (name, setup, args, target) in cases {
        for step in ["fsync", "rename,renameat,renameat2"] {
            let sandbox = setup();
            let before = fs::read(sandbox.join(target)).ok();
            let inject = format!("inject={step}:signal=SIGKILL:when=1");
            let killed = spawn_injected(&sandbox, &inject, args).wait().unwrap();
            assert!(!killed.success(), "{name} at {step}: not killed");
            assert_eq!(
                fs::read(sandbox.join(target)).ok(),
                before,
                "{name} at {step}"
            );
            assert!(
                !temp_files(sandbox.path()).is_empty(),
                "{name} at {step}: killed before its temp file"
            );
            let again = sandbox.run(args);
            assert_eq!(again.code, 0, "{name} after {step}: {}", again.stderr);
            assert_eq!(
                temp_files(sandbox.path()),
                Vec::<String>::new(),
                "{name} {step}"
            );
            let locks = lock_files(sandbox.path());
            assert_eq!(locks, Vec::<String>::new(), "{name} {step}");
            assert_ne!(fs::read(sandbox.join(target)).ok(), before, "{name} {step}");
        }
    }
}

/// `init` and `export` in a loop while four processes learn: every acknowledged rule is
/// kept, init and export never fail, and AGENTS.md keeps the user's line and one block.
#[test]
fn c6_init_and_export_beside_concurrent_learns() {
    let sandbox = Arc::new(git_sandbox());
    sandbox.write("AGENTS.md", "# Mine\n");
    let others = {
        let sandbox = Arc::clone(&sandbox);
        thread::spawn(move || {
            for _ in 0..8 {
                for args in [&["init"][..], &["export"]] {
                    let run =
                        Run::from_command(sandbox.command(args).env("AUTOFIX_LOCK_TIMEOUT", "120"));
                    assert_eq!(run.code, 0, "{args:?}: {}{}", run.stdout, run.stderr);
                }
            }
        })
    };
    let learners: Vec<_> = (0..4)
        .map(|worker| {
            let sandbox = Arc::clone(&sandbox);
            thread::spawn(move || {
                (0..10)
                    .map(|i| {
                        let instruction = format!("Always do {worker}-{i}");
                        let output = learn_command(&sandbox, &instruction).output().unwrap();
                        assert!(output.status.success(), "{output:?}");
                        let stdout = String::from_utf8_lossy(&output.stdout);
                        (instruction, acknowledged_number(&stdout))
                    })
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let acknowledged: Vec<(String, u64)> = learners
        .into_iter()
        .flat_map(|t| t.join().unwrap())
        .collect();
    others.join().unwrap();
    let attempted: HashSet<String> = acknowledged.iter().map(|(i, _)| i.clone()).collect();
    let rules = assert_sound(&sandbox.read(RULES), &attempted);
    for (instruction, number) in &acknowledged {
        assert!(
            rules.contains(&Stored {
                number: *number,
                instruction: instruction.clone()
            }),
            "lost {number} {instruction}"
        );
    }
    sandbox.run(&["export"]).expect(0);
    let agents = sandbox.read("AGENTS.md");
    assert!(agents.starts_with("# Mine\n"), "{agents}");
    assert_eq!(
        agents.matches("<!-- BEGIN:autofix-rules").count(),
        1,
        "{agents}"
    );
    assert_eq!(temp_files(sandbox.path()), Vec::<String>::new());
}

/// Exports racing each other, and `resolve` racing `learn`: exports all succeed with one
/// block; a rule `learn` acknowledged is in the file `resolve` leaves.
#[test]
fn c7_concurrent_exports_and_resolve_beside_learn() {
    let (sandbox, _) = two_rules();
    sandbox.write("AGENTS.md", "# Mine\n");
    let exports: Vec<Child> = (0..6)
        .map(|_| {
            sandbox
                .command(&["export"])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for export in exports {
        let output = export.wait_with_output().unwrap();
        assert!(output.status.success(), "{output:?}");
    }
    let agents = sandbox.read("AGENTS.md");
    assert!(agents.starts_with("# Mine\n"), "{agents}");
    assert_eq!(
        agents.matches("<!-- BEGIN:autofix-rules").count(),
        1,
        "{agents}"
    );
    for round in 0..4 {
        let sandbox = conflicted();
        let resolve = sandbox
            .command(&["resolve"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let instruction = format!("Always after {round}");
        let learned = learn_command(&sandbox, &instruction).output().unwrap();
        let resolved = resolve.wait_with_output().unwrap();
        // learn refuses the conflicted file; resolve refuses to drop a learned rule.
        if learned.status.success() {
            assert!(sandbox.read(RULES).contains(&instruction), "{resolved:?}");
        }
        assert_ne!(resolved.status.code(), None, "{resolved:?}");
    }
}

/// Runs `args` and SIGKILLs it after a random pause (up to 4 ms); returns whether it
/// finished on its own.
fn run_and_kill(sandbox: &Sandbox, args: &[&str], random: &mut Random) -> bool {
    let mut child = sandbox
        .command(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    thread::sleep(Duration::from_micros(random.below(4000)));
    let _ = child.kill();
    child.wait().unwrap().success()
}

/// K4: `export`, `init` and `resolve` killed at random instants, many times: each target is
/// always its old bytes or a complete new version, and the next run leaves no temp or
/// lock file behind.
#[test]
#[ignore = "heavy: run in release by .ci/run"]
fn k4_random_kills_of_export_init_and_resolve() {
    let mut random = Random::new(4);
    let (sandbox, _) = two_rules();
    sandbox.write("AGENTS.md", "# Mine\n");
    let mut changed = 0;
    for i in 0..300 {
        let instruction = format!("Always export {i}");
        // Without learn's own refresh, so that the killed export has something to write.
        learn_command(&sandbox, &instruction)
            .arg("--no-export")
            .output()
            .unwrap();
        let before = sandbox.read("AGENTS.md");
        run_and_kill(&sandbox, &["export"], &mut random);
        let after = sandbox.read("AGENTS.md");
        if after != before {
            changed += 1;
            assert!(after.starts_with("# Mine\n"), "{after}");
            assert!(after.contains(&instruction), "{after}");
            assert!(
                after.trim_end().ends_with("<!-- END:autofix-rules -->"),
                "{after}"
            );
        }
    }
    // Some killed runs got as far as the rename: the kills hit writes, not only start-ups.
    assert!(changed > 0, "no killed export ever wrote");
    sandbox.run(&["export"]).expect(0);
    assert_eq!(temp_files(sandbox.path()), Vec::<String>::new());
    assert_eq!(lock_files(sandbox.path()), Vec::<String>::new());

    let sandbox = git_sandbox();
    sandbox.run(&["init"]).expect(0);
    let skill = ".agents/skills/autofix/SKILL.md";
    let complete = sandbox.read(skill);
    for _ in 0..300 {
        fs::remove_file(sandbox.join(skill)).unwrap();
        run_and_kill(&sandbox, &["init"], &mut random);
        if let Ok(text) = fs::read_to_string(sandbox.join(skill)) {
            assert_eq!(text, complete);
        }
        sandbox.run(&["init"]).expect(0);
        assert_eq!(temp_files(sandbox.path()), Vec::<String>::new());
        assert_eq!(lock_files(sandbox.path()), Vec::<String>::new());
    }

    for _ in 0..30 {
        let sandbox = conflicted();
        let before = sandbox.read(RULES);
        run_and_kill(&sandbox, &["resolve"], &mut random);
        let after = sandbox.read(RULES);
        if after != before {
            assert_eq!(stored(&after).len(), 3, "{after}");
        }
        sandbox.run(&["resolve"]).expect(0);
        assert_eq!(temp_files(sandbox.path()), Vec::<String>::new());
        assert_eq!(lock_files(sandbox.path()), Vec::<String>::new());
    }
}
