//! The rulebook's formulas (spec §2.10, §2.11 F-1…F-22), pure functions with
//! their worked numbers tested in `tests/examples.rs`. Integer arithmetic wherever
//! the rulebook allows it, so that boundaries (distance 10,5, shield 0,2) are exact.

use crate::model::Ship;
use crate::params::Params;

/// Laser strength at an evolution level: 1 + [EV≥1] + [EV≥9] + [EV≥36] + [EV≥81].
pub fn lx(ev: u32) -> u32 {
    1 + [1, 9, 36, 81].iter().filter(|t| ev >= **t).count() as u32
}

/// Thermo strength: [EV≥4] + [EV≥16] + [EV≥49] (0 = not yet available).
pub fn tx(ev: u32) -> u32 {
    [4, 16, 49].iter().filter(|t| ev >= **t).count() as u32
}

/// The minimum EV for a weapon kind (L, T, N, A).
pub const WEAPON_EV: [u32; 4] = [0, 4, 25, 64];
pub const WEAPON_NAMES: [&str; 4] = ["Laser", "Thermo", "Neutronen", "Antimaterie"];

/// F-6: full jump range at build, `round_half_up(8,5 + √(10·EV + 2,25))`.
pub fn jump_range(p: &Params, ev: u32) -> u32 {
    (p.range_base + (10.0 * ev as f64 + p.range_sqrt_add).sqrt() + 0.5).floor() as u32
}

/// F-7: range with unrepaired hits, `floor(RW·(5−T)/5)`.
pub fn current_range(rw: u32, hits: u32) -> u32 {
    rw * 5u32.saturating_sub(hits) / 5
}

/// F-2: distance rounded half up. √q is never exactly x,5 for integer q.
pub fn distance(dx: i64, dy: i64) -> u32 {
    ((dx * dx + dy * dy) as f64).sqrt().round() as u32
}

/// F-2a: `dr ≤ R ⇔ dx²+dy² ≤ R·(R+1)`.
pub fn within(dx: i64, dy: i64, r: u32) -> bool {
    let r = r as i64;
    dx * dx + dy * dy <= r * (r + 1)
}

/// F-3: hull cost in WE.
pub fn hull_we(p: &Params, typ: u32) -> i64 {
    p.hull_we_factor * (typ * typ) as i64
}

/// F-3: ore for the hull.
pub fn hull_ore(p: &Params, typ: u32) -> u32 {
    p.hull_ore_factor * typ * typ
}

/// F-4: armament cost, the weighted squares of the counts.
pub fn armament_we(p: &Params, guns: &[u32; 4], shields: &[u32; 4]) -> i64 {
    (0..4)
        .map(|k| p.arm_weights[k] * ((guns[k] as i64).pow(2) + (shields[k] as i64).pow(2)))
        .sum()
}

/// F-5: cargo capacity.
pub fn cargo_capacity(p: &Params, typ: u32, tk: u32, jg: u32, weapons: u32) -> u32 {
    let slots = (5 * typ).saturating_sub(tk + jg);
    let wslots = (10 * typ * typ).saturating_sub(weapons);
    (20 * slots + wslots).min(p.cargo_cap)
}

/// F-8: repair cost per hit.
pub fn repair_cost(p: &Params, ship: &Ship) -> i64 {
    p.repair_base_factor * (ship.typ * ship.typ) as i64
        + (0..4)
            .map(|k| p.arm_weights[k] * (ship.guns[k] + ship.shields[k]) as i64)
            .sum::<i64>()
}

/// F-10: colonisation to level b costs `5·(b+1)²`.
pub fn colonise_cost(p: &Params, b: u32) -> i64 {
    p.colonise_factor * ((b + 1) as i64).pow(2)
}

/// F-11: taxes `10·BV²`.
pub fn taxes(p: &Params, bv: u32) -> i64 {
    p.tax_factor * (bv as i64).pow(2)
}

/// F-13: the new rate after a month of mining: −ceil(rate·10 %).
pub fn mine_decline(p: &Params, rate: u32) -> u32 {
    let drop = (rate * p.mine_decline_percent).div_ceil(100);
    rate - drop.min(rate)
}

/// F-14: research chance of the x-th station as a fraction num/den (240/(x+5) %).
pub fn research_chance(p: &Params, x: u64) -> (u64, u64) {
    (p.research_numerator, 100 * (x + 5))
}

/// F-15: ore returned by scrapping, 60 % of the build ore.
pub fn scrap_ore(p: &Params, typ: u32) -> u32 {
    hull_ore(p, typ) * p.scrap_ore_percent / 100
}

/// F-1: map size for N rulers.
pub fn map_size(p: &Params, n: u32) -> (i32, i32) {
    let area = (p.area_per_player * n) as f64;
    let w = (area * p.aspect_w as f64 / p.aspect_h as f64)
        .sqrt()
        .round();
    let h = (area / w).round();
    (w as i32, h as i32)
}

/// Usable systems with hits: `floor(count·(4−T)/4)` (§2.6.2).
pub fn usable(count: u32, hits: u32) -> u32 {
    count * 4u32.saturating_sub(hits) / 4
}

/// The shield matrix in twentieths (§4.4.4): row = weapon, column = shield.
pub const M20: [[u32; 4]; 4] = [[20, 4, 2, 1], [4, 20, 4, 2], [2, 4, 20, 4], [1, 2, 4, 20]];

/// A ship's shield capacity against weapon w, in twentieths.
pub fn shield20(ship: &Ship, w: usize) -> u64 {
    let strength = [ship.lx, ship.tx, 1, 1];
    (0..4)
        .map(|k| (usable(ship.shields[k], ship.hits) * strength[k] * M20[w][k]) as u64)
        .sum()
}

/// A ship's offensive value for weapon w (without fighters).
pub fn offence(ship: &Ship, w: usize) -> u64 {
    let strength = [ship.lx, ship.tx, 1, 1];
    (usable(ship.guns[w], ship.hits) * strength[w]) as u64
}

/// F-19 in twentieths: `floor(E / (S+1))` = `floor(20·E / (S20 + 20))`.
pub fn hits_from(energy: f64, s20: u64) -> u32 {
    if energy <= 0.0 {
        return 0;
    }
    (20.0 * energy / (s20 as f64 + 20.0)).floor() as u32
}

/// F-17: the scatter factor `0,60 + 0,40·z^(1/3)`.
pub fn scatter(p: &Params, z: f64) -> f64 {
    p.scatter_min + p.scatter_span * z.cbrt()
}

/// The label of a month: (year, month in year).
pub fn year_month(p: &Params, k: u32) -> (u32, u32) {
    year_month_of(p.months_per_year, k)
}

/// [`year_month`] in a year of `per_year` months: the report's text has
/// only the view's rules, and building a whole [`Params`] for a label
/// allocated its year names for every label.
pub fn year_month_of(per_year: u32, k: u32) -> (u32, u32) {
    let k = k.max(1);
    ((k - 1) / per_year + 1, (k - 1) % per_year + 1)
}

/// "Monat m von 12, Jahr y (Jy/Mm)".
pub fn month_label(p: &Params, k: u32) -> String {
    month_label_of(p.months_per_year, k)
}

/// [`month_label`] in a year of `per_year` months.
pub fn month_label_of(per_year: u32, k: u32) -> String {
    let (y, m) = year_month_of(per_year, k);
    format!("Monat {m} von {per_year}, Jahr {y} (J{y}/M{m})")
}

pub fn short_month(p: &Params, k: u32) -> String {
    short_month_of(p.months_per_year, k)
}

/// [`short_month`] in a year of `per_year` months.
pub fn short_month_of(per_year: u32, k: u32) -> String {
    let (y, m) = year_month_of(per_year, k);
    format!("J{y}/M{m}")
}

/// The year's name, or "Jahr y" beyond the list.
pub fn year_name(p: &Params, y: u32) -> String {
    p.year_names
        .get(y as usize - 1)
        .cloned()
        .unwrap_or_else(|| format!("Jahr {y}"))
}

/// Ship class letter → Typ.
pub fn class_typ(s: &str) -> Option<u32> {
    let s = s.trim();
    let mut cs = s.chars();
    let c = cs.next()?.to_ascii_uppercase();
    if cs.next().is_some() || !c.is_ascii_uppercase() {
        return None;
    }
    Some(c as u32 - 'A' as u32 + 1)
}

/// Two decimals with a comma (`1,40`).
pub fn de_dec2(v: f64) -> String {
    format!("{:.2}", v).replace('.', ",")
}
