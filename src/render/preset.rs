//! The output of `autofix preset list|validate|render|requirements`: text for people,
//! JSON (one document with a `version` field) for programs, GitHub annotations for CI.
//! Every renderer returns a `String`; the CLI decides where it goes.

use std::fmt::Write as _;

use serde::Serialize;

use super::{Annotate, Render};
use crate::report::diagnostics::{self, Code, Counts, Diagnostic, DiagnosticJson};
use crate::report::paint::Painter;

use crate::preset::Preset;
use crate::preset::render::Rendered;
use crate::preset::requirements::{Status, Summary};
use crate::report::text::{counted, shown};

/// The `version` field of every JSON document.
const JSON_VERSION: u32 = 1;

fn to_json(value: &impl Serialize) -> String {
    crate::report::text::json_document(value)
}

fn status_word(preset: &Preset) -> &'static str {
    if preset.enabled() {
        "enabled"
    } else {
        "disabled"
    }
}

/// The codes of the errors that disable `preset`, each once, in order.
fn disabled_by(preset: &Preset) -> Vec<&'static str> {
    let mut codes: Vec<&'static str> = Vec::new();
    for diagnostic in preset.diagnostics.iter().filter(|d| d.is_error()) {
        if !codes.contains(&diagnostic.code.as_str()) {
            codes.push(diagnostic.code.as_str());
        }
    }
    codes
}

/// `list`: one line per preset — id, status, commands, bound skills, and for a disabled
/// one the errors that disable it.
fn list_text(presets: &[Preset], painter: Painter) -> String {
    let width = presets
        .iter()
        .map(|p| shown(&p.id).chars().count())
        .max()
        .unwrap_or(0);
    let commands: Vec<String> = presets
        .iter()
        .map(|p| counted(p.commands.len(), "command"))
        .collect();
    let commands_width = commands.iter().map(String::len).max().unwrap_or(0);
    let mut out = String::new();
    for (preset, commands) in presets.iter().zip(&commands) {
        let status = format!("{:<8}", status_word(preset));
        let status = if preset.enabled() {
            painter.good(&status)
        } else {
            painter.error(&status)
        };
        let skills = preset.bound_skills();
        let skills = if skills.is_empty() {
            "none".to_string()
        } else {
            shown(&skills.join(", ")).into_owned()
        };
        let _ = write!(
            out,
            "{:<width$}  {status}  {commands:<commands_width$}  skills: {skills}",
            shown(&preset.id)
        );
        let why = disabled_by(preset);
        if why.is_empty() {
            out.push('\n');
        } else {
            let _ = writeln!(
                out,
                "  (disabled by {}: `autofix preset validate` says where)",
                why.join(", ")
            );
        }
    }
    out
}

#[derive(Serialize)]
struct ListJson<'a> {
    version: u32,
    presets: Vec<ListedJson<'a>>,
}

#[derive(Serialize)]
struct ListedJson<'a> {
    id: &'a str,
    path: String,
    form: &'static str,
    enabled: bool,
    /// The codes of the errors that disable it; empty when enabled.
    disabled_by: Vec<&'static str>,
    commands: usize,
    skills: Vec<&'a str>,
    requirements: Vec<&'a str>,
}

/// `list --format json`.
fn list_json(presets: &[Preset]) -> String {
    to_json(&ListJson {
        version: JSON_VERSION,
        presets: presets
            .iter()
            .map(|p| ListedJson {
                id: &p.id,
                path: p.dir.display().to_string(),
                form: p.form.as_str(),
                enabled: p.enabled(),
                disabled_by: disabled_by(p),
                commands: p.commands.len(),
                skills: p.bound_skills(),
                requirements: p
                    .unique_requirements()
                    .iter()
                    .map(|r| r.cache_key.as_str())
                    .collect(),
            })
            .collect(),
    })
}

/// The totals `validate` ends with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Totals {
    pub presets: usize,
    pub enabled: usize,
    pub counts: Counts,
}

impl Totals {
    pub(crate) fn of(presets: &[Preset]) -> Totals {
        Totals {
            presets: presets.len(),
            enabled: presets.iter().filter(|p| p.enabled()).count(),
            counts: Counts::of(presets.iter().flat_map(|p| &p.diagnostics)),
        }
    }

    pub(crate) fn disabled(&self) -> usize {
        self.presets - self.enabled
    }

    /// Whether `validate` passes: nothing disabled, no error, and with `deny_warnings` no
    /// warning either (its exit status 0, and `ok` in its JSON).
    pub(crate) fn pass(&self, deny_warnings: bool) -> bool {
        self.disabled() == 0
            && self.counts.errors == 0
            && !(deny_warnings && self.counts.warnings > 0)
    }
}

/// The summary line; it never starts with `error` or `warning`, so a grep for diagnostics
/// does not count it.
fn summary_line(presets: &[Preset], totals: Totals) -> String {
    let mut line = format!(
        "Checked {}: {} enabled, {} disabled ({}, {})\n",
        counted(totals.presets, "preset"),
        totals.enabled,
        totals.disabled(),
        counted(totals.counts.errors, "error"),
        counted(totals.counts.warnings, "warning"),
    );
    let disabled: Vec<String> = presets
        .iter()
        .filter(|p| !p.enabled())
        .map(|p| p.dir.display().to_string())
        .collect();
    if !disabled.is_empty() {
        let _ = writeln!(line, "disabled: {}", shown(&disabled.join(", ")));
    }
    line
}

/// `validate`: compiler-like diagnostics, then the summary.
pub(crate) fn validate_text(presets: &[Preset], painter: Painter) -> String {
    let mut out = String::new();
    for diagnostic in presets.iter().flat_map(|p| &p.diagnostics) {
        diagnostics::render_text(&mut out, diagnostic, painter);
        out.push('\n');
    }
    out.push_str(&summary_line(presets, Totals::of(presets)));
    out
}

/// `validate --format github`: one workflow command per diagnostic, then the summary.
fn validate_github(presets: &[Preset]) -> String {
    let mut out = String::new();
    for diagnostic in presets.iter().flat_map(|p| &p.diagnostics) {
        diagnostics::render_github(&mut out, diagnostic);
    }
    out.push_str(&summary_line(presets, Totals::of(presets)));
    out
}

#[derive(Serialize)]
struct ValidateJson<'a> {
    version: u32,
    ok: bool,
    presets: Vec<ValidatedJson<'a>>,
    summary: SummaryJson,
}

#[derive(Serialize)]
struct ValidatedJson<'a> {
    id: &'a str,
    path: String,
    form: &'static str,
    enabled: bool,
    commands: usize,
    diagnostics: Vec<DiagnosticJson<'a>>,
}

#[derive(Serialize)]
struct SummaryJson {
    presets: usize,
    enabled: usize,
    disabled: usize,
    errors: usize,
    warnings: usize,
}

/// `validate --format json`; `ok` is false exactly when `validate` exits 1.
fn validate_json(presets: &[Preset], deny_warnings: bool) -> String {
    to_json(&validate_document(presets, deny_warnings))
}

/// The `preset validate --format json` document as a value (the MCP tool's result).
pub(crate) fn validate_value(presets: &[Preset], deny_warnings: bool) -> serde_json::Value {
    serde_json::to_value(validate_document(presets, deny_warnings))
        .expect("a report always serialises")
}

fn validate_document(presets: &[Preset], deny_warnings: bool) -> ValidateJson<'_> {
    let totals = Totals::of(presets);
    ValidateJson {
        version: JSON_VERSION,
        ok: totals.pass(deny_warnings),
        presets: presets
            .iter()
            .map(|p| ValidatedJson {
                id: &p.id,
                path: p.dir.display().to_string(),
                form: p.form.as_str(),
                enabled: p.enabled(),
                commands: p.commands.len(),
                diagnostics: diagnostics::json_of(&p.diagnostics),
            })
            .collect(),
        summary: SummaryJson {
            presets: totals.presets,
            enabled: totals.enabled,
            disabled: totals.disabled(),
            errors: totals.counts.errors,
            warnings: totals.counts.warnings,
        },
    }
}

/// Diagnostics alone (what `render` and `requirements` put on stderr).
pub(crate) fn diagnostics_text(diagnostics: &[Diagnostic], painter: Painter) -> String {
    let mut out = String::new();
    for diagnostic in diagnostics {
        diagnostics::render_text(&mut out, diagnostic, painter);
        out.push('\n');
    }
    out
}

/// `render`: each line, ended by a newline or (`nul`) a NUL; commands without a line are
/// skipped.
pub(crate) fn render_text(rendered: &[Rendered], nul: bool) -> String {
    let end = if nul { '\0' } else { '\n' };
    let mut out = String::new();
    for line in rendered.iter().filter_map(|r| r.line.as_deref()) {
        // A template may span lines: each is shown on its own (no control character, and
        // none that starts with `::`), the line breaks kept.
        for (i, part) in line.split('\n').enumerate() {
            if i > 0 {
                out.push('\n');
            }
            out.push_str(&shown(part));
        }
        out.push(end);
    }
    out
}

#[derive(Serialize)]
struct RenderJson<'a> {
    version: u32,
    preset: &'a str,
    commands: &'a [Rendered],
}

/// `render --format json`: every selected command, `line: null` when it has none.
fn render_json(preset: &Preset, rendered: &[Rendered]) -> String {
    to_json(&render_document(preset, rendered))
}

/// The `preset render --format json` document as a value (the MCP tool's result).
pub(crate) fn render_value(preset: &Preset, rendered: &[Rendered]) -> serde_json::Value {
    serde_json::to_value(render_document(preset, rendered)).expect("a report always serialises")
}

fn render_document<'a>(preset: &'a Preset, rendered: &'a [Rendered]) -> RenderJson<'a> {
    RenderJson {
        version: JSON_VERSION,
        preset: &preset.id,
        commands: rendered,
    }
}

/// Counts for the requirements summary.
fn skill_counts(summaries: &[Summary<'_>]) -> (usize, usize) {
    let skills = summaries
        .iter()
        .filter(|s| matches!(s.status, Status::Installed(_) | Status::Missing { .. }))
        .count();
    let missing = summaries
        .iter()
        .filter(|s| matches!(s.status, Status::Missing { .. }))
        .count();
    (skills, missing)
}

/// `requirements`: each requirement once, its status, the commands bound to it.
fn requirements_text(preset: &Preset, summaries: &[Summary<'_>], painter: Painter) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} ({}): {}",
        painter.bold(&shown(&preset.id)),
        shown(&preset.dir.display().to_string()),
        counted(summaries.len(), "requirement")
    );
    let width = summaries
        .iter()
        .map(|s| shown(&s.requirement.cache_key).chars().count())
        .max()
        .unwrap_or(0);
    let indent = " ".repeat(width + 4);
    for summary in summaries {
        let word = match &summary.status {
            Status::NotChecked => "not checked",
            Status::NotFound => "not found",
            other => other.as_str(),
        };
        let padded = format!("{word:<11}");
        let status = match &summary.status {
            Status::Installed(_) | Status::Found(_) => painter.good(&padded),
            Status::Missing { .. } | Status::NotFound => painter.error(&padded),
            Status::NotChecked => painter.dim(&padded),
        };
        let mut detail = Vec::new();
        if !summary.commands.is_empty() {
            detail.push(format!("commands: {}", shown(&summary.commands.join(", "))));
        }
        match &summary.status {
            Status::Found(path) => detail.push(shown(&path.display().to_string()).into_owned()),
            Status::NotFound => detail.push(format!(
                "`{}` is not on PATH",
                shown(
                    summary
                        .requirement
                        .command
                        .as_deref()
                        .unwrap_or(&summary.requirement.key)
                )
            )),
            _ => {}
        }
        if let Some(code) = requirement_code(&summary.status) {
            detail.push(painter.dim(&format!("[{}]", code.as_str())));
        }
        let line = format!(
            "  {:<width$}  {status}  {}",
            shown(&summary.requirement.cache_key),
            detail.join("  ")
        );
        let _ = writeln!(out, "{}", line.trim_end());
        match &summary.status {
            Status::Installed(path) => {
                let path = shown(&path.display().to_string()).into_owned();
                let _ = writeln!(out, "{indent}{}", painter.dim(&path));
            }
            Status::Missing { install } => {
                let _ = writeln!(out, "{indent}install: {}", shown(install));
            }
            _ => {}
        }
    }
    let (skills, missing) = skill_counts(summaries);
    let _ = writeln!(
        out,
        "{}",
        match (skills, missing) {
            (0, _) => "no skills required".to_string(),
            (n, 0) => format!("all {} installed", counted(n, "skill")),
            (n, m) => format!("{m} of {} not installed", counted(n, "skill")),
        }
    );
    out
}

#[derive(Serialize)]
struct RequirementsJson<'a> {
    version: u32,
    preset: &'a str,
    path: String,
    enabled: bool,
    requirements: Vec<RequirementJson<'a>>,
    summary: RequirementsSummaryJson,
    diagnostics: Vec<DiagnosticJson<'a>>,
}

#[derive(Serialize)]
struct RequirementJson<'a> {
    kind: &'static str,
    key: &'a str,
    cache_key: &'a str,
    command: Option<&'a str>,
    args: &'a [String],
    commands: &'a [&'a str],
    status: &'static str,
    path: Option<String>,
    install: Option<&'a str>,
}

#[derive(Serialize)]
struct RequirementsSummaryJson {
    requirements: usize,
    skills: usize,
    missing_skills: usize,
}

/// `requirements --format json`.
fn requirements_json(preset: &Preset, summaries: &[Summary<'_>]) -> String {
    let (skills, missing) = skill_counts(summaries);
    to_json(&RequirementsJson {
        version: JSON_VERSION,
        preset: &preset.id,
        path: preset.dir.display().to_string(),
        enabled: preset.enabled(),
        requirements: summaries
            .iter()
            .map(|s| RequirementJson {
                kind: s.requirement.kind.as_str(),
                key: &s.requirement.key,
                cache_key: &s.requirement.cache_key,
                command: s.requirement.command.as_deref(),
                args: &s.requirement.args,
                commands: &s.commands,
                status: s.status.as_str(),
                path: s.status.path().map(|p| p.display().to_string()),
                install: match &s.status {
                    Status::Missing { install } => Some(install),
                    _ => None,
                },
            })
            .collect(),
        summary: RequirementsSummaryJson {
            requirements: summaries.len(),
            skills,
            missing_skills: missing,
        },
        diagnostics: diagnostics::json_of(&preset.diagnostics)
            .into_iter()
            .chain(
                requirement_diagnostics(preset, summaries)
                    .into_iter()
                    .map(|unmet| -> DiagnosticJson<'_> { DiagnosticJson::owned(unmet) }),
            )
            .collect(),
    })
}

/// The code of a requirement this machine does not meet: a skill not installed
/// (`skill-not-installed`, which fails `requirements`), a CLI not on `PATH`
/// (`cli-not-found`).
fn requirement_code(status: &Status) -> Option<Code> {
    match status {
        Status::Missing { .. } => Some(Code::SkillNotInstalled),
        Status::NotFound => Some(Code::CliNotFound),
        _ => None,
    }
}

/// The requirements this machine does not meet, as diagnostics on the preset's folder.
fn requirement_diagnostics(preset: &Preset, summaries: &[Summary<'_>]) -> Vec<Diagnostic> {
    summaries
        .iter()
        .filter_map(|summary| {
            let code = requirement_code(&summary.status)?;
            let requirement = summary.requirement;
            let diagnostic = match &summary.status {
                Status::Missing { install } => {
                    let mut message = format!(
                        "the skill `{}` is not installed in any skills folder",
                        requirement.key
                    );
                    if !summary.commands.is_empty() {
                        let _ = write!(message, " (commands: {})", summary.commands.join(", "));
                    }
                    Diagnostic::new(code, message).with_help(format!("install it: {install}"))
                }
                _ => {
                    let program = requirement.command.as_deref().unwrap_or(&requirement.key);
                    Diagnostic::new(code, format!("`{program}` is not on PATH"))
                }
            };
            Some(diagnostic.in_file(&preset.dir))
        })
        .collect()
}

/// `preset list`: the presets found.
pub(crate) struct Listed<'a>(pub &'a [Preset]);

impl Render for Listed<'_> {
    fn to_text(&self, painter: Painter) -> String {
        list_text(self.0, painter)
    }

    fn to_json(&self) -> String {
        list_json(self.0)
    }
}

/// `preset validate`: each preset's findings and the totals; with `deny_warnings` a
/// warning fails the run too (the JSON document's `ok`).
pub(crate) struct Validated<'a> {
    pub presets: &'a [Preset],
    pub deny_warnings: bool,
}

impl Render for Validated<'_> {
    fn to_text(&self, painter: Painter) -> String {
        validate_text(self.presets, painter)
    }

    fn to_json(&self) -> String {
        validate_json(self.presets, self.deny_warnings)
    }
}

impl Annotate for Validated<'_> {
    fn to_github(&self) -> String {
        validate_github(self.presets)
    }
}

/// `preset render`: a preset's commands, one a line (`nul`: each ended by a NUL byte).
pub(crate) struct Commands<'a> {
    pub preset: &'a Preset,
    pub rendered: &'a [Rendered],
    pub nul: bool,
}

impl Render for Commands<'_> {
    fn to_text(&self, _painter: Painter) -> String {
        render_text(self.rendered, self.nul)
    }

    fn to_json(&self) -> String {
        render_json(self.preset, self.rendered)
    }
}

/// `preset requirements`: each requirement once, its status, the commands bound to it.
pub(crate) struct Requirements<'a> {
    pub preset: &'a Preset,
    pub summaries: &'a [Summary<'a>],
}

impl Render for Requirements<'_> {
    fn to_text(&self, painter: Painter) -> String {
        requirements_text(self.preset, self.summaries, painter)
    }

    fn to_json(&self) -> String {
        requirements_json(self.preset, self.summaries)
    }
}
