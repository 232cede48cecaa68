//! The I/O of an import, around the pure mapping of [`crate::import`]:
//! reading the published files from a folder or fetching them from a
//! deployed site (through [`crate::fetch`], with its limits), reading the
//! root's `games.json`, comparing the planned files with the root, and
//! writing them (through [`crate::atomic`]).
//!
//! The only part of `import` that touches the file system or the network.
//! It prints nothing: what a command should say comes back as values, and
//! as [`Event`]s while the files are fetched.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context as _;

use super::{IndexGame, Inputs, PlannedGame, Source, Wanted};
use crate::atomic;
use crate::fetch::{self, FetchError, Fetcher};
use crate::layout;
use crate::load::{BUILTIN_ACTIVITY_SCHEMA, BUILTIN_GAMES_SCHEMA, REGISTRY_PATH};
use crate::tree;

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
}

/// What happens while [`gather`] reads a site.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// Something the user should know that does not stop the import.
    Note(String),
    /// This many files are about to be fetched.
    Fetching(usize),
    /// One of them arrived (or failed).
    Fetched,
}

/// What was read: the files, the index when there was one, and one line per
/// file that could not be read.
#[derive(Debug, Default)]
pub struct Gathered {
    pub sources: Vec<Source>,
    pub index: Option<Vec<IndexGame>>,
    pub errors: Vec<String>,
}

/// Reads the published files `request` names: from a folder, or from a
/// site's base URL. Files that cannot be read are listed in
/// [`Gathered::errors`]; `Err` when there is nothing to read from at all.
pub fn gather(request: &Request, on: &mut dyn FnMut(Event)) -> anyhow::Result<Gathered> {
    let from = request.from;
    let mut gathered = if from.starts_with("http://") || from.starts_with("https://") {
        from_url(request, on)?
    } else {
        from_folder(Path::new(from), request.games)?
    };
    if !request.games.is_empty() {
        gathered.sources.retain(|s| request.games.contains(&s.game));
    }
    Ok(gathered)
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
    pub text: String,
    pub action: Action,
}

/// An import planned against the root, before anything is written.
#[derive(Debug)]
pub struct Prepared {
    /// The schemas first (only where the root has none), the data files,
    /// `games.json` last: a registry never names files not written yet.
    pub files: Vec<PlannedFile>,
    pub games: Vec<PlannedGame>,
    /// One line per file that was not imported: unreadable, or refused by the mapping.
    pub errors: Vec<String>,
}

/// Maps what was gathered onto the root under `root` (its `games.json`
/// kept and extended) and compares each resulting file with the disk.
/// Nothing is written.
pub fn prepare(root: &Path, gathered: Gathered, default_locale: &str) -> anyhow::Result<Prepared> {
    let existing_registry = match std::fs::read_to_string(root.join(REGISTRY_PATH)) {
        Ok(text) => Some(text),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => None,
        Err(err) => return Err(err).context("cannot read games.json of the root"),
    };
    let Gathered {
        sources,
        index,
        mut errors,
    } = gathered;
    let plan = super::plan(Inputs {
        sources,
        index,
        existing_registry,
        default_locale: default_locale.to_owned(),
    })
    .map_err(|why| anyhow::anyhow!(why))?;
    errors.extend(plan.errors);

    // The schemas, so the `$schema` lines resolve in editors; kept when present.
    let mut texts = plan.files;
    for (path, text) in [
        (tree::ACTIVITY_SCHEMA_PATH, BUILTIN_ACTIVITY_SCHEMA),
        (tree::GAMES_SCHEMA_PATH, BUILTIN_GAMES_SCHEMA),
    ] {
        if !root.join(path).exists() {
            texts.insert(0, (path.to_owned(), text.to_owned()));
        }
    }
    let mut files = Vec::with_capacity(texts.len());
    for (path, text) in texts {
        let action = match std::fs::read(root.join(&path)) {
            Ok(bytes) if bytes == text.as_bytes() => Action::Unchanged,
            Ok(_) => Action::Replaced,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => Action::Created,
            Err(err) => {
                return Err(err).with_context(|| format!("cannot read `{path}` of the root"));
            }
        };
        files.push(PlannedFile { path, text, action });
    }
    Ok(Prepared {
        files,
        games: plan.games,
        errors,
    })
}

impl Prepared {
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
            atomic::write(&path, file.text.as_bytes())
                .with_context(|| format!("cannot write `{}`", path.display()))?;
        }
        Ok(())
    }

    /// One line per file: `created data/ww/en-US.json`.
    pub fn listing(&self) -> String {
        self.files
            .iter()
            .map(|f| format!("{} {}\n", f.action.as_str(), f.path))
            .collect()
    }
}

/// A folder: `api/v1/activity/` of a site (with `api/v1/games.json` when
/// there is one), or `public/api/v1/activity/` of a site's sources, else
/// the folder itself, flat.
fn from_folder(dir: &Path, games: &[String]) -> anyhow::Result<Gathered> {
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
        anyhow::bail!("`--from {arg}` is neither a folder nor an http(s) URL");
    }
    let site_index = dir.join(layout::INDEX_PATH);
    if site_index.is_file() {
        let bytes = std::fs::read(&site_index)
            .with_context(|| format!("cannot read `{}`", site_index.display()))?;
        if let Ok(index) = super::parse_index(&bytes) {
            let wanted = super::listed_files(&index, games);
            let mut gathered = read_each(wanted, |path| {
                let file = dir.join(path.trim_start_matches('/'));
                let origin = file.display().to_string();
                (origin, std::fs::read(&file).map_err(|e| e.to_string()))
            });
            gathered.index = Some(index);
            return Ok(gathered);
        }
    }
    // A built site, the source tree of a site (`public/`), else flat.
    let flat = [
        dir.join(layout::ACTIVITY_DIR),
        dir.join("public").join(layout::ACTIVITY_DIR),
    ]
    .into_iter()
    .find(|candidate| candidate.is_dir())
    .unwrap_or_else(|| dir.to_path_buf());
    let mut names = Vec::new();
    for entry in
        std::fs::read_dir(&flat).with_context(|| format!("cannot read `{}`", flat.display()))?
    {
        let entry = entry.with_context(|| format!("cannot read `{}`", flat.display()))?;
        if entry.file_type().is_ok_and(|t| t.is_file()) {
            names.push(entry.file_name().to_string_lossy().into_owned());
        }
    }
    names.sort();
    let wanted = super::split_names(&names)
        .into_iter()
        .map(|(name, (game, locale))| Wanted {
            path: name,
            game,
            locale,
        })
        .collect();
    Ok(read_each(wanted, |name| {
        let path: PathBuf = flat.join(name);
        let origin = path.display().to_string();
        (origin, std::fs::read(&path).map_err(|e| e.to_string()))
    }))
}

/// The files of `wanted`, read by `read` (path -> (origin, bytes)).
fn read_each(
    wanted: Vec<Wanted>,
    mut read: impl FnMut(&str) -> (String, Result<Vec<u8>, String>),
) -> Gathered {
    let mut gathered = Gathered::default();
    for Wanted { path, game, locale } in wanted {
        let (origin, bytes) = read(&path);
        gathered.add(game, locale, origin, bytes);
    }
    gathered
}

impl Gathered {
    fn add(
        &mut self,
        game: String,
        locale: Option<String>,
        origin: String,
        bytes: Result<Vec<u8>, impl std::fmt::Display>,
    ) {
        match bytes {
            Ok(bytes) => self.sources.push(Source {
                game,
                locale,
                origin,
                bytes,
            }),
            Err(why) => self.errors.push(format!("{origin}: {why}")),
        }
    }
}

/// A URL: the site's index when it has one, else `--games` and `--locales`.
fn from_url(request: &Request, on: &mut dyn FnMut(Event)) -> anyhow::Result<Gathered> {
    fetch::http_url("--from", request.from)?;
    let site = layout::site_root(request.from).to_owned();
    let fetcher = Fetcher::new("import", request.timeout)?;

    let index_url = format!("{site}/{}", layout::INDEX_PATH);
    let index = match fetcher.get(&index_url) {
        Ok(bytes) => match super::parse_index(&bytes) {
            Ok(index) => Some(index),
            Err(why) => {
                on(Event::Note(format!(
                    "{index_url} is not an activity-site index ({why}); using --games"
                )));
                None
            }
        },
        Err(FetchError::NotFound) => None,
        Err(why) if request.games.is_empty() => {
            anyhow::bail!("cannot fetch {index_url}: {why}");
        }
        Err(why) => {
            on(Event::Note(format!(
                "cannot fetch {index_url} ({why}); using --games"
            )));
            None
        }
    };

    let wanted = match &index {
        Some(index) => super::listed_files(index, request.games),
        None => {
            anyhow::ensure!(
                !request.games.is_empty(),
                "{index_url} is not there, so the games to fetch are unknown\n\
                 help: name them: --games ak,end --locales en-US"
            );
            super::guessed_files(request.games, request.locales, request.default_locale)
        }
    };

    on(Event::Fetching(wanted.len()));
    let urls: Vec<String> = wanted
        .iter()
        .map(|w| format!("{site}/{}", w.path))
        .collect();
    let results = fetcher.for_each(&urls, |_, result| {
        on(Event::Fetched);
        result
    });
    let mut gathered = Gathered {
        index,
        ..Gathered::default()
    };
    for ((wanted, url), result) in wanted.into_iter().zip(urls).zip(results) {
        gathered.add(wanted.game, wanted.locale, url, result);
    }
    Ok(gathered)
}
