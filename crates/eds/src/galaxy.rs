//! Galaxy generation (spec §8.2, rulebook "Die Galaxis"): 25·N stars on about
//! 625·N points, homes spread by best-candidate sampling and Lloyd relaxation
//! (the best of 8 layouts), 8–16 stars within start
//! range 10 of every home, resources balanced to 75–130 % of the median. All
//! draws come from the setup stream. Built-in scenarios are generated once with
//! this code and stored as explicit TOML, which is what games read.

use crate::formulas::map_size;
use crate::params::Params;
use arbitre_core::Rng;

#[derive(Clone, Debug, PartialEq)]
pub struct GenStar {
    pub x: i32,
    pub y: i32,
    pub rate: [u32; 3],
    /// Home of ruler slot (0-based) if a home world.
    pub home: Option<usize>,
}

pub const ORE_BANDS: [(u32, u32, u64); 6] = [
    (0, 100, 40),
    (101, 150, 25),
    (151, 200, 15),
    (201, 250, 8),
    (251, 300, 7),
    (301, 340, 5),
];
pub const URANIUM_BANDS: [(u32, u32, u64); 5] = [
    (0, 9, 52),
    (10, 19, 28),
    (20, 29, 11),
    (30, 39, 6),
    (40, 49, 3),
];
pub const GRAIN_BANDS: [(u32, u32, u64); 1] = [(0, 49, 100)];

/// A value from piecewise uniform bands (T-23, A-35).
pub fn draw_band(rng: &mut Rng, bands: &[(u32, u32, u64)]) -> u32 {
    let p = rng.below(100);
    let mut acc = 0;
    for (lo, hi, share) in bands {
        acc += share;
        if p < acc {
            return lo + rng.below((hi - lo + 1) as u64) as u32;
        }
    }
    let (lo, hi, _) = bands[bands.len() - 1];
    lo + rng.below((hi - lo + 1) as u64) as u32
}

pub fn draw_rates(rng: &mut Rng) -> [u32; 3] {
    [
        draw_band(rng, &ORE_BANDS),
        draw_band(rng, &URANIUM_BANDS),
        draw_band(rng, &GRAIN_BANDS),
    ]
}

fn q(a: (i32, i32), b: (i32, i32)) -> i64 {
    let (dx, dy) = ((a.0 - b.0) as i64, (a.1 - b.1) as i64);
    dx * dx + dy * dy
}

/// Within start range (rounded distance ≤ R).
fn near(a: (i32, i32), b: (i32, i32), r: u32) -> bool {
    q(a, b) <= r as i64 * (r as i64 + 1)
}

fn free_point(stars: &[GenStar], p: (i32, i32), min: u32, skip: Option<usize>) -> bool {
    stars
        .iter()
        .enumerate()
        .all(|(i, s)| Some(i) == skip || q((s.x, s.y), p) >= (min * min) as i64)
}

/// The median, the mean of the two middle values for an even count.
pub fn median(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(|a, b| a.partial_cmp(b).expect("no NaN"));
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Rate sums within start range of every home, indexed `[home][good]`.
pub fn home_sums(stars: &[GenStar], range: u32) -> Vec<[u32; 3]> {
    let homes: Vec<&GenStar> = stars.iter().filter(|s| s.home.is_some()).collect();
    let mut out = vec![[0u32; 3]; homes.len()];
    for h in homes {
        let i = h.home.expect("home");
        for s in stars
            .iter()
            .filter(|s| s.home.is_none() && near((s.x, s.y), (h.x, h.y), range))
        {
            for (o, r) in out[i].iter_mut().zip(s.rate) {
                *o += r;
            }
        }
    }
    out
}

pub fn neighbour_counts(stars: &[GenStar], range: u32) -> Vec<usize> {
    let mut homes: Vec<&GenStar> = stars.iter().filter(|s| s.home.is_some()).collect();
    homes.sort_by_key(|h| h.home);
    homes
        .iter()
        .map(|h| {
            stars
                .iter()
                .filter(|s| s.home.is_none() && near((s.x, s.y), (h.x, h.y), range))
                .count()
        })
        .collect()
}

/// Home worlds (§8.2 step 2): 8 layouts, each by best-candidate sampling (500
/// candidates per further home) and 20 Lloyd iterations over the inner area; the
/// layout with the largest minimum pairwise distance wins.
pub fn place_homes(n: usize, w: i32, h: i32, m: i32, rng: &mut Rng) -> Vec<(i32, i32)> {
    let (x0, x1, y0, y1) = (m, (w - m + 1).max(m), m, (h - m + 1).max(m));
    let mut best: Option<(i64, Vec<(i32, i32)>)> = None;
    for _ in 0..8 {
        let mut homes: Vec<(i32, i32)> = Vec::new();
        for i in 0..n {
            let cands = if i == 0 { 1 } else { 500 };
            let mut pick = (x0, y0);
            let mut pick_d = -1i64;
            for _ in 0..cands {
                let c = (
                    x0 + rng.below((x1 - x0 + 1) as u64) as i32,
                    y0 + rng.below((y1 - y0 + 1) as u64) as i32,
                );
                let d = homes.iter().map(|hh| q(*hh, c)).min().unwrap_or(i64::MAX);
                if d > pick_d {
                    pick_d = d;
                    pick = c;
                }
            }
            homes.push(pick);
        }
        for _ in 0..20 {
            let mut sum = vec![(0i64, 0i64, 0i64); n];
            for x in x0..=x1 {
                for y in y0..=y1 {
                    let mut k = 0;
                    for j in 1..n {
                        if q(homes[j], (x, y)) < q(homes[k], (x, y)) {
                            k = j;
                        }
                    }
                    sum[k].0 += x as i64;
                    sum[k].1 += y as i64;
                    sum[k].2 += 1;
                }
            }
            for (hh, (sx, sy, c)) in homes.iter_mut().zip(&sum) {
                if *c > 0 {
                    *hh = (
                        ((*sx as f64) / *c as f64).round() as i32,
                        ((*sy as f64) / *c as f64).round() as i32,
                    );
                }
            }
        }
        let mut min_d = i64::MAX;
        for i in 0..n {
            for j in i + 1..n {
                min_d = min_d.min(q(homes[i], homes[j]));
            }
        }
        if best.as_ref().is_none_or(|(d, _)| min_d > *d) {
            best = Some((min_d, homes));
        }
    }
    best.expect("eight layouts").1
}

/// Generate a galaxy for `n` rulers; stars come out in random order, so the
/// caller numbers them 1..25N in the returned order.
pub fn generate(p: &Params, n: usize, rng: &mut Rng) -> (i32, i32, Vec<GenStar>) {
    let (w, h) = map_size(p, n as u32);
    let total = (p.stars_per_player as usize) * n;
    let m = 6.min(w / 4).min(h / 4).max(1);
    let range = p.start_range;
    'attempt: loop {
        let homes = place_homes(n, w, h, m, rng);
        let md = p.min_star_distance as i64;
        if (0..n).any(|i| (i + 1..n).any(|j| q(homes[i], homes[j]) < md * md)) {
            continue 'attempt;
        }
        let mut stars: Vec<GenStar> = homes
            .iter()
            .enumerate()
            .map(|(i, hp)| GenStar {
                x: hp.0,
                y: hp.1,
                rate: p.home_rates,
                home: Some(i),
            })
            .collect();
        let mut fails = 0;
        while stars.len() < total {
            let c = (
                1 + rng.below(w as u64) as i32,
                1 + rng.below(h as u64) as i32,
            );
            if free_point(&stars, c, p.min_star_distance, None) {
                stars.push(GenStar {
                    x: c.0,
                    y: c.1,
                    rate: [0; 3],
                    home: None,
                });
            } else {
                fails += 1;
                if fails > 1000 * total {
                    continue 'attempt;
                }
            }
        }
        // Neighbourhoods 8..16.
        let mut sweeps = 0;
        loop {
            let mut ok = true;
            for (hi, hp) in homes.iter().enumerate() {
                let _ = hi;
                let inside = |s: &GenStar| s.home.is_none() && near((s.x, s.y), *hp, range);
                let mut guard = 0;
                while stars.iter().filter(|s| inside(s)).count() < p.home_neighbours_min as usize {
                    ok = false;
                    guard += 1;
                    if guard > 10_000 {
                        continue 'attempt;
                    }
                    let outside: Vec<usize> = (0..stars.len())
                        .filter(|i| {
                            stars[*i].home.is_none()
                                && homes
                                    .iter()
                                    .all(|h2| !near((stars[*i].x, stars[*i].y), *h2, range))
                        })
                        .collect();
                    if outside.is_empty() {
                        continue 'attempt;
                    }
                    let pick = outside[rng.below(outside.len() as u64) as usize];
                    let r = range as i32;
                    let c = (
                        hp.0 - r + rng.below(2 * r as u64 + 1) as i32,
                        hp.1 - r + rng.below(2 * r as u64 + 1) as i32,
                    );
                    if c.0 >= 1
                        && c.1 >= 1
                        && c.0 <= w
                        && c.1 <= h
                        && near(c, *hp, range)
                        && free_point(&stars, c, p.min_star_distance, Some(pick))
                    {
                        stars[pick].x = c.0;
                        stars[pick].y = c.1;
                    }
                }
                while stars.iter().filter(|s| inside(s)).count() > p.home_neighbours_max as usize {
                    ok = false;
                    guard += 1;
                    if guard > 10_000 {
                        continue 'attempt;
                    }
                    let ins: Vec<usize> = (0..stars.len()).filter(|i| inside(&stars[*i])).collect();
                    let pick = ins[rng.below(ins.len() as u64) as usize];
                    let c = (
                        1 + rng.below(w as u64) as i32,
                        1 + rng.below(h as u64) as i32,
                    );
                    if homes.iter().all(|h2| !near(c, *h2, range))
                        && free_point(&stars, c, p.min_star_distance, Some(pick))
                    {
                        stars[pick].x = c.0;
                        stars[pick].y = c.1;
                    }
                }
            }
            if ok {
                break;
            }
            sweeps += 1;
            if sweeps > 100 {
                continue 'attempt;
            }
        }
        // Rates, then balance by re-rolling the worst home's neighbourhood.
        for s in stars.iter_mut().filter(|s| s.home.is_none()) {
            s.rate = draw_rates(rng);
        }
        let mut rerolls = 0;
        loop {
            let sums = home_sums(&stars, range);
            let mut worst: Option<(usize, f64)> = None;
            for g in 0..3 {
                let med = median(&sums.iter().map(|s| s[g] as f64).collect::<Vec<_>>());
                for (i, s) in sums.iter().enumerate() {
                    let rel = if med == 0.0 { 1.0 } else { s[g] as f64 / med };
                    if rel < p.resource_balance_min || rel > p.resource_balance_max {
                        let dev = (rel - 1.0).abs();
                        if worst.is_none_or(|(_, d)| dev > d) {
                            worst = Some((i, dev));
                        }
                    }
                }
            }
            let Some((i, _)) = worst else { break };
            rerolls += 1;
            if rerolls > 1000 {
                continue 'attempt;
            }
            let hp = homes[i];
            for s in stars
                .iter_mut()
                .filter(|s| s.home.is_none() && near((s.x, s.y), hp, range))
            {
                s.rate = draw_rates(rng);
            }
        }
        rng.shuffle(&mut stars);
        // Home worlds to rulers by a random permutation.
        let mut slots: Vec<usize> = (0..n).collect();
        rng.shuffle(&mut slots);
        for s in stars.iter_mut() {
            if let Some(h) = s.home {
                s.home = Some(slots[h]);
            }
        }
        return (w, h, stars);
    }
}
