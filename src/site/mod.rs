//! The builder: a validated data tree to the files of `site/`. No HTTP, no async.
//!
//! [`build`] checks the tree first; with any error it writes nothing. Otherwise
//! it renders every file in memory game by game ([`OutputFile`]), writes them
//! into a staging directory beside the output and swaps it in with a rename.

pub mod diff;
pub mod ics;
pub mod pages;
pub mod publish;
mod write;

pub use write::{OUTPUT_MARKER, OutputState, guard_output, inspect_output};

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use chrono::NaiveDateTime;
use rayon::prelude::*;
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::diagnostics::{self, Diagnostic};
use crate::load;
use crate::model::{ActivityDocument, Game, Localized, to_pretty};
use crate::validate::{self, CheckedGame, Validator};

/// What to build and where.
#[derive(Debug, Clone)]
pub struct BuildOptions {
    /// Root of the data tree.
    pub root: PathBuf,
    /// Output directory, replaced atomically on success.
    pub out: PathBuf,
    /// "Now" for status marks and staleness; `None` means the clock.
    pub now: Option<NaiveDateTime>,
    /// Replace an unmarked non-empty output directory (never the root or
    /// the inputs); see [`inspect_output`].
    pub force: bool,
}

/// The result of a build: the diagnostics, and a summary when files were written.
#[derive(Debug, Clone)]
pub struct BuildOutcome {
    /// Every diagnostic of the check that ran first (warnings included).
    pub diagnostics: Vec<Diagnostic>,
    /// `None` when the check found errors and nothing was written.
    pub summary: Option<BuildSummary>,
}

/// What a successful build wrote.
#[derive(Debug, Clone)]
pub struct BuildSummary {
    pub files: usize,
    pub bytes: u64,
    pub elapsed: Duration,
}

/// One file of the site, rendered in memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputFile {
    /// Path relative to the output directory, forward slashes (`api/v1/activity/ww.json`).
    pub path: String,
    pub bytes: Vec<u8>,
}

/// One game with its validated documents, as the renderers see it.
#[derive(Debug, Clone)]
pub struct GameOutput {
    pub game: Game,
    /// One entry per locale of `game.locales`, in that order; activities sorted.
    pub documents: Vec<LocaleDocument>,
}

/// A document and where it is published.
#[derive(Debug, Clone)]
pub struct LocaleDocument {
    pub locale: String,
    pub is_default: bool,
    pub document: ActivityDocument,
}

/// The result of checking a whole tree.
#[derive(Debug)]
pub struct Checked {
    /// The games that parsed, with their documents when they were kept.
    pub games: Vec<CheckedGame>,
    /// Every diagnostic, sorted by file and position.
    pub diagnostics: Vec<Diagnostic>,
    /// The activity schema the tree was checked against (published as is).
    pub activity_schema: serde_json::Value,
}

impl Checked {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Loads and checks the tree under `root`, game by game on every core.
/// With `keep_documents` false, no typed documents are built and each game
/// is dropped once checked, so memory is bounded by the largest game.
pub fn check(
    root: &Path,
    options: &validate::Options,
    keep_documents: bool,
) -> anyhow::Result<Checked> {
    let project = load::open(root)?;
    let validator = Validator::new(&project)?;
    let (games, mut all) = validator.registry(&project);
    let checked: Vec<CheckedGame> = games
        .par_iter()
        .map(|game| {
            let loaded = load::load_game(root, game);
            validator.game(&loaded, options, keep_documents)
        })
        .collect();
    let mut games = Vec::with_capacity(checked.len());
    for mut game in checked {
        all.append(&mut game.diagnostics);
        games.push(game);
    }
    diagnostics::sort(&mut all);
    Ok(Checked {
        games,
        diagnostics: all,
        activity_schema: project.activity_schema,
    })
}

/// Checks the tree and, when it has no errors, writes the site atomically.
/// `Err` only when the tool itself fails (unreadable root, unwritable output).
pub fn build(options: &BuildOptions) -> anyhow::Result<BuildOutcome> {
    let started = Instant::now();
    write::guard_output(&options.root, &options.out, options.force)?;
    let check_options = validate::Options { now: options.now };
    let checked = check(&options.root, &check_options, true)?;
    if checked.has_errors() {
        return Ok(BuildOutcome {
            diagnostics: checked.diagnostics,
            summary: None,
        });
    }
    let files = render(&checked, &check_options)?;
    let bytes = files.iter().map(|f| f.bytes.len() as u64).sum();
    let count = files.len();
    write::replace_dir(&options.out, &files)?;
    Ok(BuildOutcome {
        diagnostics: checked.diagnostics,
        summary: Some(BuildSummary {
            files: count,
            bytes,
            elapsed: started.elapsed(),
        }),
    })
}

/// The games of a clean check as the renderers see them.
pub fn outputs(checked: &Checked) -> Vec<GameOutput> {
    checked
        .games
        .iter()
        .map(|g| GameOutput {
            game: g.game.clone(),
            documents: g
                .documents
                .iter()
                .filter_map(|(locale, doc)| {
                    let mut document = doc.clone()?;
                    document.schema = None;
                    document.sort_activities();
                    Some(LocaleDocument {
                        is_default: *locale == g.game.default_locale,
                        locale: locale.clone(),
                        document,
                    })
                })
                .collect(),
        })
        .collect()
}

/// Renders every file of the site in memory, in a stable order.
pub fn render(checked: &Checked, options: &validate::Options) -> anyhow::Result<Vec<OutputFile>> {
    let games = outputs(checked);
    let mut files = api_files(&games);
    let index = index_file(&games, &files);
    files.push(index);
    files.push(OutputFile {
        path: "api/v1/schema/activity.json".to_string(),
        bytes: to_pretty(&checked.activity_schema).into_bytes(),
    });
    for game in &games {
        files.extend(ics::render_calendars(game));
    }
    // Pages mark activities relative to "now", read in the default time zone.
    let now = options.now.unwrap_or_else(|| {
        chrono::Utc::now()
            .with_timezone(&chrono_tz::Asia::Shanghai)
            .naive_local()
    });
    files.extend(pages::render_pages(&games, now)?);
    files.push(publish::render_headers(&games));
    publish::add_precompressed(&mut files);
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(files)
}

/// The published path of a game's document: `api/v1/activity/<stem>.<ext>`.
pub fn api_path(game: &Game, locale: &str, default_name: bool, ext: &str) -> String {
    format!(
        "api/v1/activity/{}.{ext}",
        game.published_stem(locale, default_name)
    )
}

/// The JSON API: `<game>.json` for the default locale and `<game>-<locale>.json` for every locale.
pub fn api_files(games: &[GameOutput]) -> Vec<OutputFile> {
    let mut files = Vec::new();
    for game in games {
        for doc in &game.documents {
            let bytes = doc.document.to_canonical(false).into_bytes();
            if doc.is_default {
                files.push(OutputFile {
                    path: api_path(&game.game, &doc.locale, true, "json"),
                    bytes: bytes.clone(),
                });
            }
            files.push(OutputFile {
                path: api_path(&game.game, &doc.locale, false, "json"),
                bytes,
            });
        }
    }
    files
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Index<'a> {
    games: Vec<IndexGame<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct IndexGame<'a> {
    id: &'a str,
    name: &'a Localized,
    locales: &'a [String],
    default_locale: &'a str,
    time_zone: &'a str,
    data_source: &'a Localized,
    version: &'a str,
    version_name: &'a str,
    start_time: &'a str,
    end_time: &'a str,
    files: Vec<IndexFile>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct IndexFile {
    locale: String,
    default: bool,
    path: String,
    calendar: String,
    sha256: String,
    bytes: usize,
}

/// `api/v1/games.json`: what a client needs to find every file.
fn index_file(games: &[GameOutput], api: &[OutputFile]) -> OutputFile {
    let digest = |path: &str| {
        api.iter()
            .find(|f| f.path == path)
            .map(|f| (hex::encode(Sha256::digest(&f.bytes)), f.bytes.len()))
            .unwrap_or_default()
    };
    let mut entries = Vec::new();
    for game in games {
        let Some(default) = game.documents.iter().find(|d| d.is_default) else {
            continue;
        };
        let mut files = Vec::new();
        for doc in &game.documents {
            let mut names = vec![false];
            if doc.is_default {
                names.insert(0, true);
            }
            for default_name in names {
                let path = api_path(&game.game, &doc.locale, default_name, "json");
                let (sha256, bytes) = digest(&path);
                files.push(IndexFile {
                    locale: doc.locale.clone(),
                    default: default_name,
                    calendar: format!(
                        "/{}",
                        api_path(&game.game, &doc.locale, default_name, "ics")
                    ),
                    path: format!("/{path}"),
                    sha256,
                    bytes,
                });
            }
        }
        entries.push(IndexGame {
            id: &game.game.id,
            name: &game.game.name,
            locales: &game.game.locales,
            default_locale: &game.game.default_locale,
            time_zone: game.game.time_zone_name(),
            data_source: &game.game.data_source,
            version: &default.document.version,
            version_name: &default.document.version_name,
            start_time: &default.document.start_time,
            end_time: &default.document.end_time,
            files,
        });
    }
    OutputFile {
        path: "api/v1/games.json".to_string(),
        bytes: to_pretty(&Index { games: entries }).into_bytes(),
    }
}
