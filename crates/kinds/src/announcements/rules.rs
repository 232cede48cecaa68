//! The rules of the announcements document (`data/_announcements/<locale>.json`),
//! beside its schema: `id` written as a whole number, and in each
//! announcement's Markdown every link an absolute http(s) URL, a site path
//! or a `#fragment` naming a heading of the same announcement
//! (`markdown-link`) and no raw HTML (`markdown-html`), each
//! reported at its line and column in the JSON source.

use serde_json::Value;

use activity_site_check::diagnostics::{Code, Severity};
use activity_site_check::i18n::{Msg, msg};
use activity_site_check::json::{self, Json, Node};
use activity_site_check::kind::Kind;
use activity_site_check::markdown::{self, Finding};
use activity_site_check::validate::{self, FileRules, Reporter, SchemaError};

use super::model::Announcements;

/// The announcements boards' part of the check (a part of [`super::KIND`]).
pub static RULES: Rules = Rules;

/// See [`RULES`].
pub struct Rules;

impl FileRules for Rules {
    fn kind(&self) -> &'static Kind {
        &super::KIND
    }

    fn known_keys(&self, depth: usize) -> &'static [&'static str] {
        if depth == 0 {
            DOCUMENT_KEYS
        } else {
            ANNOUNCEMENT_KEYS
        }
    }

    fn schema_help(&self, field: &str) -> Option<Msg> {
        schema_help(field)
    }

    fn schema_message(&self, error: SchemaError, field: &str, found: &str) -> Option<Msg> {
        Some(match error {
            SchemaError::Minimum => msg!("anno-minimum", field = field, found = found),
            SchemaError::Enum => msg!("anno-unknown-value", field = field, value = found),
            // The board's schema has no pattern.
            SchemaError::Pattern => return None,
        })
    }

    fn orphan(&self, path: &str) -> (Msg, Msg) {
        (msg!("anno-orphan", path = path), msg!("anno-orphan-help"))
    }

    fn rules(&self, root: &Node<'_>, report: &mut Reporter<'_>) {
        rules(root, report);
    }

    fn reads(&self, value: &Value) -> bool {
        validate::reads_as::<Announcements>(value)
    }

    fn canonical(&self, text: &str) -> Option<String> {
        validate::canonical_as::<Announcements>(text)
    }
}

/// The keys the document may have (`schema/announcements.schema.json`).
pub const DOCUMENT_KEYS: &[&str] = &["$schema", "id", "updated", "announcements"];

/// The keys an announcement may have.
pub const ANNOUNCEMENT_KEYS: &[&str] = &["title", "content", "contentType"];

/// The help of a schema error on `field` of the announcements document,
/// when the field has a better one than the schema's message.
pub fn schema_help(field: &str) -> Option<Msg> {
    Some(match field {
        "id" => msg!("anno-id-help"),
        "title" => msg!("anno-title-help"),
        "contentType" => msg!("anno-content-type-help"),
        "content" => msg!("anno-content-help"),
        "updated" => msg!("anno-updated-help"),
        _ => return None,
    })
}

/// The rules beside the schema, on the parsed document.
pub fn rules(doc: &Node<'_>, report: &mut Reporter<'_>) {
    if let Some(id) = doc.get("id")
        && let Json::Number(raw) = id.value
        && raw.contains(['.', 'e', 'E'])
        && raw
            .parse::<f64>()
            .is_ok_and(|n| n.fract() == 0.0 && n >= 0.0)
    {
        let whole = raw.parse::<f64>().map_or(0, |n| n as u64);
        report.value(
            "/id",
            Code::Schema,
            Severity::Error,
            msg!("anno-id-not-whole", raw = raw),
            Some(msg!("anno-id-not-whole-help", whole = whole.to_string())),
        );
        report.fix_range(id.start, id.end, whole.to_string());
    }
    if let Some(updated) = doc.get("updated")
        && let Some(text) = updated.as_str()
        && chrono::DateTime::parse_from_rfc3339(text).is_err()
    {
        report.value(
            "/updated",
            Code::Schema,
            Severity::Error,
            msg!("anno-updated-bad", found = text),
            Some(msg!("anno-updated-help")),
        );
    }
    let Some(items) = doc.get("announcements").and_then(Node::as_array) else {
        return;
    };
    for item in items {
        if let Some(content) = item.get("content") {
            content_rules(content, report);
        }
    }
}

/// `markdown-link` and `markdown-html` in one `content` string.
fn content_rules(node: &Node<'_>, report: &mut Reporter<'_>) {
    let Some(text) = node.as_str() else {
        return;
    };
    let found = markdown::scan(text);
    if found.is_empty() {
        return;
    }
    let (inner, inner_end) = json::string_inner(report.text(), node.start, node.end);
    let raw = report.source(inner, inner_end);
    // Decoded byte offset to the byte offset in the source, escapes included.
    let in_source = |offset: usize| {
        let index = text[..offset.min(text.len())].chars().count();
        inner + json::raw_offset(raw, index)
    };
    for (finding, range) in found {
        let at = report.location(in_source(range.start), in_source(range.end));
        match finding {
            Finding::Link { dest, image } => {
                let image = if image { "yes" } else { "no" };
                report.push(
                    at,
                    Code::MarkdownLink,
                    Severity::Error,
                    msg!("markdown-link", image = image, dest = dest.as_str()),
                    Some(msg!("markdown-link-help", image = image)),
                );
            }
            Finding::Fragment { dest, headings } => {
                let help = if headings.is_empty() {
                    msg!("markdown-fragment-no-headings-help", name = &dest[1..])
                } else {
                    // Code spans apart by spaces read the same in every language.
                    let mut named: Vec<String> = headings
                        .iter()
                        .take(10)
                        .map(|h| format!("`#{h}`"))
                        .collect();
                    if headings.len() > 10 {
                        named.push("…".to_owned());
                    }
                    msg!("markdown-fragment-help", headings = named.join(" "))
                };
                report.push(
                    at,
                    Code::MarkdownLink,
                    Severity::Error,
                    msg!("markdown-fragment", dest = dest.as_str()),
                    Some(help),
                );
            }
            Finding::Html { html } => {
                let shown: String = html.trim().chars().take(40).collect();
                report.push(
                    at,
                    Code::MarkdownHtml,
                    Severity::Warning,
                    msg!("markdown-html", html = shown),
                    Some(msg!("markdown-html-help")),
                );
            }
        }
    }
}
