//! The builder: a validated data tree to the files of `site/`. No HTTP, no async.
//!
//! [`build`] checks the tree first (without keeping documents); with any
//! error it writes nothing. Otherwise each game is loaded again and turned
//! into parts, each a pure function of named inputs: per document, its JSON
//! files and calendars (from the game's registry entry, its locales and the
//! validated document), and its page (the same plus "now"); then the shared
//! files (the index, which takes each game's summary, the home page, the
//! schema, `404.html`, `_headers`). Each part is taken from the build
//! [`cache`] when its key (the inputs, the compression level, the tool's
//! version and the templates) is known, else rendered, its text files
//! compressed ([`publish::Compression`]) and stored; games and parts run on
//! every core (rayon). The files ([`OutputFile`]) are written into a staging
//! directory beside the output as soon as their part is done, so memory
//! holds the games in flight, not the site; the staging directory is
//! swapped in with a rename at the end. A document's times are
//! [`crate::model::Time`]s from the check on: nothing renders a time that
//! is not one.
//!
//! A build costs what changed. The check fingerprints each game's data
//! files as it reads them; a game whose fingerprint (with its registry
//! entry, the site's locale, its "now", the compression and the tool's
//! salt) is the one the output's manifest records is neither loaded,
//! rendered, compressed nor written: its files stay, and only what the
//! shared files need of it is read from the manifest. The home pages,
//! which list every game's activities, are rendered only when what one
//! game shows there changed; a game's card on them is rendered with the
//! game and kept on disk until the pages list the cards ([`cards`]), so
//! memory does not grow with the site. The check itself is skipped for a game whose
//! last check found nothing and whose `check_key` (the tool, the
//! schemas, its registry entry, its data files, its "now") the manifest
//! records: its files are read and fingerprinted, not parsed again. See
//! `write.rs` for how the new site is put in place.

pub mod announcements;
pub mod cache;
mod cards;
pub mod diff;
pub mod ics;
mod kept;
mod live;
pub mod llms;
mod manifest;
pub mod pages;
pub mod publish;
pub mod rewrite;
pub mod status;
pub mod version;
mod write;

pub use live::{LiveBuild, LiveCheck, LiveStats};
pub use write::{OUTPUT_MARKER, OutputState, guard_output, inspect_output};

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use rayon::prelude::*;
use sha2::{Digest, Sha256};

use crate::clock::Now;
use crate::diagnostics::{self, Diagnostic};
use crate::i18n::msg;
use crate::layout;
use crate::load;
use crate::model::{ActivityDocument, Announcements, Draft, Game, Registry, to_pretty};
use crate::source::{Overlay, REGISTRY_PATH};
use crate::tree::announcements_locale;
use crate::validate::{self, CheckedGame, Validator};

pub use cache::CacheSalt;
use cache::Key;
pub use publish::Compression;

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

/// Loads and checks the tree under `root`, game by game on every core, for
/// its diagnostics only: no typed documents are built and each game is
/// dropped once checked, so memory is bounded by the largest game.
pub fn check(root: &Path, options: &validate::Options) -> anyhow::Result<Checked> {
    check_games(root, &Overlay::new(), options, false)
}

/// [`check`], and the fingerprint of each game's sources
/// ([`Checked::sources`]); with what the render uses again. A game whose
/// [`check_key`] is the one `clean` records (the output's manifest: its
/// last check found nothing) is not checked again.
fn check_for_build(
    root: &Path,
    options: &validate::Options,
    salt: &CacheSalt,
    clean: &HashMap<String, String>,
) -> anyhow::Result<(Checked, Prepared)> {
    let build = ForBuild { salt, clean };
    check_games_with(root, &Overlay::new(), options, false, Some(&build))
}

/// What a build's check knows beyond a check: see [`check_for_build`].
struct ForBuild<'a> {
    salt: &'a CacheSalt,
    clean: &'a HashMap<String, String>,
}

/// The key (hex) of everything a game's check depends on but "now": the
/// tool (its version, in `salt`), the schemas (`schemas`:
/// [`schemas_digest`]), the game's registry entry and its data files
/// ([`sources_digest`]). "Now" is left out so the manifest, which records
/// the key, is a function of the data: the only rules that read "now"
/// (`stale`, `upcoming-version`) find nothing exactly while "now" is inside
/// every document's version window, so a clean check stays clean for equal
/// keys while "now" is inside them ([`manifest::Manifest::clean_checks`]).
pub(crate) fn check_key(
    salt: &CacheSalt,
    schemas: &[u8; 32],
    game: &Game,
    sources: &[u8; 16],
) -> String {
    let entry = serde_json::to_vec(game).unwrap_or_default();
    Key::new(salt, &[b"game-check", schemas, &entry, sources]).hex()
}

/// SHA-256 of the three schemas a project is checked against.
fn schemas_digest(project: &crate::source::Project) -> [u8; 32] {
    let mut hasher = Sha256::new();
    for schema in [
        &project.activity_schema,
        &project.games_schema,
        &project.announcements_schema,
    ] {
        let bytes = serde_json::to_vec(schema).unwrap_or_default();
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(&bytes);
    }
    hasher.finalize().into()
}

/// What a check read and compiled that the render of the same tree uses
/// again: the project (the schemas, the file lists) and its validator.
pub(crate) struct Prepared {
    pub project: crate::source::Project,
    pub validator: Validator,
}

/// Like [`check`], and keeps every game's typed documents for what comes
/// next (rendering, `diff`, `fmt`, `status`).
pub fn check_documents(root: &Path, options: &validate::Options) -> anyhow::Result<Checked> {
    check_games(root, &Overlay::new(), options, true)
}

/// [`check`] with the texts of `overlay` read in place of the files on disk
/// (unsaved editor buffers, an agent's draft); nothing is written. A caller
/// that checks again after each edit keeps a [`LiveCheck`] instead, which
/// gives the same diagnostics at the cost of what changed.
pub fn check_with(
    root: &Path,
    overlay: &Overlay,
    options: &validate::Options,
) -> anyhow::Result<Checked> {
    check_games(root, overlay, options, false)
}

fn check_games(
    root: &Path,
    overlay: &Overlay,
    options: &validate::Options,
    keep_documents: bool,
) -> anyhow::Result<Checked> {
    check_games_with(root, overlay, options, keep_documents, None).map(|(checked, _)| checked)
}

fn check_games_with(
    root: &Path,
    overlay: &Overlay,
    options: &validate::Options,
    keep_documents: bool,
    build: Option<&ForBuild<'_>>,
) -> anyhow::Result<(Checked, Prepared)> {
    let project = load::open_with(root, overlay)?;
    let validator = Validator::new(&project)?;
    let schemas = schemas_digest(&project);
    let (games, mut all) = validator.registry(&project);
    /// A game checked (or not: `reused`), with its sources' fingerprint
    /// and check key when the check is a build's.
    struct Done {
        game: CheckedGame,
        sources: Option<([u8; 16], String)>,
        reused: bool,
    }
    let (mut announcements, checked) = rayon::join(
        || check_announcements(root, &project, &validator, overlay, keep_documents),
        || -> Vec<Done> {
            games
                .par_iter()
                .map(|game| {
                    let loaded = load::load_game_with(root, game, overlay);
                    let Some(build) = build else {
                        let game = validator.game(&loaded, options, keep_documents);
                        return Done {
                            game,
                            sources: None,
                            reused: false,
                        };
                    };
                    let sources = sources_digest(&loaded);
                    let key = check_key(build.salt, &schemas, game, &sources);
                    if !keep_documents && build.clean.get(&game.id) == Some(&key) {
                        let game = CheckedGame {
                            game: game.clone(),
                            documents: Vec::new(),
                            diagnostics: Vec::new(),
                        };
                        return Done {
                            game,
                            sources: Some((sources, key)),
                            reused: true,
                        };
                    }
                    Done {
                        game: validator.game(&loaded, options, keep_documents),
                        sources: Some((sources, key)),
                        reused: false,
                    }
                })
                .collect()
        },
    );
    all.append(&mut announcements.1);
    let announcements = announcements.0;
    let mut games = Vec::with_capacity(checked.len());
    let mut sources = HashMap::new();
    let mut clean_checks = HashMap::new();
    let mut checks_reused = 0;
    for Done {
        mut game,
        sources: digest,
        reused,
    } in checked
    {
        checks_reused += usize::from(reused);
        if let Some((digest, key)) = digest {
            sources.insert(game.game.id.clone(), digest);
            // Recorded whatever "now" is: only the rules that read it
            // found anything, and they find nothing where the record is
            // taken again ([`manifest::Manifest::clean_checks`]).
            if game.diagnostics.iter().all(reads_now) {
                clean_checks.insert(game.game.id.clone(), key);
            }
        }
        all.append(&mut game.diagnostics);
        games.push(game);
    }
    all.extend(kept::diagnostics(root)?);
    diagnostics::sort(&mut all);
    let checked = Checked {
        games,
        diagnostics: all,
        activity_schema: project.activity_schema.clone(),
        announcements,
        announcements_schema: project.announcements_schema.clone(),
        sources,
        clean_checks,
        checks_reused,
    };
    Ok((checked, Prepared { project, validator }))
}

/// Whether a diagnostic is one of a rule that reads "now" (`stale`,
/// `upcoming-version`), which find nothing while "now" is inside every
/// version window of the game.
pub(crate) fn reads_now(diagnostic: &Diagnostic) -> bool {
    matches!(
        diagnostic.code,
        crate::diagnostics::Code::Stale | crate::diagnostics::Code::UpcomingVersion
    )
}

/// A 128-bit fingerprint of a game's data files as loaded: each file's
/// path, whether it exists and its text, through two seeded 64-bit
/// hashes (foldhash's quality hasher: much faster than SHA-256 on the
/// whole tree, and an accidental collision of both is out of reach). What
/// a game's files are built from, besides its registry entry, the site
/// and "now".
pub(crate) fn sources_digest(game: &crate::source::LoadedGame) -> [u8; 16] {
    use std::hash::{BuildHasher as _, Hash as _, Hasher as _};
    let mut out = [0u8; 16];
    for (half, seed) in out.chunks_mut(8).zip([0x5eed_0001_u64, 0x5eed_0002]) {
        let mut hasher = foldhash::quality::FixedState::with_seed(seed).build_hasher();
        for file in &game.files {
            file.path.hash(&mut hasher);
            file.exists.hash(&mut hasher);
            file.source
                .as_ref()
                .map(|s| s.text.as_str())
                .hash(&mut hasher);
        }
        half.copy_from_slice(&hasher.finish().to_le_bytes());
    }
    out
}

/// Loads and checks every announcements file of the project: the checked
/// files (their diagnostics moved out) and every diagnostic.
pub(crate) fn check_announcements(
    root: &Path,
    project: &crate::source::Project,
    validator: &Validator,
    overlay: &Overlay,
    keep_documents: bool,
) -> (Vec<validate::CheckedAnnouncements>, Vec<Diagnostic>) {
    let (files, mut all) = load::load_announcements_with(root, project, overlay);
    let checked = files
        .iter()
        .map(|file| {
            let mut checked = validator.announcements(file, keep_documents);
            all.append(&mut checked.diagnostics);
            checked
        })
        .collect();
    (checked, all)
}

/// The canonical text of the source file `path` (`games.json` or a data
/// file), as `fmt` writes it; `None` when `text` does not parse as one.
/// Only meaningful for a file the check found no error in.
pub fn canonical_text(path: &str, text: &str) -> Option<String> {
    if path == REGISTRY_PATH {
        serde_json::from_str::<Registry>(text)
            .ok()
            .map(|r| r.to_canonical())
    } else if announcements_locale(path).is_some() {
        serde_json::from_str::<Announcements>(text)
            .ok()
            .map(|a| a.to_canonical(true))
    } else {
        serde_json::from_str::<Draft>(text)
            .ok()
            .map(|d| d.to_canonical(true))
    }
}

/// Checks the tree and, when it has no errors, writes the site atomically.
/// `Err` only when the tool itself fails (unreadable root, unwritable output,
/// a cache directory it does not own, inputs that change during the build).
///
/// The whole tree is checked first without keeping documents; then each
/// game is loaded again and rendered, and its files go into the staging
/// directory as they are finished, so memory holds the games in flight,
/// not the site.
pub fn build(options: &BuildOptions) -> anyhow::Result<BuildOutcome> {
    let started = Instant::now();
    write::guard_output(&options.root, &options.out, options.force)?;
    if let Some(cache) = &options.cache {
        guard_cache(&cache.dir, &options.out)?;
    }
    // One "now" for the check and the render, read once (to the minute
    // when it is the clock's, as the pages are).
    let check_options = validate::Options {
        now: Some(Now::pinned_or_clock(options.now)),
    };
    let salt = options.salt();
    // The output's manifest says which games' last check found nothing;
    // what the output holds is checked while the tree is.
    let previous = write::Previous::read(&options.out)?;
    let clean = previous.clean_checks(check_options.now.unwrap_or_else(Now::read));
    let known_warnings = previous.warnings();
    let (checked, staging) = rayon::join(
        || check_for_build(&options.root, &check_options, &salt, &clean),
        || write::Staging::after(&options.out, previous),
    );
    let (checked, prepared) = checked?;
    if checked.has_errors() {
        return Ok(BuildOutcome {
            diagnostics: checked.diagnostics,
            summary: None,
            known_warnings,
        });
    }
    let (summary, _) = write_site(
        options,
        &checked,
        &prepared,
        &check_options,
        started,
        staging?,
    )?;
    Ok(BuildOutcome {
        diagnostics: checked.diagnostics,
        summary: Some(summary),
        known_warnings,
    })
}

/// Writes the site of a clean check (`checked.sources` filled) to the
/// output, at the cost of what changed since the output was built.
///
/// `staging` is what the output holds ([`write::Staging::create`]); the
/// returned [`write::Memo`] is what the build left there, for the next
/// build of the same process.
pub(crate) fn write_site(
    options: &BuildOptions,
    checked: &Checked,
    prepared: &Prepared,
    check_options: &validate::Options,
    started: Instant,
    staging: write::Staging,
) -> anyhow::Result<(BuildSummary, write::Memo)> {
    let cache = match &options.cache {
        Some(c) => Some(cache::Cache::open(&c.dir)?),
        None => None,
    };
    let how = Render {
        cache: cache.as_ref(),
        salt: options.salt(),
        compression: options.compression,
        defer: options.defer,
        progress: options.progress.clone(),
    };
    let (tally, mut manifest) = render(
        &options.root,
        checked,
        prepared,
        check_options,
        &how,
        &staging,
    )?;
    manifest.warnings = checked
        .diagnostics
        .iter()
        .filter(|d| !d.is_error())
        .map(manifest::warning_key)
        .collect();
    manifest.warnings.sort_unstable();
    manifest.warnings.dedup();
    // Dropped without a commit, the staging directory is removed.
    let (committed, left) = staging.commit(manifest)?;
    let set_aside = match committed {
        write::Committed::Replaced { set_aside } => set_aside,
        write::Committed::Unchanged => None,
    };
    if let Some(cache) = &cache
        && tally.stored > 0
    {
        cache.sweep();
    }
    let summary = BuildSummary {
        files: tally.files,
        bytes: tally.bytes,
        elapsed: started.elapsed(),
        reused: tally.reused,
        rendered: tally.rendered,
        deferred: tally.deferred,
        games: checked.games.len(),
        checked: checked.games.len() - checked.checks_reused,
        set_aside,
    };
    Ok((summary, left))
}

/// Refuses a cache directory inside the output, which every build replaces.
pub(crate) fn guard_cache(dir: &Path, out: &Path) -> anyhow::Result<()> {
    let resolve = |p: &Path| -> anyhow::Result<PathBuf> {
        let p = std::path::absolute(p)
            .with_context(|| msg!("err-bad-path", path = p.display().to_string()))?;
        Ok(std::fs::canonicalize(&p).unwrap_or(p))
    };
    anyhow::ensure!(
        !resolve(dir)?.starts_with(resolve(out)?),
        msg!(
            "cache-inside-output",
            cache = dir.display().to_string(),
            out = out.display().to_string()
        )
    );
    Ok(())
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
/// Loads and validates one game again, with its documents, for rendering:
/// the check before the build saw it clean, so an error now means its files
/// changed since (the build then stops and writes nothing).
fn load_again(
    root: &Path,
    validator: &Validator,
    check_options: &validate::Options,
    game: &Game,
) -> anyhow::Result<GameOutput> {
    let loaded = load::load_game(root, game);
    let full = validator.game(&loaded, check_options, true);
    drop(loaded);
    anyhow::ensure!(
        !full.diagnostics.iter().any(Diagnostic::is_error),
        msg!("build-files-changed", game = game.id.as_str())
    );
    Ok(output_of(full.game, full.documents))
}

fn output_of(game: Game, documents: Vec<(String, Option<validate::Kept>)>) -> GameOutput {
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

/// How to render: the cache, the compression and whether it may wait.
/// Never "now": no file of the site depends on it.
pub(crate) struct Render<'a> {
    pub cache: Option<&'a cache::Cache>,
    /// What every key includes of the tool ([`BuildOptions::salt`]).
    pub salt: CacheSalt,
    pub compression: Compression,
    pub defer: Defer,
    pub progress: Option<Progress>,
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

/// What a render wrote, counted as it goes.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Tally {
    /// Files of the site, and their bytes.
    pub files: usize,
    pub bytes: u64,
    /// Parts taken from the cache or the previous output, and parts rendered and compressed.
    pub reused: usize,
    pub rendered: usize,
    /// Entries written to the cache.
    pub stored: usize,
    /// Text files written without their siblings.
    pub deferred: usize,
}

impl std::ops::Add for Tally {
    type Output = Tally;
    fn add(self, other: Tally) -> Tally {
        Tally {
            files: self.files + other.files,
            bytes: self.bytes + other.bytes,
            reused: self.reused + other.reused,
            rendered: self.rendered + other.rendered,
            stored: self.stored + other.stored,
            deferred: self.deferred + other.deferred,
        }
    }
}

/// One part of the plan: a key over its named inputs and the work that
/// makes its files. Each part is a pure function of what its key hashes.
struct Part<'a> {
    key: Key,
    work: Work<'a>,
}

enum Work<'a> {
    /// A document's JSON files (its bytes given, rendered already) and calendars.
    Api(&'a GameOutput, &'a LocaleDocument, &'a [u8]),
    /// A document's page, in a site of that locale.
    Page(&'a GameOutput, &'a LocaleDocument, &'a str),
    /// A file that is cheap to render, rendered already: keyed by its bytes,
    /// so only its compression is saved.
    Ready(OutputFile),
}

/// A game of the new site: its record for the manifest and what was
/// written of it (its home page cards, when this build rendered it, are
/// in the build's [`cards::Cards`]).
struct GameDone {
    record: manifest::GameRecord,
    tally: Tally,
}

/// The fingerprint of everything a game's files depend on: the tool and
/// templates, the compression, the site's locale, its registry entry and
/// its data files ([`sources_digest`]). Never "now": the pages leave what
/// depends on it to the reader's browser.
fn game_fingerprint(
    game: &Game,
    sources: Option<&[u8; 16]>,
    salt: &CacheSalt,
    how: &Render<'_>,
    site_locale: &str,
) -> String {
    let entry = serde_json::to_vec(game).unwrap_or_default();
    let compression = how.compression.cache_key();
    let key = Key::new(
        salt,
        &[
            b"game-files",
            compression.as_bytes(),
            site_locale.as_bytes(),
            &entry,
            sources.map_or(&[][..], |s| &s[..]),
        ],
    );
    key.hex()
}

/// SHA-256 (hex) of what the home pages show of a game.
fn home_digest(home: &pages::HomeGame) -> String {
    let mut hasher = Sha256::new();
    let mut put = |part: &[u8]| {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part);
    };
    put(&serde_json::to_vec(&home.game.game).unwrap_or_default());
    for ((doc, activities), fresh) in home
        .game
        .documents
        .iter()
        .zip(&home.activities)
        .zip(&home.freshness)
    {
        put(format!("{:?}\u{1f}{:?}", fresh.mode, fresh.due).as_bytes());
        put(doc.locale.as_bytes());
        put(if doc.is_default { b"1" } else { b"0" });
        put(&serde_json::to_vec(&doc.document).unwrap_or_default());
        for a in activities {
            put(format!(
                "{}\u{1f}{}\u{1f}{}\u{1f}{}",
                a.index, a.name, a.start, a.end
            )
            .as_bytes());
        }
    }
    hex::encode(hasher.finalize())
}

/// Renders the site of a clean check into `staging`, game by game on every
/// core. A game whose fingerprint ([`game_fingerprint`]) is the one the
/// output's manifest records, and whose files there check out, is taken
/// as it is: not loaded, rendered, compressed or written. Every other game
/// is loaded and validated again with its documents (or takes those the
/// check kept), each of its parts taken from the cache when its inputs
/// are unchanged or rendered and compressed, and written as soon as it is
/// done, and its home page cards rendered and set aside; only a summary of
/// the game stays for the shared files (the index, the home pages,
/// `_headers`), which come last and are taken from the output too when
/// their inputs did not change. The new site and its manifest are the same
/// whatever the order in which parts finish and whatever the output held.
pub(crate) fn render(
    root: &Path,
    checked: &Checked,
    prepared: &Prepared,
    check_options: &validate::Options,
    how: &Render<'_>,
    staging: &write::Staging,
) -> anyhow::Result<(Tally, manifest::Manifest)> {
    let Prepared { project, validator } = prepared;
    // The registry as checked: a data file that changed since is found
    // when its game is loaded again.
    let registry: Vec<Game> = checked.games.iter().map(|g| g.game.clone()).collect();
    let salt = &how.salt;
    // Every game page links to the home page of its language, so it
    // depends on the site's locale.
    let site_locale = crate::model::site_locale(&registry)
        .unwrap_or_default()
        .to_owned();
    let fingerprints: Vec<String> = registry
        .iter()
        .map(|game| game_fingerprint(game, checked.sources.get(&game.id), salt, how, &site_locale))
        .collect();
    let to_render = registry
        .iter()
        .zip(&fingerprints)
        .filter(|(game, fp)| {
            staging
                .current_game(&game.id, fp, how.defer != Defer::Nothing)
                .is_none()
        })
        .count();
    let rendered_games = std::sync::atomic::AtomicUsize::new(0);
    // Each game's cards on the home pages are rendered with the game.
    let home_site_locale = pages::site_locale_of(&registry);
    let cards = Arc::new(cards::Cards::new(
        staging.beside(),
        registry.len(),
        pages::home_locales(
            registry
                .iter()
                .flat_map(|g| g.locales.iter().map(String::as_str)),
            &home_site_locale,
        ),
    )?);
    let done: Vec<GameDone> = checked
        .games
        .par_iter()
        .zip(&fingerprints)
        .enumerate()
        .with_max_len(1)
        .map(|(position, (checked_game, fingerprint))| {
            let game = &checked_game.game;
            if let Some(record) =
                staging.current_game(&game.id, fingerprint, how.defer != Defer::Nothing)
            {
                staging.keep(&record.files);
                let mut tally = Tally::default();
                for file in &record.files {
                    tally.files += 1;
                    tally.bytes += file.bytes;
                }
                tally.reused = record.summary.documents.len() * 2;
                let record = manifest::GameRecord {
                    checked: checked.clean_checks.get(&game.id).cloned(),
                    ..record.clone()
                };
                return Ok(GameDone { record, tally });
            }
            // A game the check kept the documents of (a live build's
            // edited game) is not read again.
            let output = if checked_game.documents.iter().any(|(_, d)| d.is_some()) {
                output_of(game.clone(), checked_game.documents.clone())
            } else {
                load_again(root, validator, check_options, game)?
            };
            let (home, digests, files, tally) =
                render_game(output, salt, &site_locale, how, staging)?;
            let record = manifest::GameRecord {
                id: game.id.clone(),
                fingerprint: fingerprint.clone(),
                complete: tally.deferred == 0,
                home: home_digest(&home),
                checked: checked.clean_checks.get(&game.id).cloned(),
                summary: manifest::SavedGame::of(&home.game, digests),
                files,
            };
            cards.put(position, &home, &home_site_locale)?;
            drop(home);
            if let Some(progress) = &how.progress {
                let n = rendered_games.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
                (progress.0)(n, to_render);
            }
            Ok(GameDone { record, tally })
        })
        .collect::<anyhow::Result<_>>()?;
    let mut tally = Tally::default();
    for game in &done {
        tally = tally + game.tally;
    }
    let games: Vec<GameOutput> = done.iter().map(|g| g.record.summary.output()).collect();
    let summaries: Vec<(&GameOutput, &[(String, usize)])> = games
        .iter()
        .zip(&done)
        .map(|(game, done)| (game, done.record.summary.digests.as_slice()))
        .collect();
    // The announcements, checked again with their documents kept.
    let (boards, announced) = check_announcements(root, project, validator, &Overlay::new(), true);
    anyhow::ensure!(
        !announced.iter().any(Diagnostic::is_error),
        msg!("build-announcements-changed")
    );
    let site_locale = Registry {
        schema: None,
        games: registry.clone(),
    }
    .site_locale()
    .map(str::to_owned);
    let boards = announcements::boards(&boards, site_locale.as_deref());
    let mut shared = Vec::new();
    let mut index_entries = Vec::new();
    for board in &boards {
        let json = board.to_json();
        let sha256 = hex::encode(Sha256::digest(&json));
        index_entries.extend(announcements::index_entries(board, &sha256, json.len()));
        for file in announcements::json_files(board, &json) {
            shared.push(file);
        }
        for file in announcements::feed_files(board, &games) {
            shared.push(file);
        }
        shared.push(announcements::render_page(board, &boards)?);
    }
    shared.extend([
        index_file(&summaries, index_entries),
        OutputFile {
            path: layout::SCHEMA_PATH.to_owned(),
            bytes: to_pretty(&checked.activity_schema).into_bytes(),
        },
        OutputFile {
            path: layout::ANNOUNCEMENTS_SCHEMA_PATH.to_owned(),
            bytes: to_pretty(&checked.announcements_schema).into_bytes(),
        },
        pages::render_not_found()?,
        publish::render_headers(&games, &boards),
    ]);
    let compression = how.compression.cache_key();
    let mut parts_done: Vec<manifest::PartRecord> = Vec::new();
    // The home pages list every game's activities that have not ended: a
    // part keyed by what each game shows there, rendered only when one of
    // them (or the boards) changed.
    let home_links = announcements::home_links(&boards);
    let home_key = {
        let links = format!("{home_links:?}");
        let mut named: Vec<&[u8]> = vec![b"home-pages", compression.as_bytes(), links.as_bytes()];
        named.extend(done.iter().map(|g| g.record.home.as_bytes()));
        Key::new(salt, &named)
    };
    let home_tally =
        if let Some(record) = staging.current_part(&home_key.hex(), how.defer != Defer::Nothing) {
            staging.keep(&record.files);
            parts_done.push(record.clone());
            // One part per home page, as when they are rendered.
            let pages = record
                .files
                .iter()
                .filter(|f| layout::sibling_of(&f.path).is_none())
                .count();
            Tally {
                reused: pages,
                ..Tally::of_records(&record.files)
            }
        } else {
            cards_of_the_rest(root, validator, check_options, &registry, &done, &cards)?;
            let source: pages::CardSource = {
                let cards = Arc::clone(&cards);
                Arc::new(move |game, locale| cards.get(game, locale))
            };
            let mut tally = Tally::default();
            let mut files = Vec::new();
            let mut complete = true;
            pages::each_home_page(&games, &home_links, source, |home| {
                let part = Part {
                    key: ready_key(salt, compression.as_bytes(), b"file", &home),
                    work: Work::Ready(home),
                };
                let (done, records) = run_part(part, how, staging)?;
                complete &= done.deferred == 0;
                tally = tally + done;
                files.extend(records);
                Ok(())
            })?;
            parts_done.push(manifest::PartRecord {
                key: home_key.hex(),
                complete,
                files,
            });
            tally
        };
    let parts: Vec<Part<'_>> = shared
        .into_iter()
        .map(|file| Part {
            key: ready_key(salt, compression.as_bytes(), b"file", &file),
            work: Work::Ready(file),
        })
        .collect();
    let shared = run_parts(parts, how, staging, &mut parts_done)?;
    // Kept files last: every generated path is written by now, and a kept
    // file never replaces one.
    let mut kept_parts = Vec::new();
    for (source, file) in kept::outputs(root)? {
        if staging.holds(&file.path) || file.path == layout::LLMS_PATH {
            return Err(kept::clash(&source, &file.path));
        }
        kept_parts.push(Part {
            key: ready_key(salt, compression.as_bytes(), b"kept", &file),
            work: Work::Ready(file),
        });
    }
    let kept = run_parts(kept_parts, how, staging, &mut parts_done)?;
    // `llms.txt` last: it names what the build published, a kept
    // announcements document included.
    let file = llms::render(
        &games,
        staging.holds(&layout::announcements_path("", true, "json")),
    );
    let llms = run_parts(
        vec![Part {
            key: ready_key(salt, compression.as_bytes(), b"file", &file),
            work: Work::Ready(file),
        }],
        how,
        staging,
        &mut parts_done,
    )?;
    let mut manifest = manifest::Manifest::new();
    manifest.games = done.into_iter().map(|g| g.record).collect();
    manifest.parts = parts_done;
    manifest.sort();
    Ok((tally + home_tally + shared + kept + llms, manifest))
}

/// The key of a part made of one file rendered already: its bytes.
fn ready_key(salt: &CacheSalt, compression: &[u8], kind: &[u8], file: &OutputFile) -> Key {
    Key::new(
        salt,
        &[kind, compression, file.path.as_bytes(), &file.bytes],
    )
}

/// Runs `parts` (each taken from the output when it holds that part's
/// files already) and records each in `records`.
fn run_parts(
    parts: Vec<Part<'_>>,
    how: &Render<'_>,
    staging: &write::Staging,
    records: &mut Vec<manifest::PartRecord>,
) -> anyhow::Result<Tally> {
    let done: Vec<(Tally, manifest::PartRecord)> = parts
        .into_par_iter()
        .map(|part| {
            let key = part.key.hex();
            if let Some(record) = staging.current_part(&key, how.defer != Defer::Nothing) {
                staging.keep(&record.files);
                let tally = Tally {
                    reused: 1,
                    ..Tally::of_records(&record.files)
                };
                return Ok((tally, record.clone()));
            }
            let (tally, files) = run_part(part, how, staging)?;
            Ok((
                tally,
                manifest::PartRecord {
                    key,
                    complete: tally.deferred == 0,
                    files,
                },
            ))
        })
        .collect::<anyhow::Result<_>>()?;
    let mut tally = Tally::default();
    for (counted, record) in done {
        tally = tally + counted;
        records.push(record);
    }
    Ok(tally)
}

/// Renders the home page cards of the games this build did not render
/// (taken from the output as they were), loading and validating them
/// again: only when the home pages must be rendered again.
fn cards_of_the_rest(
    root: &Path,
    validator: &Validator,
    check_options: &validate::Options,
    registry: &[Game],
    done: &[GameDone],
    cards: &cards::Cards,
) -> anyhow::Result<()> {
    let site_locale = pages::site_locale_of(registry);
    registry
        .par_iter()
        .zip(done)
        .enumerate()
        .try_for_each(|(position, (game, done))| {
            if cards.has(position) {
                return Ok(());
            }
            let output = load_again(root, validator, check_options, game)?;
            let home = pages::HomeGame::of(&output);
            anyhow::ensure!(
                home_digest(&home) == done.record.home,
                msg!("build-files-changed", game = game.id.as_str())
            );
            cards.put(position, &home, &site_locale)
        })
}

/// Renders the parts of one game into the staging directory: one part per
/// document and output kind, so editing one locale's file renders and
/// compresses that locale's files only. A document's files depend on the
/// game's registry entry, the locales it has documents in (the pages link
/// to each other), the document itself and the compression; its page on
/// nothing more. Returns what the home pages show of the game, its documents'
/// digests, the records of its files and the tally.
#[allow(clippy::type_complexity)]
fn render_game(
    game: GameOutput,
    salt: &CacheSalt,
    site_locale: &str,
    how: &Render<'_>,
    staging: &write::Staging,
) -> anyhow::Result<(
    pages::HomeGame,
    Vec<(String, usize)>,
    Vec<manifest::FileRecord>,
    Tally,
)> {
    let entry = serde_json::to_vec(&game.game).unwrap_or_default();
    let json: Vec<Vec<u8>> = game.documents.iter().map(LocaleDocument::to_json).collect();
    let locales: Vec<u8> = game
        .documents
        .iter()
        .flat_map(|d| [d.locale.as_bytes(), if d.is_default { b"*;" } else { b";" }])
        .flatten()
        .copied()
        .collect();
    let compression = how.compression.cache_key();
    let compression = compression.as_bytes();
    let mut parts = Vec::with_capacity(game.documents.len() * 2);
    for (doc, bytes) in game.documents.iter().zip(&json) {
        let named: [&[u8]; 7] = [
            b"game",
            &entry,
            &locales,
            doc.locale.as_bytes(),
            if doc.is_default { b"default" } else { b"other" },
            compression,
            bytes,
        ];
        parts.push(Part {
            key: Key::new(salt, &[&[b"api".as_slice()], &named[..]].concat()),
            work: Work::Api(&game, doc, bytes),
        });
        parts.push(Part {
            key: Key::new(
                salt,
                &[&[b"page".as_slice(), site_locale.as_bytes()], &named[..]].concat(),
            ),
            work: Work::Page(&game, doc, site_locale),
        });
    }
    let (tally, files) = parts
        .into_par_iter()
        .with_max_len(1)
        .map(|part| run_part(part, how, staging))
        .try_reduce(
            || (Tally::default(), Vec::new()),
            |(a, mut fa), (b, fb)| {
                fa.extend(fb);
                Ok((a + b, fa))
            },
        )?;
    let digests = json
        .iter()
        .map(|bytes| (hex::encode(Sha256::digest(bytes)), bytes.len()))
        .collect();
    // The shared files need the headers of the documents, and the home
    // pages the activities that have not ended.
    let home = pages::HomeGame::of(&game);
    Ok((home, digests, files, tally))
}

/// Runs one part: takes its files from the cache, or renders them, writes
/// them, compresses the text files among them (identical files once: a
/// game's default-locale document under two names) and writes and stores
/// the siblings (unless compression was deferred). Returns the records of the
/// files written.
fn run_part(
    part: Part<'_>,
    how: &Render<'_>,
    staging: &write::Staging,
) -> anyhow::Result<(Tally, Vec<manifest::FileRecord>)> {
    if let Some(cache) = how.cache
        && let Some(entries) = cache.get(&part.key)
    {
        let files: Vec<OutputFile> = entries.into_iter().map(|e| e.file).collect();
        let records = staging.write(&files)?;
        return Ok((
            Tally {
                reused: 1,
                ..Tally::of(&files)
            },
            records,
        ));
    }
    let files = match part.work {
        Work::Api(game, doc, json) => {
            let mut files = doc_api_files(game, doc, json);
            files.extend(ics::calendars_of(game, doc));
            files
        }
        Work::Page(game, doc, site_locale) => {
            vec![pages::render_page(game, doc, site_locale)?]
        }
        Work::Ready(file) => vec![file],
    };
    // Whether this build writes siblings, and brotli ones among them.
    let (gzip, brotli) = match how.defer {
        Defer::Nothing => (true, true),
        Defer::Brotli => (true, false),
        Defer::All => (false, false),
    };
    let (written, compressed) = rayon::join(
        || staging.write(&files),
        || -> Vec<Vec<OutputFile>> {
            let mut first: std::collections::HashMap<&[u8], usize> = Default::default();
            let sources: Vec<usize> = files
                .iter()
                .enumerate()
                .map(|(i, file)| *first.entry(&file.bytes).or_insert(i))
                .collect();
            let unique: Vec<Vec<OutputFile>> = (0..files.len())
                .into_par_iter()
                .map(|i| {
                    if gzip && sources[i] == i {
                        publish::siblings(&files[i], how.compression, brotli)
                    } else {
                        Vec::new()
                    }
                })
                .collect();
            // Each file gets the siblings of its first copy, renamed.
            files
                .iter()
                .zip(&sources)
                .map(|(file, &s)| {
                    unique[s]
                        .iter()
                        .map(|sib| OutputFile {
                            path: format!("{}{}", file.path, &sib.path[files[s].path.len()..]),
                            bytes: sib.bytes.clone(),
                        })
                        .collect()
                })
                .collect()
        },
    );
    let mut records = written?;
    let deferred = if (gzip || how.compression == Compression::None)
        && (brotli || !how.compression.has_brotli())
    {
        0
    } else {
        files.iter().filter(|f| layout::is_text(&f.path)).count()
    };
    let mut entries = Vec::with_capacity(files.len() * 3);
    for (file, siblings) in files.into_iter().zip(compressed) {
        entries.push(cache::Entry {
            file,
            sibling: false,
        });
        entries.extend(siblings.into_iter().map(|file| cache::Entry {
            file,
            sibling: true,
        }));
    }
    let siblings: Vec<OutputFile> = entries
        .iter()
        .filter(|e| e.sibling)
        .map(|e| e.file.clone())
        .collect();
    records.extend(staging.write(&siblings)?);
    // A failed cache write costs the next build time, nothing else.
    let stored = deferred == 0
        && how
            .cache
            .is_some_and(|cache| cache.put(&part.key, &entries).is_ok());
    let mut tally = Tally::of(entries.iter().map(|e| &e.file));
    tally.rendered = 1;
    tally.stored = usize::from(stored);
    tally.deferred = deferred;
    Ok((tally, records))
}

impl Tally {
    /// The count and bytes of the files `records` name.
    fn of_records(records: &[manifest::FileRecord]) -> Tally {
        let mut tally = Tally::default();
        for record in records {
            tally.files += 1;
            tally.bytes += record.bytes;
        }
        tally
    }

    /// The count and bytes of `files`.
    fn of<'a>(files: impl IntoIterator<Item = &'a OutputFile>) -> Tally {
        let mut tally = Tally::default();
        for file in files {
            tally.files += 1;
            tally.bytes += file.bytes.len() as u64;
        }
        tally
    }
}

/// The JSON API: `<game>.json` for the default locale and `<game>-<locale>.json` for every locale.
pub fn api_files(games: &[GameOutput]) -> Vec<OutputFile> {
    games
        .iter()
        .flat_map(|game| {
            let json: Vec<Vec<u8>> = game.documents.iter().map(LocaleDocument::to_json).collect();
            api_files_of(game, &json)
        })
        .collect()
}

/// The JSON API files of one game, given its documents' JSON (one per document).
fn api_files_of(game: &GameOutput, json: &[Vec<u8>]) -> Vec<OutputFile> {
    game.documents
        .iter()
        .zip(json)
        .flat_map(|(doc, bytes)| doc_api_files(game, doc, bytes))
        .collect()
}

/// The JSON API files of one document: `<game>.json` too for the default
/// locale, and every alias `games.json` declares for it.
fn doc_api_files(game: &GameOutput, doc: &LocaleDocument, bytes: &[u8]) -> Vec<OutputFile> {
    let mut files = under_every_name(game, doc, "json", bytes);
    files.extend(
        layout::alias_paths(&game.game, &doc.locale).map(|path| OutputFile {
            path: path.to_owned(),
            bytes: bytes.to_vec(),
        }),
    );
    files
}

/// `bytes` under every name of a document's file with `ext`
/// ([`layout::published_paths`]: `<game>.<ext>` too for the default locale).
pub(crate) fn under_every_name(
    game: &GameOutput,
    doc: &LocaleDocument,
    ext: &str,
    bytes: &[u8],
) -> Vec<OutputFile> {
    layout::published_paths(&game.game, &doc.locale, doc.is_default, ext)
        .into_iter()
        .map(|(_, path)| OutputFile {
            path,
            bytes: bytes.to_vec(),
        })
        .collect()
}

/// The index's `dataSource` of `game`: its own, else the page of each locale
/// its typed sources name (`None` when neither gives one).
fn published_source(game: &crate::model::Game) -> Option<crate::model::Localized> {
    if let Some(source) = &game.data_source {
        return Some(source.clone());
    }
    let pages: indexmap::IndexMap<String, String> = game
        .locales
        .iter()
        .filter_map(|l| game.source_page(l).map(|url| (l.clone(), url.to_owned())))
        .collect();
    (!pages.is_empty()).then_some(crate::model::Localized::Many(pages))
}

/// `api/v1/games.json` ([`layout::Index`]): what a client needs to find every file.
fn index_file(
    games: &[(&GameOutput, &[(String, usize)])],
    announcements: Vec<layout::IndexAnnouncements>,
) -> OutputFile {
    let mut entries = Vec::new();
    for &(game, digests) in games {
        let Some(default) = game.documents.iter().find(|d| d.is_default) else {
            continue;
        };
        let mut files = Vec::new();
        for (doc, (sha256, bytes)) in game.documents.iter().zip(digests) {
            let json = layout::published_paths(&game.game, &doc.locale, doc.is_default, "json");
            let ics = layout::published_paths(&game.game, &doc.locale, doc.is_default, "ics");
            for ((default_name, json), (_, ics)) in json.into_iter().zip(ics) {
                files.push(layout::IndexFile {
                    locale: doc.locale.clone(),
                    default: default_name,
                    path: layout::url(&json),
                    calendar: layout::url(&ics),
                    sha256: sha256.clone(),
                    bytes: *bytes as u64,
                });
            }
        }
        entries.push(layout::IndexGame {
            id: game.game.id.clone(),
            name: Some(game.game.name.clone()),
            locales: game.game.locales.clone(),
            default_locale: Some(game.game.default_locale.clone()),
            time_zone: Some(game.game.time_zone_name().to_owned()),
            data_source: published_source(&game.game),
            version: default.document.version.clone(),
            version_name: default.document.version_name.clone(),
            start_time: default.document.start_time.to_string(),
            end_time: default.document.end_time.to_string(),
            files,
        });
    }
    OutputFile {
        path: layout::INDEX_PATH.to_owned(),
        bytes: to_pretty(&layout::Index {
            games: entries,
            announcements,
        })
        .into_bytes(),
    }
}
