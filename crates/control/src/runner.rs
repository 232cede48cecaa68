//! The task runner of the simulated backend, and the status types the
//! server reports.
//!
//! The runner lives in the backend process ([`super::simulator`]). One job
//! runs at a time: a configuration's enabled tasks, one task, or a
//! foreground extension. A job is a tokio task that takes timed steps,
//! writes log lines (`[Start]` on the first, `[Done]` on the last), and
//! honours a stop request between steps. The session holds the simulator
//! options parsed from the start arguments. This module knows which tasks
//! exist but not where configurations are stored.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::sync::watch;

use crate::error::{Error, Result};
use crate::logs::LogBuffer;

/// Backend arguments when a restart gives none (the contract's default).
pub const DEFAULT_ARGUMENTS: &str = "--inline --no-admin";

/// What the backend prints on the log line that opens a job (the real
/// backend's marker, which its desktop client watches for).
pub const START_MARKER: &str = "[Start]";

/// What the backend prints on the log line that closes a job.
pub const DONE_MARKER: &str = "[Done]";

/// Step duration when the arguments do not set `--step-ms`.
pub const DEFAULT_STEP_MS: u64 = 1500;

/// A task of the automation, in execution order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TaskKind {
    /// The class name clients use (`taskName` of `Task/single`).
    pub class: &'static str,
    /// The section of a configuration that enables and configures it.
    pub section: &'static str,
    /// What each step of the simulation logs.
    pub steps: &'static [&'static str],
}

/// The tasks, by index.
pub const TASKS: [TaskKind; 5] = [
    TaskKind {
        class: "StartGameTask",
        section: "startGame",
        steps: &[
            "Launching the game client",
            "Waiting for the login screen",
            "Entering the game world",
        ],
    },
    TaskKind {
        class: "TrailblazePowerTask",
        section: "trailblazePower",
        steps: &[
            "Opening the interastral guide",
            "Challenging the selected instance",
            "Collecting the rewards",
        ],
    },
    TaskKind {
        class: "ReceiveRewardsTask",
        section: "receiveRewards",
        steps: &[
            "Claiming mail",
            "Collecting assignments",
            "Claiming daily training",
        ],
    },
    TaskKind {
        class: "CosmicStrifeTask",
        section: "cosmicStrife",
        steps: &[
            "Entering the simulated universe",
            "Clearing domains",
            "Claiming weekly points",
        ],
    },
    TaskKind {
        class: "MissionAccomplishTask",
        section: "missionAccomplished",
        steps: &["Checking notifications", "Closing the game"],
    },
];

/// Finds a task by class name (any case), section name (any case) or index string.
pub fn find_task(name: &str) -> Option<usize> {
    let name = name.trim();
    if let Ok(index) = name.parse::<usize>() {
        return (index < TASKS.len()).then_some(index);
    }
    TASKS
        .iter()
        .position(|t| t.class.eq_ignore_ascii_case(name) || t.section.eq_ignore_ascii_case(name))
}

/// The indices of the tasks a configuration enables (`enabled: true` in its section).
pub fn enabled_tasks(config: &Value) -> Vec<usize> {
    TASKS
        .iter()
        .enumerate()
        .filter(|(_, t)| {
            config
                .get(t.section)
                .and_then(|s| s.get("enabled"))
                .and_then(Value::as_bool)
                == Some(true)
        })
        .map(|(i, _)| i)
        .collect()
}

/// Run states reported by `Task/status`: exactly the five values the
/// service's web UI knows (it treats any other value as idle and stops
/// polling). A stop in progress stays `running`, with `stopping: true`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum RunState {
    /// Nothing has run since the backend started.
    #[default]
    Idle,
    /// A job is executing (or winding down after a stop request).
    Running,
    /// The last job finished every step.
    Completed,
    /// The last job was stopped.
    Stopped,
    /// The last job failed.
    Failed,
}

/// What a job runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum JobKind {
    /// All enabled tasks of a configuration (`Task/run`).
    Tasks,
    /// One task (`Task/single`).
    Single,
    /// A foreground extension (`Extensions/{id}/run`).
    Extension,
}

/// The backend session: which arguments it was started with.
#[derive(Debug, Clone, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct BackendInfo {
    /// Increases with every restart.
    pub session: u64,
    /// The start arguments of this session.
    pub arguments: String,
    /// When this session started (local time, ISO 8601).
    pub started_at: String,
    /// Duration of one simulated step in milliseconds.
    pub step_ms: u64,
    /// Whether the backend answers commands (false after `--unavailable`).
    pub available: bool,
    /// Whether the backend runs (false after `POST /api/Backend/stop`,
    /// until the next restart).
    pub running: bool,
}

/// `data` of `GET /api/Task/status`: the contract's `status` and `progress`,
/// the fields the service's web UI reads (`session_id`, `pid`, `mode`,
/// `configs`, `unit`, `error`, in its snake case), and details of the job.
///
/// The backend answers `task status --json` with this shape too; the server
/// reads it leniently (missing fields take their defaults, `sessionId` and
/// `task` of the real backend are understood) and sets the session fields.
#[derive(Debug, Clone, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct TaskStatus {
    /// One of idle, running, completed, stopped, failed. A stop in progress
    /// is `running` with `stopping: true`.
    pub status: RunState,
    /// Progress as human-readable text, such as `2/4 ReceiveRewardsTask (step 1/3)`
    /// (a string, as the contract says). The numbers are in `completedTasks`
    /// and `totalTasks`.
    pub progress: String,
    /// Whether a stop was requested and the running job is winding down.
    pub stopping: bool,
    /// The backend session, as text (changes with every restart).
    #[serde(rename = "session_id", alias = "sessionId")]
    pub session_id: String,
    /// The process id of the backend process while it runs (a child of
    /// this server), 0 when none runs (after `POST /api/Backend/stop`, or
    /// after it died).
    pub pid: u32,
    /// How the backend runs: `inline` (with `--inline`), `python` (with
    /// `--python`) or `cli`.
    pub mode: String,
    /// The configuration names of the current or last job (`["Default"]`);
    /// empty for extensions and temporary configurations.
    pub configs: Vec<String>,
    /// The unit executing now (a task class name or extension id), empty when none.
    #[serde(alias = "task")]
    pub unit: String,
    /// What the current or last job runs.
    pub job: Option<JobKind>,
    /// The configuration (or extension id) of the current or last job.
    pub target: Option<String>,
    /// The task executing now, if any.
    pub current_task: Option<String>,
    /// Tasks finished by the current or last job (the numerator of a progress bar).
    pub completed_tasks: usize,
    /// Tasks the current or last job runs (the denominator of a progress bar).
    pub total_tasks: usize,
    /// Why the last job failed (null otherwise).
    pub error: Option<String>,
    /// When the current or last job started (local time, ISO 8601).
    pub started_at: Option<String>,
    /// When the last job ended (local time, ISO 8601).
    pub finished_at: Option<String>,
    /// The backend session.
    pub backend: BackendInfo,
}

/// A job ready to start: a name for the log and the steps of each unit.
#[derive(Debug, Clone)]
pub(crate) struct Plan {
    pub kind: JobKind,
    /// Configuration name or extension id.
    pub target: String,
    /// The configurations the job uses, for `configs` of the status.
    pub configs: Vec<String>,
    pub units: Vec<Unit>,
}

/// One task (or an extension) inside a plan.
#[derive(Debug, Clone)]
pub(crate) struct Unit {
    pub name: String,
    pub steps: Vec<String>,
}

impl Plan {
    /// A plan of the given task indices.
    pub fn tasks(kind: JobKind, target: &str, indices: &[usize]) -> Plan {
        Plan {
            kind,
            target: target.to_string(),
            configs: vec![target.to_string()],
            units: indices
                .iter()
                .map(|&i| Unit {
                    name: TASKS[i].class.to_string(),
                    steps: TASKS[i].steps.iter().map(|s| s.to_string()).collect(),
                })
                .collect(),
        }
    }
}

/// Simulator options parsed from the backend arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SimOptions {
    step: Duration,
    /// A task class, section, index or extension id that fails when run.
    fail: Option<String>,
    /// Whether every command fails with a backend error.
    unavailable: bool,
}

impl SimOptions {
    /// The duration of one step.
    pub fn step(&self) -> Duration {
        self.step
    }

    /// Whether every command fails with a backend error.
    pub fn unavailable(&self) -> bool {
        self.unavailable
    }

    /// The task or extension that fails, if any.
    pub fn fail_target(&self) -> Option<&str> {
        self.fail.as_deref()
    }
}

/// Parses backend arguments. Known: `--inline`, `--no-admin`, `--python`,
/// `--step-ms=N` (1..=600000), `--fail-task=NAME`, `--unavailable`; values
/// may also follow as the next word.
pub(crate) fn parse_arguments(arguments: &str) -> std::result::Result<SimOptions, String> {
    let mut options = SimOptions {
        step: Duration::from_millis(DEFAULT_STEP_MS),
        fail: None,
        unavailable: false,
    };
    let mut words = arguments.split_whitespace();
    while let Some(word) = words.next() {
        let (flag, inline_value) = match word.split_once('=') {
            Some((flag, value)) => (flag, Some(value.to_string())),
            None => (word, None),
        };
        let mut value = |flag: &str| {
            inline_value
                .clone()
                .or_else(|| words.next().map(str::to_string))
                .ok_or_else(|| format!("`{flag}` needs a value"))
        };
        match flag {
            "--inline" | "--no-admin" | "--python" if inline_value.is_none() => {}
            "--unavailable" if inline_value.is_none() => options.unavailable = true,
            "--step-ms" => {
                let text = value(flag)?;
                let ms = text
                    .parse::<u64>()
                    .ok()
                    .filter(|ms| (1..=600_000).contains(ms))
                    .ok_or_else(|| {
                        format!("`--step-ms` takes milliseconds from 1 to 600000, not `{text}`")
                    })?;
                options.step = Duration::from_millis(ms);
            }
            "--fail-task" => {
                let name = value(flag)?;
                if name.is_empty() {
                    return Err("`--fail-task` needs a task name".to_string());
                }
                options.fail = Some(name);
            }
            _ => return Err(format!("unknown argument `{word}`")),
        }
    }
    Ok(options)
}

/// The runner: the current job, the last result and the backend session.
#[derive(Debug)]
pub(crate) struct Runner {
    /// All mutable state; a std mutex, never held across an await.
    state: Mutex<RunnerState>,
    /// Where jobs write their lines.
    log: LogBuffer,
}

#[derive(Debug)]
struct RunnerState {
    status: RunState,
    progress: String,
    stopping: bool,
    /// Configuration names of the current or last job.
    configs: Vec<String>,
    job: Option<ActiveJob>,
    last_kind: Option<JobKind>,
    target: Option<String>,
    current_task: Option<String>,
    completed_tasks: usize,
    total_tasks: usize,
    error: Option<String>,
    started_at: Option<String>,
    finished_at: Option<String>,
    backend: Backend,
    next_job: u64,
}

impl RunnerState {
    /// Ends the current job in `state` with `progress`: no stop is pending,
    /// no task runs, it finished now, and the runner is free.
    fn end_job(&mut self, state: RunState, progress: String) {
        self.status = state;
        self.stopping = false;
        self.progress = progress;
        self.current_task = None;
        self.finished_at = Some(now());
        self.job = None;
    }
}

#[derive(Debug)]
struct ActiveJob {
    id: u64,
    kind: JobKind,
    target: String,
    stop: watch::Sender<bool>,
}

#[derive(Debug)]
struct Backend {
    info: BackendInfo,
    options: SimOptions,
}

/// The time now, as the status reports it: local time, ISO 8601 with
/// milliseconds.
pub(crate) fn now() -> String {
    chrono::Local::now()
        .format("%Y-%m-%dT%H:%M:%S%.3f")
        .to_string()
}

impl Runner {
    pub fn new(log: LogBuffer, arguments: &str) -> anyhow::Result<Runner> {
        let options = parse_arguments(arguments)
            .map_err(|e| anyhow::anyhow!("bad backend arguments: {e}"))?;
        let backend = Backend {
            info: BackendInfo {
                session: 1,
                arguments: arguments.to_string(),
                started_at: now(),
                step_ms: options.step.as_millis() as u64,
                available: !options.unavailable,
                running: true,
            },
            options,
        };
        log.info(&format!("Backend started with arguments `{arguments}`"));
        Ok(Runner {
            state: Mutex::new(RunnerState {
                status: RunState::Idle,
                progress: "idle".to_string(),
                stopping: false,
                configs: Vec::new(),
                job: None,
                last_kind: None,
                target: None,
                current_task: None,
                completed_tasks: 0,
                total_tasks: 0,
                error: None,
                started_at: None,
                finished_at: None,
                backend,
                next_job: 1,
            }),
            log,
        })
    }

    /// The log the jobs write to.
    pub fn log(&self) -> &LogBuffer {
        &self.log
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, RunnerState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn status(&self) -> TaskStatus {
        let st = self.lock();
        let backend = &st.backend.info;
        TaskStatus {
            status: st.status,
            progress: st.progress.clone(),
            stopping: st.stopping,
            // As the real program: a new id for every job, 32 hex digits.
            session_id: format!("{:08x}{:024x}", std::process::id(), st.next_job - 1),
            pid: if backend.running {
                std::process::id()
            } else {
                0
            },
            // As the real program: what the last job was, `unknown` before one.
            mode: match st.job.as_ref().map(|j| j.kind).or(st.last_kind) {
                Some(JobKind::Tasks) => "run",
                Some(JobKind::Single) => "single",
                Some(JobKind::Extension) => "extension",
                None => "unknown",
            }
            .to_string(),
            configs: st.configs.clone(),
            unit: st.current_task.clone().unwrap_or_default(),
            job: st.job.as_ref().map(|j| j.kind).or(st.last_kind),
            target: st.target.clone(),
            current_task: st.current_task.clone(),
            completed_tasks: st.completed_tasks,
            total_tasks: st.total_tasks,
            error: st.error.clone(),
            started_at: st.started_at.clone(),
            finished_at: st.finished_at.clone(),
            backend: st.backend.info.clone(),
        }
    }

    /// Fails with a backend error when the backend was stopped or the
    /// session was started `--unavailable`.
    pub fn ensure_available(&self) -> Result<()> {
        self.lock().backend.check()
    }

    /// Starts a job. The busy check, `prepare` (which may persist a
    /// configuration) and the state change happen under one lock, so of many
    /// concurrent starts exactly one wins.
    pub fn start(self: &Arc<Self>, prepare: impl FnOnce() -> Result<Plan>) -> Result<TaskStatus> {
        let (plan, id, stop, options) = {
            let mut st = self.lock();
            if let Some(job) = &st.job {
                let what = match job.kind {
                    JobKind::Extension => format!("extension `{}`", job.target),
                    _ => format!("`{}`", job.target),
                };
                return Err(Error::conflict(format!(
                    "a task is already running ({what}, {})",
                    st.progress
                )));
            }
            st.backend.check()?;
            let plan = prepare()?;
            let id = st.next_job;
            st.next_job += 1;
            let (stop, stop_rx) = watch::channel(false);
            st.job = Some(ActiveJob {
                id,
                kind: plan.kind,
                target: plan.target.clone(),
                stop,
            });
            st.status = RunState::Running;
            st.stopping = false;
            st.configs = plan.configs.clone();
            st.last_kind = Some(plan.kind);
            st.target = Some(plan.target.clone());
            st.current_task = None;
            st.completed_tasks = 0;
            st.total_tasks = plan.units.len();
            st.error = None;
            st.started_at = Some(now());
            st.finished_at = None;
            st.progress = format!("0/{} starting", plan.units.len());
            (plan, id, stop_rx, st.backend.options.clone())
        };
        let kind = match plan.kind {
            JobKind::Tasks => "tasks of",
            JobKind::Single => "a single task of",
            JobKind::Extension => "extension",
        };
        // The real program's marker: a DEBUG line of its own.
        self.log.push("DEBUG", START_MARKER);
        self.log
            .info(&format!("Job {id} started: {kind} `{}`", plan.target));
        let status = self.status();
        let runner = Arc::clone(self);
        tokio::spawn(async move { runner.execute(id, plan, stop, options).await });
        Ok(status)
    }

    /// Requests the running job to stop. Returns whether one was running.
    pub fn stop(&self) -> bool {
        let mut st = self.lock();
        let Some(job) = &st.job else {
            return false;
        };
        job.stop.send_replace(true);
        if st.status == RunState::Running && !st.stopping {
            st.stopping = true;
            st.progress = format!("stopping: {}", st.progress);
        }
        true
    }

    /// Stops the backend: abandons the running job (reported as stopped)
    /// and refuses every command until the next restart. Returns whether it
    /// was running.
    pub fn stop_backend(&self) -> bool {
        let mut st = self.lock();
        self.abandon(&mut st, "the backend is stopping");
        let was_running = st.backend.info.running;
        st.backend.info.running = false;
        if was_running {
            self.log.info(&format!(
                "Backend stopped (session {})",
                st.backend.info.session
            ));
        }
        was_running
    }

    /// Ends the running job at once, reporting it as stopped.
    fn abandon(&self, st: &mut RunnerState, why: &str) {
        if let Some(job) = st.job.take() {
            job.stop.send_replace(true);
            let progress = format!("stopped because {why}: {}", st.progress);
            st.end_job(RunState::Stopped, progress);
            self.log
                .warning(&format!("Job {} `{}` stopped: {why}", job.id, job.target));
            self.log.push("DEBUG", DONE_MARKER);
        }
    }

    /// Applies `change` if job `id` is still the current one.
    fn update(&self, id: u64, change: impl FnOnce(&mut RunnerState)) -> bool {
        let mut st = self.lock();
        if st.job.as_ref().map(|j| j.id) != Some(id) {
            return false;
        }
        change(&mut st);
        true
    }

    /// Runs job `id`'s plan step by step at the pace and with the failure
    /// the backend's `options` ask for, until it ends or `stop` says so.
    async fn execute(
        self: Arc<Self>,
        id: u64,
        plan: Plan,
        mut stop: watch::Receiver<bool>,
        options: SimOptions,
    ) {
        let SimOptions { step, fail, .. } = options;
        let total = plan.units.len();
        let fails = |name: &str| {
            fail.as_deref().is_some_and(|f| {
                f.eq_ignore_ascii_case(name) || find_task(f).is_some_and(|i| TASKS[i].class == name)
            })
        };
        if total == 0 {
            self.log.warning("No task is enabled in the configuration");
        }
        for (index, unit) in plan.units.iter().enumerate() {
            let steps = unit.steps.len();
            for (n, text) in unit.steps.iter().enumerate() {
                let progress = format!("{}/{total} {}", index + 1, unit.name);
                if !self.update(id, |st| {
                    if !st.stopping {
                        st.progress = format!("{progress} (step {}/{steps})", n + 1);
                    }
                    st.current_task = Some(unit.name.clone());
                }) {
                    return;
                }
                if n == 0 {
                    self.log.info(&format!("[{}] started", unit.name));
                }
                self.log.info(&format!("[{}] {text}", unit.name));
                if wait(&mut stop, step).await {
                    return self.finish_stopped(id, step).await;
                }
                if fails(&unit.name) && (n + 1 == steps.min(2)) {
                    let message = format!(
                        "{} failed: simulated failure requested with --fail-task",
                        unit.name
                    );
                    self.log.error(&format!(
                        "[{}] {message}\nTraceback (simulated):\n  step {} of {steps}: {text}",
                        unit.name,
                        n + 1
                    ));
                    self.update(id, |st| {
                        st.end_job(
                            RunState::Failed,
                            format!("{}/{total} {} failed", index + 1, unit.name),
                        );
                        st.error = Some(message);
                    });
                    self.log.info(&format!("Job {id} failed"));
                    self.log.push("DEBUG", DONE_MARKER);
                    return;
                }
            }
            self.log.info(&format!("[{}] finished", unit.name));
            self.update(id, |st| st.completed_tasks = index + 1);
        }
        if self.update(id, |st| {
            st.end_job(RunState::Completed, format!("{total}/{total} completed"));
        }) {
            self.log.info(&format!("Job {id} completed"));
            self.log.push("DEBUG", DONE_MARKER);
        }
    }

    /// Winds a stopped job down: one more step of cleanup, then `stopped`.
    async fn finish_stopped(&self, id: u64, step: Duration) {
        self.log.info("Stop requested; returning to the main menu");
        tokio::time::sleep(step.min(Duration::from_millis(500))).await;
        if self.update(id, |st| {
            let progress = st
                .progress
                .strip_prefix("stopping: ")
                .map(|p| format!("stopped at {p}"))
                .unwrap_or_else(|| "stopped".to_string());
            st.end_job(RunState::Stopped, progress);
        }) {
            self.log.info(&format!("Job {id} stopped"));
            self.log.push("DEBUG", DONE_MARKER);
        }
    }
}

impl Backend {
    /// Fails with a backend error when commands cannot run.
    fn check(&self) -> Result<()> {
        if !self.info.running {
            return Err(Error::Backend(
                "backend not running; start it with POST /api/Backend/restart".to_string(),
            ));
        }
        if self.options.unavailable {
            return Err(Error::Backend(
                "backend error: the simulated backend is unavailable (started with --unavailable)"
                    .to_string(),
            ));
        }
        Ok(())
    }
}

/// How a backend started with `arguments` runs, for `mode` of the status.
pub(crate) fn mode_of(arguments: &str) -> &'static str {
    let has = |flag: &str| arguments.split_whitespace().any(|w| w == flag);
    if has("--inline") {
        "inline"
    } else if has("--python") {
        "python"
    } else {
        "cli"
    }
}

/// Waits one step; true when a stop was requested.
async fn wait(stop: &mut watch::Receiver<bool>, step: Duration) -> bool {
    if *stop.borrow() {
        return true;
    }
    tokio::select! {
        () = tokio::time::sleep(step) => *stop.borrow(),
        changed = stop.changed() => changed.is_err() || *stop.borrow(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_parse() {
        assert!(parse_arguments(DEFAULT_ARGUMENTS).is_ok());
        let o = parse_arguments("--inline --step-ms=5 --fail-task 2").unwrap();
        assert_eq!(o.step, Duration::from_millis(5));
        assert_eq!(o.fail.as_deref(), Some("2"));
        assert!(parse_arguments("--bogus").unwrap_err().contains("--bogus"));
        assert!(parse_arguments("--step-ms=0").is_err());
        assert!(parse_arguments("--step-ms").is_err());
        assert!(parse_arguments("--inline=3").is_err());
    }

    #[test]
    fn tasks_are_found_by_class_section_or_index() {
        assert_eq!(find_task("receiverewardstask"), Some(2));
        assert_eq!(find_task("4"), Some(4));
        assert_eq!(find_task("cosmicStrife"), Some(3));
        assert_eq!(find_task("5"), None);
        assert_eq!(find_task("Nope"), None);
    }
}
