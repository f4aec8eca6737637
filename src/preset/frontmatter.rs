//! A store page's YAML frontmatter (`store-page/index.<locale>.md`): the block between the
//! first two `---` lines, checked against the published store-page-frontmatter schema
//! (<https://github.com/HagiCode-org/hagitask/tree/main/schemas/task-preset-plugin>) and
//! against its package: `slug` is the task id, `locale` the file's locale.
//!
//! Only the top level is read (`key: value` lines, the value a plain or quoted scalar);
//! lists and nested blocks under a key are skipped, which is all the schema constrains
//! beyond types this tool does not check.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::report::diagnostics::{Code, Diagnostic, Position};

const REQUIRED: [&str; 5] = ["locale", "slug", "title", "summary", "status"];
const OPTIONAL: [&str; 6] = [
    "eyebrow",
    "primaryCtaLabel",
    "secondaryCtaLabel",
    "catalog",
    "tags",
    "badges",
];
const STATUSES: [&str; 3] = ["active", "experimental", "disabled"];

/// One store page and what its frontmatter must agree with.
pub(crate) struct Page<'a> {
    pub(crate) shown: &'a Path,
    /// From the file name: `index.<locale>.md`.
    pub(crate) locale: &'a str,
    pub(crate) task_id: Option<&'a str>,
    pub(crate) supported: Option<&'a BTreeSet<String>>,
}

/// A top-level key: its 1-based line and its value.
struct Entry {
    line: usize,
    value: Scalar,
}

enum Scalar {
    /// A plain or quoted scalar on the key's line.
    Text(String),
    /// A block scalar (`|`, `>`): text on the following lines.
    Block,
    /// Nothing on the key's line: null, or a list or map below.
    Nested,
}

pub(crate) fn check(page: &Page<'_>, bytes: &[u8], diagnostics: &mut Vec<Diagnostic>) {
    let report = |line: usize, pointer: &str, message: String, help: &str| {
        Diagnostic::new(Code::InvalidStorePage, message)
            .in_file(page.shown)
            .at(pointer, Some(Position::new(line, 1)))
            .with_help(help.to_string())
    };
    let help = "start the page with `---`, then `locale`, `slug`, `title`, `summary` and `status`, then `---`";
    let Ok(text) = std::str::from_utf8(bytes) else {
        diagnostics.push(report(
            1,
            "",
            "the store page is not UTF-8 text".into(),
            help,
        ));
        return;
    };
    let entries = match parse(text) {
        Ok(entries) => entries,
        Err((line, message)) => {
            diagnostics.push(report(line, "", message, help));
            return;
        }
    };
    for key in REQUIRED.iter().filter(|k| !entries.contains_key(**k)) {
        diagnostics.push(report(
            1,
            "",
            format!("the frontmatter has no `{key}`"),
            help,
        ));
    }
    for (key, entry) in &entries {
        let pointer = format!("/{key}");
        if !REQUIRED.contains(&key.as_str()) && !OPTIONAL.contains(&key.as_str()) {
            let message = format!("the frontmatter has an unknown key `{key}`");
            let help = "remove it; the store page schema allows `locale`, `slug`, `title`, \
                        `summary`, `status`, `eyebrow`, `primaryCtaLabel`, `secondaryCtaLabel`, \
                        `catalog`, `tags` and `badges`";
            diagnostics.push(report(entry.line, &pointer, message, help));
        }
        if REQUIRED.contains(&key.as_str()) && matches!(entry.value, Scalar::Nested) {
            let message = format!("`{key}` must be a single line of text");
            diagnostics.push(report(entry.line, &pointer, message, help));
        }
    }
    let value = |key: &str| {
        let entry = entries.get(key)?;
        match &entry.value {
            Scalar::Text(text) => Some((entry.line, text.as_str())),
            Scalar::Block | Scalar::Nested => None,
        }
    };
    if let Some((line, locale)) = value("locale")
        && locale != page.locale
    {
        let message = format!(
            "`locale` is `{locale}` but the file is the `{}` page",
            page.locale
        );
        let help = format!("set `locale: {}`", page.locale);
        diagnostics.push(report(line, "/locale", message, &help));
    }
    if let Some(supported) = page.supported
        && !supported.contains(page.locale)
    {
        let message = format!(
            "store page locale `{}` is not in the manifest's `supportedLocales`",
            page.locale
        );
        let help = "add the locale to `localization.supportedLocales`, or delete the page";
        diagnostics.push(report(1, "", message, help));
    }
    if let Some((line, slug)) = value("slug")
        && let Some(id) = page.task_id
        && slug != id
    {
        let message = format!("`slug` is `{slug}` but the task id is `{id}`");
        diagnostics.push(report(line, "/slug", message, &format!("set `slug: {id}`")));
    }
    if let Some((line, status)) = value("status")
        && !STATUSES.contains(&status)
    {
        let message = format!("`status` is `{status}`, not `active`, `experimental` or `disabled`");
        let help = "use `active`, `experimental` or `disabled` (as in the manifest)";
        diagnostics.push(report(line, "/status", message, help));
    }
}

/// The top-level keys of the frontmatter, or where and why there is none.
fn parse(text: &str) -> Result<BTreeMap<String, Entry>, (usize, String)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim_end()));
    if lines.next().map(|(_, l)| l) != Some("---") {
        return Err((
            1,
            "the store page does not start with a `---` frontmatter line".into(),
        ));
    }
    let mut entries = BTreeMap::new();
    for (line, content) in lines {
        if content == "---" || content == "..." {
            return Ok(entries);
        }
        let starts_plain = content
            .chars()
            .next()
            .is_some_and(|c| !c.is_whitespace() && c != '#' && c != '-');
        let Some((key, value)) = content.split_once(':').filter(|_| starts_plain) else {
            continue;
        };
        let key = unquote(key.trim()).to_string();
        if entries.contains_key(&key) {
            return Err((line, format!("the frontmatter repeats `{key}`")));
        }
        entries.insert(
            key,
            Entry {
                line,
                value: scalar(value.trim()),
            },
        );
    }
    Err((1, "the frontmatter has no closing `---` line".into()))
}

fn scalar(value: &str) -> Scalar {
    if value.is_empty() || value.starts_with('#') {
        return Scalar::Nested;
    }
    if value.starts_with('|') || value.starts_with('>') {
        return Scalar::Block;
    }
    if value.starts_with('"') || value.starts_with('\'') {
        return Scalar::Text(unquote(value).to_string());
    }
    // A plain scalar ends at a comment.
    let value = value.split(" #").next().unwrap_or(value).trim_end();
    Scalar::Text(value.to_string())
}

fn unquote(text: &str) -> &str {
    for quote in ['"', '\''] {
        if let Some(inner) = text.strip_prefix(quote).and_then(|t| t.strip_suffix(quote)) {
            return inner;
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_top_level_scalars() {
        let entries =
            parse("---\nlocale: en-US\nslug: 'x'\ntags:\n  - a\nsummary: >\n  long\n---\nbody\n")
                .unwrap();
        let text = |key: &str| match &entries[key].value {
            Scalar::Text(text) => Some(text.clone()),
            Scalar::Block | Scalar::Nested => None,
        };
        assert_eq!(text("locale").as_deref(), Some("en-US"));
        assert_eq!(text("slug").as_deref(), Some("x"));
        assert_eq!(entries["slug"].line, 3);
        assert!(matches!(entries["tags"].value, Scalar::Nested));
        assert!(matches!(entries["summary"].value, Scalar::Block));
        assert!(!entries.contains_key("  - a"));
    }

    #[test]
    fn refuses_a_page_without_frontmatter() {
        assert!(parse("# Title\n").is_err());
        assert!(parse("---\nlocale: en-US\n").is_err());
        assert!(parse("---\na: 1\na: 2\n---\n").is_err());
    }
}
