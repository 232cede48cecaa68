//! `version new`: the next version of a game in every locale, through
//! [`crate::version`]; this file only reads the flags and prints.

use std::process::ExitCode;

use indexmap::IndexMap;

use crate::cli::{VersionArgs, VersionCommand, VersionNewArgs};
use crate::diagnostics::Format;
use crate::i18n::msg;
use crate::root::Workspace;
use crate::version::{self, NextVersion, Refusal, Stage};

pub fn run(args: VersionArgs, ws: &Workspace) -> anyhow::Result<ExitCode> {
    let VersionCommand::New(args) = args.command;
    let next = next_version(&args);
    let options = super::options::check(ws);
    let planned = match version::plan(&ws.root, &next, &options)? {
        Ok(planned) => planned,
        Err(refusal) => {
            if let Refusal::Errors { diagnostics, .. } = &refusal {
                super::report(&ws.root, diagnostics, Format::Human)?;
            }
            let (Refusal::Request(message) | Refusal::Errors { message, .. }) = refusal;
            super::print_err(&format!("{}\n", msg!("tool-error", error = message)));
            return Ok(ExitCode::from(1));
        }
    };
    let stage = if args.dry_run {
        Stage::DryRun
    } else {
        version::write(&ws.root, &planned)?;
        Stage::Written
    };
    super::print_out(&version::to_text(&next, &planned, stage))?;
    Ok(ExitCode::SUCCESS)
}

/// The request of the flags: `zh-CN=Name` names one locale, any other
/// `--name` them all.
fn next_version(args: &VersionNewArgs) -> NextVersion {
    let mut names = IndexMap::new();
    for name in &args.names {
        match name.split_once('=') {
            Some((locale, value)) if is_locale(locale) => {
                names.insert(locale.to_owned(), value.to_owned());
            }
            _ => {
                names.insert(String::new(), name.clone());
            }
        }
    }
    NextVersion {
        game: args.game.clone(),
        version: args.version.clone(),
        names,
        start: args.start.clone(),
        end: args.end.clone(),
        cover: args.cover.clone(),
        drop: args.drop.clone(),
    }
}

/// A BCP 47-looking tag (`zh-CN`, `en-US`, `ja`): letters, digits and hyphens, starting with two letters.
fn is_locale(s: &str) -> bool {
    s.len() >= 2
        && s.len() <= 15
        && s.bytes().take(2).all(|b| b.is_ascii_alphabetic())
        && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}
