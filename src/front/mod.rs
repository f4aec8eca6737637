//! The front ends, the only layer that prints: the command line (`cli`, the clap surface;
//! `cmd`, one file per command group) and the MCP server (`mcp`), with what both share:
//! the global options and how paths and errors are shown (`context`), the answers about a
//! rule's history (`history`), typed inputs that refuse an unknown field by name (`input`)
//! the languages `learn` answers in (`i18n`) and the environment, read once (`settings`).

pub(crate) mod cli;
pub(crate) mod cmd;
pub(crate) mod context;
pub(crate) mod history;
pub(crate) mod i18n;
pub(crate) mod input;
pub(crate) mod mcp;
pub(crate) mod settings;
