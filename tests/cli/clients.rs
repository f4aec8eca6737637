//! Delivery, measured where it counts: the real Claude Code, Codex and Gemini CLI run in a
//! repository set up by `autofix init --hook … --export`, against a stub model
//! (`tests/clients/stub_model.py`) that logs every request. The assertions are on those
//! requests — what the model is shown — not on files.
//!
//! Each run gets a fresh HOME and repository and runs inside a network namespace that has
//! only loopback (`unshare -n`), killed after a bound. The clients come from
//! `AUTOFIX_CLAUDE`, `AUTOFIX_CODEX` and `AUTOFIX_GEMINI` (set by `.ci/run`, which installs
//! them from npm at pinned versions) and Node from `AUTOFIX_NODE`; a missing one is a
//! recorded skip.

use std::fs;
use std::path::PathBuf;

use crate::support::{BIN, Run, Sandbox, skip};

mod chat;
mod post_tool;
mod verdict;

const STUB: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/clients/stub_model.py");

/// The three unscoped rules and the scoped one every repository holds.
const UNSCOPED: [&str; 3] = [
    "Always use named exports - because tree shaking works better.",
    "Always use pnpm to install packages - because the lockfile is pnpm-lock.yaml.",
    "Never log secrets - because logs are shared.",
];
const SCOPED: &str =
    "Always validate request bodies with zod in API handlers - because input is untrusted.";

/// Words of the prompt hook's reminder, the line it adds when a prompt reads like a
/// correction.
/// The prompt hook's note, of either form: a correction (to learn, or to judge against the
/// rules shown), or a rule said again word for word.
const REMINDERS: [&str; 2] = ["looks like a correction", "again, word for word"];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Client {
    Claude,
    Codex,
    Gemini,
    /// The clients that speak OpenAI Chat Completions to the stub (see `chat.rs`).
    OpenCode,
    Copilot,
    Cline,
    Qwen,
    Continue,
    Aider,
}

impl Client {
    fn variable(self) -> &'static str {
        match self {
            Client::Claude => "AUTOFIX_CLAUDE",
            Client::Codex => "AUTOFIX_CODEX",
            Client::Gemini => "AUTOFIX_GEMINI",
            Client::OpenCode => "AUTOFIX_OPENCODE",
            Client::Copilot => "AUTOFIX_COPILOT",
            Client::Cline => "AUTOFIX_CLINE",
            Client::Qwen => "AUTOFIX_QWEN",
            Client::Continue => "AUTOFIX_CONTINUE",
            Client::Aider => "AUTOFIX_AIDER",
        }
    }

    fn name(self) -> &'static str {
        match self {
            Client::Claude => "claude-code",
            Client::Codex => "codex",
            Client::Gemini => "gemini-cli",
            Client::OpenCode => "opencode",
            Client::Copilot => "copilot-cli",
            Client::Cline => "cline",
            Client::Qwen => "qwen-code",
            Client::Continue => "continue-cli",
            Client::Aider => "aider",
        }
    }

    /// The agent as `reflect` and `ledger` name it.
    fn agent(self) -> &'static str {
        match self {
            Client::Claude => "claude",
            Client::Codex => "codex",
            Client::Gemini => "gemini",
            _ => unreachable!("the ledger reads Claude Code, Codex and Gemini CLI"),
        }
    }
}

/// A repository set up as a user would, with the client's own configuration in its HOME.
struct Repo {
    sandbox: Sandbox,
    program: PathBuf,
    /// The folder put first on PATH: `autofix` and `node`.
    bin: PathBuf,
}

impl Repo {
    /// `None` (with the skip recorded) when the client, Node or a loopback-only network
    /// namespace is not available.
    fn new(client: Client) -> Option<Repo> {
        let repo = Repo::available(client)?;
        repo.set_up();
        Some(repo)
    }

    /// A sandbox for the client, without a repository set up in it yet.
    fn available(client: Client) -> Option<Repo> {
        let Some(program) = std::env::var_os(client.variable()).map(PathBuf::from) else {
            skip(
                client.name(),
                &format!(
                    "{} is not set (.ci/run installs the client)",
                    client.variable()
                ),
            );
            return None;
        };
        let Some(node) = std::env::var_os("AUTOFIX_NODE").map(PathBuf::from) else {
            skip(client.name(), "AUTOFIX_NODE is not set");
            return None;
        };
        let sandbox = Sandbox::new();
        if !sandbox
            .program("unshare", &["-n", "sh", "-c", "ip link set lo up"])
            .status()
            .is_ok_and(|s| s.success())
        {
            skip(
                client.name(),
                "`unshare -n` with `ip` (a loopback-only network) is not available",
            );
            return None;
        }
        let bin = sandbox.join("bin");
        fs::create_dir_all(&bin).unwrap();
        // `autofix` as the hooks run it, logging each hook's exit status (`hooks_exited`).
        let log = sandbox.join("hooks.log");
        let wrapper = format!(
            "#!/bin/sh\n'{BIN}' \"$@\"\ncode=$?\necho \"$code $*\" >> '{}'\nexit $code\n",
            log.display()
        );
        fs::write(bin.join("autofix"), wrapper).unwrap();
        fs::set_permissions(
            bin.join("autofix"),
            std::os::unix::fs::PermissionsExt::from_mode(0o755),
        )
        .unwrap();
        std::os::unix::fs::symlink(&node, bin.join("node")).unwrap();
        Some(Repo {
            sandbox,
            program,
            bin,
        })
    }

    fn dir(&self) -> PathBuf {
        self.sandbox.join("repo")
    }

    fn home(&self) -> PathBuf {
        self.sandbox.join("home")
    }

    fn path_variable(&self) -> String {
        format!("{}:/usr/local/bin:/usr/bin:/bin", self.bin.display())
    }

    fn autofix(&self, args: &[&str]) -> Run {
        let mut command = self.sandbox.command_in("repo", args);
        command.env("PATH", self.path_variable());
        Run::from_command(&mut command)
    }

    fn git(&self, args: &[&str]) {
        let status = self
            .sandbox
            .program("git", args)
            .current_dir(self.dir())
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@example.com")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@example.com")
            .status()
            .unwrap();
        assert!(status.success(), "git {args:?}");
    }

    fn set_up(&self) {
        self.sandbox
            .write("repo/src/api/users.ts", "export const users = [];\n");
        self.sandbox
            .write("repo/src/web/app.ts", "export const app = 1;\n");
        self.git(&["init", "-q"]);
        self.autofix(&["init", "--hook", "claude,codex,gemini", "--export"])
            .expect(0);
        for (category, rule) in [
            ("style", UNSCOPED[0]),
            ("tool", UNSCOPED[1]),
            ("code", UNSCOPED[2]),
        ] {
            self.autofix(&["learn", "-c", category, "-w", "team", rule])
                .expect(0);
        }
        self.autofix(&[
            "learn",
            "-c",
            "arch",
            "-w",
            "review",
            "--path",
            "src/api/**",
            SCOPED,
        ])
        .expect(0);
        self.git(&["add", "-A"]);
        self.git(&["commit", "-qm", "set up"]);
        self.configure_home();
    }

    /// The client's own setup in HOME: the stub as its model, the repository trusted.
    fn configure_home(&self) {
        chat::configure_home(self);
        let repo = self.dir();
        let repo = repo.display();
        // https://developers.openai.com/codex/config-reference (model_providers, projects)
        self.sandbox.write(
            "home/.codex/config.toml",
            format!(
                "model = \"gpt-stub\"\nmodel_provider = \"stub\"\n\n[model_providers.stub]\nname = \"stub\"\nbase_url = \"http://127.0.0.1:PORT/v1\"\nwire_api = \"responses\"\nenv_key = \"STUB_API_KEY\"\n\n[projects.\"{repo}\"]\ntrust_level = \"trusted\"\n"
            ),
        );
        // https://github.com/google-gemini/gemini-cli/blob/main/docs/cli/trusted-folders.md
        self.sandbox.write(
            "home/.gemini/trustedFolders.json",
            format!("{{\"{repo}\": \"TRUST_FOLDER\"}}"),
        );
        self.sandbox.write(
            "home/.gemini/settings.json",
            r#"{"security":{"auth":{"selectedType":"gemini-api-key"}}}"#,
        );
    }

    /// Runs the client on `prompt` against the stub and returns the model requests it
    /// made, in order. With `read`, the stub's first answer to Claude Code is a `Read`
    /// tool call for that file of the repository.
    fn ask(&self, client: Client, prompt: &str, read: Option<&str>) -> Vec<Request> {
        let args: &[&str] = match client {
            Client::Claude => &["-p", prompt],
            // Project hooks run only once reviewed ("Trust all" in the TUI); this flag is
            // the headless form of that review.
            Client::Codex => &[
                "exec",
                "--dangerously-bypass-hook-trust",
                "--skip-git-repo-check",
                prompt,
            ],
            Client::Gemini => &["-p", prompt],
            _ => return chat::ask(self, client, prompt, read),
        };
        let (requests, _) = self.run(client, args, read);
        requests.into_iter().filter(|r| r.turn).collect()
    }

    /// Runs the client with `args` against the stub: every model request, and what it
    /// printed.
    fn run(&self, client: Client, args: &[&str], read: Option<&str>) -> (Vec<Request>, String) {
        self.run_from(client, args, read, &self.dir())
    }

    /// [`Repo::run`], the client started in `dir` (the repository or a folder of it).
    fn run_from(
        &self,
        client: Client,
        args: &[&str],
        read: Option<&str>,
        dir: &std::path::Path,
    ) -> (Vec<Request>, String) {
        self.run_scripted(client, args, read, dir, &[])
    }

    /// [`Repo::run_from`], the stub answering with `calls` (`{"name", "input"}`), one a
    /// request, before its plain answer.
    fn run_scripted(
        &self,
        client: Client,
        args: &[&str],
        read: Option<&str>,
        dir: &std::path::Path,
        calls: &[serde_json::Value],
    ) -> (Vec<Request>, String) {
        let log = self.sandbox.join("requests.jsonl");
        let _ = fs::remove_file(&log);
        let program = self.program.display().to_string();
        let mut stub: Vec<String> = vec![
            STUB.into(),
            "--log".into(),
            log.display().to_string(),
            "--timeout".into(),
            "120".into(),
        ];
        if let Some(file) = read {
            stub.push("--read".into());
            stub.push(self.dir().join(file).display().to_string());
        }
        for call in calls {
            stub.push("--call".into());
            stub.push(call.to_string());
        }
        let mut command_line: Vec<String> = match client {
            Client::Claude => {
                stub.extend(["--env-with-port".into(), "ANTHROPIC_BASE_URL".into()]);
                vec![program, "--output-format".into(), "json".into()]
            }
            // The port is only known inside the namespace: the wrapper writes it into the
            // provider's base_url before Codex starts.
            Client::Codex => chat::with_port_in(&self.home().join(".codex/config.toml"), program),
            Client::Gemini => {
                stub.extend(["--env-with-port".into(), "GOOGLE_GEMINI_BASE_URL".into()]);
                vec![program]
            }
            _ => chat::command_line(self, client, &mut stub, program),
        };
        command_line.extend(args.iter().map(ToString::to_string));
        stub.push("--".into());
        stub.extend(command_line);
        let script = "ip link set lo up && exec python3 \"$@\"";
        let mut args: Vec<&str> = vec!["-n", "sh", "-c", script, "sh"];
        args.extend(stub.iter().map(String::as_str));
        let mut command = self.sandbox.program("unshare", &args);
        command
            .current_dir(dir)
            .env("PATH", self.path_variable())
            .env("ANTHROPIC_BASE_URL", "http://127.0.0.1:{port}")
            .env("ANTHROPIC_API_KEY", "sk-stub")
            .env("STUB_API_KEY", "stub")
            .env("GEMINI_API_KEY", "stub")
            .env("GOOGLE_GEMINI_BASE_URL", "http://127.0.0.1:{port}")
            .env("DISABLE_AUTOUPDATER", "1")
            .env("DISABLE_TELEMETRY", "1")
            .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
            .env_remove("CI");
        chat::environment(self, client, &mut command);
        let run = Run::from_command(&mut command);
        assert_eq!(
            run.code, 0,
            "{client:?} failed\n--- stdout\n{}\n--- stderr\n{}",
            run.stdout, run.stderr
        );
        let text = fs::read_to_string(&log).unwrap_or_default();
        let requests = text
            .lines()
            .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
            .map(|entry| Request::of(&entry["body"], client.is_turn(&entry)))
            .collect();
        (requests, run.stdout)
    }
}

impl Client {
    /// Whether a logged request is a turn of the agent's main loop (not a helper call
    /// such as Gemini CLI's model router).
    fn is_turn(self, entry: &serde_json::Value) -> bool {
        let path = entry["path"].as_str().unwrap_or("");
        match self {
            Client::Claude => {
                path.starts_with("/v1/messages?") && entry["body"]["tools"].is_array()
            }
            Client::Codex => path.ends_with("/responses"),
            Client::Gemini => path.contains(":streamGenerateContent"),
            _ => chat::is_turn(self, entry),
        }
    }
}

/// One request as the model reads it: every string in its body, joined.
struct Request {
    text: String,
    /// A turn of the agent's main loop, not a helper call (title, router, summary).
    turn: bool,
}

impl Request {
    fn of(body: &serde_json::Value, turn: bool) -> Request {
        fn strings(value: &serde_json::Value, out: &mut String) {
            match value {
                serde_json::Value::String(s) => {
                    out.push_str(s);
                    out.push('\n');
                }
                serde_json::Value::Array(items) => items.iter().for_each(|v| strings(v, out)),
                serde_json::Value::Object(map) => map.values().for_each(|v| strings(v, out)),
                _ => {}
            }
        }
        let mut text = String::new();
        strings(body, &mut text);
        Request { text, turn }
    }

    fn count(&self, needle: &str) -> usize {
        self.text.matches(needle).count()
    }

    /// The prompt hook's reminders in the request.
    fn reminders(&self) -> usize {
        REMINDERS.iter().map(|r| self.count(r)).sum()
    }

    /// Whether `needle` is inside a block from `open` to `close` (Gemini CLI frames hook
    /// output as `<hook_context>`, which its system prompt says is data, and context files
    /// as `<project_context>`).
    fn within(&self, open: &str, close: &str, needle: &str) -> bool {
        self.text.split(open).skip(1).any(|block| {
            block
                .split(close)
                .next()
                .is_some_and(|inside| inside.contains(needle))
        })
    }

    /// Asserts each unscoped rule is in the request exactly once.
    #[track_caller]
    fn has_each_rule_once(&self) {
        for rule in UNSCOPED {
            assert_eq!(self.count(rule), 1, "{rule:?} in\n{}", self.text);
        }
    }
}

fn requests(client: Client, prompt: &str, read: Option<&str>) -> Option<Vec<Request>> {
    let repo = Repo::new(client)?;
    let requests = repo.ask(client, prompt, read);
    assert!(!requests.is_empty(), "{client:?} sent no model request");
    Some(requests)
}

#[test]
fn claude_code_sees_each_rule_once_and_the_scoped_rule_after_a_matching_read() {
    let Some(requests) = requests(
        Client::Claude,
        "Add a users endpoint",
        Some("src/api/users.ts"),
    ) else {
        return;
    };
    assert_eq!(requests.len(), 2, "a tool call, then the answer");
    for request in &requests {
        request.has_each_rule_once();
        assert_eq!(request.count("BEGIN:autofix"), 0);
        assert_eq!(request.count("autofix:owned"), 0);
    }
    assert_eq!(
        requests[0].count(SCOPED),
        0,
        "before the read:\n{}",
        requests[0].text
    );
    assert_eq!(
        requests[1].count(SCOPED),
        1,
        "after the read:\n{}",
        requests[1].text
    );
}

#[test]
fn claude_code_never_sees_the_scoped_rule_after_another_read() {
    let Some(requests) = requests(Client::Claude, "Tidy the app", Some("src/web/app.ts")) else {
        return;
    };
    assert_eq!(requests.len(), 2);
    for request in &requests {
        request.has_each_rule_once();
        assert_eq!(request.count(SCOPED), 0, "{}", request.text);
    }
}

#[test]
fn claude_code_is_reminded_on_a_correction_only() {
    let Some(repo) = Repo::new(Client::Claude) else {
        return;
    };
    let neutral = repo.ask(Client::Claude, "Add a users endpoint", None);
    assert_eq!(neutral.last().unwrap().reminders(), 0);
    let correction = repo.ask(
        Client::Claude,
        "No, don't use default exports anymore, we use named ones here",
        None,
    );
    assert_eq!(correction.last().unwrap().reminders(), 1);
}

/// `/learn <rule>` reaches the model as the command's prompt, without its stamp.
fn learn_is_expanded(client: Client) {
    let prompt = "/learn Always use tabs - because the linter wants them.";
    let Some(requests) = requests(client, prompt, None) else {
        return;
    };
    let last = requests.last().unwrap();
    let body = last.count("Turn it into one imperative rule");
    assert_eq!(body, 1, "{}", last.text);
    assert_eq!(last.count("autofix:owned"), 0, "{}", last.text);
}

#[test]
fn claude_code_expands_learn() {
    learn_is_expanded(Client::Claude);
}

#[test]
fn claude_code_has_the_rules_back_after_compaction() {
    let Some(repo) = Repo::new(Client::Claude) else {
        return;
    };
    let (_, printed) = repo.run(Client::Claude, &["-p", "Add a users endpoint"], None);
    let session: serde_json::Value = serde_json::from_str(&printed).unwrap();
    let session = session["session_id"].as_str().unwrap().to_string();
    repo.run(
        Client::Claude,
        &["-p", "--resume", &session, "/compact"],
        None,
    );
    let (after, _) = repo.run(
        Client::Claude,
        &["-p", "--resume", &session, "Now add tests"],
        None,
    );
    let last = after
        .iter()
        .rfind(|r| r.turn)
        .expect("a turn after the compaction");
    assert_eq!(
        last.count("continued from a previous conversation"),
        1,
        "{}",
        last.text
    );
    last.has_each_rule_once();
}

/// Claude Code's interactive session, driven through tmux as a person types: a neutral
/// prompt, a correction, then `/learn`.
#[test]
fn claude_code_interactive_reminds_on_a_correction_and_expands_learn() {
    let Some(repo) = Repo::new(Client::Claude) else {
        return;
    };
    if !repo
        .sandbox
        .program("tmux", &["-V"])
        .status()
        .is_ok_and(|s| s.success())
    {
        skip(
            "tmux",
            "an interactive Claude Code session needs a terminal",
        );
        return;
    }
    // What a person answers once: onboarding done, this folder trusted, the key approved.
    let dir = repo.dir();
    repo.sandbox.write(
        "home/.claude.json",
        serde_json::json!({
            "hasCompletedOnboarding": true,
            "theme": "dark",
            "customApiKeyResponses": {"approved": ["sk-stub"], "rejected": []},
            "projects": {dir.display().to_string(): {"hasTrustDialogAccepted": true}},
        })
        .to_string(),
    );
    let session = Tmux::start(&repo);
    session.wait_for("❯", 0);
    let prompts = [
        "Add a users endpoint",
        "No, don't use default exports anymore, we use named ones here",
        "/learn Always use tabs - because the linter wants them.",
    ];
    for (at, prompt) in prompts.iter().enumerate() {
        session.type_line(prompt);
        session.wait_for("", at + 1);
    }
    let turns: Vec<Request> = session.requests().into_iter().filter(|r| r.turn).collect();
    assert_eq!(turns.len(), 3, "one turn a prompt");
    for turn in &turns {
        turn.has_each_rule_once();
    }
    assert_eq!(turns[0].reminders(), 0, "{}", turns[0].text);
    assert_eq!(turns[1].reminders(), 1, "{}", turns[1].text);
    assert_eq!(
        turns[2].count("Turn it into one imperative rule"),
        1,
        "{}",
        turns[2].text
    );
}

/// A client running in a tmux session inside the loopback-only namespace.
struct Tmux<'r> {
    repo: &'r Repo,
    name: String,
    log: PathBuf,
}

impl<'r> Tmux<'r> {
    fn start(repo: &'r Repo) -> Tmux<'r> {
        let log = repo.sandbox.join("interactive.jsonl");
        let name = format!("autofix-{}", std::process::id());
        let script = repo.sandbox.write(
            "interactive.sh",
            format!(
                "cd '{dir}' && exec unshare -n sh -c 'ip link set lo up && exec python3 \"$@\"' sh \
                 '{STUB}' --log '{log}' --timeout 120 --interactive --env-with-port ANTHROPIC_BASE_URL \
                 -- '{program}'\n",
                dir = repo.dir().display(),
                log = log.display(),
                program = repo.program.display(),
            ),
        );
        // A server of its own (`-L`), which takes this command's environment.
        let mut command = repo.sandbox.program(
            "tmux",
            &[
                "-L",
                &name,
                "new-session",
                "-d",
                "-s",
                &name,
                "-x",
                "150",
                "-y",
                "40",
            ],
        );
        command
            .arg(format!("sh '{}'", script.display()))
            .env("PATH", repo.path_variable())
            .env("ANTHROPIC_BASE_URL", "http://127.0.0.1:{port}")
            .env("ANTHROPIC_API_KEY", "sk-stub")
            .env("DISABLE_AUTOUPDATER", "1")
            .env("DISABLE_TELEMETRY", "1")
            .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
        assert!(command.status().unwrap().success(), "tmux new-session");
        Tmux { repo, name, log }
    }

    fn tmux(&self, args: &[&str]) -> String {
        let args = [&["-L", self.name.as_str()], args].concat();
        let output = self.repo.sandbox.program("tmux", &args).output().unwrap();
        String::from_utf8_lossy(&output.stdout).into_owned()
    }

    fn type_line(&self, text: &str) {
        self.tmux(&["send-keys", "-t", &self.name, "-l", text]);
        std::thread::sleep(std::time::Duration::from_millis(300));
        self.tmux(&["send-keys", "-t", &self.name, "Enter"]);
    }

    /// Waits (60 s at most) until the screen shows `text` and the stub has logged `turns`
    /// turns.
    fn wait_for(&self, text: &str, turns: usize) {
        for _ in 0..600 {
            let screen = self.tmux(&["capture-pane", "-p", "-t", &self.name]);
            let logged = self.requests().iter().filter(|r| r.turn).count();
            if screen.contains(text) && logged >= turns {
                // Let the client settle before the next keystrokes.
                std::thread::sleep(std::time::Duration::from_millis(500));
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        let screen = self.tmux(&["capture-pane", "-p", "-t", &self.name]);
        panic!("waited for {text:?} and {turns} turns; the screen:\n{screen}");
    }

    fn requests(&self) -> Vec<Request> {
        fs::read_to_string(&self.log)
            .unwrap_or_default()
            .lines()
            .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
            .map(|entry| Request::of(&entry["body"], Client::Claude.is_turn(&entry)))
            .collect()
    }
}

impl Drop for Tmux<'_> {
    fn drop(&mut self) {
        self.tmux(&["kill-server"]);
    }
}

#[test]
fn codex_sees_each_rule_once_and_the_scoped_rule_with_its_scope() {
    let Some(requests) = requests(Client::Codex, "Add a users endpoint", None) else {
        return;
    };
    let request = &requests[0];
    request.has_each_rule_once();
    assert_eq!(request.count(SCOPED), 1, "{}", request.text);
    assert!(request.text.contains("src/api/**"));
}

#[test]
fn codex_has_the_rules_back_after_compaction() {
    let Some(repo) = Repo::new(Client::Codex) else {
        return;
    };
    // Compact before every turn once the history holds more than 5 tokens.
    let config = repo.home().join(".codex/config.toml");
    let text = fs::read_to_string(&config).unwrap();
    fs::write(
        &config,
        format!("model_auto_compact_token_limit = 5\n{text}"),
    )
    .unwrap();
    repo.ask(Client::Codex, "Add a users endpoint", None);
    let exec = [
        "exec",
        "--dangerously-bypass-hook-trust",
        "--skip-git-repo-check",
    ];
    let resume = [&exec[..], &["resume", "--last", "Now add tests"]].concat();
    let (after, _) = repo.run(Client::Codex, &resume, None);
    let after: Vec<Request> = after.into_iter().filter(|r| r.turn).collect();
    let compacted = after
        .iter()
        .any(|r| r.count("CONTEXT CHECKPOINT COMPACTION") == 1);
    assert!(compacted, "Codex did not compact");
    let last = after.last().expect("a turn after the compaction");
    last.has_each_rule_once();
    assert_eq!(last.count(SCOPED), 1);
}

#[test]
fn codex_is_reminded_on_a_correction_only() {
    let Some(repo) = Repo::new(Client::Codex) else {
        return;
    };
    let neutral = repo.ask(Client::Codex, "Add a users endpoint", None);
    assert_eq!(neutral[0].reminders(), 0);
    let correction = repo.ask(
        Client::Codex,
        "No, don't use default exports anymore, we use named ones here",
        None,
    );
    assert_eq!(correction[0].reminders(), 1);
}

#[test]
fn gemini_cli_sees_each_rule_once_as_instructions() {
    let Some(requests) = requests(Client::Gemini, "Add a users endpoint", None) else {
        return;
    };
    let request = &requests[0];
    request.has_each_rule_once();
    assert_eq!(request.count(SCOPED), 1, "{}", request.text);
    // Hook output reaches Gemini's model as data (`<hook_context>`); the rules must come
    // from a context file, which Gemini CLI sends as `<project_context>` and its system
    // prompt calls "foundational mandates".
    let mandates = "Instructions found in `GEMINI.md` files are foundational mandates";
    assert_eq!(request.count(mandates), 1);
    for rule in UNSCOPED.iter().chain([&SCOPED]) {
        let data = request.within("<hook_context>", "</hook_context>", rule);
        let context = request.within("<project_context>", "</project_context>", rule);
        assert!(!data && context, "{rule:?} in\n{}", request.text);
    }
}

#[test]
fn gemini_cli_has_the_rules_back_after_compression() {
    let Some(repo) = Repo::new(Client::Gemini) else {
        return;
    };
    // Compress the history as soon as it holds anything.
    repo.sandbox.write(
        "home/.gemini/settings.json",
        r#"{"security":{"auth":{"selectedType":"gemini-api-key"}},"model":{"compressionThreshold":0.000001}}"#,
    );
    repo.ask(Client::Gemini, "Add a users endpoint", None);
    let (after, _) = repo.run(
        Client::Gemini,
        &["--resume", "latest", "-p", "Now add tests"],
        None,
    );
    // Gemini CLI's compression asks for a `<state_snapshot>` of the history.
    let compressed = after
        .iter()
        .any(|r| !r.turn && r.count("state_snapshot") > 0);
    assert!(compressed, "Gemini CLI did not compress");
    let last = after
        .iter()
        .rfind(|r| r.turn)
        .expect("a turn after the compression");
    last.has_each_rule_once();
}

#[test]
fn gemini_cli_is_reminded_on_a_correction_only() {
    let Some(repo) = Repo::new(Client::Gemini) else {
        return;
    };
    let neutral = repo.ask(Client::Gemini, "Add a users endpoint", None);
    assert_eq!(neutral[0].reminders(), 0, "{}", neutral[0].text);
    let correction = repo.ask(
        Client::Gemini,
        "No, don't use default exports anymore, we use named ones here",
        None,
    );
    assert_eq!(correction[0].reminders(), 1, "{}", correction[0].text);
}

#[test]
fn gemini_cli_expands_learn() {
    learn_is_expanded(Client::Gemini);
}

/// The rules a team wrote by hand before adopting autofix, as each agent's file has them:
/// CLAUDE.md and AGENTS.md share two (one in other words), GEMINI.md one.
const HAND_WRITTEN: [(&str, &str); 3] = [
    (
        "CLAUDE.md",
        "# Project\n\nA web app in TypeScript.\n\n## Rules\n\n- Always use pnpm to install packages.\n- Never log secrets.\n- Keep functions under 50 lines.\n",
    ),
    (
        "AGENTS.md",
        "# Agents\n\n- Use pnpm to install packages.\n- Never log secrets.\n- Prefer named exports.\n",
    ),
    ("GEMINI.md", "# Gemini\n\n- Never log secrets.\n"),
];

/// What of each adopted rule must reach the model once.
const ADOPTED: [&str; 4] = [
    "pnpm to install packages",
    "Never log secrets",
    "Keep functions under 50 lines",
    "Prefer named exports",
];

/// A repository with those files adopts autofix in two commands, `init` (hooks and the
/// first export) and `import --write --move`, and one edit by hand: the line that says a
/// rule in other words stays, as the import says, and the person deletes it.
fn adopted(client: Client) -> Option<Repo> {
    let repo = Repo::available(client)?;
    for (file, text) in HAND_WRITTEN {
        repo.sandbox.write(format!("repo/{file}"), text);
    }
    repo.git(&["init", "-q"]);
    repo.autofix(&["init", "--hook", "claude,codex,gemini", "--export"])
        .expect(0);
    let import = repo.autofix(&["import", "--write", "--move"]).expect(0);
    assert!(
        import
            .stdout
            .contains("(stays in AGENTS.md: not in these words)")
            && import
                .stdout
                .contains("1 line stays in its hand-written file"),
        "{}",
        import.stdout
    );
    let agents = repo.sandbox.read("repo/AGENTS.md");
    assert!(
        agents.contains("- Use pnpm to install packages.\n"),
        "{agents}"
    );
    let check = repo.autofix(&["check"]).expect(0);
    assert!(
        check
            .stdout
            .contains("delete it by hand if the rule says all it says"),
        "{}",
        check.stdout
    );
    repo.sandbox.write(
        "repo/AGENTS.md",
        agents.replace("- Use pnpm to install packages.\n", ""),
    );
    // Nothing is written twice any more, as `check` sees it.
    let check = repo
        .autofix(&["check", "--format", "json"])
        .expect(0)
        .json();
    assert_eq!(check["summary"]["warnings"], 0, "{check}");
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-qm", "adopt autofix"]);
    repo.configure_home();
    Some(repo)
}

fn adopted_rules_reach_the_model_once(client: Client) {
    let Some(repo) = adopted(client) else {
        return;
    };
    let requests = repo.ask(client, "Add a users endpoint", None);
    let request = requests.first().expect("a model request");
    for rule in ADOPTED {
        assert_eq!(
            request.count(rule),
            1,
            "{client:?}: {rule:?} in\n{}",
            request.text
        );
    }
}

#[test]
fn claude_code_gets_each_adopted_rule_once() {
    adopted_rules_reach_the_model_once(Client::Claude);
}

#[test]
fn codex_gets_each_adopted_rule_once() {
    adopted_rules_reach_the_model_once(Client::Codex);
}

#[test]
fn gemini_cli_gets_each_adopted_rule_once() {
    adopted_rules_reach_the_model_once(Client::Gemini);
}

/// The corrections of the ledger flow, each saying one of the rules committed at set-up
/// again in its words, as users do ("No, …", "I told you: …", "…, not npm"), and the rule
/// (1-based among `UNSCOPED`) each repeats: the repeats the tool itself can vouch for.
const REPEATED: [(&str, u64); 3] = [
    ("No, always use named exports, I told you.", 1),
    ("I told you: use pnpm to install packages, not npm.", 2),
    ("Never log secrets, I said.", 3),
];

/// The rules are learned and committed at set-up; later sessions (a new one, a resumed
/// one, one started in a folder of the repository) type each again beside an ordinary
/// request, and `ledger` credits every repeat to its rule and nothing else.
fn the_ledger_credits_each_repeat_to_its_rule(client: Client) {
    let Some(repo) = Repo::new(client) else {
        return;
    };
    // The transcripts' times are after the commit's, to the second.
    std::thread::sleep(std::time::Duration::from_millis(1_100));
    let resume: Vec<&str> = match client {
        Client::Claude => vec!["-p", "--continue"],
        Client::Codex => vec![
            "exec",
            "--dangerously-bypass-hook-trust",
            "--skip-git-repo-check",
            "resume",
            "--last",
        ],
        Client::Gemini => vec!["--resume", "latest", "-p"],
        _ => unreachable!("the ledger reads Claude Code, Codex and Gemini CLI"),
    };
    repo.ask(client, REPEATED[0].0, None);
    repo.run(client, &[&resume[..], &[REPEATED[1].0]].concat(), None);
    let folder = repo.dir().join("src/web");
    let new_in_folder: Vec<&str> = match client {
        Client::Codex => vec![
            "exec",
            "--dangerously-bypass-hook-trust",
            "--skip-git-repo-check",
        ],
        _ => vec!["-p"],
    };
    repo.run_from(
        client,
        &[&new_in_folder[..], &["Add a users endpoint"]].concat(),
        None,
        &folder,
    );
    repo.run_from(
        client,
        &[&resume[..], &[REPEATED[2].0]].concat(),
        None,
        &folder,
    );
    let ledger = repo
        .autofix(&["ledger", "--agent", client.agent(), "--format", "json"])
        .expect(0)
        .json();
    for (text, rule) in REPEATED {
        let credited = ledger["rules"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["number"] == rule)
            .unwrap_or_else(|| panic!("rule {rule}: {ledger}"));
        let repeats: Vec<&str> = credited["repeats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["text"].as_str().unwrap())
            .collect();
        assert_eq!(
            repeats,
            [text],
            "rule {rule} in {}: {ledger}",
            client.name()
        );
    }
    assert_eq!(ledger["figure"]["repeats"], 3, "{ledger}");
    assert_eq!(ledger["figure"]["corrections"], 3, "{ledger}");
}

#[test]
fn claude_code_sessions_feed_the_ledger() {
    the_ledger_credits_each_repeat_to_its_rule(Client::Claude);
}

#[test]
fn codex_sessions_feed_the_ledger() {
    the_ledger_credits_each_repeat_to_its_rule(Client::Codex);
}

#[test]
fn gemini_cli_sessions_feed_the_ledger() {
    the_ledger_credits_each_repeat_to_its_rule(Client::Gemini);
}
