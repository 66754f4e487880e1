//! What a player sees (spec 9.13, decision AMB-6): the worlds of a report.

use crate::model::*;
use std::collections::BTreeSet;

/// Worlds shown in full in `slot`'s report for the last resolved turn.
pub fn visible(s: &NebState, slot: Slot) -> BTreeSet<WorldId> {
    let mut out = BTreeSet::new();
    for (id, w) in &s.worlds {
        // Rule 1 (owned now) and rule 2 (owned at the start of the turn).
        if w.owner == Some(slot)
            || s.log
                .worlds
                .get(id)
                .is_some_and(|l| l.owner_start == Some(slot))
        {
            out.insert(*id);
        }
    }
    for (id, f) in &s.fleets {
        // Rule 3: a fleet of the player is there now.
        if f.owner == Some(slot) {
            out.insert(f.world);
        }
        // Rule 4: a fleet of the player was there at the start of the turn.
        if let Some(l) = s.log.fleets.get(id) {
            if l.owner_start == Some(slot) {
                out.insert(l.world_start);
            }
        }
    }
    // Rules 5–7: passed through or entered, probed, emigrated or unloaded to.
    if let Some(p) = s.log.players.get(slot) {
        out.extend(p.seen.iter().copied());
    }
    out
}
