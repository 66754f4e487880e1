//! Issue 22 item 4: migration 16 lets a report's raw text be kept in parts
//! (`outbox_raw.codec` 2), its base64 attachments as their content. Rows
//! of schema 15, plain or LZ4, read as they did; a report queued in parts
//! reads back as its bytes, is stored smaller than those bytes
//! compressed, and goes through a welcome's redacted copy and retention
//! as any other row.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

mod common;

use arbitre_store::{migrations, outbox, MailKind, NewMail, RawPart};
use rusqlite::{params, Connection};

/// A map's SVG, the shape of a real one.
fn svg(seed: usize) -> Vec<u8> {
    (0..800)
        .map(|i| {
            format!(
                "<circle cx=\"{}\" cy=\"{}\" r=\"3\" class=\"star s{}\"/>\n",
                i * 7 % 500,
                (i * 13 + seed) % 500,
                i % 9
            )
        })
        .collect::<String>()
        .into_bytes()
}

fn parts(seed: usize) -> Vec<RawPart> {
    vec![
        RawPart::Bytes(
            format!("Subject: Tour {seed}\r\n\r\n--b\r\nContent-Transfer-Encoding: base64\r\n\r\n")
                .into_bytes(),
        ),
        RawPart::Base64(svg(seed)),
        RawPart::Bytes(b"\r\n--b--\r\n".to_vec()),
    ]
}

/// The bytes of `parts(seed)`: the SVG in base64 lines of 76 characters.
fn bytes(seed: usize) -> Vec<u8> {
    use base64::Engine;
    let text = base64::engine::general_purpose::STANDARD.encode(svg(seed));
    let lines: Vec<&[u8]> = text.as_bytes().chunks(76).collect();
    let mut out =
        format!("Subject: Tour {seed}\r\n\r\n--b\r\nContent-Transfer-Encoding: base64\r\n\r\n")
            .into_bytes();
    out.extend_from_slice(&lines.join(&b"\r\n"[..]));
    out.extend_from_slice(b"\r\n--b--\r\n");
    out
}

fn mail(mid: &str, kind: MailKind) -> NewMail {
    common::report_row(mid, kind, 2, "b".into(), Vec::new())
}

#[test]
fn issue22_4_migration_16_keeps_old_rows_and_stores_reports_in_parts() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("arbitre.db");
    {
        let mut c = Connection::open(&path).unwrap();
        migrations::migrate_to(&mut c, 15).unwrap();
        for (mid, codec, raw) in [
            ("plain", 0, bytes(1)),
            ("lz4", 1, lz4_flex::block::compress_prepend_size(&bytes(2))),
        ] {
            c.execute(
                "INSERT INTO outbox (message_id, game_id, turn, player, kind, recipient, subject, body, status, attempts, next_attempt_at, created_at)
                 VALUES (?1, 'g', 1, 'p1', 'report', 'r@x', 's', 'b', 'sent', 1, 300, 300)",
                [mid],
            )
            .unwrap();
            let id = c.last_insert_rowid();
            c.execute(
                "INSERT INTO outbox_raw (id, raw, codec) VALUES (?1, ?2, ?3)",
                params![id, raw, codec],
            )
            .unwrap();
        }
    }
    let s = common::open_migrated(&path);
    let c = s.conn();
    let by_mid = |mid: &str| common::by_mid(c, mid);
    let stored = |mid: &str| -> (i64, usize) {
        c.query_row(
            "SELECT r.codec, length(r.raw) FROM outbox_raw r JOIN outbox o ON o.id = r.id WHERE o.message_id = ?1",
            [mid],
            |r| Ok((r.get(0)?, r.get::<_, i64>(1)? as usize)),
        )
        .unwrap()
    };
    assert_eq!(by_mid("plain").mail.raw, bytes(1), "schema 15, plain");
    assert_eq!(by_mid("lz4").mail.raw, bytes(2), "schema 15, LZ4");

    // A report in parts: its bytes back, from every reader, in less room
    // than the same bytes compressed.
    let id = outbox::queue_parts(c, mail("new", MailKind::Report), parts(3), 400).unwrap();
    let (codec, len) = stored("new");
    // Since migration 17 a turn's report is kept against its turn's base
    // (codec 3, tests/migration_17.rs); a welcome still in parts, below.
    assert_eq!(codec, 3);
    let lz4 = lz4_flex::block::compress_prepend_size(&bytes(3)).len();
    assert!(len < lz4, "{len} bytes in parts against {lz4} compressed");
    assert_eq!(by_mid("new").mail.raw, bytes(3));
    assert_eq!(outbox::get(c, id).unwrap().unwrap().mail.raw, bytes(3));
    assert_eq!(outbox::due_row(c, id, 400).unwrap().unwrap().raw, bytes(3));
    // An answer to a player's mail given in parts is stored as its bytes.
    outbox::queue_parts(c, mail("confirm", MailKind::Confirm), parts(4), 400).unwrap();
    assert_eq!(stored("confirm"), (0, bytes(4).len()));
    assert_eq!(by_mid("confirm").mail.raw, bytes(4));

    // A welcome in parts: its redacted copy takes its place, plain.
    let wid = outbox::queue_parts(c, mail("welcome", MailKind::Welcome), parts(5), 400).unwrap();
    assert_eq!(stored("welcome").0, 2);
    outbox::set_redacted(c, wid, "b*", b"redacted copy").unwrap();
    outbox::mark_sent(c, wid, 500).unwrap();
    assert_eq!(stored("welcome"), (0, 13));
    assert_eq!(by_mid("welcome").mail.raw, b"redacted copy");

    // Retention drops a raw text in parts like any other.
    outbox::mark_sent(c, id, 500).unwrap();
    outbox::prune_sent(c, "g", 2, 600).unwrap();
    assert_eq!(by_mid("new").mail.raw, b"");
}
