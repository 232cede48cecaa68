//! `build`: check the tree, write the site through [`crate::site::build`], print what was written.

use std::process::ExitCode;

use crate::cli::BuildArgs;
use crate::diagnostics;
use crate::i18n::msg;
use crate::root::Workspace;
use crate::site;

pub fn run(args: BuildArgs, ws: &Workspace) -> anyhow::Result<ExitCode> {
    let out = ws.out_dir(args.output.out.as_ref());
    let mut options = super::options::build(ws, &out, &args.output)?;
    // A bar on a terminal while games are rendered; nothing in CI or a pipe.
    let bar: std::sync::Arc<std::sync::OnceLock<indicatif::ProgressBar>> = Default::default();
    let shown = std::sync::Arc::clone(&bar);
    options.progress = Some(site::Progress(std::sync::Arc::new(move |done, total| {
        let bar = shown.get_or_init(|| {
            let games = msg!("build-progress-games");
            super::progress_bar(
                total as u64,
                &format!("{{bar:30}} {{pos}}/{{len}} {games} {{elapsed}}"),
            )
        });
        bar.set_position(done as u64);
    })));
    let outcome = site::build(&options);
    if let Some(bar) = bar.get() {
        bar.finish_and_clear();
    }
    let outcome = outcome?;
    let has_errors = outcome.summary.is_none();
    if args.format == diagnostics::Format::Human {
        // New since the previous build in full; the rest counted.
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
    } else if has_errors || !outcome.diagnostics.is_empty() {
        // Data for programs: every diagnostic, each time.
        super::report(&ws.root, &outcome.diagnostics, args.format)?;
    }
    match outcome.summary {
        Some(summary) => {
            let line = msg!(
                "build-done",
                out = out.display().to_string(),
                files = summary.files,
                size = crate::publish::plan::human_bytes(summary.bytes),
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
                    out = site::shown_output(&out),
                    place = place.display().to_string()
                );
                super::say(line);
            }
            Ok(ExitCode::SUCCESS)
        }
        None => {
            let counts = diagnostics::count(&outcome.diagnostics);
            let line = msg!(
                "build-failed",
                errors = counts.errors,
                out = out.display().to_string()
            );
            super::say(line);
            Ok(ExitCode::from(1))
        }
    }
}
