use std::process::ExitCode;

use crate::cli::ServeArgs;

pub fn run(_args: ServeArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`serve` is not implemented yet")
}
