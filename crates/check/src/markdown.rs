//! The Markdown of announcements, one reading for the checker and the
//! pages: the CommonMark dialect (with tables, strikethrough and task
//! lists), what a text links to and where it holds raw HTML ([`scan`]),
//! and the sanitised HTML a page shows ([`to_html`]: raw HTML as text,
//! only the links [`link_allowed`] accepts, headings with ids, then
//! `ammonia`). A leaf.
//!
//! Headings and `#fragment` links: every heading of a text gets a slug in
//! GitHub's manner ([`slug`]: lower case, letters of every script kept, so
//! `## 启动命令` is `启动命令`; a repeated one gets `-1`, `-2`). A link
//! `#fragment` names the heading of the same text whose slug is the
//! fragment (percent-decoded), or the fragment's own slug (`#Usage` names
//! `## Usage`). One page shows many texts, so the page gives a heading the
//! id `<prefix>-<slug>` ([`Anchors`]: the prefix is its announcement's own
//! anchor) and the link that names it points there; a fragment that names
//! no heading of its text is [`Finding::Fragment`] to the checker and loses
//! its destination on the page.

use std::borrow::Cow;

use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, TagEnd};

/// The extensions every reader of an announcement uses.
fn options() -> Options {
    Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS
}

/// Something in a Markdown text the checker has a rule about, with its
/// byte range in the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finding {
    /// A link (`[text](dest)`, `<dest>`, a reference) that
    /// [`link_allowed`] refuses; `at` is the destination when it is
    /// written inside the link, else the whole link.
    Link { dest: String, image: bool },
    /// Raw HTML: an HTML block, or an inline tag, comment or declaration.
    Html { html: String },
    /// A `#fragment` link (or image) that names no heading of the text;
    /// `headings` are the slugs of the text's headings, in order.
    Fragment { dest: String, headings: Vec<String> },
}

/// The slug of a heading's text, in GitHub's manner: lower case, letters
/// and digits of every script, `-` and `_` kept, each space a `-`, any
/// other character (punctuation, full-width too, and emoji) dropped.
pub fn slug(text: &str) -> String {
    text.trim()
        .chars()
        .flat_map(char::to_lowercase)
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The unique slugs of the headings of a text, in order: a slug already
/// taken gets `-1`, `-2`... as GitHub's do.
#[derive(Debug, Default)]
struct Headings {
    slugs: Vec<String>,
}

impl Headings {
    fn of(text: &str) -> Self {
        let mut headings = Headings::default();
        let mut current: Option<String> = None;
        for event in Parser::new_ext(text, options()) {
            match event {
                Event::Start(Tag::Heading { .. }) => current = Some(String::new()),
                Event::Text(t) | Event::Code(t) => {
                    if let Some(current) = &mut current {
                        current.push_str(&t);
                    }
                }
                Event::End(TagEnd::Heading(_)) => {
                    if let Some(text) = current.take() {
                        headings.add(&text);
                    }
                }
                _ => {}
            }
        }
        headings
    }

    fn add(&mut self, text: &str) {
        let base = slug(text);
        let mut unique = base.clone();
        let mut n = 0;
        while self.slugs.contains(&unique) {
            n += 1;
            unique = format!("{base}-{n}");
        }
        self.slugs.push(unique);
    }

    /// The slug a `#fragment` names (`fragment` without its `#`), if any.
    fn named(&self, fragment: &str) -> Option<&str> {
        let decoded = percent_encoding::percent_decode_str(fragment)
            .decode_utf8()
            .unwrap_or(Cow::Borrowed(fragment));
        let own = slug(&decoded);
        self.slugs
            .iter()
            .find(|s| **s == decoded || **s == own)
            .map(String::as_str)
    }
}

/// Where a page puts the headings of one text and its `#fragment` links:
/// a heading's id is `<prefix>-<slug>`, and a link that names it points at
/// `<base>#<prefix>-<slug>` (`base` empty on the page itself, the page's
/// address in a feed).
#[derive(Debug, Clone, Copy)]
pub struct Anchors<'a> {
    pub prefix: &'a str,
    pub base: &'a str,
}

impl Anchors<'_> {
    fn id(&self, slug: &str) -> String {
        format!("{}-{slug}", self.prefix)
    }
}

/// Every link [`link_allowed`] refuses, every `#fragment` link that names
/// no heading of `text`, and every piece of raw HTML in `text`, in order,
/// each with its byte range in `text`.
pub fn scan(text: &str) -> Vec<(Finding, std::ops::Range<usize>)> {
    // Most announcements have neither: skip the parse when no byte could start one.
    if !text.bytes().any(|b| matches!(b, b'<' | b'[' | b'!')) {
        return Vec::new();
    }
    let mut found = Vec::new();
    let mut fragments = Vec::new();
    let mut in_block = false;
    for (event, range) in Parser::new_ext(text, options()).into_offset_iter() {
        match event {
            Event::Start(Tag::Link { dest_url, .. })
            | Event::Start(Tag::Image { dest_url, .. })
                if !link_allowed(&dest_url) || dest_url.starts_with('#') =>
            {
                let image = text.get(range.clone()).is_some_and(|s| s.starts_with('!'));
                let source = text.get(range.clone()).unwrap_or("");
                let at = match source.rfind(dest_url.as_ref()) {
                    Some(i) if !dest_url.is_empty() => {
                        range.start + i..range.start + i + dest_url.len()
                    }
                    _ => range,
                };
                let dest = dest_url.into_string();
                if dest.starts_with('#') {
                    // Checked once every heading is known: a link may name a later one.
                    fragments.push((found.len(), dest, at));
                } else {
                    found.push((Finding::Link { dest, image }, at));
                }
            }
            Event::Start(Tag::HtmlBlock) => {
                in_block = true;
                let html = text.get(range.clone()).unwrap_or("").trim_end().to_owned();
                found.push((Finding::Html { html }, range));
            }
            Event::End(TagEnd::HtmlBlock) => in_block = false,
            Event::InlineHtml(html) | Event::Html(html) if !in_block => {
                found.push((
                    Finding::Html {
                        html: html.into_string(),
                    },
                    range,
                ));
            }
            _ => {}
        }
    }
    if !fragments.is_empty() {
        let headings = Headings::of(text);
        for (index, dest, at) in fragments.into_iter().rev() {
            if headings.named(&dest[1..]).is_none() {
                let headings = headings.slugs.clone();
                found.insert(index, (Finding::Fragment { dest, headings }, at));
            }
        }
    }
    found
}

/// Whether a link may stay: an absolute `http(s)` URL with a host, a path
/// of the site (`/sr/`, not `//host`) or an anchor (`#section`).
pub fn link_allowed(dest: &str) -> bool {
    if dest.starts_with('#') {
        return true;
    }
    if let Some(path) = dest.strip_prefix('/') {
        return !path.starts_with('/') && !path.starts_with('\\');
    }
    let lower = dest.get(..8).unwrap_or(dest).to_ascii_lowercase();
    let rest = if lower.starts_with("https://") {
        &dest[8..]
    } else if lower.starts_with("http://") {
        &dest[7..]
    } else {
        return false;
    };
    rest.split(['/', '?', '#'])
        .next()
        .is_some_and(|host| !host.is_empty())
}

/// The HTML of a Markdown text for a page: raw HTML becomes text, a link
/// [`link_allowed`] refuses loses its destination, headings get their ids
/// and `#fragment` links point at them ([`Anchors`]; a fragment that names
/// no heading loses its destination too), and `ammonia` removes whatever
/// else a page must not run (scripts, event handlers, `javascript:` URLs,
/// styles), adding `rel="noopener noreferrer"` to links; it keeps `id` on
/// headings only.
pub fn to_html(text: &str, anchors: Anchors<'_>) -> String {
    let headings = Headings::of(text);
    let mut next_heading = headings.slugs.iter();
    // A destination as the page writes it: empty when it is dropped.
    let dest = |dest_url: CowStr<'_>| -> CowStr<'static> {
        if !link_allowed(&dest_url) {
            return "".into();
        }
        match dest_url.strip_prefix('#') {
            Some(fragment) => headings.named(fragment).map_or_else(
                || "".into(),
                |slug| format!("{}#{}", anchors.base, anchors.id(slug)).into(),
            ),
            None => dest_url.into_static(),
        }
    };
    let events = Parser::new_ext(text, options()).map(|event| match event {
        Event::Html(html) | Event::InlineHtml(html) => Event::Text(html),
        Event::Start(Tag::Heading {
            level,
            classes,
            attrs,
            ..
        }) => Event::Start(Tag::Heading {
            level,
            id: next_heading.next().map(|slug| anchors.id(slug).into()),
            classes,
            attrs,
        }),
        Event::Start(Tag::Link {
            link_type,
            dest_url,
            title,
            id,
        }) => Event::Start(Tag::Link {
            link_type,
            dest_url: dest(dest_url),
            title,
            id,
        }),
        Event::Start(Tag::Image {
            link_type,
            dest_url,
            title,
            id,
        }) => Event::Start(Tag::Image {
            link_type,
            dest_url: dest(dest_url),
            title,
            id,
        }),
        event => event,
    });
    let mut html = String::with_capacity(text.len() * 3 / 2);
    pulldown_cmark::html::push_html(&mut html, events);
    let mut cleaner = ammonia::Builder::default();
    cleaner.url_schemes(["http", "https"].into());
    for heading in ["h1", "h2", "h3", "h4", "h5", "h6"] {
        cleaner.add_tag_attributes(heading, ["id"]);
    }
    cleaner.clean(&html).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_allowed() {
        for ok in [
            "https://example.com",
            "HTTP://example.com/a?b#c",
            "/sr/",
            "/",
            "#启动命令",
        ] {
            assert!(link_allowed(ok), "{ok}");
        }
        for bad in [
            "",
            "javascript:alert(1)",
            "JavaScript:alert(1)",
            "data:text/html,x",
            "//evil.example",
            "https://",
            "notes.html",
            "mailto:a@b.c",
        ] {
            assert!(!link_allowed(bad), "{bad}");
        }
    }

    #[test]
    fn scan_finds_links_and_html_at_their_bytes() {
        let text = "a [x](javascript:alert(1)) <b>bold</b>\n\n<div>\nblock\n</div>\n";
        let found = scan(text);
        assert_eq!(found.len(), 4, "{found:?}");
        let (link, at) = &found[0];
        assert!(
            matches!(link, Finding::Link { dest, image: false } if dest == "javascript:alert(1)")
        );
        assert_eq!(&text[at.clone()], "javascript:alert(1)");
        assert_eq!(&text[found[1].1.clone()], "<b>");
        assert!(matches!(&found[3].0, Finding::Html { html } if html.starts_with("<div>")));
        assert!(scan("no markup here, `<b>` in code is fine").is_empty());
    }

    const ON_PAGE: Anchors<'static> = Anchors {
        prefix: "a1",
        base: "",
    };

    #[test]
    fn html_is_sanitised() {
        let html = to_html(
            "# Top\n\n[x](javascript:alert(1)) <script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n[ok](https://a.example) [anchor](#top)",
            ON_PAGE,
        );
        assert!(!html.contains("javascript:"), "{html}");
        assert!(!html.contains("<script"), "{html}");
        assert!(!html.contains("<img"), "{html}");
        assert!(html.contains("&lt;script&gt;"), "{html}");
        assert!(html.contains(r#"href="https://a.example""#), "{html}");
        assert!(html.contains(r##"href="#a1-top""##), "{html}");
        assert!(html.contains(r#"<h1 id="a1-top">"#), "{html}");
    }

    #[test]
    fn slugs_keep_every_script_and_drop_punctuation() {
        assert_eq!(slug("启动命令"), "启动命令");
        assert_eq!(slug("游戏1：Valheim（英灵神殿）"), "游戏1valheim英灵神殿");
        assert_eq!(slug("MongoDB → JSON (同步)"), "mongodb--json-同步");
        assert_eq!(slug("⚠️ 注意事项"), "-注意事项");
        assert_eq!(slug("  Start_Here  "), "start_here");
    }

    /// A fragment names a heading of its own text by slug (a repeated one
    /// numbered), percent-encoded or not; the page's ids and hrefs agree.
    #[test]
    fn fragments_name_the_headings_of_their_text() {
        let text = "见[启动命令](#启动命令)、[second](#setup-1)、[enc](#%E5%90%AF%E5%8A%A8%E5%91%BD%E4%BB%A4)、[case](#Setup)\n\n## 启动命令\n\n## Setup\n\n## Setup\n";
        assert!(scan(text).is_empty(), "{:?}", scan(text));
        let html = to_html(
            text,
            Anchors {
                prefix: "a7",
                base: "../../announcements/",
            },
        );
        for id in ["a7-启动命令", "a7-setup", "a7-setup-1"] {
            assert!(html.contains(&format!(r#" id="{id}""#)), "{id}: {html}");
        }
        let encoded = "a7-%E5%90%AF%E5%8A%A8%E5%91%BD%E4%BB%A4";
        assert_eq!(
            html.matches(&format!(r#"href="../../announcements/#{encoded}""#))
                .count(),
            2,
            "{html}"
        );
        assert!(
            html.contains(r##"href="../../announcements/#a7-setup-1""##),
            "{html}"
        );
        assert!(
            html.contains(r##"href="../../announcements/#a7-setup""##),
            "{html}"
        );
    }

    #[test]
    fn a_fragment_naming_no_heading_is_found_and_dropped() {
        let text = "[x](#missing) and ![i](#nope)\n\n## Usage\n";
        let found = scan(text);
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(matches!(&found[0].0, Finding::Fragment { dest, headings }
            if dest == "#missing" && headings == &["usage".to_owned()]));
        assert_eq!(&text[found[0].1.clone()], "#missing");
        let html = to_html(text, ON_PAGE);
        assert!(!html.contains("missing"), "{html}");
        let found = scan("[x](#a) <b>");
        assert!(matches!(&found[0].0, Finding::Fragment { headings, .. } if headings.is_empty()));
        assert!(matches!(&found[1].0, Finding::Html { .. }), "{found:?}");
    }
}
