//! `autofix doctor`: is this clone set up to merge the rules file? Each check says what it
//! found and, when it fails, the command that fixes it: git and a work tree, the driver in
//! the config, the `merge=autofix` attribute on the rules file, the driver's program on
//! `PATH`, and the rules file itself (valid, no conflict left in the index).

use std::ffi::OsString;
use std::path::Path;

use serde::Serialize;

use super::git::{self, Git};
use crate::diagnostics::Code;
use crate::paint::Painter;
use crate::preset::requirements::find_program;
use crate::rules::{self, check};
use crate::text::counted;

/// One check's verdict.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Check {
    pub name: &'static str,
    pub ok: bool,
    pub message: String,
    /// The command (or step) that fixes a failed check.
    pub fix: Option<String>,
}

/// Every check, in order.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub checks: Vec<Check>,
}

const INSTALL: &str = "autofix merge-driver --install";

/// Runs the checks for the rules file `rules_file` (named `shown` in messages), from `cwd`;
/// `path_var` is the `PATH` to look for the driver's program in.
pub fn doctor(cwd: &Path, rules_file: &Path, shown: &str, path_var: Option<OsString>) -> Report {
    let mut report = Report::default();
    let git = Git::new(cwd);
    let mut push = |name, ok, message: String, fix: Option<&str>| {
        report.checks.push(Check {
            name,
            ok,
            message,
            fix: if ok { None } else { fix.map(str::to_string) },
        });
    };

    let version = git.version();
    let top = match (&version, git.top_level()) {
        (Err(error), _) => {
            push("git", false, error.to_string(), Some("install git"));
            None
        }
        (_, Err(error)) => {
            push("git", false, error.to_string(), Some("install git"));
            None
        }
        (Ok(_), Ok(None)) => {
            push(
                "git",
                false,
                format!("{} is not inside a git work tree", cwd.display()),
                Some("run it inside the repository (or `git init`)"),
            );
            None
        }
        (Ok((major, minor)), Ok(Some(top))) => {
            let mut message = format!("git {major}.{minor}, work tree {}", top.display());
            if (*major, *minor) < (2, 44) {
                message.push_str(
                    "; git before 2.44 passes no branch labels to drivers, so only a pull or \
                     AUTOFIX_MERGE_UPSTREAM marks theirs as the upstream",
                );
            }
            push("git", true, message, None);
            Some(top)
        }
    };

    let mut program = "autofix".to_string();
    if let Some(top) = &top {
        let git = Git::new(top);
        match git.config_get(None, "merge.autofix.driver") {
            Ok(Some(command)) => {
                let scope = git
                    .config_scope("merge.autofix.driver")
                    .ok()
                    .flatten()
                    .unwrap_or_else(|| "unknown".into());
                let ours = command.contains("merge-driver") && command.contains("%A");
                if let Some(first) = command.split_whitespace().next() {
                    program = first.trim_matches(['\'', '"']).to_string();
                }
                push(
                    "driver",
                    ours,
                    if ours {
                        format!("merge.autofix.driver is set ({scope} config)")
                    } else {
                        format!(
                            "merge.autofix.driver is `{command}` ({scope} config), not autofix's driver"
                        )
                    },
                    Some(INSTALL),
                );
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
                push("driver", false, message.into(), Some(INSTALL));
            }
            Err(error) => push("driver", false, error.to_string(), Some(INSTALL)),
        }

        match git::relative_to_top(top, rules_file) {
            None => push(
                "attribute",
                false,
                format!("{shown} is outside the work tree {}", top.display()),
                Some("keep the rules file inside the repository"),
            ),
            Some(relative) => match git.attribute("merge", &relative) {
                Ok(value) if value == git::DRIVER => {
                    let uncommitted = git
                        .text(&["status", "--porcelain", "--", ".gitattributes"])
                        .is_ok_and(|status| !status.is_empty());
                    let mut message = format!("{shown} has merge={}", git::DRIVER);
                    if uncommitted {
                        message.push_str(" (.gitattributes has uncommitted changes: commit it so the team gets it)");
                    }
                    push("attribute", true, message, None);
                }
                Ok(value) => push(
                    "attribute",
                    false,
                    format!(
                        "{shown} has no merge={} attribute (merge: {value})",
                        git::DRIVER
                    ),
                    Some("autofix merge-driver --install, then commit .gitattributes"),
                ),
                Err(error) => push("attribute", false, error.to_string(), Some(INSTALL)),
            },
        }
    }

    match find_program(&program, path_var.as_deref()) {
        Some(found) => push(
            "binary",
            true,
            format!("`{program}` runs {}", found.display()),
            None,
        ),
        None => push(
            "binary",
            false,
            format!("`{program}` is not an executable on PATH: git cannot run the driver"),
            Some(
                "put autofix on PATH (from a clone of autofix: `cargo install --locked --path .`)",
            ),
        ),
    }

    let conflicted = top.as_ref().and_then(|top| {
        let relative = git::relative_to_top(top, rules_file)?;
        let stages = Git::new(top).conflict_stages(&relative).ok()?;
        stages.iter().any(Option::is_some).then_some(())
    });
    if conflicted.is_some() {
        push(
            "rules-file",
            false,
            format!("{shown} has an unresolved merge conflict"),
            Some("autofix resolve"),
        );
    } else {
        match check::check(Path::new(shown), rules::read(rules_file)) {
            Err(error) => push(
                "rules-file",
                false,
                error.to_string(),
                Some("autofix check"),
            ),
            Ok(outcome) => {
                let counts = outcome.counts();
                let markers = outcome.diagnostics.iter().any(|d| {
                    d.code == Code::InvalidJson
                        && d.help
                            .as_deref()
                            .is_some_and(|h| h.contains("autofix resolve"))
                });
                if !outcome.exists {
                    push(
                        "rules-file",
                        true,
                        format!("no rules file yet ({shown})"),
                        None,
                    );
                } else if counts.errors == 0 {
                    push(
                        "rules-file",
                        true,
                        format!(
                            "{shown} is valid: {}, {}",
                            counted(outcome.rules, "rule"),
                            counted(counts.warnings, "warning")
                        ),
                        None,
                    );
                } else {
                    push(
                        "rules-file",
                        false,
                        format!(
                            "{shown} has {}{}",
                            counted(counts.errors, "error"),
                            if markers {
                                " (leftover conflict markers)"
                            } else {
                                ""
                            }
                        ),
                        Some(if markers {
                            "autofix resolve"
                        } else {
                            "autofix check"
                        }),
                    );
                }
            }
        }
    }
    report
}

impl Report {
    pub fn ok(&self) -> bool {
        self.checks.iter().all(|check| check.ok)
    }

    pub fn to_text(&self, painter: Painter) -> String {
        let width = self.checks.iter().map(|c| c.name.len()).max().unwrap_or(0);
        let mut out = String::new();
        for check in &self.checks {
            let verdict = if check.ok {
                painter.good("ok  ")
            } else {
                painter.error("FAIL")
            };
            out.push_str(&format!(
                "{verdict}  {:width$}  {}\n",
                check.name, check.message
            ));
            if let Some(fix) = &check.fix {
                out.push_str(&format!(
                    "      {:width$}  {} {fix}\n",
                    "",
                    painter.dim("fix:")
                ));
            }
        }
        let failed = self.checks.iter().filter(|c| !c.ok).count();
        out.push_str(&match failed {
            0 => "All checks passed.\n".to_string(),
            1 => "1 check failed.\n".to_string(),
            n => format!("{n} checks failed.\n"),
        });
        out
    }

    pub fn to_json(&self) -> String {
        #[derive(Serialize)]
        struct Json<'a> {
            version: u32,
            ok: bool,
            checks: &'a [Check],
        }
        let json = Json {
            version: 1,
            ok: self.ok(),
            checks: &self.checks,
        };
        let mut text = serde_json::to_string_pretty(&json).expect("a report always serialises");
        text.push('\n');
        text
    }
}
