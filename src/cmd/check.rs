//! `check`: load and validate the tree ([`crate::site::check`]), render the diagnostics, set the exit status.

use std::collections::BTreeSet;
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
    let mut checked = if args.fix {
        let fixed = rewrite::fix_tree(root, &options, only.as_ref(), !args.diff)?;
        for file in &fixed.files {
            if args.diff {
                super::print_out(&file.patch())?;
            } else {
                super::print_err(&format!(
                    "{}\n",
                    msg!("fix-fixed", path = file.path.as_str(), fixes = file.fixes)
                ));
            }
        }
        for path in &fixed.left {
            super::print_err(&format!("{}\n", msg!("fix-left", path = path.as_str())));
        }
        if args.diff {
            // Nothing was written: what remains is reported on the files as they are.
            site::check(root, &options)?
        } else {
            fixed.remaining
        }
    } else {
        site::check(root, &options)?
    };
    if let Some(only) = &only {
        // The named files' diagnostics, those of the rules across files
        // (parity, a missing or orphan file) included.
        checked.diagnostics.retain(|d| only.contains(&d.file));
    }
    if !(args.fix && args.diff) {
        report(root, &checked.diagnostics, args.format)?;
    }
    let counts = diagnostics::count(&checked.diagnostics);
    let failed = counts.errors > 0 || (args.deny_warnings && counts.warnings > 0);
    Ok(super::exit_status(failed))
}

/// The files of `paths` (relative to the current folder) as paths of the
/// root; `None` for no paths (the whole tree).
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
        let full = path
            .canonicalize()
            .with_context(|| msg!("err-find", path = path.display().to_string()))?;
        let rel = full.strip_prefix(&base).map_err(|_| {
            anyhow::anyhow!(
                "`{}` is outside the root `{}`",
                path.display(),
                base.display()
            )
        })?;
        let rel: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        named.insert(rel.join("/"));
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
    // A link is not followed to show a line: it may lead outside the root
    // (a `kept-file` error says so).
    let source = |file: &str| {
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
