//! A simple bot: it expands into neutral land, picks one weak neighbour as its
//! enemy once the map fills up, and marches spare troops to the frontier.
//!
//! It uses only what its player can see (fog of war, spec §4): public
//! ownership, areas and economic ratios, and troop counts in its own vision
//! set. It writes orders in the mail notation, ending with `READY`.

use crate::economy::required;
use crate::report::vision;
use crate::state::{Mark, State};
use crate::world::TerrId;
use arbitre_core::{PlayerId, Rng};
use std::collections::{BTreeMap, BTreeSet};

pub fn orders(state: &State, me: &PlayerId, rng: &mut Rng) -> String {
    let Some(pl) = state.players.get(me) else {
        return String::new();
    };
    if !pl.active() || state.over {
        return String::new();
    }
    let mut out: Vec<String> = Vec::new();
    let seen: BTreeSet<TerrId> = vision(state, me);
    let mine: BTreeSet<TerrId> = state.owned_by(me).into_iter().collect();
    let w = &state.world;

    // Diplomacy: once no neutral land touches us, pick the neighbour with the
    // fewest territories as the one enemy; everyone else is an ally.
    let neutral_near = mine.iter().any(|t| {
        w.territories[t]
            .neighbours
            .iter()
            .any(|n| w.get(n).map(|x| x.is_land()).unwrap_or(false) && state.owner(n).is_none())
    });
    let mut neighbours: BTreeSet<PlayerId> = BTreeSet::new();
    for t in &mine {
        for n in &w.territories[t].neighbours {
            if let Some(o) = state.owner(n) {
                if o != me && state.players[o].active() {
                    neighbours.insert(o.clone());
                }
            }
        }
    }
    let mut marks: BTreeMap<PlayerId, Mark> = pl.marks.clone();
    let current_enemy = pl
        .marks
        .iter()
        .find(|(q, m)| **m == Mark::Enemy && neighbours.contains(*q))
        .map(|(q, _)| q.clone());
    let enemy = if state.turn >= 3 && !neutral_near {
        current_enemy.or_else(|| {
            let mut v: Vec<(usize, PlayerId)> = neighbours
                .iter()
                .map(|q| (state.owned_by(q).len(), q.clone()))
                .collect();
            v.sort();
            let lowest = v.first().map(|x| x.0);
            let tied: Vec<PlayerId> = v
                .into_iter()
                .filter(|x| Some(x.0) == lowest)
                .map(|x| x.1)
                .collect();
            rng.pick(&tied).cloned()
        })
    } else {
        None
    };
    for q in state
        .players
        .keys()
        .filter(|q| *q != me && state.players[*q].active())
    {
        let want = if Some(q) == enemy.as_ref() {
            Mark::Enemy
        } else {
            Mark::Ally
        };
        if pl.mark(q) != want {
            out.push(format!(
                "{} {}",
                if want == Mark::Enemy { "ENEMY" } else { "ALLY" },
                q
            ));
            marks.insert(q.clone(), want);
        }
    }
    let hostile_owner = |t: &TerrId| match state.owner(t) {
        None => true,
        Some(o) => o != me && marks.get(o).copied() == Some(Mark::Enemy),
    };
    // Targets: land we do not own that we may capture.
    let targets: BTreeSet<TerrId> = w
        .land()
        .filter(|t| !mine.contains(&t.id) && hostile_owner(&t.id))
        .map(|t| t.id.clone())
        .collect();
    // Moves to the nearest target: one breadth-first search from all targets.
    let dist_to_target = {
        let mut best: BTreeMap<TerrId, u32> = targets.iter().map(|t| (t.clone(), 0)).collect();
        let mut q: std::collections::VecDeque<TerrId> = targets.iter().cloned().collect();
        while let Some(t) = q.pop_front() {
            let d = best[&t];
            for n in &w.territories[&t].neighbours {
                if w.passable(n) && !best.contains_key(n) {
                    best.insert(n.clone(), d + 1);
                    q.push_back(n.clone());
                }
            }
        }
        best
    };
    let cap = state.params.troops_capture_capacity;
    // Stacks already marching on a planned path are left to it.
    let marching: BTreeSet<&TerrId> = state
        .chains
        .iter()
        .filter(|c| &c.player == me)
        .map(|c| &c.route[c.next])
        .collect();
    for (t, ts) in &state.territories {
        let have = ts.troops_of(me);
        if have == 0 || marching.contains(t) {
            continue;
        }
        let supreme = ts.supremacy.get(me).copied().unwrap_or(true);
        let nbs: Vec<&TerrId> = w.territories[t]
            .neighbours
            .iter()
            .filter(|n| w.passable(n))
            .collect();
        if !supreme {
            if let Some(home) = nbs.iter().find(|n| mine.contains(**n)) {
                out.push(format!("MOVE ALL {t} -> {home}"));
            }
            continue;
        }
        // Hold a contested territory of ours: the enemy there suppresses it.
        if ts.owner.as_ref() == Some(me) && ts.troops.keys().any(|q| q != me) {
            continue;
        }
        // Keep a garrison at the capital once other players border us: losing
        // it stops recruitment.
        let garrison = if pl.capital.as_ref() == Some(t) && !neighbours.is_empty() {
            have.min(required(w.area(t), cap))
        } else {
            0
        };
        let mut left = have - garrison;
        let mut cands: Vec<(u64, &TerrId)> = nbs
            .iter()
            .filter(|n| targets.contains(**n))
            .map(|n| {
                let hostile: u64 = if seen.contains(*n) {
                    state
                        .terr(n)
                        .troops
                        .iter()
                        .filter(|(q, _)| *q != me)
                        .map(|(_, c)| *c)
                        .sum()
                } else {
                    0
                };
                (required(w.area(n), cap) + hostile + hostile / 2 + 10, *n)
            })
            .collect();
        cands.sort();
        for (need, n) in cands {
            if need <= left {
                let send = if left - need < need / 5 {
                    left
                } else {
                    need + (left - need) / 4
                };
                out.push(format!("MOVE {send} {t} -> {n}"));
                left -= send;
            }
        }
        if left == 0 {
            continue;
        }
        // March the rest one step closer to the nearest target, through our land.
        let here = dist_to_target.get(t).copied().unwrap_or(u32::MAX);
        let step = nbs
            .iter()
            .filter(|n| mine.contains(**n) || !w.get(n).map(|x| x.is_land()).unwrap_or(false))
            .filter(|n| dist_to_target.get(**n).copied().unwrap_or(u32::MAX) < here)
            .min_by_key(|n| {
                (
                    dist_to_target.get(**n).copied().unwrap_or(u32::MAX),
                    (**n).clone(),
                )
            });
        if let Some(n) = step {
            if here > 3 && state.terr(t).owner.as_ref() == Some(me) {
                // Far from any target: plan the whole march (a PATH order) to
                // the land next to the nearest target, through our own land.
                let mut cur = (*n).clone();
                while dist_to_target.get(&cur).copied().unwrap_or(0) > 1 {
                    let next = w.territories[&cur]
                        .neighbours
                        .iter()
                        .filter(|x| {
                            dist_to_target.get(*x).map(|d| d + 1)
                                == dist_to_target.get(&cur).copied()
                        })
                        .min();
                    match next {
                        Some(x) => cur = x.clone(),
                        None => break,
                    }
                }
                if crate::movement::plan_route(state, me, t, &cur, true).is_some() {
                    out.push(format!("PATH {left} {t} -> {cur}"));
                } else {
                    out.push(format!("MOVE {left} {t} -> {n}"));
                }
            } else if here > 1 || state.terr(t).owner.as_ref() != Some(me) {
                out.push(format!("MOVE {left} {t} -> {n}"));
            }
        }
    }
    out.push("READY".into());
    let mut s = out.join("\n");
    s.push('\n');
    s
}
