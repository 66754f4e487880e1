//! Issue 22 item 4: migration 17 keeps the raw texts of a turn's mails as
//! differences from the first of them (`outbox_raw.codec` 3, table
//! `raw_base`). Rows of schema 16 read as they did; every mail of a turn
//! reads back as its bytes, the turn's later reports take a fraction of
//! their room alone; a base goes with the last raw text kept against it,
//! and with its game.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

mod common;

use arbitre_store::{games, migrations, outbox, MailKind, NewMail, RawPart};
use rusqlite::{params, Connection};

/// Player `p`'s map of turn `turn`: the same stars for everyone, the
/// player's own marked.
fn svg(turn: usize, p: usize) -> Vec<u8> {
    (0..900)
        .map(|i| {
            let own = if i % 100 == p { " own" } else { "" };
            format!(
                "<circle cx=\"{}\" cy=\"{}\" r=\"3\" class=\"star s{}{own}\"/>\n",
                (i * 7 + turn) % 500,
                (i * 13) % 500,
                (i * 31 + turn) % 97
            )
        })
        .collect::<String>()
        .into_bytes()
}

fn head(turn: usize, p: usize) -> Vec<u8> {
    format!("Subject: Tour {turn} p{p}\r\n\r\n--b\r\nContent-Transfer-Encoding: base64\r\n\r\n")
        .into_bytes()
}

fn parts(turn: usize, p: usize) -> Vec<RawPart> {
    vec![
        RawPart::Bytes(head(turn, p)),
        RawPart::Base64(svg(turn, p)),
        RawPart::Bytes(b"\r\n--b--\r\n".to_vec()),
    ]
}

/// The bytes of `parts(turn, p)`: the SVG in base64 lines of 76 characters.
fn bytes(turn: usize, p: usize) -> Vec<u8> {
    use base64::Engine;
    let text = base64::engine::general_purpose::STANDARD.encode(svg(turn, p));
    let lines: Vec<&[u8]> = text.as_bytes().chunks(76).collect();
    let mut out = head(turn, p);
    out.extend_from_slice(&lines.join(&b"\r\n"[..]));
    out.extend_from_slice(b"\r\n--b--\r\n");
    out
}

fn mail(mid: &str, kind: MailKind, turn: usize) -> NewMail {
    common::report_row(mid, kind, turn as u32, "b".into(), Vec::new())
}

/// (codec, stored length, base) of the raw text of `mid`.
fn stored(c: &Connection, mid: &str) -> (i64, usize, Option<i64>) {
    c.query_row(
        "SELECT r.codec, length(r.raw), r.base FROM outbox_raw r JOIN outbox o ON o.id = r.id
          WHERE o.message_id = ?1",
        [mid],
        |r| Ok((r.get(0)?, r.get::<_, i64>(1)? as usize, r.get(2)?)),
    )
    .unwrap()
}

fn bases(c: &Connection) -> i64 {
    c.query_row("SELECT count(*) FROM raw_base", [], |r| r.get(0))
        .unwrap()
}

#[test]
fn issue22_4_migration_17_keeps_a_turns_mails_against_its_base() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("arbitre.db");
    {
        let mut c = Connection::open(&path).unwrap();
        migrations::migrate_to(&mut c, 16).unwrap();
        c.execute(
            "INSERT INTO outbox (message_id, game_id, turn, player, kind, recipient, subject, body, status, attempts, next_attempt_at, created_at)
             VALUES ('old', 'g', 1, 'p1', 'report', 'r@x', 's', 'b', 'sent', 1, 300, 300)",
            [],
        )
        .unwrap();
        let id = c.last_insert_rowid();
        c.execute(
            "INSERT INTO outbox_raw (id, raw, codec) VALUES (?1, ?2, 0)",
            params![id, bytes(1, 0)],
        )
        .unwrap();
    }
    let s = common::open_migrated(&path);
    let c = s.conn();
    let by_mid = |mid: &str| common::by_mid(c, mid).mail.raw;
    assert_eq!(by_mid("old"), bytes(1, 0), "schema 16");
    assert_eq!(stored(c, "old").2, None);

    // Turn 2: ten reports and the GM's copy, each read back as its bytes
    // by every reader; the first is the base of the others.
    let mut ids = Vec::new();
    for p in 0..10 {
        let mid = format!("t2p{p}");
        ids.push(
            outbox::queue_parts(c, mail(&mid, MailKind::Report, 2), parts(2, p), 400).unwrap(),
        );
    }
    let gm = outbox::queue_parts(c, mail("t2gm", MailKind::Gm, 2), parts(2, 11), 400).unwrap();
    ids.push(gm);
    assert_eq!(bases(c), 1);
    let base = stored(c, "t2p0").2;
    assert!(base.is_some());
    for (p, id) in ids.iter().enumerate() {
        let p = if p == 10 { 11 } else { p };
        let want = bytes(2, p);
        assert_eq!(outbox::get(c, *id).unwrap().unwrap().mail.raw, want, "p{p}");
        assert_eq!(outbox::due_row(c, *id, 400).unwrap().unwrap().raw, want);
    }
    for p in 1..10 {
        let (codec, len, b) = stored(c, &format!("t2p{p}"));
        assert_eq!((codec, b), (3, base));
        // Alone, the same parts LZ4-compressed (codec 2) take many times
        // the room.
        let alone = lz4_flex::block::compress_prepend_size(&svg(2, p)).len();
        assert!(len * 5 < alone, "p{p}: {len} bytes against {alone} alone");
    }
    assert_eq!(outbox::all(c).unwrap().len(), 12);

    // Turn 3 has its own base; a welcome and a confirmation have none.
    outbox::queue_parts(c, mail("t3p0", MailKind::Report, 3), parts(3, 0), 400).unwrap();
    outbox::queue_parts(c, mail("welcome", MailKind::Welcome, 3), parts(3, 1), 400).unwrap();
    outbox::queue_parts(c, mail("confirm", MailKind::Confirm, 3), parts(3, 2), 400).unwrap();
    assert_eq!(bases(c), 2);
    assert_eq!(stored(c, "welcome").0, 2);
    assert_eq!(stored(c, "confirm").0, 0);
    assert_eq!(by_mid("t3p0"), bytes(3, 0));
    assert_eq!(by_mid("welcome"), bytes(3, 1));

    // Retention: turn 2's base stays while a raw text kept against it
    // does (the GM's copy, not sent), and goes with it.
    for id in &ids[..10] {
        outbox::mark_sent(c, *id, 500).unwrap();
    }
    outbox::prune_sent(c, "g", 2, 600).unwrap();
    assert_eq!(by_mid("t2p3"), b"");
    assert_eq!(by_mid("t2gm"), bytes(2, 11), "the pending copy reads");
    assert_eq!(bases(c), 2);
    outbox::mark_sent(c, gm, 700).unwrap();
    outbox::prune_sent(c, "g", 2, 800).unwrap();
    assert_eq!(bases(c), 1);
    assert_eq!(by_mid("t3p0"), bytes(3, 0));

    // A damaged delta is an error, not a panic nor other bytes.
    let t3 = common::by_mid(c, "t3p0").id;
    c.execute(
        "UPDATE outbox_raw SET raw = substr(raw, 1, length(raw) - 3) WHERE id = ?1",
        [t3],
    )
    .unwrap();
    assert!(outbox::get(c, t3).is_err());

    // Deleting the game takes its raw texts and bases with it.
    games::insert_game(
        c,
        &games::GameRow {
            id: "g".into(),
            ruleset: "nebulight".into(),
            seed: 1,
            lang: "fr".into(),
            config: String::new(),
            gm_email: None,
            turn: 3,
            status: arbitre_store::GameStatus::Running,
            deadline: None,
            created_at: 300,
        },
    )
    .unwrap();
    games::delete_game(c, "g").unwrap();
    assert_eq!(bases(c), 0);
    let raws: i64 = c
        .query_row("SELECT count(*) FROM outbox_raw", [], |r| r.get(0))
        .unwrap();
    assert_eq!(raws, 0);
}
