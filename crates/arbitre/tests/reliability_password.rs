//! Issue 8, authentication: the game master resets a lost password
//! (`arbitre password reset <game> <player>`); the old password is refused
//! from then on, the new one accepted, and neither is stored in clear.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;

use arbitre::cli::{Cli, Command, PasswordCmd};
use clap::Parser;
use common::*;

#[test]
fn gm_password_reset_refuses_the_old_password_and_accepts_the_new() {
    let mut env = Env::new();
    env.daemon
        .reset_password("g1", "Bob", "new-secret-77")
        .unwrap();
    env.drop_mail(&mail(
        "bob@example.org",
        "old",
        &orders("g1", "bob", "builder", "ADD 2"),
    ));
    env.daemon.cycle().unwrap();
    assert_eq!(
        env.count("SELECT count(*) FROM orders"),
        0,
        "the old password no longer works"
    );
    assert!(env
        .last_to("bob@example.org", "error")
        .unwrap()
        .mail
        .body
        .contains("Wrong password"));
    env.drop_mail(&mail(
        "bob@example.org",
        "new",
        &orders("g1", "bob", "new-secret-77", "ADD 2"),
    ));
    env.daemon.cycle().unwrap();
    assert_eq!(
        env.count("SELECT count(*) FROM orders"),
        1,
        "the new password works"
    );
    let hash: String = env
        .daemon
        .store
        .conn()
        .query_row(
            "SELECT password_hash FROM players WHERE id = 'bob'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(hash.starts_with("$argon2id$") && !hash.contains("new-secret-77"));
    // Alice is untouched.
    env.drop_mail(&mail(
        "alice@example.org",
        "a",
        &orders("g1", "alice", "wonderland", "ADD 1"),
    ));
    env.daemon.cycle().unwrap();
    assert_eq!(
        env.count("SELECT count(*) FROM turns"),
        2,
        "both players' orders in: the turn resolved"
    );
}

#[test]
fn gm_password_reset_refuses_unknown_players_and_blank_passwords() {
    let mut env = Env::new();
    let e = env.daemon.reset_password("g1", "carol", "x1").unwrap_err();
    assert!(e.to_string().contains("no player 'carol'"), "{e}");
    assert!(env.daemon.reset_password("nope", "bob", "x1").is_err());
    assert!(env.daemon.reset_password("g1", "bob", "  ").is_err());
    assert!(env.daemon.reset_password("g1", "bob", "two words").is_err());
}

#[test]
fn the_password_never_appears_on_the_command_line() {
    let cli = Cli::try_parse_from([
        "arbitre", "password", "reset", "g1", "bob", "--from", "/tmp/pw",
    ])
    .unwrap();
    assert!(matches!(
        cli.command,
        Command::Password(PasswordCmd::Reset { .. })
    ));
    assert!(
        Cli::try_parse_from(["arbitre", "password", "reset", "g1", "bob", "hunter2"]).is_err(),
        "no positional password"
    );
}
