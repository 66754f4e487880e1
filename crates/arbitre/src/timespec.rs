//! One grammar for durations and times (issue 16 item 4), shared by the
//! game's TOML (`[schedule]`, `[services]`), arbitre.toml, the command line
//! (`extend`, `deadline`) and the commands by mail (`EXTEND`, `SET
//! DEADLINE`, `ABSENCE`). Before, the command line and the mail path had a
//! parser each and did not agree (`extend 1w` worked, `EXTEND 1w` was
//! refused).
//!
//! * **Durations** are numbers each followed by one unit letter, without
//!   spaces: `w` (week), `d` (day; French `j`, German `t`), `h`, `m`, `s`,
//!   in any case: `7d`, `48h`, `1d12h`, `90m`, `1w`, `2j`. The letters are
//!   checked here, then jiff's span parser (its compact "friendly"
//!   notation) reads the numbers and units, checks their order and
//!   overflow, and turns the span into elapsed time with days of 24 hours
//!   (a deadline shift is elapsed time; the schedule keeps local wall-clock
//!   time on its own). A duration must be positive and at most a year.
//! * **Instants** are RFC 3339 (`2026-12-01T20:00:00+01:00`).
//! * **Deadlines** given by the game master are an instant, or a local
//!   `YYYY-MM-DD HH:MM` read in the game's time zone.
//! * **Dates** are `YYYY-MM-DD`; **times of day** `HH:MM`.

use chrono::{DateTime, Duration, NaiveDate, NaiveDateTime, NaiveTime, TimeZone, Utc, Weekday};
use chrono_tz::Tz;

/// The longest duration accepted anywhere: a year.
pub const MAX_DURATION_DAYS: i64 = 365;

/// What could not be read; the text keeps what was written.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum TimeSpecError {
    #[error("bad duration '{0}' (examples: 7d, 48h, 1d12h, 90m)")]
    Duration(String),
    #[error("bad date '{0}' (expected YYYY-MM-DD)")]
    Date(String),
    #[error("bad time '{0}' (expected HH:MM)")]
    Time(String),
    #[error("bad deadline '{0}' (expected \"YYYY-MM-DD HH:MM\" in the game's zone, or RFC 3339)")]
    Deadline(String),
    #[error("unknown weekday '{0}' (mon, tue, wed, thu, fri, sat, sun)")]
    Weekday(String),
}

/// `e` worded in `lang` through the catalogue (`time-bad-*`): the command
/// line's refusal (cli.rs). The `Display` above is the same English text,
/// kept for the game file's errors, which carry their own place.
pub fn text(lang: arbitre_core::Lang, e: &TimeSpecError) -> String {
    let (id, text) = match e {
        TimeSpecError::Duration(t) => ("time-bad-duration", t),
        TimeSpecError::Date(t) => ("time-bad-date", t),
        TimeSpecError::Time(t) => ("time-bad-time", t),
        TimeSpecError::Deadline(t) => ("time-bad-deadline", t),
        TimeSpecError::Weekday(t) => ("time-bad-weekday", t),
    };
    crate::i18n::tr(lang, id, &crate::fl_args![text])
}

/// Reads a duration (see the module docs for the grammar).
pub fn parse_duration(s: &str) -> Result<Duration, TimeSpecError> {
    let bad = || TimeSpecError::Duration(s.to_string());
    // The compact notation only: a number then one unit letter, repeated,
    // no spaces ("2 hours" stays refused, as docs/game-master.md says).
    let mut compact = String::new();
    let mut number = false;
    for c in s.trim().chars().map(|c| c.to_ascii_lowercase()) {
        match c {
            '0'..='9' => {
                compact.push(c);
                number = true;
            }
            'w' | 'd' | 'h' | 'm' | 's' if number => {
                compact.push(c);
                number = false;
            }
            'j' | 't' if number => {
                compact.push('d');
                number = false;
            }
            _ => return Err(bad()),
        }
    }
    if compact.is_empty() || number {
        return Err(bad());
    }
    let span: jiff::Span = compact.parse().map_err(|_| bad())?;
    let exact = span
        .to_duration(jiff::SpanRelativeTo::days_are_24_hours())
        .map_err(|_| bad())?;
    if exact.is_negative() {
        return Err(bad());
    }
    let d = Duration::new(exact.as_secs(), exact.subsec_nanos().unsigned_abs()).ok_or_else(bad)?;
    if d <= Duration::zero() || d > Duration::days(MAX_DURATION_DAYS) {
        return Err(bad());
    }
    Ok(d)
}

/// An RFC 3339 instant.
pub fn parse_instant(s: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(s.trim())
        .ok()
        .map(|d| d.with_timezone(&Utc))
}

/// A calendar date, `YYYY-MM-DD`.
pub fn parse_date(s: &str) -> Result<NaiveDate, TimeSpecError> {
    NaiveDate::parse_from_str(s.trim(), "%Y-%m-%d").map_err(|_| TimeSpecError::Date(s.to_string()))
}

/// A time of day, `HH:MM`.
pub fn parse_time_of_day(s: &str) -> Result<NaiveTime, TimeSpecError> {
    NaiveTime::parse_from_str(s.trim(), "%H:%M").map_err(|_| TimeSpecError::Time(s.to_string()))
}

/// `mon` .. `sun`, or any word starting with those three letters.
pub fn parse_weekday(s: &str) -> Result<Weekday, TimeSpecError> {
    let l = s.trim().to_ascii_lowercase();
    let w = match l.get(..3).unwrap_or("") {
        "mon" => Weekday::Mon,
        "tue" => Weekday::Tue,
        "wed" => Weekday::Wed,
        "thu" => Weekday::Thu,
        "fri" => Weekday::Fri,
        "sat" => Weekday::Sat,
        "sun" => Weekday::Sun,
        _ => return Err(TimeSpecError::Weekday(s.to_string())),
    };
    Ok(w)
}

/// A deadline given by the game master: an instant, or a local date-time to
/// be read in the game's time zone (the caller knows the zone, we do not).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum When {
    Instant(DateTime<Utc>),
    Local(NaiveDateTime),
}

impl When {
    /// Reads a deadline: one word in RFC 3339, or `YYYY-MM-DD HH:MM` (one
    /// string with a space, as the command line gets it, or two words, as a
    /// mail line splits it).
    pub fn parse(s: &str) -> Result<When, TimeSpecError> {
        let words: Vec<&str> = s.split_whitespace().collect();
        let bad = || TimeSpecError::Deadline(s.trim().to_string());
        match words.as_slice() {
            [one] => parse_instant(one).map(When::Instant).ok_or_else(bad),
            [d, t] => NaiveDateTime::parse_from_str(&format!("{d} {t}"), "%Y-%m-%d %H:%M")
                .map(When::Local)
                .map_err(|_| bad()),
            _ => Err(bad()),
        }
    }

    /// The instant, reading a local time in `tz` (the spring gap moves one
    /// hour later, an ambiguous autumn time takes the earlier instant, like
    /// the schedule does).
    pub fn resolve(&self, tz: Tz) -> DateTime<Utc> {
        match self {
            When::Instant(t) => *t,
            When::Local(l) => match tz.from_local_datetime(l) {
                chrono::LocalResult::Single(t) => t.with_timezone(&Utc),
                chrono::LocalResult::Ambiguous(a, _) => a.with_timezone(&Utc),
                chrono::LocalResult::None => {
                    let later = *l + Duration::hours(1);
                    tz.from_local_datetime(&later)
                        .earliest()
                        .map_or_else(|| Utc.from_utc_datetime(l), |t| t.with_timezone(&Utc))
                }
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_of_every_notation() {
        let h = Duration::hours;
        for (s, d) in [
            ("7d", h(168)),
            ("48h", h(48)),
            ("48H", h(48)),
            ("1d12h", h(36)),
            ("1D12H", h(36)),
            ("90m", Duration::minutes(90)),
            ("30s", Duration::seconds(30)),
            ("1w", h(168)),
            ("1W", h(168)),
            ("2j", h(48)),
            ("3t", h(72)),
            ("365d", h(365 * 24)),
        ] {
            assert_eq!(parse_duration(s), Ok(d), "{s}");
        }
        for bad in [
            "", "7", "d", "7x", "0h", "-3h", "1mo", "1y", "366d", "2j x", "t3", "1j2", "2 hours",
            "1d 12h", "PT48H",
        ] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn deadlines_in_one_or_two_words() {
        let local = When::Local(
            NaiveDateTime::parse_from_str("2026-12-04 20:00", "%Y-%m-%d %H:%M").unwrap(),
        );
        assert_eq!(When::parse("2026-12-04 20:00"), Ok(local.clone()));
        assert_eq!(When::parse(" 2026-12-04   20:00 "), Ok(local));
        assert!(matches!(
            When::parse("2026-12-04T20:00:00+01:00"),
            Ok(When::Instant(_))
        ));
        for bad in ["", "tomorrow", "2026-12-04", "2026-12-04 25:00", "a b c"] {
            assert!(When::parse(bad).is_err(), "{bad}");
        }
    }
}
