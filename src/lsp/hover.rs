//! Hover on a time: the weekday, how long from now, and the instant in UTC,
//! the time read in its game's time zone.

use chrono::{LocalResult, NaiveDateTime, TimeZone as _};
use chrono_tz::Tz;

use crate::model::parse_time;

/// The Markdown shown over the time written as `raw`, read in `tz` with
/// `now` the local time there; `None` when `raw` is not a time.
pub fn time(raw: &str, tz: Tz, now: NaiveDateTime) -> Option<String> {
    let local = parse_time(raw)?;
    let weekday = local.format("%A");
    let when = relative(local - now);
    let utc = match tz.from_local_datetime(&local) {
        LocalResult::Single(t) => t.naive_utc().format("%Y-%m-%dT%H:%M:%SZ").to_string(),
        LocalResult::Ambiguous(a, b) => format!(
            "{} or {} (the clocks go back)",
            a.naive_utc().format("%Y-%m-%dT%H:%M:%SZ"),
            b.naive_utc().format("%Y-%m-%dT%H:%M:%SZ")
        ),
        LocalResult::None => "none: the clocks skip this local time".to_string(),
    };
    Some(format!(
        "**{weekday}** {} ({tz})\n\n{when}\n\nUTC: `{utc}`",
        local.format("%Y-%m-%d %H:%M:%S")
    ))
}

/// "in 3 days 4 hours", "2 hours 5 minutes ago", "now".
fn relative(delta: chrono::Duration) -> String {
    let future = delta > chrono::Duration::zero();
    let total = delta.num_minutes().unsigned_abs();
    if total == 0 {
        return "now".to_string();
    }
    let (days, hours, minutes) = (total / 1440, total / 60 % 24, total % 60);
    let unit = |n: u64, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let parts: Vec<String> = if days > 0 {
        [unit(days, "day")]
            .into_iter()
            .chain((hours > 0).then(|| unit(hours, "hour")))
            .collect()
    } else {
        (hours > 0)
            .then(|| unit(hours, "hour"))
            .into_iter()
            .chain((minutes > 0).then(|| unit(minutes, "minute")))
            .collect()
    };
    let span = parts.join(" ");
    if future {
        format!("in {span}")
    } else {
        format!("{span} ago")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_time_shows_weekday_distance_and_utc() {
        let now = parse_time("2026-11-08T01:59:59").unwrap();
        let text = time("2026-11-11T03:59:59", chrono_tz::Asia::Shanghai, now).unwrap();
        assert_eq!(
            text,
            "**Wednesday** 2026-11-11 03:59:59 (Asia/Shanghai)\n\nin 3 days 2 hours\n\n\
             UTC: `2026-11-10T19:59:59Z`"
        );
        assert_eq!(
            relative(chrono::Duration::minutes(-65)),
            "1 hour 5 minutes ago"
        );
        assert!(time("soon", chrono_tz::UTC, now).is_none());
    }
}
