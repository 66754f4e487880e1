//! Reports: what the referee mails to each player after a turn.
//!
//! The body is plain text in the ruleset's own notation and language (the
//! Nébula *compte rendu*, the EDS *Besitztümerblatt*). Attachments carry what
//! text cannot: an SVG map, a machine-readable JSON report, an order template.

use crate::ids::PlayerId;
use crate::view_json::ViewJson;
use serde::{Deserialize, Serialize};

/// Who a report is written for. Fog of war is the ruleset's job: it decides what
/// each viewer may see.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Viewer {
    Player(PlayerId),
    /// An observer: sees what a spectator may see (by default: the public facts).
    Spectator,
    /// The game master: sees everything.
    GameMaster,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attachment {
    /// File name as the player will see it (`carte-t3.svg`).
    pub name: String,
    /// MIME type (`image/svg+xml`, `application/json`, `text/plain`).
    pub mime: String,
    pub content: Vec<u8>,
}

#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Report {
    /// Subject line, without the game prefix the daemon adds.
    pub subject: String,
    pub body: String,
    pub attachments: Vec<Attachment>,
    /// The player's view of the game as typed data (issue 20): the same
    /// structure the ruleset renders `body` from, serialised with English
    /// keys. The daemon puts it into the JSON report (schema version 2)
    /// under `view`; its shape is the ruleset's JSON Schema in
    /// docs/schemas/<ruleset>.view.schema.json. `None` for rulesets or
    /// viewers that have no view yet. Kept as the JSON text the report
    /// carries, in pieces shared between a turn's reports (issue 22 item 5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub view: Option<ViewJson>,
}

impl Report {
    pub fn text(subject: impl Into<String>, body: impl Into<String>) -> Report {
        Report {
            subject: subject.into(),
            body: body.into(),
            attachments: Vec::new(),
            view: None,
        }
    }

    /// Attaches the typed view the body was rendered from. A view that does
    /// not serialise (a map with non-string keys, say) is a ruleset bug
    /// that a schema test catches; the report is still sent without it.
    pub fn with_view<T: Serialize>(mut self, view: &T) -> Report {
        self.view = ViewJson::of(view);
        self
    }

    /// [`Report::with_view`] for a view already written as JSON text.
    pub fn with_view_json(mut self, view: ViewJson) -> Report {
        self.view = Some(view);
        self
    }

    pub fn with_attachment(
        mut self,
        name: &str,
        mime: &str,
        content: impl Into<Vec<u8>>,
    ) -> Report {
        self.attachments.push(Attachment {
            name: name.to_string(),
            mime: mime.to_string(),
            content: content.into(),
        });
        self
    }
}

/// What only the referee knows when a report is rendered (issue 17 item 9):
/// facts of the clock and the mail, handed to
/// [`crate::ruleset::Ruleset::report_with`] as data so that a ruleset stays
/// pure and deterministic (no clock, no time-zone database inside).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportFacts {
    /// The next deadline as the viewer reads it; `None` when none is set
    /// (game over, game paused, or a render outside the mail loop).
    pub deadline: Option<LocalDeadline>,
    /// No turn has been resolved in this game yet: the state is what setup
    /// built (a new game, or a position file that starts it mid-game), so a
    /// report must not claim an evaluation that never ran.
    #[serde(default)]
    pub setup_only: bool,
}

/// A deadline already turned into the viewer's civil time (their own
/// TIMEZONE, else the game's zone) by the daemon, which has the zone
/// database; the ruleset only writes it in its own notation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LocalDeadline {
    /// The instant itself, seconds since the Unix epoch (UTC).
    pub utc: i64,
    pub year: i32,
    /// 1 to 12.
    pub month: u32,
    /// 1 to 31.
    pub day: u32,
    /// 0 to 23.
    pub hour: u32,
    /// 0 to 59.
    pub minute: u32,
    /// 0 for Monday to 6 for Sunday.
    pub weekday: u32,
    /// The zone's name as the player wrote or the game set it (`Europe/Berlin`).
    pub zone: String,
}

/// Appends `v` in decimal, as `{}` would, without a `String` of its own:
/// the maps and fixed-column sheets of a turn's reports write tens of
/// thousands of numbers.
pub fn push_int(s: &mut String, v: i64) {
    s.push_str(itoa::Buffer::new().format(v));
}

/// Appends `v` right-aligned in `width` columns, as `{:>width}` would.
pub fn push_int_right(s: &mut String, v: i64, width: usize) {
    let mut digits = itoa::Buffer::new();
    let digits = digits.format(v);
    s.extend(std::iter::repeat_n(' ', width.saturating_sub(digits.len())));
    s.push_str(digits);
}

/// `s` escaped for XML text and attribute values (the SVG maps: zone, star
/// and player names come from a game's TOML). Most names hold nothing to
/// escape and are borrowed, not copied.
pub fn xml_escape(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.contains(['&', '<', '>', '"']) {
        return std::borrow::Cow::Borrowed(s);
    }
    std::borrow::Cow::Owned(
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The numbers of the reports' text and maps are `format!`'s, padding
    /// and sign included, at both ends of `i64`.
    #[test]
    fn numbers_are_written_as_format_writes_them() {
        for v in [0, 7, -7, 10, -10, 999, 1_000, -123_456, i64::MAX, i64::MIN] {
            let mut s = String::from("x");
            push_int(&mut s, v);
            assert_eq!(s, format!("x{v}"));
            for width in [0, 1, 2, 3, 4, 6, 12, 30] {
                let mut s = String::new();
                push_int_right(&mut s, v, width);
                assert_eq!(s, format!("{v:>width$}"), "{v} in {width}");
            }
        }
    }

    #[test]
    fn xml_escape_escapes_markup_and_borrows_the_rest() {
        assert!(matches!(
            xml_escape("Terre Adélie"),
            std::borrow::Cow::Borrowed(_)
        ));
        assert_eq!(xml_escape(r#"<a & "b">"#), "&lt;a &amp; &quot;b&quot;&gt;");
    }
}
