//! Issue 10 ("Trust") through the router: what a web page, a rebound host
//! name, a wrong body type, a flood or an odd name can do to the server.
//! Process-level faults (SIGKILL, an unwritable disk) live in `faults`.

use std::time::Duration;

use activity_site::server::{self, Limits, ServerState};
use activity_site::site::BuildOptions;
use activity_site_control::api::ApiOptions;
use activity_site_control::guard::AccessOptions;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::harness::{self, Api, FAST, fast, open, send_to};

/// A request with headers (name, value) and an optional raw body.
fn request(method: &str, path: &str, headers: &[(&str, &[u8])], body: &str) -> Request<Body> {
    let mut builder = Request::builder().method(method).uri(path);
    for (name, value) in headers {
        builder = builder.header(*name, axum::http::HeaderValue::from_bytes(value).unwrap());
    }
    builder.body(Body::from(body.to_string())).unwrap()
}

const HOST: (&str, &[u8]) = ("host", b"127.0.0.1:5000");

fn with_origins(origins: &[&str]) -> Api {
    open(
        FAST,
        ApiOptions {
            access: AccessOptions {
                allowed_origins: origins.iter().map(|o| o.to_string()).collect(),
                ..AccessOptions::default()
            },
            ..ApiOptions::default()
        },
    )
}

// Origin.

/// Regression: a cross-site `text/plain` POST from any web page restarted the backend.
#[tokio::test]
async fn a_cross_site_text_plain_post_is_refused() {
    let api = fast();
    let before = api.get("/api/Task/status").await.data()["session_id"].clone();
    let reply = api
        .send(request(
            "POST",
            "/api/Backend/restart",
            &[
                HOST,
                ("origin", b"https://evil.example"),
                ("content-type", b"text/plain"),
            ],
            r#"{"arguments": "--inline"}"#,
        ))
        .await;
    reply.assert_error(StatusCode::FORBIDDEN);
    assert!(reply.message().contains("https://evil.example"));
    assert!(reply.message().contains("--allow-origin"));
    let after = api.get("/api/Task/status").await.data()["session_id"].clone();
    assert_eq!(before, after, "the backend was not restarted");
}

#[tokio::test]
async fn the_own_origin_and_allowed_origins_pass_others_get_403() {
    let api = with_origins(&["http://localhost:5173"]);
    let get =
        |origin: &'static [u8]| request("GET", "/api/Settings", &[HOST, ("origin", origin)], "");
    assert_eq!(
        api.send(get(b"http://127.0.0.1:5000")).await.status,
        StatusCode::OK
    );
    assert_eq!(
        api.send(get(b"http://localhost:5000")).await.status,
        StatusCode::OK
    );
    let allowed = api.send(get(b"http://localhost:5173")).await;
    assert_eq!(allowed.status, StatusCode::OK);
    assert_eq!(
        allowed.headers["access-control-allow-origin"],
        "http://localhost:5173"
    );
    for foreign in [
        &b"http://localhost:5174"[..],
        b"https://evil.example",
        b"null",
        b"http://127.0.0.1:5001",
    ] {
        api.send(request(
            "GET",
            "/api/Settings",
            &[HOST, ("origin", foreign)],
            "",
        ))
        .await
        .assert_error(StatusCode::FORBIDDEN);
    }
}

/// The web UI on its dev server (`http://localhost:5173`) sends a preflight
/// before its token header and JSON bodies; it must pass even with a token
/// set, since browsers send no credentials with a preflight.
#[tokio::test]
async fn a_preflight_from_an_allowed_origin_succeeds_before_the_token() {
    let api = open(
        FAST,
        ApiOptions {
            access_token: Some("s3cret".to_string()),
            access: AccessOptions {
                allowed_origins: vec!["http://localhost:5173".to_string()],
                ..AccessOptions::default()
            },
            ..ApiOptions::default()
        },
    );
    let preflight = |origin: &'static [u8]| {
        request(
            "OPTIONS",
            "/api/Configs/Default",
            &[
                HOST,
                ("origin", origin),
                ("access-control-request-method", b"PUT"),
                (
                    "access-control-request-headers",
                    b"x-access-token,content-type",
                ),
            ],
            "",
        )
    };
    let reply = api.send(preflight(b"http://localhost:5173")).await;
    assert_eq!(reply.status, StatusCode::NO_CONTENT);
    let header = |name: &str| reply.headers[name].to_str().unwrap().to_ascii_lowercase();
    assert_eq!(
        header("access-control-allow-origin"),
        "http://localhost:5173"
    );
    assert!(header("access-control-allow-headers").contains("x-access-token"));
    assert!(header("access-control-allow-headers").contains("content-type"));
    assert!(header("access-control-allow-methods").contains("put"));
    api.send(preflight(b"https://evil.example"))
        .await
        .assert_error(StatusCode::FORBIDDEN);
    // The real request then needs the token as usual.
    let get = request(
        "GET",
        "/api/Configs/Default",
        &[
            HOST,
            ("origin", b"http://localhost:5173"),
            ("x-access-token", b"s3cret"),
        ],
        "",
    );
    let reply = api.send(get).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(
        reply.headers["access-control-allow-origin"],
        "http://localhost:5173"
    );
}

// Host.

/// Regression: a DNS-rebound name read `/api/Settings`, and a `0xFF` byte in
/// `Host` skipped the check so a PUT went through.
#[tokio::test]
async fn rebound_and_malformed_hosts_are_refused_at_the_default() {
    let api = fast();
    let get = |host: &'static [u8]| request("GET", "/api/Settings", &[("host", host)], "");
    for host in [
        &b"localhost"[..],
        b"localhost:5000",
        b"127.0.0.1:5000",
        b"[::1]:5000",
        b"LOCALHOST:1",
    ] {
        assert_eq!(api.send(get(host)).await.status, StatusCode::OK, "{host:?}");
    }
    for host in [
        &b"evil.example"[..],
        b"evil.example:5000",
        b"localhost.evil.example",
        b"192.168.1.10:5000",
        b"",
        b"local host",
        b"localhost:port",
        b"user@localhost",
        b"[::1",
    ] {
        api.send(get(host))
            .await
            .assert_error(StatusCode::FORBIDDEN);
    }
    let before = api.get("/api/Settings").await.data().clone();
    let put = request(
        "PUT",
        "/api/Settings",
        &[
            ("host", b"local\xffhost"),
            ("content-type", b"application/json"),
        ],
        r#"{"advanced": {"backend.remote.enabled": true}}"#,
    );
    api.send(put).await.assert_error(StatusCode::FORBIDDEN);
    assert_eq!(api.get("/api/Settings").await.data(), &before);
}

// Content type.

/// Regression: browsers send `text/plain` bodies cross-site without a preflight.
#[tokio::test]
async fn bodies_that_are_not_json_get_415_and_untyped_bodiless_posts_still_work() {
    let api = fast();
    let settings = r#"{"advanced": {"backend.remote.enabled": true}}"#;
    for content_type in [
        &b"text/plain"[..],
        b"application/x-www-form-urlencoded",
        b"multipart/form-data; boundary=x",
    ] {
        let reply = api
            .send(request(
                "PUT",
                "/api/Settings",
                &[("content-type", content_type)],
                settings,
            ))
            .await;
        reply.assert_error(StatusCode::UNSUPPORTED_MEDIA_TYPE);
        assert!(reply.message().contains("application/json"));
    }
    // A body with no type at all (a browser's untyped Blob).
    api.send(request("PUT", "/api/Settings", &[], settings))
        .await
        .assert_error(StatusCode::UNSUPPORTED_MEDIA_TYPE);
    // JSON with parameters is JSON.
    let reply = api
        .send(request(
            "PUT",
            "/api/Settings",
            &[("content-type", b"Application/JSON; charset=utf-8")],
            settings,
        ))
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.json);
    // Bodiless POSTs need no type.
    for path in [
        "/api/Task/stop",
        "/api/Extensions/reload",
        "/api/Backend/restart",
    ] {
        let reply = api.send(request("POST", path, &[], "")).await;
        assert_eq!(reply.status, StatusCode::OK, "{path}: {}", reply.json);
    }
    // An empty POST labelled as a form is no body: the service's web UI
    // sends its bodiless POSTs through Axios that way (SECURITY.md).
    let reply = api
        .send(request(
            "POST",
            "/api/Task/stop",
            &[("content-type", b"application/x-www-form-urlencoded")],
            "",
        ))
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.json);
    // A body that is not JSON is refused on a route that takes none as well.
    api.send(request(
        "POST",
        "/api/Task/stop",
        &[("content-type", b"text/plain")],
        "x",
    ))
    .await
    .assert_error(StatusCode::UNSUPPORTED_MEDIA_TYPE);
}

// The envelope everywhere under /api/.

fn site_with_api(api: &Api) -> (tempfile::TempDir, axum::Router) {
    let dir = tempfile::tempdir().unwrap();
    let options = BuildOptions::new(dir.path(), dir.path().join("site"));
    let state = ServerState::new(options).with_mounts(api.router.clone());
    (dir, server::router(state))
}

/// Regression: `GET /api/`, `/api/Auth/` and `/api/Nope/Nothing` answered the HTML 404 page.
#[tokio::test]
async fn every_path_under_api_answers_the_envelope() {
    let api = fast();
    let (_dir, app) = site_with_api(&api);
    for path in [
        "/api",
        "/api/",
        "/api/Auth/",
        "/api/Nope/Nothing",
        "/api/Task/status/extra",
        "/aPi/Nope",
        "/API/v1/games.json",
    ] {
        send_to(&app, request("GET", path, &[], ""))
            .await
            .assert_error(StatusCode::NOT_FOUND);
    }
    // The public API stays the static site's: readable from anywhere.
    let public = send_to(
        &app,
        request(
            "GET",
            "/api/v1/games.json",
            &[("origin", b"https://calendar.example")],
            "",
        ),
    )
    .await;
    assert_eq!(public.headers["access-control-allow-origin"], "*");
}

/// Issue 36: the public API is answered before routing; the guard still
/// stands in front of every control path of the whole server, whatever its
/// spelling, and the public API stays readable from anywhere.
#[tokio::test]
async fn the_guard_refuses_foreign_hosts_and_origins_through_the_whole_server() {
    let api = fast();
    let (_dir, app) = site_with_api(&api);
    for path in [
        "/api/Settings",
        "/API/Settings",
        "/aPi/sEtTiNgS",
        "/openapi/v1.json",
    ] {
        let rebound = request("GET", path, &[("host", b"localhost.evil.example")], "");
        send_to(&app, rebound)
            .await
            .assert_error(StatusCode::FORBIDDEN);
        let cross_site = request(
            "GET",
            path,
            &[HOST, ("origin", b"https://evil.example")],
            "",
        );
        send_to(&app, cross_site)
            .await
            .assert_error(StatusCode::FORBIDDEN);
    }
    let own = request("GET", "/api/Settings", &[HOST], "");
    assert_eq!(send_to(&app, own).await.status, StatusCode::OK);
    let public = request(
        "GET",
        "/api/v1/games.json",
        &[
            ("host", b"localhost.evil.example"),
            ("origin", b"https://evil.example"),
        ],
        "",
    );
    let public = send_to(&app, public).await;
    assert_eq!(public.headers["access-control-allow-origin"], "*");
}

/// With a token set, an unauthenticated client learns nothing about which routes exist.
#[tokio::test]
async fn with_a_token_a_protected_path_answers_401_before_404_or_405() {
    let api = open(
        FAST,
        ApiOptions {
            access_token: Some("s3cret".to_string()),
            ..ApiOptions::default()
        },
    );
    let (_dir, app) = site_with_api(&api);
    for (method, path) in [
        ("GET", "/api/Nope/Nothing"),
        ("GET", "/api/"),
        ("GET", "/api/Auth/"),
        ("GET", "/api/Task/run"),
        ("DELETE", "/api/Settings"),
        ("GET", "/api/Configs/Missing"),
    ] {
        send_to(&app, request(method, path, &[], ""))
            .await
            .assert_error(StatusCode::UNAUTHORIZED);
    }
    let with_token = request(
        "GET",
        "/api/Nope/Nothing",
        &[("x-access-token", b"s3cret")],
        "",
    );
    send_to(&app, with_token)
        .await
        .assert_error(StatusCode::NOT_FOUND);
}

// Logs.

/// Regression: one restart with 1 MB of arguments wrote a 1 MB log line, and
/// 60 of them made `GET /api/Backend/logs` return 60 MB; issue 22: the cut
/// lines still held their megabyte. Arguments over the bound are refused
/// (400) before anything keeps them, and lines stay bounded.
#[tokio::test]
async fn log_lines_and_the_log_are_bounded_in_bytes() {
    let api = fast();
    let url = harness::serve(api.router.clone()).await;
    let client = reqwest::Client::new();
    let stream = client
        .get(format!("{url}/api/Backend/logs/stream"))
        .send()
        .await
        .unwrap();
    let mut events = harness::SseReader::new(stream);
    let _connected = events.next().await;
    let before = api.get("/api/Backend/logs?count=100000").await.bytes.len();
    let huge = format!("--unknown-{}", "a".repeat(1_000_000));
    for _ in 0..8 {
        let refused = api
            .post("/api/Backend/restart", json!({"arguments": huge}))
            .await;
        refused.assert_error(StatusCode::BAD_REQUEST);
        assert!(refused.message().contains("4096"), "{}", refused.message());
    }
    assert_eq!(
        api.get("/api/Backend/logs?count=100000").await.bytes.len(),
        before,
        "refused arguments are not logged"
    );
    let longest = format!(
        "--unknown-{}",
        "a".repeat(activity_site_control::MAX_ARGUMENTS_BYTES - 10)
    );
    for _ in 0..8 {
        api.post("/api/Backend/restart", json!({"arguments": longest}))
            .await
            .assert_error(StatusCode::INTERNAL_SERVER_ERROR);
    }
    let logs = api.get("/api/Backend/logs?count=100000").await;
    for line in logs.data().as_array().unwrap() {
        let line = line.as_str().unwrap();
        assert!(line.len() <= 8 * 1024, "a log line of {} bytes", line.len());
    }
    assert!(
        logs.bytes.len() < 8 * 1024 * 1024,
        "{} bytes",
        logs.bytes.len()
    );
    // The stream sends the same bounded lines.
    let (_, data) = events.next_event().await;
    let sent: usize = data.iter().map(String::len).sum();
    assert!(sent <= 8 * 1024, "an event of {sent} bytes");
}

// Credentials and names.

/// Regression: `StartGame.Password` and `startGame.PASSWORD` were returned
/// (the desktop client is .NET, whose JSON binding ignores case).
#[tokio::test]
async fn credentials_are_removed_and_kept_whatever_their_letter_case() {
    let api = fast();
    let body = json!({
        "StartGame": {"Password": "p1", "gamePath": "C:/game"},
        "trailblazePower": {"enabled": true},
    });
    api.post("/api/Configs/Cased", body).await.data();
    let shown = api.get("/api/Configs/Cased").await.data().clone();
    assert_eq!(shown["StartGame"], json!({"gamePath": "C:/game"}));
    // A PUT without the credentials (in another letter case) keeps them.
    api.put(
        "/api/Configs/Cased",
        json!({"startGame": {"gamePath": "D:/game", "USERNAME": "me"}}),
    )
    .await
    .data();
    let shown = api.get("/api/Configs/Cased").await.data().clone();
    assert_eq!(shown, json!({"startGame": {"gamePath": "D:/game"}}));
    let stored: Value = serde_json::from_str(
        &std::fs::read_to_string(api.dir.path().join("state/configs/Cased.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(
        stored["startGame"],
        json!({"gamePath": "D:/game", "USERNAME": "me", "Password": "p1"})
    );
}

#[tokio::test]
async fn names_are_normalised_and_look_alikes_refused() {
    let api = fast();
    // NFD in, NFC stored and listed.
    api.call("POST", "/api/Configs/Cafe%CC%81", None)
        .await
        .data();
    let names = api.get("/api/Configs").await.data().clone();
    assert!(
        names.as_array().unwrap().contains(&json!("Caf\u{e9}")),
        "{names}"
    );
    assert_eq!(
        api.get("/api/Configs/Caf%C3%A9").await.status,
        StatusCode::OK
    );
    for bad in [
        "%EF%BB%BFDaily", // leading BOM
        "Dai%E2%80%8Bly", // zero-width space
        "Daily%E2%80%AE", // right-to-left override
        "Daily.",         // trailing dot
        "Daily%20",       // trailing space
        "CON",            // Windows device names
        "nul.json",
        "Com1",
        "lpt9.txt",
        ".hidden",     // issue 22: a hidden file
        "a%EF%BC%8Fb", // U+FF0F fullwidth solidus
        "a%E2%88%95b", // U+2215 division slash
        "a%E2%A7%B8b", // U+29F8 big solidus
        "a%EF%BC%BCb", // U+FF3C fullwidth reverse solidus
    ] {
        let reply = api.call("POST", &format!("/api/Configs/{bad}"), None).await;
        reply.assert_error(StatusCode::BAD_REQUEST);
    }
    let long = "%C3%A9".repeat(130);
    api.call("POST", &format!("/api/Configs/{long}"), None)
        .await
        .assert_error(StatusCode::BAD_REQUEST);
    // Only the letter case differs from `Default`: one file on Windows.
    let twin = api.call("POST", "/api/Configs/dEFAULT", None).await;
    twin.assert_error(StatusCode::CONFLICT);
    assert!(twin.message().contains("letter case"), "{}", twin.message());
    assert!(twin.message().contains("`Default`"));
    // Extension ids and operator method names follow the same rule.
    api.get("/api/Extensions/daily%E2%80%8B-checkin/schema")
        .await
        .assert_error(StatusCode::BAD_REQUEST);
    api.get("/api/Operator/help/cli%E2%80%AEck")
        .await
        .assert_error(StatusCode::BAD_REQUEST);
    api.get("/api/Operator/help/CON")
        .await
        .assert_error(StatusCode::BAD_REQUEST);
}

// Faults inside the process.

/// A state directory that refuses writes gives a 500 envelope that says
/// what to do, not a generic error. (Tests run as root, for whom
/// permissions do not stop a write: a file stands where the directory was.)
#[tokio::test]
async fn an_unwritable_state_directory_gives_a_clear_500() {
    let api = fast();
    let configs = api.dir.path().join("state/configs");
    let kept = api.dir.path().join("configs-kept");
    std::fs::rename(&configs, &kept).unwrap();
    std::fs::write(&configs, "not a directory").unwrap();
    let reply = api.put("/api/Configs/Default", json!({"a": 1})).await;
    reply.assert_error(StatusCode::INTERNAL_SERVER_ERROR);
    // It names the file by what it holds, never by its server path (issue 37).
    assert!(reply.message().contains("configs"), "{}", reply.message());
    assert!(
        !reply.message().contains(&*api.dir.path().to_string_lossy()),
        "{}",
        reply.message()
    );
    assert!(reply.message().contains("help:"), "{}", reply.message());
    std::fs::remove_file(&configs).unwrap();
    std::fs::rename(&kept, &configs).unwrap();
    assert_eq!(
        api.get("/api/Configs/Default").await.data()["trailblazePower"]["runs"],
        6
    );
}

/// A corrupt state file at start-up is moved aside and the service starts.
#[tokio::test]
async fn corrupt_state_files_are_moved_aside_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    std::fs::create_dir_all(state.join("configs")).unwrap();
    std::fs::write(state.join("settings.json"), "{\"ui\": {").unwrap();
    std::fs::write(state.join("configs/Broken.json"), b"\xff\xfe").unwrap();
    std::fs::write(state.join("configs/Good.json"), "{}").unwrap();
    let api = harness::open_in(dir, FAST, ApiOptions::default());
    assert!(state.join("settings.json.corrupt-1").is_file());
    assert!(state.join("configs/Broken.json.corrupt-1").is_file());
    assert_eq!(
        std::fs::read(state.join("configs/Broken.json.corrupt-1")).unwrap(),
        b"\xff\xfe",
        "moved, not rewritten"
    );
    assert_eq!(api.get("/api/Configs").await.data(), &json!(["Good"]));
    assert!(api.get("/api/Settings").await.data().is_object());
}

// Slow clients.

/// `server::run` on a loopback port with `limits`, serving an empty root.
struct Running {
    addr: std::net::SocketAddr,
    stop: tokio::sync::oneshot::Sender<()>,
    server: tokio::task::JoinHandle<anyhow::Result<()>>,
}

async fn run_with_limits(limits: Limits) -> (tempfile::TempDir, Running) {
    run_with(limits, axum::Router::new()).await
}

/// Like [`run_with_limits`], with `mounts` (the control API) before the site.
async fn run_with(limits: Limits, mounts: axum::Router) -> (tempfile::TempDir, Running) {
    let dir = tempfile::tempdir().unwrap();
    let options = BuildOptions::new(dir.path(), dir.path().join("site"));
    let state = ServerState::new(options)
        .with_limits(limits)
        .with_mounts(mounts);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(server::run(listener, state, async move {
        let _ = stopped.await;
    }));
    (dir, Running { addr, stop, server })
}

impl Running {
    /// Asks for a graceful shutdown and waits (bounded) until it ends.
    async fn shut_down(self) {
        self.stop.send(()).unwrap();
        tokio::time::timeout(Duration::from_secs(60), self.server)
            .await
            .expect("graceful shutdown ends")
            .unwrap()
            .unwrap();
    }
}

/// Regression: a client that sent half a request header held its
/// connection forever. The server closes it after the header deadline and
/// still shuts down gracefully.
#[tokio::test]
async fn a_half_sent_header_is_cut_off_and_shutdown_still_works() {
    let (dir, running) = run_with_limits(Limits {
        header_read_timeout: Duration::from_millis(300),
        max_connections: 4,
        ..Limits::default()
    })
    .await;
    let addr = running.addr;
    let mut slow = tokio::net::TcpStream::connect(addr).await.unwrap();
    slow.write_all(b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
        .await
        .unwrap();
    let mut buffer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(60), slow.read_to_end(&mut buffer))
        .await
        .expect("the server closes a connection that never finishes its header");
    drop(read);
    // A whole request on a new connection is answered.
    let reply = reqwest::get(format!("http://{addr}/nothing-here"))
        .await
        .unwrap();
    assert_eq!(reply.status(), StatusCode::NOT_FOUND.as_u16());
    running.shut_down().await;
    drop(dir);
}

/// Connections are bounded: while one client holds the only slot, a second
/// one is not served; it is as soon as the first leaves.
#[tokio::test]
async fn connections_beyond_the_bound_wait_for_a_free_slot() {
    let (dir, running) = run_with_limits(Limits {
        header_read_timeout: Duration::from_secs(600),
        max_connections: 1,
        ..Limits::default()
    })
    .await;
    let addr = running.addr;
    let ask = b"GET /missing HTTP/1.1\r\nHost: localhost\r\n\r\n";
    // The first client is served and keeps its connection open.
    let mut first = tokio::net::TcpStream::connect(addr).await.unwrap();
    first.write_all(ask).await.unwrap();
    let mut answer = [0u8; 12];
    first.read_exact(&mut answer).await.unwrap();
    assert_eq!(&answer, b"HTTP/1.1 404");
    // The second is accepted by the kernel but not served meanwhile.
    let mut second = tokio::net::TcpStream::connect(addr).await.unwrap();
    second.write_all(ask).await.unwrap();
    let early = tokio::time::timeout(Duration::from_millis(500), second.read(&mut answer)).await;
    assert!(early.is_err(), "a connection beyond the bound was served");
    drop(first);
    tokio::time::timeout(Duration::from_secs(60), second.read_exact(&mut answer))
        .await
        .expect("served once the slot is free")
        .unwrap();
    assert_eq!(&answer, b"HTTP/1.1 404");
    drop(second);
    running.shut_down().await;
    drop(dir);
}

/// Reads what the server answers on `stream` until it closes, bounded so a
/// regression fails instead of hanging (a bound, not a timing assertion).
async fn answer_of(stream: &mut tokio::net::TcpStream) -> String {
    let mut buffer = Vec::new();
    tokio::time::timeout(Duration::from_secs(60), stream.read_to_end(&mut buffer))
        .await
        .expect("the server answers and closes")
        .ok();
    String::from_utf8_lossy(&buffer).into_owned()
}

/// A body that misses the deadline on `/mcp` is told so as on the control
/// API (408, the same words), in a JSON-RPC error; it was a 413 "larger
/// than 1048576 bytes" for a body of 100.
#[tokio::test]
async fn a_late_body_on_mcp_gets_408_in_a_json_rpc_error() {
    let api = fast();
    let mcp = activity_site_control::mcp::router(
        api.control.clone(),
        activity_site_control::mcp::McpOptions::default(),
    );
    let (dir, running) = run_with(
        Limits {
            body_read_timeout: Duration::from_millis(300),
            ..Limits::default()
        },
        api.router.clone().merge(mcp),
    )
    .await;
    let mut answers = Vec::new();
    for path in ["/mcp", "/api/Settings"] {
        let method = if path == "/mcp" { "POST" } else { "PUT" };
        let mut client = tokio::net::TcpStream::connect(running.addr).await.unwrap();
        client
            .write_all(
                format!(
                    "{method} {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
                     Accept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{{"
                )
                .as_bytes(),
            )
            .await
            .unwrap();
        answers.push(answer_of(&mut client).await);
    }
    let (mcp, rest) = (&answers[0], &answers[1]);
    assert!(mcp.starts_with("HTTP/1.1 408"), "{mcp}");
    let body: Value = serde_json::from_str(&mcp[mcp.find("\r\n\r\n").unwrap() + 4..]).unwrap();
    assert_eq!(body["jsonrpc"], "2.0", "{body}");
    assert_eq!(body["id"], Value::Null, "{body}");
    assert_eq!(body["error"]["code"], -32600, "{body}");
    assert!(rest.starts_with("HTTP/1.1 408"), "{rest}");
    let envelope: Value =
        serde_json::from_str(&rest[rest.find("\r\n\r\n").unwrap() + 4..]).unwrap();
    assert_eq!(
        body["error"]["message"], envelope["message"],
        "one meaning, one message"
    );
    running.shut_down().await;
    drop(dir);
}

/// Issue 22: a `Content-Length` over the body limit is refused with a 413
/// envelope at once, not after waiting for a body that is never sent (the
/// body deadline here is long, so only the declared length can explain it).
#[tokio::test]
async fn a_declared_oversized_body_is_refused_at_once() {
    let api = fast();
    let (dir, running) = run_with(
        Limits {
            body_read_timeout: Duration::from_secs(600),
            ..Limits::default()
        },
        api.router.clone(),
    )
    .await;
    let mut client = tokio::net::TcpStream::connect(running.addr).await.unwrap();
    client
        .write_all(
            b"PUT /api/Settings HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 2000000\r\n\r\n{}",
        )
        .await
        .unwrap();
    let answer = answer_of(&mut client).await;
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    let body: Value = serde_json::from_str(answer.split("\r\n\r\n").nth(1).unwrap()).unwrap();
    assert_eq!(body["success"], false);
    assert!(
        body["message"].as_str().unwrap().contains("1048576"),
        "{body}"
    );
    running.shut_down().await;
    drop(dir);
}

/// Issue 22: bodies that stall (a declared length, one byte sent) filled
/// every connection slot forever. Each is cut off at the body deadline with
/// a 408 envelope, and a client that waited for a slot is then served.
#[tokio::test]
async fn stalled_bodies_are_cut_off_and_waiting_clients_are_served() {
    let api = fast();
    let (dir, running) = run_with(
        Limits {
            header_read_timeout: Duration::from_secs(600),
            body_read_timeout: Duration::from_millis(300),
            max_connections: 4,
        },
        api.router.clone(),
    )
    .await;
    let addr = running.addr;
    let mut stalled = Vec::new();
    for _ in 0..6 {
        let mut client = tokio::net::TcpStream::connect(addr).await.unwrap();
        client
            .write_all(
                b"PUT /api/Settings HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
            )
            .await
            .unwrap();
        stalled.push(client);
    }
    let status = reqwest::get(format!("http://{addr}/api/Task/status"))
        .await
        .unwrap();
    assert_eq!(status.status(), StatusCode::OK.as_u16());
    for mut client in stalled {
        let answer = answer_of(&mut client).await;
        assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
        assert!(answer.contains("\"success\":false"), "{answer}");
    }
    assert_eq!(
        api.get("/api/Settings").await.data(),
        &activity_site_control::default_settings(),
        "nothing half-sent was stored"
    );
    running.shut_down().await;
    drop(dir);
}
