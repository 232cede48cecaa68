//! The response envelope `{success, message, data}`, the one error type of
//! the API and the JSON body extractors.
//!
//! Every JSON response goes through here, errors included: a malformed or
//! wrong-typed body, an oversized body, an unknown route and a wrong method
//! all answer with the envelope and `success: false`. Internal errors become
//! a generic 500 and are logged, never shown.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate as control;

/// The envelope of every JSON response.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Envelope<T> {
    /// True on success, false on error.
    pub success: bool,
    /// `success`, or what went wrong.
    pub message: String,
    /// The payload, where the endpoint returns one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<T>,
}

/// The envelope of a response whose `data` is a JSON object (documentation).
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ObjectEnvelope {
    pub success: bool,
    pub message: String,
    #[schema(value_type = Object)]
    pub data: Value,
}

/// The envelope of a response without `data` (documentation).
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct EmptyEnvelope {
    pub success: bool,
    pub message: String,
}

/// The envelope of an error: `data`, when present, lists each violation.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ErrorEnvelope {
    /// Always false.
    pub success: bool,
    /// What went wrong.
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<ErrorDetails>,
}

/// Details of an error: the violations of a validation error, or how to
/// do it right (a 401 says where the token goes).
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ErrorDetails {
    /// One entry per violated rule, each naming the offending field.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub violations: Vec<String>,
    /// What to do instead (a 401: how to send the access token).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
}

/// How a 401 says to send the token (the contract's two ways, in their
/// priority); the message itself stays `unauthorized`, which clients compare.
pub const TOKEN_HELP: &str = "send the access token in the `X-Access-Token` header, or as the `access_token` query parameter (`?access_token=...`); the header wins when both are sent";

/// A successful envelope with data.
pub fn ok<T: Serialize>(data: T) -> Json<Envelope<T>> {
    Json(Envelope {
        success: true,
        message: "success".to_string(),
        data: Some(data),
    })
}

/// A successful envelope without data.
pub fn ok_empty() -> Json<Envelope<()>> {
    Json(Envelope {
        success: true,
        message: "success".to_string(),
        data: None,
    })
}

/// Every way an API request fails.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// A failure of the control core, mapped by variant.
    #[error(transparent)]
    Control(#[from] control::Error),
    /// A bad request the API itself detected (body, query, host).
    #[error("{0}")]
    BadRequest(String),
    /// A request without the access token, or with a wrong one: the 401
    /// says where the token goes ([`TOKEN_HELP`]).
    #[error("unauthorized")]
    Unauthorized,
    /// `POST /api/Auth` with a token that does not match: the contract's
    /// body, `{success: false, message: "unauthorized"}`, and nothing more.
    #[error("unauthorized")]
    WrongToken,
    /// No route matches.
    #[error("{0}")]
    NotFound(String),
    /// The body exceeds the limit.
    #[error("the request body is larger than the limit of {0} bytes")]
    PayloadTooLarge(usize),
    /// The body did not arrive within the server's body deadline.
    #[error("{}", crate::guard::LATE_BODY)]
    BodyTimeout,
    /// A body that is not sent as JSON (the `Content-Type` it had, or empty).
    #[error("the request body must be JSON, sent with Content-Type: application/json")]
    UnsupportedMediaType(String),
}

impl ApiError {
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::BadRequest(message.into())
    }
}

/// Builds an envelope response.
pub fn error_response(
    status: StatusCode,
    message: String,
    violations: Option<Vec<String>>,
) -> Response {
    let body = ErrorEnvelope {
        success: false,
        message,
        data: violations.map(|violations| ErrorDetails {
            violations,
            help: None,
        }),
    };
    (status, Json(body)).into_response()
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        use control::Error as E;
        let (status, violations) = match &self {
            ApiError::Control(E::BadRequest(_)) | ApiError::BadRequest(_) => {
                (StatusCode::BAD_REQUEST, None)
            }
            ApiError::Control(E::Invalid { violations, .. }) => {
                (StatusCode::BAD_REQUEST, Some(violations.clone()))
            }
            ApiError::Control(E::NotFound(_)) | ApiError::NotFound(_) => {
                (StatusCode::NOT_FOUND, None)
            }
            ApiError::Control(E::Conflict(_)) => (StatusCode::CONFLICT, None),
            ApiError::Control(E::Forbidden(_)) => (StatusCode::FORBIDDEN, None),
            ApiError::Control(E::Backend(_)) => (StatusCode::INTERNAL_SERVER_ERROR, None),
            ApiError::Control(E::Storage(message)) => {
                tracing::error!("{message}");
                (StatusCode::INTERNAL_SERVER_ERROR, None)
            }
            ApiError::Control(E::Busy(_)) => {
                let mut response =
                    error_response(StatusCode::SERVICE_UNAVAILABLE, self.to_string(), None);
                response.headers_mut().insert(
                    axum::http::header::RETRY_AFTER,
                    axum::http::HeaderValue::from_static("1"),
                );
                return response;
            }
            ApiError::Control(E::Internal(error)) => {
                tracing::error!("control API internal error: {error:#}");
                return error_response(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "internal error; see the server log".to_string(),
                    None,
                );
            }
            ApiError::Unauthorized => {
                let body = ErrorEnvelope {
                    success: false,
                    message: self.to_string(),
                    data: Some(ErrorDetails {
                        violations: Vec::new(),
                        help: Some(TOKEN_HELP.to_string()),
                    }),
                };
                return (StatusCode::UNAUTHORIZED, Json(body)).into_response();
            }
            ApiError::WrongToken => (StatusCode::UNAUTHORIZED, None),
            ApiError::PayloadTooLarge(_) => (StatusCode::PAYLOAD_TOO_LARGE, None),
            ApiError::BodyTimeout => (StatusCode::REQUEST_TIMEOUT, None),
            ApiError::UnsupportedMediaType(sent) => {
                return crate::api::unsupported_media_type(sent);
            }
        };
        error_response(status, self.to_string(), violations)
    }
}

/// The configured body limit, put in the request extensions by the router.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BodyLimit(pub usize);

/// Reads the whole body, mapping a body over the limit to 413 and a
/// non-empty body without a JSON `Content-Type` to 415.
async fn read_body<S: Send + Sync>(req: Request, state: &S) -> Result<Bytes, ApiError> {
    let limit = req.extensions().get::<BodyLimit>().map_or(1 << 20, |l| l.0);
    let content_type = req
        .headers()
        .get(header::CONTENT_TYPE)
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
    let bytes = Bytes::from_request(req, state).await.map_err(|rejection| {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::PayloadTooLarge(limit)
        } else if crate::guard::body_timed_out(&rejection) {
            ApiError::BodyTimeout
        } else {
            ApiError::bad_request(format!(
                "cannot read the request body: {}",
                rejection.body_text()
            ))
        }
    })?;
    // The router refuses every type but JSON; a body without any type
    // (a browser's Blob) is refused here.
    if content_type.is_none() && !is_blank(&bytes) {
        return Err(ApiError::UnsupportedMediaType(String::new()));
    }
    Ok(bytes)
}

fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(bytes).map_err(|e| {
        use serde_json::error::Category;
        match e.classify() {
            Category::Data => ApiError::bad_request(format!("invalid request body: {e}")),
            Category::Eof => {
                ApiError::bad_request(format!("malformed JSON: the body ends too early ({e})"))
            }
            Category::Syntax | Category::Io => {
                ApiError::bad_request(format!("malformed JSON: {e}"))
            }
        }
    })
}

fn is_blank(bytes: &[u8]) -> bool {
    bytes.iter().all(u8::is_ascii_whitespace)
}

/// Parses a body that must be a JSON object into a request struct (serde
/// would otherwise also accept an array for a struct).
fn parse_object<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    let value: Value = parse(bytes)?;
    if !value.is_object() {
        return Err(ApiError::bad_request(format!(
            "the body must be a JSON object, not {}",
            stdx::json::kind_of(&value)
        )));
    }
    serde_json::from_value(value)
        .map_err(|e| ApiError::bad_request(format!("invalid request body: {e}")))
}

/// A required JSON body of any JSON value: malformed JSON, a missing body,
/// an oversized one or one not sent as JSON give the envelope (400, 413 or
/// 415) instead of axum's plain text.
#[derive(Debug)]
pub struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let bytes = read_body(req, state).await?;
        if is_blank(&bytes) {
            return Err(ApiError::bad_request("the request needs a JSON body"));
        }
        parse(&bytes).map(JsonBody)
    }
}

/// A required JSON object body deserialized into a request struct; a wrong
/// field type, a missing field or a non-object gives a 400 envelope.
#[derive(Debug)]
pub struct JsonObject<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonObject<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let bytes = read_body(req, state).await?;
        if is_blank(&bytes) {
            return Err(ApiError::bad_request("the request needs a JSON body"));
        }
        parse_object(&bytes).map(JsonObject)
    }
}

/// An optional JSON body: an empty body or `null` is `None`.
#[derive(Debug)]
pub struct OptionalJsonBody<T>(pub Option<T>);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for OptionalJsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let bytes = read_body(req, state).await?;
        if is_blank(&bytes) || bytes.trim_ascii() == b"null" {
            return Ok(OptionalJsonBody(None));
        }
        parse(&bytes).map(|v| OptionalJsonBody(Some(v)))
    }
}

/// An optional JSON object body for a request struct: empty or `null` is `None`.
#[derive(Debug)]
pub struct OptionalJsonObject<T>(pub Option<T>);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for OptionalJsonObject<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let bytes = read_body(req, state).await?;
        if is_blank(&bytes) || bytes.trim_ascii() == b"null" {
            return Ok(OptionalJsonObject(None));
        }
        parse_object(&bytes).map(|v| OptionalJsonObject(Some(v)))
    }
}

/// The query string as decoded pairs; a malformed query gives a 400 envelope.
#[derive(Debug, Default)]
pub struct QueryPairs(pub Vec<(String, String)>);

impl QueryPairs {
    /// The last value of `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.0
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

impl<S: Send + Sync> FromRequestParts<S> for QueryPairs {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        axum::extract::Query::<Vec<(String, String)>>::from_request_parts(parts, state)
            .await
            .map(|q| QueryPairs(q.0))
            .map_err(|r| {
                ApiError::bad_request(format!("malformed query string: {}", r.body_text()))
            })
    }
}

/// Turns any error response that is not JSON (axum's 405, a rejection of a
/// built-in extractor) into the envelope, keeping its status and headers
/// such as `Allow`.
pub(crate) fn envelope_errors(response: Response) -> Response {
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if is_json {
        return response;
    }
    let (mut parts, _) = response.into_parts();
    let message = match status {
        StatusCode::METHOD_NOT_ALLOWED => {
            let allow = parts
                .headers
                .get(header::ALLOW)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("");
            format!("method not allowed; this route accepts {allow}")
        }
        StatusCode::NOT_FOUND => "not found".to_string(),
        StatusCode::PAYLOAD_TOO_LARGE => "the request body is too large".to_string(),
        other => other.canonical_reason().unwrap_or("error").to_lowercase(),
    };
    let body =
        serde_json::to_vec(&json!({ "success": false, "message": message })).unwrap_or_default();
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    Response::from_parts(parts, axum::body::Body::from(body))
}
