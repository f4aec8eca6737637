//! Catching corrections: the [`classify`]er (a linear model over the prompt's words, its
//! weights in `model.tsv`, trained by `train` with the scorer and trainer of
//! [`crate::text`]), the prompt-submit hook that reminds the agent
//! to record a correction or to follow the rule it repeats ([`prompt`]), and `reflect`,
//! which finds corrections in the agents' local transcripts ([`reflect`], reading them
//! with `transcripts`). Autofix's own injected text is dropped first (`injected`). The
//! after-tool hook reads why a tool call failed from [`failure`].
//! Everything is read locally; nothing is sent anywhere. The user's guide, with the
//! measured figures, is `src/docs/capture.md`.

pub(crate) mod classify;
pub(crate) mod failure;
mod injected;
pub(crate) mod prompt;
pub(crate) mod reflect;
pub(crate) mod repeats;
#[cfg(test)]
mod train;
pub(crate) mod transcripts;
