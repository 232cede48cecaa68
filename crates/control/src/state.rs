//! The state directory: its layout, atomic writes, the lock, reads that
//! move a corrupt file aside, and what the server passes over.
//!
//! Every file the control service writes goes through [`write_atomic`], the
//! crate's one atomic write ([`stdx::atomic`]), so a reader (or a restart
//! after a crash) sees either the old content or the new one, never half of
//! it.
//!
//! The directory is shared: the real backend (`sra-cli`) and the desktop
//! client read and write the same `settings.json` and `configs/`, and a
//! person may edit them. So the server keeps no copy of a state file in
//! memory: every read reads the file as it is now, and every change takes
//! [`lock`] (an advisory lock on [`layout::LOCK`] that other programs may
//! take too), reads the file, applies the change and writes it atomically.
//! Files and folders the server did not make are passed over ([`Strays`]),
//! never fatal. This module knows nothing about what the files mean.

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use anyhow::Context;

use crate::error::{Error, Result};
use crate::logs::LogBuffer;
use stdx::atomic;

/// The layout of the state directory, the one place its names are spelled.
pub mod layout {
    /// The task configurations, `configs/<name>.json`.
    pub const CONFIGS: &str = "configs";
    /// The suffix of a configuration's file in [`CONFIGS`].
    pub const CONFIG_SUFFIX: &str = ".json";
    /// The application settings.
    pub const SETTINGS: &str = "settings.json";
    /// The extensions, one folder each: `extensions/<id>/`.
    pub const EXTENSIONS: &str = "extensions";
    /// An extension's manifest, the extension's own file.
    pub const EXTENSION_MANIFEST: &str = "extension.json";
    /// An extension's stored configuration, the server's file.
    pub const EXTENSION_CONFIG: &str = "config.json";
    /// The backend's working files (the screenshot, a temporary
    /// configuration, the child's home folder).
    pub const BACKEND: &str = "backend";
    /// Where the backend saves the screenshot.
    pub const SCREENSHOT: &str = "backend/screenshot.png";
    /// Where a configuration run with `persist: false` is written for the
    /// backend to read.
    pub const TEMPORARY_CONFIG: &str = "backend/run-config.json";
    /// The backend's home folder (see `supervisor::app_data_home`).
    pub const BACKEND_HOME: &str = "backend/home";
    /// The lock every change to a state file holds ([`super::lock`]).
    pub const LOCK: &str = "state.lock";
    /// What a corrupt file is renamed to: `<name>.corrupt-<n>`.
    pub const CORRUPT_INFIX: &str = ".corrupt-";

    /// Whether `name` is one of the server's own names at the top of the
    /// state directory (a file moved aside as corrupt included).
    pub fn is_ours(name: &str) -> bool {
        [CONFIGS, SETTINGS, EXTENSIONS, BACKEND, LOCK].contains(&name) || is_moved_aside(name)
    }

    /// Whether `name` is a file the server moved aside (`<name>.corrupt-<n>`).
    pub fn is_moved_aside(name: &str) -> bool {
        name.rsplit_once(CORRUPT_INFIX).is_some_and(|(stem, n)| {
            !stem.is_empty() && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())
        })
    }
}

/// The lock held while a state file is read, changed and written: an
/// exclusive advisory lock (`flock` on Unix, `LockFileEx` on Windows) on
/// `<state>/state.lock`, taken on a file opened for this change alone, so
/// it also orders the server's own threads. Another program that takes the
/// same lock around its read-modify-write is never interleaved with the
/// server's; one that does not may still rewrite the file between the
/// server's read and its write, and then the later write wins (SECURITY.md).
#[derive(Debug)]
pub struct StateLock {
    _file: fs::File,
}

/// Takes [`StateLock`] of the state directory `state_dir`; blocks until it
/// is free (its holders never wait on anything but the disk).
pub fn lock(state_dir: &Path) -> Result<StateLock> {
    let path = state_dir.join(layout::LOCK);
    let taken = fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .and_then(|file| file.lock().map(|()| file));
    match taken {
        Ok(file) => Ok(StateLock { _file: file }),
        Err(e) => {
            tracing::error!("cannot lock {}: {e}", path.display());
            Err(Error::Storage(format!(
                "cannot take the state directory's lock `{}`: {}; help: check that the state directory is writable",
                layout::LOCK,
                cause(&e)
            )))
        }
    }
}

/// Files and folders in the state directory that the server did not make:
/// each is left as it is, never read as state, and named once in the log
/// (the backend log clients read, by its path inside the state directory,
/// and the server's log by its full path), whenever it is first met: at
/// start-up, on a reload or on any request. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Strays {
    state_dir: Arc<PathBuf>,
    named: Arc<Mutex<HashSet<PathBuf>>>,
    log: LogBuffer,
}

impl Strays {
    pub fn new(state_dir: &Path, log: LogBuffer) -> Strays {
        Strays {
            state_dir: Arc::new(state_dir.to_path_buf()),
            named: Arc::default(),
            log,
        }
    }

    /// Names `path` in the log the first time it is passed over; `what`
    /// says what it is not (for example "a configuration").
    pub fn pass_over(&self, path: &Path, what: &str) {
        let first = self
            .named
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(path.to_path_buf());
        if !first {
            return;
        }
        let shown = stdx::relpath::below(&self.state_dir, path);
        tracing::info!("{} is not {what}; the server ignores it", path.display());
        self.log.warning(&format!(
            "`{shown}` in the state directory is not {what}; it is left as it is and ignored"
        ));
    }

    /// Passes over every entry at the top of the state directory that is
    /// not one of the server's names ([`layout::is_ours`]) nor a temporary
    /// file of a write a crash cut short.
    pub fn scan_top(&self) {
        for entry in fs::read_dir(&*self.state_dir)
            .into_iter()
            .flatten()
            .flatten()
        {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if !layout::is_ours(&name) && !is_leftover(&name) {
                self.pass_over(&entry.path(), "a file of the server");
            }
        }
    }
}

/// Writes `bytes` to `path` atomically ([`stdx::atomic`]), readable by
/// its owner only: configurations hold credentials. (The simulator's
/// screenshot; state files go through [`write_json`].)
pub fn write_atomic(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    atomic::write_with(path, bytes, atomic::Options::PRIVATE)
        .with_context(|| format!("cannot write {}", path.display()))
}

/// How a message to a client names a state file: by what it holds
/// (`configuration `Default``, `the stored configuration of extension
/// `daily-checkin``), never by its path on the server. The full path goes
/// to the server's log.
pub fn describe(path: &Path) -> String {
    let name = |p: Option<&Path>| {
        p.and_then(Path::file_name)
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    let file = name(Some(path));
    let parent = path.parent();
    let folder = name(parent);
    let grandparent = name(parent.and_then(Path::parent));
    match (grandparent.as_str(), folder.as_str(), file.as_str()) {
        (_, _, layout::SETTINGS) => "the settings".to_string(),
        (_, layout::CONFIGS, file) if file.ends_with(layout::CONFIG_SUFFIX) => {
            format!(
                "configuration `{}`",
                &file[..file.len() - layout::CONFIG_SUFFIX.len()]
            )
        }
        (layout::EXTENSIONS, id, layout::EXTENSION_CONFIG) => {
            format!("the stored configuration of extension `{id}`")
        }
        (layout::EXTENSIONS, id, layout::EXTENSION_MANIFEST) => {
            format!("the manifest of extension `{id}`")
        }
        (_, layout::BACKEND, "screenshot.png") => "the screenshot".to_string(),
        (_, _, file) => format!("`{file}`"),
    }
}

/// What went wrong, without the path some I/O errors carry: the operating
/// system's message, or the kind of error.
fn cause(error: &std::io::Error) -> String {
    match error.raw_os_error() {
        Some(code) => std::io::Error::from_raw_os_error(code).to_string(),
        None => error.kind().to_string(),
    }
}

/// Serializes `value` as pretty JSON with a trailing newline and writes it
/// atomically. A failed write is an [`Error::Storage`] that says which file
/// ([`describe`]) and why, without its path (logged); the previous content
/// stays.
pub fn write_json(path: &Path, value: &serde_json::Value) -> Result<()> {
    let mut text = serde_json::to_string_pretty(value).context("cannot serialize JSON")?;
    text.push('\n');
    atomic::write_with(path, text.as_bytes(), atomic::Options::PRIVATE).map_err(|e| {
        tracing::error!("cannot write {}: {e}", path.display());
        Error::Storage(format!(
            "cannot save {}: {}; the previous version is unchanged; help: check that the state directory is writable and the disk has room",
            describe(path),
            cause(&e)
        ))
    })
}

/// Removes a state file. A removal the disk refuses (a read-only state
/// directory) is an [`Error::Storage`] that names the file and the cause,
/// like a refused write.
pub fn remove(path: &Path) -> Result<()> {
    fs::remove_file(path).map_err(|e| {
        tracing::error!("cannot delete {}: {e}", path.display());
        Error::Storage(format!(
            "cannot delete {}: {}; help: check that the state directory is writable",
            describe(path),
            cause(&e)
        ))
    })
}

/// Why a state file cannot be used as it is: `None` when it can. The
/// check of a kind of file (a configuration must be an object, a setting
/// of the right type), applied after it parsed as JSON.
pub type Check<'a> = &'a dyn Fn(&serde_json::Value) -> Option<String>;

/// Any JSON value will do.
pub fn any_json(_: &serde_json::Value) -> Option<String> {
    None
}

/// What reading a state file found.
enum Found {
    Absent,
    Value(serde_json::Value),
    /// Not usable (`problem`), and moved aside to `aside`.
    MovedAside {
        problem: String,
        aside: PathBuf,
    },
    /// A file that could not be read (permissions) or moved aside.
    Unreadable(anyhow::Error),
}

/// How many times a file that does not parse is read again before it is
/// taken for corrupt, and the pause between: another program that writes
/// the file in place (not by a rename) leaves it half-written for a moment.
const REREADS: u32 = 3;
const REREAD_PAUSE: std::time::Duration = std::time::Duration::from_millis(20);

/// Reads `path` and judges it with `check`; a file that is not JSON (after
/// [`REREADS`] tries), that `check` refuses, or a folder where the file
/// belongs is moved aside to `<name>.corrupt-<n>`.
fn find(path: &Path, check: Check<'_>) -> Found {
    let mut tries = 0;
    let problem = loop {
        let bytes = match fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Found::Absent,
            Err(_) if path.is_dir() => break "a folder where the file belongs".to_string(),
            Err(e) => {
                return Found::Unreadable(
                    anyhow::Error::new(e).context(format!("cannot read {}", path.display())),
                );
            }
        };
        match parse(&bytes) {
            Ok(value) => match check(&value) {
                None => return Found::Value(value),
                Some(problem) => break problem,
            },
            Err(problem) if tries >= REREADS => break format!("not valid JSON: {problem}"),
            Err(_) => {
                tries += 1;
                std::thread::sleep(REREAD_PAUSE);
            }
        }
    };
    match move_aside(path) {
        Ok(aside) => Found::MovedAside { problem, aside },
        Err(e) => Found::Unreadable(e),
    }
}

/// Reads a JSON state file as it is now; `Ok(None)` when it does not exist.
/// A file that is not JSON or that `check` refuses (corrupted while the
/// server ran) is moved aside like one found at start-up
/// ([`read_json_at_start`]) and is an [`Error::Storage`] (a 500) that says
/// so once and why; the next read finds it absent. Messages name the file by
/// [`describe`], the log by its path.
pub fn read_document(path: &Path, check: Check<'_>) -> Result<Option<serde_json::Value>> {
    match find(path, check) {
        Found::Absent => Ok(None),
        Found::Value(value) => Ok(Some(value)),
        Found::MovedAside { problem, aside } => {
            tracing::warn!(
                "{} cannot be used ({problem}); moved it to {}",
                path.display(),
                aside.display()
            );
            Err(Error::Storage(format!(
                "{} cannot be used ({problem}) and was moved aside to `{}` beside it; the next request finds it absent; help: repair the file and put it back, or write it again",
                describe(path),
                aside
                    .file_name()
                    .map(|n| n.to_string_lossy())
                    .unwrap_or_default()
            )))
        }
        Found::Unreadable(e) => {
            tracing::error!("{e:#}");
            let why = e
                .downcast_ref::<std::io::Error>()
                .map_or_else(|| "it could not be moved aside".to_string(), cause);
            Err(Error::Storage(format!(
                "cannot read {}: {why}; help: check the state directory",
                describe(path)
            )))
        }
    }
}

/// [`read_document`] of any JSON value.
pub fn read_json(path: &Path) -> Result<Option<serde_json::Value>> {
    read_document(path, &any_json)
}

/// The JSON value of a state file's bytes, or why they are not one.
fn parse(bytes: &[u8]) -> std::result::Result<serde_json::Value, String> {
    match std::str::from_utf8(bytes) {
        Ok(text) => serde_json::from_str(text).map_err(|e| e.to_string()),
        Err(e) => Err(format!("not UTF-8 ({e})")),
    }
}

/// Whether `name` is the name of a temporary file of [`stdx::atomic`]
/// (`.tmp-<6 letters or digits>.part`): a write cut short by a crash.
pub fn is_leftover(name: &str) -> bool {
    name.strip_prefix(".tmp-")
        .and_then(|rest| rest.strip_suffix(".part"))
        .is_some_and(|middle| {
            middle.len() == 6 && middle.bytes().all(|b| b.is_ascii_alphanumeric())
        })
}

/// Removes the temporary files that writes cut short by a crash left in
/// the folders where the service writes (the state directory, `configs/`,
/// `backend/` and each extension's folder), and only those: files named as
/// [`is_leftover`] says. Returns how many it removed; a file it cannot
/// remove is logged and left.
pub fn sweep_leftovers(state_dir: &Path) -> usize {
    let mut folders = vec![
        state_dir.to_path_buf(),
        state_dir.join(layout::CONFIGS),
        state_dir.join(layout::BACKEND),
    ];
    if let Ok(entries) = fs::read_dir(state_dir.join(layout::EXTENSIONS)) {
        folders.extend(
            entries
                .flatten()
                .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
                .map(|e| e.path()),
        );
    }
    let mut removed = 0;
    for folder in folders {
        let Ok(entries) = fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            let is_ours = entry.file_name().to_str().is_some_and(is_leftover)
                && entry.file_type().is_ok_and(|t| t.is_file());
            if !is_ours {
                continue;
            }
            match fs::remove_file(entry.path()) {
                Ok(()) => removed += 1,
                Err(e) => {
                    tracing::warn!("cannot remove the leftover {}: {e}", entry.path().display())
                }
            }
        }
    }
    if removed > 0 {
        tracing::info!("removed {removed} temporary file(s) left by writes a crash cut short");
    }
    removed
}

/// Reads a JSON state file at start-up. A file that is not valid JSON (a
/// crash of another program, a hand edit), that `check` refuses, or a
/// folder at its name is moved aside to `<name>.corrupt-<n>`, reported on
/// stderr by path with the reason, and read as absent, so the service
/// starts. Only a file that cannot be read at all stops it.
pub fn read_json_at_start(
    path: &Path,
    check: Check<'_>,
) -> anyhow::Result<Option<serde_json::Value>> {
    match find(path, check) {
        Found::Absent => Ok(None),
        Found::Value(value) => Ok(Some(value)),
        Found::MovedAside { problem, aside } => {
            tracing::warn!(
                "{} cannot be used ({problem}); moved it to {} and started without it",
                path.display(),
                aside.display()
            );
            Ok(None)
        }
        Found::Unreadable(e) => Err(e),
    }
}

/// Renames `path` to the first free `<path>.corrupt-<n>`.
pub(crate) fn move_aside(path: &Path) -> anyhow::Result<std::path::PathBuf> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    for n in 1..10_000 {
        let aside = path.with_file_name(format!("{name}.corrupt-{n}"));
        if fs::symlink_metadata(&aside).is_err() {
            fs::rename(path, &aside).with_context(|| {
                format!(
                    "{} is corrupt and cannot be moved aside to {}",
                    path.display(),
                    aside.display()
                )
            })?;
            return Ok(aside);
        }
    }
    anyhow::bail!(
        "{} is corrupt and too many copies were already moved aside",
        path.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 22: a refused deletion answered "internal error"; it says the
    /// cause like a refused write. (A read-only directory does not stop
    /// root, who runs CI, so a directory where a file is expected stands in.)
    #[test]
    fn a_refused_removal_names_the_file_and_the_cause() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("Default.json");
        fs::create_dir(&path).unwrap();
        let err = remove(&path).unwrap_err();
        assert!(matches!(err, Error::Storage(_)), "{err:?}");
        let message = err.to_string();
        assert!(message.contains("cannot delete"), "{message}");
        assert!(message.contains("`Default.json`"), "{message}");
        assert!(message.contains("writable"), "{message}");
        assert!(
            !message.contains(&*dir.path().to_string_lossy()),
            "{message}"
        );
    }

    #[test]
    fn state_files_are_described_without_their_path() {
        let root = Path::new("/srv/state");
        for (path, what) in [
            ("settings.json", "the settings"),
            ("configs/Daily run.json", "configuration `Daily run`"),
            (
                "extensions/daily-checkin/config.json",
                "the stored configuration of extension `daily-checkin`",
            ),
            ("backend/screenshot.png", "the screenshot"),
        ] {
            assert_eq!(describe(&root.join(path)), what);
        }
    }

    #[test]
    fn only_the_tools_own_temporary_files_are_leftovers() {
        assert!(is_leftover(".tmp-a1B2c3.part"));
        for name in [
            ".tmp-notes.part.txt",
            ".tmp-.part",
            "tmp-abcdef.part",
            ".tmp-abcdefg.part",
            ".tmp-abc de.part",
            "x.part",
        ] {
            assert!(!is_leftover(name), "{name}");
        }
    }
}
