//! Shared helpers: build a game from a position TOML, play a turn, read reports.
#![allow(dead_code)]

use arbitre_core::engine::{parse_all, run_turn_with};
use arbitre_core::{PlayerId, PlayerSetup, Rng, Ruleset, SetupConfig, Viewer};
use arbitre_nebulight::model::*;
use arbitre_nebulight::Nebulight;
use std::collections::BTreeMap;

pub const SEED: u64 = 2004;

pub fn players() -> Vec<PlayerSetup> {
    vec![
        PlayerSetup {
            id: "maxtor".into(),
            name: "Maxtor".into(),
            options: Default::default(),
        },
        PlayerSetup {
            id: "miria".into(),
            name: "Miria".into(),
            options: Default::default(),
        },
    ]
}

pub fn config(files: &[(&str, &str)], options: &str) -> SetupConfig {
    SetupConfig {
        game_id: "test".into(),
        seed: SEED,
        players: players(),
        options: toml::from_str(options).expect("options"),
        files: files
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
    }
}

/// A position: fixed numbers, no symmetric links unless said so.
pub fn position(body: &str) -> NebState {
    let text = format!("[map]\nrenumber = false\nsymmetric_links = false\n\n{body}");
    Nebulight
        .setup(
            &config(&[("position_file", &text)], ""),
            &mut Rng::for_setup(SEED),
        )
        .unwrap_or_else(|e| panic!("position: {e}"))
}

/// Dead-end neutral worlds linking back to `to`, to complete link lists.
pub fn fillers(nums: &[u32], to: u32) -> String {
    nums.iter()
        .map(|n| format!("[[world]]\nnumber = {n}\nlinks = [{to}]\n\n"))
        .collect()
}

fn orders_map(orders: &[(&str, &str)]) -> BTreeMap<PlayerId, String> {
    orders
        .iter()
        .map(|(p, t)| (PlayerId::from(*p), t.to_string()))
        .collect()
}

/// One turn with the real RNG streams.
pub fn play(s: &mut NebState, orders: &[(&str, &str)]) {
    arbitre_core::engine::run_turn(&Nebulight, s, SEED, &orders_map(orders));
}

/// One turn where phase `key` draws the scripted results `rolls`.
pub fn play_scripted(s: &mut NebState, orders: &[(&str, &str)], key: &str, rolls: Vec<u64>) {
    let parsed = parse_all(&Nebulight, s, &orders_map(orders));
    let turn = s.turn + 1;
    let mut rolls = Some(rolls);
    run_turn_with(&Nebulight, s, &parsed, |k| {
        if k == key {
            Rng::scripted_rolls(rolls.take().expect("one scripted phase"))
        } else {
            Rng::for_phase(SEED, turn, k)
        }
    });
}

pub fn report(s: &NebState, who: &str) -> String {
    Nebulight
        .report(s, &[], &Viewer::Player(PlayerId::from(who)))
        .body
}

pub fn gm(s: &NebState) -> String {
    Nebulight.report(s, &[], &Viewer::GameMaster).body
}

/// The block of world `n` in a report: its line, fleets and traces.
pub fn block(report: &str, n: u32) -> String {
    let heads = [format!("M_{n} "), format!("Md_{n} ")];
    let mut out = String::new();
    let mut inside = false;
    for line in report.lines() {
        let is_world = line.starts_with("M_") || line.starts_with("Md_");
        if is_world
            || line.starts_with("Ordres non")
            || line.starts_with("== ")
            || line.starts_with("Résultat")
        {
            inside = heads.iter().any(|h| line.starts_with(h.as_str()));
        }
        if inside {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

pub fn world_line(report: &str, n: u32) -> String {
    block(report, n).lines().next().unwrap_or("").to_string()
}

/// A built-in map or scenario by name (`map = "exemple-combat"`).
pub fn scenario(name: &str) -> NebState {
    Nebulight
        .setup(
            &config(&[], &format!("map = \"{name}\"")),
            &mut Rng::for_setup(SEED),
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}
