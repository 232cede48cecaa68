//! What `status` reports: each game's locales and how soon they need work,
//! from a checked tree (the only I/O: whether each file exists).
//! `cmd/status.rs` prints it; the agent tools return it.

use std::path::Path;

use serde::Serialize;

use crate::model::parse_time;
use crate::validate;

use super::Checked;

/// One row of the status table: a game's locale and how soon it needs work.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Row {
    pub game: String,
    pub locale: String,
    pub file: String,
    /// `ok`, `ending` (within a week), `ended`, `missing` or `invalid`.
    pub state: &'static str,
    pub version: Option<String>,
    pub end_time: Option<String>,
    /// Whole days until the end (negative: overdue).
    pub days_left: Option<i64>,
}

/// The rows of `checked` (a check that kept its documents) under `root`:
/// missing and broken files first, then by end time, ended first.
pub fn rows(root: &Path, checked: &Checked, options: &validate::Options) -> Vec<Row> {
    let mut rows = Vec::new();
    for game in &checked.games {
        let now = options.now_for(&game.game);
        for (locale, document) in &game.documents {
            let file = game.game.data_path(locale);
            let exists = root.join(&file).is_file();
            let end = document.as_ref().and_then(|d| parse_time(&d.end_time));
            let days_left = end.map(|end| {
                let left = end - now;
                // Round towards "more urgent": 0.5 days left is 0, 0.5 days over is -1.
                left.num_seconds().div_euclid(86_400)
            });
            let state = match (exists, document, days_left) {
                (false, _, _) => "missing",
                (true, None, _) | (true, Some(_), None) => "invalid",
                (true, Some(_), Some(d)) if d < 0 => "ended",
                (true, Some(_), Some(d)) if d < 7 => "ending",
                _ => "ok",
            };
            rows.push(Row {
                game: game.game.id.clone(),
                locale: locale.clone(),
                file,
                state,
                version: document.as_ref().map(|d| d.version.clone()),
                end_time: document.as_ref().map(|d| d.end_time.clone()),
                days_left,
            });
        }
    }
    // Missing and broken files first, then by end time: ended first.
    rows.sort_by(|a, b| {
        let rank = |r: &Row| matches!(r.state, "missing" | "invalid");
        (!rank(a), a.days_left, &a.game, &a.locale).cmp(&(
            !rank(b),
            b.days_left,
            &b.game,
            &b.locale,
        ))
    });
    rows
}
