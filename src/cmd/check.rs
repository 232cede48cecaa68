//! `check`: load and validate the tree ([`crate::site::check`]), render the diagnostics, set the exit status.

use std::path::Path;
use std::process::ExitCode;

use crate::cli::CheckArgs;
use crate::diagnostics::{self, Diagnostic, Format};
use crate::site;

pub fn run(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let options = super::check_options(&args.common);
    let checked = site::check(&args.common.root, &options)?;
    report(&args.common.root, &checked.diagnostics, args.format)?;
    let counts = diagnostics::count(&checked.diagnostics);
    let failed = counts.errors > 0 || (args.deny_warnings && counts.warnings > 0);
    Ok(super::exit_status(failed))
}

/// Prints diagnostics: human text and the summary to stderr; JSON and GitHub
/// annotations (data for other programs) to stdout.
pub(crate) fn report(
    root: &Path,
    diagnostics: &[Diagnostic],
    format: Format,
) -> std::io::Result<()> {
    let source = |file: &str| {
        std::fs::read(root.join(file))
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
    }
    Ok(())
}
