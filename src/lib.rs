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
//! - [`merge`]: the git merge driver for rules files, `resolve` and `doctor`;
//! - [`capture`]: notice corrections in prompts and in local transcripts;
//! - [`sarif`] and [`explain`]: diagnostics for code scanning and for people.
//!
//! Shared pieces: [`atomic`] (crash-safe file replacement), [`jsonpos`] (positions in JSON
//! text), [`paint`] (terminal color), [`i18n`] (the languages `learn` answers in). Both
//! halves report problems as [`diagnostics`] values. Nothing in the library prints: every renderer returns a `String` or writes to
//! an `impl Write`, so the CLI and the MCP server (in the binary) decide where it goes.
//!
//! The reference pages that the README links are rendered here as [`docs`].
#![warn(clippy::print_stdout, clippy::print_stderr)]

pub mod atomic;
pub mod capture;
pub mod diagnostics;
pub mod docs;
pub mod explain;
pub mod export;
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
pub mod sarif;
pub mod text;
pub mod workspace;
