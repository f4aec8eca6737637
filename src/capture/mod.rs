//! Catching corrections: the deterministic [`classify`]er, the prompt-submit hook that
//! reminds the agent to record a correction ([`prompt`]), and `reflect`, which finds
//! corrections in the agents' local transcripts ([`reflect`], reading them with
//! `transcripts`). Everything is read locally; nothing is sent anywhere. The user's
//! guide, with the measured precision and recall, is `src/docs/capture.md`.

pub(crate) mod classify;
pub(crate) mod prompt;
pub(crate) mod reflect;
pub(crate) mod sha256;
mod transcripts;
