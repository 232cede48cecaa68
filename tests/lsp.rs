//! `activity-site lsp` driven over its stdio with JSON-RPC, as an editor does.

use std::io::BufRead;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::util::stdio::StdioServer;
use crate::util::{FIXTURE_NOW, crate_root, fixture_root};

/// A client session with one server process.
struct Client {
    server: StdioServer,
    next_id: i64,
    root: PathBuf,
    /// The encoding the server chose.
    encoding: String,
}

impl Client {
    /// Starts the server on `root` and initializes it, offering `encodings`
    /// (none: the client says nothing, so UTF-16).
    fn start(root: &Path, encodings: &[&str]) -> Client {
        Client::start_in(root, encodings, None)
    }

    /// [`Client::start`] for an editor whose interface is in `locale`.
    fn start_in(root: &Path, encodings: &[&str], locale: Option<&str>) -> Client {
        let args = ["lsp", "--now", FIXTURE_NOW, "--root"].map(std::ffi::OsStr::new);
        let server = StdioServer::spawn(args.into_iter().chain([root.as_os_str()]), read_frame);
        let mut client = Client {
            server,
            next_id: 1,
            root: root.canonicalize().expect("root"),
            encoding: String::new(),
        };
        let mut general = json!({});
        if !encodings.is_empty() {
            general = json!({"positionEncodings": encodings});
        }
        let mut params = json!({
            "processId": null,
            "rootUri": client.uri(""),
            "capabilities": {"general": general},
        });
        if let Some(locale) = locale {
            params["locale"] = json!(locale);
        }
        let answer = client.request("initialize", params);
        client.encoding = answer["result"]["capabilities"]["positionEncoding"]
            .as_str()
            .expect("the server names its encoding")
            .to_string();
        client.notify("initialized", json!({}));
        client
    }

    fn uri(&self, rel: &str) -> String {
        let path = self.root.join(rel);
        format!("file://{}", path.display())
            .trim_end_matches('/')
            .to_string()
    }

    fn write(&mut self, bytes: &[u8]) {
        self.server.write(bytes);
    }

    fn send(&mut self, message: &Value) {
        let body = message.to_string();
        let frame = format!("Content-Length: {}\r\n\r\n{body}", body.len());
        self.write(frame.as_bytes());
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and returns the whole response message.
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.wait(|m| m["id"] == id && m.get("method").is_none())
    }

    /// The first message (received or pending) that `wanted` accepts.
    fn wait(&mut self, wanted: impl Fn(&Value) -> bool) -> Value {
        self.server.wait(wanted)
    }

    /// The next diagnostics published for `rel`.
    fn diagnostics(&mut self, rel: &str) -> Vec<Value> {
        let uri = self.uri(rel);
        let message = self.wait(|m| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri
        });
        message["params"]["diagnostics"]
            .as_array()
            .expect("a list")
            .clone()
    }

    fn open(&mut self, rel: &str, text: &str) -> Vec<Value> {
        let uri = self.uri(rel);
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "json", "version": 1, "text": text}}),
        );
        self.diagnostics(rel)
    }

    /// Replaces `range` (or everything) of `rel` with `text`.
    fn change(&mut self, rel: &str, version: i32, range: Option<Value>, text: &str) -> Vec<Value> {
        let uri = self.uri(rel);
        let mut change = json!({"text": text});
        if let Some(range) = range {
            change["range"] = range;
        }
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]}),
        );
        self.diagnostics(rel)
    }

    /// Shuts the server down politely and returns its exit code.
    fn shut_down(mut self) -> i32 {
        let answer = self.request("shutdown", Value::Null);
        assert_eq!(answer["result"], Value::Null, "{answer}");
        self.notify("exit", Value::Null);
        self.server.close_stdin();
        self.server.exit_code()
    }
}

/// One message of the base protocol: headers, a blank line, then
/// `Content-Length` bytes of JSON.
fn read_frame(out: &mut dyn BufRead) -> Option<Value> {
    let mut length = 0;
    loop {
        let mut line = String::new();
        if out.read_line(&mut line).unwrap_or(0) == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(n) = line.strip_prefix("Content-Length: ") {
            length = n.parse().expect("a length");
        }
    }
    let mut body = vec![0; length];
    out.read_exact(&mut body).ok()?;
    Some(serde_json::from_slice(&body).expect("the server sends JSON"))
}

fn base_text(rel: &str) -> String {
    std::fs::read_to_string(
        crate::util::crate_root()
            .join("tests/fixtures/base")
            .join(rel),
    )
    .expect("fixture")
}

/// Units of `text` in the protocol's `encoding`.
fn units(text: &str, encoding: &str) -> usize {
    match encoding {
        "utf-8" => text.len(),
        "utf-16" => text.encode_utf16().count(),
        "utf-32" => text.chars().count(),
        other => panic!("unknown encoding {other}"),
    }
}

fn with_code<'d>(diagnostics: &'d [Value], code: &str) -> &'d Value {
    diagnostics
        .iter()
        .find(|d| d["code"] == code)
        .unwrap_or_else(|| panic!("no `{code}` in {diagnostics:#?}"))
}

const EN: &str = "data/demo/en-US.json";

#[test]
fn ranges_count_in_each_negotiated_encoding_after_cjk_and_astral_characters() {
    let root = fixture_root(None);
    let prefix = r#"      "name": "登录🎁奖励", "description": "", "startTime": "#;
    let line = format!("{prefix}\"2026-10-01T11:00:00Z\",");
    let text = base_text(EN).replacen(
        "      \"name\": \"Login Rewards\",\n      \"description\": \"Log in daily to claim rewards.\",\n      \"startTime\": \"2026-10-01T11:00:00\",",
        &line,
        1,
    );
    let row = text.lines().position(|l| l == line).expect("the line") as u64;
    for (offered, chosen) in [
        (&[][..], "utf-16"),
        (&["utf-8", "utf-16"][..], "utf-8"),
        (&["utf-32"][..], "utf-32"),
        (&["utf-16", "utf-8"][..], "utf-16"),
    ] {
        let mut client = Client::start(root.path(), offered);
        assert_eq!(client.encoding, chosen);
        let found = client.open(EN, &text);
        let datetime = with_code(&found, "datetime");
        let start = units(prefix, chosen) as u64;
        assert_eq!(
            datetime["range"],
            json!({"start": {"line": row, "character": start},
                   "end": {"line": row, "character": start + 22}}),
            "{chosen}"
        );
        assert_eq!(datetime["severity"], 1);
        assert_eq!(datetime["source"], "activity-site");
        // The help line travels as related information.
        let related = &datetime["relatedInformation"][0];
        assert!(
            related["message"]
                .as_str()
                .unwrap()
                .starts_with("help: times are in the game's server time zone"),
            "{related}"
        );

        // The quick fix drops the `Z`; applied, the file is clean.
        let action = client.request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": client.uri(EN)}, "range": datetime["range"],
                   "context": {"diagnostics": [datetime]}}),
        );
        let action = &action["result"][0];
        assert_eq!(action["kind"], "quickfix");
        let edit = &action["edit"]["changes"][client.uri(EN)][0];
        assert_eq!(edit["newText"], "\"2026-10-01T11:00:00\"");
        let after = client.change(
            EN,
            2,
            Some(edit["range"].clone()),
            edit["newText"].as_str().unwrap(),
        );
        assert_eq!(after, Vec::<Value>::new(), "{chosen}");
        assert_eq!(client.shut_down(), 0);
    }
}

/// Each defect whose repair is exact gets a quick fix; applying it through
/// the editor's edit leaves the file clean.
#[test]
fn each_quick_fix_applied_rechecks_clean() {
    let root = fixture_root(None);
    let original = base_text(EN);
    let cases = [
        (
            "json-syntax",
            original.replacen("\"version\": \"1.2\",", "\"version\": \"1.2\"\u{FF0C}", 1),
            ",",
        ),
        (
            "schema",
            original.replacen(
                "\"endTime\": \"2026-10-15T03:59:59\"",
                "\"endtime\": \"2026-10-15T03:59:59\"",
                1,
            ),
            "\"endTime\"",
        ),
        (
            "whitespace",
            original.replacen("Login Rewards", "Login\u{200B} Rewards", 1),
            "",
        ),
        (
            "end-of-minute",
            original.replacen("2026-10-15T03:59:59", "2026-10-15T04:00:00", 1),
            "\"2026-10-15T03:59:59\"",
        ),
        (
            "datetime",
            original.replacen("2026-10-31T03:59:59", "2026-10-31T03:59:59+08:00", 1),
            "\"2026-10-31T03:59:59\"",
        ),
    ];
    let mut client = Client::start(root.path(), &[]);
    let mut version = 1;
    assert_eq!(client.open(EN, &original), Vec::<Value>::new());
    for (code, broken, replacement) in cases {
        version += 1;
        let found = client.change(EN, version, None, &broken);
        let diagnostic = with_code(&found, code);
        let actions = client.request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": client.uri(EN)}, "range": diagnostic["range"],
                   "context": {"diagnostics": [diagnostic]}}),
        );
        let actions = actions["result"].as_array().expect("actions").clone();
        assert_eq!(actions.len(), 1, "{code}: {actions:#?}");
        let edit = &actions[0]["edit"]["changes"][client.uri(EN)][0];
        assert_eq!(edit["newText"], replacement, "{code}");
        version += 1;
        let after = client.change(
            EN,
            version,
            Some(edit["range"].clone()),
            edit["newText"].as_str().unwrap(),
        );
        assert_eq!(
            after,
            Vec::<Value>::new(),
            "{code}: {}",
            actions[0]["title"]
        );
    }
    // The file on disk was never touched.
    assert_eq!(
        std::fs::read_to_string(root.path().join(EN)).unwrap(),
        original
    );
    assert_eq!(client.shut_down(), 0);
}

#[test]
fn cross_file_rules_follow_unsaved_edits_of_other_files() {
    let root = fixture_root(None);
    let mut client = Client::start(root.path(), &[]);
    assert_eq!(client.open(EN, &base_text(EN)), Vec::<Value>::new());

    // games.json, unsaved, no longer lists en-US: the open data file is an orphan.
    let registry = base_text("games.json");
    assert_eq!(client.open("games.json", &registry), Vec::<Value>::new());
    let without = registry.replacen("\"zh-CN\",\n        \"en-US\"", "\"zh-CN\"", 1);
    assert_ne!(without, registry);
    client.change("games.json", 2, None, &without);
    let found = client.diagnostics(EN);
    assert_eq!(with_code(&found, "orphan-file")["severity"], 1);

    // A new locale in the registry, then its file as an unsaved buffer.
    let with_ja = registry.replacen(
        "\"en-US\"\n      ]",
        "\"en-US\",\n        \"ja-JP\"\n      ]",
        1,
    );
    assert_ne!(with_ja, registry);
    let found = client.change("games.json", 3, None, &with_ja);
    with_code(&found, "pending-locale");
    assert_eq!(
        client.diagnostics(EN),
        Vec::<Value>::new(),
        "en-US is listed again"
    );
    let ja = base_text(EN);
    client.open("data/demo/ja-JP.json", &ja);
    assert_eq!(client.diagnostics("games.json"), Vec::<Value>::new());

    // The other locale's version, edited and unsaved: locale parity warns.
    let found = client.change(
        EN,
        2,
        None,
        &base_text(EN).replacen("\"1.2\"", "\"1.3\"", 1),
    );
    let parity = with_code(&found, "locale-parity");
    assert_eq!(parity["severity"], 2);
    // A short first line, the details as notes under it (issue 33).
    assert_eq!(
        parity["message"],
        "the version differs from data/demo/zh-CN.json\nnote: `version` is `1.3` here, `1.2` there",
        "{parity}"
    );
    assert!(!root.path().join("data/demo/ja-JP.json").exists());
    assert_eq!(client.shut_down(), 0);
}

#[test]
fn formatting_gives_fmt_canonical_text_and_refuses_files_with_errors() {
    let root = fixture_root(None);
    let mut client = Client::start(root.path(), &[]);
    let canonical = base_text(EN);
    let document: Value = serde_json::from_str(&canonical).unwrap();
    let compact = serde_json::to_string(&document).unwrap();
    assert_eq!(client.open(EN, &compact), Vec::<Value>::new());
    let answer = client.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": client.uri(EN)}, "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    let edits = answer["result"].as_array().expect("edits");
    assert_eq!(edits.len(), 1);
    assert_eq!(edits[0]["newText"], canonical.as_str());
    assert_eq!(
        edits[0]["range"]["start"],
        json!({"line": 0, "character": 0})
    );

    // Canonical already: nothing to do.
    client.change(EN, 2, None, &canonical);
    let answer = client.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": client.uri(EN)}, "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    assert_eq!(answer["result"], json!([]));

    // With an error the canonical form is unknown: refused, with a message.
    client.change(EN, 3, None, &canonical.replacen("\"1.2\"", "12", 1));
    let answer = client.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": client.uri(EN)}, "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    assert_eq!(answer["error"]["code"], -32803, "{answer}");
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap()
            .contains("1 error"),
        "{answer}"
    );
    assert_eq!(client.shut_down(), 0);
}

#[test]
fn hover_on_a_time_shows_weekday_distance_and_utc() {
    let root = fixture_root(None);
    let mut client = Client::start(root.path(), &[]);
    let text = base_text(EN);
    client.open(EN, &text);
    let row = text
        .lines()
        .position(|l| l.contains("2026-10-15T03:59:59"))
        .unwrap();
    let column = text.lines().nth(row).unwrap().find("2026").unwrap() + 3;
    let answer = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": client.uri(EN)}, "position": {"line": row, "character": column}}),
    );
    let value = answer["result"]["contents"]["value"]
        .as_str()
        .expect("markdown");
    assert_eq!(
        value,
        "**Thursday** 2026-10-15 03:59:59 (Asia/Shanghai)\n\nless than a day ago\n\nUTC: `2026-10-14T19:59:59Z`"
    );
    // Not on a time: nothing.
    let answer = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": client.uri(EN)}, "position": {"line": 0, "character": 0}}),
    );
    assert_eq!(answer["result"], Value::Null);
    assert_eq!(client.shut_down(), 0);
}

#[test]
fn malformed_input_unknown_methods_and_outside_files_never_end_the_server() {
    let root = fixture_root(None);
    let mut client = Client::start(root.path(), &[]);
    // A body that is not JSON, then one that is not JSON-RPC.
    client.write(b"Content-Length: 9\r\n\r\n{not json");
    let error = client.wait(|m| m["error"]["code"] == -32700);
    assert_eq!(error["id"], Value::Null);
    client.write(b"Content-Length: 2\r\n\r\n[]");
    client.wait(|m| m["error"]["code"] == -32700);
    // A header without a length.
    client.write(b"X-Nonsense: yes\r\n\r\n");
    client.wait(|m| m["error"]["code"] == -32700);
    // Unknown methods: an error for a request, nothing for a notification.
    let answer = client.request("textDocument/rename", json!({}));
    assert_eq!(answer["error"]["code"], -32601);
    client.notify("$/unknownNotification", json!({"x": 1}));
    // Wrong parameters of a known method.
    let answer = client.request("textDocument/hover", json!({"nope": true}));
    assert_eq!(answer["error"]["code"], -32602);
    // A file outside the workspace is left alone.
    let outside = tempfile::tempdir().unwrap();
    let uri = format!("file://{}/x.json", outside.path().display());
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "json", "version": 1, "text": "{"}}),
    );
    let answer = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}),
    );
    assert_eq!(answer["result"], Value::Null);
    // Still serving.
    assert_eq!(client.open(EN, &base_text(EN)), Vec::<Value>::new());
    assert_eq!(client.shut_down(), 0);
}

#[test]
fn the_server_ends_when_stdin_closes() {
    let root = fixture_root(None);
    let mut client = Client::start(root.path(), &[]);
    client.server.close_stdin();
    // Without `shutdown` first, the protocol's exit code is 1.
    assert_eq!(client.server.exit_code(), 1);
}

/// The base fixture with a second game, `other`, a copy of `demo`.
fn two_games() -> tempfile::TempDir {
    let root = fixture_root(None);
    let path = root.path().join("games.json");
    let mut registry: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let games = registry["games"].as_array_mut().unwrap();
    let mut other = games[0].clone();
    other["id"] = json!("other");
    games.push(other);
    std::fs::write(&path, serde_json::to_string_pretty(&registry).unwrap()).unwrap();
    crate::util::copy_tree(
        &root.path().join("data/demo"),
        &root.path().join("data/other"),
    );
    root
}

/// The messages received so far that publish diagnostics, taken.
fn take_published(client: &mut Client) -> Vec<String> {
    let pending = client.server.take_pending();
    pending
        .iter()
        .filter(|m| m["method"] == "textDocument/publishDiagnostics")
        .map(|m| m["params"]["uri"].as_str().unwrap().to_string())
        .collect()
}

/// A keystroke re-checks what the edited document affects (its game) and
/// republishes that document only: another game's diagnostics, an error in
/// an open buffer here, are neither sent again nor cleared.
#[test]
fn an_edit_to_one_games_file_republishes_only_that_document() {
    let root = two_games();
    let mut client = Client::start(root.path(), &[]);
    const OTHER: &str = "data/other/en-US.json";
    assert_eq!(client.open(EN, &base_text(EN)), Vec::<Value>::new());
    let broken = base_text(EN).replacen("\"endTime\"", "\"endtime\"", 1);
    let found = client.open(OTHER, &broken);
    assert_eq!(with_code(&found, "schema")["severity"], 1);
    // Sync: every publication of the steps above has arrived before this answer.
    client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": client.uri(EN)}, "position": {"line": 0, "character": 0}}),
    );
    take_published(&mut client);

    let typed = base_text(EN).replacen("Log in daily", "Log in daily!", 1);
    assert_eq!(client.change(EN, 2, None, &typed), Vec::<Value>::new());
    client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": client.uri(EN)}, "position": {"line": 0, "character": 0}}),
    );
    assert_eq!(take_published(&mut client), Vec::<String>::new());

    // An error in this game's file: its parity partner is unaffected (parity
    // compares clean files only), the other game is not touched.
    let found = client.change(EN, 3, None, &typed.replacen("\"1.2\"", "1.2", 1));
    assert_eq!(with_code(&found, "schema")["severity"], 1);
    client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": client.uri(EN)}, "position": {"line": 0, "character": 0}}),
    );
    assert_eq!(take_published(&mut client), Vec::<String>::new());

    // The other game's file, fixed: only it is republished, now clean.
    assert_eq!(
        client.change(OTHER, 2, None, &base_text(EN)),
        Vec::<Value>::new()
    );
    client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": client.uri(EN)}, "position": {"line": 0, "character": 0}}),
    );
    assert_eq!(take_published(&mut client), Vec::<String>::new());
    assert_eq!(client.shut_down(), 0);
}

/// The check the server keeps between keystrokes gives what `check` gives
/// on the same overlay, while checking again only the games whose inputs
/// changed, and compiling the schemas again only when `schema/` changes.
#[test]
fn the_live_check_equals_check_and_checks_only_what_changed() {
    use activity_site::site::{self, LiveCheck, LiveStats};
    use activity_site::source::Overlay;
    use activity_site::validate::Options;

    let root = two_games();
    let options = Options {
        now: Some(
            chrono::NaiveDateTime::parse_from_str(FIXTURE_NOW, "%Y-%m-%dT%H:%M:%S")
                .unwrap()
                .into(),
        ),
        ..Default::default()
    };
    let mut live = LiveCheck::new(root.path());
    let mut run = |overlay: &Overlay| {
        let found = live.check(overlay, &options).expect("the live check runs");
        let expected = site::check_with(root.path(), overlay, &options).expect("check runs");
        assert_eq!(found, expected.diagnostics);
        let last = live.last_run();
        assert!(last.listed, "without a list of changes the tree is opened");
        // What each run checked and took as it was (not what it read).
        let counted = LiveStats {
            listed: false,
            stamped: 0,
            read: 0,
            ..last
        };
        (found.len(), counted)
    };
    let stats = |compiled, checked, reused| LiveStats {
        compiled,
        checked,
        reused,
        ..LiveStats::default()
    };

    let mut overlay = Overlay::new();
    assert_eq!(
        run(&overlay),
        (0, stats(true, 2, 0)),
        "the first run checks all"
    );
    assert_eq!(run(&overlay), (0, stats(false, 0, 2)), "nothing changed");

    // An unsaved edit of one game's file: that game only.
    overlay.insert(EN, base_text(EN).replacen("\"endTime\"", "\"endtime\"", 1));
    assert_eq!(run(&overlay), (1, stats(false, 1, 1)));
    assert_eq!(run(&overlay), (1, stats(false, 0, 2)));

    // The registry is read on every run (and checked again when its text or
    // the data files found changed); a game whose entry changed is checked again.
    let registry = std::fs::read_to_string(root.path().join("games.json")).unwrap();
    overlay.insert(
        "games.json",
        registry.replacen("\"Asia/Shanghai\"", "\"Europe/Paris\"", 1),
    );
    assert_eq!(run(&overlay), (1, stats(false, 1, 1)));
    overlay.insert(
        "games.json",
        registry.replacen("\"en-US\"\n", "\"fr-FR\"\n", 1),
    );
    let (found, last) = run(&overlay);
    assert!(found > 1, "missing and orphan files");
    assert_eq!(last, stats(false, 1, 1));
    overlay.insert("games.json", registry.clone());

    // A data folder the registry does not name, then gone again: the
    // registry's diagnostics follow the files found.
    let (before, _) = run(&overlay);
    let ghost = root.path().join("data/ghost");
    std::fs::create_dir_all(&ghost).unwrap();
    std::fs::write(ghost.join("zh-CN.json"), base_text(EN)).unwrap();
    let (with_ghost, _) = run(&overlay);
    assert!(with_ghost > before, "an orphan folder is reported");
    std::fs::remove_dir_all(&ghost).unwrap();
    assert_eq!(run(&overlay).0, before);

    // A file changed on disk, not open: its game.
    let zh = root.path().join("data/other/zh-CN.json");
    let text = std::fs::read_to_string(&zh).unwrap();
    run(&overlay);
    std::fs::write(&zh, text.replacen("\"cover\": \"\"", "\"cover\": \"x\"", 1)).unwrap();
    assert_eq!(run(&overlay).1, stats(false, 1, 1));

    // A schema of the root's own: compiled again, every game checked again.
    std::fs::create_dir_all(root.path().join("schema")).unwrap();
    std::fs::write(
        root.path().join("schema/activity.schema.json"),
        activity_site::kind::activities::BUILTIN_SCHEMA.replacen(
            "\"Activity document\"",
            "\"Our activity document\"",
            1,
        ),
    )
    .unwrap();
    assert_eq!(run(&overlay).1, stats(true, 2, 0));
    assert_eq!(run(&overlay).1, stats(false, 0, 2));
}

/// Issue 39: an editor that sends `locale: zh-CN` in `initialize` gets its
/// diagnostics, help lines included, in Chinese; one that sends nothing (or
/// another language) gets English. Codes stay as they are.
#[test]
fn diagnostics_are_published_in_the_locale_the_editor_sends() {
    let root = fixture_root(None);
    let text = base_text(EN).replacen("\"name\": \"", "\"name\"\u{FF1A} \"", 1);
    assert!(text.contains('\u{FF1A}'));

    let mut chinese = Client::start_in(root.path(), &[], Some("zh-CN"));
    let found = chinese.open(EN, &text);
    let d = with_code(&found, "json-syntax");
    let message = d["message"].as_str().expect("a message");
    assert!(
        message.starts_with("字符串外出现了全角冒号 `："),
        "{message}"
    );
    let help = d["relatedInformation"][0]["message"]
        .as_str()
        .expect("help");
    assert!(help.starts_with("提示：请改为输入半角的 `:`"), "{help}");
    assert_eq!(chinese.shut_down(), 0);

    for locale in [None, Some("en-US"), Some("fr")] {
        let mut english = Client::start_in(root.path(), &[], locale);
        let found = english.open(EN, &text);
        let message = with_code(&found, "json-syntax")["message"]
            .as_str()
            .expect("a message")
            .to_string();
        assert!(
            message.starts_with("full-width colon `："),
            "{locale:?}: {message}"
        );
        assert_eq!(english.shut_down(), 0);
    }
}

/// Issue 30: an announcements board open in the editor gets the diagnostics
/// `check` gives, at the same line and column (UTF-32: columns are
/// characters), with the same code and message.
#[test]
fn announcements_boards_get_checks_diagnostics() {
    for case in crate::announcements::announcement_fixtures() {
        let (root, expected) = crate::announcements::check_diagnostics(&case);
        let Some(file) = expected
            .first()
            .map(|d| d["file"].as_str().unwrap().to_owned())
        else {
            continue;
        };
        let text = std::fs::read_to_string(root.path().join(&file)).unwrap();
        let mut client = Client::start(root.path(), &["utf-32"]);
        let found = client.open(&file, &text);
        let seen: Vec<(String, u64, u64, String)> = found
            .iter()
            .map(|d| {
                (
                    d["code"].as_str().unwrap().to_owned(),
                    d["range"]["start"]["line"].as_u64().unwrap() + 1,
                    d["range"]["start"]["character"].as_u64().unwrap() + 1,
                    d["message"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        let want: Vec<(String, u64, u64, String)> = expected
            .iter()
            .filter(|d| d["file"] == file.as_str())
            .map(|d| {
                (
                    d["code"].as_str().unwrap().to_owned(),
                    d["line"].as_u64().unwrap(),
                    d["column"].as_u64().unwrap(),
                    d["message"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        assert_eq!(seen, want, "{}", case.display());
        assert_eq!(client.shut_down(), 0);
    }
}

/// Issue 63: a `missing-id` no evidence decides (the Chinese file lists two
/// activities in the window, the English one; no ids anywhere) offers each
/// candidate as a code action, none preferred, which gives the candidate
/// the same id in its own file; the one taken leaves no `missing-id` there.
#[test]
fn a_missing_id_without_evidence_offers_each_candidate_as_a_code_action() {
    let root = fixture_root(Some(
        &crate_root().join("tests/fixtures/invalid/missing-id"),
    ));
    let zh = root.path().join("data/demo/zh-CN.json");
    let without_ids = |text: String| -> String {
        text.split_inclusive('\n')
            .filter(|line| !line.trim_start().starts_with("\"id\""))
            .collect()
    };
    let text = without_ids(std::fs::read_to_string(&zh).unwrap())
        .replacen("2026-10-10T10:00:00", "2026-10-01T11:00:00", 1)
        .replacen("2026-10-31T03:59:59", "2026-10-15T03:59:59", 1);
    std::fs::write(&zh, text).unwrap();

    let en = without_ids(std::fs::read_to_string(root.path().join(EN)).unwrap());
    std::fs::write(root.path().join(EN), &en).unwrap();
    let mut client = Client::start(root.path(), &[]);
    let found = client.open(EN, &en);
    let missing: Vec<&Value> = found.iter().filter(|d| d["code"] == "missing-id").collect();
    let login = missing
        .iter()
        .find(|d| d["message"].as_str().unwrap().contains("Login Rewards"))
        .unwrap_or_else(|| panic!("{found:#?}"));
    let actions = client.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": client.uri(EN)}, "range": login["range"],
               "context": {"diagnostics": [login]}}),
    );
    let actions = actions["result"].as_array().expect("actions").clone();
    let titles: Vec<&str> = actions
        .iter()
        .map(|a| a["title"].as_str().unwrap())
        .collect();
    assert_eq!(titles.len(), 2, "{actions:#?}");
    assert!(
        titles
            .iter()
            .any(|t| t.contains("`登录奖励` in data/demo/zh-CN.json")),
        "{titles:?}"
    );
    assert!(
        titles
            .iter()
            .any(|t| t.contains("`星海巡游` in data/demo/zh-CN.json")),
        "{titles:?}"
    );
    assert!(
        actions.iter().all(|a| a["isPreferred"] == false),
        "{actions:#?}"
    );

    let edit = &actions[0]["edit"]["changes"][client.uri(EN)][0];
    assert!(
        edit["newText"]
            .as_str()
            .unwrap()
            .starts_with("\"id\": \"demo-1.2-0"),
        "{edit:#}"
    );
    // The candidate has no id in its own file yet: the choice gives it the
    // same one there, as the editor applies it (opening that file).
    let twin = &actions[0]["edit"]["changes"][client.uri("data/demo/zh-CN.json")][0];
    assert_eq!(twin["newText"], edit["newText"], "{actions:#?}");
    let zh_text = std::fs::read_to_string(&zh).unwrap();
    let line = twin["range"]["start"]["line"].as_u64().unwrap() as usize;
    let column = twin["range"]["start"]["character"].as_u64().unwrap() as usize;
    let at: usize = zh_text
        .split_inclusive('\n')
        .take(line)
        .map(str::len)
        .sum::<usize>()
        + column;
    let mut zh_text = zh_text;
    zh_text.insert_str(at, twin["newText"].as_str().unwrap());
    client.open("data/demo/zh-CN.json", &zh_text);
    // The English file's diagnostics follow the Chinese buffer first.
    client.diagnostics(EN);
    let after = client.change(
        EN,
        2,
        Some(edit["range"].clone()),
        edit["newText"].as_str().unwrap(),
    );
    let left: Vec<&Value> = after.iter().filter(|d| d["code"] == "missing-id").collect();
    assert_eq!(left.len(), missing.len() - 1, "{after:#?}");
    assert!(
        left.iter()
            .all(|d| !d["message"].as_str().unwrap().contains("Login Rewards")),
        "{after:#?}"
    );
    assert_eq!(client.shut_down(), 0);
}
