//! Issue 32 through the binary: `diff` against a folder, a git revision and
//! site folders, one fixture pair of trees per status and per breaking case
//! (`tests/fixtures/review/base` and a case laid over it, or the two site
//! folders of `tests/fixtures/review/sites/<case>`), with snapshots of the
//! text and Markdown reports; `check`'s `upcoming-version` warning; and
//! `version new` on a two-locale game.

use std::path::{Path, PathBuf};

use crate::util::{crate_root, fixture_tree, git, run, says, stderr, stdout};

/// "Now" of the review fixtures: version 4.6 of `sr` runs until
/// 2026-11-26T05:59:59; `Memory of Chaos` until 2026-12-01.
pub(crate) const NOW: &str = "2026-11-25T12:00:00";

pub(crate) fn fixtures() -> PathBuf {
    crate_root().join("tests/fixtures/review")
}

/// A workspace with the base tree built into `base-site/` and the tree of
/// `case` (the base with the case laid over it) in `head/`.
pub(crate) fn pair(case: Option<&str>) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    fixture_tree(&fixtures().join("base"), None, &dir.path().join("base"));
    let out = run(
        &dir.path().join("base"),
        &["build", "--out", "../base-site", "--now", NOW, "--no-cache"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let case = case.map(|c| fixtures().join(c));
    fixture_tree(
        &fixtures().join("base"),
        case.as_deref(),
        &dir.path().join("head"),
    );
    dir
}

/// `diff --against ../base-site` in `head/`: exit status and standard output.
fn diff(dir: &Path, format: &str) -> (i32, String) {
    let out = run(
        &dir.join("head"),
        &[
            "diff",
            "--against",
            "../base-site",
            "--now",
            NOW,
            "--format",
            format,
        ],
    );
    let code = out.status.code().expect("exit code");
    assert_ne!(code, 2, "{}", stderr(&out));
    (code, stdout(&out))
}

/// Runs a fixture pair: the exit status, and the text and Markdown reports as snapshots.
fn case(name: &str, dir: Option<&str>, expected: i32) -> String {
    let work = pair(dir);
    let (code, text) = diff(work.path(), "text");
    assert_eq!(code, expected, "{name}:\n{text}");
    let (code, markdown) = diff(work.path(), "markdown");
    assert_eq!(code, expected, "{name}:\n{markdown}");
    insta::assert_snapshot!(format!("review_{name}_text"), text);
    insta::assert_snapshot!(format!("review_{name}_markdown"), markdown);
    text
}

#[test]
fn the_same_data_is_unchanged_and_exits_0() {
    let text = case("unchanged", None, 0);
    says(&text, " 0 changed, 0 reformatted, 0 new, 0 removed, ");
}

#[test]
fn edits_added_activities_and_new_games_are_changes_and_exit_1() {
    let text = case("changed", Some("changed"), 1);
    says(&text, "+ Aetherium Wars: New Season");
    says(&text, "~ Gift of Odyssey");
    assert!(!text.contains("BREAKING"), "{text}");

    let text = case("renamed_moved", Some("renamed-moved"), 1);
    says(
        &text,
        "renamed \"Sparkle Warp\" -> \"Sparkle Limited Warp\"",
    );
    assert!(
        text.contains("moved Memory of Chaos: Night of Falling Stars:")
            && text.contains("ends 2 days later"),
        "{text}"
    );

    let text = case("new", Some("new"), 1);
    says(
        &text,
        "api/v1/activity/ww-zh-CN.json (also api/v1/activity/ww.json): new",
    );
    says(&text, "ww/index.html: new");
}

#[test]
fn a_removed_game_is_breaking_and_exits_3() {
    let text = case("removed", Some("removed"), 3);
    says(&text, "api/v1/activity/zzz.json: [file-removed]");
    says(&text, "api/v1/activity/zzz.ics: removed");
}

/// A file only the base has (kept by hand on the deployed site) is listed
/// as removed, whatever it is, and sets the exit status.
#[test]
fn a_file_present_only_at_the_base_is_removed() {
    let work = pair(None);
    let base = work.path().join("base-site");
    std::fs::write(base.join("robots.txt"), "User-agent: *\n").expect("write");
    std::fs::write(
        base.join("api/v1/anno.json"),
        "{\"id\": 28, \"announcements\": []}\n",
    )
    .expect("write");
    let (code, text) = diff(work.path(), "text");
    assert_eq!(code, 3, "{text}");
    says(&text, "robots.txt: removed");
    says(&text, "api/v1/anno.json: [file-removed]");
    let (_, json) = diff(work.path(), "json");
    let json: serde_json::Value = serde_json::from_str(&json).expect("json");
    assert_eq!(json["counts"]["removed"], 2, "{json}");
    assert_eq!(json["exitCode"], 3);
}

#[test]
fn an_ongoing_activity_removed_is_breaking() {
    let text = case("ongoing_removed", Some("ongoing-removed"), 3);
    says(
        &text,
        "[ongoing-activity-removed] Memory of Chaos: Night of Falling Stars is ongoing (until 2026-12-01T03:59:59, 5 days left)",
    );
}

/// The 4.7 document published a day early without carrying what still
/// runs: the report names the ongoing activity that vanishes and how to
/// keep it, and `check` warns about the version on its own.
#[test]
fn an_upcoming_version_replacing_a_running_one_names_what_vanishes() {
    let text = case("upcoming", Some("upcoming"), 3);
    says(
        &text,
        "[upcoming-version] version 4.7 starts on 2026-11-26 11:00 (in less than a day), after now, and replaces version 4.6",
    );
    says(
        &text,
        "Memory of Chaos: Night of Falling Stars (until 2026-12-01T03:59:59)",
    );
    says(&text, "`activity-site version new` does it");

    let work = pair(Some("upcoming"));
    let (code, report) = crate::util::check_json(&work.path().join("head"), NOW);
    assert_eq!(code, 0, "warnings only: {report}");
    let codes: Vec<&str> = report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| d["code"].as_str().unwrap_or_default())
        .filter(|code| *code != "missing-id")
        .collect();
    assert_eq!(codes, ["upcoming-version", "upcoming-version"], "{report}");
    let out = run(&work.path().join("head"), &["check", "--now", NOW]);
    insta::assert_snapshot!("review_upcoming_check", stderr(&out));
}

#[test]
fn a_version_going_backwards_is_breaking() {
    let text = case("backwards", Some("backwards"), 3);
    says(
        &text,
        "[version-backwards] the version goes backwards, from 4.6 to 4.5",
    );
}

/// Two site folders (`--site` and `--against`): the pair of one defect each.
fn sites(name: &str, expected: i32) -> String {
    let mut outputs = Vec::new();
    for format in ["text", "markdown"] {
        let (code, shown) = sites_in(name, format, "en-US");
        assert_eq!(code, expected, "{shown}");
        insta::assert_snapshot!(format!("review_{name}_{format}"), shown);
        outputs.push(shown);
    }
    outputs.swap_remove(0)
}

#[test]
fn announcements_changed_under_the_same_id_are_breaking() {
    let text = sites("anno-id", 3);
    says(
        &text,
        "[announcements-id] the announcements changed and their id stayed 28",
    );
    says(&text, "set \"id\" to 29");
    says(&text, "announcement edited: \"服务器维护\"");
}

/// The same document with its activities in another order and without the
/// trailing newline: other bytes, same content.
#[test]
fn the_same_content_in_other_bytes_is_reformatted() {
    let text = sites("reformatted", 1);
    says(&text, "api/v1/activity/sr.json: reformatted");
}

/// `--against-rev HEAD~1` in a temporary repository whose data lives in a
/// folder below its top: the base is that revision's tree built with this
/// binary, and the report equals the one against the same tree built by hand.
#[test]
fn against_a_git_revision() {
    let repo = tempfile::tempdir().expect("temp dir");
    let root = repo.path().join("activity");
    fixture_tree(&fixtures().join("base"), None, &root);
    std::fs::write(repo.path().join("README.md"), "data\n").expect("write");
    git(repo.path(), &["init", "-q"]);
    git(repo.path(), &["add", "-A"]);
    git(repo.path(), &["commit", "-q", "-m", "4.6"]);
    fixture_tree(
        &fixtures().join("base"),
        Some(&fixtures().join("upcoming")),
        &root,
    );
    git(repo.path(), &["commit", "-q", "-am", "4.7 a day early"]);

    let out = run(&root, &["diff", "--against-rev", "HEAD~1", "--now", NOW]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(3), "{text}{}", stderr(&out));
    says(&text, "compared with rev:HEAD~1");
    let work = pair(Some("upcoming"));
    let (_, by_hand) = diff(work.path(), "text");
    assert_eq!(
        text.replace("rev:HEAD~1", "BASE"),
        by_hand.replace("../base-site", "BASE")
    );
    // Against itself: nothing changes.
    let out = run(&root, &["diff", "--against-rev", "HEAD", "--now", NOW]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    // A revision that does not exist is the tool's failure.
    let out = run(
        &root,
        &["diff", "--against-rev", "no-such-rev", "--now", NOW],
    );
    assert_eq!(out.status.code(), Some(2));
    says(&stderr(&out), "`no-such-rev` is not a revision");
}

#[test]
fn github_annotations_point_at_the_data_line() {
    let work = pair(Some("ongoing-removed"));
    let (code, text) = diff(work.path(), "github");
    assert_eq!(code, 3, "{text}");
    let line = text
        .lines()
        .find(|l| l.starts_with("::error ") && l.contains("sr-en-US.json"))
        .expect("an error annotation for the en-US document");
    // The removed activity is not in the new file: the version's line.
    says(line, "file=data/sr/en-US.json,line=2,");
    says(line, "ongoing-activity-removed");
}

/// `version new sr` 4.7 (from 2026-11-26T11:00:00) in `head` with each of `names` as a `--name`.
fn version_new(head: &Path, names: &[&str]) -> std::process::Output {
    let mut args = vec!["version", "new", "sr", "--version", "4.7"];
    for name in names {
        args.extend(["--name", name]);
    }
    args.extend([
        "--start",
        "2026-11-26T11:00:00",
        "--end",
        "2027-01-07T05:59:59",
        "--now",
        NOW,
    ]);
    run(head, &args)
}

/// `version new` on the two-locale game: both files written canonically
/// with the activity that runs past the new start carried, `check` clean
/// once the version starts (and only `upcoming-version` before), `diff`
/// without a breaking change; a locale with errors makes it write nothing.
#[test]
fn version_new_carries_ongoing_activities_in_every_locale() {
    let work = pair(None);
    let head = work.path().join("head");
    // Ids first (`check --fix`), so the carried activities have some to keep.
    let fixed = run(&head, &["check", "--fix", "--now", NOW]);
    assert_eq!(fixed.status.code(), Some(0), "{}", stderr(&fixed));
    let id_of = |text: &str, name: &str| -> String {
        let doc: serde_json::Value = serde_json::from_str(text).expect("json");
        doc["activities"]
            .as_array()
            .expect("activities")
            .iter()
            .find(|a| a["name"] == name)
            .and_then(|a| a["id"].as_str())
            .unwrap_or_else(|| panic!("{name} has an id: {text}"))
            .to_owned()
    };
    let read = |locale: &str| {
        std::fs::read_to_string(head.join(format!("data/sr/{locale}.json"))).expect("data")
    };
    let carried_en = id_of(&read("en-US"), "Memory of Chaos: Night of Falling Stars");
    assert_eq!(carried_en, id_of(&read("zh-CN"), "混沌回忆：坠星之夜"));
    let out = version_new(
        &head,
        &["4.7版本「群星归途」", "en-US=4.7: Homeward Among the Stars"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    insta::assert_snapshot!("review_version_new", stdout(&out));
    let en = read("en-US");
    let zh = read("zh-CN");
    insta::assert_snapshot!("review_version_new_en", en);
    says(&zh, "\"versionName\": \"4.7版本「群星归途」\"");
    says(&zh, "混沌回忆：坠星之夜");
    // The carried activity keeps its id in every locale.
    assert_eq!(
        id_of(&en, "Memory of Chaos: Night of Falling Stars"),
        carried_en
    );
    assert_eq!(id_of(&zh, "混沌回忆：坠星之夜"), carried_en);
    assert!(
        !zh.contains("星旅馈赠"),
        "ended activities stay behind: {zh}"
    );

    let out = run(&head, &["fmt", "--check"]);
    assert_eq!(out.status.code(), Some(0), "canonical: {}", stdout(&out));
    let (code, report) = crate::util::check_json(&head, "2026-11-26T11:00:00");
    assert_eq!(code, 0);
    assert_eq!(report["diagnostics"], serde_json::json!([]), "{report}");
    let (_, report) = crate::util::check_json(&head, NOW);
    assert!(
        report["diagnostics"]
            .as_array()
            .expect("diagnostics")
            .iter()
            .all(|d| d["code"] == "upcoming-version"),
        "{report}"
    );
    let (code, text) = diff(work.path(), "text");
    assert_eq!(code, 1, "changes, none breaking:\n{text}");
    assert!(!text.contains("BREAKING"), "{text}");

    // A locale with an error: nothing is written, in any locale.
    let work = pair(None);
    let head = work.path().join("head");
    let broken = head.join("data/sr/en-US.json");
    let text = std::fs::read_to_string(&broken)
        .expect("en-US")
        .replace("\"2026-12-01T03:59:59\"", "\"2026-12-01 03:59\"");
    std::fs::write(&broken, &text).expect("write");
    let zh_before = std::fs::read(head.join("data/sr/zh-CN.json")).expect("zh-CN");
    let out = version_new(&head, &["4.7"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    says(
        &stderr(&out),
        "nothing written: data/sr/en-US.json has errors",
    );
    assert_eq!(std::fs::read_to_string(&broken).expect("en-US"), text);
    assert_eq!(
        std::fs::read(head.join("data/sr/zh-CN.json")).expect("zh-CN"),
        zh_before
    );
}

/// `diff --site head --against base` of a `sites/<name>` pair in `format`
/// (`lang`: the language of the report): exit status and standard output.
fn sites_in(name: &str, format: &str, lang: &str) -> (i32, String) {
    let dir = fixtures().join("sites").join(name);
    let out = run(
        &fixtures().join("base"),
        &[
            "--lang",
            lang,
            "diff",
            "--site",
            &dir.join("head").to_string_lossy(),
            "--against",
            &dir.join("base").to_string_lossy(),
            "--now",
            NOW,
            "--format",
            format,
        ],
    );
    let code = out.status.code().expect("exit code");
    assert_ne!(code, 2, "{}", stderr(&out));
    (
        code,
        stdout(&out).replace(&dir.to_string_lossy().into_owned(), "<sites>"),
    )
}

/// Issue 44: 4.7 published over 4.6 while one removed activity still runs.
/// `sr.json` and `sr-zh-CN.json` (the default locale's two names) are one
/// report; each removal is placed against now (ended, running: breaking,
/// not started: a warning) and the activity kept into 4.7 is listed as
/// carried, in every format and in both languages.
#[test]
fn a_review_reports_the_alias_once_and_places_every_removal_against_now() {
    let text = sites("removals", 3);
    says(
        &text,
        "  api/v1/activity/sr-zh-CN.json (also api/v1/activity/sr.json): changed\n",
    );
    assert!(
        !text.contains("  api/v1/activity/sr.json"),
        "the alias has no entry of its own: {text}"
    );
    says(&text, "BREAKING (1):");
    says(
        &text,
        "[ongoing-activity-removed] 花火跃迁 is ongoing (until 2026-11-27T03:59:59, 1 day left)",
    );
    says(&text, "WARNINGS (1):");
    says(
        &text,
        "[upcoming-activity-removed] 星芒战幕 has not started yet (it starts on 2026-11-28T12:00:00, in 3 days)",
    );
    says(
        &text,
        "- 星旅馈赠 (2026-10-21T12:00:00 – 2026-11-10T03:59:59), ended before now",
    );
    says(
        &text,
        "- 花火跃迁 (2026-11-05T12:00:00 – 2026-11-27T03:59:59), running now",
    );
    says(
        &text,
        "- 星芒战幕 (2026-11-28T12:00:00 – 2026-12-17T03:59:59), not started yet",
    );
    says(
        &text,
        "= 混沌回忆：坠星之夜 (2026-10-20T04:00:00 – 2026-12-01T03:59:59), carried into 4.7",
    );
    says(
        &text,
        "1 file (2 paths, 1 of them a second name of a file) compared with",
    );
    says(&text, "; 1 breaking change, 1 warning");

    let (code, json) = sites_in("removals", "json", "en-US");
    assert_eq!(code, 3);
    let json: serde_json::Value = serde_json::from_str(&json).expect("json");
    assert_eq!(json["paths"], 2, "{json}");
    assert_eq!(json["breaking"], 1);
    assert_eq!(json["warnings"], 1);
    let files = json["files"].as_array().expect("files");
    assert_eq!(files.len(), 1, "{json}");
    let file = &files[0];
    assert_eq!(file["path"], "api/v1/activity/sr-zh-CN.json");
    assert_eq!(
        file["aliases"],
        serde_json::json!(["api/v1/activity/sr.json"])
    );
    let when: Vec<(&str, &str)> = file["removed"]
        .as_array()
        .expect("removed")
        .iter()
        .map(|a| (a["name"].as_str().unwrap(), a["when"].as_str().unwrap()))
        .collect();
    assert_eq!(
        when,
        [
            ("星旅馈赠", "ended"),
            ("花火跃迁", "running"),
            ("星芒战幕", "upcoming")
        ]
    );
    assert_eq!(file["carried"][0]["name"], "混沌回忆：坠星之夜");
    assert_eq!(file["warnings"][0]["code"], "upcoming-activity-removed");

    let (_, github) = sites_in("removals", "github", "en-US");
    assert_eq!(github.matches("::error ").count(), 1, "{github}");
    assert_eq!(github.matches("::warning ").count(), 1, "{github}");
    assert_eq!(github.matches("::notice ").count(), 1, "{github}");
    says(
        &github,
        "title=warning%3A api/v1/activity/sr-zh-CN.json (also api/v1/activity/sr.json) (upcoming-activity-removed)::",
    );

    // The same review in Chinese, as a maintainer pastes it.
    let (code, markdown) = sites_in("removals", "markdown", "zh-CN");
    assert_eq!(code, 3);
    insta::assert_snapshot!("review_removals_markdown_zh", markdown);
    says(
        &markdown,
        "**`api/v1/activity/sr-zh-CN.json`（亦即 `api/v1/activity/sr.json`）**",
    );
    says(&markdown, "还剩 1 天");
    says(&markdown, "，已在现在之前结束");
    says(&markdown, "沿用到 4.7");
    for stray in ["  ", " ，", "， ", " 。", "剩 不"] {
        assert!(!markdown.contains(stray), "`{stray}` in:\n{markdown}");
    }
}

/// Less than a day left reads `还剩不到一天` in Chinese, without a space.
#[test]
fn less_than_a_day_left_has_no_stray_space_in_chinese() {
    let work = pair(Some("ongoing-removed"));
    let out = run(
        &work.path().join("head"),
        &[
            "--lang",
            "zh-CN",
            "diff",
            "--against",
            "../base-site",
            "--now",
            "2026-11-30T12:00:00",
            "--format",
            "markdown",
        ],
    );
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(3), "{text}{}", stderr(&out));
    says(&text, "（至 2026-12-01T03:59:59，还剩不到一天）");
}

/// `version new` keeps each locale's cover unless `--cover` says
/// otherwise; `--cover ''` removes it, and the review names that.
#[test]
fn version_new_keeps_the_cover_unless_told() {
    let work = pair(Some("cover"));
    let head = work.path().join("head");
    let out = version_new(&head, &["4.7"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    says(&stdout(&out), "; keeps `cover`; changes `version`");
    for locale in ["zh-CN", "en-US"] {
        let text = std::fs::read_to_string(head.join(format!("data/sr/{locale}.json"))).unwrap();
        says(
            &text,
            &format!("\"cover\": \"https://example.org/sr/4.6-{locale}.png\""),
        );
        says(&text, "\"version\": \"4.7\"");
    }

    let work = pair(Some("cover"));
    let head = work.path().join("head");
    let mut args = vec!["version", "new", "sr", "--version", "4.7", "--name", "4.7"];
    args.extend([
        "--start",
        "2026-11-26T11:00:00",
        "--end",
        "2027-01-07T05:59:59",
        "--cover",
        "",
        "--now",
        NOW,
    ]);
    let out = run(&head, &args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    says(&stdout(&out), "; cover removed");
    let text = std::fs::read_to_string(head.join("data/sr/en-US.json")).unwrap();
    assert!(!text.contains("\"cover\""), "{text}");
    // The review against a base with the cover names its removal.
    let base = work.path().join("base");
    fixture_tree(
        &fixtures().join("base"),
        Some(&fixtures().join("cover")),
        &base,
    );
    let out = run(
        &base,
        &["build", "--out", "../base-site", "--now", NOW, "--no-cache"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let (_, text) = diff(work.path(), "text");
    says(
        &text,
        "the version's cover is removed (was \"https://example.org/sr/4.6-en-US.png\")",
    );
    says(&text, "[cover-removed] version 4.7 has no cover any more");
}

/// `version new sr` 4.7 from 2026-11-26T11:00:00 at a moment inside
/// `Sparkle Warp` (which ends 2026-11-25T03:59:59, before the new start),
/// with `extra` arguments; the tree is the review base.
fn version_new_while_running(extra: &[&str]) -> (tempfile::TempDir, std::process::Output) {
    version_new_while_running_in(None, extra)
}

/// [`version_new_while_running`] on the review base with `case` laid over it.
fn version_new_while_running_in(
    case: Option<&str>,
    extra: &[&str],
) -> (tempfile::TempDir, std::process::Output) {
    let work = pair(case);
    let head = work.path().join("head");
    let mut args = vec![
        "version",
        "new",
        "sr",
        "--version",
        "4.7",
        "--name",
        "4.7",
        "--start",
        "2026-11-26T11:00:00",
        "--end",
        "2027-01-07T05:59:59",
        "--now",
        "2026-11-24T12:00:00",
    ];
    args.extend(extra);
    let out = run(&head, &args);
    (work, out)
}

/// Issue 57: an activity that runs at `--now` and ends before the new
/// version starts is carried in every locale (the community's carry-over
/// rule); what is left behind is named with its state; the one name given
/// for both locales is said to be used for each; the written tree checks
/// without an `outside-version` warning while the activity runs.
#[test]
fn version_new_keeps_an_activity_running_now() {
    let (work, out) = version_new_while_running(&[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    insta::assert_snapshot!("version_new_keeps_running", stdout(&out));
    let head = work.path().join("head");
    let en = std::fs::read_to_string(head.join("data/sr/en-US.json")).expect("en-US");
    let zh = std::fs::read_to_string(head.join("data/sr/zh-CN.json")).expect("zh-CN");
    says(&en, "\"name\": \"Sparkle Warp\"");
    says(&zh, "\"name\": \"花火跃迁\"");
    assert!(!en.contains("Gift of Odyssey"), "an ended one stays behind");
    let (_, report) = crate::util::check_json(&head, "2026-11-24T12:00:00");
    let codes: Vec<&str> = report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter_map(|d| d["code"].as_str())
        .collect();
    assert!(!codes.contains(&"outside-version"), "{report}");
    // Once it has ended, the carried activity is one to remove.
    let (_, report) = crate::util::check_json(&head, "2026-11-26T12:00:00");
    says(&report.to_string(), "outside-version");
}

/// `--drop NAME` leaves a running activity behind, in every locale, and
/// says so with its state; a `--drop` that names nothing refuses, naming
/// it, and writes nothing (in both languages).
#[test]
fn version_new_drops_a_running_activity_only_when_told() {
    let (work, out) = version_new_while_running(&["--drop", "Sparkle Warp", "--dry-run"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    insta::assert_snapshot!("version_new_drop_running", stdout(&out));
    let zh = std::fs::read_to_string(work.path().join("head/data/sr/zh-CN.json")).expect("zh");
    says(&zh, "\"version\": \"4.6\"");

    let (work, out) = version_new_while_running(&["--drop", "Sparkle", "--lang", "zh-CN"]);
    assert_eq!(out.status.code(), Some(1));
    says(&stderr(&out), "--drop `Sparkle` 不是 sr 当前版本的任何活动");
    let en = std::fs::read_to_string(work.path().join("head/data/sr/en-US.json")).expect("en");
    says(&en, "\"version\": \"4.6\"");
    let (_, out) = version_new_while_running(&["--drop", "Sparkle"]);
    says(
        &stderr(&out),
        "--drop `Sparkle` names no activity of the current version of sr",
    );
}

/// [`version_new_while_running_in`] `case`, refused: exit status 1 and
/// every locale's file as the case has it (nothing written); its standard
/// error.
fn version_new_refused(case: &str, extra: &[&str]) -> String {
    let (work, out) = version_new_while_running_in(Some(case), extra);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    for locale in ["zh-CN", "en-US"] {
        let path = format!("data/sr/{locale}.json");
        let read = |dir: &Path| std::fs::read(dir.join(&path)).expect("data file");
        assert!(
            read(&work.path().join("head")) == read(&fixtures().join(case)),
            "{path} is as it was"
        );
    }
    stderr(&out)
}

/// `--drop ID` leaves the activity with that id behind in every locale,
/// wherever it stands in each file: in `ids-reordered` the two activities
/// that start together stand in another order in each locale, so its name
/// (paired by place) is refused, pointing at the id. An id that names
/// nothing refuses, listing the ids and names of what is still to end.
#[test]
fn version_new_drops_by_id_across_locales_in_another_order() {
    let case = Some("ids-reordered");
    let (work, out) = version_new_while_running_in(case, &["--drop", "sr-4.6-03"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    insta::assert_snapshot!("version_new_drop_by_id", stdout(&out));
    let head = work.path().join("head");
    let en = std::fs::read_to_string(head.join("data/sr/en-US.json")).expect("en-US");
    let zh = std::fs::read_to_string(head.join("data/sr/zh-CN.json")).expect("zh-CN");
    says(&en, "\"version\": \"4.7\"");
    says(&zh, "\"id\": \"sr-4.6-01\"");
    assert!(!en.contains("sr-4.6-03"), "left behind in en-US: {en}");
    assert!(!zh.contains("sr-4.6-03"), "left behind in zh-CN: {zh}");

    // By name, the counterpart is paired by place: here it cannot be told.
    let err = version_new_refused("ids-reordered", &["--drop", "Sparkle Warp"]);
    says(&err, "`Sparkle Warp` of en-US has no counterpart in zh-CN");
    says(&err, "give its id `sr-4.6-03` instead");

    let err = version_new_refused("ids-reordered", &["--drop", "sr-4.6-09"]);
    says(
        &err,
        "--drop `sr-4.6-09` names no activity of the current version of sr",
    );
    says(
        &err,
        "its activities still to end, by id (and names): \
         `sr-4.6-01` (混沌回忆：坠星之夜, Memory of Chaos: Night of Falling Stars); \
         `sr-4.6-03` (花火跃迁, Sparkle Warp)",
    );
    let err = version_new_refused("ids-reordered", &["--drop", "sr-4.6-09", "--lang", "zh-CN"]);
    says(
        &err,
        "尚未结束的活动（ID 与名称）：`sr-4.6-01`（混沌回忆：坠星之夜、Memory of Chaos: Night of Falling Stars）",
    );
}

/// `id-missing-in-a-locale` is `ids-reordered` with zh-CN's `花火跃迁`
/// still without its id: `--drop sr-4.6-03` refuses, naming the twin,
/// rather than leave the activity behind in en-US and carry it in zh-CN.
#[test]
fn version_new_refuses_an_id_whose_twin_has_none_yet() {
    says(
        &version_new_refused("id-missing-in-a-locale", &["--drop", "sr-4.6-03"]),
        "zh-CN has no activity with the id `sr-4.6-03`, but `花火跃迁` there has its \
         times and no id; give it its id first (`activity-site check --fix`)",
    );
}

/// In `id-is-a-name`, `Sparkle Warp`'s id is `warp`, the English name of
/// another activity: `--drop warp` refuses, naming both and how to name
/// each, and writes nothing; the other's id and `Sparkle Warp`'s name (as
/// before ids) each drop the one they name.
#[test]
fn version_new_refuses_a_drop_that_is_an_id_and_a_name() {
    let case = Some("id-is-a-name");
    says(
        &version_new_refused("id-is-a-name", &["--drop", "warp"]),
        "--drop `warp` is both the id of `花火跃迁` and the name of another activity \
         (`sr-4.6-04` (warp)); give `花火跃迁` by its name, or the other one by its id",
    );

    let (work, out) = version_new_while_running_in(case, &["--drop", "sr-4.6-04", "--dry-run"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    says(
        &stdout(&out),
        "常驻跃迁 (2026-11-06T12:00:00 to 2026-11-25T03:59:59): runs now",
    );
    says(
        &stdout(&out),
        "2 activities carried (混沌回忆：坠星之夜, 花火跃迁)",
    );
    let en = std::fs::read_to_string(work.path().join("head/data/sr/en-US.json")).expect("en");
    says(&en, "\"version\": \"4.6\"");

    let (_, out) = version_new_while_running_in(case, &["--drop", "Sparkle Warp", "--dry-run"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    says(
        &stdout(&out),
        "Sparkle Warp (2026-11-05T12:00:00 to 2026-11-25T03:59:59): runs now",
    );
    says(
        &stdout(&out),
        "2 activities carried (Memory of Chaos: Night of Falling Stars, warp)",
    );
}

/// Issue 57: the bundled data is never behind the newest public files.
/// `tests/fixtures/public-facts` holds the facts (versions, names, times,
/// covers) of `api/v1/activity/sr.json`, `ys.json` and `zzz-en-US.json` of
/// the community's site `Shasnow/Shasnow.github.io` at commit
/// `4aa35b4b5ad6b3ba407ee49842769243dbee1a03`, their descriptions left
/// empty (the bundled ones are this project's own words). Against it, a
/// build of the bundled tree publishes every one of those documents, breaks
/// nothing, never goes back to an older version and, while the version is
/// the same, changes no activity's name or times: only descriptions. When the
/// data moves on to a newer version the test still holds.
#[test]
fn the_bundled_data_is_not_behind_the_newest_public_facts() {
    let (_dir, site) = crate::util::build_bundled(&["--now", "2026-11-27T12:00:00", "--no-cache"]);
    let public = crate_root().join("tests/fixtures/public-facts");
    let out = run(
        &crate_root(),
        &[
            "diff",
            "--against",
            public.to_str().unwrap(),
            "--site",
            site.to_str().unwrap(),
            "--now",
            "2026-11-27T12:00:00",
            "--format",
            "json",
        ],
    );
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("a JSON report");
    assert_eq!(report["breaking"], 0, "{report:#}");
    let public_files: Vec<String> = std::fs::read_dir(public.join("api/v1/activity"))
        .unwrap()
        .map(|e| {
            format!(
                "api/v1/activity/{}",
                e.unwrap().file_name().to_string_lossy()
            )
        })
        .collect();
    assert_eq!(public_files.len(), 3);
    for path in &public_files {
        let file = report["files"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["path"] == path.as_str())
            .unwrap_or_else(|| panic!("{path} is not compared: {report:#}"));
        assert_ne!(file["status"], "removed", "{file:#}");
        let version = file["version"].as_array().cloned().unwrap_or_default();
        for change in &version {
            if change["field"] == "startTime" {
                assert!(
                    change["to"].as_str() > change["from"].as_str(),
                    "{path} goes back: {file:#}"
                );
            }
        }
        if version.is_empty() {
            assert_eq!(file["added"].as_array().map_or(0, Vec::len), 0, "{file:#}");
            assert_eq!(
                file["removed"].as_array().map_or(0, Vec::len),
                0,
                "{file:#}"
            );
            for activity in file["changed"].as_array().cloned().unwrap_or_default() {
                // Descriptions are this project's own words; ids are this
                // project's own additions.
                for field in activity["fields"].as_array().unwrap() {
                    assert!(
                        field["field"] == "description" || field["field"] == "id",
                        "{path}: {activity:#}"
                    );
                }
            }
        }
    }
}
