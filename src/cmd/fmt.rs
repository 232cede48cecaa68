//! `fmt`: rewrite data files in canonical form (or list them with `--check`), leaving files with errors alone ([`crate::site::rewrite::format_tree`]).

use std::process::ExitCode;

use crate::cli::FmtArgs;
use crate::diagnostics::Format;
use crate::i18n::msg;
use crate::root::Workspace;
use crate::site::rewrite;

pub fn run(args: FmtArgs, ws: &Workspace) -> anyhow::Result<ExitCode> {
    let root = &ws.root;
    let options = super::options::check(ws);
    let outcome = if args.check {
        rewrite::check_format(root, &options)?
    } else {
        rewrite::format_tree(root, &options)?
    };

    for (path, why) in outcome.changed.iter().zip(&outcome.why) {
        let line = if args.check {
            msg!("fmt-would-reformat", path = path, why = why.clone())
        } else {
            msg!("fmt-reformatted", path = path, why = why.clone())
        };
        super::print_out(&format!("{line}\n"))?;
    }
    if !outcome.errors.is_empty() {
        super::report(root, &outcome.errors, Format::Human)?;
        super::say(msg!("fmt-left-broken", files = outcome.broken));
    }
    let summary = msg!(
        "fmt-summary",
        changed = outcome.changed.len(),
        check = if args.check { "yes" } else { "no" },
        canonical = outcome.formatted - outcome.changed.len()
    );
    super::say(summary);
    let failed = !outcome.errors.is_empty() || (args.check && !outcome.changed.is_empty());
    Ok(super::exit_status(failed))
}
