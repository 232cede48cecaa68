use std::process::ExitCode;

use crate::cli::BuildArgs;

pub fn run(_args: BuildArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`build` is not implemented yet")
}
