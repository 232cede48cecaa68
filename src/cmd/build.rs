//! `build`: check the tree, write the site through [`crate::site::build`], print what was written.

use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

use crate::cli::BuildArgs;
use crate::diagnostics;
use crate::i18n::msg;
use crate::root::Workspace;
use crate::site;
use crate::terminal::{Bar, human_bytes};

pub fn run(args: BuildArgs, ws: &Workspace) -> anyhow::Result<ExitCode> {
    let out = ws.out_dir(args.output.out.as_ref());
    let mut options = super::options::build(ws, &out, &args.output)?;
    let bar = progress_bar(&mut options);
    let outcome = site::build(&options);
    bar.finish();
    let outcome = outcome?;
    print_diagnostics(&outcome, args.format, ws)?;
    match &outcome.summary {
        Some(summary) => {
            say_written(summary, &out, &args);
            Ok(ExitCode::SUCCESS)
        }
        None => {
            let counts = diagnostics::count(&outcome.diagnostics);
            let out = out.display().to_string();
            super::say(msg!("build-failed", errors = counts.errors, out = out));
            Ok(ExitCode::from(1))
        }
    }
}

/// A bar on a terminal while games are rendered, told by `options`'
/// progress; nothing in CI or a pipe.
fn progress_bar(options: &mut site::BuildOptions) -> Bar {
    let games = msg!("build-progress-games");
    let bar = Bar::counting(&format!("{{bar:30}} {{pos}}/{{len}} {games} {{elapsed}}"));
    let shown = bar.clone();
    options.progress = Some(site::Progress(Arc::new(move |done, total| {
        shown.at(done, total);
    })));
    bar
}

/// For people, the diagnostics new since the previous build in full and
/// the rest counted; for programs, every diagnostic, each time.
fn print_diagnostics(
    outcome: &site::BuildOutcome,
    format: diagnostics::Format,
    ws: &Workspace,
) -> anyhow::Result<()> {
    if format != diagnostics::Format::Human {
        if outcome.summary.is_none() || !outcome.diagnostics.is_empty() {
            super::report(&ws.root, &outcome.diagnostics, format)?;
        }
        return Ok(());
    }
    let (new, unchanged) = outcome.new_since_last();
    let text = diagnostics::render_human(&new, super::stderr_color(), &|file| {
        std::fs::read_to_string(ws.root.join(file)).ok()
    });
    super::print_err(&text);
    if unchanged > 0 {
        super::say(msg!("build-unchanged-warnings", count = unchanged));
    }
    if !outcome.diagnostics.is_empty() {
        let counts = diagnostics::count(&outcome.diagnostics);
        super::say(diagnostics::checked_line(counts));
    }
    Ok(())
}

/// Says what a good build wrote to `out`, and where an output it did not
/// make went.
fn say_written(summary: &site::BuildSummary, out: &Path, args: &BuildArgs) {
    let line = msg!(
        "build-done",
        out = out.display().to_string(),
        files = summary.files,
        size = human_bytes(summary.bytes),
        elapsed = format!("{:.0?}", summary.elapsed),
        reused = summary.reused,
        parts = summary.reused + summary.rendered,
        checked = summary.checked,
        games = summary.games
    );
    super::say(line);
    super::options::note_site_url(&args.output);
    if let Some(place) = &summary.set_aside {
        let line = msg!(
            "build-set-aside",
            out = site::shown_output(out),
            place = place.display().to_string()
        );
        super::say(line);
    }
}
