//! The backend protocol as the real program speaks it (`sra-cli` 2.24.1 of
//! PyPI `starrailassistant`, recorded in `tests/fixtures/sra-cli/`), and
//! its mapping to the contract's shapes.
//!
//! - An answer to a `--json` command is one stdout line
//!   `{"success": true, "message": TEXT, "data": DATA}`; a refusal is
//!   `{"success": false, "message": TEXT}` with no `data`, its text often in
//!   Chinese (`扩展 'x' 不存在`), non-ASCII escaped as `\uXXXX`.
//! - `task status --json` answers `data` = `{session_id, pid, mode, status,
//!   configs, unit, error, progress}`: `session_id` is a new id for every job
//!   (not for the process), `mode` is `unknown` until the first job, then
//!   `run` or `single`; `status` one of idle, running, completed, failed,
//!   stopped; `configs` the names (or paths) the job was given (empty for a
//!   single task); `error` is `""` when none; `progress` is `[current,
//!   total]`, two numbers.
//! - Commands without `--json` answer people: `[OK] TEXT` or `[FAIL] TEXT`
//!   on stdout, or nothing; what happens shows on stderr, in the log shape
//!   `HH:MM:SS | LEVEL | message` (LEVEL among TRACE, DEBUG, INFO, SUCCESS,
//!   WARNING, ERROR, CRITICAL), with `[Start]` and `[Done]` as DEBUG lines
//!   around every job, tracebacks as plain lines.
//!
//! This module knows nothing of processes: [`super::supervisor`] reads the
//! lines, this turns answers into the contract's [`TaskStatus`], extension
//! and operator shapes.

use std::path::Path;

use serde::Deserialize;
use serde_json::{Value, json};

use crate::extensions::{ExtensionInfo, ReloadReport};
use crate::operator::{OperatorHelp, OperatorMethod};
use crate::runner::{JobKind, RunState, TaskStatus};

/// The refusal of `extension list` when the backend has no extension: the
/// real program's way of saying "an empty list".
pub(crate) const NO_EXTENSIONS: &str = "没有已注册的扩展";

/// The refusal of `extension reload` when none is left after reloading.
pub(crate) const NO_EXTENSIONS_AFTER_RELOAD: &str = "重载完成，但没有已注册的扩展";

/// `data` of `task status --json`, read leniently: every field may be
/// missing, `progress` may be `[current, total]` (the real program) or text
/// (older stand-ins), `error` may be `""` or null.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub(crate) struct Answered {
    #[serde(alias = "sessionId")]
    pub session_id: String,
    pub mode: String,
    pub status: Option<RunState>,
    pub configs: Vec<String>,
    #[serde(alias = "task")]
    pub unit: String,
    pub error: Option<String>,
    pub progress: Value,
}

impl Answered {
    /// Reads `data` of a status answer.
    pub fn read(data: Value) -> Result<Answered, String> {
        serde_json::from_value(data)
            .map_err(|e| format!("the backend answered an unreadable status: {e}"))
    }

    /// The numbers of `progress`, when it is `[current, total]`.
    pub fn numbers(&self) -> Option<(usize, usize)> {
        let pair = self.progress.as_array()?;
        let number = |v: &Value| v.as_u64().and_then(|n| usize::try_from(n).ok());
        match pair.as_slice() {
            [current, total] => Some((number(current)?, number(total)?)),
            _ => None,
        }
    }
}

/// What the server knows of a job it started, which the answer may not say
/// (a single task's configuration, a temporary configuration).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Intent {
    pub kind: JobKind,
    pub target: String,
    pub configs: Vec<String>,
}

/// The name a `configs` entry stands for: a path to a `.json` file is its
/// stem (the server sends paths for names the command line cannot carry),
/// a name is itself.
pub(crate) fn config_name(entry: &str) -> String {
    let trimmed = entry.trim_matches('"');
    if trimmed.ends_with(".json") {
        Path::new(trimmed)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| trimmed.to_string())
    } else {
        trimmed.to_string()
    }
}

/// The contract's status for an answer: `status`, the progress as text
/// (`idle`, `2/5 TrailblazePowerTask`, `4/4 completed`, `stopped at 1/3`,
/// `0/1 failed`) with its numbers in
/// `completedTasks` and `totalTasks`, `configs` as names, `unit`, `error`
/// (null for `""`), what the job runs (from `mode`, or from `intent` when
/// the server started it). The session fields and the times are the
/// caller's.
pub(crate) fn to_contract(answer: &Answered, intent: Option<&Intent>) -> TaskStatus {
    let status = answer.status.unwrap_or_default();
    let (current, total) = answer.numbers().unwrap_or((0, 0));
    let progress = match &answer.progress {
        Value::String(text) => text.clone(),
        _ => match status {
            RunState::Idle => "idle".to_string(),
            RunState::Running if answer.unit.is_empty() => format!("{current}/{total}"),
            RunState::Running => format!("{current}/{total} {}", answer.unit),
            RunState::Stopped => format!("stopped at {current}/{total}"),
            RunState::Completed | RunState::Failed => {
                format!("{current}/{total} {}", state_word(status))
            }
        },
    };
    let mut configs: Vec<String> = answer.configs.iter().map(|c| config_name(c)).collect();
    let job = match answer.mode.as_str() {
        "run" => Some(JobKind::Tasks),
        "single" => Some(JobKind::Single),
        "extension" => Some(JobKind::Extension),
        _ => None,
    };
    let (job, target) = match intent {
        Some(intent) => {
            if configs.is_empty() || configs.iter().any(|c| !intent.configs.contains(c)) {
                configs = intent.configs.clone();
            }
            (Some(intent.kind), Some(intent.target.clone()))
        }
        None => (job, configs.first().cloned()),
    };
    let unit = answer.unit.clone();
    TaskStatus {
        status,
        progress,
        configs,
        current_task: (status == RunState::Running && !unit.is_empty()).then(|| unit.clone()),
        unit,
        job,
        target,
        completed_tasks: current,
        total_tasks: total,
        error: answer.error.clone().filter(|e| !e.is_empty()),
        ..TaskStatus::default()
    }
}

fn state_word(status: RunState) -> &'static str {
    match status {
        RunState::Idle => "idle",
        RunState::Running => "running",
        RunState::Completed => "completed",
        RunState::Stopped => "stopped",
        RunState::Failed => "failed",
    }
}

/// `data` of the simulator's status answer, in the real program's shape.
pub(crate) fn status_data(status: &TaskStatus, session_id: &str, pid: u32, mode: &str) -> Value {
    json!({
        "session_id": session_id,
        "pid": pid,
        "mode": mode,
        "status": status.status,
        "configs": status.configs,
        "unit": status.unit,
        "error": status.error.clone().unwrap_or_default(),
        "progress": [status.completed_tasks, status.total_tasks],
    })
}

/// A word of a command line as the real program's parser (cmd2) reads it:
/// bare when it has no blank and no quote, else in double quotes (which
/// `task` keeps and the configuration loader strips). `None` for a word it
/// cannot carry (a double quote inside).
pub(crate) fn real_word(word: &str) -> Option<String> {
    if word.contains('"') || word.is_empty() {
        return None;
    }
    if word.chars().any(|c| {
        c.is_whitespace() || c == '\'' || c == '&' || c == '|' || c == ';' || c == '>' || c == '<'
    }) {
        Some(format!("\"{word}\""))
    } else {
        Some(word.to_string())
    }
}

/// A JSON value as one single-quoted word: a `'` inside a JSON string is
/// written `\u0027`, so the word never needs an escape.
pub(crate) fn json_word(value: &Value) -> String {
    format!("'{}'", value.to_string().replace('\'', "\\u0027"))
}

/// One command of the backend protocol: the one type the server builds
/// ([`super::supervisor::Supervisor`] sends [`Command::line`]) and the
/// simulator reads ([`Command::parse`]). Its words are wire protocol, as
/// the real program spells them: they stay English whatever language the
/// server speaks to people. A word a variant holds (a configuration, an
/// extension id) is checked sendable ([`real_word`]) where the request
/// enters, with a message for people.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Command {
    /// `task status --json`: the status answer ([`Answered`]).
    TaskStatus,
    /// `task run CONFIG`: every enabled task of a configuration, named or
    /// given by the path of its file.
    TaskRun { config: String },
    /// `task single TASK --config CONFIG`.
    TaskSingle { task: String, config: String },
    /// `task stop`.
    TaskStop,
    /// `extension list --json`.
    ExtensionList,
    /// `extension reload --json`.
    ExtensionReload,
    /// `extension status --json`.
    ExtensionStatus,
    /// `extension schema ID --json`.
    ExtensionSchema { id: String },
    /// `extension config get ID --json`.
    ExtensionConfigGet { id: String },
    /// `extension config set ID JSON --json`.
    ExtensionConfigSet { id: String, config: Value },
    /// `extension run ID [--config CONFIG] --json`: a real backend's own
    /// extension.
    ExtensionRun { id: String, config: Option<String> },
    /// `extension stop ID --json`.
    ExtensionStop { id: String },
    /// `extension run ID --steps-json STEPS [--config CONFIG]`: one of this
    /// server's extensions, run by the simulator as a job of those steps
    /// (the real program has no such form).
    ExtensionSteps {
        id: String,
        steps: Vec<String>,
        config: Option<String>,
    },
    /// `operator list --json`.
    OperatorList,
    /// `operator help METHOD --json`.
    OperatorHelp { method: String },
    /// `operator call METHOD PARAMS --json`, the parameters as one JSON word.
    OperatorCall { method: String, params: Value },
    /// `game screenshot --save PATH --json`: the simulator's screenshot (a
    /// real backend saves one through its operator's `screenshot`).
    GameScreenshot { save: String },
    /// `help`: any line it prints tells the server the program reads.
    Help,
    /// `exit`.
    Exit,
}

/// What the simulator made of a line that is not a [`Command`] it knows.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum NotACommand {
    /// A known command with a value it cannot read; `json` when the line
    /// asked for an answer.
    Invalid { json: bool, message: String },
    /// No command of the protocol; `json` as above.
    Unknown { json: bool },
}

/// A word as the real program reads it ([`real_word`]); words are checked
/// sendable where the request enters, so the fallback never reaches a
/// backend.
fn word(text: &str) -> String {
    real_word(text).unwrap_or_else(|| json_word(&Value::String(text.to_string())))
}

/// A word as a POSIX shell splits it (the simulator's own commands).
fn shell_word(text: &str) -> String {
    shlex::try_quote(text).map_or_else(|_| "''".to_string(), |q| q.into_owned())
}

impl Command {
    /// The command line, without its newline.
    pub fn line(&self) -> String {
        match self {
            Command::TaskStatus => "task status --json".to_string(),
            Command::TaskRun { config } => format!("task run {}", word(config)),
            Command::TaskSingle { task, config } => {
                format!("task single {task} --config {}", word(config))
            }
            Command::TaskStop => "task stop".to_string(),
            Command::ExtensionList => "extension list --json".to_string(),
            Command::ExtensionReload => "extension reload --json".to_string(),
            Command::ExtensionStatus => "extension status --json".to_string(),
            Command::ExtensionSchema { id } => format!("extension schema {} --json", word(id)),
            Command::ExtensionConfigGet { id } => {
                format!("extension config get {} --json", word(id))
            }
            Command::ExtensionConfigSet { id, config } => format!(
                "extension config set {} {} --json",
                word(id),
                json_word(config)
            ),
            Command::ExtensionRun { id, config } => match config {
                Some(config) => format!(
                    "extension run {} --config {} --json",
                    word(id),
                    word(config)
                ),
                None => format!("extension run {} --json", word(id)),
            },
            Command::ExtensionStop { id } => format!("extension stop {} --json", word(id)),
            Command::ExtensionSteps { id, steps, config } => {
                let steps = serde_json::to_string(steps).unwrap_or_else(|_| "[]".to_string());
                let mut line = format!(
                    "extension run {} --steps-json {}",
                    shell_word(id),
                    shell_word(&steps)
                );
                if let Some(config) = config {
                    line.push_str(&format!(" --config {}", shell_word(config)));
                }
                line
            }
            Command::OperatorList => "operator list --json".to_string(),
            Command::OperatorHelp { method } => format!("operator help {method} --json"),
            Command::OperatorCall { method, params } => {
                format!("operator call {method} {} --json", json_word(params))
            }
            Command::GameScreenshot { save } => {
                format!("game screenshot --save {} --json", shell_word(save))
            }
            Command::Help => "help".to_string(),
            Command::Exit => "exit".to_string(),
        }
    }

    /// The first two words, to name the command in a message.
    pub fn verb(&self) -> String {
        self.line()
            .split_whitespace()
            .take(2)
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Reads the words of a line (split as a shell splits them) as the
    /// simulator knows them. Defaults are the real program's: `task run`
    /// and `task single` without a configuration use `Default`, an
    /// extension run without steps has one, `Working`.
    pub fn parse(words: &[&str]) -> std::result::Result<Command, NotACommand> {
        let json = words.last() == Some(&"--json");
        let args = if json {
            &words[..words.len() - 1]
        } else {
            words
        };
        let flag = |rest: &[&str], name: &str| -> Option<String> {
            rest.iter()
                .position(|w| *w == name)
                .and_then(|i| rest.get(i + 1))
                .map(|w| (*w).to_string())
        };
        let default = || crate::configs::DEFAULT_CONFIG_NAME.to_string();
        let invalid = |message: String| NotACommand::Invalid { json, message };
        Ok(match args {
            ["help"] => Command::Help,
            ["exit"] => Command::Exit,
            ["task", "status"] => Command::TaskStatus,
            ["task", "stop"] => Command::TaskStop,
            ["task", "run", rest @ ..] => Command::TaskRun {
                config: rest.first().map_or_else(default, |w| (*w).to_string()),
            },
            ["task", "single", task, rest @ ..] => Command::TaskSingle {
                task: (*task).to_string(),
                config: flag(rest, "--config").unwrap_or_else(default),
            },
            ["extension", "run", id, rest @ ..] if !json => Command::ExtensionSteps {
                id: (*id).to_string(),
                steps: match flag(rest, "--steps-json") {
                    Some(text) => serde_json::from_str(&text).map_err(|e| {
                        invalid(format!("`--steps-json` is not a list of strings: {e}"))
                    })?,
                    None => vec!["Working".to_string()],
                },
                config: flag(rest, "--config"),
            },
            ["operator", "call", method, params] if json => Command::OperatorCall {
                method: (*method).to_string(),
                params: serde_json::from_str(params)
                    .map_err(|e| invalid(format!("the parameters are not JSON: {e}")))?,
            },
            ["game", "screenshot", "--save", path] if json => Command::GameScreenshot {
                save: (*path).to_string(),
            },
            _ => return Err(NotACommand::Unknown { json }),
        })
    }
}

/// The answer to a `--json` command: one stdout line `{"success": true,
/// "message": M, "data": D}`, or `{"success": false, "message": WHY}`
/// without `data`, non-ASCII escaped as `\uXXXX` (Python's `json.dumps`).
/// The simulator writes it ([`Answer::line`]), the server reads it
/// ([`Answer::read`]); `message` is the backend's, shown as it is.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Answer {
    pub success: bool,
    pub message: String,
    pub data: Option<Value>,
}

impl Answer {
    /// The answer of a command that succeeded with `data` or failed with
    /// its error's message.
    pub fn of<E: std::fmt::Display>(message: &str, result: Result<Value, E>) -> Answer {
        match result {
            Ok(data) => Answer {
                success: true,
                message: message.to_string(),
                data: Some(data),
            },
            Err(e) => Answer {
                success: false,
                message: e.to_string(),
                data: None,
            },
        }
    }

    /// The line as the real program prints it.
    pub fn line(&self) -> String {
        let value = match (&self.data, self.success) {
            (Some(data), true) => {
                json!({"success": true, "message": self.message, "data": data})
            }
            _ => json!({"success": self.success, "message": self.message}),
        };
        ascii_json(&value.to_string())
    }

    /// The answer a stdout line is, if it is one: a JSON object with a
    /// boolean `success`.
    pub fn read(line: &str) -> Option<Answer> {
        let value: Value = serde_json::from_str(line.trim()).ok()?;
        let success = value.get("success")?.as_bool()?;
        Some(Answer {
            success,
            message: value
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or("no message")
                .to_string(),
            data: value.get("data").cloned(),
        })
    }
}

/// JSON text with every non-ASCII character written `\uXXXX`.
fn ascii_json(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        }
    }
    out
}

/// `extension list --json` as the contract's list: the real program gives
/// `{id, name, description, extension_class, config_class}` and no version,
/// kind or state.
pub(crate) fn extensions(data: &Value) -> Vec<ExtensionInfo> {
    data.as_array()
        .into_iter()
        .flatten()
        .filter_map(|item| {
            let text = |key: &str| {
                item.get(key)
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string()
            };
            let id = text("id");
            (!id.is_empty()).then(|| ExtensionInfo {
                name: Some(text("name"))
                    .filter(|n| !n.is_empty())
                    .unwrap_or_else(|| id.clone()),
                id,
                version: String::new(),
                description: text("description"),
                background: item
                    .get("background")
                    .and_then(Value::as_bool)
                    .unwrap_or(false),
                running: false,
                config_valid: true,
            })
        })
        .collect()
}

/// A reload report from the lists before and after `extension reload`.
pub(crate) fn reload_report(before: &[String], after: &[String]) -> ReloadReport {
    ReloadReport {
        added: after
            .iter()
            .filter(|id| !before.contains(id))
            .cloned()
            .collect(),
        changed: after
            .iter()
            .filter(|id| before.contains(id))
            .cloned()
            .collect(),
        removed: before
            .iter()
            .filter(|id| !after.contains(id))
            .cloned()
            .collect(),
        loaded: after.to_vec(),
        errors: Vec::new(),
    }
}

/// `operator list --json` (names) with each method's summary.
pub(crate) fn operator_method(name: &str, help: Option<&Value>) -> OperatorMethod {
    OperatorMethod {
        name: name.to_string(),
        summary: help
            .and_then(|h| h.get("summary"))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string(),
    }
}

/// `operator help M --json` as the contract's help: the parameters as a
/// JSON Schema object (each with the Python type as its description and
/// its default; those without a default required), the docstring as the
/// description and its `Returns:` section as what a call returns.
pub(crate) fn operator_help(name: &str, data: &Value) -> OperatorHelp {
    let doc = data.get("doc").and_then(Value::as_str).unwrap_or_default();
    let mut properties = serde_json::Map::new();
    let mut required = Vec::new();
    for parameter in data
        .get("parameters")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let Some(key) = parameter.get("name").and_then(Value::as_str) else {
            continue;
        };
        let mut property = serde_json::Map::new();
        if let Some(kind) = parameter.get("type").and_then(Value::as_str) {
            property.insert("description".to_string(), Value::String(kind.to_string()));
        }
        match parameter.get("default") {
            Some(default) => {
                property.insert("default".to_string(), default.clone());
            }
            None => required.push(Value::String(key.to_string())),
        }
        properties.insert(key.to_string(), Value::Object(property));
    }
    let returns = doc
        .split_once("Returns:")
        .map(|(_, rest)| rest.split_whitespace().collect::<Vec<_>>().join(" "))
        .unwrap_or_default();
    OperatorHelp {
        name: name.to_string(),
        summary: data
            .get("summary")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string(),
        description: doc.to_string(),
        parameters: json!({"type": "object", "properties": properties, "required": required}),
        returns,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every command the simulator runs reads back as the command the
    /// server built, whatever its words hold (blanks, quotes, non-ASCII).
    #[test]
    fn the_simulators_commands_read_back_as_built() {
        let commands = [
            Command::TaskStatus,
            Command::TaskStop,
            Command::Help,
            Command::Exit,
            Command::TaskRun {
                config: "Daily run".to_string(),
            },
            Command::TaskRun {
                config: "/state dir/configs/it's.json".to_string(),
            },
            Command::TaskSingle {
                task: "TrailblazePowerTask".to_string(),
                config: "日常".to_string(),
            },
            Command::ExtensionSteps {
                id: "daily-checkin".to_string(),
                steps: vec!["Opening 'the' page".to_string(), "签到".to_string()],
                config: Some("Daily run".to_string()),
            },
            Command::ExtensionSteps {
                id: "x".to_string(),
                steps: vec!["Working".to_string()],
                config: None,
            },
            Command::OperatorCall {
                method: "press_key".to_string(),
                params: json!({"key": "it's", "n": [1, 2.5, null]}),
            },
            Command::GameScreenshot {
                save: "backend/screenshot.png".to_string(),
            },
        ];
        for command in commands {
            let line = command.line();
            let words = shlex::split(&line).unwrap();
            let words: Vec<&str> = words.iter().map(String::as_str).collect();
            assert_eq!(Command::parse(&words), Ok(command), "{line}");
        }
    }

    #[test]
    fn answers_read_back_as_written() {
        for answer in [
            Answer::of("Task status", Ok::<_, String>(json!({"progress": [1, 2]}))),
            Answer::of("", Err::<Value, _>("扩展 'x' 不存在")),
            Answer::of("success", Ok::<_, String>(Value::Null)),
        ] {
            let line = answer.line();
            assert!(line.is_ascii(), "{line}");
            assert_eq!(Answer::read(&line), Some(answer), "{line}");
        }
        assert_eq!(Answer::read("[OK] started"), None);
    }

    #[test]
    fn the_real_status_maps_to_the_contract() {
        let data = json!({"session_id": "4cfd", "pid": 28071, "mode": "run", "status": "running",
            "configs": ["Default"], "unit": "", "error": "", "progress": [0, 0]});
        let status = to_contract(&Answered::read(data).unwrap(), None);
        assert_eq!(status.status, RunState::Running);
        assert_eq!(status.progress, "0/0");
        assert_eq!(status.job, Some(JobKind::Tasks));
        assert_eq!(status.configs, ["Default"]);
        assert_eq!(status.error, None);
        let data = json!({"mode": "single", "status": "failed", "configs": [], "unit": "",
            "error": "No module named 'pyautogui'", "progress": [0, 1]});
        let intent = Intent {
            kind: JobKind::Single,
            target: "Default".into(),
            configs: vec!["Default".into()],
        };
        let status = to_contract(&Answered::read(data).unwrap(), Some(&intent));
        assert_eq!(status.progress, "0/1 failed");
        assert_eq!((status.completed_tasks, status.total_tasks), (0, 1));
        assert_eq!(status.configs, ["Default"]);
        assert_eq!(status.error.as_deref(), Some("No module named 'pyautogui'"));
    }

    #[test]
    fn words_reach_the_real_parser_whole() {
        assert_eq!(real_word("Default").as_deref(), Some("Default"));
        assert_eq!(
            real_word("/s/My Run.json").as_deref(),
            Some("\"/s/My Run.json\"")
        );
        assert_eq!(real_word("a\"b"), None);
        assert_eq!(json_word(&json!({"k": "it's"})), r#"'{"k":"it\u0027s"}'"#);
        assert_eq!(config_name("/state/configs/Weekly.json"), "Weekly");
    }
}
