//! What `status` reports: each game's locales and how soon they need work,
//! from a checked tree (the only I/O: whether each file exists).
//! `cmd/status.rs` prints it; the agent tools return it.

use std::path::Path;

use serde::Serialize;

use crate::model::{DataSource, days, parse_time};
use crate::validate;

use super::Checked;

/// One row of the status table: a game's locale and how soon it needs work.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Row {
    pub game: String,
    pub locale: String,
    pub file: String,
    /// `upcoming` (the version starts after now), `ok`, `ending` (within
    /// a week), `ended`, `missing` or `invalid`.
    pub state: &'static str,
    pub version: Option<String>,
    pub start_time: Option<String>,
    pub end_time: Option<String>,
    /// Whole days until the start of an upcoming version, rounded down;
    /// `None` once it has started.
    pub starts_in_days: Option<i64>,
    /// Whole days until the end, rounded towards zero (negative: overdue;
    /// the one rule of `model::days`); `None` for an upcoming version,
    /// which is not running yet.
    pub days_left: Option<i64>,
    /// Seconds until the end (negative: overdue), for the state and the order.
    #[serde(skip)]
    pub seconds_left: Option<i64>,
    /// Where to look to update it: the game's typed `dataSources` of this
    /// locale and of `all`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sources: Vec<DataSource>,
}

/// The rows of `checked` (a check that kept its documents) under `root`:
/// missing and broken files first, then by end time, ended first.
pub fn rows(root: &Path, checked: &Checked, options: &validate::Options) -> Vec<Row> {
    let mut rows = Vec::new();
    for game in &checked.games {
        let now = options.now_for(&game.game);
        for (locale, document) in &game.documents {
            let file = crate::tree::data_path(&game.game.id, locale);
            let exists = root.join(&file).is_file();
            let start = document.as_ref().and_then(|d| parse_time(&d.start_time));
            let end = document.as_ref().and_then(|d| parse_time(&d.end_time));
            let upcoming = start.is_some_and(|start| now < start);
            let starts_in_days = start
                .filter(|_| upcoming)
                .map(|start| days::whole_days(now, start));
            let days_left = end
                .filter(|_| !upcoming)
                .map(|end| days::whole_days(now, end));
            let seconds_left = end.map(|end| (end - now).num_seconds());
            let state = match (exists, document, seconds_left) {
                (false, _, _) => "missing",
                (true, None, _) | (true, Some(_), None) => "invalid",
                (true, Some(_), Some(s)) if s < 0 => "ended",
                (true, Some(_), Some(_)) if upcoming => "upcoming",
                (true, Some(_), Some(_)) if days_left < Some(7) => "ending",
                _ => "ok",
            };
            rows.push(Row {
                game: game.game.id.clone(),
                locale: locale.clone(),
                file,
                state,
                version: document.as_ref().map(|d| d.version.clone()),
                start_time: document.as_ref().map(|d| d.start_time.clone()),
                end_time: document.as_ref().map(|d| d.end_time.clone()),
                starts_in_days,
                days_left,
                seconds_left,
                sources: game.game.sources_for(locale).into_iter().cloned().collect(),
            });
        }
    }
    // Missing and broken files first, then by end time: ended first.
    rows.sort_by(|a, b| {
        let rank = |r: &Row| matches!(r.state, "missing" | "invalid");
        (!rank(a), a.seconds_left, &a.game, &a.locale).cmp(&(
            !rank(b),
            b.seconds_left,
            &b.game,
            &b.locale,
        ))
    });
    rows
}
