//! The checker of `activity-site`: the source tree read into memory, what
//! it means, and every rule it must keep.
//!
//! [`load`] reads a whole root, once, into one value of [`source`]
//! ([`source::Tree`], paths spelled by [`tree`]) that everything after it
//! computes on; [`validate`] parses each file once with [`json`], runs
//! the schemas of each [`kind`] and the rules, and returns
//! [`diagnostics::Diagnostic`]s; [`model`] holds the typed registry and
//! documents, [`clock`] "now" in each game's zone, [`markdown`] the
//! announcements' Markdown and [`layout`] the published names a kind
//! declares. The map of the whole workspace is the root package's
//! (`src/lib.rs`).
//!
//! # May know, may not know
//!
//! May know `stdx`, [`i18n`] and [`json`]. May not know the builder, the
//! review, the language server, the control crate, HTTP or async: it does
//! not depend on them, so the compiler refuses the arrow. Inside the crate,
//! which the compiler does not police (`tests/architecture.rs` does):
//! [`tree`], [`markdown`] and [`model`] know nothing of the crate but the
//! messages; [`diagnostics`] only [`chars`]; [`layout`] and [`clock`] only
//! [`model`]; [`kind`] only [`tree`], [`layout`] and [`diagnostics`];
//! [`validate`] never [`load`] (both stand on [`source`]). Printing is
//! not the checker's: `activity-site-terminal`, above it, prints its
//! diagnostics for the commands and the language server.

// Built with `cargo doc --document-private-items` for contributors, where a
// link to a private item resolves.
#![allow(rustdoc::private_intra_doc_links)]

pub use activity_site_i18n as i18n;
pub use activity_site_json as json;
pub use stdx::{atomic, chars, relpath};

pub mod clock;
pub mod diagnostics;
pub mod kind;
pub mod layout;
pub mod load;
pub mod markdown;
pub mod model;
pub mod source;
pub mod tree;
pub mod validate;
