//! Typed inputs from agents and scripts (the MCP tools' arguments, `learn --json`): each is
//! a serde struct with `deny_unknown_fields`, read from a JSON object here so that a
//! refusal names the field: an unknown one with the closest names the struct knows, a
//! missing one, or one of the wrong type with what it must be.

use serde::de::{self, DeserializeOwned, Deserializer, Visitor};
use serde_json::{Map, Value};

/// Reads `T` from `object`. `noun` names a field in messages (`argument`, `key`), `owner`
/// what it belongs to (`` for `learn` ``, or nothing).
pub(crate) fn read<T: DeserializeOwned>(
    object: &Map<String, Value>,
    noun: &str,
    owner: &str,
) -> Result<T, String> {
    let fields = fields::<T>();
    if let Some(unknown) = object.keys().find(|key| !fields.contains(&key.as_str())) {
        return Err(unknown_field(unknown, fields, noun, owner));
    }
    // A `null` is an absent field, as JSON clients send it: "is required" for a required
    // one, its default for an optional one.
    let object: Map<String, Value> = (object.iter())
        .filter(|(_, value)| !value.is_null())
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect();
    // `deny_unknown_fields` holds too: the check above only words the refusal.
    // serde_path_to_error tracks where the failure was (`for[1]`), so the field is never
    // guessed from the message.
    serde_path_to_error::deserialize(Value::Object(object)).map_err(|error| {
        let path = error.path().to_string();
        let message = error.inner().to_string();
        // A missing field fails at the struct that lacks it: its path, then the field.
        if let Some(field) = missing(&message) {
            return match path.as_str() {
                "." => format!("`{field}` is required"),
                _ => format!("`{path}.{field}` is required"),
            };
        }
        match path.as_str() {
            "." => message,
            _ => format!("`{path}` must be {}", expected(&message)),
        }
    })
}

/// The field a serde "missing field" message names (`serde::de::Error::missing_field`'s
/// wording, which carries the field only in its text).
fn missing(message: &str) -> Option<&str> {
    message.strip_prefix("missing field `")?.split('`').next()
}

/// What a serde type error says was expected, in words (`u64` is a non-negative integer).
fn expected(message: &str) -> String {
    let said = message
        .rsplit_once("expected ")
        .map_or(message, |(_, expected)| expected);
    match said {
        "a boolean" => "true or false".to_string(),
        "u64" | "usize" | "u32" => "a non-negative integer".to_string(),
        "a nonzero u64" => "a positive integer".to_string(),
        "a sequence" => "a list".to_string(),
        other => other.to_string(),
    }
}

/// The refusal of a field `T` does not have, with the closest names or else all of them;
/// an alias that only changes the case (`paths` for `Paths`) is not named again.
fn unknown_field(unknown: &str, fields: &[&str], noun: &str, owner: &str) -> String {
    let mut names: Vec<&str> = Vec::with_capacity(fields.len());
    for field in fields {
        if !names.iter().any(|name| name.eq_ignore_ascii_case(field)) {
            names.push(field);
        }
    }
    let fields = names.as_slice();
    let near = crate::report::text::closest(unknown, fields.iter().copied());
    let named = if !near.is_empty() {
        crate::report::text::did_you_mean(&near)
    } else if fields.is_empty() {
        format!("; it takes no {noun}s")
    } else {
        let all: Vec<String> = fields.iter().map(|k| format!("`{k}`")).collect();
        format!("; the {noun}s are {}", all.join(", "))
    };
    format!("unknown {noun} `{unknown}`{owner}{named}")
}

/// The field names `T` reads, as serde's derive declares them (renamed names and aliases).
/// A struct with a `#[serde(flatten)]` field is read as a map and declares none: every
/// key would be refused, so the structs read here have none.
pub(crate) fn fields<T: DeserializeOwned>() -> &'static [&'static str] {
    let mut fields = None;
    // The probe always fails: it only records what the derive asked for.
    let _ = T::deserialize(Probe(&mut fields));
    fields.unwrap_or_default()
}

/// A deserializer that records the fields of the struct asked of it, and gives nothing.
struct Probe<'a>(&'a mut Option<&'static [&'static str]>);

impl<'de> Deserializer<'de> for Probe<'_> {
    type Error = de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Self::Error> {
        Err(de::Error::custom("not a struct"))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Self::Error> {
        *self.0 = Some(fields);
        Err(de::Error::custom("probed"))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
        ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Sample {
        name: String,
        #[serde(rename = "for")]
        for_paths: Option<Vec<String>>,
        count: Option<u64>,
        all: Option<bool>,
    }

    fn read_sample(value: Value) -> Result<Sample, String> {
        read(value.as_object().unwrap(), "argument", " for `sample`")
    }

    #[test]
    fn each_refusal_names_its_field() {
        assert_eq!(fields::<Sample>(), ["name", "for", "count", "all"]);
        assert!(read_sample(json!({"name": "x", "for": ["a"], "count": 2})).is_ok());
        assert_eq!(
            read_sample(json!({"name": "x", "fro": []})).unwrap_err(),
            "unknown argument `fro` for `sample`; did you mean `for`?"
        );
        assert_eq!(
            read_sample(json!({"zzzzzzzzzzzz": 1})).unwrap_err(),
            "unknown argument `zzzzzzzzzzzz` for `sample`; the arguments are `name`, `for`, `count`, `all`"
        );
        assert_eq!(read_sample(json!({})).unwrap_err(), "`name` is required");
        assert_eq!(
            read_sample(json!({"name": 3})).unwrap_err(),
            "`name` must be a string"
        );
        assert_eq!(
            read_sample(json!({"name": "x", "all": "yes"})).unwrap_err(),
            "`all` must be true or false"
        );
        assert_eq!(
            read_sample(json!({"name": "x", "count": -1})).unwrap_err(),
            "`count` must be a non-negative integer"
        );
        assert_eq!(
            read_sample(json!({"for": 1, "name": "x"})).unwrap_err(),
            "`for` must be a list"
        );
        assert_eq!(
            read_sample(json!({"name": "x", "for": ["a", 3]})).unwrap_err(),
            "`for[1]` must be a string"
        );
    }
}
