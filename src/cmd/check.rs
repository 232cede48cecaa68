//! `check`: read the tree once ([`crate::load::load`]), check it
//! ([`crate::site::check_streaming`]) or fix it ([`rewrite::fix_loaded`]),
//! render the diagnostics, set the exit status.

use std::process::ExitCode;

use anyhow::Context as _;

use crate::cli::CheckArgs;
use crate::diagnostics::{self, Diagnostic, Format};
use crate::i18n::msg;
use crate::site::{self, rewrite};
use crate::source::{Overlay, Tree};
use crate::terminal::Stream;

pub fn run(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let options = super::options::check_with_base(&args.common, args.changed_since.as_deref())?;
    let root = &args.common.root;
    let only = crate::root::named_files(root, &args.paths)?;
    let mut tree = crate::load::load(root, &Overlay::new())?;
    let keep = |d: &Diagnostic| only.as_ref().is_none_or(|only| only.contains(&d.file));
    // With --diff stdout holds the patch: what remains goes to stderr, as text.
    let format = if args.fix && args.diff {
        Format::Human
    } else {
        args.format
    };
    let mut changes = Vec::new();
    let mut diagnostics = if args.fix {
        fix(&args, &mut tree, &options, only.as_ref(), &mut changes)?
    } else if args.changed_since.is_none() {
        // Written as found, never held (issue 67), where the format allows.
        let source = |file: &str| tree.shown_text(file).map(str::to_owned);
        if let Some(mut stream) = Stream::new(format, &source) {
            site::check_streaming(&tree, &options, &mut |mut batch| {
                batch.retain(keep);
                Ok(stream.write(&batch)?)
            })?;
            let counts = stream.finish();
            return Ok(exit(&args, counts));
        }
        site::check_tree(&tree, &options)?.diagnostics
    } else {
        site::check_tree(&tree, &options)?.diagnostics
    };
    // The named files' diagnostics, those of the rules across files
    // (parity, a missing or orphan file) included.
    diagnostics.retain(keep);
    if let Some(rev) = &args.changed_since {
        let changed = crate::bases::changed_since(root, rev, &options, diagnostics)?;
        let line = msg!(
            "check-changed-since",
            rev = rev.as_str(),
            before = changed.before,
            clock = changed.clock
        );
        super::print_err(&format!("{line}\n"));
        diagnostics = changed.introduced;
    }
    if args.fix {
        // What the fixes leave, said before it is listed.
        let line = match (!changes.is_empty(), diagnostics.is_empty()) {
            (true, true) => msg!("fix-nothing-remains"),
            (true, false) => msg!("fix-remains"),
            (false, true) => msg!("fix-clean"),
            (false, false) => msg!("fix-nothing"),
        };
        super::say(line);
    }
    let source = |file: &str| tree.shown_text(file).map(str::to_owned);
    if args.fix && format == Format::Json {
        // The changes beside what remains, in the one document.
        let changes: Vec<serde_json::Value> = changes.into_iter().flatten().collect();
        crate::terminal::report_json_with_changes(&diagnostics, &changes)?;
    } else {
        crate::terminal::report_from(&diagnostics, format, &source)?;
    }
    Ok(exit(&args, diagnostics::count(&diagnostics)))
}

/// 1 with an error, or a warning under `--deny-warnings`.
fn exit(args: &CheckArgs, counts: diagnostics::Counts) -> ExitCode {
    super::exit_status(counts.errors > 0 || (args.deny_warnings && counts.warnings > 0))
}

/// `--fix`: fixes the tree in memory from one check, writing (or, with
/// `--diff`, printing) and listing each changed file as it is fixed;
/// `changes` gets one entry per changed file (its changes as JSON for
/// `--format json`, else none). Returns what remains.
fn fix(
    args: &CheckArgs,
    tree: &mut Tree,
    options: &crate::validate::Options,
    only: Option<&std::collections::BTreeSet<String>>,
    changes: &mut Vec<Vec<serde_json::Value>>,
) -> anyhow::Result<Vec<Diagnostic>> {
    let root = tree.root().to_path_buf();
    let fixing = rewrite::fix_loaded(tree, options, only, &mut |file| {
        if args.diff {
            super::print_out(&file.patch())?;
        } else {
            crate::atomic::write(&root.join(&file.path), file.after.as_bytes())
                .with_context(|| msg!("err-write", path = file.path.as_str()))?;
        }
        list_changes(&file, args.diff);
        // Only the JSON document lists the changes (issue 67: building
        // them for every output held 1 KB per change to the end).
        let json = args.format == Format::Json && !args.diff;
        changes.push(if json {
            let path = Some(file.path.as_str());
            file.changes.iter().map(|c| c.to_json(path)).collect()
        } else {
            Vec::new()
        });
        Ok(())
    })?;
    for path in &fixing.left {
        super::say(msg!("fix-left", path = path.as_str()));
    }
    Ok(fixing.remaining)
}

/// Lists each change `--fix` made (or, with `diff`, would make) to `file`:
/// where, by which rule, before and after, with its notes.
fn list_changes(file: &rewrite::FixedFile, diff: bool) {
    let lang = crate::i18n::Lang::current();
    let title = if diff {
        msg!(
            "fix-file-diff",
            path = file.path.as_str(),
            fixes = file.fixes
        )
    } else {
        msg!("fix-file", path = file.path.as_str(), fixes = file.fixes)
    };
    let mut text = format!("{title}\n");
    for change in &file.changes {
        text.push_str(&format!("  {}\n", change.describe(&file.path)));
        for note in &change.notes {
            text.push_str(&format!(
                "    {}\n",
                msg!("note-line", text = note.render(lang))
            ));
        }
    }
    super::print_err(&text);
}
