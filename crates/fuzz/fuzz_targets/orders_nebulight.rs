//! Fuzz target: the nebulight order parser (the nom grammar of
//! `crates/nebulight/src/grammar.rs`, issue 21) and checker, through the daemon's
//! `Engine` view, against the initial state of a fixed game. Must never
//! panic, whatever the text.
#![no_main]

use arbitre_core::Engine;
use arbitre_fuzz::{check_orders, game};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

static GAME: OnceLock<(Box<dyn Engine>, String)> = OnceLock::new();

fuzz_target!(|data: &[u8]| {
    check_orders(game(&GAME, arbitre_nebulight::Nebulight, &["maxtor", "miria"], "map = \"duel\""), "maxtor", data);
});
