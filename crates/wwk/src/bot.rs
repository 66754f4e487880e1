//! A simple bot (contract `bot_orders`): sensible, legal orders from what the
//! nation can see. It builds infantry and tanks, invests in counter-espionage,
//! researches logistics first, and sends tanks into adjacent neutral land
//! zones to grow (attacking a neutral zone needs no war). It never declares
//! war, so a bot game is an economic race with neutral conquests.

use crate::catalog::sp;
use crate::model::*;
use arbitre_core::Rng;

pub fn orders(st: &State, nation: &str, rng: &mut Rng) -> String {
    let Some(n) = st.nations.get(nation) else { return String::new() };
    let mut out = vec![format!("NAT RESEARCH I 2 V 2 A 1 NV 1 N 1 L 3")];
    let mut zones = st.controlled(nation);
    zones.extend(st.shared(nation));
    for z in &zones {
        let l = st.ledger(nation, z);
        let fac = st.factories(nation, z);
        if fac > 0 {
            let inf = (fac / 4).max(1);
            if l.ec >= 12 {
                out.push(format!("{z} BUILD INF {inf}"));
            }
            if l.ec >= 25 && n.tech.v >= 0 {
                out.push(format!("{z} BUILD LT 1"));
            }
        }
        if st.zone(z).ce < 6 && l.ec >= 30 {
            out.push(format!("{z} CE 2"));
        }
        // Expansion: tanks with infantry into an adjacent neutral land zone.
        let lts = st.units.values().filter(|u| u.owner == nation && u.at == *z && u.code == "LT" && u.army.is_none()).count();
        let infs = st.units.values().filter(|u| u.owner == nation && u.at == *z && u.code == "INF" && u.army.is_none()).count();
        let mut targets: Vec<String> = st
            .neighbours(z)
            .into_iter()
            .filter(|a| st.kind(a) == ZoneKind::Land && st.zone(a).status == Status::Neutral)
            .collect();
        if !targets.is_empty() && lts >= 2 && infs >= 3 {
            let t = targets.remove(rng.below(targets.len() as u64) as usize);
            out.push(format!("{z} 2 LT MOVE {t}"));
            out.push(format!("{z} 2 INF MOVE {t}"));
        }
        let _ = sp("INF");
    }
    out.push(String::new());
    out.join("\n")
}
