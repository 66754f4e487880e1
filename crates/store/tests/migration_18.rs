//! Issue 22 item 4: migration 18 indexes the sent mails whose raw text is
//! still kept (`outbox_unpruned`), so that retention (`outbox::prune_sent`,
//! at every resolution) visits those mails only, not every mail of the
//! game's past turns pruned long ago. On a database of schema 17 with a
//! game's history, the index holds exactly the mails left to prune, the
//! prune takes the same mails as before, and the index follows it.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

mod common;

use arbitre_store::{migrations, outbox};
use rusqlite::{params, Connection};

/// The sent mails of game `g` still holding their raw text, by id, as the
/// index lists them and as the table does.
fn unpruned(c: &Connection) -> (Vec<i64>, Vec<i64>) {
    let ids = |sql: &str| -> Vec<i64> {
        let mut st = c.prepare(sql).unwrap();
        let rows = st.query_map([], |r| r.get(0)).unwrap();
        rows.map(|r| r.unwrap()).collect()
    };
    (
        ids("SELECT id FROM outbox INDEXED BY outbox_unpruned
              WHERE game_id = 'g' AND turn <= 1000 AND status = 'sent' AND pruned_at IS NULL
              ORDER BY id"),
        ids("SELECT id FROM outbox NOT INDEXED
              WHERE game_id = 'g' AND status = 'sent' AND pruned_at IS NULL ORDER BY id"),
    )
}

fn raw_kept(c: &Connection, id: i64) -> bool {
    c.query_row("SELECT count(*) FROM outbox_raw WHERE id = ?1", [id], |r| {
        r.get::<_, i64>(0)
    })
    .unwrap()
        == 1
}

#[test]
fn issue22_4_migration_18_prunes_through_the_mails_left_to_prune() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("arbitre.db");
    // Turns 1-6 of game g, three mails a turn: two sent, one pending.
    // Turns 1-3 were pruned already; game h has mails of its own.
    let mut by_turn: Vec<(u32, i64, &str)> = Vec::new();
    {
        let mut c = Connection::open(&path).unwrap();
        migrations::migrate_to(&mut c, 17).unwrap();
        for (game, turns) in [("g", 1..=6u32), ("h", 1..=2)] {
            for turn in turns {
                for (n, status) in ["sent", "sent", "pending"].into_iter().enumerate() {
                    let pruned = (game == "g" && turn <= 3 && status == "sent").then_some(500);
                    c.execute(
                        "INSERT INTO outbox (message_id, game_id, turn, player, kind, recipient,
                             subject, body, status, attempts, next_attempt_at, created_at, pruned_at)
                         VALUES (?1, ?2, ?3, 'p1', 'report', 'r@x', 's', 'b', ?4, 1, 300, 300, ?5)",
                        params![format!("{game}{turn}.{n}"), game, turn, status, pruned],
                    )
                    .unwrap();
                    let id = c.last_insert_rowid();
                    if pruned.is_none() {
                        c.execute(
                            "INSERT INTO outbox_raw (id, raw, codec) VALUES (?1, x'61', 0)",
                            [id],
                        )
                        .unwrap();
                    }
                    if game == "g" {
                        by_turn.push((turn, id, status));
                    }
                }
            }
        }
    }
    let s = common::open_migrated(&path);
    let c = s.conn();
    let sent_of = |turns: std::ops::RangeInclusive<u32>| -> Vec<i64> {
        by_turn
            .iter()
            .filter(|(t, _, st)| turns.contains(t) && *st == "sent")
            .map(|(_, id, _)| *id)
            .collect()
    };

    // The index made by the migration holds turns 4-6's sent mails only.
    let (indexed, table) = unpruned(c);
    assert_eq!(indexed, table);
    assert_eq!(indexed, sent_of(4..=6));

    // Retention up to turn 5 takes turns 4 and 5's sent mails, as the
    // statements without the index did; pending mails keep their text.
    assert_eq!(outbox::prune_sent(c, "g", 5, 900).unwrap(), 4);
    for (turn, id, status) in &by_turn {
        let kept = !(*status == "sent" && *turn <= 5);
        assert_eq!(raw_kept(c, *id), kept, "turn {turn} {status}");
    }
    let (indexed, table) = unpruned(c);
    assert_eq!(indexed, table);
    assert_eq!(indexed, sent_of(6..=6));

    // A mail sent later enters the index; pruning again finds only it.
    let pending6 = by_turn
        .iter()
        .find(|(t, _, st)| *t == 6 && *st == "pending")
        .unwrap()
        .1;
    outbox::mark_sent(c, pending6, 950).unwrap();
    assert_eq!(unpruned(c).0.len(), 3);
    assert_eq!(outbox::prune_sent(c, "g", 6, 1_000).unwrap(), 3);
    assert!(unpruned(c).0.is_empty());
    // Game h was never touched.
    let h: i64 = c
        .query_row(
            "SELECT count(*) FROM outbox WHERE game_id = 'h' AND pruned_at IS NULL",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(h, 6);
}
