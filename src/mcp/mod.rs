//! The `/mcp` endpoint: the control service for AI agents, as MCP tools over
//! streamable HTTP (`rmcp`). The tools call the [`crate::control`] core, the
//! same one the REST handlers call, never the HTTP API itself. Outside the
//! token scheme (the contract), but [`guard`] checks `Host` against
//! `AllowedHosts` and refuses browser pages of other sites. Imports
//! `control`, never `site` or `api`.

mod guard;
mod tools;

use std::sync::Arc;

use axum::Router;
use axum::extract::Request;
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio_util::sync::CancellationToken;

use crate::control::Control;

pub use guard::AllowedHosts;

/// The server name agents see in `serverInfo`.
pub const SERVER_NAME: &str = "activity-site";

/// How `/mcp` is exposed.
#[derive(Debug, Clone)]
pub struct McpOptions {
    /// `AllowedHosts` of the service configuration (ASP.NET syntax: `*`, or
    /// `;`-separated names, `*.example.com` for subdomains). Loopback names
    /// are always allowed.
    pub allowed_hosts: String,
    /// Cancelled when the server shuts down: ends MCP sessions and their open
    /// event streams, which would otherwise hold a graceful shutdown forever.
    pub shutdown: CancellationToken,
}

impl Default for McpOptions {
    /// `AllowedHosts` `*`, the service configuration's default, and a
    /// shutdown token nobody cancels.
    fn default() -> Self {
        McpOptions {
            allowed_hosts: "*".to_string(),
            shutdown: CancellationToken::new(),
        }
    }
}

/// The router serving `/mcp` (POST for messages, GET for the server's event
/// stream, DELETE to end a session), with its `Host` and `Origin` checks.
pub fn router(control: Control, options: McpOptions) -> Router {
    // The guard below enforces `AllowedHosts` with its wildcard syntax, so
    // rmcp's own loopback-only list is turned off rather than duplicated.
    let config = StreamableHttpServerConfig::default()
        .disable_allowed_hosts()
        .disable_allowed_origins()
        .with_cancellation_token(options.shutdown.child_token());
    let service = StreamableHttpService::new(
        move || Ok(tools::ControlTools::new(control.clone())),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    Router::new()
        .route_service("/mcp", service)
        .layer(axum::middleware::from_fn(session_end_status))
        .layer(axum::middleware::from_fn_with_state(
            AllowedHosts::parse(&options.allowed_hosts),
            guard::check,
        ))
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
