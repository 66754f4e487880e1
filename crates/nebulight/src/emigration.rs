//! Phase 5: emigration, unloading of populations, and their conflicts
//! (spec 6.2; rulebook "L'émigration").
//!
//! Departures come from the start-of-phase snapshot and arrivals are capped at
//! L+10 with the room shared in proportion (decision AMB-18), so the two
//! players' orders give the same result in any interleaving. A neutral target
//! goes to the strictly largest contributor (AMB-19).

use crate::model::*;
use crate::orders::{Cargo, Order};
use crate::turn::{orders_for, partial, Ctx};
use std::collections::BTreeMap;

enum Source {
    World(WorldId),
    Fleet(FleetId),
}

struct Request {
    slot: Slot,
    line: usize,
    text: String,
    source: Source,
    target: WorldId,
    asked: u32,
    sized: u32,
    granted: u32,
}

pub fn emigration(ctx: &mut Ctx<'_, '_>) {
    let list = orders_for(ctx, |o| o.phase() == 5);
    let s = &mut *ctx.state;
    let p_start: BTreeMap<WorldId, u32> =
        s.worlds.iter().map(|(k, w)| (*k, w.population)).collect();
    let mut committed_p: BTreeMap<WorldId, u32> = BTreeMap::new();
    let mut committed_up: BTreeMap<WorldId, u32> = BTreeMap::new();
    let mut committed_cargo: BTreeMap<FleetId, u32> = BTreeMap::new();
    let mut reqs: Vec<Request> = Vec::new();
    for (slot, o) in list {
        match o.order {
            Order::Emigrate { from, qty, to } => {
                if !s.worlds.contains_key(&from) {
                    s.reject(slot, o.line, &o.text, format!("monde {from} inconnu"));
                    continue;
                }
                if !s.owns_world(slot, from) {
                    s.reject(
                        slot,
                        o.line,
                        &o.text,
                        format!("le monde {from} ne vous appartient pas"),
                    );
                    continue;
                }
                if !s.worlds.contains_key(&to) || !s.linked(from, to) {
                    s.reject(
                        slot,
                        o.line,
                        &o.text,
                        format!("{to} n'est pas relié à {from}"),
                    );
                    continue;
                }
                let up = s
                    .up_left(from)
                    .saturating_sub(*committed_up.get(&from).unwrap_or(&0));
                let p = p_start[&from].saturating_sub(*committed_p.get(&from).unwrap_or(&0));
                let r = qty.min(up).min(p);
                if r == 0 {
                    if qty > 0 {
                        s.reject(
                            slot,
                            o.line,
                            &o.text,
                            format!("ni UP ni population disponibles sur {from}"),
                        );
                    }
                    continue;
                }
                *committed_up.entry(from).or_default() += r;
                *committed_p.entry(from).or_default() += r;
                reqs.push(Request {
                    slot,
                    line: o.line,
                    text: o.text.to_string(),
                    source: Source::World(from),
                    target: to,
                    asked: qty,
                    sized: r,
                    granted: 0,
                });
            }
            Order::Unload {
                fleet,
                qty,
                cargo: Cargo::N,
            } => {
                let Some(fl) = s.fleets.get(&fleet) else {
                    s.reject(slot, o.line, &o.text, format!("flotte {fleet} inconnue"));
                    continue;
                };
                if fl.owner != Some(slot) {
                    s.reject(
                        slot,
                        o.line,
                        &o.text,
                        format!("la flotte {fleet} ne vous appartient pas"),
                    );
                    continue;
                }
                let w = fl.world;
                if !(s.owns_world(slot, w) || p_start[&w] == 0) {
                    s.reject(
                        slot,
                        o.line,
                        &o.text,
                        format!("débarquement interdit sur {w} (monde ennemi peuplé)"),
                    );
                    continue;
                }
                let left = fl
                    .cargo_n
                    .saturating_sub(*committed_cargo.get(&fleet).unwrap_or(&0));
                let asked = qty.unwrap_or(left);
                let r = asked.min(left);
                if r == 0 {
                    if asked > 0 || qty.is_none() {
                        s.reject(
                            slot,
                            o.line,
                            &o.text,
                            format!("la flotte {fleet} ne transporte aucune population"),
                        );
                    }
                    continue;
                }
                *committed_cargo.entry(fleet).or_default() += r;
                reqs.push(Request {
                    slot,
                    line: o.line,
                    text: o.text.to_string(),
                    source: Source::Fleet(fleet),
                    target: w,
                    asked,
                    sized: r,
                    granted: 0,
                });
            }
            _ => {}
        }
    }
    // Cap at arrival, target by target.
    let targets: Vec<WorldId> = {
        let mut t: Vec<WorldId> = reqs.iter().map(|r| r.target).collect();
        t.sort();
        t.dedup();
        t
    };
    for t in &targets {
        let w = &s.worlds[t];
        let total: u32 = reqs
            .iter()
            .filter(|r| r.target == *t)
            .map(|r| r.sized)
            .sum();
        let room = if w.black_hole {
            total
        } else {
            w.limit.saturating_add(10).saturating_sub(p_start[t])
        };
        if total <= room {
            for r in reqs.iter_mut().filter(|r| r.target == *t) {
                r.granted = r.sized;
            }
            continue;
        }
        for slot in 0..s.players.len() {
            let rp: u32 = reqs
                .iter()
                .filter(|r| r.target == *t && r.slot == slot)
                .map(|r| r.sized)
                .sum();
            let mut share = (u64::from(room) * u64::from(rp) / u64::from(total)) as u32;
            for r in reqs.iter_mut().filter(|r| r.target == *t && r.slot == slot) {
                r.granted = r.sized.min(share);
                share -= r.granted;
            }
        }
    }
    // Departures and arrivals.
    let mut brought: BTreeMap<(WorldId, Slot), u32> = BTreeMap::new();
    for r in &reqs {
        if r.granted < r.asked {
            s.reject(r.slot, r.line, &r.text, partial(r.granted, r.asked));
        }
        if r.granted == 0 {
            continue;
        }
        match r.source {
            Source::World(a) => {
                s.worlds.get_mut(&a).expect("checked").population -= r.granted;
                s.spend_up(a, r.granted);
            }
            Source::Fleet(f) => s.fleets.get_mut(&f).expect("checked").cargo_n -= r.granted,
        }
        let tw = s.worlds.get_mut(&r.target).expect("checked");
        if !tw.black_hole {
            tw.population += r.granted;
            *brought.entry((r.target, r.slot)).or_default() += r.granted;
        }
        s.plog(r.slot).seen.insert(r.target);
    }
    let sources: Vec<WorldId> = reqs
        .iter()
        .filter_map(|r| match r.source {
            Source::World(a) => Some(a),
            _ => None,
        })
        .collect();
    for a in sources {
        s.neutralise_if_empty(a);
    }
    // A neutral target goes to the strictly largest contributor.
    for t in targets {
        if s.worlds[&t].black_hole || s.worlds[&t].owner.is_some() {
            continue;
        }
        let mut best: Option<(Slot, u32)> = None;
        let mut tie = false;
        for slot in 0..s.players.len() {
            let b = *brought.get(&(t, slot)).unwrap_or(&0);
            if b == 0 {
                continue;
            }
            match best {
                Some((_, v)) if v == b => tie = true,
                Some((_, v)) if v > b => {}
                _ => {
                    best = Some((slot, b));
                    tie = false;
                }
            }
        }
        if let (Some((slot, _)), false) = (best, tie) {
            let w = s.worlds.get_mut(&t).expect("target");
            w.owner = Some(slot);
            w.counter = 0;
            s.wlog(t).acquired = true;
        }
    }
    crate::model::debug_invariants(ctx.state);
}
