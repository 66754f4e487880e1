//! Sign-up requests by mail (issue 17 item 3): `JOIN <game> [name]` from
//! any address, kept until the game master answers ACCEPT or REFUSE (or
//! accepted at once when the game approves automatically). One row per
//! (game, address): the key that keeps one address from asking twice.

use crate::Cached;
use crate::Result;
use rusqlite::{params, Connection, OptionalExtension};

pub use crate::kinds::SignupStatus;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signup {
    pub game_id: String,
    /// Trimmed, lower case.
    pub email: String,
    pub name: String,
    pub status: SignupStatus,
    pub requested_at: i64,
    pub decided_at: Option<i64>,
    /// The seat it became, once accepted.
    pub player: Option<String>,
    /// The game master's reason, when refused.
    pub reason: Option<String>,
}

const COLUMNS: &str = "game_id, email, name, status, requested_at, decided_at, player, reason";

fn row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Signup> {
    Ok(Signup {
        game_id: r.get(0)?,
        email: r.get(1)?,
        name: r.get(2)?,
        status: r.get(3)?,
        requested_at: r.get(4)?,
        decided_at: r.get(5)?,
        player: r.get(6)?,
        reason: r.get(7)?,
    })
}

/// The key an address is stored under.
pub fn key(email: &str) -> String {
    email.trim().to_lowercase()
}

/// Records a request; a second request of one address for one game is a
/// constraint violation (the caller checks [`get`] first).
pub fn insert(c: &Connection, s: &Signup) -> Result<()> {
    c.execute_cached(
        &format!("INSERT INTO signups ({COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"),
        params![
            s.game_id,
            key(&s.email),
            s.name,
            s.status,
            s.requested_at,
            s.decided_at,
            s.player,
            s.reason
        ],
    )?;
    Ok(())
}

/// The request of `email` for `game`, whatever its status.
pub fn get(c: &Connection, game: &str, email: &str) -> Result<Option<Signup>> {
    Ok(c.query_row_cached(
        &format!("SELECT {COLUMNS} FROM signups WHERE game_id = ?1 AND email = ?2"),
        params![game, key(email)],
        row,
    )
    .optional()?)
}

/// Every request of `game` with `status`, oldest first.
pub fn with_status(c: &Connection, game: &str, status: SignupStatus) -> Result<Vec<Signup>> {
    let mut st = c.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM signups WHERE game_id = ?1 AND status = ?2 ORDER BY requested_at, email"
    ))?;
    let rows = st
        .query_map(params![game, status], row)?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(rows)
}

/// How many requests of `game` wait for the game master.
pub fn pending_count(c: &Connection, game: &str) -> Result<u32> {
    Ok(c.query_row_cached(
        "SELECT count(*) FROM signups WHERE game_id = ?1 AND status = ?2",
        params![game, SignupStatus::Pending],
        |r| r.get(0),
    )?)
}

/// The game master's (or the automatic) answer to a request: its status,
/// the seat it became, the reason of a refusal. Also inserts the row when
/// the request was never pending (`approve = "auto"`).
pub fn decide(c: &Connection, s: &Signup) -> Result<()> {
    c.execute_cached(
        &format!(
            "INSERT INTO signups ({COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
             ON CONFLICT (game_id, email) DO UPDATE SET
               status = excluded.status, decided_at = excluded.decided_at,
               player = excluded.player, reason = excluded.reason"
        ),
        params![
            s.game_id,
            key(&s.email),
            s.name,
            s.status,
            s.requested_at,
            s.decided_at,
            s.player,
            s.reason
        ],
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_row_per_address_and_game_decided_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let s = crate::Store::open(&dir.path().join("a.db")).unwrap();
        let c = s.conn();
        let mut req = Signup {
            game_id: "g".into(),
            email: " Dora@Example.org ".into(),
            name: "Dora".into(),
            status: SignupStatus::Pending,
            requested_at: 10,
            decided_at: None,
            player: None,
            reason: None,
        };
        insert(c, &req).unwrap();
        assert!(insert(c, &req).is_err(), "an address asks once");
        assert_eq!(pending_count(c, "g").unwrap(), 1);
        let got = get(c, "g", "dora@example.org").unwrap().unwrap();
        assert_eq!(got.email, "dora@example.org");
        req.status = SignupStatus::Accepted;
        req.decided_at = Some(20);
        req.player = Some("dora".into());
        decide(c, &req).unwrap();
        assert_eq!(pending_count(c, "g").unwrap(), 0);
        let got = get(c, "g", "DORA@example.org").unwrap().unwrap();
        assert_eq!(
            (got.status, got.player.as_deref(), got.requested_at),
            (SignupStatus::Accepted, Some("dora"), 10)
        );
        assert_eq!(
            with_status(c, "g", SignupStatus::Accepted).unwrap().len(),
            1
        );
    }
}
