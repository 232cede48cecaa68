//! The simulated backend as a program: `activity-site backend --inline
//! --no-admin [--step-ms=N] [--fail-task=NAME] [--unavailable]`.
//!
//! It speaks the protocol of the real backend (`sra-cli --inline`) on its
//! standard streams, as [`super::backend`] documents: one command per line on
//! stdin; every log line on stderr, in the real backend's shape
//! (`21:51:02 | INFO  | message`), with `[Start]` and `[Done]` on the lines
//! that open and close a job; on stdout, the answer of a `--json` command (one
//! `{success, message, data}` line) and short replies to the others. The
//! [`Runner`] executes the jobs; configurations are read from `configs/` of
//! the working directory (the server's state directory). An unknown argument
//! is an error on stderr and exit status 2, before any command is read.

use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

use crate::control::configs::name_problem;
use crate::control::error::{Error, Result};
use crate::control::logs::{LogBuffer, LogItem};
use crate::control::operator::{Call, HEIGHT, Operator, WIDTH};
use crate::control::runner::{
    JobKind, Plan, Runner, Unit, enabled_tasks, find_task, parse_arguments,
};
use crate::control::state;

/// What `help` prints (the server's readiness probe reads any stdout line).
const HELP: &str = "Documented commands: task run [CONFIG...] [--config-json JSON] | task single TASK [--config CONFIG] | task stop | task status --json | extension run ID --steps-json JSON [--config CONFIG] | operator call METHOD JSON --json | game screenshot --save PATH --json | help | exit";

/// Runs the simulated backend until `exit` or the end of stdin.
pub fn run(arguments: &[String]) -> anyhow::Result<ExitCode> {
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
        if line == "exit" {
            break;
        }
        let reply = match shlex::split(line) {
            Some(words) => execute(&runner, &operator, &log, &words).await,
            None => Reply::Text(format!("*** Unclosed quote: {line}")),
        };
        let text = match reply {
            Reply::Silent => continue,
            Reply::Text(text) => text,
            Reply::Json(result) => answer(result),
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
    /// The answer of a `--json` command.
    Json(Result<Value>),
}

/// The one-line `{success, message, data}` answer.
fn answer(result: Result<Value>) -> String {
    let value = match result {
        Ok(data) => json!({"success": true, "message": "success", "data": data}),
        Err(e) => json!({"success": false, "message": e.to_string(), "data": null}),
    };
    value.to_string()
}

async fn execute(
    runner: &Arc<Runner>,
    operator: &Operator,
    log: &LogBuffer,
    words: &[String],
) -> Reply {
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let json = words.last() == Some(&"--json");
    let args = if json {
        &words[..words.len() - 1]
    } else {
        &words[..]
    };
    match args {
        ["help"] => Reply::Text(HELP.to_string()),
        ["task", "status"] => Reply::Json(Ok(
            serde_json::to_value(runner.status()).unwrap_or(Value::Null)
        )),
        ["task", "stop"] => {
            if !runner.stop() {
                log.info("Stop requested, but no task is running");
            }
            Reply::Silent
        }
        ["task", "run", rest @ ..] => start(runner, log, || run_plan(rest)),
        ["task", "single", task, rest @ ..] => start(runner, log, || single_plan(task, rest)),
        ["extension", "run", id, rest @ ..] => start(runner, log, || extension_plan(id, rest)),
        ["operator", "call", method, params] if json => {
            Reply::Json(operator_call(runner, operator, method, params).await)
        }
        ["game", "screenshot", "--save", path] if json => {
            Reply::Json(screenshot(runner, operator, Path::new(path)).await)
        }
        _ if json => Reply::Json(Err(Error::bad_request(format!(
            "unknown command `{}`",
            words.join(" ")
        )))),
        _ => Reply::Text(format!("*** Unknown syntax: {}", words.join(" "))),
    }
}

/// Starts a job; a problem is a log line and a reply, as the real backend
/// reports a command it cannot run.
fn start(runner: &Arc<Runner>, log: &LogBuffer, plan: impl FnOnce() -> Result<Plan>) -> Reply {
    match runner.start(plan) {
        Ok(_) => Reply::Silent,
        Err(e) => {
            log.error(&format!("Cannot start: {e}"));
            Reply::Silent
        }
    }
}

/// The value of `--flag VALUE` in `rest`.
fn flag<'a>(rest: &[&'a str], name: &str) -> Option<&'a str> {
    rest.iter()
        .position(|w| *w == name)
        .and_then(|i| rest.get(i + 1).copied())
}

/// A configuration of `configs/` in the working directory.
fn read_config(name: &str) -> Result<Value> {
    if let Some(problem) = name_problem(name) {
        return Err(Error::bad_request(problem));
    }
    state::read_json(&Path::new("configs").join(format!("{name}.json")))?
        .ok_or_else(|| Error::bad_request(format!("configuration `{name}` does not exist")))
}

fn run_plan(rest: &[&str]) -> Result<Plan> {
    if let Some(text) = flag(rest, "--config-json") {
        let config: Value = serde_json::from_str(text)
            .map_err(|e| Error::bad_request(format!("`--config-json` is not JSON: {e}")))?;
        let mut plan = Plan::tasks(
            JobKind::Tasks,
            "(temporary configuration)",
            &enabled_tasks(&config),
        );
        plan.configs.clear();
        return Ok(plan);
    }
    let name = rest
        .first()
        .copied()
        .unwrap_or(crate::control::DEFAULT_CONFIG_NAME);
    Ok(Plan::tasks(
        JobKind::Tasks,
        name,
        &enabled_tasks(&read_config(name)?),
    ))
}

fn single_plan(task: &str, rest: &[&str]) -> Result<Plan> {
    let index =
        find_task(task).ok_or_else(|| Error::bad_request(format!("unknown task `{task}`")))?;
    let name = flag(rest, "--config").unwrap_or(crate::control::DEFAULT_CONFIG_NAME);
    read_config(name)?;
    Ok(Plan::tasks(JobKind::Single, name, &[index]))
}

fn extension_plan(id: &str, rest: &[&str]) -> Result<Plan> {
    let mut steps: Vec<String> = match flag(rest, "--steps-json") {
        Some(text) => serde_json::from_str(text).map_err(|e| {
            Error::bad_request(format!("`--steps-json` is not a list of strings: {e}"))
        })?,
        None => vec!["Working".to_string()],
    };
    let config = flag(rest, "--config");
    if let Some(name) = config {
        steps.insert(0, format!("Using task configuration `{name}`"));
    }
    Ok(Plan {
        kind: JobKind::Extension,
        target: id.to_string(),
        configs: config.iter().map(|c| c.to_string()).collect(),
        units: vec![Unit {
            name: id.to_string(),
            steps,
        }],
    })
}

async fn operator_call(
    runner: &Runner,
    operator: &Operator,
    method: &str,
    params: &str,
) -> Result<Value> {
    runner.ensure_available()?;
    let params: Value = serde_json::from_str(params)
        .map_err(|e| Error::bad_request(format!("the parameters are not JSON: {e}")))?;
    let call = operator.check(method, &params)?;
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
