use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = activity_site::cli::Cli::parse();
    match activity_site::cmd::run(cli) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(2)
        }
    }
}
