//! The automatic phases 19–23 (rulebook Punkte 19–23): occupation, mining and
//! harvest, research, grain consumption, taxes with the average EV and the
//! victory check. No orders; stars in ascending number, rulers ascending.

use crate::events::{msg, Event};
use crate::formulas::{mine_decline, research_chance, taxes};
use crate::model::{Facility, RulerNr};
use crate::orders::Order;
use crate::Eds;
use arbitre_core::TurnCtx;
use std::collections::BTreeSet;

pub fn phase19_occupy(ctx: &mut TurnCtx<'_, Eds>) {
    let numbers: Vec<u32> = ctx.state.stars.keys().copied().collect();
    // Occupation moves no ship, so one index serves the whole phase.
    let sp = ctx.state.spatial();
    for n in numbers {
        let st = &*ctx.state;
        let s = &st.stars[&n];
        let owners: BTreeSet<RulerNr> = sp
            .ships_at(s.x, s.y)
            .iter()
            .map(|k| st.ships[k].owner)
            .collect();
        if owners.len() != 1 {
            continue;
        }
        let r = *owners.iter().next().expect("one owner");
        if s.owner == Some(r) {
            continue;
        }
        if s.owner.is_some() && s.ljg + s.tjg > 0 {
            continue;
        }
        let may = match s.owner {
            None => true,
            Some(o) => st.hostile(r, o),
        };
        if !may {
            continue;
        }
        let old = s.owner;
        let (x, y) = (s.x, s.y);
        ctx.state.stars.get_mut(&n).expect("star").owner = Some(r);
        msg(
            ctx.events,
            r,
            19,
            false,
            None,
            format!("Stern {n} ({x},{y}) besetzt"),
        );
        if let Some(o) = old {
            msg(
                ctx.events,
                o,
                19,
                false,
                None,
                format!("Stern {n} ({x},{y}) an Herrscher {r:02} verloren"),
            );
        }
    }
}

pub fn phase20_production(ctx: &mut TurnCtx<'_, Eds>) {
    let p = ctx.state.params.clone();
    for s in ctx.state.stars.values_mut() {
        let g = match s.facility {
            Some(Facility::E) => 0,
            Some(Facility::U) => 1,
            Some(Facility::G) => 2,
            _ => continue,
        };
        s.stock[g] = s.stock[g].saturating_add(s.rate[g]).min(p.stock_cap);
        if g < 2 {
            s.rate[g] = mine_decline(&p, s.rate[g]);
        }
    }
}

pub fn phase21_research(ctx: &mut TurnCtx<'_, Eds>) {
    let p = ctx.state.params.clone();
    for r in ctx.state.active_rulers() {
        let stations: Vec<u32> = ctx
            .state
            .stars
            .values()
            .filter(|s| s.owner == Some(r) && s.facility == Some(Facility::F) && s.bv >= 1)
            .map(|s| s.number)
            .collect();
        if stations.is_empty() {
            continue;
        }
        let mut wins = 0;
        for (i, _) in stations.iter().enumerate() {
            if ctx.state.ruler(r).expect("ruler").ev >= p.ev_win {
                break;
            }
            let (num, den) = research_chance(&p, i as u64 + 1);
            if ctx.rng.chance(num, den) {
                wins += 1;
                ctx.state.ruler_mut(r).expect("ruler").ev += 1;
            }
        }
        let ev = ctx.state.ruler(r).expect("ruler").ev;
        let word = if wins == 1 { "Erfolg" } else { "Erfolge" };
        msg(
            ctx.events,
            r,
            21,
            false,
            None,
            format!("Forschung: {wins} {word}, Evolutionsstufe jetzt {ev}"),
        );
    }
}

pub fn phase22_grain(ctx: &mut TurnCtx<'_, Eds>) {
    let per = ctx.state.params.grain_per_bv;
    let mut famine = Vec::new();
    for s in ctx.state.stars.values_mut() {
        if s.bv == 0 {
            continue;
        }
        let need = s.bv * per;
        if s.stock[2] >= need {
            s.stock[2] -= need;
        } else {
            let old = s.bv;
            s.bv = s.stock[2] / per.max(1);
            s.stock[2] = 0;
            if let Some(o) = s.owner {
                famine.push((o, s.number, old, s.bv));
            }
        }
    }
    for (o, n, old, new) in famine {
        msg(
            ctx.events,
            o,
            22,
            false,
            None,
            format!("Stern {n}: Hungersnot – Bevölkerung sinkt von {old} auf {new}"),
        );
    }
}

pub fn phase23_taxes(ctx: &mut TurnCtx<'_, Eds>) {
    let p = ctx.state.params.clone();
    for r in ctx.state.active_rulers() {
        let sum: i64 = ctx
            .state
            .stars
            .values()
            .filter(|s| s.owner == Some(r))
            .map(|s| taxes(&p, s.bv))
            .sum();
        ctx.state.ruler_mut(r).expect("ruler").we += sum;
        msg(ctx.events, r, 23, false, None, format!("Steuern: {sum} WE"));
    }
    // Elimination: no star and no ship.
    for r in ctx.state.active_rulers() {
        let has = ctx.state.stars.values().any(|s| s.owner == Some(r))
            || ctx.state.ships.values().any(|s| s.owner == r);
        if !has {
            ctx.state.ruler_mut(r).expect("ruler").active = false;
            msg(
                ctx.events,
                r,
                23,
                false,
                None,
                "Dein Reich ist untergegangen – Du bist ausgeschieden",
            );
        }
    }
    let active = ctx.state.active_rulers();
    if !active.is_empty() {
        let avg = active
            .iter()
            .map(|r| ctx.state.ruler(*r).expect("ruler").ev as f64)
            .sum::<f64>()
            / active.len() as f64;
        ctx.events.push(Event::AverageEv(avg));
    }
    let winners: Vec<RulerNr> = active
        .iter()
        .copied()
        .filter(|r| ctx.state.ruler(*r).expect("ruler").ev >= p.ev_win)
        .collect();
    if !winners.is_empty() {
        ctx.state.winners = winners.clone();
        ctx.state.game_over = true;
        ctx.events.push(Event::GameEnd(winners));
    }
    // The free sections of the order sheets: Anzeiger, Diplomatie, Hinweis.
    let mut posts = Vec::new();
    for r in &ctx.state.rulers {
        let Some(list) = ctx.orders.get(&r.id) else {
            continue;
        };
        for o in list {
            match &o.order {
                Order::Anzeiger(t) => posts.push((r.number, t.clone())),
                Order::Diplomatie { to, text } => ctx.events.push(Event::Diplomacy {
                    from: r.number,
                    to: *to,
                    text: text.clone(),
                }),
                Order::Hinweis(t) => ctx.events.push(Event::Note {
                    from: r.number,
                    text: t.clone(),
                }),
                _ => {}
            }
        }
    }
    ctx.state.anzeiger = posts;
    // Phase 23 is the last phase: the month's events are complete.
    ctx.state.last_events = ctx.events.clone();
}
