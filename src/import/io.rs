//! The I/O of an import, around the pure mapping of [`crate::import`]:
//! reading the published files from a folder or fetching them from a
//! deployed site (through [`crate::fetch`], with its limits), reading the
//! root's `games.json`, comparing the planned files with the root, and
//! writing them (through [`crate::atomic`]).
//!
//! The only part of `import` that touches the file system or the network.
//! It prints nothing: what a command should say comes back as values, and
//! as [`Event`]s while the files are fetched.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context as _;

use super::{
    IndexGame, Inputs, Legacy, LegacyChoice, NameFrom, PlannedGame, Recognised, Source, Wanted,
    ZoneFrom,
};
use crate::atomic;
use crate::fetch::{self, FetchError, Fetcher};
use crate::i18n::{self, Msg, msg};
use crate::kind::{self, Kind};
use crate::layout::{self, Naming};
use crate::source::BUILTIN_GAMES_SCHEMA;
use crate::tree::{self, REGISTRY_PATH};

/// What to read, as `import --from` names it.
#[derive(Debug, Clone)]
pub struct Request<'a> {
    /// A folder, or the http(s) base URL of a deployed site.
    pub from: &'a str,
    /// Only these games; for a site without an index, the games to fetch.
    pub games: &'a [String],
    /// For a site without an index: the locales to fetch besides the default one.
    pub locales: &'a [String],
    /// The locale of an un-suffixed file no index or registry explains.
    pub default_locale: &'a str,
    /// For each request to a site.
    pub timeout: Duration,
    /// Keep the files the build does not generate in `data/_files/`.
    pub keep_unknown: bool,
    /// The root imported into: its `games.json` names locales a site
    /// without an index may have.
    pub root: &'a Path,
    /// What to do with a legacy file that is one game's document.
    pub legacy: Option<LegacyChoice>,
}

/// What happens while [`gather`] reads a site.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// Something the user should know that does not stop the import.
    Note(Msg),
    /// This many files are about to be fetched.
    Fetching(usize),
    /// One of them arrived (or failed).
    Fetched,
}

/// One document found of a kind published once per locale (an
/// announcements board).
#[derive(Debug, Clone)]
pub struct FoundDocument {
    pub kind: &'static Kind,
    /// `None` for the un-suffixed name (`anno.json`, the site's locale),
    /// else the locale its name carries (`anno-<locale>.json`).
    pub locale: Option<String>,
    pub origin: String,
    pub bytes: Vec<u8>,
}

/// What was read: the files, the index when there was one, and one line per
/// file that could not be read.
#[derive(Debug, Default)]
pub struct Gathered {
    pub sources: Vec<Source>,
    pub index: Option<Vec<IndexGame>>,
    pub errors: Vec<Msg>,
    /// The documents of the kinds published once per locale.
    pub per_locale: Vec<FoundDocument>,
    /// Files kept verbatim (`--keep-unknown`): the site path and the bytes.
    pub kept: Vec<(String, Vec<u8>)>,
    /// Files neither imported nor kept: the site path (or URL) and why.
    pub skipped: Vec<(String, Msg)>,
    /// Files the build writes itself (the index, pages, calendars, `llms.txt`).
    pub regenerated: Vec<String>,
    /// Files of games left out by `--games`.
    pub excluded: Vec<String>,
    /// Where the list of games came from, when it was not the site's index.
    pub games_from: Option<String>,
    /// The names the site's `llms.txt` gives its games, and where it is.
    pub names: BTreeMap<String, String>,
    pub names_from: Option<String>,
    /// How many activity files the site has, as far as the import knows:
    /// every one read, and every one it lists or answered for that could
    /// not be read.
    pub site_documents: usize,
    /// A legacy file with the shape of an activity document.
    pub legacy: Option<Legacy>,
    /// `--keep-unknown` and `--legacy`, for sorting what is found and for
    /// [`prepare`].
    pub keep_unknown: bool,
    pub legacy_choice: Option<LegacyChoice>,
}

/// Reads the published files `request` names: from a folder, or from a
/// site's base URL. Files that cannot be read are listed in
/// [`Gathered::errors`]; `Err` when there is nothing to read from at all.
pub fn gather(request: &Request, on: &mut dyn FnMut(Event)) -> anyhow::Result<Gathered> {
    let from = request.from;
    let mut gathered = if from.starts_with("http://") || from.starts_with("https://") {
        from_url(request, on)?
    } else {
        from_folder(Path::new(from), request)?
    };
    if !request.games.is_empty() {
        let (kept, left): (Vec<Source>, Vec<Source>) = std::mem::take(&mut gathered.sources)
            .into_iter()
            .partition(|s| request.games.contains(&s.game));
        gathered.sources = kept;
        gathered.excluded.extend(left.into_iter().map(|s| s.origin));
    }
    Ok(gathered)
}

/// The base reading shared with `diff`: a folder or URL ending in `api/v1`
/// or `api/v1/activity` stands for the site above it ([`layout::site_root`]).
fn site_folder(dir: &Path) -> Option<PathBuf> {
    let text = dir.to_string_lossy();
    let root = PathBuf::from(layout::site_root(&text));
    [root.clone(), root.join("public")]
        .into_iter()
        .find(|site| {
            site.join(layout::ACTIVITY_DIR).is_dir() || site.join(layout::INDEX_PATH).is_file()
        })
}

/// Whether the build writes `path` itself for a site of `games` (so an
/// import neither keeps it nor calls it skipped): the index, the schemas,
/// the contract (the OpenAPI, the API catalog and their schemas),
/// the API's reference pages, the calendars, `llms.txt`, `_headers`, the
/// home, timeline and 404 pages, the games' pages, the files a kind
/// published once per locale publishes
/// beside its documents (the announcements feeds) and its pages, and the
/// compressed siblings of any of them.
fn regenerated(path: &str, games: &BTreeSet<String>) -> bool {
    let path = layout::sibling_of(path).map_or(path, |(file, _)| file);
    if [
        layout::INDEX_PATH,
        layout::LLMS_PATH,
        layout::HEADERS_FILE,
        layout::HOME_PAGE,
        layout::NOT_FOUND_PAGE,
    ]
    .contains(&path)
        || layout::CONTRACT_PATHS.contains(&path)
        || layout::is_reference_page(path)
        || kind::schemas().any(|(_, schema)| schema.published == path)
        || layout::is_timeline_page(path)
        || layout::is_listing_part(path)
    {
        return true;
    }
    if let Some(name) = path
        .strip_prefix(layout::ACTIVITY_DIR)
        .and_then(|r| r.strip_prefix('/'))
    {
        return !name.contains('/') && name.ends_with(".ics");
    }
    let parts: Vec<&str> = path.split('/').collect();
    for k in kind::all() {
        let kind::PublishedAs::PerLocale { beside, .. } = k.published else {
            continue;
        };
        let pages = k.pages().map(|p| p.dir);
        let beside_a_document = beside.iter().any(|ext| {
            path.strip_suffix(&format!(".{ext}"))
                .is_some_and(|stem| k.published_locale(&format!("{stem}.json")).is_some())
        });
        let a_page = matches!(parts.as_slice(), [dir, page] | [dir, _, page]
            if Some(*dir) == pages && *page == layout::DIRECTORY_INDEX);
        if beside_a_document || a_page {
            return true;
        }
    }
    match parts.as_slice() {
        [game, page] | [game, _, page] => *page == layout::DIRECTORY_INDEX && games.contains(*game),
        _ => false,
    }
}

/// Whether `path` is a document of a kind published once per locale
/// ([`super::per_locale_document`]).
fn is_per_locale(path: &str) -> bool {
    super::per_locale_document(path).is_some()
}

impl Gathered {
    /// Nothing gathered yet, for `request`.
    fn for_request(request: &Request) -> Self {
        Gathered {
            keep_unknown: request.keep_unknown,
            legacy_choice: request.legacy,
            ..Gathered::default()
        }
    }

    /// A file imported neither as a game's nor as a kind's document: kept with
    /// `--keep-unknown`, else named as skipped.
    fn unknown(&mut self, path: String, bytes: Vec<u8>, why: Msg) {
        if self.keep_unknown {
            self.kept.push((path, bytes));
        } else {
            self.skipped.push((path, why));
        }
    }

    /// Sorts a file found on a site or in a folder: a JSON file by its
    /// shape, any other kept or skipped as a file the build does not make.
    fn found(
        &mut self,
        path: String,
        origin: String,
        bytes: Vec<u8>,
        as_game: Option<(String, Option<String>)>,
    ) {
        if !path.ends_with(".json") {
            return self.unknown(path, bytes, msg!("import-not-generated"));
        }
        let shape = super::shape_of(&bytes);
        // A document that is not JSON at all is the mapping's to name (`not JSON`).
        let broken =
            shape.is_none() && serde_json::from_slice::<serde_json::Value>(&bytes).is_err();
        let activity = shape.is_some_and(super::is_activities);
        if path == layout::LEGACY_ACTIVITIES_PATH && activity {
            self.legacy = Some(Legacy {
                path,
                origin,
                bytes,
            });
            return;
        }
        if as_game.is_some() {
            self.site_documents += 1;
        }
        if broken && let Some((game, locale)) = as_game {
            self.sources.push(Source {
                game,
                locale,
                origin,
                bytes,
            });
            return;
        }
        // A document of a kind published once per locale: by its shape,
        // under one of the names of that kind.
        let per_locale = shape
            .filter(|_| !activity)
            .and_then(|k| Some((k, k.published_locale(&path)?)));
        match (as_game, per_locale) {
            (Some((game, locale)), _) if activity => self.sources.push(Source {
                game,
                locale,
                origin,
                bytes,
            }),
            (_, Some((kind, locale))) => self.per_locale.push(FoundDocument {
                kind,
                locale: locale.map(str::to_owned),
                origin,
                bytes,
            }),
            _ => self.unknown(path, bytes, msg!("import-not-document")),
        }
    }
}

/// What an import does to one file of the root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Created,
    /// The file is there and differs: written only with `--force`.
    Replaced,
    Unchanged,
}

impl Action {
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Created => "created",
            Action::Replaced => "replaced",
            Action::Unchanged => "unchanged",
        }
    }
}

/// One file of the root that an import writes.
#[derive(Debug, Clone)]
pub struct PlannedFile {
    /// Relative to the root.
    pub path: String,
    pub bytes: Vec<u8>,
    pub action: Action,
}

/// An import planned against the root, before anything is written.
#[derive(Debug)]
pub struct Prepared {
    /// The schemas first (only where the root has none), the data files,
    /// the documents of the kinds published once per locale and the kept
    /// files, `games.json` last: a registry
    /// never names files not written yet.
    pub files: Vec<PlannedFile>,
    pub games: Vec<PlannedGame>,
    /// One line per file that was not imported: unreadable, or refused by the mapping.
    pub errors: Vec<Msg>,
    /// Files neither imported nor kept, and why.
    pub skipped: Vec<(String, Msg)>,
    /// Files the build writes itself, so neither imported nor kept.
    pub regenerated: Vec<String>,
    /// Files of games `--games` left out.
    pub excluded: Vec<String>,
    /// Where the list of games came from, when it was not the site's index.
    pub games_from: Option<String>,
    /// Data files whose activities the API lists out of start order (the
    /// build publishes them sorted: same content, another order).
    pub reordered: Vec<String>,
    /// Documents of the kinds published once per locale (the
    /// announcements boards) imported, and kept files, as root paths.
    pub per_locale: Vec<String>,
    pub kept: Vec<String>,
    /// How many activity files the site has ([`Gathered::site_documents`]),
    /// and how many of them were imported.
    pub site_documents: usize,
    pub imported: usize,
    /// Where the names of the games the site's `llms.txt` gave came from.
    pub names_from: Option<String>,
    /// The legacy file, when it is one game's document, and whether it was
    /// kept frozen in `data/_files/` (else synced, or skipped).
    pub legacy: Option<(Recognised, LegacyOutcome)>,
}

/// What became of a legacy file that is one game's document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LegacyOutcome {
    /// An alias of the game in `games.json`: rebuilt from its data.
    Synced,
    /// Kept byte for byte in `data/_files/`.
    Kept,
    /// Neither: skipped, waiting for a choice.
    Skipped,
}

/// Maps what was gathered onto the root under `root` (its `games.json`
/// kept and extended) and compares each resulting file with the disk.
/// `time_zones` is `--time-zone` (`None`: every game). Nothing is written.
pub fn prepare(
    root: &Path,
    mut gathered: Gathered,
    default_locale: &str,
    time_zones: &[(Option<String>, String)],
) -> anyhow::Result<Prepared> {
    let existing_registry = read_registry(root)?;
    let plan = super::plan(Inputs {
        sources: std::mem::take(&mut gathered.sources),
        index: gathered.index.take(),
        existing_registry,
        default_locale: default_locale.to_owned(),
        time_zones: time_zones.to_vec(),
        names: std::mem::take(&mut gathered.names),
        legacy: gathered.legacy.clone().map(|l| (l, gathered.legacy_choice)),
    })
    .map_err(anyhow::Error::new)?;
    gathered.errors.extend(plan.errors);
    let legacy = gathered.settle_legacy(plan.legacy);
    // The site's locale, as the build will read it from the new registry.
    let site_locale = plan
        .files
        .iter()
        .find(|(path, _)| path == REGISTRY_PATH)
        .and_then(|(_, text)| serde_json::from_str::<crate::model::Registry>(text).ok())
        .and_then(|r| r.site_locale().map(str::to_owned))
        .unwrap_or_else(|| default_locale.to_owned());
    let reordered = plan
        .files
        .iter()
        .filter(|(path, text)| path != REGISTRY_PATH && !super::in_start_order(text))
        .map(|(path, _)| path.clone())
        .collect();
    let per_locale = gathered.place_per_locale(&site_locale);
    let per_locale_paths = per_locale.iter().map(|(path, _)| path.clone()).collect();
    let kept = std::mem::take(&mut gathered.kept);
    let kept_paths = kept.iter().map(|(p, _)| tree::kept_path(p)).collect();
    let texts = files_in_order(root, plan.files, per_locale, kept);
    Ok(Prepared {
        files: compare_with_root(root, texts)?,
        games: plan.games,
        errors: gathered.errors,
        skipped: gathered.skipped,
        regenerated: gathered.regenerated,
        excluded: gathered.excluded,
        games_from: gathered.games_from,
        reordered,
        per_locale: per_locale_paths,
        kept: kept_paths,
        site_documents: gathered.site_documents,
        imported: plan.imported,
        names_from: gathered.names_from,
        legacy,
    })
}

/// The root's `games.json`, `None` when it has none.
fn read_registry(root: &Path) -> anyhow::Result<Option<String>> {
    match std::fs::read_to_string(root.join(REGISTRY_PATH)) {
        Ok(text) => Ok(Some(text)),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(err) => Err(err).context(msg!("import-read-registry")),
    }
}

impl Gathered {
    /// What becomes of the legacy file, given what the mapping recognised
    /// in it (`found`): an alias (synced), kept frozen, or skipped until
    /// the maintainer chooses; a document of no imported game is unknown.
    fn settle_legacy(&mut self, found: Option<Recognised>) -> Option<(Recognised, LegacyOutcome)> {
        let legacy = match (self.legacy.take(), found) {
            (Some(_), Some(found)) if found.synced => Some((found, LegacyOutcome::Synced)),
            (Some(file), Some(found)) => {
                let keep = self.legacy_choice == Some(LegacyChoice::Keep) || self.keep_unknown;
                let outcome = if keep {
                    self.kept.push((file.path, file.bytes));
                    LegacyOutcome::Kept
                } else {
                    LegacyOutcome::Skipped
                };
                Some((found, outcome))
            }
            (Some(file), None) => {
                self.unknown(file.path, file.bytes, msg!("import-legacy-no-game"));
                None
            }
            (None, _) => None,
        };
        if let Some((found, LegacyOutcome::Skipped)) = &legacy {
            self.skipped.push((
                found.path.clone(),
                msg!(
                    "import-legacy-choose",
                    game = found.game.as_str(),
                    locale = found.locale.as_str()
                ),
            ));
        }
        legacy
    }

    /// The documents of the kinds published once per locale, as root
    /// paths and texts: the un-suffixed one is `site_locale`'s, each other
    /// names its locale; the two of the site locale must agree. By kind
    /// (in the order of `kind::all`), then locale.
    fn place_per_locale(&mut self, site_locale: &str) -> Vec<(String, String)> {
        let position = |k: &Kind| kind::all().iter().position(|other| kind::same(other, k));
        let mut placed: BTreeMap<(Option<usize>, String), (&'static Kind, String, String)> =
            BTreeMap::new();
        let mut found = std::mem::take(&mut self.per_locale);
        found.sort_by_key(|a| a.locale.is_some());
        for a in found {
            let locale = a.locale.clone().unwrap_or_else(|| site_locale.to_owned());
            let text = match super::per_locale_file(&a.bytes) {
                Ok(text) => text,
                Err(why) => {
                    self.errors.push(msg!(
                        "import-file-error",
                        origin = a.origin.as_str(),
                        why = why
                    ));
                    continue;
                }
            };
            match placed.get(&(position(a.kind), locale.clone())) {
                Some((_, first, held)) => {
                    if serde_json::from_str::<serde_json::Value>(held).ok()
                        != serde_json::from_str::<serde_json::Value>(&text).ok()
                    {
                        self.errors.push(msg!(
                            "import-documents-differ",
                            origin = a.origin.as_str(),
                            first = first.as_str(),
                            locale = locale.as_str()
                        ));
                    }
                }
                None => {
                    placed.insert((position(a.kind), locale), (a.kind, a.origin, text));
                }
            }
        }
        placed
            .into_iter()
            .filter_map(|((_, locale), (kind, _, text))| Some((kind.locale_path(&locale)?, text)))
            .collect()
    }
}

/// Every file an import writes, in the order it writes them: the schemas
/// first, so the `$schema` lines resolve in editors (only where the root
/// has none), the data files, the documents of the kinds published once
/// per locale, the kept files, `games.json` last.
fn files_in_order(
    root: &Path,
    planned: Vec<(String, String)>,
    per_locale: Vec<(String, String)>,
    kept: Vec<(String, Vec<u8>)>,
) -> Vec<(String, Vec<u8>)> {
    let mut texts: Vec<(String, Vec<u8>)> = planned
        .into_iter()
        .map(|(path, text)| (path, text.into_bytes()))
        .collect();
    let registry = texts.pop();
    for (path, text) in [
        (tree::ACTIVITY_SCHEMA_PATH, kind::activities::BUILTIN_SCHEMA),
        (tree::GAMES_SCHEMA_PATH, BUILTIN_GAMES_SCHEMA),
    ] {
        if !root.join(path).exists() {
            texts.insert(0, (path.to_owned(), text.as_bytes().to_vec()));
        }
    }
    for (path, text) in per_locale {
        texts.push((path, text.into_bytes()));
    }
    for (path, bytes) in kept {
        texts.push((tree::kept_path(&path), bytes));
    }
    texts.extend(registry);
    texts
}

/// What writing each file would do to the root: create it, replace it,
/// or leave it as it is.
fn compare_with_root(
    root: &Path,
    texts: Vec<(String, Vec<u8>)>,
) -> anyhow::Result<Vec<PlannedFile>> {
    let mut files = Vec::with_capacity(texts.len());
    for (path, bytes) in texts {
        let action = match std::fs::read(root.join(&path)) {
            Ok(old) if old == bytes => Action::Unchanged,
            Ok(_) => Action::Replaced,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => Action::Created,
            Err(err) => {
                return Err(err)
                    .with_context(|| msg!("import-read-root-file", path = path.as_str()));
            }
        };
        files.push(PlannedFile {
            path,
            bytes,
            action,
        });
    }
    Ok(files)
}

impl Prepared {
    /// What a person is told about the import once it is written, a note
    /// a line: each game's time zone and name and where they came from,
    /// the legacy file, placeholders, reordered documents, the files the
    /// build writes again and those `--games` left out.
    pub fn notes(&self) -> Vec<Msg> {
        let mut notes = Vec::new();
        for game in &self.games {
            notes.push(msg!(
                "import-time-zone",
                game = game.id.as_str(),
                zone = game.time_zone.as_str(),
                from = game.zone_from.label()
            ));
        }
        for game in &self.games {
            notes.push(msg!(
                "import-name",
                game = game.id.as_str(),
                name = game.name.as_str(),
                from = game.name_from.label()
            ));
        }
        if let Some((found, outcome)) = &self.legacy {
            notes.push(msg!(
                "import-legacy",
                path = found.path.as_str(),
                locale = found.locale.as_str(),
                game = found.game.as_str(),
                same = if found.same { "yes" } else { "no" },
                version = found.version.as_str(),
                data = crate::tree::data_path(&found.game, &found.locale),
                outcome = match outcome {
                    LegacyOutcome::Synced => "synced",
                    LegacyOutcome::Kept => "kept",
                    LegacyOutcome::Skipped => "skipped",
                }
            ));
        }
        for game in self.games.iter().filter(|g| g.placeholder) {
            notes.push(msg!(
                "import-note-placeholder",
                game = game.id.as_str(),
                name = if game.name_from == NameFrom::Id {
                    "yes"
                } else {
                    "no"
                }
            ));
        }
        for path in &self.reordered {
            notes.push(msg!("import-note-reordered", path = path.as_str()));
        }
        if !self.regenerated.is_empty() {
            const SHOWN: usize = 12;
            let all = &self.regenerated;
            let more = all.len().saturating_sub(SHOWN);
            notes.push(msg!(
                "import-note-regenerated",
                count = all.len(),
                paths = i18n::list(&all[..all.len().min(SHOWN)]),
                more = more
            ));
        }
        if !self.excluded.is_empty() {
            notes.push(msg!(
                "import-note-excluded",
                paths = i18n::list(&self.excluded)
            ));
        }
        notes
    }

    /// The files imported of each kind with a file per locale, each kind's
    /// counted in the words its declaration gives (`2 announcements
    /// files`), one after the other in kind order.
    fn per_locale_counts(&self) -> Msg {
        let counts = kind::all().iter().filter_map(|k| match k.sources {
            kind::Sources::PerLocale { counted, .. } => {
                let count = self.per_locale.iter().filter(|p| k.claims(p)).count();
                Some(Msg::new(counted).arg("count", count))
            }
            _ => None,
        });
        counts
            .rev()
            .reduce(|rest, first| msg!("import-summary-list", first = first, rest = rest))
            .unwrap_or_else(|| msg!("plain", text = ""))
    }

    /// The last line of an import: how many files of the site were
    /// imported, as how many documents of how many games, and the rest.
    pub fn summary(&self) -> Msg {
        let documents = self.games.iter().map(|g| g.locales.len()).sum::<usize>();
        let assumed = self
            .games
            .iter()
            .filter(|g| matches!(g.zone_from, ZoneFrom::Assumed | ZoneFrom::Unconfirmed))
            .count();
        msg!(
            "import-summary",
            site = self.site_documents,
            imported = self.imported,
            documents = documents,
            games = self.games.len(),
            per_locale = self.per_locale_counts(),
            kept = self.kept.len(),
            skipped = self.skipped.len(),
            regenerated = self.regenerated.len(),
            assumed = assumed,
            listed = match &self.games_from {
                Some(from) => msg!("import-games-listed-by", from = from.as_str()),
                None => msg!("plain", text = ""),
            }
        )
    }

    /// The files of the root the import would change: `--force` is needed.
    pub fn conflicts(&self) -> Vec<&str> {
        self.files
            .iter()
            .filter(|f| f.action == Action::Replaced)
            .map(|f| f.path.as_str())
            .collect()
    }

    /// Writes every file that changes, atomically each, in order.
    pub fn write(&self, root: &Path) -> anyhow::Result<()> {
        for file in self.files.iter().filter(|f| f.action != Action::Unchanged) {
            let path = root.join(&file.path);
            atomic::write(&path, &file.bytes)
                .with_context(|| msg!("err-write", path = path.display().to_string()))?;
        }
        Ok(())
    }

    /// One line per file: `created data/ww/en-US.json`.
    pub fn listing(&self) -> String {
        self.files
            .iter()
            .map(|f| {
                let line = msg!(
                    "import-action",
                    action = f.action.as_str(),
                    path = f.path.as_str()
                );
                format!("{line}\n")
            })
            .collect()
    }
}

/// A folder: a site (its root, `api/v1` or `api/v1/activity`; or a
/// site's sources holding `public/`), every file of it sorted by what it
/// is; else the folder itself, flat.
fn from_folder(dir: &Path, request: &Request) -> anyhow::Result<Gathered> {
    if !dir.is_dir() {
        let arg = dir.display().to_string();
        // `127.0.0.1:8765` or `localhost:8765/site`: a host and port typed without a scheme.
        let host = arg.split('/').next().unwrap_or_default();
        if let Some((_, port)) = host.rsplit_once(':')
            && !port.is_empty()
            && port.bytes().all(|b| b.is_ascii_digit())
        {
            fetch::http_url("--from", &arg)?;
        }
        return Err(anyhow::Error::new(msg!("import-from-neither", from = arg)));
    }
    match site_folder(dir) {
        Some(site) => from_site_folder(&site, request),
        None => from_flat_folder(dir, request),
    }
}

/// Every file of a site folder: activity documents, announcements, files
/// the build writes itself, and the rest (kept or skipped).
fn from_site_folder(site: &Path, request: &Request) -> anyhow::Result<Gathered> {
    let mut gathered = Gathered::for_request(request);
    let read = |rel: &str| -> anyhow::Result<Vec<u8>> {
        let path = site.join(rel);
        std::fs::read(&path).with_context(|| msg!("err-read", path = path.display().to_string()))
    };
    let index = match read(layout::INDEX_PATH) {
        Ok(bytes) => super::parse_index(&bytes).ok(),
        Err(_) => None,
    };
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(site).min_depth(1).sort_by_file_name() {
        let entry = entry.with_context(|| msg!("err-list", path = site.display().to_string()))?;
        if entry.file_type().is_dir() || entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        files.push(crate::relpath::below(site, entry.path()));
    }
    // The activity documents: the index's, else every `*.json` of the folder by name.
    let in_activity_dir = |rel: &str| -> Option<String> {
        let name = rel.strip_prefix(layout::ACTIVITY_DIR)?.strip_prefix('/')?;
        (!name.contains('/') && name.ends_with(".json")).then(|| name.to_owned())
    };
    let wanted: BTreeMap<String, (String, Option<String>)> = match &index {
        Some(index) => super::listed_files(index, &[])
            .into_iter()
            .map(|w| (w.path, (w.game, w.locale)))
            .collect(),
        None => {
            let names: Vec<String> = files.iter().filter_map(|f| in_activity_dir(f)).collect();
            super::split_names(&names)
                .into_iter()
                .map(|(name, split)| (format!("{}/{name}", layout::ACTIVITY_DIR), split))
                .collect()
        }
    };
    // Folders of the pages the build writes: each game's, and the home page
    // of each locale (`<locale>/index.html`).
    let mut games: BTreeSet<String> = wanted.values().map(|(game, _)| game.clone()).collect();
    games.extend(wanted.values().filter_map(|(_, locale)| locale.clone()));
    games.extend(
        index
            .iter()
            .flatten()
            .flat_map(|g| g.locales.iter().cloned()),
    );
    for rel in files {
        if rel == layout::INDEX_PATH && index.is_some() {
            gathered.regenerated.push(rel);
            continue;
        }
        // The compressed sibling of an imported document is written again.
        let base = layout::sibling_of(&rel).map_or(rel.as_str(), |(file, _)| file);
        if base != rel && (wanted.contains_key(base) || is_per_locale(base)) {
            gathered.regenerated.push(rel);
            continue;
        }
        let as_game = wanted.get(&rel).cloned();
        if as_game.is_none() && regenerated(&rel, &games) {
            gathered.regenerated.push(rel);
            continue;
        }
        let bytes = match read(&rel) {
            Ok(bytes) => bytes,
            Err(err) => {
                gathered
                    .errors
                    .push(msg!("plain", text = i18n::causes(&err)));
                continue;
            }
        };
        let origin = site.join(&rel).display().to_string();
        gathered.found(rel, origin, bytes, as_game);
    }
    if let Ok(bytes) = read(layout::LLMS_PATH) {
        let llms = layout::llms_site(&String::from_utf8_lossy(&bytes));
        // The site's own order of its games, as its `llms.txt` lists them.
        let ids = llms.ids();
        if index.is_none() && !ids.is_empty() {
            gathered
                .sources
                .sort_by_key(|s| ids.iter().position(|id| *id == s.game).unwrap_or(ids.len()));
        }
        gathered.names = llms_names(&llms);
        if !gathered.names.is_empty() {
            gathered.names_from = Some(site.join(layout::LLMS_PATH).display().to_string());
        }
    }
    gathered.index = index;
    Ok(gathered)
}

/// The names an `llms.txt` gives its games.
fn llms_names(llms: &layout::LlmsSite) -> BTreeMap<String, String> {
    llms.games
        .iter()
        .filter_map(|(id, name)| Some((id.clone(), name.clone()?)))
        .collect()
}

/// The locales of a site without an index that each game could have
/// besides `default`: `--locales`, the ones its `llms.txt` names in an
/// example or a link (`sr-en-US.json`), the root's `games.json`, and the
/// languages of this tool.
fn candidate_locales(request: &Request, llms: &layout::LlmsSite, default: &str) -> Vec<String> {
    let mut locales: Vec<String> = request.locales.to_vec();
    let split = super::split_names(&llms.mentioned);
    locales.extend(split.values().filter_map(|(_, locale)| locale.clone()));
    if let Ok(text) = std::fs::read_to_string(request.root.join(REGISTRY_PATH))
        && let Ok(registry) = serde_json::from_str::<crate::model::Registry>(&text)
    {
        locales.extend(registry.games.into_iter().flat_map(|g| g.locales));
    }
    locales.extend(i18n::Lang::ALL.iter().map(|l| l.tag().to_owned()));
    let mut seen = BTreeSet::new();
    locales.retain(|l| l != default && seen.insert(l.clone()));
    locales
}

/// A flat folder: `<game>[-<locale>].json` documents, the documents of the
/// kinds published once per locale under their published names
/// (`anno[-<locale>].json`), an `llms.txt` for the names of the games; any
/// other file is kept at its name, or skipped.
fn from_flat_folder(dir: &Path, request: &Request) -> anyhow::Result<Gathered> {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir)
        .with_context(|| msg!("err-read", path = dir.display().to_string()))?
    {
        let entry = entry.with_context(|| msg!("err-read", path = dir.display().to_string()))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if entry.file_type().is_ok_and(|t| t.is_file()) && !name.starts_with('.') {
            names.push(name);
        }
    }
    names.sort();
    let split = super::split_names(&names);
    let mut gathered = Gathered::for_request(request);
    for name in names {
        let path = dir.join(&name);
        let origin = path.display().to_string();
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(err) => {
                gathered.errors.push(msg!(
                    "import-file-error",
                    origin = origin.as_str(),
                    why = err.to_string()
                ));
                continue;
            }
        };
        // The site's `llms.txt`, for the names of its games; the build writes its own.
        if name == layout::LLMS_PATH {
            let llms = layout::llms_site(&String::from_utf8_lossy(&bytes));
            gathered.names = llms_names(&llms);
            gathered.names_from = Some(origin);
            gathered.regenerated.push(name);
            continue;
        }
        // A kind's document published once per locale is read at its
        // published path (`anno.json` as `api/v1/anno.json`).
        let path = super::per_locale_named(&name).unwrap_or_else(|| name.clone());
        let as_game = split.get(&name).cloned().filter(|_| !is_per_locale(&path));
        gathered.found(path, origin, bytes, as_game);
    }
    Ok(gathered)
}

/// A URL: the site's index when it has one, else `--games` (and
/// `--locales`), else the games the site's `llms.txt` lists; then the
/// documents of the kinds published once per locale (its announcements)
/// and the files a site keeps by hand (`robots.txt`, a legacy
/// `api/v1/activities.json`), when they are there.
fn from_url(request: &Request, on: &mut dyn FnMut(Event)) -> anyhow::Result<Gathered> {
    fetch::http_url("--from", request.from)?;
    let site = SiteUrls::new(request.from);
    let fetcher = Fetcher::new("import", request.timeout)?;
    let index = fetch_index(&fetcher, &site, request, on)?;
    // Without an index, what the site says of itself.
    let llms = match &index {
        Some(_) => layout::LlmsSite::default(),
        None => fetch_llms(&fetcher, &site, on),
    };
    let wanted = wanted_files(request, index.as_deref(), &llms, &site)?;
    wanted.announce(on);
    let extra = extra_paths(request, index.as_deref(), &wanted.files);

    on(Event::Fetching(wanted.files.len() + extra.len()));
    let urls: Vec<String> = wanted
        .files
        .iter()
        .map(|w| w.path.as_str())
        .chain(extra.iter().map(String::as_str))
        .map(|path| format!("{}/{path}", site.root))
        .collect();
    let mut results = fetcher
        .for_each(&urls, |_, result| {
            on(Event::Fetched);
            result
        })
        .into_iter();
    let mut fetched: Vec<Fetched> = urls.into_iter().map(|url| (url, results.next())).collect();
    let extra_fetched = fetched.split_off(wanted.files.len());
    let mut gathered = Gathered {
        index,
        games_from: wanted.games_from.clone(),
        names: llms_names(&llms),
        names_from: Some(site.llms).filter(|_| !llms.games.is_empty()),
        ..Gathered::for_request(request)
    };
    gathered.take_documents(wanted, fetched, on);
    gathered.take_extras(extra, extra_fetched);
    Ok(gathered)
}

/// A URL asked for, and what came back (`None`: nothing did).
type Fetched = (String, Option<Result<Vec<u8>, FetchError>>);

/// The URLs of a deployed site an import reads first.
struct SiteUrls {
    /// The site's base URL ([`layout::site_root`]).
    root: String,
    /// Its index.
    index: String,
    /// Its `llms.txt`.
    llms: String,
}

impl SiteUrls {
    fn new(from: &str) -> Self {
        let root = layout::site_root(from).to_owned();
        SiteUrls {
            index: format!("{root}/{}", layout::INDEX_PATH),
            llms: format!("{root}/{}", layout::LLMS_PATH),
            root,
        }
    }
}

/// The site's index: `None` when it has none or it is not one (said in a
/// note); `Err` when it cannot be fetched and no `--games` says what else
/// to read.
fn fetch_index(
    fetcher: &Fetcher,
    site: &SiteUrls,
    request: &Request,
    on: &mut dyn FnMut(Event),
) -> anyhow::Result<Option<Vec<IndexGame>>> {
    let url = site.index.as_str();
    match fetcher.get(url) {
        Ok(bytes) => match super::parse_index(&bytes) {
            Ok(index) => Ok(Some(index)),
            Err(why) => {
                on(Event::Note(msg!("import-not-index", url = url, why = why)));
                Ok(None)
            }
        },
        Err(FetchError::NotFound) => Ok(None),
        Err(why) if request.games.is_empty() => Err(anyhow::Error::new(msg!(
            "diff-cannot-fetch",
            url = url,
            error = why.to_string()
        ))),
        Err(why) => {
            on(Event::Note(msg!(
                "import-index-unfetched",
                url = url,
                why = why.to_string()
            )));
            Ok(None)
        }
    }
}

/// The site's `llms.txt`, empty when it has none or it cannot be fetched
/// (said in a note).
fn fetch_llms(fetcher: &Fetcher, site: &SiteUrls, on: &mut dyn FnMut(Event)) -> layout::LlmsSite {
    match fetcher.get(&site.llms) {
        Ok(bytes) => layout::llms_site(&String::from_utf8_lossy(&bytes)),
        Err(FetchError::NotFound) => layout::LlmsSite::default(),
        Err(why) => {
            on(Event::Note(msg!(
                "import-llms-unfetched",
                url = site.llms.as_str(),
                why = why.to_string()
            )));
            layout::LlmsSite::default()
        }
    }
}

/// The activity documents to fetch from a site, and how they were chosen.
struct WantedFiles {
    files: Vec<Wanted>,
    /// Where the list of games came from, when it was not the site's index.
    games_from: Option<String>,
    /// Files guessed from names (no index lists them): a locale's file that
    /// is not there is a locale the game does not have, not an error.
    guessed: bool,
    /// The locales asked for of each game, when guessed.
    asked: Vec<String>,
}

/// The activity documents to fetch: the index's, else those of the games
/// `--games` names, else of those the site's `llms.txt` lists (the
/// documents it links, else guessed from the games' names and locales).
fn wanted_files(
    request: &Request,
    index: Option<&[IndexGame]>,
    llms: &layout::LlmsSite,
    site: &SiteUrls,
) -> anyhow::Result<WantedFiles> {
    let guess = |games: &[String], games_from: String| {
        let asked = candidate_locales(request, llms, request.default_locale);
        WantedFiles {
            files: super::guessed_files(games, &asked, request.default_locale),
            games_from: Some(games_from),
            guessed: true,
            asked,
        }
    };
    if let Some(index) = index {
        return Ok(WantedFiles {
            files: super::listed_files(index, request.games),
            games_from: None,
            guessed: false,
            asked: Vec::new(),
        });
    }
    if !request.games.is_empty() {
        return Ok(guess(request.games, "--games".to_owned()));
    }
    let games = llms.ids();
    anyhow::ensure!(
        !games.is_empty(),
        msg!(
            "import-games-unknown",
            index = site.index.as_str(),
            llms = site.llms.as_str()
        )
    );
    if llms.documents.is_empty() {
        return Ok(guess(&games, site.llms.clone()));
    }
    let names: Vec<String> = llms
        .documents
        .iter()
        .filter_map(|p| p.rsplit('/').next().map(str::to_owned))
        .collect();
    let files = super::split_names(&names)
        .into_iter()
        .map(|(name, (game, locale))| Wanted {
            path: layout::activity_file(name.trim_end_matches(".json"), "json"),
            game,
            locale,
        })
        .collect();
    Ok(WantedFiles {
        files,
        games_from: Some(site.llms.clone()),
        guessed: false,
        asked: Vec::new(),
    })
}

impl WantedFiles {
    /// Says where the games came from and which locales are asked for,
    /// when no index said it.
    fn announce(&self, on: &mut dyn FnMut(Event)) {
        if let Some(from) = &self.games_from {
            let games: BTreeSet<&str> = self.files.iter().map(|w| w.game.as_str()).collect();
            let games: Vec<&str> = games.into_iter().collect();
            on(Event::Note(msg!(
                "import-games-from",
                games = i18n::list(&games),
                from = from.as_str()
            )));
        }
        if !self.asked.is_empty() {
            on(Event::Note(msg!(
                "import-locales-asked",
                locales = i18n::list(&self.asked)
            )));
        }
    }
}

/// Beside the documents, what a site may publish that no index lists: the
/// documents of the kinds published once per locale, in every locale
/// known, and [`KNOWN_EXTRAS`].
fn extra_paths(request: &Request, index: Option<&[IndexGame]>, wanted: &[Wanted]) -> Vec<String> {
    let mut locales: BTreeSet<String> = request.locales.iter().cloned().collect();
    locales.insert(request.default_locale.to_owned());
    for game in index.into_iter().flatten() {
        locales.extend(game.locales.iter().cloned());
    }
    for w in wanted {
        locales.extend(w.locale.iter().cloned());
    }
    let mut extra = Vec::new();
    for k in kind::all() {
        extra.extend(k.published_path("", Naming::Plain, "json"));
        extra.extend(
            locales
                .iter()
                .filter_map(|l| k.published_path(l, Naming::Localized, "json")),
        );
    }
    extra.extend(KNOWN_EXTRAS.iter().map(|p| (*p).to_owned()));
    extra
}

impl Gathered {
    /// Sorts the activity documents fetched (`fetched`, one per wanted
    /// file); a guessed locale's file that is not there is said once per
    /// locale, in a note.
    fn take_documents(
        &mut self,
        wanted: WantedFiles,
        fetched: Vec<Fetched>,
        on: &mut dyn FnMut(Event),
    ) {
        // Per locale asked for, the games that do not have it.
        let mut absent: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (wanted_file, (url, result)) in wanted.files.into_iter().zip(fetched) {
            match result {
                Some(Ok(bytes)) => self.found(
                    wanted_file.path,
                    url,
                    bytes,
                    Some((wanted_file.game, wanted_file.locale)),
                ),
                Some(Err(FetchError::NotFound))
                    if wanted.guessed && wanted_file.locale.is_some() =>
                {
                    absent
                        .entry(wanted_file.locale.unwrap_or_default())
                        .or_default()
                        .push(wanted_file.game);
                }
                Some(Err(why)) => {
                    // A document the site has (or lists) that could not be read.
                    self.site_documents += 1;
                    self.errors.push(msg!(
                        "import-file-error",
                        origin = url.as_str(),
                        why = why.to_string()
                    ));
                }
                None => {}
            }
        }
        for (locale, games) in absent {
            on(Event::Note(msg!(
                "import-no-such-locale",
                locale = locale.as_str(),
                count = games.len(),
                games = i18n::list(&games)
            )));
        }
    }

    /// Sorts the other files fetched ([`extra_paths`]); one that is not
    /// there is no error.
    fn take_extras(&mut self, extra: Vec<String>, fetched: Vec<Fetched>) {
        for (path, (url, result)) in extra.into_iter().zip(fetched) {
            match result {
                Some(Ok(bytes)) => self.found(path, url, bytes, None),
                Some(Err(FetchError::NotFound)) | None => {}
                Some(Err(why)) => self.errors.push(msg!(
                    "import-file-error",
                    origin = url.as_str(),
                    why = why.to_string()
                )),
            }
        }
    }
}

/// Files a deployed site may hold that no index names: asked for by URL
/// (a folder is listed instead).
const KNOWN_EXTRAS: &[&str] = &[layout::ROBOTS_PATH, layout::LEGACY_ACTIVITIES_PATH];
