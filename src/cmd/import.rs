//! `import`: read a deployed API (a folder or an http(s) base URL), hand the
//! files to the pure mapping of [`crate::import`], refuse to overwrite what
//! differs unless `--force`, write, and end with the `check` of the result.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context as _;

use crate::atomic;
use crate::cli::ImportArgs;
use crate::diagnostics::{self, Format};
use crate::fetch::{FetchError, Fetcher};
use crate::import::{self, IndexGame, Inputs, Source};
use crate::layout;
use crate::load::{BUILTIN_ACTIVITY_SCHEMA, BUILTIN_GAMES_SCHEMA};
use crate::site;
use crate::validate;

/// What was read: the files, the index when there was one, and one line per
/// file that could not be read.
struct Gathered {
    sources: Vec<Source>,
    index: Option<Vec<IndexGame>>,
    errors: Vec<String>,
}

pub fn run(args: ImportArgs) -> anyhow::Result<ExitCode> {
    let root = args.common.root.clone();
    let gathered = if args.from.starts_with("http://") || args.from.starts_with("https://") {
        from_url(&args)?
    } else {
        from_folder(Path::new(&args.from), &args.games)?
    };
    let Gathered {
        mut sources,
        index,
        mut errors,
    } = gathered;
    if !args.games.is_empty() {
        sources.retain(|s| args.games.contains(&s.game));
    }
    if sources.is_empty() {
        for error in &errors {
            eprintln!("error: {error}");
        }
        anyhow::bail!(
            "found no activity file to import in `{}`\n\
             help: give a folder of <game>.json and <game>-<locale>.json files, a site holding api/v1/activity/, or a site's base URL",
            args.from
        );
    }

    let registry_path = root.join("games.json");
    let existing_registry = match std::fs::read_to_string(&registry_path) {
        Ok(text) => Some(text),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => None,
        Err(err) => return Err(err).context("cannot read games.json of the root"),
    };
    let plan = import::plan(Inputs {
        sources,
        index,
        existing_registry,
        default_locale: args.default_locale.clone(),
    })
    .map_err(|why| anyhow::anyhow!(why))?;
    errors.extend(plan.errors.iter().cloned());

    // The schemas, so the `$schema` lines resolve in editors; kept when present.
    let mut files = plan.files.clone();
    for (path, text) in [
        ("schema/activity.schema.json", BUILTIN_ACTIVITY_SCHEMA),
        ("schema/games.schema.json", BUILTIN_GAMES_SCHEMA),
    ] {
        if !root.join(path).exists() {
            files.insert(0, (path.to_owned(), text.to_owned()));
        }
    }

    // Compare with the disk before writing anything.
    let mut actions = Vec::new();
    let mut conflicts = Vec::new();
    for (path, text) in &files {
        let action = match std::fs::read(root.join(path)) {
            Ok(bytes) if bytes == text.as_bytes() => "unchanged",
            Ok(_) => {
                conflicts.push(path.clone());
                "replaced"
            }
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => "created",
            Err(err) => {
                return Err(err).with_context(|| format!("cannot read `{path}` of the root"));
            }
        };
        actions.push(action);
    }
    if !conflicts.is_empty() && !args.force {
        for error in &errors {
            eprintln!("error: {error}");
        }
        anyhow::bail!(
            "refusing to overwrite {} file{} of `{}` that the import would change: {}; nothing was written\n\
             help: commit or back them up, then pass --force to replace them",
            conflicts.len(),
            if conflicts.len() == 1 { "" } else { "s" },
            root.display(),
            conflicts.join(", ")
        );
    }

    // Data first, games.json last: a registry never names files not written yet.
    for ((path, text), action) in files.iter().zip(&actions) {
        if *action != "unchanged" {
            atomic::write(&root.join(path), text.as_bytes())
                .with_context(|| format!("cannot write `{}`", root.join(path).display()))?;
        }
    }
    // Printed once everything is written: a closed stdout stops nothing halfway.
    let listing: String = files
        .iter()
        .zip(&actions)
        .map(|((path, _), action)| format!("{action} {path}\n"))
        .collect();
    super::print_out(&listing)?;
    for game in plan.games.iter().filter(|g| g.placeholder) {
        eprintln!(
            "note: games.json: `{}` got placeholders for `name` and `dataSource`; replace them (`activity-site status` lists them)",
            game.id
        );
    }
    for error in &errors {
        eprintln!("error: {error}");
    }

    let options = validate::Options {
        now: args.common.now,
    };
    let checked = site::check(&root, &options)?;
    super::check::report(&root, &checked.diagnostics, Format::Human)?;
    let counts = diagnostics::count(&checked.diagnostics);
    if !errors.is_empty() {
        eprintln!(
            "import: {} file{} not imported (see the errors above)",
            errors.len(),
            if errors.len() == 1 { "" } else { "s" }
        );
    }
    Ok(if counts.errors > 0 || !errors.is_empty() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
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
            crate::fetch::http_url("--from", &arg)?;
        }
        anyhow::bail!("`--from {arg}` is neither a folder nor an http(s) URL");
    }
    let site_index = dir.join(layout::INDEX_PATH);
    if site_index.is_file() {
        let bytes = std::fs::read(&site_index)
            .with_context(|| format!("cannot read `{}`", site_index.display()))?;
        if let Ok(index) = import::parse_index(&bytes) {
            return Ok(from_index_files(index, games, |path| {
                let file = dir.join(path.trim_start_matches('/'));
                let origin = file.display().to_string();
                (origin, std::fs::read(&file).map_err(|e| e.to_string()))
            }));
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
    let mut gathered = Gathered {
        sources: Vec::new(),
        index: None,
        errors: Vec::new(),
    };
    for (name, (game, locale)) in import::split_names(&names) {
        let path: PathBuf = flat.join(&name);
        let origin = path.display().to_string();
        match std::fs::read(&path) {
            Ok(bytes) => gathered.sources.push(Source {
                game,
                locale,
                origin,
                bytes,
            }),
            Err(err) => gathered.errors.push(format!("{origin}: {err}")),
        }
    }
    Ok(gathered)
}

/// The files an index lists, read by `read` (path -> (origin, bytes)).
fn from_index_files(
    index: Vec<IndexGame>,
    games: &[String],
    mut read: impl FnMut(&str) -> (String, Result<Vec<u8>, String>),
) -> Gathered {
    let mut gathered = Gathered {
        sources: Vec::new(),
        index: None,
        errors: Vec::new(),
    };
    for game in &index {
        if !games.is_empty() && !games.contains(&game.id) {
            continue;
        }
        for (locale, default, path) in &game.files {
            if !path.ends_with(".json") {
                continue;
            }
            let (origin, bytes) = read(path);
            match bytes {
                Ok(bytes) => gathered.sources.push(Source {
                    game: game.id.clone(),
                    locale: (!default).then(|| locale.clone()),
                    origin,
                    bytes,
                }),
                Err(why) => gathered.errors.push(format!("{origin}: {why}")),
            }
        }
    }
    gathered.index = Some(index);
    gathered
}

/// A URL: the site's index when it has one, else `--games` and `--locales`.
fn from_url(args: &ImportArgs) -> anyhow::Result<Gathered> {
    crate::fetch::http_url("--from", &args.from)?;
    let site = layout::site_root(&args.from).to_owned();
    let activity = format!("{site}/{}", layout::ACTIVITY_DIR);
    let fetcher = Fetcher::new("import", Duration::from_secs(args.timeout.max(1)))?;

    let index_url = format!("{site}/{}", layout::INDEX_PATH);
    let index = match fetcher.get(&index_url) {
        Ok(bytes) => match import::parse_index(&bytes) {
            Ok(index) => Some(index),
            Err(why) => {
                eprintln!("note: {index_url} is not an activity-site index ({why}); using --games");
                None
            }
        },
        Err(FetchError::NotFound) => None,
        Err(why) if args.games.is_empty() => {
            anyhow::bail!("cannot fetch {index_url}: {why}");
        }
        Err(why) => {
            eprintln!("note: cannot fetch {index_url} ({why}); using --games");
            None
        }
    };

    // (url, game, locale) of every file to fetch.
    let mut wanted: Vec<(String, String, Option<String>)> = Vec::new();
    match &index {
        Some(index) => {
            for game in index {
                if !args.games.is_empty() && !args.games.contains(&game.id) {
                    continue;
                }
                for (locale, default, path) in &game.files {
                    if path.ends_with(".json") {
                        wanted.push((
                            format!("{site}{path}"),
                            game.id.clone(),
                            (!default).then(|| locale.clone()),
                        ));
                    }
                }
            }
        }
        None => {
            anyhow::ensure!(
                !args.games.is_empty(),
                "{index_url} is not there, so the games to fetch are unknown\n\
                 help: name them: --games ak,end --locales en-US"
            );
            for game in &args.games {
                wanted.push((format!("{activity}/{game}.json"), game.clone(), None));
                for locale in args.locales.iter().filter(|l| **l != args.default_locale) {
                    wanted.push((
                        format!("{activity}/{game}-{locale}.json"),
                        game.clone(),
                        Some(locale.clone()),
                    ));
                }
            }
        }
    }

    let progress = super::progress_bar(wanted.len() as u64, "fetching {bar:30} {pos}/{len}");
    let urls: Vec<String> = wanted.iter().map(|(url, _, _)| url.clone()).collect();
    let results = fetcher.for_each(&urls, |_, result| {
        progress.inc(1);
        result
    });
    progress.finish_and_clear();

    let mut gathered = Gathered {
        sources: Vec::new(),
        index,
        errors: Vec::new(),
    };
    for ((url, game, locale), result) in wanted.into_iter().zip(results) {
        match result {
            Ok(bytes) => gathered.sources.push(Source {
                game,
                locale,
                origin: url,
                bytes,
            }),
            Err(why) => gathered.errors.push(format!("{url}: {why}")),
        }
    }
    Ok(gathered)
}
