//! Issue 22 item 4: migration 15 lets a mail's body be kept LZ4-compressed
//! (`outbox.body_codec`). A body of schema 14 reads as it did; a report's
//! long text is stored as a smaller blob and read back exactly, after it
//! is marked sent too; a welcome's redacted copy takes its place as text.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

mod common;

use arbitre_store::{migrations, outbox, MailKind, NewMail};
use rusqlite::Connection;

fn text(turn: u32) -> String {
    (0..300)
        .map(|i| {
            format!(
                "Tour {turn} : la flotte {i} arrive en {} avec {} cargos.\r\n",
                i * 7 % 97,
                i % 13
            )
        })
        .collect()
}

fn mail(mid: &str, kind: MailKind, body: String) -> NewMail {
    common::report_row(mid, kind, 2, body, b"Subject: s\r\n\r\nraw\r\n".to_vec())
}

#[test]
fn issue22_4_migration_15_keeps_old_bodies_and_compresses_new_reports() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("arbitre.db");
    let old = text(1);
    {
        let mut c = Connection::open(&path).unwrap();
        migrations::migrate_to(&mut c, 14).unwrap();
        c.execute(
            "INSERT INTO outbox (message_id, game_id, turn, player, kind, recipient, subject, body, status, attempts, next_attempt_at, created_at)
             VALUES ('old', 'g', 1, 'p1', 'report', 'r@x', 's', ?1, 'sent', 1, 300, 300)",
            [&old],
        )
        .unwrap();
    }
    let s = common::open_migrated(&path);
    let c = s.conn();
    let by_mid = |mid: &str| common::by_mid(c, mid);
    let stored = |mid: &str| -> (i64, String, i64) {
        c.query_row(
            "SELECT body_codec, typeof(body), length(CAST(body AS BLOB)) FROM outbox WHERE message_id = ?1",
            [mid],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap()
    };
    assert_eq!(
        by_mid("old").mail.body,
        old,
        "a body of schema 14 reads as it was"
    );
    assert_eq!(stored("old"), (0, "text".into(), old.len() as i64));

    let new = text(2);
    let id = outbox::queue(c, &mail("new", MailKind::Report, new.clone()), 400).unwrap();
    let (codec, kind, len) = stored("new");
    assert_eq!((codec, kind.as_str()), (1, "blob"));
    assert!(
        (len as usize) < new.len() / 2,
        "{len} bytes stored for {}",
        new.len()
    );
    assert_eq!(by_mid("new").mail.body, new);
    outbox::mark_sent(c, id, 500).unwrap();
    assert_eq!(
        stored("new").0,
        1,
        "marking it sent keeps the compressed body"
    );
    assert_eq!(by_mid("new").mail.body, new);

    // An answer to a player's mail stays text, whatever its length.
    outbox::queue(c, &mail("confirm", MailKind::Confirm, new.clone()), 400).unwrap();
    assert_eq!(stored("confirm").0, 0);
    assert_eq!(stored("confirm").1, "text");
    assert_eq!(by_mid("confirm").mail.body, new);

    // A welcome: its compressed body (with the password) is replaced by the
    // redacted copy, as text, when it is sent.
    let wid = outbox::queue(c, &mail("welcome", MailKind::Welcome, text(3)), 400).unwrap();
    assert_eq!(stored("welcome").0, 1);
    outbox::set_redacted(c, wid, "mot de passe : ***", b"raw *").unwrap();
    assert_eq!(
        by_mid("welcome").mail.body,
        text(3),
        "pending: the body to send"
    );
    outbox::mark_sent(c, wid, 500).unwrap();
    assert_eq!(stored("welcome"), (0, "text".into(), 18));
    assert_eq!(by_mid("welcome").mail.body, "mot de passe : ***");
}
