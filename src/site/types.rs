//! The types the parts of the builder share: what to build ([`BuildOptions`]),
//! what a build and a check give back ([`BuildOutcome`], [`Checked`]), and a
//! game as the renderers see it ([`GameOutput`], [`LocaleDocument`]). The
//! bottom of `site/`: it imports no other part of the builder's work.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use crate::clock::Now;
use crate::diagnostics::Diagnostic;
use crate::model::{ActivityDocument, Game, to_pretty};
use crate::validate::{self, CheckedGame};

use super::cache::CacheSalt;
use super::compress::Compression;
use super::manifest;

/// What to build and where.
#[derive(Debug, Clone, Default)]
pub struct BuildOptions {
    /// Root of the data tree.
    pub root: PathBuf,
    /// Output directory, replaced atomically on success.
    pub out: PathBuf,
    /// "Now" for status marks and staleness; `None` means the clock (read
    /// to the minute, which is all the pages show).
    pub now: Option<Now>,
    /// Where rendered and compressed files are kept between builds; `None`
    /// renders and compresses everything.
    pub cache: Option<CacheOptions>,
    /// How hard the `.br`/`.gz` siblings are squeezed (`--compress`).
    pub compression: Compression,
    /// Which precompressed siblings not cached yet are left for a later
    /// build, for a build that must show soon (`serve`); a later build with
    /// [`Defer::Nothing`] adds them at the levels of `compression`.
    pub defer: Defer,
    /// Replace an unmarked non-empty output directory (never the root or
    /// the inputs); see [`inspect_output`].
    pub force: bool,
    /// Told after each game rendered (`None`: nobody asks).
    pub progress: Option<Progress>,
}

impl BuildOptions {
    /// Builds `root` into `out` with the cache in its default place.
    pub fn new(root: impl Into<PathBuf>, out: impl Into<PathBuf>) -> Self {
        let root = root.into();
        BuildOptions {
            cache: Some(CacheOptions::new(CacheOptions::default_dir(&root))),
            root,
            out: out.into(),
            now: None,
            compression: Compression::default(),
            defer: Defer::Nothing,
            force: false,
            progress: None,
        }
    }

    /// The salt a build with these options keys its parts and checks with:
    /// the cache's, else this binary's.
    pub(crate) fn salt(&self) -> CacheSalt {
        self.cache
            .as_ref()
            .map_or_else(CacheSalt::current, |c| c.salt.clone())
    }
}

/// Which precompressed siblings a build may leave out for a later build
/// to add ([`BuildOptions::defer`]). A file written without them is served
/// as it is; the output is the same as a build's once they are added.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Defer {
    /// Every sibling is written (`build`).
    #[default]
    Nothing,
    /// The brotli siblings wait (`serve`'s first build: brotli's top
    /// quality costs many times gzip's).
    Brotli,
    /// Every sibling waits (`serve` after an edit: what it serves on
    /// loopback needs no compression, and the edit shows sooner).
    All,
}

/// Where the build cache lives and what its keys include.
#[derive(Debug, Clone)]
pub struct CacheOptions {
    pub dir: PathBuf,
    pub salt: CacheSalt,
}

impl CacheOptions {
    /// The cache in `dir`, with this binary's salt.
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        CacheOptions {
            dir: dir.into(),
            salt: CacheSalt::current(),
        }
    }

    /// `<root>/.activity-site/cache`: beside the state of `serve`, git-ignored.
    pub fn default_dir(root: &Path) -> PathBuf {
        root.join(".activity-site").join("cache")
    }
}

/// The result of a build: the diagnostics, and a summary when files were written.
#[derive(Debug, Clone)]
pub struct BuildOutcome {
    /// Every diagnostic of the check that ran first (warnings included).
    pub diagnostics: Vec<Diagnostic>,
    /// `None` when the check found errors and nothing was written.
    pub summary: Option<BuildSummary>,
    /// The warnings of the build that wrote the output before this one,
    /// by [`manifest::warning_key`] (empty for a first build).
    pub known_warnings: std::collections::HashSet<String>,
}

impl BuildOutcome {
    /// The diagnostics to show in full (every error, and every warning
    /// the previous build did not have) and how many warnings are left
    /// out as unchanged since it.
    pub fn new_since_last(&self) -> (Vec<Diagnostic>, usize) {
        let (unchanged, new): (Vec<&Diagnostic>, Vec<&Diagnostic>) =
            self.diagnostics.iter().partition(|d| {
                !d.is_error() && self.known_warnings.contains(&manifest::warning_key(d))
            });
        (new.into_iter().cloned().collect(), unchanged.len())
    }
}

/// What a successful build wrote.
#[derive(Debug, Clone)]
pub struct BuildSummary {
    pub files: usize,
    pub bytes: u64,
    pub elapsed: Duration,
    /// Parts of the plan (a game's documents and calendars, a game's pages,
    /// one shared file) taken from the cache.
    pub reused: usize,
    /// Parts rendered and compressed by this build.
    pub rendered: usize,
    /// Text files written without some of their siblings ([`BuildOptions::defer`]).
    pub deferred: usize,
    /// Games in the registry.
    pub games: usize,
    /// Games checked by this build (the others' inputs were those of a
    /// check that found nothing in them).
    pub checked: usize,
    /// Where an output this tool did not make went (`--force`): it is
    /// moved beside the output, never deleted.
    pub set_aside: Option<PathBuf>,
}

/// One file of the site, rendered in memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputFile {
    /// Path relative to the output directory, forward slashes (`api/v1/activity/ww.json`).
    pub path: String,
    pub bytes: Vec<u8>,
}

/// One game with its validated documents, as the renderers see it.
#[derive(Debug, Clone)]
pub struct GameOutput {
    pub game: Game,
    /// One entry per locale of `game.locales`, in that order; activities sorted.
    pub documents: Vec<LocaleDocument>,
}

/// A checked document and where it is published.
#[derive(Debug, Clone)]
pub struct LocaleDocument {
    pub locale: String,
    pub is_default: bool,
    /// Activities sorted chronologically, `$schema` dropped.
    pub document: ActivityDocument,
}

impl LocaleDocument {
    /// Publishes `document` under `locale`: drops `$schema` and sorts the
    /// activities (stably, by start).
    pub fn new(locale: &str, is_default: bool, mut document: ActivityDocument) -> Self {
        document.schema = None;
        document.sort_activities();
        LocaleDocument {
            locale: locale.to_owned(),
            is_default,
            document,
        }
    }

    /// The canonical published JSON (the document is already sorted and
    /// without `$schema`).
    pub fn to_json(&self) -> Vec<u8> {
        to_pretty(&self.document).into_bytes()
    }
}

/// The result of checking a whole tree.
#[derive(Debug)]
pub struct Checked {
    /// The games that parsed, with their documents when they were kept.
    pub games: Vec<CheckedGame>,
    /// Every diagnostic, sorted by file and position.
    pub diagnostics: Vec<Diagnostic>,
    /// The activity schema the tree was checked against (published as is).
    pub activity_schema: serde_json::Value,
    /// Every announcements file (`data/_announcements/<locale>.json`), in
    /// path order, with its document when kept; its diagnostics are in
    /// `diagnostics`.
    pub announcements: Vec<validate::CheckedAnnouncements>,
    /// The announcements schema the files were checked against (published as is).
    pub announcements_schema: serde_json::Value,
    /// The fingerprint of each game's data files ([`sources_digest`]), by id,
    /// when the check was asked for them (a build).
    pub sources: HashMap<String, [u8; 16]>,
    /// The games the check found nothing in but what the rules that read
    /// "now" found ([`reads_now`]), with the key of what it checked
    /// (`check_key`), when the check was a build's.
    pub clean_checks: HashMap<String, String>,
    /// Games not checked again: their inputs were those of a check that
    /// found nothing in them.
    pub checks_reused: usize,
}

impl Checked {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// The games of a clean check as the renderers see them.
pub fn outputs(checked: &Checked) -> Vec<GameOutput> {
    checked
        .games
        .iter()
        .map(|g| output_of(g.game.clone(), g.documents.clone()))
        .collect()
}

/// A checked game as the renderers see it: its kept documents published.
pub(crate) fn output_of(
    game: Game,
    documents: Vec<(String, Option<validate::Kept>)>,
) -> GameOutput {
    let documents = documents
        .into_iter()
        .filter_map(|(locale, doc)| {
            let is_default = locale == game.default_locale;
            Some(LocaleDocument::new(
                &locale,
                is_default,
                doc?.into_checked()?,
            ))
        })
        .collect();
    GameOutput { game, documents }
}

/// Told how far a build is: `(games rendered, games to render)`, after each
/// game (`build` draws a bar with it on a terminal).
#[derive(Clone)]
pub struct Progress(pub Arc<dyn Fn(usize, usize) + Send + Sync>);

impl std::fmt::Debug for Progress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Progress")
    }
}
