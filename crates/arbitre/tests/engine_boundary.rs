//! Issue 16 item 5: the engine boundary decodes a game's state once for a
//! resolution, through `Engine::load`, instead of once per call (the
//! players list, each bot's orders and the resolution each decoded the
//! JSON again), and the panic isolation sits on the loaded game's calls.
//! A counting engine around Tally counts every call that hands it the
//! state as text (each such call decodes it) and every load.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;

use arbitre::{Daemon, FixedClock, Registry};
use arbitre_core::testkit::Tally;
use arbitre_core::{
    Adapter, Checked, Engine, EngineError, LoadedGame, Outcome, PlayerId, PlayerInfo, PlayerSetup,
    Report, Resolved, RulesetInfo, SetupConfig, Snapshot, Viewer,
};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// Tally, counting the decodings of its state.
struct Counting {
    inner: Box<dyn Engine>,
    decodes: Arc<AtomicUsize>,
}

impl Counting {
    fn decoded(&self) {
        self.decodes.fetch_add(1, Ordering::SeqCst);
    }
}

impl Engine for Counting {
    fn info(&self) -> RulesetInfo {
        self.inner.info()
    }
    fn setup(&self, config: &SetupConfig) -> Result<Snapshot, EngineError> {
        self.inner.setup(config)
    }
    fn players(&self, state: &str) -> Result<Vec<PlayerInfo>, EngineError> {
        self.decoded();
        self.inner.players(state)
    }
    fn check(&self, state: &str, player: &PlayerId, text: &str) -> Result<Checked, EngineError> {
        self.decoded();
        self.inner.check(state, player, text)
    }
    fn resolve(
        &self,
        state: &str,
        seed: u64,
        orders: &BTreeMap<PlayerId, String>,
    ) -> Result<Resolved, EngineError> {
        self.decoded();
        self.inner.resolve(state, seed, orders)
    }
    fn report(&self, state: &str, viewer: &Viewer) -> Result<Report, EngineError> {
        self.decoded();
        self.inner.report(state, viewer)
    }
    fn outcome(&self, state: &str) -> Result<Option<Outcome>, EngineError> {
        self.decoded();
        self.inner.outcome(state)
    }
    fn bot_orders(&self, state: &str, seed: u64, player: &PlayerId) -> Result<String, EngineError> {
        self.decoded();
        self.inner.bot_orders(state, seed, player)
    }
    fn join(&self, state: &str, seed: u64, player: &PlayerSetup) -> Result<Snapshot, EngineError> {
        self.decoded();
        self.inner.join(state, seed, player)
    }
    fn run_case(&self, path: &std::path::Path) -> arbitre_core::cases::CaseOutcome {
        self.inner.run_case(path)
    }
    fn load<'a>(&'a self, state: &str) -> Result<Box<dyn LoadedGame + 'a>, EngineError> {
        self.decoded();
        self.inner.load(state)
    }
}

#[test]
fn issue16_5_a_resolution_decodes_the_state_once() {
    let decodes = Arc::new(AtomicUsize::new(0));
    let registry = Registry::empty().with(Box::new(Counting {
        inner: Adapter::boxed(Tally),
        decodes: decodes.clone(),
    }));
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(FixedClock::new(common::t0()));
    let mut daemon = Daemon::open(common::config(dir.path()), registry, clock.clone()).unwrap();
    // Both seats are played by the bot from their first missed turn: the
    // resolution asks for the players, two bots' orders and the turn.
    let toml = format!(
        "{}\n[services]\nnmr = \"bot\"\nnmr_bot_after = 1\n",
        common::tally_toml("g1", "")
    );
    daemon.create_game(&toml, dir.path()).unwrap();
    clock.advance(chrono::TimeDelta::days(3));
    decodes.store(0, Ordering::SeqCst);
    daemon.cycle().unwrap();
    let turn: u32 = daemon
        .store
        .conn()
        .query_row("SELECT turn FROM games WHERE id = 'g1'", [], |r| r.get(0))
        .unwrap();
    assert_eq!(turn, 1, "the turn resolved");
    let bots: i64 = daemon
        .store
        .conn()
        .query_row(
            "SELECT count(*) FROM orders WHERE game_id = 'g1' AND turn = 1 AND by_bot = 1",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(bots, 2, "the bot played both seats");
    assert_eq!(
        decodes.load(Ordering::SeqCst),
        1,
        "one decoding of the game's state for the whole cycle"
    );
}

/// A panic inside a loaded game's call is still caught at the boundary:
/// the game is faulted, the daemon goes on.
struct Panicking;

impl Engine for Panicking {
    fn info(&self) -> RulesetInfo {
        Adapter(Tally).info()
    }
    fn setup(&self, config: &SetupConfig) -> Result<Snapshot, EngineError> {
        Adapter(Tally).setup(config)
    }
    fn players(&self, state: &str) -> Result<Vec<PlayerInfo>, EngineError> {
        Adapter(Tally).players(state)
    }
    fn check(&self, state: &str, player: &PlayerId, text: &str) -> Result<Checked, EngineError> {
        Adapter(Tally).check(state, player, text)
    }
    fn resolve(
        &self,
        _state: &str,
        _seed: u64,
        _orders: &BTreeMap<PlayerId, String>,
    ) -> Result<Resolved, EngineError> {
        panic!("resolution bug")
    }
    fn report(&self, state: &str, viewer: &Viewer) -> Result<Report, EngineError> {
        Adapter(Tally).report(state, viewer)
    }
    fn outcome(&self, state: &str) -> Result<Option<Outcome>, EngineError> {
        Adapter(Tally).outcome(state)
    }
    fn bot_orders(&self, state: &str, seed: u64, player: &PlayerId) -> Result<String, EngineError> {
        Adapter(Tally).bot_orders(state, seed, player)
    }
    fn join(&self, state: &str, seed: u64, player: &PlayerSetup) -> Result<Snapshot, EngineError> {
        Adapter(Tally).join(state, seed, player)
    }
    fn run_case(&self, path: &std::path::Path) -> arbitre_core::cases::CaseOutcome {
        Adapter(Tally).run_case(path)
    }
}

#[test]
fn issue16_5_a_panic_in_a_loaded_game_faults_only_its_game() {
    let registry = Registry::empty().with(Box::new(Panicking));
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(FixedClock::new(common::t0()));
    let mut daemon = Daemon::open(common::config(dir.path()), registry, clock.clone()).unwrap();
    daemon
        .create_game(&common::tally_toml("g1", ""), dir.path())
        .unwrap();
    clock.advance(chrono::TimeDelta::days(3));
    daemon.cycle().unwrap();
    let fault = arbitre_store::faults::open_fault(daemon.store.conn(), "g1")
        .unwrap()
        .expect("the game is faulted");
    assert_eq!(fault.during, "resolve");
    assert!(
        fault.message.contains("resolution bug"),
        "{}",
        fault.message
    );
}

/// Issue 22 item 1: a batch of order mails and CHECKs for one game decodes
/// its state once, whoever sent them (before: once per mail, for the check
/// outside the lock, and again inside it when that check was not usable).
#[test]
fn issue22_1_a_batch_of_mails_decodes_each_game_once() {
    let decodes = Arc::new(AtomicUsize::new(0));
    let registry = Registry::empty().with(Box::new(Counting {
        inner: Adapter::boxed(Tally),
        decodes: decodes.clone(),
    }));
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(FixedClock::new(common::t0()));
    let mut daemon = Daemon::open(common::config(dir.path()), registry, clock.clone()).unwrap();
    daemon
        .create_game(&common::tally_toml("g1", ""), dir.path())
        .unwrap();
    daemon
        .create_game(&common::tally_toml("g2", ""), dir.path())
        .unwrap();
    let mut mails = 0;
    for i in 0..10 {
        for (game, player, password) in [
            ("g1", "alice", "wonderland"),
            ("g1", "bob", "builder"),
            ("g2", "alice", "wonderland"),
        ] {
            // Orders, and CHECKs, which store nothing.
            let lines = format!("ADD {}", i % 9 + 1);
            let body = if i % 2 == 0 {
                common::orders(game, player, password, &lines)
            } else {
                format!("CHECK {game} PLAYER {player} PASSWORD {password}\n{lines}\nEND\n")
            };
            let from = format!("{player}@example.org");
            daemon
                .deliver(&common::mail(&from, &format!("orders {i}"), &body))
                .unwrap();
            mails += 1;
        }
    }
    decodes.store(0, Ordering::SeqCst);
    // The inbox alone: the rest of the cycle (early resolution's
    // readiness check) is a decoding of its own per game.
    let handled = daemon.process_inbox().unwrap();
    assert_eq!(handled, mails, "every mail handled");
    let stored: i64 = daemon
        .store
        .conn()
        .query_row("SELECT count(*) FROM orders", [], |r| r.get(0))
        .unwrap();
    assert_eq!(stored, 15, "the order mails were stored, the CHECKs not");
    let answers: i64 = daemon
        .store
        .conn()
        .query_row(
            "SELECT count(*) FROM outbox WHERE kind IN ('confirm', 'check')",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(answers, mails as i64, "every mail answered");
    assert_eq!(
        decodes.load(Ordering::SeqCst),
        2,
        "one decoding per game for the whole batch"
    );
}

/// Issue 16 item 5 through the request pipeline: a STATUS line reads
/// readiness from the batch's loaded game (`Ctx::loaded`), so a batch of
/// order mails and STATUS requests for one game still decodes it once
/// (before: once more for every STATUS); `arbitre status` reads each game
/// through the same load step, once per game.
#[test]
fn issue16_5_status_requests_share_the_batch_decoding() {
    let decodes = Arc::new(AtomicUsize::new(0));
    let registry = Registry::empty().with(Box::new(Counting {
        inner: Adapter::boxed(Tally),
        decodes: decodes.clone(),
    }));
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(FixedClock::new(common::t0()));
    let mut daemon = Daemon::open(common::config(dir.path()), registry, clock.clone()).unwrap();
    daemon
        .create_game(&common::tally_toml("g1", ""), dir.path())
        .unwrap();
    daemon
        .create_game(&common::tally_toml("g2", ""), dir.path())
        .unwrap();
    for (i, (player, password, lines)) in [
        ("alice", "wonderland", "STATUS\nADD 2"),
        ("bob", "builder", "STATUS"),
        ("alice", "wonderland", "STATUS"),
        ("bob", "builder", "STATUS\nADD 3"),
    ]
    .into_iter()
    .enumerate()
    {
        let body = common::orders("g1", player, password, lines);
        let from = format!("{player}@example.org");
        daemon
            .deliver(&common::mail(&from, &format!("status {i}"), &body))
            .unwrap();
    }
    decodes.store(0, Ordering::SeqCst);
    assert_eq!(daemon.process_inbox().unwrap(), 4, "every mail handled");
    let answers: Vec<String> = daemon
        .store
        .conn()
        .prepare("SELECT body FROM outbox WHERE kind = 'confirm' ORDER BY id")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(
        answers
            .iter()
            .filter(|b| b.contains("Orders received from: "))
            .count(),
        4,
        "every STATUS answered with readiness: {answers:?}"
    );
    assert!(
        answers
            .iter()
            .any(|b| b.contains("Orders received from: alice")),
        "{answers:?}"
    );
    assert_eq!(
        decodes.load(Ordering::SeqCst),
        1,
        "one decoding for the batch, STATUS readiness included"
    );
    decodes.store(0, Ordering::SeqCst);
    let shown = daemon.status(None).unwrap();
    assert!(shown.contains("g1") && shown.contains("g2"), "{shown}");
    assert_eq!(decodes.load(Ordering::SeqCst), 2, "one decoding per game");
}
