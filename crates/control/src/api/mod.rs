//! axum handlers of the control API: one file per resource, the response
//! envelope and errors ([`envelope`]), authentication ([`auth`]) and the
//! OpenAPI document ([`openapi`]). Imports `control`, never `site` or `control_mcp`.
//!
//! # Routing and case
//!
//! axum routes by exact path, but clients call `/api/auth` or
//! `/api/backend/logs/stream`. [`router`] therefore builds two layers:
//!
//! 1. An inner `Router` with the canonical routes (`/api/Task/status`, ...),
//!    the OpenAPI document, and a 404 fallback, wrapped as one tower service
//!    by (outermost first) the error-envelope mapper, the shared
//!    [`crate::guard`] (`Host`, `Origin`, CORS preflights; 403 envelope), the
//!    path rewrite, the body limit, the token check and the content-type
//!    check (415). The path rewrite ([`normalize_path`]) replaces the request
//!    path by its canonical spelling: literal segments take the route's
//!    case, path parameters stay as sent. It runs before the inner router
//!    routes, so once a request reaches this service the case of literal
//!    segments never matters. The token check runs before routing, so an
//!    unauthenticated client gets 401 for every path, known or not.
//! 2. An outer `Router` that sends every path under `/api/` (prefixes
//!    `/api`, `/API` and `/Api`) and `/openapi/v1.json` to that service, so
//!    everything there answers the envelope. It has no fallback, so the
//!    server can `merge` it with the static site and `/mcp`; the server
//!    routes `/api/v1/...` (the public activity API of the static site)
//!    explicitly, and that static segment beats the catch-all here.
//!    Handlers read path parameters by name, since the outer catch-all
//!    parameter is visible to them too. Other spellings of the prefix
//!    (`/aPi/...`) reach the service when the server applies
//!    [`canonicalize`] in front of everything.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::{DefaultBodyLimit, FromRef, OriginalUri, Request};
use axum::http::{Method, StatusCode, Uri, header};
use axum::middleware::{Next, from_fn_with_state};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use tower::ServiceBuilder;
use utoipa_axum::router::OpenApiRouter;

use crate::guard::{self, AccessOptions, GuardState};
use crate::{Control, ServiceConfig};

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
    /// Who may call: `AllowedHosts`, the allowed origins, the bound address
    /// (the same inputs `/mcp` is guarded by).
    pub access: AccessOptions,
    /// Interval of SSE keep-alive comments.
    pub sse_keep_alive: Duration,
    /// Largest accepted request body in bytes (413 above).
    pub body_limit: usize,
}

impl Default for ApiOptions {
    fn default() -> Self {
        ApiOptions {
            access_token: None,
            access: AccessOptions::default(),
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
            access: AccessOptions {
                allowed_hosts: config.allowed_hosts.clone(),
                allowed_origins: config.allowed_origins.clone(),
                bound: None,
            },
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
    let guard = GuardState {
        access: Arc::new(options.access.policy()),
        refuse: |reason| error_response(StatusCode::FORBIDDEN, reason, None),
    };
    let service = ServiceBuilder::new()
        .map_response(envelope::envelope_errors)
        .layer(from_fn_with_state(guard, guard::check))
        .map_request(canonicalize)
        .layer(axum::Extension(BodyLimit(limit)))
        .layer(DefaultBodyLimit::max(limit))
        .layer(from_fn_with_state(
            BodyLimit(limit),
            refuse_declared_oversize,
        ))
        .layer(from_fn_with_state(state, auth::require_token))
        .layer(axum::middleware::from_fn(require_json))
        .service(inner);
    let mut outer = Router::new().route_service(OPENAPI_PATH, service.clone());
    for prefix in ["/api", "/API", "/Api"] {
        // Everything under the prefix: the server routes `/api/v1/...` (the
        // public API of the static site) explicitly, and a static segment
        // beats this catch-all. Other spellings of `/api` reach the service
        // when the server applies [`canonicalize`] in front of everything.
        outer = outer
            .route_service(prefix, service.clone())
            .route_service(&format!("{prefix}/"), service.clone())
            .route_service(&format!("{prefix}/{{*__api_rest}}"), service.clone());
    }
    outer
}

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
    let Some(path) = normalize_path(original.path()).or_else(|| canonical_prefix(original.path()))
    else {
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

/// `/api` spelled in any case, for a path no route matches, so it still
/// reaches the API (a 404 envelope) rather than the static site: `/aPi/Nope`
/// -> `/api/Nope`. `/api/v1` in any spelling is left alone.
fn canonical_prefix(path: &str) -> Option<String> {
    let rest = path.get(1..)?;
    let (first, tail) = rest.split_once('/').unwrap_or((rest, ""));
    let second = tail.split('/').next().unwrap_or("");
    if !first.eq_ignore_ascii_case("api") || first == "api" || second.eq_ignore_ascii_case("v1") {
        return None;
    }
    Some(format!("/api/{tail}"))
}

/// Answers 413 at once when the declared `Content-Length` is over the body
/// limit, without waiting for a body that would be refused anyway (a client
/// that declares 2 GB and sends two bytes would otherwise hold its
/// connection until the body deadline).
async fn refuse_declared_oversize(
    axum::extract::State(BodyLimit(limit)): axum::extract::State<BodyLimit>,
    req: Request,
    next: Next,
) -> Response {
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit as u64) {
        return ApiError::PayloadTooLarge(limit).into_response();
    }
    next.run(req).await
}

/// Whether a `Content-Type` value is JSON (`application/json`, parameters
/// such as `charset` allowed, or a `+json` type).
fn is_json(content_type: &str) -> bool {
    let essence = content_type.split(';').next().unwrap_or("").trim();
    let Some((kind, subtype)) = essence.split_once('/') else {
        return false;
    };
    kind.eq_ignore_ascii_case("application")
        && (subtype.eq_ignore_ascii_case("json")
            || subtype.len() > 5 && subtype[subtype.len() - 5..].eq_ignore_ascii_case("+json"))
}

/// Refuses a request that carries a body of any type but JSON (415
/// envelope): browsers send `text/plain` and form bodies to other sites
/// without asking first, JSON needs a preflight. A request whose body is
/// empty sends no body, whatever its `Content-Type` says: the service's own
/// web UI posts bodiless requests (`/api/Task/stop`, creating a
/// configuration) through Axios, which labels them
/// `application/x-www-form-urlencoded`, and an empty body carries nothing to
/// misread (a cross-site browser request is still refused by the `Origin`
/// check). Each route says what no body means (SECURITY.md), and the body
/// extractors refuse a non-empty body sent without any type.
async fn require_json(req: Request, next: Next) -> Response {
    let takes_body = !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    let empty = axum::body::HttpBody::size_hint(req.body()).exact() == Some(0);
    if takes_body
        && !empty
        && let Some(value) = req.headers().get(header::CONTENT_TYPE)
    {
        let text = String::from_utf8_lossy(value.as_bytes());
        if !is_json(&text) {
            return unsupported_media_type(&text);
        }
    }
    next.run(req).await
}

/// The 415 envelope for a body of type `content_type` (empty when none was sent).
pub(crate) fn unsupported_media_type(content_type: &str) -> Response {
    let sent = if content_type.is_empty() {
        "no Content-Type".to_string()
    } else {
        format!("Content-Type `{content_type}`")
    };
    error_response(
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        format!(
            "the request body must be JSON, sent with Content-Type: application/json (got {sent})"
        ),
        None,
    )
}

async fn not_found(uri: Uri) -> Response {
    ApiError::NotFound(format!("no API route matches `{}`", uri.path())).into_response()
}
