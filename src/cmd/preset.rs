//! `autofix preset list|validate|render|requirements`.

use std::process::ExitCode;

use crate::cli::PresetCommand;
use crate::cmd::Context;

pub(crate) fn run(_context: &Context, _command: PresetCommand) -> anyhow::Result<ExitCode> {
    anyhow::bail!("preset commands are not built yet")
}
