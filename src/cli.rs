//! The command-line surface (clap derive): one `Args` struct per subcommand. Doc comments
//! are the help text. Nothing here reaches the library: `main.rs` converts at the edge.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

const EXIT_STATUS: &str = "\
Exit status:
  0  success
  1  the command found problems (errors in check/validate, a disabled preset,
     a missing required skill, a learned rule that repeats or contradicts an active rule)
  2  it could not do its job (usage error, unreadable or corrupt input, lock timeout)";

/// A self-correcting rules memory for coding agents, and a checker and renderer for
/// preset tasks.
#[derive(Debug, Parser)]
#[command(name = "autofix", version, after_help = EXIT_STATUS, max_term_width = 100)]
pub(crate) struct Cli {
    #[command(flatten)]
    pub(crate) global: GlobalArgs,

    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Debug, Args)]
pub(crate) struct GlobalArgs {
    /// Use DIR as the workspace root instead of searching upwards from the current directory.
    #[arg(short = 'C', long = "root", value_name = "DIR", global = true)]
    pub(crate) root: Option<PathBuf>,

    /// Use this rules file, skipping discovery [env: AUTOFIX_FILE].
    #[arg(long, value_name = "PATH", global = true)]
    pub(crate) file: Option<PathBuf>,

    /// When to color the output (`auto` honours NO_COLOR and colors only terminals).
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = Color::Auto, global = true)]
    pub(crate) color: Color,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Append a rule: locked, atomic, numbered highest + 1.
    #[command(after_help = EXIT_STATUS)]
    Learn(LearnArgs),
    /// Print the active rules (what an agent loads at the start of every task).
    Rules(RulesArgs),
    /// Lint the rules file.
    #[command(after_help = EXIT_STATUS)]
    Check(CheckArgs),
    /// Show which rules file is used and the candidates considered.
    Where(WhereArgs),
    /// Check and render preset tasks.
    #[command(subcommand)]
    Preset(PresetCommand),
    /// Explain a diagnostic code: what it means, why it matters, how to fix it.
    #[command(after_help = EXIT_STATUS)]
    Explain(ExplainArgs),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish).
    Completions(CompletionsArgs),
    /// Print the man page (roff) on stdout: `autofix man | man -l -`.
    Man,
    /// Serve the rules and preset tools over MCP (JSON-RPC on stdin/stdout).
    Mcp,
    /// Write the active rules where every agent reads them (AGENTS.md, CLAUDE.md, rule
    /// folders), touching only autofix's own block or stamped files.
    #[command(after_help = EXPORT_EXIT_STATUS)]
    Export(ExportArgs),
    /// Set a repository up: the rules file, the autofix skill, optional session hooks.
    #[command(after_help = INIT_EXIT_STATUS)]
    Init(InitArgs),
    /// Merge the rules file for git (run by git), or install the driver with --install.
    #[command(after_help = DRIVER_EXIT_STATUS)]
    MergeDriver(MergeDriverArgs),
    /// After a conflict in the rules file, merge it again from git's index and write it.
    #[command(after_help = RESOLVE_EXIT_STATUS)]
    Resolve(ResolveArgs),
    /// Check that this clone merges the rules file well: driver, attribute, binary, file.
    #[command(after_help = DOCTOR_EXIT_STATUS)]
    Doctor(DoctorArgs),
}

const EXPORT_EXIT_STATUS: &str = "\
Exit status:
  0  done (with --check: everything in sync)
  1  a target was refused and left unchanged (malformed markers, a file autofix does not
     own, over budget, outside the repository); with --check also any drift
  2  it could not run (unreadable or invalid rules file, a failed write)";

const INIT_EXIT_STATUS: &str = "\
Exit status:
  0  done, or nothing to change
  1  a path was refused and left unchanged (a skill or settings file autofix does not own,
     a settings file that is not valid JSON); with --check also anything init would change
  2  it could not run (outside a git repository without -C, a failed write)";

#[derive(Debug, Args)]
pub(crate) struct ExportArgs {
    /// Export to this target only (repeatable or comma-separated) [default: the defaults
    /// plus every target exported before].
    #[arg(
        short,
        long = "target",
        value_name = "ID",
        value_delimiter = ',',
        value_parser = clap::builder::PossibleValuesParser::new(autofix::export::targets::IDS)
    )]
    pub(crate) targets: Vec<String>,

    /// Write nothing; exit 1 when anything is out of sync (for CI).
    #[arg(long)]
    pub(crate) check: bool,

    /// Show what would change, without writing.
    #[arg(long)]
    pub(crate) dry_run: bool,

    /// Show a unified diff of every change.
    #[arg(long)]
    pub(crate) diff: bool,

    /// Remove autofix's block or stamped file from the targets (nothing else).
    #[arg(long)]
    pub(crate) remove: bool,

    /// Drop the oldest rules to fit a target's budget instead of refusing it.
    #[arg(long)]
    pub(crate) truncate: bool,

    /// Output format.
    #[arg(long, value_enum, default_value_t = ExportFormat::Text)]
    pub(crate) format: ExportFormat,
}

#[derive(Debug, Args)]
pub(crate) struct InitArgs {
    /// Add a SessionStart hook that loads the rules, for these agents (repeatable or
    /// comma-separated).
    #[arg(
        long = "hook",
        value_name = "AGENTS",
        value_enum,
        value_delimiter = ','
    )]
    pub(crate) hooks: Vec<HookAgent>,

    /// With --hook claude: use .claude/settings.local.json (not committed).
    #[arg(long)]
    pub(crate) local: bool,

    /// Also run `autofix export` with its default targets.
    #[arg(long)]
    pub(crate) export: bool,

    /// Show what would be done, without writing.
    #[arg(long)]
    pub(crate) dry_run: bool,

    /// Write nothing; exit 1 when init would change anything.
    #[arg(long)]
    pub(crate) check: bool,

    /// Output format.
    #[arg(long, value_enum, default_value_t = TextOrJson::Text)]
    pub(crate) format: TextOrJson,
}

/// The agents with session-start hooks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum HookAgent {
    Claude,
    Codex,
    Cursor,
    Gemini,
}

const DRIVER_EXIT_STATUS: &str = "\
git runs the driver as configured by --install:
  merge.autofix.driver = autofix merge-driver --marker-size %L --base-label %S \\
                         --ours-label %X --theirs-label %Y %O %A %B %P

Exit status (git's contract for merge drivers):
  0    merged; the result is in OURS
  1    conflict; OURS holds the merge with conflict markers
  255  the merge could not be made (also a panic); git fails the file cleanly
With --install or --uninstall: 0 done, 2 could not (not a git repository, git failed).

Environment:
  AUTOFIX_MERGE_UPSTREAM=ours|theirs  the side whose rule numbers are published
  AUTOFIX_MERGE_DRIVER=0              merge as text, like `git merge-file`";

const RESOLVE_EXIT_STATUS: &str = "\
Exit status:
  0  merged cleanly and written (review it, then `git add` it)
  1  written with conflict markers around the rules edited or deleted on a side
  2  it could not run (no conflict in the index, not a git repository, unreadable input)";

const DOCTOR_EXIT_STATUS: &str = "\
Exit status:
  0  every check passed
  1  a check failed (each failure names the command that fixes it)
  2  it could not run";

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Color {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum TextOrJson {
    Text,
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum RulesFormat {
    Text,
    Json,
    Markdown,
    /// One JSON object for a session-start hook (with --agent); always exits 0.
    Hook,
}

/// Formats of `export` (its findings are drift, not diagnostics with codes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ExportFormat {
    Text,
    Json,
    Github,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum DiagnosticsFormat {
    Text,
    Json,
    Github,
    /// SARIF 2.1.0, for GitHub code scanning.
    Sarif,
}

#[derive(Debug, Args)]
pub(crate) struct LearnArgs {
    /// The instruction, in the imperative: "Never/Always do X - because Y."
    #[arg(value_name = "INSTRUCTION", required_unless_present = "json")]
    pub(crate) instruction: Option<String>,

    /// STYLE, CODE, ARCH, TOOL, PROCESS, DATA, UX or OTHER (any case, brackets allowed).
    #[arg(short, long, value_name = "CAT", required_unless_present = "json")]
    pub(crate) category: Option<String>,

    /// Why the rule exists: "user preference", "codebase pattern", "framework limitation".
    #[arg(short, long, value_name = "WHY", required_unless_present = "json")]
    pub(crate) why: Option<String>,

    /// The number of an older rule this one replaces (repeatable).
    #[arg(short, long, value_name = "N")]
    pub(crate) supersedes: Vec<u64>,

    /// Read {"Category", "Instruction", "Why", "Supersedes"?, "Force"?} from standard input.
    #[arg(long, conflicts_with_all = ["instruction", "category", "why", "supersedes"])]
    pub(crate) json: bool,

    /// Learn it even when it repeats or contradicts an active rule in other words (keep
    /// both). Without it, such a rule is refused (exit 1) unless it supersedes that rule.
    #[arg(long)]
    pub(crate) force: bool,

    /// Show the rule that would be learned, without writing.
    #[arg(long)]
    pub(crate) dry_run: bool,

    /// Output format.
    #[arg(long, value_enum, default_value_t = TextOrJson::Text)]
    pub(crate) format: TextOrJson,
}

#[derive(Debug, Args)]
pub(crate) struct RulesArgs {
    /// Show only rules of this category (repeatable).
    #[arg(short, long = "category", value_name = "CAT")]
    pub(crate) categories: Vec<String>,

    /// Also show superseded rules, and what superseded them.
    #[arg(long)]
    pub(crate) all: bool,

    /// Output format.
    #[arg(long, value_enum, default_value_t = RulesFormat::Text)]
    pub(crate) format: RulesFormat,

    /// Show the newest rules that fit N tokens (about 4 characters each), one compact
    /// line a rule, and say how many are left out.
    #[arg(long, value_name = "N")]
    pub(crate) budget: Option<usize>,

    /// With --format hook: the agent whose hook runs this.
    #[arg(
        long,
        value_enum,
        value_name = "AGENT",
        required_if_eq("format", "hook")
    )]
    pub(crate) agent: Option<HookAgent>,
}

#[derive(Debug, Args)]
pub(crate) struct CheckArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = DiagnosticsFormat::Text)]
    pub(crate) format: DiagnosticsFormat,
}

#[derive(Debug, Args)]
pub(crate) struct WhereArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = TextOrJson::Text)]
    pub(crate) format: TextOrJson,
}

#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("setup").args(["install", "uninstall"])))]
pub(crate) struct MergeDriverArgs {
    /// %O: the merge base's version of the file.
    #[arg(value_name = "BASE", required_unless_present = "setup")]
    pub(crate) base: Option<PathBuf>,

    /// %A: our version; the merged result is written here.
    #[arg(value_name = "OURS", required_unless_present = "setup")]
    pub(crate) ours: Option<PathBuf>,

    /// %B: their version.
    #[arg(value_name = "THEIRS", required_unless_present = "setup")]
    pub(crate) theirs: Option<PathBuf>,

    /// %P: the file's path in the repository, for messages.
    #[arg(value_name = "PATH")]
    pub(crate) path: Option<String>,

    /// %L: the length of conflict markers.
    #[arg(long, value_name = "N", default_value_t = 7)]
    pub(crate) marker_size: usize,

    /// %S: the base's label.
    #[arg(long, value_name = "LABEL", allow_hyphen_values = true)]
    pub(crate) base_label: Option<String>,

    /// %X: our label (e.g. HEAD).
    #[arg(long, value_name = "LABEL", allow_hyphen_values = true)]
    pub(crate) ours_label: Option<String>,

    /// %Y: their label (e.g. the branch being merged).
    #[arg(long, value_name = "LABEL", allow_hyphen_values = true)]
    pub(crate) theirs_label: Option<String>,

    /// Take an edit or deletion of an existing rule made on one side only, instead of
    /// reporting a conflict.
    #[arg(long)]
    pub(crate) accept_one_sided_edits: bool,

    /// Configure git to use this driver for the rules file (config + .gitattributes).
    #[arg(long, conflicts_with_all = ["base", "ours", "theirs", "path"])]
    pub(crate) install: bool,

    /// Remove the driver's config section and its .gitattributes lines.
    #[arg(long, conflicts_with_all = ["base", "ours", "theirs", "path"])]
    pub(crate) uninstall: bool,

    /// With --install/--uninstall: use the global git config instead of the repository's.
    #[arg(long, requires = "setup")]
    pub(crate) global: bool,
}

#[derive(Debug, Args)]
pub(crate) struct ResolveArgs {
    /// The conflicted rules file [default: the discovered rules file].
    #[arg(value_name = "PATH")]
    pub(crate) path: Option<PathBuf>,

    /// Take an edit or deletion of an existing rule made on one side only.
    #[arg(long)]
    pub(crate) accept_one_sided_edits: bool,

    /// The length of conflict markers.
    #[arg(long, value_name = "N", default_value_t = 7)]
    pub(crate) marker_size: usize,

    /// Output format.
    #[arg(long, value_enum, default_value_t = TextOrJson::Text)]
    pub(crate) format: TextOrJson,
}

#[derive(Debug, Args)]
pub(crate) struct DoctorArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = TextOrJson::Text)]
    pub(crate) format: TextOrJson,
}

#[derive(Debug, Subcommand)]
pub(crate) enum PresetCommand {
    /// One line per preset: id, status, commands, bound skills.
    List(PresetListArgs),
    /// Load every preset and report diagnostics (for CI).
    #[command(after_help = EXIT_STATUS)]
    Validate(PresetValidateArgs),
    /// Print the final command line of each command.
    #[command(after_help = EXIT_STATUS)]
    Render(PresetRenderArgs),
    /// Each requirement once, the commands bound to it, and whether skills are installed.
    #[command(after_help = EXIT_STATUS)]
    Requirements(PresetRequirementsArgs),
}

#[derive(Debug, Args)]
pub(crate) struct PresetListArgs {
    /// Preset directories, or directories whose children are presets
    /// [default: .agents/presets and presets under the workspace root].
    #[arg(value_name = "PATH")]
    pub(crate) paths: Vec<PathBuf>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = TextOrJson::Text)]
    pub(crate) format: TextOrJson,
}

#[derive(Debug, Args)]
pub(crate) struct PresetValidateArgs {
    /// Preset directories, or directories whose children are presets
    /// [default: .agents/presets and presets under the workspace root].
    #[arg(value_name = "PATH")]
    pub(crate) paths: Vec<PathBuf>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = DiagnosticsFormat::Text)]
    pub(crate) format: DiagnosticsFormat,

    /// Fail (exit 1) on warnings too.
    #[arg(long)]
    pub(crate) deny_warnings: bool,
}

#[derive(Debug, Args)]
pub(crate) struct PresetRenderArgs {
    /// The preset directory, or the name of a preset in .agents/presets or presets.
    #[arg(value_name = "PRESET")]
    pub(crate) preset: PathBuf,

    /// Render only this command (repeatable); lines still come in file order.
    #[arg(long = "command", value_name = "ID")]
    pub(crate) commands: Vec<String>,

    /// Fill the placeholder {NAME} with VALUE (repeatable).
    #[arg(long = "set", value_name = "NAME=VALUE", value_parser = parse_assignment)]
    pub(crate) values: Vec<(String, String)>,

    /// Fail when a placeholder has no value, naming every missing one.
    #[arg(long)]
    pub(crate) strict: bool,

    /// Output format.
    #[arg(long, value_enum, default_value_t = TextOrJson::Text)]
    pub(crate) format: TextOrJson,

    /// End each line with NUL instead of newline.
    #[arg(short = '0', long = "null")]
    pub(crate) null: bool,
}

#[derive(Debug, Args)]
pub(crate) struct PresetRequirementsArgs {
    /// The preset directory, or the name of a preset in .agents/presets or presets.
    #[arg(value_name = "PRESET")]
    pub(crate) preset: PathBuf,

    /// Another directory holding installed skills (`<dir>/<skill>/SKILL.md`; repeatable).
    #[arg(long = "skills-dir", value_name = "DIR")]
    pub(crate) skills_dirs: Vec<PathBuf>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = TextOrJson::Text)]
    pub(crate) format: TextOrJson,
}

#[derive(Debug, Args)]
pub(crate) struct ExplainArgs {
    /// The code, e.g. `command-skill-not-in-requirements`.
    #[arg(value_name = "CODE", required_unless_present = "list")]
    pub(crate) code: Option<String>,

    /// List every code with its severity and meaning.
    #[arg(long, conflicts_with = "code")]
    pub(crate) list: bool,
}

#[derive(Debug, Args)]
pub(crate) struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub(crate) shell: clap_complete::Shell,
}

fn parse_assignment(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) if !name.is_empty() => Ok((name.to_string(), value.to_string())),
        _ => Err(format!("expected NAME=VALUE, got `{text}`")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
