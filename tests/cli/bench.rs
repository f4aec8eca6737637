//! The side-by-side benchmark (ignored by default; figures, never assertions):
//!
//! ```sh
//! cargo test --release --test cli bench -- --ignored --nocapture --test-threads=1
//! ```
//!
//! It generates its data, runs each pair of commands alternately after a warm-up, and
//! prints the median of each and their ratio, measured in the same run. A comparison whose
//! peer (`jq`, `/usr/bin/time`) is not installed is skipped with a message.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::{BIN, Sandbox};

const ROUNDS: usize = 15;

fn installed(program: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// A rules file as `learn` writes it, with `n` rules of realistic length.
fn rules_file(n: usize) -> String {
    let mut text = String::from("[\n");
    for i in 1..=n {
        let category = [
            "STYLE", "CODE", "ARCH", "TOOL", "PROCESS", "DATA", "UX", "OTHER",
        ][i % 8];
        text.push_str(&format!(
            "  {{\n    \"Rule_number\": {i},\n    \"Category\": \"{category}\",\n    \"Instruction\": \"Always keep module {i} free of side effects at import time - because the loader runs every module once.\",\n    \"Why\": \"codebase pattern\"\n  }}{}\n",
            if i == n { "" } else { "," }
        ));
    }
    text.push_str("]\n");
    text
}

/// A rules file of `n` rules that share few words, as a real file's do: each instruction
/// is a verb and six words drawn from 19,600 made-up ones (two syllables and an ending),
/// so most words are held by a few dozen rules and almost no two rules are alike. The
/// draws come from a fixed xorshift generator: the same file on every run.
fn distinct_rules_file(n: usize) -> String {
    const VERBS: [&str; 10] = [
        "keep", "run", "write", "check", "prefer", "avoid", "name", "split", "cache", "log",
    ];
    let syllables: Vec<String> = "bdfgklmnprstvz"
        .chars()
        .flat_map(|c| "aeiou".chars().map(move |v| format!("{c}{v}")))
        .collect();
    let mut vocabulary = Vec::new();
    for first in &syllables {
        for second in &syllables {
            for end in ['n', 'r', 's', 't'] {
                vocabulary.push(format!("{first}{second}{end}"));
            }
        }
    }
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut draw = |bound: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % bound as u64) as usize
    };
    let mut text = String::from("[\n");
    for i in 1..=n {
        let category = [
            "STYLE", "CODE", "ARCH", "TOOL", "PROCESS", "DATA", "UX", "OTHER",
        ][i % 8];
        let words: Vec<&str> = (0..6)
            .map(|_| vocabulary[draw(vocabulary.len())].as_str())
            .collect();
        let verb = VERBS[draw(VERBS.len())];
        text.push_str(&format!(
            "  {{\n    \"Rule_number\": {i},\n    \"Category\": \"{category}\",\n    \"Instruction\": \"Always {verb} {} - because the team agreed on it.\",\n    \"Why\": \"codebase pattern\"\n  }}{}\n",
            words.join(" "),
            if i == n { "" } else { "," }
        ));
    }
    text.push_str("]\n");
    text
}

/// A HagiTask-form preset with `commands` commands, all bound to one declared skill.
fn write_preset(dir: &Path, id: &str, commands: usize) {
    write_preset_with(dir, id, commands, "query");
}

/// [`write_preset`] with each command's template using `{placeholder}` (`query` is the
/// preset's one input; any other name is an `unknown-placeholder` warning on each command).
fn write_preset_with(dir: &Path, id: &str, commands: usize, placeholder: &str) {
    let write = |relative: &str, text: String| {
        let path = dir.join(relative);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    };
    write(
        "manifest.json",
        format!(
            r#"{{"schemaVersion": "1.0", "taskPresetId": "{id}", "version": "1.0.0",
  "displayName": {{"key": "n"}}, "description": {{"key": "d"}}, "kind": "custom-executor",
  "status": "experimental",
  "localization": {{"strategy": "host-i18n-bridge", "namespace": "{id}", "defaultLocale": "en-US", "supportedLocales": ["en-US"], "bundles": {{"en-US": "./locales/en-US.json"}}}},
  "ui": {{"panel": "./frontend/panel.json", "commands": "./frontend/commands.json"}},
  "site": {{"storePage": "./store-page/"}},
  "backend": {{"taskPreset": "./backend/task-preset.json", "prompts": "./backend/prompts.json"}}}}"#
        ),
    );
    write(
        "frontend/panel.json",
        r#"{"surface": "drawer", "submitLabel": {"key": "s"}, "sections": [{"id": "main", "layout": "stack",
  "fields": [{"id": "query", "renderer": "multiline-text", "output": "query", "required": true}]}]}"#
            .to_string(),
    );
    let list: Vec<String> = (0..commands)
        .map(|i| {
            format!(
                r#"    {{"id": "cmd{i}", "groupId": "main", "label": "cmd{i}", "skill": "bench-skill", "description": {{"key": "c{i}"}}, "preludeTemplate": "{{commandId}} {{{placeholder}}}"}}"#
            )
        })
        .collect();
    write(
        "frontend/commands.json",
        format!(
            "{{\"schemaVersion\": \"1.1\", \"selectionMode\": \"single\", \"groups\": [{{\"id\": \"main\", \"title\": {{\"key\": \"g\"}}}}],\n  \"commands\": [\n{}\n  ]}}\n",
            list.join(",\n")
        ),
    );
    write(
        "backend/task-preset.json",
        r#"{"taskKey": "bench", "scriptKey": "autotask.bench", "defaultTargetType": "repository",
  "requirements": [{"type": "agent", "name": "any"}, {"type": "skills", "name": "bench-skill"}],
  "targets": {"repositories": {"enabled": false}, "vaults": {"enabled": false}, "projects": {"enabled": false}},
  "inputBindings": [{"input": "query", "promptParameter": "query", "required": true}]}"#
            .to_string(),
    );
    write(
        "store-page/index.en-US.md",
        format!(
            "---\nlocale: en-US\nslug: {id}\ntitle: Bench\nsummary: A generated preset.\nstatus: experimental\n---\n\nBench.\n"
        ),
    );
    // HagiCode's validator asks for a bundle per supported locale, with the bridge too.
    write("locales/en-US.json", "{}\n".to_string());
    write("backend/s.md", "You are a careful engineer.\n".to_string());
    write("backend/u.hbs", "{{query}}\n".to_string());
    write(
        "backend/prompts.json",
        r#"{"version": "1.0.0", "templateEngine": "handlebars", "defaultLocale": "en-US", "supportedLocales": ["en-US"],
  "inputs": [{"name": "query", "source": "task-preset-input"}],
  "locales": {"en-US": {"systemTemplate": "./s.md", "userTemplate": "./u.hbs"}}}"#
            .to_string(),
    );
}

/// `sh -c script` with `$0` set to `zero`.
fn sh_with(script: &str, zero: &str) -> Command {
    let mut command = Command::new("sh");
    command.args(["-c", script, zero]);
    command
}

fn sh(script: &str) -> Command {
    let mut command = Command::new("sh");
    command.args(["-c", script]);
    command
}

/// Runs a command to completion, output discarded, and returns how long it took.
fn time(command: &mut Command) -> Duration {
    let start = Instant::now();
    let output = command
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let elapsed = start.elapsed();
    assert!(
        output.status.success(),
        "{command:?} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    elapsed
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

/// Runs `sides` alternately (each with its own untimed set-up) and reports the medians.
pub(crate) fn compare(title: &str, target: &str, sides: &mut [Side<'_>]) -> Vec<Duration> {
    for (_, make, setup) in sides.iter_mut() {
        setup();
        time(&mut make());
    }
    let mut samples = vec![Vec::new(); sides.len()];
    for _ in 0..ROUNDS {
        for (i, (_, make, setup)) in sides.iter_mut().enumerate() {
            setup();
            samples[i].push(time(&mut make()));
        }
    }
    let medians: Vec<Duration> = samples.into_iter().map(median).collect();
    println!("\n{title}  (target: {target})");
    for (i, (name, _, _)) in sides.iter().enumerate() {
        let ratio = medians[0].as_secs_f64() / medians[i].as_secs_f64();
        let note = if i == 0 {
            String::new()
        } else {
            format!("  autofix / this = {ratio:.3}")
        };
        println!("  {name:<44} {:>10}{note}", ms(medians[i]));
    }
    medians
}

pub(crate) fn noop() {}

/// One side of a comparison: its name, how to make its command, its untimed set-up.
pub(crate) type Side<'a> = (&'a str, &'a mut dyn FnMut() -> Command, &'a mut dyn FnMut());

/// What the comparisons share: the generated rules files and the working copy a command
/// runs on (restored from a base before each run).
struct Fixture {
    sandbox: Sandbox,
    jq: bool,
    base: Vec<(usize, PathBuf)>,
    work: PathBuf,
    temp: PathBuf,
}

impl Fixture {
    fn new() -> Fixture {
        let sandbox = Sandbox::new();
        let jq = installed("jq");
        if !jq {
            println!("skipped: every jq comparison (jq is not installed)");
        }
        let base = [1_000, 10_000, 100_000]
            .into_iter()
            .map(|n| (n, sandbox.write(format!("base-{n}.json"), rules_file(n))))
            .collect();
        let (work, temp) = (sandbox.join("work.json"), sandbox.join("work.tmp"));
        Fixture {
            sandbox,
            jq,
            base,
            work,
            temp,
        }
    }

    /// `autofix ARGS` on the working copy.
    fn autofix(&self, args: &[&str]) -> Command {
        let mut command = self.sandbox.command(args);
        command.env("AUTOFIX_FILE", &self.work);
        command
    }

    /// The set-up that puts the base of `n` rules in place of the working copy.
    fn restore(&self, n: usize) -> impl FnMut() + use<> {
        let from = self.base.iter().find(|(m, _)| *m == n).unwrap().1.clone();
        let to = self.work.clone();
        move || {
            fs::copy(&from, &to).unwrap();
        }
    }

    fn work(&self) -> String {
        self.work.display().to_string()
    }
}

#[test]
#[ignore = "benchmark: cargo test --release --test cli bench -- --ignored --nocapture --test-threads=1"]
fn bench() {
    let fixture = Fixture::new();
    learn_beside_jq_and_the_floor(&fixture);
    if fixture.jq {
        rules_beside_jq(&fixture);
    }
    check_beside_rules(&fixture);
    check_on_distinct_rules(&fixture);
    if fixture.jq {
        preset_validate_beside_jq(&fixture);
    }
    preset_validate_with_warnings(&fixture);
    start_up();
    prompt_hook_beside_start_up(&fixture.sandbox);
    export_by_scopes(&fixture);
    scaling(&fixture);
    peak_memory(&fixture);
}

const LEARN_ARGS: [&str; 6] = ["learn", "-c", "code", "-w", "bench", "Always bench"];

fn learn_beside_jq_and_the_floor(fixture: &Fixture) {
    let (work, temp) = (fixture.work(), fixture.temp.display().to_string());
    let jq_append = format!(
        "jq --arg i 'Always bench' '. + [{{Rule_number: ((map(.Rule_number) | max) + 1), Category: \"CODE\", Instruction: $i, Why: \"bench\"}}]' {work} > {temp} && mv {temp} {work}"
    );
    let floor = format!("cp {work} {temp} && mv {temp} {work}");
    let (mut r1, mut r2, mut r3) = (
        fixture.restore(10_000),
        fixture.restore(10_000),
        fixture.restore(10_000),
    );
    let mut sides: Vec<Side<'_>> = Vec::new();
    let mut make_learn = || fixture.autofix(&LEARN_ARGS);
    let mut make_jq = || sh(&jq_append);
    let mut make_floor = || sh(&floor);
    sides.push(("autofix learn", &mut make_learn, &mut r1));
    if fixture.jq {
        sides.push(("jq append (max+1, temp, rename)", &mut make_jq, &mut r2));
    }
    sides.push((
        "floor: cp file tmp && mv tmp file",
        &mut make_floor,
        &mut r3,
    ));
    compare(
        "learn on 10k rules",
        "<= 0.15 x jq, <= 3 x floor",
        &mut sides,
    );
}

fn rules_beside_jq(fixture: &Fixture) {
    let (mut s1, mut s2) = (fixture.restore(100_000), fixture.restore(100_000));
    let mut make_rules = || fixture.autofix(&["rules"]);
    let jq_list = format!("jq -r '.[].Instruction' {}", fixture.work());
    let mut make_jq = || sh(&jq_list);
    compare(
        "rules on 100k rules",
        "<= 0.3 x jq",
        &mut [
            ("autofix rules", &mut make_rules, &mut s1),
            ("jq -r '.[].Instruction'", &mut make_jq, &mut s2),
        ],
    );
}

/// The consistency checks index the rules' words instead of comparing every pair, so check
/// stays a small multiple of rules.
fn check_beside_rules(fixture: &Fixture) {
    for n in [10_000, 100_000] {
        let (mut c1, mut c2) = (fixture.restore(n), fixture.restore(n));
        let mut make_check = || fixture.autofix(&["check"]);
        let mut make_rules = || fixture.autofix(&["rules"]);
        compare(
            &format!("check beside rules on {}k rules", n / 1000),
            "a small multiple of rules",
            &mut [
                ("autofix check", &mut make_check, &mut c1),
                ("autofix rules", &mut make_rules, &mut c2),
            ],
        );
    }
}

/// `check` on rules that share few words, where the consistency checks cost the most: how
/// it grows from 10k to 100k rules, and how it compares with listing the same 100k rules.
fn check_on_distinct_rules(fixture: &Fixture) {
    let [large, small] = [100_000, 10_000].map(|n| {
        let path = fixture
            .sandbox
            .write(format!("distinct-{n}.json"), distinct_rules_file(n));
        path.display().to_string()
    });
    let mut check_large = || fixture.sandbox.command(&["--file", &large, "check"]);
    let mut check_small = || fixture.sandbox.command(&["--file", &small, "check"]);
    let mut rules_large = || fixture.sandbox.command(&["--file", &large, "rules"]);
    let (mut n1, mut n2, mut n3) = (noop, noop, noop);
    compare(
        "check on 100k distinct rules beside check on 10k and rules on 100k",
        "<= 15 x check on 10k, <= 10 x rules on 100k",
        &mut [
            (
                "autofix check, 100k distinct rules",
                &mut check_large,
                &mut n1,
            ),
            (
                "autofix check, 10k distinct rules",
                &mut check_small,
                &mut n2,
            ),
            (
                "autofix rules, 100k distinct rules",
                &mut rules_large,
                &mut n3,
            ),
        ],
    );
}

/// `preset validate` on one preset of 10k commands beside one of 5k, a warning on each
/// command (an unknown placeholder): the report must grow with the commands, no faster.
fn preset_validate_with_warnings(fixture: &Fixture) {
    let [large, small] = [10_000, 5_000].map(|n| {
        let dir = fixture.sandbox.join(format!("warned-{n}"));
        write_preset_with(&dir, &format!("warned-{n}"), n, "undeclared");
        dir.display().to_string()
    });
    let mut validate_large = || fixture.sandbox.command(&["preset", "validate", &large]);
    let mut validate_small = || fixture.sandbox.command(&["preset", "validate", &small]);
    let (mut n1, mut n2) = (noop, noop);
    compare(
        "preset validate, a warning on each of 10k commands beside 5k",
        "<= 2.2 x",
        &mut [
            (
                "autofix preset validate, 10k commands",
                &mut validate_large,
                &mut n1,
            ),
            (
                "autofix preset validate, 5k commands",
                &mut validate_small,
                &mut n2,
            ),
        ],
    );
}

fn preset_validate_beside_jq(fixture: &Fixture) {
    let presets = fixture.sandbox.join("presets");
    for i in 0..1000 {
        write_preset(&presets.join(format!("p{i:04}")), &format!("p{i:04}"), 20);
    }
    let presets_s = presets.display().to_string();
    let mut make_validate = || fixture.sandbox.command(&["preset", "validate", &presets_s]);
    let jq_empty = format!("find {presets_s} -name '*.json' -exec jq empty {{}} +");
    let mut make_jq = || sh(&jq_empty);
    let (mut n1, mut n2) = (noop, noop);
    compare(
        "preset validate on 1000 presets (20 commands each)",
        "<= 1.0 x jq",
        &mut [
            ("autofix preset validate", &mut make_validate, &mut n1),
            ("jq empty over the same files", &mut make_jq, &mut n2),
        ],
    );
}

fn start_up() {
    let mut make_version = || {
        let mut command = Command::new(BIN);
        command.arg("--version");
        command
    };
    let mut make_true = || Command::new("/bin/true");
    let (mut n1, mut n2) = (noop, noop);
    compare(
        "start-up",
        "<= 3 x /bin/true",
        &mut [
            ("autofix --version", &mut make_version, &mut n1),
            ("/bin/true", &mut make_true, &mut n2),
        ],
    );
}

/// The prompt hook alone: `cargo test --release --test cli bench_prompt_hook -- --ignored
/// --nocapture`.
#[test]
#[ignore = "benchmark: the prompt hook beside start-up"]
fn bench_prompt_hook() {
    prompt_hook_beside_start_up(&Sandbox::new());
}

/// The prompt hook on a correction that says one of 1,000 distinct rules again (the
/// sentence model loaded, the rules' vectors kept from the warm-up's calls), on the same
/// with no vector kept (the cache removed before each call: the model loads and reads
/// rules while a batch should end within 0.6 s), and on an ordinary prompt (the classifier alone), beside the process's
/// start-up, all through `sh`.
fn prompt_hook_beside_start_up(sandbox: &Sandbox) {
    let dir = sandbox.join("hook");
    let mut rules: serde_json::Value = serde_json::from_str(&distinct_rules_file(1_000)).unwrap();
    rules
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({"Rule_number": 1_001,
        "Category": "TOOL", "Instruction": "Always use `rg` instead of `grep` in scripts.",
        "Why": "speed"}));
    sandbox.write("hook/.agents/autofix.json", rules.to_string());
    let input = serde_json::json!({"session_id": "s", "cwd": dir.display().to_string(),
        "hook_event_name": "UserPromptSubmit",
        "prompt": "grep again? No, we use ripgrep in our scripts, I told you."});
    let input = sandbox.write("hook-input.json", input.to_string());
    let ordinary = serde_json::json!({"session_id": "s", "cwd": dir.display().to_string(),
        "hook_event_name": "UserPromptSubmit",
        "prompt": "Why is the build slow on CI? Check the logs of the last three runs."});
    let ordinary = sandbox.write("hook-ordinary.json", ordinary.to_string());
    let hook = |input: &std::path::Path| {
        format!(
            "{BIN} hook user-prompt --agent claude < {}",
            input.display()
        )
    };
    let (repeat, ordinary) = (hook(&input), hook(&ordinary));
    let mut init = Command::new("git");
    init.args(["init", "-q"]).current_dir(&dir);
    assert!(
        crate::support::hermetic_git(&mut init)
            .status()
            .unwrap()
            .success()
    );
    let cache = dir.join(".git/autofix/vectors.bin");
    let full = 8 + 1_001 * (16 + 384 * 2);
    while std::fs::metadata(&cache).map_or(0, |m| m.len()) < full {
        time(&mut sh(&repeat));
    }
    let cold = format!("rm -f {}; {repeat}", cache.display());
    let version = format!("{BIN} --version");
    for (title, target, prompt) in [
        (
            "prompt hook, a repeat among 1,000 rules (their vectors kept)",
            "a note within 150 ms of CPU",
            &repeat,
        ),
        (
            "prompt hook, an ordinary prompt among 1,000 rules",
            "<= 3 x start-up",
            &ordinary,
        ),
        (
            "prompt hook, a repeat among 1,000 rules, no vector kept",
            "every call within 1 s",
            &cold,
        ),
    ] {
        let (mut make_hook, mut make_version) = (|| sh(prompt), || sh(&version));
        let (mut n1, mut n2) = (noop, noop);
        compare(
            title,
            target,
            &mut [
                ("hook user-prompt (1,001 rules)", &mut make_hook, &mut n1),
                ("autofix --version", &mut make_version, &mut n2),
            ],
        );
    }
}

/// A re-export that changes nothing, with 3,000 rules in 100, 1,000 and 3,000 scopes (one
/// Claude Code file a scope), beside `cp -r` of the folder it checks: the work grows with
/// the files, so the ratio to the copy stays flat (listing the folder for each file made
/// it grow with their square).
fn export_by_scopes(fixture: &Fixture) {
    println!(
        "\nexport, nothing to change, 3k rules (medians; should grow linearly with the scopes)"
    );
    let mut first = None;
    for scopes in [100, 1_000, 3_000] {
        let dir = fixture.sandbox.join(format!("export-{scopes}"));
        let rules: Vec<String> = (1..=3_000)
            .map(|i| {
                format!(
                    "  {{\"Rule_number\": {i}, \"Category\": \"CODE\", \"Instruction\": \"Always keep module {i} free of side effects - because the loader runs it once.\", \"Why\": \"pattern\", \"Paths\": [\"src/part{}/**\"]}}",
                    i % scopes
                )
            })
            .collect();
        fixture.sandbox.write(
            dir.join(".agents/autofix.json"),
            format!("[\n{}\n]\n", rules.join(",\n")),
        );
        fixture
            .sandbox
            .write(dir.join(".claude/settings.json"), "{}\n");
        // Only Claude Code's files: 3,000 rules are far over AGENTS.md's budget.
        time(
            fixture
                .sandbox
                .command_in(
                    &format!("export-{scopes}"),
                    &["export", "--target", "claude"],
                )
                .current_dir(&dir),
        );
        let rules_dir = dir.join(".claude/rules").display().to_string();
        let copy = dir.join("copy").display().to_string();
        let mut export = || {
            let mut command = fixture.sandbox.command(&["export", "--target", "claude"]);
            command.current_dir(&dir);
            command
        };
        let script = format!("rm -rf {copy} && cp -r {rules_dir} {copy}");
        let mut copy_dir = || sh(&script);
        let took = median_of(ROUNDS, &mut export, &mut noop);
        let copied = median_of(ROUNDS, &mut copy_dir, &mut noop);
        let (base_scopes, base_took) = *first.get_or_insert((scopes, took));
        println!(
            "  {scopes:>5} scopes: export {:>10}, cp -r {:>10}: {:.2} x the copy; {:.2} x the export of {base_scopes} scopes",
            ms(took),
            ms(copied),
            took.as_secs_f64() / copied.as_secs_f64(),
            took.as_secs_f64() / base_took.as_secs_f64(),
        );
    }
}

/// `learn` and `rules` from 1k to 100k rules.
fn scaling(fixture: &Fixture) {
    println!("\nscaling (medians; should grow linearly with the file)");
    for (n, path) in &fixture.base {
        let mut setup = fixture.restore(*n);
        let (mut learn_samples, mut rules_samples) = (Vec::new(), Vec::new());
        for _ in 0..ROUNDS {
            setup();
            learn_samples.push(time(&mut fixture.autofix(&LEARN_ARGS)));
            setup();
            rules_samples.push(time(&mut fixture.autofix(&["rules"])));
        }
        let size = fs::metadata(path).unwrap().len();
        println!(
            "  {n:>7} rules ({:>6.1} MB): learn {:>10}, rules {:>10}",
            size as f64 / 1e6,
            ms(median(learn_samples)),
            ms(median(rules_samples))
        );
    }
}

/// Peak resident memory against the size of the file read: `rules` on 100k rules, and
/// `check` (which holds every rule's words for the consistency checks) on 100k distinct
/// rules and on a file of distinct rules near the 64 MiB cap.
fn peak_memory(fixture: &Fixture) {
    if !Path::new("/usr/bin/time").exists() {
        println!("skipped: peak memory (/usr/bin/time is not installed)");
        return;
    }
    fixture.restore(100_000)();
    let work = fixture.work();
    print_peak(
        fixture,
        "rules on 100k rules",
        "<= 3 x file size",
        &work,
        "rules",
    );
    let distinct = fixture.sandbox.join("distinct-100000.json");
    let distinct = distinct.display().to_string();
    print_peak(
        fixture,
        "check on 100k distinct rules",
        "<= 5 x file size",
        &distinct,
        "check",
    );
    // A finding on every rule: each instruction made a statement ("The keep …"), which
    // `check` warns does not read as an imperative.
    let warned = fixture.sandbox.write(
        "warned-100000.json",
        distinct_rules_file(100_000)
            .replace("\"Instruction\": \"Always ", "\"Instruction\": \"The "),
    );
    print_peak(
        fixture,
        "check on 100k distinct rules, a warning on each",
        "<= 5 x file size",
        &warned.display().to_string(),
        "check",
    );
    let large = fixture
        .sandbox
        .write("distinct-310000.json", distinct_rules_file(310_000));
    let large = large.display().to_string();
    print_peak(
        fixture,
        "check on 310k distinct rules",
        "<= 5 x file size",
        &large,
        "check",
    );
}

/// Prints the peak resident memory of `autofix --file FILE COMMAND` beside FILE's size.
fn print_peak(fixture: &Fixture, title: &str, target: &str, file: &str, command: &str) {
    let output = Command::new("/usr/bin/time")
        .args(["-v", BIN, "--file", file, command])
        .env("AUTOFIX_CEILING_DIRECTORIES", fixture.sandbox.path())
        .stdout(Stdio::null())
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{command} failed:\n{report}");
    let peak_kb: u64 = report
        .lines()
        .find_map(|l| {
            l.trim()
                .strip_prefix("Maximum resident set size (kbytes): ")
        })
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0);
    let size = fs::metadata(file).unwrap().len();
    println!(
        "\npeak memory, {title}  (target: {target})\n  {:.1} MB resident for a {:.1} MB file: {:.2} x",
        (peak_kb * 1024) as f64 / 1e6,
        size as f64 / 1e6,
        (peak_kb * 1024) as f64 / size as f64
    );
}

/// The median of `rounds` runs of `make()`, each after `setup()` (untimed).
fn median_of(
    rounds: usize,
    make: &mut dyn FnMut() -> Command,
    setup: &mut dyn FnMut(),
) -> Duration {
    let samples = (0..rounds)
        .map(|_| {
            setup();
            time(&mut make())
        })
        .collect();
    median(samples)
}

/// Three versions of a rules file: a base of 100 rules, and each side adds `n` rules of its
/// own (every one new to the other side: the replay path of the merge driver).
fn merge_versions(dir: &Path, n: usize) -> [std::path::PathBuf; 3] {
    let rule = |i: usize, tag: &str| {
        format!(
            "  {{\n    \"Rule_number\": {i},\n    \"Category\": \"CODE\",\n    \"Instruction\": \"Always keep {tag} module {i} free of side effects at import time - because the loader runs every module once.\",\n    \"Why\": \"codebase pattern\"\n  }}"
        )
    };
    let file = |tag: &str, added: usize| {
        let mut rules: Vec<String> = (1..=100).map(|i| rule(i, "base")).collect();
        rules.extend((101..=100 + added).map(|i| rule(i, tag)));
        format!("[\n{}\n]\n", rules.join(",\n"))
    };
    let write = |name: &str, text: String| {
        let path = dir.join(name);
        fs::write(&path, text).unwrap();
        path
    };
    [
        write("base.json", file("base", 0)),
        write("ours.json", file("ours", n)),
        write("theirs.json", file("theirs", n)),
    ]
}

/// The sizes issue 13 asks to stay linear: `check` at 10k and 100k rules, `preset
/// validate` on one preset of 10k and 100k commands, the merge driver with 10k and 100k new
/// rules a side (beside `git merge-file` on the same files, which merges text only).
#[test]
#[ignore = "benchmark: cargo test --release --test cli bench -- --ignored --nocapture --test-threads=1"]
fn bench_sizes() {
    const FEW: usize = 5;
    let sandbox = Sandbox::new();
    println!("\nsizes (medians of {FEW}; each should grow linearly)");
    for n in [10_000, 100_000] {
        let file = sandbox.write(format!("rules-{n}.json"), rules_file(n));
        let file = file.display().to_string();
        let took = median_of(
            FEW,
            &mut || sandbox.command(&["--file", &file, "check"]),
            &mut noop,
        );
        // Each rule scoped to a folder of its own: a scope warning on every rule.
        let scoped = rules_file(n).replace(
            "\"Why\": \"codebase pattern\"",
            "\"Why\": \"codebase pattern\", \"Paths\": [\"src/gone/**\"]",
        );
        let scoped = sandbox.write(format!("scoped-{n}.json"), scoped);
        let scoped = scoped.display().to_string();
        let took_scoped = median_of(
            FEW,
            &mut || sandbox.command(&["--file", &scoped, "check"]),
            &mut noop,
        );
        println!(
            "  check on {:>3}k scoped rules                {:>10}",
            n / 1000,
            ms(took_scoped)
        );
        println!(
            "  check on {:>3}k rules                       {:>10}",
            n / 1000,
            ms(took)
        );
    }
    for n in [10_000, 100_000] {
        let dir = sandbox.join(format!("preset-{n}"));
        write_preset(&dir, &format!("preset-{n}"), n);
        let dir = dir.display().to_string();
        let script = format!("\"$0\" preset validate {dir} > /dev/null");
        let took = median_of(FEW, &mut || sh_with(&script, BIN), &mut noop);
        println!(
            "  preset validate, {:>3}k commands            {:>10}",
            n / 1000,
            ms(took)
        );
    }
    let git = installed("git");
    for n in [10_000, 100_000] {
        let dir = sandbox.join(format!("merge-{n}"));
        fs::create_dir_all(&dir).unwrap();
        let [base, ours, theirs] = merge_versions(&dir, n);
        let pristine = fs::read(&ours).unwrap();
        let work = dir.join("work.json");
        let mut reset = || fs::write(&work, &pristine).unwrap();
        let paths = [&base, &work, &theirs].map(|p| p.display().to_string());
        let took = median_of(
            FEW,
            &mut || sandbox.command(&["merge-driver", &paths[0], &paths[1], &paths[2]]),
            &mut reset,
        );
        let mut line = format!(
            "  merge-driver, {:>3}k new rules a side        {:>10}",
            n / 1000,
            ms(took)
        );
        if git {
            let mut merge_file = || {
                let mut command = Command::new("sh");
                // Exit 1 (conflicts) is the expected outcome of a text merge here.
                let script = format!(
                    "git merge-file -p {} {} {} > /dev/null; true",
                    paths[1], paths[0], paths[2]
                );
                command.args(["-c", &script]);
                command
            };
            let text = median_of(FEW, &mut merge_file, &mut reset);
            line.push_str(&format!("  (git merge-file: {})", ms(text)));
        }
        println!("{line}");
    }
}

/// Runs git hermetically in `dir`; panics on failure.
fn git_in(sandbox: &Sandbox, dir: &Path, args: &[&str]) {
    let mut command = sandbox.program("git", args);
    crate::support::hermetic_git(&mut command).current_dir(dir);
    let output = command.output().unwrap();
    assert!(
        output.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Issue 35's cost of imported rules: the hooks with 10 sources of 1,000 rules each
/// beside the same 10,000 rules held locally (target: within 1.5x).
#[test]
#[ignore = "benchmark: cargo test --release --test cli bench -- --ignored --nocapture --test-threads=1"]
fn bench_sources() {
    let sandbox = Sandbox::new();
    if !installed("git") {
        println!("skipped: the sources comparison (git is not installed)");
        return;
    }
    let all: Vec<serde_json::Value> = serde_json::from_str(&distinct_rules_file(10_000)).unwrap();
    sandbox.write(
        "local/.agents/autofix.json",
        serde_json::to_string_pretty(&all).unwrap(),
    );
    sandbox.write("imported/.agents/autofix.json", "[]\n");
    for (k, chunk) in all.chunks(1_000).enumerate() {
        let rules: Vec<serde_json::Value> = chunk
            .iter()
            .enumerate()
            .map(|(i, rule)| {
                let mut rule = rule.clone();
                rule["Rule_number"] = serde_json::json!(i + 1);
                rule
            })
            .collect();
        let work = sandbox.join(format!("org{k}"));
        sandbox.write(
            format!("org{k}/.agents/autofix.json"),
            serde_json::to_string_pretty(&rules).unwrap(),
        );
        git_in(&sandbox, &work, &["init", "-q", "-b", "main"]);
        git_in(&sandbox, &work, &["add", "-A"]);
        git_in(&sandbox, &work, &["commit", "-q", "-m", "rules"]);
        let url = format!("file://{}", work.display());
        let mut add = sandbox.command_in("imported", &["sources", "add", &format!("s{k}"), &url]);
        crate::support::hermetic_git(&mut add);
        assert!(add.output().unwrap().status.success());
    }
    // The verified-copy cache remembers no copy changed within the last second.
    std::thread::sleep(Duration::from_millis(1100));
    for (dir, label) in [("local", "local"), ("imported", "imported")] {
        let input = serde_json::json!({
            "session_id": "s1", "cwd": sandbox.join(dir).display().to_string(),
            "hook_event_name": "UserPromptSubmit",
            "prompt": "No, always cache the zobat rules - because the team agreed on it.",
        });
        sandbox.write(format!("prompt-{label}.json"), input.to_string());
    }
    let prompt = |dir: &'static str| {
        let input = sandbox.join(format!("prompt-{dir}.json"));
        let mut command = sandbox.command_in(dir, &["hook", "user-prompt", "--agent", "claude"]);
        command.stdin(fs::File::open(input).unwrap());
        command
    };
    let session = |dir: &'static str| {
        sandbox.command_in(dir, &["rules", "--format", "hook", "--agent", "claude"])
    };
    compare(
        "prompt hook: 10 sources x 1,000 rules beside 10,000 local rules",
        "the sources within 1.5x",
        &mut [
            (
                "10 sources x 1,000 rules (hook user-prompt)",
                &mut || prompt("imported"),
                &mut noop,
            ),
            (
                "10,000 local rules (hook user-prompt)",
                &mut || prompt("local"),
                &mut noop,
            ),
        ],
    );
    compare(
        "session hook: 10 sources x 1,000 rules beside 10,000 local rules",
        "the sources within 1.5x",
        &mut [
            (
                "10 sources x 1,000 rules (rules --format hook)",
                &mut || session("imported"),
                &mut noop,
            ),
            (
                "10,000 local rules (rules --format hook)",
                &mut || session("local"),
                &mut noop,
            ),
        ],
    );
}
