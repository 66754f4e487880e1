//! What the migration tests share: a database opened (and so migrated to
//! the newest schema) by the store, and an outbox row found by Message-ID.
#![allow(dead_code)] // each test binary uses its own part of it
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre_store::{migrations, outbox, Connection, MailKind, NewMail, OutboxRow, Store};

/// Opens `path` through the store, which migrates it, and checks that the
/// schema is the newest one.
pub fn open_migrated(path: &std::path::Path) -> Store {
    let s = Store::open(path).unwrap();
    assert_eq!(
        migrations::version(s.conn()).unwrap(),
        migrations::MIGRATIONS.len() as i64
    );
    s
}

/// The outbox row of Message-ID `mid`, as every reader gets it.
pub fn by_mid(c: &Connection, mid: &str) -> OutboxRow {
    outbox::all(c)
        .unwrap()
        .into_iter()
        .find(|r| r.mail.message_id == mid)
        .unwrap()
}

/// An outbox row of game `g` for player `p1` at `r@x`, subject `s`.
pub fn report_row(mid: &str, kind: MailKind, turn: u32, body: String, raw: Vec<u8>) -> NewMail {
    NewMail {
        message_id: mid.into(),
        game_id: Some("g".into()),
        turn: Some(turn),
        player: Some("p1".into()),
        kind,
        recipient: "r@x".into(),
        subject: "s".into(),
        body,
        raw,
    }
}
