use std::process::ExitCode;

use crate::cli::BuildArgs;
use crate::diagnostics;
use crate::site::{self, BuildOptions};

pub fn run(args: BuildArgs) -> anyhow::Result<ExitCode> {
    let options = BuildOptions {
        root: args.common.root.clone(),
        out: args.out.clone(),
        now: args.common.now,
        cache: args.cache.options(&args.common.root),
        defer_brotli: false,
    };
    let outcome = site::build(&options)?;
    let has_errors = outcome.summary.is_none();
    if has_errors || !outcome.diagnostics.is_empty() {
        super::check::report(&args.common.root, &outcome.diagnostics, args.format);
    }
    match outcome.summary {
        Some(summary) => {
            eprintln!(
                "built {}: {} files, {} in {:.0?} ({} of {} parts from the cache)",
                args.out.display(),
                summary.files,
                human_bytes(summary.bytes),
                summary.elapsed,
                summary.reused,
                summary.reused + summary.rendered
            );
            Ok(ExitCode::SUCCESS)
        }
        None => {
            let counts = diagnostics::count(&outcome.diagnostics);
            eprintln!(
                "build failed: {} error{}; `{}` left as it was",
                counts.errors,
                if counts.errors == 1 { "" } else { "s" },
                args.out.display()
            );
            Ok(ExitCode::from(1))
        }
    }
}

fn human_bytes(bytes: u64) -> String {
    if bytes >= 1024 * 1024 {
        format!("{:.1} MiB", bytes as f64 / (1024.0 * 1024.0))
    } else if bytes >= 1024 {
        format!("{:.1} KiB", bytes as f64 / 1024.0)
    } else {
        format!("{bytes} B")
    }
}
