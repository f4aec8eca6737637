//! Rules from git sources through the binary, with local bare repositories as sources
//! (`file://` URLs) and real git: add, update, outdated, list and remove; the lock and
//! the vendored copy verified by `check`; fail-closed updates; the offline guarantee; no
//! hook or filter of a source ever runs; caps; `--supersedes org:N` and locked rules.

use std::fs;
use std::path::{Path, PathBuf};

use crate::support::{Run, Sandbox, hermetic_git};

const MANIFEST: &str = ".agents/autofix.sources.json";
const LOCK: &str = ".agents/autofix.sources.lock.json";
const COPY: &str = ".agents/sources/org.json";

/// A source repository: a work tree (`org/`) where the test commits, pushed to a bare
/// repository (`org.git/`) that is the source's URL.
struct Origin {
    work: PathBuf,
    bare: PathBuf,
}

/// Runs git hermetically in `dir`; panics on failure.
fn git(sandbox: &Sandbox, dir: &Path, args: &[&str]) -> String {
    let mut command = sandbox.program("git", args);
    hermetic_git(&mut command).current_dir(dir);
    let output = command.output().unwrap();
    assert!(
        output.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).trim().to_string()
}

/// A rules file of `(number, category, instruction, why, locked)`.
fn rules_file(rules: &[(u64, &str, &str, &str, bool)]) -> String {
    let objects: Vec<serde_json::Value> = rules
        .iter()
        .map(|(n, category, instruction, why, locked)| {
            let mut rule = serde_json::json!({
                "Rule_number": n, "Category": category, "Instruction": instruction, "Why": why,
            });
            if *locked {
                rule["Locked"] = serde_json::json!(true);
            }
            rule
        })
        .collect();
    serde_json::to_string_pretty(&objects).unwrap() + "\n"
}

/// A rule of the source: number, category, instruction, why, locked.
type OrgRule = (u64, &'static str, &'static str, &'static str, bool);

const ORG_V1: &[OrgRule] = &[
    (
        1,
        "DATA",
        "Never log personal data - because of the GDPR.",
        "org policy",
        true,
    ),
    (
        2,
        "TOOL",
        "Always use the internal HTTP client - because it retries.",
        "org policy",
        false,
    ),
];

impl Origin {
    fn new(sandbox: &Sandbox, name: &str, rules: &str) -> Origin {
        let work = sandbox.join(name);
        fs::create_dir_all(work.join(".agents")).unwrap();
        git(sandbox, &work, &["init", "-q", "-b", "main"]);
        let origin = Origin {
            bare: sandbox.join(format!("{name}.git")),
            work,
        };
        origin.commit(".agents/autofix.json", rules, "rules");
        git(
            sandbox,
            sandbox.path(),
            &["clone", "-q", "--bare", name, &format!("{name}.git")],
        );
        origin
    }

    fn url(&self) -> String {
        format!("file://{}", self.bare.display())
    }

    fn commit(&self, path: &str, contents: &str, message: &str) {
        let sandbox_git = |args: &[&str]| {
            let mut command = std::process::Command::new("git");
            command.args(args);
            hermetic_git(&mut command).current_dir(&self.work);
            let output = command.output().unwrap();
            assert!(
                output.status.success(),
                "{}",
                String::from_utf8_lossy(&output.stderr)
            );
        };
        let file = self.work.join(path);
        fs::create_dir_all(file.parent().unwrap()).unwrap();
        fs::write(file, contents).unwrap();
        sandbox_git(&["add", "-A"]);
        sandbox_git(&["commit", "-q", "-m", message]);
    }

    fn push(&self, sandbox: &Sandbox, force: bool) {
        let bare = self.bare.display().to_string();
        let mut args = vec!["push", "-q"];
        if force {
            args.push("--force");
        }
        args.extend([bare.as_str(), "main"]);
        git(sandbox, &self.work, &args);
    }
}

/// A sandbox whose workspace (`app/`) has an empty rules file, and a source `org`.
fn setup() -> (Sandbox, Origin) {
    let sandbox = Sandbox::new();
    sandbox.write("app/.agents/autofix.json", "[]\n");
    let origin = Origin::new(&sandbox, "org", &rules_file(ORG_V1));
    (sandbox, origin)
}

/// Runs autofix in `app/`, with git isolated from the machine.
fn run(sandbox: &Sandbox, args: &[&str]) -> Run {
    let mut command = sandbox.command_in("app", args);
    Run::from_command(hermetic_git(&mut command))
}

fn add_org(sandbox: &Sandbox, origin: &Origin) -> Run {
    run(sandbox, &["sources", "add", "org", &origin.url()]).expect(0)
}

/// What Claude Code's session hook prints in `app/`.
fn claude_hook(sandbox: &Sandbox) -> String {
    run(sandbox, &["rules", "--format", "hook", "--agent", "claude"])
        .expect(0)
        .stdout
}

/// Learns a local CODE rule in `app/`.
fn learn_local(sandbox: &Sandbox, instruction: &str) {
    run(sandbox, &["learn", "-c", "code", "-w", "x", instruction]).expect(0);
}

fn lock_json(sandbox: &Sandbox) -> serde_json::Value {
    serde_json::from_str(&sandbox.read(format!("app/{LOCK}"))).unwrap()
}

#[test]
fn add_pins_vendors_and_lists_the_imported_rules() {
    let (sandbox, origin) = setup();
    let head = git(&sandbox, &origin.bare, &["rev-parse", "main"]);
    let added = add_org(&sandbox, &origin);
    assert!(
        added.stdout.starts_with("Added source org: file://"),
        "{}",
        added.stdout
    );
    assert!(
        added.stdout.contains("2 rules, 2 active"),
        "{}",
        added.stdout
    );
    let lock = lock_json(&sandbox);
    assert_eq!(lock["sources"]["org"]["commit"], head.as_str());
    assert_eq!(lock["sources"]["org"]["rules"], 2);
    // The copy is the source's file byte for byte.
    assert_eq!(sandbox.read(format!("app/{COPY}")), rules_file(ORG_V1));
    let manifest: serde_json::Value =
        serde_json::from_str(&sandbox.read(format!("app/{MANIFEST}"))).unwrap();
    assert_eq!(manifest["sources"][0]["url"], origin.url().as_str());
    assert_eq!(manifest["sources"][0]["ref"], "main");

    let rules = run(&sandbox, &["rules"]).expect(0);
    assert!(
        rules.stdout.contains("Imported from org ("),
        "{}",
        rules.stdout
    );
    assert!(
        rules.stdout.contains(
            "org:1 [DATA] Never log personal data - because of the GDPR. — org policy [locked]\n"
        ),
        "{}",
        rules.stdout
    );
    assert!(
        rules
            .stdout
            .contains("org:2 [TOOL] Always use the internal HTTP client")
    );
    let json = run(&sandbox, &["rules", "--format", "json"])
        .expect(0)
        .json();
    let imported = &json["imported"]["sources"][0];
    assert_eq!(imported["name"], "org");
    assert_eq!(imported["commit"], head.as_str());
    assert_eq!(imported["rules"][0]["id"], "org:1");
    assert_eq!(imported["rules"][0]["locked"], true);
    run(&sandbox, &["check"]).expect(0);
    let list = run(&sandbox, &["sources", "list"]).expect(0);
    assert!(list.stdout.contains("copy ok"), "{}", list.stdout);
    // A second add of the same name is refused, and changes nothing.
    let before = sandbox.read(format!("app/{LOCK}"));
    let again = run(&sandbox, &["sources", "add", "org", &origin.url()]).expect_noisy(2);
    assert!(
        again.stderr.contains("already in the manifest"),
        "{}",
        again.stderr
    );
    assert_eq!(sandbox.read(format!("app/{LOCK}")), before);
}

/// Pushes the source's second version, rule 3 superseding rule 2, and returns its rules.
fn push_v2(sandbox: &Sandbox, origin: &Origin) -> Vec<OrgRule> {
    let mut v2 = ORG_V1.to_vec();
    v2.push((
        3,
        "TOOL",
        "Always use the v2 HTTP client - because v1 is retired.",
        "supersedes rule 2",
        false,
    ));
    origin.commit(".agents/autofix.json", &rules_file(&v2), "v2");
    origin.push(sandbox, false);
    v2
}

/// Each `sources` command's output whole: add, list (text and JSON), outdated when
/// current and when behind, update's dry run and update. git's dates and identity are
/// fixed, so the commits are the same on every run.
#[test]
fn every_sources_commands_output() {
    let (sandbox, origin) = setup();
    let shown = |run: &Run| crate::snapshots::shown(&sandbox, run);
    insta::assert_snapshot!("sources_add", shown(&add_org(&sandbox, &origin)));
    for (name, args) in [
        ("sources_list", &["sources", "list"][..]),
        (
            "sources_list_json",
            &["sources", "list", "--format", "json"],
        ),
        ("sources_outdated_current", &["sources", "outdated"]),
    ] {
        insta::assert_snapshot!(name, shown(&run(&sandbox, args)));
    }
    push_v2(&sandbox, &origin);
    for (name, args) in [
        ("sources_outdated_behind", &["sources", "outdated"][..]),
        (
            "sources_update_dry_run",
            &["sources", "update", "--dry-run"],
        ),
        ("sources_update", &["sources", "update"]),
    ] {
        insta::assert_snapshot!(name, shown(&run(&sandbox, args)));
    }
}

#[test]
fn a_moved_branch_is_outdated_and_update_shows_the_rule_level_diff() {
    let (sandbox, origin) = setup();
    add_org(&sandbox, &origin);
    run(&sandbox, &["sources", "outdated"]).expect(0);
    let v2 = push_v2(&sandbox, &origin);
    let head = git(&sandbox, &origin.bare, &["rev-parse", "main"]);

    let outdated = run(&sandbox, &["sources", "outdated"]).expect(1);
    assert!(
        outdated.stdout.starts_with("org: behind: pinned "),
        "{}",
        outdated.stdout
    );
    assert!(outdated.stdout.contains(&head[..12]), "{}", outdated.stdout);

    let before = sandbox.read(format!("app/{LOCK}"));
    let dry = run(&sandbox, &["sources", "update", "--dry-run"]).expect(0);
    assert!(dry.stdout.contains("would move"), "{}", dry.stdout);
    assert_eq!(
        sandbox.read(format!("app/{LOCK}")),
        before,
        "--dry-run wrote the lock"
    );

    let updated = run(&sandbox, &["sources", "update"]).expect(0);
    assert!(updated.stdout.contains("org: moved "), "{}", updated.stdout);
    assert!(
        updated
            .stdout
            .contains("  + org:3 [TOOL] Always use the v2 HTTP client"),
        "{}",
        updated.stdout
    );
    assert!(
        updated.stdout.contains("  = org:2 now superseded by org:3"),
        "{}",
        updated.stdout
    );
    assert_eq!(
        lock_json(&sandbox)["sources"]["org"]["commit"],
        head.as_str()
    );
    assert_eq!(sandbox.read(format!("app/{COPY}")), rules_file(&v2));
    run(&sandbox, &["sources", "outdated"]).expect(0);

    // Updating again changes no byte.
    let lock = sandbox.read(format!("app/{LOCK}"));
    let again = run(&sandbox, &["sources", "update"]).expect(0);
    assert!(
        again.stdout.contains("org: up to date at "),
        "{}",
        again.stdout
    );
    assert_eq!(sandbox.read(format!("app/{LOCK}")), lock);

    // The source's own supersede is applied: org:2 is no longer listed as active.
    let rules = run(&sandbox, &["rules"]).expect(0).stdout;
    assert!(!rules.contains("org:2 "), "{rules}");
    let all = run(&sandbox, &["rules", "--all"]).expect(0).stdout;
    assert!(all.contains("[superseded by org:3]"), "{all}");
}

#[test]
fn a_force_pushed_pin_fails_closed_and_writes_nothing() {
    let (sandbox, origin) = setup();
    add_org(&sandbox, &origin);
    let mut v2 = ORG_V1.to_vec();
    v2.push((
        3,
        "CODE",
        "Always write tests first - because they find bugs.",
        "org policy",
        false,
    ));
    origin.commit(".agents/autofix.json", &rules_file(&v2), "v2");
    origin.push(&sandbox, false);
    run(&sandbox, &["sources", "update"]).expect(0);
    let (lock, copy) = (
        sandbox.read(format!("app/{LOCK}")),
        sandbox.read(format!("app/{COPY}")),
    );

    // Rewrite history: the pinned commit is no longer on `main`.
    git(&sandbox, &origin.work, &["reset", "-q", "--hard", "HEAD~1"]);
    origin.commit("README", "rewritten\n", "rewrite");
    origin.push(&sandbox, true);
    let outdated = run(&sandbox, &["sources", "outdated"]).expect(1);
    assert!(
        outdated.stdout.contains("org: rewritten: pinned "),
        "{}",
        outdated.stdout
    );
    let update = run(&sandbox, &["sources", "update"]).expect_noisy(1);
    assert!(
        update.stderr.contains("is not in the history of `main`"),
        "{}",
        update.stderr
    );
    assert!(
        update.stderr.contains("Nothing was written"),
        "{}",
        update.stderr
    );
    assert_eq!(sandbox.read(format!("app/{LOCK}")), lock);
    assert_eq!(sandbox.read(format!("app/{COPY}")), copy);
    assert!(
        update
            .stderr
            .contains("`autofix sources update --force org`"),
        "{}",
        update.stderr
    );
    // Re-pinned on purpose, after review: no remove-and-re-add.
    let forced = run(&sandbox, &["sources", "update", "--force", "org"]).expect(0);
    assert!(
        forced.stdout.contains("- org:3 [CODE]"),
        "{}",
        forced.stdout
    );
    let head = git(&sandbox, &origin.bare, &["rev-parse", "main"]);
    assert_eq!(
        lock_json(&sandbox)["sources"]["org"]["commit"],
        head.as_str()
    );
    run(&sandbox, &["check"]).expect(0);
}

#[test]
fn a_tampered_copy_fails_check_is_left_out_and_blocks_update() {
    let (sandbox, origin) = setup();
    add_org(&sandbox, &origin);
    let copy = sandbox.read(format!("app/{COPY}"));
    sandbox.write(format!("app/{COPY}"), copy.replace("GDPR", "fun"));
    let check = run(&sandbox, &["check"]).expect(1);
    assert!(
        check
            .stdout
            .contains("error[source-tampered]: source `org`"),
        "{}",
        check.stdout
    );
    assert!(
        !check.stdout.contains("dangling-source-rule"),
        "{}",
        check.stdout
    );
    let json = run(&sandbox, &["check", "--format", "json"])
        .expect(1)
        .json();
    assert_eq!(json["diagnostics"][0]["code"], "source-tampered");
    // No tampered text reaches an agent.
    let rules = run(&sandbox, &["rules"]).expect(0).stdout;
    assert!(!rules.contains("fun"), "{rules}");
    assert!(rules.contains("Left out: source `org`"), "{rules}");
    let lock = sandbox.read(format!("app/{LOCK}"));
    let update = run(&sandbox, &["sources", "update"]).expect_noisy(1);
    assert!(
        update.stderr.contains("does not match the lock's sha256"),
        "{}",
        update.stderr
    );
    assert_eq!(sandbox.read(format!("app/{LOCK}")), lock);
    // A missing copy and a lock that no longer matches the manifest are errors too.
    fs::remove_file(sandbox.join(format!("app/{COPY}"))).unwrap();
    let missing = run(&sandbox, &["check"]).expect(1);
    assert!(
        missing.stdout.contains("error[source-copy-missing]"),
        "{}",
        missing.stdout
    );
    let update = run(&sandbox, &["sources", "update"]).expect_noisy(1);
    assert!(
        update
            .stderr
            .contains("the vendored copy .agents/sources/org.json is missing"),
        "{}",
        update.stderr
    );
    assert_eq!(sandbox.read(format!("app/{LOCK}")), lock);
    let manifest = sandbox.read(format!("app/{MANIFEST}"));
    sandbox.write(
        format!("app/{MANIFEST}"),
        manifest.replace("\"main\"", "\"v2\""),
    );
    let stale = run(&sandbox, &["check"]).expect(1);
    assert!(
        stale.stdout.contains("error[source-lock-stale]"),
        "{}",
        stale.stdout
    );
}

#[test]
fn with_no_cache_and_an_unreachable_url_every_command_gives_the_same_output() {
    let (sandbox, origin) = setup();
    add_org(&sandbox, &origin);
    learn_local(&sandbox, "Always use named exports.");
    let commands: &[&[&str]] = &[
        &["rules"],
        &["rules", "--all", "--format", "json"],
        &["check"],
        &["check", "--format", "sarif"],
        &["sources", "list"],
        &["export", "--dry-run"],
        &["rules", "--format", "hook", "--agent", "claude"],
    ];
    let before: Vec<(i32, String)> = commands
        .iter()
        .map(|args| {
            let run = run(&sandbox, args);
            (run.code, run.stdout)
        })
        .collect();
    fs::remove_dir_all(&origin.bare).unwrap();
    fs::remove_dir_all(&origin.work).unwrap();
    for (args, before) in commands.iter().zip(&before) {
        let now = run(&sandbox, args);
        assert_eq!((now.code, &now.stdout), (before.0, &before.1), "{args:?}");
    }
    // Only the commands that go to the server notice.
    let outdated = run(&sandbox, &["sources", "outdated"]).expect(2);
    assert!(
        outdated.stdout.starts_with("org: unknown: "),
        "{}",
        outdated.stdout
    );
    run(&sandbox, &["sources", "update"]).expect_noisy(2);
    // Nothing was cached outside the repository.
    assert_eq!(fs::read_dir(sandbox.join("home")).unwrap().count(), 0);
}

#[test]
fn a_sources_hooks_and_gitattributes_filters_never_run() {
    let (sandbox, origin) = setup();
    let sentinel = sandbox.join("sentinel");
    let hooks = sandbox.join("hooks");
    fs::create_dir_all(&hooks).unwrap();
    for hook in [
        "post-checkout",
        "reference-transaction",
        "post-merge",
        "post-rewrite",
    ] {
        let path = hooks.join(hook);
        fs::write(
            &path,
            format!("#!/bin/sh\necho {hook} >> '{}'\n", sentinel.display()),
        )
        .unwrap();
        fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    }
    let smudge = hooks.join("smudge");
    fs::write(
        &smudge,
        format!("#!/bin/sh\necho smudge >> '{}'\ncat\n", sentinel.display()),
    )
    .unwrap();
    fs::set_permissions(&smudge, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let config = sandbox.write(
        "trap.gitconfig",
        format!(
            "[core]\n\thooksPath = {}\n[filter \"evil\"]\n\tsmudge = {}\n\tclean = cat\n\trequired = true\n",
            hooks.display(),
            smudge.display()
        ),
    );
    origin.commit(".gitattributes", "*.json filter=evil\n", "attributes");
    origin.push(&sandbox, false);
    // The trap works: a plain clone with this configuration runs both.
    let mut clone = sandbox.program("git", &["clone", "-q", &origin.url(), "probe"]);
    hermetic_git(&mut clone).env("GIT_CONFIG_GLOBAL", &config);
    Run::from_command(&mut clone).expect_noisy(0);
    let sprung = fs::read_to_string(&sentinel).unwrap_or_default();
    assert!(
        sprung.contains("smudge") && sprung.contains("post-checkout"),
        "{sprung}"
    );
    fs::remove_file(&sentinel).unwrap();

    for args in [
        &["sources", "add", "org", &origin.url()][..],
        &["sources", "update"],
        &["sources", "outdated"],
    ] {
        let mut command = sandbox.command_in("app", args);
        hermetic_git(&mut command).env("GIT_CONFIG_GLOBAL", &config);
        Run::from_command(&mut command).expect(0);
    }
    assert!(
        !sentinel.exists(),
        "{}",
        fs::read_to_string(&sentinel).unwrap()
    );
    assert_eq!(sandbox.read(format!("app/{COPY}")), rules_file(ORG_V1));
}

#[test]
fn a_source_whose_globs_a_local_rule_could_not_hold_is_refused() {
    let (sandbox, _origin) = setup();
    for (name, paths, said) in [
        (
            "escape",
            "[\"src/\\u001b[2J**\"]",
            "holds a control, bidirectional or invisible",
        ),
        (
            "bidi",
            "[\"src/\\u202e/**\"]",
            "holds a control, bidirectional or invisible",
        ),
        ("number", "5", "is not an array of glob strings"),
        ("excludes", "[\"!src/**\"]", "rule 1's `Paths`: "),
        ("parent", "[\"../secrets/**\"]", "rule 1's `Paths`: "),
    ] {
        let source = Origin::new(
            &sandbox,
            name,
            &format!(
                "[{{\"Rule_number\": 1, \"Category\": \"CODE\", \"Instruction\": \"Always do it.\", \"Why\": \"x\", \"Paths\": {paths}}}]\n"
            ),
        );
        let refused = run(&sandbox, &["sources", "add", name, &source.url()]).expect_noisy(2);
        assert!(refused.stderr.contains(said), "{name}: {}", refused.stderr);
        assert!(!sandbox.join(format!("app/{LOCK}")).exists(), "{name}");
    }
}

/// An imported rule's braces pass the same gate as a local rule's, at the cost of their
/// result: `{a,a}` 30 times is one glob, vendored and matched at once by the hooks;
/// braces past the cap are refused before anything is written.
#[test]
fn an_imported_rules_braces_are_bounded_by_their_result() {
    let (sandbox, _origin) = setup();
    let rule = |paths: &str| {
        format!(
            "[{{\"Rule_number\": 1, \"Category\": \"CODE\", \"Instruction\": \"Always do it.\", \"Why\": \"x\", \"Paths\": [\"{paths}\"]}}]\n"
        )
    };
    let many = Origin::new(&sandbox, "many", &rule(&"{a,b}".repeat(30)));
    let refused = run(&sandbox, &["sources", "add", "many", &many.url()]).expect_noisy(2);
    assert!(
        refused
            .stderr
            .contains("has braces that expand to more than 64 globs"),
        "{}",
        refused.stderr
    );
    assert!(!sandbox.join(format!("app/{LOCK}")).exists());
    let repeated = Origin::new(&sandbox, "repeated", &rule(&"{a,a}".repeat(30)));
    let bounded = |args: &[&str]| {
        let mut command = sandbox.command_in("app", args);
        Run::within(hermetic_git(&mut command), 60)
    };
    let added = bounded(&["sources", "add", "repeated", &repeated.url()]);
    assert_eq!(added.code, 0, "{}", added.stderr);
    let path = "a".repeat(30);
    let listed = bounded(&["rules", "--for", &path, "--format", "json"]);
    assert!(listed.stdout.contains("Always do it."), "{}", listed.stdout);
    let hook = bounded(&["rules", "--format", "hook", "--agent", "claude"]);
    assert_eq!(hook.code, 0, "{}", hook.stderr);
    let prompt = r#"{"hook_event_name": "UserPromptSubmit", "prompt": "no, always do it"}"#;
    let mut command = sandbox.command_in("app", &["hook", "user-prompt", "--agent", "claude"]);
    let stdin = sandbox.write("prompt.json", prompt);
    command.stdin(fs::File::open(stdin).unwrap());
    assert_eq!(Run::within(hermetic_git(&mut command), 60).code, 0);
}

/// A source of one rule says "1 rule", in `add` and in `list`.
#[test]
fn a_source_of_one_rule_is_counted_in_the_singular() {
    let sandbox = Sandbox::new();
    sandbox.write("app/.agents/autofix.json", "[]\n");
    let one = Origin::new(&sandbox, "one", &rules_file(&ORG_V1[..1]));
    let added = run(&sandbox, &["sources", "add", "one", &one.url()]).expect(0);
    assert!(
        added.stdout.contains("): 1 rule, 1 active;"),
        "{}",
        added.stdout
    );
    let listed = run(&sandbox, &["sources", "list"]).expect(0);
    assert!(
        listed.stdout.contains(", 1 rule, copy ok"),
        "{}",
        listed.stdout
    );
}

#[test]
fn oversized_sources_and_unsafe_urls_or_refs_are_refused_before_anything_is_written() {
    let (sandbox, origin) = setup();
    let big = Origin::new(
        &sandbox,
        "big",
        &format!(
            "[{{\"Rule_number\": 1, \"Category\": \"CODE\", \"Instruction\": \"Always {}.\", \"Why\": \"x\"}}]\n",
            "a".repeat(1_100_000)
        ),
    );
    let refused = run(&sandbox, &["sources", "add", "big", &big.url()]).expect_noisy(1);
    assert!(
        refused.stderr.contains("is over the cap of 1048576"),
        "{}",
        refused.stderr
    );
    let many: Vec<(u64, &str, &str, &str, bool)> = (1..=5_001)
        .map(|n| (n, "CODE", "Always do it.", "x", false))
        .collect();
    let many = Origin::new(&sandbox, "many", &rules_file(&many));
    let refused = run(&sandbox, &["sources", "add", "many", &many.url()]).expect_noisy(1);
    assert!(
        refused
            .stderr
            .contains("5001 rules is over the cap of 5000"),
        "{}",
        refused.stderr
    );
    let long = Origin::new(
        &sandbox,
        "long",
        &rules_file(&[(
            1,
            "CODE",
            &format!("Always {}.", "b".repeat(5_000)),
            "x",
            false,
        )]),
    );
    run(&sandbox, &["sources", "add", "long", &long.url()]).expect_noisy(1);
    let url = origin.url();
    for args in [
        vec![
            "sources",
            "add",
            "x",
            &url,
            "--ref=--upload-pack=touch /tmp/x",
        ],
        vec!["sources", "add", "x", "ext::sh -c touch% /tmp/x"],
        vec!["sources", "add", "x", "http://example.com/x.git"],
        vec!["sources", "add", "x", &url, "--path", "../etc/passwd"],
        vec!["sources", "add", "user", &url],
    ] {
        let refused = run(&sandbox, &args).expect_noisy(2);
        assert!(
            refused.stderr.starts_with("error: "),
            "{args:?}: {}",
            refused.stderr
        );
    }
    assert!(!sandbox.join(format!("app/{MANIFEST}")).exists());
    assert!(!sandbox.join(format!("app/{LOCK}")).exists());
    assert!(!sandbox.join("app/.agents/sources").exists());
}

#[test]
fn supersedes_org_n_hides_it_and_a_locked_rule_needs_the_manifest_override() {
    let (sandbox, origin) = setup();
    add_org(&sandbox, &origin);
    let learned = run(
        &sandbox,
        &[
            "learn",
            "-c",
            "tool",
            "-w",
            "team choice",
            "--supersedes",
            "org:2",
            "Always use curl for HTTP calls.",
        ],
    )
    .expect(0);
    assert!(
        learned.stdout.starts_with("Learned rule #1"),
        "{}",
        learned.stdout
    );
    let rules = run(&sandbox, &["rules"]).expect(0).stdout;
    assert!(
        rules.contains(
            "1 [TOOL] Always use curl for HTTP calls. — team choice (supersedes org:2)\n"
        ),
        "{rules}"
    );
    assert!(!rules.contains("org:2 "), "{rules}");
    let all = run(&sandbox, &["rules", "--all"]).expect(0).stdout;
    assert!(all.contains("org:2 [TOOL] Always use the internal HTTP client - because it retries. — org policy [superseded by local rule 1]"), "{all}");

    // A locked rule: refused, nothing written.
    let file = sandbox.read("app/.agents/autofix.json");
    let refused = run(
        &sandbox,
        &[
            "learn",
            "-c",
            "data",
            "-w",
            "debugging",
            "--supersedes",
            "org:1",
            "Always log request bodies.",
        ],
    )
    .expect_noisy(1);
    assert!(
        refused.stderr.contains("org:1 is locked by its source"),
        "{}",
        refused.stderr
    );
    assert_eq!(sandbox.read("app/.agents/autofix.json"), file);
    // A missing imported rule is an error, as a missing local one.
    run(
        &sandbox,
        &[
            "learn",
            "-c",
            "code",
            "-w",
            "x",
            "--supersedes",
            "org:9",
            "Always x.",
        ],
    )
    .expect_noisy(2);
}

/// `learn --json` reads an imported rule in `Supersedes` as `--supersedes org:2` and MCP's
/// `supersedes` take it: the same request, so the same rule and marker.
#[test]
fn learn_json_supersedes_org_n_as_the_flag_does() {
    let (sandbox, origin) = setup();
    add_org(&sandbox, &origin);
    let json = r#"{"Category": "tool", "Why": "team choice", "Supersedes": ["org:2"],
        "Instruction": "Always use curl for HTTP calls."}"#;
    let learned = sandbox
        .run_with_stdin_in("app", &["learn", "--json"], json)
        .expect(0);
    assert!(
        learned.stdout.starts_with("Learned rule #1"),
        "{}",
        learned.stdout
    );
    let rules = run(&sandbox, &["rules"]).expect(0).stdout;
    assert!(
        rules.contains(
            "1 [TOOL] Always use curl for HTTP calls. — team choice (supersedes org:2)\n"
        ),
        "{rules}"
    );
    // A locked one is refused as the flag refuses it.
    let json = r#"{"Category": "data", "Why": "debugging", "Supersedes": [1, "org:1"],
        "Instruction": "Always log request bodies."}"#;
    let refused = sandbox
        .run_with_stdin_in("app", &["learn", "--json"], json)
        .expect_noisy(1);
    assert!(
        refused.stderr.contains("org:1 is locked by its source"),
        "{}",
        refused.stderr
    );
    let reply = mcp_call(
        &sandbox,
        "learn",
        serde_json::json!({"category": "tool", "why": "w", "supersedes": ["org:2"],
            "instruction": "Always use wget for HTTP calls.", "dry_run": true}),
    );
    let result = &reply["result"];
    assert_eq!(result["isError"], false, "{reply}");
    assert_eq!(
        result["structuredContent"]["rule"]["Why"], "w (supersedes org:2)",
        "{reply}"
    );
    let reply = mcp_call(
        &sandbox,
        "learn",
        serde_json::json!({"category": "data", "why": "w", "supersedes": ["org:1"],
            "instruction": "Always log request bodies."}),
    );
    let text = reply["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("org:1 is locked by its source"), "{reply}");
}

#[test]
fn a_locked_rule_stays_until_the_manifest_overrides_it_and_check_says_so_every_time() {
    let (sandbox, origin) = setup();
    add_org(&sandbox, &origin);
    let file = sandbox.read("app/.agents/autofix.json");
    // Written by hand, the supersede does not hide it, and check says so.
    let mut rules: serde_json::Value = serde_json::from_str(&file).unwrap();
    rules.as_array_mut().unwrap().push(serde_json::json!({
        "Rule_number": 2, "Category": "DATA", "Instruction": "Always log request bodies.", "Why": "debugging (supersedes org:1)"
    }));
    sandbox.write(
        "app/.agents/autofix.json",
        serde_json::to_string_pretty(&rules).unwrap(),
    );
    let check = run(&sandbox, &["check"]).expect(1);
    assert!(
        check
            .stdout
            .contains("error[source-locked-rule]: rule 2 supersedes org:1"),
        "{}",
        check.stdout
    );
    let listed = run(&sandbox, &["rules"]).expect(0).stdout;
    assert!(
        listed.contains("org:1 [DATA] Never log personal data"),
        "{listed}"
    );
    assert!(
        listed.contains("[locked: kept over rule 2 (no manifest override)]"),
        "{listed}"
    );

    // With the reviewed override, it is hidden, and check warns every time.
    let mut manifest: serde_json::Value =
        serde_json::from_str(&sandbox.read(format!("app/{MANIFEST}"))).unwrap();
    manifest["overrides"] = serde_json::json!({"org:1": "this service logs no personal data"});
    sandbox.write(
        format!("app/{MANIFEST}"),
        serde_json::to_string_pretty(&manifest).unwrap(),
    );
    for _ in 0..2 {
        let check = run(&sandbox, &["check"]).expect(0);
        assert!(check.stdout.contains("warning[source-override]: rule 2 overrides the locked rule org:1 (manifest: this service logs no personal data)"), "{}", check.stdout);
    }
    assert!(
        !run(&sandbox, &["rules"])
            .expect(0)
            .stdout
            .contains("org:1 ")
    );
    run(
        &sandbox,
        &[
            "learn",
            "-c",
            "data",
            "-w",
            "y",
            "--supersedes",
            "org:1",
            "Always log headers.",
        ],
    )
    .expect(0);
    // An override that names no locked rule is a warning.
    manifest["overrides"]["org:2"] = serde_json::json!("not locked");
    sandbox.write(
        format!("app/{MANIFEST}"),
        serde_json::to_string_pretty(&manifest).unwrap(),
    );
    let check = run(&sandbox, &["check"]).expect(0);
    assert!(
        check.stdout.contains("warning[source-override-unused]: the manifest overrides org:2, which is no locked imported rule"),
        "{}",
        check.stdout
    );
    assert!(
        !check.stdout.contains("overrides org:1, which"),
        "{}",
        check.stdout
    );
    // A reference to a source that does not exist.
    rules.as_array_mut().unwrap().push(serde_json::json!({
        "Rule_number": 9, "Category": "CODE", "Instruction": "Always x.", "Why": "supersedes team:3"
    }));
    sandbox.write(
        "app/.agents/autofix.json",
        serde_json::to_string_pretty(&rules).unwrap(),
    );
    let check = run(&sandbox, &["check"]).expect(1);
    assert!(
        check
            .stdout
            .contains("error[dangling-source-rule]: rule 9 supersedes team:3"),
        "{}",
        check.stdout
    );
}

#[test]
fn concurrent_adds_and_updates_lose_nothing() {
    let sandbox = Sandbox::new();
    sandbox.write("app/.agents/autofix.json", "[]\n");
    let names = ["a", "b", "c", "d"];
    let origins: Vec<Origin> = names
        .iter()
        .map(|name| Origin::new(&sandbox, name, &rules_file(ORG_V1)))
        .collect();
    let children: Vec<_> = names
        .iter()
        .zip(&origins)
        .map(|(name, origin)| {
            let mut command = sandbox.command_in("app", &["sources", "add", name, &origin.url()]);
            hermetic_git(&mut command)
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    let lock = lock_json(&sandbox);
    let manifest: serde_json::Value =
        serde_json::from_str(&sandbox.read(format!("app/{MANIFEST}"))).unwrap();
    for name in names {
        assert!(
            lock["sources"][name]["commit"].is_string(),
            "{name}: {lock}"
        );
        assert!(
            manifest["sources"]
                .as_array()
                .unwrap()
                .iter()
                .any(|s| s["name"] == name),
            "{name}"
        );
    }
    run(&sandbox, &["check"]).expect(0);
    // Each source moves; four updates at once, one per source.
    for origin in &origins {
        origin.commit("README", "moved\n", "move");
        origin.push(&sandbox, false);
    }
    let children: Vec<_> = names
        .iter()
        .map(|name| {
            let mut command = sandbox.command_in("app", &["sources", "update", name]);
            hermetic_git(&mut command)
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    // And four updates of one source at once all succeed, with one pin.
    origins[0].commit("README", "moved again\n", "move");
    origins[0].push(&sandbox, false);
    let children: Vec<_> = (0..4)
        .map(|_| {
            let mut command = sandbox.command_in("app", &["sources", "update", "a"]);
            hermetic_git(&mut command)
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    let lock = lock_json(&sandbox);
    for (name, origin) in names.iter().zip(&origins) {
        let head = git(&sandbox, &origin.bare, &["rev-parse", "main"]);
        assert_eq!(lock["sources"][name]["commit"], head.as_str(), "{name}");
    }
    run(&sandbox, &["check"]).expect(0);
}

#[test]
fn personal_rules_reach_the_listing_and_the_hook_but_no_committed_file() {
    let (sandbox, origin) = setup();
    add_org(&sandbox, &origin);
    let personal = "Always write commit messages in the imperative.";
    let config = sandbox.join("xdg");
    let user = |args: &[&str]| {
        let mut command = sandbox.command_in("app", args);
        Run::from_command(hermetic_git(&mut command).env("XDG_CONFIG_HOME", &config))
    };
    run(&sandbox, &["export"]).expect(0);
    let learned = user(&["learn", "--user", "-c", "style", "-w", "my taste", personal]).expect(0);
    assert!(
        learned.stdout.contains("xdg/autofix/autofix.json"),
        "{}",
        learned.stdout
    );
    let listed = user(&["rules"]).expect(0).stdout;
    assert!(
        listed.contains(&format!("user:1 [STYLE] {personal} — my taste\n")),
        "{listed}"
    );
    let json = user(&["rules", "--format", "json"]).expect(0).json();
    assert_eq!(json["imported"]["user"]["rules"][0]["id"], "user:1");
    // Markdown is for pasting into committed files: imported rules yes, personal ones no.
    let markdown = user(&["rules", "--format", "markdown"]).expect(0).stdout;
    assert!(
        markdown.contains("- **org:1** [DATA] Never log personal data"),
        "{markdown}"
    );
    assert!(!markdown.contains(personal), "{markdown}");
    // Without XDG_CONFIG_HOME it is read from $HOME/.config; here HOME has none.
    assert!(
        !run(&sandbox, &["rules"])
            .expect(0)
            .stdout
            .contains(personal)
    );

    // The session hook carries it, even where AGENTS.md carries the repository's rules.
    learn_local(&sandbox, "Always use named exports.");
    let hook = user(&["rules", "--format", "hook", "--agent", "codex"])
        .expect(0)
        .json();
    let context = hook["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        context.contains(&format!("user:1 [STYLE] {personal}")),
        "{context}"
    );
    // AGENTS.md carries the local and the imported rules; the hook only the personal ones.
    for carried in ["org:1 [DATA]", "named exports"] {
        assert!(
            !context.contains(carried),
            "AGENTS.md carries it already: {context}"
        );
    }
    assert!(
        sandbox
            .read("app/AGENTS.md")
            .contains("- **org:1** [DATA] Never log personal data")
    );

    // Learning, exporting and updating write no personal text anywhere in the repository.
    user(&[
        "learn",
        "-c",
        "code",
        "-w",
        "x",
        "Always use early returns.",
    ])
    .expect(0);
    user(&["export", "--target", "agents-md,claude"]).expect(0);
    user(&["sources", "update"]).expect(0);
    let app = sandbox.join("app");
    for file in crate::support::files_below(&app) {
        let text = fs::read_to_string(app.join(&file)).unwrap_or_default();
        assert!(!text.contains(personal), "{file} holds the personal rule");
    }
    assert!(sandbox.read("app/AGENTS.md").contains("early returns"));
}

/// `app/` as a git repository with the sources merge driver installed and `org` added,
/// all committed on `main`.
fn merging_setup() -> (Sandbox, Origin) {
    let (sandbox, origin) = setup();
    let app = sandbox.join("app");
    git(&sandbox, &app, &["init", "-q", "-b", "main"]);
    add_org(&sandbox, &origin);
    let doctor = run(&sandbox, &["doctor"]).stdout;
    assert!(
        doctor.contains("FAIL  sources     merge.autofix-sources.driver is not set"),
        "{doctor}"
    );
    let installed = run(&sandbox, &["sources", "merge-driver", "--install"]).expect(0);
    assert!(
        installed.stdout.contains("merge=autofix-sources"),
        "{}",
        installed.stdout
    );
    assert_eq!(
        run(&sandbox, &["sources", "merge-driver", "--install"])
            .expect(0)
            .stdout,
        "The sources merge driver is installed already\n"
    );
    let doctor = run(&sandbox, &["doctor"]).stdout;
    assert!(
        doctor.contains(
            "ok    sources     .agents/autofix.sources.lock.json and .agents/autofix.sources.json merge with merge=autofix-sources"
        ),
        "{doctor}"
    );
    git(&sandbox, &app, &["add", "-A"]);
    git(&sandbox, &app, &["commit", "-q", "-m", "import org"]);
    (sandbox, origin)
}

/// Commits a new version of org's rules with rule `n` added, and pushes it.
fn org_learns(
    sandbox: &Sandbox,
    origin: &Origin,
    rules: &mut Vec<OrgRule>,
    n: u64,
    text: &'static str,
) {
    rules.push((n, "CODE", text, "org policy", false));
    origin.commit(".agents/autofix.json", &rules_file(rules), text);
    origin.push(sandbox, false);
}

/// The source learns two rules; branch `early` updates the lock after the first, `main`
/// after the second; merging `early` into `main` goes through the driver and keeps the later
/// pin. Returns that pin and the source's rules.
fn merge_two_pin_updates(sandbox: &Sandbox, origin: &Origin, app: &Path) -> (String, Vec<OrgRule>) {
    let mut rules = ORG_V1.to_vec();
    org_learns(sandbox, origin, &mut rules, 3, "Always write tests first.");
    git(sandbox, app, &["checkout", "-q", "-b", "early"]);
    run(sandbox, &["sources", "update"]).expect(0);
    git(sandbox, app, &["commit", "-q", "-am", "update org (early)"]);
    org_learns(
        sandbox,
        origin,
        &mut rules,
        4,
        "Always review your own diff first.",
    );
    let head = git(sandbox, &origin.bare, &["rev-parse", "main"]);
    git(sandbox, app, &["checkout", "-q", "main"]);
    run(sandbox, &["sources", "update"]).expect(0);
    git(sandbox, app, &["commit", "-q", "-am", "update org (late)"]);

    let mut merge = sandbox.program("git", &["merge", "-q", "--no-edit", "early"]);
    hermetic_git(&mut merge).current_dir(app);
    let merged = Run::from_command(&mut merge).expect_noisy(0);
    assert!(
        merged.stderr.contains("autofix sources merge-driver: "),
        "{}",
        merged.stderr
    );
    assert_eq!(
        lock_json(sandbox)["sources"]["org"]["commit"],
        head.as_str()
    );
    assert_eq!(sandbox.read(format!("app/{COPY}")), rules_file(&rules));
    (head, rules)
}

#[test]
fn two_branches_updating_the_lock_merge_when_one_pin_descends_from_the_other() {
    let (sandbox, origin) = merging_setup();
    let app = sandbox.join("app");
    let (head, rules) = merge_two_pin_updates(&sandbox, &origin, &app);
    run(&sandbox, &["check"]).expect(0);

    // A rebase of the later update onto the earlier one: theirs (the replayed commit)
    // descends, and wins.
    git(&sandbox, &app, &["reset", "-q", "--hard", "HEAD^1"]);
    let mut rebase = sandbox.program("git", &["rebase", "-q", "early"]);
    hermetic_git(&mut rebase).current_dir(&app);
    let rebased = Run::from_command(&mut rebase).expect_noisy(0);
    assert!(
        rebased.stderr.contains("autofix sources merge-driver: "),
        "{}",
        rebased.stderr
    );
    assert_eq!(
        lock_json(&sandbox)["sources"]["org"]["commit"],
        head.as_str()
    );
    assert_eq!(sandbox.read(format!("app/{COPY}")), rules_file(&rules));
    run(&sandbox, &["check"]).expect(0);
}

#[test]
fn two_pins_on_diverged_histories_stay_a_conflict() {
    let (sandbox, origin) = merging_setup();
    let app = sandbox.join("app");
    let mut rules = ORG_V1.to_vec();
    org_learns(
        &sandbox,
        &origin,
        &mut rules,
        3,
        "Always write tests first.",
    );
    git(&sandbox, &app, &["checkout", "-q", "-b", "other"]);
    run(&sandbox, &["sources", "update"]).expect(0);
    git(
        &sandbox,
        &app,
        &["commit", "-q", "-am", "update org (other)"],
    );
    // org rewrites its last commit: the two pins diverge.
    git(&sandbox, &origin.work, &["reset", "-q", "--hard", "HEAD~1"]);
    let mut rewritten = ORG_V1.to_vec();
    rewritten.push((3, "CODE", "Always write tests after.", "org policy", false));
    origin.commit(".agents/autofix.json", &rules_file(&rewritten), "rewritten");
    origin.push(&sandbox, true);
    git(&sandbox, &app, &["checkout", "-q", "main"]);
    run(&sandbox, &["sources", "update"]).expect(0);
    git(
        &sandbox,
        &app,
        &["commit", "-q", "-am", "update org (main)"],
    );

    let mut merge = sandbox.program("git", &["merge", "-q", "--no-edit", "other"]);
    hermetic_git(&mut merge).current_dir(&app);
    let merged = Run::from_command(&mut merge).expect_noisy(1);
    assert!(
        merged
            .stderr
            .contains("neither pin of `org` descends from the other"),
        "{}",
        merged.stderr
    );
    assert!(
        merged.stderr.contains("warning[source-merge-refused]: "),
        "{}",
        merged.stderr
    );
    assert!(sandbox.read(format!("app/{LOCK}")).contains("<<<<<<< ours"));
    run(&sandbox, &["check"]).expect(1);
}

#[test]
fn the_mcp_rules_tool_lists_the_imported_rules_too() {
    let (sandbox, origin) = setup();
    add_org(&sandbox, &origin);
    let request = serde_json::json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "rules", "arguments": {}}
    });
    let run = sandbox.run_with_stdin_in("app", &["mcp"], &format!("{request}\n"));
    let reply: serde_json::Value =
        serde_json::from_str(run.stdout.lines().next().unwrap()).unwrap();
    let text = reply["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("org:2 [TOOL] Always use the internal HTTP client"),
        "{text}"
    );
    let structured = &reply["result"]["structuredContent"];
    assert_eq!(
        structured["imported"]["sources"][0]["rules"][1]["id"], "org:2",
        "{reply}"
    );
}

#[test]
fn scoped_imported_rules_follow_rules_for_and_layer_conflicts_are_reported_with_the_winner() {
    let sandbox = Sandbox::new();
    sandbox.write("app/.agents/autofix.json", "[]\n");
    let origin = scoped_origin(&sandbox);
    add_org(&sandbox, &origin);
    let api = run(&sandbox, &["rules", "--for", "src/api/users.ts"])
        .expect(0)
        .stdout;
    assert!(
        api.contains("org:2 [CODE] Always validate request bodies"),
        "{api}"
    );
    let docs = run(&sandbox, &["rules", "--for", "docs/index.md"])
        .expect(0)
        .stdout;
    assert!(!docs.contains("org:2 "), "{docs}");
    assert!(docs.contains("org:1 [STYLE]"), "{docs}");
    let hook = claude_hook(&sandbox);
    assert!(
        hook.contains("org:1 [STYLE]") && !hook.contains("org:2 "),
        "{hook}"
    );

    run(&sandbox, &["check"]).expect(0);
    run(
        &sandbox,
        &[
            "learn",
            "-c",
            "style",
            "-w",
            "house style",
            "--force",
            "Never use tabs for indentation.",
        ],
    )
    .expect(0);
    let check = run(&sandbox, &["check"]).expect(0);
    assert!(
        check.stdout.contains("warning[layer-conflict]: local rule 1 and org:1 contradict each other and neither supersedes the other: local rule 1 wins"),
        "{}",
        check.stdout
    );
    // Declaring it settles it.
    run(
        &sandbox,
        &[
            "learn",
            "-c",
            "style",
            "-w",
            "house style",
            "--supersedes",
            "1",
            "--supersedes",
            "org:1",
            "Never use tabs for indentation anywhere.",
        ],
    )
    .expect_noisy(0);
    let settled = run(&sandbox, &["check"]).expect(0);
    assert!(
        !settled.stdout.contains("layer-conflict"),
        "{}",
        settled.stdout
    );
}

#[test]
fn the_rules_file_merge_driver_keeps_org_references_as_written() {
    let (sandbox, _origin) = merging_setup();
    let app = sandbox.join("app");
    run(&sandbox, &["merge-driver", "--install"]).expect(0);
    git(&sandbox, &app, &["add", "-A"]);
    git(&sandbox, &app, &["commit", "-q", "-m", "driver"]);
    git(&sandbox, &app, &["checkout", "-q", "-b", "feature"]);
    run(
        &sandbox,
        &[
            "learn",
            "-c",
            "tool",
            "-w",
            "partner API",
            "--supersedes",
            "org:2",
            "Always use curl for the partner API.",
        ],
    )
    .expect(0);
    git(&sandbox, &app, &["commit", "-q", "-am", "feature rule"]);
    git(&sandbox, &app, &["checkout", "-q", "main"]);
    learn_local(&sandbox, "Always use named exports.");
    git(&sandbox, &app, &["commit", "-q", "-am", "main rule"]);
    let mut merge = sandbox.program("git", &["merge", "-q", "--no-edit", "feature"]);
    hermetic_git(&mut merge).current_dir(&app);
    let merged = Run::from_command(&mut merge).expect_noisy(0);
    assert!(
        merged.stderr.contains("autofix merge-driver: "),
        "{}",
        merged.stderr
    );
    let rules = run(&sandbox, &["rules", "--all"]).expect(0).stdout;
    assert!(
        rules.contains(
            "2 [TOOL] Always use curl for the partner API. — partner API (supersedes org:2)"
        ),
        "{rules}"
    );
    assert!(rules.contains("[superseded by local rule 2]"), "{rules}");
    run(&sandbox, &["check"]).expect(0);
}

#[test]
fn exports_carry_the_imported_rules_and_go_stale_when_a_pin_moves() {
    let (sandbox, origin) = setup();
    add_org(&sandbox, &origin);
    learn_local(&sandbox, "Always use named exports.");
    run(&sandbox, &["export"]).expect(0);
    let agents = sandbox.read("app/AGENTS.md");
    assert!(
        agents.contains("Rules `name:N` are imported from git sources"),
        "{agents}"
    );
    let org = agents
        .find("- **org:2** [TOOL] Always use the internal HTTP client")
        .unwrap();
    let local = agents
        .find("- **1** [CODE] Always use named exports.")
        .unwrap();
    assert!(
        org < local,
        "imported rules come first (left out first): {agents}"
    );
    // Without a source the block is as before: no note, no imported rule.
    let plain = Sandbox::new();
    plain.write(".agents/autofix.json", "[]\n");
    plain
        .run(&[
            "learn",
            "-c",
            "code",
            "-w",
            "x",
            "Always use named exports.",
        ])
        .expect(0);
    plain.run(&["export"]).expect(0);
    assert!(!plain.read("AGENTS.md").contains("name:N"));

    let mut v2 = ORG_V1.to_vec();
    v2.push((
        3,
        "TOOL",
        "Always use the v2 HTTP client.",
        "supersedes rule 2",
        false,
    ));
    origin.commit(".agents/autofix.json", &rules_file(&v2), "v2");
    origin.push(&sandbox, false);
    // `sources update` refreshes the exports, as `learn` does.
    run(&sandbox, &["sources", "update"]).expect(0);
    run(&sandbox, &["export", "--check"]).expect(0);
    let agents = sandbox.read("app/AGENTS.md");
    assert!(
        agents.contains("- **org:3** [TOOL] Always use the v2 HTTP client."),
        "{agents}"
    );
    assert!(!agents.contains("**org:2**"), "{agents}");
    run(&sandbox, &["export", "--check"]).expect(0);
    // A local rule that supersedes org:3: learning refreshes the export without it.
    run(
        &sandbox,
        &[
            "learn",
            "-c",
            "tool",
            "-w",
            "y",
            "--supersedes",
            "org:3",
            "Always use curl.",
        ],
    )
    .expect(0);
    assert!(!sandbox.read("app/AGENTS.md").contains("- **org:3**"));
    run(&sandbox, &["export", "--check"]).expect(0);
}

#[test]
fn a_fetch_that_hangs_is_ended_at_the_timeout() {
    let (sandbox, _origin) = setup();
    let pid_file = sandbox.join("helper.pid");
    let mut command = add_over_a_hanging_ssh(&sandbox, &pid_file);
    command.env("AUTOFIX_SOURCES_TIMEOUT", "1");
    let run = run_bounded(&mut command, std::time::Duration::from_secs(60));
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("timed out after 1 s"), "{}", run.stderr);
    assert!(!sandbox.join(format!("app/{MANIFEST}")).exists());
    assert_ended(&pid_file);
}

/// `sources add` in `app/` of a source over ssh whose ssh command never answers: it
/// starts a helper of its own (through /bin/sh: dash on Debian), whose id it writes to
/// `pid_file`, and which outlives it unless its whole process group is killed.
fn add_over_a_hanging_ssh(sandbox: &Sandbox, pid_file: &Path) -> std::process::Command {
    let mut command = sandbox.command_in(
        "app",
        &[
            "sources",
            "add",
            "slow",
            "ssh://git@example.invalid/rules.git",
        ],
    );
    let ssh = format!("sleep 300 & echo $! > '{}'; wait; true", pid_file.display());
    hermetic_git(&mut command).env("GIT_SSH_COMMAND", ssh);
    command
}

/// The process whose id `pid_file` holds is killed: gone, or a zombie waiting for a parent
/// that reaps it.
fn assert_ended(pid_file: &Path) {
    let pid = fs::read_to_string(pid_file).unwrap();
    let stat = fs::read_to_string(format!("/proc/{}/stat", pid.trim())).unwrap_or_default();
    let state = stat
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .next();
    assert!(
        matches!(state, None | Some("Z")),
        "the ssh helper lives on: {stat}"
    );
}

/// The scratch folders of source fetches in `temp`.
fn scratch_folders(temp: &Path) -> Vec<String> {
    (fs::read_dir(temp).unwrap().flatten())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("autofix-source-"))
        .collect()
}

/// A fetch ended by a signal (SIGTERM, as `kill` or a CI runner sends it) removes its
/// scratch repository and ends git's whole group, and the process still ends by that
/// signal; one killed outright (`kill -9`) leaves them, and the next fetch reclaims both.
#[cfg(unix)]
#[test]
fn a_signal_during_a_fetch_leaves_no_scratch_folder_or_helper() {
    use std::os::unix::process::ExitStatusExt as _;
    let (sandbox, origin) = setup();
    let temp = sandbox.join("tmp");
    fs::create_dir_all(&temp).unwrap();
    for (signal, number) in [("TERM", 15), ("KILL", 9)] {
        let pid_file = sandbox.join(format!("helper-{signal}.pid"));
        let mut command = add_over_a_hanging_ssh(&sandbox, &pid_file);
        command
            .env("TMPDIR", &temp)
            .env("AUTOFIX_SOURCES_TIMEOUT", "120")
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        let mut child = command.spawn().unwrap();
        let start = std::time::Instant::now();
        while !pid_file.exists() && start.elapsed() < std::time::Duration::from_secs(60) {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        assert!(pid_file.exists(), "git never ran the ssh command");
        let pid = child.id().to_string();
        sandbox
            .program("kill", &[&format!("-{signal}"), &pid])
            .status()
            .unwrap();
        let status = child.wait().unwrap();
        assert_eq!(status.signal(), Some(number), "{signal}: {status:?}");
        assert!(!sandbox.join(format!("app/{MANIFEST}")).exists());
        if signal == "TERM" {
            assert_eq!(scratch_folders(&temp), Vec::<String>::new());
            assert_ended(&pid_file);
            continue;
        }
        let left = scratch_folders(&temp);
        assert_eq!(left.len(), 1, "{left:?}");
        assert!(
            left[0].starts_with(&format!("autofix-source-{pid}-")),
            "{left:?}"
        );
        let mut next = sandbox.command_in("app", &["sources", "add", "org", &origin.url()]);
        hermetic_git(&mut next).env("TMPDIR", &temp);
        Run::from_command(&mut next).expect(0);
        assert_eq!(scratch_folders(&temp), Vec::<String>::new());
        assert_ended(&pid_file);
    }
}

#[test]
fn the_manifest_selection_keeps_only_the_chosen_categories() {
    let (sandbox, origin) = setup();
    run(
        &sandbox,
        &["sources", "add", "org", &origin.url(), "-c", "tool"],
    )
    .expect(0);
    let rules = run(&sandbox, &["rules"]).expect(0).stdout;
    assert!(
        rules.contains("org:2 [TOOL]") && !rules.contains("org:1 "),
        "{rules}"
    );
    let all = run(&sandbox, &["rules", "--all"]).expect(0).stdout;
    assert!(all.contains("org:1 [DATA] Never log personal data - because of the GDPR. — org policy [not selected by the manifest]"), "{all}");
    let manifest: serde_json::Value =
        serde_json::from_str(&sandbox.read(format!("app/{MANIFEST}"))).unwrap();
    assert_eq!(
        manifest["sources"][0]["categories"],
        serde_json::json!(["TOOL"])
    );
}

#[test]
fn update_names_the_local_references_the_new_version_leaves_dangling() {
    let (sandbox, origin) = setup();
    add_org(&sandbox, &origin);
    run(
        &sandbox,
        &[
            "learn",
            "-c",
            "tool",
            "-w",
            "x",
            "--supersedes",
            "org:2",
            "Always use curl.",
        ],
    )
    .expect(0);
    let v2 = [
        ORG_V1[0],
        (3, "CODE", "Always write tests first.", "org policy", false),
    ];
    origin.commit(".agents/autofix.json", &rules_file(&v2), "drop rule 2");
    origin.push(&sandbox, false);
    let updated = run(&sandbox, &["sources", "update"]).expect(0).stdout;
    assert!(
        updated.contains("  - org:2 [TOOL] Always use the internal HTTP client"),
        "{updated}"
    );
    assert!(
        updated.contains("  ? rule 1 supersedes org:2, which the new version does not hold"),
        "{updated}"
    );
    let check = run(&sandbox, &["check"]).expect(1);
    assert!(
        check
            .stdout
            .contains("error[dangling-source-rule]: rule 1 supersedes org:2"),
        "{}",
        check.stdout
    );
}

#[test]
fn a_rules_path_that_is_a_link_or_missing_is_refused() {
    let (sandbox, origin) = setup();
    std::os::unix::fs::symlink("/etc/passwd", origin.work.join("linked.json")).unwrap();
    origin.commit("README", "x\n", "a link");
    origin.push(&sandbox, false);
    let url = origin.url();
    let link = run(
        &sandbox,
        &["sources", "add", "org", &url, "--path", "linked.json"],
    )
    .expect_noisy(2);
    assert!(
        link.stderr.contains("is not a regular file (mode 120000"),
        "{}",
        link.stderr
    );
    let missing = run(
        &sandbox,
        &["sources", "add", "org", &url, "--path", "nope.json"],
    )
    .expect_noisy(2);
    assert!(
        missing.stderr.contains("no file nope.json at commit"),
        "{}",
        missing.stderr
    );
    let no_ref = run(&sandbox, &["sources", "add", "org", &url, "--ref", "v9"]).expect_noisy(2);
    assert!(no_ref.stderr.starts_with("error: "), "{}", no_ref.stderr);
    assert!(!sandbox.join(format!("app/{MANIFEST}")).exists());
}

#[test]
fn a_personal_rule_supersedes_only_personal_rules() {
    let (sandbox, origin) = setup();
    add_org(&sandbox, &origin);
    let personal = "Always write commit messages in the imperative.";
    let config = sandbox.join("xdg");
    let user = |args: &[&str]| {
        let mut command = sandbox.command_in("app", args);
        Run::from_command(hermetic_git(&mut command).env("XDG_CONFIG_HOME", &config))
    };
    user(&["learn", "--user", "-c", "style", "-w", "my taste", personal]).expect(0);
    // A personal rule supersedes personal rules, never imported ones.
    user(&[
        "learn",
        "--user",
        "-c",
        "style",
        "-w",
        "t",
        "--supersedes",
        "org:2",
        "Always x.",
    ])
    .expect_noisy(2);
    user(&[
        "learn",
        "--user",
        "-c",
        "style",
        "-w",
        "t",
        "--supersedes",
        "1",
        "Always write short commit subjects.",
    ])
    .expect(0);
    let all = user(&["rules", "--all"]).expect(0).stdout;
    assert!(
        all.contains(&format!(
            "user:1 [STYLE] {personal} — my taste [superseded by user:2]"
        )),
        "{all}"
    );
    // The repository's own rules file was never touched.
    assert_eq!(sandbox.read("app/.agents/autofix.json"), "[]\n");
}

#[test]
fn the_mcp_learn_tool_supersedes_imported_rules_and_refuses_a_locked_one() {
    let (sandbox, origin) = setup();
    add_org(&sandbox, &origin);
    let call = |id: u64, supersedes: serde_json::Value| {
        let request = serde_json::json!({
            "jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "learn", "arguments": {
                "category": "tool", "instruction": format!("Always use curl, take {id}."),
                "why": "partner API", "supersedes": supersedes, "export": false
            }}
        });
        let run = sandbox.run_with_stdin_in("app", &["mcp"], &format!("{request}\n"));
        serde_json::from_str::<serde_json::Value>(run.stdout.lines().next().unwrap()).unwrap()
    };
    let learned = call(1, serde_json::json!(["org:2"]));
    assert_eq!(learned["result"]["isError"], false, "{learned}");
    assert!(
        sandbox
            .read("app/.agents/autofix.json")
            .contains("partner API (supersedes org:2)")
    );
    let refused = call(2, serde_json::json!(["org:1"]));
    assert_eq!(refused["result"]["isError"], true, "{refused}");
    assert!(
        refused
            .to_string()
            .contains("org:1 is locked by its source"),
        "{refused}"
    );
    let missing = call(3, serde_json::json!(["org:9"]));
    assert!(missing.to_string().contains("holds no rule 9"), "{missing}");
    assert!(!sandbox.read("app/.agents/autofix.json").contains("take 2"));
}

/// A source whose rule 1 applies everywhere and rule 2 only to `src/api/**`.
fn scoped_origin(sandbox: &Sandbox) -> Origin {
    let mut rules: serde_json::Value = serde_json::from_str(&rules_file(&[
        (
            1,
            "STYLE",
            "Always use tabs for indentation.",
            "org style",
            false,
        ),
        (
            2,
            "CODE",
            "Always validate request bodies - because input is hostile.",
            "org policy",
            false,
        ),
    ]))
    .unwrap();
    rules[1]["Paths"] = serde_json::json!(["src/api/**"]);
    Origin::new(
        sandbox,
        "org",
        &serde_json::to_string_pretty(&rules).unwrap(),
    )
}

/// The one stamped scoped file of `dir` whose name starts with `prefix`.
fn scoped_file(sandbox: &Sandbox, dir: &str, prefix: &str) -> Option<String> {
    let mut found: Vec<String> = fs::read_dir(sandbox.join(format!("app/{dir}")))
        .unwrap()
        .filter_map(|entry| entry.unwrap().file_name().into_string().ok())
        .filter(|name| name.starts_with(prefix))
        .collect();
    assert!(found.len() <= 1, "{found:?}");
    found
        .pop()
        .map(|name| sandbox.read(format!("app/{dir}/{name}")))
}

#[test]
fn the_hook_explains_source_names_only_when_it_lists_one() {
    let sandbox = Sandbox::new();
    sandbox.write("app/.agents/autofix.json", "[]\n");
    let origin = Origin::new(
        &sandbox,
        "org",
        "[{\"Rule_number\": 1, \"Category\": \"CODE\", \"Instruction\": \"Always validate input.\", \"Why\": \"x\", \"Paths\": [\"src/api/**\"]}]\n",
    );
    add_org(&sandbox, &origin);
    learn_local(&sandbox, "Always use named exports.");
    let hook = claude_hook(&sandbox);
    assert!(
        hook.contains("1 more rule applies only to files matching `src/api/**`"),
        "{hook}"
    );
    assert!(!hook.contains("Rules named `name:N`"), "{hook}");
}

#[test]
fn rules_markdown_puts_each_imported_rule_under_its_own_scope() {
    let sandbox = Sandbox::new();
    sandbox.write("app/.agents/autofix.json", "[]\n");
    let origin = scoped_origin(&sandbox);
    add_org(&sandbox, &origin);
    for (text, path) in [
        ("Always return typed errors.", "src/api/**"),
        ("Always keep components pure.", "src/web/**"),
    ] {
        run(
            &sandbox,
            &["learn", "-c", "code", "-w", "x", "--path", path, text],
        )
        .expect(0);
    }
    let markdown = run(&sandbox, &["rules", "--format", "markdown"])
        .expect(0)
        .stdout;
    let api = markdown
        .find("### Only for files matching `src/api/**`")
        .unwrap_or_else(|| panic!("{markdown}"));
    let web = markdown
        .find("### Only for files matching `src/web/**`")
        .unwrap_or_else(|| panic!("{markdown}"));
    // The unscoped org:1 before every heading; org:2 with the local api rule, one heading.
    let org1 = markdown
        .find("**org:1**")
        .unwrap_or_else(|| panic!("{markdown}"));
    let org2 = markdown
        .find("**org:2**")
        .unwrap_or_else(|| panic!("{markdown}"));
    assert!(org1 < api && org1 < web, "{markdown}");
    let api_end = markdown[api + 3..]
        .find("### ")
        .map_or(markdown.len(), |at| api + 3 + at);
    assert!(api < org2 && org2 < api_end, "{markdown}");
    assert_eq!(markdown.matches("src/api/**`").count(), 1, "{markdown}");
}

#[test]
fn scoped_imported_rules_go_to_their_scopes_files_and_the_hook_counts_them() {
    let sandbox = Sandbox::new();
    sandbox.write("app/.agents/autofix.json", "[]\n");
    let origin = scoped_origin(&sandbox);
    add_org(&sandbox, &origin);
    learn_local(&sandbox, "Always use named exports.");
    // Not exported yet: the hook carries org:1 and counts org:2 with the scoped rules.
    let hook = claude_hook(&sandbox);
    assert!(hook.contains("org:1 [STYLE]"), "{hook}");
    assert!(!hook.contains("org:2 "), "{hook}");
    assert!(
        hook.contains("1 more rule applies only to files matching `src/api/**`; before working on such a file, run `autofix rules --for PATH`"),
        "{hook}"
    );
    // `rules --for` says why each applies, as for a local rule.
    let api = run(&sandbox, &["rules", "--for", "src/api/users.ts"])
        .expect(0)
        .stdout;
    assert!(
        api.contains("— org policy [applies to src/api/users.ts: src/api/**]\n"),
        "{api}"
    );
    assert!(api.contains("— org style [applies: unscoped]\n"), "{api}");
    let json = run(&sandbox, &["rules", "--format", "json"])
        .expect(0)
        .json();
    let rules = &json["imported"]["sources"][0]["rules"];
    assert_eq!(rules[1]["paths"], serde_json::json!(["src/api/**"]));
    assert!(rules[0].get("paths").is_none(), "{rules}");

    run(
        &sandbox,
        &[
            "learn",
            "-c",
            "code",
            "-w",
            "y",
            "--path",
            "src/web/**",
            "Always use hooks in components.",
        ],
    )
    .expect(0);
    let targets = ["export", "--target", "claude", "--target", "agents-md"];
    run(&sandbox, &targets).expect(0);
    // Claude Code's own file (its guard, beside AGENTS.md): the unscoped rules only; org:2
    // in the file of its scope.
    let own = sandbox.read("app/.claude/CLAUDE.md");
    assert!(own.contains("- **org:1** [STYLE]"), "{own}");
    assert!(!own.contains("org:2"), "{own}");
    let file = scoped_file(&sandbox, ".claude/rules", "autofix-src-api-").unwrap();
    // Copilot CLI passes the scoped file over (AGENTS.md carries the rule to it).
    assert!(
        file.starts_with("---\npaths:\n  - \"src/api/**\"\nexcludeAgent: \"coding-agent\"\n---\n"),
        "{file}"
    );
    assert!(
        file.contains("- **org:2** [CODE] Always validate request bodies"),
        "{file}"
    );
    assert!(
        file.contains("Rules `name:N` are imported from git sources"),
        "{file}"
    );
    assert!(!file.contains("org:1"), "{file}");
    // The local scope's file carries no imported rule, and says nothing of them.
    let web = scoped_file(&sandbox, ".claude/rules", "autofix-src-web-").unwrap();
    assert!(!web.contains("org:") && !web.contains("name:N"), "{web}");
    // A file every agent reads: under the scope's heading.
    let agents = sandbox.read("app/AGENTS.md");
    let heading = agents
        .find("### Only for files matching `src/api/**`")
        .unwrap();
    let item = agents.find("- **org:2** [CODE]").unwrap();
    assert!(heading < item, "{agents}");
    run(&sandbox, &["export", "--check"]).expect(0);
    // The exports deliver them: the hook carries neither.
    let hook = claude_hook(&sandbox);
    assert!(!hook.contains("org:"), "{hook}");

    // Superseded locally: the scope's file goes with its last rule.
    run(
        &sandbox,
        &[
            "learn",
            "-c",
            "code",
            "-w",
            "z",
            "--supersedes",
            "org:2",
            "Always validate request bodies with the schema.",
        ],
    )
    .expect(0);
    assert!(
        scoped_file(&sandbox, ".claude/rules", "autofix-src-api-").is_none(),
        "the scope's file is removed with its last rule"
    );
    assert!(!sandbox.read("app/AGENTS.md").contains("- **org:2**"));
    run(&sandbox, &["export", "--check"]).expect(0);
}

#[test]
fn check_measures_the_budgets_with_the_imported_rules_delivered() {
    let sandbox = Sandbox::new();
    sandbox.write("app/.agents/autofix.json", "[]\n");
    // Claude Code's session hook: at most 9,000 characters, the smallest budget here.
    sandbox.write(
        "app/.claude/settings.json",
        r#"{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "autofix rules --format hook --agent claude"}]}]}}"#,
    );
    for instruction in ["Always use named exports.", "Never commit the .env file."] {
        run(&sandbox, &["learn", "-c", "code", "-w", "x", instruction]).expect(0);
    }
    let quiet = run(&sandbox, &["check"]).expect(0).stdout;
    assert!(!quiet.contains("rules-over-budget"), "{quiet}");
    // 120 imported rules of about 100 characters: the local two fit, all together do not.
    let instructions: Vec<String> = (1..=120)
        .map(|n| {
            format!(
                "Always run the release step number {n} before tagging - because step {n} signs it."
            )
        })
        .collect();
    let rules: Vec<(u64, &str, &str, &str, bool)> = instructions
        .iter()
        .zip(1..)
        .map(|(text, n)| (n, "PROCESS", text.as_str(), "org release", false))
        .collect();
    let origin = Origin::new(&sandbox, "org", &rules_file(&rules));
    add_org(&sandbox, &origin);
    let over = run(&sandbox, &["check"]).expect(0).stdout;
    assert!(
        over.contains("warning[rules-over-budget]: the 122 active rules take "),
        "{over}"
    );
    assert!(
        over.contains("`claude hook`: the session hook prints at most 9,000 characters"),
        "{over}"
    );
    // What the hook prints is what was measured: it leaves the oldest out.
    let hook = claude_hook(&sandbox);
    assert!(hook.contains("older rules omitted"), "{hook}");
    // Superseding most of them locally brings it back under.
    let ids: Vec<String> = (1..=100).map(|n| format!("org:{n}")).collect();
    let why = format!("one release script (supersedes {})", ids.join(", "));
    run(
        &sandbox,
        &[
            "learn",
            "-c",
            "process",
            "-w",
            &why,
            "Always run the release script.",
        ],
    )
    .expect(0);
    let under = run(&sandbox, &["check"]).expect(0).stdout;
    assert!(!under.contains("rules-over-budget"), "{under}");
}

/// Commits everything in `app/` on `date`.
fn commit_app_on(sandbox: &Sandbox, date: &str, message: &str) {
    let app = sandbox.join("app");
    git(sandbox, &app, &["add", "-A"]);
    let mut command = sandbox.program("git", &["commit", "-q", "-m", message]);
    hermetic_git(&mut command)
        .current_dir(&app)
        .env("GIT_AUTHOR_DATE", date)
        .env("GIT_COMMITTER_DATE", date);
    Run::from_command(&mut command).expect(0);
}

#[test]
fn the_ledger_attributes_repeats_of_imported_rules_to_them() {
    let sandbox = Sandbox::new();
    sandbox.write("app/.agents/autofix.json", "[]\n");
    sandbox.write("app/.gitignore", "*.lock\n");
    git(
        &sandbox,
        &sandbox.join("app"),
        &["init", "-q", "-b", "main"],
    );
    commit_app_on(&sandbox, "2026-10-01T10:00:00Z", "start");
    let origin = Origin::new(
        &sandbox,
        "org",
        &rules_file(&[
            (
                1,
                "TOOL",
                "Always use pnpm to install packages - because the lockfile is pnpm-lock.yaml.",
                "org tooling",
                false,
            ),
            (
                2,
                "TOOL",
                "Never commit secrets to the repository - because they leak.",
                "org policy",
                false,
            ),
        ]),
    );
    // Imported on Nov 2; org:2 superseded by a local rule committed on Nov 10.
    add_org(&sandbox, &origin);
    commit_app_on(&sandbox, "2026-11-02T10:00:00Z", "import the org rules");
    run(
        &sandbox,
        &[
            "learn",
            "-c",
            "tool",
            "-w",
            "the vault",
            "--supersedes",
            "org:2",
            "Never commit secrets to the repository - because the vault holds them.",
        ],
    )
    .expect(0);
    commit_app_on(&sandbox, "2026-11-10T10:00:00Z", "the vault");
    let root = sandbox.join("app").display().to_string();
    let folder: String = root
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    sandbox.write(
        format!("home/.claude/projects/{folder}/ledger-1.jsonl"),
        include_str!("../fixtures/ledger/claude.jsonl").replace("{ROOT}", &root),
    );
    let ledger = run(&sandbox, &["ledger", "--format", "json"])
        .expect(0)
        .json();
    let figure = &ledger["figure"];
    assert_eq!(figure["corrections"], 5, "{ledger}");
    // The pnpm correction of Nov 5 repeats org:1 (imported Nov 2), the secrets one of Nov 6
    // org:2 (in force Nov 2 to Nov 10), the one of Nov 12 the local rule that replaced it
    // (its words, another reason); not the pnpm one of Nov 1, before the import.
    assert_eq!(figure["repeats"], 3, "{ledger}");
    assert_eq!(figure["committed_rules"], 3, "{ledger}");
    let rules = ledger["rules"].as_array().unwrap();
    let org = |n: u64| {
        rules
            .iter()
            .find(|r| r["source"] == "org" && r["number"] == n)
            .unwrap_or_else(|| panic!("no org:{n} in {ledger}"))
    };
    assert_eq!(org(1)["provenance"]["date"], "2026-11-02T10:00:00Z");
    assert_eq!(org(1)["provenance"]["subject"], "import the org rules");
    assert_eq!(org(1)["active"], true);
    assert_eq!(org(1)["repeats"][0]["time"], "2026-11-05T10:00:00.000Z");
    assert_eq!(org(2)["active"], false);
    assert_eq!(org(2)["until"], "2026-11-10T10:00:00Z");
    assert_eq!(org(2)["repeats"].as_array().unwrap().len(), 1, "{ledger}");
    let secrets = "I told you: never commit secrets to the repository";
    assert_eq!(org(2)["repeats"][0]["text"], secrets);
    let local = rules.iter().find(|r| r.get("source").is_none()).unwrap();
    assert_eq!(local["repeats"][0]["time"], "2026-11-12T10:00:00.000Z");
    let text = run(&sandbox, &["ledger"]).expect(0).stdout;
    assert!(
        text.contains("Rules that did not hold: 3 of 3 committed\n"),
        "{text}"
    );
    assert!(
        text.contains("\norg:1 [TOOL] Always use pnpm to install packages - because the lockfile is pnpm-lock.yaml.\n  imported "),
        "{text}"
    );
    assert!(
        text.contains("2026-11-02T10:00:00Z\n  repeated 1 time since:\n    2026-11-05T10:00:00.000Z  claude  session ledger-1  (tool)  > No, use pnpm to install packages, not npm.\n"),
        "{text}"
    );
    assert!(
        text.contains("\norg:2 [TOOL] Never commit secrets to the repository - because they leak.\n  imported "),
        "{text}"
    );
}

#[test]
fn init_installs_the_sources_merge_driver_once_and_a_lock_merge_then_uses_it() {
    let (sandbox, origin) = setup();
    let app = sandbox.join("app");
    git(&sandbox, &app, &["init", "-q", "-b", "main"]);
    let check = run(&sandbox, &["init", "--check"]).expect(1).stdout;
    assert!(
        check.contains("sources merge driver: `autofix sources merge-driver --install`"),
        "{check}"
    );
    // Before any source: a clone set up now merges a lock added later.
    let init = run(&sandbox, &["init", "--verbose"]).expect(0).stdout;
    assert!(
        init.contains("sources merge driver: set merge.autofix-sources.driver (local config)"),
        "{init}"
    );
    let attributes = sandbox.read("app/.gitattributes");
    for line in [
        ".agents/autofix.sources.lock.json merge=autofix-sources",
        ".agents/sources/*.json merge=autofix-sources",
        ".agents/autofix.sources.json merge=autofix-sources",
    ] {
        assert_eq!(
            attributes.lines().filter(|l| *l == line).count(),
            1,
            "{attributes}"
        );
    }
    assert_eq!(
        git(
            &sandbox,
            &app,
            &["config", "--local", "merge.autofix-sources.driver"]
        ),
        "autofix sources merge-driver --ours-label %X --theirs-label %Y %O %A %B %P"
    );
    // Idempotent: nothing changes the second time, and `--check` is satisfied.
    let again = run(&sandbox, &["init"]).expect(0).stdout;
    assert!(
        again.contains("merge drivers: installed already"),
        "{again}"
    );
    assert!(again.contains("Nothing to change"), "{again}");
    assert_eq!(sandbox.read("app/.gitattributes"), attributes);
    run(&sandbox, &["init", "--check"]).expect(0);
    assert_eq!(
        run(&sandbox, &["sources", "merge-driver", "--install"])
            .expect(0)
            .stdout,
        "The sources merge driver is installed already\n"
    );

    add_org(&sandbox, &origin);
    let doctor = run(&sandbox, &["doctor"]).stdout;
    assert!(
        doctor.contains(
            "ok    sources     .agents/autofix.sources.lock.json and .agents/autofix.sources.json merge with merge=autofix-sources"
        ),
        "{doctor}"
    );
    git(&sandbox, &app, &["add", "-A"]);
    git(&sandbox, &app, &["commit", "-q", "-m", "import org"]);
    // Two branches move the pin, one past the other: git runs the driver init installed.
    merge_two_pin_updates(&sandbox, &origin, &app);
    run(&sandbox, &["check"]).expect(0);
}

/// The prompt hook's context for `prompt` typed in `app/`, if any.
fn prompt_reminder(sandbox: &Sandbox, prompt: &str) -> Option<String> {
    let input = serde_json::json!({
        "session_id": "s1",
        "cwd": sandbox.join("app").to_str().unwrap(),
        "hook_event_name": "UserPromptSubmit",
        "prompt": prompt,
    })
    .to_string();
    let run = sandbox
        .run_with_stdin_in("app", &["hook", "user-prompt", "--agent", "claude"], &input)
        .expect(0);
    (!run.stdout.is_empty()).then(|| {
        run.json()["hookSpecificOutput"]["additionalContext"]
            .as_str()
            .unwrap()
            .to_string()
    })
}

#[test]
fn the_prompt_hook_and_reflect_name_the_imported_rule_a_correction_repeats() {
    let (sandbox, origin) = setup();
    add_org(&sandbox, &origin);
    let repeat = prompt_reminder(
        &sandbox,
        "No, always use the internal HTTP client - because it retries.",
    )
    .unwrap();
    assert!(
        repeat.contains(
            "the user says rule org:2 (\"Always use the internal HTTP client\") again, word for word: follow it"
        ),
        "{repeat}"
    );
    let against = prompt_reminder(&sandbox, "No, never use the internal HTTP client.").unwrap();
    assert!(
        against.contains("The recorded rules nearest it: rule org:2")
            && against.contains("e.g. org:2"),
        "{against}"
    );
    // A local rule saying the same is a repeat, as of a local rule: nothing learned.
    let again = run(
        &sandbox,
        &[
            "learn",
            "-c",
            "tool",
            "-w",
            "x",
            "Always use the internal HTTP client - because it retries.",
        ],
    )
    .expect(0);
    assert!(
        again.stdout.starts_with("Already known as org:2 ([TOOL])"),
        "{}",
        again.stdout
    );
    assert_eq!(sandbox.read("app/.agents/autofix.json"), "[]\n");

    // `reflect` reads the same rules.
    let root = sandbox.join("app").display().to_string();
    let folder: String = root
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let line = serde_json::json!({
        "parentUuid": null, "isSidechain": false, "userType": "external", "cwd": root,
        "sessionId": "s-1", "version": "2.0.0", "type": "user", "uuid": "u1",
        "message": {"role": "user", "content": "No, never log personal data - because of the GDPR."},
        "timestamp": "2026-11-05T10:00:00.000Z",
    });
    sandbox.write(
        format!("home/.claude/projects/{folder}/s-1.jsonl"),
        format!("{line}\n"),
    );
    let reflected = run(&sandbox, &["reflect", "--format", "json"])
        .expect(0)
        .json();
    let repeats = reflected["repeats"].as_array().unwrap();
    assert_eq!(repeats.len(), 1, "{reflected}");
    assert_eq!(repeats[0]["source"], "org");
    assert_eq!(repeats[0]["rule"], 1);
    let text = run(&sandbox, &["reflect"]).expect(0).stdout;
    assert!(
        text.contains("session s-1  repeats rule org:1: Never log personal data"),
        "{text}"
    );
}

/// Spawns `command` and waits for it at most `bound` (killing it past that): a hung run
/// fails the test instead of hanging the suite.
fn run_bounded(command: &mut std::process::Command, bound: std::time::Duration) -> Run {
    Run::within(command.stdin(std::process::Stdio::null()), bound.as_secs())
}

#[test]
fn a_host_that_never_answers_ends_the_fetch_and_its_helpers_at_the_timeout() {
    use std::io::Read as _;
    let (sandbox, _origin) = setup();
    // Loopback only: a server that accepts the connection and never says a word, as an
    // unreachable host behind a load balancer does. git hands the URL to its https helper
    // (git-remote-https), which waits for the TLS handshake forever.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!(
        "https://127.0.0.1:{}/rules.git",
        listener.local_addr().unwrap().port()
    );
    let accepted = std::thread::spawn(move || listener.accept().map(|(stream, _)| stream));
    let mut command = sandbox.command_in("app", &["sources", "add", "slow", &url]);
    hermetic_git(&mut command).env("AUTOFIX_SOURCES_TIMEOUT", "3");
    let run = run_bounded(&mut command, std::time::Duration::from_secs(60));
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("timed out after 3 s"), "{}", run.stderr);
    // Progress while it waits, naming what it waits for.
    assert!(
        run.stderr
            .contains("autofix sources: still asking https://127.0.0.1:"),
        "{}",
        run.stderr
    );
    assert!(!sandbox.join(format!("app/{MANIFEST}")).exists());
    // The helper was killed with git: its end of the connection is closed (a read sees the
    // end of the stream). An orphan would hold it open, and the read would time out.
    let mut stream = accepted.join().unwrap().unwrap();
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(30)))
        .unwrap();
    let mut byte = [0u8; 1];
    loop {
        match stream.read(&mut byte) {
            Ok(0) => break,
            // The TLS client hello, sent before it waited.
            Ok(_) => continue,
            Err(error) if error.kind() == std::io::ErrorKind::ConnectionReset => break,
            Err(error) => panic!("the https helper outlived autofix: {error}"),
        }
    }
}

#[test]
fn a_fetch_over_the_cap_is_refused_and_nothing_written() {
    let (sandbox, origin) = setup();
    // History a server that ignores the filter sends whole: 300 KB that does not compress.
    let mut noise = String::new();
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    while noise.len() < 300_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        noise.push_str(&format!("{x:016x}"));
    }
    origin.commit("noise.txt", &noise, "noise");
    origin.push(&sandbox, false);
    let mut command = sandbox.command_in("app", &["sources", "add", "org", &origin.url()]);
    hermetic_git(&mut command).env("AUTOFIX_SOURCES_MAX_FETCH", "100000");
    let run = Run::from_command(&mut command).expect_noisy(1);
    assert!(
        run.stderr.contains("the fetched history") && run.stderr.contains("over the cap of 100000"),
        "{}",
        run.stderr
    );
    assert!(!sandbox.join(format!("app/{MANIFEST}")).exists());
    assert!(!sandbox.join(format!("app/{COPY}")).exists());
}

#[test]
fn a_tag_named_like_the_branch_never_takes_over_the_import() {
    let (sandbox, origin) = setup();
    let branch = git(&sandbox, &origin.work, &["rev-parse", "HEAD"]);
    // Whoever may push a tag pushes `main` on a commit of their own.
    git(
        &sandbox,
        &origin.work,
        &["checkout", "-q", "--orphan", "evil"],
    );
    origin.commit(
        ".agents/autofix.json",
        &rules_file(&[(1, "DATA", "Always log everything.", "evil", false)]),
        "evil",
    );
    git(&sandbox, &origin.work, &["tag", "main"]);
    let bare = origin.bare.display().to_string();
    git(
        &sandbox,
        &origin.work,
        &["push", "-q", &bare, "refs/tags/main"],
    );
    add_org(&sandbox, &origin);
    assert_eq!(
        lock_json(&sandbox)["sources"]["org"]["commit"],
        branch.as_str()
    );
    let rules = run(&sandbox, &["rules"]).expect(0).stdout;
    assert!(
        rules.contains("GDPR") && !rules.contains("log everything"),
        "{rules}"
    );
    // update and outdated read the same ref.
    let update = run(&sandbox, &["sources", "update"]).expect(0).stdout;
    assert!(update.contains("org: up to date"), "{update}");
    let outdated = run(&sandbox, &["sources", "outdated"]).expect(0).stdout;
    assert!(outdated.contains("org: current"), "{outdated}");
    // The tag is reachable by its full name, on purpose.
    let tag = run(
        &sandbox,
        &[
            "sources",
            "add",
            "tagged",
            &origin.url(),
            "--ref",
            "refs/tags/main",
        ],
    )
    .expect(0);
    assert!(tag.stdout.contains("1 rule,"), "{}", tag.stdout);
}

/// The SHA-256 of `bytes`, by coreutils' `sha256sum`.
fn sha256sum(sandbox: &Sandbox, bytes: &[u8]) -> String {
    use std::io::Write as _;
    let mut child = sandbox
        .program("sha256sum", &[])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(bytes).unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .next()
        .unwrap()
        .to_string()
}

#[test]
fn a_copy_forged_with_its_sha256_recomputed_in_the_lock_is_caught_offline() {
    let (sandbox, origin) = setup();
    add_org(&sandbox, &origin);
    let forged = sandbox
        .read(format!("app/{COPY}"))
        .replace("Never log personal data", "Always log personal data");
    sandbox.write(format!("app/{COPY}"), &forged);
    let digest = sha256sum(&sandbox, forged.as_bytes());
    let lock = sandbox.read(format!("app/{LOCK}"));
    let pinned = lock_json(&sandbox)["sources"]["org"]["sha256"]
        .as_str()
        .unwrap()
        .to_string();
    sandbox.write(format!("app/{LOCK}"), lock.replace(&pinned, &digest));
    let check = run(&sandbox, &["check"]).expect(1);
    assert!(
        check.stdout.contains("error[source-tampered]"),
        "{}",
        check.stdout
    );
    assert!(check.stdout.contains("git blob"), "{}", check.stdout);
    let rules = run(&sandbox, &["rules"]).expect(0).stdout;
    assert!(!rules.contains("Always log"), "{rules}");
    let list = run(&sandbox, &["sources", "list"]).expect(0).stdout;
    assert!(list.contains("does not match the lock"), "{list}");
    run(&sandbox, &["sources", "update"]).expect_noisy(1);
}

/// git's blob id of `bytes`, as `git hash-object` computes it.
fn blob_id(bytes: &[u8]) -> String {
    use sha1::Digest as _;
    let mut hasher = sha1::Sha1::new();
    hasher.update(format!("blob {}\0", bytes.len()).as_bytes());
    hasher.update(bytes);
    (hasher.finalize().iter())
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A copy forged with both its SHA-256 and its blob id recomputed in the lock passes
/// every offline check; `outdated` asks the source for its file's blob at the pinned
/// commit and says the copy is not it (exit 1), and `update` fetches the real file again.
#[test]
fn a_copy_forged_with_its_digest_and_blob_id_is_caught_by_outdated() {
    let (sandbox, origin) = setup();
    add_org(&sandbox, &origin);
    let real = sandbox.read(format!("app/{COPY}"));
    let forged = real.replace("Never log personal data", "Always log personal data");
    sandbox.write(format!("app/{COPY}"), &forged);
    let pin = lock_json(&sandbox)["sources"]["org"].clone();
    let (sha256, blob) = (
        pin["sha256"].as_str().unwrap(),
        pin["blob"].as_str().unwrap(),
    );
    let lock = (sandbox.read(format!("app/{LOCK}")))
        .replace(sha256, &sha256sum(&sandbox, forged.as_bytes()))
        .replace(blob, &blob_id(forged.as_bytes()));
    sandbox.write(format!("app/{LOCK}"), lock);
    let check = run(&sandbox, &["check"]).expect(0);
    assert!(
        !check.stdout.contains("source-tampered"),
        "{}",
        check.stdout
    );
    let rules = run(&sandbox, &["rules"]).expect(0).stdout;
    assert!(rules.contains("Always log personal data"), "{rules}");

    let outdated = run(&sandbox, &["sources", "outdated"]).expect(1);
    assert!(
        outdated.stdout.contains(&format!(
            "org: the locked copy is not the source's file at {}: the lock names blob {}, the source holds {}; run `autofix sources update org` to fetch it again",
            &pin["commit"].as_str().unwrap()[..12],
            &blob_id(forged.as_bytes())[..12],
            &blob[..12]
        )),
        "{}",
        outdated.stdout
    );
    let json = run(&sandbox, &["sources", "outdated", "--format", "json"]).expect(1);
    let json: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(json["sources"][0]["status"], "differs");
    assert_eq!(json["sources"][0]["source_blob"], blob);

    run(&sandbox, &["sources", "update", "org"]).expect(0);
    assert_eq!(sandbox.read(format!("app/{COPY}")), real);
    let outdated = run(&sandbox, &["sources", "outdated"]).expect(0);
    assert!(
        outdated.stdout.contains("org: current at"),
        "{}",
        outdated.stdout
    );
}

/// Whether strace can trace and inject here (it needs ptrace).
fn strace_works(sandbox: &Sandbox) -> bool {
    sandbox
        .program(
            "strace",
            &[
                "-qq",
                "-o",
                "/dev/null",
                "-e",
                "inject=getpid:error=EPERM",
                "true",
            ],
        )
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Runs autofix in `app/` under strace with one injection. Not `-f`: git's own renames
/// (in the scratch repository) are not the steps under test.
fn run_injected(sandbox: &Sandbox, inject: &str, args: &[&str]) -> Run {
    let mut all = vec!["-qq", "-o", "/dev/null", "-e", inject, crate::support::BIN];
    all.extend(args);
    let mut command = sandbox.program("strace", &all);
    command.current_dir(sandbox.join("app"));
    Run::from_command(hermetic_git(&mut command))
}

/// What lies in `app/.agents/sources/` beside the copies: what a killed run left.
fn vendor_leftovers(sandbox: &Sandbox) -> Vec<String> {
    fs::read_dir(sandbox.join("app/.agents/sources"))
        .map(|dir| {
            dir.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| !n.ends_with(".json"))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn a_kill_at_any_step_of_an_update_leaves_the_old_or_the_new_pin_and_a_rerun_finishes() {
    let probe = Sandbox::new();
    if !strace_works(&probe) {
        return crate::support::skip("strace", "the kill at each step of `sources update`");
    }
    let mut v2 = ORG_V1.to_vec();
    v2.push((3, "TOOL", "Always pin your tools.", "org policy", false));
    // The renames of an update: the staged copy, the lock, the copy (strace delivers the
    // signal on entry, before the call). A kill before each, and an error in the lock's
    // and in the copy's.
    let steps = [
        (
            "inject=rename,renameat,renameat2:signal=SIGKILL:when=1",
            false,
        ),
        (
            "inject=rename,renameat,renameat2:signal=SIGKILL:when=2",
            false,
        ),
        (
            "inject=rename,renameat,renameat2:signal=SIGKILL:when=3",
            true,
        ),
        ("inject=rename,renameat,renameat2:error=EIO:when=2", false),
        ("inject=rename,renameat,renameat2:error=EIO:when=3", true),
    ];
    for (inject, lock_moved) in steps {
        let (sandbox, origin) = setup();
        add_org(&sandbox, &origin);
        origin.commit(".agents/autofix.json", &rules_file(&v2), "v2");
        origin.push(&sandbox, false);
        let head = git(&sandbox, &origin.bare, &["rev-parse", "main"]);
        let killed = run_injected(&sandbox, inject, &["sources", "update"]);
        assert_ne!(killed.code, 0, "{inject}: the run was not stopped");
        // Meanwhile every reader sees one pin whole: never a source left out.
        let rules = run(&sandbox, &["rules"]).expect(0).stdout;
        assert!(!rules.contains("Left out"), "{inject}: {rules}");
        assert_eq!(rules.contains("org:3"), lock_moved, "{inject}: {rules}");
        let pinned = lock_json(&sandbox)["sources"]["org"]["commit"] == head.as_str();
        assert_eq!(pinned, lock_moved, "{inject}");
        // The next run finishes (or redoes) it: lock and copy in step, nothing left over.
        run(&sandbox, &["sources", "update"]).expect(0);
        assert_eq!(
            lock_json(&sandbox)["sources"]["org"]["commit"],
            head.as_str()
        );
        assert_eq!(
            sandbox.read(format!("app/{COPY}")),
            rules_file(&v2),
            "{inject}"
        );
        run(&sandbox, &["check"]).expect(0);
        assert!(
            vendor_leftovers(&sandbox).is_empty(),
            "{inject}: {:?}",
            vendor_leftovers(&sandbox)
        );
    }
}

#[test]
fn a_kill_in_remove_leaves_no_orphan_copy() {
    let probe = Sandbox::new();
    if !strace_works(&probe) {
        return crate::support::skip("strace", "the kill during `sources remove`");
    }
    let (sandbox, origin) = setup();
    add_org(&sandbox, &origin);
    // The copy goes first: a kill right after (on the second unlink, its lock file's)
    // leaves a source without its copy, which check reports, never a copy no source names.
    let killed = run_injected(
        &sandbox,
        "inject=unlink,unlinkat:signal=SIGKILL:when=2",
        &["sources", "remove", "org"],
    );
    assert_ne!(killed.code, 0);
    let check = run(&sandbox, &["check"]).expect(1);
    assert!(
        check.stdout.contains("source-copy-missing"),
        "{}",
        check.stdout
    );
    run(&sandbox, &["sources", "remove", "org"]).expect(0);
    run(&sandbox, &["check"]).expect(0);
    assert!(!sandbox.join(format!("app/{COPY}")).exists());
    // A copy no source names is reported.
    sandbox.write("app/.agents/sources/stray.json", "[]\n");
    let check = run(&sandbox, &["check"]).expect(1);
    assert!(
        check
            .stdout
            .contains("sources/stray.json belongs to no source"),
        "{}",
        check.stdout
    );
    assert!(
        lock_json(&sandbox)["sources"]
            .as_object()
            .unwrap()
            .is_empty()
    );
}

#[test]
fn imported_text_passes_the_same_gate_as_learn() {
    let refused = [
        (
            r#"[{"Rule_number": 1, "Category": "CODE", "Instruction": "Always tes\u200bt.", "Why": "x"}]"#,
            "invisible character",
        ),
        (
            r#"[{"Rule_number": 1, "Category": "CODE", "Instruction": "Always t\u2062est.", "Why": "x"}]"#,
            "invisible character",
        ),
        (
            r#"[{"Rule_number": 1, "Category": "CODE", "Instruction": "Always test.", "Why": "x\u00ad"}]"#,
            "invisible character",
        ),
        // A format character by category, not by a list.
        (
            r#"[{"Rule_number": 1, "Category": "CODE", "Instruction": "Always t\u206best.", "Why": "x"}]"#,
            "invisible character",
        ),
        (
            r#"[{"Rule_number": 1, "Category": "CODE", "Instruction": "Always test.", "Why": "x"},
                {"Rule_number": 1, "Category": "CODE", "Instruction": "Never test.", "Why": "y"}]"#,
            "rule number 1 is used twice",
        ),
        (
            r#"[{"Rule_number": 1, "Category": "CODE", "Instruction": "Always test.", "Why": "x", "Locked": "yes"}]"#,
            "`Locked` is \"yes\", not true or false",
        ),
    ];
    for (text, message) in refused {
        let sandbox = Sandbox::new();
        sandbox.write("app/.agents/autofix.json", "[]\n");
        let origin = Origin::new(&sandbox, "org", &format!("{text}\n"));
        let add = run(&sandbox, &["sources", "add", "org", &origin.url()]).expect_noisy(2);
        assert!(add.stderr.contains(message), "{text}: {}", add.stderr);
        assert!(!sandbox.join(format!("app/{COPY}")).exists());
    }
    // A retirement record retires its rule and is no rule itself.
    let sandbox = Sandbox::new();
    sandbox.write("app/.agents/autofix.json", "[]\n");
    let retired = r#"[{"Rule_number": 1, "Category": "CODE", "Instruction": "Always test twice.", "Why": "x"},
 {"Rule_number": 2, "Category": "OTHER", "Instruction": "Stop following rule 1.", "Why": "retired: gone (supersedes rule 1)", "Retirement": true}]
"#;
    let origin = Origin::new(&sandbox, "org", retired);
    run(&sandbox, &["sources", "add", "org", &origin.url()]).expect(0);
    let rules = run(&sandbox, &["rules"]).expect(0).stdout;
    assert!(
        !rules.contains("org:1 ") && !rules.contains("org:2 "),
        "{rules}"
    );
}

/// The MCP tool `name`'s reply to `arguments`, in `app/`.
fn mcp_call(sandbox: &Sandbox, name: &str, arguments: serde_json::Value) -> serde_json::Value {
    crate::support::mcp_call(sandbox, "app", name, arguments)
}

#[test]
fn org_n_is_a_rule_reference_in_rules_retire_search_and_mcp() {
    let (sandbox, origin) = setup();
    add_org(&sandbox, &origin);
    learn_local(&sandbox, "Always write tests first.");
    // `rules org:1`: the imported rule whole.
    let shown = run(&sandbox, &["rules", "org:1"]).expect(0).stdout;
    assert!(
        shown.starts_with("org:1 [DATA] Never log personal data"),
        "{shown}"
    );
    assert!(
        shown.contains("status: active, locked by its source"),
        "{shown}"
    );
    let json = run(&sandbox, &["rules", "org:1", "--format", "json"])
        .expect(0)
        .json();
    assert_eq!(json["id"], "org:1");
    assert_eq!(json["locked"], true);
    let missing = run(&sandbox, &["rules", "org:9"]).expect_noisy(2);
    assert!(
        missing.stderr.contains("holds no rule 9"),
        "{}",
        missing.stderr
    );
    run(&sandbox, &["rules", "Org:1"]).expect_noisy(2);
    // `--search` reaches every layer.
    let found = run(&sandbox, &["rules", "--search", "http client"])
        .expect(0)
        .stdout;
    assert!(found.contains("org:2 [TOOL]"), "{found}");
    assert!(
        !found.contains("org:1 ") && !found.contains("tests first"),
        "{found}"
    );
    let reply = mcp_call(
        &sandbox,
        "rules",
        serde_json::json!({"search": "personal data"}),
    );
    let text = reply["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("org:1 [DATA]") && !text.contains("org:2 "),
        "{text}"
    );
    let reply = mcp_call(&sandbox, "rules", serde_json::json!({"rule": "org:2"}));
    assert_eq!(
        reply["result"]["structuredContent"]["id"], "org:2",
        "{reply}"
    );
    // `retire org:N`: a local record that supersedes it; a locked rule is refused.
    let locked = run(&sandbox, &["retire", "org:1", "-w", "we hold no data"]).expect_noisy(2);
    assert!(
        locked.stderr.contains("org:1 is locked"),
        "{}",
        locked.stderr
    );
    let retired = run(&sandbox, &["retire", "org:2", "-w", "no HTTP here"])
        .expect(0)
        .stdout;
    assert!(
        retired.starts_with("Retired org:2 with record #2"),
        "{retired}"
    );
    let all = run(&sandbox, &["rules", "--all"]).expect(0).stdout;
    assert!(all.contains("org:2 [TOOL] Always use the internal HTTP client - because it retries. — org policy [superseded by local rule 2]"), "{all}");
    let reply = mcp_call(
        &sandbox,
        "retire",
        serde_json::json!({"rule": "org:1", "why": "x"}),
    );
    assert!(reply.to_string().contains("org:1 is locked"), "{reply}");
    run(&sandbox, &["check"]).expect(0);
}

#[test]
fn locked_rules_hold_against_repeats_reversals_and_the_export_says_so() {
    let (sandbox, origin) = setup();
    add_org(&sandbox, &origin);
    // With no exported file, the session hook carries the imported rules, marked too.
    let hook = claude_hook(&sandbox);
    assert!(
        hook.contains(
            "org:1 [DATA] Never log personal data - because of the GDPR. — org policy [locked]"
        ),
        "{hook}"
    );
    run(&sandbox, &["export", "--target", "agents-md"]).expect(0);
    let rules_before = sandbox.read("app/.agents/autofix.json");
    // Word for word a locked (or any) imported rule: a repeat, nothing learned.
    let repeat = run(
        &sandbox,
        &[
            "learn",
            "-c",
            "data",
            "-w",
            "x",
            "Never log personal data - because of the GDPR.",
        ],
    )
    .expect(0);
    assert!(
        repeat.stdout.starts_with("Already known as org:1 ([DATA])"),
        "{}",
        repeat.stdout
    );
    // The reverse of a locked rule, in other words: refused, --force or not.
    for force in [false, true] {
        let mut args = vec!["learn", "-c", "data", "-w", "debugging"];
        if force {
            args.push("--force");
        }
        args.push("Always log personal data.");
        let refused = run(&sandbox, &args).expect_noisy(1);
        assert!(
            refused.stderr.contains("contradicts the locked org:1")
                && refused.stderr.contains("--force or not"),
            "{}",
            refused.stderr
        );
    }
    // An unlocked one: refused without --force, kept beside it with.
    let against = run(
        &sandbox,
        &[
            "learn",
            "-c",
            "tool",
            "-w",
            "x",
            "Never use the internal HTTP client.",
        ],
    )
    .expect_noisy(1);
    assert!(
        against.stderr.contains("contradicts the imported org:2")
            && against.stderr.contains("--supersedes org:2"),
        "{}",
        against.stderr
    );
    assert_eq!(sandbox.read("app/.agents/autofix.json"), rules_before);
    let agents = sandbox.read("app/AGENTS.md");
    assert!(agents.contains("- **org:1** [DATA] Never log personal data - because of the GDPR. — _org policy_ [locked]"), "{agents}");
    assert!(agents.contains("except a rule marked [locked]"), "{agents}");
}

#[test]
fn sources_lock_locks_an_imported_rule_for_this_repository() {
    let (sandbox, origin) = setup();
    add_org(&sandbox, &origin);
    run(&sandbox, &["export", "--target", "agents-md"]).expect(0);
    // Locked here by a command, not a hand edit; then --force no longer lets it through.
    let locked = run(&sandbox, &["sources", "lock", "org:2"]).expect(0);
    assert!(
        locked.stdout.contains("org:2 locked for this repository"),
        "{}",
        locked.stdout
    );
    assert!(
        locked
            .stdout
            .contains("exported copies refreshed: AGENTS.md"),
        "{}",
        locked.stdout
    );
    let manifest: serde_json::Value =
        serde_json::from_str(&sandbox.read(format!("app/{MANIFEST}"))).unwrap();
    assert_eq!(manifest["locked"], serde_json::json!(["org:2"]));
    run(
        &sandbox,
        &[
            "learn",
            "-c",
            "tool",
            "-w",
            "x",
            "--force",
            "Never use the internal HTTP client.",
        ],
    )
    .expect_noisy(1);
    let supersede = run(
        &sandbox,
        &[
            "learn",
            "-c",
            "tool",
            "-w",
            "x",
            "--supersedes",
            "org:2",
            "Always use curl.",
        ],
    )
    .expect_noisy(1);
    assert!(
        supersede.stderr.contains("org:2 is locked"),
        "{}",
        supersede.stderr
    );
    let agents = sandbox.read("app/AGENTS.md");
    assert!(agents.contains("- **org:2** [TOOL] Always use the internal HTTP client - because it retries. — _org policy_ [locked]"), "{agents}");
    assert!(agents.contains("except a rule marked [locked]"), "{agents}");

    run(&sandbox, &["sources", "unlock", "org:2"]).expect(0);
    run(&sandbox, &["sources", "lock", "3"]).expect_noisy(2);
    run(&sandbox, &["export", "--check"]).expect(0);
}

#[test]
fn update_reports_scope_reason_and_reopened_concerns_and_refreshes_the_exports() {
    let (sandbox, origin) = setup();
    add_org(&sandbox, &origin);
    run(&sandbox, &["export", "--target", "agents-md"]).expect(0);
    // Local rule 1 overrides org:2.
    run(
        &sandbox,
        &[
            "learn",
            "-c",
            "tool",
            "-w",
            "partner API",
            "--supersedes",
            "org:2",
            "Always use curl for the partner API.",
        ],
    )
    .expect(0);
    // The org replaces org:2 by org:3, the same concern in other words, and gives org:1 a
    // new reason.
    let v2 = rules_file(&[
        (
            1,
            "DATA",
            "Never log personal data - because of the GDPR.",
            "org policy, GDPR art. 5",
            true,
        ),
        (
            2,
            "TOOL",
            "Always use the internal HTTP client - because it retries.",
            "org policy",
            false,
        ),
        (
            3,
            "TOOL",
            "Always use the internal HTTP client, v2 - because it retries.",
            "supersedes rule 2",
            false,
        ),
    ]);
    origin.commit(".agents/autofix.json", &v2, "v2");
    origin.push(&sandbox, false);
    let dry = run(&sandbox, &["sources", "update", "--dry-run"])
        .expect(0)
        .stdout;
    assert!(
        dry.contains("~ org:1 why now \"org policy, GDPR art. 5\" (was \"org policy\")"),
        "{dry}"
    );
    assert!(
        dry.contains("! org:3 reopens what local rule 1 overrode in org:2"),
        "{dry}"
    );
    let json = run(
        &sandbox,
        &["sources", "update", "--dry-run", "--format", "json"],
    )
    .expect(0)
    .json();
    assert_eq!(json["sources"][0]["status"], "would-move", "{json}");
    let updated = run(&sandbox, &["sources", "update"]).expect(0).stdout;
    assert!(
        updated.contains("exported copies refreshed: AGENTS.md"),
        "{updated}"
    );
    run(&sandbox, &["export", "--check"]).expect(0);
    let agents = sandbox.read("app/AGENTS.md");
    // The source's own reference, qualified where it is delivered.
    assert!(agents.contains("_supersedes rule org:2_"), "{agents}");
    let listed = run(&sandbox, &["sources", "list", "--format", "json"])
        .expect(0)
        .json();
    assert_eq!(listed["sources"][0]["status"], "ok", "{listed}");
    let outdated = run(&sandbox, &["sources", "outdated", "--format", "json"])
        .expect(0)
        .json();
    assert_eq!(outdated["sources"][0]["status"], "current", "{outdated}");
    // Removing the source takes its rules out of the exports at once.
    run(&sandbox, &["sources", "remove", "org"]).expect(0);
    assert!(!sandbox.read("app/AGENTS.md").contains("org:1"));
    run(&sandbox, &["export", "--check"]).expect(0);
}

#[test]
fn a_scope_change_alone_is_a_reported_change() {
    let sandbox = Sandbox::new();
    sandbox.write("app/.agents/autofix.json", "[]\n");
    let scoped = |glob: &str| {
        format!(
            "[{{\"Rule_number\": 1, \"Category\": \"CODE\", \"Instruction\": \"Always validate input.\", \"Why\": \"x\", \"Paths\": [\"{glob}\"]}}]\n"
        )
    };
    let origin = Origin::new(&sandbox, "org", &scoped("src/api/**"));
    add_org(&sandbox, &origin);
    origin.commit(".agents/autofix.json", &scoped("**"), "wider");
    origin.push(&sandbox, false);
    let dry = run(&sandbox, &["sources", "update", "--dry-run"])
        .expect(0)
        .stdout;
    assert!(
        dry.contains("~ org:1 scope now `**` (was `src/api/**`)"),
        "{dry}"
    );
    assert!(!dry.contains("(no rule changed)"), "{dry}");
}

#[test]
fn two_branches_that_each_add_a_source_merge_without_a_conflict() {
    let (sandbox, _origin) = merging_setup();
    let app = sandbox.join("app");
    let team = Origin::new(
        &sandbox,
        "team",
        &rules_file(&[(1, "CODE", "Always write tests first.", "team", false)]),
    );
    let infra = Origin::new(
        &sandbox,
        "infra",
        &rules_file(&[(1, "TOOL", "Always pin your tool versions.", "infra", false)]),
    );
    git(&sandbox, &app, &["checkout", "-q", "-b", "team"]);
    run(&sandbox, &["sources", "add", "team", &team.url()]).expect(0);
    git(&sandbox, &app, &["add", "-A"]);
    git(&sandbox, &app, &["commit", "-q", "-m", "add team"]);
    git(&sandbox, &app, &["checkout", "-q", "main"]);
    run(&sandbox, &["sources", "add", "infra", &infra.url()]).expect(0);
    git(&sandbox, &app, &["add", "-A"]);
    git(&sandbox, &app, &["commit", "-q", "-m", "add infra"]);
    let mut merge = sandbox.program("git", &["merge", "-q", "--no-edit", "team"]);
    hermetic_git(&mut merge).current_dir(&app);
    let merged = Run::from_command(&mut merge).expect_noisy(0);
    assert!(
        merged
            .stderr
            .contains(".agents/autofix.sources.json: merged the sources by name"),
        "{}",
        merged.stderr
    );
    let manifest: serde_json::Value =
        serde_json::from_str(&sandbox.read(format!("app/{MANIFEST}"))).unwrap();
    let names: Vec<&str> = manifest["sources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["org", "infra", "team"]);
    run(&sandbox, &["check"]).expect(0);
    let rules = run(&sandbox, &["rules"]).expect(0).stdout;
    assert!(
        rules.contains("team:1 [CODE]") && rules.contains("infra:1 [TOOL]"),
        "{rules}"
    );
}

#[test]
fn a_copy_verified_once_is_hashed_again_after_any_edit() {
    let (sandbox, origin) = setup();
    add_org(&sandbox, &origin);
    // A copy changed within the last second is never remembered: wait that out once.
    std::thread::sleep(std::time::Duration::from_millis(1100));
    run(&sandbox, &["rules"]).expect(0);
    let cache = sandbox.join("home/.cache/autofix/verified");
    assert_eq!(
        fs::read_dir(&cache).unwrap().count(),
        1,
        "no verified copy remembered"
    );
    // An edit of the same size with the modification time put back: still caught, by
    // the change time no program can set.
    let copy = sandbox.join(format!("app/{COPY}"));
    let before = fs::metadata(&copy).unwrap().modified().unwrap();
    let forged = sandbox
        .read(format!("app/{COPY}"))
        .replace("Never log", "Alway log");
    fs::write(&copy, forged).unwrap();
    fs::File::options()
        .write(true)
        .open(&copy)
        .unwrap()
        .set_modified(before)
        .unwrap();
    let rules = run(&sandbox, &["rules"]).expect(0).stdout;
    assert!(
        rules.contains("Left out: source `org`") && !rules.contains("Alway log"),
        "{rules}"
    );
    // Deleting the cache changes no result.
    fs::remove_dir_all(&cache).unwrap();
    let again = run(&sandbox, &["rules"]).expect(0).stdout;
    assert_eq!(again, rules);
}

#[test]
fn doctor_sees_an_export_the_sources_left_stale() {
    let (sandbox, origin) = setup();
    git(
        &sandbox,
        &sandbox.join("app"),
        &["init", "-q", "-b", "main"],
    );
    add_org(&sandbox, &origin);
    run(&sandbox, &["export", "--target", "agents-md"]).expect(0);
    let doctor = run(&sandbox, &["doctor"]).stdout;
    assert!(doctor.contains("ok    in-sync   "), "{doctor}");
    // What a merge of the manifest does behind the export's back: a narrower selection.
    let manifest = sandbox.read(format!("app/{MANIFEST}"));
    sandbox.write(
        format!("app/{MANIFEST}"),
        manifest.replace(
            "\"path\": \".agents/autofix.json\"",
            "\"path\": \".agents/autofix.json\",\n      \"categories\": [\"DATA\"]",
        ),
    );
    let doctor = run(&sandbox, &["doctor"]).stdout;
    assert!(
        doctor.contains("FAIL  in-sync     stale: AGENTS.md")
            && doctor.contains("fix: autofix export"),
        "{doctor}"
    );
}

#[test]
fn a_kill_at_any_step_of_an_add_is_finished_by_adding_again() {
    let probe = Sandbox::new();
    if !strace_works(&probe) {
        return crate::support::skip("strace", "the kill at each step of `sources add`");
    }
    // The renames of an add: the staged copy, the lock, the copy, the manifest.
    for when in 1..=4 {
        let (sandbox, origin) = setup();
        let inject = format!("inject=rename,renameat,renameat2:signal=SIGKILL:when={when}");
        let killed = run_injected(&sandbox, &inject, &["sources", "add", "org", &origin.url()]);
        assert_ne!(killed.code, 0, "{inject}: the run was not stopped");
        // The manifest goes last: until it names the source, no reader lists it, and none
        // fails on what the killed run left.
        let rules = run(&sandbox, &["rules"]).expect(0).stdout;
        assert!(!rules.contains("org:"), "{inject}: {rules}");
        run(&sandbox, &["sources", "add", "org", &origin.url()]).expect(0);
        run(&sandbox, &["check"]).expect(0);
        assert!(
            vendor_leftovers(&sandbox).is_empty(),
            "{inject}: {:?}",
            vendor_leftovers(&sandbox)
        );
        assert_eq!(
            sandbox.read(format!("app/{COPY}")),
            rules_file(ORG_V1),
            "{inject}"
        );
    }
}

/// The fetch's settings follow the one policy of every setting: a bad value is an error
/// naming the variable (exit 2) before anything is fetched or written, never silently the
/// default; a command that fetches nothing is not failed by it.
#[test]
fn a_bad_fetch_setting_is_an_error_naming_it_and_nothing_is_written() {
    let (sandbox, origin) = setup();
    let url = origin.url();
    for (name, value, says) in [
        (
            "AUTOFIX_SOURCES_TIMEOUT",
            "soon",
            "not a number of seconds (such as 10 or 0.5)",
        ),
        (
            "AUTOFIX_SOURCES_TIMEOUT",
            "-1",
            "not a number of seconds (such as 10 or 0.5)",
        ),
        (
            "AUTOFIX_SOURCES_MAX_FETCH",
            "0",
            "not a positive number of bytes",
        ),
        (
            "AUTOFIX_SOURCES_MAX_FETCH",
            "1MB",
            "not a positive number of bytes",
        ),
    ] {
        let mut command = sandbox.command_in("app", &["sources", "add", "org", &url]);
        command.env(name, value);
        let run = Run::from_command(hermetic_git(&mut command)).expect(2);
        assert_eq!(
            run.stderr,
            format!("error: {name} is `{value}`, {says}\n"),
            "{name}={value}"
        );
        assert!(!sandbox.join(format!("app/{MANIFEST}")).exists());
        let mut command = sandbox.command_in("app", &["rules"]);
        command.env(name, value);
        Run::from_command(hermetic_git(&mut command)).expect(0);
    }
    let mut command = sandbox.command_in("app", &["sources", "add", "org", &url]);
    command
        .env("AUTOFIX_SOURCES_TIMEOUT", "30")
        .env("AUTOFIX_SOURCES_MAX_FETCH", "100000000");
    Run::from_command(hermetic_git(&mut command)).expect(0);
}

/// A source's rule that holds a credential is refused like a local one, named by its
/// kind, the value never shown.
#[test]
fn a_source_whose_rule_holds_a_credential_is_refused() {
    let (sandbox, _origin) = setup();
    let token = "ghp_aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5";
    let source = Origin::new(
        &sandbox,
        "leaky",
        &format!(
            "[{{\"Rule_number\": 1, \"Category\": \"TOOL\", \"Instruction\": \"Always deploy with {token}.\", \"Why\": \"x\"}}]\n"
        ),
    );
    let refused = run(&sandbox, &["sources", "add", "leaky", &source.url()]).expect_noisy(2);
    assert!(
        refused.stderr.contains("rule 1 holds a GitHub token"),
        "{}",
        refused.stderr
    );
    assert!(!refused.stderr.contains(token) && !refused.stdout.contains(token));
    assert!(!sandbox.join(format!("app/{LOCK}")).exists());
}

/// A local rule that says an imported rule word for word is not learned: the imported one
/// reaches every agent already (issue: a local copy would reach them twice).
#[test]
fn a_local_rule_repeating_an_org_rule_word_for_word_is_not_learned() {
    let (sandbox, origin) = setup();
    add_org(&sandbox, &origin);
    let before = sandbox.read("app/.agents/autofix.json");
    let text = "Always use the internal HTTP client - because it retries.";
    let same = run(&sandbox, &["learn", text]).expect(0);
    assert!(
        same.stdout.starts_with("Already known as org:2"),
        "{}",
        same.stdout
    );
    // Its directive in the same words with another reason: refused as a local one is.
    let restated = run(&sandbox, &["learn", "always use the internal HTTP client."]).expect(1);
    assert!(
        restated.stderr.contains("repeats the imported org:2"),
        "{}",
        restated.stderr
    );
    assert_eq!(sandbox.read("app/.agents/autofix.json"), before);
    // The locked one is refused outright.
    run(&sandbox, &["learn", "Never log personal data."]).expect(1);
    assert_eq!(sandbox.read("app/.agents/autofix.json"), before);
}

/// A source whose rule gives a `Check` is refused at `add` and at `update`, with the rule
/// named: no repository runs an imported rule's check, and accepted in silence a team would
/// believe it enforced.
#[test]
fn a_sources_check_is_refused_never_ignored_in_silence() {
    let (sandbox, origin) = setup();
    let checked = Origin::new(
        &sandbox,
        "checked",
        "[{\"Rule_number\": 1, \"Category\": \"CODE\", \"Instruction\": \"Never call eval.\", \"Why\": \"x\", \"Check\": {\"Forbid\": \"eval\\\\(\"}}]\n",
    );
    let refused = run(&sandbox, &["sources", "add", "checked", &checked.url()]).expect_noisy(2);
    assert!(
        refused.stderr.contains("rule checked:1 has a `Check`"),
        "{}",
        refused.stderr
    );
    assert!(!sandbox.join(format!("app/{LOCK}")).exists());
    // A version that adds one is refused at `update`, and the pin stays.
    add_org(&sandbox, &origin);
    let pinned = lock_json(&sandbox);
    origin.commit(
        ".agents/autofix.json",
        "[{\"Rule_number\": 1, \"Category\": \"DATA\", \"Instruction\": \"Never log personal data - because of the GDPR.\", \"Why\": \"org policy\", \"Locked\": true, \"Check\": {\"Forbid\": \"log\\\\(user\"}}]\n",
        "add a check",
    );
    origin.push(&sandbox, false);
    let update = run(&sandbox, &["sources", "update", "org"]).expect_noisy(2);
    assert!(
        update.stderr.contains("rule org:1 has a `Check`"),
        "{}",
        update.stderr
    );
    assert_eq!(lock_json(&sandbox), pinned);
}
