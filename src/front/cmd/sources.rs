//! `autofix sources add|update|outdated|list|remove|lock|unlock|merge-driver`: convert
//! the arguments, call [`crate::ops::sources`] (or [`crate::sources`] for the one-call
//! reads), print what it did.

use std::fmt::Write as _;
use std::process::ExitCode;

use crate::front::cli::{SourcesArgs, SourcesCommand, TextOrJson};
use crate::front::context::{Context, eprint, print};
use crate::ops::sources::{self as op, Exports, Standing};
use crate::report::diagnostics::{self, Code, Diagnostic};
use crate::sources::layers::short;
use crate::sources::{self, Layout, Outdated, SourceError, Updated, manifest::Source};

pub(crate) fn run(context: &Context, args: SourcesArgs) -> anyhow::Result<ExitCode> {
    let workspace = context.workspace()?;
    let layout = Layout::of(&workspace);
    match args.command {
        SourcesCommand::Add {
            name,
            url,
            reference,
            path,
            categories,
            rules,
        } => {
            let source = Source {
                name,
                url,
                reference,
                path,
                categories: categories
                    .iter()
                    .map(|c| crate::rules::category::normalize(c))
                    .collect(),
                rules,
            };
            add(context, &workspace, &layout, op::AddRequest { source })
        }
        SourcesCommand::Update {
            names,
            dry_run,
            force,
            format,
        } => {
            let request = op::UpdateRequest {
                names,
                dry_run,
                force,
            };
            update(context, &workspace, &layout, request, format)
        }
        SourcesCommand::Outdated { format } => outdated(&layout, format),
        SourcesCommand::Remove { name } => {
            let exports = op::remove(&workspace, op::RemoveRequest { name: name.clone() })?;
            let mut text = format!(
                "Removed source {name} from {} and {}, and its copy\n",
                context.shown(&layout.manifest),
                context.shown(&layout.lock)
            );
            text.push_str(&refreshed(context, &exports));
            print(&text)?;
            Ok(ExitCode::SUCCESS)
        }
        SourcesCommand::List { format } => list(context, &workspace, &layout, format),
        SourcesCommand::Lock { rule } => set_locked(context, &workspace, &layout, &rule, true),
        SourcesCommand::Unlock { rule } => set_locked(context, &workspace, &layout, &rule, false),
        SourcesCommand::MergeDriver { install: true, .. } => {
            let cwd = context.cwd()?;
            let done = crate::sources::merge::install(&layout, cwd)
                .map_err(|error| error.relative_to(&[cwd.to_path_buf()]))?;
            let text = if done.is_empty() {
                "The sources merge driver is installed already\n".to_string()
            } else {
                done.iter().map(|line| format!("{line}\n")).collect()
            };
            print(&text)?;
            Ok(ExitCode::SUCCESS)
        }
        SourcesCommand::MergeDriver {
            base: Some(base),
            ours: Some(ours),
            theirs: Some(theirs),
            path: Some(path),
            ours_label,
            theirs_label,
            ..
        } => {
            let sides = crate::sources::merge::Sides {
                ours_label,
                theirs_label,
            };
            let merged = crate::sources::merge::run(&base, &ours, &theirs, &path, &sides);
            let report = crate::report::text::shown(&merged.report).to_string();
            if merged.refused {
                let finding = Diagnostic::new(Code::SourceMergeRefused, report);
                // git shows the driver's stderr as is: say which program speaks.
                let text = diagnostics::text_of(&[finding], context.stderr_painter());
                eprint(&format!("autofix sources merge-driver: {text}"));
            } else {
                eprint(&format!("autofix sources merge-driver: {report}\n"));
            }
            Ok(ExitCode::from(merged.status))
        }
        SourcesCommand::MergeDriver { .. } => {
            anyhow::bail!("BASE, OURS, THEIRS and PATH are required")
        }
    }
}

/// The exports brought up to date after the imported rules changed, as `learn` says
/// them: the line naming the files it changed (empty when none), its warnings on stderr.
fn refreshed(context: &Context, exports: &Exports) -> String {
    eprint(&diagnostics::text_of(
        &exports.warnings,
        context.stderr_painter(),
    ));
    if exports.refreshed.is_empty() {
        return String::new();
    }
    let paths: Vec<&str> = exports.refreshed.iter().map(|e| e.path.as_str()).collect();
    format!("exported copies refreshed: {}\n", paths.join(", "))
}

fn add(
    context: &Context,
    workspace: &crate::io::workspace::Workspace,
    layout: &Layout,
    request: op::AddRequest,
) -> anyhow::Result<ExitCode> {
    let name = request.source.name.clone();
    match op::add(workspace, request) {
        Ok((added, exports)) => {
            let mut text = format!(
                "Added source {name}: {} {} @ {} ({}): {}, {} active; pinned in {}, copied to {}\n",
                added.pin.url,
                added.pin.reference,
                short(&added.pin.commit),
                added.pin.path,
                crate::report::text::counted(added.pin.rules, "rule"),
                added.active,
                context.shown(&layout.lock),
                context.shown(&added.copy),
            );
            text.push_str(&refreshed(context, &exports));
            print(&text)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(error) => Ok(failed(context, &error)),
    }
}

/// `sources lock org:N` / `unlock`.
fn set_locked(
    context: &Context,
    workspace: &crate::io::workspace::Workspace,
    layout: &Layout,
    rule: &crate::rules::reference::RuleRef,
    lock: bool,
) -> anyhow::Result<ExitCode> {
    let crate::rules::reference::RuleRef::Imported { source, number } = rule else {
        anyhow::bail!(
            "`{rule}`: name an imported rule, NAME:N (a local rule is this repository's own)"
        );
    };
    let request = op::LockRequest {
        source: source.clone(),
        number: *number,
        lock,
    };
    let exports = match op::set_locked(workspace, &request) {
        Ok(exports) => exports,
        Err(error) => return Ok(failed(context, &error)),
    };
    let changed = exports.is_some();
    let verb = if lock { "locked" } else { "unlocked" };
    let mut text = if changed {
        format!(
            "{rule} {verb} for this repository in {}\n",
            context.shown(&layout.manifest)
        )
    } else {
        format!(
            "{rule} is {verb} already in {} (nothing changed)\n",
            context.shown(&layout.manifest)
        )
    };
    if let Some(exports) = &exports {
        text.push_str(&refreshed(context, exports));
    }
    print(&text)?;
    Ok(ExitCode::SUCCESS)
}

/// Prints a source error; exit 1 for a refusal that protects the pins, else 2.
fn failed(context: &Context, error: &SourceError) -> ExitCode {
    let painter = context.stderr_painter();
    let text = crate::front::context::describe(&anyhow::anyhow!(error.to_string()));
    eprint(&format!(
        "{} {}\n",
        painter.error("error:"),
        crate::report::text::shown(&text)
    ));
    ExitCode::from(if error.fails_closed() { 1 } else { 2 })
}

fn update(
    context: &Context,
    workspace: &crate::io::workspace::Workspace,
    layout: &Layout,
    request: op::UpdateRequest,
    format: TextOrJson,
) -> anyhow::Result<ExitCode> {
    let dry_run = request.dry_run;
    let updates = op::update(workspace, request)?;
    if updates.sources.is_empty() && format == TextOrJson::Text {
        print(&format!(
            "No sources in {}\n",
            context.shown(&layout.manifest)
        ))?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut worst_rank = 0;
    let (mut text, mut json) = (String::new(), Vec::new());
    for (name, updated) in updates.sources {
        match updated {
            Ok(Updated::Current { commit }) => {
                let _ = writeln!(text, "{name}: up to date at {}", short(&commit));
                json.push(serde_json::json!({"name": name, "status": "current", "commit": commit}));
            }
            Ok(Updated::Moved { from, to, changes }) => {
                let verb = if dry_run { "would move" } else { "moved" };
                let shown_from = from
                    .as_deref()
                    .map_or("(not pinned)".to_string(), |c| short(c).to_string());
                let _ = writeln!(text, "{name}: {verb} {shown_from} -> {}", short(&to));
                if changes.is_empty() {
                    text.push_str("  (no rule changed)\n");
                }
                for line in &changes {
                    let _ = writeln!(text, "  {}", crate::report::text::shown(line));
                }
                json.push(serde_json::json!({
                    "name": name,
                    "status": if dry_run { "would-move" } else { "moved" },
                    "from": from, "to": to, "changes": changes,
                }));
            }
            Err(error) => {
                let rank = if error.fails_closed() { 1 } else { 2 };
                worst_rank = worst_rank.max(rank);
                if format == TextOrJson::Text {
                    failed(context, &error);
                }
                json.push(serde_json::json!({"name": name, "status": "error", "error": error.to_string()}));
            }
        }
    }
    if let Some(exports) = &updates.exports {
        text.push_str(&refreshed(context, exports));
    }
    print(&match format {
        TextOrJson::Text => text,
        TextOrJson::Json => crate::report::text::json_document(
            &serde_json::json!({"version": 1, "dry_run": dry_run, "sources": json}),
        ),
    })?;
    Ok(ExitCode::from(worst_rank))
}

fn outdated(layout: &Layout, format: TextOrJson) -> anyhow::Result<ExitCode> {
    let mut text = String::new();
    let mut json = Vec::new();
    let mut rank = 0;
    for (name, status) in sources::outdated(layout)? {
        let (line, value) = match status {
            Outdated::Current { commit } => (
                format!("{name}: current at {}", short(&commit)),
                serde_json::json!({"name": name, "status": "current", "pinned": commit, "now": commit}),
            ),
            Outdated::Differs {
                commit,
                locked,
                source,
            } => {
                rank = rank.max(1);
                (
                    format!(
                        "{name}: the locked copy is not the source's file at {}: the lock names blob {}, the source holds {}; run `autofix sources update {name}` to fetch it again",
                        short(&commit),
                        short(&locked),
                        short(&source)
                    ),
                    serde_json::json!({"name": name, "status": "differs", "pinned": commit, "locked_blob": locked, "source_blob": source}),
                )
            }
            Outdated::Rewritten { pinned, now } => {
                rank = rank.max(1);
                (
                    format!(
                        "{name}: rewritten: pinned {} is not in the ref's history any more, which is now at {}; review it, then `autofix sources update --force {name}`",
                        short(&pinned),
                        short(&now)
                    ),
                    serde_json::json!({"name": name, "status": "rewritten", "pinned": pinned, "now": now}),
                )
            }
            Outdated::Behind { pinned, now } => {
                rank = rank.max(1);
                (
                    format!(
                        "{name}: behind: pinned {}, the ref is now at {}",
                        short(&pinned),
                        short(&now)
                    ),
                    serde_json::json!({"name": name, "status": "behind", "pinned": pinned, "now": now}),
                )
            }
            Outdated::NotLocked { now } => {
                rank = rank.max(1);
                (
                    format!("{name}: not locked (the ref is at {})", short(&now)),
                    serde_json::json!({"name": name, "status": "not-locked", "now": now}),
                )
            }
            Outdated::Unknown { error } => {
                rank = 2;
                (
                    format!("{name}: unknown: {error}"),
                    serde_json::json!({"name": name, "status": "unknown", "error": error}),
                )
            }
        };
        let _ = writeln!(text, "{}", crate::report::text::shown(&line));
        json.push(value);
    }
    print(&match format {
        TextOrJson::Text => text,
        TextOrJson::Json => {
            crate::report::text::json_document(&serde_json::json!({"version": 1, "sources": json}))
        }
    })?;
    Ok(ExitCode::from(rank))
}

fn list(
    context: &Context,
    workspace: &crate::io::workspace::Workspace,
    layout: &Layout,
    format: TextOrJson,
) -> anyhow::Result<ExitCode> {
    let listed = op::list(workspace)?;
    if listed.is_empty() && format == TextOrJson::Text {
        print(&format!(
            "No sources in {}\n",
            context.shown(&layout.manifest)
        ))?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut text = String::new();
    let mut json = Vec::new();
    for op::Listed {
        source,
        pin,
        copy,
        standing,
    } in &listed
    {
        let (code, status) = standing_of(source, pin.as_ref(), standing);
        let _ = writeln!(
            text,
            "{}  {} {} {}  {status}  ({})",
            source.name,
            crate::report::text::shown(&source.url),
            source.reference,
            source.path,
            context.shown(copy)
        );
        json.push(serde_json::json!({
            "name": source.name, "url": source.url, "ref": source.reference,
            "path": source.path, "commit": pin.as_ref().map(|p| &p.commit),
            "rules": pin.as_ref().map(|p| p.rules), "copy": context.shown(copy), "status": code,
        }));
    }
    print(&match format {
        TextOrJson::Text => text,
        TextOrJson::Json => {
            crate::report::text::json_document(&serde_json::json!({"version": 1, "sources": json}))
        }
    })?;
    Ok(ExitCode::SUCCESS)
}

/// A source's standing as `sources list` says it: the JSON code and the text.
fn standing_of(
    source: &Source,
    pin: Option<&crate::sources::lock::Pin>,
    standing: &Standing,
) -> (&'static str, String) {
    let pinned = || {
        pin.map_or_else(String::new, |pin| {
            format!(
                "pinned at {}, {}",
                short(&pin.commit),
                crate::report::text::counted(pin.rules, "rule")
            )
        })
    };
    match standing {
        Standing::NotLocked => ("not-locked", "not locked".to_string()),
        Standing::LockStale => (
            "lock-stale",
            "the lock pins another url, ref or path".into(),
        ),
        Standing::CopyMissing => ("copy-missing", "vendored copy missing".into()),
        Standing::CopyDiffers => (
            "copy-differs",
            "vendored copy does not match the lock".into(),
        ),
        Standing::Interrupted => (
            "interrupted",
            format!(
                "{}; an interrupted run left the copy behind: `autofix sources update {}` finishes it",
                pinned(),
                source.name
            ),
        ),
        Standing::Ok => ("ok", format!("{}, copy ok", pinned())),
    }
}
