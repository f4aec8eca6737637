//! `autofix explain`, `completions` and `man`: help for people at a terminal.

use std::process::ExitCode;

use crate::report::diagnostics::{self, Code, Diagnostic};
use crate::report::explain;
use crate::report::paint::Painter;
use crate::report::text::counted;
use anyhow::Context as _;
use clap::CommandFactory;

use crate::front::cli::{Cli, CompletionsArgs, ExplainArgs, ManArgs};
use crate::front::context::{Context, eprint, print};

pub(crate) fn explain(args: ExplainArgs) -> anyhow::Result<ExitCode> {
    let Some(name) = args.code.filter(|_| !args.list) else {
        print(&explain::list())?;
        return Ok(ExitCode::SUCCESS);
    };
    let wanted = name.trim().trim_start_matches('[').trim_end_matches(']');
    match Code::from_name(wanted) {
        Some(code) => {
            print(&explain::text(code))?;
            Ok(ExitCode::SUCCESS)
        }
        None => {
            let hint = crate::report::text::did_you_mean(&explain::closest(wanted));
            anyhow::bail!("unknown code `{wanted}`{hint} (`autofix explain --list` shows them all)")
        }
    }
}

pub(crate) fn completions(args: CompletionsArgs) -> anyhow::Result<ExitCode> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "autofix", &mut script);
    print(&String::from_utf8_lossy(&script))?;
    Ok(ExitCode::SUCCESS)
}

pub(crate) fn man(context: &Context, args: ManArgs) -> anyhow::Result<ExitCode> {
    let mut root = Cli::command().disable_help_subcommand(true);
    root.build();
    if let Some(dir) = args.dir {
        let mut written = 0;
        for page in pages(&root) {
            let path = dir.join(format!(
                "{}.1",
                page.get_display_name().unwrap_or("autofix")
            ));
            // The one write path: a page linked into `.git/` is refused, not written through.
            // Its errors name the pages relative to where the user is.
            let fence = crate::io::safe_write::Fence::user_directory();
            let fence = match context.cwd() {
                Ok(cwd) => fence.naming_below(&[cwd]),
                Err(_) => fence,
            };
            let warning =
                crate::io::safe_write::replace(&fence, &path, render_page(page)?.as_bytes())
                    .with_context(|| format!("cannot write {}", context.shown(&path)))?;
            if let Some(warning) = warning {
                let flush = Diagnostic::new(Code::NotFlushed, warning);
                eprint(&diagnostics::text_of(&[flush], Painter::new(false)));
            }
            written += 1;
        }
        print(&format!(
            "Wrote {} to {}\n",
            counted(written, "man page"),
            context.shown(&dir)
        ))?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut page = &root;
    for name in &args.command {
        page = page.find_subcommand(name).with_context(|| {
            let known: Vec<&str> = page
                .get_subcommands()
                .map(clap::Command::get_name)
                .collect();
            format!(
                "no man page for `{}`: `{}` has no command `{name}` (it has {})",
                args.command.join(" "),
                page.get_display_name().unwrap_or("autofix"),
                known.join(", ")
            )
        })?;
    }
    print(&render_page(page)?)?;
    Ok(ExitCode::SUCCESS)
}

/// The root command and every subcommand below it, depth first.
fn pages(command: &clap::Command) -> Vec<&clap::Command> {
    let mut all = vec![command];
    for sub in command.get_subcommands() {
        all.extend(pages(sub));
    }
    all
}

/// One man page: clap_mangen's sections, with the after-help blocks ("Exit status:",
/// "Environment:") as sections of their own, set without filling so the columns stay.
fn render_page(command: &clap::Command) -> anyhow::Result<String> {
    let man = clap_mangen::Man::new(command.clone())
        .source(concat!("autofix ", env!("CARGO_PKG_VERSION")))
        .manual("autofix manual");
    let mut page = Vec::new();
    man.render_title(&mut page)?;
    man.render_name_section(&mut page)?;
    man.render_synopsis_section(&mut page)?;
    man.render_description_section(&mut page)?;
    if command.get_arguments().any(|arg| !arg.is_hide_set()) {
        man.render_options_section(&mut page)?;
    }
    if command.has_subcommands() {
        man.render_subcommands_section(&mut page)?;
    }
    let mut page = String::from_utf8(page)?;
    if let Some(after) = command.get_after_help() {
        page.push_str(&roff_sections(&after.to_string()));
    }
    if command.get_version().is_some() {
        let mut version = Vec::new();
        man.render_version_section(&mut version)?;
        page.push_str(&String::from_utf8(version)?);
    }
    Ok(page)
}

/// Blocks that start with a `Heading:` line become `.SH HEADING` sections; their lines are
/// set verbatim (`.nf`), escaped for roff.
fn roff_sections(text: &str) -> String {
    let mut out = String::new();
    for block in text.split("\n\n") {
        let mut lines = block.lines();
        let Some(first) = lines.next() else { continue };
        match first.strip_suffix(':').filter(|h| !h.starts_with(' ')) {
            Some(heading) => out.push_str(&format!(".SH \"{}\"\n.nf\n", heading.to_uppercase())),
            None => out.push_str(&format!(".PP\n.nf\n{}\n", roff_line(first))),
        }
        for line in lines {
            out.push_str(&roff_line(line));
            out.push('\n');
        }
        out.push_str(".fi\n");
    }
    out
}

fn roff_line(line: &str) -> String {
    let escaped = line.replace('\\', "\\e").replace('-', "\\-");
    if escaped.starts_with('.') || escaped.starts_with('\'') {
        format!("\\&{escaped}")
    } else {
        escaped
    }
}
