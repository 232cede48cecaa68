//! Issue 19: the backend is a child process, supervised through the router:
//! real pids, a killed backend, a failed start, a backend that never answers.
#![cfg(unix)]

use std::path::Path;
use std::time::Duration;

use activity_site_control::api::{self, ApiOptions};
use activity_site_control::{BackendCommand, Control};
use axum::http::StatusCode;
use serde_json::json;

use super::harness::{Api, open, parent_of, wait_gone};

async fn pid(api: &Api) -> u64 {
    api.get("/api/Task/status").await.data()["pid"]
        .as_u64()
        .unwrap()
}

/// An API whose backend is `program` with `args`, answering within `timeout`.
fn with_backend(program: &Path, args: &[&str], timeout: Duration) -> Api {
    let dir = tempfile::tempdir().unwrap();
    let mut options = crate::util::control_options(dir.path().join("state"));
    options.backend = BackendCommand {
        program: program.to_path_buf(),
        args: args.iter().map(|a| a.to_string()).collect(),
    };
    options.answer_timeout = timeout;
    let control = Control::open(options).unwrap();
    let router = api::router(control.clone(), ApiOptions::default());
    Api {
        control,
        router,
        dir,
    }
}

#[tokio::test]
async fn restart_gives_a_new_pid_that_is_a_live_child_of_the_server() {
    let api = open("--inline --no-admin --step-ms=10", ApiOptions::default());
    let me = u64::from(std::process::id());
    let first = pid(&api).await;
    assert!(first > 0);
    assert_ne!(first, me, "the backend is not the server");
    assert_eq!(parent_of(first), Some(me), "a live child of the server");

    let restarted = api.call("POST", "/api/Backend/restart", None).await;
    assert_eq!(restarted.data()["session"], 2);
    let second = pid(&api).await;
    assert_ne!(second, first);
    assert_eq!(parent_of(second), Some(me));
    wait_gone(first).await;
}

#[tokio::test]
async fn a_killed_backend_fails_its_job_and_refuses_tasks_until_a_restart() {
    let api = open("--inline --no-admin --step-ms=5000", ApiOptions::default());
    api.post("/api/Task/run", json!({"configName": "Default"}))
        .await
        .data();
    let child = pid(&api).await;
    // SAFETY: sends a signal to our own child process.
    assert_eq!(unsafe { libc::kill(child as i32, libc::SIGKILL) }, 0);

    let failed = api.wait_for(&["failed"]).await;
    let error = failed["error"].as_str().unwrap();
    assert!(
        error.contains("signal: 9"),
        "names the exit status: {error}"
    );
    assert_eq!(failed["pid"], 0);
    assert_eq!(failed["backend"]["running"], false);
    api.wait_for_log("exited unexpectedly").await;

    for reply in [
        api.post("/api/Task/run", json!({"configName": "Default"}))
            .await,
        api.post("/api/Task/single", json!({"taskName": "0"})).await,
        api.post("/api/Operator/call", json!({"method": "get_window_state"}))
            .await,
    ] {
        reply.assert_error(StatusCode::INTERNAL_SERVER_ERROR);
        assert!(
            reply.message().contains("backend not running"),
            "{}",
            reply.json
        );
        assert!(reply.message().contains("signal: 9"), "{}", reply.json);
    }

    api.call("POST", "/api/Backend/restart", None).await.data();
    assert!(pid(&api).await > 0);
    api.post("/api/Task/single", json!({"taskName": "0"}))
        .await
        .data();
}

#[tokio::test]
async fn a_start_that_fails_is_a_500_with_the_reason() {
    let api = open("--inline --no-admin --step-ms=10", ApiOptions::default());
    let before = pid(&api).await;
    let failed = api
        .post(
            "/api/Backend/restart",
            json!({"arguments": "--inline --nope"}),
        )
        .await;
    failed.assert_error(StatusCode::INTERNAL_SERVER_ERROR);
    assert!(
        failed.message().contains("unknown argument `--nope`"),
        "the backend's own words: {}",
        failed.message()
    );
    assert!(
        failed.message().contains("exit status: 2"),
        "{}",
        failed.message()
    );
    assert_eq!(pid(&api).await, before, "the running backend stays");

    let missing = with_backend(
        Path::new("/nonexistent/backend"),
        &[],
        Duration::from_secs(5),
    );
    let failed = missing.call("POST", "/api/Backend/restart", None).await;
    failed.assert_error(StatusCode::INTERNAL_SERVER_ERROR);
    assert!(
        failed.message().contains("/nonexistent/backend"),
        "{}",
        failed.message()
    );
    assert_eq!(pid(&missing).await, 0);
    missing
        .post("/api/Task/run", json!({}))
        .await
        .assert_error(StatusCode::INTERNAL_SERVER_ERROR);
}

#[tokio::test]
async fn a_backend_that_never_answers_is_a_500_within_the_timeout() {
    // It answers the readiness probe, then reads commands and says nothing.
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("mute.sh");
    std::fs::write(
        &script,
        "read -r line; echo ready; while read -r line; do :; done\n",
    )
    .unwrap();
    let api = with_backend(
        Path::new("/bin/sh"),
        &[script.to_str().unwrap()],
        Duration::from_millis(300),
    );
    let reply = api.get("/api/Task/status").await;
    reply.assert_error(StatusCode::INTERNAL_SERVER_ERROR);
    assert!(
        reply.message().contains("did not answer `task status`"),
        "{}",
        reply.json
    );
    api.wait_for_log("did not answer").await;
    // The server still serves; the process still runs.
    api.get("/api/Backend/logs").await.data();
    let reply = api
        .post("/api/Operator/call", json!({"method": "get_window_state"}))
        .await;
    reply.assert_error(StatusCode::INTERNAL_SERVER_ERROR);
}
