//! The log stream (SSE) with a real HTTP client on 127.0.0.1:0.

use std::time::Duration;

use activity_site_control::api::ApiOptions;
use serde_json::json;

use super::harness::{Frame, SseReader, open, serve};

fn options() -> ApiOptions {
    ApiOptions {
        sse_keep_alive: Duration::from_millis(200),
        ..ApiOptions::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_stream_delivers_every_line_of_a_run_in_order_and_resumes() {
    let api = open("--step-ms=10", options());
    let base = serve(api.router.clone()).await;
    let client = reqwest::Client::new();
    // The backend process starts with the first command; its start lines
    // come before the stream.
    api.get("/api/Task/status").await.data();

    let response = client
        .get(format!("{base}/api/backend/logs/stream"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let content_type = response.headers()["content-type"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(
        content_type.starts_with("text/event-stream"),
        "{content_type}"
    );
    let mut reader = SseReader::new(response);
    // Headers and a first comment arrive before any log line.
    assert_eq!(reader.next().await, Frame::Comment("connected".to_string()));

    let run = client
        .post(format!("{base}/api/Task/run"))
        .json(&json!({"configName": "Default"}))
        .send()
        .await
        .unwrap();
    assert_eq!(run.status(), 200);

    let mut received = Vec::new();
    loop {
        let (id, data) = reader.next_event().await;
        assert_eq!(data.len(), 1, "one line per event: {data:?}");
        let id: u64 = id.expect("every event has an id").parse().unwrap();
        let line = data[0].clone();
        // The job's last line: the `[Done]` after `Job 1 completed`.
        let done = line.ends_with("| DEBUG | [Done]");
        received.push((id, line));
        if done {
            break;
        }
    }
    assert!(
        received.windows(2).all(|w| w[1].0 == w[0].0 + 1),
        "ids increase by one: {received:?}"
    );
    // As the real program: `[Start]` on a DEBUG line of its own first.
    assert!(
        received[0].1.ends_with("| DEBUG | [Start]"),
        "{:?}",
        received[0]
    );
    assert!(received[1].1.contains("Job 1 started"), "{:?}", received[1]);
    // The stream and GET /api/Backend/logs agree line for line.
    let recent: Vec<String> = client
        .get(format!("{base}/api/Backend/logs?count={}", received.len()))
        .send()
        .await
        .unwrap()
        .json::<serde_json::Value>()
        .await
        .unwrap()["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap().to_string())
        .collect();
    let streamed: Vec<String> = received.iter().map(|(_, l)| l.clone()).collect();
    assert_eq!(recent, streamed);

    // Idle: keep-alive comments.
    assert_eq!(
        reader.next().await,
        Frame::Comment("keep-alive".to_string())
    );
    drop(reader);

    // Reconnecting with Last-Event-ID replays what came after it.
    let middle = received[received.len() / 2].0;
    let response = client
        .get(format!("{base}/api/Backend/logs/stream"))
        .header("Last-Event-ID", middle.to_string())
        .send()
        .await
        .unwrap();
    let mut reader = SseReader::new(response);
    for (expected_id, expected_line) in received.iter().filter(|(id, _)| *id > middle) {
        let (id, data) = reader.next_event().await;
        assert_eq!(id.as_deref(), Some(expected_id.to_string().as_str()));
        assert_eq!(&data[0], expected_line);
    }
}

/// Issue 19: a web UI parses `HH:MM:SS | LEVEL | message` from each event;
/// a traceback sent as one event of several `data:` lines showed as `INFO`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_multi_line_entry_becomes_one_event_per_line() {
    let api = open("--step-ms=10 --fail-task=0", options());
    let base = serve(api.router.clone()).await;
    let client = reqwest::Client::new();
    api.get("/api/Task/status").await.data();
    let response = client
        .get(format!("{base}/api/Backend/logs/stream"))
        .send()
        .await
        .unwrap();
    let mut reader = SseReader::new(response);
    assert_eq!(reader.next().await, Frame::Comment("connected".to_string()));
    api.control.log().info("first\r\nsecond\rthird");
    let mut ids = Vec::new();
    for expected in ["first", "second", "third"] {
        let (id, data) = reader.next_event().await;
        assert_eq!(data.len(), 1, "one line per event: {data:?}");
        assert!(
            data[0].ends_with(&format!("| INFO  | {expected}")),
            "{data:?}"
        );
        ids.push(id.unwrap().parse::<u64>().unwrap());
    }
    assert!(ids.windows(2).all(|w| w[1] == w[0] + 1), "{ids:?}");

    client
        .post(format!("{base}/api/Task/run"))
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    loop {
        let (_, data) = reader.next_event().await;
        assert_eq!(data.len(), 1, "one line per event: {data:?}");
        if data[0].contains("failed: simulated failure") {
            assert!(data[0].contains("| ERROR |"), "{data:?}");
            let (_, next) = reader.next_event().await;
            assert_eq!(next.len(), 1, "{next:?}");
            assert!(next[0].contains("| ERROR | Traceback"), "{next:?}");
            break;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_stream_needs_the_token_when_one_is_set() {
    let api = open(
        "--step-ms=10",
        ApiOptions {
            access_token: Some("t".to_string()),
            ..options()
        },
    );
    let base = serve(api.router.clone()).await;
    let client = reqwest::Client::new();
    let denied = client
        .get(format!("{base}/api/Backend/logs/stream"))
        .send()
        .await
        .unwrap();
    assert_eq!(denied.status(), 401);
    let allowed = client
        .get(format!("{base}/api/Backend/logs/stream?access_token=t"))
        .send()
        .await
        .unwrap();
    assert_eq!(allowed.status(), 200);
    let mut reader = SseReader::new(allowed);
    assert_eq!(reader.next().await, Frame::Comment("connected".to_string()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_too_far_behind_is_told_what_it_missed() {
    // A ring of 5 lines: resuming from line 1 after 20 lines cannot replay
    // them all, and the server buffers nothing beyond the ring.
    let dir = tempfile::tempdir().unwrap();
    let mut control_options = crate::util::control_options(dir.path().join("state"));
    control_options.log_capacity = 5;
    let control = activity_site_control::Control::open(control_options).unwrap();
    for i in 0..20 {
        control.log().info(&format!("line {i}"));
    }
    let base = serve(activity_site_control::api::router(
        control.clone(),
        options(),
    ))
    .await;
    let response = reqwest::Client::new()
        .get(format!("{base}/api/Backend/logs/stream"))
        .header("Last-Event-ID", "1")
        .send()
        .await
        .unwrap();
    let mut reader = SseReader::new(response);
    let (_, notice) = reader.next_event().await;
    assert!(notice[0].contains("were dropped"), "{notice:?}");
    let newest = control.log().newest_id();
    let (id, data) = reader.next_event().await;
    assert_eq!(id, Some((newest - 4).to_string()));
    assert!(data[0].ends_with("line 15"), "{data:?}");
}
