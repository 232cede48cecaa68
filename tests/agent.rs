//! `activity-site mcp` (the data tools for agents) over its stdio, one JSON-RPC message a line.

use std::io::BufRead;

use serde_json::{Value, json};

use crate::util::stdio::StdioServer;
use crate::util::{FIXTURE_NOW, fixture_root};

struct Agent {
    server: StdioServer,
    next_id: i64,
}

impl Agent {
    fn start(root: &std::path::Path) -> Agent {
        Agent::start_at(root, FIXTURE_NOW)
    }

    fn start_at(root: &std::path::Path, now: &str) -> Agent {
        let args = ["mcp", "--now", now, "--root"].map(std::ffi::OsStr::new);
        let mut agent = Agent {
            server: StdioServer::spawn(args.into_iter().chain([root.as_os_str()]), read_line),
            next_id: 1,
        };
        agent.request(
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "tests", "version": "0"}}),
        );
        agent.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        agent
    }

    fn send(&mut self, message: &Value) {
        self.server.write(format!("{message}\n").as_bytes());
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.server.wait(|message| message["id"] == id)
    }

    /// Calls a tool: its structured answer and whether it is an error.
    fn call(&mut self, tool: &str, arguments: Value) -> (Value, bool) {
        let answer = self.request("tools/call", json!({"name": tool, "arguments": arguments}));
        let result = &answer["result"];
        let error = result["isError"] == true;
        (result["structuredContent"].clone(), error)
    }
}

/// One message of MCP's stdio transport: a line of JSON.
fn read_line(out: &mut dyn BufRead) -> Option<Value> {
    let mut line = String::new();
    if out.read_line(&mut line).ok()? == 0 {
        return None;
    }
    Some(serde_json::from_str(&line).expect("JSON"))
}

const EN: &str = "data/demo/en-US.json";

#[test]
fn drafts_are_checked_in_place_and_only_clean_ones_are_written_canonically() {
    let root = fixture_root(None);
    let original = std::fs::read_to_string(root.path().join(EN)).unwrap();
    let mut agent = Agent::start(root.path());

    let (games, error) = agent.call("list_games", json!({}));
    assert!(!error);
    assert_eq!(games["games"][0]["files"]["en-US"], EN);
    let (read, _) = agent.call("read_document", json!({"game": "demo", "locale": "en-US"}));
    assert_eq!(read["text"], original.as_str());

    // A broken draft: diagnostics back, with the exact fix; nothing written.
    let broken = original.replacen("\"endTime\": \"2026-10-15", "\"endtime\": \"2026-10-15", 1);
    let (checked, error) = agent.call(
        "check_document",
        json!({"game": "demo", "locale": "en-US", "text": broken}),
    );
    assert!(!error);
    assert_eq!(checked["errors"], 1, "{checked:#}");
    assert_eq!(
        checked["diagnostics"][0]["fix"]["replacement"],
        "\"endTime\""
    );
    let (refused, error) = agent.call(
        "write_document",
        json!({"game": "demo", "locale": "en-US", "text": broken}),
    );
    assert!(error, "{refused:#}");
    assert_eq!(refused["errors"], 1);
    assert_eq!(
        std::fs::read_to_string(root.path().join(EN)).unwrap(),
        original
    );

    // A clean draft in any layout is written canonically, with what changed.
    let mut document: Value = serde_json::from_str(&original).unwrap();
    document["versionName"] = json!("Renamed");
    let compact = serde_json::to_string(&document).unwrap();
    let (written, error) = agent.call(
        "write_document",
        json!({"game": "demo", "locale": "en-US", "text": compact}),
    );
    assert!(!error, "{written:#}");
    assert_eq!(written["written"], true);
    assert_eq!(written["changed"]["version"][0]["field"], "versionName");
    let on_disk = std::fs::read_to_string(root.path().join(EN)).unwrap();
    assert_eq!(
        on_disk,
        original.replacen("Song of the Star Sea", "Renamed", 1)
    );

    // Games and locales the registry does not list are refused; nothing is created.
    for (game, locale) in [("../..", "x"), ("demo", "../../evil"), ("demo", "ja-JP")] {
        let (_, error) = agent.call(
            "write_document",
            json!({"game": game, "locale": locale, "text": compact}),
        );
        assert!(error, "{game} {locale}");
    }
    assert!(!root.path().join("data/demo/ja-JP.json").exists());
    assert!(!root.path().join("evil.json").exists());
}

/// Issue 39: the data tools take an optional `lang`; without it they speak
/// the server's language (English here: the tests clear the locale).
#[test]
fn the_data_tools_answer_in_the_language_asked_for() {
    let root = fixture_root(None);
    let original = std::fs::read_to_string(root.path().join(EN)).unwrap();
    let broken = original.replacen("\"endTime\": \"2026-10-15", "\"endtime\": \"2026-10-15", 1);
    let mut agent = Agent::start(root.path());
    let draft = |lang: Option<&str>| {
        let mut args = json!({"game": "demo", "locale": "en-US", "text": broken});
        if let Some(lang) = lang {
            args["lang"] = json!(lang);
        }
        args
    };
    let (chinese, _) = agent.call("check_document", draft(Some("zh-CN")));
    let d = &chinese["diagnostics"][0];
    assert_eq!(d["code"], "schema");
    assert_eq!(d["message"], "未知字段 `endtime`", "{chinese:#}");
    assert_eq!(d["help"], "是不是想写 `endTime`？");
    let (english, _) = agent.call("check_document", draft(None));
    assert_eq!(
        english["diagnostics"][0]["message"],
        "unknown field `endtime`"
    );
    let (english, _) = agent.call("check_document", draft(Some("en-US")));
    assert_eq!(
        english["diagnostics"][0]["message"],
        "unknown field `endtime`"
    );

    // A refusal is in the language asked for too.
    let answer = agent.request(
        "tools/call",
        json!({"name": "write_document", "arguments": draft(Some("zh-CN"))}),
    );
    let text = answer["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default();
    assert_eq!(text, "没有写入：草稿中有 1 个错误（见 `diagnostics`）");
}

/// Issue 30: the announcements tools give `check`'s diagnostics for a
/// draft, and write only a clean one, in canonical form, saying when the
/// content changed under the same `id`.
#[test]
fn announcements_drafts_get_checks_diagnostics_and_clean_ones_are_written() {
    for case in crate::announcements::announcement_fixtures() {
        let (root, expected) = crate::announcements::check_diagnostics(&case);
        let Some(file) = expected
            .first()
            .map(|d| d["file"].as_str().unwrap().to_owned())
        else {
            continue;
        };
        let Some(locale) = file
            .strip_prefix("data/_announcements/")
            .and_then(|f| f.strip_suffix(".json"))
            .filter(|l| *l != "notes")
        else {
            continue;
        };
        let text = std::fs::read_to_string(root.path().join(&file)).unwrap();
        std::fs::remove_file(root.path().join(&file)).unwrap();
        let mut agent = Agent::start(root.path());
        let (checked, error) = agent.call(
            "check_announcements",
            json!({"locale": locale, "text": text}),
        );
        assert!(!error, "{checked:#}");
        assert_eq!(
            checked["diagnostics"],
            json!(expected),
            "{}",
            case.display()
        );
    }

    let root = fixture_root(None);
    let mut agent = Agent::start(root.path());
    let board = "data/_announcements/en-US.json";
    let draft = json!({"id": 1, "announcements": [{"title": "Hello", "content": "First."}]});
    let (written, error) = agent.call(
        "write_announcements",
        json!({"locale": "en-US", "text": draft.to_string()}),
    );
    assert!(!error, "{written:#}");
    assert_eq!(written["written"], true);
    let on_disk = std::fs::read_to_string(root.path().join(board)).unwrap();
    assert_eq!(
        on_disk,
        format!("{}\n", serde_json::to_string_pretty(&draft).unwrap())
    );
    let (read, _) = agent.call("read_announcements", json!({"locale": "en-US"}));
    assert_eq!(read["text"], on_disk.as_str());

    // New content under the same id: written, and the answer says clients will not see it.
    let same_id = json!({"id": 1, "announcements": [{"title": "Hello", "content": "Edited."}]});
    let (written, _) = agent.call(
        "write_announcements",
        json!({"locale": "en-US", "text": same_id.to_string()}),
    );
    assert!(
        written["changes"]
            .as_str()
            .unwrap()
            .contains("raise `id` to 2"),
        "{written:#}"
    );

    // A draft with an error is refused; a path outside the boards is refused.
    let (refused, error) = agent.call(
        "write_announcements",
        json!({"locale": "en-US", "text": r#"{"id": -1, "announcements": []}"#}),
    );
    assert!(error, "{refused:#}");
    let (_, error) = agent.call(
        "write_announcements",
        json!({"locale": "../../evil", "text": draft.to_string()}),
    );
    assert!(error);
    assert!(!root.path().join("evil.json").exists());
}

/// Issue 32: a draft of version 4.7 that drops an activity running past the
/// new start comes back naming it under `breaking` (check and write alike);
/// `new_version` writes every locale with it carried, and nothing breaks.
#[test]
fn drafts_name_what_they_break_and_new_version_carries_what_runs() {
    let fixtures = crate::util::crate_root().join("tests/fixtures/review");
    let root = tempfile::tempdir().unwrap();
    crate::util::fixture_tree(&fixtures.join("base"), None, root.path());
    let draft = std::fs::read_to_string(fixtures.join("upcoming/data/sr/en-US.json")).unwrap();
    let mut agent = Agent::start_at(root.path(), "2026-11-25T12:00:00");

    let (checked, error) = agent.call(
        "check_document",
        json!({"game": "sr", "locale": "en-US", "text": draft}),
    );
    assert!(!error, "{checked:#}");
    assert_eq!(checked["errors"], 0);
    let breaking = &checked["breaking"][0];
    assert_eq!(breaking["code"], "upcoming-version", "{checked:#}");
    assert_eq!(
        breaking["activities"][0]["name"],
        "Memory of Chaos: Night of Falling Stars"
    );
    assert!(
        breaking["help"].as_str().unwrap().contains("version new"),
        "{breaking}"
    );

    let (written, error) = agent.call(
        "new_version",
        json!({"game": "sr", "version": "4.7", "name": "4.7版本「群星归途」",
               "names": {"en-US": "4.7: Homeward Among the Stars"},
               "start": "2026-11-26T11:00:00", "end": "2027-01-07T05:59:59"}),
    );
    assert!(!error, "{written:#}");
    assert_eq!(written["written"][1]["locale"], "en-US");
    assert_eq!(
        written["written"][1]["carried"],
        json!(["Memory of Chaos: Night of Falling Stars"])
    );
    let on_disk = std::fs::read_to_string(root.path().join("data/sr/en-US.json")).unwrap();
    assert!(on_disk.contains("\"version\": \"4.7\""), "{on_disk}");
    // The written file against itself: nothing breaks.
    let (checked, _) = agent.call(
        "check_document",
        json!({"game": "sr", "locale": "en-US", "text": on_disk}),
    );
    assert_eq!(checked["breaking"], json!([]), "{checked:#}");
    // A version that does not go forwards is refused, and nothing is written.
    let (refused, error) = agent.call(
        "new_version",
        json!({"game": "sr", "version": "4.7", "name": "again",
               "start": "2026-11-26T11:00:00", "end": "2027-01-07T05:59:59"}),
    );
    assert!(error, "{refused:#}");
    assert_eq!(
        std::fs::read_to_string(root.path().join("data/sr/en-US.json")).unwrap(),
        on_disk
    );
}
