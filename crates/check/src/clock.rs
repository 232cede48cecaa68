//! "Now", the one owner: every command that judges a time against the
//! present (the pages' ongoing and days left, the index, `status`, `check`'s
//! stale warnings, the language server's hover) asks [`Now::for_game`], which
//! reads one instant in the game's own `timeZone`. A build reads the clock
//! once ([`Now::read_to_minute`]), so every game and page sees the same
//! instant.
//!
//! `--now` pins it two ways: a local time (`2026-11-22T12:00:00`), which
//! every game reads as that wall time in its own zone (reproducible pages
//! whatever the zones), or an instant with an offset
//! (`2026-11-22T12:00:00+09:00`, `...Z`), which each game sees in its zone
//! exactly as it would see the clock at that moment.
//!
//! Depends on [`crate::model`] only (for the game's zone).

use chrono::{DateTime, NaiveDateTime, Timelike as _, Utc};

use crate::model::{Game, Time};

/// "Now": a pinned wall time or one instant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Now {
    /// The same wall time in every game's zone.
    Local(NaiveDateTime),
    /// One instant, seen by each game in its own zone.
    At(DateTime<Utc>),
}

impl From<NaiveDateTime> for Now {
    fn from(local: NaiveDateTime) -> Self {
        Now::Local(local)
    }
}

impl Now {
    /// The clock, read now.
    pub fn read() -> Now {
        Now::At(Utc::now())
    }

    /// The clock, read now and cut to the minute (the pages show minutes,
    /// and a rebuild within the same minute renders the same bytes).
    pub fn read_to_minute() -> Now {
        let now = Utc::now();
        Now::At(
            now.with_second(0)
                .and_then(|t| t.with_nanosecond(0))
                .unwrap_or(now),
        )
    }

    /// `pinned`, else the clock read to the minute.
    pub fn pinned_or_clock(pinned: Option<Now>) -> Now {
        pinned.unwrap_or_else(Now::read_to_minute)
    }

    /// This moment as a local time of `zone`.
    pub fn in_zone(self, zone: chrono_tz::Tz) -> NaiveDateTime {
        match self {
            Now::Local(local) => local,
            Now::At(at) => at.with_timezone(&zone).naive_local(),
        }
    }

    /// This moment as a local time of `game` (its `timeZone`).
    pub fn for_game(self, game: &Game) -> NaiveDateTime {
        self.in_zone(game.tz())
    }

    /// Parses `--now`: `YYYY-MM-DDTHH:MM:SS` (a wall time in every game's
    /// zone), or the same followed by `Z` or `+HH:MM`/`-HH:MM` (an instant).
    pub fn parse(text: &str) -> Result<Now, String> {
        if let Some(local) = Time::parse(text) {
            return Ok(Now::Local(local.naive()));
        }
        if text.len() > 19
            && Time::parse(&text[..19]).is_some()
            && let Ok(at) = DateTime::parse_from_rfc3339(text)
        {
            return Ok(Now::At(at.with_timezone(&Utc)));
        }
        Err(format!(
            "`{text}` is not a date-time: give YYYY-MM-DDTHH:MM:SS (read in each game's time zone) \
             or an instant such as 2026-11-22T12:00:00+09:00 or 2026-11-22T03:00:00Z"
        ))
    }
}

impl std::fmt::Display for Now {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Now::Local(local) => write!(f, "{}", local.format("%Y-%m-%dT%H:%M:%S%.f")),
            Now::At(at) => write!(f, "{}", at.format("%Y-%m-%dT%H:%M:%S%.fZ")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_instant_is_read_in_each_zone() {
        let now = Now::parse("2026-06-01T00:30:00+09:00").unwrap();
        assert_eq!(
            now.in_zone(chrono_tz::Asia::Tokyo),
            Time::parse("2026-06-01T00:30:00").unwrap().naive()
        );
        assert_eq!(
            now.in_zone(chrono_tz::Asia::Shanghai),
            Time::parse("2026-05-31T23:30:00").unwrap().naive()
        );
        let local = Now::parse("2026-06-01T00:30:00").unwrap();
        assert_eq!(
            local.in_zone(chrono_tz::Asia::Tokyo),
            local.in_zone(chrono_tz::Asia::Shanghai)
        );
        assert!(Now::parse("2026-06-01").is_err());
        assert!(Now::parse("2026-06-01T00:30:00+0900x").is_err());
        assert_eq!(
            Now::parse("2026-06-01T00:30:00Z").unwrap().to_string(),
            "2026-06-01T00:30:00Z"
        );
    }
}
