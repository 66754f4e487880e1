//! What the order-parser fuzz targets share: a fixed game of one ruleset,
//! set up once, and the property every target checks — checking any text
//! as one player's orders never panics and counts no more errors than lines.

use arbitre_core::{Adapter, Engine, PlayerId, PlayerSetup, Ruleset, SetupConfig};
use std::sync::OnceLock;

/// A game of `ruleset` with these `players` and rule `options` (TOML), its
/// initial state kept in `cell` for every later input.
pub fn game<R: Ruleset + 'static>(
    cell: &'static OnceLock<(Box<dyn Engine>, String)>,
    ruleset: R,
    players: &[&str],
    options: &str,
) -> &'static (Box<dyn Engine>, String) {
    cell.get_or_init(|| {
        let engine = Adapter::boxed(ruleset);
        let config = SetupConfig {
            game_id: "fuzz".into(),
            seed: 7,
            players: players
                .iter()
                .map(|p| PlayerSetup { id: PlayerId::new(p.to_string()), name: p.to_string(), options: Default::default() })
                .collect(),
            options: toml::from_str(options).unwrap(),
            files: Default::default(),
        };
        let state = engine.setup(&config).unwrap().state;
        (engine, state)
    })
}

/// Checks `data` as the orders of `player`; panics only on a broken invariant.
pub fn check_orders(game: &(Box<dyn Engine>, String), player: &str, data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let (engine, state) = game;
    let checked = engine.check(state, &PlayerId::new(player.to_string()), &text).unwrap();
    assert!(checked.errors <= checked.verdicts.len());
}
