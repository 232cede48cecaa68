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
    assert_eq!(report["errors"], 5, "{report:#}");

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
    assert_eq!(files.len(), 5);

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
