//! Reads the root into memory, keeping each file's source text so diagnostics
//! can point at lines and columns. Knows nothing about HTTP.
//!
//! Loading is the first phase of checking: a file that is not well-formed
//! JSON (or has a byte-order mark, or is not UTF-8) yields a `json-syntax`
//! diagnostic here, and the later phases skip it. The registry is loaded once
//! ([`open`]); games are loaded one at a time ([`load_game`]) so that memory is
//! bounded by the largest game, not by the whole tree.

use std::io;
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use serde_json::Value;

use crate::diagnostics::{Diagnostic, Severity, locate};
use crate::model::Game;

/// The activity schema shipped with the binary, used when the root has none.
pub const BUILTIN_ACTIVITY_SCHEMA: &str = include_str!("../schema/activity.schema.json");
/// The registry schema shipped with the binary, used when the root has none.
pub const BUILTIN_GAMES_SCHEMA: &str = include_str!("../schema/games.schema.json");

/// Path of the registry, relative to the root.
pub const REGISTRY_PATH: &str = "games.json";

/// A source file that was read as text.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// Path relative to the root, forward slashes.
    pub path: String,
    pub text: String,
}

/// A well-formed JSON file: its text and its value.
#[derive(Debug, Clone)]
pub struct JsonFile {
    pub source: SourceFile,
    pub value: Value,
}

/// The root, opened: the registry and the schemas, before any game is read.
#[derive(Debug)]
pub struct Project {
    pub root: PathBuf,
    /// `games.json`, when it is well-formed JSON.
    pub registry: Option<JsonFile>,
    /// Every `data/<dir>/<file>` path found, relative to the root, sorted.
    pub data_files: Vec<String>,
    /// The activity schema (from `schema/` of the root, or the built-in one).
    pub activity_schema: Value,
    /// The registry schema (from `schema/` of the root, or the built-in one).
    pub games_schema: Value,
    /// Problems found while reading (`json-syntax` of `games.json`).
    pub diagnostics: Vec<Diagnostic>,
}

/// One data file of a game: the locale it belongs to and what was read.
#[derive(Debug, Clone)]
pub struct LoadedFile {
    pub locale: String,
    /// Path relative to the root.
    pub path: String,
    /// The parsed file; `None` when it is missing or not well-formed.
    pub json: Option<JsonFile>,
    /// Whether the file exists at all.
    pub exists: bool,
}

/// A game and its data files, one per locale of the registry.
#[derive(Debug, Clone)]
pub struct LoadedGame {
    pub game: Game,
    pub files: Vec<LoadedFile>,
    /// `json-syntax` problems of the game's files.
    pub diagnostics: Vec<Diagnostic>,
}

/// Opens `root`: reads the registry, the schemas and the list of data files.
/// `Err` only when the root itself cannot be read.
pub fn open(root: &Path) -> anyhow::Result<Project> {
    let meta = std::fs::metadata(root)
        .with_context(|| format!("cannot read the root `{}`", root.display()))?;
    anyhow::ensure!(
        meta.is_dir(),
        "the root `{}` is not a directory",
        root.display()
    );

    let mut diagnostics = Vec::new();
    let registry = match read_json(root, REGISTRY_PATH) {
        Ok(Some(file)) => Some(file),
        Ok(None) => {
            diagnostics.push(Diagnostic {
                code: "games-registry",
                severity: Severity::Error,
                file: REGISTRY_PATH.to_string(),
                line: 1,
                column: 1,
                message: "games.json is missing".to_string(),
                help: Some("create games.json at the root: {\"games\": [...]}".to_string()),
                width: 1,
            });
            None
        }
        Err(diagnostic) => {
            diagnostics.push(*diagnostic);
            None
        }
    };

    let activity_schema =
        read_schema(root, "schema/activity.schema.json", BUILTIN_ACTIVITY_SCHEMA)?;
    let games_schema = read_schema(root, "schema/games.schema.json", BUILTIN_GAMES_SCHEMA)?;

    Ok(Project {
        root: root.to_path_buf(),
        registry,
        data_files: list_data_files(root)?,
        activity_schema,
        games_schema,
        diagnostics,
    })
}

/// Reads the data files of `game` (one per locale).
pub fn load_game(root: &Path, game: &Game) -> LoadedGame {
    let mut diagnostics = Vec::new();
    let mut files = Vec::new();
    for locale in &game.locales {
        let path = game.data_path(locale);
        let (json, exists) = match read_json(root, &path) {
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
            json,
            exists,
        });
    }
    LoadedGame {
        game: game.clone(),
        files,
        diagnostics,
    }
}

/// Reads and parses `rel` under `root`. `Ok(None)` when the file does not exist;
/// `Err` with a `json-syntax` diagnostic when it is not well-formed UTF-8 JSON
/// (or cannot be read).
pub fn read_json(root: &Path, rel: &str) -> Result<Option<JsonFile>, Box<Diagnostic>> {
    let bytes = match std::fs::read(root.join(rel)) {
        Ok(bytes) => bytes,
        Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(err) => {
            return Err(Box::new(syntax(
                rel,
                1,
                1,
                1,
                format!("cannot read the file: {err}"),
                None,
            )));
        }
    };
    parse_json(rel, bytes).map(Some)
}

/// Parses `bytes` as strict JSON (no comments, no trailing commas, no BOM).
pub fn parse_json(rel: &str, bytes: Vec<u8>) -> Result<JsonFile, Box<Diagnostic>> {
    if bytes.starts_with(&[0xEF, 0xBB, 0xBF]) {
        return Err(Box::new(syntax(
            rel,
            1,
            1,
            1,
            "the file starts with a byte-order mark".to_string(),
            Some("save the file as UTF-8 without BOM".to_string()),
        )));
    }
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(err) => {
            let valid = err.utf8_error().valid_up_to();
            let bytes = err.into_bytes();
            let prefix = String::from_utf8_lossy(&bytes[..valid]).into_owned();
            let at = locate(&prefix, valid, valid);
            return Err(Box::new(syntax(
                rel,
                at.line,
                at.column,
                1,
                format!("invalid UTF-8 at byte {valid}"),
                Some("save the file as UTF-8".to_string()),
            )));
        }
    };
    match serde_json::from_str::<Value>(&text) {
        Ok(value) => Ok(JsonFile {
            source: SourceFile {
                path: rel.to_string(),
                text,
            },
            value,
        }),
        Err(serde_err) => Err(Box::new(syntax_error(rel, &text, &serde_err))),
    }
}

/// A precise `json-syntax` diagnostic: jsonc-parser (all leniencies off) names
/// the problem and its range better than serde_json does.
fn syntax_error(rel: &str, text: &str, serde_err: &serde_json::Error) -> Diagnostic {
    let strict = jsonc_parser::ParseOptions {
        allow_comments: false,
        allow_loose_object_property_names: false,
        allow_trailing_commas: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    };
    let collect = jsonc_parser::CollectOptions::default();
    match jsonc_parser::parse_to_ast(text, &collect, &strict) {
        Err(err) => {
            let range = err.range();
            let kind = lowercase_first(&err.kind().to_string());
            if kind.starts_with("unterminated") {
                // Point at the end, where the closing bracket or quote is missing.
                let opened = locate(text, range.start, range.end);
                let end = text.trim_end().len();
                let at = locate(text, end, end);
                let message = format!(
                    "unexpected end of file: {} opened at {}:{} is never closed",
                    kind.trim_start_matches("unterminated "),
                    opened.line,
                    opened.column
                );
                return syntax(
                    rel,
                    at.line,
                    at.column,
                    1,
                    message,
                    Some("add the missing closing bracket or quote".to_string()),
                );
            }
            let at = locate(text, range.start, range.end);
            let help = syntax_help(&kind);
            syntax(rel, at.line, at.column, at.width, kind, help)
        }
        Ok(result) if result.value.is_none() => {
            syntax(rel, 1, 1, 1, "the file is empty".to_string(), None)
        }
        Ok(_) => {
            // jsonc-parser accepted what serde_json refused (a lone surrogate, a huge
            // number): fall back to serde_json's own position.
            let message = serde_err.to_string();
            let message = message
                .split(" at line ")
                .next()
                .unwrap_or(&message)
                .to_string();
            syntax(
                rel,
                serde_err.line().max(1),
                serde_err.column().max(1),
                1,
                message,
                None,
            )
        }
    }
}

fn lowercase_first(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map_or(String::new(), |c| c.to_lowercase().chain(chars).collect())
}

fn syntax_help(kind: &str) -> Option<String> {
    let lower = kind.to_ascii_lowercase();
    let help = if lower.contains("trailing comma") {
        "remove the comma after the last element"
    } else if lower.contains("comment") {
        "JSON has no comments; remove it"
    } else if lower.contains("single-quoted") || lower.contains("single quoted") {
        "JSON strings use double quotes"
    } else if lower.contains("comma") {
        "separate elements with a comma"
    } else {
        return None;
    };
    Some(help.to_string())
}

fn syntax(
    rel: &str,
    line: usize,
    column: usize,
    width: usize,
    message: String,
    help: Option<String>,
) -> Diagnostic {
    Diagnostic {
        code: "json-syntax",
        severity: Severity::Error,
        file: rel.to_string(),
        line,
        column,
        message,
        help,
        width,
    }
}

fn read_schema(root: &Path, rel: &str, builtin: &str) -> anyhow::Result<Value> {
    let text = match std::fs::read_to_string(root.join(rel)) {
        Ok(text) => text,
        Err(err) if err.kind() == io::ErrorKind::NotFound => builtin.to_string(),
        Err(err) => return Err(err).with_context(|| format!("cannot read `{rel}`")),
    };
    serde_json::from_str(&text).with_context(|| format!("`{rel}` is not valid JSON"))
}

/// Every file under `data/` two levels down (`data/<game>/<file>`), plus stray
/// files directly in `data/`, relative to the root and sorted.
fn list_data_files(root: &Path) -> anyhow::Result<Vec<String>> {
    let data = root.join("data");
    if !data.is_dir() {
        return Ok(Vec::new());
    }
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(&data)
        .min_depth(1)
        .max_depth(2)
        .sort_by_file_name()
    {
        let entry = entry.with_context(|| format!("cannot list `{}`", data.display()))?;
        if !entry.file_type().is_file() {
            continue;
        }
        let name = entry.file_name().to_string_lossy();
        if name.starts_with('.') {
            continue;
        }
        let rel = entry.path().strip_prefix(root).unwrap_or(entry.path());
        let rel: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        files.push(rel.join("/"));
    }
    Ok(files)
}
