//! Phase 12: fire OR move, all simultaneous (spec section 5; rulebook
//! "Les combats", "La fuite", "L'embuscade", "Les trous noirs").
//!
//! Sub-steps: (a) exclusive orders are checked, first valid one per firing
//! point wins (AMB-16), and counts are snapshot; (b) direct fire is computed
//! from the snapshot and losses are summed and capped (AMB-21); (c) fleets move
//! in ascending number, taking ambushes with doubled CA from every eligible
//! firing point of the worlds they pass through, and black holes (RNG);
//! (d) worlds left without population turn neutral.
//!
//! Outcomes before text (issue 23 item 4): (a) returns a typed [`Plan`]
//! (fires, moves, [`Refusal`]s, worded by `report.rs`), (b) typed [`Losses`]
//! and marks, both computed without touching the state; they are then
//! written in one place each (`apply_fire`, the log), and the report module
//! words the log.

use crate::model::*;
use crate::orders::{Group, Order, Shooter, Target};
use crate::tech;
use crate::turn::{orders_for, Ctx};
use arbitre_core::Located;
use arbitre_core::Rng;
use std::collections::{BTreeMap, BTreeSet};

/// The fleets and worlds as phase 12 began: all direct fire is worked out
/// from it (AMB-21).
#[derive(Clone)]
pub struct Snap {
    pub fleets: BTreeMap<FleetId, Fleet>,
    pub worlds: BTreeMap<WorldId, World>,
}

fn ca_of(s: &NebState, owner: Owner) -> u32 {
    owner.map_or(tech::ca(1), |p| tech::ca(s.players[p].att.level))
}

fn cd_of(s: &NebState, owner: Owner) -> u32 {
    owner.map_or(tech::cd(1), |p| tech::cd(s.players[p].def.level))
}

/// Why an order of phase 12 is refused, or (for `PathCut`) cut short; the
/// words are `report.rs`'s (`impl Display for Refusal`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    UnknownFleet(FleetId),
    NotYourFleet(FleetId),
    UnknownWorld(WorldId),
    NotYourWorld(WorldId),
    NoShips,
    /// The target fleet was not on the shooter's world when the turn began.
    TargetAbsent {
        fleet: FleetId,
        world: WorldId,
    },
    AlreadyOrdered,
    EmptyFleet(FleetId),
    NotLinked {
        to: WorldId,
        from: WorldId,
    },
    UnknownToYou(WorldId),
    /// The path was longer than DEP: the move goes ahead on its first `DEP` worlds.
    PathCut(u32),
}

/// One refused (or cut) order of phase 12, with the order line it answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    pub slot: Slot,
    pub line: usize,
    pub text: String,
    pub why: Refusal,
}

/// What the exclusive orders of phase 12 come to (sub-step a).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    /// Valid fire orders, in order: (player, shooter, target).
    pub fires: Vec<(Slot, Shooter, Target)>,
    /// Valid moves by fleet, paths already cut to DEP.
    pub moves: BTreeMap<FleetId, Vec<WorldId>>,
    /// Firing points with an exclusive order (they do not ambush).
    pub taken: BTreeSet<Shooter>,
    pub refused: Vec<Refused>,
}

/// The losses that direct fire inflicts, summed over every shot before any
/// is applied (AMB-21), and the mark each shooter leaves (sub-step b).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Losses {
    pub vc: BTreeMap<FleetId, u64>,
    pub vi: BTreeMap<WorldId, u64>,
    pub vp: BTreeMap<WorldId, u64>,
    /// Population losses by world, shot by shot (shooter, player, kills).
    pub p: BTreeMap<WorldId, Vec<(Shooter, Slot, u64)>>,
    pub i: BTreeMap<WorldId, u64>,
    pub marks: Vec<(Shooter, Mark)>,
}

/// Phase 12: checks the exclusive orders, fires, moves; every step is decided
/// as a value first (issue 23 item 4) and written into the state and the
/// turn's log in one place each; the report module words the log.
pub fn combat(ctx: &mut Ctx<'_, '_>) {
    let list = orders_for(ctx, |o| o.phase() == 12);
    let s = &mut *ctx.state;
    let snap = Snap {
        fleets: s.fleets.clone(),
        worlds: s.worlds.clone(),
    };
    let plan = check_orders(s, &list);
    for r in &plan.refused {
        s.reject(r.slot, r.line, &r.text, r.why.to_string());
    }
    let loss = direct_fire(s, &snap, &plan);
    apply_fire(s, &loss);
    move_fleets(s, ctx.rng, &snap, &plan);
    // (d) Worlds left without population.
    let ids: Vec<WorldId> = s.worlds.keys().copied().collect();
    for w in ids {
        s.neutralise_if_empty(w);
    }
    crate::model::debug_invariants(ctx.state);
}

/// (a) Exclusive orders: the first valid one per firing point wins (AMB-16).
pub fn check_orders(s: &NebState, list: &[(Slot, Located<Order>)]) -> Plan {
    let mut plan = Plan::default();
    // known(X) does not change while orders are checked: computed once per
    // player, not once per move (it is a walk over every discovered world,
    // and was the cost of a turn on large maps: issue 9).
    let mut known_of: Vec<Option<BTreeSet<WorldId>>> = vec![None; s.players.len()];
    for (slot, o) in list {
        let slot = *slot;
        let mut refuse = |why: Refusal| {
            plan.refused.push(Refused {
                slot,
                line: o.line,
                text: o.text.to_string(),
                why,
            })
        };
        match &o.order {
            Order::Fire { shooter, target } => {
                let (world, count) = match *shooter {
                    Shooter::Fleet(f) => match s.fleets.get(&f) {
                        None => {
                            refuse(Refusal::UnknownFleet(f));
                            continue;
                        }
                        Some(fl) if fl.owner != Some(slot) => {
                            refuse(Refusal::NotYourFleet(f));
                            continue;
                        }
                        Some(fl) => (fl.world, fl.vc),
                    },
                    Shooter::Group(w, g) => match s.worlds.get(&w) {
                        None => {
                            refuse(Refusal::UnknownWorld(w));
                            continue;
                        }
                        Some(x) if x.owner != Some(slot) => {
                            refuse(Refusal::NotYourWorld(w));
                            continue;
                        }
                        Some(x) => (w, if g == Group::Vi { x.vi } else { x.vp }),
                    },
                };
                if count == 0 {
                    refuse(Refusal::NoShips);
                    continue;
                }
                if let Target::Fleet(g) = target {
                    let ok = s.fleets.get(g).is_some_and(|t| t.world == world)
                        && s.log.fleets.get(g).is_some_and(|l| l.world_start == world);
                    if !ok || Shooter::Fleet(*g) == *shooter {
                        refuse(Refusal::TargetAbsent { fleet: *g, world });
                        continue;
                    }
                }
                if plan.taken.contains(shooter) {
                    refuse(Refusal::AlreadyOrdered);
                    continue;
                }
                plan.taken.insert(*shooter);
                plan.fires.push((slot, *shooter, *target));
            }
            Order::Move { fleet, path } => {
                let Some(fl) = s.fleets.get(fleet) else {
                    refuse(Refusal::UnknownFleet(*fleet));
                    continue;
                };
                if fl.owner != Some(slot) {
                    refuse(Refusal::NotYourFleet(*fleet));
                    continue;
                }
                if fl.vc == 0 {
                    refuse(Refusal::EmptyFleet(*fleet));
                    continue;
                }
                let known = known_of[slot].get_or_insert_with(|| s.known(slot));
                let mut prev = fl.world;
                let mut bad = None;
                for w in path {
                    if !s.worlds.contains_key(w) || !s.linked(prev, *w) {
                        bad = Some(Refusal::NotLinked { to: *w, from: prev });
                        break;
                    }
                    if s.options.enforce_known_worlds && !known.contains(w) {
                        bad = Some(Refusal::UnknownToYou(*w));
                        break;
                    }
                    prev = *w;
                }
                if let Some(why) = bad {
                    refuse(why);
                    continue;
                }
                if plan.taken.contains(&Shooter::Fleet(*fleet)) {
                    refuse(Refusal::AlreadyOrdered);
                    continue;
                }
                let dep = s.players[slot].dep.level;
                let mut path = path.to_vec();
                if path.len() > dep as usize {
                    path.truncate(dep as usize);
                    refuse(Refusal::PathCut(dep));
                }
                plan.taken.insert(Shooter::Fleet(*fleet));
                plan.moves.insert(*fleet, path);
            }
            _ => {}
        }
    }
    plan
}

/// (b) Direct fire, every shot worked out from the snapshot.
pub fn direct_fire(s: &NebState, snap: &Snap, plan: &Plan) -> Losses {
    let mut loss = Losses::default();
    for (slot, shooter, target) in &plan.fires {
        let (world, n, mark_owner) = match *shooter {
            Shooter::Fleet(f) => (
                snap.fleets[&f].world,
                snap.fleets[&f].vc,
                snap.fleets[&f].owner,
            ),
            Shooter::Group(w, Group::Vi) => (w, snap.worlds[&w].vi, snap.worlds[&w].owner),
            Shooter::Group(w, Group::Vp) => (w, snap.worlds[&w].vp, snap.worlds[&w].owner),
        };
        let t = tech::hits(n, ca_of(s, mark_owner), false);
        let sw = &snap.worlds[&world];
        let mark = match target {
            Target::Fleet(g) => {
                let tf = &snap.fleets[g];
                let d = tech::damage(
                    t,
                    cd_of(s, tf.owner),
                    Some((tf.vc, tf.cargo_mp + tf.cargo_n)),
                    plan.moves.contains_key(g),
                );
                *loss.vc.entry(*g).or_default() += d;
                Mark::Fleet(*g)
            }
            other => {
                let d = tech::damage(t, cd_of(s, sw.owner), None, false);
                let (vi, vp) = (u64::from(sw.vi), u64::from(sw.vp));
                match other {
                    Target::M => {
                        let dd = d.min(vi + vp);
                        let vil = (dd * vi).checked_div(vi + vp).unwrap_or(0);
                        *loss.vi.entry(world).or_default() += vil;
                        *loss.vp.entry(world).or_default() += dd - vil;
                        Mark::M
                    }
                    Target::P => {
                        let vpl = d.min(vp);
                        *loss.vp.entry(world).or_default() += vpl;
                        let pl = (d - vpl).min(u64::from(sw.population));
                        loss.p.entry(world).or_default().push((*shooter, *slot, pl));
                        Mark::P
                    }
                    Target::I => {
                        let vil = d.min(vi);
                        *loss.vi.entry(world).or_default() += vil;
                        *loss.i.entry(world).or_default() +=
                            (d - vil).min(u64::from(sw.industries));
                        Mark::I
                    }
                    Target::N => {
                        let pl = d.min(u64::from(sw.population));
                        loss.p.entry(world).or_default().push((*shooter, *slot, pl));
                        Mark::N
                    }
                    Target::Fleet(_) => unreachable!(),
                }
            }
        };
        loss.marks.push((*shooter, mark));
    }
    loss
}

fn set_mark(s: &mut NebState, shooter: Shooter, mark: Mark) {
    match shooter {
        Shooter::Fleet(f) => s.flog(f).mark = Some(mark),
        Shooter::Group(w, Group::Vi) => s.wlog(w).vi_mark = Some(mark),
        Shooter::Group(w, Group::Vp) => s.wlog(w).vp_mark = Some(mark),
    }
}

/// Writes the losses of direct fire, capped at what each target has.
fn apply_fire(s: &mut NebState, loss: &Losses) {
    for (shooter, mark) in &loss.marks {
        set_mark(s, *shooter, *mark);
    }
    for (f, l) in &loss.vc {
        let fl = s.fleets.get_mut(f).expect("fleet");
        fl.vc -= (*l).min(u64::from(fl.vc)) as u32;
        s.cargo_check(*f);
    }
    for (w, l) in &loss.vi {
        let x = s.worlds.get_mut(w).expect("world");
        x.vi -= (*l).min(u64::from(x.vi)) as u32;
    }
    for (w, l) in &loss.vp {
        let x = s.worlds.get_mut(w).expect("world");
        x.vp -= (*l).min(u64::from(x.vp)) as u32;
    }
    for (w, l) in &loss.i {
        let x = s.worlds.get_mut(w).expect("world");
        x.industries -= (*l).min(u64::from(x.industries)) as u32;
    }
    for (w, shots) in &loss.p {
        // Charge the kills in ascending order (fleets by number, then the VP
        // group) until the population is used up (5.4 step 4).
        let mut shots = shots.clone();
        shots.sort_by_key(|(sh, _, _)| *sh);
        let mut left = u64::from(s.worlds[w].population);
        let mut killed = 0u64;
        for (_, slot, pl) in shots {
            let k = pl.min(left);
            left -= k;
            killed += k;
            s.plog(slot).kills += k as u32;
        }
        s.worlds.get_mut(w).expect("world").population -= killed as u32;
        s.wlog(*w).deaths += killed as u32;
    }
}

/// (c) Movement, ambushes and black holes, fleet by fleet in ascending number.
fn move_fleets(s: &mut NebState, rng: &mut Rng, snap: &Snap, plan: &Plan) {
    let mut ambushers: BTreeMap<WorldId, Vec<(Shooter, Owner, u32)>> = BTreeMap::new();
    for (f, fl) in &snap.fleets {
        if fl.vc > 0 && !plan.taken.contains(&Shooter::Fleet(*f)) {
            ambushers
                .entry(fl.world)
                .or_default()
                .push((Shooter::Fleet(*f), fl.owner, fl.vc));
        }
    }
    for (w, x) in &snap.worlds {
        for (g, n) in [(Group::Vi, x.vi), (Group::Vp, x.vp)] {
            if n > 0 && !plan.taken.contains(&Shooter::Group(*w, g)) {
                ambushers
                    .entry(*w)
                    .or_default()
                    .push((Shooter::Group(*w, g), x.owner, n));
            }
        }
    }
    // Where a black hole may throw a fleet: any world that is not a black hole,
    // in ascending order, one drawn uniformly (AMB-26).
    let landing: Vec<WorldId> = s
        .worlds
        .iter()
        .filter(|(_, w)| !w.black_hole)
        .map(|(k, _)| *k)
        .collect();
    for (f, path) in &plan.moves {
        let fl = s.fleets[f].clone();
        let owner = fl.owner.expect("moving fleets are owned");
        if fl.vc == 0 {
            // Intercepted at its start world (5.6): no move, no trace.
            continue;
        }
        let start = fl.world;
        s.wlog(start).traces.push(Trace {
            fleet: *f,
            owner,
            from: None,
            to: path[0],
        });
        let mut prev = start;
        for (i, w) in path.iter().enumerate() {
            s.plog(owner).seen.insert(*w);
            if s.worlds[w].black_hole {
                let vc = s.fleets[f].vc;
                let pct = rng.range(0, 100) as u64;
                let lost = (u64::from(vc) * pct / 100) as u32;
                s.fleets.get_mut(f).expect("fleet").vc -= lost;
                s.cargo_check(*f);
                let d = landing[rng.below(landing.len() as u64) as usize];
                s.fleets.get_mut(f).expect("fleet").world = d;
                s.flog(*f).arrived_from = Some(*w);
                s.plog(owner).seen.insert(d);
                break;
            }
            if i + 1 == path.len() {
                s.fleets.get_mut(f).expect("fleet").world = *w;
                s.flog(*f).arrived_from = Some(prev);
                break;
            }
            // Passing through: every eligible firing point ambushes.
            let (vc, cargo) = {
                let x = &s.fleets[f];
                (x.vc, x.cargo_mp + x.cargo_n)
            };
            let mut dmg = 0u64;
            for (amb, amb_owner, n) in ambushers.get(w).cloned().unwrap_or_default() {
                if amb_owner == Some(owner) {
                    continue;
                }
                let t = tech::hits(n, ca_of(s, amb_owner), true);
                dmg += tech::damage(t, cd_of(s, Some(owner)), Some((vc, cargo)), false);
                set_mark(s, amb, Mark::Ambush);
            }
            let fm = s.fleets.get_mut(f).expect("fleet");
            fm.vc -= dmg.min(u64::from(fm.vc)) as u32;
            s.cargo_check(*f);
            if s.fleets[f].vc == 0 {
                s.fleets.get_mut(f).expect("fleet").world = *w;
                s.flog(*f).arrived_from = Some(prev);
                break;
            }
            s.wlog(*w).traces.push(Trace {
                fleet: *f,
                owner,
                from: Some(prev),
                to: path[i + 1],
            });
            prev = *w;
        }
    }
}
