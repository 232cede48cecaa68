//! `check --fix`: fix the tree in memory from one check
//! ([`rewrite::fix_loaded`]), write (or, with `--diff`, print) each changed
//! file and list its changes.

use anyhow::Context as _;

use crate::cli::CheckArgs;
use crate::diagnostics::{Diagnostic, Format};
use crate::i18n::{Msg, msg};
use crate::site::rewrite;
use crate::source::Tree;

/// `--fix`: fixes the tree in memory from one check, writing (or, with
/// `--diff`, printing) and listing each changed file as it is fixed;
/// `changes` gets one entry per changed file (its changes as JSON for
/// `--format json`, else none). Returns what remains.
pub(super) fn fix(
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
        let (path, fixes) = (file.path.as_str(), file.fixes);
        let title = if args.diff {
            msg!("fix-file-diff", path = path, fixes = fixes)
        } else {
            msg!("fix-file", path = path, fixes = fixes)
        };
        list_changes(&file, &title);
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

/// Lists each change `--fix` made (or, with `--diff`, would make) to `file`
/// under `title`: where, by which rule, before and after, with its notes.
fn list_changes(file: &rewrite::FixedFile, title: &Msg) {
    let lang = crate::i18n::Lang::current();
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
