//! The check half of `check`: `invalid-check` for a rule's `Check` that is not of the
//! shape [`super::pattern`] reads, or whose pattern cannot be compiled within its limits.
//! Called from [`super::check`].

use super::file::{CheckField, Document, rule_name};
use super::pattern::Check;
use crate::report::diagnostics::{Code, Diagnostic};
use crate::report::jsonpos;

/// The check half of `check`: `invalid-check` for a `Check` that is not of the shape or
/// whose pattern cannot be compiled within the limits. A superseded rule's problem is a
/// note, as in the rest of `check`.
pub(crate) fn lint(path: &std::path::Path, document: &Document, out: &mut Vec<Diagnostic>) {
    let mut resolution = None;
    let locator = jsonpos::Locator::default();
    for rule in document.rules() {
        let problem = match rule.check() {
            CheckField::Missing => continue,
            CheckField::Invalid(raw) => Check::from_json(raw).err(),
            CheckField::Check(check) => check.compile().err().map(|problem| {
                format!("the pattern `{}` cannot be used: {problem}", check.pattern)
            }),
        };
        let Some(problem) = problem else { continue };
        let position = jsonpos::find_pointer(rule.raw, "/Check")
            .map(|at| locator.position(&document.source, rule.offset + at));
        let diagnostic = Diagnostic::new(
            Code::InvalidCheck,
            format!("{}: {problem}", rule_name(&rule)),
        )
        .in_file(path)
        .at(format!("/{}/Check", rule.index), position)
        .with_help(Code::InvalidCheck.fix());
        let resolution = resolution.get_or_insert_with(|| super::supersede::resolve(document));
        out.push(if resolution.is_active(rule.index) {
            diagnostic
        } else {
            diagnostic.in_history()
        });
    }
}
