//! The builder: a validated data tree to the files of `site/`. No HTTP, no async.

use std::path::PathBuf;
use std::time::Duration;

use chrono::NaiveDateTime;

use crate::diagnostics::Diagnostic;

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

#[derive(Debug, Clone)]
pub struct BuildSummary {
    pub files: usize,
    pub bytes: u64,
    pub elapsed: Duration,
}

/// Checks the tree and, when it has no errors, writes the site atomically.
/// `Err` only when the tool itself fails (unreadable root, unwritable output).
pub fn build(_options: &BuildOptions) -> anyhow::Result<BuildOutcome> {
    anyhow::bail!("not implemented yet")
}
