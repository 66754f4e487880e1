//! R11 — housekeeping (spec §3.12): supremacy from the final counts,
//! eliminations ("anéanti"), the vision sets of the fog of war, the end of the
//! game, and the log of the resolution kept for the reports.

use crate::events::Event;
use crate::state::Status;
use crate::turn::{see_owned, see_troops};
use crate::{combat, Scrambled};
use arbitre_core::TurnCtx;

type Ctx<'a> = TurnCtx<'a, Scrambled>;

/// R11: supremacy, eliminations, end of game, vision and the log (§3.12).
pub fn run(ctx: &mut Ctx<'_>) {
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
    st.log = ctx.events.clone();
}
