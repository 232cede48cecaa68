//! The next version of a game, in every locale at once (`activity-site
//! version new`, and the agents' `new_version` tool): each locale's new
//! document carries every activity of the current one that ends after the
//! new start, so nothing ongoing vanishes when the file is published early.
//!
//! [`plan`] reads and checks the game and returns the new texts, or why it
//! refuses (a locale with errors, a version that does not go forwards, a
//! draft the check finds an error in); [`write()`] puts every text through the
//! one atomic write. Nothing is written when anything is refused.

use std::path::Path;

use indexmap::IndexMap;

use crate::diagnostics::Diagnostic;
use crate::i18n::{self, Msg, msg};
use crate::model::{ActivityDocument, Time};
use crate::source::Overlay;
use crate::validate;

/// What the next version is.
#[derive(Debug, Clone, Default)]
pub struct NextVersion {
    pub game: String,
    pub version: String,
    /// The version's name: one for every locale under `""`, or per locale.
    pub names: IndexMap<String, String>,
    pub start: String,
    pub end: String,
    /// The cover of the new version: `None` keeps each locale's current
    /// cover, `Some("")` removes it, any other value replaces it.
    pub cover: Option<String>,
}

/// One locale's new document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Planned {
    pub locale: String,
    /// Relative to the root (`data/sr/zh-CN.json`).
    pub path: String,
    /// The canonical text to write.
    pub text: String,
    /// The names of the activities carried from the current version.
    pub carried: Vec<String>,
    /// The names of the activities left behind (ended by the new start).
    pub dropped: Vec<String>,
    /// What became of the version's cover.
    pub cover: CoverChange,
}

/// What `version new` did with a locale's cover, as its output says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CoverChange {
    /// The current version had none and none was given.
    None,
    /// The current cover, kept (no `--cover`).
    Kept,
    /// A new cover given.
    Set,
    /// `--cover ''` removed the current one.
    Removed,
}

impl CoverChange {
    pub const fn as_str(self) -> &'static str {
        match self {
            CoverChange::None => "none",
            CoverChange::Kept => "kept",
            CoverChange::Set => "set",
            CoverChange::Removed => "removed",
        }
    }
}

/// The new version's cover (`given`: `None` keeps `current`, empty removes
/// it) and what that did.
fn next_cover(current: Option<&str>, given: Option<&str>) -> (Option<String>, CoverChange) {
    let current = current.filter(|c| !c.is_empty());
    match given {
        None => (
            current.map(str::to_owned),
            if current.is_some() {
                CoverChange::Kept
            } else {
                CoverChange::None
            },
        ),
        Some("") if current.is_some() => (None, CoverChange::Removed),
        Some("") => (None, CoverChange::None),
        Some(cover) => (Some(cover.to_owned()), CoverChange::Set),
    }
}

/// Why nothing was written.
#[derive(Debug, Clone)]
pub enum Refusal {
    /// A mistake in the request itself (unknown game, bad time, version not forwards).
    Request(Msg),
    /// Errors in the game's files now, or in the drafts.
    Errors {
        message: Msg,
        diagnostics: Vec<Diagnostic>,
    },
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Request(message) | Refusal::Errors { message, .. } => message.fmt(f),
        }
    }
}

/// The new document of every locale of the game, checked; `Err` for the
/// tool's own failures (an unreadable root).
pub fn plan(
    root: &Path,
    next: &NextVersion,
    options: &validate::Options,
) -> anyhow::Result<Result<Vec<Planned>, Refusal>> {
    let refuse = |m: Msg| Ok(Err(Refusal::Request(m)));
    let (Some(start), Some(end)) = (Time::parse(&next.start), Time::parse(&next.end)) else {
        return refuse(msg!(
            "version-bad-times",
            start = next.start.as_str(),
            end = next.end.as_str()
        ));
    };
    if end <= start {
        return refuse(msg!(
            "version-ends-before",
            start = next.start.as_str(),
            end = next.end.as_str()
        ));
    }
    let checked = super::check::check_documents(root, options)?;
    let Some(game) = checked.games.iter().find(|g| g.game.id == next.game) else {
        return refuse(msg!("version-no-game", game = next.game.as_str()));
    };
    for locale in next.names.keys().filter(|l| !l.is_empty()) {
        if !game.game.locales.contains(locale) {
            return refuse(msg!(
                "version-no-locale",
                game = next.game.as_str(),
                locale = locale.as_str(),
                locales = i18n::list(&game.game.locales)
            ));
        }
    }
    let paths: Vec<String> = game
        .game
        .locales
        .iter()
        .map(|l| crate::tree::data_path(&game.game.id, l))
        .collect();
    let errors: Vec<Diagnostic> = checked
        .diagnostics
        .iter()
        .filter(|d| d.is_error() && paths.contains(&d.file))
        .cloned()
        .collect();
    if !errors.is_empty() {
        let mut files: Vec<&str> = errors.iter().map(|d| d.file.as_str()).collect();
        files.dedup();
        return Ok(Err(Refusal::Errors {
            message: msg!(
                "version-files-have-errors",
                count = files.len(),
                files = i18n::list(&files)
            ),
            diagnostics: errors,
        }));
    }
    let mut planned = Vec::new();
    for (locale, doc) in &game.documents {
        let Some(current) = doc.as_ref().and_then(validate::Kept::checked) else {
            return refuse(msg!(
                "version-missing",
                path = crate::tree::data_path(&game.game.id, locale)
            ));
        };
        if let Some(std::cmp::Ordering::Greater | std::cmp::Ordering::Equal) =
            super::diff::version_order(&current.version, &next.version)
        {
            return refuse(msg!(
                "version-not-forwards",
                new = next.version.as_str(),
                old = current.version.as_str(),
                path = crate::tree::data_path(&game.game.id, locale)
            ));
        }
        let name = next
            .names
            .get(locale)
            .or_else(|| next.names.get(""))
            .cloned()
            .unwrap_or_default();
        if name.trim().is_empty() {
            return refuse(msg!("version-no-name", locale = locale.as_str()));
        }
        let (carried, dropped): (Vec<_>, Vec<_>) = current
            .activities
            .iter()
            .cloned()
            .partition(|a| a.end_time > start);
        let (cover, cover_change) = next_cover(current.cover.as_deref(), next.cover.as_deref());
        let document = ActivityDocument {
            schema: current.schema.clone(),
            version: next.version.clone(),
            version_name: name,
            start_time: start,
            end_time: end,
            cover,
            activities: carried.clone(),
        };
        planned.push(Planned {
            locale: locale.clone(),
            path: crate::tree::data_path(&game.game.id, locale),
            text: document.to_canonical(true),
            carried: carried.into_iter().map(|a| a.name).collect(),
            dropped: dropped.into_iter().map(|a| a.name).collect(),
            cover: cover_change,
        });
    }
    // The drafts go through the same check as the files they replace.
    let mut overlay = Overlay::new();
    for p in &planned {
        overlay.insert(p.path.clone(), p.text.clone());
    }
    let drafts = super::check::check_with(root, &overlay, options)?;
    let errors: Vec<Diagnostic> = drafts
        .diagnostics
        .into_iter()
        .filter(|d| d.is_error() && paths.contains(&d.file))
        .collect();
    if !errors.is_empty() {
        return Ok(Err(Refusal::Errors {
            message: msg!("version-drafts-errors"),
            diagnostics: errors,
        }));
    }
    Ok(Ok(planned))
}

/// Writes every planned document through the one atomic write.
pub fn write(root: &Path, planned: &[Planned]) -> std::io::Result<()> {
    for p in planned {
        crate::atomic::write(&root.join(&p.path), p.text.as_bytes())?;
    }
    Ok(())
}
