//! `check`: read the tree once ([`crate::load::load`]), check it
//! ([`crate::site::check_streaming`]) or fix it (`--fix`, [`super::fix`]),
//! render the diagnostics, set the exit status.

use std::process::ExitCode;

use crate::cli::CheckArgs;
use crate::diagnostics::{self, Diagnostic, Format};
use crate::i18n::msg;
use crate::root::Workspace;
use crate::site;
use crate::source::{Overlay, Tree};
use crate::terminal::Stream;

pub fn run(args: CheckArgs, ws: &Workspace) -> anyhow::Result<ExitCode> {
    let options = super::options::check_with_base(ws, args.changed_since.as_deref())?;
    let only = crate::root::named_files(&ws.root, &args.paths)?;
    let mut tree = crate::load::load(&ws.root, &Overlay::new())?;
    // The named files' diagnostics, those of the rules across files
    // (parity, a missing or orphan file) included.
    let keep = |d: &Diagnostic| only.as_ref().is_none_or(|only| only.contains(&d.file));
    if !args.fix
        && args.changed_since.is_none()
        && let Some(counts) = stream(&tree, &options, args.format, &keep)?
    {
        return Ok(exit(&args, counts));
    }
    let mut changes = Vec::new();
    let mut diagnostics = if args.fix {
        super::fix::fix(&args, &mut tree, &options, only.as_ref(), &mut changes)?
    } else {
        site::check_tree(&tree, &options)?.diagnostics
    };
    diagnostics.retain(keep);
    if let Some(rev) = &args.changed_since {
        diagnostics = introduced_since(ws, rev, &options, diagnostics)?;
    }
    report(&args, &tree, &diagnostics, changes)?;
    Ok(exit(&args, diagnostics::count(&diagnostics)))
}

/// Checks `tree` and writes what `keep` keeps as it is found, never held
/// (issue 67): the counts written, or `None` (nothing checked) for a
/// format that needs the whole list.
fn stream(
    tree: &Tree,
    options: &crate::validate::Options,
    format: Format,
    keep: &dyn Fn(&Diagnostic) -> bool,
) -> anyhow::Result<Option<diagnostics::Counts>> {
    let source = |file: &str| tree.shown_text(file).map(str::to_owned);
    let Some(mut stream) = Stream::new(format, &source) else {
        return Ok(None);
    };
    site::check_streaming(tree, options, &mut |mut batch| {
        batch.retain(keep);
        Ok(stream.write(&batch)?)
    })?;
    Ok(Some(stream.finish()))
}

/// `--changed-since`: the diagnostics of `found` that `rev` did not have,
/// after a line saying how many it had.
fn introduced_since(
    ws: &Workspace,
    rev: &str,
    options: &crate::validate::Options,
    found: Vec<Diagnostic>,
) -> anyhow::Result<Vec<Diagnostic>> {
    let changed = crate::bases::changed_since(&ws.root, rev, options, found)?;
    let line = msg!(
        "check-changed-since",
        rev = rev,
        before = changed.before,
        clock = changed.clock
    );
    super::print_err(&format!("{line}\n"));
    Ok(changed.introduced)
}

/// Prints what remains: after `--fix` a line saying so first, and with
/// `--fix --format json` the changes beside it, in the one document.
fn report(
    args: &CheckArgs,
    tree: &Tree,
    diagnostics: &[Diagnostic],
    changes: Vec<Vec<serde_json::Value>>,
) -> anyhow::Result<()> {
    // With --diff stdout holds the patch: what remains goes to stderr, as text.
    let format = if args.fix && args.diff {
        Format::Human
    } else {
        args.format
    };
    if args.fix {
        let line = match (!changes.is_empty(), diagnostics.is_empty()) {
            (true, true) => msg!("fix-nothing-remains"),
            (true, false) => msg!("fix-remains"),
            (false, true) => msg!("fix-clean"),
            (false, false) => msg!("fix-nothing"),
        };
        super::say(line);
    }
    if args.fix && format == Format::Json {
        let changes: Vec<serde_json::Value> = changes.into_iter().flatten().collect();
        crate::terminal::report_json_with_changes(diagnostics, &changes)?;
    } else {
        let source = |file: &str| tree.shown_text(file).map(str::to_owned);
        crate::terminal::report_from(diagnostics, format, &source)?;
    }
    Ok(())
}

/// 1 with an error, or a warning under `--deny-warnings`.
fn exit(args: &CheckArgs, counts: diagnostics::Counts) -> ExitCode {
    super::exit_status(counts.errors > 0 || (args.deny_warnings && counts.warnings > 0))
}
