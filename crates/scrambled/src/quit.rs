//! R1 — "Quitter la partie" (spec §3.2): the player's troops are dissolved and
//! their territories become neutral; their score is fixed at −start area.

use crate::events::Event;
use crate::orders::Order;
use crate::state::Status;
use crate::Scrambled;
use arbitre_core::TurnCtx;

type Ctx<'a> = TurnCtx<'a, Scrambled>;

/// R1: quitting players leave (§3.2).
pub fn run(ctx: &mut Ctx<'_>) {
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
