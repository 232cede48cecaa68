//! Activity documents: each game's activities of its current version, one
//! file per game and locale that `games.json` lists.
//!
//! Its typed form is [`crate::model::ActivityDocument`], its rules are
//! [`crate::validate::rules`], its pages `crate::site::pages`, its
//! calendars `crate::site::ics`, and what a review says of it
//! `crate::review::activities` (versions, removals placed against now, carried,
//! renamed, moved and changed activities).

use serde_json::{Map, Value};

use super::{Finding, Kind, PublishedAs, Review, Schema, Sources};
use crate::diagnostics::Code;
use crate::layout;
use crate::tree;

/// The activity schema shipped with the binary, used when the root has none.
pub const BUILTIN_SCHEMA: &str = include_str!("../../../../schema/activity.schema.json");

pub static KIND: Kind = Kind {
    name: "activities",
    sources: Sources::PerGame,
    schema: Some(Schema {
        source: tree::ACTIVITY_SCHEMA_PATH,
        builtin: BUILTIN_SCHEMA,
        published: layout::SCHEMA_PATH,
        component: "ActivityDocument",
        resource: "activity-site://schema/activity.schema.json",
        describes: "JSON Schema of an activity document (data/<game>/<locale>.json)",
    }),
    rules: &RULES,
    review: Review {
        breaking: &[
            &ONGOING_REMOVED,
            &ONGOING_ID_CHANGED,
            &UPCOMING_VERSION,
            &VERSION_BACKWARDS,
        ],
        warnings: &[&UPCOMING_REMOVED, &COVER_REMOVED],
    },
    status: Some("status-game"),
    editor: true,
    shape: Some(is_document),
    published: PublishedAs::PerGame {
        is: layout::is_activity_document,
    },
    // Its tools are the documents' own (`read_document`, ...), per game.
    agents: None,
    parts: &[],
};

/// The rules of an activity document: those of its own, then every
/// warning a game may turn off ([`Code::IGNORABLE`], their owner).
static RULES: [Code; 15] = Code::concat(
    &[
        Code::DuplicateKey,
        Code::Schema,
        Code::Datetime,
        Code::TimeOrder,
        Code::CoverUrl,
        Code::DuplicateActivity,
        Code::DuplicateId,
    ],
    Code::IGNORABLE,
);

/// An object with `version` and an `activities` array.
fn is_document(object: &Map<String, Value>) -> bool {
    object.contains_key("version") && object.get("activities").is_some_and(Value::is_array)
}

/// Breaking: an activity that is running at the moment of the review is
/// gone from the new document.
pub static ONGOING_REMOVED: Finding = Finding {
    code: "ongoing-activity-removed",
    message: "breaking-ongoing-removed",
    help: "breaking-ongoing-removed-help",
    docs: None,
};

/// Breaking: an activity that is running at the moment of the review lost
/// its `id`, or has another: clients that keep activities by id lose it.
pub static ONGOING_ID_CHANGED: Finding = Finding {
    code: "ongoing-activity-id-changed",
    message: "breaking-ongoing-id-changed",
    help: "breaking-ongoing-id-changed-help",
    docs: None,
};

/// Breaking: the new document's version has not started yet, so clients
/// lose the version that runs now.
pub static UPCOMING_VERSION: Finding = Finding {
    code: "upcoming-version",
    message: "breaking-upcoming",
    help: "breaking-upcoming-help",
    docs: None,
};

/// Breaking: the version goes backwards.
pub static VERSION_BACKWARDS: Finding = Finding {
    code: "version-backwards",
    message: "breaking-version-backwards",
    help: "breaking-version-backwards-help",
    docs: None,
};

/// Warning: an activity that has not started yet is gone.
pub static UPCOMING_REMOVED: Finding = Finding {
    code: "upcoming-activity-removed",
    message: "warning-upcoming-removed",
    help: "warning-upcoming-removed-help",
    docs: None,
};

/// Warning: the version's cover is gone.
pub static COVER_REMOVED: Finding = Finding {
    code: "cover-removed",
    message: "warning-cover-removed",
    help: "warning-cover-removed-help",
    docs: None,
};
