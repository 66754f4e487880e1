//! Phases 8 to 11: unloading raw materials, ship transfers, loading raw
//! materials and populations, and the cargo check (spec 4.8–4.11, 4.9).
//!
//! Transfers are simultaneous (rulebook: "les transferts sont simultanés"):
//! each source's availability is fixed at the start of phase 9 and incoming
//! ships never add to it, so a ship moves at most once.

use crate::model::*;
use crate::orders::{Cargo, Container, Dest, Group, Order};
use crate::turn::{orders_for, partial, Ctx};
use std::collections::BTreeMap;

fn own_fleet(s: &mut NebState, slot: Slot, f: FleetId, line: usize, text: &str) -> Option<Fleet> {
    match s.fleets.get(&f) {
        None => {
            s.reject(slot, line, text, format!("flotte {f} inconnue"));
            None
        }
        Some(fl) if fl.owner != Some(slot) => {
            s.reject(
                slot,
                line,
                text,
                format!("la flotte {f} ne vous appartient pas"),
            );
            None
        }
        Some(fl) => Some(fl.clone()),
    }
}

/// Phase 8: `F_f D (x) MP`, on any world.
pub fn unload_mp(ctx: &mut Ctx<'_, '_>) {
    for (slot, o) in orders_for(ctx, |o| o.phase() == 8) {
        let Order::Unload { fleet, qty, .. } = o.order else {
            continue;
        };
        let s = &mut *ctx.state;
        let Some(fl) = own_fleet(s, slot, fleet, o.line, &o.text) else {
            continue;
        };
        let asked = qty.unwrap_or(fl.cargo_mp);
        let got = asked.min(fl.cargo_mp);
        if got == 0 {
            if asked > 0 || qty.is_none() {
                s.reject(
                    slot,
                    o.line,
                    &o.text,
                    format!("la flotte {fleet} ne transporte aucune MP"),
                );
            }
            continue;
        }
        if got < asked {
            s.reject(slot, o.line, &o.text, partial(got, asked));
        }
        s.fleets.get_mut(&fleet).expect("fleet").cargo_mp -= got;
        s.worlds.get_mut(&fl.world).expect("world").mp += got;
    }
}

/// Phase 9: simultaneous transfers, then the cargo check on every fleet.
pub fn transfers(ctx: &mut Ctx<'_, '_>) {
    let list = orders_for(ctx, |o| o.phase() == 9);
    let s = &mut *ctx.state;
    let mut avail: BTreeMap<Container, u32> = BTreeMap::new();
    for (id, w) in &s.worlds {
        avail.insert(Container::Group(*id, Group::Vi), w.vi);
        avail.insert(Container::Group(*id, Group::Vp), w.vp);
    }
    for (id, f) in &s.fleets {
        avail.insert(Container::Fleet(*id), f.vc);
    }
    let mut out: BTreeMap<Container, u32> = BTreeMap::new();
    let mut inc: BTreeMap<Container, u32> = BTreeMap::new();
    for (slot, o) in list {
        let Order::Transfer { from, qty, to } = o.order else {
            continue;
        };
        let world = match from {
            Container::Group(w, _) => {
                if !s.worlds.contains_key(&w) {
                    s.reject(slot, o.line, &o.text, format!("monde {w} inconnu"));
                    continue;
                }
                if !s.owns_world(slot, w) {
                    s.reject(
                        slot,
                        o.line,
                        &o.text,
                        format!("le monde {w} ne vous appartient pas"),
                    );
                    continue;
                }
                w
            }
            Container::Fleet(f) => match own_fleet(s, slot, f, o.line, &o.text) {
                Some(fl) => fl.world,
                None => continue,
            },
        };
        let dest = match to {
            Dest::Group(g) => Container::Group(world, g),
            Dest::Fleet(g) => match s.fleets.get(&g) {
                None => {
                    s.reject(slot, o.line, &o.text, format!("flotte {g} inconnue"));
                    continue;
                }
                Some(_) if Container::Fleet(g) == from => {
                    s.reject(
                        slot,
                        o.line,
                        &o.text,
                        "transfert d'une flotte vers elle-même",
                    );
                    continue;
                }
                Some(fl) if fl.world != world => {
                    s.reject(
                        slot,
                        o.line,
                        &o.text,
                        format!("la flotte {g} n'est pas sur {world}"),
                    );
                    continue;
                }
                Some(_) => Container::Fleet(g),
            },
        };
        let a = avail.entry(from).or_default();
        let moved = qty.min(*a);
        if moved == 0 {
            if qty > 0 {
                s.reject(slot, o.line, &o.text, "aucun vaisseau disponible");
            }
            continue;
        }
        if moved < qty {
            s.reject(slot, o.line, &o.text, partial(moved, qty));
        }
        *a -= moved;
        *out.entry(from).or_default() += moved;
        *inc.entry(dest).or_default() += moved;
    }
    let apply = |s: &mut NebState, c: Container, delta: i64| {
        let slot: &mut u32 = match c {
            Container::Group(w, Group::Vi) => &mut s.worlds.get_mut(&w).expect("world").vi,
            Container::Group(w, Group::Vp) => &mut s.worlds.get_mut(&w).expect("world").vp,
            Container::Fleet(f) => &mut s.fleets.get_mut(&f).expect("fleet").vc,
        };
        *slot = (i64::from(*slot) + delta) as u32;
    };
    for (c, n) in out {
        apply(s, c, -i64::from(n));
    }
    for (c, n) in inc {
        apply(s, c, i64::from(n));
    }
    let ids: Vec<FleetId> = s.fleets.keys().copied().collect();
    for f in ids {
        s.cargo_check(f);
    }
    crate::model::debug_invariants(ctx.state);
}

fn load(ctx: &mut Ctx<'_, '_>, cargo: Cargo) {
    let phase = if cargo == Cargo::Mp { 10 } else { 11 };
    for (slot, o) in orders_for(ctx, |o| o.phase() == phase) {
        let Order::Load { fleet, qty, .. } = o.order else {
            continue;
        };
        let s = &mut *ctx.state;
        let Some(fl) = own_fleet(s, slot, fleet, o.line, &o.text) else {
            continue;
        };
        if !s.owns_world(slot, fl.world) {
            s.reject(
                slot,
                o.line,
                &o.text,
                format!("le monde {} ne vous appartient pas", fl.world),
            );
            continue;
        }
        let stock = {
            let w = &s.worlds[&fl.world];
            if cargo == Cargo::Mp {
                w.mp
            } else {
                w.population
            }
        };
        let cap = fl.free_holds().min(stock);
        let got = qty.map_or(cap, |q| q.min(cap));
        if got == 0 {
            if qty != Some(0) {
                let why = if fl.free_holds() == 0 {
                    "aucune soute libre".to_string()
                } else {
                    format!("rien à charger sur {}", fl.world)
                };
                s.reject(slot, o.line, &o.text, why);
            }
            continue;
        }
        if let Some(q) = qty {
            if got < q {
                s.reject(slot, o.line, &o.text, partial(got, q));
            }
        }
        let w = s.worlds.get_mut(&fl.world).expect("world");
        let f = s.fleets.get_mut(&fleet).expect("fleet");
        if cargo == Cargo::Mp {
            w.mp -= got;
            f.cargo_mp += got;
        } else {
            w.population -= got;
            f.cargo_n += got;
        }
        s.neutralise_if_empty(fl.world);
    }
}

/// Phase 10: `F_f C (x) MP` on an owned world.
pub fn load_mp(ctx: &mut Ctx<'_, '_>) {
    load(ctx, Cargo::Mp)
}

/// Phase 11: `F_f C (x) N` on an owned world; P = 0 turns it neutral.
pub fn load_pop(ctx: &mut Ctx<'_, '_>) {
    load(ctx, Cargo::N)
}
