//! The command-line surface (clap derive): one `Args` struct per subcommand. Doc comments
//! are the help text. Nothing here reaches the library: `front/cmd/` converts at the edge.

use std::path::PathBuf;

use crate::rules::reference::RuleRef;
use clap::{Args, Parser, Subcommand, ValueEnum};

/// The heading of the options that are not a command's own.
const GLOBAL: &str = "Global options";

const EXIT_STATUS: &str = "\
Exit status:
  0  success
  1  the command found problems (errors in check or preset validate, a disabled preset,
     a missing required skill, drift under export --check, a learned rule that repeats
     or contradicts an active rule)
  2  it could not do its job (usage error, unreadable or corrupt input, lock timeout)

Environment:
  AUTOFIX_FILE                 the rules file, as --file
  AUTOFIX_LOCK_TIMEOUT         seconds learn waits for the lock (default 10)
  AUTOFIX_CEILING_DIRECTORIES  directories discovery never searches above (separated like PATH)
  AUTOFIX_MAX_FILE_BYTES       the cap on any file or standard input read (default 67108864,
                               64 MiB); a larger one is an error, exit 2
  NO_COLOR                     no color with --color auto";

const LEARN_EXIT_STATUS: &str = "\
Exit status:
  0  learned, or already known as an active rule (nothing written)
  1  refused: it says an active rule's words again, or reverses them (nothing written;
     --supersedes N if it replaces that rule, --force to keep both)
  2  it could not (usage error, a statement that is no instruction without --force, an
     invalid rules file, a missing supersede target, lock timeout, a failed write); the
     file is left as it was

Environment:
  AUTOFIX_LOCK_TIMEOUT         seconds to wait for the lock (default 10)
  AUTOFIX_MAX_FILE_BYTES       the cap on the rules file and on --json input (default 64 MiB)
  LC_ALL, LC_MESSAGES, LANG    the first one set and non-empty decides the language
                               (fr, fr_FR.UTF-8, ...: French; else English); --lang
                               overrides it. JSON output and exit statuses do not change";

const RULES_EXIT_STATUS: &str = "\
Exit status:
  0  listed (also when there is no rules file; --format hook always exits 0)
  2  the rules file could not be read or is not JSON, or no rule has the number RULE";

const CHECK_EXIT_STATUS: &str = "\
Exit status:
  0  no errors (warnings do not fail), or no rules file
  1  errors found
  2  the rules file could not be read";

const ENFORCE_EXIT_STATUS: &str = "\
Exit status:
  0  no rule broken (or no rule has a check)
  1  a rule's check found a violation
  2  it could not run (not a git work tree, an unknown --base, an invalid rules file)";

const WHERE_EXIT_STATUS: &str = "\"
Exit status:
  0  shown (whether or not the file exists)
  2  it could not run (a missing -C directory)";

const PRESET_LIST_EXIT_STATUS: &str = "\
Exit status:
  0  listed (a disabled preset is listed as disabled)
  2  a path that does not exist or holds no preset";

const PRESET_VALIDATE_EXIT_STATUS: &str = "\
Exit status:
  0  every preset enabled and no errors
  1  a preset is disabled or has errors (with --deny-warnings, also warnings)
  2  a path that does not exist or holds no preset";

const PRESET_RENDER_EXIT_STATUS: &str = "\
Exit status:
  0  rendered
  1  the preset is disabled (its diagnostics go to stderr)
  2  usage error: an unknown --command, or with --strict a placeholder without a value";

const PRESET_REQUIREMENTS_EXIT_STATUS: &str = "\
Exit status:
  0  every required skill is installed
  1  a required skill is missing, or the preset is disabled
  2  the preset cannot be found or read";

const EXPLAIN_EXIT_STATUS: &str = "\
Exit status:
  0  explained
  2  unknown code (the closest codes are suggested)";

const MCP_EXIT_STATUS: &str = "\
Exit status:
  0  standard input closed; every error is answered over the protocol";

const MAN_EXIT_STATUS: &str = "\
Exit status:
  0  printed or written
  2  an unknown command, or DIR could not be written";

/// A self-correcting rules memory for coding agents, and a checker and renderer for
/// preset tasks.
#[derive(Debug, Parser)]
#[command(name = "autofix", version, after_help = EXIT_STATUS, max_term_width = 100)]
pub(crate) struct Cli {
    #[command(flatten)]
    pub(crate) workspace: WorkspaceArgs,

    #[command(flatten)]
    pub(crate) global: GlobalArgs,

    #[command(subcommand)]
    pub(crate) command: Command,
}

/// Options of every command.
#[derive(Debug, Args)]
pub(crate) struct GlobalArgs {
    /// When to color the output (`auto` honours NO_COLOR and colors only terminals).
    #[arg(
        long,
        value_enum,
        value_name = "WHEN",
        default_value_t = Color::Auto,
        global = true,
        help_heading = GLOBAL
    )]
    pub(crate) color: Color,
}

/// Where the rules file is: taken by the commands that read or write it, and before the
/// command name (`autofix -C DIR rules`).
#[derive(Debug, Clone, Default, Args)]
pub(crate) struct WorkspaceArgs {
    /// Use DIR as the workspace root instead of searching upwards from the current directory.
    #[arg(short = 'C', long = "root", value_name = "DIR", help_heading = GLOBAL)]
    pub(crate) root: Option<PathBuf>,

    /// Use this rules file, skipping discovery [env: AUTOFIX_FILE].
    #[arg(long, value_name = "PATH", help_heading = GLOBAL)]
    pub(crate) file: Option<PathBuf>,
}

impl WorkspaceArgs {
    /// These options, with `later`'s (given after the command name) taking precedence.
    pub(crate) fn overridden_by(&self, later: Option<&WorkspaceArgs>) -> WorkspaceArgs {
        let later = later.cloned().unwrap_or_default();
        WorkspaceArgs {
            root: later.root.or_else(|| self.root.clone()),
            file: later.file.or_else(|| self.file.clone()),
        }
    }
}

/// [`WorkspaceArgs`] for a command with subcommands (`sources`), accepted before or after
/// the subcommand's name (`autofix sources list -C DIR`), as after `rules`.
#[derive(Debug, Clone, Default, Args)]
pub(crate) struct InheritedWorkspaceArgs {
    /// Use DIR as the workspace root instead of searching upwards from the current directory.
    #[arg(short = 'C', long = "root", value_name = "DIR", global = true, help_heading = GLOBAL)]
    pub(crate) root: Option<PathBuf>,

    /// Use this rules file, skipping discovery [env: AUTOFIX_FILE].
    #[arg(long, value_name = "PATH", global = true, help_heading = GLOBAL)]
    pub(crate) file: Option<PathBuf>,
}

impl From<&InheritedWorkspaceArgs> for WorkspaceArgs {
    fn from(args: &InheritedWorkspaceArgs) -> Self {
        WorkspaceArgs {
            root: args.root.clone(),
            file: args.file.clone(),
        }
    }
}

/// The workspace root alone: the preset commands look for presets there and never read
/// the rules file.
#[derive(Debug, Clone, Default, Args)]
pub(crate) struct RootArgs {
    /// Use DIR as the workspace root instead of searching upwards from the current directory.
    #[arg(short = 'C', long = "root", value_name = "DIR", help_heading = GLOBAL)]
    pub(crate) root: Option<PathBuf>,
}

impl From<&RootArgs> for WorkspaceArgs {
    fn from(args: &RootArgs) -> Self {
        WorkspaceArgs {
            root: args.root.clone(),
            file: None,
        }
    }
}

/// The commands, in the order of a day's work: set up, learn, read, check, publish; then
/// presets, teams, and help.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Set a repository up: the rules file, the autofix skill, optional session hooks.
    #[command(after_help = INIT_EXIT_STATUS)]
    Init(InitArgs),
    /// Append a rule: locked, atomic, numbered highest + 1.
    #[command(
        after_help = LEARN_EXIT_STATUS,
        override_usage = "autofix learn [OPTIONS] <INSTRUCTION>\n       \
                          autofix learn [OPTIONS] --json < rule.json"
    )]
    Learn(LearnArgs),
    /// Print the active rules (what an agent loads at the start of every task).
    #[command(after_help = RULES_EXIT_STATUS)]
    Rules(RulesArgs),
    /// Retire a rule without a replacement: append a record that supersedes it, with why.
    #[command(after_help = RETIRE_EXIT_STATUS)]
    Retire(RetireArgs),
    /// Record that two near rules both hold: `check` notes the pair no more.
    #[command(after_help = DISTINCT_EXIT_STATUS)]
    Distinct(DistinctArgs),
    /// Answer a note of the prompt hook: the user restated rule N, or no lasting rule.
    ///
    /// A change or a new rule is answered by `autofix learn … --note ID`.
    #[command(
        after_help = VERDICT_EXIT_STATUS,
        override_usage = "autofix verdict <NOTE> restated <RULE>\n       \
                          autofix verdict <NOTE> nothing"
    )]
    Verdict(VerdictArgs),
    /// Lint the rules file.
    #[command(after_help = CHECK_EXIT_STATUS)]
    Check(CheckArgs),
    /// Run the rules' checks over what changed: each added line that breaks a rule is
    /// reported with the rule's number and text.
    ///
    /// Looks at the work tree's changes against HEAD and the untracked files by default,
    /// the staged changes with --staged (what a pre-commit hook sees), the commits since a
    /// base with --base, or the files named. Only added lines are checked unless
    /// --all-lines (files named are checked whole).
    #[command(after_help = ENFORCE_EXIT_STATUS)]
    Enforce(EnforceArgs),
    /// Write the active rules where every agent reads them (AGENTS.md, CLAUDE.md, rule
    /// folders), touching only autofix's own block or stamped files.
    #[command(after_help = EXPORT_EXIT_STATUS)]
    Export(ExportArgs),
    /// Adopt the rules already written by hand (CLAUDE.md, AGENTS.md, .cursor/rules, …):
    /// preview them, add them with --write, take them out of those files with --move.
    ///
    /// Reads the hand-written rule files of the supported agents, finds the rules in them
    /// (list items, numbered items, imperative lines; a scoped Cursor, Copilot, Claude Code
    /// or Cline file gives its globs as Paths, and one without a list is one rule) and
    /// shows which it would add and which it skips as
    /// repeats of an existing rule or of each other. Headings, prose, code, tables and links
    /// are not rules; the preview says what was skipped and why. The hand-written files are
    /// never changed unless --move is given.
    #[command(after_help = IMPORT_EXIT_STATUS)]
    Import(ImportArgs),
    /// Show which rules file is used and the candidates considered.
    #[command(after_help = WHERE_EXIT_STATUS)]
    Where(WhereArgs),
    /// List the corrections typed in this repository's agent sessions, not yet learned.
    ///
    /// Reads the local transcripts of Claude Code, Codex and Gemini CLI, keeps what the
    /// user typed that reads like a correction and that no active rule states yet, and
    /// lists it newest first. Reads only; writes nothing.
    #[command(after_help = REFLECT_EXIT_STATUS)]
    Reflect(ReflectArgs),
    /// Measure whether the rules hold: the corrections typed again after a rule stating
    /// them was committed, per rule, and the repository's repeat rate.
    ///
    /// Reads the same local transcripts as `reflect` and the rules file's git history.
    /// Reads only; nothing leaves the machine.
    #[command(after_help = LEDGER_EXIT_STATUS)]
    Ledger(LedgerArgs),
    /// Import rules from git sources: pinned in a lock, vendored beside the rules file.
    Sources(SourcesArgs),
    /// Check and render preset tasks.
    #[command(subcommand)]
    Preset(PresetCommand),
    /// Merge the rules file for git (run by git), or install the driver with --install.
    #[command(after_help = DRIVER_EXIT_STATUS)]
    MergeDriver(MergeDriverArgs),
    /// After a conflict in the rules file, merge it again from git's index and write it.
    #[command(after_help = RESOLVE_EXIT_STATUS)]
    Resolve(ResolveArgs),
    /// Check that this clone merges the rules file well: driver, attribute, binary, file.
    #[command(after_help = DOCTOR_EXIT_STATUS)]
    Doctor(DoctorArgs),
    /// Run as an agent's hook (installed by `autofix init --hook`).
    ///
    /// Without an event it says so on stderr and exits 0: an agent reads exit 2 from a
    /// hook as "block the prompt" (Claude Code's `UserPromptSubmit`:
    /// <https://code.claude.com/docs/en/hooks#userpromptsubmit>).
    Hook(HookArgs),
    /// Serve the rules and preset tools over MCP (JSON-RPC on stdin/stdout).
    #[command(after_help = MCP_EXIT_STATUS)]
    Mcp(McpArgs),
    /// Explain a diagnostic code: what it means, why it matters, how to fix it.
    #[command(after_help = EXPLAIN_EXIT_STATUS)]
    Explain(ExplainArgs),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish).
    Completions(CompletionsArgs),
    /// Print a man page (roff): `autofix man learn | man -l -`; or write them all with --dir.
    #[command(after_help = MAN_EXIT_STATUS)]
    Man(ManArgs),
}

impl Command {
    /// The workspace options given after the command name, for the commands that take them.
    pub(crate) fn workspace(&self) -> Option<WorkspaceArgs> {
        match self {
            Command::Init(args) => Some(args.workspace.clone()),
            Command::Learn(args) => Some(args.workspace.clone()),
            Command::Rules(args) => Some(args.workspace.clone()),
            Command::Check(args) => Some(args.workspace.clone()),
            Command::Enforce(args) => Some(args.workspace.clone()),
            Command::Retire(args) => Some(args.workspace.clone()),
            Command::Distinct(args) => Some(args.workspace.clone()),
            Command::Verdict(args) => Some(args.workspace.clone()),
            Command::Ledger(args) => Some(args.workspace.clone()),
            Command::Export(args) => Some(args.workspace.clone()),
            Command::Import(args) => Some(args.workspace.clone()),
            Command::Where(args) => Some(args.workspace.clone()),
            Command::Preset(command) => Some(command.root().into()),
            Command::Sources(args) => Some((&args.workspace).into()),
            Command::MergeDriver(args) => Some(args.workspace.clone()),
            Command::Resolve(args) => Some(args.workspace.clone()),
            Command::Doctor(args) => Some(args.workspace.clone()),
            Command::Reflect(args) => Some(args.workspace.clone()),
            Command::Mcp(args) => Some(args.workspace.clone()),
            Command::Hook(_) | Command::Explain(_) | Command::Completions(_) | Command::Man(_) => {
                None
            }
        }
    }
}

const SOURCES_EXIT_STATUS: &str = "\
Exit status:
  0  done (outdated: every source is at its ref's commit)
  1  refused to protect the pins (a force-pushed pin, a tampered copy, an oversized
     source; nothing written); outdated: a source is behind, not locked, rewritten
     (its pin left the ref's history), or its locked copy differs from the source's file
  2  it could not run (usage error, a failed fetch, an invalid manifest); outdated: a
     source could not be reached

Environment:
  AUTOFIX_SOURCES_TIMEOUT  seconds each git step of a fetch may take (default 60)";

#[derive(Debug, Args)]
#[command(after_help = SOURCES_EXIT_STATUS)]
pub(crate) struct SourcesArgs {
    #[command(flatten)]
    pub(crate) workspace: InheritedWorkspaceArgs,

    #[command(subcommand)]
    pub(crate) command: SourcesCommand,
}

#[derive(Debug, Subcommand)]
pub(crate) enum SourcesCommand {
    /// Add a git source: fetch it, pin it in the lock, vendor its rules file.
    Add {
        /// The source's name: its rules are NAME:N (lower-case letters, digits, `-`).
        name: String,
        /// https://, ssh://, user@host:path or file:// URL.
        url: String,
        /// The branch, tag or commit to follow.
        #[arg(long = "ref", value_name = "REF", default_value = "main")]
        reference: String,
        /// The autofix rules file inside the source.
        #[arg(long, value_name = "PATH", default_value = ".agents/autofix.json")]
        path: String,
        /// Import only rules of this category (repeatable).
        #[arg(short, long = "category", value_name = "CAT")]
        categories: Vec<String>,
        /// Import only this rule number (repeatable).
        #[arg(long = "rule", value_name = "N")]
        rules: Vec<u64>,
    },
    /// Move pins to their ref's commit now, showing the rule-level changes.
    Update {
        /// The sources to update [default: all].
        names: Vec<String>,
        /// Show what would change; write nothing.
        #[arg(long)]
        dry_run: bool,
        /// Re-pin a source whose history was rewritten (force-pushed): take the ref's
        /// commit now although the pinned one is not in its history. Review it first.
        #[arg(long)]
        force: bool,
        /// Print the changes as a JSON document.
        #[arg(long, value_enum, default_value = "text")]
        format: TextOrJson,
    },
    /// Compare each pin with its ref on the server (exit 1 when one is behind).
    Outdated {
        /// Print the states as a JSON document.
        #[arg(long, value_enum, default_value = "text")]
        format: TextOrJson,
    },
    /// List the sources, their pins and whether the vendored copies match (offline).
    List {
        /// Print the list as a JSON document.
        #[arg(long, value_enum, default_value = "text")]
        format: TextOrJson,
    },
    /// Remove a source from the manifest and the lock, and its vendored copy.
    Remove { name: String },
    /// Lock an imported rule for this repository (`org:4`): no local rule may supersede,
    /// repeat or reverse it without a reviewed manifest override. Written to the manifest.
    Lock {
        #[arg(value_name = "NAME:N", value_parser = RuleRef::parse)]
        rule: RuleRef,
    },
    /// Undo `sources lock` for an imported rule (a rule its source locks stays locked).
    Unlock {
        #[arg(value_name = "NAME:N", value_parser = RuleRef::parse)]
        rule: RuleRef,
    },
    /// Merge the lock or a vendored copy for git (run by git: `%O %A %B %P`), or set the
    /// driver up with --install.
    MergeDriver {
        /// Set the driver up: local git config and `.gitattributes`.
        #[arg(long, conflicts_with_all = ["base", "ours", "theirs", "path"])]
        install: bool,
        /// %X: how git names our side.
        #[arg(long, value_name = "LABEL")]
        ours_label: Option<String>,
        /// %Y: how git names their side.
        #[arg(long, value_name = "LABEL")]
        theirs_label: Option<String>,
        #[arg(value_name = "BASE", required_unless_present = "install")]
        base: Option<PathBuf>,
        #[arg(value_name = "OURS", required_unless_present = "install")]
        ours: Option<PathBuf>,
        #[arg(value_name = "THEIRS", required_unless_present = "install")]
        theirs: Option<PathBuf>,
        #[arg(value_name = "PATH", required_unless_present = "install")]
        path: Option<String>,
    },
}

#[derive(Debug, Args)]
pub(crate) struct McpArgs {
    #[command(flatten)]
    pub(crate) workspace: WorkspaceArgs,
}

#[derive(Debug, Args)]
pub(crate) struct ManArgs {
    /// The command whose page to print, e.g. `learn` or `preset validate` [default: the
    /// top-level page].
    #[arg(value_name = "COMMAND", conflicts_with = "dir")]
    pub(crate) command: Vec<String>,

    /// Write every page (autofix.1, autofix-learn.1, …) into DIR (created if missing).
    #[arg(long, value_name = "DIR")]
    pub(crate) dir: Option<PathBuf>,
}

const REFLECT_EXIT_STATUS: &str = "\
Reads ~/.claude/projects, ~/.codex/sessions and ~/.gemini/tmp (HOME); missing folders
are reported, not an error. Nothing leaves the machine.

Exit status:
  0  done (with or without candidates)
  2  it could not run (an invalid rules file, HOME not set)";

/// Which of the agents' local sessions `reflect` and `ledger` read.
#[derive(Debug, Args)]
pub(crate) struct SessionsArgs {
    /// Read only these agents' sessions (repeatable or comma-separated) [default: all].
    #[arg(
        long = "agent",
        value_name = "AGENT",
        value_enum,
        value_delimiter = ','
    )]
    pub(crate) agents: Vec<PromptAgent>,

    /// Only messages from this day on: YYYY-MM-DD or an ISO 8601 time (UTC), `today`,
    /// `yesterday`, or days or weeks ago (`7d`, `2w`).
    #[arg(long, value_name = "DATE", value_parser = parse_since)]
    pub(crate) since: Option<String>,
}

#[derive(Debug, Args)]
pub(crate) struct ReflectArgs {
    #[command(flatten)]
    pub(crate) workspace: WorkspaceArgs,

    #[command(flatten)]
    pub(crate) sessions: SessionsArgs,

    /// Output format.
    #[arg(long, value_enum, default_value_t = TextOrJson::Text)]
    pub(crate) format: TextOrJson,
}

fn parse_since(text: &str) -> Result<String, String> {
    if crate::capture::reflect::is_valid_since(text) {
        return Ok(text.to_string());
    }
    days_ago(text)
        .map(|days| {
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |since| {
                    i64::try_from(since.as_secs()).unwrap_or(i64::MAX)
                });
            let date = crate::rules::provenance::utc_date(now.saturating_sub(days * 86_400));
            date[..10].to_string()
        })
        .ok_or_else(|| {
            format!(
                "expected YYYY-MM-DD, an ISO 8601 time, `today`, `yesterday`, or days or \
                 weeks ago (`7d`, `2w`), got `{text}`"
            )
        })
}

/// How many days before today (UTC) a relative `--since` names: `today` 0, `yesterday` 1,
/// `7d` 7, `2w` 14 (whole days: `1d` is yesterday, from its start).
fn days_ago(text: &str) -> Option<i64> {
    match text.trim().to_ascii_lowercase().as_str() {
        "today" => Some(0),
        "yesterday" => Some(1),
        relative => {
            let (number, per) = match relative.strip_suffix('d') {
                Some(days) => (days, 1),
                None => (relative.strip_suffix('w')?, 7),
            };
            let number: i64 = number.parse().ok().filter(|n| (0..=100_000).contains(n))?;
            Some(number * per)
        }
    }
}

#[derive(Debug, Args)]
pub(crate) struct HookArgs {
    #[command(subcommand)]
    pub command: Option<HookCommand>,
}

#[derive(Debug, Subcommand)]
pub(crate) enum HookCommand {
    /// Notice a correction in a submitted prompt (a prompt-submit hook).
    ///
    /// Reads the hook's JSON on stdin. When the prompt is a correction or a convention, it
    /// prints the agent's hook output asking it to record a rule with `autofix learn`;
    /// otherwise nothing. It always exits 0, so it never blocks the prompt.
    UserPrompt(UserPromptArgs),
    /// Check the file an agent just wrote against the rules' checks (an after-tool hook).
    ///
    /// Reads the hook's JSON on stdin (Claude Code's PostToolUse on Write, Edit and
    /// MultiEdit and PostToolUseFailure, Codex's PostToolUse, Gemini CLI's AfterTool). When
    /// the new text breaks a checked rule, it prints the agent's hook output naming the
    /// rule, which the agent feeds back to the model; when a tool call failed on a wrong
    /// assumption (a missing command, path or module, the wrong package manager), a
    /// reminder to record the lesson, once a session; otherwise nothing. It always exits 0.
    PostTool(PostToolArgs),
}

#[derive(Debug, Args)]
pub(crate) struct PostToolArgs {
    /// The agent whose hook runs this.
    #[arg(long, value_enum, value_name = "AGENT")]
    pub(crate) agent: EditAgent,
}

/// The agents whose after-tool hook `hook post-tool` answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum EditAgent {
    Claude,
    Codex,
    Gemini,
}

#[derive(Debug, Args)]
pub(crate) struct UserPromptArgs {
    /// The agent whose hook runs this.
    #[arg(long, value_enum, value_name = "AGENT")]
    pub(crate) agent: PromptAgent,
}

/// The agents with a prompt-submit hook that can add context (and local transcripts
/// `reflect` reads).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum PromptAgent {
    Claude,
    Codex,
    Gemini,
    Copilot,
    Qwen,
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
  1  a path was refused and left unchanged (a skill, /learn command or settings file
     autofix does not own, a settings file that is not valid JSON); with --check also
     anything init would change
  2  it could not run (outside a git repository without -C, a failed write)";

#[derive(Debug, Args)]
pub(crate) struct ExportArgs {
    #[command(flatten)]
    pub(crate) workspace: WorkspaceArgs,

    /// Print nothing when it succeeds (text format; warnings and errors still go to stderr,
    /// and a refused target is still shown).
    #[arg(short, long)]
    pub(crate) quiet: bool,

    /// Export to this target only (repeatable or comma-separated) [default: the defaults
    /// plus every target exported before].
    #[arg(
        short,
        long = "target",
        value_name = "ID",
        value_delimiter = ',',
        value_parser = clap::builder::PossibleValuesParser::new(crate::export::targets::IDS)
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

    /// List every target (file, write mode, how scoped rules are shown, when it is
    /// exported, the agent's documentation) and export nothing.
    #[arg(long, conflicts_with_all = ["targets", "check", "dry_run", "diff", "remove", "truncate"])]
    pub(crate) list_targets: bool,

    /// Output format.
    #[arg(long, value_enum, default_value_t = ExportFormat::Text)]
    pub(crate) format: ExportFormat,
}

const IMPORT_EXIT_STATUS: &str = "\
Exit status:
  0  done: the preview shown, or the rules added (and the lines moved)
  1  a rule was not imported (it contradicts an active rule or another one found, or learn
     refused it), a hand-written file could not be read, or a move was refused
  2  it could not run (unreadable or invalid rules file, a FILE that is not a hand-written
     rule file, a lock timeout)";

#[derive(Debug, Args)]
pub(crate) struct ImportArgs {
    #[command(flatten)]
    pub(crate) workspace: WorkspaceArgs,

    /// Only these hand-written files [default: every one found].
    #[arg(value_name = "FILE")]
    pub(crate) files: Vec<String>,

    /// Add the rules to the rules file (through `learn`: locked, atomic, numbered).
    #[arg(long, conflicts_with = "dry_run")]
    pub(crate) write: bool,

    /// Show what would be imported, without writing (the default).
    #[arg(long)]
    pub(crate) dry_run: bool,

    /// Take the lines of every rule autofix now holds out of the hand-written files (every
    /// other byte is kept), so that each agent reads them once, from autofix's copy. Only
    /// with --write does it change a file.
    #[arg(long = "move")]
    pub(crate) move_lines: bool,

    /// List the parts that are not rules one by one.
    #[arg(short, long)]
    pub(crate) verbose: bool,

    /// Output format.
    #[arg(long, value_enum, default_value_t = TextOrJson::Text)]
    pub(crate) format: TextOrJson,
}

#[derive(Debug, Args)]
pub(crate) struct InitArgs {
    #[command(flatten)]
    pub(crate) workspace: WorkspaceArgs,

    /// Print nothing when it succeeds (text format; warnings and errors still go to stderr,
    /// and a refused target is still shown).
    #[arg(short, long)]
    pub(crate) quiet: bool,

    /// Add a SessionStart hook that loads the rules, and (Claude, Codex, Gemini) a
    /// prompt-submit hook that notices corrections and an after-tool hook that runs the
    /// rules' checks on each edit, for these agents (repeatable or comma-separated).
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

    /// Also install the /learn command for these agents (repeatable or comma-separated);
    /// every agent set up in the repository gets it without asking.
    #[arg(
        long = "command",
        value_name = "AGENTS",
        value_enum,
        value_delimiter = ','
    )]
    pub(crate) commands: Vec<CommandAgentArg>,

    /// Also install `autofix enforce --staged` in git's pre-commit hook: a marked block
    /// appended to an existing hook, never over it.
    #[arg(long)]
    pub(crate) pre_commit: bool,

    /// Take autofix's block out of git's pre-commit hook (and the hook, if autofix
    /// created it and nothing else was added), and do nothing else.
    #[arg(long, conflicts_with = "pre_commit")]
    pub(crate) uninstall_pre_commit: bool,

    /// Also run `autofix export` with its default targets.
    #[arg(long)]
    pub(crate) export: bool,

    /// List each merge-driver setting and `.gitattributes` line (folded into one line
    /// otherwise).
    #[arg(short, long)]
    pub(crate) verbose: bool,

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

/// The agents with project commands (`init --command`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum CommandAgentArg {
    Claude,
    Copilot,
    Cursor,
    Gemini,
    #[value(name = "opencode")]
    OpenCode,
}

/// The agents with session-start hooks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum HookAgent {
    Claude,
    Codex,
    Cursor,
    Gemini,
    Copilot,
    Qwen,
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
    /// SARIF 2.1.0, for GitHub code scanning.
    Sarif,
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
    #[command(flatten)]
    pub(crate) workspace: WorkspaceArgs,

    /// Print nothing when it succeeds (text format; warnings and errors still go to stderr,
    /// and a refused target is still shown).
    #[arg(short, long)]
    pub(crate) quiet: bool,

    /// The instruction, in the imperative: "Never/Always do X - because Y."
    #[arg(value_name = "INSTRUCTION", required_unless_present = "json")]
    pub(crate) instruction: Option<String>,

    /// STYLE, CODE, ARCH, TOOL, PROCESS, DATA, UX or OTHER (any case, brackets allowed);
    /// without it, guessed from the instruction's words (and said).
    #[arg(short, long, value_name = "CAT")]
    pub(crate) category: Option<String>,

    /// Why the rule exists: "user preference", "codebase pattern", "framework limitation"
    /// [default: user preference].
    #[arg(short, long, value_name = "WHY")]
    pub(crate) why: Option<String>,

    /// The number of an older rule this one replaces, or an imported rule `NAME:N`
    /// (repeatable).
    #[arg(short, long, value_name = "N", value_parser = RuleRef::parse)]
    pub(crate) supersedes: Vec<RuleRef>,

    /// Scope the rule to the files matching this glob, gitignore-style and relative to the
    /// workspace root: `src/api/**`, `*.sql`, `!src/gen/**` (repeatable; without it the
    /// rule applies everywhere).
    #[arg(long = "path", value_name = "GLOB")]
    pub(crate) paths: Vec<String>,

    /// Check the rule where it applies (`autofix enforce`, the pre-commit hook): no line of
    /// a file in the rule's scope may match this regular expression (`regex` crate
    /// syntax), e.g. `console\.log`.
    #[arg(long = "check", value_name = "REGEX", conflicts_with = "require")]
    pub(crate) check: Option<String>,

    /// Check the rule where it applies: every file in the rule's scope must match this
    /// regular expression somewhere.
    #[arg(long = "require", value_name = "REGEX")]
    pub(crate) require: Option<String>,

    /// Read {"Category", "Instruction", "Why", "Supersedes"?, "Paths"?, "Check"?,
    /// "Force"?} from standard input.
    #[arg(long, conflicts_with_all = ["instruction", "category", "why", "supersedes", "paths", "check", "require"])]
    pub(crate) json: bool,

    /// Do not refresh the exported copies (AGENTS.md, rule folders) after learning.
    #[arg(long)]
    pub(crate) no_export: bool,

    /// Learn a personal rule (`user:N`) in $XDG_CONFIG_HOME/autofix/autofix.json (else
    /// ~/.config/autofix/autofix.json): yours in every repository, never exported or
    /// committed.
    #[arg(long)]
    pub(crate) user: bool,
    /// Learn it even when it repeats or contradicts an active rule in other words (keep
    /// both). Without it, such a rule is refused (exit 1) unless it supersedes that rule.
    #[arg(long)]
    pub(crate) force: bool,

    /// Answer the prompt hook's note ID with this rule: a change (with --supersedes) or
    /// a new rule, recorded for `ledger` once the rule is learned.
    #[arg(long, value_name = "ID", conflicts_with = "user")]
    pub(crate) note: Option<String>,

    /// Show the rule that would be learned, without writing.
    #[arg(long)]
    pub(crate) dry_run: bool,

    /// Output format.
    #[arg(long, value_enum, default_value_t = TextOrJson::Text)]
    pub(crate) format: TextOrJson,

    /// The language of the acknowledgement and of the refusals [default: French when the
    /// first of LC_ALL, LC_MESSAGES, LANG that is set says so, else English].
    #[arg(long, value_enum, value_name = "LANG")]
    pub(crate) lang: Option<LangArg>,
}

impl LearnArgs {
    /// The check `--check` or `--require` asks for.
    pub(crate) fn check_request(&self) -> Option<crate::rules::pattern::Check> {
        use crate::rules::pattern::{Check, Kind};
        let (kind, pattern) = match (&self.check, &self.require) {
            (Some(pattern), _) => (Kind::Forbid, pattern),
            (None, Some(pattern)) => (Kind::Require, pattern),
            (None, None) => return None,
        };
        Some(Check {
            kind,
            pattern: pattern.clone(),
        })
    }
}

/// The languages `learn` speaks (`--lang`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum LangArg {
    En,
    Fr,
}

#[derive(Debug, Args)]
pub(crate) struct RulesArgs {
    #[command(flatten)]
    pub(crate) workspace: WorkspaceArgs,

    /// Show only rules of this category (repeatable).
    #[arg(short, long = "category", value_name = "CAT")]
    pub(crate) categories: Vec<String>,

    /// Also show superseded rules, and what superseded them.
    #[arg(long)]
    pub(crate) all: bool,

    /// Only the rules that apply to these files or folders: the unscoped rules and those
    /// whose `Paths` globs match, each with why it applies.
    #[arg(long = "for", value_name = "PATH", num_args = 1..)]
    pub(crate) for_paths: Vec<String>,

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

    /// Show this rule whole: its text, scope, state, the commit that added it, what it
    /// superseded and what supersedes or retires it.
    #[arg(value_name = "RULE", value_parser = RuleRef::parse, conflicts_with_all = ["categories", "all", "for_paths", "budget", "search", "agent"])]
    pub(crate) number: Option<RuleRef>,

    /// Only the rules whose instruction or why holds TEXT (ignoring case).
    #[arg(long, value_name = "TEXT")]
    pub(crate) search: Option<String>,

    /// Show who added each rule, when and in which commit (from the rules file's git
    /// history; one `git log` call).
    #[arg(long)]
    pub(crate) provenance: bool,
}

const RETIRE_EXIT_STATUS: &str = "\
Exit status:
  0  retired (a record appended), or with --dry-run shown
  2  it could not (no such rule, a rule already superseded, an empty reason, an invalid
     rules file, lock timeout, a failed write); the file is left as it was";

#[derive(Debug, Args)]
pub(crate) struct RetireArgs {
    #[command(flatten)]
    pub(crate) workspace: WorkspaceArgs,

    /// Print nothing when it succeeds (text format; warnings still go to stderr).
    #[arg(short, long)]
    pub(crate) quiet: bool,

    /// The active rule to retire: a number, or an imported rule `org:N` (this repository
    /// then stops following it).
    #[arg(value_name = "RULE", value_parser = RuleRef::parse)]
    pub(crate) number: RuleRef,

    /// Why the rule no longer holds (kept in the record).
    #[arg(short, long, value_name = "WHY")]
    pub(crate) why: String,

    /// Do not refresh the exported copies (AGENTS.md, rule folders) afterwards.
    #[arg(long)]
    pub(crate) no_export: bool,

    /// Show the record that would be appended, without writing.
    #[arg(long)]
    pub(crate) dry_run: bool,

    /// Output format.
    #[arg(long, value_enum, default_value_t = TextOrJson::Text)]
    pub(crate) format: TextOrJson,
}

const VERDICT_EXIT_STATUS: &str = "\
Each note the prompt hook gives carries an id (`note 3f9a2c`); the answer is kept in git's
directory (autofix/notes.jsonl, never committed) and counted by `autofix ledger`.

Exit status:
  0  recorded
  2  refused (an id the hook never gave here, a note answered already, a rule that is not
     active, outside a git repository) or it could not be written; nothing was recorded";

/// What the user said, as the agent judged it.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub(crate) enum SaidArg {
    /// A recorded rule again (name it): follow it, nothing is learned.
    Restated,
    /// No lasting rule.
    Nothing,
}

#[derive(Debug, Args)]
pub(crate) struct VerdictArgs {
    #[command(flatten)]
    pub(crate) workspace: WorkspaceArgs,

    /// Print nothing when it succeeds.
    #[arg(short, long)]
    pub(crate) quiet: bool,

    /// The note's id, as the hook gave it.
    #[arg(value_name = "NOTE")]
    pub(crate) note: String,

    /// What the user said.
    #[arg(value_enum, value_name = "SAID")]
    pub(crate) said: SaidArg,

    /// The rule restated: a number, or an imported rule `NAME:N`.
    #[arg(value_name = "RULE", value_parser = RuleRef::parse)]
    pub(crate) rule: Option<RuleRef>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = TextOrJson::Text)]
    pub(crate) format: TextOrJson,
}

const DISTINCT_EXIT_STATUS: &str = "\
Appends a record (\"Distinct\": [A, B]) that no agent reads; rules are never edited.

Exit status:
  0  recorded (a record appended), or with --dry-run shown
  2  it could not (no such rule, a rule not active, the same rule twice, an empty reason,
     an invalid rules file, lock timeout, a failed write); the file is left as it was";

#[derive(Debug, Args)]
pub(crate) struct DistinctArgs {
    #[command(flatten)]
    pub(crate) workspace: WorkspaceArgs,

    /// Print nothing when it succeeds (text format; warnings still go to stderr).
    #[arg(short, long)]
    pub(crate) quiet: bool,

    /// The two active rules `check` notes as near, by number.
    #[arg(value_name = "RULE", num_args = 2, required = true)]
    pub(crate) rules: Vec<u64>,

    /// How the two differ (kept in the record).
    #[arg(short, long, value_name = "WHY")]
    pub(crate) why: String,

    /// Show the record that would be appended, without writing.
    #[arg(long)]
    pub(crate) dry_run: bool,

    /// Output format.
    #[arg(long, value_enum, default_value_t = TextOrJson::Text)]
    pub(crate) format: TextOrJson,
}

const LEDGER_EXIT_STATUS: &str = "\
Reads ~/.claude/projects, ~/.codex/sessions and ~/.gemini/tmp (HOME), the rules file's
git history, and the receipts of the breaks the checks caught (.git/autofix/receipts.jsonl).
Nothing leaves the machine.

Exit status:
  0  done (whatever the figures)
  2  it could not run (an invalid rules file, HOME not set, a malformed --since)";

#[derive(Debug, Args)]
pub(crate) struct LedgerArgs {
    #[command(flatten)]
    pub(crate) workspace: WorkspaceArgs,

    #[command(flatten)]
    pub(crate) sessions: SessionsArgs,

    /// Output format.
    #[arg(long, value_enum, default_value_t = TextOrJson::Text)]
    pub(crate) format: TextOrJson,

    /// Also write the ledger as one self-contained HTML page (charts over time, the rules
    /// ranked) to FILE; `-` prints the page alone on standard output.
    #[arg(long, value_name = "FILE")]
    pub(crate) html: Option<std::path::PathBuf>,
}

#[derive(Debug, Args)]
pub(crate) struct CheckArgs {
    #[command(flatten)]
    pub(crate) workspace: WorkspaceArgs,

    /// Output format.
    #[arg(long, value_enum, default_value_t = DiagnosticsFormat::Text)]
    pub(crate) format: DiagnosticsFormat,

    /// Also run each active rule's check (`learn --check`) over the files git tracks in the rule's
    /// scope, and warn of a check that already matches old code (`check-matches-existing`).
    #[arg(long)]
    pub(crate) dry_run: bool,
}

#[derive(Debug, Args)]
pub(crate) struct EnforceArgs {
    #[command(flatten)]
    pub(crate) workspace: WorkspaceArgs,

    /// Check these files, whole, instead of the changes.
    #[arg(value_name = "PATH", conflicts_with_all = ["staged", "base"])]
    pub(crate) paths: Vec<String>,

    /// Check the staged changes (what the next commit holds), as a pre-commit hook does.
    #[arg(long, conflicts_with = "base")]
    pub(crate) staged: bool,

    /// Check the commits since the branch left REF (`git diff REF...HEAD`), as CI does.
    #[arg(long, value_name = "REF")]
    pub(crate) base: Option<String>,

    /// Check every line of each changed file, not only the lines the change adds.
    #[arg(long)]
    pub(crate) all_lines: bool,

    /// Output format.
    #[arg(long, value_enum, default_value_t = DiagnosticsFormat::Text)]
    pub(crate) format: DiagnosticsFormat,
}

#[derive(Debug, Args)]
pub(crate) struct WhereArgs {
    #[command(flatten)]
    pub(crate) workspace: WorkspaceArgs,

    /// Output format.
    #[arg(long, value_enum, default_value_t = TextOrJson::Text)]
    pub(crate) format: TextOrJson,
}

#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("setup").args(["install", "uninstall"])))]
pub(crate) struct MergeDriverArgs {
    #[command(flatten)]
    pub(crate) workspace: WorkspaceArgs,

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

    /// %L: the length of conflict markers (1 to 1024).
    #[arg(long, value_name = "N", default_value_t = 7, value_parser = marker_size)]
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

    /// Merge an exported copy (AGENTS.md, a rule folder's file) instead of the rules file:
    /// autofix's block or stamped file is set aside, never merged (run by git through
    /// `merge=autofix-export`).
    #[arg(long)]
    pub(crate) exported: bool,

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
    #[command(flatten)]
    pub(crate) workspace: WorkspaceArgs,

    /// The conflicted rules file [default: the discovered rules file].
    #[arg(value_name = "PATH")]
    pub(crate) path: Option<PathBuf>,

    /// Take an edit or deletion of an existing rule made on one side only.
    #[arg(long)]
    pub(crate) accept_one_sided_edits: bool,

    /// Drop the rules the work tree's file holds that the merge from the index does not
    /// (rules learned after the conflict); without it, `resolve` refuses to lose them.
    #[arg(long)]
    pub(crate) drop_work_tree_rules: bool,

    /// The length of conflict markers (1 to 1024).
    #[arg(long, value_name = "N", default_value_t = 7, value_parser = marker_size)]
    pub(crate) marker_size: usize,

    /// Output format.
    #[arg(long, value_enum, default_value_t = TextOrJson::Text)]
    pub(crate) format: TextOrJson,
}

#[derive(Debug, Args)]
pub(crate) struct DoctorArgs {
    #[command(flatten)]
    pub(crate) workspace: WorkspaceArgs,

    /// Output format (`github` and `sarif` carry the failed checks alone).
    #[arg(long, value_enum, default_value_t = DiagnosticsFormat::Text)]
    pub(crate) format: DiagnosticsFormat,
}

#[derive(Debug, Subcommand)]
pub(crate) enum PresetCommand {
    /// One line per preset: id, status, commands, bound skills.
    #[command(after_help = PRESET_LIST_EXIT_STATUS)]
    List(PresetListArgs),
    /// Load every preset and report diagnostics (for CI).
    #[command(after_help = PRESET_VALIDATE_EXIT_STATUS)]
    Validate(PresetValidateArgs),
    /// Print the final command line of each command.
    #[command(after_help = PRESET_RENDER_EXIT_STATUS)]
    Render(PresetRenderArgs),
    /// Each requirement once, the commands bound to it, and whether skills are installed.
    #[command(after_help = PRESET_REQUIREMENTS_EXIT_STATUS)]
    Requirements(PresetRequirementsArgs),
}

impl PresetCommand {
    pub(crate) fn root(&self) -> &RootArgs {
        match self {
            PresetCommand::List(args) => &args.root,
            PresetCommand::Validate(args) => &args.root,
            PresetCommand::Render(args) => &args.root,
            PresetCommand::Requirements(args) => &args.root,
        }
    }
}

#[derive(Debug, Args)]
pub(crate) struct PresetListArgs {
    #[command(flatten)]
    pub(crate) root: RootArgs,

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
    #[command(flatten)]
    pub(crate) root: RootArgs,

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
    #[command(flatten)]
    pub(crate) root: RootArgs,

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
    #[command(flatten)]
    pub(crate) root: RootArgs,

    /// The preset directory, or the name of a preset in .agents/presets or presets
    /// (default: the only preset there).
    #[arg(value_name = "PRESET")]
    pub(crate) preset: Option<PathBuf>,

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

/// The longest conflict marker accepted: git's default is 7; a length of billions would
/// write gigabytes of `<` before failing.
const MAX_MARKER_SIZE: usize = 1024;

/// `--marker-size`: a length from 1 to [`MAX_MARKER_SIZE`].
fn marker_size(value: &str) -> Result<usize, String> {
    match value.parse::<usize>() {
        Ok(n) if (1..=MAX_MARKER_SIZE).contains(&n) => Ok(n),
        _ => Err(format!(
            "`{value}` is not a conflict marker length from 1 to {MAX_MARKER_SIZE}"
        )),
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

    /// Every flag a user can see says what it does (`init --export` once had no words, its
    /// doc comment having slid onto `--pre-commit`).
    #[test]
    fn every_visible_option_has_help() {
        fn unexplained(command: &clap::Command, path: &str, out: &mut Vec<String>) {
            for arg in command.get_arguments() {
                if !arg.is_hide_set() && arg.get_help().is_none() && !arg.is_positional() {
                    out.push(format!("{path} --{}", arg.get_id()));
                }
            }
            for sub in command.get_subcommands() {
                unexplained(sub, &format!("{path} {}", sub.get_name()), out);
            }
        }
        let mut command = Cli::command();
        command.build();
        let mut out = Vec::new();
        unexplained(&command, "autofix", &mut out);
        assert_eq!(out, Vec::<String>::new());
    }
}
