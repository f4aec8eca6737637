//! The front ends: the command line (`cli`, the clap surface; `cmd`, one file per command
//! group) and the MCP server (`mcp`), their typed inputs (`input`: serde structs that
//! refuse an unknown field by name) and the languages
//! `learn` answers in (`i18n`). Only this layer prints.

pub(crate) mod cli;
pub(crate) mod cmd;
pub(crate) mod context;
pub(crate) mod history;
pub(crate) mod i18n;
pub(crate) mod input;
pub(crate) mod mcp;
