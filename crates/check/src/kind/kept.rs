//! Kept files: everything below `data/_files/`, published byte for byte
//! at the same path relative to it (`robots.txt`, a legacy document kept
//! frozen), last and never over a file the build generates.
//!
//! Read by [`crate::load::load`], published by `site::kept`; a
//! review reports a kept file by its status alone (and its removal, as
//! every file's).

use super::{Kind, PublishedAs, Review, Sources};
use crate::diagnostics::Code;
use crate::tree;

pub static KIND: Kind = Kind {
    name: "kept",
    sources: Sources::Verbatim {
        dir: tree::FILES_DIR,
    },
    schema: None,
    rules: &[Code::KeptFile],
    review: Review {
        breaking: &[],
        warnings: &[],
    },
    status: None,
    editor: false,
    shape: None,
    published: PublishedAs::Verbatim,
    agents: None,
    parts: &[],
};
