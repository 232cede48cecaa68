//! The library's options from the flags several commands share: a
//! build's (`build`, `serve`) and a check's (every data command).

use std::path::Path;

use crate::cli::{CacheArgs, Compress, OutputArgs};
use crate::i18n::msg;
use crate::root::Workspace;
use crate::site::{self, BuildOptions, CacheOptions, Compression, OutputState};

/// The check's options from the flags every data command shares.
pub(super) fn check(ws: &Workspace) -> crate::validate::Options {
    crate::validate::Options {
        now: ws.now,
        base: None,
    }
}

/// [`check`] with a base for `missing-id`'s evidence, for the commands
/// that fix (`check`, the editor's and the agents' servers): revision
/// `rev` when given (`check --changed-since REV`: an unknown revision is
/// an error), else the checkout's `HEAD` when the root is in a git
/// repository.
pub(super) fn check_with_base(
    ws: &Workspace,
    rev: Option<&str>,
) -> anyhow::Result<crate::validate::Options> {
    let base = match rev {
        Some(rev) => Some(crate::bases::ids_at(&ws.root, rev)?),
        None => crate::bases::head_ids(&ws.root),
    };
    Ok(crate::validate::Options {
        now: ws.now,
        base: base.map(std::sync::Arc::new),
    })
}

/// The options of a build of the root to `out` from the flags `build` and
/// `serve` share, once [`announce_force`] has let it go ahead: nothing
/// deferred.
pub(super) fn build(
    ws: &Workspace,
    out: &Path,
    output: &OutputArgs,
) -> anyhow::Result<BuildOptions> {
    announce_force(&ws.root, out, output.force)?;
    Ok(BuildOptions {
        root: ws.root.clone(),
        out: out.to_path_buf(),
        now: ws.now,
        cache: cache_options(&output.cache, &ws.root),
        compression: output.compress.into(),
        defer: site::Defer::Nothing,
        force: output.force,
        progress: None,
        site_url: output.site_url.clone(),
        loader: Default::default(),
    })
}

/// Says, once per command (after `build`'s site is written, when `serve`
/// starts), which links stay relative for want of `--site-url`.
pub(super) fn note_site_url(output: &OutputArgs) {
    if output.site_url.is_none() {
        super::say(msg!("build-no-site-url"));
    }
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
            super::say(line);
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
