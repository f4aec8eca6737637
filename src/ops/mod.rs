//! The application layer: the operations both front ends offer, each end to end, each
//! taking one typed request the CLI and the MCP server build alike. The rules listed with
//! their layers (`list`); checking the rules and loading presets (`service`), and `check
//! --dry-run`'s run of each check over the files it applies to (`dry_run`); learning a rule
//! and refreshing its exports (`learning`); retiring one (`retire`); the active rules the
//! capture side reads, and `reflect` (`reflect`); adopting the rules written by hand
//! (`import`); matching the agents' corrections to the rules (`ledger`); adding, updating,
//! removing the sources of imported rules and locking their rules (`sources`); running the
//! rules' checks over what changed (`enforce`) or on the file an agent just wrote
//! (`edit_hook`, reading each agent's payload with `tool_call`), each break they catch kept
//! on this machine for the ledger (`receipts`); the prompt hook, from the agent's input to
//! the rules near a correction and its note (`prompt_hook`, `notes`).

pub(crate) mod distinct;
pub(crate) mod dry_run;
pub(crate) mod edit_hook;
pub(crate) mod enforce;
pub(crate) mod import;
pub(crate) mod learning;
pub(crate) mod ledger;
pub(crate) mod list;
pub(crate) mod notes;
pub(crate) mod prompt_hook;
pub(crate) mod receipts;
pub(crate) mod reflect;
pub(crate) mod retire;
pub(crate) mod service;
pub(crate) mod sources;
pub(crate) mod tool_call;
