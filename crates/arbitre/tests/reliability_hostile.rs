//! Issue 8, hostile and broken input through the whole daemon (the cases
//! malformed.rs does not already cover): thousands of MIME parts, deep
//! nesting, a lying charset, CR/LF smuggled into fields that end up in a
//! header, and passwords that must never be stored or echoed. Each mail
//! must be journaled exactly once, leave nothing in `new/`, and never panic.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;

use common::*;

fn cycle_and_check_nothing_left(env: &mut Env, mails: i64) {
    env.daemon.cycle().unwrap();
    assert!(
        env.daemon.inbox.pending().unwrap().is_empty(),
        "a mail was left unread"
    );
    assert_eq!(
        env.count("SELECT count(*) FROM mail_journal"),
        mails,
        "each mail journaled exactly once"
    );
}

#[test]
fn thousands_of_mime_parts_are_read_without_panic() {
    let mut env = Env::new();
    let mut raw = format!(
        "From: alice@example.org\r\nTo: {REFEREE}\r\nSubject: parts\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"p\"\r\n\r\n--p\r\nContent-Type: text/plain\r\n\r\nGAME g1 PLAYER alice PASSWORD wonderland\r\nADD 5\r\nEND\r\n"
    );
    for i in 0..5000 {
        raw.push_str(&format!(
            "--p\r\nContent-Type: application/octet-stream\r\n\r\npart {i}\r\n"
        ));
    }
    raw.push_str("--p--\r\n");
    env.drop_mail(raw.as_bytes());
    cycle_and_check_nothing_left(&mut env, 1);
    assert_eq!(
        env.count("SELECT count(*) FROM orders"),
        1,
        "the orders in the first part are kept"
    );
}

#[test]
fn deeply_nested_multiparts_do_not_overflow_the_stack() {
    let mut env = Env::new();
    let depth = 2000;
    let mut raw = format!(
        "From: alice@example.org\r\nTo: {REFEREE}\r\nSubject: nest\r\nMIME-Version: 1.0\r\n"
    );
    for d in 0..depth {
        raw.push_str(&format!(
            "Content-Type: multipart/mixed; boundary=\"b{d}\"\r\n\r\n--b{d}\r\n"
        ));
    }
    raw.push_str("Content-Type: text/plain\r\n\r\nGAME g1 PLAYER alice PASSWORD wonderland\r\nADD 2\r\nEND\r\n");
    for d in (0..depth).rev() {
        raw.push_str(&format!("--b{d}--\r\n"));
    }
    env.drop_mail(raw.as_bytes());
    cycle_and_check_nothing_left(&mut env, 1);
}

#[test]
fn a_lying_charset_still_yields_the_orders() {
    let mut env = Env::new();
    // Declared UTF-8, written in Latin-1 (a "é" as the single byte 0xE9).
    let mut raw = format!("From: alice@example.org\r\nTo: {REFEREE}\r\nSubject: x\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nBonjour l'arbitre, voil\u{e0} mes ordres\r\n").into_bytes();
    raw.extend_from_slice(
        b"Caf\xe9\r\nGAME g1 PLAYER alice PASSWORD wonderland\r\nADD 6\r\nEND\r\n",
    );
    env.drop_mail(&raw);
    cycle_and_check_nothing_left(&mut env, 1);
    let row = env
        .last_to("alice@example.org", "confirm")
        .expect("confirmed despite the lying charset");
    assert!(row.mail.body.contains("ADD 6"), "{}", row.mail.body);
}

#[test]
fn crlf_in_fields_that_reach_a_header_cannot_inject_one() {
    let mut env = Env::new();
    // An encoded display name and subject carrying CR/LF and a Bcc line;
    // a Reply-To whose display name does the same.
    let evil = "=?utf-8?B?RXZpbA0KQmNjOiB2aWN0aW1AZXZpbC5leGFtcGxl?="; // "Evil\r\nBcc: victim@evil.example"
    let raw = format!(
        "From: {evil} <alice@example.org>\r\nReply-To: {evil} <alice@example.org>\r\nTo: {REFEREE}\r\nSubject: {evil}\r\nMessage-ID: <a\r\n b@x>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain\r\n\r\nGAME g1 PLAYER alice PASSWORD wonderland\r\nADD 1\r\nEND\r\n"
    );
    env.drop_mail(raw.as_bytes());
    // And an envelope line trying it through the game and player names.
    env.drop_mail(&mail(
        "bob@example.org",
        "x",
        "GAME g1\r\nBcc: victim@evil.example PLAYER bob PASSWORD builder\nADD 2\nEND\n",
    ));
    cycle_and_check_nothing_left(&mut env, 2);
    let rows = env.outbox();
    assert!(!rows.is_empty(), "both senders get an answer");
    for r in rows {
        let raw = String::from_utf8_lossy(&r.mail.raw).to_string();
        let head = raw.split("\r\n\r\n").next().unwrap();
        for line in head.split("\r\n") {
            assert!(
                !line.to_ascii_lowercase().starts_with("bcc:"),
                "injected header in:\n{head}"
            );
        }
        assert!(
            !head.contains("victim@evil.example"),
            "the victim's address reached a header:\n{head}"
        );
        assert!(!r.mail.recipient.contains('\r') && !r.mail.recipient.contains('\n'));
    }
}

#[test]
fn passwords_never_reach_the_database_the_outbox_or_a_reply() {
    let mut env = Env::new();
    env.drop_mail(&mail(
        "alice@example.org",
        "o",
        &orders("g1", "alice", "wonderland", "ADD 3"),
    ));
    env.drop_mail(&mail(
        "bob@example.org",
        "o",
        &orders("g1", "bob", "Sesame-Wrong-42", "ADD 3"),
    ));
    env.drop_mail(&mail(
        "bob@example.org",
        "o",
        &orders("g1", "bob", "builder", "ADD 4"),
    ));
    env.daemon.cycle().unwrap();
    assert!(
        env.count("SELECT count(*) FROM turns") >= 2,
        "the turn resolved: every kind of mail was written"
    );
    // Every byte of the database files (WAL included) and every sent file.
    let mut haystacks: Vec<(String, Vec<u8>)> = Vec::new();
    for e in std::fs::read_dir(env.dir.path()).unwrap() {
        let p = e.unwrap().path();
        if p.file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("arbitre.db")
        {
            haystacks.push((p.display().to_string(), std::fs::read(&p).unwrap()));
        }
    }
    for e in std::fs::read_dir(env.outbox_dir()).unwrap() {
        let p = e.unwrap().path();
        haystacks.push((p.display().to_string(), std::fs::read(&p).unwrap()));
    }
    assert!(haystacks.len() >= 2);
    for (name, bytes) in &haystacks {
        for secret in ["wonderland", "builder", "Sesame-Wrong-42"] {
            assert!(
                !bytes.windows(secret.len()).any(|w| w == secret.as_bytes()),
                "password {secret:?} found in {name}"
            );
        }
    }
    let hashes: Vec<String> = {
        let c = env.daemon.store.conn();
        let mut st = c.prepare("SELECT password_hash FROM players").unwrap();
        st.query_map([], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    assert!(
        hashes.iter().all(|h| h.starts_with("$argon2id$")),
        "{hashes:?}"
    );
}
