//! `fmt`: rewrite data files in canonical form (or list them with `--check`), leaving files with errors alone.

use std::collections::BTreeSet;
use std::process::ExitCode;

use anyhow::Context as _;

use crate::atomic;
use crate::cli::FmtArgs;
use crate::diagnostics::{self, Format};
use crate::i18n::msg;
use crate::load::REGISTRY_PATH;
use crate::site;

pub fn run(args: FmtArgs) -> anyhow::Result<ExitCode> {
    let root = &args.common.root;
    let options = super::check_options(&args.common);
    let checked = site::check(root, &options)?;

    // Files with errors are not touched: their canonical form is unknown.
    let broken: BTreeSet<&str> = checked
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.file.as_str())
        .collect();
    let errors: Vec<_> = checked
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .cloned()
        .collect();

    // The registry and every data file it lists, as the check found them.
    let sources =
        std::iter::once(REGISTRY_PATH.to_owned()).chain(checked.games.iter().flat_map(|g| {
            g.game
                .locales
                .iter()
                .map(|locale| crate::tree::data_path(&g.game.id, locale))
        }));
    let mut formatted = 0;
    let mut changed = Vec::new();
    for path in sources.filter(|path| !broken.contains(path.as_str())) {
        let current = match std::fs::read_to_string(root.join(&path)) {
            Ok(text) => text,
            // A listed file that is missing is the check's `missing-file` error.
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => continue,
            Err(err) => return Err(err).with_context(|| msg!("err-read", path = path.as_str())),
        };
        let Some(canonical) = site::canonical_text(&path, &current) else {
            continue;
        };
        formatted += 1;
        if current != canonical {
            if !args.check {
                atomic::write(&root.join(&path), canonical.as_bytes())
                    .with_context(|| msg!("err-write", path = path.as_str()))?;
            }
            changed.push(path);
        }
    }

    for path in &changed {
        if args.check {
            super::print_out(&format!("{}\n", msg!("fmt-would-reformat", path = path)))?;
        } else {
            super::print_out(&format!("{}\n", msg!("fmt-reformatted", path = path)))?;
        }
    }
    if !errors.is_empty() {
        super::check::report(root, &errors, Format::Human)?;
        eprintln!("{}", msg!("fmt-left-broken", files = broken.len()));
    }
    let counts = diagnostics::count(&errors);
    let summary = msg!(
        "fmt-summary",
        changed = changed.len(),
        check = if args.check { "yes" } else { "no" },
        canonical = formatted - changed.len()
    );
    eprintln!("{summary}");
    let failed = counts.errors > 0 || (args.check && !changed.is_empty());
    Ok(super::exit_status(failed))
}
