//! Phase 0 (bookkeeping, spec 2.9) and helpers shared by the phases: which
//! player's orders run in a phase, and the French wording of partial execution.

use crate::model::*;
use crate::orders::Order;
use crate::Nebulight;
use arbitre_core::{Located, TurnCtx};

pub type Ctx<'a, 'b> = TurnCtx<'a, Nebulight>;

/// The orders of every player for one rulebook phase, player slot by slot,
/// each player's in file order (decision AMB-14).
pub fn orders_for(ctx: &Ctx<'_, '_>, pred: impl Fn(&Order) -> bool) -> Vec<(Slot, Located<Order>)> {
    let mut out = Vec::new();
    for slot in 0..ctx.state.players.len() {
        let id = ctx.state.players[slot].id.clone();
        if let Some(list) = ctx.orders.get(id.as_str()) {
            for o in list {
                if pred(&o.order) {
                    out.push((slot, o.clone()));
                }
            }
        }
    }
    out
}

pub fn partial(done: u32, asked: u32) -> String {
    format!("exécuté partiellement : {done} sur {asked}")
}

/// Phase 0: reset the per-turn log, record owners at the start of the turn,
/// hand each owned world its UP budget, and list the lines the parser refused.
pub fn prepare(ctx: &mut Ctx<'_, '_>) {
    let s = &mut *ctx.state;
    s.log = TurnLog::default();
    let nplayers = s.players.len();
    s.log.players = vec![PlayerLog::default(); nplayers];
    let worlds: Vec<(WorldId, Owner, u32)> = s
        .worlds
        .iter()
        .map(|(id, w)| (*id, w.owner, w.up))
        .collect();
    for (id, owner, up) in worlds {
        let l = s.wlog(id);
        l.owner_start = owner;
        l.up_left = if owner.is_some() { up } else { 0 };
    }
    let fleets: Vec<(FleetId, Owner, WorldId)> = s
        .fleets
        .iter()
        .map(|(id, f)| (*id, f.owner, f.world))
        .collect();
    for (id, owner, world) in fleets {
        let l = s.flog(id);
        l.owner_start = owner;
        l.world_start = world;
    }
    for (slot, o) in orders_for(ctx, |o| matches!(o, Order::Rejected { .. })) {
        if let Order::Rejected { reason } = &o.order {
            ctx.state.reject(slot, o.line, &o.text, reason.clone());
        }
    }
}
