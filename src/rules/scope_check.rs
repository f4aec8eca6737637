//! The scope half of `check`: `invalid-glob` (a `Paths` glob that cannot be read, or a
//! scope that only excludes) and `unmatched-scope` (a glob that matches no file git
//! tracks, so it adds nothing, or the rule never applies). Called from [`super::check`].

use std::path::Path;

use super::file::rule_name;
use super::file::{Document, Paths, Rule};
use super::scope::{Glob, GlobProblem};
use super::supersede;
use crate::report::diagnostics::{Code, Diagnostic, Position};
use crate::report::jsonpos;

/// The scope diagnostics of `document`; `tracked` (see [`crate::io::git::Git::tracked_files`]) enables
/// `unmatched-scope`. A superseded rule's problem is a note, as in the rest of `check`.
pub(crate) fn lint(
    path: &Path,
    document: &Document,
    tracked: Option<&[String]>,
    out: &mut Vec<Diagnostic>,
) {
    let resolution = supersede::resolve(document);
    // One line index for every position: a scope problem in each of 20k rules took 27 s
    // when each position counted lines from the file's start.
    let locator = jsonpos::Locator::default();
    for rule in document.rules() {
        let mut found = Vec::new();
        match &rule.paths() {
            Paths::Missing => continue,
            Paths::Invalid(raw) => found.push((
                String::new(),
                Code::InvalidField,
                format!(
                    "{}: `Paths` is {}, not an array of glob strings",
                    rule_name(&rule),
                    crate::report::text::JsonKind::of_raw(raw).name()
                ),
            )),
            Paths::Globs(globs) => lint_rule(&rule, globs, tracked, &mut found),
        }
        for (pointer_tail, code, message) in found {
            let pointer = format!("/{}/Paths{pointer_tail}", rule.index);
            let offset = jsonpos::find_pointer(rule.raw, &format!("/Paths{pointer_tail}"));
            let position: Option<Position> =
                offset.map(|at| locator.position(&document.source, rule.offset + at));
            let diagnostic = Diagnostic::new(code, message)
                .in_file(path)
                .at(pointer, position)
                .with_help(code.fix());
            out.push(if resolution.is_active(rule.index) {
                diagnostic
            } else {
                diagnostic.in_history()
            });
        }
    }
}

type Found = (String, Code, String);

fn lint_rule(rule: &Rule<'_>, globs: &[String], tracked: Option<&[String]>, out: &mut Vec<Found>) {
    let name = rule_name(rule);
    let mut parsed: Vec<(usize, Glob)> = Vec::new();
    for (k, text) in globs.iter().enumerate() {
        match Glob::parse(text) {
            Ok(glob) => parsed.push((k, glob)),
            Err(error) => out.push((
                format!("/{k}"),
                Code::InvalidGlob,
                format!("{name}: glob {error}"),
            )),
        }
    }
    if !parsed.is_empty() && parsed.iter().all(|(_, g)| g.is_negated()) {
        let problem = GlobProblem::OnlyExcludes;
        out.push((
            String::new(),
            Code::InvalidGlob,
            format!("{name}: the scope {problem}, so the rule applies nowhere"),
        ));
        return;
    }
    let Some(files) = tracked else {
        return;
    };
    // The last glob that matches decides, as in `scope::matching`; the globs are parsed once.
    let applies = |file: &str| {
        parsed
            .iter()
            .rev()
            .find(|(_, glob)| glob.matches(file))
            .is_some_and(|(_, glob)| !glob.is_negated())
    };
    let applies_somewhere = files.iter().any(|f| applies(f));
    for (k, glob) in parsed.iter().filter(|(_, g)| !g.is_negated()) {
        if files.iter().any(|f| glob.matches(f)) {
            continue;
        }
        let consequence = if applies_somewhere {
            "so it adds nothing to the rule's scope"
        } else {
            "so the rule never applies"
        };
        out.push((
            format!("/{k}"),
            Code::UnmatchedScope,
            format!(
                "{name}: glob `{}` matches no file git tracks, {consequence}",
                glob.as_str()
            ),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::file::parse_str as parse;

    fn codes(source: &str, tracked: Option<&[String]>) -> Vec<(Code, String, String)> {
        let document = parse(source).unwrap();
        let mut out = Vec::new();
        lint(Path::new("r.json"), &document, tracked, &mut out);
        out.into_iter()
            .map(|d| (d.code, d.pointer.into_string(), d.message.into_string()))
            .collect()
    }

    #[test]
    fn bad_globs_and_unmatched_ones_are_found() {
        let source = r#"[{"Rule_number": 1, "Paths": ["src/**", "[x", "docs/*.md"]},
            {"Rule_number": 2, "Paths": ["!a"]},
            {"Rule_number": 3, "Paths": ["nothing/**"]},
            {"Rule_number": 4},
            {"Rule_number": 5, "Paths": "src"}]"#;
        let files = vec!["src/main.rs".to_string(), "README.md".to_string()];
        let found = codes(source, Some(&files));
        assert_eq!(found.len(), 5, "{found:?}");
        assert_eq!(
            (found[4].0, found[4].1.as_str()),
            (Code::InvalidField, "/4/Paths")
        );
        assert_eq!(
            (found[0].0, found[0].1.as_str()),
            (Code::InvalidGlob, "/0/Paths/1")
        );
        assert_eq!(
            (found[1].0, found[1].1.as_str()),
            (Code::UnmatchedScope, "/0/Paths/2")
        );
        assert!(found[1].2.ends_with("adds nothing to the rule's scope"));
        assert_eq!(
            (found[2].0, found[2].1.as_str()),
            (Code::InvalidGlob, "/1/Paths")
        );
        assert_eq!(
            (found[3].0, found[3].1.as_str()),
            (Code::UnmatchedScope, "/2/Paths/0")
        );
        assert!(found[3].2.ends_with("so the rule never applies"));
        assert_eq!(codes(source, None).len(), 3);
    }
}
