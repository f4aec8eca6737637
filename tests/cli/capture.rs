//! Catching corrections through the binary: `hook user-prompt` over the labelled prompt
//! corpus (precision and recall held above floors), its output per agent, its silence on
//! anything else; `init` installing the prompt hooks; `reflect` over hand-written
//! transcripts of each agent.

use crate::support::{Run, Sandbox};

/// The hook's input as Claude Code and Codex send it.
pub(crate) fn prompt_input(prompt: &str) -> String {
    serde_json::json!({
        "session_id": "s1",
        "transcript_path": "/tmp/t.jsonl",
        "cwd": "/tmp",
        "hook_event_name": "UserPromptSubmit",
        "prompt": prompt,
    })
    .to_string()
}

struct Measure {
    true_positives: u32,
    false_positives: u32,
    false_negatives: u32,
    misses: Vec<String>,
}

impl Measure {
    fn precision(&self) -> f64 {
        f64::from(self.true_positives) / f64::from(self.true_positives + self.false_positives)
    }
    fn recall(&self) -> f64 {
        f64::from(self.true_positives) / f64::from(self.true_positives + self.false_negatives)
    }
}

impl Measure {
    fn false_alarm_rate(&self, negatives: u32) -> f64 {
        f64::from(self.false_positives) / f64::from(negatives)
    }
}

/// The `(is_correction, prompt)` rows of a `LABEL<TAB>PROMPT` fixture: labels
/// `correction`/`1` and `other`/`0`, `\n` in a prompt a line break, `#` lines comments.
fn labelled(fixture: &str) -> Vec<(bool, String)> {
    fixture
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let (label, prompt) = line.split_once('\t').expect("LABEL<TAB>PROMPT");
            let positive = match label.trim() {
                "correction" | "1" => true,
                "other" | "0" => false,
                other => panic!("unknown label {other:?} in {line}"),
            };
            (positive, prompt.replace("\\n", "\n"))
        })
        .collect()
}

/// Runs every prompt of a labelled fixture through `hook user-prompt`, one process each;
/// returns the counts and the number of negatives.
fn measure(fixture: &str) -> (Measure, u32) {
    let sandbox = Sandbox::new();
    let mut measure = Measure {
        true_positives: 0,
        false_positives: 0,
        false_negatives: 0,
        misses: Vec::new(),
    };
    let rows = labelled(fixture);
    assert!(!rows.is_empty());
    let mut negatives = 0;
    for (positive, prompt) in rows {
        let run = sandbox
            .run_with_stdin(
                &["hook", "user-prompt", "--agent", "claude"],
                &prompt_input(&prompt),
            )
            .expect(0);
        let flagged = !run.stdout.is_empty();
        negatives += u32::from(!positive);
        match (positive, flagged) {
            (true, true) => measure.true_positives += 1,
            (false, true) => measure.false_positives += 1,
            (true, false) => measure.false_negatives += 1,
            (false, false) => {}
        }
        if flagged != positive {
            let label = if positive { "missed" } else { "false alarm" };
            measure.misses.push(format!("{label}: {prompt}"));
        }
    }
    (measure, negatives)
}

/// Asserts recall and false-alarm floors on one fixture, naming what it got wrong.
fn assert_floors(name: &str, fixture: &str, min_recall: f64, max_false_alarms: f64) {
    let (measure, negatives) = measure(fixture);
    let false_alarms = measure.false_alarm_rate(negatives);
    eprintln!(
        "{name}: {} corrections, {negatives} others: recall {}/{} = {:.3}, false alarms \
         {}/{negatives} = {false_alarms:.3}",
        measure.true_positives + measure.false_negatives,
        measure.true_positives,
        measure.true_positives + measure.false_negatives,
        measure.recall(),
        measure.false_positives,
    );
    assert!(
        measure.recall() >= min_recall && false_alarms <= max_false_alarms,
        "{name}: recall {:.3} (floor {min_recall}), false alarms {false_alarms:.3} (ceiling \
         {max_false_alarms}), precision {:.3}\n{}",
        measure.recall(),
        measure.precision(),
        measure.misses.join("\n")
    );
}

// Floors a little below the figures measured (see src/docs/capture.md). The training sets
// are fitted, so their floors are high; the development sets held phrasings the model
// never saw.
#[test]
fn the_hook_over_the_training_sets() {
    assert_floors(
        "prompts.tsv",
        include_str!("../fixtures/prompts.tsv"),
        0.98,
        0.02,
    );
    assert_floors(
        "prompts-train-en.tsv",
        include_str!("../fixtures/prompts-train-en.tsv"),
        0.98,
        0.02,
    );
    assert_floors(
        "prompts-train-fr.tsv",
        include_str!("../fixtures/prompts-train-fr.tsv"),
        0.98,
        0.02,
    );
    assert_floors(
        "prompts-train-styles.tsv",
        include_str!("../fixtures/prompts-train-styles.tsv"),
        0.98,
        0.02,
    );
}

#[test]
fn the_hook_over_the_development_sets() {
    assert_floors(
        "prompts-holdout.tsv",
        include_str!("../fixtures/prompts-holdout.tsv"),
        0.95,
        0.04,
    );
    assert_floors(
        "prompts-dev-en.tsv",
        include_str!("../fixtures/prompts-dev-en.tsv"),
        0.95,
        0.12,
    );
    assert_floors(
        "prompts-dev-fr.tsv",
        include_str!("../fixtures/prompts-dev-fr.tsv"),
        0.95,
        0.23,
    );
    assert_floors(
        "prompts-dev-styles.tsv",
        include_str!("../fixtures/prompts-dev-styles.tsv"),
        0.92,
        0.10,
    );
}

#[test]
fn the_hook_answers_in_each_agents_shape() {
    let sandbox = Sandbox::new();
    for (agent, event) in [
        ("claude", "UserPromptSubmit"),
        ("codex", "UserPromptSubmit"),
        ("gemini", "BeforeAgent"),
    ] {
        let run = sandbox
            .run_with_stdin(
                &["hook", "user-prompt", "--agent", agent],
                &prompt_input("no, use pnpm not npm"),
            )
            .expect(0);
        assert_eq!(run.stdout.lines().count(), 1, "{}", run.stdout);
        let value = run.json();
        let specific = value["hookSpecificOutput"].as_object().unwrap();
        assert_eq!(specific.len(), 2, "{value}");
        assert_eq!(specific["hookEventName"], event);
        let context = specific["additionalContext"].as_str().unwrap();
        assert!(context.contains("autofix learn"), "{context}");
        assert!(context.contains("--supersedes"), "{context}");
        assert!(run.stderr.is_empty(), "{}", run.stderr);

        let quiet = sandbox
            .run_with_stdin(
                &["hook", "user-prompt", "--agent", agent],
                &prompt_input("Use the debugger to find the crash"),
            )
            .expect(0);
        assert_eq!(quiet.stdout, "");
    }
}

#[test]
fn the_hook_exits_0_in_silence_on_garbage() {
    let sandbox = Sandbox::new();
    for input in [
        "",
        "not json",
        "{\"prompt\": 3}",
        "[\"no, use pnpm not npm\"]",
        "{\"prompt\": \"no, use pnpm\"",
        "\u{0}\u{1}\u{2}",
    ] {
        let run = sandbox
            .run_with_stdin(&["hook", "user-prompt", "--agent", "gemini"], input)
            .expect(0);
        assert_eq!(run.stdout, "", "{input:?}");
    }
    // Bytes that are not UTF-8 at all.
    let mut child = sandbox
        .command(&["hook", "user-prompt", "--agent", "codex"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    let _ = child.stdin.take().unwrap().write_all(&[0xff, 0xfe, b'{']);
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert!(output.stdout.is_empty());
    // An unknown agent is a usage error of the command line, said in one line; the hook
    // still exits 0 (Claude Code reads exit 2 as "block the prompt").
    let run = sandbox
        .run_with_stdin(&["hook", "user-prompt", "--agent", "cursor"], "{}")
        .expect_noisy(0);
    assert!(
        run.stderr.starts_with("autofix: hook not run: "),
        "{}",
        run.stderr
    );
}

/// A sandbox that `init` accepts as a repository.
fn repo() -> Sandbox {
    let sandbox = Sandbox::new();
    std::fs::create_dir(sandbox.join(".git")).unwrap();
    sandbox
}

/// The handlers of `event` in a settings file, as (command, whole handler).
fn handlers(settings: &serde_json::Value, event: &str) -> Vec<serde_json::Value> {
    settings["hooks"][event]
        .as_array()
        .unwrap_or_else(|| panic!("no {event} in {settings}"))
        .iter()
        .flat_map(|group| group["hooks"].as_array().unwrap().clone())
        .collect()
}

#[test]
fn init_installs_the_prompt_hook_beside_the_session_hook_once() {
    let sandbox = repo();
    sandbox
        .run(&["init", "--hook", "claude,codex,cursor,gemini"])
        .expect(0);
    for (path, agent, event) in [
        (".claude/settings.json", "claude", "UserPromptSubmit"),
        (".codex/hooks.json", "codex", "UserPromptSubmit"),
        (".gemini/settings.json", "gemini", "BeforeAgent"),
    ] {
        let settings: serde_json::Value = serde_json::from_str(&sandbox.read(path)).unwrap();
        let prompt = handlers(&settings, event);
        assert_eq!(prompt.len(), 1, "{settings}");
        assert_eq!(
            prompt[0]["command"],
            format!("autofix hook user-prompt --agent {agent}")
        );
        assert_eq!(handlers(&settings, "SessionStart").len(), 1);
    }
    let cursor: serde_json::Value =
        serde_json::from_str(&sandbox.read(".cursor/hooks.json")).unwrap();
    assert_eq!(cursor["hooks"].as_object().unwrap().len(), 1, "{cursor}");
    let gemini: serde_json::Value =
        serde_json::from_str(&sandbox.read(".gemini/settings.json")).unwrap();
    assert_eq!(
        handlers(&gemini, "BeforeAgent")[0]["name"],
        "autofix-corrections"
    );

    // Idempotent: a second run and --check change nothing.
    let before = sandbox.read(".claude/settings.json");
    let run = sandbox
        .run(&["init", "--hook", "claude,codex,cursor,gemini"])
        .expect(0);
    assert!(run.stdout.contains("Nothing to change"), "{}", run.stdout);
    assert_eq!(sandbox.read(".claude/settings.json"), before);
    // (--check may still want the merge driver: this sandbox's `.git` is a bare folder.)
    let check = sandbox.run(&["init", "--hook", "claude,codex,cursor,gemini", "--check"]);
    let hook_lines: Vec<&str> = check
        .stdout
        .lines()
        .filter(|line| line.contains("(hook "))
        .collect();
    assert_eq!(hook_lines.len(), 4, "{}", check.stdout);
    assert!(
        hook_lines
            .iter()
            .all(|line| line.trim_start().starts_with("unchanged")),
        "{}",
        check.stdout
    );
}

#[test]
fn init_check_reports_a_missing_prompt_hook_and_init_replaces_an_old_one() {
    let sandbox = repo();
    sandbox.run(&["init"]).expect(0);
    let session_only = r#"{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "autofix rules --format hook --agent claude", "timeout": 10}]}]}}"#;
    sandbox.write(".claude/settings.json", session_only);
    let run = sandbox
        .run(&["init", "--hook", "claude", "--check"])
        .expect(1);
    assert!(
        run.stdout.contains(".claude/settings.json (hook claude)"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("would update"), "{}", run.stdout);
    assert_eq!(sandbox.read(".claude/settings.json"), session_only);

    let old = r#"{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "./lint-prompt.sh"}, {"type": "command", "command": "autofix hook user-prompt --agent claude", "timeout": 3}]}]}}"#;
    sandbox.write(".claude/settings.json", old);
    sandbox.run(&["init", "--hook", "claude"]).expect(0);
    let settings: serde_json::Value =
        serde_json::from_str(&sandbox.read(".claude/settings.json")).unwrap();
    let prompt = handlers(&settings, "UserPromptSubmit");
    let commands: Vec<&str> = prompt
        .iter()
        .map(|h| h["command"].as_str().unwrap())
        .collect();
    assert_eq!(
        commands,
        [
            "./lint-prompt.sh",
            "autofix hook user-prompt --agent claude"
        ]
    );
}

#[test]
fn the_skill_explains_the_reminder() {
    let sandbox = repo();
    sandbox.run(&["init"]).expect(0);
    let skill = sandbox.read(".agents/skills/autofix/SKILL.md");
    assert!(skill.contains("autofix hook user-prompt"), "{skill}");
    assert!(skill.contains("is a question, not an order"), "{skill}");
    assert!(skill.contains("`autofix verdict ID restated N`"), "{skill}");
    assert!(skill.contains("`autofix verdict ID nothing`"), "{skill}");
}

/// A sandbox whose home holds one hand-written transcript of each agent (and one of
/// another repository each for Codex and Gemini), and a rules file that already states
/// one of the corrections.
fn sessions() -> Sandbox {
    let sandbox = Sandbox::new();
    let root = sandbox.path().to_str().unwrap().to_string();
    let hash = sandbox
        .program("sha256sum", &[])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(root.as_bytes())?;
            child.wait_with_output()
        })
        .map(|output| String::from_utf8(output.stdout).unwrap()[..64].to_string())
        .expect("sha256sum (coreutils) is installed");
    let fill = |text: &str| {
        text.replace("{ROOT}", &root)
            .replace("{PROJECT_HASH}", &hash)
    };
    let claude_folder: String = root
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let fixtures = [
        (
            format!("home/.claude/projects/{claude_folder}/claude-1.jsonl"),
            include_str!("../fixtures/transcripts/claude.jsonl"),
        ),
        (
            format!("home/.claude/projects/{claude_folder}-web/claude-2.jsonl"),
            include_str!("../fixtures/transcripts/claude-subdirectory.jsonl"),
        ),
        (
            format!("home/.claude/projects/{claude_folder}-other/claude-3.jsonl"),
            include_str!("../fixtures/transcripts/claude-sibling.jsonl"),
        ),
        (
            "home/.codex/sessions/2026/11/15/rollout-2026-11-15T08-00-00-codex-1.jsonl".into(),
            include_str!("../fixtures/transcripts/codex.jsonl"),
        ),
        (
            "home/.codex/sessions/2026/11/16/rollout-2026-11-16T08-00-00-codex-2.jsonl".into(),
            include_str!("../fixtures/transcripts/codex-elsewhere.jsonl"),
        ),
        (
            format!("home/.gemini/tmp/{hash}/chats/session-2026-11-20T11-59-gemini1.json"),
            include_str!("../fixtures/transcripts/gemini.json"),
        ),
        (
            "home/.gemini/tmp/my-project/chats/session-2026-11-25T07-00-gemini2.jsonl".into(),
            include_str!("../fixtures/transcripts/gemini.jsonl"),
        ),
        (
            "home/.gemini/tmp/other/chats/session-2026-11-26T07-00-gemini3.jsonl".into(),
            include_str!("../fixtures/transcripts/gemini-elsewhere.jsonl"),
        ),
    ];
    for (path, text) in fixtures {
        sandbox.write(path, fill(text));
    }
    sandbox.write(
        ".agents/autofix.json",
        r#"[{"Rule_number": 1, "Category": "TOOL", "Instruction": "ALWAYS run cargo fmt before committing.", "Why": "user preference"}]"#,
    );
    sandbox
}

fn texts(report: &serde_json::Value) -> Vec<&str> {
    report["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["text"].as_str().unwrap())
        .collect()
}

/// A candidate's fields, `near` when a rule comes near it.
const CANDIDATE_FIELDS: [&str; 6] = ["agent", "context", "near", "session", "text", "time"];

fn fields(value: &serde_json::Value) -> Vec<&str> {
    value
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect()
}

#[test]
fn reflect_finds_the_typed_corrections_of_every_agent_newest_first() {
    let sandbox = sessions();
    let rules_before = sandbox.read(".agents/autofix.json");
    let report = sandbox
        .run(&["reflect", "--format", "json"])
        .expect(0)
        .json();
    assert_eq!(report["version"], 1);
    // Tool results, the agents' own words, injected instructions, meta and sidechain
    // lines, other repositories and the rule already learned are all left out.
    assert_eq!(
        texts(&report),
        [
            "we use tabs here",
            "Non, utilise plutôt fetch",
            "you forgot the changelog again",
            "Stop adding console.log to the components.",
            "I told you: never commit .env",
            "no, use pnpm not npm",
        ]
    );
    let candidates = report["candidates"].as_array().unwrap();
    assert_eq!(fields(&candidates[0]), CANDIDATE_FIELDS);
    let row = |i: usize| {
        let c = &candidates[i];
        (
            c["agent"].as_str().unwrap(),
            c["session"].as_str().unwrap(),
            c["time"].as_str().unwrap(),
            c["context"].as_str().unwrap_or("<none>"),
        )
    };
    assert_eq!(
        row(0),
        (
            "gemini",
            "gemini-2",
            "2026-11-25T07:01:00.000Z",
            "said: I indented it with two spaces."
        )
    );
    assert_eq!(
        row(1),
        (
            "gemini",
            "gemini-1",
            "2026-11-20T12:01:00.000Z",
            "ran write_file: src/api.ts"
        )
    );
    assert_eq!(
        row(2),
        (
            "codex",
            "codex-1",
            "2026-11-15T08:05:00.000Z",
            "said: Added /health. Tests pass. We always use npm here, never yarn."
        )
    );
    assert_eq!(
        row(3),
        (
            "claude",
            "claude-2",
            "2026-11-13T14:01:00.000Z",
            "ran Edit: {ROOT}/web/src/List.tsx"
                .replace("{ROOT}", sandbox.path().to_str().unwrap())
                .as_str()
        )
    );
    assert_eq!(
        row(4),
        (
            "claude",
            "claude-1",
            "2026-11-12T09:00:00.000Z",
            "ran Bash: git add -A && git commit -m wip"
        )
    );
    assert_eq!(
        row(5),
        (
            "claude",
            "claude-1",
            "2026-11-10T10:00:00.000Z",
            "said: I installed the dependencies with npm."
        )
    );
    let searched = report["searched"].as_array().unwrap();
    let sessions: Vec<u64> = searched
        .iter()
        .map(|s| s["sessions"].as_u64().unwrap())
        .collect();
    // Claude: the root's folder and a subdirectory's, not the sibling project's.
    assert_eq!(sessions, [2, 1, 2]);
    // It never writes.
    assert_eq!(sandbox.read(".agents/autofix.json"), rules_before);

    // Without the rule, its correction is a candidate again.
    std::fs::remove_file(sandbox.join(".agents/autofix.json")).unwrap();
    let report = sandbox
        .run(&["reflect", "--format", "json"])
        .expect(0)
        .json();
    assert!(texts(&report).contains(&"Always run cargo fmt before committing."));
}

#[test]
fn reflect_since_and_agent_narrow_the_list() {
    let sandbox = sessions();
    let report = sandbox
        .run(&["reflect", "--since", "2026-11-15", "--format", "json"])
        .expect(0)
        .json();
    assert_eq!(
        texts(&report),
        [
            "we use tabs here",
            "Non, utilise plutôt fetch",
            "you forgot the changelog again",
        ]
    );
    let report = sandbox
        .run(&[
            "reflect",
            "--since",
            "2026-11-20T12:00:00Z",
            "--agent",
            "claude,gemini",
            "--format",
            "json",
        ])
        .expect(0)
        .json();
    assert_eq!(
        texts(&report),
        ["we use tabs here", "Non, utilise plutôt fetch"]
    );
    let agents: Vec<&str> = report["searched"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["agent"].as_str().unwrap())
        .collect();
    assert_eq!(agents, ["claude", "gemini"]);
    let report = sandbox
        .run(&["reflect", "--agent", "claude", "--format", "json"])
        .expect(0)
        .json();
    assert_eq!(
        texts(&report),
        [
            "Stop adding console.log to the components.",
            "I told you: never commit .env",
            "no, use pnpm not npm"
        ]
    );
    let run = sandbox.run(&["reflect", "--since", "last week"]).expect(2);
    assert!(run.stderr.contains("YYYY-MM-DD"), "{}", run.stderr);
}

#[test]
fn reflect_text_output_and_missing_folders() {
    let sandbox = sessions();
    let run = sandbox.run(&["reflect"]).expect(0);
    assert!(
        run.stdout
            .contains("6 corrections not yet learned, newest first:"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("  > I told you: never commit .env\n  after the agent ran Bash: git add -A && git commit -m wip\n"), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("  codex   ~/.codex/sessions (1 session of this repository)"),
        "{}",
        run.stdout
    );

    let empty = Sandbox::new();
    let run = empty.run(&["reflect"]).expect(0);
    for line in [
        "  claude  ~/.claude/projects (not found)",
        "  codex   ~/.codex/sessions (not found)",
        "  gemini  ~/.gemini/tmp (not found)",
        "No corrections to learn",
    ] {
        assert!(run.stdout.contains(line), "{line}\n{}", run.stdout);
    }
    let report = empty.run(&["reflect", "--format", "json"]).expect(0).json();
    assert_eq!(report["candidates"], serde_json::json!([]));
    assert_eq!(report["searched"][0]["exists"], false);
}

/// `reflect` shows the rule a candidate comes near, in the text and in the JSON.
#[test]
fn reflect_names_the_rule_a_candidate_comes_near() {
    let sandbox = Sandbox::new();
    sandbox.write(".agents/autofix.json", THREE_RULES);
    let root = sandbox.path().to_str().unwrap();
    sandbox.write(
        format!("{}/s1.jsonl", claude_folder(&sandbox)),
        claude_user_line(
            "s1",
            Some(root),
            "No, changes to main go through a pull request.",
            "",
        ) + &claude_line_at(
            "s1",
            Some(root),
            "2026-11-10T09:05:00.000Z",
            "I prefer early returns over nested ifs.",
            "",
        ),
    );
    let report = sandbox
        .run(&["reflect", "--format", "json"])
        .expect(0)
        .json();
    let candidates = report["candidates"].as_array().unwrap();
    assert_eq!(candidates.len(), 2, "{report}");
    // The hook's floor shows a rule for many a correction: the person judges.
    assert_ne!(candidates[0]["near"]["rule"], 3, "{report}");
    let near = &candidates[1]["near"];
    assert_eq!(near["rule"], 3, "{report}");
    assert_eq!(
        near["instruction"], "Never push directly to main",
        "{report}"
    );
    let text = sandbox.run(&["reflect"]).expect(0).stdout;
    assert!(
        text.contains("  near rule #3: Never push directly to main (it may say this rule again: if so, it is no new rule)\n"),
        "{text}"
    );
}

/// The SHA-256 of the sandbox's path, as Gemini CLI names a project (computed by
/// `sha256sum`, not by autofix).
fn project_hash(sandbox: &Sandbox) -> String {
    sha256(sandbox, sandbox.path().to_str().unwrap())
}

/// The SHA-256 of `text` in hex, by `sha256sum`.
fn sha256(sandbox: &Sandbox, text: &str) -> String {
    sandbox
        .program("sha256sum", &[])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(text.as_bytes())?;
            child.wait_with_output()
        })
        .map(|output| String::from_utf8(output.stdout).unwrap()[..64].to_string())
        .expect("sha256sum (coreutils) is installed")
}

/// The folder Claude Code keeps the sandbox's sessions in, below `home/`.
fn claude_folder(sandbox: &Sandbox) -> String {
    let root = sandbox.path().to_str().unwrap();
    let name: String = root
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    format!("home/.claude/projects/{name}")
}

/// A Claude Code user line in session `session`, with `cwd` when given and `extra`
/// members beside the message.
fn claude_user_line(session: &str, cwd: Option<&str>, text: &str, extra: &str) -> String {
    claude_line_at(session, cwd, "2026-11-10T09:00:00.000Z", text, extra)
}

/// [`claude_user_line`] typed at `time`.
fn claude_line_at(session: &str, cwd: Option<&str>, time: &str, text: &str, extra: &str) -> String {
    let cwd = cwd
        .map(|c| format!(r#""cwd":{},"#, serde_json::json!(c)))
        .unwrap_or_default();
    format!(
        r#"{{"type":"user",{cwd}"sessionId":"{session}","timestamp":"{time}","message":{{"role":"user","content":{}}}{extra}}}"#,
        serde_json::json!(text)
    ) + "\n"
}

/// `--since` takes days and weeks ago, `today` and `yesterday` (UTC), as well as dates:
/// a correction of two days ago is within `7d` and `1w`, not `yesterday`; one of ten days
/// ago within `2w` only. The dates come from `date`, not from autofix.
#[test]
fn since_takes_relative_dates() {
    let sandbox = Sandbox::new();
    sandbox.write(".agents/autofix.json", "[]\n");
    let root = sandbox.path().to_str().unwrap();
    let ago = |days: u32| {
        let run = crate::support::Run::from_command(&mut sandbox.program(
            "date",
            &[
                "-u",
                "-d",
                &format!("{days} days ago"),
                "+%Y-%m-%dT%H:%M:%S.000Z",
            ],
        ));
        run.stdout.trim().to_string()
    };
    let lines = claude_line_at("s", Some(root), &ago(2), "no, use pnpm not npm", "")
        + &claude_line_at(
            "s",
            Some(root),
            &ago(10),
            "I told you: never commit .env",
            "",
        );
    sandbox.write(format!("{}/s.jsonl", claude_folder(&sandbox)), lines);
    let found = |since: &str| {
        let report = sandbox
            .run(&["reflect", "--since", since, "--format", "json"])
            .expect(0)
            .json();
        texts(&report).len()
    };
    let counts: Vec<usize> = ["today", "yesterday", "7d", "1w", "2w", "3D"]
        .iter()
        .map(|since| found(since))
        .collect();
    assert_eq!(counts, [0, 0, 1, 1, 2, 1]);
    let run = sandbox.run(&["ledger", "--since", "5x"]).expect_noisy(2);
    assert!(
        run.stderr.contains("days or weeks ago (`7d`, `2w`)"),
        "{}",
        run.stderr
    );
}

/// Transcripts are attributed by the path the session ran in, resolved: two repositories
/// whose paths differ only in `.` and `_` share one Claude Code folder and are told apart
/// by `cwd`; `my_repo/../my.repo` is the other one; a transcript without a `cwd` is no
/// one's; and a line with a field nested 127 deep beside its message is still read.
#[test]
fn transcripts_belong_to_the_repository_their_resolved_cwd_names() {
    let sandbox = Sandbox::new();
    for repo in ["my_repo", "my.repo"] {
        sandbox.write(format!("{repo}/.agents/autofix.json"), "[]\n");
    }
    let root = sandbox.path().to_str().unwrap();
    let (ours, theirs) = (format!("{root}/my_repo"), format!("{root}/my.repo"));
    let folder: String = ours
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let deep = format!(
        r#","toolUseResult":{}1{}"#,
        "[".repeat(127),
        "]".repeat(127)
    );
    let transcripts = [
        (
            "ours",
            claude_user_line("ours", Some(&ours), "I told you: never commit .env", ""),
        ),
        (
            "deep",
            claude_user_line("deep", Some(&ours), "no, use pnpm not npm", &deep),
        ),
        (
            "theirs",
            claude_user_line(
                "theirs",
                Some(&theirs),
                "you forgot the changelog again",
                "",
            ),
        ),
        (
            "dotdot",
            claude_user_line(
                "dotdot",
                Some(&format!("{ours}/../my.repo")),
                "Stop adding console.log to the components.",
                "",
            ),
        ),
        (
            "none",
            claude_user_line("none", None, "we use tabs here", ""),
        ),
    ];
    for (name, line) in &transcripts {
        sandbox.write(format!("home/.claude/projects/{folder}/{name}.jsonl"), line);
    }
    let report = |repo: &str| {
        let run = sandbox.command_in(repo, &["reflect", "--format", "json"]);
        crate::support::Run::from_command(&mut { run })
            .expect(0)
            .json()
    };
    let mine = report("my_repo");
    let mut found = texts(&mine);
    found.sort_unstable();
    assert_eq!(
        found,
        ["I told you: never commit .env", "no, use pnpm not npm"],
        "{mine}"
    );
    let other = report("my.repo");
    let mut found = texts(&other);
    found.sort_unstable();
    assert_eq!(
        found,
        [
            "Stop adding console.log to the components.",
            "you forgot the changelog again"
        ],
        "{other}"
    );
}

/// Gemini CLI names a project by the folder it was started in: a session started in a
/// subfolder of the repository has that folder's hash, and its folder below
/// `~/.gemini/tmp/` (a short name) says the folder in `.project_root`. `reflect` and
/// `ledger` read it; a folder whose `.project_root` is elsewhere is not read.
#[test]
fn gemini_sessions_started_in_a_subfolder_are_the_repositorys() {
    let sandbox = Sandbox::new();
    sandbox.write(".agents/autofix.json", "[]\n");
    std::fs::create_dir_all(sandbox.join("web")).unwrap();
    let root = sandbox.path().to_str().unwrap();
    for (name, project, text) in [
        ("web", format!("{root}/web"), "no, use pnpm not npm"),
        (
            "elsewhere",
            "/srv/elsewhere/web".to_string(),
            "I told you: never commit .env",
        ),
    ] {
        let hash = sha256(&sandbox, &project);
        sandbox.write(format!("home/.gemini/tmp/{name}/.project_root"), &project);
        sandbox.write(
            format!("home/.gemini/tmp/{name}/chats/session-2026-11-25T07-00-{name}.jsonl"),
            format!(
                "{{\"sessionId\":\"{name}\",\"projectHash\":\"{hash}\",\"startTime\":\"2026-11-25T07:00:00.000Z\",\"kind\":\"main\"}}\n\
                 {{\"id\":\"m1\",\"timestamp\":\"2026-11-25T07:00:10.000Z\",\"type\":\"user\",\"content\":[{{\"text\":\"{text}\"}}]}}\n"
            ),
        );
    }
    let report = sandbox
        .run(&["reflect", "--format", "json"])
        .expect(0)
        .json();
    assert_eq!(texts(&report), ["no, use pnpm not npm"], "{report}");
    let ledger = sandbox
        .run(&["ledger", "--format", "json"])
        .expect(0)
        .json();
    assert_eq!(ledger["figure"]["corrections"], 1, "{ledger}");
}

const THREE_RULES: &str = r#"[
  {"Rule_number": 1, "Category": "TOOL", "Instruction": "Always run cargo fmt before committing.", "Why": "CI checks it"},
  {"Rule_number": 2, "Category": "CODE", "Instruction": "Always use named exports", "Why": "tree shaking"},
  {"Rule_number": 3, "Category": "PROCESS", "Instruction": "Never push directly to main", "Why": "reviews"}
]"#;

/// A sandbox holding one transcript of each agent in the format its current version
/// writes (Codex 0.169 with `item_completed` items and no `user_message` events, Gemini
/// CLI JSONL with the session hook's `<hook_context>` prepended to a prompt, Claude Code
/// 2.1 with attachments and a compaction summary), and three rules.
fn current_sessions() -> Sandbox {
    let sandbox = Sandbox::new();
    let root = sandbox.path().to_str().unwrap().to_string();
    let hash = project_hash(&sandbox);
    let fill = |text: &str| {
        text.replace("{ROOT}", &root)
            .replace("{PROJECT_HASH}", &hash)
    };
    sandbox.write(
        format!("{}/claude-current.jsonl", claude_folder(&sandbox)),
        fill(include_str!("../fixtures/transcripts/claude-current.jsonl")),
    );
    sandbox.write(
        "home/.codex/sessions/2026/11/28/rollout-2026-11-28T10-00-00-codex-0169.jsonl",
        fill(include_str!("../fixtures/transcripts/codex-0169.jsonl")),
    );
    sandbox.write(
        "home/.gemini/tmp/shop/chats/session-2026-11-29T09-00-gemini-c.jsonl",
        fill(include_str!("../fixtures/transcripts/gemini-current.jsonl")),
    );
    sandbox.write(".agents/autofix.json", THREE_RULES);
    sandbox
}

#[test]
fn reflect_reads_the_current_formats_and_lists_only_the_unlearned_corrections() {
    let sandbox = current_sessions();
    let report = sandbox
        .run(&["reflect", "--format", "json"])
        .expect(0)
        .json();
    // The neutral prompt behind Gemini's <hook_context> (which lists rules), the slash
    // command, the question, Codex's injected AGENTS.md and environment, tool output,
    // Claude's attachment, shell-mode input and compaction summary: none is listed.
    assert_eq!(
        texts(&report),
        [
            "Évite les abréviations dans les noms de variables. @src/user.ts",
            "You used axios again even though we agreed on fetch.",
            "ugh, not again. tabs, not spaces",
        ]
    );
    let repeats: Vec<(&str, u64)> = report["repeats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["text"].as_str().unwrap(), r["rule"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        repeats,
        [
            ("Never push directly to main, I told you.", 3),
            ("No, always use named exports", 2)
        ]
    );
    let searched: Vec<u64> = report["searched"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["sessions"].as_u64().unwrap())
        .collect();
    assert_eq!(searched, [1, 1, 1]);
    let candidates = report["candidates"].as_array().unwrap();
    assert_eq!(
        candidates[1]["context"],
        "said: Switched to a named export."
    );
    assert_eq!(candidates[0]["context"], "ran write_file: src/health.ts");

    let text = sandbox.run(&["reflect"]).expect(0).stdout;
    assert!(
        text.contains("3 corrections not yet learned, newest first:"),
        "{text}"
    );
    assert!(
        text.contains("2 corrections repeating a rule already recorded"),
        "{text}"
    );
    assert!(
        text.contains(
            "repeats rule #2: Always use named exports\n  > No, always use named exports\n"
        ),
        "{text}"
    );
    assert!(!text.contains("hook_context"), "{text}");
    assert!(!text.contains("health check"), "{text}");
}

/// The hook's `additionalContext` for `prompt` typed in the sandbox.
fn reminder_in(sandbox: &Sandbox, prompt: &str) -> Option<String> {
    let input = serde_json::json!({
        "session_id": "s1",
        "cwd": sandbox.path().to_str().unwrap(),
        "hook_event_name": "UserPromptSubmit",
        "prompt": prompt,
    })
    .to_string();
    let run = sandbox
        .run_with_stdin(&["hook", "user-prompt", "--agent", "claude"], &input)
        .expect(0);
    (!run.stdout.is_empty()).then(|| {
        run.json()["hookSpecificOutput"]["additionalContext"]
            .as_str()
            .unwrap()
            .to_string()
    })
}

/// A correction gets a note that shows the rules the sentence model finds nearest it, for
/// the agent to judge; a rule said word for word gets the one verdict; a request on a
/// rule's topic that corrects nothing gets no note.
#[test]
fn the_hook_shows_the_rules_near_a_correction_and_judges_none() {
    let sandbox = Sandbox::new();
    sandbox.write(".agents/autofix.json", THREE_RULES);
    // Said again in other words (and in French): the rule is shown, first, and the
    // agent is asked to judge; no verdict is stated.
    for prompt in [
        "No, changes to main go through a pull request.",
        "Fix the failing import in the header. I told you: don't push to main directly.",
        "Non, ne pousse jamais directement sur main.",
    ] {
        let note = reminder_in(&sandbox, prompt).unwrap();
        assert!(
            note.contains(
                "The recorded rules nearest it: rule #3 (\"Never push directly to main\")"
            ),
            "{prompt}: {note}"
        );
        for part in [
            "If it says one of them again, follow that rule and learn nothing",
            "--supersedes N` (N: that rule's number, e.g. 3)",
            "if it says something new, record it: `autofix learn \"Always/Never ...\"`",
        ] {
            assert!(note.contains(part), "{part}\n{note}");
        }
        assert!(!note.contains("word for word"), "{note}");
    }
    // The same words: the verdict, and nothing to learn.
    let repeat = reminder_in(&sandbox, "No, always use named exports").unwrap();
    assert!(
        repeat.contains(
            "the user says rule #2 (\"Always use named exports\") again, word for word: follow it"
        ),
        "{repeat}"
    );
    assert!(!repeat.contains("autofix learn"), "{repeat}");
    // Without rules, the plain reminder to learn it.
    let plain = reminder_in(&Sandbox::new(), "No, always use named exports").unwrap();
    assert!(
        plain.contains("record it as one imperative rule: `autofix learn"),
        "{plain}"
    );
    assert!(!plain.contains("rule #"), "{plain}");
    // A request on a rule's topic is no correction: no note, whatever the rule.
    let logger = Sandbox::new();
    logger.write(
        ".agents/autofix.json",
        r#"[{"Rule_number": 1, "Category": "CODE", "Instruction": "Use the logger, never console.log.", "Why": "one log format"}]"#,
    );
    for prompt in [
        "show me where the logger is configured",
        "run the tests",
        "Does the logger write to stderr?",
    ] {
        assert_eq!(reminder_in(&logger, prompt), None, "{prompt}");
    }
    let pnpm = Sandbox::new();
    pnpm.write(
        ".agents/autofix.json",
        r#"[{"Rule_number": 1, "Category": "TOOL", "Instruction": "Always use pnpm to install packages.", "Why": "lockfile"}]"#,
    );
    assert_eq!(reminder_in(&pnpm, "Now add tests"), None);
}

#[test]
fn the_hook_ignores_the_session_context_gemini_prepends() {
    let sandbox = Sandbox::new();
    let context = "<hook_context>Project rules recorded in .agents/autofix.json (newer rules \
                   supersede older ones; on conflict the higher-numbered rule wins):\n\
                   2 [CODE] Always use named exports\n3 [PROCESS] Never push directly to \
                   main</hook_context>\n\n";
    assert_eq!(
        reminder_in(&sandbox, &format!("{context}Add a health check endpoint")),
        None
    );
    assert!(reminder_in(&sandbox, &format!("{context}No, use pnpm not npm")).is_some());
    // Our own reminder pasted back is not the user speaking either.
    assert_eq!(
        reminder_in(
            &sandbox,
            "autofix: this prompt looks like a correction or a project convention.\nShow the diff"
        ),
        None
    );
}

#[test]
fn reflect_follows_no_link_out_of_the_agents_folders_nor_into_a_loop() {
    let sandbox = current_sessions();
    // 40 links to their own folder below ~/.codex/sessions: walking them would visit
    // 40^4 folders.
    let sessions = sandbox.join("home/.codex/sessions");
    for n in 0..40 {
        std::os::unix::fs::symlink(".", sessions.join(format!("l{n}"))).unwrap();
    }
    // A project folder, a chats folder and a transcript that are links to files outside
    // HOME, each holding a correction of this repository.
    let outside = tempfile::tempdir().unwrap();
    let root = sandbox.path().to_str().unwrap();
    let line = format!(
        r#"{{"type":"user","cwd":"{root}","sessionId":"outside","timestamp":"2026-11-30T00:00:00.000Z","message":{{"role":"user","content":"Never use semicolons, I told you."}}}}"#
    );
    std::fs::write(outside.path().join("outside.jsonl"), &line).unwrap();
    let claude = sandbox.join(claude_folder(&sandbox));
    std::os::unix::fs::symlink(outside.path(), format!("{}-web", claude.display())).unwrap();
    std::os::unix::fs::symlink(
        outside.path().join("outside.jsonl"),
        claude.join("linked.jsonl"),
    )
    .unwrap();
    let gemini = sandbox.join("home/.gemini/tmp/elsewhere");
    std::fs::create_dir_all(&gemini).unwrap();
    std::os::unix::fs::symlink(outside.path(), gemini.join("chats")).unwrap();
    // A transcript that is a pipe nobody writes to would block a reader forever.
    let fifo = sandbox.join("home/.codex/sessions/2026/11/28/rollout-fifo.jsonl");
    let made = sandbox
        .program("mkfifo", &[fifo.to_str().unwrap()])
        .status()
        .is_ok_and(|s| s.success());

    // A reader that blocked on the pipe would never end: the bound kills it and fails.
    let report = Run::within(&mut sandbox.command(&["reflect", "--format", "json"]), 60)
        .expect(0)
        .json();
    assert!(made, "mkfifo failed");
    assert_eq!(
        texts(&report),
        [
            "Évite les abréviations dans les noms de variables. @src/user.ts",
            "You used axios again even though we agreed on fetch.",
            "ugh, not again. tabs, not spaces",
        ]
    );
    let searched: Vec<u64> = report["searched"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["sessions"].as_u64().unwrap())
        .collect();
    assert_eq!(searched, [1, 1, 1]);
}

/// A Claude Code transcript of `megabytes` MB: tool results of 1 MB each between a few
/// typed prompts, the last one a correction.
fn big_transcript(root: &str, megabytes: usize) -> String {
    let mut text = String::with_capacity(megabytes * 1_100_000);
    let blob = "x".repeat(1_000_000);
    for n in 0..megabytes {
        text.push_str(&format!(
            r#"{{"type":"user","cwd":"{root}","sessionId":"big","timestamp":"2026-11-30T00:00:{:02}.000Z","message":{{"role":"user","content":[{{"type":"tool_result","tool_use_id":"t{n}","content":"{blob}"}}]}}}}"#,
            n % 60
        ));
        text.push('\n');
    }
    text.push_str(&format!(
        r#"{{"type":"user","cwd":"{root}","sessionId":"big","timestamp":"2026-11-30T01:00:00.000Z","message":{{"role":"user","content":"From now on, keep the fixtures small."}}}}"#
    ));
    text.push('\n');
    text
}

#[test]
fn reflect_reads_a_large_transcript_in_memory_bounded_by_one_message() {
    let sandbox = Sandbox::new();
    let root = sandbox.path().to_str().unwrap().to_string();
    sandbox.write(
        format!("{}/big.jsonl", claude_folder(&sandbox)),
        big_transcript(&root, 60),
    );
    // 64 MB of address space (`ulimit -v` counts KiB), about the file's size: reading the
    // whole file at once (as the previous version did) finds nothing within it; one line at
    // a time runs in 24.
    let mut command = sandbox.program(
        "sh",
        &[
            "-c",
            "ulimit -v 65536 && exec \"$0\" \"$@\"",
            crate::support::BIN,
            "reflect",
            "--format",
            "json",
        ],
    );
    let run = crate::support::Run::from_command(&mut command).expect(0);
    assert_eq!(
        texts(&run.json()),
        ["From now on, keep the fixtures small."]
    );
}

/// The frozen held-out sets: written separately from the corpus and the model, added to
/// the repository unchanged once the model was final, never used to tune it. Their figures
/// are the ones src/docs/capture.md reports. The targets of the issue: in each language,
/// recall at least 0.90 and false alarms at most 10% of the ordinary prompts.
#[test]
fn the_hook_over_the_frozen_held_out_sets_meets_the_targets() {
    assert_floors(
        "prompts-heldout-en.tsv",
        include_str!("../fixtures/prompts-heldout-en.tsv"),
        0.90,
        0.10,
    );
    assert_floors(
        "prompts-heldout-fr.tsv",
        include_str!("../fixtures/prompts-heldout-fr.tsv"),
        0.90,
        0.10,
    );
}
