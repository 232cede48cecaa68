//! What both halves of `activity-site` need and the standard library lacks:
//! the site generator (the `activity-site` package) and the control service
//! (`activity-site-control`) depend on this crate and on nothing of each
//! other, so each fact here has one owner for both.
//!
//! - [`atomic`]: the one atomic file write (temporary file, fsync, rename,
//!   fsync of the folder) of `fmt`, `import`, the build cache, the agents'
//!   drafts and the control service's state.
//! - [`chars`]: the base table of invisible characters, which the
//!   `whitespace` rule and the control service's names extend, and the one
//!   cut of UTF-8 text at a character boundary.
//! - [`relpath`]: a relative path written the one way the tool writes it,
//!   its parts joined with `/` whatever the platform.
//! - [`json`]: how a message names a JSON value's type ("an integer", "an
//!   object"), the one wording of the checker's and the control service's
//!   errors.
//!
//! Each module is a leaf: it knows nothing of what the files, names or
//! values mean. Something belongs here only when both halves need it.

pub mod atomic;
pub mod chars;
pub mod json;
pub mod relpath;
