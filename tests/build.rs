//! `build`, `fmt` and `status`: output files, determinism, atomicity, canonical form.

use std::path::Path;

use crate::util::{FIXTURE_NOW, crate_root, files_under, fixture_root, run, stderr, stdout};

fn build(root: &Path, out: &str) -> std::process::Output {
    run(root, &["build", "--out", out, "--now", FIXTURE_NOW])
}

#[test]
fn build_writes_the_api_index_and_schema() {
    let root = fixture_root(None);
    let output = build(root.path(), "site");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("built site:"),
        "{}",
        stderr(&output)
    );
    let site = root.path().join("site");
    let files = files_under(&site);
    for path in [
        "api/v1/activity/demo.json",
        "api/v1/activity/demo-zh-CN.json",
        "api/v1/activity/demo-en-US.json",
        "api/v1/games.json",
        "api/v1/schema/activity.json",
    ] {
        assert!(
            files.contains_key(path),
            "{path} missing; have {:?}",
            files.keys().collect::<Vec<_>>()
        );
    }
    // The default-locale file is the zh-CN document, without `$schema`.
    assert_eq!(
        files["api/v1/activity/demo.json"],
        files["api/v1/activity/demo-zh-CN.json"]
    );
    let doc = String::from_utf8(files["api/v1/activity/demo-en-US.json"].clone()).unwrap();
    assert!(!doc.contains("$schema"));
    assert!(doc.ends_with("}\n"));
    insta::assert_snapshot!("api_demo_en_us", doc);

    let index: serde_json::Value = serde_json::from_slice(&files["api/v1/games.json"]).unwrap();
    let game = &index["games"][0];
    assert_eq!(game["id"], "demo");
    assert_eq!(game["version"], "1.2");
    assert_eq!(game["endTime"], "2026-11-12T03:59:59");
    let file = game["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == "/api/v1/activity/demo-en-US.json")
        .unwrap();
    use sha2::Digest as _;
    let digest = hex::encode(sha2::Sha256::digest(
        &files["api/v1/activity/demo-en-US.json"],
    ));
    assert_eq!(file["sha256"], digest);
}

#[test]
fn build_output_is_canonical_sorted_and_keyed_in_contract_order() {
    let case = crate_root().join("tests/fixtures/invalid/unsorted");
    let root = fixture_root(Some(&case));
    let output = build(root.path(), "site");
    assert_eq!(
        output.status.code(),
        Some(0),
        "warnings do not stop a build: {}",
        stderr(&output)
    );
    let doc: serde_json::Value = serde_json::from_slice(
        &std::fs::read(root.path().join("site/api/v1/activity/demo-en-US.json")).unwrap(),
    )
    .unwrap();
    let starts: Vec<&str> = doc["activities"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["startTime"].as_str().unwrap())
        .collect();
    let mut sorted = starts.clone();
    sorted.sort();
    assert_eq!(starts, sorted);
    let keys: Vec<&String> = doc.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "version",
            "versionName",
            "startTime",
            "endTime",
            "cover",
            "activities",
            // Issue 55: added after the data's own fields.
            "timeZone",
            "startsAt",
            "endsAt",
            "updateMode",
            "dueAt"
        ]
    );
    let keys: Vec<&String> = doc["activities"][0].as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "name",
            "kind",
            "description",
            "startTime",
            "endTime",
            "cover",
            "startsAt",
            "endsAt"
        ]
    );
}

#[test]
fn two_builds_give_identical_bytes() {
    let root = fixture_root(None);
    assert_eq!(build(root.path(), "a").status.code(), Some(0));
    assert_eq!(build(root.path(), "b").status.code(), Some(0));
    let a = files_under(&root.path().join("a"));
    let b = files_under(&root.path().join("b"));
    assert!(!a.is_empty());
    assert_eq!(a, b);
    // Rebuilding over an existing output gives the same bytes too.
    assert_eq!(build(root.path(), "a").status.code(), Some(0));
    assert_eq!(files_under(&root.path().join("a")), b);
}

#[test]
fn a_failing_build_leaves_the_existing_site_untouched() {
    let root = fixture_root(None);
    assert_eq!(build(root.path(), "site").status.code(), Some(0));
    let site = root.path().join("site");
    std::fs::write(site.join("marker.txt"), "from the last good build").unwrap();
    let before = files_under(&site);

    std::fs::write(root.path().join("data/demo/en-US.json"), "{\"version\": ").unwrap();
    let output = build(root.path(), "site");
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("json-syntax"),
        "{}",
        stderr(&output)
    );
    assert!(stderr(&output).contains("left as it was"));
    assert_eq!(files_under(&site), before);
    // No staging directory is left behind.
    let leftovers: Vec<_> = std::fs::read_dir(root.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("staging"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn a_failing_first_build_creates_nothing() {
    let case = crate_root().join("tests/fixtures/invalid/datetime-offset");
    let root = fixture_root(Some(&case));
    assert_eq!(build(root.path(), "site").status.code(), Some(1));
    assert!(!root.path().join("site").exists());
}

#[test]
fn build_refuses_to_replace_the_data_root() {
    let root = fixture_root(None);
    let output = run(root.path(), &["build", "--out", "."]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("refusing"), "{}", stderr(&output));
    assert!(root.path().join("games.json").exists());
}

#[test]
fn the_bundled_data_builds() {
    let (_out, target) = crate::util::build_bundled(&["--now", "2026-11-22T12:00:00"]);
    // Whatever the real registry lists today: every game's default file and
    // one file per locale (no game or version is named here, so the test
    // stays put when the data moves on).
    let registry: serde_json::Value =
        serde_json::from_slice(&std::fs::read(crate_root().join("games.json")).unwrap()).unwrap();
    let games = registry["games"].as_array().unwrap();
    assert!(!games.is_empty());
    // A locale without a document yet (`pending-locale`) is named by the
    // index as pending, and nothing is published under its name.
    let index: serde_json::Value =
        serde_json::from_slice(&std::fs::read(target.join("api/v1/games.json")).unwrap()).unwrap();
    for game in games {
        let id = game["id"].as_str().unwrap();
        let present = |locale: &str| {
            crate_root()
                .join(format!("data/{id}/{locale}.json"))
                .is_file()
        };
        let entry = index["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == id)
            .unwrap_or_else(|| panic!("{id} is not in the index"));
        let pending: Vec<&str> = entry["pending"]
            .as_array()
            .map(|p| p.iter().filter_map(|l| l.as_str()).collect())
            .unwrap_or_default();
        let mut names = vec![format!("{id}.json")];
        for locale in game["locales"].as_array().unwrap() {
            let locale = locale.as_str().unwrap();
            let name = format!("{id}-{locale}.json");
            if present(locale) {
                assert!(!pending.contains(&locale), "{id}: {locale} has a document");
                names.push(name);
            } else {
                assert!(pending.contains(&locale), "{id}: {locale} is not pending");
                assert!(
                    !target.join("api/v1/activity").join(&name).exists(),
                    "{name}"
                );
            }
        }
        for name in names {
            assert!(
                target.join("api/v1/activity").join(&name).is_file(),
                "{name}"
            );
        }
    }
}

#[test]
fn fmt_rewrites_to_canonical_form_and_keeps_schema() {
    let root = fixture_root(None);
    let path = root.path().join("data/demo/en-US.json");
    // Reorder keys, use 4-space indentation and swap two activities.
    let mut doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    doc["activities"].as_array_mut().unwrap().swap(0, 1);
    let messy = serde_json::to_string(&doc)
        .unwrap()
        .replace("\"version\":\"1.2\",", "");
    let messy = messy.replacen('{', "{\"version\":\"1.2\",", 1);
    std::fs::write(&path, &messy).unwrap();
    let zh_before = std::fs::read(root.path().join("data/demo/zh-CN.json")).unwrap();

    let output = run(root.path(), &["fmt", "--check", "--now", FIXTURE_NOW]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stdout(&output),
        "would reformat data/demo/en-US.json: key order, indentation, order of activities; \
         first difference at line 1: `{\"version\":\"1.2\",\"$schema\":\"../../schema/activity.schema.json\",\"versionName\":\"So…` → `{`\n"
    );
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        messy,
        "--check changes nothing"
    );

    let output = run(root.path(), &["fmt", "--now", FIXTURE_NOW]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let base =
        std::fs::read_to_string(crate_root().join("tests/fixtures/base/data/demo/en-US.json"))
            .unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), base);
    assert_eq!(
        std::fs::read(root.path().join("data/demo/zh-CN.json")).unwrap(),
        zh_before
    );

    let output = run(root.path(), &["fmt", "--check", "--now", FIXTURE_NOW]);
    assert_eq!(output.status.code(), Some(0));
}

#[test]
fn fmt_refuses_files_with_errors() {
    let case = crate_root().join("tests/fixtures/invalid/schema-unknown-key");
    let root = fixture_root(Some(&case));
    let path = root.path().join("data/demo/en-US.json");
    let before = std::fs::read(&path).unwrap();
    let output = run(root.path(), &["fmt", "--now", FIXTURE_NOW]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("unknown field `endTme`"),
        "{}",
        stderr(&output)
    );
    assert!(stderr(&output).contains("left 1 file with errors unchanged"));
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

#[test]
fn status_lists_the_most_urgent_first() {
    let root = fixture_root(None);
    let games = root.path().join("games.json");
    let text = std::fs::read_to_string(&games)
        .unwrap()
        .replace("\"en-US\"\n", "\"en-US\",\n        \"ja-JP\"\n");
    std::fs::write(&games, text).unwrap();
    let output = run(
        root.path(),
        &["status", "--format", "json", "--now", "2026-11-10T12:00:00"],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let rows: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0]["state"], "pending");
    assert_eq!(rows[0]["file"], "data/demo/ja-JP.json");
    assert_eq!(rows[1]["state"], "ending");
    assert_eq!(rows[1]["daysLeft"], 1);

    let output = run(root.path(), &["status", "--now", "2026-11-20T00:00:00"]);
    let text = stdout(&output);
    assert!(text.starts_with("GAME"), "{text}");
    // 7 days and 20 hours after 2026-11-12T03:59:59: whole days, rounded down.
    assert!(text.contains("7 days overdue"), "{text}");
    assert!(
        text.contains("pending: data/demo/ja-JP.json (no document yet)"),
        "{text}"
    );
}

/// Issue 17: one instant gives one day count in `check`, `status` and the
/// pages (whole days, rounded down; `model::days`). Star Rail 4.6 of the
/// five-game fixture ends 2026-11-25T05:59:59.
#[test]
fn one_instant_gives_one_day_count_everywhere() {
    let root = crate::util::five_games();
    let cases = [
        // 1 day 8 hours left: status and pages said 1 and 2.
        (
            "2026-11-23T21:36:00",
            "1 day left",
            None,
            Some(r#"data-end="2026-11-25T05:59:59+08:00""#),
        ),
        // 18 hours over: check said "18 hours ago", status "1 day overdue".
        (
            "2026-11-26T00:00:00",
            "less than a day overdue",
            Some("less than a day ago"),
            None,
        ),
        // 36 days 18 hours over: status said 37.
        (
            "2027-01-01T00:00:00",
            "36 days overdue",
            Some("36 days ago"),
            None,
        ),
    ];
    for (now, status_left, check_ago, pages) in cases {
        let output = run(root.path(), &["status", "--now", now]);
        let text = stdout(&output);
        let sr: Vec<&str> = text.lines().filter(|l| l.starts_with("sr ")).collect();
        assert_eq!(sr.len(), 2, "{text}");
        assert!(sr.iter().all(|l| l.contains(status_left)), "{now}: {text}");

        let (_, report) = crate::util::check_json(root.path(), now);
        let stale: Vec<&str> = report["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["code"] == "stale" && d["file"].as_str().unwrap().starts_with("data/sr/"))
            .map(|d| d["message"].as_str().unwrap())
            .collect();
        match check_ago {
            Some(ago) => {
                let want = format!("the version ended on 2026-11-25 05:59 ({ago})");
                assert_eq!(stale, [want.as_str(), want.as_str()], "{now}");
            }
            None => assert!(stale.is_empty(), "{now}: {stale:?}"),
        }

        let out = tempfile::tempdir().unwrap();
        let site = out.path().join("site");
        let output = run(
            root.path(),
            &["build", "--out", site.to_str().unwrap(), "--now", now],
        );
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        if let Some(script_rule) = pages {
            // The pages count days in the reader's browser, by the rule
            // of `model::days` (whole days, rounded down), from the
            // version's end with the game's offset.
            let page = std::fs::read_to_string(site.join("sr/index.html")).unwrap();
            assert!(page.contains(script_rule), "{now}");
            let script = activity_site::site::pages::SCRIPT;
            assert!(script.contains("const n = Math.floor(ms / DAY);"));
        }
    }
}

/// Issue 34: a version that starts after "now" is upcoming in `status`,
/// with the days until it starts and no days left, in text and JSON.
#[test]
fn status_shows_an_upcoming_version_as_upcoming() {
    let root = tempfile::tempdir().unwrap();
    crate::util::copy_tree(&crate_root().join("tests/fixtures/pages"), root.path());
    // `gamma` 3.0 starts 2026-11-25T11:00:00: 1 day and 23 hours later.
    let now = "2026-11-23T12:00:00";
    let output = run(root.path(), &["status", "--format", "json", "--now", now]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let rows: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let gamma: Vec<&serde_json::Value> = rows
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["game"] == "gamma")
        .collect();
    assert_eq!(gamma.len(), 2);
    for row in gamma {
        assert_eq!(row["state"], "upcoming", "{row}");
        assert_eq!(row["startsInDays"], 1, "{row}");
        assert_eq!(row["startTime"], "2026-11-25T11:00:00", "{row}");
        assert!(row["daysLeft"].is_null(), "{row}");
    }
    let output = run(root.path(), &["status", "--now", now]);
    let text = stdout(&output);
    let line = text
        .lines()
        .find(|l| l.starts_with("gamma  zh-CN"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(line.ends_with("starts in 1 day  upcoming"), "{line}");
    assert!(!line.contains("left"), "{line}");
    // Started: running, with days left.
    let output = run(root.path(), &["status", "--now", "2026-11-26T12:00:00"]);
    let text = stdout(&output);
    assert!(
        text.lines()
            .any(|l| l.starts_with("gamma  zh-CN") && l.ends_with("39 days left  ok")),
        "{text}"
    );
}

/// Issue 45: the site is a function of the data and the tool, never of the
/// moment it is built. The fixture of the pages (three games, two
/// locales, one upcoming version) with the announcements boards, built
/// through the binary at moments a day apart and again after every version
/// has ended, gives the same bytes in every file: pages and their `.gz`
/// and `.br`, calendars, the Atom feeds, the index and the manifest. A
/// rebuild of the same output a day later changes nothing either.
#[test]
fn builds_at_different_moments_are_byte_identical() {
    let moments = [
        "2026-11-24T12:00:00",
        "2026-11-25T12:00:00",
        "2027-03-01T00:00:00",
    ];
    let root = tempfile::tempdir().expect("temp dir");
    crate::util::fixture_tree(
        &crate_root().join("tests/fixtures/pages"),
        Some(&crate_root().join("tests/fixtures/announcements/real")),
        root.path(),
    );
    let sites: Vec<_> = moments
        .iter()
        .enumerate()
        .map(|(i, now)| {
            let out = format!("site-{i}");
            let output = run(
                root.path(),
                &["build", "--out", &out, "--no-cache", "--now", now],
            );
            assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
            outputs_under(&root.path().join(out))
        })
        .collect();
    let first = &sites[0];
    for kind in [
        "index.html",
        "index.html.gz",
        "alpha/en-US/index.html",
        "api/v1/activity/alpha.ics",
        "api/v1/anno.atom",
        "api/v1/games.json",
        ".activity-site-manifest",
    ] {
        assert!(first.contains_key(kind), "{kind} was not built");
    }
    for (site, now) in sites.iter().zip(moments).skip(1) {
        assert_eq!(
            first.keys().collect::<Vec<_>>(),
            site.keys().collect::<Vec<_>>(),
            "the same files at {now}"
        );
        for (path, bytes) in first {
            assert!(site[path] == *bytes, "{path} differs when built at {now}");
        }
    }
    // The same output rebuilt a day later: nothing to write.
    let again = run(
        root.path(),
        &[
            "build",
            "--out",
            "site-0",
            "--no-cache",
            "--now",
            moments[1],
        ],
    );
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
    assert!(outputs_under(&root.path().join("site-0")) == *first);
}

/// Every file of a built site but the build's own log of its warnings
/// (`layout::OUTPUT_WARNINGS`), which says what the build at that moment
/// found (a version gone stale), not what it published.
fn outputs_under(dir: &std::path::Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut files = files_under(dir);
    files.remove(activity_site::layout::OUTPUT_WARNINGS);
    files
}

/// Issue 44: a build shows in full every warning that is new since the
/// previous build; the warnings unchanged since then are counted in one
/// line that says how to see them (`check` still shows every one).
#[test]
fn a_second_build_counts_the_unchanged_warnings() {
    let root = fixture_root(None);
    // Months after the version ended: each locale's `stale` warning.
    let later = ["--now", "2027-03-01T12:00:00"];
    let first = run(root.path(), &["build", "--out", "site", later[0], later[1]]);
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    assert_eq!(
        stderr(&first).matches("warning[stale]").count(),
        2,
        "{}",
        stderr(&first)
    );

    let second = run(root.path(), &["build", "--out", "site", later[0], later[1]]);
    assert_eq!(second.status.code(), Some(0), "{}", stderr(&second));
    let said = stderr(&second);
    assert!(!said.contains("warning[stale]"), "{said}");
    assert!(
        said.contains("2 warnings unchanged since the previous build are not shown again: run `activity-site check` to see every one"),
        "{said}"
    );
    assert!(said.contains("checked: 0 errors, 2 warnings"), "{said}");

    // A new warning is shown in full among the counted ones.
    let path = root.path().join("data/demo/en-US.json");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &path,
        text.replacen(
            "https://example.org/cover.jpg",
            "http://example.org/cover.jpg",
            1,
        ),
    )
    .unwrap();
    let third = run(root.path(), &["build", "--out", "site", later[0], later[1]]);
    let said = stderr(&third);
    assert_eq!(said.matches("warning[cover-url]").count(), 1, "{said}");
    assert!(!said.contains("warning[stale]"), "{said}");
    assert!(
        said.contains("2 warnings unchanged since the previous build"),
        "{said}"
    );

    // `check` shows everything.
    let check = run(root.path(), &["check", later[0], later[1]]);
    assert_eq!(stderr(&check).matches("warning[stale]").count(), 2);
}

/// Issue 44: `fmt --check` says what would change in each file: the order
/// of keys, the indentation, the order of activities, the first differing
/// line.
#[test]
fn fmt_check_says_what_would_change() {
    let root = fixture_root(None);
    let path = root.path().join("data/demo/zh-CN.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut document: serde_json::Value = serde_json::from_str(&text).unwrap();
    document["activities"].as_array_mut().unwrap().reverse();
    std::fs::write(
        &path,
        serde_json::to_string_pretty(&document)
            .unwrap()
            .replace("  ", "\t"),
    )
    .unwrap();
    let output = run(root.path(), &["fmt", "--check"]);
    assert_eq!(output.status.code(), Some(1));
    let said = stdout(&output);
    assert!(
        said.starts_with("would reformat data/demo/zh-CN.json: "),
        "{said}"
    );
    for part in [
        "indentation",
        "order of activities",
        "; first difference at line 2: `\t\"",
    ] {
        assert!(said.contains(part), "{part:?} in {said}");
    }
    let output = run(root.path(), &["--lang", "zh-CN", "fmt", "--check"]);
    let said = stdout(&output);
    assert!(
        said.starts_with("需要整理格式：data/demo/zh-CN.json（"),
        "{said}"
    );
    for part in ["缩进", "活动的顺序", "；第一处不同在第 2 行："] {
        assert!(said.contains(part), "{part:?} in {said}");
    }
}

/// Issue 65 (load, then compute): a tree read once ([`load::load`]) is
/// checked and built from memory: its root is removed before the check and
/// the build, which find the same diagnostics and write the same site byte
/// for byte as a normal build; and a normal build enters the loader once.
#[test]
fn a_tree_held_in_memory_checks_and_builds_with_its_root_gone() {
    use activity_site::{load, site, source::Overlay, validate};

    let root = tempfile::tempdir().expect("temp dir");
    for part in ["data", "schema"] {
        crate::util::copy_tree(&crate_root().join(part), &root.path().join(part));
    }
    std::fs::copy(
        crate_root().join("games.json"),
        root.path().join("games.json"),
    )
    .unwrap();
    // A kept file too, published byte for byte.
    std::fs::create_dir_all(root.path().join("data/_files")).unwrap();
    std::fs::write(
        root.path().join("data/_files/robots.txt"),
        "User-agent: *\n",
    )
    .unwrap();
    let outs = tempfile::tempdir().expect("temp dir");
    let now = activity_site::clock::Now::from(
        chrono::NaiveDateTime::parse_from_str(FIXTURE_NOW, "%Y-%m-%dT%H:%M:%S").unwrap(),
    );
    // The loader handed to every build below counts how often it is entered.
    let loader = load::Loader::default();
    let options = |root: &Path, out: &str| site::BuildOptions {
        now: Some(now),
        cache: None,
        loader: loader.clone(),
        ..site::BuildOptions::new(root, outs.path().join(out))
    };

    let normal = site::build(&options(root.path(), "normal")).expect("the build runs");
    assert!(normal.summary.is_some(), "{:?}", normal.diagnostics);
    assert_eq!(loader.entries(), 1, "a build enters the loader once");
    let check_options = validate::Options {
        now: Some(now),
        ..Default::default()
    };
    let checked = site::check(root.path(), &check_options).expect("the check runs");

    let tree = load::load(root.path(), &Overlay::new()).expect("the tree loads");
    let kept = root.path().to_path_buf();
    drop(root);
    assert!(!kept.exists(), "the root is gone");
    let in_memory = site::check_tree(&tree, &check_options).expect("checked from memory");
    assert_eq!(in_memory.diagnostics, checked.diagnostics);
    let (built, _) =
        site::build_loaded(&options(&kept, "memory"), tree).expect("built from memory");
    assert!(built.summary.is_some(), "{:?}", built.diagnostics);
    assert_eq!(loader.entries(), 1, "nothing was loaded again");
    let normal = files_under(&outs.path().join("normal"));
    assert!(normal.contains_key("robots.txt"));
    assert_eq!(normal, files_under(&outs.path().join("memory")));
}
