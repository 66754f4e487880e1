//! R6 — "Donner/Quitter un territoire" (spec §3.7): only a territory the sender
//! still owns after the combats of the turn can be given or abandoned.

use crate::events::{Event, OrderStatus};
use crate::orders::Order;
use crate::world::TerrId;
use crate::Scrambled;
use arbitre_core::TurnCtx;
use std::collections::BTreeSet;

type Ctx<'a> = TurnCtx<'a, Scrambled>;

/// R6: give or abandon territory; the first order on a territory wins (§3.7).
pub fn run(ctx: &mut Ctx<'_>) {
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
                Some(format!(
                    "{} ne vous appartient pas après les combats",
                    st.tname(terr)
                ))
            } else {
                to.filter(|q| !st.players.get(*q).map(|x| x.active()).unwrap_or(false))
                    .map(|q| format!("{} n'est plus en jeu", st.player_name(q)))
            };
            if let Some(why) = fail {
                ctx.events.push(Event::OrderResult {
                    player: p.clone(),
                    text: o.text.to_string(),
                    status: OrderStatus::Failed,
                    detail: why,
                });
                continue;
            }
            st.terr_mut(terr).owner = to.cloned();
            let me = st.players.get_mut(p).expect("player");
            if me.capital.as_ref() == Some(terr) {
                me.capital = None;
                ctx.events.push(Event::CapitalLost {
                    player: p.clone(),
                    terr: terr.clone(),
                });
            }
            match to {
                Some(q) => ctx.events.push(Event::TerritoryGiven {
                    terr: terr.clone(),
                    from: p.clone(),
                    to: q.clone(),
                }),
                None => ctx.events.push(Event::Abandoned {
                    terr: terr.clone(),
                    player: p.clone(),
                }),
            }
            ctx.events.push(Event::OrderResult {
                player: p.clone(),
                text: o.text.to_string(),
                status: OrderStatus::Ok,
                detail: "fait".into(),
            });
        }
    }
}
