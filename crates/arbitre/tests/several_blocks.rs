//! Issue 17 item 6, through the mail loop: a player in several games sends
//! ONE mail with one block per game (and a CHECK block beside them). Every
//! block is handled and answered in one confirmation with a section per
//! block, each in its game's language; a bad block among good ones is
//! refused alone; a block's orders are stored exactly once, however often
//! the mail is delivered.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;

use arbitre_core::PlayerId;
use arbitre_store::{games, turns};
use common::*;
use std::path::Path;

/// Orders stored for `player` of `game` by mail (not by the bot), and the
/// errors of the latest.
fn stored(env: &Env, game: &str, player: &str) -> (i64, i64) {
    env.daemon
        .store
        .conn()
        .query_row(
            "SELECT count(*), coalesce(max(errors), -1) FROM orders WHERE game_id = ?1 AND player = ?2 AND by_bot = 0",
            [game, player],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap()
}

fn answers_to(env: &Env, to: &str) -> Vec<arbitre_store::OutboxRow> {
    env.outbox()
        .into_iter()
        .filter(|r| r.mail.recipient == to)
        .collect()
}

#[test]
fn several_blocks_tally_two_games_and_a_check_one_confirmation_in_each_language() {
    let mut env = Env::new();
    let fr = tally_toml("g2", "").replace("seed = 42", "seed = 42\nlanguage = \"fr\"");
    env.daemon.create_game(&fr, env.dir.path()).unwrap();
    let before = answers_to(&env, "alice@example.org").len();
    let body = "Hello,\n\nGAME g1 PLAYER alice PASSWORD wonderland\nADD 2\nEND\n\n\
                PARTIE g2 JOUEUR alice MOT-DE-PASSE wonderland\nADD 3\nFIN\n\n\
                CHECK g1 PLAYER alice PASSWORD wonderland\nADD 9\nEND\n\nAlice\n";
    let raw = mail("alice@example.org", "my games", body);
    env.drop_mail(&raw);
    env.daemon.process_inbox().unwrap();
    let got = answers_to(&env, "alice@example.org");
    assert_eq!(got.len(), before + 1, "one answer for the three blocks");
    let one = &got[before];
    assert_eq!(one.mail.kind, "confirm");
    let b = &one.mail.body;
    for s in ["==== 1/3 ====", "==== 2/3 ====", "==== 3/3 ===="] {
        assert!(b.contains(s), "{b}");
    }
    let (s1, s2, s3) = (
        b.find("==== 1/3").unwrap(),
        b.find("==== 2/3").unwrap(),
        b.find("==== 3/3").unwrap(),
    );
    assert!(b[s1..s2].contains("Orders received for game g1, turn 1, player alice."));
    assert!(b[s2..s3].contains("Ordres reçus pour la partie g2, tour 1, joueur alice."));
    assert!(b[s3..].contains("Order check (CHECK) for game g1, turn 1, player alice."));
    assert_eq!(b.matches("\n-- \n").count(), 1, "signed once: {b}");
    assert_eq!(stored(&env, "g1", "alice"), (1, 0));
    assert_eq!(stored(&env, "g2", "alice"), (1, 0));
    let journaled: i64 = env.count("SELECT count(*) FROM mail_journal");
    // Delivered again (the same bytes, then a copy with a trace header):
    // nothing more is stored or answered.
    env.drop_mail(&raw);
    let mut copy = b"Received: from relay.example by mx.example\r\n".to_vec();
    copy.extend_from_slice(&raw);
    env.drop_mail(&copy);
    env.daemon.process_inbox().unwrap();
    assert_eq!(stored(&env, "g1", "alice"), (1, 0));
    assert_eq!(stored(&env, "g2", "alice"), (1, 0));
    assert_eq!(answers_to(&env, "alice@example.org").len(), before + 1);
    assert_eq!(
        env.count("SELECT count(*) FROM mail_journal"),
        journaled + 1,
        "the copy journaled as a duplicate"
    );
}

fn example(ruleset: &str) -> (String, std::path::PathBuf) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../docs/examples")
        .join(ruleset);
    (std::fs::read_to_string(dir.join("game.toml")).unwrap(), dir)
}

fn bot(env: &Env, game: &str, player: &str) -> String {
    let c = env.daemon.store.conn();
    let row = games::require_game(c, game).unwrap();
    let state = turns::latest(c, game).unwrap().state;
    env.daemon
        .registry
        .get(&row.ruleset)
        .unwrap()
        .bot_orders(&state, row.seed, &PlayerId::new(player))
        .unwrap()
}

#[test]
fn several_blocks_scrambled_and_eds_with_a_bad_block_among_good_ones() {
    let mut env = Env::new();
    for ruleset in ["scrambled", "eds"] {
        let (toml, base) = example(ruleset);
        env.daemon.create_game(&toml, &base).unwrap();
    }
    let to = "anna@example.org";
    let before = answers_to(&env, to).len();
    let scn = bot(&env, "scn-001", "p1");
    let eds = bot(&env, "eds-001", "p1");
    let body = format!(
        "Bonjour,\n\nPARTIE scn-001 JOUEUR p1 MOT-DE-PASSE change-me-1\n{}\nFIN\n\n\
         PARTIE scn-001 JOUEUR p2 MOT-DE-PASSE faux\nREADY\nFIN\n\n\
         SPIEL eds-001 SPIELER p1 PASSWORT change-me-1\n{}\nENDE\n",
        scn.trim_end(),
        eds.trim_end()
    );
    env.drop_mail(&mail(to, "deux parties", &body));
    env.daemon.process_inbox().unwrap();
    let got = answers_to(&env, to);
    assert_eq!(got.len(), before + 1, "one answer for the three blocks");
    let b = &got[before].mail.body;
    let (s1, s2, s3) = (
        b.find("==== 1/3").unwrap(),
        b.find("==== 2/3").unwrap(),
        b.find("==== 3/3").unwrap(),
    );
    assert!(
        b[s1..s2].contains("Ordres reçus pour la partie scn-001, tour 1, joueur p1."),
        "{b}"
    );
    assert!(
        b[s2..s3].contains("Mot de passe incorrect pour le joueur p2 de la partie scn-001."),
        "{b}"
    );
    assert!(
        b[s3..].contains("Befehle erhalten für Spiel eds-001, Zug 1, Spieler p1."),
        "{b}"
    );
    // The good blocks are stored, the bad one is not.
    assert_eq!(stored(&env, "scn-001", "p1"), (1, 0));
    assert_eq!(stored(&env, "eds-001", "p1"), (1, 0));
    assert_eq!(stored(&env, "scn-001", "p2").0, 0);
    // One journal row for the mail, naming every block.
    let detail: String = env
        .daemon
        .store
        .conn()
        .query_row(
            "SELECT detail FROM mail_journal ORDER BY rowid DESC LIMIT 1",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(
        detail.contains("block 1: orders for p1")
            && detail.contains("block 2: wrong password for player 'p2'")
            && detail.contains("block 3: orders for p1"),
        "{detail}"
    );
}
