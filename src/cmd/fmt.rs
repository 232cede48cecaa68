//! `fmt`: rewrite data files in canonical form (or list them with `--check`), leaving files with errors alone.

use std::collections::BTreeSet;
use std::process::ExitCode;

use anyhow::Context as _;

use crate::atomic;
use crate::cli::FmtArgs;
use crate::diagnostics::{self, Format};
use crate::load::REGISTRY_PATH;
use crate::model::Registry;
use crate::site;
use crate::validate;

pub fn run(args: FmtArgs) -> anyhow::Result<ExitCode> {
    let root = &args.common.root;
    let options = validate::Options {
        now: args.common.now,
    };
    let checked = site::check_documents(root, &options)?;

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

    let mut wanted: Vec<(String, String)> = Vec::new();
    if !broken.contains(REGISTRY_PATH) {
        let text =
            std::fs::read_to_string(root.join(REGISTRY_PATH)).context("cannot read games.json")?;
        if let Ok(registry) = serde_json::from_str::<Registry>(&text) {
            wanted.push((REGISTRY_PATH.to_string(), registry.to_canonical()));
        }
    }
    for game in &checked.games {
        for (locale, document) in &game.documents {
            let path = game.game.data_path(locale);
            if let Some(document) = document
                .as_ref()
                .filter(|_| !broken.contains(path.as_str()))
            {
                wanted.push((path, document.to_canonical(true)));
            }
        }
    }

    let mut changed = Vec::new();
    for (path, canonical) in &wanted {
        let current =
            std::fs::read(root.join(path)).with_context(|| format!("cannot read `{path}`"))?;
        if current != canonical.as_bytes() {
            changed.push(path.as_str());
            if !args.check {
                atomic::write(&root.join(path), canonical.as_bytes())
                    .with_context(|| format!("cannot write `{path}`"))?;
            }
        }
    }

    for path in &changed {
        if args.check {
            super::print_out(&format!("would reformat {path}\n"))?;
        } else {
            super::print_out(&format!("reformatted {path}\n"))?;
        }
    }
    if !errors.is_empty() {
        super::check::report(root, &errors, Format::Human)?;
        eprintln!(
            "fmt: left {} file{} with errors unchanged",
            broken.len(),
            if broken.len() == 1 { "" } else { "s" }
        );
    }
    let counts = diagnostics::count(&errors);
    eprintln!(
        "fmt: {} file{} {}, {} already canonical",
        changed.len(),
        if changed.len() == 1 { "" } else { "s" },
        if args.check {
            "would change"
        } else {
            "reformatted"
        },
        wanted.len() - changed.len()
    );
    let failed = counts.errors > 0 || (args.check && !changed.is_empty());
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
