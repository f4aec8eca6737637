//! `stale-path`: an active rule whose text names a path, file or glob that nothing in the
//! repository matches any more (`src/api/` after the folder was removed). The paths are
//! the code spans of the `Instruction` and `Why` that read as a path: with a `/`, a glob
//! character, or a file name with a common extension (`package-lock.json`); commands
//! (a space), URLs, flags, package names (`@scope/name`) and code (`f()`) are not. A path
//! matches when a file git tracks lies at or below it (read as `.gitignore` reads a glob,
//! so a bare name matches at any depth), when it exists in the work tree, or when git
//! ignores it (`.env` is named to be kept out). A rule's `Paths` are `unmatched-scope`'s.

use std::path::Path;

use super::file::{Document, Rule};
use super::scope::Glob;
use super::supersede;
use crate::diagnostics::{Code, Diagnostic};
use crate::jsonpos;

/// File extensions a name must end in to be read as a file without a `/`.
const EXTENSIONS: [&str; 34] = [
    "json", "jsonc", "md", "mdx", "rs", "ts", "tsx", "js", "jsx", "mjs", "cjs", "py", "toml",
    "yaml", "yml", "lock", "sql", "sh", "go", "java", "kt", "rb", "css", "scss", "html", "txt",
    "cfg", "ini", "xml", "proto", "c", "h", "cpp", "swift",
];

/// The paths named in `text`'s code spans, in order, without repeats.
pub(crate) fn named_paths(text: &str) -> Vec<&str> {
    let mut found: Vec<&str> = Vec::new();
    let mut spans = text.split('`');
    // Odd pieces are inside backticks; an unclosed span is not one.
    let pieces: Vec<&str> = spans.by_ref().collect();
    let closed = if pieces.len().is_multiple_of(2) {
        pieces.len() - 1
    } else {
        pieces.len()
    };
    for span in pieces[..closed].iter().skip(1).step_by(2) {
        let span = span.trim();
        if is_path(span) && !found.contains(&span) {
            found.push(span);
        }
    }
    found
}

fn is_path(span: &str) -> bool {
    let code = |c: char| c.is_whitespace() || "()=<>$,;'\"{}|&@:^%+".contains(c);
    if span.is_empty()
        || span.len() > 200
        || span.chars().any(code)
        || span.starts_with(['-', '/', '~', '#'])
        || span.split('/').any(|part| part == "..")
    {
        return false;
    }
    if span.contains('/') || span.contains('*') {
        return span.chars().any(char::is_alphanumeric) || span.contains("**");
    }
    let name = span.trim_start_matches('.');
    match name.rsplit_once('.') {
        Some((stem, extension)) => !stem.is_empty() && EXTENSIONS.contains(&extension),
        None => false,
    }
}

/// The `stale-path` warnings of `document`'s active rules. `tracked` are the files git
/// tracks, relative to `root`, the workspace root; `ignored` answers which paths git
/// ignores (asked once, for every path not found otherwise).
pub(crate) fn lint(
    path: &Path,
    document: &Document<'_>,
    root: &Path,
    tracked: &[String],
    ignored: &dyn Fn(&[&str]) -> Vec<String>,
    out: &mut Vec<Diagnostic>,
) {
    let resolution = supersede::resolve(document);
    let mut missing: Vec<(&Rule<'_>, &'static str, &str)> = Vec::new();
    for rule in &document.rules {
        if !resolution.is_active(rule.index) {
            continue;
        }
        for (field, text) in [
            ("Instruction", rule.instruction.display()),
            ("Why", rule.why.display()),
        ] {
            for named in named_paths(text) {
                if !matches_anything(named, root, tracked) {
                    missing.push((rule, field, named));
                }
            }
        }
    }
    if missing.is_empty() {
        return;
    }
    let asked: Vec<&str> = missing.iter().map(|(_, _, named)| *named).collect();
    let ignored = ignored(&asked);
    let locator = jsonpos::Locator::default();
    for (rule, field, named) in missing {
        let bare = named.trim_end_matches('/');
        if ignored.iter().any(|i| i.trim_end_matches('/') == bare) {
            continue;
        }
        let offset = jsonpos::find_pointer(rule.raw, &format!("/{field}"));
        let position = offset.map(|at| locator.position(document.source, rule.offset + at));
        out.push(
            Diagnostic::new(
                Code::StalePath,
                format!(
                    "{}: `{named}` matches nothing in the repository (no file git tracks, \
                     nothing in the work tree)",
                    super::check::rule_name(rule)
                ),
            )
            .in_file(path)
            .at(format!("/{}/{field}", rule.index), position)
            .with_help(Code::StalePath.fix()),
        );
    }
}

/// Whether `named` matches a tracked file, or exists in the work tree.
fn matches_anything(named: &str, root: &Path, tracked: &[String]) -> bool {
    let glob_chars = named.contains(['*', '?', '[']);
    if !glob_chars && root.join(named).symlink_metadata().is_ok() {
        return true;
    }
    let Ok(glob) = Glob::parse(named) else {
        // Not readable as a glob: compared as a plain prefix.
        let bare = named.trim_end_matches('/');
        return tracked
            .iter()
            .any(|file| file == bare || file.starts_with(&format!("{bare}/")));
    };
    tracked.iter().any(|file| glob.matches(file))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_spans_that_read_as_paths() {
        assert_eq!(
            named_paths(
                "Keep `src/api/` and `docs/*.md` and `package-lock.json`; run `cargo fmt`, \
                 see `https://x.y/z`, use `@types/node`, call `f(x)`, pass `--fix`, \
                 use `console.log`, read `.env` and `~/.config/x`, `../up/x`, `unclosed"
            ),
            ["src/api/", "docs/*.md", "package-lock.json"]
        );
        assert_eq!(
            named_paths("`.eslintrc.json` `.env.local` `a.rs` `a.rs`"),
            [".eslintrc.json", "a.rs"]
        );
        assert!(named_paths("no spans at all / here").is_empty());
    }

    #[test]
    fn a_path_matches_files_below_it_at_any_depth_or_on_disk() {
        let tracked = vec![
            "src/api/users.rs".to_string(),
            "web/package-lock.json".to_string(),
        ];
        let root = Path::new("/nonexistent-autofix-root");
        assert!(matches_anything("src/api/", root, &tracked));
        assert!(matches_anything("src/api", root, &tracked));
        assert!(matches_anything("src/**/*.rs", root, &tracked));
        assert!(matches_anything("package-lock.json", root, &tracked));
        assert!(!matches_anything("src/web/", root, &tracked));
        assert!(!matches_anything("*.sql", root, &tracked));
    }
}
