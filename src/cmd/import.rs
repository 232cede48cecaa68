//! `import`: have [`crate::import::io`] read a deployed API (a folder or an
//! http(s) base URL) and map it onto the root, refuse to overwrite what
//! differs unless `--force`, write, and end with the `check` of the result.

use std::process::ExitCode;
use std::time::Duration;

use crate::cli::ImportArgs;
use crate::diagnostics::{self, Format};
use crate::import::io::{self, Event, Request};
use crate::site;

pub fn run(args: ImportArgs) -> anyhow::Result<ExitCode> {
    let root = &args.common.root;
    let request = Request {
        from: &args.from,
        games: &args.games,
        locales: &args.locales,
        default_locale: &args.default_locale,
        timeout: Duration::from_secs(args.timeout.max(1)),
    };
    let mut bar = None;
    let gathered = io::gather(&request, &mut |event| match event {
        Event::Note(note) => eprintln!("note: {note}"),
        Event::Fetching(total) => {
            bar = Some(super::progress_bar(
                total as u64,
                "fetching {bar:30} {pos}/{len}",
            ));
        }
        Event::Fetched => {
            if let Some(bar) = &bar {
                bar.inc(1);
            }
        }
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let gathered = gathered?;
    if gathered.sources.is_empty() {
        print_errors(&gathered.errors);
        anyhow::bail!(
            "found no activity file to import in `{}`\n\
             help: give a folder of <game>.json and <game>-<locale>.json files, a site holding api/v1/activity/, or a site's base URL",
            args.from
        );
    }

    let prepared = io::prepare(root, gathered, &args.default_locale)?;
    let conflicts = prepared.conflicts();
    if !conflicts.is_empty() && !args.force {
        print_errors(&prepared.errors);
        anyhow::bail!(
            "refusing to overwrite {} file{} of `{}` that the import would change: {}; nothing was written\n\
             help: commit or back them up, then pass --force to replace them",
            conflicts.len(),
            if conflicts.len() == 1 { "" } else { "s" },
            root.display(),
            conflicts.join(", ")
        );
    }
    prepared.write(root)?;
    // Printed once everything is written: a closed stdout stops nothing halfway.
    super::print_out(&prepared.listing())?;
    for game in prepared.games.iter().filter(|g| g.placeholder) {
        eprintln!(
            "note: games.json: `{}` got placeholders for `name` and `dataSource`; replace them (`activity-site status` lists them)",
            game.id
        );
    }
    print_errors(&prepared.errors);

    let options = super::check_options(&args.common);
    let checked = site::check(root, &options)?;
    super::check::report(root, &checked.diagnostics, Format::Human)?;
    let counts = diagnostics::count(&checked.diagnostics);
    let failed = prepared.errors.len();
    if failed > 0 {
        eprintln!(
            "import: {failed} file{} not imported (see the errors above)",
            if failed == 1 { "" } else { "s" }
        );
    }
    Ok(super::exit_status(counts.errors > 0 || failed > 0))
}

fn print_errors(errors: &[String]) {
    for error in errors {
        eprintln!("error: {error}");
    }
}
