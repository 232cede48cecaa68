//! The rules beyond the schema: dates, order, URLs, duplicates, the registry,
//! locale parity, staleness, whitespace and invisible characters, and the
//! tree's mirror of the built-in activity schema ([`schema_valid`]). Document
//! rules read the parsed tree; registry rules read its `serde_json::Value`.

use std::collections::BTreeSet;

// A fast, seeded hasher for the maps of short strings built for every document.
use foldhash::{HashMap, HashMapExt as _, HashSet, HashSetExt as _};

use chrono::{NaiveDate, NaiveDateTime, Timelike};
use serde_json::Value;

use super::Reporter;
use super::spans::Target;
use crate::chars::is_format;
use crate::diagnostics::Code;
use crate::diagnostics::Severity::{self, Error, Warning};
use crate::i18n::{Msg, msg};
use crate::json::{self, Json, Node};
use crate::model::{Game, is_game_id, parse_time};

/// The rules of one activity document.
pub fn document(doc: &Node<'_>, now: NaiveDateTime, report: &mut Reporter<'_>) {
    let version_start = time_field(doc, &Base(None), "startTime", report);
    let version_end = time_field(doc, &Base(None), "endTime", report);
    if let (Some(start), Some(end)) = (version_start, version_end) {
        if end <= start {
            report.value(
                "/endTime",
                Code::TimeOrder,
                Error,
                msg!("time-order-version", end = iso(end), start = iso(start)),
                Some(msg!("time-order-help")),
            );
        }
        if end < now {
            report.value(
                "/endTime",
                Code::Stale,
                Warning,
                msg!(
                    "stale",
                    date = end.format("%Y-%m-%d %H:%M").to_string(),
                    days = crate::model::days::whole_days(end, now).unsigned_abs()
                ),
                Some(msg!("stale-help")),
            );
        }
        if start > now {
            report.value(
                "/startTime",
                Code::UpcomingVersion,
                Warning,
                msg!(
                    "upcoming-version",
                    date = start.format("%Y-%m-%d %H:%M").to_string(),
                    days = crate::model::days::whole_days(now, start).unsigned_abs()
                ),
                Some(msg!("upcoming-version-help")),
            );
        }
    }
    cover(doc, &Base(None), report);
    for field in ["version", "versionName"] {
        whitespace(doc, &Base(None), field, report);
    }

    let Some(activities) = doc.get("activities").and_then(Node::as_array) else {
        return;
    };
    let mut seen: HashMap<(&str, &str), usize> = HashMap::new();
    let mut previous_start: Option<NaiveDateTime> = None;
    for (i, activity) in activities.iter().enumerate() {
        let base = Base(Some(i));
        let start = time_field(activity, &base, "startTime", report);
        let end = time_field(activity, &base, "endTime", report);
        if let (Some(start), Some(end)) = (start, end) {
            if end <= start {
                report.value(
                    &format!("{base}/endTime"),
                    Code::TimeOrder,
                    Error,
                    msg!("time-order-activity", end = iso(end), start = iso(start)),
                    Some(msg!("time-order-help")),
                );
                // The root cause: whether the activity lies in the version
                // says nothing until its own times are in order.
            } else if let (Some(vs), Some(ve)) = (version_start, version_end)
                && vs < ve
            {
                if end < vs {
                    report.value(
                        &format!("{base}/endTime"),
                        Code::OutsideVersion,
                        Warning,
                        msg!("outside-version-before", end = iso(end), start = iso(vs)),
                        Some(msg!("outside-version-before-help")),
                    );
                } else if start > ve {
                    report.value(
                        &format!("{base}/startTime"),
                        Code::OutsideVersion,
                        Warning,
                        msg!("outside-version-after", start = iso(start), end = iso(ve)),
                        Some(msg!("outside-version-after-help")),
                    );
                }
            }
        }
        // An activity that lasts the whole version ends when the version
        // does (the maintenance time, such as 06:00:00): that is not the
        // off-by-a-second mistake this rule looks for.
        if let Some(end) = end
            && end.second() != 59
            && Some(end) != version_end
        {
            let suggested = end - chrono::Duration::seconds(i64::from(end.second()) + 1);
            let suggested = if end.second() == 0 {
                suggested.format(crate::model::TIME_FORMAT).to_string()
            } else {
                end.with_second(59)
                    .unwrap_or(end)
                    .format(crate::model::TIME_FORMAT)
                    .to_string()
            };
            report.value(
                &format!("{base}/endTime"),
                Code::EndOfMinute,
                Warning,
                msg!("end-of-minute", seconds = format!("{:02}", end.second())),
                Some(msg!("end-of-minute-help", suggested = suggested.as_str())),
            );
            report.fix_string(&format!("{base}/endTime"), Target::Value, &suggested);
        }
        if let Some(start) = start {
            if let Some(prev) = previous_start
                && start < prev
            {
                report.value(
                    &format!("{base}/startTime"),
                    Code::Unsorted,
                    Warning,
                    msg!("unsorted", start = iso(start), previous = iso(prev)),
                    Some(msg!("unsorted-help")),
                );
            }
            previous_start = Some(start);
        }
        let name = activity.get("name").and_then(Node::as_str);
        let start_text = activity.get("startTime").and_then(Node::as_str);
        if let (Some(name), Some(start_text)) = (name, start_text)
            && let Some(first) = seen.insert((name, start_text), i)
        {
            report.value(
                &format!("{base}/name"),
                Code::DuplicateActivity,
                Error,
                msg!(
                    "duplicate-activity",
                    name = name,
                    start = start_text,
                    first = first
                ),
                Some(msg!("duplicate-activity-help")),
            );
        }
        cover(activity, &base, report);
        for field in ["name", "kind", "description"] {
            whitespace(activity, &base, field, report);
        }
    }
}

/// The pointer of the document (`None`) or of one activity, written out only
/// when there is something to report.
struct Base(Option<usize>);

impl std::fmt::Display for Base {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(i) => write!(f, "/activities/{i}"),
            None => Ok(()),
        }
    }
}

/// A time as the data writes it.
fn iso(time: NaiveDateTime) -> String {
    time.format(crate::model::TIME_FORMAT).to_string()
}

/// Reads and checks the date-time `field` of `object`; `None` when absent or invalid.
fn time_field(
    object: &Node<'_>,
    base: &Base,
    field: &str,
    report: &mut Reporter<'_>,
) -> Option<NaiveDateTime> {
    let text = object.get(field)?.as_str()?;
    match parse_time(text) {
        Some(time) => Some(time),
        None => {
            let (message, help) = explain_time(text);
            report.value(
                &format!("{base}/{field}"),
                Code::Datetime,
                Error,
                message,
                Some(help),
            );
            // An end written without seconds may mean :00 or :59: the help
            // shows the rewrite, but it is no exact fix there.
            let seconds = text.matches([':', '\u{FF1A}']).count() >= 2 || field != "endTime";
            if let Some(rewritten) = rewrite_time(text).filter(|_| seconds) {
                report.fix_string(&format!("{base}/{field}"), Target::Value, &rewritten);
            }
            None
        }
    }
}

/// The same time written as the data writes it (`YYYY-MM-DDTHH:MM:SS`),
/// when `text` is a real local time in a form people also use and the
/// rewrite is certain: a zone, an offset or a fraction after a good local
/// time (dropped), slashes for the date's dashes, a space for the `T`, the
/// full-width colon `：` of an input method, one-digit parts, no seconds
/// (`:00`). `None` for anything else, such as hour 24 or a day that does not exist.
pub fn rewrite_time(text: &str) -> Option<String> {
    if text.len() > 19
        && text.is_char_boundary(19)
        && text[19..].starts_with(['Z', '+', '-', '.'])
        && parse_time(&text[..19]).is_some()
    {
        return Some(text[..19].to_string());
    }
    let ascii = text.replace('\u{FF1A}', ":");
    let (date, time) = ascii.split_once(['T', ' '])?;
    let part = |s: &str, max: usize| -> Option<u32> {
        (!s.is_empty() && s.len() <= max && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse().ok())
            .flatten()
    };
    let date: Vec<&str> = date.split(['-', '/']).collect();
    let time: Vec<&str> = time.split(':').collect();
    let ([y, mo, d], [h, mi, rest @ ..]) = (date.as_slice(), time.as_slice()) else {
        return None;
    };
    let seconds = match rest {
        [] => 0,
        [s] => part(s, 2)?,
        _ => return None,
    };
    if y.len() != 4 {
        return None;
    }
    let candidate = format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{seconds:02}",
        part(y, 4)?,
        part(mo, 2)?,
        part(d, 2)?,
        part(h, 2)?,
        part(mi, 2)?
    );
    (candidate != text && parse_time(&candidate).is_some()).then_some(candidate)
}

/// Says why `text` is not a `YYYY-MM-DDTHH:MM:SS` local time: the message and the help line.
pub fn explain_time(text: &str) -> (Msg, Msg) {
    let form = msg!("datetime-form-help");
    let bytes = text.as_bytes();
    let shape_ok = |s: &[u8]| {
        s.len() == 19
            && s.iter().enumerate().all(|(i, b)| match i {
                4 | 7 => *b == b'-',
                10 => *b == b'T',
                13 | 16 => *b == b':',
                _ => b.is_ascii_digit(),
            })
    };
    if bytes.len() > 19 && shape_ok(&bytes[..19]) {
        let rest = &text[19..];
        let prefix = &text[..19];
        if rest.starts_with('.') {
            return (
                msg!("datetime-fraction", text = text),
                msg!("datetime-fraction-help", prefix = prefix),
            );
        }
        if rest == "Z" || rest.starts_with('+') || rest.starts_with('-') {
            return (
                msg!("datetime-offset", text = text, rest = rest),
                msg!("datetime-offset-help", prefix = prefix),
            );
        }
    }
    if !shape_ok(bytes) {
        if bytes.len() == 10 && NaiveDate::parse_from_str(text, "%Y-%m-%d").is_ok() {
            return (
                msg!("datetime-no-time", text = text),
                msg!("datetime-no-time-help", text = text),
            );
        }
        if bytes.len() == 19 && bytes[10] == b' ' {
            return (
                msg!("datetime-space", text = text),
                msg!(
                    "datetime-space-help",
                    fixed = format!("{}T{}", &text[..10], &text[11..])
                ),
            );
        }
        if let Some(rewritten) = rewrite_time(text) {
            if text.contains('\u{FF1A}') {
                return (
                    msg!("datetime-fullwidth-colon", text = text),
                    msg!("datetime-fullwidth-colon-help", fixed = rewritten),
                );
            }
            if text.contains('/') {
                return (
                    msg!("datetime-slashes", text = text),
                    msg!("datetime-slashes-help", fixed = rewritten),
                );
            }
            return (
                msg!("datetime-shape", text = text),
                msg!("datetime-rewrite-help", fixed = rewritten),
            );
        }
        return (msg!("datetime-shape", text = text), form);
    }
    let num = |r: std::ops::Range<usize>| text[r].parse::<u32>().unwrap_or(0);
    let (year, month, day) = (num(0..4) as i32, num(5..7), num(8..10));
    let (hour, minute, second) = (num(11..13), num(14..16), num(17..19));
    if !(1..=12).contains(&month) {
        return (
            msg!("datetime-month", text = text, month = month),
            msg!("datetime-month-help"),
        );
    }
    if NaiveDate::from_ymd_opt(year, month, day).is_none() {
        let last = (28..=31)
            .rev()
            .find(|d| NaiveDate::from_ymd_opt(year, month, *d).is_some())
            .unwrap_or(28);
        return (
            msg!(
                "datetime-day",
                text = text,
                month = month,
                year = year,
                last = last
            ),
            msg!("datetime-day-help"),
        );
    }
    if hour == 24 && minute == 0 && second == 0 {
        let next = NaiveDate::from_ymd_opt(year, month, day)
            .and_then(|d| d.succ_opt())
            .map_or(String::new(), |d| d.format("%Y-%m-%d").to_string());
        return (
            msg!("datetime-hour-24", text = text),
            msg!("datetime-hour-24-help", date = &text[..10], next = next),
        );
    }
    if hour > 23 || minute > 59 || second > 59 {
        return (
            msg!("datetime-time", text = text),
            msg!("datetime-time-help"),
        );
    }
    (msg!("datetime-invalid", text = text), form)
}

fn cover(object: &Node<'_>, base: &Base, report: &mut Reporter<'_>) {
    let Some(url) = object.get("cover").and_then(Node::as_str) else {
        return;
    };
    if url.is_empty() {
        return;
    }
    let (scheme, rest) = url.split_once("://").unwrap_or(("", url));
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    // ASCII text without spaces or controls is the common case, checked by
    // bytes; anything else is looked at character by character.
    let plain = |c: char| !(c.is_whitespace() || c.is_control());
    let well_formed = !host.is_empty()
        && (url.bytes().all(|b| b.is_ascii_graphic()) || url.chars().all(plain))
        && host
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '.' | ':' | '[' | ']' | '@' | '_'));
    let https = scheme.eq_ignore_ascii_case("https");
    if https && well_formed {
        return;
    }
    let pointer = format!("{base}/cover");
    match scheme.eq_ignore_ascii_case("http") {
        true if well_formed => report.value(
            &pointer,
            Code::CoverUrl,
            Warning,
            msg!("cover-http", url = url),
            Some(msg!("cover-http-help", rest = rest)),
        ),
        _ => report.value(
            &pointer,
            Code::CoverUrl,
            Error,
            msg!("cover-invalid", url = url),
            Some(msg!("cover-invalid-help")),
        ),
    }
}

fn whitespace(object: &Node<'_>, base: &Base, field: &str, report: &mut Reporter<'_>) {
    let Some(text) = object.get(field).and_then(Node::as_str) else {
        return;
    };
    let trimmed = text.trim();
    if trimmed.len() != text.len() {
        report.value(
            &format!("{base}/{field}"),
            Code::Whitespace,
            Warning,
            msg!("whitespace-trim", field = field),
            Some(msg!("did-you-mean", name = trimmed)),
        );
    }
}

/// What kind of unwanted character `c` is, if it is one.
fn invisible_class(c: char) -> Option<Msg> {
    let class = match c {
        '\u{200B}'..='\u{200D}' | '\u{2060}' | '\u{FEFF}' => msg!("class-zero-width"),
        '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' => msg!("class-bidi"),
        c if c.is_control() => msg!("class-control"),
        c if is_format(c) => msg!("class-format"),
        _ => return None,
    };
    Some(class)
}

/// Whether `text` may hold a control or format character. A first pass
/// marks the bytes that could start one (ASCII controls and the lead bytes
/// C2, D8 to DC, E0 to E2, EF, F0, F3), sixteen at a time; each marked byte
/// is then settled by the bytes after it, so that CJK text and its
/// punctuation (`，` is EF BC 8C, `—` is E2 80 94) pass. Errs only on the
/// safe side: the caller decodes.
fn may_hold_invisible(text: &str, newline_allowed: bool) -> bool {
    let bytes = text.as_bytes();
    let next = |i: usize| bytes.get(i).copied().unwrap_or(0);
    let settled = |i: usize| match bytes[i] {
        b'\n' => !newline_allowed,
        b if b < 0x20 || b == 0x7F => true,
        0xC2 => matches!(next(i + 1), 0x80..=0x9F | 0xAD),
        0xE2 => matches!(
            (next(i + 1), next(i + 2)),
            (0x80, 0x8B..=0x8F | 0xAA..=0xAE) | (0x81, 0xA0..=0xAF)
        ),
        0xEF => matches!(
            (next(i + 1), next(i + 2)),
            (0xBB, 0xBF) | (0xBF, 0xB9..=0xBB)
        ),
        // D8, DB, DC, E0, E1, F0, F3 (and D9, DA, which the first pass
        // lets through): rare, decoded by the caller.
        _ => true,
    };
    let mut base = 0;
    for chunk in bytes.chunks(16) {
        let mut marks = lead_marks(chunk);
        while marks != 0 {
            if settled(base + marks.trailing_zeros() as usize) {
                return true;
            }
            marks &= marks - 1;
        }
        base += chunk.len();
    }
    false
}

/// One bit per byte of `chunk` (at most 16) that may start an invisible
/// character: below 0x20, 0x7F, C2, D8 to DC, E0 to E2, EF, F0 or F3.
fn lead_marks(chunk: &[u8]) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if chunk.len() == 16 {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is part of every x86_64 target, and the load reads
        // exactly the 16 bytes of `chunk`, unaligned.
        unsafe {
            let b = _mm_loadu_si128(chunk.as_ptr().cast());
            let at_most =
                |x: __m128i, max: i8| _mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(max)), x);
            let is = |v: u8| _mm_cmpeq_epi8(b, _mm_set1_epi8(v as i8));
            let within =
                |low: u8, span: i8| at_most(_mm_sub_epi8(b, _mm_set1_epi8(low as i8)), span);
            let marks = _mm_or_si128(
                _mm_or_si128(
                    _mm_or_si128(at_most(b, 0x1F), is(0x7F)),
                    _mm_or_si128(is(0xC2), within(0xD8, 4)),
                ),
                _mm_or_si128(
                    _mm_or_si128(within(0xE0, 2), is(0xEF)),
                    _mm_or_si128(is(0xF0), is(0xF3)),
                ),
            );
            return _mm_movemask_epi8(marks) as u32;
        }
    }
    chunk.iter().enumerate().fold(0, |marks, (k, &b)| {
        let lead = b < 0x20
            || b == 0x7F
            || b == 0xC2
            || (0xD8..=0xDC).contains(&b)
            || (0xE0..=0xE2).contains(&b)
            || matches!(b, 0xEF | 0xF0 | 0xF3);
        marks | (u32::from(lead) << k)
    })
}

/// `whitespace` for characters nobody sees: control characters, zero-width
/// ones, bidi controls and every other format character, in every string of
/// the file (line breaks are fine in a `description`). Reported at the
/// character itself.
pub fn invisible(node: &Node<'_>, key: Option<&str>, report: &mut Reporter<'_>) {
    match &node.value {
        Json::String(text) => {
            // Line breaks belong in an activity's description and an announcement's content.
            let multiline = matches!(key, Some("description" | "content"));
            if !may_hold_invisible(text, multiline) {
                return;
            }
            let field = key.unwrap_or("");
            let raw = report.source(node.start + 1, node.end.saturating_sub(1));
            for (index, c) in text.chars().enumerate() {
                if c == '\n' && multiline {
                    continue;
                }
                let Some(class) = invisible_class(c) else {
                    continue;
                };
                let in_raw = json::raw_offset(raw, index);
                let offset = node.start + 1 + in_raw;
                let escaped = raw.as_bytes().get(in_raw) == Some(&b'\\');
                let at = report.location(offset, offset + 1);
                let help = if escaped {
                    msg!("invisible-escaped-help", line = at.line, column = at.column)
                } else {
                    msg!("invisible-help", line = at.line, column = at.column)
                };
                report.push(
                    at,
                    Code::Whitespace,
                    Warning,
                    msg!(
                        "invisible",
                        keyed = if key.is_some() { "yes" } else { "no" },
                        field = field,
                        class = class,
                        code = format!("{:04X}", c as u32),
                        column = at.column
                    ),
                    Some(help),
                );
                // The character as written: itself, or its escape.
                let written = if !escaped {
                    c.len_utf8()
                } else if raw.as_bytes().get(in_raw + 1) == Some(&b'u') {
                    if c as u32 > 0xFFFF { 12 } else { 6 }
                } else {
                    2
                };
                report.fix_range(offset, offset + written, String::new());
            }
        }
        Json::Array(items) => {
            for item in items {
                invisible(item, key, report);
            }
        }
        Json::Object(members) => {
            for member in members {
                invisible(&member.value, Some(&member.key), report);
            }
        }
        _ => {}
    }
}

/// The keys an activity document may have (`schema/activity.schema.json`):
/// what [`schema_valid`] allows and what unknown-key hints suggest.
pub const DOCUMENT_KEYS: &[&str] = &[
    "$schema",
    "version",
    "versionName",
    "startTime",
    "endTime",
    "cover",
    "activities",
];

/// The keys an activity may have.
pub const ACTIVITY_KEYS: &[&str] = &[
    "name",
    "kind",
    "description",
    "startTime",
    "endTime",
    "cover",
];

/// Whether the built-in activity schema accepts the document, decided on
/// the tree: the same types, required and allowed keys, non-empty strings and
/// time pattern as `schema/activity.schema.json`. Only the verdict: the
/// diagnostics come from the schema itself.
pub fn schema_valid(doc: &Node<'_>) -> bool {
    fn object_ok(
        node: &Node<'_>,
        allowed: &[&str],
        required: &[&str],
        field_ok: impl Fn(&str, &Node<'_>) -> bool,
    ) -> bool {
        let Some(members) = node.as_object() else {
            return false;
        };
        required.iter().all(|r| members.iter().any(|m| m.key == *r))
            && members
                .iter()
                .all(|m| allowed.contains(&m.key.as_ref()) && field_ok(&m.key, &m.value))
    }
    fn non_empty(node: &Node<'_>) -> bool {
        node.as_str().is_some_and(|s| !s.is_empty())
    }
    fn time(node: &Node<'_>) -> bool {
        node.as_str().is_some_and(|s| {
            let b = s.as_bytes();
            b.len() == 19
                && b.iter().enumerate().all(|(i, c)| match i {
                    4 | 7 => *c == b'-',
                    10 => *c == b'T',
                    13 | 16 => *c == b':',
                    _ => c.is_ascii_digit(),
                })
        })
    }
    let activity_ok = |activity: &Node<'_>| {
        object_ok(
            activity,
            ACTIVITY_KEYS,
            &["name", "description", "startTime", "endTime"],
            |key, value| match key {
                "name" => non_empty(value),
                "startTime" | "endTime" => time(value),
                _ => value.as_str().is_some(),
            },
        )
    };
    object_ok(
        doc,
        DOCUMENT_KEYS,
        &[
            "version",
            "versionName",
            "startTime",
            "endTime",
            "activities",
        ],
        |key, value| match key {
            "version" | "versionName" => non_empty(value),
            "startTime" | "endTime" => time(value),
            "activities" => value.as_array().is_some_and(|a| a.iter().all(activity_ok)),
            _ => value.as_str().is_some(),
        },
    )
}

/// Whether `tag` looks like a BCP 47 language tag (language, script, region, variants).
pub fn is_language_tag(tag: &str) -> bool {
    let mut parts = tag.split('-');
    let Some(language) = parts.next() else {
        return false;
    };
    if !(2..=3).contains(&language.len()) || !language.chars().all(|c| c.is_ascii_alphabetic()) {
        return false;
    }
    parts.all(|p| (2..=8).contains(&p.len()) && p.chars().all(|c| c.is_ascii_alphanumeric()))
}

/// The registry rules (`games-registry`, `missing-file`, `orphan-file`).
/// Returns the games that parsed.
pub fn registry(file: &Value, data_files: &[String], report: &mut Reporter<'_>) -> Vec<Game> {
    let mut games = Vec::new();
    let Some(entries) = file.get("games").and_then(Value::as_array) else {
        return games;
    };
    // Looked up once per locale of every game: a set, not the list.
    let present: HashSet<&str> = data_files.iter().map(String::as_str).collect();
    let mut ids: HashMap<&str, usize> = HashMap::new();
    let mut listed: HashSet<String> = HashSet::new();
    let mut listed_games: HashSet<&str> = HashSet::new();
    for (i, entry) in entries.iter().enumerate() {
        let base = format!("/games/{i}");
        let id = entry.get("id").and_then(Value::as_str);
        if let Some(id) = id {
            listed_games.insert(id);
            if !is_game_id(id) {
                report.value(
                    &format!("{base}/id"),
                    Code::GamesRegistry,
                    Error,
                    msg!("registry-bad-id", id = id),
                    Some(msg!("registry-bad-id-help", suggestion = suggest_id(id))),
                );
            }
            if id == crate::layout::ANNOUNCEMENTS_PAGE_DIR {
                report.value(
                    &format!("{base}/id"),
                    Code::GamesRegistry,
                    Error,
                    msg!("registry-id-taken", id = id),
                    Some(msg!("registry-id-taken-help", id = id)),
                );
            }
            if let Some(first) = ids.insert(id, i) {
                report.value(
                    &format!("{base}/id"),
                    Code::GamesRegistry,
                    Error,
                    msg!("registry-duplicate-id", id = id, first = first),
                    Some(msg!("registry-duplicate-id-help")),
                );
            }
        }
        let locales: Vec<&str> = entry
            .get("locales")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut seen = HashSet::new();
        for (j, locale) in locales.iter().enumerate() {
            let pointer = format!("{base}/locales/{j}");
            if !is_language_tag(locale) {
                report.value(
                    &pointer,
                    Code::GamesRegistry,
                    Error,
                    msg!("registry-bad-locale", locale = *locale),
                    Some(msg!("registry-bad-locale-help")),
                );
            }
            if !seen.insert(*locale) {
                report.value(
                    &pointer,
                    Code::GamesRegistry,
                    Error,
                    msg!("registry-duplicate-locale", locale = *locale),
                    None,
                );
            }
            if let Some(id) = id {
                let path = crate::tree::data_path(id, locale);
                if !present.contains(path.as_str()) && is_game_id(id) && is_language_tag(locale) {
                    report.value(
                        &pointer,
                        Code::MissingFile,
                        Error,
                        msg!("missing-file", path = path.as_str()),
                        Some(msg!(
                            "missing-file-help",
                            path = path.as_str(),
                            locale = *locale
                        )),
                    );
                }
                listed.insert(path);
            }
        }
        if let Some(default) = entry.get("defaultLocale").and_then(Value::as_str)
            && !locales.is_empty()
            && !locales.contains(&default)
        {
            let help = super::did_you_mean(default, &locales)
                .map(|l| msg!("did-you-mean", name = l))
                .unwrap_or_else(|| {
                    msg!(
                        "registry-default-locale-help",
                        locales = crate::i18n::list(&locales)
                    )
                });
            report.value(
                &format!("{base}/defaultLocale"),
                Code::GamesRegistry,
                Error,
                msg!("registry-default-locale", default = default),
                Some(help),
            );
        }
        if let Some(sources) = entry.get("dataSources").and_then(Value::as_object) {
            data_sources(&base, sources, &locales, report);
        }
        if let Some(zone) = entry.get("timeZone").and_then(Value::as_str)
            && zone.parse::<chrono_tz::Tz>().is_err()
        {
            report.value(
                &format!("{base}/timeZone"),
                Code::GamesRegistry,
                Error,
                msg!("registry-time-zone", zone = zone),
                Some(msg!("registry-time-zone-help")),
            );
        }
        if let Ok(game) = serde_json::from_value::<Game>(entry.clone())
            && is_game_id(&game.id)
            && ids.get(game.id.as_str()) == Some(&i)
        {
            games.push(game);
        }
    }
    // Orphans: files no game lists. Reported in the orphan file itself.
    let mut orphans = BTreeSet::new();
    for path in data_files {
        if listed.contains(path) {
            continue;
        }
        orphans.insert(path.clone());
    }
    report_orphans(&orphans, &listed_games, report);
    games
}

/// The typed `dataSources` of one game: each key a locale of the game or
/// `all`; each source of a known `type`, with an absolute http(s) `url`
/// where it has one (and one where its type needs it), a `script` for a
/// script, and an `articleUrl` template that is an absolute http(s) URL with
/// a `{field}` placeholder. Structure (objects, strings) is the schema's.
fn data_sources(
    base: &str,
    sources: &serde_json::Map<String, Value>,
    locales: &[&str],
    report: &mut Reporter<'_>,
) {
    for (key, list) in sources {
        let at = format!("{base}/dataSources/{}", escape_pointer(key));
        if key != crate::model::ALL_LOCALES
            && !locales.is_empty()
            && !locales.contains(&key.as_str())
        {
            report.key(
                &at,
                Code::GamesRegistry,
                Error,
                msg!("source-locale", key = key.as_str()),
                Some(msg!("source-locale-help", locales = locales.join(", "))),
            );
        }
        let Some(list) = list.as_array() else {
            continue;
        };
        for (i, source) in list.iter().enumerate() {
            let at = format!("{at}/{i}");
            let kind = source.get("type").and_then(Value::as_str);
            if let Some(kind) = kind
                && !crate::model::DATA_SOURCE_TYPES.contains(&kind)
            {
                let help = super::did_you_mean(kind, crate::model::DATA_SOURCE_TYPES)
                    .map(|t| msg!("did-you-mean", name = t))
                    .unwrap_or_else(|| msg!("source-type-help"));
                report.value(
                    &format!("{at}/type"),
                    Code::GamesRegistry,
                    Error,
                    msg!("source-type", kind = kind),
                    Some(help),
                );
            }
            let url = source.get("url").and_then(Value::as_str);
            if let Some(url) = url
                && !is_http_url(url)
            {
                report.value(
                    &format!("{at}/url"),
                    Code::GamesRegistry,
                    Error,
                    msg!("source-url", url = url),
                    Some(msg!("source-url-help")),
                );
            }
            if url.is_none() && matches!(kind, Some("html" | "pageData")) {
                report.value(
                    &at,
                    Code::GamesRegistry,
                    Error,
                    msg!("source-needs-url", kind = kind.unwrap_or_default()),
                    Some(msg!("source-needs-url-help")),
                );
            }
            if kind == Some("script") && source.get("script").is_none() {
                report.value(
                    &at,
                    Code::GamesRegistry,
                    Error,
                    msg!("source-needs-script"),
                    Some(msg!("source-needs-script-help")),
                );
            }
            if let Some(template) = source.get("articleUrl").and_then(Value::as_str) {
                if !is_http_url(template) {
                    report.value(
                        &format!("{at}/articleUrl"),
                        Code::GamesRegistry,
                        Error,
                        msg!("source-article-url", template = template),
                        Some(msg!("source-article-url-help")),
                    );
                } else if !has_placeholder(template) {
                    report.value(
                        &format!("{at}/articleUrl"),
                        Code::GamesRegistry,
                        Error,
                        msg!("source-article-placeholder", template = template),
                        Some(msg!("source-article-placeholder-help")),
                    );
                }
            }
        }
    }
}

/// Whether `url` is an absolute http(s) URL with a host.
fn is_http_url(url: &str) -> bool {
    url.strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
        .is_some_and(|rest| {
            let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
            !host.is_empty() && !rest.chars().any(char::is_whitespace)
        })
}

/// Whether `template` holds a `{field}` placeholder (a name of letters,
/// digits and `_`).
fn has_placeholder(template: &str) -> bool {
    template.split('{').skip(1).any(|rest| {
        rest.split_once('}').is_some_and(|(name, _)| {
            !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_')
        })
    })
}

/// A JSON Pointer token for `key` (RFC 6901).
fn escape_pointer(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

fn suggest_id(id: &str) -> String {
    let cleaned: String = id
        .to_lowercase()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let joined: Vec<&str> = cleaned.split('-').filter(|p| !p.is_empty()).collect();
    if joined.is_empty() {
        "sr".to_string()
    } else {
        joined.join("-")
    }
}

/// Orphan diagnostics are about other files than the reporter's; they point
/// at line 1 of the orphan.
fn report_orphans(
    orphans: &BTreeSet<String>,
    listed_games: &HashSet<&str>,
    report: &mut Reporter<'_>,
) {
    for path in orphans {
        let (message, help) = match crate::tree::classify(path) {
            crate::tree::SourcePath::Data { game, file } if listed_games.contains(game) => (
                msg!("orphan-locale", path = path, game = game),
                msg!(
                    "orphan-locale-help",
                    locale = file.trim_end_matches(".json"),
                    game = game
                ),
            ),
            crate::tree::SourcePath::Data { game, .. } => (
                msg!("orphan-game", path = path, game = game),
                msg!("orphan-game-help", game = game),
            ),
            _ => (
                msg!("orphan-elsewhere", path = path),
                msg!("orphan-elsewhere-help"),
            ),
        };
        report.orphan(path, message, help);
    }
}

impl Reporter<'_> {
    /// Reports a file the registry does not account for, at its first line.
    pub fn orphan(&mut self, path: &str, message: Msg, help: Msg) {
        self.diagnostics.push(crate::diagnostics::Diagnostic {
            code: Code::OrphanFile,
            severity: Severity::Error,
            file: path.to_string(),
            line: 1,
            column: 1,
            message,
            help: Some(help),
            notes: Vec::new(),
            width: 1,
            fix: None,
        });
    }
}

/// `locale-parity`: `other` must agree with the default locale's document on
/// the version, its window and the set of activity time windows. A short
/// message with the details as notes: a version that differs, or activity
/// times that differ both ways, on `other` (with every difference);
/// otherwise on the file that lacks activities the other has, which ones.
pub fn locale_parity<'r>(
    default: &super::JsonFile<'_>,
    other: &super::JsonFile<'_>,
    on_default: &mut Reporter<'r>,
    on_other: &mut Reporter<'r>,
) {
    let mut fields = Vec::new();
    let mut at: Option<String> = None;
    for field in ["version", "startTime", "endTime"] {
        let (Some(a), Some(b)) = (
            default.root.get(field).and_then(Node::as_str),
            other.root.get(field).and_then(Node::as_str),
        ) else {
            continue;
        };
        if a != b {
            fields.push(msg!("parity-field", field = field, here = b, there = a));
            at.get_or_insert_with(|| format!("/{field}"));
        }
    }
    /// Each activity's time window, with its name and index.
    fn windows<'d>(doc: &'d Node<'_>) -> Vec<((&'d str, &'d str), &'d str, usize)> {
        doc.get("activities")
            .and_then(Node::as_array)
            .map(|a| {
                a.iter()
                    .enumerate()
                    .filter_map(|(i, x)| {
                        let window = (x.get("startTime")?.as_str()?, x.get("endTime")?.as_str()?);
                        Some((
                            window,
                            x.get("name").and_then(Node::as_str).unwrap_or(""),
                            i,
                        ))
                    })
                    .collect()
            })
            .unwrap_or_default()
    }
    let ours = windows(&other.root);
    let theirs = windows(&default.root);
    // Match windows as multisets: each of ours takes one of theirs.
    let mut remaining: HashMap<(&str, &str), Vec<usize>> = HashMap::with_capacity(theirs.len());
    for (k, (window, _, _)) in theirs.iter().enumerate() {
        remaining.entry(*window).or_default().push(k);
    }
    let mut only_other = Vec::new();
    for (window, name, i) in &ours {
        match remaining.get_mut(window).and_then(Vec::pop) {
            Some(_) => {}
            None => only_other.push((*window, *name, *i)),
        }
    }
    let mut only_default: Vec<_> = remaining
        .into_values()
        .flatten()
        .map(|k| theirs[k])
        .collect();
    only_default.sort_by_key(|(_, _, k)| *k);
    /// One note per activity, at most a few, then how many more.
    fn notes(
        report: &mut Reporter<'_>,
        note: fn(&str, &str, &str) -> Msg,
        list: &[((&str, &str), &str, usize)],
    ) {
        const SHOWN: usize = 5;
        for ((start, end), name, _) in list.iter().take(SHOWN) {
            report.note(note(name, start, end));
        }
        if list.len() > SHOWN {
            report.note(msg!("parity-more", count = list.len() - SHOWN));
        }
    }
    if let Some(at) = at {
        // Another version: its activities differ as a consequence; every
        // difference is a note of the one warning.
        on_other.value(
            &at,
            Code::LocaleParity,
            Warning,
            msg!("parity-version", path = default.path),
            Some(msg!("parity-help")),
        );
        for field in fields {
            on_other.note(field);
        }
        notes(
            on_other,
            |name, start, end| msg!("parity-note-missing", name = name, start = start, end = end),
            &only_default,
        );
        notes(
            on_other,
            |name, start, end| msg!("parity-note-extra", name = name, start = start, end = end),
            &only_other,
        );
        return;
    }
    if !only_default.is_empty() && !only_other.is_empty() {
        // Both lack something: times that moved, most often. One warning on
        // the other locale's file (the default is the reference), at its
        // first activity without a twin.
        on_other.value(
            &format!("/activities/{}", only_other[0].2),
            Code::LocaleParity,
            Warning,
            msg!("parity-times", path = default.path),
            Some(msg!("parity-help")),
        );
        notes(
            on_other,
            |name, start, end| msg!("parity-note-missing", name = name, start = start, end = end),
            &only_default,
        );
        notes(
            on_other,
            |name, start, end| msg!("parity-note-extra", name = name, start = start, end = end),
            &only_other,
        );
        return;
    }
    for (report, missing, there) in [
        (on_other, &only_default, default.path),
        (on_default, &only_other, other.path),
    ] {
        if missing.is_empty() {
            continue;
        }
        report.value(
            "/activities",
            Code::LocaleParity,
            Warning,
            msg!("parity-missing", count = missing.len(), path = there),
            Some(msg!(
                "parity-missing-help",
                count = missing.len(),
                path = there
            )),
        );
        notes(
            report,
            |name, start, end| msg!("parity-window", name = name, start = start, end = end),
            missing,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The byte prefilter never rules out a character that
    /// `invisible_class` names, alone or between other text, and rules out
    /// common CJK punctuation (and a line break where one is allowed).
    #[test]
    fn the_prefilter_keeps_every_invisible_character() {
        let mut named = 0;
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            if invisible_class(c).is_some() {
                named += 1;
                let code = format!("U+{:04X}", c as u32);
                assert!(may_hold_invisible(&c.to_string(), false), "{code}");
                // Across the 32-byte chunks: early, and at the end of a long text.
                let long = format!("活动{c}名，{}", "x".repeat(40));
                assert!(may_hold_invisible(&long, c != '\n'), "{code}");
                assert!(may_hold_invisible(&format!("{long}{c}"), false), "{code}");
                // At every offset of a 16-byte chunk, and in the scalar tail.
                for offset in 0..40 {
                    let text = format!(
                        "{}{c}{}",
                        "活".repeat(offset % 3) + &"x".repeat(offset),
                        "y".repeat(offset % 17)
                    );
                    assert!(may_hold_invisible(&text, false), "{code} after {offset}");
                }
            }
        }
        assert!(named > 200, "{named}");
        for text in [
            "限时活动：“星海”——开启！",
            "（复刻）…",
            "plain ascii",
            "\n",
            "裂隙奏鸣星海深渊余烬签到，庭院灯会霜烛虚构忆庭祈愿回声咖啡馆回声庆典。签到潮汐——调频试炼！",
        ] {
            assert_eq!(may_hold_invisible(text, false), text == "\n", "{text}");
            assert!(!may_hold_invisible(text, true), "{text}");
        }
    }
}
