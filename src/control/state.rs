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
/// its owner only: configurations hold credentials.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    atomic::write_with(path, bytes, atomic::Options::PRIVATE)
        .with_context(|| format!("cannot write {}", path.display()))
}

/// Serializes `value` as pretty JSON with a trailing newline and writes it
/// atomically. A failed write is an [`Error::Storage`] that names the file
/// and the cause; the previous content stays.
pub fn write_json(path: &Path, value: &serde_json::Value) -> Result<()> {
    let mut text = serde_json::to_string_pretty(value).context("cannot serialize JSON")?;
    text.push('\n');
    write_atomic(path, text.as_bytes()).map_err(|e| {
        Error::Storage(format!(
            "cannot save {}: {e:#}; the previous version is unchanged; help: check that the state directory is writable and the disk has room",
            path.display()
        ))
    })
}

/// Removes a state file. A removal the disk refuses (a read-only state
/// directory) is an [`Error::Storage`] that names the file and the cause,
/// like a refused write.
pub fn remove(path: &Path) -> Result<()> {
    fs::remove_file(path).map_err(|e| {
        Error::Storage(format!(
            "cannot delete {}: {e}; help: check that the state directory is writable",
            path.display()
        ))
    })
}

/// Reads a JSON file; `Ok(None)` when it does not exist. A file that cannot
/// be read or is not JSON is an [`Error::Storage`] naming it.
pub fn read_json(path: &Path) -> Result<Option<serde_json::Value>> {
    match fs::read_to_string(path) {
        Ok(text) => serde_json::from_str(&text).map(Some).map_err(|e| {
            Error::Storage(format!(
                "{} is not valid JSON ({e}); help: fix or remove the file",
                path.display()
            ))
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::Storage(format!(
            "cannot read {}: {e}; help: check the state directory",
            path.display()
        ))),
    }
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
    let problem = match std::str::from_utf8(&text) {
        Ok(text) => match serde_json::from_str(text) {
            Ok(value) => return Ok(Some(value)),
            Err(e) => e.to_string(),
        },
        Err(e) => format!("not UTF-8 ({e})"),
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
        assert!(message.contains("Default.json"), "{message}");
        assert!(message.contains("writable"), "{message}");
    }
}
