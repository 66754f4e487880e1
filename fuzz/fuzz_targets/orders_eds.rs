//! Fuzz target: the eds order parser and checker, through the daemon's
//! `Engine` view, against the initial state of a fixed game. Must never
//! panic, whatever the text.
#![no_main]

use arbitre_core::{Adapter, Engine, PlayerId, PlayerSetup, SetupConfig};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

fn game() -> &'static (Box<dyn Engine>, String) {
    static GAME: OnceLock<(Box<dyn Engine>, String)> = OnceLock::new();
    GAME.get_or_init(|| {
        let engine = Adapter::boxed(arbitre_eds::Eds);
        let config = SetupConfig {
            game_id: "fuzz".into(),
            seed: 7,
            players: ["p1", "p2", "p3"]
                .iter()
                .map(|p| PlayerSetup { id: PlayerId::new(p.to_string()), name: p.to_string(), options: Default::default() })
                .collect(),
            options: toml::from_str("").unwrap(),
            files: Default::default(),
        };
        let state = engine.setup(&config).unwrap().state;
        (engine, state)
    })
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (engine, state) = game();
    let checked = engine.check(state, &PlayerId::new("p1".to_string()), &text).unwrap();
    assert!(checked.errors <= checked.verdicts.len());
});
