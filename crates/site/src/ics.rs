//! iCalendar feeds (RFC 5545) of the activities: `api/v1/activity/<game>.ics`
//! for the default locale and `<game>-<locale>.ics` for every locale.
//!
//! Written by hand rather than with the `icalendar` crate: that crate fills in
//! `DTSTAMP` from the clock and `UID` from a random UUID when they are missing,
//! and has no `VTIMEZONE` support, while these feeds must be byte-identical for
//! identical input and carry the game's zone. What RFC 5545 asks of a writer
//! is small: CRLF line ends, lines folded at 75 octets, escaped TEXT values.
//! This module knows nothing about files on disk or HTTP.

use std::fmt::Write as _;

use chrono::{DateTime, Datelike, Duration, NaiveDate, NaiveDateTime, Offset, TimeZone, Utc};
use chrono_tz::{OffsetComponents, OffsetName, Tz};
use sha2::{Digest, Sha256};

use super::types::{GameOutput, LocaleDocument, OutputFile};
use crate::i18n::{Lang, Msg, msg};
use crate::model::{Activity, ActivityDocument, Game};

/// The product identifier of every feed (no version number, so upgrading the
/// tool does not change the bytes of an unchanged calendar).
pub const PRODID: &str = "-//activity-site//Game activity calendar//EN";

/// When each event reminds its subscriber: a `VALARM` whose `TRIGGER` is
/// this duration before the event's end (RFC 5545 3.8.6.3,
/// `RELATED=END`). Each calendar says so in its description; README
/// documents it.
pub const REMINDER_BEFORE_END: &str = "-P1D";

/// Renders the calendars of one game: the default locale's under the bare game
/// id, then every locale's under `<game>-<locale>`.
pub fn render_calendars(game: &GameOutput) -> Vec<OutputFile> {
    let mut files = Vec::new();
    let mut per_locale = Vec::new();
    for doc in &game.documents {
        let mut both = calendars_of(game, doc);
        per_locale.extend(both.pop());
        files.extend(both);
    }
    files.extend(per_locale);
    files
}

/// The calendars of one document: `<game>.ics` first when it is the
/// default locale's, then `<game>-<locale>.ics`. They depend on the game's
/// registry entry and this document only.
pub fn calendars_of(game: &GameOutput, doc: &LocaleDocument) -> Vec<OutputFile> {
    super::api::under_every_name(game, doc, "ics", render_calendar(game, doc).as_bytes())
}

/// One calendar: a `VTIMEZONE` for the game's zone and a `VEVENT` per activity.
pub fn render_calendar(game: &GameOutput, doc: &LocaleDocument) -> String {
    let feed = Feed::of(game, doc);
    let mut cal = Calendar::default();
    feed.write_head(&mut cal);
    let (min_year, max_year) = feed.years();
    write_vtimezone(&mut cal, feed.tz, min_year, max_year);
    for activity in &feed.document.activities {
        feed.write_event(&mut cal, activity);
    }
    cal.line("END:VCALENDAR");
    cal.out
}

/// What the lines of one calendar are made of: the game, its zone, the
/// document and the language of its words.
struct Feed<'a> {
    game: &'a Game,
    locale: &'a str,
    document: &'a ActivityDocument,
    tz: Tz,
    tzid: &'a str,
    /// The game's name in the document's locale.
    name: &'a str,
    /// Chinese for a Chinese locale, English for every other.
    lang: Lang,
    /// When the reminders come ([`REMINDER_BEFORE_END`]), in words.
    lead: Msg,
    /// DTSTAMP is "when this data was published": the version start in
    /// UTC, a fact of the data rather than of the build.
    stamp: DateTime<Utc>,
}

impl<'a> Feed<'a> {
    fn of(game: &'a GameOutput, doc: &'a LocaleDocument) -> Self {
        let g = &game.game;
        let tz = g.tz();
        Feed {
            game: g,
            locale: &doc.locale,
            document: &doc.document,
            tz,
            tzid: g.time_zone_name(),
            name: g.name.get(&doc.locale, &g.default_locale),
            lang: Lang::parse(&doc.locale).unwrap_or_default(),
            lead: msg!("ics-reminder-lead"),
            stamp: to_utc(tz, doc.document.start_time.naive()),
        }
    }

    /// The calendar's own properties: what it is, its zone, how often to
    /// poll it.
    fn write_head(&self, cal: &mut Calendar) {
        let (name, lang) = (self.name, self.lang);
        cal.line("BEGIN:VCALENDAR");
        cal.line("VERSION:2.0");
        cal.line(&format!("PRODID:{PRODID}"));
        cal.line("CALSCALE:GREGORIAN");
        cal.line("METHOD:PUBLISH");
        let calname = msg!("ics-calendar-name", name = name).render(lang);
        cal.line(&format!("X-WR-CALNAME:{}", escape_text(&calname)));
        // What the calendar is and when it reminds: RFC 7986 DESCRIPTION, and
        // the older property most clients still read.
        let caldesc = msg!(
            "ics-calendar-description",
            name = name,
            lead = self.lead.clone()
        )
        .render(lang);
        cal.line(&format!("DESCRIPTION:{}", escape_text(&caldesc)));
        cal.line(&format!("X-WR-CALDESC:{}", escape_text(&caldesc)));
        cal.line(&format!("X-WR-TIMEZONE:{}", self.tzid));
        // Ask subscribers to poll a few times a day (RFC 7986, and the older
        // Microsoft property most clients still read).
        cal.line("REFRESH-INTERVAL;VALUE=DURATION:PT6H");
        cal.line("X-PUBLISHED-TTL:PT6H");
    }

    /// The first and last year of the version and its activities: the
    /// years the `VTIMEZONE` covers.
    fn years(&self) -> (i32, i32) {
        let years = self
            .document
            .activities
            .iter()
            .flat_map(|a| [a.start_time.year(), a.end_time.year()])
            .chain([self.document.start_time.naive().year()]);
        years.fold((i32::MAX, i32::MIN), |(lo, hi), y| (lo.min(y), hi.max(y)))
    }

    /// One activity's `VEVENT`, with a reminder before it ends.
    fn write_event(&self, cal: &mut Calendar, activity: &Activity) {
        let (start, end) = (activity.start_time, activity.end_time);
        let tzid = self.tzid;
        cal.line("BEGIN:VEVENT");
        cal.line(&format!("UID:{}@activity-site", self.event_uid(activity)));
        cal.line(&format!("DTSTAMP:{}", self.stamp.format("%Y%m%dT%H%M%SZ")));
        cal.line(&format!(
            "DTSTART;TZID={tzid}:{}",
            start.format("%Y%m%dT%H%M%S")
        ));
        cal.line(&format!(
            "DTEND;TZID={tzid}:{}",
            end.format("%Y%m%dT%H%M%S")
        ));
        cal.line(&format!("SUMMARY:{}", escape_text(&activity.name)));
        let description = self.event_description(activity);
        cal.line(&format!("DESCRIPTION:{}", escape_text(&description)));
        if let Some(kind) = activity.kind.as_deref().filter(|k| !k.is_empty()) {
            cal.line(&format!("CATEGORIES:{}", escape_text(kind)));
        }
        if let Some(cover) = activity.cover.as_deref().filter(|c| !c.is_empty()) {
            // RFC 7986 IMAGE; a URI value is not TEXT, so it is not escaped.
            cal.line(&format!("IMAGE;VALUE=URI;DISPLAY=BADGE:{cover}"));
        }
        // Activities are windows of opportunity, not appointments: they do
        // not make the subscriber look busy.
        cal.line("TRANSP:TRANSPARENT");
        self.write_alarm(cal, activity);
        cal.line("END:VEVENT");
    }

    /// The event's id: the activity's id, so the event stays the same one
    /// through a rename or a corrected time; else [`uid`].
    fn event_uid(&self, activity: &Activity) -> String {
        match &activity.id {
            Some(id) => format!("{id}.{}", self.locale),
            None => uid(
                &self.game.id,
                self.locale,
                &activity.name,
                &activity.start_time.to_string(),
            ),
        }
    }

    /// The activity's description, then a line naming the version.
    fn event_description(&self, activity: &Activity) -> String {
        let mut description = activity.description.clone();
        let version_line = msg!(
            "ics-version-line",
            name = self.name,
            version = self.document.version.as_str(),
            version_name = self.document.version_name.as_str()
        )
        .render(self.lang);
        if !description.is_empty() {
            description.push_str("\n\n");
        }
        description.push_str(&version_line);
        description
    }

    /// A reminder before the activity ends: what a player may still miss.
    fn write_alarm(&self, cal: &mut Calendar, activity: &Activity) {
        cal.line("BEGIN:VALARM");
        cal.line("ACTION:DISPLAY");
        cal.line(&format!("TRIGGER;RELATED=END:{REMINDER_BEFORE_END}"));
        let reminder = msg!(
            "ics-reminder",
            activity = activity.name.as_str(),
            lead = self.lead.clone()
        )
        .render(self.lang);
        cal.line(&format!("DESCRIPTION:{}", escape_text(&reminder)));
        cal.line("END:VALARM");
    }
}

/// The event id of an activity without an `id` (data from before ids): the
/// first 16 bytes of SHA-256 over game, locale, name and start, in hex. An
/// activity with an id has `<id>.<locale>` instead, which a rename or a
/// corrected time leaves as it is.
pub fn uid(game: &str, locale: &str, name: &str, start: &str) -> String {
    let mut hasher = Sha256::new();
    for part in [game, locale, name, start] {
        hasher.update(part.as_bytes());
        // A separator that cannot occur in the parts keeps ("ab","c") and
        // ("a","bc") apart.
        hasher.update([0u8]);
    }
    hex::encode(&hasher.finalize()[..16])
}

/// Escapes a TEXT value (RFC 5545 3.3.11): backslash, semicolon, comma and
/// line breaks. Other control characters are not allowed in TEXT and dropped.
pub fn escape_text(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push_str("\\\\"),
            ';' => out.push_str("\\;"),
            ',' => out.push_str("\\,"),
            '\r' => {
                if chars.peek() != Some(&'\n') {
                    out.push_str("\\n");
                }
            }
            '\n' => out.push_str("\\n"),
            c if c.is_control() && c != '\t' => {}
            c => out.push(c),
        }
    }
    out
}

/// Folds one content line (without its line break) at 75 octets, never inside
/// a UTF-8 sequence, and ends every physical line with CRLF.
pub fn fold_line(line: &str) -> String {
    let mut out = String::with_capacity(line.len() + line.len() / 70 * 3 + 2);
    fold_into(&mut out, line);
    out
}

/// [`fold_line`], appending to `out`.
fn fold_into(out: &mut String, line: &str) {
    let mut width = 0;
    for c in line.chars() {
        let len = c.len_utf8();
        if width + len > 75 {
            out.push_str("\r\n ");
            // The leading space counts towards the next line's 75 octets.
            width = 1;
        }
        out.push(c);
        width += len;
    }
    out.push_str("\r\n");
}

#[derive(Default)]
struct Calendar {
    out: String,
}

impl Calendar {
    fn line(&mut self, line: &str) {
        fold_into(&mut self.out, line);
    }
}

/// The UTC instant of a local time in `tz`, read as the published
/// documents read it ([`crate::model::time::instant_of`]).
fn to_utc(tz: Tz, t: NaiveDateTime) -> DateTime<Utc> {
    crate::model::time::instant_of(t, tz).with_timezone(&Utc)
}

/// Writes the `VTIMEZONE` of `tz` for the years `min_year..=max_year`.
///
/// chrono-tz has no API for the transitions of a zone, so they are found by
/// sampling the offset every six hours over the covered years and narrowing
/// each change down to the second. Each transition becomes its own
/// `STANDARD` or `DAYLIGHT` observance with an explicit `DTSTART` (no `RRULE`),
/// preceded by one observance for the offset in force at the start of the
/// range. A zone without DST in that range (Asia/Shanghai) thus gets a single
/// `STANDARD` block. Limitation: the component describes only the years the
/// events cover, which is all a client needs to place them.
fn write_vtimezone(cal: &mut Calendar, tz: Tz, min_year: i32, max_year: i32) {
    let Some(first) = NaiveDate::from_ymd_opt(min_year, 1, 1) else {
        return;
    };
    let Some(after) = NaiveDate::from_ymd_opt(max_year.saturating_add(1), 1, 1) else {
        return;
    };
    let from = first
        .and_hms_opt(0, 0, 0)
        .map(|t| t.and_utc())
        .unwrap_or_default();
    let until = after
        .and_hms_opt(0, 0, 0)
        .map(|t| t.and_utc())
        .unwrap_or_default();

    let offset_at = |t: DateTime<Utc>| tz.offset_from_utc_datetime(&t.naive_utc());
    let seconds = |o: &<Tz as TimeZone>::Offset| o.fix().local_minus_utc();

    cal.line("BEGIN:VTIMEZONE");
    cal.line(&format!("TZID:{}", tz.name()));

    let initial = offset_at(from);
    write_observance(cal, &initial, seconds(&initial), "19700101T000000");

    let step = Duration::hours(6);
    let mut t = from;
    let mut current = initial;
    while t < until {
        let next = t + step;
        let offset = offset_at(next);
        if seconds(&offset) != seconds(&current) {
            // Narrow the change down to the first second of the new offset.
            let (mut lo, mut hi) = (t, next);
            while hi - lo > Duration::seconds(1) {
                let mid = lo + (hi - lo) / 2;
                if seconds(&offset_at(mid)) == seconds(&current) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            let changed = offset_at(hi);
            // DTSTART of an observance is local time in the offset before it.
            let local_before = hi.naive_utc() + Duration::seconds(i64::from(seconds(&current)));
            write_observance(
                cal,
                &changed,
                seconds(&current),
                &local_before.format("%Y%m%dT%H%M%S").to_string(),
            );
            current = changed;
        }
        t = next;
    }
    cal.line("END:VTIMEZONE");
}

fn write_observance(
    cal: &mut Calendar,
    offset: &<Tz as TimeZone>::Offset,
    from_seconds: i32,
    dtstart: &str,
) {
    let kind = if offset.dst_offset().is_zero() {
        "STANDARD"
    } else {
        "DAYLIGHT"
    };
    cal.line(&format!("BEGIN:{kind}"));
    cal.line(&format!("DTSTART:{dtstart}"));
    cal.line(&format!("TZOFFSETFROM:{}", utc_offset(from_seconds)));
    cal.line(&format!(
        "TZOFFSETTO:{}",
        utc_offset(offset.fix().local_minus_utc())
    ));
    if let Some(name) = offset.abbreviation() {
        cal.line(&format!("TZNAME:{}", escape_text(name)));
    }
    cal.line(&format!("END:{kind}"));
}

/// `+0800`, `-0330`, `+053000` (seconds only when there are any).
fn utc_offset(seconds: i32) -> String {
    let sign = if seconds < 0 { '-' } else { '+' };
    let s = seconds.unsigned_abs();
    let (h, m, sec) = (s / 3600, s / 60 % 60, s % 60);
    let mut out = String::new();
    let _ = write!(out, "{sign}{h:02}{m:02}");
    if sec != 0 {
        let _ = write!(out, "{sec:02}");
    }
    out
}
