//! Scrambled Nations worlds of any size (spec §8, world TOML): land
//! territories on a grid with a sea every seventh cell and a mountain every
//! thirteenth, as the built-in worlds mix them. Players start on distinct
//! land territories drawn by the setup stream (D25), as in a real game.

use crate::grid::Grid;
use arbitre_core::Rng;
use std::fmt::Write;

/// Territory ids are at most 16 characters (`world.rs`), names must be unique.
pub fn world(territories: usize, seed: u64) -> String {
    let g = Grid::new(territories);
    let mut rng = Rng::for_setup(seed);
    let mut t = String::with_capacity(territories * 120);
    let _ = writeln!(
        t,
        "[world]\nname = \"Banc {territories}\"\nversion = 1\nstrict_adjacency = true\n"
    );
    for i in 0..territories {
        let terrain = if i % 13 == 6 {
            "mountain"
        } else if i % 7 == 3 {
            "sea"
        } else {
            "land"
        };
        let n: Vec<String> = g
            .neighbours(i)
            .iter()
            .map(|j| format!("\"T{j}\""))
            .collect();
        let _ = writeln!(
            t,
            "[[territory]]\nid = \"T{i}\"\nname = \"Terre {i}\"\nterrain = \"{terrain}\""
        );
        if terrain == "land" {
            let _ = writeln!(t, "area = {}", 5000 + rng.below(30000));
        }
        let _ = writeln!(t, "neighbours = [{}]\n", n.join(", "));
    }
    t
}
