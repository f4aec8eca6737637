//! Session-start hooks merged into each agent's settings file: one entry running
//! `autofix rules --format hook --agent <a>`, replacing an older entry of ours, keeping
//! every other key and hook in its order. A file that is not valid JSON is refused.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

use crate::hook::Agent;

/// A JSON value that keeps the order of object keys (and repeated keys), so a settings
/// file is rewritten with its members where they were.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Number(serde_json::Number),
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

    fn kind(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool(_) => "a boolean",
            Json::Number(_) => "a number",
            Json::String(_) => "a string",
            Json::Array(_) => "an array",
            Json::Object(_) => "an object",
        }
    }
}

impl Serialize for Json {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Null => serializer.serialize_unit(),
            Json::Bool(b) => serializer.serialize_bool(*b),
            Json::Number(n) => n.serialize(serializer),
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

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Json, D::Error> {
        struct JsonVisitor;
        impl<'de> Visitor<'de> for JsonVisitor {
            type Value = Json;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_unit<E>(self) -> Result<Json, E> {
                Ok(Json::Null)
            }
            fn visit_bool<E>(self, b: bool) -> Result<Json, E> {
                Ok(Json::Bool(b))
            }
            fn visit_u64<E>(self, n: u64) -> Result<Json, E> {
                Ok(Json::Number(n.into()))
            }
            fn visit_i64<E>(self, n: i64) -> Result<Json, E> {
                Ok(Json::Number(n.into()))
            }
            fn visit_f64<E: de::Error>(self, n: f64) -> Result<Json, E> {
                serde_json::Number::from_f64(n)
                    .map(Json::Number)
                    .ok_or_else(|| E::custom("a number that JSON cannot hold"))
            }
            fn visit_str<E>(self, s: &str) -> Result<Json, E> {
                Ok(Json::String(s.to_string()))
            }
            fn visit_string<E>(self, s: String) -> Result<Json, E> {
                Ok(Json::String(s))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(Json::Array(items))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
                let mut members = Vec::new();
                while let Some((key, value)) = map.next_entry::<String, Json>()? {
                    members.push((key, value));
                }
                Ok(Json::Object(members))
            }
        }
        deserializer.deserialize_any(JsonVisitor)
    }
}

/// Where each agent keeps its hooks, relative to the root.
pub fn path(agent: Agent, local: bool) -> &'static str {
    match agent {
        Agent::Claude if local => ".claude/settings.local.json",
        Agent::Claude => ".claude/settings.json",
        Agent::Codex => ".codex/hooks.json",
        Agent::Cursor => ".cursor/hooks.json",
        Agent::Gemini => ".gemini/settings.json",
    }
}

/// Seconds for Claude Code and Codex, milliseconds for Gemini CLI.
const TIMEOUT_SECONDS: u64 = 10;

/// Our hook handler for `agent`, in that agent's format.
fn handler(agent: Agent) -> Json {
    let command = Json::String(agent.command());
    match agent {
        Agent::Cursor => Json::object(vec![("command", command)]),
        Agent::Gemini => Json::object(vec![
            ("name", Json::string("autofix-rules")),
            ("type", Json::string("command")),
            ("command", command),
            ("timeout", Json::Number((TIMEOUT_SECONDS * 1000).into())),
        ]),
        Agent::Claude | Agent::Codex => Json::object(vec![
            ("type", Json::string("command")),
            ("command", command),
            ("timeout", Json::Number(TIMEOUT_SECONDS.into())),
        ]),
    }
}

/// Whether a hook handler is one of ours (any version of the command).
fn is_ours(handler: &Json) -> bool {
    matches!(handler.get("command"), Some(Json::String(c))
        if c.contains("autofix rules") && c.contains("--format hook"))
}

/// Why a settings file cannot be merged; it is left unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invalid {
    pub line: Option<usize>,
    pub message: String,
}

/// The settings text with our hook merged in; `Ok(None)` when it is already there exactly
/// (nothing to write). `existing` is `None` for a file that does not exist.
pub fn merge(agent: Agent, existing: Option<&str>) -> Result<Option<String>, Invalid> {
    let original = match existing.map(|s| s.trim_start_matches('\u{feff}')) {
        None => None,
        Some(text) if text.trim().is_empty() => Some(Json::Object(Vec::new())),
        Some(text) => Some(serde_json::from_str::<Json>(text).map_err(|error| Invalid {
            line: Some(error.line()),
            message: format!("not valid JSON ({error})"),
        })?),
    };
    let mut settings = original.clone().unwrap_or_else(|| Json::Object(Vec::new()));
    let shape = |what: &str, found: &Json, expected: &str| Invalid {
        line: None,
        message: format!("{what} is {}, not {expected}", found.kind()),
    };
    if !matches!(settings, Json::Object(_)) {
        return Err(shape("the top level", &settings, "an object"));
    }
    if agent == Agent::Cursor && original.is_none() {
        settings.entry("version", Json::Number(1.into()), true);
    }
    let hooks = settings.entry("hooks", Json::Object(Vec::new()), false);
    if !matches!(hooks, Json::Object(_)) {
        return Err(shape("`hooks`", hooks, "an object"));
    }
    let event = if agent == Agent::Cursor {
        "sessionStart"
    } else {
        "SessionStart"
    };
    let list = hooks.entry(event, Json::Array(Vec::new()), false);
    let Json::Array(entries) = list else {
        return Err(shape(&format!("`hooks.{event}`"), list, "an array"));
    };
    if agent == Agent::Cursor {
        merge_flat(entries, handler(agent));
    } else {
        merge_grouped(entries, handler(agent));
    }
    if original.as_ref() == Some(&settings) {
        return Ok(None);
    }
    let mut text = serde_json::to_string_pretty(&settings).expect("JSON values serialise");
    text.push('\n');
    Ok(Some(text))
}

/// Cursor: `sessionStart` is a list of handlers.
fn merge_flat(entries: &mut Vec<Json>, ours: Json) {
    let mut placed = false;
    entries.retain_mut(|entry| {
        if !is_ours(entry) {
            return true;
        }
        if placed {
            return false;
        }
        placed = true;
        *entry = ours.clone();
        true
    });
    if !placed {
        entries.push(ours);
    }
}

/// Claude Code, Codex, Gemini CLI: `SessionStart` is a list of groups
/// (`{"matcher"?, "hooks": [handler, ...]}`).
fn merge_grouped(entries: &mut Vec<Json>, ours: Json) {
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
            if !is_ours(handler) {
                return true;
            }
            if placed {
                return false;
            }
            placed = true;
            *handler = ours.clone();
            true
        });
    }
    // A group left empty by removing a second copy of ours goes too.
    entries.retain(|group| !matches!(group.get("hooks"), Some(Json::Array(h)) if h.is_empty()));
    if !placed {
        entries.push(Json::object(vec![("hooks", Json::Array(vec![ours]))]));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }

    #[test]
    fn keeps_other_keys_and_hooks_and_replaces_ours() {
        let existing = r#"{"z": 1, "hooks": {"SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "echo hi"}, {"type": "command", "command": "autofix rules --format hook --agent claude --old"}]}], "Stop": []}, "a": [1.5, null]}"#;
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
    }

    #[test]
    fn refuses_what_is_not_json_or_not_the_shape() {
        let error = merge(Agent::Claude, Some("{\n  \"hooks\": {,\n}")).unwrap_err();
        assert_eq!(error.line, Some(2));
        assert!(merge(Agent::Claude, Some("[]")).is_err());
        assert!(merge(Agent::Claude, Some(r#"{"hooks": []}"#)).is_err());
        assert!(merge(Agent::Cursor, Some(r#"{"hooks": {"sessionStart": {}}}"#)).is_err());
        assert!(merge(Agent::Claude, Some("  ")).unwrap().is_some());
    }
}
