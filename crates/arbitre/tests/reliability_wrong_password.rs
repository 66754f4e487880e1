//! Issue 8, authentication: a mail with a player's name and a wrong
//! password stores nothing, and the real player (at their own address, not
//! the sender's) learns in their next report that someone tried — once,
//! not again in later reports.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;

use common::*;

fn report_to(env: &Env, who: &str, turn: u32) -> String {
    env.outbox()
        .into_iter()
        .find(|r| r.mail.recipient == who && r.mail.kind == "report" && r.mail.turn == Some(turn))
        .unwrap_or_else(|| panic!("no turn {turn} report to {who}"))
        .mail
        .body
}

#[test]
fn wrong_password_is_told_to_the_real_player_in_the_next_report() {
    let mut env = Env::new();
    // An impostor uses Alice's name twice; Bob's orders are fine.
    env.drop_mail(&mail(
        "mallory@evil.example",
        "o",
        &orders("g1", "alice", "guess1", "ADD 10"),
    ));
    env.drop_mail(&mail(
        "mallory@evil.example",
        "o",
        &orders("g1", "alice", "guess2", "ADD 10"),
    ));
    env.drop_mail(&mail(
        "alice@example.org",
        "o",
        &orders("g1", "alice", "wonderland", "ADD 3"),
    ));
    env.drop_mail(&mail(
        "bob@example.org",
        "o",
        &orders("g1", "bob", "builder", "ADD 4"),
    ));
    env.daemon.cycle().unwrap();
    assert_eq!(
        env.count("SELECT count(*) FROM orders"),
        2,
        "the impostor's mails stored nothing"
    );
    let alice = report_to(&env, "alice@example.org", 1);
    assert!(
        alice.contains("WARNING: 2 mail(s) this turn used your player name with a wrong password"),
        "{alice}"
    );
    assert!(
        !alice.contains("guess1") && !alice.contains("guess2"),
        "tried passwords never echoed"
    );
    assert!(
        !report_to(&env, "bob@example.org", 1).contains("WARNING"),
        "only the player concerned is told"
    );
    // The next turn, nobody tried: no warning again.
    env.drop_mail(&mail(
        "alice@example.org",
        "o2",
        &orders("g1", "alice", "wonderland", "ADD 1"),
    ));
    env.drop_mail(&mail(
        "bob@example.org",
        "o2",
        &orders("g1", "bob", "builder", "ADD 1"),
    ));
    env.daemon.cycle().unwrap();
    assert!(!report_to(&env, "alice@example.org", 2).contains("WARNING"));
}
