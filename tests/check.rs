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
    // The fixtures' documents were written before ids, like every tree
    // until its first `check --fix`: `missing-id` is each fixture's
    // defect only where the fixture is about it.
    let about_ids = case
        .file_name()
        .is_some_and(|n| n.to_string_lossy().starts_with("missing-id"));
    let lines = report["diagnostics"]
        .as_array()
        .expect("diagnostics array")
        .iter()
        .filter(|d| about_ids || d["code"] != "missing-id")
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
    // Every activity has its id (`check --fix`, paired across locales).
    let missing: Vec<&serde_json::Value> = report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter(|d| d["code"] == "missing-id")
        .collect();
    assert!(missing.is_empty(), "{missing:#?}");
}

/// The three real published documents (our trimmed copy of their facts) pass.
#[test]
fn real_documents_pass_without_errors() {
    let root = crate_root().join("tests/fixtures/corpus");
    let (code, report) = check_json(&root, "2026-10-15T00:00:00");
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(report["errors"], 0);
    // Later, they are only stale: a warning, not an error.
    let (code, report) = check_json(&root, "2026-11-22T12:00:00");
    assert_eq!(code, 0);
    // The real documents have no activity ids yet: `missing-id` warns
    // (a warning, `check --fix` gives them), and nothing else but `stale`.
    let codes: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .filter(|code| *code != "missing-id")
        .collect();
    assert_eq!(codes, ["stale", "stale", "stale"]);
}

#[test]
fn human_rendering_shows_the_line_a_caret_and_help() {
    let case = crate_root().join("tests/fixtures/invalid/schema-unknown-key");
    let root = fixture_root(Some(&case));
    let output = run(root.path(), &["check", "--now", FIXTURE_NOW]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stdout(&output), "", "human diagnostics go to stderr");
    insta::assert_snapshot!("human_unknown_key", stderr(&output));

    let case = crate_root().join("tests/fixtures/invalid/datetime-hour-24");
    let root = fixture_root(Some(&case));
    let output = run(root.path(), &["check", "--now", FIXTURE_NOW]);
    insta::assert_snapshot!("human_hour_24", stderr(&output));
}

#[test]
fn github_format_annotates_lines() {
    let case = crate_root().join("tests/fixtures/invalid/time-order");
    let root = fixture_root(Some(&case));
    let output = run(
        root.path(),
        &["check", "--format", "github", "--now", FIXTURE_NOW],
    );
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    assert!(
        text.starts_with(
            "::error file=data/demo/en-US.json,line=21,col=18,title=time-order::the activity ends"
        ),
        "{text}"
    );
    assert!(
        text.contains("%0Ahelp: endTime must be later than startTime"),
        "{text}"
    );
}

#[test]
fn json_format_has_counts_and_help() {
    let case = crate_root().join("tests/fixtures/invalid/schema-unknown-key");
    let root = fixture_root(Some(&case));
    let (code, report) = check_json(root.path(), FIXTURE_NOW);
    assert_eq!(code, 1);
    assert_eq!(report["errors"], 1);
    assert_eq!(report["warnings"], 0);
    let d = &report["diagnostics"][0];
    assert_eq!(d["message"], "unknown field `endTme`");
    assert_eq!(d["help"], "did you mean `endTime`?");
}

#[test]
fn deny_warnings_turns_warnings_into_failure() {
    let case = crate_root().join("tests/fixtures/invalid/whitespace");
    let root = fixture_root(Some(&case));
    let now = ["--now", FIXTURE_NOW];
    assert_eq!(
        run(root.path(), &["check", now[0], now[1]]).status.code(),
        Some(0)
    );
    assert_eq!(
        run(root.path(), &["check", "--deny-warnings", now[0], now[1]])
            .status
            .code(),
        Some(1)
    );
}

#[test]
fn every_problem_is_reported_in_one_run() {
    // Three defects in two files: all three come out at once.
    let root = fixture_root(None);
    let en = root.path().join("data/demo/en-US.json");
    let text = std::fs::read_to_string(&en).unwrap();
    let text = text
        .replace("\"version\": \"1.2\"", "\"version\": 1.2")
        .replace("2026-10-20T04:00:00", "2026-10-20T04:00:00Z");
    std::fs::write(&en, text).unwrap();
    std::fs::write(root.path().join("data/demo/zh-CN.json"), "{").unwrap();
    let (code, report) = check_json(root.path(), FIXTURE_NOW);
    assert_eq!(code, 1);
    assert_eq!(report["errors"], 3, "{report:#}");
}

#[test]
fn tool_failures_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nope");
    let output = run(dir.path(), &["check", "--root", missing.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("cannot read the root"),
        "{}",
        stderr(&output)
    );

    let output = run(dir.path(), &["check", "--format", "xml"]);
    assert_eq!(output.status.code(), Some(2), "bad flags");
    let output = run(dir.path(), &["check", "--now", "2026-10-01"]);
    assert_eq!(output.status.code(), Some(2), "bad --now");
    assert!(stderr(&output).contains("YYYY-MM-DDTHH:MM:SS"));
}

/// Issue 17: run in the wrong folder (no `games.json`), every command that
/// reads the data exits 2 with one line naming `--root`, and writes nothing
/// there (`serve` used to keep running and create `.activity-site/`).
#[test]
fn a_root_without_games_json_stops_every_command_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let commands: [&[&str]; 6] = [
        &["check"],
        &["build"],
        &["fmt"],
        &["status"],
        &["serve", "--addr", "127.0.0.1:0"],
        &["diff", "--against", "http://127.0.0.1:9"],
    ];
    for args in commands {
        let output = run(dir.path(), args);
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with("error: no games.json in ") && err.contains("--root DIR"),
            "{args:?}: {err}"
        );
        assert_eq!(stdout(&output), "", "{args:?}");
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            0,
            "{args:?} wrote into the folder"
        );
    }
}

#[test]
fn every_subcommand_has_help_with_an_example() {
    let dir = tempfile::tempdir().unwrap();
    for command in ["check", "build", "fmt", "status", "serve", "diff"] {
        let output = run(dir.path(), &[command, "--help"]);
        assert_eq!(output.status.code(), Some(0), "{command}");
        assert!(
            stdout(&output).contains("Example:"),
            "{command} --help has no example"
        );
        assert!(
            stdout(&output).contains("--root"),
            "{command} --help lacks --root"
        );
    }
}

/// Regression: one misplaced activity used to give an `unsorted` warning for
/// every row after it, because each row was compared with the latest start so far.
#[test]
fn one_misplaced_activity_is_one_unsorted_warning() {
    let root = fixture_root(None);
    for locale in ["zh-CN", "en-US"] {
        let path = root.path().join(format!("data/demo/{locale}.json"));
        let mut doc: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        // Move the last activity (starts 10-20) to the top: rows 1 and 2 are still in order.
        let activities = doc["activities"].as_array_mut().unwrap();
        let last = activities.pop().unwrap();
        activities.insert(0, last);
        std::fs::write(&path, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    }
    let (code, report) = check_json(root.path(), FIXTURE_NOW);
    assert_eq!(code, 0);
    let unsorted: Vec<_> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "unsorted")
        .map(|d| d["file"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        unsorted,
        ["data/demo/en-US.json", "data/demo/zh-CN.json"],
        "{report:#}"
    );
}

/// The `json-syntax-*` fixtures, sorted.
fn syntax_fixtures() -> Vec<std::path::PathBuf> {
    let mut cases: Vec<_> = std::fs::read_dir(crate_root().join("tests/fixtures/invalid"))
        .expect("fixtures")
        .map(|e| e.expect("entry").path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("json-syntax-"))
        })
        .collect();
    cases.sort();
    cases
}

/// Issue 17: every JSON syntax mistake has its own message and a help line,
/// shown as a contributor sees it (one snapshot per fixture).
#[test]
fn every_syntax_mistake_is_explained_with_help() {
    for case in syntax_fixtures() {
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        let root = fixture_root(Some(&case));
        let output = run(root.path(), &["check", "--now", FIXTURE_NOW]);
        let text = stderr(&output);
        assert!(text.contains("help: "), "{name} has no help line:\n{text}");
        insta::assert_snapshot!(format!("syntax_{}", &name["json-syntax-".len()..]), text);
    }
}

/// Issue 17: where a syntax diagnostic carries a repair, it is exact:
/// applying the repairs one after another (as an editor's quick fix would)
/// gives a document that serde_json accepts.
#[test]
fn syntax_fixes_repair_the_document() {
    let fixable = [
        "block-comment",
        "control-character",
        "full-width-bracket",
        "full-width-colon",
        "full-width-comma",
        "ideographic-space",
        "leading-zero",
        "line-comment",
        "missing-comma",
        "plus-sign",
        "single-quotes",
        "trailing-comma",
        "typographic-quotes",
        "unclosed-bracket",
        "unquoted-key",
    ];
    for name in fixable {
        let case = crate_root().join(format!("tests/fixtures/invalid/json-syntax-{name}"));
        let file = walkdir::WalkDir::new(&case)
            .into_iter()
            .map(|e| e.unwrap().into_path())
            .find(|p| p.extension().is_some_and(|e| e == "json"))
            .unwrap();
        let mut text = std::fs::read_to_string(&file).unwrap();
        for _ in 0..4 {
            match activity_site::json::parse(&text) {
                Ok(_) => break,
                Err(err) => {
                    let Some(fix) = err.fix.clone() else {
                        panic!("{name}: no fix for {err:?}")
                    };
                    text.replace_range(fix.start..fix.end, &fix.replacement);
                }
            }
        }
        assert!(
            serde_json::from_str::<serde_json::Value>(&text).is_ok(),
            "{name}: still broken after its fixes:\n{text}"
        );
    }
}

/// Issue 17: every example line of every `--help` is one command that the
/// real argument parser accepts as written.
#[test]
fn every_help_example_parses() {
    use clap::Parser as _;
    let dir = tempfile::tempdir().unwrap();
    let mut examples = 0;
    for command in [
        "check", "build", "fmt", "status", "serve", "diff", "import", "publish", "lsp",
    ] {
        let output = run(dir.path(), &[command, "--help"]);
        assert_eq!(output.status.code(), Some(0), "{command}");
        for line in stdout(&output).lines() {
            let Some(example) = line.trim_start().strip_prefix("activity-site ") else {
                continue;
            };
            let args = std::iter::once("activity-site").chain(example.split_whitespace());
            if let Err(err) = activity_site::cli::Cli::try_parse_from(args) {
                panic!("{command} --help: `{line}` does not parse:\n{err}");
            }
            examples += 1;
        }
    }
    assert!(examples >= 10, "{examples} examples");
}

/// Issue 57: `check --changed-since REF` judges a change by what it
/// introduced. On the bundled tree as it is today (every document overdue,
/// so a plain `check --deny-warnings` fails), a repository made in a
/// temporary folder: a clean edit of a description passes with
/// `--deny-warnings`, the clock's findings left out and said once; an
/// activity made to end before it starts fails, and only its own problems
/// are reported, in both languages; a revision that is not one is the
/// tool's failure.
#[test]
fn changed_since_reports_only_what_the_change_introduced() {
    let now = "2026-11-27T12:00:00";
    let repo = crate::util::bundled_repository("today's tree");
    let root = repo.path();
    let plain = run(root, &["check", "--deny-warnings", "--now", now]);
    assert_eq!(plain.status.code(), Some(1), "the tree is overdue today");

    let file = root.join("data/zzz/en-US.json");
    let text = std::fs::read_to_string(&file).expect("zzz");
    let at = text.find("\"activities\"").expect("activities");
    let desc = at
        + text[at..]
            .find("\"description\": \"")
            .expect("a description")
        + 16;
    let mut edited = text.clone();
    edited.insert_str(desc, "Edited: ");
    std::fs::write(&file, &edited).expect("write");
    let args = [
        "check",
        "--changed-since",
        "HEAD",
        "--deny-warnings",
        "--now",
        now,
    ];
    let clean = run(root, &args);
    assert_eq!(clean.status.code(), Some(0), "{}", stderr(&clean));
    let said = stderr(&clean);
    assert_eq!(said.matches("findings of the clock").count(), 1, "{said}");
    assert!(said.contains("checked: no problems"), "{said}");

    let end = at + edited[at..].find("\"endTime\": \"").expect("an end") + 12;
    let mut broken = edited.clone();
    broken.replace_range(end..end + 19, "2000-01-01T00:00:00");
    std::fs::write(&file, &broken).expect("write");
    let failed = run(root, &args);
    assert_eq!(failed.status.code(), Some(1), "{}", stderr(&failed));
    let said = stderr(&failed);
    assert!(
        said.contains("error[time-order]: the activity ends (2000-01-01T00:00:00)"),
        "{said}"
    );
    assert!(said.contains("--> data/zzz/en-US.json:"), "{said}");
    assert!(said.contains("checked: 1 error, 0 warnings"), "{said}");
    let mut zh = args.to_vec();
    zh.extend(["--lang", "zh-CN"]);
    let failed = run(root, &zh);
    assert_eq!(failed.status.code(), Some(1));
    let said = stderr(&failed);
    assert!(
        said.starts_with("只报告自 HEAD 以来的改动带来的问题"),
        "{said}"
    );
    assert!(said.contains("时钟带来的"), "{said}");
    assert!(said.contains("错误[time-order]"), "{said}");
    assert!(said.contains("检查完毕：1 个错误，0 个警告"), "{said}");

    let unknown = run(
        root,
        &["check", "--changed-since", "no-such-rev", "--now", now],
    );
    assert_eq!(unknown.status.code(), Some(2));
    assert!(stderr(&unknown).contains("`no-such-rev` is not a revision"));
}
