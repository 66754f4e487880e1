//! Issue 14 item 7: a panic in a ruleset stops its game, not the daemon.
//!
//! `Panicky` is Tally with a bug on demand: it panics in `check` on an
//! order line `PANIC CHECK` and in `resolve` when a player's orders hold
//! `PANIC RESOLVE` — until it is "fixed" (built with `panics: false`, the
//! new arbitre installed after the fix).
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;

use arbitre::cli::Cli;
use arbitre::{Daemon, Registry, SystemClock};
use arbitre_core::testkit::Tally;
use arbitre_core::{
    Adapter, Checked, Engine, EngineError, Outcome, PlayerId, PlayerInfo, PlayerSetup, Report,
    Resolved, RulesetInfo, SetupConfig, Snapshot, Viewer,
};
use arbitre_store::{faults, games, OutboxStatus};
use common::*;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

struct Panicky {
    inner: Box<dyn Engine>,
    panics: bool,
}

impl Engine for Panicky {
    fn info(&self) -> RulesetInfo {
        RulesetInfo {
            id: "panicky",
            ..self.inner.info()
        }
    }
    fn setup(&self, c: &SetupConfig) -> Result<Snapshot, EngineError> {
        self.inner.setup(c)
    }
    fn players(&self, s: &str) -> Result<Vec<PlayerInfo>, EngineError> {
        self.inner.players(s)
    }
    fn check(&self, s: &str, p: &PlayerId, text: &str) -> Result<Checked, EngineError> {
        if self.panics && text.contains("PANIC CHECK") {
            let v: Vec<u32> = Vec::new();
            // The kind of bug the issue found: an index nobody expected.
            let _ = v[3];
        }
        self.inner.check(s, p, text)
    }
    fn resolve(
        &self,
        s: &str,
        seed: u64,
        orders: &BTreeMap<PlayerId, String>,
    ) -> Result<Resolved, EngineError> {
        if self.panics && orders.values().any(|o| o.contains("PANIC RESOLVE")) {
            panic!("resolve: fleet vanished mid-combat");
        }
        self.inner.resolve(s, seed, orders)
    }
    fn report(&self, s: &str, v: &Viewer) -> Result<Report, EngineError> {
        self.inner.report(s, v)
    }
    fn outcome(&self, s: &str) -> Result<Option<Outcome>, EngineError> {
        self.inner.outcome(s)
    }
    fn bot_orders(&self, s: &str, seed: u64, p: &PlayerId) -> Result<String, EngineError> {
        self.inner.bot_orders(s, seed, p)
    }
    fn join(&self, s: &str, seed: u64, p: &PlayerSetup) -> Result<Snapshot, EngineError> {
        self.inner.join(s, seed, p)
    }
    fn run_case(&self, path: &Path) -> arbitre_core::cases::CaseOutcome {
        self.inner.run_case(path)
    }
}

fn with_panicky(panics: bool) -> Registry {
    registry().with(Box::new(Panicky {
        inner: Adapter::boxed(Tally),
        panics,
    }))
}

fn panicky_toml(id: &str) -> String {
    tally_toml(id, "").replace("ruleset = \"tally\"", "ruleset = \"panicky\"")
}

fn new_count(dir: &Path) -> usize {
    std::fs::read_dir(dir.join("inbox/new"))
        .map(|d| d.count())
        .unwrap_or(0)
}

fn cli(dir: &Path, registry: Registry, args: &[&str]) -> String {
    use clap::Parser;
    let mut argv = vec!["arbitre", "--config"];
    let cfg = dir.join("arbitre.toml");
    argv.push(cfg.to_str().unwrap());
    argv.extend_from_slice(args);
    let mut out = Vec::new();
    let code = arbitre::cli::run(Cli::parse_from(argv), registry, &mut out).unwrap();
    assert_eq!(code, 0);
    String::from_utf8(out).unwrap()
}

/// In the mail loop: an order mail that panics at check faults its game
/// (the GM is told once, the mail waits in new/), while a mail for another
/// game in the same batch is answered; after the fix, `resume` plays it.
#[test]
fn panic_in_ruleset_isolated() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(arbitre::FixedClock::new(t0()));
    let mut d = Daemon::open(config(dir.path()), with_panicky(true), clock.clone()).unwrap();
    d.create_game(&panicky_toml("p1"), dir.path()).unwrap();
    d.create_game(&tally_toml("g1", ""), dir.path()).unwrap();
    d.deliver(&mail(
        "alice@example.org",
        "orders",
        &orders("p1", "alice", "wonderland", "ADD 2\nPANIC CHECK"),
    ))
    .unwrap();
    d.deliver(&mail(
        "alice@example.org",
        "orders",
        &orders("g1", "alice", "wonderland", "ADD 3"),
    ))
    .unwrap();

    let r = d.cycle().expect("a ruleset panic does not stop the cycle");
    assert_eq!(r.mails, 1, "the other game's mail was handled");
    let c = d.store.conn();
    let f = faults::open_fault(c, "p1").unwrap().expect("p1 is faulted");
    assert_eq!((f.turn, f.during.as_str()), (1, "check"));
    assert!(f.message.contains("index out of bounds"), "{}", f.message);
    assert!(faults::open_fault(c, "g1").unwrap().is_none());
    let all = arbitre_store::outbox::all(c).unwrap();
    assert!(all
        .iter()
        .any(|m| m.mail.kind == "confirm" && m.mail.game_id.as_deref() == Some("g1")));
    assert!(
        !all.iter()
            .any(|m| m.mail.kind == "confirm" && m.mail.game_id.as_deref() == Some("p1")),
        "nothing of the panicking mail was written"
    );
    let gm: Vec<_> = all
        .iter()
        .filter(|m| m.mail.recipient == "gm@arbitre.test" && m.mail.message_id.contains("fault"))
        .collect();
    assert_eq!(gm.len(), 1, "the GM is told");
    assert!(
        gm[0].mail.body.contains("arbitre resume p1")
            && gm[0].mail.body.contains("index out of bounds")
    );
    assert!(
        all.iter().all(|m| m.status == OutboxStatus::Sent),
        "the outbox left in the same cycle"
    );
    assert_eq!(new_count(dir.path()), 1, "the panicking mail waits in new/");
    assert_eq!(
        arbitre_store::journal::count_from_sender_since(c, "alice@example.org", 0).unwrap(),
        1,
        "and is not journaled"
    );

    // Again and again: no second mail to the GM, the mail still waits.
    for _ in 0..2 {
        d.cycle().unwrap();
    }
    let faults_told = arbitre_store::outbox::all(d.store.conn())
        .unwrap()
        .iter()
        .filter(|m| m.mail.message_id.contains("fault"))
        .count();
    assert_eq!(faults_told, 1, "the GM is told once");
    assert_eq!(new_count(dir.path()), 1);
    let status = d.status(None).unwrap();
    assert!(
        status.contains("FAULTED") && status.contains("during check of turn 1"),
        "{status}"
    );
    assert!(status.contains("arbitre resume p1"), "{status}");

    // The fix is installed (a new daemon), the GM resumes the game.
    drop(d);
    let mut d = Daemon::open(config(dir.path()), with_panicky(false), clock).unwrap();
    let cleared = d.resume("p1").unwrap().expect("the fault is cleared");
    assert_eq!(cleared.during, "check");
    d.cycle().unwrap();
    assert_eq!(new_count(dir.path()), 0, "the waiting mail was handled");
    let all = arbitre_store::outbox::all(d.store.conn()).unwrap();
    let confirm = all
        .iter()
        .find(|m| m.mail.kind == "confirm" && m.mail.game_id.as_deref() == Some("p1"))
        .expect("answered after resume");
    assert!(confirm.mail.body.contains("ADD 2"), "{}", confirm.mail.body);
    assert!(faults::open_fault(d.store.conn(), "p1").unwrap().is_none());
    assert!(!d.status(None).unwrap().contains("FAULTED"));
}

/// Under `arbitre serve`: a turn that panics at resolve faults its game
/// while another game resolves in the same cycle and its reports leave.
#[test]
fn panic_in_ruleset_isolated_under_serve() {
    let dir = tempfile::tempdir().unwrap();
    let var = dir.path().join("var");
    std::fs::write(
        dir.path().join("arbitre.toml"),
        format!("referee = \"{REFEREE}\"\n[argon2]\nm_cost = 8\nt_cost = 1\n"),
    )
    .unwrap();
    {
        let mut d = Daemon::open(config(&var), with_panicky(true), Arc::new(SystemClock)).unwrap();
        d.create_game(&panicky_toml("p2"), dir.path()).unwrap();
        d.create_game(&tally_toml("g1", ""), dir.path()).unwrap();
        for g in ["p2", "g1"] {
            let bad = if g == "p2" { "\nPANIC RESOLVE" } else { "" };
            d.deliver(&mail(
                "alice@example.org",
                "orders",
                &orders(g, "alice", "wonderland", &format!("ADD 1{bad}")),
            ))
            .unwrap();
            d.deliver(&mail(
                "bob@example.org",
                "orders",
                &orders(g, "bob", "builder", "ADD 2"),
            ))
            .unwrap();
        }
    }
    let out = cli(dir.path(), with_panicky(true), &["serve", "--once"]);
    assert!(
        out.starts_with("4 mail(s) handled, 1 turn(s) resolved"),
        "{out}"
    );
    let d = Daemon::open(config(&var), with_panicky(true), Arc::new(SystemClock)).unwrap();
    let c = d.store.conn();
    assert_eq!(
        games::require_game(c, "g1").unwrap().turn,
        1,
        "the other game resolved"
    );
    assert_eq!(
        games::require_game(c, "p2").unwrap().turn,
        0,
        "the faulted turn was rolled back"
    );
    let f = faults::open_fault(c, "p2").unwrap().expect("p2 is faulted");
    assert_eq!((f.turn, f.during.as_str()), (1, "resolve"));
    assert!(f.message.contains("fleet vanished"), "{}", f.message);
    let all = arbitre_store::outbox::all(c).unwrap();
    let g1_reports = all
        .iter()
        .filter(|m| {
            m.mail.kind == "report"
                && m.mail.game_id.as_deref() == Some("g1")
                && m.mail.turn == Some(1)
        })
        .count();
    assert_eq!(g1_reports, 2);
    assert!(
        all.iter().all(|m| m.status == OutboxStatus::Sent),
        "every mail left, the fault's included"
    );
    assert!(all
        .iter()
        .any(|m| m.mail.message_id.contains("fault") && m.mail.recipient == "gm@arbitre.test"));
    drop(d);
    let status = cli(dir.path(), with_panicky(true), &["status", "p2"]);
    assert!(
        status.contains("FAULTED") && status.contains("during resolve of turn 1"),
        "{status}"
    );
    // A second serve does not die on the same turn, nor resolve it.
    // (An idle `serve --once` prints nothing, issue 19 item 11.)
    let out = cli(dir.path(), with_panicky(true), &["serve", "--once"]);
    assert!(
        out.is_empty() || out.starts_with("0 mail(s) handled, 0 turn(s) resolved"),
        "{out}"
    );
    // Fixed and resumed: the turn resolves.
    let out = cli(dir.path(), with_panicky(false), &["resume", "p2"]);
    assert!(out.contains("resumed after its fault at turn 1"), "{out}");
    let out = cli(dir.path(), with_panicky(false), &["serve", "--once"]);
    assert!(
        out.starts_with("0 mail(s) handled, 1 turn(s) resolved"),
        "{out}"
    );
}

/// Issue 22 item 4: the due games resolve [`arbitre::turn::GAMES_PER_COMMIT`]
/// to a transaction, each under its own savepoint. A game whose resolution
/// panics in the middle of a batch is rolled back and faulted alone; every
/// other game of that batch and of the next resolves once, and their
/// reports leave in the same cycle.
#[test]
fn issue22_4_a_panic_inside_a_batch_of_resolutions_faults_only_its_game() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(arbitre::FixedClock::new(t0()));
    let mut d = Daemon::open(config(dir.path()), with_panicky(true), clock.clone()).unwrap();
    let n = arbitre::turn::GAMES_PER_COMMIT + 5;
    let ids: Vec<String> = (0..n).map(|i| format!("g{i:02}")).collect();
    // Due games come in id order: this one is in the first batch, with
    // games before it and after it.
    let bad = &ids[7];
    for id in &ids {
        let toml = if id == bad {
            panicky_toml(id)
        } else {
            tally_toml(id, "")
        };
        d.create_game(&toml, dir.path()).unwrap();
        let extra = if id == bad { "\nPANIC RESOLVE" } else { "" };
        d.deliver(&mail(
            "alice@example.org",
            "orders",
            &orders(id, "alice", "wonderland", &format!("ADD 1{extra}")),
        ))
        .unwrap();
    }
    d.cycle().unwrap();
    // Bob never writes: the deadline resolves every game at once.
    clock.set(t0() + chrono::TimeDelta::days(3));
    let r = d
        .cycle()
        .expect("a panic inside a batch does not stop the cycle");
    assert_eq!(r.resolved.len(), n - 1, "{:?}", r.resolved);
    assert!(r.resolved.iter().all(|(g, t)| g != bad && *t == 1));
    let c = d.store.conn();
    for id in &ids {
        let g = games::require_game(c, id).unwrap();
        if id == bad {
            assert_eq!(g.turn, 0, "the panicking turn was rolled back");
            let f = faults::open_fault(c, id).unwrap().expect("faulted");
            assert_eq!((f.turn, f.during.as_str()), (1, "resolve"));
        } else {
            assert_eq!(g.turn, 1, "{id} resolved once");
            assert!(faults::open_fault(c, id).unwrap().is_none());
        }
    }
    let all = arbitre_store::outbox::all(c).unwrap();
    let reports = |id: &str| {
        all.iter()
            .filter(|m| m.mail.kind == "report" && m.mail.game_id.as_deref() == Some(id))
            .filter(|m| m.mail.turn == Some(1))
            .count()
    };
    for id in ids.iter().filter(|id| *id != bad) {
        assert_eq!(reports(id), 2, "{id}: one report of turn 1 a player");
    }
    assert_eq!(reports(bad), 0, "nothing of the rolled-back turn is mailed");
    let told: Vec<_> = all
        .iter()
        .filter(|m| m.mail.message_id.contains("fault"))
        .collect();
    assert_eq!(told.len(), 1, "the GM is told once");
    assert!(told[0].mail.body.contains(&format!("arbitre resume {bad}")));
    assert!(all.iter().all(|m| m.status == OutboxStatus::Sent));
    // The next cycle resolves nothing again.
    assert!(d.cycle().unwrap().resolved.is_empty());
}
