//! `autofix mcp`: JSON-RPC over pipes to the real binary, in both protocol eras, and the
//! official Python client where it is installed.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use serde_json::{Value, json};

use crate::support::{BIN, Sandbox, example_workspace};

const MODERN: &str = "2026-07-28";

/// A running `autofix mcp`.
struct Server {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Server {
    fn start(sandbox: &Sandbox) -> Server {
        Server::start_with(sandbox, &[])
    }

    fn start_with(sandbox: &Sandbox, env: &[(&str, &str)]) -> Server {
        let mut command = sandbox.command(&["mcp"]);
        for (key, value) in env {
            command.env(key, value);
        }
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        Server {
            child,
            input,
            output,
        }
    }

    fn send_raw(&mut self, line: &[u8]) {
        self.input.write_all(line).unwrap();
        self.input.write_all(b"\n").unwrap();
        self.input.flush().unwrap();
    }

    /// The next line of stdout, which must be one JSON-RPC message.
    fn receive(&mut self) -> Value {
        let mut line = String::new();
        self.output.read_line(&mut line).unwrap();
        let message: Value =
            serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line:?}"));
        let check = |m: &Value| assert_eq!(m["jsonrpc"], "2.0", "{m}");
        match &message {
            Value::Array(batch) => batch.iter().for_each(check),
            single => check(single),
        }
        message
    }

    fn request(&mut self, id: u64, method: &str, params: Value) -> Value {
        let message = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.send_raw(message.to_string().as_bytes());
        let reply = self.receive();
        assert_eq!(reply["id"], id, "{reply}");
        reply
    }

    /// A tool call's result (legacy era).
    fn call(&mut self, id: u64, tool: &str, arguments: Value) -> Value {
        let reply = self.request(
            id,
            "tools/call",
            json!({"name": tool, "arguments": arguments}),
        );
        reply["result"].clone()
    }

    /// Closes stdin and returns the exit status.
    fn finish(self) -> i32 {
        let Server {
            mut child, input, ..
        } = self;
        drop(input);
        child.wait().unwrap().code().unwrap_or(-1)
    }
}

fn modern_meta(version: &str) -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientCapabilities": {}
    })
}

#[test]
fn the_legacy_handshake_echoes_each_supported_version() {
    let sandbox = example_workspace();
    for (asked, answered) in [
        ("2025-11-25", "2025-11-25"),
        ("2025-06-18", "2025-06-18"),
        ("2025-03-26", "2025-03-26"),
        ("2024-11-05", "2024-11-05"),
        ("2099-01-01", "2025-11-25"),
        (MODERN, "2025-11-25"),
    ] {
        let mut server = Server::start(&sandbox);
        let reply = server.request(
            1,
            "initialize",
            json!({"protocolVersion": asked, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}),
        );
        let result = &reply["result"];
        assert_eq!(result["protocolVersion"], answered, "{asked}");
        assert_eq!(result["serverInfo"]["name"], "autofix");
        assert!(result["capabilities"]["tools"].is_object());
        assert!(
            result.get("resultType").is_none(),
            "no modern fields in legacy replies"
        );
        server.send_raw(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        assert_eq!(server.request(2, "ping", json!({}))["result"], json!({}));
        let list = server.request(3, "tools/list", json!({}));
        assert!(list["result"].get("ttlMs").is_none());
        assert_eq!(server.finish(), 0, "EOF ends the server cleanly");
    }
}

#[test]
fn the_stateless_era_discovers_and_marks_results() {
    let sandbox = example_workspace();
    let mut server = Server::start(&sandbox);
    let discover = server.request(1, "server/discover", json!({"_meta": modern_meta(MODERN)}));
    let result = &discover["result"];
    assert_eq!(result["resultType"], "complete");
    assert_eq!(result["ttlMs"], 0);
    assert_eq!(result["cacheScope"], "private");
    assert_eq!(
        result["supportedVersions"],
        json!([
            MODERN,
            "2025-11-25",
            "2025-06-18",
            "2025-03-26",
            "2024-11-05"
        ])
    );
    let list = server.request(2, "tools/list", json!({"_meta": modern_meta(MODERN)}));
    assert_eq!(list["result"]["resultType"], "complete");
    assert_eq!(list["result"]["cacheScope"], "private");
    let call = server.request(
        3,
        "tools/call",
        json!({"name": "check", "arguments": {}, "_meta": modern_meta(MODERN)}),
    );
    assert_eq!(call["result"]["resultType"], "complete");
    assert_eq!(call["result"]["isError"], false);

    let unsupported = server.request(4, "tools/list", json!({"_meta": modern_meta("2030-01-01")}));
    assert_eq!(unsupported["error"]["code"], -32022);
    assert_eq!(unsupported["error"]["data"]["requested"], "2030-01-01");
    assert_eq!(
        unsupported["error"]["data"]["supported"],
        result["supportedVersions"]
    );
    assert_eq!(server.finish(), 0);
}

#[test]
fn protocol_errors_and_bad_lines() {
    let sandbox = example_workspace();
    let mut server = Server::start(&sandbox);
    assert_eq!(
        server.request(1, "no/such/method", json!({}))["error"]["code"],
        -32601
    );
    assert_eq!(
        server.request(2, "tools/call", json!({"name": "nope"}))["error"]["code"],
        -32602
    );
    assert_eq!(
        server.request(3, "tools/call", json!({"name": "rules", "arguments": [1]}))["error"]["code"],
        -32602
    );
    server.send_raw(b"this is not json");
    assert_eq!(server.receive()["error"]["code"], -32700);
    server.send_raw(br#"{"jsonrpc": "1.0", "id": 9, "method": "ping"}"#);
    assert_eq!(server.receive()["error"]["code"], -32600);
    server.send_raw(b"[]");
    assert_eq!(server.receive()["error"]["code"], -32600);
    // A batch: two requests and a notification give an array of two replies.
    server.send_raw(
        br#"[{"jsonrpc":"2.0","id":"a","method":"ping"},{"jsonrpc":"2.0","method":"notifications/whatever"},{"jsonrpc":"2.0","id":"b","method":"nope"}]"#,
    );
    let batch = server.receive();
    let replies = batch.as_array().unwrap();
    assert_eq!(replies.len(), 2);
    assert_eq!(replies[0]["id"], "a");
    assert_eq!(replies[1]["error"]["code"], -32601);
    // An over-long line is refused and skipped; the server goes on.
    let mut long = vec![b'x'; 8 * 1024 * 1024 + 10];
    long.extend_from_slice(b" tail");
    server.send_raw(&long);
    assert_eq!(server.receive()["error"]["code"], -32600);
    assert_eq!(server.request(10, "ping", json!({}))["result"], json!({}));
    // Unknown notifications are ignored: the next reply is the next request's.
    server.send_raw(br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{}}"#);
    assert_eq!(server.request(11, "ping", json!({}))["id"], 11);
    assert_eq!(server.finish(), 0);
}

#[test]
fn the_tool_list_is_deterministic_and_well_formed() {
    let sandbox = example_workspace();
    let mut first = Server::start(&sandbox);
    let list = first.request(1, "tools/list", json!({}));
    let mut second = Server::start(&sandbox);
    assert_eq!(second.request(1, "tools/list", json!({})), list);
    let tools = list["result"]["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "rules",
            "learn",
            "retire",
            "verdict",
            "check",
            "preset_validate",
            "preset_render"
        ]
    );
    for tool in tools {
        let name = tool["name"].as_str().unwrap();
        assert!(name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'));
        assert_eq!(tool["inputSchema"]["type"], "object", "{name}");
        assert_eq!(tool["outputSchema"]["type"], "object", "{name}");
        let annotations = &tool["annotations"];
        assert!(annotations["readOnlyHint"].is_boolean(), "{name}");
        assert_eq!(annotations["openWorldHint"], false, "{name}");
    }
    let learn = &tools[1]["annotations"];
    assert_eq!(learn["readOnlyHint"], false);
    assert_eq!(learn["destructiveHint"], false);
    assert_eq!(learn["idempotentHint"], true);
    first.finish();
    second.finish();
}

/// Every tool's result whole, as an agent reads it: the tool list, then a call of each
/// tool on the bundled examples (a dry-run `learn`, a `retire` and a `verdict` refused).
#[test]
fn every_tools_result_as_the_agent_reads_it() {
    let sandbox = example_workspace();
    let mut server = Server::start(&sandbox);
    let list = server.request(1, "tools/list", json!({}));
    let pretty = |value: &Value| serde_json::to_string_pretty(value).unwrap();
    insta::assert_snapshot!("mcp_tools_list", pretty(&list["result"]));
    for (id, (tool, arguments)) in [
        ("rules", json!({"category": ["tool"]})),
        (
            "learn",
            json!({"category": "ux", "instruction": "Always label icons", "why": "a11y", "dry_run": true}),
        ),
        ("retire", json!({"rule": 999, "why": "gone"})),
        ("verdict", json!({"note": "000000", "said": "nothing"})),
        ("check", json!({})),
        ("preset_validate", json!({"paths": ["presets", "broken-presets"]})),
        (
            "preset_render",
            json!({"preset": "presets/last30days", "set": {"topic": "rust"}, "commands": ["research"]}),
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let result = server.call(10 + id as u64, tool, arguments);
        let shown = pretty(&result).replace(&sandbox.path().display().to_string(), "[sandbox]");
        insta::assert_snapshot!(format!("mcp_{tool}"), shown);
    }
    assert_eq!(server.finish(), 0);
}

/// The CLI's `--format json` document for `args`, parsed.
fn cli_json(sandbox: &Sandbox, args: &[&str]) -> Value {
    let run = sandbox.run(args);
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}\n{}", run.stderr))
}

#[test]
fn structured_content_is_the_cli_json() {
    let sandbox = example_workspace();
    let mut server = Server::start(&sandbox);
    let cases = [
        (
            "rules",
            json!({"category": ["tool"], "all": true}),
            vec!["rules", "--category", "tool", "--all", "--format", "json"],
        ),
        (
            "learn",
            json!({"category": "ux", "instruction": "Always label icons", "why": "a11y", "dry_run": true}),
            vec![
                "learn",
                "--dry-run",
                "-c",
                "ux",
                "-w",
                "a11y",
                "Always label icons",
                "--format",
                "json",
            ],
        ),
        ("check", json!({}), vec!["check", "--format", "json"]),
        (
            "preset_validate",
            json!({"paths": ["presets", "broken-presets"]}),
            vec![
                "preset",
                "validate",
                "presets",
                "broken-presets",
                "--format",
                "json",
            ],
        ),
        (
            "preset_render",
            json!({"preset": "presets/last30days", "set": {"topic": "rust"}, "commands": ["research"]}),
            vec![
                "preset",
                "render",
                "presets/last30days",
                "--set",
                "topic=rust",
                "--command",
                "research",
                "--format",
                "json",
            ],
        ),
    ];
    for (id, (tool, arguments, cli)) in cases.into_iter().enumerate() {
        let result = server.call(id as u64, tool, arguments);
        assert_eq!(
            result["structuredContent"],
            cli_json(&sandbox, &cli),
            "{tool}"
        );
        assert!(
            result["content"][0]["text"].as_str().unwrap().len() > 1,
            "{tool}"
        );
        // Found problems are results, not errors.
        assert_eq!(result["isError"], false, "{tool}");
    }
    let validate = server.call(9, "preset_validate", json!({"paths": ["broken-presets"]}));
    assert_eq!(validate["structuredContent"]["ok"], false);
    assert_eq!(server.finish(), 0);
    // Nothing was written by the dry run.
    assert!(
        !sandbox
            .read(".agents/autofix.json")
            .contains("Always label icons")
    );
}

#[test]
fn bad_input_is_a_tool_error_and_nothing_is_written() {
    let sandbox = example_workspace();
    let before = sandbox.read(".agents/autofix.json");
    let mut server = Server::start(&sandbox);
    for (tool, arguments, message) in [
        (
            "learn",
            json!({"category": "VIBES", "instruction": "x", "why": "y"}),
            "unknown category",
        ),
        (
            "learn",
            json!({"category": "CODE", "instruction": 3, "why": "y"}),
            "`instruction` must be a string",
        ),
        (
            "learn",
            json!({"category": "CODE", "why": "y"}),
            "`instruction` is required",
        ),
        (
            "learn",
            json!({"category": "CODE", "instruction": null, "why": "y"}),
            "`instruction` is required",
        ),
        (
            "rules",
            json!({"all": "yes"}),
            "`all` must be true or false",
        ),
        (
            "preset_render",
            json!({"preset": "broken-presets/release-notes"}),
            "disabled",
        ),
        (
            "preset_render",
            json!({"preset": "presets/last30days", "strict": true}),
            "no value",
        ),
        (
            "preset_validate",
            json!({"paths": ["missing-dir"]}),
            "missing-dir",
        ),
    ] {
        let result = server.call(1, tool, arguments);
        assert_eq!(result["isError"], true, "{tool}: {result}");
        let text = result["content"][0]["text"].as_str().unwrap();
        assert!(text.contains(message), "{tool}: {text}");
    }
    assert_eq!(sandbox.read(".agents/autofix.json"), before);
    // A corrupt rules file and a held lock: still valid replies, still serving.
    sandbox.write(".agents/autofix.json", "[{");
    let result = server.call(2, "rules", json!({}));
    assert_eq!(result["isError"], true);
    assert!(
        result["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("invalid JSON")
    );
    sandbox.write(".agents/autofix.json", &before);
    let lock = std::fs::File::create(sandbox.join(".agents/autofix.json.lock")).unwrap();
    fs2::FileExt::lock_exclusive(&lock).unwrap();
    drop(server);
    let mut server = Server::start_with(&sandbox, &[("AUTOFIX_LOCK_TIMEOUT", "0.1")]);
    let result = server.call(
        3,
        "learn",
        json!({"category": "CODE", "instruction": "Always wait", "why": "w"}),
    );
    assert_eq!(result["isError"], true);
    assert!(
        result["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("autofix.json.lock")
    );
    assert_eq!(server.request(4, "ping", json!({}))["result"], json!({}));
    assert_eq!(sandbox.read(".agents/autofix.json"), before);
    server.finish();
}

#[test]
fn mcp_and_cli_learns_interleave_without_loss() {
    let sandbox = Sandbox::new();
    let mut server = Server::start(&sandbox);
    let cli = std::thread::scope(|scope| {
        let cli = scope.spawn(|| {
            for i in 0..100 {
                let mut command = sandbox.command(&[
                    "learn",
                    "-c",
                    "code",
                    "-w",
                    "cli",
                    &format!("Always cli {i}"),
                ]);
                command.env("AUTOFIX_LOCK_TIMEOUT", "60");
                assert!(command.output().unwrap().status.success());
            }
        });
        for i in 0..100 {
            let result = server.call(
                i,
                "learn",
                json!({"category": "CODE", "instruction": format!("Always mcp {i}"), "why": "mcp"}),
            );
            assert_eq!(result["isError"], false, "{result}");
            assert_eq!(result["structuredContent"]["status"], "learned");
        }
        cli.join()
    });
    cli.unwrap();
    server.finish();
    let rules: Value = serde_json::from_str(&sandbox.read(".agents/autofix.json")).unwrap();
    let numbers: Vec<u64> = rules
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["Rule_number"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, (1..=200).collect::<Vec<_>>());
}

/// The official Python SDK, in a venv that `.ci/run` prepares (`AUTOFIX_MCP_PYTHON`), or any
/// `python3` that can import `mcp`.
fn python_with_mcp() -> Option<String> {
    let candidates = std::env::var("AUTOFIX_MCP_PYTHON")
        .ok()
        .into_iter()
        .chain(["python3".to_string()]);
    for python in candidates {
        let works = Command::new(&python)
            .args(["-c", "import mcp.client.client"])
            .output()
            .is_ok_and(|o| o.status.success());
        if works {
            return Some(python);
        }
    }
    None
}

#[test]
fn the_official_python_client_connects_in_every_mode() {
    let Some(python) = python_with_mcp() else {
        return crate::support::skip(
            "mcp-python",
            "the Python `mcp` package is not installed (set AUTOFIX_MCP_PYTHON)",
        );
    };
    let sandbox = example_workspace();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scripts/mcp_client.py");
    for (mode, version) in [("legacy", "2025-11-25"), ("auto", MODERN), (MODERN, MODERN)] {
        let output = Command::new(&python)
            .arg(&script)
            .args([BIN, sandbox.path().to_str().unwrap(), mode])
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{mode}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let report: Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(report["version"], version, "{mode}");
        assert_eq!(
            report["tools"],
            json!([
                "check",
                "learn",
                "preset_render",
                "preset_validate",
                "retire",
                "rules",
                "verdict"
            ])
        );
        for (tool, result) in report["results"].as_object().unwrap() {
            assert_eq!(result["isError"], false, "{mode} {tool}");
            assert_eq!(result["version"], 1, "{mode} {tool}");
        }
    }
}

#[test]
fn a_listing_too_large_for_a_tool_result_asks_for_a_filter() {
    let sandbox = Sandbox::new();
    let rules: Vec<Value> = (1..=400)
        .map(|n| {
            json!({
                "Rule_number": n,
                "Category": if n % 2 == 0 { "CODE" } else { "STYLE" },
                "Instruction": format!("Always keep module {n} free of side effects at import time - because the loader runs every module once."),
                "Why": "codebase pattern",
            })
        })
        .collect();
    sandbox.write(
        ".agents/autofix.json",
        serde_json::to_string_pretty(&rules).unwrap(),
    );
    let mut server = Server::start(&sandbox);
    let result = server.call(1, "rules", json!({}));
    assert_eq!(result["isError"], true);
    assert!(
        result["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("category")
    );
    // A filtered listing fits.
    let filtered = server.call(2, "rules", json!({"category": ["CODE"]}));
    assert_eq!(filtered["isError"], false);
    assert_eq!(
        filtered["structuredContent"]["rules"]
            .as_array()
            .unwrap()
            .len(),
        200
    );
    server.finish();
}

/// A client that validates arguments against the schema can send what the server takes:
/// any category the file holds, in any case.
#[test]
fn category_schemas_are_open_like_the_server() {
    let sandbox = Sandbox::new();
    sandbox.write(
        ".agents/autofix.json",
        r#"[{"Rule_number": 1, "Category": "UI", "Instruction": "Always label icons", "Why": "a11y"}]"#,
    );
    let mut server = Server::start(&sandbox);
    let list = server.request(1, "tools/list", json!({}));
    let tools = list["result"]["tools"].as_array().unwrap();
    let schema = |name: &str| {
        tools.iter().find(|t| t["name"] == name).unwrap()["inputSchema"]["properties"]["category"]
            .clone()
    };
    assert!(
        schema("rules")["items"].get("enum").is_none(),
        "{}",
        schema("rules")
    );
    assert!(schema("learn").get("enum").is_none(), "{}", schema("learn"));
    let result = server.call(2, "rules", json!({"category": ["ui"]}));
    assert_eq!(
        result["structuredContent"]["rules"][0]["number"], 1,
        "{result}"
    );
    let learned = server.call(
        3,
        "learn",
        json!({"category": "[code]", "instruction": "Always x", "why": "w", "dry_run": true}),
    );
    assert_eq!(
        learned["structuredContent"]["status"], "dry_run",
        "{learned}"
    );
    assert_eq!(server.finish(), 0);
}

/// The MCP learn tool keeps the exports fresh like the CLI, unless told not to.
#[test]
fn mcp_learn_refreshes_the_exports() {
    let sandbox = Sandbox::new();
    sandbox.write(".git/HEAD", "ref: refs/heads/main\n");
    sandbox.write(".agents/autofix.json", "[]\n");
    sandbox.run(&["export"]).expect(0);
    assert!(sandbox.join("AGENTS.md").exists());
    let mut server = Server::start(&sandbox);
    let result = server.call(
        1,
        "learn",
        json!({"category": "code", "instruction": "Always export", "why": "w"}),
    );
    assert_eq!(
        result["structuredContent"]["exports"][0]["path"], "AGENTS.md",
        "{result}"
    );
    let skipped = server.call(
        2,
        "learn",
        json!({"category": "code", "instruction": "Always wait", "why": "w", "export": false}),
    );
    assert_eq!(
        skipped["structuredContent"]["exports"],
        json!([]),
        "{skipped}"
    );
    assert_eq!(server.finish(), 0);
    assert!(sandbox.read("AGENTS.md").contains("Always export"));
    assert!(!sandbox.read("AGENTS.md").contains("Always wait"));
    sandbox.run(&["export", "--check"]).expect(1);
}

#[test]
fn learn_takes_paths_and_rules_takes_for() {
    let sandbox = Sandbox::new();
    let mut server = Server::start(&sandbox);
    let learned = server.call(
        1,
        "learn",
        json!({"category": "CODE", "instruction": "Never panic in handlers", "why": "api", "paths": ["src/api/**"]}),
    );
    assert_eq!(learned["isError"], false, "{learned}");
    assert_eq!(
        learned["structuredContent"]["rule"]["Paths"],
        json!(["src/api/**"])
    );
    let refused = server.call(
        2,
        "learn",
        json!({"category": "CODE", "instruction": "Do x", "why": "y", "paths": ["src/[api"]}),
    );
    assert_eq!(refused["isError"], true, "{refused}");
    let listed = server.call(3, "rules", json!({"for": ["docs/a.md"]}));
    assert_eq!(listed["structuredContent"]["rules"], json!([]), "{listed}");
    let listed = server.call(4, "rules", json!({"for": ["src/api/h.rs"]}));
    assert_eq!(
        listed["structuredContent"]["rules"][0]["applies"],
        json!([{"path": "src/api/h.rs", "scope": "glob", "glob": "src/api/**"}])
    );
    let outside = server.call(5, "rules", json!({"for": ["../elsewhere.rs"]}));
    assert_eq!(outside["isError"], true, "{outside}");
    assert!(
        outside["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("`for` ../elsewhere.rs: the path is outside the workspace"),
        "{outside}"
    );
    server.finish();
}

/// An argument the tool does not know (`path` for `paths`) is refused and named with the
/// closest one: dropped, it would save the rule unscoped and report success.
#[test]
fn an_unknown_argument_is_refused_with_the_closest_name() {
    let sandbox = Sandbox::new();
    let mut server = Server::start(&sandbox);
    let result = server.call(
        1,
        "learn",
        json!({"category": "code", "instruction": "Always validate input", "why": "safety", "path": ["src/api/**"]}),
    );
    assert_eq!(result["isError"], true, "{result}");
    let text = result["content"][0]["text"].as_str().unwrap();
    assert_eq!(
        text,
        "unknown argument `path` for `learn`; did you mean `paths`?"
    );
    assert!(!sandbox.join(".agents/autofix.json").exists());
    let result = server.call(2, "rules", json!({"categroy": "CODE"}));
    assert_eq!(result["isError"], true, "{result}");
    assert_eq!(server.finish(), 0);
}

#[test]
fn mcp_retire_appends_a_record_as_the_cli_does() {
    let sandbox = Sandbox::new();
    for instruction in ["Always use tabs.", "Never use var."] {
        sandbox
            .run(&["learn", "-c", "style", "-w", "pref", instruction])
            .expect(0);
    }
    let mut server = Server::start(&sandbox);
    // A wrong argument is the tool's error, and writes nothing.
    let before = sandbox.read(".agents/autofix.json");
    for rule in [json!("two"), json!(0), json!(-1)] {
        let bad = server.call(1, "retire", json!({"rule": rule, "why": "x"}));
        assert_eq!(bad["isError"], true, "{bad}");
        let text = bad["content"][0]["text"].as_str().unwrap();
        assert!(
            text.contains("`rule` must be a rule number or an imported rule"),
            "{bad}"
        );
    }
    let missing = server.call(2, "retire", json!({"rule": 9, "why": "x"}));
    assert_eq!(missing["isError"], true, "{missing}");
    assert!(
        missing["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("no rule 9"),
        "{missing}"
    );
    assert_eq!(sandbox.read(".agents/autofix.json"), before);
    let done = server.call(
        3,
        "retire",
        json!({"rule": 2, "why": "the linter forbids it"}),
    );
    assert_eq!(done["isError"], false, "{done}");
    let json = &done["structuredContent"];
    assert_eq!(json["status"], "retired");
    assert_eq!(json["retired"], 2);
    assert_eq!(json["record"]["Rule_number"], 3);
    assert_eq!(json["record"]["Retirement"], true);
    let listed = server.call(4, "rules", json!({}));
    let numbers: Vec<u64> = listed["structuredContent"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["number"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, [1]);
    // Retiring it again is refused: it is no longer active.
    let again = server.call(5, "retire", json!({"rule": 2, "why": "again"}));
    assert_eq!(again["isError"], true, "{again}");
    // One rule whole: the CLI's `rules N --format json` document.
    let whole = server.call(6, "rules", json!({"rule": 2}));
    assert_eq!(
        whole["structuredContent"],
        cli_json(&sandbox, &["rules", "2", "--format", "json"])
    );
    assert_eq!(
        whole["structuredContent"]["superseded_by"][0]["retirement"],
        true
    );
    let mixed = server.call(7, "rules", json!({"rule": 2, "all": true}));
    assert_eq!(mixed["isError"], true, "{mixed}");
    assert_eq!(server.finish(), 0);
}

/// Whether `text` is the refusal of an argument by its tool's struct: unknown, missing or
/// of the wrong type.
fn argument_refused(text: &str) -> bool {
    text.starts_with("unknown argument")
        || (text.starts_with('`')
            && (text.contains("` is required") || text.contains("` must be ")))
}

/// A value of the schema's type, and one of another type.
fn sample_values(schema: &Value) -> (Value, Value) {
    let minimum = schema["minimum"].as_u64().unwrap_or(1);
    if schema["type"] == json!(["integer", "string"]) {
        // A rule reference: `4` or `"org:4"`.
        return (json!(minimum), json!(false));
    }
    match schema["type"].as_str() {
        Some("string") => (json!("x"), json!(7)),
        Some("boolean") => (json!(false), json!("yes")),
        Some("integer") => (json!(minimum), json!("seven")),
        Some("array") => match &schema["items"]["type"] {
            Value::Array(_) => (json!([1]), json!(7)),
            _ => (json!(["x"]), json!(7)),
        },
        Some("object") => (json!({"NAME": "x"}), json!(7)),
        other => panic!("a schema type the test does not know: {other:?}"),
    }
}

/// Each tool's advertised input schema is its arguments struct, through the binary: the
/// names the server knows (listed when an argument is unknown) are the schema's
/// properties; every required property is refused when missing, and nothing else is
/// required; every property takes a value of its schema type and refuses another by name.
#[test]
fn every_input_schema_is_its_arguments_struct() {
    let sandbox = example_workspace();
    let mut server = Server::start(&sandbox);
    let list = server.request(1, "tools/list", json!({}));
    let mut id = 1;
    let mut call = |tool: &str, arguments: &serde_json::Map<String, Value>| {
        id += 1;
        let result = server.call(id, tool, Value::Object(arguments.clone()));
        result["content"][0]["text"].as_str().unwrap().to_string()
    };
    for tool in list["result"]["tools"].as_array().unwrap() {
        let name = tool["name"].as_str().unwrap();
        let schema = &tool["inputSchema"];
        let properties = schema["properties"].as_object().unwrap();
        let required: Vec<&str> = schema["required"]
            .as_array()
            .map(|names| names.iter().map(|n| n.as_str().unwrap()).collect())
            .unwrap_or_default();
        let unknown = serde_json::Map::from_iter([("zzzzzzzzzzzzzzzz".to_string(), json!(1))]);
        let text = call(name, &unknown);
        let prefix = format!("unknown argument `zzzzzzzzzzzzzzzz` for `{name}`; ");
        let listed = text
            .strip_prefix(&prefix)
            .unwrap_or_else(|| panic!("{text}"));
        let mut known: Vec<&str> = match listed.strip_prefix("the arguments are ") {
            Some(names) => names.split(", ").map(|n| n.trim_matches('`')).collect(),
            None => {
                assert_eq!(listed, "it takes no arguments", "{name}");
                Vec::new()
            }
        };
        let mut advertised: Vec<&str> = properties.keys().map(String::as_str).collect();
        known.sort_unstable();
        advertised.sort_unstable();
        assert_eq!(
            known, advertised,
            "{name}: the struct's fields and the schema"
        );

        let base: serde_json::Map<String, Value> = required
            .iter()
            .map(|r| (r.to_string(), sample_values(&properties[*r]).0))
            .collect();
        let text = call(name, &base);
        assert!(
            !argument_refused(&text),
            "{name}: only what is required: {text}"
        );
        for missing in &required {
            let mut arguments = base.clone();
            arguments.remove(*missing);
            let text = call(name, &arguments);
            assert_eq!(text, format!("`{missing}` is required"), "{name}");
        }
        for (property, spec) in properties {
            let (good, bad) = sample_values(spec);
            let mut arguments = base.clone();
            arguments.insert(property.clone(), good);
            let text = call(name, &arguments);
            assert!(!argument_refused(&text), "{name}.{property}: {text}");
            arguments.insert(property.clone(), bad);
            let text = call(name, &arguments);
            assert!(
                text.starts_with(&format!("`{property}` must be ")),
                "{name}.{property}: {text}"
            );
        }
    }
    assert_eq!(server.finish(), 0);
}

#[test]
fn learn_takes_a_check_or_a_required_pattern_as_the_cli_does() {
    let Some(sandbox) = crate::support::tracked_repo(&[]) else {
        return;
    };
    let mut server = Server::start(&sandbox);
    let learned = server.call(
        1,
        "learn",
        json!({"category": "CODE", "instruction": "Never call `console.log` in src - because logs leak.", "why": "w", "paths": ["src/**"], "check": "console\\.log"}),
    );
    assert_eq!(learned["isError"], false, "{learned}");
    let required = server.call(
        2,
        "learn",
        json!({"category": "CODE", "instruction": "Always start each source file with a licence header.", "why": "w", "require": "SPDX-License-Identifier"}),
    );
    assert_eq!(required["isError"], false, "{required}");
    for (id, arguments) in [
        (3, json!({"check": "console.log("})),
        (4, json!({"check": "a", "require": "b"})),
    ] {
        let mut call = json!({"category": "CODE", "instruction": "Never use eval - because it runs any code.", "why": "w"});
        call.as_object_mut()
            .unwrap()
            .extend(arguments.as_object().unwrap().clone());
        let refused = server.call(id, "learn", call);
        assert_eq!(refused["isError"], true, "{refused}");
    }
    server.finish();
    let rules: Value = serde_json::from_str(&sandbox.read(".agents/autofix.json")).unwrap();
    assert_eq!(rules[0]["Check"], json!({"Forbid": "console\\.log"}));
    assert_eq!(
        rules[1]["Check"],
        json!({"Require": "SPDX-License-Identifier"})
    );
    assert_eq!(
        rules.as_array().unwrap().len(),
        2,
        "nothing learned when refused"
    );
    // The check works: enforce catches a file that breaks the first rule.
    sandbox.write("src/a.ts", "console.log(1);\n");
    let run = sandbox.run(&["enforce", "src/a.ts"]).expect(1);
    assert!(run.stdout.contains("breaks rule 1"), "{}", run.stdout);
}
