//! Announcements boards: the notices the desktop client and the web UI
//! show, one board per locale, shown again when its `id` changes.
//!
//! Its typed form is [`crate::model::announcements::Announcements`], its rules
//! [`crate::validate::announcements::RULES`] (and the Markdown of
//! [`crate::markdown`]), its document, feed, page, index entries, home
//! links and `status` table `crate::site::announcements::PUBLISH`, and
//! what a review says of it `crate::review::announcements::COMPARE`
//! (announcements added, changed, removed, and an
//! `id` that did not go up).

use serde_json::{Map, Value};

use super::{Agents, Finding, Kind, Pages, PublishedAs, Review, Schema, Sources};
use crate::diagnostics::Code;
use crate::layout;
use crate::tree;

/// The announcements schema shipped with the binary, used when the root has none.
pub const BUILTIN_SCHEMA: &str = include_str!("../../../../schema/announcements.schema.json");

pub static KIND: Kind = Kind {
    name: "announcements",
    sources: Sources::PerLocale {
        dir: tree::ANNOUNCEMENTS_DIR,
        counted: "import-summary-announcements",
    },
    schema: Some(Schema {
        source: tree::ANNOUNCEMENTS_SCHEMA_PATH,
        builtin: BUILTIN_SCHEMA,
        published: layout::ANNOUNCEMENTS_SCHEMA_PATH,
        component: "AnnouncementsBoard",
        resource: "activity-site://schema/announcements.schema.json",
        describes: "JSON Schema of an announcements board (data/_announcements/<locale>.json)",
    }),
    rules: &[
        Code::DuplicateKey,
        Code::Schema,
        Code::MarkdownLink,
        Code::MarkdownHtml,
        Code::Whitespace,
    ],
    review: Review {
        breaking: &[&ID_NOT_UP],
        warnings: &[],
    },
    status: Some("status-board"),
    editor: true,
    shape: Some(is_board),
    published: PublishedAs::PerLocale {
        path: layout::announcements_path,
        locale_of: layout::announcements_locale_of,
        beside: &["atom"],
        index_field: "announcements",
        pages: Some(Pages {
            dir: layout::ANNOUNCEMENTS_PAGE_DIR,
            template: (
                "announcements.html",
                include_str!("../../../site/src/templates/announcements.html"),
            ),
            words: &[
                ("announcements", "page-announcements"),
                ("no_announcements", "page-no-announcements"),
            ],
        }),
    },
    agents: Some(Agents {
        instructions: "The announcements boards (data/_announcements/<locale>.json) \
have their own tools: read_announcements, check_announcements, write_announcements; raise \
their `id` whenever their content changes.",
        read: "The text of the announcements board of a locale, data/_announcements/<locale>.json, as it is on disk, with `locale` and `path` (the arguments of check_announcements and write_announcements, so the answer can be passed back with `text` edited; `build` publishes it as the API's anno-<locale>.json, and as anno.json for the site's default locale).",
        check: "The diagnostics the draft `text` would get as data/_announcements/<locale>.json (the same as `check`: schema, Markdown links and raw HTML, invisible characters), each with its code, severity, line, column, message and help, and `fix` when the repair is exact. With `fix: true`, every exact fix is applied first (the answer's `text`, `fixes` and `changes`). Writes nothing.",
        write: "Writes the draft `text` as data/_announcements/<locale>.json. With `fix: true`, every exact fix is applied first. Refuses a draft with errors (and returns its diagnostics); otherwise writes its canonical form (2-space indentation, announcements in the draft's order, newest first) atomically. Raise `id` whenever the content changes: clients show the board again only when `id` changes; the answer says when it did not.",
    }),
};

/// An object with `id` and an `announcements` array.
fn is_board(object: &Map<String, Value>) -> bool {
    object.contains_key("id") && object.get("announcements").is_some_and(Value::is_array)
}

/// Breaking: a board changed without its `id` going up, so clients that
/// keep the last `id` they showed never see the change.
pub static ID_NOT_UP: Finding = Finding {
    code: "announcements-id",
    message: "breaking-announcements-id",
    help: "breaking-announcements-id-help",
};
