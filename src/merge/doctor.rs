//! `autofix doctor`: is this clone set up to merge the rules file? Each check says what it
//! found and, when it fails, the command that fixes it: git and a work tree, the driver in
//! the config, the `merge=autofix` attribute on the rules file, `merge=autofix-export` on
//! the exported copies, the sources driver on the sources lock (when there is one), the
//! driver's program on `PATH`, and the rules file itself (valid, no conflict left in the
//! index, staged once resolved). A failed check carries its diagnostic code
//! (`merge-driver-missing`, ...), so its fix is one `autofix explain` away.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::export::hook::Agent;
use crate::init::trust;
use crate::io::git::{self, Git};
use crate::io::merge_setup;
use crate::io::workspace::Workspace;
use crate::report::diagnostics::{Code, Diagnostic};
use crate::report::text::counted;
use crate::rules::{self, check};

/// One check's verdict.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct Check {
    pub name: &'static str,
    pub ok: bool,
    /// The code of a failed check (`merge-driver-missing`, ...), which `explain` knows.
    pub code: Option<Code>,
    pub message: String,
    /// The command (or step) that fixes a failed check.
    pub fix: Option<String>,
    /// Said, not failed: a finding that does not apply where it was made (no agent runs
    /// on a CI runner, so none has trusted its checkout). `ok` stays true.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub note: bool,
}

/// Every check, in order.
#[derive(Clone, Debug, Default)]
pub(crate) struct Report {
    pub checks: Vec<Check>,
}

const INSTALL: &str = "autofix merge-driver --install";

/// What `doctor` looks at: the workspace (its rules file, named by its display path in
/// messages; its root, where the exported copies are; the directory it runs from) and the
/// `PATH` to look for the driver's program in.
pub(crate) struct Request<'a> {
    pub workspace: &'a Workspace,
    pub path_var: Option<OsString>,
    /// Where the agents keep their trust of folders (`HOME`).
    pub home: Option<PathBuf>,
    /// Whether `CI` is set: the trust of agents is then a note, not a failure.
    pub ci: bool,
}

/// Runs every check, in order.
pub(crate) fn doctor(request: &Request<'_>) -> Report {
    let mut report = Report::default();
    let top = check_git(&mut report, &request.workspace.cwd);
    let mut program = "autofix".to_string();
    if let Some(top) = &top {
        if let Some(first) = check_driver(&mut report, top) {
            program = first;
        }
        check_attribute(&mut report, top, request);
        check_exports(&mut report, top, &request.workspace.root);
        check_exports_current(&mut report, request.workspace);
        check_sources(&mut report, top, &request.workspace.rules_file);
    }
    check_binary(&mut report, &program, request.path_var.as_deref());
    check_rules_file(&mut report, top.as_deref(), request);
    check_trust(&mut report, request);
    report
}

/// For each agent whose hooks are installed here: does this machine trust the repository,
/// as far as the agent's own files show?
fn check_trust(report: &mut Report, request: &Request<'_>) {
    let Some(home) = &request.home else {
        return;
    };
    for agent in trust::hooked(&request.workspace.root) {
        let Some(granted) = trust::granted(agent, &request.workspace.root, home) else {
            continue;
        };
        let name = match agent {
            Agent::Claude => "trust claude",
            Agent::Codex => "trust codex",
            Agent::Copilot => "trust copilot",
            Agent::Qwen => "trust qwen",
            _ => "trust gemini",
        };
        let message = if granted {
            format!(
                "{} trusts this repository, so its hooks run",
                agent.reader()
            )
        } else {
            format!(
                "{} does not trust this repository yet: its autofix hooks do not run",
                agent.reader()
            )
        };
        if !granted && request.ci {
            report.checks.push(Check {
                name,
                ok: true,
                code: Some(Code::RepositoryUntrusted),
                message: format!("{message} (CI is set: no agent runs here, so this is a note)"),
                fix: trust::how(agent).map(str::to_string),
                note: true,
            });
            continue;
        }
        report.push(
            name,
            (granted, Code::RepositoryUntrusted),
            message,
            trust::how(agent),
        );
    }
}

impl Report {
    /// A check's verdict; `code` is what it reports when it fails.
    fn push(
        &mut self,
        name: &'static str,
        (ok, code): (bool, Code),
        message: String,
        fix: Option<&str>,
    ) {
        self.checks.push(Check {
            name,
            ok,
            code: (!ok).then_some(code),
            message,
            fix: if ok { None } else { fix.map(str::to_string) },
            note: false,
        });
    }
}

/// git itself and the work tree: its top, when there is one.
fn check_git(report: &mut Report, cwd: &Path) -> Option<PathBuf> {
    let git = Git::new(cwd);
    match (git.version(), git.top_level()) {
        (Err(error), _) | (_, Err(error)) => {
            report.push(
                "git",
                (false, Code::GitUnavailable),
                error.to_string(),
                Some("install git"),
            );
            None
        }
        (Ok(_), Ok(None)) => {
            report.push(
                "git",
                (false, Code::GitUnavailable),
                format!("{} is not inside a git work tree", cwd.display()),
                Some("run it inside the repository (or `git init`)"),
            );
            None
        }
        (Ok((major, minor)), Ok(Some(top))) => {
            let mut message = format!("git {major}.{minor}, work tree {}", top.display());
            if (major, minor) < (2, 44) {
                message.push_str(
                    "; git before 2.44 passes no branch labels to drivers, so only a pull or \
                     AUTOFIX_MERGE_UPSTREAM marks theirs as the upstream",
                );
            }
            report.push("git", (true, Code::GitUnavailable), message, None);
            Some(top)
        }
    }
}

/// With a sources lock beside the rules file: the sources driver in the config and its
/// attribute on the lock (see [`crate::sources::merge`]).
fn check_sources(report: &mut Report, top: &Path, rules_file: &Path) {
    use crate::sources::merge::DRIVER;
    let lock = rules_file.with_file_name(crate::sources::LOCK);
    let Some(relative) = git::relative_to_top(top, &lock).filter(|_| lock.exists()) else {
        return;
    };
    let git = Git::new(top);
    let key = format!("merge.{DRIVER}.driver");
    let configured = git
        .config_get(None, &key)
        .ok()
        .flatten()
        .is_some_and(|command| command.contains("sources merge-driver"));
    // The lock and the manifest both: two branches that each add a source conflict in the
    // manifest when git merges it as text.
    let manifest = rules_file.with_file_name(crate::sources::MANIFEST);
    let mut files = vec![relative];
    files.extend(git::relative_to_top(top, &manifest).filter(|_| manifest.exists()));
    let missing = files.iter().find_map(|file| {
        let attribute = git.attribute("merge", file).unwrap_or_default();
        (attribute != DRIVER).then(|| (file.clone(), attribute))
    });
    let ok = configured && missing.is_none();
    let shown: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    let message = match &missing {
        _ if !configured => format!("{key} is not set: git merges the sources lock as text"),
        Some((file, attribute)) => format!(
            "{} has no merge={DRIVER} attribute (merge: {attribute})",
            file.display()
        ),
        None => format!("{} merge with merge={DRIVER}", shown.join(" and ")),
    };
    // The attribute comes committed with a clone; only the local config is per clone.
    let fix = if missing.is_none() {
        "autofix sources merge-driver --install"
    } else {
        "autofix sources merge-driver --install, then commit .gitattributes"
    };
    report.push(
        "sources",
        (ok, Code::SourcesDriverMissing),
        message,
        Some(fix),
    );
}

/// `merge.autofix.driver`; returns the program it runs.
fn check_driver(report: &mut Report, top: &Path) -> Option<String> {
    let git = Git::new(top);
    match git.config_get(None, "merge.autofix.driver") {
        Ok(Some(command)) => {
            let scope = git
                .config_scope("merge.autofix.driver")
                .ok()
                .flatten()
                .unwrap_or_else(|| "unknown".into());
            let ours = command.contains("merge-driver") && command.contains("%A");
            let message = if ours {
                format!("merge.autofix.driver is set ({scope} config)")
            } else {
                format!(
                    "merge.autofix.driver is `{command}` ({scope} config), not autofix's driver"
                )
            };
            report.push(
                "driver",
                (ours, Code::MergeDriverMissing),
                message,
                Some(INSTALL),
            );
            let program = command.split_whitespace().next()?;
            Some(program.trim_matches(['\'', '"']).to_string())
        }
        Ok(None) => {
            let named = git
                .config_get(None, "merge.autofix.name")
                .is_ok_and(|name| name.is_some());
            let message = if named {
                "merge.autofix.name is set without merge.autofix.driver: every merge of the rules file fails"
            } else {
                "merge.autofix.driver is not set: git merges the rules file as text"
            };
            report.push(
                "driver",
                (false, Code::MergeDriverMissing),
                message.into(),
                Some(INSTALL),
            );
            None
        }
        Err(error) => {
            report.push(
                "driver",
                (false, Code::MergeDriverMissing),
                error.to_string(),
                Some(INSTALL),
            );
            None
        }
    }
}

/// The `merge=autofix` attribute on the rules file.
fn check_attribute(report: &mut Report, top: &Path, request: &Request<'_>) {
    let git = Git::new(top);
    let shown = request.workspace.shown.as_str();
    let Some(relative) = git::relative_to_top(top, &request.workspace.rules_file) else {
        report.push(
            "attribute",
            (false, Code::MergeAttributeMissing),
            format!("{shown} is outside the work tree {}", top.display()),
            Some("keep the rules file inside the repository"),
        );
        return;
    };
    match git.attribute("merge", &relative) {
        Ok(value) if value == merge_setup::DRIVER => {
            let uncommitted = git
                .text(&["status", "--porcelain", "--", ".gitattributes"])
                .is_ok_and(|status| !status.is_empty());
            let mut message = format!("{shown} has merge={}", merge_setup::DRIVER);
            if uncommitted {
                message.push_str(
                    " (.gitattributes has uncommitted changes: commit it so the team gets it)",
                );
            }
            report.push(
                "attribute",
                (true, Code::MergeAttributeMissing),
                message,
                None,
            );
        }
        Ok(value) => report.push(
            "attribute",
            (false, Code::MergeAttributeMissing),
            format!(
                "{shown} has no merge={} attribute (merge: {value})",
                merge_setup::DRIVER
            ),
            Some("autofix merge-driver --install, then commit .gitattributes"),
        ),
        Err(error) => report.push(
            "attribute",
            (false, Code::MergeAttributeMissing),
            error.to_string(),
            Some(INSTALL),
        ),
    }
}

/// The exported copies merge with `merge=autofix-export`, so that two branches' rule lists
/// never conflict in them.
fn check_exports(report: &mut Report, top: &Path, root: &Path) {
    let git = Git::new(top);
    let exported: Vec<PathBuf> = crate::export::exported_files(root)
        .into_iter()
        .map(|path| root.join(path))
        .collect();
    if exported.is_empty() {
        report.push(
            "exports",
            (true, Code::ExportDriverMissing),
            "nothing exported yet".into(),
            None,
        );
        return;
    }
    let driver = git
        .config_get(None, "merge.autofix-export.driver")
        .ok()
        .flatten();
    let missing: Vec<String> = exported
        .iter()
        .filter_map(|path| git::relative_to_top(top, path))
        .filter(|relative| {
            git.attribute("merge", relative)
                .map_or(true, |value| value != merge_setup::EXPORT_DRIVER)
        })
        .map(|relative| relative.display().to_string())
        .collect();
    let fix = "autofix merge-driver --install, then commit .gitattributes";
    match (driver, missing.as_slice()) {
        (None, _) => report.push(
            "exports",
            (false, Code::ExportDriverMissing),
            "merge.autofix-export.driver is not set: two branches' exported rules conflict".into(),
            Some(INSTALL),
        ),
        (Some(_), []) => report.push(
            "exports",
            (true, Code::ExportDriverMissing),
            format!(
                "{} merge with merge={} (after a merge, `autofix export` regenerates them)",
                counted(exported.len(), "exported file"),
                merge_setup::EXPORT_DRIVER
            ),
            None,
        ),
        (Some(_), missing) => report.push(
            "exports",
            (false, Code::ExportDriverMissing),
            format!(
                "no merge={} attribute on {}",
                merge_setup::EXPORT_DRIVER,
                missing.join(", ")
            ),
            Some(fix),
        ),
    }
}

/// The exported files against what `export` would write now (the rules file and the
/// imported rules): after a merge that moved a pin or added a source, a copy the export
/// driver could not know about is stale until `autofix export` runs.
fn check_exports_current(report: &mut Report, workspace: &Workspace) {
    if crate::export::exported_files(&workspace.root).is_empty() {
        return;
    }
    let request = crate::export::Request {
        root: workspace.root.clone(),
        rules_file: workspace.rules_file.clone(),
        targets: crate::export::Targets::Exported,
        mode: crate::export::Mode::Check,
        remove: false,
        truncate: crate::export::Truncate::AsBefore,
        diff: false,
    };
    let Ok(outcome) = crate::export::run(&request) else {
        return;
    };
    let stale: Vec<&str> = outcome
        .outcomes
        .iter()
        .filter(|o| o.status.is_change())
        .map(|o| o.path.as_str())
        .collect();
    let message = if stale.is_empty() {
        "the exported files hold the rules and the imported rules as they are".to_string()
    } else {
        format!(
            "stale: {} (the rules or the sources changed since)",
            stale.join(", ")
        )
    };
    report.push(
        "in-sync",
        (stale.is_empty(), Code::ExportOutOfSync),
        message,
        Some("autofix export"),
    );
}

fn check_binary(report: &mut Report, program: &str, path_var: Option<&std::ffi::OsStr>) {
    match git::find_program(program, path_var) {
        Some(found) => report.push(
            "binary",
            (true, Code::DriverProgramMissing),
            format!("`{program}` runs {}", found.display()),
            None,
        ),
        None => report.push(
            "binary",
            (false, Code::DriverProgramMissing),
            format!("`{program}` is not an executable on PATH: git cannot run the driver"),
            Some(
                "put autofix on PATH (from a clone of autofix: `cargo install --locked --path .`)",
            ),
        ),
    }
}

/// The rules file: no conflict left in the index, and valid.
fn check_rules_file(report: &mut Report, top: Option<&Path>, request: &Request<'_>) {
    let shown = request.workspace.shown.as_str();
    let conflicted = top.is_some_and(|top| {
        git::relative_to_top(top, &request.workspace.rules_file)
            .and_then(|relative| Git::new(top).conflict_stages(&relative).ok())
            .is_some_and(|stages| stages.iter().any(Option::is_some))
    });
    let outcome = match check::check(Path::new(shown), rules::read(&request.workspace.rules_file)) {
        Err(error) => {
            report.push(
                "rules-file",
                (false, Code::RulesFileInvalid),
                error.to_string(),
                Some("autofix check"),
            );
            return;
        }
        Ok(outcome) => outcome,
    };
    let counts = outcome.counts();
    let markers = outcome.diagnostics.iter().any(|d| {
        d.code == Code::InvalidJson
            && d.help
                .as_deref()
                .is_some_and(|h| h.contains("autofix resolve"))
    });
    if conflicted && (markers || counts.errors > 0) {
        report.push(
            "rules-file",
            (false, Code::RulesFileConflicted),
            format!("{shown} has an unresolved merge conflict"),
            Some("autofix resolve"),
        );
    } else if conflicted {
        // `resolve` (or a hand) fixed the file; git still holds the conflict until staged.
        report.push(
            "rules-file",
            (false, Code::RulesFileConflicted),
            format!("{shown} is merged but not staged: git still lists it as conflicted"),
            Some(&format!("review it, then `git add {shown}`")),
        );
    } else if !outcome.exists {
        report.push(
            "rules-file",
            (true, Code::RulesFileInvalid),
            format!("no rules file yet ({shown})"),
            None,
        );
    } else if counts.errors == 0 {
        report.push(
            "rules-file",
            (true, Code::RulesFileInvalid),
            format!(
                "{shown} is valid: {}, {}",
                counted(outcome.rules, "rule"),
                counted(counts.warnings, "warning")
            ),
            None,
        );
    } else {
        let (detail, fix, code) = if markers {
            (
                " (leftover conflict markers)",
                "autofix resolve",
                Code::RulesFileConflicted,
            )
        } else {
            ("", "autofix check", Code::RulesFileInvalid)
        };
        report.push(
            "rules-file",
            (false, code),
            format!("{shown} has {}{detail}", counted(counts.errors, "error")),
            Some(fix),
        );
    }
}

impl Report {
    pub(crate) fn ok(&self) -> bool {
        self.checks.iter().all(|check| check.ok)
    }

    /// The failed checks as diagnostics: the code, the message and the fix as the help.
    pub(crate) fn diagnostics(&self) -> Vec<Diagnostic> {
        self.checks
            .iter()
            .filter(|check| !check.ok)
            .filter_map(|check| {
                let diagnostic = Diagnostic::new(check.code?, &check.message);
                Some(match &check.fix {
                    Some(fix) => diagnostic.with_help(fix.clone()),
                    None => diagnostic,
                })
            })
            .collect()
    }
}
