//! The published layout of the site, the one owner of its facts: the path
//! of every file (`api/v1/activity/<game>[-<locale>].json` and `.ics`, the
//! index, the schema, the pages, `_headers`), the typed index
//! `api/v1/games.json` (written by `build`, read back by `import`, `diff` and
//! `publish`), and the content type and cache policy of every kind of file
//! (asked by `serve`, `_headers` and `publish` alike).
//!
//! A leaf beside [`crate::model`]: it knows paths and names, never the file
//! system, HTTP or the builder. Paths are relative to the site root, with
//! forward slashes and no leading slash; [`url()`] makes the site-absolute
//! form the index and the pages link to.

use serde::{Deserialize, Serialize};

use crate::model::{Game, Localized, UpdateMode};

/// Every path of the public API lives below this folder.
pub const API_DIR: &str = "api/v1";

/// The activity documents and their calendars.
pub const ACTIVITY_DIR: &str = "api/v1/activity";

/// The index clients read first: every game and the files that hold it.
pub const INDEX_PATH: &str = "api/v1/games.json";

/// The published JSON Schema of an activity document.
pub const SCHEMA_PATH: &str = "api/v1/schema/activity.json";

/// The folder of the published JSON Schemas, one per kind of document.
pub const SCHEMA_DIR: &str = "api/v1/schema";

/// The published JSON Schema of the kind `$name`:
/// `api/v1/schema/<name>.json`, in [`SCHEMA_DIR`] (a kind's declaration
/// names its own).
#[macro_export]
macro_rules! published_schema {
    ($name:literal) => {
        concat!("api/v1/schema/", $name, ".json")
    };
}

/// The published JSON Schema of the index [`INDEX_PATH`] (not the
/// source registry's `schema/games.schema.json`: the index is what the
/// build makes of it).
pub const INDEX_SCHEMA_PATH: &str = "api/v1/schema/games.json";

/// The published JSON Schema of the API catalog [`API_CATALOG_PATH`].
pub const API_CATALOG_SCHEMA_PATH: &str = "api/v1/schema/api-catalog.json";

/// The OpenAPI 3.1 description of every path of the public API.
pub const OPENAPI_PATH: &str = "api/v1/openapi.json";

/// The API catalog of RFC 9727, a linkset naming [`OPENAPI_PATH`].
pub const API_CATALOG_PATH: &str = ".well-known/api-catalog";

/// The page at the API's base (`/api/v1/`), the anchor of the API catalog:
/// what the API is and the links of the catalog, for a person or a program
/// that follows the anchor.
pub const API_HOME_PATH: &str = "api/v1/index.html";

/// The files of the published contract besides the kinds' schemas, which
/// every build writes whatever the data: the index's schema, the API
/// catalog's, the OpenAPI description and the catalog.
pub const CONTRACT_PATHS: &[&str] = &[
    INDEX_SCHEMA_PATH,
    API_CATALOG_SCHEMA_PATH,
    OPENAPI_PATH,
    API_CATALOG_PATH,
    API_HOME_PATH,
];

/// The folder of well-known locations (RFC 8615): the one dot-folder a
/// site publishes.
pub const WELL_KNOWN_DIR: &str = ".well-known";

/// The folder of the API's reference page for people, under the site
/// root for the site's locale and under each other locale's home folder
/// ([`reference_page`]); a game id it would shadow is refused by the
/// registry rules.
pub const REFERENCE_PAGE_DIR: &str = "api-reference";

/// Which of its names a locale's file or folder takes (the model's, as
/// a game's published stem needs it too).
pub use crate::model::Naming;

/// The folder of the reference page of `locale`, with a trailing slash:
/// `api-reference/` for the site's locale ([`Naming::Plain`]), else
/// `<locale>/api-reference/` (beside the locale's home page, [`home_page`]).
pub fn reference_dir(locale: &str, naming: Naming) -> String {
    format!("{}{REFERENCE_PAGE_DIR}/", home_dir(locale, naming))
}

/// The reference page of `locale`: the [`DIRECTORY_INDEX`] of [`reference_dir`].
pub fn reference_page(locale: &str, naming: Naming) -> String {
    format!("{}{DIRECTORY_INDEX}", reference_dir(locale, naming))
}

/// Whether `path` is a reference page of some locale ([`reference_page`]).
pub fn is_reference_page(path: &str) -> bool {
    let page = format!("{REFERENCE_PAGE_DIR}/{DIRECTORY_INDEX}");
    path == page
        || path
            .strip_suffix(&page)
            .and_then(|locale| locale.strip_suffix('/'))
            .is_some_and(|locale| !locale.is_empty() && !locale.contains('/'))
}

/// What the API is, for agents: every game, its locales and documents,
/// the schema and the feeds, generated from the registry.
pub const LLMS_PATH: &str = "llms.txt";

/// The heading of `llms.txt`'s list of games, which [`llms_site`] reads back.
pub const LLMS_GAMES_HEADING: &str = "## Games";

/// A site's `robots.txt`, never generated: kept by hand (`data/_files/`).
pub const ROBOTS_PATH: &str = "robots.txt";

/// The legacy all-games document of older deployments, never generated.
pub const LEGACY_ACTIVITIES_PATH: &str = "api/v1/activities.json";

/// Whether the layout leaves `path` free for a game's document published
/// as one of its aliases (`games.json` `aliases`): a relative path under
/// `api/v1/` ending in `.json`, outside `api/v1/activity/` and
/// `api/v1/schema/`, and not the index. The documents other kinds publish
/// under their own names are the kinds' to refuse
/// (`kind::is_alias_path`, what the registry rule asks).
pub fn is_alias_path(path: &str) -> bool {
    let Some(rest) = path.strip_prefix(API_DIR).and_then(|r| r.strip_prefix('/')) else {
        return false;
    };
    path.ends_with(".json")
        && rest
            .split('/')
            .all(|part| !part.is_empty() && part != "." && part != "..")
        && !path.starts_with(&format!("{ACTIVITY_DIR}/"))
        && !path.starts_with(&format!("{SCHEMA_DIR}/"))
        && path != INDEX_PATH
}

/// The paths `game`'s document of `locale` is also published under
/// ([`Game::aliases`](crate::model::Game::aliases)), the default locale's
/// for an alias that names none.
pub fn alias_paths<'a>(game: &'a Game, locale: &'a str) -> impl Iterator<Item = &'a str> + 'a {
    game.aliases
        .iter()
        .filter(move |a| a.locale.as_deref().unwrap_or(&game.default_locale) == locale)
        .map(|a| a.path.as_str())
        .filter(|p| is_alias_path(p))
}

/// What a site's `llms.txt` says about its games ([`llms_site`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LlmsSite {
    /// The games its `## Games` list or table names, in its order, each
    /// with the name it gives (`| \`sr\` | Honkai: Star Rail |`, or this
    /// tool's own `- \`sr\` Honkai: Star Rail: zh-CN (default), en-US; ...`).
    pub games: Vec<(String, Option<String>)>,
    /// The activity documents it links under `## Games` (site-relative paths).
    pub documents: Vec<String>,
    /// The file names of every activity document it mentions anywhere, in
    /// a link, a code span or an example (`/activity/sr-en-US.json`), the
    /// templates (`{game}-{locale}.json`) left out.
    pub mentioned: Vec<String>,
    /// The locale it says the un-suffixed `{game}.json` holds (`... in the
    /// default locale (zh-CN)`), as written.
    pub default_locale: Option<String>,
}

impl LlmsSite {
    /// The ids of its games, in its order.
    pub fn ids(&self) -> Vec<String> {
        self.games.iter().map(|(id, _)| id.clone()).collect()
    }
}

/// Reads what an `llms.txt` says: the games under its `## Games` heading
/// (the first code span of each list item or table row that is a game
/// id) with their names, the activity documents linked there, every
/// activity document named anywhere, and the default locale of `{game}.json`.
pub fn llms_site(text: &str) -> LlmsSite {
    let mut site = LlmsSite::default();
    let mut inside = false;
    for line in text.lines() {
        mentioned_documents(line, &mut site.mentioned);
        if line.contains("{game}.json")
            && let Some((_, after)) = line.split_once('(')
            && let Some((tag, _)) = after.split_once(')')
            && !tag.is_empty()
            && tag.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        {
            site.default_locale.get_or_insert_with(|| tag.to_owned());
        }
        if line.starts_with("## ") {
            inside = line.trim_end() == LLMS_GAMES_HEADING;
            continue;
        }
        if !inside {
            continue;
        }
        let item = line.starts_with("- ") || line.starts_with('|');
        if item
            && let Some((_, rest)) = line.split_once('`')
            && let Some((id, after)) = rest.split_once('`')
            && crate::model::is_game_id(id)
            && !site.games.iter().any(|(i, _)| i == id)
        {
            site.games.push((id.to_owned(), llms_name(line, after)));
        }
        for (at, _) in line.match_indices("](") {
            let target = &line[at + 2..];
            let Some(end) = target.find(')') else {
                continue;
            };
            let path = relative(&target[..end]);
            if is_activity_document(path) && !site.documents.iter().any(|d| d == path) {
                site.documents.push(path.to_owned());
            }
        }
    }
    site
}

/// The name a games row or item gives after its id's code span (`after`):
/// a table's next cell, or a list item's text before its locales.
fn llms_name(line: &str, after: &str) -> Option<String> {
    let name = if line.starts_with('|') {
        after.split('|').map(str::trim).find(|c| !c.is_empty())?
    } else {
        let text = after.split("; ").next().unwrap_or(after).trim();
        // This tool's own list: `Name: zh-CN (default), en-US`.
        text.rsplit_once(": ").map_or(text, |(name, _)| name).trim()
    };
    let name = name.trim_matches('*').trim();
    (!name.is_empty() && !name.starts_with('-')).then(|| name.to_owned())
}

/// Adds to `out` the file name of every `activity/<name>.json` in `line`
/// (no placeholders), once each.
fn mentioned_documents(line: &str, out: &mut Vec<String>) {
    let dir = ACTIVITY_DIR.rsplit('/').next().unwrap_or(ACTIVITY_DIR);
    for (at, _) in line.match_indices(&format!("{dir}/")) {
        let rest = &line[at + dir.len() + 1..];
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.'))
            .unwrap_or(rest.len());
        let name = &rest[..end];
        if let Some(stem) = name.strip_suffix(".json")
            && !stem.is_empty()
            && !stem.contains('.')
            && !out.iter().any(|n| n == name)
        {
            out.push(name.to_owned());
        }
    }
}

/// The home page.
pub const HOME_PAGE: &str = "index.html";

/// The page a host shows for a missing path outside the API.
pub const NOT_FOUND_PAGE: &str = "404.html";

/// Response headers for Netlify/Cloudflare-style hosts; never published as a file.
pub const HEADERS_FILE: &str = "_headers";

/// The file a directory serves.
pub const DIRECTORY_INDEX: &str = "index.html";

/// The file that marks an output directory as a site this tool built (and
/// may replace); never served, never published.
pub const OUTPUT_MARKER: &str = ".activity-site-output";

/// The file of a built site that names every file of it with its checksum
/// and what it was built from, so the next build writes only what changed;
/// host-only, like the marker.
pub const OUTPUT_MANIFEST: &str = ".activity-site-manifest";

/// The warnings of the build that wrote a site, so the next build shows in
/// full only the new ones; host-only. Kept apart from the manifest because
/// warnings depend on the moment of the build (`stale`), while every other
/// file of the site, the manifest included, depends on the data alone.
pub const OUTPUT_WARNINGS: &str = ".activity-site-warnings";

/// Files of the output directory that hosts read as configuration (or that
/// mark the directory) and never serve: `serve` answers 404 for them and
/// `publish` never uploads them. (`publish` also skips every dot-file.)
pub const HOST_ONLY: &[&str] = &[
    HEADERS_FILE,
    "_redirects",
    OUTPUT_MARKER,
    OUTPUT_MANIFEST,
    OUTPUT_WARNINGS,
];

/// Whether `path` (relative, or site-absolute) is one of [`HOST_ONLY`] at the
/// site root.
pub fn is_host_only(path: &str) -> bool {
    HOST_ONLY.contains(&relative(path))
}

/// The precompressed siblings a build may write beside a text file, as
/// `(file name suffix, Content-Encoding)`, brotli first.
pub const PRECOMPRESSED: [(&str, &str); 2] = [(".br", "br"), (".gz", "gzip")];

/// The path of `path`'s precompressed sibling with `encoding` (`br` or
/// `gzip`, as in [`PRECOMPRESSED`]).
pub fn sibling_path(path: &str, encoding: &str) -> Option<String> {
    PRECOMPRESSED
        .iter()
        .find(|(_, e)| *e == encoding)
        .map(|(suffix, _)| format!("{path}{suffix}"))
}

/// `(the file it is a sibling of, its Content-Encoding)` when `path` has
/// the name of a precompressed sibling.
pub fn sibling_of(path: &str) -> Option<(&str, &'static str)> {
    PRECOMPRESSED
        .iter()
        .find_map(|(suffix, encoding)| Some((path.strip_suffix(suffix)?, *encoding)))
}

/// The folder of the home page of `locale`, with a trailing slash: empty
/// for the site's locale ([`crate::model::Registry::site_locale`], whose
/// home page is [`HOME_PAGE`]; [`Naming::Plain`]), else `<locale>/`.
pub fn home_dir(locale: &str, naming: Naming) -> String {
    match naming {
        Naming::Plain => String::new(),
        Naming::Localized => format!("{locale}/"),
    }
}

/// The home page of `locale`: [`HOME_PAGE`] for the site's locale, else
/// `<locale>/index.html`.
pub fn home_page(locale: &str, naming: Naming) -> String {
    format!("{}{DIRECTORY_INDEX}", home_dir(locale, naming))
}

/// The folder of the timeline page of every game ([`timeline_dir`]).
pub const TIMELINE_DIR: &str = "timeline";

/// The folder of the timeline page of `locale`, with a trailing slash:
/// `timeline/` beside the site locale's home page, else
/// `<locale>/timeline/`, as the home pages are placed ([`home_dir`]).
pub fn timeline_dir(locale: &str, naming: Naming) -> String {
    format!("{}{TIMELINE_DIR}/", home_dir(locale, naming))
}

/// The timeline page of `locale`: its folder's [`DIRECTORY_INDEX`].
pub fn timeline_page(locale: &str, naming: Naming) -> String {
    format!("{}{DIRECTORY_INDEX}", timeline_dir(locale, naming))
}

/// Page `part` (from 0) of a list of games cut into pages whose first
/// page is `first` (a home or timeline page): `first` itself, then
/// `page-2.html`, `page-3.html`, ... in its folder, so that every page of
/// the list is at the same depth and its relative links are the first
/// page's.
pub fn listing_page(first: &str, part: usize) -> String {
    if part == 0 {
        return first.to_owned();
    }
    let folder = first.strip_suffix(DIRECTORY_INDEX).unwrap_or(first);
    format!("{folder}{}", listing_href(part))
}

/// The link to page `part` of a list of games from another page of it
/// ([`listing_page`]).
pub fn listing_href(part: usize) -> String {
    if part == 0 {
        "./".to_owned()
    } else {
        format!("page-{}.html", part + 1)
    }
}

/// Whether `path` is a page after the first of a list of games
/// ([`listing_page`]) beside a home or timeline page.
pub fn is_listing_part(path: &str) -> bool {
    let parts: Vec<&str> = path.split('/').collect();
    match parts.as_slice() {
        [name] | [_, name] => is_listing_name(name),
        [_, dir, name] => *dir == TIMELINE_DIR && is_listing_name(name),
        _ => false,
    }
}

/// Whether a file name is that of a page after the first of a list
/// ([`listing_page`]).
fn is_listing_name(name: &str) -> bool {
    name.strip_prefix("page-")
        .and_then(|rest| rest.strip_suffix(".html"))
        .is_some_and(|n| n.parse::<usize>().is_ok_and(|n| n > 1))
}

/// Whether `path` is a timeline page ([`timeline_page`] of some locale).
pub fn is_timeline_page(path: &str) -> bool {
    matches!(path.split('/').collect::<Vec<_>>().as_slice(),
        [dir, page] | [_, dir, page] if *dir == TIMELINE_DIR && *page == DIRECTORY_INDEX)
}

/// How long clients and CDNs may keep the API and the calendars: five minutes
/// fresh, then served stale for up to a day while revalidating. Data changes
/// at most a few times a day and a deploy should show within minutes.
pub const API_CACHE: &str = "public, max-age=300, stale-while-revalidate=86400";

/// Pages: one minute fresh, an hour stale while revalidating.
pub const PAGE_CACHE: &str = "public, max-age=60, stale-while-revalidate=3600";

/// Files whose name carries a hash of their content never change.
pub const IMMUTABLE_CACHE: &str = "public, max-age=31536000, immutable";

/// The site root of a base URL someone typed: trailing slashes dropped, and
/// a base that already names the API (`…/api/v1` or `…/api/v1/activity`)
/// cut back to the root the paths of this module are relative to.
pub fn site_root(base: &str) -> &str {
    let trimmed = base.trim_end_matches('/');
    [ACTIVITY_DIR, API_DIR]
        .iter()
        .find_map(|dir| trimmed.strip_suffix(dir)?.strip_suffix('/'))
        .map_or(trimmed, |root| root.trim_end_matches('/'))
}

/// The path of a game's document (`ext` `json`) or calendar (`ext` `ics`):
/// `api/v1/activity/<game>.<ext>` for the default locale's un-suffixed name
/// ([`Naming::Plain`]), else `api/v1/activity/<game>-<locale>.<ext>`.
pub fn activity_path(game: &Game, locale: &str, name: Naming, ext: &str) -> String {
    activity_file(&game.published_stem(locale, name), ext)
}

/// The names a document is published under, when its locale's own files
/// are named `naming` ([`Naming::of`]): the default locale's under its
/// un-suffixed name too (first), every locale under its suffixed one.
/// Games' documents and calendars and announcements boards and feeds all
/// follow it.
pub fn published_names(naming: Naming) -> &'static [Naming] {
    match naming {
        Naming::Plain => &[Naming::Plain, Naming::Localized],
        Naming::Localized => &[Naming::Localized],
    }
}

/// Every name a document (`ext` `json`) or calendar (`ext` `ics`) of
/// `locale` is published under ([`published_names`]): the default
/// locale's also as `<game>.<ext>` (first), every locale as
/// `<game>-<locale>.<ext>`. Each entry is `(name, path)`.
pub fn published_paths(
    game: &Game,
    locale: &str,
    naming: Naming,
    ext: &str,
) -> Vec<(Naming, String)> {
    published_names(naming)
        .iter()
        .map(|&name| (name, activity_path(game, locale, name, ext)))
        .collect()
}

/// `api/v1/activity/<stem>.<ext>`.
pub fn activity_file(stem: &str, ext: &str) -> String {
    format!("{ACTIVITY_DIR}/{stem}.{ext}")
}

/// The path of a document (`ext` `json`) of a kind published once per
/// locale under the name `stem`, or of a file beside it (its feed, `ext`
/// `atom`): `api/v1/<stem>.<ext>` for the site's default locale under its
/// un-suffixed name ([`Naming::Plain`]), else `api/v1/<stem>-<locale>.<ext>`.
pub fn locale_document_path(stem: &str, locale: &str, name: Naming, ext: &str) -> String {
    match name {
        Naming::Plain => format!("{API_DIR}/{stem}.{ext}"),
        Naming::Localized => format!("{API_DIR}/{stem}-{locale}.{ext}"),
    }
}

/// The folder of the page of `locale` of a kind whose pages are in `dir`,
/// with a trailing slash: `<dir>/` for the site's default locale
/// ([`Naming::Plain`]), else `<dir>/<locale>/`. The page is its
/// [`DIRECTORY_INDEX`]; a game id that would shadow `dir` is refused by
/// the registry rules.
pub fn kind_page_dir(dir: &str, locale: &str, naming: Naming) -> String {
    match naming {
        Naming::Plain => format!("{dir}/"),
        Naming::Localized => format!("{dir}/{locale}/"),
    }
}

/// The locale of a document's path of a kind published under `stem`, the
/// inverse of [`locale_document_path`] with `ext` `json`: `Some(None)` for
/// the un-suffixed `api/v1/<stem>.json`, `Some(Some(locale))` for
/// `api/v1/<stem>-<locale>.json`, `None` for any other path.
pub fn locale_document_of<'a>(stem: &str, path: &'a str) -> Option<Option<&'a str>> {
    if path == locale_document_path(stem, "", Naming::Plain, "json") {
        return Some(None);
    }
    let probe = locale_document_path(stem, "\u{0}", Naming::Localized, "json");
    let (prefix, suffix) = probe.split_once('\u{0}')?;
    let locale = path.strip_prefix(prefix)?.strip_suffix(suffix)?;
    (!locale.is_empty() && !locale.contains('/')).then_some(Some(locale))
}

/// The folder of a game's page in one locale, with a trailing slash:
/// `<game>/` for the default locale ([`Naming::Plain`]), else
/// `<game>/<locale>/`. The page is its [`DIRECTORY_INDEX`].
pub fn page_dir(game: &Game, locale: &str, naming: Naming) -> String {
    match naming {
        Naming::Plain => format!("{}/", game.id),
        Naming::Localized => format!("{}/{locale}/", game.id),
    }
}

/// Whether a path (relative, forward slashes) is one a build writes: the
/// API under `api/v1/`, `_headers`, and `index.html`/`404.html` at most two
/// folders deep, each possibly with a `.br` or `.gz` sibling.
pub fn is_built_path(path: &str) -> bool {
    let path = sibling_of(path).map_or(path, |(base, _)| base);
    let parts: Vec<&str> = path.split('/').collect();
    match parts.as_slice() {
        _ if is_api(path) => parts.len() > 2,
        _ if path == API_CATALOG_PATH => true,
        _ if is_listing_part(path) => true,
        [one] => [HEADERS_FILE, HOME_PAGE, NOT_FOUND_PAGE, LLMS_PATH].contains(one),
        [_, page] | [_, _, page] => *page == DIRECTORY_INDEX,
        _ => false,
    }
}

/// The site-absolute URL of a path (`/api/v1/games.json`).
pub fn url(path: &str) -> String {
    format!("/{path}")
}

/// `path` without the one leading slash of a site-absolute URL.
fn relative(path: &str) -> &str {
    path.strip_prefix('/').unwrap_or(path)
}

/// Whether `path` (relative, or site-absolute) is under the public API.
pub fn is_api(path: &str) -> bool {
    let path = relative(path);
    path == API_DIR
        || path
            .strip_prefix(API_DIR)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// Whether `path` (relative, or site-absolute) is an activity document.
pub fn is_activity_document(path: &str) -> bool {
    relative(path)
        .strip_prefix(ACTIVITY_DIR)
        .is_some_and(|rest| rest.starts_with('/') && rest.ends_with(".json"))
}

/// One kind of file the site may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileKind {
    /// Extensions, lowercase, without the dot.
    pub extensions: &'static [&'static str],
    /// Whole paths of files without an extension of their own (the API
    /// catalog), relative to the site root.
    pub paths: &'static [&'static str],
    /// The `Content-Type` every server of the site sends.
    pub content_type: &'static str,
    /// Text worth precompressing (`.br`/`.gz` siblings).
    pub text: bool,
}

/// Every kind of file with a known type. SVG is `image/svg+xml` with no
/// charset: the type as registered and as nginx and Apache send it; an SVG
/// file is XML and declares its own encoding (UTF-8 when it does not).
pub const KINDS: &[FileKind] = &[
    text(&["json"], JSON_TYPE),
    text(&["ics"], "text/calendar; charset=utf-8"),
    text(&["html", "htm"], HTML_TYPE),
    text(&["css"], "text/css; charset=utf-8"),
    text(&["js", "mjs"], "text/javascript; charset=utf-8"),
    text(&["txt"], TEXT_TYPE),
    text(&["xml"], "application/xml; charset=utf-8"),
    text(&["atom"], "application/atom+xml; charset=utf-8"),
    text(&["webmanifest"], "application/manifest+json; charset=utf-8"),
    text(&["svg"], "image/svg+xml"),
    binary(&["png"], "image/png"),
    binary(&["jpg", "jpeg"], "image/jpeg"),
    binary(&["gif"], "image/gif"),
    binary(&["webp"], "image/webp"),
    binary(&["avif"], "image/avif"),
    binary(&["ico"], "image/x-icon"),
    binary(&["woff2"], "font/woff2"),
    binary(&["woff"], "font/woff"),
    binary(&["wasm"], "application/wasm"),
    binary(&["gz"], "application/gzip"),
    FileKind {
        extensions: &[],
        paths: &[API_CATALOG_PATH],
        content_type: API_CATALOG_TYPE,
        text: true,
    },
];

/// The type of the API catalog (RFC 9727, section 4.2: a linkset with the
/// catalog's profile).
pub const API_CATALOG_TYPE: &str =
    "application/linkset+json; profile=\"https://www.rfc-editor.org/info/rfc9727\"";

/// The media type the API catalog names the OpenAPI description by.
pub const OPENAPI_TYPE: &str = "application/vnd.oai.openapi+json;version=3.1";

/// The type of JSON (the API, and `serve`'s JSON errors).
pub const JSON_TYPE: &str = "application/json; charset=utf-8";
/// The type of HTML (the pages, and `serve`'s built-in pages).
pub const HTML_TYPE: &str = "text/html; charset=utf-8";
/// The type of plain text.
pub const TEXT_TYPE: &str = "text/plain; charset=utf-8";

/// The type of a file of no known kind.
pub const UNKNOWN_TYPE: &str = "application/octet-stream";

/// A kind of text file, precompressed.
const fn text(extensions: &'static [&'static str], content_type: &'static str) -> FileKind {
    FileKind {
        extensions,
        paths: &[],
        content_type,
        text: true,
    }
}

/// A kind of binary file (already compressed), served as it is.
const fn binary(extensions: &'static [&'static str], content_type: &'static str) -> FileKind {
    FileKind {
        text: false,
        ..text(extensions, content_type)
    }
}

/// The kind of a file by its extension (any case), if it has a known one.
pub fn kind_of(path: &str) -> Option<&'static FileKind> {
    // A whole path, relative or site-absolute, or at the end of a path
    // of the file system (`serve` asks with the file's own path).
    let whole = relative(path);
    let named = |p: &&str| {
        whole == *p
            || whole
                .strip_suffix(p)
                .is_some_and(|before| before.ends_with('/') || before.ends_with('\\'))
    };
    if let Some(kind) = KINDS.iter().find(|k| k.paths.iter().any(named)) {
        return Some(kind);
    }
    let name = path.rsplit('/').next().unwrap_or(path);
    let (_, ext) = name.rsplit_once('.')?;
    KINDS
        .iter()
        .find(|k| k.extensions.iter().any(|e| e.eq_ignore_ascii_case(ext)))
}

/// The `Content-Type` of a path of the site.
pub fn content_type(path: &str) -> &'static str {
    kind_of(path).map_or(UNKNOWN_TYPE, |k| k.content_type)
}

/// Whether a path names a text file worth compressing (`_headers` is not
/// one: hosts read it, clients never fetch it).
pub fn is_text(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name != HEADERS_FILE && kind_of(path).is_some_and(|k| k.text)
}

/// The `_headers` pattern of the API and anything else a host keeps under
/// `/api/`: the first of [`API_POLICY_PATTERNS`].
pub const API_PATTERN: &str = "/api/*";

/// The one table of the paths the API's policy covers (CORS and
/// [`API_CACHE`]), as `_headers` patterns: the API, its catalog (RFC 9727
/// names its place, outside `/api/`) and `llms.txt`, which the OpenAPI
/// description and the catalog list beside the API's files. `_headers`
/// (and so `serve`) and `publish` read it through [`has_api_policy`].
pub const API_POLICY_PATTERNS: [&str; 3] = [API_PATTERN, "/.well-known/api-catalog", "/llms.txt"];

/// The `Cache-Control` of a published path: immutable for names with a
/// content hash, [`API_CACHE`] for the paths of [`API_POLICY_PATTERNS`],
/// [`PAGE_CACHE`] elsewhere. (`serve` sends `no-cache` instead: a preview
/// always revalidates.)
pub fn cache_control(path: &str) -> &'static str {
    let name = path.rsplit('/').next().unwrap_or(path);
    if content_hashed(name) {
        IMMUTABLE_CACHE
    } else if has_api_policy(path) {
        API_CACHE
    } else {
        PAGE_CACHE
    }
}

/// Whether a pattern of [`API_POLICY_PATTERNS`] matches `path` (relative,
/// or site-absolute): the API's cache policy and CORS apply, and `publish`
/// sends it with the data.
pub fn has_api_policy(path: &str) -> bool {
    let url = url(relative(path));
    API_POLICY_PATTERNS
        .iter()
        .any(|pattern| match pattern.strip_suffix('*') {
            Some(prefix) => url.starts_with(prefix),
            None => url == *pattern,
        })
}

/// The `Link` header (RFC 8288) by which the API catalog names itself, as
/// RFC 9727 (section 3) asks of an answer to `/.well-known/api-catalog`.
pub fn api_catalog_link() -> String {
    format!("<{}>; rel=\"api-catalog\"", url(API_CATALOG_PATH))
}

/// Whether a path of the output is hidden, never published: a dot-file
/// or a file in a dot-folder, but for the one dot-folder a site
/// publishes on purpose at its root ([`WELL_KNOWN_DIR`]).
pub fn is_hidden(path: &str) -> bool {
    relative(path)
        .split('/')
        .enumerate()
        .any(|(i, part)| part.starts_with('.') && !(i == 0 && part == WELL_KNOWN_DIR))
}

/// A site's public address (`build --site-url`, like Hugo's `baseURL`):
/// an `http` or `https` URL without query, fragment or credentials, its
/// path ending in `/`. The site's absolute links (schema `$id`s, webcal
/// links, Atom ids, the OpenAPI `servers`) are [`SiteUrl::join`]ed to it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SiteUrl(String);

impl SiteUrl {
    /// Reads a site URL; `Err` is a message identifier of the reason
    /// (`site-url-scheme`, `site-url-parts`, `site-url-invalid`).
    pub fn parse(text: &str) -> Result<SiteUrl, &'static str> {
        let mut url = url::Url::parse(text.trim()).map_err(|_| "site-url-invalid")?;
        if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none_or(str::is_empty) {
            return Err("site-url-scheme");
        }
        if url.query().is_some()
            || url.fragment().is_some()
            || !url.username().is_empty()
            || url.password().is_some()
        {
            return Err("site-url-parts");
        }
        if !url.path().ends_with('/') {
            let path = format!("{}/", url.path());
            url.set_path(&path);
        }
        Ok(SiteUrl(url.into()))
    }

    /// The URL as given, normalised (`https://example.org/activity/`).
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The absolute URL of a path of the site (relative, or site-absolute).
    pub fn join(&self, path: &str) -> String {
        format!("{}{}", self.0, relative(path))
    }

    /// The `webcal://` subscription of a calendar of the site: its
    /// absolute URL with that scheme.
    pub fn webcal(&self, path: &str) -> String {
        let absolute = self.join(path);
        let rest = absolute
            .split_once("://")
            .map_or(absolute.as_str(), |(_, rest)| rest);
        format!("webcal://{rest}")
    }
}

/// The link to `path` a published file gives: absolute under `site`,
/// else site-absolute (`/api/v1/...`).
pub fn link(site: Option<&SiteUrl>, path: &str) -> String {
    site.map_or_else(|| url(path), |site| site.join(path))
}

/// Whether a file name carries a content hash (`style.3f9a1c0b.css`): a
/// dot-separated part of at least 8 hex digits before the extension.
fn content_hashed(name: &str) -> bool {
    let mut parts: Vec<&str> = name.split('.').collect();
    if parts.len() < 3 {
        return false;
    }
    parts.pop();
    parts[1..]
        .iter()
        .any(|p| p.len() >= 8 && p.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// `api/v1/games.json`: what a client needs to find every file. `build`
/// writes every field; a reader takes an index from another tool or an
/// older build, so every field but `id` may be missing.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Index {
    pub games: Vec<IndexGame>,
    /// The documents of each kind published once per locale, under the
    /// field its declaration names (`announcements`; absent from an index
    /// of a site without them, and from older builds). A field of another
    /// shape is not one of them and is left out.
    #[serde(flatten, deserialize_with = "per_locale_fields")]
    pub per_locale: IndexPerLocale,
}

/// The index's fields of the kinds published once per locale: each kind's
/// field and its documents, by field name.
pub type IndexPerLocale = std::collections::BTreeMap<String, Vec<IndexLocaleEntry>>;

/// The fields of an index beyond `games` that list documents of a kind
/// published per locale; any other field is not the tool's and is dropped.
fn per_locale_fields<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<IndexPerLocale, D::Error> {
    let fields = serde_json::Map::deserialize(deserializer)?;
    Ok(fields
        .into_iter()
        .filter_map(|(field, value)| Some((field, serde_json::from_value(value).ok()?)))
        .collect())
}

/// One published document of a kind published once per locale (an
/// announcements board) and the files beside it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IndexLocaleEntry {
    #[serde(default)]
    pub locale: String,
    /// The un-suffixed name of the site's default locale (`anno.json`).
    #[serde(default)]
    pub default: bool,
    /// Site-absolute URL of the document (`/api/v1/anno.json`).
    #[serde(default)]
    pub path: String,
    /// Site-absolute URL of its Atom feed, if it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feed: Option<String>,
    /// The document's `id`, which clients compare with the last one
    /// shown, if it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<u64>,
    /// Hex sha256 of the document's bytes.
    #[serde(default)]
    pub sha256: String,
    #[serde(default)]
    pub bytes: u64,
}

/// One game of the index, with its registry entry's public fields and the
/// default locale's version window.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IndexGame {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<Localized>,
    #[serde(default)]
    pub locales: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_locale: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_zone: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_source: Option<Localized>,
    /// The registry's typed sources, `updateMode`, `timeZoneAssumed` and
    /// `conventions` as `games.json` has them (absent when it has none):
    /// what `import` needs to give back the same registry. Kept as JSON,
    /// so that an index of another version still reads.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_sources: Option<serde_json::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub update_mode: Option<crate::model::UpdateMode>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub time_zone_assumed: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conventions: Option<serde_json::Value>,
    #[serde(default)]
    pub version: String,
    #[serde(default)]
    pub version_name: String,
    #[serde(default)]
    pub start_time: String,
    #[serde(default)]
    pub end_time: String,
    #[serde(default)]
    pub files: Vec<IndexFile>,
    /// The locales `games.json` lists that have no document yet (the
    /// `pending-locale` warning): nothing is published under their names.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pending: Vec<String>,
}

/// One published document of a game and its calendar.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IndexFile {
    #[serde(default)]
    pub locale: String,
    /// The un-suffixed `<game>.json` of the default locale.
    #[serde(default)]
    pub default: bool,
    /// Site-absolute URL of the document (`/api/v1/activity/ww.json`).
    #[serde(default)]
    pub path: String,
    /// Site-absolute URL of its calendar.
    #[serde(default)]
    pub calendar: String,
    /// Hex sha256 of the document's bytes.
    #[serde(default)]
    pub sha256: String,
    #[serde(default)]
    pub bytes: u64,
    /// How the document is kept current (`version`, `activity`), by the
    /// one freshness rule (`model::freshness`); absent from older builds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub update_mode: Option<UpdateMode>,
    /// When the document is due for its next update, RFC 3339 with the
    /// game's offset at that moment; absent from older builds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub due_at: Option<String>,
}

impl IndexFile {
    /// The document's path relative to the site root.
    pub fn relative_path(&self) -> &str {
        relative(&self.path)
    }
}

impl Index {
    /// Reads an index; `Err` says why the bytes are not one.
    pub fn parse(bytes: &[u8]) -> Result<Index, String> {
        serde_json::from_slice(bytes).map_err(|err| format!("not an index of activity-site: {err}"))
    }

    /// Every file the index lists, game by game.
    pub fn files(&self) -> impl Iterator<Item = &IndexFile> {
        self.games.iter().flat_map(|g| &g.files)
    }

    /// The activity documents it lists, relative to the site root, sorted
    /// and without repeats.
    pub fn documents(&self) -> Vec<String> {
        let mut paths: Vec<String> = self
            .files()
            .map(IndexFile::relative_path)
            .filter(|path| is_activity_document(path))
            .map(str::to_owned)
            .collect();
        paths.sort();
        paths.dedup();
        paths
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_site_url_is_http_without_query_and_ends_in_a_slash() {
        let site = SiteUrl::parse("https://example.org/activity").unwrap();
        assert_eq!(site.as_str(), "https://example.org/activity/");
        assert_eq!(
            site.join("/api/v1/games.json"),
            "https://example.org/activity/api/v1/games.json"
        );
        assert_eq!(
            site.webcal("api/v1/activity/sr.ics"),
            "webcal://example.org/activity/api/v1/activity/sr.ics"
        );
        assert_eq!(SiteUrl::parse("ftp://example.org/"), Err("site-url-scheme"));
        assert_eq!(
            SiteUrl::parse("https://example.org/?a=1"),
            Err("site-url-parts")
        );
        assert_eq!(
            SiteUrl::parse("https://example.org/#top"),
            Err("site-url-parts")
        );
        assert_eq!(SiteUrl::parse("example.org"), Err("site-url-invalid"));
        assert_eq!(link(None, "api/v1/openapi.json"), "/api/v1/openapi.json");
    }

    #[test]
    fn the_api_catalog_has_its_type_and_the_api_policy_and_is_published() {
        assert_eq!(content_type(API_CATALOG_PATH), API_CATALOG_TYPE);
        assert_eq!(
            content_type("/srv/site/.well-known/api-catalog"),
            API_CATALOG_TYPE
        );
        assert_eq!(content_type("api/v1/api-catalog"), UNKNOWN_TYPE);
        assert_eq!(cache_control(API_CATALOG_PATH), API_CACHE);
        assert_eq!(cache_control(LLMS_PATH), API_CACHE);
        assert_eq!(cache_control("/llms.txt"), API_CACHE);
        assert_eq!(cache_control("robots.txt"), PAGE_CACHE);
        assert_eq!(API_POLICY_PATTERNS[1], url(API_CATALOG_PATH));
        assert_eq!(API_POLICY_PATTERNS[2], url(LLMS_PATH));
        assert!(is_built_path(API_CATALOG_PATH));
        assert!(is_built_path(API_HOME_PATH));
        assert!(!is_hidden(API_CATALOG_PATH));
        assert!(is_hidden(".git/config"));
        assert!(is_hidden("api/.well-known/x"));
    }

    #[test]
    fn kinds_and_policies() {
        assert_eq!(content_type("a/logo.SVG"), "image/svg+xml");
        assert_eq!(content_type("README"), UNKNOWN_TYPE);
        assert!(is_text("api/v1/activity/ww.json"));
        assert!(!is_text("_headers"));
        assert!(!is_text("logo.png"));
        assert_eq!(cache_control("style.3f9a1c0b.css"), IMMUTABLE_CACHE);
        assert_eq!(cache_control("api/v1/activity/ww.json"), API_CACHE);
        assert_eq!(cache_control("apis/a.json"), PAGE_CACHE);
        assert_eq!(cache_control("ww/index.html"), PAGE_CACHE);
        assert!(is_activity_document("/api/v1/activity/ww-en.json"));
        assert!(!is_activity_document("api/v1/activity/ww.ics"));
        assert!(is_built_path("api/v1/activity/ww.json.br"));
        assert!(is_built_path("ww/en/index.html.gz"));
        assert!(!is_built_path("api/v1"));
        assert!(!is_built_path("notes.txt"));
        assert_eq!(timeline_page("zh-CN", Naming::Plain), "timeline/index.html");
        assert_eq!(
            timeline_page("en-US", Naming::Localized),
            "en-US/timeline/index.html"
        );
        assert!(is_timeline_page("timeline/index.html"));
        assert!(is_timeline_page("en-US/timeline/index.html"));
        assert!(!is_timeline_page("timeline/other.html"));
        assert!(is_built_path("en-US/timeline/index.html"));
        assert_eq!(
            listing_page("en-US/timeline/index.html", 0),
            "en-US/timeline/index.html"
        );
        assert_eq!(
            listing_page("en-US/timeline/index.html", 2),
            "en-US/timeline/page-3.html"
        );
        assert_eq!(listing_page("index.html", 1), "page-2.html");
        assert_eq!(listing_href(0), "./");
        assert!(is_built_path("page-2.html.gz"));
        assert!(is_built_path("en-US/timeline/page-12.html"));
        assert!(!is_built_path("en-US/timeline/page-1.html"));
        assert!(!is_built_path("en-US/timeline/page-x.html"));
        assert!(is_listing_part("timeline/page-2.html"));
        assert!(!is_listing_part("sr/en-US/page-2.html"));
    }

    #[test]
    fn an_index_from_elsewhere_needs_only_ids() {
        let index = Index::parse(br#"{"games":[{"id":"ww","files":[{"locale":"en","path":"/api/v1/activity/ww.json"}]}]}"#).unwrap();
        assert_eq!(index.documents(), ["api/v1/activity/ww.json"]);
        assert!(index.per_locale.is_empty());
        assert!(Index::parse(b"[]").is_err());
    }
}
