//! Seats changing hands (issue 10): a game master's `EJECT` and a
//! takeover by a new player. The seat keeps its id and everything the
//! ruleset knows of it; only who plays it changes. Every change is a row
//! of `seat_changes`, the archive of who held a seat when.

use crate::Cached;
use crate::Result;
use rusqlite::{params, Connection};

pub use crate::kinds::SeatChangeKind;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatChange {
    pub game_id: String,
    pub player: String,
    /// The turn being played when the seat changed.
    pub turn: u32,
    pub kind: SeatChangeKind,
    pub old_name: Option<String>,
    pub old_email: Option<String>,
    pub new_name: Option<String>,
    pub new_email: Option<String>,
    pub at: i64,
}

#[allow(clippy::too_many_arguments)]
pub fn record(
    c: &Connection,
    game: &str,
    player: &str,
    turn: u32,
    kind: SeatChangeKind,
    old: Option<(&str, &str)>,
    new: Option<(&str, &str)>,
    at: i64,
) -> Result<()> {
    c.execute_cached(
        "INSERT INTO seat_changes (game_id, player, turn, kind, old_name, old_email, new_name, new_email, at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        params![game, player, turn, kind, old.map(|o| o.0), old.map(|o| o.1), new.map(|n| n.0), new.map(|n| n.1), at],
    )?;
    Ok(())
}

/// Every change of a game's seats, oldest first.
pub fn changes(c: &Connection, game: &str) -> Result<Vec<SeatChange>> {
    let mut st = c.prepare_cached(
        "SELECT game_id, player, turn, kind, old_name, old_email, new_name, new_email, at
           FROM seat_changes WHERE game_id = ?1 ORDER BY id",
    )?;
    let rows = st
        .query_map([game], |r| {
            Ok(SeatChange {
                game_id: r.get(0)?,
                player: r.get(1)?,
                turn: r.get(2)?,
                kind: r.get(3)?,
                old_name: r.get(4)?,
                old_email: r.get(5)?,
                new_name: r.get(6)?,
                new_email: r.get(7)?,
                at: r.get(8)?,
            })
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(rows)
}

/// A takeover: the seat's name, address and password hash change, its id
/// stays. Returns false when the game has no such seat.
pub fn replace_player(
    c: &Connection,
    game: &str,
    player: &str,
    name: &str,
    email: &str,
    password_hash: &str,
) -> Result<bool> {
    let n = c.execute_cached(
        "UPDATE players SET name = ?3, email = ?4, password_hash = ?5 WHERE game_id = ?1 AND id = ?2",
        params![game, player, name, email, password_hash],
    )?;
    Ok(n == 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{self, PlayerRow};

    #[test]
    fn a_takeover_keeps_the_seat_id_and_is_recorded() {
        let s = crate::Store::in_memory().unwrap();
        let c = s.conn();
        games::insert_game(c, &games::tests::sample("g")).unwrap();
        games::insert_player(
            c,
            "g",
            &PlayerRow {
                id: "a".into(),
                name: "Ann".into(),
                email: "ann@x".into(),
                password_hash: "h1".into(),
            },
        )
        .unwrap();
        assert!(replace_player(c, "g", "a", "Bea", "bea@x", "h2").unwrap());
        assert!(!replace_player(c, "g", "zz", "Bea", "bea@x", "h2").unwrap());
        record(
            c,
            "g",
            "a",
            3,
            SeatChangeKind::Takeover,
            Some(("Ann", "ann@x")),
            Some(("Bea", "bea@x")),
            50,
        )
        .unwrap();
        let p = games::player_nocase(c, "g", "a").unwrap().unwrap();
        assert_eq!(
            (p.name.as_str(), p.email.as_str(), p.password_hash.as_str()),
            ("Bea", "bea@x", "h2")
        );
        let ch = changes(c, "g").unwrap();
        assert_eq!(ch.len(), 1);
        assert_eq!(
            (
                ch[0].kind.as_str(),
                ch[0].old_email.as_deref(),
                ch[0].new_email.as_deref()
            ),
            ("takeover", Some("ann@x"), Some("bea@x"))
        );
    }
}
