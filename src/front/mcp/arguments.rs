//! The MCP tools' arguments, each a serde struct declared once with its fields'
//! descriptions: `arguments!` writes the struct and the description of its fields that
//! `schema.rs` turns into the advertised input schema, so the two cannot drift.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde::de::{self, Deserializer};
use serde_json::Value;

use super::schema::{Field, Schema};
use crate::rules::reference::RuleRef;

/// A tool's arguments struct (`deny_unknown_fields`: an unknown one is refused by name),
/// and the [`Field`]s of its schema in declaration order: each field's type says its JSON
/// type and whether it is required; `=> "…"` is its description.
macro_rules! arguments {
    ($(#[doc = $doc:literal])* $name:ident {
        $($(#[$attribute:meta])* $field:ident: $type:ty $(=> $description:literal)?,)*
    }) => {
        $(#[doc = $doc])*
        #[derive(Debug, Deserialize)]
        #[serde(deny_unknown_fields)]
        pub(super) struct $name {
            $($(#[$attribute])* pub(super) $field: $type,)*
        }

        impl super::schema::Described for $name {
            fn fields() -> Vec<Field> {
                vec![$(Field {
                    schema: <$type as Schema>::schema(),
                    required: <$type as Schema>::REQUIRED,
                    description: [$($description)?].first().copied(),
                },)*]
            }
        }
    };
}

arguments! {
    /// `rules`' arguments.
    RulesArguments {
        #[serde(default, deserialize_with = "strings")]
        category: Option<Vec<String>> => "Only rules of these categories: any category the file holds (real files have categories such as UI beside the standard STYLE, CODE, ARCH, TOOL, PROCESS, DATA, UX, OTHER), matched ignoring case and [brackets].",
        all: Option<bool> => "Also list superseded rules.",
        budget: Option<usize> => "Only the newest rules that fit this many tokens (about 4 characters each), one compact line a rule; `omitted` says how many are left out.",
        #[serde(rename = "for", default, deserialize_with = "strings")]
        for_paths: Option<Vec<String>> => "Only the rules that apply to these files (relative to the workspace root): the unscoped ones and those whose path globs match; each says why it applies.",
        search: Option<String> => "Only the rules whose instruction or why holds this text (ignoring case).",
        provenance: Option<bool> => "Add each rule's origin: the commit that added it, its author and date (from the rules file's git history).",
        rule: Option<RuleRef> => "Show this rule whole instead of a listing: a number, or an imported rule \"org:4\"; text, scope, state, origin, what it superseded and what supersedes or retires it (no filters with it).",
    }
}

arguments! {
    /// `learn`'s arguments.
    LearnArguments {
        category: String => "One of STYLE, CODE, ARCH, TOOL, PROCESS, DATA, UX, OTHER, in any case, brackets allowed ([code]); stored upper-case.",
        instruction: String => "Imperative: \"Always/Never do X - because Y.\"",
        why: String => "Brief reason: user preference, codebase pattern, framework limitation.",
        supersedes: Option<Vec<RuleRef>> => "Numbers of older rules this one replaces, or imported rules as \"org:12\".",
        force: Option<bool> => "Learn it even when it repeats or contradicts an active rule in other words (keep both).",
        #[serde(default, deserialize_with = "strings")]
        paths: Option<Vec<String>> => "Scope the rule to these gitignore-style globs, relative to the workspace root (\"src/api/**\", \"*.sql\", \"!src/gen/**\"); omit for a rule that applies everywhere.",
        check: Option<String> => "Check the rule where it applies (`autofix enforce`, the pre-commit and after-edit hooks): no line of a file in the rule's scope may match this regular expression (Rust `regex` syntax), e.g. \"console\\\\.log\". As the CLI's `--check`.",
        require: Option<String> => "Check the rule where it applies: every file in the rule's scope must match this regular expression somewhere. As the CLI's `--require`; not with `check`.",
        dry_run: Option<bool>,
        export: Option<bool> => "Refresh the exported copies (AGENTS.md, rule folders) after learning; default true.",
        note: Option<String> => "The id of the prompt hook's note this rule answers (`note 3f9a2c`): a change (with `supersedes`) or a new rule, recorded for the ledger.",
    }
}

arguments! {
    /// `verdict`'s arguments.
    VerdictArguments {
        note: String => "The id of the prompt hook's note (`note 3f9a2c`).",
        said: String => "\"restated\" (the user said a recorded rule again: name it in `rule`, and follow it) or \"nothing\" (no lasting rule). A change or a new rule is answered by `learn` with `note`.",
        rule: Option<RuleRef> => "The rule restated: a number, or an imported rule \"org:4\".",
    }
}

arguments! {
    /// `retire`'s arguments.
    RetireArguments {
        rule: RuleRef => "The active rule to retire: a number, or an imported rule \"org:5\".",
        why: String => "Why the rule no longer holds (kept in the record).",
        dry_run: Option<bool>,
        export: Option<bool> => "Refresh the exported copies (AGENTS.md, rule folders) afterwards; default true.",
    }
}

arguments! {
    /// `check` takes no arguments.
    CheckArguments {}
}

arguments! {
    /// `preset_validate`'s arguments.
    PresetValidateArguments {
        #[serde(default, deserialize_with = "strings")]
        paths: Option<Vec<String>>,
        deny_warnings: Option<bool>,
    }
}

arguments! {
    /// `preset_render`'s arguments.
    PresetRenderArguments {
        preset: String,
        #[serde(default, deserialize_with = "strings")]
        commands: Option<Vec<String>>,
        #[serde(default, deserialize_with = "values")]
        set: BTreeMap<String, String>,
        strict: Option<bool>,
    }
}

/// A list of strings, or one string as a list of one; null as absent.
fn strings<'de, D: Deserializer<'de>>(input: D) -> Result<Option<Vec<String>>, D::Error> {
    let bad = || de::Error::custom("expected a list of strings");
    match Option::<Value>::deserialize(input)? {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(one)) => Ok(Some(vec![one])),
        Some(Value::Array(items)) => items
            .into_iter()
            .map(|item| match item {
                Value::String(text) => Some(text),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()
            .map(Some)
            .ok_or_else(bad),
        Some(_) => Err(bad()),
    }
}

/// `set`: an object of NAME: VALUE strings; null as absent.
fn values<'de, D: Deserializer<'de>>(input: D) -> Result<BTreeMap<String, String>, D::Error> {
    let bad = || de::Error::custom("expected an object of NAME: VALUE strings");
    match Option::<Value>::deserialize(input)? {
        None | Some(Value::Null) => Ok(BTreeMap::new()),
        Some(Value::Object(values)) => values
            .into_iter()
            .map(|(name, value)| match value {
                Value::String(value) => Some((name, value)),
                _ => None,
            })
            .collect::<Option<_>>()
            .ok_or_else(bad),
        Some(_) => Err(bad()),
    }
}
