//! axum handlers of the control API: one file per resource, the response
//! envelope and errors ([`envelope`]), authentication ([`auth`]) and the
//! OpenAPI document ([`openapi`]). Imports `control`, never `site` or `mcp`.
//!
//! # Routing and case
//!
//! axum routes by exact path, but clients call `/api/auth` or
//! `/api/backend/logs/stream`. [`router`] therefore builds two layers:
//!
//! 1. An inner `Router` with the canonical routes (`/api/Task/status`, ...),
//!    the OpenAPI document, and a 404 fallback, wrapped as one tower service
//!    by (outermost first) the error-envelope mapper, the `AllowedHosts`
//!    check, the path rewrite, the body limit and the token check. The path
//!    rewrite ([`normalize_path`]) replaces the request path by its canonical
//!    spelling: literal segments take the route's case, path parameters stay
//!    as sent. It runs before the inner router routes, so once a request
//!    reaches this service the case of literal segments never matters.
//! 2. An outer `Router` that sends requests to that service: every single
//!    segment under `/api/` in any case (`/api/auth`, `/api/Nope`), and the
//!    deeper paths of each resource spelled canonically, in lower case or in
//!    upper case (`/api/Task/...`, `/api/task/...`, `/api/TASK/...`), under
//!    the prefixes `/api`, `/API` and `/Api`; plus `/openapi/v1.json`. It
//!    has no fallback, so the server can `merge` it with the static site
//!    and `/mcp`, and it never claims `/api/v1/...` (the public activity
//!    API of the static site). Handlers read path parameters by name, since
//!    the outer catch-all parameter is visible to them too. A mixed-case
//!    resource in a deeper path (`/api/tAsK/status`) reaches the service only
//!    when the server applies [`canonicalize`] in front of everything.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::{DefaultBodyLimit, FromRef, OriginalUri, Request, State};
use axum::http::{StatusCode, Uri, header};
use axum::middleware::{Next, from_fn_with_state};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use tower::ServiceBuilder;
use utoipa_axum::router::OpenApiRouter;

use crate::control::{Control, ServiceConfig, host_allowed};

pub mod app;
pub mod auth;
pub mod backend;
pub mod configs;
pub mod envelope;
pub mod extensions;
pub mod openapi;
pub mod operator;
pub mod settings;
pub mod task;

use envelope::{ApiError, BodyLimit, error_response};

/// Where the OpenAPI document is served.
pub const OPENAPI_PATH: &str = "/openapi/v1.json";

/// Options of the API layer.
#[derive(Debug, Clone)]
pub struct ApiOptions {
    /// The access token; `None` or empty disables authentication.
    pub access_token: Option<String>,
    /// `AllowedHosts`: `*`, or `;`-separated host names (`*.example.com` allowed).
    pub allowed_hosts: String,
    /// Interval of SSE keep-alive comments.
    pub sse_keep_alive: Duration,
    /// Largest accepted request body in bytes (413 above).
    pub body_limit: usize,
}

impl Default for ApiOptions {
    fn default() -> Self {
        ApiOptions {
            access_token: None,
            allowed_hosts: "*".to_string(),
            sse_keep_alive: Duration::from_secs(15),
            body_limit: 1024 * 1024,
        }
    }
}

impl ApiOptions {
    /// Options from the service configuration file (`AccessToken`,
    /// `AllowedHosts`); a non-empty `access_token` (the `--access-token`
    /// flag) wins. No token anywhere means authentication is off.
    pub fn from_config(config: &ServiceConfig, access_token: Option<String>) -> ApiOptions {
        ApiOptions {
            // An empty flag (say, an empty environment variable) must not
            // switch off the token of the file.
            access_token: access_token
                .filter(|t| !t.is_empty())
                .or_else(|| config.access_token.clone())
                .filter(|t| !t.is_empty()),
            allowed_hosts: config.allowed_hosts.clone(),
            ..ApiOptions::default()
        }
    }
}

/// State of the handlers.
#[derive(Debug, Clone)]
pub struct ApiState {
    pub control: Control,
    pub options: Arc<ApiOptions>,
}

impl FromRef<ApiState> for Control {
    fn from_ref(state: &ApiState) -> Control {
        state.control.clone()
    }
}

/// Every route template, canonical spelling. `{...}` segments are parameters.
pub const ROUTES: &[&str] = &[
    "/api/Task/status",
    "/api/Task/run",
    "/api/Task/single",
    "/api/Task/stop",
    "/api/Backend/restart",
    "/api/Backend/stop",
    "/api/Backend/screenshot",
    "/api/Backend/logs",
    "/api/Backend/logs/stream",
    "/api/Configs",
    "/api/Configs/{configName}",
    "/api/Settings",
    "/api/Extensions",
    "/api/Extensions/reload",
    "/api/Extensions/{id}/schema",
    "/api/Extensions/{id}/config",
    "/api/Extensions/{id}/run",
    "/api/Extensions/{id}/stop",
    "/api/Operator/screenshot",
    "/api/Operator/list",
    "/api/Operator/help/{method}",
    "/api/Operator/call",
    "/api/Auth",
    "/api/App/system-info",
    "/api/App/phrases",
    OPENAPI_PATH,
];

/// The canonical spelling of `path` if it matches a route ignoring the case
/// of literal segments: `/api/backend/logs/stream` -> `/api/Backend/logs/stream`,
/// `/API/configs/MyConf` -> `/api/Configs/MyConf`. Parameters are untouched.
/// When several routes match, the one with more literal segments wins.
pub fn normalize_path(path: &str) -> Option<String> {
    let segments: Vec<&str> = path.split('/').collect();
    let mut best: Option<(usize, String)> = None;
    for route in ROUTES {
        let template: Vec<&str> = route.split('/').collect();
        if template.len() != segments.len() {
            continue;
        }
        let mut literals = 0;
        let mut out = Vec::with_capacity(segments.len());
        let matched = template.iter().zip(&segments).all(|(t, s)| {
            if t.starts_with('{') {
                out.push(*s);
                !s.is_empty()
            } else if t.eq_ignore_ascii_case(s) {
                literals += 1;
                out.push(*t);
                true
            } else {
                false
            }
        });
        if matched && best.as_ref().is_none_or(|(n, _)| literals > *n) {
            best = Some((literals, out.join("/")));
        }
    }
    best.map(|(_, p)| p)
}

/// The control API router: `/api/...` and `/openapi/v1.json`, with the
/// token check and the `AllowedHosts` check. See the module docs for how
/// case-insensitive routing is done.
pub fn router(control: Control, options: ApiOptions) -> Router {
    let mut options = options;
    options.access_token = options.access_token.filter(|t| !t.is_empty());
    let options = Arc::new(options);
    let state = ApiState {
        control,
        options: Arc::clone(&options),
    };
    let (routes, document) = OpenApiRouter::with_openapi(openapi::base())
        .merge(task::routes())
        .merge(backend::routes())
        .merge(configs::routes())
        .merge(settings::routes())
        .merge(extensions::routes())
        .merge(operator::routes())
        .merge(auth::routes())
        .merge(app::routes())
        .split_for_parts();
    let document = Arc::new(openapi::finish(document));
    let inner: Router = routes
        .route(
            OPENAPI_PATH,
            get(move || {
                let document = Arc::clone(&document);
                async move { axum::Json(document.as_ref().clone()) }
            }),
        )
        .fallback(not_found)
        .with_state(state.clone());
    let limit = options.body_limit;
    let service = ServiceBuilder::new()
        .map_response(envelope::envelope_errors)
        .layer(from_fn_with_state(Arc::clone(&options), check_host))
        .map_request(canonicalize)
        .layer(axum::Extension(BodyLimit(limit)))
        .layer(DefaultBodyLimit::max(limit))
        .layer(from_fn_with_state(state, auth::require_token))
        .service(inner);
    let mut outer = Router::new().route_service(OPENAPI_PATH, service.clone());
    for prefix in ["/api", "/API", "/Api"] {
        // The prefix alone, and one segment in any case: `/api/auth`,
        // `/api/SETTINGS`, `/api/Nope` (a 404 envelope).
        outer = outer
            .route_service(prefix, service.clone())
            .route_service(&format!("{prefix}/{{__api_resource}}"), service.clone());
        // Deeper paths under each resource, spelled canonically, in lower or in upper case.
        let mut spellings: Vec<String> = RESOURCES
            .iter()
            .flat_map(|r| [r.to_string(), r.to_lowercase(), r.to_uppercase()])
            .collect();
        spellings.sort();
        spellings.dedup();
        for resource in spellings {
            outer = outer.route_service(
                &format!("{prefix}/{resource}/{{*__api_rest}}"),
                service.clone(),
            );
        }
    }
    outer
}

/// The literal second segments of the control routes.
const RESOURCES: [&str; 8] = [
    "Task",
    "Backend",
    "Configs",
    "Settings",
    "Extensions",
    "Operator",
    "Auth",
    "App",
];

/// Rewrites the request path to its canonical spelling (see
/// [`normalize_path`]); other paths pass unchanged. The router applies it to
/// its own requests; a server can also apply it in front of everything
/// (`tower::util::MapRequestLayer::new(api::canonicalize)`) to accept even
/// mixed-case resource segments such as `/api/tAsK/status`.
pub fn canonicalize(mut req: Request) -> Request {
    let original = req
        .extensions()
        .get::<OriginalUri>()
        .map_or_else(|| req.uri().clone(), |o| o.0.clone());
    let Some(path) = normalize_path(original.path()) else {
        return req;
    };
    let path_and_query = match original.query() {
        Some(q) => format!("{path}?{q}"),
        None => path,
    };
    let mut parts = req.uri().clone().into_parts();
    if let Ok(pq) = path_and_query.parse() {
        parts.path_and_query = Some(pq);
        if let Ok(uri) = Uri::from_parts(parts) {
            *req.uri_mut() = uri;
        }
    }
    req.extensions_mut().remove::<axum::extract::MatchedPath>();
    req
}

/// Rejects requests whose Host header `AllowedHosts` does not list (400 envelope).
async fn check_host(State(options): State<Arc<ApiOptions>>, req: Request, next: Next) -> Response {
    let host = req
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .map(str::to_string)
        .or_else(|| req.uri().authority().map(|a| a.to_string()))
        .unwrap_or_default();
    if host_allowed(&options.allowed_hosts, &host) {
        next.run(req).await
    } else {
        error_response(
            StatusCode::BAD_REQUEST,
            format!("the host `{host}` is not allowed (AllowedHosts)"),
            None,
        )
    }
}

async fn not_found(uri: Uri) -> Response {
    ApiError::NotFound(format!("no API route matches `{}`", uri.path())).into_response()
}
