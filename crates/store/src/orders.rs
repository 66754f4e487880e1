//! Orders as players sent them: raw text (envelope stripped) and the verdict
//! of every line. Every accepted mail adds a row; the latest row of a player
//! for a turn is the one in force ("a later valid mail replaces the earlier
//! orders"), and older rows stay as the archive of what was sent.

use crate::Result;
use arbitre_core::LineVerdict;
use rusqlite::{params, Connection};
use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderRow {
    pub id: i64,
    pub game_id: String,
    pub turn: u32,
    pub player: String,
    pub text: String,
    pub verdicts: Vec<LineVerdict>,
    pub errors: u32,
    pub ready: bool,
    pub received_at: i64,
    pub mail_sha256: Option<String>,
    /// Written by the ruleset's bot for a seat without orders (NMR policy
    /// "bot", issue 10), not sent by anyone. Migration 7 (issue 16 item 2)
    /// gave it this column; before, a `bot:` mark stood in `mail_sha256`.
    pub by_bot: bool,
}

#[allow(clippy::too_many_arguments)]
pub fn insert(
    c: &Connection,
    game: &str,
    turn: u32,
    player: &str,
    text: &str,
    verdicts: &[LineVerdict],
    errors: u32,
    ready: bool,
    received_at: i64,
    mail_sha256: Option<&str>,
) -> Result<i64> {
    let v = serde_json::to_string(verdicts).expect("verdicts serialise");
    c.execute(
        "INSERT INTO orders (game_id, turn, player, text, verdicts, errors, ready, received_at, mail_sha256)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        params![game, turn, player, text, v, errors, ready, received_at, mail_sha256],
    )?;
    Ok(c.last_insert_rowid())
}

/// Stores the orders the bot wrote for a seat (no mail carried them).
pub fn insert_bot(
    c: &Connection,
    game: &str,
    turn: u32,
    player: &str,
    text: &str,
    received_at: i64,
) -> Result<i64> {
    c.execute(
        "INSERT INTO orders (game_id, turn, player, text, verdicts, errors, ready, received_at, mail_sha256, by_bot)
         VALUES (?1, ?2, ?3, ?4, '[]', 0, 1, ?5, NULL, 1)",
        params![game, turn, player, text, received_at],
    )?;
    Ok(c.last_insert_rowid())
}

/// The last turn before `before` for which `player` sent orders by mail
/// (orders the bot wrote do not count).
pub fn last_sent_by_mail(
    c: &Connection,
    game: &str,
    player: &str,
    before: u32,
) -> Result<Option<u32>> {
    Ok(c.query_row(
        "SELECT max(turn) FROM orders WHERE game_id = ?1 AND player = ?2 AND turn < ?3 AND by_bot = 0",
        params![game, player, before],
        |r| r.get(0),
    )?)
}

fn rows(c: &Connection, sql: &str, p: impl rusqlite::Params) -> Result<Vec<OrderRow>> {
    let mut st = c.prepare(sql)?;
    let rows = st
        .query_map(p, |r| {
            let v: String = r.get(5)?;
            Ok(OrderRow {
                id: r.get(0)?,
                game_id: r.get(1)?,
                turn: r.get(2)?,
                player: r.get(3)?,
                text: r.get(4)?,
                verdicts: serde_json::from_str(&v).unwrap_or_default(),
                errors: r.get(6)?,
                ready: r.get(7)?,
                received_at: r.get(8)?,
                mail_sha256: r.get(9)?,
                by_bot: r.get(10)?,
            })
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(rows)
}

const COLS: &str =
    "id, game_id, turn, player, text, verdicts, errors, ready, received_at, mail_sha256, by_bot";

/// The rows in force for `turn`, as a condition on `id`: each player's
/// latest row. Only those rows are read, never the archive of earlier
/// mails (a turn of many order mails of megabytes each, issue 14 item 1).
const IN_FORCE: &str =
    "id IN (SELECT max(id) FROM orders WHERE game_id = ?1 AND turn = ?2 GROUP BY player)";

/// The orders in force for `turn`: each player's latest row.
pub fn latest(c: &Connection, game: &str, turn: u32) -> Result<BTreeMap<String, OrderRow>> {
    let all = rows(
        c,
        &format!("SELECT {COLS} FROM orders WHERE {IN_FORCE} ORDER BY id"),
        params![game, turn],
    )?;
    Ok(all.into_iter().map(|o| (o.player.clone(), o)).collect())
}

/// What the schedule asks of the orders in force (who sent, ready, when):
/// [`latest`] without the text and verdicts, which may be megabytes
/// (issue 14 item 1: readiness checks and reminders read only this).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InForce {
    pub ready: bool,
    pub received_at: i64,
    pub by_bot: bool,
}

/// [`InForce`] of each player's latest row for `turn`.
pub fn latest_meta(c: &Connection, game: &str, turn: u32) -> Result<BTreeMap<String, InForce>> {
    let mut st = c.prepare(&format!(
        "SELECT player, ready, received_at, by_bot FROM orders WHERE {IN_FORCE}"
    ))?;
    let rows = st
        .query_map(params![game, turn], |r| {
            Ok((
                r.get::<_, String>(0)?,
                InForce {
                    ready: r.get(1)?,
                    received_at: r.get(2)?,
                    by_bot: r.get(3)?,
                },
            ))
        })?
        .collect::<rusqlite::Result<BTreeMap<_, _>>>()?;
    Ok(rows)
}

/// Every order mail ever accepted for `turn`, oldest first.
pub fn history(c: &Connection, game: &str, turn: u32) -> Result<Vec<OrderRow>> {
    rows(
        c,
        &format!("SELECT {COLS} FROM orders WHERE game_id = ?1 AND turn = ?2 ORDER BY id"),
        params![game, turn],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Store;

    #[test]
    fn latest_meta_is_the_latest_row_of_each_player() {
        let s = Store::in_memory().unwrap();
        crate::games::insert_game(s.conn(), &crate::games::tests::sample("g")).unwrap();
        insert(s.conn(), "g", 1, "a", "ADD 1", &[], 0, true, 10, None).unwrap();
        insert(s.conn(), "g", 1, "b", "ADD 2", &[], 0, true, 11, None).unwrap();
        insert(s.conn(), "g", 1, "a", "ADD 3", &[], 0, false, 12, None).unwrap();
        insert(s.conn(), "g", 2, "a", "ADD 4", &[], 0, true, 13, None).unwrap();
        let meta = latest_meta(s.conn(), "g", 1).unwrap();
        let full = latest(s.conn(), "g", 1).unwrap();
        assert_eq!(meta.len(), 2);
        assert_eq!(full.len(), 2);
        assert_eq!(full["a"].text, "ADD 3");
        for (p, m) in &meta {
            assert_eq!(m.ready, full[p].ready);
            assert_eq!(m.received_at, full[p].received_at);
        }
        assert!(!meta["a"].ready);
        assert_eq!(meta["b"].received_at, 11);
    }

    #[test]
    fn a_later_mail_replaces_the_orders_in_force() {
        let s = Store::in_memory().unwrap();
        crate::games::insert_game(s.conn(), &crate::games::tests::sample("g")).unwrap();
        insert(s.conn(), "g", 1, "a", "ADD 1", &[], 0, true, 10, None).unwrap();
        insert(s.conn(), "g", 1, "b", "ADD 2", &[], 0, true, 11, None).unwrap();
        insert(
            s.conn(),
            "g",
            1,
            "a",
            "ADD 3",
            &[],
            0,
            false,
            12,
            Some("ff"),
        )
        .unwrap();
        let l = latest(s.conn(), "g", 1).unwrap();
        assert_eq!(l["a"].text, "ADD 3");
        assert!(!l["a"].ready);
        assert_eq!(l["b"].text, "ADD 2");
        assert_eq!(history(s.conn(), "g", 1).unwrap().len(), 3);
        assert!(latest(s.conn(), "g", 2).unwrap().is_empty());
    }
}
