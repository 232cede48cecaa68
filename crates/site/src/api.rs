//! The JSON API's files: each document under every name it is published
//! as (`<game>.json`, `<game>-<locale>.json`, aliases), and the index
//! `api/v1/games.json` ([`layout::Index`]).

use crate::layout;
use crate::model::published::Due;
use crate::model::to_pretty;

use super::types::{GameOutput, LocaleDocument, OutputFile};

/// The JSON API: `<game>.json` for the default locale and `<game>-<locale>.json` for every locale.
pub fn api_files(games: &[GameOutput]) -> Vec<OutputFile> {
    games
        .iter()
        .flat_map(|game| {
            let json: Vec<Vec<u8>> = game
                .documents
                .iter()
                .map(|doc| doc.to_json(&game.game))
                .collect();
            api_files_of(game, &json)
        })
        .collect()
}

/// The JSON API files of one game, given its documents' JSON (one per document).
pub(super) fn api_files_of(game: &GameOutput, json: &[Vec<u8>]) -> Vec<OutputFile> {
    game.documents
        .iter()
        .zip(json)
        .flat_map(|(doc, bytes)| doc_api_files(game, doc, bytes))
        .collect()
}

/// The JSON API files of one document: `<game>.json` too for the default
/// locale, and every alias `games.json` declares for it.
pub(super) fn doc_api_files(
    game: &GameOutput,
    doc: &LocaleDocument,
    bytes: &[u8],
) -> Vec<OutputFile> {
    let mut files = under_every_name(game, doc, "json", bytes);
    files.extend(
        layout::alias_paths(&game.game, &doc.locale).map(|path| OutputFile {
            path: path.to_owned(),
            bytes: bytes.to_vec(),
        }),
    );
    files
}

/// `bytes` under every name of a document's file with `ext`
/// ([`layout::published_paths`]: `<game>.<ext>` too for the default locale).
pub(crate) fn under_every_name(
    game: &GameOutput,
    doc: &LocaleDocument,
    ext: &str,
    bytes: &[u8],
) -> Vec<OutputFile> {
    layout::published_paths(&game.game, &doc.locale, doc.naming(), ext)
        .into_iter()
        .map(|(_, path)| OutputFile {
            path,
            bytes: bytes.to_vec(),
        })
        .collect()
}

/// What the index needs of a game: the game as the shared files see it
/// (its documents without activities), and per document its digest and
/// its due time (worked out when the game was rendered, with them).
pub(super) struct Summary<'a> {
    pub game: &'a GameOutput,
    pub digests: &'a [(String, usize)],
    pub dues: &'a [Due],
}

/// `api/v1/games.json` ([`layout::Index`]): what a client needs to find every file.
/// `per_locale` are the entries of each kind published once per locale,
/// by the field its declaration names.
pub(super) fn index_file(games: &[Summary<'_>], per_locale: layout::IndexPerLocale) -> OutputFile {
    let mut entries = Vec::new();
    for &Summary {
        game,
        digests,
        dues,
    } in games
    {
        let Some(default) = game.documents.iter().find(|d| d.is_default) else {
            continue;
        };
        let mut files = Vec::new();
        for ((doc, (sha256, bytes)), due) in game.documents.iter().zip(digests).zip(dues) {
            let json = layout::published_paths(&game.game, &doc.locale, doc.naming(), "json");
            let ics = layout::published_paths(&game.game, &doc.locale, doc.naming(), "ics");
            for ((default_name, json), (_, ics)) in json.into_iter().zip(ics) {
                files.push(layout::IndexFile {
                    locale: doc.locale.clone(),
                    default: default_name == layout::Naming::Plain,
                    path: layout::url(&json),
                    calendar: layout::url(&ics),
                    sha256: sha256.clone(),
                    bytes: *bytes as u64,
                    update_mode: Some(due.update_mode),
                    due_at: Some(due.due_at.clone()),
                });
            }
        }
        entries.push(layout::IndexGame {
            id: game.game.id.clone(),
            name: Some(game.game.name.clone()),
            locales: game.game.locales.clone(),
            default_locale: Some(game.game.default_locale.clone()),
            time_zone: Some(game.game.time_zone_name().to_owned()),
            data_source: game.game.published_source(),
            data_sources: game
                .game
                .data_sources
                .as_ref()
                .and_then(|s| serde_json::to_value(s).ok()),
            update_mode: game.game.update_mode,
            time_zone_assumed: game.game.time_zone_assumed,
            conventions: (!game.game.conventions.is_empty())
                .then(|| serde_json::to_value(&game.game.conventions).ok())
                .flatten(),
            version: default.document.version.clone(),
            version_name: default.document.version_name.clone(),
            start_time: default.document.start_time.to_string(),
            end_time: default.document.end_time.to_string(),
            files,
            pending: game.pending_locales().map(str::to_owned).collect(),
        });
    }
    OutputFile {
        path: layout::INDEX_PATH.to_owned(),
        bytes: to_pretty(&layout::Index {
            games: entries,
            per_locale,
        })
        .into_bytes(),
    }
}
