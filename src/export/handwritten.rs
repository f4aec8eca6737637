//! The rule files people write by hand for their agents (`CLAUDE.md`, `AGENTS.md`,
//! `.cursor/rules/*.mdc`, …): where each agent looks, and the rules in them. `import`
//! turns those rules into numbered ones; `check`, `export` and `learn` use the same reading
//! to say when an active rule is also written in such a file, so that it reaches the model
//! twice. Nothing here writes: the files are only read.
//!
//! What counts as a rule: a list item or a numbered item that reads as an instruction, and
//! a line (or a paragraph) of prose that starts with one. Headings, prose, code blocks,
//! tables, comments, links, `@path` imports and autofix's own block are not rules, and are
//! reported as skipped with the reason. A scoped file (Cursor `globs:`, Copilot `applyTo:`,
//! Claude Code and Cline `paths:`) gives its rules those globs as `Paths`; a rule folder's
//! file whose body has no list is one rule, as the agent reads it.

use std::collections::HashSet;
use std::path::Path;

use serde::Serialize;

use super::markdown::{self, Context, Line};
use super::targets::{self, Facts};
use super::{block, owned};
use crate::report::diagnostics::{Code, Diagnostic, Position};
use crate::rules::{Category, file::MAX_FIELD_CHARS};

/// Where a format's files are, relative to the workspace root.
#[derive(Clone, Copy, Debug)]
enum Place {
    /// One file (found in any letter case: a lower-case `agents.md` is `AGENTS.md`).
    File(&'static str),
    /// Every file of a folder whose name ends with `suffix`.
    Folder {
        dir: &'static str,
        suffix: &'static str,
    },
}

/// One hand-written format: where it lives, who reads it, how it scopes a file.
#[derive(Debug)]
pub(crate) struct Format {
    place: Place,
    /// The agents that load it, as the export targets name their readers.
    readers: &'static [&'static str],
    /// The frontmatter key that holds the globs a file applies to.
    scope_key: Option<&'static str>,
    /// The agent's documentation of the file.
    pub(crate) source: &'static str,
}

/// Every format `import` reads, in the order their rules are numbered.
pub(crate) const FORMATS: &[Format] = &[
    // "CLAUDE.md … ./CLAUDE.md or ./.claude/CLAUDE.md" (<https://code.claude.com/docs/en/memory>).
    Format {
        place: Place::File("CLAUDE.md"),
        readers: &["Claude Code"],
        scope_key: None,
        source: "https://code.claude.com/docs/en/memory",
    },
    Format {
        place: Place::File(".claude/CLAUDE.md"),
        readers: &["Claude Code"],
        scope_key: None,
        source: "https://code.claude.com/docs/en/memory",
    },
    // Rule files of their own, loaded for the globs of their `paths:` frontmatter or
    // always without it (same page, "Organize rules with .claude/rules/").
    Format {
        place: Place::Folder {
            dir: ".claude/rules",
            suffix: ".md",
        },
        readers: &["Claude Code"],
        scope_key: Some("paths"),
        source: "https://code.claude.com/docs/en/memory#organize-rules-with-claude-rules",
    },
    // Plain Markdown, no required fields (<https://agents.md/>).
    Format {
        place: Place::File("AGENTS.md"),
        readers: targets::AGENTS_MD_READERS,
        scope_key: None,
        source: "https://agents.md/",
    },
    Format {
        place: Place::File("GEMINI.md"),
        readers: &["Gemini CLI"],
        scope_key: None,
        source: "https://github.com/google-gemini/gemini-cli/blob/main/docs/cli/gemini-md.md",
    },
    // `.mdc` files with `description`, `globs` (a comma-joined list) and `alwaysApply`
    // frontmatter; `.cursorrules` is the legacy single file (<https://cursor.com/docs/rules>).
    Format {
        place: Place::Folder {
            dir: ".cursor/rules",
            suffix: ".mdc",
        },
        readers: &["Cursor"],
        scope_key: Some("globs"),
        source: "https://cursor.com/docs/rules",
    },
    Format {
        place: Place::File(".cursorrules"),
        readers: &["Cursor"],
        scope_key: None,
        source: "https://cursor.com/docs/rules",
    },
    // The legacy workspace rules file beside `.windsurf/rules/`
    // (<https://docs.windsurf.com/windsurf/cascade/memories>).
    Format {
        place: Place::File(".windsurfrules"),
        readers: &["Windsurf"],
        scope_key: None,
        source: "https://docs.windsurf.com/windsurf/cascade/memories",
    },
    // Repository-wide `.github/copilot-instructions.md`, and path-specific
    // `NAME.instructions.md` files under `.github/instructions/` with an `applyTo` glob
    // list in their frontmatter (same page).
    Format {
        place: Place::File(".github/copilot-instructions.md"),
        readers: &["Copilot"],
        scope_key: None,
        source: "https://docs.github.com/en/copilot/how-tos/configure-custom-instructions-in-your-ide/add-repository-instructions-in-your-ide",
    },
    Format {
        place: Place::Folder {
            dir: ".github/instructions",
            suffix: ".instructions.md",
        },
        readers: &["Copilot"],
        scope_key: Some("applyTo"),
        source: "https://docs.github.com/en/copilot/how-tos/configure-custom-instructions-in-your-ide/add-repository-instructions-in-your-ide",
    },
    // A single `.clinerules` file, or a `.clinerules/` folder of Markdown files each with
    // optional `paths:` frontmatter
    // (<https://docs.cline.bot/features/cline-rules/overview>,
    // <https://docs.cline.bot/features/cline-rules/conditional-rules>).
    Format {
        place: Place::File(".clinerules"),
        readers: &["Cline"],
        scope_key: None,
        source: "https://docs.cline.bot/features/cline-rules/overview",
    },
    Format {
        place: Place::Folder {
            dir: ".clinerules",
            suffix: ".md",
        },
        readers: &["Cline"],
        scope_key: Some("paths"),
        source: "https://docs.cline.bot/features/cline-rules/conditional-rules",
    },
];

impl Format {
    /// Whether its files are those of a rule folder (each file one agent rule).
    pub(crate) fn is_folder(&self) -> bool {
        matches!(self.place, Place::Folder { .. })
    }
}

/// A hand-written file found in the repository.
#[derive(Clone, Debug)]
pub(crate) struct HandFile {
    /// Relative to the root, as spelled on disk.
    pub(crate) path: String,
    pub(crate) format: &'static Format,
    /// The file's text (valid UTF-8).
    pub(crate) text: String,
    /// The file's bytes when read: what a move expects to find before it writes.
    pub(crate) bytes: Vec<u8>,
}

impl HandFile {
    /// The agents that read this file here (Claude Code reads `AGENTS.md` where no
    /// CLAUDE.md counts).
    pub(crate) fn readers(&self, facts: &Facts) -> Vec<&'static str> {
        let mut readers = self.format.readers.to_vec();
        if matches!(self.format.place, Place::File("AGENTS.md")) && facts.claude_reads_agents_md {
            readers.push("Claude Code");
        }
        readers
    }
}

/// A rule found in a hand-written file.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Found {
    /// The file, relative to the root.
    pub(crate) file: String,
    /// Its first and last line (1-based).
    pub(crate) line: usize,
    pub(crate) last_line: usize,
    /// The byte ranges of its lines, line endings included: what a move takes out.
    #[serde(skip)]
    pub(crate) ranges: Vec<(usize, usize)>,
    /// The rule's text, one line.
    pub(crate) instruction: String,
    /// The globs of a scoped file; empty: everywhere.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) paths: Vec<String>,
}

impl Found {
    /// `CLAUDE.md:12`, or `CLAUDE.md:12-14` for an item over several lines.
    pub(crate) fn place(&self) -> String {
        if self.last_line > self.line {
            format!("{}:{}-{}", self.file, self.line, self.last_line)
        } else {
            format!("{}:{}", self.file, self.line)
        }
    }

    /// The category its words suggest.
    pub(crate) fn category(&self) -> Category {
        guess_category(&self.instruction)
    }
}

/// What a part of a file is, when it is not a rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Kind {
    Heading,
    Prose,
    Code,
    Table,
    Comment,
    Link,
    Import,
    /// A list item that introduces the items under it (`- Testing:`).
    LeadIn,
    /// autofix's exported block, or a file autofix owns.
    Autofix,
    /// Longer than a rule may be.
    TooLong,
    /// A Cursor rule that loads only when @-mentioned.
    Manual,
    /// A file another tool generates (Ruler).
    Generated,
    /// Not UTF-8, or not readable.
    Unreadable,
}

impl Kind {
    pub(crate) fn why(self) -> &'static str {
        match self {
            Kind::Heading => "a heading",
            Kind::Prose => "prose, not an instruction",
            Kind::Code => "a code block",
            Kind::Table => "a table",
            Kind::Comment => "an HTML comment",
            Kind::Link => "a link",
            Kind::Import => "an @import of another file",
            Kind::LeadIn => "a lead-in to the items under it",
            Kind::Autofix => "autofix's own export",
            Kind::TooLong => "longer than a rule may be (2,000 characters)",
            Kind::Manual => "a manual Cursor rule (loaded only when @-mentioned): left as it is",
            Kind::Generated => "generated by another tool: import its source instead",
            Kind::Unreadable => "not readable as UTF-8 text",
        }
    }
}

/// A part of a hand-written file that is not a rule.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Skipped {
    pub(crate) file: String,
    pub(crate) line: usize,
    pub(crate) last_line: usize,
    pub(crate) kind: Kind,
}

/// What the hand-written files hold.
#[derive(Clone, Debug, Default)]
pub(crate) struct Reading {
    pub(crate) files: Vec<HandFile>,
    pub(crate) rules: Vec<Found>,
    pub(crate) skipped: Vec<Skipped>,
}

/// Finds and reads every hand-written file in the repository at `root` (all of them, or
/// only those in `only`, relative to the root), and the rules in them.
pub(crate) fn read(root: &Path, only: Option<&[String]>) -> Reading {
    let mut reading = Reading::default();
    let mut seen = HashSet::new();
    for format in FORMATS {
        for path in paths_of(root, format) {
            if only.is_some_and(|only| !only.iter().any(|o| same_path(o, &path))) {
                continue;
            }
            // A link to another of the files (CLAUDE.md → AGENTS.md) is read once.
            let real = std::fs::canonicalize(root.join(&path)).unwrap_or_else(|_| root.join(&path));
            if !seen.insert(real) {
                continue;
            }
            // A link that leads outside the repository is read no more than written.
            let Ok(bytes) = crate::io::limits::read_file_within(root, &root.join(&path)) else {
                reading.skipped.push(whole(&path, Kind::Unreadable, 1));
                continue;
            };
            let Ok(text) = String::from_utf8(bytes.clone()) else {
                reading.skipped.push(whole(&path, Kind::Unreadable, 1));
                continue;
            };
            let file = HandFile {
                path,
                format,
                text,
                bytes,
            };
            if parse(&file, &mut reading) {
                reading.files.push(file);
            }
        }
    }
    reading
}

/// Whether `given` (as the user typed it, `./` or not) names `path`.
fn same_path(given: &str, path: &str) -> bool {
    let given = given.trim_start_matches("./");
    given == path || given.eq_ignore_ascii_case(path)
}

fn whole(path: &str, kind: Kind, lines: usize) -> Skipped {
    Skipped {
        file: path.to_string(),
        line: 1,
        last_line: lines.max(1),
        kind,
    }
}

/// The files of a format present under `root`, relative to it, sorted.
fn paths_of(root: &Path, format: &Format) -> Vec<String> {
    match format.place {
        Place::File(name) => {
            let path = markdown::on_disk(root, name);
            let is_file = std::fs::metadata(root.join(&path)).is_ok_and(|m| m.is_file());
            if is_file { vec![path] } else { Vec::new() }
        }
        Place::Folder { dir, suffix } => {
            let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
                return Vec::new();
            };
            let mut names: Vec<String> = entries
                .filter_map(Result::ok)
                .filter(|entry| entry.path().is_file())
                .filter_map(|entry| entry.file_name().into_string().ok())
                .filter(|name| name.to_ascii_lowercase().ends_with(suffix))
                .map(|name| format!("{dir}/{name}"))
                .collect();
            names.sort();
            names
        }
    }
}

/// Reads the rules of one file into `reading`; `false` when the file is not hand-written
/// (autofix's own, or another tool's), and is only reported as skipped.
fn parse(file: &HandFile, reading: &mut Reading) -> bool {
    let text = file.text.as_str();
    let lines = markdown::lines(text);
    if owned::is_stamped(text) {
        reading
            .skipped
            .push(whole(&file.path, Kind::Autofix, lines.len()));
        return false;
    }
    let our_block = block::find(text).ok().flatten();
    if block::foreign(text, our_block.as_ref()).is_some() {
        reading
            .skipped
            .push(whole(&file.path, Kind::Generated, lines.len()));
        return false;
    }
    let front = frontmatter(&lines);
    let paths = match file.format.scope_key {
        Some(key) => match scope(&front, key) {
            Scope::Manual => {
                reading
                    .skipped
                    .push(whole(&file.path, Kind::Manual, lines.len()));
                return true;
            }
            Scope::Globs(globs) => globs,
        },
        None => Vec::new(),
    };
    let mut parser = Parser {
        file: &file.path,
        paths: &paths,
        rules: Vec::new(),
        skipped: Vec::new(),
        prose: Vec::new(),
    };
    parser.run(&lines, our_block.as_ref());
    // A rule folder's file without a list is one rule: the agent loads it as one.
    if file.format.scope_key.is_some() && parser.rules.is_empty() && !parser.prose.is_empty() {
        let prose = std::mem::take(&mut parser.prose);
        parser.skipped.retain(|s| s.kind != Kind::Prose);
        parser.push_rule(&prose);
    }
    reading.rules.extend(parser.rules);
    reading.skipped.extend(parser.skipped);
    true
}

/// The frontmatter's `key: value` pairs, a YAML list under a key joined with commas.
fn frontmatter(lines: &[Line<'_>]) -> Vec<(String, String)> {
    let mut pairs: Vec<(String, String)> = Vec::new();
    for line in lines.iter().filter(|l| l.context == Context::Frontmatter) {
        let text = line.text.trim();
        if text == "---" || text.is_empty() || text.starts_with('#') {
            continue;
        }
        if let Some(item) = text.strip_prefix("- ") {
            if let Some((_, value)) = pairs.last_mut() {
                if !value.is_empty() {
                    value.push(',');
                }
                value.push_str(unquote(item.trim()));
            }
            continue;
        }
        if let Some((key, value)) = text.split_once(':') {
            let value = unquote(value.trim());
            let value = value
                .strip_prefix('[')
                .and_then(|v| v.strip_suffix(']'))
                .unwrap_or(value);
            let joined: Vec<&str> = outside_braces(value).map(|v| unquote(v.trim())).collect();
            pairs.push((key.trim().to_string(), joined.join(",")));
        }
    }
    pairs
}

/// `text` split at its commas outside `{…}`: `src/**/*.{ts,tsx}, docs/**` is two globs.
fn outside_braces(text: &str) -> impl Iterator<Item = &str> {
    let mut depth = 0usize;
    let mut start = 0;
    let mut pieces = Vec::new();
    for (at, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                pieces.push(&text[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    pieces.push(&text[start..]);
    pieces.into_iter()
}

fn unquote(text: &str) -> &str {
    for quote in ['"', '\''] {
        if let Some(inner) = text.strip_prefix(quote).and_then(|t| t.strip_suffix(quote)) {
            return inner;
        }
    }
    text
}

enum Scope {
    Globs(Vec<String>),
    Manual,
}

/// The globs a scoped file applies to (none: everywhere), or a Cursor rule that loads only
/// when mentioned (no `alwaysApply: true`, no `globs`, no `description`).
fn scope(front: &[(String, String)], key: &str) -> Scope {
    let get = |name: &str| {
        front
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    };
    let globs: Vec<String> = outside_braces(get(key).unwrap_or(""))
        .map(str::trim)
        .filter(|g| !g.is_empty())
        .map(ToString::to_string)
        .collect();
    let always = get("alwaysApply") == Some("true");
    if key == "globs" && !always && globs.is_empty() && get("description").is_none_or(str::is_empty)
    {
        return Scope::Manual;
    }
    // Every file, in each agent's dialect, is no scope at all.
    let everywhere = globs
        .iter()
        .all(|g| matches!(g.as_str(), "**" | "**/*" | "*"));
    if always || everywhere {
        Scope::Globs(Vec::new())
    } else {
        Scope::Globs(globs)
    }
}

/// The line-by-line reading of one file's body.
struct Parser<'f> {
    file: &'f str,
    paths: &'f [String],
    rules: Vec<Found>,
    skipped: Vec<Skipped>,
    /// The prose paragraphs, for a scoped file that is one rule.
    prose: Vec<Line<'f>>,
}

/// A list item's marker (`- `, `* `, `+ `, `1. `, `1) `) and what follows it.
fn list_item(text: &str) -> Option<&str> {
    let trimmed = text.trim_start();
    let rest = if let Some(rest) = trimmed
        .strip_prefix("- ")
        .or_else(|| trimmed.strip_prefix("* "))
        .or_else(|| trimmed.strip_prefix("+ "))
    {
        rest
    } else {
        let digits = trimmed.chars().take_while(char::is_ascii_digit).count();
        if digits == 0 || digits > 9 {
            return None;
        }
        trimmed[digits..]
            .strip_prefix(". ")
            .or_else(|| trimmed[digits..].strip_prefix(") "))?
    };
    let rest = rest.trim_start();
    let rest = ["[ ] ", "[x] ", "[X] "]
        .iter()
        .find_map(|box_| rest.strip_prefix(box_))
        .unwrap_or(rest);
    Some(rest)
}

/// An ATX heading: one to six `#`, then a space or the end of the line.
fn is_heading(text: &str) -> bool {
    let trimmed = text.trim_start();
    let hashes = trimmed.chars().take_while(|&c| c == '#').count();
    let rest = &trimmed[hashes..];
    (1..=6).contains(&hashes) && (rest.is_empty() || rest.starts_with([' ', '\t']))
}

/// `---`, `***`, `___`: a thematic break.
fn is_break(text: &str) -> bool {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    compact.len() >= 3
        && ['-', '*', '_']
            .iter()
            .any(|&c| compact.chars().all(|x| x == c))
}

impl<'f> Parser<'f> {
    fn skip(&mut self, from: usize, to: usize, kind: Kind) {
        // Consecutive lines of one kind are one entry.
        if let Some(last) = self.skipped.last_mut()
            && last.kind == kind
            && last.last_line + 1 == from
            && matches!(
                kind,
                Kind::Code | Kind::Table | Kind::Comment | Kind::Autofix
            )
        {
            last.last_line = to;
            return;
        }
        self.skipped.push(Skipped {
            file: self.file.to_string(),
            line: from,
            last_line: to,
            kind,
        });
    }

    fn run(&mut self, lines: &[Line<'f>], our_block: Option<&block::Block>) {
        let mut at = 0;
        let mut comment = false;
        while at < lines.len() {
            let line = lines[at];
            let text = line.text.trim();
            let in_block =
                our_block.is_some_and(|b| line.number >= b.begin_line && line.number <= b.end_line);
            if in_block {
                self.skip(line.number, line.number, Kind::Autofix);
                at += 1;
                continue;
            }
            match line.context {
                Context::Frontmatter => {
                    at += 1;
                    continue;
                }
                Context::Fence => {
                    self.skip(line.number, line.number, Kind::Code);
                    at += 1;
                    continue;
                }
                Context::Text => {}
            }
            if comment || text.starts_with("<!--") {
                comment = !text.contains("-->");
                self.skip(line.number, line.number, Kind::Comment);
                at += 1;
                continue;
            }
            if text.is_empty() || is_break(text) {
                at += 1;
                continue;
            }
            if is_heading(text) {
                self.skip(line.number, line.number, Kind::Heading);
                at += 1;
                continue;
            }
            if text.starts_with('|') {
                self.skip(line.number, line.number, Kind::Table);
                at += 1;
                continue;
            }
            let end = self.unit_end(lines, at);
            self.unit(&lines[at..end]);
            at = end;
        }
    }

    /// Where the unit starting at `at` ends: a list item and its continuation lines, or a
    /// paragraph, up to a blank line, a heading, a fence, a table or the next item.
    fn unit_end(&self, lines: &[Line<'f>], at: usize) -> usize {
        let mut end = at + 1;
        while let Some(next) = lines.get(end) {
            let text = next.text.trim();
            let stops = next.context != Context::Text
                || text.is_empty()
                || is_heading(text)
                || is_break(text)
                || text.starts_with('|')
                || text.starts_with("<!--")
                || text.starts_with('@')
                || list_item(next.text).is_some();
            if stops {
                break;
            }
            end += 1;
        }
        end
    }

    /// One list item, or one paragraph.
    fn unit(&mut self, unit: &[Line<'f>]) {
        let first = unit[0];
        if let Some(item) = list_item(first.text) {
            let joined = join(std::iter::once(item).chain(unit[1..].iter().map(|l| l.text)));
            match not_a_rule(&joined, true) {
                Some(kind) => self.skip(first.number, unit[unit.len() - 1].number, kind),
                None => self.push(unit, joined),
            }
            return;
        }
        // A paragraph of one instruction a line is that many rules; wrapped prose is one.
        if unit.len() > 1 && unit.iter().all(|l| starts_with_verb(l.text.trim())) {
            for line in unit {
                self.unit(std::slice::from_ref(line));
            }
            return;
        }
        let joined = join(unit.iter().map(|l| l.text));
        match not_a_rule(&joined, false) {
            Some(Kind::Prose) => {
                self.prose.extend_from_slice(unit);
                self.skip(first.number, unit[unit.len() - 1].number, Kind::Prose);
            }
            Some(kind) => self.skip(first.number, unit[unit.len() - 1].number, kind),
            None => self.push(unit, joined),
        }
    }

    fn push(&mut self, unit: &[Line<'f>], instruction: String) {
        if instruction.chars().count() > MAX_FIELD_CHARS {
            self.skip(unit[0].number, unit[unit.len() - 1].number, Kind::TooLong);
            return;
        }
        self.rules.push(Found {
            file: self.file.to_string(),
            line: unit[0].number,
            last_line: unit[unit.len() - 1].number,
            ranges: unit.iter().map(|l| (l.start, l.next)).collect(),
            instruction,
            paths: self.paths.to_vec(),
        });
    }

    /// The prose of a scoped file as its one rule.
    fn push_rule(&mut self, lines: &[Line<'f>]) {
        let joined = join(lines.iter().map(|l| l.text));
        let mut sorted = lines.to_vec();
        sorted.sort_by_key(|l| l.number);
        self.push(&sorted, joined);
    }
}

/// The lines of a unit as one line of text.
fn join<'a>(parts: impl Iterator<Item = &'a str>) -> String {
    parts
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Why `text` (a list item's, or a paragraph's) is not a rule; `None`: it is one.
fn not_a_rule(text: &str, item: bool) -> Option<Kind> {
    let words = text.trim();
    if is_link(words) {
        return Some(Kind::Link);
    }
    if words.starts_with('@') && !words.contains(' ') {
        return Some(Kind::Import);
    }
    if item && words.ends_with(':') {
        return Some(Kind::LeadIn);
    }
    if reads_as_rule(words) {
        None
    } else {
        Some(Kind::Prose)
    }
}

/// A bare link: `[text](url)`, `<url>`, or a URL alone.
fn is_link(text: &str) -> bool {
    let bare = text.trim_end_matches(['.', ',']);
    if bare.starts_with("http://") || bare.starts_with("https://") {
        return !bare.contains(' ');
    }
    if bare.starts_with('<') && bare.ends_with('>') && !bare.contains(' ') {
        return true;
    }
    bare.starts_with('[') && bare.ends_with(')') && bare.contains("](") && {
        // Only one link, nothing around it.
        bare.matches("](").count() == 1
    }
}

/// The words an instruction starts with (after a bold label such as `**Testing**:`).
fn opening_words(text: &str) -> Vec<String> {
    let mut rest = text.trim();
    if let Some(label) = rest.strip_prefix("**")
        && let Some(end) = label.find("**")
    {
        let after = label[end + 2..].trim_start();
        let after = after.strip_prefix(':').unwrap_or(after);
        rest = after.trim_start_matches([' ', '-', '—', '–']);
    }
    rest.split_whitespace()
        .take(3)
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'' && c != '’')
                .replace('’', "'")
                .to_lowercase()
        })
        .collect()
}

/// Whether a line starts with an imperative verb (`Use …`, `Never …`, `Don't …`).
fn starts_with_verb(text: &str) -> bool {
    let words = opening_words(text);
    words.first().is_some_and(|w| VERBS.contains(&w.as_str()))
        || (words.first().is_some_and(|w| w == "do") && words.get(1).is_some_and(|w| w == "not"))
}

/// Whether a text states an instruction: it starts with an imperative verb, or it says
/// what must or must not be done ("Functions should be pure", "No default exports").
fn reads_as_rule(text: &str) -> bool {
    if starts_with_verb(text) {
        return true;
    }
    let lower = text.to_lowercase().replace('’', "'");
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .collect();
    words.first() == Some(&"no")
        || words.iter().any(|w| DIRECTIVES.contains(w))
        || lower.contains("do not ")
        || lower.contains("make sure")
}

/// Words that make a statement a directive wherever they stand.
const DIRECTIVES: &[&str] = &[
    "always",
    "never",
    "must",
    "mustn't",
    "should",
    "shouldn't",
    "don't",
    "avoid",
    "prefer",
    "required",
    "forbidden",
    "only",
];

/// Imperative verbs instructions commonly start with.
const VERBS: &[&str] = &[
    "always",
    "never",
    "use",
    "don't",
    "do",
    "prefer",
    "avoid",
    "run",
    "keep",
    "write",
    "make",
    "add",
    "put",
    "ensure",
    "follow",
    "check",
    "test",
    "include",
    "remove",
    "call",
    "return",
    "handle",
    "validate",
    "document",
    "name",
    "place",
    "import",
    "export",
    "commit",
    "push",
    "create",
    "update",
    "read",
    "ask",
    "wrap",
    "mark",
    "log",
    "store",
    "limit",
    "consider",
    "only",
    "stop",
    "start",
    "treat",
    "leave",
    "pin",
    "lint",
    "format",
    "build",
    "install",
    "split",
    "reuse",
    "delete",
    "rename",
    "move",
    "define",
    "declare",
    "type",
    "throw",
    "catch",
    "prefix",
    "suffix",
    "set",
    "pass",
    "mock",
    "describe",
    "explain",
    "comment",
    "list",
    "sort",
    "escape",
    "sanitize",
    "verify",
    "review",
    "open",
    "close",
    "guard",
    "cache",
    "respect",
    "favor",
    "favour",
    "stick",
    "refer",
    "be",
    "extract",
    "inline",
    "group",
    "organize",
    "separate",
    "colocate",
    "implement",
    "enable",
    "disable",
    "choose",
    "apply",
    "replace",
    "convert",
    "reply",
    "respond",
    "answer",
    "tell",
    "show",
    "print",
    "generate",
    "target",
    "require",
    "configure",
    "upgrade",
    "fetch",
    "load",
    "save",
    "send",
    "parse",
    "measure",
    "optimize",
    "refactor",
    "fix",
    "debug",
    "clean",
    "simplify",
    "reduce",
    "minimize",
];

/// The words that suggest each category, tried in this order.
const CATEGORY_WORDS: &[(Category, &str)] = &[
    (
        Category::Tool,
        "npm pnpm yarn bun cargo pip uv poetry make docker install cli script scripts command \
         commands tool tools lockfile npx gradle maven brew",
    ),
    (
        Category::Process,
        "commit commits branch branches pr prs review merge changelog release ci deploy issue \
         issues ticket",
    ),
    (
        Category::Data,
        "database sql migration migrations schema query queries table tables json csv data",
    ),
    (
        Category::Ux,
        "ui ux accessibility a11y button buttons css tailwind layout user-facing copy screen design",
    ),
    (
        Category::Arch,
        "module modules layer layers architecture dependency dependencies package packages \
         folder folders directory service services",
    ),
    (
        Category::Style,
        "format formatting indent indentation naming name names style lint prettier camelcase \
         snake_case kebab-case comment comments quotes semicolons tabs spaces",
    ),
];

/// The category a rule's words suggest (the first of [`CATEGORY_WORDS`] one of its words
/// is in), else CODE.
pub(crate) fn guess_category(text: &str) -> Category {
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric() && c != '-' && c != '_')
        .filter(|w| !w.is_empty())
        .collect();
    CATEGORY_WORDS
        .iter()
        .find(|(_, list)| list.split_whitespace().any(|w| words.contains(&w)))
        .map_or(Category::Code, |(category, _)| *category)
}

/// The agents autofix's rules reach in the repository at `root`: the readers of every
/// target exported there, and every agent whose autofix session hook is installed.
pub(crate) fn delivered_to(root: &Path) -> Vec<&'static str> {
    let facts = Facts::of(root);
    let mut agents: Vec<&'static str> = Vec::new();
    for target in targets::TARGETS
        .iter()
        .filter(|t| targets::exported(root, t))
    {
        agents.extend(targets::readers(root, target, &facts));
    }
    for agent in super::hook::Agent::ALL {
        let hooked = [true, false].into_iter().any(|local| {
            crate::io::limits::read_to_string(&root.join(agent.hooks_file(local)))
                .is_ok_and(|text| text.contains("autofix rules") && text.contains("--format hook"))
        });
        if hooked {
            agents.push(agent.reader());
        }
    }
    agents.sort_unstable();
    agents.dedup();
    agents
}

/// An active rule that a hand-written file an agent also reads already states.
#[derive(Clone, Debug)]
pub(crate) struct Twice {
    pub(crate) rule: u64,
    pub(crate) found: Found,
    /// The line says the rule in its own words (`import --move` takes such a line out); else
    /// in other words, for a person to settle.
    pub(crate) worded: bool,
    /// The agents that read both the hand-written file and autofix's rules.
    pub(crate) agents: Vec<&'static str>,
}

/// An active rule as `stated_twice` compares it: number, instruction, globs.
pub(crate) type ActiveRule<'a> = (u64, &'a str, &'a [String]);

/// The active rules of `listing` (retirement records are no rules), as compared.
pub(crate) fn active_rules(listing: &crate::rules::listing::Listing) -> Vec<ActiveRule<'_>> {
    (listing.rules.iter())
        .filter(|e| e.active && !e.retirement)
        .filter_map(|e| Some((e.number?, e.instruction, e.paths)))
        .collect()
}

/// The rules of the hand-written files here, when autofix's rules reach an agent (those
/// [`delivered_to`] finds, and `also`: the readers of an export being written): `None`
/// when there is nothing to compare, so the caller need not list its rules.
pub(crate) fn worth_comparing(
    root: &Path,
    also: &[&'static str],
) -> Option<(Reading, Vec<&'static str>)> {
    let mut agents = delivered_to(root);
    agents.extend_from_slice(also);
    if agents.is_empty() {
        return None;
    }
    let reading = read(root, None);
    (!reading.rules.is_empty()).then_some((reading, agents))
}

/// The findings for the `rules` (of the rules file shown as `rules_file`) that a
/// hand-written file of `reading` states where one of `agents` reads it; `shown` names a
/// file as the command's output does.
pub(crate) fn stated_by_hand(
    root: &Path,
    (reading, agents): &(Reading, Vec<&'static str>),
    rules_file: &str,
    rules: &[ActiveRule<'_>],
    shown: &dyn Fn(&str) -> String,
) -> Vec<Diagnostic> {
    diagnostics(
        &stated_twice(root, reading, rules, agents),
        rules_file,
        shown,
    )
}

/// Every rule of a hand-written file read by one of `agents` that states one of `rules`
/// (the same words, or the same rule in other words through the shared matcher), each with
/// the rule it repeats.
pub(crate) fn stated_twice(
    root: &Path,
    reading: &Reading,
    rules: &[ActiveRule<'_>],
    agents: &[&str],
) -> Vec<Twice> {
    let facts = Facts::of(root);
    let mut found = Vec::new();
    for file in &reading.files {
        let both: Vec<&'static str> = file
            .readers(&facts)
            .into_iter()
            .filter(|r| agents.contains(r))
            .collect();
        if both.is_empty() {
            continue;
        }
        for rule in reading.rules.iter().filter(|r| r.file == file.path) {
            if let Some(number) = repeated(rule, rules) {
                let worded = (rules.iter()).any(|(n, text, _)| {
                    *n == number && crate::rules::holds_words_of(text, &rule.instruction)
                });
                found.push(Twice {
                    rule: number,
                    worded,
                    found: rule.clone(),
                    agents: both.clone(),
                });
            }
        }
    }
    found
}

/// The findings for `twice`: each on the hand-written file's line, naming the rule and
/// the rules file it is in.
pub(crate) fn diagnostics(
    twice: &[Twice],
    rules_file: &str,
    shown: &dyn Fn(&str) -> String,
) -> Vec<Diagnostic> {
    twice
        .iter()
        .map(|twice| {
            let found = &twice.found;
            let file = shown(&found.file);
            let place = found.place().replacen(&found.file, &file, 1);
            let message = format!(
                "rule {} of {rules_file} is also written by hand in {} (\"{}\"), and {} \
                 reads both: the rule reaches the model twice",
                twice.rule,
                place,
                crate::report::text::clipped(&found.instruction, 80),
                twice.agents.join(", ")
            );
            Diagnostic::new(Code::HandwrittenDuplicate, message)
                .in_file(file)
                .at("", Some(Position::new(found.line, 0)))
                .with_help(if twice.worded {
                    "`autofix import --write --move` takes such lines out of the hand-written \
                     files; or delete the line by hand"
                } else {
                    "the line says the rule in other words, so `autofix import --move` leaves \
                     it: delete it by hand if the rule says all it says, or reword one of the two"
                })
        })
        .collect()
}

/// The active rule of the same scope that `found` states, if any.
pub(crate) fn repeated(found: &Found, rules: &[ActiveRule<'_>]) -> Option<u64> {
    let same_scope: Vec<&ActiveRule<'_>> = rules
        .iter()
        .filter(|(_, _, paths)| same_globs(paths, &found.paths))
        .collect();
    if let Some((number, _, _)) = same_scope
        .iter()
        .find(|(_, text, _)| crate::rules::same_instruction(text, &found.instruction))
    {
        return Some(*number);
    }
    crate::rules::similar::matches(
        &found.instruction,
        same_scope.iter().map(|(number, text, _)| (*number, *text)),
    )
    .into_iter()
    .find(|m| m.kind == crate::rules::similar::Kind::Duplicate)
    .map(|m| m.rule)
}

/// The same globs, in any order.
pub(crate) fn same_globs(a: &[String], b: &[String]) -> bool {
    let mut a: Vec<&str> = a.iter().map(String::as_str).collect();
    let mut b: Vec<&str> = b.iter().map(String::as_str).collect();
    a.sort_unstable();
    a.dedup();
    b.sort_unstable();
    b.dedup();
    a == b
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The format whose files `path` is one of.
    fn format_of(path: &str) -> &'static Format {
        FORMATS
            .iter()
            .find(|f| match f.place {
                Place::File(name) => name == path,
                Place::Folder { dir, suffix } => {
                    path.starts_with(&format!("{dir}/")) && path.ends_with(suffix)
                }
            })
            .unwrap()
    }

    fn rules_of(path: &str, text: &str) -> (Vec<Found>, Vec<Skipped>) {
        let file = HandFile {
            path: path.into(),
            format: format_of(path),
            text: text.into(),
            bytes: text.as_bytes().to_vec(),
        };
        let mut reading = Reading::default();
        assert!(parse(&file, &mut reading) || text.contains("autofix"));
        (reading.rules, reading.skipped)
    }

    #[test]
    fn items_and_imperative_lines_are_rules_the_rest_is_said() {
        let text = "# Project\n\nThis is a web app.\n\n- Use pnpm to install packages.\n- Testing:\n  1. Run `pnpm test` before\n     every commit.\n- [Docs](https://example.com)\n\n```sh\npnpm test\n```\n\nNever log secrets.\n@docs/style.md\n| a | b |\n";
        let (rules, skipped) = rules_of("CLAUDE.md", text);
        let texts: Vec<&str> = rules.iter().map(|r| r.instruction.as_str()).collect();
        assert_eq!(
            texts,
            [
                "Use pnpm to install packages.",
                "Run `pnpm test` before every commit.",
                "Never log secrets.",
            ]
        );
        assert_eq!((rules[1].line, rules[1].last_line), (7, 8));
        let kinds: Vec<(usize, Kind)> = skipped.iter().map(|s| (s.line, s.kind)).collect();
        assert_eq!(
            kinds,
            [
                (1, Kind::Heading),
                (3, Kind::Prose),
                (6, Kind::LeadIn),
                (9, Kind::Link),
                (11, Kind::Code),
                (16, Kind::Import),
                (17, Kind::Table),
            ]
        );
        assert_eq!(skipped[4].last_line, 13);
    }

    #[test]
    fn a_scoped_file_gives_its_globs_and_is_one_rule_without_a_list() {
        let mdc = "---\ndescription: API\nglobs: src/api/**,src/routes/**\nalwaysApply: false\n---\nValidate request bodies with zod\nin every handler.\n";
        let (rules, _) = rules_of(".cursor/rules/api.mdc", mdc);
        assert_eq!(rules.len(), 1);
        assert_eq!(
            rules[0].instruction,
            "Validate request bodies with zod in every handler."
        );
        assert_eq!(rules[0].paths, ["src/api/**", "src/routes/**"]);
        let manual = "---\nalwaysApply: false\n---\n- Use tabs.\n";
        let (rules, skipped) = rules_of(".cursor/rules/m.mdc", manual);
        assert!(rules.is_empty());
        assert_eq!(skipped[0].kind, Kind::Manual);
        let copilot =
            "---\napplyTo: \"**/*.ts,**/*.tsx\"\n---\n- Prefer interfaces.\n- Avoid enums.\n";
        let (rules, _) = rules_of(".github/instructions/ts.instructions.md", copilot);
        assert_eq!(rules.len(), 2);
        assert_eq!(rules[1].paths, ["**/*.ts", "**/*.tsx"]);
        let cline = "---\npaths:\n  - \"docs/**\"\n---\n- Write in plain English.\n";
        let (rules, _) = rules_of(".clinerules/docs.md", cline);
        assert_eq!(rules[0].paths, ["docs/**"]);
    }

    #[test]
    fn our_block_and_owned_files_are_not_rules() {
        let text = format!(
            "- Use tabs.\n\n{}\n- Never log secrets.\n{}\n",
            block::BEGIN,
            block::END
        );
        let (rules, skipped) = rules_of("AGENTS.md", &text);
        assert_eq!(rules.len(), 1);
        assert_eq!(skipped[0].kind, Kind::Autofix);
        assert_eq!((skipped[0].line, skipped[0].last_line), (3, 5));
    }

    #[test]
    fn categories_follow_the_words() {
        assert_eq!(guess_category("Always use pnpm"), Category::Tool);
        assert_eq!(
            guess_category("Squash commits before merge"),
            Category::Process
        );
        assert_eq!(guess_category("Never return null"), Category::Code);
    }
}
