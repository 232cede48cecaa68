//! `check`: load and validate the tree ([`crate::site::check`]), render the diagnostics, set the exit status.

use std::path::Path;
use std::process::ExitCode;

use crate::cli::CheckArgs;
use crate::diagnostics::{self, Diagnostic, Format};
use crate::site::{self, rewrite};

pub fn run(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let options = super::check_options(&args.common);
    let root = &args.common.root;
    let checked = if args.fix {
        let fixed = rewrite::fix_tree(root, &options, None, !args.diff)?;
        for file in &fixed.files {
            if args.diff {
                super::print_out(&file.patch())?;
            } else {
                super::print_err(&format!(
                    "fixed {} ({})\n",
                    file.path,
                    diagnostics::plural(file.fixes, "fix", "fixes")
                ));
            }
        }
        for path in &fixed.left {
            super::print_err(&format!(
                "left {path} unchanged: another mistake in it has no exact fix, so its fixes would not give valid JSON\n"
            ));
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
    if !(args.fix && args.diff) {
        report(root, &checked.diagnostics, args.format)?;
    }
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
            if counts.errors + counts.warnings == 0 {
                super::print_err("checked: no problems\n");
            } else {
                super::print_err(&format!("checked: {}\n", diagnostics::summary(counts)));
            }
        }
        Format::Json => super::print_out(&diagnostics::render_json(diagnostics))?,
        Format::Github => super::print_out(&diagnostics::render_github(diagnostics))?,
    }
    Ok(())
}
