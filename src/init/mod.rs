//! `autofix init`: sets a repository up in one non-interactive, idempotent run. Each step
//! is a function from the [`Setup`] to the [`Step`]s it reports; [`STEPS`] lists them in
//! order, so adding one is one line. Every file goes through `Setup::put`: planned, checked for ownership, written atomically only when its
//! bytes change, refused (and left byte-identical) when it is not ours.

pub(crate) mod command;
pub(crate) mod precommit;
pub(crate) mod settings;
pub(crate) mod skill;
pub(crate) mod trust;

use std::fs;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::export::hook::Agent;
use crate::export::peers::{Peers, Tool};
use crate::export::{self, Mode, markdown, owned};
use crate::io::atomic;
use crate::io::git::{self, Git, Scope};
use crate::io::merge_setup;
use crate::io::safe_write::{self, Fence};
use crate::report::text::counted;
use crate::rules;
use command::CommandAgent;

/// One `init` run.
#[derive(Clone, Debug)]
pub(crate) struct Request {
    pub root: PathBuf,
    pub rules_file: PathBuf,
    /// Agents to add the session-start (and prompt-submit) hooks for.
    pub hooks: Vec<Agent>,
    /// Claude Code's hook in `settings.local.json` instead of `settings.json`.
    pub local: bool,
    /// Agents to install the `/learn` command for, besides those set up in the repository.
    pub commands: Vec<CommandAgent>,
    /// Also run `export` with its default targets.
    pub export: bool,
    pub mode: Mode,
}

/// What a step did (or would do) to one path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Action {
    Created,
    Updated,
    /// Already as it should be.
    Unchanged,
    /// Not ours, or not valid: left byte-identical (exit 1).
    Refused,
    /// Not done in this build or this run.
    Skipped,
    /// Something to know; nothing was changed.
    Note,
    /// The write failed (exit 2).
    Failed,
}

/// One line of the report.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Step {
    /// `rules file`, `skill`, `hook claude`, `merge driver`, `note`.
    pub step: String,
    /// Relative to the root.
    pub path: Option<String>,
    pub action: Action,
    pub line: Option<usize>,
    pub message: Option<String>,
}

impl Step {
    fn new(step: impl Into<String>, path: Option<&str>, action: Action) -> Step {
        Step {
            step: step.into(),
            path: path.map(str::to_string),
            action,
            line: None,
            message: None,
        }
    }

    fn with_message(mut self, message: impl Into<String>) -> Step {
        self.message = Some(message.into());
        self
    }
}

/// The result of a run.
#[derive(Clone, Debug)]
pub(crate) struct Report {
    pub mode: Mode,
    pub steps: Vec<Step>,
    /// The export's own report, with `--export`.
    pub export: Option<export::Report>,
    pub next_steps: Vec<String>,
}

/// A report as `init` shows it as text: its merge-driver steps folded into one line
/// unless `verbose`.
pub(crate) struct Shown<'a> {
    pub report: &'a Report,
    pub verbose: bool,
}

impl Report {
    /// 2 when a write failed, 1 on a refusal (with `--check`: on any change), else 0.
    pub(crate) fn exit_code(&self) -> u8 {
        let export = self.export.as_ref().map_or(0, export::Report::exit_code);
        let any = |action: Action| self.steps.iter().any(|s| s.action == action);
        let own = if any(Action::Failed) {
            2
        } else if any(Action::Refused)
            || (self.mode == Mode::Check && (any(Action::Created) || any(Action::Updated)))
        {
            1
        } else {
            0
        };
        own.max(export)
    }

    /// Whether the run changed (or would change) nothing.
    pub(crate) fn is_noop(&self) -> bool {
        self.steps
            .iter()
            .all(|s| !matches!(s.action, Action::Created | Action::Updated))
            && self
                .export
                .as_ref()
                .is_none_or(|e| e.outcomes.iter().all(|o| !o.status.is_change()))
    }
}

/// What the steps share.
pub(crate) struct Setup<'a> {
    pub request: &'a Request,
    /// The canonical root.
    pub root: PathBuf,
    /// The rules file, relative to the root.
    pub rules_shown: String,
    /// Where `init` may write: inside the repository, never `.git/` or the rules file.
    fence: Fence,
}

/// The steps, in order. To add one, write `fn(&Setup) -> Vec<Step>` and list it here.
const STEPS: &[fn(&Setup<'_>) -> Vec<Step>] = &[
    rules_file,
    skills,
    old_skills,
    learn_commands,
    hooks,
    install_merge_driver,
    install_sources_driver,
];

/// Runs `init`.
pub(crate) fn run(request: &Request) -> Result<Report, export::ExportError> {
    let root = fs::canonicalize(&request.root).map_err(|source| export::ExportError::Root {
        path: request.root.clone(),
        error: source,
    })?;
    let rules_shown = export::relative(&request.rules_file, &request.root, &root);
    let setup = Setup {
        request,
        // The files it writes are named relative to the root, as given or canonical.
        fence: Fence::repository(&root, &request.rules_file).naming_below(&[&root, &request.root]),
        root,
        rules_shown,
    };
    let steps: Vec<Step> = STEPS.iter().flat_map(|step| step(&setup)).collect();
    let export = if request.export {
        Some(export::run(&export::Request {
            root: request.root.clone(),
            rules_file: request.rules_file.clone(),
            targets: export::Targets::Defaults,
            mode: request.mode,
            remove: false,
            truncate: export::Truncate::Never,
            diff: false,
        })?)
    } else {
        None
    };
    let mut report = Report {
        mode: request.mode,
        steps,
        export,
        next_steps: Vec::new(),
    };
    report.next_steps = next_steps(&report, request);
    Ok(report)
}

/// Step 2: keep the rules file, or create `.agents/autofix.json` with no rules — under the
/// lock every writer of the rules file takes, and only if it is still absent there, so a
/// `learn` running meanwhile keeps its rules.
fn rules_file(setup: &Setup<'_>) -> Vec<Step> {
    let mut steps = Vec::new();
    for name in ["autofix.json", ".rules/autofix.json"] {
        let other = setup.root.join(name);
        let chosen = std::path::absolute(&setup.request.rules_file);
        if chosen.ok().as_ref() != Some(&other) && crate::io::workspace::is_foreign(&other) {
            steps.push(
                Step::new("rules file", Some(name), Action::Note).with_message(
                    "not an autofix rules file (a JSON object, another program's): left alone",
                ),
            );
        }
    }
    steps.extend(create_rules_file(setup));
    steps
}

fn create_rules_file(setup: &Setup<'_>) -> Vec<Step> {
    let path = &setup.request.rules_file;
    let shown = setup.rules_shown.as_str();
    let step = "rules file";
    if path.symlink_metadata().is_ok() {
        return vec![existing_rules_file(setup)];
    }
    if setup.request.mode != Mode::Write {
        return vec![Step::new(step, Some(shown), Action::Created)];
    }
    let fence = Fence::rules_file_in(&setup.root).naming_below(&[&setup.root, &setup.request.root]);
    let written = safe_write::timeout()
        .and_then(|timeout| fence.lock(path, timeout))
        .and_then(|locked| match locked.read()? {
            Some(_) => Ok(None),
            None => locked.write(&[b"[]\n"], None).map(Some),
        });
    vec![match written {
        Ok(None) => existing_rules_file(setup),
        Ok(Some(warning)) => {
            let created = Step::new(step, Some(shown), Action::Created);
            match warning {
                Some(warning) => created.with_message(warning),
                None => created,
            }
        }
        Err(error) => Step::new(step, Some(shown), failure(&error)).with_message(error.to_string()),
    }]
}

/// The report of a rules file that is there: how many rules it holds.
fn existing_rules_file(setup: &Setup<'_>) -> Step {
    use rules::RulesError;
    let message = match rules::load(&setup.request.rules_file) {
        Ok(Some(document)) => counted(document.len(), "rule"),
        Ok(None) => "a dangling link".to_string(),
        Err(
            RulesError::InvalidJson { .. }
            | RulesError::ConflictMarker { .. }
            | RulesError::NotArray { .. }
            | RulesError::NotObject { .. },
        ) => "not valid: run `autofix check`".to_string(),
        Err(_) => "unreadable: run `autofix check`".to_string(),
    };
    Step::new("rules file", Some(&setup.rules_shown), Action::Unchanged).with_message(message)
}

/// A refusal of the safe-write path is a refusal (exit 1); anything else a failure.
fn failure(error: &atomic::AtomicError) -> Action {
    match error {
        atomic::AtomicError::Refused(_) => Action::Refused,
        _ => Action::Failed,
    }
}

/// Step 3: the same `SKILL.md` in both skill folders; where rulesync or Ruler generates
/// one of them, in that tool's skills folder instead, for it to copy.
fn skills(setup: &Setup<'_>) -> Vec<Step> {
    let text = skill::render(&setup.rules_shown);
    let peers = Peers::detect(&setup.root);
    let mut steps: Vec<Step> = skill::PATHS
        .iter()
        .map(|path| match peers.owner(&setup.root, path) {
            Some(owner) => Step::new("skill", Some(path), Action::Skipped).with_message(format!(
                "{}: the skill reaches the agents through {}",
                owner.left_alone(),
                owner.tool.skill_source()
            )),
            None => put_skill(setup, path, &text),
        })
        .collect();
    if let Some(tool) = peers.skill_tool(&setup.root, &skill::PATHS) {
        steps.push(put_skill(setup, tool.skill_source(), &text));
    }
    steps
}

/// The skill at `path`, unless a `SKILL.md` there is the user's.
fn put_skill(setup: &Setup<'_>, path: &str, text: &str) -> Step {
    setup.put("skill", path, text.to_string(), |existing| {
        if skill::is_ours(existing) {
            Ok(())
        } else {
            Err((
                Some(1),
                "a SKILL.md without `generator: autofix` in its metadata is the user's; \
                 autofix leaves it alone"
                    .to_string(),
            ))
        }
    })
}

/// Step 3, continued: point at older skills that edit the rules file by hand.
fn old_skills(setup: &Setup<'_>) -> Vec<Step> {
    let mut found = Vec::new();
    for folder in [".agents/skills", ".claude/skills"] {
        let Ok(entries) = fs::read_dir(setup.root.join(folder)) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name == skill::NAME {
                continue;
            }
            let text = crate::io::limits::read_to_string(&entry.path().join("SKILL.md"))
                .unwrap_or_default();
            if name == "self-repair" || (text.contains("autofix.json") && !skill::is_ours(&text)) {
                found.push(format!("{folder}/{name}/"));
            }
        }
    }
    found.sort();
    found
        .into_iter()
        .map(|path| {
            Step::new("note", Some(&path), Action::Note).with_message(
                "an older skill that edits the rules by hand; the autofix skill replaces it \
                 (autofix never deletes it: remove it yourself)",
            )
        })
        .collect()
}

/// Step 3, continued: the `/learn` command of every agent that has project commands and
/// is set up here, named with `--command`, or given a hook in this run (so that a second
/// run, finding the hook's folder, has nothing more to add).
fn learn_commands(setup: &Setup<'_>) -> Vec<Step> {
    let request = setup.request;
    let peers = Peers::detect(&setup.root);
    let hooked = |agent: CommandAgent| {
        request
            .hooks
            .iter()
            .any(|&hook| CommandAgent::from_hook(hook) == Some(agent))
    };
    CommandAgent::ALL
        .into_iter()
        .filter(|&agent| {
            request.commands.contains(&agent) || hooked(agent) || agent.is_set_up(&setup.root)
        })
        .map(|agent| {
            let step = format!("command {}", agent.as_str());
            if let Some(owner) = peers.owner(&setup.root, agent.path()) {
                return Step::new(step, Some(agent.path()), Action::Skipped)
                    .with_message(owner.left_alone());
            }
            let step = setup.put(&step, agent.path(), agent.render(), |existing| {
                if agent.is_ours(existing) {
                    Ok(())
                } else {
                    Err((
                        Some(owned::stamp_line(existing)),
                        "a `learn` command without the `autofix:owned` stamp is the user's; \
                         autofix leaves it alone"
                            .to_string(),
                    ))
                }
            });
            match step.message {
                None => step.with_message(agent.describe()),
                Some(_) => step,
            }
        })
        .collect()
}

/// Step 4: the opt-in hooks: session start, and prompt submit where the agent has it.
fn hooks(setup: &Setup<'_>) -> Vec<Step> {
    let mut agents = setup.request.hooks.clone();
    agents.sort_by_key(|a| a.as_str());
    agents.dedup();
    let peers = Peers::detect(&setup.root);
    agents
        .into_iter()
        .map(|agent| {
            let path = agent.hooks_file(setup.request.local);
            if let Some(owner) = peers.owner(&setup.root, path) {
                return Step::new(
                    format!("hook {}", agent.as_str()),
                    Some(path),
                    Action::Skipped,
                )
                .with_message(format!(
                    "{}: add autofix's hook commands to .rulesync/hooks.jsonc for that \
                         target (`autofix rules --format hook --agent {}` at sessionStart)",
                    owner.left_alone(),
                    agent.as_str()
                ));
            }
            let step = setup.put_with(&format!("hook {}", agent.as_str()), path, |existing| {
                settings::merge(agent, existing).map_err(|invalid| {
                    (
                        invalid.line,
                        format!("{}; autofix merges only into valid JSON", invalid.message),
                    )
                })
            });
            match step.message {
                None => step.with_message(settings::events(agent)),
                Some(_) => step,
            }
        })
        .collect()
}

/// Step 5: the git merge driver for the rules file. It is built as
/// `autofix merge-driver --install`; until this build has it, the step says so.
/// The git merge driver for the rules file (`autofix merge-driver --install`): the
/// `.gitattributes` line and the repository's `merge.autofix` config. With `--dry-run` or
/// `--check`, only asks git whether both are in place.
fn install_merge_driver(setup: &Setup<'_>) -> Vec<Step> {
    let rules_file = setup.root.join(&setup.rules_shown);
    let step = |action, message: String| {
        vec![Step::new("merge driver", None, action).with_message(message)]
    };
    // A `.gitattributes` linked where autofix never writes: refused, in every mode.
    if let Err(error) = setup.fence.resolve(&setup.root.join(".gitattributes")) {
        return vec![
            Step::new("merge driver", Some(".gitattributes"), Action::Refused)
                .with_message(error.to_string()),
        ];
    }
    if setup.request.mode != Mode::Write {
        let git = Git::new(&setup.root);
        let configured = git
            .config_get(Some(Scope::Local), "merge.autofix.driver")
            .ok()
            .flatten()
            .is_some_and(|driver| driver == merge_setup::DRIVER_COMMAND);
        let attributed = git
            .attribute("merge", &rules_file)
            .is_ok_and(|value| value == "autofix");
        let exports_configured = git
            .config_get(Some(Scope::Local), "merge.autofix-export.driver")
            .ok()
            .flatten()
            .is_some_and(|driver| driver == merge_setup::EXPORT_DRIVER_COMMAND);
        let exports_attributed = export::exported_files(&setup.root).iter().all(|path| {
            git.attribute("merge", &setup.root.join(path))
                .is_ok_and(|value| value == merge_setup::EXPORT_DRIVER)
        });
        return if configured && attributed && exports_configured && exports_attributed {
            step(Action::Unchanged, "installed".to_string())
        } else {
            step(
                Action::Updated,
                "`autofix merge-driver --install` (the .gitattributes line and the git config)"
                    .to_string(),
            )
        };
    }
    let exported = export::default_paths(&setup.root);
    match merge_setup::install(&setup.root, &rules_file, &exported, Scope::Local) {
        Ok(done) => done
            .steps
            .into_iter()
            .map(|done| {
                let action = if done.changed {
                    Action::Updated
                } else {
                    Action::Unchanged
                };
                Step::new("merge driver", done.file, action).with_message(done.message)
            })
            .collect(),
        // Not a repository git can work in (or no git): nothing to install; say why.
        Err(error @ (git::GitError::Spawn { .. } | git::GitError::NotARepository { .. })) => {
            step(Action::Skipped, error.to_string())
        }
        // A write or a git command that failed is a failure (exit 2), never a skip.
        Err(error) => vec![
            Step::new("merge driver", Some(".gitattributes"), Action::Failed)
                .with_message(error.relative_to(&setup.shown_below()).to_string()),
        ],
    }
}

/// Step 5, after the rules file's driver: the sources lock's merge driver (`autofix sources merge-driver --install`), in
/// every repository, sources or not: the git config is per clone, and a clone set up
/// before a source is added would merge the lock as text. With `--dry-run` or `--check`,
/// only asks git whether the config and the attributes are in place. A `.gitattributes`
/// autofix may not write is refused by the step before.
fn install_sources_driver(setup: &Setup<'_>) -> Vec<Step> {
    use crate::sources::merge::{DRIVER, DRIVER_COMMAND};
    let name = "sources merge driver";
    if setup
        .fence
        .resolve(&setup.root.join(".gitattributes"))
        .is_err()
    {
        return Vec::new();
    }
    let rules_file = setup.root.join(&setup.rules_shown);
    let layout = crate::sources::Layout::beside(&rules_file, &setup.root);
    if setup.request.mode != Mode::Write {
        let git = Git::new(&setup.root);
        let configured = git
            .config_get(Some(Scope::Local), &format!("merge.{DRIVER}.driver"))
            .ok()
            .flatten()
            .is_some_and(|driver| driver == DRIVER_COMMAND);
        let attributed = [
            layout.lock.clone(),
            layout.copy("org"),
            layout.manifest.clone(),
        ]
        .iter()
        .all(|path| git.attribute("merge", path).is_ok_and(|v| v == DRIVER));
        let (action, message) = if configured && attributed {
            (Action::Unchanged, "installed")
        } else {
            (
                Action::Updated,
                "`autofix sources merge-driver --install` (the .gitattributes lines and the git config)",
            )
        };
        return vec![Step::new(name, None, action).with_message(message)];
    }
    match crate::sources::merge::install(&layout, &setup.root) {
        Ok(done) if done.is_empty() => {
            vec![Step::new(name, None, Action::Unchanged).with_message("installed")]
        }
        Ok(done) => done
            .into_iter()
            .map(|message| {
                let file = message
                    .contains(".gitattributes")
                    .then_some(".gitattributes");
                Step::new(name, file, Action::Updated).with_message(message)
            })
            .collect(),
        // Not a repository git can work in (or no git): the step before says why.
        Err(crate::sources::SourceError::Git(
            git::GitError::Spawn { .. } | git::GitError::NotARepository { .. },
        )) => Vec::new(),
        Err(error) => vec![
            Step::new(name, Some(".gitattributes"), Action::Failed)
                .with_message(error.relative_to(&setup.shown_below()).to_string()),
        ],
    }
}

/// Why a file is refused: the line, and the message.
type Refusal = (Option<usize>, String);

/// One attempt at a file: its step, and whether the file changed under it.
struct Done {
    step: Step,
    changed_meanwhile: bool,
}

impl Setup<'_> {
    /// Plans and (in write mode) writes `text` at `path`; `owned` accepts or refuses an
    /// existing file.
    fn put(
        &self,
        step: &str,
        path: &str,
        text: String,
        owned: impl Fn(&str) -> Result<(), Refusal>,
    ) -> Step {
        self.put_with(step, path, |existing| match existing {
            Some(existing) => {
                owned(existing)?;
                let same = markdown::normalize(existing) == markdown::normalize(&text);
                Ok((!same).then(|| text.clone()))
            }
            None => Ok(Some(text.clone())),
        })
    }

    /// Like [`Setup::put`], with the new text computed from the old (`Ok(None)`: keep).
    /// Another program may save the file between the read and the rename: then the write
    /// is refused, and the file is read and planned again.
    fn put_with(
        &self,
        step: &str,
        path: &str,
        plan: impl Fn(Option<&str>) -> Result<Option<String>, Refusal>,
    ) -> Step {
        safe_write::retrying(
            || self.put_once(step, path, &plan),
            |done| done.changed_meanwhile,
        )
        .step
    }

    fn put_once(
        &self,
        step: &str,
        path: &str,
        plan: &impl Fn(Option<&str>) -> Result<Option<String>, Refusal>,
    ) -> Done {
        let done = |step: Step| Done {
            step,
            changed_meanwhile: false,
        };
        let refused = |line: Option<usize>, message: String| {
            done(Step {
                line,
                ..Step::new(step, Some(path), Action::Refused).with_message(message)
            })
        };
        let full = self.root.join(path);
        let real = match self.fence.resolve(&full) {
            Ok(real) => real,
            Err(error) => return refused(None, error.to_string()),
        };
        let bytes = match &real.metadata {
            None => None,
            Some(metadata) if !metadata.is_file() => {
                return refused(None, "not a regular file".to_string());
            }
            Some(_) => match crate::io::limits::read_file(&real.path) {
                Ok(bytes) => Some(bytes),
                Err(error) => return refused(None, format!("cannot read it: {error}")),
            },
        };
        let existing = match bytes.clone().map(markdown::decode).transpose() {
            Ok(existing) => existing,
            Err(line) => return refused(Some(line), "not valid UTF-8".to_string()),
        };
        let text = match plan(existing.as_deref()) {
            Ok(Some(text)) => text,
            Ok(None) => {
                if self.request.mode == Mode::Write {
                    // Temp files a killed `init` left are swept even when nothing changes.
                    let _ = self.fence.sweep(&full);
                }
                return done(Step::new(step, Some(path), Action::Unchanged));
            }
            Err((line, message)) => return refused(line, message),
        };
        let action = if existing.is_some() {
            Action::Updated
        } else {
            Action::Created
        };
        if self.request.mode != Mode::Write {
            return done(Step::new(step, Some(path), action));
        }
        let written = real
            .check_writable()
            .map_err(|e| self.fence.named(e))
            .and_then(|()| {
                safe_write::write(&self.fence, &full, text.as_bytes(), bytes.as_deref())
            });
        match written {
            Ok(warning) => {
                let step = Step::new(step, Some(path), action);
                done(match warning {
                    Some(warning) => step.with_message(warning),
                    None => step,
                })
            }
            Err(error) => Done {
                changed_meanwhile: matches!(
                    error,
                    atomic::AtomicError::Refused(atomic::Refusal::Changed { .. })
                ),
                step: Step::new(step, Some(path), failure(&error)).with_message(error.to_string()),
            },
        }
    }

    /// The roots the messages name files below, relative: canonical, then as given.
    fn shown_below(&self) -> Vec<PathBuf> {
        vec![self.root.clone(), self.request.root.clone()]
    }
}

/// Whether some agent's settings (shared or local) already run our session hook.
fn any_hook_installed(root: &Path) -> bool {
    Agent::ALL.iter().any(|&agent| {
        [false, true].iter().any(|&local| {
            crate::io::limits::read_to_string(&root.join(agent.hooks_file(local)))
                .is_ok_and(|text| settings::merge(agent, Some(&text)) == Ok(None))
        })
    })
}

/// Where rules written by hand are (AGENTS.md, CLAUDE.md, rule folders), and how they
/// come in: autofix's block beside them says it records none yet.
fn handwritten_step(root: &Path) -> Option<String> {
    let reading = crate::export::handwritten::read(root, None);
    if reading.rules.is_empty() {
        return None;
    }
    let mut files: Vec<&str> = Vec::new();
    for found in &reading.rules {
        if !files.contains(&found.file.as_str()) {
            files.push(&found.file);
        }
    }
    let verb = if reading.rules.len() == 1 {
        "is"
    } else {
        "are"
    };
    Some(format!(
        "{} {verb} written by hand in {}: `autofix import` shows them, `autofix import \
         --write --move` makes them numbered rules and takes them out of those files.",
        crate::report::text::counted(reading.rules.len(), "rule"),
        files.join(", ")
    ))
}

fn next_steps(report: &Report, request: &Request) -> Vec<String> {
    let mut steps = Vec::new();
    let mut changed: Vec<&str> = report
        .steps
        .iter()
        .filter(|s| matches!(s.action, Action::Created | Action::Updated))
        .filter_map(|s| s.path.as_deref())
        .collect();
    if let Some(export) = &report.export {
        changed.extend(
            export
                .outcomes
                .iter()
                .filter(|o| o.status.is_change())
                .map(|o| o.path.as_str()),
        );
    }
    if !changed.is_empty() {
        let local = Agent::Claude.hooks_file(true);
        let mut paths: Vec<&str> = Vec::new();
        // Each file once: several steps change `.gitattributes`.
        for path in changed.into_iter().filter(|p| *p != local) {
            if !paths.contains(&path) {
                paths.push(path);
            }
        }
        // Created with the rules file's first lock (see `io::lock`), to be committed with it.
        let ignore = ".agents/.gitignore";
        if paths.iter().any(|p| p.starts_with(".agents/")) && request.root.join(ignore).is_file() {
            paths.insert(1.min(paths.len()), ignore);
        }
        if !paths.is_empty() {
            steps.push(format!("Commit the new files: git add {}", paths.join(" ")));
        }
    }
    steps.extend(handwritten_step(&request.root));
    let peers = Peers::detect(&request.root).tools();
    // Only where nothing is exported yet: a repository already set up needs no reminder.
    if !request.export && peers.is_empty() && !export::targets::any_exported(&request.root) {
        steps.push(
            "Run `autofix export` to put the rules in AGENTS.md (and the rule folders of the \
             agents you use)."
                .to_string(),
        );
    }
    for tool in peers {
        let export = if request.export {
            ""
        } else {
            "`autofix export`, then "
        };
        let (run, check) = match tool {
            Tool::Rulesync => ("rulesync generate", "`rulesync generate --check`"),
            Tool::Ruler => (
                "ruler apply",
                "`ruler apply --no-gitignore --no-mcp --no-backup` and an empty \
                 `git status --porcelain`",
            ),
        };
        steps.push(format!(
            "Run {export}`{run}`: {} takes the rules to the agents from its sources. \
             Add {check} to CI too.",
            tool.name()
        ));
    }
    steps.push(
        "Add `autofix export --check --format github` to CI so the exported rules never go \
         stale."
            .to_string(),
    );
    let mut hooked = request.hooks.clone();
    hooked.sort_by_key(|a| a.as_str());
    hooked.dedup();
    for how in hooked.into_iter().filter_map(trust::how) {
        steps.push(format!(
            "Trust the repository, or its hooks do not run: {how}."
        ));
    }
    if request.hooks.is_empty() && !any_hook_installed(&request.root) {
        steps.push(
            "Optional: `autofix init --hook claude,codex,copilot,cursor,gemini,qwen` loads the \
             rules at the start of every agent session, and reminds the agent to record \
             corrections."
                .to_string(),
        );
    }
    steps.extend(aider_step(&request.root));
    steps
}

/// aider loads no instructions file by itself, only those its `read:` option names
/// (<https://aider.chat/docs/usage/conventions.html>, <https://aider.chat/docs/config/aider_conf.html>):
/// the line that gives it the rules, unless its `.aider.conf.yml` already names AGENTS.md.
/// autofix does not edit that file (a YAML file of the user's, where a `read:` list may
/// already be).
fn aider_step(root: &Path) -> Option<String> {
    let config = crate::io::limits::read_prefix(&root.join(".aider.conf.yml"))
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
        .unwrap_or_default();
    if config.contains("AGENTS.md") {
        return None;
    }
    Some(
        "aider reads the rules only from a file it is told to read: add the line `read: \
         AGENTS.md` to .aider.conf.yml (or `AGENTS.md` to its `read:` list)."
            .to_string(),
    )
}
