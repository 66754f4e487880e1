//! Shared helpers for the Scrambled Nations tests: build a game from a world
//! and a position in TOML, resolve a turn with orders in the mail notation,
//! read a player's report.
#![allow(dead_code)]

use arbitre_core::engine::run_turn;
use arbitre_core::{PlayerId, PlayerSetup, Ruleset, SetupConfig, Viewer};
use arbitre_scrambled::{Event, Scrambled, State};
use std::collections::BTreeMap;

pub fn pid(s: &str) -> PlayerId {
    PlayerId::from(s)
}

pub fn players(names: &[&str]) -> Vec<PlayerSetup> {
    names
        .iter()
        .map(|n| PlayerSetup {
            id: pid(&n.to_lowercase()),
            name: n.to_string(),
            options: Default::default(),
        })
        .collect()
}

/// A game from a `[rules]` table written in TOML.
pub fn game(names: &[&str], rules: &str) -> State {
    let options: toml::Table = toml::from_str(rules).expect("rules TOML");
    let cfg = SetupConfig {
        game_id: "sn-test".into(),
        seed: 42,
        players: players(names),
        options,
        files: BTreeMap::new(),
    };
    let mut rng = arbitre_core::Rng::for_setup(42);
    Scrambled.setup(&cfg, &mut rng).expect("setup")
}

/// A game on a built-in world starting from a full position (TOML text, as a GM's `position_file`).
pub fn from_position(names: &[&str], rules: &str, position: &str) -> State {
    let options: toml::Table = toml::from_str(rules).expect("rules TOML");
    let files: BTreeMap<String, String> =
        [("position_file".to_string(), position.to_string())].into();
    let cfg = SetupConfig {
        game_id: "sn-test".into(),
        seed: 42,
        players: players(names),
        options,
        files,
    };
    let mut rng = arbitre_core::Rng::for_setup(42);
    Scrambled
        .setup(&cfg, &mut rng)
        .expect("setup from position")
}

/// Testland (the spec's §9 map) with a position; quota 6 as in the spec's examples.
pub fn testland(names: &[&str], position: &str) -> State {
    from_position(
        names,
        "world = \"testland\"",
        &format!("quota = 6\n{position}"),
    )
}

/// Players Alice (LOR), Bob (SWA), Carol (BAV) on Testland, plus `extra` position text.
pub const ABC: &[&str] = &["Alice", "Bob", "Carol"];
pub fn abc_players(alice_enemies: &str, bob_enemies: &str, carol_enemies: &str) -> String {
    format!(
        "[[player]]\nid = \"alice\"\nstart = \"LOR\"\ncapital = \"LOR\"\nenemies = [{alice_enemies}]\n\
         [[player]]\nid = \"bob\"\nstart = \"SWA\"\ncapital = \"SWA\"\nenemies = [{bob_enemies}]\n\
         [[player]]\nid = \"carol\"\nstart = \"BAV\"\ncapital = \"BAV\"\nenemies = [{carol_enemies}]\n"
    )
}

/// Resolve one turn; `orders` are (player id, order text).
pub fn resolve(state: &mut State, orders: &[(&str, &str)]) -> Vec<Event> {
    let o: BTreeMap<PlayerId, String> = orders
        .iter()
        .map(|(p, t)| (pid(p), t.to_string()))
        .collect();
    run_turn(&Scrambled, state, 42, &o)
}

pub fn report(state: &State, p: &str) -> String {
    Scrambled.report(state, &[], &Viewer::Player(pid(p))).body
}

pub fn troops(state: &State, t: &str, p: &str) -> u64 {
    state.territories[&arbitre_scrambled::world::TerrId::new(t)].troops_of(&pid(p))
}

pub fn owner(state: &State, t: &str) -> Option<String> {
    state.territories[&arbitre_scrambled::world::TerrId::new(t)]
        .owner
        .as_ref()
        .map(|p| p.0.clone())
}

pub fn terr<'a>(state: &'a State, t: &str) -> &'a arbitre_scrambled::state::TerrState {
    &state.territories[&arbitre_scrambled::world::TerrId::new(t)]
}

/// True if some line of `text` contains `needle` (whitespace runs collapsed).
pub fn has_line(text: &str, needle: &str) -> bool {
    let norm = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let n = norm(needle);
    text.lines().any(|l| norm(l).contains(&n))
}

/// A game on a world given as TOML text (a GM's `world_file`) from a position.
pub fn custom(names: &[&str], world: &str, position: &str) -> State {
    let files: BTreeMap<String, String> = [
        ("world_file".to_string(), world.to_string()),
        ("position_file".to_string(), position.to_string()),
    ]
    .into();
    let cfg = SetupConfig {
        game_id: "sn-test".into(),
        seed: 42,
        players: players(names),
        options: Default::default(),
        files,
    };
    let mut rng = arbitre_core::Rng::for_setup(42);
    Scrambled
        .setup(&cfg, &mut rng)
        .expect("setup from custom world")
}

/// A player block for a position file.
pub fn player(id: &str, start: &str, capital: Option<&str>, enemies: &[&str]) -> String {
    let cap = capital
        .map(|c| format!("capital = \"{c}\"\n"))
        .unwrap_or_default();
    let en: Vec<String> = enemies.iter().map(|e| format!("\"{e}\"")).collect();
    format!(
        "[[player]]\nid = \"{id}\"\nstart = \"{start}\"\n{cap}enemies = [{}]\n",
        en.join(", ")
    )
}

/// A territory block for a position file; `troops` as (player, count).
pub fn territory(id: &str, owner: Option<&str>, economy: u32, troops: &[(&str, u64)]) -> String {
    let own = owner
        .map(|o| format!("owner = \"{o}\"\n"))
        .unwrap_or_default();
    let tr: Vec<String> = troops.iter().map(|(p, n)| format!("{p} = {n}")).collect();
    format!(
        "[[territory]]\nid = \"{id}\"\n{own}economy = {economy}\ntroops = {{ {} }}\n",
        tr.join(", ")
    )
}
