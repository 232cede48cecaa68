//! The forms people type a date-time in, read into the data's one form
//! (`YYYY-MM-DDTHH:MM:SS`): the exact rewrites the `datetime` rule offers
//! as fixes, and which the rules then read as the fix reads them.
//!
//! What is read (everything else has no rewrite, only the rule's help):
//! - a zone, an offset or a fraction after a good local time (dropped);
//! - the date with `-`, `/` or `.` between its parts, one-digit parts, and
//!   a space for the `T`; the time with no seconds (`:00`);
//! - the Chinese date `2026年12月3日` (or `号`), with or without a space
//!   before the time, and without its year (`12月3日 10:00`): the year is
//!   then the version's (of its start, or of the one date of the version
//!   that puts the time inside the version when the version spans two
//!   years), or, for the version's own start or end, the year that puts it
//!   before its end (after its start); the fix's note says which;
//! - what a Chinese input method types: full-width digits (`２０２６`),
//!   full-width `－`, `／`, `．`, `：` and `Ｔ`, the ideographic space, the
//!   time as `10时30分`, `10点30分`, `10点` (`:00`), with seconds `秒`;
//! - `上午` and `下午` before the time, for hours 1 to 11 (`下午3:00` is
//!   `15:00:00`); `12` after either, and every other word of the day
//!   (`中午`, `晚上`, `凌晨`), is left to the contributor: people read them
//!   differently.

use chrono::{Datelike, NaiveDateTime};

use crate::i18n::{Msg, msg};
use crate::model::Time;

/// Where a date written without its year takes the year from.
#[derive(Debug, Clone, Copy)]
pub enum YearFrom {
    /// The version's window (an activity's time).
    Version {
        start: NaiveDateTime,
        end: NaiveDateTime,
    },
    /// The version's other end, by its field: a start takes the year that
    /// puts it before the end (`endTime`), an end the one after the start.
    Other {
        field: &'static str,
        time: NaiveDateTime,
    },
}

/// An exact rewrite, and the year it supplied, when the text had none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rewrite {
    pub text: String,
    /// Said in the fix's note: where the year came from.
    pub year: Option<Msg>,
}

/// The same time written as the data writes it, when `text` is a real
/// local time in a form of the module's list and the rewrite is certain;
/// `None` for anything else, such as hour 24 or a day that does not exist.
/// A text without a year has none here: see [`rewrite_time_in`].
pub fn rewrite_time(text: &str) -> Option<String> {
    rewrite_time_in(text, None).map(|r| r.text)
}

/// [`rewrite_time`], taking the year of a text without one from `year`.
pub fn rewrite_time_in(text: &str, year: Option<YearFrom>) -> Option<Rewrite> {
    if text.len() > 19
        && text.is_char_boundary(19)
        && text[19..].starts_with(['Z', '+', '-', '.'])
        && local_time(&text[..19]).is_some()
    {
        return Some(Rewrite {
            text: text[..19].to_string(),
            year: None,
        });
    }
    let ascii = narrow(text);
    let (date, time) = split_date(ascii.trim())?;
    let (h, mi, s) = read_time(time)?;
    let (y, mo, d) = date;
    let (y, said) = match y {
        Some(y) => (y, None),
        None => {
            let (y, said) = year_of(year?, mo, d, (h, mi, s))?;
            (y, Some(said))
        }
    };
    let candidate = format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}");
    (candidate != text && local_time(&candidate).is_some()).then_some(Rewrite {
        text: candidate,
        year: said,
    })
}

/// Whether `s` is shaped `YYYY-MM-DDTHH:MM:SS` (digits where digits
/// belong), whether or not its numbers name a real time.
pub fn has_time_shape(s: &[u8]) -> bool {
    s.len() == 19
        && s.iter().enumerate().all(|(i, b)| match i {
            4 | 7 => *b == b'-',
            10 => *b == b'T',
            13 | 16 => *b == b':',
            _ => b.is_ascii_digit(),
        })
}

/// Whether `text` writes the seconds of its time (`:SS` or `秒`).
pub fn writes_seconds(text: &str) -> bool {
    narrow(text).matches(':').count() >= 2 || text.contains('秒')
}

fn local_time(text: &str) -> Option<NaiveDateTime> {
    Time::parse(text).map(Time::naive)
}

/// `text` with what an input method types full width in ASCII: digits,
/// `－` `／` `．` `：` `Ｔ`, and the ideographic space.
fn narrow(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\u{FF10}'..='\u{FF19}' => char::from(b'0' + (c as u32 - 0xFF10) as u8),
            '\u{FF0D}' => '-',
            '\u{FF0F}' => '/',
            '\u{FF0E}' => '.',
            '\u{FF1A}' => ':',
            '\u{FF34}' => 'T',
            '\u{3000}' => ' ',
            c => c,
        })
        .collect()
}

/// A run of one to `max` ASCII digits as a number.
fn number(s: &str, max: usize) -> Option<u32> {
    (!s.is_empty() && s.len() <= max && s.bytes().all(|b| b.is_ascii_digit()))
        .then(|| s.parse().ok())
        .flatten()
}

/// The leading ASCII digits of `s` and what follows them.
fn digits(s: &str) -> (&str, &str) {
    let end = s
        .bytes()
        .position(|b| !b.is_ascii_digit())
        .unwrap_or(s.len());
    s.split_at(end)
}

/// A date as written: the year (when written), the month and the day.
type Written = (Option<i32>, u32, u32);

/// The date and the text of the time.
fn split_date(text: &str) -> Option<(Written, &str)> {
    if text.contains('月') {
        let (year, rest) = match text.split_once('年') {
            Some((year, rest)) if year.trim().len() == 4 => {
                (Some(i32::try_from(number(year.trim(), 4)?).ok()?), rest)
            }
            Some(_) => return None,
            None => (None, text),
        };
        let (month, rest) = rest.split_once('月')?;
        let (day, time) = rest.split_once(['日', '号'])?;
        return Some((
            (year, number(month.trim(), 2)?, number(day.trim(), 2)?),
            time,
        ));
    }
    let (date, time) = text.split_once(['T', ' '])?;
    let parts: Vec<&str> = date.split(['-', '/', '.']).collect();
    let [y, mo, d] = parts.as_slice() else {
        return None;
    };
    if y.len() != 4 {
        return None;
    }
    let year = i32::try_from(number(y, 4)?).ok()?;
    Some(((Some(year), number(mo, 2)?, number(d, 2)?), time))
}

/// The time of day: `H:MM[:SS]`, `H时M分[S秒]`, `H点[M分[S秒]]`, after an
/// optional `上午` or `下午` (hours 1 to 11).
fn read_time(text: &str) -> Option<(u32, u32, u32)> {
    let text = text.trim_start();
    let (meridiem, text) = if let Some(rest) = text.strip_prefix("上午") {
        (Some(0), rest.trim_start())
    } else if let Some(rest) = text.strip_prefix("下午") {
        (Some(12), rest.trim_start())
    } else {
        (None, text)
    };
    let (h, rest) = digits(text);
    let h = number(h, 2)?;
    let (mi, s) = if let Some(rest) = rest.strip_prefix(':') {
        let parts: Vec<&str> = rest.split(':').collect();
        match parts.as_slice() {
            [m] => (number(m, 2)?, 0),
            [m, s] => (number(m, 2)?, number(s, 2)?),
            _ => return None,
        }
    } else if let Some(rest) = rest.strip_prefix('时').or_else(|| rest.strip_prefix('点')) {
        let rest = rest.trim_start();
        if rest.is_empty() || rest == "整" {
            (0, 0)
        } else {
            let (m, rest) = digits(rest);
            let rest = rest.strip_prefix('分')?.trim_start();
            let m = number(m, 2)?;
            if rest.is_empty() {
                (m, 0)
            } else {
                let (s, rest) = digits(rest);
                (rest == "秒").then_some(())?;
                (m, number(s, 2)?)
            }
        }
    } else {
        return None;
    };
    let h = match meridiem {
        None => h,
        Some(add) if (1..=11).contains(&h) => h + add,
        Some(_) => return None,
    };
    Some((h, mi, s))
}

/// The year of a month and day written without one, and the note that
/// says where it came from; `None` when it is not certain.
fn year_of(
    from: YearFrom,
    month: u32,
    day: u32,
    (h, mi, s): (u32, u32, u32),
) -> Option<(i32, Msg)> {
    let at = |year: i32| {
        chrono::NaiveDate::from_ymd_opt(year, month, day).and_then(|d| d.and_hms_opt(h, mi, s))
    };
    match from {
        YearFrom::Version { start, end } => {
            let year = if start.year() == end.year() {
                start.year()
            } else {
                let inside: Vec<i32> = [start.year(), end.year()]
                    .into_iter()
                    .filter(|y| at(*y).is_some_and(|t| t >= start && t <= end))
                    .collect();
                match inside.as_slice() {
                    [year] => *year,
                    _ => return None,
                }
            };
            at(year)?;
            Some((
                year,
                msg!(
                    "datetime-year-from-version",
                    year = year,
                    start = iso(start),
                    end = iso(end)
                ),
            ))
        }
        YearFrom::Other { field, time } => {
            // The version's start comes before its end (and the end after
            // the start), less than a year apart.
            let before = field == "endTime";
            let mut year = time.year();
            match at(year) {
                Some(t) if before && t >= time => year -= 1,
                Some(t) if !before && t <= time => year += 1,
                Some(_) => {}
                None => return None,
            }
            at(year)?;
            Some((
                year,
                msg!(
                    "datetime-year-from-other",
                    year = year,
                    relation = if before { "before" } else { "after" },
                    field = field,
                    time = iso(time)
                ),
            ))
        }
    }
}

fn iso(time: NaiveDateTime) -> String {
    time.format(crate::model::TIME_FORMAT).to_string()
}
