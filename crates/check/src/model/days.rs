//! The one rule for "days left", "days overdue" and "days ago".
//!
//! The distance between two instants counts the whole 24-hour days in it,
//! rounded down: 1 day and 23 hours is "1 day", and anything under 24 hours
//! is "less than a day". A count never overstates the time left, nor how
//! long ago something ended. `check`, `status` and the pages all count with
//! [`whole_days`], so one instant gets one answer everywhere
//! (CONTRIBUTING.md documents the rule for contributors).

use chrono::NaiveDateTime;

/// Whole days from `from` to `to`, rounded towards zero: positive when `to`
/// is later, negative when it is earlier.
pub fn whole_days(from: NaiveDateTime, to: NaiveDateTime) -> i64 {
    (to - from).num_days()
}

/// A count of whole days in English: "less than a day", "1 day", "12 days".
pub fn days_en(days: i64) -> String {
    match days.unsigned_abs() {
        0 => "less than a day".to_string(),
        1 => "1 day".to_string(),
        n => format!("{n} days"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> NaiveDateTime {
        NaiveDateTime::parse_from_str(s, crate::model::TIME_FORMAT).unwrap()
    }

    #[test]
    fn counts_whole_days_rounded_down() {
        let end = at("2026-11-25T05:59:59");
        assert_eq!(whole_days(at("2026-11-23T21:36:00"), end), 1);
        assert_eq!(whole_days(end, at("2026-11-26T00:00:00")), 0);
        assert_eq!(whole_days(end, at("2027-01-01T00:00:00")), 36);
        assert_eq!(whole_days(at("2027-01-01T00:00:00"), end), -36);
        assert_eq!(days_en(0), "less than a day");
        assert_eq!(days_en(-1), "1 day");
        assert_eq!(days_en(36), "36 days");
    }
}
