//! R2 "Donner des troupes" and R3 "Déplacer des troupes" (spec §3.3–§3.4).
//!
//! Moves draw on the troops present at the start of the turn minus those given
//! away (D16), so troops received or arriving this turn never move again. All
//! moves are simultaneous: armies crossing a border do not meet (D37). The
//! retreat rule uses supremacy as it stood at the start of the turn (D2).

use crate::events::{Event, OrderStatus};
use crate::orders::{Order, Qty};
use crate::state::{Mark, State, TerrState};
use crate::world::TerrId;
use arbitre_core::{Located, PlayerId};
use std::collections::BTreeMap;

/// The route a `PATH` takes (§3.4.3): AVOID leaves out intermediate
/// territories owned by players the mover marks enemy.
pub fn plan_route(
    state: &State,
    p: &PlayerId,
    from: &TerrId,
    to: &TerrId,
    avoid: bool,
) -> Option<Vec<TerrId>> {
    plan_route_with(state, p, from, to, avoid, &|o| state.mark(p, o))
}

/// [`plan_route`] with `p`'s marks given by `mark`: the order check at
/// receipt passes the marks the set's own diplomacy lines will give at R0
/// (issue 17 item 8).
pub fn plan_route_with(
    state: &State,
    p: &PlayerId,
    from: &TerrId,
    to: &TerrId,
    avoid: bool,
    mark: &dyn Fn(&PlayerId) -> Mark,
) -> Option<Vec<TerrId>> {
    let blocked = |t: &TerrId| {
        avoid
            && state
                .owner(t)
                .map(|o| o != p && mark(o) == Mark::Enemy)
                .unwrap_or(false)
    };
    state.world.route(from, to, &blocked)
}

/// The retreat rule (§3.4.2): may `p` leave `a` for `b`, judged on the start-of-turn state?
pub fn retreat_allows(
    state: &State,
    s0: &BTreeMap<TerrId, TerrState>,
    p: &PlayerId,
    a: &TerrId,
    b: &TerrId,
) -> bool {
    retreat_allows_at(state, p, &s0[a], || &s0[b])
}

/// [`retreat_allows`] with the departure's state already looked up (the
/// order parser has it, issue 21 item 4); the destination's is looked up
/// only when the rule needs it.
pub fn retreat_allows_at<'s>(
    state: &State,
    p: &PlayerId,
    from: &TerrState,
    dest: impl FnOnce() -> &'s TerrState,
) -> bool {
    let has_supremacy = from.supremacy.get(p).copied().unwrap_or(true);
    if has_supremacy {
        return true;
    }
    let dest = dest();
    match &dest.owner {
        Some(o) if o == p => return true,
        Some(o) if state.mark(p, o) == Mark::Ally => return true,
        _ => {}
    }
    dest.total() == 0 || dest.supremacy.get(p).copied().unwrap_or(false)
}

/// R2: troop gifts, in the order written.
pub fn give_troops(
    state: &mut State,
    orders: &BTreeMap<PlayerId, Vec<Located<Order>>>,
    given_away: &mut BTreeMap<(TerrId, PlayerId), u64>,
    events: &mut Vec<Event>,
) {
    for (p, list) in orders {
        if !state.players.get(p).map(|x| x.active()).unwrap_or(false) {
            continue;
        }
        for o in list {
            let Order::GiveTroops { qty, terr, to } = &o.order else {
                continue;
            };
            let active = state.players.get(to).map(|x| x.active()).unwrap_or(false);
            let (status, detail) = if !active {
                (
                    OrderStatus::Failed,
                    format!("{} n'est plus en jeu", state.player_name(to)),
                )
            } else {
                let have = state.terr(terr).troops_of(p);
                let given = qty.take(have);
                if given == 0 {
                    (OrderStatus::Failed, "aucune troupe à donner".to_string())
                } else {
                    let t = state.terr_mut(terr);
                    t.remove(p, given);
                    t.add(to, given);
                    *given_away.entry((terr.clone(), p.clone())).or_default() += given;
                    events.push(Event::TroopsGiven {
                        terr: terr.clone(),
                        from: p.clone(),
                        to: to.clone(),
                        count: given,
                    });
                    fixed(qty.asked(), given, format!("{given} données"))
                }
            };
            events.push(Event::OrderResult {
                player: p.clone(),
                text: o.text.to_string(),
                status,
                detail,
            });
        }
    }
}

fn fixed(asked: Option<u64>, done: u64, msg: String) -> (OrderStatus, String) {
    match asked {
        Some(a) if a > done => (
            OrderStatus::Fixed,
            format!("seulement {done} disponibles, {msg}"),
        ),
        _ => (OrderStatus::Ok, msg),
    }
}

/// One move `a → b` of up to `qty` troops from `avail`. Returns the number moved
/// or the reason it failed.
/// The troops still free to move this step, and the moves made so far.
struct Pool {
    avail: BTreeMap<(TerrId, PlayerId), u64>,
    moves: Vec<(PlayerId, TerrId, TerrId, u64)>,
}

fn one_move(
    state: &mut State,
    s0: &BTreeMap<TerrId, TerrState>,
    pool: &mut Pool,
    p: &PlayerId,
    (a, b): (&TerrId, &TerrId),
    qty: Qty,
) -> Result<u64, String> {
    if !state.world.can_step(a, b) {
        return Err(format!(
            "{} n'est pas voisin de {}",
            state.tname(b),
            state.tname(a)
        ));
    }
    let key = (a.clone(), p.clone());
    let have = pool.avail.get(&key).copied().unwrap_or(0);
    if have == 0 {
        return Err(format!("aucune troupe disponible en {}", state.tname(a)));
    }
    if !retreat_allows(state, s0, p, a, b) {
        return Err(format!(
            "sans suprématie en {}, repli seulement vers vos territoires, un territoire vide, un territoire où vous avez la suprématie ou celui d'un allié",
            state.tname(a)
        ));
    }
    let moved = qty.take(have);
    pool.avail.insert(key, have - moved);
    state.terr_mut(a).remove(p, moved);
    pool.moves.push((p.clone(), a.clone(), b.clone(), moved));
    Ok(moved)
}

/// R3: standing path steps first (oldest chain first), then the set's lines in
/// the order written. Arrivals are added at the end so that no troop moves twice.
pub fn move_troops(
    state: &mut State,
    s0: &BTreeMap<TerrId, TerrState>,
    orders: &BTreeMap<PlayerId, Vec<Located<Order>>>,
    new_chains: &BTreeMap<(PlayerId, usize), u32>,
    given_away: &BTreeMap<(TerrId, PlayerId), u64>,
    events: &mut Vec<Event>,
) {
    let mut avail: BTreeMap<(TerrId, PlayerId), u64> = BTreeMap::new();
    for (t, ts) in s0 {
        for (p, n) in &ts.troops {
            let gone = given_away
                .get(&(t.clone(), p.clone()))
                .copied()
                .unwrap_or(0);
            avail.insert((t.clone(), p.clone()), n.saturating_sub(gone));
        }
    }
    let mut pool = Pool {
        avail,
        moves: Vec::new(),
    };
    let fresh: Vec<u32> = new_chains.values().copied().collect();
    for p in state.active_players() {
        // Standing chains first.
        let standing: Vec<u32> = state
            .chains
            .iter()
            .filter(|c| c.player == p && !fresh.contains(&c.number))
            .map(|c| c.number)
            .collect();
        for c in standing {
            run_chain_step(state, s0, &mut pool, &p, c, events);
        }
        for o in orders.get(&p).map(|v| v.as_slice()).unwrap_or(&[]) {
            match &o.order {
                Order::Move { qty, from, to } => {
                    let r = one_move(state, s0, &mut pool, &p, (from, to), *qty);
                    let (status, detail) = match r {
                        Ok(m) => fixed(qty.asked(), m, format!("{m} déplacées")),
                        Err(e) => (OrderStatus::Failed, e),
                    };
                    events.push(Event::OrderResult {
                        player: p.clone(),
                        text: o.text.to_string(),
                        status,
                        detail,
                    });
                }
                Order::Path { .. } => {
                    if let Some(c) = new_chains.get(&(p.clone(), o.line)) {
                        run_chain_step(state, s0, &mut pool, &p, *c, events);
                    }
                }
                _ => {}
            }
        }
    }
    for (p, a, b, n) in pool.moves {
        state.terr_mut(&b).add(&p, n);
        events.push(Event::Moved {
            player: p,
            from: a,
            to: b,
            count: n,
        });
    }
}

/// Carry out the next step of chain `c` (§3.4.3), with the cascade rules.
fn run_chain_step(
    state: &mut State,
    s0: &BTreeMap<TerrId, TerrState>,
    pool: &mut Pool,
    p: &PlayerId,
    c: u32,
    events: &mut Vec<Event>,
) {
    let Some(idx) = state.chains.iter().position(|ch| ch.number == c) else {
        return;
    };
    let ch = state.chains[idx].clone();
    if ch.done() {
        return;
    }
    let step = ch.next + 1;
    let (a, b) = (ch.route[ch.next].clone(), ch.route[ch.next + 1].clone());
    let qty = ch.planned.map(Qty::N).unwrap_or(Qty::All);
    let text = format!(
        "P{c}.{step} {} {a} -> {b}",
        ch.planned
            .map(|n| n.to_string())
            .unwrap_or_else(|| "ALL".into())
    );
    match one_move(state, s0, pool, p, (&a, &b), qty) {
        Ok(m) => {
            let (status, detail) = fixed(qty.asked(), m, format!("{m} déplacées"));
            events.push(Event::OrderResult {
                player: p.clone(),
                text,
                status,
                detail,
            });
            let chm = &mut state.chains[idx];
            chm.next += 1;
            // A smaller step scales every later step down (the rulebook's rule).
            chm.planned = Some(m);
            if chm.done() {
                state.chains.remove(idx);
            }
        }
        Err(e) => {
            events.push(Event::OrderResult {
                player: p.clone(),
                text,
                status: OrderStatus::Failed,
                detail: e,
            });
            if step + 1 < ch.route.len() {
                events.push(Event::ChainCancelled {
                    player: p.clone(),
                    chain: c,
                    from_step: step + 1,
                    why: format!("l'étape P{c}.{step} n'a pas pu s'exécuter"),
                });
            }
            state.chains.remove(idx);
        }
    }
}
