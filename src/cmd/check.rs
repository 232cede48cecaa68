//! `check`: load and validate the tree ([`crate::site::check()`]), render the diagnostics, set the exit status.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use anyhow::Context as _;
use std::process::ExitCode;

use crate::cli::CheckArgs;
use crate::diagnostics::{self, Diagnostic, Format};
use crate::i18n::msg;
use crate::site::{self, rewrite};

pub fn run(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let options = super::check_options(&args.common);
    let root = &args.common.root;
    let only = named_files(root, &args.paths)?;
    // The texts the remaining diagnostics point into, where they are not
    // on disk (`--fix --diff` writes nothing).
    let mut texts: BTreeMap<String, String> = BTreeMap::new();
    let mut changed = false;
    // Each change, for `--format json`.
    let mut changes: Vec<serde_json::Value> = Vec::new();
    let mut checked = if args.fix {
        let fixed = rewrite::fix_tree(root, &options, only.as_ref(), !args.diff)?;
        for file in &fixed.files {
            if args.diff {
                super::print_out(&file.patch())?;
                texts.insert(file.path.clone(), file.after.clone());
            }
            list_changes(file, args.diff);
            changes.extend(file.changes.iter().map(|c| c.to_json(Some(&file.path))));
        }
        for path in &fixed.left {
            super::print_err(&format!("{}\n", msg!("fix-left", path = path.as_str())));
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
        let changed = crate::review::changed_since(root, rev, &options, all)?;
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
        super::print_err(&format!("{line}\n"));
    }
    // With --diff stdout holds the patch: what remains goes to stderr, as text.
    let format = if args.diff {
        Format::Human
    } else {
        args.format
    };
    if args.fix && format == Format::Json {
        // The changes beside what remains, in the one document.
        let mut report: serde_json::Value =
            serde_json::from_str(&diagnostics::render_json(&checked.diagnostics))?;
        report["changes"] = serde_json::Value::Array(changes);
        super::print_out(&format!("{}\n", serde_json::to_string_pretty(&report)?))?;
    } else {
        report_with(root, &checked.diagnostics, format, &texts)?;
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

/// The files of `paths` as paths of the root: each is looked for from the
/// current folder, then under the root (`check --root contrib
/// data/sr/zh-CN.json`); `None` for no paths (the whole tree).
fn named_files(
    root: &Path,
    paths: &[std::path::PathBuf],
) -> anyhow::Result<Option<BTreeSet<String>>> {
    if paths.is_empty() {
        return Ok(None);
    }
    let base = root
        .canonicalize()
        .with_context(|| msg!("err-read-root", path = root.display().to_string()))?;
    let mut named = BTreeSet::new();
    for path in paths {
        let full = match path.canonicalize() {
            Ok(full) => full,
            Err(_) => root.join(path).canonicalize().map_err(|_| {
                anyhow::Error::new(msg!(
                    "err-find-named",
                    path = path.display().to_string(),
                    root = root.display().to_string()
                ))
            })?,
        };
        let rel = full.strip_prefix(&base).map_err(|_| {
            anyhow::Error::new(msg!(
                "err-outside-root",
                path = path.display().to_string(),
                root = base.display().to_string()
            ))
        })?;
        named.insert(crate::relpath::slashed(rel));
    }
    Ok(Some(named))
}

/// Prints diagnostics: human text and the summary to stderr; JSON and GitHub
/// annotations (data for other programs) to stdout.
pub(crate) fn report(
    root: &Path,
    diagnostics: &[Diagnostic],
    format: Format,
) -> std::io::Result<()> {
    report_with(root, diagnostics, format, &BTreeMap::new())
}

/// [`report`], with the texts of `texts` shown in place of the files on disk.
fn report_with(
    root: &Path,
    diagnostics: &[Diagnostic],
    format: Format,
    texts: &BTreeMap<String, String>,
) -> std::io::Result<()> {
    // A link is not followed to show a line: it may lead outside the root
    // (a `kept-file` error says so).
    let source = |file: &str| {
        if let Some(text) = texts.get(file) {
            return Some(text.clone());
        }
        let path = root.join(file);
        if std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink()) {
            return None;
        }
        std::fs::read(path)
            .ok()
            .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
    };
    match format {
        Format::Human => {
            let text = diagnostics::render_human(diagnostics, super::stderr_color(), &source);
            super::print_err(&text);
            let counts = diagnostics::count(diagnostics);
            super::print_err(&format!("{}\n", diagnostics::checked_line(counts)));
        }
        Format::Json => super::print_out(&diagnostics::render_json(diagnostics))?,
        Format::Github => super::print_out(&diagnostics::render_github(diagnostics))?,
        Format::Rdjson => super::print_out(&diagnostics::render_rdjson(diagnostics, &source))?,
        Format::Sarif => super::print_out(&diagnostics::render_sarif(diagnostics, &source))?,
    }
    Ok(())
}
