//! The kinds a review compares document by document: [`all`], which
//! [`super::compare`] and the renderings walk. The activity documents are
//! this crate's own case ([`super::activities`]); a registered kind whose
//! published documents a review reads gives its [`Compare`] as a part of
//! its declaration (`crate::kind::Kind::parts`, in its folder of
//! `crates/kinds`; `tests/kinds.rs` says so when one is missing); the
//! kept files are compared by their status alone.

use super::activities;
use super::report::Compare;
use crate::kind::{self, Kind};

/// Every kind a review compares, in the order of [`crate::kind::all`],
/// which is the order the reports list a file's changes in.
pub fn all() -> impl Iterator<Item = &'static dyn Compare> {
    kind::all().iter().filter_map(|k| of(k))
}

/// What a review does with the documents of `kind`; `None` for a kind
/// compared by its status alone (the kept files).
pub fn of(kind: &Kind) -> Option<&'static dyn Compare> {
    if kind::same(kind, &kind::activities::KIND) {
        return Some(&activities::COMPARE);
    }
    kind.part::<&'static dyn Compare>()
}

/// What a review does with the published document at `path`, by the kind
/// that publishes it ([`kind::of_published`]).
pub fn of_path(path: &str) -> Option<&'static dyn Compare> {
    of(kind::of_published(path)?)
}
