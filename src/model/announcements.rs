//! The announcements document (`data/_announcements/<locale>.json`,
//! published as `api/v1/anno.json` and `api/v1/anno-<locale>.json`): the
//! board the control service's clients show again only when its `id`
//! changes. Field order is the published key order. No I/O.

use serde::{Deserialize, Serialize};

use super::{Game, to_pretty};

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
    /// announcements in the author's order. `keep_schema` keeps `$schema`
    /// (for `fmt`); published output drops it.
    pub fn to_canonical(&self, keep_schema: bool) -> String {
        if keep_schema || self.schema.is_none() {
            return to_pretty(self);
        }
        to_pretty(&Announcements {
            schema: None,
            ..self.clone()
        })
    }
}

/// The site's default locale, which publishes `api/v1/anno.json`: the
/// `defaultLocale` most games share, the first game's on a tie; `None`
/// without games.
// TODO(issue 31): `Registry::site_locale` is the one owner; call it once it lands.
pub fn site_locale(games: &[Game]) -> Option<&str> {
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for game in games {
        let locale = game.default_locale.as_str();
        match counts.iter_mut().find(|(l, _)| *l == locale) {
            Some((_, n)) => *n += 1,
            None => counts.push((locale, 1)),
        }
    }
    // The first with the highest count: `max_by_key` keeps the last of equals.
    let best = counts.iter().map(|(_, n)| *n).max()?;
    counts.iter().find(|(_, n)| *n == best).map(|(l, _)| *l)
}
