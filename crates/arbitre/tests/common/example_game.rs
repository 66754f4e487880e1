//! A daemon holding one of the example games (`examples/<name>/game.toml`)
//! with real rulesets, for the service tests that read what the outbox
//! holds (services_mail.rs, services_player.rs).

use super::{config, t0};
use arbitre::{Daemon, FixedClock, Registry};
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
