//! Atomic file writes and safe paths inside the state directory.
//!
//! Every file the control service writes goes through [`write_atomic`], the
//! crate's one atomic write ([`crate::atomic`]), so a reader (or a restart
//! after a crash) sees either the old content or the new one, never half of
//! it. This module knows nothing about what the files mean.

use std::fs;
use std::path::Path;

use anyhow::Context;

use crate::atomic;
use crate::control::error::{Error, Result};

/// Writes `bytes` to `path` atomically ([`crate::atomic`]), readable by
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
        (_, _, "settings.json") => "the settings".to_string(),
        (_, "configs", file) if file.ends_with(".json") => {
            format!("configuration `{}`", &file[..file.len() - 5])
        }
        ("extensions", id, "config.json") => {
            format!("the stored configuration of extension `{id}`")
        }
        ("extensions", id, "extension.json") => format!("the manifest of extension `{id}`"),
        (_, "backend", "screenshot.png") => "the screenshot".to_string(),
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

/// Reads a JSON file; `Ok(None)` when it does not exist. A file that is not
/// JSON (corrupted while the server ran) is moved aside like one found at
/// start-up ([`read_json_at_start`]) and is an [`Error::Storage`] saying so
/// once; the next read finds it absent. Messages name the file by
/// [`describe`], the log by its path.
pub fn read_json(path: &Path) -> Result<Option<serde_json::Value>> {
    let bytes = match fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            tracing::error!("cannot read {}: {e}", path.display());
            return Err(Error::Storage(format!(
                "cannot read {}: {}; help: check the state directory",
                describe(path),
                cause(&e)
            )));
        }
    };
    let problem = match parse(&bytes) {
        Ok(value) => return Ok(Some(value)),
        Err(problem) => problem,
    };
    let aside = move_aside(path).map_err(|e| {
        tracing::error!("{e:#}");
        Error::Storage(format!(
            "{} is not valid JSON and could not be moved aside; help: fix or remove it",
            describe(path)
        ))
    })?;
    tracing::warn!(
        "{} is not valid JSON ({problem}); moved it to {}",
        path.display(),
        aside.display()
    );
    Err(Error::Storage(format!(
        "{} is not valid JSON ({problem}) and was moved aside to `{}` beside it; the next request finds it absent",
        describe(path),
        aside
            .file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default()
    )))
}

/// The JSON value of a state file's bytes, or why they are not one.
fn parse(bytes: &[u8]) -> std::result::Result<serde_json::Value, String> {
    match std::str::from_utf8(bytes) {
        Ok(text) => serde_json::from_str(text).map_err(|e| e.to_string()),
        Err(e) => Err(format!("not UTF-8 ({e})")),
    }
}

/// Whether `name` is the name of a temporary file of [`crate::atomic`]
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
        state_dir.join("configs"),
        state_dir.join("backend"),
    ];
    if let Ok(entries) = fs::read_dir(state_dir.join("extensions")) {
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

/// Reads a JSON file at start-up. A file that is not valid JSON (a crash of
/// another program, a hand edit) is moved aside to `<name>.corrupt-<n>`,
/// reported on stderr, and read as absent, so the service starts.
pub fn read_json_at_start(path: &Path) -> anyhow::Result<Option<serde_json::Value>> {
    let text = match fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    let problem = match parse(&text) {
        Ok(value) => return Ok(Some(value)),
        Err(problem) => problem,
    };
    let aside = move_aside(path)?;
    tracing::warn!(
        "{} is not valid JSON ({problem}); moved it to {} and started without it",
        path.display(),
        aside.display()
    );
    Ok(None)
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
