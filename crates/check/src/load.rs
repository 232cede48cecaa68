//! Reads the root into memory, keeping each file's source text so diagnostics
//! can point at lines and columns. Knows nothing about HTTP.
//!
//! Loading is the first phase of checking: a file that is not UTF-8 text (or
//! starts with a byte-order mark) yields a `json-syntax` diagnostic here, and
//! the later phases skip it. Parsing the JSON belongs to the validator,
//! which reads the text once into a tree with spans. The registry is loaded
//! once ([`open`]); games are loaded one at a time ([`load_game`]) so that
//! memory is bounded by the largest game, not by the whole tree. The types it
//! fills live in [`crate::source`].
//!
//! Every reader has a form that takes an [`Overlay`]: texts read in place of
//! the files on disk (an editor's open buffers, an agent's draft), so the
//! language server and the agent tools check unsaved text with the same
//! pipeline as `check`.

use std::collections::BTreeMap;
use std::io;
use std::path::Path;

use anyhow::Context as _;
use serde_json::Value;

use crate::diagnostics::{Code, Diagnostic, Severity, locate};
use crate::i18n::msg;
use crate::kind::{self, Kind, Sources};
use crate::model::Game;
use crate::source::{
    BUILTIN_GAMES_SCHEMA, KeptFile, LoadedFile, LoadedGame, Overlay, Project, SourceFile,
};
use crate::tree::{self, REGISTRY_PATH, SourcePath};

/// Opens `root`: reads the registry, the schemas and the list of data files.
/// `Err` only when the root itself cannot be read.
pub fn open(root: &Path) -> anyhow::Result<Project> {
    open_with(root, &Overlay::new())
}

/// [`open`], reading the texts of `overlay` in place of the files on disk.
pub fn open_with(root: &Path, overlay: &Overlay) -> anyhow::Result<Project> {
    let meta = std::fs::metadata(root)
        .with_context(|| msg!("err-read-root", path = root.display().to_string()))?;
    anyhow::ensure!(
        meta.is_dir(),
        msg!("err-root-not-dir", path = root.display().to_string())
    );

    let mut diagnostics = Vec::new();
    let registry = match read_source_with(root, REGISTRY_PATH, overlay) {
        Ok(Some(file)) => Some(file),
        Ok(None) => {
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
        Err(diagnostic) => {
            diagnostics.push(*diagnostic);
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

    Ok(Project {
        root: root.to_path_buf(),
        registry,
        data_files: list_data_files(root, overlay)?,
        games_schema,
        schemas,
        locale_files,
        diagnostics,
    })
}

/// Reads the data files of `game` (one per locale).
pub fn load_game(root: &Path, game: &Game) -> LoadedGame {
    load_game_with(root, game, &Overlay::new())
}

/// [`load_game`], reading the texts of `overlay` in place of the files on disk.
pub fn load_game_with(root: &Path, game: &Game, overlay: &Overlay) -> LoadedGame {
    let mut diagnostics = Vec::new();
    let mut files = Vec::new();
    for locale in &game.locales {
        let path = tree::data_path(&game.id, locale);
        let (source, exists) = match read_source_with(root, &path, overlay) {
            Ok(Some(file)) => (Some(file), true),
            Ok(None) => (None, false),
            Err(diagnostic) => {
                diagnostics.push(*diagnostic);
                (None, true)
            }
        };
        files.push(LoadedFile {
            locale: locale.clone(),
            path,
            source,
            exists,
        });
    }
    LoadedGame {
        game: game.clone(),
        files,
        diagnostics,
    }
}

/// Reads every file the project lists of `kind`, a kind with one file per
/// locale (`data/_announcements/<name>.json`, in path order), with the
/// encoding problems found; the validator says which names are not locales.
pub fn load_locale_files_with(
    root: &Path,
    project: &Project,
    kind: &Kind,
    overlay: &Overlay,
) -> (Vec<LoadedFile>, Vec<Diagnostic>) {
    let mut files = Vec::new();
    let mut diagnostics = Vec::new();
    for path in project.locale_files(kind) {
        let Some(locale) = kind.locale_of(path) else {
            continue;
        };
        let source = match read_source_with(root, path, overlay) {
            Ok(source) => source,
            Err(diagnostic) => {
                diagnostics.push(*diagnostic);
                None
            }
        };
        files.push(LoadedFile {
            locale: locale.to_owned(),
            path: path.clone(),
            exists: true,
            source,
        });
    }
    (files, diagnostics)
}

/// Reads `rel` under `root` as text. `Ok(None)` when the file does not exist;
/// `Err` with a `json-syntax` diagnostic when it is not UTF-8 (or cannot
/// be read).
pub fn read_source(root: &Path, rel: &str) -> Result<Option<SourceFile>, Box<Diagnostic>> {
    read_source_with(root, rel, &Overlay::new())
}

/// [`read_source`], taking the text from `overlay` when it has one for `rel`.
pub fn read_source_with(
    root: &Path,
    rel: &str,
    overlay: &Overlay,
) -> Result<Option<SourceFile>, Box<Diagnostic>> {
    if let Some(text) = overlay.get(rel) {
        return Ok(Some(SourceFile {
            path: rel.to_string(),
            text: text.to_string(),
        }));
    }
    let bytes = match std::fs::read(root.join(rel)) {
        Ok(bytes) => bytes,
        Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(err) => {
            return Err(Box::new(Diagnostic::json_syntax(
                rel,
                1,
                1,
                1,
                msg!("load-read-failed", error = err.to_string()),
                None,
            )));
        }
    };
    decode(rel, bytes).map(Some)
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
pub fn kept_files(root: &Path) -> anyhow::Result<Vec<KeptFile>> {
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
