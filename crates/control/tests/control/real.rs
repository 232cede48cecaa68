//! Issue 38: the real backend's answers, as recorded from `sra-cli` 2.24.1
//! (tests/fixtures/sra-cli/transcript-2.24.1.json, by record.py beside
//! it), replayed by `activity-site backend --replay` behind the router: every
//! status shape and refusal the real program gives reaches the contract's
//! shapes or a 500 envelope with the backend's own message. A last test
//! drives the simulator and the real program (where it is installed) with
//! the same requests and compares the shapes.
#![cfg(unix)]

use std::path::PathBuf;
use std::time::Duration;

use activity_site_control::api::{self, ApiOptions};
use activity_site_control::{BackendCommand, Control};
use axum::http::StatusCode;
use serde_json::{Value, json};

use super::harness::Api;

fn transcript() -> PathBuf {
    crate::util::crate_root().join("tests/fixtures/sra-cli/transcript-2.24.1.json")
}

/// An API whose backend is `backend`, with the contract's start arguments.
fn api_with(backend: BackendCommand, timeout: Duration) -> Api {
    let dir = tempfile::tempdir().unwrap();
    let mut options = crate::util::control_options(dir.path().join("state"));
    options.backend = backend;
    options.answer_timeout = timeout;
    let control = Control::open(options).unwrap();
    let router = api::router(control.clone(), ApiOptions::default());
    Api {
        control,
        router,
        dir,
    }
}

/// The transcript, replayed.
fn replayed() -> Api {
    api_with(
        BackendCommand {
            program: PathBuf::from(env!("CARGO_BIN_EXE_activity-site-simulator")),
            args: vec![
                "backend".to_string(),
                "--replay".to_string(),
                transcript().display().to_string(),
            ],
        },
        Duration::from_secs(2),
    )
}

#[tokio::test]
async fn the_recorded_statuses_map_to_the_contract() {
    let api = replayed();
    // Idle: `progress: [0, 0]`, `mode: unknown`, `error: ""`.
    let idle = api.get("/api/Task/status").await;
    let idle = idle.data();
    assert_eq!(idle["status"], "idle", "{idle}");
    assert_eq!(idle["progress"], "idle", "a string, as the contract says");
    assert_eq!(idle["completedTasks"], 0);
    assert_eq!(idle["totalTasks"], 0);
    assert_eq!(idle["error"], Value::Null);
    assert_eq!(idle["mode"], "inline", "the server's session fields");
    assert!(idle["pid"].as_u64().unwrap() > 0);

    // A run: the recorded `running` answer, then `failed` with the real error.
    let run = api
        .post("/api/Task/run", json!({"configName": "Default"}))
        .await;
    let run = run.data();
    assert_eq!(run["status"], "running", "{run}");
    assert_eq!(run["configs"], json!(["Default"]));
    assert_eq!(run["job"], "tasks");
    assert_eq!(run["progress"], "0/0");
    assert!(run["startedAt"].is_string());
    let failed = api.get("/api/Task/status").await;
    let failed = failed.data();
    assert_eq!(failed["status"], "failed", "{failed}");
    assert_eq!(failed["error"], "No module named 'pyautogui'");
    assert_eq!(failed["progress"], "0/0 failed");
    assert_eq!(failed["target"], "Default");
    assert!(failed["finishedAt"].is_string());
    // The backend's traceback reached the log one line per event, in the
    // log shape (plain lines get one).
    let logs = api
        .wait_for_log("| ERROR | Traceback (most recent call last):")
        .await;
    assert!(
        logs.iter().any(|l| l.ends_with("| DEBUG | [Start]")),
        "{logs:?}"
    );
    assert!(
        logs.iter()
            .any(|l| l.contains("| ERROR | TaskManager crashed: No module named 'pyautogui'")),
        "{logs:?}"
    );
    assert!(
        logs.iter()
            .any(|l| l.ends_with("| ERROR | Traceback (most recent call last):"))
    );
    assert!(logs.iter().all(|l| !l.contains('\n')));

    // A single task: the real program reports no configuration and
    // `progress: [0, 1]`; the server keeps the configuration it asked for.
    let single = api
        .post(
            "/api/Task/single",
            json!({"taskName": "StartGameTask", "configName": "Default"}),
        )
        .await;
    let single = single.data();
    assert_eq!(single["job"], "single", "{single}");
    assert_eq!(single["status"], "failed");
    assert_eq!(single["progress"], "0/1 failed");
    assert_eq!(
        (
            single["completedTasks"].as_u64(),
            single["totalTasks"].as_u64()
        ),
        (Some(0), Some(1))
    );
    assert_eq!(single["configs"], json!(["Default"]));

    // A stop with nothing running answers the status.
    let stop = api.post("/api/Task/stop", json!({})).await;
    assert_eq!(stop.data()["status"], "failed");
}

#[tokio::test]
async fn a_temporary_configuration_reaches_the_backend_as_a_file() {
    let api = replayed();
    let run = api
        .post(
            "/api/Task/run",
            json!({"config": {"startGame": {"enabled": true}}, "persist": false}),
        )
        .await;
    let run = run.data();
    assert_eq!(run["target"], "(temporary configuration)", "{run}");
    assert_eq!(run["configs"], json!([]));
    let written = api.dir.path().join("state/backend/run-config.json");
    let config: Value = serde_json::from_slice(&std::fs::read(&written).unwrap()).unwrap();
    assert_eq!(config["startGame"]["enabled"], true);
}

#[tokio::test]
async fn the_recorded_refusals_are_500_envelopes_with_the_backends_message() {
    let api = replayed();
    // No extension registered: the real program's refusal is the empty list.
    let list = api.get("/api/Extensions").await;
    assert_eq!(list.data(), &json!([]));
    let reload = api.post("/api/Extensions/reload", json!({})).await;
    assert_eq!(reload.data()["loaded"], json!([]), "{}", reload.json);
    api.get("/api/Extensions/daily-checkin/schema")
        .await
        .assert_error(StatusCode::NOT_FOUND);

    // Its operator methods, with their summaries from `operator help`.
    let methods = api.get("/api/Operator/list").await;
    let names: Vec<&str> = methods
        .data()
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"click_point") && names.contains(&"launch"),
        "{names:?}"
    );
    let click = methods
        .data()
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "click_point")
        .unwrap();
    assert_eq!(click["summary"], "点击指定位置");
    let help = api.get("/api/Operator/help/click_point").await;
    let help = help.data();
    assert_eq!(help["parameters"]["required"], json!(["x", "y"]), "{help}");
    assert_eq!(help["parameters"]["properties"]["x_offset"]["default"], 0);
    api.get("/api/Operator/help/nope")
        .await
        .assert_error(StatusCode::NOT_FOUND);

    // A call fails on this machine with the backend's own words.
    let call = api
        .post(
            "/api/Operator/call",
            json!({"method": "click_point", "params": {"x": 0.5, "y": 0.5}}),
        )
        .await;
    call.assert_error(StatusCode::INTERNAL_SERVER_ERROR);
    assert!(
        call.message()
            .contains("Operator 初始化失败: No module named 'pyautogui'"),
        "{}",
        call.message()
    );
    // `launch` starts programs: not relayed without an access token.
    api.post(
        "/api/Operator/call",
        json!({"method": "launch", "params": {}}),
    )
    .await
    .assert_error(StatusCode::FORBIDDEN);
    api.post("/api/Operator/call", json!({"method": "nope"}))
        .await
        .assert_error(StatusCode::NOT_FOUND);
    // The screenshot too, never a hang.
    let shot = api.get("/api/Operator/screenshot").await;
    shot.assert_error(StatusCode::INTERNAL_SERVER_ERROR);
    assert!(shot.message().contains("pyautogui"), "{}", shot.message());
}

#[tokio::test]
async fn the_child_reads_the_state_directory_as_its_application_data_folder() {
    let api = replayed();
    api.get("/api/Task/status").await.data();
    let state = api.dir.path().join("state");
    let link = state.join("backend/home/.config/SRA");
    assert_eq!(
        std::fs::canonicalize(&link).unwrap(),
        std::fs::canonicalize(&state).unwrap()
    );
    assert!(link.join("configs/Default.json").is_file());
}

/// The real program, where it is installed: `SRA_CLI`, else `sra-cli` on PATH.
fn real_program() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("SRA_CLI") {
        return Some(PathBuf::from(path));
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join("sra-cli"))
            .find(|p| p.is_file())
    })
}

/// The keys of every object in `value`, recursively, as `path.key` lines.
fn shape(value: &Value, path: &str, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                let here = format!("{path}.{key}");
                out.push(format!("{here}: {}", kind(child)));
                shape(child, &here, out);
            }
        }
        Value::Array(items) => {
            if let Some(first) = items.first() {
                shape(first, &format!("{path}[]"), out);
            }
        }
        _ => {}
    }
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null|string",
        Value::String(_) => "null|string",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

#[tokio::test]
async fn the_simulator_and_the_real_backend_give_the_same_shapes() {
    let Some(real) = real_program() else {
        println!("skipped: the real backend is not installed (set SRA_CLI or put sra-cli on PATH)");
        return;
    };
    let simulator = api_with(
        BackendCommand::simulator(env!("CARGO_BIN_EXE_activity-site-simulator")),
        Duration::from_secs(20),
    );
    let real = api_with(
        BackendCommand {
            program: real,
            args: Vec::new(),
        },
        Duration::from_secs(20),
    );
    for api in [&simulator, &real] {
        // A configuration that runs nothing, which both can complete.
        let nothing = json!({"startGame": {"enabled": false}, "trailblazePower": {"enabled": false},
            "receiveRewards": {"enabled": false}, "cosmicStrife": {"enabled": false},
            "missionAccomplished": {"enabled": false}});
        api.post("/api/Configs/Nothing", nothing).await.data();
    }
    let mut shapes = Vec::new();
    for api in [&simulator, &real] {
        let mut seen = Vec::new();
        let idle = api.get("/api/Task/status").await;
        shape(idle.data(), "status", &mut seen);
        let run = api
            .post("/api/Task/run", json!({"configName": "Nothing"}))
            .await;
        shape(run.data(), "run", &mut seen);
        // The simulator completes it; the real program, on Linux, fails it
        // (it makes its operator, which needs `pyautogui`, before it looks
        // at which tasks are on).
        let done = api.wait_for(&["completed", "failed"]).await;
        assert_eq!(done["configs"], json!(["Nothing"]), "{done}");
        assert_eq!(done["completedTasks"], done["totalTasks"]);
        shape(&done, "done", &mut seen);
        let stop = api.post("/api/Task/stop", json!({})).await;
        shape(stop.data(), "stop", &mut seen);
        let missing = api
            .post("/api/Operator/call", json!({"method": "no_such_method"}))
            .await;
        assert_eq!(missing.status, StatusCode::NOT_FOUND, "{}", missing.json);
        shapes.push(seen);
    }
    // `error` is null or text in both; every other key has one type.
    assert_eq!(shapes[0], shapes[1]);
}
