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
