//! `/api/Task/...`: status, run, single and stop.

use axum::Json;
use axum::extract::State;
use serde::Deserialize;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::ApiState;
use crate::api::envelope::{ApiError, Envelope, ErrorEnvelope, JsonObject, OptionalJsonObject, ok};
use crate::{Control, RunRequest, TaskStatus};

pub(crate) fn routes() -> OpenApiRouter<ApiState> {
    OpenApiRouter::new()
        .routes(routes!(task_status))
        .routes(routes!(task_run))
        .routes(routes!(task_single))
        .routes(routes!(task_stop))
}

/// Body of `POST /api/Task/single`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(example = json!({"taskName": "ReceiveRewardsTask", "configName": "Default"}))]
pub struct SingleRequest {
    /// A task class name (any case, such as `ReceiveRewardsTask`) or its index as a string (`"2"`).
    #[schema(min_length = 1)]
    pub task_name: String,
    /// The configuration to use; empty or absent for the current one.
    #[serde(default)]
    pub config_name: Option<String>,
}

/// The run state and progress of the task runner.
#[utoipa::path(get, path = "/api/Task/status", tag = "Task",
    responses(
        (status = 200, description = "The status", body = Envelope<TaskStatus>),
        (status = 500, description = "The backend did not answer in time", body = ErrorEnvelope),
    ))]
async fn task_status(
    State(control): State<Control>,
) -> Result<Json<Envelope<TaskStatus>>, ApiError> {
    Ok(ok(control.task_status().await?))
}

/// Runs all enabled tasks of a configuration: `{configName}`, `{config, persist: true}`
/// (saved, then run) or `{config, persist: false}` (run once, never saved). An empty body runs
/// the current configuration.
#[utoipa::path(post, path = "/api/Task/run", tag = "Task",
    request_body(content = Option<RunRequest>, description = "One of the three body shapes"),
    responses(
        (status = 200, description = "The job started", body = Envelope<TaskStatus>),
        (status = 400, description = "The configuration does not exist, or the body is malformed", body = ErrorEnvelope),
        (status = 409, description = "A task is already running", body = ErrorEnvelope),
        (status = 500, description = "Backend error", body = ErrorEnvelope),
    ))]
async fn task_run(
    State(control): State<Control>,
    OptionalJsonObject(request): OptionalJsonObject<RunRequest>,
) -> Result<Json<Envelope<TaskStatus>>, ApiError> {
    Ok(ok(control.task_run(request.unwrap_or_default()).await?))
}

/// Runs one task by class name or index.
#[utoipa::path(post, path = "/api/Task/single", tag = "Task",
    request_body = SingleRequest,
    responses(
        (status = 200, description = "The job started", body = Envelope<TaskStatus>),
        (status = 400, description = "Unknown task or configuration, or a malformed body", body = ErrorEnvelope),
        (status = 409, description = "A task is already running", body = ErrorEnvelope),
        (status = 500, description = "Backend error", body = ErrorEnvelope),
    ))]
async fn task_single(
    State(control): State<Control>,
    JsonObject(request): JsonObject<SingleRequest>,
) -> Result<Json<Envelope<TaskStatus>>, ApiError> {
    let status = control
        .task_single(&request.task_name, request.config_name.as_deref())
        .await?;
    Ok(ok(status))
}

/// Asks the running task to stop; answers the status (`stopping`, or the
/// last state when nothing runs).
#[utoipa::path(post, path = "/api/Task/stop", tag = "Task",
    responses(
        (status = 200, description = "Stop requested", body = Envelope<TaskStatus>),
    ))]
async fn task_stop(State(control): State<Control>) -> Result<Json<Envelope<TaskStatus>>, ApiError> {
    Ok(ok(control.task_stop().await?))
}
