//! What the loader hands the validator: source files as text, a game's files
//! and the opened root. Plain data: no I/O, no parsing.
//!
//! These types sit beside `model` so that the loader (which
//! fills them) and the validator (which reads them) both depend on them
//! and never on each other.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde_json::Value;

use crate::diagnostics::Diagnostic;
use crate::json::{Duplicate, Node};
use crate::kind::Kind;
use crate::model::Game;

/// The registry schema shipped with the binary, used when the root has none.
/// (Each kind of document ships its own: [`crate::kind::Schema::builtin`].)
pub const BUILTIN_GAMES_SCHEMA: &str = include_str!("../../../schema/games.schema.json");

/// A file read as UTF-8 text (no byte-order mark), not yet parsed.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// Path relative to the root, forward slashes.
    pub path: String,
    pub text: String,
}

/// Texts that stand in for files of the root: an editor's unsaved buffers,
/// an agent's draft. Keyed by the path relative to the root (forward
/// slashes); a path that does not exist on disk is read as if it did.
#[derive(Debug, Clone, Default)]
pub struct Overlay {
    files: BTreeMap<String, String>,
}

impl Overlay {
    /// No file overridden: the files on disk as they are.
    pub fn new() -> Self {
        Overlay::default()
    }

    /// Reads `text` in place of the file at `path` (relative to the root).
    pub fn insert(&mut self, path: impl Into<String>, text: impl Into<String>) {
        self.files.insert(path.into(), text.into());
    }

    /// The text standing in for `path`, when there is one.
    pub fn get(&self, path: &str) -> Option<&str> {
        self.files.get(path).map(String::as_str)
    }

    /// Takes the text of `path` out of the overlay.
    pub fn remove(&mut self, path: &str) -> Option<String> {
        self.files.remove(path)
    }

    /// The overridden paths, sorted.
    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.files.keys().map(String::as_str)
    }
}

/// The root, opened: the registry and the schemas, before any game is read.
#[derive(Debug)]
pub struct Project {
    pub root: PathBuf,
    /// The text of `games.json`, when it could be read as UTF-8.
    pub registry: Option<SourceFile>,
    /// Every `data/<dir>/<file>` path found, relative to the root, sorted.
    pub data_files: Vec<String>,
    /// The registry schema (from `schema/` of the root, or the built-in one).
    pub games_schema: Value,
    /// The schema of each kind of document that has one (from `schema/`
    /// of the root, or the built-in one), by the kind's name.
    pub schemas: BTreeMap<&'static str, Value>,
    /// Every file directly in the folder of each kind with one file per
    /// locale (`data/_announcements/`), the overlay's too, relative to the
    /// root and sorted, by the kind's name; the validator says which are
    /// not named after a locale.
    pub locale_files: BTreeMap<&'static str, Vec<String>>,
    /// Problems found while reading (`games.json` missing, not UTF-8).
    pub diagnostics: Vec<Diagnostic>,
}

impl Project {
    /// The schema of `kind` (from `schema/` of the root, or the built-in
    /// one); `None` for a kind without one.
    pub fn schema(&self, kind: &Kind) -> Option<&Value> {
        self.schemas.get(kind.name)
    }

    /// The files of a kind with one file per locale, as listed.
    pub fn locale_files(&self, kind: &Kind) -> &[String] {
        self.locale_files.get(kind.name).map_or(&[], Vec::as_slice)
    }
}

/// A file of the verbatim folder `data/_files/`, published byte for byte.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptFile {
    /// Path relative to the root (`data/_files/robots.txt`).
    pub path: String,
    /// Path relative to the site root it is published at (`robots.txt`).
    pub published: String,
    /// Why it cannot be published (a link reaching outside the folder, a
    /// link to a folder, unreadable); `None` when it can.
    pub problem: Option<crate::i18n::Msg>,
}

/// One data file of a game: the locale it belongs to and what was read.
#[derive(Debug, Clone)]
pub struct LoadedFile {
    pub locale: String,
    /// Path relative to the root.
    pub path: String,
    /// The text; `None` when the file is missing or is not UTF-8 text.
    pub source: Option<SourceFile>,
    /// Whether the file exists at all.
    pub exists: bool,
}

/// A game and its data files, one per locale of the registry.
#[derive(Debug, Clone)]
pub struct LoadedGame {
    pub game: Game,
    pub files: Vec<LoadedFile>,
    /// Problems of reading the game's files (`json-syntax` for encodings).
    pub diagnostics: Vec<Diagnostic>,
}

/// A source file parsed into a tree that borrows from its text.
#[derive(Debug)]
pub struct JsonFile<'a> {
    /// Path relative to the root.
    pub path: &'a str,
    pub text: &'a str,
    pub root: Node<'a>,
    /// Keys given twice in one object.
    pub duplicates: Vec<Duplicate>,
}

/// What the loader read of one source file.
#[derive(Debug)]
pub enum Read {
    /// Its text (from the disk, or the overlay's).
    Text(SourceFile),
    /// It exists but is not UTF-8 text, or could not be read: the
    /// `json-syntax` diagnostic that says so, and the bytes read as lossy
    /// text (to show a line of), when they could be read.
    Unreadable(Box<Diagnostic>, Option<String>),
}

/// A kept file (`data/_files/`) and its bytes as read.
#[derive(Debug)]
pub struct KeptRead {
    pub file: KeptFile,
    /// The bytes; the reason they could not be read (`None` for a file
    /// with a [`KeptFile::problem`], which is never read).
    pub bytes: Option<Result<Vec<u8>, String>>,
}

/// The whole tree read into memory once: the project (registry, file
/// lists, schemas), the text of every source file (the data files, the
/// files of each kind with one file per locale, the overlay's), and the
/// kept files' bytes. Everything after loading (validation, fixes,
/// formatting, rendering, `diff`) reads this value, never the disk.
#[derive(Debug)]
pub struct Tree {
    pub project: Project,
    /// Every source file read, by path relative to the root; a path
    /// absent here does not exist.
    pub files: BTreeMap<String, Read>,
    /// Paths of `files` that are links on disk: their text is checked,
    /// but a listing shows no line of them (a link may lead anywhere).
    pub links: std::collections::BTreeSet<String>,
    /// The size and modification time of each file of `files` read from
    /// the disk, as it was read (what the live check compares).
    pub stamps: BTreeMap<String, Stamp>,
    /// The files of `data/_files/`, sorted by path.
    pub kept: Vec<KeptRead>,
}

/// A file's size and modification time.
pub type Stamp = (u64, Option<std::time::SystemTime>);

impl Tree {
    /// The root it was read from.
    pub fn root(&self) -> &std::path::Path {
        &self.project.root
    }

    /// The text of `path` as read, when it exists and is text.
    pub fn text(&self, path: &str) -> Option<&str> {
        if path == crate::tree::REGISTRY_PATH {
            return self.project.registry.as_ref().map(|r| r.text.as_str());
        }
        match self.files.get(path) {
            Some(Read::Text(source)) => Some(&source.text),
            Some(Read::Unreadable(..)) => None,
            None => {
                let kept = self.kept.iter().find(|k| k.file.path == path)?;
                match &kept.bytes {
                    Some(Ok(bytes)) => std::str::from_utf8(bytes).ok(),
                    _ => None,
                }
            }
        }
    }

    /// The text of `path` to show a line of in a listing: not for a link;
    /// bytes that are not UTF-8 as lossy text.
    pub fn shown_text(&self, path: &str) -> Option<&str> {
        if self.links.contains(path) {
            return None;
        }
        match self.files.get(path) {
            Some(Read::Unreadable(_, shown)) => shown.as_deref(),
            _ => self.text(path),
        }
    }

    /// Replaces the text of `path` (a fix or a reformat made in memory).
    pub fn set_text(&mut self, path: &str, text: String) {
        let source = SourceFile {
            path: path.to_owned(),
            text,
        };
        if path == crate::tree::REGISTRY_PATH {
            self.project.registry = Some(source);
        } else if let Some(kept) = self.kept.iter_mut().find(|k| k.file.path == path) {
            kept.bytes = Some(Ok(source.text.into_bytes()));
        } else {
            self.files.insert(path.to_owned(), Read::Text(source));
        }
    }

    /// One file as the validator takes it, under `locale`.
    fn loaded(&self, path: String, locale: String) -> (LoadedFile, Option<Diagnostic>) {
        let (source, exists, problem) = match self.files.get(&path) {
            Some(Read::Text(source)) => (Some(source.clone()), true, None),
            Some(Read::Unreadable(diagnostic, _)) => (None, true, Some((**diagnostic).clone())),
            None => (None, false, None),
        };
        let file = LoadedFile {
            locale,
            path,
            source,
            exists,
        };
        (file, problem)
    }

    /// The data files of `game` (one per locale), as read.
    pub fn game(&self, game: &Game) -> LoadedGame {
        let mut diagnostics = Vec::new();
        let mut files = Vec::new();
        for locale in &game.locales {
            let path = crate::tree::data_path(&game.id, locale);
            let (file, problem) = self.loaded(path, locale.clone());
            diagnostics.extend(problem);
            files.push(file);
        }
        LoadedGame {
            game: game.clone(),
            files,
            diagnostics,
        }
    }

    /// Every file the project lists of `kind`, a kind with one file per
    /// locale (`data/_announcements/<name>.json`, in path order), with the
    /// encoding problems found; the validator says which names are not
    /// locales.
    pub fn locale_files(&self, kind: &Kind) -> (Vec<LoadedFile>, Vec<Diagnostic>) {
        let mut files = Vec::new();
        let mut diagnostics = Vec::new();
        for path in self.project.locale_files(kind) {
            let Some(locale) = kind.locale_of(path) else {
                continue;
            };
            let (mut file, problem) = self.loaded(path.clone(), locale.to_owned());
            diagnostics.extend(problem);
            // Listed, so it exists (an unreadable one too).
            file.exists = true;
            files.push(file);
        }
        (files, diagnostics)
    }
}
