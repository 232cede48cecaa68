//! The kinds a review compares document by document: the one list
//! ([`ALL`]) that [`super::compare`] and the renderings walk. A kind of
//! [`crate::kind::ALL`] whose published documents a review reads has a
//! file of its own here implementing [`Compare`] and a line in [`ALL`]
//! (`tests/kinds.rs` says so when one is missing); the kept files are
//! compared by their status alone.

use super::report::Compare;
use super::{activities, announcements};
use crate::kind::{self, Kind};

/// Every kind a review compares, in the order of [`crate::kind::ALL`],
/// which is the order the reports list a file's changes in.
pub static ALL: &[&dyn Compare] = &[&activities::COMPARE, &announcements::COMPARE];

/// What a review does with the documents of `kind`; `None` for a kind
/// compared by its status alone (the kept files).
pub fn of(kind: &Kind) -> Option<&'static dyn Compare> {
    ALL.iter().copied().find(|c| kind::same(c.kind(), kind))
}

/// What a review does with the published document at `path`, by the kind
/// that publishes it ([`kind::of_published`]).
pub fn of_path(path: &str) -> Option<&'static dyn Compare> {
    of(kind::of_published(path)?)
}
