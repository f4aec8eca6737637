//! `autofix`: a self-correcting rules memory for coding agents, and a checker and renderer
//! for preset tasks.
//!
//! The two halves:
//! - [`rules`]: locate, parse, resolve precedence, lint and append to `autofix.json`
//!   (with [`lock`] for the sidecar lock and [`workspace`] for discovery);
//! - [`preset`]: load flat and HagiTask presets, validate, render, check requirements.
//!
//! Around them:
//! - [`export`], [`hook`] and [`init`]: put the active rules where agents read them, and set
//!   a repository up;
//! - [`service`] and [`learning`]: the operations the CLI and the MCP server share (list,
//!   check, load presets; learn the rule, then refresh the exported copies);
//! - [`merge`]: the merge drivers for rules files and exported copies, `resolve` and
//!   `doctor`, over [`git`], the one place that runs git;
//! - [`capture`]: notice corrections in prompts and in local transcripts;
//! - [`sarif`] and [`explain`]: diagnostics for code scanning and for people.
//!
//! Shared pieces: [`atomic`] (crash-safe file replacement), [`jsonpos`] (positions in JSON
//! text), [`paint`] (terminal color), [`i18n`] (the languages `learn` answers in),
//! [`safe_write`] (the one write path), [`text`] (counted nouns, suggestions). Both halves
//! report problems as [`diagnostics`] values. Nothing in the library prints: every
//! renderer returns a `String` or writes to an `impl Write`, so the CLI and the MCP server
//! (in the binary) decide where it goes.
//!
//! The reference pages that the README links are rendered here as [`docs`].
#![warn(clippy::print_stdout, clippy::print_stderr)]

pub mod atomic;
pub mod capture;
pub mod diagnostics;
pub mod docs;
pub mod explain;
pub mod export;
pub mod git;
pub mod hook;
pub mod i18n;
pub mod init;
pub mod jsonpos;
pub mod learning;
pub mod limits;
pub mod lock;
pub mod merge;
pub mod paint;
pub mod preset;
pub mod rules;
pub mod safe_write;
pub mod sarif;
pub mod service;
pub mod text;
pub mod workspace;
