//! What the commands print, and where: data to stdout, people's text to
//! stderr, both through the one pair of printers that a closed pipe (`... |
//! head`) ends quietly instead of a panic; diagnostics in each output
//! format; colour and the progress bar only on a terminal.
//!
//! # May know, may not know
//!
//! May know the checker's diagnostics (it prints them). The checker, the
//! builder and the review may not know this crate: they return values and
//! tell progress through callbacks, and the commands, the server and the
//! language server print. Knows no HTTP and no async runtime.

use std::collections::BTreeMap;
use std::fmt::Display;
use std::io::{IsTerminal as _, Write as _};
use std::path::Path;

use activity_site_check::diagnostics::{self, Diagnostic, Format};

/// Writes data to stdout and flushes it. A closed pipe (`... | head`) is
/// not an error: the reader has what it wanted, so the text is dropped and
/// the command goes on to end with its own status (1 for a failed check,
/// read by `set -o pipefail`), quietly, as ripgrep does. Any other failure
/// (`> /dev/full`) is returned.
pub fn print_out(text: &str) -> std::io::Result<()> {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        result => result,
    }
}

/// Writes text to stderr, ignoring a closed pipe like [`print_out`]
/// (`eprint!` would panic).
pub fn print_err(text: &str) {
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}

/// Writes one line for people to stderr ([`print_err`] with its newline).
pub fn say(line: impl Display) {
    print_err(&format!("{line}\n"));
}

/// Whether `err` comes from writing to a closed pipe somewhere
/// [`print_out`] does not handle (clap's help, say): `main` then ends
/// quietly with status 0.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Whether stderr should be coloured: a terminal, and `NO_COLOR` unset.
pub fn stderr_color() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && std::io::stderr().is_terminal()
}

/// A progress bar on stderr, the one every command draws: shown only on
/// a terminal outside CI (`CI` set and not `false`) and when there is
/// work, hidden (every call a no-op) otherwise. A clone draws the same bar,
/// so a callback of the library may move one.
#[derive(Clone)]
pub struct Bar(indicatif::ProgressBar);

impl Bar {
    /// A bar for `total` steps, drawn with `template` (indicatif's).
    pub fn new(total: u64, template: &str) -> Bar {
        if total == 0 || !shows_progress() {
            return Bar::hidden();
        }
        Bar(styled(indicatif::ProgressBar::new(total), template))
    }

    /// A bar whose total the work tells as it goes ([`Bar::at`]): nothing
    /// is drawn before the first step.
    pub fn counting(template: &str) -> Bar {
        if !shows_progress() {
            return Bar::hidden();
        }
        Bar(styled(indicatif::ProgressBar::no_length(), template))
    }

    /// `done` of `total` steps are done.
    pub fn at(&self, done: usize, total: usize) {
        self.0.set_length(total as u64);
        self.0.set_position(done as u64);
    }

    /// A bar that draws nothing, until a command knows its work.
    pub fn hidden() -> Bar {
        Bar(indicatif::ProgressBar::hidden())
    }

    /// One more step is done.
    pub fn step(&self) {
        self.0.inc(1);
    }

    /// One more step is done; `message` says which (`{wide_msg}`).
    pub fn step_named(&self, message: &str) {
        self.0.set_message(message.to_owned());
        self.0.inc(1);
    }

    /// The work is over: the bar leaves the screen.
    pub fn finish(&self) {
        self.0.finish_and_clear();
    }
}

/// Whether a bar is drawn: on a terminal, outside CI.
fn shows_progress() -> bool {
    let ci = std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "false");
    !ci && std::io::stderr().is_terminal()
}

fn styled(bar: indicatif::ProgressBar, template: &str) -> indicatif::ProgressBar {
    if let Ok(style) = indicatif::ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar
}

/// Bytes for people: `512 B`, `1.5 KiB`, `2.0 MiB`.
pub fn human_bytes(bytes: u64) -> String {
    if bytes >= 1024 * 1024 {
        format!("{:.1} MiB", bytes as f64 / (1024.0 * 1024.0))
    } else if bytes >= 1024 {
        format!("{:.1} KiB", bytes as f64 / 1024.0)
    } else {
        format!("{bytes} B")
    }
}

/// Prints diagnostics: human text and the summary to stderr; JSON and GitHub
/// annotations (data for other programs) to stdout.
pub fn report(root: &Path, diagnostics: &[Diagnostic], format: Format) -> std::io::Result<()> {
    report_with(root, diagnostics, format, &BTreeMap::new())
}

/// [`report`], with the texts of `texts` shown in place of the files on disk.
pub fn report_with(
    root: &Path,
    diagnostics: &[Diagnostic],
    format: Format,
    texts: &BTreeMap<String, String>,
) -> std::io::Result<()> {
    // A link is not followed to show a line: it may lead outside the root
    // (a `kept-file` error says so).
    let source = |file: &str| {
        if let Some(text) = texts.get(file) {
            return Some(text.clone());
        }
        let path = root.join(file);
        if std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink()) {
            return None;
        }
        std::fs::read(path)
            .ok()
            .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
    };
    // Human text, JSON and GitHub lines are written as they are rendered
    // (issue 67: the whole text of 400,000 warnings was held first).
    match format {
        Format::Human => {
            // Stderr, for people: a closed pipe ends the listing quietly.
            let mut err = std::io::BufWriter::new(std::io::stderr().lock());
            let _ = diagnostics::write_human(&mut err, diagnostics, stderr_color(), &source)
                .and_then(|()| err.flush());
            drop(err);
            say(diagnostics::checked_line(diagnostics::count(diagnostics)));
        }
        Format::Json => write_out(|out| diagnostics::write_json(out, diagnostics, None))?,
        Format::Github => write_out(|out| diagnostics::write_github(out, diagnostics))?,
        Format::Rdjson => print_out(&diagnostics::render_rdjson(diagnostics, &source))?,
        Format::Sarif => print_out(&diagnostics::render_sarif(diagnostics, &source))?,
    }
    Ok(())
}

/// [`report`], with each file's text (to show its lines) from `source`
/// (a tree held in memory) instead of the disk.
pub fn report_from(
    diagnostics: &[Diagnostic],
    format: Format,
    source: &dyn Fn(&str) -> Option<String>,
) -> std::io::Result<()> {
    match format {
        Format::Human => {
            let mut err = std::io::BufWriter::new(std::io::stderr().lock());
            let _ = diagnostics::write_human(&mut err, diagnostics, stderr_color(), source)
                .and_then(|()| err.flush());
            drop(err);
            say(diagnostics::checked_line(diagnostics::count(diagnostics)));
        }
        Format::Json => write_out(|out| diagnostics::write_json(out, diagnostics, None))?,
        Format::Github => write_out(|out| diagnostics::write_github(out, diagnostics))?,
        Format::Rdjson => print_out(&diagnostics::render_rdjson(diagnostics, source))?,
        Format::Sarif => print_out(&diagnostics::render_sarif(diagnostics, source))?,
    }
    Ok(())
}

/// Writes diagnostics as they come, a batch at a time, in a format that
/// needs no whole list (human text to stderr, GitHub lines to stdout),
/// counting them; [`Stream::finish`] prints the human summary. A closed
/// pipe ends the listing quietly.
pub struct Stream<'s> {
    format: Format,
    source: &'s dyn Fn(&str) -> Option<String>,
    counts: diagnostics::Counts,
    closed: bool,
}

impl<'s> Stream<'s> {
    /// A stream in `format`; `None` for a format that needs the whole list
    /// (JSON, rdjson, SARIF: one document).
    pub fn new(format: Format, source: &'s dyn Fn(&str) -> Option<String>) -> Option<Self> {
        matches!(format, Format::Human | Format::Github).then_some(Stream {
            format,
            source,
            counts: diagnostics::Counts::default(),
            closed: false,
        })
    }

    /// Writes `batch` (sorted, after the batches before it).
    pub fn write(&mut self, batch: &[Diagnostic]) -> std::io::Result<()> {
        let more = diagnostics::count(batch);
        self.counts.errors += more.errors;
        self.counts.warnings += more.warnings;
        if self.closed || batch.is_empty() {
            return Ok(());
        }
        let written = match self.format {
            Format::Human => {
                let mut err = std::io::BufWriter::new(std::io::stderr().lock());
                diagnostics::write_human(&mut err, batch, stderr_color(), self.source)
                    .and_then(|()| err.flush())
                    .map_err(|_| std::io::Error::from(std::io::ErrorKind::BrokenPipe))
            }
            _ => write_out(|out| diagnostics::write_github(out, batch)),
        };
        match written {
            Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(())
            }
            other => other,
        }
    }

    /// What was written, counted; the human summary line printed.
    pub fn finish(self) -> diagnostics::Counts {
        if self.format == Format::Human {
            say(diagnostics::checked_line(self.counts));
        }
        self.counts
    }
}

/// `check --fix --format json`: the one document of what remains, with
/// the changes made beside it (`changes`).
pub fn report_json_with_changes(
    diagnostics: &[Diagnostic],
    changes: &[serde_json::Value],
) -> anyhow::Result<()> {
    write_out(|out| diagnostics::write_json(out, diagnostics, Some(changes)))?;
    Ok(())
}

/// Lets `write` write data to stdout through a buffer, as it is made, and
/// flushes it; a closed pipe is no error ([`print_out`]).
pub fn write_out(
    write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    match write(&mut out).and_then(|()| out.flush()) {
        Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        result => result,
    }
}
