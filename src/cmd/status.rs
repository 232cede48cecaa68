use std::process::ExitCode;

use crate::cli::StatusArgs;

pub fn run(_args: StatusArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`status` is not implemented yet")
}
