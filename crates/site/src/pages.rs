//! The HTML pages of the site: `index.html`, one page per game and locale, and
//! `404.html`.
//!
//! Templates are minijinja files compiled into the binary (`templates/`). This
//! module turns validated documents into small serializable views (positions,
//! labels and links already computed) and lets the templates only lay them out.
//! Every link is relative, so the site works under a sub-path such as a GitHub
//! Pages project site.
//!
//! A page is a function of the data and the tool alone: no clock is read
//! here. Everything that depends on "now" (each state, the days left, the
//! progress, the now line, the order of what is on, the "ending soonest"
//! lists, the out-of-date notice) is drawn by the page's script from the
//! reader's clock. Without the script a page lists every time with its zone
//! and says what a reader should do, never a state that would silently
//! expire. Pages know nothing about files on disk, HTTP or how the site is
//! published.

use chrono::{Datelike, Duration, NaiveDateTime};
use minijinja::Environment;
use minijinja::value::{Serde, Value};
use serde::Serialize;

use super::types::{GameOutput, HomeLink, LocaleDocument, OutputFile};
use crate::i18n::{Lang, Msg, msg};
use crate::kind;
use crate::layout::{self, Naming, SiteUrl};
use crate::model::freshness::{self, Freshness};
use crate::model::{Activity, Game, UpdateMode, most_shared};

/// Renders the home pages (`index.html` in the site's locale,
/// `<locale>/index.html` for every other), `<game>/index.html` (default
/// locale), `<game>/<locale>/index.html` (the other locales) and `404.html`.
pub fn render_pages(games: &[GameOutput]) -> anyhow::Result<Vec<OutputFile>> {
    let homes: Vec<HomeGame> = games.iter().map(HomeGame::of).collect();
    let site_locale = site_locale_of(games.iter().map(|g| &g.game));
    let mut files = render_home_pages(&homes, &[])?;
    for game in games {
        for doc in &game.documents {
            files.push(render_page(game, doc, &site_locale, None)?);
        }
    }
    files.push(render_not_found(&site_locale)?);
    Ok(files)
}

/// What the home pages need of one game: its registry entry and documents
/// without their activities, and of each document (in order) the
/// activities that end inside or after its version, which the "ending
/// soonest" lists pick from in the reader's browser, and when the document
/// stops being current ([`freshness`]). A build renders a game's cards
/// from it ([`home_card`]) when it renders the game, then drops it.
#[derive(Debug, Clone)]
pub struct HomeGame {
    /// The game, its documents' activities dropped.
    pub game: GameOutput,
    /// Per document of `game.documents`: its activities that end at or
    /// after the version's start.
    pub activities: Vec<Vec<HomeActivity>>,
    /// Per document of `game.documents`: when its data is due for an update.
    pub freshness: Vec<Freshness>,
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
    /// The part of `game` the home pages show.
    pub fn of(game: &GameOutput) -> HomeGame {
        let activities = game
            .documents
            .iter()
            .map(|doc| {
                let from = doc.document.start_time;
                doc.document
                    .activities
                    .iter()
                    .enumerate()
                    // Over before the version began: never on while the
                    // version is current, so never among the soonest.
                    .filter(|(_, activity)| from <= activity.end_time)
                    .map(|(index, activity)| HomeActivity {
                        index,
                        name: activity.name.clone(),
                        start: activity.start_time.naive(),
                        end: activity.end_time.naive(),
                    })
                    .collect()
            })
            .collect();
        let freshness = game
            .documents
            .iter()
            .map(|doc| freshness::of(&game.game, &doc.document))
            .collect();
        let mut game = game.clone();
        for doc in &mut game.documents {
            doc.document.activities = Vec::new();
        }
        HomeGame {
            game,
            activities,
            freshness,
        }
    }
}

/// The site's locale of these games ([`crate::model::site_locale`]).
pub fn site_locale_of<'a>(games: impl IntoIterator<Item = &'a Game>) -> String {
    crate::model::site_locale(games)
        .unwrap_or("en-US")
        .to_owned()
}

/// The locales with a home page: the site's first, then every other
/// locale a game has a document in (`locales`: each game's, in the
/// registry's order), in the order they first appear.
pub fn home_locales<'a>(
    locales: impl IntoIterator<Item = &'a str>,
    site_locale: &str,
) -> Vec<String> {
    let mut all = vec![site_locale.to_owned()];
    for locale in locales {
        if !all.iter().any(|l| l == locale) {
            all.push(locale.to_owned());
        }
    }
    all
}

/// One game's card on the home page of `locale`: its version window, the
/// activities ending soonest and its links (`home_card.html`). A build
/// renders a game's cards when it renders the game, and a home page lists
/// them ([`each_home_page`]).
pub fn home_card(
    home: &HomeGame,
    locale: &str,
    site_locale: &str,
    site: Option<&SiteUrl>,
) -> anyhow::Result<String> {
    let root = if locale == site_locale { "" } else { "../" };
    let ui = ui_for(locale);
    let card = CardView {
        game: index_game(home, locale, root, site)?,
        ui,
    };
    let path = layout::home_page(locale, Naming::of(locale, site_locale));
    render_text(environment()?, "home_card.html", &path, &card)
}

/// Where a home page's cards come from: `(position of the game, locale)`
/// to the card ([`home_card`]).
pub type CardSource = std::sync::Arc<dyn Fn(usize, &str) -> anyhow::Result<String> + Send + Sync>;

/// The home pages: one per locale ([`home_locales`]), each listing every
/// game in that locale (a game without a document in it shows its default
/// one) in the registry's order, led by what ends soonest across games
/// (drawn by the script). The zone named at the top is the one most games
/// share (the first game's on a tie).
///
/// `links` are the links the kinds give ([`HomeLink`]): each home page
/// links to one page of each kind ([`home_links`]).
pub fn render_home_pages(
    games: &[HomeGame],
    links: &[HomeLink],
) -> anyhow::Result<Vec<OutputFile>> {
    let entries: Vec<GameOutput> = games.iter().map(|g| g.game.clone()).collect();
    let site_locale = site_locale_of(entries.iter().map(|g| &g.game));
    let homes = std::sync::Arc::new(games.to_vec());
    let card: CardSource = std::sync::Arc::new(move |game: usize, locale: &str| {
        let home = homes
            .get(game)
            .ok_or_else(|| anyhow::anyhow!("no game at {game}"))?;
        home_card(home, locale, &site_locale, None)
    });
    let mut pages = Vec::new();
    each_home_page(&entries, links, card, |page| {
        let mut bytes = Vec::new();
        page.write_to(&mut bytes)?;
        pages.push(OutputFile {
            path: page.path,
            bytes,
        });
        Ok(())
    })?;
    Ok(pages)
}

/// One home page (or timeline page), ready to be written: its path in the
/// site, and its text written to any writer ([`HomePage::write_to`]). A
/// build streams it into its file: it lists every game's activities, tens
/// of megabytes on a large site, which a build does not hold in memory.
///
/// What a page shows is its listing's [`Frame`] (the same on every page of
/// a locale), what it alone shows (`own`: its list of games, and on a
/// timeline page its number), and its pager; the view is put together
/// only when the page is written, so a build that keys every page and
/// writes a few makes the few views only.
pub struct HomePage {
    pub path: String,
    /// The template it is rendered with.
    template: &'static str,
    frame: std::sync::Arc<Frame>,
    own: Value,
    /// Which page of its listing it is (from 0).
    part: usize,
    cards: std::sync::Arc<Cards>,
    /// The positions in the registry of the games it lists.
    pub games: std::ops::Range<usize>,
}

/// What every page of one listing in one locale shows besides its games
/// and its place in the list: the view they share, made once, and the
/// digest a build keys each page by ([`Frame::digest`]).
pub(super) struct Frame {
    view: Value,
    digest: [u8; 32],
    /// How many pages the listing has, and their language (the pager's).
    pages: usize,
    lang: Lang,
}

impl Frame {
    /// The frame of the `pages` pages of a listing in `lang` that share
    /// `view`, keyed by `keyed`: what the view shows as the key sees it
    /// (without what is the binary's own, such as the script).
    pub(super) fn new(view: Value, keyed: &[u8], pages: usize, lang: Lang) -> Frame {
        Frame {
            view,
            digest: super::digest::digest_of([keyed, &(pages as u64).to_le_bytes()]),
            pages,
            lang,
        }
    }
}

impl HomePage {
    /// Page `part` of a listing at `path`, rendered with `template` from
    /// `frame`, `own` (what this page alone shows: its list of games,
    /// [`listed`], under the name its template reads) and its pager; it
    /// lists the games at `games`, whose parts `cards` fetches.
    pub(super) fn new(
        path: String,
        template: &'static str,
        frame: std::sync::Arc<Frame>,
        own: Value,
        part: usize,
        cards: std::sync::Arc<Cards>,
        games: std::ops::Range<usize>,
    ) -> HomePage {
        HomePage {
            path,
            template,
            frame,
            own,
            part,
            cards,
            games,
        }
    }

    /// What the page shows besides its games' parts, as a digest: its
    /// listing's frame (the path, in a build's key, says which page of it
    /// this is, and so what its pager shows).
    pub fn frame(&self) -> &[u8; 32] {
        &self.frame.digest
    }

    /// Writes the page's text to `out`.
    pub fn write_to(&self, out: impl std::io::Write) -> anyhow::Result<()> {
        let pager = PagerView::of(self.frame.pages, self.part, self.frame.lang);
        let view = minijinja::value::merge_maps([
            minijinja::context! { pager => Value::from(Serde(&pager)) },
            self.own.clone(),
            self.frame.view.clone(),
        ]);
        let rendered = environment()?
            .get_template(self.template)?
            .render_captured_to(&view, out)
            .map(drop)
            .map_err(|err| anyhow::anyhow!("rendering {}: {err:#}", self.path));
        // A card that could not be had says why, rather than the template.
        if let Some(err) = self
            .cards
            .failed
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
        {
            return Err(err);
        }
        rendered
    }
}

/// [`render_home_pages`] from each game's registry entry and documents,
/// their activities dropped (`games`: the zone named at the top is read
/// from them), and its cards (`card(game, locale)`: [`home_card`] of the game at that
/// position, rendered when the build rendered the game), each page handed
/// to `done` ([`HomePage`]) to be written before the next is made: a page
/// lists every game's activities (megabytes on a large site), so a build
/// writes one away, as it is rendered, before it makes the next.
pub fn each_home_page(
    games: &[GameOutput],
    links: &[HomeLink],
    card: CardSource,
    mut done: impl FnMut(HomePage) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let Listing {
        site_locale,
        zone,
        zone_iso,
        locales,
    } = Listing::of(games);
    let parts = page_parts(games.len());
    for locale in &locales {
        let naming = Naming::of(locale, &site_locale);
        let root = if naming == Naming::Plain { "" } else { "../" };
        let ui = ui_for(locale);
        let mut index = IndexView {
            links: home_links(links, locale, root, ui),
            lang: locale.clone(),
            ui,
            root: root.to_owned(),
            zone: zone.clone(),
            zone_iso: zone_iso.clone(),
            noscript: msg!("page-noscript-home").render(ui.lang),
            alternates: home_alternates(&locales, locale, &site_locale, root),
            live: live(ui),
            timeline_href: format!("{}/", layout::TIMELINE_DIR),
            reference_href: format!("{}/", layout::REFERENCE_PAGE_DIR),
        };
        // The key leaves out the script, the same on every page.
        let in_key = index.live.in_key();
        let page_live = std::mem::replace(&mut index.live, in_key);
        let keyed = serde_json::to_vec(&index)?;
        index.live = page_live;
        let frame = std::sync::Arc::new(Frame::new(
            Value::from(Serde(&index)),
            &keyed,
            parts.len(),
            ui.lang,
        ));
        for (part, range) in parts.iter().enumerate() {
            let (list, cards) = listed(range.clone(), locale, card.clone());
            let path = layout::listing_page(&layout::home_page(locale, naming), part);
            done(HomePage::new(
                path,
                "index.html",
                std::sync::Arc::clone(&frame),
                minijinja::context! { cards => list },
                part,
                cards,
                range.clone(),
            ))?;
        }
    }
    Ok(())
}

/// How many games a page that lists every game (a home page, a timeline
/// page) holds at most: a larger site's list is cut into pages of this
/// many games, in the registry's order ([`layout::listing_page`]). One
/// page of a thousand games was tens of megabytes, which no reader
/// scrolls and which every edit of one game wrote again.
pub const GAMES_PER_PAGE: usize = 20;

/// The games of each page of a listing of `games` games ([`GAMES_PER_PAGE`]):
/// one page, which may be empty, when they fit in one.
pub(super) fn page_parts(games: usize) -> Vec<std::ops::Range<usize>> {
    if games <= GAMES_PER_PAGE {
        return std::iter::once(0..games).collect();
    }
    (0..games)
        .step_by(GAMES_PER_PAGE)
        .map(|start| start..games.min(start + GAMES_PER_PAGE))
        .collect()
}

/// The links between the pages of a listing cut into `pages` pages, on
/// page `part` (from 0); `None` when it is one page.
#[derive(Debug, Serialize)]
pub(super) struct PagerView {
    label: String,
    pages: Vec<PagerLink>,
}

/// One page of a listing, as its pager links to it.
#[derive(Debug, Serialize)]
struct PagerLink {
    /// From 1.
    number: usize,
    /// Relative to a page of the same listing (they share a folder).
    href: String,
    current: bool,
}

impl PagerView {
    pub(super) fn of(pages: usize, part: usize, lang: Lang) -> Option<PagerView> {
        (pages > 1).then(|| PagerView {
            label: msg!("page-listing-pages").render(lang),
            pages: (0..pages)
                .map(|other| PagerLink {
                    number: other + 1,
                    href: layout::listing_href(other),
                    current: other == part,
                })
                .collect(),
        })
    }
}

/// The games' parts of one page in `locale`, for its template to list
/// one by one (`card(game, locale)` for each game of `games`, by its
/// position in the registry, fetched when the template reaches it): the
/// list, and what [`HomePage`] reads a failure from.
pub(super) fn listed(
    games: std::ops::Range<usize>,
    locale: &str,
    card: CardSource,
) -> (Value, std::sync::Arc<Cards>) {
    let cards = std::sync::Arc::new(Cards {
        games,
        locale: locale.to_owned(),
        card,
        failed: std::sync::Mutex::new(None),
    });
    (Value::from_dyn_object(cards.clone()), cards)
}

/// What every page that lists all the games (a home page, a timeline
/// page) reads of them first: the site's locale, the zone its times are
/// shown in ([`shown_zone`]: the label and its IANA name) and the locales
/// it has a page in ([`home_locales`]).
pub(super) struct Listing {
    pub site_locale: String,
    pub zone: String,
    pub zone_iso: String,
    pub locales: Vec<String>,
}

impl Listing {
    pub(super) fn of(games: &[GameOutput]) -> Listing {
        let site_locale = site_locale_of(games.iter().map(|g| &g.game));
        let (zone, zone_iso) = shown_zone(games);
        let locales = home_locales(
            games
                .iter()
                .flat_map(|g| g.game.locales.iter().map(String::as_str)),
            &site_locale,
        );
        Listing {
            site_locale,
            zone,
            zone_iso,
            locales,
        }
    }
}

/// The zone a home page names: the one most games share, as a label of
/// the first such game's first version start (`Asia/Shanghai, UTC+08:00`),
/// and that start as a `datetime` (whose offset the script reads "now" in).
pub(super) fn shown_zone(games: &[GameOutput]) -> (String, String) {
    let shown = most_shared(games.iter().map(|g| g.game.time_zone_name()))
        .and_then(|zone| games.iter().find(|g| g.game.time_zone_name() == zone));
    shown
        .and_then(|g| {
            let game = &g.game;
            let start = g.documents.first()?.document.start_time.naive();
            Some((zone_label(game, start), time_view(game, start).iso))
        })
        .unwrap_or_else(|| ("UTC".to_owned(), "1970-01-01T00:00:00+00:00".to_owned()))
}

/// The language links of the home page of `locale`.
fn home_alternates(
    locales: &[String],
    locale: &str,
    site_locale: &str,
    root: &str,
) -> Vec<Alternate> {
    locales
        .iter()
        .map(|other| Alternate {
            locale: other.clone(),
            language: language_name(other),
            href: format!(
                "{root}{}",
                layout::home_dir(other, Naming::of(other, site_locale))
            ),
            current: other == locale,
        })
        .collect()
}

/// A home page's links, one per kind (the links that say the same, in
/// the order the kinds give them): the page of its locale, else the
/// site's default one; each labelled as its kind says, in the page's
/// language.
fn home_links(links: &[HomeLink], locale: &str, root: &str, ui: &Ui) -> Vec<HomeLink> {
    let mut kinds: Vec<&str> = Vec::new();
    for link in links {
        if !kinds.contains(&link.says) {
            kinds.push(link.says);
        }
    }
    kinds
        .into_iter()
        .filter_map(|says| {
            let of_kind: Vec<&HomeLink> = links.iter().filter(|l| l.says == says).collect();
            let found = of_kind.iter().find(|l| l.locale == locale);
            found
                .or_else(|| of_kind.iter().find(|l| l.is_default))
                .or(of_kind.first())
                .copied()
        })
        .map(|l| HomeLink {
            href: format!("{root}{}", l.href),
            feed_href: format!("{root}{}", l.feed_href),
            label: Msg::new(l.says).render(ui.lang),
            ..l.clone()
        })
        .collect()
}

/// The page of one document. Of the game's other documents it shows only
/// their locales, which the registry entry gives: a page depends on the
/// entry, this document and the site's locale (its "all games" link).
pub fn render_page(
    game: &GameOutput,
    doc: &LocaleDocument,
    site_locale: &str,
    site: Option<&SiteUrl>,
) -> anyhow::Result<OutputFile> {
    let page = game_page(game, doc, site_locale, site)?;
    let path = format!("{}{}", page_dir(&game.game, doc), layout::DIRECTORY_INDEX);
    render(environment()?, "game.html", &path, &page)
}

/// `404.html`: in the site's language first (`site_locale`, the
/// `defaultLocale` most games share: `lang` of the page), then in the
/// other language the pages speak.
pub fn render_not_found(site_locale: &str) -> anyhow::Result<OutputFile> {
    let chinese = crate::model::is_chinese(site_locale);
    let (lang, other_lang) = if chinese {
        ("zh-CN", "en")
    } else {
        ("en", "zh-CN")
    };
    let ui = ui_for(lang);
    let not_found = NotFoundView {
        lang,
        ui,
        other_lang,
        other: ui_for(other_lang),
        live: Live {
            script: None,
            ..live(ui)
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
pub const RENDERER_VERSION: &str = "6";

/// A fingerprint of the templates and [`RENDERER_VERSION`].
pub fn fingerprint() -> String {
    let mut digest = super::digest::Parts::default();
    digest.put(RENDERER_VERSION.as_bytes());
    for (name, source) in templates() {
        digest.put(name.as_bytes()).put(source.as_bytes());
    }
    hex::encode(digest.finish())
}

/// The templates of every page but a kind's own, compiled into the
/// binary ([`templates`] adds the kinds'). The style sheet and the script
/// are not templates: pages carry them verbatim ([`STYLE`], [`SCRIPT`]).
const TEMPLATES: [(&str, &str); 16] = [
    ("base.html", include_str!("templates/base.html")),
    ("languages.html", include_str!("templates/languages.html")),
    ("pager.html", include_str!("templates/pager.html")),
    ("activity.html", include_str!("templates/activity.html")),
    ("index.html", include_str!("templates/index.html")),
    ("home_card.html", include_str!("templates/home_card.html")),
    ("game.html", include_str!("templates/game.html")),
    ("404.html", include_str!("templates/404.html")),
    ("timeline.html", include_str!("templates/timeline.html")),
    (
        "timeline_group.html",
        include_str!("templates/timeline_group.html"),
    ),
    ("reference.html", include_str!("templates/reference.html")),
    (
        "reference_paths.html",
        include_str!("templates/reference_paths.html"),
    ),
    (
        "reference_games.html",
        include_str!("templates/reference_games.html"),
    ),
    ("style.css", STYLE),
    ("timeline.css", TIMELINE_STYLE),
    ("live.js", SCRIPT),
];

/// Every template: [`TEMPLATES`], then the template of each kind with
/// pages of its own ([`kind::Pages`]).
fn templates() -> impl Iterator<Item = (&'static str, &'static str)> {
    let kinds = kind::all()
        .iter()
        .filter_map(|k| k.pages())
        .map(|p| p.template);
    TEMPLATES.into_iter().chain(kinds)
}

/// The style sheet of every page, inline in a `<style>` element.
pub const STYLE: &str = include_str!("templates/style.css");

/// The style sheet of the timeline page alone, inline in a second
/// `<style>` element of that page (`site::timeline`).
pub const TIMELINE_STYLE: &str = include_str!("templates/timeline.css");

/// The script of the game, home and timeline pages, inline in a
/// `<script>` element: it draws what depends on "now" from the reader's clock (status badges,
/// days left, progress, the now line, the order of the activities, the
/// "ending soonest" lists, the out-of-date notice) and shows each time in
/// the reader's zone beside the server's when they differ. Without it a
/// page lists the times with their zone and says to compare them with
/// the reader's clock.
pub const SCRIPT: &str = include_str!("templates/live.js");

/// What base.html puts in `<script>`, byte for byte, and the page's
/// strings for the script (JSON in a data block, which runs nothing). A
/// view without a `live` field (or with no script) gets no script; every
/// page gets the style sheet, a global of the environment (`site_style`).
#[derive(Debug, Clone, Serialize)]
pub struct Live {
    script: Option<&'static str>,
    ui_json: String,
}

/// The words the page script reads (`ui.<name>` in `live.js`): only
/// these go into each page's data block.
impl Live {
    /// The same without the script, for a page's key: the script is the
    /// binary's own (a template, in [`fingerprint`] and so in every key's
    /// salt), the same bytes on every page, and serializing it again for
    /// each page's key cost more than the rest of the key.
    pub(super) fn in_key(&self) -> Live {
        Live {
            script: None,
            ui_json: self.ui_json.clone(),
        }
    }
}

const SCRIPT_WORDS: [&str; 15] = [
    "upcoming",
    "ongoing",
    "ended",
    "starts_within_day",
    "starts_in_one",
    "starts_in_many",
    "left_under_day",
    "left_one",
    "left_many",
    "ended_text",
    "your_time",
    "your_zone",
    "colon",
    "stop",
    "space",
];

/// The script and the words it reads.
pub(super) fn live(ui: &Ui) -> Live {
    let words: std::collections::BTreeMap<&str, &str> = SCRIPT_WORDS
        .iter()
        .map(|&name| (name, ui.word(name)))
        .collect();
    // `<` escaped, so no string can close the element.
    let ui_json = serde_json::to_string(&words)
        .unwrap_or_default()
        .replace('<', "\\u003c");
    Live {
        script: Some(SCRIPT),
        ui_json,
    }
}

/// The style sheet of a page without the script (the announcements pages).
pub fn style_only(ui: &Ui) -> Live {
    Live {
        script: None,
        ..live(ui)
    }
}

/// The `Content-Security-Policy` of the site: nothing loads but the inline
/// style sheets (the site's and the timeline's) and script (by their hashes), the inline `style` attributes
/// that place the timeline bars, and images (covers may be on any HTTPS
/// host; the favicon is a `data:` URL). No connections, frames, forms,
/// fonts or plugins. `_headers` sends it with every file, and so does `serve`.
pub fn content_security_policy() -> String {
    format!(
        "default-src 'none'; img-src 'self' https: data:; style-src {} {}; style-src-attr 'unsafe-inline'; script-src {}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        csp_hash(STYLE),
        csp_hash(TIMELINE_STYLE),
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

/// The words of the pages in one language, by the name the templates and
/// the script read them under: each is a message of the `.ftl` files
/// ([`WORDS`]), like every other sentence of the tool. Only zh-CN and
/// English exist; every other locale gets English.
#[derive(Debug)]
pub struct Ui {
    lang: Lang,
    words: std::collections::BTreeMap<&'static str, String>,
}

/// The words, by name (what the templates and the script read).
impl Serialize for Ui {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.words.serialize(serializer)
    }
}

/// Template name to message id. `{n}` in the texts of days is left for
/// the script and the build to fill (a count of whole days, 2 or more).
const WORDS: [(&str, &str); 49] = [
    ("site_title", "page-site-title"),
    ("skip", "page-skip"),
    ("home", "page-home"),
    ("games", "page-games"),
    ("version", "page-version"),
    ("window", "page-window"),
    ("progress", "page-progress"),
    ("timeline", "page-timeline"),
    ("activities", "page-activities"),
    ("no_activities", "page-no-activities"),
    ("languages", "page-languages"),
    ("data", "page-data"),
    ("json", "page-json"),
    ("calendar", "page-calendar"),
    ("subscribe", "page-subscribe"),
    ("page", "page-page"),
    ("default_locale", "page-default-locale"),
    ("upcoming", "page-upcoming"),
    ("ongoing", "page-ongoing"),
    ("ended", "page-ended"),
    ("ending_soon", "page-ending-soon"),
    ("ending_soon_all", "page-ending-soon-all"),
    ("starts_before", "page-starts-before"),
    ("ends_after", "page-ends-after"),
    ("kind", "page-kind"),
    ("cover", "page-cover"),
    ("now", "page-now"),
    ("as_of", "page-as-of"),
    ("colon", "page-colon"),
    ("stop", "page-stop"),
    ("space", "page-space"),
    ("times_in", "page-times-in"),
    ("legend", "page-legend"),
    ("not_found_title", "page-not-found-title"),
    ("not_found_text", "page-not-found-text"),
    ("api_hint", "page-api-hint"),
    ("starts_within_day", "page-starts-within-day"),
    ("starts_in_one", "page-starts-in-one"),
    ("starts_in_many", "page-starts-in-many"),
    ("left_under_day", "page-left-under-day"),
    ("left_one", "page-left-one"),
    ("left_many", "page-left-many"),
    ("ended_text", "page-ended-text"),
    ("your_time", "page-your-time"),
    ("your_zone", "page-your-zone"),
    ("home_description", "page-home-description"),
    ("atom_feed", "page-atom-feed"),
    ("timeline_all", "page-timeline-title"),
    ("api_reference", "page-api-reference"),
];

impl Ui {
    fn of(lang: Lang) -> Ui {
        let kinds = kind::all().iter().filter_map(|k| k.pages());
        let words = WORDS
            .iter()
            .chain(kinds.flat_map(|p| p.words))
            .map(|&(name, id)| (name, Msg::new(id).arg("n", "{n}").render(lang)))
            .collect();
        Ui { lang, words }
    }

    /// The word the templates call `name` (empty for a name of no word).
    pub fn word(&self, name: &str) -> &str {
        self.words.get(name).map_or("", String::as_str)
    }
}

/// The page words for a page in `locale`: Chinese for a Chinese locale
/// ([`crate::model::is_chinese`]), English otherwise.
pub fn ui_for(locale: &str) -> &'static Ui {
    static EN: std::sync::LazyLock<Ui> = std::sync::LazyLock::new(|| Ui::of(Lang::EnUs));
    static ZH: std::sync::LazyLock<Ui> = std::sync::LazyLock::new(|| Ui::of(Lang::ZhCn));
    if crate::model::is_chinese(locale) {
        &ZH
    } else {
        &EN
    }
}

/// The view of `index.html` that every home page of a locale shares (its
/// [`Frame`]); each page adds its own `cards` ([`Cards`]) and `pager`.
#[derive(Debug, Serialize)]
struct IndexView {
    /// The links to a page and feed of each kind that has them.
    links: Vec<HomeLink>,
    lang: String,
    ui: &'static Ui,
    /// Relative path from this page to the site root (`""` or `../`).
    root: String,
    /// The zone most games share, as a label, and a time in it.
    zone: String,
    zone_iso: String,
    /// What the page says in place of the states without its script.
    noscript: String,
    /// The home pages of every locale, this one included.
    alternates: Vec<Alternate>,
    live: Live,
    /// The timeline page of this locale, relative to this page.
    timeline_href: String,
    /// The API's reference page of this page's language, relative to it.
    reference_href: String,
}

/// The view of `home_card.html`.
#[derive(Debug, Serialize)]
struct CardView {
    game: IndexGame,
    ui: &'static Ui,
}

/// The cards of one home page, which the template gets one by one: each
/// is fetched (from where the build keeps it) only when the template
/// reaches it, and dropped once it has moved on, so a page of a large
/// site (megabytes of cards) is in memory once, as the page itself.
pub(super) struct Cards {
    /// The positions in the registry of the games listed.
    games: std::ops::Range<usize>,
    locale: String,
    card: CardSource,
    /// The first card that could not be had.
    failed: std::sync::Mutex<Option<anyhow::Error>>,
}

impl std::fmt::Debug for Cards {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Cards({:?}, {})", self.games, self.locale)
    }
}

impl minijinja::value::Object for Cards {
    fn repr(self: &std::sync::Arc<Self>) -> minijinja::value::ObjectRepr {
        minijinja::value::ObjectRepr::Seq
    }

    fn get_value(self: &std::sync::Arc<Self>, key: &Value) -> Option<Value> {
        let game = key.as_usize().filter(|&game| game < self.games.len())? + self.games.start;
        match (self.card)(game, &self.locale) {
            Ok(card) => Some(Value::from_safe_string(card)),
            Err(err) => {
                self.failed
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .get_or_insert(err);
                None
            }
        }
    }

    fn enumerate(self: &std::sync::Arc<Self>) -> minijinja::value::Enumerator {
        minijinja::value::Enumerator::Seq(self.games.len())
    }
}

#[derive(Debug, Serialize)]
struct IndexGame {
    id: String,
    name: String,
    version: String,
    version_name: String,
    window: WindowView,
    /// The out-of-date notice, shown by the script once the data is due.
    stale: Option<StaleView>,
    page_href: String,
    feeds: Vec<Feed>,
    /// Every activity that ends inside or after the version, by its end;
    /// the script shows the three ongoing ones that end soonest.
    soonest: Vec<Soonest>,
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
}

/// The out-of-date notice of a document: its text and when it applies.
#[derive(Debug, Serialize)]
pub(super) struct StaleView {
    pub(super) due: TimeView,
    pub(super) text: String,
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
    /// The calendar as a `webcal://` subscription ([`webcal_href`]).
    webcal_href: String,
}

/// A version window: its ends and its zone.
#[derive(Debug, Serialize)]
pub(super) struct WindowView {
    pub(super) start: TimeView,
    pub(super) end: TimeView,
    pub(super) zone: String,
}

/// A time as shown (`2026-10-08 04:00`) and as machine-readable `datetime`.
#[derive(Debug, Serialize)]
pub(super) struct TimeView {
    pub(super) text: String,
    pub(super) iso: String,
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
    /// The timeline page of this page's language.
    timeline_href: String,
    game_name: String,
    version: String,
    version_name: String,
    cover: Option<String>,
    window: WindowView,
    /// The out-of-date notice, shown by the script once the data is due.
    stale: StaleView,
    /// What the page says in place of the states without its script.
    noscript: String,
    json_href: String,
    ics_href: String,
    /// The calendar as a `webcal://` subscription ([`webcal_href`]).
    webcal_href: String,
    alternates: Vec<Alternate>,
    ticks: Vec<Tick>,
    /// The footnote of a game whose time zone an import assumed and no
    /// maintainer confirmed (`timeZoneAssumed`), in the page's language.
    zone_assumed: Option<String>,
    /// Every activity of the document.
    total: usize,
    /// By their end, then their start; the script sorts them by state.
    activities: Vec<ActivityView>,
}

/// A link to the same game in another (or this) locale.
#[derive(Debug, Clone, Serialize)]
pub(super) struct Alternate {
    pub(super) locale: String,
    pub(super) language: String,
    pub(super) href: String,
    pub(super) current: bool,
}

/// A date mark on the timeline axis.
#[derive(Debug, Clone, Serialize)]
pub(super) struct Tick {
    pub(super) left: String,
    pub(super) label: String,
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
    /// The second language of the page.
    other_lang: &'static str,
    other: &'static Ui,
    live: Live,
}

/// The template environment, compiled once per process.
pub(super) fn environment() -> anyhow::Result<&'static Environment<'static>> {
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
    for (name, source) in templates() {
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
pub fn render_view<S: Serialize>(
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
    Ok(OutputFile {
        path: path.to_owned(),
        bytes: render_text(env, template, path, view)?.into_bytes(),
    })
}

/// The text of `template` with `view`, for the file at `path` (named in errors).
pub(super) fn render_text<S: Serialize>(
    env: &Environment<'_>,
    template: &str,
    path: &str,
    view: &S,
) -> anyhow::Result<String> {
    env.get_template(template)?
        .render(Value::from(Serde(view)))
        .map_err(|err| anyhow::anyhow!("rendering {path}: {err:#}"))
}

/// Directory of a game page relative to the root, with a trailing slash.
pub(super) fn page_dir(game: &Game, doc: &LocaleDocument) -> String {
    layout::page_dir(game, &doc.locale, doc.naming())
}

/// A published API file of a document (`ext` `json` or `ics`).
fn api_file(game: &Game, doc: &LocaleDocument, ext: &str) -> String {
    layout::activity_path(game, &doc.locale, doc.naming(), ext)
}

/// The name of a language in itself, for language links.
pub fn language_name(locale: &str) -> String {
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
pub(super) fn document_in<'a>(
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

/// The link a page subscribes to a calendar by: `webcal://` under the
/// site's address when the build knows it, else the calendar's relative
/// `href`, which the page's script turns into a `webcal://` address from
/// where the page was read.
fn webcal_href(site: Option<&SiteUrl>, calendar: &str, relative: String) -> String {
    match site {
        Some(site) => site.webcal(calendar),
        None => relative,
    }
}

fn index_game(
    home: &HomeGame,
    locale: &str,
    root: &str,
    site: Option<&SiteUrl>,
) -> anyhow::Result<IndexGame> {
    let game = &home.game;
    let (at, doc) = document_in(game, locale)?;
    let g = &game.game;
    let ui = ui_for(locale);
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
            webcal_href: webcal_href(
                site,
                &api_file(g, d, "ics"),
                format!("{root}{}", api_file(g, d, "ics")),
            ),
        })
        .collect();
    // By their end (ties in the data's order): the order the script keeps
    // when it shows the ongoing ones that end soonest.
    let mut listed: Vec<&HomeActivity> = home.activities.get(at).into_iter().flatten().collect();
    listed.sort_by_key(|a| (a.end, a.index));
    let page = format!("{root}{}", page_dir(g, doc));
    // The game's name in the page's language (an English page names 异环
    // `NTE` even while its card shows the Chinese document).
    let name = g.name.get(locale, &g.default_locale).to_owned();
    let soonest: Vec<Soonest> = listed
        .into_iter()
        .map(|a| Soonest {
            index: a.index,
            name: a.name.clone(),
            href: format!("{page}#activity-{}", a.index + 1),
            start: time_view(g, a.start),
            end: time_view(g, a.end),
        })
        .collect();
    let fresh = home.freshness.get(at).copied();
    Ok(IndexGame {
        id: g.id.clone(),
        version: doc.document.version.clone(),
        version_name: doc.document.version_name.clone(),
        window: window_view(g, doc),
        stale: fresh.map(|f| stale_view(g, doc, f, ui)),
        name,
        page_href: page,
        feeds,
        soonest,
    })
}

/// The out-of-date notice of a document, shown by the script from the
/// moment its data is due ([`freshness`]): "数据尚未更新：4.6 版本已于
/// 11 月 11 日结束".
pub(super) fn stale_view(
    game: &Game,
    doc: &LocaleDocument,
    fresh: Freshness,
    ui: &Ui,
) -> StaleView {
    let due = fresh.due.naive();
    let lang = ui.lang;
    let date = msg!("page-date", month = due.month(), day = due.day()).render(lang);
    let text = match fresh.mode {
        UpdateMode::Version => msg!(
            "page-stale-version",
            version = doc.document.version.as_str(),
            date = date
        ),
        UpdateMode::Activity => msg!("page-stale-activity", date = date),
    };
    StaleView {
        due: time_view(game, due),
        text: text.render(lang),
    }
}

/// What a page without its script says instead of a state: compare the
/// times with your clock (in `zone`), and the data is current until `due`.
fn without_script(game: &Game, doc: &LocaleDocument, fresh: Freshness, ui: &Ui) -> String {
    let zone = zone_label(game, doc.document.start_time.naive());
    msg!(
        "page-noscript",
        zone = zone,
        due = display_time(fresh.due.naive())
    )
    .render(ui.lang)
}

fn game_page(
    game: &GameOutput,
    doc: &LocaleDocument,
    site_locale: &str,
    site: Option<&SiteUrl>,
) -> anyhow::Result<GamePage> {
    let g = &game.game;
    let ui = ui_for(&doc.locale);
    let root = if doc.is_default { "../" } else { "../../" };
    let (start, end) = window_of(doc);
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

    let mut activities: Vec<ActivityView> = doc
        .document
        .activities
        .iter()
        .enumerate()
        .map(|(i, activity)| activity_view(g, activity, i, (start, end)))
        .collect();
    // By their end, then their start (ties in the data's order): what
    // ends first comes first. The script splits them by state.
    activities.sort_by_key(|a| (a.at.1, a.at.0, a.index));
    let fresh = freshness::of(g, &doc.document);

    Ok(GamePage {
        lang: doc.locale.clone(),
        ui,
        root: root.to_owned(),
        home_href: format!(
            "{root}{}",
            layout::home_dir(&doc.locale, Naming::of(&doc.locale, site_locale))
        ),
        live: live(ui),
        timeline_href: format!(
            "{root}{}",
            layout::timeline_dir(&doc.locale, Naming::of(&doc.locale, site_locale))
        ),
        game_name: g.name.get(&doc.locale, &g.default_locale).to_owned(),
        version: doc.document.version.clone(),
        version_name: doc.document.version_name.clone(),
        cover: doc.document.cover.clone().filter(|c| !c.is_empty()),
        window: window_view(g, doc),
        stale: stale_view(g, doc, fresh, ui),
        noscript: without_script(g, doc, fresh, ui),
        json_href: format!("{root}{}", api_file(g, doc, "json")),
        ics_href: format!("{root}{}", api_file(g, doc, "ics")),
        webcal_href: webcal_href(
            site,
            &api_file(g, doc, "ics"),
            format!("{root}{}", api_file(g, doc, "ics")),
        ),
        alternates,
        ticks,
        zone_assumed: g
            .time_zone_assumed
            .then(|| msg!("page-zone-assumed").render(ui.lang)),
        total: activities.len(),
        activities,
    })
}

fn activity_view(
    game: &Game,
    activity: &Activity,
    index: usize,
    (start, end): (NaiveDateTime, NaiveDateTime),
) -> ActivityView {
    let (a_start, a_end) = (activity.start_time.naive(), activity.end_time.naive());
    let span = (end - start).num_seconds().max(1) as f64;
    let share =
        |t: NaiveDateTime| ((t - start).num_seconds() as f64 / span).clamp(0.0, 1.0) * 100.0;
    let left = share(a_start);
    let right = share(a_end);
    ActivityView {
        anchor: format!("activity-{}", index + 1),
        index,
        name: activity.name.clone(),
        kind: activity.kind.clone().filter(|k| !k.is_empty()),
        description: activity.description.clone(),
        start: time_view(game, a_start),
        end: time_view(game, a_end),
        left: pct(left),
        width: pct((right - left).max(0.0)),
        starts_before: a_start < start,
        ends_after: a_end > end,
        cover: activity.cover.clone().filter(|c| !c.is_empty()),
        at: (a_start, a_end),
    }
}

/// The version window of `doc`.
pub(super) fn window_of(doc: &LocaleDocument) -> (NaiveDateTime, NaiveDateTime) {
    let (start, end) = doc.document.window();
    (start.naive(), end.naive())
}

pub(super) fn window_view(game: &Game, doc: &LocaleDocument) -> WindowView {
    let (start, end) = window_of(doc);
    WindowView {
        start: time_view(game, start),
        end: time_view(game, end),
        zone: zone_label(game, start),
    }
}

/// A percentage with two decimals, the same on every machine.
pub(super) fn pct(value: f64) -> String {
    format!("{value:.2}")
}

fn display_time(t: NaiveDateTime) -> String {
    t.format("%Y-%m-%d %H:%M").to_string()
}

/// The time as shown, and as an HTML `datetime` with the game's UTC offset.
pub(super) fn time_view(game: &Game, t: NaiveDateTime) -> TimeView {
    // Read as the published documents read it (a gap or a fold included).
    let iso = crate::model::time::instant_of(t, game.tz())
        .format("%Y-%m-%dT%H:%M:%S%:z")
        .to_string();
    TimeView {
        text: display_time(t),
        iso,
    }
}

/// `Asia/Shanghai, UTC+08:00` at the given local time.
pub(super) fn zone_label(game: &Game, at: NaiveDateTime) -> String {
    let zoned = crate::model::time::instant_of(at, game.tz());
    format!("{}, UTC{}", game.time_zone_name(), zoned.format("%:z"))
}
