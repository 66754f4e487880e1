//! Phase 7: Hypersprünge (rulebook Punkt 7, spec O-7 and §4.3 phase 7). Rulers
//! jump in a random order drawn afresh every month; after all entries of one
//! ruler, the battles at that ruler's arrival points are fought in order of first
//! arrival, before the next ruler jumps.

use crate::combat::{random_neighbour, resolve_point};
use crate::events::{msg, Event};
use crate::formulas::{current_range, distance};
use crate::model::{RulerNr, ShipNr, State};
use crate::orders::Order;
use crate::turn::{entries_of, m04};
use crate::Eds;
use arbitre_core::TurnCtx;

/// The exit point of a jump from S toward Z with current range `rwc` (§4.3,
/// Z itself when the rounded distance is within range, otherwise the map
/// point nearest to the exact point at distance `rwc` on the line, among the
/// points whose rounded distance from S is ≤ rwc.
pub fn exit_point(s: (i32, i32), z: (i32, i32), rwc: u32) -> (i32, i32) {
    let (dx, dy) = ((z.0 - s.0) as i64, (z.1 - s.1) as i64);
    let q = dx * dx + dy * dy;
    let lim = rwc as i64 * (rwc as i64 + 1);
    if q <= lim {
        return z;
    }
    let f = rwc as f64 / (q as f64).sqrt();
    let ex = s.0 as f64 + dx as f64 * f;
    let ey = s.1 as f64 + dy as f64 * f;
    let mut best: Option<((i32, i32), f64, i64)> = None;
    for px in (ex.floor() as i32 - 1)..=(ex.floor() as i32 + 2) {
        for py in (ey.floor() as i32 - 1)..=(ey.floor() as i32 + 2) {
            let (ax, ay) = ((px - s.0) as i64, (py - s.1) as i64);
            let qq = ax * ax + ay * ay;
            if qq > lim {
                continue;
            }
            let d2 = (px as f64 - ex).powi(2) + (py as f64 - ey).powi(2);
            let better = match best {
                None => true,
                Some(((bx, by), bd, bq)) => {
                    d2 < bd - 1e-12
                        || ((d2 - bd).abs() <= 1e-12
                            && (qq > bq || (qq == bq && (px < bx || (px == bx && py < by)))))
                }
            };
            if better {
                best = Some(((px, py), d2, qq));
            }
        }
    }
    best.map(|b| b.0).unwrap_or(s)
}

/// One controlled jump of one ship; returns the final point, or None if refused.
fn jump_ship(
    ctx: &mut TurnCtx<'_, Eds>,
    ruler: RulerNr,
    text: &str,
    ship: ShipNr,
    x: i32,
    y: i32,
) -> Option<(i32, i32)> {
    let st: &State = ctx.state;
    let sh = &st.ships[&ship];
    if ctx.scratch.jumped.contains(&ship) {
        msg(
            ctx.events,
            ruler,
            7,
            true,
            Some(text),
            format!("Schiff {ship} ist diesen Monat bereits gesprungen – Befehl verworfen"),
        );
        return None;
    }
    if sh.sp == 0 {
        msg(
            ctx.events,
            ruler,
            7,
            true,
            Some(text),
            format!("Schiff {ship} hat kein Uran im Tank – Befehl verworfen"),
        );
        return None;
    }
    if (sh.x, sh.y) == (x, y) {
        msg(
            ctx.events,
            ruler,
            7,
            true,
            Some(text),
            format!("Schiff {ship} steht bereits bei ({x},{y}) – Befehl verworfen"),
        );
        return None;
    }
    let rwc = current_range(sh.rw, sh.hits);
    let start = sh.pos();
    let mut end = exit_point(start, (x, y), rwc);
    if end != (x, y) {
        let d = distance((x - start.0) as i64, (y - start.1) as i64);
        msg(
            ctx.events,
            ruler,
            7,
            false,
            Some(text),
            format!("Schiff {ship}: Ziel ({x},{y}) außer Reichweite (Entfernung {d}, Reichweite {rwc}) – Austritt bei ({},{})", end.0, end.1),
        );
    }
    let den = st.params.misjump_denominator;
    if ctx.rng.chance(1, den) {
        end = random_neighbour(ctx.state, end.0, end.1, ctx.rng);
        msg(
            ctx.events,
            ruler,
            7,
            false,
            Some(text),
            format!(
                "Schiff {ship}: Fehlsprung – Austritt bei ({},{})",
                end.0, end.1
            ),
        );
    }
    let s = ctx.state.ships.get_mut(&ship).expect("ship");
    s.sp -= 1;
    s.x = end.0;
    s.y = end.1;
    ctx.scratch.jumped.insert(ship);
    Some(end)
}

pub fn phase7_jumps(ctx: &mut TurnCtx<'_, Eds>) {
    let mut perm = ctx.state.active_rulers();
    ctx.rng.shuffle(&mut perm);
    ctx.events.push(Event::JumpOrder(perm.clone()));
    let month = ctx.turn;
    for ruler in perm {
        let mut arrivals: Vec<(i32, i32)> = Vec::new();
        for (_, text, order) in entries_of(ctx, ruler, 7) {
            let Order::Jump { ship, fleet, x, y } = order else {
                continue;
            };
            let st = &*ctx.state;
            let Some(lead) = st.ships.get(&ship).filter(|s| s.owner == ruler) else {
                msg(ctx.events, ruler, 7, true, Some(&text), m04(ship));
                continue;
            };
            if lead.home_base {
                msg(
                    ctx.events,
                    ruler,
                    7,
                    true,
                    Some(&text),
                    "Die Heimatbasis kann nicht springen – Befehl verworfen",
                );
                continue;
            }
            if !st.in_map(x, y) {
                msg(
                    ctx.events,
                    ruler,
                    7,
                    true,
                    Some(&text),
                    format!("Ziel ({x},{y}) liegt außerhalb der Karte – Befehl verworfen"),
                );
                continue;
            }
            let start = lead.pos();
            let members: Vec<ShipNr> = if fleet {
                st.ships
                    .values()
                    .filter(|s| {
                        s.owner == ruler
                            && s.pos() == start
                            && s.number > ship
                            && !s.home_base
                            && !ctx.scratch.jumped.contains(&s.number)
                    })
                    .map(|s| s.number)
                    .collect()
            } else {
                Vec::new()
            };
            let mut movers = vec![ship];
            movers.extend(
                members
                    .iter()
                    .copied()
                    .filter(|m| ctx.state.ships[m].sp > 0),
            );
            for m in movers {
                if let Some(p) = jump_ship(ctx, ruler, &text, m, x, y) {
                    if !arrivals.contains(&p) {
                        arrivals.push(p);
                    }
                }
            }
        }
        for (x, y) in arrivals {
            resolve_point(
                ctx.state,
                x,
                y,
                "Hypersprünge",
                month,
                &mut ctx.scratch.battles,
                ctx.rng,
                ctx.events,
            );
        }
    }
}
