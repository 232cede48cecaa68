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
use crate::layout;
use crate::source::BUILTIN_GAMES_SCHEMA;
use crate::tree;
use crate::tree::REGISTRY_PATH;

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
    /// `--keep-unknown` and `--legacy`, for [`prepare`].
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
    gathered.keep_unknown = request.keep_unknown;
    gathered.legacy_choice = request.legacy;
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
/// the calendars, `llms.txt`, `_headers`, the home and 404 pages, the
/// games' pages, the files a kind published once per locale publishes
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
        || kind::schemas().any(|(_, schema)| schema.published == path)
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
    for k in kind::ALL {
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
    /// A file imported neither as a game's nor as a kind's document: kept with
    /// `--keep-unknown`, else named as skipped.
    fn unknown(&mut self, keep: bool, path: String, bytes: Vec<u8>, why: Msg) {
        if keep {
            self.kept.push((path, bytes));
        } else {
            self.skipped.push((path, why));
        }
    }

    /// Sorts a file found on a site or in a folder: a JSON file by its
    /// shape, any other kept or skipped as a file the build does not make.
    fn found(
        &mut self,
        keep: bool,
        path: String,
        origin: String,
        bytes: Vec<u8>,
        as_game: Option<(String, Option<String>)>,
    ) {
        if !path.ends_with(".json") {
            return self.unknown(keep, path, bytes, msg!("import-not-generated"));
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
            _ => self.unknown(keep, path, bytes, msg!("import-not-document")),
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
    gathered: Gathered,
    default_locale: &str,
    time_zones: &[(Option<String>, String)],
) -> anyhow::Result<Prepared> {
    let existing_registry = match std::fs::read_to_string(root.join(REGISTRY_PATH)) {
        Ok(text) => Some(text),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => None,
        Err(err) => return Err(err).context(msg!("import-read-registry")),
    };
    let Gathered {
        sources,
        index,
        mut errors,
        per_locale,
        kept,
        skipped,
        regenerated,
        excluded,
        games_from,
        names,
        names_from,
        site_documents,
        legacy,
        keep_unknown,
        legacy_choice,
    } = gathered;
    let mut kept = kept;
    let mut skipped = skipped;
    let plan = super::plan(Inputs {
        sources,
        index,
        existing_registry,
        default_locale: default_locale.to_owned(),
        time_zones: time_zones.to_vec(),
        names,
        legacy: legacy.clone().map(|l| (l, legacy_choice)),
    })
    .map_err(anyhow::Error::new)?;
    errors.extend(plan.errors);
    // The legacy file: an alias (synced), kept frozen, or skipped until
    // the maintainer chooses; a document of no imported game is unknown.
    let legacy = match (legacy, plan.legacy) {
        (Some(_), Some(found)) if found.synced => Some((found, LegacyOutcome::Synced)),
        (Some(file), Some(found)) => {
            let keep = legacy_choice == Some(LegacyChoice::Keep) || keep_unknown;
            let outcome = if keep {
                kept.push((file.path, file.bytes));
                LegacyOutcome::Kept
            } else {
                LegacyOutcome::Skipped
            };
            Some((found, outcome))
        }
        (Some(file), None) => {
            if keep_unknown {
                kept.push((file.path, file.bytes));
            } else {
                skipped.push((file.path, msg!("import-legacy-no-game")));
            }
            None
        }
        (None, _) => None,
    };
    if let Some((found, LegacyOutcome::Skipped)) = &legacy {
        skipped.push((
            found.path.clone(),
            msg!(
                "import-legacy-choose",
                game = found.game.as_str(),
                locale = found.locale.as_str()
            ),
        ));
    }

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

    // The schemas, so the `$schema` lines resolve in editors; kept when present.
    let mut texts: Vec<(String, Vec<u8>)> = plan
        .files
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
    // A kind published once per locale: its un-suffixed document is the
    // site locale's, each other names its locale; the two of the site
    // locale must agree. By kind (in the order of `kind::ALL`), then locale.
    let position = |k: &Kind| kind::ALL.iter().position(|other| kind::same(other, k));
    let mut placed: BTreeMap<(Option<usize>, String), (&'static Kind, String, String)> =
        BTreeMap::new();
    let mut found = per_locale;
    found.sort_by_key(|a| a.locale.is_some());
    for a in found {
        let locale = a.locale.clone().unwrap_or_else(|| site_locale.clone());
        let text = match super::per_locale_file(&a.bytes) {
            Ok(text) => text,
            Err(why) => {
                errors.push(msg!(
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
                    errors.push(msg!(
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
    let mut per_locale = Vec::new();
    for ((_, locale), (kind, _, text)) in placed {
        let Some(path) = kind.locale_path(&locale) else {
            continue;
        };
        per_locale.push(path.clone());
        texts.push((path, text.into_bytes()));
    }
    let kept_paths: Vec<String> = kept.iter().map(|(p, _)| tree::kept_path(p)).collect();
    for (path, bytes) in kept {
        texts.push((tree::kept_path(&path), bytes));
    }
    texts.extend(registry);

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
    Ok(Prepared {
        files,
        games: plan.games,
        errors,
        skipped,
        regenerated,
        excluded,
        games_from,
        reordered,
        per_locale,
        kept: kept_paths,
        site_documents,
        imported: plan.imported,
        names_from,
        legacy,
    })
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
        let counts = kind::ALL.iter().filter_map(|k| match k.sources {
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
    let mut gathered = Gathered::default();
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
        gathered.found(request.keep_unknown, rel, origin, bytes, as_game);
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
    let mut gathered = Gathered::default();
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
        gathered.found(request.keep_unknown, path, origin, bytes, as_game);
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
    let site = layout::site_root(request.from).to_owned();
    let fetcher = Fetcher::new("import", request.timeout)?;

    let index_url = format!("{site}/{}", layout::INDEX_PATH);
    let index = match fetcher.get(&index_url) {
        Ok(bytes) => match super::parse_index(&bytes) {
            Ok(index) => Some(index),
            Err(why) => {
                on(Event::Note(msg!(
                    "import-not-index",
                    url = index_url.as_str(),
                    why = why
                )));
                None
            }
        },
        Err(FetchError::NotFound) => None,
        Err(why) if request.games.is_empty() => {
            return Err(anyhow::Error::new(msg!(
                "diff-cannot-fetch",
                url = index_url.as_str(),
                error = why.to_string()
            )));
        }
        Err(why) => {
            on(Event::Note(msg!(
                "import-index-unfetched",
                url = index_url.as_str(),
                why = why.to_string()
            )));
            None
        }
    };

    let mut games_from = None;
    // Files guessed from names (no index lists them): a locale's file that
    // is not there is a locale the game does not have, not an error.
    let mut guessed = false;
    // Without an index, what the site says of itself.
    let llms_url = format!("{site}/{}", layout::LLMS_PATH);
    let llms = match &index {
        Some(_) => layout::LlmsSite::default(),
        None => match fetcher.get(&llms_url) {
            Ok(bytes) => layout::llms_site(&String::from_utf8_lossy(&bytes)),
            Err(FetchError::NotFound) => layout::LlmsSite::default(),
            Err(why) => {
                on(Event::Note(msg!(
                    "import-llms-unfetched",
                    url = llms_url.as_str(),
                    why = why.to_string()
                )));
                layout::LlmsSite::default()
            }
        },
    };
    let mut asked: Vec<String> = Vec::new();
    let wanted = match &index {
        Some(index) => super::listed_files(index, request.games),
        None if !request.games.is_empty() => {
            games_from = Some("--games".to_owned());
            guessed = true;
            asked = candidate_locales(request, &llms, request.default_locale);
            super::guessed_files(request.games, &asked, request.default_locale)
        }
        None => {
            let games = llms.ids();
            anyhow::ensure!(
                !games.is_empty(),
                msg!(
                    "import-games-unknown",
                    index = index_url.as_str(),
                    llms = llms_url.as_str()
                )
            );
            games_from = Some(llms_url.clone());
            let documents = &llms.documents;
            if documents.is_empty() {
                guessed = true;
                asked = candidate_locales(request, &llms, request.default_locale);
                super::guessed_files(&games, &asked, request.default_locale)
            } else {
                let names: Vec<String> = documents
                    .iter()
                    .filter_map(|p| p.rsplit('/').next().map(str::to_owned))
                    .collect();
                super::split_names(&names)
                    .into_iter()
                    .map(|(name, (game, locale))| Wanted {
                        path: layout::activity_file(name.trim_end_matches(".json"), "json"),
                        game,
                        locale,
                    })
                    .collect()
            }
        }
    };
    if let Some(from) = &games_from {
        let games: BTreeSet<&str> = wanted.iter().map(|w| w.game.as_str()).collect();
        let games: Vec<&str> = games.into_iter().collect();
        on(Event::Note(msg!(
            "import-games-from",
            games = i18n::list(&games),
            from = from.as_str()
        )));
    }
    if !asked.is_empty() {
        on(Event::Note(msg!(
            "import-locales-asked",
            locales = i18n::list(&asked)
        )));
    }
    // Beside the documents, what a site may publish that no index lists.
    let mut locales: BTreeSet<String> = request.locales.iter().cloned().collect();
    locales.insert(request.default_locale.to_owned());
    for game in index.iter().flatten() {
        locales.extend(game.locales.iter().cloned());
    }
    for w in &wanted {
        locales.extend(w.locale.iter().cloned());
    }
    let mut extra = Vec::new();
    for k in kind::ALL {
        extra.extend(k.published_path("", true, "json"));
        extra.extend(
            locales
                .iter()
                .filter_map(|l| k.published_path(l, false, "json")),
        );
    }
    extra.extend(KNOWN_EXTRAS.iter().map(|p| (*p).to_owned()));

    let total = wanted.len() + extra.len();
    on(Event::Fetching(total));
    let urls: Vec<String> = wanted
        .iter()
        .map(|w| w.path.as_str())
        .chain(extra.iter().map(String::as_str))
        .map(|path| format!("{site}/{path}"))
        .collect();
    let mut results = fetcher
        .for_each(&urls, |_, result| {
            on(Event::Fetched);
            result
        })
        .into_iter();
    let mut gathered = Gathered {
        index,
        games_from,
        names: llms_names(&llms),
        names_from: Some(llms_url).filter(|_| !llms.games.is_empty()),
        ..Gathered::default()
    };
    let mut urls = urls.into_iter();
    // Per locale asked for, the games that do not have it.
    let mut absent: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for wanted in wanted {
        let (url, result) = (urls.next().unwrap_or_default(), results.next());
        match result {
            Some(Ok(bytes)) => gathered.found(
                request.keep_unknown,
                wanted.path,
                url,
                bytes,
                Some((wanted.game, wanted.locale)),
            ),
            Some(Err(FetchError::NotFound)) if guessed && wanted.locale.is_some() => {
                absent
                    .entry(wanted.locale.unwrap_or_default())
                    .or_default()
                    .push(wanted.game);
            }
            Some(Err(why)) => {
                // A document the site has (or lists) that could not be read.
                gathered.site_documents += 1;
                gathered.errors.push(msg!(
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
    for path in extra {
        let (url, result) = (urls.next().unwrap_or_default(), results.next());
        match result {
            Some(Ok(bytes)) => gathered.found(request.keep_unknown, path, url, bytes, None),
            Some(Err(FetchError::NotFound)) | None => {}
            Some(Err(why)) => gathered.errors.push(msg!(
                "import-file-error",
                origin = url.as_str(),
                why = why.to_string()
            )),
        }
    }
    Ok(gathered)
}

/// Files a deployed site may hold that no index names: asked for by URL
/// (a folder is listed instead).
const KNOWN_EXTRAS: &[&str] = &[layout::ROBOTS_PATH, layout::LEGACY_ACTIVITIES_PATH];
