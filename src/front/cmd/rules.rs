//! `autofix learn`, `rules`, `check` and `where`.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use std::io::IsTerminal as _;

use crate::front::i18n::{self, Front, Lang, Refusal};
use crate::io::workspace::Workspace;
use crate::ops::learning::{self, AfterLearning, Answer, Destination};
use crate::ops::list::ListError;
use crate::ops::{self, service};
use crate::render::{Annotate as _, Render as _};
use crate::rules::reference::RuleRef;
use crate::rules::{self, check, learn};
use anyhow::Context as _;

use crate::front::cli::{
    CheckArgs, DiagnosticsFormat, HookAgent, LangArg, LearnArgs, RulesArgs, RulesFormat,
    TextOrJson, WhereArgs,
};
use crate::front::context::{Context, eprint, print, status};
use crate::front::history::shown_rule;

/// The rule `learn --json` reads from standard input, refused by field.
fn json_request(lang: Lang) -> anyhow::Result<learning::Request> {
    let cap = crate::io::limits::max_file_bytes()?;
    let input = crate::io::limits::read_capped(std::io::stdin().lock(), cap)
        .context(Refusal::StdinUnreadable.text(lang))?;
    let input = String::from_utf8(input).context(Refusal::StdinUnreadable.text(lang))?;
    let object: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(&input).context(Refusal::StdinNotARule.text(lang))?;
    crate::front::input::read(&object, "key", "")
        .map_err(|refusal| anyhow::anyhow!("{}: {refusal}", Refusal::StdinNotARule.text(lang)))
}

pub(crate) fn learn(context: &Context, args: LearnArgs) -> anyhow::Result<ExitCode> {
    let lang = match args.lang {
        Some(LangArg::En) => Lang::En,
        Some(LangArg::Fr) => Lang::Fr,
        None => Lang::from_env(),
    };
    let check = args.check_request();
    // A quick correction needs no classification first: the category its words suggest
    // (as `import` reads a hand-written line), said in the acknowledgement.
    let guessed = (!args.json && args.category.is_none()).then(|| {
        let instruction = args.instruction.as_deref().unwrap_or_default();
        crate::export::handwritten::guess_category(instruction).as_str()
    });
    let mut request = if args.json {
        let mut request = json_request(lang)?;
        request.force |= args.force;
        request
    } else {
        learning::Request {
            category: args
                .category
                .or(guessed.map(str::to_string))
                .unwrap_or_default(),
            instruction: args.instruction.unwrap_or_default(),
            why: args.why.unwrap_or_else(|| "user preference".to_string()),
            supersedes: args.supersedes,
            force: args.force,
            paths: args.paths,
            check,
            ..learning::Request::default()
        }
    };
    request.dry_run = args.dry_run;
    request.after = AfterLearning::exporting(!args.no_export);
    let workspace = if args.user {
        context.personal_workspace()?
    } else {
        context.workspace()?
    };
    let into = if args.user {
        Destination::Personal(&workspace)
    } else {
        Destination::Project(&workspace)
    };
    // A note is answered once, and only a note the hook gave: asked before the rule is
    // written, so a wrong id learns nothing.
    if let Some(note) = &args.note {
        ops::notes::open(&workspace, note)?;
    }
    let superseded = request.supersedes.first().cloned();
    let answer = learning::learn_rule(into, request, "--supersedes").map_err(|error| {
        // learn's own refusals in the user's language; the rest as the library says them.
        let localized = error
            .downcast_ref::<rules::RulesError>()
            .and_then(|error| i18n::learn_error(lang, error));
        localized.map_or(error, anyhow::Error::msg)
    })?;
    let learned = match answer {
        Answer::Learned(learned) => *learned,
        Answer::NotLearned(refusal) => return imported_refusal(context, &refusal, args.format),
    };
    let painter = context.stderr_painter();
    eprint(&learned.warnings_text(painter));
    let answered = (args.note.as_deref())
        .and_then(|note| answer_note(&workspace, note, superseded.as_ref(), &learned.outcome));
    let refused = learned.outcome.status == learn::Status::Refused;
    let printed = match args.format {
        TextOrJson::Text if args.quiet && !refused => Ok(()),
        // A refusal is a finding: its text goes with the other problems, to stderr.
        TextOrJson::Text if refused => {
            eprint(&i18n::learned(&learned, lang, Front::Cli));
            Ok(())
        }
        TextOrJson::Text => {
            let mut text = i18n::learned(&learned, lang, Front::Cli);
            if let Some(category) =
                guessed.filter(|_| learned.outcome.status != learn::Status::Duplicate)
            {
                text.push_str(&i18n::category_guessed(lang, category));
            }
            if let Some(answered) = &answered {
                text.push_str(answered);
            }
            print(&text)
        }
        TextOrJson::Json => print(&learned.to_json()),
    };
    match printed {
        // The rule is saved: failing to say so must not look like failing to learn it
        // (an agent would retry and learn it twice).
        Err(error) if learned.outcome.status == learn::Status::Learned => eprint(&format!(
            "{} rule #{} was saved, but the acknowledgement could not be written to \
             standard output: {error}\n",
            painter.warning("warning:"),
            learned.outcome.rule.number
        )),
        other => other?,
    }
    Ok(status(refused))
}

/// Records the answer `learn --note` gave ([`ops::notes::learned`]): the line that says so,
/// for the acknowledgement. The rule is learned whatever happens here: a verdict that
/// cannot be kept is a warning.
fn answer_note(
    workspace: &crate::io::workspace::Workspace,
    note: &str,
    superseded: Option<&crate::rules::reference::RuleRef>,
    outcome: &learn::Outcome,
) -> Option<String> {
    match ops::notes::learned(workspace, note, superseded, outcome) {
        Ok(verdict) => verdict.map(|verdict| {
            format!(
                "  note {note} answered: {}\n",
                ops::notes::describe(&verdict)
            )
        }),
        Err(error) => {
            eprint(&format!("warning: note {note} was not answered: {error}\n"));
            None
        }
    }
}

/// What `learn` says of a rule it does not learn over the imported rules: a repeat as a
/// local repeat (exit 0, nothing learned), a refusal as a finding (exit 1).
fn imported_refusal(
    context: &Context,
    refusal: &crate::sources::layers::NotLearned,
    format: TextOrJson,
) -> anyhow::Result<ExitCode> {
    use crate::sources::layers::NotLearned;
    match (refusal, format) {
        (NotLearned::Repeat { message, .. }, TextOrJson::Text) => print(&format!("{message}\n"))?,
        (NotLearned::Repeat { id, message }, TextOrJson::Json) => {
            print(&crate::report::text::json_document(&serde_json::json!({
                "version": 1, "status": "duplicate", "imported": id, "message": message,
            })))?;
        }
        (NotLearned::Refused(why), _) => {
            eprint(&format!(
                "{} {}\n",
                context.stderr_painter().error("error:"),
                crate::report::text::shown(why)
            ));
            return Ok(status(true));
        }
    }
    Ok(ExitCode::SUCCESS)
}

pub(crate) fn rules(context: &Context, args: RulesArgs) -> anyhow::Result<ExitCode> {
    if let Some(rule) = &args.number {
        return show(context, rule, args.format);
    }
    if let (RulesFormat::Hook, Some(agent)) = (args.format, args.agent) {
        return Ok(rules_hook(context, args, agent));
    }
    if args.agent.is_some() {
        anyhow::bail!("--agent goes with --format hook");
    }
    if args.budget.is_some() && args.format == RulesFormat::Markdown {
        anyhow::bail!("--budget goes with --format text, json or hook");
    }
    // Discovered once: the scope paths, the history, the layers and the listing share it.
    let workspace = context.workspace()?;
    let request = ops::list::Request {
        categories: args.categories,
        all: args.all,
        budget: args.budget,
        for_paths: args.for_paths,
        search: args.search,
        provenance: args.provenance,
    };
    let listed = ops::list::list(&workspace, request).map_err(|error| match error {
        ListError::Paths(error) => anyhow::anyhow!("--for {error}"),
        ListError::Rules(error) => error.into(),
    })?;
    if !listed.layers.is_empty() {
        // With the imported rules: the local listing, then theirs (text), or the
        // listing's JSON document with an `imported` member.
        print(&match args.format {
            RulesFormat::Markdown => listed.markdown(),
            RulesFormat::Json => crate::report::text::json_document(&listed.json()),
            _ => listed.text(),
        })?;
        return Ok(ExitCode::SUCCESS);
    }
    // A person reads a terminal (or asked for color); agents and pipes get the compact
    // form, one rule a line, unchanged.
    let painter = context.stdout_painter();
    let terminal = std::io::stdout().is_terminal() || painter.is_enabled();
    let listing = listed.listing;
    // Streamed: a listing of 100k rules is never held twice in memory.
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    match args.format {
        RulesFormat::Text if terminal => {
            let width = crate::report::paint::terminal_width(&std::io::stdout());
            listing.write_terminal(&mut out, painter, width)?;
        }
        RulesFormat::Text => listing.write_text(&mut out)?,
        RulesFormat::Json => listing.write_json(&mut out)?,
        RulesFormat::Markdown => listing.write_markdown(&mut out)?,
        // Handled above (clap requires --agent with it).
        RulesFormat::Hook => {}
    }
    out.flush()?;
    drop(out);
    if let Some(warning) = listing.unreadable_warning() {
        let painter = context.stderr_painter();
        eprint(&crate::report::diagnostics::text_of(&[warning], painter));
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// `rules N`: the rule whole, in text or JSON.
fn show(context: &Context, rule: &RuleRef, format: RulesFormat) -> anyhow::Result<ExitCode> {
    if matches!(format, RulesFormat::Markdown | RulesFormat::Hook) {
        anyhow::bail!("`rules {rule}` prints text or json");
    }
    let (text, json) = shown_rule(&context.workspace()?, rule)?;
    print(if format == RulesFormat::Json {
        &json
    } else {
        &text
    })?;
    Ok(ExitCode::SUCCESS)
}

/// `rules --format hook`: one JSON object on stdout, whatever happens; exit 0.
fn rules_hook(context: &Context, args: RulesArgs, hook_agent: HookAgent) -> ExitCode {
    let agent = crate::front::context::hook_agent(hook_agent);
    let output = (|| -> anyhow::Result<String> {
        let workspace = context.workspace()?;
        Ok(ops::list::hook(
            &workspace,
            agent,
            args.categories,
            args.all,
            args.budget,
        )?)
    })();
    let text = output.unwrap_or_else(|error| {
        eprint(&format!(
            "autofix: no rules for the hook: {}\n",
            crate::front::context::describe(&error)
        ));
        crate::export::hook::empty(agent).to_string()
    });
    let _ = print(&text);
    ExitCode::SUCCESS
}

/// Lints the workspace's rules file (see [`crate::ops::service::check`]).
fn check_report(context: &Context) -> anyhow::Result<(check::Report, Workspace)> {
    let workspace = context.workspace()?;
    let report = service::check(&workspace)?;
    Ok((report, workspace))
}

pub(crate) fn check(context: &Context, args: CheckArgs) -> anyhow::Result<ExitCode> {
    let (mut report, workspace) = check_report(context)?;
    if args.dry_run {
        let existing = crate::ops::dry_run::existing_matches(&workspace)?;
        report.diagnostics.extend(existing);
    }
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    match args.format {
        // Written as they are made: a file of many findings need not be held twice.
        DiagnosticsFormat::Text => report.write_text(&mut stdout, context.stdout_painter())?,
        DiagnosticsFormat::Json => report.write_json(&mut stdout)?,
        DiagnosticsFormat::Github => stdout.write_all(report.to_github().as_bytes())?,
        DiagnosticsFormat::Sarif => crate::report::sarif::write(
            &mut stdout,
            &report.diagnostics,
            "autofix-check/",
            &workspace.repository_root(),
            Path::new(&report.path),
        )?,
    }
    stdout.flush()?;
    Ok(status(report.has_errors()))
}

pub(crate) fn where_(context: &Context, args: WhereArgs) -> anyhow::Result<ExitCode> {
    let workspace = context.workspace()?;
    let exists = workspace.rules_file_exists();
    let candidates: Vec<(String, bool)> = workspace
        .candidates
        .iter()
        .map(|c| (workspace.show(c), c.symlink_metadata().is_ok()))
        .collect();
    let text = match args.format {
        TextOrJson::Text => {
            let mut out = format!(
                "{}\n  exists: {}\n  chosen by: {}\n  workspace root: {}\n",
                workspace.shown,
                if exists { "yes" } else { "no" },
                workspace.source.describe(),
                workspace.root.display(),
            );
            if !candidates.is_empty() {
                out.push_str("  candidates, highest priority first:\n");
                for (path, exists) in &candidates {
                    let mark = if *exists { "exists" } else { "-" };
                    out.push_str(&format!("    {path}  ({mark})\n"));
                }
            }
            out
        }
        TextOrJson::Json => {
            #[derive(serde::Serialize)]
            struct Candidate<'a> {
                path: &'a str,
                exists: bool,
            }
            #[derive(serde::Serialize)]
            struct Json<'a> {
                version: u32,
                path: String,
                exists: bool,
                source: &'static str,
                root: String,
                candidates: Vec<Candidate<'a>>,
            }
            let json = Json {
                version: 1,
                path: workspace.shown.clone(),
                exists,
                source: workspace.source.describe(),
                root: workspace.root.display().to_string(),
                candidates: candidates
                    .iter()
                    .map(|(path, exists)| Candidate {
                        path,
                        exists: *exists,
                    })
                    .collect(),
            };
            crate::report::text::json_document(&json)
        }
    };
    print(&text)?;
    Ok(ExitCode::SUCCESS)
}
