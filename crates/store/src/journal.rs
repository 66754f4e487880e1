//! The inbound mail journal: one row per distinct mail (SHA-256 of its raw
//! bytes), written in the same transaction as whatever the mail caused.
//! A hit means "already handled": after a crash between commit and the
//! Maildir move, the daemon only repeats the move.

pub use crate::kinds::JournalOutcome;
use crate::Cached;
use crate::Result;
use rusqlite::{params, Connection, OptionalExtension};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JournalEntry {
    pub sha256: String,
    pub message_id: Option<String>,
    pub sender: Option<String>,
    pub received_at: i64,
    pub game_id: Option<String>,
    pub outcome: JournalOutcome,
    /// A short, password-free explanation for the GM ("wrong password for maxtor").
    pub detail: String,
}

pub fn seen(c: &Connection, sha256: &str) -> Result<bool> {
    Ok(c.query_row_cached(
        "SELECT 1 FROM mail_journal WHERE sha256 = ?1",
        [sha256],
        |_| Ok(()),
    )
    .optional()?
    .is_some())
}

/// The SHA-256 of a journaled mail with this Message-ID from this sender
/// (case-insensitive), if any: the same mail delivered again with other
/// trace headers (issue 14 item 12). Both must be known; a Message-ID alone
/// is not enough, since anyone can write any Message-ID.
pub fn seen_message(c: &Connection, message_id: &str, sender: &str) -> Result<Option<String>> {
    if message_id.trim().is_empty() || sender.trim().is_empty() {
        return Ok(None);
    }
    Ok(c.query_row_cached(
        "SELECT sha256 FROM mail_journal
         WHERE message_id = ?1 AND lower(trim(sender)) = lower(trim(?2)) LIMIT 1",
        params![message_id, sender],
        |r| r.get(0),
    )
    .optional()?)
}

pub fn record(c: &Connection, e: &JournalEntry) -> Result<()> {
    c.execute_cached(
        "INSERT INTO mail_journal (sha256, message_id, sender, received_at, game_id, outcome, detail)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![e.sha256, e.message_id, e.sender, e.received_at, e.game_id, e.outcome, e.detail],
    )?;
    Ok(())
}

/// Outcomes of mails refused by the flood rate limit (issue 8): the first
/// in a window is answered, the others are not. Neither counts toward a
/// limit, so a sustained flood does not keep a sender locked out forever.
pub const RATE_LIMITED: JournalOutcome = JournalOutcome::RateLimited;
pub const RATE_LIMITED_SILENT: JournalOutcome = JournalOutcome::RateLimitedSilent;

/// Mails from `sender` (case-insensitive) journaled at or after `since`
/// that count toward the flood limit: neither ignored nor rate-limited.
pub fn count_from_sender_since(c: &Connection, sender: &str, since: i64) -> Result<u32> {
    Ok(c.query_row_cached(
        "SELECT count(*) FROM mail_journal
         WHERE lower(trim(sender)) = lower(trim(?1)) AND received_at >= ?2
           AND outcome NOT IN ('ignored', ?3, ?4)",
        params![sender, since, RATE_LIMITED, RATE_LIMITED_SILENT],
        |r| r.get(0),
    )?)
}

/// Same, for mails tied to game `game_id`.
pub fn count_for_game_since(c: &Connection, game_id: &str, since: i64) -> Result<u32> {
    Ok(c.query_row_cached(
        "SELECT count(*) FROM mail_journal
         WHERE game_id = ?1 AND received_at >= ?2 AND outcome NOT IN ('ignored', ?3, ?4)",
        params![game_id, since, RATE_LIMITED, RATE_LIMITED_SILENT],
        |r| r.get(0),
    )?)
}

/// True when `sender` already got the polite rate-limit answer at or after `since`.
pub fn rate_limit_answered_since(c: &Connection, sender: &str, since: i64) -> Result<bool> {
    Ok(c
        .query_row_cached(
            "SELECT 1 FROM mail_journal
             WHERE lower(trim(sender)) = lower(trim(?1)) AND received_at >= ?2 AND outcome = ?3 LIMIT 1",
            params![sender, since, RATE_LIMITED],
            |_| Ok(()),
        )
        .optional()?
        .is_some())
}

pub fn entries(c: &Connection) -> Result<Vec<JournalEntry>> {
    let mut st = c.prepare_cached(
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
            outcome: JournalOutcome::Ignored,
            detail: "bounce".into(),
        };
        assert!(!seen(s.conn(), "ab").unwrap());
        record(s.conn(), &e).unwrap();
        assert!(seen(s.conn(), "ab").unwrap());
        assert!(record(s.conn(), &e).unwrap_err().is_constraint());
        assert_eq!(entries(s.conn()).unwrap(), vec![e]);
    }

    #[test]
    fn duplicate_delivery_found_by_message_id_and_sender() {
        let s = Store::in_memory().unwrap();
        let e = JournalEntry {
            sha256: "first".into(),
            message_id: Some("m1@client.example".into()),
            sender: Some("Alice@Example.org".into()),
            received_at: 5,
            game_id: None,
            outcome: JournalOutcome::Stored,
            detail: String::new(),
        };
        record(s.conn(), &e).unwrap();
        assert_eq!(
            seen_message(s.conn(), "m1@client.example", "alice@example.org")
                .unwrap()
                .as_deref(),
            Some("first")
        );
        // Another sender's mail with the same Message-ID is not a duplicate.
        assert_eq!(
            seen_message(s.conn(), "m1@client.example", "mallory@example.org").unwrap(),
            None
        );
        assert_eq!(
            seen_message(s.conn(), "m2@client.example", "alice@example.org").unwrap(),
            None
        );
        assert_eq!(
            seen_message(s.conn(), "", "alice@example.org").unwrap(),
            None
        );
    }

    #[test]
    fn flood_counts_skip_ignored_and_rate_limited_mail_and_old_mail() {
        let s = Store::in_memory().unwrap();
        let row = |sha: &str, at: i64, outcome: JournalOutcome| JournalEntry {
            sha256: sha.into(),
            message_id: None,
            sender: Some("Alice@Example.org".into()),
            received_at: at,
            game_id: Some("g1".into()),
            outcome,
            detail: String::new(),
        };
        for (sha, at, outcome) in [
            ("a", 100, JournalOutcome::Stored),
            ("b", 200, JournalOutcome::Rejected),
            ("c", 200, JournalOutcome::Ignored),
            ("d", 50, JournalOutcome::Stored),
            ("e", 200, RATE_LIMITED_SILENT),
        ] {
            record(s.conn(), &row(sha, at, outcome)).unwrap();
        }
        assert_eq!(
            count_from_sender_since(s.conn(), "alice@example.org", 100).unwrap(),
            2
        );
        assert_eq!(count_for_game_since(s.conn(), "g1", 60).unwrap(), 2);
        assert_eq!(count_for_game_since(s.conn(), "g1", 0).unwrap(), 3);
        assert!(!rate_limit_answered_since(s.conn(), "alice@example.org", 0).unwrap());
        record(s.conn(), &row("f", 300, RATE_LIMITED)).unwrap();
        assert!(rate_limit_answered_since(s.conn(), "ALICE@example.org", 300).unwrap());
        assert!(!rate_limit_answered_since(s.conn(), "alice@example.org", 301).unwrap());
    }
}
