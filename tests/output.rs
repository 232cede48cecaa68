//! The output directory is owned (issue 10): a build replaces only an absent,
//! empty or generated directory, defaults under `--root`, and closed output
//! pipes end a command quietly.

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::path::Path;
use std::process::{Command, Stdio};

use crate::util::{FIXTURE_NOW, files_under, fixture_root, run, stderr};

const MARKER: &str = ".activity-site-output";

fn build(root: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["build", "--now", FIXTURE_NOW];
    args.extend_from_slice(extra);
    run(root, &args)
}

#[test]
fn out_inside_the_inputs_or_above_the_root_is_refused_and_nothing_changes() {
    let root = fixture_root(None);
    let before = files_under(root.path());
    for out in ["data", "data/demo", "data/new", "schema", ".", "..", ".git"] {
        let output = build(root.path(), &["--out", out]);
        assert_eq!(output.status.code(), Some(2), "--out {out}");
        let err = stderr(&output);
        assert!(err.contains(&format!("refusing `--out {out}`")), "{err}");
        assert!(err.contains("help: "), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    assert_eq!(files_under(root.path()), before);
}

#[cfg(unix)]
#[test]
fn a_new_directory_behind_a_symlink_into_the_inputs_is_refused() {
    let root = fixture_root(None);
    std::os::unix::fs::symlink(root.path().join("data"), root.path().join("link")).unwrap();
    let before = files_under(&root.path().join("data"));
    let output = build(root.path(), &["--out", "link/new"]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("inside `data`"),
        "{}",
        stderr(&output)
    );
    assert_eq!(files_under(&root.path().join("data")), before);
}

#[test]
fn a_directory_holding_games_json_is_refused() {
    let root = fixture_root(None);
    let other = fixture_root(None);
    let before = files_under(other.path());
    let output = build(root.path(), &["--out", other.path().to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("holds `games.json`"),
        "{}",
        stderr(&output)
    );
    // Not even --force replaces a data tree.
    let output = build(
        root.path(),
        &["--out", other.path().to_str().unwrap(), "--force"],
    );
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(files_under(other.path()), before);
}

#[test]
fn an_unrelated_non_empty_directory_is_refused_then_replaced_with_force() {
    let root = fixture_root(None);
    let notes = tempfile::tempdir().unwrap();
    std::fs::write(notes.path().join("todo.txt"), "buy milk\n").unwrap();
    std::fs::create_dir(notes.path().join("sub")).unwrap();
    std::fs::write(notes.path().join("sub/idea.md"), "# idea\n").unwrap();
    let before = files_under(notes.path());
    let out = notes.path().to_str().unwrap();

    let output = build(root.path(), &["--out", out]);
    assert_eq!(output.status.code(), Some(2));
    let err = stderr(&output);
    assert!(err.contains(&format!("refusing `--out {out}`")), "{err}");
    assert!(err.contains("holds 2 files"), "{err}");
    assert!(err.contains("--force"), "{err}");
    assert_eq!(files_under(notes.path()), before);

    let output = build(root.path(), &["--out", out, "--force"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let err = stderr(&output);
    let warning = err.find("warning: --force").expect("says what it replaces");
    assert!(
        err[warning..].contains(&format!(
            "`{out}`, which activity-site did not make, and moves the 2 files"
        )),
        "{err}"
    );
    assert!(err[warning..].contains("sub/idea.md, todo.txt"), "{err}");
    assert!(warning < err.find("built").unwrap(), "{err}");
    assert!(!notes.path().join("todo.txt").exists());
    assert!(notes.path().join(MARKER).is_file());
    // Nothing deleted (issue 48): moved beside the output, and said where.
    let moved = err
        .lines()
        .find_map(|line| line.strip_prefix(&format!("moved what `{out}` held before to `")))
        .and_then(|rest| rest.split('`').next())
        .map(std::path::PathBuf::from)
        .expect("says where it moved the files");
    assert_eq!(files_under(&moved), before);
    std::fs::remove_dir_all(&moved).unwrap();
}

#[test]
fn force_with_data_errors_replaces_nothing() {
    let root = fixture_root(None);
    std::fs::write(root.path().join("data/demo/en-US.json"), "{").unwrap();
    let notes = tempfile::tempdir().unwrap();
    std::fs::write(notes.path().join("todo.txt"), "keep\n").unwrap();
    let output = build(
        root.path(),
        &["--out", notes.path().to_str().unwrap(), "--force"],
    );
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        std::fs::read_to_string(notes.path().join("todo.txt")).unwrap(),
        "keep\n"
    );
}

#[test]
fn a_marked_site_an_empty_directory_and_a_pre_marker_build_are_replaced() {
    let root = fixture_root(None);
    // Empty: accepted, and the result carries the marker.
    std::fs::create_dir(root.path().join("site")).unwrap();
    let output = build(root.path(), &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let marker = std::fs::read_to_string(root.path().join("site").join(MARKER)).unwrap();
    assert!(
        marker.contains("generated by `activity-site build`"),
        "{marker}"
    );

    // Marked, with a stale file of an older build: replaced as a whole.
    std::fs::write(root.path().join("site/api/v1/activity/gone.json"), "{}").unwrap();
    std::fs::write(root.path().join("site/notes.txt"), "x").unwrap();
    let output = build(root.path(), &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(!root.path().join("site/notes.txt").exists());
    assert!(!root.path().join("site/api/v1/activity/gone.json").exists());

    // A site built before the marker existed: only built files, accepted.
    std::fs::remove_file(root.path().join("site").join(MARKER)).unwrap();
    let output = build(root.path(), &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(root.path().join("site").join(MARKER).is_file());

    // The same with one file a build never writes: not ours, refused.
    std::fs::remove_file(root.path().join("site").join(MARKER)).unwrap();
    std::fs::write(root.path().join("site/CNAME"), "example.org\n").unwrap();
    let output = build(root.path(), &[]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(root.path().join("site/CNAME").is_file());
}

#[test]
fn build_defaults_to_site_under_the_root_not_the_current_directory() {
    let root = fixture_root(None);
    let cwd = tempfile::tempdir().unwrap();
    std::fs::create_dir(cwd.path().join("site")).unwrap();
    std::fs::write(cwd.path().join("site/mine.txt"), "mine\n").unwrap();
    let output = build(cwd.path(), &["--root", root.path().to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(root.path().join("site/api/v1/games.json").is_file());
    assert_eq!(
        files_under(&cwd.path().join("site")).len(),
        1,
        "the cwd's site/ is untouched"
    );
}

/// Sends one GET over a raw connection and returns the status line.
fn get_status(addr: &str, path: &str) -> String {
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut reply = String::new();
    stream.read_to_string(&mut reply).unwrap();
    reply.lines().next().unwrap_or_default().to_owned()
}

#[test]
fn serve_builds_under_the_root_and_hides_the_marker() {
    let root = fixture_root(None);
    let cwd = tempfile::tempdir().unwrap();
    std::fs::create_dir(cwd.path().join("site")).unwrap();
    std::fs::write(cwd.path().join("site/mine.txt"), "mine\n").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_activity-site"))
        .args(["serve", "--no-watch", "--addr", "127.0.0.1:0", "--root"])
        .arg(root.path())
        .arg("--state-dir")
        .arg(root.path().join(".state"))
        .current_dir(cwd.path())
        .env("NO_COLOR", "1")
        .env_remove("RUST_LOG")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.strip_suffix("/\n"))
        .map(str::to_owned);
    let statuses = addr.as_deref().map(|addr| {
        (
            get_status(addr, "/api/v1/games.json"),
            get_status(addr, &format!("/{MARKER}")),
        )
    });
    child.kill().unwrap();
    child.wait().unwrap();
    let (games, marker) = statuses.unwrap_or_else(|| panic!("no address in {line:?}"));
    assert!(games.contains(" 200 "), "{games}");
    assert!(marker.contains(" 404 "), "{marker}");
    assert!(
        line.contains(&root.path().join("site").display().to_string()),
        "{line}"
    );
    assert!(root.path().join("site").join(MARKER).is_file());
    assert_eq!(files_under(&cwd.path().join("site")).len(), 1);
}

/// Runs the binary with stdout a pipe whose reading end is already closed,
/// so its first write fails; returns (exit code, stderr).
fn run_into_closed_pipe(root: &Path, args: &[&str]) -> (Option<i32>, String) {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let output = Command::new(env!("CARGO_BIN_EXE_activity-site"))
        .args(args)
        .current_dir(root)
        .env("NO_COLOR", "1")
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    (output.status.code(), stderr(&output))
}

/// A closed pipe ends a command quietly, and its status stays its result:
/// issue 22 found `check --format json | head -c 100` exiting 0 on a tree
/// with errors, which `set -o pipefail` reads as a pass.
#[test]
fn closed_output_pipes_end_quietly_with_the_commands_status() {
    let root = fixture_root(None);
    // Something for `fmt --check` to list.
    let path = root.path().join("data/demo/en-US.json");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replace("\n  ", "\n    ")).unwrap();
    let cases: &[(&[&str], i32)] = &[
        (&["check", "--format", "json", "--now", FIXTURE_NOW], 0),
        (&["check", "--format", "github", "--now", FIXTURE_NOW], 0),
        (&["status", "--now", FIXTURE_NOW], 0),
        (&["status", "--format", "json", "--now", FIXTURE_NOW], 0),
        (&["fmt", "--check"], 1),
        (&["--help"], 0),
        (&["check", "--help"], 0),
        (&["--version"], 0),
    ];
    let invalid = fixture_root(Some(
        &crate::util::crate_root().join("tests/fixtures/invalid/time-order"),
    ));
    let warned = fixture_root(Some(
        &crate::util::crate_root().join("tests/fixtures/invalid/unsorted"),
    ));
    let failing: &[(&Path, &[&str])] = &[
        (
            invalid.path(),
            &["check", "--format", "json", "--now", FIXTURE_NOW],
        ),
        (
            invalid.path(),
            &["check", "--format", "github", "--now", FIXTURE_NOW],
        ),
        (invalid.path(), &["check", "--now", FIXTURE_NOW]),
        (
            warned.path(),
            &[
                "check",
                "--format",
                "json",
                "--deny-warnings",
                "--now",
                FIXTURE_NOW,
            ],
        ),
    ];
    let runs = cases
        .iter()
        .map(|(args, code)| (root.path(), *args, *code))
        .chain(failing.iter().map(|(root, args)| (*root, *args, 1)));
    for (root, args, expected) in runs {
        let (code, err) = run_into_closed_pipe(root, args);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(!err.contains("Broken pipe"), "{args:?}: {err}");
        assert_eq!(code, Some(expected), "{args:?}: {err}");
    }
}

#[test]
fn diff_into_a_closed_pipe_ends_quietly() {
    let root = fixture_root(None);
    let output = build(root.path(), &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    // The deployed copy differs, so diff has something to print.
    let deployed = tempfile::tempdir().unwrap();
    crate::util::copy_tree(&root.path().join("site"), deployed.path());
    std::fs::remove_file(deployed.path().join("api/v1/activity/demo.json")).unwrap();
    let base = crate::util::serve_folder(deployed.path());
    let (code, err) = run_into_closed_pipe(
        root.path(),
        &["diff", "--against", &base, "--now", FIXTURE_NOW],
    );
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(code, Some(1), "the deployed copy differs: {err}");
}
