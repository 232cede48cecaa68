//! Issue 19 through a real `serve` process: the backend child over many
//! restarts, at shutdown, and a second backend program written from the
//! protocol alone, run with `--backend-command`.
#![cfg(unix)]

use serde_json::{Value, json};

use crate::faults::{Served, serve_with};
use crate::harness::{Frame, SseReader};
use crate::harness::{eventually, eventually_blocking, holds, parent_of, wait_gone};
use crate::util::fixture_root;

async fn get(client: &reqwest::Client, url: String) -> Value {
    client.get(url).send().await.unwrap().json().await.unwrap()
}

async fn post(client: &reqwest::Client, url: String, body: Value) -> (u16, Value) {
    let response = client.post(url).json(&body).send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// The children of `parent` (live ones), from `/proc`.
fn children_of(parent: u64) -> Vec<u64> {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u64>().ok())
        .filter(|pid| parent_of(*pid) == Some(parent))
        .collect()
}

fn open_fds(pid: u64) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .unwrap()
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hundred_restarts_leave_one_child_and_no_more_open_files() {
    let root = fixture_root(None);
    let state = root.path().join("state");
    let served = serve_with(root.path(), &state, None, &[]);
    let server = u64::from(served.child.id());
    let client = reqwest::Client::new();
    let status = get(&client, format!("{}/api/Task/status", served.base)).await;
    assert!(status["data"]["pid"].as_u64().unwrap() > 0, "{status}");
    let restart = |args: &'static str| {
        post(
            &client,
            format!("{}/api/Backend/restart", served.base),
            json!({ "arguments": args }),
        )
    };
    // Warm up, then count.
    assert_eq!(restart("--inline --no-admin").await.0, 200);
    let fds = open_fds(server);
    for i in 0..200 {
        // Every tenth start fails: a failed start must not leak either.
        let args = if i % 10 == 9 {
            "--inline --bogus"
        } else {
            "--inline --no-admin"
        };
        let (code, body) = restart(args).await;
        assert_eq!(code, if i % 10 == 9 { 500 } else { 200 }, "{body}");
    }
    let status = get(&client, format!("{}/api/Task/status", served.base)).await;
    let pid = status["data"]["pid"].as_u64().unwrap();
    assert_eq!(children_of(server), [pid], "one child: the current backend");
    let after = open_fds(server);
    assert!(
        after <= fds + 2,
        "open files grew from {fds} to {after} over 200 restarts"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ctrl_c_with_an_open_log_stream_ends_serve_and_its_backend() {
    let root = fixture_root(None);
    let state = root.path().join("state");
    let mut served = serve_with(root.path(), &state, None, &[]);
    let client = reqwest::Client::new();
    let status = get(&client, format!("{}/api/Task/status", served.base)).await;
    let backend = status["data"]["pid"].as_u64().unwrap();
    assert!(backend > 0);
    let stream = client
        .get(format!("{}/api/Backend/logs/stream", served.base))
        .send()
        .await
        .unwrap();
    let mut reader = SseReader::new(stream);
    assert_eq!(reader.next().await, Frame::Comment("connected".to_string()));

    let server = i32::try_from(served.child.id()).unwrap();
    // SAFETY: sends a signal to our own child process.
    assert_eq!(unsafe { libc::kill(server, libc::SIGINT) }, 0);
    // The stream ends with a last event instead of holding shutdown open.
    loop {
        match reader.next().await {
            Frame::Event { data, .. } if data.iter().any(|d| d.contains("shutting down")) => {
                break;
            }
            _ => {}
        }
    }
    let served = &mut served;
    let exit = eventually_blocking("serve to exit", || {
        served
            .child
            .try_wait()
            .unwrap()
            .ok_or_else(|| served.stderr())
    });
    assert!(exit.success(), "{exit}: {}", served.stderr());
    // Not a timing assertion: the old wait was 10 s on open connections.
    assert!(
        !served.stderr().contains("still open"),
        "{}",
        served.stderr()
    );
    wait_gone(backend).await;
}

/// `serve` on the base fixture with `script` (POSIX shell) as its backend
/// program, through `--backend-command`.
fn serve_script(script: &str) -> (tempfile::TempDir, Served) {
    let root = fixture_root(None);
    let path = root.path().join("script-backend.sh");
    std::fs::write(&path, script).unwrap();
    let command = format!("/bin/sh {}", path.display());
    let state = root.path().join("state");
    let served = serve_with(root.path(), &state, None, &["--backend-command", &command]);
    (root, served)
}

/// A backend written from the protocol alone, in POSIX shell: it logs on
/// stderr with `[Start]`/`[Done]`, answers `--json` commands with one
/// envelope line on stdout, and knows nothing of the simulator.
const SCRIPT_BACKEND: &str = r#"
say() { printf '%s | INFO  | %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
status=idle
progress=idle
say "script backend up with: $*"
while IFS= read -r line; do
  case "$line" in
    help) echo "commands: task run, task single, task stop, task status, operator call, exit" ;;
    exit) say "script backend exiting"; exit 0 ;;
    "task run"*) status=running; progress="running ${line#task run }"; say "[Start] script run: ${line#task run }" ;;
    "task single"*) status=running; progress="single ${line#task single }"; say "[Start] script single: ${line#task single }" ;;
    "task stop") status=stopped; progress="stopped"; say "[Done] script stopped" ;;
    "task status --json") printf '{"success":true,"message":"success","data":{"status":"%s","progress":"%s"}}\n' "$status" "$progress" ;;
    "operator list --json") echo '{"success":true,"message":"Operator methods","data":["click"]}' ;;
    "operator call "*) say "script operator: ${line#operator call }"; echo '{"success":true,"message":"success","data":{"from":"script"}}' ;;
    *) echo "unknown command: $line" ;;
  esac
done
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_drives_a_second_backend_program_through_backend_command() {
    let (_root, served) = serve_script(SCRIPT_BACKEND);
    let base = &served.base;
    let client = reqwest::Client::new();

    let status = get(&client, format!("{base}/api/Task/status")).await;
    assert_eq!(status["data"]["status"], "idle", "{status}");
    assert!(status["data"]["pid"].as_u64().unwrap() > 0);
    let stream = client
        .get(format!("{base}/api/Backend/logs/stream"))
        .header("Last-Event-ID", "0")
        .send()
        .await
        .unwrap();
    let mut reader = SseReader::new(stream);

    let (code, run) = post(
        &client,
        format!("{base}/api/Task/run"),
        json!({"configName": "Default"}),
    )
    .await;
    assert_eq!(code, 200, "{run}");
    assert_eq!(run["data"]["status"], "running");
    assert_eq!(run["data"]["progress"], "running Default");
    let (code, busy) = post(
        &client,
        format!("{base}/api/Task/single"),
        json!({"taskName": "0"}),
    )
    .await;
    assert_eq!(code, 409, "{busy}");
    let (code, stopped) = post(&client, format!("{base}/api/Task/stop"), json!({})).await;
    assert_eq!(code, 200, "{stopped}");
    assert_eq!(stopped["data"]["status"], "stopped");
    let (code, single) = post(
        &client,
        format!("{base}/api/Task/single"),
        json!({"taskName": "ReceiveRewardsTask"}),
    )
    .await;
    assert_eq!(code, 200, "{single}");
    assert_eq!(
        single["data"]["progress"],
        "single ReceiveRewardsTask --config Default"
    );
    let (code, call) = post(
        &client,
        format!("{base}/api/Operator/call"),
        json!({"method": "click", "params": {"x": 3, "y": 4}}),
    )
    .await;
    assert_eq!(code, 200, "{call}");
    assert_eq!(call["data"]["from"], "script");

    let mut seen = Vec::new();
    for wanted in [
        "script backend up",
        "[Start] script run: Default",
        "[Done] script stopped",
        "[Start] script single: ReceiveRewardsTask",
        r#"script operator: click '{"x":3,"y":4}' --json"#,
    ] {
        loop {
            let (_, data) = reader.next_event().await;
            assert_eq!(data.len(), 1, "{data:?}");
            seen.push(data[0].clone());
            if data[0].contains(wanted) {
                break;
            }
        }
    }
    assert!(
        seen.iter().all(|l| !l.contains("\"success\"")),
        "answers are not log lines: {seen:?}"
    );
}

/// Kibibytes of `VmHWM` (peak resident memory) of process `pid`.
fn peak_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM")
}

/// A backend that, asked for an operator call, first prints 64 MiB on
/// stdout without a newline, then one ordinary line, then its answer.
const FLOODING_BACKEND: &str = r#"
while IFS= read -r line; do
  case "$line" in
    help) echo "commands: operator call, exit" ;;
    exit) exit 0 ;;
    "task status --json") echo '{"success":true,"message":"success","data":{"status":"idle","progress":"idle"}}' ;;
    "operator list --json") echo '{"success":true,"message":"Operator methods","data":["click"]}' ;;
    "operator call "*)
      head -c 67108864 /dev/zero | tr '\0' x
      printf '\nafter the flood\n'
      echo '{"success":true,"message":"success","data":{"from":"flood"}}' ;;
  esac
done
"#;

/// A line of 64 MiB without a newline is read up to the bound, the rest
/// discarded with a warning in the log, and the lines after it (the
/// answer included) read as usual; memory does not grow with the line.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backend_line_without_end_is_cut_and_reading_goes_on() {
    let (_root, served) = serve_script(FLOODING_BACKEND);
    let base = &served.base;
    let client = reqwest::Client::new();
    let status = get(&client, format!("{base}/api/Task/status")).await;
    assert_eq!(status["data"]["status"], "idle", "{status}");
    let before = peak_kib(served.child.id());

    let (code, call) = post(
        &client,
        format!("{base}/api/Operator/call"),
        json!({"method": "click", "params": {"x": 1, "y": 2}}),
    )
    .await;
    assert_eq!(code, 200, "{call}");
    assert_eq!(call["data"]["from"], "flood");

    let marker = format!(
        "The backend printed a line of {} bytes on stdout; the {} bytes past the first {} were discarded",
        64 << 20,
        (64 << 20) - (1 << 20),
        1 << 20
    );
    // The backend's stdout reaches the log on its own channel: wait for the
    // line printed after the flood.
    let (client, url) = (&client, &format!("{base}/api/Backend/logs?count=50"));
    let lines: Vec<String> = eventually("the line after the flood", || async move {
        let logs = get(client, url.clone()).await;
        let lines: Vec<String> = logs["data"]
            .as_array()
            .expect("log lines")
            .iter()
            .filter_map(|l| Some(l.as_str()?.to_owned()))
            .collect();
        let done = lines.iter().any(|l| l.ends_with("after the flood"));
        holds(done, || format!("{lines:?}")).map(|()| lines)
    })
    .await;
    let at = lines
        .iter()
        .position(|l| l.ends_with(&marker))
        .unwrap_or_else(|| panic!("no marker in {lines:?}"));
    assert!(lines[at - 1].contains("xxxx"), "the cut line comes first");
    assert!(
        lines[at + 1..]
            .iter()
            .any(|l| l.ends_with("after the flood")),
        "{lines:?}"
    );
    let grown = peak_kib(served.child.id()).saturating_sub(before);
    assert!(grown < 32 * 1024, "peak memory grew by {grown} KiB");
}
