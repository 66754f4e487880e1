//! Issue 16 item 1: one request pipeline. A game master's command does the
//! same from the command line (the `Daemon` methods `cli.rs` calls) and
//! from a mail: same game row, same notices to the players. And the bug
//! found on the way: two schedule changes in the same second no longer
//! collide on their notices' Message-ID.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;

use arbitre::services::command::When;
use arbitre_store::{games, outbox, GameStatus};
use chrono::TimeDelta;
use common::example_game::{game_with, Game};
use common::mail;

const GM: &str = "gm@example.org";
const SERVICES: &str = "\n[services]\ngm_password = \"maître\"\n";

fn game(ruleset: &str) -> Game {
    game_with(ruleset, None, SERVICES)
}

/// (status, deadline) of the game.
fn row(g: &Game) -> (GameStatus, Option<i64>) {
    let r = games::require_game(g.daemon.store.conn(), &g.id).unwrap();
    (r.status, r.deadline)
}

/// The notices to players, as (recipient, subject, body), in queue order.
fn notices(g: &Game) -> Vec<(String, String, String)> {
    outbox::all(g.daemon.store.conn())
        .unwrap()
        .into_iter()
        .filter(|r| r.mail.kind == "notice")
        .map(|r| (r.mail.recipient, r.mail.subject, r.mail.body))
        .collect()
}

/// The French header words of the Nébulight example, the German of EDS.
fn gm_mail(g: &mut Game, n: usize, commands: &str) {
    let words = if g.id.starts_with("neb") {
        ["PARTIE", "JOUEUR", "MOT-DE-PASSE", "FIN"]
    } else {
        ["SPIEL", "SPIELER", "PASSWORT", "ENDE"]
    };
    let [gw, p, pw, end] = words;
    let body = format!("{gw} {} {p} gm {pw} maître\n{commands}\n{end}\n", g.id);
    g.daemon
        .deliver(&mail(GM, &format!("gm {n}"), &body))
        .unwrap();
    g.daemon.cycle().unwrap();
}

/// A mail command line and the CLI method that does the same.
type Step = (&'static str, Box<dyn Fn(&mut Game)>);

#[test]
fn same_gm_command_from_cli_and_from_mail() {
    for ruleset in ["nebulight", "eds"] {
        let mut cli = game(ruleset);
        let mut by_mail = game(ruleset);
        assert_eq!(row(&cli), row(&by_mail), "{ruleset}: same start");
        let steps: [Step; 4] = [
            (
                "EXTEND 1w",
                Box::new(|g: &mut Game| {
                    let id = g.id.clone();
                    g.daemon.extend(&id, TimeDelta::weeks(1)).unwrap()
                }),
            ),
            (
                "PAUSE",
                Box::new(|g: &mut Game| {
                    let id = g.id.clone();
                    g.daemon.pause(&id).unwrap()
                }),
            ),
            (
                "RESUME",
                Box::new(|g: &mut Game| {
                    let id = g.id.clone();
                    g.daemon.resume(&id).unwrap();
                }),
            ),
            (
                "SET DEADLINE 2026-12-20 18:00",
                Box::new(|g: &mut Game| {
                    let id = g.id.clone();
                    let w = When::parse("2026-12-20 18:00").unwrap();
                    g.daemon.set_deadline(&id, &w).unwrap();
                }),
            ),
        ];
        for (n, (line, by_cli)) in steps.iter().enumerate() {
            let before = notices(&cli).len();
            by_cli(&mut cli);
            gm_mail(&mut by_mail, n, line);
            assert_eq!(row(&cli), row(&by_mail), "{ruleset} {line}: game row");
            let (a, b) = (notices(&cli), notices(&by_mail));
            assert!(a.len() > before, "{ruleset} {line}: players told");
            assert_eq!(a, b, "{ruleset} {line}: the same notices");
        }
        assert_eq!(row(&cli).0, GameStatus::Running);
    }
}

/// A refused command changes nothing from either way in, and says why.
#[test]
fn refused_gm_command_changes_nothing_from_either_way() {
    let mut cli = game("nebulight");
    let mut by_mail = game("nebulight");
    let id = cli.id.clone();
    let err = cli.daemon.resume(&id).unwrap_err().to_string();
    gm_mail(&mut by_mail, 0, "RESUME");
    let answer = outbox::all(by_mail.daemon.store.conn())
        .unwrap()
        .into_iter()
        .rfind(|r| r.mail.recipient == GM && r.mail.kind == "confirm")
        .unwrap()
        .mail
        .body;
    assert!(answer.contains(&err), "{answer}\n--\n{err}");
    assert_eq!(row(&cli), row(&by_mail));
    assert!(notices(&cli).is_empty() && notices(&by_mail).is_empty());
}

/// Issue 16 (noticed): the notices of a schedule change are named
/// `<change>.<unix second>`; two `arbitre extend` in the same second
/// failed the second on the outbox's unique Message-ID.
#[test]
fn two_extends_in_the_same_second() {
    let mut g = game("eds");
    let id = g.id.clone();
    let first = row(&g).1.unwrap();
    g.daemon.extend(&id, TimeDelta::hours(1)).unwrap();
    g.daemon.extend(&id, TimeDelta::hours(1)).unwrap();
    g.daemon.pause(&id).unwrap();
    g.daemon.resume(&id).unwrap();
    g.daemon.pause(&id).unwrap();
    assert_eq!(row(&g), (GameStatus::Paused, None));
    let rows: Vec<_> = outbox::all(g.daemon.store.conn())
        .unwrap()
        .into_iter()
        .filter(|r| r.mail.kind == "notice")
        .collect();
    let seats = games::players(g.daemon.store.conn(), &id).unwrap().len();
    assert_eq!(rows.len(), 5 * seats);
    let mut ids: Vec<_> = rows.iter().map(|r| r.mail.message_id.clone()).collect();
    // The first of each keeps its name (the Message-IDs of archived games
    // stay); the next gets `.2`, `.3`.
    let ts = common::t0().timestamp();
    let named = |end: &str| ids.iter().filter(|m| m.contains(end)).count();
    assert_eq!(named(&format!(".extend.{ts}@")), seats);
    assert_eq!(named(&format!(".extend.{ts}.2@")), seats);
    assert_eq!(named(&format!(".pause.{ts}@")), seats);
    assert_eq!(named(&format!(".pause.{ts}.2@")), seats);
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 5 * seats, "one Message-ID each");
    // Each extension counts: the deadline moved twice before the pause.
    let extended = rows
        .iter()
        .filter(|r| r.mail.message_id.contains(".extend."))
        .count();
    assert_eq!(extended, 2 * seats);
    assert!(first > 0);
}
