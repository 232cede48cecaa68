//! `serve`: static semantics through the router (no socket), live reload and
//! the error overlay, and live rebuilds on loopback.

use std::path::{Path, PathBuf};

use activity_site::server::{self, ServerState};
use activity_site::site::BuildOptions;
use axum::Router;
use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode, header};
use bytes::Bytes;
use tower::ServiceExt as _;

use crate::harness::{eventually, eventually_blocking, holds};

const WW_JSON: &str = "{\n  \"version\": \"2.7\"\n}\n";

/// A built-looking site in a temp dir: `<tmp>/site`, with a secret beside it.
struct Fixture {
    dir: tempfile::TempDir,
}

impl Fixture {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let fixture = Fixture { dir };
        fixture.write(
            "index.html",
            "<!doctype html><html><body><h1>Home</h1></body></html>\n",
        );
        fixture.write(
            "sr/index.html",
            "<html><body><h1>Star Rail</h1></body></html>\n",
        );
        fixture.write("404.html", "<html><body><h1>Lost</h1></body></html>\n");
        fixture.write("api/v1/activity/ww.json", WW_JSON);
        fixture.write("api/v1/activity/ww.json.br", "brotli bytes");
        fixture.write("api/v1/activity/ww.json.gz", "gzip bytes");
        fixture.write(
            "api/v1/activity/ww.ics",
            "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n",
        );
        fixture.write("api/v1/activity/sr.json", "{}\n");
        fixture.write("style.css", "body{}\n");
        fixture.write("app.js", "console.log(1)\n");
        fixture.write("logo.svg", "<svg/>\n");
        fixture.write("logo.png", "\u{89}PNG");
        let headers = activity_site::site::headers::render_headers(&[], &[]);
        fixture.write("_headers", std::str::from_utf8(&headers.bytes).unwrap());
        std::fs::write(fixture.dir.path().join("secret.txt"), "TOP SECRET").unwrap();
        fixture
    }

    fn out(&self) -> PathBuf {
        self.dir.path().join("site")
    }

    fn write(&self, relative: &str, text: &str) {
        let path = self.out().join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    fn state(&self) -> ServerState {
        ServerState::new(BuildOptions {
            root: self.dir.path().to_path_buf(),
            out: self.out(),
            now: None,
            ..BuildOptions::default()
        })
    }

    fn app(&self) -> Router {
        server::router(self.state())
    }
}

struct Reply {
    status: StatusCode,
    headers: HeaderMap,
    body: Bytes,
}

impl Reply {
    fn header(&self, name: header::HeaderName) -> &str {
        self.headers
            .get(&name)
            .map(|v| v.to_str().unwrap())
            .unwrap_or_else(|| panic!("no {name} header in {:?}", self.headers))
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

async fn send(app: &Router, method: &str, uri: &str, headers: &[(&str, &str)]) -> Reply {
    let mut request = Request::builder().method(method).uri(uri);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = app
        .clone()
        .oneshot(request.body(Body::empty()).unwrap())
        .await
        .unwrap();
    let (parts, body) = response.into_parts();
    let body = axum::body::to_bytes(body, usize::MAX).await.unwrap();
    Reply {
        status: parts.status,
        headers: parts.headers,
        body,
    }
}

async fn get(app: &Router, uri: &str) -> Reply {
    send(app, "GET", uri, &[]).await
}

#[tokio::test]
async fn content_types_follow_the_extension() {
    let fixture = Fixture::new();
    let app = fixture.app();
    for (uri, expected) in [
        (
            "/api/v1/activity/ww.json",
            "application/json; charset=utf-8",
        ),
        ("/api/v1/activity/ww.ics", "text/calendar; charset=utf-8"),
        ("/index.html", "text/html; charset=utf-8"),
        ("/style.css", "text/css; charset=utf-8"),
        ("/app.js", "text/javascript; charset=utf-8"),
        ("/logo.svg", "image/svg+xml"),
        ("/logo.png", "image/png"),
    ] {
        let reply = get(&app, uri).await;
        assert_eq!(reply.status, StatusCode::OK, "{uri}");
        assert_eq!(reply.header(header::CONTENT_TYPE), expected, "{uri}");
    }
    let reply = get(&app, "/api/v1/activity/ww.json").await;
    assert_eq!(reply.text(), WW_JSON);
    assert_eq!(
        reply.header(header::CONTENT_LENGTH),
        WW_JSON.len().to_string()
    );
}

/// Issue 18: `serve` and `publish` give every kind of file the same
/// content type (they disagreed on SVG), because both ask the layout.
#[tokio::test]
async fn serve_and_publish_give_every_kind_of_file_the_same_content_type() {
    let fixture = Fixture::new();
    let mut paths = vec!["noextension".to_owned(), "data.unknownext".to_owned()];
    for kind in activity_site::layout::KINDS {
        for ext in kind.extensions {
            paths.push(format!("kinds/file.{ext}"));
            paths.push(format!("kinds/FILE.{}", ext.to_ascii_uppercase()));
        }
    }
    for path in &paths {
        fixture.write(path, "x");
    }
    let app = fixture.app();
    for path in &paths {
        let reply = get(&app, &format!("/{path}")).await;
        assert_eq!(reply.status, StatusCode::OK, "{path}");
        let published = activity_site::publish::plan::metadata(path);
        assert_eq!(
            reply.header(header::CONTENT_TYPE),
            published.content_type,
            "{path}"
        );
    }
}

#[tokio::test]
async fn etag_and_if_none_match_give_304() {
    let fixture = Fixture::new();
    let app = fixture.app();
    let first = get(&app, "/api/v1/activity/ww.json").await;
    let etag = first.header(header::ETAG).to_owned();
    assert!(
        etag.starts_with('"') && etag.ends_with('"') && etag.len() > 10,
        "{etag}"
    );
    // The same content gives the same tag; another file another one.
    assert_eq!(
        get(&app, "/api/v1/activity/ww.json")
            .await
            .header(header::ETAG),
        etag
    );
    assert_ne!(
        get(&app, "/api/v1/activity/sr.json")
            .await
            .header(header::ETAG),
        etag
    );

    for value in [
        etag.clone(),
        format!("W/{etag}"),
        format!("\"nope\", {etag}"),
        "*".to_owned(),
    ] {
        let reply = send(
            &app,
            "GET",
            "/api/v1/activity/ww.json",
            &[("if-none-match", &value)],
        )
        .await;
        assert_eq!(reply.status, StatusCode::NOT_MODIFIED, "{value}");
        assert!(reply.body.is_empty());
        assert_eq!(reply.header(header::ETAG), etag);
        assert_eq!(reply.header(header::ACCESS_CONTROL_ALLOW_ORIGIN), "*");
    }
    let stale = send(
        &app,
        "GET",
        "/api/v1/activity/ww.json",
        &[("if-none-match", "\"0123\"")],
    )
    .await;
    assert_eq!(stale.status, StatusCode::OK);
    assert_eq!(stale.text(), WW_JSON);
}

#[tokio::test]
async fn precompressed_siblings_follow_accept_encoding() {
    let fixture = Fixture::new();
    let app = fixture.app();
    let uri = "/api/v1/activity/ww.json";
    let cases = [
        ("gzip, deflate, br", Some("br"), "brotli bytes"),
        ("gzip", Some("gzip"), "gzip bytes"),
        ("br;q=0.5, gzip;q=0.8", Some("gzip"), "gzip bytes"),
        ("br;q=0, gzip;q=0", None, WW_JSON),
        ("*", Some("br"), "brotli bytes"),
        ("deflate", None, WW_JSON),
        ("", None, WW_JSON),
    ];
    let mut tags = std::collections::BTreeSet::new();
    for (accept, encoding, body) in cases {
        let reply = send(&app, "GET", uri, &[("accept-encoding", accept)]).await;
        assert_eq!(reply.status, StatusCode::OK, "{accept}");
        assert_eq!(reply.text(), body, "{accept}");
        assert_eq!(
            reply
                .headers
                .get(header::CONTENT_ENCODING)
                .map(|v| v.to_str().unwrap()),
            encoding,
            "{accept}"
        );
        assert_eq!(reply.header(header::VARY), "accept-encoding");
        assert_eq!(
            reply.header(header::CONTENT_TYPE),
            "application/json; charset=utf-8"
        );
        tags.insert(reply.header(header::ETAG).to_owned());
    }
    // Each representation has its own strong tag.
    assert_eq!(tags.len(), 3);

    // A file without siblings is sent as is.
    let reply = send(&app, "GET", "/style.css", &[("accept-encoding", "br")]).await;
    assert!(reply.headers.get(header::CONTENT_ENCODING).is_none());
    assert_eq!(reply.text(), "body{}\n");
}

#[tokio::test]
async fn cors_on_the_api_only_with_preflight() {
    let fixture = Fixture::new();
    let app = fixture.app();
    let reply = get(&app, "/api/v1/activity/ww.json").await;
    assert_eq!(reply.header(header::ACCESS_CONTROL_ALLOW_ORIGIN), "*");
    let page = get(&app, "/").await;
    assert!(
        page.headers
            .get(header::ACCESS_CONTROL_ALLOW_ORIGIN)
            .is_none()
    );

    let preflight = send(
        &app,
        "OPTIONS",
        "/api/v1/activity/ww.json",
        &[
            ("origin", "https://calendar.example"),
            ("access-control-request-method", "GET"),
            ("access-control-request-headers", "if-none-match"),
        ],
    )
    .await;
    assert_eq!(preflight.status, StatusCode::NO_CONTENT);
    assert_eq!(preflight.header(header::ACCESS_CONTROL_ALLOW_ORIGIN), "*");
    assert!(
        preflight
            .header(header::ACCESS_CONTROL_ALLOW_METHODS)
            .contains("GET")
    );
    assert_eq!(
        preflight.header(header::ACCESS_CONTROL_ALLOW_HEADERS),
        "if-none-match"
    );
    // A missing file answers the preflight too, and its 404 carries CORS.
    let missing = get(&app, "/api/v1/activity/nope.json").await;
    assert_eq!(missing.header(header::ACCESS_CONTROL_ALLOW_ORIGIN), "*");
}

#[tokio::test]
async fn head_has_the_headers_of_get_and_no_body() {
    let fixture = Fixture::new();
    let app = fixture.app();
    let got = get(&app, "/api/v1/activity/ww.json").await;
    let head = send(&app, "HEAD", "/api/v1/activity/ww.json", &[]).await;
    assert_eq!(head.status, StatusCode::OK);
    assert!(head.body.is_empty());
    for name in [
        header::CONTENT_TYPE,
        header::CONTENT_LENGTH,
        header::ETAG,
        header::CACHE_CONTROL,
        header::LAST_MODIFIED,
    ] {
        assert_eq!(head.header(name.clone()), got.header(name));
    }
    let missing = send(&app, "HEAD", "/api/v1/nope.json", &[]).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert!(missing.body.is_empty());
}

#[tokio::test]
async fn directories_serve_their_index_and_redirect_without_slash() {
    let fixture = Fixture::new();
    let app = fixture.app();
    let home = get(&app, "/").await;
    assert_eq!(home.status, StatusCode::OK);
    assert!(home.text().contains("<h1>Home</h1>"));

    let bare = get(&app, "/sr?lang=en").await;
    assert_eq!(bare.status, StatusCode::MOVED_PERMANENTLY);
    assert_eq!(bare.header(header::LOCATION), "/sr/?lang=en");
    // A doubled slash cannot turn the redirect into another host.
    let sneaky = get(&app, "//sr").await;
    assert_eq!(sneaky.header(header::LOCATION), "/sr/");

    let slash = get(&app, "/sr/").await;
    assert_eq!(slash.status, StatusCode::OK);
    assert!(slash.text().contains("Star Rail"));
    assert_eq!(
        slash.header(header::CONTENT_TYPE),
        "text/html; charset=utf-8"
    );

    // A directory without an index page is not found; a file with a slash neither.
    assert_eq!(get(&app, "/api/v1/").await.status, StatusCode::NOT_FOUND);
    assert_eq!(get(&app, "/style.css/").await.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn not_found_is_json_under_the_api_and_html_elsewhere() {
    let fixture = Fixture::new();
    let app = fixture.app();
    let api = get(&app, "/api/v1/activity/nope.json").await;
    assert_eq!(api.status, StatusCode::NOT_FOUND);
    assert_eq!(
        api.header(header::CONTENT_TYPE),
        "application/json; charset=utf-8"
    );
    let body: serde_json::Value = serde_json::from_slice(&api.body).unwrap();
    assert_eq!(
        body,
        serde_json::json!({"error": "not found", "path": "/api/v1/activity/nope.json"})
    );

    let page = get(&app, "/nope").await;
    assert_eq!(page.status, StatusCode::NOT_FOUND);
    assert_eq!(
        page.header(header::CONTENT_TYPE),
        "text/html; charset=utf-8"
    );
    assert!(page.text().contains("<h1>Lost</h1>"), "{}", page.text());

    // Without the site's 404.html, a small built-in page.
    std::fs::remove_file(fixture.out().join("404.html")).unwrap();
    let app = fixture.app();
    let page = get(&app, "/nope%3Cscript%3E").await;
    assert_eq!(page.status, StatusCode::NOT_FOUND);
    assert_eq!(
        page.header(header::CONTENT_TYPE),
        "text/html; charset=utf-8"
    );
    assert!(page.text().contains("Not found"));
    assert!(!page.text().contains("<script>"));

    // Host configuration files are not served.
    assert_eq!(get(&app, "/_headers").await.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn traversal_never_leaves_the_output_directory() {
    let fixture = Fixture::new();
    #[cfg(unix)]
    std::os::unix::fs::symlink(
        fixture.dir.path().join("secret.txt"),
        fixture.out().join("link.txt"),
    )
    .unwrap();
    let app = fixture.app();
    let secret = fixture.dir.path().join("secret.txt");
    let absolute = format!("/{}", secret.display());
    for uri in [
        "/../secret.txt",
        "/sr/../../secret.txt",
        "/%2e%2e/secret.txt",
        "/%2E%2E/secret.txt",
        "/sr/%2e%2e/%2e%2e/secret.txt",
        "/..%2fsecret.txt",
        "/sr%2f..%2f..%2fsecret.txt",
        "/..%5csecret.txt",
        "/%5c..%5csecret.txt",
        "/sr/%00/../secret.txt",
        "/api/v1/../../../secret.txt",
        "/api/v1/%2e%2e/%2e%2e/%2e%2e/secret.txt",
        "/link.txt",
        absolute.as_str(),
        "//secret.txt",
        "/.%2e/secret.txt",
        "/%252e%252e/secret.txt",
    ] {
        let Ok(request) = Request::builder().uri(uri).body(Body::empty()) else {
            continue;
        };
        let response = app.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let body = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap();
        assert!(
            status == StatusCode::BAD_REQUEST || status == StatusCode::NOT_FOUND,
            "{uri}: {status}"
        );
        assert!(
            !String::from_utf8_lossy(&body).contains("TOP SECRET"),
            "{uri} leaked the file"
        );
    }
    let encoded = get(&app, "/api/v1/%2e%2e/%2e%2e/secret.txt").await;
    assert_eq!(encoded.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        encoded.header(header::CONTENT_TYPE),
        "application/json; charset=utf-8"
    );
}

#[tokio::test]
async fn other_methods_are_not_allowed() {
    let fixture = Fixture::new();
    let app = fixture.app();
    let reply = send(&app, "POST", "/api/v1/activity/ww.json", &[]).await;
    assert_eq!(reply.status, StatusCode::METHOD_NOT_ALLOWED);
    assert!(reply.header(header::ALLOW).contains("GET"));
    assert_eq!(
        reply.header(header::CONTENT_TYPE),
        "application/json; charset=utf-8"
    );
}

#[tokio::test]
async fn a_replaced_file_is_served_fresh() {
    let fixture = Fixture::new();
    let app = fixture.app();
    let before = get(&app, "/api/v1/activity/ww.json").await;
    // The builder swaps the whole directory; do the same.
    let staging = fixture.dir.path().join("site.next");
    copy_dir(&fixture.out(), &staging);
    std::fs::write(
        staging.join("api/v1/activity/ww.json"),
        "{\"version\":\"3.0\"}\n",
    )
    .unwrap();
    std::fs::rename(fixture.out(), fixture.dir.path().join("site.old")).unwrap();
    std::fs::rename(&staging, fixture.out()).unwrap();
    // Files replaced behind the server's back are picked up within moments.
    let app = &app;
    let after = eventually("the replaced file to be served", || async move {
        let reply = get(app, "/api/v1/activity/ww.json").await;
        holds(reply.text() != WW_JSON, || reply.text()).map(|()| reply)
    })
    .await;
    assert_eq!(after.text(), "{\"version\":\"3.0\"}\n");
    assert_ne!(after.header(header::ETAG), before.header(header::ETAG));
    // The old tag no longer matches.
    let revalidated = send(
        app,
        "GET",
        "/api/v1/activity/ww.json",
        &[("if-none-match", before.header(header::ETAG))],
    )
    .await;
    assert_eq!(revalidated.status, StatusCode::OK);
}

#[tokio::test]
async fn html_gets_live_reload_only_in_serve_mode() {
    let fixture = Fixture::new();
    let plain = fixture.app();
    let page = get(&plain, "/").await;
    assert!(!page.text().contains("/_activity-site/reload"));

    let app = server::router(fixture.state().with_live_reload(true));
    let page = send(&app, "GET", "/", &[("accept-encoding", "br")]).await;
    assert!(page.text().contains("/_activity-site/reload"));
    assert!(page.text().contains("<h1>Home</h1>"));
    assert!(page.headers.get(header::CONTENT_ENCODING).is_none());
    assert_eq!(
        page.header(header::CONTENT_LENGTH),
        page.body.len().to_string()
    );
    let etag = page.header(header::ETAG).to_owned();
    let again = send(&app, "GET", "/", &[("if-none-match", &etag)]).await;
    assert_eq!(again.status, StatusCode::NOT_MODIFIED);
    // The 404 page reloads too; JSON is untouched; the file on disk as well.
    assert!(
        get(&app, "/nope")
            .await
            .text()
            .contains("/_activity-site/reload")
    );
    assert_eq!(get(&app, "/api/v1/activity/ww.json").await.text(), WW_JSON);
    let disk = std::fs::read_to_string(fixture.out().join("index.html")).unwrap();
    assert!(!disk.contains("_activity-site"));
}

#[tokio::test]
async fn overlay_shows_escaped_diagnostics_while_the_build_is_broken() {
    let fixture = Fixture::new();
    let state = fixture.state().with_live_reload(true);
    let app = server::router(state.clone());
    let before = get(&app, "/").await;
    state.status.write().unwrap().failure =
        Some("error[schema]: unknown field `<img src=x>`\n".into());
    state.status.write().unwrap().generation += 1;
    let page = get(&app, "/").await;
    let text = page.text();
    assert!(text.contains("<div id=\"activity-site-overlay\""), "{text}");
    assert!(text.contains("unknown field `&lt;img src=x&gt;`"), "{text}");
    assert!(!text.contains("<img src=x>"));
    // The cached page's tag does not hide the overlay.
    assert_ne!(page.header(header::ETAG), before.header(header::ETAG));
    // JSON keeps the last good build.
    assert_eq!(get(&app, "/api/v1/activity/ww.json").await.text(), WW_JSON);
}

#[tokio::test]
async fn reload_stream_says_hello_and_ends_on_shutdown() {
    let fixture = Fixture::new();
    let state = fixture.state().with_live_reload(true);
    let app = server::router(state.clone());
    let request = Request::builder()
        .uri(server::RELOAD_PATH)
        .body(Body::empty())
        .unwrap();
    let response = app.oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        response.headers()[header::CONTENT_TYPE],
        "text/event-stream"
    );
    state.begin_shutdown();
    let body = tokio::time::timeout(
        std::time::Duration::from_secs(30),
        axum::body::to_bytes(response.into_body(), usize::MAX),
    )
    .await
    .expect("the stream ends on shutdown")
    .unwrap();
    let text = String::from_utf8_lossy(&body);
    assert!(text.contains("event: hello"), "{text}");
}

#[tokio::test]
async fn mounts_answer_before_the_static_site() {
    let fixture = Fixture::new();
    // Like the control API: catch-all routes under /api.
    let mounts = Router::new()
        .route(
            "/api/{resource}",
            axum::routing::any(|| async { "mounted" }),
        )
        .route(
            "/api/{resource}/{*rest}",
            axum::routing::any(|| async { "mounted" }),
        )
        .route("/mcp", axum::routing::post(|| async { "mcp" }));
    let app = server::router(fixture.state().with_mounts(mounts));
    assert_eq!(send(&app, "POST", "/api/Auth", &[]).await.text(), "mounted");
    assert_eq!(get(&app, "/api/Task/status").await.text(), "mounted");
    assert_eq!(send(&app, "POST", "/mcp", &[]).await.text(), "mcp");
    // The public API stays static, errors and preflight included.
    assert_eq!(get(&app, "/api/v1/activity/ww.json").await.text(), WW_JSON);
    let missing = get(&app, "/api/v1/activity/nope.json").await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert_eq!(
        missing.header(header::CONTENT_TYPE),
        "application/json; charset=utf-8"
    );
    let preflight = send(&app, "OPTIONS", "/api/v1/activity/ww.json", &[]).await;
    assert_eq!(preflight.status, StatusCode::NO_CONTENT);
    assert_eq!(get(&app, "/api/v1/").await.status, StatusCode::NOT_FOUND);
    assert_eq!(get(&app, "/").await.status, StatusCode::OK);
}

/// Regression: the control API's `/api/{resource}/...` catch-all once
/// swallowed the public API, answering `/api/v1/...` with a 404 envelope.
#[tokio::test]
async fn the_public_api_stays_static_beside_the_real_control_api() {
    let fixture = Fixture::new();
    let state_dir = fixture.dir.path().join("state");
    let control =
        activity_site_control::Control::open(crate::util::control_options(&state_dir)).unwrap();
    let mounts = activity_site_control::api::router(
        control,
        activity_site_control::api::ApiOptions::default(),
    );
    let app = server::router(fixture.state().with_mounts(mounts));
    let reply = get(&app, "/api/v1/activity/ww.json").await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.text(), WW_JSON);
    let reply = get(&app, "/api/v1/activity/nope.json").await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
    assert!(
        !reply.text().contains("\"success\""),
        "the static 404, not the envelope: {}",
        reply.text()
    );
    for path in ["/api/task/status", "/api/tAsK/StAtUs", "/API/Task/status"] {
        let reply = get(&app, path).await;
        assert_eq!(reply.status, StatusCode::OK, "{path}");
        assert!(
            reply.text().contains("\"success\":true"),
            "{path}: {}",
            reply.text()
        );
    }
}

fn copy_dir(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        let target = to.join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else if entry.file_type().is_file() {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A running `activity-site serve` child with its stderr collected.
struct Served {
    child: std::process::Child,
    addr: String,
    stderr: std::sync::Arc<std::sync::Mutex<String>>,
}

impl Served {
    fn start(root: &Path) -> Served {
        use std::io::{BufRead as _, BufReader, Read as _};
        use std::process::{Command, Stdio};

        let mut child = Command::new(env!("CARGO_BIN_EXE_activity-site"))
            .args(["serve", "--addr", "127.0.0.1:0", "--out", "site"])
            .args(["--now", crate::util::FIXTURE_NOW])
            .current_dir(root)
            .env("NO_COLOR", "1")
            .env("RUST_LOG", "info")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        let stderr = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        let mut pipe = child.stderr.take().unwrap();
        let sink = std::sync::Arc::clone(&stderr);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = pipe.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
        let (tx, rx) = std::sync::mpsc::channel();
        let stdout = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        let line = rx
            .recv_timeout(std::time::Duration::from_secs(120))
            .unwrap_or_else(|_| panic!("no URL printed; stderr: {}", stderr.lock().unwrap()));
        let url = line
            .split_whitespace()
            .find(|word| word.starts_with("http://"))
            .unwrap_or_else(|| panic!("no URL in {line:?}"));
        let addr = url
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .to_owned();
        Served {
            child,
            addr,
            stderr,
        }
    }

    fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// Polls `path` until `check` accepts the body; panics after a generous timeout.
    fn wait_for(&self, path: &str, what: &str, check: impl Fn(u16, &str) -> bool) -> String {
        eventually_blocking(what, || {
            let (status, body) = http_get(&self.addr, path);
            holds(check(status, &body), || {
                format!("{status}: {body}\nstderr:\n{}", self.stderr())
            })
            .map(|()| body)
        })
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A minimal HTTP/1.1 GET over loopback: the status and the body.
fn http_get(addr: &str, path: &str) -> (u16, String) {
    use std::io::{Read as _, Write as _};

    let mut stream = std::net::TcpStream::connect(addr).expect("the server accepts");
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(30)))
        .unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).expect("a response");
    let status = response
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = response
        .split_once("\r\n\r\n")
        .map(|(_, body)| body.to_owned())
        .unwrap_or_default();
    (status, body)
}

/// Reads the live-reload stream in the background.
fn listen(addr: &str) -> std::sync::Arc<std::sync::Mutex<String>> {
    use std::io::{Read as _, Write as _};

    let mut stream = std::net::TcpStream::connect(addr).expect("the server accepts");
    write!(
        stream,
        "GET {} HTTP/1.1\r\nHost: {addr}\r\n\r\n",
        server::RELOAD_PATH
    )
    .unwrap();
    let seen = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let sink = std::sync::Arc::clone(&seen);
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = stream.read(&mut buf) {
            if n == 0 {
                break;
            }
            sink.lock()
                .unwrap()
                .push_str(&String::from_utf8_lossy(&buf[..n]));
        }
        sink.lock().unwrap().push_str("\n<closed>");
    });
    seen
}

fn wait_until(what: &str, check: impl Fn() -> bool) {
    eventually_blocking(what, || holds(check(), String::new));
}

#[test]
fn watch_rebuilds_keeps_the_last_good_site_and_recovers() {
    let root = crate::util::fixture_root(None);
    let data = root.path().join("data/demo/zh-CN.json");
    let original = std::fs::read_to_string(&data).unwrap();
    let served = Served::start(root.path());
    let api = "/api/v1/activity/demo.json";
    let first = served.wait_for(api, "the first build", |status, _| status == 200);
    assert!(first.contains("星海之歌"), "{first}");
    let events = listen(&served.addr);
    wait_until("the hello event", || {
        events.lock().unwrap().contains("event: hello")
    });

    // A valid edit is served, and open pages are told to reload.
    std::fs::write(&data, original.replace("星海之歌", "星海之歌 II")).unwrap();
    served.wait_for(api, "the edited JSON", |status, body| {
        status == 200 && body.contains("星海之歌 II")
    });
    wait_until("the reload event", || {
        events.lock().unwrap().contains("event: reload")
    });

    // A broken edit keeps the last good JSON and prints the diagnostic.
    let broken = original
        .replace("星海之歌", "星海之歌 III")
        .replace("2026-10-15T03:59:59", "2026-13-15T03:59:59");
    std::fs::write(&data, broken).unwrap();
    wait_until("the diagnostic on stderr", || {
        served.stderr().contains("data/demo/zh-CN.json")
    });
    wait_until("the failed event", || {
        events.lock().unwrap().contains("event: failed")
    });
    let stderr = served.stderr();
    assert!(stderr.contains("error[datetime]"), "{stderr}");
    assert!(stderr.contains("2026-13-15T03:59:59"), "{stderr}");
    let (status, kept) = http_get(&served.addr, api);
    assert_eq!(status, 200);
    assert!(
        kept.contains("星海之歌 II") && !kept.contains("III"),
        "{kept}"
    );
    // HTML (here the built-in 404 page when the site has no pages) shows the overlay.
    let (_, page) = http_get(&served.addr, "/no-such-page");
    assert!(page.contains("<div id=\"activity-site-overlay\""), "{page}");

    // Fixing the file recovers.
    std::fs::write(&data, original.replace("星海之歌", "星海之歌 IV")).unwrap();
    served.wait_for(api, "the fixed JSON", |status, body| {
        status == 200 && body.contains("星海之歌 IV")
    });
    served.wait_for("/no-such-page", "the overlay to go", |_, page| {
        !page.contains("<div id=\"activity-site-overlay\"")
    });

    // SIGTERM shuts down gracefully: the stream closes and the exit is clean.
    #[cfg(unix)]
    {
        let mut served = served;
        // SAFETY: sending a signal to our own child process.
        unsafe { libc::kill(served.child.id() as libc::pid_t, libc::SIGTERM) };
        wait_until("the stream to close", || {
            events.lock().unwrap().contains("<closed>")
        });
        let status = eventually_blocking("serve to exit", || {
            served.child.try_wait().unwrap().ok_or_else(String::new)
        });
        assert!(status.success(), "{status:?}\n{}", served.stderr());
    }
}

/// Issues 36 and 50: a live rebuild re-renders only the game an edit
/// touched: the watcher's event names the file, which alone is stamped
/// and read again (the game's other files are in the loaded tree), the
/// edit is served, the
/// other games' files stay as they were (the same files, not written
/// again), and once its siblings are added the site equals a cold build
/// of the edited tree byte for byte.
#[cfg(unix)]
#[test]
fn a_live_rebuild_renders_only_the_edited_game_and_equals_a_cold_build() {
    use std::os::unix::fs::MetadataExt as _;

    let root = crate::util::five_games();
    let served = Served::start(root.path());
    let api = "/api/v1/activity/ww-zh-CN.json";
    served.wait_for(api, "the first build", |status, _| status == 200);
    let site = root.path().join("site");
    let ino = |rel: &str| std::fs::metadata(site.join(rel)).unwrap().ino();
    let untouched = ["api/v1/activity/sr.json", "ys/index.html", "404.html"];
    let before: Vec<u64> = untouched.iter().map(|p| ino(p)).collect();

    let data = root.path().join("data/ww/zh-CN.json");
    // Each edit: a new description, served; then the rebuild's own
    // report (`stamped= read= checked=` on its log line): the line of the
    // rebuild that checked the game (an editor's save may wake the
    // watcher twice; the second finds nothing changed).
    let built = || -> Vec<String> {
        served
            .stderr()
            .lines()
            .filter(|line| line.contains("built the site"))
            .map(str::to_owned)
            .collect()
    };
    let edit = |text: &str| -> String {
        let before = built().len();
        let mut doc: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&data).unwrap()).unwrap();
        doc["activities"][0]["description"] = serde_json::Value::from(text);
        std::fs::write(&data, serde_json::to_string_pretty(&doc).unwrap() + "\n").unwrap();
        served.wait_for(api, "the edited JSON", |status, body| {
            status == 200 && body.contains(text)
        });
        let checked = |line: &String| line.split_whitespace().any(|w| w == "checked=1");
        wait_until("the rebuild's log line", || {
            built().iter().skip(before).any(checked)
        });
        built()
            .into_iter()
            .skip(before)
            .find(checked)
            .unwrap_or_default()
    };
    let has = |line: &str, fields: &[&str]| {
        for field in fields {
            assert!(
                line.split_whitespace().any(|word| word == *field),
                "{field} in {line}\n{}",
                served.stderr()
            );
        }
    };
    // The watcher named the file, so the check stamped and read that file
    // alone (not the tree; the game's other file is taken from the tree
    // the loader holds, issue 65) and checked that game.
    has(&edit("实时改过的说明"), &["stamped=1", "read=1"]);
    // Saved again: again only that file is read.
    has(&edit("又改了一次的说明"), &["stamped=1", "read=1"]);
    // The edit was served before it was compressed; its siblings follow.
    wait_until("the edited file's gzip sibling", || {
        site.join("api/v1/activity/ww-zh-CN.json.gz").is_file()
    });
    let after: Vec<u64> = untouched.iter().map(|p| ino(p)).collect();
    assert_eq!(
        after, before,
        "the other games' files are not written again"
    );
    // The unchanged games are still served right.
    let (status, sr) = http_get(&served.addr, "/api/v1/activity/sr.json");
    assert_eq!(status, 200);
    assert_eq!(
        sr.as_bytes(),
        std::fs::read(site.join("api/v1/activity/sr.json")).unwrap()
    );

    assert_live_is_cold(root.path(), "edits of a description");
}

/// The site `serve` keeps, once its siblings are added, equals a cold
/// build of the same tree byte for byte (its manifest included).
fn assert_live_is_cold(root: &Path, step: &str) {
    let cold = root.join("cold");
    let output = crate::util::run(
        root,
        &[
            "build",
            "--out",
            "cold",
            "--no-cache",
            "--now",
            crate::util::FIXTURE_NOW,
        ],
    );
    assert_eq!(
        output.status.code(),
        Some(0),
        "{step}: {}",
        crate::util::stderr(&output)
    );
    let (live, cold) = (
        crate::util::files_under(&root.join("site")),
        crate::util::files_under(&cold),
    );
    assert_eq!(
        live.keys().collect::<Vec<_>>(),
        cold.keys().collect::<Vec<_>>(),
        "{step}: different files"
    );
    for (path, bytes) in &live {
        assert!(
            cold[path] == *bytes,
            "{step}: {path} differs from a cold build"
        );
    }
}

/// Issue 50: `serve` carries what it knows of its output from one
/// rebuild to the next (which records changed, each game's record's
/// bytes in the manifest); after a game is added and removed and a board
/// is added, edited and removed, its site still equals a cold build.
#[test]
fn a_live_site_equals_a_cold_build_after_edits_of_the_registry_and_the_announcements() {
    let root = crate::util::five_games();
    let served = Served::start(root.path());
    served.wait_for(
        "/api/v1/activity/ww.json",
        "the first build",
        |status, _| status == 200,
    );
    let site = root.path().join("site");
    let index_gz = site.join("api/v1/games.json.gz");
    // Each change rewrites the index, which a rebuild after an edit
    // writes without its siblings; its `.gz` back means the siblings
    // were added.
    let settled = |step: &str| {
        wait_until(&format!("{step}: the index's gzip sibling"), || {
            index_gz.is_file()
        });
        assert_live_is_cold(root.path(), step);
    };
    settled("first build");

    let games_path = root.path().join("games.json");
    let original: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&games_path).unwrap()).unwrap();
    let games = crate::util::with_game_copy(&original, "ww", "ww2");
    crate::util::copy_tree(&root.path().join("data/ww"), &root.path().join("data/ww2"));
    std::fs::write(
        &games_path,
        serde_json::to_string_pretty(&games).unwrap() + "\n",
    )
    .unwrap();
    served.wait_for(
        "/api/v1/activity/ww2.json",
        "the game added",
        |status, _| status == 200,
    );
    settled("game added");

    std::fs::write(
        &games_path,
        serde_json::to_string_pretty(&original).unwrap() + "\n",
    )
    .unwrap();
    std::fs::remove_dir_all(root.path().join("data/ww2")).unwrap();
    served.wait_for(
        "/api/v1/activity/ww2.json",
        "the game removed",
        |status, _| status == 404,
    );
    settled("game removed");

    let board = root.path().join("data/_announcements/zh-CN.json");
    std::fs::create_dir_all(board.parent().unwrap()).unwrap();
    let write_board = |id: u64, title: &str| {
        let text = serde_json::json!({
            "id": id,
            "announcements": [{"title": title, "content": "Hello."}]
        });
        std::fs::write(&board, serde_json::to_string_pretty(&text).unwrap() + "\n").unwrap();
    };
    write_board(1, "First board");
    served.wait_for("/api/v1/anno.json", "the board added", |status, body| {
        status == 200 && body.contains("First board")
    });
    settled("board added");
    write_board(2, "Second board");
    served.wait_for("/api/v1/anno.json", "the board edited", |status, body| {
        status == 200 && body.contains("Second board")
    });
    settled("board edited");
    std::fs::remove_dir_all(board.parent().unwrap()).unwrap();
    served.wait_for("/api/v1/anno.json", "the board removed", |status, _| {
        status == 404
    });
    settled("board removed");
}

/// Issue 30: an edit to an announcements board is rebuilt live: a new
/// board is served, an edit shows, and a board with an error keeps the
/// last good one and names its line.
#[test]
fn announcements_are_rebuilt_live() {
    let root = crate::util::fixture_root(None);
    let served = Served::start(root.path());
    served.wait_for(
        "/api/v1/activity/demo.json",
        "the first build",
        |status, _| status == 200,
    );
    let board = root.path().join("data/_announcements/zh-CN.json");
    std::fs::create_dir_all(board.parent().unwrap()).unwrap();
    let text = |id: u64, title: &str| {
        format!(
            "{{\n  \"id\": {id},\n  \"announcements\": [\n    {{\n      \"title\": \"{title}\",\n      \"content\": \"Hello.\"\n    }}\n  ]\n}}\n"
        )
    };
    std::fs::write(&board, text(1, "First")).unwrap();
    served.wait_for("/api/v1/anno.json", "the new board", |status, body| {
        status == 200 && body.contains("First")
    });
    served.wait_for("/announcements/", "its page", |status, body| {
        status == 200 && body.contains("First")
    });
    std::fs::write(&board, text(2, "Second")).unwrap();
    served.wait_for("/api/v1/anno.atom", "the edited feed", |status, body| {
        status == 200 && body.contains("<title>Second</title>")
    });
    std::fs::write(&board, text(3, "")).unwrap();
    wait_until("the diagnostic on stderr", || {
        served
            .stderr()
            .contains("data/_announcements/zh-CN.json:5:16")
    });
    let (status, kept) = http_get(&served.addr, "/api/v1/anno.json");
    assert_eq!(status, 200);
    assert!(kept.contains("Second"), "{kept}");
}

/// The rules of a `_headers` file, read here by hand (not by the library
/// that wrote it): `(pattern, [(lowercase name, value)])`.
fn read_headers_file(text: &str) -> Vec<(String, Vec<(String, String)>)> {
    let mut rules: Vec<(String, Vec<(String, String)>)> = Vec::new();
    for line in text.lines() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(header) = line.strip_prefix("  ") {
            let (name, value) = header.split_once(": ").expect("a header line");
            rules
                .last_mut()
                .expect("a rule first")
                .1
                .push((name.to_ascii_lowercase(), value.to_owned()));
        } else {
            rules.push((line.to_owned(), Vec::new()));
        }
    }
    rules
}

/// What a host that reads `rules` sends for `path`, by header name.
fn host_headers(
    rules: &[(String, Vec<(String, String)>)],
    path: &str,
) -> std::collections::BTreeMap<String, String> {
    let mut out = std::collections::BTreeMap::new();
    for (pattern, headers) in rules {
        let matches = match pattern.strip_suffix('*') {
            Some(prefix) => path.starts_with(prefix),
            None => pattern == path,
        };
        if matches {
            for (name, value) in headers {
                assert!(
                    out.insert(name.clone(), value.clone()).is_none(),
                    "{name} set twice for {path}"
                );
            }
        }
    }
    out
}

/// Issue 34: `serve --no-watch` gives every kind of file of a built site
/// the cache, CORS and security headers its `_headers` gives a host; while
/// watching, HTML pages differ in the documented exceptions only
/// (`Cache-Control: no-cache`, a policy that also allows the reload script
/// and its stream), and nothing else differs.
#[tokio::test]
async fn serve_sends_the_headers_of_headers_for_every_kind_of_file() {
    let root = tempfile::tempdir().unwrap();
    crate::util::copy_tree(
        &crate::util::crate_root().join("tests/fixtures/pages"),
        root.path(),
    );
    let out = root.path().join("site");
    let mut options = BuildOptions::new(root.path(), &out);
    options.now =
        activity_site::model::Time::parse("2026-11-24T12:00:00").map(|t| t.naive().into());
    options.cache = None;
    let outcome = activity_site::site::build(&options).unwrap();
    assert!(outcome.summary.is_some());
    let rules = read_headers_file(&std::fs::read_to_string(out.join("_headers")).unwrap());
    let compared = [
        "cache-control",
        "content-security-policy",
        "x-content-type-options",
        "referrer-policy",
        "access-control-allow-origin",
        "access-control-allow-methods",
        "access-control-expose-headers",
    ];
    let paths = [
        ("/", true),
        ("/index.html", true),
        ("/en-US/", true),
        ("/alpha/", true),
        ("/alpha/en-US/", true),
        ("/beta/index.html", true),
        ("/404.html", true),
        ("/api/v1/games.json", false),
        ("/api/v1/schema/activity.json", false),
        ("/api/v1/activity/alpha.json", false),
        ("/api/v1/activity/alpha-en-US.json", false),
        ("/api/v1/activity/alpha.ics", false),
    ];
    let served = |live: bool| {
        let state = ServerState::new(options.clone()).with_live_reload(live);
        server::router(state)
    };
    let production = served(false);
    let watching = served(true);
    for (path, html) in paths {
        let expected = host_headers(&rules, path);
        assert!(
            expected.contains_key("cache-control"),
            "{path}: {expected:?}"
        );
        assert!(expected.contains_key("content-security-policy"), "{path}");
        let reply = send(&production, "GET", path, &[("accept-encoding", "gzip")]).await;
        assert_eq!(reply.status, StatusCode::OK, "{path}");
        assert!(reply.headers.contains_key(header::LAST_MODIFIED), "{path}");
        for name in compared {
            assert_eq!(
                reply.headers.get(name).map(|v| v.to_str().unwrap()),
                expected.get(name).map(String::as_str),
                "{path}: {name} (--no-watch)"
            );
        }
        let live = send(&watching, "GET", path, &[("accept-encoding", "gzip")]).await;
        assert_eq!(live.status, StatusCode::OK, "{path}");
        for name in compared {
            let got = live.headers.get(name).map(|v| v.to_str().unwrap());
            let want = expected.get(name).map(String::as_str);
            match (html, name) {
                (true, "cache-control") => assert_eq!(got, Some("no-cache"), "{path}"),
                (true, "content-security-policy") => {
                    // The site's directives, the script's widened by one
                    // hash, and the event stream's origin.
                    let got = got.unwrap();
                    for directive in want.unwrap().split("; ") {
                        if directive.starts_with("script-src ") {
                            assert!(got.contains(&format!("{directive} 'sha256-")), "{got}");
                        } else {
                            assert!(
                                got.split("; ").any(|d| d == directive),
                                "{directive} in {got}"
                            );
                        }
                    }
                    assert!(got.ends_with("; connect-src 'self'"), "{got}");
                }
                _ => assert_eq!(got, want, "{path}: {name} (watching)"),
            }
        }
    }
}

/// `Last-Modified` as a host sends it, and `If-Modified-Since` answered
/// with a 304 (an `If-None-Match` takes precedence, as RFC 9110 asks).
#[tokio::test]
async fn last_modified_and_if_modified_since_give_304() {
    let fixture = Fixture::new();
    let app = fixture.app();
    let got = get(&app, "/api/v1/activity/sr.json").await;
    let modified = got.header(header::LAST_MODIFIED).to_owned();
    assert!(modified.ends_with(" GMT"), "{modified}");
    let again = send(
        &app,
        "GET",
        "/api/v1/activity/sr.json",
        &[("if-modified-since", &modified)],
    )
    .await;
    assert_eq!(again.status, StatusCode::NOT_MODIFIED);
    let stale_tag = send(
        &app,
        "GET",
        "/api/v1/activity/sr.json",
        &[
            ("if-modified-since", &modified),
            ("if-none-match", "\"other\""),
        ],
    )
    .await;
    assert_eq!(stale_tag.status, StatusCode::OK);
    let before = send(
        &app,
        "GET",
        "/api/v1/activity/sr.json",
        &[("if-modified-since", "Thu, 01 Jan 1970 00:00:00 GMT")],
    )
    .await;
    assert_eq!(before.status, StatusCode::OK);
    // Files a host reads as configuration are never served.
    for hidden in ["/_headers", "/_redirects", "/.activity-site-output"] {
        fixture.write(hidden.trim_start_matches('/'), "x");
        assert_eq!(
            get(&app, hidden).await.status,
            StatusCode::NOT_FOUND,
            "{hidden}"
        );
        let all = std::collections::BTreeSet::new();
        assert!(
            activity_site::publish::plan::publishable(hidden.trim_start_matches('/'), &all, true)
                .is_none(),
            "{hidden} would be published"
        );
    }
}

/// Issue 36: a path served moments ago is answered from ready headers and
/// bytes, before its path is decoded. Whatever that file was last served
/// for (another representation, a `HEAD`, a 200 before a 304), every answer
/// equals the one a server with a cold cache gives: status, every header,
/// body; with and without live reload.
#[tokio::test]
async fn answers_from_the_cache_equal_the_first_answers() {
    let fixture = Fixture::new();
    let json = "/api/v1/activity/ww.json";
    let cold = |live: bool| server::router(fixture.state().with_live_reload(live));
    let etag = get(&cold(false), json)
        .await
        .header(header::ETAG)
        .to_owned();
    let modified = get(&cold(false), json)
        .await
        .header(header::LAST_MODIFIED)
        .to_owned();
    let weak = format!("W/{etag}");
    type Case<'a> = (&'a str, &'a str, Vec<(&'a str, &'a str)>);
    let cases: Vec<Case> = vec![
        ("GET", json, vec![]),
        ("GET", json, vec![("accept-encoding", "br")]),
        ("GET", json, vec![("accept-encoding", "gzip")]),
        ("GET", json, vec![("accept-encoding", "br;q=0, gzip;q=0")]),
        ("GET", json, vec![("if-none-match", &etag)]),
        ("GET", json, vec![("if-none-match", &weak)]),
        ("GET", json, vec![("if-none-match", "\"nope\"")]),
        ("GET", json, vec![("if-modified-since", &modified)]),
        ("HEAD", json, vec![]),
        ("HEAD", json, vec![("accept-encoding", "br")]),
        (
            "OPTIONS",
            json,
            vec![("access-control-request-headers", "if-none-match")],
        ),
        ("POST", json, vec![]),
        ("GET", "/api/v1//activity/ww.json", vec![]),
        ("GET", "/api/v1/activity/ww%2Ejson", vec![]),
        ("GET", "/api/v1/activity/ww.json/", vec![]),
        ("GET", "/api/v1/activity/ww.ics", vec![]),
        ("GET", "/", vec![]),
        ("GET", "/index.html", vec![]),
        ("GET", "/sr/", vec![]),
        ("GET", "/%73r/", vec![]),
        ("GET", "/sr", vec![]),
        ("GET", "/style.css", vec![("accept-encoding", "br")]),
        ("GET", "/404.html", vec![]),
        ("GET", "/nope", vec![]),
        ("GET", "/api/v1/nope.json", vec![]),
        ("GET", "/_headers", vec![]),
    ];
    for live in [false, true] {
        for (method, path, headers) in &cases {
            let first = send(&cold(live), method, path, headers).await;
            // The same server, with the path (and the 404 page) served
            // before in other shapes.
            let warm = cold(live);
            for (method, extra) in [
                ("GET", &[][..]),
                ("GET", &[("accept-encoding", "br")][..]),
                ("HEAD", &[][..]),
                ("GET", &[("if-none-match", etag.as_str())][..]),
            ] {
                send(&warm, method, path, extra).await;
                send(&warm, method, "/404.html", extra).await;
            }
            for round in 0..2 {
                let again = send(&warm, method, path, headers).await;
                let what = format!("{method} {path} {headers:?}, live {live}, round {round}");
                assert_eq!(again.status, first.status, "{what}");
                assert_eq!(again.headers, first.headers, "{what}");
                assert_eq!(again.body, first.body, "{what}");
            }
        }
    }
}

/// Issue 62, RFC 9727 whole: `HEAD` and `GET /.well-known/api-catalog`
/// carry the catalog's `Link` (relation `api-catalog`), its anchor, the
/// API's base `/api/v1/`, answers a page that names the catalog's links,
/// and `llms.txt`, which the description lists, has the API's CORS and
/// cache policy, as every file of the API does.
#[tokio::test]
async fn the_api_catalog_names_itself_and_its_anchor_and_llms_txt_answer_as_the_api() {
    let root = tempfile::tempdir().unwrap();
    crate::util::copy_tree(
        &crate::util::crate_root().join("tests/fixtures/contract"),
        root.path(),
    );
    let out = root.path().join("site");
    let mut options = BuildOptions::new(root.path(), &out);
    options.cache = None;
    activity_site::site::build(&options).unwrap();
    let app = server::router(ServerState::new(options));
    let link = "</.well-known/api-catalog>; rel=\"api-catalog\"";
    for method in ["HEAD", "GET"] {
        let reply = send(&app, method, "/.well-known/api-catalog", &[]).await;
        assert_eq!(reply.status, StatusCode::OK, "{method}");
        assert_eq!(reply.header(header::LINK), link, "{method}");
        assert_eq!(reply.header(header::ACCESS_CONTROL_ALLOW_ORIGIN), "*");
        assert_eq!(reply.body.is_empty(), method == "HEAD");
    }
    let anchor = get(&app, "/api/v1/").await;
    assert_eq!(anchor.status, StatusCode::OK);
    assert_eq!(
        anchor.header(header::CONTENT_TYPE),
        "text/html; charset=utf-8"
    );
    assert_eq!(anchor.header(header::LINK), link);
    assert!(
        anchor
            .text()
            .contains("<link rel=\"service-desc\" href=\"/api/v1/openapi.json\">"),
        "{}",
        anchor.text()
    );
    let api = get(&app, "/api/v1/games.json").await;
    let llms = get(&app, "/llms.txt").await;
    assert_eq!(llms.status, StatusCode::OK);
    for name in [
        header::ACCESS_CONTROL_ALLOW_ORIGIN,
        header::ACCESS_CONTROL_EXPOSE_HEADERS,
        header::CACHE_CONTROL,
    ] {
        assert_eq!(llms.header(name.clone()), api.header(name));
    }
}

/// Issue 67: `count` games made of the base fixture's one (`g01`, `g02`,
/// ...), each with its own names; gives their ids, in the order git
/// writes their files.
fn many_games(root: &Path, count: usize) -> Vec<String> {
    let path = root.join("games.json");
    let mut registry: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let template = registry["games"][0].clone();
    let template_id = template["id"].as_str().unwrap().to_owned();
    let mut ids = Vec::new();
    for n in 1..=count {
        let id = format!("g{n:02}");
        let mut game = template.clone();
        game["id"] = serde_json::Value::from(id.as_str());
        for (locale, name) in game["name"].clone().as_object().unwrap() {
            game["name"][locale] =
                serde_json::Value::from(format!("{} {n}", name.as_str().unwrap()));
        }
        registry["games"].as_array_mut().unwrap().push(game);
        copy_dir(
            &root.join("data").join(&template_id),
            &root.join("data").join(&id),
        );
        ids.push(id);
    }
    std::fs::write(
        &path,
        serde_json::to_string_pretty(&registry).unwrap() + "\n",
    )
    .unwrap();
    ids
}

/// What a checkout changes in each data file of a game.
const CHECKED_OUT: &str = "checked-out ";

/// Gives the data files of game `id` the checked-out text.
fn check_out_by_hand(root: &Path, id: &str) {
    for entry in std::fs::read_dir(root.join("data").join(id)).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let changed = text.replacen(
            "\"versionName\": \"",
            &format!("\"versionName\": \"{CHECKED_OUT}"),
            1,
        );
        std::fs::write(&path, changed).unwrap();
    }
}

/// Reads the JSON of every game of `ids` in turn, round after round,
/// until one whole round serves each as `wanted` (checked out or not).
/// Gives what each read served, in the order of the reads.
fn read_until(addr: &str, ids: &[String], wanted: bool) -> Vec<(String, bool)> {
    let mut seen = Vec::new();
    eventually_blocking("every game served as checked out or not", || {
        let mut whole = true;
        for id in ids {
            let (status, body) = http_get(addr, &format!("/api/v1/activity/{id}.json"));
            let new = body.contains(CHECKED_OUT);
            whole &= status == 200 && new == wanted;
            seen.push((id.clone(), new));
        }
        holds(whole, || format!("{:?}", seen.last()))
    });
    seen
}

/// The site was served whole: in the reads in time order, once a game was
/// served as `to`, no game (read after it) was served as before.
fn assert_whole(seen: &[(String, bool)], to: bool, step: &str) {
    let first = seen.iter().position(|(_, new)| *new == to);
    if let Some(first) = first
        && let Some((id, _)) = seen[first..].iter().find(|(_, new)| *new != to)
    {
        panic!(
            "{step}: {} served as checked out, then {id} served as before: a half checkout",
            seen[first].0
        );
    }
}

/// Issue 67: a checkout that changes 50 games at once is served whole,
/// never half. A client reads the games in the order git writes them,
/// round after round, while the work tree changes: once it has seen one
/// game of the new tree it never sees one of the old tree again.
///
/// First a git that pauses halfway (its `index.lock` held, 25 games
/// written, the server telling it waits for git): the old site is served
/// whole until the lock goes. Then a real `git checkout` back.
#[test]
fn a_checkout_of_fifty_games_is_served_whole_never_half() {
    let root = crate::util::fixture_root(None);
    let ids = many_games(root.path(), 50);
    let git = |args: &[&str]| crate::util::git(root.path(), args);
    git(&["init", "-q"]);
    git(&["add", "games.json", "data"]);
    git(&["commit", "-q", "-m", "fifty games"]);
    git(&["branch", "changed"]);
    let served = Served::start(root.path());
    let addr = served.addr.clone();
    served.wait_for(
        "/api/v1/activity/g50.json",
        "the first build",
        |status, _| status == 200,
    );

    // A git that pauses halfway through the files, its lock held.
    let lock = root.path().join(".git/index.lock");
    std::fs::File::create_new(&lock).unwrap();
    for id in &ids[..25] {
        check_out_by_hand(root.path(), id);
    }
    wait_until("the server to wait for git", || {
        served
            .stderr()
            .contains("the rebuild waits until it is done")
    });
    let halfway = read_until(&addr, &ids, false);
    assert!(halfway.iter().all(|(_, new)| !new), "{halfway:?}");
    let reader = {
        let (addr, ids) = (addr.clone(), ids.clone());
        std::thread::spawn(move || read_until(&addr, &ids, true))
    };
    for id in &ids[25..] {
        check_out_by_hand(root.path(), id);
    }
    std::fs::remove_file(&lock).unwrap();
    assert_whole(&reader.join().unwrap(), true, "a git paused halfway");

    // Git itself: the tree is the branch's once committed there, and
    // `git checkout` goes back to the first commit's 50 games.
    git(&["checkout", "-q", "changed"]);
    git(&["commit", "-q", "-am", "fifty games changed"]);
    let reader = {
        let (addr, ids) = (addr.clone(), ids.clone());
        std::thread::spawn(move || read_until(&addr, &ids, false))
    };
    git(&["checkout", "-q", "main"]);
    assert_whole(&reader.join().unwrap(), false, "git checkout");
}

/// The pages that list every game, in every locale, of a site of 51
/// games: the first page of each list and the two after it
/// ([`layout::listing_page`]: 20 games a page).
const LISTINGS: [&str; 12] = [
    "index.html",
    "page-2.html",
    "page-3.html",
    "en-US/index.html",
    "en-US/page-2.html",
    "en-US/page-3.html",
    "timeline/index.html",
    "timeline/page-2.html",
    "timeline/page-3.html",
    "en-US/timeline/index.html",
    "en-US/timeline/page-2.html",
    "en-US/timeline/page-3.html",
];

/// Issue 67: at scale the home and timeline pages are cut into pages of
/// 20 games, and a live rebuild after an edit of one game writes the
/// pages that list that game and no other: through the running server,
/// the edited game's pages (home and timeline, each locale) show the
/// edit, and every other page that lists games, and every other game's
/// JSON, is served with the bytes it had, from the same file; and the
/// site is then the one a cold build of the edited tree writes.
#[cfg(unix)]
#[test]
fn a_live_rebuild_after_an_edit_writes_only_the_pages_that_list_the_edited_game() {
    use std::os::unix::fs::MetadataExt as _;

    let root = crate::util::fixture_root(None);
    // `demo`, then g01 to g50: g25 is the sixth game of the second page.
    let ids = many_games(root.path(), 50);
    let served = Served::start(root.path());
    served.wait_for(
        "/api/v1/activity/g50.json",
        "the first build",
        |status, _| status == 200,
    );
    let site = root.path().join("site");
    let read = |path: &str| {
        let (status, body) = http_get(&served.addr, &format!("/{path}"));
        assert_eq!(status, 200, "{path}");
        body
    };
    let ino = |path: &str| std::fs::metadata(site.join(path)).unwrap().ino();
    let listings: Vec<(String, u64)> = LISTINGS.iter().map(|p| (read(p), ino(p))).collect();
    let others: Vec<String> = ids
        .iter()
        .filter(|id| *id != "g25")
        .map(|id| read(&format!("api/v1/activity/{id}.json")))
        .collect();
    // The lists link their pages, and a game to show alone is on its page.
    assert!(listings[1].0.contains("aria-current=\"page\">2</a>"));
    assert!(listings[6].0.contains("href=\"page-2.html#g25\""));
    assert!(listings[7].0.contains("href=\"#g25\""));
    assert!(listings[7].0.contains("href=\"./#g01\""));

    for (locale, name) in [("zh-CN", "星海之歌"), ("en-US", "Song of the Star Sea")] {
        let data = root.path().join(format!("data/g25/{locale}.json"));
        let text = std::fs::read_to_string(&data).unwrap();
        let edited = text.replacen(name, &format!("{name} 改"), 1);
        std::fs::write(&data, edited).unwrap();
        let api = format!("/api/v1/activity/g25-{locale}.json");
        served.wait_for(&api, "the edited JSON", |status, body| {
            status == 200 && body.contains(&format!("{name} 改"))
        });
    }
    let edited = |path: &str| {
        let home = if path.starts_with("en-US/") {
            "Song of the Star Sea 改"
        } else {
            "星海之歌 改"
        };
        read(path).contains(home)
    };
    for (path, (before, inode)) in LISTINGS.iter().zip(&listings) {
        if path.ends_with("page-2.html") {
            assert!(edited(path), "{path} shows the edit");
        } else {
            assert!(!edited(path), "{path} lists no edited game");
            assert_eq!(&read(path), before, "{path} is served as it was");
            assert_eq!(ino(path), *inode, "{path} was not written again");
        }
    }
    let after: Vec<String> = ids
        .iter()
        .filter(|id| *id != "g25")
        .map(|id| read(&format!("api/v1/activity/{id}.json")))
        .collect();
    assert!(after == others, "the other games are served as they were");
    // What the live builds kept (the pages' frames, each game's entry of
    // the index) makes the site a cold build of the edited tree writes.
    wait_until("the edited file's gzip sibling", || {
        site.join("api/v1/activity/g25-en-US.json.gz").is_file()
    });
    assert_live_is_cold(root.path(), "an edit of a game on the second page");
}

/// Issue 67: what a live build keeps between builds of what every game
/// makes (the contract, the reference pages, `llms.txt`) is made again
/// when what it reads changes. After live edits of the first game (whose
/// default document is the example of the OpenAPI description and of the
/// reference pages) and of another, the served site (its compressed
/// siblings and its manifest included) equals a cold build of the tree.
#[test]
fn a_live_build_after_edits_publishes_what_a_fresh_build_writes() {
    let root = crate::util::fixture_root(None);
    many_games(root.path(), 3);
    let served = Served::start(root.path());
    served.wait_for(
        "/api/v1/activity/g03.json",
        "the first build",
        |status, _| status == 200,
    );
    for (game, edit) in [("demo", "星海之歌 一改"), ("g02", "星海之歌 二改")] {
        let data = root.path().join(format!("data/{game}/zh-CN.json"));
        let text = std::fs::read_to_string(&data).unwrap();
        std::fs::write(&data, text.replacen("星海之歌", edit, 1)).unwrap();
        let api = format!("/api/v1/activity/{game}-zh-CN.json");
        served.wait_for(&api, "the edited JSON", |status, body| {
            status == 200 && body.contains(edit)
        });
    }
    assert!(
        std::fs::read_to_string(root.path().join("site/api/v1/openapi.json"))
            .unwrap()
            .contains("一改"),
        "the description's example is the first game's, edited"
    );
    // The edits were served before they were compressed; once the last
    // one's siblings are there, the site equals a cold build.
    wait_until("the last edited file's gzip sibling", || {
        root.path()
            .join("site/api/v1/activity/g02-zh-CN.json.gz")
            .is_file()
    });
    assert_live_is_cold(root.path(), "edits of the first game and another");
}

/// Issue 67: the reference pages' tables that grow with the site (every
/// path with every published name, every game) are kept between live
/// builds by what they read, so an edit of the example alone renders
/// neither again; what changes a table shows on the page. After an edit
/// of the first game (the example), a game renamed in the registry (the
/// games table) and a document removed (the paths table and the games
/// table), each page equals a cold build's.
#[test]
fn the_reference_pages_tables_kept_between_live_builds_follow_what_they_list() {
    let root = crate::util::fixture_root(None);
    many_games(root.path(), 2);
    let served = Served::start(root.path());
    served.wait_for(
        "/api/v1/activity/g02.json",
        "the first build",
        |status, _| status == 200,
    );
    let site = root.path().join("site");
    // A rebuild after an edit writes the pages without their siblings,
    // then adds them: the English page's `.gz` back means it is done.
    let settled = |step: &str| {
        wait_until(
            &format!("{step}: the reference page's gzip sibling"),
            || site.join("en-US/api-reference/index.html.gz").is_file(),
        );
        assert_live_is_cold(root.path(), step);
    };
    settled("first build");

    let data = root.path().join("data/demo/zh-CN.json");
    let text = std::fs::read_to_string(&data).unwrap();
    std::fs::write(&data, text.replacen("星海之歌", "星海之歌 例", 1)).unwrap();
    served.wait_for(
        "/en-US/api-reference/",
        "the example edited",
        |status, body| status == 200 && body.contains("星海之歌 例"),
    );
    settled("the example edited");

    let games_path = root.path().join("games.json");
    let text = std::fs::read_to_string(&games_path).unwrap();
    std::fs::write(&games_path, text.replacen("\"Demo 2\"", "\"Renamed 2\"", 1)).unwrap();
    served.wait_for(
        "/en-US/api-reference/",
        "the game renamed",
        |status, body| status == 200 && body.contains("<td>Renamed 2</td>"),
    );
    settled("a game renamed");

    std::fs::remove_file(root.path().join("data/g01/en-US.json")).unwrap();
    let page = served.wait_for(
        "/en-US/api-reference/",
        "the document removed",
        |status, body| status == 200 && !body.contains("<code>g01-en-US</code>"),
    );
    assert!(
        page.contains("<code>g02-en-US</code>"),
        "the paths table still lists the other documents"
    );
    settled("a document removed");
}
