//! What `rulesync generate` writes for each of its targets, by feature, as measured with
//! `rulesync generate --dry-run` on rulesync 17.0.0 (the target × feature table:
//! <https://github.com/dyoshikawa/rulesync/blob/main/docs/reference/supported-tools.md>).
//! A path ending in `/` is a folder rulesync writes into and, with `delete: true`, sweeps
//! of every file no source produces; any other path is a file it replaces whole (for the
//! `hooks` feature, the file's hooks).

/// One rulesync target: the paths of its `rules`, `skills` and `commands` features.
pub(super) struct Row {
    pub(super) target: &'static str,
    pub(super) rules: &'static [&'static str],
    pub(super) skills: &'static [&'static str],
    pub(super) commands: &'static [&'static str],
}

const fn row(
    target: &'static str,
    rules: &'static [&'static str],
    skills: &'static [&'static str],
    commands: &'static [&'static str],
) -> Row {
    Row {
        target,
        rules,
        skills,
        commands,
    }
}

const AGENTS: &str = "AGENTS.md";
const SHARED_SKILLS: &str = ".agents/skills/";

pub(super) const ROWS: &[Row] = &[
    row("agentsmd", &[AGENTS, ".agents/memories/"], &[], &[]),
    row(
        "aiassistant",
        &[".aiassistant/rules/"],
        &[SHARED_SKILLS],
        &[],
    ),
    row("amp", &[AGENTS, ".agents/memories/"], &[SHARED_SKILLS], &[]),
    row(
        "antigravity-cli",
        &[AGENTS, ".agents/rules/"],
        &[SHARED_SKILLS],
        &[".agents/workflows/"],
    ),
    row(
        "antigravity-ide",
        &[AGENTS, ".agents/rules/"],
        &[SHARED_SKILLS],
        &[".agents/workflows/"],
    ),
    row(
        "augmentcode",
        &[".augment/rules/"],
        &[".augment/skills/"],
        &[".augment/commands/"],
    ),
    row(
        "augmentcode-legacy",
        &[".augment-guidelines", ".augment/rules/"],
        &[],
        &[],
    ),
    row(
        "bob",
        &[AGENTS, ".bob/rules/"],
        &[".bob/skills/"],
        &[".bob/commands/"],
    ),
    row(
        "claudecode",
        &["CLAUDE.md", ".claude/rules/"],
        &[".claude/skills/"],
        &[".claude/commands/"],
    ),
    row(
        "claudecode-legacy",
        &["CLAUDE.md", ".claude/memories/"],
        &[".claude/skills/"],
        &[".claude/commands/"],
    ),
    row(
        "cline",
        &[AGENTS, ".clinerules/"],
        &[".cline/skills/"],
        &[".clinerules/workflows/"],
    ),
    row(
        "codebuddy",
        &["CODEBUDDY.md", ".codebuddy/rules/"],
        &[],
        &[],
    ),
    row("codexcli", &[AGENTS], &[SHARED_SKILLS], &[]),
    row(
        "commandcode",
        &[AGENTS],
        &[".commandcode/skills/"],
        &[".commandcode/commands/"],
    ),
    row(
        "continue",
        &[AGENTS, ".continue/rules/"],
        &[".continue/skills/"],
        &[".continue/prompts/"],
    ),
    row(
        "copilot",
        &[".github/copilot-instructions.md", ".github/instructions/"],
        &[".github/skills/"],
        &[".github/prompts/"],
    ),
    row(
        "copilotcli",
        &[".github/copilot-instructions.md", ".github/instructions/"],
        &[".github/skills/"],
        &[],
    ),
    row("cortexcode", &[AGENTS], &[".cortex/skills/"], &[]),
    row("crush", &["CRUSH.md"], &[".crush/skills/"], &[]),
    row(
        "cursor",
        &[".cursor/rules/"],
        &[".cursor/skills/"],
        &[".cursor/commands/"],
    ),
    row(
        "deepagents",
        &[".deepagents/AGENTS.md"],
        &[".deepagents/skills/"],
        &[],
    ),
    row(
        "devin",
        &[AGENTS, ".devin/rules/"],
        &[".devin/skills/"],
        &[".devin/skills/"],
    ),
    row("dsh", &[AGENTS], &[".dsh/skills/"], &[]),
    row(
        "factorydroid",
        &[AGENTS, ".factory/rules/"],
        &[".factory/skills/"],
        &[".factory/commands/"],
    ),
    row(
        "goose",
        &[".goosehints"],
        &[".goose/skills/"],
        &[".goose/recipes/"],
    ),
    row(
        "grokcli",
        &[AGENTS, ".grok/rules/"],
        &[".grok/skills/"],
        &[".grok/commands/"],
    ),
    row("hermesagent", &[".hermes.md"], &[], &[]),
    row(
        "junie",
        &[".junie/AGENTS.md"],
        &[".junie/skills/"],
        &[".junie/commands/"],
    ),
    row(
        "kilo",
        &[AGENTS, ".kilo/rules/"],
        &[".kilo/skills/"],
        &[".kilo/commands/"],
    ),
    row(
        "kimi-code",
        &[".kimi-code/AGENTS.md"],
        &[".kimi-code/skills/"],
        &[],
    ),
    row(
        "kiro",
        &[AGENTS, ".kiro/steering/"],
        &[".kiro/skills/"],
        &[".kiro/prompts/"],
    ),
    row(
        "kiro-cli",
        &[AGENTS, ".kiro/steering/"],
        &[".kiro/skills/"],
        &[".kiro/prompts/"],
    ),
    row(
        "kiro-ide",
        &[AGENTS, ".kiro/steering/"],
        &[".kiro/skills/"],
        &[".kiro/prompts/"],
    ),
    row("musecode", &[AGENTS], &[SHARED_SKILLS], &[]),
    row(
        "opencode",
        &[AGENTS, ".opencode/memories/"],
        &[".opencode/skills/"],
        &[".opencode/commands/"],
    ),
    row("pi", &[AGENTS], &[".pi/skills/"], &[".pi/prompts/"]),
    row("pool", &[AGENTS], &[".poolside/skills/"], &[]),
    row(
        "qwencode",
        &["QWEN.md", ".qwen/rules/"],
        &[".qwen/skills/"],
        &[".qwen/commands/"],
    ),
    row(
        "reasonix",
        &["REASONIX.md"],
        &[".reasonix/skills/"],
        &[".reasonix/commands/"],
    ),
    row("replit", &["replit.md"], &[SHARED_SKILLS], &[]),
    row(
        "roo",
        &[AGENTS, ".roo/rules/"],
        &[".roo/skills/"],
        &[".roo/commands/"],
    ),
    row(
        "rovodev",
        &[AGENTS, ".rovodev/AGENTS.md", ".rovodev/.rulesync/"],
        &[".rovodev/skills/"],
        &[".rovodev/prompts/"],
    ),
    row(
        "tabnine",
        &["TABNINE.md", ".tabnine/guidelines/"],
        &[".tabnine/agent/skills/"],
        &[".tabnine/agent/commands/"],
    ),
    row("takt", &[".takt/facets/"], &[], &[".takt/facets/"]),
    row("vibe", &[AGENTS], &[".vibe/skills/"], &[]),
    row("warp", &[AGENTS], &[".warp/skills/"], &[".warp/skills/"]),
    row(
        "zcode",
        &[AGENTS],
        &[".zcode/skills/"],
        &[".zcode/commands/"],
    ),
    row("zed", &[".rules"], &[SHARED_SKILLS], &[]),
    row(
        "zoocode",
        &[AGENTS, ".roo/rules/"],
        &[".roo/skills/"],
        &[".roo/commands/"],
    ),
    row("agentsskills", &[], &[SHARED_SKILLS], &[]),
];

/// The hook files the `hooks` feature writes, for the agents `init --hook` sets up (the
/// `hooks` key of Claude Code's shared settings is replaced whole).
pub(super) const HOOKS: &[(&str, &str)] = &[
    ("claudecode", ".claude/settings.json"),
    ("codexcli", ".codex/hooks.json"),
    ("cursor", ".cursor/hooks.json"),
];
