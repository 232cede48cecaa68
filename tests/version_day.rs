//! Issue 64: the maintainers' version day on the bundled data, as one test
//! in each language. For every game of `games.json` (nte, whose English is
//! pending, and zzz, whose locales stand at different versions, included):
//! `version new` at the next version's start, a new activity written in
//! every locale, `check --changed-since main` and `diff --against-rev main`
//! in a git repository of the bundled tree. The check finds nothing, the
//! review no breaking change, an empty cover stays `""`, and every message
//! is in the language asked for.

use std::path::Path;

use serde_json::{Value, json};

use crate::util::{bundled_repository, git, run, stderr, stdout};

/// Words only the other language's messages of these commands use: a
/// message in the wrong language shows one of them.
const NOT_ENGLISH: &[&str] = &[
    "将写入",
    "已写入",
    "沿用",
    "没有发现问题",
    "比较了",
    "错误",
    "警告",
    "帮助",
];
const NOT_CHINESE: &[&str] = &[
    "would write",
    "wrote ",
    "carried",
    "no problems",
    "compared with",
    "error",
    "warning",
    "help:",
    "left behind",
];

#[test]
fn version_day_in_english() {
    version_day("en-US", NOT_ENGLISH);
}

#[test]
fn version_day_in_chinese() {
    version_day("zh-CN", NOT_CHINESE);
}

/// The bundled tree in a new git repository (`main`), each game's version
/// day on it, the tree put back after each.
fn version_day(lang: &str, foreign: &[&str]) {
    let repo = bundled_repository("the bundled data");
    let root = repo.path();
    let games: Value = read(&root.join("games.json"));
    let games = games["games"].as_array().expect("games");
    assert!(games.len() >= 11, "the bundled data lists its games");
    for game in games {
        let id = game["id"].as_str().expect("id");
        let said = one_day(root, lang, game);
        for word in foreign {
            assert!(
                !said.contains(word),
                "{id} in {lang}: `{word}` is of the other language:\n{said}"
            );
        }
        git(root, &["checkout", "-q", "--", "."]);
        git(root, &["clean", "-qfd"]);
    }
}

/// One game's version day; gives everything the commands said.
fn one_day(root: &Path, lang: &str, game: &Value) -> String {
    let id = game["id"].as_str().expect("id");
    let path = |locale: &str| root.join(format!("data/{id}/{locale}.json"));
    let locales: Vec<&str> = game["locales"]
        .as_array()
        .expect("locales")
        .iter()
        .filter_map(Value::as_str)
        .filter(|l| path(l).exists())
        .collect();
    let before: Vec<Value> = locales.iter().map(|l| read(&path(l))).collect();
    let (version, start, end) = next_version(&before);
    let mut said = String::new();
    let mut step = |args: &[&str], codes: &[i32]| {
        let mut all = vec!["--lang", lang];
        all.extend_from_slice(args);
        let out = run(root, &all);
        let text = format!("{}{}", stdout(&out), stderr(&out));
        assert!(
            codes.contains(&out.status.code().unwrap_or(-1)),
            "{id}: {args:?} exited {:?}:\n{text}",
            out.status.code()
        );
        said.push_str(&text);
        text
    };
    let name = format!("{id} {version}");
    let made = step(
        &[
            "version",
            "new",
            id,
            "--version",
            &version,
            "--name",
            &name,
            "--start",
            &start,
            "--end",
            &end,
            "--now",
            &start,
        ],
        &[0],
    );
    // A locale the registry lists without a document is said to be pending.
    for locale in game["locales"].as_array().expect("locales") {
        let locale = locale.as_str().expect("locale");
        if !locales.contains(&locale) {
            assert!(made.contains(locale), "{id}: {locale} not named:\n{made}");
            assert!(!path(locale).exists(), "{id}: {locale} written");
        }
    }
    for (locale, old) in locales.iter().zip(&before) {
        let mut doc = read(&path(locale));
        assert_eq!(doc["version"], json!(version), "{id} {locale}");
        // Every version field kept exactly, an empty cover as `""`.
        for field in ["$schema", "cover"] {
            assert_eq!(doc.get(field), old.get(field), "{id} {locale}: {field}");
        }
        doc["activities"]
            .as_array_mut()
            .expect("activities")
            .push(json!({
                "id": format!("{id}-{version}-new"),
                "name": format!("{name} ({locale})"),
                "description": "The new version's first event.",
                "startTime": start,
                "endTime": end,
            }));
        let text = serde_json::to_string_pretty(&doc).expect("json") + "\n";
        std::fs::write(path(locale), text).expect("write");
    }
    step(&["check", "--changed-since", "main", "--now", &start], &[0]);
    // 0: nothing changed, 1: changes; 3 would be a breaking change.
    let review = step(&["diff", "--against-rev", "main", "--now", &start], &[1]);
    assert!(
        review.contains(if lang == "zh-CN" {
            "0 处破坏性变更"
        } else {
            "0 breaking changes"
        }),
        "{id}:\n{review}"
    );
    said
}

/// The next version after the newest of `docs` (`4.6` is followed by
/// `4.7`, `2026-10` by `2026-11`), starting when the latest of them ends
/// and running six weeks.
fn next_version(docs: &[Value]) -> (String, String, String) {
    let version = docs
        .iter()
        .filter_map(|d| d["version"].as_str())
        .max_by_key(|v| parts(v))
        .expect("a version");
    let mut next = parts(version);
    *next.last_mut().expect("a part") += 1;
    let separator = if version.contains('-') { "-" } else { "." };
    let next: Vec<String> = next
        .iter()
        .enumerate()
        .map(|(i, n)| {
            if separator == "-" && i > 0 {
                format!("{n:02}")
            } else {
                n.to_string()
            }
        })
        .collect();
    let start = docs
        .iter()
        .filter_map(|d| d["endTime"].as_str())
        .max()
        .expect("an end");
    let at = chrono::NaiveDateTime::parse_from_str(start, "%Y-%m-%dT%H:%M:%S").expect("a time");
    let end = at + chrono::Duration::days(42);
    (
        next.join(separator),
        start.to_owned(),
        end.format("%Y-%m-%dT%H:%M:%S").to_string(),
    )
}

fn parts(version: &str) -> Vec<u64> {
    version
        .split(['.', '-'])
        .map(|p| p.parse().expect("a number"))
        .collect()
}

fn read(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("JSON")
}

/// A document without its optional `cover` (the schema a client reads
/// makes it optional): the review warns, naming the field and the
/// document, and finds no breaking change.
#[test]
fn an_optional_field_removed_is_a_warning() {
    let repo = bundled_repository("the bundled data");
    let root = repo.path();
    let path = root.join("data/sr/en-US.json");
    let mut doc = read(&path);
    doc.as_object_mut().expect("object").remove("cover");
    std::fs::write(
        &path,
        serde_json::to_string_pretty(&doc).expect("json") + "\n",
    )
    .expect("write");
    let out = run(
        root,
        &[
            "diff",
            "--against-rev",
            "main",
            "--now",
            "2026-10-15T12:00:00",
        ],
    );
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}{}", stderr(&out));
    assert!(
        text.contains(
            "[optional-field-removed] api/v1/activity/sr-en-US.json no longer has the field cover"
        ),
        "{text}"
    );
    assert!(text.contains("0 breaking changes, 1 warning"), "{text}");
    assert!(!text.contains("published-field-removed"), "{text}");
}

/// A full-width colon in `--start` gets `check`'s hint in both languages,
/// and the refusal says that nothing was written.
#[test]
fn a_flag_time_gets_the_hint_a_file_time_gets() {
    let repo = bundled_repository("the bundled data");
    let root = repo.path();
    let args = |lang: &'static str| {
        vec![
            "--lang",
            lang,
            "version",
            "new",
            "sr",
            "--version",
            "4.7",
            "--name",
            "x",
            "--start",
            "2026-11-12T11：00:00",
            "--end",
            "2026-12-24T06:00:00",
        ]
    };
    let out = run(root, &args("en-US"));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "error: nothing written: --start: `2026-11-12T11：00:00` has the full-width colon `：` (U+FF1A), typed by an input method; type the ASCII `:`: `2026-11-12T11:00:00`\n"
    );
    let out = run(root, &args("zh-CN"));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "错误：没有写入任何文件：--start：`2026-11-12T11：00:00` 里有输入法打出的全角冒号 `：`（U+FF1A）；请改用半角冒号 `:`：`2026-11-12T11:00:00`\n"
    );
    // `--now` is read by the same reader, and a date without its year says so.
    let out = run(root, &["status", "--now", "10月15日 10:00"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out)
            .contains("--now: `10月15日 10:00` has no year; write it as `YYYY-10-15T10:00:00`"),
        "{}",
        stderr(&out)
    );
    let out = run(
        root,
        &[
            "version",
            "new",
            "sr",
            "--version",
            "4.6",
            "--name",
            "x",
            "--start",
            "2026-11-12T11:00:00",
            "--end",
            "2026-12-24T06:00:00",
        ],
    );
    assert_eq!(
        stderr(&out),
        "error: nothing written: version 4.6 does not come after 4.6 of data/sr/zh-CN.json\n"
    );
    // A branch given to --against, where no such folder exists.
    let out = run(root, &["diff", "--against", "main"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("compare with it by `--against-rev main`"),
        "{}",
        stderr(&out)
    );
}
