//! Technologies (spec 2.7, rulebook "Les technologies"): levels, research
//! costs and caps, and the CA/CD coefficients.
//!
//! CA and CD are stored as constant tables (decision AMB-1): the closed formula
//! `50 × 1.1^(n−1)` / `100 × 0.9^(n−1)` rounded half up, which is the only
//! rounding that gives the rulebook's CA(3) = 61 without floating point in
//! the turn.

use crate::model::{Tech, TechLevel};

/// CA by ATT level 1..=12.
pub const CA: [u32; 12] = [50, 55, 61, 67, 73, 81, 89, 97, 107, 118, 130, 143];
/// CD by DEF level 1..=10.
pub const CD: [u32; 10] = [100, 90, 81, 73, 66, 59, 53, 48, 43, 39];

pub fn ca(att_level: u32) -> u32 {
    CA[(att_level.clamp(1, 12) - 1) as usize]
}

pub fn cd(def_level: u32) -> u32 {
    CD[(def_level.clamp(1, 10) - 1) as usize]
}

/// UP per level.
pub fn cost(t: Tech) -> u32 {
    match t {
        Tech::Dep => 10,
        Tech::Att => 5,
        Tech::Def => 10,
    }
}

pub fn initial(t: Tech) -> u32 {
    match t {
        Tech::Dep => 3,
        Tech::Att | Tech::Def => 1,
    }
}

pub fn max(t: Tech) -> u32 {
    match t {
        Tech::Dep => 7,
        Tech::Att => 12,
        Tech::Def => 10,
    }
}

pub fn keyword(t: Tech) -> &'static str {
    match t {
        Tech::Dep => "DEP",
        Tech::Att => "ATT",
        Tech::Def => "DEF",
    }
}

/// How many of `x` research points can still be used before the max level
/// (decision AMB-30: an order going past the max only spends what is needed).
pub fn room(t: Tech, tl: &TechLevel) -> u32 {
    if tl.level >= max(t) {
        return 0;
    }
    let levels_left = max(t) - tl.level;
    (levels_left * cost(t)).saturating_sub(tl.progress)
}

/// Adds research points; new levels apply at once (rulebook: "immédiatement").
pub fn research(t: Tech, tl: &mut TechLevel, points: u32) {
    tl.progress += points;
    while tl.progress >= cost(t) && tl.level < max(t) {
        tl.progress -= cost(t);
        tl.level += 1;
    }
    if tl.level >= max(t) {
        tl.progress = 0;
    }
}

/// `ceil(a / b)` on non-negative integers.
pub fn ceil_div(a: u64, b: u64) -> u64 {
    a.div_ceil(b)
}

/// Effective hits `T = ceil(n × CA × amb / 100)` (5.3).
pub fn hits(n: u32, ca: u32, ambush: bool) -> u64 {
    let amb = if ambush { 2 } else { 1 };
    ceil_div(u64::from(n) * u64::from(ca) * amb, 100)
}

/// Damage `D = ceil(T × CD/100 × (1 + C/H))`, halved CD when the target flees
/// (5.3, integer form). `holds_cargo` is `(H, C)` for a fleet target.
pub fn damage(t: u64, cd: u32, holds_cargo: Option<(u32, u32)>, flees: bool) -> u64 {
    let (h, c) = match holds_cargo {
        Some((h, c)) if h > 0 => (u64::from(h), u64::from(c)),
        _ => (1, 0),
    };
    let flee = if flees { 2 } else { 1 };
    ceil_div(t * u64::from(cd) * (h + c), 100 * h * flee)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neb_30_ca_cd_tables_round_half_up_of_closed_formula() {
        // Exact rational check of every entry against 50×1.1^(n−1), 100×0.9^(n−1).
        for n in 1..=12u32 {
            let num = 50u128 * 11u128.pow(n - 1);
            let den = 10u128.pow(n - 1);
            let rounded = (2 * num + den) / (2 * den);
            assert_eq!(u128::from(ca(n)), rounded, "CA level {n}");
        }
        for n in 1..=10u32 {
            let num = 100u128 * 9u128.pow(n - 1);
            let den = 10u128.pow(n - 1);
            let rounded = (2 * num + den) / (2 * den);
            assert_eq!(u128::from(cd(n)), rounded, "CD level {n}");
        }
        assert_eq!((ca(2), ca(3), cd(2)), (55, 61, 90));
    }

    #[test]
    fn neb_31_hits_round_up_and_zero_ships_give_no_hit() {
        assert_eq!(hits(18, 55, false), 10);
        assert_eq!(hits(20, 61, false), 13);
        assert_eq!(hits(7, 50, true), 7);
        assert_eq!(hits(1, 50, false), 1);
        assert_eq!(hits(0, 143, true), 0);
    }

    #[test]
    fn neb_32_neb_76_tv24_damage_with_cargo_and_flight() {
        assert_eq!(damage(10, 90, Some((20, 12)), false), 15);
        assert_eq!(damage(10, 90, Some((20, 12)), true), 8);
        assert_eq!(damage(13, 90, Some((18, 0)), false), 12);
        // A world target has factor 1.
        assert_eq!(damage(6, 100, None, false), 6);
        // A full fleet takes double damage.
        assert_eq!(damage(5, 100, Some((10, 10)), false), 10);
    }

    #[test]
    fn neb_16_research_levels_up_at_once_and_caps() {
        let mut tl = TechLevel {
            level: 3,
            progress: 0,
        };
        research(Tech::Dep, &mut tl, 14);
        assert_eq!(
            tl,
            TechLevel {
                level: 4,
                progress: 4
            }
        );
        let mut att = TechLevel {
            level: 1,
            progress: 0,
        };
        research(Tech::Att, &mut att, 3);
        research(Tech::Att, &mut att, 4);
        assert_eq!(
            att,
            TechLevel {
                level: 2,
                progress: 2
            }
        );
        let near = TechLevel {
            level: 6,
            progress: 5,
        };
        assert_eq!(room(Tech::Dep, &near), 5);
        assert_eq!(
            room(
                Tech::Dep,
                &TechLevel {
                    level: 7,
                    progress: 0
                }
            ),
            0
        );
    }
}
