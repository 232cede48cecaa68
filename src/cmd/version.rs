//! `version new`: the next version of a game in every locale, through
//! [`crate::version`]; this file only reads the flags and prints.

use std::process::ExitCode;

use indexmap::IndexMap;

use crate::cli::{VersionArgs, VersionCommand};
use crate::diagnostics::Format;
use crate::i18n::{self, msg};
use crate::root::Workspace;
use crate::version::{self, NextVersion, Refusal};

pub fn run(args: VersionArgs, ws: &Workspace) -> anyhow::Result<ExitCode> {
    let VersionCommand::New(args) = args.command;
    let mut names = IndexMap::new();
    for name in &args.names {
        // `zh-CN=Name` names one locale; anything else names them all.
        match name.split_once('=') {
            Some((locale, value)) if is_locale(locale) => {
                names.insert(locale.to_owned(), value.to_owned());
            }
            _ => {
                names.insert(String::new(), name.clone());
            }
        }
    }
    let next = NextVersion {
        game: args.game.clone(),
        version: args.version.clone(),
        names,
        start: args.start.clone(),
        end: args.end.clone(),
        cover: args.cover.clone(),
        drop: args.drop.clone(),
    };
    let options = super::options::check(ws);
    match version::plan(&ws.root, &next, &options)? {
        Err(Refusal::Request(message)) => {
            super::print_err(&format!("{}\n", msg!("tool-error", error = message)));
            Ok(ExitCode::from(1))
        }
        Err(Refusal::Errors {
            message,
            diagnostics,
        }) => {
            super::report(&ws.root, &diagnostics, Format::Human)?;
            super::print_err(&format!("{}\n", msg!("tool-error", error = message)));
            Ok(ExitCode::from(1))
        }
        Ok(planned) => {
            if !args.dry_run {
                version::write(&ws.root, &planned)?;
            }
            let mut out = String::new();
            if let Some(line) = version::name_shared(&next, &planned) {
                out.push_str(&format!("{line}\n"));
            }
            for p in &planned {
                if p.pending {
                    let line = msg!(
                        "version-pending",
                        path = p.path.as_str(),
                        locale = p.locale.as_str()
                    );
                    out.push_str(&format!("{line}\n"));
                    continue;
                }
                let fields = |names: &[String]| -> Vec<String> {
                    names.iter().map(|n| format!("`{n}`")).collect()
                };
                let line = msg!(
                    "version-planned",
                    dry = if args.dry_run { "yes" } else { "no" },
                    path = p.path.as_str(),
                    from = p.from.as_str(),
                    version = next.version.as_str(),
                    kept_count = p.kept.len(),
                    kept = i18n::list(&fields(&p.kept)),
                    changed = i18n::list(&fields(&p.changed)),
                    carried = p.carried.len(),
                    names = i18n::list(&p.carried),
                    dropped = p.dropped.len(),
                    cover = p.cover.as_str()
                );
                out.push_str(&format!("{line}\n"));
                for left in &p.dropped {
                    out.push_str(&format!("  {}\n", left.describe()));
                }
            }
            super::print_out(&out)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// A BCP 47-looking tag (`zh-CN`, `en-US`, `ja`): letters, digits and hyphens, starting with two letters.
fn is_locale(s: &str) -> bool {
    s.len() >= 2
        && s.len() <= 15
        && s.bytes().take(2).all(|b| b.is_ascii_alphabetic())
        && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}
