//! Integration tests: every case drives the real `autofix` binary in a fresh sandbox.
//! One test binary with modules, so the suite links once.

mod support;

mod architecture;
mod bench;
mod bench_hook;
mod capture;
mod clients;
mod consistency;
mod enforce;
mod export;
mod findings;
mod frontmatter;
mod hardening;
mod hooks;
mod import;
mod init;
mod ledger;
mod matcher;
mod mcp;
mod meaning;
mod merge;
mod notes;
mod one_copy;
mod peer_tools;
mod peers;
mod preset;
mod reliability;
mod rules;
mod scoping;
mod shell;
mod snapshots;
mod sources;
mod write_safety;
