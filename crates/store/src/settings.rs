//! Per-player settings chosen around the turn (issue 10): the time zone a
//! player reads deadlines in (`TIMEZONE`), the turn a game master ejected
//! the seat from (`EJECT`), and the hash of a per-player token a game may
//! require besides the password.
//!
//! A player without a row has the defaults: the game's zone, in the game,
//! no token. One row per (game, player); each setter touches its column only.

use crate::Cached;
use crate::Result;
use rusqlite::{params, Connection, OptionalExtension};

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayerSettings {
    pub timezone: Option<String>,
    pub ejected_turn: Option<u32>,
    pub token_hash: Option<String>,
}

pub fn get(c: &Connection, game: &str, player: &str) -> Result<PlayerSettings> {
    Ok(c
        .query_row_cached(
            "SELECT timezone, ejected_turn, token_hash FROM player_settings WHERE game_id = ?1 AND player = ?2",
            params![game, player],
            |r| Ok(PlayerSettings { timezone: r.get(0)?, ejected_turn: r.get(1)?, token_hash: r.get(2)? }),
        )
        .optional()?
        .unwrap_or_default())
}

fn ensure(c: &Connection, game: &str, player: &str) -> Result<()> {
    c.execute_cached(
        "INSERT OR IGNORE INTO player_settings (game_id, player) VALUES (?1, ?2)",
        params![game, player],
    )?;
    Ok(())
}

/// `None` goes back to the game's zone.
pub fn set_timezone(c: &Connection, game: &str, player: &str, tz: Option<&str>) -> Result<()> {
    ensure(c, game, player)?;
    c.execute_cached(
        "UPDATE player_settings SET timezone = ?3 WHERE game_id = ?1 AND player = ?2",
        params![game, player, tz],
    )?;
    Ok(())
}

/// `None` brings the seat back (a takeover fills an ejected seat).
pub fn set_ejected(c: &Connection, game: &str, player: &str, from_turn: Option<u32>) -> Result<()> {
    ensure(c, game, player)?;
    c.execute_cached(
        "UPDATE player_settings SET ejected_turn = ?3 WHERE game_id = ?1 AND player = ?2",
        params![game, player, from_turn],
    )?;
    Ok(())
}

pub fn set_token_hash(c: &Connection, game: &str, player: &str, phc: Option<&str>) -> Result<()> {
    ensure(c, game, player)?;
    c.execute_cached(
        "UPDATE player_settings SET token_hash = ?3 WHERE game_id = ?1 AND player = ?2",
        params![game, player, phc],
    )?;
    Ok(())
}

/// Every player of a game with a row, by id (for status screens).
pub fn all(c: &Connection, game: &str) -> Result<Vec<(String, PlayerSettings)>> {
    let mut st = c.prepare_cached(
        "SELECT player, timezone, ejected_turn, token_hash FROM player_settings WHERE game_id = ?1 ORDER BY player",
    )?;
    let rows = st
        .query_map([game], |r| {
            Ok((
                r.get(0)?,
                PlayerSettings {
                    timezone: r.get(1)?,
                    ejected_turn: r.get(2)?,
                    token_hash: r.get(3)?,
                },
            ))
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_setting_is_kept_apart_and_defaults_without_a_row() {
        let s = crate::Store::in_memory().unwrap();
        let c = s.conn();
        assert_eq!(get(c, "g", "a").unwrap(), PlayerSettings::default());
        set_timezone(c, "g", "a", Some("Europe/Berlin")).unwrap();
        set_ejected(c, "g", "a", Some(4)).unwrap();
        set_token_hash(c, "g", "a", Some("$argon2id$x")).unwrap();
        set_timezone(c, "g", "a", None).unwrap();
        let got = get(c, "g", "a").unwrap();
        assert_eq!(
            got,
            PlayerSettings {
                timezone: None,
                ejected_turn: Some(4),
                token_hash: Some("$argon2id$x".into())
            }
        );
        assert_eq!(get(c, "g", "b").unwrap(), PlayerSettings::default());
        assert_eq!(all(c, "g").unwrap().len(), 1);
    }
}
