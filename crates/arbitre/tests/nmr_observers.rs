//! Issue 10 through the mail loop: the NMR policy "bot" (the ruleset's bot
//! plays a seat after `nmr_bot_after` missed turns) and the observers'
//! spectator reports, with Nébulight (French) and EDS (German). Turns are
//! resolved by the serve cycle when the fixed clock passes the deadline.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;

use arbitre::{Daemon, FixedClock, Registry};
use arbitre_store::{outbox, OutboxRow};
use common::{config, mail, t0};
use mail_parser::{MessageParser, MimeHeaders};
use std::path::PathBuf;
use std::sync::Arc;

struct Game {
    _dir: tempfile::TempDir,
    clock: Arc<FixedClock>,
    daemon: Daemon,
    id: String,
}

fn game_with(name: &str, extra: &str) -> Game {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(FixedClock::new(t0()));
    let mut daemon = Daemon::open(config(dir.path()), Registry::builtin(), clock.clone()).unwrap();
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../docs/examples")
        .join(name)
        .join("game.toml");
    let text = format!("{}\n{extra}", std::fs::read_to_string(&path).unwrap());
    let id = daemon.create_game(&text, path.parent().unwrap()).unwrap();
    Game {
        _dir: dir,
        clock,
        daemon,
        id,
    }
}

impl Game {
    fn outbox(&self) -> Vec<OutboxRow> {
        outbox::all(self.daemon.store.conn()).unwrap()
    }

    fn mails(&self, to: &str, kind: &str, turn: u32) -> Vec<OutboxRow> {
        self.outbox()
            .into_iter()
            .filter(|r| r.mail.recipient == to && r.mail.kind == kind && r.mail.turn == Some(turn))
            .collect()
    }

    fn turn(&self) -> u32 {
        self.daemon
            .store
            .conn()
            .query_row("SELECT turn FROM games WHERE id = ?1", [&self.id], |r| {
                r.get(0)
            })
            .unwrap()
    }

    /// Moves the clock just past the deadline and runs one serve cycle.
    fn pass_deadline(&mut self) {
        let deadline: i64 = self
            .daemon
            .store
            .conn()
            .query_row(
                "SELECT deadline FROM games WHERE id = ?1",
                [&self.id],
                |r| r.get(0),
            )
            .unwrap();
        let now = arbitre::Clock::now(&*self.clock);
        self.clock
            .advance(chrono::TimeDelta::seconds(deadline - now.timestamp() + 1));
        let before = self.turn();
        self.daemon.cycle().unwrap();
        assert_eq!(self.turn(), before + 1, "the cycle resolved the due turn");
    }

    fn send(&mut self, from: &str, body: &str) {
        self.daemon.deliver(&mail(from, "orders", body)).unwrap();
        self.daemon.cycle().unwrap();
    }

    /// (player, text, mark) of the orders stored for `turn`.
    fn orders(&self, turn: u32) -> Vec<(String, String, Option<String>)> {
        let c = self.daemon.store.conn();
        let mut st = c.prepare("SELECT player, text, CASE WHEN by_bot = 1 THEN 'bot' ELSE mail_sha256 END FROM orders WHERE game_id = ?1 AND turn = ?2 ORDER BY id").unwrap();
        st.query_map(rusqlite::params![self.id, turn], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })
        .unwrap()
        .map(Result::unwrap)
        .collect()
    }
}

fn json_viewer(raw: &[u8]) -> String {
    let m = MessageParser::default().parse(raw).unwrap();
    let json = m
        .attachments()
        .find(|a| a.attachment_name().is_some_and(|n| n.ends_with(".json")))
        .map(|a| a.contents().to_vec())
        .expect("a JSON report");
    let v: serde_json::Value = serde_json::from_slice(&json).unwrap();
    v["viewer"].as_str().unwrap_or_default().to_string()
}

/// `seats`: (player id, address) of every seat, none of which sends orders
/// until `comeback` sends a block on turn 3; `note`: the bot note of the
/// game's language; `header`: the order block's first line for `comeback`.
fn check_bot_after_two(
    name: &str,
    seats: &[(&str, &str)],
    note: &str,
    comeback: (&str, &str, String),
) {
    let mut g = game_with(name, "[services]\nnmr = \"bot\"\nnmr_bot_after = 2\n");
    // Turn 1: every seat missed one turn, fewer than 2: no bot.
    g.pass_deadline();
    assert!(
        g.orders(1).is_empty(),
        "no bot orders after one missed turn: {:?}",
        g.orders(1)
    );
    for (_, email) in seats {
        let r = &g.mails(email, "report", 1)[0];
        assert!(!r.mail.body.contains(note), "{}", r.mail.body);
    }
    // Turn 2: second miss in a row: the bot plays every seat, archived and marked.
    g.pass_deadline();
    let stored = g.orders(2);
    assert_eq!(stored.len(), seats.len(), "{stored:?}");
    for ((pid, email), (player, _text, mark)) in seats.iter().zip(&stored) {
        assert_eq!(player, pid);
        assert_eq!(mark.as_deref(), Some("bot"), "by_bot (issue 16 item 2)");
        let r = &g.mails(email, "report", 2)[0];
        assert!(r.mail.body.contains(note), "{}", r.mail.body);
        assert!(
            r.mail.body.contains("2 "),
            "the missed turns are counted: {}",
            r.mail.body
        );
    }
    // The bot's orders are what the engine's bot writes for that state and seed.
    let (state, seed): (String, i64) = g
        .daemon
        .store
        .conn()
        .query_row("SELECT t.state, g.seed FROM turns t JOIN games g ON g.id = t.game_id WHERE t.game_id = ?1 AND t.turn = 1", [&g.id], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap();
    let registry = Registry::builtin();
    let engine = registry.get(name).unwrap();
    let expected = engine
        .bot_orders(
            &state,
            seed as u64,
            &arbitre_core::PlayerId::new(seats[0].0),
        )
        .unwrap();
    assert_eq!(stored[0].1, expected);
    // Turn 3: the comeback player sends orders and plays again; the others
    // (three misses in a row) stay with the bot.
    let (pid, email, block) = comeback;
    g.send(email, &block);
    g.pass_deadline();
    let stored = g.orders(3);
    let mine: Vec<_> = stored.iter().filter(|o| o.0 == pid).collect();
    assert_eq!(mine.len(), 1, "{stored:?}");
    assert!(
        mine[0].2.as_deref().is_some_and(|m| m != "bot"),
        "the player's own orders"
    );
    assert!(!g.mails(email, "report", 3)[0].mail.body.contains(note));
    for (other, addr) in seats.iter().filter(|s| s.0 != pid) {
        assert!(
            stored
                .iter()
                .any(|o| o.0 == *other && o.2.as_deref() == Some("bot")),
            "{stored:?}"
        );
        assert!(g.mails(addr, "report", 3)[0].mail.body.contains(note));
    }
}

/// The default policy: nobody's seat is played, whatever the misses.
fn check_default_policy_does_nothing(name: &str) {
    let mut g = game_with(name, "");
    for _ in 0..3 {
        g.pass_deadline();
    }
    let n: i64 = g
        .daemon
        .store
        .conn()
        .query_row("SELECT count(*) FROM orders", [], |r| r.get(0))
        .unwrap();
    assert_eq!(n, 0);
}

#[test]
fn nmr_bot_after_two_missed_turns_nebulight_in_french() {
    let block = "PARTIE neb-001 JOUEUR maxtor MOT-DE-PASSE change-me-1\nFIN\n".to_string();
    check_bot_after_two(
        "nebulight",
        &[
            ("maxtor", "maxtor@example.org"),
            ("miria", "miria@example.org"),
        ],
        "le robot de l'arbitre a joué votre position",
        ("maxtor", "maxtor@example.org", block),
    );
}

#[test]
fn nmr_bot_after_two_missed_turns_eds_in_german() {
    let block = "SPIEL eds-001 SPIELER p1 PASSWORT change-me-1\nENDE\n".to_string();
    check_bot_after_two(
        "eds",
        &[
            ("p1", "anna@example.org"),
            ("p2", "bert@example.org"),
            ("p3", "carla@example.org"),
        ],
        "hat der Roboter des Spielleiters Deine Position",
        ("p1", "anna@example.org", block),
    );
}

#[test]
fn nmr_default_policy_plays_no_seat_nebulight_and_eds() {
    check_default_policy_does_nothing("nebulight");
    check_default_policy_does_nothing("eds");
}

/// Each observer gets the spectator report of turn 0 and of every turn,
/// kind "observer", subject marked, JSON viewer "observer"; players' and
/// GM's mails are unchanged in number.
fn check_observers(name: &str, marker: &str) {
    let obs = ["kibitz@example.org", "press@example.net"];
    let mut g = game_with(
        name,
        "[services]\nobservers = [\"kibitz@example.org\", \"press@example.net\"]\n",
    );
    g.pass_deadline();
    g.pass_deadline();
    for turn in 0..=2 {
        for o in obs {
            let m = g.mails(o, "observer", turn);
            assert_eq!(m.len(), 1, "one observer mail to {o} for turn {turn}");
            assert!(m[0].mail.subject.contains(marker), "{}", m[0].mail.subject);
            assert!(!m[0].mail.body.trim().is_empty());
            assert_eq!(json_viewer(&m[0].mail.raw), "observer");
        }
    }
    // Two observers, two distinct Message-IDs.
    let ids: std::collections::BTreeSet<String> = g
        .outbox()
        .into_iter()
        .filter(|r| r.mail.kind == "observer")
        .map(|r| r.mail.message_id)
        .collect();
    assert_eq!(ids.len(), 6);
}

#[test]
fn observers_get_the_spectator_report_nebulight_in_french() {
    check_observers("nebulight", "(observateur)");
}

#[test]
fn observers_get_the_spectator_report_eds_in_german() {
    check_observers("eds", "(Beobachter)");
}
