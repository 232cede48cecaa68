//! What the service's own web UI reads, through the router: the status
//! fields and values, the routes it calls beyond the contract, the log line
//! shape it parses, and the `AppSettings` / `TasksConfig` schemas its forms
//! are built from.

use activity_site_control::api::ApiOptions;
use axum::http::StatusCode;
use serde_json::{Value, json};

use super::harness::{Api, FAST, eventually, fast, holds, open};

/// Polls the status until `done(status)`; returns every status value seen
/// on the way and the last data.
async fn poll_until(api: &Api, done: impl Fn(&Value) -> bool) -> (Vec<String>, Value) {
    let seen = std::cell::RefCell::new(Vec::new());
    let (seen_ref, done) = (&seen, &done);
    let data = eventually("the status to settle", || async move {
        let data = api.get("/api/Task/status").await.data().clone();
        seen_ref
            .borrow_mut()
            .push(data["status"].as_str().unwrap().to_string());
        holds(done(&data), || data.to_string()).map(|()| data)
    })
    .await;
    (seen.into_inner(), data)
}

const UI_STATUSES: [&str; 5] = ["idle", "running", "completed", "failed", "stopped"];

#[tokio::test]
async fn the_status_carries_the_fields_the_web_ui_reads() {
    let api = open("--inline --no-admin --step-ms=40", ApiOptions::default());
    let idle = api.get("/api/Task/status").await.data().clone();
    assert_eq!(idle["status"], "idle");
    assert!(idle["progress"].is_string(), "the contract's progress text");
    assert!(!idle["session_id"].as_str().unwrap().is_empty());
    assert!(
        idle["pid"].as_u64().unwrap() > 0,
        "a running backend has a pid"
    );
    assert_eq!(idle["mode"], "inline");
    assert_eq!(idle["configs"], json!([]));
    assert_eq!(idle["unit"], "");
    assert_eq!(idle["stopping"], false);
    assert_eq!(idle["error"], Value::Null);

    api.post("/api/Task/run", json!({"configName": "Default"}))
        .await
        .data();
    let (seen, running) = poll_until(&api, |d| d["unit"] != "" || d["status"] != "running").await;
    assert_eq!(running["status"], "running", "{seen:?}");
    assert_eq!(running["configs"], json!(["Default"]));
    let unit = running["unit"].as_str().unwrap();
    assert!(
        [
            "StartGameTask",
            "TrailblazePowerTask",
            "ReceiveRewardsTask",
            "MissionAccomplishTask"
        ]
        .contains(&unit),
        "the task executing now: {unit}"
    );
    assert_eq!(running["totalTasks"], 4, "the numbers of a progress bar");
    assert!(running["completedTasks"].is_u64());
    assert!(
        running["progress"]
            .as_str()
            .unwrap()
            .contains("StartGameTask")
    );
    assert_eq!(running["session_id"], idle["session_id"]);

    let (seen, done) = poll_until(&api, |d| d["status"] != "running").await;
    assert!(
        seen.iter().all(|s| UI_STATUSES.contains(&s.as_str())),
        "{seen:?}"
    );
    assert_eq!(done["status"], "completed");
    assert_eq!(done["unit"], "");
    assert_eq!(done["completedTasks"], done["totalTasks"]);

    // A restart is a new session; a failure has its text in `error`.
    api.post(
        "/api/Backend/restart",
        json!({"arguments": "--no-admin --python --step-ms=10 --fail-task=StartGameTask"}),
    )
    .await
    .data();
    api.post("/api/Task/run", json!({})).await.data();
    let (_, failed) = poll_until(&api, |d| d["status"] != "running").await;
    assert_eq!(failed["status"], "failed");
    assert!(failed["error"].as_str().unwrap().contains("StartGameTask"));
    assert_ne!(failed["session_id"], idle["session_id"]);
    assert_eq!(failed["mode"], "python");
}

#[tokio::test]
async fn a_temporary_configuration_names_no_configuration() {
    let api = fast();
    api.post(
        "/api/Task/run",
        json!({"config": {"receiveRewards": {"enabled": true}}, "persist": false}),
    )
    .await
    .data();
    let (_, done) = poll_until(&api, |d| d["status"] != "running").await;
    assert_eq!(done["configs"], json!([]));
}

#[tokio::test]
async fn stop_goes_from_running_straight_to_stopped() {
    let api = open("--inline --no-admin --step-ms=5000", ApiOptions::default());
    api.post("/api/Task/run", json!({"configName": "Default"}))
        .await
        .data();
    let stop = api.call("POST", "/api/Task/stop", None).await;
    let answer = stop.data();
    assert_eq!(answer["status"], "running", "a stop in progress is a flag");
    assert_eq!(answer["stopping"], true);
    let (seen, stopped) = poll_until(&api, |d| d["status"] != "running").await;
    assert!(
        seen.iter().all(|s| s == "running" || s == "stopped"),
        "running, then stopped: {seen:?}"
    );
    assert_eq!(stopped["status"], "stopped");
    assert_eq!(stopped["stopping"], false);
    assert!(stopped["progress"].as_str().unwrap().starts_with("stopped"));
}

#[tokio::test]
async fn backend_stop_refuses_tasks_until_a_restart() {
    let api = open("--inline --no-admin --step-ms=5000", ApiOptions::default());
    api.post("/api/Task/run", json!({"configName": "Default"}))
        .await
        .data();
    // The UI sends no body.
    let stopped = api.call("POST", "/api/backend/stop", None).await;
    assert_eq!(stopped.data()["running"], false);

    let status = api.get("/api/Task/status").await.data().clone();
    assert_eq!(status["status"], "stopped", "the running task ends with it");
    assert_eq!(status["pid"], 0, "no backend, no pid");
    assert_eq!(status["backend"]["running"], false);

    for reply in [
        api.post("/api/Task/run", json!({"configName": "Default"}))
            .await,
        api.post(
            "/api/Task/single",
            json!({"taskName": "ReceiveRewardsTask"}),
        )
        .await,
        api.get("/api/Backend/screenshot").await,
        api.get("/api/Operator/screenshot").await,
    ] {
        reply.assert_error(StatusCode::INTERNAL_SERVER_ERROR);
        assert!(
            reply.message().contains("backend not running"),
            "{}",
            reply.json
        );
    }
    // Stopping again is harmless; the status and the log still answer.
    api.call("POST", "/api/Backend/stop", None).await.data();
    api.get("/api/Backend/logs").await.data();
    api.wait_for_log("Backend stopped").await;

    let restarted = api.call("POST", "/api/Backend/restart", None).await;
    assert_eq!(restarted.data()["running"], true);
    assert!(
        api.get("/api/Task/status").await.data()["pid"]
            .as_u64()
            .unwrap()
            > 0
    );
    api.post("/api/Task/run", json!({"configName": "Default"}))
        .await
        .data();
    api.call("POST", "/api/Task/stop", None).await.data();
}

#[tokio::test]
async fn the_backend_screenshot_is_the_operator_png() {
    let api = fast();
    let backend = api.get("/api/backend/screenshot?t=1700000000000").await;
    let operator = api.get("/api/Operator/screenshot").await;
    assert_eq!(backend.status, StatusCode::OK);
    assert_eq!(backend.headers["content-type"], "image/png");
    assert_eq!(backend.headers["cache-control"], "no-store");
    assert!(backend.bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
    let width = u32::from_be_bytes(backend.bytes[16..20].try_into().unwrap());
    let height = u32::from_be_bytes(backend.bytes[20..24].try_into().unwrap());
    assert_eq!((width, height), (1280, 720));
    assert_eq!(
        backend.bytes, operator.bytes,
        "the same window, the same image"
    );
}

#[tokio::test]
async fn app_routes_say_what_runs() {
    let api = fast();
    let info = api.get("/api/App/system-info").await.data().clone();
    assert_eq!(info["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(info["architecture"], std::env::consts::ARCH);
    assert!(!info["osVersion"].as_str().unwrap().is_empty());
    assert_eq!(info["dotnetVersion"], Value::Null, "no .NET runs here");
    assert!(info["processorCount"].as_u64().unwrap() >= 1);
    assert!(info["cultureInfo"].is_string());

    let phrases = api.get("/api/app/phrases").await.data().clone();
    let phrases = phrases.as_array().unwrap();
    assert!(!phrases.is_empty());
    for phrase in phrases {
        let text = phrase.as_str().unwrap();
        assert!(!text.is_empty() && text.chars().count() <= 80, "{text:?}");
    }
}

#[tokio::test]
async fn the_new_routes_need_the_token_in_any_case() {
    let api = open(
        FAST,
        ApiOptions {
            access_token: Some("s3cret".to_string()),
            ..ApiOptions::default()
        },
    );
    for (method, path) in [
        ("POST", "/api/Backend/stop"),
        ("POST", "/api/backend/stop"),
        ("GET", "/api/Backend/screenshot"),
        ("GET", "/api/backend/screenshot"),
        ("GET", "/api/App/system-info"),
        ("GET", "/api/app/system-info"),
        ("GET", "/api/App/phrases"),
        ("GET", "/api/APP/PHRASES"),
    ] {
        api.call(method, path, None)
            .await
            .assert_error(StatusCode::UNAUTHORIZED);
    }
    // The UI's calls: the header for Axios, the query for the screenshot and the stream.
    let request = axum::http::Request::builder()
        .uri("/api/app/system-info")
        .header("X-Access-Token", "s3cret")
        .body(axum::body::Body::empty())
        .unwrap();
    api.send(request).await.data();
    let shot = api
        .get("/api/backend/screenshot?access_token=s3cret&t=1")
        .await;
    assert_eq!(shot.status, StatusCode::OK);
    let stopped = api
        .call("POST", "/api/backend/stop?access_token=s3cret", None)
        .await;
    assert_eq!(stopped.data()["running"], false);
}

/// `21:51:02 | INFO  | message`: what both versions of the UI's parser split.
fn split_line(line: &str) -> Option<(&str, &str, &str)> {
    let (time, rest) = line.split_once(" | ")?;
    let (level, message) = rest.split_once(" | ")?;
    let digits = |s: &str| s.len() == 2 && s.bytes().all(|b| b.is_ascii_digit());
    let parts: Vec<&str> = time.split(':').collect();
    (parts.len() == 3 && parts.iter().all(|p| digits(p))).then_some(())?;
    (level.len() == 5 && level.trim_end().bytes().all(|b| b.is_ascii_uppercase())).then_some(())?;
    Some((time, level.trim_end(), message))
}

#[tokio::test]
async fn log_lines_have_the_real_backends_shape() {
    let api = open(
        "--inline --no-admin --step-ms=10 --fail-task=ReceiveRewardsTask",
        ApiOptions::default(),
    );
    api.post("/api/Task/run", json!({"configName": "Default"}))
        .await
        .data();
    api.wait_for(&["failed"]).await;
    // A warning: a restart while nothing runs logs none, so stop a running job.
    api.post(
        "/api/Backend/restart",
        json!({"arguments": "--step-ms=5000"}),
    )
    .await
    .data();
    api.post("/api/Task/run", json!({})).await.data();
    api.call("POST", "/api/Backend/restart", None).await.data();

    // The restart's lines reach the log after its answer.
    let lines = api
        .wait_for_logs("an INFO, a WARN and an ERROR line", |lines| {
            ["| INFO  |", "| WARN  |", "| ERROR |"]
                .iter()
                .all(|level| lines.iter().any(|l| l.contains(level)))
        })
        .await;
    let mut levels = Vec::new();
    for line in &lines {
        // A multi-line entry (the simulated traceback) continues on its own lines.
        let first = line.lines().next().unwrap();
        let (_, level, message) = split_line(first)
            .unwrap_or_else(|| panic!("not `HH:MM:SS | LEVEL | message`: {line:?}"));
        assert!(!message.is_empty());
        levels.push(level.to_string());
    }
    for level in ["INFO", "WARN", "ERROR"] {
        assert!(levels.iter().any(|l| l == level), "{level} in {levels:?}");
    }
    assert_eq!(
        split_line("21:51:02 | INFO  | message"),
        Some(("21:51:02", "INFO", "message"))
    );
}

// The schemas the forms are built from.

/// Follows a `$ref` into `components.schemas`.
fn resolve<'a>(doc: &'a Value, node: &'a Value) -> &'a Value {
    match node["$ref"].as_str() {
        Some(r) => {
            let name = r.strip_prefix("#/components/schemas/").unwrap();
            &doc["components"]["schemas"][name]
        }
        None => node,
    }
}

/// Asserts that every field of `value` is a property of `schema`, with the
/// right type, a description, and (on a fresh state) `value` as its default.
fn assert_covered(doc: &Value, schema: &Value, value: &Value, path: &str, fresh: bool) {
    let schema = resolve(doc, schema);
    let Value::Object(fields) = value else {
        panic!("{path} is not an object");
    };
    assert_eq!(schema["type"], "object", "{path}");
    for (key, field) in fields {
        let at = format!("{path}.{key}");
        let property = &schema["properties"][key];
        assert!(property.is_object(), "{at} is missing from the schema");
        let resolved = resolve(doc, property);
        let described = property["description"].is_string() || resolved["description"].is_string();
        assert!(described, "{at} has no description");
        match field {
            Value::Object(_) => {
                assert!(
                    property["$ref"].is_string(),
                    "{at}: nested objects are nested schemas"
                );
                assert_covered(doc, property, field, &at, fresh);
                continue;
            }
            Value::Bool(_) => assert_eq!(resolved["type"], "boolean", "{at}"),
            Value::String(text) => {
                assert_eq!(resolved["type"], "string", "{at}");
                if let Some(choices) = resolved["enum"].as_array() {
                    assert!(
                        choices.contains(&json!(text)),
                        "{at}: {text} in {choices:?}"
                    );
                }
            }
            Value::Number(n) if n.is_f64() => assert_eq!(resolved["type"], "number", "{at}"),
            Value::Number(_) => assert_eq!(resolved["type"], "integer", "{at}"),
            other => panic!("{at}: unexpected {other}"),
        }
        if fresh {
            assert_eq!(
                &resolved["default"], field,
                "{at}: the default is the served value"
            );
        }
    }
}

#[tokio::test]
async fn the_form_schemas_cover_every_field_the_data_returns() {
    let api = fast();
    let doc = api.get("/openapi/v1.json").await.json;
    let schemas = &doc["components"]["schemas"];
    let settings = api.get("/api/Settings").await.data().clone();
    let config = api.get("/api/Configs/Default").await.data().clone();
    assert_eq!(settings.as_object().unwrap().len(), 5, "five sections");
    assert_eq!(config.as_object().unwrap().len(), 5, "five task sections");
    assert_covered(
        &doc,
        &schemas["AppSettings"],
        &settings,
        "AppSettings",
        true,
    );
    assert_covered(&doc, &schemas["TasksConfig"], &config, "TasksConfig", true);

    // The ranges and patterns the settings' types declare (issue 35: one
    // description, the one the update is checked against).
    let at = |path: &[&str]| {
        path.iter().fold(&schemas["AppSettings"], |node, key| {
            resolve(&doc, &resolve(&doc, node)["properties"][*key])
        })
    };
    let ocr = at(&["general", "ocrConfidence"]);
    assert_eq!(
        (&ocr["minimum"], &ocr["maximum"]),
        (&json!(0.0), &json!(1.0))
    );
    let port = at(&["notification", "email", "smtpPort"]);
    assert_eq!(
        (&port["minimum"], &port["maximum"]),
        (&json!(1), &json!(65535))
    );
    assert!(at(&["advanced", "backend", "remote", "url"])["pattern"].is_string());
    assert!(at(&["notification", "webhook", "url"])["pattern"].is_string());

    // Enums and the sections' labels (the UI shows a section's description).
    let display = resolve(&doc, &schemas["AppSettings"]["properties"]["display"]);
    assert_eq!(
        display["properties"]["theme"]["enum"],
        json!(["system", "light", "dark"])
    );
    for root in ["AppSettings", "TasksConfig"] {
        for (key, section) in schemas[root]["properties"].as_object().unwrap() {
            assert!(
                resolve(&doc, section)["description"].is_string(),
                "{root}.{key} has a label"
            );
        }
    }
    // The properties keep the order of the data (the order of the UI's tabs).
    let order: Vec<&String> = schemas["TasksConfig"]["properties"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    let data_order: Vec<&String> = config.as_object().unwrap().keys().collect();
    assert_eq!(order, data_order);

    // The credentials are write-only: never in the schema, never returned.
    let start = resolve(&doc, &schemas["TasksConfig"]["properties"]["startGame"]);
    assert!(start["properties"].get("password").is_none());

    // The settings GET is declared as AppSettings; a stored configuration may
    // hold any object, so the configuration GET only points at TasksConfig.
    let ok = |path: &str| doc["paths"][path]["get"]["responses"]["200"].clone();
    assert_eq!(
        ok("/api/Settings")["content"]["application/json"]["schema"]["$ref"],
        "#/components/schemas/Envelope_AppSettings"
    );
    assert!(
        ok("/api/Configs/{configName}")["description"]
            .as_str()
            .unwrap()
            .contains("#/components/schemas/TasksConfig")
    );

    // After changes, every returned field is still covered (defaults aside).
    api.put(
        "/api/Settings",
        json!({"display": {"theme": "dark", "windowState": {"width": 1920}}}),
    )
    .await
    .data();
    let settings = api.get("/api/Settings").await.data().clone();
    assert_covered(
        &doc,
        &schemas["AppSettings"],
        &settings,
        "AppSettings",
        false,
    );
}

#[tokio::test]
async fn the_status_schema_says_progress_is_text() {
    let api = fast();
    let doc = api.get("/openapi/v1.json").await.json;
    let schemas = &doc["components"]["schemas"];
    let status = &schemas["TaskStatus"];
    assert_eq!(status["properties"]["progress"]["type"], "string");
    let text = status["properties"]["progress"]["description"]
        .as_str()
        .unwrap();
    assert!(
        text.contains("text") && text.contains("completedTasks"),
        "{text}"
    );
    let mut values: Vec<&str> = schemas["RunState"]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    values.sort_unstable();
    let mut known = UI_STATUSES.to_vec();
    known.sort_unstable();
    assert_eq!(values, known, "exactly the values the UI knows");
    for field in [
        "session_id",
        "pid",
        "mode",
        "configs",
        "unit",
        "error",
        "stopping",
        "completedTasks",
        "totalTasks",
    ] {
        assert!(status["properties"][field].is_object(), "{field}");
    }
    for path in [
        "/api/Backend/stop",
        "/api/Backend/screenshot",
        "/api/App/system-info",
        "/api/App/phrases",
    ] {
        assert!(doc["paths"][path].is_object(), "{path} is documented");
    }
}
