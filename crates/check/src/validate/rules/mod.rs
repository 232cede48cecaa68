//! The rules beyond the schema: dates, order, URLs, duplicates, the registry,
//! locale parity, staleness, whitespace and invisible characters, and the
//! tree's mirror of the built-in activity schema ([`schema_valid`]). Document
//! rules read the parsed tree; registry rules read its `serde_json::Value`.
//!
//! One file per family: [`document`](mod@document) (times and the activity list),
//! [`text`] (`whitespace`), [`schema`] (the built-in schema's mirror),
//! [`registry`](mod@registry) (`games.json`), [`parity`] (`locale-parity`)
//! and [`ids`] (`missing-id`, across the locales of a game); [`base`]
//! is the pointer a document rule reports at, shared by the first two.

mod base;
mod dates;
mod document;
mod ids;
mod parity;
mod registry;
mod schema;
mod text;

pub use dates::{YearFrom, rewrite_time, rewrite_time_in};
pub use document::{document, explain_time};
pub use ids::missing_ids;
pub use parity::locale_parity;
pub use registry::{is_language_tag, registry};
pub use schema::{ACTIVITY_KEYS, DOCUMENT_KEYS, schema_valid};
pub use text::invisible;
