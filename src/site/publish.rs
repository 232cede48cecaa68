//! What static hosts need beside the content: the `_headers` file of
//! Netlify/Cloudflare-style hosts (the one owner of the headers each file
//! is served with: `serve` reads them back from it), and precompressed `.br`/`.gz` siblings for
//! hosts that serve them as they are (nginx `gzip_static`/`brotli_static`, S3
//! behind a CDN).
//!
//! Both work on rendered files in memory; this module knows nothing about the
//! data model's rules, the file system or HTTP.

use std::io::Write as _;

use flate2::GzBuilder;

use super::{GameOutput, OutputFile, pages};
use crate::layout::{self, API_CACHE, PAGE_CACHE, is_text};

/// The security headers of every file of the site, in the order `_headers`
/// lists them: its one owner (`serve` reads them back from `_headers`).
pub fn security_headers() -> Vec<(&'static str, String)> {
    vec![
        ("X-Content-Type-Options", "nosniff".to_owned()),
        (
            "Referrer-Policy",
            "strict-origin-when-cross-origin".to_owned(),
        ),
        ("Content-Security-Policy", pages::content_security_policy()),
    ]
}

/// One rule of `_headers`: a path pattern (exact, or a prefix ending in
/// `*`) and the headers of every path it matches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeaderRule {
    pub pattern: String,
    pub headers: Vec<(String, String)>,
}

impl HeaderRule {
    fn new(pattern: impl Into<String>, headers: &[(&str, &str)]) -> Self {
        HeaderRule {
            pattern: pattern.into(),
            headers: headers
                .iter()
                .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()))
                .collect(),
        }
    }

    /// Whether the rule applies to `path` (site-absolute: `/sr/index.html`).
    pub fn matches(&self, path: &str) -> bool {
        match self.pattern.strip_suffix('*') {
            Some(prefix) => path.starts_with(prefix),
            None => self.pattern == path,
        }
    }
}

/// The rules of `_headers`.
///
/// Hosts apply every rule whose path matches and join the values of a header
/// set by two rules, so each header is set by exactly one rule per path:
/// CORS and the API cache policy on `/api/*` (the calendars live there too,
/// since a pattern cannot select by extension on every host), the page cache
/// policy on the home pages, the pages of each game and the 404 page, and the
/// security headers ([`security_headers`]) on everything.
///
/// With announcements, their pages get the page policy and their Atom
/// feeds their type (hosts guess a type from the extension, and few know
/// `.atom`).
pub fn header_rules(
    games: &[GameOutput],
    boards: &[super::announcements::Board],
) -> Vec<HeaderRule> {
    let security = security_headers();
    let security: Vec<(&str, &str)> = security.iter().map(|(n, v)| (*n, v.as_str())).collect();
    let mut rules = vec![
        HeaderRule::new("/*", &security),
        HeaderRule::new(
            layout::API_PATTERN,
            &[
                ("Access-Control-Allow-Origin", "*"),
                ("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS"),
                ("Access-Control-Expose-Headers", "ETag, Last-Modified"),
                ("Cache-Control", API_CACHE),
            ],
        ),
    ];
    let site_locale = crate::model::site_locale(games.iter().map(|g| &g.game)).unwrap_or_default();
    let mut homes: Vec<String> = Vec::new();
    for doc in games.iter().flat_map(|g| &g.documents) {
        let dir = layout::home_dir(&doc.locale, doc.locale == site_locale);
        if !dir.is_empty() && !homes.contains(&dir) {
            homes.push(dir);
        }
    }
    let page_rules = [
        "/".to_owned(),
        layout::url(layout::HOME_PAGE),
        layout::url(layout::NOT_FOUND_PAGE),
    ]
    .into_iter()
    .chain(homes.iter().map(|dir| format!("/{dir}*")))
    .chain(games.iter().map(|g| format!("/{}/*", g.game.id)))
    .chain((!boards.is_empty()).then(|| format!("/{}/*", layout::ANNOUNCEMENTS_PAGE_DIR)));
    for path in page_rules {
        rules.push(HeaderRule::new(path, &[("Cache-Control", PAGE_CACHE)]));
    }
    for board in boards {
        let names: &[bool] = if board.is_default {
            &[true, false]
        } else {
            &[false]
        };
        for &default_name in names {
            let feed = layout::announcements_path(&board.locale, default_name, "atom");
            rules.push(HeaderRule::new(
                layout::url(&feed),
                &[("Content-Type", layout::content_type(&feed))],
            ));
        }
    }
    rules
}

/// The `_headers` file of [`header_rules`].
pub fn render_headers(games: &[GameOutput], boards: &[super::announcements::Board]) -> OutputFile {
    let mut out = String::new();
    out.push_str(
        "# Response headers for Netlify and Cloudflare Pages; written by `activity-site build`.\n",
    );
    out.push_str("# Every matching rule applies, so no header is set by two rules for one path.\n");
    for rule in header_rules(games, boards) {
        out.push('\n');
        out.push_str(&rule.pattern);
        out.push('\n');
        for (name, value) in &rule.headers {
            out.push_str("  ");
            out.push_str(name);
            out.push_str(": ");
            out.push_str(value);
            out.push('\n');
        }
    }
    OutputFile {
        path: layout::HEADERS_FILE.to_owned(),
        bytes: out.into_bytes(),
    }
}

/// Reads a `_headers` file back into its rules (comments and blank lines
/// skipped; a header line is indented and holds `Name: value`).
pub fn parse_headers(text: &str) -> Vec<HeaderRule> {
    let mut rules: Vec<HeaderRule> = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if line.starts_with([' ', '\t']) {
            if let (Some(rule), Some((name, value))) = (rules.last_mut(), trimmed.split_once(':')) {
                rule.headers
                    .push((name.trim().to_owned(), value.trim().to_owned()));
            }
        } else {
            rules.push(HeaderRule {
                pattern: trimmed.to_owned(),
                headers: Vec::new(),
            });
        }
    }
    rules
}

/// The headers a host that reads `rules` sends for `path` (site-absolute):
/// those of every matching rule, in order.
pub fn headers_for<'a>(rules: &'a [HeaderRule], path: &str) -> Vec<(&'a str, &'a str)> {
    rules
        .iter()
        .filter(|rule| rule.matches(path))
        .flat_map(|rule| rule.headers.iter().map(|(n, v)| (n.as_str(), v.as_str())))
        .collect()
}

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
