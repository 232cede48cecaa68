//! The size and speed of each brotli quality and gzip level on a built
//! site's text files, through the builder's own `brotli_bytes` and
//! `gzip_bytes`: the table behind the levels of `build --compress`.
//!
//! One core; each level compresses every file three times and the median
//! is printed, with the output as a share of the input. Example:
//!
//!     cargo run --release --example codec-levels -- target/bench-scale-build/runs/levels-100-none-*/

use std::path::PathBuf;
use std::time::Instant;

use activity_site::site::compress::{brotli_bytes, gzip_bytes};

// The same allocator as the `activity-site` binary.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// A compressor of the builder: input and level to compressed bytes.
type Codec = fn(&[u8], u32) -> Vec<u8>;

fn main() {
    let site = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "site".to_string()),
    );
    let files: Vec<Vec<u8>> = walkdir::WalkDir::new(&site)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| {
            let name = e.file_name().to_string_lossy();
            e.file_type().is_file()
                && [".json", ".ics", ".html"]
                    .iter()
                    .any(|ext| name.ends_with(ext))
        })
        .map(|e| std::fs::read(e.path()).expect("readable"))
        .collect();
    let total: usize = files.iter().map(Vec::len).sum();
    if total == 0 {
        eprintln!("no .json, .ics or .html under {}", site.display());
        std::process::exit(2);
    }
    println!(
        "{} text files, {:.1} MB, from {}\n",
        files.len(),
        total as f64 / 1e6,
        site.display()
    );
    println!("| codec | level | compressed / text | MB/s on one core (median of 3) |");
    println!("|---|---:|---:|---:|");
    let codecs: [(&str, &[u32], Codec); 2] = [
        ("gzip", &[1, 4, 6, 9], gzip_bytes),
        ("brotli", &[4, 5, 6, 11], brotli_bytes),
    ];
    for (name, levels, compress) in codecs {
        for &level in levels {
            let mut seconds = Vec::new();
            let mut size = 0;
            for _ in 0..3 {
                let started = Instant::now();
                size = files
                    .iter()
                    .map(|f| compress(f, level).len())
                    .sum::<usize>();
                seconds.push(started.elapsed().as_secs_f64());
            }
            seconds.sort_by(f64::total_cmp);
            println!(
                "| {name} | {level} | {:.1} % | {:.1} |",
                100.0 * size as f64 / total as f64,
                total as f64 / seconds[1] / 1e6
            );
        }
    }
}
