//! Deadlines shown in a player's own time zone (`TIMEZONE <Area/City>`).
//!
//! Players write zone names as they remember them ("europe/paris",
//! "America/New_York"): the lookup ignores case, and refuses abbreviations
//! such as "CET" or "EST" that chrono-tz knows only as fixed offsets, because
//! a fixed offset is wrong half the year (the very mistake the issue asks us
//! to avoid across daylight-saving changes). "UTC" is accepted.

use chrono::{DateTime, Utc};
use chrono_tz::Tz;

/// The IANA zone named `s`, case-insensitively; `None` for unknown names
/// and for the ambiguous abbreviations.
pub fn parse_zone(s: &str) -> Option<Tz> {
    let s = s.trim();
    if s.eq_ignore_ascii_case("utc") {
        return Some(Tz::UTC);
    }
    if is_fixed_offset(s) {
        return None;
    }
    if let Ok(tz) = s.parse::<Tz>() {
        return Some(tz);
    }
    chrono_tz::TZ_VARIANTS
        .iter()
        .copied()
        .find(|tz| tz.name().eq_ignore_ascii_case(s))
}

/// A zone name that is a fixed offset or an abbreviation ("CET", "EST",
/// "GMT+1"): refused to players by [`parse_zone`], and a warning in a game
/// file (issue 19 item 4) — one rule for both.
pub fn is_fixed_offset(s: &str) -> bool {
    let s = s.trim();
    !s.eq_ignore_ascii_case("utc") && !s.contains('/')
}

/// "2026-03-29 20:00 (Europe/Paris)": the same form as `Schedule::show`,
/// so a player who set no zone sees exactly what the confirmations show.
pub fn show_in(t: DateTime<Utc>, tz: Tz) -> String {
    format!(
        "{} ({})",
        t.with_timezone(&tz).format("%Y-%m-%d %H:%M"),
        tz.name()
    )
}

/// The zone a player sees: their own if set and valid, else the game's.
pub fn player_zone(player_setting: Option<&str>, game_zone: Tz) -> Tz {
    player_setting.and_then(parse_zone).unwrap_or(game_zone)
}

/// The facts a mailed report carries (issue 17 item 9): `deadline` as the
/// civil time of `tz`, which the ruleset writes in its own notation (the
/// EDS Besitztümerblatt's Zugabgabetermin). `None` gives empty facts.
pub fn report_facts(deadline: Option<DateTime<Utc>>, tz: Tz) -> arbitre_core::ReportFacts {
    use chrono::{Datelike, Timelike};
    arbitre_core::ReportFacts {
        deadline: deadline.map(|t| {
            let l = t.with_timezone(&tz);
            arbitre_core::LocalDeadline {
                utc: t.timestamp(),
                year: l.year(),
                month: l.month(),
                day: l.day(),
                hour: l.hour(),
                minute: l.minute(),
                weekday: l.weekday().num_days_from_monday(),
                zone: tz.name().to_string(),
            }
        }),
        setup_only: false,
    }
}
