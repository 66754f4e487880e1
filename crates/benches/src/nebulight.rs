//! Nébulight positions of any size (spec AMB-35: a position TOML with fixed
//! numbers, `renumber = false`).
//!
//! Nébulight is a two-player game (the rulebook's duel; setup refuses any
//! other count), so its scale axis is the map alone: worlds on a grid, each
//! player owning a tenth of the map around its corner, one fleet for every
//! eight owned worlds, neutral worlds with population and mines in between.

use crate::grid::Grid;
use arbitre_core::Rng;
use std::fmt::Write;

/// A position of `worlds` worlds for two players, drawn from `seed`.
pub fn position(worlds: usize, seed: u64) -> String {
    let g = Grid::new(worlds);
    let mut rng = Rng::for_setup(seed);
    let owned = (worlds / 10).max(1);
    let owner = |i: usize| -> usize {
        if i < owned {
            1
        } else if i >= worlds - owned && worlds > 1 {
            2
        } else {
            0
        }
    };
    let mut t = String::with_capacity(worlds * 160);
    let _ = writeln!(
        t,
        "[map]\nname = \"bench-{worlds}\"\nrenumber = false\nsymmetric_links = true\n"
    );
    let _ = writeln!(t, "[game]\nturn = 0\nturns = 1000\n");
    for i in 0..worlds {
        let (x, y) = g.xy(i);
        let links: Vec<String> = g
            .neighbours(i)
            .iter()
            .map(|j| (j + 1).to_string())
            .collect();
        let o = owner(i);
        let _ = writeln!(
            t,
            "[[world]]\nkey = {}\nlinks = [{}]\ncoords = [{x}, {y}]",
            i + 1,
            links.join(", ")
        );
        let limit = 40 + rng.below(80) as u32;
        let pop = (limit / 2).max(1);
        let cm = rng.below(6) as u32;
        let mp = rng.below(20) as u32;
        if o > 0 {
            let ind = rng.below(30) as u32;
            let _ = writeln!(
                t,
                "owner = {o}\npopulation = {pop}\npop_limit = {limit}\nindustries = {ind}\nmp = {mp}\ncm = {cm}\nvi = 1\nvp = 1"
            );
            if i == 0 || i == worlds - 1 {
                let _ = writeln!(t, "start = true");
            }
        } else {
            let _ = writeln!(
                t,
                "population = {pop}\npop_limit = {limit}\nmp = {mp}\ncm = {cm}"
            );
        }
        t.push('\n');
    }
    let mut fleet = 0;
    for i in (0..worlds).filter(|i| owner(*i) > 0).step_by(8) {
        fleet += 1;
        let vc = 3 + rng.below(10) as u32;
        let _ = writeln!(
            t,
            "[[fleet]]\nkey = {fleet}\nworld = {}\nowner = {}\nvc = {vc}\n",
            i + 1,
            owner(i)
        );
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_position_loads_with_the_requested_size() {
        let sc = crate::game::Game::nebulight(200, 1);
        assert_eq!(sc.state.worlds.len(), 200);
        assert!(sc.state.fleets.len() >= 4);
        assert_eq!(position(200, 1), position(200, 1));
    }
}
