//! The builder: a validated data tree to the files of `site/`. No HTTP, no async.
//!
//! [`build`] checks the tree first; with any error it writes nothing. Otherwise
//! it renders every file in memory game by game ([`OutputFile`]), writes them
//! into a staging directory beside the output and swaps it in with a rename.

pub mod diff;
pub mod ics;
pub mod pages;
pub mod publish;

use std::path::PathBuf;
use std::time::Duration;

use chrono::NaiveDateTime;

use crate::diagnostics::Diagnostic;
use crate::model::{ActivityDocument, Game};

/// What to build and where.
#[derive(Debug, Clone)]
pub struct BuildOptions {
    /// Root of the data tree.
    pub root: PathBuf,
    /// Output directory, replaced atomically on success.
    pub out: PathBuf,
    /// "Now" for status marks and staleness; `None` means the clock.
    pub now: Option<NaiveDateTime>,
}

/// The result of a build: the diagnostics, and a summary when files were written.
#[derive(Debug, Clone)]
pub struct BuildOutcome {
    /// Every diagnostic of the check that ran first (warnings included).
    pub diagnostics: Vec<Diagnostic>,
    /// `None` when the check found errors and nothing was written.
    pub summary: Option<BuildSummary>,
}

/// What a successful build wrote.
#[derive(Debug, Clone)]
pub struct BuildSummary {
    pub files: usize,
    pub bytes: u64,
    pub elapsed: Duration,
}

/// One file of the site, rendered in memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputFile {
    /// Path relative to the output directory, forward slashes (`api/v1/activity/ww.json`).
    pub path: String,
    pub bytes: Vec<u8>,
}

/// One game with its validated documents, as the renderers see it.
#[derive(Debug, Clone)]
pub struct GameOutput {
    pub game: Game,
    /// One entry per locale of `game.locales`, in that order; activities sorted.
    pub documents: Vec<LocaleDocument>,
}

/// A document and where it is published.
#[derive(Debug, Clone)]
pub struct LocaleDocument {
    pub locale: String,
    pub is_default: bool,
    pub document: ActivityDocument,
}

/// Checks the tree and, when it has no errors, writes the site atomically.
/// `Err` only when the tool itself fails (unreadable root, unwritable output).
pub fn build(_options: &BuildOptions) -> anyhow::Result<BuildOutcome> {
    anyhow::bail!("not implemented yet")
}
