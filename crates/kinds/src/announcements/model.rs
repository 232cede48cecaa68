//! The announcements document (`data/_announcements/<locale>.json`,
//! published as `api/v1/anno.json` and `api/v1/anno-<locale>.json`): the
//! board the control service's clients show again only when its `id`
//! changes. Field order is the published key order. No I/O.

use serde::{Deserialize, Serialize};

use activity_site_check::model::to_pretty;

/// One locale's announcement board.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Announcements {
    /// Editor hint; kept by `fmt`, dropped from published output.
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    /// Raised whenever the content changes: clients show the board again
    /// only when it differs from the last one they showed.
    pub id: u64,
    /// When the board last changed (RFC 3339 with an offset, such as
    /// `2026-11-20T10:00:00+08:00`): its Atom feed's `updated`. Optional; a
    /// board without it gives its feed the Unix epoch, so the feed changes
    /// with the board only, never with the games' data or the clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated: Option<String>,
    /// Newest first, in the author's order (never sorted).
    pub announcements: Vec<Announcement>,
}

/// One announcement.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Announcement {
    pub title: String,
    /// Markdown (CommonMark).
    pub content: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_type: Option<ContentType>,
}

/// How `content` is written: only Markdown, which an absent field means too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ContentType {
    Markdown,
}

impl Announcements {
    /// The canonical text: 2-space indentation, trailing newline, the
    /// announcements in the author's order, `$schema` when the board has
    /// one (published output has dropped it).
    pub fn to_canonical(&self) -> String {
        to_pretty(self)
    }
}
