//! The types every part of the builder shares: a checked tree
//! ([`Checked`]), a game and its documents as the renderers see them
//! ([`GameOutput`], [`LocaleDocument`]) and a rendered file
//! ([`OutputFile`]). The bottom of `site/`: it imports no other file of
//! the folder.

use std::collections::{BTreeMap, HashMap};

use chrono::NaiveDateTime;

use crate::diagnostics::Diagnostic;
use crate::model::{ActivityDocument, Game, parse_time, to_pretty};
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

/// A document and where it is published, with its times parsed once.
#[derive(Debug, Clone)]
pub struct LocaleDocument {
    pub locale: String,
    pub is_default: bool,
    /// Activities sorted chronologically, `$schema` dropped.
    pub document: ActivityDocument,
    /// The document's times as typed values, for every renderer.
    pub times: DocumentTimes,
}

impl LocaleDocument {
    /// Publishes `document` under `locale`: drops `$schema`, sorts the
    /// activities (stably, unparsable times last) and parses every time once.
    pub fn new(locale: &str, is_default: bool, mut document: ActivityDocument) -> Self {
        document.schema = None;
        let mut timed: Vec<_> = std::mem::take(&mut document.activities)
            .into_iter()
            .map(|a| {
                let start = parse_time(&a.start_time);
                let times = start.zip(parse_time(&a.end_time));
                (a, start, times)
            })
            .collect();
        timed.sort_by_key(|(_, start, _)| start.map_or((1, None), |t| (0, Some(t))));
        let mut activities = Vec::with_capacity(timed.len());
        for (activity, _, times) in timed {
            document.activities.push(activity);
            activities.push(times);
        }
        let times = DocumentTimes {
            start: parse_time(&document.start_time),
            end: parse_time(&document.end_time),
            activities,
        };
        LocaleDocument {
            locale: locale.to_owned(),
            is_default,
            document,
            times,
        }
    }

    /// The canonical published JSON (the document is already sorted and
    /// without `$schema`).
    pub fn to_json(&self) -> Vec<u8> {
        to_pretty(&self.document).into_bytes()
    }
}

/// The times of one document, parsed once.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DocumentTimes {
    pub start: Option<NaiveDateTime>,
    pub end: Option<NaiveDateTime>,
    /// `(start, end)` of each activity, in the document's (sorted) order;
    /// `None` when either does not parse.
    pub activities: Vec<Option<(NaiveDateTime, NaiveDateTime)>>,
}

impl DocumentTimes {
    /// The version window, when both ends parse.
    pub fn window(&self) -> Option<(NaiveDateTime, NaiveDateTime)> {
        self.start.zip(self.end)
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
    documents: Vec<(String, Option<ActivityDocument>)>,
) -> GameOutput {
    let documents = documents
        .into_iter()
        .filter_map(|(locale, doc)| {
            let is_default = locale == game.default_locale;
            Some(LocaleDocument::new(&locale, is_default, doc?))
        })
        .collect();
    GameOutput { game, documents }
}
