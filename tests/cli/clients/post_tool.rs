//! The after-tool hook in the real clients: the stub model's scripted edit breaks a
//! checked rule, and the next model request carries the notice naming the rule; an edit
//! that breaks nothing adds nothing; a tool call that fails on a wrong assumption (a
//! command that is not installed) brings one reminder to record the lesson, and the same
//! failure again in the session none.
//!
//! Codex runs under the name of a model it knows (`gpt-5.5`): to a model it does not know
//! the pinned Codex (0.169.0) offers no `apply_patch` tool, and the model's patch through
//! the shell (`apply_patch <<'EOF'`) runs no `PostToolUse` hook.

use serde_json::json;

use super::{Client, Repo, Request};

/// The checked rule every repository of these tests learns after the set-up's four.
const CHECKED: &str = "Never call console.log in src - because logs leak user data.";
/// How the notice names it: its number, then its text.
const NOTICE: &str = "breaks rule 5: Never call console.log in src";
/// The failure's reminder, once.
const REMINDER: &str = "failed on a wrong assumption";
/// A command no machine has: the shell answers "command not found".
const MISSING_COMMAND: &str = "autofix-stub-missing-tool --version";

fn checked_repo(client: Client) -> Option<Repo> {
    let repo = Repo::new(client)?;
    repo.autofix(&[
        "learn",
        "-c",
        "code",
        "-w",
        "team",
        "--path",
        "src/**",
        "--check",
        r"console\.log",
        CHECKED,
    ])
    .expect(0);
    if client == Client::Codex {
        offer_codex_tools(&repo);
    }
    Some(repo)
}

/// Gives Codex a model it knows, so that it offers its own tools (`apply_patch`,
/// `exec_command`); to one it does not know it offers none it names so, and the stub
/// answers whatever the name.
pub(super) fn offer_codex_tools(repo: &Repo) {
    let config = repo.home().join(".codex/config.toml");
    let text = std::fs::read_to_string(&config).unwrap();
    std::fs::write(
        &config,
        text.replace("model = \"gpt-stub\"", "model = \"gpt-5.5\""),
    )
    .unwrap();
}

/// The tool call that writes `text` to `file` of the repository, in the client's tools.
fn write_call(repo: &Repo, client: Client, file: &str, text: &str) -> serde_json::Value {
    let path = repo.dir().join(file).display().to_string();
    match client {
        Client::Claude => json!({"name": "Write", "input": {"file_path": path, "content": text}}),
        Client::Gemini => {
            json!({"name": "write_file", "input": {"file_path": path, "content": text}})
        }
        Client::Codex => {
            let lines: String = text.lines().map(|line| format!("+{line}\n")).collect();
            let patch = format!("*** Begin Patch\n*** Add File: {path}\n{lines}*** End Patch\n");
            json!({"name": "apply_patch", "input": patch})
        }
        _ => unreachable!("the after-tool hook answers Claude Code, Codex and Gemini CLI"),
    }
}

/// The tool call that runs `command` in the client's shell.
pub(super) fn shell_call(client: Client, command: &str) -> serde_json::Value {
    match client {
        Client::Claude => json!({"name": "Bash", "input": {"command": command}}),
        Client::Gemini => json!({"name": "run_shell_command", "input": {"command": command}}),
        Client::Codex => json!({"name": "exec_command", "input": {"cmd": command}}),
        _ => unreachable!("the after-tool hook answers Claude Code, Codex and Gemini CLI"),
    }
}

/// Runs the client once on a prompt, the stub answering with `calls`; the turns it made.
fn session(repo: &Repo, client: Client, calls: &[serde_json::Value]) -> Vec<Request> {
    let prompt = "Add a logger";
    let args: Vec<&str> = match client {
        // Headless, the tools must be allowed up front.
        Client::Claude => vec!["--allowedTools", "Write,Bash", "-p", prompt],
        Client::Gemini => vec!["--yolo", "-p", prompt],
        Client::Codex => vec![
            "exec",
            "--dangerously-bypass-hook-trust",
            "--dangerously-bypass-approvals-and-sandbox",
            "--skip-git-repo-check",
            prompt,
        ],
        _ => unreachable!("the after-tool hook answers Claude Code, Codex and Gemini CLI"),
    };
    let (requests, _) = repo.run_scripted(client, &args, None, &repo.dir(), calls);
    requests.into_iter().filter(|r| r.turn).collect()
}

fn an_edit_that_breaks_a_checked_rule_is_named_at_once(client: Client) {
    let Some(repo) = checked_repo(client) else {
        return;
    };
    let calls = [
        write_call(
            &repo,
            client,
            "src/web/log.ts",
            "console.log(\"user\", user);\n",
        ),
        write_call(&repo, client, "src/web/ok.ts", "export const ok = 1;\n"),
    ];
    let turns = session(&repo, client, &calls);
    assert!(turns.len() >= 3, "{client:?}: {} turns", turns.len());
    assert!(
        std::fs::read_to_string(repo.dir().join("src/web/log.ts")).is_ok(),
        "{client:?} did not write the file"
    );
    assert_eq!(turns[0].count(NOTICE), 0, "{}", turns[0].text);
    // After the breaking edit: the notice, with the rule's number and text.
    assert_eq!(turns[1].count(NOTICE), 1, "{}", turns[1].text);
    // After the clean edit: nothing more (the notice of the first is still history).
    assert_eq!(turns[2].count(NOTICE), 1, "{}", turns[2].text);
    assert_eq!(turns[2].count("breaks rule"), 1, "{}", turns[2].text);
}

fn a_wrong_assumption_is_named_once_a_session(client: Client) {
    let Some(repo) = checked_repo(client) else {
        return;
    };
    let calls = [
        shell_call(client, MISSING_COMMAND),
        shell_call(client, MISSING_COMMAND),
    ];
    let turns = session(&repo, client, &calls);
    assert!(turns.len() >= 3, "{client:?}: {} turns", turns.len());
    assert_eq!(turns[0].count(REMINDER), 0, "{}", turns[0].text);
    assert_eq!(turns[1].count(REMINDER), 1, "{}", turns[1].text);
    assert!(turns[1].text.contains("autofix learn"), "{}", turns[1].text);
    // The same failure again in the session: no second reminder.
    assert_eq!(turns[2].count(REMINDER), 1, "{}", turns[2].text);
}

#[test]
fn claude_code_is_told_at_once_of_an_edit_that_breaks_a_checked_rule() {
    an_edit_that_breaks_a_checked_rule_is_named_at_once(Client::Claude);
}

#[test]
fn claude_code_is_reminded_once_of_a_wrong_assumption() {
    a_wrong_assumption_is_named_once_a_session(Client::Claude);
}

#[test]
fn gemini_cli_is_told_at_once_of_an_edit_that_breaks_a_checked_rule() {
    an_edit_that_breaks_a_checked_rule_is_named_at_once(Client::Gemini);
}

#[test]
fn gemini_cli_is_reminded_once_of_a_wrong_assumption() {
    a_wrong_assumption_is_named_once_a_session(Client::Gemini);
}

#[test]
fn codex_is_told_at_once_of_an_edit_that_breaks_a_checked_rule() {
    an_edit_that_breaks_a_checked_rule_is_named_at_once(Client::Codex);
}

#[test]
fn codex_is_reminded_once_of_a_wrong_assumption() {
    a_wrong_assumption_is_named_once_a_session(Client::Codex);
}
