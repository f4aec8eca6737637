//! The tools' input schemas, derived from their arguments structs (`arguments.rs`): the
//! property names are the ones serde reads (so `for`, not `for_paths`), the JSON types and
//! what is required follow the fields' Rust types, the descriptions are the structs'.
//!
//! A small trait rather than the `schemars` crate: the schemas are plain keyword objects
//! some clients insist on (no `$ref`, no `null` in a type, no `$schema`), the few field
//! types are listed here, and the arguments' custom readers (a string as a list of one)
//! would each need a schemars override anyway.

use std::collections::BTreeMap;

use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

use crate::rules::reference::RuleRef;

/// The JSON schema of an argument's Rust type, and whether an argument of it is required.
pub(super) trait Schema {
    const REQUIRED: bool = true;
    fn schema() -> Value;
}

impl Schema for String {
    fn schema() -> Value {
        json!({"type": "string"})
    }
}

impl Schema for bool {
    fn schema() -> Value {
        json!({"type": "boolean"})
    }
}

impl Schema for usize {
    fn schema() -> Value {
        json!({"type": "integer", "minimum": 0})
    }
}

/// `12` or `"org:12"`.
impl Schema for RuleRef {
    fn schema() -> Value {
        json!({"type": ["integer", "string"], "minimum": 1})
    }
}

impl<T: Schema> Schema for Vec<T> {
    fn schema() -> Value {
        json!({"type": "array", "items": T::schema()})
    }
}

/// NAME: VALUE strings, empty when absent.
impl Schema for BTreeMap<String, String> {
    const REQUIRED: bool = false;
    fn schema() -> Value {
        json!({"type": "object", "additionalProperties": {"type": "string"}})
    }
}

impl<T: Schema> Schema for Option<T> {
    const REQUIRED: bool = false;
    fn schema() -> Value {
        T::schema()
    }
}

/// One field of an arguments struct, in declaration order.
pub(super) struct Field {
    pub(super) schema: Value,
    pub(super) required: bool,
    pub(super) description: Option<&'static str>,
}

/// An arguments struct's fields (written by `arguments!`).
pub(super) trait Described {
    fn fields() -> Vec<Field>;
}

/// The input schema of arguments `T`: its fields under the names serde reads them by.
pub(super) fn input_schema<T: Described + DeserializeOwned>() -> Value {
    let names = crate::front::input::fields::<T>();
    let fields = T::fields();
    assert_eq!(
        names.len(),
        fields.len(),
        "a serde alias in an arguments struct"
    );
    let mut properties = Map::new();
    let mut required = Vec::new();
    for (name, field) in names.iter().zip(fields) {
        let mut schema = field.schema;
        if let Some(description) = field.description {
            schema["description"] = json!(description);
        }
        properties.insert((*name).to_string(), schema);
        if field.required {
            required.push(*name);
        }
    }
    let mut schema = json!({"type": "object", "properties": properties});
    if !required.is_empty() {
        schema["required"] = json!(required);
    }
    schema
}
