//! The times of the data: [`Time`], a local time that is one, read once
//! with the fast fixed-position reader and written back byte for byte; and
//! [`Written`], a time as a file nobody checked writes it, which may be no
//! time at all (a diff's base, an agent's draft, a file with errors).
//!
//! A checked document ([`super::ActivityDocument`]) carries [`Time`]s;
//! what may not be checked is an [`super::Draft`], whose [`Written`]
//! times keep the text they do not read as.

use std::fmt;

use chrono::NaiveDateTime;
use serde::de::{self, Unexpected};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A local time of the data (`YYYY-MM-DDTHH:MM:SS`, no zone, no fraction):
/// one that reads as a time. Its text ([`fmt::Display`], serde) is exactly
/// the text it was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Time(NaiveDateTime);

impl Time {
    /// Reads a data time (`YYYY-MM-DDTHH:MM:SS`, nothing more, nothing less).
    pub fn parse(s: &str) -> Option<Time> {
        // Fixed positions: this runs for every time of every file, and
        // chrono's format-string parser costs several times more.
        let b = s.as_bytes();
        if b.len() != 19
            || b[4] != b'-'
            || b[7] != b'-'
            || b[10] != b'T'
            || b[13] != b':'
            || b[16] != b':'
        {
            return None;
        }
        let num = |range: std::ops::Range<usize>| -> Option<u32> {
            b[range].iter().try_fold(0u32, |n, c| {
                c.is_ascii_digit().then(|| n * 10 + u32::from(c - b'0'))
            })
        };
        let date = chrono::NaiveDate::from_ymd_opt(num(0..4)? as i32, num(5..7)?, num(8..10)?)?;
        let time = chrono::NaiveTime::from_hms_opt(num(11..13)?, num(14..16)?, num(17..19)?)?;
        Some(Time(NaiveDateTime::new(date, time)))
    }

    /// The time as chrono's value, for arithmetic and formats.
    pub const fn naive(self) -> NaiveDateTime {
        self.0
    }

    /// The instant this local time names in `zone`, with the offset in
    /// force there. A time a DST change skips (a gap) or repeats (a fold)
    /// is read like RFC 9557's and Temporal's `compatible`: the earlier
    /// instant in a fold, and in a gap the instant the offset before the
    /// change gives (the wall clock shifted forward by the gap). The one
    /// owner of that choice: the published instants, the calendars, the
    /// pages and the feeds all ask it.
    pub fn instant(self, zone: chrono_tz::Tz) -> chrono::DateTime<chrono_tz::Tz> {
        instant_of(self.0, zone)
    }

    /// [`Time::instant`] as RFC 3339 with the offset in force
    /// (`2026-11-01T01:30:00-04:00`): the text of a published instant.
    pub fn rfc3339_in(self, zone: chrono_tz::Tz) -> String {
        self.instant(zone)
            .format("%Y-%m-%dT%H:%M:%S%:z")
            .to_string()
    }

    /// The 19 bytes of its text: the inverse of [`Time::parse`] (the year
    /// has four digits and there is no fraction, as every parsed time).
    fn text(self) -> [u8; 19] {
        use chrono::{Datelike as _, Timelike as _};
        let mut out = *b"0000-00-00T00:00:00";
        let mut put = |at: usize, width: usize, mut n: u32| {
            for i in (at..at + width).rev() {
                out[i] = b'0' + (n % 10) as u8;
                n /= 10;
            }
        };
        let (date, time) = (self.0.date(), self.0.time());
        put(0, 4, date.year() as u32);
        put(5, 2, date.month());
        put(8, 2, date.day());
        put(11, 2, time.hour());
        put(14, 2, time.minute());
        put(17, 2, time.second());
        out
    }
}

/// [`Time::instant`] of any local date-time: the one reading of a wall
/// time of a zone as an instant (`compatible`: the earlier instant in a
/// fold, the offset before the change in a gap).
pub fn instant_of(local: NaiveDateTime, zone: chrono_tz::Tz) -> chrono::DateTime<chrono_tz::Tz> {
    use chrono::TimeZone as _;
    if let Some(at) = zone.from_local_datetime(&local).earliest() {
        return at;
    }
    // In a gap: the offset before it is the one of the last wall time
    // before the gap (no zone has a gap longer than a day).
    let before = (1..=48)
        .filter_map(|half_hours| {
            let earlier = local - chrono::Duration::minutes(30 * half_hours);
            zone.from_local_datetime(&earlier).earliest()
        })
        .next()
        .map(|at| chrono::Offset::fix(at.offset()));
    let utc = match before {
        Some(offset) => local - chrono::Duration::seconds(offset.local_minus_utc().into()),
        None => local,
    };
    zone.from_utc_datetime(&utc)
}

impl std::ops::Deref for Time {
    type Target = NaiveDateTime;

    fn deref(&self) -> &NaiveDateTime {
        &self.0
    }
}

impl From<Time> for NaiveDateTime {
    fn from(time: Time) -> NaiveDateTime {
        time.0
    }
}

impl fmt::Display for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = self.text();
        // Only ASCII digits and separators are written.
        f.write_str(std::str::from_utf8(&text).map_err(|_| fmt::Error)?)
    }
}

impl Serialize for Time {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let text = self.text();
        let text = std::str::from_utf8(&text).map_err(serde::ser::Error::custom)?;
        serializer.serialize_str(text)
    }
}

/// What a time is expected to look like, in serde's messages.
const EXPECTED: &str = "a local time YYYY-MM-DDTHH:MM:SS";

impl<'de> Deserialize<'de> for Time {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Time, D::Error> {
        struct Visitor;
        impl de::Visitor<'_> for Visitor {
            type Value = Time;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(EXPECTED)
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Time, E> {
                Time::parse(v).ok_or_else(|| E::invalid_value(Unexpected::Str(v), &self))
            }
        }
        deserializer.deserialize_str(Visitor)
    }
}

/// A time as an unchecked file writes it: a [`Time`], or a text that does
/// not read as one, kept verbatim so that nothing a contributor wrote is
/// lost and reports quote it as written. Two `Written`s are equal exactly
/// when their texts are.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Written {
    Time(Time),
    /// A text that is not a time (never one that is: [`Written::parse`]).
    Text(String),
}

impl Written {
    pub fn parse(text: &str) -> Written {
        Time::parse(text).map_or_else(|| Written::Text(text.to_owned()), Written::Time)
    }

    /// The time, when the text is one.
    pub fn time(&self) -> Option<Time> {
        match self {
            Written::Time(time) => Some(*time),
            Written::Text(_) => None,
        }
    }
}

impl From<Time> for Written {
    fn from(time: Time) -> Written {
        Written::Time(time)
    }
}

impl fmt::Display for Written {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Written::Time(time) => time.fmt(f),
            Written::Text(text) => f.write_str(text),
        }
    }
}

impl Serialize for Written {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Written::Time(time) => time.serialize(serializer),
            Written::Text(text) => serializer.serialize_str(text),
        }
    }
}

impl<'de> Deserialize<'de> for Written {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Written, D::Error> {
        struct Visitor;
        impl de::Visitor<'_> for Visitor {
            type Value = Written;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Written, E> {
                Ok(Written::parse(v))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Written, E> {
                Ok(Time::parse(&v).map_or(Written::Text(v), Written::Time))
            }
        }
        deserializer.deserialize_string(Visitor)
    }
}

/// What a document's times may be: checked [`Time`]s, or [`Written`] ones.
pub trait DataTime: Clone + fmt::Display + Serialize {
    /// The time, when it is one (always, for a [`Time`]).
    fn time(&self) -> Option<Time>;
}

impl DataTime for Time {
    fn time(&self) -> Option<Time> {
        Some(*self)
    }
}

impl DataTime for Written {
    fn time(&self) -> Option<Time> {
        Written::time(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_instant_takes_the_offset_of_its_moment_and_resolves_gaps_and_folds_compatibly() {
        let ny = chrono_tz::America::New_York;
        let at = |s: &str| Time::parse(s).unwrap().rfc3339_in(ny);
        assert_eq!(at("2026-10-31T11:00:00"), "2026-10-31T11:00:00-04:00");
        assert_eq!(at("2026-11-02T11:00:00"), "2026-11-02T11:00:00-05:00");
        // The fold of 1 November: the earlier instant (still daylight time).
        assert_eq!(at("2026-11-01T01:30:00"), "2026-11-01T01:30:00-04:00");
        // The gap of 8 March: the offset before it, the wall time moved on.
        assert_eq!(at("2026-03-08T02:30:00"), "2026-03-08T03:30:00-04:00");
        let shanghai = Time::parse("2026-07-29T06:00:00").unwrap();
        assert_eq!(
            shanghai.rfc3339_in(chrono_tz::Asia::Shanghai),
            "2026-07-29T06:00:00+08:00"
        );
    }

    #[test]
    fn a_time_reads_and_writes_back_the_same_text() {
        for text in [
            "2026-11-08T01:59:59",
            "0001-01-01T00:00:00",
            "0999-12-31T23:59:59",
            "9999-12-31T23:59:59",
            "2024-02-29T12:00:00",
        ] {
            let time = Time::parse(text).unwrap();
            assert_eq!(time.to_string(), text);
            assert_eq!(serde_json::to_string(&time).unwrap(), format!("\"{text}\""));
            assert_eq!(
                serde_json::from_str::<Time>(&format!("\"{text}\"")).unwrap(),
                time
            );
            assert_eq!(
                time.naive().format(super::super::TIME_FORMAT).to_string(),
                text
            );
        }
    }

    #[test]
    fn only_the_one_form_is_a_time() {
        for text in [
            "2026-11-08 01:59:59",
            "2026-11-08T01:59",
            "2026-11-08T01:59:59Z",
            "2026-11-08T24:00:00",
            "2025-02-29T12:00:00",
            "2026-1-08T01:59:59.",
            "+026-11-08T01:59:59",
            "",
        ] {
            assert_eq!(Time::parse(text), None, "{text}");
            assert!(serde_json::from_str::<Time>(&format!("\"{text}\"")).is_err());
            let written = serde_json::from_str::<Written>(&format!("\"{text}\"")).unwrap();
            assert_eq!(written, Written::Text(text.to_owned()));
            assert_eq!(written.to_string(), text);
            assert_eq!(
                serde_json::to_string(&written).unwrap(),
                serde_json::to_string(text).unwrap()
            );
        }
        assert!(serde_json::from_str::<Written>("12").is_err());
    }

    #[test]
    fn written_times_compare_by_their_text() {
        let a = Written::parse("2026-11-08T01:59:59");
        assert_eq!(a.time(), Time::parse("2026-11-08T01:59:59"));
        assert_eq!(
            a,
            Written::from(Time::parse("2026-11-08T01:59:59").unwrap())
        );
        assert_ne!(a, Written::parse("2026-11-08T01:59:58"));
        assert_ne!(a, Written::parse("2026-11-08 01:59:59"));
    }
}
