//! `/api/Extensions...`: list, schema, configuration, run, stop and reload.

use axum::Json;
use axum::extract::{Path, State};
use serde::Deserialize;
use serde_json::Value;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::ApiState;
use crate::api::envelope::{
    ApiError, EmptyEnvelope, Envelope, ErrorEnvelope, JsonBody, ObjectEnvelope, QueryPairs, ok,
    ok_empty,
};
use crate::{Control, ExtensionInfo, ExtensionRun, ExtensionStop, ReloadReport};

pub(crate) fn routes() -> OpenApiRouter<ApiState> {
    OpenApiRouter::new()
        .routes(routes!(extensions_index))
        .routes(routes!(extensions_schema))
        .routes(routes!(extensions_config, extensions_config_update))
        .routes(routes!(extensions_run))
        .routes(routes!(extensions_stop))
        .routes(routes!(extensions_reload))
}

/// The `{id}` parameter, read by name.
#[derive(Debug, Deserialize)]
struct IdPath {
    id: String,
}

/// The registered extensions.
#[utoipa::path(get, path = "/api/Extensions", tag = "Extensions",
    responses(
        (status = 200, description = "Extensions", body = Envelope<Vec<ExtensionInfo>>),
        (status = 500, description = "Backend error (a real backend lists its own extensions)", body = ErrorEnvelope),
    ))]
async fn extensions_index(
    State(control): State<Control>,
) -> Result<Json<Envelope<Vec<ExtensionInfo>>>, ApiError> {
    Ok(ok(control.extensions_list().await?))
}

/// The JSON Schema of an extension's configuration.
#[utoipa::path(get, path = "/api/Extensions/{id}/schema", tag = "Extensions",
    params(("id" = String, Path, description = "Extension id")),
    responses(
        (status = 200, description = "A JSON Schema", body = ObjectEnvelope),
        (status = 404, description = "No such extension", body = ErrorEnvelope),
    ))]
async fn extensions_schema(
    State(control): State<Control>,
    Path(IdPath { id }): Path<IdPath>,
) -> Result<Json<Envelope<Value>>, ApiError> {
    Ok(ok(control.extension_schema(&id).await?))
}

/// The current configuration, as a JSON string.
#[utoipa::path(get, path = "/api/Extensions/{id}/config", tag = "Extensions",
    params(("id" = String, Path, description = "Extension id")),
    responses(
        (status = 200, description = "The configuration as JSON text", body = Envelope<String>),
        (status = 404, description = "No such extension", body = ErrorEnvelope),
    ))]
async fn extensions_config(
    State(control): State<Control>,
    Path(IdPath { id }): Path<IdPath>,
) -> Result<Json<Envelope<String>>, ApiError> {
    Ok(ok(control.extension_config(&id).await?))
}

/// Sets the configuration. The body is a JSON string holding the
/// configuration's JSON text; it is validated against the schema, and every
/// violation is listed in `data.violations`.
#[utoipa::path(put, path = "/api/Extensions/{id}/config", tag = "Extensions",
    params(("id" = String, Path, description = "Extension id")),
    request_body(content = String, content_type = "application/json", description = "The configuration as JSON text, sent as a JSON string"),
    responses(
        (status = 200, description = "Stored", body = EmptyEnvelope),
        (status = 400, description = "Not a JSON string, not JSON inside, or schema violations", body = ErrorEnvelope),
        (status = 404, description = "No such extension", body = ErrorEnvelope),
        (status = 503, description = "Another program holds the state directory's lock longer than the server waits for it (5 s); nothing was changed, try again", body = ErrorEnvelope),
    ))]
async fn extensions_config_update(
    State(control): State<Control>,
    Path(IdPath { id }): Path<IdPath>,
    JsonBody(body): JsonBody<Value>,
) -> Result<Json<Envelope<()>>, ApiError> {
    let Value::String(text) = body else {
        return Err(ApiError::bad_request(
            "the body must be a JSON string holding the configuration, such as \"{\\\"threshold\\\": 200}\"",
        ));
    };
    control.extension_set_config(&id, &text).await?;
    Ok(ok_empty())
}

/// Runs an extension. A foreground extension occupies the task runner like a
/// task (409 while one runs); a background one runs beside tasks.
#[utoipa::path(post, path = "/api/Extensions/{id}/run", tag = "Extensions",
    params(
        ("id" = String, Path, description = "Extension id"),
        ("config" = Option<String>, Query, description = "A task configuration name the extension uses"),
    ),
    responses(
        (status = 200, description = "Started", body = Envelope<ExtensionRun>),
        (status = 400, description = "The named configuration does not exist, or the extension's configuration is invalid", body = ErrorEnvelope),
        (status = 404, description = "No such extension", body = ErrorEnvelope),
        (status = 409, description = "A task or this extension is already running", body = ErrorEnvelope),
        (status = 500, description = "Backend error", body = ErrorEnvelope),
    ))]
async fn extensions_run(
    State(control): State<Control>,
    Path(IdPath { id }): Path<IdPath>,
    query: QueryPairs,
) -> Result<Json<Envelope<ExtensionRun>>, ApiError> {
    Ok(ok(control.extension_run(&id, query.get("config")).await?))
}

/// Stops a running extension (`wasRunning: false` when it was not running).
#[utoipa::path(post, path = "/api/Extensions/{id}/stop", tag = "Extensions",
    params(("id" = String, Path, description = "Extension id")),
    responses(
        (status = 200, description = "Stop requested", body = Envelope<ExtensionStop>),
        (status = 404, description = "No such extension", body = ErrorEnvelope),
    ))]
async fn extensions_stop(
    State(control): State<Control>,
    Path(IdPath { id }): Path<IdPath>,
) -> Result<Json<Envelope<ExtensionStop>>, ApiError> {
    Ok(ok(control.extension_stop(&id).await?))
}

/// Rescans the extensions directory and reports what changed.
#[utoipa::path(post, path = "/api/Extensions/reload", tag = "Extensions",
    responses(
        (status = 200, description = "The reload report", body = Envelope<ReloadReport>),
    ))]
async fn extensions_reload(
    State(control): State<Control>,
) -> Result<Json<Envelope<ReloadReport>>, ApiError> {
    Ok(ok(control.extensions_reload().await?))
}
