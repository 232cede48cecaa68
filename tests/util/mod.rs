//! Small helpers shared by the test modules.
#![allow(dead_code)]

pub mod s3;
pub mod stdio;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The crate's root directory.
/// Options of a control core over `state_dir` whose backend is the
/// simulator of the `activity-site` binary (a test binary is not it).
pub fn control_options(state_dir: impl Into<PathBuf>) -> activity_site_control::ControlOptions {
    let mut options = activity_site_control::ControlOptions::new(state_dir);
    options.backend =
        activity_site_control::BackendCommand::simulator(env!("CARGO_BIN_EXE_activity-site"));
    options
}

pub fn crate_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every Rust source file of the tool: the root package's `src/` and each
/// workspace crate's, in a stable order.
pub fn source_files() -> Vec<PathBuf> {
    let root = crate_root();
    let mut folders = vec![root.join("src")];
    let mut crates: Vec<PathBuf> = std::fs::read_dir(root.join("crates"))
        .expect("crates/ is readable")
        .map(|e| e.expect("crates/ is readable").path().join("src"))
        .collect();
    crates.sort();
    folders.extend(crates);
    folders
        .iter()
        .flat_map(|folder| walkdir::WalkDir::new(folder).sort_by_file_name())
        .map(|e| e.expect("sources are readable").into_path())
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .collect()
}

/// Runs the `activity-site` binary with `args` in `dir`.
pub fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_activity-site"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env_remove("RUST_LOG")
        // English, whatever the machine's locale (tests/i18n.rs sets it).
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env_remove("LANG")
        .output()
        .expect("the binary runs")
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The pinned "now" of the fixtures.
pub const FIXTURE_NOW: &str = "2026-10-15T12:00:00";

/// Builds the repository's own tree (`games.json`, `data/`) into `site/` of
/// a new temporary folder, with `args` after `build --out <site>`, and fails
/// the test when the build does. Gives the folder and the site's path.
pub fn build_bundled(args: &[&str]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let site = dir.path().join("site");
    let mut all = vec!["build", "--out", site.to_str().expect("a UTF-8 path")];
    all.extend_from_slice(args);
    let output = run(&crate_root(), &all);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    (dir, site)
}

/// Copies the valid base fixture into a fresh temp dir, then lays `case` over
/// it: its files replace the base's, and `X.delete` removes `X` (a folder
/// when `X` ends with `/`). Files named `now` and `expected` are not copied.
pub fn fixture_root(case: Option<&Path>) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    fixture_tree(&crate_root().join("tests/fixtures/base"), case, dir.path());
    dir
}

/// Copies the tree `base` into `dir`, then lays `case` over it as
/// [`fixture_root`] does.
pub fn fixture_tree(base: &Path, case: Option<&Path>, dir: &Path) {
    copy_tree(base, dir);
    if let Some(case) = case {
        for entry in walkdir::WalkDir::new(case).min_depth(1) {
            let entry = entry.expect("fixture readable");
            if !entry.file_type().is_file() {
                continue;
            }
            let rel = entry.path().strip_prefix(case).expect("under case");
            let rel_text = rel.to_string_lossy().replace('\\', "/");
            if rel_text == "now" || rel_text == "expected" {
                continue;
            }
            if let Some(target) = rel_text.strip_suffix(".delete") {
                let target_path = dir.join(target);
                if target.ends_with('/') || target.is_empty() {
                    std::fs::remove_dir_all(&target_path).expect("remove folder");
                } else {
                    std::fs::remove_file(&target_path).expect("remove file");
                }
                continue;
            }
            let dest = dir.join(rel);
            std::fs::create_dir_all(dest.parent().expect("parent")).expect("mkdir");
            std::fs::copy(entry.path(), &dest).expect("copy");
        }
    }
}

/// Asserts that an output or report says `part`, showing it when it does not.
#[track_caller]
pub fn says(text: &str, part: &str) {
    assert!(text.contains(part), "{part:?} not in:\n{text}");
}

/// Every file under `dir` with its bytes, by its path relative to `dir`
/// (forward slashes), in path order.
pub fn files_under(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.expect("readable"))
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let rel = e.path().strip_prefix(dir).expect("under dir");
            let rel = rel.to_string_lossy().replace('\\', "/");
            (rel, std::fs::read(e.path()).expect("readable"))
        })
        .collect()
}

/// `games` (a `games.json`) with a copy of game `from`'s entry under the
/// id `to` added at the end.
pub fn with_game_copy(games: &serde_json::Value, from: &str, to: &str) -> serde_json::Value {
    let mut games = games.clone();
    let mut copy = games["games"]
        .as_array()
        .expect("a list of games")
        .iter()
        .find(|g| g["id"] == from)
        .expect("the game copied")
        .clone();
    copy["id"] = serde_json::Value::from(to);
    games["games"].as_array_mut().expect("a list").push(copy);
    games
}

/// A temp root holding the five-game tree of `tests/fixtures/bundled` (the
/// data this repository once bundled: sr, ys, zzz, ww, nte in zh-CN and
/// en-US) and the schemas: the tests that need a whole, known tree use it,
/// so they stay put when the real `data/` moves on.
///
/// Its documents were written before activity ids: each game turns
/// `missing-id` off (`conventions.ignore`), as a tree that has not run
/// `check --fix` yet may, so these tests see only what they are about.
pub fn five_games() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    copy_tree(&crate_root().join("tests/fixtures/bundled"), dir.path());
    copy_tree(&crate_root().join("schema"), &dir.path().join("schema"));
    let path = dir.path().join("games.json");
    let mut games: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("games.json")).expect("json");
    for game in games["games"].as_array_mut().expect("games") {
        let ignore = &mut game["conventions"]["ignore"];
        if !ignore.is_array() {
            *ignore = serde_json::json!([]);
        }
        ignore
            .as_array_mut()
            .expect("ignore")
            .push("missing-id".into());
    }
    let text = serde_json::to_string_pretty(&games).expect("json") + "\n";
    std::fs::write(&path, text).expect("write games.json");
    dir
}

/// Copies the files of `from` into `to`, recursively.
pub fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from).min_depth(1) {
        let entry = entry.expect("readable");
        let dest = to.join(entry.path().strip_prefix(from).expect("under from"));
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&dest).expect("mkdir");
        } else {
            std::fs::create_dir_all(dest.parent().expect("parent")).expect("mkdir");
            std::fs::copy(entry.path(), &dest).expect("copy");
        }
    }
}

/// Runs `check --format json` and parses the report.
pub fn check_json(root: &Path, now: &str) -> (i32, serde_json::Value) {
    let output = run(root, &["check", "--format", "json", "--now", now]);
    let report = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("check printed no JSON ({e}): {}", stderr(&output)));
    (output.status.code().expect("exit code"), report)
}

/// Serves `router` on a loopback port from a background thread for the rest
/// of the test process; returns its base URL (`http://127.0.0.1:PORT`).
pub fn serve_on_loopback(router: axum::Router) -> String {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                .await
                .expect("bind");
            tx.send(listener.local_addr().expect("addr")).expect("send");
            axum::serve(listener, router).await.expect("serve");
        });
    });
    let addr = rx
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("server started");
    format!("http://{addr}")
}

/// Serves the files of `dir` on loopback; see [`serve_on_loopback`].
pub fn serve_folder(dir: &Path) -> String {
    serve_on_loopback(
        axum::Router::new().fallback_service(tower_http::services::ServeDir::new(dir)),
    )
}

/// Runs `git` in `dir` as a test's own user, on a `main` branch, unsigned,
/// whatever the environment's repository; a failure fails the test.
pub fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(["-c", "user.name=Test", "-c", "user.email=test@example.org"])
        .args([
            "-c",
            "commit.gpgsign=false",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(dir)
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}: {}", stderr(&out));
}

/// A copy of the bundled tree (`games.json`, `data/`, `schema/`) committed
/// as `main` of a new git repository, with `message`.
pub fn bundled_repository(message: &str) -> tempfile::TempDir {
    let repo = tempfile::tempdir().expect("temp dir");
    let root = repo.path();
    for part in ["data", "schema"] {
        copy_tree(&crate_root().join(part), &root.join(part));
    }
    std::fs::copy(crate_root().join("games.json"), root.join("games.json")).expect("copy");
    git(root, &["init", "-q"]);
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", message]);
    repo
}
