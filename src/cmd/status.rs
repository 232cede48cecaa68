//! `status`: one line per game and locale (version, window, state) from the
//! checked tree, worked out and laid out by [`crate::status`].

use std::process::ExitCode;

use crate::cli::{StatusArgs, StatusFormat};
use crate::i18n::msg;
use crate::root::Workspace;
use crate::site;

pub fn run(args: StatusArgs, ws: &Workspace) -> anyhow::Result<ExitCode> {
    let options = super::options::check(ws);
    let checked = site::check_documents(&ws.root, &options)?;
    let rows = crate::status::rows(&ws.root, &checked, &options);
    for game in &checked.games {
        if crate::import::is_placeholder(&game.game) {
            super::say(msg!("note-placeholder", game = game.game.id.as_str()));
        }
        if game.game.time_zone_assumed {
            super::say(msg!(
                "note-zone-assumed",
                game = game.game.id.as_str(),
                zone = game.game.time_zone_name()
            ));
        }
    }
    match args.format {
        StatusFormat::Json => {
            super::print_out(&format!("{}\n", serde_json::to_string_pretty(&rows)?))?;
        }
        StatusFormat::Text => {
            let files = crate::status::files(&ws.root, &checked);
            super::print_out(&crate::status::to_text(&rows, &files))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
