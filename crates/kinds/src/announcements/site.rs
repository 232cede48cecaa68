//! The announcements of the site: each locale's board
//! (`data/_announcements/<locale>.json`, checked and typed) to its files:
//! the JSON document (`api/v1/anno.json` for the site's default locale too,
//! `api/v1/anno-<locale>.json` for every locale), its Atom feed beside it,
//! and its page (`announcements/`, `announcements/<locale>/`) with every
//! announcement's Markdown rendered and sanitised by `markdown`.
//!
//! A feed's `updated` is the board's own (its optional `updated` field,
//! [`updated`]), never the build's or another document's: the feed changes
//! only when its board does, not when a game's data moves on. An entry's id
//! is a digest of its title and content, so an edited announcement reads as
//! a new entry. The same board gives the same feed at any moment.

use serde::{Deserialize as _, Serialize};
use sha2::{Digest as _, Sha256};

use activity_site_check::kind::Kind;
use activity_site_check::layout::{self, Naming, SiteUrl};
use activity_site_check::markdown;
use activity_site_check::validate::CheckedFile;
use activity_site_site::pages;
use activity_site_site::types::{HomeLink, OutputFile, Publish, Published, Site, StatusColumn};

use super::model::Announcements;
use super::{PAGE_DIR, STEM};

/// The announcements boards' part of the site (a part of [`super::KIND`]).
pub static PUBLISH: Boards = Boards;

/// See [`PUBLISH`].
pub struct Boards;

impl Publish for Boards {
    fn kind(&self) -> &'static Kind {
        &super::KIND
    }

    /// Per board: its documents, its feeds and its page; the index names
    /// the documents with their digest, each home page links its board.
    fn publish(&self, files: &[&CheckedFile], site: &Site<'_>) -> anyhow::Result<Published> {
        let boards = boards(files, site.site_locale);
        let mut published = Published::default();
        for board in &boards {
            let json = board.to_json();
            let sha256 = hex::encode(Sha256::digest(&json));
            published
                .index
                .extend(index_entries(board, &sha256, json.len()));
            published.files.extend(json_files(board, &json));
            // Few hosts know `.atom`: `_headers` names the feeds' type.
            let feeds = feed_files(board, site.site_url);
            published.typed.extend(feeds.iter().map(|f| f.path.clone()));
            published.files.extend(feeds);
            published.files.push(render_page(board, &boards)?);
        }
        if !boards.is_empty() {
            published.page_patterns.push(format!("/{PAGE_DIR}/*"));
        }
        published.home_links = home_links(&boards);
        Ok(published)
    }

    fn status_columns(&self) -> &'static [StatusColumn] {
        &[
            StatusColumn {
                field: "id",
                heading: "status-board-id",
            },
            StatusColumn {
                field: "announcements",
                heading: "status-board-count",
            },
        ]
    }

    fn index_schema(&self) -> Option<(&'static str, serde_json::Value)> {
        let entry = serde_json::json!({
            "type": "object",
            "required": ["locale", "default", "path", "feed", "id", "sha256", "bytes"],
            "properties": {
                "locale": {"type": "string"},
                "default": {
                    "description": "This is the un-suffixed board of the site's default locale.",
                    "type": "boolean"
                },
                "path": {"description": "The board, site-absolute.", "type": "string"},
                "feed": {"description": "Its Atom feed, site-absolute.", "type": "string"},
                "id": {
                    "description": "The board's id, raised whenever its content changes.",
                    "type": "integer",
                    "minimum": 0
                },
                "sha256": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
                "bytes": {"type": "integer", "minimum": 0}
            }
        });
        let description =
            "The announcements boards, one per locale (absent from a site without them).";
        Some((description, entry))
    }

    fn api_summary(&self) -> Option<&'static str> {
        Some("announcements boards")
    }

    fn llms_start(&self) -> Option<(String, String)> {
        let path = path("", Naming::Plain, "json");
        let line = format!(
            "- [Announcements]({}): `{{\"id\", \"announcements\": [{{\"title\", \"content\"}}]}}`, newest first; clients show them again when `id` changes",
            layout::url(&path)
        );
        Some((path, line))
    }

    /// A board's `id` and how many announcements it has.
    fn status_values(&self, document: Option<&serde_json::Value>) -> Vec<serde_json::Value> {
        let board = document.and_then(|d| Announcements::deserialize(d).ok());
        vec![
            board.as_ref().map(|b| b.id).into(),
            board.as_ref().map(|b| b.announcements.len()).into(),
        ]
    }
}

/// One locale's board, as published.
#[derive(Debug, Clone)]
pub struct Board {
    pub locale: String,
    /// Whether it is the site's default locale, published as `anno.json` too.
    pub is_default: bool,
    /// `$schema` dropped; announcements in the author's order.
    pub document: Announcements,
}

impl Board {
    /// How its files and page are named: plain for the default locale.
    pub fn naming(&self) -> Naming {
        if self.is_default {
            Naming::Plain
        } else {
            Naming::Localized
        }
    }

    /// The published JSON: the canonical text without `$schema`.
    pub fn to_json(&self) -> Vec<u8> {
        self.document.to_canonical().into_bytes()
    }
}

/// The boards of a clean check that kept its documents, in path order;
/// `site_locale` names the one published as `anno.json`.
pub fn boards(checked: &[&CheckedFile], site_locale: Option<&str>) -> Vec<Board> {
    checked
        .iter()
        .filter_map(|c| {
            let mut document = Announcements::deserialize(c.document.as_ref()?).ok()?;
            document.schema = None;
            Some(Board {
                is_default: site_locale == Some(c.locale.as_str()),
                locale: c.locale.clone(),
                document,
            })
        })
        .collect()
}

/// The JSON files of a board: `anno.json` too for the default locale.
pub fn json_files(board: &Board, json: &[u8]) -> Vec<OutputFile> {
    layout::published_names(board.naming())
        .iter()
        .map(|&name| OutputFile {
            path: path(&board.locale, name, "json"),
            bytes: json.to_vec(),
        })
        .collect()
}

/// The Atom feeds of a board (`anno.atom` too for the default locale),
/// `updated` as the board says ([`updated`]), its links under `site`
/// when the build knows the site's address.
pub fn feed_files(board: &Board, site: Option<&SiteUrl>) -> Vec<OutputFile> {
    let updated = updated(board);
    layout::published_names(board.naming())
        .iter()
        .map(|&name| OutputFile {
            path: path(&board.locale, name, "atom"),
            bytes: feed(board, name, updated.clone(), site).into_bytes(),
        })
        .collect()
}

/// What the index says of a board's documents, given their digest.
pub fn index_entries(board: &Board, sha256: &str, bytes: usize) -> Vec<layout::IndexLocaleEntry> {
    layout::published_names(board.naming())
        .iter()
        .map(|&name| layout::IndexLocaleEntry {
            locale: board.locale.clone(),
            default: name == Naming::Plain,
            path: layout::url(&path(&board.locale, name, "json")),
            feed: Some(layout::url(&path(&board.locale, name, "atom"))),
            id: Some(board.document.id),
            sha256: sha256.to_owned(),
            bytes: bytes as u64,
        })
        .collect()
}

/// The anchor of the announcement at `index` of `count`: numbered from the
/// oldest, so anchors stay put when a newer one is added on top. Its
/// Markdown's headings get ids under it (`a3-启动命令`, [`markdown::Anchors`]),
/// unique on the page when two announcements have the same heading.
fn anchor(index: usize, count: usize) -> String {
    format!("a{}", count - index)
}

/// The page of a board. `boards` are every board of the site (for the
/// language links).
pub fn render_page(board: &Board, boards: &[Board]) -> anyhow::Result<OutputFile> {
    let dir = page_dir(&board.locale, board.naming());
    let root = "../".repeat(dir.matches('/').count());
    let ui = pages::ui_for(&board.locale);
    let count = board.document.announcements.len();
    let view = PageView {
        lang: board.locale.clone(),
        ui,
        live: pages::style_only(ui),
        root: root.clone(),
        json_href: format!("{root}{}", path(&board.locale, board.naming(), "json")),
        feed_href: format!("{root}{}", path(&board.locale, board.naming(), "atom")),
        languages: boards
            .iter()
            .filter(|b| b.locale != board.locale)
            .map(|b| LanguageLink {
                locale: b.locale.clone(),
                language: pages::language_name(&b.locale),
                href: format!("{root}{}", page_dir(&b.locale, b.naming())),
            })
            .collect(),
        announcements: board
            .document
            .announcements
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let anchor = anchor(i, count);
                let anchors = markdown::Anchors {
                    prefix: &anchor,
                    base: "",
                };
                AnnouncementView {
                    html: markdown::to_html(&a.content, anchors),
                    title: a.title.clone(),
                    anchor,
                }
            })
            .collect(),
    };
    pages::render_view(
        "announcements.html",
        &format!("{dir}{}", layout::DIRECTORY_INDEX),
        &view,
    )
}

#[derive(Debug, Serialize)]
struct PageView {
    lang: String,
    ui: &'static pages::Ui,
    live: pages::Live,
    root: String,
    json_href: String,
    feed_href: String,
    languages: Vec<LanguageLink>,
    announcements: Vec<AnnouncementView>,
}

#[derive(Debug, Serialize)]
struct LanguageLink {
    locale: String,
    language: String,
    href: String,
}

#[derive(Debug, Serialize)]
struct AnnouncementView {
    anchor: String,
    title: String,
    /// Sanitised HTML ([`markdown::to_html`]).
    html: String,
}

/// The links the home pages show, one per board.
pub fn home_links(boards: &[Board]) -> Vec<HomeLink> {
    boards
        .iter()
        .map(|board| HomeLink {
            locale: board.locale.clone(),
            is_default: board.is_default,
            href: page_dir(&board.locale, board.naming()),
            says: "page-announcements",
            // Each home page says it in its own language.
            label: String::new(),
            feed_href: path(&board.locale, board.naming(), "atom"),
        })
        .collect()
}

/// A URN of a digest: the first 16 bytes of a sha256 as a UUID (version 8,
/// the one for custom UUIDs), stable for the same input.
fn urn(parts: &[&str]) -> String {
    let digest = activity_site_site::digest::digest_of(parts.iter().map(|part| part.as_bytes()));
    let mut b: [u8; 16] = digest[..16].try_into().expect("16 bytes");
    b[6] = (b[6] & 0x0F) | 0x80;
    b[8] = (b[8] & 0x3F) | 0x80;
    let h = hex::encode(b);
    format!(
        "urn:uuid:{}-{}-{}-{}-{}",
        &h[..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..]
    )
}

/// Text for XML content and double-quoted attributes: the escaping of
/// HTML text and attributes ([`pages::escape_html`]) is XML's too.
fn xml(text: &str) -> String {
    pages::escape_html(text)
}

/// A feed's `updated`, RFC 3339 in UTC: the board's `updated` (checked
/// by the rules), else the Unix epoch. Nothing else moves it: not the
/// games' data, not the clock.
pub fn updated(board: &Board) -> String {
    board
        .document
        .updated
        .as_deref()
        .and_then(|u| chrono::DateTime::parse_from_rfc3339(u).ok())
        .map(|t| t.with_timezone(&chrono::Utc))
        .unwrap_or(chrono::DateTime::<chrono::Utc>::UNIX_EPOCH)
        .format("%Y-%m-%dT%H:%M:%SZ")
        .to_string()
}

/// The Atom feed of a board (RFC 4287): one entry per announcement, newest
/// first, each with its sanitised HTML. Links are relative to the feed.
///
/// Under a known site address (`site`) the feed's id is the absolute
/// address of the board's own feed (`anno-<locale>.atom`, the same for
/// both names of the default board's) and its links are absolute; without
/// one its id is a URN of the board's locale. An entry's id is a URN of
/// its content either way: it must not change while the entry does not.
pub fn feed(board: &Board, name: Naming, updated: String, site: Option<&SiteUrl>) -> String {
    let title = pages::ui_for(&board.locale).word("announcements");
    let page_dir = page_dir(&board.locale, board.naming());
    let page = match site {
        Some(site) => site.join(&page_dir),
        None => format!("../../{page_dir}"),
    };
    let own = path(&board.locale, name, "atom");
    let own_link = match site {
        Some(site) => site.join(&own),
        None => own.rsplit('/').next().unwrap_or(&own).to_owned(),
    };
    let feed_id = match site {
        Some(site) => site.join(&path(&board.locale, Naming::Localized, "atom")),
        None => urn(&["activity-site announcements", &board.locale]),
    };
    let mut out = String::new();
    out.push_str("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n");
    out.push_str(&format!(
        "<feed xmlns=\"http://www.w3.org/2005/Atom\" xml:lang=\"{}\">\n",
        xml(&board.locale)
    ));
    out.push_str(&format!("  <id>{}</id>\n", xml(&feed_id)));
    out.push_str(&format!("  <title>{}</title>\n", xml(title)));
    out.push_str(&format!("  <updated>{updated}</updated>\n"));
    out.push_str("  <author><name>activity-site</name></author>\n");
    out.push_str(&format!(
        "  <link rel=\"self\" type=\"application/atom+xml\" href=\"{}\"/>\n",
        xml(&own_link)
    ));
    out.push_str(&format!(
        "  <link rel=\"alternate\" type=\"text/html\" href=\"{}\"/>\n",
        xml(&page)
    ));
    let count = board.document.announcements.len();
    for (i, a) in board.document.announcements.iter().enumerate() {
        let anchor = anchor(i, count);
        // Links to the announcement's headings point at the page.
        let anchors = markdown::Anchors {
            prefix: &anchor,
            base: &page,
        };
        out.push_str("  <entry>\n");
        out.push_str(&format!(
            "    <id>{}</id>\n",
            urn(&[
                "activity-site announcement",
                &board.locale,
                &a.title,
                &a.content
            ])
        ));
        out.push_str(&format!("    <title>{}</title>\n", xml(&a.title)));
        out.push_str(&format!("    <updated>{updated}</updated>\n"));
        out.push_str(&format!(
            "    <link rel=\"alternate\" type=\"text/html\" href=\"{}#{}\"/>\n",
            xml(&page),
            anchor
        ));
        out.push_str(&format!(
            "    <content type=\"html\">{}</content>\n",
            xml(&markdown::to_html(&a.content, anchors))
        ));
        out.push_str("  </entry>\n");
    }
    out.push_str("</feed>\n");
    out
}

/// The path of `locale`'s board (`ext` `json`) or of its feed (`atom`).
fn path(locale: &str, name: Naming, ext: &str) -> String {
    layout::locale_document_path(STEM, locale, name, ext)
}

/// The folder of `locale`'s page.
fn page_dir(locale: &str, naming: Naming) -> String {
    layout::kind_page_dir(PAGE_DIR, locale, naming)
}
