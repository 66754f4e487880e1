//! Helpers shared by the EDS tests: a game from a built-in scenario or from a
//! position written in TOML, and a month run with orders given as mail text.
#![allow(dead_code)]

use arbitre_core::engine::run_turn_with;
use arbitre_core::{PlayerId, PlayerSetup, Rng, Ruleset, SetupConfig};
use arbitre_eds::events::Event;
use arbitre_eds::model::State;
use arbitre_eds::Eds;
use std::collections::BTreeMap;

pub const NAMES: [&str; 10] = ["ALDEBARAN", "BETEIGEUZE", "CORVUS", "DENEB", "ELNATH", "FOMALHAUT", "GEMMA", "HADAR", "IZAR", "JABBAH"];

pub fn players(n: usize) -> Vec<PlayerSetup> {
    (0..n)
        .map(|i| PlayerSetup { id: PlayerId::from(format!("p{}", i + 1).as_str()), name: NAMES[i].to_string(), options: Default::default() })
        .collect()
}

pub fn config(n: usize, options: toml::Table) -> SetupConfig {
    SetupConfig { game_id: "testgalaxis".into(), seed: 42, players: players(n), options, files: BTreeMap::new() }
}

pub fn scenario(map: &str, n: usize) -> State {
    let mut t = toml::Table::new();
    t.insert("map".into(), toml::Value::String(map.into()));
    Eds.setup(&config(n, t), &mut Rng::for_setup(42)).expect("setup")
}

/// A state from a position TOML text.
pub fn position(text: &str) -> State {
    let pos: toml::Table = toml::from_str(text).expect("position toml");
    let n = pos["rulers"].as_array().expect("rulers").len();
    let mut t = toml::Table::new();
    t.insert("position".into(), toml::Value::Table(pos));
    Eds.setup(&config(n, t), &mut Rng::for_setup(42)).expect("setup from position")
}

pub fn pid(n: usize) -> PlayerId {
    PlayerId::from(format!("p{n}").as_str())
}

/// Run one month with orders per ruler number, with the real RNG derivation (seed 42).
pub fn month(state: &mut State, orders: &[(usize, &str)]) -> Vec<Event> {
    let texts: BTreeMap<PlayerId, String> = orders.iter().map(|(n, t)| (pid(*n), t.to_string())).collect();
    let parsed = arbitre_core::engine::parse_all(&Eds, state, &texts);
    let turn = state.month + 1;
    run_turn_with(&Eds, state, &parsed, |k| Rng::for_phase(42, turn, k))
}

/// Run one month with a scripted stream for every phase (`rolls` per phase key).
pub fn month_scripted(state: &mut State, orders: &[(usize, &str)], rolls: &[(&str, Vec<u64>)], raw: bool) -> Vec<Event> {
    let texts: BTreeMap<PlayerId, String> = orders.iter().map(|(n, t)| (pid(*n), t.to_string())).collect();
    let parsed = arbitre_core::engine::parse_all(&Eds, state, &texts);
    let turn = state.month + 1;
    run_turn_with(&Eds, state, &parsed, |k| match rolls.iter().find(|(key, _)| *key == k) {
        Some((_, v)) if raw => Rng::scripted_u64(v.clone()),
        Some((_, v)) => Rng::scripted_rolls(v.clone()),
        None => Rng::for_phase(42, turn, k),
    })
}

/// Every message line (as the Monatsbericht prints it) for ruler r.
pub fn lines(events: &[Event], r: u8) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Msg(m) if m.ruler == r => Some(match &m.entry {
                Some(en) => format!("{:>2} {} {}: {}", m.phase, arbitre_eds::orders::PHASE_NAMES[m.phase as usize], en, m.text),
                None => format!("{:>2} {}", m.phase, m.text),
            }),
            _ => None,
        })
        .collect()
}

pub fn has_line(events: &[Event], r: u8, needle: &str) -> bool {
    lines(events, r).iter().any(|l| l.contains(needle))
}

pub fn battles(events: &[Event]) -> Vec<arbitre_eds::events::Battle> {
    events.iter().filter_map(|e| if let Event::Battle(b) = e { Some(b.clone()) } else { None }).collect()
}
