//! `distinct`: two near rules that both hold, recorded so by a record appended through
//! `learn`'s locked splice; `check` notes the pair no more.

use anyhow::Context as _;

use crate::io::workspace::Workspace;
use crate::ops::learning::{self, AfterLearning, Learned};
use crate::rules::{self, distinct, learn};

/// The two rules, as the CLI hands them over.
#[derive(Debug)]
pub(crate) struct Request {
    pub rules: [u64; 2],
    /// How the two differ (kept in the record).
    pub why: String,
    /// Show the record that would be appended; write nothing.
    pub dry_run: bool,
}

/// Records `request.rules` as distinct. Nothing any agent reads changes, so nothing is
/// exported.
pub(crate) fn record(workspace: &Workspace, request: &Request) -> anyhow::Result<Learned> {
    let [a, b] = request.rules;
    let path = &workspace.shown;
    let document = rules::load(workspace.shown_path())?
        .with_context(|| format!("no rules file yet ({path}), so no rule {a}"))?;
    let rule = distinct::request(workspace, &document, a, b, &request.why)?;
    let options = learn::Options {
        dry_run: request.dry_run,
        lock_timeout: crate::io::lock::timeout()?,
    };
    Ok(learning::learn(
        workspace,
        &rule,
        &options,
        AfterLearning::Skip,
    )?)
}
