//! Issue 2, "done when" 3: malformed input. Each case gets a clear reply or
//! a journal/log line, never a panic, and nothing is stored. Also the order
//! mail rules of item 4: CHECK stores nothing, a later mail replaces the
//! earlier orders, automatic mail is never answered.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;

use common::*;

fn stored_orders(env: &Env) -> i64 {
    env.count("SELECT count(*) FROM orders")
}

fn outcome_of_last(env: &Env) -> (String, String) {
    env.daemon
        .store
        .conn()
        .query_row(
            "SELECT outcome, detail FROM mail_journal ORDER BY rowid DESC LIMIT 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap()
}

#[test]
fn wrong_password_is_refused_clearly_and_nothing_stored() {
    let mut env = Env::new();
    env.drop_mail(&mail(
        "alice@example.org",
        "orders",
        &orders("g1", "alice", "guess", "ADD 3"),
    ));
    env.daemon.cycle().unwrap();
    assert_eq!(stored_orders(&env), 0);
    let reply = env.last_to("alice@example.org", "error").expect("a reply");
    assert!(
        reply
            .mail
            .body
            .contains("Wrong password for player alice in game g1. Nothing was stored."),
        "{}",
        reply.mail.body
    );
    assert!(
        !reply.mail.body.contains("guess"),
        "the tried password is never echoed"
    );
    let (outcome, detail) = outcome_of_last(&env);
    assert_eq!(outcome, "rejected");
    assert!(detail.contains("wrong password") && !detail.contains("guess"));
    assert!(env.daemon.inbox.pending().unwrap().is_empty());
}

#[test]
fn spoofed_from_without_password_stores_nothing() {
    let mut env = Env::new();
    // Bob's address, Alice's name, no PASSWORD at all.
    env.drop_mail(&mail(
        "alice@example.org",
        "orders",
        "GAME g1 PLAYER alice\nADD 10\nEND\n",
    ));
    // And with an empty password field.
    env.drop_mail(&mail(
        "alice@example.org",
        "orders",
        "GAME g1 PLAYER alice PASSWORD\nADD 10\nEND\n",
    ));
    env.daemon.cycle().unwrap();
    assert_eq!(stored_orders(&env), 0);
    let errors: Vec<_> = env
        .outbox()
        .into_iter()
        .filter(|r| r.mail.kind == "error")
        .collect();
    assert_eq!(errors.len(), 2);
    for e in errors {
        assert!(
            e.mail.body.contains("Nothing was stored"),
            "{}",
            e.mail.body
        );
    }
}

#[test]
fn garbled_mime_gets_a_reply_and_no_panic() {
    let mut env = Env::new();
    let raw = b"From: alice@example.org\r\nTo: referee@arbitre.test\r\nSubject: x\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"zz\r\n\r\n--zz\r\nContent-Type: text/plain\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!not base64@@@\r\n--z";
    env.drop_mail(raw);
    env.drop_mail(b"\x00\x01\x02garbage without any header\xff\xfe");
    env.daemon.cycle().unwrap();
    assert_eq!(stored_orders(&env), 0);
    assert_eq!(
        env.count("SELECT count(*) FROM mail_journal"),
        2,
        "both journaled: never read again"
    );
    assert!(env.daemon.inbox.pending().unwrap().is_empty());
    let reply = env
        .last_to("alice@example.org", "error")
        .expect("the sender is told");
    assert!(
        reply.mail.body.contains("No order block found"),
        "{}",
        reply.mail.body
    );
}

#[test]
fn unknown_charset_still_reads_the_orders() {
    let mut env = Env::new();
    let body = orders("g1", "alice", "wonderland", "ADD 4");
    let raw = format!(
        "From: alice@example.org\r\nTo: {REFEREE}\r\nSubject: x\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=x-klingon-7\r\n\r\n{}",
        body.replace('\n', "\r\n")
    );
    env.drop_mail(raw.as_bytes());
    env.daemon.cycle().unwrap();
    let row = env
        .last_to("alice@example.org", "confirm")
        .expect("confirmed");
    assert!(row.mail.body.contains("ADD 4"), "{}", row.mail.body);
    assert_eq!(stored_orders(&env), 1);
}

#[test]
fn twenty_megabyte_mail_is_refused_unread() {
    let mut env = Env::new();
    let mut raw = mail(
        "alice@example.org",
        "huge",
        &orders("g1", "alice", "wonderland", "ADD 4"),
    );
    raw.extend(std::iter::repeat_n(b'A', 20 * 1024 * 1024));
    env.drop_mail(&raw);
    env.daemon.cycle().unwrap();
    assert_eq!(stored_orders(&env), 0);
    let reply = env.last_to("alice@example.org", "error").expect("a reply");
    assert!(
        reply.mail.body.contains("larger than this referee accepts"),
        "{}",
        reply.mail.body
    );
    let (outcome, detail) = outcome_of_last(&env);
    assert_eq!(outcome, "rejected");
    assert!(detail.starts_with("too large"), "{detail}");
    assert!(env.daemon.inbox.pending().unwrap().is_empty());
    // Delivered again (same bytes): recognised, not answered twice.
    env.drop_mail(&raw);
    env.daemon.cycle().unwrap();
    assert_eq!(
        env.outbox()
            .iter()
            .filter(|r| r.mail.kind == "error")
            .count(),
        1
    );
}

#[test]
fn empty_body_gets_a_clear_reply() {
    let mut env = Env::new();
    env.drop_mail(&mail("alice@example.org", "empty", ""));
    env.drop_mail(b"");
    env.daemon.cycle().unwrap();
    assert_eq!(stored_orders(&env), 0);
    let reply = env.last_to("alice@example.org", "error").expect("a reply");
    assert!(reply.mail.body.contains("No order block found"));
    assert_eq!(
        env.count("SELECT count(*) FROM mail_journal WHERE outcome = 'ignored'"),
        1,
        "the empty file is journaled, unanswerable"
    );
}

#[test]
fn unknown_game_and_unknown_player_are_refused() {
    let mut env = Env::new();
    env.drop_mail(&mail(
        "alice@example.org",
        "o",
        &orders("nope", "alice", "wonderland", "ADD 1"),
    ));
    env.drop_mail(&mail(
        "carol@example.org",
        "o",
        &orders("g1", "carol", "x", "ADD 1"),
    ));
    env.daemon.cycle().unwrap();
    assert_eq!(stored_orders(&env), 0);
    assert!(env
        .last_to("alice@example.org", "error")
        .unwrap()
        .mail
        .body
        .contains("There is no game 'nope'"));
    assert!(env
        .last_to("carol@example.org", "error")
        .unwrap()
        .mail
        .body
        .contains("Game g1 has no player 'carol'"));
    // An unknown game has no language: the header words choose it.
    env.drop_mail(&mail(
        "dora@example.org",
        "o",
        "PARTIE nulle JOUEUR dora MOT-DE-PASSE x\nADD 1\nFIN\n",
    ));
    env.drop_mail(&mail(
        "emil@example.org",
        "o",
        "SPIEL nix SPIELER emil PASSWORT x\nADD 1\nENDE\n",
    ));
    env.daemon.cycle().unwrap();
    assert!(env
        .last_to("dora@example.org", "error")
        .unwrap()
        .mail
        .body
        .contains("Il n'y a pas de partie « nulle »"));
    assert!(env
        .last_to("emil@example.org", "error")
        .unwrap()
        .mail
        .body
        .contains("es kein Spiel „nix“"));
    assert_eq!(stored_orders(&env), 0);
}

#[test]
fn automatic_mail_and_own_address_are_never_answered() {
    let mut env = Env::new();
    let body = orders("g1", "alice", "wonderland", "ADD 1");
    env.drop_mail(&mail_with(
        "alice@example.org",
        "Out of office",
        &body,
        "Auto-Submitted: auto-replied\r\n",
    ));
    env.drop_mail(&mail(
        "MAILER-DAEMON@example.org",
        "Undelivered Mail",
        &body,
    ));
    env.drop_mail(&mail_with(
        "alice@example.org",
        "list",
        &body,
        "Precedence: bulk\r\n",
    ));
    env.drop_mail(&mail(REFEREE, "loop", &body));
    env.daemon.cycle().unwrap();
    assert_eq!(
        env.outbox()
            .iter()
            .filter(|r| r.mail.kind != "report" && r.mail.kind != "gm")
            .count(),
        0
    );
    assert_eq!(stored_orders(&env), 0);
    assert_eq!(
        env.count("SELECT count(*) FROM mail_journal WHERE outcome = 'ignored'"),
        4
    );
    // A Reply-To naming the referee is not a loop: the From is answered
    // (issue 14 item 9; the mail was dropped before), never the referee.
    env.drop_mail(&mail_with(
        "x@example.org",
        "loop",
        &body,
        &format!("Reply-To: {REFEREE}\r\n"),
    ));
    env.daemon.cycle().unwrap();
    assert_eq!(
        env.outbox()
            .iter()
            .filter(|r| r.mail.recipient == REFEREE)
            .count(),
        0
    );
    assert_eq!(
        env.outbox()
            .iter()
            .filter(|r| r.mail.recipient == "x@example.org")
            .count(),
        1
    );
}

#[test]
fn check_block_answers_and_stores_nothing() {
    let mut env = Env::new();
    env.drop_mail(&mail(
        "alice@example.org",
        "check",
        "CHECK g1 PLAYER alice PASSWORD wonderland\nADD 3\nFLY\nEND\n",
    ));
    env.daemon.cycle().unwrap();
    assert_eq!(stored_orders(&env), 0);
    let r = env.last_to("alice@example.org", "check").unwrap();
    assert!(r.mail.body.contains("Nothing has been stored"));
    assert!(
        r.mail.body.contains("   2  ERROR    FLY\n"),
        "{}",
        r.mail.body
    );
    assert!(r.mail.body.contains("-> unknown order"));
}

#[test]
fn later_mail_replaces_earlier_orders_and_errors_are_echoed_by_line() {
    let mut env = Env::with_game(&tally_toml("g1", "early = false"));
    env.drop_mail(&mail(
        "alice@example.org",
        "v1",
        &orders("g1", "alice", "wonderland", "ADD 9"),
    ));
    env.daemon.cycle().unwrap();
    env.drop_mail(&mail(
        "alice@example.org",
        "v2",
        &orders("g1", "alice", "wonderland", "ADD 2\nADD 99\nADD 1"),
    ));
    env.daemon.cycle().unwrap();
    let r = env.last_to("alice@example.org", "confirm").unwrap();
    assert!(
        r.mail.body.contains("   2  ERROR    ADD 99\n"),
        "{}",
        r.mail.body
    );
    assert!(r.mail.body.contains("-> ADD takes a number from 1 to 10"));
    assert!(r
        .mail
        .body
        .contains("2 order(s) accepted, 1 error(s), 0 warning(s)."));
    assert!(r.mail.body.contains("These orders replace"));
    assert!(
        r.mail.body.contains("Deadline: 2026-12-03 12:00 (UTC)"),
        "{}",
        r.mail.body
    );
    // Resolve at the deadline: only the second mail counts.
    env.clock.set(common::t0() + chrono::Duration::days(2));
    env.daemon.cycle().unwrap();
    let report = env.last_to("alice@example.org", "report").unwrap();
    assert!(
        report.mail.body.contains("alice added 2\nalice added 1\n"),
        "{}",
        report.mail.body
    );
    assert!(!report.mail.body.contains("added 9"));
    assert_eq!(
        env.count("SELECT count(*) FROM orders WHERE player = 'alice'"),
        2,
        "both mails archived"
    );
}

#[test]
fn french_game_answers_in_french_and_accepts_french_headers() {
    let toml = tally_toml("p1", "").replace("seed = 42", "seed = 42\nlanguage = \"fr\"");
    let mut env = Env::with_game(&toml);
    env.drop_mail(&mail(
        "alice@example.org",
        "ordres",
        "Bonjour\n\nPARTIE p1 JOUEUR alice MOT-DE-PASSE wonderland\nADD 3\nFIN\n-- \nAlice",
    ));
    env.drop_mail(&mail(
        "bob@example.org",
        "ordres",
        "PARTIE p1 JOUEUR bob MOT-DE-PASSE faux\nADD 3\nFIN\n",
    ));
    env.daemon.cycle().unwrap();
    let ok = env.last_to("alice@example.org", "confirm").unwrap();
    assert!(
        ok.mail
            .subject
            .starts_with("[p1] ordres reçus pour le tour 1"),
        "{}",
        ok.mail.subject
    );
    assert!(ok
        .mail
        .body
        .contains("Ordres reçus pour la partie p1, tour 1, joueur alice."));
    let no = env.last_to("bob@example.org", "error").unwrap();
    assert!(
        no.mail
            .body
            .contains("Mot de passe incorrect pour le joueur bob"),
        "{}",
        no.mail.body
    );
}

#[test]
fn html_only_and_attachment_blocks_are_read() {
    let mut env = Env::new();
    let html = format!(
        "From: alice@example.org\r\nTo: {REFEREE}\r\nSubject: x\r\nMIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<html><body><p>GAME g1 PLAYER alice PASSWORD wonderland<br>ADD&nbsp;5<br>END</p></body></html>"
    );
    env.drop_mail(html.as_bytes());
    let att = format!(
        "From: bob@example.org\r\nTo: {REFEREE}\r\nSubject: x\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b1\r\n\r\n--b1\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nSee attachment.\r\n--b1\r\nContent-Type: text/plain; charset=iso-8859-1; name=orders.txt\r\nContent-Disposition: attachment; filename=orders.txt\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nGAME g1 PLAYER bob PASSWORD builder\r\nADD=096\r\nEND\r\n--b1--\r\n"
    );
    env.drop_mail(att.as_bytes());
    env.daemon.cycle().unwrap();
    assert_eq!(
        stored_orders(&env),
        2,
        "{:?}",
        env.outbox()
            .iter()
            .map(|r| &r.mail.body)
            .collect::<Vec<_>>()
    );
    // Both ready: the turn resolved early in the same cycle.
    let report = env.last_to("bob@example.org", "report").unwrap();
    assert!(
        report.mail.body.contains("bob added 6"),
        "{}",
        report.mail.body
    );
}

#[test]
fn the_same_mail_delivered_twice_is_answered_once_and_replies_thread() {
    let mut env = Env::new();
    let raw = mail(
        "alice@example.org",
        "orders",
        &orders("g1", "alice", "wonderland", "ADD 2"),
    );
    env.drop_mail(&raw);
    env.drop_mail(&raw);
    env.daemon.cycle().unwrap();
    env.drop_mail(&raw);
    env.daemon.cycle().unwrap();
    assert_eq!(env.count("SELECT count(*) FROM mail_journal"), 1);
    assert_eq!(stored_orders(&env), 1);
    let confirms: Vec<_> = env
        .outbox()
        .into_iter()
        .filter(|r| r.mail.kind == "confirm")
        .collect();
    assert_eq!(confirms.len(), 1);
    let head = String::from_utf8_lossy(&confirms[0].mail.raw).to_string();
    let sent_id = String::from_utf8_lossy(&raw)
        .lines()
        .find_map(|l| l.strip_prefix("Message-ID: ").map(str::to_string))
        .unwrap();
    assert!(
        head.contains(&format!("In-Reply-To: {}", sent_id.trim())),
        "{head}"
    );
    assert!(head.contains("Auto-Submitted: auto-replied"), "{head}");
    assert!(head.contains(&format!("From: {REFEREE}")), "{head}");
    assert!(env.daemon.inbox.pending().unwrap().is_empty());
}
