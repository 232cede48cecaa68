use std::process::ExitCode;

use crate::cli::FmtArgs;

pub fn run(_args: FmtArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`fmt` is not implemented yet")
}
