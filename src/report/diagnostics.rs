//! Diagnostics as values: the one finding type of every command, a closed set of stable
//! codes, each with a severity, and the one renderer of each format (text, JSON, GitHub
//! annotations; SARIF in [`crate::report::sarif`]) that `check`, `preset`, `export`, `init`,
//! `learn`, the merge driver and `doctor` share.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::path::Path;
use std::sync::Arc;

use serde::Serialize;

use crate::report::paint::Painter;
use crate::report::text::shown;

/// How bad a diagnostic is. Errors make `check` fail and disable a preset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    /// A finding that fails nothing: a problem kept for the record in a superseded rule
    /// (its fix, superseding it, has been made), or a code that is a note by nature
    /// (`missing-value`, `no-presets-found`).
    Note,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

macro_rules! codes {
    ($($variant:ident = $name:literal, $severity:ident, $summary:literal, $fix:literal, $why:literal, $example:literal;)*) => {
        /// Every diagnostic the tool can emit. A code never changes meaning.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code { $($variant,)* }

        impl Code {
            /// All codes, in documentation order.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            /// The stable kebab-case name, e.g. `command-skill-not-in-requirements`.
            pub fn as_str(self) -> &'static str {
                match self { $(Code::$variant => $name,)* }
            }

            pub fn severity(self) -> Severity {
                match self { $(Code::$variant => Severity::$severity,)* }
            }

            /// What the code means (the diagnostics page table's text).
            pub fn summary(self) -> &'static str {
                match self { $(Code::$variant => $summary,)* }
            }

            /// How to fix it.
            pub fn fix(self) -> &'static str {
                match self { $(Code::$variant => $fix,)* }
            }

            /// Why it matters.
            pub fn why(self) -> &'static str {
                match self { $(Code::$variant => $why,)* }
            }

            /// A short example of what triggers it.
            pub fn example(self) -> &'static str {
                match self { $(Code::$variant => $example,)* }
            }

            pub fn from_name(name: &str) -> Option<Code> {
                Code::ALL.iter().copied().find(|code| code.as_str() == name)
            }
        }
    };
}

codes! {
    InvalidJson = "invalid-json", Error,
        "A file is not valid JSON, or not UTF-8; the line and column come from the parser.",
        "Fix the syntax at the reported line and column (a leftover merge marker, a missing comma or bracket).",
        "Nothing in the file can be trusted until it parses: `learn` refuses to touch it and every agent that loads it fails.",
        "[\n  {\"Rule_number\": 1, \"Category\": \"CODE\",}\n]    <- the comma before } is not allowed";
    NotAnArray = "not-an-array", Error,
        "The rules file is not a JSON array of objects.",
        "Make the top level an array `[...]` whose elements are rule objects.",
        "The rules file is a list of rules; any other shape means the file is not what `autofix` and the agents expect, and `learn` will not write to it.",
        "{\"rules\": [...]}    <- an object; the file must be [ {...}, {...} ]";
    MissingField = "missing-field", Error,
        "A rule lacks one of `Rule_number`, `Category`, `Instruction`, `Why`.",
        "Add the field; `autofix learn` always writes all four.",
        "A rule without its number cannot be referenced or superseded; one without its text or reason tells an agent nothing it can act on.",
        "{\"Rule_number\": 4, \"Category\": \"CODE\", \"Why\": \"lesson\"}    <- no \"Instruction\"";
    InvalidRuleNumber = "invalid-rule-number", Error,
        "A `Rule_number` is not a positive integer below 2^63.",
        "Write the number as a plain positive integer such as `12`.",
        "Numbers order the rules (the higher one wins a conflict) and are how supersede references point; `learn` refuses a file with a number it cannot compare.",
        "{\"Rule_number\": \"12\", ...}    <- a string; write 12";
    DuplicateRuleNumber = "duplicate-rule-number", Error,
        "Two rules share one `Rule_number` (often after a merge).",
        "Renumber the newer rule to the next free number, and update references to it.",
        "Precedence and supersede references name rules by number, so two rules with one number make both ambiguous.",
        "two branches each learned rule 44: renumber one to 45";
    UnknownCategory = "unknown-category", Error,
        "A rule's `Category` is not one of the eight (brackets and case are tolerated).",
        "Learn a superseding rule under a listed category.",
        "Agents filter rules by category (`autofix rules --category CODE`); a rule under an unknown category is missed by every filter.",
        "{\"Category\": \"VIBES\", ...}    <- use one of STYLE CODE ARCH TOOL PROCESS DATA UX OTHER";
    EmptyText = "empty-text", Error,
        "A rule's `Instruction` or `Why` is empty.",
        "Learn a superseding rule that states the instruction and its reason.",
        "A rule with no instruction or no reason is noise in every agent's context and cannot be applied or judged.",
        "{\"Instruction\": \"  \", ...}";
    DanglingSupersedes = "dangling-supersedes", Error,
        "A supersede reference names a rule that does not exist or is not older.",
        "Reference an existing, lower-numbered rule.",
        "The reference does nothing: the rule it meant to retire stays active, which is rarely what its author intended.",
        "rule 7 says \"supersedes rule 9\": rule 9 is newer (or does not exist)";
    SecretInRule = "secret-in-rule", Error,
        "A rule's text holds a credential: a token, a key, a password.",
        "Rotate the credential, then supersede the rule with one that names where the secret lives (\"read the token from $DEPLOY_TOKEN\").",
        "The rules file is committed and exported into every agent's file: the credential is in the history and in every agent's context.",
        "\"Always call the staging API with the token ghp_…\"";
    NotImperative = "not-imperative", Warning,
        "An active rule's instruction does not read as an imperative.",
        "Start the instruction with a verb: \"Always …\", \"Never …\", \"Use …\".",
        "Agents follow commands more reliably than descriptions; \"The tests are slow\" leaves the agent to guess what to do about it.",
        "\"The build is slow\" -> \"Always run the fast test subset first - because the full build takes 20 minutes.\"";
    DuplicateInstruction = "duplicate-instruction", Warning,
        "Two active rules carry the same instruction.",
        "Supersede the older one.",
        "The same rule twice wastes context, and a later edit to one copy leaves the other one behind.",
        "rules 3 and 12 both say \"Always use pnpm\"";
    SimilarRules = "similar-rules", Warning,
        "Two active rules say the same directive in the same words: case, punctuation, Markdown marks, the words that only affirm (\"Always\", \"Prefer\") and the reason set aside.",
        "Supersede one: learn the wording you keep again with `--supersedes` naming both rules.",
        "Every active rule costs context in every agent session; a rule stated twice costs twice, and the copies drift apart when only one is replaced.",
        "rule 3 \"Always use pnpm.\" and rule 12 \"Use **pnpm** - because of the lockfile.\"";
    ConflictingRules = "conflicting-rules", Warning,
        "Two active rules say the same words under opposite polarities (Always/Never, Prefer/Avoid, \"Use X\"/\"Do not use X\", \"Utilise X\"/\"N'utilise pas X\").",
        "Supersede one: learn the rule that holds again with `--supersedes` naming both rules.",
        "An agent reads both as hard constraints; only the precedence sentence (the higher number wins) settles them, and a reader may not apply it.",
        "rule 4 \"Use Axios for HTTP requests.\" and rule 9 \"Never use Axios for HTTP requests.\"";
    NearRules = "near-rules", Note,
        "Two active rules of the same scope come near each other by meaning (the sentence model compiled into autofix): the same rule in other words, or the same job done another way (\"Use npm …\" and \"Use pnpm …\"). The model finds them; only someone who knows the project can tell which.",
        "Settle the pair: if one replaces the other, learn the rule that holds with `--supersedes`; if one no longer holds, `autofix retire N`; if both hold, `autofix distinct A B --why …` records it and silences the note for good.",
        "An agent reads both as hard constraints; when they disagree it follows one at random, and when they agree the rule costs its context twice.",
        "rule 12 \"Use npm to install packages.\" comes near rule 3 \"Use pnpm to install packages.\" (cosine 0.95)";
    RulesOverBudget = "rules-over-budget", Warning,
        "The active rules exceed the smallest context budget among the enabled export targets and hooks (the Claude Code hook's 9,000 characters, Codex 32 KiB of `AGENTS.md`, Windsurf 12,000 characters a rule file).",
        "Supersede rules that repeat or no longer hold, so that the rules every agent reads fit.",
        "An agent reads only what fits: the oldest rules are cut from the hook and the export, or the target is refused, and the agent works without them.",
        "142 active rules take 14,210 characters; the session hook prints at most 9,000";
    MultipleSupersedes = "multiple-supersedes", Warning,
        "Two active rules supersede the same rule (often two branches replaced it independently).",
        "Keep one: learn a rule that supersedes both, or the one you do not want.",
        "Two rules that each claim to replace the same older rule may disagree, and an agent cannot tell which replacement is meant.",
        "rule 45 says \"supersedes rule 12\" and rule 46 says \"replaces rule 12\"";
    MergeDanglingReference = "merge-dangling-reference", Warning,
        "The merge driver took a rule from the other side that refers to a rule that side does not have, or that supersedes a rule the result does not have; the reference was left as written.",
        "Run `autofix check` on the result, and learn a rule that supersedes with the right number if the reference meant another rule.",
        "The reference does nothing in the merged file: the rule it meant to retire stays active.",
        "theirs' rule 5 refers to rule 9, which theirs does not have";
    InvalidGlob = "invalid-glob", Error,
        "A glob in a rule's `Paths` cannot be read (an unclosed `[`, a lone `\\`, a `..` segment, an empty pattern), or the scope only excludes (`!` globs alone).",
        "Learn a superseding rule whose `--path` globs are valid and include at least one path (`autofix learn --path 'src/api/**' …`).",
        "A glob that cannot be read matches nothing, so the rule is silently missing where its author meant it to apply.",
        "\"Paths\": [\"src/[api/**\"]    <- the class `[` is never closed";
    UnmatchedScope = "unmatched-scope", Warning,
        "A glob in a rule's `Paths` matches no file git tracks (`git ls-files`): it adds nothing, or the rule never applies.",
        "Correct the glob (globs are relative to the workspace root; one without `/` matches at any depth), or learn a superseding rule with the right scope.",
        "A scope that matches nothing keeps the rule out of every agent's context: usually a typo, or a folder that was renamed.",
        "\"Paths\": [\"scr/**\"]    <- no tracked file lies under scr/";
    StalePath = "stale-path", Warning,
        "An active rule's text names a path, file or glob (a code span such as `src/api/` or `package-lock.json`) that matches nothing in the repository (no file git tracks, nothing in the work tree, nothing git ignores), or a glob of its `Paths` that matched files in an earlier commit matches none now.",
        "Retire the rule if it no longer holds (`autofix retire N --why ...`), or learn a superseding rule that names the path as it is now.",
        "A rule about a folder that is gone is noise in every agent's context, and an agent may recreate the folder to obey it.",
        "rule 7 \"Always keep the handlers in `src/api/`\" after src/api/ was moved to src/routes/";
    InvalidCheck = "invalid-check", Error,
        "A rule's `Check` is not `{\"Forbid\": \"REGEX\"}` or `{\"Require\": \"REGEX\"}`, or its pattern is empty, longer than 1,024 bytes, not a valid regular expression (`regex` crate syntax) or compiles to more than 1 MiB.",
        "Learn a superseding rule with a valid check (`autofix learn --supersedes N --check 'console\\.log' …`); test the pattern with `autofix enforce --all-lines`.",
        "A check that cannot run enforces nothing: `enforce` and the pre-commit hook skip it, so the rule is back to being text the agent may not follow.",
        "\"Check\": {\"Forbid\": \"console.log(\"}    <- the group `(` is never closed; write console\\.log\\(";
    CheckMatchesExisting = "check-matches-existing", Warning,
        "`check --dry-run`: an active rule's `Forbid` check already matches lines of files the repository tracks in the rule's scope (the message names the first few).",
        "Fix those lines, or narrow the pattern or the rule's `Paths` (learn a superseding rule) if they are not breaks of it.",
        "`enforce` looks only at the lines a change adds, so old matches fail no commit; but `enforce --all-lines`, and an agent that rewrites the whole file, report them as breaks of the rule.",
        "rule 4 with {\"Forbid\": \"console\\\\.log\"}: src/app.ts:2 already has console.log(\"old\")";
    RuleBroken = "rule-broken", Error,
        "`enforce`: a line added in a file of a rule's scope matches the rule's `Forbid` pattern, or a changed file in scope lacks its `Require` pattern.",
        "Change the line so the rule holds (the message quotes the rule), or supersede the rule if it no longer holds.",
        "The rule is a correction the user already made once; caught here, it is fixed before the user has to make it again.",
        "rule 4 \"Never call `console.log` in src\" with {\"Forbid\": \"console\\\\.log\"}: src/app.ts:12 adds console.log(x)";
    InvalidField = "invalid-field", Error,
        "A field is missing or has the wrong type: in the rules file, a text that is not a string, a `Supersedes` that is not a list of numbers, a repeated key; in a preset, a command without `id`, a `skill` that is a list, a requirement without `type`/`name`, a `taskPresetId` that is not `^[a-z0-9][a-z0-9-]*$`.",
        "Give the field the type the format expects; bind one skill per command and declare several skills as separate requirements.",
        "A field of the wrong type is read as absent or refused, so the rule or command does not mean what its author wrote.",
        "\"skill\": [\"a\", \"b\"]    <- one command binds one skill; declare both in the requirements";
    MissingFile = "missing-file", Error,
        "A file the manifest or prompt package declares, or that the form requires (`commands.json` in a flat preset), is absent or not a file.",
        "Create the file, or correct the path in `manifest.json` / `prompts.json`.",
        "The preset cannot be loaded as declared: its commands, requirements or prompts would be missing at run time.",
        "\"ui\": {\"commands\": \"./frontend/commands.json\"} but frontend/commands.json does not exist";
    PathEscapesPreset = "path-escapes-preset", Error,
        "A declared path is absolute, climbs out with `..`, or is a link to a file outside the preset. The file is not read.",
        "Use a relative path inside the preset (`./frontend/commands.json`); copy instead of linking.",
        "A preset is untrusted input; a path that leaves its directory could make the tool read files it was never meant to see.",
        "\"backend\": {\"prompts\": \"../other/prompts.json\"}";
    DuplicateCommandId = "duplicate-command-id", Error,
        "Two commands in one preset share an `id`.",
        "Give every command a unique `id`.",
        "Commands are selected by id; with two of one id, the second can never be chosen and the first may be rendered by mistake.",
        "two commands with \"id\": \"review\"";
    UnknownCommandGroup = "unknown-command-group", Error,
        "A HagiTask command's `groupId` names no entry of `groups`.",
        "Add the group to `groups`, or correct the `groupId`.",
        "The task panel groups commands by `groupId`; a command in no declared group is not shown, or breaks the panel.",
        "\"groupId\": \"build\" with \"groups\": [{\"id\": \"discovery\", ...}]";
    CommandSkillNotInRequirements = "command-skill-not-in-requirements", Error,
        "A command is bound to a skill that no requirement declares; the whole preset is disabled.",
        "Add the skill to the requirements (`{\"type\": \"skills\", \"name\": \"S\"}`, or `{\"key\": \"S\"}` in a flat preset), or remove the command's `skill`.",
        "The requirements are the only gate that installs and probes skills; a command routed to an undeclared skill would fail when a user runs it, so the whole preset is disabled at load time, in CI, instead.",
        "commands.json: {\"id\": \"review\", \"skill\": \"ponytail-review\"}\ntask-preset.json: \"requirements\" lacks {\"type\": \"skills\", \"name\": \"ponytail-review\"}";
    PresetIdMismatch = "preset-id-mismatch", Error,
        "The manifest's `taskPresetId` differs from the directory name.",
        "Rename the directory or the `taskPresetId` so they match.",
        "Hosts find presets by directory and refer to them by id; when the two differ, links and catalogs point at the wrong preset.",
        "presets/last30days/manifest.json says \"taskPresetId\": \"last-30-days\"";
    DuplicatePresetId = "duplicate-preset-id", Error,
        "Two presets in one collection have the same id.",
        "Give each preset a unique `taskPresetId` and directory name.",
        "A collection is addressed by id; two presets with one id shadow each other.",
        "presets/a and presets/b both declare \"taskPresetId\": \"research\"";
    UnresolvedSchema = "unresolved-schema", Error,
        "A package file's `$schema` does not end in `schemas/task-preset-plugin/<name>.schema.json` with a published schema name, or is not a string.",
        "Point `$schema` at a published schema, such as `https://tasks.hagicode.com/schemas/task-preset-plugin/manifest.schema.json`.",
        "HagiCode's validator resolves `$schema` to check the file; a reference it cannot resolve fails `hagitask validate`, and editors lose completion.",
        "\"$schema\": \"https://tasks.hagicode.com/schemas/task-preset-plugin/manifests.schema.json\"    <- no such schema";
    DefaultLocaleNotSupported = "default-locale-not-supported", Error,
        "The manifest's `localization.defaultLocale` is not one of its `supportedLocales`.",
        "Add the default locale to `supportedLocales`, or choose a supported one as the default.",
        "The host falls back to the default locale; one the package does not support has no bundle, store page or templates to fall back to.",
        "\"defaultLocale\": \"fr-FR\", \"supportedLocales\": [\"en-US\", \"zh-CN\"]";
    MissingLocaleBundle = "missing-locale-bundle", Error,
        "A locale of `localization.supportedLocales` has no entry in `localization.bundles`.",
        "Add `\"<locale>\": \"./locales/<locale>.json\"` to `localization.bundles` and create the file.",
        "The panel's labels are looked up in the bundle of the user's locale; without one the panel shows raw keys.",
        "\"supportedLocales\": [\"en-US\", \"zh-CN\"], \"bundles\": {\"en-US\": \"./locales/en-US.json\"}";
    MissingStorePage = "missing-store-page", Error,
        "A supported locale has no `index.<locale>.md` in the `site.storePage` directory.",
        "Create `store-page/index.<locale>.md` with its frontmatter (`locale`, `slug`, `title`, `summary`, `status`).",
        "The task store publishes one page per supported locale; a missing page fails the catalog build.",
        "\"supportedLocales\": [\"en-US\", \"zh-CN\"] but store-page/ holds only index.en-US.md";
    InvalidStorePage = "invalid-store-page", Error,
        "A store page's YAML frontmatter is missing, lacks a required key, has an unknown key or a wrong value, its `slug` is not the task id, or its `locale` is not the file's (or not a supported) locale.",
        "Start the page with `---`, the keys `locale`, `slug`, `title`, `summary`, `status`, and `---`; make `slug` the task id and `locale` the file's locale.",
        "The task store builds its catalog from the frontmatter; a page that disagrees with its package lists the task under the wrong id or language.",
        "store-page/index.zh-CN.md:\n---\nlocale: en-US    <- the file is the zh-CN page\nslug: last30days\n...";
    UndeclaredPromptLocale = "undeclared-prompt-locale", Error,
        "The prompt package supports (or has templates for) a locale that the manifest's `localization.supportedLocales` does not declare.",
        "Declare the locale in the manifest, or remove it from the prompt package.",
        "The host offers only the manifest's locales; prompts for another locale are never used, and usually mean a typo in one of the two lists.",
        "prompts.json: \"supportedLocales\": [\"en-US\", \"ja-JP\"]; manifest.json: [\"en-US\"]";
    UnsupportedScopeSource = "unsupported-scope-source", Error,
        "A target selection's `scope.source` is not `owner-project-repositories`, `vault-registry` or `project-registry`.",
        "Use one of the three sources HagiCode can list targets from.",
        "The host fills a selection from its scope source; an unknown source leaves the picker empty, so the task cannot be started.",
        "\"scope\": {\"source\": \"github\"}";
    InvalidExecution = "invalid-execution", Error,
        "`execution` is not `schemaVersion` 1.x with `strategy` `declarative` or `extension`, or `extensionPoint` is missing for `extension`, present for `declarative`, or malformed.",
        "Write `{\"schemaVersion\": \"1.0\", \"strategy\": \"declarative\"}`, or `\"strategy\": \"extension\"` with an `extensionPoint` such as `tasks.review`.",
        "The host picks how to run the task from `execution`; a strategy it does not know, or an extension without its point, cannot run.",
        "\"execution\": {\"schemaVersion\": \"1.0\", \"strategy\": \"declarative\", \"extensionPoint\": \"x\"}";
    InvalidInputBinding = "invalid-input-binding", Error,
        "An input binding lists its own `input` (or one alias twice) among its `aliases`, uses `transform: url-list` without `valueType: url-list`, has neither `promptParameter` nor `metadataKey`, or an unknown key or value.",
        "Remove the input's own name from `aliases`; give a `url-list` transform the `url-list` value type; name where the value goes.",
        "Bindings map panel outputs to prompt parameters; a self-alias or a transform that disagrees with the value type makes the mapping ambiguous.",
        "{\"input\": \"links\", \"promptParameter\": \"links\", \"transform\": \"url-list\", \"valueType\": \"text\"}";
    InvalidRequirement = "invalid-requirement", Error,
        "A requirement carries a member its type forbids (`names` on `cli`; `command` or `names` on `skills`; `command` or `args` on `agent`), an agent that is not `any` or a known agent id, an agent named twice, both `name` and `names`, or an unknown key.",
        "Keep to the members of the type: `skills` {name}, `cli` {name, command?, args?}, `agent` {name: \"any\" or an agent id} or {names: [agent ids]}.",
        "The requirement check runs per type; a member the type does not use is ignored, so the gate checks something other than what its author meant.",
        "{\"type\": \"skills\", \"name\": \"ponytail\", \"command\": \"npx\"}    <- skills are probed by name only";
    DuplicateRequirement = "duplicate-requirement", Warning,
        "One cache key (`skill:S`, `cli:C`, `agent:A`) is declared twice.",
        "Delete the repeat; several commands bound to one skill need one requirement.",
        "Requirements are probed once per cache key; a repeat adds nothing but suggests a copy-paste mistake.",
        "{\"type\": \"skills\", \"name\": \"ponytail\"} declared twice";
    UnknownPlaceholder = "unknown-placeholder", Warning,
        "A template uses `{name}` that no panel field output, input binding, prompt input or `commandId` provides (checked only when the preset declares its inputs).",
        "Correct the spelling (the help suggests the nearest input), or declare the input.",
        "A placeholder no input provides is never filled: the agent receives the literal `{name}`.",
        "\"preludeTemplate\": \"/last30days {querry}\" with the input named \"query\"";
    SkillNotInstalled = "skill-not-installed", Error,
        "`preset requirements`: a skill the preset requires has no `SKILL.md` in any skills folder of this machine; the command exits 1.",
        "Install it with the command the output names (`npx skills add NAME -g -y`), or pass `--skills-dir` where it is.",
        "The commands bound to the skill fail when a user runs them.",
        "\"requirements\": [{\"type\": \"skills\", \"name\": \"ponytail\"}] with no ponytail/SKILL.md installed";
    CliNotFound = "cli-not-found", Warning,
        "`preset requirements`: a program the preset requires (a `cli` requirement) is not an executable on `PATH`.",
        "Install the program, or put it on `PATH`.",
        "The preset's commands that run it fail on this machine.",
        "{\"type\": \"cli\", \"name\": \"gh\"} with no gh on PATH";
    MissingValue = "missing-value", Note,
        "`preset render`: a rendered command has a placeholder no `--set NAME=VALUE` gives, so it is left as written (`--strict` makes this an error).",
        "Give the value with `--set NAME=VALUE`, or pass `--strict` to fail instead.",
        "The agent receives the literal `{name}` and has to guess what was meant.",
        "preset render studio without --set audience=..., while `summarize` uses {audience}";
    NoPresetsFound = "no-presets-found", Note,
        "`preset` commands: no path was given and neither default collection folder under the workspace holds a preset.",
        "Name the preset folders on the command line, or put presets in one of the default folders.",
        "Nothing is validated or rendered, which in CI looks like success.",
        "preset validate, in a repository with no presets/ and no .hagicode/presets/";
    CommandWithoutLine = "command-without-line", Note,
        "`preset render`: a selected command has neither a skill nor a prelude template, so it renders no line and is left out.",
        "Bind the command to a skill, give it a `preludeTemplate`, or do not select it.",
        "The command is silently missing from what the agent runs.",
        "{\"id\": \"tidy\"}    <- no skill, no preludeTemplate";
    UnusedValue = "unused-value", Warning,
        "`preset render --set NAME=VALUE`: no rendered command has the placeholder `{NAME}`, so the value is unused.",
        "Correct the name (the message suggests the nearest placeholder), or drop the `--set`.",
        "A misspelt name leaves the placeholder it meant unfilled, and nothing else says so.",
        "--set studioBrif=x while the template says {studioBrief}";
    ExportMalformedMarkers = "export-malformed-markers", Error,
        "An exported file holds autofix's markers in a way that cannot be trusted: a BEGIN without an END, two blocks, or an END before its BEGIN.",
        "Repair the markers by hand (one `<!-- BEGIN:autofix-rules -->` line, then one `<!-- END:autofix-rules -->` line), then run `autofix export`.",
        "Writing between markers that may not be autofix's could overwrite the people's text; the file is left as it is until the markers are clear.",
        "<!-- BEGIN:autofix-rules -->  with no END line below it";
    ExportUnowned = "export-unowned", Error,
        "A file exists where autofix writes a file of its own, without autofix's `autofix:owned` stamp.",
        "Move the file away (or merge its text into another file), then run `autofix export`; or export to another target.",
        "A file without the stamp is someone's own text: autofix never overwrites it.",
        ".claude/rules/autofix.md written by hand";
    ExportForeignGenerator = "export-foreign-generator", Error,
        "The target file says another tool generates it (Ruler, rulesync, memories.sh and the like).",
        "Let that tool carry the rules (autofix exports to its source folder), or stop generating the file with it.",
        "The other tool would overwrite autofix's text on its next run, and the two would fight over the file.",
        "AGENTS.md starting with <!-- Generated by Ruler -->";
    ExportOutsideRepository = "export-outside-repository", Error,
        "The target's real path (after following links) leads outside the repository.",
        "Replace the link with a file inside the repository, or remove it.",
        "A committed link must not make autofix write to a file elsewhere on the machine.",
        "AGENTS.md -> /home/me/notes.md";
    ExportProtected = "export-protected", Error,
        "The target's real path is inside `.git/`, or is the rules file or its lock.",
        "Replace the link with a regular file.",
        "Writing there would corrupt the repository or the rules themselves.",
        "AGENTS.md -> .git/config";
    ExportChanged = "export-changed", Error,
        "Another program kept changing the target while autofix was writing it.",
        "Run `autofix export` again once the editor or tool has saved.",
        "Writing over a file saved in the meantime would lose that save.",
        "an editor saving AGENTS.md during the export";
    ExportOverBudget = "export-over-budget", Error,
        "The rules would make the target larger than its agent reads (Codex's 32 KiB of AGENTS.md, Windsurf's 12,000 characters a rule file).",
        "Supersede rules that repeat or no longer hold, or pass `--truncate` to drop the oldest rules from that target.",
        "An agent cuts what is over its budget silently: the newest rules could be the ones it never sees.",
        "2,000 rules exported to .windsurf/rules/autofix.md";
    ExportUnreadable = "export-unreadable", Error,
        "The target is not a readable UTF-8 regular file, or is a dangling link.",
        "Make the file a readable UTF-8 text file, or remove it.",
        "autofix edits only text it can read back exactly.",
        "AGENTS.md saved as UTF-16";
    ExportUnwritable = "export-unwritable", Error,
        "The target is read-only, or writing it failed.",
        "Make the file (and its folder) writable, then run `autofix export` again.",
        "The exported copy stays stale until it can be written.",
        "chmod 444 AGENTS.md";
    ExportOutOfSync = "export-out-of-sync", Error,
        "`export --check`: an exported copy is missing, stale or orphaned: it is not what `autofix export` would write from the rules now.",
        "Run `autofix export` (or `autofix export --remove`), then commit the result.",
        "Agents read the exported copy, not the rules file: a stale copy gives them the rules as they were.",
        "rule 12 learned with `--no-export`: `export --check` says AGENTS.md is stale";
    ExportReadTwice = "export-read-twice", Warning,
        "One agent reads the rules from two exported targets (Cursor reads both `AGENTS.md` and `.cursor/rules/`).",
        "Keep one of the two: `autofix export --remove --target ID` for the other.",
        "Every rule then costs that agent's context twice, and the two copies disagree whenever one is stale.",
        "targets agents-md and cursor both exported: Cursor reads the rules twice";
    HandwrittenDuplicate = "handwritten-duplicate", Warning,
        "An active rule is also written by hand in a rule file an agent reads besides autofix's copy (a line of `CLAUDE.md`, `AGENTS.md`, `.cursor/rules/*.mdc`, …), so the rule reaches that agent's model twice.",
        "Take the line out of the hand-written file: `autofix import --write --move` moves every such line into autofix, or delete it by hand (or retire the rule).",
        "Every rule stated twice costs that agent's context twice, and when one copy changes (a superseding rule, an edit by hand) the model reads two versions that disagree.",
        "rule 4 \"Always use pnpm\" and CLAUDE.md:12 \"- Always use pnpm to install packages.\": Claude Code reads both";
    ExportNameCase = "export-name-case", Warning,
        "A block target's file exists under another letter case (`agents.md` for `AGENTS.md`): autofix wrote its block there instead of creating a second file beside it, but an agent looking for the exact name on a case-sensitive file system does not read it.",
        "Rename the file to the name the agents look for (`git mv agents.md AGENTS.md`).",
        "Two files differing only in case cannot both be checked out on macOS or Windows; one file under the wrong case is read only where the file system ignores case.",
        "agents.md exists: the agents-md block goes there, and Codex on Linux reads only AGENTS.md";
    ExportIgnored = "export-ignored", Warning,
        "An exported file is ignored by git, so other clones do not get it (autofix never edits `.gitignore`).",
        "Remove the pattern that ignores it from `.gitignore` (or add a `!path` line), or export to a target git tracks.",
        "The copy reaches only this clone's agents: teammates' and CI's agents work without the rules.",
        ".gitignore lists `.cursor/`, and the cursor target writes .cursor/rules/autofix.mdc";
    ExportNotCovered = "export-not-covered", Warning,
        "After writing, the exported copies could not all be given the export merge driver in `.gitattributes`.",
        "Run `autofix merge-driver --install`, then commit `.gitattributes`.",
        "Without the driver, two branches that each learned a rule conflict in every exported copy.",
        ".gitattributes is read-only when `autofix export` writes a new scoped file";
    ExportNotRefreshed = "export-not-refreshed", Warning,
        "`learn` saved the rule, but an exported copy could not be refreshed (the target was refused, or the export could not run).",
        "Fix what the message names, then run `autofix export`.",
        "The rule is in the rules file, but the agents that read that copy do not see it until it is exported.",
        "the rule is saved, but AGENTS.md was not refreshed: its markers are malformed";
    PeerConfigInvalid = "peer-config-invalid", Warning,
        "A rule-sync tool's config (`rulesync.jsonc`, `rulesync.local.jsonc`) cannot be read; autofix assumed the tool's defaults for the files it generates.",
        "Fix the file so that it is a JSON object (comments are allowed).",
        "autofix leaves the files the tool generates alone; with a config it cannot read it may guess those files wrong, and the tool itself refuses the file.",
        "rulesync.jsonc: {\"targets\": [\"agentsmd\",}    <- not valid JSON with comments";
    UnreadableRules = "unreadable-rules", Warning,
        "Some active rules cannot be read as written (no instruction, a field of the wrong type): listings, hooks and exports leave them out or show them broken, and the command exits 1.",
        "Run `autofix check`, then supersede or retire the broken rules.",
        "Agents would get those rules broken or not at all, while the rules file says they hold.",
        "{\"Rule_number\": 4, \"Category\": \"CODE\", \"Instruction\": 7, \"Why\": \"w\"}    <- the instruction is a number";
    NotFlushed = "not-flushed", Warning,
        "A file was replaced, but its folder could not be flushed to disk: the new content is in place, yet a crash right now could bring the old file back.",
        "Nothing to redo; if it repeats, check the disk or the file system (some network file systems refuse to flush folders).",
        "The write succeeded as far as every program can see; only its durability across a power loss is unsure.",
        "the rule is saved, but its folder could not be flushed to disk";
    SourceManifestInvalid = "source-manifest-invalid", Error,
        "The sources manifest (`autofix.sources.json`) or lock (`autofix.sources.lock.json`) is not valid: bad JSON, an unknown field, an unsafe URL or ref.",
        "Fix the file at the reported place; `autofix sources add` writes both files correctly.",
        "No imported rule can be trusted until both files read: every listing leaves all sources out.",
        "{\"version\": 1, \"sources\": [{\"name\": \"org\", \"url\": \"ext::sh -c x\", ...}]}";
    SourceNotLocked = "source-not-locked", Error,
        "A source in the manifest has no pin in the lock.",
        "Run `autofix sources update NAME` and commit the lock and the vendored copy.",
        "Without a pin, what the source means depends on when and where it is fetched; autofix lists only pinned sources.",
        "a manifest entry added by hand, without `sources add`";
    SourceLockStale = "source-lock-stale", Error,
        "The lock pins another URL, ref or path than the manifest asks for, or pins a source the manifest no longer names.",
        "Run `autofix sources update NAME` (or `autofix sources remove NAME` for a pin left behind).",
        "The rules in use are not the ones the manifest, which reviewers read, says.",
        "the manifest's ref moved from `main` to `v2`, the lock still pins `main`";
    SourceCopyMissing = "source-copy-missing", Error,
        "A pinned source has no vendored copy (`sources/NAME.json` beside the rules file).",
        "Restore it from git, or run `autofix sources update NAME`.",
        "Clones, CI and offline runs read imported rules only from the copy; without it the source's rules reach no agent.",
        "sources/org.json deleted, or never committed";
    SourceTampered = "source-tampered", Error,
        "A vendored copy does not match the SHA-256 (or the rule count) its pin records.",
        "Restore the copy from git; imported rules change only through `autofix sources update`, which shows the rule-level diff.",
        "An edit there would change what every agent reads without anyone reviewing a source update; the copy is left out until it matches.",
        "sources/org.json edited by hand after `sources update`";
    DanglingSourceRule = "dangling-source-rule", Error,
        "A local rule supersedes `name:N`, but no source has that name or the source holds no rule N.",
        "Reference a rule an imported source holds (`autofix rules --all` lists them), or add the source.",
        "The reference does nothing: the imported rule it meant to retire stays active.",
        "\"Why\": \"user preference (supersedes org:99)\" while org has rules 1-12";
    SourceLockedRule = "source-locked-rule", Error,
        "A local rule supersedes an imported rule its source locks (`\"Locked\": true`), without an override in the manifest; the locked rule stays active.",
        "Add `\"org:N\": \"reason\"` to the manifest's `overrides` (reviewed like code), or supersede the local rule.",
        "A locked rule is one the organisation requires everywhere; overriding it must be a reviewed decision, not a side effect of a learned rule.",
        "rule 7 says \"supersedes org:4\", and org:4 is locked";
    SourceOverride = "source-override", Warning,
        "A local rule overrides a locked imported rule, as a manifest override allows.",
        "Nothing, while the override holds; remove it from `overrides` to restore the rule.",
        "Said on every check so the exception stays visible to everyone who reads the output.",
        "\"overrides\": {\"org:4\": \"this service is exempt\"}";
    SourceOverrideUnused = "source-override-unused", Warning,
        "An entry of the manifest's `overrides` names no locked rule of an imported source (the source unlocked or dropped it, or a typo).",
        "Remove the entry from `overrides`.",
        "A stale exception reads as a decision someone made; left in place it would silently admit an override if the rule is locked again.",
        "\"overrides\": {\"org:4\": \"...\"} while org:4 is not locked";
    LayerConflict = "layer-conflict", Warning,
        "An active local rule and an active imported rule (or rules of two sources) contradict each other, and no supersede settles which holds.",
        "Learn a local rule with `--supersedes` naming the one that no longer holds (`--supersedes org:12`).",
        "Agents read every layer; the listing says local rules come first, but an explicit supersede makes every reader resolve it alike.",
        "local rule 3 \"Use tabs.\" and org:2 \"Never use tabs.\"";
    ConflictingPrelude = "conflicting-prelude", Warning,
        "A command bound to S has a template that starts with another slash command `/T`, so it renders as `/S /T …`.",
        "Bind the command to `T`, or drop `/T` from the template.",
        "The line becomes `/S /T ...`: the agent runs skill S with a stray slash command in its argument.",
        "\"skill\": \"ponytail\", \"preludeTemplate\": \"/impeccable {q}\"";
    InitRefused = "init-refused", Error,
        "`init` left a file unchanged because it is not safe to edit: a link out of the repository or into `.git/`, not a regular UTF-8 file, an agent's settings it cannot read as JSON, or a file another program kept changing.",
        "Fix what the message names (replace the link, repair the settings' JSON), then run `autofix init` again.",
        "`init` never overwrites what it cannot read back exactly: the agent that file sets up gets no hook or command until it is fixed.",
        ".claude/settings.json: not valid JSON (expected `,` at line 4)";
    InitFailed = "init-failed", Error,
        "`init` could not write a file (read-only, a full disk, a folder it cannot create).",
        "Make the file and its folder writable, then run `autofix init` again.",
        "The part of the setup that file holds is missing until it is written.",
        "chmod 555 .claude";
    GitUnavailable = "git-unavailable", Error,
        "`doctor`: git cannot run, or the folder is not inside a git work tree.",
        "Install git, and run autofix inside the repository (or `git init` it).",
        "The merge drivers, the attributes and the conflict checks all live in git; without it none of them can be set up or checked.",
        "autofix doctor in a folder that is not a repository";
    MergeDriverMissing = "merge-driver-missing", Error,
        "`doctor`: `merge.autofix.driver` is not set in git's config, is set without its name, or is not autofix's driver.",
        "Run `autofix merge-driver --install` (the config is per clone, so every clone runs it once; `autofix init` does).",
        "Without the driver git merges the rules file as text: two branches that each learned a rule conflict every time.",
        "a fresh clone: .gitattributes says merge=autofix, but this clone's config has no driver";
    MergeAttributeMissing = "merge-attribute-missing", Error,
        "`doctor`: the rules file has no `merge=autofix` attribute, or lies outside the work tree.",
        "Run `autofix merge-driver --install`, then commit `.gitattributes`.",
        "The driver runs only for the files the attribute names: without it the rules file merges as text.",
        ".gitattributes lacks `.agents/autofix.json merge=autofix`";
    ExportDriverMissing = "export-driver-missing", Error,
        "`doctor`: the exported copies do not merge with `merge=autofix-export`: the driver is not configured, or a copy lacks the attribute.",
        "Run `autofix merge-driver --install`, then commit `.gitattributes`.",
        "Two branches that each exported rules conflict in every copy; with the driver the copies merge and `autofix export` regenerates them.",
        "AGENTS.md has no merge=autofix-export attribute";
    SourcesDriverMissing = "sources-driver-missing", Error,
        "`doctor`: the sources lock does not merge with its own driver: the driver is not configured, or the lock lacks the attribute.",
        "Run `autofix sources merge-driver --install`, then commit `.gitattributes`.",
        "Two branches that each updated a source conflict in the lock as text; the driver merges pins that descend from one another.",
        "autofix.sources.lock.json without merge=autofix-sources";
    SourceMergeRefused = "source-merge-refused", Warning,
        "The sources merge driver could not merge the lock or a vendored copy by their rules (a pin that does not descend from the other, a copy that does not match its pin), so it merged them as text and left the conflict for a person.",
        "Resolve the conflict by hand, or take one side and run `autofix sources update NAME` to pin again; `autofix check` verifies the result.",
        "A lock merged line by line can pin a commit whose copy is not the one vendored; the driver refuses to guess.",
        "two branches pinning `org` to commits that share no history (a force-push)";
    DriverProgramMissing = "driver-program-missing", Error,
        "`doctor`: the program git runs as the merge driver is not an executable on `PATH`.",
        "Put autofix on `PATH` (from a clone of autofix: `cargo install --locked --path .`).",
        "git cannot start the driver, so every merge of the rules file fails instead of merging.",
        "merge.autofix.driver = `autofix merge-driver %O %A %B ...` with no autofix on PATH";
    RulesFileConflicted = "rules-file-conflicted", Error,
        "`doctor`: the rules file has an unresolved merge conflict, or is resolved but not staged, so git still lists it as conflicted.",
        "Run `autofix resolve`, review the result, then `git add` the rules file.",
        "A file with conflict markers is not valid JSON: every agent that loads it, and `learn`, fails until it is resolved.",
        "<<<<<<< ours inside .agents/autofix.json after a text merge";
    RulesFileInvalid = "rules-file-invalid", Error,
        "`doctor`: the rules file has errors (`autofix check` lists them), or cannot be read.",
        "Run `autofix check` and fix what it reports (`autofix resolve` for leftover conflict markers).",
        "The merge driver refuses a rules file it cannot read, and falls back to a text merge.",
        "a rules file with two rules numbered 44";
    RepositoryUntrusted = "repository-untrusted", Error,
        "`doctor`: an agent whose hooks are installed here does not trust this repository yet (as far as its own files show), so its autofix hooks do not run.",
        "Trust the folder in the agent (the message says how: open it and accept the prompt, or the agent's trust command).",
        "Untrusted, the agent skips the repository's hooks: no rules at session start, no /learn reminder.",
        "Codex without `[projects.\"/repo\"] trust_level = \"trusted\"` in ~/.codex/config.toml";
}

/// A code serialises as its name (`"export-unowned"`).
impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// A 1-based line and column (columns count characters). Column 0: the line is known, the
/// column is not (an export refusal names a line of the target). Kept as `u32` (a line or
/// column past 4 billion is read as the last): a report of 100k findings holds 100k of
/// them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub(crate) struct Position {
    pub line: u32,
    pub column: u32,
}

impl Position {
    pub(crate) fn new(line: usize, column: usize) -> Position {
        let narrow = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        Position {
            line: narrow(line),
            column: narrow(column),
        }
    }
}

/// One finding: what, where, and how to fix it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Diagnostic {
    pub code: Code,
    /// Boxed, as `pointer`: many findings are kept at once, and a box holds no spare room.
    pub message: Box<str>,
    /// Shared: the findings of one file name it once.
    pub file: Option<Arc<Path>>,
    /// A JSON pointer into the file (`/commands/3/skill`); empty for the whole document.
    pub pointer: Box<str>,
    pub position: Option<Position>,
    /// Most helps are fixed text, kept without a copy.
    pub help: Option<Cow<'static, str>>,
    /// Found in a superseded rule: reported as a note (see [`Diagnostic::in_history`]).
    pub history: bool,
}

impl Diagnostic {
    pub(crate) fn new(code: Code, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            message: message.into().into_boxed_str(),
            file: None,
            pointer: Box::default(),
            position: None,
            help: None,
            history: false,
        }
    }

    pub(crate) fn in_file(self, file: impl AsRef<Path>) -> Self {
        self.in_shared_file(Arc::from(file.as_ref()))
    }

    /// [`Diagnostic::in_file`], the name shared with the file's other findings.
    pub(crate) fn in_shared_file(mut self, file: Arc<Path>) -> Self {
        self.file = Some(file);
        self
    }

    pub(crate) fn at(mut self, pointer: impl Into<String>, position: Option<Position>) -> Self {
        self.pointer = pointer.into().into_boxed_str();
        self.position = position;
        self
    }

    pub(crate) fn with_help(mut self, help: impl Into<Cow<'static, str>>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub(crate) fn severity(&self) -> Severity {
        if self.history {
            Severity::Note
        } else {
            self.code.severity()
        }
    }

    /// Marks a problem of a superseded rule: history, reported as a note. Rules are never
    /// edited, so superseding a defective rule is its fix.
    pub(crate) fn in_history(mut self) -> Self {
        self.history = true;
        self
    }

    pub(crate) fn is_error(&self) -> bool {
        self.severity() == Severity::Error
    }

    fn sort_key(&self) -> (&Option<Arc<Path>>, Option<Position>, &str, Code) {
        (&self.file, self.position, &self.pointer, self.code)
    }
}

/// Puts diagnostics in a stable order: by file, then position, pointer and code.
pub(crate) fn sort(diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
}

/// Error, warning and note counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub(crate) struct Counts {
    pub errors: usize,
    pub warnings: usize,
    pub notes: usize,
}

impl Counts {
    pub(crate) fn of<'a>(diagnostics: impl IntoIterator<Item = &'a Diagnostic>) -> Counts {
        let mut counts = Counts::default();
        for diagnostic in diagnostics {
            match diagnostic.severity() {
                Severity::Error => counts.errors += 1,
                Severity::Warning => counts.warnings += 1,
                Severity::Note => counts.notes += 1,
            }
        }
        counts
    }
}

/// The compiler-like human form:
///
/// ```text
/// error[code]: message
///   --> file:line:col (/pointer)
///   = help: ...
/// ```
pub(crate) fn render_text(out: &mut String, diagnostic: &Diagnostic, painter: Painter) {
    let severity = diagnostic.severity();
    let label = match severity {
        Severity::Error => painter.error(severity.as_str()),
        Severity::Warning => painter.warning(severity.as_str()),
        Severity::Note => painter.dim(severity.as_str()),
    };
    let _ = writeln!(
        out,
        "{label}{}",
        painter.bold(&format!(
            "[{}]: {}",
            diagnostic.code.as_str(),
            shown(&diagnostic.message)
        ))
    );
    if let Some(file) = &diagnostic.file {
        let mut location = shown(&file.display().to_string()).into_owned();
        if let Some(position) = diagnostic.position {
            let _ = write!(location, ":{}", position.line);
            if position.column > 0 {
                let _ = write!(location, ":{}", position.column);
            }
        }
        if !diagnostic.pointer.is_empty() {
            let _ = write!(location, " ({})", shown(&diagnostic.pointer));
        }
        let _ = writeln!(out, "  {} {location}", painter.dim("-->"));
    }
    if let Some(help) = &diagnostic.help {
        let _ = writeln!(out, "  {} {}", painter.dim("= help:"), shown(help));
    }
}

/// One GitHub Actions workflow command per diagnostic.
pub(crate) fn render_github(out: &mut String, diagnostic: &Diagnostic) {
    // GitHub's workflow commands are `error`, `warning` and `notice`.
    let command = match diagnostic.severity() {
        Severity::Note => "notice",
        severity => severity.as_str(),
    };
    let _ = write!(out, "::{command}");
    let mut properties = Vec::new();
    if let Some(file) = &diagnostic.file {
        properties.push(format!(
            "file={}",
            escape_property(&shown(&file.display().to_string()))
        ));
        if let Some(position) = diagnostic.position {
            properties.push(format!("line={}", position.line));
            if position.column > 0 {
                properties.push(format!("col={}", position.column));
            }
        }
    }
    properties.push(format!("title={}", diagnostic.code.as_str()));
    let _ = write!(out, " {}", properties.join(","));
    // Shown first, so the only line break is the one before the help.
    let mut message = shown(&diagnostic.message).into_owned();
    if let Some(help) = &diagnostic.help {
        message.push_str("\nhelp: ");
        message.push_str(&shown(help));
    }
    let _ = writeln!(out, "::{}", escape_data(&message));
}

/// Every diagnostic as text, written to `out` one at a time (a report of many findings
/// need not be held whole).
pub(crate) fn write_text(
    out: &mut dyn std::io::Write,
    diagnostics: &[Diagnostic],
    painter: Painter,
) -> std::io::Result<()> {
    let mut finding = String::new();
    for diagnostic in diagnostics {
        finding.clear();
        render_text(&mut finding, diagnostic, painter);
        out.write_all(finding.as_bytes())?;
    }
    Ok(())
}

/// Every diagnostic in the text form, in order: the one text renderer of findings.
pub(crate) fn text_of(diagnostics: &[Diagnostic], painter: Painter) -> String {
    let mut out = String::new();
    for diagnostic in diagnostics {
        render_text(&mut out, diagnostic, painter);
    }
    out
}

/// Every diagnostic as a GitHub workflow command: the one GitHub renderer of findings.
pub(crate) fn github_of(diagnostics: &[Diagnostic]) -> String {
    let mut out = String::new();
    for diagnostic in diagnostics {
        render_github(&mut out, diagnostic);
    }
    out
}

/// Every diagnostic in its JSON shape: the one JSON renderer of findings.
pub(crate) fn json_of(diagnostics: &[Diagnostic]) -> Vec<DiagnosticJson<'_>> {
    diagnostics.iter().map(DiagnosticJson::from).collect()
}

/// Findings as a JSON array, each made in its JSON shape as it is serialised: a document
/// written as it is made holds no copy of them.
pub(crate) struct JsonFindings<'a>(pub &'a [Diagnostic]);

impl serde::Serialize for JsonFindings<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(DiagnosticJson::from))
    }
}

/// GitHub's escaping of a workflow command's message (actions/toolkit `command.ts`).
fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// GitHub's escaping of a workflow command's property value (`file=...`).
fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// The diagnostics page's table row for `code`: `| code | severity | meaning | fix |`.
#[cfg(test)]
fn table_row(code: Code) -> String {
    format!(
        "| `{}` | {} | {} | {} |",
        code.as_str(),
        code.severity().as_str(),
        code.summary(),
        code.fix()
    )
}

/// The JSON shape of one diagnostic, shared by every `--format json` document.
#[derive(Serialize)]
pub(crate) struct DiagnosticJson<'a> {
    pub code: &'static str,
    pub severity: Severity,
    pub message: Cow<'a, str>,
    pub file: Option<String>,
    pub pointer: Cow<'a, str>,
    pub line: Option<u32>,
    /// `null` also when only the line is known.
    pub column: Option<u32>,
    pub help: Option<Cow<'a, str>>,
}

impl<'a> From<&'a Diagnostic> for DiagnosticJson<'a> {
    fn from(diagnostic: &'a Diagnostic) -> Self {
        DiagnosticJson {
            code: diagnostic.code.as_str(),
            severity: diagnostic.severity(),
            message: Cow::Borrowed(&diagnostic.message),
            file: diagnostic.file.as_ref().map(|f| f.display().to_string()),
            pointer: Cow::Borrowed(&diagnostic.pointer),
            line: diagnostic.position.map(|p| p.line),
            column: diagnostic.position.map(|p| p.column).filter(|&c| c > 0),
            help: diagnostic.help.as_deref().map(Cow::Borrowed),
        }
    }
}

impl DiagnosticJson<'static> {
    /// The shape of a diagnostic made only for the document (an export target's finding).
    pub(crate) fn owned(diagnostic: Diagnostic) -> Self {
        let severity = diagnostic.severity();
        DiagnosticJson {
            code: diagnostic.code.as_str(),
            severity,
            file: diagnostic.file.as_ref().map(|f| f.display().to_string()),
            line: diagnostic.position.map(|p| p.line),
            column: diagnostic.position.map(|p| p.column).filter(|&c| c > 0),
            message: Cow::Owned(diagnostic.message.into_string()),
            pointer: Cow::Owned(diagnostic.pointer.into_string()),
            help: diagnostic.help,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A report of 100k findings holds 100k of these (see `src/docs/performance.md`).
    #[test]
    fn a_finding_stays_small() {
        assert!(std::mem::size_of::<Diagnostic>() <= 88);
        assert_eq!(
            Position::new(usize::MAX, 3),
            Position {
                line: u32::MAX,
                column: 3
            }
        );
    }

    #[test]
    fn codes_are_unique_kebab_case() {
        let mut seen = std::collections::HashSet::new();
        for code in Code::ALL {
            let name = code.as_str();
            assert!(seen.insert(name), "duplicate code {name}");
            assert!(
                name.split('-')
                    .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_lowercase())),
                "{name} is not kebab-case"
            );
            assert_eq!(Code::from_name(name), Some(*code));
        }
    }

    #[test]
    fn the_diagnostics_page_table_is_the_code_table() {
        let readme = include_str!("../docs/diagnostics.md");
        for code in Code::ALL {
            let row = table_row(*code);
            assert!(
                readme.contains(&row),
                "src/docs/diagnostics.md lacks the row\n{row}"
            );
        }
    }

    #[test]
    fn every_code_says_what_why_how_and_shows_an_example() {
        for code in Code::ALL {
            let name = code.as_str();
            for (part, text) in [
                ("summary", code.summary()),
                ("why", code.why()),
                ("fix", code.fix()),
            ] {
                assert!(
                    text.ends_with('.') || text.ends_with(".)") || text.ends_with('`'),
                    "{name}: the {part} is not a sentence: {text}"
                );
            }
            assert!(!code.example().trim().is_empty(), "{name} has no example");
        }
    }

    #[test]
    fn the_diagnostics_page_table_has_no_other_rows() {
        let readme = include_str!("../docs/diagnostics.md");
        let rows = readme.lines().filter(|l| l.starts_with("| `")).count();
        assert_eq!(
            rows,
            Code::ALL.len(),
            "src/docs/diagnostics.md has rows for unknown codes"
        );
    }

    #[test]
    fn a_line_without_a_column() {
        let diagnostic = Diagnostic::new(Code::ExportUnowned, "AGENTS.md")
            .in_file("AGENTS.md")
            .at("", Some(Position { line: 4, column: 0 }));
        let mut out = String::new();
        render_github(&mut out, &diagnostic);
        assert_eq!(
            out,
            "::error file=AGENTS.md,line=4,title=export-unowned::AGENTS.md\n"
        );
        let text = text_of(&[diagnostic], Painter::new(false));
        assert!(text.contains("--> AGENTS.md:4\n"), "{text}");
    }

    #[test]
    fn github_escapes_newlines_and_properties() {
        let diagnostic = Diagnostic::new(Code::InvalidJson, "bad\nthing 100%")
            .in_file("a,b:c.json")
            .at("", Some(Position { line: 2, column: 3 }));
        let mut out = String::new();
        render_github(&mut out, &diagnostic);
        assert_eq!(
            out,
            "::error file=a%2Cb%3Ac.json,line=2,col=3,title=invalid-json::bad thing 100%25\n"
        );
    }
}
