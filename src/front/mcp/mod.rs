//! `autofix mcp`: the rules and preset tools over the Model Context Protocol, as a
//! blocking, single-threaded JSON-RPC 2.0 server on stdio (one message per line).
//!
//! It answers both protocol eras: the legacy `initialize` handshake (2024-11-05 to
//! 2025-11-25) and the stateless 2026-07-28 revision, where every request carries its
//! protocol version in `params._meta` and `server/discover` replaces the handshake. Each
//! tool calls the same function and JSON renderer as the CLI, so its `structuredContent` is
//! exactly the CLI's `--format json` document; this module adds protocol, not logic.
//!
//! This file is the transport (stdio, JSON-RPC, the protocol's methods); `tools.rs` the
//! tool list and the handlers; `arguments.rs` the tools' arguments, from which
//! `schema.rs` derives their input schemas.

mod arguments;
mod schema;
mod tools;

use std::io::{self, BufRead, Write};
use std::panic::{self, AssertUnwindSafe};
use std::process::ExitCode;

use serde_json::{Value, json};

use crate::front::context::Context;

/// Versions reached through `initialize`, newest first.
const LEGACY_VERSIONS: [&str; 4] = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
/// The stateless revision.
const MODERN_VERSION: &str = "2026-07-28";
const PROTOCOL_VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";
const SERVER_INFO_KEY: &str = "io.modelcontextprotocol/serverInfo";

/// A line longer than this is refused (-32600) and skipped up to its newline.
const MAX_LINE: usize = 8 * 1024 * 1024;

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
            let mut result = json!({"tools": tools::list()});
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
            tools::call(context, params)?
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
