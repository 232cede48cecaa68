//! The root a command works on, and the files named on its command line as
//! paths of that root: `--root` wins; otherwise, like `cargo` and `git`,
//! the nearest folder at or above the current one that holds `games.json`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use anyhow::Context as _;

use crate::i18n::msg;
use crate::tree::REGISTRY_PATH;

/// What every command that works on a tree receives, resolved once from
/// the global flags before the command runs: nothing in it is filled in
/// later.
#[derive(Debug, Clone)]
pub struct Workspace {
    /// The root the command works on: `--root`, or the one found
    /// ([`of_data`], [`of_any`]).
    pub root: PathBuf,
    /// Pinned "now" (`--now`); `None` reads the clock.
    pub now: Option<crate::clock::Now>,
}

impl Workspace {
    /// The output directory: `out` as given, else `<root>/site`.
    pub fn out_dir(&self, out: Option<&PathBuf>) -> PathBuf {
        out.cloned().unwrap_or_else(|| self.root.join("site"))
    }
}

/// The root of a command that reads the data: `--root`, else the nearest
/// folder with `games.json`; none is an error that says where it looked.
/// A root without `games.json` (run in the wrong folder) is refused too,
/// with one line, before a command prints an empty table, reports a file
/// that is not there, or creates state in that folder. A root that cannot
/// be read at all is the loader's error.
pub fn of_data(flag: Option<&Path>) -> anyhow::Result<PathBuf> {
    let root = match flag {
        Some(root) => root.to_path_buf(),
        None => {
            let cwd = std::env::current_dir()?;
            nearest(&cwd).ok_or_else(|| {
                anyhow::Error::new(msg!(
                    "no-registry-above",
                    registry = REGISTRY_PATH,
                    folder = cwd.display().to_string()
                ))
            })?
        }
    };
    if root.is_dir() && !root.join(REGISTRY_PATH).exists() {
        return Err(anyhow::Error::new(msg!(
            "no-registry",
            registry = REGISTRY_PATH,
            root = root.display().to_string()
        )));
    }
    Ok(root)
}

/// The root of a command that may start without data: `import` creates
/// `games.json`, `publish` reads a built site, and `lsp` and `mcp` serve
/// whatever folder an editor or agent opens (a missing registry is a
/// diagnostic there). `--root`, else the nearest folder with `games.json`,
/// else the current folder.
pub fn of_any(flag: Option<&Path>) -> anyhow::Result<PathBuf> {
    if let Some(root) = flag {
        return Ok(root.to_path_buf());
    }
    let cwd = std::env::current_dir()?;
    Ok(nearest(&cwd).unwrap_or_else(|| PathBuf::from(".")))
}

/// The nearest folder at or above `cwd` that holds `games.json`, relative
/// to `cwd` when it is `cwd` itself (paths print short).
fn nearest(cwd: &Path) -> Option<PathBuf> {
    let found = cwd
        .ancestors()
        .find(|dir| dir.join(REGISTRY_PATH).is_file())?;
    Some(match found.strip_prefix(cwd) {
        Ok(rel) if rel.as_os_str().is_empty() => PathBuf::from("."),
        _ => found.to_path_buf(),
    })
}

/// The files of `paths` as paths of the root: each is looked for from the
/// current folder, then under the root (`check --root contrib
/// data/sr/zh-CN.json`); `None` for no paths (the whole tree).
pub fn named_files(root: &Path, paths: &[PathBuf]) -> anyhow::Result<Option<BTreeSet<String>>> {
    if paths.is_empty() {
        return Ok(None);
    }
    let base = root
        .canonicalize()
        .with_context(|| msg!("err-read-root", path = root.display().to_string()))?;
    let mut named = BTreeSet::new();
    for path in paths {
        let full = match path.canonicalize() {
            Ok(full) => full,
            Err(_) => root.join(path).canonicalize().map_err(|_| {
                anyhow::Error::new(msg!(
                    "err-find-named",
                    path = path.display().to_string(),
                    root = root.display().to_string()
                ))
            })?,
        };
        let rel = full.strip_prefix(&base).map_err(|_| {
            anyhow::Error::new(msg!(
                "err-outside-root",
                path = path.display().to_string(),
                root = base.display().to_string()
            ))
        })?;
        named.insert(crate::relpath::slashed(rel));
    }
    Ok(Some(named))
}
