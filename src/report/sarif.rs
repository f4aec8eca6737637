//! SARIF 2.1.0 for GitHub code scanning: the same diagnostics as the text and GitHub
//! renderers, as one log with one run. Hand-written structs (a dozen fields do not need a
//! SARIF crate): every code is a rule with its help text, URIs are relative to a base
//! directory with `/`, lines and columns are 1-based code points, `results` is always
//! present and `partialFingerprints` is left to the upload action.

use std::path::{Component, Path};

use serde::Serialize;

use crate::report::diagnostics::{Code, Diagnostic, Severity};

const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";
const SOURCE_ROOT: &str = "%SRCROOT%";

#[derive(Serialize)]
struct Log<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: [Run<'a>; 1],
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Run<'a> {
    tool: Tool,
    automation_details: AutomationDetails<'a>,
    column_kind: &'static str,
    results: Results<'a>,
}

#[derive(Serialize)]
struct Tool {
    driver: Driver,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver {
    name: &'static str,
    version: &'static str,
    semantic_version: &'static str,
    rules: Vec<Rule>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Rule {
    id: &'static str,
    name: String,
    short_description: Text,
    full_description: Text,
    help: Help,
    default_configuration: Configuration,
}

#[derive(Serialize)]
struct Text {
    text: String,
}

#[derive(Serialize)]
struct Help {
    text: String,
    markdown: String,
}

#[derive(Serialize)]
struct Configuration {
    level: &'static str,
}

#[derive(Serialize)]
struct AutomationDetails<'a> {
    id: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult {
    rule_id: &'static str,
    rule_index: usize,
    level: &'static str,
    message: Text,
    locations: [Location; 1],
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Location {
    physical_location: PhysicalLocation,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    region: Region,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactLocation {
    uri: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    uri_base_id: Option<&'static str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: u32,
    start_column: u32,
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Note => "note",
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

fn rule(code: Code) -> Rule {
    let name = code
        .as_str()
        .split('-')
        .map(|word| {
            let mut chars = word.chars();
            chars.next().map_or(String::new(), |first| {
                first.to_uppercase().chain(chars).collect()
            })
        })
        .collect();
    Rule {
        id: code.as_str(),
        name,
        short_description: Text {
            text: code.summary().to_string(),
        },
        full_description: Text {
            text: format!("{} {}", code.summary(), code.why()),
        },
        help: Help {
            text: crate::report::explain::text(code),
            markdown: crate::report::explain::markdown(code),
        },
        default_configuration: Configuration {
            level: level(code.severity()),
        },
    }
}

/// A URI for `file` relative to `base` (the directory GitHub sees as the checkout), with
/// `/` separators; a file outside `base` keeps its own path.
fn uri(file: &Path, base: &Path) -> (String, Option<&'static str>) {
    // A relative file is read as the file system reads it, from the current directory
    // (where the front end showed it relative to).
    let absolute = std::path::absolute(file).unwrap_or_else(|_| file.to_path_buf());
    let normal = crate::io::workspace::lexical(&absolute);
    match normal.strip_prefix(crate::io::workspace::lexical(base)) {
        Ok(relative) => (slashes(relative), Some(SOURCE_ROOT)),
        Err(_) => (format!("file://{}", slashes(&normal)), None),
    }
}

fn slashes(path: &Path) -> String {
    path.components()
        .filter_map(|c| match c {
            Component::Normal(part) => Some(part.to_string_lossy().into_owned()),
            Component::RootDir => Some(String::new()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// The SARIF log for `diagnostics`. `category` becomes `automationDetails.id` (one per
/// upload, e.g. `autofix-check/`); URIs are relative to `base`. A diagnostic without a
/// file is placed on `fallback_file`.
pub(crate) fn render(
    diagnostics: &[Diagnostic],
    category: &str,
    base: &Path,
    fallback_file: &Path,
) -> String {
    let mut out = Vec::new();
    write(&mut out, diagnostics, category, base, fallback_file)
        .expect("writing to memory cannot fail");
    String::from_utf8(out).expect("JSON is text")
}

/// [`render`], written to `out` as it is made: each result is made as it is written, so a
/// file with a finding on every rule is never held whole as a log.
pub(crate) fn write(
    out: &mut dyn std::io::Write,
    diagnostics: &[Diagnostic],
    category: &str,
    base: &Path,
    fallback_file: &Path,
) -> std::io::Result<()> {
    let log = Log {
        schema: SCHEMA,
        version: "2.1.0",
        runs: [Run {
            tool: Tool {
                driver: Driver {
                    name: "autofix",
                    version: env!("CARGO_PKG_VERSION"),
                    semantic_version: env!("CARGO_PKG_VERSION"),
                    rules: Code::ALL.iter().copied().map(rule).collect(),
                },
            },
            automation_details: AutomationDetails { id: category },
            column_kind: "unicodeCodePoints",
            results: Results {
                diagnostics,
                base,
                fallback_file,
            },
        }],
    };
    serde_json::to_writer_pretty(&mut *out, &log)?;
    out.write_all(b"\n")
}

/// The results of a run, each made from its finding when it is serialised.
struct Results<'a> {
    diagnostics: &'a [Diagnostic],
    base: &'a Path,
    fallback_file: &'a Path,
}

impl Serialize for Results<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let results = (self.diagnostics.iter())
            .map(|diagnostic| result(diagnostic, self.base, self.fallback_file));
        serializer.collect_seq(results)
    }
}

/// One finding as a SARIF result.
fn result(diagnostic: &Diagnostic, base: &Path, fallback_file: &Path) -> SarifResult {
    let file = diagnostic.file.as_deref().unwrap_or(fallback_file);
    let (uri, uri_base_id) = uri(file, base);
    let position = diagnostic.position;
    let mut message = diagnostic.message.to_string();
    if let Some(help) = &diagnostic.help {
        message.push_str("\nhelp: ");
        message.push_str(help);
    }
    SarifResult {
        rule_id: diagnostic.code.as_str(),
        rule_index: Code::ALL
            .iter()
            .position(|c| *c == diagnostic.code)
            .expect("every code is in Code::ALL"),
        level: level(diagnostic.severity()),
        message: Text { text: message },
        locations: [Location {
            physical_location: PhysicalLocation {
                artifact_location: ArtifactLocation { uri, uri_base_id },
                region: Region {
                    start_line: position.map_or(1, |p| p.line.max(1)),
                    start_column: position.map_or(1, |p| p.column.max(1)),
                },
            },
        }],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_are_relative_with_slashes() {
        let base = Path::new("/repo");
        assert_eq!(
            uri(Path::new("/repo/./a/../b/c.json"), base),
            ("b/c.json".to_string(), Some(SOURCE_ROOT))
        );
        assert_eq!(
            uri(Path::new("/elsewhere/x.json"), base),
            ("file:///elsewhere/x.json".to_string(), None)
        );
    }

    #[test]
    fn every_code_is_a_rule_and_results_are_present_when_empty() {
        let log: serde_json::Value = serde_json::from_str(&render(
            &[],
            "autofix-check/",
            Path::new("/"),
            Path::new("x"),
        ))
        .unwrap();
        let run = &log["runs"][0];
        assert_eq!(run["results"], serde_json::json!([]));
        assert_eq!(
            run["tool"]["driver"]["rules"].as_array().unwrap().len(),
            Code::ALL.len()
        );
        assert_eq!(run["tool"]["driver"]["rules"][0]["name"], "InvalidJson");
    }
}
