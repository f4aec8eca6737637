//! `autofix sources add|update|outdated|list|remove`: convert the arguments, call
//! [`crate::sources`], print what it did.

use std::fmt::Write as _;
use std::process::ExitCode;

use crate::front::cli::{SourcesArgs, SourcesCommand, TextOrJson};
use crate::front::context::{Context, eprint, print};
use crate::report::diagnostics::{self, Code, Diagnostic};
use crate::sources::layers::short;
use crate::sources::{self, CopyState, Layout, Outdated, SourceError, Updated, manifest::Source};

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
            add(context, &workspace, &layout, source)
        }
        SourcesCommand::Update {
            names,
            dry_run,
            force,
            format,
        } => update(
            context,
            &workspace,
            &layout,
            names,
            (dry_run, force),
            format,
        ),
        SourcesCommand::Outdated { format } => outdated(&layout, format),
        SourcesCommand::Remove { name } => {
            sources::remove(&layout, &name)?;
            let mut text = format!(
                "Removed source {name} from {} and {}, and its copy\n",
                context.shown(&layout.manifest),
                context.shown(&layout.lock)
            );
            text.push_str(&refreshed(context, &workspace));
            print(&text)?;
            Ok(ExitCode::SUCCESS)
        }
        SourcesCommand::List { format } => list(context, &layout, format),
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

/// The exports brought up to date after the imported rules changed, as `learn` does:
/// the line naming the files it changed (empty when none), its warnings on stderr.
fn refreshed(context: &Context, workspace: &crate::io::workspace::Workspace) -> String {
    let (exports, warnings) =
        crate::ops::learning::refresh(workspace, "the sources are written, but");
    eprint(&diagnostics::text_of(&warnings, context.stderr_painter()));
    if exports.is_empty() {
        return String::new();
    }
    let paths: Vec<&str> = exports.iter().map(|e| e.path.as_str()).collect();
    format!("exported copies refreshed: {}\n", paths.join(", "))
}

fn add(
    context: &Context,
    workspace: &crate::io::workspace::Workspace,
    layout: &Layout,
    source: Source,
) -> anyhow::Result<ExitCode> {
    let name = source.name.clone();
    match sources::add(layout, source) {
        Ok(added) => {
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
            text.push_str(&refreshed(context, workspace));
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
    let changed = match sources::set_locked(layout, source, *number, lock) {
        Ok(changed) => changed,
        Err(error) => return Ok(failed(context, &error)),
    };
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
    if changed {
        text.push_str(&refreshed(context, workspace));
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
    names: Vec<String>,
    (dry_run, force): (bool, bool),
    format: TextOrJson,
) -> anyhow::Result<ExitCode> {
    let state = layout.read()?;
    let names = if names.is_empty() {
        state
            .manifest
            .sources
            .iter()
            .map(|s| s.name.clone())
            .collect()
    } else {
        names
    };
    if names.is_empty() && format == TextOrJson::Text {
        print(&format!(
            "No sources in {}\n",
            context.shown(&layout.manifest)
        ))?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut worst_rank = 0;
    let (mut text, mut json, mut moved) = (String::new(), Vec::new(), false);
    for name in names {
        match sources::update(layout, &name, dry_run, force) {
            Ok(Updated::Current { commit }) => {
                let _ = writeln!(text, "{name}: up to date at {}", short(&commit));
                json.push(serde_json::json!({"name": name, "status": "current", "commit": commit}));
            }
            Ok(Updated::Moved { from, to, changes }) => {
                moved |= !dry_run;
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
    if moved {
        text.push_str(&refreshed(context, workspace));
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

fn list(context: &Context, layout: &Layout, format: TextOrJson) -> anyhow::Result<ExitCode> {
    let state = layout.read()?;
    if state.manifest.sources.is_empty() && format == TextOrJson::Text {
        print(&format!(
            "No sources in {}\n",
            context.shown(&layout.manifest)
        ))?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut text = String::new();
    let mut json = Vec::new();
    for source in &state.manifest.sources {
        let copy = layout.copy(&source.name);
        let pin = state.lock.sources.get(&source.name);
        let (code, status) = match pin {
            None => ("not-locked", "not locked".to_string()),
            Some(pin) if !pin.matches(source) => (
                "lock-stale",
                "the lock pins another url, ref or path".into(),
            ),
            Some(pin) => match layout.pinned_copy(&source.name, pin) {
                CopyState::Missing => ("copy-missing", "vendored copy missing".into()),
                CopyState::Differs => (
                    "copy-differs",
                    "vendored copy does not match the lock".into(),
                ),
                CopyState::Interrupted(_) => (
                    "interrupted",
                    format!(
                        "pinned at {}, {}; an interrupted run left the copy behind: `autofix sources update {}` finishes it",
                        short(&pin.commit),
                        crate::report::text::counted(pin.rules, "rule"),
                        source.name
                    ),
                ),
                CopyState::Matches(_) => (
                    "ok",
                    format!(
                        "pinned at {}, {}, copy ok",
                        short(&pin.commit),
                        crate::report::text::counted(pin.rules, "rule")
                    ),
                ),
            },
        };
        let _ = writeln!(
            text,
            "{}  {} {} {}  {status}  ({})",
            source.name,
            crate::report::text::shown(&source.url),
            source.reference,
            source.path,
            context.shown(&copy)
        );
        json.push(serde_json::json!({
            "name": source.name, "url": source.url, "ref": source.reference,
            "path": source.path, "commit": pin.map(|p| &p.commit),
            "rules": pin.map(|p| p.rules), "copy": context.shown(&copy), "status": code,
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

/// `rules` in a workspace with sources: the local listing, then the imported rules (text),
/// or the listing's JSON document with an `imported` member.
pub(crate) fn rules_with_layers(
    workspace: &crate::io::workspace::Workspace,
    query: &crate::rules::listing::Query,
    layers: &crate::sources::layers::Layers,
    format: crate::front::cli::RulesFormat,
) -> anyhow::Result<ExitCode> {
    use crate::front::cli::RulesFormat;
    use crate::rules::listing::{self, MarkdownStyle};
    use crate::sources::layers;
    let categories: Vec<String> = query
        .categories
        .iter()
        .map(|c| crate::rules::category::normalize(c))
        .collect();
    let filter = layers::Filter {
        categories: &categories,
        all: query.all,
        paths: &query.paths,
        search: query.search.as_deref(),
    };
    if format == RulesFormat::Markdown {
        // For pasting into a committed file: the imported rules, never the personal ones,
        // each under its scope's heading beside the local ones, as an exported file has them.
        let style = MarkdownStyle::PLAIN;
        let listing = crate::ops::service::list(workspace, query)?;
        let mut text = listing::to_string(|out| listing.write_markdown_head(out, &style));
        let local = listing.markdown_items(&style);
        let mut items: Vec<(String, String)> = layers
            .active()
            .filter(|(_, rule)| filter.keeps(rule))
            .map(|(layer, rule)| {
                let heading = listing::heading_for(&rule.paths);
                (
                    heading,
                    layers::markdown_item(&layer.name, rule, style.escape),
                )
            })
            .collect();
        if !items.is_empty() {
            text.push_str(&format!("{}\n\n", layers::EXPORT_NOTE));
        }
        items.extend(local);
        text.push_str(&listing::group_by_scope(&items));
        return Ok(print(&text).map(|()| ExitCode::SUCCESS)?);
    }
    let mut local = Vec::new();
    let listing = crate::ops::service::list(workspace, query)?;
    match format {
        RulesFormat::Json => listing.write_json(&mut local),
        _ => listing.write_text(&mut local),
    }?;
    if format == RulesFormat::Json {
        let mut document: serde_json::Value = serde_json::from_slice(&local)?;
        document["imported"] = layers::imported_json(layers, &filter);
        print(&crate::report::text::json_document(&document))?;
    } else {
        let mut text = String::from_utf8_lossy(&local).into_owned();
        text.push_str(&layers::render_text(layers, &filter));
        print(&text)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `learn --supersedes`: the local numbers, and the reason with a `(supersedes org:12)`
/// marker for the imported ones; or why it is refused (an imported rule that does not
/// exist, or a locked one the manifest does not let this repository override).
pub(crate) fn split_supersedes(
    context: &Context,
    given: &[crate::rules::reference::RuleRef],
    why: Option<String>,
) -> anyhow::Result<Result<(Vec<u64>, String), String>> {
    use crate::rules::reference::RuleRef;
    use crate::sources::layers;
    let why = why.unwrap_or_default();
    let mut local = Vec::new();
    let mut imported = Vec::new();
    for value in given {
        match value {
            RuleRef::Local(number) => local.push(*number),
            RuleRef::Imported { source, number } => imported.push((source.clone(), *number)),
        }
    }
    if imported.is_empty() {
        return Ok(Ok((local, why)));
    }
    let marked = layers::mark_superseded(&context.workspace()?, &why, &imported, "--supersedes")?;
    Ok(marked.map(|why| (local, why)))
}

/// The personal rules file as a workspace of its own, for `learn --user`: nothing is
/// exported from it.
pub(crate) fn personal_workspace(
    context: &Context,
) -> anyhow::Result<crate::io::workspace::Workspace> {
    let Some(path) = crate::sources::layers::personal_path() else {
        anyhow::bail!("--user: neither XDG_CONFIG_HOME nor HOME is set");
    };
    let root = path
        .parent()
        .map(std::path::Path::to_path_buf)
        .unwrap_or_default();
    Ok(crate::io::workspace::Workspace::new(
        root,
        path,
        crate::io::workspace::Source::FileFlag,
        Vec::new(),
        context.cwd()?,
    ))
}
