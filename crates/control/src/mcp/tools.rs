//! The MCP tools: one per control operation, each a thin call into
//! [`Control`] that turns its answer into JSON text and its error into a tool
//! error (`isError`) carrying the REST API's message. Knows nothing of HTTP.

use base64::Engine;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock, Implementation, ServerCapabilities, ServerConfig};
use rmcp::{ServerHandler, tool, tool_handler, tool_router};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{Control, Error, RunRequest, TASKS};

/// What an agent reads first: how the tools fit together.
const INSTRUCTIONS: &str = "Drives a simulated game task-automation service. Typical flow: \
configs_list, then task_run with a configuration name, then poll task_status until `status` \
is `completed`, `stopped` or `failed`; logs_recent shows what happened and operator_screenshot \
shows the game window. Only one task runs at a time: starting another while one runs fails.";

/// The MCP server of one session: the control core and the tool table.
#[derive(Clone)]
pub struct ControlTools {
    /// The shared control core; every session sees the same state.
    control: Control,
    /// The tools this type declares, built by `#[tool_router]`.
    tool_router: ToolRouter<ControlTools>,
}

impl ControlTools {
    pub fn new(control: Control) -> Self {
        ControlTools {
            control,
            tool_router: Self::tool_router(),
        }
    }
}

/// Arguments of `task_run`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TaskRunArgs {
    /// Name of a stored configuration (see configs_list) whose enabled tasks run in order.
    config_name: String,
}

/// Arguments of `task_single`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TaskSingleArgs {
    /// Task class name (such as `ReceiveRewardsTask`) or its index as a string (such as `2`); see task_list.
    task_name: String,
    /// Configuration to take the task's settings from; omitted or empty: the current configuration.
    #[serde(default)]
    config_name: Option<String>,
}

/// Arguments of `configs_get`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ConfigNameArgs {
    /// Configuration name, as listed by configs_list.
    config_name: String,
}

/// Arguments of `logs_recent`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LogsArgs {
    /// How many of the most recent lines to return (default 100).
    #[serde(default)]
    #[schemars(range(min = 0))]
    count: Option<usize>,
}

/// Arguments of `backend_restart`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RestartArgs {
    /// Backend start arguments (default `--inline --no-admin`). Also known: `--python`, and the simulator's `--step-ms=N` (step duration, 1 to 600000 ms), `--fail-task=NAME` (a task class, index or extension id that fails when run) and `--unavailable` (every command fails). An unknown argument makes the restart fail.
    #[serde(default)]
    arguments: Option<String>,
}

/// Arguments of `operator_help`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OperatorHelpArgs {
    /// Operator method name, as listed by operator_list.
    method: String,
}

/// Arguments of `operator_call`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OperatorCallArgs {
    /// Operator method name, as listed by operator_list; must not be empty.
    method: String,
    /// Parameters of the method, as described by operator_help.
    #[serde(default)]
    params: Option<serde_json::Map<String, serde_json::Value>>,
}

/// Arguments of `extensions_run`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ExtensionRunArgs {
    /// Extension id, as listed by extensions_list.
    id: String,
    /// Name of a task configuration to run the extension with (optional).
    #[serde(default)]
    config: Option<String>,
}

/// Arguments of `extensions_stop`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ExtensionIdArgs {
    /// Extension id, as listed by extensions_list.
    id: String,
}

#[tool_router]
impl ControlTools {
    #[tool(
        description = "Current state of the task runner: `status` (idle, running, completed, stopped or failed; a stop in progress is `running` with `stopping: true`), `progress` text such as `2/4 ReceiveRewardsTask`, and the numbers in `completedTasks`/`totalTasks`.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn task_status(&self) -> CallToolResult {
        json_reply(self.control.task_status().await)
    }

    #[tool(
        description = "Start all enabled tasks of a stored configuration, in order. Fails when the configuration does not exist or a task is already running. Returns at once; poll task_status.",
        annotations(
            destructive_hint = false,
            idempotent_hint = false,
            open_world_hint = false
        )
    )]
    async fn task_run(&self, Parameters(args): Parameters<TaskRunArgs>) -> CallToolResult {
        let request = RunRequest {
            config_name: Some(args.config_name),
            ..RunRequest::default()
        };
        json_reply(self.control.task_run(request).await)
    }

    #[tool(
        description = "Start one task, by class name or index (see task_list), with the settings of a configuration. Fails when a task is already running. Returns at once; poll task_status.",
        annotations(
            destructive_hint = false,
            idempotent_hint = false,
            open_world_hint = false
        )
    )]
    async fn task_single(&self, Parameters(args): Parameters<TaskSingleArgs>) -> CallToolResult {
        json_reply(
            self.control
                .task_single(&args.task_name, args.config_name.as_deref())
                .await,
        )
    }

    #[tool(
        description = "Ask the running task to stop; it stops between two steps and the status becomes `stopped`.",
        annotations(
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    async fn task_stop(&self) -> CallToolResult {
        json_reply(self.control.task_stop().await)
    }

    #[tool(
        description = "The tasks the backend knows, in run order: index, class name (usable as task_single's taskName) and the configuration section holding its settings.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn task_list(&self) -> CallToolResult {
        let tasks: Vec<serde_json::Value> = TASKS
            .iter()
            .enumerate()
            .map(|(index, task)| {
                serde_json::json!({"index": index, "class": task.class, "section": task.section})
            })
            .collect();
        json_reply(Ok(tasks))
    }

    #[tool(
        description = "Names of the stored task configurations.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn configs_list(&self) -> CallToolResult {
        json_reply(self.control.configs_list().await)
    }

    #[tool(
        description = "One stored task configuration (TasksConfig JSON), without the login credentials of `startGame`.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn configs_get(&self, Parameters(args): Parameters<ConfigNameArgs>) -> CallToolResult {
        json_reply(self.control.config_get(&args.config_name).await)
    }

    #[tool(
        description = "The most recent backend log lines, oldest first.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn logs_recent(&self, Parameters(args): Parameters<LogsArgs>) -> CallToolResult {
        json_reply(Ok(self.control.logs_recent(args.count.unwrap_or(100))))
    }

    #[tool(
        description = "A screenshot of the game window (1280x720 PNG image).",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn operator_screenshot(&self) -> CallToolResult {
        match self.control.screenshot_png().await {
            Ok(png) => CallToolResult::success(vec![ContentBlock::image(
                base64::engine::general_purpose::STANDARD.encode(png),
                "image/png",
            )]),
            Err(error) => error_reply(error),
        }
    }

    #[tool(
        description = "The operator methods that operator_call accepts, with a short summary of each.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn operator_list(&self) -> CallToolResult {
        json_reply(self.control.operator_list().await)
    }

    #[tool(
        description = "Detailed help of one operator method, with the JSON Schema of its parameters.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn operator_help(
        &self,
        Parameters(args): Parameters<OperatorHelpArgs>,
    ) -> CallToolResult {
        json_reply(self.control.operator_help(&args.method).await)
    }

    #[tool(
        description = "Call an operator method (see operator_list and operator_help) with its parameters and return its result.",
        annotations(destructive_hint = false, open_world_hint = false)
    )]
    async fn operator_call(
        &self,
        Parameters(args): Parameters<OperatorCallArgs>,
    ) -> CallToolResult {
        json_reply(
            self.control
                .operator_call(&args.method, args.params.map(serde_json::Value::Object))
                .await,
        )
    }

    #[tool(
        description = "The registered extensions: id, name, whether one is running, and more.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn extensions_list(&self) -> CallToolResult {
        json_reply(self.control.extensions_list().await)
    }

    #[tool(
        description = "Run an extension, optionally with a task configuration.",
        annotations(
            destructive_hint = false,
            idempotent_hint = false,
            open_world_hint = false
        )
    )]
    async fn extensions_run(
        &self,
        Parameters(args): Parameters<ExtensionRunArgs>,
    ) -> CallToolResult {
        json_reply(
            self.control
                .extension_run(&args.id, args.config.as_deref())
                .await,
        )
    }

    #[tool(
        description = "Stop a running extension.",
        annotations(
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    async fn extensions_stop(
        &self,
        Parameters(args): Parameters<ExtensionIdArgs>,
    ) -> CallToolResult {
        json_reply(self.control.extension_stop(&args.id).await)
    }

    #[tool(
        description = "Restart the backend with new start arguments (default `--inline --no-admin`); stops the running task. Simulator options rehearse timing and failures: `--step-ms=50` sets the step duration, `--fail-task=ReceiveRewardsTask` makes that task fail. An unknown argument makes the restart fail and keeps the old backend.",
        annotations(
            destructive_hint = true,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    async fn backend_restart(&self, Parameters(args): Parameters<RestartArgs>) -> CallToolResult {
        json_reply(
            self.control
                .backend_restart(args.arguments.as_deref())
                .await,
        )
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for ControlTools {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(
                Implementation::new(super::SERVER_NAME, env!("CARGO_PKG_VERSION"))
                    .with_title("activity-site control service")
                    .with_description(env!("CARGO_PKG_DESCRIPTION")),
            )
            .with_instructions(INSTRUCTIONS)
    }
}

/// A successful answer as JSON text, mirrored as structured content when it
/// is an object; an error as a tool error.
fn json_reply<T: Serialize>(result: Result<T, Error>) -> CallToolResult {
    match result.and_then(|value| {
        serde_json::to_value(value).map_err(|e| Error::from(anyhow::Error::from(e)))
    }) {
        Ok(value) => {
            let text = serde_json::to_string_pretty(&value).unwrap_or_else(|_| value.to_string());
            let mut reply = CallToolResult::success(vec![ContentBlock::text(text)]);
            if value.is_object() {
                reply.structured_content = Some(value);
            }
            reply
        }
        Err(error) => error_reply(error),
    }
}

/// A tool error whose text is the message the REST API puts in its envelope:
/// the control core's own, except for internal faults, which are logged and
/// not shown.
fn error_reply(error: Error) -> CallToolResult {
    let message = match error {
        Error::Internal(error) => {
            tracing::error!("MCP tool internal error: {error:#}");
            "internal error; see the server log".to_string()
        }
        other => other.to_string(),
    };
    CallToolResult::error(vec![ContentBlock::text(message)])
}
