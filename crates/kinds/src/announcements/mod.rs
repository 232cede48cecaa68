//! Announcements boards: the notices the desktop client and the web UI
//! show, one board per locale, shown again when its `id` changes.
//!
//! Everything that makes the board a board is in this folder: its
//! declaration ([`KIND`], registered here once), its typed form
//! ([`model::Announcements`]), its rules ([`rules::RULES`], with the
//! Markdown of `markdown`), its document, feed, page ([`page.html`]),
//! index entries, home links and `status` table ([`site::PUBLISH`]), what
//! a review says of it ([`review::COMPARE`]: announcements added, changed,
//! removed, and an `id` that did not go up), what the agents' tools say
//! of a write ([`agents`]) and its messages (`en-US.ftl`, `zh-CN.ftl`).
//!
//! [`page.html`]: PAGE

pub mod agents;
pub mod model;
pub mod review;
pub mod rules;
pub mod site;

use activity_site_check::diagnostics::Code;
use activity_site_check::i18n::{RESOURCES, Resources};
use activity_site_check::kind::{
    Agents, Finding, Kind, Pages, PublishedAs, REGISTERED, Review, Schema, Sources,
};
use activity_site_check::validate::FileRules;
use activity_site_check::{locale_files_dir, published_schema, schema_source};
use activity_site_review::report::Compare;
use activity_site_site::types::Publish;
use linkme::distributed_slice;
use serde_json::{Map, Value};

/// The announcements schema shipped with the binary, used when the root has none.
pub const BUILTIN_SCHEMA: &str = include_str!("../../../../schema/announcements.schema.json");

/// The template of the announcements page.
pub const PAGE: &str = include_str!("page.html");

/// The folder of the announcements pages (a game id it would shadow is
/// refused by the registry rules).
pub const PAGE_DIR: &str = "announcements";

/// The name the site publishes the boards under (`anno.json`,
/// `anno-<locale>.json`, their feeds beside them).
pub const STEM: &str = "anno";

/// The board's one registration: the registry every layer walks.
#[distributed_slice(REGISTERED)]
static REGISTERED_KIND: &Kind = &KIND;

/// The board's messages, in both languages, beside its code.
#[distributed_slice(RESOURCES)]
static MESSAGES: Resources = Resources {
    owner: "announcements",
    en_us: include_str!("en-US.ftl"),
    zh_cn: include_str!("zh-CN.ftl"),
};

const RULES: &dyn FileRules = &rules::RULES;
const PUBLISH: &dyn Publish = &site::PUBLISH;
const COMPARE: &dyn Compare = &review::COMPARE;

pub static KIND: Kind = Kind {
    name: "announcements",
    sources: Sources::PerLocale {
        dir: locale_files_dir!("announcements"),
        counted: "import-summary-announcements",
    },
    schema: Some(Schema {
        source: schema_source!("announcements"),
        builtin: BUILTIN_SCHEMA,
        published: published_schema!("announcements"),
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
        stem: STEM,
        beside: &["atom"],
        index_field: "announcements",
        pages: Some(Pages {
            dir: PAGE_DIR,
            template: ("announcements.html", PAGE),
            words: &[
                ("announcements", "page-announcements"),
                ("no_announcements", "page-no-announcements"),
            ],
        }),
    },
    agents: Some(Agents {
        instructions: "agent-announcements-instructions",
        read: "agent-announcements-read",
        check: "agent-announcements-check",
        write: "agent-announcements-write",
        written: Some(agents::written),
    }),
    parts: &[&RULES, &PUBLISH, &COMPARE],
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
    docs: Some(("code-means-announcements-id", "code-todo-announcements-id")),
};

#[cfg(test)]
mod tests;
