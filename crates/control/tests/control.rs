//! The control API through its router (`tower::ServiceExt::oneshot`) and,
//! for the log stream, a real client on 127.0.0.1:0.

pub(crate) mod harness;
// Issue 19: the backend as a child process (pids, kill, failed start, timeout).
pub(crate) mod process;
// Issue 38: the real backend's recorded answers behind the router, and beside the simulator.
mod real;
mod stream;
// What the service's own web UI reads: status fields, its extra routes, log lines, form schemas.
mod webui;

use std::time::Duration;

use activity_site_control::api::{self, ApiOptions};
use activity_site_control::guard::AccessOptions;
use activity_site_control::{self as control, Control};
use axum::http::StatusCode;
use serde_json::{Value, json};

use harness::{FAST, fast, open};

// Tasks.

#[tokio::test]
async fn status_starts_idle_and_a_run_completes_every_enabled_task() {
    let api = fast();
    let status = api.get("/api/Task/status").await;
    assert_eq!(status.data()["status"], "idle");
    assert!(status.data()["progress"].is_string());

    let started = api
        .post("/api/Task/run", json!({"configName": "Default"}))
        .await;
    assert_eq!(started.data()["status"], "running");
    let done = api.wait_for(&["completed", "failed", "stopped"]).await;
    assert_eq!(done["status"], "completed");
    // Default enables four of the five tasks (cosmicStrife is off).
    assert_eq!(done["totalTasks"], 4);
    assert_eq!(done["completedTasks"], 4);
    assert_eq!(done["progress"], "4/4 completed");
    // The log lines reach the log on their own channel: wait for the last.
    let text = api
        .wait_for_log("[MissionAccomplishTask] started")
        .await
        .join("\n");
    let order = [
        "[StartGameTask] started",
        "[TrailblazePowerTask] started",
        "[ReceiveRewardsTask] started",
        "[MissionAccomplishTask] started",
    ];
    let positions: Vec<usize> = order
        .iter()
        .map(|o| text.find(o).unwrap_or_else(|| panic!("{o} missing")))
        .collect();
    assert!(
        positions.windows(2).all(|w| w[0] < w[1]),
        "tasks run in order"
    );
    assert!(!text.contains("[CosmicStrifeTask]"));
}

#[tokio::test]
async fn run_with_a_supplied_configuration_persisted_or_temporary() {
    let api = fast();
    let config = json!({"receiveRewards": {"enabled": true}, "extra": {"kept": 1}});

    let temp = api
        .post("/api/Task/run", json!({"config": config, "persist": false}))
        .await;
    assert_eq!(temp.data()["totalTasks"], 1);
    api.wait_for(&["completed"]).await;
    assert_eq!(
        api.get("/api/Configs").await.data(),
        &json!(["Default"]),
        "a temporary run saves nothing"
    );

    let saved = api
        .post(
            "/api/Task/run",
            json!({"configName": "Weekly", "config": config, "persist": true}),
        )
        .await;
    assert_eq!(saved.data()["target"], "Weekly");
    api.wait_for(&["completed"]).await;
    assert_eq!(
        api.get("/api/Configs/Weekly").await.data(),
        &config,
        "unknown fields are kept"
    );
}

#[tokio::test]
async fn run_errors_follow_the_contract() {
    let api = fast();
    api.post("/api/Task/run", json!({"configName": "Missing"}))
        .await
        .assert_error(StatusCode::BAD_REQUEST);
    api.post("/api/Task/run", json!({"config": [1], "persist": true}))
        .await
        .assert_error(StatusCode::BAD_REQUEST);
    api.post("/api/Task/run", json!({"configName": 5}))
        .await
        .assert_error(StatusCode::BAD_REQUEST);

    api.post(
        "/api/Backend/restart",
        json!({"arguments": "--step-ms=2000"}),
    )
    .await
    .data();
    api.post("/api/Task/run", json!({})).await.data();
    let busy = api
        .post("/api/Task/run", json!({"configName": "Default"}))
        .await;
    busy.assert_error(StatusCode::CONFLICT);
    assert!(
        busy.message().contains("already running"),
        "{}",
        busy.message()
    );
    api.post("/api/Task/single", json!({"taskName": "0"}))
        .await
        .assert_error(StatusCode::CONFLICT);
    api.post("/api/Task/stop", json!({})).await.data();

    // A backend started with --unavailable answers every command with a backend error.
    api.post(
        "/api/Backend/restart",
        json!({"arguments": "--unavailable"}),
    )
    .await
    .data();
    let down = api
        .post("/api/Task/run", json!({"configName": "Default"}))
        .await;
    down.assert_error(StatusCode::INTERNAL_SERVER_ERROR);
    assert!(
        down.message().contains("backend error"),
        "{}",
        down.message()
    );
    api.post("/api/Task/single", json!({"taskName": "1"}))
        .await
        .assert_error(StatusCode::INTERNAL_SERVER_ERROR);
    api.post(
        "/api/Operator/call",
        json!({"method": "click", "params": {"x": 1, "y": 1}}),
    )
    .await
    .assert_error(StatusCode::INTERNAL_SERVER_ERROR);
}

#[tokio::test]
async fn single_takes_a_class_name_in_any_case_or_an_index() {
    let api = fast();
    let one = api
        .post(
            "/api/Task/single",
            json!({"taskName": "receiverewardstask"}),
        )
        .await;
    assert_eq!(one.data()["job"], "single");
    assert_eq!(one.data()["totalTasks"], 1);
    let done = api.wait_for(&["completed"]).await;
    assert_eq!(done["progress"], "1/1 completed");
    api.wait_for_log("[ReceiveRewardsTask] started").await;

    api.post(
        "/api/Task/single",
        json!({"taskName": "3", "configName": ""}),
    )
    .await
    .data();
    api.wait_for(&["completed"]).await;
    api.wait_for_log("[CosmicStrifeTask] started").await;

    api.post("/api/Task/single", json!({"taskName": "NoSuchTask"}))
        .await
        .assert_error(StatusCode::BAD_REQUEST);
    api.post("/api/Task/single", json!({"taskName": "9"}))
        .await
        .assert_error(StatusCode::BAD_REQUEST);
    api.post(
        "/api/Task/single",
        json!({"taskName": "1", "configName": "Nope"}),
    )
    .await
    .assert_error(StatusCode::BAD_REQUEST);
    api.post("/api/Task/single", json!({"configName": "Default"}))
        .await
        .assert_error(StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn stop_ends_in_stopped_and_frees_the_runner() {
    let api = open("--step-ms=5000", ApiOptions::default());
    let idle_stop = api.post("/api/Task/stop", json!({})).await;
    assert_eq!(
        idle_stop.data()["status"],
        "idle",
        "stopping nothing is harmless"
    );

    api.post("/api/Task/run", json!({"configName": "Default"}))
        .await
        .data();
    let stopping = api.call("POST", "/api/Task/stop", None).await;
    assert_eq!(stopping.data()["status"], "running");
    assert_eq!(stopping.data()["stopping"], true);
    let stopped = api.wait_for(&["stopped"]).await;
    assert!(
        stopped["progress"].as_str().unwrap().starts_with("stopped"),
        "{stopped}"
    );
    // The runner is free again.
    api.post("/api/Task/run", json!({"configName": "Default"}))
        .await
        .data();
    api.post("/api/Task/stop", json!({})).await.data();
}

#[tokio::test]
async fn a_task_named_in_fail_task_fails_the_run() {
    let api = open(
        "--step-ms=10 --fail-task=TrailblazePowerTask",
        ApiOptions::default(),
    );
    api.post("/api/Task/run", json!({"configName": "Default"}))
        .await
        .data();
    let failed = api.wait_for(&["failed", "completed"]).await;
    assert_eq!(failed["status"], "failed");
    assert_eq!(failed["completedTasks"], 1);
    assert!(
        failed["error"]
            .as_str()
            .unwrap()
            .contains("TrailblazePowerTask")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn of_100_simultaneous_runs_exactly_one_starts() {
    let api = open("--step-ms=2000", ApiOptions::default());
    let router = api.router.clone();
    let mut handles = Vec::new();
    for _ in 0..100 {
        let router = router.clone();
        handles.push(tokio::spawn(async move {
            use tower::ServiceExt;
            let request = axum::http::Request::post("/api/Task/run")
                .header("content-type", "application/json")
                .body(axum::body::Body::from(r#"{"configName":"Default"}"#))
                .unwrap();
            router.oneshot(request).await.unwrap().status()
        }));
    }
    let mut ok = 0;
    let mut conflict = 0;
    for handle in handles {
        match handle.await.unwrap() {
            StatusCode::OK => ok += 1,
            StatusCode::CONFLICT => conflict += 1,
            other => panic!("unexpected status {other}"),
        }
    }
    assert_eq!((ok, conflict), (1, 99));
    api.post("/api/Task/stop", json!({})).await.data();
}

// Backend.

#[tokio::test]
async fn restart_takes_arguments_and_stops_the_running_task() {
    let api = open("--step-ms=5000", ApiOptions::default());
    api.post("/api/Task/run", json!({"configName": "Default"}))
        .await
        .data();
    let restarted = api
        .post(
            "/api/Backend/restart",
            json!({"arguments": "--inline --step-ms=10"}),
        )
        .await;
    assert_eq!(restarted.data()["session"], 2);
    assert_eq!(restarted.data()["arguments"], "--inline --step-ms=10");
    assert_eq!(
        api.get("/api/Task/status").await.data()["status"],
        "stopped"
    );

    let default = api.call("POST", "/api/Backend/restart", None).await;
    assert_eq!(default.data()["arguments"], control::DEFAULT_ARGUMENTS);

    let failed = api
        .post(
            "/api/Backend/restart",
            json!({"arguments": "--inline --bogus"}),
        )
        .await;
    failed.assert_error(StatusCode::INTERNAL_SERVER_ERROR);
    assert!(
        failed.message().starts_with("restart failed"),
        "{}",
        failed.message()
    );
    assert!(failed.message().contains("--bogus"));
    assert_eq!(
        api.get("/api/Task/status").await.data()["backend"]["session"],
        3,
        "a failed restart changes nothing"
    );
    api.post("/api/Backend/restart", json!({"arguments": 7}))
        .await
        .assert_error(StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn logs_return_the_most_recent_lines() {
    let api = fast();
    for i in 0..150 {
        api.control.log().info(&format!("line {i}"));
    }
    let default = api.get("/api/Backend/logs").await;
    let lines = default.data().as_array().unwrap();
    assert_eq!(lines.len(), 100);
    assert!(
        lines
            .last()
            .unwrap()
            .as_str()
            .unwrap()
            .ends_with("line 149")
    );
    let three = api.get("/api/Backend/logs?count=3").await;
    assert_eq!(three.data().as_array().unwrap().len(), 3);
    assert_eq!(
        api.get("/api/Backend/logs?count=0").await.data(),
        &json!([])
    );
    for bad in ["-1", "abc", "1.5", ""] {
        api.get(&format!("/api/Backend/logs?count={bad}"))
            .await
            .assert_error(StatusCode::BAD_REQUEST);
    }
}

// Configurations.

#[tokio::test]
async fn configurations_are_created_read_replaced_and_deleted() {
    let api = fast();
    assert_eq!(api.get("/api/Configs").await.data(), &json!(["Default"]));
    let default = api.get("/api/Configs/Default").await;
    let start = default.data()["startGame"].as_object().unwrap();
    for field in control::CREDENTIAL_FIELDS {
        assert!(!start.contains_key(field), "{field} is omitted");
    }

    // Without a body: a complete default configuration.
    api.call("POST", "/api/Configs/Fresh", None).await.data();
    assert_eq!(api.get("/api/Configs/Fresh").await.data(), default.data());

    // With a body: it becomes the content; credentials are stored but never returned.
    let body =
        json!({"startGame": {"enabled": true, "username": "u", "password": "p"}, "custom": [1, 2]});
    api.post("/api/Configs/Mine", body).await.data();
    let mine = api.get("/api/Configs/Mine").await;
    assert_eq!(
        mine.data(),
        &json!({"startGame": {"enabled": true}, "custom": [1, 2]})
    );
    let file = std::fs::read_to_string(api.control.state_dir().join("configs/Mine.json")).unwrap();
    assert!(file.contains("\"password\": \"p\""));

    // PUT without credentials keeps them; with them replaces them.
    api.put(
        "/api/Configs/Mine",
        json!({"startGame": {"enabled": false}}),
    )
    .await
    .data();
    let stored: Value = serde_json::from_str(
        &std::fs::read_to_string(api.control.state_dir().join("configs/Mine.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(
        stored,
        json!({"startGame": {"enabled": false, "username": "u", "password": "p"}})
    );
    api.put("/api/Configs/Mine", json!({"startGame": {"password": "q"}}))
        .await
        .data();
    let stored =
        std::fs::read_to_string(api.control.state_dir().join("configs/Mine.json")).unwrap();
    assert!(stored.contains("\"q\"") && stored.contains("\"u\""));

    assert_eq!(
        api.get("/api/Configs").await.data(),
        &json!(["Default", "Fresh", "Mine"])
    );
    api.call("DELETE", "/api/Configs/Mine", None).await;
    assert!(!api.control.state_dir().join("configs/Mine.json").exists());
    api.get("/api/Configs/Mine")
        .await
        .assert_error(StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn configuration_errors_follow_the_contract() {
    let api = fast();
    api.get("/api/Configs/Nope")
        .await
        .assert_error(StatusCode::NOT_FOUND);
    api.put("/api/Configs/Nope", json!({}))
        .await
        .assert_error(StatusCode::NOT_FOUND);
    api.call("DELETE", "/api/Configs/Nope", None)
        .await
        .assert_error(StatusCode::NOT_FOUND);
    api.call("POST", "/api/Configs/Default", None)
        .await
        .assert_error(StatusCode::CONFLICT);
    for bad in [
        "a%5Cb", "a%2Fb", "a:b", "a*b", "a%3Fb", "a%22b", "a%3Cb", "a%3Eb", "a%7Cb", "..",
        "%2E%2E", "a%07b", "%20",
    ] {
        let reply = api.call("POST", &format!("/api/Configs/{bad}"), None).await;
        reply.assert_error(StatusCode::BAD_REQUEST);
    }
    let long = "n".repeat(control::MAX_CONFIG_NAME_CHARS + 1);
    api.call("POST", &format!("/api/Configs/{long}"), None)
        .await
        .assert_error(StatusCode::BAD_REQUEST);
    api.post("/api/Configs/Arr", json!([1]))
        .await
        .assert_error(StatusCode::BAD_REQUEST);
    api.put("/api/Configs/Default", json!("text"))
        .await
        .assert_error(StatusCode::BAD_REQUEST);
    // Nothing escaped the configurations directory.
    let names: Vec<_> = std::fs::read_dir(api.control.state_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    // (`state.lock` is the lock every change of a state file holds.)
    let ours = ["configs", "settings.json", "extensions", "state.lock"];
    assert!(
        names.iter().all(|n| ours.iter().any(|o| n == o)),
        "{names:?}"
    );
    assert_eq!(names.len(), 4, "{names:?}");
}

// Settings.

#[tokio::test]
async fn settings_have_five_sections_and_update_partially() {
    let api = fast();
    let settings = api.get("/api/Settings").await.data().clone();
    for section in ["general", "display", "update", "advanced", "notification"] {
        assert!(settings[section].is_object(), "{section}");
    }
    assert!(settings["general"]["gamePath"].is_string());
    assert_eq!(
        settings["advanced"]["backend"]["remote"],
        json!({"enabled": false, "url": "", "accessToken": ""})
    );

    let reply = api
        .put(
            "/api/Settings",
            json!({
                "general": {"gamePath": "D:/Games/StarRail.exe"},
                "advanced": {"backend.remote.enabled": true, "backend": {"remote": {"url": "http://10.0.0.2:5000", "accessToken": "t"}}},
                "unknownSection": {"x": 1}
            }),
        )
        .await;
    assert_eq!(
        reply.data(),
        &json!([
            "general.gamePath",
            "advanced.backend.remote.enabled",
            "advanced.backend.remote.url",
            "advanced.backend.remote.accessToken"
        ])
    );
    assert_eq!(reply.json["ignored"], json!(["unknownSection.x"]));
    let after = api.get("/api/Settings").await.data().clone();
    assert_eq!(after["general"]["gamePath"], "D:/Games/StarRail.exe");
    assert_eq!(
        after["advanced"]["backend"]["remote"],
        json!({"enabled": true, "url": "http://10.0.0.2:5000", "accessToken": "t"})
    );
    assert_eq!(
        after["display"], settings["display"],
        "other settings are unchanged"
    );
}

#[tokio::test]
async fn settings_errors_reject_the_whole_update() {
    let api = fast();
    let before = api.get("/api/Settings").await.data().clone();
    let wrong = api
        .put(
            "/api/Settings",
            json!({"general": {"gamePath": "x", "cloudGame": "yes"}}),
        )
        .await;
    wrong.assert_error(StatusCode::BAD_REQUEST);
    assert!(
        wrong.message().contains("general.cloudGame"),
        "{}",
        wrong.message()
    );
    assert_eq!(api.get("/api/Settings").await.data(), &before);
    api.put("/api/Settings", json!({"nothing": {"known": 1}}))
        .await
        .assert_error(StatusCode::BAD_REQUEST);
    api.put("/api/Settings", json!({}))
        .await
        .assert_error(StatusCode::BAD_REQUEST);
    api.put("/api/Settings", json!({"general": {}}))
        .await
        .assert_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        api.get("/api/Settings").await.data(),
        &before,
        "an empty section wipes nothing"
    );
    api.put("/api/Settings", json!([1]))
        .await
        .assert_error(StatusCode::BAD_REQUEST);
    api.put(
        "/api/Settings",
        json!({"advanced": {"backend.remote.url": "not a url"}}),
    )
    .await
    .assert_error(StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn configurations_and_settings_survive_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let open = || {
        let control = Control::open(crate::util::control_options(&state)).unwrap();
        let router = api::router(control.clone(), ApiOptions::default());
        harness::Api {
            control,
            router,
            dir: tempfile::tempdir().unwrap(),
        }
    };
    let first = open();
    first
        .post(
            "/api/Configs/Kept",
            json!({"trailblazePower": {"enabled": true}}),
        )
        .await
        .data();
    first
        .call("DELETE", "/api/Configs/Default", None)
        .await
        .data();
    first
        .put("/api/Settings", json!({"display": {"language": "en-US"}}))
        .await
        .data();
    drop(first);

    let second = open();
    assert_eq!(
        second.get("/api/Configs").await.data(),
        &json!(["Kept"]),
        "Default is created on first start only"
    );
    assert_eq!(
        second.get("/api/Configs/Kept").await.data(),
        &json!({"trailblazePower": {"enabled": true}})
    );
    assert_eq!(
        second.get("/api/Settings").await.data()["display"]["language"],
        "en-US"
    );
}

/// Issue 23: settings from a newer client keep every key this server does
/// not know through a `PUT`, and the `GET` answers the contract's sections.
#[tokio::test]
async fn a_settings_update_keeps_the_keys_the_server_does_not_know() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    std::fs::create_dir_all(&state).unwrap();
    let file = state.join("settings.json");
    std::fs::write(
        &file,
        r#"{"general": {"gamePath": "C:/Game", "futureOption": "keep-me-42"}, "myNotes": {"a": 1}}"#,
    )
    .unwrap();
    let api = harness::open_in(dir, FAST, ApiOptions::default());
    let before = api.get("/api/Settings").await.data().clone();
    assert_eq!(before["general"]["gamePath"], "C:/Game");
    api.put("/api/Settings", json!({"display": {"language": "en-US"}}))
        .await
        .data();
    let stored: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(
        stored,
        json!({
            "general": {"gamePath": "C:/Game", "futureOption": "keep-me-42"},
            "myNotes": {"a": 1},
            "display": {"language": "en-US"},
        })
    );
    let keys: Vec<&String> = stored.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["general", "myNotes", "display"], "the user's order");
    let after = api.get("/api/Settings").await.data().clone();
    assert_eq!(after["display"]["language"], "en-US");
    assert_eq!(after["general"]["gamePath"], "C:/Game");
    assert!(
        after.get("myNotes").is_none(),
        "GET answers the contract's sections"
    );
    assert_eq!(
        after.as_object().unwrap().keys().collect::<Vec<_>>(),
        before.as_object().unwrap().keys().collect::<Vec<_>>()
    );
}

/// Issue 22: a setting of the wrong type is not silently replaced: the
/// user's file is kept aside, the server starts with the defaults, and a
/// `PUT` writes a new file beside it.
#[tokio::test]
async fn a_settings_file_with_a_wrong_type_is_kept_aside() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    std::fs::create_dir_all(&state).unwrap();
    let original = r#"{"general": {"gamePath": 123}, "myNotes": "mine"}"#;
    std::fs::write(state.join("settings.json"), original).unwrap();
    let api = harness::open_in(dir, FAST, ApiOptions::default());
    let aside = state.join("settings.json.corrupt-1");
    assert_eq!(std::fs::read_to_string(&aside).unwrap(), original);
    assert_eq!(
        api.get("/api/Settings").await.data(),
        &control::default_settings()
    );
    api.put("/api/Settings", json!({"display": {"language": "en-US"}}))
        .await
        .data();
    assert_eq!(std::fs::read_to_string(&aside).unwrap(), original);
}

// Extensions.

#[tokio::test]
async fn extensions_are_seeded_listed_and_configured() {
    let api = fast();
    let list = api.get("/api/Extensions").await.data().clone();
    let ids: Vec<_> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(ids, ["daily-checkin", "stamina-watch"]);
    assert_eq!(list[0]["background"], false);
    assert_eq!(list[1]["background"], true);

    let schema = api
        .get("/api/Extensions/daily-checkin/schema")
        .await
        .data()
        .clone();
    assert_eq!(schema["required"], json!(["account", "region"]));

    let config = api.get("/api/Extensions/daily-checkin/config").await;
    let text = config
        .data()
        .as_str()
        .expect("the configuration is a JSON string");
    let value: Value = serde_json::from_str(text).unwrap();
    assert_eq!(value["region"], "cn");

    let new = json!({"account": "me", "region": "global", "retries": 5}).to_string();
    api.put("/api/Extensions/daily-checkin/config", json!(new))
        .await
        .data_or_empty();
    let again: Value = serde_json::from_str(
        api.get("/api/Extensions/daily-checkin/config")
            .await
            .data()
            .as_str()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(again["account"], "me");

    let bad = json!({"region": "mars", "retries": 9}).to_string();
    let reply = api
        .put("/api/Extensions/daily-checkin/config", json!(bad))
        .await;
    reply.assert_error(StatusCode::BAD_REQUEST);
    let violations = reply.json["data"]["violations"].as_array().unwrap();
    assert_eq!(
        violations.len(),
        3,
        "missing account, bad region, retries too high: {violations:?}"
    );
    api.put("/api/Extensions/daily-checkin/config", json!("{not json"))
        .await
        .assert_error(StatusCode::BAD_REQUEST);
    api.put(
        "/api/Extensions/daily-checkin/config",
        json!({"account": "x"}),
    )
    .await
    .assert_error(StatusCode::BAD_REQUEST);
    api.get("/api/Extensions/nope/schema")
        .await
        .assert_error(StatusCode::NOT_FOUND);
    api.get("/api/Extensions/nope/config")
        .await
        .assert_error(StatusCode::NOT_FOUND);
    api.post("/api/Extensions/nope/run", json!({}))
        .await
        .assert_error(StatusCode::NOT_FOUND);
    // Issue 22: the folder of an extension removed since the last reload
    // was recreated holding only `config.json`.
    let folder = api.dir.path().join("state/extensions/daily-checkin");
    std::fs::remove_dir_all(&folder).unwrap();
    api.put("/api/Extensions/daily-checkin/config", json!(new))
        .await
        .assert_error(StatusCode::NOT_FOUND);
    assert!(!folder.exists(), "nothing recreated");
}

#[tokio::test]
async fn a_foreground_extension_occupies_the_runner() {
    let api = open("--step-ms=3000", ApiOptions::default());
    let run = api
        .call(
            "POST",
            "/api/Extensions/daily-checkin/run?config=Default",
            None,
        )
        .await;
    assert_eq!(run.data()["task"]["job"], "extension");
    assert_eq!(run.data()["configName"], "Default");
    api.post("/api/Task/run", json!({"configName": "Default"}))
        .await
        .assert_error(StatusCode::CONFLICT);
    let listed = api.get("/api/Extensions").await;
    assert_eq!(listed.data()[0]["running"], true);
    let stop = api
        .call("POST", "/api/Extensions/daily-checkin/stop", None)
        .await;
    assert_eq!(stop.data()["wasRunning"], true);
    api.wait_for(&["stopped"]).await;
    api.call(
        "POST",
        "/api/Extensions/daily-checkin/run?config=Nope",
        None,
    )
    .await
    .assert_error(StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn a_background_extension_runs_beside_tasks_until_stopped() {
    let api = open("--step-ms=50", ApiOptions::default());
    api.call("POST", "/api/Extensions/stamina-watch/run", None)
        .await
        .data();
    api.call("POST", "/api/Extensions/stamina-watch/run", None)
        .await
        .assert_error(StatusCode::CONFLICT);
    api.post("/api/Task/single", json!({"taskName": "2"}))
        .await
        .data();
    assert_eq!(api.get("/api/Extensions").await.data()[1]["running"], true);
    api.wait_for_log("[stamina-watch] Reading trailblaze power")
        .await;
    let stop = api
        .call("POST", "/api/Extensions/stamina-watch/stop", None)
        .await;
    assert_eq!(stop.data()["wasRunning"], true);
    let again = api
        .call("POST", "/api/Extensions/stamina-watch/stop", None)
        .await;
    assert_eq!(again.data()["wasRunning"], false);
    // Stopping keeps what the extension logged.
    assert!(
        api.log_lines()
            .await
            .iter()
            .any(|l| l.contains("[stamina-watch] Reading trailblaze power"))
    );
}

#[tokio::test]
async fn reload_reflects_added_changed_and_removed_extensions() {
    let api = fast();
    let dir = api.control.state_dir().join("extensions");
    std::fs::create_dir_all(dir.join("new-one")).unwrap();
    std::fs::write(
        dir.join("new-one/extension.json"),
        json!({"name": "New", "configSchema": {"type": "object"}}).to_string(),
    )
    .unwrap();
    std::fs::create_dir_all(dir.join("broken")).unwrap();
    std::fs::write(dir.join("broken/extension.json"), "{").unwrap();
    let manifest = dir.join("daily-checkin/extension.json");
    let text = std::fs::read_to_string(&manifest)
        .unwrap()
        .replace("1.2.0", "1.3.0");
    std::fs::write(&manifest, text).unwrap();
    std::fs::remove_dir_all(dir.join("stamina-watch")).unwrap();

    let report = api.call("POST", "/api/Extensions/reload", None).await;
    let report = report.data();
    assert_eq!(report["added"], json!(["new-one"]));
    assert_eq!(report["changed"], json!(["daily-checkin"]));
    assert_eq!(report["removed"], json!(["stamina-watch"]));
    assert_eq!(report["errors"][0]["id"], "broken");
    let ids: Vec<_> = api
        .get("/api/Extensions")
        .await
        .data()
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].clone())
        .collect();
    assert_eq!(ids, [json!("daily-checkin"), json!("new-one")]);
}

// Operator.

#[tokio::test]
async fn operator_methods_are_listed_explained_and_called() {
    let api = fast();
    let list = api.get("/api/Operator/list").await.data().clone();
    let names: Vec<_> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    for name in [
        "click",
        "press_key",
        "drag",
        "scroll",
        "ocr",
        "find_template",
        "screenshot",
        "get_window_state",
    ] {
        assert!(names.contains(&name), "{name}");
    }
    let help = api.get("/api/Operator/help/click").await;
    assert_eq!(help.data()["parameters"]["required"], json!(["x", "y"]));
    assert!(help.data()["description"].as_str().unwrap().len() > 10);
    api.get("/api/Operator/help/launch_program")
        .await
        .assert_error(StatusCode::NOT_FOUND);

    let click = api
        .post(
            "/api/Operator/call",
            json!({"method": "click", "params": {"x": 100, "y": 200}}),
        )
        .await;
    assert_eq!(click.data()["clicked"], json!({"x": 100, "y": 200}));
    let ocr = api
        .post("/api/Operator/call", json!({"method": "ocr"}))
        .await;
    assert!(ocr.data()["boxes"][0]["text"].is_string());
    let shot = api
        .post(
            "/api/Operator/call",
            json!({"method": "screenshot", "params": {}}),
        )
        .await;
    assert_eq!(shot.data()["width"], 1280);
    let window = api
        .post("/api/Operator/call", json!({"method": "get_window_state"}))
        .await;
    assert_eq!(window.data()["cursor"], json!({"x": 100, "y": 200}));
    // Issue 67: the log line arrives after the call's answer; read once, it
    // failed a suite on a busy machine.
    api.wait_for_log("[operator] click (100, 200)").await;

    api.post("/api/Operator/call", json!({"method": ""}))
        .await
        .assert_error(StatusCode::BAD_REQUEST);
    api.post("/api/Operator/call", json!({"params": {}}))
        .await
        .assert_error(StatusCode::BAD_REQUEST);
    api.post("/api/Operator/call", json!({"method": "format_disk"}))
        .await
        .assert_error(StatusCode::NOT_FOUND);
    let bad = api
        .post(
            "/api/Operator/call",
            json!({"method": "click", "params": {"x": 5000}}),
        )
        .await;
    bad.assert_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        bad.json["data"]["violations"].as_array().unwrap().len(),
        2,
        "{}",
        bad.json
    );
    api.post(
        "/api/Operator/call",
        json!({"method": "click", "params": [1]}),
    )
    .await
    .assert_error(StatusCode::BAD_REQUEST);
}

/// Issue 18: each method's parameter schema is derived from the type its
/// call reads. The published schemas are pinned, the call applies the
/// defaults they state, and a value is accepted up to the bound they state
/// (`2.0` counting as the integer 2, as in JSON Schema) and refused past it.
#[tokio::test]
async fn operator_calls_follow_the_published_schemas() {
    let api = fast();
    let mut schemas = serde_json::Map::new();
    for method in api
        .get("/api/Operator/list")
        .await
        .data()
        .as_array()
        .unwrap()
    {
        let name = method["name"].as_str().unwrap();
        let help = api.get(&format!("/api/Operator/help/{name}")).await;
        schemas.insert(name.to_string(), help.data()["parameters"].clone());
    }
    insta::assert_snapshot!(
        "operator_parameter_schemas",
        serde_json::to_string_pretty(&schemas).unwrap()
    );

    let click = &schemas["click"]["properties"];
    let called = api
        .post(
            "/api/Operator/call",
            json!({"method": "click", "params": {"x": 1279, "y": 719.0}}),
        )
        .await;
    assert_eq!(called.data()["clicked"], json!({"x": 1279, "y": 719}));
    assert_eq!(called.data()["button"], click["button"]["default"]);
    assert_eq!(called.data()["clicks"], click["clicks"]["default"]);
    let pressed = api
        .post(
            "/api/Operator/call",
            json!({"method": "press_key", "params": {"key": "esc"}}),
        )
        .await;
    assert_eq!(
        pressed.data()["durationMs"],
        schemas["press_key"]["properties"]["durationMs"]["default"]
    );

    for (params, past) in [
        (json!({"x": 1280, "y": 0}), "/x"),
        (json!({"x": 0, "y": 0, "clicks": 4}), "/clicks"),
        (json!({"x": 0, "y": 0.5}), "/y"),
        (json!({"x": 0, "y": 0, "button": "thumb"}), "/button"),
    ] {
        let refused = api
            .post(
                "/api/Operator/call",
                json!({"method": "click", "params": params}),
            )
            .await;
        refused.assert_error(StatusCode::BAD_REQUEST);
        let violations = refused.json["data"]["violations"].to_string();
        assert!(violations.contains(past), "{params}: {violations}");
    }
}

#[tokio::test]
async fn the_screenshot_is_a_1280x720_png() {
    let api = fast();
    let reply = api.get("/api/Operator/screenshot").await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.headers["content-type"], "image/png");
    let decoder = png::Decoder::new(std::io::Cursor::new(reply.bytes.clone()));
    let mut reader = decoder.read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut pixels).unwrap();
    assert_eq!((info.width, info.height), (1280, 720));
    // The image follows the simulated state: a running task changes it.
    api.post(
        "/api/Backend/restart",
        json!({"arguments": "--step-ms=5000"}),
    )
    .await
    .data();
    api.post("/api/Task/run", json!({})).await.data();
    let running = api.get("/api/Operator/screenshot").await;
    assert_ne!(running.bytes, reply.bytes);
    api.post("/api/Task/stop", json!({})).await.data();
}

// Authentication and hosts.

fn with_token() -> harness::Api {
    open(
        FAST,
        ApiOptions {
            access_token: Some("s3cret".to_string()),
            ..ApiOptions::default()
        },
    )
}

async fn status_with(api: &harness::Api, uri: &str, header: Option<&str>) -> StatusCode {
    let mut builder = axum::http::Request::get(uri);
    if let Some(token) = header {
        builder = builder.header("X-Access-Token", token);
    }
    api.send(builder.body(axum::body::Body::empty()).unwrap())
        .await
        .status
}

#[tokio::test]
async fn auth_endpoint_answers_the_three_cases() {
    let open_api = fast();
    let reply = open_api
        .post("/api/Auth", json!({"token": "anything"}))
        .await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(
        reply.json,
        json!({"success": true, "message": "No access token configured"})
    );

    let api = with_token();
    let right = api.post("/api/Auth", json!({"token": "s3cret"})).await;
    assert_eq!(right.status, StatusCode::OK);
    assert_eq!(
        right.json,
        json!({"success": true, "message": "authorized"})
    );
    let wrong = api.post("/api/Auth", json!({"token": "nope"})).await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        wrong.json,
        json!({"success": false, "message": "unauthorized"})
    );
    api.post("/api/Auth", json!({}))
        .await
        .assert_error(StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn the_token_is_checked_on_every_other_route() {
    let none = fast();
    assert_eq!(
        status_with(&none, "/api/Task/status", None).await,
        StatusCode::OK
    );
    assert_eq!(
        status_with(&none, "/api/Task/status", Some("whatever")).await,
        StatusCode::OK
    );

    let api = with_token();
    let s = "/api/Task/status";
    assert_eq!(status_with(&api, s, Some("s3cret")).await, StatusCode::OK);
    assert_eq!(
        status_with(&api, s, Some("wrong")).await,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        status_with(&api, s, Some("")).await,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(status_with(&api, s, None).await, StatusCode::UNAUTHORIZED);
    assert_eq!(
        status_with(&api, "/api/Task/status?access_token=s3cret", None).await,
        StatusCode::OK
    );
    assert_eq!(
        status_with(&api, "/api/Task/status?access_token=nope", None).await,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        status_with(&api, "/api/Task/status?access_token=s3cret", Some("wrong")).await,
        StatusCode::UNAUTHORIZED,
        "the header wins"
    );
    assert_eq!(
        status_with(&api, "/api/Task/status?access_token=wrong", Some("s3cret")).await,
        StatusCode::OK
    );
    let denied = api.get("/api/Operator/screenshot").await;
    denied.assert_error(StatusCode::UNAUTHORIZED);
    // The message the clients compare, and where the token goes (issue 48).
    assert_eq!(denied.json["message"], "unauthorized");
    let help = denied.json["data"]["help"].as_str().unwrap();
    assert!(
        help.contains("`X-Access-Token` header") && help.contains("`access_token` query"),
        "{help}"
    );
    // Unknown routes are protected too; the OpenAPI document is public.
    assert_eq!(
        status_with(&api, "/api/Nope", None).await,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        status_with(&api, "/openapi/v1.json", None).await,
        StatusCode::OK
    );
    // An empty token disables authentication, like an absent one.
    let empty = open(
        FAST,
        ApiOptions {
            access_token: Some(String::new()),
            ..ApiOptions::default()
        },
    );
    assert_eq!(status_with(&empty, s, None).await, StatusCode::OK);
}

#[tokio::test]
async fn allowed_hosts_are_enforced() {
    let api = open(
        FAST,
        ApiOptions {
            access: AccessOptions {
                allowed_hosts: "localhost;*.example.com".to_string(),
                ..AccessOptions::default()
            },
            ..ApiOptions::default()
        },
    );
    let with_host = |host: &'static str| {
        axum::http::Request::get("/api/Task/status")
            .header("host", host)
            .body(axum::body::Body::empty())
            .unwrap()
    };
    assert_eq!(
        api.send(with_host("localhost:5000")).await.status,
        StatusCode::OK
    );
    assert_eq!(
        api.send(with_host("api.example.com")).await.status,
        StatusCode::OK
    );
    api.send(with_host("evil.test"))
        .await
        .assert_error(StatusCode::FORBIDDEN);
    api.send(with_host("example.com"))
        .await
        .assert_error(StatusCode::FORBIDDEN);
    // Issue 22: an HTTP/1.0 request without any Host was served, even a PUT.
    let no_host = |method: &str| {
        axum::http::Request::builder()
            .method(method)
            .uri("/api/Settings")
            .version(axum::http::Version::HTTP_10)
            .header("content-type", "application/json")
            .body(axum::body::Body::from(
                r#"{"display": {"language": "en-US"}}"#,
            ))
            .unwrap()
    };
    let refused = api.send(no_host("PUT")).await;
    refused.assert_error(StatusCode::FORBIDDEN);
    assert!(refused.message().contains("no Host"), "{}", refused.json);
    api.send(no_host("GET"))
        .await
        .assert_error(StatusCode::FORBIDDEN);
}

#[test]
fn the_service_configuration_file_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("appsettings.json");
    std::fs::write(&path, r#"{"Logging": {"LogLevel": {"Default": "Information"}}, "AllowedHosts": "*", "AccessToken": "abc"}"#).unwrap();
    let config = control::ServiceConfig::load(&path).unwrap();
    assert_eq!(config.access_token.as_deref(), Some("abc"));
    assert_eq!(config.allowed_hosts, "*");
    assert!(config.logging.is_object());
    let options = ApiOptions::from_config(&config, None);
    assert_eq!(options.access_token.as_deref(), Some("abc"));
    let flag = ApiOptions::from_config(&config, Some("flag".to_string()));
    assert_eq!(
        flag.access_token.as_deref(),
        Some("flag"),
        "--access-token wins"
    );
    std::fs::write(&path, r#"{"AccessToken": 5}"#).unwrap();
    let error = control::ServiceConfig::load(&path).unwrap_err();
    assert!(format!("{error:#}").contains("AccessToken"));
}

// Routing and envelopes.

#[tokio::test]
async fn literal_segments_match_in_any_case() {
    let api = fast();
    assert_eq!(api.get("/api/task/STATUS").await.data()["status"], "idle");
    assert_eq!(api.get("/API/configs").await.data(), &json!(["Default"]));
    assert_eq!(api.get("/api/CONFIGS/Default").await.status, StatusCode::OK);
    // Parameters are passed as sent; a configuration name is then one name
    // in any letter case (issue 37), as on Windows, where the service runs.
    assert_eq!(api.get("/api/configs/default").await.status, StatusCode::OK);
    api.get("/api/configs/Nope")
        .await
        .assert_error(StatusCode::NOT_FOUND);
    let auth = api.post("/api/auth", json!({"token": "x"})).await;
    assert_eq!(auth.status, StatusCode::OK);
    assert_eq!(
        api.get("/api/operator/HELP/click").await.status,
        StatusCode::OK
    );
    assert_eq!(
        api.get("/Api/extensions/daily-checkin/SCHEMA").await.status,
        StatusCode::OK
    );
    assert_eq!(
        api::normalize_path("/api/backend/logs/stream").as_deref(),
        Some("/api/Backend/logs/stream")
    );
    assert_eq!(
        api::normalize_path("/API/configs/MyConf").as_deref(),
        Some("/api/Configs/MyConf")
    );
    assert_eq!(
        api::normalize_path("/api/extensions/RELOAD").as_deref(),
        Some("/api/Extensions/reload")
    );
    assert_eq!(api::normalize_path("/api/nothing"), None);
    let token = with_token();
    let open_auth = token.post("/api/AUTH", json!({"token": "s3cret"})).await;
    assert_eq!(
        open_auth.status,
        StatusCode::OK,
        "POST /api/auth needs no token in any case"
    );
}

#[tokio::test]
async fn every_error_is_an_envelope() {
    let api = fast();
    // Malformed JSON, wrong types, a missing body.
    api.raw("POST", "/api/Task/single", "{\"taskName\":")
        .await
        .assert_error(StatusCode::BAD_REQUEST);
    api.raw("POST", "/api/Task/single", "not json")
        .await
        .assert_error(StatusCode::BAD_REQUEST);
    api.raw("POST", "/api/Task/single", r#"{"taskName": 3}"#)
        .await
        .assert_error(StatusCode::BAD_REQUEST);
    api.raw("POST", "/api/Task/single", "")
        .await
        .assert_error(StatusCode::BAD_REQUEST);
    api.raw("PUT", "/api/Settings", "{")
        .await
        .assert_error(StatusCode::BAD_REQUEST);
    api.raw("POST", "/api/Task/run", "[null, null]")
        .await
        .assert_error(StatusCode::BAD_REQUEST);
    api.raw("POST", "/api/Operator/call", r#"["click"]"#)
        .await
        .assert_error(StatusCode::BAD_REQUEST);
    // Unknown routes.
    api.get("/api/Nope")
        .await
        .assert_error(StatusCode::NOT_FOUND);
    api.get("/api/Task/status/extra")
        .await
        .assert_error(StatusCode::NOT_FOUND);
    api.get("/api").await.assert_error(StatusCode::NOT_FOUND);
    // Wrong method, with Allow.
    let wrong = api.call("DELETE", "/api/Task/status", None).await;
    wrong.assert_error(StatusCode::METHOD_NOT_ALLOWED);
    let allow = wrong.headers["allow"].to_str().unwrap();
    assert!(allow.contains("GET"), "{allow}");
    let wrong = api.get("/api/Task/run").await;
    wrong.assert_error(StatusCode::METHOD_NOT_ALLOWED);
    assert!(wrong.headers["allow"].to_str().unwrap().contains("POST"));
    // Oversized body.
    let big = format!("{{\"pad\": \"{}\"}}", "x".repeat(2 * 1024 * 1024));
    api.raw("PUT", "/api/Configs/Default", big)
        .await
        .assert_error(StatusCode::PAYLOAD_TOO_LARGE);
}

#[tokio::test]
async fn the_openapi_document_describes_every_route() {
    let api = fast();
    let doc = api.get("/openapi/v1.json").await.json;
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
    let paths = doc["paths"].as_object().unwrap();
    let mut operations = 0;
    for route in api::ROUTES.iter().filter(|r| r.starts_with("/api/")) {
        let item = paths
            .get(*route)
            .unwrap_or_else(|| panic!("{route} is documented"));
        operations += item.as_object().unwrap().len();
    }
    assert_eq!(
        operations, 30,
        "the contract's 26 endpoints and the 4 the web UI adds"
    );
    for (path, item) in paths {
        for (method, operation) in item.as_object().unwrap() {
            if let Some(parameters) = operation.get("parameters") {
                assert!(
                    parameters.is_array(),
                    "{method} {path}: parameters must be an array"
                );
            }
            assert!(operation["responses"]["200"].is_object(), "{method} {path}");
        }
    }
    let schemes = &doc["components"]["securitySchemes"];
    assert_eq!(schemes["accessToken"]["name"], "X-Access-Token");
    assert_eq!(schemes["accessToken"]["in"], "header");
    assert_eq!(doc["paths"]["/api/Auth"]["post"]["security"], json!([{}]));
}

// Atomic writes.

/// Not a test: the child process of `an_interrupted_write_never_truncates`,
/// which runs it (`--ignored --exact`) and kills it. It rewrites the file the
/// parent names in a loop until killed.
#[test]
#[ignore = "a child-process helper, run and killed by an_interrupted_write_never_truncates"]
fn atomic_writer_child() {
    let path = std::env::var("ACTIVITY_SITE_ATOMIC_CHILD")
        .expect("run only by an_interrupted_write_never_truncates, which names the file");
    let path = std::path::PathBuf::from(path);
    let strays = control::state::Strays::new(path.parent().unwrap(), control::LogBuffer::new(16));
    let mut i = 0u64;
    loop {
        let value = json!({"round": i, "pad": "x".repeat(200_000 + (i as usize % 7) * 10_000)});
        control::state::write_json(&strays, &path, &value).unwrap();
        i += 1;
    }
}

#[test]
fn an_interrupted_write_never_truncates() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.json");
    let strays = control::state::Strays::new(dir.path(), control::LogBuffer::new(16));
    control::state::write_json(&strays, &path, &json!({"round": "initial"})).unwrap();
    for attempt in 0..5 {
        let mut child = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "control::atomic_writer_child",
                "--exact",
                "--ignored",
                "--nocapture",
                "--test-threads=1",
            ])
            .env("ACTIVITY_SITE_ATOMIC_CHILD", &path)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(150 + attempt * 70));
        child.kill().unwrap();
        child.wait().unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let value: Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("truncated file after kill {attempt}: {e}"));
        assert!(value.get("round").is_some());
    }
    // The child really wrote (a test filter that matched nothing would not).
    let last: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert!(last["round"].is_u64(), "the child never replaced the file");
}

// SECURITY.md, finding 2: leftovers after a crash.

/// The names in `dir` of the tool's temporary files (`.tmp-*.part`).
fn leftovers(dir: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".tmp-") && n.ends_with(".part"))
        .collect()
}

/// Runs the atomic writer of this file (`atomic_writer_child`) on
/// `path` in a child process and SIGKILLs it mid-loop, until a kill leaves
/// a temporary file beside `path` (a write cut between its temporary file
/// and the rename).
fn kill_writers_until_a_leftover(path: &std::path::Path) {
    let dir = path.parent().unwrap();
    for attempt in 0..200u64 {
        let mut child = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "control::atomic_writer_child",
                "--exact",
                "--ignored",
                "--test-threads=1",
            ])
            .env("ACTIVITY_SITE_ATOMIC_CHILD", path)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(120 + attempt % 7 * 13));
        child.kill().unwrap();
        child.wait().unwrap();
        if !leftovers(dir).is_empty() {
            return;
        }
    }
    panic!("200 kills left no temporary file");
}

/// A SIGKILL during a write left `.tmp-*.part` files in the state directory
/// and a restart did not remove them; the start-up sweeps them, and only
/// them.
#[tokio::test]
async fn a_restart_sweeps_the_leftovers_of_a_killed_writer_and_only_those() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    // A first start seeds the state directory.
    drop(activity_site_control::Control::open(crate::util::control_options(&state)).unwrap());
    kill_writers_until_a_leftover(&state.join("settings.json"));
    kill_writers_until_a_leftover(&state.join("extensions/daily-checkin/config.json"));
    // Files that only look alike are the user's.
    let theirs = [
        state.join(".tmp-notes.part.txt"),
        state.join("configs/.tmp-mine.part"),
        state.join("backup.part"),
    ];
    for path in &theirs {
        std::fs::write(path, "mine").unwrap();
    }
    // The killed writer's settings are not settings: start from clean ones.
    std::fs::write(state.join("settings.json"), "{}").unwrap();
    std::fs::write(state.join("extensions/daily-checkin/config.json"), "{}").unwrap();
    let control =
        activity_site_control::Control::open(crate::util::control_options(&state)).unwrap();
    assert_eq!(leftovers(&state), Vec::<String>::new());
    assert_eq!(
        leftovers(&state.join("extensions/daily-checkin")),
        Vec::<String>::new()
    );
    for path in &theirs {
        assert_eq!(std::fs::read_to_string(path).unwrap(), "mine", "{path:?}");
    }
    drop(control);
}

// The core, without HTTP.

#[tokio::test]
async fn the_core_is_usable_without_http() {
    let dir = tempfile::tempdir().unwrap();
    let mut options = crate::util::control_options(dir.path());
    options.backend_arguments = FAST.to_string();
    let control = Control::open(options).unwrap();
    assert_eq!(control.configs_list().await.unwrap(), ["Default"]);
    assert!(matches!(
        control.config_get("nope").await,
        Err(control::Error::NotFound(_))
    ));
    assert!(matches!(
        control.config_create("Default", None).await,
        Err(control::Error::Conflict(_))
    ));
    assert!(matches!(
        control.backend_restart(Some("--x")).await,
        Err(control::Error::Backend(_))
    ));
    control.task_run(Default::default()).await.unwrap();
    assert!(matches!(
        control.task_run(Default::default()).await,
        Err(control::Error::Conflict(_))
    ));
}

#[tokio::test]
async fn the_router_merges_beside_a_static_site() {
    use axum::Router;
    let api = fast();
    // How the server composes: the site as the fallback, its public API
    // routed explicitly (a static segment beats the API's `/api/{*rest}`),
    // the control router merged in.
    let files = |uri: axum::http::Uri| async move { format!("site {}", uri.path()) };
    let site = Router::new()
        .route("/api/v1/{*path}", axum::routing::any(files))
        .fallback(files);
    let app = harness::Api {
        router: site.merge(api.router.clone()),
        control: api.control.clone(),
        dir: tempfile::tempdir().unwrap(),
    };
    assert_eq!(
        app.get("/api/v1/activity/sr.json").await.bytes,
        b"site /api/v1/activity/sr.json",
        "the public activity API stays the site's"
    );
    assert_eq!(app.get("/index.html").await.bytes, b"site /index.html");
    assert_eq!(app.get("/API/BACKEND/LOGS").await.status, StatusCode::OK);
    assert_eq!(
        app.get("/api/extensions/daily-checkin/Schema").await.status,
        StatusCode::OK
    );
    assert_eq!(app.get("/api/task/status").await.data()["status"], "idle");
    app.get("/api/Nope")
        .await
        .assert_error(StatusCode::NOT_FOUND);
    assert_eq!(app.get("/openapi/v1.json").await.status, StatusCode::OK);
}

#[tokio::test]
async fn canonicalize_in_front_of_everything_accepts_any_case() {
    let api = fast();
    let site = axum::Router::new().fallback(|| async { "site" });
    let app = site.merge(api.router.clone());
    // A server that wants mixed-case resources too rewrites before routing.
    let wrapped = tower::ServiceBuilder::new()
        .map_request(api::canonicalize)
        .service(app);
    let app = harness::Api {
        router: axum::Router::new().fallback_service(wrapped),
        control: api.control.clone(),
        dir: tempfile::tempdir().unwrap(),
    };
    assert_eq!(app.get("/api/tAsK/StAtUs").await.data()["status"], "idle");
    assert_eq!(app.get("/aPi/v1/activity/sr.json").await.bytes, b"site");
}
