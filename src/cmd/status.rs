//! `status`: one line per game and locale (version, window, state) from the checked tree.

use std::process::ExitCode;

use serde::Serialize;

use crate::cli::{StatusArgs, StatusFormat};
use crate::model::parse_time;
use crate::site;
use crate::validate;

/// One row of the status table: a game's locale and how soon it needs work.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Row {
    game: String,
    locale: String,
    file: String,
    /// `ok`, `ending` (within a week), `ended`, `missing` or `invalid`.
    state: &'static str,
    version: Option<String>,
    end_time: Option<String>,
    /// Whole days until the end (negative: overdue).
    days_left: Option<i64>,
}

pub fn run(args: StatusArgs) -> anyhow::Result<ExitCode> {
    let options = validate::Options {
        now: args.common.now,
    };
    let checked = site::check_documents(&args.common.root, &options)?;
    let mut rows = Vec::new();
    for game in &checked.games {
        let now = options.now_for(&game.game);
        for (locale, document) in &game.documents {
            let file = game.game.data_path(locale);
            let exists = args.common.root.join(&file).is_file();
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
    for game in &checked.games {
        if crate::import::is_placeholder(&game.game) {
            eprintln!(
                "note: games.json: `{}` still has the placeholder `dataSource` (and maybe `name`) that `import` wrote; replace them with the real ones",
                game.game.id
            );
        }
    }
    match args.format {
        StatusFormat::Json => {
            super::print_out(&format!("{}\n", serde_json::to_string_pretty(&rows)?))?;
        }
        StatusFormat::Text => super::print_out(&table(&rows))?,
    }
    Ok(ExitCode::SUCCESS)
}

fn table(rows: &[Row]) -> String {
    let mut table = vec![
        ["GAME", "LOCALE", "VERSION", "ENDS", "LEFT", "STATE"]
            .map(String::from)
            .to_vec(),
    ];
    for row in rows {
        let left = match row.days_left {
            Some(d) if d < 0 => format!("{} overdue", plural_days(-d)),
            Some(d) => format!("{} left", plural_days(d)),
            None => "-".to_string(),
        };
        let state = match row.state {
            "missing" => format!("missing: {}", row.file),
            "invalid" => format!("invalid: run `activity-site check` ({})", row.file),
            other => other.to_string(),
        };
        table.push(vec![
            row.game.clone(),
            row.locale.clone(),
            row.version.clone().unwrap_or_else(|| "-".into()),
            row.end_time.clone().unwrap_or_else(|| "-".into()),
            left,
            state,
        ]);
    }
    let widths: Vec<usize> = (0..6)
        .map(|i| {
            table
                .iter()
                .map(|r| r[i].chars().count())
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
                if i == 5 {
                    c.clone()
                } else {
                    format!("{c}{}", " ".repeat(widths[i] - c.chars().count()))
                }
            })
            .collect();
        text.push_str(cells.join("  ").trim_end());
        text.push('\n');
    }
    text
}

fn plural_days(n: i64) -> String {
    if n == 1 {
        "1 day".to_string()
    } else {
        format!("{n} days")
    }
}
