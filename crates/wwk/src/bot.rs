//! A simple bot (contract `bot_orders`): legal, sensible orders built only
//! from what the nation can see — its own zones, stocks and units, and the
//! public control status of the map.
//!
//! Each turn it: keeps a standing research allocation (logistics first);
//! builds infantry, tanks and engineers where it has factories and money;
//! keeps some counter-espionage; spies on a neighbouring foreign zone; expands
//! into adjacent neutral land zones with tanks and infantry; from turn 6 it
//! declares war on a neighbour whose non-capital zone borders a strong own
//! zone and attacks it; it sends surplus infantry towards its other zones;
//! every fourth turn it offers a cease-fire to its
//! enemies. It never fires nuclear weapons.

use crate::model::*;
use arbitre_core::Rng;

fn free(st: &State, n: &str, z: &str, code: &str) -> usize {
    st.units
        .values()
        .filter(|u| u.owner == n && u.at == z && u.code == code && u.army.is_none())
        .count()
}

pub fn orders(st: &State, nation: &str, rng: &mut Rng) -> String {
    let Some(me) = st.nations.get(nation) else {
        return String::new();
    };
    let turn = st.turn + 1;
    let mut out = vec!["NAT RESEARCH I 2 V 2 A 1 NV 1 N 1 L 3".to_string()];
    let mut zones = st.controlled(nation);
    zones.extend(st.shared(nation));
    // Diplomacy: cease-fire offers, then at most one war declaration.
    let enemies: Vec<String> = st
        .nations
        .keys()
        .filter(|o| *o != nation && st.diplo(nation, o) == Diplo::War)
        .cloned()
        .collect();
    if turn.is_multiple_of(4) {
        for e in &enemies {
            out.push(format!("NAT CEASEFIRE {e}"));
        }
    }
    let mut war_target: Option<(String, String, String)> = None;
    if turn >= 6 && enemies.is_empty() && !turn.is_multiple_of(4) {
        for z in &zones {
            if free(st, nation, z, "LT") < 1 || free(st, nation, z, "INF") < 3 {
                continue;
            }
            for a in st.neighbours(z) {
                if let Some(c) = st.zone(&a).status.controller() {
                    if c != nation
                        && st.diplo(nation, c) == Diplo::Peace
                        && st.kind(&a) == ZoneKind::Land
                        && !st.is_capital(c, &a)
                    {
                        war_target.get_or_insert((c.to_string(), z.clone(), a.clone()));
                    }
                }
            }
        }
    }
    if let Some((c, _, _)) = &war_target {
        out.push(format!("NAT WAR {c}"));
    }
    for z in &zones {
        let l = st.ledger(nation, z);
        let fac = st.factories(nation, z);
        if fac > 0 {
            let inf = (fac / 4).max(1);
            if l.ec >= 12 {
                out.push(format!("{z} BUILD INF {inf}"));
            }
            if l.ec >= 25 {
                out.push(format!("{z} BUILD LT 1"));
            }
        }
        if st.zone(z).ce < 6 && l.ec >= 30 {
            out.push(format!("{z} CE 2"));
        }
        // Espionage on a visible foreign neighbour, now and then.
        let foreign: Vec<String> = st
            .neighbours(z)
            .into_iter()
            .filter(|a| st.zone(a).status.parties().iter().any(|p| p != nation))
            .collect();
        if !foreign.is_empty() && rng.chance(1, 3) {
            let t = &foreign[rng.below(foreign.len() as u64) as usize];
            let op = if me.tech.l >= 20 { "IN" } else { "RR" };
            out.push(format!("{z} SPY {op} {t}"));
        }
        let lts = free(st, nation, z, "LT");
        let infs = free(st, nation, z, "INF");
        // Attack the declared target (the war starts this turn, step 1.1).
        if let Some((_, from, target)) = &war_target {
            if from == z {
                out.push(format!("{z} ALL LT MOVE {target}"));
                out.push(format!("{z} 3 INF MOVE {target}"));
                continue;
            }
        }
        // Expansion into an adjacent neutral land zone.
        let mut targets: Vec<String> = st
            .neighbours(z)
            .into_iter()
            .filter(|a| st.kind(a) == ZoneKind::Land && st.zone(a).status == Status::Neutral)
            .collect();
        if !targets.is_empty() && lts >= 2 && infs >= 3 {
            let t = targets.remove(rng.below(targets.len() as u64) as usize);
            out.push(format!("{z} 2 LT MOVE {t}"));
            out.push(format!("{z} 2 INF MOVE {t}"));
        } else if infs >= 6 {
            // Reinforce a neighbouring own land zone.
            let own: Vec<String> = st
                .neighbours(z)
                .into_iter()
                .filter(|a| {
                    st.kind(a) == ZoneKind::Land && st.zone(a).status.controls_or_shares(nation)
                })
                .collect();
            if !own.is_empty() {
                let t = &own[rng.below(own.len() as u64) as usize];
                out.push(format!("{z} 3 INF MOVE {t}"));
                if lts >= 1 {
                    out.push(format!("{z} 1 LT MOVE {t}"));
                }
            }
        }
    }
    out.push(String::new());
    out.join("\n")
}
