//! `/api/Backend/...`: restart, stop, the screenshot the web UI shows, recent
//! logs and the log stream (SSE).
//!
//! The stream sends a comment at once (so headers and the first bytes reach
//! the client without waiting for a log line), one event per line with its
//! id, keep-alive comments, and resumes after `Last-Event-ID`. Every log
//! entry is one line (the log splits multi-line messages), so every event
//! has one `data:` line, as the real service forwards each line its backend
//! prints. A slow client never makes the server buffer more than the log
//! ring: it is told how many lines it missed. At shutdown the stream ends at
//! once, with a last `shutdown` event.

use std::convert::Infallible;

use axum::Json;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures::Stream;
use serde::Deserialize;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::ApiState;
use crate::api::envelope::{ApiError, Envelope, ErrorEnvelope, OptionalJsonObject, QueryPairs, ok};
use crate::{BackendInfo, Control, LogItem};

/// Lines `GET /api/Backend/logs` returns without `count`.
pub const DEFAULT_LOG_COUNT: usize = 100;

pub(crate) fn routes() -> OpenApiRouter<ApiState> {
    OpenApiRouter::new()
        .routes(routes!(backend_restart))
        .routes(routes!(backend_stop))
        .routes(routes!(backend_screenshot))
        .routes(routes!(backend_logs))
        .routes(routes!(backend_logs_stream))
}

/// Body of `POST /api/Backend/restart`.
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[schema(example = json!({"arguments": "--inline --no-admin --step-ms=200"}))]
pub struct RestartRequest {
    /// Backend start arguments; default `--inline --no-admin`. Simulator
    /// options: `--step-ms=N` (step duration), `--fail-task=NAME` (a task or
    /// extension that fails), `--unavailable` (every command fails), `--python`.
    #[serde(default)]
    pub arguments: Option<String>,
}

/// Restarts the backend: starts a new backend process with the arguments and,
/// once it answers, ends the old one (its running task is reported stopped).
/// A start that fails is a 500 with the reason, and the old process stays.
#[utoipa::path(post, path = "/api/Backend/restart", tag = "Backend",
    request_body(content = Option<RestartRequest>),
    responses(
        (status = 200, description = "The new session", body = Envelope<BackendInfo>),
        (status = 400, description = "Malformed body", body = ErrorEnvelope),
        (status = 500, description = "Restart failed (for example an unknown argument, or a missing backend program)", body = ErrorEnvelope),
    ))]
async fn backend_restart(
    State(control): State<Control>,
    OptionalJsonObject(request): OptionalJsonObject<RestartRequest>,
) -> Result<Json<Envelope<BackendInfo>>, ApiError> {
    let request = request.unwrap_or_default();
    Ok(ok(control
        .backend_restart(request.arguments.as_deref())
        .await?))
}

/// Stops the backend (and the running task): tasks, operator calls and the
/// screenshot then answer 500 `backend not running` until `POST /api/Backend/restart`.
/// Stopping a stopped backend succeeds.
#[utoipa::path(post, path = "/api/Backend/stop", tag = "Backend",
    responses(
        (status = 200, description = "The session, now with `running: false`", body = Envelope<BackendInfo>),
    ))]
async fn backend_stop(
    State(control): State<Control>,
) -> Result<Json<Envelope<BackendInfo>>, ApiError> {
    Ok(ok(control.backend_stop().await?))
}

/// The simulated game window as a 1280x720 PNG (not an envelope): the same
/// image as `GET /api/Operator/screenshot`, at the path the web UI's live view polls.
#[utoipa::path(get, path = "/api/Backend/screenshot", tag = "Backend",
    responses(
        (status = 200, description = "A 1280x720 PNG", content_type = "image/png", body = Vec<u8>),
        (status = 500, description = "Backend error, or the backend is not running", body = ErrorEnvelope),
    ))]
async fn backend_screenshot(State(control): State<Control>) -> Result<Response, ApiError> {
    crate::api::operator::screenshot_response(&control).await
}

/// The most recent log lines, oldest first.
#[utoipa::path(get, path = "/api/Backend/logs", tag = "Backend",
    params(("count" = Option<u64>, Query, description = "How many recent lines (default 100)", minimum = 0)),
    responses(
        (status = 200, description = "Log lines", body = Envelope<Vec<String>>),
        (status = 400, description = "`count` is not a non-negative integer", body = ErrorEnvelope),
    ))]
async fn backend_logs(
    State(control): State<Control>,
    query: QueryPairs,
) -> Result<Json<Envelope<Vec<String>>>, ApiError> {
    let count = match query.get("count") {
        None => DEFAULT_LOG_COUNT as u64,
        Some(text) => text.trim().parse::<u64>().map_err(|_| {
            ApiError::bad_request(format!(
                "`count` must be a non-negative integer, not `{text}`"
            ))
        })?,
    };
    let count = usize::try_from(count).unwrap_or(usize::MAX);
    Ok(ok(control.logs_recent(count)))
}

/// Streams log lines as server-sent events (`id:` per line; reconnect with
/// `Last-Event-ID` to get the lines missed).
#[utoipa::path(get, path = "/api/Backend/logs/stream", tag = "Backend",
    params(("Last-Event-ID" = Option<String>, Header, description = "Resume after this event id")),
    responses(
        (status = 200, description = "An endless text/event-stream of log lines", content_type = "text/event-stream", body = String),
    ))]
async fn backend_logs_stream(State(state): State<ApiState>, headers: HeaderMap) -> Response {
    let last = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    let subscription = state.control.logs_subscribe(last);
    let sse = Sse::new(events(subscription)).keep_alive(
        KeepAlive::new()
            .interval(state.options.sse_keep_alive)
            .text("keep-alive"),
    );
    ([("x-accel-buffering", "no")], sse).into_response()
}

fn events(
    mut subscription: crate::LogSubscription,
) -> impl Stream<Item = Result<Event, Infallible>> {
    async_stream::stream! {
        yield Ok(Event::default().comment("connected"));
        while let Some(item) = subscription.next().await {
            let event = match item {
                LogItem::Line(line) => Event::default().id(line.id.to_string()).data(line.line),
                LogItem::Missed { count, resume_id } => Event::default()
                    .id(resume_id.to_string())
                    .data(format!("... {count} log lines were dropped because this client read too slowly")),
                LogItem::Closed => Event::default()
                    .event("shutdown")
                    .data("the server is shutting down"),
            };
            yield Ok(event);
        }
    }
}
