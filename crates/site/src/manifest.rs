//! The output manifest: what each file of a built site is and what it was
//! built from, kept in the site as [`layout::OUTPUT_MANIFEST`] (host-only,
//! never served or published), so the next build renders, compresses and
//! writes only what changed.
//!
//! It names every file of the site with the SHA-256 and size of its bytes,
//! grouped by what made them: a game (its files, the fingerprint of all its
//! inputs, and the summary the shared files need of it: its documents'
//! headers, their digests, a digest of what the home pages show of it, and
//! the key of the inputs of a check that found nothing in it),
//! or a shared part (its cache key over its inputs, and its files). The
//! manifest is a pure function of the inputs, so a warm build writes the
//! same manifest as a cold one.
//!
//! A site's files are trusted to be what the manifest says only after
//! [`verify`]: a regular file, of the recorded size, not modified after the
//! manifest was written; anything else (a file edited by hand, a file added
//! to the folder) is rendered or removed again by the next build.

// Path-keyed maps of every file of the site: foldhash, not SipHash (the
// keys are our own paths, not an attacker's).
use foldhash::{HashMap, HashSet, HashSetExt as _};
use std::fs;
use std::path::Path;
use std::sync::Arc;
use std::time::SystemTime;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::types::{GameOutput, LocaleDocument};
use crate::layout;
use crate::model::published::Due;
use crate::model::{ActivityDocument, Game};

/// Bump when the layout of the manifest or the meaning of a fingerprint changes.
const FORMAT: u32 = 3;

/// The files of one record. A record a build takes from the output as it
/// is shares its list (and its summary) with the output's manifest, so
/// the writer tells what changed between two manifests by identity
/// ([`Arc::ptr_eq`]) instead of comparing every file, and keeping a game
/// costs no copy of its records. Written as a plain list.
pub(crate) type Files = Arc<Vec<FileRecord>>;

/// Serializes an `Arc<T>` as the `T` it holds (serde's `rc` feature, for
/// the two fields that need it).
mod shared {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use std::sync::Arc;

    pub fn serialize<T: Serialize, S: Serializer>(value: &Arc<T>, s: S) -> Result<S::Ok, S::Error> {
        T::serialize(value, s)
    }

    pub fn deserialize<'de, T: Deserialize<'de>, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Arc<T>, D::Error> {
        T::deserialize(d).map(Arc::new)
    }
}

/// What a site holds and what it was built from.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub(crate) struct Manifest {
    pub format: u32,
    /// One record per game, in the registry's order.
    pub games: Vec<GameRecord>,
    /// The shared parts (the index, the home pages, the schema, kept files, ...).
    pub parts: Vec<PartRecord>,
    /// The warnings of the build that wrote the site, by [`warning_key`]:
    /// the next build shows in full only the ones not among them. Kept in
    /// their own file ([`layout::OUTPUT_WARNINGS`]), not in the manifest's
    /// bytes, which depend on the data alone.
    #[serde(skip)]
    pub warnings: Vec<String>,
}

/// What makes a warning the same one from build to build: its file, rule
/// and message with its text arguments (a value, a date), not its line
/// (an edit above moves it) nor its counts (the days since a version
/// ended grow each day). A digest, so the manifest stays small.
pub(crate) fn warning_key(d: &crate::diagnostics::Diagnostic) -> String {
    use sha2::{Digest as _, Sha256};
    fn feed(hasher: &mut Sha256, msg: &crate::i18n::Msg) {
        hasher.update(msg.id().as_bytes());
        for (name, arg) in msg.args() {
            hasher.update([0]);
            hasher.update(name.as_bytes());
            match arg {
                crate::i18n::Arg::Text(text) => hasher.update(text.as_bytes()),
                crate::i18n::Arg::Number(_) => {}
                crate::i18n::Arg::Msg(inner) => feed(hasher, inner),
                crate::i18n::Arg::List(items, _) => items.iter().for_each(|m| feed(hasher, m)),
            }
        }
    }
    let mut hasher = Sha256::new();
    hasher.update(d.file.as_bytes());
    hasher.update([0]);
    hasher.update(d.code.as_str().as_bytes());
    hasher.update([0]);
    feed(&mut hasher, &d.message);
    hex::encode(&hasher.finalize()[..12])
}

/// The files of one game and what they were made from.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub(crate) struct GameRecord {
    pub id: String,
    /// SHA-256 (hex) over everything the game's files depend on.
    pub fingerprint: String,
    /// Whether every file was written with its precompressed siblings (not deferred).
    pub complete: bool,
    /// SHA-256 (hex) of what the home pages show of the game.
    pub home: String,
    /// The key (hex) of everything the game's check depends on but "now"
    /// (the tool, the schemas, its registry entry, its data files), when
    /// that check found nothing but what the rules that read "now" found
    /// ([`super::check::reads_now`]): the next build of the same inputs takes the
    /// game as checked while "now" is inside every document's window,
    /// where those rules find nothing ([`super::check::check_key`],
    /// [`Manifest::clean_checks`]). Never depends on "now" itself.
    pub checked: Option<String>,
    /// What the index, `_headers` and `llms.txt` need of the game.
    #[serde(with = "shared")]
    pub summary: Arc<SavedGame>,
    #[serde(with = "shared")]
    pub files: Files,
}

/// One shared part: its cache key and its files.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub(crate) struct PartRecord {
    /// The part's key (hex), over all its inputs.
    pub key: String,
    pub complete: bool,
    #[serde(with = "shared")]
    pub files: Files,
}

/// One file of the site.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub(crate) struct FileRecord {
    pub path: String,
    /// SHA-256 (hex) of its bytes.
    pub sha256: String,
    pub bytes: u64,
}

/// A game without its activities, and the digest of each document's JSON.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub(crate) struct SavedGame {
    pub game: Game,
    pub documents: Vec<SavedDocument>,
    /// `(sha256 hex, bytes)` of each document's published JSON, in order.
    pub digests: Vec<(String, usize)>,
    /// Each document's update mode and due time, in order: worked out
    /// from its activities, which this summary drops.
    pub dues: Vec<Due>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub(crate) struct SavedDocument {
    pub locale: String,
    pub is_default: bool,
    /// The document with its activities dropped.
    pub document: ActivityDocument,
}

impl SavedGame {
    /// `game` (whose activities may already be dropped) with its digests
    /// and its documents' due times.
    pub fn of(game: &GameOutput, digests: Vec<(String, usize)>, dues: Vec<Due>) -> SavedGame {
        SavedGame {
            game: game.game.clone(),
            documents: game
                .documents
                .iter()
                .map(|d| SavedDocument {
                    locale: d.locale.clone(),
                    is_default: d.is_default,
                    document: ActivityDocument {
                        activities: Vec::new(),
                        ..d.document.clone()
                    },
                })
                .collect(),
            digests,
            dues,
        }
    }

    /// Whether `now` (the game's local time) is inside the version window
    /// of every document: where a clean check of the same files is clean.
    pub fn holds(&self, now: chrono::NaiveDateTime) -> bool {
        !self.documents.is_empty()
            && self.documents.iter().all(|d| {
                let (start, end) = d.document.window();
                *start <= now && now <= *end
            })
    }

    /// The game as the shared files see it: documents without activities.
    pub fn output(&self) -> GameOutput {
        GameOutput {
            game: self.game.clone(),
            documents: self
                .documents
                .iter()
                .map(|d| LocaleDocument::new(&d.locale, d.is_default, d.document.clone()))
                .collect(),
        }
    }
}

impl FileRecord {
    pub fn of(path: &str, bytes: &[u8]) -> FileRecord {
        use sha2::{Digest, Sha256};
        FileRecord {
            path: path.to_owned(),
            sha256: hex::encode(Sha256::digest(bytes)),
            bytes: bytes.len() as u64,
        }
    }
}

impl Manifest {
    /// The games whose check found nothing and would find nothing at
    /// `now`, with the key of what it checked: game id to
    /// [`GameRecord::checked`]. The key leaves "now" out; the rules that
    /// read it find nothing exactly while "now" (in the game's zone) is
    /// inside every document's version window, which the record's summary
    /// keeps.
    pub fn clean_checks(
        &self,
        now: crate::clock::Now,
    ) -> std::collections::HashMap<String, String> {
        self.games
            .iter()
            .filter(|g| g.summary.holds(now.for_game(&g.summary.game)))
            .filter_map(|g| Some((g.id.clone(), g.checked.clone()?)))
            .collect()
    }

    pub fn new() -> Manifest {
        Manifest {
            format: FORMAT,
            ..Manifest::default()
        }
    }

    /// Each game's position in `games`, by id.
    pub fn game_positions(&self) -> HashMap<String, usize> {
        self.games
            .iter()
            .enumerate()
            .map(|(i, g)| (g.id.clone(), i))
            .collect()
    }

    /// Puts the parts in key order and each record's files in path order
    /// (games stay in the registry's order), so equal sites have equal
    /// manifests. A list shared with an earlier manifest ([`Files`]) was
    /// put in order when that manifest was, and is left as it is.
    pub fn sort(&mut self) {
        self.parts.sort_by(|a, b| a.key.cmp(&b.key));
        let lists = self.games.iter_mut().map(|g| &mut g.files);
        for files in lists.chain(self.parts.iter_mut().map(|p| &mut p.files)) {
            if let Some(files) = Arc::get_mut(files) {
                files.sort_by(|a, b| a.path.cmp(&b.path));
            }
        }
    }

    /// Every record's list of files, the games' first.
    pub fn lists(&self) -> impl Iterator<Item = &Files> {
        (self.games.iter().map(|g| &g.files)).chain(self.parts.iter().map(|p| &p.files))
    }

    /// The manifest's bytes (compact JSON) once [`Manifest::sort`]ed, in
    /// one piece: what [`Manifest::to_bytes_after`] gives.
    #[cfg(test)]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = serde_json::to_vec(self).unwrap_or_default();
        bytes.push(b'\n');
        bytes
    }

    /// The manifest's bytes (compact JSON, once [`Manifest::sort`]ed), with each game's record serialized apart:
    /// a record that is the one `before` has for its game (the same list
    /// of files and summary, [`Files`], and the same other fields) takes
    /// its bytes from `before`'s instead of being serialized again. Also
    /// returns the bytes of each game's record, in order, for the next
    /// build of the same process. The bytes are those of the whole
    /// manifest serialized at once (compact JSON is the concatenation of
    /// its parts; a test holds them equal).
    pub fn to_bytes_after(&self, before: Option<&Serialized<'_>>) -> (Vec<u8>, Vec<Arc<[u8]>>) {
        let records: Vec<Arc<[u8]>> = self
            .games
            .par_iter()
            .map(|game| {
                before
                    .and_then(|b| b.of(game))
                    .unwrap_or_else(|| serde_json::to_vec(game).unwrap_or_default().into())
            })
            .collect();
        let parts = serde_json::to_vec(&self.parts).unwrap_or_default();
        let size = records.iter().map(|r| r.len() + 1).sum::<usize>() + parts.len() + 64;
        let mut bytes = Vec::with_capacity(size);
        bytes.extend_from_slice(format!("{{\"format\":{},\"games\":[", self.format).as_bytes());
        for (i, record) in records.iter().enumerate() {
            if i > 0 {
                bytes.push(b',');
            }
            bytes.extend_from_slice(record);
        }
        bytes.extend_from_slice(b"],\"parts\":");
        bytes.extend_from_slice(&parts);
        bytes.extend_from_slice(b"}\n");
        (bytes, records)
    }

    /// Reads the manifest of the site in `dir` and the time it was written;
    /// `None` when it is missing, unreadable or of another format.
    pub fn read(dir: &Path) -> Option<(Manifest, SystemTime)> {
        let path = dir.join(layout::OUTPUT_MANIFEST);
        let meta = fs::symlink_metadata(&path).ok()?;
        if !meta.is_file() {
            return None;
        }
        let written = meta.modified().ok()?;
        let bytes = fs::read(&path).ok()?;
        let mut manifest: Manifest = serde_json::from_slice(&bytes).ok()?;
        // In order whatever the file says (the writer looks paths up in
        // each list by halves).
        manifest.sort();
        manifest.warnings = fs::read(dir.join(layout::OUTPUT_WARNINGS))
            .ok()
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default();
        (manifest.format == FORMAT).then_some((manifest, written))
    }

    /// Every file the manifest names, by path.
    pub fn files(&self) -> HashMap<&str, &FileRecord> {
        self.lists()
            .flat_map(|files| files.iter())
            .map(|f| (f.path.as_str(), f))
            .collect()
    }
}

/// A manifest with the bytes of each of its games' records
/// ([`Manifest::to_bytes_after`]).
pub(crate) struct Serialized<'a> {
    pub manifest: &'a Manifest,
    /// Game id to its place in `manifest.games`.
    pub positions: &'a HashMap<String, usize>,
    /// The bytes of each game's record, in order.
    pub records: &'a [Arc<[u8]>],
}

impl Serialized<'_> {
    /// The bytes of `game`'s record when it is the one this manifest has.
    fn of(&self, game: &GameRecord) -> Option<Arc<[u8]>> {
        let at = *self.positions.get(&game.id)?;
        let was = self.manifest.games.get(at)?;
        // Every field, named, so a field added to the record cannot be
        // left out of the comparison (its bytes would be stale).
        let GameRecord {
            id: _,
            fingerprint,
            complete,
            home,
            checked,
            summary,
            files,
        } = game;
        let same = Arc::ptr_eq(&was.files, files)
            && Arc::ptr_eq(&was.summary, summary)
            && was.fingerprint == *fingerprint
            && was.complete == *complete
            && was.home == *home
            && was.checked == *checked;
        same.then(|| self.records.get(at).cloned()).flatten()
    }
}

/// What [`verify`] found in a site folder.
#[derive(Debug, Default)]
pub(crate) struct Verified {
    /// Paths that hold what the manifest says, each with its inode number
    /// as the folder listing gives it.
    pub good: HashMap<String, u64>,
    /// Paths (files or folders) the manifest does not name, relative.
    pub extra: Vec<String>,
}

impl Verified {
    /// Whether every file of the manifest checked out and nothing else is there.
    pub fn clean(&self, manifest: &Manifest) -> bool {
        self.extra.is_empty() && self.good.len() == manifest.files().len()
    }
}

/// Every folder that holds one of `paths` (relative, `/`-separated), at
/// any depth: `a/b/c.json` gives `a/b` and `a`.
pub(crate) fn folders_of<'a>(paths: impl IntoIterator<Item = &'a str>) -> HashSet<&'a str> {
    let mut folders = HashSet::new();
    for path in paths {
        let mut rest = path;
        while let Some(at) = rest.rfind('/') {
            rest = &rest[..at];
            if !folders.insert(rest) {
                break;
            }
        }
    }
    folders
}

/// The inode number a folder listing gives for `entry` (no `stat`); 0,
/// which matches nothing, where the platform has none.
pub(crate) fn listed_inode(entry: &fs::DirEntry) -> u64 {
    #[cfg(unix)]
    {
        std::os::unix::fs::DirEntryExt::ino(entry)
    }
    #[cfg(not(unix))]
    {
        let _ = entry;
        0
    }
}

/// Checks the site in `dir` against `manifest` (written at `written`): one
/// directory listing per folder and one `stat` per file, folders in
/// parallel. The marker and the manifest themselves are not listed.
pub(crate) fn verify(dir: &Path, manifest: &Manifest, written: SystemTime) -> Verified {
    let files = manifest.files();
    let mut folders = folders_of(files.keys().copied());
    folders.insert("");
    let list: Vec<&str> = folders.iter().copied().collect();
    // Per folder: the good files with their inodes, and the extra paths.
    type Found = (Vec<(String, u64)>, Vec<String>);
    let found: Vec<Found> = list
        .par_iter()
        .map(|folder| {
            let mut good = Vec::new();
            let mut extra = Vec::new();
            let Ok(list) = fs::read_dir(dir.join(folder)) else {
                return (good, extra);
            };
            for entry in list.flatten() {
                let name = entry.file_name();
                let Some(name) = name.to_str() else {
                    extra.push(format!("{folder}/{}", name.to_string_lossy()));
                    continue;
                };
                let rel = if folder.is_empty() {
                    name.to_owned()
                } else {
                    format!("{folder}/{name}")
                };
                if folder.is_empty()
                    && (name == layout::OUTPUT_MARKER
                        || name == layout::OUTPUT_MANIFEST
                        || name == layout::OUTPUT_WARNINGS)
                {
                    continue;
                }
                // The listing tells folders apart without a `stat`.
                if entry.file_type().is_ok_and(|t| t.is_dir()) {
                    if !folders.contains(rel.as_str()) {
                        extra.push(rel);
                    }
                    continue;
                }
                let Ok(meta) = entry.metadata() else {
                    extra.push(rel);
                    continue;
                };
                match files.get(rel.as_str()) {
                    Some(record)
                        if meta.is_file()
                            && meta.len() == record.bytes
                            && meta.modified().is_ok_and(|t| t <= written) =>
                    {
                        good.push((rel, listed_inode(&entry)));
                    }
                    Some(_) => {}
                    None => extra.push(rel),
                }
            }
            (good, extra)
        })
        .collect();
    let mut verified = Verified::default();
    for (good, extra) in found {
        verified.good.extend(good);
        verified.extra.extend(extra);
    }
    verified
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(id: &str, fingerprint: &str) -> serde_json::Value {
        serde_json::json!({
            "id": id, "fingerprint": fingerprint, "complete": true, "home": "h", "checked": null,
            "summary": {
                "game": {"id": id, "name": "名前 \"quoted\"", "locales": ["zh-CN"],
                         "defaultLocale": "zh-CN", "timeZone": "Asia/Shanghai"},
                "documents": [{"locale": "zh-CN", "is_default": true, "document": {
                    "version": "1.0", "versionName": "一", "startTime": "2026-10-14T11:00:00",
                    "endTime": "2026-11-25T05:59:59", "cover": "", "activities": []}}],
                "digests": [["abc", 3]],
                "dues": [{"updateMode": "version", "dueAt": "2026-11-25T05:59:59+08:00"}]
            },
            "files": [{"path": format!("api/{id}.json"), "sha256": "s", "bytes": 3}]
        })
    }

    fn manifest(games: &[serde_json::Value]) -> Manifest {
        serde_json::from_value(serde_json::json!({
            "format": FORMAT,
            "games": games,
            "parts": [{"key": "k", "complete": false, "files": [{"path": "index.html", "sha256": "t", "bytes": 9}]}]
        }))
        .unwrap()
    }

    /// The manifest's bytes made a record at a time are its bytes made at
    /// once, and a record the manifest before had (its lists shared) takes
    /// that one's bytes.
    #[test]
    fn bytes_made_a_record_at_a_time_are_the_whole_manifests() {
        let first = manifest(&[game("a", "1"), game("b", "2")]);
        let (bytes, records) = first.to_bytes_after(None);
        assert_eq!(bytes, first.to_bytes());
        assert_eq!(records.len(), 2);

        // The next build keeps `a` as it is and changes `b`.
        let mut next = manifest(&[game("a", "1"), game("b", "3")]);
        next.games[0] = first.games[0].clone();
        let positions = first.game_positions();
        let before = Serialized {
            manifest: &first,
            positions: &positions,
            records: &records,
        };
        let (bytes, again) = next.to_bytes_after(Some(&before));
        assert_eq!(bytes, next.to_bytes());
        assert!(Arc::ptr_eq(&again[0], &records[0]), "a's bytes are taken");
        assert!(!Arc::ptr_eq(&again[1], &records[1]), "b's are made again");
        // An equal record that does not share its lists is made again.
        let copy = manifest(&[game("a", "1"), game("b", "2")]);
        let (bytes, fresh) = copy.to_bytes_after(Some(&before));
        assert_eq!(bytes, first.to_bytes());
        assert!(!Arc::ptr_eq(&fresh[0], &records[0]));
    }
}
