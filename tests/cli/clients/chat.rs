//! The clients that speak OpenAI Chat Completions to the stub — opencode, GitHub Copilot
//! CLI (BYOK, offline), cline, Qwen Code, Continue's `cn` and aider — each installed by
//! `.ci/run` at a pinned version and named by its variable (`AUTOFIX_OPENCODE`,
//! `AUTOFIX_COPILOT`, `AUTOFIX_CLINE`, `AUTOFIX_QWEN`, `AUTOFIX_CONTINUE`, `AUTOFIX_AIDER`).
//! How each is pointed at a local model and run headless: its `--help` and documentation,
//! cited at each client below.

use std::fs;
use std::process::Command;

use super::{Client, Repo, Request, SCOPED};

/// The stub model's name in every client's configuration.
const MODEL: &str = "stub-model";

/// Where the stub listens, once the stub has replaced `{port}`.
const BASE_URL: &str = "http://127.0.0.1:{port}/v1";

/// What each client needs in HOME, written for all (the files of one client are nothing to
/// another). `PORT` in a file is replaced by the stub's port before the client starts.
pub(super) fn configure_home(repo: &Repo) {
    let dir = repo.dir();
    // https://opencode.ai/docs/providers/#custom-provider (an OpenAI-compatible provider)
    repo.sandbox.write(
        "home/.config/opencode/opencode.json",
        serde_json::json!({
            "$schema": "https://opencode.ai/config.json",
            "autoupdate": false,
            "share": "disabled",
            "provider": {"stub": {
                "npm": "@ai-sdk/openai-compatible",
                "name": "stub",
                "options": {"baseURL": "http://127.0.0.1:PORT/v1", "apiKey": "stub"},
                "models": {MODEL: {"name": "stub", "tool_call": true}},
            }},
            "model": format!("stub/{MODEL}"),
            "small_model": format!("stub/{MODEL}"),
        })
        .to_string(),
    );
    // https://qwenlm.github.io/qwen-code-docs/en/cli/trusted-folders
    repo.sandbox.write(
        "home/.qwen/settings.json",
        r#"{"security":{"auth":{"selectedType":"openai"}}}"#,
    );
    repo.sandbox.write(
        "home/.qwen/trustedFolders.json",
        serde_json::json!({dir.display().to_string(): "TRUST_FOLDER"}).to_string(),
    );
    // https://docs.continue.dev/reference (config.yaml, schema v1)
    repo.sandbox.write(
        "home/cn.yaml",
        format!(
            "name: stub\nversion: 1.0.0\nschema: v1\nmodels:\n  - name: stub\n    provider: openai\n    model: {MODEL}\n    apiBase: http://127.0.0.1:PORT/v1\n    apiKey: stub\n    roles: [chat, edit, apply]\n    capabilities: [tool_use]\n"
        ),
    );
}

/// `program` started after `PORT` in `config` became the stub's port (known only inside
/// the namespace).
pub(super) fn with_port_in(config: &std::path::Path, program: String) -> Vec<String> {
    vec![
        "sh".into(),
        "-c".into(),
        format!(
            "sed -i 's/127.0.0.1:[A-Z0-9]*/127.0.0.1:{{port}}/' '{}' && exec \"$0\" \"$@\"",
            config.display()
        ),
        program,
    ]
}

/// The command line that runs `client` (its prompt arguments follow), with what the stub
/// needs for it added to `stub`: the variable holding the port, the client's own
/// file-reading tool for `--read`, the processes it leaves behind.
pub(super) fn command_line(
    repo: &Repo,
    client: Client,
    stub: &mut Vec<String>,
    program: String,
) -> Vec<String> {
    let read_tool = match client {
        Client::OpenCode => r#"read={"filePath": "@FILE@"}"#,
        Client::Copilot => r#"view={"path": "@FILE@"}"#,
        Client::Cline => r#"read_files={"files": [{"path": "@FILE@"}]}"#,
        Client::Qwen => r#"read_file={"file_path": "@FILE@"}"#,
        Client::Continue => r#"Read={"filepath": "@FILE@"}"#,
        _ => "",
    };
    if !read_tool.is_empty() {
        stub.extend(["--read-tool".into(), read_tool.into()]);
    }
    let home = repo.home();
    match client {
        Client::OpenCode => with_port_in(&home.join(".config/opencode/opencode.json"), program),
        Client::Continue => with_port_in(&home.join("cn.yaml"), program),
        Client::Copilot => {
            stub.extend(["--env-with-port".into(), "COPILOT_PROVIDER_BASE_URL".into()]);
            vec![program]
        }
        // `cline auth` writes the provider to `~/.cline` without a request; each run
        // leaves a `--cline-hub-daemon` behind, ended by the stub.
        Client::Cline => {
            stub.extend(["--reap".into(), repo.dir().display().to_string()]);
            vec![
                "sh".into(),
                "-c".into(),
                format!(
                    "\"$0\" auth -p openai -k stub -m {MODEL} -b {BASE_URL} >/dev/null && exec \"$0\" \"$@\""
                ),
                program,
            ]
        }
        _ => vec![program],
    }
}

/// Each client's variables: no update checks, telemetry or downloads; the stub as its
/// provider where a variable says so.
pub(super) fn environment(repo: &Repo, client: Client, command: &mut Command) {
    let home = repo.home();
    match client {
        // https://opencode.ai/docs/cli/#environment-variables
        Client::OpenCode => {
            for name in [
                "OPENCODE_DISABLE_AUTOUPDATE",
                "OPENCODE_DISABLE_MODELS_FETCH",
                "OPENCODE_DISABLE_LSP_DOWNLOAD",
                "OPENCODE_DISABLE_DEFAULT_PLUGINS",
            ] {
                command.env(name, "1");
            }
        }
        // `copilot help environment`: bring-your-own-key, offline, no login. The folder is
        // trusted (its hooks run in `-p` only then) by `COPILOT_ALLOW_ALL`.
        Client::Copilot => {
            command
                .env("COPILOT_OFFLINE", "true")
                .env("COPILOT_PROVIDER_BASE_URL", BASE_URL)
                .env("COPILOT_PROVIDER_TYPE", "openai")
                .env("COPILOT_PROVIDER_API_KEY", "stub")
                .env("COPILOT_MODEL", MODEL)
                .env("COPILOT_HOME", home.join(".copilot"))
                .env("COPILOT_AUTO_UPDATE", "false")
                .env("COPILOT_ALLOW_ALL", "true");
        }
        Client::Continue => {
            command
                .env("CONTINUE_GLOBAL_DIR", home.join(".continue"))
                .env("CONTINUE_CLI_DISABLE_TELEMETRY", "1");
        }
        // https://aider.chat/docs/config/options.html; LiteLLM's cost map from its package,
        // not the network.
        Client::Aider => {
            command.env("LITELLM_LOCAL_MODEL_COST_MAP", "True");
        }
        _ => {}
    }
}

/// Runs `client` on `prompt`: the requests that are turns of its main loop.
pub(super) fn ask(repo: &Repo, client: Client, prompt: &str, read: Option<&str>) -> Vec<Request> {
    let config = repo.home().join("cn.yaml").display().to_string();
    let args: Vec<&str> = match client {
        Client::OpenCode => vec!["run", "--format", "json", prompt],
        Client::Copilot => vec![
            "-p",
            prompt,
            "--allow-all-tools",
            "--no-auto-update",
            "--output-format",
            "json",
        ],
        Client::Cline => vec!["--json", prompt],
        // https://qwenlm.github.io/qwen-code-docs/en/users/features/headless
        Client::Qwen => vec![
            "--auth-type",
            "openai",
            "--openai-base-url",
            BASE_URL,
            "--openai-api-key",
            "stub",
            "-m",
            MODEL,
            "-o",
            "stream-json",
            "--approval-mode",
            "yolo",
            prompt,
        ],
        // https://docs.continue.dev/guides/cli
        Client::Continue => vec!["-p", "--config", &config, "--auto", prompt],
        // https://aider.chat/docs/scripting.html
        Client::Aider => vec![
            "--model",
            "openai/stub-model",
            "--openai-api-base",
            BASE_URL,
            "--openai-api-key",
            "stub",
            "--message",
            prompt,
            "--yes-always",
            "--no-auto-commits",
            "--no-check-update",
            "--analytics-disable",
            "--no-pretty",
        ],
        _ => unreachable!("{client:?} is not a Chat Completions client"),
    };
    let (requests, _) = repo.run(client, &args, read);
    requests.into_iter().filter(|r| r.turn).collect()
}

/// A turn of the client's main loop: a Chat Completions request with the agent's tools
/// (opencode's title request has none; Qwen Code's memory extraction runs as a subagent).
/// aider sends no tools at all.
pub(super) fn is_turn(client: Client, entry: &serde_json::Value) -> bool {
    let path = entry["path"].as_str().unwrap_or("");
    if !path.ends_with("/chat/completions") {
        return false;
    }
    if client == Client::Aider {
        return true;
    }
    let body = &entry["body"];
    let tools = body["tools"].as_array().is_some_and(|t| !t.is_empty());
    let memory = body["messages"][0]["content"]
        .as_str()
        .is_some_and(|s| s.contains("managed memory extraction subagent"));
    tools && !memory
}

/// Asserts that every hook the client ran exited 0, and that it ran some when `hooked`.
#[track_caller]
fn hooks_exited_zero(repo: &Repo, hooked: bool) {
    let log = fs::read_to_string(repo.sandbox.join("hooks.log")).unwrap_or_default();
    let hooks: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("--format hook") || l.contains("hook user-prompt"))
        .collect();
    assert!(
        hooks.iter().all(|l| l.starts_with("0 ")),
        "a hook failed:\n{log}"
    );
    assert_eq!(!hooks.is_empty(), hooked, "hooks run:\n{log}");
}

/// The case every client passes: each unscoped rule once in every turn, the scoped one once
/// under its heading (AGENTS.md is each one's channel), no marker of a second copy.
fn sees_each_rule_once(client: Client, hooked: bool) {
    let Some(repo) = Repo::new(client) else {
        return;
    };
    if client == Client::Aider {
        set_up_aider(&repo);
    }
    let turns = repo.ask(client, "Add a users endpoint", None);
    assert!(!turns.is_empty(), "{client:?} sent no model request");
    for turn in &turns {
        turn.has_each_rule_once();
        assert_eq!(turn.count(SCOPED), 1, "{}", turn.text);
        assert!(turn.text.contains("Only for files matching `src/api/**`"));
        assert_eq!(turn.reminders(), 0, "{}", turn.text);
    }
    // Copilot CLI parses a skill's frontmatter as strict YAML and drops one it cannot.
    if client == Client::Copilot {
        assert!(
            turns[0].text.contains("<name>autofix</name>"),
            "the autofix skill is not listed:\n{}",
            turns[0].text
        );
    }
    hooks_exited_zero(&repo, hooked);
}

/// aider reads no instructions file by itself: what `init` says to add to
/// `.aider.conf.yml`, added.
fn set_up_aider(repo: &Repo) {
    let said = repo.autofix(&["init"]).expect(0).stdout;
    let line = said
        .lines()
        .find(|l| l.contains(".aider.conf.yml"))
        .unwrap_or_else(|| panic!("init says nothing of aider:\n{said}"));
    assert!(line.contains("read: AGENTS.md"), "{line}");
    repo.sandbox
        .write("repo/.aider.conf.yml", "read: AGENTS.md\n");
}

#[test]
fn opencode_sees_each_rule_once() {
    sees_each_rule_once(Client::OpenCode, false);
}

#[test]
fn copilot_cli_sees_each_rule_once() {
    sees_each_rule_once(Client::Copilot, true);
}

#[test]
fn cline_sees_each_rule_once() {
    sees_each_rule_once(Client::Cline, false);
}

#[test]
fn qwen_code_sees_each_rule_once() {
    // The default set-up installs no Qwen Code hook (`init --hook qwen` does).
    sees_each_rule_once(Client::Qwen, false);
}

#[test]
fn continue_cli_sees_each_rule_once() {
    sees_each_rule_once(Client::Continue, false);
}

#[test]
fn aider_sees_each_rule_once_with_the_line_init_gives() {
    sees_each_rule_once(Client::Aider, false);
}

/// A neutral prompt, then a correction: the reminder on the correction only, from the
/// client's own prompt hook that `init --hook copilot,qwen` installs.
fn reminded_on_a_correction_only(client: Client, hook: &str) {
    let Some(repo) = Repo::new(client) else {
        return;
    };
    repo.autofix(&["init", "--hook", hook]).expect(0);
    let neutral = repo.ask(client, "Add a users endpoint", None);
    assert_eq!(neutral[0].reminders(), 0, "{}", neutral[0].text);
    neutral[0].has_each_rule_once();
    let correction = repo.ask(
        client,
        "No, don't use default exports anymore, we use named ones here",
        None,
    );
    assert_eq!(correction[0].reminders(), 1, "{}", correction[0].text);
    correction[0].has_each_rule_once();
    hooks_exited_zero(&repo, true);
}

#[test]
fn copilot_cli_is_reminded_on_a_correction_only() {
    reminded_on_a_correction_only(Client::Copilot, "copilot");
}

#[test]
fn qwen_code_is_reminded_on_a_correction_only() {
    reminded_on_a_correction_only(Client::Qwen, "qwen");
}

/// The scoped rule where the client's read tool brings a matching file: `copies` times
/// (once: the AGENTS.md heading).
fn scoped_rule_after_a_matching_read(client: Client, copies: usize) {
    let Some(repo) = Repo::new(client) else {
        return;
    };
    let turns = repo.ask(client, "Add a users endpoint", Some("src/api/users.ts"));
    assert!(
        turns.len() >= 2,
        "{client:?}: a tool call, then the answer ({} turns)",
        turns.len()
    );
    let last = turns.last().unwrap();
    assert!(last.text.contains("export const users"), "{}", last.text);
    last.has_each_rule_once();
    assert_eq!(last.count(SCOPED), copies, "{}", last.text);
}

#[test]
fn opencode_keeps_the_scoped_rule_once_after_a_matching_read() {
    scoped_rule_after_a_matching_read(Client::OpenCode, 1);
}

/// Copilot CLI reads every `.claude/rules/*.md` and, once a matching file is read, attaches
/// a scoped one with `paths:`: beside AGENTS.md's heading that was a second copy, until the
/// claude target marked its scoped files `excludeAgent: "coding-agent"`.
#[test]
fn copilot_cli_keeps_the_scoped_rule_once_after_a_matching_read() {
    scoped_rule_after_a_matching_read(Client::Copilot, 1);
}

#[test]
fn opencode_expands_learn() {
    let Some(repo) = Repo::new(Client::OpenCode) else {
        return;
    };
    repo.autofix(&["init", "--command", "opencode"]).expect(0);
    let args = [
        "run",
        "--format",
        "json",
        "--command",
        "learn",
        "Always use tabs - because the linter wants them.",
    ];
    let (all, _) = repo.run(Client::OpenCode, &args, None);
    let turns: Vec<&Request> = all.iter().filter(|r| r.turn).collect();
    let last = turns.last().expect("a turn");
    assert_eq!(
        last.count("Turn it into one imperative rule"),
        1,
        "{}",
        last.text
    );
    assert_eq!(last.count("autofix:owned"), 0, "{}", last.text);
}

/// The client's own target where no AGENTS.md carries the rules (beside one, it would be a
/// second copy, not written): each rule once, the scoped one under its heading (cline
/// loaded a `paths:` file before any read, `cn` never loaded a `globs:` one), also after a
/// matching read.
fn own_target_alone(client: Client, target: &str) {
    let Some(repo) = Repo::new(client) else {
        return;
    };
    repo.autofix(&["export", "--remove", "--target", "agents-md"])
        .expect(0);
    repo.autofix(&["export", "--target", target]).expect(0);
    let turns = repo.ask(client, "Add a users endpoint", Some("src/api/users.ts"));
    assert!(!turns.is_empty(), "{client:?} sent no model request");
    for turn in &turns {
        turn.has_each_rule_once();
        assert_eq!(turn.count(SCOPED), 1, "{}", turn.text);
        assert_eq!(turn.count("BEGIN:autofix"), 0, "{}", turn.text);
    }
}

#[test]
fn cline_reads_its_own_rules_folder_once() {
    own_target_alone(Client::Cline, "cline-rules");
}

#[test]
fn continue_cli_reads_its_own_rules_folder_once() {
    own_target_alone(Client::Continue, "continue");
}

/// Claude Code, Codex and Gemini CLI run the hooks of the default set-up on a correction,
/// and every one of them exits 0.
#[test]
fn the_default_hooks_run_and_exit_zero_in_claude_code_codex_and_gemini_cli() {
    for client in [Client::Claude, Client::Codex, Client::Gemini] {
        let Some(repo) = Repo::new(client) else {
            continue;
        };
        let turns = repo.ask(
            client,
            "No, don't use default exports anymore, we use named ones here",
            None,
        );
        assert!(!turns.is_empty(), "{client:?} sent no model request");
        hooks_exited_zero(&repo, true);
    }
}
