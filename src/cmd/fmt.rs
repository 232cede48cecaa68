//! `fmt`: rewrite data files in canonical form (or list them with `--check`), leaving files with errors alone ([`crate::site::rewrite::format_tree`]).

use std::process::ExitCode;

use crate::cli::FmtArgs;
use crate::diagnostics::{self, Format};
use crate::site::rewrite;

pub fn run(args: FmtArgs) -> anyhow::Result<ExitCode> {
    let root = &args.common.root;
    let options = super::check_options(&args.common);
    let outcome = rewrite::format_tree(root, &options, args.check)?;

    let verb = if args.check {
        "would reformat"
    } else {
        "reformatted"
    };
    for path in &outcome.changed {
        super::print_out(&format!("{verb} {path}\n"))?;
    }
    if !outcome.errors.is_empty() {
        super::check::report(root, &outcome.errors, Format::Human)?;
        eprintln!(
            "fmt: left {} with errors unchanged",
            diagnostics::plural(outcome.broken, "file", "files")
        );
    }
    eprintln!(
        "fmt: {} {}, {} already canonical",
        diagnostics::plural(outcome.changed.len(), "file", "files"),
        if args.check {
            "would change"
        } else {
            "reformatted"
        },
        outcome.formatted - outcome.changed.len()
    );
    let failed = !outcome.errors.is_empty() || (args.check && !outcome.changed.is_empty());
    Ok(super::exit_status(failed))
}
