//! The rules of the announcements document (`data/_announcements/<locale>.json`),
//! beside its schema: `id` written as a whole number, and in each
//! announcement's Markdown every link an absolute http(s) URL, a site path
//! or an anchor (`markdown-link`) and no raw HTML (`markdown-html`), each
//! reported at its line and column in the JSON source.

use crate::diagnostics::{Code, Severity};
use crate::json::{self, Json, Node};
use crate::markdown::{self, Finding};

use super::Reporter;

/// The keys the document may have (`schema/announcements.schema.json`).
pub const DOCUMENT_KEYS: &[&str] = &["$schema", "id", "announcements"];

/// The keys an announcement may have.
pub const ANNOUNCEMENT_KEYS: &[&str] = &["title", "content", "contentType"];

/// The help of a schema error on `field` of the announcements document,
/// when the field has a better one than the schema's message.
pub fn schema_help(field: &str) -> Option<String> {
    let help = match field {
        "id" => {
            "`id` is a whole number, 0 or more, such as `28`; raise it by one whenever the content changes"
        }
        "title" => "give the announcement a title: clients list the board by its titles",
        "contentType" => {
            "the only content type is \"markdown\", which is also what leaving it out means"
        }
        "content" => "write the announcement's text as a Markdown string",
        _ => return None,
    };
    Some(help.to_string())
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
            format!("`id` is written `{raw}`, not as a whole number"),
            Some(format!(
                "write `{whole}`: clients read the id as an integer"
            )),
        );
        report.fix_range(id.start, id.end, whole.to_string());
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
    let raw = report.source(node.start + 1, node.end.saturating_sub(1));
    // Decoded byte offset to the byte offset in the source, escapes included.
    let in_source = |offset: usize| {
        let index = text[..offset.min(text.len())].chars().count();
        node.start + 1 + json::raw_offset(raw, index)
    };
    for (finding, range) in found {
        let at = report.location(in_source(range.start), in_source(range.end));
        match finding {
            Finding::Link { dest, image } => {
                let what = if image { "image" } else { "link" };
                report.push(
                    at,
                    Code::MarkdownLink,
                    Severity::Error,
                    format!(
                        "the {what} `{dest}` in `content` is neither an absolute http(s) URL nor a path of this site"
                    ),
                    Some(format!(
                        "point the {what} at `https://...`, at a page of this site such as `/sr/`, or at an anchor such as `#notes`; the page drops any other {what}"
                    )),
                );
            }
            Finding::Html { html } => {
                let shown: String = html.trim().chars().take(40).collect();
                report.push(
                    at,
                    Code::MarkdownHtml,
                    Severity::Warning,
                    format!("`content` holds raw HTML `{shown}`"),
                    Some(
                        "the page shows raw HTML as text and clients may drop it: put code in backticks (`<tag>`), or write `&lt;` for a literal `<`"
                            .to_string(),
                    ),
                );
            }
        }
    }
}
