//! The build cache: rendered and precompressed files kept between builds,
//! addressed by a hash of what they were made from.
//!
//! An entry is one file named by its key (64 hex digits; no output depends
//! on "now", so the `.now` entries of older versions, which depended on it,
//! only expire sooner). It holds a
//! magic line, the key, a SHA-256 of the body and the body (the files). An
//! entry whose magic, key, checksum or body does not check out (truncated,
//! corrupt, copied from another key, written by another version) is a miss:
//! the caller renders again and the entry is rewritten. Writes go through a
//! temp file and a rename, so a reader never sees half an entry.
//!
//! The directory is owned: it carries a `CACHEDIR.TAG` written by the tool,
//! and an existing directory without it (and not empty) is refused. Only
//! entries (names this module makes) are ever removed, by [`Cache::sweep`].
//!
//! This module knows bytes and keys, not what the files mean or how they are
//! rendered.

use std::fs;
use std::io::{self, Read as _};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use anyhow::Context as _;
use sha2::{Digest, Sha256};

use super::types::OutputFile;
use crate::atomic;
use crate::i18n::msg;

/// The first bytes of every entry; bump the digit when the layout changes.
const MAGIC: &[u8; 8] = b"ASCACHE1";

/// Marks the directory as a cache (<https://bford.info/cachedir/>): backup
/// tools skip it, and the tool only adopts a directory that carries it.
const TAG_NAME: &str = "CACHEDIR.TAG";
const TAG: &str = "Signature: 8a477f597d28d172789f06886806bc55\n\
# This directory is the build cache of activity-site; it can be deleted at any time.\n";

/// Entries that do not depend on "now" stay this long after their last use.
const KEEP: Duration = Duration::from_secs(30 * 24 * 3600);
/// The `.now` entries older versions wrote (pages rendered at a given
/// minute) stay this long after their last use: nothing reads them again.
const KEEP_NOW: Duration = Duration::from_secs(15 * 60);
/// A sweep runs at most this often; the stamp's time says when it last ran.
const SWEEP_EVERY: Duration = Duration::from_secs(15 * 60);
const SWEPT_NAME: &str = "last-sweep";
/// A hit refreshes the entry's time only when it is older than this.
const TOUCH_AFTER: Duration = Duration::from_secs(60);

/// What every key includes besides the inputs: anything that changes the
/// output for the same inputs. Tests inject other values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CacheSalt {
    /// The tool's version (`CARGO_PKG_VERSION`).
    pub tool: String,
    /// A fingerprint of the templates and the renderers' code version.
    pub templates: String,
}

impl CacheSalt {
    /// The salt of this binary.
    pub fn current() -> Self {
        CacheSalt {
            tool: env!("CARGO_PKG_VERSION").to_owned(),
            templates: super::pages::fingerprint(),
        }
    }
}

impl Default for CacheSalt {
    fn default() -> Self {
        Self::current()
    }
}

/// A key: SHA-256 over the salt and the named inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Key {
    digest: [u8; 32],
}

impl Key {
    /// Hashes `parts` (each length-prefixed, so `("ab","c")` and `("a","bc")`
    /// differ) after the salt.
    pub fn new(salt: &CacheSalt, parts: &[&[u8]]) -> Self {
        let salted = [
            MAGIC.as_slice(),
            salt.tool.as_bytes(),
            salt.templates.as_bytes(),
        ];
        Key {
            digest: super::digest::digest_of(salted.into_iter().chain(parts.iter().copied())),
        }
    }

    /// The key as 64 hex digits.
    pub fn hex(&self) -> String {
        hex::encode(self.digest)
    }

    fn file_name(&self) -> String {
        hex::encode(self.digest)
    }
}

/// One cached file: its path, its bytes and whether it is a precompressed
/// sibling of another file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub file: OutputFile,
    pub sibling: bool,
}

/// An open cache directory.
#[derive(Debug)]
pub struct Cache {
    dir: PathBuf,
}

impl Cache {
    /// Opens `dir`, creating it (and its tag) when missing. Refuses an
    /// existing, non-empty directory that does not carry the tool's tag.
    pub fn open(dir: &Path) -> anyhow::Result<Cache> {
        let tag = dir.join(TAG_NAME);
        match fs::read_to_string(&tag) {
            Ok(text) if text == TAG => {
                return Ok(Cache {
                    dir: dir.to_owned(),
                });
            }
            Ok(_) => {
                return Err(anyhow::Error::new(msg!(
                    "cache-foreign-tag",
                    dir = dir.display().to_string(),
                    tag = TAG_NAME
                )));
            }
            Err(err) if err.kind() == io::ErrorKind::NotFound => {}
            Err(err) => {
                return Err(err)
                    .with_context(|| msg!("err-read", path = tag.display().to_string()));
            }
        }
        if dir.exists() {
            let mut entries = fs::read_dir(dir)
                .with_context(|| msg!("err-read", path = dir.display().to_string()))?;
            if entries.next().is_some() {
                return Err(anyhow::Error::new(msg!(
                    "cache-foreign-files",
                    dir = dir.display().to_string()
                )));
            }
        }
        fs::create_dir_all(dir)
            .with_context(|| msg!("err-create", path = dir.display().to_string()))?;
        atomic::write_with(&tag, TAG.as_bytes(), atomic::Options::CACHE)
            .with_context(|| msg!("err-write", path = tag.display().to_string()))?;
        Ok(Cache {
            dir: dir.to_owned(),
        })
    }

    /// The entry of `key`, when it exists and checks out.
    pub fn get(&self, key: &Key) -> Option<Vec<Entry>> {
        let path = self.dir.join(key.file_name());
        let mut file = fs::File::options()
            .read(true)
            .write(true)
            .open(&path)
            .or_else(|_| fs::File::open(&path))
            .ok()?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).ok()?;
        let entries = decode(key, &bytes)?;
        // Mark it used, so the sweep keeps it (at most once a minute).
        let now = SystemTime::now();
        let stale = file
            .metadata()
            .and_then(|m| m.modified())
            .is_ok_and(|t| now.duration_since(t).unwrap_or_default() > TOUCH_AFTER);
        if stale {
            let _ = file.set_modified(now);
        }
        Some(entries)
    }

    /// Stores `entries` under `key`, replacing whatever is there. A failure
    /// only costs the next build time, so it is reported, not fatal.
    pub fn put(&self, key: &Key, entries: &[Entry]) -> io::Result<()> {
        atomic::write_with(
            &self.dir.join(key.file_name()),
            &encode(key, entries),
            atomic::Options::CACHE,
        )
    }

    /// Removes entries unused for longer than they are kept, at most once
    /// every 15 minutes (`SWEEP_EVERY`; a stamp file records the last sweep): a sweep
    /// looks at every entry, which a one-file rebuild should not wait on.
    /// Touches nothing but entries (names of 64 hex digits, with or without
    /// `.now`) and the stamp.
    pub fn sweep(&self) {
        let now = SystemTime::now();
        let stamp = self.dir.join(SWEPT_NAME);
        let recent = fs::metadata(&stamp)
            .and_then(|m| m.modified())
            .is_ok_and(|t| now.duration_since(t).unwrap_or_default() < SWEEP_EVERY);
        if recent {
            return;
        }
        let _ = fs::write(&stamp, b"");
        let Ok(list) = fs::read_dir(&self.dir) else {
            return;
        };
        for item in list.flatten() {
            let name = item.file_name();
            let Some(name) = name.to_str() else { continue };
            let (hex, keep) = match name.strip_suffix(".now") {
                Some(hex) => (hex, KEEP_NOW),
                None => (name, KEEP),
            };
            if hex.len() != 64 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                continue;
            }
            let old = item
                .metadata()
                .and_then(|m| m.modified())
                .is_ok_and(|t| now.duration_since(t).unwrap_or_default() > keep);
            if old {
                let _ = fs::remove_file(item.path());
            }
        }
    }
}

/// MAGIC, key (32), SHA-256 of the body (32), body. The body is a count then,
/// per file, a sibling flag, the path and the bytes, lengths as u64 LE.
fn encode(key: &Key, entries: &[Entry]) -> Vec<u8> {
    let size: usize = entries
        .iter()
        .map(|e| e.file.path.len() + e.file.bytes.len() + 17)
        .sum();
    let mut body = Vec::with_capacity(size + 8);
    body.extend_from_slice(&(entries.len() as u64).to_le_bytes());
    for entry in entries {
        body.push(u8::from(entry.sibling));
        body.extend_from_slice(&(entry.file.path.len() as u64).to_le_bytes());
        body.extend_from_slice(entry.file.path.as_bytes());
        body.extend_from_slice(&(entry.file.bytes.len() as u64).to_le_bytes());
        body.extend_from_slice(&entry.file.bytes);
    }
    let mut out = Vec::with_capacity(body.len() + 72);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&key.digest);
    out.extend_from_slice(&Sha256::digest(&body));
    out.extend_from_slice(&body);
    out
}

fn decode(key: &Key, bytes: &[u8]) -> Option<Vec<Entry>> {
    let rest = bytes.strip_prefix(MAGIC.as_slice())?;
    let (stored_key, rest) = rest.split_at_checked(32)?;
    let (checksum, body) = rest.split_at_checked(32)?;
    if stored_key != key.digest || checksum != Sha256::digest(body).as_slice() {
        return None;
    }
    let mut reader = Reader(body);
    let count = reader.len()?;
    let mut entries = Vec::new();
    for _ in 0..count {
        let sibling = match reader.take(1)? {
            [0] => false,
            [1] => true,
            _ => return None,
        };
        let path_len = reader.len()?;
        let path = String::from_utf8(reader.take(path_len)?.to_vec()).ok()?;
        let bytes_len = reader.len()?;
        let bytes = reader.take(bytes_len)?.to_vec();
        entries.push(Entry {
            file: OutputFile { path, bytes },
            sibling,
        });
    }
    reader.0.is_empty().then_some(entries)
}

struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let (head, tail) = self.0.split_at_checked(n)?;
        self.0 = tail;
        Some(head)
    }

    fn len(&mut self) -> Option<usize> {
        let raw: [u8; 8] = self.take(8)?.try_into().ok()?;
        usize::try_from(u64::from_le_bytes(raw)).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn salt() -> CacheSalt {
        CacheSalt {
            tool: "1".into(),
            templates: "t".into(),
        }
    }

    fn entries() -> Vec<Entry> {
        vec![
            Entry {
                file: OutputFile {
                    path: "a.json".into(),
                    bytes: b"{}\n".to_vec(),
                },
                sibling: false,
            },
            Entry {
                file: OutputFile {
                    path: "a.json.gz".into(),
                    bytes: vec![0, 1, 2],
                },
                sibling: true,
            },
        ]
    }

    #[test]
    fn entries_round_trip_and_reject_damage() {
        let key = Key::new(&salt(), &[b"x"]);
        let bytes = encode(&key, &entries());
        assert_eq!(decode(&key, &bytes), Some(entries()));
        assert_eq!(decode(&key, &bytes[..bytes.len() - 1]), None);
        let mut flipped = bytes.clone();
        *flipped.last_mut().unwrap() ^= 1;
        assert_eq!(decode(&key, &flipped), None);
        let other = Key::new(&salt(), &[b"y"]);
        assert_eq!(decode(&other, &bytes), None);
    }

    #[test]
    fn keys_separate_parts_and_salts() {
        let a = Key::new(&salt(), &[b"ab", b"c"]);
        let b = Key::new(&salt(), &[b"a", b"bc"]);
        assert_ne!(a, b);
        let newer = CacheSalt {
            tool: "2".into(),
            ..salt()
        };
        assert_ne!(a, Key::new(&newer, &[b"ab", b"c"]));
    }

    #[test]
    fn a_sweep_removes_stale_entries_only_and_at_most_every_interval() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::open(dir.path()).unwrap();
        let long_ago = SystemTime::now() - KEEP - Duration::from_secs(60);
        let stale = |name: &str| {
            let key = Key::new(&salt(), &[name.as_bytes()]);
            cache.put(&key, &entries()).unwrap();
            let path = dir.path().join(key.file_name());
            let file = fs::File::options().write(true).open(&path).unwrap();
            file.set_modified(long_ago).unwrap();
            path
        };
        let fresh = Key::new(&salt(), &[b"fresh"]);
        cache.put(&fresh, &entries()).unwrap();
        fs::write(dir.path().join("notes.txt"), "mine").unwrap();

        let first = stale("first");
        cache.sweep();
        assert!(!first.exists(), "a stale entry is removed");
        assert!(cache.get(&fresh).is_some(), "a fresh entry is kept");

        let second = stale("second");
        cache.sweep();
        assert!(
            second.exists(),
            "a second sweep within the interval does nothing"
        );

        let stamp = fs::File::options()
            .write(true)
            .open(dir.path().join(SWEPT_NAME))
            .unwrap();
        stamp
            .set_modified(SystemTime::now() - SWEEP_EVERY - Duration::from_secs(1))
            .unwrap();
        cache.sweep();
        assert!(
            !second.exists(),
            "once the interval has passed, it sweeps again"
        );
        assert_eq!(
            fs::read_to_string(dir.path().join("notes.txt")).unwrap(),
            "mine"
        );
        assert!(dir.path().join(TAG_NAME).exists());
    }

    #[test]
    fn a_foreign_directory_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("notes.txt"), "mine").unwrap();
        let err = Cache::open(dir.path()).unwrap_err().to_string();
        assert!(err.contains("refusing"), "{err}");
        assert_eq!(
            fs::read_to_string(dir.path().join("notes.txt")).unwrap(),
            "mine"
        );
        let fresh = dir.path().join("cache");
        Cache::open(&fresh).unwrap();
        Cache::open(&fresh).unwrap();
    }
}
