//! The next deadline as an iCalendar event (RFC 5545), attached to every
//! report mail so that players can put it in their calendar.
//!
//! Times are written in UTC (`...Z`): every calendar converts them to the
//! reader's zone, and no VTIMEZONE block (which would have to repeat the
//! zone's DST rules) is needed. The UID is stable per (game, turn), so a
//! re-sent report or a moved deadline *updates* the event in the player's
//! calendar instead of adding a second one; SEQUENCE (the deadline's Unix
//! time) makes the newer deadline win. DTSTAMP is the time the report was
//! made, passed in, so the output is deterministic.

use chrono::{DateTime, Utc};

pub const MIME: &str = "text/calendar; charset=utf-8; method=PUBLISH";

/// What the event says.
pub struct DeadlineEvent<'a> {
    pub game: &'a str,
    pub turn: u32,
    pub deadline: DateTime<Utc>,
    /// The referee's mail domain, for the UID.
    pub domain: &'a str,
    /// "Deadline: orders for turn 4 of neb-001", in the game's language.
    pub summary: &'a str,
    pub description: &'a str,
    pub stamp: DateTime<Utc>,
}

/// The file name players see: `neb-001-turn-4.ics`.
pub fn file_name(game: &str, turn: u32) -> String {
    format!("{game}-turn-{turn}.ics")
}

pub fn render(e: &DeadlineEvent<'_>) -> String {
    let fmt = |t: DateTime<Utc>| t.format("%Y%m%dT%H%M%SZ").to_string();
    let lines = [
        "BEGIN:VCALENDAR".to_string(),
        "VERSION:2.0".to_string(),
        "PRODID:-//arbitre//play-by-email referee//EN".to_string(),
        "METHOD:PUBLISH".to_string(),
        "BEGIN:VEVENT".to_string(),
        format!("UID:deadline.{}.t{}@{}", e.game, e.turn, e.domain),
        format!("SEQUENCE:{}", e.deadline.timestamp().max(0)),
        format!("DTSTAMP:{}", fmt(e.stamp)),
        format!("DTSTART:{}", fmt(e.deadline)),
        format!("DTEND:{}", fmt(e.deadline)),
        format!("SUMMARY:{}", escape(e.summary)),
        format!("DESCRIPTION:{}", escape(e.description)),
        "TRANSP:TRANSPARENT".to_string(),
        "BEGIN:VALARM".to_string(),
        "ACTION:DISPLAY".to_string(),
        "TRIGGER:-PT2H".to_string(),
        format!("DESCRIPTION:{}", escape(e.summary)),
        "END:VALARM".to_string(),
        "END:VEVENT".to_string(),
        "END:VCALENDAR".to_string(),
    ];
    let mut out = String::new();
    for l in lines {
        out.push_str(&fold(&l));
        out.push_str("\r\n");
    }
    out
}

/// RFC 5545 §3.3.11: backslash, semicolon, comma and newline are escaped.
fn escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => o.push_str("\\\\"),
            ';' => o.push_str("\\;"),
            ',' => o.push_str("\\,"),
            '\n' => o.push_str("\\n"),
            '\r' => {}
            c => o.push(c),
        }
    }
    o
}

/// RFC 5545 §3.1: lines longer than 75 octets are folded (CRLF + space),
/// never inside a UTF-8 character.
fn fold(line: &str) -> String {
    let mut out = String::new();
    let mut len = 0;
    for c in line.chars() {
        let n = c.len_utf8();
        if len + n > 75 {
            out.push_str("\r\n ");
            len = 1;
        }
        out.push(c);
        len += n;
    }
    out
}
