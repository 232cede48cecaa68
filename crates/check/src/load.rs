//! Reads the root into memory, once: [`load`] reads the registry, the
//! schemas, every data file, the files of each kind with one file per
//! locale and the kept files into a [`Tree`], keeping each file's source
//! text so diagnostics can point at lines and columns. Everything after it
//! (validation, `--fix` and `fmt`, rendering, `diff`) computes on that
//! value and never reads the disk: rust-analyzer's "load, then analyse".
//! Knows nothing about HTTP.
//!
//! Loading is the first phase of checking: a file that is not UTF-8 text (or
//! starts with a byte-order mark) yields a `json-syntax` diagnostic here, and
//! the later phases skip it. Parsing the JSON belongs to the validator,
//! which reads the text once into a tree with spans. The types it fills
//! live in [`crate::source`].
//!
//! [`load`] takes an [`Overlay`]: texts read in place of the files on disk
//! (an editor's open buffers, an agent's draft), so the language server
//! and the agent tools check unsaved text with the same pipeline as
//! `check`. The live check reads again only the files a watcher says
//! changed ([`reload_files`], [`load_again`]), through the same reader. A
//! [`Loader`] handed to a command counts how often it was entered (a
//! `build` enters it once).

use std::collections::{BTreeMap, BTreeSet};
use std::io;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::Context as _;
use rayon::prelude::*;
use serde_json::Value;

use crate::diagnostics::{Code, Diagnostic, Severity, locate};
use crate::i18n::msg;
use crate::kind::{self, Sources};
use crate::source::{
    BUILTIN_GAMES_SCHEMA, KeptFile, KeptRead, Overlay, Project, Read, SourceFile, Stamp,
};
use crate::tree::{self, REGISTRY_PATH, SourcePath};

/// What [`load`] gives: the tree in memory (its one owner is [`crate::source`]).
pub use crate::source::Tree;

/// The loader a command reads its tree with: [`load`], counted. Its
/// clones share the count, so a test hands one to a command (in its
/// options) and reads afterwards how often the command entered it
/// ([`Loader::entries`]); nothing is kept for the whole process.
#[derive(Clone, Debug, Default)]
pub struct Loader {
    entries: Arc<AtomicUsize>,
}

impl Loader {
    /// [`load`], counted.
    pub fn load(&self, root: &Path, overlay: &Overlay) -> anyhow::Result<Tree> {
        self.entries.fetch_add(1, Ordering::Relaxed);
        load(root, overlay)
    }

    /// How many times this loader (or a clone of it) was entered.
    pub fn entries(&self) -> usize {
        self.entries.load(Ordering::Relaxed)
    }
}

/// Reads the whole tree under `root` into memory, with the texts of
/// `overlay` in place of the files on disk: the registry, the schemas,
/// every data file, the files of each kind with one file per locale and
/// the kept files. `Err` only when the root itself (or a folder or schema
/// of it) cannot be read; a file that is not text is a diagnostic.
pub fn load(root: &Path, overlay: &Overlay) -> anyhow::Result<Tree> {
    read_tree(root, overlay, None)
}

/// [`load`] of the root `previous` was read from, taking from `previous`
/// the text of each file whose size and modification time are still those
/// it was read with (the live check, run again after an edit, reads what
/// changed).
pub fn load_again(previous: Tree, overlay: &Overlay) -> anyhow::Result<Tree> {
    let root = previous.project.root.clone();
    read_tree(&root, overlay, Some(previous))
}

/// What the loader found of one file: read now, or the same as before.
enum Found {
    Read(Option<Read>, Option<Stamp>),
    Same(Stamp),
}

fn read_tree(root: &Path, overlay: &Overlay, previous: Option<Tree>) -> anyhow::Result<Tree> {
    let (project, registry_shown) = open(root, overlay)?;
    let mut files = BTreeMap::new();
    if let Some(read) = registry_shown {
        // An unreadable registry's bytes, to show its lines.
        files.insert(REGISTRY_PATH.to_owned(), read);
    }
    let mut links = BTreeSet::new();
    let mut paths: Vec<String> = project.data_files.to_vec();
    paths.extend(unlisted_data_files(root)?);
    paths.extend(project.locale_files.values().flatten().cloned());
    let mut previous = previous;
    let before = previous.as_ref();
    let found: Vec<(String, Found, bool)> = paths
        .into_par_iter()
        .map(|path| {
            let linked = overlay.get(&path).is_none()
                && std::fs::symlink_metadata(root.join(&path))
                    .is_ok_and(|m| m.file_type().is_symlink());
            if let Some(stamp) = before.and_then(|p| unchanged(p, root, &path, overlay)) {
                return (path, Found::Same(stamp), linked);
            }
            let (read, stamp) = read_stamped(root, &path, overlay);
            (path, Found::Read(read, stamp), linked)
        })
        .collect();
    let mut stamps = BTreeMap::new();
    for (path, found, linked) in found {
        let (read, stamp) = match found {
            Found::Read(read, stamp) => (read, stamp),
            // Moved out of the previous tree, not copied.
            Found::Same(stamp) => (
                previous.as_mut().and_then(|p| p.files.remove(&path)),
                Some(stamp),
            ),
        };
        if linked {
            links.insert(path.clone());
        }
        if let Some(stamp) = stamp {
            stamps.insert(path.clone(), stamp);
        }
        if let Some(read) = read {
            files.insert(path, read);
        }
    }
    // The overlay's texts stand for their files, listed or not.
    for path in overlay.paths().filter(|p| *p != REGISTRY_PATH) {
        if let Some(read) = read_file(root, path, overlay) {
            files.insert(path.to_owned(), read);
        }
    }
    let kept: Vec<KeptRead> = kept_files(root)?
        .into_iter()
        .map(|file| {
            let bytes = file
                .problem
                .is_none()
                .then(|| std::fs::read(root.join(&file.path)).map_err(|err| err.to_string()));
            KeptRead { file, bytes }
        })
        .collect();
    let linked = |path: &str| {
        std::fs::symlink_metadata(root.join(path)).is_ok_and(|m| m.file_type().is_symlink())
    };
    for path in kept
        .iter()
        .map(|k| k.file.path.as_str())
        .chain([REGISTRY_PATH])
    {
        if linked(path) && overlay.get(path).is_none() {
            links.insert(path.to_owned());
        }
    }
    Ok(Tree {
        project,
        files,
        links,
        stamps,
        kept,
    })
}

/// The stamp `previous` read `path` with, when it read it as text and the
/// file on disk still has that size and time (and the overlay has no text
/// for it): its text can be taken as it is.
fn unchanged(previous: &Tree, root: &Path, path: &str, overlay: &Overlay) -> Option<Stamp> {
    if overlay.get(path).is_some() {
        return None;
    }
    let stamp = *previous.stamps.get(path)?;
    let Some(Read::Text(_)) = previous.files.get(path) else {
        return None;
    };
    let meta = std::fs::metadata(root.join(path)).ok()?;
    ((meta.len(), meta.modified().ok()) == stamp).then_some(stamp)
}

/// Reads the data files `paths` of `tree` again from the disk (the files
/// a watcher says changed), through the loader's one reader; the overlay's
/// texts are not looked at. Returns how many were read.
pub fn reload_files(tree: &mut Tree, paths: &[String]) -> usize {
    let root = tree.project.root.clone();
    let none = Overlay::new();
    for path in paths {
        let (read, stamp) = read_stamped(&root, path, &none);
        match read {
            Some(read) => tree.files.insert(path.clone(), read),
            None => tree.files.remove(path),
        };
        match stamp {
            Some(stamp) => tree.stamps.insert(path.clone(), stamp),
            None => tree.stamps.remove(path),
        };
    }
    paths.len()
}

/// Opens `root`: reads the registry, the schemas and the list of data files.
/// Also gives the registry as read when it is not text, for its lines to
/// be shown.
fn open(root: &Path, overlay: &Overlay) -> anyhow::Result<(Project, Option<Read>)> {
    let meta = std::fs::metadata(root)
        .with_context(|| msg!("err-read-root", path = root.display().to_string()))?;
    anyhow::ensure!(
        meta.is_dir(),
        msg!("err-root-not-dir", path = root.display().to_string())
    );

    let mut diagnostics = Vec::new();
    let mut unreadable = None;
    let registry = match read_file(root, REGISTRY_PATH, overlay) {
        Some(Read::Text(file)) => Some(file),
        None => {
            diagnostics.push(Diagnostic {
                code: Code::GamesRegistry,
                severity: Severity::Error,
                file: REGISTRY_PATH.to_string(),
                line: 1,
                column: 1,
                message: msg!("load-registry-missing"),
                help: Some(msg!("load-registry-missing-help")),
                notes: Vec::new(),
                width: 1,
                fix: None,
                choices: Vec::new(),
            });
            None
        }
        Some(Read::Unreadable(diagnostic, shown)) => {
            diagnostics.push((*diagnostic).clone());
            unreadable = Some(Read::Unreadable(diagnostic, shown));
            None
        }
    };

    let games_schema = read_schema(root, tree::GAMES_SCHEMA_PATH, BUILTIN_GAMES_SCHEMA)?;
    let mut schemas = BTreeMap::new();
    for (kind, schema) in kind::schemas() {
        schemas.insert(kind.name, read_schema(root, schema.source, schema.builtin)?);
    }
    let mut locale_files = BTreeMap::new();
    for kind in kind::ALL {
        if let Sources::PerLocale { dir, .. } = kind.sources {
            locale_files.insert(kind.name, list_locale_files(root, dir, overlay)?);
        }
    }

    let project = Project {
        root: root.to_path_buf(),
        registry,
        data_files: list_data_files(root, overlay)?,
        games_schema,
        schemas,
        locale_files,
        diagnostics,
    };
    Ok((project, unreadable))
}

/// Reads `rel` under `root` as text (the overlay's text when it has one).
/// `None` when the file does not exist; [`Read::Unreadable`] with a
/// `json-syntax` diagnostic when it is not UTF-8 (or cannot be read).
fn read_file(root: &Path, rel: &str, overlay: &Overlay) -> Option<Read> {
    read_stamped(root, rel, overlay).0
}

/// [`read_file`], and the size and modification time of the file read
/// (taken from the file opened, so they are those of the text read), when
/// it was read from the disk.
fn read_stamped(root: &Path, rel: &str, overlay: &Overlay) -> (Option<Read>, Option<Stamp>) {
    if let Some(text) = overlay.get(rel) {
        let source = SourceFile {
            path: rel.to_string(),
            text: text.to_string(),
        };
        return (Some(Read::Text(source)), None);
    }
    let mut stamp = None;
    let read = std::fs::File::open(root.join(rel)).and_then(|mut file| {
        let meta = file.metadata()?;
        stamp = Some((meta.len(), meta.modified().ok()));
        let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
        std::io::Read::read_to_end(&mut file, &mut bytes)?;
        Ok(bytes)
    });
    (decoded(rel, read), stamp)
}

/// What the bytes `read` of `rel` are to the checker.
fn decoded(rel: &str, read: io::Result<Vec<u8>>) -> Option<Read> {
    let bytes = match read {
        Ok(bytes) => bytes,
        Err(err) if err.kind() == io::ErrorKind::NotFound => return None,
        Err(err) => {
            return Some(Read::Unreadable(
                Box::new(Diagnostic::json_syntax(
                    rel,
                    1,
                    1,
                    1,
                    msg!("load-read-failed", error = err.to_string()),
                    None,
                )),
                None,
            ));
        }
    };
    if simdutf8::basic::from_utf8(&bytes).is_err() {
        let shown = String::from_utf8_lossy(&bytes).into_owned();
        return Some(match decode(rel, bytes) {
            Ok(source) => Read::Text(source),
            Err(diagnostic) => Read::Unreadable(diagnostic, Some(shown)),
        });
    }
    decode(rel, bytes).ok().map(Read::Text)
}

/// The entries of `data/<game>/` the listing leaves out but a game may
/// name: links and other entries that are not regular files, directly in
/// a game's folder or in a folder reached through a link. Read as a game's
/// file would be, never listed as one.
fn unlisted_data_files(root: &Path) -> anyhow::Result<Vec<String>> {
    let data = root.join(tree::DATA_DIR);
    let Ok(games) = std::fs::read_dir(&data) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for game in games {
        let game = game.with_context(|| msg!("err-list", path = data.display().to_string()))?;
        let name = game.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || tree::is_reserved_dir(&name) {
            continue;
        }
        let linked_dir = game.file_type().is_ok_and(|t| t.is_symlink()) && game.path().is_dir();
        if !linked_dir && !game.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        let Ok(entries) = std::fs::read_dir(game.path()) else {
            continue;
        };
        for entry in entries.flatten() {
            let file = entry.file_name().to_string_lossy().into_owned();
            if file.starts_with('.') {
                continue;
            }
            if linked_dir || !entry.file_type().is_ok_and(|t| t.is_file()) {
                out.push(format!("{}/{name}/{file}", tree::DATA_DIR));
            }
        }
    }
    Ok(out)
}

/// Decodes `bytes` as UTF-8 text. A byte-order mark stays in the text:
/// the parser reports it as one mistake with its exact fix
/// ([`crate::json::parse_recovering`]) and reads on behind it.
pub fn decode(rel: &str, bytes: Vec<u8>) -> Result<SourceFile, Box<Diagnostic>> {
    // simdutf8 validates CJK-heavy text several times faster than the
    // standard library; the standard library then explains a failure.
    if simdutf8::basic::from_utf8(&bytes).is_ok() {
        // SAFETY: simdutf8 has just checked that `bytes` is valid UTF-8.
        let text = unsafe { String::from_utf8_unchecked(bytes) };
        return Ok(SourceFile {
            path: rel.to_string(),
            text,
        });
    }
    match String::from_utf8(bytes) {
        Ok(text) => Ok(SourceFile {
            path: rel.to_string(),
            text,
        }),
        Err(err) => {
            let valid = err.utf8_error().valid_up_to();
            let bytes = err.into_bytes();
            // The prefix is valid UTF-8 by definition of `valid_up_to`.
            let prefix = std::str::from_utf8(&bytes[..valid]).unwrap_or_default();
            let at = locate(prefix, valid, valid);
            Err(Box::new(Diagnostic::json_syntax(
                rel,
                at.line,
                at.column,
                1,
                msg!("load-invalid-utf8", byte = valid),
                Some(msg!("load-invalid-utf8-help")),
            )))
        }
    }
}

fn read_schema(root: &Path, rel: &str, builtin: &str) -> anyhow::Result<Value> {
    let text = match std::fs::read_to_string(root.join(rel)) {
        Ok(text) => text,
        Err(err) if err.kind() == io::ErrorKind::NotFound => builtin.to_string(),
        Err(err) => return Err(err).with_context(|| msg!("err-read", path = rel)),
    };
    serde_json::from_str(&text).with_context(|| msg!("err-not-json", path = rel))
}

/// Every file directly in the folder `rel` (`data/_announcements/`) but
/// hidden ones, and the overlay's files there, relative to the root and sorted.
fn list_locale_files(root: &Path, rel: &str, overlay: &Overlay) -> anyhow::Result<Vec<String>> {
    let mut files: Vec<String> = overlay
        .paths()
        .filter(|p| tree::file_in(rel, p).is_some())
        .map(str::to_string)
        .collect();
    let dir = root.join(rel);
    match std::fs::read_dir(&dir) {
        Ok(entries) => {
            for entry in entries {
                let entry =
                    entry.with_context(|| msg!("err-list", path = dir.display().to_string()))?;
                let name = entry.file_name().to_string_lossy().into_owned();
                if name.starts_with('.') || !entry.file_type().is_ok_and(|t| t.is_file()) {
                    continue;
                }
                files.push(format!("{rel}/{name}"));
            }
        }
        Err(err) if err.kind() == io::ErrorKind::NotFound => {}
        Err(err) => {
            return Err(err).with_context(|| msg!("err-list", path = dir.display().to_string()));
        }
    }
    files.sort();
    files.dedup();
    Ok(files)
}

/// Every file under `data/` two levels down (`data/<game>/<file>`), plus stray
/// files directly in `data/`, relative to the root and sorted; the overlay's
/// files there count too, saved or not. The tool's own folders (`data/_*`:
/// announcements, kept files) are not listed: they are never games.
fn list_data_files(root: &Path, overlay: &Overlay) -> anyhow::Result<Vec<String>> {
    let mut files: Vec<String> = overlay
        .paths()
        .filter(|p| match tree::classify(p) {
            SourcePath::Data { .. } => true,
            SourcePath::OtherData => p.matches('/').count() == 1,
            _ => false,
        })
        .map(str::to_string)
        .collect();
    let data = root.join(tree::DATA_DIR);
    if !data.is_dir() {
        files.sort();
        return Ok(files);
    }
    for entry in walkdir::WalkDir::new(&data)
        .min_depth(1)
        .max_depth(2)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| {
            !(e.depth() == 1
                && e.file_type().is_dir()
                && tree::is_reserved_dir(&e.file_name().to_string_lossy()))
        })
    {
        let entry = entry.with_context(|| msg!("err-list", path = data.display().to_string()))?;
        if !entry.file_type().is_file() {
            continue;
        }
        let name = entry.file_name().to_string_lossy();
        if name.starts_with('.') {
            continue;
        }
        files.push(crate::relpath::below(root, entry.path()));
    }
    files.sort();
    files.dedup();
    Ok(files)
}

/// The files of the verbatim folder (`data/_files/`), sorted by path. Links
/// are not followed into folders; a link to a file is published as that
/// file when it stays inside the folder, and is a problem otherwise.
fn kept_files(root: &Path) -> anyhow::Result<Vec<KeptFile>> {
    let dir = root.join(tree::FILES_DIR);
    if !dir.is_dir() {
        return Ok(Vec::new());
    }
    let inside = std::fs::canonicalize(&dir)
        .with_context(|| msg!("err-resolve", path = dir.display().to_string()))?;
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(&dir).min_depth(1).sort_by_file_name() {
        let entry = entry.with_context(|| msg!("err-list", path = dir.display().to_string()))?;
        let kind = entry.file_type();
        if kind.is_dir() {
            continue;
        }
        let path = crate::relpath::below(root, entry.path());
        let SourcePath::Kept { published } = tree::classify(&path) else {
            continue;
        };
        let published = published.to_owned();
        let problem = if kind.is_symlink() {
            match std::fs::canonicalize(entry.path()) {
                Ok(target) if !target.starts_with(&inside) => Some(msg!(
                    "kept-link-outside",
                    target = target.display().to_string(),
                    folder = tree::FILES_DIR
                )),
                Ok(target) if target.is_dir() => Some(msg!("kept-link-folder")),
                Ok(_) => None,
                Err(err) => Some(msg!("kept-link-unresolved", error = err.to_string())),
            }
        } else if kind.is_file() {
            None
        } else {
            Some(msg!("kept-not-regular"))
        };
        files.push(KeptFile {
            path,
            published,
            problem,
        });
    }
    Ok(files)
}
