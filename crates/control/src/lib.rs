//! `activity-site-control`: the stand-in of the game task-automation control
//! service that `activity-site serve` mounts beside the site. Its own crate:
//! it depends on nothing of the site generator (only on the shared leaves of
//! `stdx`: the atomic write, the invisible characters, relative paths, a
//! JSON value's type in words), the compiler keeps that so, and an edit here
//! does not recompile the generator's modules.
//!
//! # May know, may not know
//!
//! May know `stdx` and the state it keeps (`activity-site-store`: the
//! state directory, configurations, settings and their shapes, names, the
//! log ring, the error type, re-exported here under their module names)
//! alone of the workspace. May not know the checker, the builder or any
//! module of the generator: it does not depend on them.
//! Inside, what the compiler cannot say (`tests/architecture.rs`): the core
//! names neither endpoint nor [`guard`], the endpoints not each other,
//! [`guard`] nothing of the crate, and the [`simulator`] reaches the server
//! only through [`protocol`].
//!
//! # Code map
//!
//! - This file: [`Control`], the core's one handle, and its options; the
//!   core's parts beside it: the backend process and its supervision
//!   ([`supervisor`]), the line protocol ([`protocol`]), the program behind
//!   the server (`program`: the real one or the simulator), the simulator
//!   program itself ([`simulator`]), configurations, settings, extensions,
//!   operator methods and the screenshot they draw, logs, the state
//!   directory ([`state`]) and the typed shapes ([`shapes`]); no axum.
//! - [`guard`]: who may call `/api` and `/mcp`: `Host` against
//!   `AllowedHosts` (loopback names only by default), `Origin` against the
//!   server's own and the allowed origins, CORS preflights; one policy for
//!   both, and one meaning (408) for a body that missed the deadline.
//! - [`api`]: axum handlers of the REST API, one file per resource,
//!   envelope, errors, token and content-type checks, OpenAPI.
//! - [`mcp`]: the `/mcp` endpoint (streamable HTTP): MCP tools over the
//!   core, with a bound on live sessions.
//! - `src/bin/activity-site-simulator.rs`: the simulator as a program of its
//!   own, so this crate's tests run a backend without the `activity-site`
//!   binary (which runs the same simulator as its hidden `backend`
//!   subcommand).
//!
//! [`api`] and [`mcp`] use the core and [`guard`], never each other.
//!
//! "Backend" is one thing here: the program behind the server, a child
//! process (the contract's word). The supervisor of that process is
//! [`supervisor`], the interface over what differs between the real
//! program and the simulator is `program::Program`, the REST resource
//! `/api/Backend` is `api/backend.rs`, and `activity-site backend` is the
//! subcommand that runs the simulator.
//!
//! # The core
//!
//! [`Control`] is the one handle the REST API and the MCP tools share: every
//! operation of the contract is a method on it, and every failure is an
//! [`Error`] whose variant says which class of status it is. Tasks, stops,
//! the status, foreground extensions, operator calls and the screenshot go
//! to the backend, a child process, through the line protocol of
//! [`supervisor`]; the simulator ([`simulator`]) is this same binary run as
//! `activity-site backend`. State lives in a state directory (`configs/`,
//! `settings.json`, `extensions/`, `backend/`, spelled once in
//! [`state::layout`]), shared with the real backend and the desktop
//! client: read as it is now, changed under a lock ([`state`]) that is
//! waited for off the request threads ([`state::blocking`]; 503 past
//! [`state::LOCK_WAIT`]). Only regular files inside it are read or written:
//! a link, a FIFO, a socket or a folder where a state file belongs is a
//! stray, never followed out of the directory nor opened in a way that
//! blocks; a file another program is writing is waited for
//! ([`state::SETTLING`]) before it is judged corrupt. The core knows
//! nothing of axum or HTTP.
//!
//! The backend speaks one protocol, typed in [`protocol`]: the server
//! builds a [`protocol::Command`] and reads a [`protocol::Answer`]; the
//! simulator reads the one and writes the other, and reaches the server
//! through nothing else (`tests/architecture.rs` holds it so). What
//! differs between the real program and the simulator (extensions, the
//! operator, the screenshot) is one interface, [`program::Program`],
//! chosen once in [`Control::open`].
//!
//! # Which texts are protocol, which are for people
//!
//! - **Wire protocol**, spelled as the real program spells it and never
//!   translated: the command words and answer keys of [`protocol`], the
//!   real program's refusals it compares (`protocol::NO_EXTENSIONS`, in
//!   Chinese as the program prints them), the log shape `HH:MM:SS | LEVEL |
//!   message` with its [`START_MARKER`] and [`DONE_MARKER`], the
//!   simulator's `[OK]`/`[FAIL]` replies and `*** Unknown syntax` (the
//!   real program's words), and the contract's values (`success`,
//!   `unauthorized`, the task states).
//! - **For people**: the message of every [`Error`] (the API's `message`,
//!   in English, the language of the contract's clients, which show it as
//!   it is) and the text of the log lines after their level. Both stay
//!   English: the control service has no language negotiation, and its
//!   clients compare nothing in them.

// The docs are the contributors' map: built with `--document-private-items`,
// where a link to a private item resolves.
#![allow(rustdoc::private_intra_doc_links)]

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

pub mod api;
mod extensions;
mod font;
pub mod guard;
pub mod mcp;
mod operator;
mod program;
mod protocol;
mod runner;
mod screenshot;
mod service_config;
pub mod simulator;
pub mod supervisor;

// What the service keeps (its state directory, the names, the log ring,
// the error type) is a crate of its own below this one, under the module
// names the code uses.
use activity_site_store::{configs, error, logs, settings};
pub use activity_site_store::{names, shapes, state};

pub use configs::{
    CONFIG_NAME_PATTERN, CREDENTIAL_FIELDS, DEFAULT_CONFIG_NAME, MAX_CONFIG_NAME_CHARS,
    default_config, name_problem,
};
pub use error::{Error, Result};
pub use extensions::{ExtensionInfo, ExtensionProblem, ReloadReport};
pub use logs::{LogBuffer, LogEvent, LogItem, LogSubscription};
pub use operator::{
    HEIGHT as SCREENSHOT_HEIGHT, OperatorHelp, OperatorMethod, WIDTH as SCREENSHOT_WIDTH,
};
pub use runner::{
    BackendInfo, DEFAULT_ARGUMENTS, DEFAULT_STEP_MS, DONE_MARKER, JobKind, RunState, START_MARKER,
    TASKS, TaskKind, TaskStatus, find_task,
};
pub use service_config::ServiceConfig;
pub use settings::{SettingsUpdate, default_settings, settings_schema, update_schema};
pub use supervisor::{BackendCommand, DEFAULT_ANSWER_TIMEOUT, EXIT_GRACE};

/// The longest backend arguments a restart accepts, in bytes: a real command
/// line is a few dozen; the bound keeps a client from making the server hold
/// megabytes it would only ever show cut.
pub const MAX_ARGUMENTS_BYTES: usize = 4096;
pub use shapes::{AppSettings, TasksConfig};

use configs::Configs;
use extensions::Extensions;
use program::Program;
use program::real::Real;
use program::simulated::Simulated;
use protocol::Command;
use settings::Settings;
use supervisor::Supervisor;

/// Where the backend saves the screenshot, in the state directory.
const SCREENSHOT_FILE: &str = state::layout::SCREENSHOT;

/// Where a configuration run with `persist: false` is written for the
/// backend to read, in the state directory.
const TEMPORARY_CONFIG: &str = state::layout::TEMPORARY_CONFIG;

/// The target a run of a temporary configuration reports.
const TEMPORARY_TARGET: &str = "(temporary configuration)";

/// What the server expects a job it starts on configuration `name` to be.
fn intent(kind: JobKind, name: &str) -> protocol::Intent {
    protocol::Intent {
        kind,
        target: name.to_string(),
        configs: vec![name.to_string()],
    }
}

/// How to open the control core.
#[derive(Debug, Clone)]
pub struct ControlOptions {
    /// Where configurations, settings and extensions live (created if missing).
    pub state_dir: PathBuf,
    /// Arguments of the first backend session (simulator options included),
    /// for example `--inline --no-admin --step-ms=20` in tests.
    pub backend_arguments: String,
    /// The backend program (by default the simulator in this binary; tests
    /// name the `activity-site` binary, which is not theirs).
    pub backend: BackendCommand,
    /// How long a `--json` command to the backend may take.
    pub answer_timeout: Duration,
    /// How many log lines the ring buffer keeps.
    pub log_capacity: usize,
    /// Whether a real backend's `launch` and `kill` operator methods (which
    /// start and end programs on this machine) are relayed: `serve` sets it
    /// when an access token guards the API (SECURITY.md).
    pub process_methods: bool,
}

impl ControlOptions {
    pub fn new(state_dir: impl Into<PathBuf>) -> ControlOptions {
        ControlOptions {
            state_dir: state_dir.into(),
            backend_arguments: DEFAULT_ARGUMENTS.to_string(),
            backend: BackendCommand::current_simulator(),
            answer_timeout: DEFAULT_ANSWER_TIMEOUT,
            log_capacity: 2000,
            process_methods: false,
        }
    }
}

/// Body of `POST /api/Task/run`: `{configName}`, `{config, persist: true}`
/// or `{config, persist: false}`. An empty body runs the current configuration.
#[derive(Debug, Clone, Default, Deserialize, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(example = json!({"configName": "Default"}))]
pub struct RunRequest {
    /// An existing configuration to run; with `config` and `persist: true`,
    /// the name the supplied configuration is saved under.
    #[serde(default)]
    pub config_name: Option<String>,
    /// A configuration (TasksConfig object) to run.
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub config: Option<Value>,
    /// Whether to save `config` (under `configName`, or the current
    /// configuration's name) before running it. Default false.
    #[serde(default)]
    pub persist: Option<bool>,
}

/// What `extension_stop` did.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExtensionStop {
    pub id: String,
    /// Whether the extension was running (and is now stopping).
    pub was_running: bool,
}

/// What `extension_run` started.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExtensionRun {
    pub id: String,
    pub background: bool,
    /// The task configuration named by the `config` query, if any.
    pub config_name: Option<String>,
    /// The runner's status (for a foreground run, this job).
    pub task: TaskStatus,
}

/// The handle on the control core; cheap to clone.
#[derive(Debug, Clone)]
pub struct Control {
    /// Where state lives.
    state_dir: Arc<PathBuf>,
    /// What the server passes over in it.
    strays: state::Strays,
    /// The backend log shared by every part.
    log: LogBuffer,
    /// The backend process.
    backend: Arc<Supervisor>,
    configs: Arc<Configs>,
    settings: Arc<Settings>,
    extensions: Arc<Extensions>,
    /// The program behind the server: the real backend or the simulator,
    /// chosen once when the core opens.
    program: Arc<dyn Program>,
    /// The configuration used when a request names none: the last one run
    /// by name. A std mutex, never held across an await.
    current_config: Arc<Mutex<String>>,
}

impl Control {
    /// Opens (and on first start, seeds) the state directory.
    pub fn open(options: ControlOptions) -> anyhow::Result<Control> {
        let dir = &options.state_dir;
        std::fs::create_dir_all(dir).map_err(|e| {
            anyhow::anyhow!("cannot create the state directory {}: {e}", dir.display())
        })?;
        let log = LogBuffer::new(options.log_capacity);
        state::sweep_leftovers(dir);
        let strays = state::Strays::new(dir, log.clone());
        strays.scan_top();
        let configs = Configs::open(dir, strays.clone())?;
        let settings = Settings::open(strays.clone())?;
        let extensions = Extensions::open(dir, log.clone(), strays.clone())?;
        let simulated = options.backend.is_simulator();
        // The first command starts the process (opening needs no runtime).
        let backend = Arc::new(Supervisor::new(log.clone(), dir.clone(), &options));
        let configs = Arc::new(configs);
        let extensions = Arc::new(extensions);
        let program: Arc<dyn Program> = if simulated {
            Arc::new(Simulated::new(
                Arc::clone(&backend),
                Arc::clone(&extensions),
                Arc::clone(&configs),
            ))
        } else {
            Arc::new(Real::new(Arc::clone(&backend), options.process_methods))
        };
        Ok(Control {
            state_dir: Arc::new(dir.clone()),
            strays,
            log,
            backend,
            configs,
            settings: Arc::new(settings),
            extensions,
            program,
            current_config: Arc::new(Mutex::new(DEFAULT_CONFIG_NAME.to_string())),
        })
    }

    pub fn state_dir(&self) -> &Path {
        &self.state_dir
    }

    /// The backend log, for callers that want to add lines (the server's own events).
    pub fn log(&self) -> &LogBuffer {
        &self.log
    }

    fn current_config(&self) -> String {
        self.current_config
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    fn set_current_config(&self, name: &str) {
        *self
            .current_config
            .lock()
            .unwrap_or_else(|e| e.into_inner()) = name.to_string();
    }

    // Tasks.

    /// The backend's status, with the session fields of this server.
    pub async fn task_status(&self) -> Result<TaskStatus> {
        self.backend.status().await
    }

    /// Runs every enabled task of a configuration (named, supplied and saved,
    /// or supplied and temporary). 409 while busy, 400 for a missing configuration.
    ///
    /// A name in any form runs the configuration it names
    /// ([`configs::Configs::resolve`]), and the backend, the log and the
    /// store see that one spelling. All or nothing: a run that saved its
    /// configuration (`persist: true`) and then did not start puts the
    /// previous configuration (or none) and the current name back.
    pub async fn task_run(&self, request: RunRequest) -> Result<TaskStatus> {
        let named = match request
            .config_name
            .as_deref()
            .filter(|n| !n.trim().is_empty())
        {
            Some(name) => Some(self.configs.resolve(name)?),
            None => None,
        };
        let saved = Mutex::new(None);
        // The configuration is read (and saved) off the request threads:
        // the lock may be held by another program.
        let result = self
            .backend
            .start_job(|| {
                state::blocking(|| match request.config {
                    Some(config) => {
                        configs::check_object(&config)?;
                        if request.persist == Some(true) {
                            let name = named.clone().unwrap_or_else(|| self.current_config());
                            let previous = self.configs.save(&name, config)?;
                            *saved.lock().unwrap_or_else(|e| e.into_inner()) =
                                Some((name.clone(), previous, self.current_config()));
                            self.set_current_config(&name);
                            Ok((
                                Command::TaskRun {
                                    config: self.config_word(&name)?,
                                },
                                intent(JobKind::Tasks, &name),
                            ))
                        } else {
                            // The backend reads a configuration from a file: a
                            // temporary one is written beside it, and its path
                            // (which the real program takes for a name) is sent.
                            let path = self.state_dir.join(TEMPORARY_CONFIG);
                            state::write_json(&self.strays, &path, &config)?;
                            let word = path.display().to_string();
                            if protocol::real_word(&word).is_none() {
                                return Err(Error::Backend(
                                    "the state directory's path holds a double quote, which the \
                                 backend's command line cannot carry"
                                        .to_string(),
                                ));
                            }
                            Ok((
                                Command::TaskRun { config: word },
                                protocol::Intent {
                                    kind: JobKind::Tasks,
                                    target: TEMPORARY_TARGET.to_string(),
                                    configs: Vec::new(),
                                },
                            ))
                        }
                    }
                    None => {
                        let name = named.clone().unwrap_or_else(|| self.current_config());
                        self.configs.runnable(&name)?;
                        self.set_current_config(&name);
                        Ok((
                            Command::TaskRun {
                                config: self.config_word(&name)?,
                            },
                            intent(JobKind::Tasks, &name),
                        ))
                    }
                })
            })
            .await;
        if result.is_err()
            && let Some((name, previous, current)) =
                saved.into_inner().unwrap_or_else(|e| e.into_inner())
        {
            if let Err(e) = self.configs.restore(&name, previous) {
                self.log.error(&format!(
                    "The run did not start and configuration `{name}` could not be put back: {e}"
                ));
            }
            self.set_current_config(&current);
        }
        result
    }

    /// How a stored configuration is named on the backend's command line:
    /// by its name when the real program would read that name as one
    /// (`configs/NAME.json` of its application-data folder, which is the
    /// state directory), else by the path of its file (a name holding
    /// `.json`, a blank or a quote).
    fn config_word(&self, name: &str) -> Result<String> {
        if protocol::real_word(name).as_deref() == Some(name)
            && !name.contains(".json")
            && !name.starts_with('-')
        {
            return Ok(name.to_string());
        }
        let path = self.configs.path(name);
        let path = std::path::absolute(&path)
            .unwrap_or(path)
            .display()
            .to_string();
        if protocol::real_word(&path).is_none() {
            return Err(Error::Backend(format!(
                "the configuration `{name}` cannot be named on the backend's command line"
            )));
        }
        Ok(path)
    }

    /// Runs one task (class name in any case, section name, or index string)
    /// of `config_name` or, when empty, of the current configuration.
    pub async fn task_single(
        &self,
        task_name: &str,
        config_name: Option<&str>,
    ) -> Result<TaskStatus> {
        let index = find_task(task_name).ok_or_else(|| {
            if task_name.trim().is_empty() {
                Error::bad_request("`taskName` must not be empty")
            } else {
                Error::bad_request(format!(
                    "unknown task `{task_name}`; use a class name ({}) or an index from 0 to {}",
                    TASKS.iter().map(|t| t.class).collect::<Vec<_>>().join(", "),
                    TASKS.len() - 1
                ))
            }
        })?;
        let name = match config_name.filter(|n| !n.trim().is_empty()) {
            Some(name) => self.configs.resolve(name)?,
            None => self.current_config(),
        };
        self.backend
            .start_job(|| {
                state::blocking(|| self.configs.runnable(&name))?;
                Ok((
                    Command::TaskSingle {
                        task: TASKS[index].class.to_string(),
                        config: self.config_word(&name)?,
                    },
                    intent(JobKind::Single, &name),
                ))
            })
            .await
    }

    /// Asks the running job to stop; succeeds (reporting the status) when
    /// nothing runs.
    pub async fn task_stop(&self) -> Result<TaskStatus> {
        if let Some(status) = self.backend.stop_job().await? {
            return Ok(status);
        }
        self.log.info("Stop requested, but no task is running");
        self.backend.status().await
    }

    // Backend.

    /// Restarts the backend with `arguments` (default `--inline --no-admin`):
    /// starts a new process and, once it answers, ends the old one (its job
    /// is reported stopped) and the background extensions. A start that
    /// fails is a backend error that names the reason and changes nothing;
    /// arguments longer than [`MAX_ARGUMENTS_BYTES`] are refused before
    /// anything keeps them (the session, the status, the log).
    pub async fn backend_restart(&self, arguments: Option<&str>) -> Result<BackendInfo> {
        if let Some(arguments) = arguments.filter(|a| a.len() > MAX_ARGUMENTS_BYTES) {
            return Err(Error::bad_request(format!(
                "the backend arguments are {} bytes long; the limit is {MAX_ARGUMENTS_BYTES}",
                arguments.len()
            )));
        }
        let arguments = arguments
            .filter(|a| !a.trim().is_empty())
            .unwrap_or(DEFAULT_ARGUMENTS);
        let info = self.backend.restart(arguments).await.inspect_err(|e| {
            self.log.error(&format!("Backend restart failed: {e}"));
        })?;
        self.extensions.stop_all();
        Ok(info)
    }

    /// Stops the backend process and background extensions; tasks, the
    /// operator and the screenshot then fail with a backend error until a
    /// restart. Succeeds when it was already stopped.
    pub async fn backend_stop(&self) -> Result<BackendInfo> {
        let info = self.backend.stop().await;
        self.extensions.stop_all();
        Ok(info)
    }

    /// Ends the backend process and every log subscription (server shutdown).
    pub async fn shutdown(&self) {
        self.extensions.stop_all();
        self.backend.shutdown().await;
        self.log.info("The server is shutting down");
        self.log.close();
    }

    /// The `count` most recent log lines, oldest first.
    pub fn logs_recent(&self, count: usize) -> Vec<String> {
        self.log.recent(count)
    }

    /// Follows the log from after `last_event_id`, or from now.
    pub fn logs_subscribe(&self, last_event_id: Option<u64>) -> LogSubscription {
        self.log.subscribe(last_event_id)
    }

    // Configurations.

    // Every change of the state directory below runs off the request
    // threads ([`state::wait_off_thread`], a bounded number at once): it may
    // wait for the lock another program holds. Reads run on the request
    // thread unless they find a file being written ([`state::read`]).

    pub async fn configs_list(&self) -> Result<Vec<String>> {
        state::read(|| self.configs.list()).await
    }

    /// The configuration without the `startGame` credentials; a name in
    /// any form finds the configuration it names
    /// ([`configs::Configs::resolve`]).
    pub async fn config_get(&self, name: &str) -> Result<Value> {
        state::read(|| self.configs.get(name)).await
    }

    /// Creates a configuration from `body` (an object) or the defaults,
    /// under the name's NFC form; 409 when the name is an existing one in
    /// another spelling.
    pub async fn config_create(&self, name: &str, body: Option<Value>) -> Result<Value> {
        let name = configs::checked(name)?;
        let created = state::wait_off_thread(|| self.configs.create(&name, body)).await?;
        self.log.info(&format!("Configuration `{name}` created"));
        Ok(created)
    }

    /// Replaces a configuration, keeping stored credentials the body omits.
    pub async fn config_replace(&self, name: &str, body: Value) -> Result<Value> {
        let (name, saved) = state::wait_off_thread(|| {
            let name = self.configs.resolve(name)?;
            let saved = self.configs.replace(&name, body)?;
            Ok::<_, Error>((name, saved))
        })
        .await?;
        self.log.info(&format!("Configuration `{name}` updated"));
        Ok(saved)
    }

    pub async fn config_delete(&self, name: &str) -> Result<()> {
        let name = state::wait_off_thread(|| {
            let name = self.configs.resolve(name)?;
            self.configs.delete(&name).map(|()| name)
        })
        .await?;
        self.log.info(&format!("Configuration `{name}` deleted"));
        Ok(())
    }

    // Settings.

    /// The settings as the file is now (a corrupt file is moved aside and
    /// answered with a storage error).
    pub async fn settings_get(&self) -> Result<Value> {
        state::read(|| self.settings.get()).await
    }

    /// Applies a nested or dotted partial update; all or nothing.
    pub async fn settings_update(&self, patch: &Value) -> Result<SettingsUpdate> {
        let update = state::wait_off_thread(|| self.settings.update(patch)).await?;
        self.log
            .info(&format!("Settings updated: {}", update.updated.join(", ")));
        Ok(update)
    }

    // Extensions and the operator: the backend program's (see [`program`]).

    /// The extensions: with a real backend, its own (`extension list`),
    /// else this server's.
    pub async fn extensions_list(&self) -> Result<Vec<ExtensionInfo>> {
        self.program.extensions().await
    }

    /// The JSON Schema of the extension's configuration.
    pub async fn extension_schema(&self, id: &str) -> Result<Value> {
        self.program.extension_schema(id).await
    }

    /// The current configuration as JSON text.
    pub async fn extension_config(&self, id: &str) -> Result<String> {
        let config = self.program.extension_config(id).await?;
        Ok(serde_json::to_string(&config).map_err(anyhow::Error::from)?)
    }

    /// Validates `config_json` against the schema and stores it.
    pub async fn extension_set_config(&self, id: &str, config_json: &str) -> Result<Value> {
        self.program.extension_set_config(id, config_json).await
    }

    /// Runs an extension; a foreground one occupies the task runner (409 while
    /// busy). `config_name` names a task configuration it should use.
    pub async fn extension_run(&self, id: &str, config_name: Option<&str>) -> Result<ExtensionRun> {
        self.program.extension_run(id, config_name).await
    }

    /// Stops a running extension; succeeds (with `wasRunning: false`) when it is not running.
    pub async fn extension_stop(&self, id: &str) -> Result<ExtensionStop> {
        self.program.extension_stop(id).await
    }

    /// Reads the extensions again.
    pub async fn extensions_reload(&self) -> Result<ReloadReport> {
        let report = self.program.extensions_reload().await?;
        self.log.info(&format!(
            "Extensions reloaded: {} loaded, {} added, {} changed, {} removed",
            report.loaded.len(),
            report.added.len(),
            report.changed.len(),
            report.removed.len()
        ));
        Ok(report)
    }

    /// The operator methods: with a real backend, its own, else this
    /// server's allow-list.
    pub async fn operator_list(&self) -> Result<Vec<OperatorMethod>> {
        self.program.operator_list().await
    }

    pub async fn operator_help(&self, method: &str) -> Result<OperatorHelp> {
        self.program.operator_help(method).await
    }

    /// Calls a method: 400 for an empty method or bad params, 404 for an
    /// unknown method, a backend error when the backend is down or the
    /// call fails (its own message). The simulator's methods are checked
    /// here against their schemas; a real backend's by the backend.
    pub async fn operator_call(&self, method: &str, params: Option<Value>) -> Result<Value> {
        let params = params.unwrap_or_else(|| Value::Object(Default::default()));
        self.program.operator_call(method, params).await
    }

    /// A fresh 1280x720 PNG of the game window: the backend saves it in the
    /// state directory, this reads it back.
    pub async fn screenshot_png(&self) -> Result<Vec<u8>> {
        let path = self.state_dir.join(SCREENSHOT_FILE);
        let path = std::path::absolute(&path).unwrap_or(path);
        self.program.save_screenshot(&path, SCREENSHOT_FILE).await?;
        let png = state::read(|| state::read_file(&self.state_dir, &path))
            .await
            .map_err(|e| {
            tracing::error!("cannot read the screenshot {}: {e}", path.display());
            Error::Backend(format!(
                "the backend saved no screenshot at `{SCREENSHOT_FILE}` in the state directory ({})",
                e.kind()
            ))
        })?;
        Ok(png)
    }
}
