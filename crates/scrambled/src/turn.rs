//! The turn, step by step in the rulebook's order (spec §3.0): one function
//! per phase. Phase keys `R0`…`R11` are the spec's step numbers and name the
//! RNG streams (only R11 draws, for mid-game joins — none at present).

use crate::events::{Budget, Event, OrderStatus};
use crate::orders::{Order, Target};
use crate::state::{Chain, Mark, State, Status, TerrState};
use crate::world::TerrId;
use crate::{capture, combat, movement, revenue, Scrambled};
use arbitre_core::{Phase, PlayerId, TurnCtx};
use std::collections::{BTreeMap, BTreeSet};

/// Working data of one resolution.
#[derive(Default)]
pub struct Scratch {
    /// S0: the start-of-turn territories (after R0's diplomacy changes).
    pub s0: BTreeMap<TerrId, TerrState>,
    pub given_away: BTreeMap<(TerrId, PlayerId), u64>,
    /// (player, line of the PATH order) → chain number created at R0.
    pub new_chains: BTreeMap<(PlayerId, usize), u32>,
    pub captured: BTreeSet<TerrId>,
    pub budgets: BTreeMap<PlayerId, Budget>,
    pub vision: BTreeMap<PlayerId, BTreeSet<TerrId>>,
}

type Ctx<'a, 'b> = TurnCtx<'a, Scrambled>;

pub fn phases() -> Vec<Phase<Scrambled>> {
    vec![
        Phase { key: "R0", run: r0_freeze },
        Phase { key: "R1", run: r1_quit },
        Phase { key: "R2", run: r2_give_troops },
        Phase { key: "R3", run: r3_move },
        Phase { key: "R4", run: r4_combat },
        Phase { key: "R5", run: r5_ownership },
        Phase { key: "R6", run: r6_give_territory },
        Phase { key: "R7", run: r7_income },
        Phase { key: "R8", run: r8_tribute },
        Phase { key: "R9", run: r9_recruit },
        Phase { key: "R10", run: r10_capital },
        Phase { key: "R11", run: r11_housekeeping },
    ]
}

fn see_troops(state: &State, vision: &mut BTreeMap<PlayerId, BTreeSet<TerrId>>) {
    for (t, ts) in &state.territories {
        for p in ts.troops.keys() {
            vision.entry(p.clone()).or_default().insert(t.clone());
        }
    }
}

fn see_owned(state: &State, vision: &mut BTreeMap<PlayerId, BTreeSet<TerrId>>) {
    for (t, ts) in &state.territories {
        if let Some(o) = &ts.owner {
            vision.entry(o.clone()).or_default().insert(t.clone());
        }
    }
}

/// R0: diplomacy, cancellations, capital orders, path expansion, snapshot S0.
fn r0_freeze(ctx: &mut Ctx<'_, '_>) {
    let turn = ctx.turn;
    let st = &mut *ctx.state;
    st.log.clear();
    for (p, list) in ctx.orders {
        if !st.players.get(p).map(|x| x.active()).unwrap_or(false) {
            continue;
        }
        for o in list {
            match &o.order {
                Order::Diplomacy { target, mark } => {
                    let others: Vec<PlayerId> = match target {
                        Target::All => st.players.keys().filter(|q| *q != p).cloned().collect(),
                        Target::Player(q) => vec![q.clone()],
                    };
                    let me = st.players.get_mut(p).expect("active player");
                    for q in others {
                        me.marks.insert(q, *mark);
                    }
                    ctx.events.push(Event::OrderResult { player: p.clone(), text: o.text.clone(), status: OrderStatus::Ok, detail: "appliqué".into() });
                }
                Order::CancelChain { chain, step } => {
                    let mut done = false;
                    if let Some(i) = st.chains.iter().position(|c| c.number == *chain && &c.player == p) {
                        let from = step.unwrap_or(st.chains[i].next + 1);
                        if from <= st.chains[i].next + 1 {
                            st.chains.remove(i);
                        } else {
                            // Keep the steps before `from`: the route ends at route[from - 1].
                            st.chains[i].route.truncate(from);
                        }
                        ctx.events.push(Event::ChainCancelled { player: p.clone(), chain: *chain, from_step: from, why: "annulé par ordre".into() });
                        done = true;
                    }
                    let (status, detail) = if done { (OrderStatus::Ok, "annulé".to_string()) } else { (OrderStatus::Failed, format!("pas de chemin P{chain} en cours")) };
                    ctx.events.push(Event::OrderResult { player: p.clone(), text: o.text.clone(), status, detail });
                }
                Order::CancelCapital => {
                    let me = st.players.get_mut(p).expect("active player");
                    let had = me.pending_capital.take().is_some();
                    let (status, detail) = if had { (OrderStatus::Ok, "déménagement annulé".to_string()) } else { (OrderStatus::Failed, "aucun déménagement en cours".to_string()) };
                    ctx.events.push(Event::OrderResult { player: p.clone(), text: o.text.clone(), status, detail });
                }
                Order::Capital { terr } => {
                    // A new order replaces a pending one and restarts the delay (D20).
                    st.players.get_mut(p).expect("active player").pending_capital = Some((terr.clone(), turn + 1));
                    ctx.events.push(Event::CapitalPending { player: p.clone(), terr: terr.clone(), due: turn + 1 });
                    ctx.events.push(Event::OrderResult { player: p.clone(), text: o.text.clone(), status: OrderStatus::Ok, detail: format!("effectif à la résolution du tour {}", turn + 1) });
                }
                _ => {}
            }
        }
    }
    // Paths are planned on S0 ownership with the marks just set (§3.1).
    for (p, list) in ctx.orders {
        if !st.players.get(p).map(|x| x.active()).unwrap_or(false) {
            continue;
        }
        for o in list {
            if let Order::Path { qty, from, to, avoid } = &o.order {
                match movement::plan_route(st, p, from, to, *avoid) {
                    Some(route) => {
                        let number = st.next_chain;
                        st.next_chain += 1;
                        st.chains.push(Chain { number, player: p.clone(), route, next: 0, planned: qty.asked() });
                        ctx.scratch.new_chains.insert((p.clone(), o.line), number);
                    }
                    None => ctx.events.push(Event::OrderResult {
                        player: p.clone(),
                        text: o.text.clone(),
                        status: OrderStatus::Failed,
                        detail: "aucun chemin".into(),
                    }),
                }
            }
        }
    }
    ctx.scratch.s0 = st.territories.clone();
    see_owned(st, &mut ctx.scratch.vision);
    see_troops(st, &mut ctx.scratch.vision);
}

/// R1: quitting players leave (§3.2).
fn r1_quit(ctx: &mut Ctx<'_, '_>) {
    let turn = ctx.turn;
    for (p, list) in ctx.orders {
        if !list.iter().any(|o| o.order == Order::Quit) {
            continue;
        }
        let st = &mut *ctx.state;
        if !st.players.get(p).map(|x| x.active()).unwrap_or(false) {
            continue;
        }
        for ts in st.territories.values_mut() {
            ts.troops.remove(p);
            ts.supremacy.remove(p);
            if ts.owner.as_ref() == Some(p) {
                ts.owner = None;
                ts.suppression = 0;
            }
        }
        st.chains.retain(|c| &c.player != p);
        let me = st.players.get_mut(p).expect("player");
        me.capital = None;
        me.pending_capital = None;
        me.status = Status::Quit(turn);
        ctx.events.push(Event::Quit { player: p.clone() });
    }
}

fn r2_give_troops(ctx: &mut Ctx<'_, '_>) {
    movement::give_troops(ctx.state, ctx.orders, &mut ctx.scratch.given_away, ctx.events);
    see_troops(ctx.state, &mut ctx.scratch.vision);
}

fn r3_move(ctx: &mut Ctx<'_, '_>) {
    let s0 = std::mem::take(&mut ctx.scratch.s0);
    movement::move_troops(ctx.state, &s0, ctx.orders, &ctx.scratch.new_chains, &ctx.scratch.given_away, ctx.events);
    ctx.scratch.s0 = s0;
    see_troops(ctx.state, &mut ctx.scratch.vision);
}

fn r4_combat(ctx: &mut Ctx<'_, '_>) {
    combat::resolve_all(ctx.state, ctx.events);
}

/// R5: ownership, contested flags, suppression, then economic ratios (§3.6.5).
fn r5_ownership(ctx: &mut Ctx<'_, '_>) {
    let captured = capture::change_ownership(ctx.state, ctx.events);
    let prm = ctx.state.params.clone();
    let land: Vec<TerrId> = ctx.state.world.land().map(|t| t.id.clone()).collect();
    for t in land {
        let ts = ctx.state.terr_mut(&t);
        ts.economy = crate::economy::next_economy(ts.economy, ts.conflict, captured.contains(&t), prm.economy_modifier_conflict, prm.economy_modifier_peace);
    }
    ctx.scratch.captured = captured;
}

/// R6: give or abandon territory; the first order on a territory wins (§3.7).
fn r6_give_territory(ctx: &mut Ctx<'_, '_>) {
    let st = &mut *ctx.state;
    for (p, list) in ctx.orders {
        if !st.players.get(p).map(|x| x.active()).unwrap_or(false) {
            continue;
        }
        let mut used: BTreeSet<TerrId> = BTreeSet::new();
        for o in list {
            let (terr, to) = match &o.order {
                Order::GiveTerritory { terr, to } => (terr, Some(to)),
                Order::Abandon { terr } => (terr, None),
                _ => continue,
            };
            let fail = if !used.insert(terr.clone()) {
                Some("un ordre précédent porte déjà sur ce territoire".to_string())
            } else if st.owner(terr) != Some(p) {
                Some(format!("{} ne vous appartient pas après les combats", st.tname(terr)))
            } else {
                to.filter(|q| !st.players.get(*q).map(|x| x.active()).unwrap_or(false))
                    .map(|q| format!("{} n'est plus en jeu", st.player_name(q)))
            };
            if let Some(why) = fail {
                ctx.events.push(Event::OrderResult { player: p.clone(), text: o.text.clone(), status: OrderStatus::Failed, detail: why });
                continue;
            }
            st.terr_mut(terr).owner = to.cloned();
            let me = st.players.get_mut(p).expect("player");
            if me.capital.as_ref() == Some(terr) {
                me.capital = None;
                ctx.events.push(Event::CapitalLost { player: p.clone(), terr: terr.clone() });
            }
            match to {
                Some(q) => ctx.events.push(Event::TerritoryGiven { terr: terr.clone(), from: p.clone(), to: q.clone() }),
                None => ctx.events.push(Event::Abandoned { terr: terr.clone(), player: p.clone() }),
            }
            ctx.events.push(Event::OrderResult { player: p.clone(), text: o.text.clone(), status: OrderStatus::Ok, detail: "fait".into() });
        }
    }
}

fn r7_income(ctx: &mut Ctx<'_, '_>) {
    ctx.scratch.budgets = revenue::compute_income(ctx.state);
}

fn r8_tribute(ctx: &mut Ctx<'_, '_>) {
    revenue::tributes(ctx.state, ctx.orders, &mut ctx.scratch.budgets, ctx.events);
}

fn r9_recruit(ctx: &mut Ctx<'_, '_>) {
    revenue::upkeep_and_recruit(ctx.state, &mut ctx.scratch.budgets, ctx.events);
}

/// R10: capital moves due at this resolution (§3.11).
fn r10_capital(ctx: &mut Ctx<'_, '_>) {
    let turn = ctx.turn;
    let st = &mut *ctx.state;
    let ids: Vec<PlayerId> = st.active_players();
    for p in ids {
        let Some((t, due)) = st.players[&p].pending_capital.clone() else { continue };
        if due != turn {
            continue;
        }
        let ok = st.owner(&t) == Some(&p) && st.world.get(&t).map(|x| x.is_land()).unwrap_or(false);
        let me = st.players.get_mut(&p).expect("player");
        me.pending_capital = None;
        if ok {
            me.capital = Some(t.clone());
            ctx.events.push(Event::CapitalMoved { player: p, terr: t });
        } else {
            ctx.events.push(Event::CapitalMoveCancelled { player: p, terr: t });
        }
    }
}

/// R11: supremacy, eliminations, end of game, vision and the log (§3.12).
fn r11_housekeeping(ctx: &mut Ctx<'_, '_>) {
    let turn = ctx.turn;
    let st = &mut *ctx.state;
    combat::compute_supremacy(st);
    for p in st.active_players() {
        if st.owned_by(&p).is_empty() && st.troops_total(&p) == 0 {
            let me = st.players.get_mut(&p).expect("player");
            me.status = Status::Eliminated(turn);
            me.capital = None;
            me.pending_capital = None;
            st.chains.retain(|c| c.player != p);
            ctx.events.push(Event::Eliminated { player: p });
        }
    }
    see_owned(st, &mut ctx.scratch.vision);
    see_troops(st, &mut ctx.scratch.vision);
    for (p, terrs) in std::mem::take(&mut ctx.scratch.vision) {
        ctx.events.push(Event::Vision { player: p, terrs });
    }
    if turn >= st.params.turn_limit || st.active_players().is_empty() {
        st.over = true;
        ctx.events.push(Event::GameOver);
    }
    // Marks toward players who left no longer matter but stay for the record.
    let _ = Mark::Ally;
    st.log = ctx.events.clone();
}
