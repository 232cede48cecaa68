//! The board's rules tested as data, as the checker's own are
//! (`crates/check/src/validate/tests.rs`): a board's text goes in, [`check`]
//! renders its diagnostics as text (`severity[code] file:line:column:
//! message`, then its help and its fix), and an inline snapshot holds
//! what comes out.

use activity_site_check::kind;
use activity_site_check::layout::Naming;
use activity_site_check::source::{BUILTIN_GAMES_SCHEMA, LoadedFile, Project, SourceFile};
use activity_site_check::validate::{self, Keep, Validator};

use super::KIND;

/// Checks `text` as `data/_announcements/zh-CN.json`, as `check` would, and
/// renders the result.
fn check(text: &str) -> String {
    let path = KIND.locale_path("zh-CN").expect("a file per locale");
    let project = Project {
        root: ".".into(),
        registry: None,
        data_files: Vec::new(),
        games_schema: serde_json::from_str(BUILTIN_GAMES_SCHEMA).unwrap(),
        schemas: kind::schemas()
            .map(|(kind, schema)| (kind.name, serde_json::from_str(schema.builtin).unwrap()))
            .collect(),
        locale_files: Default::default(),
        diagnostics: Vec::new(),
    };
    let validator = Validator::new(&project).unwrap();
    let file = LoadedFile {
        locale: "zh-CN".to_owned(),
        path: path.clone(),
        exists: true,
        source: Some(SourceFile {
            path: path.clone(),
            text: text.to_owned(),
        }),
    };
    let rules = validate::rules_of(kind::of_source(&path).unwrap()).expect("checked file by file");
    let mut out = String::new();
    for d in validator.file(rules, &file, Keep::Diagnostics).diagnostics {
        let severity = if d.is_error() { "error" } else { "warning" };
        let (code, line, column) = (d.code, d.line, d.column);
        out.push_str(&format!(
            "{severity}[{code}] {}:{line}:{column}: {}\n",
            d.file, d.message
        ));
        if let Some(help) = &d.help {
            for line in help.to_string().lines() {
                out.push_str(&format!("  help: {line}\n"));
            }
        }
        if let Some(fix) = &d.fix {
            let replaced = text.get(fix.start..fix.end).unwrap_or("?");
            out.push_str(&format!("  fix: `{replaced}` -> `{}`\n", fix.replacement));
        }
    }
    if out.is_empty() {
        out.push_str("no problems\n");
    }
    out
}

/// A fixture of one announcements board, `data/_announcements/zh-CN.json`,
/// with `id` and the announcements (a JSON array's inside) as written.
fn board(id: &str, announcements: &str) -> String {
    format!("{{\n  \"id\": {id},\n  \"announcements\": [{announcements}]\n}}\n")
}

/// Family: announcements, the document (`schema`: an empty title, an `id`
/// that is no whole number or is negative, an unknown `contentType`).
#[test]
fn announcements_title_id_and_content_type() {
    insta::assert_snapshot!(check(&board("28", r###"{"title": "服务器维护", "content": "今晚维护。"}"###)), @"no problems");
    insta::assert_snapshot!(check(&board("28", r###"{"title": "", "content": "x"}"###)), @r#"
    error[schema] data/_announcements/zh-CN.json:3:31: `title` must not be empty
      help: give the announcement a title: clients list the board by its titles
    "#);
    insta::assert_snapshot!(check(&board("28.0", r###"{"title": "A", "content": "x"}"###)), @r#"
    error[schema] data/_announcements/zh-CN.json:2:9: `id` is written `28.0`, not as a whole number
      help: write `28`: clients read the id as an integer
      fix: `28.0` -> `28`
    "#);
    insta::assert_snapshot!(check(&board("\"28\"", r###"{"title": "A", "content": "x"}"###)), @r#"
    error[schema] data/_announcements/zh-CN.json:2:9: wrong type for `id`: "28" is not of type "integer" (found a string)
      help: `id` is a whole number, 0 or more, such as `28`; raise it by one whenever the content changes
    "#);
    insta::assert_snapshot!(check(&board("-1", r###"{"title": "A", "content": "x"}"###)), @r#"
    error[schema] data/_announcements/zh-CN.json:2:9: `id` must be 0 or more (found -1)
      help: `id` is a whole number, 0 or more, such as `28`; raise it by one whenever the content changes
    "#);
    insta::assert_snapshot!(check(&board("2.5", r###"{"title": "A", "content": "x"}"###)), @r#"
    error[schema] data/_announcements/zh-CN.json:2:9: wrong type for `id`: 2.5 is not of type "integer" (found a number)
      help: `id` is a whole number, 0 or more, such as `28`; raise it by one whenever the content changes
    "#);
    insta::assert_snapshot!(check(&board("1", r###"{"title": "A", "content": "x", "contentType": "html"}"###)), @r#"
    error[schema] data/_announcements/zh-CN.json:3:67: unknown `contentType` "html"
      help: the only content type is "markdown", which is also what leaving it out means
    "#);
}

/// Family: announcements, the Markdown (`markdown-link`: a link neither an
/// absolute http(s) URL nor a site path; `markdown-html`: raw HTML).
#[test]
fn announcements_markdown_links_and_html() {
    insta::assert_snapshot!(check(&board("1", r###"{"title": "A", "content": "[ok](https://example.org) [site](/sr/) [bad](javascript:alert(1)) [rel](notes.html) ![img](data:image/png;base64,AA)"}"###)), @r#"
    error[markdown-link] data/_announcements/zh-CN.json:3:93: the link `javascript:alert(1)` in `content` is neither an absolute http(s) URL nor a path of this site
      help: point the link at `https://...`, at a page of this site such as `/sr/`, or at a heading of this announcement such as `#notes`; the page drops any other link
    error[markdown-link] data/_announcements/zh-CN.json:3:120: the link `notes.html` in `content` is neither an absolute http(s) URL nor a path of this site
      help: point the link at `https://...`, at a page of this site such as `/sr/`, or at a heading of this announcement such as `#notes`; the page drops any other link
    error[markdown-link] data/_announcements/zh-CN.json:3:139: the image `data:image/png;base64,AA` in `content` is neither an absolute http(s) URL nor a path of this site
      help: point the image at `https://...`, at a page of this site such as `/sr/`, or at a heading of this announcement such as `#notes`; the page drops any other image
    "#);
    insta::assert_snapshot!(check(&board("1", r###"{"title": "A", "content": "<b>bold</b> and `<code>` is fine\n\n<div>\nblock\n</div>"}"###)), @r#"
    warning[markdown-html] data/_announcements/zh-CN.json:3:48: `content` holds raw HTML `<b>`
      help: the page shows raw HTML as text and clients may drop it: put code in backticks (`<tag>`), or write `&lt;` for a literal `<`
    warning[markdown-html] data/_announcements/zh-CN.json:3:55: `content` holds raw HTML `</b>`
      help: the page shows raw HTML as text and clients may drop it: put code in backticks (`<tag>`), or write `&lt;` for a literal `<`
    warning[markdown-html] data/_announcements/zh-CN.json:3:84: `content` holds raw HTML `<div>
    block
    </div>`
      help: the page shows raw HTML as text and clients may drop it: put code in backticks (`<tag>`), or write `&lt;` for a literal `<`
    "#);
}

/// Family: announcements, `#fragment` links: one names a heading of its own
/// announcement (by slug, CJK kept; a repeated heading numbered), never
/// one of another announcement.
#[test]
fn announcements_fragment_links_name_headings_of_their_own_announcement() {
    insta::assert_snapshot!(check(&board("1", r###"
    {"title": "A", "content": "见[启动命令](#启动命令)、[FAQ](#faq)、[第二节](#setup-1)\n\n## 启动命令\n\n## FAQ\n\n## Setup\n\n## Setup"}
  "###)), @"no problems");
    insta::assert_snapshot!(check(&board("1", r###"
    {"title": "A", "content": "## 启动命令\n\n`sra-cli start`"},
    {"title": "B", "content": "见[启动命令](#启动命令)。\n\n## 说明"},
    {"title": "C", "content": "见[上文](#top)。"}
  "###)), @r#"
    error[markdown-link] data/_announcements/zh-CN.json:5:40: the link `#启动命令` in `content` names no heading of this announcement
      help: link to a heading of this same announcement, written as its slug (lower case, spaces as `-`, punctuation dropped): `#说明`
    error[markdown-link] data/_announcements/zh-CN.json:6:38: the link `#top` in `content` names no heading of this announcement
      help: this announcement has no headings: add one, such as `## top`, or link to an absolute https:// URL instead; a `#` link names a heading of its own announcement only
    "#);
}

#[test]
fn a_per_locale_kind_reads_and_writes_its_paths() {
    let path = KIND.locale_path("zh-CN").unwrap();
    assert!(path.ends_with("/_announcements/zh-CN.json"), "{path}");
    assert_eq!(KIND.locale_of(&path), Some("zh-CN"));
    let dir = path.strip_suffix("zh-CN.json").unwrap();
    assert_eq!(KIND.locale_of(&format!("{dir}notes.txt")), None);
    assert_eq!(KIND.locale_of(&format!("{dir}.json")), None);
    assert_eq!(KIND.locale_of(&path.replace("_announcements", "sr")), None);
    assert_eq!(kind::activities::KIND.locale_path("zh-CN"), None);
    assert!(KIND.claims(&format!("{dir}notes.txt")));
    assert!(!KIND.claims(&format!("{dir}x/zh-CN.json")));
}

#[test]
fn an_alias_never_takes_a_name_the_board_publishes_under() {
    let names = [("", Naming::Plain), ("en-US", Naming::Localized)];
    let documents = names.map(|(l, d)| KIND.published_path(l, d, "json").unwrap());
    let schema = KIND.schema.as_ref().map(|s| s.published).unwrap();
    for taken in documents.iter().map(String::as_str).chain([schema]) {
        assert!(!kind::is_alias_path(taken), "{taken}");
        assert!(kind::of_published(taken).is_some() || taken == schema);
    }
}
