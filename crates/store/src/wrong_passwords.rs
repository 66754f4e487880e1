//! Wrong-password attempts on a seat (issue 8, made a record of its own by
//! issue 16 item 2): one row per mail that named a player of a game with a
//! wrong password, for the turn being played, answered or not. The seat's
//! next report tells the real player how many there were. Before migration
//! 7 they were inferred from the `error` answers in the outbox (plus a
//! per-turn counter for the unanswered ones); migration 7 turned those into
//! rows of this table.

use crate::Cached;
use crate::Result;
use rusqlite::{params, Connection};

/// One attempt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrongPassword {
    pub game_id: String,
    /// The turn being played (the one the orders would have been for).
    pub turn: u32,
    pub player: String,
    /// Whether the sender got an answer (limits may leave it unanswered).
    pub answered: bool,
    /// The mail's SHA-256 (None for attempts converted by migration 7).
    pub mail_sha256: Option<String>,
    pub at: i64,
}

pub fn record(c: &Connection, w: &WrongPassword) -> Result<()> {
    c.execute_cached(
        "INSERT INTO wrong_passwords (game_id, turn, player, answered, mail_sha256, at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![w.game_id, w.turn, w.player, w.answered, w.mail_sha256, w.at],
    )?;
    Ok(())
}

/// How many mails for `turn` named `player` with a wrong password.
pub fn count(c: &Connection, game: &str, turn: u32, player: &str) -> Result<u32> {
    Ok(c.query_row_cached(
        "SELECT count(*) FROM wrong_passwords WHERE game_id = ?1 AND turn = ?2 AND player = ?3",
        params![game, turn, player],
        |r| r.get(0),
    )?)
}

/// Every attempt on a game, oldest first.
pub fn of_game(c: &Connection, game: &str) -> Result<Vec<WrongPassword>> {
    let mut st = c.prepare_cached(
        "SELECT game_id, turn, player, answered, mail_sha256, at FROM wrong_passwords
          WHERE game_id = ?1 ORDER BY id",
    )?;
    let rows = st
        .query_map([game], |r| {
            Ok(WrongPassword {
                game_id: r.get(0)?,
                turn: r.get(1)?,
                player: r.get(2)?,
                answered: r.get(3)?,
                mail_sha256: r.get(4)?,
                at: r.get(5)?,
            })
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Store;

    #[test]
    fn attempts_are_counted_per_seat_and_turn() {
        let s = Store::in_memory().unwrap();
        let w = |turn, player: &str, answered| WrongPassword {
            game_id: "g".into(),
            turn,
            player: player.into(),
            answered,
            mail_sha256: Some(format!("{turn}{player}{answered}")),
            at: 10,
        };
        for a in [
            w(1, "a", true),
            w(1, "a", false),
            w(2, "a", true),
            w(1, "b", true),
        ] {
            record(s.conn(), &a).unwrap();
        }
        assert_eq!(count(s.conn(), "g", 1, "a").unwrap(), 2);
        assert_eq!(count(s.conn(), "g", 2, "a").unwrap(), 1);
        assert_eq!(count(s.conn(), "g", 3, "a").unwrap(), 0);
        assert_eq!(of_game(s.conn(), "g").unwrap().len(), 4);
    }
}
