//! The backend process and its supervision, as the real service does it.
//!
//! The server starts the backend program with its arguments (by default
//! `--inline --no-admin`, plus the simulator's options), in the state
//! directory, with its three standard streams piped:
//!
//! - it writes one command per line to stdin: `task run [CONFIG]` (or
//!   `task run --config-json JSON` for a temporary configuration), `task
//!   single TASK --config CONFIG`, `task stop`, `task status --json`,
//!   `extension run ID --steps-json JSON [--config CONFIG]`, `operator call
//!   METHOD JSON --json`, `game screenshot --save PATH --json`, `help` (the
//!   readiness probe: the start succeeds at the first stdout line) and
//!   `exit` (then a kill after [`EXIT_GRACE`]); words are quoted as a POSIX
//!   shell would;
//! - every line the process prints is a log line, forwarded as it comes,
//!   except the answers: after a `--json` command, the next stdout line that
//!   is a JSON `{success, message, data}` object is its answer, expected
//!   within the answer timeout;
//! - log lines holding `[Start]` and `[Done]` mark a job's start and end;
//! - a line is read up to [`MAX_BACKEND_LINE`] bytes: the rest of a longer
//!   line is read and discarded up to its newline, and a warning in the log
//!   says how much was left out, so a process that prints without end never
//!   fills memory (a cut line is never taken as an answer).
//!
//! A process that exits is noticed at once (its exit is awaited, so it never
//! stays a zombie): a job it was running ends `failed` with the exit status,
//! a log line says so, and every command fails with `backend not running`
//! until a restart. A restart starts the new process first and only then
//! ends the old one, so a start that fails (unknown argument, missing
//! program) changes nothing. This module knows nothing of HTTP.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin};
use tokio::sync::{mpsc, oneshot, watch};

use crate::error::{Error, Result};
use crate::logs::{LogBuffer, MAX_LINE_BYTES};
use crate::protocol::{Answer, Answered, Command, Intent, to_contract};
use crate::runner::{
    BackendInfo, DONE_MARKER, JobKind, RunState, START_MARKER, TaskStatus, mode_of, now,
    parse_arguments,
};

/// How long a process has to exit after `exit` before it is killed (the
/// real service's second).
pub const EXIT_GRACE: Duration = Duration::from_secs(1);

/// How long a `--json` command may take by default.
pub const DEFAULT_ANSWER_TIMEOUT: Duration = Duration::from_secs(5);

/// How long the status may take after `task stop`: the real program
/// waits up to 30 s for its job thread before it reads the next command.
pub const STOP_ANSWER_TIMEOUT: Duration = Duration::from_secs(35);

/// How long a starting process has to print its first line.
const START_TIMEOUT: Duration = Duration::from_secs(10);

/// How many stdout lines wait for a reader; more are dropped (they are in
/// the log anyway).
const ANSWER_QUEUE: usize = 64;

/// The longest line read from the backend, in bytes. An answer carries a
/// JSON document (an extension's schema, an operator's result), so the
/// bound is that of a request body rather than of a log line, which the log
/// cuts to [`crate::logs::MAX_LINE_BYTES`] anyway.
pub const MAX_BACKEND_LINE: usize = 1024 * 1024;

/// How many of its last stderr lines explain a process that would not start.
const LAST_LINES: usize = 8;

/// The program the server runs as its backend, and its first arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BackendCommand {
    pub program: PathBuf,
    /// Arguments before the start arguments (`backend` for the simulator).
    pub args: Vec<String>,
}

impl BackendCommand {
    /// The simulator: `EXE backend`, where `EXE` is this tool's binary.
    pub fn simulator(exe: impl Into<PathBuf>) -> BackendCommand {
        BackendCommand {
            program: exe.into(),
            args: vec!["backend".to_string()],
        }
    }

    /// Whether this runs the simulator (`activity-site backend ...`), whose
    /// extensions and operator methods are the server's own; any other
    /// program is a real backend, asked for its own.
    pub fn is_simulator(&self) -> bool {
        let ours = std::env::current_exe()
            .ok()
            .is_some_and(|exe| exe == self.program)
            || self
                .program
                .file_stem()
                .is_some_and(|stem| stem == "activity-site" || stem == "activity-site-simulator");
        ours && self.args.first().is_some_and(|a| a == "backend")
            && !self.args.iter().any(|a| a == "--replay")
    }

    /// The simulator in the running binary.
    pub fn current_simulator() -> BackendCommand {
        let exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("activity-site"));
        BackendCommand::simulator(exe)
    }

    /// `PROGRAM [ARGS]`, split as a POSIX shell would (quotes, no expansion).
    pub fn parse(text: &str) -> std::result::Result<BackendCommand, String> {
        let words = shlex::split(text)
            .ok_or_else(|| format!("the backend command `{text}` has an unclosed quote"))?;
        let mut words = words.into_iter();
        let program = words
            .next()
            .ok_or_else(|| "the backend command is empty".to_string())?;
        Ok(BackendCommand {
            program: PathBuf::from(program),
            args: words.collect(),
        })
    }
}

/// Where the backend's home folder is, in the state directory.
pub(crate) const BACKEND_HOME: &str = crate::state::layout::BACKEND_HOME;

/// The one store: the backend reads its settings and configurations from
/// its application-data folder, `~/.config/SRA` (the real program's
/// `AppDataDir` off Windows), so the child's `HOME` is `backend/home` of
/// the state directory, whose `.config/SRA` is a link to the state
/// directory itself: `settings.json` and `configs/NAME.json` are the files
/// the API writes, in the format the program reads. The link, not the other
/// way round (the state directory inside the user's `~/.config/SRA`), keeps
/// every server's state its own and leaves the user's real folder alone.
/// Returns the home folder to give the child.
pub(crate) fn app_data_home(state_dir: &Path) -> std::result::Result<PathBuf, String> {
    let state = std::fs::canonicalize(state_dir)
        .map_err(|e| format!("cannot resolve {}: {e}", state_dir.display()))?;
    let home = state.join(BACKEND_HOME);
    let config = home.join(".config");
    std::fs::create_dir_all(&config)
        .map_err(|e| format!("cannot create {}: {e}", config.display()))?;
    let link = config.join("SRA");
    match std::fs::read_link(&link) {
        Ok(target) if target == state => return Ok(home),
        // Ours, pointing at where the state directory used to be.
        Ok(_) => std::fs::remove_file(&link)
            .map_err(|e| format!("cannot replace {}: {e}", link.display()))?,
        Err(_) if link.exists() => {
            return Err(format!(
                "{} exists and is not a link; it is left as it is",
                link.display()
            ));
        }
        Err(_) => {}
    }
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&state, &link)
            .map_err(|e| format!("cannot link {} to {}: {e}", link.display(), state.display()))?;
        Ok(home)
    }
    #[cfg(not(unix))]
    {
        Err("the application-data link is made on Unix only".to_string())
    }
}

/// The supervisor of the one backend process.
#[derive(Debug)]
pub(crate) struct Supervisor {
    /// Where the process's lines go.
    log: LogBuffer,
    /// What to run.
    command: BackendCommand,
    /// The working directory of the process (the state directory).
    dir: PathBuf,
    /// How long a `--json` command may take.
    answer_timeout: Duration,
    /// The running process. A tokio mutex: it is held across writing a
    /// command and reading its answer, so answers never cross, and across
    /// starting and stopping, so they never overlap.
    pipe: tokio::sync::Mutex<Pipe>,
    /// What the status reports without asking the process; a std mutex,
    /// never held across an await.
    shared: Arc<Mutex<Shared>>,
}

#[derive(Debug, Default)]
struct Pipe {
    /// The process, while one runs.
    process: Option<Process>,
    /// Whether a first start was attempted (the first command starts it).
    started: bool,
    /// Whether the server is shutting down (no more starts).
    closed: bool,
    /// Counts the processes started, so an exit is matched to its process.
    spawned: u64,
}

#[derive(Debug)]
struct Process {
    generation: u64,
    pid: u32,
    stdin: ChildStdin,
    /// Stdout lines that may be answers.
    answers: mpsc::Receiver<String>,
    /// Asks the watcher to kill the process.
    kill: Option<oneshot::Sender<()>>,
    /// Holds the exit status once the process was reaped.
    exited: watch::Receiver<Option<String>>,
    /// Whether the coming exit was asked for (not a crash).
    expected: Arc<AtomicBool>,
}

#[derive(Debug, Default)]
struct Shared {
    /// The session of the current process (what `BackendInfo` reports).
    info: BackendInfo,
    /// The generation of the current process.
    generation: u64,
    /// Its pid while it runs, else 0.
    pid: u32,
    /// Between a `[Start]` and a `[Done]` line of the current process.
    job_running: bool,
    /// The last status the process answered (or what its death made of it).
    last: TaskStatus,
    /// Why the last process is gone, when it died on its own.
    died: Option<String>,
    /// The backend's id of the job its last status answer was about (the
    /// real program's `session_id`, new for every job).
    job_key: String,
    /// What the server asked the next job to be, until an answer shows it.
    intent: Option<Intent>,
    /// How many jobs of a backend without job ids were seen running.
    jobs_seen: u64,
}

impl Supervisor {
    /// The supervisor of the backend `options` name, run in the state
    /// directory `dir`, logging to `log`; nothing starts before the first
    /// command.
    pub fn new(log: LogBuffer, dir: PathBuf, options: &crate::ControlOptions) -> Supervisor {
        let shared = Shared {
            info: BackendInfo {
                session: 0,
                arguments: options.backend_arguments.clone(),
                available: true,
                ..BackendInfo::default()
            },
            ..Shared::default()
        };
        Supervisor {
            log,
            command: options.backend.clone(),
            dir,
            answer_timeout: options.answer_timeout,
            pipe: tokio::sync::Mutex::new(Pipe::default()),
            shared: Arc::new(Mutex::new(shared)),
        }
    }

    fn shared(&self) -> std::sync::MutexGuard<'_, Shared> {
        self.shared.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The pipe, after the first start when nothing was started yet, and
    /// without a process that has exited.
    async fn pipe(&self) -> tokio::sync::MutexGuard<'_, Pipe> {
        let mut pipe = self.pipe.lock().await;
        if pipe
            .process
            .as_ref()
            .is_some_and(|p| p.exited.borrow().is_some())
        {
            pipe.process = None;
        }
        if !pipe.started && !pipe.closed {
            pipe.started = true;
            let arguments = self.shared().info.arguments.clone();
            if let Err(e) = self.replace(&mut pipe, &arguments).await {
                self.log.error(&format!("The backend did not start: {e}"));
            }
        }
        pipe
    }

    /// The session as it stands.
    pub fn info(&self) -> BackendInfo {
        self.shared().info.clone()
    }

    /// The status: the process's answer to `task status --json`, with this
    /// server's session fields; the last known one when no process runs.
    pub async fn status(&self) -> Result<TaskStatus> {
        let mut pipe = self.pipe().await;
        self.status_locked(&mut pipe).await
    }

    async fn status_locked(&self, pipe: &mut Pipe) -> Result<TaskStatus> {
        if pipe.process.is_some() {
            let data = match self.ask(pipe, &Command::TaskStatus).await {
                Ok(data) => data,
                // It died just now: report what its death made of the status.
                Err(_)
                    if pipe
                        .process
                        .as_ref()
                        .is_some_and(|p| p.exited.borrow().is_some()) =>
                {
                    pipe.process = None;
                    return Ok(self.reported(&self.shared()));
                }
                Err(e) => return Err(e),
            };
            let answer = Answered::read(data).map_err(Error::Backend)?;
            absorb(&mut self.shared(), &answer);
        }
        Ok(self.reported(&self.shared()))
    }

    /// The last status with this server's session fields.
    fn reported(&self, shared: &Shared) -> TaskStatus {
        let mut status = shared.last.clone();
        status.session_id = format!("session-{}", shared.info.session);
        status.pid = shared.pid;
        status.mode = mode_of(&shared.info.arguments).to_string();
        status.backend = shared.info.clone();
        status
    }

    /// Fails unless a process runs and answers commands.
    fn check_running(&self, pipe: &Pipe) -> Result<()> {
        if pipe.process.is_none() {
            let why = self.shared().died.clone();
            return Err(Error::Backend(match why {
                Some(why) => format!(
                    "backend not running: it exited ({why}); restart it with POST /api/Backend/restart"
                ),
                None => "backend not running; start it with POST /api/Backend/restart".to_string(),
            }));
        }
        Ok(())
    }

    /// Fails with a backend error unless commands can run now.
    pub async fn ensure_available(&self) -> Result<TaskStatus> {
        let mut pipe = self.pipe().await;
        self.check_running(&pipe)?;
        let status = self.status_locked(&mut pipe).await?;
        check_available(&status)?;
        Ok(status)
    }

    /// Starts a job: under one lock, asks the status (409 while a job runs),
    /// lets `prepare` make the command (it may persist a configuration),
    /// sends it, and answers the new status. Of concurrent starts exactly
    /// one wins.
    pub async fn start_job(
        &self,
        prepare: impl FnOnce() -> Result<(Command, Intent)>,
    ) -> Result<TaskStatus> {
        let mut pipe = self.pipe().await;
        self.check_running(&pipe)?;
        let before = self.status_locked(&mut pipe).await?;
        if before.status == RunState::Running {
            let what = match before.job {
                Some(JobKind::Extension) => {
                    format!("extension `{}`", before.target.unwrap_or_default())
                }
                _ => format!("`{}`", before.target.unwrap_or_default()),
            };
            return Err(Error::conflict(format!(
                "a task is already running ({what}, {})",
                before.progress
            )));
        }
        check_available(&before)?;
        let (command, intent) = prepare()?;
        let key = {
            let mut shared = self.shared();
            shared.intent = Some(intent);
            shared.job_key.clone()
        };
        drain(&mut pipe);
        self.send(&mut pipe, &command).await?;
        let (after, said) = self.ask_seeing(&mut pipe, &Command::TaskStatus).await;
        let data = after?;
        absorb(
            &mut self.shared(),
            &Answered::read(data).map_err(Error::Backend)?,
        );
        let after = self.reported(&self.shared());
        if after.status == RunState::Running {
            // Its `[Start]` line may still be on the way.
            self.shared().job_running = true;
        }
        if after.status != RunState::Running && self.shared().job_key == key {
            // The backend's own words, when it said why (`[FAIL] ...`).
            let why = said
                .iter()
                .filter(|l| l.starts_with("[FAIL]") || l.starts_with("***"))
                .cloned()
                .collect::<Vec<_>>()
                .join("; ");
            let verb = command.verb();
            return Err(Error::Backend(if why.is_empty() {
                format!("the backend did not start the job (`{verb}`); see the log")
            } else {
                format!("the backend did not start the job (`{verb}`): {why}")
            }));
        }
        Ok(after)
    }

    /// Sends `task stop` when a job runs, then asks the status, which
    /// reports `running` with `stopping: true` until the backend says the
    /// job ended. The real program answers nothing more until its job
    /// thread is gone (it waits up to 30 s for it), so that question may
    /// take up to [`STOP_ANSWER_TIMEOUT`]. `None` when no job ran.
    pub async fn stop_job(&self) -> Result<Option<TaskStatus>> {
        let mut pipe = self.pipe().await;
        if pipe.process.is_none() {
            return Ok(None);
        }
        let before = self.status_locked(&mut pipe).await?;
        if before.status != RunState::Running {
            return Ok(None);
        }
        self.send(&mut pipe, &Command::TaskStop).await?;
        self.shared().last.stopping = true;
        drain(&mut pipe);
        let data = self
            .ask_within(&mut pipe, &Command::TaskStatus, STOP_ANSWER_TIMEOUT)
            .await
            .0?;
        absorb(
            &mut self.shared(),
            &Answered::read(data).map_err(Error::Backend)?,
        );
        Ok(Some(self.reported(&self.shared())))
    }

    /// Sends a `--json` command and returns `data`.
    pub async fn query(&self, command: &Command) -> Result<Value> {
        let mut pipe = self.pipe().await;
        self.check_running(&pipe)?;
        self.ask(&mut pipe, command).await
    }

    /// Restarts: starts a process with `arguments`, then ends the old one.
    /// A start that fails leaves the old process running.
    pub async fn restart(&self, arguments: &str) -> Result<BackendInfo> {
        let mut pipe = self.pipe().await;
        if pipe.closed {
            return Err(Error::Backend("the server is shutting down".to_string()));
        }
        self.replace(&mut pipe, arguments)
            .await
            .map_err(|e| Error::Backend(format!("restart failed: {e}")))?;
        Ok(self.info())
    }

    /// Ends the process (`exit`, then a kill); a job it ran is reported stopped.
    pub async fn stop(&self) -> BackendInfo {
        let mut pipe = self.pipe().await;
        if let Some(process) = pipe.process.take() {
            self.retire(process, "the backend is stopping").await;
            self.log.info("Backend stopped");
        }
        let mut shared = self.shared();
        shared.info.running = false;
        shared.pid = 0;
        shared.died = None;
        shared.info.clone()
    }

    /// Ends the process for good (server shutdown).
    pub async fn shutdown(&self) {
        let mut pipe = self.pipe.lock().await;
        pipe.closed = true;
        if let Some(process) = pipe.process.take() {
            self.retire(process, "the server is shutting down").await;
        }
        let mut shared = self.shared();
        shared.info.running = false;
        shared.pid = 0;
    }

    /// Starts a process with `arguments` and, once it answers, puts it in
    /// place of the running one.
    async fn replace(&self, pipe: &mut Pipe, arguments: &str) -> std::result::Result<(), String> {
        pipe.spawned += 1;
        let generation = pipe.spawned;
        let process = self.spawn(generation, arguments).await?;
        let pid = process.pid;
        if let Some(old) = pipe.process.take() {
            self.retire(old, "the backend is restarting").await;
        }
        pipe.process = Some(process);
        {
            let mut shared = self.shared();
            let session = shared.info.session + 1;
            // The simulator's options, read from its arguments (the real
            // program's status has no such fields).
            let options = self
                .command
                .is_simulator()
                .then(|| parse_arguments(arguments).ok())
                .flatten();
            shared.info = BackendInfo {
                session,
                arguments: arguments.to_string(),
                started_at: now(),
                step_ms: options.as_ref().map_or(0, |o| {
                    u64::try_from(o.step().as_millis()).unwrap_or(u64::MAX)
                }),
                available: options.is_none_or(|o| !o.unavailable()),
                running: true,
            };
            shared.generation = generation;
            shared.pid = pid;
            shared.job_running = false;
            shared.died = None;
        }
        // A backend that does not answer `task status --json` still runs.
        if let Err(e) = self.status_locked(pipe).await {
            self.log
                .warning(&format!("The backend does not answer its status: {e}"));
        }
        let session = self.shared().info.session;
        self.log.info(&format!(
            "Backend started (session {session}, pid {pid}) with arguments `{arguments}`"
        ));
        Ok(())
    }

    /// Ends `process`: `exit`, then a kill after the grace period; waits
    /// until it is reaped. A job it ran is reported stopped for `why`.
    async fn retire(&self, mut process: Process, why: &str) {
        process.expected.store(true, Ordering::SeqCst);
        {
            let mut shared = self.shared();
            if shared.generation == process.generation && shared.job_running {
                shared.job_running = false;
                let last = &mut shared.last;
                end_job(last, RunState::Stopped, &format!("stopped because {why}"));
                self.log
                    .warning(&format!("{DONE_MARKER} The running job stopped: {why}"));
            }
        }
        let _ = process
            .stdin
            .write_all(format!("{}\n", Command::Exit.line()).as_bytes())
            .await;
        let _ = process.stdin.flush().await;
        drop(process.stdin);
        let mut exited = process.exited;
        let graceful = tokio::time::timeout(EXIT_GRACE, exited.wait_for(Option::is_some))
            .await
            .is_ok();
        if !graceful {
            self.log.warning(&format!(
                "The backend (pid {}) did not exit within {} s; killing it",
                process.pid,
                EXIT_GRACE.as_secs()
            ));
            if let Some(kill) = process.kill.take() {
                let _ = kill.send(());
            }
            let _ = exited.wait_for(Option::is_some).await;
        }
    }

    /// Starts one process and waits for its first stdout line.
    async fn spawn(
        &self,
        generation: u64,
        arguments: &str,
    ) -> std::result::Result<Process, String> {
        let words = shlex::split(arguments)
            .ok_or_else(|| format!("the arguments `{arguments}` have an unclosed quote"))?;
        let child = self.command_with(&words).spawn().map_err(|e| {
            format!(
                "cannot run the backend program `{}` with arguments `{arguments}`: {e}",
                self.command.program.display()
            )
        })?;
        let watcher = Watcher {
            log: self.log.clone(),
            shared: Arc::clone(&self.shared),
            generation,
        };
        let started = watcher.watch(child)?;
        started.ready().await
    }

    /// The backend program with the session's `words`, run in the state
    /// directory with its standard streams piped.
    fn command_with(&self, words: &[String]) -> tokio::process::Command {
        // A relative path with a directory is the server's, not the state
        // directory's (where the process runs).
        let path = &self.command.program;
        let path = if path.is_relative() && path.components().count() > 1 {
            std::env::current_dir()
                .map(|cwd| cwd.join(path))
                .unwrap_or_else(|_| path.clone())
        } else {
            path.clone()
        };
        let mut command = tokio::process::Command::new(&path);
        match app_data_home(&self.dir) {
            Ok(home) => {
                command.env("HOME", home);
            }
            Err(e) => {
                self.log.warning(&format!(
                    "The backend reads its own application-data folder, not the state directory: {e}"
                ));
            }
        }
        command
            .args(&self.command.args)
            .args(words)
            .current_dir(&self.dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        command
    }

    /// Writes a command line.
    async fn send(&self, pipe: &mut Pipe, command: &Command) -> Result<()> {
        self.check_running(pipe)?;
        let Some(process) = pipe.process.as_mut() else {
            return Err(Error::Backend("backend not running".to_string()));
        };
        let line = format!("{}\n", command.line());
        let written = async {
            process.stdin.write_all(line.as_bytes()).await?;
            process.stdin.flush().await
        }
        .await;
        if let Err(e) = written {
            // It died just now: let its exit be recorded before answering.
            let mut exited = process.exited.clone();
            let _ = tokio::time::timeout(EXIT_GRACE, exited.wait_for(Option::is_some)).await;
            return Err(Error::Backend(format!(
                "backend not running: cannot write to it: {e}"
            )));
        }
        Ok(())
    }

    /// Sends a `--json` command and waits for its answer.
    async fn ask(&self, pipe: &mut Pipe, command: &Command) -> Result<Value> {
        drain(pipe);
        self.ask_seeing(pipe, command).await.0
    }

    /// Sends a `--json` command and waits for its answer; also returns the
    /// other stdout lines seen before it (replies to commands sent just
    /// before, such as `[FAIL] ...`).
    async fn ask_seeing(&self, pipe: &mut Pipe, command: &Command) -> (Result<Value>, Vec<String>) {
        self.ask_within(pipe, command, self.answer_timeout).await
    }

    /// [`Self::ask_seeing`] with its own timeout.
    async fn ask_within(
        &self,
        pipe: &mut Pipe,
        command: &Command,
        timeout: Duration,
    ) -> (Result<Value>, Vec<String>) {
        let mut said = Vec::new();
        if let Err(e) = self.send(pipe, command).await {
            return (Err(e), said);
        }
        let Some(process) = pipe.process.as_mut() else {
            return (Err(Error::Backend("backend not running".to_string())), said);
        };
        let answer = tokio::time::timeout(timeout, async {
            while let Some(line) = process.answers.recv().await {
                if let Some(answer) = Answer::read(&line) {
                    return Some(answer);
                }
                if !line.trim().is_empty() {
                    said.push(line);
                }
            }
            None
        })
        .await;
        let verb = command.verb();
        let result = match answer {
            Ok(Some(answer)) => {
                if answer.success {
                    Ok(answer.data.unwrap_or(Value::Null))
                } else {
                    Err(backend_refusal(&answer.message))
                }
            }
            Ok(None) => {
                // Its output ended: wait for the exit to be recorded.
                let mut exited = process.exited.clone();
                let _ = tokio::time::timeout(EXIT_GRACE, exited.wait_for(Option::is_some)).await;
                Err(Error::Backend(format!(
                    "backend not running: it exited before answering `{verb}`"
                )))
            }
            Err(_) => {
                let message = format!(
                    "the backend did not answer `{verb}` within {} ms",
                    timeout.as_millis()
                );
                self.log.error(&message);
                Err(Error::Backend(message))
            }
        };
        (result, said)
    }
}

/// Drops the stdout lines nobody waited for (replies to earlier commands).
fn drain(pipe: &mut Pipe) {
    if let Some(process) = pipe.process.as_mut() {
        while process.answers.try_recv().is_ok() {}
    }
}

/// Takes a status answer in: the contract's status (see
/// [`crate::protocol`]), with the times the server saw its job
/// start and end, and `stopping` while a stop it sent is under way.
fn absorb(shared: &mut Shared, answer: &Answered) {
    let state = answer.status.unwrap_or_default();
    // A new process that has run nothing yet: the last job of the one
    // before (stopped by the restart) stays the one reported.
    if state == RunState::Idle && shared.last.started_at.is_some() {
        return;
    }
    let key = if answer.session_id.is_empty() {
        // A backend without job ids: a job is new when it shows running
        // after something else.
        if state == RunState::Running && shared.last.status != RunState::Running {
            shared.jobs_seen += 1;
        }
        format!("job-{}", shared.jobs_seen)
    } else {
        answer.session_id.clone()
    };
    // The real program gives a job a second id when its thread starts: a
    // new id while the last answer was running is the same job.
    let new_job = key != shared.job_key && shared.last.status != RunState::Running;
    shared.job_key = key;
    let mut status = to_contract(answer, shared.intent.as_ref());
    if new_job {
        status.started_at = (state != RunState::Idle).then(now);
    } else {
        status.started_at = shared.last.started_at.clone();
        status.finished_at = shared.last.finished_at.clone();
        status.stopping = shared.last.stopping && state == RunState::Running;
    }
    if !matches!(state, RunState::Running | RunState::Idle) && status.finished_at.is_none() {
        status.finished_at = Some(now());
    }
    if matches!(state, RunState::Running) {
        status.finished_at = None;
    }
    shared.last = status;
}

/// A refusal answered by the backend, as the error class its words say.
fn backend_refusal(message: &str) -> Error {
    if message.starts_with("backend") {
        Error::Backend(message.to_string())
    } else {
        Error::Backend(format!("backend error: {message}"))
    }
}

fn check_available(status: &TaskStatus) -> Result<()> {
    if !status.backend.available {
        return Err(Error::Backend(
            "backend error: the simulated backend is unavailable (started with --unavailable)"
                .to_string(),
        ));
    }
    Ok(())
}

/// Whether `line` starts `HH:MM:SS | `, the real backend's log shape.
fn is_shaped(line: &str) -> bool {
    let bytes = line.as_bytes();
    bytes.len() > 11
        && bytes[..8].iter().enumerate().all(|(i, b)| {
            if i == 2 || i == 5 {
                *b == b':'
            } else {
                b.is_ascii_digit()
            }
        })
        && &bytes[8..11] == b" | "
}

/// What the tasks that watch one process share with the supervisor: the
/// log, the session's state and which process (its generation) they watch.
#[derive(Clone)]
struct Watcher {
    log: LogBuffer,
    shared: Arc<Mutex<Shared>>,
    generation: u64,
}

/// Where the lines of one of the process's streams go besides the log.
enum Stream {
    /// Stdout: the answer queue, which gets every answer whole and any
    /// other line cut (a line tells that a starting process is up).
    Out(mpsc::Sender<String>),
    /// Stderr: its last lines, which say why a start failed.
    Err(Arc<Mutex<VecDeque<String>>>),
}

impl Stream {
    /// The level of a line without the log shape: stdout is what the
    /// backend tells people, stderr without a logger's shape is a traceback.
    fn plain_level(&self) -> &'static str {
        match self {
            Stream::Out(_) => "INFO",
            Stream::Err(_) => "ERROR",
        }
    }

    fn name(&self) -> &'static str {
        match self {
            Stream::Out(_) => "stdout",
            Stream::Err(_) => "stderr",
        }
    }

    /// Hands on a line that is no answer, cut to [`MAX_LINE_BYTES`].
    fn keep_cut(&self, line: &str) {
        let end = stdx::chars::floor_char_boundary(line, MAX_LINE_BYTES.min(line.len()));
        let line = line[..end].to_string();
        match self {
            Stream::Err(last) => {
                let mut last = last.lock().unwrap_or_else(|e| e.into_inner());
                if last.len() == LAST_LINES {
                    last.pop_front();
                }
                last.push_back(line);
            }
            // A full queue drops the line: nobody waits for it.
            Stream::Out(answers) => {
                let _ = answers.try_send(line);
            }
        }
    }
}

/// How one process ends: the supervisor's kill switch, where its exit
/// status is told, whether the exit was asked for, and the readers of its
/// streams (whose last lines come first in the log).
struct Ending {
    kill: oneshot::Receiver<()>,
    exited: watch::Sender<Option<String>>,
    expected: Arc<AtomicBool>,
    readers: [tokio::task::JoinHandle<()>; 2],
}

/// A process just started: its handle, its stdout answers, the last lines
/// of its stderr.
struct Started {
    process: Process,
    answers: mpsc::Receiver<String>,
    last_lines: Arc<Mutex<VecDeque<String>>>,
}

impl Watcher {
    /// Sets the readers of `child`'s streams and the watcher of its exit
    /// going, and sends it `help`, whose reply tells it is up.
    fn watch(self, mut child: Child) -> std::result::Result<Started, String> {
        let pid = child.id().unwrap_or(0);
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err("the backend's standard streams are not piped".to_string());
        };
        let (answer_tx, answers) = mpsc::channel(ANSWER_QUEUE);
        let last_lines = Arc::new(Mutex::new(VecDeque::new()));
        let out_reader = tokio::spawn(self.clone().read_lines(stdout, Stream::Out(answer_tx)));
        let err_reader = tokio::spawn(
            self.clone()
                .read_lines(stderr, Stream::Err(Arc::clone(&last_lines))),
        );
        let (kill, kill_rx) = oneshot::channel();
        let (exited_tx, exited) = watch::channel(None);
        let expected = Arc::new(AtomicBool::new(false));
        let generation = self.generation;
        tokio::spawn(self.watch_exit(
            child,
            Ending {
                kill: kill_rx,
                exited: exited_tx,
                expected: Arc::clone(&expected),
                readers: [out_reader, err_reader],
            },
        ));
        let process = Process {
            generation,
            pid,
            stdin,
            answers: mpsc::channel(1).1,
            kill: Some(kill),
            exited,
            expected,
        };
        Ok(Started {
            process,
            answers,
            last_lines,
        })
    }

    /// Forwards the lines of one stream to the log, and to `stream`'s own
    /// place (answers go only there).
    async fn read_lines(self, input: impl AsyncRead + Unpin, stream: Stream) {
        let mut reader = BufReader::new(input);
        let mut bytes = Vec::new();
        loop {
            let dropped = match read_bounded_line(&mut reader, &mut bytes, MAX_BACKEND_LINE).await {
                Ok(Some(dropped)) => dropped,
                Ok(None) | Err(_) => break,
            };
            // The cut may fall inside a character: keep the whole ones.
            if dropped > 0
                && let Err(e) = std::str::from_utf8(&bytes)
                && e.error_len().is_none()
            {
                bytes.truncate(e.valid_up_to());
            }
            let cut = (dropped > 0).then(|| {
                format!(
                    "The backend printed a line of {} bytes on {}; the {dropped} bytes \
                     past the first {MAX_BACKEND_LINE} were discarded",
                    MAX_BACKEND_LINE + dropped,
                    stream.name()
                )
            });
            // Not UTF-8: skip what cannot be read rather than stop reading.
            let Ok(line) = String::from_utf8(std::mem::take(&mut bytes)) else {
                if let Some(cut) = cut {
                    self.log.warning(&cut);
                }
                continue;
            };
            let is_answer =
                dropped == 0 && matches!(stream, Stream::Out(_)) && Answer::read(&line).is_some();
            if !is_answer && !line.trim().is_empty() {
                self.log_line(&line, stream.plain_level());
            }
            if let Some(cut) = cut {
                self.log.warning(&cut);
            }
            // Only answers are kept whole; any other line tells a starting
            // process is up.
            match &stream {
                Stream::Out(answers) if is_answer => {
                    let _ = answers.try_send(line);
                }
                _ => stream.keep_cut(&line),
            }
        }
    }

    /// Logs a line the backend printed, and follows its job's start and
    /// end markers.
    fn log_line(&self, line: &str, plain_level: &str) {
        if is_shaped(line) {
            self.log.push_raw(line);
        } else {
            self.log.push(plain_level, line);
        }
        let start = line.contains(START_MARKER);
        let done = line.contains(DONE_MARKER);
        if start || done {
            let mut shared = self.shared.lock().unwrap_or_else(|e| e.into_inner());
            if shared.generation == self.generation {
                shared.job_running = start && !done;
            }
        }
    }

    /// Waits for the process to exit (or kills it when asked), reaps it, and
    /// records what its death means.
    async fn watch_exit(self, mut child: Child, ending: Ending) {
        let pid = child.id().unwrap_or(0);
        let status = tokio::select! {
            status = child.wait() => status,
            _ = ending.kill => {
                let _ = child.start_kill();
                child.wait().await
            }
        };
        let status = match status {
            Ok(status) => status.to_string(),
            Err(e) => format!("unknown exit status: {e}"),
        };
        // The last lines it printed come first in the log.
        for reader in ending.readers {
            let _ = tokio::time::timeout(Duration::from_secs(1), reader).await;
        }
        if !ending.expected.load(Ordering::SeqCst) {
            self.record_death(pid, &status);
        }
        ending.exited.send_replace(Some(status));
    }

    /// An exit nobody asked for: the session is no longer running, and a
    /// job it was running failed.
    fn record_death(&self, pid: u32, status: &str) {
        let mut shared = self.shared.lock().unwrap_or_else(|e| e.into_inner());
        if shared.generation != self.generation {
            return;
        }
        shared.info.running = false;
        shared.pid = 0;
        shared.died = Some(status.to_string());
        self.log.error(&format!(
            "The backend (pid {pid}) exited unexpectedly: {status}"
        ));
        if std::mem::take(&mut shared.job_running) {
            let last = &mut shared.last;
            let error = format!("the backend exited during the job ({status})");
            end_job(last, RunState::Failed, "failed");
            self.log
                .error(&format!("{DONE_MARKER} The running job failed: {error}"));
            last.error = Some(error);
        }
    }
}

impl Started {
    /// Sends `help` and waits for the first stdout line: the process, or
    /// why it did not come up (its last stderr lines, or silence).
    async fn ready(self) -> std::result::Result<Process, String> {
        let Started {
            mut process,
            mut answers,
            last_lines,
        } = self;
        let _ = process
            .stdin
            .write_all(format!("{}\n", Command::Help.line()).as_bytes())
            .await;
        let _ = process.stdin.flush().await;
        let mut exited = process.exited.clone();
        let ready = tokio::time::timeout(START_TIMEOUT, async {
            tokio::select! {
                line = answers.recv() => line.is_some(),
                _ = exited.wait_for(Option::is_some) => false,
            }
        })
        .await;
        process.answers = answers;
        match ready {
            Ok(true) => Ok(process),
            Ok(false) => {
                // The process is gone: wait for its status and last lines.
                let status = process
                    .exited
                    .wait_for(Option::is_some)
                    .await
                    .map(|s| s.clone().unwrap_or_default())
                    .unwrap_or_default();
                let lines: Vec<String> = last_lines
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .iter()
                    .cloned()
                    .collect();
                Err(if lines.is_empty() {
                    format!("the backend exited at start ({status})")
                } else {
                    format!("{} ({status})", lines.join("; "))
                })
            }
            Err(_) => {
                process.expected.store(true, Ordering::SeqCst);
                if let Some(kill) = process.kill.take() {
                    let _ = kill.send(());
                }
                Err(format!(
                    "the backend printed nothing within {} s of `help`",
                    START_TIMEOUT.as_secs()
                ))
            }
        }
    }
}

/// Reads one line into `line` (without its `\n` or `\r\n`), keeping at most
/// `max` bytes of it and discarding the rest up to the newline. Returns how
/// many bytes were discarded, or `None` at the end of the input.
async fn read_bounded_line(
    reader: &mut (impl AsyncBufRead + Unpin),
    line: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<Option<usize>> {
    line.clear();
    let mut dropped = 0;
    let mut read_any = false;
    loop {
        let available = reader.fill_buf().await?;
        if available.is_empty() {
            break;
        }
        read_any = true;
        let newline = available.iter().position(|b| *b == b'\n');
        let chunk = &available[..newline.unwrap_or(available.len())];
        let keep = chunk.len().min(max.saturating_sub(line.len()));
        line.extend_from_slice(&chunk[..keep]);
        dropped += chunk.len() - keep;
        let used = chunk.len() + usize::from(newline.is_some());
        reader.consume(used);
        if newline.is_some() {
            break;
        }
    }
    if !read_any {
        return Ok(None);
    }
    if dropped == 0 && line.last() == Some(&b'\r') {
        line.pop();
    }
    Ok(Some(dropped))
}

/// Ends the job the backend was running, as the server saw it, in `state`:
/// `why` goes before the last progress, no stop is pending, no task or unit
/// runs, and it finished now.
fn end_job(last: &mut TaskStatus, state: RunState, why: &str) {
    last.status = state;
    last.stopping = false;
    last.progress = format!("{why}: {}", last.progress);
    last.current_task = None;
    last.unit = String::new();
    last.finished_at = Some(now());
}
