//! The kinds of document beyond the activity documents and the kept
//! files, each in one folder: its declaration and registration, model,
//! rules, published files and pages, review, agents' words and messages.
//!
//! # May know, may not know
//!
//! Knows every layer it gives a part to (the checker, the review, the
//! builder), and implements each layer's trait; no crate below it names
//! it, so no shared layer can name a kind. The root links it, and the
//! link registers each kind ([`activity_site_check::kind::REGISTERED`](static@activity_site_check::kind::REGISTERED)).

pub mod announcements;
