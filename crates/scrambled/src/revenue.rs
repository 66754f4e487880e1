//! R7 "Calcul des revenus et bureaucratie", R8 "Envoyer/Recevoir un tribut"
//! and R9 "Recrutement militaire" (spec §3.8–§3.10).
//!
//! There is no treasury (D13): each turn's budget is spent on recruits and the
//! rest is lost. Income uses the state after R6 (D4).

use crate::capture;
use crate::economy::{bureaucracy_bp, corruption, deserters, net_income, territory_income};
use crate::events::{Budget, Event, IncomeLine, OrderStatus};
use crate::orders::Order;
use crate::state::State;
use crate::world::TerrId;
use arbitre_core::{Located, PlayerId};
use std::collections::{BTreeMap, BTreeSet};

/// Corruption of `t` for player `p` (§2.7), measured from the current capital.
pub fn corruption_of(state: &State, p: &PlayerId, t: &TerrId) -> u32 {
    let prm = &state.params;
    let cap = state.players.get(p).and_then(|x| x.capital.clone());
    match cap {
        Some(c) if &c == t => 0,
        Some(c) => corruption(
            state.world.hops(&c, t),
            prm.corruption_per_hop,
            prm.corruption_max,
        ),
        None => prm.corruption_max,
    }
}

/// R7 for one player: income lines, gross, bureaucracy and net.
pub fn income(state: &State, p: &PlayerId) -> Budget {
    let mut b = Budget::default();
    let cap = state.players.get(p).and_then(|x| x.capital.clone());
    // The capital first, then the others by id (the report's order, spec §7).
    let mut owned = state.owned_by(p);
    owned.sort_by_key(|t| (cap.as_ref() != Some(t), t.clone()));
    // One breadth-first search from the capital serves every territory; it
    // stops once the last one owned is reached.
    let hops = cap.as_ref().map(|c| {
        let mut left: BTreeSet<&TerrId> = owned.iter().collect();
        state.world.distances_until(c, &|_| false, &mut |t| {
            left.remove(t);
            left.is_empty()
        })
    });
    let prm = &state.params;
    for t in owned {
        let terr = &state.world.territories[&t];
        let ts = state.terr(&t);
        let base = terr
            .base_income
            .unwrap_or(state.params.territory_base_income);
        let c = match &hops {
            Some(h) => corruption(
                h.get(&t).copied(),
                prm.corruption_per_hop,
                prm.corruption_max,
            ),
            None => prm.corruption_max,
        };
        let inc = territory_income(base, ts.economy, c, ts.suppression);
        b.lines.push(IncomeLine {
            terr: t.clone(),
            capital: cap.as_ref() == Some(&t),
            base,
            economy: ts.economy,
            corruption: c,
            suppression: ts.suppression,
            income: inc,
        });
        b.gross += inc;
    }
    b.territories = b.lines.len() as u32;
    b.bp = bureaucracy_bp(
        b.territories,
        state.quota,
        state.params.bureaucracy_max_ratio,
        state.params.bureaucracy_min_ratio,
    );
    b.net = net_income(b.gross, b.bp);
    b
}

/// R7 for every active player.
pub fn compute_income(state: &State) -> BTreeMap<PlayerId, Budget> {
    state
        .active_players()
        .into_iter()
        .map(|p| {
            let b = income(state, &p);
            (p, b)
        })
        .collect()
}

/// R8: tributes capped by the giver's own net income (D14).
pub fn tributes(
    state: &State,
    orders: &BTreeMap<PlayerId, Vec<Located<Order>>>,
    budgets: &mut BTreeMap<PlayerId, Budget>,
    events: &mut Vec<Event>,
) {
    let mut received: BTreeMap<PlayerId, u64> = BTreeMap::new();
    for (p, list) in orders {
        let Some(net) = budgets.get(p).map(|b| b.net) else {
            continue;
        };
        let mut sent = 0u64;
        for o in list {
            let Order::Tribute { qty, to } = &o.order else {
                continue;
            };
            let (status, detail) = if !budgets.contains_key(to) {
                (
                    OrderStatus::Failed,
                    format!("{} n'est plus en jeu", state.player_name(to)),
                )
            } else {
                let paid = qty.take(net - sent);
                sent += paid;
                *received.entry(to.clone()).or_default() += paid;
                if paid > 0 {
                    events.push(Event::Tribute {
                        from: p.clone(),
                        to: to.clone(),
                        amount: paid,
                    });
                }
                match qty.asked() {
                    Some(a) if a > paid => (
                        OrderStatus::Fixed,
                        format!("seulement {paid} disponibles, {paid} payés"),
                    ),
                    _ => (OrderStatus::Ok, format!("{paid} payés")),
                }
            };
            events.push(Event::OrderResult {
                player: p.clone(),
                text: o.text.to_string(),
                status,
                detail,
            });
        }
        budgets.get_mut(p).expect("budget").sent = sent;
    }
    for (p, b) in budgets.iter_mut() {
        b.received = received.get(p).copied().unwrap_or(0);
        b.available = b.net - b.sent + b.received;
    }
}

/// R9: upkeep, desertion, ownership recheck, recruitment (§3.10).
pub fn upkeep_and_recruit(
    state: &mut State,
    budgets: &mut BTreeMap<PlayerId, Budget>,
    events: &mut Vec<Event>,
) {
    let prm = state.params.clone();
    let mut deserted_in: Vec<TerrId> = Vec::new();
    // R9a for everyone first, so that the result does not depend on player order.
    for (p, b) in budgets.iter_mut() {
        let (mut home, mut away) = (0u64, 0u64);
        for (t, ts) in &state.territories {
            let n = ts.troops_of(p);
            if ts.owner.as_ref() == Some(p) {
                home += n;
            } else {
                away += n;
            }
            let _ = t;
        }
        b.home = home;
        b.away = away;
        b.upkeep = prm.troops_home_upkeep * home + prm.troops_away_upkeep * away;
        b.budget = b.available as i64 - b.upkeep as i64;
        if b.budget < 0 {
            let deficit = b.upkeep - b.available;
            let ids: Vec<TerrId> = state.territories.keys().cloned().collect();
            for t in ids {
                let s = state.terr(&t).troops_of(p);
                if s == 0 {
                    continue;
                }
                let d = deserters(s, deficit, b.upkeep);
                if d > 0 {
                    state.terr_mut(&t).remove(p, d);
                    b.deserted += d;
                    events.push(Event::Deserted {
                        player: p.clone(),
                        terr: t.clone(),
                        count: d,
                    });
                    if !deserted_in.contains(&t) {
                        deserted_in.push(t);
                    }
                }
            }
        }
    }
    // R9b: ownership recheck where troops deserted.
    deserted_in.sort();
    for t in &deserted_in {
        capture::apply(state, t, true, events);
    }
    // R9c: recruitment at a capital still held.
    for (p, b) in budgets.iter_mut() {
        if b.budget < 0 {
            continue;
        }
        let cap = state.players[p].capital.clone();
        match cap {
            Some(c) if state.owner(&c) == Some(p) => {
                let r = b.budget as u64 / prm.troops_recruit_cost;
                b.recruits = r;
                b.recruit_at = Some(c.clone());
                b.lost = b.budget as u64 - r * prm.troops_recruit_cost;
                if r > 0 {
                    state.terr_mut(&c).add(p, r);
                    events.push(Event::Recruited {
                        player: p.clone(),
                        terr: c,
                        count: r,
                    });
                }
            }
            _ => {
                b.lost = b.budget as u64;
                events.push(Event::NoCapital { player: p.clone() });
            }
        }
    }
    for (p, b) in budgets.iter() {
        events.push(Event::Economy {
            player: p.clone(),
            budget: b.clone(),
        });
    }
}
