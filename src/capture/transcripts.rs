//! Reading the agents' local transcripts of one repository: the messages the user typed
//! (never tool results, never the agent's own words, never text the agent program
//! injected), each with the agent's last action before it. Read only; unreadable files
//! and lines are skipped, a missing folder is reported as such.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::sha256;
use crate::hook::Agent;

/// One message the user typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct UserMessage {
    pub(crate) agent: Agent,
    pub(crate) session: String,
    /// ISO 8601, as the transcript has it (UTC).
    pub(crate) time: String,
    pub(crate) text: String,
    /// The agent's action just before: what it said, or the tool it ran.
    pub(crate) context: Option<String>,
}

/// Where one agent's transcripts were looked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Searched {
    pub(crate) agent: Agent,
    pub(crate) path: PathBuf,
    pub(crate) exists: bool,
    /// Transcripts of this repository read there.
    pub(crate) sessions: usize,
}

/// The user's messages in `agent`'s transcripts of the repository at `root`.
pub(crate) fn read(agent: Agent, home: &Path, root: &Path) -> (Searched, Vec<UserMessage>) {
    let roots = root_spellings(root);
    match agent {
        Agent::Claude => claude(home, &roots),
        Agent::Codex => codex(home, &roots),
        Agent::Gemini => gemini(home, &roots),
        Agent::Cursor => (
            Searched {
                agent,
                path: PathBuf::new(),
                exists: false,
                sessions: 0,
            },
            Vec::new(),
        ),
    }
}

/// The root as given and as resolved: an agent records the path it was started in.
fn root_spellings(root: &Path) -> Vec<String> {
    let mut roots = vec![root.to_string_lossy().into_owned()];
    if let Ok(real) = fs::canonicalize(root) {
        let real = real.to_string_lossy().into_owned();
        if !roots.contains(&real) {
            roots.push(real);
        }
    }
    roots
}

/// Claude Code keeps one JSONL file per session in `~/.claude/projects/<folder>/`, the
/// folder being the path the session started in with every character other than a letter
/// or digit replaced by `-`; each line carries that path as `cwd`. Lines are `{"type": "user"|"assistant"|…, "message": {"role",
/// "content"}, "timestamp", "sessionId", "isMeta"?, "isSidechain"?}`; a user line's content
/// is a string or blocks, `tool_result` blocks being tool output.
/// Claude Code does not document the format; it is described in
/// <https://evilpiepirate.org/forge/kent/consciousness/src/commit/9c79d7a037136ea78a4cf37cbfb5214dcb5cf7f4/doc/claude-code-transcript-format.md>.
fn claude(home: &Path, roots: &[String]) -> (Searched, Vec<UserMessage>) {
    let projects = home.join(".claude/projects");
    let mut searched = Searched {
        agent: Agent::Claude,
        path: projects.clone(),
        exists: projects.is_dir(),
        sessions: 0,
    };
    let encoded: Vec<String> = roots
        .iter()
        .map(|root| {
            root.chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
                .collect()
        })
        .collect();
    // The root's folder, and its subdirectories' (`<folder>-sub`): sessions started there.
    let mut folders: Vec<(PathBuf, bool)> = fs::read_dir(&projects)
        .map(|entries| {
            entries
                .flatten()
                .filter_map(|entry| {
                    let name = entry.file_name().to_string_lossy().into_owned();
                    let exact = encoded.contains(&name);
                    let below = encoded.iter().any(|e| {
                        name.strip_prefix(e.as_str())
                            .is_some_and(|rest| rest.starts_with('-'))
                    });
                    (exact || below).then(|| (entry.path(), exact))
                })
                .collect()
        })
        .unwrap_or_default();
    folders.sort();
    let mut messages = Vec::new();
    for (folder, exact) in folders {
        if exact {
            searched.path.clone_from(&folder);
        }
        for file in files_in(&folder, "jsonl") {
            let lines = lines(&file);
            // Folder names are ambiguous (`/a/b-c` and `/a/b/c`); the lines' `cwd` is not.
            let mut cwds = lines
                .iter()
                .filter_map(|line| line["cwd"].as_str())
                .peekable();
            let belongs = match cwds.peek() {
                None => exact,
                Some(_) => cwds.any(|cwd| roots.iter().any(|root| is_at_or_below(cwd, root))),
            };
            if belongs {
                searched.sessions += 1;
                claude_session(&lines, &file_stem(&file), &mut messages);
            }
        }
    }
    (searched, messages)
}

fn claude_session(lines: &[Value], stem: &str, messages: &mut Vec<UserMessage>) {
    let mut context = None;
    for line in lines {
        let content = &line["message"]["content"];
        match line["type"].as_str() {
            Some("assistant") => {
                if let Some(action) = content.as_array().and_then(|b| b.last()) {
                    context = match action["type"].as_str() {
                        Some("tool_use") => Some(tool_action(&action["name"], &action["input"])),
                        _ => text_of(action).map(|text| said(&text)),
                    }
                    .or(context.take());
                }
            }
            Some("user") if line["isMeta"] != true && line["isSidechain"] != true => {
                let is_tool_output = content
                    .as_array()
                    .is_some_and(|blocks| blocks.iter().any(|b| b["type"] == "tool_result"));
                let Some(text) = text_of(content).filter(|_| !is_tool_output) else {
                    continue;
                };
                if is_injected(&text) {
                    continue;
                }
                messages.push(UserMessage {
                    agent: Agent::Claude,
                    session: str_or(&line["sessionId"], stem),
                    time: str_or(&line["timestamp"], ""),
                    text,
                    context: context.clone(),
                });
            }
            _ => {}
        }
    }
}

/// Text Claude Code writes as a user line itself: slash-command echoes, the compaction
/// summary, interruptions.
fn is_injected(text: &str) -> bool {
    const PREFIXES: [&str; 6] = [
        "<command-name>",
        "<command-message>",
        "<local-command-stdout>",
        "Caveat: ",
        "This session is being continued from a previous conversation",
        "[Request interrupted",
    ];
    PREFIXES.iter().any(|p| text.trim_start().starts_with(p))
}

/// Codex keeps sessions in `~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`. Each
/// line is `{"timestamp", "type", "payload"}`: the first, `session_meta`, carries `id` and
/// `cwd`; what the user typed is an `event_msg` whose payload is `{"type": "user_message",
/// "message"}` (`response_item` user messages also hold the instructions Codex injects).
/// The agent speaks in `agent_message` events and acts in `function_call` items.
/// Format: <https://github.com/openai/codex/blob/main/codex-rs/protocol/src/protocol.rs>
/// (`RolloutLine`, `EventMsg::UserMessage`), described in
/// <https://docs.rs/toolpath-codex/latest/toolpath_codex/types/index.html>.
fn codex(home: &Path, roots: &[String]) -> (Searched, Vec<UserMessage>) {
    let sessions = home.join(".codex/sessions");
    let mut searched = Searched {
        agent: Agent::Codex,
        path: sessions.clone(),
        exists: sessions.is_dir(),
        sessions: 0,
    };
    let mut messages = Vec::new();
    let mut files = Vec::new();
    rollouts(&sessions, 4, &mut files);
    files.sort();
    for file in files {
        let lines = lines(&file);
        let meta = lines.iter().find(|l| l["type"] == "session_meta");
        let cwd = meta
            .and_then(|m| m["payload"]["cwd"].as_str())
            .unwrap_or("");
        if !roots.iter().any(|root| is_at_or_below(cwd, root)) {
            continue;
        }
        searched.sessions += 1;
        let session = meta
            .and_then(|m| m["payload"]["id"].as_str())
            .map_or_else(|| file_stem(&file), str::to_string);
        let mut context = None;
        for line in &lines {
            let payload = &line["payload"];
            match (line["type"].as_str(), payload["type"].as_str()) {
                (Some("event_msg"), Some("user_message")) => {
                    if let Some(text) = payload["message"].as_str() {
                        messages.push(UserMessage {
                            agent: Agent::Codex,
                            session: session.clone(),
                            time: str_or(&line["timestamp"], ""),
                            text: text.to_string(),
                            context: context.clone(),
                        });
                    }
                }
                (Some("event_msg"), Some("agent_message")) => {
                    if let Some(text) = payload["message"].as_str() {
                        context = Some(said(text));
                    }
                }
                (Some("response_item"), Some("function_call" | "custom_tool_call")) => {
                    let input = match &payload["arguments"] {
                        Value::String(json) => serde_json::from_str(json).unwrap_or(Value::Null),
                        other => other.clone(),
                    };
                    context = Some(tool_action(&payload["name"], &input));
                }
                _ => {}
            }
        }
    }
    (searched, messages)
}

/// `rollout-*.jsonl` files below `dir`, at most `depth` folders down.
fn rollouts(dir: &Path, depth: usize, found: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() && depth > 0 {
            rollouts(&path, depth - 1, found);
        } else if name.starts_with("rollout-") && name.ends_with(".jsonl") {
            found.push(path);
        }
    }
}

/// Gemini CLI keeps chats in `~/.gemini/tmp/<folder>/chats/session-*.json` (one object
/// `{"sessionId", "projectHash", "messages": […]}`) or, in newer versions, `….jsonl` (that
/// header on the first line, then one message per line). `projectHash` is the SHA-256 of
/// the project's root path. A message is `{"id", "timestamp", "type": "user"|"gemini"|…,
/// "content", "toolCalls"?}`, its content a string or `[{"text"}]` parts.
/// Format: <https://github.com/google-gemini/gemini-cli/blob/main/packages/core/src/services/chatRecordingService.ts>
/// and `getProjectHash` in
/// <https://github.com/google-gemini/gemini-cli/blob/main/packages/core/src/utils/paths.ts>.
fn gemini(home: &Path, roots: &[String]) -> (Searched, Vec<UserMessage>) {
    let tmp = home.join(".gemini/tmp");
    let mut searched = Searched {
        agent: Agent::Gemini,
        path: tmp.clone(),
        exists: tmp.is_dir(),
        sessions: 0,
    };
    let hashes: Vec<String> = roots.iter().map(|r| sha256::hex(r.as_bytes())).collect();
    let mut messages = Vec::new();
    let mut folders: Vec<PathBuf> = fs::read_dir(&tmp)
        .map(|entries| entries.flatten().map(|e| e.path().join("chats")).collect())
        .unwrap_or_default();
    folders.sort();
    for folder in folders {
        let mut files = files_in(&folder, "json");
        files.extend(files_in(&folder, "jsonl"));
        for file in files {
            let records = if file.extension().is_some_and(|e| e == "jsonl") {
                lines(&file)
            } else {
                let Ok(text) = crate::limits::read_to_string(&file) else {
                    continue;
                };
                let Ok(mut whole) = serde_json::from_str::<Value>(&text) else {
                    continue;
                };
                let listed = whole["messages"].take();
                let mut records = vec![whole];
                records.extend(listed.as_array().cloned().unwrap_or_default());
                records
            };
            let Some(header) = records.iter().find(|r| r["projectHash"].is_string()) else {
                continue;
            };
            if !hashes.iter().any(|h| header["projectHash"] == h.as_str()) {
                continue;
            }
            searched.sessions += 1;
            let session = str_or(&header["sessionId"], &file_stem(&file));
            gemini_session(&records, &session, &mut messages);
        }
    }
    (searched, messages)
}

fn gemini_session(records: &[Value], session: &str, messages: &mut Vec<UserMessage>) {
    let mut context = None;
    for record in records {
        match record["type"].as_str() {
            Some("user") => {
                if let Some(text) = text_of(&record["content"]) {
                    messages.push(UserMessage {
                        agent: Agent::Gemini,
                        session: session.to_string(),
                        time: str_or(&record["timestamp"], ""),
                        text,
                        context: context.clone(),
                    });
                }
            }
            Some("gemini") => {
                let tool = record["toolCalls"]
                    .as_array()
                    .and_then(|calls| calls.last());
                context = match tool {
                    Some(call) => Some(tool_action(&call["name"], &call["args"])),
                    None => text_of(&record["content"]).map(|text| said(&text)),
                }
                .or(context.take());
            }
            _ => {}
        }
    }
}

/// The text of a string, a `{"type": "text", "text"}` block, or a list of blocks/parts.
fn text_of(value: &Value) -> Option<String> {
    let text = match value {
        Value::String(text) => text.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter(|b| b["type"].is_null() || b["type"] == "text")
            .filter_map(|b| b["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        Value::Object(_) if value["type"] == "text" => value["text"].as_str()?.to_string(),
        _ => return None,
    };
    (!text.trim().is_empty()).then_some(text)
}

/// "ran Bash: npm install" from a tool's name and input.
fn tool_action(name: &Value, input: &Value) -> String {
    let name = name.as_str().unwrap_or("a tool");
    let detail = [
        "command",
        "cmd",
        "file_path",
        "path",
        "pattern",
        "description",
    ]
    .iter()
    .find_map(|key| match &input[key] {
        Value::String(text) => Some(text.clone()),
        Value::Array(parts) => Some(
            parts
                .iter()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join(" "),
        ),
        _ => None,
    });
    match detail {
        Some(detail) => shorten(&format!("ran {name}: {detail}")),
        None => shorten(&format!("ran {name}")),
    }
}

fn said(text: &str) -> String {
    shorten(&format!("said: {text}"))
}

/// One line of at most 160 characters.
fn shorten(text: &str) -> String {
    crate::text::clipped(text, 160)
}

fn is_at_or_below(path: &str, root: &str) -> bool {
    !path.is_empty()
        && (path == root
            || path
                .strip_prefix(root)
                .is_some_and(|rest| rest.starts_with(std::path::MAIN_SEPARATOR)))
}

/// The files with `extension` directly in `dir`, sorted; none when it does not exist.
fn files_in(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == extension))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// The JSON lines of a file; lines that are not JSON are skipped.
fn lines(file: &Path) -> Vec<Value> {
    let Ok(text) = crate::limits::read_to_string(file) else {
        return Vec::new();
    };
    text.lines()
        .filter_map(|line| serde_json::from_str(line).ok())
        .collect()
}

fn file_stem(file: &Path) -> String {
    file.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn str_or(value: &Value, default: &str) -> String {
    value.as_str().unwrap_or(default).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_actions_and_shortening() {
        let input = serde_json::json!({"command": ["npm", "install"]});
        assert_eq!(
            tool_action(&Value::from("shell"), &input),
            "ran shell: npm install"
        );
        assert_eq!(shorten(&"a ".repeat(200)).chars().count(), 160);
        assert!(is_at_or_below("/r/sub", "/r"));
        assert!(!is_at_or_below("/rx", "/r"));
        assert!(is_injected("<command-name>/clear</command-name>"));
    }
}
