//! Watching the inputs: `games.json`, `data/` and `schema/` under the root.
//! Each burst of changes triggers one [`rebuild_changes`](super::rebuild_changes)
//! told which paths changed, so an edit of one data file stamps that file,
//! not the tree. When the watcher may have missed events (an error, or the
//! kernel's queue overflowed), the rebuild is told it does not know, and
//! looks at everything. The output directory, the builder's staging
//! directory and editor temp files are ignored.
//!
//! A burst ends when the inputs have been quiet for [`QUIET`] (every
//! event of any input starts the wait again, so one save, however many
//! files and renames it takes, is one burst), no input is left half
//! written (created or modified and not closed yet, waited for at most
//! [`WRITE_PATIENCE`]), and git is not in the middle of changing the work
//! tree: while the repository's `index.lock` exists (a checkout, reset,
//! merge, stash or rebase updates the files with it held) the burst goes
//! on, so a checkout of many games is built once, whole, never half. A
//! lock older than [`LOCK_PATIENCE`] is taken as left behind by a git
//! that died, and no longer waited for. A burst in which git ran (its lock
//! was waited for, or its `index` was written since the last burst) is
//! rebuilt looking at every input, not only those its events named so far:
//! the events of a checkout's last files may still be on their way.
//!
//! This module decides when to build; what a build does is `site`'s business.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use anyhow::Context as _;
use notify::event::{AccessKind, AccessMode, CreateKind, ModifyKind};
use notify::{EventKind, RecommendedWatcher, RecursiveMode, Watcher as _};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::ServerState;
use crate::i18n::msg;
use crate::tree;

/// How long the inputs must be quiet before a rebuild starts. An editor's
/// save (a probe, a backup renamed away, the file written and closed, the
/// backup removed) is a few system calls in a row, microseconds apart; a
/// writer that holds the file open while it writes is waited for by its
/// close, not by this. Short, since it is part of every edit's wait.
pub const QUIET: Duration = Duration::from_millis(8);

/// How long a burst waits at most for an input created or modified and
/// not closed yet (a writer that keeps a file open is built without it).
pub const WRITE_PATIENCE: Duration = Duration::from_secs(1);

/// How long a burst waits at most for git's `index.lock` to go. A lock
/// still there after that is taken as stale (left by a git that was
/// killed) and not waited for again.
pub const LOCK_PATIENCE: Duration = Duration::from_secs(10);

/// Directories under the root whose whole tree is watched.
const WATCHED_DIRS: &[&str] = &[tree::DATA_DIR, tree::SCHEMA_DIR];
/// Files directly under the root that are watched.
const WATCHED_FILES: &[&str] = &[tree::REGISTRY_PATH];

/// Keeps the watcher running; dropping it stops watching.
pub struct WatchGuard {
    /// Owns the watcher; aborting it drops the watcher, which stops it.
    task: JoinHandle<()>,
}

impl Drop for WatchGuard {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// What the watcher tells the burst of one event.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Change {
    /// The input at this path (relative to the root) changed.
    Input(String, Writing),
    /// Events may have been missed: what changed is not known.
    Unknown,
}

/// What an event says of a file being written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Writing {
    /// Created or modified: a writer may still hold it open.
    Started,
    /// Closed after writing, renamed into place, removed or renamed away:
    /// no writer of this path is left.
    Ended,
    /// Nothing about writing (its metadata, a directory).
    Neither,
}

/// Starts watching the root of `state` and rebuilding on change.
pub fn spawn(state: ServerState) -> anyhow::Result<WatchGuard> {
    let root = absolute(&state.options.root)?;
    let out = absolute(&state.options.out)?;
    let (changed, mut changes) = mpsc::unbounded_channel::<Change>();
    let filter = Filter {
        root: root.clone(),
        out,
    };
    let handler = move |result: notify::Result<notify::Event>| match result {
        Ok(event) if event.need_rescan() => {
            let _ = changed.send(Change::Unknown);
        }
        Ok(event) => {
            for change in filter.changes(&event.kind, &event.paths) {
                let _ = changed.send(change);
            }
        }
        Err(err) => {
            tracing::warn!("{}", msg!("serve-watch-error", error = err.to_string()));
            let _ = changed.send(Change::Unknown);
        }
    };
    let mut watcher =
        RecommendedWatcher::new(handler, notify::Config::default()).context(msg!("watch-start"))?;
    watcher
        .watch(&root, RecursiveMode::NonRecursive)
        .with_context(|| msg!("watch-folder", path = root.display().to_string()))?;
    let mut watched = Vec::new();
    watch_new_dirs(&mut watcher, &root, &mut watched);
    let mut git = GitLock::of(&root);
    tracing::info!(
        "{}",
        msg!("serve-watching", root = root.display().to_string())
    );
    let task = tokio::spawn(async move {
        while let Some(first) = changes.recv().await {
            let started = Instant::now();
            let mut burst = Burst::default();
            burst.add(first);
            let Some(waited_for_git) = settle(&mut changes, &mut burst, &mut git, started).await
            else {
                break;
            };
            let settled = started.elapsed();
            let events = burst.events;
            // Git changed the work tree: the events of its files may still
            // be on their way, so the rebuild looks at every file rather
            // than at those named so far, and builds the checkout whole.
            if waited_for_git | git.index_changed() {
                burst.unknown = true;
            }
            let Some(changed) = burst.changed() else {
                continue;
            };
            // How long the burst took to settle, from its first event.
            tracing::info!(
                settled = format!("{settled:.0?}"),
                events,
                "{}",
                msg!("serve-rebuilding")
            );
            // Failures are recorded, printed and shown by `rebuild` itself.
            let _ = super::rebuild_changes(&state, changed).await;
            // `data/` or `schema/` may have just been created.
            watch_new_dirs(&mut watcher, &root, &mut watched);
        }
    });
    Ok(WatchGuard { task })
}

/// Waits until the burst that began at `started` is over (see the
/// module's documentation), adding every change that arrives meanwhile.
/// Whether it waited for git; `None` when the watcher stopped.
async fn settle(
    changes: &mut mpsc::UnboundedReceiver<Change>,
    burst: &mut Burst,
    git: &mut GitLock,
    started: Instant,
) -> Option<bool> {
    let mut told = false;
    loop {
        match tokio::time::timeout(QUIET, changes.recv()).await {
            Ok(Some(change)) => {
                burst.add(change);
                continue;
            }
            Ok(None) => return None,
            Err(_quiet) => {}
        }
        let waited = started.elapsed();
        if !burst.writing.is_empty() && waited < WRITE_PATIENCE {
            continue;
        }
        if git.held(waited) {
            if !told {
                tracing::info!("{}", msg!("serve-waiting-for-git", path = git.display()));
                told = true;
            }
            continue;
        }
        return Some(told);
    }
}

/// The changes of one burst.
#[derive(Debug, Default)]
struct Burst {
    /// The inputs that changed.
    paths: Vec<String>,
    /// Whether events may have been missed.
    unknown: bool,
    /// The inputs created or modified and not closed since.
    writing: HashSet<String>,
    /// How many changes it took.
    events: usize,
}

impl Burst {
    fn add(&mut self, change: Change) {
        self.events += 1;
        match change {
            Change::Unknown => self.unknown = true,
            Change::Input(path, writing) => {
                match writing {
                    Writing::Started => {
                        self.writing.insert(path.clone());
                    }
                    Writing::Ended => {
                        self.writing.remove(&path);
                    }
                    Writing::Neither => {}
                }
                self.paths.push(path);
            }
        }
    }

    /// What to tell the rebuild: the inputs changed, sorted, or `None`
    /// when that is not known; nothing when no input changed.
    fn changed(self) -> Option<Option<Vec<String>>> {
        if self.unknown {
            return Some(None);
        }
        let mut paths = self.paths;
        if paths.is_empty() {
            return None;
        }
        paths.sort();
        paths.dedup();
        Some(Some(paths))
    }
}

/// Adds a recursive watch on each of `data/` and `schema/` that exists and is
/// not watched yet.
fn watch_new_dirs(watcher: &mut RecommendedWatcher, root: &Path, watched: &mut Vec<PathBuf>) {
    for dir in WATCHED_DIRS {
        let dir = root.join(dir);
        if watched.contains(&dir) || !dir.is_dir() {
            continue;
        }
        match watcher.watch(&dir, RecursiveMode::Recursive) {
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

/// The `index.lock` of the git repository the root is in, which git holds
/// while it changes the work tree.
#[derive(Debug)]
struct GitLock {
    /// `None` when the root is in no repository.
    path: Option<PathBuf>,
    /// The lock found stale: its size and modification time.
    stale: Option<(u64, Option<SystemTime>)>,
    /// The size and modification time of the repository's `index` when
    /// last looked at: git writes it after it changed the work tree.
    index: Option<(u64, Option<SystemTime>)>,
}

impl GitLock {
    /// The lock of the repository `root` is in (its own or an ancestor's;
    /// a `.git` file names the directory of a linked work tree).
    fn of(root: &Path) -> GitLock {
        let path = root.ancestors().find_map(|dir| {
            let dot_git = dir.join(".git");
            let meta = std::fs::metadata(&dot_git).ok()?;
            if meta.is_dir() {
                return Some(dot_git.join("index.lock"));
            }
            let text = std::fs::read_to_string(&dot_git).ok()?;
            let named = text.lines().find_map(|line| line.strip_prefix("gitdir:"))?;
            Some(dir.join(named.trim()).join("index.lock"))
        });
        let mut lock = GitLock {
            path,
            stale: None,
            index: None,
        };
        lock.index_changed();
        lock
    }

    /// Whether the repository's `index` changed since the last look (git
    /// ran a command that may have changed the work tree).
    fn index_changed(&mut self) -> bool {
        let now = self
            .path
            .as_ref()
            .and_then(|lock| std::fs::metadata(lock.with_file_name("index")).ok())
            .map(|meta| (meta.len(), meta.modified().ok()));
        std::mem::replace(&mut self.index, now) != now
    }

    /// The lock's path, for people.
    fn display(&self) -> String {
        self.path
            .as_ref()
            .map(|path| path.display().to_string())
            .unwrap_or_default()
    }

    /// Whether a burst that has waited `waited` must wait on: the lock is
    /// there and neither found stale before nor older than the patience.
    fn held(&mut self, waited: Duration) -> bool {
        let Some(meta) = self
            .path
            .as_ref()
            .and_then(|path| std::fs::symlink_metadata(path).ok())
        else {
            return false;
        };
        let identity = (meta.len(), meta.modified().ok());
        if self.stale == Some(identity) {
            return false;
        }
        if waited < LOCK_PATIENCE {
            return true;
        }
        if let Some(path) = &self.path {
            tracing::warn!(
                "{}",
                msg!(
                    "serve-git-lock-stale",
                    path = path.display().to_string(),
                    after = format!("{LOCK_PATIENCE:?}")
                )
            );
        }
        self.stale = Some(identity);
        false
    }
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
    #[cfg(test)]
    fn inputs_changed(&self, kind: &EventKind, paths: &[PathBuf]) -> Vec<String> {
        self.changes(kind, paths)
            .into_iter()
            .filter_map(|change| match change {
                Change::Input(path, _) => Some(path),
                Change::Unknown => None,
            })
            .collect()
    }

    /// The changes of the inputs an event says, with what it says of
    /// their writing; none for a read or another path.
    fn changes(&self, kind: &EventKind, paths: &[PathBuf]) -> Vec<Change> {
        let writing = match kind {
            // Reads (the builder's own included) are not changes.
            EventKind::Access(AccessKind::Close(AccessMode::Write)) => Some(Writing::Ended),
            EventKind::Access(_) => None,
            EventKind::Create(CreateKind::File) | EventKind::Modify(ModifyKind::Data(_)) => {
                Some(Writing::Started)
            }
            // A rename ends any writing of its source and puts a whole
            // file at its target; a removed file is written no more.
            EventKind::Modify(ModifyKind::Name(_)) | EventKind::Remove(_) => Some(Writing::Ended),
            _ => Some(Writing::Neither),
        };
        let Some(writing) = writing else {
            return Vec::new();
        };
        paths
            .iter()
            .filter_map(|path| Some(Change::Input(self.input(path)?, writing)))
            .collect()
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
    use notify::event::{DataChange, RemoveKind, RenameMode};

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

    /// The burst of a list of events, as the watcher gives them.
    fn burst(events: &[(EventKind, &[&str])]) -> Burst {
        let mut burst = Burst::default();
        for (kind, paths) in events {
            let paths: Vec<PathBuf> = paths.iter().map(PathBuf::from).collect();
            for change in filter().changes(kind, &paths) {
                burst.add(change);
            }
        }
        burst
    }

    const FILE: &str = "/r/data/ww/zh-CN.json";
    const CREATED: EventKind = EventKind::Create(CreateKind::File);
    const MODIFIED: EventKind = EventKind::Modify(ModifyKind::Data(DataChange::Any));
    const CLOSED: EventKind = EventKind::Access(AccessKind::Close(AccessMode::Write));
    const FROM: EventKind = EventKind::Modify(ModifyKind::Name(RenameMode::From));
    const TO: EventKind = EventKind::Modify(ModifyKind::Name(RenameMode::To));
    const BOTH: EventKind = EventKind::Modify(ModifyKind::Name(RenameMode::Both));
    const REMOVED: EventKind = EventKind::Remove(RemoveKind::File);

    #[test]
    fn an_editors_save_is_one_change_of_the_file_and_leaves_nothing_being_written() {
        let backup = "/r/data/ww/zh-CN.json~";
        let probe = "/r/data/ww/4913";
        // Vim's save (`backupcopy=auto`): the probe, the file renamed to its
        // backup, a new file written and closed, the backup removed.
        let vim = burst(&[
            (CREATED, &[probe]),
            (CLOSED, &[probe]),
            (REMOVED, &[probe]),
            (FROM, &[FILE]),
            (TO, &[backup]),
            (BOTH, &[FILE, backup]),
            (CREATED, &[FILE]),
            (MODIFIED, &[FILE]),
            (CLOSED, &[FILE]),
            (REMOVED, &[backup]),
        ]);
        assert!(vim.writing.is_empty(), "{vim:?}");
        assert_eq!(
            vim.changed(),
            Some(Some(vec!["data/ww/zh-CN.json".to_owned()]))
        );
        // JetBrains' safe write: a temporary written, the file renamed to
        // `___jb_old___`, the temporary renamed over it, the old one removed.
        let (tmp, old) = (
            "/r/data/ww/zh-CN.json___jb_tmp___",
            "/r/data/ww/zh-CN.json___jb_old___",
        );
        let jetbrains = burst(&[
            (CREATED, &[tmp]),
            (MODIFIED, &[tmp]),
            (CLOSED, &[tmp]),
            (BOTH, &[FILE, old]),
            (BOTH, &[tmp, FILE]),
            (REMOVED, &[old]),
        ]);
        assert!(jetbrains.writing.is_empty(), "{jetbrains:?}");
        assert_eq!(
            jetbrains.changed(),
            Some(Some(vec!["data/ww/zh-CN.json".to_owned()]))
        );
    }

    #[test]
    fn a_file_written_and_not_closed_yet_holds_the_burst() {
        let open = burst(&[(CREATED, &[FILE]), (MODIFIED, &[FILE])]);
        assert_eq!(open.writing.len(), 1, "{open:?}");
        let closed = burst(&[(MODIFIED, &[FILE]), (CLOSED, &[FILE])]);
        assert!(closed.writing.is_empty(), "{closed:?}");
        // Only temporary files: nothing to rebuild.
        assert_eq!(burst(&[(CREATED, &["/r/data/ww/4913"])]).changed(), None);
        // Missed events: everything is looked at.
        let mut missed = burst(&[(MODIFIED, &[FILE])]);
        missed.add(Change::Unknown);
        assert_eq!(missed.changed(), Some(None));
    }

    #[test]
    fn the_lock_of_the_repository_holds_the_burst_until_it_goes_or_is_stale() {
        let repo = tempfile::tempdir().unwrap();
        let root = repo.path().join("site-data");
        std::fs::create_dir_all(repo.path().join(".git")).unwrap();
        std::fs::create_dir_all(&root).unwrap();
        let mut git = GitLock::of(&root);
        let lock = repo.path().join(".git/index.lock");
        assert_eq!(git.path.as_deref(), Some(lock.as_path()));
        assert!(!git.held(Duration::ZERO), "no lock, no wait");
        std::fs::write(&lock, "").unwrap();
        assert!(git.held(Duration::ZERO), "a checkout under way");
        assert!(
            !git.held(LOCK_PATIENCE),
            "a lock older than the patience is stale"
        );
        assert!(!git.held(Duration::ZERO), "and stays stale");
        // The next git's lock is waited for again.
        std::fs::remove_file(&lock).unwrap();
        std::fs::write(&lock, "a new lock").unwrap();
        assert!(git.held(Duration::ZERO));
        // Git writes its index once it changed the work tree.
        assert!(!git.index_changed());
        std::fs::write(repo.path().join(".git/index"), "index").unwrap();
        assert!(git.index_changed());
        assert!(!git.index_changed(), "once");

        // A linked work tree's `.git` file names its git directory.
        let linked = tempfile::tempdir().unwrap();
        std::fs::write(
            linked.path().join(".git"),
            format!("gitdir: {}\n", repo.path().join(".git").display()),
        )
        .unwrap();
        assert_eq!(GitLock::of(linked.path()).path, Some(lock));
    }
}
