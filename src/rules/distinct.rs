//! Recording that two near rules are distinct: an appended record, like a retirement
//! ([`super::retire`]), never an edit. The record is an ordinary rule object carrying
//! `"Distinct": [A, B]`, which makes it no rule of its own (it is not listed, exported or
//! linted as one) and silences the `near-rules` note on that pair for good. It merges as
//! any rule does: the merge driver renumbers its pair with the rest. The format is in
//! `src/docs/rules.md`.

use std::collections::HashSet;

use super::file::{self, Document};
use super::learn;
use super::supersede;
use crate::io::workspace::Workspace;

/// Why two rules cannot be recorded as distinct.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Refusal {
    #[error("no rule {0} in {1}")]
    Missing(u64, String),
    #[error(
        "rule {0} is not active (superseded by {1}); only active rules can be recorded as distinct"
    )]
    NotActive(u64, String),
    #[error("rule {0} is a record, not a rule")]
    Record(u64),
    #[error("a rule is never distinct from itself: name two rules")]
    Same,
    #[error("the reason is empty; say how rules {0} and {1} differ (--why)")]
    NoReason(u64, u64),
    #[error("rules {0} and {1} are already recorded as distinct")]
    Already(u64, u64),
}

/// Every pair of rules `document` records as distinct, smaller number first.
pub(crate) fn pairs(document: &Document) -> HashSet<(u64, u64)> {
    document
        .rules()
        .filter_map(|rule| file::distinct_pair(&rule))
        .collect()
}

/// The learn request that records rules `a` and `b` of `document` (the rules file of
/// `workspace`) as distinct because `reason`, or why it cannot. Learned through the one
/// locked splice ([`learn::learn`]), which checks again under the lock that both are active.
pub(crate) fn request(
    workspace: &Workspace,
    document: &Document,
    a: u64,
    b: u64,
    reason: &str,
) -> Result<learn::Request, Refusal> {
    if a == b {
        return Err(Refusal::Same);
    }
    let reason = reason.trim();
    if reason.is_empty() {
        return Err(Refusal::NoReason(a, b));
    }
    let resolution = supersede::resolve(document);
    for number in [a, b] {
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
    }
    let (a, b) = (a.min(b), a.max(b));
    if pairs(document).contains(&(a, b)) {
        return Err(Refusal::Already(a, b));
    }
    let because = super::retire::because(reason);
    Ok(learn::Request {
        category: "OTHER".to_string(),
        // The pair is named in `Distinct` alone, which a merge renumbers.
        instruction: format!("Keep both near rules - because {because}."),
        why: format!("distinct: {reason}"),
        // A record repeats nothing: it is no rule an agent follows.
        force: true,
        distinct: Some([a, b]),
        ..learn::Request::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::file::parse_str as parse;

    #[test]
    fn a_record_names_its_pair_and_nothing_else_does() {
        let document = parse(
            r#"[{"Rule_number": 1, "Distinct": [7, 3]}, {"Rule_number": 2, "Distinct": [3, 3]},
                {"Rule_number": 3, "Distinct": "3 and 7"}, {"Rule_number": 4, "Why": "\"Distinct\""}]"#,
        )
        .unwrap();
        let found: Vec<Option<(u64, u64)>> =
            document.rules().map(|r| file::distinct_pair(&r)).collect();
        assert_eq!(found, [Some((3, 7)), None, None, None]);
        assert_eq!(pairs(&document), HashSet::from([(3, 7)]));
    }
}
