//! `stale-path`: an active rule whose text names a path, file or glob that nothing in the
//! repository matches any more (`src/api/` after the folder was removed). The paths are
//! the code spans of the `Instruction` and `Why` that read as a path: with a `/`, a glob
//! character, or a file name with a common extension (`package-lock.json`); commands
//! (a space), URLs, flags, package names (`@scope/name`) and code (`f()`) are not. A path
//! matches when a file git tracks lies at or below it (read as `.gitignore` reads a glob,
//! so a bare name matches at any depth), when it exists in the work tree, or when git
//! ignores it (`.env` is named to be kept out). A `Paths` glob that matches nothing is
//! stale when the history shows it matched a file once; one that never did stays
//! `unmatched-scope`.

use std::path::Path;

use super::file::{Document, Rule};
use super::scope::Glob;
use super::supersede;
use crate::report::diagnostics::{Code, Diagnostic};
use crate::report::jsonpos;

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

/// What `stale-path` reads beyond the file: the files git tracks (relative to the
/// workspace root), which paths git ignores, and every path the history has seen; the
/// last two are asked only when some path matches nothing now.
pub(crate) struct Repository<'a> {
    pub root: &'a Path,
    pub tracked: &'a [String],
    pub ignored: &'a dyn Fn(&[&str]) -> Vec<String>,
    pub history: &'a dyn Fn(&[&str]) -> Vec<String>,
}

/// A path of an active rule that matches nothing now.
struct Missing<'a> {
    rule: Rule<'a>,
    /// The pointer's tail inside the rule: `/Instruction`, `/Paths/0`.
    field: String,
    named: String,
}

/// The `stale-path` warnings of `document`'s active rules, added to `out`. A path named in
/// the text that matches nothing is stale. A `Paths` glob that matches nothing is stale
/// when the history shows it matched a file once (the folder is gone): its
/// `unmatched-scope` warning, already in `out`, is replaced; a glob that never matched
/// anything stays `unmatched-scope` (a typo, not a change).
pub(crate) fn lint(
    path: &Path,
    document: &Document,
    repository: &Repository<'_>,
    out: &mut Vec<Diagnostic>,
) {
    let resolution = supersede::resolve(document);
    let mut missing: Vec<Missing<'_>> = Vec::new();
    // Many rules name the same few paths: each is looked up once.
    let mut known: std::collections::HashMap<String, bool> = std::collections::HashMap::new();
    let mut found_now = |named: &str| {
        *known
            .entry(named.to_string())
            .or_insert_with(|| matches_anything(named, repository.root, repository.tracked))
    };
    for rule in document.rules().filter(|r| resolution.is_active(r.index)) {
        for (field, text) in [
            ("Instruction", rule.instruction().display()),
            ("Why", rule.why().display()),
        ] {
            for named in named_paths(text) {
                if !found_now(named) {
                    missing.push(Missing {
                        rule,
                        field: format!("/{field}"),
                        named: named.to_string(),
                    });
                }
            }
        }
        for (k, glob) in rule.paths().globs().iter().enumerate() {
            let Ok(parsed) = Glob::parse(glob) else {
                continue;
            };
            if !parsed.is_negated() && !repository.tracked.iter().any(|f| parsed.matches(f)) {
                missing.push(Missing {
                    rule,
                    field: format!("/Paths/{k}"),
                    named: glob.clone(),
                });
            }
        }
    }
    if missing.is_empty() {
        return;
    }
    let asked: Vec<&str> = missing.iter().map(|m| m.named.as_str()).collect();
    let ignored = (repository.ignored)(&asked);
    let seen = (repository.history)(&asked);
    let locator = jsonpos::Locator::default();
    for found in missing {
        let bare = found.named.trim_end_matches('/');
        if ignored.iter().any(|i| i.trim_end_matches('/') == bare) {
            continue;
        }
        let before = matched_before(&found.named, &seen);
        let scope = found.field.starts_with("/Paths");
        if scope && before.is_none() {
            continue;
        }
        let pointer = format!("/{}{}", found.rule.index, found.field);
        let offset = jsonpos::find_pointer(found.rule.raw, &found.field);
        let position = offset.map(|at| locator.position(&document.source, found.rule.offset + at));
        let what = if scope { "scope glob" } else { "path" };
        let name = super::file::rule_name(&found.rule);
        let message = match before {
            Some(file) => format!(
                "{name}: {what} `{}` matches nothing in the repository any more: it matched \
                 `{file}` in an earlier commit",
                found.named
            ),
            None => format!(
                "{name}: {what} `{}` matches nothing in the repository (no file git tracks, \
                 nothing in the work tree)",
                found.named
            ),
        };
        let diagnostic = Diagnostic::new(Code::StalePath, message)
            .in_file(path)
            .at(pointer.clone(), position)
            .with_help(Code::StalePath.fix());
        out.retain(|d| !(d.code == Code::UnmatchedScope && *d.pointer == *pointer));
        out.push(diagnostic);
    }
}

/// A path of the history that `named` matches, if any.
fn matched_before<'s>(named: &str, seen: &'s [String]) -> Option<&'s str> {
    match Glob::parse(named) {
        Ok(glob) => seen.iter().find(|file| glob.matches(file)),
        Err(_) => None,
    }
    .map(String::as_str)
}

/// The paths the history of the work tree at `root` has seen (relative to it) that
/// `named` may match: one `git log --name-only` call limited to those paths, so a long
/// history costs what the commits touching them cost; none when git cannot tell.
pub(crate) fn history_paths(root: &Path, named: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = [
        "log",
        "--format=",
        "--name-only",
        "--relative",
        "-z",
        "--no-renames",
        "--",
    ]
    .iter()
    .map(ToString::to_string)
    .collect();
    for name in named {
        args.extend(pathspecs(name));
    }
    let Ok(output) = crate::io::git::Git::new(root).run(&args) else {
        return Vec::new();
    };
    let mut paths: Vec<String> = String::from_utf8_lossy(&output)
        .split(['\0', '\n'])
        .filter(|p| !p.is_empty())
        .map(str::to_string)
        .collect();
    paths.sort_unstable();
    paths.dedup();
    paths
}

/// Git pathspecs that cover what the gitignore-style `name` matches (a superset: the
/// result is matched again with [`Glob`]).
fn pathspecs(name: &str) -> Vec<String> {
    let name = name.strip_prefix('!').unwrap_or(name);
    let anchored = name.trim_start_matches('/');
    let body = anchored.trim_end_matches('/');
    let rooted = name.starts_with('/') || body.contains('/');
    let base = if rooted {
        body.to_string()
    } else {
        format!("**/{body}")
    };
    vec![format!(":(glob){base}"), format!(":(glob){base}/**")]
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
    fn pathspecs_cover_what_a_glob_matches() {
        assert_eq!(
            pathspecs("src/api/"),
            [":(glob)src/api", ":(glob)src/api/**"]
        );
        assert_eq!(
            pathspecs("package-lock.json"),
            [
                ":(glob)**/package-lock.json",
                ":(glob)**/package-lock.json/**"
            ]
        );
        assert_eq!(
            pathspecs("/docs/*.md"),
            [":(glob)docs/*.md", ":(glob)docs/*.md/**"]
        );
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
