//! `/mcp` over streamable HTTP on loopback: a hand-written MCP client (reqwest)
//! initialises a session, lists the tools and calls each one; foreign `Origin`
//! and `Host` headers are refused.

use std::net::SocketAddr;
use std::time::Duration;

use base64::Engine;
use serde_json::{Value, json};

use activity_site_control::Control;
use activity_site_control::api;
use activity_site_control::guard::AccessOptions;
use activity_site_control::mcp::{self as control_mcp, McpOptions};

use crate::control::harness::{eventually, holds};

/// A running `/mcp` server on `127.0.0.1:0` and its state directory.
struct Server {
    addr: SocketAddr,
    _state: tempfile::TempDir,
    shutdown: tokio_util::sync::CancellationToken,
    /// The control core the server uses, to compare with the REST API.
    control: Control,
    /// The `axum::serve` task; it ends after a graceful shutdown.
    task: Option<tokio::task::JoinHandle<()>>,
}

impl Drop for Server {
    fn drop(&mut self) {
        self.shutdown.cancel();
    }
}

async fn start(allowed_hosts: &str) -> Server {
    start_with(McpOptions {
        access: AccessOptions {
            allowed_hosts: allowed_hosts.to_string(),
            ..AccessOptions::default()
        },
        ..McpOptions::default()
    })
    .await
}

async fn start_with(mcp_options: McpOptions) -> Server {
    let state = tempfile::tempdir().expect("temp dir");
    let mut options = crate::util::control_options(state.path());
    options.backend_arguments = "--inline --no-admin --step-ms=20".to_string();
    let control = Control::open(options).expect("control opens on an empty state dir");
    let shutdown = tokio_util::sync::CancellationToken::new();
    let options = McpOptions {
        shutdown: shutdown.clone(),
        ..mcp_options
    };
    let app = control_mcp::router(control.clone(), options);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind loopback");
    let addr = listener.local_addr().expect("bound address");
    let stop = shutdown.clone();
    let task = tokio::spawn(async move {
        axum::serve(listener, app)
            .with_graceful_shutdown(stop.cancelled_owned())
            .await
            .expect("server runs");
    });
    Server {
        addr,
        control,
        _state: state,
        shutdown,
        task: Some(task),
    }
}

/// A minimal MCP client over streamable HTTP: JSON-RPC POSTs carrying the
/// session id, answers read from either a JSON or an event-stream body.
struct Client {
    http: reqwest::Client,
    url: String,
    session: Option<String>,
    protocol: Option<String>,
    next_id: u64,
}

impl Client {
    fn new(server: &Server) -> Self {
        Client {
            http: reqwest::Client::builder()
                .timeout(Duration::from_secs(60))
                .build()
                .expect("client"),
            url: format!("http://{}/mcp", server.addr),
            session: None,
            protocol: None,
            next_id: 1,
        }
    }

    fn post(&self, body: &Value) -> reqwest::RequestBuilder {
        let mut request = self
            .http
            .post(&self.url)
            .header("Accept", "application/json, text/event-stream")
            .json(body);
        if let Some(session) = &self.session {
            request = request.header("Mcp-Session-Id", session);
        }
        if let Some(protocol) = &self.protocol {
            request = request.header("MCP-Protocol-Version", protocol);
        }
        request
    }

    /// Sends a request and returns its JSON-RPC response object.
    async fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let response = self.post(&body).send().await.expect("request sent");
        assert_eq!(response.status(), 200, "{method} answered");
        if let Some(session) = response.headers().get("mcp-session-id") {
            self.session = Some(session.to_str().expect("ascii session id").to_string());
        }
        let is_sse = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("text/event-stream"));
        let text = response.text().await.expect("body read");
        let messages = if is_sse {
            sse_messages(&text)
        } else {
            vec![serde_json::from_str(&text).expect("JSON body")]
        };
        messages
            .into_iter()
            .find(|m| m["id"] == json!(id))
            .unwrap_or_else(|| panic!("no response to {method} in {text}"))
    }

    async fn notify(&self, method: &str) {
        let body = json!({"jsonrpc": "2.0", "method": method});
        let response = self.post(&body).send().await.expect("notification sent");
        assert_eq!(response.status(), 202, "{method} accepted");
    }

    /// `initialize` then `notifications/initialized`; returns the result.
    async fn initialize(&mut self, version: &str) -> Value {
        let response = self
            .request(
                "initialize",
                json!({
                    "protocolVersion": version,
                    "capabilities": {},
                    "clientInfo": {"name": "tests", "version": "0"},
                }),
            )
            .await;
        let result = response["result"].clone();
        self.protocol = result["protocolVersion"].as_str().map(str::to_string);
        self.notify("notifications/initialized").await;
        result
    }

    /// Calls a tool and returns the `CallToolResult`.
    async fn call(&mut self, name: &str, arguments: Value) -> Value {
        let response = self
            .request("tools/call", json!({"name": name, "arguments": arguments}))
            .await;
        assert!(
            response.get("error").is_none(),
            "{name} gave a protocol error: {response}"
        );
        response["result"].clone()
    }
}

/// The JSON messages of an event-stream body (priming events have no data).
fn sse_messages(text: &str) -> Vec<Value> {
    text.split("\n\n")
        .filter_map(|event| {
            let data: Vec<&str> = event
                .lines()
                .filter_map(|line| line.strip_prefix("data:"))
                .map(|d| d.strip_prefix(' ').unwrap_or(d))
                .collect();
            let data = data.join("\n");
            (!data.trim().is_empty()).then(|| serde_json::from_str(&data).expect("JSON event"))
        })
        .collect()
}

/// The text of the first content block of a tool result.
fn text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().unwrap_or_default()
}

/// The JSON a tool returned as text.
fn json_of(result: &Value) -> Value {
    assert_eq!(result["isError"], json!(false), "tool failed: {result}");
    serde_json::from_str(text(result)).expect("tool text is JSON")
}

fn assert_tool_error(result: &Value, needle: &str) {
    assert_eq!(
        result["isError"],
        json!(true),
        "expected a tool error: {result}"
    );
    assert!(
        text(result).contains(needle),
        "`{}` does not mention `{needle}`",
        text(result)
    );
}

async fn session(allowed_hosts: &str) -> (Server, Client) {
    let server = start(allowed_hosts).await;
    let mut client = Client::new(&server);
    client.initialize("2025-06-18").await;
    (server, client)
}

/// Polls `task_status` until it leaves `running`/`stopping`; generous bound.
async fn wait_until_settled(client: &mut Client) -> Value {
    let client = &tokio::sync::Mutex::new(client);
    eventually("the task to settle", || async move {
        let status = json_of(&client.lock().await.call("task_status", json!({})).await);
        let state = status["status"].as_str().unwrap_or_default();
        holds(state != "running" && state != "stopping", || {
            status.to_string()
        })
        .map(|()| status.clone())
    })
    .await
}

const TOOLS: &[&str] = &[
    "backend_restart",
    "configs_get",
    "configs_list",
    "extensions_list",
    "extensions_run",
    "extensions_stop",
    "logs_recent",
    "operator_call",
    "operator_help",
    "operator_list",
    "operator_screenshot",
    "task_list",
    "task_run",
    "task_single",
    "task_status",
    "task_stop",
];

#[tokio::test]
async fn initialize_names_the_server_and_accepts_current_protocol_versions() {
    let server = start("*").await;
    for version in ["2025-03-26", "2025-06-18", "2025-11-25"] {
        let mut client = Client::new(&server);
        let result = client.initialize(version).await;
        assert_eq!(result["protocolVersion"], json!(version));
        assert_eq!(result["serverInfo"]["name"], json!("activity-site"));
        assert_eq!(
            result["serverInfo"]["version"],
            json!(env!("CARGO_PKG_VERSION"))
        );
        assert!(result["capabilities"]["tools"].is_object());
        assert!(client.session.is_some(), "a session id is issued");
    }
}

#[tokio::test]
async fn tools_list_describes_every_tool_with_a_schema() {
    let (_server, mut client) = session("*").await;
    let response = client.request("tools/list", json!({})).await;
    let tools = response["result"]["tools"].as_array().expect("tools");
    let mut names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
    names.sort_unstable();
    assert_eq!(names, TOOLS);
    for tool in tools {
        let description = tool["description"].as_str().unwrap_or_default();
        assert!(description.len() > 20, "{} is described", tool["name"]);
        assert_eq!(tool["inputSchema"]["type"], json!("object"), "{tool}");
    }
    let run = tools
        .iter()
        .find(|t| t["name"] == "task_run")
        .expect("task_run");
    assert_eq!(run["inputSchema"]["required"], json!(["configName"]));
}

#[tokio::test]
async fn a_configuration_runs_to_completion() {
    let (_server, mut client) = session("*").await;
    let restart = client
        .call(
            "backend_restart",
            json!({"arguments": "--inline --no-admin --step-ms=10"}),
        )
        .await;
    assert_eq!(restart["isError"], json!(false), "{restart}");

    let status = json_of(&client.call("task_status", json!({})).await);
    assert_eq!(status["status"], json!("idle"));

    let names = json_of(&client.call("configs_list", json!({})).await);
    let name = names[0]
        .as_str()
        .expect("a default configuration exists")
        .to_string();
    let config = json_of(
        &client
            .call("configs_get", json!({"configName": name}))
            .await,
    );
    assert!(config["startGame"].is_object(), "{config}");

    let run = client.call("task_run", json!({"configName": name})).await;
    assert_eq!(run["isError"], json!(false), "{run}");
    let done = wait_until_settled(&mut client).await;
    assert_eq!(done["status"], json!("completed"), "{done}");

    let logs = json_of(&client.call("logs_recent", json!({"count": 5})).await);
    let logs = logs.as_array().expect("log lines");
    assert!(!logs.is_empty() && logs.len() <= 5, "{logs:?}");
}

#[tokio::test]
async fn single_task_and_stop() {
    let (_server, mut client) = session("*").await;
    let tasks = json_of(&client.call("task_list", json!({})).await);
    let tasks = tasks.as_array().expect("task list");
    assert_eq!(tasks.len(), 5);
    assert!(
        tasks
            .iter()
            .any(|t| t.to_string().contains("ReceiveRewardsTask"))
    );

    // Long steps keep the task running while the next calls are made.
    let restart = client
        .call(
            "backend_restart",
            json!({"arguments": "--inline --no-admin --step-ms=60000"}),
        )
        .await;
    assert_eq!(restart["isError"], json!(false), "{restart}");
    let single = client
        .call("task_single", json!({"taskName": "ReceiveRewardsTask"}))
        .await;
    assert_eq!(single["isError"], json!(false), "{single}");
    let status = json_of(&client.call("task_status", json!({})).await);
    assert_eq!(status["status"], json!("running"), "{status}");
    assert!(
        status["progress"]
            .as_str()
            .unwrap_or_default()
            .contains("ReceiveRewardsTask"),
        "{status}"
    );

    let names = json_of(&client.call("configs_list", json!({})).await);
    let busy = client
        .call("task_run", json!({"configName": names[0]}))
        .await;
    assert_tool_error(&busy, "already running");

    let stop = client.call("task_stop", json!({})).await;
    assert_eq!(stop["isError"], json!(false), "{stop}");
    let settled = wait_until_settled(&mut client).await;
    assert_eq!(settled["status"], json!("stopped"), "{settled}");
}

/// The `message` of the REST API's error envelope for the same failure.
async fn rest_message(control: &Control, method: &str, path: &str, body: Value) -> String {
    use tower::ServiceExt;
    let request = axum::http::Request::builder()
        .method(method)
        .uri(path)
        .header("Host", "localhost")
        .header("Content-Type", "application/json")
        .body(axum::body::Body::from(body.to_string()))
        .expect("request");
    let response = api::router(control.clone(), api::ApiOptions::default())
        .oneshot(request)
        .await
        .expect("answered");
    assert!(!response.status().is_success(), "{method} {path} failed");
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
        .await
        .expect("body");
    let envelope: Value = serde_json::from_slice(&bytes).expect("envelope");
    envelope["message"].as_str().expect("message").to_string()
}

#[tokio::test]
async fn failures_are_tool_errors_with_the_rest_messages() {
    let (server, mut client) = session("*").await;
    let control = &server.control;
    let cases = [
        (
            "configs_get",
            json!({"configName": "does-not-exist"}),
            ("GET", "/api/Configs/does-not-exist", json!(null)),
        ),
        (
            "task_run",
            json!({"configName": "does-not-exist"}),
            (
                "POST",
                "/api/Task/run",
                json!({"configName": "does-not-exist"}),
            ),
        ),
        (
            "backend_restart",
            json!({"arguments": "--no-such-flag"}),
            (
                "POST",
                "/api/Backend/restart",
                json!({"arguments": "--no-such-flag"}),
            ),
        ),
        (
            "operator_call",
            json!({"method": ""}),
            ("POST", "/api/Operator/call", json!({"method": ""})),
        ),
        (
            "operator_help",
            json!({"method": "launchProgram"}),
            ("GET", "/api/Operator/help/launchProgram", json!(null)),
        ),
    ];
    for (tool, arguments, (method, path, body)) in cases {
        let result = client.call(tool, arguments).await;
        let expected = rest_message(control, method, path, body).await;
        assert_eq!(result["isError"], json!(true), "{tool}: {result}");
        assert_eq!(text(&result), expected, "{tool} says what {path} says");
    }

    // Arguments that do not fit the schema are tool errors too, so an agent
    // can correct itself.
    let wrong = client.call("task_run", json!({"configName": 7})).await;
    assert_eq!(wrong["isError"], json!(true), "{wrong}");
    let absent = client.call("configs_get", json!({})).await;
    assert_eq!(absent["isError"], json!(true), "{absent}");
}

#[tokio::test]
async fn screenshot_is_a_720p_png_image() {
    let (_server, mut client) = session("*").await;
    let result = client.call("operator_screenshot", json!({})).await;
    assert_eq!(result["isError"], json!(false), "{result}");
    let image = &result["content"][0];
    assert_eq!(image["type"], json!("image"));
    assert_eq!(image["mimeType"], json!("image/png"));
    let png = base64::engine::general_purpose::STANDARD
        .decode(image["data"].as_str().expect("base64 data"))
        .expect("valid base64");
    let decoder = png::Decoder::new(std::io::Cursor::new(png));
    let reader = decoder.read_info().expect("a PNG");
    assert_eq!((reader.info().width, reader.info().height), (1280, 720));
}

#[tokio::test]
async fn operator_and_extension_tools_answer() {
    let (_server, mut client) = session("*").await;
    let methods = json_of(&client.call("operator_list", json!({})).await);
    let first = methods
        .as_array()
        .and_then(|m| m.first())
        .cloned()
        .expect("at least one operator method");
    let method = first
        .as_str()
        .map(str::to_string)
        .or_else(|| first["name"].as_str().map(str::to_string))
        .expect("a method name");
    let help = client
        .call("operator_help", json!({"method": method}))
        .await;
    assert_eq!(help["isError"], json!(false), "{help}");
    let unknown = client
        .call("operator_help", json!({"method": "launchProgram"}))
        .await;
    assert_tool_error(&unknown, "launchProgram");

    let state = client
        .call("operator_call", json!({"method": "get_window_state"}))
        .await;
    assert_eq!(state["isError"], json!(false), "{state}");
    let bad = client
        .call(
            "operator_call",
            json!({"method": "click", "params": {"x": "left"}}),
        )
        .await;
    assert_eq!(bad["isError"], json!(true), "{bad}");

    let extensions = json_of(&client.call("extensions_list", json!({})).await);
    let id = extensions[0]["id"]
        .as_str()
        .expect("a seeded extension")
        .to_string();
    let run = client.call("extensions_run", json!({"id": id})).await;
    assert_eq!(run["isError"], json!(false), "{run}");
    let stop = json_of(&client.call("extensions_stop", json!({"id": id})).await);
    assert_eq!(stop["id"], json!(id));
    let run = client
        .call("extensions_run", json!({"id": "missing"}))
        .await;
    assert_tool_error(&run, "missing");
    let stop = client
        .call("extensions_stop", json!({"id": "missing"}))
        .await;
    assert_tool_error(&stop, "missing");
}

#[tokio::test]
async fn foreign_origin_is_refused() {
    let server = start("*").await;
    let client = Client::new(&server);
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "page", "version": "0"}}});
    let refused = client
        .post(&init)
        .header("Origin", "https://evil.example")
        .send()
        .await
        .expect("sent");
    assert_eq!(refused.status(), 403);
    let body: Value = refused.json().await.expect("JSON error body");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("evil.example")
    );

    let local = client
        .post(&init)
        .header("Origin", format!("http://localhost:{}", server.addr.port()))
        .send()
        .await
        .expect("sent");
    assert_eq!(local.status(), 200);
}

#[tokio::test]
async fn hosts_outside_allowed_hosts_are_refused() {
    let server = start("example.com;*.example.org").await;
    let client = Client::new(&server);
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "rebinding", "version": "0"}}});
    for (host, status) in [
        ("evil.example", 403),
        ("example.com:5000", 200),
        ("api.example.org", 200),
        ("example.org", 403),
    ] {
        let response = client
            .post(&init)
            .header("Host", host)
            .send()
            .await
            .expect("sent");
        assert_eq!(response.status(), status, "Host: {host}");
    }
}

/// The 2026-07-28 revision has no handshake: `server/discover`, then requests
/// that each carry the version, client info and capabilities in `_meta`.
#[tokio::test]
async fn the_sessionless_revision_discovers_and_calls_tools() {
    let server = start("*").await;
    let client = Client::new(&server);
    let version = "2026-07-28";
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientInfo": {"name": "tests", "version": "0"},
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    let post = |body: Value, method: &str, name: Option<&str>| {
        let mut request = client
            .post(&body)
            .header("MCP-Protocol-Version", version)
            .header("Mcp-Method", method);
        if let Some(name) = name {
            request = request.header("Mcp-Name", name);
        }
        request.send()
    };
    let discover = json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover",
        "params": {"_meta": meta}});
    let response = post(discover, "server/discover", None).await.expect("sent");
    assert_eq!(response.status(), 200);
    let body = response.text().await.expect("body");
    let result = &sse_or_json(&body)["result"];
    assert!(
        result["supportedVersions"]
            .as_array()
            .is_some_and(|v| v.contains(&json!(version)) && v.contains(&json!("2025-06-18"))),
        "{result}"
    );
    assert_eq!(
        result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        json!("activity-site")
    );

    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "task_status", "arguments": {}, "_meta": meta}});
    let response = post(call, "tools/call", Some("task_status"))
        .await
        .expect("sent");
    assert_eq!(response.status(), 200);
    let body = response.text().await.expect("body");
    let result = &sse_or_json(&body)["result"];
    let status: Value = serde_json::from_str(text(result)).expect("JSON status");
    assert!(status["status"].is_string(), "{status}");
}

/// One JSON-RPC message from a body that is either JSON or an event stream.
fn sse_or_json(body: &str) -> Value {
    serde_json::from_str(body)
        .unwrap_or_else(|_| sse_messages(body).into_iter().next().expect("one message"))
}

#[tokio::test]
async fn delete_ends_the_session() {
    let (_server, client) = session("*").await;
    let session_id = client.session.clone().expect("a session id");
    let ended = client
        .http
        .delete(&client.url)
        .header("Mcp-Session-Id", &session_id)
        .send()
        .await
        .expect("sent");
    assert_eq!(ended.status(), 204);
    let body = json!({"jsonrpc": "2.0", "id": 9, "method": "tools/list", "params": {}});
    let gone = client.post(&body).send().await.expect("sent");
    assert_eq!(gone.status(), 404, "the session no longer exists");
}

/// An agent's open event stream must not hold a graceful shutdown forever.
#[tokio::test]
async fn shutdown_ends_open_event_streams() {
    let (mut server, client) = session("*").await;
    let stream = client
        .http
        .get(&client.url)
        .header("Accept", "text/event-stream")
        .header("Mcp-Session-Id", client.session.clone().expect("session"))
        .send()
        .await
        .expect("stream opened");
    assert_eq!(stream.status(), 200);
    server.shutdown.cancel();
    let task = server.task.take().expect("server task");
    tokio::time::timeout(Duration::from_secs(60), task)
        .await
        .expect("the server stopped despite the open stream")
        .expect("server task ended cleanly");
    drop(stream);
}

/// An agent can rehearse a failure through the simulator's options.
#[tokio::test]
async fn a_task_made_to_fail_reports_failed() {
    let (_server, mut client) = session("*").await;
    let restart = client
        .call(
            "backend_restart",
            json!({"arguments": "--inline --no-admin --step-ms=10 --fail-task=ReceiveRewardsTask"}),
        )
        .await;
    assert_eq!(restart["isError"], json!(false), "{restart}");
    let single = client.call("task_single", json!({"taskName": "2"})).await;
    assert_eq!(single["isError"], json!(false), "{single}");
    let settled = wait_until_settled(&mut client).await;
    assert_eq!(settled["status"], json!("failed"), "{settled}");
}

/// Regression (issue 10): 4,000 `initialize` requests used to keep 4,000
/// sessions (about 490 MB) for good. Live sessions are bounded, the one over
/// the bound gets a JSON-RPC error, and idle sessions expire so new ones fit.
#[tokio::test]
async fn sessions_are_bounded_and_idle_ones_expire() {
    let server = start_with(McpOptions {
        sessions: activity_site_control::mcp::SessionLimits {
            max: 3,
            idle: Duration::from_millis(500),
        },
        ..McpOptions::default()
    })
    .await;
    let init = json!({"jsonrpc": "2.0", "id": 7, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "flood", "version": "0"}}});
    let client = Client::new(&server);
    let mut refused = None;
    for _ in 0..6 {
        let response = client.post(&init).send().await.expect("sent");
        if response.status() == 503 {
            refused = Some(response);
            break;
        }
        assert_eq!(response.status(), 200);
    }
    let refused = refused.expect("an initialize over the bound is refused");
    assert!(refused.headers().contains_key("retry-after"));
    let body: Value = refused.json().await.expect("a JSON-RPC error");
    assert_eq!(body["jsonrpc"], "2.0");
    assert_eq!(body["id"], 7);
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("too many MCP sessions"),
        "{body}"
    );
    // Idle sessions expire; a new session fits again.
    let (client, init) = (&client, &init);
    eventually("idle sessions to expire", || async move {
        let response = client.post(init).send().await.expect("sent");
        let status = response.status();
        if status != 200 {
            assert_eq!(status, 503);
        }
        holds(status == 200, || status.to_string())
    })
    .await;
}

/// Regression (issue 10): `/mcp` and `/api` share one guard; a page of an
/// allowed origin gets a CORS preflight answer, a foreign one a 403.
#[tokio::test]
async fn allowed_origins_may_call_and_get_a_preflight_answer() {
    let server = start_with(McpOptions {
        access: AccessOptions {
            allowed_origins: vec!["http://localhost:5173".to_string()],
            ..AccessOptions::default()
        },
        ..McpOptions::default()
    })
    .await;
    let http = reqwest::Client::new();
    let url = format!("http://{}/mcp", server.addr);
    let preflight = http
        .request(reqwest::Method::OPTIONS, &url)
        .header("Origin", "http://localhost:5173")
        .header("Access-Control-Request-Method", "POST")
        .header(
            "Access-Control-Request-Headers",
            "content-type, mcp-session-id",
        )
        .send()
        .await
        .expect("sent");
    assert_eq!(preflight.status(), 204);
    assert_eq!(
        preflight.headers()["access-control-allow-origin"],
        "http://localhost:5173"
    );
    let refused = http
        .request(reqwest::Method::OPTIONS, &url)
        .header("Origin", "http://localhost:5174")
        .header("Access-Control-Request-Method", "POST")
        .send()
        .await
        .expect("sent");
    assert_eq!(refused.status(), 403);
    let rebound = http
        .post(&url)
        .header("Host", "attacker.example:5000")
        .header("Accept", "application/json, text/event-stream")
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}))
        .send()
        .await
        .expect("sent");
    assert_eq!(rebound.status(), 403);
}

/// Issue 22: a body that is not JSON got rmcp's plain-text 415; the MCP
/// transport answers a JSON-RPC parse error (-32700), and a `tools/call`
/// whose `arguments` are not an object an invalid-params error (-32602).
#[tokio::test]
async fn malformed_messages_get_json_rpc_errors() {
    let (_server, client) = session("*").await;
    let mut request = client
        .http
        .post(&client.url)
        .header("Accept", "application/json, text/event-stream")
        .header("Content-Type", "application/json")
        .body("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": ");
    if let Some(session) = &client.session {
        request = request.header("Mcp-Session-Id", session);
    }
    let response = request.send().await.expect("sent");
    assert_eq!(response.status(), 400);
    let body: Value = response.json().await.expect("a JSON body");
    assert_eq!(body["error"]["code"], -32700, "{body}");
    assert_eq!(body["id"], Value::Null, "{body}");

    let call = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": {"name": "task_status", "arguments": "not an object"}});
    let response = client.post(&call).send().await.expect("sent");
    assert_eq!(response.status(), 400);
    let body: Value = response.json().await.expect("a JSON body");
    assert_eq!(body["error"]["code"], -32602, "{body}");
    assert_eq!(body["id"], 7, "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("a string")),
        "{body}"
    );
}

/// Issue 37: a batch, an object `id`, a message that is not an object and
/// `"jsonrpc": "1.0"` got rmcp's plain-text 415 ("fail to deserialize");
/// each gets a JSON-RPC invalid-request error (-32600) with HTTP 400.
#[tokio::test]
async fn messages_json_rpc_does_not_allow_get_invalid_request_errors() {
    let (_server, client) = session("*").await;
    let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
    for (message, id) in [
        (json!([ping.clone(), ping.clone()]), Value::Null),
        (json!([]), Value::Null),
        (
            json!({"jsonrpc": "2.0", "id": {"a": 1}, "method": "ping"}),
            Value::Null,
        ),
        (
            json!({"jsonrpc": "2.0", "id": [1], "method": "ping"}),
            Value::Null,
        ),
        (
            json!({"jsonrpc": "1.0", "id": 3, "method": "ping"}),
            json!(3),
        ),
        (json!({"id": "x", "method": "ping"}), json!("x")),
        (json!(42), Value::Null),
    ] {
        let response = client.post(&message).send().await.expect("sent");
        assert_eq!(response.status(), 400, "{message}");
        assert!(
            response.headers()["content-type"]
                .to_str()
                .unwrap()
                .starts_with("application/json"),
            "{message}"
        );
        let body: Value = response.json().await.expect("a JSON body");
        assert_eq!(body["jsonrpc"], "2.0", "{body}");
        assert_eq!(body["error"]["code"], -32600, "{message}: {body}");
        assert_eq!(body["id"], id, "{message}: {body}");
    }
    // The session still works.
    let response = client.post(&ping).send().await.expect("sent");
    assert_eq!(response.status(), 200);
}

/// Issue 37: MCP `task_run` naming a configuration in another Unicode form
/// (`Cafe\u{301}` for a saved `Café`) answered an error while the store knew
/// the name; the tools resolve a name as the REST API does, and the backend
/// runs the stored spelling.
#[tokio::test]
async fn tools_find_a_configuration_named_in_another_form() {
    let (server, mut client) = session("*").await;
    server
        .control
        .config_create("Caf\u{e9}", None)
        .await
        .expect("created");
    for asked in ["Cafe\u{301}", "CAF\u{c9}", "\u{ff23}af\u{e9}"] {
        let config = client
            .call("configs_get", json!({"configName": asked}))
            .await;
        assert_eq!(config["isError"], json!(false), "{asked:?}: {config}");
        let run = json_of(&client.call("task_run", json!({"configName": asked})).await);
        assert_eq!(run["target"], "Caf\u{e9}", "{asked:?}");
        wait_until_settled(&mut client).await;
        let single = client
            .call("task_single", json!({"taskName": "0", "configName": asked}))
            .await;
        assert_eq!(single["isError"], json!(false), "{asked:?}: {single}");
        wait_until_settled(&mut client).await;
    }
    let names = json_of(&client.call("configs_list", json!({})).await);
    assert_eq!(names, json!(["Caf\u{e9}", "Default"]));
}
