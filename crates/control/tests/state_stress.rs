//! Issue 59: the state directory under stress, through a real server on
//! loopback. A FIFO, a socket, a folder or a symbolic link where a state
//! file (or a folder on the way to one) belongs is a stray: answered, never
//! opened in a way that blocks, never followed out of the state directory,
//! never moved aside. A file another program rewrites in place is waited
//! for, not condemned.

#![cfg(unix)]

use std::ffi::CString;
use std::fs;
use std::os::unix::ffi::OsStrExt as _;
use std::path::Path;
use std::time::Duration;

use serde_json::{Value, json};

use crate::control::harness;

/// The longest any request below may take: far above what each needs, far
/// below "never" (each hung forever before).
const ANSWERS_WITHIN: Duration = Duration::from_secs(20);

fn mkfifo(path: &Path) {
    let c = CString::new(path.as_os_str().as_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0, "mkfifo");
}

/// A server on loopback over a fresh state directory, its address, the
/// state directory and a folder outside it.
struct Served {
    api: harness::Api,
    base: String,
    state: std::path::PathBuf,
    outside: tempfile::TempDir,
    client: reqwest::Client,
}

async fn served() -> Served {
    let api = harness::fast();
    let state = api.dir.path().join("state");
    let base = harness::serve(api.router.clone()).await;
    Served {
        api,
        base,
        state,
        outside: tempfile::tempdir().unwrap(),
        client: reqwest::Client::new(),
    }
}

impl Served {
    /// Sends a request and waits at most [`ANSWERS_WITHIN`] for the answer:
    /// status and JSON body.
    async fn send(&self, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
        let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
        let mut request = self
            .client
            .request(method.clone(), format!("{}{path}", self.base));
        if let Some(body) = body {
            request = request.json(&body);
        }
        let reply = tokio::time::timeout(ANSWERS_WITHIN, request.send())
            .await
            .unwrap_or_else(|_| panic!("{method} {path} did not answer"))
            .unwrap();
        let status = reply.status().as_u16();
        (status, reply.json().await.unwrap_or(Value::Null))
    }

    fn logs(&self) -> String {
        self.api.control.logs_recent(500).join("\n")
    }

    /// Every entry of the state directory whose name says it was moved aside.
    fn moved_aside(&self) -> Vec<String> {
        entries_under(&self.state)
            .into_iter()
            .map(|p| p.display().to_string())
            .filter(|p| p.contains(".corrupt-"))
            .collect()
    }
}

/// Every entry under `dir`, links and what is not a folder not entered.
fn entries_under(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    for entry in fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            found.extend(entries_under(&path));
        }
        found.push(path);
    }
    found
}

fn message(body: &Value) -> &str {
    body["message"].as_str().unwrap_or_default()
}

/// A FIFO at `configs/fifo.json`: two GETs of it at once answer 404 with
/// what is there (before: neither answered, and they froze every other
/// request), the list and the status answer meanwhile, a PUT and a POST
/// of it are refused, and the FIFO is left as it is and named once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fifo_where_a_configuration_belongs_is_answered_and_stops_nothing() {
    let s = served().await;
    let fifo = s.state.join("configs/fifo.json");
    mkfifo(&fifo);

    let (first, second) = tokio::join!(
        s.send("GET", "/api/Configs/fifo", None),
        s.send("GET", "/api/Configs/fifo", None)
    );
    for (status, body) in [first, second] {
        assert_eq!(status, 404, "{body}");
        assert_eq!(body["success"], false);
        assert!(message(&body).contains("FIFO"), "{body}");
        assert!(message(&body).contains("configs/fifo.json"), "{body}");
    }
    let (status, body) = s.send("GET", "/api/Configs", None).await;
    assert_eq!(
        (status, &body["data"]),
        (200, &json!(["Default"])),
        "{body}"
    );
    assert_eq!(s.send("GET", "/api/Task/status", None).await.0, 200);
    let (status, body) = s.send("PUT", "/api/Configs/fifo", Some(json!({}))).await;
    assert_eq!(status, 404, "{body}");
    let (status, body) = s.send("POST", "/api/Configs/fifo", Some(json!({}))).await;
    assert_eq!(status, 409, "{body}");
    assert!(message(&body).contains("FIFO"), "{body}");

    use std::os::unix::fs::FileTypeExt as _;
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    assert!(s.moved_aside().is_empty(), "{:?}", s.moved_aside());
    let logs = s.logs();
    assert_eq!(logs.matches("`configs/fifo.json`").count(), 1, "{logs}");
}

/// A socket and a folder where configurations belong are answered like
/// the FIFO: 404, left as they are, never moved aside (before: the folder
/// was moved to `.corrupt-1` with a 500).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_socket_or_a_folder_where_a_configuration_belongs_is_a_stray() {
    let s = served().await;
    let socket = s.state.join("configs/socket.json");
    let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    let folder = s.state.join("configs/FolderCfg.json");
    fs::create_dir(&folder).unwrap();
    for (name, what) in [("socket", "a socket"), ("FolderCfg", "a folder")] {
        let (status, body) = s.send("GET", &format!("/api/Configs/{name}"), None).await;
        assert_eq!(status, 404, "{body}");
        assert!(message(&body).contains(what), "{body}");
    }
    assert!(folder.is_dir());
    assert!(fs::symlink_metadata(&socket).is_ok());
    assert!(s.moved_aside().is_empty(), "{:?}", s.moved_aside());
}

/// `state.lock` replaced by a FIFO: a write is refused at once with a 500
/// that says what is there (before: it hung until something opened the
/// FIFO, and two froze the server); reads and the status answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fifo_lock_file_refuses_writes_and_stops_nothing() {
    let s = served().await;
    let lock = s.state.join("state.lock");
    let _ = fs::remove_file(&lock);
    mkfifo(&lock);
    let update = json!({"display": {"language": "en-US"}});
    let (first, second) = tokio::join!(
        s.send("PUT", "/api/Settings", Some(update.clone())),
        s.send("PUT", "/api/Settings", Some(update))
    );
    for (status, body) in [first, second] {
        assert_eq!(status, 500, "{body}");
        assert!(message(&body).contains("state.lock"), "{body}");
        assert!(message(&body).contains("FIFO"), "{body}");
    }
    assert_eq!(s.send("GET", "/api/Settings", None).await.0, 200);
    assert_eq!(s.send("GET", "/api/Task/status", None).await.0, 200);
}

/// A link planted in `configs/` to a JSON file elsewhere: never shown,
/// never changed, its password never copied into the state directory
/// (before: the GET showed its content and a PUT copied the password in).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_link_in_configs_never_shows_or_changes_the_outside_file() {
    let s = served().await;
    let target = s.outside.path().join("elsewhere.json");
    let outside = r#"{"startGame": {"password": "hunter2", "user": "x"}, "outsideKey": 1}"#;
    fs::write(&target, outside).unwrap();
    std::os::unix::fs::symlink(&target, s.state.join("configs/outside.json")).unwrap();

    let (status, body) = s.send("GET", "/api/Configs/outside", None).await;
    assert_eq!(status, 404, "{body}");
    assert!(message(&body).contains("symbolic link"), "{body}");
    assert!(!body.to_string().contains("outsideKey"), "{body}");
    let (status, body) = s.send("GET", "/api/Configs", None).await;
    assert_eq!(
        (status, &body["data"]),
        (200, &json!(["Default"])),
        "{body}"
    );
    let (status, body) = s
        .send("PUT", "/api/Configs/outside", Some(json!({"a": 1})))
        .await;
    assert_eq!(status, 404, "{body}");
    let (status, body) = s
        .send("POST", "/api/Configs/outside", Some(json!({"a": 1})))
        .await;
    assert_eq!(status, 409, "{body}");
    let (status, body) = s
        .send(
            "POST",
            "/api/Task/run",
            Some(json!({"configName": "outside", "config": {"a": 1}, "persist": true})),
        )
        .await;
    assert_ne!(status, 200, "{body}");

    assert_eq!(fs::read_to_string(&target).unwrap(), outside);
    assert!(
        fs::symlink_metadata(s.state.join("configs/outside.json"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    for path in entries_under(&s.state) {
        if fs::symlink_metadata(&path).unwrap().file_type().is_file() {
            let text = fs::read(&path).unwrap();
            assert!(
                !String::from_utf8_lossy(&text).contains("hunter2"),
                "{} holds the outside password",
                path.display()
            );
        }
    }
}

/// `configs` itself a link to a folder elsewhere: nothing of that folder
/// is listed or read.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_linked_configs_folder_is_never_followed() {
    let s = served().await;
    let elsewhere = s.outside.path().join("configs");
    fs::create_dir(&elsewhere).unwrap();
    fs::write(elsewhere.join("Secret.json"), r#"{"startGame": {}}"#).unwrap();
    fs::rename(s.state.join("configs"), s.outside.path().join("ours")).unwrap();
    std::os::unix::fs::symlink(&elsewhere, s.state.join("configs")).unwrap();
    let (status, body) = s.send("GET", "/api/Configs", None).await;
    assert_eq!(status, 500, "{body}");
    assert!(message(&body).contains("symbolic link"), "{body}");
    let (status, body) = s.send("GET", "/api/Configs/Secret", None).await;
    assert_ne!(status, 200, "{body}");
    let (status, body) = s
        .send("PUT", "/api/Configs/Secret", Some(json!({"a": 1})))
        .await;
    assert_ne!(status, 200, "{body}");
    assert_eq!(
        fs::read_to_string(elsewhere.join("Secret.json")).unwrap(),
        r#"{"startGame": {}}"#
    );
}

/// A link planted in `extensions/` to a folder elsewhere that looks like an
/// extension: never loaded, its configuration never read or written
/// (before: a PUT wrote `config.json` in the outside folder). An extension
/// folder swapped for a link after it was loaded: the PUT is refused and
/// writes nothing outside.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_link_in_extensions_never_shows_or_changes_the_outside_folder() {
    let s = served().await;
    let extensions = s.state.join("extensions");
    let evil = s.outside.path().join("evil");
    fs::create_dir(&evil).unwrap();
    fs::copy(
        extensions.join("daily-checkin/extension.json"),
        evil.join("extension.json"),
    )
    .unwrap();
    std::os::unix::fs::symlink(&evil, extensions.join("evil")).unwrap();

    let (status, body) = s
        .send("POST", "/api/Extensions/reload", Some(json!({})))
        .await;
    assert_eq!(status, 200, "{body}");
    assert!(
        !body["data"]["loaded"]
            .as_array()
            .unwrap()
            .contains(&json!("evil")),
        "{body}"
    );
    let (status, body) = s.send("GET", "/api/Extensions/evil/config", None).await;
    assert_eq!(status, 404, "{body}");
    let (status, body) = s
        .send("PUT", "/api/Extensions/evil/config", Some(json!("{}")))
        .await;
    assert_eq!(status, 404, "{body}");
    assert!(!evil.join("config.json").exists());

    // Loaded, then swapped for a link to the outside folder.
    let valid = fs::read_to_string(extensions.join("daily-checkin/config.json")).unwrap();
    let ours = s.outside.path().join("daily-checkin-moved");
    fs::rename(extensions.join("daily-checkin"), &ours).unwrap();
    std::os::unix::fs::symlink(&evil, extensions.join("daily-checkin")).unwrap();
    let (status, body) = s
        .send(
            "PUT",
            "/api/Extensions/daily-checkin/config",
            Some(json!(valid)),
        )
        .await;
    assert!(status == 404 || status == 409, "{status} {body}");
    assert!(message(&body).contains("symbolic link"), "{body}");
    assert!(!evil.join("config.json").exists());
    let (status, body) = s
        .send("GET", "/api/Extensions/daily-checkin/config", None)
        .await;
    assert_eq!(status, 404, "{body}");
}

/// `settings.json` a link to a file elsewhere: never shown, never changed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_linked_settings_file_is_never_followed() {
    let s = served().await;
    let target = s.outside.path().join("settings.json");
    fs::write(&target, r#"{"general": {"gamePath": "OUTSIDE"}}"#).unwrap();
    let file = s.state.join("settings.json");
    fs::remove_file(&file).unwrap();
    std::os::unix::fs::symlink(&target, &file).unwrap();
    let (status, body) = s.send("GET", "/api/Settings", None).await;
    assert_eq!(status, 404, "{body}");
    assert!(!body.to_string().contains("OUTSIDE"), "{body}");
    let (status, body) = s
        .send(
            "PUT",
            "/api/Settings",
            Some(json!({"display": {"language": "en-US"}})),
        )
        .await;
    assert_eq!(status, 404, "{body}");
    assert_eq!(
        fs::read_to_string(&target).unwrap(),
        r#"{"general": {"gamePath": "OUTSIDE"}}"#
    );
    assert!(
        fs::symlink_metadata(&file)
            .unwrap()
            .file_type()
            .is_symlink()
    );
}

/// Another program rewrites `settings.json` in place, without the lock
/// (truncate, a pause longer than the measured 62 ms, then the same
/// content), for a few seconds while a client reads it: every read answers
/// 200 with the content, and nothing is moved aside (before: the valid
/// file went to `settings.json.corrupt-N` and the client got a 500).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_in_place_writer_is_waited_for_not_condemned() {
    let s = served().await;
    let file = s.state.join("settings.json");
    let content = fs::read(&file).unwrap();
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let writer = {
        let (done, file, content) = (done.clone(), file.clone(), content.clone());
        std::thread::spawn(move || {
            use std::io::{Seek as _, Write as _};
            let mut rounds = 0;
            while !done.load(std::sync::atomic::Ordering::SeqCst) {
                let mut f = fs::OpenOptions::new().write(true).open(&file).unwrap();
                f.set_len(0).unwrap();
                std::thread::sleep(Duration::from_millis(100));
                f.seek(std::io::SeekFrom::Start(0)).unwrap();
                // Half, a pause, then the rest: a partial file too.
                let (head, tail) = content.split_at(content.len() / 2);
                f.write_all(head).unwrap();
                std::thread::sleep(Duration::from_millis(30));
                f.write_all(tail).unwrap();
                drop(f);
                std::thread::sleep(Duration::from_millis(20));
                rounds += 1;
            }
            rounds
        })
    };
    let mut statuses = std::collections::BTreeMap::new();
    let until = std::time::Instant::now() + Duration::from_secs(3);
    while std::time::Instant::now() < until {
        let (status, body) = s.send("GET", "/api/Settings", None).await;
        if status != 200 {
            eprintln!("{status} {body}");
        }
        *statuses.entry(status).or_insert(0) += 1;
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    done.store(true, std::sync::atomic::Ordering::SeqCst);
    let rounds = writer.join().unwrap();
    assert!(rounds > 5, "the writer rewrote the file {rounds} times");
    assert_eq!(statuses.keys().collect::<Vec<_>>(), [&200], "{statuses:?}");
    assert!(s.moved_aside().is_empty(), "{:?}", s.moved_aside());
    assert_eq!(fs::read(&file).unwrap(), content);
}
