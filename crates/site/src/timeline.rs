//! The timeline page: every game's activities as bars on one time axis
//! (`timeline/` beside each home page, [`layout::timeline_dir`]), grouped
//! by game, each group behind its version's span, each bar a link to the
//! activity on its game's page, and under each group a table of the same
//! facts for screen readers and print.
//!
//! Like every page it is a function of the data alone. A bar carries the
//! hours since the epoch of its start and end (`--s`, `--e`), the chart
//! those of its axis (`--t0`, `--t1`), and the style sheet places each bar
//! from them: a game's group is rendered with the game, before the build
//! knows the other games and so the axis (as the home page's cards are,
//! [`pages::home_card`]); the rules that do it are the page's own style
//! sheet ([`pages::TIMELINE_STYLE`]). The page's script (the one of the other pages)
//! draws what depends on "now": the now line, the state and the days left
//! of each bar and row, the out-of-date notices, and each time in the
//! reader's zone beside the game's.

use chrono::{DateTime, Duration, NaiveDateTime, TimeZone as _, Utc};
use serde::Serialize;
use sha2::Digest as _;

use super::pages::{
    self, Alternate, CardSource, HomeGame, HomePage, StaleView, Tick, TimeView, Ui, WindowView,
};
use super::types::GameOutput;
use crate::i18n::{Lang, msg};
use crate::layout::{self, Naming};
use crate::model::{Game, most_shared};

/// The words of the timeline page in one language (the words every page
/// shares come from [`Ui`]).
#[derive(Debug, Serialize)]
struct Words {
    title: String,
    description: String,
    chart: String,
    pick: String,
    every_game: String,
    activity: String,
    starts: String,
    ends: String,
    state: String,
}

impl Words {
    fn of(locale: &str) -> Words {
        let lang = lang_of(locale);
        let word = |id: &'static str| crate::i18n::Msg::new(id).render(lang);
        Words {
            title: word("page-timeline-title"),
            description: word("page-timeline-description"),
            chart: word("page-timeline-chart"),
            pick: word("page-timeline-pick"),
            every_game: word("page-timeline-every-game"),
            activity: word("page-timeline-activity"),
            starts: word("page-timeline-starts"),
            ends: word("page-timeline-ends"),
            state: word("page-timeline-state"),
        }
    }
}

/// The language of the pages of `locale` (as [`pages::ui_for`] picks it).
fn lang_of(locale: &str) -> Lang {
    if crate::model::is_chinese(locale) {
        Lang::ZhCn
    } else {
        Lang::EnUs
    }
}

/// The path from the timeline page of `locale` to the site's root.
fn root_of(locale: &str, naming: Naming) -> String {
    "../".repeat(layout::timeline_dir(locale, naming).matches('/').count())
}

/// Hours since the epoch of a local time of `game`, to four decimals: what
/// the style sheet places a bar by. The same on every machine.
fn hours(game: &Game, t: NaiveDateTime) -> String {
    let at = crate::model::time::instant_of(t, game.tz()).timestamp();
    hours_of(at)
}

fn hours_of(seconds: i64) -> String {
    format!("{:.4}", seconds as f64 / 3600.0)
}

/// One game's group on the timeline page of `locale` (`timeline_group.html`):
/// its version's span, a bar per activity the home page lists (those that
/// end inside or after the version, by their start) and the table of the
/// same. A build renders it with the game, as it renders the game's cards.
pub fn group(home: &HomeGame, locale: &str, site_locale: &str) -> anyhow::Result<String> {
    let root = root_of(locale, Naming::of(locale, site_locale));
    let (at, doc) = pages::document_in(&home.game, locale)?;
    let g = &home.game.game;
    let ui = pages::ui_for(locale);
    let lang = lang_of(locale);
    let page = format!("{root}{}", pages::page_dir(g, doc));
    let mut listed: Vec<_> = home.activities.get(at).into_iter().flatten().collect();
    listed.sort_by_key(|a| (a.start, a.end, a.index));
    let rows = listed
        .into_iter()
        .map(|a| Row {
            name: a.name.clone(),
            href: format!("{page}#activity-{}", a.index + 1),
            start: pages::time_view(g, a.start),
            end: pages::time_view(g, a.end),
            s: hours(g, a.start),
            e: hours(g, a.end),
        })
        .collect();
    let (start, end) = pages::window_of(doc);
    let name = g.name.get(locale, &g.default_locale).to_owned();
    let window = pages::window_view(g, doc);
    let caption = msg!(
        "page-timeline-caption",
        game = name.as_str(),
        version = doc.document.version.as_str(),
        zone = window.zone.as_str()
    )
    .render(lang);
    let view = GroupView {
        g: GroupGame {
            id: g.id.clone(),
            name,
            page_href: page,
            version: doc.document.version.clone(),
            version_name: doc.document.version_name.clone(),
            window,
            s: hours(g, start),
            e: hours(g, end),
            stale: home
                .freshness
                .get(at)
                .map(|&fresh| pages::stale_view(g, doc, fresh, ui)),
            caption,
            rows,
        },
        ui,
        words: Words::of(locale),
    };
    let path = layout::timeline_page(locale, Naming::of(locale, site_locale));
    pages::render_text(pages::environment()?, "timeline_group.html", &path, &view)
}

/// The timeline pages, one per home page's locale ([`pages::home_locales`]),
/// each handed to `done` to be written before the next is made. `games`
/// are the games without their activities (the axis spans their versions
/// in each locale), `group(game, locale)` each game's group ([`group`]).
pub fn each_timeline_page(
    games: &[GameOutput],
    group: CardSource,
    mut done: impl FnMut(HomePage) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let pages::Listing {
        site_locale,
        zone,
        zone_iso,
        locales,
    } = pages::Listing::of(games);
    let parts = pages::page_parts(games.len());
    for locale in &locales {
        let naming = Naming::of(locale, &site_locale);
        let root = root_of(locale, naming);
        let ui = pages::ui_for(locale);
        let alternates: Vec<Alternate> = locales
            .iter()
            .map(|other| Alternate {
                locale: other.clone(),
                language: pages::language_name(other),
                href: format!(
                    "{root}{}",
                    layout::timeline_dir(other, Naming::of(other, &site_locale))
                ),
                current: other == locale,
            })
            .collect();
        let axis = axis(games, locale)?;
        // The list of games is the same on every page of the list (each
        // game names the page it is on): made once, its digest in each
        // page's key.
        let picks: Vec<Pick> = parts
            .iter()
            .enumerate()
            .flat_map(|(part, range)| range.clone().map(move |position| (part, position)))
            .filter_map(|(part, position)| {
                let g = games.get(position)?;
                Some(Pick {
                    id: g.game.id.clone(),
                    name: g.game.name.get(locale, &g.game.default_locale).to_owned(),
                    part,
                    page: layout::listing_href(part),
                })
            })
            .collect();
        let picks_digest = hex::encode(sha2::Sha256::digest(serde_json::to_vec(&picks)?));
        let picks = minijinja::Value::from(minijinja::value::Serde(&picks));
        let mut view = PageView {
            lang: locale.clone(),
            ui,
            words: Words::of(locale),
            home_href: format!("{root}{}", layout::home_dir(locale, naming)),
            alternates,
            zone: zone.clone(),
            zone_iso: zone_iso.clone(),
            noscript: msg!("page-timeline-noscript").render(lang_of(locale)),
            live: pages::live(ui),
            // The style and the script, the same on every page and the
            // binary's own (in the key's salt), are left out of the key
            // and put in after it; the list of games by its digest.
            style: minijinja::Value::from(()),
            axis,
            picks: minijinja::Value::from(()),
        };
        let in_key = view.live.in_key();
        let page_live = std::mem::replace(&mut view.live, in_key);
        let mut keyed = serde_json::to_vec(&view)?;
        keyed.extend_from_slice(picks_digest.as_bytes());
        view.live = page_live;
        view.style = minijinja::Value::from_safe_string(pages::TIMELINE_STYLE.to_owned());
        view.picks = picks;
        let frame = std::sync::Arc::new(pages::Frame::new(
            minijinja::Value::from(minijinja::value::Serde(&view)),
            &keyed,
            parts.len(),
            lang_of(locale),
        ));
        for (part, range) in parts.iter().enumerate() {
            let (list, groups) = pages::listed(range.clone(), locale, group.clone());
            done(HomePage::new(
                layout::listing_page(&layout::timeline_page(locale, naming), part),
                "timeline.html",
                std::sync::Arc::clone(&frame),
                minijinja::context! { part, here => layout::listing_href(part), groups => list },
                part,
                groups,
                range.clone(),
            ))?;
        }
    }
    Ok(())
}

/// The axis of the timeline page of `locale`: from the earliest start of
/// the games' versions (each game's document in `locale`, else its
/// default one) to the latest end, with a date mark at each midnight of
/// the zone most games share (none in the last twentieth), every one, two, seven, fourteen or thirty
/// days as the span allows (ten marks at most, about).
fn axis(games: &[GameOutput], locale: &str) -> anyhow::Result<AxisView> {
    let mut span: Option<(DateTime<Utc>, DateTime<Utc>)> = None;
    for game in games {
        let (_, doc) = pages::document_in(game, locale)?;
        let (start, end) = pages::window_of(doc);
        let tz = game.game.tz();
        let start = crate::model::time::instant_of(start, tz).with_timezone(&Utc);
        let end = crate::model::time::instant_of(end, tz).with_timezone(&Utc);
        span = Some(match span {
            Some((from, to)) => (from.min(start), to.max(end)),
            None => (start, end),
        });
    }
    let (from, to) = span.unwrap_or_default();
    let to = to.max(from + Duration::hours(1));
    let zone: chrono_tz::Tz = most_shared(games.iter().map(|g| g.game.time_zone_name()))
        .and_then(|name| name.parse().ok())
        .unwrap_or(chrono_tz::UTC);
    let length = (to - from).num_seconds() as f64;
    let days = (to - from).num_days();
    let step = [1, 2, 7, 14, 30]
        .into_iter()
        .find(|step| days / step <= 10)
        .unwrap_or(30);
    let mut ticks = Vec::new();
    let first = from.with_timezone(&zone).date_naive() + Duration::days(1);
    let mut day = first;
    while let Some(midnight) = day.and_hms_opt(0, 0, 0) {
        let at = crate::model::time::instant_of(midnight, zone).with_timezone(&Utc);
        if at >= to {
            break;
        }
        let share = (at - from).num_seconds() as f64 / length * 100.0;
        // A label begins at its mark: none so near the end that it would
        // leave the axis.
        if share > 95.0 {
            break;
        }
        ticks.push(Tick {
            left: pages::pct(share),
            label: day.format("%m-%d").to_string(),
        });
        day += Duration::days(step);
    }
    let iso = |t: DateTime<Utc>| {
        zone.from_utc_datetime(&t.naive_utc())
            .format("%Y-%m-%dT%H:%M:%S%:z")
            .to_string()
    };
    Ok(AxisView {
        start: iso(from),
        end: iso(to),
        t0: hours_of(from.timestamp()),
        t1: hours_of(to.timestamp()),
        ticks,
    })
}

/// The view of `timeline.html` that every page of a locale shares (its
/// [`pages::Frame`]); each page adds its own `part` (from 0), `here` (the
/// link to itself), `groups` (its games' groups, [`group`]) and `pager`.
#[derive(Debug, Serialize)]
struct PageView {
    lang: String,
    ui: &'static Ui,
    words: Words,
    /// The home page of this language, relative to this page.
    home_href: String,
    /// The timeline pages of every locale, this one included.
    alternates: Vec<Alternate>,
    /// The zone most games share, as a label, and a time in it.
    zone: String,
    zone_iso: String,
    /// What the page says in place of the states without its script.
    noscript: String,
    live: pages::Live,
    /// The page's own style sheet ([`pages::TIMELINE_STYLE`]).
    style: minijinja::Value,
    axis: AxisView,
    /// The games, for the links that show one alone ([`Pick`]).
    picks: minijinja::Value,
}

/// The shared axis: its ends as `datetime`s (what the script places the
/// now line by) and as hours since the epoch (what the style sheet places
/// the bars by), and its date marks.
#[derive(Debug, Clone, Serialize)]
struct AxisView {
    start: String,
    end: String,
    t0: String,
    t1: String,
    ticks: Vec<Tick>,
}

/// A game to show alone: `#<id>`.
#[derive(Debug, Serialize)]
struct Pick {
    id: String,
    name: String,
    /// The page of the list it is on (from 0), and the link to it from
    /// another page of the list.
    part: usize,
    page: String,
}

/// The view of `timeline_group.html`.
#[derive(Debug, Serialize)]
struct GroupView {
    g: GroupGame,
    ui: &'static Ui,
    words: Words,
}

#[derive(Debug, Serialize)]
struct GroupGame {
    id: String,
    name: String,
    page_href: String,
    version: String,
    version_name: String,
    window: WindowView,
    /// The version's span in hours since the epoch.
    s: String,
    e: String,
    /// The out-of-date notice, shown by the script once the data is due.
    stale: Option<StaleView>,
    /// The table's caption: the game, its version and its zone.
    caption: String,
    rows: Vec<Row>,
}

/// One activity: its bar and its row of the table.
#[derive(Debug, Serialize)]
struct Row {
    name: String,
    href: String,
    start: TimeView,
    end: TimeView,
    s: String,
    e: String,
}
