//! The types every part of the builder shares: a checked tree
//! ([`Checked`]), a game and its documents as the renderers see them
//! ([`GameOutput`], [`LocaleDocument`]) and a rendered file
//! ([`OutputFile`]). The bottom of `site/`: it imports no other file of
//! the folder.

use std::collections::{BTreeMap, HashMap};

use crate::diagnostics::Diagnostic;
use crate::model::{ActivityDocument, Game, to_pretty};
use crate::validate::{self, CheckedGame};

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
    /// One entry per locale of `game.locales`, in that order; activities sorted.
    pub documents: Vec<LocaleDocument>,
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

    /// The canonical published JSON (the document is already sorted and
    /// without `$schema`).
    pub fn to_json(&self) -> Vec<u8> {
        to_pretty(&self.document).into_bytes()
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
    /// Every announcements file (`data/_announcements/<locale>.json`), in
    /// path order, with its document when kept; its diagnostics are in
    /// `diagnostics`.
    pub announcements: Vec<validate::CheckedAnnouncements>,
    /// The fingerprint of each game's data files ([`sources_digest`]), by id,
    /// when the check was asked for them (a build).
    pub sources: HashMap<String, [u8; 16]>,
    /// The games the check found nothing in but what the rules that read
    /// "now" found ([`reads_now`]), with the key of what it checked
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
    documents: Vec<(String, Option<validate::Kept>)>,
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
