//! `check --fix` (issue 33): fixtures with several syntax mistakes each
//! (input-method punctuation, a trailing comma, an unclosed string, and the
//! rule mistakes their fixing uncovers). Each `tests/fixtures/fix/<case>/`
//! has `input/` (laid over the base fixture) and, when every mistake has an
//! exact fix, `fixed/`: the files as a person would repair them by hand.

use std::path::PathBuf;

use crate::util::{
    FIXTURE_NOW, check_json, crate_root, files_under, fixture_root, run, stderr, stdout,
};

fn case(name: &str) -> PathBuf {
    crate_root().join("tests/fixtures/fix").join(name)
}

/// Every mistake of each multi-mistake fixture comes out in one run (the
/// snapshot); `--fix --diff` prints the patch and writes nothing; `--fix`
/// writes what a person would, which then checks clean.
#[test]
fn check_fix_repairs_every_mistake_in_one_command() {
    for name in ["input-method", "english"] {
        let root = fixture_root(Some(&case(name).join("input")));
        let now = ["--now", FIXTURE_NOW];

        let before = run(root.path(), &["check", now[0], now[1]]);
        assert_eq!(before.status.code(), Some(1), "{name}");
        insta::assert_snapshot!(format!("fix_{name}_before"), stderr(&before));

        let untouched = files_under(root.path());
        let diff = run(root.path(), &["check", "--fix", "--diff", now[0], now[1]]);
        assert_eq!(files_under(root.path()), untouched, "{name}: --diff wrote");
        insta::assert_snapshot!(format!("fix_{name}_diff"), stdout(&diff));

        let fixed = run(root.path(), &["check", "--fix", now[0], now[1]]);
        assert_eq!(fixed.status.code(), Some(0), "{name}: {}", stderr(&fixed));
        assert!(
            stderr(&fixed).contains("checked: no problems"),
            "{}",
            stderr(&fixed)
        );
        for (rel, expected) in files_under(&case(name).join("fixed")) {
            let got = std::fs::read_to_string(root.path().join(&rel)).unwrap();
            assert_eq!(got, String::from_utf8(expected).unwrap(), "{name}: {rel}");
        }
        let (code, report) = check_json(root.path(), FIXTURE_NOW);
        assert_eq!(
            (code, &report["errors"], &report["warnings"]),
            (0, &0.into(), &0.into())
        );
    }
}

/// Never a guess: a file with one mistake that has no exact fix (a bare
/// word where a value belongs) is left exactly as it was, though its other
/// mistakes have fixes, and the output says why.
#[test]
fn check_fix_leaves_a_file_alone_when_its_fixes_would_not_give_json() {
    let root = fixture_root(Some(&case("unfixable").join("input")));
    let before = files_under(root.path());
    let output = run(root.path(), &["check", "--fix", "--now", FIXTURE_NOW]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(files_under(root.path()), before);
    let text = stderr(&output);
    assert!(
        text.contains("left data/demo/zh-CN.json unchanged"),
        "{text}"
    );
    assert!(text.contains("expected a value, found `探`"), "{text}");
}

/// Issue 33: like `cargo` and `git`, `check` finds the root by walking up
/// from the current folder to the first `games.json`; `check PATH` checks
/// the named file (paths relative to the current folder); with none found,
/// the error says where it looked.
#[test]
fn check_finds_the_root_from_a_subfolder_and_takes_file_arguments() {
    let root = fixture_root(Some(&case("english").join("input")));
    let sub = root.path().join("data/demo");
    let now = ["--now", FIXTURE_NOW];

    // From a subfolder, no --root: the whole tree.
    let output = run(&sub, &["check", "--format", "json", now[0], now[1]]);
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert_eq!(report["errors"], 7, "{report:#}");

    // A file argument, relative to the subfolder: only that file.
    let output = run(
        &sub,
        &["check", "zh-CN.json", "--format", "json", now[0], now[1]],
    );
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(output.status.code(), Some(0), "{report:#}");
    assert_eq!(report["errors"], 0, "{report:#}");
    let output = run(
        &sub,
        &["check", "en-US.json", "--format", "json", now[0], now[1]],
    );
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let files: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["file"].as_str().unwrap())
        .collect();
    assert!(
        files.iter().all(|f| *f == "data/demo/en-US.json"),
        "{files:?}"
    );
    assert_eq!(files.len(), 7);

    // --fix of one named file, from the subfolder.
    let output = run(&sub, &["check", "--fix", "en-US.json", now[0], now[1]]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));

    // Nowhere under a data repository: the error says where it looked.
    let elsewhere = tempfile::tempdir().unwrap();
    let output = run(elsewhere.path(), &["check"]);
    assert_eq!(output.status.code(), Some(2));
    let text = stderr(&output);
    assert!(
        text.contains("no games.json in") && text.contains("or any folder above it"),
        "{text}"
    );
}

/// Issue 30: `check --fix` applies the exact fixes of an announcements
/// board too (input-method punctuation, a trailing comma, then the `id`
/// written as `28.0` that the rules find once the file parses).
#[test]
fn check_fix_repairs_an_announcements_board() {
    let root = fixture_root(None);
    let board = root.path().join("data/_announcements/zh-CN.json");
    std::fs::create_dir_all(board.parent().unwrap()).unwrap();
    std::fs::write(
        &board,
        "{\n  \"id\": 28.0，\n  \"announcements\": [\n    {\n      \"title\": “更新公告”,\n      \"content\": \"新版本已上线。\",\n    }\n  ]\n}\n",
    )
    .unwrap();
    let before = run(root.path(), &["check", "--now", FIXTURE_NOW]);
    assert_eq!(before.status.code(), Some(1), "{}", stderr(&before));
    let fixed = run(root.path(), &["check", "--fix", "--now", FIXTURE_NOW]);
    assert_eq!(fixed.status.code(), Some(0), "{}", stderr(&fixed));
    assert!(
        stderr(&fixed).contains("fixed data/_announcements/zh-CN.json"),
        "{}",
        stderr(&fixed)
    );
    assert_eq!(
        std::fs::read_to_string(&board).unwrap(),
        "{\n  \"id\": 28,\n  \"announcements\": [\n    {\n      \"title\": \"更新公告\",\n      \"content\": \"新版本已上线。\"\n    }\n  ]\n}\n"
    );
    let (code, report) = check_json(root.path(), FIXTURE_NOW);
    assert_eq!(
        (code, &report["errors"], &report["warnings"]),
        (0, &0.into(), &0.into())
    );
}

/// Issue 44: five input-method slips (a full-width colon after a key, a
/// full-width comma after a value, curly quotes around a key, corner quotes
/// around a value, a full-width comma between activities), a date written
/// the Chinese way and an `endTime` before its `startTime`: all seven come
/// out in one run, each once, at its line, in both languages and in every
/// format, each slip with its one exact fix.
#[test]
fn check_reports_every_mistake_of_a_file_in_one_run() {
    let root = fixture_root(Some(&case("all-in-one").join("input")));
    let (code, report) = check_json(root.path(), FIXTURE_NOW);
    assert_eq!(code, 1);
    let found: Vec<(&str, u64, bool)> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            assert_eq!(d["file"], "data/demo/zh-CN.json", "{d:#}");
            (
                d["code"].as_str().unwrap(),
                d["line"].as_u64().unwrap(),
                d.get("fix").is_some(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            ("json-syntax", 4, true),
            ("json-syntax", 10, true),
            ("json-syntax", 11, true),
            ("json-syntax", 17, true),
            ("datetime", 20, true),
            ("json-syntax", 23, true),
            ("time-order", 28, false),
        ],
        "{report:#}"
    );
    assert_eq!(
        (&report["errors"], &report["warnings"]),
        (&7.into(), &0.into())
    );

    let now = ["--now", FIXTURE_NOW];
    let english = run(root.path(), &["check", now[0], now[1]]);
    insta::assert_snapshot!("all_in_one_en", stderr(&english));
    let chinese = run(root.path(), &["--lang", "zh-CN", "check", now[0], now[1]]);
    assert_eq!(chinese.status.code(), Some(1));
    insta::assert_snapshot!("all_in_one_zh", stderr(&chinese));

    // The other formats carry the same seven.
    let github = run(
        root.path(),
        &["check", "--format", "github", now[0], now[1]],
    );
    assert_eq!(stdout(&github).lines().count(), 7, "{}", stdout(&github));
    let sarif = run(root.path(), &["check", "--format", "sarif", now[0], now[1]]);
    let sarif: serde_json::Value = serde_json::from_slice(&sarif.stdout).unwrap();
    assert_eq!(sarif["runs"][0]["results"].as_array().unwrap().len(), 7);
    let rdjson = run(
        root.path(),
        &["check", "--format", "rdjson", now[0], now[1]],
    );
    let rdjson: serde_json::Value = serde_json::from_slice(&rdjson.stdout).unwrap();
    let items = rdjson["diagnostics"].as_array().unwrap();
    assert_eq!(items.len(), 7);
    assert_eq!(
        items
            .iter()
            .filter(|d| d.get("suggestions").is_some())
            .count(),
        6
    );
}

/// Issue 44: `--fix` shows each change before it is trusted (where, by
/// which rule, before and after, and where a rewritten date now falls in
/// its version), then what remains; `--fix --diff` says the same and
/// writes nothing; once nothing remains it exits 0.
#[test]
fn check_fix_lists_each_change_and_what_remains() {
    let root = fixture_root(Some(&case("all-in-one").join("input")));
    let now = ["--now", FIXTURE_NOW];
    let untouched = files_under(root.path());
    let diff = run(root.path(), &["check", "--fix", "--diff", now[0], now[1]]);
    assert_eq!(files_under(root.path()), untouched, "--diff wrote");
    assert_eq!(diff.status.code(), Some(1));
    assert!(
        stdout(&diff).starts_with("--- a/data/demo/zh-CN.json"),
        "{}",
        stdout(&diff)
    );
    let said = stderr(&diff);
    assert!(
        said.contains("would fix data/demo/zh-CN.json (6 changes):"),
        "{said}"
    );
    assert!(said.contains("what remains after the fixes:"), "{said}");
    assert!(said.contains("error[time-order]"), "{said}");

    // JSON: the changes beside what remains.
    let json = run(
        root.path(),
        &[
            "check", "--fix", "--diff", "--format", "json", now[0], now[1],
        ],
    );
    assert!(
        stdout(&json).starts_with("--- a/"),
        "--diff keeps stdout for the patch"
    );
    let copy = tempfile::tempdir().unwrap();
    crate::util::copy_tree(root.path(), copy.path());
    let json = run(
        copy.path(),
        &["check", "--fix", "--format", "json", now[0], now[1]],
    );
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(report["changes"].as_array().unwrap().len(), 6, "{report:#}");
    assert_eq!(report["changes"][4]["code"], "datetime", "{report:#}");
    assert_eq!(report["changes"][4]["line"], 20, "{report:#}");
    assert_eq!(report["errors"], 1, "{report:#}");

    let fixed = run(root.path(), &["check", "--fix", now[0], now[1]]);
    assert_eq!(fixed.status.code(), Some(1), "{}", stderr(&fixed));
    let said = stderr(&fixed);
    for change in [
        "data/demo/zh-CN.json:4:16 json-syntax: `：` → `:`",
        "data/demo/zh-CN.json:10:21 json-syntax: `，` → `,`",
        "data/demo/zh-CN.json:11:7 json-syntax: `“description”` → `\"description\"`",
        "data/demo/zh-CN.json:17:15 json-syntax: `「星海巡游」` → `\"星海巡游\"`",
        "data/demo/zh-CN.json:20:20 datetime: `\"2026年10月10日 10:00\"` → `\"2026-10-10T10:00:00\"`",
        "note: rewritten as 2026-10-10T10:00:00, it falls within version 1.2, 8 days after it starts",
        "data/demo/zh-CN.json:23:6 json-syntax: `，` → `,`",
    ] {
        assert!(said.contains(change), "missing {change:?} in:\n{said}");
    }
    let remains = said.find("what remains after the fixes:").expect(&said);
    assert!(said[remains..].contains("error[time-order]"), "{said}");
    assert!(
        said.trim_end().ends_with("checked: 1 error, 0 warnings"),
        "{said}"
    );

    // The one mistake without an exact fix, repaired by hand.
    let path = root.path().join("data/demo/zh-CN.json");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &path,
        text.replace("2026-10-17T03:59:59", "2026-11-17T03:59:59"),
    )
    .unwrap();
    let done = run(root.path(), &["check", "--fix", now[0], now[1]]);
    assert_eq!(done.status.code(), Some(0), "{}", stderr(&done));
    let said = stderr(&done);
    assert!(said.contains("nothing to fix: no problem found"), "{said}");
    assert!(said.trim_end().ends_with("checked: no problems"), "{said}");
}

/// Issue 44: a date in another common form gets its exact replacement as
/// help and as a fix, and the listing says where the rewrite puts it: one
/// typed `2026-2-3 10:00` (meant for a later month) now lands months before
/// its version starts, which the listing says.
#[test]
fn check_fix_says_where_a_rewritten_date_falls() {
    let root = fixture_root(Some(&case("far-date").join("input")));
    let output = run(
        root.path(),
        &["--lang", "zh-CN", "check", "--fix", "--now", FIXTURE_NOW],
    );
    let said = stderr(&output);
    assert!(
        said.contains("`\"2026-2-3 10:00\"` → `\"2026-02-03T10:00:00\"`"),
        "{said}"
    );
    assert!(
        said.contains(
            "改写为 2026-02-03T10:00:00 后，它在版本 1.2 开始前 8 个月：请确认这正是想写的时间"
        ),
        "{said}"
    );
}

/// Issue 44: where recovery cannot know what was meant, one note says
/// which checks of the file wait for its syntax.
#[test]
fn check_says_which_checks_wait_for_the_syntax() {
    let root = fixture_root(Some(&case("unfixable").join("input")));
    let output = run(root.path(), &["check", "--now", FIXTURE_NOW]);
    let text = stderr(&output);
    assert_eq!(
        text.matches("checks of this file wait for its syntax")
            .count(),
        1,
        "{text}"
    );
    assert!(
        text.contains(
            "15 checks of this file wait for its syntax (duplicate-key, schema, datetime"
        ),
        "{text}"
    );
    assert!(
        text.contains("fix the errors above, then run check again"),
        "{text}"
    );
}

/// Issue 44: a file argument not found from the current folder is looked
/// up under `--root`; one found nowhere gets an error that says how to
/// name it, in the chosen language.
#[test]
fn check_finds_a_file_argument_under_the_root() {
    let root = fixture_root(Some(&case("all-in-one").join("input")));
    let elsewhere = tempfile::tempdir().unwrap();
    let root_arg = root.path().to_str().unwrap();
    let output = run(
        elsewhere.path(),
        &[
            "check",
            "--root",
            root_arg,
            "data/demo/zh-CN.json",
            "--format",
            "json",
            "--now",
            FIXTURE_NOW,
        ],
    );
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["errors"], 7, "{report:#}");
    let output = run(
        elsewhere.path(),
        &[
            "--lang",
            "zh-CN",
            "check",
            "--root",
            root_arg,
            "data/demo/xx.json",
        ],
    );
    assert_eq!(output.status.code(), Some(2));
    let text = stderr(&output);
    assert!(text.starts_with("错误：在当前文件夹和根目录"), "{text}");
    assert!(text.contains("请写出从当前文件夹出发的路径"), "{text}");
    // Outside a data folder, the tool's own error is Chinese too.
    let output = run(elsewhere.path(), &["--lang", "zh-CN", "status"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("及其上级文件夹中都没有 games.json"),
        "{}",
        stderr(&output)
    );
}
