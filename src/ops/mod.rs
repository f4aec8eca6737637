//! The operations both front ends offer, each end to end: listing and checking the rules
//! and loading presets (`service`), learning a rule and refreshing its exports
//! (`learning`), adopting the rules written by hand (`import`), matching the agents' corrections to the rules (`ledger`), and running the rules' checks over
//! what changed (`enforce`) or on the file an agent just wrote (`edit_hook`, reading each
//! agent's payload with `tool_call`).

pub(crate) mod edit_hook;
pub(crate) mod enforce;
pub(crate) mod import;
pub(crate) mod learning;
pub(crate) mod ledger;
pub(crate) mod service;
pub(crate) mod tool_call;
