//! Moving an existing API in: published activity files (`<game>.json`,
//! `<game>-<locale>.json`, and an `api/v1/games.json` index when there is
//! one) to the files of a data tree (`games.json`, `data/<game>/<locale>.json`),
//! and the documents of every other kind by its declaration
//! ([`crate::kind`]): a file is the kind its shape says ([`shape_of`]); an
//! activity document is placed game by game through the registry, a
//! document of a kind published once per locale is recognised by the
//! names the kind publishes it under ([`per_locale_document`]) and placed
//! at its source of that locale ([`per_locale_file`]).
//!
//! Pure: it takes bytes and returns bytes. Reading folders, fetching URLs,
//! comparing with what is on disk and writing belong to the root package's
//! `import::io`, above this crate, the one part of `import` that touches
//! the file system or the network.
//!
//! # May know, may not know
//!
//! May know the checker (`activity-site-check`): [`crate::model`], the
//! [`crate::json`] parser, the kinds, the site's [`crate::layout`] and the
//! source [`crate::tree`]. May not know the builder, the fetcher or any HTTP
//! or async crate: it does not depend on them, so the compiler refuses the
//! arrow. The checker's loader and `stdx`'s atomic writer are in its reach
//! through the checker; `tests/architecture.rs` holds it to the modules
//! above, and `std::fs` is this crate's promise not to use.
//!
//! Nothing is lost on the way: a data file is the source text itself, byte
//! for byte, with a `$schema` line added after its opening brace (so key
//! order, activity order, number spelling, `kind` and fields this tool does
//! not know, even a repeated key, all survive for `check` to judge).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

// The checker's modules, under the names every line of the mapping uses.
use activity_site_check::{i18n, json, kind, layout, model, tree};

use crate::i18n::{Msg, msg};
use crate::kind::Kind;
use crate::layout::Naming;
use crate::model::{Game, Time, is_game_id};

pub use crate::tree::{DATA_SCHEMA, REGISTRY_SCHEMA};
/// Host of the placeholder `dataSource` written for a game nobody described
/// yet; `status` points such games out. `.invalid` never resolves (RFC 2606).
pub const PLACEHOLDER_HOST: &str = "replace-me.invalid";

/// One published file, as found in a folder or fetched from a URL.
#[derive(Debug, Clone)]
pub struct Source {
    pub game: String,
    /// `None` for the un-suffixed `<game>.json` (the default locale).
    pub locale: Option<String>,
    /// Where it came from, for messages (a path or a URL).
    pub origin: String,
    pub bytes: Vec<u8>,
}

/// What an `api/v1/games.json` index (as `build` writes it) says about a game.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexGame {
    pub id: String,
    pub locales: Vec<String>,
    pub default_locale: String,
    /// `name`, `dataSource`, `timeZone` and `updateMode` (the one its
    /// files give) as published, when present.
    pub described: Map<String, Value>,
    /// The published files: (locale, is the un-suffixed file, path relative
    /// to the site root).
    pub files: Vec<(String, bool, String)>,
    /// The locales the registry lists without a document yet (the index's
    /// `pending`): listed again in `games.json`, no file imported.
    pub pending: Vec<String>,
}

/// Reads an `api/v1/games.json` index ([`layout::Index`]). `Err` says why
/// it is not one.
pub fn parse_index(bytes: &[u8]) -> Result<Vec<IndexGame>, Msg> {
    let index = layout::Index::parse(bytes).map_err(|why| msg!("plain", text = why))?;
    let mut out = Vec::new();
    for game in index.games {
        let default_locale = game
            .default_locale
            .or_else(|| game.locales.first().cloned())
            .ok_or_else(|| msg!("import-index-no-locales", game = game.id.as_str()))?;
        let mut described = Map::new();
        // The index's `dataSource` is derived from the typed sources where
        // the registry gave none: the same derivation, then, means none.
        let typed: Option<indexmap::IndexMap<String, Vec<crate::model::DataSource>>> = game
            .data_sources
            .as_ref()
            .and_then(|s| serde_json::from_value(s.clone()).ok());
        let derived = typed
            .as_ref()
            .and_then(|s| crate::model::source_pages(s, &game.locales));
        let data_source = game
            .data_source
            .filter(|given| typed.is_none() || derived.as_ref() != Some(given));
        let fields = [
            ("name", game.name.map(serde_json::to_value)),
            ("dataSource", data_source.map(serde_json::to_value)),
            ("dataSources", game.data_sources.map(Ok)),
            ("timeZone", game.time_zone.map(|n| Ok(Value::from(n)))),
            ("updateMode", game.update_mode.map(serde_json::to_value)),
            (
                ZONE_ASSUMED,
                game.time_zone_assumed.then_some(Ok(Value::Bool(true))),
            ),
            ("conventions", game.conventions.map(Ok)),
        ];
        for (key, value) in fields {
            if let Some(Ok(value)) = value {
                described.insert(key.to_owned(), value);
            }
        }
        let files = game
            .files
            .into_iter()
            .filter(|f| !f.locale.is_empty() && !f.path.is_empty())
            .map(|f| {
                let path = f.relative_path().to_owned();
                (f.locale, f.default, path)
            })
            .collect();
        out.push(IndexGame {
            id: game.id,
            locales: game.locales,
            default_locale,
            described,
            files,
            pending: game.pending,
        });
    }
    Ok(out)
}

/// One published document to read, and what it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wanted {
    /// Its path relative to the site root (`api/v1/activity/ww-en-US.json`).
    pub path: String,
    pub game: String,
    /// `None` for the un-suffixed `<game>.json` (the default locale).
    pub locale: Option<String>,
}

/// The documents an index lists, of `games` only when some are named.
pub fn listed_files(index: &[IndexGame], games: &[String]) -> Vec<Wanted> {
    index
        .iter()
        .filter(|game| games.is_empty() || games.contains(&game.id))
        .flat_map(|game| {
            game.files
                .iter()
                .filter(|(_, _, path)| path.ends_with(".json"))
                .map(|(locale, default, path)| Wanted {
                    path: path.clone(),
                    game: game.id.clone(),
                    locale: (!default).then(|| locale.clone()),
                })
        })
        .collect()
}

/// Without an index, the documents a site would publish for `games`: the
/// un-suffixed `<game>.json` and `<game>-<locale>.json` for each of
/// `locales` but the default one.
pub fn guessed_files(games: &[String], locales: &[String], default_locale: &str) -> Vec<Wanted> {
    let mut wanted = Vec::new();
    for game in games {
        wanted.push(Wanted {
            path: layout::activity_file(game, "json"),
            game: game.clone(),
            locale: None,
        });
        for locale in locales.iter().filter(|l| *l != default_locale) {
            wanted.push(Wanted {
                path: layout::activity_file(&format!("{game}-{locale}"), "json"),
                game: game.clone(),
                locale: Some(locale.clone()),
            });
        }
    }
    wanted
}

/// Whether `s` is a locale tag that cannot be the tail of a game id: game
/// ids are lowercase, so a tag with a region or script (`en-US`, `zh-Hans`)
/// or a bare language that also has an un-suffixed twin is a locale.
fn looks_like_locale(s: &str) -> bool {
    let mut parts = s.split('-');
    let Some(lang) = parts.next() else {
        return false;
    };
    let lang_ok = (2..=3).contains(&lang.len()) && lang.bytes().all(|b| b.is_ascii_lowercase());
    let rest: Vec<&str> = parts.collect();
    lang_ok
        && !rest.is_empty()
        && rest
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_alphanumeric()))
        && rest.iter().any(|p| {
            p.bytes()
                .any(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
        })
}

/// Splits published file names (`ak.json`, `ak-en-US.json`, `ba-jp.json`)
/// into (game, locale). A hyphenated tail is a locale only when it looks
/// like one (`en-US`), or when it is a bare language (`en`) and the folder
/// also has the un-suffixed file of the game before it; otherwise the whole
/// stem is a game id (`ba-jp`). Names that are not `*.json` are skipped.
pub fn split_names(names: &[String]) -> BTreeMap<String, (String, Option<String>)> {
    let stems: BTreeSet<&str> = names
        .iter()
        .filter_map(|n| n.strip_suffix(".json"))
        .collect();
    let mut out = BTreeMap::new();
    for name in names {
        let Some(stem) = name.strip_suffix(".json") else {
            continue;
        };
        let mut split = None;
        for (i, _) in stem.match_indices('-') {
            let (game, locale) = (&stem[..i], &stem[i + 1..]);
            let bare_language = (2..=3).contains(&locale.len())
                && locale.bytes().all(|b| b.is_ascii_lowercase())
                && stems.contains(game);
            if looks_like_locale(locale) || bare_language {
                split = Some((game.to_owned(), Some(locale.to_owned())));
                break;
            }
        }
        out.insert(
            name.clone(),
            split.unwrap_or_else(|| (stem.to_owned(), None)),
        );
    }
    out
}

/// The text of a data file: the source with `"$schema"` added as the first
/// key, in the source's own indentation. The source must be a JSON object.
pub fn data_file(source: &[u8]) -> Result<String, Msg> {
    let text =
        std::str::from_utf8(source).map_err(|e| msg!("import-not-utf8", error = e.to_string()))?;
    // A byte-order mark is an encoding detail, not a value.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut value: Value =
        serde_json::from_str(text).map_err(|e| msg!("import-not-json", error = e.to_string()))?;
    // What a build adds to every document (instants, zone, due time) is
    // made again from the data: the data file holds the rest, in the
    // source's key order, pretty-printed.
    let stripped;
    let text = if crate::model::published::strip_derived(&mut value) {
        stripped = crate::model::to_pretty(&value);
        stripped.as_str()
    } else {
        text
    };
    let Value::Object(object) = &value else {
        return Err(msg!("import-not-object"));
    };
    if object.contains_key("$schema") {
        return Ok(text.to_owned());
    }
    let open = text.find('{').ok_or_else(|| msg!("import-not-object"))?;
    let after = &text[open + 1..];
    let gap_len = after.len() - after.trim_start().len();
    let (gap, rest) = after.split_at(gap_len);
    let entry = format!("\"$schema\": {}", Value::from(DATA_SCHEMA));
    Ok(if rest.starts_with('}') {
        format!("{}{{{gap}{entry}{gap}{rest}", &text[..open])
    } else {
        format!("{}{{{gap}{entry},{gap}{rest}", &text[..open])
    })
}

/// One game of the result, with where its default locale came from.
#[derive(Debug, Clone, PartialEq)]
pub struct PlannedGame {
    pub id: String,
    pub locales: Vec<String>,
    pub default_locale: String,
    /// Whether `games.json` gets placeholders for it (nobody described it).
    pub placeholder: bool,
    /// The `timeZone` the game has in `games.json` after the import.
    pub time_zone: String,
    /// Where that zone came from.
    pub zone_from: ZoneFrom,
    /// The game's name in `games.json` after the import, as the summary
    /// shows it (a localized name in its default locale).
    pub name: String,
    /// Where that name came from.
    pub name_from: NameFrom,
}

/// Where an imported game's `name` came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameFrom {
    /// `games.json` of the root had it already.
    Registry,
    /// The site's index published it.
    Index,
    /// The site's `llms.txt` names it in its list of games.
    Llms,
    /// Nobody said: its id stands in for it.
    Id,
}

impl NameFrom {
    /// How the summary says it.
    pub fn label(self) -> Msg {
        msg!(
            "import-name-from",
            from = match self {
                NameFrom::Registry => "registry",
                NameFrom::Index => "index",
                NameFrom::Llms => "llms",
                NameFrom::Id => "id",
            }
        )
    }
}

/// What the maintainer chose for a legacy all-in-one file that is one
/// game's activity document (`import --legacy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LegacyChoice {
    /// Publish it from the game's data at every build (an alias in
    /// `games.json`), so it never falls behind.
    #[value(help = "help-value-legacy-sync")]
    Sync,
    /// Keep this copy as it is, frozen, in `data/_files/`.
    #[value(help = "help-value-legacy-keep")]
    Keep,
}

/// A legacy file found on the site (`api/v1/activities.json`) that has the
/// shape of an activity document.
#[derive(Debug, Clone)]
pub struct Legacy {
    /// Its path relative to the site root.
    pub path: String,
    pub origin: String,
    pub bytes: Vec<u8>,
}

/// A legacy file recognised as one game's document of one locale.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recognised {
    pub path: String,
    pub game: String,
    pub locale: String,
    /// The same document as the game's (else an older or other copy).
    pub same: bool,
    /// The `version` the legacy copy holds.
    pub version: String,
    /// Whether it became an alias of the game in `games.json` (`--legacy sync`).
    pub synced: bool,
}

/// Where an imported game's `timeZone` came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ZoneFrom {
    /// `games.json` of the root had it already.
    Registry,
    /// The site's index published it.
    Index,
    /// `--time-zone`.
    Option,
    /// Nobody said: the default zone was assumed (and `games.json` says so).
    Assumed,
    /// `games.json` of the root has it, still marked as assumed by an
    /// earlier import and not confirmed.
    Unconfirmed,
}

impl ZoneFrom {
    /// How the summary says it.
    pub fn label(self) -> Msg {
        msg!(
            "import-zone-from",
            from = match self {
                ZoneFrom::Registry => "registry",
                ZoneFrom::Index => "index",
                ZoneFrom::Option => "option",
                ZoneFrom::Assumed => "assumed",
                ZoneFrom::Unconfirmed => "unconfirmed",
            }
        )
    }
}

/// The kind a published JSON file is by its shape ([`kind::of_shape`]):
/// an activity document (`version` and an `activities` array), an
/// announcements board (`id` and an `announcements` array); `None` for
/// anything else (not JSON, another object, an array).
pub fn shape_of(bytes: &[u8]) -> Option<&'static Kind> {
    let text = std::str::from_utf8(bytes).unwrap_or_default();
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let Ok(Value::Object(map)) = serde_json::from_str::<Value>(text) else {
        return None;
    };
    kind::of_shape(&map)
}

/// Whether `kind` is the activity documents', which an import places
/// game by game through the registry; every other kind with a shape is
/// published once per locale and placed by its declaration
/// ([`per_locale_document`], [`kind::Kind::locale_path`]).
pub fn is_activities(kind: &Kind) -> bool {
    kind::same(kind, &kind::activities::KIND)
}

/// The kind and locale of a published document of a kind published once
/// per locale (`api/v1/anno-<locale>.json`: the announcements and
/// `Some("<locale>")`; the un-suffixed `api/v1/anno.json`: `None`, the
/// site's locale), by the names the kind declares; `None` for any other
/// path.
pub fn per_locale_document(path: &str) -> Option<(&'static Kind, Option<&str>)> {
    kind::ALL
        .iter()
        .copied()
        .find_map(|k| Some((k, k.published_locale(path)?)))
}

/// The path under the site root of a file named `name` in a flat folder
/// when that is the name of a document of a kind published once per
/// locale (`anno-en-US.json`: `api/v1/anno-en-US.json`).
pub fn per_locale_named(name: &str) -> Option<String> {
    kind::ALL.iter().find_map(|k| {
        let probe = k.published_path("", Naming::Plain, "json")?;
        let (dir, _) = probe.rsplit_once('/')?;
        let path = format!("{dir}/{name}");
        k.published_locale(&path).is_some().then_some(path)
    })
}

/// The text of a source file of a kind published once per locale (an
/// announcements board): the published document in canonical pretty
/// form (key order kept, nothing dropped), or why not.
pub fn per_locale_file(source: &[u8]) -> Result<String, Msg> {
    let text =
        std::str::from_utf8(source).map_err(|e| msg!("import-not-utf8", error = e.to_string()))?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if has_repeated_keys(text) {
        return Err(msg!("import-repeated-key"));
    }
    let value: Value =
        serde_json::from_str(text).map_err(|e| msg!("import-not-json", error = e.to_string()))?;
    let mut out =
        serde_json::to_string_pretty(&value).map_err(|e| msg!("plain", text = e.to_string()))?;
    out.push('\n');
    Ok(out)
}

/// What an import writes, and what it could not take.
#[derive(Debug, Default)]
pub struct Plan {
    /// Paths relative to the root, and their contents; `games.json` last.
    pub files: Vec<(String, String)>,
    pub games: Vec<PlannedGame>,
    /// One line per source that was not imported, and why.
    pub errors: Vec<Msg>,
    /// How many sources were imported (twins of one document each count).
    pub imported: usize,
    /// The legacy file, when it is one game's document.
    pub legacy: Option<Recognised>,
}

/// Everything the mapping needs.
#[derive(Debug, Default)]
pub struct Inputs {
    pub sources: Vec<Source>,
    /// The index of the site imported from, when it had one.
    pub index: Option<Vec<IndexGame>>,
    /// The root's `games.json`, when it has one.
    pub existing_registry: Option<String>,
    /// The locale of an un-suffixed file no index or registry explains.
    pub default_locale: String,
    /// `--time-zone`: for every imported game (key `None`) or one (`Some(id)`).
    pub time_zones: Vec<(Option<String>, String)>,
    /// The names the site's `llms.txt` gives its games.
    pub names: BTreeMap<String, String>,
    /// A legacy file with the shape of an activity document, and what to do
    /// with it when it is one game's (`--legacy`).
    pub legacy: Option<(Legacy, Option<LegacyChoice>)>,
}

/// Maps published files to the files of a data tree.
///
/// - The un-suffixed `<game>.json` is the default locale: the index's or
///   the existing registry's `defaultLocale`, else `inputs.default_locale`.
///   When its suffixed twin is there too they must hold the same document.
/// - `games.json` keeps every game and field already there; an imported
///   game gets its locales and default locale from the files; name, time
///   zone and source come from the registry, else from the index, else
///   placeholders (the id, and a `dataSource` on [`PLACEHOLDER_HOST`]).
pub fn plan(inputs: Inputs) -> Result<Plan, Msg> {
    let mut registry = open_registry(inputs.existing_registry.as_deref())?;
    let mut planner = Planner::new(&inputs, &registry);
    for (id, sources) in &sources_by_game(&inputs) {
        planner.add_game(id, sources);
    }
    if let Some((legacy, choice)) = &inputs.legacy {
        planner.place_legacy(legacy, *choice);
    }
    let Planner {
        mut result,
        registry_games,
        ..
    } = planner;
    registry.insert("games".to_owned(), Value::Array(registry_games));
    let mut text = serde_json::to_string_pretty(&Value::Object(registry))
        .map_err(|e| msg!("import-registry-unwritable", error = e.to_string()))?;
    text.push('\n');
    result
        .files
        .push((crate::tree::REGISTRY_PATH.to_owned(), text));
    Ok(result)
}

/// The root's `games.json` as an object to extend, or a new one with no
/// games when the root has none.
fn open_registry(existing: Option<&str>) -> Result<Map<String, Value>, Msg> {
    let Some(text) = existing else {
        let mut map = Map::new();
        map.insert("$schema".to_owned(), Value::from(REGISTRY_SCHEMA));
        map.insert("games".to_owned(), Value::Array(Vec::new()));
        return Ok(map);
    };
    if has_repeated_keys(text) {
        return Err(msg!("import-registry-repeated-key"));
    }
    let value: Value = serde_json::from_str(text)
        .map_err(|e| msg!("import-registry-not-json", error = e.to_string()))?;
    let Value::Object(map) = value else {
        return Err(msg!("import-registry-not-object"));
    };
    Ok(map)
}

/// The sources grouped by game: the games in the index's order, then in
/// the order their files came.
fn sources_by_game(inputs: &Inputs) -> Vec<(String, Vec<&Source>)> {
    let mut by_game: Vec<(String, Vec<&Source>)> = inputs
        .index
        .iter()
        .flatten()
        .map(|g| (g.id.clone(), Vec::new()))
        .collect();
    for source in &inputs.sources {
        match by_game.iter_mut().find(|(id, _)| *id == source.game) {
            Some((_, list)) => list.push(source),
            None => by_game.push((source.game.clone(), vec![source])),
        }
    }
    by_game
}

/// One [`plan`] under way: what is known of the games, and what is planned
/// so far.
struct Planner<'a> {
    inputs: &'a Inputs,
    /// The games the root's `games.json` already lists, by id.
    known: BTreeMap<String, Game>,
    /// The games of the site's index, by id.
    index: BTreeMap<&'a str, &'a IndexGame>,
    /// The entries of the registry's `games`, updated game by game.
    registry_games: Vec<Value>,
    /// Every imported document (game, locale, text), for the legacy file.
    imported: Vec<(String, String, String)>,
    result: Plan,
}

/// The documents read for one game: locale to (origin, text), and the
/// locales in the order their files came.
struct Documents {
    by_locale: BTreeMap<String, (String, String)>,
    order: Vec<String>,
}

impl<'a> Planner<'a> {
    fn new(inputs: &'a Inputs, registry: &Map<String, Value>) -> Self {
        let registry_games: Vec<Value> = registry
            .get("games")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let known = registry_games
            .iter()
            .filter_map(|g| serde_json::from_value::<Game>(g.clone()).ok())
            .map(|g| (g.id.clone(), g))
            .collect();
        let index = inputs
            .index
            .iter()
            .flatten()
            .map(|g| (g.id.as_str(), g))
            .collect();
        Planner {
            inputs,
            known,
            index,
            registry_games,
            imported: Vec::new(),
            result: Plan::default(),
        }
    }

    /// Plans the data files of game `id` and its entry of `games.json`.
    fn add_game(&mut self, id: &str, sources: &[&Source]) {
        if !is_game_id(id) {
            for s in sources {
                self.result.errors.push(msg!(
                    "import-not-game-id",
                    origin = s.origin.as_str(),
                    id = id
                ));
            }
            return;
        }
        let index = self.index.get(id).copied();
        let known = self.known.get(id);
        let default_locale = index
            .map(|g| g.default_locale.clone())
            .or_else(|| known.map(|g| g.default_locale.clone()))
            .unwrap_or_else(|| self.inputs.default_locale.clone());
        // Locale order: the index's, else the registry's, then the rest.
        let preferred: Vec<String> = index
            .map(|g| g.locales.clone())
            .or_else(|| known.map(|g| g.locales.clone()))
            .unwrap_or_else(|| vec![default_locale.clone()]);
        let docs = read_documents(sources, &default_locale, &mut self.result);
        if docs.by_locale.is_empty() {
            return;
        }
        let locales = preferred_first(&preferred, |l| docs.by_locale.contains_key(l), &docs.order);
        let default_locale = if docs.by_locale.contains_key(&default_locale) {
            default_locale
        } else {
            locales[0].clone()
        };
        for locale in &locales {
            let (_, text) = &docs.by_locale[locale];
            let path = crate::tree::data_path(id, locale);
            self.result.files.push((path, text.clone()));
            let document = (id.to_owned(), locale.clone(), text.clone());
            self.imported.push(document);
        }
        // The registry lists the index's pending locales too, in its order.
        let pending: &[String] = index.map_or(&[], |g| &g.pending);
        let listed = preferred_first(
            &preferred,
            |l| locales.contains(l) || pending.contains(l),
            &locales,
        );
        let given = self.given_zone(id);
        let registered = update_registry(
            &mut self.registry_games,
            &Described {
                id,
                locales: &listed,
                default_locale: &default_locale,
                published: index.map(|g| &g.described),
                llms_name: self.inputs.names.get(id).map(String::as_str),
                given,
            },
        );
        self.result.games.push(PlannedGame {
            id: id.to_owned(),
            locales,
            default_locale,
            placeholder: registered.placeholder,
            time_zone: registered.time_zone,
            zone_from: registered.zone_from,
            name: registered.name,
            name_from: registered.name_from,
        });
    }

    /// The `--time-zone` given for game `id`, else for every game.
    fn given_zone(&self, id: &str) -> Option<&'a str> {
        let zones = &self.inputs.time_zones;
        zones
            .iter()
            .find(|(game, _)| game.as_deref() == Some(id))
            .or_else(|| zones.iter().find(|(game, _)| game.is_none()))
            .map(|(_, zone)| zone.as_str())
    }

    /// Recognises the legacy file among the imported documents, and makes
    /// it an alias of its game when `--legacy sync` asks, or when
    /// `games.json` already declares it one.
    fn place_legacy(&mut self, legacy: &Legacy, choice: Option<LegacyChoice>) {
        self.result.legacy = recognise(legacy, &self.imported, &self.result.games);
        let known = &self.known;
        let declared = |found: &Recognised| {
            known
                .get(&found.game)
                .is_some_and(|g| g.aliases.iter().any(|a| a.path == found.path))
        };
        if let Some(found) = &mut self.result.legacy
            && (choice == Some(LegacyChoice::Sync) || (choice.is_none() && declared(found)))
        {
            add_alias(&mut self.registry_games, found, &self.result.games);
            found.synced = true;
        }
    }
}

/// Reads the sources of one game as data files, the un-suffixed one
/// first as `default_locale`'s; one that cannot be read, or that differs
/// from another of its locale, is an error of `plan`.
fn read_documents(sources: &[&Source], default_locale: &str, plan: &mut Plan) -> Documents {
    let mut docs = Documents {
        by_locale: BTreeMap::new(),
        order: Vec::new(),
    };
    let unsuffixed = sources.iter().find(|s| s.locale.is_none());
    let mut ordered: Vec<&&Source> = sources.iter().filter(|s| s.locale.is_some()).collect();
    ordered.sort_by_key(|s| s.locale.clone());
    for source in unsuffixed.into_iter().chain(ordered) {
        let locale = source
            .locale
            .clone()
            .unwrap_or_else(|| default_locale.to_owned());
        let text = match data_file(&source.bytes) {
            Ok(text) => text,
            Err(why) => {
                plan.errors.push(msg!(
                    "import-file-error",
                    origin = source.origin.as_str(),
                    why = why
                ));
                continue;
            }
        };
        if let Some((first, kept)) = docs.by_locale.get(&locale) {
            if same_document(kept, &text) {
                plan.imported += 1;
            } else {
                plan.errors.push(msg!(
                    "import-documents-differ",
                    origin = source.origin.as_str(),
                    first = first.as_str(),
                    locale = locale.as_str()
                ));
            }
            continue;
        }
        docs.order.push(locale.clone());
        plan.imported += 1;
        docs.by_locale.insert(locale, (source.origin.clone(), text));
    }
    docs
}

/// The locales of `preferred` that `keep` takes, in its order, then those
/// of `rest` not among them, in theirs.
fn preferred_first(
    preferred: &[String],
    keep: impl Fn(&String) -> bool,
    rest: &[String],
) -> Vec<String> {
    let mut locales: Vec<String> = preferred.iter().filter(|l| keep(l)).cloned().collect();
    for locale in rest {
        if !locales.contains(locale) {
            locales.push(locale.clone());
        }
    }
    locales
}

/// What is known of one imported game, for its entry of `games.json`.
struct Described<'a> {
    id: &'a str,
    locales: &'a [String],
    default_locale: &'a str,
    /// What the site's index published about it.
    published: Option<&'a Map<String, Value>>,
    /// The name the site's `llms.txt` gives it.
    llms_name: Option<&'a str>,
    /// `--time-zone`.
    given: Option<&'a str>,
}

/// What [`update_registry`] did to one game.
struct Registered {
    placeholder: bool,
    time_zone: String,
    zone_from: ZoneFrom,
    name: String,
    name_from: NameFrom,
}

/// Sets the locales of game `id` in the registry's games, adding the game
/// when it is new, and gives it an explicit `timeZone` (the registry's,
/// else the index's, else `given`, else the default, assumed and marked
/// `timeZoneAssumed`) and a `name` (the registry's, else the index's, else
/// the site's `llms.txt`, else its id).
fn update_registry(games: &mut Vec<Value>, game: &Described) -> Registered {
    let listed = games
        .iter_mut()
        .find(|g| g.get("id").and_then(Value::as_str) == Some(game.id));
    if let Some(Value::Object(entry)) = listed {
        return game.update_entry(entry);
    }
    let (entry, registered) = game.new_entry();
    games.push(Value::Object(entry));
    registered
}

impl Described<'_> {
    /// The time zone of the game and where it came from: the registry's
    /// (`existing`), else the index's, else `--time-zone`, else the default.
    fn zone(&self, existing: Option<&str>) -> (String, ZoneFrom) {
        let published = self
            .published
            .and_then(|d| d.get("timeZone"))
            .and_then(Value::as_str);
        match (existing, published, self.given) {
            (Some(zone), _, _) => (zone.to_owned(), ZoneFrom::Registry),
            (None, Some(zone), _) => (zone.to_owned(), ZoneFrom::Index),
            (None, None, Some(zone)) => (zone.to_owned(), ZoneFrom::Option),
            (None, None, None) => (
                crate::model::DEFAULT_TIME_ZONE.to_owned(),
                ZoneFrom::Assumed,
            ),
        }
    }

    /// The name a person is told: `name` in the default locale, else the id.
    fn shown_name(&self, name: &Value) -> String {
        serde_json::from_value::<crate::model::Localized>(name.clone())
            .map(|n| n.get(self.default_locale, self.default_locale).to_owned())
            .unwrap_or_else(|_| self.id.to_owned())
    }

    /// Brings the game's entry already in `games.json` up to date: its
    /// locales extended, its default locale set, its time zone kept (or
    /// confirmed by `--time-zone`, or given when it has none).
    fn update_entry(&self, entry: &mut Map<String, Value>) -> Registered {
        // Locales already listed stay (their files may be on disk already).
        let mut all: Vec<Value> = entry
            .get("locales")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        for locale in self.locales {
            if !all.iter().any(|l| l.as_str() == Some(locale)) {
                all.push(Value::from(locale.as_str()));
            }
        }
        entry.insert("locales".to_owned(), Value::Array(all));
        entry.insert("defaultLocale".to_owned(), Value::from(self.default_locale));
        let unconfirmed = entry.get(ZONE_ASSUMED).and_then(Value::as_bool) == Some(true);
        let (time_zone, from) = match (unconfirmed, self.given) {
            // A zone given now confirms the guess of an earlier import.
            (true, Some(given)) => {
                entry.insert("timeZone".to_owned(), Value::from(given));
                entry.remove(ZONE_ASSUMED);
                (given.to_owned(), ZoneFrom::Option)
            }
            (true, None) => (
                entry
                    .get("timeZone")
                    .and_then(Value::as_str)
                    .unwrap_or(crate::model::DEFAULT_TIME_ZONE)
                    .to_owned(),
                ZoneFrom::Unconfirmed,
            ),
            (false, _) => self.zone(entry.get("timeZone").and_then(Value::as_str)),
        };
        if !entry.contains_key("timeZone") {
            entry.insert("timeZone".to_owned(), Value::from(time_zone.as_str()));
            if from == ZoneFrom::Assumed {
                entry.insert(ZONE_ASSUMED.to_owned(), Value::Bool(true));
            }
        }
        let name = entry
            .get("name")
            .map_or_else(|| self.id.to_owned(), |n| self.shown_name(n));
        Registered {
            placeholder: false,
            time_zone,
            zone_from: from,
            name,
            name_from: NameFrom::Registry,
        }
    }

    /// The entry of a game new to `games.json`, from what the index
    /// published and the site's `llms.txt`, with placeholders for the rest.
    fn new_entry(&self) -> (Map<String, Value>, Registered) {
        let id = self.id;
        let described = self.published.cloned().unwrap_or_default();
        let placeholder = !described.contains_key("name")
            || !(described.contains_key("dataSource") || described.contains_key("dataSources"));
        let (name, name_from) = match (described.get("name"), self.llms_name) {
            (Some(name), _) => (name.clone(), NameFrom::Index),
            (None, Some(name)) => (Value::from(name), NameFrom::Llms),
            (None, None) => (Value::from(id), NameFrom::Id),
        };
        let locales = Value::Array(self.locales.iter().cloned().map(Value::from).collect());
        let mut entry = Map::new();
        entry.insert("id".to_owned(), Value::from(id));
        entry.insert("name".to_owned(), name.clone());
        entry.insert("locales".to_owned(), locales);
        entry.insert("defaultLocale".to_owned(), Value::from(self.default_locale));
        match (described.get("dataSource"), described.get("dataSources")) {
            (None, Some(_)) => {}
            (given, _) => {
                entry.insert(
                    "dataSource".to_owned(),
                    given
                        .cloned()
                        .unwrap_or_else(|| Value::from(format!("https://{PLACEHOLDER_HOST}/{id}"))),
                );
            }
        }
        if let Some(sources) = described.get("dataSources") {
            entry.insert("dataSources".to_owned(), sources.clone());
        }
        let (time_zone, from) = self.zone(None);
        entry.insert("timeZone".to_owned(), Value::from(time_zone.as_str()));
        // What the index carries of the registry besides (issue 57), in the
        // registry's order.
        if let Some(mode) = described.get("updateMode") {
            entry.insert("updateMode".to_owned(), mode.clone());
        }
        if from == ZoneFrom::Assumed || described.get(ZONE_ASSUMED) == Some(&Value::Bool(true)) {
            entry.insert(ZONE_ASSUMED.to_owned(), Value::Bool(true));
        }
        if let Some(conventions) = described.get("conventions") {
            entry.insert("conventions".to_owned(), conventions.clone());
        }
        let registered = Registered {
            placeholder,
            time_zone,
            zone_from: from,
            name: self.shown_name(&name),
            name_from,
        };
        (entry, registered)
    }
}

/// The key of `games.json` that marks a zone as assumed ([`crate::model::Game::time_zone_assumed`]).
const ZONE_ASSUMED: &str = "timeZoneAssumed";

/// Which imported document (`imported`: game, locale, text) a legacy file
/// is: the same document, else the one sharing the most activity names
/// (at least one) or its version's name; `None` when it is none of them.
fn recognise(
    legacy: &Legacy,
    imported: &[(String, String, String)],
    games: &[PlannedGame],
) -> Option<Recognised> {
    let text = data_file(&legacy.bytes).ok()?;
    let value: Value = serde_json::from_str(&text).ok()?;
    let names = |v: &Value| -> BTreeSet<String> {
        v.get("activities")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|a| a.get("name").and_then(Value::as_str).map(str::to_owned))
            .collect()
    };
    let version_name = |v: &Value| {
        v.get("versionName")
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    let ours = names(&value);
    let default_of = |game: &str| {
        games
            .iter()
            .find(|g| g.id == game)
            .map(|g| g.default_locale.clone())
    };
    let exact = imported
        .iter()
        .find(|(_, _, doc)| same_document(doc, &text))
        .map(|(game, locale, _)| (game, locale, true));
    let best = exact.or_else(|| {
        imported
            .iter()
            .filter_map(|(game, locale, doc)| {
                let doc: Value = serde_json::from_str(doc).ok()?;
                let shared = names(&doc).intersection(&ours).count()
                    + usize::from(
                        version_name(&doc).is_some() && version_name(&doc) == version_name(&value),
                    );
                // Ties go to the game's default locale.
                let default = default_of(game).as_deref() == Some(locale.as_str());
                (shared > 0).then_some((shared, default, game, locale))
            })
            .max_by_key(|(shared, default, _, _)| (*shared, *default))
            .map(|(_, _, game, locale)| (game, locale, false))
    })?;
    Some(Recognised {
        path: legacy.path.clone(),
        game: best.0.clone(),
        locale: best.1.clone(),
        same: best.2,
        version: value
            .get("version")
            .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned))
            .unwrap_or_default(),
        synced: false,
    })
}

/// Declares the recognised legacy file an alias of its game in the
/// registry's games (its locale named unless it is the default one).
fn add_alias(games: &mut [Value], found: &Recognised, planned: &[PlannedGame]) {
    let default = planned
        .iter()
        .find(|g| g.id == found.game)
        .is_some_and(|g| g.default_locale == found.locale);
    let Some(Value::Object(entry)) = games
        .iter_mut()
        .find(|g| g.get("id").and_then(Value::as_str) == Some(found.game.as_str()))
    else {
        return;
    };
    let mut alias = Map::new();
    alias.insert("path".to_owned(), Value::from(found.path.as_str()));
    if !default {
        alias.insert("locale".to_owned(), Value::from(found.locale.as_str()));
    }
    let list = entry
        .entry("aliases")
        .or_insert_with(|| Value::Array(Vec::new()));
    if let Value::Array(list) = list
        && !list
            .iter()
            .any(|a| a.get("path").and_then(Value::as_str) == Some(found.path.as_str()))
    {
        list.push(Value::Object(alias));
    }
}

/// Whether `game` carries the placeholders [`plan`] writes.
pub fn is_placeholder(game: &Game) -> bool {
    let source = match &game.data_source {
        Some(crate::model::Localized::One(s)) => s.as_str(),
        Some(crate::model::Localized::Many(map)) => map.values().next().map_or("", String::as_str),
        None => "",
    };
    source.contains(PLACEHOLDER_HOST)
}

/// Whether the activities of a data file's text are in start order (as the
/// build publishes them); `true` when the text does not parse.
pub fn in_start_order(text: &str) -> bool {
    let Ok(value) = serde_json::from_str::<Value>(text) else {
        return true;
    };
    let starts: Vec<Option<Time>> = value
        .get("activities")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|a| {
            a.get("startTime")
                .and_then(Value::as_str)
                .and_then(Time::parse)
        })
        .collect();
    // The build's order: parsed times ascending (stably), unparsable last.
    let key = |t: &Option<Time>| t.map_or((1, None), |t| (0, Some(t)));
    starts.windows(2).all(|w| key(&w[0]) <= key(&w[1]))
}

/// Whether two data-file texts hold the same document (`$schema` aside).
fn same_document(a: &str, b: &str) -> bool {
    let parse = |t: &str| {
        serde_json::from_str::<Value>(t).ok().map(|mut v| {
            if let Value::Object(m) = &mut v {
                m.remove("$schema");
            }
            v
        })
    };
    let (a, b) = (parse(a), parse(b));
    a.is_some() && a == b
}

/// Whether some object of `text` has a key twice (at any depth).
pub fn has_repeated_keys(text: &str) -> bool {
    crate::json::parse(text).is_ok_and(|parsed| !parsed.duplicates.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_split_into_game_and_locale() {
        let names: Vec<String> = [
            "ak.json",
            "ak-en-US.json",
            "ba-jp.json",
            "ba-global.json",
            "xtlr-zh-Hant.json",
            "sr.json",
            "sr-en.json",
            "notes.txt",
        ]
        .map(String::from)
        .to_vec();
        let split = split_names(&names);
        let get = |n: &str| split.get(n).cloned();
        assert_eq!(get("ak.json"), Some(("ak".into(), None)));
        assert_eq!(
            get("ak-en-US.json"),
            Some(("ak".into(), Some("en-US".into())))
        );
        assert_eq!(get("ba-jp.json"), Some(("ba-jp".into(), None)));
        assert_eq!(get("ba-global.json"), Some(("ba-global".into(), None)));
        assert_eq!(
            get("xtlr-zh-Hant.json"),
            Some(("xtlr".into(), Some("zh-Hant".into())))
        );
        assert_eq!(get("sr-en.json"), Some(("sr".into(), Some("en".into()))));
        assert_eq!(get("notes.txt"), None);
    }

    #[test]
    fn the_schema_line_goes_first_and_nothing_else_moves() {
        let pretty = "{\n  \"version\": \"1.0\",\n  \"b\": 1.50\n}\n";
        assert_eq!(
            data_file(pretty.as_bytes()).unwrap(),
            "{\n  \"$schema\": \"../../schema/activity.schema.json\",\n  \"version\": \"1.0\",\n  \"b\": 1.50\n}\n"
        );
        assert_eq!(
            data_file(b"{\"a\":1}").unwrap(),
            "{\"$schema\": \"../../schema/activity.schema.json\",\"a\":1}"
        );
        assert_eq!(
            data_file(b"{}").unwrap(),
            "{\"$schema\": \"../../schema/activity.schema.json\"}"
        );
        let repeated = "{\"a\": 1, \"a\": 2}";
        assert!(
            data_file(repeated.as_bytes())
                .unwrap()
                .ends_with(repeated.trim_start_matches('{'))
        );
        assert!(data_file(b"[1]").is_err());
        assert!(data_file(b"{").is_err());
    }

    #[test]
    fn the_files_to_read_come_from_the_index_or_from_the_names_given() {
        let index = parse_index(
            br#"{"games": [
                {"id": "ww", "locales": ["zh-CN", "en-US"], "files": [
                    {"locale": "zh-CN", "default": true, "path": "/api/v1/activity/ww.json"},
                    {"locale": "en-US", "path": "api/v1/activity/ww-en-US.json"},
                    {"locale": "en-US", "path": "/api/v1/activity/ww-en-US.ics"}]},
                {"id": "sr", "locales": ["zh-CN"], "files": [
                    {"locale": "zh-CN", "default": true, "path": "/api/v1/activity/sr.json"}]}]}"#,
        )
        .unwrap();
        let wanted = |path: &str, game: &str, locale: Option<&str>| Wanted {
            path: path.to_owned(),
            game: game.to_owned(),
            locale: locale.map(str::to_owned),
        };
        assert_eq!(
            listed_files(&index, &["ww".to_owned()]),
            [
                wanted("api/v1/activity/ww.json", "ww", None),
                wanted("api/v1/activity/ww-en-US.json", "ww", Some("en-US")),
            ]
        );
        assert_eq!(listed_files(&index, &[]).len(), 3);
        let locales = ["zh-CN", "ja-JP"].map(String::from);
        assert_eq!(
            guessed_files(&["ak".to_owned()], &locales, "zh-CN"),
            [
                wanted("api/v1/activity/ak.json", "ak", None),
                wanted("api/v1/activity/ak-ja-JP.json", "ak", Some("ja-JP")),
            ]
        );
    }

    #[test]
    fn repeated_keys_are_found_at_any_depth() {
        assert!(!has_repeated_keys(
            r#"{"a": [{"b": 1, "c": 2}], "b": {"b": 1}}"#
        ));
        assert!(has_repeated_keys(r#"{"a": 1, "a": 1}"#));
        assert!(has_repeated_keys(r#"{"a": [{"b": 1}, {"c": 1, "c": 2}]}"#));
    }
}
