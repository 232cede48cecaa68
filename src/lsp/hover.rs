//! Hover on a time: the weekday, how long from now, and the instant in UTC,
//! the time read in its game's time zone.

use chrono::{Datelike as _, LocalResult, NaiveDateTime, TimeZone as _};
use chrono_tz::Tz;

use crate::i18n::{Arg, Msg, msg};

use crate::model::parse_time;

/// The Markdown shown over the time written as `raw`, read in `tz` with
/// `now` the local time there; `None` when `raw` is not a time.
pub fn time(raw: &str, tz: Tz, now: NaiveDateTime) -> Option<String> {
    let local = parse_time(raw)?;
    let weekday = msg!("hover-weekday", day = local.weekday().number_from_monday());
    let when = relative(local - now);
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

/// "in 3 days 4 hours", "2 hours 5 minutes ago", "now".
fn relative(delta: chrono::Duration) -> Msg {
    let future = delta > chrono::Duration::zero();
    let total = delta.num_minutes().unsigned_abs();
    if total == 0 {
        return msg!("hover-now");
    }
    let (days, hours, minutes) = (total / 1440, total / 60 % 24, total % 60);
    let parts: Vec<Msg> = if days > 0 {
        [msg!("hover-days", n = days)]
            .into_iter()
            .chain((hours > 0).then(|| msg!("hover-hours", n = hours)))
            .collect()
    } else {
        (hours > 0)
            .then(|| msg!("hover-hours", n = hours))
            .into_iter()
            .chain((minutes > 0).then(|| msg!("hover-minutes", n = minutes)))
            .collect()
    };
    let span = Arg::List(parts, "list-space");
    if future {
        msg!("hover-future", span = span)
    } else {
        msg!("hover-past", span = span)
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
            relative(chrono::Duration::minutes(-65)).to_string(),
            "1 hour 5 minutes ago"
        );
        let chinese = crate::i18n::scoped(crate::i18n::Lang::ZhCn, || {
            time("2026-11-11T03:59:59", chrono_tz::Asia::Shanghai, now).unwrap()
        });
        assert_eq!(
            chinese,
            "**星期三** 2026-11-11 03:59:59（Asia/Shanghai）\n\n3 天 2 小时后\n\n\
             UTC：`2026-11-10T19:59:59Z`"
        );
        assert!(time("soon", chrono_tz::UTC, now).is_none());
    }
}
