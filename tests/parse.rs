//! The parser under `check` and `fmt`: character columns on every syntax
//! error path, duplicate keys, `fmt` keeping every value, and the typed
//! mirror of the schema agreeing with the schema.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;

use crate::util::{FIXTURE_NOW, check_json, crate_root, fixture_root, run, stderr, stdout};

/// Marks where the error must be reported; removed before the file is written.
const MARK: char = '⟦';

/// Writes `text` (with one [`MARK`]) as `data/demo/zh-CN.json` of a fresh base
/// fixture and returns the single diagnostic's line and column, and where the
/// mark was (line, column in characters).
fn syntax_case(bytes: Vec<u8>) -> ((u64, u64), (u64, u64), Value) {
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let at = text.find(MARK).expect("a mark");
    let line = text[..at].matches('\n').count() + 1;
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let column = text[line_start..at].chars().count() + 1;
    // Remove the mark from the bytes (it may sit before invalid UTF-8).
    let mark = MARK.to_string();
    let position = bytes
        .windows(mark.len())
        .position(|w| w == mark.as_bytes())
        .unwrap();
    let mut clean = bytes[..position].to_vec();
    clean.extend_from_slice(&bytes[position + mark.len()..]);
    let root = fixture_root(None);
    std::fs::write(root.path().join("data/demo/zh-CN.json"), clean).unwrap();
    let (code, report) = check_json(root.path(), FIXTURE_NOW);
    assert_eq!(code, 1, "{report:#}");
    // The syntax error (the rules also run on what recovery reads: an
    // unknown key beside it is reported too).
    let d = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "json-syntax")
        .cloned()
        .unwrap_or_else(|| report["diagnostics"][0].clone());
    (
        (d["line"].as_u64().unwrap(), d["column"].as_u64().unwrap()),
        (line as u64, column as u64),
        d,
    )
}

/// Regression (issue 11): a `json-syntax` error on a line with Chinese text
/// reported a byte offset (31 where the character column is 23). Every path
/// that reports a syntax error, each with non-ASCII text before the error.
#[test]
fn every_syntax_error_path_counts_columns_in_characters() {
    let base =
        std::fs::read_to_string(crate_root().join("tests/fixtures/base/data/demo/zh-CN.json"))
            .unwrap();
    let line = "  \"versionName\": \"星海之歌\",";
    assert!(base.contains(line));
    let with = |replacement: &str| base.replace(line, replacement).into_bytes();
    let deep = format!(
        "  \"versionName\": \"星海之歌\", \"x\": {}{MARK}[{},",
        "[".repeat(127),
        "]".repeat(128)
    );
    let cases: Vec<(&str, Vec<u8>)> = vec![
        (
            "unexpected token",
            with("  \"versionName\": \"星海之歌\" ⟦x,"),
        ),
        (
            "string open at the end of its line",
            with("  \"versionName\": ⟦\"星海之歌,"),
        ),
        (
            "full-width comma",
            with("  \"versionName\": \"星海之歌\"⟦，"),
        ),
        (
            "full-width colon",
            with("  \"versionName\"⟦：\"星海之歌\","),
        ),
        ("typographic quote", with("  \"versionName\": ⟦“星海之歌”,")),
        (
            "ideographic space",
            with("  \"versionName\": \"星海之歌\",⟦\u{3000}"),
        ),
        (
            "full-width bracket",
            with("  \"versionName\": \"星海之歌\", \"x\": ⟦［],"),
        ),
        (
            "missing comma",
            with("  \"versionName\": \"星海之歌⟦\" \"x\": 1,"),
        ),
        (
            "missing closing bracket",
            "{\"versionName\": \"星海之歌\", \"x\": [1⟦"
                .to_string()
                .into_bytes(),
        ),
        (
            "line comment",
            with("  \"versionName\": \"星海之歌\", ⟦// 注释"),
        ),
        (
            "block comment",
            with("  \"versionName\": \"星海之歌\", ⟦/* 注释 */"),
        ),
        ("single quotes", with("  \"versionName\": ⟦'星海之歌',")),
        ("NaN", with("  \"versionName\": \"星海之歌\", \"x\": ⟦NaN,")),
        (
            "Infinity",
            with("  \"versionName\": \"星海之歌\", \"x\": -⟦Infinity,"),
        ),
        (
            "plus sign",
            with("  \"versionName\": \"星海之歌\", \"x\": ⟦+1,"),
        ),
        (
            "unquoted key",
            with("  \"versionName\": \"星海之歌\", ⟦x: 1,"),
        ),
        (
            "raw tab in a string",
            with("  \"versionName\": \"星海之歌⟦\t\","),
        ),
        (
            "raw control character",
            with("  \"versionName\": \"星海之歌⟦\u{1}\","),
        ),
        (
            "lone surrogate",
            with("  \"versionName\": \"星海之歌⟦\\ud800\","),
        ),
        (
            "invalid escape",
            with("  \"versionName\": \"星海之歌⟦\\q\","),
        ),
        (
            "number out of range",
            with("  \"versionName\": \"星海之歌\", \"x\": ⟦1e999,"),
        ),
        (
            "leading zero",
            with("  \"versionName\": \"星海之歌\", \"x\": ⟦01,"),
        ),
        ("nesting too deep", with(&deep)),
        (
            "trailing comma",
            with("  \"versionName\": \"星海之歌\"⟦, }"),
        ),
        (
            "content after the end",
            format!("{}⟦x", base.trim_end()).into_bytes(),
        ),
        (
            "unterminated",
            "{\"versionName\": ⟦\"星海之歌 ".to_string().into_bytes(),
        ),
        ("invalid UTF-8", {
            let mut b = with("  \"versionName\": \"星海之歌⟦X\",");
            let x = b.iter().position(|&c| c == b'X').unwrap();
            b[x] = 0xFF;
            b
        }),
    ];
    let mut failures = Vec::new();
    for (name, bytes) in cases {
        let (got, want, d) = syntax_case(bytes);
        assert_eq!(d["code"], "json-syntax", "{name}: {d:#}");
        if got != want {
            failures.push(format!(
                "{name}: got {got:?}, want {want:?} ({})",
                d["message"]
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The column is the same number in every output format.
#[test]
fn github_and_human_formats_use_the_character_column() {
    let case = crate_root().join("tests/fixtures/invalid/json-syntax-control-character");
    let root = fixture_root(Some(&case));
    let output = run(
        root.path(),
        &["check", "--format", "github", "--now", FIXTURE_NOW],
    );
    assert!(
        stdout(&output).starts_with("::error file=data/demo/zh-CN.json,line=4,col=23,"),
        "{}",
        stdout(&output)
    );
    let output = run(root.path(), &["check", "--now", FIXTURE_NOW]);
    assert!(
        stderr(&output).contains("data/demo/zh-CN.json:4:23"),
        "{}",
        stderr(&output)
    );
}

/// Regression (issue 11): `{"versionName": "A", "versionName": "B"}` passed
/// `check`, and `fmt` then kept `B` and deleted `A`.
#[test]
fn fmt_refuses_a_file_with_a_duplicate_key() {
    for case in [
        "duplicate-key-top",
        "duplicate-key-nested",
        "duplicate-key-registry",
    ] {
        let root = fixture_root(Some(
            &crate_root().join("tests/fixtures/invalid").join(case),
        ));
        let file = if case.ends_with("registry") {
            "games.json"
        } else {
            "data/demo/zh-CN.json"
        };
        let before = std::fs::read(root.path().join(file)).unwrap();
        let output = run(root.path(), &["fmt", "--now", FIXTURE_NOW]);
        assert_eq!(output.status.code(), Some(1), "{case}");
        assert!(
            stderr(&output).contains("duplicate-key"),
            "{case}: {}",
            stderr(&output)
        );
        assert_eq!(
            std::fs::read(root.path().join(file)).unwrap(),
            before,
            "{case}"
        );
    }
}

#[test]
fn duplicate_key_help_names_the_first_line() {
    let case = crate_root().join("tests/fixtures/invalid/duplicate-key-nested");
    let (_, report) = check_json(fixture_root(Some(&case)).path(), FIXTURE_NOW);
    let d = &report["diagnostics"][0];
    assert_eq!(d["code"], "duplicate-key");
    assert_eq!(d["line"], 18);
    assert!(
        d["help"].as_str().unwrap().contains("line 17"),
        "{report:#}"
    );
}

/// Every value of a JSON document except its activities, as `(pointer, value)`,
/// and its activities as a sorted list of their canonical (sorted-key) text:
/// `fmt` may reorder activities (it sorts them) and keys, nothing else.
fn values(doc: &Value) -> (BTreeSet<(String, String)>, Vec<String>) {
    fn canonical(v: &Value) -> String {
        match v {
            Value::Object(map) => {
                let mut entries: Vec<_> = map.iter().collect();
                entries.sort_by(|a, b| a.0.cmp(b.0));
                let inner: Vec<String> = entries
                    .iter()
                    .map(|(k, v)| format!("{}:{}", Value::String((*k).clone()), canonical(v)))
                    .collect();
                format!("{{{}}}", inner.join(","))
            }
            Value::Array(items) => {
                format!(
                    "[{}]",
                    items.iter().map(canonical).collect::<Vec<_>>().join(",")
                )
            }
            other => other.to_string(),
        }
    }
    fn flatten(v: &Value, pointer: String, out: &mut BTreeSet<(String, String)>, top: bool) {
        match v {
            Value::Object(map) => {
                out.insert((pointer.clone(), "{}".to_string()));
                for (k, v) in map {
                    if top && k == "activities" && v.is_array() {
                        continue;
                    }
                    let key = k.replace('~', "~0").replace('/', "~1");
                    flatten(v, format!("{pointer}/{key}"), out, false);
                }
            }
            Value::Array(items) => {
                out.insert((pointer.clone(), format!("[{}]", items.len())));
                for (i, v) in items.iter().enumerate() {
                    flatten(v, format!("{pointer}/{i}"), out, false);
                }
            }
            other => {
                out.insert((pointer, other.to_string()));
            }
        }
    }
    let mut flat = BTreeSet::new();
    flatten(doc, String::new(), &mut flat, true);
    let mut activities: Vec<String> = doc
        .get("activities")
        .and_then(Value::as_array)
        .map(|a| a.iter().map(canonical).collect())
        .unwrap_or_default();
    activities.sort();
    (flat, activities)
}

fn json_files(root: &Path) -> Vec<String> {
    let mut files = vec!["games.json".to_string()];
    for entry in walkdir::WalkDir::new(root.join("data")).sort_by_file_name() {
        let entry = entry.unwrap();
        if entry.file_type().is_file() && entry.path().extension().is_some_and(|e| e == "json") {
            let rel = entry.path().strip_prefix(root).unwrap();
            files.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
    files
}

/// Issue 11: no rewrite of a contributor's file may lose a value. `fmt` over
/// every valid fixture (the base, every invalid case whose defects are only
/// warnings, the real-document corpus) and the bundled data: every JSON
/// pointer outside `activities` keeps its value, and the activities are the
/// same multiset (compared by their full content, keys sorted), as fmt sorts
/// them by start time.
#[test]
fn fmt_keeps_every_value_of_every_valid_file() {
    let mut roots: Vec<(String, tempfile::TempDir)> = vec![("base".into(), fixture_root(None))];
    let invalid = crate_root().join("tests/fixtures/invalid");
    let mut cases: Vec<_> = std::fs::read_dir(&invalid)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    cases.sort();
    for case in cases {
        let expected = std::fs::read_to_string(case.join("expected")).unwrap_or_default();
        if expected.contains(" error ") {
            continue;
        }
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        roots.push((name, fixture_root(Some(&case))));
    }
    for source in ["tests/fixtures/corpus", "."] {
        let dir = tempfile::tempdir().unwrap();
        crate::util::copy_tree(
            &crate_root().join(source).join("data"),
            &dir.path().join("data"),
        );
        std::fs::copy(
            crate_root().join(source).join("games.json"),
            dir.path().join("games.json"),
        )
        .unwrap();
        roots.push((source.into(), dir));
    }
    assert!(roots.len() >= 8, "{}", roots.len());
    let mut rewritten = 0;
    for (name, root) in &roots {
        let files = json_files(root.path());
        let before: Vec<Value> = files
            .iter()
            .map(|f| serde_json::from_slice(&std::fs::read(root.path().join(f)).unwrap()).unwrap())
            .collect();
        let raw_before: Vec<Vec<u8>> = files
            .iter()
            .map(|f| std::fs::read(root.path().join(f)).unwrap())
            .collect();
        let output = run(root.path(), &["fmt", "--now", FIXTURE_NOW]);
        assert_eq!(output.status.code(), Some(0), "{name}: {}", stderr(&output));
        for ((file, old), raw) in files.iter().zip(&before).zip(&raw_before) {
            let after = std::fs::read(root.path().join(file)).unwrap();
            if &after != raw {
                rewritten += 1;
            }
            let new: Value = serde_json::from_slice(&after).unwrap();
            assert_eq!(
                values(old),
                values(&new),
                "{name}: {file} lost or changed a value"
            );
        }
    }
    // Most fixtures are canonical already; the comparison must have seen rewrites.
    assert!(
        rewritten > 0,
        "no file was rewritten: the test proves nothing"
    );
}

/// The built-in schema and the tree's mirror of it ([`rules::schema_valid`])
/// give the same verdict on every fixture document and on many structural
/// mutations of the valid ones (each value removed, replaced by a number, by
/// an empty string, by an object; an unknown key added to each object).
#[test]
fn the_typed_checks_agree_with_the_schema() {
    use activity_site::validate::Validator;

    let root = crate_root().join("tests/fixtures/base");
    let overlay = activity_site::source::Overlay::new();
    let project = activity_site::load::load(&root, &overlay).unwrap().project;
    let validator = Validator::new(&project).unwrap();
    let mut documents: Vec<(String, String)> = Vec::new();
    for entry in walkdir::WalkDir::new(crate_root().join("tests/fixtures")).sort_by_file_name() {
        let entry = entry.unwrap();
        let path = entry.path();
        if entry.file_type().is_file()
            && path.extension().is_some_and(|e| e == "json")
            && path.to_string_lossy().contains("/data/")
            && let Ok(text) = std::fs::read_to_string(path)
        {
            documents.push((path.display().to_string(), text));
        }
    }
    let mut mutated = Vec::new();
    for (name, text) in &documents {
        let Ok(doc) = serde_json::from_str::<Value>(text) else {
            continue;
        };
        for pointer in pointers(&doc, String::new()) {
            for replacement in [
                None,
                Some(Value::from(1)),
                Some(Value::from("")),
                Some(Value::from("2026-10-01 11:00:00")),
                Some(serde_json::json!({})),
                Some(serde_json::json!([])),
            ] {
                let mut copy = doc.clone();
                if set(&mut copy, &pointer, replacement.clone()) {
                    mutated.push((
                        format!("{name} {pointer} {replacement:?}"),
                        copy.to_string(),
                    ));
                }
            }
            let mut copy = doc.clone();
            if let Some(Value::Object(map)) = copy.pointer_mut(&pointer) {
                map.insert("extra".into(), Value::from("x"));
                mutated.push((format!("{name} {pointer} +extra"), copy.to_string()));
            }
        }
    }
    assert!(mutated.len() > 500, "{}", mutated.len());
    let mut disagreements = Vec::new();
    let (mut valid, mut invalid) = (0, 0);
    for (name, text) in documents.iter().chain(&mutated) {
        let Some((typed, schema)) = validator.schema_verdicts(text) else {
            continue;
        };
        if schema {
            valid += 1;
        } else {
            invalid += 1;
        }
        if typed != schema {
            disagreements.push(format!("{name}: typed {typed}, schema {schema}"));
        }
    }
    assert!(
        valid > 10 && invalid > 100,
        "{valid} valid, {invalid} invalid"
    );
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}

fn pointers(v: &Value, at: String) -> Vec<String> {
    let mut out = vec![at.clone()];
    match v {
        Value::Object(map) => {
            for (k, v) in map {
                out.extend(pointers(v, format!("{at}/{k}")));
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                out.extend(pointers(v, format!("{at}/{i}")));
            }
        }
        _ => {}
    }
    out
}

/// Replaces (or, with `None`, removes) the value at `pointer`.
fn set(doc: &mut Value, pointer: &str, value: Option<Value>) -> bool {
    let Some((parent, last)) = pointer.rsplit_once('/') else {
        return false;
    };
    match (doc.pointer_mut(parent), value) {
        (Some(Value::Object(map)), None) => map.shift_remove(last).is_some(),
        (Some(Value::Object(map)), Some(v)) => map.insert(last.to_string(), v).is_some(),
        (Some(Value::Array(items)), value) => {
            let Ok(i) = last.parse::<usize>() else {
                return false;
            };
            if i >= items.len() {
                return false;
            }
            match value {
                None => {
                    items.remove(i);
                }
                Some(v) => items[i] = v,
            }
            true
        }
        _ => false,
    }
}
