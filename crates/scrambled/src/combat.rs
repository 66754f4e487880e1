//! R4 "Combat" and supremacy (rulebook "Combat"; spec §3.5).
//!
//! Damage is `round_hu(troops / efficiency)`, split equally between the
//! attacker's targets (D10); a target that marks the attacker ally takes
//! double hits (surprise attack). All losses are applied at the same time and
//! never exceed the stack.

use crate::economy::round_hu;
use crate::events::{Event, Hit};
use crate::state::{Mark, State};
use crate::world::TerrId;
use arbitre_core::PlayerId;
use std::collections::BTreeMap;

/// Resolve every battle; sets `conflict` on every territory (true or false).
pub fn resolve_all(state: &mut State, events: &mut Vec<Event>) {
    let ids: Vec<TerrId> = state.territories.keys().cloned().collect();
    for t in ids {
        let fought = battle(state, &t, events);
        state.terr_mut(&t).conflict = fought;
    }
}

/// One territory's battle; returns whether there was combat (§3.5.1).
pub fn battle(state: &mut State, t: &TerrId, events: &mut Vec<Event>) -> bool {
    let before: BTreeMap<PlayerId, u64> = state.terr(t).troops.clone();
    let present: Vec<PlayerId> = before.keys().cloned().collect();
    let any_enemy = present.iter().any(|p| {
        present
            .iter()
            .any(|q| p != q && state.mark(p, q) == Mark::Enemy)
    });
    if !any_enemy {
        return false;
    }
    let eff = state.params.troops_efficiency.max(1);
    let mut hits: Vec<Hit> = Vec::new();
    let mut incoming: BTreeMap<PlayerId, u64> = BTreeMap::new();
    for p in &present {
        let targets: Vec<&PlayerId> = present
            .iter()
            .filter(|q| *q != p && state.mark(p, q) == Mark::Enemy)
            .collect();
        if targets.is_empty() {
            continue; // troops never attack players their owner marks ally
        }
        let dmg = round_hu(before[p], eff);
        let k = targets.len() as u64;
        for q in targets {
            let surprise = state.mark(q, p) == Mark::Ally;
            let mul = if surprise { 2 } else { 1 };
            let h = round_hu(dmg * mul, k);
            *incoming.entry(q.clone()).or_default() += h;
            hits.push(Hit {
                attacker: p.clone(),
                target: q.clone(),
                hits: h,
                surprise,
            });
        }
    }
    let raw_hits: Vec<u64> = hits.iter().map(|h| h.hits).collect();
    for (q, inc) in &incoming {
        let loss = (*inc).min(before[q]);
        state.terr_mut(t).remove(q, loss);
        // For the battle report only: when the stack is smaller than the hits,
        // each attacker's share is scaled by loss / incoming (§3.5.3).
        if loss < *inc {
            for h in hits.iter_mut().filter(|h| &h.target == q) {
                h.hits = (2 * h.hits * loss + inc) / (2 * inc);
            }
        }
    }
    let after: BTreeMap<PlayerId, u64> = present
        .iter()
        .map(|p| (p.clone(), state.terr(t).troops_of(p)))
        .collect();
    // A surprise attack is one that actually hit (a stack too small to deal a
    // casualty surprises nobody); judged on the hits before display scaling.
    for (h, raw) in hits.iter().zip(&raw_hits) {
        if h.surprise && *raw > 0 {
            events.push(Event::Surprise {
                victim: h.target.clone(),
                attacker: h.attacker.clone(),
                terr: t.clone(),
            });
        }
    }
    for p in &present {
        if after[p] == 0 {
            events.push(Event::WipedOut {
                player: p.clone(),
                terr: t.clone(),
            });
        }
    }
    events.push(Event::Battle {
        terr: t.clone(),
        before,
        hits,
        after,
    });
    true
}

/// `score(P, T)` of §3.5.4.
pub fn supremacy_score(state: &State, t: &TerrId, p: &PlayerId) -> i128 {
    let ts = state.terr(t);
    let mut s: i128 = 0;
    for (q, n) in &ts.troops {
        let n = i128::from(*n);
        if q == p || state.mark(p, q) == Mark::Ally {
            s += n;
        } else {
            s -= n;
        }
    }
    s
}

/// Supremacy from the final counts (R11): score ≥ 0 (D7).
pub fn compute_supremacy(state: &mut State) {
    let ids: Vec<TerrId> = state.territories.keys().cloned().collect();
    for t in ids {
        let present: Vec<PlayerId> = state.terr(&t).troops.keys().cloned().collect();
        let sup: BTreeMap<PlayerId, bool> = present
            .iter()
            .map(|p| (p.clone(), supremacy_score(state, &t, p) >= 0))
            .collect();
        state.terr_mut(&t).supremacy = sup;
    }
}
