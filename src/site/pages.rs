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
use crate::model::days::{days_en, whole_days};
use crate::model::{Activity, Game, most_shared};

/// Renders `index.html`, `<game>/index.html` (default locale),
/// `<game>/<locale>/index.html` (the other locales) and `404.html`.
/// `now` is read in each game's own time zone ([`Now::for_game`]).
pub fn render_pages(games: &[GameOutput], now: impl Into<Now>) -> anyhow::Result<Vec<OutputFile>> {
    let now = now.into();
    let mut files = vec![render_index(games, now)?];
    for game in games {
        files.extend(render_game_pages(game, now)?);
    }
    files.push(render_not_found()?);
    Ok(files)
}

/// `index.html`: every game's summary.
/// Each game is judged by `now` in its own time zone; the time shown is
/// read in the zone most games share (the first game's on a tie).
pub fn render_index(games: &[GameOutput], now: impl Into<Now>) -> anyhow::Result<OutputFile> {
    let now = now.into();
    let shown = most_shared(games.iter().map(|g| g.game.time_zone_name()))
        .and_then(|zone| zone.parse().ok())
        .unwrap_or(chrono_tz::Asia::Shanghai);
    let index = IndexView {
        lang: "en",
        ui: &EN,
        root: "",
        as_of: display_time(now.in_zone(shown)),
        games: games
            .iter()
            .map(|game| index_game(game, now.for_game(&game.game)))
            .collect::<anyhow::Result<_>>()?,
    };
    render(environment()?, "index.html", layout::HOME_PAGE, &index)
}

/// The pages of one game: one per locale.
/// `now` is read in the game's time zone.
pub fn render_game_pages(
    game: &GameOutput,
    now: impl Into<Now>,
) -> anyhow::Result<Vec<OutputFile>> {
    let now = now.into().for_game(&game.game);
    game.documents
        .iter()
        .map(|doc| render_page(game, doc, now))
        .collect()
}

/// The page of one document. Of the game's other documents it shows only
/// their locales, which the registry entry gives: a page depends on the
/// entry, this document and `now` (a local time of the game's zone).
pub fn render_page(
    game: &GameOutput,
    doc: &LocaleDocument,
    now: NaiveDateTime,
) -> anyhow::Result<OutputFile> {
    let page = game_page(game, doc, now)?;
    let path = format!("{}{}", page_dir(&game.game, doc), layout::DIRECTORY_INDEX);
    render(environment()?, "game.html", &path, &page)
}

/// `404.html`, the same for every site.
pub fn render_not_found() -> anyhow::Result<OutputFile> {
    let not_found = NotFoundView {
        lang: "en",
        ui: &EN,
        zh: &ZH,
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
pub const RENDERER_VERSION: &str = "3";

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

/// The templates, compiled into the binary.
const TEMPLATES: [(&str, &str); 6] = [
    ("base.html", include_str!("templates/base.html")),
    ("activity.html", include_str!("templates/activity.html")),
    ("index.html", include_str!("templates/index.html")),
    ("game.html", include_str!("templates/game.html")),
    ("404.html", include_str!("templates/404.html")),
    ("style.css", include_str!("templates/style.css")),
];

/// UI strings of one language. Only zh-CN and English exist; every other
/// locale falls back to English.
#[derive(Debug, Serialize)]
struct Ui {
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
};

/// The UI strings for a page in `locale`: Chinese for `zh*`, English otherwise.
fn ui_for(locale: &str) -> &'static Ui {
    if locale.to_ascii_lowercase().starts_with("zh") {
        &ZH
    } else {
        &EN
    }
}

/// Whether a page in `locale` uses the Chinese strings.
fn is_zh(locale: &str) -> bool {
    std::ptr::eq(ui_for(locale), &ZH)
}

#[derive(Debug, Serialize)]
struct IndexView {
    lang: &'static str,
    ui: &'static Ui,
    root: &'static str,
    as_of: String,
    games: Vec<IndexGame>,
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
    /// The ongoing activities that end soonest, at most three.
    soonest: Vec<Soonest>,
}

/// An ongoing activity on the home page: what a player may miss.
#[derive(Debug, Serialize)]
struct Soonest {
    name: String,
    href: String,
    remaining: String,
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

#[derive(Debug, Serialize)]
struct GamePage {
    lang: String,
    ui: &'static Ui,
    /// Relative path from this page to the site root (`../` or `../../`).
    root: String,
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
    as_of: String,
    counts: Counts,
    /// Every activity of the document.
    total: usize,
    /// Ongoing (ending soonest first), then upcoming (starting soonest first).
    current: Vec<ActivityView>,
    /// Ended, most recently ended first: folded away on the page.
    ended: Vec<ActivityView>,
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
fn language_name(locale: &str) -> String {
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

/// The English document of a game when it has one, else its default one:
/// the index page is in English.
fn english_document(game: &GameOutput) -> anyhow::Result<&LocaleDocument> {
    match game
        .documents
        .iter()
        .find(|d| d.locale.to_ascii_lowercase().starts_with("en"))
    {
        Some(doc) => Ok(doc),
        None => default_document(game),
    }
}

fn index_game(game: &GameOutput, now: NaiveDateTime) -> anyhow::Result<IndexGame> {
    let doc = english_document(game)?;
    let g = &game.game;
    let feeds = game
        .documents
        .iter()
        .map(|d| Feed {
            locale: d.locale.clone(),
            language: language_name(&d.locale),
            is_default: d.is_default,
            page_href: page_dir(g, d),
            json_href: api_file(g, d, "json"),
            ics_href: api_file(g, d, "ics"),
        })
        .collect();
    // The ongoing activities that end soonest (ties in the data's order).
    let mut ongoing: Vec<(NaiveDateTime, usize, NaiveDateTime)> = doc
        .times
        .activities
        .iter()
        .enumerate()
        .filter_map(|(i, t)| {
            t.filter(|(s, e)| *s <= now && now <= *e)
                .map(|(s, e)| (e, i, s))
        })
        .collect();
    ongoing.sort();
    let soonest = ongoing
        .into_iter()
        .take(3)
        .map(|(end, i, start)| Soonest {
            name: doc.document.activities[i].name.clone(),
            href: format!("{}#activity-{}", page_dir(g, doc), i + 1),
            remaining: remaining(start, end, now, false),
        })
        .collect();
    Ok(IndexGame {
        id: g.id.clone(),
        name: g.name.get(&doc.locale, &g.default_locale).to_owned(),
        version: doc.document.version.clone(),
        version_name: doc.document.version_name.clone(),
        window: window_view(g, doc, now, &EN, false)?,
        page_href: page_dir(g, doc),
        feeds,
        soonest,
    })
}

fn game_page(
    game: &GameOutput,
    doc: &LocaleDocument,
    now: NaiveDateTime,
) -> anyhow::Result<GamePage> {
    let g = &game.game;
    let ui = ui_for(&doc.locale);
    let zh = is_zh(&doc.locale);
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
        let view = activity_view(g, doc, activity, *times, i, now, (start, end), ui, zh)?;
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
        game_name: g.name.get(&doc.locale, &g.default_locale).to_owned(),
        version: doc.document.version.clone(),
        version_name: doc.document.version_name.clone(),
        cover: doc.document.cover.clone().filter(|c| !c.is_empty()),
        window: window_view(g, doc, now, ui, zh)?,
        json_href: format!("{root}{}", api_file(g, doc, "json")),
        ics_href: format!("{root}{}", api_file(g, doc, "ics")),
        alternates,
        ticks,
        now_left: (start..=end).contains(&now).then(|| pct(share(now))),
        as_of: display_time(now),
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
    zh: bool,
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
        name: activity.name.clone(),
        kind: activity.kind.clone().filter(|k| !k.is_empty()),
        description: activity.description.clone(),
        start: time_view(game, a_start),
        end: time_view(game, a_end),
        status,
        status_label,
        remaining: remaining(a_start, a_end, now, zh),
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
    zh: bool,
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
        remaining: remaining(start, end, now, zh),
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

/// "12 days left", "starts in 3 days", "ended", in the page's language.
fn remaining(start: NaiveDateTime, end: NaiveDateTime, now: NaiveDateTime, zh: bool) -> String {
    // Whole days, rounded down: the one rule of `model::days`.
    if now < start {
        let n = whole_days(now, start);
        match (zh, n) {
            (true, 0) => "1 天内开始".to_owned(),
            (true, _) => format!("{n} 天后开始"),
            (false, 0) => "starts within a day".to_owned(),
            (false, _) => format!("starts in {}", days_en(n)),
        }
    } else if now > end {
        if zh { "已结束" } else { "ended" }.to_owned()
    } else {
        let n = whole_days(now, end);
        match (zh, n) {
            (true, 0) => "剩余不到 1 天".to_owned(),
            (true, _) => format!("剩余 {n} 天"),
            (false, _) => format!("{} left", days_en(n)),
        }
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
