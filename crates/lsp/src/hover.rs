//! Hover on a time: the weekday, how long from now, and the instant in UTC,
//! the time read in its game's time zone.

use chrono::{Datelike as _, LocalResult, NaiveDateTime, TimeZone as _};
use chrono_tz::Tz;

use crate::i18n::{Msg, msg};

use crate::model::Time;

/// The Markdown shown over the time written as `raw`, read in `tz` with
/// `now` the local time there; `None` when `raw` is not a time.
pub fn time(raw: &str, tz: Tz, now: NaiveDateTime) -> Option<String> {
    let local = Time::parse(raw)?.naive();
    let weekday = msg!("hover-weekday", day = local.weekday().number_from_monday());
    let when = relative(local, now);
    let utc_of = |t: NaiveDateTime| t.format("%Y-%m-%dT%H:%M:%SZ").to_string();
    let utc = match tz.from_local_datetime(&local) {
        LocalResult::Single(t) => msg!("plain", text = utc_of(t.naive_utc())),
        LocalResult::Ambiguous(a, b) => msg!(
            "hover-utc-ambiguous",
            first = utc_of(a.naive_utc()),
            second = utc_of(b.naive_utc())
        ),
        LocalResult::None => msg!("hover-utc-none"),
    };
    Some(
        msg!(
            "hover-time",
            weekday = weekday,
            time = local.format("%Y-%m-%d %H:%M:%S").to_string(),
            zone = tz.to_string(),
            when = when,
            utc = utc
        )
        .to_string(),
    )
}

/// "in 3 days", "less than a day ago", "now": whole 24-hour days rounded
/// down ([`crate::model::days::whole_days`]), as every other output counts.
fn relative(local: NaiveDateTime, now: NaiveDateTime) -> Msg {
    if (local - now).num_minutes() == 0 {
        return msg!("hover-now");
    }
    let days = crate::model::days::whole_days(now, local);
    if local > now {
        msg!("hover-future", days = days.unsigned_abs())
    } else {
        msg!("hover-past", days = days.unsigned_abs())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_time_shows_weekday_distance_and_utc() {
        let now = Time::parse("2026-11-08T01:59:59").unwrap().naive();
        let text = time("2026-11-11T03:59:59", chrono_tz::Asia::Shanghai, now).unwrap();
        assert_eq!(
            text,
            "**Wednesday** 2026-11-11 03:59:59 (Asia/Shanghai)\n\nin 3 days\n\n\
             UTC: `2026-11-10T19:59:59Z`"
        );
        let at = |s: &str| Time::parse(s).unwrap().naive();
        assert_eq!(
            relative(at("2026-11-08T00:54:59"), now).to_string(),
            "less than a day ago"
        );
        assert_eq!(
            relative(at("2026-11-09T09:59:59"), now).to_string(),
            "in 1 day"
        );
        assert_eq!(relative(now, now).to_string(), "now");
        let chinese = crate::i18n::scoped(crate::i18n::Lang::ZhCn, || {
            time("2026-11-11T03:59:59", chrono_tz::Asia::Shanghai, now).unwrap()
        });
        assert_eq!(
            chinese,
            "**星期三** 2026-11-11 03:59:59（Asia/Shanghai）\n\n3 天后\n\n\
             UTC：`2026-11-10T19:59:59Z`"
        );
        assert!(time("soon", chrono_tz::UTC, now).is_none());
    }
}
