//! The checker of `activity-site`: the source tree read into memory, what
//! it means, and every rule it must keep.
//!
//! [`load`] reads a root into the plain data of [`source`] (paths spelled
//! by [`tree`]); [`validate`] parses each file once with [`json`], runs
//! the schemas of each [`kind`] and the rules, and returns
//! [`diagnostics::Diagnostic`]s; [`model`] holds the typed registry and
//! documents, [`clock`] "now" in each game's zone, [`markdown`] the
//! announcements' Markdown and [`layout`] the published names a kind
//! declares. The map of the whole workspace is the root package's
//! (`src/lib.rs`).
//!
//! May know: `stdx`, [`i18n`], [`json`]. May not know: the builder, the
//! review, the control crate, HTTP or async; the compiler keeps it so.

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
pub mod terminal;
pub mod tree;
pub mod validate;
