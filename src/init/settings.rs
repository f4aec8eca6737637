//! The hooks merged into each agent's settings file: one session-start entry running
//! `autofix rules --format hook --agent <a>` and, for the agents with a prompt-submit hook,
//! one entry running `autofix hook user-prompt --agent <a>`; each replaces an older entry
//! of ours, and every other key and hook keeps its order. A file that is not valid JSON is
//! refused.

use std::fmt;

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::value::RawValue;

use crate::capture::prompt;
use crate::export::hook::Agent;
use crate::report::text::JsonKind;

/// A JSON value that keeps the order of object keys (and repeated keys), so a settings
/// file is rewritten with its members where they were.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Json {
    Null,
    Bool(bool),
    /// As written (`1e2`, a 30-digit integer): never through a float.
    Number(String),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    fn object(members: Vec<(&str, Json)>) -> Json {
        Json::Object(
            members
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
        )
    }

    fn string(text: &str) -> Json {
        Json::String(text.to_string())
    }

    fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The member `key` of an object, inserted (at the end, or the front) when missing.
    fn entry(&mut self, key: &str, default: Json, front: bool) -> &mut Json {
        let Json::Object(members) = self else {
            unreachable!("callers check for an object");
        };
        let index = match members.iter().position(|(k, _)| k == key) {
            Some(index) => index,
            None if front => {
                members.insert(0, (key.to_string(), default));
                0
            }
            None => {
                members.push((key.to_string(), default));
                members.len() - 1
            }
        };
        &mut members[index].1
    }

    fn kind(&self) -> JsonKind {
        match self {
            Json::Null => JsonKind::Null,
            Json::Bool(_) => JsonKind::Boolean,
            Json::Number(_) => JsonKind::Number,
            Json::String(_) => JsonKind::String,
            Json::Array(_) => JsonKind::Array,
            Json::Object(_) => JsonKind::Object,
        }
    }
}

impl Serialize for Json {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Null => serializer.serialize_unit(),
            Json::Bool(b) => serializer.serialize_bool(*b),
            Json::Number(n) => RawValue::from_string(n.clone())
                .map_err(serde::ser::Error::custom)?
                .serialize(serializer),
            Json::String(s) => serializer.serialize_str(s),
            Json::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Json::Object(members) => {
                let mut map = serializer.serialize_map(Some(members.len()))?;
                for (key, value) in members {
                    map.serialize_entry(key, value)?;
                }
                map.end()
            }
        }
    }
}

impl Json {
    /// Parses `text` keeping every number's spelling: each value is first taken as raw
    /// JSON (serde_json validates it), then read by its first byte.
    fn parse(text: &str) -> Result<Json, serde_json::Error> {
        let raw: &RawValue = serde_json::from_str(text)?;
        Json::from_raw(raw.get())
    }

    fn from_raw(raw: &str) -> Result<Json, serde_json::Error> {
        Ok(match raw.as_bytes().first() {
            Some(b'{') => {
                let Members(members) = serde_json::from_str(raw)?;
                Json::Object(
                    members
                        .into_iter()
                        .map(|(key, value)| Ok((key, Json::from_raw(value.get())?)))
                        .collect::<Result<_, serde_json::Error>>()?,
                )
            }
            Some(b'[') => Json::Array(
                serde_json::from_str::<Vec<&RawValue>>(raw)?
                    .into_iter()
                    .map(|item| Json::from_raw(item.get()))
                    .collect::<Result<_, _>>()?,
            ),
            Some(b'"') => Json::String(serde_json::from_str(raw)?),
            Some(b't' | b'f') => Json::Bool(serde_json::from_str(raw)?),
            Some(b'n') => Json::Null,
            _ => Json::Number(raw.to_string()),
        })
    }
}

/// An object's members in order, repeated keys included, each value still raw.
struct Members<'a>(Vec<(String, &'a RawValue)>);

impl<'de: 'a, 'a> Deserialize<'de> for Members<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Members<'a>, D::Error> {
        struct MembersVisitor<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for MembersVisitor<'a> {
            type Value = Members<'a>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Members<'a>, A::Error> {
                let mut members = Vec::new();
                while let Some((key, value)) = map.next_entry::<String, &'de RawValue>()? {
                    members.push((key, value));
                }
                Ok(Members(members))
            }
        }
        deserializer.deserialize_map(MembersVisitor(std::marker::PhantomData))
    }
}

/// The first key repeated within one object of `text`, with the line of its second
/// occurrence.
fn repeated_key(text: &str) -> Option<(String, usize)> {
    let raw: &RawValue = serde_json::from_str(text).ok()?;
    repeated_in(text, raw.get())
}

fn repeated_in<'a>(text: &str, raw: &'a str) -> Option<(String, usize)> {
    let values: Vec<&'a RawValue> = match raw.as_bytes().first() {
        Some(b'{') => {
            let Members(members) = serde_json::from_str(raw).ok()?;
            for (at, (key, value)) in members.iter().enumerate() {
                if members[..at].iter().any(|(seen, _)| seen == key) {
                    return Some((key.clone(), line_of(text, value.get())));
                }
            }
            members.into_iter().map(|(_, value)| value).collect()
        }
        Some(b'[') => serde_json::from_str(raw).ok()?,
        _ => return None,
    };
    values
        .into_iter()
        .find_map(|value| repeated_in(text, value.get()))
}

/// The line in `text` where `slice`, a part of it, starts.
fn line_of(text: &str, slice: &str) -> usize {
    let offset = (slice.as_ptr() as usize)
        .checked_sub(text.as_ptr() as usize)
        .filter(|&offset| offset <= text.len())
        .unwrap_or(0);
    text[..offset].matches('\n').count() + 1
}

/// Seconds for Claude Code, Codex and Copilot CLI, milliseconds for Gemini CLI and Qwen
/// Code.
const TIMEOUT_SECONDS: u64 = 10;

/// The hooks autofix installs: the rules at session start, the correction reminder when
/// a prompt is submitted, and (Claude Code, Codex, Gemini CLI) the rules' checks after a
/// tool wrote a file, with the reminder when a tool call failed on a wrong assumption
/// (Claude Code reports failures on an event of their own: `Failure`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    SessionStart,
    Prompt,
    Edit,
    Failure,
}

/// Every kind, in the order the settings list them.
const KINDS: [Kind; 4] = [Kind::SessionStart, Kind::Prompt, Kind::Edit, Kind::Failure];

impl Kind {
    /// The event's key in `agent`'s settings; `None` when the agent has no such hook.
    fn event(self, agent: Agent) -> Option<&'static str> {
        match (self, agent) {
            (Kind::SessionStart, Agent::Cursor | Agent::Copilot) => Some("sessionStart"),
            (Kind::SessionStart, _) => Some("SessionStart"),
            (Kind::Prompt, agent) => prompt::event(agent),
            // <https://code.claude.com/docs/en/hooks#posttooluse>,
            // <https://developers.openai.com/codex/hooks>
            (Kind::Edit, Agent::Claude | Agent::Codex) => Some("PostToolUse"),
            // <https://github.com/google-gemini/gemini-cli/blob/main/docs/hooks/reference.md#aftertool>
            (Kind::Edit, Agent::Gemini) => Some("AfterTool"),
            // <https://code.claude.com/docs/en/hooks#posttoolusefailure>
            (Kind::Failure, Agent::Claude) => Some("PostToolUseFailure"),
            (Kind::Edit | Kind::Failure, _) => None,
        }
    }

    /// The tools a grouped hook fires for (the `matcher`, a regular expression over the
    /// tool's name); `None`: every tool, or every event.
    fn matcher(self, agent: Agent) -> Option<&'static str> {
        match (self, agent) {
            (Kind::Edit, Agent::Claude) => Some("Write|Edit|MultiEdit"),
            // Codex's file edits are `apply_patch`, its shell calls `Bash`
            // (<https://developers.openai.com/codex/hooks>), but Codex 0.169.0 ran no hook of
            // the matcher `apply_patch|Bash` for a `Bash` call: every tool, then.
            (Kind::Edit, Agent::Codex) => None,
            // Gemini CLI's tools: <https://github.com/google-gemini/gemini-cli/blob/main/docs/reference/tools.md>.
            (Kind::Edit, Agent::Gemini) => Some("write_file|replace|run_shell_command|read_file"),
            _ => None,
        }
    }

    fn command(self, agent: Agent) -> String {
        match self {
            Kind::SessionStart => agent.command(),
            Kind::Prompt => prompt::command(agent),
            Kind::Edit | Kind::Failure => {
                format!("autofix hook post-tool --agent {}", agent.as_str())
            }
        }
    }

    /// Whether a hook handler is this hook of ours: its command is the one autofix writes
    /// for some agent, word for word, perhaps with options of the user's after it
    /// (`… --agent claude --budget 2000`). A command that merely mentions ours (`echo
    /// autofix rules --format hook`) is the user's.
    fn is_ours(self, handler: &Json) -> bool {
        self.ours_with_options(handler).is_some()
    }

    /// For a handler of ours, whether the user added options to the command (kept as they
    /// are: `init` replaces only an entry that is exactly an older one of ours).
    fn ours_with_options(self, handler: &Json) -> Option<bool> {
        // Copilot CLI names the Unix command `bash`.
        let Some(Json::String(command)) = handler.get("command").or_else(|| handler.get("bash"))
        else {
            return None;
        };
        let words: Vec<&str> = command.split_whitespace().collect();
        Agent::ALL.iter().find_map(|&agent| {
            let command = self.command(agent);
            let ours: Vec<&str> = command.split_whitespace().collect();
            let extra = words.strip_prefix(ours.as_slice())?;
            extra
                .first()
                .is_none_or(|word| word.starts_with("--"))
                .then_some(!extra.is_empty())
        })
    }

    /// Gemini CLI shows a hook's name; each of ours has its own.
    fn gemini_name(self) -> &'static str {
        match self {
            Kind::SessionStart => "autofix-rules",
            Kind::Prompt => "autofix-corrections",
            Kind::Edit | Kind::Failure => "autofix-checks",
        }
    }
}

/// The events autofix hooks for `agent`, as the report names them.
pub(crate) fn events(agent: Agent) -> String {
    let events: Vec<&str> = KINDS.iter().filter_map(|kind| kind.event(agent)).collect();
    match events.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => events.join(""),
    }
}

/// Our hook handler for `agent`, in that agent's format.
fn handler(agent: Agent, kind: Kind) -> Json {
    let command = Json::String(kind.command(agent));
    match agent {
        Agent::Cursor => Json::object(vec![("command", command)]),
        // <https://docs.github.com/en/copilot/reference/copilot-cli-reference/cli-hooks-reference>
        Agent::Copilot => Json::object(vec![
            ("type", Json::string("command")),
            ("bash", command),
            ("timeoutSec", Json::Number(TIMEOUT_SECONDS.to_string())),
        ]),
        Agent::Gemini | Agent::Qwen => Json::object(vec![
            ("name", Json::string(kind.gemini_name())),
            ("type", Json::string("command")),
            ("command", command),
            (
                "timeout",
                Json::Number((TIMEOUT_SECONDS * 1000).to_string()),
            ),
        ]),
        Agent::Claude | Agent::Codex => Json::object(vec![
            ("type", Json::string("command")),
            ("command", command),
            ("timeout", Json::Number(TIMEOUT_SECONDS.to_string())),
        ]),
    }
}

/// Why a settings file cannot be merged; it is left unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Invalid {
    pub line: Option<usize>,
    pub message: String,
}

/// The settings text with our hook merged in; `Ok(None)` when it is already there exactly
/// (nothing to write). `existing` is `None` for a file that does not exist.
pub(crate) fn merge(agent: Agent, existing: Option<&str>) -> Result<Option<String>, Invalid> {
    let original = match existing.map(|s| s.trim_start_matches('\u{feff}')) {
        None => None,
        Some(text) if text.trim().is_empty() => Some(Json::Object(Vec::new())),
        Some(text) => Some(Json::parse(text).map_err(|error| Invalid {
            line: Some(error.line()),
            message: format!("not valid JSON ({error})"),
        })?),
    };
    let trimmed = existing.map(|s| s.trim_start_matches('\u{feff}'));
    if let Some((key, line)) = trimmed.and_then(repeated_key) {
        return Err(Invalid {
            line: Some(line),
            message: format!(
                "the key `{key}` appears twice in one object (again at line {line}); JSON \
                 readers keep only one of them, so autofix will not guess which"
            ),
        });
    }
    let mut settings = original.clone().unwrap_or_else(|| Json::Object(Vec::new()));
    let shape = |what: &str, found: &Json, expected: &str| Invalid {
        line: None,
        message: format!("{what} is {}, not {expected}", found.kind().name()),
    };
    if !matches!(settings, Json::Object(_)) {
        return Err(shape("the top level", &settings, "an object"));
    }
    if matches!(agent, Agent::Cursor | Agent::Copilot) && original.is_none() {
        settings.entry("version", Json::Number("1".to_string()), true);
    }
    let hooks = settings.entry("hooks", Json::Object(Vec::new()), false);
    if !matches!(hooks, Json::Object(_)) {
        return Err(shape("`hooks`", hooks, "an object"));
    }
    for kind in KINDS {
        let Some(event) = kind.event(agent) else {
            continue;
        };
        let list = hooks.entry(event, Json::Array(Vec::new()), false);
        let Json::Array(entries) = list else {
            return Err(shape(&format!("`hooks.{event}`"), list, "an array"));
        };
        if matches!(agent, Agent::Cursor | Agent::Copilot) {
            merge_flat(entries, handler(agent, kind), kind);
        } else {
            merge_grouped(entries, handler(agent, kind), kind, kind.matcher(agent));
        }
    }
    if original.as_ref() == Some(&settings) {
        return Ok(None);
    }
    // The file's own indentation, BOM and line endings come back.
    let indent = existing.and_then(indentation).unwrap_or("  ");
    let mut buffer = Vec::new();
    let formatter = serde_json::ser::PrettyFormatter::with_indent(indent.as_bytes());
    settings
        .serialize(&mut serde_json::Serializer::with_formatter(
            &mut buffer,
            formatter,
        ))
        .expect("JSON values serialise");
    let mut text = String::from_utf8(buffer).expect("serde_json writes UTF-8");
    text.push('\n');
    if let Some(existing) = existing {
        if existing.contains("\r\n") {
            text = text.replace('\n', "\r\n");
        }
        if existing.starts_with('\u{feff}') {
            text.insert(0, '\u{feff}');
        }
    }
    Ok(Some(text))
}

/// The indentation of a pretty-printed file: the leading whitespace of its first indented
/// line (spaces or tabs only).
fn indentation(text: &str) -> Option<&str> {
    text.lines().find_map(|line| {
        let content = line.trim_start_matches([' ', '\t']);
        let indent = &line[..line.len() - content.len()];
        (!indent.is_empty() && !content.is_empty()).then_some(indent)
    })
}

/// Cursor: `sessionStart` is a list of handlers.
fn merge_flat(entries: &mut Vec<Json>, ours: Json, kind: Kind) {
    let mut placed = false;
    entries.retain_mut(|entry| {
        if !kind.is_ours(entry) {
            return true;
        }
        if placed {
            return false;
        }
        placed = true;
        if kind.ours_with_options(entry) != Some(true) {
            *entry = ours.clone();
        }
        true
    });
    if !placed {
        entries.push(ours);
    }
}

/// Claude Code, Codex, Gemini CLI: `SessionStart` is a list of groups
/// (`{"matcher"?, "hooks": [handler, ...]}`).
fn merge_grouped(entries: &mut Vec<Json>, ours: Json, kind: Kind, matcher: Option<&str>) {
    let mut placed = false;
    for group in entries.iter_mut() {
        let Json::Object(members) = group else {
            continue;
        };
        let Some((_, Json::Array(handlers))) = members.iter_mut().find(|(k, _)| k == "hooks")
        else {
            continue;
        };
        handlers.retain_mut(|handler| {
            if !kind.is_ours(handler) {
                return true;
            }
            if placed {
                return false;
            }
            placed = true;
            if kind.ours_with_options(handler) != Some(true) {
                *handler = ours.clone();
            }
            true
        });
    }
    // A group left empty by removing a second copy of ours goes too.
    entries.retain(|group| !matches!(group.get("hooks"), Some(Json::Array(h)) if h.is_empty()));
    if !placed {
        let mut group = Vec::new();
        if let Some(matcher) = matcher {
            group.push(("matcher", Json::string(matcher)));
        }
        group.push(("hooks", Json::Array(vec![ours])));
        entries.push(Json::object(group));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_bom_and_line_endings_survive_a_merge() {
        let existing = "\u{feff}{\r\n  \"big\": 123456789012345678901234567890,\r\n  \"e\": 1e2,\r\n  \"f\": -0.50\r\n}\r\n";
        let merged = merge(Agent::Claude, Some(existing)).unwrap().unwrap();
        assert!(merged.starts_with('\u{feff}'));
        assert!(merged.contains("\"big\": 123456789012345678901234567890,\r\n"));
        assert!(merged.contains("\"e\": 1e2,\r\n"));
        assert!(merged.contains("\"f\": -0.50,\r\n"));
        assert!(!merged.replace("\r\n", "").contains('\n'));
        let tabs = merge(Agent::Codex, Some("{\n\t\"model\": \"x\"\n}\n"))
            .unwrap()
            .unwrap();
        assert!(
            tabs.starts_with("{\n\t\"model\": \"x\",\n\t\"hooks\": {\n\t\t"),
            "{tabs}"
        );
        // Merging again finds our entry and changes nothing.
        assert_eq!(merge(Agent::Claude, Some(&merged)).unwrap(), None);
    }

    #[test]
    fn creates_the_documented_shapes() {
        let claude = merge(Agent::Claude, None).unwrap().unwrap();
        assert_eq!(
            claude,
            r#"{
  "hooks": {
    "SessionStart": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "autofix rules --format hook --agent claude",
            "timeout": 10
          }
        ]
      }
    ],
    "UserPromptSubmit": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "autofix hook user-prompt --agent claude",
            "timeout": 10
          }
        ]
      }
    ],
    "PostToolUse": [
      {
        "matcher": "Write|Edit|MultiEdit",
        "hooks": [
          {
            "type": "command",
            "command": "autofix hook post-tool --agent claude",
            "timeout": 10
          }
        ]
      }
    ],
    "PostToolUseFailure": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "autofix hook post-tool --agent claude",
            "timeout": 10
          }
        ]
      }
    ]
  }
}
"#
        );
        let cursor = merge(Agent::Cursor, None).unwrap().unwrap();
        let value: serde_json::Value = serde_json::from_str(&cursor).unwrap();
        assert_eq!(
            value,
            serde_json::json!({"version": 1, "hooks": {"sessionStart": [
                {"command": "autofix rules --format hook --agent cursor"}]}})
        );
        assert!(cursor.starts_with("{\n  \"version\": 1,"));
        let gemini = merge(Agent::Gemini, None).unwrap().unwrap();
        assert!(gemini.contains("\"timeout\": 10000"));
        let gemini: serde_json::Value = serde_json::from_str(&gemini).unwrap();
        assert_eq!(
            gemini["hooks"]["BeforeAgent"][0]["hooks"][0]["command"],
            "autofix hook user-prompt --agent gemini"
        );
        assert_eq!(
            gemini["hooks"]["AfterTool"][0]["matcher"],
            "write_file|replace|run_shell_command|read_file"
        );
        assert_eq!(
            gemini["hooks"]["AfterTool"][0]["hooks"][0]["command"],
            "autofix hook post-tool --agent gemini"
        );
        let codex: serde_json::Value =
            serde_json::from_str(&merge(Agent::Codex, None).unwrap().unwrap()).unwrap();
        assert_eq!(
            codex["hooks"]["UserPromptSubmit"][0]["hooks"][0]["command"],
            "autofix hook user-prompt --agent codex"
        );
        assert!(codex["hooks"]["PostToolUse"][0].get("matcher").is_none());
        assert_eq!(
            codex["hooks"]["PostToolUse"][0]["hooks"][0]["command"],
            "autofix hook post-tool --agent codex"
        );
        assert_eq!(events(Agent::Cursor), "sessionStart");
        assert_eq!(
            events(Agent::Claude),
            "SessionStart, UserPromptSubmit, PostToolUse and PostToolUseFailure"
        );
    }

    #[test]
    fn keeps_other_keys_and_hooks_and_replaces_ours() {
        let existing = r#"{"z": 1, "hooks": {"SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "echo hi"}, {"type": "command", "command": "autofix rules --format hook --agent claude", "timeout": 5}]}], "Stop": []}, "a": [1.5, null]}"#;
        let merged = merge(Agent::Claude, Some(existing)).unwrap().unwrap();
        let value: serde_json::Value = serde_json::from_str(&merged).unwrap();
        let handlers = &value["hooks"]["SessionStart"][0]["hooks"];
        assert_eq!(handlers[0]["command"], "echo hi");
        assert_eq!(
            handlers[1]["command"],
            "autofix rules --format hook --agent claude"
        );
        assert_eq!(value["hooks"]["SessionStart"].as_array().unwrap().len(), 1);
        assert_eq!(value["a"][0], 1.5);
        // Key order is kept.
        assert!(merged.find("\"z\"").unwrap() < merged.find("\"hooks\"").unwrap());
        assert!(merged.find("\"hooks\"").unwrap() < merged.find("\"a\"").unwrap());
        // A second merge changes nothing.
        assert_eq!(merge(Agent::Claude, Some(&merged)), Ok(None));
        // A user's command that merely mentions ours is the user's: kept, ours added.
        let mine = r#"{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "autofix rules --format hook --agent claude | tee log"}]}]}}"#;
        let merged = merge(Agent::Claude, Some(mine)).unwrap().unwrap();
        let value: serde_json::Value = serde_json::from_str(&merged).unwrap();
        let groups = value["hooks"]["SessionStart"].as_array().unwrap();
        assert_eq!(groups.len(), 2, "{merged}");
        assert!(merged.contains("| tee log"));
    }

    #[test]
    fn refuses_what_is_not_json_or_not_the_shape() {
        let error = merge(Agent::Claude, Some("{\n  \"hooks\": {,\n}")).unwrap_err();
        assert_eq!(error.line, Some(2));
        assert!(merge(Agent::Claude, Some("[]")).is_err());
        assert!(merge(Agent::Claude, Some(r#"{"hooks": []}"#)).is_err());
        assert!(merge(Agent::Cursor, Some(r#"{"hooks": {"sessionStart": {}}}"#)).is_err());
        assert!(merge(Agent::Claude, Some("  ")).unwrap().is_some());
        let twice = "{\n  \"hooks\": {},\n  \"x\": [{\"a\": 1,\n \"a\": 2}]\n}";
        let error = merge(Agent::Claude, Some(twice)).unwrap_err();
        assert_eq!(error.line, Some(4), "{}", error.message);
        assert!(error.message.contains("`a`"), "{}", error.message);
    }
}
