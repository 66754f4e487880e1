//! R0 — the orders freeze (spec §3.1): diplomacy marks (rulebook "Diplomatie":
//! "changer à tout moment", D26), cancellations, capital orders (rulebook
//! "Changer de capitale"; the delay starts here) and the expansion of planned
//! paths (rulebook "Déplacement des troupes") on start-of-turn ownership, then
//! the start-of-turn snapshot S0 that moves and the retreat rule are judged on.

use crate::events::{Event, OrderStatus};
use crate::orders::{Order, Target};
use crate::state::Chain;
use crate::turn::{see_owned, see_troops};
use crate::{movement, Scrambled};
use arbitre_core::{PlayerId, TurnCtx};

type Ctx<'a> = TurnCtx<'a, Scrambled>;

/// R0: diplomacy, cancellations, capital orders, path expansion, snapshot S0.
pub fn run(ctx: &mut Ctx<'_>) {
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
                    ctx.events.push(Event::OrderResult {
                        player: p.clone(),
                        text: o.text.to_string(),
                        status: OrderStatus::Ok,
                        detail: "appliqué".into(),
                    });
                }
                Order::CancelChain { chain, step } => {
                    let mut done = false;
                    if let Some(i) = st
                        .chains
                        .iter()
                        .position(|c| c.number == *chain && &c.player == p)
                    {
                        let from = step.unwrap_or(st.chains[i].next + 1);
                        if from <= st.chains[i].next + 1 {
                            st.chains.remove(i);
                        } else {
                            // Keep the steps before `from`: the route ends at route[from - 1].
                            st.chains[i].route.truncate(from);
                        }
                        ctx.events.push(Event::ChainCancelled {
                            player: p.clone(),
                            chain: *chain,
                            from_step: from,
                            why: "annulé par ordre".into(),
                        });
                        done = true;
                    }
                    let (status, detail) = if done {
                        (OrderStatus::Ok, "annulé".to_string())
                    } else {
                        (
                            OrderStatus::Failed,
                            format!("pas de chemin P{chain} en cours"),
                        )
                    };
                    ctx.events.push(Event::OrderResult {
                        player: p.clone(),
                        text: o.text.to_string(),
                        status,
                        detail,
                    });
                }
                Order::CancelCapital => {
                    let me = st.players.get_mut(p).expect("active player");
                    let had = me.pending_capital.take().is_some();
                    let (status, detail) = if had {
                        (OrderStatus::Ok, "déménagement annulé".to_string())
                    } else {
                        (
                            OrderStatus::Failed,
                            "aucun déménagement en cours".to_string(),
                        )
                    };
                    ctx.events.push(Event::OrderResult {
                        player: p.clone(),
                        text: o.text.to_string(),
                        status,
                        detail,
                    });
                }
                Order::Capital { terr } => {
                    // A new order replaces a pending one and restarts the delay (D20).
                    st.players
                        .get_mut(p)
                        .expect("active player")
                        .pending_capital = Some((terr.clone(), turn + 1));
                    ctx.events.push(Event::CapitalPending {
                        player: p.clone(),
                        terr: terr.clone(),
                        due: turn + 1,
                    });
                    ctx.events.push(Event::OrderResult {
                        player: p.clone(),
                        text: o.text.to_string(),
                        status: OrderStatus::Ok,
                        detail: format!("effectif à la résolution du tour {}", turn + 1),
                    });
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
            if let Order::Path {
                qty,
                from,
                to,
                avoid,
            } = &o.order
            {
                match movement::plan_route(st, p, from, to, *avoid) {
                    Some(route) => {
                        let number = st.next_chain;
                        st.next_chain += 1;
                        st.chains.push(Chain {
                            number,
                            player: p.clone(),
                            route,
                            next: 0,
                            planned: qty.asked(),
                        });
                        ctx.scratch.new_chains.insert((p.clone(), o.line), number);
                    }
                    None => ctx.events.push(Event::OrderResult {
                        player: p.clone(),
                        text: o.text.to_string(),
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
