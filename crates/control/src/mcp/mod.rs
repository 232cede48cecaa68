//! The `/mcp` endpoint: the control service for AI agents, as MCP tools over
//! streamable HTTP (`rmcp`). The tools call the [`crate`] core, the
//! same one the REST handlers call, never the HTTP API itself. Outside the
//! token scheme (the contract), but [`crate::guard`] checks `Host` and
//! `Origin` as it does for `/api`, and `sessions` bounds the live
//! sessions. Imports `control` and `guard`, never `site` or `api`.

mod sessions;
mod tools;

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use crate::Control;
use crate::guard::{self, AccessOptions, GuardState};

pub use sessions::{SessionLimits, Sessions};

/// The server name agents see in `serverInfo`.
pub const SERVER_NAME: &str = "activity-site";

/// How `/mcp` is exposed.
#[derive(Debug, Clone)]
pub struct McpOptions {
    /// Who may call: `AllowedHosts`, the allowed origins, the bound address
    /// (the same inputs the control API is guarded by).
    pub access: AccessOptions,
    /// How many sessions may live at once and how long an idle one lives.
    pub sessions: SessionLimits,
    /// Cancelled when the server shuts down: ends MCP sessions and their open
    /// event streams, which would otherwise hold a graceful shutdown forever.
    pub shutdown: CancellationToken,
}

impl Default for McpOptions {
    /// `AllowedHosts` `*`, the service configuration's default, and a
    /// shutdown token nobody cancels.
    fn default() -> Self {
        McpOptions {
            access: AccessOptions::default(),
            sessions: SessionLimits::default(),
            shutdown: CancellationToken::new(),
        }
    }
}

/// The router serving `/mcp` (POST for messages, GET for the server's event
/// stream, DELETE to end a session), with its `Host` and `Origin` checks and
/// the session bound.
pub fn router(control: Control, options: McpOptions) -> Router {
    // The shared guard enforces `AllowedHosts` and the origins, so rmcp's
    // own loopback-only lists are turned off rather than duplicated.
    let config = StreamableHttpServerConfig::default()
        .disable_allowed_hosts()
        .disable_allowed_origins()
        .with_cancellation_token(options.shutdown.child_token());
    let sessions = Sessions::new(options.sessions, options.shutdown.child_token());
    let service = StreamableHttpService::new(
        move || Ok(tools::ControlTools::new(control.clone())),
        Arc::clone(&sessions),
        config,
    );
    let guard = GuardState {
        access: Arc::new(options.access.policy()),
        refuse: |reason| {
            jsonrpc_error(
                StatusCode::FORBIDDEN,
                Value::Null,
                format!("forbidden: {reason}"),
            )
        },
    };
    Router::new()
        .route_service("/mcp", service)
        .layer(axum::middleware::from_fn(session_end_status))
        .layer(axum::middleware::from_fn_with_state(
            sessions,
            session_bound,
        ))
        .layer(axum::middleware::from_fn_with_state(guard, guard::check))
}

/// A JSON-RPC "invalid request" error response (`id` null when unknown, as
/// the MCP transport allows).
fn jsonrpc_error(status: StatusCode, id: Value, message: String) -> Response {
    jsonrpc_error_code(status, id, INVALID_REQUEST, message)
}

/// JSON-RPC error codes (JSON-RPC 2.0, section 5.1).
const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;
const INVALID_PARAMS: i64 = -32602;

/// A JSON-RPC error response with `code`.
fn jsonrpc_error_code(status: StatusCode, id: Value, code: i64, message: String) -> Response {
    let body = json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {"code": code, "message": message},
    });
    (status, axum::Json(body)).into_response()
}

/// The id to answer and the reason, when `message` is not one JSON-RPC 2.0
/// message the streamable HTTP transport accepts: a batch (the MCP revision
/// 2025-06-18 dropped them), a value that is not an object, a `jsonrpc`
/// other than `"2.0"`, or an `id` that is not a string or a number.
fn invalid_request(message: &Value) -> Option<(Value, String)> {
    let Value::Object(fields) = message else {
        let reason = if message.is_array() {
            "invalid request: batches are not supported; send one JSON-RPC message per request"
                .to_string()
        } else {
            format!(
                "invalid request: a JSON-RPC message is an object, not {}",
                stdx::json::kind_of(message)
            )
        };
        return Some((Value::Null, reason));
    };
    let id = fields.get("id");
    let usable_id = id.filter(|id| id.is_string() || id.is_number()).cloned();
    if let Some(id) = id.filter(|_| usable_id.is_none()) {
        return Some((
            Value::Null,
            format!(
                "invalid request: `id` must be a string or a number, not {}",
                stdx::json::kind_of(id)
            ),
        ));
    }
    if fields.get("jsonrpc") != Some(&json!("2.0")) {
        return Some((
            usable_id.unwrap_or(Value::Null),
            "invalid request: `jsonrpc` must be \"2.0\"".to_string(),
        ));
    }
    None
}

/// The id and the reason when `message` is a `tools/call` whose
/// `arguments` are present but not an object.
fn bad_arguments(m: &Value) -> Option<(Value, String)> {
    let arguments = m.get("params")?.get("arguments")?;
    (m["method"] == "tools/call" && !arguments.is_object() && !arguments.is_null()).then(|| {
        (
            m.get("id").cloned().unwrap_or(Value::Null),
            format!(
                "invalid params: `arguments` of tools/call must be an object, not {}",
                stdx::json::kind_of(arguments)
            ),
        )
    })
}

/// Largest message body read (413 above), the same bound as the control
/// API's bodies.
const PEEK_LIMIT: usize = 1 << 20;

/// Reads every POSTed message first (at most [`PEEK_LIMIT`] bytes, within
/// the server's body deadline: 408 past it, as on the control API): a body
/// that is not JSON gets a JSON-RPC parse error (-32700), a batch, a
/// non-object, an object `id` or a `jsonrpc` other than "2.0" an
/// invalid-request error (-32600, HTTP 400), and a `tools/call`
/// whose `arguments` are not an object an invalid-params error (-32602), as
/// the MCP transport specifies, rather than rmcp's plain-text 415. Then
/// answers an `initialize` over the session bound with a JSON-RPC error
/// (503, `Retry-After`), before rmcp creates anything; also words rmcp's
/// plain-text 500 of a session refused in a race the same way.
async fn session_bound(
    State(sessions): State<Arc<Sessions>>,
    request: Request,
    next: Next,
) -> Response {
    if request.method() != Method::POST {
        return next.run(request).await;
    }
    let opens_session = !request.headers().contains_key("mcp-session-id");
    let (parts, body) = request.into_parts();
    let bytes = match axum::body::to_bytes(body, PEEK_LIMIT).await {
        Ok(bytes) => bytes,
        // The control API's 408: the body missed the server's deadline.
        Err(err) if guard::body_timed_out(&err) => {
            return jsonrpc_error(
                StatusCode::REQUEST_TIMEOUT,
                Value::Null,
                guard::LATE_BODY.to_string(),
            );
        }
        Err(_) => {
            return jsonrpc_error(
                StatusCode::PAYLOAD_TOO_LARGE,
                Value::Null,
                format!("the request body is larger than {PEEK_LIMIT} bytes"),
            );
        }
    };
    let message: Value = match serde_json::from_slice(&bytes) {
        Ok(message) => message,
        Err(err) => {
            return jsonrpc_error_code(
                StatusCode::BAD_REQUEST,
                Value::Null,
                PARSE_ERROR,
                format!("parse error: the body is not JSON ({err})"),
            );
        }
    };
    if let Some((id, reason)) = invalid_request(&message) {
        return jsonrpc_error_code(StatusCode::BAD_REQUEST, id, INVALID_REQUEST, reason);
    }
    if let Some((id, reason)) = bad_arguments(&message) {
        return jsonrpc_error_code(StatusCode::BAD_REQUEST, id, INVALID_PARAMS, reason);
    }
    if opens_session && message["method"] == "initialize" && !sessions.has_room().await {
        return too_many_sessions(&sessions, message["id"].clone());
    }
    let response = next
        .run(Request::from_parts(parts, Body::from(bytes)))
        .await;
    if !opens_session || response.status() != StatusCode::INTERNAL_SERVER_ERROR {
        return response;
    }
    let (head, body) = response.into_parts();
    let text = axum::body::to_bytes(body, PEEK_LIMIT)
        .await
        .unwrap_or_default();
    if String::from_utf8_lossy(&text).contains(sessions::FULL_MARKER) {
        return too_many_sessions(&sessions, message["id"].clone());
    }
    Response::from_parts(head, Body::from(text))
}

fn too_many_sessions(sessions: &Sessions, id: Value) -> Response {
    let limits = sessions.limits();
    let mut response = jsonrpc_error(
        StatusCode::SERVICE_UNAVAILABLE,
        id,
        format!(
            "{}: {} are open, the limit is {}; help: end unused sessions with DELETE /mcp, or retry after {} s when idle ones expire",
            sessions::FULL_MARKER,
            sessions.live(),
            limits.max,
            limits.idle.as_secs().max(1)
        ),
    );
    if let Ok(value) = HeaderValue::from_str(&limits.idle.as_secs().max(1).to_string()) {
        response.headers_mut().insert(header::RETRY_AFTER, value);
    }
    response
}

/// Answers a successful session DELETE with 204 rather than rmcp's 202: the
/// session is gone, not queued for removal, and the official Python client
/// warns about any status but 200 and 204.
async fn session_end_status(request: Request, next: Next) -> Response {
    let ends_session = request.method() == Method::DELETE;
    let mut response = next.run(request).await;
    if ends_session && response.status() == StatusCode::ACCEPTED {
        *response.status_mut() = StatusCode::NO_CONTENT;
    }
    response
}
