//! Watching the inputs: `games.json`, `data/` and `schema/` under the root.
//! Changes are debounced (notify-debouncer-full) and each burst triggers one
//! [`rebuild_changes`](super::rebuild_changes) told which paths changed, so
//! an edit of one data file stamps that file, not the tree. When the
//! watcher may have missed events (an error, or the kernel's queue
//! overflowed), the rebuild is told it does not know, and looks at
//! everything. The output directory, the builder's staging directory and
//! editor temp files are ignored.
//!
//! This module decides when to build; what a build does is `site`'s business.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context as _;
use notify::event::{AccessKind, AccessMode};
use notify::{EventKind, RecursiveMode};
use notify_debouncer_full::{DebounceEventResult, Debouncer, RecommendedCache, new_debouncer};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::ServerState;
use crate::i18n::msg;
use crate::tree;

/// How long the inputs must be quiet before a rebuild starts: long enough to
/// take an editor's save (write, rename, chmod) as one change, short enough
/// not to be felt. Each event costs the debouncer a tick of a quarter of it.
pub const DEBOUNCE: Duration = Duration::from_millis(30);

/// Directories under the root whose whole tree is watched.
const WATCHED_DIRS: &[&str] = &[tree::DATA_DIR, tree::SCHEMA_DIR];
/// Files directly under the root that are watched.
const WATCHED_FILES: &[&str] = &[tree::REGISTRY_PATH];

/// Keeps the watcher running; dropping it stops watching.
pub struct WatchGuard {
    /// Owns the debouncer; aborting it drops the debouncer, which stops it.
    task: JoinHandle<()>,
}

impl Drop for WatchGuard {
    fn drop(&mut self) {
        self.task.abort();
    }
}

type Watcher = Debouncer<notify::RecommendedWatcher, RecommendedCache>;

/// Starts watching the root of `state` and rebuilding on change.
pub fn spawn(state: ServerState) -> anyhow::Result<WatchGuard> {
    let root = absolute(&state.options.root)?;
    let out = absolute(&state.options.out)?;
    // Each message: the input paths of one burst (relative to the root),
    // or `None` when what changed is not known.
    let (changed, mut changes) = mpsc::unbounded_channel::<Option<Vec<String>>>();
    let filter = Filter {
        root: root.clone(),
        out,
    };
    let handler = move |result: DebounceEventResult| match result {
        Ok(events) => {
            let mut paths = Vec::new();
            let mut unknown = false;
            for event in &events {
                unknown |= event.need_rescan();
                paths.extend(filter.inputs_changed(&event.kind, &event.paths));
            }
            if unknown {
                let _ = changed.send(None);
            } else if !paths.is_empty() {
                let _ = changed.send(Some(paths));
            }
        }
        Err(errors) => {
            for err in errors {
                tracing::warn!("{}", msg!("serve-watch-error", error = err.to_string()));
            }
            let _ = changed.send(None);
        }
    };
    let mut debouncer = new_debouncer(DEBOUNCE, None, handler).context(msg!("watch-start"))?;
    debouncer
        .watch(&root, RecursiveMode::NonRecursive)
        .with_context(|| msg!("watch-folder", path = root.display().to_string()))?;
    let mut watched = Vec::new();
    watch_new_dirs(&mut debouncer, &root, &mut watched);
    tracing::info!(
        "{}",
        msg!("serve-watching", root = root.display().to_string())
    );
    let task = tokio::spawn(async move {
        while let Some(first) = changes.recv().await {
            // One rebuild covers every change that arrived meanwhile.
            let mut changed = first;
            while let Ok(more) = changes.try_recv() {
                changed = match (changed, more) {
                    (Some(mut paths), Some(more)) => {
                        paths.extend(more);
                        Some(paths)
                    }
                    _ => None,
                };
            }
            if let Some(paths) = &mut changed {
                paths.sort();
                paths.dedup();
            }
            tracing::info!("{}", msg!("serve-rebuilding"));
            // Failures are recorded, printed and shown by `rebuild` itself.
            let _ = super::rebuild_changes(&state, changed).await;
            // `data/` or `schema/` may have just been created.
            watch_new_dirs(&mut debouncer, &root, &mut watched);
        }
    });
    Ok(WatchGuard { task })
}

/// Adds a recursive watch on each of `data/` and `schema/` that exists and is
/// not watched yet.
fn watch_new_dirs(debouncer: &mut Watcher, root: &Path, watched: &mut Vec<PathBuf>) {
    for dir in WATCHED_DIRS {
        let dir = root.join(dir);
        if watched.contains(&dir) || !dir.is_dir() {
            continue;
        }
        match debouncer.watch(&dir, RecursiveMode::Recursive) {
            Ok(()) => watched.push(dir),
            Err(err) => tracing::warn!(
                "{}",
                msg!(
                    "serve-watch-folder-failed",
                    path = dir.display().to_string(),
                    error = err.to_string()
                )
            ),
        }
    }
}

fn absolute(path: &Path) -> anyhow::Result<PathBuf> {
    let path = std::path::absolute(path)
        .with_context(|| msg!("err-resolve", path = path.display().to_string()))?;
    Ok(path.canonicalize().unwrap_or(path))
}

/// Which events are changes of the inputs.
struct Filter {
    root: PathBuf,
    out: PathBuf,
}

impl Filter {
    #[cfg(test)]
    fn is_relevant(&self, kind: &EventKind, paths: &[PathBuf]) -> bool {
        !self.inputs_changed(kind, paths).is_empty()
    }

    /// The inputs an event says changed, relative to the root with forward
    /// slashes (`data/ww/zh-CN.json`); none for a read or another path.
    fn inputs_changed(&self, kind: &EventKind, paths: &[PathBuf]) -> Vec<String> {
        let changes = match kind {
            // Reads (the builder's own included) are not changes.
            EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
            EventKind::Access(_) => false,
            _ => true,
        };
        if !changes {
            return Vec::new();
        }
        paths.iter().filter_map(|path| self.input(path)).collect()
    }

    /// `path` relative to the root, when it is an input.
    fn input(&self, path: &Path) -> Option<String> {
        if path.starts_with(&self.out) || is_editor_temp(path) {
            return None;
        }
        let relative = path.strip_prefix(&self.root).ok()?;
        let mut components = relative.components();
        let first = components.next()?.as_os_str();
        let nested = components.next().is_some();
        let watched = WATCHED_DIRS.iter().any(|dir| first == *dir)
            || (!nested && WATCHED_FILES.iter().any(|file| first == *file));
        watched.then(|| crate::relpath::slashed(relative))
    }
}

/// Swap, backup and lock files that editors write beside the real one.
fn is_editor_temp(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    name.starts_with('.')
        || name.starts_with('#')
        || name.ends_with('~')
        || name == "4913"
        || [".swp", ".swx", ".swo", ".tmp", ".bak", ".kate-swp"]
            .iter()
            .any(|suffix| name.ends_with(suffix))
        || name.contains("___jb_")
}

#[cfg(test)]
mod tests {
    use notify::event::{CreateKind, ModifyKind};

    use super::*;

    fn filter() -> Filter {
        Filter {
            root: PathBuf::from("/r"),
            out: PathBuf::from("/r/site"),
        }
    }

    fn relevant(path: &str) -> bool {
        filter().is_relevant(&EventKind::Modify(ModifyKind::Any), &[PathBuf::from(path)])
    }

    #[test]
    fn inputs_are_relevant() {
        assert!(relevant("/r/games.json"));
        assert!(relevant("/r/data/ww/zh-CN.json"));
        assert!(relevant("/r/data"));
        assert!(relevant("/r/schema/activity.schema.json"));
    }

    #[test]
    fn events_name_the_inputs_relative_to_the_root() {
        let renamed = EventKind::Modify(ModifyKind::Name(notify::event::RenameMode::Both));
        let paths = [
            PathBuf::from("/r/data/ww/.zh-CN.json.tmp"),
            PathBuf::from("/r/data/ww/zh-CN.json"),
        ];
        assert_eq!(
            filter().inputs_changed(&renamed, &paths),
            ["data/ww/zh-CN.json"]
        );
        let written = EventKind::Access(AccessKind::Close(AccessMode::Write));
        assert_eq!(
            filter().inputs_changed(&written, &[PathBuf::from("/r/games.json")]),
            ["games.json"]
        );
        let read = EventKind::Access(AccessKind::Close(AccessMode::Read));
        assert!(
            filter()
                .inputs_changed(&read, &[PathBuf::from("/r/games.json")])
                .is_empty()
        );
    }

    #[test]
    fn everything_else_is_ignored() {
        assert!(!relevant("/r/site/api/v1/activity/ww.json"));
        assert!(!relevant("/r/site.tmp/index.html"));
        assert!(!relevant("/r/README.md"));
        assert!(!relevant("/r/data/ww/.zh-CN.json.swp"));
        assert!(!relevant("/r/data/ww/zh-CN.json~"));
        assert!(!relevant("/r/data/ww/4913"));
        assert!(!relevant("/elsewhere/games.json"));
        let open = EventKind::Access(AccessKind::Open(notify::event::AccessMode::Any));
        assert!(!filter().is_relevant(&open, &[PathBuf::from("/r/games.json")]));
        let create = EventKind::Create(CreateKind::File);
        assert!(filter().is_relevant(&create, &[PathBuf::from("/r/data/x/en.json")]));
    }
}
