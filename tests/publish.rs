//! `publish` through the binary against a real S3-compatible server on
//! loopback (`s3s-fs`, see `util/s3.rs`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::{Command, Output};

use sha2::{Digest, Sha256};

use crate::util::s3::{ACCESS_KEY, BUCKET, S3Server, SECRET_KEY};
use crate::util::{FIXTURE_NOW, fixture_root, run, stderr, stdout};

const PREFIX: &str = "activity";
const API_CACHE: &str = "public, max-age=300, stale-while-revalidate=86400";
const PAGE_CACHE: &str = "public, max-age=60, stale-while-revalidate=3600";
const MANIFEST: &str = "activity/.activity-site-manifest.json";

/// Runs `publish` against `server` with the test credentials.
fn publish(server: &S3Server, root: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    publish_to(server, &format!("s3://{BUCKET}/{PREFIX}"), root, args, env)
}

pub(crate) fn publish_to(
    server: &S3Server,
    target: &str,
    root: &Path,
    args: &[&str],
    env: &[(&str, &str)],
) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_activity-site"));
    command
        .args(["publish", "--to", target, "--endpoint", &server.endpoint])
        .args(["--now", FIXTURE_NOW])
        .args(args)
        .current_dir(root)
        .env("NO_COLOR", "1")
        .env("AWS_ACCESS_KEY_ID", ACCESS_KEY)
        .env("AWS_SECRET_ACCESS_KEY", SECRET_KEY)
        .env("AWS_SHARED_CREDENTIALS_FILE", root.join("no-credentials"))
        .env_remove("RUST_LOG");
    for var in [
        "AWS_SESSION_TOKEN",
        "AWS_PROFILE",
        "AWS_REGION",
        "AWS_DEFAULT_REGION",
        "AWS_ENDPOINT",
        "AWS_ENDPOINT_URL",
        "ACTIVITY_SITE_PUBLISH_EXIT_AFTER",
    ] {
        command.env_remove(var);
    }
    for (key, value) in env {
        command.env(key, value);
    }
    command.output().expect("the binary runs")
}

pub(crate) fn build(root: &Path) {
    let output = run(root, &["build", "--out", "site", "--now", FIXTURE_NOW]);
    assert!(output.status.success(), "build failed: {}", stderr(&output));
}

fn ok(output: &Output) {
    assert!(
        output.status.success(),
        "publish failed ({:?}):\nstdout: {}\nstderr: {}",
        output.status.code(),
        stdout(output),
        stderr(output)
    );
}

/// The files of the built site that publish uploads (no `.br`/`.gz`
/// siblings, no `_headers`, no hidden files), path -> bytes.
fn published_files(root: &Path) -> BTreeMap<String, Vec<u8>> {
    let site = root.join("site");
    let all: BTreeMap<String, Vec<u8>> = walkdir::WalkDir::new(&site)
        .min_depth(1)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let rel = e
                .path()
                .strip_prefix(&site)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            (rel, std::fs::read(e.path()).unwrap())
        })
        .collect();
    all.iter()
        .filter(|(path, _)| {
            let sibling = ["br", "gz"].iter().any(|ext| {
                path.strip_suffix(&format!(".{ext}"))
                    .is_some_and(|base| all.contains_key(base))
            });
            // Dot-files are never published, but for the API catalog's folder.
            let hidden = path
                .split('/')
                .enumerate()
                .any(|(i, c)| c.starts_with('.') && !(i == 0 && c == ".well-known"));
            !sibling && *path != "_headers" && !hidden
        })
        .map(|(p, b)| (p.clone(), b.clone()))
        .collect()
}

/// Keys (without the prefix) of the objects the log shows were uploaded,
/// in order, the manifest aside.
fn uploaded(log: &[crate::util::s3::Request]) -> Vec<String> {
    let start = format!("/{BUCKET}/{PREFIX}/");
    log.iter()
        .filter(|r| r.method == "PUT" && r.status == 200)
        .filter_map(|r| r.path.strip_prefix(&start))
        .filter(|k| !k.starts_with(".activity-site-manifest"))
        .map(str::to_owned)
        .collect()
}

fn manifest(server: &S3Server) -> serde_json::Value {
    serde_json::from_slice(&server.object(MANIFEST).expect("a manifest")).expect("manifest JSON")
}

/// Every object named by the bucket's index exists with the sha256 it names,
/// and every published file is in the bucket with its local bytes.
fn assert_complete(server: &S3Server, root: &Path) {
    for (path, bytes) in published_files(root) {
        let stored = server
            .object(&format!("{PREFIX}/{path}"))
            .unwrap_or_else(|| panic!("{path} is not in the bucket"));
        assert!(stored == bytes, "{path} differs in the bucket");
    }
    let index: serde_json::Value = serde_json::from_slice(
        &server
            .object(&format!("{PREFIX}/api/v1/games.json"))
            .unwrap(),
    )
    .unwrap();
    for file in index["games"][0]["files"].as_array().unwrap() {
        let path = file["path"].as_str().unwrap().trim_start_matches('/');
        let stored = server
            .object(&format!("{PREFIX}/{path}"))
            .unwrap_or_else(|| panic!("the index names {path}, which is missing"));
        assert_eq!(
            hex::encode(Sha256::digest(&stored)),
            file["sha256"].as_str().unwrap()
        );
    }
    assert_eq!(manifest(server)["complete"], true);
}

fn phase(path: &str) -> u8 {
    if path == "api/v1/games.json" {
        1
    } else if path.starts_with("api/") || path == ".well-known/api-catalog" || path == "llms.txt" {
        // The API catalog and llms.txt go with the data, as the API's
        // cache policy does.
        0
    } else {
        2
    }
}

#[test]
fn first_publish_uploads_everything_with_metadata_and_a_second_uploads_nothing() {
    let server = S3Server::start();
    let root = fixture_root(None);
    build(root.path());
    let output = publish(&server, root.path(), &[], &[]);
    ok(&output);
    let files = published_files(root.path());
    let log = server.take_log();
    let order = uploaded(&log);
    assert_eq!(
        order.iter().cloned().collect::<BTreeSet<_>>(),
        files.keys().cloned().collect::<BTreeSet<_>>(),
        "the first publish uploads every published file once"
    );
    assert_eq!(order.len(), files.len());
    // Data, then the index, then the pages.
    let phases: Vec<u8> = order.iter().map(|p| phase(p)).collect();
    let mut sorted = phases.clone();
    sorted.sort();
    assert_eq!(phases, sorted, "upload order: {order:?}");
    // The manifest is written first (pending) and last (complete).
    let puts: Vec<&str> = log
        .iter()
        .filter(|r| r.method == "PUT")
        .map(|r| r.path.as_str())
        .collect();
    assert!(
        puts.first()
            .unwrap()
            .ends_with(".activity-site-manifest.json")
    );
    assert!(
        puts.last()
            .unwrap()
            .ends_with(".activity-site-manifest.json")
    );
    assert_complete(&server, root.path());
    // Only the published files and the manifest: no siblings, no _headers, no marker.
    let mut expected: BTreeSet<String> = files.keys().map(|p| format!("{PREFIX}/{p}")).collect();
    expected.insert(MANIFEST.to_owned());
    assert_eq!(server.keys(), expected);

    let json = server.attributes("activity/api/v1/activity/demo.json");
    assert_eq!(json["content_type"], "application/json; charset=utf-8");
    assert_eq!(json["cache_control"], API_CACHE);
    let sha = hex::encode(Sha256::digest(&files["api/v1/activity/demo.json"]));
    assert_eq!(json["user_metadata"]["sha256"], sha.as_str());
    let index = server.attributes("activity/api/v1/games.json");
    assert_eq!(index["cache_control"], API_CACHE);
    let ics = server.attributes("activity/api/v1/activity/demo.ics");
    assert_eq!(ics["content_type"], "text/calendar; charset=utf-8");
    let page = server.attributes("activity/index.html");
    assert_eq!(page["content_type"], "text/html; charset=utf-8");
    assert_eq!(page["cache_control"], PAGE_CACHE);
    assert!(stdout(&output).contains(&format!("{} added", files.len())));

    let again = publish(&server, root.path(), &[], &[]);
    ok(&again);
    let log = server.take_log();
    // A complete manifest is trusted: one read, no listing of the prefix.
    assert_eq!(
        log.len(),
        1,
        "a second publish reads the manifest only: {log:?}"
    );
    assert_eq!(log[0].method, "GET");
    assert!(
        log[0].path.ends_with(".activity-site-manifest.json"),
        "{log:?}"
    );
    assert!(
        stdout(&again).contains("0 objects (0 B) uploaded"),
        "{}",
        stdout(&again)
    );
}

#[test]
fn editing_one_data_file_uploads_only_what_changed_and_dry_run_uploads_nothing() {
    let server = S3Server::start();
    let root = fixture_root(None);
    build(root.path());
    ok(&publish(&server, root.path(), &[], &[]));
    let before = published_files(root.path());

    let data = root.path().join("data/demo/en-US.json");
    let text = std::fs::read_to_string(&data).unwrap();
    std::fs::write(
        &data,
        text.replace("Log in daily to claim rewards.", "Log in every day."),
    )
    .unwrap();
    build(root.path());
    let after = published_files(root.path());
    let changed: BTreeSet<String> = after
        .iter()
        .filter(|(p, b)| before.get(*p) != Some(*b))
        .map(|(p, _)| p.clone())
        .collect();
    assert!(changed.contains("api/v1/activity/demo-en-US.json"));
    assert!(changed.contains("api/v1/games.json"));
    assert!(
        changed.len() < after.len() / 2,
        "one edit changes few files: {changed:?}"
    );
    server.take_log();

    let dry = publish(&server, root.path(), &["--dry-run"], &[]);
    ok(&dry);
    assert!(
        server.take_log().iter().all(|r| r.method == "GET"),
        "--dry-run writes nothing"
    );
    let plan = stdout(&dry);
    assert!(plan.contains("~ api/v1/activity/demo-en-US.json"), "{plan}");
    assert!(plan.contains("plan for s3://"), "{plan}");
    assert!(
        plan.contains(&format!("{} changed", changed.len())),
        "{plan}"
    );
    let json = publish(
        &server,
        root.path(),
        &["--dry-run", "--format", "json"],
        &[],
    );
    ok(&json);
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON plan");
    assert_eq!(json["dryRun"], true);
    assert_eq!(json["uploads"], changed.len());
    let index = json["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["path"] == "api/v1/games.json")
        .unwrap();
    assert_eq!(index["action"], "changed");
    assert_eq!(index["phase"], "index");
    assert!(server.take_log().iter().all(|r| r.method == "GET"));

    ok(&publish(&server, root.path(), &[], &[]));
    let log = server.take_log();
    let order = uploaded(&log);
    assert_eq!(order.iter().cloned().collect::<BTreeSet<_>>(), changed);
    // Every changed path is owned already: no listing, no pending manifest,
    // one manifest read and one manifest write beside the uploads.
    let manifest_puts = log
        .iter()
        .filter(|r| r.method == "PUT" && r.path.ends_with(".activity-site-manifest.json"))
        .count();
    assert_eq!(manifest_puts, 1, "{log:?}");
    assert_eq!(log.len(), changed.len() + 2, "{log:?}");
    let phases: Vec<u8> = order.iter().map(|p| phase(p)).collect();
    assert!(
        phases.windows(2).all(|w| w[0] <= w[1]),
        "data before index before pages: {order:?}"
    );
    assert_complete(&server, root.path());
}

#[test]
fn delete_removes_only_what_publish_made_and_runs_last() {
    let server = S3Server::start();
    let root = fixture_root(None);
    build(root.path());
    ok(&publish(&server, root.path(), &[], &[]));
    server.put_foreign("activity/theirs.txt", b"not ours\n");
    server.put_foreign("elsewhere/other.json", b"{}\n");

    // Drop the en-US locale: its document, calendar and page go away.
    let games = root.path().join("games.json");
    let text = std::fs::read_to_string(&games).unwrap();
    let text = text
        .replace(
            "        \"zh-CN\",\n        \"en-US\"\n",
            "        \"zh-CN\"\n",
        )
        .replace(",\n        \"en-US\": \"Demo\"", "");
    std::fs::write(&games, text).unwrap();
    std::fs::remove_file(root.path().join("data/demo/en-US.json")).unwrap();
    build(root.path());
    assert!(
        !root
            .path()
            .join("site/api/v1/activity/demo-en-US.json")
            .exists()
    );
    server.take_log();

    let kept = publish(&server, root.path(), &[], &[]);
    ok(&kept);
    assert!(
        stdout(&kept).contains("? api/v1/activity/demo-en-US.json"),
        "{}",
        stdout(&kept)
    );
    assert!(
        server
            .object("activity/api/v1/activity/demo-en-US.json")
            .is_some()
    );
    assert!(server.take_log().iter().all(|r| !r.is_delete()));

    let removed = publish(&server, root.path(), &["--delete"], &[]);
    ok(&removed);
    assert!(stdout(&removed).contains("- api/v1/activity/demo-en-US.json"));
    // The object another tool left under the prefix is kept, and said so.
    assert!(
        stdout(&removed).contains("= theirs.txt (not created by activity-site: kept"),
        "{}",
        stdout(&removed)
    );
    assert!(
        stdout(&removed).contains("; kept, not ours: 1"),
        "{}",
        stdout(&removed)
    );
    let log = server.take_log();
    let deletes: Vec<usize> = (0..log.len()).filter(|&i| log[i].is_delete()).collect();
    // The removals go in one bulk request (S3 takes up to 1,000 keys).
    assert_eq!(deletes.len(), 1, "{log:?}");
    let last_upload = log
        .iter()
        .rposition(|r| r.method == "PUT" && !r.path.ends_with("manifest.json"));
    assert!(
        last_upload.is_none_or(|u| u < deletes[0]),
        "removals run last: {log:?}"
    );
    assert!(
        server
            .object("activity/api/v1/activity/demo-en-US.json")
            .is_none()
    );
    assert!(
        server
            .object("activity/api/v1/activity/demo-en-US.ics")
            .is_none()
    );
    assert_eq!(
        server.object("activity/theirs.txt").as_deref(),
        Some(&b"not ours\n"[..])
    );
    assert!(server.object("elsewhere/other.json").is_some());
    assert!(
        manifest(&server)["files"]
            .get("api/v1/activity/demo-en-US.json")
            .is_none()
    );
    assert_complete(&server, root.path());

    // --adopt --delete takes the foreign object over and removes it; what
    // lies outside the prefix stays.
    server.take_log();
    let adopted = publish(&server, root.path(), &["--adopt", "--delete"], &[]);
    ok(&adopted);
    assert!(
        stdout(&adopted).contains("- theirs.txt (not created by activity-site)"),
        "{}",
        stdout(&adopted)
    );
    assert!(!stdout(&adopted).contains("kept, not ours"));
    assert!(server.object("activity/theirs.txt").is_none());
    assert!(server.object("elsewhere/other.json").is_some());
    assert_complete(&server, root.path());
}

#[test]
fn an_interrupted_publish_run_again_ends_complete_and_consistent() {
    let server = S3Server::start();
    let root = fixture_root(None);
    build(root.path());
    let killed = publish(
        &server,
        root.path(),
        &["--jobs", "1"],
        &[("ACTIVITY_SITE_PUBLISH_EXIT_AFTER", "3")],
    );
    assert_eq!(killed.status.code(), Some(70), "{}", stderr(&killed));
    assert_eq!(uploaded(&server.take_log()).len(), 3);
    // The index waits for its data; the manifest owns what is pending.
    assert!(server.object("activity/api/v1/games.json").is_none());
    let pending = manifest(&server);
    assert_eq!(pending["complete"], false);
    assert!(pending["files"]["api/v1/games.json"]["sha256"].is_null());

    let resumed = publish(&server, root.path(), &[], &[]);
    ok(&resumed);
    assert_complete(&server, root.path());
    // An object removed behind the tool's back: the manifest alone does not
    // see it; --verify lists the prefix and puts it back.
    server.remove("activity/api/v1/activity/demo.ics");
    server.take_log();
    let trusting = publish(&server, root.path(), &[], &[]);
    ok(&trusting);
    assert!(uploaded(&server.take_log()).is_empty());
    let restored = publish(&server, root.path(), &["--verify"], &[]);
    ok(&restored);
    assert!(stdout(&restored).contains("! api/v1/activity/demo.ics"));
    assert_eq!(uploaded(&server.take_log()), ["api/v1/activity/demo.ics"]);
}

#[test]
fn bad_credentials_and_a_missing_bucket_are_clear_errors() {
    let server = S3Server::start();
    let root = fixture_root(None);
    build(root.path());
    let denied = publish(
        &server,
        root.path(),
        &[],
        &[("AWS_SECRET_ACCESS_KEY", "wrong")],
    );
    assert_eq!(denied.status.code(), Some(2));
    assert!(
        stderr(&denied).contains("refused the credentials"),
        "{}",
        stderr(&denied)
    );

    let missing = publish_to(
        &server,
        "s3://no-such-bucket/x",
        root.path(),
        &["--dry-run"],
        &[],
    );
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        stderr(&missing).contains("`no-such-bucket` does not exist"),
        "{}",
        stderr(&missing)
    );

    let nokeys = publish(
        &server,
        root.path(),
        &[],
        &[("AWS_ACCESS_KEY_ID", ""), ("AWS_SECRET_ACCESS_KEY", "")],
    );
    assert_eq!(nokeys.status.code(), Some(2));
    assert!(
        stderr(&nokeys).contains("no credentials"),
        "{}",
        stderr(&nokeys)
    );
    assert!(server.keys().is_empty(), "nothing was written");
}

#[test]
fn throttling_and_server_errors_are_retried() {
    let server = S3Server::start();
    let root = fixture_root(None);
    build(root.path());
    server
        .fail_next
        .store(3, std::sync::atomic::Ordering::SeqCst);
    ok(&publish(&server, root.path(), &[], &[]));
    assert_complete(&server, root.path());
}

#[test]
fn a_stale_site_foreign_objects_and_data_errors_are_refused() {
    let server = S3Server::start();
    let root = fixture_root(None);
    build(root.path());
    let data = root.path().join("data/demo/zh-CN.json");
    let text = std::fs::read_to_string(&data).unwrap();
    std::fs::write(
        &data,
        text.replacen("\"version\": \"", "\"version\": \"9", 1),
    )
    .unwrap();
    let stale = publish(&server, root.path(), &[], &[]);
    assert_eq!(stale.status.code(), Some(2));
    assert!(
        stderr(&stale).contains("older than the data"),
        "{}",
        stderr(&stale)
    );

    std::fs::write(&data, "{ not json").unwrap();
    let broken = publish(&server, root.path(), &[], &[]);
    assert_eq!(broken.status.code(), Some(2));
    assert!(
        stderr(&broken).contains("the data has errors"),
        "{}",
        stderr(&broken)
    );
    std::fs::write(&data, text).unwrap();
    assert!(
        server.take_log().is_empty(),
        "no request before the site is known good"
    );

    server.put_foreign("activity/index.html", b"someone else's page\n");
    let foreign = publish(&server, root.path(), &[], &[]);
    assert_eq!(foreign.status.code(), Some(2));
    assert!(
        stderr(&foreign).contains("not created by activity-site"),
        "{}",
        stderr(&foreign)
    );
    assert!(stderr(&foreign).contains("index.html"));
    assert_eq!(
        server.object("activity/index.html").as_deref(),
        Some(&b"someone else's page\n"[..])
    );
    ok(&publish(&server, root.path(), &["--adopt"], &[]));
    assert_complete(&server, root.path());

    server.put_foreign(MANIFEST, b"{\"files\": {}}\n");
    let alien = publish(&server, root.path(), &["--delete"], &[]);
    assert_eq!(alien.status.code(), Some(2));
    assert!(
        stderr(&alien).contains("not a manifest of activity-site"),
        "{}",
        stderr(&alien)
    );
    assert!(
        server.object("activity/index.html").is_some(),
        "nothing removed"
    );
}

#[test]
fn precompressed_siblings_are_uploaded_with_their_encoding_when_asked() {
    let server = S3Server::start();
    let root = fixture_root(None);
    // The default level writes .gz siblings only; max writes .br too.
    let output = run(
        root.path(),
        &[
            "build",
            "--out",
            "site",
            "--compress",
            "max",
            "--now",
            FIXTURE_NOW,
        ],
    );
    assert!(output.status.success(), "build failed: {}", stderr(&output));
    ok(&publish(&server, root.path(), &["--precompressed"], &[]));
    let br = server.attributes("activity/api/v1/games.json.br");
    assert_eq!(br["content_encoding"], "br");
    assert_eq!(br["content_type"], "application/json; charset=utf-8");
    let gz = server.attributes("activity/index.html.gz");
    assert_eq!(gz["content_encoding"], "gzip");
    assert!(server.object("activity/_headers").is_none());
}

/// Issue 45: a page is a function of the data, so publishing a rebuild of
/// unchanged data at a later moment (a day on, the clock of a scheduled
/// job) sends no upload at all, pages included.
#[test]
fn a_rebuild_of_unchanged_data_a_day_later_uploads_nothing() {
    let server = S3Server::start();
    let root = fixture_root(None);
    build(root.path());
    ok(&publish(&server, root.path(), &[], &[]));
    let first = uploaded(&server.take_log());
    assert!(first.iter().any(|p| p.ends_with("index.html")), "{first:?}");

    let later = "2026-10-16T12:00:00";
    let output = run(root.path(), &["build", "--out", "site", "--now", later]);
    assert!(output.status.success(), "build failed: {}", stderr(&output));
    let again = publish(&server, root.path(), &[], &[]);
    ok(&again);
    let log = server.take_log();
    assert_eq!(uploaded(&log), Vec::<String>::new(), "{log:?}");
    assert!(
        !log.iter()
            .any(|r| r.method == "PUT" || r.method == "DELETE"),
        "{log:?}"
    );
    assert!(
        stdout(&again).contains("0 objects (0 B) uploaded"),
        "{}",
        stdout(&again)
    );
    assert_complete(&server, root.path());
}
