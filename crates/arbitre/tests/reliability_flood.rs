//! Issue 8, a flood of mails: the per-sender and per-game rate limits of
//! `[limits]` (docs/operations.md). Over a limit a mail is journaled
//! (`rate-limited` for the one answered per address and hour,
//! `rate-limited-silent` for the others), nothing is stored, and the
//! address gets exactly one polite answer per clock hour of the daemon
//! (issue 14: counted in O(1) counter rows per hour, like Postfix's anvil).
//! Mails within the limit are handled as usual.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;

use arbitre::config::Limits;
use chrono::TimeDelta;
use common::*;

fn outcome(env: &Env, outcome: &str) -> i64 {
    env.count(&format!(
        "SELECT count(*) FROM mail_journal WHERE outcome = '{outcome}'"
    ))
}

fn to_count(env: &Env, recipient: &str, kind: &str) -> usize {
    env.outbox()
        .iter()
        .filter(|r| r.mail.recipient == recipient && r.mail.kind == kind)
        .count()
}

/// `n` distinct order mails from alice (distinct bodies, so distinct journal keys).
fn alice_orders(env: &Env, tag: &str, n: usize) {
    for i in 0..n {
        let body = orders("g1", "alice", "wonderland", &format!("ADD {}", i % 9 + 1));
        env.drop_mail(&mail("alice@example.org", &format!("{tag} {i}"), &body));
    }
}

#[test]
fn fifty_mails_from_one_sender_get_one_polite_answer_and_the_first_thirty_are_handled() {
    let mut env = Env::new();
    env.daemon.config.limits = Limits::default();
    let limit = env.daemon.config.limits.per_sender_per_hour as i64;
    assert_eq!(limit, 30);
    alice_orders(&env, "flood", 50);
    env.daemon.cycle().unwrap();
    assert!(
        env.daemon.inbox.pending().unwrap().is_empty(),
        "every mail read"
    );
    assert_eq!(
        env.count("SELECT count(*) FROM mail_journal"),
        50,
        "every mail journaled once"
    );
    assert_eq!(
        env.count("SELECT count(*) FROM orders"),
        limit,
        "the first 30 are stored"
    );
    assert_eq!(outcome(&env, "stored"), limit);
    assert_eq!(outcome(&env, "rate-limited"), 1, "one answered refusal");
    assert_eq!(
        outcome(&env, "rate-limited-silent"),
        50 - limit - 1,
        "the rest silently journaled"
    );
    assert_eq!(
        to_count(&env, "alice@example.org", "confirm"),
        limit as usize,
        "each handled mail confirmed"
    );
    assert_eq!(
        to_count(&env, "alice@example.org", "error"),
        1,
        "exactly one polite answer"
    );
    let polite = env.last_to("alice@example.org", "error").unwrap();
    assert!(
        polite.mail.body.contains("more than 30 mails"),
        "{}",
        polite.mail.body
    );
    assert!(
        polite.mail.body.contains("nothing was stored"),
        "{}",
        polite.mail.body
    );
    // The 31st mail is the one answered; later ones are not.
    let answered: String = env
        .daemon
        .store
        .conn()
        .query_row(
            "SELECT detail FROM mail_journal WHERE outcome = 'rate-limited'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(answered.contains("alice@example.org"), "{answered}");
    // A second cycle with more flood still answers nobody.
    alice_orders(&env, "more", 5);
    env.daemon.cycle().unwrap();
    assert_eq!(outcome(&env, "rate-limited-silent"), 50 - limit - 1 + 5);
    assert_eq!(
        to_count(&env, "alice@example.org", "error"),
        1,
        "still one polite answer"
    );
    // Another sender is not affected by alice's flood.
    env.drop_mail(&mail(
        "bob@example.org",
        "mine",
        &orders("g1", "bob", "builder", "ADD 1"),
    ));
    env.daemon.cycle().unwrap();
    assert_eq!(to_count(&env, "bob@example.org", "confirm"), 1);
}

#[test]
fn the_per_game_limit_answers_each_sender_once_in_the_game_language() {
    let toml = tally_toml("g1", "").replace("seed = 42", "seed = 42\nlanguage = \"fr\"");
    let mut env = Env::with_game(&toml);
    // Only the per-game limit here (issue 14: it counts strangers, not the
    // seated players writing from their registered addresses).
    env.daemon.config.limits = Limits {
        per_sender_per_hour: 100,
        per_game_per_hour: 10,
        refusals_per_address_per_hour: 0,
        wrong_passwords_per_seat_per_hour: 0,
        ..Limits::default()
    };
    // Wrong passwords from two strangers: they count (a flood is a flood), and no turn resolves.
    for i in 0..8 {
        env.drop_mail(&mail(
            "mallory@example.net",
            &format!("a{i}"),
            &orders("g1", "alice", "nope", &format!("ADD {i}")),
        ));
        env.drop_mail(&mail(
            "trudy@example.net",
            &format!("b{i}"),
            &orders("g1", "bob", "nope", &format!("ADD {i}")),
        ));
    }
    // A stranger writing to another game is not limited by g1's flood.
    env.drop_mail(&mail(
        "carol@example.org",
        "x",
        &orders("zz", "carol", "pw", "ADD 1"),
    ));
    env.daemon.cycle().unwrap();
    assert_eq!(env.count("SELECT count(*) FROM mail_journal"), 17);
    assert_eq!(
        env.count(
            "SELECT count(*) FROM mail_journal WHERE game_id = 'g1' AND outcome = 'rejected'"
        ),
        10,
        "the first ten handled"
    );
    assert_eq!(
        outcome(&env, "rate-limited"),
        2,
        "mallory and trudy each answered once"
    );
    assert_eq!(outcome(&env, "rate-limited-silent"), 4);
    for who in ["mallory@example.net", "trudy@example.net"] {
        let errors: Vec<_> = env
            .outbox()
            .into_iter()
            .filter(|r| r.mail.recipient == who && r.mail.kind == "error")
            .collect();
        assert_eq!(
            errors.len(),
            5 + 1,
            "five wrong-password answers and one polite refusal for {who}"
        );
        let polite = errors.last().unwrap();
        assert!(
            polite
                .mail
                .body
                .contains("La partie g1 a reçu plus de 10 courriers en une heure"),
            "{}",
            polite.mail.body
        );
    }
    assert_eq!(
        to_count(&env, "carol@example.org", "error"),
        1,
        "the other game's mail is answered"
    );
    assert_eq!(outcome(&env, "rejected"), 11);
    // The seated players are not refused by the strangers' flood.
    env.drop_mail(&mail(
        "alice@example.org",
        "mine",
        &orders("g1", "alice", "wonderland", "ADD 1"),
    ));
    env.daemon.cycle().unwrap();
    assert_eq!(to_count(&env, "alice@example.org", "confirm"), 1);
}

#[test]
fn after_the_window_mail_is_accepted_again_and_a_new_flood_gets_a_new_answer() {
    let mut env = Env::new();
    env.daemon.config.limits = Limits {
        per_sender_per_hour: 3,
        per_game_per_hour: 0,
        ..Limits::default()
    };
    alice_orders(&env, "first", 5);
    env.daemon.cycle().unwrap();
    assert_eq!(env.count("SELECT count(*) FROM orders"), 3);
    assert_eq!(to_count(&env, "alice@example.org", "error"), 1);
    // Still within the hour (59 minutes later): refused, silently.
    env.clock.advance(TimeDelta::minutes(59));
    alice_orders(&env, "later", 1);
    env.daemon.cycle().unwrap();
    assert_eq!(env.count("SELECT count(*) FROM orders"), 3);
    assert_eq!(outcome(&env, "rate-limited-silent"), 2);
    // The first mails were an hour ago: handled again.
    env.clock.advance(TimeDelta::minutes(2));
    alice_orders(&env, "next", 1);
    env.daemon.cycle().unwrap();
    assert_eq!(
        env.count("SELECT count(*) FROM orders"),
        4,
        "accepted once the window has passed"
    );
    assert_eq!(to_count(&env, "alice@example.org", "confirm"), 4);
    // A new flood an hour after the first answer gets one new answer.
    env.clock.advance(TimeDelta::minutes(61));
    alice_orders(&env, "again", 6);
    env.daemon.cycle().unwrap();
    assert_eq!(env.count("SELECT count(*) FROM orders"), 4 + 3);
    assert_eq!(
        to_count(&env, "alice@example.org", "error"),
        2,
        "one polite answer per window"
    );
}

#[test]
fn a_limit_of_zero_turns_it_off() {
    let mut env = Env::new();
    env.daemon.config.limits = Limits::off();
    alice_orders(&env, "many", 40);
    env.daemon.cycle().unwrap();
    assert_eq!(env.count("SELECT count(*) FROM orders"), 40);
    assert_eq!(
        outcome(&env, "rate-limited") + outcome(&env, "rate-limited-silent"),
        0
    );
}

/// SQLite virtual-machine instructions run while `env`'s daemon handles
/// `n` new order mails from alice (SQLite's progress handler, called every
/// `STEP` instructions: a count of work, not a time).
fn vm_work_for_mails(env: &mut Env, tag: &str, n: usize) -> u64 {
    use std::os::raw::{c_int, c_void};
    const STEP: c_int = 8;
    unsafe extern "C" fn tick(p: *mut c_void) -> c_int {
        // SAFETY: `p` is the `u64` below, alive until the handler is removed.
        unsafe { *(p as *mut u64) += 1 };
        0
    }
    alice_orders(env, tag, n);
    let mut ticks: u64 = 0;
    // SAFETY: the handle is the daemon's open connection; the handler is
    // removed before `ticks` goes out of scope.
    unsafe {
        rusqlite::ffi::sqlite3_progress_handler(
            env.daemon.store.conn().handle(),
            STEP,
            Some(tick),
            &mut ticks as *mut u64 as *mut c_void,
        );
    }
    let handled = env.daemon.process_inbox().unwrap();
    unsafe {
        rusqlite::ffi::sqlite3_progress_handler(
            env.daemon.store.conn().handle(),
            0,
            None,
            std::ptr::null_mut(),
        );
    }
    assert_eq!(handled, n);
    ticks * STEP as u64
}

/// Issue 22 item 1: the flood limits cost the same per mail whatever the
/// journal holds. They once counted every journal row of the last hour for
/// each mail (`count(*)` over the sender's and the game's rows), so a
/// burst cost quadratic time; the hourly counters read one row. Here the
/// journal gains 20,000 rows of the same sender and game within the hour,
/// and the SQLite work per mail stays within a B-tree level of what it was
/// (a scan of those rows would multiply it many times over).
#[test]
fn flood_counts_constant_per_mail_as_the_journal_grows() {
    let mut env = Env::new();
    env.daemon.config.limits = Limits {
        per_sender_per_hour: 1_000_000,
        per_game_per_hour: 1_000_000,
        ..Limits::default()
    };
    vm_work_for_mails(&mut env, "warm", 10);
    let before = vm_work_for_mails(&mut env, "small", 20);
    let now = env.daemon.now().timestamp();
    {
        let c = env.daemon.store.conn();
        let mut st = c
            .prepare(
                "INSERT INTO mail_journal (sha256, message_id, sender, received_at, game_id, outcome, detail)
                 VALUES (?1, ?2, 'alice@example.org', ?3, 'g1', 'stored', '')",
            )
            .unwrap();
        c.execute_batch("BEGIN").unwrap();
        for i in 0..20_000 {
            st.execute(rusqlite::params![
                format!("{i:064x}"),
                format!("<old{i}@client.example>"),
                now - (i % 3000)
            ])
            .unwrap();
        }
        c.execute_batch("COMMIT").unwrap();
    }
    let after = vm_work_for_mails(&mut env, "large", 20);
    assert!(
        after * 10 <= before * 13,
        "SQLite work for 20 mails: {before} instructions with a small journal, {after} with 20,000 more rows of the same sender and game in the hour"
    );
}
