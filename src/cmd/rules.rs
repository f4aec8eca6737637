//! `autofix learn`, `rules`, `check` and `where`.

use std::process::ExitCode;

use crate::cli::{CheckArgs, LearnArgs, RulesArgs, WhereArgs};
use crate::cmd::Context;

pub(crate) fn learn(_context: &Context, _args: LearnArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not built yet")
}

pub(crate) fn rules(_context: &Context, _args: RulesArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not built yet")
}

pub(crate) fn check(_context: &Context, _args: CheckArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not built yet")
}

pub(crate) fn where_(_context: &Context, _args: WhereArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not built yet")
}
