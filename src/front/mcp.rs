//! `autofix mcp`: the rules and preset tools over the Model Context Protocol, as a
//! blocking, single-threaded JSON-RPC 2.0 server on stdio (one message per line).
//!
//! It answers both protocol eras: the legacy `initialize` handshake (2024-11-05 to
//! 2025-11-25) and the stateless 2026-07-28 revision, where every request carries its
//! protocol version in `params._meta` and `server/discover` replaces the handshake. Each
//! tool calls the same function and JSON renderer as the CLI, so its `structuredContent` is
//! exactly the CLI's `--format json` document; this module adds protocol, not logic.

use std::collections::BTreeMap;
use std::io::{self, BufRead, Write};
use std::panic::{self, AssertUnwindSafe};
use std::process::ExitCode;

use crate::ops::learning::{self, AfterLearning};
use crate::ops::service;
use crate::preset::{render, report};
use crate::rules::provenance::History;
use crate::rules::reference::RuleRef;
use crate::rules::{learn, listing};
use serde::Deserialize;
use serde::de::{self, DeserializeOwned, Deserializer};
use serde_json::{Map, Value, json};

use crate::front::context::Context;
use crate::front::{context, history};

/// Versions reached through `initialize`, newest first.
const LEGACY_VERSIONS: [&str; 4] = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
/// The stateless revision.
const MODERN_VERSION: &str = "2026-07-28";
const PROTOCOL_VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";
const SERVER_INFO_KEY: &str = "io.modelcontextprotocol/serverInfo";

/// A line longer than this is refused (-32600) and skipped up to its newline.
const MAX_LINE: usize = 8 * 1024 * 1024;
/// Claude Code refuses tool output above 25,000 tokens; stay well below (4 bytes a token).
const MAX_RULES_BYTES: usize = 20_000 * 4;

const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;
const METHOD_NOT_FOUND: i64 = -32601;
const INVALID_PARAMS: i64 = -32602;
const INTERNAL_ERROR: i64 = -32603;
const UNSUPPORTED_VERSION: i64 = -32022;

const INSTRUCTIONS: &str = "autofix keeps this project's rules for coding agents. Call `rules` at the \
start of every task and treat the active rules as hard constraints; on conflict the higher-numbered \
rule wins. When the user corrects you, call `learn` with an imperative instruction (\"Always/Never \
... - because ...\"), then redo the work. When a rule no longer holds and nothing replaces it, call \
`retire` with the reason. Never edit autofix.json by hand.";

pub(crate) fn serve(context: &Context) -> anyhow::Result<ExitCode> {
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let stdout = io::stdout();
    let mut output = io::BufWriter::new(stdout.lock());
    let mut line = Vec::new();
    loop {
        line.clear();
        let answered = match read_line(&mut input, &mut line)? {
            Line::Eof => return Ok(ExitCode::SUCCESS),
            Line::TooLong => {
                let reply = error(
                    Value::Null,
                    INVALID_REQUEST,
                    "the message is longer than 8 MiB",
                    None,
                );
                write_reply(&mut output, &reply).and_then(|()| output.write_all(b"\n"))
            }
            Line::Complete => answer_line(context, &line, &mut output),
        };
        match answered.and_then(|()| output.flush()) {
            Ok(()) => {}
            // The client went away: that is the end of the session, not an error.
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(ExitCode::SUCCESS),
            Err(e) => return Err(e.into()),
        }
    }
}

fn write_reply(output: &mut impl Write, reply: &Value) -> io::Result<()> {
    serde_json::to_writer(&mut *output, reply).map_err(io::Error::from)
}

/// Answers one line: a message's reply on a line of its own, or a batch's replies as one
/// array written as each is made, so a batch of any length is answered in the memory of
/// one reply (JSON-RPC 2.0 allows no other bound: every request of a batch gets its reply).
/// A batch of notifications only gets no answer at all.
fn answer_line(context: &Context, line: &[u8], output: &mut impl Write) -> io::Result<()> {
    let reply = match parse_line(line) {
        Parsed::Nothing => None,
        Parsed::Reply(reply) => Some(reply),
        Parsed::One(message) => handle_message(context, message),
        Parsed::Batch(batch) => return answer_batch(context, batch, output),
    };
    match reply {
        Some(reply) => write_reply(output, &reply).and_then(|()| output.write_all(b"\n")),
        None => Ok(()),
    }
}

fn answer_batch(context: &Context, batch: Vec<Value>, output: &mut impl Write) -> io::Result<()> {
    let mut written = 0;
    for message in batch {
        if let Some(reply) = handle_message(context, message) {
            output.write_all(if written == 0 { b"[" } else { b"," })?;
            write_reply(output, &reply)?;
            written += 1;
        }
    }
    if written > 0 {
        output.write_all(b"]\n")?;
    }
    Ok(())
}

enum Parsed {
    Nothing,
    Reply(Value),
    One(Value),
    Batch(Vec<Value>),
}

/// A line as a message's reply, a batch to answer, or nothing (a blank line, a notification).
fn parse_line(line: &[u8]) -> Parsed {
    if line.iter().all(u8::is_ascii_whitespace) {
        return Parsed::Nothing;
    }
    let message: Value = match serde_json::from_slice(line) {
        Ok(message) => message,
        Err(e) => {
            return Parsed::Reply(error(
                Value::Null,
                PARSE_ERROR,
                &format!("parse error: {e}"),
                None,
            ));
        }
    };
    match message {
        Value::Array(batch) if batch.is_empty() => {
            Parsed::Reply(error(Value::Null, INVALID_REQUEST, "an empty batch", None))
        }
        Value::Array(batch) => Parsed::Batch(batch),
        message => Parsed::One(message),
    }
}

enum Line {
    Complete,
    TooLong,
    Eof,
}

/// Reads one line into `line` (without its newline), never buffering more than `MAX_LINE`.
fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<Line> {
    let mut too_long = false;
    loop {
        let buffer = input.fill_buf()?;
        if buffer.is_empty() {
            return Ok(match (too_long, line.is_empty()) {
                (true, _) => Line::TooLong,
                (false, true) => Line::Eof,
                (false, false) => Line::Complete,
            });
        }
        let (chunk, found) = match memchr::memchr(b'\n', buffer) {
            Some(at) => (&buffer[..at], Some(at)),
            None => (buffer, None),
        };
        if !too_long && line.len() + chunk.len() <= MAX_LINE {
            line.extend_from_slice(chunk);
        } else {
            too_long = true;
            line.clear();
        }
        let used = found.map_or(buffer.len(), |at| at + 1);
        input.consume(used);
        if found.is_some() {
            return Ok(if too_long {
                Line::TooLong
            } else {
                Line::Complete
            });
        }
    }
}

/// One JSON-RPC message: a request gets a reply; a notification or a response gets none.
fn handle_message(context: &Context, message: Value) -> Option<Value> {
    let Value::Object(mut message) = message else {
        return Some(error(
            Value::Null,
            INVALID_REQUEST,
            "a message must be a JSON object",
            None,
        ));
    };
    let id = message.remove("id");
    let valid = message.get("jsonrpc").and_then(Value::as_str) == Some("2.0");
    let method = message
        .get("method")
        .and_then(Value::as_str)
        .map(str::to_string);
    let Some(id) = id else {
        // A notification (or a stray response): nothing to answer, whatever it says.
        return None;
    };
    if !valid || !matches!(id, Value::String(_) | Value::Number(_) | Value::Null) {
        return Some(error(
            id_or_null(id),
            INVALID_REQUEST,
            "not a JSON-RPC 2.0 request",
            None,
        ));
    }
    let Some(method) = method else {
        // A response to a request we never sent.
        return None;
    };
    let params = message.remove("params").unwrap_or(Value::Null);
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| dispatch(context, &method, &params)));
    Some(match outcome {
        Ok(Ok(result)) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
        Ok(Err(fault)) => error(id, fault.code, &fault.message, fault.data),
        Err(_) => error(
            id,
            INTERNAL_ERROR,
            "internal error (a bug in autofix)",
            None,
        ),
    })
}

fn id_or_null(id: Value) -> Value {
    match id {
        Value::String(_) | Value::Number(_) => id,
        _ => Value::Null,
    }
}

fn error(id: Value, code: i64, message: &str, data: Option<Value>) -> Value {
    let mut error = json!({"code": code, "message": message});
    if let Some(data) = data {
        error["data"] = data;
    }
    json!({"jsonrpc": "2.0", "id": id, "error": error})
}

/// A protocol-level error reply.
struct Fault {
    code: i64,
    message: String,
    data: Option<Value>,
}

impl Fault {
    fn new(code: i64, message: impl Into<String>) -> Fault {
        Fault {
            code,
            message: message.into(),
            data: None,
        }
    }
}

/// Which era a request speaks: modern requests carry their version in `params._meta`.
fn is_modern(params: &Value) -> Result<bool, Fault> {
    let Some(version) = params
        .get("_meta")
        .and_then(|meta| meta.get(PROTOCOL_VERSION_KEY))
    else {
        return Ok(false);
    };
    match version.as_str() {
        Some(MODERN_VERSION) => Ok(true),
        Some(other) => Err(Fault {
            code: UNSUPPORTED_VERSION,
            message: "Unsupported protocol version".to_string(),
            data: Some(json!({"supported": supported_versions(), "requested": other})),
        }),
        None => Err(Fault::new(
            INVALID_PARAMS,
            format!("`_meta.{PROTOCOL_VERSION_KEY}` must be a string"),
        )),
    }
}

fn supported_versions() -> Vec<&'static str> {
    std::iter::once(MODERN_VERSION)
        .chain(LEGACY_VERSIONS)
        .collect()
}

fn server_info() -> Value {
    json!({"name": "autofix", "version": env!("CARGO_PKG_VERSION")})
}

fn dispatch(context: &Context, method: &str, params: &Value) -> Result<Value, Fault> {
    let modern = is_modern(params)? || method == "server/discover";
    let mut result = match method {
        "initialize" => {
            let asked = params.get("protocolVersion").and_then(Value::as_str);
            let version = asked
                .filter(|v| LEGACY_VERSIONS.contains(v))
                .unwrap_or(LEGACY_VERSIONS[0]);
            return Ok(json!({
                "protocolVersion": version,
                "capabilities": {"tools": {"listChanged": false}},
                "serverInfo": server_info(),
                "instructions": INSTRUCTIONS,
            }));
        }
        "server/discover" => json!({
            "supportedVersions": supported_versions(),
            "capabilities": {"tools": {"listChanged": false}},
            "serverInfo": server_info(),
            "instructions": INSTRUCTIONS,
            "ttlMs": 0,
            "cacheScope": "private",
            "_meta": {SERVER_INFO_KEY: server_info()},
        }),
        "ping" | "logging/setLevel" => json!({}),
        "tools/list" => {
            let mut result = json!({"tools": tools()});
            if modern {
                result["ttlMs"] = json!(0);
                result["cacheScope"] = json!("private");
            }
            result
        }
        "tools/call" => {
            // Each call sweeps what killed writers left since the last one.
            crate::io::atomic::forget_listings();
            crate::export::markdown::forget_names();
            call(context, params)?
        }
        other => {
            return Err(Fault::new(
                METHOD_NOT_FOUND,
                format!("unknown method `{other}`"),
            ));
        }
    };
    if modern {
        result["resultType"] = json!("complete");
    }
    Ok(result)
}

/// The tool list: names `[a-z_]`, object schemas of plain keywords, explicit annotations.
fn tools() -> Value {
    let string_list = json!({"type": "array", "items": {"type": "string"}});
    let read_only = json!({"readOnlyHint": true, "openWorldHint": false});
    let document = |required: &[&str]| json!({"type": "object", "properties": {"version": {"type": "integer"}}, "required": required});
    json!([
        {
            "name": "rules",
            "title": "Active project rules",
            "description": "The project's active rules (hard constraints for this task). On conflict, the higher-numbered rule wins. Call at the start of every task.",
            "inputSchema": {"type": "object", "properties": {
                "category": {"type": "array", "items": {"type": "string"}, "description": "Only rules of these categories: any category the file holds (real files have categories such as UI beside the standard STYLE, CODE, ARCH, TOOL, PROCESS, DATA, UX, OTHER), matched ignoring case and [brackets]."},
                "all": {"type": "boolean", "description": "Also list superseded rules."},
                "budget": {"type": "integer", "minimum": 0, "description": "Only the newest rules that fit this many tokens (about 4 characters each), one compact line a rule; `omitted` says how many are left out."},
                "for": {"type": "array", "items": {"type": "string"}, "description": "Only the rules that apply to these files (relative to the workspace root): the unscoped ones and those whose path globs match; each says why it applies."},
                "search": {"type": "string", "description": "Only the rules whose instruction or why holds this text (ignoring case)."},
                "provenance": {"type": "boolean", "description": "Add each rule's origin: the commit that added it, its author and date (from the rules file's git history)."},
                "rule": {"type": ["integer", "string"], "minimum": 1, "description": "Show this rule whole instead of a listing: a number, or an imported rule \"org:4\"; text, scope, state, origin, what it superseded and what supersedes or retires it (no filters with it)."}
            }},
            "outputSchema": document(&["version"]),
            "annotations": read_only,
        },
        {
            "name": "learn",
            "title": "Learn a rule",
            "description": "Record a correction or convention as a new numbered rule (locked, atomic). Learning an instruction an active rule already holds adds nothing. A rule that repeats or contradicts an active rule in other words is refused (status `refused`, with `matches`): pass `supersedes` if it replaces that rule, or `force` to keep both.",
            "inputSchema": {"type": "object", "properties": {
                "category": {"type": "string", "description": "One of STYLE, CODE, ARCH, TOOL, PROCESS, DATA, UX, OTHER, in any case, brackets allowed ([code]); stored upper-case."},
                "instruction": {"type": "string", "description": "Imperative: \"Always/Never do X - because Y.\""},
                "why": {"type": "string", "description": "Brief reason: user preference, codebase pattern, framework limitation."},
                "supersedes": {"type": "array", "items": {"type": ["integer", "string"]}, "description": "Numbers of older rules this one replaces, or imported rules as \"org:12\"."},
                "paths": {"type": "array", "items": {"type": "string"}, "description": "Scope the rule to these gitignore-style globs, relative to the workspace root (\"src/api/**\", \"*.sql\", \"!src/gen/**\"); omit for a rule that applies everywhere."},
                "force": {"type": "boolean", "description": "Learn it even when it repeats or contradicts an active rule in other words (keep both)."},
                "check": {"type": "string", "description": "Check the rule where it applies (`autofix enforce`, the pre-commit and after-edit hooks): no line of a file in the rule's scope may match this regular expression (Rust `regex` syntax), e.g. \"console\\\\.log\". As the CLI's `--check`."},
                "require": {"type": "string", "description": "Check the rule where it applies: every file in the rule's scope must match this regular expression somewhere. As the CLI's `--require`; not with `check`."},
                "dry_run": {"type": "boolean"},
                "export": {"type": "boolean", "description": "Refresh the exported copies (AGENTS.md, rule folders) after learning; default true."}
            }, "required": ["category", "instruction", "why"]},
            "outputSchema": document(&["version"]),
            "annotations": {"readOnlyHint": false, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false},
        },
        {
            "name": "retire",
            "title": "Retire a rule",
            "description": "Retire an active rule that no longer holds, without a replacement: appends a record (locked, atomic) that supersedes it, with the reason; nothing is deleted. To replace a rule instead, call `learn` with `supersedes`.",
            "inputSchema": {"type": "object", "properties": {
                "rule": {"type": ["integer", "string"], "minimum": 1, "description": "The active rule to retire: a number, or an imported rule \"org:5\"."},
                "why": {"type": "string", "description": "Why the rule no longer holds (kept in the record)."},
                "dry_run": {"type": "boolean"},
                "export": {"type": "boolean", "description": "Refresh the exported copies (AGENTS.md, rule folders) afterwards; default true."}
            }, "required": ["rule", "why"]},
            "outputSchema": document(&["version"]),
            "annotations": {"readOnlyHint": false, "destructiveHint": false, "idempotentHint": false, "openWorldHint": false},
        },
        {
            "name": "check",
            "title": "Lint the rules file",
            "description": "Lint the rules file: JSON, numbering, fields, categories, supersede references, wording.",
            "inputSchema": {"type": "object", "properties": {}},
            "outputSchema": document(&["version"]),
            "annotations": read_only,
        },
        {
            "name": "preset_validate",
            "title": "Validate presets",
            "description": "Load presets and report diagnostics; a command bound to a skill its requirements do not declare disables the preset.",
            "inputSchema": {"type": "object", "properties": {
                "paths": string_list,
                "deny_warnings": {"type": "boolean"}
            }},
            "outputSchema": document(&["version"]),
            "annotations": read_only,
        },
        {
            "name": "preset_render",
            "title": "Render preset command lines",
            "description": "The final command line of each command of a preset, with its /skill prelude.",
            "inputSchema": {"type": "object", "properties": {
                "preset": {"type": "string"},
                "commands": string_list,
                "set": {"type": "object", "additionalProperties": {"type": "string"}},
                "strict": {"type": "boolean"}
            }, "required": ["preset"]},
            "outputSchema": document(&["version"]),
            "annotations": read_only,
        }
    ])
}

/// A tool's answer: the CLI's text and JSON document (as a value), or a failure the model
/// should see.
enum Answer {
    Done { text: String, json: Value },
    Failed(String),
}

fn call(context: &Context, params: &Value) -> Result<Value, Fault> {
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

/// `rules`' arguments; every field is in its input schema (a test holds the two together).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RulesArguments {
    #[serde(default, deserialize_with = "strings")]
    category: Option<Vec<String>>,
    all: Option<bool>,
    budget: Option<usize>,
    #[serde(rename = "for", default, deserialize_with = "strings")]
    for_paths: Option<Vec<String>>,
    search: Option<String>,
    provenance: Option<bool>,
    #[serde(default, deserialize_with = "rule_ref")]
    rule: Option<RuleRef>,
}

/// `learn`'s arguments.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct LearnArguments {
    category: String,
    instruction: String,
    why: String,
    #[serde(default, deserialize_with = "supersedes")]
    supersedes: Superseded,
    force: Option<bool>,
    #[serde(default, deserialize_with = "strings")]
    paths: Option<Vec<String>>,
    /// As the CLI's `--check` and `--require`.
    check: Option<String>,
    require: Option<String>,
    dry_run: Option<bool>,
    export: Option<bool>,
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

/// `retire`'s arguments.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RetireArguments {
    #[serde(deserialize_with = "required_rule_ref")]
    rule: RuleRef,
    why: String,
    dry_run: Option<bool>,
    export: Option<bool>,
}

/// `check` takes no arguments.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckArguments {}

/// `preset_validate`'s arguments.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PresetValidateArguments {
    #[serde(default, deserialize_with = "strings")]
    paths: Option<Vec<String>>,
    deny_warnings: Option<bool>,
}

/// `preset_render`'s arguments.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PresetRenderArguments {
    preset: String,
    #[serde(default, deserialize_with = "strings")]
    commands: Option<Vec<String>>,
    #[serde(default, deserialize_with = "values")]
    set: BTreeMap<String, String>,
    strict: Option<bool>,
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

/// Local rule numbers, and imported rules (`org:12` as its name and number).
type Superseded = (Vec<u64>, Vec<(String, u64)>);

/// `supersedes`: local rule numbers, and imported rules as `"org:12"`; null as none.
fn supersedes<'de, D: Deserializer<'de>>(input: D) -> Result<Superseded, D::Error> {
    let bad =
        || de::Error::custom("expected a list of rule numbers or imported rules (\"org:12\")");
    let (mut local, mut imported) = (Vec::new(), Vec::new());
    let items = match Option::<Value>::deserialize(input)? {
        None | Some(Value::Null) => return Ok((local, imported)),
        Some(Value::Array(items)) => items,
        Some(_) => return Err(bad()),
    };
    for item in items {
        match item {
            Value::Number(n) => local.push(n.as_u64().ok_or_else(bad)?),
            Value::String(text) => match text.parse::<RuleRef>().map_err(|_| bad())? {
                RuleRef::Imported { source, number } => imported.push((source, number)),
                RuleRef::Local(number) => local.push(number),
            },
            _ => return Err(bad()),
        }
    }
    Ok((local, imported))
}

/// A rule as a number (`4`) or a string (`"4"`, `"org:4"`), read by the one parser.
fn rule_value(value: Value) -> Result<RuleRef, String> {
    let bad = || "expected a rule number or an imported rule (\"org:12\")".to_string();
    match value {
        Value::Number(n) => n
            .as_u64()
            .filter(|&n| n > 0)
            .map(RuleRef::Local)
            .ok_or_else(bad),
        Value::String(text) => text.parse().map_err(|_| bad()),
        _ => Err(bad()),
    }
}

/// An optional `rule`: null or absent is none.
fn rule_ref<'de, D: Deserializer<'de>>(input: D) -> Result<Option<RuleRef>, D::Error> {
    match Option::<Value>::deserialize(input)? {
        None | Some(Value::Null) => Ok(None),
        Some(value) => rule_value(value).map(Some).map_err(de::Error::custom),
    }
}

/// A required `rule`.
fn required_rule_ref<'de, D: Deserializer<'de>>(input: D) -> Result<RuleRef, D::Error> {
    rule_value(Value::deserialize(input)?).map_err(de::Error::custom)
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
    let all = arguments.all.unwrap_or(false);
    let workspace = context.workspace().map_err(failure)?;
    let paths = workspace.paths_inside(&arguments.for_paths.unwrap_or_default());
    let query = listing::Query {
        categories: arguments.category.unwrap_or_default(),
        all,
        budget: arguments.budget,
        paths: paths.map_err(|error| format!("`for` {error}"))?,
        search: arguments.search,
        provenance: (arguments.provenance == Some(true))
            .then(|| std::sync::Arc::new(History::read(&workspace.rules_file))),
    };
    let listing = service::list(&workspace, &query).map_err(|error| failure(error.into()))?;
    let (text, json) = (listing.to_text(), serde_json::to_value(&listing));
    let mut json = json.map_err(|error| error.to_string())?;
    let mut text = text;
    let categories: Vec<String> = query
        .categories
        .iter()
        .map(|c| crate::rules::category::normalize(c))
        .collect();
    // Imported (`org:N`) and personal (`user:N`) rules, as `autofix rules` lists them.
    let layers = crate::sources::layers::for_workspace(&workspace);
    if !layers.is_empty() {
        let filter = crate::sources::layers::Filter {
            categories: &categories,
            all,
            paths: &query.paths,
            search: query.search.as_deref(),
        };
        text.push_str(&crate::sources::layers::render_text(&layers, &filter));
        json["imported"] = crate::sources::layers::to_json(&layers, &filter);
    }
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
    let (supersedes, imported) = arguments.supersedes;
    let mut why = arguments.why;
    if !imported.is_empty() {
        let workspace = context.workspace().map_err(failure)?;
        let marked =
            crate::sources::layers::mark_superseded(&workspace, &why, &imported, "`supersedes`")
                .map_err(|error| error.to_string())?;
        why = match marked {
            Ok(why) => why,
            Err(refusal) => return Ok(Answer::Failed(refusal)),
        };
    }
    let request = learn::Request {
        category: arguments.category,
        instruction: arguments.instruction,
        why,
        supersedes,
        force: arguments.force.unwrap_or(false),
        paths: arguments.paths.unwrap_or_default(),
        check,
        retirement: false,
    };
    let after = if arguments.export.unwrap_or(true) {
        AfterLearning::Export
    } else {
        AfterLearning::Skip
    };
    let workspace = context.workspace().map_err(failure)?;
    match crate::sources::layers::imported_refusal(&workspace, &request) {
        Some(crate::sources::layers::NotLearned::Refused(why)) => return Ok(Answer::Failed(why)),
        Some(crate::sources::layers::NotLearned::Repeat { id, message }) => {
            return Ok(Answer::Done {
                json: serde_json::json!({"version": 1, "status": "duplicate", "imported": id, "message": message}),
                text: message,
            });
        }
        None => {}
    }
    let options = learn::Options {
        dry_run: arguments.dry_run.unwrap_or(false),
        lock_timeout: crate::io::lock::timeout().map_err(|error| error.to_string())?,
    };
    let learned = learning::learn(&workspace, &request, &options, after)
        .map_err(|error| failure(error.into()))?;
    // English: the tool answers the agent, which speaks to the user in its own words.
    let mut text = crate::front::i18n::learned(
        &learned,
        crate::front::i18n::Lang::En,
        crate::front::i18n::Front::Mcp,
    );
    text.push_str(&learned.warnings_text(crate::report::paint::Painter::new(false)));
    Ok(Answer::Done {
        text,
        json: learned.to_value(),
    })
}

fn retire_tool(context: &Context, arguments: &Map<String, Value>) -> Result<Answer, String> {
    let arguments: RetireArguments = read("retire", arguments)?;
    let number = &arguments.rule;
    let why = arguments.why;
    let dry_run = arguments.dry_run.unwrap_or(false);
    let after = if arguments.export.unwrap_or(true) {
        AfterLearning::Export
    } else {
        AfterLearning::Skip
    };
    let workspace = context.workspace().map_err(failure)?;
    let learned =
        history::retire_rule(&workspace, number, &why, dry_run, after).map_err(failure)?;
    let (mut text, json) = history::retired_output(&learned, number, &why);
    text.push_str(&learned.warnings_text(crate::report::paint::Painter::new(false)));
    let json = serde_json::from_str(&json).map_err(|error| error.to_string())?;
    Ok(Answer::Done { text, json })
}

fn check(context: &Context) -> Result<Answer, String> {
    let workspace = context.workspace().map_err(failure)?;
    let report = service::check(&workspace).map_err(|error| failure(error.into()))?;
    Ok(Answer::Done {
        text: report.to_text(crate::report::paint::Painter::new(false)),
        json: report.to_value(),
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
