use std::process::ExitCode;

use crate::cli::DiffArgs;

pub fn run(_args: DiffArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`diff` is not implemented yet")
}
