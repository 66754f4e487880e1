//! WWK scenarios of any size (spec §10.2, scenario TOML): zones on a grid,
//! every fifth a coastal sea, the land zones bearing one or two resource
//! symbols, and `nations` nations whose homes are spread evenly.

use crate::grid::Grid;
use arbitre_core::Rng;
use std::fmt::Write;

const FIELDS: [&str; 6] = ["I", "V", "A", "Nv", "N", "L"];
const RES: [char; 6] = ['N', 'M', 'P', 'O', 'F', 'U'];

/// Zone `i`'s code: "Z" and the number, upper-case and never a keyword.
pub fn zone(i: usize) -> String {
    format!("Z{i}")
}

/// Nation `k`'s code: three letters "QAA", "QAB"... (no keyword starts with Q).
pub fn nation(k: usize) -> String {
    let a = (b'A' + (k / 26 % 26) as u8) as char;
    let b = (b'A' + (k % 26) as u8) as char;
    format!("Q{a}{b}")
}

pub fn scenario(zones: usize, nations: usize, seed: u64) -> String {
    let g = Grid::new(zones);
    let mut rng = Rng::for_setup(seed);
    let homes = g.spread(nations);
    let is_sea = |i: usize| i % 5 == 2 && !homes.contains(&i);
    let mut t = String::with_capacity(zones * 120);
    let _ = writeln!(t, "[game]\nname = \"Banc {zones}\"\nmax_turns = 1000\n");
    for i in 0..zones {
        let adj: Vec<String> = g
            .neighbours(i)
            .iter()
            .map(|j| format!("\"{}\"", zone(*j)))
            .collect();
        let coastal = g.neighbours(i).iter().any(|j| is_sea(*j));
        let _ = writeln!(t, "[[zone]]\ncode = \"{}\"\nname = \"Zone {i}\"", zone(i));
        if is_sea(i) {
            let _ = writeln!(t, "kind = \"sea\"");
        } else {
            let a = RES[rng.below(6) as usize];
            let b = RES[rng.below(6) as usize];
            let sym = if a == b {
                format!("\"{a}\"")
            } else {
                format!("\"{a}\", \"{b}\"")
            };
            let _ = writeln!(t, "coastal = {coastal}\nsymbols = [{sym}]");
        }
        let _ = writeln!(t, "adjacent = [{}]\n", adj.join(", "));
    }
    for (k, home) in homes.iter().enumerate() {
        let s = FIELDS[k % 6];
        let w = FIELDS[(k + 3) % 6];
        let _ = writeln!(
            t,
            "[[nation]]\ncode = \"{}\"\nname = \"Nation {k}\"\nspecialty = \"{s}\"\nweaknesses = [\"{w}\"]\nhome = \"{}\"\n",
            nation(k),
            zone(*home)
        );
    }
    t
}
