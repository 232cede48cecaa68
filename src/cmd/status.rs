//! `status`: one line per game and locale (version, window, state) from the checked tree.

use std::process::ExitCode;

use crate::cli::{StatusArgs, StatusFormat};
use crate::i18n::{Msg, msg};
use crate::site;
use crate::site::status::Row;

pub fn run(args: StatusArgs) -> anyhow::Result<ExitCode> {
    let options = super::check_options(&args.common);
    let checked = site::check_documents(&args.common.root, &options)?;
    let rows = site::status::rows(&args.common.root, &checked, &options);
    for game in &checked.games {
        if crate::import::is_placeholder(&game.game) {
            eprintln!("{}", msg!("note-placeholder", game = game.game.id.as_str()));
        }
        if game.game.time_zone_assumed {
            eprintln!(
                "{}",
                msg!(
                    "note-zone-assumed",
                    game = game.game.id.as_str(),
                    zone = game.game.time_zone_name()
                )
            );
        }
    }
    match args.format {
        StatusFormat::Json => {
            super::print_out(&format!("{}\n", serde_json::to_string_pretty(&rows)?))?;
        }
        StatusFormat::Text => {
            let mut text = table(&rows) + &sources(&rows);
            let boards = site::status::boards(&args.common.root, &checked);
            if !boards.is_empty() {
                text.push('\n');
                text.push_str(&boards_table(&boards));
            }
            super::print_out(&text)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The announcements boards: id, count and when each last changed.
fn boards_table(boards: &[site::status::BoardRow]) -> String {
    let mut table = vec![
        [
            "status-board",
            "status-board-id",
            "status-board-count",
            "status-board-changed",
            "status-state-header",
        ]
        .map(|id| Msg::new(id).to_string())
        .to_vec(),
    ];
    for board in boards {
        let changed = match (&board.changed, board.changed_from) {
            (Some(when), Some(from)) => {
                msg!("status-changed-from", when = when.as_str(), from = from).to_string()
            }
            _ => "-".to_string(),
        };
        let state = match board.state {
            "invalid" => msg!("status-invalid", file = board.file.as_str()).to_string(),
            other => msg!("status-state", state = other).to_string(),
        };
        table.push(vec![
            board.locale.clone(),
            board.id.map_or("-".into(), |id| id.to_string()),
            board.announcements.map_or("-".into(), |n| n.to_string()),
            changed,
            state,
        ]);
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
        let listed: Vec<String> = row.sources.iter().map(|s| s.describe()).collect();
        out.push_str(&format!(
            "  {} {}: {}\n",
            row.game,
            row.locale,
            listed.join("; ")
        ));
    }
    out
}

fn table(rows: &[Row]) -> String {
    let mut table = vec![
        [
            "status-game",
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
