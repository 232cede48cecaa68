//! Pages, calendars, `_headers`, precompressed siblings and `diff`, on a
//! small fixture built in the test and, for `diff`, against a loopback server.

use std::collections::BTreeMap;
use std::io::Read as _;

use activity_site::model::{Activity, ActivityDocument, Game, Localized, Time};
use activity_site::review::{FileStatus, Report, Schemas, compare, diff_file};
use activity_site::site::compress::{Compression, add_precompressed};
use activity_site::site::headers::render_headers;
use activity_site::site::ics::{escape_text, fold_line, render_calendars};
use activity_site::site::pages::render_pages;
use activity_site::site::{GameOutput, LocaleDocument, OutputFile};
use chrono::NaiveDateTime;

use crate::util::{FIXTURE_NOW, crate_root, fixture_root, run, stderr, stdout};

fn at(s: &str) -> Time {
    Time::parse(s).expect("fixture time")
}

fn time(s: &str) -> NaiveDateTime {
    at(s).naive()
}

fn activity(
    name: &str,
    kind: Option<&str>,
    description: &str,
    start: &str,
    end: &str,
    cover: &str,
) -> Activity {
    Activity {
        id: None,
        name: name.to_owned(),
        kind: kind.map(str::to_owned),
        description: description.to_owned(),
        start_time: at(start),
        end_time: at(end),
        cover: Some(cover.to_owned()),
    }
}

/// A game with a 40-day version (2026-10-01 11:00 to 2026-11-10 03:59:59):
/// one activity began before it, one ends after it, one is upcoming at
/// [`NOW`], one has ended, and the text fields hold characters HTML and
/// iCalendar must escape.
fn fixture_game(time_zone: &str) -> GameOutput {
    let document = |locale: &str| {
        let zh = locale == "zh-CN";
        ActivityDocument {
            schema: None,
            version: "1.2".to_owned(),
            version_name: if zh { "星海之歌" } else { "Song of Stars" }.to_owned(),
            start_time: at("2026-10-01T11:00:00"),
            end_time: at("2026-11-10T03:59:59"),
            cover: Some("https://example.org/version.jpg".to_owned()),
            activities: vec![
                activity(
                    if zh { "回归签到" } else { "Welcome back" },
                    None,
                    "",
                    "2026-09-21T11:00:00",
                    "2026-10-11T03:59:59",
                    "",
                ),
                activity(
                    if zh {
                        "星海巡游"
                    } else {
                        "Star <Cruise> & Co"
                    },
                    Some(if zh { "探索" } else { "Exploration" }),
                    "Explore, collect; win \\ repeat.\nSecond line, with a comma.",
                    "2026-10-10T10:00:00",
                    "2026-10-31T03:59:59",
                    "https://example.org/cruise.jpg",
                ),
                activity(
                    if zh {
                        "终局挑战"
                    } else {
                        "Final challenge"
                    },
                    None,
                    "A challenge whose description is long enough that its calendar line must be folded at seventy-five octets, and then some more text so that it folds twice.",
                    "2026-10-20T04:00:00",
                    "2026-11-17T03:59:59",
                    "",
                ),
                activity(
                    if zh { "限时商店" } else { "Limited shop" },
                    Some("Shop"),
                    "Opens later.",
                    "2026-10-29T10:00:00",
                    "2026-11-05T03:59:59",
                    "",
                ),
            ],
        }
    };
    GameOutput {
        game: Game {
            id: "demo".to_owned(),
            name: Localized::Many(
                [
                    ("zh-CN".to_owned(), "示例".to_owned()),
                    ("en-US".to_owned(), "Demo".to_owned()),
                ]
                .into_iter()
                .collect(),
            ),
            locales: vec!["zh-CN".to_owned(), "en-US".to_owned()],
            default_locale: "zh-CN".to_owned(),
            data_source: Some(Localized::One("https://example.org/news".to_owned())),
            conventions: Default::default(),
            data_sources: None,
            time_zone: Some(time_zone.to_owned()),
            update_mode: None,
            time_zone_assumed: false,
            aliases: Vec::new(),
        },
        documents: ["zh-CN", "en-US"]
            .into_iter()
            .map(|locale| LocaleDocument::new(locale, locale == "zh-CN", document(locale)))
            .collect(),
    }
}

fn file<'a>(files: &'a [OutputFile], path: &str) -> &'a str {
    let f = files.iter().find(|f| f.path == path).unwrap_or_else(|| {
        panic!(
            "no {path} among {:?}",
            files.iter().map(|f| &f.path).collect::<Vec<_>>()
        )
    });
    std::str::from_utf8(&f.bytes).expect("UTF-8")
}

// Pages.

#[test]
fn pages_are_written_per_game_and_locale() {
    let files = render_pages(&[fixture_game("Asia/Shanghai")]).expect("renders");
    let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "index.html",
            "en-US/index.html",
            "demo/index.html",
            "demo/en-US/index.html",
            "404.html"
        ]
    );
}

#[test]
fn pages_match_their_snapshots() {
    let files = render_pages(&[fixture_game("Asia/Shanghai")]).expect("renders");
    let page = |path| without_assets(file(&files, path));
    insta::assert_snapshot!("page_index", page("index.html"));
    insta::assert_snapshot!("page_index_en_us", page("en-US/index.html"));
    insta::assert_snapshot!("page_demo_zh_cn", page("demo/index.html"));
    insta::assert_snapshot!("page_demo_en_us", page("demo/en-US/index.html"));
    insta::assert_snapshot!("page_404", page("404.html"));
}

/// A page with its inline style sheet and script (the same on every page,
/// tested on their own) replaced by their names, for readable snapshots.
fn without_assets(page: &str) -> String {
    use activity_site::site::pages::{SCRIPT, STYLE, TIMELINE_STYLE};
    assert!(page.contains(&format!("<style>{STYLE}</style>")));
    page.replace(STYLE, "/* style.css */")
        .replace(TIMELINE_STYLE, "/* timeline.css */")
        .replace(SCRIPT, "/* live.js */")
}

#[test]
fn pages_are_deterministic() {
    let a = render_pages(&[fixture_game("Asia/Shanghai")]).expect("renders");
    let b = render_pages(&[fixture_game("Asia/Shanghai")]).expect("renders");
    assert_eq!(a, b);
}

#[test]
fn timeline_bars_are_placed_by_date_and_clipped_to_the_version() {
    let files = render_pages(&[fixture_game("Asia/Shanghai")]).expect("renders");
    let page = file(&files, "demo/en-US/index.html");
    let span = (time("2026-11-10T03:59:59") - time("2026-10-01T11:00:00")).num_seconds() as f64;
    let share =
        |t: &str| (time(t) - time("2026-10-01T11:00:00")).num_seconds() as f64 / span * 100.0;
    // Began before the version: starts at 0 and is marked as clipped.
    let first_width = share("2026-10-11T03:59:59");
    assert!(page.contains(&format!(
        r#"class="bar before" style="left: 0.00%; width: {first_width:.2}%""#
    )));
    // Inside the version.
    let (left, right) = (share("2026-10-10T10:00:00"), share("2026-10-31T03:59:59"));
    assert!(page.contains(&format!(
        r#"class="bar" style="left: {left:.2}%; width: {:.2}%""#,
        right - left
    )));
    // Ends after the version: clipped at 100%.
    let left = share("2026-10-20T04:00:00");
    assert!(page.contains(&format!(
        r#"class="bar after" style="left: {left:.2}%; width: {:.2}%""#,
        100.0 - left
    )));
    // The now line is the script's: hidden, placed by the reader's clock.
    assert_eq!(
        page.matches(r#"<div class="nowline" hidden></div>"#)
            .count(),
        4
    );
}

#[test]
fn pages_follow_the_locale_and_link_relatively() {
    let files = render_pages(&[fixture_game("Asia/Shanghai")]).expect("renders");
    let zh = file(&files, "demo/index.html");
    assert!(zh.starts_with("<!doctype html>\n<html lang=\"zh-CN\">"));
    assert!(zh.contains("进行中") && zh.contains("时间线"));
    // A subscription link beside each download (webcal:// once the
    // script knows the page's address).
    assert!(zh.contains(r#"<a class="webcal" href="../api/v1/activity/demo.ics" type="text/calendar">订阅日历（webcal）</a>"#));
    assert!(zh.contains(r#"href="../api/v1/activity/demo.json""#));
    assert!(zh.contains(r#"href="../api/v1/activity/demo.ics""#));
    assert!(zh.contains(r#"href="../demo/en-US/""#));

    let en = file(&files, "demo/en-US/index.html");
    assert!(en.contains("<html lang=\"en-US\">"));
    assert!(en.contains("Ongoing") && en.contains("Timeline"));
    assert!(en.contains(r#"href="../../api/v1/activity/demo-en-US.json""#));
    assert!(en.contains(r#"href="../../api/v1/activity/demo-en-US.ics""#));
    assert!(en.contains(r#"href="../../demo/""#));
    assert!(en.contains(r#"<time datetime="2026-10-10T10:00:00+08:00">2026-10-10 10:00</time>"#));

    let index = file(&files, "index.html");
    for href in [
        "demo/",
        "demo/en-US/",
        "api/v1/activity/demo.json",
        "api/v1/activity/demo.ics",
        "api/v1/activity/demo-en-US.json",
        "api/v1/activity/demo-en-US.ics",
    ] {
        assert!(
            index.contains(&format!("href=\"{href}\"")),
            "index links {href}"
        );
    }
    // No absolute links: the site works under any sub-path.
    for page in [zh, en, index] {
        assert!(!page.contains("href=\"/"));
    }
}

#[test]
fn pages_escape_data_and_lazy_load_covers() {
    let files = render_pages(&[fixture_game("Asia/Shanghai")]).expect("renders");
    let en = file(&files, "demo/en-US/index.html");
    assert!(en.contains("Star &lt;Cruise&gt; &amp; Co"));
    assert!(!en.contains("<Cruise>"));
    assert!(en.contains(r#"<img class="cover" src="https://example.org/cruise.jpg" alt="Cover of Star &lt;Cruise&gt; &amp; Co" width="256" height="144" loading="lazy""#));
    // Empty covers give no image.
    assert_eq!(en.matches("<img class=\"cover\"").count(), 1);
    // Self-contained: no external scripts, styles or fonts; one inline script.
    assert!(!en.contains("<script src") && !en.contains("<link rel=\"stylesheet\""));
    assert_eq!(en.matches("<script>").count(), 1);
    assert!(en.contains("prefers-color-scheme: dark"));
}

/// Issue 45: what depends on "now" is the script's; the page as built
/// says no state, lists the times with their zone, says what to do
/// without the script, and carries the out-of-date notice for the script
/// to show from the moment the version ends.
#[test]
fn the_index_says_no_state_and_carries_the_out_of_date_notice() {
    let files = render_pages(&[fixture_game("Asia/Shanghai")]).expect("renders");
    let index = file(&files, "en-US/index.html");
    assert!(index.contains("Version <strong>1.2</strong> · Song of Stars"));
    // The words the script reads are data after the page's body.
    let body = index
        .split(r#"<script type="application/json""#)
        .next()
        .unwrap();
    for state in [
        "days left",
        "Ongoing",
        "Ended",
        "aria-valuenow",
        "style=\"width",
    ] {
        assert!(!body.contains(state), "{state} in {body}");
    }
    assert!(index.contains(r#"<span>Asia/Shanghai, UTC+08:00</span>"#));
    assert!(index.contains(r#"<p class="stale-note" data-due="2026-11-10T03:59:59+08:00" role="status" hidden>Not updated yet: version 1.2 ended on November 10.</p>"#), "{index}");
    assert!(index.contains("<noscript><p class=\"noscript\">Turn on JavaScript"));
    let zh = file(&files, "index.html");
    assert!(
        zh.contains(">数据尚未更新：1.2 版本已于 11 月 10 日结束。</p>"),
        "{zh}"
    );
    let page = file(&files, "demo/index.html");
    assert!(page.contains(">数据尚未更新：1.2 版本已于 11 月 10 日结束。</p>"));
    assert!(
        page.contains("数据有效至 2026-11-10 03:59；若已过此时间，说明数据尚未更新。"),
        "{page}"
    );
}

// Calendars.

fn calendars(time_zone: &str) -> Vec<OutputFile> {
    render_calendars(&fixture_game(time_zone))
}

/// The content lines of a calendar, unfolded.
fn unfold(text: &str) -> Vec<String> {
    text.replace("\r\n ", "")
        .split("\r\n")
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect()
}

#[test]
fn calendars_are_written_for_the_default_and_every_locale() {
    let files = calendars("Asia/Shanghai");
    let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "api/v1/activity/demo.ics",
            "api/v1/activity/demo-zh-CN.ics",
            "api/v1/activity/demo-en-US.ics"
        ]
    );
    assert_eq!(
        file(&files, "api/v1/activity/demo.ics"),
        file(&files, "api/v1/activity/demo-zh-CN.ics")
    );
}

#[test]
fn calendar_has_one_event_per_activity_in_the_game_zone() {
    let files = calendars("Asia/Shanghai");
    let text = file(&files, "api/v1/activity/demo-en-US.ics");
    let lines = unfold(text);
    assert_eq!(lines.first().map(String::as_str), Some("BEGIN:VCALENDAR"));
    assert_eq!(lines.last().map(String::as_str), Some("END:VCALENDAR"));
    assert_eq!(lines.iter().filter(|l| *l == "BEGIN:VEVENT").count(), 4);
    assert!(lines.contains(&"DTSTART;TZID=Asia/Shanghai:20261010T100000".to_owned()));
    assert!(lines.contains(&"DTEND;TZID=Asia/Shanghai:20261031T035959".to_owned()));
    assert!(lines.contains(&"X-WR-CALNAME:Demo activities".to_owned()));
    assert!(lines.iter().any(|l| l.starts_with("PRODID:")));
    // DTSTAMP: the version start in UTC, the same for every event.
    assert_eq!(
        lines
            .iter()
            .filter(|l| *l == "DTSTAMP:20261001T030000Z")
            .count(),
        4
    );
    // Asia/Shanghai has no DST: one STANDARD observance at +08:00.
    let tz: Vec<&str> = lines
        .iter()
        .skip_while(|l| *l != "BEGIN:VTIMEZONE")
        .take_while(|l| *l != "END:VTIMEZONE")
        .map(String::as_str)
        .collect();
    assert_eq!(
        tz,
        [
            "BEGIN:VTIMEZONE",
            "TZID:Asia/Shanghai",
            "BEGIN:STANDARD",
            "DTSTART:19700101T000000",
            "TZOFFSETFROM:+0800",
            "TZOFFSETTO:+0800",
            "TZNAME:CST",
            "END:STANDARD"
        ]
    );
    insta::assert_snapshot!("calendar_demo_en_us", text.replace("\r\n", "⏎\n"));
}

#[test]
fn calendar_lines_end_in_crlf_and_fold_at_75_octets() {
    for f in calendars("Asia/Shanghai") {
        let text = std::str::from_utf8(&f.bytes).expect("UTF-8");
        assert!(text.ends_with("\r\n"));
        assert!(
            !text.replace("\r\n", "").contains('\n'),
            "bare LF in {}",
            f.path
        );
        for line in text.split("\r\n") {
            assert!(
                line.len() <= 75,
                "{} has a {}-octet line: {line}",
                f.path,
                line.len()
            );
        }
    }
    let long = format!("SUMMARY:{}", "星".repeat(40));
    let folded = fold_line(&long);
    assert!(folded.split("\r\n").all(|l| l.len() <= 75));
    // Folding never splits a character: every piece is valid UTF-8 by construction.
    assert_eq!(folded.replace("\r\n ", "").trim_end(), long);
}

#[test]
fn calendar_text_is_escaped() {
    assert_eq!(escape_text("a,b;c\\d\ne"), "a\\,b\\;c\\\\d\\ne");
    assert_eq!(escape_text("x\r\ny"), "x\\ny");
    let files = calendars("Asia/Shanghai");
    let lines = unfold(file(&files, "api/v1/activity/demo-en-US.ics"));
    assert!(lines.contains(&"SUMMARY:Star <Cruise> & Co".to_owned()));
    assert!(lines.iter().any(|l| l.starts_with(
        "DESCRIPTION:Explore\\, collect\\; win \\\\ repeat.\\nSecond line\\, with a comma.\\n\\nDemo 1.2"
    )));
    assert!(lines.contains(&"CATEGORIES:Exploration".to_owned()));
}

#[test]
fn calendars_are_deterministic_with_stable_distinct_uids() {
    assert_eq!(calendars("Asia/Shanghai"), calendars("Asia/Shanghai"));
    let files = calendars("Asia/Shanghai");
    let uids = |path: &str| -> Vec<String> {
        unfold(file(&files, path))
            .into_iter()
            .filter(|l| l.starts_with("UID:"))
            .collect()
    };
    let zh = uids("api/v1/activity/demo-zh-CN.ics");
    let en = uids("api/v1/activity/demo-en-US.ics");
    assert_eq!(zh.len(), 4);
    let all: std::collections::BTreeSet<&String> = zh.iter().chain(&en).collect();
    assert_eq!(all.len(), 8, "UIDs differ between events and locales");
    assert_eq!(
        activity_site::site::ics::uid("demo", "en-US", "Limited shop", "2026-10-29T10:00:00"),
        activity_site::site::ics::uid("demo", "en-US", "Limited shop", "2026-10-29T10:00:00")
    );
}

#[test]
fn calendars_of_a_dst_zone_describe_both_offsets() {
    let files = calendars("Europe/Berlin");
    let lines = unfold(file(&files, "api/v1/activity/demo-en-US.ics"));
    assert!(lines.contains(&"DTSTART;TZID=Europe/Berlin:20261010T100000".to_owned()));
    // Berlin leaves summer time on 2026-10-25 at 03:00 local.
    let tz = lines.join("\n");
    assert!(
        tz.contains("BEGIN:DAYLIGHT\nDTSTART:19700101T000000")
            || tz.contains("BEGIN:STANDARD\nDTSTART:19700101T000000")
    );
    assert!(tz.contains(
        "BEGIN:STANDARD\nDTSTART:20261025T030000\nTZOFFSETFROM:+0200\nTZOFFSETTO:+0100\nTZNAME:CET"
    ));
    assert!(tz.contains(
        "BEGIN:DAYLIGHT\nDTSTART:20260329T020000\nTZOFFSETFROM:+0100\nTZOFFSETTO:+0200\nTZNAME:CEST"
    ));
}

// Headers and precompressed files.

#[test]
fn headers_give_the_api_cors_and_every_path_one_cache_policy() {
    let headers = render_headers(&[fixture_game("Asia/Shanghai")], &[]);
    assert_eq!(headers.path, "_headers");
    let text = String::from_utf8(headers.bytes).expect("UTF-8");
    // The policy's hashes change with the style sheet and the script,
    // which a test of their own ties to the policy.
    let redacted: String = text
        .split("'sha256-")
        .enumerate()
        .map(|(i, part)| match (i, part.split_once('\'')) {
            (0, _) | (_, None) => part.to_owned(),
            (_, Some((_, rest))) => format!("'sha256-…'{rest}"),
        })
        .collect();
    insta::assert_snapshot!("headers", redacted);
    let rules: BTreeMap<&str, Vec<&str>> = text
        .split("\n\n")
        .filter_map(|block| {
            let mut lines = block.lines().filter(|l| !l.starts_with('#'));
            Some((lines.next()?, lines.map(str::trim).collect()))
        })
        .collect();
    assert!(rules["/api/*"].contains(&"Access-Control-Allow-Origin: *"));
    assert!(
        rules["/api/*"]
            .iter()
            .any(|h| h.starts_with("Cache-Control: public, max-age="))
    );
    for page in ["/", "/index.html", "/404.html", "/en-US/*", "/demo/*"] {
        assert!(
            rules[page].iter().any(|h| h.starts_with("Cache-Control:")),
            "{page}"
        );
    }
    assert!(!rules["/*"].iter().any(|h| h.starts_with("Cache-Control:")));
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .expect("gzip");
    out
}

fn unbrotli(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    brotli::Decompressor::new(bytes, 4096)
        .read_to_end(&mut out)
        .expect("brotli");
    out
}

#[test]
fn precompressed_siblings_round_trip_and_only_when_smaller() {
    let page = render_pages(&[fixture_game("Asia/Shanghai")]).expect("renders");
    let big = page
        .into_iter()
        .find(|f| f.path == "index.html")
        .expect("index");
    let mut files = vec![
        big.clone(),
        OutputFile {
            path: "api/v1/activity/tiny.json".into(),
            bytes: b"{}\n".to_vec(),
        },
        OutputFile {
            path: "cover.png".into(),
            bytes: vec![b'a'; 4096],
        },
        render_headers(&[], &[]),
    ];
    add_precompressed(&mut files, Compression::Max);
    let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "index.html",
            "index.html.br",
            "index.html.gz",
            "api/v1/activity/tiny.json",
            "cover.png",
            "_headers"
        ]
    );
    let br = &files[1].bytes;
    let gz = &files[2].bytes;
    assert!(br.len() < big.bytes.len() && gz.len() < big.bytes.len());
    assert_eq!(unbrotli(br), big.bytes);
    assert_eq!(gunzip(gz), big.bytes);
    // Gzip header: no flags (no file name), mtime 0, OS "unknown".
    assert_eq!(&gz[..10], &[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 255]);

    // Deterministic, and running it again adds nothing.
    let mut again = vec![big.clone()];
    add_precompressed(&mut again, Compression::Max);
    assert_eq!(again, files[..3]);
    add_precompressed(&mut again, Compression::Max);
    assert_eq!(again.len(), 3);
}

// Diff.

fn json_doc(doc: &ActivityDocument) -> Vec<u8> {
    let doc = ActivityDocument {
        schema: None,
        ..doc.clone()
    };
    doc.to_canonical().into_bytes()
}

#[test]
fn diff_reports_nothing_for_the_same_document_formatted_differently() {
    let doc = fixture_game("Asia/Shanghai").documents[1].document.clone();
    let compact = serde_json::to_vec(&doc).expect("json");
    let d = diff_file(
        "api/v1/activity/demo-en-US.json",
        &json_doc(&doc),
        Some(&compact),
    )
    .expect("diff");
    // Same content in other bytes: clients revalidating see a new ETag.
    assert_eq!(d.status, FileStatus::Reformatted);
}

/// A base nobody checked may write a time that is not one: `diff` reads it
/// as written, quotes it so, and counts what it cannot place as unknown.
#[test]
fn diff_reads_a_base_whose_times_are_not_times_as_written() {
    let built = fixture_game("Asia/Shanghai").documents[1].document.clone();
    let mut base: serde_json::Value = serde_json::from_slice(&json_doc(&built)).unwrap();
    base["activities"][1]["endTime"] = "2026-10-31 03:59:59".into();
    let mut gone = base["activities"][0].clone();
    gone["name"] = "Old event".into();
    gone["startTime"] = "soon".into();
    base["activities"].as_array_mut().unwrap().push(gone);
    let base = serde_json::to_vec_pretty(&base).unwrap();
    let d = compare(
        "api/v1/activity/demo-en-US.json",
        Some(&json_doc(&built)),
        Some(&base),
        Some(time(FIXTURE_NOW)),
        &Schemas::default(),
    );
    assert_eq!(d.status, FileStatus::Changed);
    assert!(d.note.is_none(), "{:?}", d.note);
    // The same name with its end written another way: moved, by no day.
    assert_eq!(d.moved.len(), 1, "{d:?}");
    assert_eq!(d.moved[0].from.end_time, "2026-10-31 03:59:59");
    assert_eq!(d.moved[0].to.end_time, "2026-10-31T03:59:59");
    assert_eq!((d.moved[0].start_days, d.moved[0].end_days), (0, 0));
    // Gone, starting "soon": listed as written, its place unknown.
    assert_eq!(d.removed.len(), 1, "{d:?}");
    assert_eq!(d.removed[0].start_time, "soon");
    assert_eq!(d.removed[0].when, None);
    assert!(d.breaking.is_empty(), "{:?}", d.breaking);
}

#[test]
fn diff_lists_version_and_activity_changes() {
    let old = fixture_game("Asia/Shanghai").documents[1].document.clone();
    let mut new = old.clone();
    new.version = "1.3".into();
    new.activities[1].end_time = at("2026-11-01T03:59:59");
    new.activities[1].cover = Some(String::new());
    new.activities.remove(3);
    new.activities.push(activity(
        "Login gift",
        None,
        "",
        "2026-11-01T10:00:00",
        "2026-11-08T03:59:59",
        "",
    ));
    let report = Report::new(
        "https://example.org",
        [
            (
                "api/v1/activity/demo-en-US.json",
                json_doc(&new).as_slice(),
                Some(json_doc(&old).as_slice()),
            ),
            (
                "api/v1/activity/demo-en-US.ics.json",
                json_doc(&new).as_slice(),
                None,
            ),
            (
                "api/v1/activity/demo.json",
                json_doc(&old).as_slice(),
                Some(b"<html>".as_slice()),
            ),
        ],
    );
    assert!(report.has_changes());
    let [changed, added, replaced] = &report.files[..] else {
        panic!("three files")
    };
    assert_eq!(changed.status, FileStatus::Changed);
    assert_eq!(changed.version.len(), 1);
    assert_eq!(changed.added.len(), 1);
    assert_eq!(changed.removed.len(), 1);
    // The same name at another end time is one activity moved, not two.
    assert_eq!(changed.moved.len(), 1);
    // 2026-10-31T03:59:59 to 2026-11-01T03:59:59: one whole day later.
    assert_eq!(changed.moved[0].end_days, 1);
    let fields: Vec<&str> = changed
        .changed
        .iter()
        .flat_map(|c| c.fields.iter().map(|f| f.field))
        .collect();
    assert_eq!(fields, ["cover"]);
    assert_eq!(added.status, FileStatus::New);
    // A base copy that is not a document: changed, with a note saying why.
    assert_eq!(replaced.status, FileStatus::Changed);
    assert!(replaced.note.is_some());
    insta::assert_snapshot!("diff_text", report.to_text(&["demo".to_owned()].into()));
    insta::assert_json_snapshot!(
        "diff_json",
        serde_json::from_str::<serde_json::Value>(&report.to_json()).expect("json")
    );
}

#[test]
fn diff_against_a_loopback_deployment() {
    let root = fixture_root(None);
    let out = run(
        root.path(),
        &["build", "--out", "deployed", "--now", FIXTURE_NOW],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let deployed = root.path().join("deployed");
    let base = crate::util::serve_folder(&deployed);

    // The same data: nothing to deploy.
    let out = run(
        root.path(),
        &["diff", "--against", &base, "--now", FIXTURE_NOW],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    assert!(
        // The API: three documents, their calendars, the index, the
        // schemas (activity, announcements, the index's and the API
        // catalog's), the OpenAPI description and the page of its base.
        stdout(&out).contains(&format!(
            "11 files (13 paths, 2 of them a second name of a file) compared with {base}: 0 changed, 0 reformatted, 0 new, 0 removed, 11 unchanged"
        )),
        "{}",
        stdout(&out)
    );

    // The deployed copy differs: an older version name, a missing file.
    let en = deployed.join("api/v1/activity/demo-en-US.json");
    let text = std::fs::read_to_string(&en).expect("deployed file");
    let mut doc: serde_json::Value = serde_json::from_str(&text).expect("json");
    doc["versionName"] = "Old name".into();
    std::fs::write(&en, serde_json::to_string(&doc).expect("json")).expect("write");
    std::fs::remove_file(deployed.join("api/v1/activity/demo-zh-CN.json")).expect("remove");
    // The deployed index also lists a game this build no longer has.
    let index_path = deployed.join("api/v1/games.json");
    let mut index: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&index_path).expect("index")).expect("json");
    let mut gone = index["games"][0].clone();
    gone["id"] = "gone".into();
    gone["files"] = serde_json::json!([{"path": "/api/v1/activity/gone.json"}]);
    index["games"].as_array_mut().expect("games").push(gone);
    std::fs::write(&index_path, index.to_string()).expect("write");

    let out = run(
        root.path(),
        &[
            "diff",
            "--against",
            &format!("{base}/"),
            "--now",
            FIXTURE_NOW,
        ],
    );
    // The game the index lists and this build lacks is a removed file: breaking.
    assert_eq!(
        out.status.code(),
        Some(3),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    let text = stdout(&out);
    assert!(
        text.contains("api/v1/activity/demo-en-US.json: changed"),
        "{text}"
    );
    assert!(text.contains("versionName: \"Old name\" -> "), "{text}");
    assert!(
        text.contains("api/v1/activity/demo-zh-CN.json: new"),
        "{text}"
    );

    let out = run(
        root.path(),
        &[
            "diff",
            "--against",
            &base,
            "--format",
            "json",
            "--now",
            FIXTURE_NOW,
        ],
    );
    assert_eq!(out.status.code(), Some(3));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    assert_eq!(report["changes"], true);
    let statuses: BTreeMap<String, String> = report["files"]
        .as_array()
        .expect("files")
        .iter()
        .map(|f| {
            (
                f["path"].as_str().unwrap_or_default().to_owned(),
                f["status"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    assert_eq!(statuses["api/v1/activity/demo.json"], "unchanged");
    assert_eq!(statuses["api/v1/activity/demo-en-US.json"], "changed");
    assert_eq!(statuses["api/v1/activity/demo-zh-CN.json"], "new");
    assert_eq!(statuses["api/v1/activity/gone.json"], "removed");
}

/// Issue 22: `diff` read whole bodies with no limit (8 GB of memory against
/// a server answering 300 MB a file). It stops reading past the per-file
/// limit with an error naming the file and the limit, and exits 2.
#[test]
fn diff_stops_reading_a_body_past_the_limit() {
    let root = fixture_root(None);
    let out = run(
        root.path(),
        &["build", "--out", "deployed", "--now", FIXTURE_NOW],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    // One file streams without end and without a length; the rest is the site.
    let endless = axum::routing::get(|| async {
        let chunk = bytes::Bytes::from(vec![b' '; 64 * 1024]);
        let chunks = futures::stream::repeat_with(move || Ok::<_, std::io::Error>(chunk.clone()));
        axum::body::Body::from_stream(chunks)
    });
    let base = crate::util::serve_on_loopback(
        axum::Router::new()
            .route("/api/v1/activity/demo-en-US.json", endless)
            .fallback_service(tower_http::services::ServeDir::new(
                root.path().join("deployed"),
            )),
    );
    let out = run(
        root.path(),
        &["diff", "--against", &base, "--now", FIXTURE_NOW],
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!("{base}/api/v1/activity/demo-en-US.json")),
        "{err}"
    );
    assert!(err.contains("larger than the limit of 8 MiB"), "{err}");
}

#[test]
fn diff_fails_clearly_when_the_site_is_unreachable() {
    let root = fixture_root(None);
    // A port that was just free: nothing listens there.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("free port")
        .port();
    let out = run(
        root.path(),
        &[
            "diff",
            "--against",
            &format!("http://127.0.0.1:{port}"),
            "--timeout",
            "30",
            "--now",
            FIXTURE_NOW,
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("cannot fetch http://127.0.0.1:"), "{err}");
    assert!(err.contains("unreachable"), "{err}");

    let out = run(
        root.path(),
        &["diff", "--against", "not a url", "--now", FIXTURE_NOW],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("has no scheme"), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("no folder `not a url` exists either"),
        "{}",
        stderr(&out)
    );

    let out = run(
        root.path(),
        &["diff", "--against", "http://[::1", "--now", FIXTURE_NOW],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("is not a URL"), "{}", stderr(&out));
}

#[test]
fn diff_against_an_empty_server_says_nothing_was_found_there() {
    let root = fixture_root(None);
    let empty = tempfile::tempdir().expect("tempdir");
    let base = crate::util::serve_folder(empty.path());
    let out = run(
        root.path(),
        &["diff", "--against", &base, "--now", FIXTURE_NOW],
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{}{err}", stdout(&out));
    assert_eq!(stdout(&out), "", "no list of every activity as new");
    assert!(
        err.starts_with(&format!(
            "error: nothing found at {base}: {base}/api/v1/games.json"
        )),
        "{err}"
    );
    assert!(err.contains("help: give the site's base URL"), "{err}");
}

#[test]
fn diff_reads_a_base_ending_in_api_v1_as_the_site_root() {
    let root = fixture_root(None);
    let out = run(
        root.path(),
        &["build", "--out", "deployed", "--now", FIXTURE_NOW],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let base = crate::util::serve_folder(&root.path().join("deployed"));
    let at_root = run(
        root.path(),
        &["diff", "--against", &base, "--now", FIXTURE_NOW],
    );
    assert_eq!(at_root.status.code(), Some(0), "{}", stderr(&at_root));
    for api in [format!("{base}/api/v1"), format!("{base}/api/v1/")] {
        let out = run(
            root.path(),
            &["diff", "--against", &api, "--now", FIXTURE_NOW],
        );
        assert_eq!(out.status.code(), Some(0), "{api}: {}", stderr(&out));
        assert_eq!(stdout(&out), stdout(&at_root), "{api}");
    }
}

#[test]
fn a_url_without_a_scheme_gets_a_help_line_to_add_http() {
    let root = fixture_root(None);
    for args in [
        ["diff", "--against", "127.0.0.1:8765"],
        ["diff", "--against", "example.com/site"],
        ["import", "--from", "127.0.0.1:8765"],
    ] {
        let out = run(root.path(), &args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("has no scheme"), "{args:?}: {err}");
        assert!(
            err.contains(&format!(
                "help: add http:// or https:// in front: {} http://{}",
                args[1], args[2]
            )),
            "{args:?}: {err}"
        );
    }
    // A folder that does not exist is still reported as one.
    let out = run(root.path(), &["import", "--from", "no-such-folder"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("is neither a folder nor an http(s) URL"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn the_bundled_data_renders_pages_and_calendars() {
    // Real data: every game has a page per locale and calendars whose events
    // match its activities.
    let options = activity_site::validate::Options {
        now: Some(time("2026-11-22T12:00:00").into()),
        ..Default::default()
    };
    let checked =
        activity_site::site::check_documents(&crate_root(), &options).expect("bundled data loads");
    assert!(!checked.has_errors());
    let games = activity_site::site::outputs(&checked);
    let pages = render_pages(&games).expect("pages render");
    for game in &games {
        assert!(
            pages
                .iter()
                .any(|f| f.path == format!("{}/index.html", game.game.id))
        );
        for (file, doc) in render_calendars(game).iter().skip(1).zip(&game.documents) {
            let text = std::str::from_utf8(&file.bytes).expect("UTF-8");
            assert_eq!(
                text.matches("BEGIN:VEVENT\r\n").count(),
                doc.document.activities.len(),
                "{}",
                file.path
            );
        }
    }
}

// Home pages through the build, on a tree shaped like the bundled data.

/// `tests/fixtures/pages` built at `now` (no cache, no siblings) into a temp dir.
fn build_pages_fixture(now: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let root = tempfile::tempdir().expect("temp dir");
    crate::util::copy_tree(&crate_root().join("tests/fixtures/pages"), root.path());
    let out = root.path().join("site");
    let mut options = activity_site::site::BuildOptions::new(root.path(), &out);
    options.now = Some(time(now).into());
    options.cache = None;
    options.compression = Compression::None;
    let outcome = activity_site::site::build(&options).expect("builds");
    assert!(outcome.summary.is_some(), "{:?}", outcome.diagnostics);
    (root, out)
}

fn read_page(out: &std::path::Path, path: &str) -> String {
    std::fs::read_to_string(out.join(path)).unwrap_or_else(|_| panic!("{path} was built"))
}

/// Issue 34: zh-CN is the default of every game, en-US the second locale
/// of two, and one game has zh-CN only. The home pages list, per game,
/// every activity that ends inside or after its version (the script shows
/// the ongoing ones that end soonest), in each page's language.
#[test]
fn home_pages_per_language_list_what_may_end_soonest_through_the_build() {
    let (_root, out) = build_pages_fixture("2026-11-24T12:00:00");
    let zh = read_page(&out, "index.html");
    let en = read_page(&out, "en-US/index.html");
    assert!(zh.contains("<html lang=\"zh-CN\">"));
    assert!(en.contains("<html lang=\"en-US\">"));
    // Each links to the other, as an alternate and in the language menu.
    assert!(zh.contains(r#"<link rel="alternate" hreflang="en-US" href="en-US/">"#));
    assert!(zh.contains(r#"<link rel="alternate" hreflang="zh-CN" href="./">"#));
    assert!(en.contains(r#"<link rel="alternate" hreflang="zh-CN" href="../">"#));
    assert!(en.contains(r#"<a href="../" hreflang="zh-CN" lang="zh-CN">简体中文</a>"#));
    // By their end, for the script to pick from, each with its game's name.
    assert!(zh.contains(r##"<li data-i="1" data-start="2026-11-05T10:00:00+08:00" data-end="2026-11-26T03:59:59+08:00" data-game="阿尔法" hidden><a href="alpha/#activity-2">限时巡游</a> <span class="muted rem"></span></li>"##), "{zh}");
    assert!(
        en.contains(r##"<a href="../alpha/en-US/#activity-2">Limited cruise</a>"##),
        "{en}"
    );
    // A game without an English document shows its Chinese one on the English page.
    assert!(en.contains(r##"<a href="../beta/#activity-1">远航补给</a>"##));
    // The cross-game list above the games, filled by the script.
    assert!(zh.contains(r#"<h2 id="soonest-title">各游戏即将结束的活动</h2>"#));
    assert!(en.contains(r#"<h2 id="soonest-title">Ending soonest in every game</h2>"#));
    insta::assert_snapshot!("build_home_zh_cn", without_assets(&zh));
    insta::assert_snapshot!("build_home_en_us", without_assets(&en));

    // Every game page's "all games" goes to its own language's home page.
    for (page, home) in [
        (
            "alpha/index.html",
            r#"<a class="brand" href="../">全部游戏</a>"#,
        ),
        (
            "alpha/en-US/index.html",
            r#"<a class="brand" href="../../en-US/">All games</a>"#,
        ),
        (
            "beta/index.html",
            r#"<a class="brand" href="../">全部游戏</a>"#,
        ),
    ] {
        assert!(read_page(&out, page).contains(home), "{page}");
    }
}

/// Issue 45: the same tree built before anything starts and after
/// everything ends gives the same home pages: the state is the reader's.
#[test]
fn home_pages_before_and_after_every_version_are_the_same() {
    let (_root, before) = build_pages_fixture("2026-10-01T00:00:00");
    let (_root2, after) = build_pages_fixture("2027-02-01T00:00:00");
    for page in ["index.html", "en-US/index.html", "alpha/index.html"] {
        assert_eq!(read_page(&before, page), read_page(&after, page), "{page}");
    }
}

/// Issue 34: the script and the style sheet of a game page stay under
/// 8 KB gzip together, and the page's Content-Security-Policy allows
/// exactly its inline style sheet and script, by their hashes.
#[test]
fn a_page_is_light_and_its_policy_allows_exactly_its_inline_code() {
    use activity_site::site::compress::gzip_bytes;
    use activity_site::site::pages::{SCRIPT, STYLE, content_security_policy, csp_hash};
    let weight = gzip_bytes(STYLE.as_bytes(), 9).len() + gzip_bytes(SCRIPT.as_bytes(), 9).len();
    assert!(
        weight < 8 * 1024,
        "script and styles weigh {weight} bytes gzip"
    );

    let files = render_pages(&[fixture_game("Asia/Shanghai")]).expect("renders");
    let page = file(&files, "demo/en-US/index.html");
    let inside = |open: &str, close: &str| -> Vec<String> {
        page.split(open)
            .skip(1)
            .map(|rest| rest.split(close).next().unwrap().to_owned())
            .collect()
    };
    let policy = content_security_policy();
    let styles = inside("<style>", "</style>");
    let scripts = inside("<script>", "</script>");
    assert_eq!((styles.len(), scripts.len()), (1, 1));
    let style_src = policy
        .split("; ")
        .find(|d| d.starts_with("style-src "))
        .expect("a style-src");
    assert!(style_src.contains(&csp_hash(&styles[0])), "{policy}");
    assert!(
        policy.contains(&format!("script-src {};", csp_hash(&scripts[0]))),
        "{policy}"
    );
    assert!(policy.starts_with("default-src 'none';"));
    // The strings the script reads are data, which no policy runs.
    assert!(page.contains(r#"<script type="application/json" id="ui">"#));
    let headers = render_headers(&[fixture_game("Asia/Shanghai")], &[]);
    assert!(
        std::str::from_utf8(&headers.bytes)
            .unwrap()
            .contains(&format!("  Content-Security-Policy: {policy}\n"))
    );
}

/// Issue 47: the page words come from the `.ftl` files; a page's data
/// block carries each word its script reads (`ui.<name>`, `ui[state]`),
/// in the page's language, and no other.
#[test]
fn a_page_carries_the_words_its_script_reads_in_its_language() {
    use activity_site::site::pages::SCRIPT;
    let files = render_pages(&[fixture_game("Asia/Shanghai")]).expect("renders");
    let mut read: std::collections::BTreeSet<String> = SCRIPT
        .match_indices("ui.")
        .map(|(at, _)| {
            SCRIPT[at + 3..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect::<String>()
        })
        .collect();
    // `ui[st]`: the name of each state.
    assert!(SCRIPT.contains("ui[st]"));
    read.extend(["upcoming", "ongoing", "ended"].map(str::to_owned));
    for (path, ongoing) in [
        ("demo/index.html", "进行中"),
        ("demo/en-US/index.html", "Ongoing"),
    ] {
        let page = file(&files, path);
        let json = page
            .split(r#"<script type="application/json" id="ui">"#)
            .nth(1)
            .and_then(|rest| rest.split("</script>").next())
            .expect("a data block");
        let words: BTreeMap<String, String> = serde_json::from_str(json).expect("JSON");
        assert_eq!(
            words
                .keys()
                .cloned()
                .collect::<std::collections::BTreeSet<_>>(),
            read,
            "{path}"
        );
        assert_eq!(words["ongoing"], ongoing);
    }
}

/// Issue 45: a game whose registry says `"updateMode": "activity"` is out
/// of date when its last activity ends (2026-11-17 here, a week after the
/// version's end), and its notice says so in each language.
#[test]
fn an_activity_game_is_out_of_date_when_its_last_activity_ends() {
    let mut game = fixture_game("Asia/Shanghai");
    game.game.update_mode = Some(activity_site::model::UpdateMode::Activity);
    let files = render_pages(&[game]).expect("renders");
    let en = file(&files, "demo/en-US/index.html");
    assert!(en.contains(r#"<p class="stale-note" data-due="2026-11-17T03:59:59+08:00" role="status" hidden>Not updated yet: the last activity ended on November 17.</p>"#), "{en}");
    assert!(en.contains("This data is current until 2026-11-17 03:59;"));
    let zh = file(&files, "index.html");
    assert!(zh.contains(r#"data-due="2026-11-17T03:59:59+08:00" role="status" hidden>数据尚未更新：最后一项活动已于 11 月 17 日结束。</p>"#), "{zh}");
}

// Issue 66: the timeline page, through the build.

/// The timeline page of each language: every game's group, in the
/// registry's order, behind its version's span, a bar per activity placed
/// by the hours since the epoch of its instants (what the style sheet
/// reads), each a link to the activity on its game's page; the table of
/// the same facts with every time in the game's zone; the overdue notice
/// left to the script; linked from the home and game pages and llms.txt.
#[test]
fn the_timeline_page_shows_every_game_on_one_axis_through_the_build() {
    let (_root, out) = build_pages_fixture("2026-12-01T12:00:00");
    let zh = read_page(&out, "timeline/index.html");
    let en = read_page(&out, "en-US/timeline/index.html");
    assert!(zh.contains("<html lang=\"zh-CN\">") && en.contains("<html lang=\"en-US\">"));
    // One axis: from the earliest version start to the latest end.
    assert!(en.contains(r#"<div class="tl-chart" data-axis-start="2026-11-01T11:00:00+08:00" data-axis-end="2027-01-05T03:59:59+08:00" style="--t0: 498195.0000; --t1: 499747.9997">"#), "{en}");
    // 2026-11-05T10:00:00+08:00 is 498290 hours after the epoch.
    assert!(en.contains(r##"<a class="tl-row" href="../../alpha/en-US/#activity-2" tabindex="-1" data-start="2026-11-05T10:00:00+08:00" data-end="2026-11-26T03:59:59+08:00" style="--s: 498290.0000; --e: 498787.9997"><span class="tl-label">Limited cruise <span class="rem"></span></span>"##), "{en}");
    assert!(zh.contains(r##"<a class="tl-row" href="../alpha/#activity-2""##));
    // The games in the registry's order, a game without an English
    // document in its default one.
    let order: Vec<usize> = ["id=\"alpha\"", "id=\"beta\"", "id=\"gamma\""]
        .iter()
        .map(|id| en.find(id).expect("every game has a group"))
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]));
    assert!(en.contains(r##"<a href="../../beta/#activity-2">冬季活动</a>"##));
    // The table: every activity with its start and end in the game's zone.
    assert!(en.contains(
        r#"<td><time datetime="2026-11-26T03:59:59+08:00">2026-11-26 03:59</time></td>"#
    ));
    assert!(en.contains(r#"<caption>Alpha, version 1.0, in Asia/Shanghai, UTC+08:00: "#));
    // The out-of-date notice, shown by the script from the due time only.
    assert!(en.contains(
        r#"<p class="stale-note" data-due="2026-12-10T03:59:59+08:00" role="status" hidden>"#
    ));
    // Its own style sheet, which the site's policy allows by its hash.
    use activity_site::site::pages::{TIMELINE_STYLE, content_security_policy, csp_hash};
    assert!(en.contains(&format!("<style>{TIMELINE_STYLE}</style>")));
    assert!(content_security_policy().contains(&csp_hash(TIMELINE_STYLE)));
    insta::assert_snapshot!("build_timeline_zh_cn", without_assets(&zh));
    insta::assert_snapshot!("build_timeline_en_us", without_assets(&en));

    // Linked from the home pages, the game pages and llms.txt.
    for (page, link) in [
        ("index.html", r#"<a href="timeline/">全部游戏时间线</a>"#),
        (
            "en-US/index.html",
            r#"<a href="timeline/">Timeline of every game</a>"#,
        ),
        (
            "alpha/index.html",
            r#"<a href="../timeline/">全部游戏时间线</a>"#,
        ),
        (
            "alpha/en-US/index.html",
            r#"<a href="../../en-US/timeline/">Timeline of every game</a>"#,
        ),
    ] {
        assert!(read_page(&out, page).contains(link), "{page}");
    }
    assert!(read_page(&out, "llms.txt").contains("- [Timeline](/timeline/): "));
}

/// Issue 66: two builds of the same data a minute apart (and a version
/// apart) give the same timeline pages, byte for byte: "now" is the
/// reader's.
#[test]
fn timeline_pages_built_at_other_moments_are_the_same() {
    let (_a, first) = build_pages_fixture("2026-12-01T12:00:00");
    let (_b, later) = build_pages_fixture("2026-12-01T12:01:00");
    let (_c, after) = build_pages_fixture("2027-02-01T00:00:00");
    for page in ["timeline/index.html", "en-US/timeline/index.html"] {
        let bytes = std::fs::read(first.join(page)).expect("built");
        assert_eq!(
            bytes,
            std::fs::read(later.join(page)).expect("built"),
            "{page}"
        );
        assert_eq!(
            bytes,
            std::fs::read(after.join(page)).expect("built"),
            "{page}"
        );
    }
}

// The API's reference page (issue 62).

/// `tests/fixtures/pages` built at a pinned "now" for `https://example.org/`,
/// after `edit` has changed the copied tree.
fn build_reference_fixture(
    edit: impl FnOnce(&std::path::Path),
) -> (tempfile::TempDir, std::path::PathBuf) {
    let root = tempfile::tempdir().expect("temp dir");
    crate::util::copy_tree(&crate_root().join("tests/fixtures/pages"), root.path());
    edit(root.path());
    let out = root.path().join("site");
    let mut options = activity_site::site::BuildOptions::new(root.path(), &out);
    options.now = Some(time("2026-11-24T12:00:00").into());
    options.cache = None;
    options.compression = Compression::None;
    options.site_url =
        Some(activity_site::layout::SiteUrl::parse("https://example.org/").expect("a URL"));
    let outcome = activity_site::site::build(&options).expect("builds");
    assert!(outcome.summary.is_some(), "{:?}", outcome.diagnostics);
    (root, out)
}

/// Every published schema of a built site: its file's stem and its fields.
fn published_fields(out: &std::path::Path) -> Vec<(String, activity_site::site::reference::Field)> {
    let mut all = Vec::new();
    let dir = out.join("api/v1/schema");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .expect("schemas")
        .map(|e| e.expect("entry").file_name().into_string().expect("UTF-8"))
        .filter(|n| n.ends_with(".json"))
        .collect();
    names.sort();
    for name in names {
        let schema: serde_json::Value =
            serde_json::from_str(&read_page(&dir, &name)).expect("a schema");
        let stem = name.trim_end_matches(".json").to_owned();
        for field in activity_site::site::reference::fields(&schema) {
            all.push((stem.clone(), field));
        }
    }
    all
}

/// Issue 62: the reference page, in each language of a home page, lists
/// every game, every path of the OpenAPI description, every field of
/// every published schema, a real document of the build and the three
/// snippets, under the site's address; the home page links to it and the
/// catalog and llms.txt name it.
#[test]
fn the_reference_page_shows_every_game_path_field_and_snippet_in_both_languages() {
    // beta lists an English document it does not have yet: a pending locale.
    let (_root, out) = build_reference_fixture(|root| {
        let path = root.join("games.json");
        let mut games: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).expect("games.json"))
                .expect("JSON");
        games["games"][1]["locales"] = serde_json::json!(["zh-CN", "en-US"]);
        std::fs::write(&path, serde_json::to_string_pretty(&games).expect("JSON"))
            .expect("written");
    });
    let zh = read_page(&out, "api-reference/index.html");
    let en = read_page(&out, "en-US/api-reference/index.html");
    assert!(zh.contains("<html lang=\"zh-CN\">") && zh.contains("<h1>API 参考</h1>"));
    assert!(en.contains("<html lang=\"en-US\">") && en.contains("<h1>API reference</h1>"));
    let fields = published_fields(&out);
    assert!(fields.len() > 50, "{} fields", fields.len());
    let openapi: serde_json::Value =
        serde_json::from_str(&read_page(&out, "api/v1/openapi.json")).expect("JSON");
    let document = read_page(&out, "api/v1/activity/alpha.json");
    let mut example: serde_json::Value = serde_json::from_str(&document).expect("JSON");
    example["activities"]
        .as_array_mut()
        .expect("a list")
        .truncate(2);
    let example =
        activity_site::site::pages::escape_html(&activity_site::model::to_pretty(&example));
    for page in [&zh, &en] {
        for game in ["alpha", "beta", "gamma"] {
            assert!(
                page.contains(&format!("<tr id=\"game-{game}\"><td><code>{game}</code>")),
                "{game}"
            );
        }
        for path in openapi["paths"].as_object().expect("paths").keys() {
            let path = activity_site::site::pages::escape_html(path);
            assert!(
                page.contains(&format!("<td><code>{path}</code></td>")),
                "{path}"
            );
        }
        for (stem, field) in &fields {
            let row = format!(
                "<tr><td><code class=\"field\">{}</code></td><td><code>{}</code></td>",
                field.path,
                activity_site::site::pages::escape_html(&field.ty)
            );
            assert!(page.contains(&row), "{stem}: {row}");
        }
        assert!(page.contains(&format!(
            "<pre class=\"code\" id=\"example-json\"><code>{example}</code></pre>"
        )));
        assert!(page.contains("curl -s https://example.org/api/v1/games.json"));
        assert!(page.contains("new ActivityClient({ baseUrl: &quot;https://example.org&quot; })"));
        assert!(page.contains("client.game(&quot;alpha&quot;, locale=&quot;en-US&quot;)"));
        assert!(!page.contains("<script"), "readable without script");
    }
    // The pending locale is said; the meanings are in the page's language.
    assert!(
        zh.contains("<span class=\"locale\"><code>en-US</code>（待补：尚无文档）</span>"),
        "{zh}"
    );
    assert!(
        en.contains("<span class=\"locale\"><code>en-US</code> (pending: no document yet)</span>")
    );
    assert!(zh.contains("<td>活动的稳定 id，分配后即出现："));
    assert!(en.contains("<td>The activity's stable id, present once assigned: "));
    assert!(read_page(&out, "index.html").contains(r#"<a href="api-reference/">API 参考</a>"#));
    assert!(
        read_page(&out, "en-US/index.html")
            .contains(r#"<a href="api-reference/">API reference</a>"#)
    );
    assert!(
        read_page(&out, ".well-known/api-catalog")
            .contains(r#""href": "https://example.org/api-reference/""#)
    );
    assert!(read_page(&out, "llms.txt").contains("- [API reference](/api-reference/)"));
    insta::assert_snapshot!("reference_zh_cn", without_assets(&zh));
    insta::assert_snapshot!("reference_en_us", without_assets(&en));
}

/// Issue 62: a field added to a tree's schema is on the page, in both
/// languages (in English on the Chinese page until it is translated).
#[test]
fn a_field_added_to_a_schema_appears_on_the_reference_page() {
    let (_root, out) = build_reference_fixture(|root| {
        let builtin = activity_site::kind::activities::BUILTIN_SCHEMA;
        let mut schema: serde_json::Value = serde_json::from_str(builtin).expect("JSON");
        schema["$defs"]["activity"]["properties"]["reminder"] = serde_json::json!({
            "description": "When a player should be reminded, in server time.",
            "type": "string"
        });
        std::fs::create_dir_all(root.join("schema")).expect("schema dir");
        std::fs::write(
            root.join("schema/activity.schema.json"),
            serde_json::to_string_pretty(&schema).expect("JSON"),
        )
        .expect("written");
    });
    let row = r#"<tr><td><code class="field">activities[].reminder</code></td><td><code>string</code></td><td class="present">可选</td><td lang="en">When a player should be reminded, in server time.</td></tr>"#;
    assert!(read_page(&out, "api-reference/index.html").contains(row));
    let row = r#"<tr><td><code class="field">activities[].reminder</code></td><td><code>string</code></td><td class="present">optional</td><td>When a player should be reminded, in server time.</td></tr>"#;
    assert!(read_page(&out, "en-US/api-reference/index.html").contains(row));
}

/// Issue 62: every field of the published schemas has its meaning in
/// both languages, and each English message is the schema's own
/// description (a changed description asks for its translation again);
/// every message of a field or a schema's title names one that is published.
#[test]
fn every_published_field_has_its_meaning_in_both_languages() {
    use activity_site::i18n::{EN_US_FTL, Lang, lookup};
    use activity_site::site::reference::{DERIVED_MESSAGES, field_message_id, schema_title_id};
    let (_root, out) = build_reference_fixture(|_| {});
    let mut problems = Vec::new();
    let mut named = std::collections::BTreeSet::new();
    for (stem, field) in published_fields(&out) {
        named.insert(schema_title_id(&stem));
        let id = field_message_id(&stem, &field.path);
        let english = lookup(&id, Lang::EnUs);
        if english.is_none() || lookup(&id, Lang::ZhCn).is_none() {
            problems.push(format!(
                "{stem}: `{}` has no meaning `{id}` in both .ftl files",
                field.path
            ));
        } else if let Some(description) = &field.description
            && english.as_deref() != Some(description.as_str())
        {
            problems.push(format!(
                "{stem}: `{}`: the description is now {description:?}: copy it into `{id}` of en-US.ftl and translate it again in zh-CN.ftl",
                field.path
            ));
        }
        named.insert(id);
    }
    for title in named
        .iter()
        .filter(|id| id.starts_with(DERIVED_MESSAGES[0]))
    {
        if lookup(title, Lang::EnUs).is_none() || lookup(title, Lang::ZhCn).is_none() {
            problems.push(format!("no title `{title}` in both .ftl files"));
        }
    }
    for line in EN_US_FTL.lines() {
        let id = line.split(" =").next().unwrap_or_default();
        if DERIVED_MESSAGES.iter().any(|p| id.starts_with(p)) && !named.contains(id) {
            problems.push(format!("`{id}` names no published schema or field"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
