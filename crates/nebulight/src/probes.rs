//! Phase 2, probes (spec 4 phase 2, orders #1–3; rulebook "Les sondes").
//!
//! A probe costs one ship that was there at the start of the turn (phase 2
//! runs before any construction or transfer, so current counts are those).

use crate::orders::{Container, Group, Order};
use crate::turn::{orders_for, Ctx};

pub fn probes(ctx: &mut Ctx<'_, '_>) {
    for (slot, o) in orders_for(ctx, |o| matches!(o, Order::Probe { .. })) {
        let Order::Probe { from, target } = o.order else {
            continue;
        };
        let s = &mut *ctx.state;
        let origin = match from {
            Container::Group(w, _) => w,
            Container::Fleet(f) => match s.fleets.get(&f) {
                Some(fl) => fl.world,
                None => {
                    s.reject(slot, o.line, &o.text, format!("flotte {f} inconnue"));
                    continue;
                }
            },
        };
        let owned = match from {
            Container::Group(w, _) => s.owns_world(slot, w),
            Container::Fleet(f) => s.owns_fleet(slot, f),
        };
        if !owned {
            let what = match from {
                Container::Group(w, _) => format!("le monde {w}"),
                Container::Fleet(f) => format!("la flotte {f}"),
            };
            s.reject(
                slot,
                o.line,
                &o.text,
                format!("{what} ne vous appartient pas"),
            );
            continue;
        }
        if !s.worlds.contains_key(&target) || !s.linked(origin, target) {
            s.reject(
                slot,
                o.line,
                &o.text,
                format!("{target} n'est pas relié à {origin}"),
            );
            continue;
        }
        let ships = match from {
            Container::Group(w, Group::Vi) => &mut s.worlds.get_mut(&w).expect("world").vi,
            Container::Group(w, Group::Vp) => &mut s.worlds.get_mut(&w).expect("world").vp,
            Container::Fleet(f) => &mut s.fleets.get_mut(&f).expect("fleet").vc,
        };
        if *ships == 0 {
            s.reject(slot, o.line, &o.text, "plus aucun vaisseau pour sonder");
            continue;
        }
        *ships -= 1;
        s.plog(slot).seen.insert(target);
        if let Container::Fleet(f) = from {
            s.cargo_check(f);
        }
    }
    crate::model::debug_invariants(ctx.state);
}
