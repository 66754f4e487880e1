//! Declared absences (issue 10, `ABSENCE <from> <to>`): the days, inclusive
//! and in the game's time zone, on which a player cannot play. Stored as
//! `YYYY-MM-DD` text so they sort and compare as dates; the daemon checks
//! them against the game master's limits before inserting, and moves a
//! deadline that falls in one (arbitre's services/absence.rs).

use crate::Cached;
use crate::{Result, StoreError};
use rusqlite::{params, Connection};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AbsenceRow {
    pub id: i64,
    pub game_id: String,
    pub player: String,
    /// `YYYY-MM-DD`, inclusive.
    pub first_day: String,
    /// `YYYY-MM-DD`, inclusive.
    pub last_day: String,
    pub declared_at: i64,
    pub mail_sha256: Option<String>,
}

/// Records an absence; returns its id.
pub fn insert(
    c: &Connection,
    game: &str,
    player: &str,
    first_day: &str,
    last_day: &str,
    at: i64,
    sha: Option<&str>,
) -> Result<i64> {
    if first_day.len() != 10 || last_day.len() != 10 || first_day > last_day {
        return Err(StoreError::Corrupt(format!(
            "absence {first_day}..{last_day} is not a date range"
        )));
    }
    c.execute_cached(
        "INSERT INTO absences (game_id, player, first_day, last_day, declared_at, mail_sha256) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![game, player, first_day, last_day, at, sha],
    )?;
    Ok(c.last_insert_rowid())
}

/// The id the next [`insert_row`] of this transaction takes (the table's
/// AUTOINCREMENT sequence, plus one): an ABSENCE is decided before it is
/// written (issue 16 item 1) and its id names the mails it causes.
pub fn next_id(c: &Connection) -> Result<i64> {
    let seq: Option<i64> = c
        .query_row_cached(
            "SELECT seq FROM sqlite_sequence WHERE name = 'absences'",
            [],
            |r| r.get(0),
        )
        .ok();
    let max: Option<i64> = c.query_row_cached("SELECT max(id) FROM absences", [], |r| r.get(0))?;
    Ok(seq.unwrap_or(0).max(max.unwrap_or(0)) + 1)
}

/// Writes an absence decided beforehand, under its decided id. Written
/// twice, it is there once: the second write finds the id and changes
/// nothing (returns `false`).
pub fn insert_row(c: &Connection, a: &AbsenceRow) -> Result<bool> {
    if a.first_day.len() != 10 || a.last_day.len() != 10 || a.first_day > a.last_day {
        return Err(StoreError::Corrupt(format!(
            "absence {}..{} is not a date range",
            a.first_day, a.last_day
        )));
    }
    let n = c.execute_cached(
        "INSERT OR IGNORE INTO absences (id, game_id, player, first_day, last_day, declared_at, mail_sha256) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![a.id, a.game_id, a.player, a.first_day, a.last_day, a.declared_at, a.mail_sha256],
    )?;
    Ok(n == 1)
}

fn read(r: &rusqlite::Row<'_>) -> rusqlite::Result<AbsenceRow> {
    Ok(AbsenceRow {
        id: r.get(0)?,
        game_id: r.get(1)?,
        player: r.get(2)?,
        first_day: r.get(3)?,
        last_day: r.get(4)?,
        declared_at: r.get(5)?,
        mail_sha256: r.get(6)?,
    })
}

const COLUMNS: &str = "id, game_id, player, first_day, last_day, declared_at, mail_sha256";

/// A player's absences in a game, by first day.
pub fn of_player(c: &Connection, game: &str, player: &str) -> Result<Vec<AbsenceRow>> {
    let mut st = c.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM absences WHERE game_id = ?1 AND player = ?2 ORDER BY first_day, id"
    ))?;
    let rows = st
        .query_map(params![game, player], read)?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(rows)
}

/// Every absence of a game that covers `day` (`YYYY-MM-DD`), by first day.
pub fn covering(c: &Connection, game: &str, day: &str) -> Result<Vec<AbsenceRow>> {
    let mut st = c.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM absences WHERE game_id = ?1 AND first_day <= ?2 AND last_day >= ?2 ORDER BY first_day, id"
    ))?;
    let rows = st
        .query_map(params![game, day], read)?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(rows)
}

/// Every absence of a game not over before `from_day` (`YYYY-MM-DD`), by
/// first day.
pub fn of_game_from(c: &Connection, game: &str, from_day: &str) -> Result<Vec<AbsenceRow>> {
    let mut st = c.prepare_cached(&format!("SELECT {COLUMNS} FROM absences WHERE game_id = ?1 AND last_day >= ?2 ORDER BY first_day, player, id"))?;
    let rows = st
        .query_map(params![game, from_day], read)?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(rows)
}

/// How many absences a player has declared in a game (the
/// `absence_max_per_game` limit counts them all, past ones included).
pub fn count(c: &Connection, game: &str, player: &str) -> Result<u32> {
    Ok(c.query_row_cached(
        "SELECT count(*) FROM absences WHERE game_id = ?1 AND player = ?2",
        params![game, player],
        |r| r.get(0),
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absences_are_counted_per_player_and_found_by_day() {
        let s = crate::Store::in_memory().unwrap();
        let c = s.conn();
        let a = insert(c, "g", "p1", "2026-12-24", "2026-12-31", 5, Some("ab")).unwrap();
        insert(c, "g", "p2", "2026-12-30", "2027-01-02", 6, None).unwrap();
        insert(c, "h", "p1", "2026-12-24", "2026-12-31", 7, None).unwrap();
        assert_eq!(count(c, "g", "p1").unwrap(), 1);
        assert_eq!(count(c, "g", "p3").unwrap(), 0);
        assert_eq!(of_player(c, "g", "p1").unwrap()[0].id, a);
        let days = |d| {
            covering(c, "g", d)
                .unwrap()
                .into_iter()
                .map(|r| r.player)
                .collect::<Vec<_>>()
        };
        assert_eq!(days("2026-12-23"), Vec::<String>::new());
        assert_eq!(days("2026-12-24"), ["p1"]);
        assert_eq!(days("2026-12-31"), ["p1", "p2"]);
        assert_eq!(days("2027-01-02"), ["p2"]);
        assert!(insert(c, "g", "p1", "2026-12-31", "2026-12-24", 5, None).is_err());
        let from = |d| {
            of_game_from(c, "g", d)
                .unwrap()
                .into_iter()
                .map(|r| r.player)
                .collect::<Vec<_>>()
        };
        assert_eq!(from("2026-12-01"), ["p1", "p2"]);
        assert_eq!(from("2027-01-01"), ["p2"]);
        assert!(from("2027-01-03").is_empty());
    }

    #[test]
    fn a_decided_absence_takes_the_next_id_and_written_twice_is_once() {
        let s = crate::Store::in_memory().unwrap();
        let c = s.conn();
        assert_eq!(next_id(c).unwrap(), 1);
        let first = insert(c, "g", "p1", "2026-12-24", "2026-12-31", 5, None).unwrap();
        let id = next_id(c).unwrap();
        assert_eq!(id, first + 1);
        let row = AbsenceRow {
            id,
            game_id: "g".into(),
            player: "p2".into(),
            first_day: "2027-01-01".into(),
            last_day: "2027-01-03".into(),
            declared_at: 6,
            mail_sha256: Some("ab".into()),
        };
        assert!(insert_row(c, &row).unwrap());
        assert!(!insert_row(c, &row).unwrap());
        assert_eq!(count(c, "g", "p2").unwrap(), 1);
        assert_eq!(of_player(c, "g", "p2").unwrap(), vec![row]);
        // An id used then deleted is not taken again (AUTOINCREMENT).
        c.execute_cached("DELETE FROM absences WHERE id = ?1", [id])
            .unwrap();
        assert_eq!(next_id(c).unwrap(), id + 1);
        assert_eq!(
            insert(c, "g", "p3", "2027-02-01", "2027-02-02", 7, None).unwrap(),
            id + 1
        );
    }
}
