//! The build cache: warm builds byte-identical to cold ones through edits,
//! additions, renames and removals; only the dependants of a change are
//! rendered again; damaged entries and other versions miss; deferred siblings.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use activity_site::site::{self, BuildOptions, CacheOptions, CacheSalt};
use serde_json::Value;

use crate::util::{copy_tree, files_under, run, stderr};

const NOW: &str = "2026-11-22T12:00:00";

/// A temp root holding the five-game fixture (two locales each).
fn bundled_root() -> tempfile::TempDir {
    crate::util::five_games()
}

/// Builds `root` into `site` with the default cache and returns how many
/// parts came from the cache and how many there were.
fn warm_build(root: &Path) -> (usize, usize) {
    let output = run(root, &["build", "--out", "site", "--now", NOW]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(0), "{err}");
    // The summary line (a note about --site-url may come before it).
    let line = err
        .lines()
        .find(|l| l.starts_with("built "))
        .unwrap_or(&err);
    let counts = line
        .split_once(" (")
        .and_then(|(_, rest)| rest.split_once(" parts from the cache;"))
        .map(|(counts, _)| counts)
        .unwrap_or_else(|| panic!("no cache counts in {err}"));
    let (reused, total) = counts.split_once(" of ").unwrap();
    (reused.parse().unwrap(), total.parse().unwrap())
}

/// Builds `root` into `cold` without the cache; returns the files.
fn cold_build(root: &Path) -> BTreeMap<String, Vec<u8>> {
    let output = run(
        root,
        &["build", "--out", "cold", "--no-cache", "--now", NOW],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    files_under(&root.join("cold"))
}

/// Warm and cold builds of `root` give the same files; returns the warm counts.
fn assert_warm_is_cold(root: &Path, step: &str) -> (usize, usize) {
    let counts = warm_build(root);
    let warm = files_under(&root.join("site"));
    let cold = cold_build(root);
    assert_eq!(
        warm.keys().collect::<Vec<_>>(),
        cold.keys().collect::<Vec<_>>(),
        "{step}: different files"
    );
    for (path, bytes) in &warm {
        assert!(cold[path] == *bytes, "{step}: {path} differs");
    }
    counts
}

/// The output's manifest ([`activity_site::layout::OUTPUT_MANIFEST`]):
/// what each file was built from, the compression and the tool's salt
/// included.
const MANIFEST: &str = ".activity-site-manifest";

fn without_manifest(mut files: BTreeMap<String, Vec<u8>>) -> BTreeMap<String, Vec<u8>> {
    files.remove(MANIFEST);
    files
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn write_json(path: &Path, value: &Value) {
    let mut text = serde_json::to_string_pretty(value).unwrap();
    text.push('\n');
    std::fs::write(path, text).unwrap();
}

/// A warm build writes what a cold build writes, byte for byte, after
/// edits of a game, of the registry and of the announcements.
#[test]
fn warm_builds_match_cold_builds_through_edits_renames_and_removals() {
    let root = bundled_root();
    let root = root.path();
    let (reused, total) = assert_warm_is_cold(root, "first build");
    assert_eq!(reused, 0, "an empty cache has nothing to give");
    assert!(
        total >= 25,
        "five games in two locales give at least 25 parts, got {total}"
    );
    // The first build left the output's twin beside it, every file shared,
    // for the next build to replace only what it changes.
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        let inode = |dir: &str| {
            std::fs::metadata(root.join(dir).join("api/v1/activity/sr.json"))
                .unwrap()
                .ino()
        };
        assert_eq!(inode("site"), inode(".site.previous"));
    }

    // One activity of one locale renamed: that document's JSON and
    // calendars, its page, the index and the home and timeline pages of
    // its language (which list the activities not ended yet) are rendered
    // again; the other locale's files and pages are not.
    let ww = root.join("data/ww/zh-CN.json");
    let original = std::fs::read(&ww).unwrap();
    let mut doc = read_json(&ww);
    doc["activities"][0]["name"] = Value::from("改名的活动");
    write_json(&ww, &doc);
    let (reused, total) = assert_warm_is_cold(root, "edit");
    assert_eq!(
        total - reused,
        5,
        "an edit of one file rendered {} of {total} parts",
        total - reused
    );

    // A game added to games.json, with its data.
    let games_path = root.join("games.json");
    let mut games = crate::util::with_game_copy(&read_json(&games_path), "ww", "ww2");
    write_json(&games_path, &games);
    copy_tree(&root.join("data/ww"), &root.join("data/ww2"));
    let (reused, _) = assert_warm_is_cold(root, "game added");
    assert!(reused > 0, "the other games come from the cache");

    // The new game renamed: its folder and its id.
    std::fs::rename(root.join("data/ww2"), root.join("data/wx")).unwrap();
    let last = games["games"].as_array().unwrap().len() - 1;
    games["games"][last]["id"] = Value::from("wx");
    write_json(&games_path, &games);
    assert_warm_is_cold(root, "game renamed");

    // A data file removed with its locale, then the whole game removed.
    std::fs::remove_file(root.join("data/wx/en-US.json")).unwrap();
    games["games"][last]["locales"] = serde_json::json!(["zh-CN"]);
    games["games"][last]["name"] = Value::from("鸣潮二");
    write_json(&games_path, &games);
    assert_warm_is_cold(root, "locale removed");
    games["games"].as_array_mut().unwrap().pop();
    write_json(&games_path, &games);
    std::fs::remove_dir_all(root.join("data/wx")).unwrap();
    assert_warm_is_cold(root, "game removed");

    // An announcements board added, edited, then removed.
    let board = root.join("data/_announcements/zh-CN.json");
    std::fs::create_dir_all(board.parent().unwrap()).unwrap();
    let text = |id: u64, title: &str| {
        serde_json::json!({
            "id": id,
            "announcements": [{"title": title, "content": "Hello."}]
        })
    };
    write_json(&board, &text(1, "First"));
    assert_warm_is_cold(root, "board added");
    write_json(&board, &text(2, "Second"));
    assert_warm_is_cold(root, "board edited");
    std::fs::remove_dir_all(board.parent().unwrap()).unwrap();
    assert_warm_is_cold(root, "board removed");

    // Back to the first inputs: every part is still in the cache.
    std::fs::write(&ww, original).unwrap();
    let (reused, total) = assert_warm_is_cold(root, "edit undone");
    assert_eq!(reused, total, "the first build's parts are all cached");
}

/// The cache entries (named by their key) under `dir`.
fn entries(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.len() >= 64 && name[..64].bytes().all(|b| b.is_ascii_hexdigit())
        })
        .collect();
    found.sort();
    found
}

#[test]
fn damaged_or_foreign_cache_entries_are_ignored_and_rewritten() {
    let root = bundled_root();
    let root = root.path();
    let (_, total) = warm_build(root);
    let good = files_under(&root.join("site"));
    let found = entries(&CacheOptions::default_dir(root));
    assert_eq!(found.len(), total, "one entry per part");

    // A third of the entries truncated, a third with a byte flipped in the
    // middle, a third holding another entry's bytes.
    let first = std::fs::read(&found[0]).unwrap();
    for (i, path) in found.iter().enumerate() {
        let mut bytes = std::fs::read(path).unwrap();
        match i % 3 {
            0 => bytes.truncate(bytes.len() / 2),
            1 => {
                let middle = bytes.len() / 2;
                bytes[middle] ^= 0x20;
            }
            _ => bytes = first.clone(),
        }
        std::fs::write(path, bytes).unwrap();
    }
    // Without the output, which a warm build would take files from first.
    std::fs::remove_dir_all(root.join("site")).unwrap();
    let (reused, _) = warm_build(root);
    assert_eq!(reused, 0, "no damaged entry is used");
    assert_eq!(files_under(&root.join("site")), good);

    // The entries were rewritten: the next build takes everything.
    std::fs::remove_dir_all(root.join("site")).unwrap();
    let (reused, total) = warm_build(root);
    assert_eq!(reused, total);
    assert_eq!(files_under(&root.join("site")), good);
}

fn options(root: &Path, salt: &CacheSalt, defer_brotli: bool) -> BuildOptions {
    let defer = if defer_brotli {
        site::Defer::Brotli
    } else {
        site::Defer::Nothing
    };
    options_at(root, salt, defer, site::Compression::default())
}

fn options_at(
    root: &Path,
    salt: &CacheSalt,
    defer: site::Defer,
    compression: site::Compression,
) -> BuildOptions {
    BuildOptions {
        root: root.to_path_buf(),
        out: root.join("site"),
        now: activity_site::model::Time::parse(NOW).map(|t| t.naive().into()),
        cache: Some(CacheOptions {
            dir: root.join("cache"),
            salt: salt.clone(),
        }),
        compression,
        defer,
        force: false,
        progress: None,
        site_url: None,
        loader: Default::default(),
    }
}

/// Builds through the library; returns (reused, rendered, deferred).
fn build_with(root: &Path, salt: &CacheSalt, defer: bool) -> (usize, usize, usize) {
    let outcome = site::build(&options(root, salt, defer)).unwrap();
    let summary = outcome.summary.expect("the bundled data builds");
    (summary.reused, summary.rendered, summary.deferred)
}

#[test]
fn another_tool_version_or_template_misses_the_cache() {
    let root = bundled_root();
    let root = root.path();
    let salt = CacheSalt {
        tool: "1.0.0".to_owned(),
        templates: "templates-a".to_owned(),
    };
    let (reused, rendered, _) = build_with(root, &salt, false);
    assert_eq!(reused, 0);
    let good = files_under(&root.join("site"));
    let (reused, again, _) = build_with(root, &salt, false);
    assert_eq!((reused, again), (rendered, 0), "same salt: all cached");

    let newer = CacheSalt {
        tool: "1.0.1".to_owned(),
        ..salt.clone()
    };
    assert_eq!(
        build_with(root, &newer, false).0,
        0,
        "new version: none cached"
    );
    let restyled = CacheSalt {
        templates: "templates-b".to_owned(),
        ..salt.clone()
    };
    assert_eq!(
        build_with(root, &restyled, false).0,
        0,
        "new templates: none cached"
    );
    // The same files; only the output's manifest, which records the
    // fingerprints the salt is part of, differs.
    assert_eq!(
        without_manifest(files_under(&root.join("site"))),
        without_manifest(good)
    );

    // The binary's own salt follows its version and templates.
    let current = CacheSalt::current();
    assert_eq!(current.tool, env!("CARGO_PKG_VERSION"));
    assert_ne!(current, salt);
}

/// Builds `root` into `out` with the default cache and `args`; returns
/// (parts from the cache, parts) and the files.
fn build_into(
    root: &Path,
    out: &str,
    args: &[&str],
) -> ((usize, usize), BTreeMap<String, Vec<u8>>) {
    let mut all = vec!["build", "--out", out, "--now", NOW];
    all.extend_from_slice(args);
    let output = run(root, &all);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(0), "{err}");
    let counts = err
        .split_once(" (")
        .and_then(|(_, rest)| rest.split_once(" parts from the cache;"))
        .and_then(|(counts, _)| counts.split_once(" of "))
        .map(|(reused, total)| (reused.parse().unwrap(), total.parse().unwrap()))
        .unwrap_or_else(|| panic!("no cache counts in {err}"));
    (counts, files_under(&root.join(out)))
}

#[test]
fn builds_are_byte_identical_across_runs_and_with_the_cache_at_every_level() {
    let root = bundled_root();
    let root = root.path();
    for level in ["fast", "max", "none"] {
        let flag = ["--compress", level];
        let (_, cold) = build_into(root, "a", &[&flag[..], &["--no-cache"]].concat());
        let (_, again) = build_into(root, "b", &[&flag[..], &["--no-cache"]].concat());
        assert!(cold == again, "{level}: two cold builds differ");
        let ((reused, _), filled) = build_into(root, "c", &flag);
        assert_eq!(reused, 0, "{level}: nothing cached at this level yet");
        assert!(
            filled == cold,
            "{level}: the build that fills the cache differs"
        );
        let ((reused, total), warm) = build_into(root, "c", &flag);
        assert_eq!(reused, total, "{level}: all from the cache");
        assert!(warm == cold, "{level}: the build from the cache differs");
    }
}

#[test]
fn a_changed_compression_option_misses_the_cache() {
    let root = bundled_root();
    let root = root.path();
    let ((_, total), fast) = build_into(root, "site", &[]);
    assert_eq!(build_into(root, "site", &[]).0, (total, total));
    // Another level: nothing from the cache, and its own siblings.
    let ((reused, _), max) = build_into(root, "site", &["--compress", "max"]);
    assert_eq!(reused, 0, "max misses the entries of fast");
    let ((reused, _), none) = build_into(root, "site", &["--compress", "none"]);
    assert_eq!(reused, 0, "none misses the entries of fast and max");
    assert!(
        !none
            .keys()
            .any(|p| p.ends_with(".br") || p.ends_with(".gz"))
    );
    let primary = |files: &BTreeMap<String, Vec<u8>>| -> BTreeMap<String, Vec<u8>> {
        files
            .iter()
            .filter(|(p, _)| !p.ends_with(".br") && !p.ends_with(".gz") && *p != MANIFEST)
            .map(|(p, b)| (p.clone(), b.clone()))
            .collect()
    };
    assert!(primary(&fast) == primary(&none) && primary(&max) == primary(&none));
    // The smallest siblings at max, and different bytes from fast.
    let size = |files: &BTreeMap<String, Vec<u8>>, ext: &str| -> usize {
        files
            .iter()
            .filter(|(p, _)| p.ends_with(ext))
            .map(|(_, b)| b.len())
            .sum()
    };
    // Fast writes one gzip sibling per text file and no brotli; max both.
    assert_eq!(size(&fast, ".br"), 0, "fast writes no brotli");
    assert!(size(&max, ".br") > 0, "max writes brotli");
    assert!(size(&max, ".gz") < size(&fast, ".gz"), ".gz: max smaller");
    // Each level keeps its entries: back to fast, all from the cache.
    let ((reused, total), again) = build_into(root, "site", &[]);
    assert_eq!(reused, total);
    assert!(again == fast);
}

#[test]
fn deferred_siblings_are_added_by_the_next_build() {
    let root = bundled_root();
    let root = root.path();
    let salt = CacheSalt::current();
    let max = site::Compression::Max;
    let build_at = |defer| {
        let outcome = site::build(&options_at(root, &salt, defer, max)).unwrap();
        let summary = outcome.summary.expect("the bundled data builds");
        (summary.rendered, summary.deferred)
    };
    let (_, deferred) = build_at(site::Defer::Brotli);
    assert!(deferred > 0);
    let quick = files_under(&root.join("site"));
    assert!(!quick.keys().any(|p| p.ends_with(".br")), "no brotli yet");
    assert!(quick.contains_key("api/v1/activity/ww.json.gz"));

    // After an edit, `serve` leaves every sibling for later.
    let data = root.join("data/ww/zh-CN.json");
    let text = std::fs::read_to_string(&data).unwrap();
    let mut doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    doc["activities"][0]["description"] = serde_json::Value::from("先不压缩的说明");
    std::fs::write(&data, serde_json::to_string_pretty(&doc).unwrap() + "\n").unwrap();
    let (_, deferred) = build_at(site::Defer::All);
    assert!(deferred > 0);
    let edited = files_under(&root.join("site"));
    assert!(edited.contains_key("api/v1/activity/ww-zh-CN.json"));
    assert!(!edited.contains_key("api/v1/activity/ww-zh-CN.json.gz"));
    assert!(!edited.contains_key("api/v1/games.json.gz"));
    assert!(
        edited.contains_key("api/v1/activity/sr.json.gz"),
        "an untouched game keeps its siblings"
    );

    let (rendered, deferred) = build_at(site::Defer::Nothing);
    assert_eq!(deferred, 0);
    assert!(rendered > 0, "the deferred parts were not cached");
    let full = files_under(&root.join("site"));
    assert!(full.contains_key("api/v1/activity/ww.json.br"));
    assert!(full.contains_key("api/v1/activity/ww-zh-CN.json.gz"));
    let output = run(
        root,
        &[
            "build",
            "--out",
            "cold",
            "--no-cache",
            "--compress",
            "max",
            "--now",
            NOW,
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(full, files_under(&root.join("cold")));
}

#[test]
fn the_default_level_has_nothing_to_defer() {
    let root = bundled_root();
    let root = root.path();
    let (_, _, deferred) = build_with(root, &CacheSalt::current(), true);
    assert_eq!(deferred, 0);
    let files = files_under(&root.join("site"));
    assert!(!files.keys().any(|p| p.ends_with(".br")));
    assert!(files.contains_key("api/v1/activity/ww.json.gz"));
    assert_eq!(files, cold_build(root));
}

#[test]
fn a_cache_directory_the_tool_did_not_make_is_refused() {
    let root = bundled_root();
    let root = root.path();
    let mine = root.join("mine");
    std::fs::create_dir(&mine).unwrap();
    std::fs::write(mine.join("notes.txt"), "keep me").unwrap();
    let output = run(root, &["build", "--out", "site", "--cache-dir", "mine"]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("help: "), "{}", stderr(&output));
    assert_eq!(files_under(&mine).len(), 1);
    assert!(!root.join("site").exists(), "nothing written");

    let inside = run(
        root,
        &["build", "--out", "site", "--cache-dir", "site/cache"],
    );
    assert_eq!(inside.status.code(), Some(2), "{}", stderr(&inside));
    assert!(
        stderr(&inside).contains("inside the output"),
        "{}",
        stderr(&inside)
    );
}

/// A rebuild links the files the previous site holds byte for byte instead
/// of writing them again, and never carries over a file someone changed in
/// the output or a link planted there.
#[cfg(unix)]
#[test]
fn a_rebuild_links_unchanged_files_and_replaces_changed_ones() {
    use std::os::unix::fs::MetadataExt as _;

    let root = bundled_root();
    let root = root.path();
    warm_build(root);
    let site = root.join("site");
    let inode = |rel: &str| std::fs::symlink_metadata(site.join(rel)).unwrap().ino();
    let untouched = "api/v1/activity/sr.json";
    let edited = "api/v1/activity/ww-zh-CN.json";
    let tampered = "sr/index.html";
    let planted = "api/v1/activity/ys.json";
    let before = (inode(untouched), inode(edited));
    let want_tampered = std::fs::read(site.join(tampered)).unwrap();
    let want_planted = std::fs::read(site.join(planted)).unwrap();

    // Someone edits a generated page in place and swaps a document for a
    // link to a file of theirs; the data of one game changes.
    std::fs::write(site.join(tampered), "edited by hand").unwrap();
    let theirs = root.join("theirs.json");
    std::fs::write(&theirs, &want_planted).unwrap();
    std::fs::remove_file(site.join(planted)).unwrap();
    std::os::unix::fs::symlink(&theirs, site.join(planted)).unwrap();
    let ww = root.join("data/ww/zh-CN.json");
    let mut doc = read_json(&ww);
    doc["activities"][0]["name"] = Value::from("改名的活动");
    write_json(&ww, &doc);

    let counts = assert_warm_is_cold(root, "rebuild");
    assert_eq!(counts.1 - counts.0, 5, "{counts:?}");
    assert_eq!(inode(untouched), before.0, "an unchanged file is linked");
    assert_ne!(inode(edited), before.1, "a changed file is written anew");
    assert_eq!(std::fs::read(site.join(tampered)).unwrap(), want_tampered);
    let meta = std::fs::symlink_metadata(site.join(planted)).unwrap();
    assert!(meta.file_type().is_file(), "the planted link is replaced");
    assert_eq!(std::fs::read(site.join(planted)).unwrap(), want_planted);
    assert_eq!(
        std::fs::read(&theirs).unwrap(),
        want_planted,
        "their file is untouched"
    );
    assert!(!site.join("api/v1/activity/sr.json").is_symlink());
    let leftovers: Vec<_> = std::fs::read_dir(root)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.contains("staging"))
        .collect();
    assert!(
        leftovers.is_empty(),
        "the previous site is removed: {leftovers:?}"
    );
}

/// Issue 36: checks that every document the index names holds the bytes
/// its checksum and size say.
fn assert_index_checksums(site: &Path) {
    use sha2::{Digest as _, Sha256};
    let index = read_json(&site.join("api/v1/games.json"));
    let mut seen = 0;
    for game in index["games"].as_array().unwrap() {
        for file in game["files"].as_array().unwrap() {
            let path = file["path"].as_str().unwrap().trim_start_matches('/');
            let bytes = std::fs::read(site.join(path)).unwrap();
            assert_eq!(
                file["sha256"].as_str().unwrap(),
                hex::encode(Sha256::digest(&bytes)),
                "{path}"
            );
            assert_eq!(
                file["bytes"].as_u64().unwrap(),
                bytes.len() as u64,
                "{path}"
            );
            seen += 1;
        }
    }
    assert!(seen > 0);
}

/// Runs a build of `root` into `site` that the test hook ends abruptly
/// (as a kill would) after it has written `files` files.
fn killed_build(root: &Path, files: usize) {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_activity-site"))
        .args(["build", "--out", "site", "--now", NOW])
        .current_dir(root)
        .env("ACTIVITY_SITE_TEST_STOP_AFTER", files.to_string())
        .output()
        .unwrap();
    assert!(!output.status.success(), "{}", stderr(&output));
    assert_eq!(output.status.code(), None, "ended by a signal");
}

/// Issue 36: a warm build with nothing changed writes nothing; after a
/// one-line edit it writes the files that changed, byte for byte what a
/// cold build writes (the index's checksums included), edit after edit.
#[cfg(unix)]
#[test]
fn an_unchanged_tree_writes_nothing_and_an_edit_only_its_files() {
    use std::os::unix::fs::MetadataExt as _;

    let root = bundled_root();
    let root = root.path();
    assert_warm_is_cold(root, "first build");
    let site = root.join("site");
    let ino = |rel: &str| std::fs::symlink_metadata(site.join(rel)).unwrap().ino();
    let before = (ino("."), ino(MANIFEST), ino("api/v1/activity/sr.json"));
    let (reused, total) = assert_warm_is_cold(root, "nothing changed");
    assert_eq!(reused, total);
    assert_eq!(
        (ino("."), ino(MANIFEST), ino("api/v1/activity/sr.json")),
        before,
        "nothing changed: nothing written, the output not replaced"
    );

    let ww = root.join("data/ww/zh-CN.json");
    for step in 0..3 {
        let mut doc = read_json(&ww);
        doc["activities"][0]["description"] = Value::from(format!("改过 {step} 次的说明"));
        write_json(&ww, &doc);
        let untouched = ino("api/v1/activity/sr.json");
        let edited = ino("api/v1/activity/ww-zh-CN.json");
        assert_warm_is_cold(root, &format!("edit {step}"));
        assert_index_checksums(&site);
        assert_eq!(ino("api/v1/activity/sr.json"), untouched, "edit {step}");
        assert_ne!(ino("api/v1/activity/ww-zh-CN.json"), edited, "edit {step}");
        assert!(
            std::fs::read_to_string(site.join("api/v1/activity/ww-zh-CN.json"))
                .unwrap()
                .contains(&format!("改过 {step} 次的说明"))
        );
    }
}

/// Issue 36: a build killed while it writes leaves the previous site whole
/// (every file, its manifest included), and the next build recovers from
/// whatever the killed one left beside the output.
#[cfg(unix)]
#[test]
fn a_build_killed_midway_leaves_the_previous_site_whole() {
    let root = bundled_root();
    let root = root.path();
    let site = root.join("site");
    assert_warm_is_cold(root, "first build");
    let ww = root.join("data/ww/zh-CN.json");
    for step in 0..3 {
        let before = files_under(&site);
        let mut doc = read_json(&ww);
        doc["activities"][0]["name"] = Value::from(format!("第 {step} 次改名"));
        write_json(&ww, &doc);
        killed_build(root, 1 + step);
        assert!(
            files_under(&site) == before,
            "step {step}: the site changed"
        );
        assert_warm_is_cold(root, &format!("after the kill {step}"));
        assert_index_checksums(&site);
    }
}

/// Issue 36: a game taken out of `games.json` (its data removed) takes
/// its files with it, folders included, as a cold build would.
#[test]
fn a_removed_games_files_disappear() {
    let root = bundled_root();
    let root = root.path();
    let site = root.join("site");
    assert_warm_is_cold(root, "first build");
    // A second build after an edit, so the kept previous output is in use.
    let ww = root.join("data/ww/zh-CN.json");
    let mut doc = read_json(&ww);
    doc["activities"][0]["description"] = Value::from("改过的说明");
    write_json(&ww, &doc);
    assert_warm_is_cold(root, "edit");
    assert!(site.join("sr/index.html").is_file());
    let games_path = root.join("games.json");
    let mut games = read_json(&games_path);
    games["games"]
        .as_array_mut()
        .unwrap()
        .retain(|g| g["id"] != "sr");
    write_json(&games_path, &games);
    std::fs::remove_dir_all(root.join("data/sr")).unwrap();
    for step in ["game removed", "built again"] {
        assert_warm_is_cold(root, step);
        let left: Vec<String> = files_under(&site)
            .into_keys()
            .filter(|p| p.starts_with("sr/") || p.starts_with("api/v1/activity/sr"))
            .collect();
        assert!(left.is_empty(), "{step}: {left:?}");
        assert!(
            !site.join("sr").exists(),
            "{step}: the game's folder goes too"
        );
        assert_index_checksums(&site);
    }
}

/// Issue 36: `build` draws no progress bar when its stderr is not a terminal.
#[test]
fn build_prints_no_progress_when_piped() {
    let root = bundled_root();
    let output = run(
        root.path(),
        &[
            "build",
            "--out",
            "site",
            "--now",
            NOW,
            "--site-url",
            "https://example.org/",
        ],
    );
    assert_eq!(output.status.code(), Some(0));
    let err = stderr(&output);
    // No bar (it redraws with `\r` and escapes): only the summary line
    // (and, with the site's address given, no note about it).
    assert!(!err.contains('\r') && !err.contains('\x1b'), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("built "), "{err}");
}

/// Issue 36: where the file system has no hard links, the files the new
/// site shares with the output are copied: the same site, no shared inode.
#[cfg(unix)]
#[test]
fn without_hard_links_files_are_copied_and_the_site_is_the_same() {
    use std::os::unix::fs::MetadataExt as _;

    let root = bundled_root();
    let root = root.path();
    let build = || {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_activity-site"))
            .args(["build", "--out", "site", "--now", NOW])
            .current_dir(root)
            .env("ACTIVITY_SITE_TEST_NO_HARD_LINKS", "1")
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    };
    build();
    let ww = root.join("data/ww/zh-CN.json");
    for step in 0..3 {
        let mut doc = read_json(&ww);
        doc["activities"][0]["description"] = Value::from(format!("无硬链接 {step}"));
        write_json(&ww, &doc);
        build();
        let warm = files_under(&root.join("site"));
        assert!(
            warm == cold_build(root),
            "step {step}: differs from a cold build"
        );
        let previous = root.join(".site.previous/api/v1/activity/sr.json");
        if previous.exists() {
            let ino = |p: &Path| std::fs::metadata(p).unwrap().ino();
            assert_ne!(
                ino(&previous),
                ino(&root.join("site/api/v1/activity/sr.json")),
                "step {step}: a copy, not a link"
            );
        }
    }
}

/// The "N of M games checked" of a build's summary line.
fn games_checked(err: &str) -> (usize, usize) {
    let line = err.lines().find(|l| l.starts_with("built ")).unwrap_or(err);
    let counts = line
        .split_once("; ")
        .and_then(|(_, rest)| rest.split_once(" games checked"))
        .and_then(|(counts, _)| counts.split_once(" of "))
        .unwrap_or_else(|| panic!("no game counts in {err}"));
    (counts.0.parse().unwrap(), counts.1.parse().unwrap())
}

/// Issue 36: a warm build checks again only the games whose inputs changed
/// since a check that found nothing in them (the output's manifest keeps
/// the key of those inputs); a game with a warning is checked every time,
/// and a changed schema checks every game again, so the diagnostics are
/// those of a cold build.
#[test]
fn a_warm_build_checks_only_the_games_whose_inputs_changed() {
    let root = bundled_root();
    let root = root.path();
    let build = || {
        let output = run(root, &["build", "--out", "site", "--now", NOW]);
        (output.status.code(), stderr(&output))
    };
    let games = read_json(&root.join("games.json"))["games"]
        .as_array()
        .unwrap()
        .len();

    let (code, err) = build();
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(games_checked(&err), (games, games), "cold: every game");
    let (code, err) = build();
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(games_checked(&err), (0, games), "nothing changed");

    // A description edited: that game only.
    let file = root.join("data/ww/zh-CN.json");
    let mut doc = read_json(&file);
    doc["activities"][0]["description"] = Value::from("checked again");
    write_json(&file, &doc);
    let (code, err) = build();
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(games_checked(&err), (1, games), "{err}");

    // A warning: its game checked by every build; shown in full by the
    // first, then counted as unchanged since the previous build (issue 44).
    let name = doc["activities"][0]["name"].as_str().unwrap().to_owned();
    doc["activities"][0]["name"] = Value::from(format!("{name} "));
    write_json(&file, &doc);
    for shown in [true, false] {
        let (code, err) = build();
        assert_eq!(code, Some(0), "{err}");
        assert_eq!(err.contains("warning[whitespace]"), shown, "{err}");
        assert_eq!(
            err.contains("1 warning unchanged since the previous build"),
            !shown,
            "{err}"
        );
        assert_eq!(games_checked(&err), (1, games), "{err}");
    }

    // A schema that every document now fails: every game is checked
    // again, the build fails and the site stays as it was.
    let before = files_under(&root.join("site"));
    let schema_path = root.join("schema/activity.schema.json");
    let mut schema = read_json(&schema_path);
    schema["required"]
        .as_array_mut()
        .unwrap()
        .push(Value::from("newRequiredField"));
    write_json(&schema_path, &schema);
    let (code, err) = build();
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("newRequiredField"), "{err}");
    assert_eq!(files_under(&root.join("site")), before);
}
