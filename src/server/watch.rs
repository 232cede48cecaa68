//! Watching the inputs: `games.json`, `data/` and `schema/` under the root.
//! Changes are debounced (notify-debouncer-full) and each burst triggers one
//! [`rebuild`](super::rebuild). The output directory, the builder's staging
//! directory and editor temp files are ignored.
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
    let (changed, mut changes) = mpsc::unbounded_channel::<()>();
    let filter = Filter {
        root: root.clone(),
        out,
    };
    let handler = move |result: DebounceEventResult| match result {
        Ok(events) => {
            if events
                .iter()
                .any(|event| filter.is_relevant(&event.kind, &event.paths))
            {
                let _ = changed.send(());
            }
        }
        Err(errors) => {
            for err in errors {
                tracing::warn!("watching the inputs: {err}");
            }
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
        while changes.recv().await.is_some() {
            // One rebuild covers every change that arrived meanwhile.
            while changes.try_recv().is_ok() {}
            tracing::info!("{}", msg!("serve-rebuilding"));
            // Failures are recorded, printed and shown by `rebuild` itself.
            let _ = super::rebuild(&state).await;
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
            Err(err) => tracing::warn!("cannot watch {}: {err}", dir.display()),
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
    fn is_relevant(&self, kind: &EventKind, paths: &[PathBuf]) -> bool {
        let changes = match kind {
            // Reads (the builder's own included) are not changes.
            EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
            EventKind::Access(_) => false,
            _ => true,
        };
        changes && paths.iter().any(|path| self.is_input(path))
    }

    fn is_input(&self, path: &Path) -> bool {
        if path.starts_with(&self.out) || is_editor_temp(path) {
            return false;
        }
        let Ok(relative) = path.strip_prefix(&self.root) else {
            return false;
        };
        let mut components = relative.components();
        let Some(first) = components.next() else {
            return false;
        };
        let first = first.as_os_str();
        let nested = components.next().is_some();
        WATCHED_DIRS.iter().any(|dir| first == *dir)
            || (!nested && WATCHED_FILES.iter().any(|file| first == *file))
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
