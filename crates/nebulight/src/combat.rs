//! Phase 12: fire OR move, all simultaneous (spec section 5; rulebook
//! "Les combats", "La fuite", "L'embuscade", "Les trous noirs").
//!
//! Sub-steps: (a) exclusive orders are checked, first valid one per firing
//! point wins (AMB-16), and counts are snapshot; (b) direct fire is computed
//! from the snapshot and losses are summed and capped (AMB-21); (c) fleets move
//! in ascending number, taking ambushes with doubled CA from every eligible
//! firing point of the worlds they pass through, and black holes (RNG);
//! (d) worlds left without population turn neutral.

use crate::model::*;
use crate::orders::{Group, Order, Shooter, Target};
use crate::tech;
use crate::turn::{orders_for, Ctx};
use std::collections::{BTreeMap, BTreeSet};

#[derive(Clone)]
struct Snap {
    fleets: BTreeMap<FleetId, Fleet>,
    worlds: BTreeMap<WorldId, World>,
}

fn ca_of(s: &NebState, owner: Owner) -> u32 {
    owner.map_or(tech::ca(1), |p| tech::ca(s.players[p].att.level))
}

fn cd_of(s: &NebState, owner: Owner) -> u32 {
    owner.map_or(tech::cd(1), |p| tech::cd(s.players[p].def.level))
}

#[derive(Default)]
struct Losses {
    vc: BTreeMap<FleetId, u64>,
    vi: BTreeMap<WorldId, u64>,
    vp: BTreeMap<WorldId, u64>,
    p: BTreeMap<WorldId, Vec<(Shooter, Slot, u64)>>,
    i: BTreeMap<WorldId, u64>,
}

pub fn combat(ctx: &mut Ctx<'_, '_>) {
    let list = orders_for(ctx, |o| o.phase() == 12);
    let s = &mut *ctx.state;
    let snap = Snap {
        fleets: s.fleets.clone(),
        worlds: s.worlds.clone(),
    };

    // (a) Exclusive orders.
    let mut taken: BTreeSet<Shooter> = BTreeSet::new();
    let mut fires: Vec<(Slot, Shooter, Target)> = Vec::new();
    let mut moves: BTreeMap<FleetId, Vec<WorldId>> = BTreeMap::new();
    // known(X) does not change while orders are checked: computed once per
    // player, not once per move (it is a walk over every discovered world,
    // and was the cost of a turn on large maps: issue 9).
    let mut known_of: Vec<Option<BTreeSet<WorldId>>> = vec![None; s.players.len()];
    for (slot, o) in list {
        let rej = |s: &mut NebState, why: String| s.reject(slot, o.line, &o.text, why);
        match &o.order {
            Order::Fire { shooter, target } => {
                let (world, count) = match *shooter {
                    Shooter::Fleet(f) => match s.fleets.get(&f) {
                        None => {
                            rej(s, format!("flotte {f} inconnue"));
                            continue;
                        }
                        Some(fl) if fl.owner != Some(slot) => {
                            rej(s, format!("la flotte {f} ne vous appartient pas"));
                            continue;
                        }
                        Some(fl) => (fl.world, fl.vc),
                    },
                    Shooter::Group(w, g) => match s.worlds.get(&w) {
                        None => {
                            rej(s, format!("monde {w} inconnu"));
                            continue;
                        }
                        Some(x) if x.owner != Some(slot) => {
                            rej(s, format!("le monde {w} ne vous appartient pas"));
                            continue;
                        }
                        Some(x) => (w, if g == Group::Vi { x.vi } else { x.vp }),
                    },
                };
                if count == 0 {
                    rej(s, "aucun vaisseau pour tirer".into());
                    continue;
                }
                if let Target::Fleet(g) = target {
                    let ok = s.fleets.get(g).is_some_and(|t| t.world == world)
                        && s.log.fleets.get(g).is_some_and(|l| l.world_start == world);
                    if !ok || Shooter::Fleet(*g) == *shooter {
                        rej(
                            s,
                            format!("la flotte {g} n'était pas sur {world} au début du tour"),
                        );
                        continue;
                    }
                }
                if taken.contains(shooter) {
                    rej(s, "ordre exclusif déjà donné".into());
                    continue;
                }
                taken.insert(*shooter);
                fires.push((slot, *shooter, *target));
            }
            Order::Move { fleet, path } => {
                let Some(fl) = s.fleets.get(fleet).cloned() else {
                    rej(s, format!("flotte {fleet} inconnue"));
                    continue;
                };
                if fl.owner != Some(slot) {
                    rej(s, format!("la flotte {fleet} ne vous appartient pas"));
                    continue;
                }
                if fl.vc == 0 {
                    rej(s, format!("la flotte {fleet} n'a aucun VC"));
                    continue;
                }
                let known = known_of[slot].get_or_insert_with(|| s.known(slot));
                let mut prev = fl.world;
                let mut bad = None;
                for w in path {
                    if !s.worlds.contains_key(w) || !s.linked(prev, *w) {
                        bad = Some(format!("{w} n'est pas relié à {prev}"));
                        break;
                    }
                    if s.options.enforce_known_worlds && !known.contains(w) {
                        bad = Some(format!("{w} vous est inconnu"));
                        break;
                    }
                    prev = *w;
                }
                if let Some(why) = bad {
                    rej(s, why);
                    continue;
                }
                if taken.contains(&Shooter::Fleet(*fleet)) {
                    rej(s, "ordre exclusif déjà donné".into());
                    continue;
                }
                let dep = s.players[slot].dep.level as usize;
                let mut path = path.clone();
                if path.len() > dep {
                    path.truncate(dep);
                    rej(s, format!("chemin réduit à {dep} mondes (DEP {dep})"));
                }
                taken.insert(Shooter::Fleet(*fleet));
                moves.insert(*fleet, path);
            }
            _ => {}
        }
    }

    // (b) Direct fire from the snapshot.
    let mut loss = Losses::default();
    for (slot, shooter, target) in &fires {
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
                    moves.contains_key(g),
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
        match *shooter {
            Shooter::Fleet(f) => s.flog(f).mark = Some(mark),
            Shooter::Group(w, Group::Vi) => s.wlog(w).vi_mark = Some(mark),
            Shooter::Group(w, Group::Vp) => s.wlog(w).vp_mark = Some(mark),
        }
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

    // (c) Movement, ambushes and black holes.
    let mut ambushers: BTreeMap<WorldId, Vec<(Shooter, Owner, u32)>> = BTreeMap::new();
    for (f, fl) in &snap.fleets {
        if fl.vc > 0 && !taken.contains(&Shooter::Fleet(*f)) {
            ambushers
                .entry(fl.world)
                .or_default()
                .push((Shooter::Fleet(*f), fl.owner, fl.vc));
        }
    }
    for (w, x) in &snap.worlds {
        for (g, n) in [(Group::Vi, x.vi), (Group::Vp, x.vp)] {
            if n > 0 && !taken.contains(&Shooter::Group(*w, g)) {
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
    for (f, path) in &moves {
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
                let pct = ctx.rng.range(0, 100) as u64;
                let lost = (u64::from(vc) * pct / 100) as u32;
                s.fleets.get_mut(f).expect("fleet").vc -= lost;
                s.cargo_check(*f);
                let d = landing[ctx.rng.below(landing.len() as u64) as usize];
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
                match amb {
                    Shooter::Fleet(a) => s.flog(a).mark = Some(Mark::Ambush),
                    Shooter::Group(x, Group::Vi) => s.wlog(x).vi_mark = Some(Mark::Ambush),
                    Shooter::Group(x, Group::Vp) => s.wlog(x).vp_mark = Some(Mark::Ambush),
                }
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

    // (d) Worlds left without population.
    let ids: Vec<WorldId> = s.worlds.keys().copied().collect();
    for w in ids {
        s.neutralise_if_empty(w);
    }
    crate::model::debug_invariants(ctx.state);
}
