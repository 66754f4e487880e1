//! Reminders already sent: one row per (game, turn, player, rule), so a
//! reminder is mailed once even if the daemon restarts inside its window.

use crate::Cached;
use crate::Result;
use rusqlite::{params, Connection, OptionalExtension};

pub fn sent(c: &Connection, game: &str, turn: u32, player: &str, label: &str) -> Result<bool> {
    Ok(c.query_row_cached(
        "SELECT 1 FROM reminders WHERE game_id = ?1 AND turn = ?2 AND player = ?3 AND label = ?4",
        params![game, turn, player, label],
        |_| Ok(()),
    )
    .optional()?
    .is_some())
}

/// ROLLBACK: the reminders of turns after `turn` are forgotten (the
/// replayed turn has a new deadline, hence new reminder points).
pub fn forget_after(c: &Connection, game: &str, turn: u32) -> Result<usize> {
    Ok(c.execute_cached(
        "DELETE FROM reminders WHERE game_id = ?1 AND turn > ?2",
        params![game, turn],
    )?)
}

/// Records a reminder; false if it was already recorded.
pub fn record(
    c: &Connection,
    game: &str,
    turn: u32,
    player: &str,
    label: &str,
    now: i64,
) -> Result<bool> {
    let n = c.execute_cached(
        "INSERT OR IGNORE INTO reminders (game_id, turn, player, label, sent_at) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![game, turn, player, label, now],
    )?;
    Ok(n == 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reminder_is_recorded_once() {
        let s = crate::Store::in_memory().unwrap();
        assert!(!sent(s.conn(), "g", 1, "a", "24h").unwrap());
        assert!(record(s.conn(), "g", 1, "a", "24h", 5).unwrap());
        assert!(!record(s.conn(), "g", 1, "a", "24h", 6).unwrap());
        assert!(sent(s.conn(), "g", 1, "a", "24h").unwrap());
        assert!(!sent(s.conn(), "g", 2, "a", "24h").unwrap());
    }
}
