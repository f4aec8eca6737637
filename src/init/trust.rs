//! What each agent needs trusted before it runs a repository's hooks, and whether this
//! machine shows that trust. Each agent keeps it in its own user-level file, outside the
//! repository, so `init` can only say what to do and `doctor` only look:
//! - Claude Code asks once per folder ("Do you trust the files in this folder?") and keeps
//!   the answer as `projects.<path>.hasTrustDialogAccepted` in `~/.claude.json`; `claude -p`
//!   skips the dialog (<https://code.claude.com/docs/en/security>, and the client's own
//!   bundle, 2.1.328).
//! - Codex loads a project's `.codex/` configuration only for a trusted project,
//!   `[projects."<path>"] trust_level = "trusted"` in `$CODEX_HOME/config.toml`
//!   (<https://developers.openai.com/codex/config-reference>), and runs new or changed hooks
//!   only once reviewed ("Trust all" in the TUI; `codex exec --dangerously-bypass-hook-trust`
//!   for one headless run), a review kept as hashes this check does not read.
//! - Gemini CLI ignores a workspace's settings, hooks included, outside a trusted folder and
//!   exits 55 in headless mode there; trusted folders are in `~/.gemini/trustedFolders.json`
//!   (`TRUST_FOLDER` for the folder, `TRUST_PARENT` for its parent), or
//!   `GEMINI_CLI_TRUST_WORKSPACE=true` for one run
//!   (<https://geminicli.com/docs/cli/trusted-folders/>).
//! - GitHub Copilot CLI asks once per folder and keeps "this and future sessions" in the
//!   `trusted_folders` array of `~/.copilot/config.json` (`$COPILOT_HOME`); `copilot -p`
//!   loads a repository's hooks only in a trusted folder, or with `COPILOT_ALLOW_ALL=true`
//!   (<https://docs.github.com/en/copilot/how-tos/copilot-cli/set-up-copilot-cli/configure-copilot-cli>;
//!   "Loading repo hooks in prompt mode (folder is trusted or opt-in set)" in its log, 1.0.102).
//! - Qwen Code keeps trusted folders in `~/.qwen/trustedFolders.json` as Gemini CLI does,
//!   and asks before it first runs a project's hooks (`--approval-mode yolo` skips that)
//!   (<https://qwenlm.github.io/qwen-code-docs/en/cli/trusted-folders>,
//!   <https://raw.githubusercontent.com/QwenLM/qwen-code/v0.26.8/docs/users/configuration/trusted-folders.md>).

use std::path::{Path, PathBuf};

use crate::export::hook::Agent;

/// What `init`'s next steps say to do for `agent`'s hooks to run here.
pub(crate) fn how(agent: Agent) -> Option<&'static str> {
    match agent {
        Agent::Claude => Some(
            "Claude Code: accept \"Do you trust the files in this folder?\" when it first opens \
             the repository (claude -p does not ask)",
        ),
        Agent::Codex => Some(
            "Codex: trust the project when it asks (or add [projects.\"<path>\"] trust_level = \
             \"trusted\" to ~/.codex/config.toml), then \"Trust all\" when it lists the new \
             hooks; until then they are skipped without a word",
        ),
        Agent::Gemini => Some(
            "Gemini CLI: trust the folder when it asks (kept in ~/.gemini/trustedFolders.json); \
             outside a trusted folder it ignores the hooks, and gemini -p exits 55",
        ),
        Agent::Copilot => Some(
            "GitHub Copilot CLI: trust the folder for future sessions when it asks (kept in \
             trusted_folders of ~/.copilot/config.json); copilot -p runs the repository's \
             hooks only in a trusted folder (or with COPILOT_ALLOW_ALL=true)",
        ),
        Agent::Qwen => Some(
            "Qwen Code: trust the folder (kept in ~/.qwen/trustedFolders.json) and approve \
             the project's hooks when it first lists them",
        ),
        Agent::Cursor => None,
    }
}

/// The agents whose hooks `init` installed in this repository.
pub(crate) fn hooked(root: &Path) -> Vec<Agent> {
    [
        Agent::Claude,
        Agent::Codex,
        Agent::Gemini,
        Agent::Copilot,
        Agent::Qwen,
    ]
    .into_iter()
    .filter(|&agent| {
        let files: &[&str] = match agent {
            Agent::Claude => &[".claude/settings.json", ".claude/settings.local.json"],
            other => &[other.hooks_file(false)],
        };
        files.iter().any(|file| {
            crate::io::limits::read_prefix(&root.join(file))
                .is_ok_and(|bytes| String::from_utf8_lossy(&bytes).contains(&agent.command()))
        })
    })
    .collect()
}

/// Whether `home` shows `agent` trusting `root` (or a folder above it): `None` where the
/// agent keeps nothing this check can read.
pub(crate) fn granted(agent: Agent, root: &Path, home: &Path) -> Option<bool> {
    let root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    let read = |path: PathBuf| -> Option<String> {
        crate::io::limits::read_prefix(&path)
            .ok()
            .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
    };
    let json = |path: PathBuf| -> serde_json::Value {
        read(path)
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or_default()
    };
    let settings = crate::io::settings::get();
    match agent {
        Agent::Claude => {
            // `CLAUDE_CONFIG_DIR` moves Claude Code's `.claude.json` too.
            let config = settings
                .claude_config_dir
                .clone()
                .unwrap_or_else(|| home.to_path_buf());
            let projects = json(config.join(".claude.json"))["projects"].clone();
            Some(root.ancestors().any(|dir| {
                projects[dir.to_string_lossy().as_ref()]["hasTrustDialogAccepted"] == true
            }))
        }
        Agent::Codex => {
            let codex_home = settings
                .codex_home
                .clone()
                .unwrap_or_else(|| home.join(".codex"));
            let config = read(codex_home.join("config.toml")).unwrap_or_default();
            Some(root.ancestors().any(|dir| trusted_in_toml(&config, dir)))
        }
        Agent::Copilot => {
            let copilot_home = settings
                .copilot_home
                .clone()
                .unwrap_or_else(|| home.join(".copilot"));
            let config = read(copilot_home.join("config.json")).unwrap_or_default();
            // The file starts with `//` comments (it is "managed automatically").
            let body: String = config
                .lines()
                .filter(|line| !line.trim_start().starts_with("//"))
                .collect::<Vec<_>>()
                .join("\n");
            let config: serde_json::Value = serde_json::from_str(&body).unwrap_or_default();
            let folders = config["trusted_folders"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            Some(
                folders
                    .iter()
                    .filter_map(|f| f.as_str())
                    .any(|folder| root.starts_with(folder)),
            )
        }
        Agent::Gemini | Agent::Qwen => {
            let file = if agent == Agent::Gemini {
                ".gemini/trustedFolders.json"
            } else {
                ".qwen/trustedFolders.json"
            };
            let folders = json(home.join(file));
            let folders = folders.as_object().cloned().unwrap_or_default();
            Some(folders.iter().any(|(folder, level)| {
                let folder = Path::new(folder);
                let trusted = match level.as_str() {
                    Some("TRUST_FOLDER") => Some(folder),
                    Some("TRUST_PARENT") => folder.parent(),
                    _ => None,
                };
                trusted.is_some_and(|dir| root.starts_with(dir))
            }))
        }
        Agent::Cursor => None,
    }
}

/// `[projects."<dir>"]` followed, before the next table, by `trust_level = "trusted"`.
fn trusted_in_toml(config: &str, dir: &Path) -> bool {
    let header = format!("[projects.\"{}\"]", dir.display());
    let mut inside = false;
    for line in config.lines().map(str::trim) {
        if line.starts_with('[') {
            inside = line == header;
        } else if inside {
            let value = line.split('#').next().unwrap_or("");
            let compact: String = value.chars().filter(|c| !c.is_whitespace()).collect();
            if compact == "trust_level=\"trusted\"" {
                return true;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_codex_project_table_is_read_up_to_the_next_table() {
        let config = "[projects.\"/r\"]\ntrust_level = \"trusted\"\n[projects.\"/s\"]\nx = 1\n";
        assert!(trusted_in_toml(config, Path::new("/r")));
        assert!(!trusted_in_toml(config, Path::new("/s")));
        assert!(!trusted_in_toml(
            "[projects.\"/r\"]\n[x]\ntrust_level = \"trusted\"\n",
            Path::new("/r")
        ));
        assert!(trusted_in_toml(
            "[projects.\"/r\"]\ntrust_level = \"trusted\"  # set by the TUI\n",
            Path::new("/r")
        ));
    }
}
