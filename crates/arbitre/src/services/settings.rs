//! The game TOML's `[services]` table: what the game master allows and
//! requires around the turn (issue 10).
//!
//! ```toml
//! [services]
//! gm_password = "s3cret"        # GM commands by mail; hashed before storage
//! press = "grey"                # "open", "grey" (anonymous allowed) or "none"
//! show_orders_sent = true       # STATUS lists who has sent orders
//! nmr = "bot"                   # "nothing" or "bot"
//! nmr_bot_after = 2             # missed turns before the bot plays a seat
//! grace = "2h"                  # after the deadline, before resolution
//! change_delay = "15m"          # after the last ready orders, before early resolution
//! absence_max_days = 14         # longest absence a player may declare
//! absence_max_per_game = 2
//! observers = ["kibitz@example.org"]
//! require_dkim = false          # orders need a valid DKIM signature from the player's domain
//! takeover_extend = "24h"       # a takeover pushes the deadline back this long
//! preview = "always"            # every resolved turn is held for the GM's RELEASE
//! ```
//!
//! The durations (`grace`, `change_delay`, `takeover_extend`) are checked
//! when the TOML is read, so `game create` and `check` name the bad field.
//!
//! Choices where the issue is silent: press defaults to "none" (a game
//! master opts in), NMR to "nothing" (the ruleset's own rule), the bot
//! takes over after 2 missed turns when "bot" is chosen without a number,
//! STATUS shows who sent orders unless `show_orders_sent = false` (blind
//! games hide it).

use crate::timespec::parse_duration;
use chrono::Duration;
use serde::{Deserialize, Deserializer, Serialize};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PressPolicy {
    /// Press signed with the sender's name only.
    Open,
    /// Press may also be anonymous.
    Grey,
    #[default]
    None,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NmrPolicy {
    /// The seat does nothing (or what the ruleset's standing orders do).
    #[default]
    Nothing,
    /// After `nmr_bot_after` missed turns in a row, the ruleset's bot plays.
    Bot,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServicesToml {
    pub gm_password: Option<String>,
    /// Set by `game create` in the stored copy: the argon2id hash of
    /// `gm_password` (the password itself is never stored).
    pub gm_password_hash: Option<String>,
    #[serde(default)]
    pub press: PressPolicy,
    pub show_orders_sent: Option<bool>,
    #[serde(default)]
    pub nmr: NmrPolicy,
    pub nmr_bot_after: Option<u32>,
    #[serde(default, deserialize_with = "grace_field")]
    pub grace: Option<String>,
    #[serde(default, deserialize_with = "change_delay_field")]
    pub change_delay: Option<String>,
    pub absence_max_days: Option<u32>,
    pub absence_max_per_game: Option<u32>,
    #[serde(default)]
    pub observers: Vec<String>,
    #[serde(default)]
    pub require_dkim: bool,
    /// How long a takeover pushes the deadline back (default: not at all).
    #[serde(default, deserialize_with = "takeover_extend_field")]
    pub takeover_extend: Option<String>,
    /// `always`: every resolved turn is held for the GM's RELEASE.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preview: Option<PreviewPolicy>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PreviewPolicy {
    Always,
}

/// A duration field checked with the schedule's notation; the error names
/// the field, so the GM sees `[services] grace: bad duration '2 hours' ...`.
fn duration_field<'de, D: Deserializer<'de>>(
    d: D,
    field: &str,
) -> Result<Option<String>, D::Error> {
    let v: Option<String> = Option::deserialize(d)?;
    if let Some(s) = &v {
        parse_duration(s)
            .map_err(|e| serde::de::Error::custom(format!("[services] {field}: {e}")))?;
    }
    Ok(v)
}

fn grace_field<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    duration_field(d, "grace")
}

fn change_delay_field<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    duration_field(d, "change_delay")
}

fn takeover_extend_field<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    duration_field(d, "takeover_extend")
}

/// Why a press message is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PressRefusal {
    NoPress,
    NoAnonymous,
}

impl ServicesToml {
    pub fn is_default(&self) -> bool {
        *self == ServicesToml::default()
    }

    /// After the deadline, before resolution: orders are still taken (marked late).
    pub fn grace(&self) -> Duration {
        self.grace
            .as_deref()
            .and_then(|s| parse_duration(s).ok())
            .unwrap_or_else(Duration::zero)
    }

    /// After the last ready orders, before early resolution.
    pub fn change_delay(&self) -> Duration {
        self.change_delay
            .as_deref()
            .and_then(|s| parse_duration(s).ok())
            .unwrap_or_else(Duration::zero)
    }

    pub fn takeover_extend(&self) -> Duration {
        self.takeover_extend
            .as_deref()
            .and_then(|s| parse_duration(s).ok())
            .unwrap_or_else(Duration::zero)
    }

    pub fn show_orders_sent(&self) -> bool {
        self.show_orders_sent.unwrap_or(true)
    }

    pub fn press_allowed(&self, anonymous: bool) -> Result<(), PressRefusal> {
        match (self.press, anonymous) {
            (PressPolicy::None, _) => Err(PressRefusal::NoPress),
            (PressPolicy::Open, true) => Err(PressRefusal::NoAnonymous),
            _ => Ok(()),
        }
    }

    /// True when a seat that has missed `missed` turns in a row is played
    /// by the ruleset's bot this turn.
    pub fn bot_plays(&self, missed: u32) -> bool {
        self.nmr == NmrPolicy::Bot && missed >= self.nmr_bot_after.unwrap_or(2).max(1)
    }

    /// Checks an absence against the game master's limits. `taken` is the
    /// number of absences the player already declared in this game.
    pub fn absence_allowed(&self, days: i64, taken: u32) -> Result<(), AbsenceRefusal> {
        if days < 1 {
            return Err(AbsenceRefusal::Empty);
        }
        let max = i64::from(self.absence_max_days.unwrap_or(0));
        if max == 0 {
            return Err(AbsenceRefusal::NotAllowed);
        }
        if days > max {
            return Err(AbsenceRefusal::TooLong { max: max as u32 });
        }
        if let Some(n) = self.absence_max_per_game {
            if taken >= n {
                return Err(AbsenceRefusal::TooMany { max: n });
            }
        }
        Ok(())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AbsenceRefusal {
    Empty,
    NotAllowed,
    TooLong { max: u32 },
    TooMany { max: u32 },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_are_read_and_a_bad_one_names_its_field() {
        let s: ServicesToml = toml::from_str("grace = \"2h\"\nchange_delay = \"15m\"\ntakeover_extend = \"1d\"\npreview = \"always\"").unwrap();
        assert_eq!(
            (s.grace(), s.change_delay(), s.takeover_extend()),
            (Duration::hours(2), Duration::minutes(15), Duration::days(1))
        );
        assert_eq!(s.preview, Some(PreviewPolicy::Always));
        assert_eq!(ServicesToml::default().grace(), Duration::zero());
        for (field, bad) in [
            ("grace", "2 hours"),
            ("change_delay", "soon"),
            ("takeover_extend", "0h"),
        ] {
            let e = toml::from_str::<ServicesToml>(&format!("{field} = \"{bad}\""))
                .unwrap_err()
                .to_string();
            assert!(
                e.contains(&format!("[services] {field}: bad duration '{bad}'")),
                "{e}"
            );
        }
    }
}
