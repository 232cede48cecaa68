//! `backend` (hidden): the simulated backend program `serve` runs as its child.

use std::process::ExitCode;

use crate::cli::BackendArgs;

pub fn run(args: BackendArgs) -> anyhow::Result<ExitCode> {
    activity_site_control::simulator::run(&args.arguments)
}
