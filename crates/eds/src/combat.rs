//! Raumschlachten (rulebook Teil III, spec §4.4): who fights where, the combat
//! round (offence, division, salvos L→T→N→A with the shield matrix, explosions,
//! retreat), follow-up battles after flight, and where surviving fighters go.
//!
//! Design: a battle works directly on the state's ships; destroyed ships leave the
//! state at once. Fighters have no identity (§2.7), so a side's fighters are two
//! counts; a salvo walks the fighters alive at that moment, which is the same as
//! skipping the ones already destroyed. A battle is fought first ([`fight`],
//! returning a typed [`BattleOutcome`]: the sides as they began, every round's
//! hits, losses and flights, where the fighters went) and written afterwards
//! by `report::render_battle` (issue 23 item 4). Every draw follows the order
//! of spec §5.2 so that golden reports stay stable.

// Sides and weapon kinds are indices 0..2 and 0..4 into small fixed arrays.
#![allow(clippy::needless_range_loop)]

use crate::events::{Battle, Event};
use crate::formulas::{hits_from, offence, scatter, shield20, M20};
use crate::model::{RulerNr, ShipNr, State};
use arbitre_core::Rng;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// The 8 neighbour offsets in the fixed order of §5.2.
const NEIGHBOURS: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// A random in-map neighbouring point (misjumps and blind jumps, A-2).
pub fn random_neighbour(state: &State, x: i32, y: i32, rng: &mut Rng) -> (i32, i32) {
    let cands: Vec<(i32, i32)> = NEIGHBOURS
        .iter()
        .map(|(dx, dy)| (x + dx, y + dy))
        .filter(|(a, b)| state.in_map(*a, *b))
        .collect();
    if cands.is_empty() {
        return (x, y);
    }
    cands[rng.below(cands.len() as u64) as usize]
}

/// Battle numbering within the month.
#[derive(Default)]
pub struct BattleCounter {
    pub next: u32,
}

/// Rulers present at a point: ship owners plus the star owner if fighters are stationed.
fn present(state: &State, x: i32, y: i32) -> BTreeSet<RulerNr> {
    let mut p: BTreeSet<RulerNr> = state.ships_at(x, y).map(|s| s.owner).collect();
    if let Some(st) = state.star_at(x, y) {
        if let Some(o) = st.owner {
            if st.ljg + st.tjg > 0 {
                p.insert(o);
            }
        }
    }
    p
}

/// All points where units of a hostile pair stand together, ascending X then Y.
pub fn contested_points(state: &State) -> Vec<(i32, i32)> {
    let sp = state.spatial();
    let mut at: std::collections::BTreeMap<(i32, i32), BTreeSet<RulerNr>> =
        std::collections::BTreeMap::new();
    for (pt, ships) in &sp.ships {
        at.entry(*pt)
            .or_default()
            .extend(ships.iter().map(|k| state.ships[k].owner));
    }
    for s in state.stars.values().filter(|s| s.ljg + s.tjg > 0) {
        if let Some(o) = s.owner {
            at.entry((s.x, s.y)).or_default().insert(o);
        }
    }
    at.into_iter()
        .filter(|(_, p)| p.iter().any(|a| p.iter().any(|b| state.hostile(*a, *b))))
        .map(|(pt, _)| pt)
        .collect()
}

/// `resolve_point` of §4.4.1: fight until no hostile pair stands at P, following
/// every flight with its Anschlussgefecht at once.
#[allow(clippy::too_many_arguments)]
pub fn resolve_point(
    state: &mut State,
    x: i32,
    y: i32,
    cause: &str,
    month: u32,
    counter: &mut BattleCounter,
    rng: &mut Rng,
    events: &mut Vec<Event>,
) {
    loop {
        let p: Vec<RulerNr> = present(state, x, y).into_iter().collect();
        let mut pairs = Vec::new();
        for (i, a) in p.iter().enumerate() {
            for b in &p[i + 1..] {
                if state.hostile(*a, *b) {
                    pairs.push((*a, *b));
                }
            }
        }
        if pairs.is_empty() {
            return;
        }
        let pick = if pairs.len() == 1 {
            pairs[0]
        } else {
            pairs[rng.below(pairs.len() as u64) as usize]
        };
        let fled = battle(state, pick, x, y, cause, month, counter, rng, events);
        for (_, fx, fy) in fled {
            resolve_point(
                state,
                fx,
                fy,
                "Anschlussgefecht nach Rückzug",
                month,
                counter,
                rng,
                events,
            );
        }
    }
}

/// One ship of a side as the battle began.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShipAtStart {
    pub number: ShipNr,
    pub name: String,
    pub class: char,
}

/// One side of a battle as it began: its ships in ascending number, the
/// fighters it launched (`[LJg, TJg]`) and the weapon kinds it brought (L, T,
/// N, A: guns or shields of that kind, or fighters of that kind).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideAtStart {
    pub ruler: RulerNr,
    /// `"01 ALDEBARAN"`.
    pub label: String,
    pub ships: Vec<ShipAtStart>,
    pub fighters: [u32; 2],
    pub weapons: [bool; 4],
}

/// What happened to one ship in one round: listed only when it was hit,
/// destroyed or fled.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShipInRound {
    /// 0 (red) or 1 (blue).
    pub side: usize,
    pub number: ShipNr,
    pub name: String,
    pub class: char,
    pub hits: u32,
    pub destroyed: bool,
    pub fled: bool,
}

/// One combat round: the ships hit, the fighters each side lost
/// (`[side][LJg, TJg]`), and what each side has left after it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    pub number: u64,
    pub ships: Vec<ShipInRound>,
    pub fighters_lost: [[u32; 2]; 2],
    /// `[side]`: ships still at the point, and fighters `[LJg, TJg]`.
    pub standing: [(usize, [u32; 2]); 2],
}

/// Where a side's surviving fighters went after the battle (§4.4.6), each
/// as `[LJg, TJg]`; `None` when it had none left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FighterFate {
    pub hangars: [u32; 2],
    pub star: [u32; 2],
    pub lost: [u32; 2],
}

/// A whole battle (issue 23 item 4): [`battle`] fights it on the state and
/// returns it; [`crate::report::render_battle`] writes the Kampfbericht and
/// its one-line summary from it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleOutcome {
    pub number: u32,
    pub month: u32,
    pub cause: String,
    pub x: i32,
    pub y: i32,
    pub sides: [SideAtStart; 2],
    pub rounds: Vec<Round>,
    pub fighters: [Option<FighterFate>; 2],
    /// The ships that fled, in flight order, with their landing points.
    pub fled: Vec<(ShipNr, i32, i32)>,
}

/// One battle between two rulers at P. Returns the ships that fled, in flight order,
/// with their landing points.
#[allow(clippy::too_many_arguments)]
pub fn battle(
    state: &mut State,
    pair: (RulerNr, RulerNr),
    x: i32,
    y: i32,
    cause: &str,
    month: u32,
    counter: &mut BattleCounter,
    rng: &mut Rng,
    events: &mut Vec<Event>,
) -> Vec<(ShipNr, i32, i32)> {
    let outcome = fight(state, pair, x, y, cause, month, counter, rng);
    let (text, short) = crate::report::render_battle(&state.params, &outcome);
    events.push(Event::Battle(Battle {
        number: outcome.number,
        text,
        short,
        x,
        y,
        sides: [outcome.sides[0].ruler, outcome.sides[1].ruler],
        outcome: Some(Box::new(outcome.clone())),
    }));
    outcome.fled
}

/// Fights one battle on the state (every draw in the order of spec §5.2) and
/// returns what happened; writes no text.
#[allow(clippy::too_many_arguments)]
pub fn fight(
    state: &mut State,
    pair: (RulerNr, RulerNr),
    x: i32,
    y: i32,
    cause: &str,
    month: u32,
    counter: &mut BattleCounter,
    rng: &mut Rng,
) -> BattleOutcome {
    let p = state.params.clone();
    let sides = [pair.0.min(pair.1), pair.0.max(pair.1)];
    let star_nr = state.star_nr_at(x, y);
    // Units: ships (ascending) and launched fighters.
    let mut ships: [Vec<ShipNr>; 2] = [Vec::new(), Vec::new()];
    let mut fl = [[0u32; 2]; 2]; // [side][L/T] alive fighters
    let mut info: BTreeMap<ShipNr, ShipAtStart> = BTreeMap::new();
    let mut entered: BTreeSet<ShipNr> = BTreeSet::new();
    let mut weapons = [[false; 4]; 2];
    for s in 0..2 {
        let ids: Vec<ShipNr> = state
            .ships_at(x, y)
            .filter(|sh| sh.owner == sides[s])
            .map(|sh| sh.number)
            .collect();
        for id in &ids {
            let sh = state.ships.get_mut(id).expect("ship at point");
            fl[s][0] += sh.ljg;
            fl[s][1] += sh.tjg;
            sh.ljg = 0;
            sh.tjg = 0;
            if (1..=3).contains(&sh.r) && sh.hits >= sh.r as u32 {
                entered.insert(*id);
            }
            for (k, u) in weapons[s].iter_mut().enumerate() {
                *u |= sh.guns[k] + sh.shields[k] > 0;
            }
            info.insert(
                *id,
                ShipAtStart {
                    number: *id,
                    name: sh.name.clone(),
                    class: sh.class_letter(),
                },
            );
        }
        ships[s] = ids;
        if let Some(sn) = star_nr {
            let st = state.stars.get_mut(&sn).expect("star");
            if st.owner == Some(sides[s]) {
                fl[s][0] += st.ljg;
                fl[s][1] += st.tjg;
                st.ljg = 0;
                st.tjg = 0;
            }
        }
        weapons[s][0] |= fl[s][0] > 0;
        weapons[s][1] |= fl[s][1] > 0;
    }
    counter.next += 1;
    let number = counter.next;
    let at_start = |s: usize| SideAtStart {
        ruler: sides[s],
        label: format!("{:02} {}", sides[s], state.name_of(sides[s])),
        ships: ships[s].iter().map(|id| info[id].clone()).collect(),
        fighters: fl[s],
        weapons: weapons[s],
    };
    let start_sides = [at_start(0), at_start(1)];

    let mut rounds: Vec<Round> = Vec::new();
    let mut fled_out: Vec<(ShipNr, i32, i32)> = Vec::new();
    let mut r: u64 = 0;
    loop {
        r += 1;
        assert!(r <= 1000, "combat round counter above 1000");
        let alive = |ships: &[Vec<ShipNr>; 2], s: usize, state: &State| -> Vec<ShipNr> {
            ships[s]
                .iter()
                .copied()
                .filter(|id| state.ships.get(id).is_some_and(|sh| sh.x == x && sh.y == y))
                .collect()
        };
        let start_alive = [alive(&ships, 0, state), alive(&ships, 1, state)];
        let units = [
            start_alive[0].len() as u64 + (fl[0][0] + fl[0][1]) as u64,
            start_alive[1].len() as u64 + (fl[1][0] + fl[1][1]) as u64,
        ];
        let mut o = [[0u64; 4]; 2];
        for s in 0..2 {
            for w in 0..4 {
                o[s][w] = start_alive[s]
                    .iter()
                    .map(|id| offence(&state.ships[id], w))
                    .sum();
            }
            o[s][0] += fl[s][0] as u64;
            o[s][1] += fl[s][1] as u64;
        }
        let mut round_hits: BTreeMap<ShipNr, u32> = BTreeMap::new();
        let mut round_dead: BTreeSet<ShipNr> = BTreeSet::new();
        let mut round_fled: BTreeSet<ShipNr> = BTreeSet::new();
        let mut lost = [[0u32; 2]; 2];
        for w in 0..4 {
            for s in 0..2 {
                let d = 1 - s;
                if o[s][w] == 0 || units[d] == 0 {
                    continue;
                }
                let e = o[s][w] as f64 / units[d] as f64;
                for id in &start_alive[d] {
                    if round_dead.contains(id) {
                        continue;
                    }
                    let z = rng.unit_f64();
                    let energy = e * scatter(&p, z);
                    let sh = state.ships.get_mut(id).expect("alive ship");
                    let h = hits_from(energy, shield20(sh, w));
                    if h > 0 {
                        sh.hits += h;
                        *round_hits.entry(*id).or_default() += h;
                        if sh.hits >= p.hits_to_destroy {
                            round_dead.insert(*id);
                            state.ships.remove(id);
                        }
                    }
                }
                for t in 0..2 {
                    let n = fl[d][t];
                    let mut killed = 0;
                    for _ in 0..n {
                        let z = rng.unit_f64();
                        let u = rng.unit_f64();
                        let energy = e * scatter(&p, z) * u - 1.0;
                        if hits_from(energy, M20[w][t] as u64) >= 1 {
                            killed += 1;
                        }
                    }
                    fl[d][t] -= killed;
                    lost[d][t] += killed;
                }
            }
        }
        // Operating errors at the end of the round (F-20).
        for s in 0..2 {
            for id in &start_alive[s] {
                if round_dead.contains(id) {
                    continue;
                }
                if rng.chance(r * p.explosion_ship_bp, 10_000) {
                    let sh = state.ships.get_mut(id).expect("alive ship");
                    sh.hits += 1;
                    *round_hits.entry(*id).or_default() += 1;
                    if sh.hits >= p.hits_to_destroy {
                        round_dead.insert(*id);
                        state.ships.remove(id);
                    }
                }
            }
            for t in 0..2 {
                let n = fl[s][t];
                let mut killed = 0;
                for _ in 0..n {
                    if rng.chance(r * p.explosion_fighter_bp, 10_000) {
                        killed += 1;
                    }
                }
                fl[s][t] -= killed;
                lost[s][t] += killed;
            }
        }
        // Retreat (§4.4.3 step 5).
        for s in 0..2 {
            for id in &start_alive[s] {
                if round_dead.contains(id) {
                    continue;
                }
                let sh = &state.ships[id];
                if sh.home_base || sh.sp < 1 {
                    continue;
                }
                let rr = sh.r as u32;
                let reached = (1..=3).contains(&rr) && sh.hits >= rr;
                let flees = (rr == 0 && r == 1)
                    || (reached && round_hits.contains_key(id))
                    || (reached && entered.contains(id) && r == 1);
                if flees {
                    let (nx, ny) = random_neighbour(state, x, y, rng);
                    let sh = state.ships.get_mut(id).expect("alive ship");
                    sh.sp -= 1;
                    sh.x = nx;
                    sh.y = ny;
                    round_fled.insert(*id);
                    fled_out.push((*id, nx, ny));
                }
            }
        }
        let mut hit_ships = Vec::new();
        for s in 0..2 {
            for id in &start_alive[s] {
                let hits = round_hits.get(id).copied().unwrap_or(0);
                let destroyed = round_dead.contains(id);
                let fled = round_fled.contains(id);
                if hits == 0 && !destroyed && !fled {
                    continue;
                }
                hit_ships.push(ShipInRound {
                    side: s,
                    number: *id,
                    name: info[id].name.clone(),
                    class: info[id].class,
                    hits,
                    destroyed,
                    fled,
                });
            }
        }
        let now = [alive(&ships, 0, state), alive(&ships, 1, state)];
        rounds.push(Round {
            number: r,
            ships: hit_ships,
            fighters_lost: lost,
            standing: [(now[0].len(), fl[0]), (now[1].len(), fl[1])],
        });
        let left = [
            now[0].len() as u32 + fl[0][0] + fl[0][1],
            now[1].len() as u32 + fl[1][0] + fl[1][1],
        ];
        if left[0] == 0 || left[1] == 0 {
            // §4.4.6: surviving fighters to hangars, then to the own star, else lost.
            let mut fates = [None, None];
            for s in 0..2 {
                if fl[s][0] + fl[s][1] == 0 {
                    continue;
                }
                let mut order: Vec<ShipNr> = now[s]
                    .iter()
                    .copied()
                    .filter(|id| state.ships[id].jg > 0)
                    .collect();
                rng.shuffle(&mut order);
                let mut hang = [0u32; 2];
                for t in 0..2 {
                    loop {
                        let mut placed = false;
                        for id in &order {
                            if fl[s][t] == 0 {
                                break;
                            }
                            let sh = state.ships.get_mut(id).expect("survivor");
                            if sh.ljg + sh.tjg < sh.jg {
                                if t == 0 {
                                    sh.ljg += 1
                                } else {
                                    sh.tjg += 1
                                }
                                fl[s][t] -= 1;
                                hang[t] += 1;
                                placed = true;
                            }
                        }
                        if !placed || fl[s][t] == 0 {
                            break;
                        }
                    }
                }
                let mut on_star = [0u32; 2];
                if let Some(sn) = star_nr {
                    let st = state.stars.get_mut(&sn).expect("star");
                    if st.owner == Some(sides[s]) {
                        let room = [
                            p.fighter_cap.saturating_sub(st.ljg),
                            p.fighter_cap.saturating_sub(st.tjg),
                        ];
                        for t in 0..2 {
                            on_star[t] = fl[s][t].min(room[t]);
                            fl[s][t] -= on_star[t];
                        }
                        st.ljg += on_star[0];
                        st.tjg += on_star[1];
                    }
                }
                fates[s] = Some(FighterFate {
                    hangars: hang,
                    star: on_star,
                    lost: fl[s],
                });
                fl[s] = [0, 0];
            }
            return BattleOutcome {
                number,
                month,
                cause: cause.to_string(),
                x,
                y,
                sides: start_sides,
                rounds,
                fighters: fates,
                fled: fled_out,
            };
        }
    }
}
