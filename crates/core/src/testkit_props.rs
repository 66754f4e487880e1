//! Properties every ruleset must have, checked through the daemon's
//! [`Engine`] face (issue 8): each ruleset's `tests/prop.rs` drives these with
//! proptest-chosen seeds, so the checks are written once.
//!
//! * print-then-parse: no ruleset has an order printer of its own, so the
//!   printer is its bot — every order text the bot writes for every player
//!   over several turns parses with zero errors, and still parses to the same
//!   orders when re-laid out as a mail client might (CRLF, blank lines, padding);
//! * determinism: the same seed and the same orders give the same state
//!   (FNV-1a 64 of its canonical JSON) and byte-identical reports.

use crate::{Engine, PlayerId, PlayerSetup, SetupConfig, Snapshot, Viewer};
use std::collections::BTreeMap;

/// A ruleset set up for property tests: its engine, players and `[rules]`.
pub struct PropGame {
    pub engine: Box<dyn Engine>,
    pub players: &'static [&'static str],
    pub rules: &'static str,
    pub turns: u32,
}

fn check(cond: bool, msg: impl FnOnce() -> String) -> Result<(), String> {
    if cond {
        Ok(())
    } else {
        Err(msg())
    }
}

impl PropGame {
    pub fn setup(&self, seed: u64) -> Snapshot {
        let config = SetupConfig {
            game_id: "prop".into(),
            seed,
            players: self
                .players
                .iter()
                .map(|p| PlayerSetup {
                    id: PlayerId::new(p.to_string()),
                    name: p.to_string(),
                    options: Default::default(),
                })
                .collect(),
            options: toml::from_str(self.rules).expect("rules TOML of a property test"),
            files: BTreeMap::new(),
        };
        self.engine
            .setup(&config)
            .expect("setup of a property test")
    }

    /// The bot's orders for every active player.
    pub fn bot_orders(&self, state: &str, seed: u64) -> BTreeMap<PlayerId, String> {
        let e = self.engine.as_ref();
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

    pub fn bot_orders_print_then_parse_with_zero_errors(
        &self,
        seed: u64,
        noise: &[u8],
    ) -> Result<(), String> {
        let e = self.engine.as_ref();
        let mut snap = self.setup(seed);
        let mut understood = 0;
        for turn in 1..=self.turns {
            let orders = self.bot_orders(&snap.state, seed ^ u64::from(turn));
            for (player, text) in &orders {
                let checked = e.check(&snap.state, player, text).unwrap();
                understood += checked.orders;
                check(checked.errors == 0, || {
                    format!("seed {seed} turn {turn} player {player}: bot orders refused:\n{text}\n{:?}", checked.verdicts)
                })?;
                let again = e.check(&snap.state, player, &relaid(text, noise)).unwrap();
                check(again.errors == 0, || {
                    format!("seed {seed} turn {turn} player {player}: re-laid orders refused")
                })?;
                check(again.orders == checked.orders, || {
                    format!("seed {seed} turn {turn} player {player}: re-laid orders differ")
                })?;
            }
            let r = e.resolve(&snap.state, seed, &orders).unwrap();
            snap = r.snapshot;
            if r.outcome.is_some() {
                break;
            }
        }
        // Not vacuous: the bots did write orders.
        check(understood > 0, || {
            format!("seed {seed}: the bots wrote no order at all")
        })
    }

    pub fn same_seed_and_orders_give_the_same_state_hash(&self, seed: u64) -> Result<(), String> {
        let e = self.engine.as_ref();
        let a = self.setup(seed);
        let b = self.setup(seed);
        check(hash(&a.state) == hash(&b.state), || {
            "setup is not deterministic".into()
        })?;
        let mut snap = a;
        for turn in 1..=self.turns {
            let orders = self.bot_orders(&snap.state, seed.rotate_left(turn));
            let r1 = e.resolve(&snap.state, seed, &orders).unwrap();
            let r2 = e.resolve(&snap.state, seed, &orders).unwrap();
            check(hash(&r1.snapshot.state) == hash(&r2.snapshot.state), || {
                format!("seed {seed} turn {turn}: state hash differs")
            })?;
            for (p, rep) in &r1.reports {
                let other = &r2.reports[p];
                check(rep == other, || {
                    format!("seed {seed} turn {turn}: report of {p} differs")
                })?;
            }
            check(r1.game_master.body == r2.game_master.body, || {
                format!("seed {seed} turn {turn}: GM report differs")
            })?;
            // The stored state renders the same report again (a report resent later).
            let p = r1.reports.keys().next().unwrap().clone();
            let again = e
                .report(&r1.snapshot.state, &Viewer::Player(p.clone()))
                .unwrap();
            let other = e.report(&r2.snapshot.state, &Viewer::Player(p)).unwrap();
            check(again.body == other.body, || {
                format!("seed {seed} turn {turn}: re-rendered report differs")
            })?;
            snap = r1.snapshot;
            if r1.outcome.is_some() {
                break;
            }
        }
        Ok(())
    }
}

fn hash(state: &str) -> u64 {
    crate::rng::fnv1a64(state.as_bytes())
}

/// The same lines as a sloppy mail client sends them.
pub fn relaid(text: &str, noise: &[u8]) -> String {
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
