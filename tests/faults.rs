//! Faults of a real `serve` process: SIGKILL in the middle of a write burst,
//! a disk that refuses writes, corrupt state at start-up. Each test spawns
//! the binary on 127.0.0.1:0 and reads its port from its output.
#![cfg(unix)]

use std::io::{BufRead, BufReader};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

use crate::harness::{eventually, holds};
use crate::util::fixture_root;

/// A running `serve` and where it keeps its state.
pub(crate) struct Served {
    pub child: Child,
    pub base: String,
    stderr: PathBuf,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Served {
    pub fn stderr(&self) -> String {
        std::fs::read_to_string(&self.stderr).unwrap_or_default()
    }

    fn sigkill(&mut self) {
        let pid = i32::try_from(self.child.id()).unwrap();
        // SAFETY: sends a signal to our own child process.
        unsafe { libc::kill(pid, libc::SIGKILL) };
        let _ = self.child.wait();
    }
}

/// Starts `serve --no-watch` on a free loopback port over `root` and
/// `state`; `limit_file_size` caps the size of any file it writes
/// (RLIMIT_FSIZE, which binds root too), making large writes fail.
fn serve(root: &Path, state: &Path, limit_file_size: Option<u64>) -> Served {
    serve_with(root, state, limit_file_size, &[])
}

/// [`serve`] with more arguments.
pub(crate) fn serve_with(
    root: &Path,
    state: &Path,
    limit_file_size: Option<u64>,
    extra: &[&str],
) -> Served {
    let stderr = state.with_extension("stderr.log");
    let mut command = Command::new(env!("CARGO_BIN_EXE_activity-site"));
    command
        .args(["serve", "--no-watch", "--addr", "127.0.0.1:0", "--root"])
        .arg(root)
        .arg("--out")
        .arg(root.join("site"))
        .arg("--state-dir")
        .arg(state)
        .args(extra)
        .env("NO_COLOR", "1")
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(&stderr).unwrap());
    if let Some(limit) = limit_file_size {
        // SAFETY: only async-signal-safe calls between fork and exec.
        unsafe {
            command.pre_exec(move || {
                let cap = libc::rlimit {
                    rlim_cur: limit,
                    rlim_max: limit,
                };
                if libc::setrlimit(libc::RLIMIT_FSIZE, &cap) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                // A write past the cap then fails with EFBIG instead of killing.
                libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
                Ok(())
            });
        }
    }
    let mut child = command.spawn().expect("the binary starts");
    let stdout = child.stdout.take().unwrap();
    let (found, port) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Some(url) = line.split(" at ").nth(1) {
                let _ = found.send(url.trim().trim_end_matches('/').to_string());
            }
        }
    });
    let base = port
        .recv_timeout(Duration::from_secs(120))
        .expect("serve prints its address");
    Served {
        child,
        base,
        stderr,
    }
}

async fn send(
    client: &reqwest::Client,
    method: reqwest::Method,
    url: String,
    body: Option<&Value>,
) -> Result<(u16, Value), reqwest::Error> {
    let mut request = client.request(method, url);
    if let Some(body) = body {
        request = request.json(body);
    }
    let response = request.send().await?;
    let status = response.status().as_u16();
    let json = response.json().await.unwrap_or(Value::Null);
    Ok((status, json))
}

/// Every `configs/*.json` parses; returns them by name.
fn stored_configs(state: &Path) -> std::collections::BTreeMap<String, Value> {
    let mut found = std::collections::BTreeMap::new();
    for entry in std::fs::read_dir(state.join("configs")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if let Some(stem) = name.strip_suffix(".json") {
            let text = std::fs::read_to_string(&path).unwrap();
            let value = serde_json::from_str(&text)
                .unwrap_or_else(|e| panic!("{name} is truncated or corrupt ({e}): {text:?}"));
            found.insert(stem.to_string(), value);
        }
    }
    found
}

/// SIGKILL during a burst of writes: every acknowledged write survives, no
/// file is truncated, and the next start cleans up and serves them.
#[tokio::test]
async fn sigkill_in_a_write_burst_loses_no_acknowledged_write() {
    let root = fixture_root(None);
    let state = root.path().join(".state");
    let mut served = serve(root.path(), &state, None);
    let client = reqwest::Client::new();
    let names = ["Burst0", "Burst1", "Burst2"];
    for name in names {
        let (status, _) = send(
            &client,
            reqwest::Method::POST,
            format!("{}/api/Configs/{name}", served.base),
            None,
        )
        .await
        .unwrap();
        assert_eq!(status, 200);
    }
    let mut writers = Vec::new();
    for name in names {
        let client = client.clone();
        let url = format!("{}/api/Configs/{name}", served.base);
        writers.push(tokio::spawn(async move {
            let mut acknowledged = 0u64;
            for n in 1u64.. {
                let body = json!({"n": n, "pad": "x".repeat(4096)});
                match send(&client, reqwest::Method::PUT, url.clone(), Some(&body)).await {
                    Ok((200, _)) => acknowledged = n,
                    _ => break,
                }
            }
            acknowledged
        }));
    }
    // Let the burst run, then kill the server in the middle of it.
    let (probe, client_ref) = (&format!("{}/api/Configs/Burst0", served.base), &client);
    eventually("30 writes of the burst", || async move {
        let (_, body) = send(client_ref, reqwest::Method::GET, probe.clone(), None)
            .await
            .unwrap();
        holds(body["data"]["n"].as_u64().unwrap_or(0) >= 30, || {
            body.to_string()
        })
    })
    .await;
    served.sigkill();
    let mut acknowledged = Vec::new();
    for writer in writers {
        acknowledged.push(writer.await.unwrap());
    }
    let stored = stored_configs(&state);
    for (name, acked) in names.iter().zip(&acknowledged) {
        assert!(*acked >= 1, "{name} got no write acknowledged");
        let n = stored[*name]["n"].as_u64().unwrap();
        assert!(
            n >= *acked,
            "{name}: stored {n}, but {acked} was acknowledged"
        );
    }
    // The next start serves the same, and leaves no temporary file behind.
    let served = serve(root.path(), &state, None);
    for (name, acked) in names.iter().zip(&acknowledged) {
        let (status, body) = send(
            &client,
            reqwest::Method::GET,
            format!("{}/api/Configs/{name}", served.base),
            None,
        )
        .await
        .unwrap();
        assert_eq!(status, 200);
        assert!(body["data"]["n"].as_u64().unwrap() >= *acked);
    }
    let leftovers: Vec<String> = std::fs::read_dir(state.join("configs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".part"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// A disk that refuses a write (here a file-size cap, which binds root as
/// well, standing in for a full disk) gives a 500 envelope that says what
/// happened, and the previous file stays as it was.
#[tokio::test]
async fn a_refused_write_gives_a_500_envelope_and_keeps_the_previous_file() {
    let root = fixture_root(None);
    let state = root.path().join(".state");
    let served = serve(root.path(), &state, Some(256 * 1024));
    let client = reqwest::Client::new();
    let path = state.join("configs/Default.json");
    let before = std::fs::read(&path).unwrap();
    let big = json!({"pad": "x".repeat(600 * 1024)});
    let (status, body) = send(
        &client,
        reqwest::Method::PUT,
        format!("{}/api/Configs/Default", served.base),
        Some(&big),
    )
    .await
    .unwrap();
    assert_eq!(status, 500, "{body}");
    assert_eq!(body["success"], false);
    let message = body["message"].as_str().unwrap();
    assert!(message.contains("cannot save"), "{message}");
    assert!(message.contains("configuration `Default`"), "{message}");
    assert!(
        !message.contains(&*state.to_string_lossy()),
        "no server path: {message}"
    );
    assert!(message.contains("unchanged"), "{message}");
    assert_eq!(
        std::fs::read(&path).unwrap(),
        before,
        "the previous file is intact"
    );
    // A write that fits still works.
    let (status, _) = send(
        &client,
        reqwest::Method::PUT,
        format!("{}/api/Configs/Default", served.base),
        Some(&json!({"small": true})),
    )
    .await
    .unwrap();
    assert_eq!(status, 200);
}

/// A corrupt state file at start-up is named on stderr, moved aside, and
/// the server starts.
#[tokio::test]
async fn a_corrupt_state_file_is_reported_moved_aside_and_the_server_starts() {
    let root = fixture_root(None);
    let state = root.path().join(".state");
    std::fs::create_dir_all(state.join("configs")).unwrap();
    std::fs::write(state.join("settings.json"), "{\"ui\": {\"theme\": ").unwrap();
    let served = serve(root.path(), &state, None);
    let client = reqwest::Client::new();
    let (status, _) = send(
        &client,
        reqwest::Method::GET,
        format!("{}/api/Settings", served.base),
        None,
    )
    .await
    .unwrap();
    assert_eq!(status, 200);
    assert!(state.join("settings.json.corrupt-1").is_file());
    // The server's stderr is a pipe drained on its own: wait for the line.
    let served = &served;
    eventually("the move aside on stderr", || async move {
        let stderr = served.stderr();
        holds(stderr.contains("settings.json.corrupt-1"), || stderr)
    })
    .await;
}
