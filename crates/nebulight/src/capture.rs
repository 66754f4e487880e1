//! Phase 13: captures, world by world (spec 6.1; rulebook "Les captures").
//!
//! The three cases are applied literally, including decision AMB-50: a
//! player's own empty fleet turns neutral where nobody, or several owners,
//! have ships.

use crate::model::*;
use crate::turn::Ctx;
use std::collections::{BTreeMap, BTreeSet};

pub fn captures(ctx: &mut Ctx<'_, '_>) {
    let s = &mut *ctx.state;
    let ids: Vec<WorldId> = s
        .worlds
        .iter()
        .filter(|(_, w)| !w.black_hole)
        .map(|(k, _)| *k)
        .collect();
    // Fleets only change owner here, never world: each world's fleets are
    // indexed once (issue 9: a scan of every fleet per world made this phase
    // O(worlds × fleets) on large maps). Ascending fleet order is kept.
    let mut at: BTreeMap<WorldId, Vec<FleetId>> = BTreeMap::new();
    for (k, f) in &s.fleets {
        at.entry(f.world).or_default().push(*k);
    }
    for w in ids {
        let here: Vec<FleetId> = at.remove(&w).unwrap_or_default();
        let mut owners: BTreeSet<Owner> = BTreeSet::new();
        for f in &here {
            if s.fleets[f].vc > 0 {
                owners.insert(s.fleets[f].owner);
            }
        }
        let world = &s.worlds[&w];
        if world.vi + world.vp > 0 {
            owners.insert(world.owner);
        }
        let empties: Vec<FleetId> = here
            .iter()
            .copied()
            .filter(|f| s.fleets[f].vc == 0)
            .collect();
        let new_fleet_owner: Owner = if owners.len() == 1 {
            *owners.iter().next().expect("one")
        } else {
            None
        };
        if owners.len() >= 2 {
            let x = s.worlds.get_mut(&w).expect("world");
            if x.vi + x.vp == 0 && x.owner.is_some() {
                x.owner = None;
                x.counter = 0;
            }
        } else if owners.len() == 1 {
            let x = s.worlds.get_mut(&w).expect("world");
            if x.population >= 1 && x.owner != new_fleet_owner {
                x.owner = new_fleet_owner;
                x.counter = 0;
                if new_fleet_owner.is_some() {
                    s.wlog(w).acquired = true;
                }
            }
        }
        for f in empties {
            let fl = s.fleets.get_mut(&f).expect("fleet");
            if fl.owner != new_fleet_owner {
                fl.owner = new_fleet_owner;
                if new_fleet_owner.is_some() {
                    s.flog(f).acquired = true;
                }
            }
        }
    }
    crate::model::debug_invariants(ctx.state);
}
