//! Retiring a rule without a replacement: an appended record, never a deletion. The record
//! is an ordinary rule object that supersedes the retired rule (a `(supersedes rule N)`
//! marker in its `Why`, so every reader, old versions included, stops listing rule N) and
//! carries `"Retirement": true`, which makes the record itself inactive: it is not listed,
//! exported or linted as a rule. The format is in `src/docs/rules.md`.

use super::file::Document;
use super::learn;
use super::supersede;
use crate::io::workspace::Workspace;

/// Why a rule cannot be retired.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Refusal {
    #[error("no rule {0} in {1}")]
    Missing(u64, String),
    #[error("rule {0} is already superseded (by {1}); only an active rule can be retired")]
    NotActive(u64, String),
    #[error("rule {0} is a record (a retirement, or two rules distinct), not a rule")]
    Record(u64),
    #[error("the reason is empty; say why rule {0} no longer holds (--why)")]
    NoReason(u64),
}

/// The learn request that retires rule `number` of `document` (the rules file of
/// `workspace`) for `reason`, or why it cannot be retired. The record is learned through the one locked splice
/// ([`learn::learn`]), which checks again under the lock that the rule exists.
pub(crate) fn request(
    workspace: &Workspace,
    document: &Document,
    number: u64,
    reason: &str,
) -> Result<learn::Request, Refusal> {
    let reason = reason.trim();
    if reason.is_empty() {
        return Err(Refusal::NoReason(number));
    }
    let resolution = supersede::resolve(document);
    match supersede::inactive(document, &resolution, number) {
        None => {}
        Some(supersede::Inactive::Missing) => {
            return Err(Refusal::Missing(number, workspace.shown.clone()));
        }
        Some(supersede::Inactive::Record) => return Err(Refusal::Record(number)),
        Some(supersede::Inactive::SupersededBy(by)) => {
            return Err(Refusal::NotActive(number, by));
        }
    }
    let because = because(reason);
    Ok(learn::Request {
        category: "OTHER".to_string(),
        instruction: format!("Stop following rule {number} - because {because}."),
        why: format!("retired: {reason}"),
        supersedes: vec![number],
        // A retirement repeats nothing: it is no rule an agent follows.
        force: true,
        paths: Vec::new(),
        check: None,
        retirement: true,
        distinct: None,
    })
}

/// A record's reason as it follows "- because" in its instruction.
pub(crate) fn because(reason: &str) -> &str {
    reason
        .trim_end_matches('.')
        .trim_start_matches("because ")
        .trim()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::file::parse_str as parse;

    /// A workspace whose rules file is shown as `f`.
    fn in_f() -> Workspace {
        Workspace::new(
            ".".into(),
            "f".into(),
            crate::io::workspace::Source::FileFlag,
            Vec::new(),
            std::path::Path::new("/"),
        )
    }

    #[test]
    fn a_record_is_known_by_its_top_level_field() {
        let document = parse(
            r#"[{"Rule_number": 1, "Retirement": true},
                {"Rule_number": 2, "Retirement": false},
                {"Rule_number": 3, "Note": {"Retirement": true}},
                {"Rule_number": 4, "Why": "\"Retirement\": true"}]"#,
        )
        .unwrap();
        let found: Vec<bool> = document
            .rules()
            .map(|rule| crate::rules::file::is_retirement(&rule))
            .collect();
        assert_eq!(found, [true, false, false, false]);
    }

    #[test]
    fn the_splice_refuses_under_the_lock_a_rule_retired_meanwhile() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("autofix.json");
        let source = r#"[{"Rule_number": 1, "Category": "CODE", "Instruction": "Use a.", "Why": "x"},
 {"Rule_number": 2, "Category": "OTHER", "Instruction": "Stop following rule 1.", "Why": "retired: gone (supersedes rule 1)", "Retirement": true}]
"#;
        std::fs::write(&path, source).unwrap();
        // As a second `retire` would ask, having read the file before the first one wrote.
        let document =
            parse(r#"[{"Rule_number": 1, "Instruction": "Use a.", "Why": "x"}]"#).unwrap();
        let made = request(&in_f(), &document, 1, "gone too").unwrap();
        let options = learn::Options {
            dry_run: false,
            lock_timeout: std::time::Duration::from_secs(1),
        };
        let refused = learn::learn(&path, &made, &options).unwrap_err();
        assert!(matches!(
            refused,
            crate::rules::RulesError::NotRetirable { number: 1, .. }
        ));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), source);
    }

    #[test]
    fn only_an_active_rule_with_a_reason_is_retired() {
        let document = parse(
            r#"[{"Rule_number": 1, "Instruction": "a", "Why": "x"},
                {"Rule_number": 2, "Instruction": "b", "Why": "supersedes rule 1"},
                {"Rule_number": 3, "Instruction": "c", "Why": "x", "Retirement": true}]"#,
        )
        .unwrap();
        assert!(matches!(
            request(&in_f(), &document, 1, "gone"),
            Err(Refusal::NotActive(1, _))
        ));
        assert!(matches!(
            request(&in_f(), &document, 3, "gone"),
            Err(Refusal::Record(3))
        ));
        assert!(matches!(
            request(&in_f(), &document, 9, "gone"),
            Err(Refusal::Missing(9, _))
        ));
        assert!(matches!(
            request(&in_f(), &document, 2, "  "),
            Err(Refusal::NoReason(2))
        ));
        let made = request(&in_f(), &document, 2, "because the folder is gone.").unwrap();
        assert_eq!(
            made.instruction,
            "Stop following rule 2 - because the folder is gone."
        );
        assert_eq!(made.supersedes, [2]);
        assert!(made.retirement);
    }
}
