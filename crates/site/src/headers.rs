//! What static hosts need beside the content: the `_headers` file of
//! Netlify/Cloudflare-style hosts, the one owner of the headers each file
//! is served with (`serve` reads them back from it). Works on rendered files
//! in memory; knows nothing about the data model's rules, the file system or
//! HTTP. The precompressed siblings are [`super::compress`]'s.

use super::pages;
use super::types::{GameOutput, OutputFile, Published};
use crate::layout::{self, API_CACHE, Naming, PAGE_CACHE};

/// The security headers of every file of the site, in the order `_headers`
/// lists them: its one owner (`serve` reads them back from `_headers`).
pub fn security_headers() -> Vec<(&'static str, String)> {
    vec![
        ("X-Content-Type-Options", "nosniff".to_owned()),
        (
            "Referrer-Policy",
            "strict-origin-when-cross-origin".to_owned(),
        ),
        ("Content-Security-Policy", pages::content_security_policy()),
    ]
}

/// One rule of `_headers`: a path pattern (exact, or a prefix ending in
/// `*`) and the headers of every path it matches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeaderRule {
    pub pattern: String,
    pub headers: Vec<(String, String)>,
}

impl HeaderRule {
    fn new(pattern: impl Into<String>, headers: &[(&str, &str)]) -> Self {
        HeaderRule {
            pattern: pattern.into(),
            headers: headers
                .iter()
                .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()))
                .collect(),
        }
    }

    /// Whether the rule applies to `path` (site-absolute: `/sr/index.html`).
    pub fn matches(&self, path: &str) -> bool {
        match self.pattern.strip_suffix('*') {
            Some(prefix) => path.starts_with(prefix),
            None => self.pattern == path,
        }
    }
}

/// The rules of `_headers`.
///
/// Hosts apply every rule whose path matches and join the values of a header
/// set by two rules, so each header is set by exactly one rule per path:
/// CORS and the API cache policy on every pattern of
/// [`layout::API_POLICY_PATTERNS`] (`/api/*`: the calendars live there too,
/// since a pattern cannot select by extension on every host; the API
/// catalog; `llms.txt`), the catalog's `Link` on it and on the API's base
/// (its anchor), the page cache
/// policy on the home pages, the pages of each game and the 404 page, and the
/// security headers ([`security_headers`]) on everything.
///
/// Of what the kinds checked file by file publish (`published`: the
/// announcements boards), their pages get the page policy, and the files
/// whose extension few hosts know (their Atom feeds) their type.
pub fn header_rules(games: &[GameOutput], published: &[Published]) -> Vec<HeaderRule> {
    let security = security_headers();
    let security: Vec<(&str, &str)> = security.iter().map(|(n, v)| (*n, v.as_str())).collect();
    let api = [
        ("Access-Control-Allow-Origin", "*"),
        ("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS"),
        ("Access-Control-Expose-Headers", "ETag, Last-Modified"),
        ("Cache-Control", API_CACHE),
    ];
    // Every pattern of the API's policy gets it; the API catalog, whose
    // name has no extension a host knows, also its type, and it names
    // itself in a `Link` header (RFC 9727, section 3), as the API's base,
    // its anchor, does.
    let catalog_url = layout::url(layout::API_CATALOG_PATH);
    let catalog_link = layout::api_catalog_link();
    let mut rules = vec![HeaderRule::new("/*", &security)];
    for pattern in layout::API_POLICY_PATTERNS {
        let mut headers = api.to_vec();
        if pattern == catalog_url {
            headers.push((
                "Content-Type",
                layout::content_type(layout::API_CATALOG_PATH),
            ));
            headers.push(("Link", &catalog_link));
        }
        rules.push(HeaderRule::new(pattern, &headers));
    }
    // The anchor by its URL (as hosts match) and by its page's (as `serve`
    // and hosts that match the file do).
    let anchor = layout::url(&format!("{}/", layout::API_DIR));
    for pattern in [anchor, layout::url(layout::API_HOME_PATH)] {
        rules.push(HeaderRule::new(pattern, &[("Link", &catalog_link)]));
    }
    let site_locale = crate::model::site_locale(games.iter().map(|g| &g.game)).unwrap_or_default();
    let mut homes: Vec<String> = Vec::new();
    for doc in games.iter().flat_map(|g| &g.documents) {
        let dir = layout::home_dir(&doc.locale, Naming::of(&doc.locale, site_locale));
        if !dir.is_empty() && !homes.contains(&dir) {
            homes.push(dir);
        }
    }
    let page_rules = [
        "/".to_owned(),
        layout::url(layout::HOME_PAGE),
        layout::url(layout::NOT_FOUND_PAGE),
    ]
    .into_iter()
    .chain(homes.iter().map(|dir| format!("/{dir}*")))
    .chain(games.iter().map(|g| format!("/{}/*", g.game.id)))
    .chain(
        published
            .iter()
            .flat_map(|p| p.page_patterns.iter().cloned()),
    );
    for path in page_rules {
        rules.push(HeaderRule::new(path, &[("Cache-Control", PAGE_CACHE)]));
    }
    for typed in published.iter().flat_map(|p| &p.typed) {
        rules.push(HeaderRule::new(
            layout::url(typed),
            &[("Content-Type", layout::content_type(typed))],
        ));
    }
    rules
}

/// The `_headers` file of [`header_rules`].
pub fn render_headers(games: &[GameOutput], published: &[Published]) -> OutputFile {
    let mut out = String::new();
    out.push_str(
        "# Response headers for Netlify and Cloudflare Pages; written by `activity-site build`.\n",
    );
    out.push_str("# Every matching rule applies, so no header is set by two rules for one path.\n");
    for rule in header_rules(games, published) {
        out.push('\n');
        out.push_str(&rule.pattern);
        out.push('\n');
        for (name, value) in &rule.headers {
            out.push_str("  ");
            out.push_str(name);
            out.push_str(": ");
            out.push_str(value);
            out.push('\n');
        }
    }
    OutputFile {
        path: layout::HEADERS_FILE.to_owned(),
        bytes: out.into_bytes(),
    }
}

/// Reads a `_headers` file back into its rules (comments and blank lines
/// skipped; a header line is indented and holds `Name: value`).
pub fn parse_headers(text: &str) -> Vec<HeaderRule> {
    let mut rules: Vec<HeaderRule> = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if line.starts_with([' ', '\t']) {
            if let (Some(rule), Some((name, value))) = (rules.last_mut(), trimmed.split_once(':')) {
                rule.headers
                    .push((name.trim().to_owned(), value.trim().to_owned()));
            }
        } else {
            rules.push(HeaderRule {
                pattern: trimmed.to_owned(),
                headers: Vec::new(),
            });
        }
    }
    rules
}

/// The headers a host that reads `rules` sends for `path` (site-absolute):
/// those of every matching rule, in order.
pub fn headers_for<'a>(rules: &'a [HeaderRule], path: &str) -> Vec<(&'a str, &'a str)> {
    rules
        .iter()
        .filter(|rule| rule.matches(path))
        .flat_map(|rule| rule.headers.iter().map(|(n, v)| (n.as_str(), v.as_str())))
        .collect()
}
