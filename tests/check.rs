//! `check`: one fixture folder per defect, real documents, and the renderers.

use std::path::Path;

use crate::util::{FIXTURE_NOW, check_json, crate_root, fixture_root, run, stderr, stdout};

/// Each `tests/fixtures/invalid/<case>/` overlays one defect on the valid base;
/// its `expected` file lists `code severity file:line:col`, one per line.
#[test]
fn every_invalid_fixture_reports_exactly_its_defect() {
    let cases = crate_root().join("tests/fixtures/invalid");
    let mut names: Vec<_> = std::fs::read_dir(&cases)
        .expect("fixtures")
        .map(|e| e.expect("entry").path())
        .collect();
    names.sort();
    assert!(
        names.len() >= 25,
        "expected a fixture per rule, found {}",
        names.len()
    );
    let mut failures = Vec::new();
    for case in names {
        let (code, actual) = run_case(&case);
        let expected = std::fs::read_to_string(case.join("expected")).unwrap_or_default();
        let expected: Vec<String> = expected
            .lines()
            .map(str::to_string)
            .filter(|l| !l.is_empty())
            .collect();
        let has_error = expected.iter().any(|l| l.contains(" error "));
        let expected_code = if has_error { 1 } else { 0 };
        if actual != expected || code != expected_code {
            failures.push(format!(
                "{}: exit {code} (want {expected_code})\n  got:  {actual:?}\n  want: {expected:?}",
                case.file_name().unwrap_or_default().to_string_lossy()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn run_case(case: &Path) -> (i32, Vec<String>) {
    let root = fixture_root(Some(case));
    let now = std::fs::read_to_string(case.join("now"))
        .map_or(FIXTURE_NOW.to_string(), |s| s.trim().to_string());
    let (code, report) = check_json(root.path(), &now);
    let lines = report["diagnostics"]
        .as_array()
        .expect("diagnostics array")
        .iter()
        .map(|d| {
            format!(
                "{} {} {}:{}:{}",
                d["code"].as_str().unwrap_or_default(),
                d["severity"].as_str().unwrap_or_default(),
                d["file"].as_str().unwrap_or_default(),
                d["line"],
                d["column"]
            )
        })
        .collect();
    (code, lines)
}

#[test]
fn the_base_fixture_is_clean() {
    let root = fixture_root(None);
    let (code, report) = check_json(root.path(), FIXTURE_NOW);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(report["errors"], 0);
    assert_eq!(report["warnings"], 0);
}

#[test]
fn the_bundled_data_has_no_errors() {
    let output = run(
        &crate_root(),
        &["check", "--format", "json", "--now", "2026-11-22T12:00:00"],
    );
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("json");
    assert_eq!(report["errors"], 0, "{report:#}");
    assert_eq!(output.status.code(), Some(0));
}
