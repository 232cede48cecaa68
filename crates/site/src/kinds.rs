//! The kinds checked file by file, by what they do in the site: the one
//! list ([`ALL`]) the render, `_headers` and `status` walk. A kind of
//! [`crate::kind::ALL`] whose sources are one file per locale implements
//! [`Publish`] in its own file of `site/` and has a line here
//! (`tests/kinds.rs` says so when one is missing).

use super::announcements;
use super::types::Publish;
use crate::kind::{self, Kind};

/// Every kind checked file by file, in the order their files are published.
pub static ALL: &[&dyn Publish] = &[&announcements::PUBLISH];

/// What `kind` does in the site; `None` for the activity documents (the
/// games' parts) and the kept files (published byte for byte).
pub fn of(kind: &Kind) -> Option<&'static dyn Publish> {
    ALL.iter().copied().find(|p| kind::same(p.kind(), kind))
}
