//! The next version of a game, in every locale at once (`activity-site
//! version new`, and the agents' `new_version` tool): each locale's new
//! document carries every activity of the current one that is still to
//! end at "now" or ends after the new start (the community's carry-over
//! rule: what runs after the new start, or runs now; an activity still to
//! come counts as running, or it would vanish before it ran), so nothing
//! ongoing vanishes when the file is published early. Only an activity
//! named in [`NextVersion::drop`] that has not ended is left behind, and
//! each one left behind is said with its [`LeftState`].
//!
//! [`plan`] reads and checks the game and returns the new texts, or why it
//! refuses (a locale with errors, a version that does not go forwards, a
//! draft the check finds an error in); [`write()`] puts every text through the
//! one atomic write. Nothing is written when anything is refused.

use std::path::Path;

use indexmap::IndexMap;

use crate::diagnostics::Diagnostic;
use crate::i18n::{self, Msg, msg};
use crate::model::{ActivityDocument, Game, Time};
use crate::source::Overlay;
use crate::validate::{self, CheckedGame};

use crate::site::types::Checked;

mod to_drop;

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
    /// Activities to leave behind although they have not ended, each by
    /// its id (in every locale that holds it) or by its name in any locale
    /// (its counterpart in the other locales, the activity at the same
    /// place with the same times, goes with it); `to_drop` says how a value
    /// that is both is refused.
    pub drop: Vec<String>,
}

/// Why an activity of the current version is not in the new one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeftState {
    /// It ended at "now" (or before).
    Ended,
    /// It runs now and ends before the new version starts; `--drop` named it.
    RunsNowEndsBefore,
    /// It runs now and into the new version; `--drop` named it.
    RunsIntoNew,
    /// It starts after now; `--drop` named it.
    Upcoming,
}

impl LeftState {
    pub const fn as_str(self) -> &'static str {
        match self {
            LeftState::Ended => "ended",
            LeftState::RunsNowEndsBefore => "runs-now-ends-before",
            LeftState::RunsIntoNew => "runs-into-new",
            LeftState::Upcoming => "upcoming",
        }
    }
}

/// An activity left behind, its state and its times.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeftBehind {
    /// Its id, when it has one.
    pub id: Option<String>,
    pub name: String,
    pub state: LeftState,
    pub start: Time,
    pub end: Time,
}

impl LeftBehind {
    /// The line that names it (`version new`'s output).
    pub fn describe(&self) -> Msg {
        msg!(
            "version-left",
            name = self.name.as_str(),
            state = self.state.as_str(),
            start = self.start.to_string(),
            end = self.end.to_string()
        )
    }
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
    /// Their ids, in the same order (`None` for one without).
    pub carried_ids: Vec<Option<String>>,
    /// The activities left behind, each with why.
    pub dropped: Vec<LeftBehind>,
    /// Whether the version's name is the one given for every locale
    /// (`--name NAME`, not `--name LOCALE=NAME`).
    pub shared_name: bool,
    /// What became of the version's cover.
    pub cover: CoverChange,
    /// The version this locale's document stood at (each locale is carried
    /// from where it stands).
    pub from: String,
    /// The document's fields (besides `activities`) the new version keeps
    /// exactly as they were, in the file's order (`$schema`, `cover`).
    pub kept: Vec<String>,
    /// The fields it gives a new value, adds or leaves out.
    pub changed: Vec<String>,
    /// Whether the locale is pending (the registry lists it, no document
    /// exists yet): it is passed over, nothing is written for it.
    pub pending: bool,
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

/// The new version's cover (`given`: `None` keeps `current` exactly as it
/// is, an empty `""` included; empty removes a cover) and what that did.
fn next_cover(current: Option<&str>, given: Option<&str>) -> (Option<String>, CoverChange) {
    match (given, current) {
        (None, Some(current)) => (Some(current.to_owned()), CoverChange::Kept),
        (None, None) => (None, CoverChange::None),
        // `--cover ''` on a version whose cover is already empty keeps it.
        (Some(""), Some("")) => (Some(String::new()), CoverChange::Kept),
        (Some(""), Some(_)) => (None, CoverChange::Removed),
        (Some(""), None) => (None, CoverChange::None),
        (Some(cover), _) => (Some(cover.to_owned()), CoverChange::Set),
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
    let (start, end) = match new_window(next) {
        Ok(window) => window,
        Err(refusal) => return Ok(Err(refusal)),
    };
    let checked = crate::site::check_documents(root, options)?;
    let game = match game_to_version(&checked, next) {
        Ok(game) => game,
        Err(refusal) => return Ok(Err(refusal)),
    };
    let version = NewVersion {
        root,
        game: &game.game,
        next,
        start,
        end,
        now: options.now_for(&game.game),
    };
    let planned = match version.documents(game) {
        Ok(planned) => planned,
        Err(refusal) => return Ok(Err(refusal)),
    };
    // The drafts go through the same check as the files they replace.
    let mut overlay = Overlay::new();
    for p in planned.iter().filter(|p| !p.pending) {
        overlay.insert(p.path.clone(), p.text.clone());
    }
    let drafts = crate::site::check_with(root, &overlay, options)?;
    let errors = errors_in(&drafts.diagnostics, &data_paths(&game.game));
    if !errors.is_empty() {
        return Ok(Err(Refusal::Errors {
            message: msg!("version-drafts-errors"),
            diagnostics: errors,
        }));
    }
    Ok(Ok(planned))
}

/// The new version's window, when its times are times and it ends after
/// it starts.
fn new_window(next: &NextVersion) -> Result<(Time, Time), Refusal> {
    let refuse = |m: Msg| Err(Refusal::Request(m));
    // Each flag read as a file's time is, each taking a missing year from
    // the other when that one is a time.
    let end = Time::parse(&next.end);
    let start = validate::flags::flag_time(
        "--start",
        &next.start,
        end.map(|end| ("endTime", end.naive())),
    );
    let end = validate::flags::flag_time(
        "--end",
        &next.end,
        start
            .as_ref()
            .ok()
            .map(|start| ("startTime", start.naive())),
    );
    let (start, end) = match (start, end) {
        (Ok(start), Ok(end)) => (start, end),
        (Err(problem), _) | (_, Err(problem)) => {
            return refuse(msg!("version-bad-time", problem = problem));
        }
    };
    if end <= start {
        return refuse(msg!(
            "version-ends-before",
            start = next.start.as_str(),
            end = next.end.as_str()
        ));
    }
    Ok((start, end))
}

/// The game to give a new version, when the check has it, it has every
/// locale a name is given for, and its files have no errors.
fn game_to_version<'c>(
    checked: &'c Checked,
    next: &NextVersion,
) -> Result<&'c CheckedGame, Refusal> {
    let Some(game) = checked.games.iter().find(|g| g.game.id == next.game) else {
        return Err(Refusal::Request(msg!(
            "version-no-game",
            game = next.game.as_str()
        )));
    };
    for locale in next.names.keys().filter(|l| !l.is_empty()) {
        if !game.game.locales.contains(locale) {
            return Err(Refusal::Request(msg!(
                "version-no-locale",
                game = next.game.as_str(),
                locale = locale.as_str(),
                locales = i18n::list(&game.game.locales)
            )));
        }
    }
    let errors = errors_in(&checked.diagnostics, &data_paths(&game.game));
    if !errors.is_empty() {
        let mut files: Vec<&str> = errors.iter().map(|d| d.file.as_str()).collect();
        files.dedup();
        return Err(Refusal::Errors {
            message: msg!(
                "version-files-have-errors",
                count = files.len(),
                files = i18n::list(&files)
            ),
            diagnostics: errors,
        });
    }
    Ok(game)
}

/// The data files of every locale of `game`.
fn data_paths(game: &Game) -> Vec<String> {
    game.locales
        .iter()
        .map(|l| crate::tree::data_path(&game.id, l))
        .collect()
}

/// The errors among `diagnostics` in the files at `paths`.
fn errors_in(diagnostics: &[Diagnostic], paths: &[String]) -> Vec<Diagnostic> {
    diagnostics
        .iter()
        .filter(|d| d.is_error() && paths.contains(&d.file))
        .cloned()
        .collect()
}

/// A locale's current document, by its locale.
type Current<'d> = (&'d String, &'d ActivityDocument);

/// The next version of one game, as asked, at "now" in the game's zone.
struct NewVersion<'a> {
    root: &'a Path,
    game: &'a Game,
    next: &'a NextVersion,
    start: Time,
    end: Time,
    now: chrono::NaiveDateTime,
}

impl NewVersion<'_> {
    /// Every locale's new document, from its current one (the check's, in
    /// the registry's order).
    fn documents(&self, checked: &CheckedGame) -> Result<Vec<Planned>, Refusal> {
        let (currents, pending) = self.currents(checked)?;
        let named = self.to_drop(&currents)?;
        let mut planned = currents
            .iter()
            .zip(named)
            .map(|((locale, current), named)| self.document(locale, current, &named))
            .collect::<Result<Vec<_>, _>>()?;
        planned.extend(pending.into_iter().map(|locale| self.pending(locale)));
        Ok(planned)
    }

    /// The current document of every locale that has one, each one of a
    /// version before the new one (each locale at its own version), and
    /// the pending locales (listed, no file yet: the `pending-locale`
    /// warning), which are passed over.
    fn currents<'d>(
        &self,
        checked: &'d CheckedGame,
    ) -> Result<(Vec<Current<'d>>, Vec<&'d str>), Refusal> {
        let mut currents = Vec::new();
        let mut pending = Vec::new();
        for (locale, doc) in &checked.documents {
            let path = crate::tree::data_path(&self.game.id, locale);
            let Some(current) = doc.as_ref().and_then(validate::TypedDocument::checked) else {
                if doc.is_none()
                    && *locale != self.game.default_locale
                    && !self.root.join(&path).exists()
                {
                    pending.push(locale.as_str());
                    continue;
                }
                return Err(Refusal::Request(msg!("version-missing", path = path)));
            };
            if let Some(std::cmp::Ordering::Greater | std::cmp::Ordering::Equal) =
                crate::model::version_order(&current.version, &self.next.version)
            {
                return Err(Refusal::Request(msg!(
                    "version-not-forwards",
                    new = self.next.version.as_str(),
                    old = current.version.as_str(),
                    path = path
                )));
            }
            currents.push((locale, current));
        }
        Ok((currents, pending))
    }

    /// What `version new` says of a pending `locale`: nothing is written.
    fn pending(&self, locale: &str) -> Planned {
        Planned {
            locale: locale.to_owned(),
            path: crate::tree::data_path(&self.game.id, locale),
            text: String::new(),
            carried: Vec::new(),
            carried_ids: Vec::new(),
            dropped: Vec::new(),
            shared_name: false,
            cover: CoverChange::None,
            from: String::new(),
            kept: Vec::new(),
            changed: Vec::new(),
            pending: true,
        }
    }

    /// One locale's new document, from its `current` one, leaving the
    /// activities at the places `named` behind.
    fn document(
        &self,
        locale: &str,
        current: &ActivityDocument,
        named: &std::collections::BTreeSet<usize>,
    ) -> Result<Planned, Refusal> {
        let next = self.next;
        let shared_name = !next.names.contains_key(locale);
        let name = next
            .names
            .get(locale)
            .or_else(|| next.names.get(""))
            .cloned()
            .unwrap_or_default();
        if name.trim().is_empty() {
            return Err(Refusal::Request(msg!("version-no-name", locale = locale)));
        }
        let (carried, dropped) = carry(&current.activities, named, self.start, self.now);
        let (cover, cover_change) = next_cover(current.cover.as_deref(), next.cover.as_deref());
        let document = ActivityDocument {
            schema: current.schema.clone(),
            version: next.version.clone(),
            version_name: name,
            start_time: self.start,
            end_time: self.end,
            cover,
            activities: carried.clone(),
        };
        let (kept, changed) = fields_kept(current, &document);
        Ok(Planned {
            locale: locale.to_owned(),
            path: crate::tree::data_path(&self.game.id, locale),
            text: document.to_canonical(),
            carried_ids: carried.iter().map(|a| a.id.clone()).collect(),
            carried: carried.into_iter().map(|a| a.name).collect(),
            dropped,
            shared_name,
            cover: cover_change,
            from: current.version.clone(),
            kept,
            changed,
            pending: false,
        })
    }
}

/// The version-level fields of `new` (every field but `activities`) that
/// hold exactly the value they hold in `current`, and the others: given a
/// new value, added, or left out (in `current`'s order, then `new`'s).
fn fields_kept(current: &ActivityDocument, new: &ActivityDocument) -> (Vec<String>, Vec<String>) {
    let fields = |doc: &ActivityDocument| match serde_json::to_value(doc) {
        Ok(serde_json::Value::Object(map)) => map,
        _ => serde_json::Map::new(),
    };
    let (old, new) = (fields(current), fields(new));
    let (mut kept, mut changed) = (Vec::new(), Vec::new());
    let keys = old
        .keys()
        .chain(new.keys().filter(|k| !old.contains_key(*k)));
    for key in keys.filter(|k| *k != "activities") {
        if old.get(key) == new.get(key) {
            kept.push(key.clone());
        } else {
            changed.push(key.clone());
        }
    }
    (kept, changed)
}

/// The carry-over rule: the activities of `activities` still to end at
/// `now` (running or to come) or ending after the new `start` are carried,
/// unless `named` (their places) leaves them behind; every other one is
/// left behind with its state.
fn carry(
    activities: &[crate::model::Activity],
    named: &std::collections::BTreeSet<usize>,
    start: Time,
    now: chrono::NaiveDateTime,
) -> (Vec<crate::model::Activity>, Vec<LeftBehind>) {
    let mut carried = Vec::new();
    let mut dropped = Vec::new();
    for (i, a) in activities.iter().enumerate() {
        let runs_after_start = a.end_time > start;
        let to_end = *a.end_time > now;
        if (runs_after_start || to_end) && !named.contains(&i) {
            carried.push(a.clone());
            continue;
        }
        let state = if !to_end {
            LeftState::Ended
        } else if *a.start_time > now {
            LeftState::Upcoming
        } else if runs_after_start {
            LeftState::RunsIntoNew
        } else {
            LeftState::RunsNowEndsBefore
        };
        dropped.push(LeftBehind {
            id: a.id.clone(),
            name: a.name.clone(),
            state,
            start: a.start_time,
            end: a.end_time,
        });
    }
    (carried, dropped)
}

/// The line that says the one name given for every locale (`--name NAME`)
/// is used for each of them, when the game has several that take it.
pub fn name_shared(next: &NextVersion, planned: &[Planned]) -> Option<Msg> {
    let shared: Vec<&str> = planned
        .iter()
        .filter(|p| p.shared_name && !p.pending)
        .map(|p| p.locale.as_str())
        .collect();
    (shared.len() > 1).then(|| {
        msg!(
            "version-name-shared",
            name = next.names.get("").map_or("", String::as_str),
            locales = i18n::list(&shared)
        )
    })
}

/// Writes every planned document through the one atomic write.
pub fn write(root: &Path, planned: &[Planned]) -> std::io::Result<()> {
    for p in planned.iter().filter(|p| !p.pending) {
        crate::atomic::write(&root.join(&p.path), p.text.as_bytes())?;
    }
    Ok(())
}

/// Whether `version new` wrote its files or only showed them (`--dry-run`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    DryRun,
    Written,
}

/// What `version new` prints: the shared name's note, then per locale the
/// file written (or that would be) and what it carried and left behind,
/// or that the locale waits for its translation.
pub fn to_text(next: &NextVersion, planned: &[Planned], stage: Stage) -> String {
    let mut out = String::new();
    if let Some(line) = name_shared(next, planned) {
        out.push_str(&format!("{line}\n"));
    }
    let fields =
        |names: &[String]| -> Vec<String> { names.iter().map(|n| format!("`{n}`")).collect() };
    for p in planned {
        if p.pending {
            let line = msg!(
                "version-pending",
                path = p.path.as_str(),
                locale = p.locale.as_str()
            );
            out.push_str(&format!("{line}\n"));
            continue;
        }
        let line = msg!(
            "version-planned",
            dry = match stage {
                Stage::DryRun => "yes",
                Stage::Written => "no",
            },
            path = p.path.as_str(),
            from = p.from.as_str(),
            version = next.version.as_str(),
            kept_count = p.kept.len(),
            kept = i18n::list(&fields(&p.kept)),
            changed = i18n::list(&fields(&p.changed)),
            carried = p.carried.len(),
            names = i18n::list(&p.carried),
            dropped = p.dropped.len(),
            cover = p.cover.as_str()
        );
        out.push_str(&format!("{line}\n"));
        for left in &p.dropped {
            out.push_str(&format!("  {}\n", left.describe()));
        }
    }
    out
}
