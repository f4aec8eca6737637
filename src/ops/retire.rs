//! `retire`: a rule that no longer holds, retired by a record appended through `learn`'s
//! locked splice, then the exported copies refreshed.

use anyhow::Context as _;

use crate::io::workspace::Workspace;
use crate::ops::learning::{self, AfterLearning, Learned};
use crate::rules::reference::RuleRef;
use crate::rules::{self, learn, retire};

/// What to retire, as the CLI and the MCP tool hand it over.
#[derive(Debug)]
pub(crate) struct Request {
    /// `5`, or an imported rule `org:5`.
    pub rule: RuleRef,
    /// Why it no longer holds (kept in the record).
    pub why: String,
    /// Show the record that would be appended; write nothing.
    pub dry_run: bool,
    pub after: AfterLearning,
}

/// Retires `request.rule`: a local rule's record supersedes it; an imported one's
/// (`org:5`) carries `(supersedes org:5)`, refused for a locked rule as `learn` refuses it.
pub(crate) fn retire(workspace: &Workspace, request: &Request) -> anyhow::Result<Learned> {
    let why = &request.why;
    let rule = match &request.rule {
        RuleRef::Local(number) => {
            let path = &workspace.shown;
            let document = rules::load(workspace.shown_path())?
                .with_context(|| format!("no rules file yet ({path}), so no rule {number}"))?;
            retire::request(workspace, &document, *number, why)?
        }
        RuleRef::Imported { source, number } => {
            crate::sources::layers::retirement(workspace, source, *number, why)?
                .map_err(anyhow::Error::msg)?
        }
    };
    let options = learn::Options {
        dry_run: request.dry_run,
        lock_timeout: crate::io::lock::timeout()?,
    };
    Ok(learning::learn(workspace, &rule, &options, request.after)?)
}
