//! The precompressed `.br`/`.gz` siblings of text files, for hosts that
//! serve them as they are (nginx `gzip_static`/`brotli_static`, S3 behind a
//! CDN), and how hard a build squeezes them ([`Compression`]). Works on
//! rendered files in memory; knows nothing about the data, the file system
//! or HTTP.

use std::io::Write as _;

use flate2::GzBuilder;

use super::types::OutputFile;
use crate::layout::{self, is_text};

/// Adds a `.br` (brotli) and a `.gz` (gzip, no name and no time in the
/// header) sibling at `level` after every text file, each only when it is
/// smaller than the original. Files that already have such a sibling, the
/// siblings themselves and `_headers` are left alone. Deterministic: the same
/// files give the same bytes.
pub fn add_precompressed(files: &mut Vec<OutputFile>, level: Compression) {
    let existing: std::collections::BTreeSet<String> =
        files.iter().map(|f| f.path.clone()).collect();
    let mut out = Vec::with_capacity(files.len() * 3);
    for file in files.drain(..) {
        let siblings: Vec<OutputFile> = siblings(&file, level, true)
            .into_iter()
            .filter(|s| !existing.contains(&s.path))
            .collect();
        out.push(file);
        out.extend(siblings);
    }
    *files = out;
}

/// Which precompressed siblings a build writes, and how hard they are
/// squeezed: a build's `--compress`. Most hosts compress on the fly, so the
/// siblings serve `serve` and a CDN rule fed by `publish --precompressed`.
///
/// The default writes one `.gz` at level 6, the sibling every client and CDN
/// accepts. Brotli earns its CPU only at its top quality: on the benchmark
/// corpus quality 5 is 5 % smaller than gzip 6 for about three times the CPU
/// time, quality 11 about 19 % smaller for a hundred times; so `.br` siblings
/// come with [`Compression::Max`]. BENCHMARKS.md has the size and time of each.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Compression {
    /// Gzip at level [`FAST_GZIP`], no brotli.
    #[default]
    Fast,
    /// Brotli at quality 11 and gzip at level 9: the smallest files, at
    /// tens of times the CPU time of `Fast`.
    Max,
    /// No siblings.
    None,
}

/// The gzip level of [`Compression::Fast`].
pub const FAST_GZIP: u32 = 6;

impl Compression {
    /// The level's part of the build cache's key: the qualities themselves
    /// rather than the name, so that a change of what a name means misses
    /// the cache instead of mixing old siblings into a new build.
    pub fn cache_key(self) -> String {
        let (brotli, gzip) = self.levels();
        let level = |l: Option<u32>| l.map_or("-".to_owned(), |l| l.to_string());
        format!("br {} gz {}", level(brotli), level(gzip))
    }

    /// Whether the level writes `.br` siblings.
    pub fn has_brotli(self) -> bool {
        self.levels().0.is_some()
    }

    /// `(brotli quality, gzip level)`, each `None` when that sibling is not
    /// written.
    fn levels(self) -> (Option<u32>, Option<u32>) {
        match self {
            Compression::Fast => (None, Some(FAST_GZIP)),
            Compression::Max => (Some(11), Some(9)),
            Compression::None => (None, None),
        }
    }
}

/// The `.br` (when `brotli` and the level has one) and `.gz` siblings of
/// `file` at `level`, each only when it is a text file and the sibling is
/// smaller than the original.
pub fn siblings(file: &OutputFile, level: Compression, brotli: bool) -> Vec<OutputFile> {
    if !is_text(&file.path) {
        return Vec::new();
    }
    let (quality, gzip) = level.levels();
    let quality = quality.filter(|_| brotli);
    let (br, gz) = rayon::join(
        || quality.map(|q| brotli_bytes(&file.bytes, q)),
        || gzip.map(|l| gzip_bytes(&file.bytes, l)),
    );
    [("br", br), ("gzip", gz)]
        .into_iter()
        .filter_map(|(encoding, bytes)| {
            let bytes = bytes.filter(|b| b.len() < file.bytes.len())?;
            Some(OutputFile {
                path: layout::sibling_path(&file.path, encoding)?,
                bytes,
            })
        })
        .collect()
}

/// Brotli at `quality` (0 to 11), with a window no larger than the input
/// needs (16 MiB at most): the encoder's tables grow with the window, and
/// for the small files of a site a 4 MiB window costs far more time and
/// memory than the compression itself, for the same ratio.
///
/// At qualities 5 to 9 the window is at least 128 KiB: for a smaller one
/// the reference encoder picks hashers (40 to 42) that the `brotli` crate
/// does not have, and the crate falls back to one with 32 MiB of tables,
/// zeroed for every file (seven times slower on a site's pages).
pub fn brotli_bytes(input: &[u8], quality: u32) -> Vec<u8> {
    let quality = quality.min(11);
    let needed = usize::BITS - input.len().max(1).leading_zeros();
    let smallest = if (5..=9).contains(&quality) { 17 } else { 10 };
    let params = brotli::enc::BrotliEncoderParams {
        quality: quality as i32,
        lgwin: needed.clamp(smallest, 24) as i32,
        size_hint: input.len(),
        ..Default::default()
    };
    let mut out = Vec::with_capacity(input.len() / 3 + 64);
    // Reading a slice and writing into a Vec cannot fail.
    let _ = brotli::BrotliCompress(&mut &input[..], &mut out, &params);
    out
}

/// Gzip at `level` (0 to 9), with no file name, mtime 0 and a fixed OS byte.
pub fn gzip_bytes(input: &[u8], level: u32) -> Vec<u8> {
    let mut encoder = GzBuilder::new()
        .mtime(0)
        .operating_system(255)
        .write(Vec::new(), flate2::Compression::new(level.min(9)));
    // Writing into a Vec cannot fail.
    let _ = encoder.write_all(input);
    encoder.finish().unwrap_or_default()
}
