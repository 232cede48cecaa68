//! The kinds checked file by file, by what they do in the site: the
//! render, `_headers` and `status` walk [`all`]. A kind of
//! [`crate::kind::all`] whose sources are one file per locale gives its
//! [`Publish`] as a part of its declaration (`crate::kind::Kind::parts`,
//! in its folder of `crates/kinds`; `tests/kinds.rs` says so when one is
//! missing).

use super::types::Publish;
use crate::kind::{self, Kind};

/// Every kind checked file by file, in the order their files are published
/// (the order of [`kind::all`]).
pub fn all() -> impl Iterator<Item = &'static dyn Publish> {
    kind::all().iter().filter_map(|k| of(k))
}

/// What `kind` does in the site; `None` for the activity documents (the
/// games' parts) and the kept files (published byte for byte).
pub fn of(kind: &Kind) -> Option<&'static dyn Publish> {
    kind.part::<&'static dyn Publish>()
}
