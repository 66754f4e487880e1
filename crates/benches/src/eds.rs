//! EDS galaxies of any size, as a scenario file (spec §8.3, explicit map):
//! stars on a jittered grid four light years apart (the default density of
//! about one star per 25 points, §8.2), `rulers` homes spread evenly.
//!
//! Limits of the format: a ruler number is a `u8` and setup takes at most 99
//! rulers, and the star count must be `stars_per_player × rulers` (§8.3), so
//! the generator returns the parameter to pass along with the file.

use crate::grid::Grid;
use arbitre_core::Rng;
use std::fmt::Write;

/// The most rulers an EDS game takes (`setup.rs`: "höchstens 99").
pub const MAX_RULERS: usize = 99;

/// A scenario of about `stars` stars (rounded down to a multiple of
/// `rulers`) and the `stars_per_player` it needs.
pub fn scenario(stars: usize, rulers: usize, seed: u64) -> (String, u32) {
    let rulers = rulers.clamp(2, MAX_RULERS);
    let per = (stars / rulers).max(1);
    let n = per * rulers;
    let g = Grid::new(n);
    let mut rng = Rng::for_setup(seed);
    let (w, h) = (g.width as i32 * 4 + 2, g.height() as i32 * 4 + 2);
    let mut t = String::with_capacity(n * 90);
    let _ = writeln!(
        t,
        "format = \"eds-scenario-1\"\n\n[game]\nname = \"BENCH{n}\"\nplayers = {rulers}\nwidth = {w}\nheight = {h}\nmap = \"explicit\"\n"
    );
    for (r, home) in g.spread(rulers).into_iter().enumerate() {
        let _ = writeln!(
            t,
            "[[rulers]]\nnumber = {}\nhome_star = {}\n",
            r + 1,
            home + 1
        );
    }
    for i in 0..n {
        let (x, y) = g.xy(i);
        let x = 2 + x as i32 * 4 + rng.below(2) as i32;
        let y = 2 + y as i32 * 4 + rng.below(2) as i32;
        let _ = writeln!(
            t,
            "[[stars]]\nnumber = {}\nx = {x}\ny = {y}\nore_rate = {}\nuranium_rate = {}\ngrain_rate = {}\n",
            i + 1,
            rng.below(341),
            rng.below(50),
            rng.below(50)
        );
    }
    (t, per as u32)
}
