//! The rules of one activity document: its times (`datetime`, `time-order`,
//! `end-of-minute`, `outside-version`, `stale`) and its activity list
//! (`duplicate-activity`, `duplicate-id`, `unsorted`, `cover-url`).

// A fast, seeded hasher for the maps of short strings built for every document.
use foldhash::HashMap;

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

use super::dates::{YearFrom, has_time_shape, rewrite_time, rewrite_time_in, writes_seconds};

/// The rules of one activity document of `game`.
pub fn document(doc: &Node<'_>, game: &Game, now: NaiveDateTime, report: &mut Reporter<'_>) {
    let cx = Context::read(doc, game, now, report);
    cx.version_times(report);
    stale(doc, &cx, report);
    cover(doc, &Base(None), report);
    for field in ["version", "versionName"] {
        whitespace(doc, &Base(None), field, report);
    }

    let Some(activities) = doc.get("activities").and_then(Node::as_array) else {
        return;
    };
    let mut list = List::default();
    for (i, activity) in activities.iter().enumerate() {
        let base = Base(Some(i));
        let (start, end) = cx.activity_times(activity, &base, report);
        if let Some(end) = end {
            cx.end_of_minute(end, &base, report);
        }
        if let Some(start) = start {
            list.unsorted(start, &base, report);
        }
        list.duplicates(i, activity, &base, report);
        cover(activity, &base, report);
        for field in ["name", "kind", "description"] {
            whitespace(activity, &base, field, report);
        }
    }
}

/// What the rules of a document's activities read besides each activity:
/// the game, the time now, and the version's times.
struct Context<'a> {
    game: &'a Game,
    now: NaiveDateTime,
    /// The version's start and end as read (or as their fixes read them).
    version_start: Option<NaiveDateTime>,
    version_end: Option<NaiveDateTime>,
    /// The version's window, when it is whole and in order.
    window: Option<Window<'a>>,
}

impl<'a> Context<'a> {
    /// Reads (and checks) the version's times of `doc`.
    fn read(
        doc: &'a Node<'_>,
        game: &'a Game,
        now: NaiveDateTime,
        report: &mut Reporter<'_>,
    ) -> Self {
        // A version's start or end written without its year takes the year
        // of its other end (as written, or as its fix rewrites it).
        let year_of = |field: &'static str| {
            let text = doc.get(field)?.as_str()?;
            let time =
                local_time(text).or_else(|| rewrite_time(text).and_then(|t| local_time(&t)))?;
            Some(YearFrom::Other { field, time })
        };
        let (start_year, end_year) = (year_of("endTime"), year_of("startTime"));
        let version_start = time_field(doc, "startTime", Whose::Version(start_year), report);
        let version_end = time_field(doc, "endTime", Whose::Version(end_year), report);
        // The version as written (a number where text belongs is the schema's
        // error, and still names it).
        let version = doc.get("version").and_then(|v| match &v.value {
            crate::json::Json::String(s) => Some(s.as_ref()),
            crate::json::Json::Number(n) => Some(*n),
            _ => None,
        });
        // The version's window as written or as its fixes rewrite it: where a
        // rewritten time of an activity falls is said against it.
        let window = match (version_start, version_end, version) {
            (Some(start), Some(end), Some(version)) if start < end && !version.is_empty() => {
                Some(Window {
                    version,
                    start,
                    end,
                })
            }
            _ => None,
        };
        Context {
            game,
            now,
            version_start,
            version_end,
            window,
        }
    }

    /// `time-order` and `upcoming-version` on the version's own times.
    fn version_times(&self, report: &mut Reporter<'_>) {
        let (Some(start), Some(end)) = (self.version_start, self.version_end) else {
            return;
        };
        if end <= start {
            report.value(
                "/endTime",
                Code::TimeOrder,
                Error,
                msg!("time-order-version", end = iso(end), start = iso(start)),
                Some(msg!("time-order-help")),
            );
        }
        if start > self.now {
            report.value(
                "/startTime",
                Code::UpcomingVersion,
                Warning,
                msg!(
                    "upcoming-version",
                    date = start.format("%Y-%m-%d %H:%M").to_string(),
                    days = crate::model::days::whole_days(self.now, start).unsigned_abs()
                ),
                Some(msg!("upcoming-version-help")),
            );
        }
    }

    /// Reads (and checks) an activity's times: each a date-time, in order
    /// (`time-order`), and within its version (`outside-version`).
    fn activity_times(
        &self,
        activity: &Node<'_>,
        base: &Base,
        report: &mut Reporter<'_>,
    ) -> (Option<NaiveDateTime>, Option<NaiveDateTime>) {
        let whose = Whose::Activity(base, self.window.as_ref());
        let start = time_field(activity, "startTime", whose, report);
        let end = time_field(activity, "endTime", whose, report);
        let (Some(start), Some(end)) = (start, end) else {
            return (start, end);
        };
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
        } else if let (Some(vs), Some(ve)) = (self.version_start, self.version_end)
            && vs < ve
        {
            // An activity that has not ended at now is carried over
            // from the version before (the carry-over rule of
            // `version new`): it stays until it ends.
            if end < vs && end <= self.now {
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
        (Some(start), Some(end))
    }

    /// `end-of-minute`: an activity's `end` at the first second of a
    /// minute, where the game's conventions end on its last.
    fn end_of_minute(&self, end: NaiveDateTime, base: &Base, report: &mut Reporter<'_>) {
        // An activity that lasts the whole version ends when the version
        // does (the maintenance time, such as 06:00:00): that is not the
        // off-by-a-second mistake this rule looks for.
        if self.game.conventions.accepts_end_second(end.second()) || Some(end) == self.version_end {
            return;
        }
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
}

/// The rules across a document's activity list, and what they remember
/// from one activity to the next.
#[derive(Default)]
struct List<'d> {
    /// Each (name, start) and the activity that gave it first.
    seen: HashMap<(&'d str, &'d str), usize>,
    /// Each id and the activity that gave it first.
    ids: HashMap<&'d str, usize>,
    previous_start: Option<NaiveDateTime>,
}

impl<'d> List<'d> {
    /// `unsorted`: an activity that starts before the one above it.
    fn unsorted(&mut self, start: NaiveDateTime, base: &Base, report: &mut Reporter<'_>) {
        if let Some(prev) = self.previous_start
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
        self.previous_start = Some(start);
    }

    /// `duplicate-activity` (a name and start given twice) and
    /// `duplicate-id`, at activity `i`.
    fn duplicates(
        &mut self,
        i: usize,
        activity: &'d Node<'_>,
        base: &Base,
        report: &mut Reporter<'_>,
    ) {
        let name = activity.get("name").and_then(Node::as_str);
        let start_text = activity.get("startTime").and_then(Node::as_str);
        if let (Some(name), Some(start_text)) = (name, start_text)
            && let Some(first) = self.seen.insert((name, start_text), i)
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
            && let Some(first) = self.ids.insert(id, i)
        {
            self.ids.insert(id, first);
            report.value(
                &format!("{base}/id"),
                Code::DuplicateId,
                Error,
                msg!("duplicate-id", id = id, first = first),
                Some(msg!("duplicate-id-help")),
            );
        }
    }
}

/// `stale`: the data is due for its next update by the game's `updateMode`
/// ([`freshness`], the one rule `status`, the pages and the workflow read):
/// a `version` game when its version has ended, an `activity` game when its
/// last activity has (whatever its version field says). Reported at the
/// time that made it due; a mode read from the version's form says so.
fn stale(doc: &Node<'_>, cx: &Context<'_>, report: &mut Reporter<'_>) {
    let (game, version_end, now) = (cx.game, cx.version_end, cx.now);
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

/// Whose time a field holds: where it is reported, and where a time
/// written without its year takes the year from.
#[derive(Clone, Copy)]
enum Whose<'w> {
    /// The version's own: from its other end, when that reads.
    Version(Option<YearFrom>),
    /// An activity's, at its pointer: from its version's window, when the
    /// version has one; a note then says where a rewritten time falls in it.
    Activity(&'w Base, Option<&'w Window<'w>>),
}

/// Reads and checks the date-time `field` of `object`; `None` when absent
/// or invalid. A time with an exact rewrite gets it as its fix, and is read
/// as the fix reads it (so the rules behind it, `time-order` or `unsorted`,
/// come in the same run); a time written without its year takes it as
/// [`Whose`] says (said in a note); in an activity a note says where the
/// rewritten time falls in its version.
fn time_field(
    object: &Node<'_>,
    field: &str,
    whose: Whose<'_>,
    report: &mut Reporter<'_>,
) -> Option<NaiveDateTime> {
    let version = Base(None);
    let (base, window, year) = match whose {
        Whose::Version(year) => (&version, None, year),
        Whose::Activity(base, window) => {
            let year = window.map(|w| YearFrom::Version {
                start: w.start,
                end: w.end,
            });
            (base, window, year)
        }
    };
    let text = object.get(field)?.as_str()?;
    if let Some(time) = local_time(text) {
        return Some(time);
    }
    let (mut message, mut help) = explain_time(text);
    let rewrite = rewrite_time_in(text, year);
    let mut notes = Vec::new();
    if let Some(r) = &rewrite
        && let Some(said) = &r.year
    {
        message = msg!("datetime-no-year", text = text);
        help = msg!("datetime-rewrite-help", fixed = r.text.as_str());
        notes.push(said.clone());
    }
    // An end written without seconds may mean :00 or :59 (the help
    // shows the rewrite, but it is no exact fix), except at minute
    // 59, which ends with its last second.
    let rewritten = match rewrite.map(|r| r.text) {
        Some(r) if field == "endTime" && !writes_seconds(text) => {
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
    let rewritten = rewritten?;
    report.fix_string(&format!("{base}/{field}"), Target::Value, &rewritten);
    let time = local_time(&rewritten)?;
    for note in notes {
        report.note(note);
    }
    if let Some(window) = window {
        report.note(window.place(time));
    }
    Some(time)
}

/// Says why `text` is not a `YYYY-MM-DDTHH:MM:SS` local time: the message and the help line.
pub fn explain_time(text: &str) -> (Msg, Msg) {
    let bytes = text.as_bytes();
    if bytes.len() > 19
        && has_time_shape(&bytes[..19])
        && let Some(said) = explain_suffix(text)
    {
        return said;
    }
    if !has_time_shape(bytes) {
        return explain_shape(text);
    }
    explain_values(text)
}

/// A local time followed by what it must not carry: a fraction of a
/// second, or an offset. `text` starts with 19 bytes of a time's shape.
fn explain_suffix(text: &str) -> Option<(Msg, Msg)> {
    let rest = &text[19..];
    let prefix = &text[..19];
    if rest.starts_with('.') {
        return Some((
            msg!("datetime-fraction", text = text),
            msg!("datetime-fraction-help", prefix = prefix),
        ));
    }
    if rest == "Z" || rest.starts_with('+') || rest.starts_with('-') {
        return Some((
            msg!("datetime-offset", text = text, rest = rest),
            msg!("datetime-offset-help", prefix = prefix),
        ));
    }
    None
}

/// A text not shaped as a local time: a date alone, a space for the `T`,
/// a time an input method or another habit wrote (with its rewrite), or
/// just another shape.
fn explain_shape(text: &str) -> (Msg, Msg) {
    let bytes = text.as_bytes();
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
    let Some(rewritten) = rewrite_time(text) else {
        return (
            msg!("datetime-shape", text = text),
            msg!("datetime-form-help"),
        );
    };
    if typed_by_input_method(text) {
        return (
            msg!("datetime-input-method", text = text),
            msg!("datetime-rewrite-help", fixed = rewritten),
        );
    }
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
    (
        msg!("datetime-shape", text = text),
        msg!("datetime-rewrite-help", fixed = rewritten),
    )
}

/// Whether `text` has what a Chinese input method types into a time:
/// full-width digits or dashes, the ideographic space, 时/点/分, 上午/下午
/// (the colon alone has its own message).
fn typed_by_input_method(text: &str) -> bool {
    text.chars().any(|c| {
        matches!(
            c,
            '\u{FF10}'
                ..='\u{FF19}'
                    | '\u{FF0D}'
                    | '\u{FF0E}'
                    | '\u{FF0F}'
                    | '\u{FF34}'
                    | '\u{3000}'
                    | '时'
                    | '点'
                    | '午'
        )
    })
}

/// A text shaped as a local time whose numbers are out of range: the
/// month, the day of that month, the hour 24, or the time of day.
fn explain_values(text: &str) -> (Msg, Msg) {
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
    (
        msg!("datetime-invalid", text = text),
        msg!("datetime-form-help"),
    )
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
