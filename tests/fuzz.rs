//! Property tests of the loader and validator over mutated documents:
//! truncation, random byte edits, invalid UTF-8, huge nesting, repeated lines
//! (duplicate keys) and odd unicode, in the data files and in `games.json`.
//! No panic, and every diagnostic's line and column lie inside its file;
//! through the binary, the exit code is 0 or 1 only.

use std::path::Path;

use proptest::prelude::*;

use crate::util::{FIXTURE_NOW, fixture_root, run, stderr};

/// The files a mutation may hit, relative to the base fixture.
const TARGETS: &[&str] = &["data/demo/zh-CN.json", "data/demo/en-US.json", "games.json"];

/// Characters that have broken tools before: zero-width, bidi, BOM, escapes
/// of control characters and lone surrogates, emoji, combining marks, CJK.
const ODD: &[&str] = &[
    "\u{FEFF}",
    "\u{200B}",
    "\u{202E}",
    "\u{2066}",
    "\u{00AD}",
    "\\u0000",
    "\\u001f",
    "\\ud800",
    "\\udc00x",
    "\\ud83d\\ude00",
    "😀",
    "e\u{301}",
    "星海",
    "\t",
    "\r\n",
    "\"",
    "\\",
    "\u{7F}",
    "\u{85}",
    "\u{2028}",
];

#[derive(Debug, Clone)]
enum Mutation {
    /// Keep the first `at` (per mille of the length) bytes.
    Truncate(u16),
    /// Overwrite bytes at these positions (per mille) with these values.
    Bytes(Vec<(u16, u8)>),
    /// Insert one of [`ODD`] at a position (per mille).
    Odd(u16, usize),
    /// Insert `n` opening brackets (and as many closing) at a position.
    Nest(u16, usize, bool),
    /// Repeat line `n` (modulo the line count): usually a duplicate key.
    RepeatLine(u16),
    /// Insert invalid UTF-8 at a position.
    Invalid(u16, u8),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let at = 0u16..=1000;
    prop_oneof![
        at.clone().prop_map(Mutation::Truncate),
        prop::collection::vec((at.clone(), any::<u8>()), 1..8).prop_map(Mutation::Bytes),
        (at.clone(), 0..ODD.len()).prop_map(|(a, i)| Mutation::Odd(a, i)),
        (at.clone(), 1usize..3000, any::<bool>()).prop_map(|(a, n, b)| Mutation::Nest(a, n, b)),
        (0u16..200).prop_map(Mutation::RepeatLine),
        (
            at,
            prop::sample::select(vec![0xFFu8, 0xC3, 0xE2, 0x80, 0xF0, 0xED])
        )
            .prop_map(|(a, b)| Mutation::Invalid(a, b)),
    ]
}

fn position(len: usize, per_mille: u16) -> usize {
    len * usize::from(per_mille) / 1000
}

fn apply(bytes: &mut Vec<u8>, mutation: &Mutation) {
    match mutation {
        Mutation::Truncate(at) => bytes.truncate(position(bytes.len(), *at)),
        Mutation::Bytes(edits) => {
            for (at, value) in edits {
                if !bytes.is_empty() {
                    let i = position(bytes.len() - 1, *at);
                    bytes[i] = *value;
                }
            }
        }
        Mutation::Odd(at, i) => {
            let i2 = position(bytes.len(), *at);
            bytes.splice(i2..i2, ODD[*i].bytes());
        }
        Mutation::Nest(at, n, close) => {
            let i = position(bytes.len(), *at);
            let mut insert = "[".repeat(*n);
            if *close {
                insert.push_str(&"]".repeat(*n));
            }
            bytes.splice(i..i, insert.bytes());
        }
        Mutation::RepeatLine(n) => {
            let text = String::from_utf8_lossy(bytes).into_owned();
            let lines: Vec<&str> = text.split_inclusive('\n').collect();
            if !lines.is_empty() {
                let k = usize::from(*n) % lines.len();
                let mut out = String::new();
                for (i, line) in lines.iter().enumerate() {
                    out.push_str(line);
                    if i == k {
                        out.push_str(line);
                    }
                }
                *bytes = out.into_bytes();
            }
        }
        Mutation::Invalid(at, b) => {
            let i = position(bytes.len(), *at);
            bytes.insert(i, *b);
        }
    }
}

/// A base fixture with `mutations` applied to `TARGETS[target]`.
fn mutated_root(target: usize, mutations: &[Mutation]) -> tempfile::TempDir {
    let root = fixture_root(None);
    let path = root.path().join(TARGETS[target]);
    let mut bytes = std::fs::read(&path).unwrap();
    for m in mutations {
        apply(&mut bytes, m);
    }
    std::fs::write(&path, bytes).unwrap();
    root
}

/// Every diagnostic's line and column lie inside its file: the line exists
/// (line 1 of an empty file counts) and the column is at most one past the
/// line's last character.
fn assert_inside(root: &Path, diagnostics: &[activity_site::diagnostics::Diagnostic]) {
    for d in diagnostics {
        assert!(d.line >= 1 && d.column >= 1, "{d:?}");
        let Ok(bytes) = std::fs::read(root.join(&d.file)) else {
            assert_eq!(
                (d.line, d.column),
                (1, 1),
                "{d:?} names a file that is not there"
            );
            continue;
        };
        // Columns of an invalid UTF-8 file count the valid prefix, as the loader does.
        let valid = match std::str::from_utf8(&bytes) {
            Ok(text) => text.to_string(),
            Err(e) => String::from_utf8_lossy(&bytes[..e.valid_up_to()]).into_owned(),
        };
        let lines: Vec<&str> = valid.split('\n').collect();
        assert!(
            d.line <= lines.len(),
            "{d:?}: the file has {} lines",
            lines.len()
        );
        let chars = lines[d.line - 1].chars().count();
        assert!(
            d.column <= chars + 1,
            "{d:?}: line {} has {chars} characters",
            d.line
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, failure_persistence: None, ..ProptestConfig::default() })]

    /// Through `site::check`, the library entry point of `check` and `fmt`
    /// (documents kept, so the typed conversion runs too).
    #[test]
    fn mutated_documents_never_panic_and_stay_inside_their_files(
        target in 0..TARGETS.len(),
        mutations in prop::collection::vec(mutation(), 1..4),
    ) {
        let root = mutated_root(target, &mutations);
        let options = activity_site::validate::Options {
            now: Some(chrono::NaiveDateTime::parse_from_str(FIXTURE_NOW, "%Y-%m-%dT%H:%M:%S").unwrap().into()),
            ..Default::default()
        };
        let checked = activity_site::site::check_documents(root.path(), &options)
            .expect("a data problem is a diagnostic, not a tool failure");
        assert_inside(root.path(), &checked.diagnostics);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, failure_persistence: None, ..ProptestConfig::default() })]

    /// Through the binary: exit 0 or 1 only, and no panic message.
    #[test]
    fn the_binary_exits_0_or_1_on_mutated_documents(
        target in 0..TARGETS.len(),
        mutations in prop::collection::vec(mutation(), 1..4),
    ) {
        let root = mutated_root(target, &mutations);
        let output = run(root.path(), &["check", "--format", "json", "--now", FIXTURE_NOW]);
        let code = output.status.code();
        prop_assert!(code == Some(0) || code == Some(1), "exit {code:?}: {}", stderr(&output));
        prop_assert!(!stderr(&output).contains("panicked"), "{}", stderr(&output));
    }
}

/// Nesting around the parser's limit and far beyond it, in a data file and
/// in `games.json`: a diagnostic (a schema error below the limit, a syntax
/// error above it), never a stack overflow.
#[test]
fn huge_nesting_is_a_diagnostic() {
    let now = chrono::NaiveDateTime::parse_from_str(FIXTURE_NOW, "%Y-%m-%dT%H:%M:%S").unwrap();
    let options = activity_site::validate::Options {
        now: Some(now.into()),
        ..Default::default()
    };
    for (target, value) in [
        ("data/demo/zh-CN.json", "\"cover\": \"\""),
        ("games.json", "\"dataSource\": \"https://example.org/news\""),
    ] {
        for n in [100, 126, 127, 128, 129, 100_000] {
            let root = fixture_root(None);
            let path = root.path().join(target);
            let text = std::fs::read_to_string(&path).unwrap();
            let key = value.split(':').next().unwrap();
            let nested = format!("{key}: {}{}", "[".repeat(n), "]".repeat(n));
            std::fs::write(&path, text.replacen(value, &nested, 1)).unwrap();
            let checked = activity_site::site::check_documents(root.path(), &options).unwrap();
            assert!(checked.has_errors(), "{n} brackets in {target}");
            assert_inside(root.path(), &checked.diagnostics);
            if n > 1000 {
                assert!(
                    checked
                        .diagnostics
                        .iter()
                        .any(|d| d.code.as_str() == "json-syntax"
                            && d.message.id() == "syntax-too-deep"),
                    "{:?}",
                    checked.diagnostics
                );
            }
        }
    }
}

/// One edit of a valid document's bytes, for the parser-against-serde_json property.
#[derive(Debug, Clone)]
enum Edit {
    Delete(u16),
    Insert(u16, u8),
    Swap(u16),
    Truncate(u16),
}

/// Bytes that make or break JSON: punctuation, quotes, digits, signs, letters.
const JSON_BYTES: &[u8] = b",:{}[]\"'/\\*0123456789+-.eEtfnu \n\t";

fn edit() -> impl Strategy<Value = Edit> {
    let at = 0u16..=1000;
    prop_oneof![
        at.clone().prop_map(Edit::Delete),
        (at.clone(), prop::sample::select(JSON_BYTES.to_vec()))
            .prop_map(|(a, b)| Edit::Insert(a, b)),
        at.clone().prop_map(Edit::Swap),
        at.prop_map(Edit::Truncate),
    ]
}

/// Valid documents of every shape the parser meets, plus escapes and numbers.
fn valid_documents() -> Vec<String> {
    let base = crate::util::crate_root().join("tests/fixtures/base");
    let mut docs: Vec<String> = ["data/demo/zh-CN.json", "data/demo/en-US.json", "games.json"]
        .iter()
        .map(|f| std::fs::read_to_string(base.join(f)).unwrap())
        .collect();
    docs.push(r#"{"n": [0, -1, 2.5e-3, 10E+2, 1e300], "s": "a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00", "b": [true, false, null], "o": {}}"#.to_string());
    docs
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    /// Issue 17: `json::parse` accepts exactly what serde_json accepts (a
    /// repeated key aside, which both accept and the `duplicate-key` rule
    /// reports), and every error and repair lies inside the text.
    #[test]
    fn the_parser_accepts_exactly_what_serde_json_accepts(
        doc in 0usize..4,
        edits in prop::collection::vec(edit(), 1..4),
    ) {
        let docs = valid_documents();
        let mut bytes = docs[doc].clone().into_bytes();
        for e in &edits {
            let n = bytes.len();
            match *e {
                Edit::Delete(at) if n > 0 => { bytes.remove(position(n - 1, at)); }
                Edit::Insert(at, b) => bytes.insert(position(n, at), b),
                Edit::Swap(at) if n > 1 => { let i = position(n - 2, at); bytes.swap(i, i + 1); }
                Edit::Truncate(at) => bytes.truncate(position(n, at)),
                _ => {}
            }
        }
        let Ok(text) = String::from_utf8(bytes) else { return Ok(()) };
        let ours = activity_site::json::parse_all(&text);
        let theirs = serde_json::from_str::<serde_json::Value>(&text);
        prop_assert_eq!(ours.is_ok(), theirs.is_ok(), "{:?}\nours: {:?}\nserde_json: {:?}", text, ours.as_ref().err(), theirs.as_ref().err());
        // Issue 33: recovery reports every error, each inside the text, in order.
        let errors = ours.err().map(|e| e.errors).unwrap_or_default();
        prop_assert!(errors.windows(2).all(|w| w[0].start <= w[1].start), "{:?}", errors);
        for err in errors {
            prop_assert!(err.start <= err.end && err.end <= text.len(), "{:?}", err);
            prop_assert!(text.is_char_boundary(err.start) && text.is_char_boundary(err.end), "{:?}", err);
            if let Some(fix) = &err.fix {
                prop_assert!(fix.start <= fix.end && fix.end <= text.len(), "{:?}", err);
                prop_assert!(text.is_char_boundary(fix.start) && text.is_char_boundary(fix.end), "{:?}", err);
            }
            let at = activity_site::diagnostics::locate(&text, err.start, err.end);
            let lines: Vec<&str> = text.split('\n').collect();
            prop_assert!(at.line >= 1 && at.line <= lines.len(), "{:?}", err);
            prop_assert!(at.column <= lines[at.line - 1].chars().count() + 1, "{:?}", err);
        }
    }
}
