//! `autofix`: a self-correcting rules memory for coding agents, and a checker and renderer
//! for preset tasks.
//!
//! This crate is the `autofix` binary's library. Its public surface is small on purpose:
//! [`run`] (the whole command line), [`Code`] (the diagnostic codes, which the tests hold to
//! their reference page) and [`docs`] (the reference pages); `fuzz`, hidden, holds what the
//! fuzz targets run. Everything else is private, so the compiler reports what nothing uses.
//!
//! Inside, the layers are (see [`docs::architecture`] for who may call whom):
//! - the front ends: `cli` (the clap surface), `cmd` (one file per command group: convert
//!   arguments, call the library, print), `mcp` (the same operations as MCP tools),
//!   `input` (their typed inputs: serde structs that refuse an unknown field by name),
//!   and `i18n` (the languages they say `learn`'s outcomes in);
//! - the services they share: `service` (list, check, load presets) and `learning` (learn
//!   the rule, then refresh the exported copies);
//! - the two halves: `rules` (read, precedence, lint, append to `autofix.json`) and
//!   `preset` (load flat and HagiTask presets, validate, render, check requirements);
//! - around them: `export`, `hook` and `init` (put the rules where agents read them),
//!   `merge` (the merge drivers, `resolve`, `doctor`), `capture` (notice corrections),
//!   `sarif` and `explain` (diagnostics for code scanning and for people);
//! - shared pieces: `safe_write` (the one write path, over `atomic` and `lock`), `git` (the
//!   one place that runs git), `workspace` (discovery), `diagnostics`, `jsonpos`, `paint`,
//!   `limits`, `text`.
//!
//! Only the front ends print; every renderer below them returns a value or a `String`.
#![warn(clippy::print_stdout, clippy::print_stderr)]

mod atomic;
mod capture;
mod cli;
mod cmd;
mod diagnostics;
pub mod docs;
mod explain;
mod export;
#[doc(hidden)]
pub mod fuzz;
mod git;
mod hook;
mod i18n;
mod init;
mod input;
mod jsonpos;
mod learning;
mod ledger;
mod limits;
mod lock;
mod mcp;
mod merge;
mod paint;
mod preset;
mod rules;
mod safe_write;
mod sarif;
mod service;
mod sources;
mod text;
mod workspace;

pub use diagnostics::Code;

/// Runs the `autofix` command line of this process and returns its exit status.
pub fn run() -> std::process::ExitCode {
    cmd::run()
}
