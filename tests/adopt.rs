//! Issue 31, adopting the real site: every game judged by its own time zone
//! (pages, `status`, calendars; `--now` and the clock), the tool's own
//! folders of `data/` never taken for games.

use std::path::Path;

use chrono::{Duration, Timelike as _};

use crate::util::{copy_tree, crate_root, run, stderr, stdout};

/// A copy of a fixture folder of `tests/fixtures/`.
fn fixture(name: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&crate_root().join("tests/fixtures").join(name), dir.path());
    dir
}

/// The status rows of `root` as JSON, by game.
fn status_states(root: &Path, now: Option<&str>) -> Vec<(String, String)> {
    let mut args = vec!["status", "--format", "json"];
    if let Some(now) = now {
        args.extend(["--now", now]);
    }
    let output = run(root, &args);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let rows: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let mut states: Vec<(String, String)> = rows
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["game"].as_str().unwrap().to_owned(),
                r["state"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    states.sort();
    states
}

/// Builds `root` and returns the version badge of each game's page.
fn page_badges(root: &Path, now: Option<&str>) -> (String, String) {
    let mut args = vec!["build", "--no-cache"];
    if let Some(now) = now {
        args.extend(["--now", now]);
    }
    let output = run(root, &args);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let badge = |game: &str| {
        let page =
            std::fs::read_to_string(root.join("site").join(game).join("index.html")).unwrap();
        let at = page.find("<span class=\"badge ").expect("a status badge");
        let rest = &page[at + "<span class=\"badge ".len()..];
        // `badge st <state>`: the status badge the page's script redraws.
        rest[..rest.find('"').unwrap()]
            .trim_start_matches("st ")
            .to_owned()
    };
    (badge("sh"), badge("tk"))
}

#[test]
fn a_game_in_tokyo_is_judged_by_tokyo_time_with_a_pinned_instant() {
    let root = fixture("zones");
    // 04:30 in Tokyo is 03:30 in Shanghai: both versions end at 03:59:59
    // local time, so Tokyo's has ended and Shanghai's has not.
    let now = "2026-06-01T04:30:00+09:00";
    assert_eq!(
        status_states(root.path(), Some(now)),
        vec![
            ("sh".to_owned(), "ending".to_owned()),
            ("tk".to_owned(), "ended".to_owned())
        ]
    );
    assert_eq!(
        page_badges(root.path(), Some(now)),
        ("ongoing".to_owned(), "ended".to_owned())
    );
    // The same instant in UTC says the same.
    assert_eq!(
        page_badges(root.path(), Some("2026-05-31T19:30:00Z")),
        ("ongoing".to_owned(), "ended".to_owned())
    );
    // A wall time without an offset is that time in each game's zone.
    assert_eq!(
        page_badges(root.path(), Some("2026-06-01T03:30:00")),
        ("ongoing".to_owned(), "ongoing".to_owned())
    );
    // The calendar carries the game's zone: the end is 03:59:59 in Tokyo.
    let ics = std::fs::read_to_string(root.path().join("site/api/v1/activity/tk.ics")).unwrap();
    assert!(ics.contains("TZID:Asia/Tokyo"), "{ics}");
    assert!(
        ics.contains("DTEND;TZID=Asia/Tokyo:20260601T040000")
            || ics.contains("DTEND;TZID=Asia/Tokyo:20260601T035959"),
        "{ics}"
    );
}

/// Rewrites both games' documents so that they end 30 minutes before the
/// clock reads in Tokyo (which is 30 minutes after it reads in Shanghai):
/// the verdicts below hold whenever the test runs, unless it stalls for
/// half an hour.
#[test]
fn a_game_in_tokyo_is_judged_by_tokyo_time_with_the_clock() {
    let root = fixture("zones");
    let tokyo = chrono::Utc::now()
        .with_timezone(&chrono_tz::Asia::Tokyo)
        .naive_local();
    let end = (tokyo - Duration::minutes(30)).with_second(59).unwrap();
    let start = (end - Duration::days(20)).with_second(0).unwrap();
    let fmt = |t: chrono::NaiveDateTime| t.format("%Y-%m-%dT%H:%M:%S").to_string();
    for game in ["sh", "tk"] {
        let path = root.path().join("data").join(game).join("zh-CN.json");
        let text = std::fs::read_to_string(&path)
            .unwrap()
            .replace("2026-05-01T04:00:00", &fmt(start))
            .replace("2026-06-01T03:59:59", &fmt(end));
        std::fs::write(&path, text).unwrap();
    }
    assert_eq!(
        status_states(root.path(), None),
        vec![
            ("sh".to_owned(), "ending".to_owned()),
            ("tk".to_owned(), "ended".to_owned())
        ]
    );
    assert_eq!(
        page_badges(root.path(), None),
        ("ongoing".to_owned(), "ended".to_owned())
    );
}

/// Far in the past and far in the future: the clock path marks them the
/// same in every zone, whatever day the test runs.
#[test]
fn the_clock_marks_past_and_future_versions() {
    let root = fixture("zones");
    for (game, from, to) in [("sh", "2026-", "2001-"), ("tk", "2026-", "2098-")] {
        let path = root.path().join("data").join(game).join("zh-CN.json");
        let text = std::fs::read_to_string(&path).unwrap().replace(from, to);
        std::fs::write(&path, text).unwrap();
    }
    assert_eq!(
        page_badges(root.path(), None),
        ("ended".to_owned(), "upcoming".to_owned())
    );
}

#[test]
fn the_tools_own_folders_of_data_are_never_games() {
    let root = fixture("zones");
    let output = run(root.path(), &["check", "--now", "2026-05-15T12:00:00"]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}{}",
        stdout(&output),
        stderr(&output)
    );
    assert!(
        !stderr(&output).contains("orphan-file"),
        "{}",
        stderr(&output)
    );
    // A stray folder that is not the tool's own still is an orphan.
    std::fs::create_dir_all(root.path().join("data/stray")).unwrap();
    std::fs::write(root.path().join("data/stray/zh-CN.json"), "{}").unwrap();
    let output = run(root.path(), &["check", "--now", "2026-05-15T12:00:00"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("orphan-file"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn the_site_locale_is_the_default_locale_most_games_share() {
    let registry = |defaults: &[&str]| activity_site::model::Registry {
        schema: None,
        games: defaults
            .iter()
            .enumerate()
            .map(|(i, d)| activity_site::model::Game {
                id: format!("g{i}"),
                name: activity_site::model::Localized::One("G".into()),
                locales: vec![(*d).to_owned()],
                default_locale: (*d).to_owned(),
                data_source: activity_site::model::Localized::One("https://example.org".into()),
                time_zone: None,
                update_mode: None,
            })
            .collect(),
    };
    assert_eq!(
        registry(&["en-US", "zh-CN", "zh-CN"]).site_locale(),
        Some("zh-CN")
    );
    assert_eq!(registry(&["en-US", "zh-CN"]).site_locale(), Some("en-US"));
    assert_eq!(registry(&[]).site_locale(), None);
}
