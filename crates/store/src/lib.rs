//! `activity-site-store`: what the control service stand-in keeps, cut
//! from `activity-site-control` along the seam between storing and
//! serving. The state directory ([`state`]: its layout, atomic writes, the
//! lock, reads that move a corrupt file aside), the task configurations
//! ([`configs`]) and the settings ([`settings`]) stored in it with their
//! typed shapes ([`shapes`]), the one rule for names that become files
//! ([`names`]), the backend log ring ([`logs`]) and the error of every
//! control operation ([`error`]).
//!
//! # May know, may not know
//!
//! May know `stdx` alone of the workspace. May not know HTTP (axum), MCP,
//! the backend process or the control core: it does not depend on them,
//! so the compiler refuses the arrow. `activity-site-control` re-exports
//! these modules under their old names (`activity_site_control::state`).

// Built with `cargo doc --document-private-items` for contributors, where a
// link to a private item resolves.
#![allow(rustdoc::private_intra_doc_links)]

pub mod configs;
pub mod error;
pub mod logs;
pub mod names;
pub mod settings;
pub mod shapes;
pub mod state;
