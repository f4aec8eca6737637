//! Few and consistent rules: `learn` refuses a rule that says an active rule's words again
//! or reverses them, and lists the active rules near it by meaning (measured over a
//! labelled corpus of rule pairs); `--force` and `--supersedes` learn it anyway; `check`
//! reports the same pairs, and notes near ones to settle; the MCP `learn` tool says the
//! same.

use serde_json::{Value, json};

use crate::support::Sandbox;

const CORPUS: &str = include_str!("../fixtures/rule-pairs.tsv");
const RULES: &str = ".agents/autofix.json";

/// The share of the corpus's repeats and reversals `learn` refuses or lists near, held a
/// little below what it measures (see src/docs/consistency.md).
const SHOWN_FLOOR: f64 = 0.97;

/// One labelled pair: `None` for related but different rules.
struct Pair<'a> {
    expected: Option<&'a str>,
    existing: &'a str,
    new: &'a str,
}

fn corpus() -> Vec<Pair<'static>> {
    CORPUS
        .lines()
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            let columns: Vec<&str> = line.split('\t').collect();
            assert_eq!(columns.len(), 4, "{line}");
            let expected = match columns[0] {
                "duplicate" => Some("duplicate"),
                "contradiction" => Some("contradiction"),
                "distinct" => None,
                other => panic!("unknown label {other}"),
            };
            assert!(["en", "fr"].contains(&columns[1]), "{line}");
            Pair {
                expected,
                existing: columns[2],
                new: columns[3],
            }
        })
        .collect()
}

/// A rules file holding `rules` as rules 1, 2, ….
fn rules_file(rules: &[&str]) -> String {
    let objects: Vec<Value> = rules
        .iter()
        .enumerate()
        .map(|(i, text)| {
            json!({"Rule_number": i + 1, "Category": "CODE", "Instruction": text, "Why": "user preference"})
        })
        .collect();
    serde_json::to_string_pretty(&objects).unwrap() + "\n"
}

fn sandbox_with(rules: &[&str]) -> Sandbox {
    let sandbox = Sandbox::new();
    sandbox.write(RULES, rules_file(rules));
    sandbox
}

#[test]
fn the_corpus_is_large_labelled_and_bilingual() {
    let pairs = corpus();
    assert!(pairs.len() >= 150, "{} pairs", pairs.len());
    let count = |label: Option<&str>| pairs.iter().filter(|p| p.expected == label).count();
    assert!(count(Some("duplicate")) >= 40);
    assert!(count(Some("contradiction")) >= 40);
    assert!(count(None) >= 60);
    assert!(CORPUS.lines().filter(|l| l.contains("\tfr\t")).count() >= 40);
}

/// Learns each pair's new rule beside its existing rule, through the binary: a refusal
/// only for the same words or their reversal (never a pair labelled distinct), and the
/// existing rule refused or listed near for most repeats and reversals.
#[test]
fn learn_refuses_only_the_same_words_and_lists_the_near_rule() {
    let (mut refused, mut listed, mut expected) = (0usize, 0usize, 0usize);
    let mut wrong = Vec::new();
    for pair in corpus() {
        let sandbox = sandbox_with(&[pair.existing]);
        let before = sandbox.read(RULES);
        let run = sandbox.run(&[
            "learn", "-c", "code", "-w", "corpus", "--format", "json", pair.new,
        ]);
        let output = run.json();
        let near_one = output["near"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n["rule"] == 1);
        let statement = output["matches"] == json!([]);
        match output["status"].as_str().unwrap() {
            // Written as a statement, not an instruction: refused as such, the rule near
            // it listed all the same.
            "refused" if statement => {
                assert_eq!(run.code, 1, "{}", run.stdout);
                assert_eq!(output["diagnostics"][0]["code"], "not-imperative");
                listed += usize::from(pair.expected.is_some() && near_one);
            }
            "refused" => {
                assert_eq!(run.code, 1, "{}", run.stdout);
                assert_eq!(sandbox.read(RULES), before, "a refusal writes nothing");
                assert_eq!(output["matches"][0]["rule"], 1);
                let kind = output["matches"][0]["kind"].as_str().unwrap();
                assert_eq!(
                    pair.expected,
                    Some(kind),
                    "{} / {}",
                    pair.existing,
                    pair.new
                );
                refused += 1;
            }
            "learned" => {
                assert_eq!(run.code, 0, "{}", run.stderr);
                assert_eq!(output["matches"], json!([]));
                listed += usize::from(pair.expected.is_some() && near_one);
                if pair.expected.is_some() && !near_one {
                    wrong.push(format!("not shown: {} / {}", pair.existing, pair.new));
                }
            }
            other => panic!("unexpected status {other} for {}", pair.new),
        }
        expected += usize::from(pair.expected.is_some());
    }
    let shown = (refused + listed) as f64 / expected as f64;
    eprintln!(
        "corpus: {refused} refused, {listed} listed near, of {expected} repeats and reversals: {shown:.3}\n{}",
        wrong.join("\n")
    );
    assert!(shown >= SHOWN_FLOOR, "shown {shown:.3}");
}

#[test]
fn a_refusal_names_the_rule_and_the_two_ways_on() {
    let sandbox = sandbox_with(&["Always use named exports - because renames stay greppable."]);
    let before = sandbox.read(RULES);
    let new = "Use **named exports**.";
    let run = sandbox
        .run(&["learn", "-c", "code", "-w", "again", new])
        .expect(1);
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr.contains(&format!("Not learned: \"{new}\"")),
        "{}",
        run.stderr
    );
    // The match line ends with its code, in every language.
    assert!(
        run.stderr.contains(
            "same words as rule #1: Always use named exports - because renames stay greppable. [similar-rules]\n"
        ),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("`--supersedes 1`"), "{}", run.stderr);
    assert!(run.stderr.contains("`--force`"), "{}", run.stderr);
    let french = sandbox
        .command(&["learn", "-c", "code", "-w", "w", "Never use named exports."])
        .env("LANG", "fr_FR.UTF-8")
        .output()
        .unwrap();
    let french = String::from_utf8(french.stderr).unwrap();
    assert!(
        french.contains("inverse mot pour mot la règle n°1")
            && french.contains(" [conflicting-rules]\n"),
        "{french}"
    );
    assert_eq!(sandbox.read(RULES), before);

    let run = sandbox
        .run(&[
            "learn",
            "-c",
            "code",
            "-w",
            "w",
            "--format",
            "json",
            "Never use named exports.",
        ])
        .expect(1);
    let output = run.json();
    assert_eq!(output["status"], "refused");
    assert_eq!(
        output["rule"]["Rule_number"], 2,
        "the number it would have had"
    );
    assert_eq!(
        output["matches"],
        json!([{"rule": 1, "kind": "contradiction",
                "instruction": "Always use named exports - because renames stay greppable."}])
    );
    assert_eq!(sandbox.read(RULES), before);
}

#[test]
fn force_keeps_both_and_supersedes_replaces() {
    let sandbox = sandbox_with(&["Use Axios for HTTP requests.", "Never commit secrets."]);
    let replacement = "Never use Axios for HTTP requests.";
    // Superseding another rule does not answer for this one.
    sandbox
        .run(&["learn", "-c", "code", "-w", "w", "-s", "2", replacement])
        .expect(1);
    let run = sandbox
        .run(&[
            "learn",
            "-c",
            "code",
            "-w",
            "w",
            "-s",
            "1",
            "--format",
            "json",
            replacement,
        ])
        .expect(0);
    let output = run.json();
    assert_eq!(output["status"], "learned");
    assert_eq!(output["rule"]["Rule_number"], 3);
    assert_eq!(output["rule"]["Why"], "w (supersedes rule 1)");
    assert_eq!(output["matches"], json!([]));

    // A supersede marker written in the why counts like --supersedes.
    sandbox
        .run(&[
            "learn",
            "-c",
            "code",
            "-w",
            "replaces rule 2",
            "Never commit secrets to the repo.",
        ])
        .expect(0);

    let run = sandbox
        .run(&[
            "learn",
            "-c",
            "code",
            "-w",
            "w",
            "--force",
            "Always use Axios for HTTP requests.",
        ])
        .expect(0);
    assert!(
        run.stdout.starts_with("Learned rule #5 ([CODE])"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("reverses rule #3 word for word: Never use Axios for HTTP requests."),
        "{}",
        run.stdout
    );
    let rules: Value = serde_json::from_str(&sandbox.read(RULES)).unwrap();
    assert_eq!(rules.as_array().unwrap().len(), 5);

    let run = sandbox.run_with_stdin(
        &["learn", "--json", "--format", "json"],
        r#"{"Category": "CODE", "Instruction": "Don't use Axios for HTTP requests!", "Why": "w"}"#,
    );
    // It says rule 3's words again and reverses rule 5's: the repeat first.
    assert_eq!(
        run.expect(1).json()["matches"],
        json!([
            {"rule": 3, "kind": "duplicate", "instruction": "Never use Axios for HTTP requests."},
            {"rule": 5, "kind": "contradiction", "instruction": "Always use Axios for HTTP requests."}
        ])
    );
    let run = sandbox.run_with_stdin(
        &["learn", "--json", "--format", "json"],
        r#"{"Category": "CODE", "Instruction": "Don't use Axios for HTTP requests!", "Why": "w", "Force": true}"#,
    );
    assert_eq!(run.expect(0).json()["status"], "learned");
}

#[test]
fn exact_repeats_stay_a_no_op_and_superseded_rules_do_not_count() {
    let sandbox = sandbox_with(&[
        "Always use named exports.",
        "Use tabs.",
        "Use spaces - supersedes rule 2.",
    ]);
    let run = sandbox
        .run(&[
            "learn",
            "-c",
            "code",
            "-w",
            "w",
            "--format",
            "json",
            "always use named exports.",
        ])
        .expect(0);
    assert_eq!(run.json()["status"], "duplicate");
    // Rule 2 is superseded: saying it again, or its opposite, is not refused.
    sandbox
        .run(&["learn", "-c", "code", "-w", "w", "Never use tabs."])
        .expect(0);
    sandbox
        .run(&[
            "learn",
            "-c",
            "code",
            "-w",
            "w",
            "--dry-run",
            "Always use tabs.",
        ])
        .expect(1);
}

#[test]
fn the_mcp_learn_tool_carries_the_match_and_the_near_rules() {
    let sandbox = sandbox_with(&[
        "Never commit secrets to the repository.",
        "Never commit secrets into the repo - because leaks are forever.",
    ]);
    let call = |id: u32, arguments: Value| {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
               "params": {"name": "learn", "arguments": arguments}})
    };
    let arguments = json!({"category": "PROCESS", "instruction": "never commit `secrets` to the repository", "why": "w"});
    let mut forced = arguments.clone();
    forced["force"] = json!(true);
    let input = [
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        call(1, arguments),
        call(2, forced),
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
               "params": {"name": "rules", "arguments": {"budget": 40}}}),
    ]
    .iter()
    .map(Value::to_string)
    .collect::<Vec<_>>()
    .join("\n")
        + "\n";
    let run = sandbox.run_with_stdin(&["mcp"], &input).expect(0);
    let answers: Vec<Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let result = |id: u32| {
        answers
            .iter()
            .find(|a| a["id"] == id)
            .unwrap_or_else(|| panic!("no answer {id}: {}", run.stdout))["result"]
            .clone()
    };
    let refused = result(1);
    assert_eq!(refused["structuredContent"]["status"], "refused");
    assert_eq!(
        refused["structuredContent"]["matches"][0],
        json!({"rule": 1, "kind": "duplicate",
               "instruction": "Never commit secrets to the repository."})
    );
    let text = refused["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("`supersedes: [1]`") && text.contains("`force: true`"),
        "{text}"
    );
    // The rule near it in other words is listed, with the way to replace it.
    let near = &refused["structuredContent"]["near"];
    assert_eq!(near[0]["rule"], 2, "{near}");
    assert!(
        text.contains("near rule #2") && text.contains("`supersedes: [2]`"),
        "{text}"
    );
    assert_eq!(result(2)["structuredContent"]["status"], "learned");
    // The rules tool takes a budget too: too small for any rule, it still counts them.
    let listing = &result(3)["structuredContent"];
    assert_eq!(listing["omitted"], 3, "{listing}");
    assert_eq!(listing["rules"], json!([]), "{listing}");
    let text = result(3)["content"][0]["text"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        text.contains("(No rule fits in 40 tokens, not even the newest: all 3 left out;"),
        "{text}"
    );
    let rules: Value = serde_json::from_str(&sandbox.read(RULES)).unwrap();
    assert_eq!(rules.as_array().unwrap().len(), 3);
}

/// A file with one planted repeat (3 says 1's words), one planted reversal (6 reverses 2),
/// near rules that are different rules, and an exact repeat, which is
/// `duplicate-instruction` only.
fn planted() -> Sandbox {
    let sandbox = Sandbox::new();
    sandbox.write(
        RULES,
        rules_file(&[
            "Keep secrets out of the repository.",
            "Use Axios for HTTP requests.",
            "keep **secrets** out of the repository - because leaks are forever.",
            "Run cargo fmt before committing.",
            "Run cargo clippy before committing.",
            "Never use Axios for HTTP requests.",
            "Keep a changelog entry for every release.",
            "Run cargo fmt before committing.",
        ]),
    );
    sandbox.run(&["rules"]).expect(0);
    sandbox
}

#[test]
fn check_reports_planted_pairs_in_every_format() {
    let sandbox = planted();
    let run = sandbox.run(&["check"]).expect(0);
    let text = &run.stdout;
    assert!(
        text.contains(
            "warning[similar-rules]: rule 3 \"keep **secrets** out of the repository - because leaks are …\" says the same as rule 1 \"Keep secrets out of the repository.\"\n"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "warning[conflicting-rules]: rule 6 \"Never use Axios for HTTP requests.\" reverses rule 2 \"Use Axios for HTTP requests.\"\n"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "note[near-rules]: rule 5 \"Run cargo clippy before committing.\" comes near rule 4 \"Run cargo fmt before committing.\" (cosine 0."
        ),
        "{text}"
    );
    assert!(text.contains("`autofix distinct 4 5 --why"), "{text}");
    assert!(text.contains("--supersedes 1 --supersedes 3"), "{text}");
    assert!(text.contains("--> .agents/autofix.json:"), "{text}");
    assert!(
        text.contains("warning[duplicate-instruction]: rule 8"),
        "{text}"
    );
    assert!(
        text.ends_with(
            "Checked 8 rules in .agents/autofix.json: 0 errors, 3 warnings (1 near pair to settle).\n"
        ),
        "{text}"
    );

    let json = sandbox.run(&["check", "--format", "json"]).expect(0).json();
    let found: Vec<(String, String)> = json["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["pointer"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let expected = [
        ("similar-rules", "/2/Instruction"),
        ("conflicting-rules", "/5/Instruction"),
        ("near-rules", "/4/Instruction"),
        ("duplicate-instruction", "/7/Instruction"),
    ];
    for (code, pointer) in expected {
        assert!(
            found.contains(&(code.to_string(), pointer.to_string())),
            "{found:?}"
        );
    }
    assert_eq!(found.len(), 4, "{found:?}");
    assert_eq!(json["ok"], true);

    let github = sandbox
        .run(&["check", "--format", "github"])
        .expect(0)
        .stdout;
    assert!(
        github.contains("::warning file=.agents/autofix.json,line="),
        "{github}"
    );
    assert!(github.contains(",title=similar-rules::rule 3 "), "{github}");
    assert!(
        github.contains(",title=conflicting-rules::rule 6 "),
        "{github}"
    );
    assert!(
        github.contains("::notice file=.agents/autofix.json,line="),
        "{github}"
    );

    let sarif = sandbox
        .run(&["check", "--format", "sarif"])
        .expect(0)
        .json();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let levels: Vec<(&str, &str)> = results
        .iter()
        .map(|r| (r["ruleId"].as_str().unwrap(), r["level"].as_str().unwrap()))
        .collect();
    for pair in [
        ("similar-rules", "warning"),
        ("conflicting-rules", "warning"),
        ("near-rules", "note"),
    ] {
        assert!(levels.contains(&pair), "{levels:?}");
    }
    let rules = sarif["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap();
    assert!(rules.iter().any(|r| r["id"] == "near-rules"));
}

#[test]
fn superseding_one_of_a_pair_clears_the_warning() {
    let sandbox = planted();
    sandbox
        .run(&[
            "learn",
            "-c",
            "code",
            "-w",
            "w",
            "-s",
            "2",
            "-s",
            "6",
            "Use native fetch for HTTP requests.",
        ])
        .expect(0);
    let text = sandbox.run(&["check"]).expect(0).stdout;
    assert!(!text.contains("conflicting-rules"), "{text}");
    assert!(text.contains("similar-rules"), "{text}");
}

/// Two near rules that both hold, recorded so: `check` notes the pair no more, for good;
/// the record is no rule (not listed, not counted active), and a second record of the
/// pair, a rule with itself or a rule that is not active are refused.
#[test]
fn a_distinct_record_silences_a_near_pair() {
    let sandbox = planted();
    let before = sandbox.read(RULES);
    let run = sandbox
        .run(&[
            "distinct",
            "4",
            "5",
            "--why",
            "fmt formats, clippy lints",
            "--dry-run",
        ])
        .expect(0);
    assert!(
        run.stdout
            .starts_with("Would record rules #4 and #5 as distinct with record #9:"),
        "{}",
        run.stdout
    );
    assert_eq!(sandbox.read(RULES), before);
    let run = sandbox
        .run(&[
            "distinct",
            "5",
            "4",
            "--why",
            "fmt formats, clippy lints",
            "--format",
            "json",
        ])
        .expect(0);
    let output = run.json();
    assert_eq!(output["status"], "recorded");
    assert_eq!(output["distinct"], json!([4, 5]));
    assert_eq!(output["record"]["Distinct"], json!([4, 5]));
    let text = sandbox.run(&["check"]).expect(0).stdout;
    assert!(!text.contains("near-rules"), "{text}");
    assert!(text.ends_with("0 errors, 3 warnings.\n"), "{text}");
    let listed = sandbox.run(&["rules"]).expect(0).stdout;
    assert!(
        listed.starts_with("Rules from .agents/autofix.json: 8 active"),
        "{listed}"
    );
    assert!(!listed.contains("Keep both near rules"), "{listed}");
    let all = sandbox.run(&["rules", "--all"]).expect(0).stdout;
    assert!(all.contains("[distinct record]"), "{all}");
    for (args, error) in [
        (["4", "5"], "rules 4 and 5 are already recorded as distinct"),
        (["4", "4"], "a rule is never distinct from itself"),
        (["4", "42"], "no rule 42"),
    ] {
        let run = sandbox
            .run(&["distinct", args[0], args[1], "--why", "w"])
            .expect(2);
        assert!(run.stderr.contains(error), "{}", run.stderr);
    }
    sandbox
        .run(&[
            "learn",
            "-c",
            "code",
            "-w",
            "w",
            "-s",
            "4",
            "Run cargo fmt --check in CI.",
        ])
        .expect(0);
    let run = sandbox.run(&["distinct", "4", "7", "--why", "w"]).expect(2);
    assert!(
        run.stderr.contains("rule 4 is not active"),
        "{}",
        run.stderr
    );
}

#[test]
fn explain_knows_the_three_codes() {
    let sandbox = Sandbox::new();
    for (code, severity, words) in [
        ("similar-rules", "warning", "in the same words"),
        ("conflicting-rules", "warning", "opposite polarities"),
        ("near-rules", "note", "autofix distinct"),
    ] {
        let run = sandbox.run(&["explain", code]).expect(0);
        assert!(
            run.stdout.starts_with(&format!("{code} ({severity})")),
            "{}",
            run.stdout
        );
        assert!(run.stdout.contains(words), "{}", run.stdout);
        assert!(run.stdout.contains("--supersedes"), "{}", run.stdout);
    }
}

/// `n` distinct rules of about 60 characters.
fn many_rules(n: usize) -> Vec<String> {
    (1..=n)
        .map(|i| format!("Always keep module {i} free of side effects at import time."))
        .collect()
}

fn estimated_tokens(text: &str) -> usize {
    text.chars().count().div_ceil(4)
}

#[test]
fn a_budget_keeps_the_newest_rules_and_says_what_is_left_out() {
    let rules = many_rules(100);
    let refs: Vec<&str> = rules.iter().map(String::as_str).collect();
    let sandbox = sandbox_with(&refs);

    let full = sandbox.run(&["rules", "--format", "json"]).expect(0).json();
    assert_eq!(full["omitted"], 0);
    let full_text = sandbox.run(&["rules"]).expect(0).stdout;
    assert_eq!(full["tokens"], estimated_tokens(&full_text));

    let text = sandbox.run(&["rules", "--budget", "300"]).expect(0).stdout;
    assert!(
        estimated_tokens(&text) <= 300,
        "{} tokens",
        estimated_tokens(&text)
    );
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("Rules from .agents/autofix.json: 100 active"),
        "{text}"
    );
    let shown = lines.len() - 2;
    assert!(shown > 5, "{text}");
    assert_eq!(
        lines[1],
        format!(
            "({} older rules omitted to fit 300 tokens; `autofix rules` lists them all.)",
            100 - shown
        )
    );
    // Compact lines, newest last, the why left out.
    assert_eq!(
        lines.last().unwrap(),
        &"100 [CODE] Always keep module 100 free of side effects at import time."
    );
    assert!(!text.contains("user preference"), "{text}");
    // One more rule would not have fitted.
    let bigger = sandbox.run(&["rules", "--budget", "330"]).expect(0).stdout;
    assert!(bigger.lines().count() > lines.len(), "{bigger}");

    let json = sandbox
        .run(&["rules", "--budget", "300", "--format", "json"])
        .expect(0)
        .json();
    assert_eq!(json["omitted"], 100 - shown);
    assert_eq!(json["rules"].as_array().unwrap().len(), shown);
    assert_eq!(json["rules"][shown - 1]["number"], 100);
    assert_eq!(json["counts"]["active"], 100);
    assert_eq!(json["tokens"], estimated_tokens(&text));

    // Everything fits: nothing is said to be left out.
    let all = sandbox
        .run(&["rules", "--budget", "100000"])
        .expect(0)
        .stdout;
    assert_eq!(all.lines().count(), 101);
    // A budget too small for any rule still says they exist.
    let none = sandbox.run(&["rules", "--budget", "1"]).expect(0).stdout;
    assert!(
        none.contains("(No rule fits in 1 tokens, not even the newest: all 100 left out;"),
        "{none}"
    );
    sandbox
        .run(&["rules", "--budget", "10", "--format", "markdown"])
        .expect(2);
}

#[test]
fn the_hook_fits_a_budget_and_knows_the_rest_exist() {
    let rules = many_rules(100);
    let refs: Vec<&str> = rules.iter().map(String::as_str).collect();
    let sandbox = sandbox_with(&refs);
    let context = |args: &[&str]| {
        let run = sandbox.run(args).expect(0);
        run.json()["hookSpecificOutput"]["additionalContext"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let unbudgeted = context(&["rules", "--format", "hook", "--agent", "claude"]);
    assert!(!unbudgeted.contains("omitted"), "{unbudgeted}");
    let hook = sandbox
        .run(&[
            "rules", "--format", "hook", "--agent", "claude", "--budget", "400",
        ])
        .expect(0)
        .stdout;
    assert!(estimated_tokens(&hook) <= 400);
    let text = context(&[
        "rules", "--format", "hook", "--agent", "claude", "--budget", "400",
    ]);
    assert!(
        text.contains("older rules omitted to fit 400 tokens; `autofix rules` lists them all."),
        "{text}"
    );
    assert!(text.ends_with("100 [CODE] Always keep module 100 free of side effects at import time. \u{2014} user preference"), "{text}");
}

#[test]
fn check_warns_exactly_where_the_claude_hook_starts_leaving_rules_out() {
    let hooked = |n: usize| {
        let rules = many_rules(n);
        let refs: Vec<&str> = rules.iter().map(String::as_str).collect();
        let sandbox = sandbox_with(&refs);
        sandbox.write(
            ".claude/settings.json",
            r#"{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "autofix rules --format hook --agent claude"}]}]}}"#,
        );
        sandbox
    };
    let omits = |n: usize| {
        hooked(n)
            .run(&["rules", "--format", "hook", "--agent", "claude"])
            .expect(0)
            .stdout
            .contains("older rule")
    };
    // The fewest rules the hook cannot hold all of (about 9,000 characters of them).
    let (mut fits, mut over) = (1, 400);
    assert!(!omits(fits) && omits(over));
    while over - fits > 1 {
        let middle = usize::midpoint(fits, over);
        if omits(middle) {
            over = middle;
        } else {
            fits = middle;
        }
    }
    let warns = |n: usize| {
        hooked(n)
            .run(&["check"])
            .expect(0)
            .stdout
            .contains("warning[rules-over-budget]")
    };
    assert!(!warns(fits), "{fits} rules fit the hook, yet check warns");
    assert!(
        warns(over),
        "the hook leaves rules out of {over}, yet check is silent"
    );
}

#[test]
fn check_warns_when_the_rules_exceed_the_smallest_enabled_budget() {
    let rules = many_rules(160);
    let refs: Vec<&str> = rules.iter().map(String::as_str).collect();
    let sandbox = sandbox_with(&refs);
    // Only AGENTS.md is a default target: 32 KiB, which 160 short rules fit.
    let run = sandbox.run(&["check"]).expect(0);
    assert!(!run.stdout.contains("rules-over-budget"), "{}", run.stdout);
    // With the Claude Code hook installed, its 9,000 characters are the smallest budget.
    sandbox.write(
        ".claude/settings.json",
        r#"{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "autofix rules --format hook --agent claude"}]}]}}"#,
    );
    let run = sandbox.run(&["check"]).expect(0);
    assert!(
        run.stdout
            .contains("warning[rules-over-budget]: the 160 active rules take "),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("`claude hook`: the session hook prints at most 9,000 characters"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("`autofix rules --budget 2250`"),
        "{}",
        run.stdout
    );
    let json = sandbox.run(&["check", "--format", "json"]).expect(0).json();
    assert_eq!(json["diagnostics"][0]["code"], "rules-over-budget");
    let github = sandbox
        .run(&["check", "--format", "github"])
        .expect(0)
        .stdout;
    assert!(github.contains("title=rules-over-budget::"), "{github}");
    let sarif = sandbox
        .run(&["check", "--format", "sarif"])
        .expect(0)
        .json();
    assert_eq!(
        sarif["runs"][0]["results"][0]["ruleId"],
        "rules-over-budget"
    );
}

/// A rule said through a word's opposite ("named exports" and "no default exports"),
/// and single against double quotes, in English and French: near rules, which `check`
/// notes and `learn` lists beside the new rule, never refuses.
#[test]
fn opposite_words_make_near_rules() {
    let sandbox = sandbox_with(&[
        "Always use named exports",
        "Never use default exports",
        "Use single quotes for strings",
        "Use double quotes for strings",
        "Utilisez des guillemets simples",
        "Utilisez des guillemets doubles",
    ]);
    let text = sandbox.run(&["check"]).expect(0).stdout;
    for needle in [
        "note[near-rules]: rule 2 \"Never use default exports\" comes near rule 1",
        "note[near-rules]: rule 4 \"Use double quotes for strings\" comes near rule 3",
        "note[near-rules]: rule 6 \"Utilisez des guillemets doubles\" comes near rule 5",
    ] {
        assert!(text.contains(needle), "{needle}\n{text}");
    }
    assert!(!text.contains("warning["), "{text}");
    let fresh = sandbox_with(&["Always use named exports"]);
    let run = fresh
        .run(&[
            "learn",
            "-c",
            "code",
            "-w",
            "style",
            "Never use default exports",
        ])
        .expect(0);
    assert!(
        run.stdout.contains("near rule #1 (cosine 0.") && run.stdout.contains("`--supersedes 1`"),
        "{}",
        run.stdout
    );
}

/// A budget too small for even the newest rule says so, instead of calling every rule
/// "older" and printing none.
#[test]
fn a_budget_that_fits_no_rule_says_so() {
    let rules: Vec<String> = (1..=6)
        .map(|i| format!("Always do the thing number {i} in every module"))
        .collect();
    let refs: Vec<&str> = rules.iter().map(String::as_str).collect();
    let sandbox = sandbox_with(&refs);
    let run = sandbox.run(&["rules", "--budget", "40"]).expect(0);
    assert!(
        run.stdout.contains(
            "(No rule fits in 40 tokens, not even the newest: all 6 left out; raise --budget, or `autofix rules` lists them all.)"
        ),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("older"), "{}", run.stdout);
}
