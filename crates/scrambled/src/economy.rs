//! The revenue formulas (rulebook "Revenus", "Ratio de bureaucratie",
//! "Ratio de suppression"; spec §2.5–§2.7, §3.8).
//!
//! Pure integer functions, so the worked examples of the rulebook are exact:
//! suppression is rounded up to a whole percent (D3) and territory income is
//! rounded down, which gives the rulebook's 5174. The bureaucracy S-curve is
//! computed once in `f64` and turned into integer basis points (D5).

/// ⌈a / b⌉.
pub fn ceil_div(a: u64, b: u64) -> u64 {
    a.div_ceil(b)
}

/// a / b rounded half up.
pub fn round_hu(a: u64, b: u64) -> u64 {
    (2 * a + b) / (2 * b)
}

/// Minimum troops to capture a territory (§3.6.1).
pub fn required(area: u64, capacity: u64) -> u64 {
    ceil_div(area, capacity.max(1))
}

/// Suppression in percent (§2.5): `min(100, ⌈100·h·cap/area⌉)`.
pub fn suppression(hostile: u64, capacity: u64, area: u64) -> u32 {
    if hostile == 0 || area == 0 {
        return if hostile == 0 { 0 } else { 100 };
    }
    let v = ceil_div(
        100u64.saturating_mul(hostile).saturating_mul(capacity),
        area,
    );
    v.min(100) as u32
}

/// Corruption in percent (§2.7, D6): 0 at the capital, `per_hop` per move,
/// capped; the cap when there is no capital or no route.
pub fn corruption(hops: Option<u32>, per_hop: u32, max: u32) -> u32 {
    match hops {
        Some(h) => (per_hop.saturating_mul(h)).min(max),
        None => max,
    }
}

/// Territory income (§3.8.1): `⌊base·E·(100−C)·(100−S) / 10⁶⌋`.
pub fn territory_income(base: u64, economy: u32, corruption: u32, suppression: u32) -> u64 {
    let e = u128::from(economy.min(100));
    let c = u128::from(100 - corruption.min(100));
    let s = u128::from(100 - suppression.min(100));
    (u128::from(base) * e * c * s / 1_000_000) as u64
}

/// Bureaucracy ratio in basis points for `n` territories and quota `q` (§2.6, D5).
pub fn bureaucracy_bp(n: u32, q: u32, max_pct: u32, min_pct: u32) -> u32 {
    let big_m = f64::from(max_pct) / 100.0;
    let m = f64::from(min_pct) / 100.0;
    let ratio = if n <= 1 {
        big_m
    } else if n >= q {
        m
    } else if max_pct == min_pct {
        big_m
    } else {
        let b = f64::from(q) + 1.0;
        let k = 10.0 / b;
        let c = b.sqrt();
        m + 1.0 / (1.0 / (big_m - m) + (k * f64::from(n) - c).exp())
    };
    (10_000.0 * ratio).round() as u32
}

/// Net income after bureaucracy (§3.8.2).
pub fn net_income(gross: u64, bp: u32) -> u64 {
    (u128::from(gross) * u128::from(bp) / 10_000) as u64
}

/// Economic ratio after one resolution (§2.4): combat wins over capture (D11).
pub fn next_economy(
    economy: u32,
    combat: bool,
    captured: bool,
    conflict_mod: i64,
    peace_mod: i64,
) -> u32 {
    let delta = if combat {
        conflict_mod
    } else if captured {
        0
    } else {
        peace_mod
    };
    (i64::from(economy) + delta).clamp(0, 100) as u32
}

/// Deserters from a stack of `s` when the budget lacks `deficit` out of `upkeep` (§3.10, D15).
pub fn deserters(s: u64, deficit: u64, upkeep: u64) -> u64 {
    if upkeep == 0 {
        return 0;
    }
    (u128::from(s) * u128::from(deficit) / u128::from(upkeep)) as u64
}

/// Percent with two decimals from basis points: 6398 → "63,98 %".
pub fn bp_fr(bp: u32) -> String {
    format!("{},{:02} %", bp / 100, bp % 100)
}
