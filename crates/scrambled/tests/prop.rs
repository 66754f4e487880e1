//! Issue 8, property tests for the Scrambled Nations ruleset (proptest):
//!
//! * print-then-parse: the ruleset has no order printer of its own, so the
//!   printer is its bot — for any seed, every order text the bot writes for
//!   every player over several turns parses with zero errors, and still
//!   parses to the same orders when re-laid out as a mail client might
//!   (CRLF, blank lines, padding spaces);
//! * determinism: the same seed and the same orders give the same state
//!   (FNV-1a 64 of its canonical JSON, the core's frozen hash) and byte-identical reports.
//!
//! Everything goes through the daemon's `Engine` view (`Adapter`), the very
//! path order mails take.

use arbitre_core::{Adapter, Engine, PlayerId, PlayerSetup, SetupConfig, Snapshot, Viewer};
use proptest::prelude::*;
use std::collections::BTreeMap;

const PLAYERS: &[&str] = &["p1", "p2", "p3"];
const TURNS: u32 = 3;

fn engine() -> Box<dyn Engine> {
    Adapter::boxed(arbitre_scrambled::Scrambled)
}

fn setup(e: &dyn Engine, seed: u64) -> Snapshot {
    let options: toml::Table = toml::from_str("world = \"testland\"").unwrap();
    let config = SetupConfig {
        game_id: "prop".into(),
        seed,
        players: PLAYERS
            .iter()
            .map(|p| PlayerSetup { id: PlayerId::new(p.to_string()), name: p.to_string(), options: Default::default() })
            .collect(),
        options,
        files: BTreeMap::new(),
    };
    e.setup(&config).unwrap()
}

fn hash(state: &str) -> u64 {
    arbitre_core::rng::fnv1a64(state.as_bytes())
}

/// The bot's orders for every active player.
fn bot_orders(e: &dyn Engine, state: &str, seed: u64) -> BTreeMap<PlayerId, String> {
    e.players(state)
        .unwrap()
        .into_iter()
        .filter(|p| p.active)
        .map(|p| {
            let text = e.bot_orders(state, seed, &p.id).unwrap();
            (p.id, text)
        })
        .collect()
}

/// The same lines as a sloppy mail client sends them.
fn relaid(text: &str, noise: &[u8]) -> String {
    let mut out = String::new();
    for (i, line) in text.lines().enumerate() {
        let n = noise.get(i % noise.len().max(1)).copied().unwrap_or(0);
        if n & 1 == 1 {
            out.push_str("\r\n");
        }
        out.push_str(&" ".repeat((n as usize >> 1) % 3));
        out.push_str(line);
        out.push_str(&" ".repeat((n as usize >> 3) % 3));
        out.push_str(if n & 64 == 0 { "\n" } else { "\r\n" });
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn bot_orders_print_then_parse_with_zero_errors(seed in any::<u64>(), noise in proptest::collection::vec(any::<u8>(), 1..8)) {
        let e = engine();
        let mut snap = setup(e.as_ref(), seed);
        let mut understood = 0;
        for turn in 1..=TURNS {
            let orders = bot_orders(e.as_ref(), &snap.state, seed ^ u64::from(turn));
            for (player, text) in &orders {
                let checked = e.check(&snap.state, player, text).unwrap();
                understood += checked.orders;
                prop_assert_eq!(checked.errors, 0, "seed {} turn {} player {}: bot orders refused:\n{}\n{:?}", seed, turn, player, text, checked.verdicts);
                let again = e.check(&snap.state, player, &relaid(text, &noise)).unwrap();
                prop_assert_eq!(again.errors, 0, "seed {} turn {} player {}: re-laid orders refused", seed, turn, player);
                prop_assert_eq!(again.orders, checked.orders, "seed {} turn {} player {}: re-laid orders differ", seed, turn, player);
            }
            let r = e.resolve(&snap.state, seed, &orders).unwrap();
            snap = r.snapshot;
            if r.outcome.is_some() {
                break;
            }
        }
        // Not vacuous: the bots did write orders.
        prop_assert!(understood > 0, "seed {}: the bots wrote no order at all", seed);
    }

    #[test]
    fn same_seed_and_orders_give_the_same_state_hash(seed in any::<u64>()) {
        let e = engine();
        let a = setup(e.as_ref(), seed);
        let b = setup(e.as_ref(), seed);
        prop_assert_eq!(hash(&a.state), hash(&b.state), "setup is not deterministic");
        let mut snap = a;
        for turn in 1..=TURNS {
            let orders = bot_orders(e.as_ref(), &snap.state, seed.rotate_left(turn));
            let r1 = e.resolve(&snap.state, seed, &orders).unwrap();
            let r2 = e.resolve(&snap.state, seed, &orders).unwrap();
            prop_assert_eq!(hash(&r1.snapshot.state), hash(&r2.snapshot.state), "seed {} turn {}: state hash differs", seed, turn);
            for (p, rep) in &r1.reports {
                let other = &r2.reports[p];
                prop_assert_eq!(&rep.subject, &other.subject);
                prop_assert_eq!(&rep.body, &other.body, "seed {} turn {}: report of {} differs", seed, turn, p);
            }
            prop_assert_eq!(&r1.game_master.body, &r2.game_master.body);
            // The stored state renders the same report again (a report resent later).
            let p = r1.reports.keys().next().unwrap().clone();
            let again = e.report(&r1.snapshot.state, &Viewer::Player(p.clone())).unwrap();
            prop_assert_eq!(&again.body, &e.report(&r2.snapshot.state, &Viewer::Player(p)).unwrap().body);
            snap = r1.snapshot;
            if r1.outcome.is_some() {
                break;
            }
        }
    }
}
