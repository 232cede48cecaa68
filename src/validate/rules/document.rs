//! The rules of one activity document: its times (`datetime`, `time-order`,
//! `end-of-minute`, `outside-version`, `stale`) and its activity list
//! (`duplicate-activity`, `duplicate-id`, `unsorted`, `cover-url`).

// A fast, seeded hasher for the maps of short strings built for every document.
use foldhash::{HashMap, HashMapExt as _};

use chrono::{NaiveDate, NaiveDateTime, Timelike};

use super::base::Base;
use super::text::whitespace;
use crate::diagnostics::Code;
use crate::diagnostics::Severity::{Error, Warning};
use crate::i18n::{Msg, msg};
use crate::json::Node;
use crate::model::{Game, Time, UpdateMode, freshness};
use crate::validate::Reporter;
use crate::validate::spans::Target;

/// The rules of one activity document of `game`.
pub fn document(doc: &Node<'_>, game: &Game, now: NaiveDateTime, report: &mut Reporter<'_>) {
    let version_start = time_field(doc, &Base(None), "startTime", None, report);
    let version_end = time_field(doc, &Base(None), "endTime", None, report);
    // The version's window as written or as its fixes rewrite it: where a
    // rewritten time of an activity falls is said against it.
    let as_fixed = |field: &str| {
        let text = doc.get(field)?.as_str()?;
        local_time(text).or_else(|| rewrite_time(text).and_then(|t| local_time(&t)))
    };
    // The version as written (a number where text belongs is the schema's
    // error, and still names it).
    let version = doc.get("version").and_then(|v| match &v.value {
        crate::json::Json::String(s) => Some(s.as_ref()),
        crate::json::Json::Number(n) => Some(*n),
        _ => None,
    });
    let window = match (as_fixed("startTime"), as_fixed("endTime"), version) {
        (Some(start), Some(end), Some(version)) if start < end && !version.is_empty() => {
            Some(Window {
                version,
                start,
                end,
            })
        }
        _ => None,
    };
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
    stale(doc, game, version_end, now, report);
    cover(doc, &Base(None), report);
    for field in ["version", "versionName"] {
        whitespace(doc, &Base(None), field, report);
    }

    let Some(activities) = doc.get("activities").and_then(Node::as_array) else {
        return;
    };
    let mut seen: HashMap<(&str, &str), usize> = HashMap::new();
    let mut ids: HashMap<&str, usize> = HashMap::new();
    let mut previous_start: Option<NaiveDateTime> = None;
    for (i, activity) in activities.iter().enumerate() {
        let base = Base(Some(i));
        let start = time_field(activity, &base, "startTime", window.as_ref(), report);
        let end = time_field(activity, &base, "endTime", window.as_ref(), report);
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
            && !game.conventions.accepts_end_second(end.second())
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
        if let Some(id) = activity.get("id").and_then(Node::as_str)
            && let Some(first) = ids.insert(id, i)
        {
            ids.insert(id, first);
            report.value(
                &format!("{base}/id"),
                Code::DuplicateId,
                Error,
                msg!("duplicate-id", id = id, first = first),
                Some(msg!("duplicate-id-help")),
            );
        }
        cover(activity, &base, report);
        for field in ["name", "kind", "description"] {
            whitespace(activity, &base, field, report);
        }
    }
}

/// `stale`: the data is due for its next update by the game's `updateMode`
/// ([`freshness`], the one rule `status`, the pages and the workflow read):
/// a `version` game when its version has ended, an `activity` game when its
/// last activity has (whatever its version field says). Reported at the
/// time that made it due; a mode read from the version's form says so.
fn stale(
    doc: &Node<'_>,
    game: &Game,
    version_end: Option<NaiveDateTime>,
    now: NaiveDateTime,
    report: &mut Reporter<'_>,
) {
    let version = doc
        .get("version")
        .and_then(Node::as_str)
        .unwrap_or_default();
    let ends: Vec<Option<NaiveDateTime>> = doc
        .get("activities")
        .and_then(Node::as_array)
        .into_iter()
        .flatten()
        .map(|a| a.get("endTime").and_then(Node::as_str).and_then(local_time))
        .collect();
    let ends_known = ends.iter().flatten().copied().map(Some);
    let fresh = freshness::from_parts(game, version, version_end, ends_known);
    let Some(due) = fresh.due.filter(|_| fresh.is_due(now)) else {
        return;
    };
    let date = due.format("%Y-%m-%d %H:%M").to_string();
    let days = crate::model::days::whole_days(due, now).unsigned_abs();
    let last = ends.iter().rposition(|e| *e == Some(due));
    match (fresh.mode, last) {
        (UpdateMode::Activity, Some(i)) => report.value(
            &format!("/activities/{i}/endTime"),
            Code::Stale,
            Warning,
            msg!("stale-activity", date = date, days = days),
            Some(msg!("stale-activity-help")),
        ),
        _ => report.value(
            "/endTime",
            Code::Stale,
            Warning,
            msg!("stale", date = date, days = days),
            Some(msg!("stale-help")),
        ),
    }
    if fresh.inferred {
        report.note(msg!(
            "update-mode-inferred",
            mode = fresh.mode.as_str(),
            version = version
        ));
    }
}

/// The local time `text` reads as, read as every time of the data is
/// ([`Time::parse`]); the rules read the text as written.
fn local_time(text: &str) -> Option<NaiveDateTime> {
    Time::parse(text).map(Time::naive)
}

/// A time as the data writes it.
fn iso(time: NaiveDateTime) -> String {
    time.format(crate::model::TIME_FORMAT).to_string()
}

/// A version's window, for saying where a rewritten time falls.
struct Window<'a> {
    version: &'a str,
    start: NaiveDateTime,
    end: NaiveDateTime,
}

impl Window<'_> {
    /// Where `time` falls against the window: "8 months before version 4.7
    /// starts", "within version 4.7, 9 days after it starts", "2 days after
    /// version 4.7 ends"; a rewrite that guessed wrong shows at once.
    fn place(&self, time: NaiveDateTime) -> Msg {
        let (relation, span) = if time < self.start {
            ("before", self.start - time)
        } else if time > self.end {
            ("after", time - self.end)
        } else if time == self.start {
            ("start", chrono::Duration::zero())
        } else {
            ("within", time - self.start)
        };
        msg!(
            "datetime-falls",
            time = iso(time),
            relation = relation,
            span = span_in_words(span),
            version = self.version
        )
    }
}

/// A length of time in the unit a person reads at a glance: months (of
/// 30 days) from 60 days on, else whole days, else hours.
fn span_in_words(span: chrono::Duration) -> Msg {
    let days = span.num_days();
    if days >= 60 {
        msg!("span-months", count = days / 30)
    } else if days >= 1 {
        msg!("span-days", count = days)
    } else {
        msg!("span-hours", count = span.num_hours())
    }
}

/// Reads and checks the date-time `field` of `object`; `None` when absent
/// or invalid. A time with an exact rewrite gets it as its fix, and (in an
/// activity, `window` given) a note on where the rewritten time falls in
/// its version.
fn time_field(
    object: &Node<'_>,
    base: &Base,
    field: &str,
    window: Option<&Window<'_>>,
    report: &mut Reporter<'_>,
) -> Option<NaiveDateTime> {
    let text = object.get(field)?.as_str()?;
    match local_time(text) {
        Some(time) => Some(time),
        None => {
            let (message, mut help) = explain_time(text);
            // An end written without seconds may mean :00 or :59 (the help
            // shows the rewrite, but it is no exact fix), except at minute
            // 59, which ends with its last second.
            let rewritten = match rewrite_time(text) {
                Some(r) if field == "endTime" && text.matches([':', '\u{FF1A}']).count() < 2 => {
                    let minute = r.strip_suffix(":59:00").map(|m| format!("{m}:59:59"));
                    if let Some(end) = &minute {
                        help = msg!("datetime-rewrite-help", fixed = end.as_str());
                    }
                    minute
                }
                other => other,
            };
            report.value(
                &format!("{base}/{field}"),
                Code::Datetime,
                Error,
                message,
                Some(help),
            );
            if let Some(rewritten) = rewritten {
                report.fix_string(&format!("{base}/{field}"), Target::Value, &rewritten);
                if let (Some(window), Some(time)) = (window, local_time(&rewritten)) {
                    report.note(window.place(time));
                }
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
        && local_time(&text[..19]).is_some()
    {
        return Some(text[..19].to_string());
    }
    let ascii = chinese_date(text).unwrap_or_else(|| text.replace('\u{FF1A}', ":"));
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
    (candidate != text && local_time(&candidate).is_some()).then_some(candidate)
}

/// A date written the Chinese way (`2026年11月4日 12:00`, the space
/// optional) in the dashed form `2026-11-4 12:00`; `None` for any other text.
fn chinese_date(text: &str) -> Option<String> {
    let (year, rest) = text.split_once('年')?;
    let (month, rest) = rest.split_once('月')?;
    let (day, time) = rest.split_once(['日', '号'])?;
    let time = time
        .trim_start_matches([' ', '\u{3000}'])
        .replace('\u{FF1A}', ":");
    Some(format!(
        "{}-{}-{} {time}",
        year.trim(),
        month.trim(),
        day.trim()
    ))
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
