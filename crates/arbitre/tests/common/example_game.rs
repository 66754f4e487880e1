//! A daemon holding one of the example games (`examples/<name>/game.toml`)
//! with real rulesets, for the service tests that read what the outbox
//! holds (services_mail.rs, services_player.rs).

use super::{config, t0};
use arbitre::{Daemon, FixedClock, Registry};
use arbitre_store::{outbox, OutboxRow};
use std::path::PathBuf;
use std::sync::Arc;

pub struct Game {
    pub _dir: tempfile::TempDir,
    pub clock: Arc<FixedClock>,
    pub daemon: Daemon,
    pub id: String,
}

pub fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../docs/examples")
        .join(name)
        .join("game.toml")
}

/// The example game, optionally in another language, with `extra`
/// appended to its TOML (a `[services]` table).
pub fn game_with(name: &str, lang: Option<&str>, extra: &str) -> Game {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(FixedClock::new(t0()));
    let mut daemon = Daemon::open(config(dir.path()), Registry::builtin(), clock.clone()).unwrap();
    let path = example(name);
    let mut text = std::fs::read_to_string(&path).unwrap();
    if let Some(l) = lang {
        text = text
            .lines()
            .filter(|l| !l.starts_with("language"))
            .collect::<Vec<_>>()
            .join("\n");
        text = format!("language = \"{l}\"\n{text}\n");
    }
    text.push_str(extra);
    let id = daemon.create_game(&text, path.parent().unwrap()).unwrap();
    Game {
        _dir: dir,
        clock,
        daemon,
        id,
    }
}

/// Shared by the service tests (one test binary: an inherent method may be
/// defined only once).
impl Game {
    pub fn outbox(&self) -> Vec<OutboxRow> {
        outbox::all(self.daemon.store.conn()).unwrap()
    }

    /// The last queued mail of `kind` to `to`; panics when there is none.
    pub fn last_to(&self, to: &str, kind: &str) -> OutboxRow {
        self.outbox()
            .into_iter()
            .rfind(|r| r.mail.recipient == to && r.mail.kind == kind)
            .unwrap_or_else(|| panic!("no {kind} mail to {to}"))
    }

    /// Delivers an order mail from `from` and runs one cycle.
    pub fn send(&mut self, from: &str, body: &str) {
        self.daemon
            .deliver(&super::mail(from, "orders", body))
            .unwrap();
        self.daemon.cycle().unwrap();
    }
}
