//! `docs`: the parts of README.md and CONTRIBUTING.md that are written from
//! the data and the code, so that they cannot drift: the games table (from
//! `games.json`) and the reference of every code `check` and `diff` print
//! (from [`crate::diagnostics::Code::ALL`] and [`crate::review::codes`]).
//! `tests/docs.rs` compares the documents with this output.

use std::process::ExitCode;

use crate::cli::{DocsArgs, DocsWhat};
use crate::i18n::{Msg, msg};
use crate::model::{Game, Localized, UpdateMode};
use crate::root::Workspace;

pub fn run(args: &DocsArgs, ws: &Workspace) -> anyhow::Result<ExitCode> {
    let text = match args.what {
        DocsWhat::Games => games(&ws.root)?,
        DocsWhat::Codes => codes(),
    };
    super::print_out(&text)?;
    Ok(ExitCode::SUCCESS)
}

/// The games table: one row per game of the registry, in its order.
fn games(root: &std::path::Path) -> anyhow::Result<String> {
    let project = crate::load::load(root, &crate::source::Overlay::new())?.project;
    let (games, _) = crate::validate::Validator::new(&project)?.registry(&project);
    let mut out = format!("{}\n|---|---|---|---|---|\n", msg!("docs-games-header"));
    for game in &games {
        out.push_str(&format!(
            "| `{}` | {} | {} | {} | {} |\n",
            game.id,
            names(game),
            locales(root, game),
            game.time_zone_name(),
            match game.update_mode {
                Some(UpdateMode::Version) => "version",
                Some(UpdateMode::Activity) => "activity",
                None => "",
            }
        ));
    }
    Ok(out)
}

/// The game's names, each locale's once, joined by ` / `.
fn names(game: &Game) -> String {
    match &game.name {
        Localized::One(name) => name.clone(),
        Localized::Many(names) => {
            let mut seen: Vec<&str> = Vec::new();
            for name in names.values() {
                if !seen.contains(&name.as_str()) {
                    seen.push(name);
                }
            }
            seen.join(" / ")
        }
    }
}

/// The game's locales: the default one said, a pending one (listed, no
/// document yet) said.
fn locales(root: &std::path::Path, game: &Game) -> String {
    let said: Vec<String> = game
        .locales
        .iter()
        .map(|locale| {
            let locale = locale.as_str();
            if locale == game.default_locale {
                msg!("docs-games-default", locale = locale).to_string()
            } else if !root.join(crate::tree::data_path(&game.id, locale)).exists() {
                msg!("docs-games-pending", locale = locale).to_string()
            } else {
                locale.to_owned()
            }
        })
        .collect();
    said.join(", ")
}

/// Every code: `check`'s rules, then `diff`'s findings; what each means
/// and what to do.
fn codes() -> String {
    let mut out = format!("{}\n|---|---|---|---|\n", msg!("docs-codes-header"));
    let mut row = |code: &str, by: Msg, means: Msg, todo: Msg| {
        out.push_str(&format!("| `{code}` | {by} | {means} | {todo} |\n"));
    };
    for code in crate::diagnostics::Code::ALL {
        let todo = msg!("code-todo", code = code.as_str());
        row(code.as_str(), msg!("docs-by-check"), code.summary(), todo);
    }
    for (finding, breaking) in crate::review::codes() {
        let by = if breaking {
            msg!("docs-by-diff-breaking")
        } else {
            msg!("docs-by-diff-warning")
        };
        let code = finding.code;
        let (means, todo) = match finding.docs {
            // A kind's folder words its own findings.
            Some((means, todo)) => (Msg::new(means), Msg::new(todo)),
            None => (
                msg!("code-means", code = code),
                msg!("code-todo", code = code),
            ),
        };
        row(code, by, means, todo);
    }
    out
}
