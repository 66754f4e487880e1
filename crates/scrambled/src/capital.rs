//! R10 — "Changer de capitale" (spec §3.11): a move ordered for turn N happens
//! at the resolution of turn N+1, if the target is still the player's.

use crate::events::Event;
use crate::Scrambled;
use arbitre_core::{PlayerId, TurnCtx};

type Ctx<'a> = TurnCtx<'a, Scrambled>;

/// R10: capital moves due at this resolution (§3.11).
pub fn run(ctx: &mut Ctx<'_>) {
    let turn = ctx.turn;
    let st = &mut *ctx.state;
    let ids: Vec<PlayerId> = st.active_players();
    for p in ids {
        let Some((t, due)) = st.players[&p].pending_capital.clone() else {
            continue;
        };
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
            ctx.events
                .push(Event::CapitalMoveCancelled { player: p, terr: t });
        }
    }
}
