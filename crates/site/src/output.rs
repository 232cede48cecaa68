//! The front of a build: check, then render into a staging directory and
//! swap it in ([`build`], [`write_site`]), and the guards that refuse an
//! output or cache this tool must not touch.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Context as _;

use crate::clock::Now;
use crate::diagnostics::Diagnostic;
use crate::i18n::msg;
use crate::layout::SiteUrl;
use crate::validate;

use super::cache;
use super::cache::CacheSalt;
use super::check::check_for_build;
use super::compress::Compression;
use super::render::{Defer, Progress};
use super::render::{Inputs, Render, render};
use super::{manifest, write};
use crate::load::Loader;
use crate::source::Tree;

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
    /// the inputs); see [`super::write::inspect_output`].
    pub force: bool,
    /// Told after each game rendered (`None`: nobody asks).
    pub progress: Option<Progress>,
    /// The site's public address (`--site-url`): its absolute links are
    /// made under it; `None` leaves them relative to where a file is read.
    pub site_url: Option<SiteUrl>,
    /// What reads the tree ([`build`] enters it once; a clone handed in
    /// here counts for its caller).
    pub loader: Loader,
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
            site_url: None,
            loader: Loader::default(),
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
        crate::tree::cache_dir(root)
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

/// Checks the tree and, when it has no errors, writes the site atomically.
/// `Err` only when the tool itself fails (unreadable root, unwritable output,
/// a cache directory it does not own, inputs that change during the build).
///
/// The tree is read into memory once; it is checked first without keeping
/// documents; then each game is validated again from memory and rendered,
/// and its files go into the staging directory as they are finished, so
/// memory holds the tree's text and the games in flight, not the site.
pub fn build(options: &BuildOptions) -> anyhow::Result<BuildOutcome> {
    let started = Instant::now();
    let tree = options
        .loader
        .load(&options.root, &crate::source::Overlay::new())?;
    build_tree(options, tree, started).map(|(outcome, _)| outcome)
}

/// [`build`] from the tree at `options.root` read already
/// ([`crate::load::load`]): nothing under the root is read again. The
/// tree comes back with the outcome (`diff` points into its files).
pub fn build_loaded(options: &BuildOptions, tree: Tree) -> anyhow::Result<(BuildOutcome, Tree)> {
    build_tree(options, tree, Instant::now())
}

fn build_tree(
    options: &BuildOptions,
    tree: Tree,
    started: Instant,
) -> anyhow::Result<(BuildOutcome, Tree)> {
    write::guard_output(&options.root, &options.out, options.force)?;
    if let Some(cache) = &options.cache {
        guard_cache(&cache.dir, &options.out)?;
    }
    // One "now" for the check and the render, read once (to the minute
    // when it is the clock's, as the pages are).
    let check_options = validate::Options {
        now: Some(Now::pinned_or_clock(options.now)),
        ..Default::default()
    };
    let salt = options.salt();
    // The output's manifest says which games' last check found nothing;
    // what the output holds is checked while the tree is.
    let previous = write::Previous::read(&options.out)?;
    let clean = previous.clean_checks(check_options.now.unwrap_or_else(Now::read));
    let known_warnings = previous.warnings();
    let (checked, staging) = rayon::join(
        || check_for_build(tree, &check_options, &salt, &clean),
        || write::Staging::after(&options.out, previous),
    );
    let (checked, prepared) = checked?;
    if checked.has_errors() {
        let outcome = BuildOutcome {
            diagnostics: checked.diagnostics,
            summary: None,
            known_warnings,
        };
        return Ok((outcome, prepared.tree));
    }
    let from = Inputs {
        checked: &checked,
        prepared: &prepared,
        check_options: &check_options,
        kept: None,
    };
    let (summary, _) = write_site(options, &from, started, staging?)?;
    let outcome = BuildOutcome {
        diagnostics: checked.diagnostics,
        summary: Some(summary),
        known_warnings,
    };
    Ok((outcome, prepared.tree))
}

/// Writes the site of a clean check (`from.checked.sources` filled) to
/// the output, at the cost of what changed since the output was built.
///
/// `staging` is what the output holds ([`write::Staging::create`]); the
/// returned [`write::Memo`] is what the build left there, for the next
/// build of the same process.
pub(crate) fn write_site(
    options: &BuildOptions,
    from: &Inputs<'_>,
    started: Instant,
    staging: write::Staging,
) -> anyhow::Result<(BuildSummary, write::Memo)> {
    let checked = from.checked;
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
        site_url: options.site_url.as_ref(),
    };
    let (tally, mut manifest) = render(from, &how, &staging)?;
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
