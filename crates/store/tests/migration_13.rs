//! Issue 22 item 4: migration 13 moves each mail's raw text out of the
//! outbox row (which changes when the mail is sent) into `outbox_raw`
//! (written once). A database of schema 12 keeps every mail as it read,
//! a pruned one stays empty, and a redacted copy still replaces the raw
//! text in the statement that marks the mail sent.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

mod common;

use arbitre_store::{migrations, outbox, OutboxStatus};
use rusqlite::{params, Connection};

fn schema_12_database(path: &std::path::Path) {
    let mut c = Connection::open(path).unwrap();
    migrations::migrate_to(&mut c, 12).unwrap();
    let mail = |mid: &str, raw: &[u8], status: &str, pruned: Option<i64>| {
        c.execute(
            "INSERT INTO outbox (message_id, game_id, turn, player, kind, recipient, subject, body, raw, status, attempts, next_attempt_at, created_at, pruned_at)
             VALUES (?1, 'g', 1, 'p1', 'report', 'r@x', 's', 'b', ?2, ?3, 0, 300, 300, ?4)",
            params![mid, raw, status, pruned],
        )
        .unwrap();
    };
    mail("sent", b"the sent mail", "sent", None);
    mail("pruned", b"", "sent", Some(400));
    mail("pending", b"with a secret", "pending", None);
    c.execute(
        "UPDATE outbox SET redacted_body = 'b*', redacted_raw = x'2a' WHERE message_id = 'pending'",
        [],
    )
    .unwrap();
}

#[test]
fn issue22_4_migration_13_keeps_every_raw_text_in_its_own_table() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("arbitre.db");
    schema_12_database(&path);
    let s = common::open_migrated(&path);
    let c = s.conn();
    let by_mid = |mid: &str| common::by_mid(c, mid);
    assert_eq!(by_mid("sent").mail.raw, b"the sent mail");
    assert_eq!(by_mid("pruned").mail.raw, b"");
    assert_eq!(by_mid("pruned").pruned_at, Some(400));
    let rows: i64 = c
        .query_row("SELECT count(*) FROM outbox_raw", [], |r| r.get(0))
        .unwrap();
    assert_eq!(rows, 2, "no raw row for the pruned mail");
    // Sending the mail with a secret keeps only its redacted copy.
    let pending = by_mid("pending");
    assert_eq!(pending.mail.raw, b"with a secret");
    outbox::mark_sent(c, pending.id, 500).unwrap();
    let sent = by_mid("pending");
    assert_eq!(
        (
            sent.status,
            sent.mail.body.as_str(),
            sent.mail.raw.as_slice()
        ),
        (OutboxStatus::Sent, "b*", b"*".as_slice())
    );
    // A new mail is written to both tables; marking it sent leaves its
    // raw text as it was.
    let id = outbox::queue(
        c,
        &arbitre_store::NewMail {
            message_id: "new".into(),
            game_id: Some("g".into()),
            turn: Some(2),
            player: Some("p1".into()),
            kind: arbitre_store::MailKind::Report,
            recipient: "r@x".into(),
            subject: "s".into(),
            body: "b".into(),
            raw: b"new raw".to_vec(),
        },
        600,
    )
    .unwrap();
    outbox::mark_sent(c, id, 601).unwrap();
    assert_eq!(by_mid("new").mail.raw, b"new raw");
    // A message id queued twice is refused and leaves no raw row behind.
    let again = outbox::queue(
        c,
        &arbitre_store::NewMail {
            message_id: "new".into(),
            game_id: None,
            turn: None,
            player: None,
            kind: arbitre_store::MailKind::Report,
            recipient: "r@x".into(),
            subject: "s".into(),
            body: "b".into(),
            raw: b"other".to_vec(),
        },
        700,
    );
    assert!(again.unwrap_err().is_constraint());
    let rows: i64 = c
        .query_row("SELECT count(*) FROM outbox_raw", [], |r| r.get(0))
        .unwrap();
    assert_eq!(rows, 3);
}
