//! Orders on the realm: industry (phase 15, O-15), colonisation (phase 16, O-16),
//! transfers of wealth (phase 17, O-17) and handing over stars (phase 18, O-18).
//! Costs are all or nothing and checked against the money at execution (§3.1).

use crate::events::{money_text, msg, Event};
use crate::formulas::colonise_cost;
use crate::orders::Order;
use crate::turn::{entries, m03};
use crate::Eds;
use arbitre_core::TurnCtx;

pub fn phase15_industry(ctx: &mut TurnCtx<'_, Eds>) {
    let p = ctx.state.params.clone();
    for (ruler, text, order) in entries(ctx, 15) {
        let Order::Industry { star, facility } = order else {
            continue;
        };
        let st = &*ctx.state;
        let Some(s) = st.stars.get(&star).filter(|s| s.owner == Some(ruler)) else {
            msg(ctx.events, ruler, 15, true, Some(&text), m03(star));
            continue;
        };
        let Some(f) = facility else {
            if let Some(old) = s.facility {
                msg(
                    ctx.events,
                    ruler,
                    15,
                    false,
                    Some(&text),
                    format!("{} auf Stern {star} abgerissen", old.word()),
                );
                ctx.state.stars.get_mut(&star).expect("star").facility = None;
            } else {
                msg(
                    ctx.events,
                    ruler,
                    15,
                    true,
                    Some(&text),
                    format!("Auf Stern {star} steht keine Anlage – Befehl verworfen"),
                );
            }
            continue;
        };
        if s.facility == Some(f) {
            msg(
                ctx.events,
                ruler,
                15,
                true,
                Some(&text),
                "Anlage bereits vorhanden – Befehl verworfen",
            );
            continue;
        }
        let min = p.industry_bv[f.idx()];
        if s.bv < min {
            msg(
                ctx.events,
                ruler,
                15,
                true,
                Some(&text),
                format!(
                    "Bevölkerungsgrad {} zu niedrig (mindestens {min}) – Befehl verworfen",
                    s.bv
                ),
            );
            continue;
        }
        let cost = p.industry_cost[f.idx()];
        let we = st.ruler(ruler).expect("ruler").we;
        if we < cost {
            msg(
                ctx.events,
                ruler,
                15,
                true,
                Some(&text),
                money_text(cost, we),
            );
            continue;
        }
        ctx.state.ruler_mut(ruler).expect("ruler").we -= cost;
        ctx.state.stars.get_mut(&star).expect("star").facility = Some(f);
        msg(
            ctx.events,
            ruler,
            15,
            false,
            Some(&text),
            format!("{} auf Stern {star} gebaut: {cost} WE", f.word()),
        );
    }
}

pub fn phase16_colonise(ctx: &mut TurnCtx<'_, Eds>) {
    let p = ctx.state.params.clone();
    for (ruler, text, order) in entries(ctx, 16) {
        let Order::Colonise { star } = order else {
            continue;
        };
        let st = &*ctx.state;
        let Some(s) = st.stars.get(&star).filter(|s| s.owner == Some(ruler)) else {
            msg(ctx.events, ruler, 16, true, Some(&text), m03(star));
            continue;
        };
        if !ctx.scratch.colonised.insert(star) {
            msg(
                ctx.events,
                ruler,
                16,
                true,
                Some(&text),
                format!("Stern {star} in diesem Monat bereits genannt – Befehl verworfen"),
            );
            continue;
        }
        if s.bv >= p.bv_max {
            msg(
                ctx.events,
                ruler,
                16,
                true,
                Some(&text),
                format!("Bevölkerungsgrad bereits {} – Befehl verworfen", p.bv_max),
            );
            continue;
        }
        let b = s.bv + 1;
        let cost = colonise_cost(&p, b);
        let we = st.ruler(ruler).expect("ruler").we;
        if we < cost {
            msg(
                ctx.events,
                ruler,
                16,
                true,
                Some(&text),
                money_text(cost, we),
            );
            continue;
        }
        ctx.state.ruler_mut(ruler).expect("ruler").we -= cost;
        ctx.state.stars.get_mut(&star).expect("star").bv = b;
        msg(
            ctx.events,
            ruler,
            16,
            false,
            Some(&text),
            format!("Stern {star}: Bevölkerungsgrad jetzt {b} ({cost} WE)"),
        );
    }
}

pub fn phase17_transfer(ctx: &mut TurnCtx<'_, Eds>) {
    for (ruler, text, order) in entries(ctx, 17) {
        let Order::Transfer { ruler: to, amount } = order else {
            continue;
        };
        let target = u8::try_from(to)
            .ok()
            .filter(|t| *t != ruler && ctx.state.ruler(*t).is_some_and(|r| r.active));
        let Some(t) = target else {
            msg(
                ctx.events,
                ruler,
                17,
                true,
                Some(&text),
                format!("Herrscher {to:02} nicht (mehr) im Spiel – Befehl verworfen"),
            );
            continue;
        };
        let we = ctx.state.ruler(ruler).expect("ruler").we;
        if we < amount {
            msg(
                ctx.events,
                ruler,
                17,
                true,
                Some(&text),
                money_text(amount, we),
            );
            continue;
        }
        ctx.state.ruler_mut(ruler).expect("ruler").we -= amount;
        ctx.state.ruler_mut(t).expect("ruler").we += amount;
        ctx.events.push(Event::Transfer {
            from: ruler,
            to: t,
            amount,
        });
    }
}

pub fn phase18_handover(ctx: &mut TurnCtx<'_, Eds>) {
    for (ruler, text, order) in entries(ctx, 18) {
        let Order::Handover { star, ruler: to } = order else {
            continue;
        };
        let st = &*ctx.state;
        let Some(s) = st.stars.get(&star).filter(|s| s.owner == Some(ruler)) else {
            msg(ctx.events, ruler, 18, true, Some(&text), m03(star));
            continue;
        };
        let target = u8::try_from(to)
            .ok()
            .filter(|t| *t != ruler && st.ruler(*t).is_some_and(|r| r.active));
        let Some(t) = target else {
            msg(
                ctx.events,
                ruler,
                18,
                true,
                Some(&text),
                format!("Herrscher {to:02} nicht (mehr) im Spiel – Befehl verworfen"),
            );
            continue;
        };
        if st.st(ruler, t) == 3 {
            msg(
                ctx.events,
                ruler,
                18,
                true,
                Some(&text),
                "Status 3 zum Empfänger – Befehl verworfen",
            );
            continue;
        }
        if s.ljg + s.tjg > 0 {
            msg(
                ctx.events,
                ruler,
                18,
                true,
                Some(&text),
                "Auf dem Stern sind Jäger stationiert – Übergabe nicht möglich",
            );
            continue;
        }
        if !st.ships_at(s.x, s.y).any(|sh| sh.owner == t) {
            msg(
                ctx.events,
                ruler,
                18,
                true,
                Some(&text),
                "Kein Schiff des Empfängers über dem Stern – Übergabe nicht möglich",
            );
            continue;
        }
        let (x, y) = (s.x, s.y);
        ctx.state.stars.get_mut(&star).expect("star").owner = Some(t);
        msg(
            ctx.events,
            ruler,
            18,
            false,
            Some(&text),
            format!("Stern {star} ({x},{y}) an Herrscher {t:02} übergeben"),
        );
        msg(
            ctx.events,
            t,
            18,
            false,
            None,
            format!("Stern {star} ({x},{y}) von Herrscher {ruler:02} erhalten"),
        );
    }
}
