//! Phase 3: Statusänderung and every battle that now exists (rulebook Punkt 3,
//! spec O-3, §4.3 phase 3). All rulers' status entries apply first; then each
//! contested point is resolved in ascending X, then Y, before any repair,
//! refuelling or retreat change.

use crate::combat::{contested_points, resolve_point};
use crate::events::msg;
use crate::orders::Order;
use crate::turn::entries;
use crate::Eds;
use arbitre_core::TurnCtx;

pub fn phase3_status(ctx: &mut TurnCtx<'_, Eds>) {
    for (ruler, text, order) in entries(ctx, 3) {
        let Order::Status {
            ruler: target,
            value,
        } = order
        else {
            continue;
        };
        let valid = u8::try_from(target)
            .ok()
            .filter(|t| ctx.state.ruler(*t).is_some_and(|r| r.active));
        let Some(t) = valid else {
            msg(
                ctx.events,
                ruler,
                3,
                true,
                Some(&text),
                format!("Herrscher {target:02} nicht (mehr) im Spiel – Befehl verworfen"),
            );
            continue;
        };
        if t == ruler {
            msg(
                ctx.events,
                ruler,
                3,
                true,
                Some(&text),
                "Status zu Dir selbst nicht möglich – Befehl verworfen",
            );
            continue;
        }
        ctx.state
            .ruler_mut(ruler)
            .expect("ruler")
            .status
            .insert(t, value as u8);
    }
    let month = ctx.turn;
    for (x, y) in contested_points(ctx.state) {
        resolve_point(
            ctx.state,
            x,
            y,
            "Statusänderungen",
            month,
            &mut ctx.scratch.battles,
            ctx.rng,
            ctx.events,
        );
    }
}
