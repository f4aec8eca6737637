//! `autofix`: a self-correcting rules memory for coding agents, and a checker and renderer
//! for preset tasks.
//!
//! This crate is the `autofix` binary's library. Its public surface is small on purpose:
//! [`run`] (the whole command line), [`Code`] (the diagnostic codes, which the tests hold to
//! their reference page) and [`docs`] (the reference pages); `fuzz`, hidden, holds what the
//! fuzz targets run. Everything else is private, so the compiler reports what nothing uses.
//!
//! Inside, the folders are the layers, top to bottom (see [`docs::architecture`] for who
//! may call whom; a test holds the imports to it):
//! - `front`: the command line (`cli`, `cmd`), the MCP server (`mcp`) and the languages
//!   `learn` answers in (`i18n`);
//! - `render`: every report as text, JSON and GitHub commands, behind one trait;
//! - `ops`: the operations both front ends offer (`service`, `learning`, `ledger`);
//! - the domains: `merge`, `init`, `capture`, `export`, `sources` over `rules`, and
//!   `preset` beside them;
//! - `meaning`: which rules a text comes near, by the sentence model compiled in;
//! - `text`: one way to read text for every reader of it (sentences, words, cue phrases,
//!   the linear scorer and its trainer);
//! - `report`: diagnostics and their renderers, positions in JSON, color, counted nouns;
//! - `io`: the one write path (`safe_write` over `atomic` and `lock`), discovery
//!   (`workspace`), the one place that runs git, and the size limits of every read.
//!
//! Only the front ends print; every renderer below them returns a value or a `String`.
#![warn(clippy::print_stdout, clippy::print_stderr)]

mod capture;
pub mod docs;
mod export;
mod front;
#[doc(hidden)]
pub mod fuzz;
mod init;
mod io;
mod meaning;
mod merge;
mod ops;
mod preset;
mod render;
mod report;
mod rules;
mod sources;
mod text;

pub use report::diagnostics::Code;

pub fn run() -> std::process::ExitCode {
    front::cmd::run()
}
