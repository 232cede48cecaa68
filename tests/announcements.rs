//! Issue 30: the announcements boards (`data/_announcements/<locale>.json`)
//! through the binary: diagnostics with line:col and help, `fmt`, and a
//! build that publishes `api/v1/anno.json`, the index entry, a page and an
//! Atom feed in which no script survives.

use std::path::Path;

use serde_json::Value;

use crate::util::{FIXTURE_NOW, check_json, crate_root, fixture_root, run, stderr, stdout};

/// The `anno-*` fixtures of `tests/fixtures/invalid`, sorted.
pub fn announcement_fixtures() -> Vec<std::path::PathBuf> {
    let mut cases: Vec<_> = std::fs::read_dir(crate_root().join("tests/fixtures/invalid"))
        .expect("fixtures")
        .map(|e| e.expect("entry").path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("anno-"))
        })
        .collect();
    cases.sort();
    cases
}

/// The base tree with the real-shape boards (zh-CN, the site's default
/// locale, and en-US).
fn real_root() -> tempfile::TempDir {
    fixture_root(Some(
        &crate_root().join("tests/fixtures/announcements/real"),
    ))
}

fn json_file(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).expect("file")).expect("JSON")
}

/// Each announcements mistake, shown as a contributor sees it: message,
/// line:col, the caret under the value and a help line (one snapshot each).
#[test]
fn every_announcements_mistake_is_explained_with_help() {
    let cases = announcement_fixtures();
    assert!(cases.len() >= 12, "{cases:?}");
    for case in cases {
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        let root = fixture_root(Some(&case));
        let output = run(root.path(), &["check", "--now", FIXTURE_NOW]);
        let text = stderr(&output);
        assert!(text.contains("help: "), "{name} has no help line:\n{text}");
        assert!(
            text.contains(" --> data/_announcements/"),
            "{name} is not reported in the board:\n{text}"
        );
        insta::assert_snapshot!(name.replace('-', "_"), text);
    }
}

#[test]
fn a_board_of_the_real_shape_builds_anno_json_equal_to_it() {
    let root = real_root();
    let zh = json_file(&root.path().join("data/_announcements/zh-CN.json"));
    let en = json_file(&root.path().join("data/_announcements/en-US.json"));
    let output = run(
        root.path(),
        &["build", "--now", FIXTURE_NOW, "--out", "site"],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let site = root.path().join("site");

    // The site's default locale (the games' zh-CN) under both names, every locale suffixed.
    assert_eq!(json_file(&site.join("api/v1/anno.json")), zh);
    assert_eq!(json_file(&site.join("api/v1/anno-zh-CN.json")), zh);
    assert_eq!(json_file(&site.join("api/v1/anno-en-US.json")), en);
    // The source schema as published: its `$id` at its place on the site
    // (relative without --site-url), without the editor hint `$schema`,
    // and open to fields it does not name (issue 62), at the top and in
    // each announcement.
    let mut published = json_file(&crate_root().join("schema/announcements.schema.json"));
    published["$id"] = serde_json::Value::from("/api/v1/schema/announcements.json");
    published["properties"]
        .as_object_mut()
        .unwrap()
        .shift_remove("$schema");
    for pointer in ["", "/$defs/announcement"] {
        let object = published
            .pointer_mut(pointer)
            .unwrap()
            .as_object_mut()
            .unwrap();
        let closed = object.shift_remove("additionalProperties");
        assert_eq!(closed, Some(serde_json::Value::Bool(false)));
    }
    assert_eq!(
        json_file(&site.join("api/v1/schema/announcements.json")),
        published
    );

    // The index names each with its checksum and id.
    let index = json_file(&site.join("api/v1/games.json"));
    let entries = index["announcements"].as_array().expect("announcements");
    assert_eq!(entries.len(), 3, "{index:#}");
    for entry in entries {
        let path = entry["path"].as_str().unwrap();
        let bytes = std::fs::read(site.join(&path[1..])).unwrap();
        use sha2::Digest as _;
        assert_eq!(entry["sha256"], hex::encode(sha2::Sha256::digest(&bytes)));
        assert_eq!(entry["bytes"], bytes.len() as u64);
        assert!(site.join(&entry["feed"].as_str().unwrap()[1..]).is_file());
    }
    let default = entries.iter().find(|e| e["default"] == true).unwrap();
    assert_eq!(default["path"], "/api/v1/anno.json");
    assert_eq!(default["id"], 28);

    // The page and the feed show every announcement, newest first.
    let page = std::fs::read_to_string(site.join("announcements/index.html")).unwrap();
    let feed = std::fs::read_to_string(site.join("api/v1/anno.atom")).unwrap();
    let mut last = 0;
    for item in zh["announcements"].as_array().unwrap() {
        let title = item["title"].as_str().unwrap();
        let at = page
            .find(title)
            .unwrap_or_else(|| panic!("`{title}` not on the page"));
        assert!(at > last, "`{title}` out of order");
        last = at;
        assert!(
            feed.contains(&format!("<title>{title}</title>")),
            "`{title}` not in the feed"
        );
    }
    assert_eq!(feed.matches("<entry>").count(), 4);
    assert!(
        page.contains(r#"<h3 id="a4-主要更新内容">主要更新内容:</h3>"#),
        "Markdown is rendered, its headings with ids"
    );
    assert!(page.contains(r#"<a href="https://starrailassistant.top" rel="noopener noreferrer">"#));
    let en_page = std::fs::read_to_string(site.join("announcements/en-US/index.html")).unwrap();
    assert!(en_page.contains("2.23 release notes"));

    // Linked from the home page; feeds typed in `_headers`.
    let home = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(home.contains(r#"<a href="announcements/">"#), "{home}");
    // Issue 45: each home page names the board in its own language, and
    // the board shows no internal number.
    let en_home = std::fs::read_to_string(site.join("en-US/index.html")).unwrap();
    assert!(
        en_home.contains(r#"<a href="../announcements/en-US/">Announcements</a>"#),
        "{en_home}"
    );
    assert!(!en_home.contains("公告"), "{en_home}");
    assert!(
        !page.contains("公告编号") && !page.contains(">28<"),
        "{page}"
    );
    let headers = std::fs::read_to_string(site.join("_headers")).unwrap();
    assert!(
        headers.contains("/api/v1/anno.atom\n  Content-Type: application/atom+xml; charset=utf-8")
    );
    assert!(headers.contains("/announcements/*\n  Cache-Control:"));
}

#[test]
fn a_script_or_a_javascript_link_never_reaches_the_page_or_the_feed() {
    let root = fixture_root(None);
    let board = root.path().join("data/_announcements");
    std::fs::create_dir_all(&board).unwrap();
    let hostile = r#"{
  "id": 1,
  "announcements": [
    {
      "title": "<script>alert('title')</script>",
      "content": "Hi <script>alert(1)</script>\n\n<img src=x onerror=alert(2)>\n\n<a href=\"javascript:alert(3)\">x</a> [ok](https://example.org)"
    }
  ]
}
"#;
    std::fs::write(board.join("zh-CN.json"), hostile).unwrap();
    let output = run(
        root.path(),
        &["build", "--now", FIXTURE_NOW, "--out", "site"],
    );
    assert!(
        output.status.success(),
        "raw HTML is a warning: {}",
        stderr(&output)
    );
    assert!(stderr(&output).contains("warning[markdown-html]"));
    let site = root.path().join("site");
    let page = std::fs::read_to_string(site.join("announcements/index.html")).unwrap();
    let feed = std::fs::read_to_string(site.join("api/v1/anno.atom")).unwrap();
    // The feed's HTML, unescaped once as a feed reader does.
    let feed_html: String = feed
        .split("<content type=\"html\">")
        .skip(1)
        .map(|c| c.split("</content>").next().unwrap_or(""))
        .map(|c| {
            c.replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&amp;", "&")
        })
        .collect();
    assert!(!feed_html.is_empty());
    for (name, html) in [("page", page.as_str()), ("feed", feed_html.as_str())] {
        for tag in tags(html) {
            let lower = tag.to_ascii_lowercase();
            for banned in ["script", "img", "/script"] {
                assert!(!lower.starts_with(banned), "`<{tag}>` reached the {name}");
            }
            for banned in ["onerror", "javascript:"] {
                assert!(!lower.contains(banned), "`<{tag}>` reached the {name}");
            }
        }
    }
    assert!(
        page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "shown as text"
    );
    assert!(page.contains(r#"href="https://example.org""#));

    // A Markdown link to `javascript:` is an error: nothing is built.
    std::fs::write(
        board.join("zh-CN.json"),
        hostile.replace("(https://example.org)", "(javascript:alert(4))"),
    )
    .unwrap();
    let output = run(
        root.path(),
        &["build", "--now", FIXTURE_NOW, "--out", "site2"],
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(stderr(&output).contains("error[markdown-link]"));
    assert!(!root.path().join("site2").exists());
}

/// Every tag of an HTML text (`<` to `>`); escaped text (`&lt;`) is no tag.
fn tags(html: &str) -> Vec<&str> {
    html.split('<')
        .skip(1)
        .map(|rest| rest.split('>').next().unwrap_or(rest))
        .collect()
}

#[test]
fn fmt_leaves_a_canonical_board_alone_and_refuses_one_with_errors() {
    let root = real_root();
    let en = root.path().join("data/_announcements/en-US.json");
    let canonical = std::fs::read_to_string(&en).unwrap();
    let output = run(root.path(), &["fmt", "--now", FIXTURE_NOW]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        std::fs::read_to_string(&en).unwrap(),
        canonical,
        "left alone"
    );
    // The zh-CN board writes its astral characters as escapes: rewritten as text, same JSON.
    let zh = root.path().join("data/_announcements/zh-CN.json");
    assert!(stdout(&output).contains("reformatted data/_announcements/zh-CN.json"));
    assert_eq!(
        json_file(&zh),
        json_file(
            &crate_root().join("tests/fixtures/announcements/real/data/_announcements/zh-CN.json")
        )
    );
    let again = run(root.path(), &["fmt", "--check", "--now", FIXTURE_NOW]);
    assert!(again.status.success(), "{}", stderr(&again));

    // Not canonical and with an error: refused, untouched.
    let broken = canonical
        .replace("\"id\": 3", "\"id\": -3")
        .replace("\n  ", "\n    ");
    std::fs::write(&en, &broken).unwrap();
    let output = run(root.path(), &["fmt", "--now", FIXTURE_NOW]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("left 1 file with errors unchanged"),
        "{}",
        stderr(&output)
    );
    assert_eq!(std::fs::read_to_string(&en).unwrap(), broken);
}

#[test]
fn status_names_each_board_its_id_and_when_it_last_changed() {
    let root = real_root();
    let output = run(root.path(), &["status", "--now", FIXTURE_NOW]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("ANNOUNCEMENTS  ID  COUNT  CHANGED"), "{text}");
    let zh = text
        .lines()
        .find(|l| l.starts_with("zh-CN "))
        .expect("zh-CN row");
    assert!(
        zh.contains(" 28 ") && zh.contains(" 4 ") && zh.ends_with("ok"),
        "{zh}"
    );
    // A temporary folder is in no git work tree: the file's time.
    assert!(zh.contains("(file time)"), "{zh}");
}

/// The check's diagnostics of each announcements fixture, as JSON values.
pub fn check_diagnostics(case: &Path) -> (tempfile::TempDir, Vec<Value>) {
    let root = fixture_root(Some(case));
    let (_, report) = check_json(root.path(), FIXTURE_NOW);
    let found = report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .clone();
    (root, found)
}

/// Issue 30: headings get ids and `#fragment` links reach them. Two
/// announcements both have a `启动命令` heading: each heading's id is under
/// its announcement's anchor (`a2-启动命令`, `a1-启动命令`), and the link of
/// each announcement points at its own (the `href`, percent-decoded as a
/// browser reads it, equals an `id` of the page). The feed's links point
/// at the page. A fragment that names no heading of its announcement is
/// diagnosed (`markdown-link`) and nothing is built.
#[test]
fn a_fragment_link_reaches_the_heading_of_its_own_announcement() {
    let root = fixture_root(None);
    let board = root.path().join("data/_announcements");
    std::fs::create_dir_all(&board).unwrap();
    let text = r#"{
  "id": 2,
  "announcements": [
    {
      "title": "新版本",
      "content": "更新后请看[启动命令](#启动命令)和[常见问题](#faq)。\n\n## 启动命令\n\n`sra-cli start --new`\n\n## FAQ\n\n无。"
    },
    {
      "title": "使用说明",
      "content": "见[启动命令](#启动命令)。\n\n## 启动命令\n\n`sra-cli start`"
    }
  ]
}
"#;
    std::fs::write(board.join("zh-CN.json"), text).unwrap();
    let output = run(
        root.path(),
        &["build", "--now", FIXTURE_NOW, "--out", "site"],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let site = root.path().join("site");
    let page = std::fs::read_to_string(site.join("announcements/index.html")).unwrap();
    let main = &page[page.find("<h1>").unwrap()..page.find("</main>").unwrap()];
    insta::assert_snapshot!("announcements_page_heading_anchors", main);

    let ids: Vec<&str> = attributes(&page, "id");
    let hrefs: Vec<String> = attributes(&page, "href")
        .into_iter()
        .filter_map(|h| h.strip_prefix('#'))
        .map(|h| {
            percent_encoding::percent_decode_str(h)
                .decode_utf8()
                .unwrap()
                .into_owned()
        })
        .collect();
    for href in &hrefs {
        assert!(ids.contains(&href.as_str()), "#{href} is no id of {ids:?}");
    }
    for id in ["a2-启动命令", "a2-faq", "a1-启动命令"] {
        assert!(hrefs.iter().any(|h| h == id), "no link to {id}: {hrefs:?}");
    }
    let feed = std::fs::read_to_string(site.join("api/v1/anno.atom")).unwrap();
    assert!(
        feed.contains(
            "href=&quot;../../announcements/#a1-%E5%90%AF%E5%8A%A8%E5%91%BD%E4%BB%A4&quot;"
        ),
        "{feed}"
    );

    // A fragment naming a heading of another announcement only.
    std::fs::write(
        board.join("zh-CN.json"),
        text.replace(
            "\\n\\n## 启动命令\\n\\n`sra-cli start`",
            "\\n\\n## 说明\\n\\n`sra-cli start`",
        ),
    )
    .unwrap();
    let output = run(
        root.path(),
        &["build", "--now", FIXTURE_NOW, "--out", "site2"],
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let err = stderr(&output);
    assert!(
        err.contains("error[markdown-link]: the link `#启动命令` in `content` names no heading of this announcement"),
        "{err}"
    );
    assert!(
        err.contains(" --> data/_announcements/zh-CN.json:10:"),
        "{err}"
    );
    assert!(err.contains("`#说明`"), "{err}");
    assert!(!root.path().join("site2").exists());
}

/// The values of every `name="..."` attribute of an HTML text.
fn attributes<'a>(html: &'a str, name: &str) -> Vec<&'a str> {
    let key = format!(" {name}=\"");
    html.match_indices(&key)
        .filter_map(|(i, _)| html[i + key.len()..].split('"').next())
        .collect()
}

/// Issue 57: the feed changes only with its board. A game's data moving on
/// leaves every feed byte for byte as it was; the board's own `updated`
/// (RFC 3339 with an offset) is the feed's, in UTC.
#[test]
fn the_feed_changes_with_its_board_only() {
    let root = real_root();
    let build = |out: &str| {
        let output = run(root.path(), &["build", "--now", FIXTURE_NOW, "--out", out]);
        assert!(output.status.success(), "{}", stderr(&output));
        std::fs::read(root.path().join(out).join("api/v1/anno.atom")).unwrap()
    };
    let before = build("site");
    let feed = String::from_utf8(before.clone()).unwrap();
    assert!(
        feed.contains("<updated>1970-01-01T00:00:00Z</updated>"),
        "{feed}"
    );
    // A newer version of a game, starting later than any other.
    let game = root.path().join("data/demo/zh-CN.json");
    let mut doc = json_file(&game);
    doc["version"] = "1.3".into();
    doc["startTime"] = "2026-10-12T11:00:00".into();
    doc["endTime"] = "2026-11-23T03:59:59".into();
    doc["activities"] = serde_json::json!([]);
    std::fs::write(&game, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    let en = root.path().join("data/demo/en-US.json");
    let mut en_doc = json_file(&en);
    en_doc["version"] = "1.3".into();
    en_doc["startTime"] = "2026-10-12T11:00:00".into();
    en_doc["endTime"] = "2026-11-23T03:59:59".into();
    en_doc["activities"] = serde_json::json!([]);
    std::fs::write(&en, serde_json::to_string_pretty(&en_doc).unwrap()).unwrap();
    assert_eq!(build("site-2"), before, "a game's edit changed the feed");
    // The board says when it changed: that is the feed's `updated`.
    let board = root.path().join("data/_announcements/zh-CN.json");
    let mut text = json_file(&board);
    text["updated"] = "2026-11-20T10:00:00+08:00".into();
    std::fs::write(&board, serde_json::to_string_pretty(&text).unwrap()).unwrap();
    let after = String::from_utf8(build("site-3")).unwrap();
    assert!(
        after.contains("<updated>2026-11-20T02:00:00Z</updated>"),
        "{after}"
    );
}
