//! The figure `check` has to beat: read every `data/*/*.json` under a root
//! and parse it into a `serde_json::Value`, on every core (rayon), and
//! nothing else. No rules, no spans, no diagnostics.
//!
//! Example:
//!
//!     cargo run --release --example bare-parse -- target/bench-corpus

use std::path::PathBuf;

use rayon::prelude::*;

// The same allocator as the `activity-site` binary, so the comparison is fair.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let root = PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| ".".to_string()));
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(root.join("data"))
        .min_depth(2)
        .max_depth(2)
    {
        let entry = entry.expect("the data folder is readable");
        if entry.file_type().is_file() && entry.path().extension().is_some_and(|e| e == "json") {
            files.push(entry.into_path());
        }
    }
    let (parsed, bytes) = files
        .par_iter()
        .map(|path| {
            let bytes = std::fs::read(path).expect("readable file");
            let ok = serde_json::from_slice::<serde_json::Value>(&bytes).is_ok();
            (usize::from(ok), bytes.len())
        })
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    eprintln!(
        "bare-parse: {parsed} of {} files parsed, {:.1} MB",
        files.len(),
        bytes as f64 / 1e6
    );
}
