//! The types every part of the builder shares: a checked tree
//! ([`Checked`]), a game and its documents as the renderers see them
//! ([`GameOutput`], [`LocaleDocument`]), a rendered file
//! ([`OutputFile`]) and what a kind checked file by file does in the
//! site ([`Publish`]: its files, its index entries, its links on the home
//! pages, its `status` table). The bottom of `site/`: it imports no other
//! file of the folder.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use crate::diagnostics::Diagnostic;
use crate::kind::Kind;
use crate::layout;
use crate::model::{ActivityDocument, Game, PublishedDocument, to_pretty};
use crate::validate::{self, CheckedFile, CheckedGame};

/// One file of the site, rendered in memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputFile {
    /// Path relative to the output directory, forward slashes (`api/v1/activity/ww.json`).
    pub path: String,
    pub bytes: Vec<u8>,
}

/// One game with its validated documents, as the renderers see it.
#[derive(Debug, Clone)]
pub struct GameOutput {
    pub game: Game,
    /// One entry per locale of `game.locales` that has a document, in that
    /// order; activities sorted. A locale without one is pending
    /// ([`GameOutput::pending_locales`]).
    pub documents: Vec<LocaleDocument>,
}

impl GameOutput {
    /// The locales of `game.locales` without a document (the
    /// `pending-locale` warning): listed by the index and `llms.txt`, never
    /// published.
    pub fn pending_locales(&self) -> impl Iterator<Item = &str> {
        self.game
            .locales
            .iter()
            .map(String::as_str)
            .filter(|l| !self.documents.iter().any(|d| d.locale == *l))
    }
}

/// A checked document and where it is published.
#[derive(Debug, Clone)]
pub struct LocaleDocument {
    pub locale: String,
    pub is_default: bool,
    /// Activities sorted chronologically, `$schema` dropped.
    pub document: ActivityDocument,
}

impl LocaleDocument {
    /// Publishes `document` under `locale`: drops `$schema` and sorts the
    /// activities (stably, by start).
    pub fn new(locale: &str, is_default: bool, mut document: ActivityDocument) -> Self {
        document.schema = None;
        document.sort_activities();
        LocaleDocument {
            locale: locale.to_owned(),
            is_default,
            document,
        }
    }

    /// How its files and page are named: plain for the game's default
    /// locale.
    pub fn naming(&self) -> layout::Naming {
        if self.is_default {
            layout::Naming::Plain
        } else {
            layout::Naming::Localized
        }
    }

    /// The canonical published JSON of this document of `game`: its own
    /// fields (already sorted, without `$schema`), then its instants, zone
    /// and due time ([`PublishedDocument`]).
    pub fn to_json(&self, game: &Game) -> Vec<u8> {
        to_pretty(&PublishedDocument::of(game, &self.document)).into_bytes()
    }
}

/// The result of checking a whole tree.
#[derive(Debug)]
pub struct Checked {
    /// The games that parsed, with their documents when they were kept.
    pub games: Vec<CheckedGame>,
    /// Every diagnostic, sorted by file and position.
    pub diagnostics: Vec<Diagnostic>,
    /// The schema of each kind of document the tree was checked against
    /// (published as is), by the kind's name.
    pub schemas: BTreeMap<&'static str, serde_json::Value>,
    /// Every file of the kinds checked file by file (the announcements
    /// boards, `data/_announcements/<locale>.json`), by kind in the order
    /// of [`validate::FILE_KINDS`] and then by path, with its document when
    /// kept; their diagnostics are in `diagnostics`.
    pub files: Vec<CheckedFile>,
    /// The fingerprint of each game's data files ([`super::check::sources_digest`]), by id,
    /// when the check was asked for them (a build).
    pub sources: HashMap<String, [u8; 16]>,
    /// The games the check found nothing in but what the rules that read
    /// "now" found ([`super::check::reads_now`]), with the key of what it checked
    /// (`check_key`), when the check was a build's.
    pub clean_checks: HashMap<String, String>,
    /// Games not checked again: their inputs were those of a check that
    /// found nothing in them.
    pub checks_reused: usize,
}

impl Checked {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// The games of a clean check as the renderers see them.
pub fn outputs(checked: &Checked) -> Vec<GameOutput> {
    checked
        .games
        .iter()
        .map(|g| output_of(g.game.clone(), g.documents.clone()))
        .collect()
}

/// A checked game as the renderers see it: its kept documents published.
pub(crate) fn output_of(
    game: Game,
    documents: Vec<(String, Option<validate::TypedDocument>)>,
) -> GameOutput {
    let documents = documents
        .into_iter()
        .filter_map(|(locale, doc)| {
            let is_default = locale == game.default_locale;
            Some(LocaleDocument::new(
                &locale,
                is_default,
                doc?.into_checked()?,
            ))
        })
        .collect();
    GameOutput { game, documents }
}

/// A home page's link to a page of a kind's (an announcements board),
/// made by the kind's [`Publish`] and laid out by `site::pages`: each home
/// page links to one page of each kind, its locale's, else the default one.
#[derive(Debug, Clone, Serialize)]
pub struct HomeLink {
    /// The page's locale.
    pub locale: String,
    pub is_default: bool,
    /// The page, relative to the site root.
    pub href: String,
    /// The message the link says (`page-announcements`), the same for
    /// every link of a kind.
    pub says: &'static str,
    /// What the link says, in the language of the page it is on (`says`,
    /// rendered by `site::pages`).
    pub label: String,
    /// The Atom feed, relative to the site root.
    pub feed_href: String,
}

/// What a kind checked file by file ([`validate::FileRules`]) does in the
/// site. The kind's own file of `site/` implements it and
/// `site::kinds::ALL` lists it; the render, the `_headers` file and
/// `status` reach the kind only through it.
pub trait Publish: Sync {
    /// The kind it publishes.
    fn kind(&self) -> &'static Kind;
    /// Everything the kind publishes from `files`, every file of the kind
    /// in path order (of a clean check that kept their documents), in a
    /// site of `site`.
    fn publish(&self, files: &[&CheckedFile], site: &Site<'_>) -> anyhow::Result<Published>;
    /// What `status` says of each file of the kind between its locale and
    /// when it changed: each column's field (in the JSON of the agents'
    /// `status`) and heading (a message identifier).
    fn status_columns(&self) -> &'static [StatusColumn] {
        &[]
    }
    /// The values of those columns for a file (`null` for what it lacks):
    /// `document` is `None` when the check found an error in it.
    fn status_values(&self, _document: Option<&serde_json::Value>) -> Vec<serde_json::Value> {
        Vec::new()
    }
    /// What the index's schema says of the field that lists its
    /// documents ([`Kind::index_field`]): the field's description and the
    /// schema of an entry ([`layout::IndexLocaleEntry`]).
    fn index_schema(&self) -> Option<(&'static str, serde_json::Value)> {
        None
    }
    /// What the OpenAPI description's summary of the API calls its
    /// documents (`announcements boards`).
    fn api_summary(&self) -> Option<&'static str> {
        None
    }
    /// Its line of `llms.txt`'s "Start here" (Markdown, English: it is
    /// read by agents, like the rest of the file), with the published file
    /// it points at; the line is written when the site holds that file,
    /// generated or kept.
    fn llms_start(&self) -> Option<(String, String)> {
        None
    }
}

/// A column of a kind's table in `status` ([`Publish::status_columns`]).
#[derive(Debug, Clone, Copy)]
pub struct StatusColumn {
    /// Its field in the JSON of the agents' `status` (`id`).
    pub field: &'static str,
    /// Its heading, a message identifier (`status-board-id`).
    pub heading: &'static str,
}

/// What a kind's [`Publish`] knows of the rest of the site.
#[derive(Debug, Clone, Copy)]
pub struct Site<'a> {
    /// Every game as published.
    pub games: &'a [GameOutput],
    /// The site's default locale (published under the un-suffixed names).
    pub site_locale: Option<&'a str>,
    /// The site's public address (`--site-url`), if the build knows it.
    pub site_url: Option<&'a layout::SiteUrl>,
}

/// What a kind publishes ([`Publish::publish`]).
#[derive(Debug, Default)]
pub struct Published {
    /// Its files (documents, feeds, pages), in the order they are written.
    pub files: Vec<OutputFile>,
    /// Its entries of the index (`api/v1/games.json`), which the render
    /// lists under the field its kind declares ([`Kind::index_field`]).
    pub index: Vec<layout::IndexLocaleEntry>,
    /// Its links on the home pages.
    pub home_links: Vec<HomeLink>,
    /// URL patterns of its pages, served with the page cache policy.
    pub page_patterns: Vec<String>,
    /// Its files whose content type a host must be told, because few
    /// hosts know it by the extension (`.atom`).
    pub typed: Vec<String>,
}
