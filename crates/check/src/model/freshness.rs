//! When a game's data stops being current, by the registry's `updateMode`:
//! the one rule behind `status`, the `stale` rule, the pages' out-of-date
//! notice and the ending-soon workflow. No I/O, no clock: callers compare
//! [`Freshness::due`] with their own "now".

use chrono::NaiveDateTime;

use super::{ActivityDocument, DataTime, Game, Time, UpdateMode};

impl UpdateMode {
    /// The mode of a game whose registry entry names none, read from the
    /// form of its version as the public registry describes: a dotted
    /// number (`4.6`, `1.10.2`) is a version cycle; anything else (`2026-10`,
    /// an event's name) means the data follows single activities.
    pub fn infer(version: &str) -> UpdateMode {
        let dotted = version.split('.').count() >= 2
            && version
                .split('.')
                .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()));
        if dotted {
            UpdateMode::Version
        } else {
            UpdateMode::Activity
        }
    }

    /// The registry's spelling (`version`, `activity`).
    pub fn as_str(self) -> &'static str {
        match self {
            UpdateMode::Version => "version",
            UpdateMode::Activity => "activity",
        }
    }
}

/// How long one document of a game stays current: `Due` is a [`Time`]
/// for a checked document ([`of`]), an `Option<Time>` for a reader of
/// what may not be checked ([`from_parts`], [`of_draft`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Freshness<Due = Time> {
    pub mode: UpdateMode,
    /// The registry names no mode; it was inferred from the version's form.
    pub inferred: bool,
    /// The moment the data needs its next update, in the game's local time:
    /// the version's end for a `version` game, the end of its last activity
    /// for an `activity` game (the version's end when it lists none).
    pub due: Due,
}

impl<Due: Copy + Into<NaiveDateTime>> Freshness<Option<Due>> {
    /// Whether the data is out of date at `now` (the game's local time);
    /// never when the due time is not a time (the validator reports it).
    pub fn is_due(&self, now: NaiveDateTime) -> bool {
        self.due.is_some_and(|due| due.into() <= now)
    }
}

/// The freshness of the checked `document` of `game`.
pub fn of(game: &Game, document: &ActivityDocument) -> Freshness {
    from_parts(
        game,
        &document.version,
        document.end_time,
        document.activities.iter().map(|a| a.end_time),
    )
}

/// The freshness of a document that may not be checked: times that are
/// not times count as absent, and the due time is `None` when the one it
/// falls on is not a time.
pub fn of_draft<T: DataTime>(
    game: &Game,
    document: &ActivityDocument<T>,
) -> Freshness<Option<Time>> {
    from_parts(
        game,
        &document.version,
        document.end_time.time(),
        document
            .activities
            .iter()
            .filter_map(|a| a.end_time.time())
            .map(Some),
    )
}

/// The rule itself, on a document's parts (the `stale` rule, which reads
/// the parsed tree, gives them as `Option`s): its `version`, the version's
/// end and the ends of its activities.
pub fn from_parts<Due: Ord>(
    game: &Game,
    version: &str,
    version_end: Due,
    activity_ends: impl IntoIterator<Item = Due>,
) -> Freshness<Due> {
    let (mode, inferred) = match game.update_mode {
        Some(mode) => (mode, false),
        None => (UpdateMode::infer(version), true),
    };
    let due = match mode {
        UpdateMode::Version => version_end,
        UpdateMode::Activity => activity_ends.into_iter().max().unwrap_or(version_end),
    };
    Freshness {
        mode,
        inferred,
        due,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dotted_number_is_a_version_cycle_and_anything_else_follows_activities() {
        assert_eq!(UpdateMode::infer("4.6"), UpdateMode::Version);
        assert_eq!(UpdateMode::infer("1.10.2"), UpdateMode::Version);
        assert_eq!(UpdateMode::infer("2026-10"), UpdateMode::Activity);
        assert_eq!(UpdateMode::infer("4"), UpdateMode::Activity);
        assert_eq!(UpdateMode::infer("4."), UpdateMode::Activity);
        assert_eq!(UpdateMode::infer("SideStory"), UpdateMode::Activity);
    }
}
