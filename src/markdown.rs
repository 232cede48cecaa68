//! The Markdown of announcements, one reading for the checker and the
//! pages: the CommonMark dialect (with tables, strikethrough and task
//! lists), what a text links to and where it holds raw HTML ([`scan`]),
//! and the sanitised HTML a page shows ([`to_html`]: raw HTML as text,
//! only the links [`link_allowed`] accepts, then `ammonia`). A leaf.

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

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
}

/// Every link [`link_allowed`] refuses and every piece of raw HTML in
/// `text`, in order, each with its byte range in `text`.
pub fn scan(text: &str) -> Vec<(Finding, std::ops::Range<usize>)> {
    // Most announcements have neither: skip the parse when no byte could start one.
    if !text.bytes().any(|b| matches!(b, b'<' | b'[' | b'!')) {
        return Vec::new();
    }
    let mut found = Vec::new();
    let mut in_block = false;
    for (event, range) in Parser::new_ext(text, options()).into_offset_iter() {
        match event {
            Event::Start(Tag::Link { dest_url, .. })
            | Event::Start(Tag::Image { dest_url, .. })
                if !link_allowed(&dest_url) =>
            {
                let image = text.get(range.clone()).is_some_and(|s| s.starts_with('!'));
                let source = text.get(range.clone()).unwrap_or("");
                let at = match source.rfind(dest_url.as_ref()) {
                    Some(i) if !dest_url.is_empty() => {
                        range.start + i..range.start + i + dest_url.len()
                    }
                    _ => range,
                };
                found.push((
                    Finding::Link {
                        dest: dest_url.into_string(),
                        image,
                    },
                    at,
                ));
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
/// [`link_allowed`] refuses loses its destination, and `ammonia` removes
/// whatever else a page must not run (scripts, event handlers, `javascript:`
/// URLs, styles), adding `rel="noopener noreferrer"` to links.
pub fn to_html(text: &str) -> String {
    let events = Parser::new_ext(text, options()).map(|event| match event {
        Event::Html(html) | Event::InlineHtml(html) => Event::Text(html),
        Event::Start(Tag::Link {
            link_type,
            dest_url,
            title,
            id,
        }) if !link_allowed(&dest_url) => Event::Start(Tag::Link {
            link_type,
            dest_url: "".into(),
            title,
            id,
        }),
        Event::Start(Tag::Image {
            link_type,
            dest_url,
            title,
            id,
        }) if !link_allowed(&dest_url) => Event::Start(Tag::Image {
            link_type,
            dest_url: "".into(),
            title,
            id,
        }),
        event => event,
    });
    let mut html = String::with_capacity(text.len() * 3 / 2);
    pulldown_cmark::html::push_html(&mut html, events);
    ammonia::Builder::default()
        .url_schemes(["http", "https"].into())
        .clean(&html)
        .to_string()
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

    #[test]
    fn html_is_sanitised() {
        let html = to_html(
            "[x](javascript:alert(1)) <script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n[ok](https://a.example) [anchor](#top)",
        );
        assert!(!html.contains("javascript:"), "{html}");
        assert!(!html.contains("<script"), "{html}");
        assert!(!html.contains("<img"), "{html}");
        assert!(html.contains("&lt;script&gt;"), "{html}");
        assert!(html.contains(r#"href="https://a.example""#), "{html}");
        assert!(html.contains(r##"href="#top""##), "{html}");
    }
}
