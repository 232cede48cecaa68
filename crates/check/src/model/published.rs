//! An activity document as the site publishes it: every field of the
//! checked document byte for byte, then what a client used to guess,
//! worked out from the data and the registry ([`PublishedDocument::of`]):
//!
//! - each activity gains `startsAt` and `endsAt` after its own fields,
//!   its naive `startTime` and `endTime` as RFC 3339 instants with the
//!   offset in force at that moment in the game's zone
//!   ([`Time::rfc3339_in`]: a DST zone gives two offsets in one version);
//! - the document gains, after its own fields, `timeZone` (the game's IANA
//!   zone), the version's `startsAt` and `endsAt`, and `updateMode` and
//!   `dueAt` from [`super::freshness`], the one rule of when a game's data
//!   is due.
//!
//! [`DERIVED_FIELDS`] names what is added, so that a reader of a published
//! document (`import`, which turns it back into data) can drop it. No I/O.

use serde::Serialize;

use super::freshness;
use super::{Activity, ActivityDocument, Game, Time, UpdateMode};

/// The fields a published document adds to the data's, at the document's
/// level and (the first two) at each activity's: generated, never written
/// by contributors.
pub const DERIVED_FIELDS: &[&str] = &["startsAt", "endsAt", "timeZone", "updateMode", "dueAt"];

/// A published activity document ([`PublishedDocument::of`]); serializing it is
/// the published JSON.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PublishedDocument<'a> {
    pub version: &'a str,
    pub version_name: &'a str,
    pub start_time: Time,
    pub end_time: Time,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cover: Option<&'a str>,
    pub activities: Vec<PublishedActivity<'a>>,
    /// The game's IANA zone, in which every naive time is read.
    pub time_zone: &'a str,
    pub starts_at: String,
    pub ends_at: String,
    pub update_mode: UpdateMode,
    /// When the document needs its next update ([`freshness::Freshness::due`]).
    pub due_at: String,
}

/// One activity as published: its fields as the data has them, then its
/// window as instants.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PublishedActivity<'a> {
    #[serde(flatten)]
    pub activity: &'a Activity,
    pub starts_at: String,
    pub ends_at: String,
}

/// What the index says of a published document: its update mode and when
/// it is due (RFC 3339 with the offset), from the same rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Due {
    pub update_mode: UpdateMode,
    pub due_at: String,
}

/// [`Due`] of `game`'s checked `document`.
pub fn due(game: &Game, document: &ActivityDocument) -> Due {
    let freshness = freshness::of(game, document);
    Due {
        update_mode: freshness.mode,
        due_at: freshness.due.rfc3339_in(game.tz()),
    }
}

impl<'a> PublishedDocument<'a> {
    /// The published form of `game`'s checked `document` (already sorted,
    /// `$schema` dropped by the caller or not: it is never published).
    pub fn of(game: &'a Game, document: &'a ActivityDocument) -> PublishedDocument<'a> {
        let zone = game.tz();
        let due = due(game, document);
        // Every field of the document, named, so that a field added to the
        // data cannot be left out of what is published.
        let ActivityDocument {
            schema: _,
            version,
            version_name,
            start_time,
            end_time,
            cover,
            activities,
        } = document;
        PublishedDocument {
            version,
            version_name,
            start_time: *start_time,
            end_time: *end_time,
            cover: cover.as_deref(),
            activities: activities
                .iter()
                .map(|activity| PublishedActivity {
                    activity,
                    starts_at: activity.start_time.rfc3339_in(zone),
                    ends_at: activity.end_time.rfc3339_in(zone),
                })
                .collect(),
            time_zone: game.time_zone_name(),
            starts_at: start_time.rfc3339_in(zone),
            ends_at: end_time.rfc3339_in(zone),
            update_mode: due.update_mode,
            due_at: due.due_at,
        }
    }
}

/// Drops the [`DERIVED_FIELDS`] from a published document's JSON (at its
/// level and each activity's), which turns it back into the data it was
/// published from; `true` when it dropped any.
pub fn strip_derived(document: &mut serde_json::Value) -> bool {
    let mut dropped = false;
    let Some(object) = document.as_object_mut() else {
        return false;
    };
    for field in DERIVED_FIELDS {
        dropped |= object.shift_remove(*field).is_some();
    }
    if let Some(serde_json::Value::Array(activities)) = object.get_mut("activities") {
        for activity in activities.iter_mut().filter_map(|a| a.as_object_mut()) {
            for field in DERIVED_FIELDS {
                dropped |= activity.shift_remove(*field).is_some();
            }
        }
    }
    dropped
}

/// Reads a published activity document (this tool's, an older build's or
/// another tool's) as a [`super::Draft`]: the [`DERIVED_FIELDS`] are
/// dropped, every other field is read as the data's.
pub fn read(bytes: &[u8]) -> serde_json::Result<super::Draft> {
    let mut value: serde_json::Value = serde_json::from_slice(bytes)?;
    strip_derived(&mut value);
    serde_json::from_value(value)
}
