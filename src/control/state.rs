//! Atomic file writes and safe paths inside the state directory.
//!
//! Every file the control service writes goes through [`write_atomic`]: the
//! bytes land in a temporary file beside the target, are flushed to disk, and
//! the temporary file is renamed over the target, so a reader (or a restart
//! after a crash) sees either the old content or the new one, never half of
//! it. This module knows nothing about what the files mean.

use std::fs;
use std::io::Write;
use std::path::Path;

use anyhow::Context;

/// Writes `bytes` to `path` atomically: temporary file in the same directory,
/// `fsync`, rename over the target, then `fsync` of the directory.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or_else(|| Path::new("."));
    fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let mut file = tempfile::Builder::new()
        .prefix(".tmp-")
        .suffix(".part")
        .tempfile_in(dir)
        .with_context(|| format!("cannot create a temporary file in {}", dir.display()))?;
    file.write_all(bytes)
        .and_then(|()| file.as_file().sync_all())
        .with_context(|| format!("cannot write {}", path.display()))?;
    file.persist(path)
        .with_context(|| format!("cannot replace {}", path.display()))?;
    sync_dir(dir);
    Ok(())
}

/// Serializes `value` as pretty JSON with a trailing newline and writes it atomically.
pub fn write_json(path: &Path, value: &serde_json::Value) -> anyhow::Result<()> {
    let mut text = serde_json::to_string_pretty(value).context("cannot serialize JSON")?;
    text.push('\n');
    write_atomic(path, text.as_bytes())
}

/// Reads a JSON file; `Ok(None)` when it does not exist.
pub fn read_json(path: &Path) -> anyhow::Result<Option<serde_json::Value>> {
    match fs::read_to_string(path) {
        Ok(text) => serde_json::from_str(&text)
            .map(Some)
            .with_context(|| format!("{} is not valid JSON", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e).with_context(|| format!("cannot read {}", path.display())),
    }
}

/// Flushes a directory entry so a completed rename survives a power loss.
/// Best effort: some platforms cannot open directories.
fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}

/// Whether `name` is safe as one file-name component: not empty, not `.` or
/// `..`, no path separator, no character Windows forbids, no control
/// character, no leading or trailing space, at most 128 bytes.
pub fn is_safe_component(name: &str) -> bool {
    const FORBIDDEN: &[char] = &['\\', '/', ':', '*', '?', '"', '<', '>', '|'];
    !name.is_empty()
        && name.len() <= 200
        && name != "."
        && name != ".."
        && !name.starts_with(' ')
        && !name.ends_with(' ')
        && !name.ends_with('.')
        && !name
            .chars()
            .any(|c| c.is_control() || FORBIDDEN.contains(&c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsafe_components_are_refused() {
        for bad in ["", ".", "..", "a/b", "a\\b", "a:b", "x\n", "a*", " a", "a."] {
            assert!(!is_safe_component(bad), "{bad:?}");
        }
        for good in ["Default", "my config", "日常", "a-b_c.1"] {
            assert!(is_safe_component(good), "{good:?}");
        }
    }
}
