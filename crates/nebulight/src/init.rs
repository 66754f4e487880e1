//! Phase 1, "Initialisation": overpopulation deaths (spec 4 phase 1, 5.11, 7.7).
//!
//! Each population above the limit dies with probability 1/2: one draw per
//! surplus population, worlds in ascending number (the fixed draw order of 5.12).

use crate::model::WorldId;
use crate::turn::Ctx;

pub fn overpopulation(ctx: &mut Ctx<'_, '_>) {
    let ids: Vec<WorldId> = ctx.state.worlds.keys().copied().collect();
    for id in ids {
        let (p, l, bh) = {
            let w = &ctx.state.worlds[&id];
            (w.population, w.limit, w.black_hole)
        };
        if bh || p <= l {
            continue;
        }
        let mut deaths = 0;
        for _ in 0..(p - l) {
            if ctx.rng.chance(1, 2) {
                deaths += 1;
            }
        }
        if deaths > 0 {
            ctx.state.worlds.get_mut(&id).expect("world").population -= deaths;
            ctx.state.wlog(id).deaths += deaths;
            ctx.state.neutralise_if_empty(id);
        }
        // UP cannot exceed the population left (decision AMB-11).
        let p = ctx.state.worlds[&id].population;
        let owned = ctx.state.worlds[&id].owner.is_some();
        let l = ctx.state.wlog(id);
        l.up_left = if owned { l.up_left.min(p) } else { 0 };
    }
    crate::model::debug_invariants(ctx.state);
}
