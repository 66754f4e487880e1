//! The inbound mail journal: one row per distinct mail (SHA-256 of its raw
//! bytes), written in the same transaction as whatever the mail caused.
//! A hit means "already handled": after a crash between commit and the
//! Maildir move, the daemon only repeats the move.

use crate::Result;
use rusqlite::{params, Connection, OptionalExtension};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JournalEntry {
    pub sha256: String,
    pub message_id: Option<String>,
    pub sender: Option<String>,
    pub received_at: i64,
    pub game_id: Option<String>,
    /// `stored`, `checked`, `rejected` or `ignored`.
    pub outcome: String,
    /// A short, password-free explanation for the GM ("wrong password for maxtor").
    pub detail: String,
}

pub fn seen(c: &Connection, sha256: &str) -> Result<bool> {
    Ok(c.query_row("SELECT 1 FROM mail_journal WHERE sha256 = ?1", [sha256], |_| Ok(()))
        .optional()?
        .is_some())
}

pub fn record(c: &Connection, e: &JournalEntry) -> Result<()> {
    c.execute(
        "INSERT INTO mail_journal (sha256, message_id, sender, received_at, game_id, outcome, detail)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![e.sha256, e.message_id, e.sender, e.received_at, e.game_id, e.outcome, e.detail],
    )?;
    Ok(())
}

pub fn entries(c: &Connection) -> Result<Vec<JournalEntry>> {
    let mut st = c.prepare(
        "SELECT sha256, message_id, sender, received_at, game_id, outcome, detail
         FROM mail_journal ORDER BY received_at, sha256",
    )?;
    let rows = st
        .query_map([], |r| {
            Ok(JournalEntry {
                sha256: r.get(0)?,
                message_id: r.get(1)?,
                sender: r.get(2)?,
                received_at: r.get(3)?,
                game_id: r.get(4)?,
                outcome: r.get(5)?,
                detail: r.get(6)?,
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
    fn a_mail_is_journaled_once() {
        let s = Store::in_memory().unwrap();
        let e = JournalEntry {
            sha256: "ab".into(),
            message_id: Some("m@x".into()),
            sender: None,
            received_at: 5,
            game_id: None,
            outcome: "ignored".into(),
            detail: "bounce".into(),
        };
        assert!(!seen(s.conn(), "ab").unwrap());
        record(s.conn(), &e).unwrap();
        assert!(seen(s.conn(), "ab").unwrap());
        assert!(record(s.conn(), &e).unwrap_err().is_constraint());
        assert_eq!(entries(s.conn()).unwrap(), vec![e]);
    }
}
