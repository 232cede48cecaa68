use std::process::ExitCode;

use crate::cli::CheckArgs;

pub fn run(_args: CheckArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`check` is not implemented yet")
}
