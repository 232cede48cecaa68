//! Issue 55, point 1, through the binary: `check --fix` gives every activity
//! an id, paired across locales, and a second `--fix` changes nothing; a
//! duplicate id is an error; a rename or a corrected time keeps the id,
//! which `diff` calls a rename (or a move), and the calendar's UID with
//! it; an id lost while its activity runs is breaking. (`version new`
//! keeping carried ids: `review::version_new_carries_ongoing_activities_in_every_locale`.)

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde_json::Value;

use crate::util::{
    FIXTURE_NOW, check_json, copy_tree, crate_root, fixture_root, run, stderr, stdout,
};

/// Every data file of `root`'s games: path, parsed.
fn documents(root: &Path) -> BTreeMap<String, Value> {
    let games: Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("games.json")).unwrap()).unwrap();
    let mut out = BTreeMap::new();
    for game in games["games"].as_array().unwrap() {
        for locale in game["locales"].as_array().unwrap() {
            let path = format!(
                "data/{}/{}.json",
                game["id"].as_str().unwrap(),
                locale.as_str().unwrap()
            );
            // A locale the registry lists before its document exists is pending.
            let Ok(text) = std::fs::read_to_string(root.join(&path)) else {
                continue;
            };
            out.insert(path, serde_json::from_str(&text).unwrap());
        }
    }
    out
}

/// The text of every data file of `root`.
fn texts(root: &Path) -> BTreeMap<String, String> {
    documents(root)
        .into_keys()
        .map(|path| {
            let text = std::fs::read_to_string(root.join(&path)).unwrap();
            (path, text)
        })
        .collect()
}

/// Removes every activity's `id` line (the tree as it was before ids).
fn strip_ids(root: &Path) {
    for (path, text) in texts(root) {
        let kept: Vec<&str> = text
            .split_inclusive('\n')
            .filter(|line| !line.trim_start().starts_with("\"id\": "))
            .collect();
        std::fs::write(root.join(path), kept.concat()).unwrap();
    }
}

/// Each activity's window and id, per file.
fn windows(doc: &Value) -> Vec<((String, String), Option<String>)> {
    doc["activities"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                (
                    a["startTime"].as_str().unwrap().to_owned(),
                    a["endTime"].as_str().unwrap().to_owned(),
                ),
                a["id"].as_str().map(str::to_owned),
            )
        })
        .collect()
}

/// The bundled tree (games.json, data/, schema/) in a temporary folder, its
/// ids removed: the tree as adopting the public files gives it.
fn bundled_without_ids() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    copy_tree(&crate_root().join("data"), &root.join("data"));
    copy_tree(&crate_root().join("schema"), &root.join("schema"));
    std::fs::copy(crate_root().join("games.json"), root.join("games.json")).unwrap();
    strip_ids(root);
    dir
}

/// The `missing-id` warnings of a check of `root`, as (file, line), each
/// asserted to be a choice between `candidates` and no exact fix.
fn choices_left(root: &Path, now: &str, candidates: usize) -> BTreeSet<(String, u64)> {
    let (_, report) = check_json(root, now);
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "missing-id")
        .map(|d| {
            assert!(d.get("fix").is_none(), "{d:#}");
            assert_eq!(d["notes"].as_array().unwrap().len(), candidates, "{d:#}");
            assert_eq!(d["choices"].as_array().unwrap().len(), candidates, "{d:#}");
            (
                d["file"].as_str().unwrap().to_owned(),
                d["line"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn check_fix_gives_the_bundled_tree_ids_paired_across_locales_and_a_second_fix_changes_nothing() {
    let dir = bundled_without_ids();
    let root = dir.path();
    let now = "2026-11-22T12:00:00";

    let fixed = run(root, &["check", "--fix", "--now", now]);
    assert_eq!(fixed.status.code(), Some(0), "{}", stderr(&fixed));
    let docs = documents(root);
    // Every activity gets an id, with no base: ys's window that the
    // Chinese file lists three times and the English twice pairs by cover.
    let left = choices_left(root, now, 0);
    let mut given = 0;
    let mut without = 0;
    for (path, doc) in &docs {
        let ids: Vec<&str> = doc["activities"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|a| a["id"].as_str())
            .collect();
        given += ids.len();
        without += doc["activities"].as_array().unwrap().len() - ids.len();
        let unique: BTreeSet<&&str> = ids.iter().collect();
        assert_eq!(unique.len(), ids.len(), "{path}: one id per activity");
        for id in &ids {
            let game = path.split('/').nth(1).unwrap();
            assert!(id.starts_with(&format!("{game}-")), "{path}: {id}");
        }
    }
    assert!(given > 100, "{given} ids given");
    assert_eq!(
        without,
        left.len(),
        "each activity left without an id is warned"
    );
    assert_eq!(without, 0, "every activity has an id");
    // Every pairing is listed with its evidence: the windows shared by
    // several activities in both languages (sr, ww, end) pair by place,
    // ys's by cover.
    let listed = stderr(&fixed);
    assert!(listed.contains("evidence: the same place as"), "{listed}");
    assert!(listed.contains("evidence: the same times as"), "{listed}");
    assert!(listed.contains("evidence: the same cover as"), "{listed}");
    // The default language's file has no choice to make: every one has an id.
    for (path, doc) in &docs {
        if path.ends_with("zh-CN.json") {
            assert!(
                windows(doc).iter().all(|(_, id)| id.is_some()),
                "{path}: {doc:#}"
            );
        }
    }
    // Paired across locales: a window listed once in each file has one id.
    let by_game: BTreeMap<&str, Vec<&Value>> =
        docs.iter().fold(BTreeMap::new(), |mut map, (path, doc)| {
            map.entry(path.split('/').nth(1).unwrap())
                .or_default()
                .push(doc);
            map
        });
    let mut paired = 0;
    for (game, docs) in by_game.iter().filter(|(_, docs)| docs.len() > 1) {
        let once: Vec<BTreeMap<(String, String), Option<String>>> = docs
            .iter()
            .map(|doc| {
                let all = windows(doc);
                all.iter()
                    .filter(|(w, _)| all.iter().filter(|(v, _)| v == w).count() == 1)
                    .cloned()
                    .collect()
            })
            .collect();
        for (window, id) in &once[0] {
            for other in &once[1..] {
                if let Some(twin) = other.get(window) {
                    assert_eq!(twin, id, "{game} {window:?}");
                    paired += 1;
                }
            }
        }
    }
    assert!(paired > 10, "{paired} activities paired across locales");
    // A window both languages list the same number of times: the n-th of
    // one is the twin of the n-th of the other.
    let mut by_place = 0;
    for docs in by_game.values().filter(|docs| docs.len() == 2) {
        let (a, b) = (windows(docs[0]), windows(docs[1]));
        for (window, _) in &a {
            let here: Vec<_> = a.iter().filter(|(w, _)| w == window).collect();
            let there: Vec<_> = b.iter().filter(|(w, _)| w == window).collect();
            if here.len() > 1 && here.len() == there.len() {
                for (x, y) in here.iter().zip(&there) {
                    assert_eq!(x.1, y.1, "{window:?}");
                    by_place += 1;
                }
            }
        }
    }
    assert!(by_place >= 11, "{by_place} paired by place");

    // A second --fix changes nothing.
    let before = texts(root);
    let again = run(root, &["check", "--fix", "--now", now]);
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
    assert_eq!(texts(root), before);
    assert!(
        !stderr(&again).contains("fixed data/"),
        "{}",
        stderr(&again)
    );
}

#[test]
fn where_no_evidence_decides_every_candidate_is_a_choice_and_no_fix_is_made() {
    let dir = bundled_without_ids();
    let root = dir.path();
    let now = "2026-11-22T12:00:00";
    // Without covers, nothing tells which of ys's three Chinese activities
    // of one window its two English ones are.
    let path = root.join("data/ys/en-US.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let kept: Vec<&str> = text
        .split_inclusive('\n')
        .filter(|line| !line.trim_start().starts_with("\"cover\": \"http"))
        .collect();
    std::fs::write(&path, kept.concat()).unwrap();

    let fixed = run(root, &["check", "--fix", "--now", now]);
    assert_eq!(fixed.status.code(), Some(0), "{}", stderr(&fixed));
    let left = choices_left(root, now, 3);
    assert_eq!(left.len(), 2, "{left:?}");
    assert!(
        left.iter().all(|(file, _)| file == "data/ys/en-US.json"),
        "{left:?}"
    );
}

/// The base fixture's game without its `ignore` of `missing-id`, and ids
/// given by `check --fix`.
fn tree_with_ids() -> tempfile::TempDir {
    let root = fixture_root(Some(
        &crate_root().join("tests/fixtures/invalid/missing-id"),
    ));
    let fixed = run(root.path(), &["check", "--fix", "--now", FIXTURE_NOW]);
    assert_eq!(fixed.status.code(), Some(0), "{}", stderr(&fixed));
    let (code, report) = check_json(root.path(), FIXTURE_NOW);
    assert_eq!(
        (code, &report["warnings"]),
        (0, &Value::from(0)),
        "{report:#}"
    );
    root
}

fn edit(root: &Path, path: &str, from: &str, to: &str) {
    let text = std::fs::read_to_string(root.join(path)).unwrap();
    assert!(text.contains(from), "{path}: {from}");
    std::fs::write(root.join(path), text.replace(from, to)).unwrap();
}

/// Builds `root` into `name` under `sites`, a temporary folder of the test's
/// own (never beside the root: tests run at once), and gives its path.
fn build_into(root: &Path, sites: &tempfile::TempDir, name: &str) -> std::path::PathBuf {
    let out = sites.path().join(name);
    let built = run(
        root,
        &[
            "build",
            "--out",
            out.to_str().unwrap(),
            "--now",
            FIXTURE_NOW,
            "--no-cache",
        ],
    );
    assert!(built.status.success(), "{}", stderr(&built));
    out
}

#[test]
fn a_rename_and_a_corrected_time_keep_the_id_the_calendar_uid_and_diff_says_so() {
    let root = tree_with_ids();
    let root = root.path();
    let sites = tempfile::tempdir().unwrap();
    let before = build_into(root, &sites, "before");
    let ics = std::fs::read_to_string(before.join("api/v1/activity/demo-en-US.ics")).unwrap();
    assert!(ics.contains("UID:demo-1.2-02.en-US@activity-site"), "{ics}");
    let published: Value = serde_json::from_str(
        &std::fs::read_to_string(before.join("api/v1/activity/demo.json")).unwrap(),
    )
    .unwrap();
    let first = published["activities"][0].as_object().unwrap();
    assert_eq!(
        first.keys().next().map(String::as_str),
        Some("id"),
        "{first:?}"
    );

    // Renamed in every locale, and one end corrected by a day.
    edit(
        root,
        "data/demo/en-US.json",
        "Star Sea Voyage",
        "Star Sea Cruise",
    );
    edit(root, "data/demo/zh-CN.json", "星海巡游", "星海远航");
    edit(
        root,
        "data/demo/en-US.json",
        "\"2026-11-17T03:59:59\"",
        "\"2026-11-18T03:59:59\"",
    );
    edit(
        root,
        "data/demo/zh-CN.json",
        "\"2026-11-17T03:59:59\"",
        "\"2026-11-18T03:59:59\"",
    );
    let out = run(
        root,
        &[
            "diff",
            "--against",
            before.to_str().unwrap(),
            "--now",
            FIXTURE_NOW,
            "--format",
            "json",
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(1),
        "changes, none breaking: {}",
        stdout(&out)
    );
    let report: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let file = report["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == "api/v1/activity/demo-en-US.json")
        .unwrap_or_else(|| panic!("{report:#}"));
    assert_eq!(file["renamed"][0]["from"], "Star Sea Voyage", "{file:#}");
    assert_eq!(file["renamed"][0]["to"], "Star Sea Cruise", "{file:#}");
    assert_eq!(file["moved"][0]["name"], "Endgame Challenge", "{file:#}");
    assert!(
        file.get("added")
            .is_none_or(|a| a.as_array().unwrap().is_empty()),
        "{file:#}"
    );
    assert!(
        file.get("removed")
            .is_none_or(|a| a.as_array().unwrap().is_empty()),
        "{file:#}"
    );

    // The calendar's events keep their UIDs.
    let after = build_into(root, &sites, "after");
    let after = std::fs::read_to_string(after.join("api/v1/activity/demo-en-US.ics")).unwrap();
    let uids = |ics: &str| -> Vec<String> {
        ics.lines()
            .filter(|l| l.starts_with("UID:"))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(uids(&after), uids(&ics));
    assert!(after.contains("SUMMARY:Star Sea Cruise"), "{after}");
}

#[test]
fn an_id_lost_while_its_activity_runs_is_breaking_and_a_duplicate_id_is_an_error() {
    let root = tree_with_ids();
    let root = root.path();
    let sites = tempfile::tempdir().unwrap();
    let before = build_into(root, &sites, "before");
    // `Star Sea Voyage` runs at FIXTURE_NOW; its id changes in both locales.
    for locale in ["en-US", "zh-CN"] {
        edit(
            root,
            &format!("data/demo/{locale}.json"),
            "\"demo-1.2-02\"",
            "\"demo-1.2-09\"",
        );
    }
    let out = run(
        root,
        &[
            "diff",
            "--against",
            before.to_str().unwrap(),
            "--now",
            FIXTURE_NOW,
        ],
    );
    assert_eq!(out.status.code(), Some(3), "breaking: {}", stdout(&out));
    let text = stdout(&out);
    assert!(text.contains("ongoing-activity-id-changed"), "{text}");
    assert!(
        text.contains("its id changes from `demo-1.2-02` to `demo-1.2-09`"),
        "{text}"
    );

    // The same id twice in one document.
    edit(
        root,
        "data/demo/en-US.json",
        "\"demo-1.2-03\"",
        "\"demo-1.2-01\"",
    );
    let (code, report) = check_json(root, FIXTURE_NOW);
    assert_eq!(code, 1, "{report:#}");
    let codes: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["duplicate-id"], "{report:#}");
    // No fix guesses which of the two is wrong.
    assert!(report["diagnostics"][0].get("fix").is_none(), "{report:#}");
}

/// Each activity's id by its name, per file.
fn ids_by_name(root: &Path) -> BTreeMap<String, BTreeMap<String, Option<String>>> {
    documents(root)
        .into_iter()
        .map(|(path, doc)| {
            let ids = doc["activities"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| {
                    (
                        a["name"].as_str().unwrap().to_owned(),
                        a["id"].as_str().map(str::to_owned),
                    )
                })
                .collect();
            (path, ids)
        })
        .collect()
}

/// Issue 63: in a checkout whose `HEAD` holds the ids, every id removed
/// comes back as it was, each fix listing the base as its evidence, and a
/// second `--fix` changes nothing.
#[test]
fn check_fix_in_a_checkout_gives_back_every_id_of_head_with_its_evidence() {
    let repo = crate::util::bundled_repository("data with ids");
    let root = repo.path();
    let before = ids_by_name(root);
    strip_ids(root);
    let now = "2026-11-22T12:00:00";
    let fixed = run(root, &["check", "--fix", "--now", now, "--format", "json"]);
    assert_eq!(fixed.status.code(), Some(0), "{}", stderr(&fixed));
    assert_eq!(ids_by_name(root), before);
    let report: Value = serde_json::from_str(&stdout(&fixed)).unwrap();
    let changes = report["changes"].as_array().unwrap();
    let given: usize = before
        .values()
        .map(|ids| ids.values().filter(|id| id.is_some()).count())
        .sum();
    assert_eq!(changes.len(), given, "{report:#}");
    for change in changes {
        assert_eq!(change["code"], "missing-id", "{change:#}");
        let notes = change["notes"].to_string();
        assert!(notes.contains("evidence: at HEAD"), "{change:#}");
    }
    let again = run(root, &["check", "--fix", "--now", now]);
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
    assert_eq!(ids_by_name(root), before);
    assert!(
        !stderr(&again).contains("fixed data/"),
        "{}",
        stderr(&again)
    );
}

/// Issue 63: a file rewritten whole (as a fetch script writes it: other
/// order, no ids, an activity gone, one renamed, one moved) gets back the
/// id of every activity it still holds, and `diff --against-rev` reports
/// no id change.
#[test]
fn a_file_rewritten_without_ids_gets_its_ids_back_and_diff_sees_no_id_change() {
    let repo = crate::util::bundled_repository("data with ids");
    let root = repo.path();
    let path = "data/sr/zh-CN.json";
    let before = ids_by_name(root)[path].clone();
    let mut doc: Value =
        serde_json::from_str(&std::fs::read_to_string(root.join(path)).unwrap()).unwrap();
    let activities = doc["activities"].as_array_mut().unwrap();
    for a in activities.iter_mut() {
        a.as_object_mut().unwrap().remove("id");
    }
    activities.reverse();
    let gone = activities.pop().unwrap();
    // One renamed (its times keep it), one moved (its name keeps it), of
    // those whose times no other activity of the file shares.
    let window = |a: &Value| (a["startTime"].to_string(), a["endTime"].to_string());
    let alone: Vec<usize> = (0..activities.len())
        .filter(|&i| {
            let w = window(&activities[i]);
            activities.iter().filter(|b| window(b) == w).count() == 1
        })
        .collect();
    let renamed = activities[alone[0]]["name"].as_str().unwrap().to_owned();
    activities[alone[0]]["name"] = Value::from(format!("{renamed}（新）"));
    let moved = activities[alone[1]]["name"].as_str().unwrap().to_owned();
    activities[alone[1]]["endTime"] = Value::from("2026-11-12T03:59:59");
    std::fs::write(root.join(path), serde_json::to_string(&doc).unwrap()).unwrap();

    let now = "2026-10-01T12:00:00";
    let fixed = run(root, &["check", "--fix", "--now", now]);
    assert!(fixed.status.code() != Some(2), "{}", stderr(&fixed));
    let after = ids_by_name(root)[path].clone();
    assert_eq!(after.len(), before.len() - 1);
    for (name, id) in &after {
        let was = before
            .get(name)
            .or_else(|| before.get(&name.replace("（新）", "")))
            .unwrap_or_else(|| panic!("{name}"));
        assert_eq!(id, was, "{name}");
    }
    assert!(!after.contains_key(gone["name"].as_str().unwrap()));
    let listed = stderr(&fixed);
    assert!(
        listed.contains("evidence: at HEAD, this file gives"),
        "{listed}"
    );
    assert!(
        listed.contains(&format!("to `{renamed}`, with the same times")),
        "{listed}"
    );
    assert!(
        listed.contains(&format!("to `{moved}`, with the same name\n")),
        "{listed}"
    );

    let out = run(
        root,
        &[
            "diff",
            "--against-rev",
            "HEAD",
            "--now",
            now,
            "--format",
            "json",
        ],
    );
    let text = stdout(&out);
    let report: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert!(!text.contains("\"field\": \"id\""), "{text}");
    assert!(!text.contains("id-changed"), "{text}");
    let file = report["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == "api/v1/activity/sr-zh-CN.json")
        .unwrap_or_else(|| panic!("{report:#}"));
    assert_eq!(file["renamed"][0]["from"], renamed.as_str(), "{file:#}");
    assert_eq!(file["moved"][0]["name"], moved.as_str(), "{file:#}");
    assert_eq!(file["removed"].as_array().unwrap().len(), 1, "{file:#}");
    for entry in ["renamed", "moved"] {
        assert!(file[entry][0]["id"].as_str().is_some(), "{file:#}");
    }
    // The text shows each id beside its name.
    let text = stdout(&run(root, &["diff", "--against-rev", "HEAD", "--now", now]));
    let renamed_id = before[&renamed].as_deref().unwrap();
    assert!(text.contains(&format!("（新）\" [{renamed_id}]")), "{text}");
    let moved_id = before[&moved].as_deref().unwrap();
    assert!(
        text.contains(&format!("moved {moved} [{moved_id}]:")),
        "{text}"
    );
    assert!(
        file.get("added")
            .is_none_or(|a| a.as_array().unwrap().is_empty()),
        "{file:#}"
    );
}

/// Issue 63: an activity in both languages with other times is one
/// finding, naming its id and both times.
#[test]
fn parity_names_the_id_of_an_activity_whose_times_differ_between_languages() {
    let root = tree_with_ids();
    let root = root.path();
    edit(
        root,
        "data/demo/en-US.json",
        "\"2026-11-17T03:59:59\"",
        "\"2026-11-18T03:59:59\"",
    );
    let (_, report) = check_json(root, FIXTURE_NOW);
    let parity: Vec<&Value> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "locale-parity")
        .collect();
    assert_eq!(parity.len(), 1, "{report:#}");
    let message = parity[0]["message"].as_str().unwrap();
    assert_eq!(parity[0]["file"], "data/demo/en-US.json", "{message}");
    assert!(message.starts_with("`demo-1.2-"), "{message}");
    assert!(message.contains("2026-11-18T03:59:59 here"), "{message}");
    assert!(message.contains("2026-11-17T03:59:59 there"), "{message}");
    assert!(parity[0].get("notes").is_none(), "{report:#}");
}
