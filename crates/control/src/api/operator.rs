//! `/api/Operator/...`: screenshot, list, help and call.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Map, Value};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::ApiState;
use crate::api::envelope::{ApiError, Envelope, ErrorEnvelope, JsonObject, ObjectEnvelope, ok};
use crate::{Control, OperatorHelp, OperatorMethod};

pub(crate) fn routes() -> OpenApiRouter<ApiState> {
    OpenApiRouter::new()
        .routes(routes!(operator_screenshot))
        .routes(routes!(operator_list))
        .routes(routes!(operator_help))
        .routes(routes!(operator_call))
}

/// The `{method}` parameter, read by name.
#[derive(Debug, Deserialize)]
struct MethodPath {
    method: String,
}

/// Body of `POST /api/Operator/call`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[schema(example = json!({"method": "click", "params": {"x": 640, "y": 360}}))]
pub struct CallRequest {
    /// The method name (non-empty), as listed by `GET /api/Operator/list`.
    #[schema(min_length = 1)]
    pub method: String,
    /// Parameters, checked against the method's JSON Schema.
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub params: Option<Map<String, Value>>,
}

/// The simulated game window as a 1280x720 PNG (not an envelope).
#[utoipa::path(get, path = "/api/Operator/screenshot", tag = "Operator",
    responses(
        (status = 200, description = "A 1280x720 PNG", content_type = "image/png", body = Vec<u8>),
        (status = 500, description = "Backend error", body = ErrorEnvelope),
    ))]
async fn operator_screenshot(State(control): State<Control>) -> Result<Response, ApiError> {
    screenshot_response(&control).await
}

/// A fresh screenshot as an `image/png` response that no cache keeps.
pub(crate) async fn screenshot_response(control: &Control) -> Result<Response, ApiError> {
    let png = control.screenshot_png().await?;
    Ok((
        [
            (header::CONTENT_TYPE, "image/png"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        png,
    )
        .into_response())
}

/// The available operator methods.
#[utoipa::path(get, path = "/api/Operator/list", tag = "Operator",
    responses(
        (status = 200, description = "Methods", body = Envelope<Vec<OperatorMethod>>),
        (status = 500, description = "Backend error (a real backend lists its own methods)", body = ErrorEnvelope),
    ))]
async fn operator_list(
    State(control): State<Control>,
) -> Result<Json<Envelope<Vec<OperatorMethod>>>, ApiError> {
    Ok(ok(control.operator_list().await?))
}

/// Help of one method: summary, description and the JSON Schema of its parameters.
#[utoipa::path(get, path = "/api/Operator/help/{method}", tag = "Operator",
    params(("method" = String, Path, description = "Method name")),
    responses(
        (status = 200, description = "Help", body = Envelope<OperatorHelp>),
        (status = 404, description = "Unknown method", body = ErrorEnvelope),
    ))]
async fn operator_help(
    State(control): State<Control>,
    Path(MethodPath { method }): Path<MethodPath>,
) -> Result<Json<Envelope<OperatorHelp>>, ApiError> {
    Ok(ok(control.operator_help(&method).await?))
}

/// Calls a method with its parameters.
#[utoipa::path(post, path = "/api/Operator/call", tag = "Operator",
    request_body = CallRequest,
    responses(
        (status = 200, description = "The method's result", body = ObjectEnvelope),
        (status = 400, description = "`method` is empty, or the parameters are invalid", body = ErrorEnvelope),
        (status = 404, description = "Unknown method", body = ErrorEnvelope),
        (status = 500, description = "Backend error", body = ErrorEnvelope),
    ))]
async fn operator_call(
    State(control): State<Control>,
    JsonObject(request): JsonObject<CallRequest>,
) -> Result<Json<Envelope<Value>>, ApiError> {
    let params = request.params.map(Value::Object);
    Ok(ok(control.operator_call(&request.method, params).await?))
}
