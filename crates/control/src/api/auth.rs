//! `POST /api/Auth` and the token check applied to every other API request.
//!
//! The token comes from the header `X-Access-Token` or, when that header is
//! absent, the query parameter `access_token`; a wrong header is not rescued
//! by a right query. Comparison is constant-time over SHA-256 digests, so
//! neither content nor length leaks through timing.

use axum::Json;
use axum::extract::{Query, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::ApiState;
use crate::api::envelope::{ApiError, ErrorEnvelope, JsonObject};

pub(crate) fn routes() -> OpenApiRouter<ApiState> {
    OpenApiRouter::new().routes(routes!(auth_check))
}

/// Body of `POST /api/Auth`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[schema(example = json!({"token": "<ACCESS_TOKEN>"}))]
pub struct AuthRequest {
    pub token: String,
}

/// Answer of `POST /api/Auth`.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct AuthResponse {
    pub success: bool,
    /// `authorized`, or `No access token configured`.
    pub message: String,
}

/// Whether `given` equals `expected`, in constant time.
pub(crate) fn token_matches(expected: &str, given: &str) -> bool {
    let a = Sha256::digest(expected.as_bytes());
    let b = Sha256::digest(given.as_bytes());
    a.ct_eq(&b).into()
}

/// Checks a token without one (needs no token itself).
#[utoipa::path(post, path = "/api/Auth", tag = "Auth",
    request_body = AuthRequest,
    security(()),
    responses(
        (status = 200, description = "`authorized`, or `No access token configured`", body = AuthResponse),
        (status = 400, description = "Malformed body", body = ErrorEnvelope),
        (status = 401, description = "The token does not match", body = ErrorEnvelope),
    ))]
async fn auth_check(
    State(state): State<ApiState>,
    JsonObject(request): JsonObject<AuthRequest>,
) -> Result<Json<AuthResponse>, ApiError> {
    let message = match &state.options.access_token {
        None => "No access token configured",
        Some(expected) if token_matches(expected, &request.token) => "authorized",
        Some(_) => return Err(ApiError::WrongToken),
    };
    Ok(Json(AuthResponse {
        success: true,
        message: message.to_string(),
    }))
}

/// The token of a request: the header if present, else the query parameter
/// (decoded as axum's `Query` does).
fn presented_token(req: &Request) -> Option<String> {
    if let Some(value) = req.headers().get("x-access-token") {
        return Some(String::from_utf8_lossy(value.as_bytes()).into_owned());
    }
    let Query(pairs) = Query::<Vec<(String, String)>>::try_from_uri(req.uri()).ok()?;
    pairs
        .into_iter()
        .rev()
        .find(|(k, _)| k == "access_token")
        .map(|(_, v)| v)
}

/// Whether a canonical request needs no token: `POST /api/Auth` and `GET`
/// (or `HEAD`) of the OpenAPI document. Any other method on those paths
/// needs the token like every other path, so it answers 401 before 405.
fn is_open(req: &Request) -> bool {
    use axum::http::Method;
    let (path, method) = (req.uri().path(), req.method());
    (path == "/api/Auth" && method == Method::POST)
        || (path == crate::api::OPENAPI_PATH && matches!(*method, Method::GET | Method::HEAD))
}

/// The token middleware: 401 envelope `unauthorized` for a missing or wrong token.
pub(crate) async fn require_token(
    State(state): State<ApiState>,
    req: Request,
    next: Next,
) -> Response {
    let Some(expected) = &state.options.access_token else {
        return next.run(req).await;
    };
    if is_open(&req) {
        return next.run(req).await;
    }
    match presented_token(&req) {
        Some(given) if token_matches(expected, &given) => next.run(req).await,
        _ => ApiError::Unauthorized.into_response(),
    }
}
