//! Phase 14, "mise au point" (spec 4 phase 14, 7.1–7.6), then the turn's
//! points (section 8) and what each player has discovered (9.13).

use crate::model::*;
use crate::turn::Ctx;
use crate::visibility;
use std::collections::BTreeMap;

/// UP for next turn (7.1): `min(I, P, MP)` less the industries paralysed by
/// foreign VC above the owner's `VC + 2·VI + VP` (7.2, AMB-12). Neutral: 0.
pub fn compute_up(s: &NebState, w: WorldId) -> u32 {
    let here: Vec<(Owner, u32)> = s
        .fleets
        .values()
        .filter(|f| f.world == w)
        .map(|f| (f.owner, f.vc))
        .collect();
    up_with(&s.worlds[&w], &here)
}

/// Owner and VC of the fleets of every world, in one pass over the fleets:
/// a pass over every world then costs O(worlds + fleets), where calling
/// [`compute_up`] for each was O(worlds × fleets) (issue 9).
pub fn fleets_by_world(s: &NebState) -> BTreeMap<WorldId, Vec<(Owner, u32)>> {
    let mut m: BTreeMap<WorldId, Vec<(Owner, u32)>> = BTreeMap::new();
    for f in s.fleets.values() {
        m.entry(f.world).or_default().push((f.owner, f.vc));
    }
    m
}

/// [`compute_up`] for a world given the fleets standing on it.
pub fn up_with(world: &World, fleets: &[(Owner, u32)]) -> u32 {
    let Some(owner) = world.owner else { return 0 };
    if world.black_hole {
        return 0;
    }
    let base = world.industries.min(world.population).min(world.mp);
    let mut own = world.vi.saturating_mul(2).saturating_add(world.vp);
    let mut enemy: u32 = 0;
    for (o, vc) in fleets {
        if *o == Some(owner) {
            own = own.saturating_add(*vc);
        } else {
            enemy = enemy.saturating_add(*vc);
        }
    }
    base.saturating_sub(enemy.saturating_sub(own))
}

pub fn update(ctx: &mut Ctx<'_, '_>) {
    let s = &mut *ctx.state;
    let ids: Vec<WorldId> = s
        .worlds
        .iter()
        .filter(|(_, w)| !w.black_hole)
        .map(|(k, _)| *k)
        .collect();
    for id in &ids {
        let log = s.log.worlds.get(id).cloned().unwrap_or_default();
        let w = s.worlds.get_mut(id).expect("world");
        let unchanged = w.owner.is_some() && w.owner == log.owner_start && !log.acquired;
        if !unchanged {
            w.counter = 0;
            continue;
        }
        w.counter += 1;
        if w.counter.is_multiple_of(7) && w.cm > 0 && w.cm < 10 {
            w.cm += 1;
        }
        if w.population < w.limit {
            w.population = (w.population + w.population / 10).min(w.limit);
        }
        w.mp += w.cm.min(w.population.saturating_sub(log.employed));
    }
    let at = fleets_by_world(s);
    for id in &ids {
        let w = s.worlds.get_mut(id).expect("world");
        w.up = up_with(w, at.get(id).map_or(&[], |v| v.as_slice()));
    }
    crate::model::debug_invariants(ctx.state);
}

/// Points of one player for the state as it stands (section 8, AMB-3/42).
pub fn points(s: &NebState, slot: Slot, kills: u32) -> i64 {
    let mut pop = 0i64;
    let mut pts = 0i64;
    for w in s.worlds.values().filter(|w| w.owner == Some(slot)) {
        pop += i64::from(w.population);
        pts += i64::from(w.industries) + i64::from(w.up) + i64::from(w.cm);
    }
    pts + (pop + 5) / 10 - i64::from(kills)
}

pub fn scoring(ctx: &mut Ctx<'_, '_>) {
    let s = &mut *ctx.state;
    for slot in 0..s.players.len() {
        let kills = s.plog(slot).kills;
        let p = points(s, slot, kills);
        s.plog(slot).points = p;
        s.players[slot].score_total += p;
    }
}

pub fn discovery(ctx: &mut Ctx<'_, '_>) {
    let s = &mut *ctx.state;
    for slot in 0..s.players.len() {
        let v = visibility::visible(s, slot);
        s.players[slot].discovered.extend(v);
    }
}
