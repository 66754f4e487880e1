//! R5 "Changement d'appartenance des territoires" (spec §3.6), also used by
//! the ownership recheck after desertions (R9b).
//!
//! Only players who mark the owner enemy (or anyone, in neutral land) are
//! eligible to capture or suppress (D8); allied forces are never added
//! together: only the single largest eligible force may capture (D9).

use crate::economy::{required, suppression};
use crate::events::Event;
use crate::state::{Mark, State};
use crate::world::TerrId;
use arbitre_core::PlayerId;
use std::collections::BTreeSet;

/// The verdict of §3.6.3 for one land territory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Settle {
    /// No eligible force: owner unchanged, not contested.
    Quiet,
    Contested,
    Capture(PlayerId),
}

pub fn eligible(state: &State, owner: Option<&PlayerId>, p: &PlayerId) -> bool {
    match owner {
        None => true,
        Some(o) => o != p && state.mark(p, o) == Mark::Enemy,
    }
}

pub fn settle(state: &State, t: &TerrId) -> Settle {
    let ts = state.terr(t);
    let present: Vec<&PlayerId> = ts.troops.keys().collect();
    let hostile_pair = present
        .iter()
        .any(|a| present.iter().any(|b| state.hostile(a, b)));
    if hostile_pair {
        return Settle::Contested;
    }
    let owner = ts.owner.as_ref();
    let mut elig: Vec<(&PlayerId, u64)> = present
        .iter()
        .filter(|p| eligible(state, owner, p))
        .map(|p| (*p, ts.troops_of(p)))
        .collect();
    if elig.is_empty() {
        return Settle::Quiet;
    }
    elig.sort_by_key(|e| std::cmp::Reverse(e.1));
    if elig.len() > 1 && elig[0].1 == elig[1].1 {
        return Settle::Contested;
    }
    let need = required(state.world.area(t), state.params.troops_capture_capacity);
    if elig[0].1 >= need {
        Settle::Capture(elig[0].0.clone())
    } else {
        Settle::Contested
    }
}

/// Hostile troops for suppression (§2.5): players present who mark the owner enemy.
pub fn hostile_troops(state: &State, t: &TerrId) -> u64 {
    let ts = state.terr(t);
    let Some(o) = ts.owner.as_ref() else { return 0 };
    ts.troops
        .iter()
        .filter(|(p, _)| *p != o && state.mark(p, o) == Mark::Enemy)
        .map(|(_, n)| *n)
        .sum()
}

/// Apply §3.6.3–§3.6.4 to `t`; returns true if it changed owner.
pub fn apply(
    state: &mut State,
    t: &TerrId,
    after_desertion: bool,
    events: &mut Vec<Event>,
) -> bool {
    if !state.world.get(t).map(|x| x.is_land()).unwrap_or(false) {
        return false;
    }
    let verdict = settle(state, t);
    let mut captured = false;
    match verdict {
        Settle::Quiet => state.terr_mut(t).contested = false,
        Settle::Contested => state.terr_mut(t).contested = true,
        Settle::Capture(p) => {
            let old = state.terr(t).owner.clone();
            {
                let ts = state.terr_mut(t);
                ts.owner = Some(p.clone());
                ts.contested = false;
            }
            if let Some(o) = &old {
                if state.players.get(o).and_then(|x| x.capital.as_ref()) == Some(t) {
                    state.players.get_mut(o).expect("owner is a player").capital = None;
                    events.push(Event::CapitalLost {
                        player: o.clone(),
                        terr: t.clone(),
                    });
                }
            }
            events.push(Event::Captured {
                terr: t.clone(),
                from: old,
                to: p,
                after_desertion,
            });
            captured = true;
        }
    }
    let h = hostile_troops(state, t);
    let area = state.world.area(t);
    let cap = state.params.troops_capture_capacity;
    let s = if captured {
        0
    } else {
        suppression(h, cap, area)
    };
    state.terr_mut(t).suppression = if state.terr(t).owner.is_some() { s } else { 0 };
    captured
}

/// R5 for every land territory; returns the set captured this turn.
pub fn change_ownership(state: &mut State, events: &mut Vec<Event>) -> BTreeSet<TerrId> {
    let ids: Vec<TerrId> = state.world.land().map(|t| t.id.clone()).collect();
    let mut captured = BTreeSet::new();
    for t in ids {
        if apply(state, &t, false, events) {
            captured.insert(t);
        }
    }
    captured
}
