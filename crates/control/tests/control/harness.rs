//! Helpers of the control tests: a router over a temporary state directory,
//! one-shot requests, a real server on 127.0.0.1:0 and an SSE reader.
#![allow(dead_code)]

use std::time::{Duration, Instant};

use activity_site_control::Control;
use activity_site_control::api::{self, ApiOptions};
use axum::Router;
use axum::body::Body;
use axum::http::{HeaderMap, Method, Request, StatusCode};
use serde_json::Value;
use tower::ServiceExt;

/// How long a test waits for something that happens asynchronously (a log
/// line, an event, a rebuild, a child process) before it fails: generous,
/// so that a loaded machine makes a test slow, never wrong.
pub const PATIENCE: Duration = Duration::from_secs(90);

/// How often a wait looks again.
const POLL: Duration = Duration::from_millis(20);

/// Calls `probe` until it returns `Ok`, and returns that value; fails the
/// test after [`PATIENCE`] with `what` and the last `Err` (what was seen).
/// Every test that checks something asynchronous waits through this (or
/// [`eventually_blocking`]) instead of reading once.
pub async fn eventually<T, F, Fut>(what: &str, mut probe: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T, String>>,
{
    let deadline = Instant::now() + PATIENCE;
    loop {
        match probe().await {
            Ok(value) => return value,
            Err(seen) => assert!(
                Instant::now() < deadline,
                "waited {PATIENCE:?} for {what}; last seen: {seen}"
            ),
        }
        tokio::time::sleep(POLL).await;
    }
}

/// [`eventually`] for tests without a runtime: sleeps the thread between calls.
pub fn eventually_blocking<T>(what: &str, mut probe: impl FnMut() -> Result<T, String>) -> T {
    let deadline = Instant::now() + PATIENCE;
    loop {
        match probe() {
            Ok(value) => return value,
            Err(seen) => assert!(
                Instant::now() < deadline,
                "waited {PATIENCE:?} for {what}; last seen: {seen}"
            ),
        }
        std::thread::sleep(POLL);
    }
}

/// `Ok(())` when `condition` holds, else `Err` with `seen`: the probe of a
/// wait whose value does not matter.
pub fn holds(condition: bool, seen: impl FnOnce() -> String) -> Result<(), String> {
    if condition { Ok(()) } else { Err(seen()) }
}

/// Backend arguments with short steps, so task runs finish quickly.
pub const FAST: &str = "--inline --no-admin --step-ms=15";

/// A control core and its router over a temporary state directory.
pub struct Api {
    pub control: Control,
    pub router: Router,
    pub dir: tempfile::TempDir,
}

/// A response: status, headers, body bytes and the body as JSON (Null if not JSON).
pub struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub bytes: Vec<u8>,
    pub json: Value,
}

impl Reply {
    pub fn message(&self) -> &str {
        self.json["message"].as_str().unwrap_or("")
    }

    /// Asserts the envelope of an error with `status`.
    #[track_caller]
    pub fn assert_error(&self, status: StatusCode) -> &Self {
        assert_eq!(self.status, status, "body: {}", self.json);
        assert_eq!(self.json["success"], false, "body: {}", self.json);
        assert!(!self.message().is_empty(), "an error says what went wrong");
        let content_type = self.headers["content-type"].to_str().unwrap();
        assert!(
            content_type.starts_with("application/json"),
            "{content_type}"
        );
        self
    }

    /// Asserts a successful envelope and returns `data`.
    #[track_caller]
    pub fn data(&self) -> &Value {
        assert_eq!(self.status, StatusCode::OK, "body: {}", self.json);
        assert_eq!(self.json["success"], true, "body: {}", self.json);
        assert_eq!(self.json["message"], "success", "body: {}", self.json);
        &self.json["data"]
    }
}

pub fn open(arguments: &str, options: ApiOptions) -> Api {
    let dir = tempfile::tempdir().unwrap();
    open_in(dir, arguments, options)
}

pub fn open_in(dir: tempfile::TempDir, arguments: &str, options: ApiOptions) -> Api {
    let mut control_options = crate::util::control_options(dir.path().join("state"));
    control_options.backend_arguments = arguments.to_string();
    let control = Control::open(control_options).unwrap();
    let router = api::router(control.clone(), options);
    Api {
        control,
        router,
        dir,
    }
}

/// An API with fast steps and no token.
pub fn fast() -> Api {
    open(FAST, ApiOptions::default())
}

/// Sends `request` through any router (the control API alone, or the whole
/// `serve` router) without a socket, and reads the whole answer.
pub async fn send_to(router: &Router, request: Request<Body>) -> Reply {
    let response = router.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .unwrap()
        .to_vec();
    let json = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    Reply {
        status,
        headers,
        bytes,
        json,
    }
}

impl Api {
    pub async fn send(&self, request: Request<Body>) -> Reply {
        send_to(&self.router, request).await
    }

    /// A request with an optional JSON body.
    pub async fn call(&self, method: &str, path: &str, body: Option<Value>) -> Reply {
        let builder = Request::builder()
            .method(Method::from_bytes(method.as_bytes()).unwrap())
            .uri(path);
        let request = match body {
            Some(body) => builder
                .header("content-type", "application/json")
                .body(Body::from(body.to_string())),
            None => builder.body(Body::empty()),
        };
        self.send(request.unwrap()).await
    }

    /// A request with a raw body.
    pub async fn raw(&self, method: &str, path: &str, body: impl Into<Body>) -> Reply {
        let request = Request::builder()
            .method(Method::from_bytes(method.as_bytes()).unwrap())
            .uri(path)
            .header("content-type", "application/json")
            .body(body.into())
            .unwrap();
        self.send(request).await
    }

    pub async fn get(&self, path: &str) -> Reply {
        self.call("GET", path, None).await
    }

    pub async fn post(&self, path: &str, body: Value) -> Reply {
        self.call("POST", path, Some(body)).await
    }

    pub async fn put(&self, path: &str, body: Value) -> Reply {
        self.call("PUT", path, Some(body)).await
    }

    /// Polls the task status until `status` is one of `wanted`.
    pub async fn wait_for(&self, wanted: &[&str]) -> Value {
        eventually(&format!("a status in {wanted:?}"), || async move {
            let data = self.get("/api/Task/status").await.data().clone();
            if wanted.contains(&data["status"].as_str().unwrap_or("")) {
                Ok(data)
            } else {
                Err(data.to_string())
            }
        })
        .await
    }
}

/// Serves `router` on 127.0.0.1:0; returns the base URL.
pub async fn serve(router: Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move {
        axum::serve(listener, router).await.unwrap();
    });
    format!("http://{address}")
}

/// One parsed server-sent event (or comment).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Frame {
    Comment(String),
    Event {
        id: Option<String>,
        data: Vec<String>,
    },
}

/// Reads SSE frames from a streaming response.
pub struct SseReader {
    response: reqwest::Response,
    buffer: String,
}

impl SseReader {
    pub fn new(response: reqwest::Response) -> SseReader {
        SseReader {
            response,
            buffer: String::new(),
        }
    }

    /// The next frame, failing the test after a generous timeout.
    pub async fn next(&mut self) -> Frame {
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..end + 2).collect();
                return parse_frame(block.trim_end_matches('\n'));
            }
            let chunk = tokio::time::timeout(PATIENCE, self.response.chunk())
                .await
                .expect("the stream sends within the tests' patience")
                .expect("the stream is readable")
                .expect("the stream stays open");
            self.buffer.push_str(std::str::from_utf8(&chunk).unwrap());
        }
    }

    /// The next event that is not a comment.
    pub async fn next_event(&mut self) -> (Option<String>, Vec<String>) {
        loop {
            if let Frame::Event { id, data } = self.next().await {
                return (id, data);
            }
        }
    }
}

fn parse_frame(block: &str) -> Frame {
    let mut id = None;
    let mut data = Vec::new();
    let mut comment = None;
    for line in block.split('\n') {
        if let Some(text) = line.strip_prefix(':') {
            comment = Some(text.trim().to_string());
        } else if let Some(value) = line.strip_prefix("id:") {
            id = Some(value.trim_start().to_string());
        } else if let Some(value) = line.strip_prefix("data:") {
            data.push(value.strip_prefix(' ').unwrap_or(value).to_string());
        } else {
            panic!("unexpected SSE line {line:?} in {block:?}");
        }
    }
    match (comment, data.is_empty()) {
        (Some(text), true) if id.is_none() => Frame::Comment(text),
        _ => Frame::Event { id, data },
    }
}

impl Reply {
    /// Asserts a successful envelope, with or without data.
    #[track_caller]
    pub fn data_or_empty(&self) {
        assert_eq!(self.status, StatusCode::OK, "body: {}", self.json);
        assert_eq!(self.json["success"], true, "body: {}", self.json);
    }
}

impl Api {
    /// The last 2,000 lines of `GET /api/Backend/logs`.
    pub async fn log_lines(&self) -> Vec<String> {
        let logs = self.get("/api/Backend/logs?count=2000").await;
        serde_json::from_value(logs.data().clone()).unwrap()
    }

    /// Polls `GET /api/Backend/logs` until a line contains `text`; returns
    /// the lines of that read.
    pub async fn wait_for_log(&self, text: &str) -> Vec<String> {
        self.wait_for_logs(&format!("a log line containing {text:?}"), |lines| {
            lines.iter().any(|l| l.contains(text))
        })
        .await
    }

    /// Polls `GET /api/Backend/logs` until `done` accepts its lines; returns them.
    pub async fn wait_for_logs(&self, what: &str, done: impl Fn(&[String]) -> bool) -> Vec<String> {
        let done = &done;
        eventually(what, || async move {
            let lines = self.log_lines().await;
            if done(&lines) {
                Ok(lines)
            } else {
                let tail = lines.len().saturating_sub(30);
                Err(lines[tail..].join("\n"))
            }
        })
        .await
    }
}

/// The parent pid of `pid`, from `/proc/PID/stat`; `None` once it is gone.
pub fn parent_of(pid: u64) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // `pid (comm) state ppid ...`; comm may hold spaces, so split after `)`.
    let rest = &stat[stat.rfind(')')? + 2..];
    let mut fields = rest.split_whitespace();
    let state = fields.next()?;
    if state == "Z" {
        return None;
    }
    fields.next()?.parse().ok()
}

/// Waits until `pid` is no longer a live process.
pub async fn wait_gone(pid: u64) {
    eventually(&format!("process {pid} to end"), || async move {
        holds(parent_of(pid).is_none(), || "still alive".to_string())
    })
    .await
}
