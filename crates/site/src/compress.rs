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
    /// the cache instead of mixing old siblings into a new build; and the
    /// pieces gzip is fed in ([`GZIP_PIECE`]), which its bytes depend on.
    pub fn cache_key(self) -> String {
        let (brotli, gzip) = self.levels();
        let level = |l: Option<u32>| l.map_or("-".to_owned(), |l| l.to_string());
        format!("br {} gz {} in {GZIP_PIECE}", level(brotli), level(gzip))
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

/// [`siblings`] of the text file at `path` of `len` bytes, read from
/// `source` (a build's home pages, which it does not hold in memory): the
/// gzip sibling is compressed as the file is read; a brotli one
/// (`--compress max` only) needs the file whole. The same bytes as
/// [`siblings`] of the file's bytes (a test holds them equal).
pub fn siblings_from(
    path: &str,
    len: u64,
    mut source: impl std::io::Read,
    level: Compression,
    brotli: bool,
) -> std::io::Result<Vec<OutputFile>> {
    let (quality, gzip) = level.levels();
    if !is_text(path) || (quality.is_none() || !brotli) && gzip.is_none() {
        return Ok(Vec::new());
    }
    if quality.is_some() && brotli {
        let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or_default());
        source.read_to_end(&mut bytes)?;
        let file = OutputFile {
            path: path.to_owned(),
            bytes,
        };
        return Ok(siblings(&file, level, brotli));
    }
    let Some(gzip) = gzip else {
        return Ok(Vec::new());
    };
    let mut encoder = gzip_encoder(gzip);
    // Whole pieces, as `gzip_bytes` feeds them, whatever `read` hands out.
    let mut piece = vec![0; GZIP_PIECE];
    loop {
        let mut filled = 0;
        while filled < GZIP_PIECE {
            match source.read(&mut piece[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
                Err(err) => return Err(err),
            }
        }
        encoder.write_all(&piece[..filled])?;
        if filled < GZIP_PIECE {
            break;
        }
    }
    let bytes = encoder.finish()?;
    Ok((bytes.len() as u64)
        .lt(&len)
        .then(|| layout::sibling_path(path, "gzip"))
        .flatten()
        .map(|path| OutputFile { path, bytes })
        .into_iter()
        .collect())
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
    let mut encoder = gzip_encoder(level);
    // Writing into a Vec cannot fail.
    for piece in input.chunks(GZIP_PIECE) {
        let _ = encoder.write_all(piece);
    }
    encoder.finish().unwrap_or_default()
}

/// The pieces the gzip encoder is fed in. Its bytes depend on how its
/// input arrives, so a file compressed as it is read from disk
/// ([`siblings_from`]) and one in memory ([`gzip_bytes`]) are fed the same
/// pieces and give the same bytes. A file of the site smaller than this
/// (every page and document but a large site's home pages and index) is
/// one piece, as it always was.
pub const GZIP_PIECE: usize = 1 << 20;

/// The one gzip encoder of the siblings ([`gzip_bytes`], [`siblings_from`]).
fn gzip_encoder(level: u32) -> flate2::write::GzEncoder<Vec<u8>> {
    GzBuilder::new()
        .mtime(0)
        .operating_system(255)
        .write(Vec::new(), flate2::Compression::new(level.min(9)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Some megabytes of varied text, as a large home page is.
    fn large_page() -> Vec<u8> {
        let mut text = String::new();
        let mut x: u64 = 7;
        while text.len() < 5 << 19 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            text.push_str(&format!(
                "<li data-end=\"{}\">活动 {} — {}</li>\n",
                x % 997,
                x >> 40,
                x % 13
            ));
        }
        text.into_bytes()
    }

    #[test]
    fn siblings_read_from_a_file_are_those_of_its_bytes() {
        let large = large_page();
        for level in [Compression::Fast, Compression::Max, Compression::None] {
            // Brotli's top quality is slow: a smaller file for it.
            let bytes = if level == Compression::Max {
                &large[..100_000]
            } else {
                &large[..]
            };
            for brotli in [true, false] {
                let file = OutputFile {
                    path: "index.html".to_owned(),
                    bytes: bytes.to_vec(),
                };
                // A reader that hands out uneven pieces, as a file may.
                struct Pieces<'a>(&'a [u8], usize);
                impl std::io::Read for Pieces<'_> {
                    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                        self.1 = self.1 % 7919 + 1;
                        let n = self.1.min(buf.len()).min(self.0.len());
                        buf[..n].copy_from_slice(&self.0[..n]);
                        self.0 = &self.0[n..];
                        Ok(n)
                    }
                }
                let read = siblings_from(
                    "index.html",
                    bytes.len() as u64,
                    Pieces(bytes, 0),
                    level,
                    brotli,
                )
                .unwrap();
                assert_eq!(read, siblings(&file, level, brotli), "{level:?} {brotli}");
            }
        }
        assert!(
            siblings_from("a.png", 3, &b"abc"[..], Compression::Fast, true)
                .unwrap()
                .is_empty()
        );
    }
}
