//! The export targets: where each agent looks, in which mode autofix writes there, the
//! budgets the agents impose, which targets are on by default, and which agents read which
//! target (for the duplicate-reader warning).

use std::fs;
use std::path::Path;

use super::markdown::{self, Context};
use super::peers::Peers;
use super::{block, owned};
use crate::report::text;
use crate::rules::budget::Budget;

/// How autofix writes a target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Only between our markers, in a file people also edit.
    Block,
    /// The whole file, which carries our stamp.
    Owned,
}

impl Kind {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Kind::Block => "block",
            Kind::Owned => "owned",
        }
    }
}

/// How an agent is shown a rule that applies only to some paths.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Scoping {
    /// Under a heading naming its globs, in the same file: how the files every agent
    /// reads (`AGENTS.md`, `CLAUDE.md`, …) show it, and the fallback for agents without a
    /// scoped form.
    Headings,
    /// In a stamped file of its own beside the target's (`autofix-<scope>.<ext>`), whose
    /// frontmatter, made by `frontmatter` from the scope's globs, tells the agent when to
    /// load it; `form` names the mechanism for the listing.
    Files {
        form: &'static str,
        frontmatter: fn(&Native) -> String,
    },
}

impl Scoping {
    pub(crate) fn form(self) -> &'static str {
        match self {
            Scoping::Headings => "heading",
            Scoping::Files { form, .. } => form,
        }
    }
}

/// A scope in the agents' glob dialect (see [`crate::rules::scope::native`]).
pub(crate) type Native = crate::rules::scope::Native;

/// When a target is exported without being asked for (besides "exported before").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Detect {
    /// Always, unless rulesync or Ruler is used (then only their source targets are).
    Default,
    /// When this folder exists.
    Folder(&'static str),
    /// When this file or this folder exists.
    FileOrFolder(&'static str, &'static str),
    /// When `CLAUDE.md` or `.claude/` exists and Claude Code does not read `AGENTS.md`.
    ClaudeRules,
    /// Only when asked for.
    Asked,
}

impl Detect {
    pub(crate) fn describe(self) -> String {
        match self {
            Detect::Default => "by default (not beside rulesync or Ruler)".to_string(),
            Detect::Folder(folder) => {
                format!("when {folder}/ exists, when asked, or once exported before")
            }
            Detect::FileOrFolder(file, folder) => {
                format!("when {file} or {folder}/ exists, when asked, or once exported before")
            }
            Detect::ClaudeRules => {
                "when CLAUDE.md or .claude/ exists, unless Claude Code reads AGENTS.md (a CLAUDE.md imports it, or none counts and AGENTS.md has text of its own)"
                    .to_string()
            }
            Detect::Asked => "when asked, or once exported before".to_string(),
        }
    }
}

/// One row of the targets table.
#[derive(Debug)]
pub(crate) struct Target {
    pub id: &'static str,
    pub path: &'static str,
    pub kind: Kind,
    /// What an owned file starts with (with its final line ending), before the stamp.
    pub frontmatter: &'static str,
    pub budget: Option<Budget>,
    /// The agents that read this file natively.
    pub readers: &'static [&'static str],
    /// Whether `@token`s go into code spans (the file may be read as Claude or Gemini
    /// instructions, where `@path` imports a file).
    pub at_tokens: bool,
    pub scoping: Scoping,
    pub detect: Detect,
    /// The agent's documentation of this file (and of its scoped form).
    pub source: &'static str,
}

/// Codex's `project_doc_max_bytes`, 32 KiB by default
/// (<https://developers.openai.com/codex/guides/agents-md>).
const CODEX_BUDGET: Budget = Budget::Bytes(
    32 * 1024,
    "Codex reads at most 32 KiB (32,768 bytes) of AGENTS.md",
);
/// "Rule files are limited to 12,000 characters each"
/// (<https://docs.windsurf.com/windsurf/cascade/memories>).
const WINDSURF_BUDGET: Budget = Budget::Chars(
    12_000,
    "Windsurf reads at most 12,000 characters of a rule file",
);

/// The agents that read `AGENTS.md` natively (Claude Code only through `CLAUDE.md`).
pub(crate) const AGENTS_MD_READERS: &[&str] = &[
    "Codex",
    "Cursor",
    "Windsurf",
    "Cline",
    "Copilot",
    "Amp",
    "Zed",
    "OpenCode",
    "Warp",
    "Qwen Code",
    "Augment",
    "Kilo Code",
    "Roo Code",
    // Continue's CLI `cn` 1.5.47 sent AGENTS.md to a stub model
    // (<https://docs.continue.dev/customize/deep-dives/rules>).
    "Continue",
];

/// The targets that would be a second copy for one of their agents in a run that exports
/// the targets `in_run` says (the requested ones and those exported before); `agents_md`:
/// the `AGENTS.md` block carries the rules.
///
/// Each target, in the table's order, serves its agents; a later one whose agent is
/// already served is a second copy, not written. `AGENTS.md` and the claude target always
/// are (the claude target keeps Copilot CLI off its rules with its guard, see
/// `scoped::jobs`). The `CLAUDE.md` block is one beside the claude target, and beside
/// `AGENTS.md` when `CLAUDE.md` has nothing of the user's (without the file, Claude Code
/// loads `AGENTS.md`); with text of the user's, it is Claude Code's channel.
pub(crate) fn second_copies(
    root: &Path,
    in_run: impl Fn(&Target) -> bool,
    agents_md: bool,
) -> Vec<&'static str> {
    let claude = by_id("claude").is_some_and(&in_run);
    let mut served: Vec<&str> = Vec::new();
    let mut second = Vec::new();
    for target in TARGETS.iter().filter(|t| in_run(t)) {
        let is_second = match target.id {
            "agents-md" | "claude" => false,
            "claude-md" => claude || (agents_md && !has_own_text(root, "CLAUDE.md")),
            _ => target.readers.iter().any(|r| served.contains(r)),
        };
        if is_second {
            second.push(target.id);
            continue;
        }
        served.extend(target.readers);
        if target.id == "claude" {
            served.push("Copilot");
        }
    }
    second
}

/// A YAML list of double-quoted globs, one a line (JSON strings are YAML strings).
fn yaml_list(key: &str, globs: &[String]) -> String {
    let mut out = format!("{key}:\n");
    for glob in globs {
        out.push_str(&format!("  - {}\n", json_string(glob)));
    }
    out
}

/// `["a", "b"]`, each a JSON (and so YAML) string.
fn flow_list(globs: &[String]) -> String {
    let items: Vec<String> = globs.iter().map(|g| json_string(g)).collect();
    format!("[{}]", items.join(", "))
}

fn json_string(text: &str) -> String {
    serde_json::to_string(text).expect("strings always serialise")
}

fn claude_paths(scope: &Native) -> String {
    format!("---\n{}---\n", yaml_list("paths", &scope.include))
}

/// Cursor's frontmatter is YAML (<https://cursor.com/docs/rules>): the description is a
/// double-quoted string, so a glob holding `: ` or `#` cannot break it; `globs:` stays the
/// bare comma-joined list Cursor reads.
fn cursor_globs(scope: &Native) -> String {
    format!(
        "---\ndescription: {}\nglobs: {}\nalwaysApply: false\n---\n",
        json_string(&format!(
            "Project rules recorded with autofix for files matching {}",
            text::shown(&scope.include.join(", "))
        )),
        text::shown(&scope.include.join(","))
    )
}

fn copilot_apply_to(scope: &Native) -> String {
    format!(
        "---\napplyTo: {}\n---\n",
        json_string(&scope.include.join(","))
    )
}

fn windsurf_glob(scope: &Native) -> String {
    format!(
        "---\ntrigger: glob\nglobs: {}\n---\n",
        text::shown(&scope.include.join(","))
    )
}

fn kiro_file_match(scope: &Native) -> String {
    format!(
        "---\ninclusion: fileMatch\nfileMatchPattern: {}\n---\n",
        flow_list(&scope.include)
    )
}

/// A target written between markers in a file people also edit.
const fn block(
    id: &'static str,
    path: &'static str,
    readers: &'static [&'static str],
    detect: Detect,
    source: &'static str,
) -> Target {
    Target {
        id,
        path,
        kind: Kind::Block,
        frontmatter: "",
        budget: None,
        readers,
        at_tokens: true,
        scoping: Scoping::Headings,
        detect,
        source,
    }
}

/// A stamped file of our own.
const fn owned(
    id: &'static str,
    path: &'static str,
    frontmatter: &'static str,
    readers: &'static [&'static str],
    scoping: Scoping,
    source: &'static str,
) -> Target {
    Target {
        id,
        path,
        kind: Kind::Owned,
        frontmatter,
        budget: None,
        readers,
        at_tokens: true,
        scoping,
        detect: Detect::Asked,
        source,
    }
}

/// Every target, in the order they are processed and listed. Each row names the page that
/// documents the file; where the agent has a scoped form, the same page documents it.
pub(crate) const TARGETS: &[Target] = &[
    Target {
        budget: Some(CODEX_BUDGET),
        ..block(
            "agents-md",
            "AGENTS.md",
            AGENTS_MD_READERS,
            Detect::Default,
            "https://agents.md/",
        )
    },
    Target {
        detect: Detect::ClaudeRules,
        ..owned(
            "claude",
            ".claude/rules/autofix.md",
            "",
            &["Claude Code"],
            Scoping::Files {
                form: "paths: frontmatter in .claude/rules/",
                frontmatter: claude_paths,
            },
            "https://code.claude.com/docs/en/memory#organize-rules-with-claude-rules",
        )
    },
    block(
        "claude-md",
        "CLAUDE.md",
        // GitHub Copilot CLI reads a root CLAUDE.md beside AGENTS.md
        // (<https://docs.github.com/en/copilot/how-tos/copilot-cli/customize-copilot/add-custom-instructions>;
        // seen in 1.0.102).
        &["Claude Code", "Copilot"],
        Detect::Asked,
        "https://code.claude.com/docs/en/memory",
    ),
    owned(
        "cursor",
        ".cursor/rules/autofix.mdc",
        "---\ndescription: Project rules recorded with autofix (newer rules supersede older ones)\nalwaysApply: true\n---\n",
        &["Cursor"],
        Scoping::Files {
            form: "globs: in .cursor/rules/*.mdc",
            frontmatter: cursor_globs,
        },
        "https://cursor.com/docs/rules",
    ),
    owned(
        "copilot",
        ".github/instructions/autofix.instructions.md",
        "---\napplyTo: \"**\"\n---\n",
        &["Copilot"],
        Scoping::Files {
            form: "applyTo: in .github/instructions/*.instructions.md",
            frontmatter: copilot_apply_to,
        },
        "https://docs.github.com/en/copilot/how-tos/configure-custom-instructions-in-your-ide/add-repository-instructions-in-your-ide",
    ),
    block(
        "copilot-md",
        ".github/copilot-instructions.md",
        &["Copilot"],
        Detect::Asked,
        "https://docs.github.com/en/copilot/how-tos/configure-custom-instructions-in-your-ide/add-repository-instructions-in-your-ide",
    ),
    // Windsurf is now Devin Desktop; its agents still read `.windsurf/rules/*.md` with
    // the same `trigger:` frontmatter (<https://cli.devin.ai/docs/extensibility/rules>), so
    // the target stays there: `.devin/rules/` has no documented format to write yet.
    Target {
        budget: Some(WINDSURF_BUDGET),
        ..owned(
            "windsurf",
            ".windsurf/rules/autofix.md",
            "---\ntrigger: always_on\n---\n",
            &["Windsurf"],
            Scoping::Files {
                form: "trigger: glob in .windsurf/rules/",
                frontmatter: windsurf_glob,
            },
            "https://docs.windsurf.com/windsurf/cascade/memories",
        )
    },
    block(
        "cline",
        ".clinerules",
        &["Cline"],
        Detect::Asked,
        "https://docs.cline.bot/features/cline-rules/overview",
    ),
    block(
        "gemini-md",
        "GEMINI.md",
        &["Gemini CLI"],
        // Gemini CLI reads GEMINI.md, not AGENTS.md, unless `context.fileName` says so
        // (same page): with `.gemini/` set up, GEMINI.md is its instructions file.
        Detect::FileOrFolder("GEMINI.md", ".gemini"),
        "https://github.com/google-gemini/gemini-cli/blob/main/docs/cli/gemini-md.md",
    ),
    Target {
        detect: Detect::Folder(".ruler"),
        ..owned(
            "ruler",
            ".ruler/autofix.md",
            "",
            &[],
            Scoping::Headings,
            "https://github.com/intellectronica/ruler",
        )
    },
    Target {
        detect: Detect::Folder(".rulesync"),
        ..owned(
            "rulesync",
            ".rulesync/rules/autofix.md",
            "---\nroot: false\ntargets: [\"*\"]\ndescription: \"Project rules recorded with autofix (newer rules supersede older ones)\"\nglobs: [\"**/*\"]\n---\n",
            &[],
            Scoping::Headings,
            "https://github.com/dyoshikawa/rulesync",
        )
    },
    owned(
        "cline-rules",
        ".clinerules/autofix.md",
        "",
        &["Cline"],
        // Cline documents `paths:` conditional rules, but cline 3.0.65 sent a `paths:` file
        // to a stub model before any file was read: scoped rules go under their heading.
        Scoping::Headings,
        "https://docs.cline.bot/features/cline-rules/conditional-rules",
    ),
    Target {
        detect: Detect::Folder(".kiro"),
        ..owned(
            "kiro",
            ".kiro/steering/autofix.md",
            "---\ninclusion: always\n---\n",
            &["Kiro"],
            Scoping::Files {
                form: "inclusion: fileMatch in .kiro/steering/",
                frontmatter: kiro_file_match,
            },
            "https://kiro.dev/docs/steering/",
        )
    },
    block(
        "junie",
        ".junie/guidelines.md",
        &["Junie"],
        Detect::Folder(".junie"),
        "https://www.jetbrains.com/help/junie/customize-guidelines.html",
    ),
    Target {
        detect: Detect::Folder(".amazonq"),
        ..owned(
            "amazonq",
            ".amazonq/rules/autofix.md",
            "",
            &["Amazon Q Developer"],
            Scoping::Headings,
            "https://docs.aws.amazon.com/amazonq/latest/qdeveloper-ug/context-project-rules.html",
        )
    },
    owned(
        "roo",
        ".roo/rules/autofix.md",
        "",
        &["Roo Code"],
        Scoping::Headings,
        "https://docs.roocode.com/features/custom-instructions",
    ),
    owned(
        "kilocode",
        ".kilocode/rules/autofix.md",
        "",
        &["Kilo Code"],
        Scoping::Headings,
        "https://kilo.ai/docs/customize/custom-rules",
    ),
    owned(
        "augment",
        ".augment/rules/autofix.md",
        "---\ntype: \"always_apply\"\n---\n",
        &["Augment"],
        Scoping::Headings,
        "https://docs.augmentcode.com/setup-augment/guidelines",
    ),
    owned(
        "continue",
        ".continue/rules/autofix.md",
        "---\nname: Project rules (autofix)\nalwaysApply: true\n---\n",
        &["Continue"],
        // Continue documents `globs:` rules, but Continue's CLI `cn` 1.5.47 never sent one
        // to a stub model, not even after reading a matching file: scoped rules go under
        // their heading, where they are not lost.
        Scoping::Headings,
        "https://docs.continue.dev/customize/deep-dives/rules",
    ),
    block(
        "goose",
        ".goosehints",
        &["Goose"],
        Detect::Asked,
        "https://block.github.io/goose/docs/guides/using-goosehints",
    ),
    block(
        "openhands",
        ".openhands/microagents/repo.md",
        &["OpenHands"],
        Detect::Asked,
        "https://docs.openhands.dev/openhands/usage/microagents/microagents-repo",
    ),
    block(
        "aider",
        "CONVENTIONS.md",
        &["Aider"],
        Detect::Asked,
        "https://aider.chat/docs/usage/conventions.html",
    ),
];

/// The target ids, for the command line's `--target` values.
pub(crate) const IDS: &[&str] = &[
    "agents-md",
    "claude",
    "claude-md",
    "cursor",
    "copilot",
    "copilot-md",
    "windsurf",
    "cline",
    "gemini-md",
    "ruler",
    "rulesync",
    "cline-rules",
    "kiro",
    "junie",
    "amazonq",
    "roo",
    "kilocode",
    "augment",
    "continue",
    "goose",
    "openhands",
    "aider",
];

/// What autofix's session hook prints at most (see [`crate::export::hook::CAP`]): a listing over it
/// loses its oldest rules there.
const CLAUDE_HOOK_BUDGET: Budget = Budget::HookChars(
    crate::export::hook::CAP,
    "the session hook prints at most 9,000 characters, so that Claude Code's 10,000 are never cut",
);

/// The budgets that apply to the always-loaded rules in this repository: those of the
/// targets `export` writes by default here, and Claude Code's hook when one of ours is
/// installed. Each with the target id (or `claude hook`).
pub(crate) fn enabled_budgets(root: &Path) -> Vec<(Budget, &'static str)> {
    let mut budgets: Vec<(Budget, &'static str)> =
        select(root, &super::Targets::Defaults, &Facts::of(root))
            .iter()
            .filter_map(|selected| Some((selected.target.budget?, selected.target.id)))
            .collect();
    let hooked = [true, false].into_iter().any(|local| {
        let settings = root.join(crate::export::hook::Agent::Claude.hooks_file(local));
        crate::io::limits::read_to_string(&settings)
            .is_ok_and(|text| text.contains("autofix rules") && text.contains("--format hook"))
    });
    if hooked {
        budgets.push((CLAUDE_HOOK_BUDGET, "claude hook"));
    }
    budgets
}

/// The `export --list-targets --format json` document: the table as data.
pub(crate) fn list_json() -> String {
    #[derive(serde::Serialize)]
    struct Row<'a> {
        id: &'a str,
        path: &'a str,
        mode: &'a str,
        scoping: &'a str,
        budget: Option<&'a str>,
        detect: String,
        readers: &'a [&'a str],
        source: &'a str,
    }
    let rows: Vec<Row<'_>> = TARGETS
        .iter()
        .map(|t| Row {
            id: t.id,
            path: t.path,
            mode: t.kind.as_str(),
            scoping: t.scoping.form(),
            budget: t.budget.map(Budget::describe),
            detect: t.detect.describe(),
            readers: t.readers,
            source: t.source,
        })
        .collect();
    #[derive(serde::Serialize)]
    struct List<'a> {
        version: u32,
        targets: Vec<Row<'a>>,
    }
    let list = List {
        version: 1,
        targets: rows,
    };
    crate::report::text::json_document(&list)
}

/// The table for a person: one target a paragraph (id, mode, path; how a scoped rule is
/// shown; when it is exported; where the agent documents it).
pub(crate) fn list_text() -> String {
    let mut out = String::new();
    for t in TARGETS {
        out.push_str(&format!("{} ({}) {}\n", t.id, t.kind.as_str(), t.path));
        out.push_str(&format!("  scoped rules: {}\n", t.scoping.form()));
        out.push_str(&format!("  exported: {}\n", t.detect.describe()));
        if let Some(budget) = t.budget {
            out.push_str(&format!("  budget: {}\n", budget.describe()));
        }
        out.push_str(&format!("  source: {}\n", t.source));
    }
    out
}

pub(crate) fn by_id(id: &str) -> Option<&'static Target> {
    TARGETS.iter().find(|t| t.id == id)
}

/// A target chosen for this run, and why.
#[derive(Clone, Debug)]
pub(crate) struct Selected {
    pub target: &'static Target,
    /// `requested`, `default`, `exported before`, or what made it a default
    /// (`.claude/ exists`).
    pub reason: String,
}

/// What the repository looks like, as far as choosing targets goes.
#[derive(Clone, Debug, Default)]
pub(crate) struct Facts {
    /// Claude Code loads `AGENTS.md` (see [`claude_reads_agents_md`]): it reads the block.
    pub claude_reads_agents_md: bool,
    /// rulesync or Ruler: the rules go to their sources, and what they generate is theirs.
    pub peers: Peers,
}

impl Facts {
    pub(crate) fn of(root: &Path) -> Facts {
        Facts {
            claude_reads_agents_md: claude_reads_agents_md(root),
            peers: Peers::detect(root),
        }
    }
}

/// The agents that read `target` in this repository.
pub(crate) fn readers(root: &Path, target: &Target, facts: &Facts) -> Vec<&'static str> {
    let mut readers = target.readers.to_vec();
    if target.id == "agents-md" && facts.claude_reads_agents_md {
        readers.push("Claude Code");
    }
    // GitHub Copilot CLI loads every `.claude/rules/*.md` (seen in 1.0.102): the claude
    // target's own file, when the rules are there rather than in the guard, is its too.
    if target.id == "claude" && exported_file(root, target.path, Kind::Owned) {
        readers.push("Copilot");
    }
    // A rule-sync tool's source reaches the agents of every file the tool generates here.
    let peer = facts
        .peers
        .tools()
        .into_iter()
        .find(|tool| tool.source_target() == target.id);
    if let Some(tool) = peer {
        for generated in TARGETS.iter().filter(|t| {
            facts
                .peers
                .owner(root, t.path)
                .is_some_and(|o| o.tool == tool)
        }) {
            for &agent in generated.readers {
                if !readers.contains(&agent) {
                    readers.push(agent);
                }
            }
        }
    }
    readers
}

/// The exported targets whose files `agent` loads as instructions (`agent` as the targets
/// name their readers: "Claude Code", "Codex", "Gemini CLI", "Cursor"), as the repository
/// stands now (not as `export` would leave it: with no CLAUDE.md that counts, Claude Code
/// loads `AGENTS.md`).
pub(crate) fn read_by(root: &Path, agent: &str) -> Vec<&'static str> {
    let mut facts = Facts::of(root);
    if agent == "Claude Code" && !ClaudeFiles::of(root).claude_project() {
        facts.claude_reads_agents_md = true;
    }
    TARGETS
        .iter()
        .filter(|target| readers(root, target, &facts).contains(&agent))
        .filter(|target| exported(root, target))
        .map(|target| target.id)
        .collect()
}

/// The targets for this run: the requested ones; or the defaults plus every target that
/// already holds a block or a stamped file ("once exported, stays exported"); or only the
/// latter.
pub(crate) fn select(root: &Path, targets: &super::Targets, facts: &Facts) -> Vec<Selected> {
    let requested = match targets {
        super::Targets::Named(ids) => ids,
        super::Targets::Exported => {
            return TARGETS
                .iter()
                .filter(|target| exported(root, target))
                .map(|target| Selected {
                    target,
                    reason: "exported before".to_string(),
                })
                .collect();
        }
        super::Targets::Defaults => &Vec::new(),
    };
    if !requested.is_empty() {
        return TARGETS
            .iter()
            .filter(|t| requested.iter().any(|r| r == t.id))
            .map(|target| Selected {
                target,
                reason: "requested".to_string(),
            })
            .collect();
    }
    if !facts.peers.is_empty() {
        return beside_peers(root, &facts.peers);
    }
    let is_dir = |p: &str| root.join(p).is_dir();
    let exists = |p: &str| {
        let path = super::markdown::on_disk(root, p);
        root.join(path).symlink_metadata().is_ok()
    };
    let claude = !facts.claude_reads_agents_md;
    TARGETS
        .iter()
        .filter_map(|target| {
            let reason = match target.detect {
                Detect::Default => "default".to_string(),
                Detect::ClaudeRules if claude && exists("CLAUDE.md") => {
                    "CLAUDE.md exists".to_string()
                }
                Detect::ClaudeRules if claude && is_dir(".claude") => ".claude/ exists".to_string(),
                Detect::FileOrFolder(file, _) if exists(file) => format!("{file} exists"),
                Detect::FileOrFolder(_, folder) if is_dir(folder) => format!("{folder}/ exists"),
                Detect::Folder(folder) if is_dir(folder) => format!("{folder}/ exists"),
                _ if exported(root, target) => "exported before".to_string(),
                _ => return None,
            };
            Some(Selected { target, reason })
        })
        .collect()
}

/// The defaults beside rulesync or Ruler: only the tool's source, plus every target
/// exported before (one the tool now generates is reported and left alone).
fn beside_peers(root: &Path, peers: &Peers) -> Vec<Selected> {
    let tools = peers.tools();
    TARGETS
        .iter()
        .filter_map(|target| {
            let reason = match tools.iter().find(|t| t.source_target() == target.id) {
                Some(tool) => format!("{}/ exists", tool.folder()),
                None if exported(root, target) => "exported before".to_string(),
                None => return None,
            };
            Some(Selected { target, reason })
        })
        .collect()
}

/// Two selected targets of which one writes a file at the path the other needs as its
/// folder (`cline`'s `.clinerules` and `cline-rules`' `.clinerules/autofix.md`): the file
/// target, then the folder one.
pub(crate) fn file_and_folder(selected: &[Selected]) -> Option<(&'static Target, &'static Target)> {
    selected.iter().find_map(|file| {
        selected
            .iter()
            .find(|folder| {
                folder
                    .target
                    .path
                    .strip_prefix(file.target.path)
                    .is_some_and(|rest| rest.starts_with('/'))
            })
            .map(|folder| (file.target, folder.target))
    })
}

/// Whether any target's file holds something of ours: what `Targets::Exported` would select.
pub(crate) fn any_exported(root: &Path) -> bool {
    TARGETS.iter().any(|target| exported(root, target))
}

/// Whether the target's file holds something of ours: a marker (even a broken one, so it is
/// reported) or a stamp. Only the file's first bytes up to the input cap are looked into: a
/// copy of ours over the cap is still found (and refreshing it reports the cap), and a
/// target linked to `/dev/zero` costs one bounded read.
pub(crate) fn exported(root: &Path, target: &Target) -> bool {
    // The claude target's unscoped rules are in its guard whenever it has one.
    if target.id == "claude" && ClaudeFiles::of(root).guard {
        return true;
    }
    exported_file(root, target.path, target.kind)
}

/// Whether the file at `path` holds something of ours, as a target of `kind` writes it (a
/// file people edit in any letter case; a file of ours under the name we gave it).
fn exported_file(root: &Path, path: &str, kind: Kind) -> bool {
    let path = match kind {
        Kind::Block => super::markdown::on_disk(root, path),
        Kind::Owned => path.to_string(),
    };
    let Ok(bytes) = crate::io::limits::read_prefix(&root.join(path)) else {
        return false;
    };
    let text = String::from_utf8_lossy(&bytes);
    match kind {
        Kind::Block => block::mentions_markers(&text),
        Kind::Owned => owned::is_stamped(&text),
    }
}

/// The files that make a project "a CLAUDE.md project" for Claude Code when one holds text
/// besides HTML comments ([`ClaudeFiles`]); it then does not load `AGENTS.md` in their place (`CLAUDE_NAMES` of its built-in
/// `cc-plugin-agents-md`, mode `claude-md-or-agents-md` by default; seen in the client's
/// own bundle, version 2.1.328, and in what it sent to a stub model).
pub(crate) const CLAUDE_FILES: [&str; 3] = ["CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md"];

/// Where the claude target keeps Claude Code from loading `AGENTS.md` as well: a stamped
/// file whose one line of text (Claude Code strips the HTML comments, and a file of nothing
/// but comments does not count) makes the project a CLAUDE.md project.
pub(crate) const CLAUDE_GUARD: &str = ".claude/CLAUDE.md";

/// What the project holds of Claude Code's instruction files ([`CLAUDE_FILES`]).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ClaudeFiles {
    /// One of the user's counts: it exists and has text besides HTML comments (Claude Code
    /// strips those, and a file left empty is no CLAUDE.md to it).
    pub(crate) users_own: bool,
    /// `.claude/CLAUDE.md` exists without our stamp (the user's, even if it does not count).
    pub(crate) users_guard_path: bool,
    /// Our stamped [`CLAUDE_GUARD`].
    pub(crate) guard: bool,
    /// One of the user's is a link to the root `AGENTS.md` or imports it (`@AGENTS.md`
    /// relative to its folder, outside code fences).
    pub(crate) imports_agents_md: bool,
}

impl ClaudeFiles {
    pub(crate) fn of(root: &Path) -> ClaudeFiles {
        let agents = root.join("AGENTS.md");
        let mut files = ClaudeFiles::default();
        for name in CLAUDE_FILES {
            // `claude.md` is the same file to Claude Code on a case-insensitive file system.
            let path = root.join(super::markdown::on_disk(root, name));
            if path.symlink_metadata().is_err() {
                continue;
            }
            let text = crate::io::limits::read_prefix(&path)
                .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
                .unwrap_or_default();
            if name == CLAUDE_GUARD {
                if owned::is_stamped(&text) {
                    files.guard = true;
                    continue;
                }
                files.users_guard_path = true;
            }
            files.users_own |= has_text_besides_comments(&text);
            files.imports_agents_md |= links_or_imports(&path, &text, &agents);
        }
        files
    }

    /// Claude Code counts the project as a CLAUDE.md project, and does not load `AGENTS.md`
    /// in its place.
    pub(crate) fn claude_project(self) -> bool {
        self.users_own || self.guard
    }
}

/// Whether `text` holds anything once its HTML comments and blank space are gone.
fn has_text_besides_comments(text: &str) -> bool {
    let mut rest = text.trim_start_matches(markdown::BOM);
    while let Some(at) = rest.find("<!--") {
        if !rest[..at].trim().is_empty() {
            return true;
        }
        match rest[at..].find("-->") {
            Some(end) => rest = &rest[at + end + 3..],
            None => return false,
        }
    }
    !rest.trim().is_empty()
}

/// Whether the file at `path` (holding `text`) is a link to `agents` or imports it.
fn links_or_imports(path: &Path, text: &str, agents: &Path) -> bool {
    if let (Ok(a), Ok(b)) = (fs::canonicalize(path), fs::canonicalize(agents))
        && a == b
    {
        return true;
    }
    let folder = path.parent().unwrap_or(Path::new(""));
    let target = lexical(agents);
    markdown::lines(text)
        .iter()
        .filter(|l| l.context == Context::Text)
        .flat_map(|l| l.text.split_whitespace())
        .filter_map(|word| word.strip_prefix('@'))
        .any(|import| {
            let import = import.trim_end_matches(|c: char| ".,;:!?)".contains(c));
            lexical(&folder.join(import)) == target
        })
}

/// `path` with `.` and `..` resolved by name (imports are read before the file exists).
fn lexical(path: &Path) -> std::path::PathBuf {
    let mut out = std::path::PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// Whether Claude Code will load the root `AGENTS.md` once this export is done: a CLAUDE
/// file of the user's links to it or imports it; or none of the user's counts and
/// `AGENTS.md` holds text of the user's own (then it is the project's instructions for
/// Claude Code too, and no guard is written: the rules reach Claude Code through it, once).
fn claude_reads_agents_md(root: &Path) -> bool {
    let files = ClaudeFiles::of(root);
    files.imports_agents_md || (!files.users_own && agents_md_has_own_text(root))
}

/// `AGENTS.md` holds autofix's block (or a broken marker of it).
pub(crate) fn agents_md_exported(root: &Path) -> bool {
    by_id("agents-md").is_some_and(|target| exported(root, target))
}

/// `AGENTS.md` holds something besides autofix's block.
pub(crate) fn agents_md_has_own_text(root: &Path) -> bool {
    has_own_text(root, "AGENTS.md")
}

/// The file at `path` (in any letter case) holds something besides autofix's block.
pub(crate) fn has_own_text(root: &Path, path: &str) -> bool {
    let path = super::markdown::on_disk(root, path);
    let Ok(bytes) = crate::io::limits::read_prefix(&root.join(path)) else {
        return false;
    };
    block::has_text_outside(&String::from_utf8_lossy(&bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_claude_file_counts_with_text_besides_comments() {
        assert!(!has_text_besides_comments("<!-- a -->\n\n<!-- b\nc -->\n"));
        assert!(!has_text_besides_comments("\u{feff}  \n"));
        assert!(has_text_besides_comments("<!-- a -->\nRead the rules.\n"));
        assert!(has_text_besides_comments("Before <!-- a -->"));
        assert!(!has_text_besides_comments("<!-- never closed\ntext"));
    }

    #[test]
    fn imports_resolve_from_the_importing_file() {
        let root = Path::new("/r");
        let agents = root.join("AGENTS.md");
        for (file, text, imports) in [
            ("/r/CLAUDE.md", "See @AGENTS.md.", true),
            ("/r/CLAUDE.md", "See @./AGENTS.md", true),
            ("/r/.claude/CLAUDE.md", "@../AGENTS.md", true),
            ("/r/.claude/CLAUDE.md", "@AGENTS.md", false),
            ("/r/CLAUDE.md", "```\n@AGENTS.md\n```\n", false),
        ] {
            assert_eq!(
                links_or_imports(Path::new(file), text, &agents),
                imports,
                "{file} {text}"
            );
        }
    }

    #[test]
    fn ids_match_the_table() {
        let ids: Vec<&str> = TARGETS.iter().map(|t| t.id).collect();
        assert_eq!(ids, IDS);
        for target in TARGETS {
            assert!(
                target.frontmatter.is_empty() || target.frontmatter.ends_with("---\n"),
                "{}",
                target.id
            );
        }
    }

    #[test]
    fn the_pages_list_every_target_with_its_source() {
        let scoping = include_str!("../docs/scoping.md");
        let export = include_str!("../docs/export.md");
        for target in TARGETS {
            let row = format!("| `{}` | `{}`", target.id, target.path);
            assert!(scoping.contains(&row), "scoping.md lacks {}", target.id);
            assert!(export.contains(&row), "export.md lacks {}", target.id);
            assert!(
                scoping.contains(target.source),
                "scoping.md lacks {}",
                target.source
            );
            assert!(target.source.starts_with("https://"), "{}", target.id);
        }
        assert!(TARGETS.len() >= 20);
    }

    #[test]
    fn defaults_follow_the_repository() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        let ids = |root: &Path| -> Vec<&str> {
            select(root, &crate::export::Targets::Defaults, &Facts::of(root))
                .iter()
                .map(|s| s.target.id)
                .collect()
        };
        assert_eq!(ids(root), ["agents-md"]);
        fs::create_dir(root.join(".claude")).unwrap();
        fs::write(root.join("GEMINI.md"), "# G\n").unwrap();
        assert_eq!(ids(root), ["agents-md", "claude", "gemini-md"]);
        fs::write(root.join("CLAUDE.md"), "See @AGENTS.md.\n").unwrap();
        assert_eq!(ids(root), ["agents-md", "gemini-md"]);
        fs::create_dir(root.join(".ruler")).unwrap();
        assert_eq!(ids(root), ["ruler"]);
        fs::create_dir_all(root.join(".cursor/rules")).unwrap();
        fs::write(
            root.join(".cursor/rules/autofix.mdc"),
            "---\na: b\n---\n<!-- autofix:owned -->\n",
        )
        .unwrap();
        assert_eq!(ids(root), ["cursor", "ruler"]);
    }
}
