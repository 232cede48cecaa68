//! Atomic file writes: the one way this crate replaces a file.
//!
//! The bytes land in a temporary file beside the target, are flushed to
//! disk, and the temporary file is renamed over the target; then the
//! directory entry is flushed too. A reader, or a restart after a crash or a
//! power loss, sees the old content or the new one, never half of it. A
//! replaced file keeps its permissions. A leaf: it knows nothing about what
//! the files mean.

use std::fs;
use std::io::{self, Write as _};
use std::path::Path;

/// How a file is written; [`write()`] is the usual choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Permissions of a new file (Unix); a replaced file keeps its own.
    pub new_mode: u32,
    /// Flush the file and its directory before returning, so the write
    /// survives a power loss. Off only for a cache, whose reader checks what
    /// it reads and treats a lost entry as a miss.
    pub durable: bool,
}

impl Options {
    /// An ordinary file others may read (data files, `games.json`).
    pub const SHARED: Options = Options {
        new_mode: 0o644,
        durable: true,
    };
    /// A file only its owner may read (the control service's state, which
    /// holds credentials).
    pub const PRIVATE: Options = Options {
        new_mode: 0o600,
        durable: true,
    };
    /// A cache entry: atomic, not flushed (a build writes thousands).
    pub const CACHE: Options = Options {
        new_mode: 0o644,
        durable: false,
    };
}

/// Replaces `path` with `bytes` atomically ([`Options::SHARED`]), creating
/// its folder when missing.
pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_with(path, bytes, Options::SHARED)
}

/// Replaces `path` with `bytes` atomically, as `options` say.
pub fn write_with(path: &Path, bytes: &[u8], options: Options) -> io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or_else(|| Path::new("."));
    fs::create_dir_all(dir)?;
    let mut file = tempfile::Builder::new()
        .prefix(".tmp-")
        .suffix(".part")
        .tempfile_in(dir)?;
    file.write_all(bytes)?;
    if options.durable {
        file.as_file().sync_all()?;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = fs::metadata(path).map_or(options.new_mode, |m| m.permissions().mode());
        if mode & 0o777 != 0o600 {
            fs::set_permissions(file.path(), fs::Permissions::from_mode(mode))?;
        }
    }
    file.persist(path).map_err(|err| err.error)?;
    if options.durable {
        sync_dir(dir);
    }
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_keeps_permissions_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a/b.json");
        write(&path, b"one").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"one");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode(&path), 0o644);
            fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
            write(&path, b"two").unwrap();
            assert_eq!(mode(&path), 0o640);
            let private = dir.path().join("secret.json");
            write_with(&private, b"{}", Options::PRIVATE).unwrap();
            assert_eq!(mode(&private), 0o600);
        }
        assert_eq!(fs::read(&path).unwrap(), b"two");
        let names: Vec<_> = fs::read_dir(dir.path().join("a"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["b.json"]);
    }
}
