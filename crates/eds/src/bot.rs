//! A simple bot for one ruler: explore, colonise, build, research, defend. It
//! reads only what its ruler may see (own stars and ships, the Beobachtungen of
//! §6.9 and the public star positions) and writes a Befehlsblatt in the mail
//! notation, so its orders go through the same parser as a player's.
//!
//! Plan per month: repair and refuel what stands on own stars; A-ships shuttle
//! grain from home to unclaimed stars (load at home, jump, unload — the star is
//! occupied in phase 19 and colonised once grain lies there); colonies get a
//! grain farm, then a research station; the home world grows; fighters are built
//! and war (status 3) is declared on a ruler whose ships are seen over an own star.

use crate::formulas::{colonise_cost, current_range, within};
use crate::model::{Facility, RulerNr, State};
use crate::report::{observed_ships, observed_stars};
use arbitre_core::{PlayerId, Rng};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

pub fn orders(state: &State, player: &PlayerId, _rng: &mut Rng) -> String {
    let Some(me) = state.ruler_by_id(player) else {
        return String::new();
    };
    if !me.active || state.game_over {
        return String::new();
    }
    let r: RulerNr = me.number;
    let p = &state.params;
    let mut we = me.we;
    let mut sec: BTreeMap<u8, Vec<String>> = BTreeMap::new();
    let own_stars: Vec<_> = state
        .stars
        .values()
        .filter(|s| s.owner == Some(r))
        .collect();
    let home = state
        .stars
        .get(&me.home_star)
        .filter(|s| s.owner == Some(r));
    let foreign_known: BTreeSet<u32> = observed_stars(state, r)
        .iter()
        .filter(|s| s.owner.is_some())
        .map(|s| s.number)
        .collect();
    let enemies: BTreeSet<RulerNr> = observed_ships(state, r)
        .iter()
        .filter(|s| {
            state
                .star_at(s.x, s.y)
                .is_some_and(|st| st.owner == Some(r))
        })
        .map(|s| s.owner)
        .collect();
    // Defend: war on whoever sits over an own star.
    for e in &enemies {
        if state.st(r, *e) != 3 {
            sec.entry(3).or_default().push(format!("{e:02},3"));
        }
    }
    let my_ships: Vec<_> = state.ships.values().filter(|s| s.owner == r).collect();
    // Repair at own yards.
    for s in &my_ships {
        if s.hits > 0
            && state
                .star_at(s.x, s.y)
                .is_some_and(|st| st.owner == Some(r) && st.facility == Some(Facility::W))
        {
            sec.entry(4).or_default().push(s.number.to_string());
        }
    }
    // Refuel where uranium is.
    let mut u_left: BTreeMap<u32, u32> = own_stars.iter().map(|s| (s.number, s.stock[1])).collect();
    let mut sp_after: BTreeMap<u32, u32> = BTreeMap::new();
    for s in &my_ships {
        let mut sp = s.sp;
        if !s.home_base && s.sp < s.tk {
            if let Some(st) = state.star_at(s.x, s.y).filter(|st| st.owner == Some(r)) {
                let left = u_left.get_mut(&st.number).expect("own star");
                let q = (s.tk - s.sp).min(*left);
                if q > 0 {
                    *left -= q;
                    sp += q;
                    sec.entry(5)
                        .or_default()
                        .push(format!("{},{}", s.number, q));
                }
            }
        }
        sp_after.insert(s.number, sp);
    }
    // Jumps, unloading and loading.
    let mut claimed: BTreeSet<u32> = BTreeSet::new();
    for s in &my_ships {
        if s.home_base || s.tk == 0 {
            continue;
        }
        let sp = sp_after[&s.number];
        let here = state.star_at(s.x, s.y);
        let at_home = home.is_some_and(|h| (h.x, h.y) == (s.x, s.y));
        let carrying_g = matches!(s.cargo, Some((crate::model::Good::G, _)));
        if let (Some(st), Some((g, n))) = (here, s.cargo) {
            if !at_home && st.owner.is_none_or(|o| o == r) {
                sec.entry(8)
                    .or_default()
                    .push(format!("{},{},{}", s.number, g.letter(), n));
                continue;
            }
        }
        if at_home && s.cargo.is_none() {
            if s.lr > 0 && home.is_some_and(|h| h.stock[2] > 60) {
                sec.entry(9)
                    .or_default()
                    .push(format!("{},G,{}", s.number, s.lr.min(20)));
            }
            continue;
        }
        let rng_now = current_range(s.rw, s.hits);
        if sp >= 2 && (carrying_g || !at_home) {
            // The nearest star nobody is known to own, within range, not yet targeted.
            let target = state
                .stars
                .values()
                .filter(|t| {
                    t.owner != Some(r)
                        && !foreign_known.contains(&t.number)
                        && !claimed.contains(&t.number)
                })
                .filter(|t| {
                    (t.x, t.y) != (s.x, s.y)
                        && within((t.x - s.x) as i64, (t.y - s.y) as i64, rng_now)
                })
                .min_by_key(|t| {
                    (
                        ((t.x - s.x) as i64).pow(2) + ((t.y - s.y) as i64).pow(2),
                        t.number,
                    )
                });
            if let Some(t) = target.filter(|_| carrying_g || s.cargo.is_none()) {
                claimed.insert(t.number);
                sec.entry(7)
                    .or_default()
                    .push(format!("{},/,{},{}", s.number, t.x, t.y));
                continue;
            }
        }
        if !at_home && sp >= 1 {
            if let Some(h) = home {
                if within((h.x - s.x) as i64, (h.y - s.y) as i64, rng_now) {
                    sec.entry(7)
                        .or_default()
                        .push(format!("{},/,{},{}", s.number, h.x, h.y));
                }
            }
        }
    }
    // Industry on colonies: research stations while money allows (research wins
    // the game), grain farms elsewhere.
    let mut stations = own_stars
        .iter()
        .filter(|s| s.facility == Some(Facility::F))
        .count();
    let mut by_bv: Vec<_> = own_stars
        .iter()
        .filter(|s| s.bv >= 1 && s.facility != Some(Facility::W) && s.facility != Some(Facility::F))
        .collect();
    by_bv.sort_by_key(|s| (std::cmp::Reverse(s.bv), s.number));
    let mut used = BTreeSet::new();
    for s in by_bv {
        if stations < 4 && we >= p.industry_cost[4] + 1500 && s.stock[2] >= 10 {
            sec.entry(15).or_default().push(format!("{},F", s.number));
            we -= p.industry_cost[4];
            stations += 1;
            used.insert(s.number);
        }
    }
    for s in &own_stars {
        if s.facility.is_none()
            && s.bv >= 1
            && s.rate[2] >= 3
            && !used.contains(&s.number)
            && we >= p.industry_cost[3] + 500
        {
            sec.entry(15).or_default().push(format!("{},G", s.number));
            we -= p.industry_cost[3];
        }
    }
    // Colonise: stars where grain will cover the new level.
    let mut n16 = 0;
    for s in &own_stars {
        if n16 >= 6 || s.bv >= p.bv_max {
            continue;
        }
        let grain = s.stock[2]
            + if s.facility == Some(Facility::G) {
                s.rate[2]
            } else {
                0
            };
        let cost = colonise_cost(p, s.bv + 1);
        if grain > (s.bv + 1) * 3 && we >= cost + 300 {
            sec.entry(16).or_default().push(s.number.to_string());
            we -= cost;
            n16 += 1;
        }
    }
    // Build: fighters when threatened, else another A-ship now and then.
    if let Some(h) = home {
        if h.facility == Some(Facility::W) {
            if !enemies.is_empty() && we >= 1000 && h.stock[0] >= 50 {
                sec.entry(12)
                    .or_default()
                    .push(format!("{},L,10", h.number));
                we -= 1000;
            } else if we >= 1500 && my_ships.len() < 10 && h.stock[0] >= 25 {
                sec.entry(13).or_default().push(format!(
                    "{},KOLONIST {},A,5,0,0,0,0,0,0,0,0,0,2",
                    h.number,
                    my_ships.len()
                ));
            } else if we >= 4000 && my_ships.len() < 14 && h.stock[0] >= 100 {
                // A Zweckraumer (Spielhilfe design): 40 cargo, 2 hangars, some guns.
                sec.entry(13).or_default().push(format!(
                    "{},FRACHTER {},B,6,2,24,0,0,0,16,0,0,0,2",
                    h.number,
                    my_ships.len()
                ));
            }
        }
    }
    let _ = we;
    let mut out = format!(
        "MONAT: {}\n",
        crate::formulas::short_month(p, state.month + 1)
    );
    for (k, lines) in sec {
        let _ = writeln!(
            out,
            "[{} {}]",
            k,
            crate::orders::SECTION_NAMES[k as usize - 1]
        );
        let limit = p.order_limits[k as usize - 1];
        for l in lines.into_iter().take(limit) {
            let _ = writeln!(out, "{l}");
        }
    }
    out
}
