//! Issue 21: the state's parse index (fleets' owners and worlds, worlds'
//! links, built once) gives every block the verdicts the state read block
//! by block gives: orders, the receipt's refusals and their reasons.
//!
//! States: a duel of two bots at turns 0 to 12 (fleets built, moved and
//! lost). Blocks: the bots' own blocks of every turn, every line of the
//! grammar corpus (fixtures, rule cases, bots of generated games) one by
//! one, and seeded blocks of several of its lines with fleet and world
//! numbers changed (numbers that exist and numbers that do not).

use arbitre_core::{PlayerId, PlayerSetup, Rng, Ruleset, SetupConfig};
use arbitre_nebulight::Nebulight;
use std::collections::BTreeMap;

// The grammar test's seeded generator (splitmix64).
use crate::grammar_differential::Mix;

const CORPUS: &str = include_str!("data/grammar-corpus.txt");

fn config() -> SetupConfig {
    let p = |id: &str| PlayerSetup {
        id: id.into(),
        name: id.into(),
        options: Default::default(),
    };
    SetupConfig {
        game_id: "index".into(),
        seed: 11,
        players: vec![p("maxtor"), p("miria")],
        options: toml::from_str("map = \"duel\"").unwrap(),
        files: Default::default(),
    }
}

/// `line` with each number replaced, half the time, by one below 40.
fn renumber(line: &str, rng: &mut Mix) -> String {
    let mut out = String::new();
    let mut digits = String::new();
    let flush = |digits: &mut String, out: &mut String, rng: &mut Mix| {
        if !digits.is_empty() {
            if rng.below(2) == 0 {
                out.push_str(&rng.below(40).to_string());
            } else {
                out.push_str(digits);
            }
            digits.clear();
        }
    };
    for c in line.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
        } else {
            flush(&mut digits, &mut out, rng);
            out.push(c);
        }
    }
    flush(&mut digits, &mut out, rng);
    out
}

#[test]
fn parse_index_gives_the_states_verdicts() {
    let mut state = Nebulight.setup(&config(), &mut Rng::for_setup(11)).unwrap();
    let mut bots = Rng::for_setup(12);
    let ids = ["maxtor", "miria", "nobody"];
    let corpus: Vec<&str> = CORPUS.lines().collect();
    let mut rng = Mix(5);
    let mut compared = 0;
    let mut refused = 0;
    for turn in 0..=12u32 {
        let mut blocks: Vec<String> = Vec::new();
        let mut orders = BTreeMap::new();
        for id in &ids[..2] {
            let o = Nebulight.bot_orders(&state, &PlayerId::from(*id), &mut bots);
            blocks.push(o.clone());
            orders.insert(PlayerId::from(*id), o);
        }
        for _ in 0..400 {
            let mut b = String::new();
            for _ in 0..1 + rng.below(6) {
                b.push_str(&renumber(corpus[rng.below(corpus.len())], &mut rng));
                b.push('\n');
            }
            blocks.push(b);
        }
        if turn == 0 {
            blocks.extend(corpus.iter().map(|l| l.to_string()));
        }
        let index = Nebulight.parse_index(&state);
        assert!(index.is_some());
        for b in &blocks {
            for id in ids {
                let p = PlayerId::from(id);
                let alone = Nebulight.parse_orders(&state, &p, b);
                let indexed = Nebulight.parse_orders_indexed(&state, index.as_ref(), &p, b);
                assert_eq!(
                    format!("{alone:?}"),
                    format!("{indexed:?}"),
                    "turn {turn}, {id}, block {b:?}"
                );
                refused += alone.kept_refused;
                compared += 1;
            }
        }
        arbitre_core::engine::run_turn(&Nebulight, &mut state, 11, &orders);
    }
    assert!(compared > 10_000, "{compared} blocks compared");
    assert!(refused > 1_000, "{refused} orders refused at receipt");
}
