use std::process::ExitCode;

use clap::Parser;

// Checking parses hundreds of thousands of small JSON values; mimalloc keeps
// their allocation cheap and scales across threads (see BENCHMARKS.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = activity_site::cli::Cli::parse();
    match activity_site::cmd::run(cli) {
        Ok(code) => code,
        Err(err) if activity_site::cmd::is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(2)
        }
    }
}
