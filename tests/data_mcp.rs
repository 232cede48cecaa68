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

/// `new_version`'s `drop` takes an id: in `ids-reordered` (the locales list
/// the two activities that start together in another order) it leaves the
/// activity behind in both, and the answer gives the ids of what it carried
/// and left behind next to their names; an unknown id is refused, listing
/// the ids still to end, and a value that is an id and a name is refused;
/// a name still drops as before.
#[test]
fn new_version_drops_by_id_and_answers_with_ids() {
    let fixtures = crate::util::crate_root().join("tests/fixtures/review");
    let version = |drop: &str| {
        json!({"game": "sr", "version": "4.7", "name": "4.7",
               "start": "2026-11-26T11:00:00", "end": "2027-01-07T05:59:59",
               "drop": [drop]})
    };
    let root = tempfile::tempdir().unwrap();
    let case = fixtures.join("ids-reordered");
    crate::util::fixture_tree(&fixtures.join("base"), Some(&case), root.path());
    let mut agent = Agent::start_at(root.path(), "2026-11-24T12:00:00");

    let answer = agent.request(
        "tools/call",
        json!({"name": "new_version", "arguments": version("sr-4.6-09")}),
    );
    assert_eq!(answer["result"]["isError"], true, "{answer:#}");
    let text = answer["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("`sr-4.6-09` names no activity"), "{text}");
    assert!(
        text.contains("`sr-4.6-03` (花火跃迁, Sparkle Warp)"),
        "{text}"
    );

    let (written, error) = agent.call("new_version", version("sr-4.6-03"));
    assert!(!error, "{written:#}");
    let zh = &written["written"][0];
    assert_eq!(zh["locale"], "zh-CN");
    assert_eq!(zh["carried"], json!(["混沌回忆：坠星之夜"]));
    assert_eq!(zh["carriedIds"], json!(["sr-4.6-01"]));
    assert_eq!(
        zh["leftBehind"],
        json!(["星旅馈赠", "列车补给馈赠", "花火跃迁"])
    );
    assert_eq!(
        zh["leftBehindIds"],
        json!(["sr-4.6-02", "sr-4.6-04", "sr-4.6-03"])
    );
    let en = &written["written"][1];
    assert_eq!(en["carriedIds"], json!(["sr-4.6-01"]));
    assert_eq!(
        en["leftBehind"],
        json!(["Gift of Odyssey", "Sparkle Warp", "Express Supply Gift"])
    );
    assert_eq!(
        en["leftBehindIds"],
        json!(["sr-4.6-02", "sr-4.6-03", "sr-4.6-04"])
    );
    assert_eq!(
        en["leftBehindStates"][1],
        json!({"name": "Sparkle Warp", "state": "runs-now-ends-before"})
    );

    let root = tempfile::tempdir().unwrap();
    let case = fixtures.join("id-is-a-name");
    crate::util::fixture_tree(&fixtures.join("base"), Some(&case), root.path());
    let before = std::fs::read_to_string(root.path().join("data/sr/en-US.json")).unwrap();
    let mut agent = Agent::start_at(root.path(), "2026-11-24T12:00:00");
    let answer = agent.request(
        "tools/call",
        json!({"name": "new_version", "arguments": version("warp")}),
    );
    assert_eq!(answer["result"]["isError"], true, "{answer:#}");
    let text = answer["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("`warp` is both the id of `花火跃迁`"),
        "{text}"
    );
    assert_eq!(
        std::fs::read_to_string(root.path().join("data/sr/en-US.json")).unwrap(),
        before
    );
    let (written, error) = agent.call("new_version", version("Sparkle Warp"));
    assert!(!error, "{written:#}");
    assert_eq!(
        written["written"][1]["carried"],
        json!(["Memory of Chaos: Night of Falling Stars", "warp"])
    );
    assert_eq!(
        written["written"][1]["carriedIds"],
        json!(["sr-4.6-01", "sr-4.6-04"])
    );
    assert_eq!(
        written["written"][1]["leftBehindIds"],
        json!(["sr-4.6-02", "warp"])
    );
}

/// Issue 33: `errors` and `warnings` count the whole list, and `files`
/// says which file each count is for (the other locale's warnings too).
#[test]
fn counts_agree_with_the_list_and_name_their_files() {
    let root = fixture_root(None);
    let zh = "data/demo/zh-CN.json";
    let original = std::fs::read_to_string(root.path().join(zh)).unwrap();
    // The default locale's file moves to another version: the other
    // locale's file now disagrees with it.
    let draft = original.replacen("\"version\": \"1.2\"", "\"version\": \"1.3\"", 1);
    assert_ne!(draft, original);
    let mut agent = Agent::start(root.path());
    let (checked, error) = agent.call(
        "check_document",
        json!({"game": "demo", "locale": "zh-CN", "text": draft}),
    );
    assert!(!error, "{checked:#}");
    let list = checked["diagnostics"].as_array().unwrap();
    let errors = list.iter().filter(|d| d["severity"] == "error").count();
    assert_eq!(checked["errors"], errors, "{checked:#}");
    assert_eq!(checked["warnings"], list.len() - errors, "{checked:#}");
    let other = EN;
    let on_other = list.iter().filter(|d| d["file"] == other).count();
    assert!(
        on_other > 0,
        "the other locale's file gets locale-parity: {checked:#}"
    );
    let files = checked["files"].as_object().unwrap();
    assert_eq!(files.keys().next().map(String::as_str), Some(zh));
    assert_eq!(files[zh]["errors"], 0);
    let per_file: u64 = files
        .values()
        .map(|c| c["errors"].as_u64().unwrap() + c["warnings"].as_u64().unwrap())
        .sum();
    assert_eq!(per_file, list.len() as u64);
    assert_eq!(
        files[other]["errors"].as_u64().unwrap() + files[other]["warnings"].as_u64().unwrap(),
        on_other as u64
    );
}

/// Issue 33: what read_document answers is what write_document takes; the
/// same text passed back writes nothing new; a `path` naming another
/// file is refused.
#[test]
fn what_is_read_can_be_passed_back_to_write() {
    let root = fixture_root(None);
    let original = std::fs::read_to_string(root.path().join(EN)).unwrap();
    let mut agent = Agent::start(root.path());
    let (read, error) = agent.call("read_document", json!({"game": "demo", "locale": "en-US"}));
    assert!(!error, "{read:#}");
    assert_eq!(read["game"], "demo");
    assert_eq!(read["locale"], "en-US");
    assert_eq!(read["path"], EN);
    let (checked, error) = agent.call("check_document", read.clone());
    assert!(!error, "{checked:#}");
    let (written, error) = agent.call("write_document", read.clone());
    assert!(!error, "{written:#}");
    assert_eq!(written["written"], false, "{written:#}");
    assert_eq!(
        std::fs::read_to_string(root.path().join(EN)).unwrap(),
        original
    );
    let mut elsewhere = read.clone();
    elsewhere["path"] = json!("data/demo/zh-CN.json");
    let (_, error) = agent.call("write_document", elsewhere);
    assert!(error);

    // The boards too.
    let board = json!({"id": 3, "announcements": [{"title": "Hi", "content": "x"}]});
    let (written, error) = agent.call(
        "write_announcements",
        json!({"locale": "en-US", "text": board.to_string()}),
    );
    assert!(!error, "{written:#}");
    let (read, _) = agent.call("read_announcements", json!({"locale": "en-US"}));
    assert_eq!(read["path"], "data/_announcements/en-US.json");
    let (again, error) = agent.call("write_announcements", read);
    assert!(!error, "{again:#}");
    assert_eq!(again["written"], false);
}

/// Issue 33: the diagnostics a write returns are those of the file as
/// written: the canonical form sorts the activities, so no `unsorted`.
#[test]
fn a_write_returns_the_diagnostics_of_the_file_as_written() {
    let root = fixture_root(None);
    let original = std::fs::read_to_string(root.path().join(EN)).unwrap();
    let mut document: Value = serde_json::from_str(&original).unwrap();
    document["activities"].as_array_mut().unwrap().reverse();
    let draft = serde_json::to_string_pretty(&document).unwrap();
    let mut agent = Agent::start(root.path());
    let args = json!({"game": "demo", "locale": "en-US", "text": draft});
    let (checked, _) = agent.call("check_document", args.clone());
    let codes = |answer: &Value| -> Vec<String> {
        answer["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["code"].as_str().unwrap().to_owned())
            .collect()
    };
    assert!(
        codes(&checked).contains(&"unsorted".to_owned()),
        "{checked:#}"
    );
    let (written, error) = agent.call("write_document", args);
    assert!(!error, "{written:#}");
    assert!(
        !codes(&written).contains(&"unsorted".to_owned()),
        "{written:#}"
    );
    let (on_disk, _) = agent.call("read_document", json!({"game": "demo", "locale": "en-US"}));
    let (rechecked, _) = agent.call("check_document", on_disk);
    assert_eq!(written["diagnostics"], rechecked["diagnostics"]);
}

/// Issue 33: `fix: true` applies the exact fixes `check --fix` applies,
/// through the same owner, before checking or writing.
#[test]
fn the_fix_flag_applies_exact_fixes_like_check_fix() {
    let root = fixture_root(None);
    let original = std::fs::read_to_string(root.path().join(EN)).unwrap();
    let broken = original
        .replacen("\"version\": \"1.2\",", "\"version\"： \"1.2\"，", 1)
        .replacen("\"endTime\": \"2026-10-15", "\"endtime\": \"2026-10-15", 1);
    let mut agent = Agent::start(root.path());
    let args = json!({"game": "demo", "locale": "en-US", "text": broken, "fix": true});
    let (checked, error) = agent.call("check_document", args.clone());
    assert!(!error, "{checked:#}");
    assert_eq!(checked["errors"], 0, "{checked:#}");
    assert!(checked["fixes"].as_u64().unwrap() >= 3, "{checked:#}");
    // Issue 44: each change listed, as `check --fix` lists it.
    let changes = checked["changes"].as_array().unwrap();
    assert_eq!(Some(changes.len() as u64), checked["fixes"].as_u64());
    assert_eq!(
        (
            &changes[0]["line"],
            &changes[0]["code"],
            &changes[0]["before"],
            &changes[0]["after"]
        ),
        (&json!(3), &json!("json-syntax"), &json!("："), &json!(":")),
        "{checked:#}"
    );
    assert_eq!(checked["text"], original.as_str());
    assert_eq!(
        std::fs::read_to_string(root.path().join(EN)).unwrap(),
        original,
        "check writes nothing"
    );
    // The same draft without the flag is refused; with it, written.
    let mut no_fix = args.clone();
    no_fix["fix"] = json!(false);
    let (_, error) = agent.call("write_document", no_fix);
    assert!(error);
    let mut renamed = args.clone();
    renamed["text"] = json!(broken.replacen("Song of the Star Sea", "Renamed", 1));
    let (written, error) = agent.call("write_document", renamed);
    assert!(!error, "{written:#}");
    assert_eq!(written["written"], true);
    assert_eq!(
        std::fs::read_to_string(root.path().join(EN)).unwrap(),
        original.replacen("Song of the Star Sea", "Renamed", 1)
    );

    // A board's exact fix (`id` written 28.0) too.
    let (checked, error) = agent.call(
        "check_announcements",
        json!({"locale": "en-US", "fix": true,
               "text": "{\"id\": 28.0, \"announcements\": [{\"title\": \"Hi\", \"content\": \"x\"}]，}\n"}),
    );
    assert!(!error, "{checked:#}");
    assert_eq!(checked["errors"], 0, "{checked:#}");
    assert_eq!(checked["fixes"], 2);
    assert!(
        checked["text"]
            .as_str()
            .unwrap()
            .starts_with("{\"id\": 28, ")
    );
}

/// Issue 33: add_game and add_locale edit games.json through the same
/// checks, keep every value, and refuse (writing nothing) what would not
/// check.
#[test]
fn games_and_locales_are_added_through_the_checks() {
    let root = fixture_root(None);
    let registry = root.path().join("games.json");
    let original: Value =
        serde_json::from_str(&std::fs::read_to_string(&registry).unwrap()).unwrap();
    let en = std::fs::read_to_string(root.path().join(EN)).unwrap();
    let mut agent = Agent::start(root.path());

    // A bad time zone: refused with the diagnostics, nothing written.
    let game = json!({"id": "hsr", "name": "Star Rail", "locales": ["en-US"],
                      "defaultLocale": "en-US", "dataSource": "https://example.org/hsr",
                      "timeZone": "Mars/Olympus"});
    let (refused, error) = agent.call(
        "add_game",
        json!({"game": game, "documents": {"en-US": en}}),
    );
    assert!(error, "{refused:#}");
    assert!(
        refused["files"]["games.json"]["errors"].as_u64().unwrap() > 0,
        "{refused:#}"
    );
    let unchanged: Value =
        serde_json::from_str(&std::fs::read_to_string(&registry).unwrap()).unwrap();
    assert_eq!(unchanged, original);
    assert!(!root.path().join("data/hsr").exists());

    // A good one: written with its document, the other game kept as it was.
    let mut game = game;
    game["timeZone"] = json!("Asia/Tokyo");
    let (added, error) = agent.call(
        "add_game",
        json!({"game": game, "documents": {"en-US": en}}),
    );
    assert!(!error, "{added:#}");
    assert_eq!(
        added["written"],
        json!(["data/hsr/en-US.json", "games.json"])
    );
    let now: Value = serde_json::from_str(&std::fs::read_to_string(&registry).unwrap()).unwrap();
    assert_eq!(now["games"][0], original["games"][0]);
    assert_eq!(now["games"][1], game);
    let (again, error) = agent.call("add_game", json!({"game": game}));
    assert!(error, "{again:#}");

    // A locale: added to `locales` and `name` (a single name becomes one per locale).
    let (added, error) = agent.call(
        "add_locale",
        json!({"game": "hsr", "locale": "ja-JP", "name": "スターレイル"}),
    );
    assert!(!error, "{added:#}");
    let codes: Vec<&str> = added["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert!(codes.contains(&"pending-locale"), "{added:#}");
    let now: Value = serde_json::from_str(&std::fs::read_to_string(&registry).unwrap()).unwrap();
    assert_eq!(now["games"][1]["locales"], json!(["en-US", "ja-JP"]));
    assert_eq!(
        now["games"][1]["name"],
        json!({"en-US": "Star Rail", "ja-JP": "スターレイル"})
    );
    // Its file, then, through write_document.
    let (written, error) = agent.call(
        "write_document",
        json!({"game": "hsr", "locale": "ja-JP", "text": en}),
    );
    assert!(!error, "{written:#}");
    let (_, error) = agent.call("add_locale", json!({"game": "hsr", "locale": "ja-JP"}));
    assert!(error);
    let (_, error) = agent.call("add_locale", json!({"game": "hsr", "locale": "../x"}));
    assert!(error);
}

/// Issue 33: `status` gives the server's now, and each game's in its zone.
#[test]
fn status_gives_the_servers_now() {
    let root = fixture_root(None);
    let mut agent = Agent::start_at(root.path(), "2026-10-15T12:00:00+08:00");
    let (status, error) = agent.call("status", json!({}));
    assert!(!error, "{status:#}");
    assert_eq!(
        status["now"]["instant"], "2026-10-15T04:00:00Z",
        "{status:#}"
    );
    assert_eq!(status["now"]["games"]["demo"], "2026-10-15T12:00:00");
    let mut agent = Agent::start(root.path());
    let (status, _) = agent.call("status", json!({}));
    assert_eq!(status["now"]["pinned"], FIXTURE_NOW, "{status:#}");
}

/// Issue 47: the boards in the agents' `status` keep their fields (and
/// their order) now that `status` asks each kind for its columns.
#[test]
fn status_lists_each_board_with_its_id_and_count() {
    let root = fixture_root(None);
    let board = root.path().join("data/_announcements");
    std::fs::create_dir_all(&board).unwrap();
    std::fs::write(
        board.join("en-US.json"),
        r#"{"id": 3, "announcements": [{"title": "A", "content": "a"}, {"title": "B", "content": "b"}]}"#,
    )
    .unwrap();
    std::fs::write(
        board.join("zh-CN.json"),
        r#"{"id": "three", "announcements": []}"#,
    )
    .unwrap();
    let mut agent = Agent::start(root.path());
    let (status, error) = agent.call("status", json!({}));
    assert!(!error, "{status:#}");
    let boards = status["announcements"]
        .as_array()
        .expect("a list of boards");
    assert_eq!(boards.len(), 2, "{status:#}");
    let keys: Vec<&str> = boards[0]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "locale",
            "file",
            "state",
            "id",
            "announcements",
            "changed",
            "changedFrom"
        ]
    );
    assert_eq!(boards[0]["locale"], "en-US");
    assert_eq!(boards[0]["file"], "data/_announcements/en-US.json");
    assert_eq!(boards[0]["state"], "ok");
    assert_eq!(boards[0]["id"], 3);
    assert_eq!(boards[0]["announcements"], 2);
    assert_eq!(boards[1]["state"], "invalid", "{status:#}");
    assert_eq!(boards[1]["id"], Value::Null);
    assert_eq!(boards[1]["announcements"], Value::Null);
}

/// Issue 30: the announcements tools take `lang` and answer in it.
#[test]
fn the_announcements_tools_answer_in_the_language_asked_for() {
    let root = fixture_root(None);
    let mut agent = Agent::start(root.path());
    let (checked, error) = agent.call(
        "check_announcements",
        json!({"locale": "en-US", "lang": "zh-CN", "text": "{\"id\": -1, \"announcements\": []}"}),
    );
    assert!(!error, "{checked:#}");
    let message = checked["diagnostics"][0]["message"].as_str().unwrap();
    assert!(
        message
            .chars()
            .any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
        "{checked:#}"
    );
    let draft = json!({"id": 1, "announcements": [{"title": "Hello", "content": "First."}]});
    let (written, _) = agent.call(
        "write_announcements",
        json!({"locale": "en-US", "lang": "zh-CN", "text": draft.to_string()}),
    );
    assert_eq!(
        written["changes"], "新公告板，id 为 1，共 1 条公告",
        "{written:#}"
    );
    let (written, _) = agent.call(
        "write_announcements",
        json!({"locale": "en-US", "text": draft.to_string()}),
    );
    assert_eq!(
        written["changes"],
        "the announcements are unchanged (id 1 -> 1)"
    );
    let answer = agent.request(
        "tools/call",
        json!({"name": "read_announcements", "arguments": {"locale": "ja-JP", "lang": "zh-CN"}}),
    );
    assert_eq!(
        answer["result"]["content"][0]["text"],
        "`data/_announcements/ja-JP.json` 还不存在；write_announcements 会创建它"
    );
}

/// Issue 58: every kind with a file per locale is offered to agents under
/// its own name, with the descriptions its declaration gives, beside the
/// documents' tools; and bad arguments to one are refused as such.
#[test]
fn every_kind_with_a_file_per_locale_has_its_own_tools() {
    use activity_site::kind::{self, Sources};
    let root = fixture_root(None);
    let mut agent = Agent::start(root.path());
    let listed = agent.request("tools/list", json!({}));
    let tools = listed["result"]["tools"].as_array().expect("tools");
    let described = |name: &str| {
        tools
            .iter()
            .find(|t| t["name"] == name)
            .map(|t| t["description"].as_str().unwrap_or_default().to_owned())
    };
    assert!(described("read_document").is_some(), "{listed}");
    let mut offered = 0;
    for kind in kind::all() {
        let per_locale = matches!(kind.sources, Sources::PerLocale { .. });
        assert_eq!(kind.agents.is_some(), per_locale, "`{}`", kind.name);
        let Some(agents) = kind.agents else { continue };
        for (verb, description) in [
            ("read", agents.read),
            ("check", agents.check),
            ("write", agents.write),
        ] {
            let name = format!("{verb}_{}", kind.name);
            // The kind names a message; the server speaks English here.
            let description =
                activity_site::i18n::lookup(description, activity_site::i18n::Lang::EnUs);
            assert_eq!(described(&name), description, "{name}");
            offered += 1;
        }
        let name = format!("read_{}", kind.name);
        let answer = agent.request(
            "tools/call",
            json!({"name": name, "arguments": {"locale": "en-US", "extra": 1}}),
        );
        // Refused as the documents' tools refuse bad arguments.
        let refused = &answer["result"];
        assert_eq!(refused["isError"], true, "{answer}");
        assert!(refused.to_string().contains("`extra`"), "{answer}");
    }
    assert!(offered >= 3);
    assert!(described("read_announcements").is_some());
}
