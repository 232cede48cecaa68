//! Issue 46: `updateMode` decides when a game's data is due (`status`, the
//! `stale` rule and the ending-soon workflow read one rule,
//! `model::freshness`), and a game declares its sources' conventions in
//! `games.json`. Every tree here is a fixture of its own under `tests/`.

use std::path::Path;

use serde_json::{Value, json};

use crate::util::{FIXTURE_NOW, check_json, copy_tree, crate_root, fixture_root, run, stderr};

/// A temp copy of `tests/fixtures/activity-mode`: one `activity` game whose
/// version "2026-10" runs until 2026-12-31 and whose last activity ends
/// 2026-10-22T03:59:59.
fn activity_game() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(
        &crate_root().join("tests/fixtures/activity-mode"),
        dir.path(),
    );
    dir
}

fn status_rows(root: &Path, now: &str) -> Vec<Value> {
    let output = run(root, &["status", "--format", "json", "--now", now]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    serde_json::from_slice(&output.stdout).expect("status json")
}

fn edit_registry(root: &Path, edit: impl FnOnce(&mut Value)) {
    let path = root.join("games.json");
    let mut registry: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    edit(&mut registry["games"][0]);
    std::fs::write(&path, serde_json::to_string_pretty(&registry).unwrap()).unwrap();
}

/// The base fixture with `sources` as its game's typed `dataSources` and no
/// `dataSource`.
fn typed_sources_only(sources: Value) -> tempfile::TempDir {
    let root = fixture_root(None);
    edit_registry(root.path(), |game| {
        let object = game.as_object_mut().unwrap();
        object.remove("dataSource");
        object.insert("dataSources".to_owned(), sources);
    });
    root
}

/// The diagnostics' codes and places, but `missing-id`: these trees were
/// written before ids, and the ids tests have the rule to themselves.
fn codes(report: &Value) -> Vec<(String, String, u64)> {
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] != "missing-id")
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_owned(),
                d["file"].as_str().unwrap().to_owned(),
                d["line"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// The case: every activity of an `activity` game has ended while
/// its version window still runs. `check` says stale at the last activity's
/// end and `status` says due (ended), though the version says nothing.
#[test]
fn an_activity_game_whose_last_activity_ended_is_due_while_its_version_runs() {
    let root = activity_game();
    let now = "2026-11-01T12:00:00";

    let (code, report) = check_json(root.path(), now);
    assert_eq!(code, 0, "{report:#}");
    // Line 19: `endTime` of the activity that ends last (not the version's, line 5).
    assert_eq!(
        codes(&report),
        [("stale".to_owned(), "data/ev/zh-CN.json".to_owned(), 19)],
        "{report:#}"
    );
    let stale = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "stale")
        .unwrap();
    assert!(
        stale["message"]
            .as_str()
            .unwrap()
            .contains("last activity ended on 2026-10-22"),
        "{stale:#}"
    );

    let rows = status_rows(root.path(), now);
    assert_eq!(rows.len(), 1);
    let row = &rows[0];
    assert_eq!(row["state"], "ended", "{row:#}");
    assert_eq!(row["updateMode"], "activity");
    assert_eq!(row["updateModeInferred"], false);
    assert_eq!(row["endTime"], "2026-12-31T03:59:59");
    assert_eq!(row["dueTime"], "2026-10-22T03:59:59");
    assert_eq!(row["daysLeft"], -10);

    // The same files as a `version` game: nothing is due before 2026-12-31.
    edit_registry(root.path(), |game| game["updateMode"] = json!("version"));
    let (_, report) = check_json(root.path(), now);
    assert!(codes(&report).is_empty(), "{report:#}");
    let row = &status_rows(root.path(), now)[0];
    assert_eq!(row["state"], "ok", "{row:#}");
    assert_eq!(row["dueTime"], "2026-12-31T03:59:59");
}

/// Without `updateMode`, the mode is read from the version's form, and both
/// `status` and `check` say it was inferred.
#[test]
fn an_inferred_update_mode_says_so() {
    let root = fixture_root(None);
    let now = "2026-11-20T12:00:00";
    let rows = status_rows(root.path(), now);
    assert!(!rows.is_empty());
    for row in &rows {
        assert_eq!(row["updateMode"], "version", "{row:#}");
        assert_eq!(row["updateModeInferred"], true, "{row:#}");
    }
    let text = run(root.path(), &["status", "--now", now]);
    assert!(
        String::from_utf8_lossy(&text.stdout).contains("version (inferred)"),
        "{}",
        String::from_utf8_lossy(&text.stdout)
    );
    let (_, report) = check_json(root.path(), now);
    let stale: Vec<&Value> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "stale")
        .collect();
    assert_eq!(stale.len(), 2, "{report:#}");
    for d in stale {
        let notes = d["notes"].to_string();
        assert!(notes.contains("read as `version`"), "{d:#}");
    }
}

/// The ending-soon workflow's script lists an `activity` game by the end of
/// its last activity, not by its version's end.
#[cfg(unix)]
#[test]
fn ending_soon_lists_an_activity_game_by_its_last_activity() {
    let root = activity_game();
    let script = crate_root().join(".github/actions/review/ending-soon.sh");
    let ending_soon = |now: &str| {
        std::process::Command::new("bash")
            .arg(&script)
            .arg(env!("CARGO_BIN_EXE_activity-site"))
            .arg(root.path())
            .arg("3")
            .arg(now)
            .output()
            .expect("bash")
    };
    let output = ending_soon("2026-10-20T12:00:00");
    let body = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{body}{}", stderr(&output));
    assert!(
        body.contains("| `ev` | zh-CN | 2026-10 | activity |"),
        "{body}"
    );
    assert!(body.contains("2026-10-22T03:59:59"), "{body}");

    // Issue 57: once it is due, the game is said to be overdue, in both
    // languages, with what to do (in both languages too).
    let output = ending_soon("2026-10-25T12:00:00");
    let body = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{body}");
    for part in [
        "**Overdue:** 1 document(s) (ev)",
        "**已逾期：** 1 个文档（ev）",
        "days overdue / 已逾期",
        "What to do:",
        "怎么做：",
    ] {
        assert!(body.contains(part), "{part:?} in {body}");
    }

    // Long before: nothing to list.
    let output = ending_soon("2026-10-05T12:00:00");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));

    // Long after: the game is overdue (issue 57). The workflow's report is one text in both languages (an issue every
    // maintainer reads): each overdue row says so in both, never as a
    // negative count of days left.
    let output = std::process::Command::new("bash")
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_activity-site"))
        .arg(root.path())
        .arg("3")
        .arg("2026-11-27T12:00:00")
        .output()
        .expect("bash");
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let report = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        report.contains("36 days overdue / 已逾期 36 天"),
        "{report}"
    );
    assert!(report.contains("**已逾期：**"), "{report}");
    assert!(!report.contains("-36"), "{report}");
}

/// `conventions.endSeconds` accepts the ends a source writes on purpose,
/// `conventions.ignore` turns a warning rule off for the game's files, and
/// neither hides anything else.
#[test]
fn a_games_conventions_accept_what_its_source_writes_on_purpose() {
    let case = crate_root().join("tests/fixtures/invalid/end-of-minute");
    let warned = |edit: Value| {
        let root = fixture_root(Some(&case));
        edit_registry(root.path(), |game| game["conventions"] = edit);
        let (code, report) = check_json(root.path(), FIXTURE_NOW);
        assert_eq!(code, 0, "{report:#}");
        codes(&report)
            .into_iter()
            .map(|(code, _, _)| code)
            .collect::<Vec<_>>()
    };
    // The fixture's ends at 04:00:00: two warnings without conventions.
    assert_eq!(warned(json!({})), ["end-of-minute", "end-of-minute"]);
    assert_eq!(warned(json!({"endSeconds": [0]})), Vec::<String>::new());
    assert_eq!(
        warned(json!({"endSeconds": [30]})),
        ["end-of-minute", "end-of-minute"]
    );
    assert_eq!(
        warned(json!({"ignore": ["end-of-minute"]})),
        Vec::<String>::new()
    );
    assert_eq!(
        warned(json!({"ignore": ["unsorted"]})),
        ["end-of-minute", "end-of-minute"]
    );
}

/// An unknown rule code gets the nearest one (and its exact fix); a game
/// with typed sources needs no `dataSource`, and one with neither is told
/// what to add, not "did you mean `dataSource`".
#[test]
fn the_registry_names_unknown_codes_and_missing_sources_rightly() {
    let case = crate_root().join("tests/fixtures/invalid/conventions-unknown-code");
    let root = fixture_root(Some(&case));
    let (code, report) = check_json(root.path(), FIXTURE_NOW);
    assert_eq!(code, 1);
    let diagnostic = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "games-registry")
        .unwrap();
    assert_eq!(
        diagnostic["help"], "did you mean `end-of-minute`?",
        "{diagnostic:#}"
    );
    let fixed = run(root.path(), &["check", "--fix", "--now", FIXTURE_NOW]);
    assert_eq!(fixed.status.code(), Some(0), "{}", stderr(&fixed));
    let registry = std::fs::read_to_string(root.path().join("games.json")).unwrap();
    assert!(registry.contains("\"end-of-minute\""), "{registry}");

    // Typed sources alone: clean.
    let root =
        typed_sources_only(json!({"all": [{"type": "html", "url": "https://example.org/news"}]}));
    let (code, report) = check_json(root.path(), FIXTURE_NOW);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(report["warnings"], 0, "{report:#}");

    // Typed sources that name none: the same error as none at all.
    edit_registry(root.path(), |game| game["dataSources"] = json!({"all": []}));
    let (code, report) = check_json(root.path(), FIXTURE_NOW);
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(report["diagnostics"][0]["code"], "games-registry");

    // A misspelt `datasource`: its own "did you mean", and no second error.
    edit_registry(root.path(), |game| {
        let object = game.as_object_mut().unwrap();
        object.remove("dataSources");
        object.insert("datasource".to_owned(), json!("https://example.org/news"));
    });
    let (_, report) = check_json(root.path(), FIXTURE_NOW);
    let found = report["diagnostics"].as_array().unwrap();
    assert_eq!(found.len(), 1, "{report:#}");
    assert_eq!(found[0]["help"], "did you mean `dataSource`?", "{report:#}");

    // Neither: one error that names both fields.
    let case = crate_root().join("tests/fixtures/invalid/games-registry-no-source");
    let root = fixture_root(Some(&case));
    let (_, report) = check_json(root.path(), FIXTURE_NOW);
    let all = report["diagnostics"].to_string();
    assert!(!all.contains("did you mean"), "{report:#}");
    assert!(
        all.contains("dataSources") && all.contains("dataSource\\\""),
        "{report:#}"
    );
}

/// A game with typed sources only: the index's `dataSource` is the page of
/// each locale, its first `html` source (a script names no page).
#[test]
fn the_index_names_the_page_of_a_game_with_typed_sources_only() {
    let root = typed_sources_only(json!({
        "all": [{"type": "script", "script": "scripts/fetch.mjs"}],
        "en-US": [{"type": "html", "url": "https://example.org/en/news"}],
        "zh-CN": [{"type": "html", "url": "https://example.org/zh/news"}]
    }));
    let output = run(root.path(), &["build", "--now", FIXTURE_NOW]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let index: Value =
        serde_json::from_slice(&std::fs::read(root.path().join("site/api/v1/games.json")).unwrap())
            .unwrap();
    assert_eq!(
        index["games"][0]["dataSource"],
        json!({"zh-CN": "https://example.org/zh/news", "en-US": "https://example.org/en/news"})
    );
}

/// `status` reads a file with errors as written: a time that is not a time
/// is shown as it stands and counts as absent, and what the other times
/// say still counts (the typed times of checked documents take nothing
/// away from it).
#[test]
fn status_reads_a_file_with_a_time_that_is_not_one_as_written() {
    let case = crate_root().join("tests/fixtures/invalid/datetime-hour-24");
    let root = fixture_root(Some(&case));
    let row = |rows: &[Value]| {
        rows.iter()
            .find(|r| r["game"] == "demo" && r["locale"] == "en-US")
            .cloned()
            .expect("a row for demo en-US")
    };
    // An activity's end `2026-10-01T24:00:00`: the version's end is due.
    let before = row(&status_rows(root.path(), FIXTURE_NOW));
    assert_eq!(before["version"], "1.2", "{before}");
    assert_eq!(before["startTime"], "2026-10-01T11:00:00", "{before}");
    assert_eq!(before["endTime"], "2026-11-12T03:59:59", "{before}");
    assert_eq!(before["dueTime"], "2026-11-12T03:59:59", "{before}");
    assert_eq!(before["state"], "ok", "{before}");

    // The version's own start written another way: shown as written, and
    // the row is not "upcoming" for it.
    let file = root.path().join("data/demo/en-US.json");
    let text = std::fs::read_to_string(&file).unwrap().replacen(
        "\"startTime\": \"2026-10-01T11:00:00\"",
        "\"startTime\": \"2026-10-01 11:00\"",
        1,
    );
    std::fs::write(&file, text).unwrap();
    let after = row(&status_rows(root.path(), "2026-09-01T00:00:00"));
    assert_eq!(after["startTime"], "2026-10-01 11:00", "{after}");
    assert_eq!(after["dueTime"], "2026-11-12T03:59:59", "{after}");
    assert_eq!(after["startsInDays"], Value::Null, "{after}");
    assert_eq!(after["state"], "ok", "{after}");
}
