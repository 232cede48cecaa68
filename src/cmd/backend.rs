//! `backend` (hidden): the simulated backend program `serve` runs as its child.

use std::process::ExitCode;

use crate::cli::BackendArgs;

pub fn run(args: BackendArgs) -> anyhow::Result<ExitCode> {
    crate::control::simulator::run(&args.arguments)
}
