//! Every generator writes a position its ruleset accepts, of the size asked,
//! the same for the same seed, and the bots' orders for it parse and resolve.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre_benches::game::Game;
use arbitre_core::Ruleset;

fn turn_runs<R: Ruleset>(g: &Game<R>) {
    let orders = g.bot_orders();
    assert!(
        orders.values().any(|t| !t.trim().is_empty()),
        "the bots wrote orders"
    );
    assert!(g.parse(&orders) > 0, "some orders parse");
    let mut s = g.state.clone();
    g.resolve(&mut s, &orders);
    assert_eq!(g.ruleset.turn(&s), g.ruleset.turn(&g.state) + 1);
    let reports = g.reports(&s, &[]);
    assert!(reports.iter().all(|r| !r.body.is_empty()));
}

#[test]
fn nebulight_position_has_the_requested_worlds() {
    let g = Game::nebulight(300, 7);
    assert_eq!(g.state.worlds.len(), 300);
    assert_eq!(
        arbitre_benches::nebulight::position(300, 7),
        arbitre_benches::nebulight::position(300, 7)
    );
    turn_runs(&g);
}

#[test]
fn eds_galaxy_has_the_requested_stars_and_rulers() {
    let g = Game::eds(400, 10, 7);
    assert_eq!(g.state.stars.len(), 400);
    assert_eq!(g.state.rulers.len(), 10);
    turn_runs(&g);
}

#[test]
fn scrambled_world_has_the_requested_territories_and_players() {
    let g = Game::scrambled(200, 8, 7);
    assert_eq!(g.state.territories.len(), 200);
    assert_eq!(g.state.players.len(), 8);
    turn_runs(&g);
}

#[test]
fn wwk_scenario_has_the_requested_zones_and_nations() {
    let g = Game::wwk(200, 8, 7);
    assert_eq!(g.state.map.zones.len(), 200);
    assert_eq!(g.state.nations.len(), 8);
    turn_runs(&g);
}
