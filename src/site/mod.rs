//! The builder: a validated data tree to the files of `site/`. No HTTP, no async.
//!
//! [`build`] checks the tree first; with any error it writes nothing. Otherwise
//! it makes a plan of parts, each a pure function of named inputs: per
//! document, its JSON files and calendars (from the game's registry entry,
//! its locales and the validated document), and its page (the same plus
//! "now"); then the shared files (the index, which takes each game's
//! summary, the home page, the schema, `404.html`, `_headers`). Each part is
//! taken from the build [`cache`] when its key (the inputs, the tool's
//! version and the templates) is known, else rendered; the text of every
//! rendered part is then compressed on every core (rayon), largest file
//! first, and stored. The files ([`OutputFile`]) are written into a staging
//! directory beside the output (files the previous site holds byte for byte
//! are hard-linked from it), which is swapped in with a rename. Times are
//! parsed once, into [`DocumentTimes`], when a document enters the plan.

pub mod cache;
pub mod diff;
pub mod ics;
pub mod pages;
pub mod publish;
pub mod status;
mod write;

pub use write::{OUTPUT_MARKER, OutputState, guard_output, inspect_output};

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Context as _;
use chrono::{NaiveDateTime, Timelike as _};
use rayon::prelude::*;
use sha2::{Digest, Sha256};

use crate::diagnostics::{self, Diagnostic};
use crate::layout;
use crate::load;
use crate::model::{ActivityDocument, Game, Registry, parse_time, to_pretty};
use crate::source::{Overlay, REGISTRY_PATH};
use crate::validate::{self, CheckedGame, Validator};

pub use cache::CacheSalt;
use cache::Key;

/// What to build and where.
#[derive(Debug, Clone, Default)]
pub struct BuildOptions {
    /// Root of the data tree.
    pub root: PathBuf,
    /// Output directory, replaced atomically on success.
    pub out: PathBuf,
    /// "Now" for status marks and staleness; `None` means the clock (read
    /// to the minute, which is all the pages show).
    pub now: Option<NaiveDateTime>,
    /// Where rendered and compressed files are kept between builds; `None`
    /// renders and compresses everything.
    pub cache: Option<CacheOptions>,
    /// Leaves out the brotli siblings that are not cached yet, for a build
    /// that must show soon; a later build without it adds them (`serve`).
    pub defer_brotli: bool,
    /// Replace an unmarked non-empty output directory (never the root or
    /// the inputs); see [`inspect_output`].
    pub force: bool,
}

impl BuildOptions {
    /// Builds `root` into `out` with the cache in its default place.
    pub fn new(root: impl Into<PathBuf>, out: impl Into<PathBuf>) -> Self {
        let root = root.into();
        BuildOptions {
            cache: Some(CacheOptions::new(CacheOptions::default_dir(&root))),
            root,
            out: out.into(),
            now: None,
            defer_brotli: false,
            force: false,
        }
    }
}

/// Where the build cache lives and what its keys include.
#[derive(Debug, Clone)]
pub struct CacheOptions {
    pub dir: PathBuf,
    pub salt: CacheSalt,
}

impl CacheOptions {
    /// The cache in `dir`, with this binary's salt.
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        CacheOptions {
            dir: dir.into(),
            salt: CacheSalt::current(),
        }
    }

    /// `<root>/.activity-site/cache`: beside the state of `serve`, git-ignored.
    pub fn default_dir(root: &Path) -> PathBuf {
        root.join(".activity-site").join("cache")
    }
}

/// The result of a build: the diagnostics, and a summary when files were written.
#[derive(Debug, Clone)]
pub struct BuildOutcome {
    /// Every diagnostic of the check that ran first (warnings included).
    pub diagnostics: Vec<Diagnostic>,
    /// `None` when the check found errors and nothing was written.
    pub summary: Option<BuildSummary>,
}

/// What a successful build wrote.
#[derive(Debug, Clone)]
pub struct BuildSummary {
    pub files: usize,
    pub bytes: u64,
    pub elapsed: Duration,
    /// Parts of the plan (a game's documents and calendars, a game's pages,
    /// one shared file) taken from the cache.
    pub reused: usize,
    /// Parts rendered and compressed by this build.
    pub rendered: usize,
    /// Text files written without their brotli sibling (`defer_brotli`).
    pub deferred: usize,
}

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
    /// The activity schema the tree was checked against (published as is).
    pub activity_schema: serde_json::Value,
}

impl Checked {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Loads and checks the tree under `root`, game by game on every core.
/// With `keep_documents` false, no typed documents are built and each game
/// is dropped once checked, so memory is bounded by the largest game.
pub fn check(
    root: &Path,
    options: &validate::Options,
    keep_documents: bool,
) -> anyhow::Result<Checked> {
    check_with(root, &Overlay::new(), options, keep_documents)
}

/// [`check`] with the texts of `overlay` read in place of the files on disk
/// (unsaved editor buffers, an agent's draft); nothing is written.
pub fn check_with(
    root: &Path,
    overlay: &Overlay,
    options: &validate::Options,
    keep_documents: bool,
) -> anyhow::Result<Checked> {
    let project = load::open_with(root, overlay)?;
    let validator = Validator::new(&project)?;
    let (games, mut all) = validator.registry(&project);
    let checked: Vec<CheckedGame> = games
        .par_iter()
        .map(|game| {
            let loaded = load::load_game_with(root, game, overlay);
            validator.game(&loaded, options, keep_documents)
        })
        .collect();
    let mut games = Vec::with_capacity(checked.len());
    for mut game in checked {
        all.append(&mut game.diagnostics);
        games.push(game);
    }
    diagnostics::sort(&mut all);
    Ok(Checked {
        games,
        diagnostics: all,
        activity_schema: project.activity_schema,
    })
}

/// The canonical text of the source file `path` (`games.json` or a data
/// file), as `fmt` writes it; `None` when `text` does not parse as one.
/// Only meaningful for a file the check found no error in.
pub fn canonical_text(path: &str, text: &str) -> Option<String> {
    if path == REGISTRY_PATH {
        serde_json::from_str::<Registry>(text)
            .ok()
            .map(|r| r.to_canonical())
    } else {
        serde_json::from_str::<ActivityDocument>(text)
            .ok()
            .map(|d| d.to_canonical(true))
    }
}

/// Checks the tree and, when it has no errors, writes the site atomically.
/// `Err` only when the tool itself fails (unreadable root, unwritable output,
/// a cache directory it does not own).
pub fn build(options: &BuildOptions) -> anyhow::Result<BuildOutcome> {
    let started = Instant::now();
    write::guard_output(&options.root, &options.out, options.force)?;
    if let Some(cache) = &options.cache {
        guard_cache(&cache.dir, &options.out)?;
    }
    let check_options = validate::Options { now: options.now };
    let checked = check(&options.root, &check_options, true)?;
    if checked.has_errors() {
        return Ok(BuildOutcome {
            diagnostics: checked.diagnostics,
            summary: None,
        });
    }
    let cache = match &options.cache {
        Some(c) => Some((cache::Cache::open(&c.dir)?, &c.salt)),
        None => None,
    };
    // The files that need no compression are written while the rest is
    // compressed; then the compressed siblings, and the swap.
    let staging = write::Staging::create(&options.out)?;
    let rendered = render(
        &checked,
        &Render {
            now: options.now,
            cache: cache.as_ref().map(|(c, salt)| (c, *salt)),
            defer_brotli: options.defer_brotli,
        },
        |early| staging.write(early),
    )?;
    let files = rendered.files;
    let late: Vec<OutputFile> = files
        .iter()
        .filter(|f| !rendered.early.contains(&f.path))
        .cloned()
        .collect();
    staging.write(&late)?;
    staging.commit()?;
    let bytes = files.iter().map(|f| f.bytes.len() as u64).sum();
    let count = files.len();
    if let Some((cache, _)) = &cache
        && rendered.stored > 0
    {
        cache.sweep();
    }
    Ok(BuildOutcome {
        diagnostics: checked.diagnostics,
        summary: Some(BuildSummary {
            files: count,
            bytes,
            elapsed: started.elapsed(),
            reused: rendered.reused,
            rendered: rendered.rendered,
            deferred: rendered.deferred,
        }),
    })
}

/// Refuses a cache directory inside the output, which every build replaces.
fn guard_cache(dir: &Path, out: &Path) -> anyhow::Result<()> {
    let resolve = |p: &Path| -> anyhow::Result<PathBuf> {
        let p = std::path::absolute(p).with_context(|| format!("bad path `{}`", p.display()))?;
        Ok(std::fs::canonicalize(&p).unwrap_or(p))
    };
    anyhow::ensure!(
        !resolve(dir)?.starts_with(resolve(out)?),
        "refusing to keep the build cache `{}` inside the output `{}`: every build replaces it\n\
         help: pass a --cache-dir outside the output directory",
        dir.display(),
        out.display()
    );
    Ok(())
}

/// The games of a clean check as the renderers see them.
pub fn outputs(checked: &Checked) -> Vec<GameOutput> {
    checked
        .games
        .iter()
        .map(|g| GameOutput {
            game: g.game.clone(),
            documents: g
                .documents
                .iter()
                .filter_map(|(locale, doc)| {
                    Some(LocaleDocument::new(
                        locale,
                        *locale == g.game.default_locale,
                        doc.clone()?,
                    ))
                })
                .collect(),
        })
        .collect()
}

/// How to render: "now", the cache, and whether brotli may wait.
pub(crate) struct Render<'a> {
    /// `None`: the clock, read to the minute in the default time zone.
    pub now: Option<NaiveDateTime>,
    pub cache: Option<(&'a cache::Cache, &'a CacheSalt)>,
    pub defer_brotli: bool,
}

/// The files of a render and where they came from.
pub(crate) struct Rendered {
    /// Every file of the site, sorted by path.
    pub files: Vec<OutputFile>,
    /// The paths of the files handed to the `early` hook of [`render`].
    pub early: std::collections::HashSet<String>,
    pub reused: usize,
    pub rendered: usize,
    /// Entries written to the cache.
    pub stored: usize,
    pub deferred: usize,
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
    /// A document's page at `now`.
    Page(&'a GameOutput, &'a LocaleDocument, NaiveDateTime),
    /// A file that is cheap to render, rendered already: keyed by its bytes,
    /// so only its compression is saved.
    Ready(OutputFile),
}

/// Renders every file of the site in memory, in a stable order: games in
/// parallel, each part taken from the cache when its inputs are unchanged.
///
/// `early` gets the files known once every part is looked up (the cached
/// parts whole, the rendered parts without their compressed siblings), on
/// one core while the others compress: `build` writes them into the staging
/// directory there. [`Rendered::early`] names them.
pub(crate) fn render(
    checked: &Checked,
    how: &Render<'_>,
    early: impl FnOnce(&[OutputFile]) -> anyhow::Result<()> + Send,
) -> anyhow::Result<Rendered> {
    let games = outputs(checked);
    // Pages mark activities relative to "now", read in the default time zone.
    let now = how.now.unwrap_or_else(|| {
        let now = chrono::Utc::now()
            .with_timezone(&chrono_tz::Asia::Shanghai)
            .naive_local();
        now.with_second(0)
            .and_then(|t| t.with_nanosecond(0))
            .unwrap_or(now)
    });
    let now_text = now.format("%Y-%m-%dT%H:%M:%S%.f").to_string();
    let default_salt = CacheSalt::current();
    let salt = how.cache.map_or(&default_salt, |(_, salt)| salt);

    // The inputs: each game's registry entry and its canonical documents.
    let inputs: Vec<(Vec<u8>, Vec<Vec<u8>>)> = games
        .par_iter()
        .map(|g| {
            let entry = serde_json::to_vec(&g.game).unwrap_or_default();
            (
                entry,
                g.documents.iter().map(LocaleDocument::to_json).collect(),
            )
        })
        .collect();

    // One part per document and output kind: editing one locale's file
    // renders and compresses that locale's files only. A document's files
    // depend on the game's registry entry, the locales it has documents in
    // (the pages link to each other), and the document itself.
    let mut parts = Vec::with_capacity(games.len() * 4 + 5);
    for (game, (entry, json)) in games.iter().zip(&inputs) {
        let locales: Vec<u8> = game
            .documents
            .iter()
            .flat_map(|d| [d.locale.as_bytes(), if d.is_default { b"*;" } else { b";" }])
            .flatten()
            .copied()
            .collect();
        for (doc, bytes) in game.documents.iter().zip(json) {
            let named: [&[u8]; 6] = [
                b"game",
                entry,
                &locales,
                doc.locale.as_bytes(),
                if doc.is_default { b"default" } else { b"other" },
                bytes,
            ];
            parts.push(Part {
                key: Key::new(salt, false, &[&[b"api".as_slice()], &named[..]].concat()),
                work: Work::Api(game, doc, bytes),
            });
            parts.push(Part {
                key: Key::new(
                    salt,
                    true,
                    &[&[b"page".as_slice(), now_text.as_bytes()], &named[..]].concat(),
                ),
                work: Work::Page(game, doc, now),
            });
        }
    }
    let shared = [
        (index_file(&games, &inputs), false),
        (
            OutputFile {
                path: layout::SCHEMA_PATH.to_owned(),
                bytes: to_pretty(&checked.activity_schema).into_bytes(),
            },
            false,
        ),
        (pages::render_index(&games, now)?, true),
        (pages::render_not_found()?, false),
        (publish::render_headers(&games), false),
    ];
    for (file, now_dependent) in shared {
        parts.push(Part {
            key: Key::new(
                salt,
                now_dependent,
                &[b"file", file.path.as_bytes(), &file.bytes],
            ),
            work: Work::Ready(file),
        });
    }

    let Ran {
        done,
        early,
        primary,
    } = run_parts(parts, how, early)?;

    let mut rendered = Rendered {
        early,
        files: Vec::new(),
        reused: 0,
        rendered: 0,
        stored: 0,
        deferred: 0,
    };
    let mut entries = Vec::new();
    for part in done {
        if part.hit {
            rendered.reused += 1;
        } else {
            rendered.rendered += 1;
        }
        rendered.stored += usize::from(part.stored);
        rendered.deferred += part.deferred;
        entries.extend(part.entries);
    }
    // A sibling never replaces a file of the same name.
    rendered.files = entries
        .into_iter()
        .filter(|e| !e.sibling || !primary.contains(&e.file.path))
        .map(|e| e.file)
        .collect();
    rendered.files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(rendered)
}

/// What the plan produced: each part's files, the paths handed to the
/// `early` hook, and the paths of every primary (not sibling) file.
struct Ran {
    done: Vec<Done>,
    early: std::collections::HashSet<String>,
    primary: std::collections::HashSet<String>,
}

/// What one part produced.
struct Done {
    entries: Vec<cache::Entry>,
    hit: bool,
    stored: bool,
    deferred: usize,
}

/// A part after its cache lookup: its entries, or its rendered files still
/// to be compressed.
enum Looked {
    Hit(Vec<cache::Entry>),
    Miss { key: Key, files: Vec<OutputFile> },
}

/// Runs the plan in three steps: every part is looked up in the cache or
/// rendered (in parallel); then the text files of every rendered part are
/// compressed, largest first, so that after a one-file edit the one big
/// page does not wait behind small files on the same core; then each
/// rendered part is assembled and stored (unless its brotli was deferred).
fn run_parts(
    parts: Vec<Part<'_>>,
    how: &Render<'_>,
    early: impl FnOnce(&[OutputFile]) -> anyhow::Result<()> + Send,
) -> anyhow::Result<Ran> {
    let looked: Vec<Looked> = parts
        .into_par_iter()
        .with_max_len(1)
        .map(|part| look_up_or_render(part, how))
        .collect::<anyhow::Result<_>>()?;

    // What is known now: every primary file, and the cached siblings (a
    // sibling never replaces a file of the same name).
    let mut primary = std::collections::HashSet::new();
    for part in &looked {
        match part {
            Looked::Hit(entries) => primary.extend(
                entries
                    .iter()
                    .filter(|e| !e.sibling)
                    .map(|e| e.file.path.clone()),
            ),
            Looked::Miss { files, .. } => primary.extend(files.iter().map(|f| f.path.clone())),
        }
    }
    let known: Vec<OutputFile> = looked
        .iter()
        .flat_map(|part| match part {
            Looked::Hit(entries) => entries
                .iter()
                .filter(|e| !e.sibling || !primary.contains(&e.file.path))
                .map(|e| e.file.clone())
                .collect::<Vec<_>>(),
            Looked::Miss { files, .. } => files.clone(),
        })
        .collect();

    // Identical files of a part (a game's default-locale document under two
    // names) are compressed once: `first` maps each file to its source.
    let mut jobs: Vec<(usize, usize)> = Vec::new();
    let mut sources: Vec<Vec<usize>> = Vec::with_capacity(looked.len());
    for (p, part) in looked.iter().enumerate() {
        let mut source = Vec::new();
        if let Looked::Miss { files, .. } = part {
            let mut first: std::collections::HashMap<&[u8], usize> = Default::default();
            for (i, file) in files.iter().enumerate() {
                let s = *first.entry(&file.bytes).or_insert(i);
                if s == i {
                    jobs.push((p, i));
                }
                source.push(s);
            }
        }
        sources.push(source);
    }
    let size = |&(p, i): &(usize, usize)| match &looked[p] {
        Looked::Miss { files, .. } => files[i].bytes.len(),
        Looked::Hit(_) => 0,
    };
    jobs.sort_by_key(|job| std::cmp::Reverse(size(job)));
    let brotli = !how.defer_brotli;
    let (handed, compressed) = rayon::join(
        || early(&known),
        || -> Vec<Vec<OutputFile>> {
            jobs.par_iter()
                .with_max_len(1)
                .map(|&(p, i)| match &looked[p] {
                    Looked::Miss { files, .. } => publish::siblings(&files[i], brotli),
                    Looked::Hit(_) => Vec::new(),
                })
                .collect()
        },
    );
    handed?;
    let early_paths = known.into_iter().map(|f| f.path).collect();
    let siblings: std::collections::HashMap<(usize, usize), Vec<OutputFile>> =
        jobs.into_iter().zip(compressed).collect();

    let mut done = Vec::with_capacity(looked.len());
    let mut to_store = Vec::new();
    for (p, (part, source)) in looked.into_iter().zip(sources).enumerate() {
        let (key, files) = match part {
            Looked::Hit(entries) => {
                done.push(Done {
                    entries,
                    hit: true,
                    stored: false,
                    deferred: 0,
                });
                continue;
            }
            Looked::Miss { key, files } => (key, files),
        };
        let deferred = if brotli {
            0
        } else {
            files.iter().filter(|f| layout::is_text(&f.path)).count()
        };
        let mut entries = Vec::with_capacity(files.len() * 3);
        for (file, &s) in files.iter().zip(&source) {
            let own = siblings.get(&(p, s)).map(Vec::as_slice).unwrap_or_default();
            entries.push(cache::Entry {
                file: file.clone(),
                sibling: false,
            });
            entries.extend(own.iter().map(|sib| cache::Entry {
                file: OutputFile {
                    path: format!("{}{}", file.path, &sib.path[files[s].path.len()..]),
                    bytes: sib.bytes.clone(),
                },
                sibling: true,
            }));
        }
        if deferred == 0 {
            to_store.push((done.len(), key));
        }
        done.push(Done {
            entries,
            hit: false,
            stored: false,
            deferred,
        });
    }
    if let Some((cache, _)) = how.cache {
        // A failed write costs the next build time, nothing else.
        let stored: Vec<usize> = to_store
            .par_iter()
            .filter(|(i, key)| cache.put(key, &done[*i].entries).is_ok())
            .map(|(i, _)| *i)
            .collect();
        for i in stored {
            done[i].stored = true;
        }
    }
    Ok(Ran {
        done,
        early: early_paths,
        primary,
    })
}

/// Takes a part from the cache, or renders its files (uncompressed).
fn look_up_or_render(part: Part<'_>, how: &Render<'_>) -> anyhow::Result<Looked> {
    if let Some((cache, _)) = how.cache
        && let Some(entries) = cache.get(&part.key)
    {
        return Ok(Looked::Hit(entries));
    }
    let files = match part.work {
        Work::Api(game, doc, json) => {
            let mut files = doc_api_files(game, doc, json);
            files.extend(ics::calendars_of(game, doc));
            files
        }
        Work::Page(game, doc, now) => vec![pages::render_page(game, doc, now)?],
        Work::Ready(file) => vec![file],
    };
    Ok(Looked::Miss {
        key: part.key,
        files,
    })
}

/// The JSON API: `<game>.json` for the default locale and `<game>-<locale>.json` for every locale.
pub fn api_files(games: &[GameOutput]) -> Vec<OutputFile> {
    games
        .iter()
        .flat_map(|game| {
            let json: Vec<Vec<u8>> = game.documents.iter().map(LocaleDocument::to_json).collect();
            api_files_of(game, &json)
        })
        .collect()
}

/// The JSON API files of one game, given its documents' JSON (one per document).
fn api_files_of(game: &GameOutput, json: &[Vec<u8>]) -> Vec<OutputFile> {
    game.documents
        .iter()
        .zip(json)
        .flat_map(|(doc, bytes)| doc_api_files(game, doc, bytes))
        .collect()
}

/// The JSON API files of one document: `<game>.json` too for the default locale.
fn doc_api_files(game: &GameOutput, doc: &LocaleDocument, bytes: &[u8]) -> Vec<OutputFile> {
    let mut files = Vec::with_capacity(2);
    if doc.is_default {
        files.push(OutputFile {
            path: layout::activity_path(&game.game, &doc.locale, true, "json"),
            bytes: bytes.to_vec(),
        });
    }
    files.push(OutputFile {
        path: layout::activity_path(&game.game, &doc.locale, false, "json"),
        bytes: bytes.to_vec(),
    });
    files
}

/// `api/v1/games.json` ([`layout::Index`]): what a client needs to find every file.
/// `inputs` holds each game's documents' JSON, in the order of its documents.
fn index_file(games: &[GameOutput], inputs: &[(Vec<u8>, Vec<Vec<u8>>)]) -> OutputFile {
    let mut entries = Vec::new();
    for (game, (_, json)) in games.iter().zip(inputs) {
        let Some(default) = game.documents.iter().find(|d| d.is_default) else {
            continue;
        };
        let mut files = Vec::new();
        for (doc, bytes) in game.documents.iter().zip(json) {
            let sha256 = hex::encode(Sha256::digest(bytes));
            let mut names = vec![false];
            if doc.is_default {
                names.insert(0, true);
            }
            for default_name in names {
                let path = |ext| layout::activity_path(&game.game, &doc.locale, default_name, ext);
                files.push(layout::IndexFile {
                    locale: doc.locale.clone(),
                    default: default_name,
                    path: layout::url(&path("json")),
                    calendar: layout::url(&path("ics")),
                    sha256: sha256.clone(),
                    bytes: bytes.len() as u64,
                });
            }
        }
        entries.push(layout::IndexGame {
            id: game.game.id.clone(),
            name: Some(game.game.name.clone()),
            locales: game.game.locales.clone(),
            default_locale: Some(game.game.default_locale.clone()),
            time_zone: Some(game.game.time_zone_name().to_owned()),
            data_source: Some(game.game.data_source.clone()),
            version: default.document.version.clone(),
            version_name: default.document.version_name.clone(),
            start_time: default.document.start_time.clone(),
            end_time: default.document.end_time.clone(),
            files,
        });
    }
    OutputFile {
        path: layout::INDEX_PATH.to_owned(),
        bytes: to_pretty(&layout::Index { games: entries }).into_bytes(),
    }
}
