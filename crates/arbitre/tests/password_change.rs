//! Issue 17 item 4 / issue 16 item 1's demonstration command: a player
//! changes their password by mail (`PASSWORD NEW`, `MOT-DE-PASSE NOUVEAU`,
//! `PASSWORT NEU` in a valid order block), and the game master on the
//! command line (`arbitre player password`, the password read from standard
//! input or a file). Through the mail loop, with two rulesets.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;

use arbitre::cli::Cli;
use arbitre::Registry;
use arbitre_store::{games, journal, outbox, PasswordHasher};
use clap::Parser;
use common::example_game::{game_with, Game};
use common::mail;

struct Case {
    ruleset: &'static str,
    /// GAME, PLAYER, PASSWORD, END and the command line's two words.
    words: [&'static str; 6],
    seat: (&'static str, &'static str, &'static str),
    changed: &'static str,
    wrong: &'static str,
}

const NEB_FR: Case = Case {
    ruleset: "nebulight",
    words: [
        "PARTIE",
        "JOUEUR",
        "MOT-DE-PASSE",
        "FIN",
        "MOT-DE-PASSE",
        "NOUVEAU",
    ],
    seat: ("maxtor", "maxtor@example.org", "change-me-1"),
    changed: "mot de passe",
    wrong: "Mot de passe incorrect",
};

const EDS_DE: Case = Case {
    ruleset: "eds",
    words: ["SPIEL", "SPIELER", "PASSWORT", "ENDE", "PASSWORT", "NEU"],
    seat: ("p1", "anna@example.org", "change-me-1"),
    changed: "Passwort",
    wrong: "Falsches Passwort",
};

fn send(g: &mut Game, c: &Case, n: usize, password: &str, lines: &str) -> String {
    let [gw, p, pw, end, ..] = c.words;
    let (id, email, _) = c.seat;
    let body = format!("{gw} {} {p} {id} {pw} {password}\n{lines}\n{end}\n", g.id);
    g.daemon
        .deliver(&mail(email, &format!("mail {n}"), &body))
        .unwrap();
    g.daemon.cycle().unwrap();
    outbox::all(g.daemon.store.conn())
        .unwrap()
        .into_iter()
        .rfind(|r| r.mail.recipient == email)
        .unwrap()
        .mail
        .body
}

fn stored_orders(g: &Game) -> i64 {
    g.daemon
        .store
        .conn()
        .query_row("SELECT count(*) FROM orders", [], |r| r.get(0))
        .unwrap()
}

#[test]
fn password_new_by_mail() {
    for c in [NEB_FR, EDS_DE] {
        let mut g = game_with(c.ruleset, None, "");
        let (id, _, old) = c.seat;
        let [.., kw, new] = c.words;
        let answer = send(&mut g, &c, 1, old, &format!("{kw} {new} n0uveau-secret"));
        assert!(answer.contains(c.changed), "{}: {answer}", c.ruleset);
        assert!(!answer.contains("n0uveau-secret"), "{answer}");
        let orders_before = stored_orders(&g);
        // The old password is refused from now on, the new one accepted.
        let refused = send(&mut g, &c, 2, old, "");
        assert!(refused.contains(c.wrong), "{}: {refused}", c.ruleset);
        let ok = send(&mut g, &c, 3, "n0uveau-secret", "");
        assert!(!ok.contains(c.wrong), "{}: {ok}", c.ruleset);
        assert_eq!(stored_orders(&g), orders_before + 1, "{}", c.ruleset);
        // Hashed like the others, and written nowhere in clear.
        let p = games::player_nocase(g.daemon.store.conn(), &g.id, id)
            .unwrap()
            .unwrap();
        assert!(PasswordHasher::verify("n0uveau-secret", &p.password_hash));
        assert!(p.password_hash.starts_with("$argon2id$"));
        for r in outbox::all(g.daemon.store.conn()).unwrap() {
            assert!(!r.mail.body.contains("n0uveau-secret"));
        }
        for e in journal::entries(g.daemon.store.conn()).unwrap() {
            assert!(!e.detail.contains("n0uveau-secret"), "{}", e.detail);
        }
    }
}

/// Issue 22 item 1: an inbox batch keeps the seats its checks read for
/// its decisions, and must stop trusting them once a mail of the batch
/// changed one. The change and both uses of the seat in one batch: the
/// old password refused right after the change, the new one accepted.
#[test]
fn password_new_then_both_passwords_in_the_same_batch() {
    for c in [NEB_FR, EDS_DE] {
        let mut g = game_with(c.ruleset, None, "");
        let [gw, p, pw, end, kw, new] = c.words;
        let (id, email, old) = c.seat;
        let block = |password: &str, lines: &str| {
            format!("{gw} {} {p} {id} {pw} {password}\n{lines}\n{end}\n", g.id)
        };
        let mails = [
            block(old, ""),
            block(old, &format!("{kw} {new} n0uveau-secret")),
            block(old, ""),
            block("n0uveau-secret", ""),
        ];
        for (i, body) in mails.iter().enumerate() {
            g.daemon
                .deliver(&mail(email, &format!("mail {i}"), body))
                .unwrap();
        }
        let orders_before = stored_orders(&g);
        assert_eq!(g.daemon.process_inbox().unwrap(), 4, "one batch of four");
        let answers: Vec<String> = outbox::all(g.daemon.store.conn())
            .unwrap()
            .into_iter()
            .filter(|r| r.mail.recipient == email)
            .map(|r| r.mail.body)
            .collect();
        let last4 = &answers[answers.len() - 4..];
        assert!(!last4[0].contains(c.wrong), "{}: {}", c.ruleset, last4[0]);
        assert!(last4[1].contains(c.changed), "{}: {}", c.ruleset, last4[1]);
        assert!(last4[2].contains(c.wrong), "{}: {}", c.ruleset, last4[2]);
        assert!(!last4[3].contains(c.wrong), "{}: {}", c.ruleset, last4[3]);
        assert_eq!(stored_orders(&g), orders_before + 2, "{}", c.ruleset);
    }
}

/// A PASSWORD line without its word is refused with its line, and
/// changes nothing.
#[test]
fn password_new_without_a_word_changes_nothing() {
    let c = EDS_DE;
    let mut g = game_with(c.ruleset, None, "");
    let (id, _, old) = c.seat;
    let answer = send(&mut g, &c, 1, old, "PASSWORT NEU");
    assert!(answer.contains("PASSWORT NEU"), "{answer}");
    let p = games::player_nocase(g.daemon.store.conn(), &g.id, id)
        .unwrap()
        .unwrap();
    assert!(PasswordHasher::verify(old, &p.password_hash));
}

#[test]
fn player_password_on_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("arbitre.toml");
    std::fs::write(
        &cfg,
        format!("referee = \"{}\"\ninbox = \"inbox\"\ndatabase = \"arbitre.db\"\n[outbound]\nkind = \"file\"\ndir = \"outbox\"\n[argon2]\nm_cost = 8\nt_cost = 1\n", common::REFEREE),
    )
    .unwrap();
    let toml = common::example_game::example("eds");
    let run = |args: &[&str]| -> Result<String, String> {
        let mut argv = vec!["arbitre", "--config", cfg.to_str().unwrap()];
        argv.extend_from_slice(args);
        let mut out = Vec::new();
        arbitre::cli::run(
            Cli::try_parse_from(argv).map_err(|e| e.to_string())?,
            Registry::builtin(),
            &mut out,
        )
        .map_err(|e| e.to_string())?;
        Ok(String::from_utf8(out).unwrap())
    };
    run(&["game", "create", toml.to_str().unwrap()]).unwrap();
    // Never an argument.
    assert!(run(&["player", "password", "eds-001", "p1", "geheim"]).is_err());
    let file = dir.path().join("pw");
    std::fs::write(&file, "ganz-neu\n").unwrap();
    let out = run(&[
        "player",
        "password",
        "eds-001",
        "p1",
        "--password-file",
        file.to_str().unwrap(),
    ])
    .unwrap();
    assert!(out.contains("password of player p1 changed"), "{out}");
    let store = arbitre_store::Store::open(&dir.path().join("arbitre.db")).unwrap();
    let p = games::player_nocase(store.conn(), "eds-001", "p1")
        .unwrap()
        .unwrap();
    assert!(PasswordHasher::verify("ganz-neu", &p.password_hash));
    assert!(!PasswordHasher::verify("change-me-1", &p.password_hash));
    assert!(run(&[
        "player",
        "password",
        "eds-001",
        "nobody",
        "--password-file",
        file.to_str().unwrap()
    ])
    .is_err());
}
