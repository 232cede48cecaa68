//! The simulated backend as a program: `activity-site backend --inline
//! --no-admin [--step-ms=N] [--fail-task=NAME] [--unavailable]`.
//!
//! It speaks the protocol of the real backend (`sra-cli --inline`) on its
//! standard streams, as [`super::supervisor`] documents: one command per line on
//! stdin; every log line on stderr, in the real backend's shape
//! (`21:51:02 | INFO  | message`), with `[Start]` and `[Done]` on the lines
//! that open and close a job; on stdout, the answer of a `--json` command (one
//! `{success, message, data}` line, `data` left out of a refusal, non-ASCII
//! escaped) and `[OK]`/`[FAIL]` replies to the others, as
//! [`crate::protocol`] records the real program's. The [`Runner`]
//! executes the jobs; configurations are read where the real program reads
//! them, `configs/NAME.json` of `~/.config/SRA` (or a path given for the
//! name), which the server links to its state directory. Beyond the real
//! program it knows `extension run ID --steps-json JSON` (the server's own
//! extensions, which a real backend replaces by its own) and `game
//! screenshot --save PATH --json` (a drawn window). An unknown argument is an
//! error on stderr and exit status 2, before any command is read.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

use crate::configs::name_problem;
use crate::error::{Error, Result};
use crate::logs::{LogBuffer, LogItem};
use crate::operator::{Call, HEIGHT, Operator, WIDTH};
use crate::protocol::{self, Answer, Command, NotACommand};
use crate::runner::{JobKind, Plan, Runner, Unit, enabled_tasks, find_task, parse_arguments};
use crate::state;

/// What `help` prints (the server's readiness probe reads any stdout line).
const HELP: &str = "Documented commands: task run [CONFIG|PATH.json] | task single TASK [--config CONFIG] | task stop | task status --json | extension run ID --steps-json JSON [--config CONFIG] | operator call METHOD JSON --json | game screenshot --save PATH --json | help | exit";

/// Runs the simulated backend until `exit` or the end of stdin.
pub fn run(arguments: &[String]) -> anyhow::Result<ExitCode> {
    if let Some(at) = arguments.iter().position(|a| a == "--replay") {
        let Some(path) = arguments.get(at + 1) else {
            eprintln!("error: `--replay` needs a transcript file");
            return Ok(ExitCode::from(2));
        };
        return replay(Path::new(path));
    }
    let joined = arguments.join(" ");
    if let Err(problem) = parse_arguments(&joined) {
        eprintln!("error: {problem}");
        return Ok(ExitCode::from(2));
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(serve(joined))
}

async fn serve(arguments: String) -> anyhow::Result<ExitCode> {
    let log = LogBuffer::new(4096);
    let forward = tokio::spawn(forward_log(log.clone()));
    let runner = Arc::new(Runner::new(log.clone(), &arguments)?);
    let operator = Operator::new();
    let mut lines = BufReader::new(tokio::io::stdin()).lines();
    let mut stdout = tokio::io::stdout();
    while let Some(line) = lines.next_line().await? {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let reply = match shlex::split(line) {
            Some(words) => {
                let words: Vec<&str> = words.iter().map(String::as_str).collect();
                match Command::parse(&words) {
                    Ok(Command::Exit) => break,
                    Ok(command) => execute(&runner, &operator, &log, command).await,
                    Err(NotACommand::Invalid {
                        json: true,
                        message,
                    }) => Reply::Answer("success", Err(Error::bad_request(message))),
                    Err(NotACommand::Invalid {
                        json: false,
                        message,
                    }) => {
                        log.error(&message);
                        Reply::Silent
                    }
                    Err(NotACommand::Unknown { json: true }) => Reply::Answer(
                        "",
                        Err(Error::bad_request(format!(
                            "unknown command `{}`",
                            words.join(" ")
                        ))),
                    ),
                    Err(NotACommand::Unknown { json: false }) => {
                        Reply::Text(format!("*** Unknown syntax: {}", words.join(" ")))
                    }
                }
            }
            None => Reply::Text(format!("*** Unclosed quote: {line}")),
        };
        let text = match reply {
            Reply::Silent => continue,
            Reply::Text(text) => text,
            Reply::Answer(message, result) => Answer::of(message, result).line(),
        };
        stdout.write_all(format!("{text}\n").as_bytes()).await?;
        stdout.flush().await?;
    }
    runner.stop_backend();
    log.close();
    // The forwarder prints what is left, then sees the log closed.
    let _ = forward.await;
    Ok(ExitCode::SUCCESS)
}

/// Prints every log line on stderr as it comes, one line each.
async fn forward_log(log: LogBuffer) {
    let mut subscription = log.subscribe(Some(0));
    let mut stderr = tokio::io::stderr();
    while let Some(item) = subscription.next().await {
        let line = match item {
            LogItem::Line(event) => event.line,
            LogItem::Missed { count, .. } => format!("... {count} log lines were dropped"),
            LogItem::Closed => break,
        };
        if stderr
            .write_all(format!("{line}\n").as_bytes())
            .await
            .is_err()
        {
            break;
        }
        let _ = stderr.flush().await;
    }
}

/// What a command prints on stdout.
enum Reply {
    /// Nothing: what happens shows in the log.
    Silent,
    /// A line for people, as the real backend's `poutput`.
    Text(String),
    /// The answer of a `--json` command, with its message.
    Answer(&'static str, Result<Value>),
}

/// Runs one command of the protocol.
async fn execute(
    runner: &Arc<Runner>,
    operator: &Operator,
    log: &LogBuffer,
    command: Command,
) -> Reply {
    match command {
        Command::Help => Reply::Text(HELP.to_string()),
        Command::TaskStatus => {
            let status = runner.status();
            let data = protocol::status_data(&status, &status.session_id, status.pid, &status.mode);
            Reply::Answer("Task status", Ok(data))
        }
        Command::TaskStop => {
            if !runner.stop() {
                log.info("Stop requested, but no task is running");
            }
            Reply::Silent
        }
        Command::TaskRun { config } => start(runner, log, || Ok(run_plan(log, &config)), None),
        Command::TaskSingle { task, config } => start(
            runner,
            log,
            || single_plan(&task, &config),
            Some("已启动任务执行。"),
        ),
        Command::ExtensionSteps { id, steps, config } => start(
            runner,
            log,
            || Ok(extension_plan(&id, steps, config.as_deref())),
            None,
        ),
        Command::OperatorCall { method, params } => Reply::Answer(
            "success",
            operator_call(runner, operator, &method, &params).await,
        ),
        Command::GameScreenshot { save } => Reply::Answer(
            "success",
            screenshot(runner, operator, Path::new(&save)).await,
        ),
        // The real program's commands the simulator does not have (its
        // server relays them only to a real backend).
        other => Reply::Answer(
            "",
            Err(Error::bad_request(format!(
                "unknown command `{}`",
                other.line()
            ))),
        ),
    }
}

/// Starts a job. As the real program: a refusal is a `[FAIL] ...` line on
/// stdout (a task already running), a problem of the job itself (a missing
/// configuration) an error in the log; `task single` says `[OK] ...` when
/// it started.
fn start(
    runner: &Arc<Runner>,
    log: &LogBuffer,
    plan: impl FnOnce() -> Result<Plan>,
    ok: Option<&str>,
) -> Reply {
    match runner.start(plan) {
        Ok(_) => ok.map_or(Reply::Silent, |ok| Reply::Text(format!("[OK] {ok}"))),
        Err(e @ Error::Conflict(_)) => Reply::Text(format!("[FAIL] {e}")),
        Err(e) => {
            log.error(&e.to_string());
            Reply::Silent
        }
    }
}

/// The application-data folder, as the real program finds it: `SRA` in
/// `%APPDATA%` on Windows, `~/.config/SRA` elsewhere (the server points
/// `HOME` at a folder whose `.config/SRA` is its state directory).
fn app_data_dir() -> PathBuf {
    if cfg!(windows) {
        PathBuf::from(std::env::var_os("APPDATA").unwrap_or_default()).join("SRA")
    } else {
        PathBuf::from(std::env::var_os("HOME").unwrap_or_default())
            .join(".config")
            .join("SRA")
    }
}

/// A configuration, as the real program loads one: a word holding `.json`
/// is a path (double quotes dropped), any other a name in `configs/` of
/// the application-data folder.
fn read_config(name: &str) -> Result<Value> {
    let path = if name.contains(".json") {
        PathBuf::from(name.replace('"', ""))
    } else {
        if let Some(problem) = name_problem(name) {
            return Err(Error::bad_request(problem));
        }
        app_data_dir()
            .join(state::layout::CONFIGS)
            .join(format!("{name}{}", state::layout::CONFIG_SUFFIX))
    };
    // Read as the server reads state files: a regular file only, never
    // through a link out of the application-data folder.
    let root = app_data_dir();
    let strays = state::Strays::new(&root, LogBuffer::new(1));
    state::read_json(&strays, &path)?
        .ok_or_else(|| Error::bad_request(format!("找不到文件：'{}'", path.display())))
}

/// The name a job reports for a configuration word (a path's stem).
fn config_label(word: &str) -> String {
    crate::protocol::config_name(word)
}

fn run_plan(log: &LogBuffer, word: &str) -> Plan {
    // As the real program: a configuration it cannot read is an error in
    // the log and a job with nothing to run.
    let config = read_config(word).unwrap_or_else(|e| {
        log.error(&e.to_string());
        Value::Null
    });
    let mut plan = Plan::tasks(JobKind::Tasks, &config_label(word), &enabled_tasks(&config));
    // As the real program, `configs` are the words it was given.
    plan.configs = vec![word.replace('"', "")];
    plan
}

fn single_plan(task: &str, name: &str) -> Result<Plan> {
    let index =
        find_task(task).ok_or_else(|| Error::bad_request(format!("unknown task `{task}`")))?;
    read_config(name)?;
    let mut plan = Plan::tasks(JobKind::Single, &config_label(name), &[index]);
    // As the real program: a single task reports no configuration.
    plan.configs.clear();
    Ok(plan)
}

fn extension_plan(id: &str, mut steps: Vec<String>, config: Option<&str>) -> Plan {
    if let Some(name) = config {
        steps.insert(0, format!("Using task configuration `{name}`"));
    }
    Plan {
        kind: JobKind::Extension,
        target: id.to_string(),
        configs: config.iter().map(|c| c.to_string()).collect(),
        units: vec![Unit {
            name: id.to_string(),
            steps,
        }],
    }
}

async fn operator_call(
    runner: &Runner,
    operator: &Operator,
    method: &str,
    params: &Value,
) -> Result<Value> {
    runner.ensure_available()?;
    let call = operator.check(method, params)?;
    let status = runner.status();
    let shot = if call == Call::Screenshot {
        let png = operator.screenshot_png(&status)?;
        Some(json!({
            "width": WIDTH,
            "height": HEIGHT,
            "format": "png",
            "bytes": png.len(),
            "sha256": hex::encode(<sha2::Sha256 as sha2::Digest>::digest(&png)),
        }))
    } else {
        None
    };
    let (result, line) = operator.call(call, &status, shot);
    runner.log().info(&format!("[operator] {line}"));
    Ok(result)
}

async fn screenshot(runner: &Runner, operator: &Operator, path: &Path) -> Result<Value> {
    runner.ensure_available()?;
    let png = operator.screenshot_png(&runner.status())?;
    state::write_atomic(path, &png)?;
    Ok(json!({"path": path, "bytes": png.len(), "width": WIDTH, "height": HEIGHT}))
}

/// Replays a transcript recorded from the real program
/// (`tests/fixtures/sra-cli/record.py`): `activity-site backend --replay
/// FILE [ARGUMENTS]`. It prints the recorded start-up lines, then answers
/// each command with the lines the real program printed after it, on the
/// same streams, with `$STATE` replaced by the working directory. A command
/// is matched to a recorded one by its words (all of them, else the first
/// three, else the first two). Status questions follow the job commands: a
/// `task status` answers the recorded statuses that followed the last job
/// command replayed, in order, the last one again once they run out. An
/// unknown command gets what the real program prints for one (on stderr),
/// and no answer.
pub fn replay(path: &Path) -> anyhow::Result<ExitCode> {
    use std::io::BufRead;
    let transcript = Transcript::read(path)?;
    let startup = &transcript.doc["startup"];
    print_lines(
        transcript.lines(&startup["stdout"]),
        transcript.lines(&startup["stderr"]),
    );
    // Where the last job command replayed is, and how many statuses after it were answered.
    let mut position = 0;
    let mut asked = 0;
    for line in std::io::stdin().lock().lines() {
        let line = line?;
        let command = line.trim();
        if command.is_empty() {
            continue;
        }
        if command == Command::Exit.line() || command == "quit" {
            let exit = &transcript.doc["exit"];
            print_lines(
                transcript.lines(&exit["stdout"]),
                transcript.lines(&exit["stderr"]),
            );
            break;
        }
        if is_status(command) {
            if let Some(answer) = transcript.status_answer(position, asked) {
                asked += 1;
                print_lines(vec![answer], Vec::new());
            }
            continue;
        }
        match transcript.find(command) {
            Some(index) => {
                position = index;
                asked = 0;
                let (stdout, stderr) = transcript.reply(index);
                print_lines(stdout, stderr);
            }
            None => print_lines(
                Vec::new(),
                vec![format!(
                    "{command} is not a recognized command, alias, or macro."
                )],
            ),
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A transcript of the real program, with `$STATE` read as the working
/// directory.
struct Transcript {
    doc: Value,
    state: String,
    /// The lines each exchange sent, and the exchange.
    exchanges: Vec<(Vec<String>, Value)>,
}

impl Transcript {
    fn read(path: &Path) -> anyhow::Result<Transcript> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| anyhow::anyhow!("cannot read the transcript {}: {e}", path.display()))?;
        let doc: Value = serde_json::from_str(&text)?;
        let state = std::env::current_dir()?
            .canonicalize()?
            .display()
            .to_string();
        let mut transcript = Transcript {
            doc,
            state,
            exchanges: Vec::new(),
        };
        transcript.exchanges = transcript.doc["exchanges"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|e| (transcript.lines(&e["send"]), e.clone()))
            .collect();
        Ok(transcript)
    }

    /// The lines of a recorded list, `$STATE` replaced.
    fn lines(&self, v: &Value) -> Vec<String> {
        v.as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(|l| l.replace("$STATE", &self.state))
            .collect()
    }

    /// The `asked`-th recorded status after the job command at `position`
    /// (up to the next job command), the last one again once they run out.
    fn status_answer(&self, position: usize, asked: usize) -> Option<String> {
        let mut answers = Vec::new();
        for (sent, exchange) in &self.exchanges[position..] {
            if !answers.is_empty() && !sent.iter().all(|c| is_status(c)) {
                break;
            }
            if sent.iter().any(|c| is_status(c)) {
                answers.extend(
                    self.lines(&exchange["stdout"])
                        .into_iter()
                        .filter(|l| l.starts_with('{')),
                );
            }
        }
        answers
            .get(asked.min(answers.len().saturating_sub(1)))
            .cloned()
    }

    /// The exchange of `command`: the one that sent it word for word, else
    /// its first three words, else its first two.
    fn find(&self, command: &str) -> Option<usize> {
        let words: Vec<&str> = command.split_whitespace().collect();
        let same = |sent: &String, n: usize| {
            let recorded: Vec<&str> = sent.split_whitespace().collect();
            recorded.len() >= n && words.len() >= n && recorded[..n] == words[..n]
        };
        [usize::MAX, 3, 2].iter().find_map(|&n| {
            self.exchanges.iter().position(|(sent, _)| {
                sent.iter().any(|s| {
                    if n == usize::MAX {
                        s == command
                    } else {
                        same(s, n)
                    }
                })
            })
        })
    }

    /// What the real program printed after exchange `index` (stdout,
    /// stderr); the status lines of a combined exchange are for the status
    /// question.
    fn reply(&self, index: usize) -> (Vec<String>, Vec<String>) {
        let (sent, exchange) = &self.exchanges[index];
        let asks_status = sent.iter().any(|c| is_status(c));
        let stdout = self
            .lines(&exchange["stdout"])
            .into_iter()
            .filter(|l| !(asks_status && l.starts_with('{')))
            .collect();
        (stdout, self.lines(&exchange["stderr"]))
    }
}

/// A status question, read as the live simulator reads one.
fn is_status(command: &str) -> bool {
    shlex::split(command).is_some_and(|words| {
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        Command::parse(&words) == Ok(Command::TaskStatus)
    })
}

/// Prints the lines of stderr, then those of stdout, each flushed.
fn print_lines(stdout: Vec<String>, stderr: Vec<String>) {
    use std::io::Write;
    let mut err = std::io::stderr().lock();
    for line in stderr {
        let _ = writeln!(err, "{line}");
    }
    let _ = err.flush();
    let mut out = std::io::stdout().lock();
    for line in stdout {
        let _ = writeln!(out, "{line}");
    }
    let _ = out.flush();
}
