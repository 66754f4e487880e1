//! `TIMEZONE <Area/City>` (FR `FUSEAU`, DE `ZEITZONE`): the zone a player
//! reads deadlines in (issue 10).
//!
//! Stored per (game, player) in `player_settings.timezone`. Everything the
//! referee writes to that player about a deadline uses it: the `STATUS`
//! answer, order confirmations, reminders, the deadline line of report
//! mails and the "deadline moved" notices of absences. Deadlines are still
//! *computed* in the game's zone (a weekly "friday 20:00 Europe/Paris" stays
//! 20:00 in Paris), and the `.ics` stays in UTC: calendars convert.
//!
//! Decisions where the issue is silent:
//! - `TIMEZONE DEFAULT` (`DÉFAUT`, `STANDARD`) goes back to the game's zone
//!   (command.rs reads the word with [`default_word`]:
//!   `Command::TimezoneDefault`).
//! - naming the game's own zone is the same as `DEFAULT`: nothing is stored,
//!   so the player keeps following the game's zone.

use super::zone::{parse_zone, show_in};
use crate::daemon::GameView;
use crate::error::Result;
use arbitre_core::Lang;
use arbitre_store::settings;
use arbitre_store::Connection;
use chrono_tz::Tz;
use std::collections::BTreeMap;

/// The words that bring a player back to the game's zone.
const DEFAULT: &[&str] = &["default", "défaut", "defaut", "standard"];

/// True when `arg` (the refused zone of a TIMEZONE line) asks for the
/// game's zone.
pub fn default_word(arg: &str) -> bool {
    DEFAULT.contains(&arg.trim().to_lowercase().as_str())
}

/// What a `TIMEZONE` line changes: the zone to store (`None`: the game's,
/// nothing stored) and the answer, with the next deadline as it will be
/// shown from now on. Decided only: the request pipeline writes it
/// (request/handle.rs `Write::Timezone`).
pub struct ZoneChange {
    pub stored: Option<Tz>,
    pub answer: String,
}

/// Decides a player's `TIMEZONE` (`zone` `None`: `TIMEZONE DEFAULT`).
pub fn decide(c: &Connection, game: &GameView<'_>, zone: Option<Tz>) -> Result<ZoneChange> {
    let game_tz = game.schedule.tz;
    let zone = zone.filter(|z| *z != game_tz);
    let shown = zone.unwrap_or(game_tz);
    let next = arbitre_store::games::require_game(c, &game.row.id)?
        .deadline
        .and_then(|t| chrono::DateTime::from_timestamp(t, 0))
        .map(|d| show_in(d, shown));
    let answer = match zone {
        Some(z) => answer(
            game.lang,
            &Answer::Set {
                zone: z.name(),
                next: next.as_deref(),
            },
        ),
        None => answer(
            game.lang,
            &Answer::GameZone {
                zone: game_tz.name(),
                next: next.as_deref(),
            },
        ),
    };
    Ok(ZoneChange {
        stored: zone,
        answer,
    })
}

/// The zone each player of a game chose, by player id (players without a
/// valid setting are absent: they read the game's zone).
pub fn player_zones(c: &Connection, game: &str) -> Result<BTreeMap<String, Tz>> {
    Ok(settings::all(c, game)?
        .into_iter()
        .filter_map(|(p, s)| s.timezone.as_deref().and_then(parse_zone).map(|z| (p, z)))
        .collect())
}

/// The zone `player` reads, from [`player_zones`].
pub fn zone_of(zones: &BTreeMap<String, Tz>, player: &str, game_zone: Tz) -> Tz {
    zones.get(player).copied().unwrap_or(game_zone)
}

/// One player's zone, read from the store.
pub fn zone_of_player(c: &Connection, game: &str, player: &str, game_zone: Tz) -> Result<Tz> {
    Ok(super::zone::player_zone(
        settings::get(c, game, player)?.timezone.as_deref(),
        game_zone,
    ))
}

enum Answer<'a> {
    Set {
        zone: &'a str,
        next: Option<&'a str>,
    },
    GameZone {
        zone: &'a str,
        next: Option<&'a str>,
    },
}

fn answer(lang: Lang, a: &Answer<'_>) -> String {
    let (id, zone, next) = match a {
        Answer::Set { zone, next } => ("timezone-answer-set", zone, next),
        Answer::GameZone { zone, next } => ("timezone-answer-game-zone", zone, next),
    };
    let head = crate::i18n::tr(lang, id, &crate::fl_args![zone]);
    match next {
        Some(when) => format!(
            "{head}\n{}",
            super::texts::svc_text(lang, &super::texts::SvcMsg::StatusDeadline { when })
        ),
        None => head,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_words_in_three_languages() {
        for w in ["DEFAULT", "défaut", "Defaut", "STANDARD"] {
            assert!(default_word(w), "{w}");
        }
        assert!(!default_word("Europe/Paris"));
        assert!(!default_word("CET"));
    }

    #[test]
    fn answers_exist_in_each_language() {
        for lang in [Lang::En, Lang::Fr, Lang::De] {
            let a = answer(
                lang,
                &Answer::Set {
                    zone: "Asia/Tokyo",
                    next: Some("2026-12-05 04:00 (Asia/Tokyo)"),
                },
            );
            assert!(a.contains("Asia/Tokyo") && a.lines().count() == 2, "{a}");
            let b = answer(
                lang,
                &Answer::GameZone {
                    zone: "Europe/Paris",
                    next: None,
                },
            );
            assert!(b.contains("Europe/Paris") && b.lines().count() == 1, "{b}");
        }
    }
}
