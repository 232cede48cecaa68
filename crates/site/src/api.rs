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
    let entries: Vec<String> = games.iter().filter_map(index_entry).collect();
    index_of_entries(entries.iter().map(String::as_str), per_locale)
}

/// The index from its games' entries ([`index_entry`], in order) and
/// `per_locale`: the bytes `to_pretty` gives for the whole
/// [`layout::Index`], put together from entries serialized one by one
/// (a build keeps each game's entry while the game is unchanged). A
/// pretty-printed value nested at some depth is its text on its own with
/// every line after the first indented by that depth, and the entries
/// are the first field of the index.
pub(super) fn index_of_entries<'e>(
    entries: impl IntoIterator<Item = &'e str>,
    per_locale: layout::IndexPerLocale,
) -> OutputFile {
    const EMPTY_GAMES: &str = "{\n  \"games\": []";
    let rest = to_pretty(&layout::Index {
        games: Vec::new(),
        per_locale,
    });
    let tail = rest.strip_prefix(EMPTY_GAMES).unwrap_or_default();
    let mut entries = entries.into_iter().peekable();
    let mut text = String::with_capacity(rest.len());
    text.push_str(&EMPTY_GAMES[..EMPTY_GAMES.len() - 1]);
    if entries.peek().is_some() {
        for (i, entry) in entries.enumerate() {
            text.push_str(if i == 0 { "\n" } else { ",\n" });
            text.push_str(entry);
        }
        text.push_str("\n  ");
    }
    text.push(']');
    text.push_str(tail);
    OutputFile {
        path: layout::INDEX_PATH.to_owned(),
        bytes: text.into_bytes(),
    }
}

/// One game's entry of the index as it stands in the index's list
/// (pretty-printed, each line indented to its depth, no comma), or `None`
/// for a game without a default document, which the index leaves out.
pub(super) fn index_entry(summary: &Summary<'_>) -> Option<String> {
    index_game(summary).map(|entry| entry_text(&entry))
}

/// `entry` pretty-printed as it stands in the index's list.
fn entry_text(entry: &layout::IndexGame) -> String {
    let text = to_pretty(entry);
    // JSON text holds no newline inside a string: every line break is
    // the printer's.
    let mut indented = String::with_capacity(text.len() + text.len() / 8);
    for (i, line) in text.trim_end().split('\n').enumerate() {
        if i > 0 {
            indented.push('\n');
        }
        indented.push_str(ENTRY_INDENT);
        indented.push_str(line);
    }
    indented
}

/// The indentation of an entry of the index's list: two levels of the
/// printer's two spaces (the index, then its `games`).
const ENTRY_INDENT: &str = "    ";

/// The entry of one game, with its registry entry's public fields, the
/// default locale's version window and every file of its documents.
fn index_game(summary: &Summary<'_>) -> Option<layout::IndexGame> {
    let &Summary {
        game,
        digests,
        dues,
    } = summary;
    let default = game.documents.iter().find(|d| d.is_default)?;
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
    Some(layout::IndexGame {
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
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An index put together from its entries is the index printed whole.
    #[test]
    fn an_index_of_entries_is_the_index_printed_whole() {
        let game = |id: &str, name: &str| {
            serde_json::json!({
                "id": id,
                "name": {"zh-CN": name, "en-US": "Line\nbreak \"quoted\" \\ tab\t"},
                "locales": ["zh-CN", "en-US"],
                "version": "1.0",
                "versionName": "",
                "startTime": "2026-01-01T10:00:00",
                "endTime": "2026-02-01T03:59:59",
                "files": [{"locale": "zh-CN", "default": true, "path": "/api/v1/activity/a.json",
                           "calendar": "/api/v1/activity/a.ics", "sha256": "00", "bytes": 1}],
                "pending": []
            })
        };
        let boards =
            serde_json::json!([{"locale": "zh-CN", "default": true, "path": "/api/v1/anno.json"}]);
        let cases = [
            serde_json::json!({"games": []}),
            serde_json::json!({"games": [], "announcements": boards}),
            serde_json::json!({"games": [game("a", "星穹")]}),
            serde_json::json!({"games": [game("a", "星穹"), game("b", "原神")], "announcements": boards}),
        ];
        for case in cases {
            let index: layout::Index = serde_json::from_value(case).unwrap();
            let entries: Vec<String> = index.games.iter().map(entry_text).collect();
            let put_together =
                index_of_entries(entries.iter().map(String::as_str), index.per_locale.clone());
            assert_eq!(
                String::from_utf8(put_together.bytes).unwrap(),
                to_pretty(&index),
                "{index:?}"
            );
        }
    }
}
