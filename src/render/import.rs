//! `import`'s report: the files read, one line a rule found, what is not a rule, the moves and exports, what to do next; as text (`--verbose`: every line that is not a rule) and the `import --format json` document.

use super::Render;
use crate::export::handwritten::{self, Skipped};
use crate::ops::import::{Item, Moved, Report, Verdict};
use crate::ops::learning::Refreshed;
use crate::report::paint::Painter;
use serde::Serialize;

impl Render for Report {
    fn to_text(&self, _painter: Painter) -> String {
        text(self, false)
    }

    /// The `import --format json` document.
    fn to_json(&self) -> String {
        #[derive(Serialize)]
        struct FileJson<'a> {
            path: &'a str,
            readers: &'a [&'a str],
            format: &'a str,
        }
        #[derive(Serialize)]
        struct Json<'a> {
            version: u32,
            write: bool,
            #[serde(rename = "move")]
            move_lines: bool,
            rules_file: &'a str,
            files: Vec<FileJson<'a>>,
            rules: &'a [Item],
            skipped: &'a [Skipped],
            moved: &'a [Moved],
            exports: &'a [Refreshed],
            diagnostics: Vec<crate::report::diagnostics::DiagnosticJson<'a>>,
        }
        crate::report::text::json_document(&Json {
            version: 1,
            write: self.write,
            move_lines: self.move_lines,
            rules_file: &self.rules_file,
            files: (self.files.iter())
                .map(|(path, readers, format)| FileJson {
                    path,
                    readers,
                    format,
                })
                .collect(),
            rules: &self.items,
            skipped: &self.skipped,
            moved: &self.moved,
            exports: &self.exports,
            diagnostics: crate::report::diagnostics::json_of(&self.warnings),
        })
    }
}

impl Report {
    fn write_skipped(&self, out: &mut String, verbose: bool, width: usize) {
        use std::fmt::Write as _;
        if self.skipped.is_empty() {
            return;
        }
        if verbose {
            let _ = writeln!(out, "Not rules (left where they are):");
            for skipped in &self.skipped {
                let _ = writeln!(
                    out,
                    "  {:<width$}  {}",
                    crate::report::text::shown(&place_of(skipped)),
                    skipped.kind.why()
                );
            }
            return;
        }
        // A file that could not be read is named whatever the verbosity.
        for skipped in (self.skipped.iter()).filter(|s| s.kind == handwritten::Kind::Unreadable) {
            let _ = writeln!(
                out,
                "  {}: {}",
                crate::report::text::shown(&skipped.file),
                skipped.kind.why()
            );
        }
        let mut kinds: Vec<(handwritten::Kind, usize)> = Vec::new();
        for skipped in &self.skipped {
            match kinds.iter_mut().find(|(k, _)| *k == skipped.kind) {
                Some((_, n)) => *n += 1,
                None => kinds.push((skipped.kind, 1)),
            }
        }
        let parts: Vec<String> = kinds
            .iter()
            .map(|(kind, n)| format!("{n} × {}", kind.why()))
            .collect();
        let _ = writeln!(
            out,
            "Not rules, left where they are: {} (`--verbose` lists them)",
            parts.join("; ")
        );
    }

    fn summary(&self) -> String {
        let (added, repeats, not) = self.counts();
        let rules = crate::report::text::counted(added, "rule");
        let mut line = match self.write {
            true => format!("Added {rules} to {}", self.rules_file),
            false => format!("Would add {rules}"),
        };
        line.push_str(&format!(
            " ({} skipped as repeats{}).\n",
            repeats,
            if not > 0 {
                format!(", {not} not imported")
            } else {
                String::new()
            }
        ));
        let held = self.items.iter().filter(|i| i.status.held()).count();
        let stays = self.items.iter().filter(|i| i.stays).count();
        if stays > 0 {
            let (lines, their) = match stays {
                1 => (
                    "1 line stays in its hand-written file".to_string(),
                    "its rule",
                ),
                n => (
                    format!("{n} lines stay in their hand-written files"),
                    "their rules",
                ),
            };
            line.push_str(&format!(
                "{lines}: autofix holds {their} only in other words, and taking a line out \
                 could lose what only it says. Settle each by hand: delete the line if the rule \
                 says all it says, or reword one of the two.\n"
            ));
        }
        if !self.write && (added > 0 || (self.move_lines && held > 0)) {
            line.push_str(if self.move_lines {
                "Run `autofix import --write --move` to add them and take them out of the hand-written files.\n"
            } else {
                "Run `autofix import --write` to add them (with `--move`, they are also taken out of the hand-written files, so no agent reads them twice).\n"
            });
        } else if self.write && !self.move_lines && held > 0 {
            line.push_str(&format!(
                "The hand-written files still state {held} of these rules: an agent that reads them and autofix's copy gets each twice. Run `autofix import --write --move` to take them out.\n",
            ));
        }
        line
    }

    /// The rules added (or, in a preview, to add), the repeats, the rest.
    fn counts(&self) -> (usize, usize, usize) {
        let count = |f: &dyn Fn(Verdict) -> bool| self.items.iter().filter(|i| f(i.status)).count();
        (
            count(&|s| matches!(s, Verdict::Add | Verdict::Added)),
            count(&|s| matches!(s, Verdict::RepeatsRule | Verdict::RepeatsFound)),
            count(&|s| matches!(s, Verdict::Contradicts | Verdict::Refused)),
        )
    }

    /// The report with every line that is not a rule (`import --verbose`).
    pub(crate) fn to_verbose_text(&self) -> String {
        text(self, true)
    }
}

/// The report for a person: the files, one line a rule found, what is not a rule
/// (counted; one by one with `verbose`), the moves, the exports, what to do next.
fn text(report: &Report, verbose: bool) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let shown = |text: &str| crate::report::text::shown(text).into_owned();
    if report.files.is_empty() && report.skipped.is_empty() {
        let _ = writeln!(
            out,
            "No hand-written rule files found (CLAUDE.md, .claude/rules/, AGENTS.md, GEMINI.md, .cursor/rules/, \
             .cursorrules, .windsurfrules, .github/copilot-instructions.md, \
             .github/instructions/, .clinerules): nothing to import."
        );
        return out;
    }
    let mode = if report.write {
        ""
    } else {
        " (a preview: --write adds the rules)"
    };
    let _ = writeln!(
        out,
        "Importing {} into {}{mode}",
        crate::report::text::counted(report.files.len(), "hand-written file"),
        shown(&report.rules_file)
    );
    for (path, readers, _) in &report.files {
        let _ = writeln!(out, "  {} (read by {})", shown(path), readers.join(", "));
    }
    let width = (report.items.iter().map(|i| i.found.place().len()))
        .chain(
            verbose
                .then(|| report.skipped.iter().map(place_of))
                .into_iter()
                .flatten()
                .map(|p| p.len()),
        )
        .max()
        .unwrap_or(0);
    if !report.items.is_empty() {
        let _ = writeln!(out, "Rules found:");
    }
    for item in &report.items {
        let _ = writeln!(
            out,
            "  {:<width$}  {}",
            shown(&item.found.place()),
            shown(&item.describe())
        );
    }
    report.write_skipped(&mut out, verbose, width);
    for moved in &report.moved {
        let why = match &moved.message {
            Some(message) => format!(": {message}"),
            None if moved.headings > 0 => format!(
                " ({} taken out, and {} left empty; the rest unchanged)",
                crate::report::text::counted(moved.lines, "line"),
                crate::report::text::counted(moved.headings, "heading")
            ),
            None => format!(
                " ({} taken out, the rest unchanged)",
                crate::report::text::counted(moved.lines, "line")
            ),
        };
        let status = moved.status.replace('-', " ");
        let _ = writeln!(out, "  {status:<12} {}{why}", shown(&moved.file));
    }
    for export in &report.exports {
        let _ = writeln!(
            out,
            "  {:<12} {} (export)",
            export.status,
            shown(&export.path)
        );
    }
    out.push_str(&report.summary());
    out
}

impl Item {
    /// `add #4 [TOOL] Always use pnpm (src/**)`, `skip: repeats rule 2: …`.
    fn describe(&self) -> String {
        let mut said = self.said();
        if self.stays {
            said = format!("{said} (stays in {}: not in these words)", self.found.file);
        }
        if let Some(near) = &self.near {
            let to = match (&near.rule, &near.place) {
                (Some(rule), _) => format!("rule {rule}"),
                (None, Some(place)) => place.clone(),
                (None, None) => String::new(),
            };
            said = format!(
                "{said} (near {to}, cosine {:.2}: settle it after)",
                near.score
            );
        }
        said
    }

    fn said(&self) -> String {
        let text = &self.found.instruction;
        let scope = if self.found.paths.is_empty() {
            String::new()
        } else {
            format!(" (for {})", self.found.paths.join(", "))
        };
        let number = self.rule.map_or_else(String::new, |n| n.to_string());
        match self.status {
            Verdict::Add => format!("add #{number} [{}] {text}{scope}", self.category),
            Verdict::Added => format!("added #{number} [{}] {text}{scope}", self.category),
            Verdict::RepeatsRule => format!("skip: repeats rule {number}: {text}"),
            Verdict::RepeatsFound => format!(
                "skip: repeats {}: {text}",
                self.earlier.as_deref().unwrap_or("")
            ),
            Verdict::Contradicts => match &self.earlier {
                Some(earlier) => format!("not imported: contradicts {earlier}: {text}"),
                None => format!("not imported: contradicts rule {number}: {text}"),
            },
            Verdict::Refused => format!(
                "not imported: {}: {text}",
                self.message.as_deref().unwrap_or("refused")
            ),
        }
    }
}

fn place_of(skipped: &Skipped) -> String {
    if skipped.last_line > skipped.line {
        format!("{}:{}-{}", skipped.file, skipped.line, skipped.last_line)
    } else {
        format!("{}:{}", skipped.file, skipped.line)
    }
}
