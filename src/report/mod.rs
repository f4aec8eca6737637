//! Reporting: the one diagnostic type and its code table (`diagnostics`), its renderings
//! for code scanning (`sarif`) and for people (`explain`), positions in JSON text
//! (`jsonpos`), terminal color (`paint`), counted nouns and suggestions (`text`), the
//! short digests file names need (`digest`), and dates (`calendar`).

pub(crate) mod calendar;
pub(crate) mod diagnostics;
pub(crate) mod digest;
pub(crate) mod explain;
pub(crate) mod jsonpos;
pub(crate) mod paint;
pub(crate) mod sarif;
pub(crate) mod text;
