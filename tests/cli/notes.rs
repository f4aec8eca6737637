//! The prompt hook's notes and the agent's verdicts on them: ids given and answered, the
//! refusals, `learn --note`, the ledger's counts per rule (text, JSON and page agree), the
//! check a rule restated twice is pointed to, and answers written at once by many
//! processes.

use serde_json::Value;

use crate::support::{Run, Sandbox, hermetic_git, tracked_repo};

const PNPM: &str = "Use pnpm to install packages, never npm.";
const EXPORTS: &str = "Always use named exports.";
const LOGS: &str = "Never log secrets.";

/// A repository with three rules, committed.
fn repository() -> Option<Sandbox> {
    let sandbox = tracked_repo(&[])?;
    for rule in [PNPM, EXPORTS] {
        sandbox.run(&["learn", rule]).expect(0);
    }
    sandbox
        .run(&["learn", LOGS, "--check", r"log\(.*secret"])
        .expect(0);
    let mut add = sandbox.program("git", &["add", "-A"]);
    Run::from_command(hermetic_git(&mut add)).expect(0);
    let mut commit = sandbox.program("git", &["commit", "-qm", "rules"]);
    Run::from_command(hermetic_git(&mut commit)).expect(0);
    Some(sandbox)
}

/// The prompt hook's note on `prompt` typed in `session`, and its id (`None` for a note
/// without one).
fn note(sandbox: &Sandbox, prompt: &str, session: &str) -> (String, Option<String>) {
    let input = serde_json::json!({
        "prompt": prompt,
        "cwd": sandbox.path(),
        "session_id": session,
        "hook_event_name": "UserPromptSubmit",
    });
    let run = sandbox
        .run_with_stdin(
            &["hook", "user-prompt", "--agent", "claude"],
            &input.to_string(),
        )
        .expect(0);
    let answer: Value = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("{e}: {} {}", run.stdout, run.stderr));
    let text = answer["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap()
        .to_string();
    let id = text
        .split("note ")
        .nth(1)
        .map(|rest| rest.chars().take(6).collect::<String>());
    (text, id)
}

/// The ids of `count` notes on one correction, each typed in a session of its own.
fn notes_given(repo: &Sandbox, count: usize) -> Vec<String> {
    (0..count)
        .map(|k| {
            let (text, id) = note(repo, "No, use pnpm, not npm, I told you.", &format!("s{k}"));
            id.unwrap_or_else(|| panic!("a note with an id: {text}"))
        })
        .collect()
}

/// The code spans of a note: the commands it offers.
fn commands(note: &str) -> Vec<&str> {
    note.split('`').skip(1).step_by(2).collect()
}

#[test]
fn a_correction_gets_a_note_with_an_id_and_each_answer_as_a_command() {
    let Some(repo) = repository() else { return };
    let (text, id) = note(&repo, "No, stop using npm, I told you we use pnpm", "s1");
    let id = id.expect("a note with an id");
    assert_eq!(id.len(), 6, "{text}");
    assert!(text.contains(&format!("rule #1 (\"{PNPM}\")")), "{text}");
    let offered = commands(&text);
    assert_eq!(
        offered,
        [
            format!("autofix verdict {id} restated N"),
            format!("autofix learn \"Always/Never ...\" --supersedes N --note {id}"),
            format!("autofix learn \"Always/Never ...\" --note {id}"),
            format!("autofix verdict {id} nothing"),
        ],
        "{text}"
    );
    // Each command is one the binary takes as it stands, placeholders filled in.
    let restated = offered[0].replace(" N", " 1");
    let args: Vec<&str> = restated.split(' ').skip(1).collect();
    let run = repo.run(&args).expect(0);
    assert_eq!(
        run.stdout,
        format!("Note {id}: the user restated rule 1 (\"{PNPM}\"): follow it.\n")
    );
}

#[test]
fn a_verdict_is_refused_for_a_note_never_given_a_second_time_or_a_rule_not_active() {
    let Some(repo) = repository() else { return };
    let (_, id) = note(&repo, "No, use pnpm, not npm. I told you.", "s1");
    let id = id.unwrap();
    let refused = |args: &[&str], says: &str| {
        let run = repo.run(args).expect(2);
        assert!(run.stderr.contains(says), "{args:?}: {}", run.stderr);
    };
    refused(&["verdict", "0a0a0a", "nothing"], "gave no such note");
    refused(&["verdict", "NOTE!", "nothing"], "is no note id");
    refused(
        &["verdict", &id, "restated", "9"],
        "rule 9 is not an active rule",
    );
    refused(
        &["verdict", &id, "restated"],
        "names the rule the user said again",
    );
    refused(&["verdict", &id, "nothing", "1"], "takes no rule");
    repo.run(&["verdict", &id, "nothing"]).expect(0);
    refused(
        &["verdict", &id, "restated", "1"],
        "was answered already: nothing",
    );
    // `learn --note` with a note answered already learns nothing.
    let before = repo.read(".agents/autofix.json");
    refused(
        &["learn", "Always use tabs.", "--note", &id],
        "was answered already",
    );
    assert_eq!(repo.read(".agents/autofix.json"), before);
}

#[test]
fn outside_git_a_note_has_no_id_and_a_verdict_says_why() {
    let sandbox = Sandbox::new();
    sandbox.run(&["learn", PNPM]).expect(0);
    let (text, id) = note(&sandbox, "No, stop using npm, I told you we use pnpm", "s1");
    assert_eq!(id, None, "{text}");
    assert!(text.contains("--supersedes N`"), "{text}");
    let run = sandbox.run(&["verdict", "0a0a0a", "nothing"]).expect(2);
    assert!(
        run.stderr.contains("in no git repository"),
        "{}",
        run.stderr
    );
}

#[test]
fn learn_with_a_note_records_a_change_or_a_new_rule() {
    let Some(repo) = repository() else { return };
    let (_, changed) = note(
        &repo,
        "Actually, from now on use yarn instead of pnpm.",
        "s1",
    );
    let changed = changed.unwrap();
    let run = repo
        .run(&[
            "learn",
            "Use yarn to install packages.",
            "--supersedes",
            "1",
            "--note",
            &changed,
        ])
        .expect(0);
    assert!(
        run.stdout.contains(&format!(
            "note {changed} answered: changed rule 1 (rule 4 learned)"
        )),
        "{}",
        run.stdout
    );
    let (_, new) = note(
        &repo,
        "From now on, always write commit messages in English.",
        "s2",
    );
    let new = new.unwrap();
    repo.run(&[
        "learn",
        "Always write commit messages in English.",
        "--note",
        &new,
    ])
    .expect(0);
    let ledger = repo.run(&["ledger", "--format", "json"]).expect(0).json();
    let notes = &ledger["figure"]["notes"];
    assert_eq!(notes["given"], 2, "{ledger}");
    assert_eq!(notes["changed"], 1, "{ledger}");
    assert_eq!(notes["learned"], 1, "{ledger}");
    assert_eq!(notes["answered_share"], 1.0, "{ledger}");
    let pnpm = rule(&ledger, 1);
    assert_eq!(pnpm["changes"][0]["note"], changed.as_str(), "{ledger}");
    assert_eq!(pnpm["changes"][0]["learned"], 4, "{ledger}");
}

fn rule(ledger: &Value, number: u64) -> &Value {
    ledger["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["number"] == number && r.get("source").is_none())
        .unwrap_or_else(|| panic!("rule {number}: {ledger}"))
}

#[test]
fn the_ledger_credits_the_agents_verdicts_and_a_rule_restated_twice_is_pointed_to_a_check() {
    let Some(repo) = repository() else { return };
    let restate = |prompt: &str, session: &str, rule: &str| {
        let (text, id) = note(&repo, prompt, session);
        repo.run(&["verdict", &id.unwrap(), "restated", rule])
            .expect(0);
        text
    };
    restate(
        "why did you run npm install? we use pnpm, I told you",
        "s1",
        "1",
    );
    restate("No, npm again?? pnpm here.", "s2", "1");
    restate("you logged the API secret again, never do that", "s2", "3");
    // An unanswered note, and one judged no lasting rule.
    let (_, open) = note(&repo, "No, don't do that again, I told you.", "s3");
    let (_, nothing) = note(&repo, "That's wrong, redo it the way I said.", "s3");
    repo.run(&["verdict", &nothing.unwrap(), "nothing"])
        .expect(0);
    assert!(open.is_some());

    // The third note on rule 1 asks for a check, with the command that gives it one.
    let (text, id) = note(&repo, "npm AGAIN? I told you: pnpm.", "s4");
    let id = id.unwrap();
    assert!(
        text.contains("The user has had to say rule #1 again 2 times"),
        "{text}"
    );
    assert!(
        commands(&text)
            .contains(&format!("autofix learn '{PNPM}' --supersedes 1 --check 'REGEX'").as_str()),
        "{text}"
    );
    repo.run(&["verdict", &id, "restated", "1"]).expect(0);

    let ledger = repo.run(&["ledger", "--format", "json"]).expect(0).json();
    let figure = &ledger["figure"];
    assert_eq!(figure["repeats"], 4, "{ledger}");
    assert_eq!(figure["repeats_by_agent"], 4, "{ledger}");
    assert_eq!(figure["repeats_by_tool"], 0, "{ledger}");
    let notes = &figure["notes"];
    assert_eq!(notes["given"], 6, "{ledger}");
    assert_eq!(notes["answered"], 5, "{ledger}");
    assert_eq!(notes["unanswered"], 1, "{ledger}");
    assert_eq!(notes["answered_share"], 0.833, "{ledger}");
    assert_eq!(notes["restated"], 4, "{ledger}");
    assert_eq!(notes["nothing"], 1, "{ledger}");
    // Rule 1 needs a check and comes first; rule 3 has one, and it missed.
    let rules = ledger["rules"].as_array().unwrap();
    assert_eq!(rules[0]["number"], 1, "{ledger}");
    assert_eq!(rules[0]["needs_check"], true, "{ledger}");
    let repeats: Vec<(&str, &str)> = (rules[0]["repeats"].as_array().unwrap().iter())
        .map(|r| (r["by"].as_str().unwrap(), r["session"].as_str().unwrap()))
        .collect();
    assert_eq!(
        repeats,
        [("agent", "s1"), ("agent", "s2"), ("agent", "s4")],
        "{ledger}"
    );
    let logs = rule(&ledger, 3);
    assert_eq!(logs["check_misses"], true, "{ledger}");
    assert_eq!(logs["needs_check"], false, "{ledger}");
    assert_eq!(rule(&ledger, 2)["repeats"].as_array().unwrap().len(), 0);

    // The text and the page say the same.
    let text = repo.run(&["ledger"]).expect(0).stdout;
    assert!(
        text.contains("Notes the prompt hook gave: 6, answered by the agent: 5 (83.3%)"),
        "{text}"
    );
    assert!(text.contains("needs a check: restated 3 times"), "{text}");
    assert!(text.contains("its check misses"), "{text}");
    assert!(text.contains(&format!("(agent, note {id})")), "{text}");
    let page = repo.run(&["ledger", "--html", "-"]).expect(0).stdout;
    assert!(page.contains(">83%<"), "the answered share on the page");
    assert!(page.contains("of the 6 notes answered by the agent (4 of the repeats its verdict)"));
    assert!(page.contains("(needs a check)") && page.contains("(its check misses)"));
}

#[test]
fn verdicts_written_at_once_by_many_processes_are_all_kept() {
    let Some(repo) = repository() else { return };
    let ids = notes_given(&repo, 12);
    let mut children: Vec<std::process::Child> = ids
        .iter()
        .map(|id| {
            repo.command(&["verdict", id, "restated", "1", "--quiet"])
                .spawn()
                .unwrap()
        })
        .collect();
    for child in &mut children {
        assert!(child.wait().unwrap().success());
    }
    let ledger = repo.run(&["ledger", "--format", "json"]).expect(0).json();
    assert_eq!(ledger["figure"]["notes"]["answered"], 12, "{ledger}");
    assert_eq!(rule(&ledger, 1)["repeats"].as_array().unwrap().len(), 12);
    // Every id given is a different one.
    let mut unique = ids.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), ids.len());
}

#[test]
fn the_mcp_tools_answer_a_note_as_the_commands_do() {
    let Some(repo) = repository() else { return };
    let call = |name: &str, arguments: Value| {
        crate::support::mcp_call(&repo, "", name, arguments)["result"].clone()
    };
    let (_, restated) = note(&repo, "why npm again? I told you, pnpm", "s1");
    let restated = restated.unwrap();
    let answer = call(
        "verdict",
        serde_json::json!({"note": restated, "said": "restated", "rule": 1}),
    );
    assert_eq!(answer["isError"], false, "{answer}");
    assert_eq!(answer["structuredContent"]["said"], "restated", "{answer}");
    let again = call(
        "verdict",
        serde_json::json!({"note": restated, "said": "nothing"}),
    );
    assert_eq!(again["isError"], true, "{again}");
    assert!(
        again["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("was answered already"),
        "{again}"
    );
    let changed = call(
        "verdict",
        serde_json::json!({"note": "0a0a0a", "said": "changed", "rule": 1}),
    );
    assert_eq!(changed["isError"], true, "{changed}");

    let (_, new) = note(
        &repo,
        "From now on, always write commit messages in English.",
        "s2",
    );
    let new = new.unwrap();
    let learned = call(
        "learn",
        serde_json::json!({"category": "process", "instruction": "Always write commit messages in English.", "why": "team", "note": new}),
    );
    assert_eq!(learned["isError"], false, "{learned}");
    assert_eq!(
        learned["structuredContent"]["note"]["said"], "new",
        "{learned}"
    );
    let ledger = repo.run(&["ledger", "--format", "json"]).expect(0).json();
    assert_eq!(ledger["figure"]["notes"]["answered"], 2, "{ledger}");
    assert_eq!(ledger["figure"]["repeats_by_agent"], 1, "{ledger}");
}

#[test]
fn verdicts_killed_mid_write_lose_nothing_acknowledged_and_the_notes_still_read() {
    let Some(repo) = repository() else { return };
    let ids = notes_given(&repo, 16);
    let mut acknowledged = Vec::new();
    for (k, id) in ids.iter().enumerate() {
        let mut child = repo
            .command(&["verdict", id, "restated", "1", "--quiet"])
            .spawn()
            .unwrap();
        // Killed at a different point of its run each time, from at once to after it ends
        // (here, about 12 of 16 end first).
        std::thread::sleep(std::time::Duration::from_micros(2_500 * k as u64));
        let _ = child.kill();
        if child.wait().unwrap().success() {
            acknowledged.push(id.clone());
        }
    }
    let ledger = repo.run(&["ledger", "--format", "json"]).expect(0).json();
    let recorded: Vec<&str> = (rule(&ledger, 1)["repeats"].as_array().unwrap().iter())
        .map(|r| r["note"].as_str().unwrap())
        .collect();
    for id in &acknowledged {
        assert!(recorded.contains(&id.as_str()), "{id} lost: {ledger}");
    }
    // Every note still reads, answered or not, and one more note is given and answered.
    assert_eq!(ledger["figure"]["notes"]["given"], 16, "{ledger}");
    let (_, id) = note(&repo, "No, use pnpm, not npm, I told you.", "after");
    repo.run(&["verdict", &id.unwrap(), "nothing"]).expect(0);
}
