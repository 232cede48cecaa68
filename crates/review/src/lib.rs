//! What a publish would do to clients: every file of this build compared
//! with the same path at a base (a deployed site, a folder, the build of a
//! git revision), and each document's changes in its clients' terms.
//!
//! Pure: the caller reads or fetches the bytes (see `crate::bases`) and
//! hands them in one file at a time ([`compare`]); this module finds the
//! kind each path is a document of ([`crate::kind::of_published`]) and
//! hands the two sides to that kind's comparison ([`Compare`], found by
//! [`kinds::of`]: [`activities`] here, a registered kind's in its folder
//! of `crates/kinds`),
//! which names its changes in its clients' terms and the **breaking**
//! ones (what a client cannot survive); [`report`] holds the shared
//! types and `render` the report as text, JSON, Markdown or GitHub
//! annotations.
//!
//! Every path gets one [`FileStatus`]: `new`, `removed` (at the base, not in
//! this build), `changed` (different content), `reformatted` (the same JSON
//! content in different bytes, the order of activities included: clients
//! revalidating with `If-None-Match` and the index's checksums still see a
//! change) or `unchanged` (the same bytes).
//!
//! A file that is no kind's document (the index, a schema, a page) is
//! compared as bytes, and as JSON when it is JSON (`reformatted`). A
//! removed file is breaking whatever its kind, and so is a JSON file's
//! published field removed or retyped ([`contract`]: added fields are not).
//!
//! A document published under two names (the default locale's
//! `ww.json` and `ww-zh-CN.json`, the site locale's `anno.json`) is
//! reported once, under both names ([`Report::merge_aliases`]), for the
//! pairs each kind names ([`alias_pairs`]).
//!
//! # May know, may not know
//!
//! May know the checker (the model, the kinds, the layout). May not know the
//! builder, the file system's readers of a base (`bases`, in the root
//! package), HTTP or the control crate: bytes in, findings out.

// Built with `cargo doc --document-private-items` for contributors, where a
// link to a private item resolves.
#![allow(rustdoc::private_intra_doc_links)]

pub mod activities;
mod contract;
pub mod kinds;
mod render;
pub mod report;

use chrono::NaiveDateTime;

pub use activities::{diff_file, document_diff, documents};
pub use render::group_of;
pub use report::{
    ActivityChange, ActivityRef, Breaking, Compare, FieldChange, FileDiff, FileStatus, Finding,
    Location, Moved, Renamed, Report, Warning, When, Window,
};

// The checker's modules, under the names every file of the review uses.
use activity_site_check::{diagnostics, i18n, kind, layout, model};

use crate::model::Game;

/// Compares one path: `built` is this build's bytes, `base` the base's
/// (`None`: absent on that side). `now` is "now" of the file's game (in its
/// time zone), which the rules about ongoing activities need; `None` skips them.
pub fn compare(
    path: &str,
    built: Option<&[u8]>,
    base: Option<&[u8]>,
    now: Option<NaiveDateTime>,
    schemas: &Schemas,
) -> FileDiff {
    match (built, base) {
        (None, None) => FileDiff::empty(path, FileStatus::Unchanged),
        (None, Some(_)) => removed(path),
        (Some(built), None) => {
            let mut diff = FileDiff::empty(path, FileStatus::New);
            if let Some(kind) = kinds::of_path(path) {
                kind.added(built, &mut diff);
            }
            diff
        }
        (Some(built), Some(base)) if built == base => FileDiff::empty(path, FileStatus::Unchanged),
        (Some(built), Some(base)) => changed(path, built, base, now, schemas),
    }
}

/// A path of the base that this build does not have: always breaking.
pub fn removed(path: &str) -> FileDiff {
    FileDiff::removed(path)
}

/// Compares two different byte strings of one path: by its kind's
/// comparison when it is a kind's document, else as JSON when both sides
/// are.
fn changed(
    path: &str,
    built: &[u8],
    base: &[u8],
    now: Option<NaiveDateTime>,
    schemas: &Schemas,
) -> FileDiff {
    let mut diff = FileDiff::empty(path, FileStatus::Changed);
    if !path.ends_with(".json") {
        return diff;
    }
    let pair = report::json_pair(built, base);
    match kinds::of_path(path) {
        Some(kind) => kind.changed(built, base, now, &mut diff),
        None => {
            if pair.as_ref().is_some_and(|(new, old)| new == old) {
                diff.status = FileStatus::Reformatted;
            }
        }
    }
    // The published fields of a document or the index, whatever the kind:
    // added is fine, removed or retyped is breaking. (A schema's or the
    // OpenAPI's own keys are descriptions, not fields clients read.)
    let published = kinds::of_path(path).is_some() || path == layout::INDEX_PATH;
    if published && let Some((new, old)) = &pair {
        let found = diff.breaking.len() + diff.warnings.len();
        contract::fields(new, old, schemas.of(path), &mut diff);
        // A field gone is no reformatting, even when the kind saw nothing.
        if diff.status == FileStatus::Reformatted
            && diff.breaking.len() + diff.warnings.len() > found
        {
            diff.status = FileStatus::Changed;
        }
    }
    diff
}

/// The published schemas (`api/v1/schema/*.json`) a review judges a
/// removed field by, each by its path: a field they make optional is a
/// warning when it goes, one they require (or a file without a schema
/// here) is breaking. The caller reads them (this module does no I/O);
/// [`Schemas::default`] knows none, so every removal is breaking.
#[derive(Debug, Default, Clone)]
pub struct Schemas(std::collections::BTreeMap<String, serde_json::Value>);

impl Schemas {
    /// The schemas among `files` (path relative to the site, bytes): every
    /// JSON file under the site's schema folder that parses.
    pub fn from_files<'a>(files: impl IntoIterator<Item = (&'a str, &'a [u8])>) -> Schemas {
        let prefix = format!("{}/", layout::SCHEMA_DIR);
        Schemas(
            files
                .into_iter()
                .filter(|(path, _)| path.starts_with(&prefix) && path.ends_with(".json"))
                .filter_map(|(path, bytes)| {
                    Some((path.to_owned(), serde_json::from_slice(bytes).ok()?))
                })
                .collect(),
        )
    }

    /// The published schema of the file at `path`: its kind's, or the
    /// index's.
    fn of(&self, path: &str) -> Option<&serde_json::Value> {
        let schema = if path == layout::INDEX_PATH {
            layout::INDEX_SCHEMA_PATH
        } else {
            crate::kind::of_published(path)?.schema.as_ref()?.published
        };
        self.0.get(schema)
    }
}

/// Every code a review can print, each with whether it is breaking: the
/// findings every file may get, then each kind's ([`crate::kind::all`]), in the
/// order of their declarations. What the documentation of the codes
/// (`activity-site docs codes`) is written from.
pub fn codes() -> Vec<(&'static kind::Finding, bool)> {
    let mut codes: Vec<(&'static kind::Finding, bool)> = Vec::new();
    let shared = report::SHARED_BREAKING
        .iter()
        .map(|f| (*f, true))
        .chain(report::SHARED_WARNINGS.iter().map(|f| (*f, false)));
    codes.extend(shared);
    for kind in crate::kind::all() {
        codes.extend(kind.review.breaking.iter().map(|f| (*f, true)));
        codes.extend(kind.review.warnings.iter().map(|f| (*f, false)));
    }
    codes
}

/// The files a site of `games` publishes under two names, as `(path,
/// alias)`, kind by kind ([`Compare::aliases`]): each game's document
/// and calendar of its default locale, the site locale's document and
/// feed of each kind published once per locale.
pub fn alias_pairs(games: &[Game]) -> Vec<(String, String)> {
    kinds::all().flat_map(|k| k.aliases(games)).collect()
}

/// The documents a deployed site may hold that no index lists, kind by
/// kind ([`Compare::unlisted`]): the un-suffixed document of each kind
/// published once per locale.
pub fn unlisted_documents() -> Vec<String> {
    kinds::all().flat_map(|k| k.unlisted()).collect()
}

/// The activity documents a deployed `api/v1/games.json` lists
/// (`games[].files[].path`), relative to the site root. An index that does
/// not parse lists nothing: removals are then simply not detected.
pub fn deployed_documents(index: &[u8]) -> Vec<String> {
    layout::Index::parse(index)
        .map(|index| index.documents())
        .unwrap_or_default()
}

impl Report {
    /// Compares each built file with its base bytes (`None`: not at the
    /// base), without the rules about "now".
    pub fn new<'a>(
        against: &str,
        files: impl IntoIterator<Item = (&'a str, &'a [u8], Option<&'a [u8]>)>,
    ) -> Report {
        let files: Vec<_> = files.into_iter().collect();
        let schemas = Schemas::from_files(files.iter().map(|(path, built, _)| (*path, *built)));
        Report {
            against: against.to_owned(),
            files: files
                .into_iter()
                .map(|(path, built, base)| compare(path, Some(built), base, None, &schemas))
                .collect(),
        }
    }
}
