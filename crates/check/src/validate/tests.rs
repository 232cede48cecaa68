//! The rules tested as data (issue 35), in the manner of rust-analyzer's
//! `check(fixture, expect)`: a tree written as text goes in, [`check`]
//! renders its diagnostics as text, and an inline snapshot holds what comes
//! out, so a rule change is tested in milliseconds, without the binary. The
//! fixture folders of `tests/` stay the end-to-end layer.
//!
//! A fixture is one or more files, each after a `//- path` line. Without a
//! `games.json`, the fixture gets one game, `demo`, in the locales of its
//! `data/demo/*.json` files (the first one is the default); announcements
//! boards (`data/_announcements/<locale>.json`) are checked as `check`
//! checks them. "Now" is
//! [`NOW`] in every game's time zone. Each diagnostic is one line
//! (`severity[code] file:line:column: message`), then its help and its fix
//! (the replaced text and what replaces it).

use chrono::NaiveDateTime;

use super::{Keep, Options, Validator};
use crate::diagnostics::{self, Diagnostic};
use crate::model::Game;
use crate::source::{BUILTIN_GAMES_SCHEMA, LoadedFile, LoadedGame, Project, SourceFile};
use crate::tree::{self, SourcePath};

const NOW: &str = "2026-10-15T12:00:00";

/// Checks the files of `fixture` as `check` would and renders the result.
fn check(fixture: &str) -> String {
    let files = split(fixture);
    let registry = files
        .iter()
        .find(|(path, _)| path == tree::REGISTRY_PATH)
        .map(|(_, text)| text.clone())
        .unwrap_or_else(|| default_registry(&files, false));
    let data_files: Vec<String> = files
        .iter()
        .map(|(path, _)| path.clone())
        .filter(|path| matches!(tree::classify(path), SourcePath::Data { .. }))
        .collect();
    let project = Project {
        root: ".".into(),
        registry: Some(SourceFile {
            path: tree::REGISTRY_PATH.into(),
            text: registry,
        }),
        data_files: {
            let mut sorted = data_files.clone();
            sorted.sort();
            sorted
        },
        games_schema: serde_json::from_str(BUILTIN_GAMES_SCHEMA).unwrap(),
        schemas: crate::kind::schemas()
            .map(|(kind, schema)| (kind.name, serde_json::from_str(schema.builtin).unwrap()))
            .collect(),
        locale_files: Default::default(),
        diagnostics: Vec::new(),
    };
    let validator = Validator::new(&project).unwrap();
    let options = Options {
        now: Some(crate::clock::Now::Local(
            NaiveDateTime::parse_from_str(NOW, "%Y-%m-%dT%H:%M:%S").unwrap(),
        )),
        ..Default::default()
    };
    let (games, mut all) = validator.registry(&project);
    for game in &games {
        let loaded = load(game, &files);
        all.extend(
            validator
                .game(&loaded, &options, Keep::Diagnostics)
                .diagnostics,
        );
    }
    for (path, text) in &files {
        // As the loader does: a board named after no locale is not read.
        if let Some(locale) = crate::kind::announcements::KIND.locale_of(path) {
            let file = LoadedFile {
                locale: locale.to_owned(),
                path: path.clone(),
                exists: true,
                source: Some(SourceFile {
                    path: path.clone(),
                    text: text.clone(),
                }),
            };
            let rules =
                super::rules_of(&crate::kind::announcements::KIND).expect("checked file by file");
            all.extend(validator.file(rules, &file, Keep::Diagnostics).diagnostics);
        }
    }
    diagnostics::sort(&mut all);
    render(&all, &files)
}

/// The files of a fixture: `(path, text)` in order.
fn split(fixture: &str) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = Vec::new();
    for line in fixture.trim_start().split_inclusive('\n') {
        match line.strip_prefix("//- ") {
            Some(path) => files.push((path.trim().to_string(), String::new())),
            None => files
                .last_mut()
                .expect("a fixture starts with `//- path`")
                .1
                .push_str(line),
        }
    }
    files
}

/// The registry of the one game `demo`. Its documents are written without
/// ids, so its game turns `missing-id` off unless `ids` (the ids tests).
fn default_registry(files: &[(String, String)], ids: bool) -> String {
    let locales: Vec<&str> = files
        .iter()
        .filter_map(|(path, _)| match tree::classify(path) {
            SourcePath::Data { game: "demo", file } => file.strip_suffix(".json"),
            _ => None,
        })
        .collect();
    serde_json::json!({"games": [{
        "id": "demo",
        "name": {"en-US": "Demo"},
        "locales": locales,
        "defaultLocale": locales.first().copied().unwrap_or("en-US"),
        "dataSource": "https://example.org/news",
        "timeZone": "Asia/Shanghai",
        "conventions": if ids { serde_json::json!({}) } else { serde_json::json!({"ignore": ["missing-id"]}) },
    }]})
    .to_string()
}

/// What the loader would read for `game` from the fixture.
fn load(game: &Game, files: &[(String, String)]) -> LoadedGame {
    let files = game
        .locales
        .iter()
        .map(|locale| {
            let path = crate::tree::data_path(&game.id, locale);
            let source = files
                .iter()
                .find(|(p, _)| *p == path)
                .map(|(p, text)| SourceFile {
                    path: p.clone(),
                    text: text.clone(),
                });
            LoadedFile {
                locale: locale.clone(),
                exists: source.is_some(),
                path,
                source,
            }
        })
        .collect();
    LoadedGame {
        game: game.clone(),
        files,
        diagnostics: Vec::new(),
    }
}

fn render(all: &[Diagnostic], files: &[(String, String)]) -> String {
    let mut out = String::new();
    for d in all {
        out.push_str(&format!(
            "{}[{}] {}:{}:{}: {}\n",
            if d.is_error() { "error" } else { "warning" },
            d.code,
            d.file,
            d.line,
            d.column,
            d.message
        ));
        for note in &d.notes {
            out.push_str(&format!("  note: {note}\n"));
        }
        if let Some(help) = &d.help {
            for line in help.to_string().lines() {
                out.push_str(&format!("  help: {line}\n"));
            }
        }
        if let Some(fix) = &d.fix {
            let text = files
                .iter()
                .find(|(p, _)| *p == d.file)
                .map_or("", |(_, t)| t.as_str());
            out.push_str(&format!(
                "  fix: `{}` -> `{}`\n",
                visible(text.get(fix.start..fix.end).unwrap_or("?")),
                visible(&fix.replacement)
            ));
        }
    }
    if out.is_empty() {
        out.push_str("no problems\n");
    }
    out
}

/// `text` with the characters nobody sees written as `\u{..}`.
fn visible(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() || crate::chars::is_format(c) {
                c.escape_unicode().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// A fixture of one file, `data/demo/en-US.json`, the [`doc`] of `activities`.
fn en_us(activities: &str) -> String {
    format!("//- data/demo/en-US.json\n{}", doc(activities))
}

/// A small valid document with `activities` (a JSON array's inside).
fn doc(activities: &str) -> String {
    format!(
        "{{\n  \"version\": \"1.2\",\n  \"versionName\": \"V\",\n  \"startTime\": \"2026-10-01T11:00:00\",\n  \"endTime\": \"2026-11-12T03:59:59\",\n  \"activities\": [{activities}]\n}}\n"
    )
}

#[test]
fn a_clean_document_has_no_problems() {
    let fixture = en_us(
        r#"{"name": "A", "description": "", "startTime": "2026-10-01T11:00:00", "endTime": "2026-10-15T03:59:59"}"#,
    );
    insta::assert_snapshot!(check(&fixture), @r"
    no problems
    ");
}

/// Family: syntax (`json-syntax`, `duplicate-key`), every error of a file in one run.
#[test]
fn syntax_every_mistake_of_a_file_at_once() {
    let fixture = "//- data/demo/zh-CN.json\n{\n  \"version\": \"1.2\"，\n  \"versionName\"：“星海”,\n  \"startTime\": \"2026-10-01T11:00:00,\n  \"endTime\": \"2026-11-12T03:59:59\",\n  \"activities\": [],\n}\n";
    insta::assert_snapshot!(check(fixture), @r#"
    error[json-syntax] data/demo/zh-CN.json:2:19: full-width comma `，` (U+FF0C) outside a string is not JSON punctuation
      help: type the ASCII `,` instead (a Chinese input method types this one in its place)
      fix: `，` -> `,`
    error[json-syntax] data/demo/zh-CN.json:3:16: full-width colon `：` (U+FF1A) outside a string is not JSON punctuation
      help: type the ASCII `:` instead (a Chinese input method types this one in its place)
      fix: `：` -> `: `
    error[json-syntax] data/demo/zh-CN.json:3:17: the string is quoted with `“` and `”`, which JSON does not read as quotes
      help: type ASCII quotes around it: `"星海"` (a Chinese input method types these in their place)
      fix: `“星海”` -> `"星海"`
    error[json-syntax] data/demo/zh-CN.json:4:16: this string is not closed before the end of the line
      help: add the closing `"` before the `,`; a raw line break is not allowed inside a JSON string (write `\n` for one)
      fix: `` -> `"`
    error[json-syntax] data/demo/zh-CN.json:6:19: trailing comma in an object
      help: remove this comma: JSON allows no comma after the last item
      fix: `,` -> ``
    "#);
    let fixture = "//- data/demo/en-US.json\n{\"version\": \"1\", \"version\": \"2\", \"versionName\": \"V\", \"startTime\": \"2026-10-01T11:00:00\", \"endTime\": \"2026-11-12T03:59:59\", \"activities\": []}\n";
    insta::assert_snapshot!(check(fixture), @r"
    error[duplicate-key] data/demo/en-US.json:1:18: the key `version` is given twice in this object (first on line 1)
      help: keep one of the two: the key on line 1, column 2 or this one; a rewrite would keep only the last value
    ");
}

/// Family: the schema (`schema`): unknown fields with a rename, missing ones.
#[test]
fn schema_unknown_and_missing_fields() {
    let fixture = en_us(
        r#"{"name": "A", "descripton": "", "startTime": "2026-10-01T11:00:00", "endTime": "2026-10-15T03:59:59"}"#,
    );
    insta::assert_snapshot!(check(&fixture), @r#"
    error[schema] data/demo/en-US.json:6:32: unknown field `descripton`
      help: did you mean `description`?
      fix: `"descripton"` -> `"description"`
    "#);
    let fixture = en_us(
        r#"{"name": "A", "startTime": "2026-10-01T11:00:00", "endTime": "2026-10-15T03:59:59"}"#,
    );
    insta::assert_snapshot!(check(&fixture), @r#"
    error[schema] data/demo/en-US.json:6:18: the activity `A` has no `description`
      help: add `"description": ""` to it (a sentence saying what the activity is, or empty)
    "#);
    let fixture = "//- data/demo/en-US.json\n{\"version\": 4.7, \"versionName\": \"V\", \"startTime\": \"2026-10-01T11:00:00\", \"endTime\": \"2026-11-12T03:59:59\", \"activities\": []}\n";
    insta::assert_snapshot!(check(fixture), @r#"
    error[schema] data/demo/en-US.json:1:13: wrong type for `version`: 4.7 is not of type "string" (found a number)
      help: `version` is text: write it in quotes, `"4.7"`
      fix: `4.7` -> `"4.7"`
    "#);
}

/// Family: times (`datetime`, `time-order`, `end-of-minute`,
/// `outside-version`, `stale`).
#[test]
fn times_forms_order_and_window() {
    let fixture = en_us(
        r#"
    {"name": "Slash", "description": "", "startTime": "2026/10/01 11:00", "endTime": "2026-10-15T03:59:59"},
    {"name": "Colon", "description": "", "startTime": "2026-10-02T10：00：00", "endTime": "2026-10-15T03:59:59"},
    {"name": "Space", "description": "", "startTime": "2026-10-03 10:00:00", "endTime": "2026-10-15T04:00:00"},
    {"name": "Back", "description": "", "startTime": "2026-10-04T10:00:00", "endTime": "2026-09-01T03:59:59"}
  "#,
    );
    insta::assert_snapshot!(check(&fixture), @r#"
    error[datetime] data/demo/en-US.json:7:55: `2026/10/01 11:00` writes the date with slashes
      note: rewritten as 2026-10-01T11:00:00, it falls at the start of version 1.2
      help: write it as `2026-10-01T11:00:00` (YYYY-MM-DDTHH:MM:SS, local server time)
      fix: `"2026/10/01 11:00"` -> `"2026-10-01T11:00:00"`
    error[datetime] data/demo/en-US.json:8:55: `2026-10-02T10：00：00` has the full-width colon `：` (U+FF1A), typed by an input method
      note: rewritten as 2026-10-02T10:00:00, it falls within version 1.2, 23 hours after it starts
      help: type the ASCII `:`: `2026-10-02T10:00:00`
      fix: `"2026-10-02T10：00：00"` -> `"2026-10-02T10:00:00"`
    error[datetime] data/demo/en-US.json:9:55: `2026-10-03 10:00:00` separates date and time with a space
      note: rewritten as 2026-10-03T10:00:00, it falls within version 1.2, 1 day after it starts
      help: use `T`: `2026-10-03T10:00:00`
      fix: `"2026-10-03 10:00:00"` -> `"2026-10-03T10:00:00"`
    warning[end-of-minute] data/demo/en-US.json:9:89: the activity ends at :00 seconds
      help: the sources end activities at :59 seconds: did you mean `2026-10-15T03:59:59`? (A source that writes such ends on purpose declares it once: `conventions.endSeconds` in games.json.)
      fix: `"2026-10-15T04:00:00"` -> `"2026-10-15T03:59:59"`
    error[time-order] data/demo/en-US.json:10:88: the activity ends (2026-09-01T03:59:59) before it starts (2026-10-04T10:00:00)
      help: endTime must be later than startTime
    "#);
    let fixture = "//- data/demo/en-US.json\n{\"version\": \"1.0\", \"versionName\": \"V\", \"startTime\": \"2026-09-01T11:00:00\", \"endTime\": \"2026-10-01T03:59:59\", \"activities\": [{\"name\": \"Late\", \"description\": \"\", \"startTime\": \"2026-10-05T10:00:00\", \"endTime\": \"2026-10-09T03:59:59\"}]}\n";
    insta::assert_snapshot!(check(fixture), @r#"
    warning[stale] data/demo/en-US.json:1:87: the version ended on 2026-10-01 03:59 (14 days ago)
      note: games.json names no updateMode for this game: read as `version` from the version `1.0` (a dotted number is a version cycle); set "updateMode" to say so
      help: update the document to the current version
    warning[outside-version] data/demo/en-US.json:1:174: the activity starts (2026-10-05T10:00:00) after the version ended (2026-10-01T03:59:59)
      help: it belongs to the next version's document
    "#);
}

/// Family: the activity list (`duplicate-activity`, `unsorted`, `cover-url`).
#[test]
fn activities_duplicates_order_and_covers() {
    let fixture = en_us(
        r#"
    {"name": "B", "description": "", "startTime": "2026-10-05T10:00:00", "endTime": "2026-10-15T03:59:59", "cover": "cover.jpg"},
    {"name": "A", "description": "", "startTime": "2026-10-01T11:00:00", "endTime": "2026-10-15T03:59:59"},
    {"name": "A", "description": "", "startTime": "2026-10-01T11:00:00", "endTime": "2026-10-15T03:59:59"}
  "#,
    );
    insta::assert_snapshot!(check(&fixture), @r"
    error[cover-url] data/demo/en-US.json:7:117: the cover `cover.jpg` is not an absolute http(s) URL
      help: use an absolute https:// URL, or an empty string for no cover
    warning[unsorted] data/demo/en-US.json:8:51: the activity starts (2026-10-01T11:00:00) before the one above it (2026-10-05T10:00:00)
      help: run `activity-site fmt` to sort activities by startTime
    error[duplicate-activity] data/demo/en-US.json:9:14: `A` starting 2026-10-01T11:00:00 is listed twice (also activity 1)
      help: remove one of them, or correct its name or startTime
    ");
}

/// Family: text (`whitespace`): stray spaces and characters nobody sees.
#[test]
fn text_whitespace_and_invisible_characters() {
    let fixture = en_us(
        "{\"name\": \" A\", \"description\": \"x\u{200B}y\", \"startTime\": \"2026-10-01T11:00:00\", \"endTime\": \"2026-10-15T03:59:59\"}",
    );
    insta::assert_snapshot!(check(&fixture), @r"
    warning[whitespace] data/demo/en-US.json:6:27: `name` has leading or trailing whitespace
      help: did you mean `A`?
    warning[whitespace] data/demo/en-US.json:6:50: `description` contains the zero-width character U+200B at column 50
      help: it does not show in most editors: delete the character at line 6, column 50 (put the cursor just after it and press Backspace once), or retype the text
      fix: `\u{200b}` -> ``
    ");
}

/// Family: the registry (`games-registry`, `missing-file`, `orphan-file`).
#[test]
fn registry_games_files_and_orphans() {
    let fixture = r#"
//- games.json
{"games": [{"id": "Demo", "name": {"en-US": "Demo"}, "locales": ["en-US", "fr"], "defaultLocale": "en-US", "dataSource": "https://example.org", "timeZone": "Mars/Olympus"}]}
//- data/demo/en-US.json
{}
//- data/other/en-US.json
{}
"#;
    insta::assert_snapshot!(check(fixture), @r"
    error[orphan-file] data/demo/en-US.json:1:1: `data/demo/en-US.json` belongs to `demo`, which games.json does not list
      help: add `demo` to games.json, or remove the file
    error[orphan-file] data/other/en-US.json:1:1: `data/other/en-US.json` belongs to `other`, which games.json does not list
      help: add `other` to games.json, or remove the file
    error[games-registry] games.json:1:19: `Demo` is not a valid game id
      help: ids are lowercase letters and digits, in words joined by `-`, such as `demo`
    error[games-registry] games.json:1:157: `Mars/Olympus` is not an IANA time zone
      help: use a name such as `Asia/Shanghai` or `America/New_York`
    ");
}

/// Family: files of one game together (`locale-parity`).
#[test]
fn locales_agree_on_the_version_and_windows() {
    let en = doc(
        r#"{"name": "A", "description": "", "startTime": "2026-10-01T11:00:00", "endTime": "2026-10-15T03:59:59"}"#,
    );
    let zh = doc("");
    let fixture = format!("//- data/demo/en-US.json\n{en}//- data/demo/zh-CN.json\n{zh}");
    insta::assert_snapshot!(check(&fixture), @r"
    warning[locale-parity] data/demo/zh-CN.json:6:17: 1 activity of data/demo/en-US.json is missing here
      note: `A` (2026-10-01T11:00:00 to 2026-10-15T03:59:59)
      help: add it here with the same times (in this file's language), or remove it from data/demo/en-US.json: locale files of one game describe the same activities
    ");
    // The other way round, the warning is on the other file; another
    // version is one warning with every difference as a note.
    let moved = zh.replace(r#""version": "1.2""#, r#""version": "1.3""#);
    assert_ne!(moved, zh);
    let fixture = format!("//- data/demo/en-US.json\n{zh}//- data/demo/zh-CN.json\n{en}");
    let moved = format!("//- data/demo/en-US.json\n{moved}//- data/demo/zh-CN.json\n{en}");
    insta::assert_snapshot!(check(&fixture) + &check(&moved), @r"
    warning[locale-parity] data/demo/en-US.json:6:17: 1 activity of data/demo/zh-CN.json is missing here
      note: `A` (2026-10-01T11:00:00 to 2026-10-15T03:59:59)
      help: add it here with the same times (in this file's language), or remove it from data/demo/zh-CN.json: locale files of one game describe the same activities
    warning[locale-parity] data/demo/zh-CN.json:2:14: the version differs from data/demo/en-US.json
      note: `version` is `1.2` here, `1.3` there
      note: only here: `A` (2026-10-01T11:00:00 to 2026-10-15T03:59:59)
      help: locale files of one game describe the same version and the same activities with the same times; update both
    ");
}

/// Family: ids across the locales of a game (`missing-id`, `duplicate-id`).
#[test]
fn ids_are_paired_across_locales_by_their_times() {
    let activity = |id: Option<&str>, name: &str, start: &str| {
        let id = id.map_or(String::new(), |id| format!(r#""id": "{id}", "#));
        format!(
            r#"{{{id}"name": "{name}", "description": "", "startTime": "2026-10-{start}T11:00:00", "endTime": "2026-10-20T03:59:59"}}"#
        )
    };
    // A has no id anywhere; B has one in zh-CN only; C and D share a window.
    let zh = doc(&[
        activity(None, "A", "01"),
        activity(Some("demo-1.2-07"), "B", "02"),
        activity(None, "C", "03"),
        activity(None, "D", "03"),
    ]
    .join(", "));
    let en = doc(&[
        activity(None, "A-en", "01"),
        activity(None, "B-en", "02"),
        activity(None, "C-en", "03"),
        activity(None, "D-en", "03"),
    ]
    .join(", "));
    let files = format!("//- data/demo/zh-CN.json\n{zh}//- data/demo/en-US.json\n{en}");
    let registry = default_registry(&split(&files), true);
    let out = check(&format!("//- games.json\n{registry}\n{files}"));
    let has = |line: &str| assert!(out.contains(line), "{line}\n{out}");
    // A in both files gets one fresh id above the 07 in use; B's twin
    // reuses B's (the same times); C and D pair with C-en and D-en by their
    // place in the window both files list twice. Each fix says why.
    has("gives it the new id `demo-1.2-08`");
    assert_eq!(out.matches("new id `demo-1.2-08`").count(), 2, "{out}");
    has("help: `activity-site check --fix` gives it `demo-1.2-07`");
    has(
        "note: evidence: the same times as `B` in data/demo/zh-CN.json, the only pair with these times",
    );
    has(
        "note: evidence: the same place as `C` in data/demo/zh-CN.json: number 1 of the 2 activities with these times in each",
    );
    has(
        "note: evidence: the same place as `D-en` in data/demo/en-US.json: number 2 of the 2 activities with these times in each",
    );
    assert_eq!(out.matches("new id `demo-1.2-09`").count(), 2, "{out}");
    assert_eq!(out.matches("new id `demo-1.2-10`").count(), 2, "{out}");
    assert_eq!(out.matches("warning[missing-id]").count(), 7, "{out}");
    assert_eq!(out.matches("fix:").count(), 7, "{out}");

    // Three English activities in the window zh-CN lists twice (with its
    // ids): no evidence decides, each names both candidates, without a fix.
    let zh = zh
        .replacen(r#"{"name": "C""#, r#"{"id": "demo-1.2-09", "name": "C""#, 1)
        .replacen(r#"{"name": "D""#, r#"{"id": "demo-1.2-10", "name": "D""#, 1);
    let en = en.replacen(
        &activity(None, "D-en", "03"),
        &format!(
            "{}, {}",
            activity(None, "D-en", "03"),
            activity(None, "E-en", "03")
        ),
        1,
    );
    let files = format!("//- data/demo/zh-CN.json\n{zh}//- data/demo/en-US.json\n{en}");
    let out = check(&format!("//- games.json\n{registry}\n{files}"));
    assert_eq!(
        out.matches("2 activities of other languages could be this one")
            .count(),
        3,
        "{out}"
    );
    assert!(
        out.contains("note: `demo-1.2-09`: `C` in data/demo/zh-CN.json"),
        "{out}"
    );

    // One id twice in a document.
    let dup = doc(&[
        activity(Some("demo-1.2-01"), "A", "01"),
        activity(Some("demo-1.2-01"), "B", "02"),
    ]
    .join(", "));
    let out = check(&format!("//- data/demo/zh-CN.json\n{dup}"));
    assert!(out.contains("error[duplicate-id]"), "{out}");
    assert!(
        out.contains("the id `demo-1.2-01` is already the id of activity 0"),
        "{out}"
    );
}

/// Issue 35 item 6: CONTRIBUTING.md documents every rule code, in the
/// order of [`crate::diagnostics::Code::ALL`], one `### \`code\`` section
/// each, and no code that does not exist.
#[test]
fn contributing_lists_exactly_the_rule_codes() {
    let text = include_str!("../../../../CONTRIBUTING.md");
    let listed: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("### `")?.split('`').next())
        .collect();
    let codes: Vec<&str> = crate::diagnostics::Code::ALL
        .iter()
        .map(|c| c.as_str())
        .collect();
    assert_eq!(listed, codes);
}

/// A fixture of one announcements board, `data/_announcements/zh-CN.json`,
/// with `id` and the announcements (a JSON array's inside) as written,
/// beside a clean document of the game `demo`.
fn board(id: &str, announcements: &str) -> String {
    format!(
        "//- data/demo/zh-CN.json\n{}//- data/_announcements/zh-CN.json\n{{\n  \"id\": {id},\n  \"announcements\": [{announcements}]\n}}\n",
        doc("")
    )
}

/// Family: announcements, the document (`schema`: an empty title, an `id`
/// that is no whole number or is negative, an unknown `contentType`).
#[test]
fn announcements_title_id_and_content_type() {
    insta::assert_snapshot!(check(&board("28", r###"{"title": "服务器维护", "content": "今晚维护。"}"###)), @"no problems");
    insta::assert_snapshot!(check(&board("28", r###"{"title": "", "content": "x"}"###)), @r#"
    error[schema] data/_announcements/zh-CN.json:3:31: `title` must not be empty
      help: give the announcement a title: clients list the board by its titles
    "#);
    insta::assert_snapshot!(check(&board("28.0", r###"{"title": "A", "content": "x"}"###)), @r#"
    error[schema] data/_announcements/zh-CN.json:2:9: `id` is written `28.0`, not as a whole number
      help: write `28`: clients read the id as an integer
      fix: `28.0` -> `28`
    "#);
    insta::assert_snapshot!(check(&board("\"28\"", r###"{"title": "A", "content": "x"}"###)), @r#"
    error[schema] data/_announcements/zh-CN.json:2:9: wrong type for `id`: "28" is not of type "integer" (found a string)
      help: `id` is a whole number, 0 or more, such as `28`; raise it by one whenever the content changes
    "#);
    insta::assert_snapshot!(check(&board("-1", r###"{"title": "A", "content": "x"}"###)), @r#"
    error[schema] data/_announcements/zh-CN.json:2:9: `id` must be 0 or more (found -1)
      help: `id` is a whole number, 0 or more, such as `28`; raise it by one whenever the content changes
    "#);
    insta::assert_snapshot!(check(&board("2.5", r###"{"title": "A", "content": "x"}"###)), @r#"
    error[schema] data/_announcements/zh-CN.json:2:9: wrong type for `id`: 2.5 is not of type "integer" (found a number)
      help: `id` is a whole number, 0 or more, such as `28`; raise it by one whenever the content changes
    "#);
    insta::assert_snapshot!(check(&board("1", r###"{"title": "A", "content": "x", "contentType": "html"}"###)), @r#"
    error[schema] data/_announcements/zh-CN.json:3:67: unknown `contentType` "html"
      help: the only content type is "markdown", which is also what leaving it out means
    "#);
}

/// Family: announcements, the Markdown (`markdown-link`: a link neither an
/// absolute http(s) URL nor a site path; `markdown-html`: raw HTML).
#[test]
fn announcements_markdown_links_and_html() {
    insta::assert_snapshot!(check(&board("1", r###"{"title": "A", "content": "[ok](https://example.org) [site](/sr/) [bad](javascript:alert(1)) [rel](notes.html) ![img](data:image/png;base64,AA)"}"###)), @r#"
    error[markdown-link] data/_announcements/zh-CN.json:3:93: the link `javascript:alert(1)` in `content` is neither an absolute http(s) URL nor a path of this site
      help: point the link at `https://...`, at a page of this site such as `/sr/`, or at a heading of this announcement such as `#notes`; the page drops any other link
    error[markdown-link] data/_announcements/zh-CN.json:3:120: the link `notes.html` in `content` is neither an absolute http(s) URL nor a path of this site
      help: point the link at `https://...`, at a page of this site such as `/sr/`, or at a heading of this announcement such as `#notes`; the page drops any other link
    error[markdown-link] data/_announcements/zh-CN.json:3:139: the image `data:image/png;base64,AA` in `content` is neither an absolute http(s) URL nor a path of this site
      help: point the image at `https://...`, at a page of this site such as `/sr/`, or at a heading of this announcement such as `#notes`; the page drops any other image
    "#);
    insta::assert_snapshot!(check(&board("1", r###"{"title": "A", "content": "<b>bold</b> and `<code>` is fine\n\n<div>\nblock\n</div>"}"###)), @r#"
    warning[markdown-html] data/_announcements/zh-CN.json:3:48: `content` holds raw HTML `<b>`
      help: the page shows raw HTML as text and clients may drop it: put code in backticks (`<tag>`), or write `&lt;` for a literal `<`
    warning[markdown-html] data/_announcements/zh-CN.json:3:55: `content` holds raw HTML `</b>`
      help: the page shows raw HTML as text and clients may drop it: put code in backticks (`<tag>`), or write `&lt;` for a literal `<`
    warning[markdown-html] data/_announcements/zh-CN.json:3:84: `content` holds raw HTML `<div>
    block
    </div>`
      help: the page shows raw HTML as text and clients may drop it: put code in backticks (`<tag>`), or write `&lt;` for a literal `<`
    "#);
}

/// Family: announcements, `#fragment` links: one names a heading of its own
/// announcement (by slug, CJK kept; a repeated heading numbered), never
/// one of another announcement.
#[test]
fn announcements_fragment_links_name_headings_of_their_own_announcement() {
    insta::assert_snapshot!(check(&board("1", r###"
    {"title": "A", "content": "见[启动命令](#启动命令)、[FAQ](#faq)、[第二节](#setup-1)\n\n## 启动命令\n\n## FAQ\n\n## Setup\n\n## Setup"}
  "###)), @"no problems");
    insta::assert_snapshot!(check(&board("1", r###"
    {"title": "A", "content": "## 启动命令\n\n`sra-cli start`"},
    {"title": "B", "content": "见[启动命令](#启动命令)。\n\n## 说明"},
    {"title": "C", "content": "见[上文](#top)。"}
  "###)), @r#"
    error[markdown-link] data/_announcements/zh-CN.json:5:40: the link `#启动命令` in `content` names no heading of this announcement
      help: link to a heading of this same announcement, written as its slug (lower case, spaces as `-`, punctuation dropped): `#说明`
    error[markdown-link] data/_announcements/zh-CN.json:6:38: the link `#top` in `content` names no heading of this announcement
      help: this announcement has no headings: add one, such as `## top`, or link to an absolute https:// URL instead; a `#` link names a heading of its own announcement only
    "#);
}

/// Issue 44: a date in another common form has its exact replacement: the
/// Chinese form (年月日, with or without the space), slashes, one-digit
/// parts, no seconds; what is not a real time has none.
#[test]
fn dates_in_other_common_forms_are_rewritten() {
    use super::rules::rewrite_time;
    for (text, expected) in [
        ("2026年11月4日 12:00", Some("2026-11-04T12:00:00")),
        ("2026年11月4日12:00", Some("2026-11-04T12:00:00")),
        ("2026年11月4号 12：00：30", Some("2026-11-04T12:00:30")),
        ("2026/11/4 12:00", Some("2026-11-04T12:00:00")),
        ("2026-2-3 10:00", Some("2026-02-03T10:00:00")),
        ("2026-11-04T12:00", Some("2026-11-04T12:00:00")),
        ("2026年2月30日 12:00", None),
        ("2026年11月4日", None),
        // Issue 57: what an input method types.
        ("2026.10.15 04:00", Some("2026-10-15T04:00:00")),
        (
            "２０２６－１０－１５ ０４：００",
            Some("2026-10-15T04:00:00"),
        ),
        (
            "２０２６－１０－１５Ｔ０４：００：００",
            Some("2026-10-15T04:00:00"),
        ),
        ("2026年12月3日\u{3000}10:00", Some("2026-12-03T10:00:00")),
        ("2026年12月3日 10时30分", Some("2026-12-03T10:30:00")),
        ("2026年12月3日 10点", Some("2026-12-03T10:00:00")),
        ("2026年12月3日 10点整", Some("2026-12-03T10:00:00")),
        ("2026年12月3日 3时59分59秒", Some("2026-12-03T03:59:59")),
        ("2026年12月3日 上午10:00", Some("2026-12-03T10:00:00")),
        ("2026年12月3日 下午3:00", Some("2026-12-03T15:00:00")),
        ("2026年12月3日 下午12:00", None),
        ("2026年12月3日 下午15:00", None),
        ("2026年12月3日 中午12:00", None),
        ("10月15日 10:00", None),
        ("26年10月15日 10:00", None),
    ] {
        assert_eq!(rewrite_time(text).as_deref(), expected, "{text}");
    }
}

/// Issue 57: a date without its year takes the version's (the one year of
/// the window, or the one that puts it inside a window across two years),
/// or the year of the version's other end; no year is guessed otherwise.
#[test]
fn a_date_without_its_year_takes_the_versions() {
    use super::rules::{YearFrom, rewrite_time_in};
    let t = |s: &str| chrono::NaiveDateTime::parse_from_str(s, "%Y-%m-%dT%H:%M:%S").unwrap();
    let one = YearFrom::Version {
        start: t("2026-10-01T11:00:00"),
        end: t("2026-11-12T03:59:59"),
    };
    let across = YearFrom::Version {
        start: t("2026-12-03T06:00:00"),
        end: t("2027-01-14T05:59:59"),
    };
    let other = YearFrom::Other {
        field: "endTime",
        time: t("2027-01-14T05:59:59"),
    };
    for (text, year, expected) in [
        ("10月15日 10:00", one, Some("2026-10-15T10:00:00")),
        ("1月5日 10:00", one, Some("2026-01-05T10:00:00")),
        ("1月5日 10:00", across, Some("2027-01-05T10:00:00")),
        ("12月20日 10:00", across, Some("2026-12-20T10:00:00")),
        ("6月1日 10:00", across, None),
        ("12月3日 06:00", other, Some("2026-12-03T06:00:00")),
        ("1月10日 06:00", other, Some("2027-01-10T06:00:00")),
        ("2月30日 10:00", one, None),
    ] {
        let got = rewrite_time_in(text, Some(year)).map(|r| r.text);
        assert_eq!(got.as_deref(), expected, "{text}");
    }
}
