//! The reference pages: Markdown files beside this module, readable as they are on the
//! forge and rendered here by `cargo doc` (the README is the short guide that links them).

#[doc = include_str!("architecture.md")]
pub mod architecture {}
#[doc = include_str!("rules.md")]
pub mod rules {}
#[doc = include_str!("checks.md")]
pub mod checks {}
#[doc = include_str!("consistency.md")]
pub mod consistency {}
#[doc = include_str!("scoping.md")]
pub mod scoping {}
#[doc = include_str!("capture.md")]
pub mod capture {}
#[doc = include_str!("ledger.md")]
pub mod ledger {}
#[doc = include_str!("delivery.md")]
pub mod delivery {}
#[doc = include_str!("export.md")]
pub mod export {}
#[doc = include_str!("import.md")]
pub mod import {}
#[doc = include_str!("team.md")]
pub mod team {}
#[doc = include_str!("sources.md")]
pub mod sources {}
#[doc = include_str!("presets.md")]
pub mod presets {}
#[doc = include_str!("hagitask-checks.md")]
pub mod hagitask_checks {}
#[doc = include_str!("mcp.md")]
pub mod mcp {}
#[doc = include_str!("diagnostics.md")]
pub mod diagnostics {}
#[doc = include_str!("output.md")]
pub mod output {}
#[doc = include_str!("performance.md")]
pub mod performance {}
#[doc = include_str!("reliability.md")]
pub mod reliability {}
#[doc = include_str!("choices.md")]
pub mod choices {}
