//! Live reload: the server-sent-events endpoint open pages listen on, the
//! script injected into HTML responses in serve mode, and the error overlay
//! shown while the last build failed.
//!
//! The script and overlay exist only in responses; the built files on disk
//! never contain them. This module knows the build status, not how builds run.

use std::convert::Infallible;
use std::sync::Arc;

use axum::response::sse::{Event, KeepAlive, Sse};
use bytes::Bytes;
use futures::Stream;
use tokio::sync::broadcast::error::RecvError;

use super::{BuildStatus, ServerState};

/// Path of the live-reload event stream.
pub const RELOAD_PATH: &str = "/_activity-site/reload";

/// What a finished build tells the open pages.
#[derive(Debug, Clone)]
pub enum ReloadEvent {
    /// A good build: pages reload.
    Reload { generation: u64 },
    /// A failed build: pages show `text` (plain, not yet escaped) in the overlay.
    Failed { generation: u64, text: Arc<str> },
}

/// The event stream. It starts with a `hello` event carrying the build
/// generation (a page that reconnects after missing a build reloads), then
/// relays `reload` and `failed` events until the server shuts down.
pub(crate) async fn events(
    state: ServerState,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let mut builds = state.reload.subscribe();
    let mut stopping = state.shutdown.subscribe();
    let generation = state.status().generation;
    let stream = async_stream::stream! {
        yield Ok(Event::default().event("hello").data(generation.to_string()));
        loop {
            let next = tokio::select! {
                _ = stopping.wait_for(|stop| *stop) => break,
                next = builds.recv() => next,
            };
            match next {
                Ok(ReloadEvent::Reload { generation }) => {
                    yield Ok(Event::default().event("reload").data(generation.to_string()));
                }
                Ok(ReloadEvent::Failed { text, .. }) => {
                    // A JSON string keeps the multi-line text on one `data:` line.
                    let data = serde_json::Value::String(text.to_string()).to_string();
                    yield Ok(Event::default().event("failed").data(data));
                }
                // Events were missed; reloading shows the current state.
                Err(RecvError::Lagged(_)) => {
                    yield Ok(Event::default().event("reload").data(""));
                }
                Err(RecvError::Closed) => break,
            }
        }
    };
    Sse::new(stream).keep_alive(KeepAlive::default())
}

/// `html` with the live-reload script, plus the overlay when the last build
/// failed. Inserted before `</body>` (or appended when there is none).
pub(crate) fn inject(html: &[u8], status: &BuildStatus) -> Bytes {
    let mut extra = String::with_capacity(SCRIPT.len() + 512);
    if let Some(text) = &status.failure {
        extra.push_str(&overlay(text));
    }
    // The overlay's title, in the server's language, rides on an attribute
    // of the script: the script's text, which the policy names by its
    // hash, stays one.
    extra.push_str(&format!(
        "<script data-activity-site=\"live-reload\" data-failed=\"{}\">{SCRIPT}</script>",
        crate::site::pages::escape_html(&overlay_title())
    ));
    let at = find_body_end(html).unwrap_or(html.len());
    let mut out = Vec::with_capacity(html.len() + extra.len());
    out.extend_from_slice(&html[..at]);
    out.extend_from_slice(extra.as_bytes());
    out.extend_from_slice(&html[at..]);
    Bytes::from(out)
}

/// `policy` (a page's `Content-Security-Policy`) widened for what [`inject`]
/// adds: the script, by its hash, and its event stream on this origin. The
/// overlay's `style` attributes are allowed by the site's policy already.
pub(crate) fn allow_in_policy(policy: &str) -> String {
    let hash = crate::site::pages::csp_hash(SCRIPT);
    let mut out: Vec<String> = policy
        .split(';')
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map(|directive| {
            if directive == "script-src" || directive.starts_with("script-src ") {
                format!("{directive} {hash}").replace("script-src 'none' ", "script-src ")
            } else {
                directive.to_owned()
            }
        })
        .collect();
    if !out.iter().any(|d| d.starts_with("script-src")) {
        out.push(format!("script-src {hash}"));
    }
    if !out.iter().any(|d| d.starts_with("connect-src")) {
        out.push("connect-src 'self'".to_owned());
    }
    out.join("; ")
}

/// The overlay's title, in the server's language.
fn overlay_title() -> String {
    crate::i18n::msg!("serve-overlay-title").to_string()
}

/// The overlay element with the diagnostics, HTML-escaped.
fn overlay(text: &str) -> String {
    format!(
        "<div id=\"activity-site-overlay\" style=\"{OVERLAY_STYLE}\">\
         <strong>{}</strong>\
         <pre style=\"white-space:pre-wrap\">{}</pre></div>",
        crate::site::pages::escape_html(&overlay_title()),
        crate::site::pages::escape_html(text)
    )
}

/// Position of the last `</body>` (ASCII case-insensitive).
fn find_body_end(html: &[u8]) -> Option<usize> {
    const TAG: &[u8] = b"</body";
    html.windows(TAG.len())
        .rposition(|window| window.eq_ignore_ascii_case(TAG))
}

const OVERLAY_STYLE: &str = "position:fixed;inset:0;z-index:2147483647;overflow:auto;\
margin:0;padding:1.5rem;background:#141418;color:#f4f4f5;\
font:14px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace";

/// Listens on the event stream: reloads on a good build, shows the overlay on
/// a failed one (its title from the script's `data-failed`), and reloads
/// after a reconnect that missed a build. It sets `window.activitySiteBuild`
/// once connected, so tools can wait for that. The text of the `<script>`
/// element [`inject`] adds; the page's policy allows it by its hash.
const SCRIPT: &str = concat!(
    "(() => {",
    "const failed = document.currentScript.dataset.failed;",
    "let seen = null;",
    "const source = new EventSource(\"/_activity-site/reload\");",
    "source.addEventListener(\"hello\", (e) => {",
    "if (seen !== null && seen !== e.data) location.reload();",
    "seen = e.data;",
    "window.activitySiteBuild = e.data;",
    "});",
    "source.addEventListener(\"reload\", () => location.reload());",
    "source.addEventListener(\"failed\", (e) => {",
    "const text = JSON.parse(e.data);",
    "let box = document.getElementById(\"activity-site-overlay\");",
    "if (!box) {",
    "box = document.createElement(\"div\");",
    "box.id = \"activity-site-overlay\";",
    "box.setAttribute(\"style\", ",
    "\"position:fixed;inset:0;z-index:2147483647;overflow:auto;margin:0;padding:1.5rem;",
    "background:#141418;color:#f4f4f5;",
    "font:14px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace\");",
    "document.body.appendChild(box);",
    "}",
    "const title = document.createElement(\"strong\");",
    "title.textContent = failed;",
    "const pre = document.createElement(\"pre\");",
    "pre.style.whiteSpace = \"pre-wrap\";",
    "pre.textContent = text;",
    "box.replaceChildren(title, pre);",
    "});",
    "})();",
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inject_goes_before_the_closing_body_tag() {
        let status = BuildStatus::default();
        let out = inject(b"<html><body><p>x</p></BODY></html>", &status);
        let text = std::str::from_utf8(&out).unwrap();
        assert!(text.starts_with("<html><body><p>x</p><script"));
        assert!(text.ends_with("</script></BODY></html>"));
    }

    #[test]
    fn overlay_escapes_the_diagnostics() {
        let status = BuildStatus {
            failure: Some("error: <b>&\"".into()),
            ..BuildStatus::default()
        };
        let out = inject(b"<p>", &status);
        let text = std::str::from_utf8(&out).unwrap();
        assert!(text.contains("error: &lt;b&gt;&amp;&quot;"));
        assert!(!text.contains("<b>"));
    }
}
