//! `import`: the pure mapping of `crates/import` (bytes in, files out),
//! under the name the commands use, and [`io`], its one part that reads
//! folders, fetches URLs and writes the root.

pub use activity_site_import::*;

pub mod io;
