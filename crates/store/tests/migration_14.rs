//! Issue 22 item 4: migration 14 lets a mail's raw text be kept
//! LZ4-compressed (`outbox_raw.codec`). A database of schema 13 reads as it
//! did, a report queued after it is stored smaller and read back byte for
//! byte, through retention and through the redacted copy of a welcome.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

mod common;

use arbitre_store::{migrations, outbox, MailKind, NewMail};
use rusqlite::{params, Connection};

/// A report the size and shape of a real one: a text body, then a map's
/// SVG in hexadecimal, in lines as an attachment is cut.
fn report_raw(seed: u32) -> Vec<u8> {
    let mut raw =
        format!("From: arbitre <arbitre@example.org>\r\nSubject: Besitztumerblatt {seed}\r\n\r\n")
            .into_bytes();
    for star in 0..400 {
        raw.extend_from_slice(
            format!(
                "Stern {star:>3} ({},{}) Schiffe {}\r\n",
                star % 37,
                star / 37,
                star * seed % 97
            )
            .as_bytes(),
        );
    }
    let svg: String = (0..600)
        .map(|i| {
            format!(
                "<circle cx=\"{}\" cy=\"{}\" r=\"3\" class=\"star\"/>",
                i * 7 % 500,
                i * 13 % 500
            )
        })
        .collect();
    use std::fmt::Write;
    let mut b64 = String::new();
    for chunk in svg.as_bytes().chunks(57) {
        for c in chunk {
            let _ = write!(b64, "{c:02x}");
        }
        b64.push_str("\r\n");
    }
    raw.extend_from_slice(b64.as_bytes());
    raw
}

fn mail(mid: &str, turn: u32, raw: Vec<u8>) -> NewMail {
    common::report_row(mid, MailKind::Report, turn, "b".into(), raw)
}

#[test]
fn issue22_4_migration_14_keeps_old_rows_and_compresses_new_reports() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("arbitre.db");
    let old = report_raw(1);
    {
        let mut c = Connection::open(&path).unwrap();
        migrations::migrate_to(&mut c, 13).unwrap();
        c.execute(
            "INSERT INTO outbox (message_id, game_id, turn, player, kind, recipient, subject, body, status, attempts, next_attempt_at, created_at)
             VALUES ('old', 'g', 1, 'p1', 'report', 'r@x', 's', 'b', 'sent', 1, 300, 300)",
            [],
        )
        .unwrap();
        let id = c.last_insert_rowid();
        c.execute(
            "INSERT INTO outbox_raw (id, raw) VALUES (?1, ?2)",
            params![id, old],
        )
        .unwrap();
    }
    let s = common::open_migrated(&path);
    let c = s.conn();
    let by_mid = |mid: &str| common::by_mid(c, mid);
    let stored = |mid: &str| -> (i64, i64) {
        c.query_row(
            "SELECT r.codec, length(r.raw) FROM outbox_raw r JOIN outbox o ON o.id = r.id WHERE o.message_id = ?1",
            [mid],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap()
    };
    assert_eq!(
        by_mid("old").mail.raw,
        old,
        "a row of schema 13 reads as it was"
    );
    assert_eq!(stored("old"), (0, old.len() as i64));

    // A report queued now is stored compressed and read back exactly.
    let new = report_raw(2);
    let id = outbox::queue(c, &mail("new", 2, new.clone()), 400).unwrap();
    let (codec, len) = stored("new");
    assert_eq!(codec, 1);
    assert!(
        (len as usize) < new.len() / 2,
        "{len} bytes stored for {}",
        new.len()
    );
    assert_eq!(by_mid("new").mail.raw, new);
    assert_eq!(outbox::due_row(c, id, 400).unwrap().unwrap().raw, new);
    // A small mail (a confirmation) is kept as it is.
    outbox::queue(
        c,
        &mail("small", 2, b"Subject: ok\r\n\r\nok\r\n".to_vec()),
        400,
    )
    .unwrap();
    assert_eq!(stored("small").0, 0);
    assert_eq!(by_mid("small").mail.raw, b"Subject: ok\r\n\r\nok\r\n");

    // A welcome's redacted copy replaces its compressed raw text when it is
    // sent, and reads back as the redacted copy (codec back to plain).
    let secret = report_raw(3);
    let wid = outbox::queue(c, &mail("welcome", 2, secret), 400).unwrap();
    assert_eq!(stored("welcome").0, 1);
    outbox::set_redacted(c, wid, "b*", b"redacted copy").unwrap();
    outbox::mark_sent(c, wid, 500).unwrap();
    assert_eq!(stored("welcome"), (0, 13));
    assert_eq!(by_mid("welcome").mail.raw, b"redacted copy");

    // Retention drops a compressed raw text like a plain one.
    outbox::mark_sent(c, id, 500).unwrap();
    assert_eq!(outbox::prune_sent(c, "g", 2, 600).unwrap(), 3);
    assert_eq!(by_mid("new").mail.raw, b"");
}
