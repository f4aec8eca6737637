//! The requirement summary ([`crate::docs::presets`]): each requirement once, by cache key, with the
//! commands bound to it; whether a skill is installed (`<dir>/<skill>/SKILL.md` under the
//! workspace's and the home directory's `.claude/skills` and `.agents/skills`), and whether
//! a CLI is on `PATH`. Nothing a preset names is ever executed.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::{Kind, Preset, Requirement};

/// Where to look for installed skills and programs.
#[derive(Clone, Debug, Default)]
pub(crate) struct Environment {
    /// Directories holding `<skill>/SKILL.md`, in the order they are searched.
    pub skill_dirs: Vec<PathBuf>,
    /// The `PATH` to search for `cli` requirements.
    pub path: Option<OsString>,
}

impl Environment {
    /// The skill directories under `root` and `home`, then `extra`.
    pub(crate) fn new(
        root: &Path,
        home: Option<&Path>,
        extra: &[PathBuf],
        path: Option<OsString>,
    ) -> Environment {
        let mut skill_dirs = vec![root.join(".claude/skills"), root.join(".agents/skills")];
        if let Some(home) = home {
            skill_dirs.push(home.join(".claude/skills"));
            skill_dirs.push(home.join(".agents/skills"));
        }
        skill_dirs.extend(extra.iter().cloned());
        Environment { skill_dirs, path }
    }
}

/// What was found for one requirement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Status {
    /// A skill, with its `SKILL.md`.
    Installed(PathBuf),
    /// A skill that is not installed, with the command that installs it.
    Missing { install: String },
    /// A CLI found on `PATH`.
    Found(PathBuf),
    /// A CLI not found on `PATH`.
    NotFound,
    /// An agent requirement: reported, not checked.
    NotChecked,
}

impl Status {
    /// A stable word for JSON and text output.
    pub(crate) fn as_str(&self) -> &'static str {
        match self {
            Status::Installed(_) => "installed",
            Status::Missing { .. } => "missing",
            Status::Found(_) => "found",
            Status::NotFound => "not-found",
            Status::NotChecked => "not-checked",
        }
    }

    pub(crate) fn path(&self) -> Option<&Path> {
        match self {
            Status::Installed(path) | Status::Found(path) => Some(path),
            _ => None,
        }
    }
}

/// One line of the summary.
#[derive(Clone, Debug)]
pub(crate) struct Summary<'a> {
    pub requirement: &'a Requirement,
    /// The ids of the commands bound to this requirement (skills only).
    pub commands: Vec<&'a str>,
    pub status: Status,
}

/// Each requirement of `preset` once, in declaration order, with its status.
pub(crate) fn summarize<'a>(preset: &'a Preset, environment: &Environment) -> Vec<Summary<'a>> {
    preset
        .unique_requirements()
        .into_iter()
        .map(|requirement| {
            let commands = match requirement.kind {
                Kind::Skill => preset
                    .commands
                    .iter()
                    .filter(|c| c.skill.as_deref() == Some(requirement.key.as_str()))
                    .map(|c| c.id.as_str())
                    .collect(),
                Kind::Cli | Kind::Agent => Vec::new(),
            };
            let status = match requirement.kind {
                Kind::Skill => match find_skill(&requirement.key, &environment.skill_dirs) {
                    Some(path) => Status::Installed(path),
                    None => Status::Missing {
                        install: install_hint(&requirement.key),
                    },
                },
                Kind::Cli => {
                    let program = requirement.command.as_deref().unwrap_or(&requirement.key);
                    match crate::io::git::find_program(program, environment.path.as_deref()) {
                        Some(path) => Status::Found(path),
                        None => Status::NotFound,
                    }
                }
                Kind::Agent => Status::NotChecked,
            };
            Summary {
                requirement,
                commands,
                status,
            }
        })
        .collect()
}

/// The `SKILL.md` of `skill` in the first directory that has one. A name that is not a
/// single path component (`../x`, `a/b`) is never found.
fn find_skill(skill: &str, dirs: &[PathBuf]) -> Option<PathBuf> {
    let single =
        !skill.is_empty() && skill != "." && skill != ".." && !skill.contains(['/', '\\', '\0']);
    if !single {
        return None;
    }
    dirs.iter()
        .map(|dir| dir.join(skill).join("SKILL.md"))
        .find(|file| file.is_file())
}

/// The command that installs a skill, quoted for a POSIX shell where needed.
fn install_hint(skill: &str) -> String {
    format!(
        "npx skills add {} -g -y",
        crate::report::text::shell_quote(skill)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn skills_are_found_by_their_skill_md() {
        let tmp = tempfile::tempdir().unwrap();
        let a = tmp.path().join("a");
        let b = tmp.path().join("b");
        fs::create_dir_all(b.join("x")).unwrap();
        fs::write(b.join("x/SKILL.md"), "# x").unwrap();
        fs::create_dir_all(a.join("y")).unwrap(); // a directory without SKILL.md
        let dirs = vec![a, b.clone()];
        assert_eq!(find_skill("x", &dirs), Some(b.join("x/SKILL.md")));
        assert_eq!(find_skill("y", &dirs), None);
        assert_eq!(find_skill("../b/x", &dirs), None);
        assert_eq!(find_skill("", &dirs), None);
    }

    #[test]
    fn hints_are_shell_safe() {
        assert_eq!(
            install_hint("last30days"),
            "npx skills add last30days -g -y"
        );
        assert_eq!(
            install_hint("it's; rm"),
            r"npx skills add 'it'\''s; rm' -g -y"
        );
    }
}
