//! The agent answers the prompt hook's note through its own shell tool: the stub model,
//! as a model would, copies the note's id into `autofix verdict ID restated N`, and the
//! ledger then credits that rule, and only it, with the agent's verdict.

use super::{Client, Repo, UNSCOPED};

/// A restatement of rule 2 (pnpm) in other words, as a question: no word-for-word repeat,
/// so only the agent can say it is one.
const RESTATED: &str = "why did you run npm install? we use pnpm here";

fn the_agent_answers_a_note_and_the_ledger_credits_its_rule(client: Client) {
    let Some(repo) = Repo::new(client) else {
        return;
    };
    if client == Client::Codex {
        super::post_tool::offer_codex_tools(&repo);
        // Codex runs its shell tool in a login shell, which sets PATH from the profile:
        // there the user puts autofix on it, as after `cargo install`.
        std::fs::write(
            repo.home().join(".profile"),
            format!("export PATH=\"{}:$PATH\"\n", repo.bin.display()),
        )
        .unwrap();
    }
    let command = "autofix verdict {note} restated 2";
    let call = super::post_tool::shell_call(client, command);
    let args: Vec<&str> = match client {
        // Headless, the tool must be allowed up front.
        Client::Claude => vec!["--allowedTools", "Bash", "-p", RESTATED],
        Client::Gemini => vec!["--yolo", "-p", RESTATED],
        Client::Codex => vec![
            "exec",
            "--dangerously-bypass-hook-trust",
            "--dangerously-bypass-approvals-and-sandbox",
            "--skip-git-repo-check",
            RESTATED,
        ],
        _ => unreachable!("the flow runs in Claude Code, Codex and Gemini CLI"),
    };
    let (requests, _) = repo.run_scripted(client, &args, None, &repo.dir(), &[call]);
    let first = requests.iter().find(|r| r.turn).expect("a turn");
    assert!(
        first.text.contains("autofix verdict ") && first.text.contains(" restated N`"),
        "{}: the note did not reach the model\n{}",
        client.name(),
        first.text
    );
    let ledger = repo
        .autofix(&["ledger", "--format", "json"])
        .expect(0)
        .json();
    let last = &requests.last().expect("a request").text;
    let at = last
        .rfind(r#"{"cmd""#)
        .or_else(|| last.rfind("autofix verdict"))
        .unwrap_or(0);
    let tail: String = last[at..].chars().take(1500).collect();
    assert_eq!(ledger["figure"]["notes"]["given"], 1, "{ledger}");
    assert_eq!(
        ledger["figure"]["notes"]["answered"],
        1,
        "{}: the verdict was not recorded; the model's last request ends:\n{tail}",
        client.name()
    );
    assert_eq!(ledger["figure"]["repeats_by_agent"], 1, "{ledger}");
    for rule in ledger["rules"].as_array().unwrap() {
        let repeats = rule["repeats"].as_array().unwrap();
        if rule["number"] == 2 {
            assert_eq!(rule["instruction"], UNSCOPED[1], "{ledger}");
            assert_eq!(repeats.len(), 1, "{ledger}");
            assert_eq!(repeats[0]["by"], "agent", "{ledger}");
            assert_eq!(repeats[0]["text"], RESTATED, "{ledger}");
        } else {
            assert!(repeats.is_empty(), "rule {}: {ledger}", rule["number"]);
        }
    }
}

#[test]
fn claude_code_answers_a_note_through_its_shell() {
    the_agent_answers_a_note_and_the_ledger_credits_its_rule(Client::Claude);
}

#[test]
fn codex_answers_a_note_through_its_shell() {
    the_agent_answers_a_note_and_the_ledger_credits_its_rule(Client::Codex);
}

#[test]
fn gemini_cli_answers_a_note_through_its_shell() {
    the_agent_answers_a_note_and_the_ledger_credits_its_rule(Client::Gemini);
}
