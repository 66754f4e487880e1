//! Fuel, retreat numbers, goods and fighters: phases 5 (with the lost check), 6,
//! 8, 9, 10 and 11 (spec O-5, O-6, O-8…O-11). Amounts larger than possible are
//! clamped and reported; an order that moves nothing is rejected.

use crate::events::msg;
use crate::model::{RulerNr, Ship, ShipNr, Star, State};
use crate::orders::Order;
use crate::turn::{entries, m04};
use crate::Eds;
use arbitre_core::TurnCtx;

pub fn phase5_refuel(ctx: &mut TurnCtx<'_, Eds>) {
    for (ruler, text, order) in entries(ctx, 5) {
        let Order::Refuel { ship, amount } = order else {
            continue;
        };
        let st = &*ctx.state;
        let (sh, star) = match ship_at_friendly_star(st, ruler, ship) {
            Ok(found) => found,
            Err(why) => {
                msg(ctx.events, ruler, 5, true, Some(&text), why);
                continue;
            }
        };
        if sh.tk == 0 || sh.sp >= sh.tk {
            msg(
                ctx.events,
                ruler,
                5,
                true,
                Some(&text),
                format!("Tank von Schiff {ship} ist voll – Befehl verworfen"),
            );
            continue;
        }
        if star.stock[1] == 0 {
            msg(
                ctx.events,
                ruler,
                5,
                true,
                Some(&text),
                format!("Kein Uran auf Stern {} – Befehl verworfen", star.number),
            );
            continue;
        }
        let room = sh.tk - sh.sp;
        let q = amount.min(room).min(star.stock[1]);
        if q < amount {
            let why = if q == room { "Tankgröße" } else { "Vorrat" };
            msg(
                ctx.events,
                ruler,
                5,
                false,
                Some(&text),
                format!("nur {q} von {amount} ausgeführt ({why})"),
            );
        }
        let sn = star.number;
        ctx.state.stars.get_mut(&sn).expect("star").stock[1] -= q;
        ctx.state.ships.get_mut(&ship).expect("ship").sp += q;
    }
    // Verschollen-Prüfung: after all refuelling, empty tanks in empty space are lost.
    let sp = ctx.state.spatial();
    let lost: Vec<u32> = ctx
        .state
        .ships
        .values()
        .filter(|s| !s.home_base && s.sp == 0 && sp.star_nr(s.x, s.y).is_none())
        .map(|s| s.number)
        .collect();
    for n in lost {
        let s = ctx.state.ships.remove(&n).expect("ship");
        msg(
            ctx.events,
            s.owner,
            5,
            true,
            None,
            format!(
                "Schiff {} {} ({}) bei ({},{}): Verbindung abgebrochen – verschollen",
                n,
                s.name,
                s.class_letter(),
                s.x,
                s.y
            ),
        );
    }
}

pub fn phase6_retreat(ctx: &mut TurnCtx<'_, Eds>) {
    for (ruler, text, order) in entries(ctx, 6) {
        let Order::Retreat { ship, r } = order else {
            continue;
        };
        match ctx.state.ships.get_mut(&ship).filter(|s| s.owner == ruler) {
            None => msg(ctx.events, ruler, 6, true, Some(&text), m04(ship)),
            Some(s) if s.home_base => msg(
                ctx.events,
                ruler,
                6,
                true,
                Some(&text),
                "Die Heimatbasis flieht nie – Befehl verworfen",
            ),
            Some(s) => s.r = r as u8,
        }
    }
}

pub fn phase8_unload(ctx: &mut TurnCtx<'_, Eds>) {
    let cap = ctx.state.params.stock_cap;
    for (ruler, text, order) in entries(ctx, 8) {
        let Order::Unload { ship, good, amount } = order else {
            continue;
        };
        let st = &*ctx.state;
        let (sh, star) = match ship_at_star(st, ruler, ship) {
            Ok(found) => found,
            Err(why) => {
                msg(ctx.events, ruler, 8, true, Some(&text), why);
                continue;
            }
        };
        if star.owner.is_some_and(|o| st.hostile(o, ruler)) {
            msg(
                ctx.events,
                ruler,
                8,
                true,
                Some(&text),
                "Status 3 zum Besitzer – Befehl verworfen",
            );
            continue;
        }
        let (kind, have) = match sh.cargo {
            Some((k, n)) if k == good => (k, n),
            Some((k, _)) => {
                msg(
                    ctx.events,
                    ruler,
                    8,
                    true,
                    Some(&text),
                    format!(
                        "Falsche Ladungsart (an Bord: {}) – Befehl verworfen",
                        k.letter()
                    ),
                );
                continue;
            }
            None => {
                msg(
                    ctx.events,
                    ruler,
                    8,
                    true,
                    Some(&text),
                    format!("Schiff {ship} hat keine Ladung – Befehl verworfen"),
                );
                continue;
            }
        };
        let room = cap - star.stock[kind.idx()].min(cap);
        let q = amount.min(have).min(room);
        if q == 0 {
            msg(
                ctx.events,
                ruler,
                8,
                true,
                Some(&text),
                "Lagergrenze von 30000 erreicht – Befehl verworfen",
            );
            continue;
        }
        if q < amount {
            let why = if q == have { "Ladung" } else { "Lagergrenze" };
            msg(
                ctx.events,
                ruler,
                8,
                false,
                Some(&text),
                format!("nur {q} von {amount} ausgeführt ({why})"),
            );
        }
        let sn = star.number;
        ctx.state.stars.get_mut(&sn).expect("star").stock[kind.idx()] += q;
        let s = ctx.state.ships.get_mut(&ship).expect("ship");
        s.cargo = if have - q == 0 {
            None
        } else {
            Some((kind, have - q))
        };
    }
}

pub fn phase9_load(ctx: &mut TurnCtx<'_, Eds>) {
    for (ruler, text, order) in entries(ctx, 9) {
        let Order::Load { ship, good, amount } = order else {
            continue;
        };
        let st = &*ctx.state;
        let (sh, star) = match ship_at_friendly_star(st, ruler, ship) {
            Ok(found) => found,
            Err(why) => {
                msg(ctx.events, ruler, 9, true, Some(&text), why);
                continue;
            }
        };
        let aboard = match sh.cargo {
            Some((k, n)) if k == good => n,
            Some((k, _)) => {
                msg(
                    ctx.events,
                    ruler,
                    9,
                    true,
                    Some(&text),
                    format!(
                        "Falsche Ladungsart (an Bord: {}) – Befehl verworfen",
                        k.letter()
                    ),
                );
                continue;
            }
            None => 0,
        };
        let room = sh.lr.saturating_sub(aboard);
        let stock = star.stock[good.idx()];
        let q = amount.min(room).min(stock);
        if q == 0 {
            let why = if room == 0 {
                "Laderaum voll"
            } else {
                "kein Vorrat auf dem Stern"
            };
            msg(
                ctx.events,
                ruler,
                9,
                true,
                Some(&text),
                format!("{why} – Befehl verworfen"),
            );
            continue;
        }
        if q < amount {
            let why = if q == room { "Laderaum" } else { "Vorrat" };
            msg(
                ctx.events,
                ruler,
                9,
                false,
                Some(&text),
                format!("nur {q} von {amount} ausgeführt ({why})"),
            );
        }
        let sn = star.number;
        ctx.state.stars.get_mut(&sn).expect("star").stock[good.idx()] -= q;
        ctx.state.ships.get_mut(&ship).expect("ship").cargo = Some((good, aboard + q));
    }
}

/// Phases 10 and 11: fighters between an own ship and an own star.
fn fighters(ctx: &mut TurnCtx<'_, Eds>, phase: u8) {
    let cap = ctx.state.params.fighter_cap;
    for (ruler, text, order) in entries(ctx, phase) {
        let (ship, l, t) = match order {
            Order::FightersOut { ship, l, t } | Order::FightersIn { ship, l, t } => (ship, l, t),
            _ => continue,
        };
        let st = &*ctx.state;
        let Some(sh) = st.ships.get(&ship).filter(|s| s.owner == ruler) else {
            msg(ctx.events, ruler, phase, true, Some(&text), m04(ship));
            continue;
        };
        let Some(star) = st.star_at(sh.x, sh.y).filter(|s| s.owner == Some(ruler)) else {
            msg(
                ctx.events,
                ruler,
                phase,
                true,
                Some(&text),
                "Kein eigener Stern an dieser Position – Befehl verworfen",
            );
            continue;
        };
        let sn = star.number;
        let (ql, qt, why) = if phase == 10 {
            let ql = l.min(sh.ljg).min(cap.saturating_sub(star.ljg));
            let qt = t.min(sh.tjg).min(cap.saturating_sub(star.tjg));
            let why = if ql < l.min(sh.ljg) || qt < t.min(sh.tjg) {
                "999er-Grenze"
            } else {
                "an Bord"
            };
            (ql, qt, why)
        } else {
            let mut free = sh.jg.saturating_sub(sh.ljg + sh.tjg);
            let ql = l.min(star.ljg).min(free);
            free -= ql;
            let qt = t.min(star.tjg).min(free);
            let why = if ql < l.min(star.ljg) || qt < t.min(star.tjg) {
                "Hangarplatz"
            } else {
                "Vorrat"
            };
            (ql, qt, why)
        };
        if ql + qt == 0 {
            msg(
                ctx.events,
                ruler,
                phase,
                true,
                Some(&text),
                format!("keine Jäger bewegt ({why}) – Befehl verworfen"),
            );
            continue;
        }
        if ql + qt < l + t {
            msg(
                ctx.events,
                ruler,
                phase,
                false,
                Some(&text),
                format!("nur {} von {} ausgeführt ({why})", ql + qt, l + t),
            );
        }
        let sign_out = phase == 10;
        let s = ctx.state.ships.get_mut(&ship).expect("ship");
        if sign_out {
            s.ljg -= ql;
            s.tjg -= qt;
        } else {
            s.ljg += ql;
            s.tjg += qt;
        }
        let stv = ctx.state.stars.get_mut(&sn).expect("star");
        if sign_out {
            stv.ljg += ql;
            stv.tjg += qt;
        } else {
            stv.ljg -= ql;
            stv.tjg -= qt;
        }
    }
}

pub fn phase10_fighters_out(ctx: &mut TurnCtx<'_, Eds>) {
    fighters(ctx, 10);
}

pub fn phase11_fighters_in(ctx: &mut TurnCtx<'_, Eds>) {
    fighters(ctx, 11);
}

/// The precondition shared by refuelling and unloading (phases 5, 8): the
/// ruler's own ship, standing at a star. `Err` holds the refusal for the report.
fn ship_at_star(st: &State, ruler: RulerNr, ship: ShipNr) -> Result<(&Ship, &Star), String> {
    let sh = st
        .ships
        .get(&ship)
        .filter(|s| s.owner == ruler)
        .ok_or_else(|| m04(ship))?;
    let star = st
        .star_at(sh.x, sh.y)
        .ok_or_else(|| "Kein Stern an dieser Position – Befehl verworfen".to_string())?;
    Ok((sh, star))
}

/// Refuelling and loading (phases 5, 9) also need the star to be the
/// ruler's own or a friend's (status 1).
fn ship_at_friendly_star(
    st: &State,
    ruler: RulerNr,
    ship: ShipNr,
) -> Result<(&Ship, &Star), String> {
    let (sh, star) = ship_at_star(st, ruler, ship)?;
    if !star.owner.is_some_and(|o| st.friendly_to(o, ruler)) {
        return Err(
            "Kein eigener oder befreundeter Stern (Status 1 erforderlich) – Befehl verworfen"
                .into(),
        );
    }
    Ok((sh, star))
}
