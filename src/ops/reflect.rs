//! The active rules as the capture side reads them (the prompt hook's repeats, `reflect`),
//! and `reflect`: the corrections in the agents' transcripts that no active rule holds.

use std::path::PathBuf;
use std::sync::Arc;

use crate::capture::reflect;
use crate::capture::repeats::ActiveRule;
use crate::export::hook::Agent;
use crate::io::workspace::Workspace;
use crate::rules::provenance::{History, Origin};
use crate::rules::{self, RulesError, listing};

/// Which transcripts to read: `reflect`'s and `ledger`'s request.
#[derive(Debug)]
pub(crate) struct Sessions {
    /// Where the agents keep their transcripts (`HOME`).
    pub home: PathBuf,
    /// Each agent once.
    pub agents: Vec<Agent>,
    /// Only messages at or after this time: `YYYY-MM-DD` or an ISO 8601 time, UTC.
    pub since: Option<String>,
}

/// The active rules of the workspace: those imported from its sources (`org:12`), then
/// its own, which win a tie (none when there is no rules file and no source). The
/// personal layer is not among them: a correction of it is the user's own business.
pub(crate) fn active_rules(workspace: &Workspace) -> Result<Vec<ActiveRule>, RulesError> {
    let path = workspace.shown_path();
    let mut active: Vec<ActiveRule> = crate::sources::layers::for_export(&workspace.root, path)
        .into_iter()
        .map(|(source, rule)| ActiveRule {
            number: rule.number,
            instruction: rule.instruction,
            source: Some(source),
            learned: None,
        })
        .collect();
    let Some(document) = rules::load(path)? else {
        return Ok(active);
    };
    let query = listing::Query::default();
    let listing = listing::build(String::new(), Some(Arc::new(document)), &query);
    active.extend(
        listing
            .rules
            .iter()
            .filter(|rule| rule.active)
            .filter_map(|rule| {
                Some(ActiveRule {
                    number: rule.number?,
                    instruction: rule.instruction.to_string(),
                    source: None,
                    learned: None,
                })
            }),
    );
    Ok(active)
}

/// `reflect`: the corrections typed in the sessions of the workspace's repository, each
/// matched against the active rules, dated by when each local rule was committed (a
/// correction typed before it is its origin).
pub(crate) fn reflect(
    workspace: &Workspace,
    sessions: Sessions,
) -> Result<reflect::Report, RulesError> {
    let mut rules = active_rules(workspace)?;
    let history = History::read(&workspace.rules_file);
    for rule in rules.iter_mut().filter(|r| r.source.is_none()) {
        if let Origin::Commit(commit) = history.origin(Some(rule.number), &rule.instruction) {
            rule.learned = Some(commit.date.clone());
        }
    }
    Ok(reflect::run(&reflect::Request {
        home: sessions.home,
        root: workspace.root.clone(),
        agents: sessions.agents,
        since: sessions.since,
        rules,
    }))
}
