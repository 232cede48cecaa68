//! Serde types of `games.json` and of activity documents. No I/O.
//!
//! Beside the types, the facts every layer reads the same way, each with
//! one owner:
//! - the data's times ([`time`]): a checked document's times are [`Time`]s,
//!   read once by the fixed-position reader and written back byte for
//!   byte; a [`Draft`] (a file nobody checked: a diff's base, an agent's
//!   draft, a file with errors) keeps each as a [`Written`], a time or the
//!   text as it stands; [`Time::instant`] is the one reading of a wall time
//!   in a zone (DST gaps and folds as RFC 9557's `compatible`);
//! - counting days ([`days`]) and when a game's data is due by its
//!   `updateMode` ([`freshness`]: `status`, the `stale` rule, the pages and
//!   the ending-soon workflow read it);
//! - a game's source conventions ([`Conventions`]);
//! - an activity's stable `id` and the next fresh one ([`ids`]);
//! - a document as the site publishes it ([`published`]: the data's fields
//!   byte for byte, then each time as an instant, the game's zone and its
//!   due time; the fields `import` and `diff` drop when they read one back).
//!
//! Field order in these structs is the canonical key order of the published
//! documents (the contract's order, `kind` after `name`), so serializing a
//! value is all it takes to produce canonical output.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

pub mod announcements;
pub mod days;
pub mod freshness;
pub mod ids;
pub mod published;
pub mod time;

pub use published::PublishedDocument;
pub use time::{DataTime, Time, Written};

/// The time format of every date-time in the data: local time, no zone, no fraction.
pub const TIME_FORMAT: &str = "%Y-%m-%dT%H:%M:%S";

/// Time zone of a game that does not name one: the servers' UTC+8.
pub const DEFAULT_TIME_ZONE: &str = "Asia/Shanghai";

/// `games.json`: the registry of games.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Registry {
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    pub games: Vec<Game>,
}

/// One game of the registry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Game {
    pub id: String,
    pub name: Localized,
    pub locales: Vec<String>,
    pub default_locale: String,
    /// The page of the original announcements, for readers. Optional where
    /// `dataSources` is given; the registry needs one of the two.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_source: Option<Localized>,
    /// Typed sources per locale (or `all`), which maintainers and their
    /// agents follow to update the data.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_sources: Option<IndexMap<String, Vec<DataSource>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_zone: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub update_mode: Option<UpdateMode>,
    // What an import could not know, and the legacy names of a site it
    // brought in (issue 44); kept together.
    /// `timeZone` was assumed by `import` (nobody said which zone the
    /// game's times are in); `status`, `check` and the pages say so until a
    /// maintainer confirms the zone by removing this field.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub time_zone_assumed: bool,
    /// Other paths of the site that publish one of the game's documents,
    /// rebuilt from its data at every build (a legacy
    /// `api/v1/activities.json`, say), so they never fall behind.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<Alias>,
    /// What the game's sources write on purpose, which the checker accepts
    /// for this game's files (like a linter's per-file ignores).
    #[serde(default, skip_serializing_if = "Conventions::is_empty")]
    pub conventions: Conventions,
}

/// One more path a game's document is published under ([`Game::aliases`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Alias {
    /// The path relative to the site root (`api/v1/activities.json`).
    pub path: String,
    /// The locale whose document it publishes; the game's default locale
    /// when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locale: Option<String>,
}

/// A game's source conventions (`conventions` of `games.json`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Conventions {
    /// The seconds, besides `59`, that the sources' end times carry on
    /// purpose (`[0]`: an end at `06:00:00` is meant). The `end-of-minute`
    /// rule accepts these and `59`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_seconds: Option<Vec<u32>>,
    /// Warning rules turned off for this game's files, by code
    /// (`end-of-minute`). Errors cannot be turned off.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ignore: Vec<String>,
}

impl Conventions {
    pub fn is_empty(&self) -> bool {
        self.end_seconds.is_none() && self.ignore.is_empty()
    }

    /// Whether an end time's `second` is one the sources write on purpose.
    pub fn accepts_end_second(&self, second: u32) -> bool {
        second == 59
            || self
                .end_seconds
                .as_ref()
                .is_some_and(|seconds| seconds.contains(&second))
    }

    /// Whether the rule spelt `code` is turned off for this game.
    pub fn ignores(&self, code: &str) -> bool {
        self.ignore.iter().any(|c| c == code)
    }
}

impl Game {
    /// The IANA time zone name the game's times are read in.
    pub fn time_zone_name(&self) -> &str {
        self.time_zone.as_deref().unwrap_or(DEFAULT_TIME_ZONE)
    }

    /// The parsed time zone (the default one when the name is unknown; the
    /// validator reports unknown names).
    pub fn tz(&self) -> chrono_tz::Tz {
        self.time_zone_name()
            .parse()
            .unwrap_or(chrono_tz::Asia::Shanghai)
    }

    /// The page of the original announcements for `locale`: `dataSource`,
    /// else the first `html` source of the locale (or of `all`).
    pub fn source_page(&self, locale: &str) -> Option<&str> {
        if let Some(source) = &self.data_source {
            return Some(source.get(locale, &self.default_locale));
        }
        self.sources_for(locale)
            .into_iter()
            .find(|s| s.kind == "html")
            .and_then(|s| s.url.as_deref())
    }

    /// The typed sources of `locale`: its own, then those for every locale.
    pub fn sources_for(&self, locale: &str) -> Vec<&DataSource> {
        self.data_sources
            .as_ref()
            .map(|sources| sources_of(sources, locale))
            .unwrap_or_default()
    }

    /// The index's `dataSource`: the game's own, else the page of each
    /// locale its typed sources name ([`source_pages`]).
    pub fn published_source(&self) -> Option<Localized> {
        if let Some(source) = &self.data_source {
            return Some(source.clone());
        }
        source_pages(self.data_sources.as_ref()?, &self.locales)
    }

    /// File stem of the published document of `locale` under `name`
    /// (`ww` or `ww-en-US`).
    pub fn published_stem(&self, locale: &str, name: Naming) -> String {
        match name {
            Naming::Plain => self.id.clone(),
            Naming::Localized => format!("{}-{}", self.id, locale),
        }
    }
}

/// Which of its names a locale's file or folder takes: the plain one,
/// which only the default locale has (`ww.json`, `anno.json`, `<game>/`,
/// `announcements/`, the site locale's pages at the root), or the one
/// that names the locale (`ww-zh-CN.json`, `<game>/zh-CN/`, `zh-CN/`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Naming {
    /// The default locale's plain name.
    Plain,
    /// The name with the locale in it.
    Localized,
}

impl Naming {
    /// How `locale`'s own files are named when `default` is the default
    /// locale (the site's, or a game's): plain for `default` alone.
    pub fn of(locale: &str, default: &str) -> Naming {
        if locale == default {
            Naming::Plain
        } else {
            Naming::Localized
        }
    }
}

/// The key of `dataSources` whose sources serve every locale.
pub const ALL_LOCALES: &str = "all";

/// The kinds of typed data source.
pub const DATA_SOURCE_TYPES: &[&str] = &["html", "script", "pageData"];

/// One typed data source of a game (`dataSources` of `games.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DataSource {
    /// `html` (a page to read), `script` (a script of the data repository
    /// that fetches it) or `pageData` (a paged JSON list of articles).
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// The article URL of a `pageData` entry, `{field}` replaced by the
    /// entry's field of that name (`https://example.org/news/{id}`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub article_url: Option<String>,
    /// A `script` entry: the script's path in its repository.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script: Option<String>,
    /// A `script` entry: the http(s) URL of the repository that holds the
    /// script when it is not this data repository
    /// (`https://github.com/owner/name`). See [`DataSource::script_link`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repository: Option<String>,
    /// `none`: send no browser User-Agent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_agent: Option<String>,
}

impl DataSource {
    /// Where a `script` entry's script can be read: on a forge whose file
    /// addresses are known (GitHub, GitLab), the file of the
    /// repository's default branch (`<repository>/blob/HEAD/<script>`);
    /// elsewhere the repository itself. `None` without a `repository` (the
    /// script is this repository's own) or without a `script`.
    pub fn script_link(&self) -> Option<String> {
        let repository = self.repository.as_deref()?.trim_end_matches('/');
        let repository = repository.strip_suffix(".git").unwrap_or(repository);
        let script = self.script.as_deref()?.trim_start_matches("./");
        let host = repository
            .split("://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_default();
        Some(match host {
            "github.com" => format!("{repository}/blob/HEAD/{script}"),
            "gitlab.com" => format!("{repository}/-/blob/HEAD/{script}"),
            _ => repository.to_owned(),
        })
    }
}

/// The typed sources of `locale` in `sources`: its own, then those for
/// every locale.
pub fn sources_of<'s>(
    sources: &'s IndexMap<String, Vec<DataSource>>,
    locale: &str,
) -> Vec<&'s DataSource> {
    [locale, ALL_LOCALES]
        .iter()
        .filter_map(|key| sources.get(*key))
        .flatten()
        .collect()
}

/// The page of each of `locales` that typed `sources` name (the first
/// `html` source's URL), which the index publishes as `dataSource` where
/// the registry gives none; `None` when no locale has one.
pub fn source_pages(
    sources: &IndexMap<String, Vec<DataSource>>,
    locales: &[String],
) -> Option<Localized> {
    let pages: IndexMap<String, String> = locales
        .iter()
        .filter_map(|l| {
            sources_of(sources, l)
                .into_iter()
                .find(|s| s.kind == "html")
                .and_then(|s| s.url.clone())
                .map(|url| (l.clone(), url))
        })
        .collect();
    (!pages.is_empty()).then_some(Localized::Many(pages))
}

/// How a game's data is updated by the maintainers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum UpdateMode {
    /// The whole document is replaced once per game version.
    Version,
    /// Activities are added as they are announced.
    Activity,
}

/// The order of two versions when both are dot-separated numbers (`4.6` < `4.10`).
pub fn version_order(a: &str, b: &str) -> Option<std::cmp::Ordering> {
    let parts =
        |v: &str| -> Option<Vec<u64>> { v.split('.').map(|p| p.trim().parse().ok()).collect() };
    Some(parts(a)?.cmp(&parts(b)?))
}

/// Whether `id` is a game id: lowercase ASCII letters and digits in parts
/// joined by single hyphens (`ww`, `honkai-sr`).
pub fn is_game_id(id: &str) -> bool {
    !id.is_empty()
        && id.split('-').all(|p| {
            !p.is_empty()
                && p.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

/// A string, or a map from locale to string (in the author's order).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Localized {
    One(String),
    Many(IndexMap<String, String>),
}

impl Localized {
    /// The value for `locale`, else for `fallback`, else any value.
    pub fn get<'a>(&'a self, locale: &str, fallback: &str) -> &'a str {
        match self {
            Localized::One(s) => s,
            Localized::Many(map) => map
                .get(locale)
                .or_else(|| map.get(fallback))
                .or_else(|| map.values().next())
                .map_or("", String::as_str),
        }
    }
}

/// An activity document: one game version and its activities, in one
/// language. Its times are `T`: [`Time`]s in a checked document (the
/// default: what the check found no error in, and everything built from
/// it), [`Written`] ones in a [`Draft`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ActivityDocument<T = Time> {
    /// Editor hint; kept by `fmt`, dropped from published output.
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    pub version: String,
    pub version_name: String,
    pub start_time: T,
    pub end_time: T,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cover: Option<String>,
    pub activities: Vec<Activity<T>>,
}

/// An activity document as a file nobody checked writes it (a diff's base,
/// an agent's draft, a file with errors): every time kept as [`Written`],
/// so nothing is lost and a time that is not one is quoted as written.
pub type Draft = ActivityDocument<Written>;

/// One time-limited activity.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Activity<T = Time> {
    /// The activity's stable id ([`ids`]): data, assigned once by `check
    /// --fix`, the same in every locale, kept by `version new` and through
    /// renames. The first key of an activity; absent in
    /// data written before ids.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    pub description: String,
    pub start_time: T,
    pub end_time: T,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cover: Option<String>,
}

impl<T: DataTime> ActivityDocument<T> {
    /// Sorts activities chronologically by start time (stable; a start
    /// that is not a time last).
    pub fn sort_activities(&mut self) {
        self.activities
            .sort_by_key(|a| a.start_time.time().map_or((1, None), |t| (0, Some(t))));
    }

    /// The canonical text of this document: 2-space indentation, trailing
    /// newline, `$schema` when the document has one (published output has
    /// dropped it).
    pub fn to_canonical(&self) -> String {
        let mut doc = self.clone();
        doc.sort_activities();
        to_pretty(&doc)
    }
}

impl ActivityDocument {
    /// The version window.
    pub fn window(&self) -> (Time, Time) {
        (self.start_time, self.end_time)
    }
}

impl Draft {
    /// The version window, when both ends are times.
    pub fn window(&self) -> Option<(Time, Time)> {
        Some((self.start_time.time()?, self.end_time.time()?))
    }
}

impl From<ActivityDocument> for Draft {
    fn from(doc: ActivityDocument) -> Draft {
        ActivityDocument {
            schema: doc.schema,
            version: doc.version,
            version_name: doc.version_name,
            start_time: doc.start_time.into(),
            end_time: doc.end_time.into(),
            cover: doc.cover,
            activities: doc.activities.into_iter().map(Activity::into).collect(),
        }
    }
}

impl From<Activity> for Activity<Written> {
    fn from(a: Activity) -> Activity<Written> {
        Activity {
            id: a.id,
            name: a.name,
            kind: a.kind,
            description: a.description,
            start_time: a.start_time.into(),
            end_time: a.end_time.into(),
            cover: a.cover,
        }
    }
}

impl Registry {
    /// The site's default locale (its home page, `api/v1/anno.json`): the
    /// `defaultLocale` most games share, the first game's on a tie; `None`
    /// when there is no game.
    pub fn site_locale(&self) -> Option<&str> {
        site_locale(&self.games)
    }

    /// The canonical text of `games.json`.
    pub fn to_canonical(&self) -> String {
        to_pretty(self)
    }
}

/// [`Registry::site_locale`] of `games` (for a caller that holds games,
/// not a registry).
pub fn site_locale<'a>(games: impl IntoIterator<Item = &'a Game>) -> Option<&'a str> {
    most_shared(games.into_iter().map(|g| g.default_locale.as_str()))
}

/// Whether `locale` is a Chinese one (`zh`, `zh-CN`, `zh-Hant`...): its
/// pages and calendars use the Chinese strings, every other locale English.
pub fn is_chinese(locale: &str) -> bool {
    let lower = locale.to_ascii_lowercase();
    lower == "zh" || lower.starts_with("zh-") || lower.starts_with("zh_")
}

/// The value given most often, the first given on a tie; `None` when there
/// is none. The one rule of the site's locale and the index's time zone.
pub fn most_shared<'a>(values: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let mut counts: IndexMap<&str, usize> = IndexMap::new();
    for value in values {
        *counts.entry(value).or_default() += 1;
    }
    let mut best: Option<(&str, usize)> = None;
    for (value, n) in counts {
        if best.is_none_or(|(_, m)| n > m) {
            best = Some((value, n));
        }
    }
    best.map(|(value, _)| value)
}

/// Pretty JSON with 2-space indentation and a trailing newline.
pub fn to_pretty<T: Serialize>(value: &T) -> String {
    let mut out = serde_json::to_string_pretty(value).expect("model types always serialize");
    out.push('\n');
    out
}
