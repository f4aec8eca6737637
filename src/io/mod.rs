//! Files and git: the one write path of every command (`safe_write`, over `atomic`
//! replacement and the sidecar `lock`), discovery of the workspace and its rules file
//! (`workspace`), the one place that runs git (`git`), the clone's own JSON-lines files
//! (`journal`), the size limit of every read (`limits`), the settings the front end read
//! from the environment (`settings`), and what a signal ends while a source is fetched
//! (`interrupt`).

pub(crate) mod atomic;
pub(crate) mod git;
pub(crate) mod interrupt;
pub(crate) mod journal;
pub(crate) mod limits;
pub(crate) mod lock;
pub(crate) mod merge_setup;
pub(crate) mod safe_write;
pub(crate) mod settings;
pub(crate) mod workspace;
