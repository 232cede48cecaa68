//! `build`: check the tree, write the site through [`crate::site::build`], print what was written.

use std::path::Path;
use std::process::ExitCode;

use crate::cli::{BuildArgs, CacheArgs, Common, Compress, OutputArgs};
use crate::diagnostics;
use crate::i18n::msg;
use crate::site::{self, BuildOptions, CacheOptions, Compression, OutputState};

pub fn run(args: BuildArgs) -> anyhow::Result<ExitCode> {
    let out = args.common.out_dir(args.output.out.as_ref());
    let mut options = options(&args.common, &out, &args.output)?;
    // A bar on a terminal while games are rendered; nothing in CI or a pipe.
    let bar: std::sync::Arc<std::sync::OnceLock<indicatif::ProgressBar>> = Default::default();
    let shown = std::sync::Arc::clone(&bar);
    options.progress = Some(site::Progress(std::sync::Arc::new(move |done, total| {
        let bar = shown.get_or_init(|| {
            let games = msg!("build-progress-games");
            super::progress_bar(
                total as u64,
                &format!("{{bar:30}} {{pos}}/{{len}} {games} {{elapsed}}"),
            )
        });
        bar.set_position(done as u64);
    })));
    let outcome = site::build(&options);
    if let Some(bar) = bar.get() {
        bar.finish_and_clear();
    }
    let outcome = outcome?;
    let has_errors = outcome.summary.is_none();
    if args.format == diagnostics::Format::Human {
        // New since the previous build in full; the rest counted.
        let (new, unchanged) = outcome.new_since_last();
        let text = diagnostics::render_human(&new, super::stderr_color(), &|file| {
            std::fs::read_to_string(args.common.root.join(file)).ok()
        });
        super::print_err(&text);
        if unchanged > 0 {
            eprintln!("{}", msg!("build-unchanged-warnings", count = unchanged));
        }
        if !outcome.diagnostics.is_empty() {
            let counts = diagnostics::count(&outcome.diagnostics);
            eprintln!("{}", diagnostics::checked_line(counts));
        }
    } else if has_errors || !outcome.diagnostics.is_empty() {
        // Data for programs: every diagnostic, each time.
        super::check::report(&args.common.root, &outcome.diagnostics, args.format)?;
    }
    match outcome.summary {
        Some(summary) => {
            let line = msg!(
                "build-done",
                out = out.display().to_string(),
                files = summary.files,
                size = crate::publish::plan::human_bytes(summary.bytes),
                elapsed = format!("{:.0?}", summary.elapsed),
                reused = summary.reused,
                parts = summary.reused + summary.rendered,
                checked = summary.checked,
                games = summary.games
            );
            eprintln!("{line}");
            if let Some(place) = &summary.set_aside {
                let line = msg!(
                    "build-set-aside",
                    out = site::shown_output(&out),
                    place = place.display().to_string()
                );
                eprintln!("{line}");
            }
            Ok(ExitCode::SUCCESS)
        }
        None => {
            let counts = diagnostics::count(&outcome.diagnostics);
            let line = msg!(
                "build-failed",
                errors = counts.errors,
                out = out.display().to_string()
            );
            eprintln!("{line}");
            Ok(ExitCode::from(1))
        }
    }
}

/// The options of a build of the root to `out` from the flags `build` and
/// `serve` share, once [`announce_force`] has let it go ahead: nothing
/// deferred.
pub(super) fn options(
    common: &Common,
    out: &Path,
    output: &OutputArgs,
) -> anyhow::Result<BuildOptions> {
    announce_force(&common.root, out, output.force)?;
    Ok(BuildOptions {
        root: common.root.clone(),
        out: out.to_path_buf(),
        now: common.now,
        cache: cache_options(&output.cache, &common.root),
        compression: output.compress.into(),
        defer: site::Defer::Nothing,
        force: output.force,
        progress: None,
    })
}

/// Refuses an output directory the build may not replace, and with
/// `--force` says what a build will replace before it does.
fn announce_force(root: &Path, out: &Path, force: bool) -> anyhow::Result<()> {
    let state = site::inspect_output(root, out)?;
    if let OutputState::Foreign { files, first } = state {
        if force {
            let line = msg!(
                "build-force",
                out = site::shown_output(out),
                files = files,
                first = first.join(", "),
                more = files.saturating_sub(first.len())
            );
            eprintln!("{line}");
        } else {
            // The builder refuses it with the full message.
            site::guard_output(root, out, force)?;
        }
    }
    Ok(())
}

/// The cache options of a build of `root`: `None` with `--no-cache`.
fn cache_options(args: &CacheArgs, root: &std::path::Path) -> Option<CacheOptions> {
    if args.no_cache {
        return None;
    }
    let dir = args
        .cache_dir
        .clone()
        .unwrap_or_else(|| CacheOptions::default_dir(root));
    Some(CacheOptions::new(dir))
}

impl From<Compress> for Compression {
    fn from(compress: Compress) -> Self {
        match compress {
            Compress::Fast => Compression::Fast,
            Compress::Max => Compression::Max,
            Compress::None => Compression::None,
        }
    }
}
