//! `/api/Configs...`: list, get, create, replace and delete task configurations.

use axum::Json;
use axum::extract::{Path, State};
use serde::Deserialize;
use serde_json::Value;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::Control;
use crate::api::ApiState;
use crate::api::envelope::{
    ApiError, EmptyEnvelope, Envelope, ErrorEnvelope, JsonBody, ObjectEnvelope, OptionalJsonBody,
    ok, ok_empty,
};

pub(crate) fn routes() -> OpenApiRouter<ApiState> {
    OpenApiRouter::new()
        .routes(routes!(configs_index))
        .routes(routes!(
            configs_show,
            configs_create,
            configs_replace,
            configs_delete
        ))
}

/// The `{configName}` parameter, read by name (the outer catch-all
/// parameters of the router are visible too).
#[derive(Debug, Deserialize)]
struct ConfigPath {
    #[serde(rename = "configName")]
    name: String,
}

/// The configuration names.
#[utoipa::path(get, path = "/api/Configs", tag = "Configs",
    responses(
        (status = 200, description = "Configuration names", body = Envelope<Vec<String>>),
    ))]
async fn configs_index(
    State(control): State<Control>,
) -> Result<Json<Envelope<Vec<String>>>, ApiError> {
    Ok(ok(control.configs_list().await?))
}

/// A configuration, without the `startGame` credentials.
#[utoipa::path(get, path = "/api/Configs/{configName}", tag = "Configs",
    params(("configName" = String, Path, description = "Configuration name")),
    responses(
        (status = 200, description = "The configuration: the sections of the component TasksConfig (#/components/schemas/TasksConfig), plus any other field it was saved with", body = ObjectEnvelope),
        (status = 404, description = "The configuration does not exist", body = ErrorEnvelope),
    ))]
async fn configs_show(
    State(control): State<Control>,
    Path(ConfigPath { name }): Path<ConfigPath>,
) -> Result<Json<Envelope<Value>>, ApiError> {
    Ok(ok(control.config_get(&name).await?))
}

/// Creates a configuration: the body (a TasksConfig object) when given,
/// otherwise a complete default configuration.
#[utoipa::path(post, path = "/api/Configs/{configName}", tag = "Configs",
    params(("configName" = String, Path, description = "Name; must not contain \\ / : * ? \" < > | or control characters")),
    request_body(content = Option<Object>, description = "Initial content (optional)"),
    responses(
        (status = 200, description = "Created; the stored configuration without credentials", body = ObjectEnvelope),
        (status = 400, description = "Forbidden character or unusable name, or a body that is not an object", body = ErrorEnvelope),
        (status = 409, description = "The configuration already exists, or something other than a file (a FIFO, a link, a folder) is at its name", body = ErrorEnvelope),
        (status = 503, description = "Another program holds the state directory's lock longer than the server waits for it (5 s); nothing was changed, try again", body = ErrorEnvelope),
    ))]
async fn configs_create(
    State(control): State<Control>,
    Path(ConfigPath { name }): Path<ConfigPath>,
    OptionalJsonBody(body): OptionalJsonBody<Value>,
) -> Result<Json<Envelope<Value>>, ApiError> {
    Ok(ok(control.config_create(&name, body).await?))
}

/// Replaces a configuration; `startGame` credentials absent from the body keep their stored values.
#[utoipa::path(put, path = "/api/Configs/{configName}", tag = "Configs",
    params(("configName" = String, Path, description = "Configuration name")),
    request_body(content = Object, description = "The complete TasksConfig object"),
    responses(
        (status = 200, description = "Updated; the stored configuration without credentials", body = ObjectEnvelope),
        (status = 400, description = "The body is not a JSON object", body = ErrorEnvelope),
        (status = 404, description = "The configuration does not exist", body = ErrorEnvelope),
        (status = 503, description = "Another program holds the state directory's lock longer than the server waits for it (5 s); nothing was changed, try again", body = ErrorEnvelope),
    ))]
async fn configs_replace(
    State(control): State<Control>,
    Path(ConfigPath { name }): Path<ConfigPath>,
    JsonBody(body): JsonBody<Value>,
) -> Result<Json<Envelope<Value>>, ApiError> {
    Ok(ok(control.config_replace(&name, body).await?))
}

/// Deletes a configuration (its file is removed).
#[utoipa::path(delete, path = "/api/Configs/{configName}", tag = "Configs",
    params(("configName" = String, Path, description = "Configuration name")),
    responses(
        (status = 200, description = "Deleted", body = EmptyEnvelope),
        (status = 404, description = "The configuration does not exist", body = ErrorEnvelope),
        (status = 503, description = "Another program holds the state directory's lock longer than the server waits for it (5 s); nothing was changed, try again", body = ErrorEnvelope),
    ))]
async fn configs_delete(
    State(control): State<Control>,
    Path(ConfigPath { name }): Path<ConfigPath>,
) -> Result<Json<Envelope<()>>, ApiError> {
    control.config_delete(&name).await?;
    Ok(ok_empty())
}
