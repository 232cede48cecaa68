//! What `status` reports: each game's locales and how soon they need work,
//! from a checked tree (the only I/O: whether each file exists), and each
//! announcements board with when it last changed (git when the root is in
//! a work tree, else the file's time). Its text ([`to_text`]) is what `cmd/status.rs`
//! prints; the agent tools return the rows.

use std::path::Path;

use serde::Serialize;

use crate::i18n::{Msg, msg};
use crate::kind;
use crate::model::freshness::{self, Freshness};
use crate::model::{ActivityDocument, DataSource, DataTime, Game, Time, days};
use crate::validate::{self, TypedDocument};

use crate::site::kinds;
use crate::site::types::{Checked, Publish};

/// One row of the status table: a game's locale and how soon it needs work.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Row {
    pub game: String,
    pub locale: String,
    pub file: String,
    /// `upcoming` (the version starts after now), `ok`, `ending` (due
    /// within a week), `ended` (due: the version, or for an `activity`
    /// game its last activity, has ended), `missing` (the default locale's
    /// document), `pending` (another listed locale's, not written yet) or
    /// `invalid`.
    pub state: &'static str,
    pub version: Option<String>,
    pub start_time: Option<String>,
    pub end_time: Option<String>,
    /// When the data needs its next update ([`freshness`]): the version's
    /// end for a `version` game, its last activity's end for an `activity`
    /// game.
    pub due_time: Option<String>,
    /// The game's `updateMode` (`version` or `activity`).
    pub update_mode: Option<&'static str>,
    /// The mode was read from the version's form: games.json names none.
    pub update_mode_inferred: bool,
    /// Whole days until the start of an upcoming version, rounded down;
    /// `None` once it has started.
    pub starts_in_days: Option<i64>,
    /// Whole days until the data is due, rounded towards zero (negative:
    /// overdue; the one rule of `model::days`); `None` for an upcoming
    /// version, which is not running yet.
    pub days_left: Option<i64>,
    /// Seconds until the data is due (negative: overdue), for the state and the order.
    #[serde(skip)]
    pub seconds_left: Option<i64>,
    /// Where to look to update it: the game's typed `dataSources` of this
    /// locale and of `all`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sources: Vec<DataSource>,
    /// The game's time zone, when an import assumed it and no maintainer
    /// confirmed it yet (`timeZoneAssumed` in `games.json`): every time of
    /// the row is read in a guessed zone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_zone_assumed: Option<String>,
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
            let shown = document.as_ref().map(|d| match d {
                TypedDocument::Checked(d) => Shown::of(&game.game, d),
                TypedDocument::Draft(d) => Shown::of(&game.game, d),
            });
            let start = shown.as_ref().and_then(|s| s.start);
            let fresh = shown.as_ref().map(|s| s.fresh);
            let due = fresh.and_then(|f| f.due);
            let upcoming = start.is_some_and(|start| now < *start);
            let starts_in_days = start
                .filter(|_| upcoming)
                .map(|start| days::whole_days(now, *start));
            let days_left = due
                .filter(|_| !upcoming)
                .map(|due| days::whole_days(now, *due));
            let seconds_left = due.map(|due| (*due - now).num_seconds());
            let state = match (exists, document, seconds_left) {
                // A listed locale without a document yet (`pending-locale`).
                (false, _, _) if *locale != game.game.default_locale => "pending",
                (false, _, _) => "missing",
                (true, None, _) | (true, Some(_), None) => "invalid",
                (true, Some(_), Some(s)) if s <= 0 => "ended",
                (true, Some(_), Some(_)) if upcoming => "upcoming",
                (true, Some(_), Some(_)) if days_left < Some(7) => "ending",
                _ => "ok",
            };
            rows.push(Row {
                game: game.game.id.clone(),
                locale: locale.clone(),
                file,
                state,
                version: shown.as_ref().map(|s| s.version.to_owned()),
                start_time: shown.as_ref().map(|s| s.start_time.clone()),
                end_time: shown.as_ref().map(|s| s.end_time.clone()),
                due_time: due.map(|d| d.to_string()),
                update_mode: fresh.map(|f| f.mode.as_str()),
                update_mode_inferred: fresh.is_some_and(|f| f.inferred),
                starts_in_days,
                days_left,
                seconds_left,
                sources: game.game.sources_for(locale).into_iter().cloned().collect(),
                time_zone_assumed: game
                    .game
                    .time_zone_assumed
                    .then(|| game.game.time_zone_name().to_owned()),
            });
        }
    }
    // Missing and broken files first, then by end time: ended first.
    rows.sort_by(|a, b| {
        let rank = |r: &Row| matches!(r.state, "missing" | "pending" | "invalid");
        (!rank(a), a.seconds_left, &a.game, &a.locale).cmp(&(
            !rank(b),
            b.seconds_left,
            &b.game,
            &b.locale,
        ))
    });
    rows
}

/// What a row shows of a kept document, checked or (its file has errors)
/// as written: its times as written, and what it says of them where they
/// are times.
struct Shown<'a> {
    version: &'a str,
    start_time: String,
    end_time: String,
    start: Option<Time>,
    fresh: Freshness<Option<Time>>,
}

impl<'a> Shown<'a> {
    fn of<T: DataTime>(game: &Game, document: &'a ActivityDocument<T>) -> Shown<'a> {
        Shown {
            version: &document.version,
            start_time: document.start_time.to_string(),
            end_time: document.end_time.to_string(),
            start: document.start_time.time(),
            fresh: freshness::of_draft(game, document),
        }
    }
}

/// One file of a kind checked file by file in `status` (an
/// announcements board): what its kind shows of it (a board's id and
/// size) and when it last changed.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FileRow {
    /// Its kind's name.
    #[serde(skip)]
    pub kind: &'static str,
    pub locale: String,
    pub file: String,
    /// `ok` or `invalid`.
    pub state: &'static str,
    /// Its kind's columns ([`Publish::status_columns`]) by field, with
    /// their values ([`Publish::status_values`]).
    #[serde(flatten)]
    pub fields: serde_json::Map<String, serde_json::Value>,
    /// When the file last changed (RFC 3339), as [`last_changed`] found it.
    pub changed: Option<String>,
    /// Where `changed` comes from: `git` (the last commit that touched the
    /// file), `uncommitted` (the file differs from git's copy: its
    /// modification time) or `file time` (no git: its modification time).
    pub changed_from: Option<&'static str>,
}

/// The files of the kinds checked file by file of `checked` (a check that
/// kept its documents), in its order.
pub fn files(root: &Path, checked: &Checked) -> Vec<FileRow> {
    checked
        .files
        .iter()
        .filter_map(|file| {
            let publish = kinds::of(file.kind)?;
            let (changed, changed_from) = match last_changed(root, &file.path) {
                Some((when, from)) => (Some(when), Some(from)),
                None => (None, None),
            };
            Some(FileRow {
                kind: file.kind.name,
                locale: file.locale.clone(),
                file: file.path.clone(),
                state: if file.document.is_some() {
                    "ok"
                } else {
                    "invalid"
                },
                fields: publish
                    .status_columns()
                    .iter()
                    .map(|c| c.field.to_owned())
                    .zip(publish.status_values(file.document.as_ref()))
                    .collect(),
                changed,
                changed_from,
            })
        })
        .collect()
}

/// When the file `rel` under `root` last changed: the committer date of the
/// last commit that touched it when `root` is in a git work tree and the
/// file is committed unchanged (`git`); else its modification time
/// (`uncommitted` when git knows the file differs, `file time` without
/// git). `None` when the file cannot be read.
pub fn last_changed(root: &Path, rel: &str) -> Option<(String, &'static str)> {
    let git = |args: &[&str]| -> Option<String> {
        let output = std::process::Command::new("git")
            .arg("-C")
            .arg(root)
            .args(args)
            .stdin(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .output()
            .ok()?;
        output
            .status
            .success()
            .then(|| String::from_utf8_lossy(&output.stdout).trim().to_owned())
    };
    let modified = || -> Option<String> {
        let time = std::fs::metadata(root.join(rel)).ok()?.modified().ok()?;
        let time: chrono::DateTime<chrono::Utc> = time.into();
        Some(time.format("%Y-%m-%dT%H:%M:%SZ").to_string())
    };
    let committed = git(&["log", "-1", "--format=%cI", "--", rel]).filter(|d| !d.is_empty());
    let dirty = git(&["status", "--porcelain", "--", rel]).map(|s| !s.is_empty());
    match (committed, dirty) {
        (Some(date), Some(false)) => Some((date, "git")),
        (_, Some(true)) => modified().map(|t| (t, "uncommitted")),
        _ => modified().map(|t| (t, "file time")),
    }
}
/// The text of `status`: a table per kind that has one ([`kind::Kind::status`]
/// names its first column), in the order of [`kind::all`]: the activity
/// documents' `rows` with where to look to update them, and for each kind
/// checked file by file its `files` when it has any.
pub fn to_text(rows: &[Row], files: &[FileRow]) -> String {
    let mut text = String::new();
    for kind in kind::all() {
        let Some(heading) = kind.status else { continue };
        let section = if kind::same(kind, &kind::activities::KIND) {
            table(heading, rows) + &sources(rows)
        } else if let Some(publish) = kinds::of(kind) {
            let own: Vec<&FileRow> = files.iter().filter(|f| f.kind == kind.name).collect();
            if own.is_empty() {
                continue;
            }
            files_table(heading, publish, &own)
        } else {
            continue;
        };
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&section);
    }
    text
}

/// The files of a kind checked file by file, under `heading`: the locale,
/// the columns of the kind, when each last changed and its state.
fn files_table(heading: &'static str, publish: &dyn Publish, files: &[&FileRow]) -> String {
    let header = std::iter::once(heading)
        .chain(publish.status_columns().iter().map(|c| c.heading))
        .chain(["status-changed-header", "status-state-header"])
        .map(|id| Msg::new(id).to_string())
        .collect();
    let mut table = vec![header];
    for file in files {
        let changed = match (&file.changed, file.changed_from) {
            (Some(when), Some(from)) => {
                msg!("status-changed-from", when = when.as_str(), from = from).to_string()
            }
            _ => "-".to_string(),
        };
        let state = match file.state {
            "invalid" => msg!("status-invalid", file = file.file.as_str()).to_string(),
            other => msg!("status-state", state = other).to_string(),
        };
        let cells = publish
            .status_columns()
            .iter()
            .map(|c| match file.fields.get(c.field) {
                None | Some(serde_json::Value::Null) => "-".to_string(),
                Some(serde_json::Value::String(text)) => text.clone(),
                Some(value) => value.to_string(),
            });
        let row = std::iter::once(file.locale.clone())
            .chain(cells)
            .chain([changed, state])
            .collect();
        table.push(row);
    }
    align(table)
}

/// Where to look to update each locale that has typed sources.
fn sources(rows: &[Row]) -> String {
    let mut out = String::new();
    for row in rows.iter().filter(|r| !r.sources.is_empty()) {
        if out.is_empty() {
            out.push_str(&format!("\n{}\n", msg!("status-where-to-look")));
        }
        let listed: Vec<String> = row.sources.iter().map(describe).collect();
        out.push_str(&format!(
            "  {} {}: {}\n",
            row.game,
            row.locale,
            listed.join("; ")
        ));
    }
    out
}

/// One source for people, in the current language: `html https://...`,
/// `script https://github.com/.../blob/HEAD/scripts/x.mjs` (a script of
/// another repository, linked), `script scripts/x.mjs` (this repository's),
/// `pageData https://... (articles: https://.../{id})`.
fn describe(source: &crate::model::DataSource) -> String {
    let mut out = source.kind.clone();
    let script = source.script_link().or_else(|| source.script.clone());
    for part in [source.url.clone(), script].into_iter().flatten() {
        out.push(' ');
        out.push_str(&part);
    }
    if let Some(article) = &source.article_url {
        out.push(' ');
        out.push_str(&msg!("status-source-articles", url = article.as_str()).to_string());
    }
    if source.user_agent.as_deref() == Some("none") {
        out.push(' ');
        out.push_str(&msg!("status-source-no-user-agent").to_string());
    }
    out
}

/// The activity documents, one row per game and locale, under `heading`.
fn table(heading: &'static str, rows: &[Row]) -> String {
    let mut table = vec![
        [
            heading,
            "status-locale",
            "status-version",
            "status-mode",
            "status-due",
            "status-left-header",
            "status-state-header",
        ]
        .map(|id| Msg::new(id).to_string())
        .to_vec(),
    ];
    for row in rows {
        let left = match (row.starts_in_days, row.days_left, row.seconds_left) {
            (Some(d), _, _) => msg!("status-starts-in", days = d.unsigned_abs()).to_string(),
            (None, Some(d), Some(s)) if s <= 0 => {
                msg!("status-overdue", days = d.unsigned_abs()).to_string()
            }
            (None, Some(d), _) => msg!("status-left", days = d.unsigned_abs()).to_string(),
            _ => "-".to_string(),
        };
        let state = match row.state {
            "missing" => msg!("status-missing", file = row.file.as_str()),
            "pending" => msg!("status-pending", file = row.file.as_str()),
            "invalid" => msg!("status-invalid", file = row.file.as_str()),
            other => msg!("status-state", state = other),
        }
        .to_string();
        let mode = match (row.update_mode, row.update_mode_inferred) {
            (Some(mode), true) => msg!("status-mode-inferred", mode = mode).to_string(),
            (Some(mode), false) => mode.to_string(),
            (None, _) => "-".to_string(),
        };
        table.push(vec![
            row.game.clone(),
            row.locale.clone(),
            row.version.clone().unwrap_or_else(|| "-".into()),
            mode,
            row.due_time.clone().unwrap_or_else(|| "-".into()),
            left,
            state,
        ]);
    }
    align(table)
}

/// Columns padded to their widest cell; the last column is not padded.
fn align(table: Vec<Vec<String>>) -> String {
    let columns = table.first().map_or(0, Vec::len);
    let widths: Vec<usize> = (0..columns)
        .map(|i| {
            table
                .iter()
                .map(|r| crate::chars::display_width(&r[i]))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut text = String::new();
    for row in table {
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(i, c)| {
                if i + 1 == columns {
                    c.clone()
                } else {
                    let pad = widths[i] - crate::chars::display_width(c);
                    format!("{c}{}", " ".repeat(pad))
                }
            })
            .collect();
        text.push_str(cells.join("  ").trim_end());
        text.push('\n');
    }
    text
}
