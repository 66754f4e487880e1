//! Resolved turns: the ruleset's JSON state after each one, kept for every
//! turn (turn 0 is the state `game create` built). `(game, turn)` is the
//! primary key, which is what makes resolving a turn twice impossible.

use crate::Cached;
use crate::{Result, StoreError};
use rusqlite::{params, Connection, OptionalExtension};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnRow {
    pub game_id: String,
    pub turn: u32,
    pub state: String,
    pub resolved_at: i64,
    /// JSON `Outcome` once the game has ended.
    pub outcome: Option<String>,
}

pub fn insert(c: &Connection, t: &TurnRow) -> Result<()> {
    let res = c.execute_cached(
        "INSERT INTO turns (game_id, turn, state, resolved_at, outcome) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![t.game_id, t.turn, t.state, t.resolved_at, t.outcome],
    );
    match res {
        Ok(_) => Ok(()),
        Err(e) => {
            let e = StoreError::from(e);
            if e.is_constraint() {
                Err(StoreError::TurnExists {
                    game: t.game_id.clone(),
                    turn: t.turn,
                })
            } else {
                Err(e)
            }
        }
    }
}

pub fn get(c: &Connection, game: &str, turn: u32) -> Result<Option<TurnRow>> {
    Ok(c.query_row_cached(
        "SELECT game_id, turn, state, resolved_at, outcome FROM turns WHERE game_id = ?1 AND turn = ?2",
        params![game, turn],
        |r| {
            Ok(TurnRow {
                game_id: r.get(0)?,
                turn: r.get(1)?,
                state: r.get(2)?,
                resolved_at: r.get(3)?,
                outcome: r.get(4)?,
            })
        },
    )
    .optional()?)
}

/// Replaces the state of an already stored turn. Only for changes made
/// between two resolutions that are not a turn: a player joining a game in
/// progress. The turn's number and resolution time stay.
pub fn replace_state(c: &Connection, game: &str, turn: u32, state: &str) -> Result<()> {
    let n = c.execute_cached(
        "UPDATE turns SET state = ?3 WHERE game_id = ?1 AND turn = ?2",
        params![game, turn, state],
    )?;
    if n == 1 {
        Ok(())
    } else {
        Err(StoreError::Corrupt(format!(
            "turn {turn} of {game} is not stored"
        )))
    }
}

/// The stamp of a game's latest state (migration 11): a number that
/// changes with every write of one of the game's turns and is never given
/// twice, so two reads with the same stamp saw the same state. `None` for
/// a game with no turn.
pub fn state_rev(c: &Connection, game: &str) -> Result<Option<i64>> {
    Ok(c.query_row_cached(
        "SELECT rev FROM state_revs WHERE game_id = ?1",
        [game],
        |r| r.get(0),
    )
    .optional()?)
}

/// The latest state of a game with its stamp ([`state_rev`]), read in one
/// statement, so the stamp is the very state's even outside a transaction.
pub fn latest_stamped(c: &Connection, game: &str) -> Result<(String, Option<i64>)> {
    c.query_row_cached(
        "SELECT t.state, r.rev FROM turns t LEFT JOIN state_revs r ON r.game_id = t.game_id
          WHERE t.game_id = ?1 ORDER BY t.turn DESC LIMIT 1",
        [game],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
    .optional()?
    .ok_or_else(|| StoreError::UnknownGame(game.to_string()))
}

/// The latest state of a game.
pub fn latest(c: &Connection, game: &str) -> Result<TurnRow> {
    let turn: Option<u32> = c.query_row_cached(
        "SELECT max(turn) FROM turns WHERE game_id = ?1",
        [game],
        |r| r.get(0),
    )?;
    let turn = turn.ok_or_else(|| StoreError::UnknownGame(game.to_string()))?;
    get(c, game, turn)?
        .ok_or_else(|| StoreError::Corrupt(format!("turn {turn} of {game} vanished")))
}

/// PREVIEW (issue 10): a held turn's reports wait for the game master's
/// RELEASE, and the next turn is not resolved before.
pub fn set_held(c: &Connection, game: &str, turn: u32, held: bool) -> Result<()> {
    c.execute_cached(
        "UPDATE turns SET held = ?3 WHERE game_id = ?1 AND turn = ?2",
        params![game, turn, held],
    )?;
    Ok(())
}

/// The held turn of a game, if any.
pub fn held(c: &Connection, game: &str) -> Result<Option<u32>> {
    Ok(c.query_row_cached(
        "SELECT max(turn) FROM turns WHERE game_id = ?1 AND held = 1",
        [game],
        |r| r.get(0),
    )?)
}

/// ROLLBACK (issue 10): every turn after `to` moves to `rolled_back_turns`
/// (the archive never loses a state) and leaves `turns`, so the game's
/// latest state is the one after `to`. Returns the turns moved.
pub fn roll_back(c: &Connection, game: &str, to: u32, at: i64) -> Result<Vec<u32>> {
    let moved = after(c, game, to)?;
    c.execute_cached(
        "INSERT INTO rolled_back_turns (game_id, turn, state, resolved_at, outcome, to_turn, rolled_back_at)
         SELECT game_id, turn, state, resolved_at, outcome, ?2, ?3 FROM turns WHERE game_id = ?1 AND turn > ?2",
        params![game, to, at],
    )?;
    c.execute_cached(
        "DELETE FROM turns WHERE game_id = ?1 AND turn > ?2",
        params![game, to],
    )?;
    Ok(moved)
}

/// The resolved turns of `game` after `to`, in order: what
/// [`roll_back`] to `to` would undo.
pub fn after(c: &Connection, game: &str, to: u32) -> Result<Vec<u32>> {
    let mut st =
        c.prepare_cached("SELECT turn FROM turns WHERE game_id = ?1 AND turn > ?2 ORDER BY turn")?;
    let turns = st
        .query_map(params![game, to], |r| r.get(0))?
        .collect::<rusqlite::Result<Vec<u32>>>()?;
    Ok(turns)
}

/// How many times `turn` of `game` was resolved and then undone: a turn
/// resolved again needs Message-IDs of its own for its reports.
pub fn times_rolled_back(c: &Connection, game: &str, turn: u32) -> Result<u32> {
    Ok(c.query_row_cached(
        "SELECT count(*) FROM rolled_back_turns WHERE game_id = ?1 AND turn = ?2",
        params![game, turn],
        |r| r.get(0),
    )?)
}

/// When `turn` of `game` was last undone, if ever.
pub fn rolled_back_at(c: &Connection, game: &str, turn: u32) -> Result<Option<i64>> {
    Ok(c.query_row_cached(
        "SELECT max(rolled_back_at) FROM rolled_back_turns WHERE game_id = ?1 AND turn = ?2",
        params![game, turn],
        |r| r.get(0),
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Store;

    #[test]
    fn a_turn_cannot_be_stored_twice() {
        let s = Store::in_memory().unwrap();
        crate::games::insert_game(s.conn(), &crate::games::tests::sample("g")).unwrap();
        let t = TurnRow {
            game_id: "g".into(),
            turn: 1,
            state: "{}".into(),
            resolved_at: 3,
            outcome: None,
        };
        insert(s.conn(), &t).unwrap();
        assert!(matches!(
            insert(s.conn(), &t),
            Err(StoreError::TurnExists { turn: 1, .. })
        ));
        assert_eq!(latest(s.conn(), "g").unwrap(), t);
        assert!(matches!(
            latest(s.conn(), "nope"),
            Err(StoreError::UnknownGame(_))
        ));
    }

    #[test]
    fn rolled_back_turns_leave_turns_and_stay_archived() {
        let s = Store::in_memory().unwrap();
        let c = s.conn();
        crate::games::insert_game(c, &crate::games::tests::sample("g")).unwrap();
        for turn in 0..4 {
            insert(
                c,
                &TurnRow {
                    game_id: "g".into(),
                    turn,
                    state: format!("s{turn}"),
                    resolved_at: turn as i64,
                    outcome: None,
                },
            )
            .unwrap();
        }
        set_held(c, "g", 3, true).unwrap();
        assert_eq!(held(c, "g").unwrap(), Some(3));
        assert_eq!(roll_back(c, "g", 1, 99).unwrap(), [2, 3]);
        assert_eq!(latest(c, "g").unwrap().state, "s1");
        assert_eq!(held(c, "g").unwrap(), None);
        assert_eq!(times_rolled_back(c, "g", 2).unwrap(), 1);
        assert_eq!(times_rolled_back(c, "g", 1).unwrap(), 0);
        // The turn can be resolved again.
        insert(
            c,
            &TurnRow {
                game_id: "g".into(),
                turn: 2,
                state: "s2".into(),
                resolved_at: 100,
                outcome: None,
            },
        )
        .unwrap();
    }

    /// Issue 22 item 1: the daemon keeps a decoded state under its stamp,
    /// so every write that can change a game's latest state must change
    /// the stamp, and no stamp may come back (a stale decoded state would
    /// then be taken for the new one).
    #[test]
    fn state_rev_changes_with_every_write_of_a_turn_and_never_repeats() {
        let s = Store::in_memory().unwrap();
        let c = s.conn();
        crate::games::insert_game(c, &crate::games::tests::sample("g")).unwrap();
        crate::games::insert_game(c, &crate::games::tests::sample("h")).unwrap();
        assert_eq!(state_rev(c, "g").unwrap(), None);
        let row = |game: &str, turn: u32, state: &str| TurnRow {
            game_id: game.into(),
            turn,
            state: state.into(),
            resolved_at: 0,
            outcome: None,
        };
        let mut seen = Vec::new();
        let mut stamp = |c: &Connection, game: &str| {
            let rev = state_rev(c, game).unwrap().expect("stamped");
            assert!(!seen.contains(&rev), "stamp {rev} given twice: {seen:?}");
            seen.push(rev);
            rev
        };
        insert(c, &row("g", 0, "s0")).unwrap();
        let first = stamp(c, "g");
        insert(c, &row("h", 0, "t0")).unwrap();
        stamp(c, "h");
        assert_eq!(
            state_rev(c, "g").unwrap(),
            Some(first),
            "another game's write"
        );
        insert(c, &row("g", 1, "s1")).unwrap();
        stamp(c, "g");
        replace_state(c, "g", 1, "s1 with a new player").unwrap();
        stamp(c, "g");
        let before_hold = state_rev(c, "g").unwrap();
        set_held(c, "g", 1, true).unwrap();
        assert_eq!(
            state_rev(c, "g").unwrap(),
            before_hold,
            "holding a turn keeps its state"
        );
        roll_back(c, "g", 0, 5).unwrap();
        stamp(c, "g");
        // Deleted and created again under the same id: a new stamp still.
        c.execute("DELETE FROM turns WHERE game_id = 'g'", [])
            .unwrap();
        stamp(c, "g");
        insert(c, &row("g", 0, "s0")).unwrap();
        assert_ne!(stamp(c, "g"), first);
    }
}
