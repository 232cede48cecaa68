//! `/api/Settings`: read the five sections, apply a partial update.

use axum::Json;
use axum::extract::State;
use serde::Serialize;
use serde_json::Value;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::ApiState;
use crate::api::envelope::{ApiError, Envelope, ErrorEnvelope, JsonBody, ok};
use crate::{AppSettings, Control};

pub(crate) fn routes() -> OpenApiRouter<ApiState> {
    OpenApiRouter::new().routes(routes!(settings_show, settings_update))
}

/// The envelope of a settings update: `data` lists the updated fields,
/// `ignored` the unknown keys of the body.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct SettingsUpdated {
    pub success: bool,
    pub message: String,
    /// Dotted paths of the updated fields, such as `advanced.backend.remote.enabled`.
    pub data: Vec<String>,
    /// Dotted paths of unknown keys that were ignored.
    pub ignored: Vec<String>,
}

/// The settings: `general`, `display`, `update`, `advanced` and `notification`.
#[utoipa::path(get, path = "/api/Settings", tag = "Settings",
    responses(
        (status = 200, description = "The settings", body = Envelope<AppSettings>),
        (status = 500, description = "The settings file was found corrupt and moved aside (the message says why), or cannot be read", body = ErrorEnvelope),
    ))]
async fn settings_show(State(control): State<Control>) -> Result<Json<Envelope<Value>>, ApiError> {
    Ok(ok(control.settings_get().await?))
}

/// Applies the fields present (nested objects, or dotted keys such as
/// `{"advanced": {"backend.remote.enabled": true}}`); others are unchanged. A
/// value of the wrong type rejects the whole update; unknown keys are ignored.
#[utoipa::path(put, path = "/api/Settings", tag = "Settings",
    request_body(content = Object, description = "A partial settings object"),
    responses(
        (status = 200, description = "The updated fields", body = SettingsUpdated),
        (status = 400, description = "No valid update in the body, or a value of the wrong type", body = ErrorEnvelope),
        (status = 500, description = "The settings file was found corrupt and moved aside (the message says why), or cannot be written", body = ErrorEnvelope),
        (status = 503, description = "Another program holds the state directory's lock longer than the server waits for it (5 s); nothing was changed, try again", body = ErrorEnvelope),
    ))]
async fn settings_update(
    State(control): State<Control>,
    JsonBody(patch): JsonBody<Value>,
) -> Result<Json<SettingsUpdated>, ApiError> {
    let update = control.settings_update(&patch).await?;
    Ok(Json(SettingsUpdated {
        success: true,
        message: "success".to_string(),
        data: update.updated,
        ignored: update.ignored,
    }))
}
