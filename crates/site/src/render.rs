//! The render engine: a clean check to the files of the site, as a plan of
//! parts run on every core, each taken from the cache or the previous
//! output when its inputs are unchanged, else rendered and compressed, and
//! written into the staging directory as soon as it is done.

use anyhow::Context as _;
use std::sync::Arc;

use rayon::prelude::*;
use sha2::{Digest, Sha256};

use crate::diagnostics::Diagnostic;
use crate::i18n::msg;
use crate::kind;
use crate::layout;
use crate::model::Game;
use crate::model::published::{self, Due};
use crate::validate::{self, CheckedFile, CheckedGame, Keep};

use super::api::{self, doc_api_files, index_file};
use super::cache::{self, CacheSalt, Key};
use super::check::{Prepared, check_files};
use super::compress::{self, Compression};
use super::digest::{Parts, digest_of};
use super::types::{Checked, GameOutput, HomeLink, LocaleDocument, OutputFile, output_of};
use super::{
    cards, contract, headers, ics, kept, kinds, llms, manifest, pages, reference, timeline, types,
    write,
};

/// What a render starts from: a clean check of a tree read into memory,
/// and what validates its games again.
pub(crate) struct Inputs<'a> {
    /// The check, clean: its games, schemas, fingerprints of the data
    /// files and the keys of its clean checks.
    pub checked: &'a Checked,
    /// The tree the check read and its validator, for the kinds checked
    /// file by file and the games validated again.
    pub prepared: &'a Prepared,
    /// The options of the check, "now" among them: a game loaded again is
    /// checked as the tree was.
    pub check_options: &'a validate::Options,
    /// What a build kept between runs holds of its last build, for this
    /// one to take what is still current and leave its own ([`Kept`]);
    /// `None`: every build starts afresh.
    pub kept: Option<&'a Kept>,
}

/// What a build kept between runs (`serve`'s) leaves for the next: the
/// home pages' cards ([`cards::Cards::new`]), the tables of the reference
/// pages that grow with the site, by name, with the digest of what each
/// read ([`reference::Table`]), and the files made from every game (the
/// contract, the reference pages, `llms.txt`), by name, with the digest of
/// the inputs they were made from ([`Build::kept_outputs`]).
#[derive(Default)]
pub(crate) struct Kept {
    cards: std::sync::Mutex<Option<Arc<cards::Cards>>>,
    /// Each game's entry of the index ([`api::index_entry`]) by id, with
    /// the fingerprint of the game it was made from ([`Build::index`]).
    index: std::sync::Mutex<std::collections::HashMap<String, IndexEntry>>,
    tables: std::sync::Mutex<std::collections::HashMap<String, ([u8; 32], String)>>,
    outputs: std::sync::Mutex<std::collections::HashMap<&'static str, OutputsOf>>,
}

impl Kept {
    /// The table `make` renders, or the one kept under its name when it
    /// was made from the same reads.
    fn table(
        &self,
        table: reference::Table<'_>,
        make: &dyn Fn() -> anyhow::Result<String>,
    ) -> anyhow::Result<String> {
        kept_or_made(&self.tables, table.name, digest_of(table.reads), make)
    }
}

/// The value kept in `kept` under `name` when it was made from inputs of
/// the same `digest`, else the one `make` makes now, kept in its place.
fn kept_or_made<K: std::hash::Hash + Eq, V: Clone>(
    kept: &std::sync::Mutex<std::collections::HashMap<K, ([u8; 32], V)>>,
    name: K,
    digest: [u8; 32],
    make: impl FnOnce() -> anyhow::Result<V>,
) -> anyhow::Result<V> {
    let held = kept.lock().unwrap_or_else(|p| p.into_inner());
    if let Some((made_from, value)) = held.get(&name)
        && *made_from == digest
    {
        return Ok(value.clone());
    }
    drop(held);
    let value = make()?;
    kept.lock()
        .unwrap_or_else(|p| p.into_inner())
        .insert(name, (digest, value.clone()));
    Ok(value)
}

/// Files kept between builds and the digest of what they were made from.
type OutputsOf = ([u8; 32], Vec<OutputFile>);

/// A game's fingerprint and its entry of the index (`None`: it has none).
type IndexEntry = (String, Option<Arc<str>>);

/// SHA-256 of what the contract, the reference pages and `llms.txt` read
/// of every game besides the first one's documents: its registry entry
/// and the locales it has a document in (the default one marked), never
/// its activities.
fn shape_of(games: &[GameOutput]) -> [u8; 32] {
    let entries: Vec<Vec<u8>> = games
        .iter()
        .map(|g| {
            let mut entry = serde_json::to_vec(&g.game).unwrap_or_default();
            for doc in &g.documents {
                entry.push(0x1f);
                entry.extend_from_slice(doc.locale.as_bytes());
                entry.push(if doc.is_default { b'1' } else { b'0' });
            }
            entry
        })
        .collect();
    digest_of(entries.iter().map(Vec::as_slice))
}

impl Inputs<'_> {
    /// Validates one game again from the tree in memory, with its
    /// documents, for rendering: the check before the build saw it clean,
    /// so an error now means its files changed since (the build then stops
    /// and writes nothing).
    fn load_again(&self, game: &Game) -> anyhow::Result<GameOutput> {
        let loaded = self.prepared.tree.game(game);
        let full = self
            .prepared
            .validator
            .game(&loaded, self.check_options, Keep::Documents);
        drop(loaded);
        anyhow::ensure!(
            !full.diagnostics.iter().any(Diagnostic::is_error),
            msg!("build-files-changed", game = game.id.as_str())
        );
        Ok(output_of(full.game, full.documents))
    }
}

/// Which precompressed siblings a build may leave out for a later build
/// to add ([`super::output::BuildOptions::defer`]). A file written without them is served
/// as it is; the output is the same as a build's once they are added.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Defer {
    /// Every sibling is written (`build`).
    #[default]
    Nothing,
    /// The brotli siblings wait (`serve`'s first build: brotli's top
    /// quality costs many times gzip's).
    Brotli,
    /// Every sibling waits (`serve` after an edit: what it serves on
    /// loopback needs no compression, and the edit shows sooner).
    All,
}

/// Told how far a build is: `(games rendered, games to render)`, after each
/// game (`build` draws a bar with it on a terminal).
#[derive(Clone)]
pub struct Progress(pub Arc<dyn Fn(usize, usize) + Send + Sync>);

impl std::fmt::Debug for Progress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Progress")
    }
}

/// How to render: the cache, the compression and whether it may wait.
/// Never "now": no file of the site depends on it.
pub(crate) struct Render<'a> {
    pub cache: Option<&'a cache::Cache>,
    /// What every key includes of the tool ([`super::output::BuildOptions::salt`]).
    pub salt: CacheSalt,
    pub compression: Compression,
    pub defer: Defer,
    pub progress: Option<Progress>,
    /// The site's public address, which its absolute links are made under.
    pub site_url: Option<&'a layout::SiteUrl>,
}

impl Render<'_> {
    /// What a key of a part that holds the site's address includes of it.
    fn site_key(&self) -> &[u8] {
        self.site_url.map_or(&[][..], |url| url.as_str().as_bytes())
    }
}

/// What a render wrote, counted as it goes.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Tally {
    /// Files of the site, and their bytes.
    pub files: usize,
    pub bytes: u64,
    /// Parts taken from the cache or the previous output, and parts rendered and compressed.
    pub reused: usize,
    pub rendered: usize,
    /// Entries written to the cache.
    pub stored: usize,
    /// Text files written without their siblings.
    pub deferred: usize,
}

impl std::ops::Add for Tally {
    type Output = Tally;
    fn add(self, other: Tally) -> Tally {
        Tally {
            files: self.files + other.files,
            bytes: self.bytes + other.bytes,
            reused: self.reused + other.reused,
            rendered: self.rendered + other.rendered,
            stored: self.stored + other.stored,
            deferred: self.deferred + other.deferred,
        }
    }
}

/// One part of the plan: a key over its named inputs and the work that
/// makes its files. Each part is a pure function of what its key hashes.
struct Part<'a> {
    key: Key,
    work: Work<'a>,
}

enum Work<'a> {
    /// A document's JSON files (its bytes given, rendered already) and calendars.
    Api(&'a GameOutput, &'a LocaleDocument, &'a [u8]),
    /// A document's page, in a site of that locale.
    Page(&'a GameOutput, &'a LocaleDocument, &'a str),
    /// A file that is cheap to render, rendered already: keyed by its bytes,
    /// so only its compression is saved.
    Ready(OutputFile),
}

/// A game of the new site: its record for the manifest and what was
/// written of it (its home page cards, when this build rendered it, are
/// in the build's [`cards::Cards`]).
struct GameDone {
    record: manifest::GameRecord,
    tally: Tally,
}

/// SHA-256 (hex) of what the home pages show of a game.
fn home_digest(home: &pages::HomeGame) -> String {
    let mut digest = Parts::default();
    let mut put = |part: &[u8]| {
        digest.put(part);
    };
    put(&serde_json::to_vec(&home.game.game).unwrap_or_default());
    for ((doc, activities), fresh) in home
        .game
        .documents
        .iter()
        .zip(&home.activities)
        .zip(&home.freshness)
    {
        put(format!("{:?}\u{1f}{:?}", fresh.mode, fresh.due).as_bytes());
        put(doc.locale.as_bytes());
        put(if doc.is_default { b"1" } else { b"0" });
        put(&serde_json::to_vec(&doc.document).unwrap_or_default());
        for a in activities {
            put(format!(
                "{}\u{1f}{}\u{1f}{}\u{1f}{}",
                a.index, a.name, a.start, a.end
            )
            .as_bytes());
        }
    }
    hex::encode(digest.finish())
}

/// Renders the site of a clean check into `staging`, game by game on every
/// core. A game whose fingerprint ([`Build::fingerprint`]) is the one the
/// output's manifest records, and whose files there check out, is taken
/// as it is: not loaded, rendered, compressed or written. Every other game
/// is loaded and validated again with its documents (or takes those the
/// check kept), each of its parts taken from the cache when its inputs
/// are unchanged or rendered and compressed, and written as soon as it is
/// done, and its home page cards rendered and set aside; only a summary of
/// the game stays for the shared files (the index, the home pages,
/// `_headers`), which come last and are taken from the output too when
/// their inputs did not change. The new site and its manifest are the same
/// whatever the order in which parts finish and whatever the output held.
pub(crate) fn render(
    from: &Inputs<'_>,
    how: &Render<'_>,
    staging: &write::Staging,
) -> anyhow::Result<(Tally, manifest::Manifest)> {
    let build = Build::new(from, how, staging)?;
    let done = build.games()?;
    let games: Vec<GameOutput> = done.iter().map(|g| g.record.summary.output()).collect();
    let mut published = build.publish(&games)?;
    let shape = shape_of(&games);
    // The shared files and the pages that list the games read nothing of
    // each other: each takes a core.
    let links: Vec<HomeLink> = published
        .iter()
        .flat_map(|p| p.home_links.iter().cloned())
        .collect();
    let mut parts = Vec::new();
    let (shared, home) = rayon::join(
        || build.shared_files(&games, &done, &shape, &mut published),
        || build.home_pages(&games, &done, links, &mut parts),
    );
    let (shared, home) = (shared?, home?);
    let shared = build.run_ready(shared, b"file", &mut parts)?;
    let kept = build.kept_files(&mut parts)?;
    let llms = build.llms_txt(&games, &shape, &mut parts)?;
    let mut tally = Tally::default();
    for game in &done {
        tally = tally + game.tally;
    }
    let mut manifest = manifest::Manifest::new();
    manifest.games = done.into_iter().map(|g| g.record).collect();
    manifest.parts = parts;
    manifest.sort();
    Ok((tally + home + shared + kept + llms, manifest))
}

/// One render under way: what it starts from, how it renders, where it
/// writes, and what its stages share of the registry.
struct Build<'a> {
    from: &'a Inputs<'a>,
    how: &'a Render<'a>,
    staging: &'a write::Staging,
    /// The registry as checked: a data file that changed since is found
    /// when its game is loaded again.
    registry: Vec<Game>,
    /// The site's locale, when the registry has one.
    site_locale: Option<String>,
    /// The home pages' locale: the site's, else English.
    home_locale: String,
    /// The home pages' cards: each game's are rendered with the game.
    cards: Arc<cards::Cards>,
    /// What each file made from every game was made from, by path: the
    /// digest of its inputs ([`Build::kept_outputs`], [`Build::index`]).
    /// Its part is keyed by that rather than by its bytes, which are
    /// megabytes on a large site and cost more to hash.
    made_from: std::sync::Mutex<std::collections::HashMap<String, [u8; 32]>>,
}

/// What rendering the parts of a game gave ([`Build::game_files`]).
struct GameFiles {
    /// What the home pages show of the game.
    home: pages::HomeGame,
    /// Its documents' digests (SHA-256 in hex, length) and due times.
    digests: Vec<(String, usize)>,
    dues: Vec<Due>,
    /// The records of the files written.
    files: Vec<manifest::FileRecord>,
    tally: Tally,
}

impl<'a> Build<'a> {
    fn new(
        from: &'a Inputs<'a>,
        how: &'a Render<'a>,
        staging: &'a write::Staging,
    ) -> anyhow::Result<Self> {
        let registry: Vec<Game> = from.checked.games.iter().map(|g| g.game.clone()).collect();
        let site_locale = crate::model::site_locale(&registry).map(str::to_owned);
        let home_locale = pages::site_locale_of(&registry);
        let locales = registry
            .iter()
            .flat_map(|g| g.locales.iter().map(String::as_str));
        let kept = from
            .kept
            .and_then(|kept| kept.cards.lock().unwrap_or_else(|p| p.into_inner()).take());
        let cards = cards::Cards::new(
            staging.beside(),
            pages::home_locales(locales, &home_locale),
            &home_locale,
            how.site_url,
            kept,
        )?;
        if let Some(kept) = from.kept {
            *kept.cards.lock().unwrap_or_else(|p| p.into_inner()) = Some(Arc::clone(&cards));
        }
        Ok(Build {
            from,
            how,
            staging,
            registry,
            site_locale,
            home_locale,
            cards,
            made_from: Default::default(),
        })
    }

    /// The site's locale as its game pages name it: every game page links
    /// to the home page of its language, so it depends on it.
    fn page_locale(&self) -> &str {
        self.site_locale.as_deref().unwrap_or_default()
    }

    /// The fingerprint of everything a game's files depend on: the tool
    /// and templates, the compression, the site's locale, its registry
    /// entry and its data files ([`super::check::sources_digest`]). Never
    /// "now": the pages leave what depends on it to the reader's browser.
    fn fingerprint(&self, game: &Game) -> String {
        let sources = self.from.checked.sources.get(&game.id);
        let entry = serde_json::to_vec(game).unwrap_or_default();
        let compression = self.how.compression.cache_key();
        let key = Key::new(
            &self.how.salt,
            &[
                b"game-files",
                compression.as_bytes(),
                self.page_locale().as_bytes(),
                self.how.site_key(),
                &entry,
                sources.map_or(&[][..], |s| &s[..]),
            ],
        );
        key.hex()
    }

    /// The record of `game` in the output, when it holds the game's files
    /// of this `fingerprint`.
    fn current_game(&self, game: &Game, fingerprint: &str) -> Option<&'a manifest::GameRecord> {
        self.staging
            .current_game(&game.id, fingerprint, self.how.takes_incomplete())
    }

    /// The key of the check that found nothing in `game` but what reads
    /// "now", when there was one.
    fn clean_check(&self, game: &Game) -> Option<String> {
        self.from.checked.clean_checks.get(&game.id).cloned()
    }

    /// Every game of the site, in the registry's order: taken from the
    /// output as it is, or rendered (told to [`Render::progress`]).
    fn games(&self) -> anyhow::Result<Vec<GameDone>> {
        let fingerprints: Vec<String> = self
            .registry
            .iter()
            .map(|game| self.fingerprint(game))
            .collect();
        let to_render = self
            .registry
            .iter()
            .zip(&fingerprints)
            .filter(|(game, fp)| self.current_game(game, fp).is_none())
            .count();
        let rendered = std::sync::atomic::AtomicUsize::new(0);
        self.from
            .checked
            .games
            .par_iter()
            .zip(&fingerprints)
            .with_max_len(1)
            .map(|(checked_game, fingerprint)| {
                let game = &checked_game.game;
                if let Some(record) = self.current_game(game, fingerprint) {
                    return Ok(self.game_as_it_is(game, record));
                }
                let done = self.render_game(checked_game, fingerprint)?;
                if let Some(progress) = &self.how.progress {
                    let n = rendered.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
                    (progress.0)(n, to_render);
                }
                Ok(done)
            })
            .collect()
    }

    /// A game the output holds as it is: its files kept, its record the
    /// output's.
    fn game_as_it_is(&self, game: &Game, record: &manifest::GameRecord) -> GameDone {
        self.staging.keep(&record.files);
        let tally = Tally {
            reused: record.summary.documents.len() * 2,
            ..Tally::of_records(&record.files)
        };
        let record = manifest::GameRecord {
            checked: self.clean_check(game),
            ..record.clone()
        };
        GameDone { record, tally }
    }

    /// Renders one game: its files ([`Build::game_files`]), its record
    /// and its home page cards.
    fn render_game(&self, checked: &CheckedGame, fingerprint: &str) -> anyhow::Result<GameDone> {
        let game = &checked.game;
        // A game the check kept the documents of (a live build's
        // edited game) is not read again.
        let output = if checked.documents.iter().any(|(_, d)| d.is_some()) {
            output_of(game.clone(), checked.documents.clone())
        } else {
            self.from.load_again(game)?
        };
        let rendered = self.game_files(output)?;
        let summary = manifest::SavedGame::of(&rendered.home.game, rendered.digests, rendered.dues);
        let record = manifest::GameRecord {
            id: game.id.clone(),
            fingerprint: fingerprint.to_owned(),
            complete: rendered.tally.deferred == 0,
            home: home_digest(&rendered.home),
            checked: self.clean_check(game),
            summary: Arc::new(summary),
            files: Arc::new(rendered.files),
        };
        self.cards.put(
            &game.id,
            &record.home,
            &rendered.home,
            &self.home_locale,
            self.how.site_url,
        )?;
        Ok(GameDone {
            record,
            tally: rendered.tally,
        })
    }

    /// Renders the parts of one game into the staging directory
    /// ([`Build::game_parts`]). Returns what the home pages show of the
    /// game, its documents' digests, the records of its files and the
    /// tally.
    fn game_files(&self, game: GameOutput) -> anyhow::Result<GameFiles> {
        let json: Vec<Vec<u8>> = game
            .documents
            .iter()
            .map(|doc| doc.to_json(&game.game))
            .collect();
        let (tally, files) = self
            .game_parts(&game, &json)
            .into_par_iter()
            .with_max_len(1)
            .map(|part| run_part(part, self.how, self.staging))
            .try_reduce(
                || (Tally::default(), Vec::new()),
                |(a, mut fa), (b, fb)| {
                    fa.extend(fb);
                    Ok((a + b, fa))
                },
            )?;
        let digests = json
            .iter()
            .map(|bytes| (hex::encode(Sha256::digest(bytes)), bytes.len()))
            .collect();
        let dues = game
            .documents
            .iter()
            .map(|doc| published::due(&game.game, &doc.document))
            .collect();
        // The shared files need the headers of the documents, and the home
        // pages the activities that have not ended.
        Ok(GameFiles {
            home: pages::HomeGame::of(&game),
            digests,
            dues,
            files,
            tally,
        })
    }

    /// The parts of one game: one per document and output kind, so
    /// editing one locale's file renders and compresses that locale's
    /// files only. A document's files depend on the game's registry entry,
    /// the locales it has documents in (the pages link to each other), the
    /// document itself (`json`, its bytes) and the compression; its page on
    /// nothing more.
    fn game_parts<'g>(&'g self, game: &'g GameOutput, json: &'g [Vec<u8>]) -> Vec<Part<'g>> {
        let entry = serde_json::to_vec(&game.game).unwrap_or_default();
        let locales: Vec<u8> = game
            .documents
            .iter()
            .flat_map(|d| [d.locale.as_bytes(), if d.is_default { b"*;" } else { b";" }])
            .flatten()
            .copied()
            .collect();
        let compression = self.how.compression.cache_key();
        let compression = compression.as_bytes();
        let salt = &self.how.salt;
        let site_locale = self.page_locale();
        let mut parts = Vec::with_capacity(game.documents.len() * 2);
        for (doc, bytes) in game.documents.iter().zip(json) {
            let named: [&[u8]; 7] = [
                b"game",
                &entry,
                &locales,
                doc.locale.as_bytes(),
                if doc.is_default { b"default" } else { b"other" },
                compression,
                bytes,
            ];
            parts.push(Part {
                key: Key::new(salt, &[&[b"api".as_slice()], &named[..]].concat()),
                work: Work::Api(game, doc, bytes),
            });
            parts.push(Part {
                key: Key::new(
                    salt,
                    &[&[b"page".as_slice(), site_locale.as_bytes()], &named[..]].concat(),
                ),
                work: Work::Page(game, doc, site_locale),
            });
        }
        parts
    }

    /// The files of the kinds checked file by file (the announcements
    /// boards), checked again with their documents kept, and what each
    /// kind publishes from them.
    fn publish(&self, games: &[GameOutput]) -> anyhow::Result<Vec<types::Published>> {
        let Prepared { tree, validator } = self.from.prepared;
        let (files, found) = check_files(tree, validator, Keep::Documents);
        if let Some(error) = found.iter().find(|d| d.is_error()) {
            anyhow::bail!(msg!("build-file-changed", file = error.file.as_str()));
        }
        let site = types::Site {
            games,
            site_locale: self.site_locale.as_deref(),
            site_url: self.how.site_url,
        };
        kinds::all()
            .map(|kind| {
                let own: Vec<&CheckedFile> = files
                    .iter()
                    .filter(|f| kind::same(f.kind, kind.kind()))
                    .collect();
                kind.publish(&own, &site)
            })
            .collect()
    }

    /// The files the games share, rendered already: each kind's files
    /// (taken out of `published`), the index, the contract, the page of
    /// a missing path and `_headers`.
    fn shared_files(
        &self,
        games: &[GameOutput],
        done: &[GameDone],
        shape: &[u8; 32],
        published: &mut [types::Published],
    ) -> anyhow::Result<Vec<OutputFile>> {
        let summaries: Vec<api::Summary<'_>> = games
            .iter()
            .zip(done)
            .map(|(game, done)| api::Summary {
                game,
                digests: &done.record.summary.digests,
                dues: &done.record.summary.dues,
            })
            .collect();
        let mut shared: Vec<OutputFile> = Vec::new();
        // Each kind's index entries under the field it declares.
        let mut index_entries = layout::IndexPerLocale::new();
        for (kind, publish) in published.iter_mut().zip(kinds::all()) {
            shared.append(&mut kind.files);
            let field = publish.kind().index_field();
            if let Some(field) = field.filter(|_| !kind.index.is_empty()) {
                index_entries.insert(field.to_owned(), std::mem::take(&mut kind.index));
            }
        }
        // The description shows the index's first game (and the first of
        // each kind's entries): the index of that game alone is in the
        // contract's key, so that an edit of another game keeps it.
        let head = summaries
            .iter()
            .position(|s| s.game.documents.iter().any(|d| d.is_default))
            .map_or(0, |at| at + 1);
        let index_head = index_file(&summaries[..head], index_entries.clone());
        let first = done.first().map_or("", |g| g.record.fingerprint.as_str());
        let contract = self.contract(games, done, &shared, &index_head, shape)?;
        shared.extend(self.reference_pages(&summaries, &contract, shape, first)?);
        shared.extend(contract);
        shared.push(self.index(&summaries, done, index_entries));
        shared.extend([
            pages::render_not_found(&self.home_locale)?,
            headers::render_headers(games, published),
        ]);
        Ok(shared)
    }

    /// The index ([`api::index_of_entries`]): each game's entry made now,
    /// or taken from what the last build of this process made of the
    /// game when its fingerprint is the same (an entry is a function of
    /// the game's registry entry and documents, which the fingerprint
    /// covers).
    fn index(
        &self,
        summaries: &[api::Summary<'_>],
        done: &[GameDone],
        per_locale: layout::IndexPerLocale,
    ) -> OutputFile {
        let mut last = self
            .from
            .kept
            .map(|kept| std::mem::take(&mut *kept.index.lock().unwrap_or_else(|p| p.into_inner())))
            .unwrap_or_default();
        let entries: Vec<IndexEntry> = summaries
            .par_iter()
            .zip(done)
            .map(|(summary, done)| {
                let fingerprint = &done.record.fingerprint;
                let entry = match last.get(&done.record.id) {
                    Some((made_from, entry)) if made_from == fingerprint => entry.clone(),
                    _ => api::index_entry(summary).map(Arc::from),
                };
                (fingerprint.clone(), entry)
            })
            .collect();
        let mut inputs: Vec<&[u8]> = entries.iter().map(|(fp, _)| fp.as_bytes()).collect();
        let per_locale_json = serde_json::to_vec(&per_locale).unwrap_or_default();
        inputs.extend([b"index".as_slice(), &per_locale_json]);
        let digest = digest_of(inputs);
        let file = api::index_of_entries(
            entries.iter().filter_map(|(_, entry)| entry.as_deref()),
            per_locale,
        );
        self.made_from(std::slice::from_ref(&file), digest);
        if let Some(kept) = self.from.kept {
            last.clear();
            last.extend(done.iter().map(|g| g.record.id.clone()).zip(entries));
            *kept.index.lock().unwrap_or_else(|p| p.into_inner()) = last;
        }
        file
    }

    /// The contract: each kind's schema as published, the index's, the
    /// OpenAPI description and the API catalog, kept between builds by
    /// what it reads: the games' shape ([`shape_of`]), the first game
    /// (its fingerprint: the description's example is its default
    /// document, loaded again, as `games` are summaries without
    /// activities), the schemas, the site's address, the kinds' files
    /// (`shared`) and the index as `index_head` (the index of its first
    /// game: the description's example cuts it there, so the contract is
    /// given that one).
    fn contract(
        &self,
        games: &[GameOutput],
        done: &[GameDone],
        shared: &[OutputFile],
        index_head: &OutputFile,
        shape: &[u8; 32],
    ) -> anyhow::Result<Vec<OutputFile>> {
        let schemas = serde_json::to_vec(&self.from.checked.schemas)?;
        let first = done.first().map_or("", |g| g.record.fingerprint.as_str());
        let mut key: Vec<&[u8]> = vec![
            b"contract",
            self.how.site_key(),
            shape,
            first.as_bytes(),
            &schemas,
        ];
        for file in shared.iter().chain([index_head]) {
            key.extend([file.path.as_bytes(), &file.bytes]);
        }
        self.kept_outputs("contract", digest_of(key), || {
            let example = self.first_game_whole()?;
            let files: Vec<OutputFile> = shared.iter().chain([index_head]).cloned().collect();
            Ok(contract::files(&contract::Inputs {
                games,
                example: example.as_ref(),
                schemas: &self.from.checked.schemas,
                files: &files,
                site: self.how.site_url,
            }))
        })
    }

    /// The files `make` makes, or those a build before this one in this
    /// process made from inputs of the same digest `key` (under `name`).
    fn kept_outputs(
        &self,
        name: &'static str,
        key: [u8; 32],
        make: impl FnOnce() -> anyhow::Result<Vec<OutputFile>>,
    ) -> anyhow::Result<Vec<OutputFile>> {
        let files = match self.from.kept {
            Some(kept) => kept_or_made(&kept.outputs, name, key, make)?,
            None => make()?,
        };
        self.made_from(&files, key);
        Ok(files)
    }

    /// Records that `files` were made from inputs of digest `key`.
    fn made_from(&self, files: &[OutputFile], key: [u8; 32]) {
        let mut made_from = self.made_from.lock().unwrap_or_else(|p| p.into_inner());
        made_from.extend(files.iter().map(|file| (file.path.clone(), key)));
    }

    /// The API's reference page of every home page's locale, from the
    /// contract as this build publishes it and, as its example, the first
    /// game's default document (loaded again: the summaries of the shared
    /// files hold no activities).
    /// Kept between builds by what they read: the games' shape
    /// ([`shape_of`]) and update modes, the first game (its fingerprint
    /// `first`),
    /// the contract and the site's address and locales.
    fn reference_pages(
        &self,
        summaries: &[api::Summary<'_>],
        contract: &[OutputFile],
        shape: &[u8; 32],
        first: &str,
    ) -> anyhow::Result<Vec<OutputFile>> {
        let modes: Vec<u8> = summaries
            .iter()
            .flat_map(|s| s.dues.iter())
            .flat_map(|due| due.update_mode.as_str().bytes().chain([0x1f]))
            .collect();
        let mut key: Vec<&[u8]> = vec![
            b"reference",
            self.how.site_key(),
            shape,
            &modes,
            first.as_bytes(),
            self.home_locale.as_bytes(),
        ];
        for file in contract {
            key.extend([file.path.as_bytes(), &file.bytes]);
        }
        self.kept_outputs("reference", digest_of(key), || {
            self.reference_pages_now(summaries, contract, digest_of([&shape[..], &modes]))
        })
    }

    /// [`Build::reference_pages`], made now; `games_digest` is that of
    /// what their games tables read ([`reference::Inputs::games_digest`]).
    fn reference_pages_now(
        &self,
        summaries: &[api::Summary<'_>],
        contract: &[OutputFile],
        games_digest: [u8; 32],
    ) -> anyhow::Result<Vec<OutputFile>> {
        let example = self.first_game_whole()?;
        let example_doc = example.as_ref().and_then(|game| {
            let doc = game.documents.iter().find(|d| d.is_default)?;
            Some((&game.game, doc))
        });
        let locales = pages::home_locales(
            self.registry
                .iter()
                .flat_map(|g| g.locales.iter().map(String::as_str)),
            &self.home_locale,
        );
        let inputs = reference::Inputs {
            games: summaries,
            example: example_doc,
            contract,
            site: self.how.site_url,
            site_locale: &self.home_locale,
            locales: &locales,
            games_digest,
        };
        // A table is a function of what it reads: one made by a build of
        // this process from the same reads is taken as it is.
        match self.from.kept {
            Some(kept) => reference::render_with(&inputs, |table, make| kept.table(table, make)),
            None => reference::render(&inputs),
        }
    }

    /// The first game with its documents whole (the example of the
    /// description and of the reference pages): those the check kept
    /// (a live build's edited game), else loaded again (the games of the
    /// shared files are summaries without activities).
    fn first_game_whole(&self) -> anyhow::Result<Option<GameOutput>> {
        Ok(match self.from.checked.games.first() {
            Some(checked) if checked.documents.iter().any(|(_, d)| d.is_some()) => {
                Some(output_of(checked.game.clone(), checked.documents.clone()))
            }
            Some(checked) => Some(self.from.load_again(&checked.game)?),
            None => None,
        })
    }

    /// The home pages and the timeline pages list every game
    /// ([`pages::each_home_page`], [`timeline::each_timeline_page`]; a
    /// large site's lists cut into pages of [`pages::GAMES_PER_PAGE`]
    /// games): each page is a part keyed by what it shows besides its
    /// games and by what each of its games shows there
    /// ([`Build::listing_key`]), rendered only when one of them changed,
    /// and recorded in `parts`. The pages to render are written at once,
    /// each streamed into its file.
    fn home_pages(
        &self,
        games: &[GameOutput],
        done: &[GameDone],
        links: Vec<HomeLink>,
        parts: &mut Vec<manifest::PartRecord>,
    ) -> anyhow::Result<Tally> {
        let ids: Arc<Vec<String>> = Arc::new(self.registry.iter().map(|g| g.id.clone()).collect());
        let source = |group: bool| -> pages::CardSource {
            let cards = Arc::clone(&self.cards);
            let ids = Arc::clone(&ids);
            Arc::new(move |game, locale| {
                let id = ids.get(game).map_or("", String::as_str);
                if group {
                    cards.group(id, locale)
                } else {
                    cards.get(id, locale)
                }
            })
        };
        let mut listings = Vec::new();
        pages::each_home_page(games, &links, source(false), |page| {
            listings.push(page);
            Ok(())
        })?;
        timeline::each_timeline_page(games, source(true), |page| {
            listings.push(page);
            Ok(())
        })?;
        let mut tally = Tally::default();
        let mut to_write = Vec::new();
        for page in listings {
            let key = self.listing_key(&page, done).hex();
            match self.staging.current_part(&key, self.how.takes_incomplete()) {
                Some(record) => {
                    self.staging.keep(&record.files);
                    parts.push(record.clone());
                    tally = tally
                        + Tally {
                            reused: 1,
                            ..Tally::of_records(&record.files)
                        };
                }
                None => to_write.push((key, page)),
            }
        }
        let needed: std::collections::BTreeSet<usize> = to_write
            .iter()
            .flat_map(|(_, page)| page.games.clone())
            .collect();
        self.cards_of_the_rest(done, &needed)?;
        let written: Vec<(Tally, manifest::PartRecord)> = to_write
            .into_par_iter()
            .with_max_len(1)
            .map(|(key, page)| {
                let (done, records) = write_home_page(page, self.how, self.staging)?;
                let record = manifest::PartRecord {
                    key,
                    complete: done.deferred == 0,
                    files: Arc::new(records),
                };
                Ok((done, record))
            })
            .collect::<anyhow::Result<_>>()?;
        for (done, record) in written {
            tally = tally + done;
            parts.push(record);
        }
        Ok(tally)
    }

    /// The key of one page that lists games: its path, what it shows
    /// besides its games ([`pages::HomePage::frame`]) and what each of
    /// its games shows there.
    fn listing_key(&self, page: &pages::HomePage, done: &[GameDone]) -> Key {
        let compression = self.how.compression.cache_key();
        let mut named: Vec<&[u8]> = vec![
            b"listing-page",
            compression.as_bytes(),
            self.how.site_key(),
            page.path.as_bytes(),
            page.frame(),
        ];
        named.extend(
            done.get(page.games.clone())
                .unwrap_or_default()
                .iter()
                .map(|g| g.record.home.as_bytes()),
        );
        Key::new(&self.how.salt, &named)
    }

    /// Renders the home page cards of the games at the positions `needed`
    /// that the cards do not hold as they are now (games this build took
    /// from the output as they were, and whose cards no build before it
    /// in this process kept), loading and validating them again.
    fn cards_of_the_rest(
        &self,
        done: &[GameDone],
        needed: &std::collections::BTreeSet<usize>,
    ) -> anyhow::Result<()> {
        let missing: Vec<usize> = needed
            .iter()
            .copied()
            .filter(|&position| {
                let (Some(game), Some(done)) = (self.registry.get(position), done.get(position))
                else {
                    return false;
                };
                !self.cards.has(&game.id, &done.record.home)
            })
            .collect();
        missing.into_par_iter().try_for_each(|position| {
            let (game, done) = (&self.registry[position], &done[position]);
            let output = self.from.load_again(game)?;
            let home = pages::HomeGame::of(&output);
            anyhow::ensure!(
                home_digest(&home) == done.record.home,
                msg!("build-files-changed", game = game.id.as_str())
            );
            self.cards.put(
                &game.id,
                &done.record.home,
                &home,
                &self.home_locale,
                self.how.site_url,
            )
        })
    }

    /// Runs `files`, rendered already, as one part each, keyed by their
    /// bytes under `label`, and records them in `parts`.
    fn run_ready(
        &self,
        files: Vec<OutputFile>,
        label: &[u8],
        parts: &mut Vec<manifest::PartRecord>,
    ) -> anyhow::Result<Tally> {
        let compression = self.how.compression.cache_key();
        let made_from = self.made_from.lock().unwrap_or_else(|p| p.into_inner());
        let ready: Vec<Part<'_>> = files
            .into_iter()
            .map(|file| {
                let made_from = made_from.get(&file.path);
                Part {
                    key: ready_key(
                        &self.how.salt,
                        compression.as_bytes(),
                        label,
                        &file,
                        made_from,
                    ),
                    work: Work::Ready(file),
                }
            })
            .collect();
        drop(made_from);
        run_parts(ready, self.how, self.staging, parts)
    }

    /// The kept files, after every generated path is written: a kept file
    /// never replaces one.
    fn kept_files(&self, parts: &mut Vec<manifest::PartRecord>) -> anyhow::Result<Tally> {
        let mut files = Vec::new();
        for (source, file) in kept::outputs(&self.from.prepared.tree)? {
            if self.staging.holds(&file.path) || file.path == layout::LLMS_PATH {
                return Err(kept::clash(&source, &file.path));
            }
            files.push(file);
        }
        self.run_ready(files, b"kept", parts)
    }

    /// `llms.txt`, last: it names what the build published, a kept
    /// announcements document included.
    fn llms_txt(
        &self,
        games: &[GameOutput],
        shape: &[u8; 32],
        parts: &mut Vec<manifest::PartRecord>,
    ) -> anyhow::Result<Tally> {
        let starts: Vec<String> = kinds::all()
            .filter_map(|kind| kind.llms_start())
            .filter(|(path, _)| self.staging.holds(path))
            .map(|(_, line)| line)
            .collect();
        let mut key: Vec<&[u8]> = vec![b"llms", self.how.site_key(), shape];
        key.extend(starts.iter().map(String::as_bytes));
        let files = self.kept_outputs("llms", digest_of(key), || {
            Ok(vec![llms::render(games, &starts, self.how.site_url)])
        })?;
        self.run_ready(files, b"file", parts)
    }
}

/// The key of a part made of one file rendered already: its bytes, or
/// the digest of what it was made from (`made_from`, when the build
/// knows it: the same inputs make the same bytes).
fn ready_key(
    salt: &CacheSalt,
    compression: &[u8],
    kind: &[u8],
    file: &OutputFile,
    made_from: Option<&[u8; 32]>,
) -> Key {
    match made_from {
        Some(digest) => Key::new(
            salt,
            &[
                kind,
                compression,
                file.path.as_bytes(),
                b"made-from",
                digest,
            ],
        ),
        None => Key::new(
            salt,
            &[kind, compression, file.path.as_bytes(), &file.bytes],
        ),
    }
}

/// Runs `parts` (each taken from the output when it holds that part's
/// files already) and records each in `records`.
fn run_parts(
    parts: Vec<Part<'_>>,
    how: &Render<'_>,
    staging: &write::Staging,
    records: &mut Vec<manifest::PartRecord>,
) -> anyhow::Result<Tally> {
    let done: Vec<(Tally, manifest::PartRecord)> = parts
        .into_par_iter()
        .map(|part| {
            let key = part.key.hex();
            if let Some(record) = staging.current_part(&key, how.takes_incomplete()) {
                staging.keep(&record.files);
                let tally = Tally {
                    reused: 1,
                    ..Tally::of_records(&record.files)
                };
                return Ok((tally, record.clone()));
            }
            let (tally, files) = run_part(part, how, staging)?;
            Ok((
                tally,
                manifest::PartRecord {
                    key,
                    complete: tally.deferred == 0,
                    files: Arc::new(files),
                },
            ))
        })
        .collect::<anyhow::Result<_>>()?;
    let mut tally = Tally::default();
    for (counted, record) in done {
        tally = tally + counted;
        records.push(record);
    }
    Ok(tally)
}

/// Runs one part: takes its files from the cache, or renders them, writes
/// them, compresses the text files among them ([`siblings_of`]) and writes
/// and stores the siblings (unless compression was deferred). Returns the
/// records of the files written.
fn run_part(
    part: Part<'_>,
    how: &Render<'_>,
    staging: &write::Staging,
) -> anyhow::Result<(Tally, Vec<manifest::FileRecord>)> {
    if let Some(cache) = how.cache
        && let Some(entries) = cache.get(&part.key)
    {
        let files: Vec<OutputFile> = entries.into_iter().map(|e| e.file).collect();
        let records = staging.write(&files)?;
        return Ok((
            Tally {
                reused: 1,
                ..Tally::of(&files)
            },
            records,
        ));
    }
    let files = render_work(part.work, how)?;
    let (written, compressed) = rayon::join(|| staging.write(&files), || siblings_of(&files, how));
    let mut records = written?;
    let deferred = if how.defers() {
        files.iter().filter(|f| layout::is_text(&f.path)).count()
    } else {
        0
    };
    let mut entries = Vec::with_capacity(files.len() * 3);
    for (file, siblings) in files.into_iter().zip(compressed) {
        entries.push(cache::Entry {
            file,
            sibling: false,
        });
        entries.extend(siblings.into_iter().map(|file| cache::Entry {
            file,
            sibling: true,
        }));
    }
    let siblings: Vec<OutputFile> = entries
        .iter()
        .filter(|e| e.sibling)
        .map(|e| e.file.clone())
        .collect();
    records.extend(staging.write(&siblings)?);
    // A failed cache write costs the next build time, nothing else.
    let stored = deferred == 0
        && how
            .cache
            .is_some_and(|cache| cache.put(&part.key, &entries).is_ok());
    let mut tally = Tally::of(entries.iter().map(|e| &e.file));
    tally.rendered = 1;
    tally.stored = usize::from(stored);
    tally.deferred = deferred;
    Ok((tally, records))
}

/// The files of a part's work, rendered.
fn render_work(work: Work<'_>, how: &Render<'_>) -> anyhow::Result<Vec<OutputFile>> {
    Ok(match work {
        Work::Api(game, doc, json) => {
            let mut files = doc_api_files(game, doc, json);
            files.extend(ics::calendars_of(game, doc));
            files
        }
        Work::Page(game, doc, site_locale) => {
            vec![pages::render_page(game, doc, site_locale, how.site_url)?]
        }
        Work::Ready(file) => vec![file],
    })
}

/// The precompressed siblings this build writes now of each of `files`
/// ([`Render::siblings_now`]): identical files are compressed once (a
/// game's default-locale document under two names), and each gets the
/// siblings of its first copy, renamed.
fn siblings_of(files: &[OutputFile], how: &Render<'_>) -> Vec<Vec<OutputFile>> {
    let (gzip, brotli) = how.siblings_now();
    let mut first: std::collections::HashMap<&[u8], usize> = Default::default();
    let sources: Vec<usize> = files
        .iter()
        .enumerate()
        .map(|(i, file)| *first.entry(&file.bytes).or_insert(i))
        .collect();
    let unique: Vec<Vec<OutputFile>> = (0..files.len())
        .into_par_iter()
        .map(|i| {
            if gzip && sources[i] == i {
                compress::siblings(&files[i], how.compression, brotli)
            } else {
                Vec::new()
            }
        })
        .collect();
    files
        .iter()
        .zip(&sources)
        .map(|(file, &s)| {
            unique[s]
                .iter()
                .map(|sib| OutputFile {
                    path: format!("{}{}", file.path, &sib.path[files[s].path.len()..]),
                    bytes: sib.bytes.clone(),
                })
                .collect()
        })
        .collect()
}

impl Render<'_> {
    /// Whether this build writes siblings now, and brotli ones among them
    /// ([`Defer`]).
    fn siblings_now(&self) -> (bool, bool) {
        match self.defer {
            Defer::Nothing => (true, true),
            Defer::Brotli => (true, false),
            Defer::All => (false, false),
        }
    }

    /// Whether a game or part the output holds without some of its
    /// siblings may be taken as it is: when this build defers some itself.
    fn takes_incomplete(&self) -> bool {
        self.defer != Defer::Nothing
    }

    /// Whether a text file written now lacks a sibling its level has.
    fn defers(&self) -> bool {
        let (gzip, brotli) = self.siblings_now();
        !((gzip || self.compression == Compression::None)
            && (brotli || !self.compression.has_brotli()))
    }
}

/// Writes one home page as it is rendered, straight into the staging
/// folder, and its siblings from the file: a home page lists every game's
/// activities, tens of megabytes on a large site, so it is never held
/// whole in memory. The cache keeps its siblings only (the page itself is
/// in the output), keyed by the page's checksum. Returns the tally and
/// the records.
fn write_home_page(
    page: pages::HomePage,
    how: &Render<'_>,
    staging: &write::Staging,
) -> anyhow::Result<(Tally, Vec<manifest::FileRecord>)> {
    let record = staging.write_streamed(&page.path, |out| page.write_to(out))?;
    drop(page);
    let compression = how.compression.cache_key();
    let key = Key::new(
        &how.salt,
        &[
            b"home-page",
            compression.as_bytes(),
            record.path.as_bytes(),
            record.sha256.as_bytes(),
        ],
    );
    let mut records = vec![record];
    if let Some(cache) = how.cache
        && let Some(entries) = cache.get(&key)
    {
        let siblings: Vec<OutputFile> = entries.into_iter().map(|e| e.file).collect();
        records.extend(staging.write(&siblings)?);
        let tally = Tally {
            reused: 1,
            ..Tally::of_records(&records)
        };
        return Ok((tally, records));
    }
    let page = &records[0];
    let (gzip, brotli) = how.siblings_now();
    let siblings = if gzip {
        let file = std::io::BufReader::new(staging.open_written(&page.path)?);
        compress::siblings_from(&page.path, page.bytes, file, how.compression, brotli)
            .with_context(|| msg!("err-read", path = page.path.clone()))?
    } else {
        Vec::new()
    };
    let deferred = usize::from(how.defers() && layout::is_text(&page.path));
    let siblings: Vec<cache::Entry> = siblings
        .into_iter()
        .map(|file| cache::Entry {
            file,
            sibling: true,
        })
        .collect();
    let files: Vec<OutputFile> = siblings.iter().map(|e| e.file.clone()).collect();
    records.extend(staging.write(&files)?);
    // A failed cache write costs the next build time, nothing else.
    let stored = deferred == 0
        && how
            .cache
            .is_some_and(|cache| cache.put(&key, &siblings).is_ok());
    let tally = Tally {
        rendered: 1,
        stored: usize::from(stored),
        deferred,
        ..Tally::of_records(&records)
    };
    Ok((tally, records))
}

impl Tally {
    /// The count and bytes of the files `records` name.
    fn of_records(records: &[manifest::FileRecord]) -> Tally {
        let mut tally = Tally::default();
        for record in records {
            tally.files += 1;
            tally.bytes += record.bytes;
        }
        tally
    }

    /// The count and bytes of `files`.
    fn of<'a>(files: impl IntoIterator<Item = &'a OutputFile>) -> Tally {
        let mut tally = Tally::default();
        for file in files {
            tally.files += 1;
            tally.bytes += file.bytes.len() as u64;
        }
        tally
    }
}
