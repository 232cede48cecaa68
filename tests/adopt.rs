//! Issue 31, adopting the real site: every game judged by its own time zone
//! (pages, `status`, calendars; `--now` and the clock), the tool's own
//! folders of `data/` never taken for games.

use std::path::Path;

use chrono::{Duration, Timelike as _};

use crate::util::{copy_tree, crate_root, files_under, run, says, stderr, stdout};

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

/// Builds `root` and returns the state each game's page shows at `now`:
/// the state its script draws from the version window the page carries
/// (`data-start`, `data-end`, each with the game's UTC offset), read at
/// the reader's instant (a wall time without an offset is read in each
/// game's zone; no `now` is the clock). The page itself says no state.
fn page_badges(root: &Path, now: Option<&str>) -> [String; 2] {
    let mut args = vec!["build", "--no-cache"];
    if let Some(now) = now {
        args.extend(["--now", now]);
    }
    let output = run(root, &args);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let badge = |game: &str| {
        let page =
            std::fs::read_to_string(root.join("site").join(game).join("index.html")).unwrap();
        let section = &page[page.find("<section class=\"version").expect("a version")..];
        let attr = |name: &str| {
            let at = section.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
            let value = &section[at..];
            chrono::DateTime::parse_from_rfc3339(&value[..value.find('"').unwrap()]).unwrap()
        };
        let (start, end) = (attr("data-start"), attr("data-end"));
        let reader = match now {
            None => chrono::Utc::now().fixed_offset(),
            Some(now) => chrono::DateTime::parse_from_rfc3339(now).unwrap_or_else(|_| {
                let wall = activity_site::model::Time::parse(now).unwrap().naive();
                wall.and_local_timezone(*end.offset()).unwrap()
            }),
        };
        if reader < start {
            "upcoming"
        } else if reader > end {
            "ended"
        } else {
            "ongoing"
        }
        .to_owned()
    };
    [badge("sh"), badge("tk")]
}

/// Rewrites the zh-CN document of each of the two games of `zones` with `edit`.
fn edit_documents(root: &Path, edit: impl Fn(&str, String) -> String) {
    for game in ["sh", "tk"] {
        let path = root.join("data").join(game).join("zh-CN.json");
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, edit(game, text)).unwrap();
    }
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
    assert_eq!(page_badges(root.path(), Some(now)), ["ongoing", "ended"]);
    // The same instant in UTC says the same.
    assert_eq!(
        page_badges(root.path(), Some("2026-05-31T19:30:00Z")),
        ["ongoing", "ended"]
    );
    // A wall time without an offset is that time in each game's zone.
    assert_eq!(
        page_badges(root.path(), Some("2026-06-01T03:30:00")),
        ["ongoing", "ongoing"]
    );
    // The calendar carries the game's zone: the end is 03:59:59 in Tokyo.
    let ics = std::fs::read_to_string(root.path().join("site/api/v1/activity/tk.ics")).unwrap();
    says(&ics, "TZID:Asia/Tokyo");
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
    edit_documents(root.path(), |_, text| {
        text.replace("2026-05-01T04:00:00", &fmt(start))
            .replace("2026-06-01T03:59:59", &fmt(end))
    });
    assert_eq!(
        status_states(root.path(), None),
        vec![
            ("sh".to_owned(), "ending".to_owned()),
            ("tk".to_owned(), "ended".to_owned())
        ]
    );
    assert_eq!(page_badges(root.path(), None), ["ongoing", "ended"]);
}

/// Far in the past and far in the future: the clock path marks them the
/// same in every zone, whatever day the test runs.
#[test]
fn the_clock_marks_past_and_future_versions() {
    let root = fixture("zones");
    edit_documents(root.path(), |game, text| {
        text.replace("2026-", if game == "sh" { "2001-" } else { "2098-" })
    });
    assert_eq!(page_badges(root.path(), None), ["ended", "upcoming"]);
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
    says(&stderr(&output), "orphan-file");
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
                data_source: Some(activity_site::model::Localized::One(
                    "https://example.org".into(),
                )),
                conventions: Default::default(),
                data_sources: None,
                time_zone: None,
                update_mode: None,
                time_zone_assumed: false,
                aliases: Vec::new(),
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

const SITE_NOW: &str = "2026-11-15T12:00:00";

/// `import --from <from> --root <root>` with the fixture's zones.
fn import(root: &Path, from: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "import",
        "--from",
        from.to_str().unwrap(),
        "--root",
        root.to_str().unwrap(),
        "--now",
        SITE_NOW,
        "--time-zone",
        "ba-jp=Asia/Tokyo",
    ];
    args.extend_from_slice(extra);
    run(root.parent().unwrap(), &args)
}

fn json(bytes: &[u8]) -> serde_json::Value {
    serde_json::from_slice(bytes).unwrap()
}

#[test]
fn importing_the_real_site_names_every_file_it_does_not_take() {
    let dir = tempfile::tempdir().unwrap();
    let site = crate_root().join("tests/fixtures/real-site");
    let root = dir.path().join("root");
    let output = import(&root, &site, &[]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    for skipped in [
        "skipped: api/v1/activities.json: not an activity or announcements document\n",
        "skipped: robots.txt: not generated by the build; --keep-unknown keeps it in data/_files/\n",
        "skipped: api/v1/activity/README.txt: not generated",
    ] {
        assert!(err.contains(skipped), "{skipped} in\n{err}");
    }
    says(
        &err,
        "import: 17 activity files on the site, 17 imported: 17 documents of 11 games, 1 announcements file, 0 kept in data/_files/, 3 skipped, 1 regenerated by the build; the time zone of 10 games was assumed",
    );
    says(&err, "time zone: ba-jp Asia/Tokyo (from --time-zone)\n");
    says(&err, "time zone: ba-cn Asia/Shanghai (assumed");
    says(
        &err,
        "note: data/end/zh-CN.json: the API lists its activities out of start order",
    );
    // A JSON file of neither shape never becomes a game.
    let registry: serde_json::Value =
        serde_json::from_slice(&std::fs::read(root.join("games.json")).unwrap()).unwrap();
    let ids: Vec<&str> = registry["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids.len(), 11, "{ids:?}");
    assert!(
        !ids.contains(&"activities") && !ids.contains(&"anno"),
        "{ids:?}"
    );
    // Every imported game names its zone.
    for game in registry["games"].as_array().unwrap() {
        assert!(game["timeZone"].is_string(), "{game}");
    }
    // With --allow-skipped the same import exits 0 and still names them.
    let output = import(&root, &site, &["--allow-skipped"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    says(&stderr(&output), "skipped: robots.txt");
}

#[test]
fn the_root_api_v1_and_a_flat_folder_import_to_the_same_tree() {
    let dir = tempfile::tempdir().unwrap();
    let site = crate_root().join("tests/fixtures/real-site");
    let from_root = dir.path().join("a");
    let from_api = dir.path().join("b");
    let from_activity = dir.path().join("c");
    let from_flat = dir.path().join("d");
    // A flat folder: the documents and the announcements side by side.
    let flat = dir.path().join("flat");
    std::fs::create_dir_all(&flat).unwrap();
    for entry in std::fs::read_dir(site.join("api/v1/activity")).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), flat.join(entry.file_name())).unwrap();
    }
    std::fs::copy(site.join("api/v1/anno.json"), flat.join("anno.json")).unwrap();
    // And its `llms.txt`, which names the games.
    std::fs::copy(site.join("llms.txt"), flat.join("llms.txt")).unwrap();
    for (root, from) in [
        (&from_root, site.clone()),
        (&from_api, site.join("api/v1")),
        (&from_activity, site.join("api/v1/activity")),
        (&from_flat, flat),
    ] {
        let output = import(root, &from, &["--allow-skipped"]);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    }
    // Byte for byte, but `games.json` as JSON with its games by id: a site's
    // `llms.txt` orders them, a flat folder has none to read.
    let tree = |root: &Path| -> Vec<(String, String)> {
        files_under(root)
            .into_iter()
            .filter(|(path, _)| !path.starts_with("data/_files/"))
            .map(|(path, bytes)| {
                if path == "games.json" {
                    let mut registry = json(&bytes);
                    registry["games"]
                        .as_array_mut()
                        .unwrap()
                        .sort_by_key(|g| g["id"].as_str().unwrap().to_owned());
                    (path, registry.to_string())
                } else {
                    (path, String::from_utf8(bytes).unwrap())
                }
            })
            .collect()
    };
    let expected = tree(&from_root);
    let paths: Vec<&str> = expected.iter().map(|(p, _)| p.as_str()).collect();
    assert!(paths.contains(&"data/ba-jp/zh-CN.json"), "{paths:?}");
    assert!(
        paths.contains(&"data/_announcements/zh-CN.json"),
        "{paths:?}"
    );
    for other in [&from_api, &from_activity, &from_flat] {
        assert!(
            tree(other) == expected,
            "{} differs from {}",
            other.display(),
            from_root.display()
        );
    }
}

#[test]
fn an_imported_site_builds_to_the_same_documents_and_kept_files() {
    let dir = tempfile::tempdir().unwrap();
    let site = crate_root().join("tests/fixtures/real-site");
    let root = dir.path().join("root");
    let output = import(&root, &site, &["--keep-unknown"]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(0), "{err}");
    says(&err, "3 kept in data/_files/, 0 skipped");
    let output = run(&root, &["build", "--no-cache", "--now", SITE_NOW]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let deployed = files_under(&site);
    let built = files_under(&root.join("site"));
    // The announcements, imported as they are (their JSON content).
    let imported = std::fs::read(root.join("data/_announcements/zh-CN.json")).unwrap();
    assert_eq!(json(&imported), json(&deployed["api/v1/anno.json"]));
    // The announcements build publishes it: the same JSON content.
    assert!(
        built.contains_key("api/v1/anno.json"),
        "api/v1/anno.json is not published"
    );
    assert_eq!(
        json(&deployed["api/v1/anno.json"]),
        json(&built["api/v1/anno.json"])
    );
    for (path, bytes) in &deployed {
        let Some(ours) = built.get(path) else {
            panic!("{path} is not published");
        };
        if path.starts_with("api/v1/activity/") && path.ends_with(".json") {
            // The same JSON content; the build sorts activities by start
            // and adds the instants, zone and due time (issue 55).
            let mut a = json(bytes);
            let mut b = json(ours);
            assert!(activity_site::model::published::strip_derived(&mut b));
            for doc in [&mut a, &mut b] {
                doc["activities"]
                    .as_array_mut()
                    .unwrap()
                    .sort_by_key(|x| x["startTime"].as_str().unwrap().to_owned());
            }
            assert_eq!(a, b, "{path}");
        } else if path == "llms.txt" {
            // Generated from the registry: it names every game.
            let text = String::from_utf8_lossy(ours);
            for id in [
                "sr",
                "ys",
                "zzz",
                "ww",
                "nte",
                "ba-cn",
                "ba-jp",
                "ba-global",
                "ak",
                "end",
                "xtlr",
            ] {
                assert!(text.contains(&format!("- `{id}` ")), "{id} in {text}");
            }
        } else if path == "api/v1/anno.json" {
            assert_eq!(json(bytes), json(ours), "{path}");
        } else {
            // Kept files: byte for byte.
            assert_eq!(bytes, ours, "{path}");
        }
    }
    // Untouched by the build, `nte.json` (no trailing newline) and `end.json`
    // (another order) differ in bytes only.
    assert_ne!(
        deployed["api/v1/activity/nte.json"],
        built["api/v1/activity/nte.json"]
    );
    assert_ne!(
        deployed["api/v1/activity/end.json"],
        built["api/v1/activity/end.json"]
    );
}

#[test]
fn a_kept_file_never_replaces_a_generated_one() {
    let root = fixture("zones");
    let kept = root.path().join("data/_files/api/v1/activity/tk.json");
    std::fs::create_dir_all(kept.parent().unwrap()).unwrap();
    std::fs::write(&kept, "{}\n").unwrap();
    let output = run(
        root.path(),
        &["build", "--no-cache", "--now", "2026-05-15T12:00:00"],
    );
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    says(
        &stderr(&output),
        "`data/_files/api/v1/activity/tk.json` would replace the generated `api/v1/activity/tk.json`",
    );
    assert!(!root.path().join("site").exists());
}

#[test]
fn kept_files_are_checked_for_json_and_links_outside() {
    let root = fixture("zones");
    std::fs::write(root.path().join("data/_files/broken.json"), "{\"a\": 1,}\n").unwrap();
    let outside = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(outside.path(), "secret\n").unwrap();
    std::os::unix::fs::symlink(outside.path(), root.path().join("data/_files/link.txt")).unwrap();
    let output = run(
        root.path(),
        &["check", "--format", "json", "--now", "2026-05-15T12:00:00"],
    );
    assert_eq!(output.status.code(), Some(1));
    let found: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    // Its documents predate ids (`missing-id` is the ids tests' concern).
    let rows: Vec<String> = found["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] != "missing-id")
        .map(|d| {
            format!(
                "{} {}:{}:{}",
                d["code"].as_str().unwrap(),
                d["file"].as_str().unwrap(),
                d["line"],
                d["column"]
            )
        })
        .collect();
    assert!(
        rows.contains(&"json-syntax data/_files/broken.json:1:8".to_owned()),
        "{rows:?}"
    );
    assert!(
        rows.contains(&"kept-file data/_files/link.txt:1:1".to_owned()),
        "{rows:?}"
    );
    // Its human rendering never shows the line the link leads to.
    let output = run(root.path(), &["check", "--now", "2026-05-15T12:00:00"]);
    assert!(!stderr(&output).contains("secret"), "{}", stderr(&output));
}

#[test]
fn typed_data_sources_check_clean_and_each_wrong_one_is_pointed_at() {
    let root = fixture("data-sources");
    let output = run(
        root.path(),
        &["check", "--format", "json", "--now", "2026-05-15T12:00:00"],
    );
    let found: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    // Its documents predate ids (`missing-id` is the ids tests' concern).
    let rows: Vec<String> = found["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] != "missing-id")
        .map(|d| {
            format!(
                "{}:{}:{} {}",
                d["file"].as_str().unwrap(),
                d["line"],
                d["column"],
                d["message"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            "games.json:38:21 `htm` is not a kind of data source",
            "games.json:39:20 the source URL `/news` is not an absolute http(s) URL",
            "games.json:44:27 the article URL template `https://example.org/news/` has no `{field}` placeholder",
        ],
        "{}",
        stdout(&output)
    );
    assert_eq!(output.status.code(), Some(1));
    // Fixed, the same registry checks clean.
    let path = root.path().join("games.json");
    let fixed = std::fs::read_to_string(&path)
        .unwrap()
        .replace("\"htm\"", "\"html\"")
        .replace("\"/news\"", "\"https://example.org/tk/news\"")
        .replace("news/\"", "news/{id}\"");
    std::fs::write(&path, fixed).unwrap();
    let output = run(root.path(), &["check", "--now", "2026-05-15T12:00:00"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    // Status shows an agent where to look.
    let output = run(root.path(), &["status", "--now", "2026-05-15T12:00:00"]);
    assert!(
        stdout(&output)
            .contains("sh zh-CN: html https://example.org/sh/news; script scripts/fetch.mjs"),
        "{}",
        stdout(&output)
    );
    // A script of another repository says where it lives: status links it
    // (issue 57); a repository that is no http(s) URL is pointed at.
    let registry = std::fs::read_to_string(&path).unwrap();
    let elsewhere = registry.replace(
        "\"script\": \"scripts/fetch.mjs\"",
        "\"script\": \"scripts/fetch.mjs\",\n            \"repository\": \"https://github.com/example/site\"",
    );
    assert_ne!(elsewhere, registry);
    std::fs::write(&path, &elsewhere).unwrap();
    let output = run(root.path(), &["status", "--now", "2026-05-15T12:00:00"]);
    assert!(
        stdout(&output).contains(
            "sh zh-CN: html https://example.org/sh/news; script https://github.com/example/site/blob/HEAD/scripts/fetch.mjs"
        ),
        "{}",
        stdout(&output)
    );
    std::fs::write(
        &path,
        elsewhere.replace(
            "https://github.com/example/site",
            "git@github.com:example/site",
        ),
    )
    .unwrap();
    let output = run(root.path(), &["check", "--now", "2026-05-15T12:00:00"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(
        stderr(&output)
            .contains("`repository` is `git@github.com:example/site`, not an absolute http(s) URL"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_site_without_an_index_is_imported_by_url_from_its_llms_txt() {
    let dir = tempfile::tempdir().unwrap();
    let site = crate_root().join("tests/fixtures/real-site");
    let base = crate::util::serve_folder(&site);
    let by_url = dir.path().join("url");
    let output = import(
        &by_url,
        Path::new(&format!("{base}/api/v1")),
        &["--keep-unknown", "--locales", "en-US"],
    );
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(0), "{err}");
    assert!(
        err.contains(&format!(
            "note: the site has no index; the games to fetch (ak, ba-cn, ba-global, ba-jp, end, nte, sr, ww, xtlr, ys, zzz) come from {base}/llms.txt"
        )),
        "{err}"
    );
    // The five zh-CN-only games have no en-US file: said, not an error.
    says(
        &err,
        "5 games have no en-US document (ba-cn, ba-jp, ba-global, ak, xtlr): that locale is not one of theirs",
    );
    // The same documents, announcements and kept files as from the folder
    // (a folder is listed; a URL finds only the files a site is known to keep).
    let by_folder = dir.path().join("folder");
    let output = import(&by_folder, &site, &["--keep-unknown"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let mut expected = files_under(&by_folder);
    expected.remove("data/_files/api/v1/activity/README.txt");
    assert_eq!(files_under(&by_url), expected);
}

/// Issue 44: a site with no index that lists its games only in its
/// `llms.txt` (in the real site's format), imported by URL with no
/// `--locales`: the locales come from what the site says (`sr-en-US.json`
/// as its example) and from asking each game for them, so every locale's
/// file comes in, with every name of its games table; the summary counts
/// what the site has against what was imported, and a document that
/// cannot be fetched makes the exit status 1.
#[test]
fn a_site_listing_its_games_only_in_llms_txt_is_imported_whole_by_url() {
    let dir = tempfile::tempdir().unwrap();
    let site = crate_root().join("tests/fixtures/real-site");
    let base = crate::util::serve_folder(&site);
    let root = dir.path().join("root");
    let output = import(&root, Path::new(&base), &["--keep-unknown"]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(0), "{err}");
    says(
        &err,
        "note: the site has no index; each game's document was asked for in en-US besides the default locale",
    );
    says(
        &err,
        "import: 17 activity files on the site, 17 imported: 17 documents of 11 games",
    );
    let deployed: Vec<String> = std::fs::read_dir(site.join("api/v1/activity"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json"))
        .collect();
    assert_eq!(deployed.len(), 17);
    for name in &deployed {
        let stem = name.trim_end_matches(".json");
        let data = match stem.strip_suffix("-en-US") {
            Some(game) => format!("data/{game}/en-US.json"),
            None => format!("data/{stem}/zh-CN.json"),
        };
        assert!(root.join(&data).is_file(), "{name} -> {data}");
    }
    let registry = json(&std::fs::read(root.join("games.json")).unwrap());
    let names: Vec<(String, String)> = registry["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["id"].as_str().unwrap().to_owned(),
                g["name"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let llms = std::fs::read_to_string(site.join("llms.txt")).unwrap();
    for (id, name) in &names {
        assert!(
            llms.contains(&format!("| `{id}` | {name} |")),
            "{id} is named {name}"
        );
    }
    assert_eq!(names.len(), 11);
    says(
        &err,
        "name: sr Honkai: Star Rail (from the site's llms.txt)\n",
    );
    says(
        &err,
        "name: ba-global Blue Archive (Global) (from the site's llms.txt)\n",
    );

    // One document the site has that does not answer: named, counted, exit 1.
    let failing = crate::util::serve_on_loopback(
        axum::Router::new()
            .route(
                "/api/v1/activity/nte-en-US.json",
                axum::routing::get(|| async {
                    (axum::http::StatusCode::INTERNAL_SERVER_ERROR, "down")
                }),
            )
            .fallback_service(tower_http::services::ServeDir::new(&site)),
    );
    let root = dir.path().join("again");
    let output = import(&root, Path::new(&failing), &["--keep-unknown"]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    says(
        &err,
        &format!("error: {failing}/api/v1/activity/nte-en-US.json: "),
    );
    says(
        &err,
        "import: 17 activity files on the site, 16 imported: 16 documents of 11 games",
    );
    says(&err, "1 file not imported");
}

/// Issue 44: a site whose `sr` has no known time zone and whose legacy
/// `api/v1/activities.json` is an older copy of sr's document. The import
/// marks the zone as assumed in `games.json`; `status`, `check` and the
/// game's page say so until the mark is removed. With `--legacy sync` the
/// legacy path becomes an alias of sr's data, so the build publishes it
/// from the data and it follows every edit; without a choice it is
/// skipped with how to choose, and `--legacy keep` keeps it frozen.
#[test]
fn an_assumed_zone_and_a_synced_legacy_file_stay_visible_until_confirmed() {
    const NOW: &str = "2026-11-20T12:00:00";
    let dir = tempfile::tempdir().unwrap();
    let site = crate_root().join("tests/fixtures/legacy-site");
    let legacy = std::fs::read(site.join("api/v1/activities.json")).unwrap();
    let import_into = |root: &Path, extra: &[&str]| {
        let mut args = vec![
            "import",
            "--from",
            site.to_str().unwrap(),
            "--root",
            root.to_str().unwrap(),
            "--now",
            NOW,
        ];
        args.extend_from_slice(extra);
        run(dir.path(), &args)
    };

    // No choice: skipped, and the output says how to choose.
    let root = dir.path().join("unchosen");
    let output = import_into(&root, &[]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    says(
        &err,
        "skipped: api/v1/activities.json: the activity document of `sr` (zh-CN): pass --legacy sync",
    );
    // Kept frozen, byte for byte, and said so.
    let root = dir.path().join("frozen");
    let output = import_into(&root, &["--legacy", "keep"]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(0), "{err}");
    says(
        &err,
        "legacy: api/v1/activities.json is the zh-CN activity document of `sr` (version 4.6 there; data/sr/zh-CN.json is what the build publishes now); kept frozen in data/_files/",
    );
    assert_eq!(
        std::fs::read(root.join("data/_files/api/v1/activities.json")).unwrap(),
        legacy
    );

    // Kept in sync.
    let root = dir.path().join("root");
    let output = import_into(&root, &["--legacy", "sync"]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(0), "{err}");
    says(&err, "time zone: sr Asia/Shanghai (assumed");
    says(
        &err,
        "legacy: api/v1/activities.json is the zh-CN activity document of `sr` (version 4.6 there; data/sr/zh-CN.json is what the build publishes now); kept in sync: the build publishes it from data/sr/zh-CN.json at every build",
    );
    assert!(!root.join("data/_files").exists());
    let registry = json(&std::fs::read(root.join("games.json")).unwrap());
    let sr = &registry["games"][0];
    assert_eq!(sr["timeZoneAssumed"], true, "{registry}");
    assert_eq!(
        sr["aliases"],
        serde_json::json!([{"path": "api/v1/activities.json"}])
    );
    // Imported again: the zone is still a guess, the alias stays one.
    let output = import_into(&root, &[]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(0), "{err}");
    says(
        &err,
        "time zone: sr Asia/Shanghai (assumed by an earlier import and not confirmed yet",
    );
    says(
        &err,
        "kept in sync: the build publishes it from data/sr/zh-CN.json",
    );

    // The assumption, in status, check and the page, until confirmed.
    let assumed = |root: &Path| -> (String, String, String) {
        let status = run(root, &["status", "--now", NOW]);
        assert_eq!(status.status.code(), Some(0), "{}", stderr(&status));
        let check = run(root, &["check", "--now", NOW]);
        assert_eq!(check.status.code(), Some(0), "{}", stderr(&check));
        let build = run(root, &["build", "--no-cache", "--now", NOW]);
        assert_eq!(build.status.code(), Some(0), "{}", stderr(&build));
        let page = std::fs::read_to_string(root.join("site/sr/index.html")).unwrap();
        (stderr(&status), stderr(&check), page)
    };
    let (status, check, page) = assumed(&root);
    says(
        &status,
        "the time zone Asia/Shanghai of `sr` was assumed by `import`",
    );
    let rows = run(&root, &["status", "--format", "json", "--now", NOW]);
    let rows = json(&rows.stdout);
    assert_eq!(rows[0]["timeZoneAssumed"], "Asia/Shanghai", "{rows}");
    says(
        &check,
        "the time zone Asia/Shanghai of `sr` was assumed by the import, not confirmed",
    );
    says(
        &page,
        "<span id=\"zone-assumed\">这个时区是导入数据时假定的，尚未确认。</span>",
    );
    // The legacy path is the game's document, built from the data.
    let published = |root: &Path| {
        let alias = std::fs::read(root.join("site/api/v1/activities.json")).unwrap();
        let document = std::fs::read(root.join("site/api/v1/activity/sr.json")).unwrap();
        assert_eq!(alias, document);
        json(&alias)
    };
    assert_eq!(published(&root)["version"], "4.7");
    // An edit of the game: the legacy file follows it.
    let data = root.join("data/sr/zh-CN.json");
    let edited = std::fs::read_to_string(&data)
        .unwrap()
        .replace("以太战线新赛季。", "以太战线新赛季开启。");
    std::fs::write(&data, edited).unwrap();
    let build = run(&root, &["build", "--now", NOW]);
    assert_eq!(build.status.code(), Some(0), "{}", stderr(&build));
    says(&published(&root).to_string(), "以太战线新赛季开启。");

    // Confirmed: the mark removed, nothing says it any more.
    let path = root.join("games.json");
    let mut confirmed = json(&std::fs::read(&path).unwrap());
    confirmed["games"][0]
        .as_object_mut()
        .unwrap()
        .remove("timeZoneAssumed");
    std::fs::write(
        &path,
        serde_json::to_string_pretty(&confirmed).unwrap() + "\n",
    )
    .unwrap();
    let (status, check, page) = assumed(&root);
    assert!(!status.contains("assumed"), "{status}");
    assert!(!check.contains("assumed"), "{check}");
    assert!(!page.contains("zone-assumed"), "{page}");
}
