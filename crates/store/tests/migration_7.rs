//! Issue 16 item 2: migration 7 converts a database of the current release
//! (schema 1..6, rows written the way that release writes them: `bot:`
//! marks in `orders.mail_sha256`, wrong passwords known only from the
//! outbox's `error` answers and a per-turn counter) into the typed store,
//! and everything reads as it did.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre_store::{
    games, journal, migrations, orders, outbox, seats, wrong_passwords, GameStatus, JournalOutcome,
    MailKind, OutboxStatus, PreviewMode, SeatChangeKind, Store,
};
use rusqlite::{params, Connection};

/// The rows release 6 writes, with its own SQL.
fn release_6_database(path: &std::path::Path) {
    let mut c = Connection::open(path).unwrap();
    migrations::migrate_to(&mut c, 6).unwrap();
    assert_eq!(migrations::version(&c).unwrap(), 6);
    c.execute_batch(
        "INSERT INTO games (id, ruleset, seed, lang, config, gm_email, turn, status, deadline, created_at, preview, msgid_salt)
           VALUES ('g', 'tally', 7, 'en', 'id = \"g\"', 'gm@x', 2, 'paused', NULL, 100, 'next', 'abc');
         INSERT INTO players VALUES ('g', 'p1', 'Ann', 'ann@x', 'h1'), ('g', 'p2', 'Bob', 'bob@x', 'h2');
         INSERT INTO turns (game_id, turn, state, resolved_at, outcome) VALUES ('g', 0, '{}', 100, NULL), ('g', 1, '{\"n\":1}', 200, NULL);",
    )
    .unwrap();
    let order = |turn: u32, player: &str, text: &str, sha: &str, at: i64| {
        c.execute(
            "INSERT INTO orders (game_id, turn, player, text, verdicts, errors, ready, received_at, mail_sha256)
             VALUES ('g', ?1, ?2, ?3, '[]', 0, 1, ?4, ?5)",
            params![turn, player, text, at, sha],
        )
        .unwrap();
    };
    order(1, "p1", "ADD 1", "aa11", 150);
    order(1, "p2", "ADD 2", "bot:g:1:p2", 190);
    order(2, "p1", "ADD 3", "bb22", 250);
    order(2, "p2", "ADD 4", "bot:g:2:p2", 290);
    let mail = |mid: &str, turn: Option<u32>, player: Option<&str>, kind: &str, status: &str| {
        c.execute(
            "INSERT INTO outbox (message_id, game_id, turn, player, kind, recipient, subject, body, raw, status, attempts, next_attempt_at, created_at)
             VALUES (?1, 'g', ?2, ?3, ?4, 'r@x', 's', 'b', x'00', ?5, 0, 300, 300)",
            params![mid, turn, player, kind, status],
        )
        .unwrap();
    };
    // Two wrong passwords for p1 during turn 2, one for p2 during turn 1.
    mail("e1", Some(2), Some("p1"), "error", "sent");
    mail("e2", Some(2), Some("p1"), "error", "pending");
    mail("e3", Some(1), Some("p2"), "error", "sent");
    // An error about no player is no wrong password (too many lines...).
    mail("e4", Some(2), None, "error", "sent");
    mail("r1", Some(2), Some("p1"), "report", "held");
    mail("c1", Some(2), Some("p1"), "confirm", "cancelled");
    // Three more for p1 during turn 2 were left unanswered by a limit.
    c.execute(
        "INSERT INTO rate_counters (scope, key, bucket, count, answered) VALUES ('seat-wrong-silent', ?1, 2, 3, 0)",
        ["g\0p1"],
    )
    .unwrap();
    c.execute_batch(
        "INSERT INTO mail_journal VALUES ('s1', 'm1', 'ann@x', 150, 'g', 'stored', ''),
                                         ('s2', 'm2', 'eve@x', 160, 'g', 'rejected', 'wrong password for player ''p1'''),
                                         ('s3', NULL, 'eve@x', 170, NULL, 'rate-limited-silent', '');
         INSERT INTO seat_changes (game_id, player, turn, kind, old_name, old_email, new_name, new_email, at)
           VALUES ('g', 'p2', 1, 'takeover', 'Bo', 'bo@x', 'Bob', 'bob@x', 180);",
    )
    .unwrap();
}

#[test]
fn issue16_2_migration_7_converts_a_release_6_database() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("arbitre.db");
    release_6_database(&path);
    let s = Store::open(&path).unwrap();
    let c = s.conn();
    assert_eq!(
        migrations::version(c).unwrap(),
        migrations::MIGRATIONS.len() as i64
    );
    // The game reads as it did.
    let g = games::require_game(c, "g").unwrap();
    assert_eq!(
        (g.status, g.turn, g.deadline, g.seed),
        (GameStatus::Paused, 2, None, 7)
    );
    assert_eq!(games::preview(c, "g").unwrap(), Some(PreviewMode::Next));
    // Bot orders: their own column, no mark in the hash column.
    let h1 = orders::history(c, "g", 1).unwrap();
    let h2 = orders::history(c, "g", 2).unwrap();
    let view = |h: &[orders::OrderRow]| -> Vec<(String, String, Option<String>, bool)> {
        h.iter()
            .map(|o| {
                (
                    o.player.clone(),
                    o.text.clone(),
                    o.mail_sha256.clone(),
                    o.by_bot,
                )
            })
            .collect()
    };
    assert_eq!(
        view(&h2),
        vec![
            ("p1".into(), "ADD 3".into(), Some("bb22".into()), false),
            ("p2".into(), "ADD 4".into(), None, true),
        ]
    );
    assert!(h1[1].by_bot && !h1[0].by_bot);
    // What the bot policy reads: p2 never sent orders by mail, p1 did for turn 2.
    assert_eq!(orders::last_sent_by_mail(c, "g", "p2", 3).unwrap(), None);
    assert_eq!(orders::last_sent_by_mail(c, "g", "p1", 3).unwrap(), Some(2));
    // Wrong passwords: a record each, answered (outbox) or not (counter).
    assert_eq!(wrong_passwords::count(c, "g", 2, "p1").unwrap(), 5);
    assert_eq!(wrong_passwords::count(c, "g", 1, "p2").unwrap(), 1);
    assert_eq!(wrong_passwords::count(c, "g", 2, "p2").unwrap(), 0);
    let answered = wrong_passwords::of_game(c, "g")
        .unwrap()
        .iter()
        .filter(|w| w.answered)
        .count();
    assert_eq!(answered, 3);
    let silent: i64 = c
        .query_row(
            "SELECT count(*) FROM rate_counters WHERE scope = 'seat-wrong-silent'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(silent, 0, "the counter became records");
    // Kinds, statuses and outcomes read as enums, with their old words.
    let mails: Vec<(String, MailKind, OutboxStatus)> = outbox::all(c)
        .unwrap()
        .into_iter()
        .map(|r| (r.mail.message_id, r.mail.kind, r.status))
        .collect();
    assert_eq!(
        mails,
        vec![
            ("e1".into(), MailKind::Error, OutboxStatus::Sent),
            ("e2".into(), MailKind::Error, OutboxStatus::Pending),
            ("e3".into(), MailKind::Error, OutboxStatus::Sent),
            ("e4".into(), MailKind::Error, OutboxStatus::Sent),
            ("r1".into(), MailKind::Report, OutboxStatus::Held),
            ("c1".into(), MailKind::Confirm, OutboxStatus::Cancelled),
        ]
    );
    let outcomes: Vec<JournalOutcome> = journal::entries(c)
        .unwrap()
        .into_iter()
        .map(|e| e.outcome)
        .collect();
    assert_eq!(
        outcomes,
        vec![
            JournalOutcome::Stored,
            JournalOutcome::Rejected,
            JournalOutcome::RateLimitedSilent
        ]
    );
    assert_eq!(
        seats::changes(c, "g").unwrap()[0].kind,
        SeatChangeKind::Takeover
    );
}

/// A word outside a column's set is reported, not misread.
#[test]
fn issue16_2_an_unknown_word_is_an_error_not_a_guess() {
    let s = Store::in_memory().unwrap();
    s.conn()
        .execute_batch(
            "INSERT INTO games (id, ruleset, seed, lang, config, turn, status, created_at)
               VALUES ('g', 'tally', 1, 'en', '', 0, 'sleeping', 0);",
        )
        .unwrap();
    assert!(games::game(s.conn(), "g").is_err());
}
