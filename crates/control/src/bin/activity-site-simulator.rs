//! The simulated backend program on its own: `activity-site-simulator
//! backend ARGS` does what `activity-site backend ARGS` does. The crate's
//! tests run it as the backend child; `serve` runs its own binary.

use std::process::ExitCode;

fn main() -> ExitCode {
    let mut arguments: Vec<String> = std::env::args().skip(1).collect();
    if arguments.first().is_some_and(|a| a == "backend") {
        arguments.remove(0);
    }
    activity_site_control::simulator::run(&arguments).unwrap_or_else(|error| {
        eprintln!("error: {error:#}");
        ExitCode::from(2)
    })
}
