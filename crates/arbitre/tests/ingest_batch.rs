//! Issue 9: the inbox is handled in batches, one transaction for many mails.
//! A mail that fails for the referee's fault (a stored state the ruleset
//! cannot load) is rolled back alone and stays in new/; the other mails of
//! its batch are stored, answered and moved.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;

use common::*;

#[test]
fn a_poisoned_mail_does_not_block_the_others_of_its_batch() {
    let mut env = Env::new();
    env.daemon
        .create_game(&tally_toml("g2", ""), env.dir.path())
        .unwrap();
    // g1's stored state is broken: checking orders against it fails.
    env.daemon
        .store
        .conn()
        .execute(
            "UPDATE turns SET state = '{\"broken\": true}' WHERE game_id = 'g1'",
            [],
        )
        .unwrap();
    env.drop_mail(&mail(
        "alice@example.org",
        "o",
        &orders("g2", "alice", "wonderland", "ADD 1"),
    ));
    env.drop_mail(&mail(
        "alice@example.org",
        "o",
        &orders("g1", "alice", "wonderland", "ADD 2"),
    ));
    env.drop_mail(&mail(
        "bob@example.org",
        "o",
        &orders("g2", "bob", "builder", "ADD 3"),
    ));
    let before = env.count("SELECT count(*) FROM outbox");
    assert_eq!(
        env.daemon.process_inbox().unwrap(),
        2,
        "the two g2 mails are handled"
    );
    assert_eq!(
        env.count("SELECT count(*) FROM orders WHERE game_id = 'g2'"),
        2
    );
    assert_eq!(
        env.count("SELECT count(*) FROM orders WHERE game_id = 'g1'"),
        0
    );
    assert_eq!(
        env.count("SELECT count(*) FROM mail_journal"),
        2,
        "nothing of the poisoned mail was written"
    );
    assert_eq!(
        env.count("SELECT count(*) FROM outbox") - before,
        2,
        "two confirmations"
    );
    assert_eq!(
        env.daemon.inbox.pending().unwrap().len(),
        1,
        "the poisoned mail waits in new/"
    );
    // Still poisoned on the next cycle, and still alone.
    assert_eq!(env.daemon.process_inbox().unwrap(), 0);
    assert_eq!(env.daemon.inbox.pending().unwrap().len(), 1);
}

#[test]
fn a_batch_larger_than_one_transaction_is_handled_whole_and_in_order() {
    let mut env = Env::new();
    let n = arbitre::inbound::BATCH_MAILS * 2 + 5;
    for i in 0..n {
        env.drop_mail(&mail(
            "alice@example.org",
            &format!("o{i}"),
            &orders("g1", "alice", "wonderland", &format!("ADD {}", i % 9 + 1)),
        ));
    }
    // The same mail twice (a client's resend): journaled once, moved twice.
    let dup = mail(
        "bob@example.org",
        "o",
        &orders("g1", "bob", "builder", "ADD 5"),
    );
    env.drop_mail(&dup);
    env.drop_mail(&dup);
    assert_eq!(env.daemon.process_inbox().unwrap(), n + 2);
    assert_eq!(env.count("SELECT count(*) FROM mail_journal"), n as i64 + 1);
    assert_eq!(
        env.count("SELECT count(*) FROM orders WHERE player = 'alice'"),
        n as i64
    );
    // The last mail in file order is the one that counts.
    let last: String = env
        .daemon
        .store
        .conn()
        .query_row(
            "SELECT text FROM orders WHERE player = 'alice' ORDER BY id DESC LIMIT 1",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(last.contains(&format!("ADD {}", (n - 1) % 9 + 1)), "{last}");
    assert!(env.daemon.inbox.pending().unwrap().is_empty());
}
