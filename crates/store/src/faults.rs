//! Faults the daemon isolates instead of dying of them (issue 14).
//!
//! * A game whose ruleset panicked (item 7) has an open row in
//!   `game_faults`: the daemon no longer resolves it, reminds it or hands
//!   its mails to the ruleset until the game master runs `arbitre resume`,
//!   which closes the row. Rows are kept as the game's fault history.
//! * A failure of the installation's own mail set-up (item 6: the relay
//!   refuses our login, TLS or the connection fails) opens a row in
//!   `sending_pauses`; no mail is failed meanwhile, and the first send that
//!   goes through closes it.
//!
//! Time is passed in, as everywhere in this crate.

use crate::Cached;
use crate::Result;
use rusqlite::{params, Connection, OptionalExtension};

/// An open fault of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    pub id: i64,
    pub game_id: String,
    pub turn: u32,
    pub during: String,
    pub message: String,
    pub at: i64,
}

const FAULT_COLS: &str = "id, game_id, turn, during, message, at";

fn fault_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Fault> {
    Ok(Fault {
        id: r.get(0)?,
        game_id: r.get(1)?,
        turn: r.get(2)?,
        during: r.get(3)?,
        message: r.get(4)?,
        at: r.get(5)?,
    })
}

/// The open fault of `game`, if it is faulted.
pub fn open_fault(c: &Connection, game: &str) -> Result<Option<Fault>> {
    Ok(c
        .query_row_cached(
            &format!("SELECT {FAULT_COLS} FROM game_faults WHERE game_id = ?1 AND resumed_at IS NULL ORDER BY id DESC LIMIT 1"),
            [game],
            fault_row,
        )
        .optional()?)
}

/// Every faulted game's open fault, by game.
pub fn open_faults(c: &Connection) -> Result<Vec<Fault>> {
    let mut st = c.prepare_cached(&format!(
        "SELECT {FAULT_COLS} FROM game_faults WHERE resumed_at IS NULL ORDER BY game_id, id"
    ))?;
    let rows = st
        .query_map([], fault_row)?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(rows)
}

/// Marks `game` faulted. Returns the new fault, or `None` when the game
/// was already faulted (the first fault is the one the game master is
/// told of; a second one before `resume` adds nothing).
pub fn record(
    c: &Connection,
    game: &str,
    turn: u32,
    during: &str,
    message: &str,
    now: i64,
) -> Result<Option<Fault>> {
    if open_fault(c, game)?.is_some() {
        return Ok(None);
    }
    c.execute_cached(
        "INSERT INTO game_faults (game_id, turn, during, message, at) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![game, turn, during, message, now],
    )?;
    open_fault(c, game)
}

/// Closes the open fault of `game` (`arbitre resume`). Returns the fault
/// closed, if there was one.
pub fn resume(c: &Connection, game: &str, now: i64) -> Result<Option<Fault>> {
    let open = open_fault(c, game)?;
    if let Some(f) = &open {
        c.execute_cached(
            "UPDATE game_faults SET resumed_at = ?2 WHERE id = ?1",
            params![f.id, now],
        )?;
    }
    Ok(open)
}

/// Sending paused for a failure of the installation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SendingPause {
    pub id: i64,
    pub reason: String,
    pub since: i64,
    pub last_try: i64,
}

/// The current pause, if sending is paused.
pub fn sending_pause(c: &Connection) -> Result<Option<SendingPause>> {
    Ok(c
        .query_row_cached(
            "SELECT id, reason, since, last_try FROM sending_pauses WHERE ended_at IS NULL ORDER BY id DESC LIMIT 1",
            [],
            |r| Ok(SendingPause { id: r.get(0)?, reason: r.get(1)?, since: r.get(2)?, last_try: r.get(3)? }),
        )
        .optional()?)
}

/// Records a failed try: opens a pause (returned as `(pause, true)`) or
/// updates the open one's reason and last try (`(pause, false)`).
pub fn pause_sending(c: &Connection, reason: &str, now: i64) -> Result<(SendingPause, bool)> {
    if let Some(p) = sending_pause(c)? {
        c.execute_cached(
            "UPDATE sending_pauses SET reason = ?2, last_try = ?3 WHERE id = ?1",
            params![p.id, reason, now],
        )?;
        return Ok((
            SendingPause {
                reason: reason.to_string(),
                last_try: now,
                ..p
            },
            false,
        ));
    }
    c.execute_cached(
        "INSERT INTO sending_pauses (reason, since, last_try) VALUES (?1, ?2, ?2)",
        params![reason, now],
    )?;
    let p = SendingPause {
        id: c.last_insert_rowid(),
        reason: reason.to_string(),
        since: now,
        last_try: now,
    };
    Ok((p, true))
}

/// Ends the pause (a send went through). Returns the pause ended.
pub fn end_pause(c: &Connection, now: i64) -> Result<Option<SendingPause>> {
    let p = sending_pause(c)?;
    if let Some(p) = &p {
        c.execute_cached(
            "UPDATE sending_pauses SET ended_at = ?2 WHERE id = ?1",
            params![p.id, now],
        )?;
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Store;

    #[test]
    fn a_game_is_faulted_once_until_resumed() {
        let s = Store::in_memory().unwrap();
        let c = s.conn();
        assert!(open_fault(c, "g").unwrap().is_none());
        let f = record(c, "g", 3, "resolve", "boom", 100).unwrap().unwrap();
        assert_eq!(
            (f.turn, f.during.as_str(), f.message.as_str()),
            (3, "resolve", "boom")
        );
        assert!(
            record(c, "g", 3, "check", "again", 101).unwrap().is_none(),
            "the first fault stands"
        );
        assert_eq!(open_faults(c).unwrap(), vec![f.clone()]);
        assert_eq!(resume(c, "g", 200).unwrap(), Some(f));
        assert!(open_fault(c, "g").unwrap().is_none());
        assert!(resume(c, "g", 201).unwrap().is_none());
        assert!(
            record(c, "g", 3, "check", "later", 300).unwrap().is_some(),
            "a new fault after resume"
        );
    }

    #[test]
    fn sending_pauses_open_once_and_end() {
        let s = Store::in_memory().unwrap();
        let c = s.conn();
        let (p, new) = pause_sending(c, "535 auth", 10).unwrap();
        assert!(new);
        let (q, new) = pause_sending(c, "535 auth again", 20).unwrap();
        assert!(!new);
        assert_eq!((q.id, q.since, q.last_try), (p.id, 10, 20));
        assert_eq!(sending_pause(c).unwrap().unwrap().reason, "535 auth again");
        assert!(end_pause(c, 30).unwrap().is_some());
        assert!(sending_pause(c).unwrap().is_none());
    }
}
