//! Reading the agents' local transcripts of one repository: the messages the user typed
//! (never tool results, never the agent's own words, never text the agent program or
//! autofix injected), each with the agent's last action before it. Read only; unreadable
//! files and lines are skipped, a missing folder is reported as such.
//!
//! Bounded: a transcript is read one line (one JSON record) at a time, and only the
//! messages the caller keeps (`keep`, the classifier) are held, so memory follows the
//! largest message, not the file. Below each agent's folder no symbolic link is followed
//! (files and folders alike) and only regular files are opened, so a link cannot lead
//! `reflect` out of the agents' folders, into a loop, or onto a device or a pipe.

use std::collections::HashMap;
use std::fs::{self, File};
use std::io::BufReader;
use std::path::{Path, PathBuf};

use serde::Deserialize as _;
use serde::de::{DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use super::injected;
use crate::export::hook::Agent;
use crate::report::digest;

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

/// Whether the caller keeps a message the user typed (its text, injected text dropped).
pub(crate) type Keep<'a> = &'a dyn Fn(&str) -> bool;

/// The user's messages in `agent`'s transcripts of the repository at `root` that `keep`
/// accepts.
pub(crate) fn read(
    agent: Agent,
    home: &Path,
    root: &Path,
    keep: Keep<'_>,
) -> (Searched, Vec<UserMessage>) {
    let root = Root::new(root);
    match agent {
        Agent::Claude => claude(home, &root, keep),
        Agent::Codex => codex(home, &root, keep),
        Agent::Gemini => gemini(home, &root, keep),
        Agent::Cursor | Agent::Copilot | Agent::Qwen => (
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

/// The repository's root, and whether a path an agent recorded (the `cwd` it was started
/// in) lies at or below it. Both sides are compared resolved: `repo/../other` is not in
/// the repository, and a link to it is.
struct Root {
    /// The root as given, then as resolved when that differs: what an agent may have
    /// recorded, encoded or hashed.
    spellings: Vec<String>,
    /// The resolved root.
    real: PathBuf,
    /// Each recorded path seen, and whether it is inside: a transcript repeats its `cwd` on
    /// every line.
    seen: std::cell::RefCell<HashMap<String, bool>>,
}

impl Root {
    fn new(root: &Path) -> Root {
        let mut spellings = vec![root.to_string_lossy().into_owned()];
        let real = fs::canonicalize(root).unwrap_or_else(|_| lexical(root));
        let resolved = real.to_string_lossy().into_owned();
        if !spellings.contains(&resolved) {
            spellings.push(resolved);
        }
        Root {
            spellings,
            real,
            seen: std::cell::RefCell::default(),
        }
    }

    /// Whether `recorded` (an absolute path) is the root or lies below it, once resolved:
    /// through the file system where it still exists, else by its `.` and `..` alone.
    fn holds(&self, recorded: &str) -> bool {
        if recorded.is_empty() || !Path::new(recorded).is_absolute() {
            return false;
        }
        if let Some(&known) = self.seen.borrow().get(recorded) {
            return known;
        }
        let path = Path::new(recorded);
        let resolved = fs::canonicalize(path).unwrap_or_else(|_| lexical(path));
        let inside = resolved.starts_with(&self.real);
        self.seen.borrow_mut().insert(recorded.to_string(), inside);
        inside
    }
}

/// `path` with its `.` and `..` resolved by their names alone (for a path that is gone).
fn lexical(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The text the user typed, autofix's and the agent's injected text dropped; `None` when
/// nothing is left or `keep` does not want it.
fn typed(text: &str, keep: Keep<'_>) -> Option<String> {
    let text = injected::strip(text);
    let text = text.trim();
    (!text.is_empty() && keep(text)).then(|| text.to_string())
}

/// Claude Code keeps one JSONL file per session in `~/.claude/projects/<folder>/`, the
/// folder being the path the session started in with every character other than a letter
/// or digit replaced by `-`; each line carries that path as `cwd`. Lines are `{"type":
/// "user"|"assistant"|…, "message": {"role", "content"}, "timestamp", "sessionId",
/// "isMeta"?, "isSidechain"?, "isCompactSummary"?}`; a user line's content is a string or
/// blocks, `tool_result` blocks being tool output.
/// Claude Code does not document the format; it is described in
/// <https://evilpiepirate.org/forge/kent/consciousness/src/commit/9c79d7a037136ea78a4cf37cbfb5214dcb5cf7f4/doc/claude-code-transcript-format.md>
/// and <https://github.com/DRMacIver/claude-reliability/blob/main/notes/transcript-format.md>.
fn claude(home: &Path, root: &Root, keep: Keep<'_>) -> (Searched, Vec<UserMessage>) {
    let projects = home.join(".claude/projects");
    let mut searched = Searched {
        agent: Agent::Claude,
        path: projects.clone(),
        exists: projects.is_dir(),
        sessions: 0,
    };
    let encoded: Vec<String> = root
        .spellings
        .iter()
        .map(|root| {
            root.chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
                .collect()
        })
        .collect();
    // The root's folder, and its subdirectories' (`<folder>-sub`): sessions started there.
    let mut folders: Vec<(PathBuf, bool)> = real_entries(&projects)
        .into_iter()
        .filter(|(_, kind)| *kind == Kind::Dir)
        .filter_map(|(path, _)| {
            let name = path.file_name()?.to_string_lossy().into_owned();
            let exact = encoded.contains(&name);
            let below = encoded.iter().any(|e| {
                name.strip_prefix(e.as_str())
                    .is_some_and(|rest| rest.starts_with('-'))
            });
            (exact || below).then_some((path, exact))
        })
        .collect();
    folders.sort();
    let mut messages = Vec::new();
    for (folder, exact) in folders {
        if exact {
            searched.path.clone_from(&folder);
        }
        for file in files_in(&folder, "jsonl") {
            let mut session = ClaudeSession::default();
            let stem = file_stem(&file);
            for_each_record(&file, |line| {
                session.line(&line, &stem, root, keep);
                true
            });
            // Folder names are ambiguous (`/a/b-c`, `/a/b/c`, `/a/b.c` and `/a/b_c` share
            // one), the lines' `cwd` is not: a transcript without one is no one's.
            if session.cwd_inside {
                searched.sessions += 1;
                messages.append(&mut session.kept);
            }
        }
    }
    (searched, messages)
}

/// One Claude Code session read so far.
#[derive(Default)]
struct ClaudeSession {
    cwd_inside: bool,
    context: Option<String>,
    kept: Vec<UserMessage>,
}

impl ClaudeSession {
    fn line(&mut self, line: &Value, stem: &str, root: &Root, keep: Keep<'_>) {
        if let Some(cwd) = line["cwd"].as_str() {
            self.cwd_inside |= root.holds(cwd);
        }
        let content = &line["message"]["content"];
        match line["type"].as_str() {
            Some("assistant") => {
                if let Some(action) = content.as_array().and_then(|b| b.last()) {
                    self.context = match action["type"].as_str() {
                        Some("tool_use") => Some(tool_action(&action["name"], &action["input"])),
                        _ => text_of(action).map(|text| said(&text)),
                    }
                    .or(self.context.take());
                }
            }
            Some("user")
                if line["isMeta"] != true
                    && line["isSidechain"] != true
                    && line["isCompactSummary"] != true =>
            {
                let is_tool_output = content
                    .as_array()
                    .is_some_and(|blocks| blocks.iter().any(|b| b["type"] == "tool_result"));
                let Some(text) = text_of(content).filter(|_| !is_tool_output) else {
                    return;
                };
                if is_injected(&text) {
                    return;
                }
                if let Some(text) = typed(&text, keep) {
                    self.kept.push(UserMessage {
                        agent: Agent::Claude,
                        session: str_or(&line["sessionId"], stem),
                        time: str_or(&line["timestamp"], ""),
                        text,
                        context: self.context.clone(),
                    });
                }
            }
            _ => {}
        }
    }
}

/// Text Claude Code writes as a user line itself: slash-command echoes, shell-mode
/// commands and their output, the compaction summary, interruptions.
fn is_injected(text: &str) -> bool {
    const PREFIXES: [&str; 9] = [
        "<command-name>",
        "<command-message>",
        "<local-command-stdout>",
        "<local-command-caveat>",
        "<bash-input>",
        "<bash-stdout>",
        "Caveat: ",
        "This session is being continued from a previous conversation",
        "[Request interrupted",
    ];
    PREFIXES.iter().any(|p| text.trim_start().starts_with(p))
}

/// Codex keeps sessions in `~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`. Each
/// line is `{"timestamp", "type", "payload"}`: the first, `session_meta`, carries `id` and
/// `cwd`. What the user typed is written, depending on the version, as
/// - an `event_msg` `{"type": "item_completed", "item": {"type": "UserMessage",
///   "content": [{"type": "text", "text"}]}}` (`EventMsg::ItemCompleted` with
///   `TurnItem::UserMessage`, current versions, e.g. 0.169);
/// - an `event_msg` `{"type": "user_message", "message"}` (`EventMsg::UserMessage`);
/// - a `response_item` `{"type": "message", "role": "user", "content": [{"type":
///   "input_text", "text"}]}`, which also holds what Codex injects itself (AGENTS.md,
///   `<environment_context>`, …).
///
/// The first of these a session has is read, so a message is never counted twice. The
/// agent speaks in `agent_message` events, `AgentMessage` items and assistant messages,
/// and acts in `function_call` items.
/// Format: `RolloutLine` and `EventMsg` in
/// <https://github.com/openai/codex/blob/main/codex-rs/protocol/src/protocol.rs>, `TurnItem`
/// in <https://github.com/openai/codex/blob/main/codex-rs/protocol/src/items.rs>,
/// described in <https://docs.rs/toolpath-codex/latest/toolpath_codex/types/index.html>.
fn codex(home: &Path, root: &Root, keep: Keep<'_>) -> (Searched, Vec<UserMessage>) {
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
        let mut session = CodexSession::default();
        let stem = file_stem(&file);
        for_each_record(&file, |line| session.line(&line, &stem, root, keep));
        if session.inside == Some(true) {
            searched.sessions += 1;
            messages.append(session.chosen());
        }
    }
    (searched, messages)
}

/// One Codex session read so far: what each of the three ways of writing a user message
/// kept, and how many messages each wrote.
#[derive(Default)]
struct CodexSession {
    inside: Option<bool>,
    id: Option<String>,
    context: Option<String>,
    /// Items, `user_message` events, `response_item` messages: (written, kept).
    sources: [(usize, Vec<UserMessage>); 3],
}

impl CodexSession {
    /// Reads one line; `false` once the session turns out to be another repository's.
    fn line(&mut self, line: &Value, stem: &str, root: &Root, keep: Keep<'_>) -> bool {
        let payload = &line["payload"];
        let user_text = match (line["type"].as_str(), payload["type"].as_str()) {
            (Some("session_meta"), _) => {
                let cwd = payload["cwd"].as_str().unwrap_or("");
                let inside = root.holds(cwd);
                self.inside = Some(inside);
                self.id = payload["id"].as_str().map(str::to_string);
                return inside;
            }
            (Some("event_msg"), Some("item_completed")) => match payload["item"]["type"].as_str() {
                Some("UserMessage") => text_of(&payload["item"]["content"]).map(|t| (0, t)),
                Some("AgentMessage") => {
                    if let Some(text) = text_of(&payload["item"]["content"]) {
                        self.context = Some(said(&text));
                    }
                    None
                }
                _ => None,
            },
            (Some("event_msg"), Some("user_message")) => {
                payload["message"].as_str().map(|t| (1, t.to_string()))
            }
            (Some("response_item"), Some("message")) if payload["role"] == "user" => {
                text_of(&payload["content"])
                    .filter(|text| !is_codex_injected(text))
                    .map(|t| (2, t))
            }
            (Some("response_item"), Some("message")) if payload["role"] == "assistant" => {
                if let Some(text) = text_of(&payload["content"]) {
                    self.context = Some(said(&text));
                }
                None
            }
            (Some("event_msg"), Some("agent_message")) => {
                if let Some(text) = payload["message"].as_str() {
                    self.context = Some(said(text));
                }
                None
            }
            (Some("response_item"), Some("function_call" | "custom_tool_call")) => {
                let input = match &payload["arguments"] {
                    Value::String(json) => serde_json::from_str(json).unwrap_or(Value::Null),
                    other => other.clone(),
                };
                self.context = Some(tool_action(&payload["name"], &input));
                None
            }
            _ => None,
        };
        if self.inside != Some(true) {
            // Lines before `session_meta`: nothing is known of the session yet.
            return true;
        }
        if let Some((source, text)) = user_text {
            self.sources[source].0 += 1;
            if let Some(text) = typed(&text, keep) {
                let session = self.id.clone().unwrap_or_else(|| stem.to_string());
                self.sources[source].1.push(UserMessage {
                    agent: Agent::Codex,
                    session,
                    time: str_or(&line["timestamp"], ""),
                    text,
                    context: self.context.clone(),
                });
            }
        }
        true
    }

    /// The kept messages of the first way of writing them the session used.
    fn chosen(&mut self) -> &mut Vec<UserMessage> {
        let at = self
            .sources
            .iter()
            .position(|(written, _)| *written > 0)
            .unwrap_or(0);
        &mut self.sources[at].1
    }
}

/// What Codex writes as a user message itself: the project's AGENTS.md, the environment,
/// the user's instructions file, skills, aborted-turn notes.
fn is_codex_injected(text: &str) -> bool {
    let text = text.trim_start();
    text.starts_with("# AGENTS.md instructions for ")
        || (text.starts_with('<')
            && [
                "<user_instructions>",
                "<environment_context>",
                "<permissions instructions>",
                "<skill>",
                "<turn_aborted>",
                "<user_shell_command>",
                "<codex_internal_context",
            ]
            .iter()
            .any(|tag| text.starts_with(tag)))
}

/// `rollout-*.jsonl` files below `dir`, at most `depth` folders down; links are not
/// followed.
fn rollouts(dir: &Path, depth: usize, found: &mut Vec<PathBuf>) {
    for (path, kind) in real_entries(dir) {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        match kind {
            Kind::Dir if depth > 0 => rollouts(&path, depth - 1, found),
            Kind::File if name.starts_with("rollout-") && name.ends_with(".jsonl") => {
                found.push(path);
            }
            _ => {}
        }
    }
}

/// Gemini CLI keeps chats in `~/.gemini/tmp/<folder>/chats/session-*.jsonl`: a header line
/// `{"sessionId", "projectHash", "startTime", …}`, then one record per line: a message
/// `{"id", "timestamp", "type": "user"|"gemini"|"info"|…, "content", "displayContent"?,
/// "toolCalls"?}` (written again, whole, when it changes), a metadata update `{"$set"}` or
/// a rewind `{"$rewindTo"}`. Older versions wrote one `….json` object with the messages
/// in `messages`. `projectHash` is the SHA-256 of the project's root, the folder Gemini CLI
/// was started in (`process.cwd()`), so a session started in a subfolder of the
/// repository has that subfolder's hash. The folder is named by the hash (older
/// versions) or by a short name from `~/.gemini/projects.json` (current ones), which holds
/// a `.project_root` file with the project's path: a chat is the repository's when its
/// hash is the root's, or when its folder's `.project_root` names the root or a folder
/// below it and its hash is that path's. A user message starting with `/` or `?` is a
/// command, and `<session_context>`/`<hook_context>` text is injected
/// (`isIgnoredUserContent`).
/// Format: `chatRecordingService.ts` and `chatRecordingTypes.ts` in
/// <https://github.com/google-gemini/gemini-cli/tree/main/packages/core/src/services>,
/// `isIgnoredUserContent` in
/// <https://github.com/google-gemini/gemini-cli/blob/main/packages/core/src/utils/sessionUtils.ts>,
/// `getProjectHash` in
/// <https://github.com/google-gemini/gemini-cli/blob/main/packages/core/src/utils/paths.ts>,
/// the folders and `.project_root` in `storage.ts` and `projectRegistry.ts` of
/// <https://github.com/google-gemini/gemini-cli/tree/main/packages/core/src/config>, the
/// root as the working folder (`targetDir: cwd`) in
/// <https://github.com/google-gemini/gemini-cli/blob/main/packages/cli/src/config/config.ts>.
fn gemini(home: &Path, root: &Root, keep: Keep<'_>) -> (Searched, Vec<UserMessage>) {
    let tmp = home.join(".gemini/tmp");
    let mut searched = Searched {
        agent: Agent::Gemini,
        path: tmp.clone(),
        exists: tmp.is_dir(),
        sessions: 0,
    };
    let root_hashes: Vec<String> = root
        .spellings
        .iter()
        .map(|r| digest::hex(r.as_bytes()))
        .collect();
    let mut messages = Vec::new();
    let mut folders: Vec<PathBuf> = real_entries(&tmp)
        .into_iter()
        .filter(|(path, kind)| {
            *kind == Kind::Dir && kind_of(&path.join("chats")) == Some(Kind::Dir)
        })
        .map(|(path, _)| path)
        .collect();
    folders.sort();
    for folder in folders {
        let mut hashes = root_hashes.clone();
        // A subfolder's project: its own hash, when its marker says it is ours.
        if let Some(project) = project_root(&folder).filter(|project| root.holds(project)) {
            hashes.push(digest::hex(project.as_bytes()));
        }
        let chats = folder.join("chats");
        let mut files = files_in(&chats, "json");
        files.extend(files_in(&chats, "jsonl"));
        for file in files {
            let mut session = GeminiSession::new(&file_stem(&file));
            if file.extension().is_some_and(|e| e == "jsonl") {
                for_each_record(&file, |record| session.record(&record, &hashes, keep));
            } else {
                legacy_chat(&file, &mut session, &hashes, keep);
            }
            if session.inside == Some(true) {
                searched.sessions += 1;
                messages.extend(session.kept.into_iter().flatten());
            }
        }
    }
    (searched, messages)
}

/// The project path a Gemini CLI folder's `.project_root` holds (a short file; anything
/// else counts as none).
fn project_root(folder: &Path) -> Option<String> {
    use std::io::Read as _;
    let mut text = String::new();
    open_regular(&folder.join(".project_root"))?
        .take(4096)
        .read_to_string(&mut text)
        .ok()?;
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

/// One Gemini CLI chat read so far.
struct GeminiSession {
    inside: Option<bool>,
    session: String,
    context: Option<String>,
    kept: Vec<Option<UserMessage>>,
    /// Where each message id's kept message is, so a message written again replaces it.
    slots: HashMap<String, usize>,
}

impl GeminiSession {
    fn new(stem: &str) -> Self {
        GeminiSession {
            inside: None,
            session: stem.to_string(),
            context: None,
            kept: Vec::new(),
            slots: HashMap::new(),
        }
    }

    /// Reads one record; `false` once the chat turns out to be another project's.
    fn record(&mut self, record: &Value, hashes: &[String], keep: Keep<'_>) -> bool {
        if let Some(hash) = record["projectHash"].as_str() {
            let inside = hashes.iter().any(|h| h == hash);
            self.inside = Some(inside);
            if let Some(id) = record["sessionId"].as_str() {
                self.session = id.to_string();
            }
            return inside;
        }
        self.message(record, keep);
        true
    }

    fn message(&mut self, record: &Value, keep: Keep<'_>) {
        match record["type"].as_str() {
            Some("user") => {
                let shown = match &record["displayContent"] {
                    Value::Null => &record["content"],
                    display => display,
                };
                let text = text_of(shown).and_then(|text| {
                    let trimmed = text.trim_start();
                    let command = trimmed.starts_with('/') || trimmed.starts_with('?');
                    let context = trimmed.starts_with("<session_context>");
                    (!command && !context).then_some(text)
                });
                let message = text
                    .and_then(|text| typed(&text, keep))
                    .map(|text| UserMessage {
                        agent: Agent::Gemini,
                        session: self.session.clone(),
                        time: str_or(&record["timestamp"], ""),
                        text,
                        context: self.context.clone(),
                    });
                match record["id"].as_str().and_then(|id| self.slots.get(id)) {
                    Some(&slot) => self.kept[slot] = message,
                    None => {
                        if let Some(id) = record["id"].as_str() {
                            self.slots.insert(id.to_string(), self.kept.len());
                        }
                        self.kept.push(message);
                    }
                }
            }
            Some("gemini") => {
                let tool = record["toolCalls"]
                    .as_array()
                    .and_then(|calls| calls.last());
                self.context = match tool {
                    Some(call) => Some(tool_action(&call["name"], &call["args"])),
                    None => text_of(&record["content"]).map(|text| said(&text)),
                }
                .or(self.context.take());
            }
            _ => {}
        }
    }
}

/// Reads an older Gemini CLI chat, one object `{"sessionId", "projectHash", "messages":
/// […]}`, one message at a time: the messages are kept (those `keep` wants) until the
/// project hash, wherever it stands in the object, says whether the chat is this
/// project's.
fn legacy_chat(file: &Path, session: &mut GeminiSession, hashes: &[String], keep: Keep<'_>) {
    struct Chat<'s, 'k> {
        session: &'s mut GeminiSession,
        keep: Keep<'k>,
        hash: Option<String>,
    }
    impl<'de> Visitor<'de> for &mut Chat<'_, '_> {
        type Value = ();
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a Gemini CLI chat object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            while let Some(key) = map.next_key::<String>()? {
                match key.as_str() {
                    "projectHash" => self.hash = map.next_value::<Option<String>>()?,
                    "sessionId" => {
                        if let Some(id) = map.next_value::<Option<String>>()? {
                            self.session.session = id;
                        }
                    }
                    "messages" => map.next_value_seed(Messages(self))?,
                    _ => {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
            }
            Ok(())
        }
    }
    struct Messages<'c, 's, 'k>(&'c mut Chat<'s, 'k>);
    impl<'de> DeserializeSeed<'de> for Messages<'_, '_, '_> {
        type Value = ();
        fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
            d.deserialize_seq(self)
        }
    }
    impl<'de> Visitor<'de> for Messages<'_, '_, '_> {
        type Value = ();
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a list of messages")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            while let Some(message) = seq.next_element_seed(Shallow(2))? {
                self.0.session.message(&message, self.0.keep);
            }
            Ok(())
        }
    }
    let Some(reader) = open_regular(file) else {
        return;
    };
    let mut chat = Chat {
        session,
        keep,
        hash: None,
    };
    let mut deserializer = serde_json::Deserializer::from_reader(BufReader::new(reader));
    if serde::Deserializer::deserialize_map(&mut deserializer, &mut chat).is_err() {
        return;
    }
    let inside = chat.hash.is_some_and(|h| hashes.contains(&h));
    chat.session.inside = Some(inside);
}

/// How deep a record's values are kept: what autofix reads lies within a few levels, and
/// serde_json refuses to build a value nested past 128, which dropped a whole line (its
/// message with it) for one deep field beside it (a tool's output, say).
const KEPT_DEPTH: usize = 64;

/// A JSON value read as [`Value`], except that what lies deeper than [`KEPT_DEPTH`] is
/// skipped (serde_json skips without recursing) and reads as `null`. The number is this
/// value's depth.
struct Shallow(usize);

impl<'de> DeserializeSeed<'de> for Shallow {
    type Value = Value;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        if self.0 >= KEPT_DEPTH {
            IgnoredAny::deserialize(d)?;
            return Ok(Value::Null);
        }
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Shallow {
    type Value = Value;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(Shallow(self.0 + 1))? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut members = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let value = map.next_value_seed(Shallow(self.0 + 1))?;
            members.insert(key, value);
        }
        Ok(Value::Object(members))
    }
}

/// Block types that hold text: Claude Code's and Gemini CLI's `text` (or none), Codex's
/// `input_text`/`output_text` (response items) and `Text` (`AgentMessage` items).
fn is_text_block(block: &Value) -> bool {
    block["type"].is_null()
        || ["text", "input_text", "output_text", "Text"]
            .iter()
            .any(|kind| block["type"] == *kind)
}

/// The text of a string, a text block, or a list of blocks/parts.
fn text_of(value: &Value) -> Option<String> {
    let text = match value {
        Value::String(text) => text.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter(|b| is_text_block(b))
            .filter_map(|b| b["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        Value::Object(_) if is_text_block(value) => value["text"].as_str()?.to_string(),
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
    crate::report::text::clipped(text, 160)
}

/// What a folder entry is, links not followed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Dir,
    File,
    /// A link, a device, a pipe, a socket: never read.
    Other,
}

fn kind_of(path: &Path) -> Option<Kind> {
    let kind = fs::symlink_metadata(path).ok()?.file_type();
    Some(if kind.is_dir() {
        Kind::Dir
    } else if kind.is_file() {
        Kind::File
    } else {
        Kind::Other
    })
}

/// The entries of `dir` with their kind as they are (a link is `Other`, whatever it points
/// to); none when it cannot be read.
fn real_entries(dir: &Path) -> Vec<(PathBuf, Kind)> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| {
            let kind = entry.file_type().ok()?;
            let kind = if kind.is_dir() {
                Kind::Dir
            } else if kind.is_file() {
                Kind::File
            } else {
                Kind::Other
            };
            Some((entry.path(), kind))
        })
        .collect()
}

/// The regular files with `extension` directly in `dir`, sorted; links are left out.
fn files_in(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = real_entries(dir)
        .into_iter()
        .filter(|(p, kind)| *kind == Kind::File && p.extension().is_some_and(|e| e == extension))
        .map(|(p, _)| p)
        .collect();
    files.sort();
    files
}

/// `file` opened for reading if it is a regular file, not a link.
fn open_regular(file: &Path) -> Option<File> {
    if kind_of(file)? != Kind::File {
        return None;
    }
    crate::io::limits::open_regular(file).ok()
}

/// Calls `each` with every line of `file` that is JSON, in order, until it returns
/// `false`. One line is held at a time; a line longer than the file cap
/// (`AUTOFIX_MAX_FILE_BYTES`, 64 MiB by default) is skipped without being held.
fn for_each_record(file: &Path, mut each: impl FnMut(Value) -> bool) {
    let Some(file) = open_regular(file) else {
        return;
    };
    let cap = usize::try_from(
        crate::io::limits::max_file_bytes().unwrap_or(crate::io::limits::DEFAULT_MAX_FILE_BYTES),
    )
    .unwrap_or(usize::MAX);
    crate::io::limits::for_each_line(BufReader::with_capacity(64 * 1024, file), cap, |line| {
        let mut deserializer = serde_json::Deserializer::from_slice(line);
        match Shallow(0).deserialize(&mut deserializer) {
            Ok(value) if deserializer.end().is_ok() => each(value),
            _ => true,
        }
    });
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
        assert_eq!(lexical(Path::new("/r/a/../b/./c")), Path::new("/r/b/c"));
        let root = Root::new(Path::new("/nowhere/r"));
        assert!(root.holds("/nowhere/r/sub") && root.holds("/nowhere/r"));
        assert!(!root.holds("/nowhere/rx") && !root.holds("/nowhere/r/../other"));
        assert!(!root.holds("r/sub") && !root.holds(""));
        assert!(is_injected("<command-name>/clear</command-name>"));
    }
}
