//! Shared helpers for the daemon's integration tests: a daemon on a
//! temporary folder with the toy ruleset Tally, a fixed clock, and order
//! mails as real clients write them.
#![allow(dead_code)]

pub mod cli;
pub mod example_game;
pub mod mail_loop;

use arbitre::config::DaemonConfig;
use arbitre::{Daemon, FixedClock, Registry};
use arbitre_core::testkit::Tally;
use arbitre_core::Adapter;
use arbitre_store::{outbox, OutboxRow, PasswordHasher};
use chrono::{DateTime, Utc};
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub const REFEREE: &str = "referee@arbitre.test";

pub fn registry() -> Registry {
    Registry::builtin().with(Adapter::boxed(Tally))
}

pub fn t0() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-12-01T12:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
}

pub fn config(dir: &Path) -> DaemonConfig {
    let mut c = DaemonConfig::under(dir);
    c.referee = REFEREE.into();
    c.hasher = PasswordHasher::fast();
    // The fuzz loop and the crash harness send thousands of mails at a
    // frozen clock; reliability_flood.rs sets the limits it tests.
    c.limits = arbitre::config::Limits::off();
    // The welcome mail (issue 17) is tested in welcome_by_mail.rs; the
    // other tests count the mails of their own feature.
    c.welcome = false;
    c
}

/// A two-player Tally game; `extra` is appended to the [schedule] table.
pub fn tally_toml(id: &str, schedule_extra: &str) -> String {
    format!(
        r#"id = "{id}"
ruleset = "tally"
seed = 42
gm_email = "gm@arbitre.test"
[schedule]
interval = "2d"
{schedule_extra}
[rules]
turns = 3
[[players]]
id = "alice"
name = "Alice"
email = "alice@example.org"
password = "wonderland"
[[players]]
id = "bob"
name = "Bob"
email = "bob@example.org"
password = "builder"
"#
    )
}

pub struct Env {
    pub dir: tempfile::TempDir,
    pub clock: Arc<FixedClock>,
    pub daemon: Daemon,
}

impl Env {
    pub fn new() -> Env {
        Env::with_game(&tally_toml("g1", ""))
    }

    pub fn with_game(toml: &str) -> Env {
        let dir = tempfile::tempdir().unwrap();
        let clock = Arc::new(FixedClock::new(t0()));
        let mut daemon = Daemon::open(config(dir.path()), registry(), clock.clone()).unwrap();
        daemon.create_game(toml, dir.path()).unwrap();
        Env { dir, clock, daemon }
    }

    pub fn drop_mail(&self, raw: &[u8]) {
        self.daemon.deliver(raw).unwrap();
    }

    pub fn outbox(&self) -> Vec<OutboxRow> {
        outbox::all(self.daemon.store.conn()).unwrap()
    }

    pub fn outbox_dir(&self) -> PathBuf {
        self.dir.path().join("outbox")
    }

    pub fn count(&self, sql: &str) -> i64 {
        self.daemon
            .store
            .conn()
            .query_row(sql, [], |r| r.get(0))
            .unwrap()
    }

    /// The last queued mail of `kind` to `recipient`.
    pub fn last_to(&self, recipient: &str, kind: &str) -> Option<OutboxRow> {
        self.outbox()
            .into_iter()
            .rfind(|r| r.mail.recipient == recipient && r.mail.kind == kind)
    }
}

/// A plain-text mail from `from` with `body`.
pub fn mail(from: &str, subject: &str, body: &str) -> Vec<u8> {
    mail_with(from, subject, body, "")
}

/// Same, with extra header lines (each ending in \r\n).
pub fn mail_with(from: &str, subject: &str, body: &str, headers: &str) -> Vec<u8> {
    let id = format!(
        "{:x}",
        sha_of(format!("{from}{subject}{body}{headers}").as_bytes())
    );
    format!(
        "From: {from}\r\nTo: {REFEREE}\r\nSubject: {subject}\r\nDate: Tue, 1 Dec 2026 10:00:00 +0000\r\nMessage-ID: <{id}@client.example>\r\n{headers}MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}",
        body.replace('\n', "\r\n")
    )
    .into_bytes()
}

fn sha_of(b: &[u8]) -> u64 {
    arbitre_core::rng::fnv1a64(b)
}

pub fn orders(game: &str, player: &str, password: &str, lines: &str) -> String {
    format!("Hello referee,\n\nGAME {game} PLAYER {player} PASSWORD {password}\n{lines}\nEND\n\nCheers\n")
}

/// The orders the ruleset's bot would write for `player` in `game` now: a
/// valid order set to send as that player.
pub fn bot(env: &Env, game: &str, ruleset: &str, player: &str) -> String {
    let c = env.daemon.store.conn();
    let state = arbitre_store::turns::latest(c, game).unwrap().state;
    let seed = arbitre_store::games::require_game(c, game).unwrap().seed;
    env.daemon
        .registry
        .get(ruleset)
        .unwrap()
        .bot_orders(&state, seed, &arbitre_core::PlayerId::new(player))
        .unwrap()
}

/// The name libtest gives `test` of the calling module (pass
/// `module_path!()`), for re-running this binary on that one test with
/// `--exact`: the tests are modules of one binary (tests/all.rs), so a
/// test's name carries its file's module.
pub fn test_name(module_path: &str, test: &str) -> String {
    match module_path.split_once("::") {
        Some((_, module)) => format!("{module}::{test}"),
        None => test.to_string(),
    }
}
