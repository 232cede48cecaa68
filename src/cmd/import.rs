//! `import`: have [`crate::import::io`] read a deployed API (a folder or an
//! http(s) base URL) and map it onto the root, refuse to overwrite what
//! differs unless `--force`, write, say what was imported, kept, skipped
//! and regenerated, and end with the `check` of the result.

use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use crate::cli::ImportArgs;
use crate::diagnostics::{self, Format};
use crate::i18n::{self, Msg, msg};
use crate::import::io::{self, Event, Request};
use crate::root::Workspace;
use crate::site;
use crate::terminal::Bar;

pub fn run(args: ImportArgs, ws: &Workspace) -> anyhow::Result<ExitCode> {
    let root = &ws.root;
    let gathered = gather(&args, root)?;
    let prepared = io::prepare(root, gathered, &args.default_locale, &args.time_zone)?;
    let conflicts = prepared.conflicts();
    if !conflicts.is_empty() && !args.force {
        print_errors(&prepared.errors);
        return Err(anyhow::Error::new(msg!(
            "import-refuse-overwrite",
            count = conflicts.len(),
            root = root.display().to_string(),
            files = i18n::list(&conflicts)
        )));
    }
    prepared.write(root)?;
    // Printed once everything is written: a closed stdout stops nothing halfway.
    super::print_out(&prepared.listing())?;
    for note in prepared.notes() {
        super::say(note);
    }
    print_skipped(&prepared.skipped);
    print_errors(&prepared.errors);
    super::say(prepared.summary());

    let checked = site::check(root, &super::options::check(ws))?;
    super::report(root, &checked.diagnostics, Format::Human)?;
    let errors = diagnostics::count(&checked.diagnostics).errors;
    let left_out = say_left_out(&args, &prepared);
    Ok(super::exit_status(errors > 0 || left_out))
}

/// The published site read, with a bar while its files are fetched; none
/// found is an error that says what was wrong with each.
fn gather(args: &ImportArgs, root: &Path) -> anyhow::Result<io::Gathered> {
    let request = Request {
        from: &args.from,
        games: &args.games,
        locales: &args.locales,
        default_locale: &args.default_locale,
        timeout: Duration::from_secs(args.timeout.max(1)),
        keep_unknown: args.keep_unknown,
        root,
        legacy: args.legacy,
    };
    let mut bar = Bar::hidden();
    let gathered = io::gather(&request, &mut |event| match event {
        Event::Note(note) => super::say(msg!("import-note", text = note)),
        Event::Fetching(total) => {
            let template = format!("{} {{bar:30}} {{pos}}/{{len}}", msg!("import-fetching"));
            bar = Bar::new(total as u64, &template);
        }
        Event::Fetched => bar.step(),
    });
    bar.finish();
    let gathered = gathered?;
    if gathered.sources.is_empty() {
        print_errors(&gathered.errors);
        print_skipped(&gathered.skipped);
        return Err(anyhow::Error::new(msg!(
            "import-nothing-found",
            from = args.from.as_str()
        )));
    }
    Ok(gathered)
}

/// Says how many files failed, and how many were skipped unless
/// `--allow-skipped`; whether either makes the import a failure.
fn say_left_out(args: &ImportArgs, prepared: &io::Prepared) -> bool {
    let failed = prepared.errors.len();
    if failed > 0 {
        super::say(msg!("import-failed", count = failed));
    }
    let skipped = prepared.skipped.len();
    if skipped > 0 && !args.allow_skipped {
        super::say(msg!("import-skipped", count = skipped));
    }
    failed > 0 || (skipped > 0 && !args.allow_skipped)
}

fn print_skipped(skipped: &[(String, Msg)]) {
    for (path, why) in skipped {
        super::say(msg!(
            "import-skipped-file",
            path = path.as_str(),
            why = why.clone()
        ));
    }
}

fn print_errors(errors: &[Msg]) {
    for error in errors {
        super::say(msg!("tool-error", error = error.clone()));
    }
}
