//! The MCP tools: the list `tools/list` advertises (each tool's name, title, description
//! and annotations, its input schema derived from its arguments), and the handlers: each reads its arguments (`arguments.rs`), calls the same
//! operation and renderer as the CLI, and answers the CLI's text beside its JSON document.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

use crate::ops::learning::{self, AfterLearning, Destination};
use crate::ops::list::ListError;
use crate::ops::{self, service};
use crate::preset::render;
use crate::render::Render as _;
use crate::render::preset as report;
use crate::sources::layers::NotLearned;

use super::arguments::{
    CheckArguments, LearnArguments, PresetRenderArguments, PresetValidateArguments,
    RetireArguments, RulesArguments, VerdictArguments,
};
use super::schema::input_schema;
use super::{Fault, INVALID_PARAMS};
use crate::front::context::Context;
use crate::front::{context, history};

/// Claude Code refuses tool output above 25,000 tokens; stay well below (4 bytes a token).
const MAX_RULES_BYTES: usize = 20_000 * 4;

/// A tool's answer: the CLI's text and JSON document (as a value), or a failure the model
/// should see.
enum Answer {
    Done { text: String, json: Value },
    Failed(String),
}

pub(super) fn call(context: &Context, params: &Value) -> Result<Value, Fault> {
    let name = params
        .get("name")
        .and_then(Value::as_str)
        .ok_or_else(|| Fault::new(INVALID_PARAMS, "`name` must be a string"))?;
    let empty = Map::new();
    let arguments = match params.get("arguments") {
        None | Some(Value::Null) => &empty,
        Some(Value::Object(arguments)) => arguments,
        Some(_) => return Err(Fault::new(INVALID_PARAMS, "`arguments` must be an object")),
    };
    let answer = match name {
        "rules" => rules(context, arguments),
        "learn" => learn_tool(context, arguments),
        "retire" => retire_tool(context, arguments),
        "verdict" => verdict_tool(context, arguments),
        "check" => read::<CheckArguments>(name, arguments).and_then(|_| check(context)),
        "preset_validate" => preset_validate(context, arguments),
        "preset_render" => preset_render(context, arguments),
        other => {
            return Err(Fault::new(
                INVALID_PARAMS,
                format!("unknown tool `{other}`"),
            ));
        }
    };
    Ok(match answer {
        Ok(Answer::Done { text, json }) => json!({
            "content": [{"type": "text", "text": text}],
            "structuredContent": json,
            "isError": false,
        }),
        Ok(Answer::Failed(message)) | Err(message) => json!({
            "content": [{"type": "text", "text": message}],
            "structuredContent": {"version": 1, "error": message},
            "isError": true,
        }),
    })
}

/// A tool's arguments as its struct: an unknown, missing or mistyped one is the tool's
/// input error (`isError`), named, not a protocol one; dropped, `path` for `paths` would
/// record a rule unscoped and report success.
fn read<T: DeserializeOwned>(tool: &str, arguments: &Map<String, Value>) -> Result<T, String> {
    crate::front::input::read(arguments, "argument", &format!(" for `{tool}`"))
}

/// The message the CLI would print after `error:`.
fn failure(error: anyhow::Error) -> String {
    context::describe(&error)
}

fn rules(context: &Context, arguments: &Map<String, Value>) -> Result<Answer, String> {
    // The arguments are checked before the workspace is looked for.
    let arguments: RulesArguments = read("rules", arguments)?;
    if let Some(number) = &arguments.rule {
        let filters = arguments.category.is_some()
            || arguments.all.is_some()
            || arguments.budget.is_some()
            || arguments.for_paths.is_some()
            || arguments.search.is_some();
        if filters {
            return Err("`rule` shows one rule whole; it takes none of the filters".to_string());
        }
        let workspace = context.workspace().map_err(failure)?;
        let (text, json) = history::shown_rule(&workspace, number).map_err(failure)?;
        let json = serde_json::from_str(&json).map_err(|error| error.to_string())?;
        return Ok(Answer::Done { text, json });
    }
    let workspace = context.workspace().map_err(failure)?;
    let request = ops::list::Request {
        categories: arguments.category.unwrap_or_default(),
        all: arguments.all.unwrap_or(false),
        budget: arguments.budget,
        for_paths: arguments.for_paths.unwrap_or_default(),
        search: arguments.search,
        provenance: arguments.provenance == Some(true),
    };
    // Imported (`org:N`) and personal (`user:N`) rules, as `autofix rules` lists them.
    let listed = ops::list::list(&workspace, request).map_err(|error| match error {
        ListError::Paths(error) => format!("`for` {error}"),
        ListError::Rules(error) => failure(error.into()),
    })?;
    let (text, json) = (listed.text(), listed.json());
    // As sent: the structured result on one line, beside the text.
    let size = json.to_string().len() + text.len();
    if size > MAX_RULES_BYTES {
        return Ok(Answer::Failed(format!(
            "the rules listing is about {} tokens, more than a tool result should carry; call `rules` again with a `category` filter",
            size / 4
        )));
    }
    Ok(Answer::Done { text, json })
}

fn learn_tool(context: &Context, arguments: &Map<String, Value>) -> Result<Answer, String> {
    let arguments: LearnArguments = read("learn", arguments)?;
    let check = asked_check(&arguments)?;
    let request = learning::Request {
        category: arguments.category,
        instruction: arguments.instruction,
        why: arguments.why,
        supersedes: arguments.supersedes.unwrap_or_default(),
        force: arguments.force.unwrap_or(false),
        paths: arguments.paths.unwrap_or_default(),
        check,
        dry_run: arguments.dry_run.unwrap_or(false),
        after: AfterLearning::exporting(arguments.export.unwrap_or(true)),
    };
    let workspace = context.workspace().map_err(failure)?;
    if let Some(note) = &arguments.note {
        ops::notes::open(&workspace, note).map_err(|error| error.to_string())?;
    }
    let superseded = request.supersedes.first().cloned();
    let answer = learning::learn_rule(Destination::Project(&workspace), request, "`supersedes`")
        .map_err(failure)?;
    let learned = match answer {
        learning::Answer::Learned(learned) => *learned,
        learning::Answer::NotLearned(NotLearned::Refused(why)) => return Ok(Answer::Failed(why)),
        learning::Answer::NotLearned(NotLearned::Repeat { id, message }) => {
            return Ok(Answer::Done {
                json: json!({"version": 1, "status": "duplicate", "imported": id, "message": message}),
                text: message,
            });
        }
    };
    // English: the tool answers the agent, which speaks to the user in its own words.
    let mut text = crate::front::i18n::learned(
        &learned,
        crate::front::i18n::Lang::En,
        crate::front::i18n::Front::Mcp,
    );
    text.push_str(&learned.warnings_text(crate::report::paint::Painter::new(false)));
    let mut json = learned.to_value();
    if let Some(note) = &arguments.note {
        match ops::notes::learned(&workspace, note, superseded.as_ref(), &learned.outcome) {
            Ok(Some(verdict)) => {
                text.push_str(&format!(
                    "note {note} answered: {}\n",
                    ops::notes::describe(&verdict)
                ));
                json["note"] = serde_json::to_value(&verdict).unwrap_or_default();
            }
            Ok(None) => {}
            Err(error) => {
                text.push_str(&format!("warning: note {note} was not answered: {error}\n"));
            }
        }
    }
    Ok(Answer::Done { text, json })
}

fn verdict_tool(context: &Context, arguments: &Map<String, Value>) -> Result<Answer, String> {
    let arguments: VerdictArguments = read("verdict", arguments)?;
    let said = match arguments.said.as_str() {
        "restated" => ops::notes::Said::Restated,
        "nothing" => ops::notes::Said::Nothing,
        other => {
            return Err(format!(
                "`said`: `{}` is neither \"restated\" nor \"nothing\" (a change or a new rule is answered by `learn` with `note`)",
                crate::report::text::shown(other)
            ));
        }
    };
    let workspace = context.workspace().map_err(failure)?;
    let answer = ops::notes::Answer {
        note: &arguments.note,
        said,
        rule: arguments.rule.as_ref(),
        learned: None,
    };
    let verdict = ops::notes::answer(&workspace, &answer).map_err(|error| error.to_string())?;
    let json = serde_json::from_str(&verdict.to_json()).map_err(|error| error.to_string())?;
    Ok(Answer::Done {
        text: verdict.to_text(crate::report::paint::Painter::new(false)),
        json,
    })
}

/// `learn`'s `check` (Forbid) or `require` (Require), as the CLI's `--check`/`--require`.
fn asked_check(arguments: &LearnArguments) -> Result<Option<crate::rules::pattern::Check>, String> {
    use crate::rules::pattern::{Check, Kind};
    let (kind, pattern) = match (&arguments.check, &arguments.require) {
        (Some(_), Some(_)) => return Err("`check` and `require`: give one".to_string()),
        (Some(pattern), None) => (Kind::Forbid, pattern),
        (None, Some(pattern)) => (Kind::Require, pattern),
        (None, None) => return Ok(None),
    };
    Ok(Some(Check {
        kind,
        pattern: pattern.clone(),
    }))
}

fn retire_tool(context: &Context, arguments: &Map<String, Value>) -> Result<Answer, String> {
    let arguments: RetireArguments = read("retire", arguments)?;
    let request = ops::retire::Request {
        rule: arguments.rule,
        why: arguments.why,
        dry_run: arguments.dry_run.unwrap_or(false),
        after: AfterLearning::exporting(arguments.export.unwrap_or(true)),
    };
    let workspace = context.workspace().map_err(failure)?;
    let learned = ops::retire::retire(&workspace, &request).map_err(failure)?;
    let (mut text, json) = history::retired_output(&learned, &request.rule, &request.why);
    text.push_str(&learned.warnings_text(crate::report::paint::Painter::new(false)));
    let json = serde_json::from_str(&json).map_err(|error| error.to_string())?;
    Ok(Answer::Done { text, json })
}

fn check(context: &Context) -> Result<Answer, String> {
    let workspace = context.workspace().map_err(failure)?;
    let report = service::check(&workspace).map_err(|error| failure(error.into()))?;
    Ok(Answer::Done {
        text: report.to_text(crate::report::paint::Painter::new(false)),
        json: crate::render::check::value(&report),
    })
}

fn preset_validate(context: &Context, arguments: &Map<String, Value>) -> Result<Answer, String> {
    let arguments: PresetValidateArguments = read("preset_validate", arguments)?;
    let paths: Vec<std::path::PathBuf> = arguments
        .paths
        .unwrap_or_default()
        .into_iter()
        .map(Into::into)
        .collect();
    let deny_warnings = arguments.deny_warnings.unwrap_or(false);
    let workspace = context.workspace().map_err(failure)?;
    let presets = service::load_presets(&workspace, &paths)
        .map_err(|error| failure(error.into()))?
        .presets;
    Ok(Answer::Done {
        text: report::validate_text(&presets, crate::report::paint::Painter::new(false)),
        json: report::validate_value(&presets, deny_warnings),
    })
}

fn preset_render(context: &Context, arguments: &Map<String, Value>) -> Result<Answer, String> {
    let arguments: PresetRenderArguments = read("preset_render", arguments)?;
    let path = arguments.preset;
    let request = render::Request {
        commands: arguments.commands.unwrap_or_default(),
        values: arguments.set,
        strict: arguments.strict.unwrap_or(false),
    };
    let workspace = context.workspace().map_err(failure)?;
    let preset =
        service::load_one(&workspace, path.as_ref()).map_err(|error| failure(error.into()))?;
    if !preset.enabled() {
        let diagnostics = report::diagnostics_text(
            &preset.diagnostics,
            crate::report::paint::Painter::new(false),
        );
        return Ok(Answer::Failed(format!(
            "{diagnostics}preset `{}` is disabled by the errors above; nothing rendered",
            preset.id
        )));
    }
    let rendered = render::render(&preset, &request).map_err(|e| e.to_string())?;
    Ok(Answer::Done {
        text: report::render_text(&rendered, false),
        json: report::render_value(&preset, &rendered),
    })
}

/// The tool list: names `[a-z_]`, object schemas of plain keywords, explicit annotations.
pub(super) fn list() -> Value {
    let read_only = json!({"readOnlyHint": true, "openWorldHint": false});
    let writes = |idempotent: bool| json!({"readOnlyHint": false, "destructiveHint": false, "idempotentHint": idempotent, "openWorldHint": false});
    let tool = |name: &str, title: &str, description: &str, input: Value, annotations: &Value| {
        json!({
            "name": name,
            "title": title,
            "description": description,
            "inputSchema": input,
            "outputSchema": {"type": "object", "properties": {"version": {"type": "integer"}}, "required": ["version"]},
            "annotations": annotations,
        })
    };
    json!([
        tool(
            "rules",
            "Active project rules",
            "The project's active rules (hard constraints for this task). On conflict, the higher-numbered rule wins. Call at the start of every task.",
            input_schema::<RulesArguments>(),
            &read_only,
        ),
        tool(
            "learn",
            "Learn a rule",
            "Record a correction or convention as a new numbered rule (locked, atomic). Learning an instruction an active rule already holds adds nothing. A rule that repeats or contradicts an active rule in other words is refused (status `refused`, with `matches`): pass `supersedes` if it replaces that rule, or `force` to keep both.",
            input_schema::<LearnArguments>(),
            &writes(true),
        ),
        tool(
            "retire",
            "Retire a rule",
            "Retire an active rule that no longer holds, without a replacement: appends a record (locked, atomic) that supersedes it, with the reason; nothing is deleted. To replace a rule instead, call `learn` with `supersedes`.",
            input_schema::<RetireArguments>(),
            &writes(false),
        ),
        tool(
            "verdict",
            "Answer a note",
            "Answer a note of the prompt hook (`note 3f9a2c. This prompt looks like a correction…`) with your verdict: the user restated a recorded rule (`said: \"restated\"` with `rule`: follow it, nothing is learned), or said no lasting rule (`said: \"nothing\"`). A change or a new rule is answered by `learn` with `note`. Recorded for the ledger; a note answered already, or never given, is refused.",
            input_schema::<VerdictArguments>(),
            &writes(false),
        ),
        tool(
            "check",
            "Lint the rules file",
            "Lint the rules file: JSON, numbering, fields, categories, supersede references, wording.",
            input_schema::<CheckArguments>(),
            &read_only,
        ),
        tool(
            "preset_validate",
            "Validate presets",
            "Load presets and report diagnostics; a command bound to a skill its requirements do not declare disables the preset.",
            input_schema::<PresetValidateArguments>(),
            &read_only,
        ),
        tool(
            "preset_render",
            "Render preset command lines",
            "The final command line of each command of a preset, with its /skill prelude.",
            input_schema::<PresetRenderArguments>(),
            &read_only,
        ),
    ])
}
