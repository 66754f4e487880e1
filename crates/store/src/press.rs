//! The press archive (issue 10, `PRESS TO <player>|ALL [ANONYMOUS]`): every
//! message relayed between players, with its true sender even when it was
//! relayed anonymously, so the game master can always answer "who said
//! that". One row per press mail, written in the inbound mail's transaction
//! with the relayed mails, so a press is logged exactly when it is sent.

use crate::Cached;
use crate::Result;
use rusqlite::{params, Connection};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PressRow {
    pub game_id: String,
    /// The turn being played when the press was sent.
    pub turn: u32,
    pub sender: String,
    /// `ALL`, or the recipient's player id.
    pub recipients: String,
    pub anonymous: bool,
    pub body: String,
    /// The SHA-256 of the mail that carried it (the journal's key).
    pub mail_sha256: Option<String>,
    pub sent_at: i64,
}

/// The value of `recipients` for a press to every player.
pub const ALL: &str = "ALL";

pub fn insert(c: &Connection, p: &PressRow) -> Result<i64> {
    c.execute_cached(
        "INSERT INTO press (game_id, turn, sender, recipients, anonymous, body, mail_sha256, sent_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![p.game_id, p.turn, p.sender, p.recipients, p.anonymous, p.body, p.mail_sha256, p.sent_at],
    )?;
    Ok(c.last_insert_rowid())
}

/// Every press of a game, oldest first.
pub fn all(c: &Connection, game: &str) -> Result<Vec<PressRow>> {
    let mut st = c.prepare_cached(
        "SELECT game_id, turn, sender, recipients, anonymous, body, mail_sha256, sent_at
           FROM press WHERE game_id = ?1 ORDER BY turn, id",
    )?;
    let rows = st
        .query_map([game], |r| {
            Ok(PressRow {
                game_id: r.get(0)?,
                turn: r.get(1)?,
                sender: r.get(2)?,
                recipients: r.get(3)?,
                anonymous: r.get(4)?,
                body: r.get(5)?,
                mail_sha256: r.get(6)?,
                sent_at: r.get(7)?,
            })
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn press_is_archived_with_its_true_sender_in_order() {
        let s = crate::Store::in_memory().unwrap();
        let c = s.conn();
        let row = |turn, sender: &str, anonymous| PressRow {
            game_id: "g".into(),
            turn,
            sender: sender.into(),
            recipients: ALL.into(),
            anonymous,
            body: "hello".into(),
            mail_sha256: Some("ab".into()),
            sent_at: 7,
        };
        insert(c, &row(2, "b", true)).unwrap();
        insert(c, &row(1, "a", false)).unwrap();
        let got = all(c, "g").unwrap();
        assert_eq!(got, vec![row(1, "a", false), row(2, "b", true)]);
        assert!(all(c, "h").unwrap().is_empty());
    }
}
