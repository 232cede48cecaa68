//! The HTML pages of the site: `index.html`, one page per game and locale, and
//! `404.html`.
//!
//! Templates are minijinja files compiled into the binary (`templates/`). This
//! module turns validated documents into small serializable views (percentages,
//! labels and links already computed) and lets the templates only lay them out.
//! Every link is relative, so the site works under a sub-path such as a GitHub
//! Pages project site. The only clock is the `now` it is given, read in each game's
//! own time zone; pages
//! know nothing about files on disk, HTTP or how the site is published.

use chrono::{Duration, NaiveDateTime, TimeZone};
use minijinja::Environment;
use minijinja::value::{Serde, Value};
use serde::Serialize;

use super::{GameOutput, LocaleDocument, OutputFile};
use crate::clock::Now;
use crate::layout;
use crate::model::days::whole_days;
use crate::model::{Activity, Game, most_shared};

/// Renders the home pages (`index.html` in the site's locale,
/// `<locale>/index.html` for every other), `<game>/index.html` (default
/// locale), `<game>/<locale>/index.html` (the other locales) and `404.html`.
/// `now` is read in each game's own time zone ([`Now::for_game`]).
pub fn render_pages(games: &[GameOutput], now: impl Into<Now>) -> anyhow::Result<Vec<OutputFile>> {
    let now = now.into();
    let homes: Vec<HomeGame> = games
        .iter()
        .map(|g| HomeGame::of(g, now.for_game(&g.game)))
        .collect();
    let site_locale = site_locale_of(&homes);
    let mut files = render_home_pages(&homes, now, &[])?;
    for game in games {
        for doc in &game.documents {
            files.push(render_page(
                game,
                doc,
                &site_locale,
                now.for_game(&game.game),
            )?);
        }
    }
    files.push(render_not_found()?);
    Ok(files)
}

/// What the home pages need of one game: its registry entry and documents
/// without their activities, and of each document (in order) the
/// activities that have not ended at the build's `now`, which the "ending
/// soonest" list shows now or, through the page's script, later. A build
/// keeps this of every game, not the games themselves.
#[derive(Debug, Clone)]
pub struct HomeGame {
    /// The game, its documents' activities dropped.
    pub game: GameOutput,
    /// Per document of `game.documents`: its activities not ended at `now`.
    pub activities: Vec<Vec<HomeActivity>>,
}

/// An activity a home page may list as ending soonest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HomeActivity {
    /// Its place in the document's (sorted) activities: its anchor on the game page.
    pub index: usize,
    pub name: String,
    pub start: NaiveDateTime,
    pub end: NaiveDateTime,
}

impl HomeGame {
    /// The part of `game` the home pages show at `now`.
    pub fn of(game: &GameOutput, now: NaiveDateTime) -> HomeGame {
        let activities = game
            .documents
            .iter()
            .map(|doc| {
                doc.document
                    .activities
                    .iter()
                    .zip(&doc.times.activities)
                    .enumerate()
                    .filter_map(|(index, (activity, times))| {
                        let (start, end) = (*times)?;
                        (now <= end).then(|| HomeActivity {
                            index,
                            name: activity.name.clone(),
                            start,
                            end,
                        })
                    })
                    .collect()
            })
            .collect();
        let mut game = game.clone();
        for doc in &mut game.documents {
            doc.document.activities = Vec::new();
            doc.times.activities = Vec::new();
        }
        HomeGame { game, activities }
    }
}

/// The site's locale of these games ([`crate::model::site_locale`]).
pub fn site_locale_of(games: &[HomeGame]) -> String {
    crate::model::site_locale(games.iter().map(|g| &g.game.game))
        .unwrap_or("en-US")
        .to_owned()
}

/// The locales with a home page: the site's first, then every other
/// locale a game has a document in, in the order they first appear.
fn home_locales(games: &[HomeGame], site_locale: &str) -> Vec<String> {
    let mut locales = vec![site_locale.to_owned()];
    for game in games {
        for doc in &game.game.documents {
            if !locales.contains(&doc.locale) {
                locales.push(doc.locale.clone());
            }
        }
    }
    locales
}

/// The home pages: one per locale ([`home_locales`]), each listing every
/// game in that locale (a game without a document in it shows its default
/// one), with the ongoing activities that end soonest. Each game is judged
/// by `now` in its own time zone; the time shown is read in the zone most
/// games share (the first game's on a tie).
///
/// `announcements` are the boards' links: each home page links to the
/// board of its locale, else to the site's default board.
pub fn render_home_pages(
    games: &[HomeGame],
    now: impl Into<Now>,
    announcements: &[super::announcements::HomeLink],
) -> anyhow::Result<Vec<OutputFile>> {
    let mut pages = Vec::new();
    each_home_page(games, now, announcements, |page| {
        pages.push(page);
        Ok(())
    })?;
    Ok(pages)
}

/// [`render_home_pages`], each page handed to `done` before the next is
/// rendered: a page lists every game's activities (megabytes on a large
/// site), so a build writes one away before it makes the next.
pub fn each_home_page(
    games: &[HomeGame],
    now: impl Into<Now>,
    announcements: &[super::announcements::HomeLink],
    mut done: impl FnMut(OutputFile) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let now = now.into();
    let site_locale = site_locale_of(games);
    let shown = most_shared(games.iter().map(|g| g.game.game.time_zone_name()))
        .and_then(|zone| games.iter().find(|g| g.game.game.time_zone_name() == zone));
    let locales = home_locales(games, &site_locale);
    let env = environment()?;
    for locale in &locales {
        let is_site = *locale == site_locale;
        let root = if is_site { "" } else { "../" };
        let ui = ui_for(locale);
        let alternates = locales
            .iter()
            .map(|other| Alternate {
                locale: other.clone(),
                language: language_name(other),
                href: format!("{root}{}", layout::home_dir(other, *other == site_locale)),
                current: other == locale,
            })
            .collect();
        let as_of = shown.map_or_else(
            || TimeView::naive(now.in_zone(chrono_tz::Asia::Shanghai)),
            |g| time_view(&g.game.game, now.for_game(&g.game.game)),
        );
        let board = announcements
            .iter()
            .find(|b| b.locale == *locale)
            .or_else(|| announcements.iter().find(|b| b.is_default))
            .or(announcements.first())
            .map(|b| super::announcements::HomeLink {
                href: format!("{root}{}", b.href),
                feed_href: format!("{root}{}", b.feed_href),
                ..b.clone()
            });
        let index = IndexView {
            announcements: board,
            lang: locale.clone(),
            ui,
            root: root.to_owned(),
            as_of,
            alternates,
            live: live(ui),
            games: Value::from_object(OneByOne(
                games
                    .iter()
                    .map(|game| index_game(game, locale, root, now.for_game(&game.game.game), ui))
                    .collect::<anyhow::Result<_>>()?,
            )),
        };
        done(render(
            env,
            "index.html",
            &layout::home_page(locale, is_site),
            &index,
        )?)?;
    }
    Ok(())
}

/// The page of one document. Of the game's other documents it shows only
/// their locales, which the registry entry gives: a page depends on the
/// entry, this document, the site's locale (its "all games" link) and `now`.
pub fn render_page(
    game: &GameOutput,
    doc: &LocaleDocument,
    site_locale: &str,
    now: NaiveDateTime,
) -> anyhow::Result<OutputFile> {
    let page = game_page(game, doc, site_locale, now)?;
    let path = format!("{}{}", page_dir(&game.game, doc), layout::DIRECTORY_INDEX);
    render(environment()?, "game.html", &path, &page)
}

/// `404.html`, the same for every site.
pub fn render_not_found() -> anyhow::Result<OutputFile> {
    let not_found = NotFoundView {
        lang: "en",
        ui: &EN,
        zh: &ZH,
        live: Live {
            script: None,
            ..live(&EN)
        },
    };
    render(
        environment()?,
        "404.html",
        layout::NOT_FOUND_PAGE,
        &not_found,
    )
}

/// Bump when a change of the renderers' or the compressors' code (not of
/// the templates, which are hashed) changes the bytes of a page, a calendar,
/// a document or a precompressed sibling: it is part of the build cache's key.
pub const RENDERER_VERSION: &str = "4";

/// A fingerprint of the templates and [`RENDERER_VERSION`].
pub fn fingerprint() -> String {
    use sha2::{Digest, Sha256};
    let mut hasher = Sha256::new();
    hasher.update(RENDERER_VERSION.as_bytes());
    for (name, source) in TEMPLATES {
        for part in [name.as_bytes(), source.as_bytes()] {
            hasher.update((part.len() as u64).to_le_bytes());
            hasher.update(part);
        }
    }
    hex::encode(hasher.finalize())
}

/// The templates, compiled into the binary. The style sheet and the
/// script are not templates: pages carry them verbatim (see [`LIVE`]).
const TEMPLATES: [(&str, &str); 9] = [
    ("base.html", include_str!("templates/base.html")),
    ("languages.html", include_str!("templates/languages.html")),
    ("activity.html", include_str!("templates/activity.html")),
    ("index.html", include_str!("templates/index.html")),
    ("game.html", include_str!("templates/game.html")),
    ("404.html", include_str!("templates/404.html")),
    (
        "announcements.html",
        include_str!("templates/announcements.html"),
    ),
    ("style.css", STYLE),
    ("live.js", SCRIPT),
];

/// The style sheet of every page, inline in a `<style>` element.
pub const STYLE: &str = include_str!("templates/style.css");

/// The script of the game and home pages, inline in a `<script>` element:
/// it redraws what depends on "now" from the reader's clock (status badges,
/// days left, progress, the now line, the order of the activities, the
/// "ending soonest" lists) and shows each time in the reader's zone beside
/// the server's when they differ. Without it the build-time text stays.
pub const SCRIPT: &str = include_str!("templates/live.js");

/// What base.html puts in `<script>`, byte for byte, and the page's
/// strings for the script (JSON in a data block, which runs nothing). A
/// view without a `live` field (or with no script) gets no script; every
/// page gets the style sheet, a global of the environment (`site_style`).
#[derive(Debug, Clone, Serialize)]
pub(super) struct Live {
    script: Option<&'static str>,
    ui_json: String,
}

/// The script and `ui` for it.
fn live(ui: &Ui) -> Live {
    // `<` escaped, so no string can close the element.
    let ui_json = serde_json::to_string(ui)
        .unwrap_or_default()
        .replace('<', "\\u003c");
    Live {
        script: Some(SCRIPT),
        ui_json,
    }
}

/// The style sheet of a page without the script (the announcements pages).
pub(super) fn style_only(ui: &Ui) -> Live {
    Live {
        script: None,
        ..live(ui)
    }
}

/// The `Content-Security-Policy` of the site: nothing loads but the inline
/// style sheet and script (by their hashes), the inline `style` attributes
/// that place the timeline bars, and images (covers may be on any HTTPS
/// host; the favicon is a `data:` URL). No connections, frames, forms,
/// fonts or plugins. `_headers` sends it with every file, and so does `serve`.
pub fn content_security_policy() -> String {
    format!(
        "default-src 'none'; img-src 'self' https: data:; style-src {}; style-src-attr 'unsafe-inline'; script-src {}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        csp_hash(STYLE),
        csp_hash(SCRIPT)
    )
}

/// `'sha256-…'` of an inline element's text, as a CSP source.
pub fn csp_hash(text: &str) -> String {
    use base64::Engine as _;
    use sha2::{Digest, Sha256};
    format!(
        "'sha256-{}'",
        base64::engine::general_purpose::STANDARD.encode(Sha256::digest(text.as_bytes()))
    )
}

/// UI strings of one language. Only zh-CN and English exist; every other
/// locale falls back to English.
#[derive(Debug, Serialize)]
pub(super) struct Ui {
    site_title: &'static str,
    skip: &'static str,
    home: &'static str,
    games: &'static str,
    version: &'static str,
    window: &'static str,
    progress: &'static str,
    timeline: &'static str,
    activities: &'static str,
    no_activities: &'static str,
    languages: &'static str,
    data: &'static str,
    json: &'static str,
    calendar: &'static str,
    page: &'static str,
    default_locale: &'static str,
    upcoming: &'static str,
    ongoing: &'static str,
    ended: &'static str,
    ending_soon: &'static str,
    starts_before: &'static str,
    ends_after: &'static str,
    kind: &'static str,
    cover: &'static str,
    now: &'static str,
    as_of: &'static str,
    /// The colon after a label (full-width in Chinese).
    colon: &'static str,
    /// The full stop that ends a sentence (full-width in Chinese).
    stop: &'static str,
    /// The space after a full stop (none in Chinese).
    space: &'static str,
    times_in: &'static str,
    legend: &'static str,
    not_found_title: &'static str,
    not_found_text: &'static str,
    api_hint: &'static str,
    /// "Days left" and "starts in" (`{n}`: a count of whole days, 2 or more).
    starts_within_day: &'static str,
    starts_in_one: &'static str,
    starts_in_many: &'static str,
    left_under_day: &'static str,
    left_one: &'static str,
    left_many: &'static str,
    ended_text: &'static str,
    /// What the script adds beside a time in the reader's zone.
    your_time: &'static str,
    your_zone: &'static str,
    home_description: &'static str,
}

const EN: Ui = Ui {
    site_title: "Game activity calendar",
    skip: "Skip to content",
    home: "All games",
    games: "Games",
    version: "Version",
    window: "Version window",
    progress: "Version progress",
    timeline: "Timeline",
    activities: "Activities",
    no_activities: "No activities announced yet.",
    languages: "Languages",
    data: "Data",
    json: "JSON",
    calendar: "Calendar (.ics)",
    page: "Page",
    default_locale: "default",
    upcoming: "Upcoming",
    ongoing: "Ongoing",
    ended: "Ended",
    ending_soon: "Ending soonest",
    starts_before: "began before this version",
    ends_after: "continues after this version",
    kind: "Kind",
    cover: "Cover of",
    now: "Now",
    as_of: "Status as of",
    colon: ": ",
    stop: ".",
    space: " ",
    times_in: "Times are in the game's server time zone",
    legend: "Legend",
    not_found_title: "Page not found",
    not_found_text: "There is nothing at this address.",
    api_hint: "The activity API lives under api/v1/activity/ on this site.",
    starts_within_day: "starts within a day",
    starts_in_one: "starts in 1 day",
    starts_in_many: "starts in {n} days",
    left_under_day: "less than a day left",
    left_one: "1 day left",
    left_many: "{n} days left",
    ended_text: "ended",
    your_time: "your time",
    your_zone: "Your time zone",
    home_description: "Current game versions, their activities and calendars.",
};

const ZH: Ui = Ui {
    site_title: "游戏活动日历",
    skip: "跳到正文",
    home: "全部游戏",
    games: "游戏",
    version: "版本",
    window: "版本时间",
    progress: "版本进度",
    timeline: "时间线",
    activities: "活动",
    no_activities: "暂无已公布的活动。",
    languages: "语言",
    data: "数据",
    json: "JSON",
    calendar: "日历（.ics）",
    page: "页面",
    default_locale: "默认",
    upcoming: "未开始",
    ongoing: "进行中",
    ended: "已结束",
    ending_soon: "即将结束",
    starts_before: "早于本版本开始",
    ends_after: "持续到本版本之后",
    kind: "类型",
    cover: "封面",
    now: "现在",
    as_of: "状态时间",
    colon: "：",
    stop: "。",
    space: "",
    times_in: "时间均为游戏服务器时区",
    legend: "图例",
    not_found_title: "页面不存在",
    not_found_text: "这个地址没有内容。",
    api_hint: "活动 API 位于本站的 api/v1/activity/ 下。",
    starts_within_day: "1 天内开始",
    starts_in_one: "1 天后开始",
    starts_in_many: "{n} 天后开始",
    left_under_day: "剩余不到 1 天",
    left_one: "剩余 1 天",
    left_many: "剩余 {n} 天",
    ended_text: "已结束",
    your_time: "本地时间",
    your_zone: "你的时区",
    home_description: "各游戏的当前版本、活动和日历。",
};

/// The UI strings for a page in `locale`: Chinese for a Chinese locale
/// ([`crate::model::is_chinese`]), English otherwise.
pub(super) fn ui_for(locale: &str) -> &'static Ui {
    if crate::model::is_chinese(locale) {
        &ZH
    } else {
        &EN
    }
}

#[derive(Debug, Serialize)]
struct IndexView {
    /// The link block to the announcements page and feed.
    announcements: Option<super::announcements::HomeLink>,
    lang: String,
    ui: &'static Ui,
    /// Relative path from this page to the site root (`""` or `../`).
    root: String,
    as_of: TimeView,
    /// The home pages of every locale, this one included.
    alternates: Vec<Alternate>,
    live: Live,
    /// The games ([`IndexGame`]), [`OneByOne`].
    games: Value,
}

/// A list a template gets item by item: each item becomes a template value
/// only when the template reaches it, and is dropped once it has moved on.
/// A home page lists every game's activities (hundreds of thousands on a
/// large site): made into values all at once, they would take several
/// times the memory of the page itself.
#[derive(Debug)]
struct OneByOne<T>(Vec<T>);

impl<T: Serialize + std::fmt::Debug + Send + Sync + 'static> minijinja::value::Object
    for OneByOne<T>
{
    fn repr(self: &std::sync::Arc<Self>) -> minijinja::value::ObjectRepr {
        minijinja::value::ObjectRepr::Seq
    }

    fn get_value(self: &std::sync::Arc<Self>, key: &Value) -> Option<Value> {
        self.0
            .get(key.as_usize()?)
            .map(|item| Value::from(Serde(item)))
    }

    fn enumerate(self: &std::sync::Arc<Self>) -> minijinja::value::Enumerator {
        minijinja::value::Enumerator::Seq(self.0.len())
    }
}

#[derive(Debug, Serialize)]
struct IndexGame {
    id: String,
    name: String,
    version: String,
    version_name: String,
    window: WindowView,
    page_href: String,
    feeds: Vec<Feed>,
    /// Every activity not ended at build time, ending soonest first; the
    /// first three ongoing ones are shown, the script picks again.
    soonest: Vec<Soonest>,
    /// Whether any is shown at build time.
    any_soonest: bool,
}

/// An activity on the home page: what a player may miss.
#[derive(Debug, Serialize)]
struct Soonest {
    /// The anchor number on the game page (the order of ties).
    index: usize,
    name: String,
    href: String,
    start: TimeView,
    end: TimeView,
    remaining: String,
    shown: bool,
}

/// Links to one locale's page, JSON document and calendar.
#[derive(Debug, Serialize)]
struct Feed {
    locale: String,
    language: String,
    is_default: bool,
    page_href: String,
    json_href: String,
    ics_href: String,
}

/// A version window with its progress relative to "now".
#[derive(Debug, Serialize)]
struct WindowView {
    start: TimeView,
    end: TimeView,
    zone: String,
    /// Elapsed share of the window in percent, `0.00` to `100.00`.
    progress: String,
    /// The same, rounded for people.
    progress_rounded: u32,
    status: &'static str,
    status_label: &'static str,
    remaining: String,
}

/// A time as shown (`2026-10-08 04:00`) and as machine-readable `datetime`.
#[derive(Debug, Serialize)]
struct TimeView {
    text: String,
    iso: String,
}

impl TimeView {
    /// A time of no known zone: a local date-time is still a valid `datetime`.
    fn naive(t: NaiveDateTime) -> TimeView {
        TimeView {
            text: display_time(t),
            iso: t.format("%Y-%m-%dT%H:%M:%S").to_string(),
        }
    }
}

#[derive(Debug, Serialize)]
struct GamePage {
    lang: String,
    ui: &'static Ui,
    /// Relative path from this page to the site root (`../` or `../../`).
    root: String,
    /// Relative path to the home page of this page's language.
    home_href: String,
    live: Live,
    game_name: String,
    version: String,
    version_name: String,
    cover: Option<String>,
    window: WindowView,
    json_href: String,
    ics_href: String,
    alternates: Vec<Alternate>,
    ticks: Vec<Tick>,
    now_left: Option<String>,
    /// Where the now line goes (hidden outside the window, for the script).
    now_at: String,
    as_of: TimeView,
    /// The footnote of a game whose time zone an import assumed and no
    /// maintainer confirmed (`timeZoneAssumed`); kept out of [`Ui`], which
    /// every page embeds.
    zone_assumed: Option<&'static str>,
    counts: Counts,
    /// Every activity of the document.
    total: usize,
    /// Ongoing (ending soonest first), then upcoming (starting soonest first).
    current: Vec<ActivityView>,
    /// Ended, most recently ended first: folded away on the page.
    ended: Vec<ActivityView>,
}

/// The footnote of a game page whose time zone was assumed, in the page's language.
fn zone_assumed_note(locale: &str) -> &'static str {
    if crate::model::is_chinese(locale) {
        "这个时区是导入数据时假定的，尚未确认。"
    } else {
        "This time zone was assumed when the data was imported and is not confirmed yet."
    }
}

/// A link to the same game in another (or this) locale.
#[derive(Debug, Serialize)]
struct Alternate {
    locale: String,
    language: String,
    href: String,
    current: bool,
}

/// A date mark on the timeline axis.
#[derive(Debug, Serialize)]
struct Tick {
    left: String,
    label: String,
}

#[derive(Debug, Serialize)]
struct Counts {
    ongoing: usize,
    upcoming: usize,
    ended: usize,
}

#[derive(Debug, Serialize)]
struct ActivityView {
    anchor: String,
    index: usize,
    name: String,
    kind: Option<String>,
    description: String,
    start: TimeView,
    end: TimeView,
    status: &'static str,
    status_label: &'static str,
    remaining: String,
    /// Position of the bar in percent of the version window, clipped to it.
    left: String,
    width: String,
    starts_before: bool,
    ends_after: bool,
    cover: Option<String>,
    /// The activity's window, for the order of the page.
    #[serde(skip)]
    at: (NaiveDateTime, NaiveDateTime),
}

#[derive(Debug, Serialize)]
struct NotFoundView {
    lang: &'static str,
    ui: &'static Ui,
    zh: &'static Ui,
    live: Live,
}

/// The template environment, compiled once per process.
fn environment() -> anyhow::Result<&'static Environment<'static>> {
    static ENV: std::sync::OnceLock<Environment<'static>> = std::sync::OnceLock::new();
    if let Some(env) = ENV.get() {
        return Ok(env);
    }
    let env = compile()?;
    Ok(ENV.get_or_init(|| env))
}

fn compile() -> anyhow::Result<Environment<'static>> {
    let mut env = Environment::new();
    env.set_syntax(
        minijinja::syntax::SyntaxConfig::builder()
            .trim_blocks(true)
            .lstrip_blocks(true)
            .build()?,
    );
    env.set_undefined_behavior(minijinja::UndefinedBehavior::Strict);
    // Verbatim in every page's `<style>`: the policy names its hash.
    env.add_global("site_style", Value::from_safe_string(STYLE.to_owned()));
    // minijinja's HTML escaping also escapes `/` and `'`, which makes every
    // relative link read `demo&#x2f;en-US&#x2f;`. Valid, but unreadable in
    // the page source; escaping `& < > "` is all HTML text and double-quoted
    // attributes (the only kind these templates use) need.
    env.set_formatter(
        |out, state, value| match (state.auto_escape(), value.as_str()) {
            (minijinja::AutoEscape::Html, Some(text)) if !value.is_safe() => {
                out.write_str(&escape_html(text))?;
                Ok(())
            }
            _ => minijinja::escape_formatter(out, state, value),
        },
    );
    for (name, source) in TEMPLATES {
        env.add_template(name, source)?;
    }
    Ok(env)
}

/// Escapes text for HTML content and double-quoted attribute values (the
/// pages' templates, and the pages `serve` makes: its 404 and the overlay).
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

/// Renders `template` with `view` into the file at `path` (for the
/// announcements pages, which keep their views in their own module).
pub(super) fn render_view<S: Serialize>(
    template: &str,
    path: &str,
    view: &S,
) -> anyhow::Result<OutputFile> {
    render(environment()?, template, path, view)
}

fn render<S: Serialize>(
    env: &Environment<'_>,
    template: &str,
    path: &str,
    view: &S,
) -> anyhow::Result<OutputFile> {
    let text = env
        .get_template(template)?
        .render(Value::from(Serde(view)))
        .map_err(|err| anyhow::anyhow!("rendering {path}: {err:#}"))?;
    Ok(OutputFile {
        path: path.to_owned(),
        bytes: text.into_bytes(),
    })
}

/// Directory of a game page relative to the root, with a trailing slash.
fn page_dir(game: &Game, doc: &LocaleDocument) -> String {
    layout::page_dir(game, &doc.locale, doc.is_default)
}

/// A published API file of a document (`ext` `json` or `ics`).
fn api_file(game: &Game, doc: &LocaleDocument, ext: &str) -> String {
    layout::activity_path(game, &doc.locale, doc.is_default, ext)
}

/// The name of a language in itself, for language links.
pub(super) fn language_name(locale: &str) -> String {
    match locale {
        "zh-CN" | "zh-Hans" | "zh" => "简体中文".to_owned(),
        "zh-TW" | "zh-HK" | "zh-Hant" => "繁體中文".to_owned(),
        "en-US" | "en-GB" | "en" => "English".to_owned(),
        "ja-JP" | "ja" => "日本語".to_owned(),
        "ko-KR" | "ko" => "한국어".to_owned(),
        "de-DE" | "de" => "Deutsch".to_owned(),
        "fr-FR" | "fr" => "Français".to_owned(),
        "es-ES" | "es" => "Español".to_owned(),
        other => other.to_owned(),
    }
}

fn default_document(game: &GameOutput) -> anyhow::Result<&LocaleDocument> {
    game.documents
        .iter()
        .find(|d| d.is_default)
        .or_else(|| game.documents.first())
        .ok_or_else(|| anyhow::anyhow!("game `{}` has no documents", game.game.id))
}

/// The document of `game` in `locale`, else its default one.
fn document_in<'a>(
    game: &'a GameOutput,
    locale: &str,
) -> anyhow::Result<(usize, &'a LocaleDocument)> {
    match game.documents.iter().position(|d| d.locale == locale) {
        Some(i) => Ok((i, &game.documents[i])),
        None => {
            let doc = default_document(game)?;
            let i = game
                .documents
                .iter()
                .position(|d| std::ptr::eq(d, doc))
                .unwrap_or(0);
            Ok((i, doc))
        }
    }
}

/// How many ongoing activities a home page lists per game.
const SOONEST: usize = 3;

fn index_game(
    home: &HomeGame,
    locale: &str,
    root: &str,
    now: NaiveDateTime,
    ui: &'static Ui,
) -> anyhow::Result<IndexGame> {
    let game = &home.game;
    let (at, doc) = document_in(game, locale)?;
    let g = &game.game;
    let feeds = game
        .documents
        .iter()
        .map(|d| Feed {
            locale: d.locale.clone(),
            language: language_name(&d.locale),
            is_default: d.is_default,
            page_href: format!("{root}{}", page_dir(g, d)),
            json_href: format!("{root}{}", api_file(g, d, "json")),
            ics_href: format!("{root}{}", api_file(g, d, "ics")),
        })
        .collect();
    // Ongoing first, ending soonest first; then the others by their end
    // (ties in the data's order). The first three ongoing are shown.
    let mut listed: Vec<&HomeActivity> = home.activities.get(at).into_iter().flatten().collect();
    let ongoing = |a: &HomeActivity| a.start <= now && now <= a.end;
    listed.sort_by_key(|a| (!ongoing(a), a.end, a.index));
    let page = format!("{root}{}", page_dir(g, doc));
    let soonest: Vec<Soonest> = listed
        .into_iter()
        .enumerate()
        .map(|(rank, a)| Soonest {
            index: a.index,
            name: a.name.clone(),
            href: format!("{page}#activity-{}", a.index + 1),
            start: time_view(g, a.start),
            end: time_view(g, a.end),
            remaining: remaining(a.start, a.end, now, ui),
            shown: rank < SOONEST && ongoing(a),
        })
        .collect();
    Ok(IndexGame {
        id: g.id.clone(),
        name: g.name.get(&doc.locale, &g.default_locale).to_owned(),
        version: doc.document.version.clone(),
        version_name: doc.document.version_name.clone(),
        window: window_view(g, doc, now, ui)?,
        page_href: page,
        feeds,
        any_soonest: soonest.iter().any(|a| a.shown),
        soonest,
    })
}

fn game_page(
    game: &GameOutput,
    doc: &LocaleDocument,
    site_locale: &str,
    now: NaiveDateTime,
) -> anyhow::Result<GamePage> {
    let g = &game.game;
    let ui = ui_for(&doc.locale);
    let root = if doc.is_default { "../" } else { "../../" };
    let (start, end) = window_of(g, doc)?;
    let span = (end - start).num_seconds().max(1) as f64;
    let share =
        |t: NaiveDateTime| ((t - start).num_seconds() as f64 / span).clamp(0.0, 1.0) * 100.0;

    let alternates = game
        .documents
        .iter()
        .map(|other| Alternate {
            locale: other.locale.clone(),
            language: language_name(&other.locale),
            href: format!("{root}{}", page_dir(g, other)),
            current: other.locale == doc.locale,
        })
        .collect();

    // A mark every seven days from the start of the window, leaving room for
    // the labels of both ends.
    let mut ticks = vec![Tick {
        left: pct(0.0),
        label: start.format("%m-%d").to_string(),
    }];
    let mut t = start + Duration::days(7);
    while t < end {
        let left = share(t);
        if (8.0..=92.0).contains(&left) {
            ticks.push(Tick {
                left: pct(left),
                label: t.format("%m-%d").to_string(),
            });
        }
        t += Duration::days(7);
    }
    ticks.push(Tick {
        left: pct(100.0),
        label: end.format("%m-%d").to_string(),
    });

    let mut counts = Counts {
        ongoing: 0,
        upcoming: 0,
        ended: 0,
    };
    let mut activities = Vec::with_capacity(doc.document.activities.len());
    for (i, (activity, times)) in doc
        .document
        .activities
        .iter()
        .zip(&doc.times.activities)
        .enumerate()
    {
        let view = activity_view(g, doc, activity, *times, i, now, (start, end), ui)?;
        match view.status {
            "ongoing" => counts.ongoing += 1,
            "upcoming" => counts.upcoming += 1,
            _ => counts.ended += 1,
        }
        activities.push(view);
    }
    let total = activities.len();
    // A player opens the page to see what is on now: ongoing first (ending
    // soonest first), then upcoming (starting soonest first), then ended
    // (most recent first). The sorts are stable: ties keep the data's order.
    let (mut ended, mut current): (Vec<_>, Vec<_>) =
        activities.into_iter().partition(|a| a.status == "ended");
    current.sort_by_key(|a| match a.status {
        "ongoing" => (0, a.at.1),
        _ => (1, a.at.0),
    });
    ended.sort_by_key(|a| std::cmp::Reverse(a.at.1));

    Ok(GamePage {
        lang: doc.locale.clone(),
        ui,
        root: root.to_owned(),
        home_href: format!(
            "{root}{}",
            layout::home_dir(&doc.locale, doc.locale == site_locale)
        ),
        live: live(ui),
        game_name: g.name.get(&doc.locale, &g.default_locale).to_owned(),
        version: doc.document.version.clone(),
        version_name: doc.document.version_name.clone(),
        cover: doc.document.cover.clone().filter(|c| !c.is_empty()),
        window: window_view(g, doc, now, ui)?,
        json_href: format!("{root}{}", api_file(g, doc, "json")),
        ics_href: format!("{root}{}", api_file(g, doc, "ics")),
        alternates,
        ticks,
        now_left: (start..=end).contains(&now).then(|| pct(share(now))),
        now_at: pct(share(now)),
        as_of: time_view(g, now),
        zone_assumed: g.time_zone_assumed.then(|| zone_assumed_note(&doc.locale)),
        counts,
        total,
        current,
        ended,
    })
}

#[allow(clippy::too_many_arguments)]
fn activity_view(
    game: &Game,
    doc: &LocaleDocument,
    activity: &Activity,
    times: Option<(NaiveDateTime, NaiveDateTime)>,
    index: usize,
    now: NaiveDateTime,
    (start, end): (NaiveDateTime, NaiveDateTime),
    ui: &'static Ui,
) -> anyhow::Result<ActivityView> {
    let (a_start, a_end) = times.ok_or_else(|| {
        anyhow::anyhow!(
            "{}: activity `{}` has an invalid startTime `{}` or endTime `{}`",
            crate::tree::data_path(&game.id, &doc.locale),
            activity.name,
            activity.start_time,
            activity.end_time
        )
    })?;
    let span = (end - start).num_seconds().max(1) as f64;
    let share =
        |t: NaiveDateTime| ((t - start).num_seconds() as f64 / span).clamp(0.0, 1.0) * 100.0;
    let left = share(a_start);
    let right = share(a_end);
    let (status, status_label) = status_of(a_start, a_end, now, ui);
    Ok(ActivityView {
        anchor: format!("activity-{}", index + 1),
        index,
        name: activity.name.clone(),
        kind: activity.kind.clone().filter(|k| !k.is_empty()),
        description: activity.description.clone(),
        start: time_view(game, a_start),
        end: time_view(game, a_end),
        status,
        status_label,
        remaining: remaining(a_start, a_end, now, ui),
        left: pct(left),
        width: pct((right - left).max(0.0)),
        starts_before: a_start < start,
        ends_after: a_end > end,
        cover: activity.cover.clone().filter(|c| !c.is_empty()),
        at: (a_start, a_end),
    })
}

fn window_of(game: &Game, doc: &LocaleDocument) -> anyhow::Result<(NaiveDateTime, NaiveDateTime)> {
    doc.times.window().ok_or_else(|| {
        anyhow::anyhow!(
            "{}: the version window does not parse",
            crate::tree::data_path(&game.id, &doc.locale)
        )
    })
}

fn window_view(
    game: &Game,
    doc: &LocaleDocument,
    now: NaiveDateTime,
    ui: &'static Ui,
) -> anyhow::Result<WindowView> {
    let (start, end) = window_of(game, doc)?;
    let span = (end - start).num_seconds().max(1) as f64;
    let share = ((now - start).num_seconds() as f64 / span).clamp(0.0, 1.0) * 100.0;
    let (status, status_label) = status_of(start, end, now, ui);
    Ok(WindowView {
        start: time_view(game, start),
        end: time_view(game, end),
        zone: zone_label(game, start),
        progress: pct(share),
        progress_rounded: share.round() as u32,
        status,
        status_label,
        remaining: remaining(start, end, now, ui),
    })
}

fn status_of(
    start: NaiveDateTime,
    end: NaiveDateTime,
    now: NaiveDateTime,
    ui: &'static Ui,
) -> (&'static str, &'static str) {
    if now < start {
        ("upcoming", ui.upcoming)
    } else if now > end {
        ("ended", ui.ended)
    } else {
        ("ongoing", ui.ongoing)
    }
}

/// "12 days left", "starts in 3 days", "ended", in the page's language
/// (the script of the pages says the same from the same strings).
fn remaining(start: NaiveDateTime, end: NaiveDateTime, now: NaiveDateTime, ui: &Ui) -> String {
    // Whole days, rounded down: the one rule of `model::days`.
    let (n, [under, one, many]) = if now < start {
        (
            whole_days(now, start),
            [ui.starts_within_day, ui.starts_in_one, ui.starts_in_many],
        )
    } else if now > end {
        return ui.ended_text.to_owned();
    } else {
        (
            whole_days(now, end),
            [ui.left_under_day, ui.left_one, ui.left_many],
        )
    };
    match n {
        0 => under.to_owned(),
        1 => one.to_owned(),
        n => many.replace("{n}", &n.to_string()),
    }
}

/// A percentage with two decimals, the same on every machine.
fn pct(value: f64) -> String {
    format!("{value:.2}")
}

fn display_time(t: NaiveDateTime) -> String {
    t.format("%Y-%m-%d %H:%M").to_string()
}

/// The time as shown, and as an HTML `datetime` with the game's UTC offset.
fn time_view(game: &Game, t: NaiveDateTime) -> TimeView {
    let iso = match game.tz().from_local_datetime(&t).earliest() {
        Some(zoned) => zoned.format("%Y-%m-%dT%H:%M:%S%:z").to_string(),
        // A local time skipped by a DST change has no offset; a local
        // date-time is still a valid `datetime`.
        None => t.format("%Y-%m-%dT%H:%M:%S").to_string(),
    };
    TimeView {
        text: display_time(t),
        iso,
    }
}

/// `Asia/Shanghai, UTC+08:00` at the given local time.
fn zone_label(game: &Game, at: NaiveDateTime) -> String {
    match game.tz().from_local_datetime(&at).earliest() {
        Some(zoned) => format!("{}, UTC{}", game.time_zone_name(), zoned.format("%:z")),
        None => game.time_zone_name().to_owned(),
    }
}
