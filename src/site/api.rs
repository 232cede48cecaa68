//! The JSON API's files: each document under every name it is published
//! as (`<game>.json`, `<game>-<locale>.json`, aliases), and the index
//! `api/v1/games.json` ([`layout::Index`]).

use crate::layout;
use crate::model::to_pretty;

use super::types::{GameOutput, LocaleDocument, OutputFile};

/// The JSON API: `<game>.json` for the default locale and `<game>-<locale>.json` for every locale.
pub fn api_files(games: &[GameOutput]) -> Vec<OutputFile> {
    games
        .iter()
        .flat_map(|game| {
            let json: Vec<Vec<u8>> = game.documents.iter().map(LocaleDocument::to_json).collect();
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
    layout::published_paths(&game.game, &doc.locale, doc.is_default, ext)
        .into_iter()
        .map(|(_, path)| OutputFile {
            path,
            bytes: bytes.to_vec(),
        })
        .collect()
}

/// The index's `dataSource` of `game`: its own, else the page of each locale
/// its typed sources name (`None` when neither gives one).
fn published_source(game: &crate::model::Game) -> Option<crate::model::Localized> {
    if let Some(source) = &game.data_source {
        return Some(source.clone());
    }
    let pages: indexmap::IndexMap<String, String> = game
        .locales
        .iter()
        .filter_map(|l| game.source_page(l).map(|url| (l.clone(), url.to_owned())))
        .collect();
    (!pages.is_empty()).then_some(crate::model::Localized::Many(pages))
}

/// `api/v1/games.json` ([`layout::Index`]): what a client needs to find every file.
pub(super) fn index_file(
    games: &[(&GameOutput, &[(String, usize)])],
    announcements: Vec<layout::IndexAnnouncements>,
) -> OutputFile {
    let mut entries = Vec::new();
    for &(game, digests) in games {
        let Some(default) = game.documents.iter().find(|d| d.is_default) else {
            continue;
        };
        let mut files = Vec::new();
        for (doc, (sha256, bytes)) in game.documents.iter().zip(digests) {
            let json = layout::published_paths(&game.game, &doc.locale, doc.is_default, "json");
            let ics = layout::published_paths(&game.game, &doc.locale, doc.is_default, "ics");
            for ((default_name, json), (_, ics)) in json.into_iter().zip(ics) {
                files.push(layout::IndexFile {
                    locale: doc.locale.clone(),
                    default: default_name,
                    path: layout::url(&json),
                    calendar: layout::url(&ics),
                    sha256: sha256.clone(),
                    bytes: *bytes as u64,
                });
            }
        }
        entries.push(layout::IndexGame {
            id: game.game.id.clone(),
            name: Some(game.game.name.clone()),
            locales: game.game.locales.clone(),
            default_locale: Some(game.game.default_locale.clone()),
            time_zone: Some(game.game.time_zone_name().to_owned()),
            data_source: published_source(&game.game),
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
            announcements,
        })
        .into_bytes(),
    }
}
