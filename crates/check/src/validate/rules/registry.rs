//! The registry rules (`games-registry`, `missing-file`, `pending-locale`, `orphan-file`) on
//! `games.json`'s `serde_json::Value`, and what a language tag is.

use std::collections::BTreeSet;

// A fast, seeded hasher for the maps of short strings built for every document.
use foldhash::{HashMap, HashMapExt as _, HashSet, HashSetExt as _};

use serde_json::Value;

use crate::diagnostics::Code;
use crate::diagnostics::Severity::{self, Error, Warning};
use crate::i18n::{Msg, msg};
use crate::model::{Game, is_game_id};
use crate::validate::Reporter;

/// Whether `tag` looks like a BCP 47 language tag (language, script, region, variants).
pub fn is_language_tag(tag: &str) -> bool {
    let mut parts = tag.split('-');
    let Some(language) = parts.next() else {
        return false;
    };
    if !(2..=3).contains(&language.len()) || !language.chars().all(|c| c.is_ascii_alphabetic()) {
        return false;
    }
    parts.all(|p| (2..=8).contains(&p.len()) && p.chars().all(|c| c.is_ascii_alphanumeric()))
}

/// The registry rules (`games-registry`, `missing-file`, `orphan-file`).
/// Returns the games that parsed.
pub fn registry(file: &Value, data_files: &[String], report: &mut Reporter<'_>) -> Vec<Game> {
    let mut games = Vec::new();
    let Some(entries) = file.get("games").and_then(Value::as_array) else {
        return games;
    };
    let mut seen = Seen::new(data_files);
    for (i, value) in entries.iter().enumerate() {
        let entry = Entry::new(i, value);
        if let Some(id) = entry.id {
            seen.game_id(&entry, id, i, report);
        }
        seen.locales(&entry, report);
        default_locale(&entry, report);
        if let Some(sources) = value.get("dataSources").and_then(Value::as_object) {
            data_sources(&entry.base, sources, &entry.locales, report);
        }
        source_given(&entry, report);
        if let Some(conventions) = value.get("conventions").and_then(Value::as_object) {
            self::conventions(&entry.base, conventions, report);
        }
        time_zone(&entry, report);
        imported(&entry, &mut seen.aliases, report);
        if let Ok(game) = serde_json::from_value::<Game>(value.clone())
            && is_game_id(&game.id)
            && seen.ids.get(game.id.as_str()) == Some(&i)
        {
            games.push(game);
        }
    }
    // Orphans: files no game lists. Reported in the orphan file itself.
    let orphans: BTreeSet<String> = data_files
        .iter()
        .filter(|path| !seen.listed.contains(*path))
        .cloned()
        .collect();
    report_orphans(&orphans, &seen.listed_games, report);
    games
}

/// One game of the registry, as its rules read it.
struct Entry<'a> {
    /// Its pointer (`/games/3`).
    base: String,
    value: &'a Value,
    id: Option<&'a str>,
    /// Its `locales`, those that are text.
    locales: Vec<&'a str>,
    default_locale: Option<&'a str>,
}

impl<'a> Entry<'a> {
    fn new(i: usize, value: &'a Value) -> Self {
        Entry {
            base: format!("/games/{i}"),
            value,
            id: value.get("id").and_then(Value::as_str),
            locales: value
                .get("locales")
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default(),
            default_locale: value.get("defaultLocale").and_then(Value::as_str),
        }
    }
}

/// What the registry rules keep from one game to the next.
struct Seen<'a> {
    /// The data files there are; looked up once per locale of every game:
    /// a set, not the list.
    present: HashSet<&'a str>,
    /// Each id, and the game that gave it first.
    ids: HashMap<&'a str, usize>,
    /// The data files the games list.
    listed: HashSet<String>,
    /// The id of every game, valid or not.
    listed_games: HashSet<&'a str>,
    /// Each alias path, and the pointer that claimed it first.
    aliases: HashMap<String, String>,
}

impl<'a> Seen<'a> {
    fn new(data_files: &'a [String]) -> Self {
        Seen {
            present: data_files.iter().map(String::as_str).collect(),
            ids: HashMap::new(),
            listed: HashSet::new(),
            listed_games: HashSet::new(),
            aliases: HashMap::new(),
        }
    }

    /// The id of game `i`: well formed, not a name the site takes for
    /// itself, given once.
    fn game_id(&mut self, entry: &Entry<'_>, id: &'a str, i: usize, report: &mut Reporter<'_>) {
        let base = &entry.base;
        self.listed_games.insert(id);
        if !is_game_id(id) {
            report.value(
                &format!("{base}/id"),
                Code::GamesRegistry,
                Error,
                msg!("registry-bad-id", id = id),
                Some(msg!("registry-bad-id-help", suggestion = suggest_id(id))),
            );
        }
        if let Some(pages) = crate::kind::page_dir_owner(id) {
            report.value(
                &format!("{base}/id"),
                Code::GamesRegistry,
                Error,
                msg!("registry-id-taken", id = id, kind = pages),
                Some(msg!("registry-id-taken-help", id = id)),
            );
        }
        if let Some(first) = self.ids.insert(id, i) {
            report.value(
                &format!("{base}/id"),
                Code::GamesRegistry,
                Error,
                msg!("registry-duplicate-id", id = id, first = first),
                Some(msg!("registry-duplicate-id-help")),
            );
        }
    }

    /// The locales of a game: language tags, each once, each with its
    /// document (`missing-file` for the default locale's, `pending-locale`
    /// for another's).
    fn locales(&mut self, entry: &Entry<'_>, report: &mut Reporter<'_>) {
        let mut seen = HashSet::new();
        for (j, locale) in entry.locales.iter().enumerate() {
            let pointer = format!("{}/locales/{j}", entry.base);
            if !is_language_tag(locale) {
                report.value(
                    &pointer,
                    Code::GamesRegistry,
                    Error,
                    msg!("registry-bad-locale", locale = *locale),
                    Some(msg!("registry-bad-locale-help")),
                );
            }
            if !seen.insert(*locale) {
                report.value(
                    &pointer,
                    Code::GamesRegistry,
                    Error,
                    msg!("registry-duplicate-locale", locale = *locale),
                    None,
                );
            }
            let Some(id) = entry.id else {
                continue;
            };
            let path = crate::tree::data_path(id, locale);
            if !self.present.contains(path.as_str()) && is_game_id(id) && is_language_tag(locale) {
                // The default locale's document is the game's
                // `<game>.json`: without it the game has nothing to
                // publish. Another locale without a document yet is
                // pending: the index names it and nothing is published
                // under its name.
                if entry.default_locale == Some(*locale) {
                    report.value(
                        &pointer,
                        Code::MissingFile,
                        Error,
                        msg!("missing-file", path = path.as_str()),
                        Some(msg!(
                            "missing-file-help",
                            path = path.as_str(),
                            locale = *locale
                        )),
                    );
                } else {
                    report.value(
                        &pointer,
                        Code::PendingLocale,
                        Warning,
                        msg!("pending-locale", path = path.as_str(), locale = *locale),
                        Some(msg!(
                            "pending-locale-help",
                            path = path.as_str(),
                            locale = *locale
                        )),
                    );
                }
            }
            self.listed.insert(path);
        }
    }
}

/// A game's `defaultLocale` is one of its `locales`.
fn default_locale(entry: &Entry<'_>, report: &mut Reporter<'_>) {
    let locales = &entry.locales;
    if let Some(default) = entry.default_locale
        && !locales.is_empty()
        && !locales.contains(&default)
    {
        let help = crate::validate::did_you_mean(default, locales)
            .map(|l| msg!("did-you-mean", name = l))
            .unwrap_or_else(|| {
                msg!(
                    "registry-default-locale-help",
                    locales = crate::i18n::list(locales)
                )
            });
        report.value(
            &format!("{}/defaultLocale", entry.base),
            Code::GamesRegistry,
            Error,
            msg!("registry-default-locale", default = default),
            Some(help),
        );
    }
}

/// One of the two sources is required (the schema's `anyOf`, whose own
/// sentence names neither): said here, once, in words. A misspelt key
/// (`datasource`) already has its "did you mean".
fn source_given(entry: &Entry<'_>, report: &mut Reporter<'_>) {
    let value = entry.value;
    let sources = ["dataSource", "dataSources"];
    let misspelt_source = value.as_object().is_some_and(|o| {
        o.keys().any(|k| {
            !sources.contains(&k.as_str()) && crate::validate::did_you_mean(k, &sources).is_some()
        })
    });
    // `"dataSources": {}` (or only empty lists) names no source either.
    // (Another type is the schema's error.)
    let no_typed_source = match value.get("dataSources") {
        None => true,
        Some(Value::Object(m)) => m.values().all(|v| v.as_array().is_some_and(Vec::is_empty)),
        Some(_) => false,
    };
    if value.is_object() && value.get("dataSource").is_none() && no_typed_source && !misspelt_source
    {
        report.value(
            &entry.base,
            Code::GamesRegistry,
            Error,
            msg!("registry-no-source"),
            Some(msg!("registry-no-source-help")),
        );
    }
}

/// A game's `timeZone` is a zone of the IANA database.
fn time_zone(entry: &Entry<'_>, report: &mut Reporter<'_>) {
    if let Some(zone) = entry.value.get("timeZone").and_then(Value::as_str)
        && zone.parse::<chrono_tz::Tz>().is_err()
    {
        report.value(
            &format!("{}/timeZone", entry.base),
            Code::GamesRegistry,
            Error,
            msg!("registry-time-zone", zone = zone),
            Some(msg!("registry-time-zone-help")),
        );
    }
}

/// What an import left for a maintainer (issue 44): a `timeZone` it
/// assumed (`timeZoneAssumed`, a warning until removed), and the `aliases`
/// the build publishes the game's documents under: each a path the build
/// may write ([`crate::kind::is_alias_path`]), of one of the game's
/// locales, claimed by one game only (`seen`: path to the pointer that
/// claimed it first).
fn imported(game: &Entry<'_>, seen: &mut HashMap<String, String>, report: &mut Reporter<'_>) {
    let (base, entry, locales) = (&game.base, game.value, game.locales.as_slice());
    if entry.get("timeZoneAssumed").and_then(Value::as_bool) == Some(true) {
        let zone = entry
            .get("timeZone")
            .and_then(Value::as_str)
            .unwrap_or(crate::model::DEFAULT_TIME_ZONE);
        let id = entry.get("id").and_then(Value::as_str).unwrap_or_default();
        report.value(
            &format!("{base}/timeZoneAssumed"),
            Code::GamesRegistry,
            Severity::Warning,
            msg!("registry-zone-assumed", game = id, zone = zone),
            Some(msg!("registry-zone-assumed-help", zone = zone)),
        );
    }
    let Some(list) = entry.get("aliases").and_then(Value::as_array) else {
        return;
    };
    for (j, alias) in list.iter().enumerate() {
        let pointer = format!("{base}/aliases/{j}");
        if let Some(path) = alias.get("path").and_then(Value::as_str) {
            if !crate::kind::is_alias_path(path) {
                report.value(
                    &format!("{pointer}/path"),
                    Code::GamesRegistry,
                    Error,
                    msg!("registry-alias-path", path = path),
                    Some(msg!("registry-alias-path-help")),
                );
            } else if let Some(first) = seen.get(path) {
                report.value(
                    &format!("{pointer}/path"),
                    Code::GamesRegistry,
                    Error,
                    msg!("registry-alias-twice", path = path, first = first.as_str()),
                    None,
                );
            } else {
                seen.insert(path.to_owned(), pointer.clone());
            }
        }
        if let Some(locale) = alias.get("locale").and_then(Value::as_str)
            && !locales.is_empty()
            && !locales.contains(&locale)
        {
            report.value(
                &format!("{pointer}/locale"),
                Code::GamesRegistry,
                Error,
                msg!("registry-alias-locale", locale = locale),
                Some(msg!(
                    "registry-default-locale-help",
                    locales = crate::i18n::list(locales)
                )),
            );
        }
    }
}

/// The typed `dataSources` of one game: each key a locale of the game or
/// `all`, each source as [`data_source`] says. Structure (objects,
/// strings) is the schema's.
fn data_sources(
    base: &str,
    sources: &serde_json::Map<String, Value>,
    locales: &[&str],
    report: &mut Reporter<'_>,
) {
    for (key, list) in sources {
        let at = format!("{base}/dataSources/{}", escape_pointer(key));
        if key != crate::model::ALL_LOCALES
            && !locales.is_empty()
            && !locales.contains(&key.as_str())
        {
            report.key(
                &at,
                Code::GamesRegistry,
                Error,
                msg!("source-locale", key = key.as_str()),
                Some(msg!("source-locale-help", locales = locales.join(", "))),
            );
        }
        let Some(list) = list.as_array() else {
            continue;
        };
        for (i, source) in list.iter().enumerate() {
            data_source(&format!("{at}/{i}"), source, report);
        }
    }
}

/// One typed source at `at`: of a known `type`, with an absolute http(s)
/// `url` where it has one (and one where its type needs it), a `script`
/// for a script, and an `articleUrl` template that is an absolute http(s)
/// URL with a `{field}` placeholder.
fn data_source(at: &str, source: &Value, report: &mut Reporter<'_>) {
    let kind = source.get("type").and_then(Value::as_str);
    if let Some(kind) = kind
        && !crate::model::DATA_SOURCE_TYPES.contains(&kind)
    {
        let help = crate::validate::did_you_mean(kind, crate::model::DATA_SOURCE_TYPES)
            .map(|t| msg!("did-you-mean", name = t))
            .unwrap_or_else(|| msg!("source-type-help"));
        report.value(
            &format!("{at}/type"),
            Code::GamesRegistry,
            Error,
            msg!("source-type", kind = kind),
            Some(help),
        );
    }
    let url = source.get("url").and_then(Value::as_str);
    if let Some(url) = url
        && !is_http_url(url)
    {
        report.value(
            &format!("{at}/url"),
            Code::GamesRegistry,
            Error,
            msg!("source-url", url = url),
            Some(msg!("source-url-help")),
        );
    }
    if url.is_none() && matches!(kind, Some("html" | "pageData")) {
        report.value(
            at,
            Code::GamesRegistry,
            Error,
            msg!("source-needs-url", kind = kind.unwrap_or_default()),
            Some(msg!("source-needs-url-help")),
        );
    }
    repository(at, source, kind, report);
    if kind == Some("script") && source.get("script").is_none() {
        report.value(
            at,
            Code::GamesRegistry,
            Error,
            msg!("source-needs-script"),
            Some(msg!("source-needs-script-help")),
        );
    }
    if let Some(template) = source.get("articleUrl").and_then(Value::as_str) {
        article_url(at, template, report);
    }
}

/// A source's `articleUrl` template: an entry's own field (`'link'`), or
/// an absolute http(s) URL with a `{field}` placeholder.
fn article_url(at: &str, template: &str, report: &mut Reporter<'_>) {
    if quoted_field(template).is_some() {
        // `'link'`: the entry's own field holds the whole URL.
    } else if !is_http_url(template) {
        report.value(
            &format!("{at}/articleUrl"),
            Code::GamesRegistry,
            Error,
            msg!("source-article-url", template = template),
            Some(msg!("source-article-url-help")),
        );
    } else if !has_placeholder(template) {
        report.value(
            &format!("{at}/articleUrl"),
            Code::GamesRegistry,
            Error,
            msg!("source-article-placeholder", template = template),
            Some(msg!("source-article-placeholder-help")),
        );
    }
}

/// A source's `repository` (where a `script` lives when it is not this
/// repository): an absolute http(s) URL, on a `script` source only.
fn repository(at: &str, source: &Value, kind: Option<&str>, report: &mut Reporter<'_>) {
    let Some(repository) = source.get("repository").and_then(Value::as_str) else {
        return;
    };
    let message = if !is_http_url(repository) {
        msg!("source-repository", url = repository)
    } else if kind != Some("script") {
        msg!(
            "source-repository-not-script",
            kind = kind.unwrap_or_default()
        )
    } else {
        return;
    };
    report.value(
        &format!("{at}/repository"),
        Code::GamesRegistry,
        Error,
        message,
        Some(msg!("source-repository-help")),
    );
}

/// A game's `conventions`: every code of `ignore` names a warning rule of
/// the data files (an unknown code gets the nearest one as a suggestion; an
/// error rule cannot be turned off). The ranges of `endSeconds` are the
/// schema's.
fn conventions(
    base: &str,
    conventions: &serde_json::Map<String, Value>,
    report: &mut Reporter<'_>,
) {
    let Some(ignore) = conventions.get("ignore").and_then(Value::as_array) else {
        return;
    };
    let ignorable: Vec<&str> = Code::IGNORABLE.iter().map(|c| c.as_str()).collect();
    for (i, code) in ignore.iter().enumerate() {
        let Some(code) = code.as_str() else {
            continue;
        };
        let at = format!("{base}/conventions/ignore/{i}");
        match Code::ALL.iter().find(|c| c.as_str() == code) {
            Some(known) if known.can_be_ignored() => {}
            Some(_) => report.value(
                &at,
                Code::GamesRegistry,
                Error,
                msg!("conventions-not-ignorable", code = code),
                Some(msg!(
                    "conventions-ignorable-help",
                    codes = crate::i18n::list(&ignorable)
                )),
            ),
            None => {
                let all: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
                let suggestion = crate::validate::did_you_mean(code, &ignorable)
                    .or_else(|| crate::validate::did_you_mean(code, &all));
                let help = suggestion
                    .map(|c| msg!("did-you-mean", name = c))
                    .unwrap_or_else(|| {
                        msg!(
                            "conventions-ignorable-help",
                            codes = crate::i18n::list(&ignorable)
                        )
                    });
                report.value(
                    &at,
                    Code::GamesRegistry,
                    Error,
                    msg!("conventions-unknown-code", code = code),
                    Some(help),
                );
                if let Some(right) = suggestion.filter(|s| ignorable.contains(s)) {
                    report.fix_string(&at, crate::validate::spans::Target::Value, right);
                }
            }
        }
    }
}

/// Whether `url` is an absolute http(s) URL with a host.
fn is_http_url(url: &str) -> bool {
    url.strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
        .is_some_and(|rest| {
            let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
            !host.is_empty() && !rest.chars().any(char::is_whitespace)
        })
}

/// The field named by an `articleUrl` of the form `'field'` (the entry's
/// field holds the whole article URL), as the public registry writes it.
fn quoted_field(template: &str) -> Option<&str> {
    let name = template.strip_prefix('\'')?.strip_suffix('\'')?;
    (!name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_')).then_some(name)
}

/// Whether `template` holds a `{field}` placeholder (a name of letters,
/// digits and `_`).
fn has_placeholder(template: &str) -> bool {
    template.split('{').skip(1).any(|rest| {
        rest.split_once('}').is_some_and(|(name, _)| {
            !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_')
        })
    })
}

/// A JSON Pointer token for `key` (RFC 6901).
fn escape_pointer(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

fn suggest_id(id: &str) -> String {
    let cleaned: String = id
        .to_lowercase()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let joined: Vec<&str> = cleaned.split('-').filter(|p| !p.is_empty()).collect();
    if joined.is_empty() {
        "sr".to_string()
    } else {
        joined.join("-")
    }
}

/// Orphan diagnostics are about other files than the reporter's; they point
/// at line 1 of the orphan.
fn report_orphans(
    orphans: &BTreeSet<String>,
    listed_games: &HashSet<&str>,
    report: &mut Reporter<'_>,
) {
    for path in orphans {
        let (message, help) = match crate::tree::classify(path) {
            crate::tree::SourcePath::Data { game, file } if listed_games.contains(game) => (
                msg!("orphan-locale", path = path, game = game),
                msg!(
                    "orphan-locale-help",
                    locale = file.trim_end_matches(".json"),
                    game = game
                ),
            ),
            crate::tree::SourcePath::Data { game, .. } => (
                msg!("orphan-game", path = path, game = game),
                msg!("orphan-game-help", game = game),
            ),
            _ => (
                msg!("orphan-elsewhere", path = path),
                msg!("orphan-elsewhere-help"),
            ),
        };
        report.orphan(path, message, help);
    }
}

impl Reporter<'_> {
    /// Reports a file the registry does not account for, at its first line.
    pub fn orphan(&mut self, path: &str, message: Msg, help: Msg) {
        let orphan = crate::diagnostics::Diagnostic::orphan(path, message, help);
        self.diagnostics.push(orphan);
    }
}
