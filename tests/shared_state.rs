//! Issue 48: the state directory is shared. What other programs write
//! survives a change, a corrupt file is moved aside and answered 500
//! whenever it is found, a stray file stops nothing, a run of a
//! configuration that cannot be read never starts, `build --force` deletes
//! nothing, look-alike and device names are refused, and a 401 says where
//! the token goes. Through the router, a real server on loopback, and the
//! binary.

use std::fs;
use std::io::Write as _;
use std::path::Path;

use activity_site_control::api::ApiOptions;
use activity_site_control::names;
use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::harness::{self, FAST};
use crate::util::{FIXTURE_NOW, fixture_root, run, stderr};

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

/// Writes `value` as another program would: a temporary file renamed over
/// the file.
fn write_as_another_program(path: &Path, value: &Value) {
    let temporary = path.with_extension("other-program.tmp");
    fs::write(&temporary, serde_json::to_vec_pretty(value).unwrap()).unwrap();
    fs::rename(&temporary, path).unwrap();
}

/// An API over a fresh state directory; the path of that directory.
fn api() -> (harness::Api, std::path::PathBuf) {
    let api = harness::fast();
    let state = api.dir.path().join("state");
    (api, state)
}

/// A key and a known value another program writes while the server runs
/// are shown by the next GET and survive a PUT of another setting.
#[tokio::test]
async fn another_programs_key_and_value_survive_a_put() {
    let (api, state) = api();
    let file = state.join("settings.json");
    let mut document = read_json(&file);
    document["general"]["gamePath"] = json!("D:/Games/StarRail.exe");
    document["fromTheDesktopClient"] = json!({"window": [1, 2]});
    write_as_another_program(&file, &document);

    let shown = api.get("/api/Settings").await.data().clone();
    assert_eq!(shown["general"]["gamePath"], "D:/Games/StarRail.exe");

    api.put("/api/Settings", json!({"display": {"language": "en-US"}}))
        .await
        .data();
    let stored = read_json(&file);
    assert_eq!(stored["general"]["gamePath"], "D:/Games/StarRail.exe");
    assert_eq!(stored["fromTheDesktopClient"], json!({"window": [1, 2]}));
    assert_eq!(stored["display"]["language"], "en-US");
    let shown = api.get("/api/Settings").await.data().clone();
    assert_eq!(shown["general"]["gamePath"], "D:/Games/StarRail.exe");
    assert_eq!(shown["display"]["language"], "en-US");
}

/// A settings file made corrupt while the server runs is moved aside and
/// answered with a 500 envelope that names the cause and no path, by the
/// GET or the PUT that finds it; it is never written over.
#[tokio::test]
async fn a_corrupt_settings_file_appearing_while_running_is_moved_aside_and_answered_500() {
    let (api, state) = api();
    let file = state.join("settings.json");
    fs::write(&file, "{\"general\": ").unwrap();
    let reply = api.get("/api/Settings").await;
    reply.assert_error(StatusCode::INTERNAL_SERVER_ERROR);
    let message = reply.message().to_string();
    assert!(message.contains("the settings"), "{message}");
    assert!(message.contains("not valid JSON"), "{message}");
    assert!(message.contains("settings.json.corrupt-1"), "{message}");
    assert!(!message.contains('/'), "no server path: {message}");
    assert_eq!(
        fs::read_to_string(state.join("settings.json.corrupt-1")).unwrap(),
        "{\"general\": "
    );

    // A PUT that finds a corrupt file: the same, and the file is kept.
    fs::write(&file, "{\"general\": {\"gamePath\": 7}}").unwrap();
    let reply = api
        .put("/api/Settings", json!({"display": {"language": "en-US"}}))
        .await;
    reply.assert_error(StatusCode::INTERNAL_SERVER_ERROR);
    assert!(
        reply.message().contains("general.gamePath"),
        "{}",
        reply.message()
    );
    assert_eq!(
        fs::read_to_string(state.join("settings.json.corrupt-2")).unwrap(),
        "{\"general\": {\"gamePath\": 7}}"
    );
    // The next request finds it absent: the defaults, then a new file.
    api.put("/api/Settings", json!({"display": {"language": "en-US"}}))
        .await
        .data();
    assert_eq!(read_json(&file)["display"]["language"], "en-US");

    // An extension's stored configuration, corrupt before a PUT: moved
    // aside and answered 500, not overwritten.
    let config = state.join("extensions/daily-checkin/config.json");
    fs::write(&config, "not json").unwrap();
    let reply = api
        .put(
            "/api/Extensions/daily-checkin/config",
            json!("{\"account\": \"p\", \"region\": \"cn\"}"),
        )
        .await;
    reply.assert_error(StatusCode::INTERNAL_SERVER_ERROR);
    assert!(
        reply.message().contains("extension `daily-checkin`"),
        "{}",
        reply.message()
    );
    assert_eq!(
        fs::read_to_string(state.join("extensions/daily-checkin/config.json.corrupt-1")).unwrap(),
        "not json"
    );
}

/// A configuration made corrupt while the server runs: `Task/run` and
/// `Task/single` answer a 500 envelope saying the job did not start and
/// why; the runner stays idle and the file is moved aside.
#[tokio::test]
async fn a_run_of_a_corrupted_configuration_never_starts() {
    let (api, state) = api();
    for name in ["C1", "C2"] {
        api.call("POST", &format!("/api/Configs/{name}"), None)
            .await
            .data();
    }
    fs::write(state.join("configs/C1.json"), "{\"startGame\": ").unwrap();
    let reply = api.post("/api/Task/run", json!({"configName": "C1"})).await;
    reply.assert_error(StatusCode::INTERNAL_SERVER_ERROR);
    let message = reply.message().to_string();
    assert!(message.contains("did not start"), "{message}");
    assert!(message.contains("configuration `C1`"), "{message}");
    assert!(message.contains("not valid JSON"), "{message}");
    assert!(!message.contains('/'), "no server path: {message}");
    assert!(state.join("configs/C1.json.corrupt-1").is_file());

    // A configuration that is JSON but not an object is just as unusable.
    fs::write(state.join("configs/C2.json"), "[1, 2]").unwrap();
    let reply = api
        .post(
            "/api/Task/single",
            json!({"taskName": "0", "configName": "C2"}),
        )
        .await;
    reply.assert_error(StatusCode::INTERNAL_SERVER_ERROR);
    let message = reply.message().to_string();
    assert!(message.contains("did not start"), "{message}");
    assert!(message.contains("configuration `C2`"), "{message}");
    assert!(message.contains("an array"), "{message}");
    assert!(state.join("configs/C2.json.corrupt-1").is_file());

    let status = api.get("/api/Task/status").await.data().clone();
    assert_eq!(status["status"], "idle", "{status}");
    // Moved aside, the configuration no longer exists: the contract's 400.
    api.post("/api/Task/run", json!({"configName": "C1"}))
        .await
        .assert_error(StatusCode::BAD_REQUEST);
    let names = api.get("/api/Configs").await.data().clone();
    assert_eq!(names, json!(["Default"]));
}

/// Files the server did not make, in every folder of the state directory,
/// stop nothing: the server starts, lists, reloads and answers, and names
/// each once in the log.
#[tokio::test]
async fn stray_files_in_the_state_directory_are_passed_over_and_named_once() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    drop(activity_site_control::Control::open(crate::util::control_options(&state)).unwrap());
    fs::write(state.join("extensions/.DS_Store"), [0u8, 1, 2]).unwrap();
    fs::write(state.join("extensions/notes.txt"), "mine").unwrap();
    fs::create_dir(state.join("extensions/daily-checkin/config.json.d")).unwrap();
    fs::write(state.join(".DS_Store"), [0u8]).unwrap();
    fs::write(state.join("configs/notes.txt"), "mine").unwrap();
    fs::create_dir(state.join("configs/Folder.json")).unwrap();
    // An extension whose `config.json` is a folder is skipped with a reason.
    let odd = state.join("extensions/odd");
    fs::create_dir_all(odd.join("config.json")).unwrap();
    fs::copy(
        state.join("extensions/daily-checkin/extension.json"),
        odd.join("extension.json"),
    )
    .unwrap();

    let api = harness::open_in(dir, FAST, ApiOptions::default());
    assert_eq!(api.get("/api/Configs").await.data(), &json!(["Default"]));
    let listed = api.get("/api/Extensions").await.data().clone();
    let ids: Vec<&str> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["daily-checkin", "stamina-watch"]);
    let report = api
        .call("POST", "/api/Extensions/reload", None)
        .await
        .data()
        .clone();
    assert_eq!(report["errors"][0]["id"], "odd", "{report}");
    assert!(
        report["errors"][0]["error"]
            .as_str()
            .unwrap()
            .contains("config.json is a folder"),
        "{report}"
    );
    api.get("/api/Configs").await.data();

    let log = api.control.logs_recent(500).join("\n");
    for stray in [
        "`extensions/.DS_Store`",
        "`extensions/notes.txt`",
        "`.DS_Store`",
        "`configs/notes.txt`",
        "`configs/Folder.json`",
    ] {
        assert_eq!(log.matches(stray).count(), 1, "{stray} once in:\n{log}");
    }
    // Everything is where it was.
    assert_eq!(
        fs::read(state.join("extensions/.DS_Store")).unwrap(),
        [0, 1, 2]
    );
    assert!(state.join("configs/Folder.json").is_dir());
}

/// A stray `.DS_Store` in `extensions/` at start-up: `serve` starts and
/// answers (it exited 2 before).
#[cfg(unix)]
#[tokio::test]
async fn serve_starts_with_a_stray_ds_store_in_the_extensions_folder() {
    let root = fixture_root(None);
    let state = root.path().join(".state");
    fs::create_dir_all(state.join("extensions")).unwrap();
    fs::write(state.join("extensions/.DS_Store"), [0u8, 0, 0, 1]).unwrap();
    fs::write(state.join("notes.txt"), "mine").unwrap();
    let served = crate::faults::serve_with(root.path(), &state, None, &[]);
    let reply = reqwest::get(format!("{}/api/Extensions", served.base))
        .await
        .unwrap();
    assert_eq!(reply.status(), 200);
    let err = served.stderr();
    assert!(!err.contains("Not a directory"), "{err}");
    assert_eq!(
        fs::read(state.join("extensions/.DS_Store")).unwrap(),
        [0, 0, 0, 1]
    );
}

/// 1,000 settings updates through a real server on loopback while another
/// program (a thread that takes the state directory's lock, as SECURITY.md
/// asks of a program that shares the file) rewrites `settings.json` in a
/// loop, adding a key each time. At the end every key the other program
/// wrote is in the file, and each setting holds the value of its last
/// acknowledged update.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_thousand_puts_and_another_writer_lose_nothing() {
    const CLIENTS: usize = 4;
    const PUTS: usize = 250;
    let leaves = [
        ("general", "gamePath"),
        ("general", "launchArguments"),
        ("display", "backgroundImage"),
        ("advanced", "backend.arguments"),
    ];
    let (api, state) = api();
    let base = harness::serve(api.router.clone()).await;
    let file = state.join("settings.json");
    let lock = state.join("state.lock");

    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let other = {
        let (done, file, lock) = (done.clone(), file.clone(), lock.clone());
        std::thread::spawn(move || {
            let mut written = 0usize;
            // At least a few rounds, whatever the scheduling.
            while !done.load(std::sync::atomic::Ordering::SeqCst) || written < 20 {
                let held = fs::OpenOptions::new()
                    .create(true)
                    .truncate(false)
                    .write(true)
                    .open(&lock)
                    .unwrap();
                held.lock().unwrap();
                let mut document = read_json(&file);
                document["otherProgram"][format!("key{written}")] = json!(written);
                write_as_another_program(&file, &document);
                drop(held);
                written += 1;
            }
            written
        })
    };

    let client = reqwest::Client::new();
    let mut tasks = Vec::new();
    for (client_index, (section, leaf)) in leaves.into_iter().enumerate().take(CLIENTS) {
        let (client, base) = (client.clone(), base.clone());
        tasks.push(tokio::spawn(async move {
            let mut last_acknowledged = None;
            for i in 0..PUTS {
                let value = format!("client{client_index}-{i}");
                let body = json!({ section: { leaf: value } });
                let reply = client
                    .put(format!("{base}/api/Settings"))
                    .json(&body)
                    .send()
                    .await
                    .unwrap();
                if reply.status() == 200 {
                    last_acknowledged = Some(value);
                }
            }
            (section, leaf, last_acknowledged)
        }));
    }
    let mut last = Vec::new();
    for task in tasks {
        last.push(task.await.unwrap());
    }
    done.store(true, std::sync::atomic::Ordering::SeqCst);
    let written = other.join().unwrap();

    let stored = read_json(&file);
    for (section, leaf, value) in last {
        let value = value.expect("updates were acknowledged");
        let mut slot = &stored[section];
        for part in leaf.split('.') {
            slot = &slot[part];
        }
        assert_eq!(slot, &json!(value), "{section}.{leaf}");
    }
    let kept = stored["otherProgram"].as_object().unwrap();
    for i in 0..written {
        assert_eq!(kept.get(&format!("key{i}")), Some(&json!(i)), "key{i}");
    }
    assert!(
        !fs::read_dir(&state)
            .unwrap()
            .flatten()
            .any(|e| e.file_name().to_string_lossy().contains("corrupt")),
        "nothing was taken for corrupt"
    );
}

/// Look-alikes of the forbidden characters and the Windows device names
/// are refused as configuration names (400), and SECURITY.md lists every
/// one the rule refuses.
#[tokio::test]
async fn look_alike_characters_and_device_names_are_refused_and_documented() {
    let (api, _state) = api();
    for name in [
        "a\u{2216}b",
        "a\u{2236}b",
        "a\u{2217}b",
        "a\u{2223}b",
        "a\u{2039}b",
        "Default\u{2800}",
        "COM0",
        "lpt0",
        "CONIN$",
        "conout$.txt",
    ] {
        let path = format!(
            "/api/Configs/{}",
            percent_encoding::utf8_percent_encode(name, percent_encoding::NON_ALPHANUMERIC)
        );
        api.call("POST", &path, None)
            .await
            .assert_error(StatusCode::BAD_REQUEST);
    }
    let security = fs::read_to_string(crate::util::crate_root().join("SECURITY.md")).unwrap();
    for (c, _) in names::LOOK_ALIKES {
        let listed = format!("`{c}` U+{:04X}", u32::from(c));
        assert!(security.contains(&listed), "SECURITY.md lists {listed}");
    }
    for device in names::DEVICE_NAMES {
        assert!(security.contains(&format!("`{device}`")), "{device}");
    }
    assert!(security.contains("`COM0`-`COM9`, `LPT0`-`LPT9`"));
    assert!(security.contains(&format!(
        "configuration name over {} characters",
        activity_site_control::MAX_CONFIG_NAME_CHARS
    )));
    assert!(security.contains(&format!("over {} bytes", names::MAX_NAME_BYTES)));
}

/// The 401 keeps `unauthorized` as its message and says how to send the
/// token; `serve` says the same on start-up.
#[tokio::test]
async fn a_401_says_how_to_send_the_token() {
    let api = harness::open(
        FAST,
        ApiOptions {
            access_token: Some("s3cret".to_string()),
            ..ApiOptions::default()
        },
    );
    let reply = api.get("/api/Settings").await;
    reply.assert_error(StatusCode::UNAUTHORIZED);
    assert_eq!(reply.message(), "unauthorized");
    let help = reply.json["data"]["help"].as_str().unwrap();
    assert!(help.contains("X-Access-Token"), "{help}");
    assert!(help.contains("access_token"), "{help}");
}

#[cfg(unix)]
#[test]
fn serve_says_how_to_send_the_token_on_start_up() {
    let root = fixture_root(None);
    let state = root.path().join(".state");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_activity-site"))
        .args(["serve", "--no-watch", "--addr", "127.0.0.1:0", "--root"])
        .arg(root.path())
        .arg("--state-dir")
        .arg(&state)
        .args(["--access-token", "s3cret"])
        .env("NO_COLOR", "1")
        .env_remove("LANG")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let mut lines = std::io::BufRead::lines(std::io::BufReader::new(stdout));
    let mut seen = Vec::new();
    while let Some(Ok(line)) = lines.next() {
        let done = line.contains("X-Access-Token");
        seen.push(line);
        if done {
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    let text = seen.join("\n");
    assert!(text.contains("Serving"), "{text}");
    assert!(text.contains("X-Access-Token"), "{text}");
    assert!(text.contains("access_token"), "{text}");
}

/// `build --force` moves what it replaces beside the output, named, and
/// lists it first; nothing is deleted.
#[test]
fn force_keeps_what_it_replaced_and_lists_it() {
    let root = fixture_root(None);
    let out = root.path().join("mine");
    fs::create_dir_all(out.join("photos")).unwrap();
    fs::write(out.join("notes.txt"), "keep me\n").unwrap();
    fs::write(out.join("photos/a.jpg"), [0xff, 0xd8, 0xff]).unwrap();
    let output = run(
        root.path(),
        &["build", "--out", "mine", "--force", "--now", FIXTURE_NOW],
    );
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(0), "{err}");
    assert!(err.contains("notes.txt, photos/a.jpg"), "lists them: {err}");
    assert!(err.contains("the 2 files"), "{err}");
    let aside: Vec<_> = fs::read_dir(root.path())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("mine.replaced-")
        })
        .collect();
    assert_eq!(
        aside.len(),
        1,
        "one dated folder beside the output: {aside:?}"
    );
    let aside = &aside[0];
    assert!(
        err.contains(&*aside.file_name().unwrap().to_string_lossy()),
        "says where: {err}"
    );
    assert_eq!(
        fs::read_to_string(aside.join("notes.txt")).unwrap(),
        "keep me\n"
    );
    assert_eq!(
        fs::read(aside.join("photos/a.jpg")).unwrap(),
        [0xff, 0xd8, 0xff]
    );
    assert!(out.join("api/v1/games.json").is_file());
    assert!(!out.join("notes.txt").exists());
}

/// Not even `--force` replaces a home directory or a file system root.
#[test]
fn force_refuses_a_home_directory_and_a_file_system_root() {
    let root = fixture_root(None);
    let home = tempfile::tempdir().unwrap();
    fs::write(home.path().join(".profile"), "mine\n").unwrap();
    let before = crate::util::files_under(home.path());
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_activity-site"))
        .args(["build", "--force", "--now", FIXTURE_NOW, "--root"])
        .arg(root.path())
        .arg("--out")
        .arg(home.path())
        .env("HOME", home.path())
        .env("NO_COLOR", "1")
        .env_remove("LANG")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .output()
        .unwrap();
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{err}");
    assert!(err.contains("home directory"), "{err}");
    assert_eq!(crate::util::files_under(home.path()), before);

    let output = run(
        root.path(),
        &["build", "--out", "/", "--force", "--now", FIXTURE_NOW],
    );
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
}

/// The start-up of a server over a state directory that holds only what
/// another program made (a settings file with keys of its own): every key
/// is kept, nothing is rewritten.
#[tokio::test]
async fn start_up_keeps_another_programs_settings_as_they_are() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    fs::create_dir_all(&state).unwrap();
    let original = "{\"general\": {\"gamePath\": \"C:/x\"}, \"theirs\": [1]}\n";
    let mut f = fs::File::create(state.join("settings.json")).unwrap();
    f.write_all(original.as_bytes()).unwrap();
    drop(f);
    let api = harness::open_in(dir, FAST, ApiOptions::default());
    assert_eq!(
        api.get("/api/Settings").await.data()["general"]["gamePath"],
        "C:/x"
    );
    assert_eq!(
        fs::read_to_string(state.join("settings.json")).unwrap(),
        original
    );
}

/// Issue 59: another process holds `state.lock` (an exclusive `flock`, as
/// SECURITY.md asks of a program that shares the directory) for up to 20 s
/// while three writes wait for it. Through the binary on loopback: the
/// status and the home page answer while the lock is held (before: only
/// once it was released), each write answers a 503 envelope that says
/// another program holds the state, nothing is changed, and once the lock
/// is released a write succeeds.
#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lock_held_by_another_program_stalls_no_request() {
    use std::os::fd::AsRawFd as _;
    use std::time::{Duration, Instant};
    let root = fixture_root(None);
    let state = root.path().join(".state");
    let served = crate::faults::serve_with(root.path(), &state, None, &[]);
    let client = reqwest::Client::new();
    let settings_before = fs::read(state.join("settings.json")).unwrap();
    let valid_extension_config =
        fs::read_to_string(state.join("extensions/daily-checkin/config.json")).unwrap();

    let held = fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(state.join("state.lock"))
        .unwrap();
    // SAFETY: flock on a file descriptor this test owns.
    assert_eq!(
        unsafe { libc::flock(held.as_raw_fd(), libc::LOCK_EX) },
        0,
        "the test takes the lock"
    );
    let taken = Instant::now();
    let writes = [
        ("/api/Settings", json!({"display": {"language": "en-US"}})),
        ("/api/Configs/Default", json!({"startGame": {}})),
        (
            "/api/Extensions/daily-checkin/config",
            json!(valid_extension_config),
        ),
    ]
    .map(|(path, body)| {
        let request = client.put(format!("{}{path}", served.base)).json(&body);
        tokio::spawn(async move {
            let reply = request.send().await.unwrap();
            let status = reply.status().as_u16();
            (status, reply.json::<Value>().await.unwrap())
        })
    });
    tokio::time::sleep(Duration::from_millis(500)).await;
    for path in ["/api/Task/status", "/"] {
        let reply = tokio::time::timeout(
            Duration::from_secs(5),
            client.get(format!("{}{path}", served.base)).send(),
        )
        .await
        .unwrap_or_else(|_| panic!("GET {path} answers while the lock is held"))
        .unwrap();
        assert_eq!(reply.status(), 200, "GET {path}");
    }
    for write in writes {
        let (status, body) = tokio::time::timeout(Duration::from_secs(20), write)
            .await
            .expect("each write answers while the lock is held")
            .unwrap();
        assert_eq!(status, 503, "{body}");
        assert_eq!(body["success"], false, "{body}");
        let message = body["message"].as_str().unwrap();
        assert!(message.contains("another program holds"), "{message}");
        assert!(message.contains("nothing was changed"), "{message}");
    }
    assert!(
        taken.elapsed() < Duration::from_secs(20),
        "the lock was held throughout"
    );
    assert_eq!(
        fs::read(state.join("settings.json")).unwrap(),
        settings_before
    );
    drop(held);
    let reply = client
        .put(format!("{}/api/Settings", served.base))
        .json(&json!({"display": {"language": "en-US"}}))
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), 200);
}

/// Issue 59: `serve` over a state directory whose `settings.json` is a
/// FIFO, whose `configs/` holds a FIFO, whose `state.lock` is a FIFO and
/// whose `extensions` is a link to a folder elsewhere starts and answers
/// (before: it never started listening) and reads nothing through the link. The settings
/// are answered 404 with what is there; the FIFOs are left as they are.
#[cfg(unix)]
#[tokio::test]
async fn serve_starts_with_fifos_in_the_state_directory() {
    use std::os::unix::ffi::OsStrExt as _;
    use std::os::unix::fs::FileTypeExt as _;
    let root = fixture_root(None);
    let state = root.path().join(".state");
    fs::create_dir_all(state.join("configs")).unwrap();
    let fifos = [
        state.join("settings.json"),
        state.join("configs/Default.json"),
        state.join("configs/fifo.json"),
        state.join("state.lock"),
    ];
    for fifo in &fifos {
        let c = std::ffi::CString::new(fifo.as_os_str().as_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    }
    // And `extensions` a link to a folder elsewhere holding an extension.
    let elsewhere = tempfile::tempdir().unwrap();
    fs::create_dir(elsewhere.path().join("outside")).unwrap();
    fs::write(
        elsewhere.path().join("outside/extension.json"),
        "{\"configSchema\": {}}",
    )
    .unwrap();
    std::os::unix::fs::symlink(elsewhere.path(), state.join("extensions")).unwrap();
    let served = crate::faults::serve_with(root.path(), &state, None, &[]);
    let client = reqwest::Client::new();
    let reply = client
        .get(format!("{}/api/Extensions", served.base))
        .timeout(std::time::Duration::from_secs(20))
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), 200);
    let body: Value = reply.json().await.unwrap();
    assert_eq!(
        body["data"],
        json!([]),
        "nothing of the linked folder: {body}"
    );
    assert_eq!(
        fs::read_dir(elsewhere.path()).unwrap().count(),
        1,
        "nothing seeded through the link"
    );
    let reply = client
        .get(format!("{}/api/Settings", served.base))
        .timeout(std::time::Duration::from_secs(20))
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), 404);
    let body: Value = reply.json().await.unwrap();
    assert!(body["message"].as_str().unwrap().contains("FIFO"), "{body}");
    let reply = client
        .get(format!("{}/api/Configs", served.base))
        .timeout(std::time::Duration::from_secs(20))
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), 200);
    for fifo in &fifos {
        assert!(
            fs::symlink_metadata(fifo).unwrap().file_type().is_fifo(),
            "{} is left as it is",
            fifo.display()
        );
    }
}

/// Issue 59: the home directory is found from the user's account (the
/// password database) as well as `$HOME`: with `$HOME` unset, `--out` at
/// the account's home is refused as a home directory. (Run without
/// `--force`, so that even a regression moves nothing: the home refusal
/// comes first and says so, where a regression says "not made by
/// activity-site".)
#[cfg(unix)]
#[test]
fn the_home_directory_is_refused_without_home_set() {
    // The account's home, read here on its own.
    // SAFETY: getpwuid returns a pointer into static storage or null; it
    // is read at once, on this thread.
    let home = unsafe {
        let entry = libc::getpwuid(libc::getuid());
        if entry.is_null() || (*entry).pw_dir.is_null() {
            return;
        }
        std::ffi::CStr::from_ptr((*entry).pw_dir)
            .to_string_lossy()
            .into_owned()
    };
    let home = Path::new(&home);
    if home.parent().is_none() || !home.is_dir() {
        return; // an account without a home of its own
    }
    let root = fixture_root(None);
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_activity-site"))
        .args(["build", "--now", FIXTURE_NOW, "--root"])
        .arg(root.path())
        .arg("--out")
        .arg(home)
        .env_remove("HOME")
        .env("NO_COLOR", "1")
        .env_remove("LANG")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .output()
        .unwrap();
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{err}");
    assert!(err.contains("home directory"), "{err}");
}

/// Issue 59: `--out` a symbolic link to a folder activity-site did not
/// make: `--force`'s warning and the line that says where the old content
/// went name the folder the link leads to, beside which it is set aside
/// (before: the warning named `<link>.replaced-...`).
#[cfg(unix)]
#[test]
fn force_names_the_folder_a_linked_out_leads_to() {
    let root = fixture_root(None);
    let target = root.path().join("real-folder");
    fs::create_dir_all(&target).unwrap();
    fs::write(target.join("notes.txt"), "keep me\n").unwrap();
    std::os::unix::fs::symlink(&target, root.path().join("link")).unwrap();
    let output = run(
        root.path(),
        &["build", "--out", "link", "--force", "--now", FIXTURE_NOW],
    );
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(0), "{err}");
    let target = fs::canonicalize(&target).unwrap();
    let aside: Vec<_> = fs::read_dir(target.parent().unwrap())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("real-folder.replaced-")
        })
        .collect();
    assert_eq!(aside.len(), 1, "{aside:?}");
    assert_eq!(
        fs::read_to_string(aside[0].join("notes.txt")).unwrap(),
        "keep me\n"
    );
    let warned = format!("`{}.replaced-", target.display());
    assert!(err.contains(&warned), "the warning names {warned}: {err}");
    assert!(!err.contains("link.replaced-"), "{err}");
    assert!(err.contains(&*aside[0].to_string_lossy()), "{err}");
}
