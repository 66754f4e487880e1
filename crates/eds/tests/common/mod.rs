//! Helpers shared by the EDS tests: a game from a built-in scenario or from a
//! position written in TOML, and a month run with orders given as mail text.
#![allow(dead_code)]

use arbitre_core::engine::run_turn_with;
use arbitre_core::{PlayerId, PlayerSetup, Rng, Ruleset, SetupConfig};
use arbitre_eds::events::Event;
use arbitre_eds::model::State;
use arbitre_eds::Eds;
use std::collections::BTreeMap;

pub const NAMES: [&str; 10] = [
    "ALDEBARAN",
    "BETEIGEUZE",
    "CORVUS",
    "DENEB",
    "ELNATH",
    "FOMALHAUT",
    "GEMMA",
    "HADAR",
    "IZAR",
    "JABBAH",
];

pub fn players(n: usize) -> Vec<PlayerSetup> {
    (0..n)
        .map(|i| PlayerSetup {
            id: PlayerId::from(format!("p{}", i + 1).as_str()),
            name: NAMES[i].to_string(),
            options: Default::default(),
        })
        .collect()
}

pub fn config(n: usize, options: toml::Table) -> SetupConfig {
    SetupConfig {
        game_id: "testgalaxis".into(),
        seed: 42,
        players: players(n),
        options,
        files: BTreeMap::new(),
    }
}

pub fn scenario(map: &str, n: usize) -> State {
    let mut t = toml::Table::new();
    t.insert("map".into(), toml::Value::String(map.into()));
    Eds.setup(&config(n, t), &mut Rng::for_setup(42))
        .expect("setup")
}

/// A state from a position TOML text.
pub fn position(text: &str) -> State {
    let pos: toml::Table = toml::from_str(text).expect("position toml");
    let n = pos["rulers"].as_array().expect("rulers").len();
    let mut t = toml::Table::new();
    t.insert("position".into(), toml::Value::Table(pos));
    Eds.setup(&config(n, t), &mut Rng::for_setup(42))
        .expect("setup from position")
}

pub fn pid(n: usize) -> PlayerId {
    PlayerId::from(format!("p{n}").as_str())
}

/// Run one month with orders per ruler number, with the real RNG derivation (seed 42).
pub fn month(state: &mut State, orders: &[(usize, &str)]) -> Vec<Event> {
    let texts: BTreeMap<PlayerId, String> = orders
        .iter()
        .map(|(n, t)| (pid(*n), t.to_string()))
        .collect();
    let parsed = arbitre_core::engine::parse_all(&Eds, state, &texts);
    let turn = state.month + 1;
    run_turn_with(&Eds, state, &parsed, |k| Rng::for_phase(42, turn, k))
}

/// Run one month with a scripted stream for every phase (`rolls` per phase key).
pub fn month_scripted(
    state: &mut State,
    orders: &[(usize, &str)],
    rolls: &[(&str, Vec<u64>)],
    raw: bool,
) -> Vec<Event> {
    let texts: BTreeMap<PlayerId, String> = orders
        .iter()
        .map(|(n, t)| (pid(*n), t.to_string()))
        .collect();
    let parsed = arbitre_core::engine::parse_all(&Eds, state, &texts);
    let turn = state.month + 1;
    run_turn_with(&Eds, state, &parsed, |k| {
        match rolls.iter().find(|(key, _)| *key == k) {
            Some((_, v)) if raw => Rng::scripted_u64(v.clone()),
            Some((_, v)) => Rng::scripted_rolls(v.clone()),
            None => Rng::for_phase(42, turn, k),
        }
    })
}

/// Every message line (as the Monatsbericht prints it) for ruler r.
pub fn lines(events: &[Event], r: u8) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Msg(m) if m.ruler == r => Some(match &m.entry {
                Some(en) => format!(
                    "{:>2} {} {}: {}",
                    m.phase,
                    arbitre_eds::orders::PHASE_NAMES[m.phase as usize],
                    en,
                    m.text
                ),
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
    events
        .iter()
        .filter_map(|e| {
            if let Event::Battle(b) = e {
                Some(b.clone())
            } else {
                None
            }
        })
        .collect()
}

/// A small three-ruler position used by the rule tests (loaded through the
/// position TOML loader, so every test also exercises EDS-10's position path).
pub const BASE: &str = r#"
format = "eds-position-1"
galaxy = "PRUEFSTAND"
width = 30
height = 20
month = 2

[[rulers]]
number = 1
name = "ALDEBARAN"
we = 10000
ev = 4
home_star = 1

[[rulers]]
number = 2
name = "BETEIGEUZE"
we = 10000
ev = 0
home_star = 2

[[rulers]]
number = 3
name = "CORVUS"
we = 10000
ev = 0
home_star = 3

[[stars]]
number = 1
x = 5
y = 5
name = "ERDE"
owner = 1
bv = 10
facility = "W"
stock = [2000, 100, 400]
rate = [250, 25, 32]

[[stars]]
number = 2
x = 25
y = 5
owner = 2
bv = 10
facility = "W"
stock = [2000, 100, 400]
rate = [250, 25, 32]

[[stars]]
number = 3
x = 15
y = 15
owner = 3
bv = 10
facility = "W"
stock = [2000, 100, 400]
rate = [250, 25, 32]

[[stars]]
number = 4
x = 10
y = 5
rate = [100, 10, 20]

[[stars]]
number = 5
x = 12
y = 8
owner = 1
bv = 2
stock = [0, 0, 50]
rate = [120, 5, 30]

[[stars]]
number = 6
x = 20
y = 10
rate = [60, 3, 12]

[[ships]]
number = 1
name = "HEIMATBASIS"
owner = 1
typ = 8
tk = 0
jg = 0
guns = [256, 0, 0, 0]
shields = [256, 0, 0, 0]
lr = 0
rw = 0
lx = 1
tx = 0
x = 5
y = 5
r = 4
home_base = true

[[ships]]
number = 2
name = "NAMENLOS 1"
owner = 1
typ = 1
tk = 5
jg = 0
guns = [0, 0, 0, 0]
shields = [0, 0, 0, 0]
lr = 10
rw = 10
lx = 1
tx = 0
x = 5
y = 5
sp = 5
r = 2
"#;

pub fn base() -> State {
    position(BASE)
}

/// Add a ship from a design line `G,Tk,JG,LK,TK,NK,AK,LS,TS,NS,AS,R` built at `ev`.
pub fn add_ship(
    s: &mut State,
    number: u32,
    owner: u8,
    design: &str,
    x: i32,
    y: i32,
    ev: u32,
) -> u32 {
    use arbitre_eds::formulas::*;
    let f: Vec<&str> = design.split(',').collect();
    let typ = class_typ(f[0]).unwrap();
    let n: Vec<u32> = f[1..].iter().map(|v| v.trim().parse().unwrap()).collect();
    let guns = [n[2], n[3], n[4], n[5]];
    let shields = [n[6], n[7], n[8], n[9]];
    let weapons: u32 = guns.iter().sum::<u32>() + shields.iter().sum::<u32>();
    let p = s.params.clone();
    s.ships.insert(
        number,
        arbitre_eds::model::Ship {
            number,
            name: format!("SCHIFF {number}"),
            owner,
            typ,
            tk: n[0],
            jg: n[1],
            guns,
            shields,
            lr: cargo_capacity(&p, typ, n[0], n[1], weapons),
            rw: jump_range(&p, ev),
            lx: lx(ev),
            tx: tx(ev),
            x,
            y,
            hits: 0,
            sp: n[0],
            ljg: 0,
            tjg: 0,
            cargo: None,
            r: n[10] as u8,
            home_base: false,
        },
    );
    number
}

/// A raw `next_u64` value that `unit_f64` turns into z.
pub fn z(v: f64) -> u64 {
    ((v * (1u64 << 53) as f64) as u64) << 11
}
