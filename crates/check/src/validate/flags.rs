//! A time given on the command line (`--start`, `--end`, `--now`), read the
//! one way a time is read ([`Time::parse`]) and, when it is none, explained
//! as the `datetime` rule explains the same slip in a file
//! ([`rules::explain_time`]): a full-width colon or digits, `2026.10.15`,
//! `10月15日 10:00` (no year) each get their own message and the exact
//! rewrite, so a flag and a file never disagree on what a time is.

use chrono::NaiveDateTime;

use super::rules::{self, YearFrom};
use crate::i18n::{Msg, msg};
use crate::model::Time;

/// The other end of a version a flag's time without a year takes its year
/// from: `endTime` for a start (the year that puts it before the end),
/// `startTime` for an end.
pub type OtherEnd = (&'static str, NaiveDateTime);

/// `text`, the value of `flag`, as a time; else the message that says
/// what is wrong with it and how to write it (`--start: ... ; type the
/// ASCII ':' ...`).
pub fn flag_time(flag: &str, text: &str, other: Option<OtherEnd>) -> Result<Time, Msg> {
    if let Some(time) = Time::parse(text) {
        return Ok(time);
    }
    Err(explain_flag_time(flag, text, other))
}

/// Why `text` (given to `flag`) is not a time, with the fix.
pub fn explain_flag_time(flag: &str, text: &str, other: Option<OtherEnd>) -> Msg {
    let (mut message, mut help) = rules::explain_time(text);
    let with_year = other.and_then(|(field, time)| {
        rules::rewrite_time_in(text, Some(YearFrom::Other { field, time }))
    });
    if let Some(rewrite) = with_year
        && let Some(said) = rewrite.year
    {
        message = msg!("datetime-no-year", text = text);
        help = msg!(
            "flag-time-year-help",
            fixed = rewrite.text.as_str(),
            note = said
        );
    } else if rules::rewrite_time(text).is_none() {
        // A date without its year and nothing to take one from: the form
        // is shown with the year to write.
        let any = chrono::NaiveDate::from_ymd_opt(2000, 1, 1)
            .and_then(|d| d.and_hms_opt(0, 0, 0))
            .map(|start| YearFrom::Version { start, end: start });
        if let Some(rewrite) = rules::rewrite_time_in(text, any)
            && rewrite.year.is_some()
        {
            message = msg!("datetime-no-year", text = text);
            help = msg!(
                "datetime-rewrite-help",
                fixed = format!("YYYY{}", &rewrite.text[4..])
            );
        }
    }
    msg!("flag-time", flag = flag, message = message, help = help)
}
