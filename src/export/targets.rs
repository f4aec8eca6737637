//! The export targets: where each agent looks, in which mode autofix writes there, the
//! budgets the agents impose, which targets are on by default, and which agents read which
//! target (for the duplicate-reader warning).

use std::fs;
use std::path::Path;

use super::markdown::{self, Context};
use super::{block, owned};

/// How autofix writes a target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Only between our markers, in a file people also edit.
    Block,
    /// The whole file, which carries our stamp.
    Owned,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Block => "block",
            Kind::Owned => "owned",
        }
    }
}

/// The most an agent reads of a file.
#[derive(Clone, Copy, Debug)]
pub enum Budget {
    /// At most this many bytes of the whole file.
    Bytes(usize, &'static str),
    /// At most this many characters of the whole file.
    Chars(usize, &'static str),
}

impl Budget {
    /// The limit, in the budget's unit.
    pub(crate) fn limit(self) -> usize {
        match self {
            Budget::Bytes(limit, _) | Budget::Chars(limit, _) => limit,
        }
    }

    /// The file's size in the budget's unit, and the limit.
    pub fn measure(self, text: &str) -> (usize, usize) {
        match self {
            Budget::Bytes(limit, _) => (text.len(), limit),
            Budget::Chars(limit, _) => (text.chars().count(), limit),
        }
    }

    /// A size in the budget's unit: "5000295 bytes", "12001 characters".
    pub fn amount(self, size: usize) -> String {
        match self {
            Budget::Bytes(..) => crate::text::counted(size, "byte"),
            Budget::Chars(..) => crate::text::counted(size, "character"),
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            Budget::Bytes(_, text) | Budget::Chars(_, text) => text,
        }
    }
}

/// One row of the targets table.
#[derive(Debug)]
pub struct Target {
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
const AGENTS_MD_READERS: &[&str] = &[
    "Codex", "Cursor", "Windsurf", "Cline", "Copilot", "Amp", "Zed", "OpenCode",
];

/// Every target, in the order they are processed and listed.
pub const TARGETS: &[Target] = &[
    Target {
        id: "agents-md",
        path: "AGENTS.md",
        kind: Kind::Block,
        frontmatter: "",
        budget: Some(CODEX_BUDGET),
        readers: AGENTS_MD_READERS,
        // CLAUDE.md may import AGENTS.md, and imports are recursive.
        at_tokens: true,
    },
    Target {
        id: "claude",
        path: ".claude/rules/autofix.md",
        kind: Kind::Owned,
        frontmatter: "",
        budget: None,
        readers: &["Claude Code"],
        at_tokens: true,
    },
    Target {
        id: "claude-md",
        path: "CLAUDE.md",
        kind: Kind::Block,
        frontmatter: "",
        budget: None,
        readers: &["Claude Code"],
        at_tokens: true,
    },
    Target {
        id: "cursor",
        path: ".cursor/rules/autofix.mdc",
        kind: Kind::Owned,
        frontmatter: "---\ndescription: Project rules recorded with autofix (newer rules supersede older ones)\nalwaysApply: true\n---\n",
        budget: None,
        readers: &["Cursor"],
        at_tokens: true,
    },
    Target {
        id: "copilot",
        path: ".github/instructions/autofix.instructions.md",
        kind: Kind::Owned,
        frontmatter: "---\napplyTo: \"**\"\n---\n",
        budget: None,
        readers: &["Copilot"],
        at_tokens: true,
    },
    Target {
        id: "copilot-md",
        path: ".github/copilot-instructions.md",
        kind: Kind::Block,
        frontmatter: "",
        budget: None,
        readers: &["Copilot"],
        at_tokens: true,
    },
    Target {
        id: "windsurf",
        path: ".windsurf/rules/autofix.md",
        kind: Kind::Owned,
        frontmatter: "---\ntrigger: always_on\n---\n",
        budget: Some(WINDSURF_BUDGET),
        readers: &["Windsurf"],
        at_tokens: true,
    },
    Target {
        id: "cline",
        path: ".clinerules",
        kind: Kind::Block,
        frontmatter: "",
        budget: None,
        readers: &["Cline"],
        at_tokens: true,
    },
    Target {
        id: "gemini-md",
        path: "GEMINI.md",
        kind: Kind::Block,
        frontmatter: "",
        budget: None,
        readers: &["Gemini CLI"],
        at_tokens: true,
    },
    Target {
        id: "ruler",
        path: ".ruler/autofix.md",
        kind: Kind::Owned,
        frontmatter: "",
        budget: None,
        readers: &[],
        at_tokens: true,
    },
    Target {
        id: "rulesync",
        path: ".rulesync/rules/autofix.md",
        kind: Kind::Owned,
        frontmatter: "---\nroot: false\ntargets: [\"*\"]\ndescription: \"Project rules recorded with autofix (newer rules supersede older ones)\"\nglobs: [\"**/*\"]\n---\n",
        budget: None,
        readers: &[],
        at_tokens: true,
    },
];

/// The target ids, for the command line's `--target` values.
pub const IDS: &[&str] = &[
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
];

/// What Claude Code keeps of a hook's `additionalContext`: 10,000 characters
/// (<https://code.claude.com/docs/en/hooks>, "JSON output").
const CLAUDE_HOOK_BUDGET: Budget = Budget::Chars(
    10_000,
    "Claude Code keeps 10,000 characters of a session hook's output",
);

/// The budgets that apply to the always-loaded rules in this repository: those of the
/// targets `export` writes by default here, and Claude Code's hook when one of ours is
/// installed. Each with the target id (or `claude hook`).
pub fn enabled_budgets(root: &Path) -> Vec<(Budget, &'static str)> {
    let mut budgets: Vec<(Budget, &'static str)> =
        select(root, &super::Targets::Defaults, &Facts::of(root))
            .iter()
            .filter_map(|selected| Some((selected.target.budget?, selected.target.id)))
            .collect();
    let hooked = [true, false].into_iter().any(|local| {
        let settings = root.join(crate::init::settings::path(
            crate::hook::Agent::Claude,
            local,
        ));
        fs::read_to_string(settings)
            .is_ok_and(|text| text.contains("autofix rules") && text.contains("--format hook"))
    });
    if hooked {
        budgets.push((CLAUDE_HOOK_BUDGET, "claude hook"));
    }
    budgets
}

pub fn by_id(id: &str) -> Option<&'static Target> {
    TARGETS.iter().find(|t| t.id == id)
}

/// A target chosen for this run, and why.
#[derive(Clone, Debug)]
pub struct Selected {
    pub target: &'static Target,
    /// `requested`, `default`, `exported before`, or what made it a default
    /// (`.claude/ exists`).
    pub reason: String,
}

/// What the repository looks like, as far as choosing targets goes.
#[derive(Clone, Debug, Default)]
pub struct Facts {
    /// `CLAUDE.md` imports `@AGENTS.md`, or is a link to it: Claude Code reads the block.
    pub claude_reads_agents_md: bool,
}

impl Facts {
    pub fn of(root: &Path) -> Facts {
        Facts {
            claude_reads_agents_md: claude_reads_agents_md(root),
        }
    }
}

/// The agents that read `target` in this repository.
pub fn readers(target: &Target, facts: &Facts) -> Vec<&'static str> {
    let mut readers = target.readers.to_vec();
    if target.id == "agents-md" && facts.claude_reads_agents_md {
        readers.push("Claude Code");
    }
    readers
}

/// The targets for this run: the requested ones; or the defaults plus every target that
/// already holds a block or a stamped file ("once exported, stays exported"); or only the
/// latter.
pub fn select(root: &Path, targets: &super::Targets, facts: &Facts) -> Vec<Selected> {
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
    let is_dir = |p: &str| root.join(p).is_dir();
    let exists = |p: &str| root.join(p).symlink_metadata().is_ok();
    let generator = is_dir(".ruler") || is_dir(".rulesync");
    TARGETS
        .iter()
        .filter_map(|target| {
            let reason = match target.id {
                "agents-md" if !generator => "default",
                "claude" if !facts.claude_reads_agents_md && exists("CLAUDE.md") => {
                    "CLAUDE.md exists"
                }
                "claude" if !facts.claude_reads_agents_md && is_dir(".claude") => ".claude/ exists",
                "gemini-md" if exists("GEMINI.md") => "GEMINI.md exists",
                "ruler" if is_dir(".ruler") => ".ruler/ exists",
                "rulesync" if is_dir(".rulesync") => ".rulesync/ exists",
                _ if exported(root, target) => "exported before",
                _ => return None,
            };
            Some(Selected {
                target,
                reason: reason.to_string(),
            })
        })
        .collect()
}

/// Whether the target's file holds something of ours: a marker (even a broken one, so it is
/// reported) or a stamp.
fn exported(root: &Path, target: &Target) -> bool {
    let Ok(bytes) = fs::read(root.join(target.path)) else {
        return false;
    };
    let text = String::from_utf8_lossy(&bytes);
    match target.kind {
        Kind::Block => block::mentions_markers(&text),
        Kind::Owned => owned::is_stamped(&text),
    }
}

/// `CLAUDE.md` is a link to `AGENTS.md`, or imports it (`@AGENTS.md`, `@./AGENTS.md` outside
/// code fences).
fn claude_reads_agents_md(root: &Path) -> bool {
    let claude = root.join("CLAUDE.md");
    let agents = root.join("AGENTS.md");
    if let (Ok(a), Ok(b)) = (fs::canonicalize(&claude), fs::canonicalize(&agents))
        && a == b
    {
        return true;
    }
    let Ok(bytes) = fs::read(&claude) else {
        return false;
    };
    let text = String::from_utf8_lossy(&bytes);
    markdown::lines(&text)
        .iter()
        .filter(|l| l.context == Context::Text)
        .flat_map(|l| l.text.split_whitespace())
        .any(|word| {
            let word = word.trim_end_matches(|c: char| ".,;:!?)".contains(c));
            matches!(word, "@AGENTS.md" | "@./AGENTS.md")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(ids(root), ["gemini-md", "ruler"]);
        fs::create_dir_all(root.join(".cursor/rules")).unwrap();
        fs::write(
            root.join(".cursor/rules/autofix.mdc"),
            "---\na: b\n---\n<!-- autofix:owned -->\n",
        )
        .unwrap();
        assert_eq!(ids(root), ["cursor", "gemini-md", "ruler"]);
    }
}
