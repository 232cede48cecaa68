//! The builder: a validated data tree to the files of `site/`. No HTTP, no async.
//!
//! [`build`] reads the tree into memory once ([`crate::load::load`]) and
//! checks it (without keeping documents); with any error it writes
//! nothing. Otherwise each game is validated again from that tree (never
//! from the disk) and turned
//! into parts, each a pure function of named inputs: per document, its JSON
//! files and calendars (from the game's registry entry, its locales and the
//! validated document), and its page (the same plus "now"); then the shared
//! files (the index, which takes each game's summary, the home page, the
//! schema, `404.html`, `_headers`). Each part is taken from the build
//! [`cache`] when its key (the inputs, the compression level, the tool's
//! version and the templates) is known, else rendered, its text files
//! compressed ([`Compression`]) and stored; games and parts run on
//! every core (rayon). The files ([`OutputFile`]) are written into a staging
//! directory beside the output as soon as their part is done, so memory
//! holds the games in flight, not the site; the staging directory is
//! swapped in with a rename at the end. A document's times are
//! [`crate::model::Time`]s from the check on: nothing renders a time that
//! is not one.
//!
//! A build costs what changed. The check fingerprints each game's data
//! files as it reads them; a game whose fingerprint (with its registry
//! entry, the site's locale, its "now", the compression and the tool's
//! salt) is the one the output's manifest records is neither loaded,
//! rendered, compressed nor written: its files stay, and only what the
//! shared files need of it is read from the manifest. The home and
//! timeline pages list every game (cut into pages of
//! [`pages::GAMES_PER_PAGE`] games on a larger site); each such page is
//! rendered only when what it shows besides its games, or what one of its
//! games shows there, changed. A game's card on them is rendered with the
//! game and kept on disk until the pages list the cards ([`cards`]), so
//! memory does not grow with the site; `serve` keeps the cards from one
//! build to the next, so an edit renders the cards of the games it
//! changed and the pages that list them, nothing more. The check itself is skipped for a game whose
//! last check found nothing and whose `check_key` (the tool, the
//! schemas, its registry entry, its data files, its "now") the manifest
//! records: its files are read and fingerprinted, not parsed again. See
//! `write.rs` for how the new site is put in place.
//!
//! # May know, may not know
//!
//! May know the checker (`activity-site-check`), the review and `stdx`. May
//! not know publishing, the servers, the language server, the control crate,
//! HTTP or async: it does not depend on them. Inside, no two files import
//! each other round a circle (`tests/architecture.rs`).

// Built with `cargo doc --document-private-items` for contributors, where a
// link to a private item resolves.
#![allow(rustdoc::private_intra_doc_links)]

//!
//! # The parts of the builder
//!
//! This file is the front door: it declares the parts and re-exports what
//! the rest of the crate calls; it holds no code. Inside `site/` imports
//! run from the jobs down to [`types`], never up to this file:
//!
//! - [`digest`]: the one digest of several inputs (length-prefixed
//!   SHA-256) every key, fingerprint and stable id is made of; imports
//!   no other file of the folder.
//! - [`types`]: the shared types (a checked tree, a game as the renderers
//!   see it, a rendered file, what a kind checked file by file publishes:
//!   [`types::Publish`]); imports no other file of the folder.
//! - [`kinds`]: those kinds' [`types::Publish`], found in the registry
//!   ([`kind::all`]), which the render, `_headers` and the root's
//!   `status` walk.
//! - [`check`](mod@check): the check of a tree, game by game, and a build's check.
//! - [`api`]: the JSON API's files and the index.
//! - [`render`]: the render engine (the plan of parts, the cache, the
//!   shared files) and how a render may be told to hurry ([`Defer`]).
//! - [`output`]: `build` itself (its options and outcome): check, render,
//!   swap in.
//! - the renderers of one kind of file each ([`pages`], [`ics`],
//!   [`llms`], [`reference`](mod@reference), [`headers`],
//!   [`compress`], the [`timeline`] page), the cache and the manifest, the
//!   staging directory (`write`), the live check and build ([`LiveCheck`],
//!   [`LiveBuild`]), and the rewrites of sources ([`rewrite`]).

// The checker's modules, under the names every file of the builder uses.
use activity_site_check::{
    atomic, clock, diagnostics, i18n, kind, layout, load, model, relpath, source, tree, validate,
};

pub mod api;
pub mod cache;
mod cards;
pub mod check;
pub mod compress;
pub mod contract;
pub mod digest;
pub mod headers;
pub mod ics;
mod kept;
pub mod kinds;
mod live;
pub mod llms;
mod manifest;
pub mod output;
pub mod pages;
pub mod reference;
pub mod render;
pub mod rewrite;
pub mod timeline;
pub mod types;
mod write;

pub use api::api_files;
pub use cache::CacheSalt;
pub use check::{canonical_text, check, check_documents, check_streaming, check_tree, check_with};
pub use compress::Compression;
pub use live::{LiveBuild, LiveCheck, LiveStats};
pub use output::{BuildOptions, BuildOutcome, BuildSummary, CacheOptions, build, build_loaded};
pub use render::{Defer, Progress};
pub use types::{Checked, GameOutput, LocaleDocument, OutputFile, outputs};
pub use write::{OUTPUT_MARKER, OutputState, guard_output, inspect_output, shown_output};
