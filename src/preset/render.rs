//! Final command lines ([`crate::docs::presets`]): `{name}` placeholders filled from values, `{commandId}`
//! from the command, and the idempotent `/skill` prelude — `/S ` is prepended unless the
//! rendered template already starts with the token `/S`, so there is never `/S /S …`.

use std::collections::BTreeMap;

use super::{Command, Preset};

/// The placeholder every command fills with its own id.
pub(crate) const COMMAND_ID: &str = "commandId";

/// One command's final line.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub(crate) struct Rendered {
    pub id: String,
    pub skill: Option<String>,
    /// `None` for an unbound command without a template: it has no line.
    pub line: Option<String>,
    /// Placeholders left as written because no value was given, in order of appearance.
    pub missing: Vec<String>,
}

/// What to render and with which values.
#[derive(Clone, Debug, Default)]
pub(crate) struct Request {
    /// Only these commands (all when empty); lines still come in file order.
    pub commands: Vec<String>,
    pub values: BTreeMap<String, String>,
    /// A placeholder without a value is an error instead of being kept.
    pub strict: bool,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub(crate) enum RenderError {
    #[error("preset `{preset}` has no command `{id}` (its commands: {available})")]
    UnknownCommand {
        preset: String,
        id: String,
        available: String,
    },
    #[error("no value for {}; give each with --set NAME=VALUE", describe_missing(.0))]
    MissingValues(Vec<(String, Vec<String>)>),
}

/// Each placeholder left without a value, with the commands that use it: the text of the
/// `--strict` error and of the CLI's note without it.
pub(crate) fn describe_missing(missing: &[(String, Vec<String>)]) -> String {
    missing
        .iter()
        .map(|(name, commands)| {
            let used: Vec<String> = commands.iter().map(|c| format!("`{c}`")).collect();
            format!("{{{name}}} (used by {})", used.join(", "))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Renders the selected commands of `preset`, in file order.
pub(crate) fn render(preset: &Preset, request: &Request) -> Result<Vec<Rendered>, RenderError> {
    for id in &request.commands {
        if !preset.commands.iter().any(|c| &c.id == id) {
            let available: Vec<String> = preset
                .commands
                .iter()
                .map(|c| format!("`{}`", c.id))
                .collect();
            return Err(RenderError::UnknownCommand {
                preset: preset.id.clone(),
                id: id.clone(),
                available: if available.is_empty() {
                    "none".to_string()
                } else {
                    available.join(", ")
                },
            });
        }
    }
    let rendered: Vec<Rendered> = preset
        .commands
        .iter()
        .filter(|c| request.commands.is_empty() || request.commands.contains(&c.id))
        .map(|c| render_command(c, &request.values))
        .collect();
    if request.strict {
        let missing = missing_values(&rendered);
        if !missing.is_empty() {
            return Err(RenderError::MissingValues(missing));
        }
    }
    Ok(rendered)
}

/// Each `--set` name no placeholder of the selected commands uses (`fiel` for `field`),
/// with the closest names that are used: a typo would otherwise be silently ignored.
pub(crate) fn unused_values(preset: &Preset, request: &Request) -> Vec<(String, Vec<String>)> {
    let mut used: Vec<&str> = vec![COMMAND_ID];
    for command in preset
        .commands
        .iter()
        .filter(|c| request.commands.is_empty() || request.commands.contains(&c.id))
    {
        for name in command
            .template
            .as_deref()
            .map(placeholders)
            .unwrap_or_default()
        {
            if !used.contains(&name) {
                used.push(name);
            }
        }
    }
    request
        .values
        .keys()
        .filter(|name| !used.contains(&name.as_str()))
        .map(|name| {
            let near = crate::report::text::closest(name, used.iter().copied());
            (name.clone(), near.into_iter().map(str::to_string).collect())
        })
        .collect()
}

/// The placeholders left as written, each once in order of first use, with its commands.
pub(crate) fn missing_values(rendered: &[Rendered]) -> Vec<(String, Vec<String>)> {
    let mut missing: Vec<(String, Vec<String>)> = Vec::new();
    for command in rendered {
        for name in &command.missing {
            match missing.iter_mut().find(|(n, _)| n == name) {
                Some((_, users)) => users.push(command.id.clone()),
                None => missing.push((name.clone(), vec![command.id.clone()])),
            }
        }
    }
    missing
}

/// One command's line with `values` filled in.
fn render_command(command: &Command, values: &BTreeMap<String, String>) -> Rendered {
    let (text, missing) = match &command.template {
        Some(template) => {
            let (text, missing) = fill(template, &command.id, values);
            (Some(text), missing)
        }
        None => (None, Vec::new()),
    };
    Rendered {
        id: command.id.clone(),
        skill: command.skill.clone(),
        line: prelude(command.skill.as_deref(), text.as_deref()),
        missing,
    }
}

/// A piece of a template.
#[derive(Debug, PartialEq, Eq)]
enum Piece<'a> {
    Text(&'a str),
    Placeholder(&'a str),
}

/// Splits a template into text and `{name}` placeholders. A name starts with a letter or
/// `_` and continues with letters, digits, `_`, `-` or `.`. Anything else in braces
/// (JSON, `{ x }`) is text, and so is a run of two or more `{` (Handlebars' `{{x}}`).
fn pieces(template: &str) -> Vec<Piece<'_>> {
    let bytes = template.as_bytes();
    let mut pieces = Vec::new();
    let mut text_start = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'{' {
            i += 1;
            continue;
        }
        let run = bytes[i..].iter().take_while(|&&b| b == b'{').count();
        if run > 1 {
            i += run;
            continue;
        }
        let name_start = i + 1;
        let name_len = bytes[name_start..]
            .iter()
            .enumerate()
            .take_while(|&(k, &b)| {
                b.is_ascii_alphabetic()
                    || b == b'_'
                    || (k > 0 && (b.is_ascii_digit() || b == b'-' || b == b'.'))
            })
            .count();
        let end = name_start + name_len;
        if name_len > 0 && bytes.get(end) == Some(&b'}') {
            if text_start < i {
                pieces.push(Piece::Text(&template[text_start..i]));
            }
            pieces.push(Piece::Placeholder(&template[name_start..end]));
            i = end + 1;
            text_start = i;
        } else {
            i += 1;
        }
    }
    if text_start < template.len() {
        pieces.push(Piece::Text(&template[text_start..]));
    }
    pieces
}

/// The distinct placeholder names of a template, in order of appearance.
pub(crate) fn placeholders(template: &str) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    for piece in pieces(template) {
        if let Piece::Placeholder(name) = piece
            && !names.contains(&name)
        {
            names.push(name);
        }
    }
    names
}

/// Fills `{name}` from `values` and `{commandId}` with `command_id`. A placeholder with no
/// value is kept as written and named in the returned list (once, in order).
pub(crate) fn fill(
    template: &str,
    command_id: &str,
    values: &BTreeMap<String, String>,
) -> (String, Vec<String>) {
    let mut out = String::with_capacity(template.len());
    let mut missing: Vec<String> = Vec::new();
    for piece in pieces(template) {
        match piece {
            Piece::Text(text) => out.push_str(text),
            Piece::Placeholder(COMMAND_ID) => out.push_str(command_id),
            Piece::Placeholder(name) => match values.get(name) {
                Some(value) => out.push_str(value),
                None => {
                    out.push('{');
                    out.push_str(name);
                    out.push('}');
                    if !missing.iter().any(|m| m == name) {
                        missing.push(name.to_string());
                    }
                }
            },
        }
    }
    (out, missing)
}

/// The prelude. A command bound to `skill` S gets `/S ` before its rendered text, unless
/// the text (leading whitespace aside) already starts with the token `/S`; a bound
/// command with no text is `/S`. Leading whitespace is dropped from a bound command's
/// line so that it starts with the slash command. An unbound command's text is its line
/// as is, and without text it has no line.
pub(crate) fn prelude(skill: Option<&str>, rendered: Option<&str>) -> Option<String> {
    let Some(skill) = skill else {
        return rendered.map(str::to_string);
    };
    let slash = format!("/{skill}");
    let text = rendered.map(str::trim_start).unwrap_or_default();
    Some(if text.trim_end().is_empty() {
        slash
    } else if starts_with_token(text, &slash) {
        text.to_string()
    } else {
        format!("{slash} {text}")
    })
}

/// Whether `text` starts with `token` followed by whitespace or the end:
/// `/ponytail-review x` does not start with the token `/ponytail`.
fn starts_with_token(text: &str, token: &str) -> bool {
    text.strip_prefix(token)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(char::is_whitespace))
}

/// The slash command a template starts with (`/goal {x}` → `goal`), leading whitespace
/// aside; `None` when it starts with anything else or the name holds a placeholder.
pub(crate) fn leading_slash_command(template: &str) -> Option<&str> {
    let rest = template.trim_start().strip_prefix('/')?;
    let name = rest.split(char::is_whitespace).next().unwrap_or_default();
    (!name.is_empty() && !name.contains('{')).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn prelude_prepends_the_skill() {
        assert_eq!(
            prelude(Some("last30days"), Some("research {topic}")).as_deref(),
            Some("/last30days research {topic}")
        );
    }

    #[test]
    fn prelude_is_idempotent() {
        assert_eq!(
            prelude(Some("last30days"), Some("/last30days rust")).as_deref(),
            Some("/last30days rust")
        );
        assert_eq!(
            prelude(Some("last30days"), Some("/last30days")).as_deref(),
            Some("/last30days")
        );
        let once = prelude(Some("s"), Some("x")).unwrap();
        assert_eq!(prelude(Some("s"), Some(&once)).as_deref(), Some("/s x"));
    }

    #[test]
    fn prelude_ignores_leading_whitespace() {
        assert_eq!(
            prelude(Some("goal"), Some("  \t/goal ship it")).as_deref(),
            Some("/goal ship it")
        );
        assert_eq!(
            prelude(Some("goal"), Some("  ship it")).as_deref(),
            Some("/goal ship it")
        );
    }

    #[test]
    fn prelude_checks_a_token_boundary() {
        assert_eq!(
            prelude(Some("ponytail"), Some("/ponytail-review x")).as_deref(),
            Some("/ponytail /ponytail-review x")
        );
        assert_eq!(
            prelude(Some("ponytail"), Some("/ponytailx")).as_deref(),
            Some("/ponytail /ponytailx")
        );
        assert_eq!(
            prelude(Some("ponytail"), Some("/ponytail\tx")).as_deref(),
            Some("/ponytail\tx")
        );
    }

    #[test]
    fn prelude_without_template() {
        assert_eq!(prelude(Some("s"), None).as_deref(), Some("/s"));
        assert_eq!(prelude(Some("s"), Some("   ")).as_deref(), Some("/s"));
        assert_eq!(prelude(None, None), None);
        assert_eq!(prelude(None, Some(" as is ")).as_deref(), Some(" as is "));
        assert_eq!(prelude(None, Some("/goal x")).as_deref(), Some("/goal x"));
    }

    #[test]
    fn fill_replaces_known_and_keeps_unknown() {
        let (text, missing) = fill(
            "{commandId} {q} and {other} and {q}",
            "full",
            &values(&[("q", "fix it")]),
        );
        assert_eq!(text, "full fix it and {other} and fix it");
        assert_eq!(missing, vec!["other"]);
    }

    #[test]
    fn fill_command_id_wins_over_values() {
        let (text, missing) = fill("{commandId}", "real", &values(&[("commandId", "fake")]));
        assert_eq!(text, "real");
        assert!(missing.is_empty());
    }

    #[test]
    fn fill_leaves_non_placeholders_alone() {
        let template = r#"{"a": 1} { x } {} {{handlebars}} {9lives} {a b} {"#;
        let (text, missing) = fill(template, "id", &BTreeMap::new());
        assert_eq!(text, template);
        assert!(missing.is_empty());
        assert!(placeholders(template).is_empty());
    }

    #[test]
    fn fill_does_not_rescan_values() {
        let (text, missing) = fill("{a}", "id", &values(&[("a", "{b} {commandId}")]));
        assert_eq!(text, "{b} {commandId}");
        assert!(missing.is_empty());
    }

    #[test]
    fn placeholder_names() {
        assert_eq!(
            placeholders("é{a_1}{b-c}{d.e}{a_1}{_x}"),
            vec!["a_1", "b-c", "d.e", "_x"]
        );
    }

    #[test]
    fn slash_commands() {
        assert_eq!(leading_slash_command("  /goal {x}"), Some("goal"));
        assert_eq!(leading_slash_command("/impeccable"), Some("impeccable"));
        assert_eq!(leading_slash_command("goal"), None);
        assert_eq!(leading_slash_command("/ x"), None);
        assert_eq!(leading_slash_command("/{tool} x"), None);
    }
}
