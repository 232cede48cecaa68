//! `check`: load and validate the tree ([`crate::site::check()`]), render the diagnostics, set the exit status.

use std::collections::BTreeMap;
use std::process::ExitCode;

use crate::cli::CheckArgs;
use crate::diagnostics::{self, Format};
use crate::i18n::msg;
use crate::root::Workspace;
use crate::site::{self, rewrite};

pub fn run(args: CheckArgs, ws: &Workspace) -> anyhow::Result<ExitCode> {
    let options = super::options::check_with_base(ws, args.changed_since.as_deref())?;
    let root = &ws.root;
    let only = crate::root::named_files(root, &args.paths)?;
    // The texts the remaining diagnostics point into, where they are not
    // on disk (`--fix --diff` writes nothing).
    let mut texts: BTreeMap<String, String> = BTreeMap::new();
    let mut changed = false;
    // Each change, for `--format json`.
    let mut changes: Vec<serde_json::Value> = Vec::new();
    let mut checked = if args.fix {
        let fixed = if args.diff {
            rewrite::preview_fixes(root, &options, only.as_ref())?
        } else {
            rewrite::fix_tree(root, &options, only.as_ref())?
        };
        for file in &fixed.files {
            if args.diff {
                super::print_out(&file.patch())?;
                texts.insert(file.path.clone(), file.after.clone());
            }
            list_changes(file, args.diff);
            // Only the JSON document lists the changes (issue 67: building
            // them for every output held 1 KB per change to the end).
            if args.format == Format::Json && !args.diff {
                changes.extend(file.changes.iter().map(|c| c.to_json(Some(&file.path))));
            }
        }
        for path in &fixed.left {
            super::say(msg!("fix-left", path = path.as_str()));
        }
        changed = !fixed.files.is_empty();
        fixed.remaining
    } else {
        site::check(root, &options)?
    };
    if let Some(only) = &only {
        // The named files' diagnostics, those of the rules across files
        // (parity, a missing or orphan file) included.
        checked.diagnostics.retain(|d| only.contains(&d.file));
    }
    if let Some(rev) = &args.changed_since {
        let all = std::mem::take(&mut checked.diagnostics);
        let changed = crate::bases::changed_since(root, rev, &options, all)?;
        let line = msg!(
            "check-changed-since",
            rev = rev.as_str(),
            before = changed.before,
            clock = changed.clock
        );
        super::print_err(&format!("{line}\n"));
        checked.diagnostics = changed.introduced;
    }
    if args.fix {
        // What the fixes leave, said before it is listed.
        let line = match (changed, checked.diagnostics.is_empty()) {
            (true, true) => msg!("fix-nothing-remains"),
            (true, false) => msg!("fix-remains"),
            (false, true) => msg!("fix-clean"),
            (false, false) => msg!("fix-nothing"),
        };
        super::say(line);
    }
    // With --diff stdout holds the patch: what remains goes to stderr, as text.
    let format = if args.diff {
        Format::Human
    } else {
        args.format
    };
    if args.fix && format == Format::Json {
        // The changes beside what remains, in the one document.
        crate::terminal::report_json_with_changes(&checked.diagnostics, &changes)?;
    } else {
        super::report_with(root, &checked.diagnostics, format, &texts)?;
    }
    let counts = diagnostics::count(&checked.diagnostics);
    let failed = counts.errors > 0 || (args.deny_warnings && counts.warnings > 0);
    Ok(super::exit_status(failed))
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
