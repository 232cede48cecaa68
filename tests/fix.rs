//! `check --fix` (issue 33): fixtures with several syntax mistakes each
//! (input-method punctuation, a trailing comma, an unclosed string, and the
//! rule mistakes their fixing uncovers). Each `tests/fixtures/fix/<case>/`
//! has `input/` (laid over the base fixture) and, when every mistake has an
//! exact fix, `fixed/`: the files as a person would repair them by hand.

use std::path::{Path, PathBuf};

use crate::util::{FIXTURE_NOW, check_json, crate_root, fixture_root, run, stderr, stdout};

fn case(name: &str) -> PathBuf {
    crate_root().join("tests/fixtures/fix").join(name)
}

/// The files of `dir`, relative to it, with their bytes.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<_> = walkdir::WalkDir::new(dir)
        .min_depth(1)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let rel = e.path().strip_prefix(dir).unwrap();
            (
                rel.to_string_lossy().replace('\\', "/"),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
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

        let untouched = files(root.path());
        let diff = run(root.path(), &["check", "--fix", "--diff", now[0], now[1]]);
        assert_eq!(files(root.path()), untouched, "{name}: --diff wrote");
        insta::assert_snapshot!(format!("fix_{name}_diff"), stdout(&diff));

        let fixed = run(root.path(), &["check", "--fix", now[0], now[1]]);
        assert_eq!(fixed.status.code(), Some(0), "{name}: {}", stderr(&fixed));
        assert!(
            stderr(&fixed).contains("checked: no problems"),
            "{}",
            stderr(&fixed)
        );
        for (rel, expected) in files(&case(name).join("fixed")) {
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
    let before = files(root.path());
    let output = run(root.path(), &["check", "--fix", "--now", FIXTURE_NOW]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(files(root.path()), before);
    let text = stderr(&output);
    assert!(
        text.contains("left data/demo/zh-CN.json unchanged"),
        "{text}"
    );
    assert!(text.contains("expected a value, found `探`"), "{text}");
}
