//! The team commands through the binary: `merge-driver` fed three files, then real git in
//! hermetic temporary repositories (no system or global config, fixed identity and dates,
//! the driver command pointing at this build). Every real-git case asserts that the driver
//! actually ran, from the line it prints on git's stderr.

use std::fs;

use crate::support::{BIN, Run, Sandbox, hermetic_git};

const RULES: &str = ".agents/autofix.json";
const RAN: &str = "autofix merge-driver: ";

/// (number, instruction, why) of every rule of a rules file.
fn rules_of(text: &str) -> Vec<(u64, String, String)> {
    let value: serde_json::Value =
        serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}):\n{text}"));
    value
        .as_array()
        .expect("an array")
        .iter()
        .map(|rule| {
            (
                rule["Rule_number"].as_u64().expect("a number"),
                rule["Instruction"].as_str().expect("a string").to_string(),
                rule["Why"].as_str().expect("a string").to_string(),
            )
        })
        .collect()
}

fn rule(number: u64, instruction: &str, why: &str) -> (u64, String, String) {
    (number, instruction.to_string(), why.to_string())
}

/// A file as `learn` writes it.
fn file(rules: &[(u64, &str, &str)]) -> String {
    let objects: Vec<String> = rules
        .iter()
        .map(|(n, instruction, why)| {
            format!(
                "  {{\n    \"Rule_number\": {n},\n    \"Category\": \"CODE\",\n    \"Instruction\": {},\n    \"Why\": {}\n  }}",
                serde_json::to_string(instruction).unwrap(),
                serde_json::to_string(why).unwrap()
            )
        })
        .collect();
    format!("[\n{}\n]\n", objects.join(",\n"))
}

const BASE: &[(u64, &str, &str)] = &[
    (1, "Always use tabs", "user preference"),
    (2, "Never commit secrets", "bug lesson"),
];

fn with(extra: &[(u64, &str, &str)]) -> String {
    file(&[BASE, extra].concat())
}

/// Keeps one side of every conflict, as a person in a merge tool would.
fn pick(text: &str, ours: bool) -> String {
    let mut out = String::new();
    let mut state = 0; // 0 outside, 1 ours, 2 theirs
    for line in text.split_inclusive('\n') {
        match (state, &line[..line.len().min(7)]) {
            (0, "<<<<<<<") => state = 1,
            (1, "=======") => state = 2,
            (2, ">>>>>>>") => state = 0,
            (0, _) => out.push_str(line),
            (1, _) if ours => out.push_str(line),
            (2, _) if !ours => out.push_str(line),
            _ => {}
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// The subcommand fed three files.

struct Three {
    sandbox: Sandbox,
}

impl Three {
    fn new(base: &str, ours: &str, theirs: &str) -> Three {
        let sandbox = Sandbox::new();
        sandbox.write("o.json", base);
        sandbox.write("a.json", ours);
        sandbox.write("b.json", theirs);
        Three { sandbox }
    }

    fn run(&self, extra: &[&str]) -> Run {
        let mut args = vec!["merge-driver"];
        args.extend_from_slice(extra);
        args.extend(["o.json", "a.json", "b.json", RULES]);
        Run::from_command(
            self.sandbox
                .command(&args)
                .env_remove("AUTOFIX_MERGE_UPSTREAM")
                .env_remove("AUTOFIX_MERGE_DRIVER")
                .env_remove("GIT_REFLOG_ACTION"),
        )
    }

    fn result(&self) -> String {
        self.sandbox.read("a.json")
    }
}

#[test]
fn the_driver_merges_three_files_and_prints_the_map() {
    let three = Three::new(
        &with(&[]),
        &with(&[(3, "Always write tests first", "user preference")]),
        &with(&[
            (3, "Never use default exports", "codebase pattern"),
            (4, "Always export types", "pattern (supersedes rule 3)"),
        ]),
    );
    let run = three.run(&[]).expect_noisy(0);
    assert!(run.stderr.starts_with(RAN), "{}", run.stderr);
    assert!(
        run.stderr.contains("theirs' rule 3 \u{2192} 4"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("theirs' rule 4 \u{2192} 5"),
        "{}",
        run.stderr
    );
    let merged = three.result();
    assert_eq!(
        merged,
        with(&[
            (3, "Always write tests first", "user preference"),
            (4, "Never use default exports", "codebase pattern"),
            (5, "Always export types", "pattern (supersedes rule 4)"),
        ])
    );
    // Running it again on its own output is a byte-for-byte fixed point.
    three.run(&[]).expect_noisy(0);
    assert_eq!(three.result(), merged);
}

#[test]
fn an_edit_conflict_exits_1_with_markers_around_that_rule() {
    let base = with(&[]);
    let ours = base.replace("bug lesson", "a leaked key");
    let theirs = with(&[(3, "Always x", "y")]).replace("Never commit secrets", "Never commit keys");
    let three = Three::new(&base, &ours, &theirs);
    let run = three
        .run(&["--ours-label", "HEAD", "--theirs-label", "feature"])
        .expect(1);
    assert!(
        run.stderr
            .contains("CONFLICT rule 2: edited on ours, edited on theirs"),
        "{}",
        run.stderr
    );
    let text = three.result();
    assert_eq!(text.matches("<<<<<<< HEAD\n").count(), 1, "{text}");
    assert_eq!(text.matches(">>>>>>> feature\n").count(), 1);
    assert_eq!(
        rules_of(&pick(&text, true)),
        [
            rule(1, "Always use tabs", "user preference"),
            rule(2, "Never commit secrets", "a leaked key"),
            rule(3, "Always x", "y")
        ]
    );
    assert_eq!(rules_of(&pick(&text, false))[1].1, "Never commit keys");

    let three = Three::new(&base, &ours, &base.replace("bug lesson", "other"));
    three.run(&["--marker-size", "9"]).expect(1);
    assert!(three.result().contains("\n<<<<<<<<< ours\n"));
    // One-sided edits can be taken instead.
    let three = Three::new(&base, &ours, &with(&[(3, "Always x", "y")]));
    three.run(&[]).expect(1);
    let three = Three::new(&base, &ours, &with(&[(3, "Always x", "y")]));
    three.run(&["--accept-one-sided-edits"]).expect_noisy(0);
    assert_eq!(rules_of(&three.result())[1].2, "a leaked key");
}

#[test]
fn a_marker_size_beyond_1024_is_refused_before_merging() {
    let base = with(&[]);
    let ours = base.replace("bug lesson", "a leaked key");
    let three = Three::new(&base, &ours, &base.replace("bug lesson", "other"));
    let run = three.run(&["--marker-size", "4000000000"]).expect(2);
    assert!(
        run.stderr
            .contains("`4000000000` is not a conflict marker length from 1 to 1024"),
        "{}",
        run.stderr
    );
    assert_eq!(three.result(), ours);
    three.run(&["--marker-size", "0"]).expect(2);
    three.run(&["--marker-size", "1024"]).expect(1);
    assert!(
        three
            .result()
            .contains(&format!("\n{} ours\n", "<".repeat(1024)))
    );
    let run = three
        .sandbox
        .run(&["resolve", "--marker-size", "99999", RULES]);
    assert_eq!(run.code, 2, "{}", run.stderr);
}

#[test]
fn unparsable_sides_fall_back_to_git_merge_file() {
    let base = with(&[]);
    let three = Three::new(
        &base,
        &with(&[(3, "Always o", "x")]),
        "[\n  {\"Rule_number\": 3,\n",
    );
    let run = three.run(&["--ours-label", "HEAD"]).expect(1);
    assert!(
        run.stderr.contains("merged as text by `git merge-file`"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("theirs:"), "{}", run.stderr);
    assert!(
        three.result().contains("<<<<<<< HEAD\n"),
        "{}",
        three.result()
    );

    // AUTOFIX_MERGE_DRIVER=0: a plain text merge (here without overlap: clean, exit 0).
    let ours = base.replace("user preference", "pref");
    let theirs = base.replace("bug lesson", "lesson");
    let three = Three::new(&base, &ours, &theirs);
    let run = Run::from_command(
        three
            .sandbox
            .command(&["merge-driver", "o.json", "a.json", "b.json"])
            .env("AUTOFIX_MERGE_DRIVER", "0"),
    )
    .expect_noisy(0);
    assert!(
        run.stderr.contains("AUTOFIX_MERGE_DRIVER=0"),
        "{}",
        run.stderr
    );
    assert_eq!(
        three.result(),
        base.replace("user preference", "pref")
            .replace("bug lesson", "lesson")
    );
}

#[test]
fn internal_errors_exit_255_and_leave_ours_alone() {
    let three = Three::new(&with(&[]), &with(&[(3, "Always o", "x")]), &with(&[]));
    fs::remove_file(three.sandbox.join("o.json")).unwrap();
    let run = three.run(&[]).expect(255);
    assert!(run.stderr.contains("cannot read"), "{}", run.stderr);
    assert_eq!(three.result(), with(&[(3, "Always o", "x")]));

    let three = Three::new(
        &with(&[]),
        &with(&[(3, "Always o", "x")]),
        &with(&[(3, "Always t", "x")]),
    );
    let run = Run::from_command(
        three
            .sandbox
            .command(&["merge-driver", "o.json", "a.json", "b.json"])
            .env("AUTOFIX_MERGE_UPSTREAM", "main"),
    )
    .expect(255);
    assert!(
        run.stderr.contains("AUTOFIX_MERGE_UPSTREAM must be"),
        "{}",
        run.stderr
    );
    assert_eq!(three.result(), with(&[(3, "Always o", "x")]));
}

#[test]
fn upstream_labels_and_the_override_choose_the_kept_numbers() {
    let ours = with(&[(3, "Always feature", "x")]);
    let theirs = with(&[(3, "Always main", "x")]);
    let three = Three::new(&with(&[]), &ours, &theirs);
    let run = three.run(&["--theirs-label", "main"]).expect_noisy(0);
    assert!(
        run.stderr.contains("ours' rule 3 \u{2192} 4"),
        "{}",
        run.stderr
    );
    assert_eq!(
        rules_of(&three.result())[2..],
        [rule(3, "Always main", "x"), rule(4, "Always feature", "x")]
    );

    // git before 2.44 passes the placeholders unexpanded: no label.
    let three = Three::new(&with(&[]), &ours, &theirs);
    three.run(&["--theirs-label", "%Y"]).expect_noisy(0);
    assert_eq!(rules_of(&three.result())[2].1, "Always feature");

    let three = Three::new(&with(&[]), &ours, &theirs);
    Run::from_command(
        three
            .sandbox
            .command(&[
                "merge-driver",
                "--theirs-label",
                "main",
                "o.json",
                "a.json",
                "b.json",
            ])
            .env("AUTOFIX_MERGE_UPSTREAM", "ours"),
    )
    .expect_noisy(0);
    assert_eq!(rules_of(&three.result())[2].1, "Always feature");
}

#[test]
fn check_points_leftover_markers_at_resolve() {
    let sandbox = Sandbox::new();
    sandbox.write(
        RULES,
        "[\n  {\"Rule_number\": 1},\n<<<<<<< HEAD\n  {}\n=======\n>>>>>>> main\n]\n",
    );
    let run = sandbox.run(&["check"]).expect(1);
    assert!(
        run.stdout
            .contains("error[invalid-json]: leftover merge conflict marker `<<<<<<<`"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains(".agents/autofix.json:3:1"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("autofix resolve"), "{}", run.stdout);
}

// ---------------------------------------------------------------------------------------
// Real git.

/// A hermetic git repository in a sandbox, on branch `main`.
struct Repo {
    sandbox: Sandbox,
    dir: String,
}

impl Repo {
    /// A repository with the two base rules committed and the driver installed (config
    /// pointing at this build, attribute committed) unless `driver` is false.
    fn new(driver: bool) -> Repo {
        let repo = Repo {
            sandbox: Sandbox::new(),
            dir: String::new(),
        };
        repo.git(&["init", "-q", "-b", "main"]).expect(0);
        repo.sandbox.write(RULES, with(&[]));
        // As autofix writes it with its first lock in `.agents/`: what a killed writer
        // leaves stays out of git.
        repo.sandbox.write(".agents/.gitignore", "*.lock\n.*.tmp\n");
        if driver {
            repo.configure_driver();
            repo.sandbox
                .write(".gitattributes", format!("{RULES} merge=autofix\n"));
        }
        repo.git(&["add", "-A"]).expect(0);
        repo.git(&["commit", "-q", "-m", "base"]).expect(0);
        repo
    }

    fn configure_driver(&self) {
        let command = format!(
            "'{BIN}' merge-driver --marker-size %L --base-label %S --ours-label %X --theirs-label %Y %O %A %B %P"
        );
        self.git(&["config", "merge.autofix.driver", &command])
            .expect(0);
    }

    fn path(&self) -> std::path::PathBuf {
        self.sandbox.join(&self.dir)
    }

    fn git(&self, args: &[&str]) -> Run {
        let mut command = self.sandbox.program("git", args);
        command.current_dir(self.path());
        Run::from_command(hermetic_git(&mut command))
    }

    fn autofix(&self, args: &[&str]) -> Run {
        let mut command = self.sandbox.program(BIN, args);
        command.current_dir(self.path());
        Run::from_command(hermetic_git(&mut command))
    }

    fn learn(&self, instruction: &str, supersedes: Option<u64>) -> Run {
        let mut args = vec!["learn", "-c", "code", "-w", "pref", instruction];
        let number;
        if let Some(n) = supersedes {
            number = n.to_string();
            args.extend(["-s", &number]);
        }
        self.autofix(&args).expect(0)
    }

    /// Learns and commits.
    fn commit_rule(&self, instruction: &str, supersedes: Option<u64>) {
        self.learn(instruction, supersedes);
        self.git(&["commit", "-q", "-am", instruction]).expect(0);
    }

    fn rules(&self) -> Vec<(u64, String, String)> {
        rules_of(&self.text())
    }

    fn text(&self) -> String {
        fs::read_to_string(self.path().join(RULES)).unwrap()
    }

    fn instructions(&self) -> Vec<(u64, String)> {
        self.rules().into_iter().map(|(n, i, _)| (n, i)).collect()
    }
}

fn driver_ran(run: &Run) -> bool {
    run.stderr.contains(RAN) || run.stdout.contains(RAN)
}

#[track_caller]
fn assert_ran(run: &Run) {
    assert!(
        driver_ran(run),
        "the driver did not run\n--- stdout\n{}\n--- stderr\n{}",
        run.stdout,
        run.stderr
    );
}

fn numbered(pairs: &[(u64, &str)]) -> Vec<(u64, String)> {
    pairs.iter().map(|(n, i)| (*n, i.to_string())).collect()
}

#[test]
fn git_merge_renumbers_the_merged_branch() {
    let repo = Repo::new(true);
    repo.git(&["checkout", "-q", "-b", "feature"]).expect(0);
    repo.commit_rule("Always write tests first", None);
    repo.git(&["checkout", "-q", "main"]).expect(0);
    repo.commit_rule("Never use default exports", None);
    // A driver that cannot merge (here: a bad override, exit 255) fails the merge cleanly.
    let mut command = repo
        .sandbox
        .program("git", &["merge", "--no-edit", "feature"]);
    command.current_dir(repo.path());
    let failed =
        Run::from_command(hermetic_git(&mut command).env("AUTOFIX_MERGE_UPSTREAM", "bogus"));
    assert_ne!(failed.code, 0);
    assert_ran(&failed);
    assert_eq!(repo.git(&["status", "--porcelain"]).expect(0).stdout, "");
    let run = repo
        .git(&["merge", "-q", "--no-edit", "feature"])
        .expect_noisy(0);
    assert_ran(&run);
    assert!(
        run.stderr.contains("theirs' rule 3 \u{2192} 4"),
        "{}",
        run.stderr
    );
    assert_eq!(
        repo.instructions()[2..],
        numbered(&[
            (3, "Never use default exports"),
            (4, "Always write tests first")
        ])
    );
    repo.autofix(&["check"]).expect(0);
}

#[test]
fn a_two_commit_rebase_passes_check_at_every_step() {
    let repo = Repo::new(true);
    repo.git(&["checkout", "-q", "-b", "feature"]).expect(0);
    repo.commit_rule("Always write tests first", None);
    repo.commit_rule("Always write tests", Some(3));
    repo.git(&["checkout", "-q", "main"]).expect(0);
    repo.commit_rule("Never use default exports", None);
    repo.git(&["checkout", "-q", "feature"]).expect(0);
    let run = repo
        .git(&["rebase", "main", "-x", "autofix check"])
        .expect_noisy(0);
    assert_ran(&run);
    assert_eq!(
        run.stdout.matches("Executing: autofix check").count()
            + run.stderr.matches("Executing: autofix check").count(),
        2
    );
    assert_eq!(
        repo.rules()[2..],
        [
            rule(3, "Never use default exports", "pref"),
            rule(4, "Always write tests first", "pref"),
            rule(5, "Always write tests", "pref (supersedes rule 4)"),
        ]
    );
}

#[test]
fn cherry_pick_appends_with_the_next_number() {
    let repo = Repo::new(true);
    repo.git(&["checkout", "-q", "-b", "feature"]).expect(0);
    repo.commit_rule("Always write tests first", None);
    repo.git(&["checkout", "-q", "main"]).expect(0);
    repo.commit_rule("Never use default exports", None);
    let run = repo.git(&["cherry-pick", "feature"]).expect_noisy(0);
    assert_ran(&run);
    assert_eq!(
        repo.instructions()[2..],
        numbered(&[
            (3, "Never use default exports"),
            (4, "Always write tests first")
        ])
    );
    // The branch's next commit supersedes its first rule, which main has under 4 now.
    repo.git(&["checkout", "-q", "feature"]).expect(0);
    repo.commit_rule("Always write tests", Some(3));
    repo.git(&["checkout", "-q", "main"]).expect(0);
    assert_ran(&repo.git(&["cherry-pick", "feature"]).expect_noisy(0));
    assert_eq!(
        repo.rules()[4],
        rule(5, "Always write tests", "pref (supersedes rule 4)")
    );
}

#[test]
fn criss_cross_merges_converge() {
    let repo = Repo::new(true);
    repo.git(&["checkout", "-q", "-b", "a"]).expect(0);
    repo.commit_rule("Always a1", None);
    repo.git(&["checkout", "-q", "-b", "b", "main"]).expect(0);
    repo.commit_rule("Always b1", None);
    repo.git(&["checkout", "-q", "a"]).expect(0);
    assert_ran(
        &repo
            .git(&["merge", "-q", "--no-edit", "b~0"])
            .expect_noisy(0),
    );
    repo.git(&["checkout", "-q", "b"]).expect(0);
    assert_ran(
        &repo
            .git(&["merge", "-q", "--no-edit", "a~1"])
            .expect_noisy(0),
    );
    repo.commit_rule("Always b2", None);
    repo.git(&["checkout", "-q", "a"]).expect(0);
    repo.commit_rule("Always a2", None);
    // Two merge bases: git merges them first (with the driver), then the branches.
    let bases = repo.git(&["merge-base", "--all", "a", "b"]).expect(0);
    assert_eq!(bases.stdout.lines().count(), 2);
    let run = repo.git(&["merge", "--no-edit", "b"]).expect_noisy(0);
    assert_ran(&run);
    let instructions: Vec<String> = repo.instructions().into_iter().map(|(_, i)| i).collect();
    for wanted in ["Always a1", "Always b1", "Always a2", "Always b2"] {
        assert_eq!(
            instructions.iter().filter(|i| *i == wanted).count(),
            1,
            "{instructions:?}"
        );
    }
    assert_eq!(repo.rules().len(), 6);
    repo.autofix(&["check"]).expect(0);
}

#[test]
fn both_branches_learning_the_same_rule_keep_one_copy() {
    let repo = Repo::new(true);
    repo.git(&["checkout", "-q", "-b", "feature"]).expect(0);
    repo.commit_rule("Always write tests first", None);
    repo.commit_rule("Always name the ticket", None);
    repo.git(&["checkout", "-q", "main"]).expect(0);
    // The same rule, in another commit (same message and date would be the same commit).
    repo.learn("Always write tests first", None);
    repo.git(&["commit", "-q", "-am", "main learns it too"])
        .expect(0);
    let run = repo
        .git(&["merge", "-q", "--no-edit", "feature"])
        .expect_noisy(0);
    assert_ran(&run);
    assert_eq!(
        repo.instructions()[2..],
        numbered(&[
            (3, "Always write tests first"),
            (4, "Always name the ticket")
        ])
    );
}

#[test]
fn both_branches_superseding_one_rule_merge_with_a_warning() {
    let repo = Repo::new(true);
    repo.git(&["checkout", "-q", "-b", "feature"]).expect(0);
    repo.commit_rule("Always use spaces", Some(1));
    repo.git(&["checkout", "-q", "main"]).expect(0);
    repo.commit_rule("Always use two spaces", Some(1));
    let run = repo
        .git(&["merge", "-q", "--no-edit", "feature"])
        .expect_noisy(0);
    assert_ran(&run);
    assert!(
        run.stderr.contains("both supersede rule 1"),
        "{}",
        run.stderr
    );
    assert_eq!(
        repo.rules()[3],
        rule(4, "Always use spaces", "pref (supersedes rule 1)")
    );
    let check = repo.autofix(&["check"]).expect(0);
    assert!(
        check.stdout.contains("warning[multiple-supersedes]"),
        "{}",
        check.stdout
    );
}

#[test]
fn an_edit_conflict_is_valid_json_after_picking_either_side() {
    let repo = Repo::new(true);
    let edit = |from: &str, to: &str, message: &str| {
        let text = repo.text().replace(from, to);
        repo.sandbox.write(RULES, text);
        repo.git(&["commit", "-q", "-am", message]).expect(0);
    };
    repo.git(&["checkout", "-q", "-b", "feature"]).expect(0);
    edit("bug lesson", "a leaked key", "why");
    repo.commit_rule("Always feature", None);
    repo.git(&["checkout", "-q", "main"]).expect(0);
    edit("Never commit secrets", "Never commit keys", "instruction");
    let run = repo.git(&["merge", "--no-edit", "feature"]).expect(1);
    assert_ran(&run);
    assert!(run.stdout.contains("CONFLICT"), "{}", run.stdout);
    let text = repo.text();
    assert_eq!(text.matches("<<<<<<< HEAD").count(), 1, "{text}");
    assert!(text.contains(">>>>>>> feature"), "{text}");
    for ours in [true, false] {
        let picked = pick(&text, ours);
        let rules = rules_of(&picked);
        assert_eq!(rules.len(), 3);
        assert_eq!(rules[2], rule(3, "Always feature", "pref"));
        repo.sandbox.write(RULES, &picked);
        repo.autofix(&["check"]).expect(0);
    }
}

#[test]
fn merging_main_into_a_feature_keeps_mains_numbers() {
    let repo = Repo::new(true);
    repo.git(&["checkout", "-q", "-b", "feature"]).expect(0);
    repo.commit_rule("Always feature", None);
    repo.git(&["checkout", "-q", "main"]).expect(0);
    repo.commit_rule("Always main one", None);
    repo.commit_rule("Always main two", Some(3));
    repo.git(&["checkout", "-q", "feature"]).expect(0);
    let run = repo
        .git(&["merge", "-q", "--no-edit", "main"])
        .expect_noisy(0);
    assert_ran(&run);
    assert!(
        run.stderr.contains("kept theirs' numbers"),
        "{}",
        run.stderr
    );
    assert_eq!(
        repo.rules()[2..],
        [
            rule(3, "Always main one", "pref"),
            rule(4, "Always main two", "pref (supersedes rule 3)"),
            rule(5, "Always feature", "pref"),
        ]
    );
    // Main's bytes are kept: the result is main's file plus one appended rule.
    let main = repo
        .git(&["show", &format!("main:{RULES}")])
        .expect(0)
        .stdout;
    assert!(
        repo.text()
            .starts_with(main.trim_end().trim_end_matches(']').trim_end())
    );
}

#[test]
fn a_pull_that_merges_keeps_the_upstream_numbers() {
    let upstream = Repo::new(true);
    let clone = Repo {
        sandbox: Sandbox::new(),
        dir: "clone".into(),
    };
    let source = upstream.sandbox.path().to_str().unwrap().to_string();
    let mut command = clone
        .sandbox
        .program("git", &["clone", "-q", &source, "clone"]);
    Run::from_command(hermetic_git(&mut command)).expect(0);
    clone.configure_driver();
    clone.commit_rule("Always local", None);
    upstream.commit_rule("Always upstream", None);
    let run = clone
        .git(&["-c", "pull.rebase=false", "pull", "--no-edit"])
        .expect_noisy(0);
    assert_ran(&run);
    assert_eq!(
        clone.instructions()[2..],
        numbered(&[(3, "Always upstream"), (4, "Always local")])
    );
}

#[test]
fn without_the_driver_resolve_rebuilds_the_merge_from_the_index() {
    let repo = Repo::new(false);
    repo.git(&["checkout", "-q", "-b", "feature"]).expect(0);
    repo.commit_rule("Always write tests first", None);
    repo.git(&["checkout", "-q", "main"]).expect(0);
    repo.commit_rule("Never use default exports", None);
    let run = repo.git(&["merge", "--no-edit", "feature"]).expect(1);
    assert!(!driver_ran(&run));
    repo.autofix(&["check"]).expect(1);
    let resolved = repo.autofix(&["resolve"]).expect(0);
    assert!(
        resolved.stdout.contains("theirs' rule 3 \u{2192} 4"),
        "{}",
        resolved.stdout
    );
    assert_eq!(
        repo.instructions()[2..],
        numbered(&[
            (3, "Never use default exports"),
            (4, "Always write tests first")
        ])
    );
    repo.autofix(&["check"]).expect(0);
    repo.git(&["add", RULES]).expect(0);
    repo.git(&["commit", "-q", "--no-edit"]).expect(0);
    // Nothing left to resolve.
    let again = repo.autofix(&["resolve", RULES]).expect(2);
    assert!(
        again.stderr.contains("no merge conflict"),
        "{}",
        again.stderr
    );
}

#[test]
fn resolve_reads_the_upstream_from_the_markers_and_reports_json() {
    let repo = Repo::new(false);
    repo.git(&["checkout", "-q", "-b", "feature"]).expect(0);
    repo.commit_rule("Always feature", None);
    repo.git(&["checkout", "-q", "main"]).expect(0);
    repo.commit_rule("Always main", None);
    repo.git(&["checkout", "-q", "feature"]).expect(0);
    repo.git(&["merge", "--no-edit", "main"]).expect(1);
    let json = repo
        .autofix(&["resolve", "--format", "json"])
        .expect(0)
        .json();
    assert_eq!(json["version"], 1);
    for field in [
        "path",
        "status",
        "kept",
        "reason",
        "added",
        "dropped",
        "conflicts",
        "warnings",
    ] {
        assert!(json.get(field).is_some(), "resolve JSON lacks `{field}`");
    }
    assert_eq!(json["status"], "merged");
    assert_eq!(json["kept"], "theirs");
    assert_eq!(json["added"][0]["from"], 3);
    assert_eq!(json["added"][0]["to"], 4);
    assert_eq!(
        repo.instructions()[2..],
        numbered(&[(3, "Always main"), (4, "Always feature")])
    );
    // Again, with the markers gone: the merge message still names `main`; same bytes.
    let first = repo.text();
    let again = repo.autofix(&["resolve"]).expect(0);
    assert!(
        again.stdout.contains("the upstream branch `main`"),
        "{}",
        again.stdout
    );
    assert_eq!(repo.text(), first);
}

#[test]
fn install_uninstall_and_install_again() {
    let repo = Repo::new(false);
    let config = |key: &str| {
        repo.git(&["config", "--get", key])
            .stdout
            .trim()
            .to_string()
    };
    let first = repo.autofix(&["merge-driver", "--install"]).expect(0);
    assert!(first.stdout.starts_with("Installed"), "{}", first.stdout);
    assert_eq!(
        repo.sandbox.read(".gitattributes"),
        format!("{RULES} merge=autofix\n/AGENTS.md merge=autofix-export\n")
    );
    assert_eq!(
        config("merge.autofix.driver"),
        "autofix merge-driver --marker-size %L --base-label %S --ours-label %X --theirs-label %Y %O %A %B %P"
    );
    let again = repo.autofix(&["merge-driver", "--install"]).expect(0);
    assert!(
        again.stdout.starts_with("Nothing to do"),
        "{}",
        again.stdout
    );
    assert_eq!(
        repo.sandbox.read(".gitattributes"),
        format!("{RULES} merge=autofix\n/AGENTS.md merge=autofix-export\n")
    );
    let attr = repo.git(&["check-attr", "merge", "--", RULES]).expect(0);
    assert_eq!(attr.stdout, format!("{RULES}: merge: autofix\n"));

    repo.autofix(&["merge-driver", "--uninstall"]).expect(0);
    assert!(!repo.sandbox.join(".gitattributes").exists());
    assert_eq!(config("merge.autofix.driver"), "");
    assert!(!repo.sandbox.read(".git/config").contains("autofix"));
    let none = repo.autofix(&["merge-driver", "--uninstall"]).expect(0);
    assert!(none.stdout.starts_with("Nothing to do"), "{}", none.stdout);

    // Other attributes survive both ways.
    repo.sandbox.write(".gitattributes", "*.sh text eol=lf\n");
    repo.autofix(&["merge-driver", "--install"]).expect(0);
    assert_eq!(
        repo.sandbox.read(".gitattributes"),
        format!("*.sh text eol=lf\n{RULES} merge=autofix\n/AGENTS.md merge=autofix-export\n")
    );
    repo.autofix(&["merge-driver", "--uninstall"]).expect(0);
    assert_eq!(repo.sandbox.read(".gitattributes"), "*.sh text eol=lf\n");
    repo.autofix(&["merge-driver", "--install"]).expect(0);

    // The installed driver is the one git runs (found on PATH as `autofix`).
    repo.git(&["add", "-A"]).expect(0);
    repo.git(&["commit", "-q", "-m", "driver"]).expect(0);
    repo.git(&["checkout", "-q", "-b", "feature"]).expect(0);
    repo.commit_rule("Always feature", None);
    repo.git(&["checkout", "-q", "main"]).expect(0);
    repo.commit_rule("Always main", None);
    assert_ran(
        &repo
            .git(&["merge", "-q", "--no-edit", "feature"])
            .expect_noisy(0),
    );
}

#[test]
fn install_global_writes_the_global_config() {
    let repo = Repo::new(false);
    let global = repo.sandbox.join("home/.gitconfig");
    fs::write(&global, "").unwrap();
    let run_global = |args: &[&str]| {
        let mut command = repo.sandbox.program(BIN, args);
        command.current_dir(repo.path());
        hermetic_git(&mut command).env("GIT_CONFIG_GLOBAL", &global);
        Run::from_command(&mut command)
    };
    run_global(&["merge-driver", "--install", "--global"]).expect(0);
    let text = fs::read_to_string(&global).unwrap();
    assert!(text.contains("[merge \"autofix\"]"), "{text}");
    assert!(!repo.sandbox.read(".git/config").contains("autofix"));
    assert!(repo.sandbox.join(".gitattributes").exists());
    run_global(&["merge-driver", "--uninstall", "--global"]).expect(0);
    assert!(!fs::read_to_string(&global).unwrap().contains("autofix"));
    // --global needs --install or --uninstall; a local install needs a repository.
    repo.autofix(&["merge-driver", "--global"]).expect(2);
    let outside = Sandbox::new();
    let mut command = outside.program(BIN, &["merge-driver", "--install"]);
    hermetic_git(&mut command).env("GIT_CEILING_DIRECTORIES", outside.path());
    let run = Run::from_command(&mut command).expect(2);
    assert!(
        run.stderr.contains("not inside a git work tree"),
        "{}",
        run.stderr
    );
}

#[test]
fn doctor_names_the_fix_for_each_failed_check() {
    let repo = Repo::new(false);
    let before = repo.autofix(&["doctor"]).expect(1);
    assert!(before.stdout.contains("FAIL  driver"), "{}", before.stdout);
    assert!(
        before
            .stdout
            .contains("fix: autofix merge-driver --install"),
        "{}",
        before.stdout
    );
    assert!(
        before.stdout.contains("FAIL  attribute"),
        "{}",
        before.stdout
    );
    assert!(before.stdout.contains("ok    binary"), "{}", before.stdout);
    repo.autofix(&["merge-driver", "--install"]).expect(0);
    let after = repo
        .autofix(&["doctor", "--format", "json"])
        .expect(0)
        .json();
    assert_eq!(after["ok"], true, "{after}");
    let names: Vec<&str> = after["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "git",
            "driver",
            "attribute",
            "exports",
            "binary",
            "rules-file"
        ]
    );

    repo.sandbox.write(RULES, "[\n<<<<<<< HEAD\n]\n");
    let broken = repo.autofix(&["doctor"]).expect(1);
    assert!(
        broken.stdout.contains("FAIL  rules-file"),
        "{}",
        broken.stdout
    );
    assert!(
        broken.stdout.contains("fix: autofix resolve"),
        "{}",
        broken.stdout
    );
}

/// In a fresh clone the attributes come committed and only the local git config is
/// missing: doctor's fix is the install, without "then commit .gitattributes".
#[test]
fn doctor_asks_to_commit_gitattributes_only_when_it_lacks_the_line() {
    let repo = Repo::new(true);
    repo.sandbox
        .write(".agents/autofix.sources.lock.json", "{}\n");
    repo.sandbox.write(
        ".gitattributes",
        format!("{RULES} merge=autofix\n.agents/autofix.sources.lock.json merge=autofix-sources\n"),
    );
    repo.git(&["add", "-A"]).expect(0);
    repo.git(&["commit", "-q", "-m", "sources"]).expect(0);
    let run = repo.autofix(&["doctor"]).expect(1);
    assert!(run.stdout.contains("FAIL  sources"), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("fix: autofix sources merge-driver --install\n"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("then commit"), "{}", run.stdout);
    // Without the line, committing it is part of the fix.
    repo.sandbox
        .write(".gitattributes", format!("{RULES} merge=autofix\n"));
    let run = repo.autofix(&["doctor"]).expect(1);
    assert!(
        run.stdout
            .contains("fix: autofix sources merge-driver --install, then commit .gitattributes"),
        "{}",
        run.stdout
    );
}

/// Two branches that each learn (refreshing their exports) merge and rebase with no
/// conflict anywhere; one `autofix export` brings every copy in sync.
#[test]
fn exported_copies_never_stop_a_merge_or_a_rebase() {
    for rebase in [false, true] {
        let repo = Repo::new(false);
        repo.sandbox.write(".claude/settings.json", "{}\n");
        repo.sandbox.write("CLAUDE.md", "# Claude\n");
        repo.sandbox.write("AGENTS.md", "# Agents\n\nBe kind.\n");
        // Copilot CLI reads AGENTS.md and `.claude/rules/` (the guard would hide AGENTS.md's
        // own text from Claude Code): warned on stderr.
        repo.autofix(&["export"]).expect_noisy(0);
        repo.autofix(&["merge-driver", "--install"]).expect(0);
        let attributes = repo.sandbox.read(".gitattributes");
        assert!(
            attributes.contains("AGENTS.md merge=autofix-export"),
            "{attributes}"
        );
        assert!(
            attributes.contains(".claude/rules/autofix.md merge=autofix-export"),
            "{attributes}"
        );
        repo.git(&["add", "-A"]).expect(0);
        repo.git(&["commit", "-q", "-m", "export"]).expect(0);

        repo.git(&["checkout", "-q", "-b", "feature"]).expect(0);
        repo.sandbox.write(
            "AGENTS.md",
            repo.sandbox
                .read("AGENTS.md")
                .replace("# Agents", "# Our agents"),
        );
        repo.commit_rule("Always write tests first", None);
        repo.git(&["checkout", "-q", "main"]).expect(0);
        repo.sandbox.write(
            "AGENTS.md",
            repo.sandbox
                .read("AGENTS.md")
                .replace("Be kind.", "Be kind and brief."),
        );
        repo.commit_rule("Never use default exports", None);

        let run = if rebase {
            repo.git(&["checkout", "-q", "feature"]).expect(0);
            repo.git(&["rebase", "main"])
        } else {
            repo.git(&["merge", "--no-edit", "feature"])
        };
        assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
        assert!(!run.stdout.contains("CONFLICT"), "{}", run.stdout);
        let agents = repo.sandbox.read("AGENTS.md");
        assert!(
            agents.starts_with("# Our agents\n\nBe kind and brief.\n"),
            "{agents}"
        );
        // The copies hold one side's list until the export regenerates them.
        repo.autofix(&["export", "--check"]).expect(1);
        repo.autofix(&["export"]).expect_noisy(0);
        repo.autofix(&["export", "--check"]).expect_noisy(0);
        for path in ["AGENTS.md", ".claude/rules/autofix.md"] {
            let text = repo.sandbox.read(path);
            assert!(
                text.contains("Always write tests first")
                    && text.contains("Never use default exports"),
                "{path}: {text}"
            );
        }
        repo.autofix(&["check"]).expect(0);
    }
}

/// The messages around a conflict say what is true and what to do next.
#[test]
fn conflict_messages_name_the_next_step() {
    // A fresh repository: nothing to resolve, and git is fine.
    let fresh = Repo::new(false);
    fs::remove_dir_all(fresh.sandbox.join(".agents")).unwrap();
    let run = fresh.autofix(&["resolve"]).expect(2);
    assert!(
        run.stderr.contains("has no merge conflict in the index"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("cannot run git"), "{}", run.stderr);

    // Without the driver, two branches' rules conflict as text.
    let repo = Repo::new(false);
    repo.git(&["checkout", "-q", "-b", "feature"]).expect(0);
    repo.commit_rule("Always feature", None);
    repo.git(&["checkout", "-q", "main"]).expect(0);
    repo.commit_rule("Always main", None);
    repo.git(&["merge", "--no-edit", "feature"]).expect(1);
    // Reading a file with markers names them and the command that fixes it.
    let run = repo.autofix(&["rules"]).expect(2);
    assert!(
        run.stderr
            .contains("leftover merge conflict marker `<<<<<<<`: run `autofix resolve`"),
        "{}",
        run.stderr
    );
    let doctor = repo.autofix(&["doctor"]).expect(1);
    assert!(
        doctor.stdout.contains("fix: autofix resolve"),
        "{}",
        doctor.stdout
    );
    repo.autofix(&["resolve"]).expect(0);
    // Resolved in the work tree: what is left is staging it, not resolving again.
    let doctor = repo.autofix(&["doctor"]).expect(1);
    assert!(
        doctor.stdout.contains("merged but not staged"),
        "{}",
        doctor.stdout
    );
    assert!(
        doctor.stdout.contains(&format!("git add {RULES}")),
        "{}",
        doctor.stdout
    );
    assert!(
        !doctor.stdout.contains("fix: autofix resolve"),
        "{}",
        doctor.stdout
    );
    repo.git(&["add", RULES]).expect(0);
    let doctor = repo.autofix(&["doctor"]).stdout;
    assert!(doctor.contains("ok    rules-file"), "{doctor}");
}

#[test]
fn resolve_then_learn_then_resolve_keeps_the_learned_rule() {
    let repo = Repo::new(false);
    repo.git(&["checkout", "-q", "-b", "feature"]).expect(0);
    repo.commit_rule("Always feature", None);
    repo.git(&["checkout", "-q", "main"]).expect(0);
    repo.commit_rule("Always main", None);
    repo.git(&["checkout", "-q", "feature"]).expect(0);
    repo.git(&["merge", "--no-edit", "main"]).expect(1);
    repo.autofix(&["resolve"]).expect(0);
    repo.learn("Always learned after the merge", None);
    let before = repo.text();
    // The index still holds the conflict: rebuilding from it would lose the new rule.
    let run = repo.autofix(&["resolve"]).expect(2);
    assert!(
        run.stderr.contains("Always learned after the merge")
            && run.stderr.contains("--drop-work-tree-rules"),
        "{}",
        run.stderr
    );
    assert_eq!(repo.text(), before);
    // Asked for exactly that, it drops them.
    repo.autofix(&["resolve", "--drop-work-tree-rules"])
        .expect(0);
    assert!(!repo.text().contains("Always learned after the merge"));
}

/// Two branches that each learn a rule for the same new scope create the same scoped
/// file on both sides: the merge stops nowhere, because the driver's line covers every
/// scoped file of the target, and `doctor` checks each exported file.
#[test]
fn scoped_files_learned_on_two_branches_never_stop_a_merge() {
    let repo = Repo::new(false);
    repo.sandbox.write(".claude/settings.json", "{}\n");
    repo.autofix(&["export"]).expect(0);
    repo.autofix(&["merge-driver", "--install"]).expect(0);
    let attributes = repo.sandbox.read(".gitattributes");
    assert!(
        attributes.contains(".claude/rules/autofix-*.md merge=autofix-export"),
        "{attributes}"
    );
    repo.git(&["add", "-A"]).expect(0);
    repo.git(&["commit", "-q", "-m", "export"]).expect(0);
    let learn_scoped = |instruction: &str| {
        repo.autofix(&[
            "learn",
            "-c",
            "code",
            "-w",
            "pref",
            "--path",
            "src/api/**",
            instruction,
        ])
        .expect(0);
        repo.git(&["add", "-A"]).expect(0);
        repo.git(&["commit", "-q", "-m", instruction]).expect(0);
    };
    repo.git(&["checkout", "-q", "-b", "feature"]).expect(0);
    learn_scoped("Always validate request bodies");
    repo.git(&["checkout", "-q", "main"]).expect(0);
    learn_scoped("Never log request secrets");
    let scoped: Vec<String> = crate::support::files_below(&repo.path())
        .into_iter()
        .filter(|f| f.starts_with(".claude/rules/autofix-src-api-"))
        .collect();
    assert_eq!(scoped.len(), 1, "{scoped:?}");
    let doctor = repo.autofix(&["doctor"]).expect(0);
    assert!(
        doctor.stdout.contains("ok    exports     3 exported files"),
        "{}",
        doctor.stdout
    );

    let run = repo.git(&["merge", "--no-edit", "feature"]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    assert!(!run.stdout.contains("CONFLICT"), "{}", run.stdout);
    repo.autofix(&["export"]).expect(0);
    let text = repo.sandbox.read(&scoped[0]);
    assert!(
        text.contains("Always validate request bodies")
            && text.contains("Never log request secrets"),
        "{text}"
    );

    // An install from before the scoped line: doctor names the scoped file, and the
    // install adds the line.
    repo.sandbox.write(
        ".gitattributes",
        format!(
            "{RULES} merge=autofix\n/AGENTS.md merge=autofix-export\n.claude/CLAUDE.md merge=autofix-export\n"
        ),
    );
    repo.git(&["commit", "-q", "-am", "old attributes"])
        .expect(0);
    let doctor = repo.autofix(&["doctor"]).expect(1);
    assert!(
        doctor.stdout.contains("FAIL  exports")
            && doctor.stdout.contains(&format!(
                "no merge=autofix-export attribute on {}",
                scoped[0]
            )),
        "{}",
        doctor.stdout
    );
    repo.autofix(&["merge-driver", "--install"]).expect(0);
    repo.autofix(&["doctor"]).expect(0);
}

/// A target exported after the drivers were installed gets its line at once.
#[test]
fn a_target_exported_later_is_covered_by_the_export_driver() {
    let repo = Repo::new(false);
    repo.autofix(&["export"]).expect(0);
    repo.autofix(&["merge-driver", "--install"]).expect(0);
    assert!(!repo.sandbox.read(".gitattributes").contains("GEMINI.md"));
    let run = repo.autofix(&["export", "--target", "gemini-md"]).expect(0);
    assert!(
        run.stdout
            .contains("added `/GEMINI.md merge=autofix-export` to .gitattributes"),
        "{}",
        run.stdout
    );
    let check = repo
        .git(&["check-attr", "merge", "--", "GEMINI.md"])
        .expect(0);
    assert_eq!(check.stdout, "GEMINI.md: merge: autofix-export\n");
    repo.autofix(&["doctor"]).expect(0);
    // Without the drivers set up, export leaves `.gitattributes` alone.
    let bare = Repo::new(false);
    bare.autofix(&["export", "--target", "gemini-md"]).expect(0);
    assert!(!bare.path().join(".gitattributes").exists());
}

/// People's text that holds the line the export driver sets the block aside with is
/// theirs: the merge keeps one block, and `export` accepts the file after it.
#[test]
fn the_drivers_placeholder_in_peoples_text_stays_text() {
    let repo = Repo::new(false);
    let placeholder = "<!-- autofix-rules: set aside for the merge -->";
    repo.sandbox.write(
        "AGENTS.md",
        format!("# Agents\n\n{placeholder}\n\nBe kind.\n"),
    );
    repo.autofix(&["export"]).expect(0);
    repo.autofix(&["merge-driver", "--install"]).expect(0);
    repo.git(&["add", "-A"]).expect(0);
    repo.git(&["commit", "-q", "-m", "export"]).expect(0);
    repo.git(&["checkout", "-q", "-b", "feature"]).expect(0);
    repo.commit_rule("Always write tests first", None);
    repo.git(&["checkout", "-q", "main"]).expect(0);
    repo.commit_rule("Never use default exports", None);
    let run = repo.git(&["merge", "--no-edit", "feature"]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let agents = repo.sandbox.read("AGENTS.md");
    assert_eq!(
        agents.matches("<!-- BEGIN:autofix-rules -->").count(),
        1,
        "{agents}"
    );
    assert_eq!(agents.matches(placeholder).count(), 1, "{agents}");
    repo.autofix(&["export"]).expect(0);
    let agents = repo.sandbox.read("AGENTS.md");
    assert!(agents.contains("Always write tests first"), "{agents}");
}
