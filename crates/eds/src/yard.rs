//! The shipyard orders: repair (phase 4, O-4), fighter building (phase 12, O-12),
//! ship building (phase 13, O-13, with the random round-robin of §4.3) and
//! scrapping (phase 14, O-14). Repair and fighter building execute partially, as
//! far as money (and ore) allow; ship building is all or nothing (§3.1).

use crate::events::{money_text, msg};
use crate::formulas::{
    armament_we, cargo_capacity, hull_ore, hull_we, jump_range, lx, repair_cost, scrap_ore, tx,
    WEAPON_EV, WEAPON_NAMES,
};
use crate::model::{FType, Facility, RulerNr, Ship, State};
use crate::naming::clean_name;
use crate::orders::{BuildOrder, Order};
use crate::turn::{entries, m03, m04, Entry};
use crate::Eds;
use arbitre_core::TurnCtx;
use std::collections::BTreeMap;

fn own_yard(state: &State, ruler: RulerNr, x: i32, y: i32) -> Option<u32> {
    state
        .star_at(x, y)
        .filter(|s| s.owner == Some(ruler) && s.facility == Some(Facility::W))
        .map(|s| s.number)
}

pub fn phase4_repair(ctx: &mut TurnCtx<'_, Eds>) {
    let cap = ctx.state.params.yard_repair_hits;
    for (ruler, text, order) in entries(ctx, 4) {
        let Order::Repair { ship } = order else {
            continue;
        };
        let st = &*ctx.state;
        let Some(sh) = st.ships.get(&ship).filter(|s| s.owner == ruler) else {
            msg(ctx.events, ruler, 4, true, Some(&text), m04(ship));
            continue;
        };
        let Some(yard) = own_yard(st, ruler, sh.x, sh.y) else {
            msg(
                ctx.events,
                ruler,
                4,
                true,
                Some(&text),
                format!("Schiff {ship} steht nicht über einer eigenen Werft – Befehl verworfen"),
            );
            continue;
        };
        if sh.hits == 0 {
            msg(
                ctx.events,
                ruler,
                4,
                true,
                Some(&text),
                format!("Schiff {ship} hat keine Treffer – Befehl verworfen"),
            );
            continue;
        }
        let cost = repair_cost(&st.params, sh);
        let done = ctx.scratch.repaired.get(&yard).copied().unwrap_or(0);
        let we = st.ruler(ruler).expect("ruler").we;
        let free = cap.saturating_sub(done);
        if free == 0 {
            msg(
                ctx.events,
                ruler,
                4,
                true,
                Some(&text),
                format!("Werft auf Stern {yard} bereits ausgelastet – Befehl verworfen"),
            );
            continue;
        }
        let affordable = if cost <= 0 {
            u32::MAX
        } else {
            (we / cost).clamp(0, u32::MAX as i64) as u32
        };
        let h = sh.hits.min(free).min(affordable);
        if h == 0 {
            msg(
                ctx.events,
                ruler,
                4,
                true,
                Some(&text),
                money_text(cost, we),
            );
            continue;
        }
        let want = sh.hits;
        if h < want {
            let why = if h == affordable && affordable < free {
                "Vermögen"
            } else {
                "Werftkapazität"
            };
            msg(
                ctx.events,
                ruler,
                4,
                false,
                Some(&text),
                format!("nur {h} von {want} Treffern repariert ({why})"),
            );
        }
        ctx.state.ruler_mut(ruler).expect("ruler").we -= h as i64 * cost;
        ctx.state.ships.get_mut(&ship).expect("ship").hits -= h;
        *ctx.scratch.repaired.entry(yard).or_default() += h;
    }
}

/// Is a ship of a ruler hostile to `ruler` standing at (x,y)?
fn hostile_ship_at(state: &State, ruler: RulerNr, x: i32, y: i32) -> bool {
    state.ships_at(x, y).any(|s| state.hostile(ruler, s.owner))
}

pub fn phase12_fighters(ctx: &mut TurnCtx<'_, Eds>) {
    let p = ctx.state.params.clone();
    for (ruler, text, order) in entries(ctx, 12) {
        let Order::BuildFighters { star, kind, count } = order else {
            continue;
        };
        let st = &*ctx.state;
        let Some(s) = st.stars.get(&star).filter(|s| s.owner == Some(ruler)) else {
            msg(ctx.events, ruler, 12, true, Some(&text), m03(star));
            continue;
        };
        if s.facility != Some(Facility::W) {
            msg(
                ctx.events,
                ruler,
                12,
                true,
                Some(&text),
                format!("Keine Werft auf Stern {star} – Befehl verworfen"),
            );
            continue;
        }
        if hostile_ship_at(st, ruler, s.x, s.y) {
            msg(
                ctx.events,
                ruler,
                12,
                true,
                Some(&text),
                "Feindliches Schiff über dem Stern – Bau nicht möglich",
            );
            continue;
        }
        let ev = st.ruler(ruler).expect("ruler").ev;
        if kind == FType::T && ev < p.thermo_fighter_ev {
            msg(ctx.events, ruler, 12, true, Some(&text), format!("Evolutionsstufe {ev} zu niedrig für Thermojäger (mindestens {}) – Befehl verworfen", p.thermo_fighter_ev));
            continue;
        }
        let cost = if kind == FType::L {
            p.fighter_we_l
        } else {
            p.fighter_we_t
        };
        let we = st.ruler(ruler).expect("ruler").we;
        let stationed = if kind == FType::L { s.ljg } else { s.tjg };
        let limits = [
            (
                p.yard_fighters
                    .saturating_sub(ctx.scratch.fighters_built.get(&star).copied().unwrap_or(0)),
                "Werftkapazität",
            ),
            (p.fighter_cap.saturating_sub(stationed), "999er-Grenze"),
            (
                if cost <= 0 {
                    u32::MAX
                } else {
                    (we / cost).clamp(0, u32::MAX as i64) as u32
                },
                "Vermögen",
            ),
            (
                s.stock[0].checked_div(p.fighter_ore).unwrap_or(u32::MAX),
                "Erz",
            ),
        ];
        let mut q = count;
        let mut why = "";
        for (l, w) in limits {
            if l < q {
                q = l;
                why = w;
            }
        }
        if q == 0 {
            let t = match why {
                "Vermögen" => money_text(cost, we),
                "Erz" => format!(
                    "{} Erz benötigt, nur {} Erz vorhanden – Befehl verworfen",
                    p.fighter_ore, s.stock[0]
                ),
                "Werftkapazität" => {
                    format!("Werft auf Stern {star} bereits ausgelastet – Befehl verworfen")
                }
                _ => "999er-Grenze erreicht – Befehl verworfen".to_string(),
            };
            msg(ctx.events, ruler, 12, true, Some(&text), t);
            continue;
        }
        if q < count {
            msg(
                ctx.events,
                ruler,
                12,
                false,
                Some(&text),
                format!("nur {q} von {count} ausgeführt ({why})"),
            );
        }
        msg(
            ctx.events,
            ruler,
            12,
            false,
            Some(&text),
            format!(
                "{q} {} auf Stern {star} gebaut",
                if kind == FType::L {
                    "Laserjäger"
                } else {
                    "Thermojäger"
                }
            ),
        );
        ctx.state.ruler_mut(ruler).expect("ruler").we -= q as i64 * cost;
        let s = ctx.state.stars.get_mut(&star).expect("star");
        s.stock[0] -= q * p.fighter_ore;
        if kind == FType::L {
            s.ljg += q
        } else {
            s.tjg += q
        }
        *ctx.scratch.fighters_built.entry(star).or_default() += q;
    }
}

/// Build one ship (O-13) if every precondition holds now.
fn build_one(ctx: &mut TurnCtx<'_, Eds>, ruler: RulerNr, text: &str, b: &BuildOrder) {
    let p = ctx.state.params.clone();
    let st = &*ctx.state;
    let Some(s) = st.stars.get(&b.star).filter(|s| s.owner == Some(ruler)) else {
        msg(ctx.events, ruler, 13, true, Some(text), m03(b.star));
        return;
    };
    if s.facility != Some(Facility::W) {
        msg(
            ctx.events,
            ruler,
            13,
            true,
            Some(text),
            format!("Keine Werft auf Stern {} – Befehl verworfen", b.star),
        );
        return;
    }
    if ctx.scratch.ship_built.contains(&b.star) {
        msg(
            ctx.events,
            ruler,
            13,
            true,
            Some(text),
            "Werft hat diesen Monat bereits ein Schiff gebaut – Befehl verworfen",
        );
        return;
    }
    if hostile_ship_at(st, ruler, s.x, s.y) {
        msg(
            ctx.events,
            ruler,
            13,
            true,
            Some(text),
            "Feindliches Schiff über dem Stern – Bau nicht möglich",
        );
        return;
    }
    let Some(number) = st.lowest_free_ship_number() else {
        msg(
            ctx.events,
            ruler,
            13,
            true,
            Some(text),
            format!(
                "Globales Schiffslimit ({}) erreicht – Befehl verworfen",
                st.ship_limit()
            ),
        );
        return;
    };
    let typ = b.typ;
    let weapons: u32 = b.guns.iter().sum::<u32>() + b.shields.iter().sum::<u32>();
    if b.tk + b.jg > 5 * typ {
        msg(
            ctx.events,
            ruler,
            13,
            true,
            Some(text),
            format!(
                "Bauplan unzulässig: Tanks+Hangars {} > {} – Befehl verworfen",
                b.tk + b.jg,
                5 * typ
            ),
        );
        return;
    }
    if weapons > 10 * typ * typ {
        msg(
            ctx.events,
            ruler,
            13,
            true,
            Some(text),
            format!(
                "Bauplan unzulässig: Waffen {} > {} – Befehl verworfen",
                weapons,
                10 * typ * typ
            ),
        );
        return;
    }
    let ev = st.ruler(ruler).expect("ruler").ev;
    for k in 1..4 {
        if b.guns[k] + b.shields[k] > 0 && ev < WEAPON_EV[k] {
            msg(
                ctx.events,
                ruler,
                13,
                true,
                Some(text),
                format!(
                    "Evolutionsstufe {ev} zu niedrig für {} (mindestens {}) – Befehl verworfen",
                    WEAPON_NAMES[k], WEAPON_EV[k]
                ),
            );
            return;
        }
    }
    let we_need = hull_we(&p, typ) + armament_we(&p, &b.guns, &b.shields);
    let ore_need = hull_ore(&p, typ);
    let we = st.ruler(ruler).expect("ruler").we;
    if we < we_need {
        msg(
            ctx.events,
            ruler,
            13,
            true,
            Some(text),
            money_text(we_need, we),
        );
        return;
    }
    if s.stock[0] < ore_need {
        msg(
            ctx.events,
            ruler,
            13,
            true,
            Some(text),
            format!(
                "{ore_need} Erz benötigt, nur {} Erz vorhanden – Befehl verworfen",
                s.stock[0]
            ),
        );
        return;
    }
    let name = match clean_name(&b.name, p.name_max_len) {
        Some((n, false)) if !st.ships.values().any(|s| s.owner == ruler && s.name == n) => n,
        _ => {
            let k = (1..)
                .find(|k| {
                    !st.ships
                        .values()
                        .any(|s| s.owner == ruler && s.name == format!("NAMENLOS {k}"))
                })
                .expect("a free NAMENLOS number");
            let n = format!("NAMENLOS {k}");
            msg(
                ctx.events,
                ruler,
                13,
                false,
                Some(text),
                format!("Name ungültig oder vergeben – Schiff erhält den Namen {n}"),
            );
            n
        }
    };
    let (x, y) = (s.x, s.y);
    let ship = Ship {
        number,
        name: name.clone(),
        owner: ruler,
        typ,
        tk: b.tk,
        jg: b.jg,
        guns: b.guns,
        shields: b.shields,
        lr: cargo_capacity(&p, typ, b.tk, b.jg, weapons),
        rw: jump_range(&p, ev),
        lx: lx(ev),
        tx: tx(ev),
        x,
        y,
        hits: 0,
        sp: 0,
        ljg: 0,
        tjg: 0,
        cargo: None,
        r: b.r as u8,
        home_base: false,
    };
    ctx.state.ships.insert(number, ship);
    ctx.state.ruler_mut(ruler).expect("ruler").we -= we_need;
    ctx.state.stars.get_mut(&b.star).expect("star").stock[0] -= ore_need;
    ctx.scratch.ship_built.insert(b.star);
    msg(
        ctx.events,
        ruler,
        13,
        false,
        Some(text),
        format!(
            "Schiff {number} {name} ({}) gebaut: {we_need} WE, {ore_need} Erz",
            (b'A' + typ as u8 - 1) as char
        ),
    );
}

/// Phase 13: a random ruler order, one entry per ruler per round; the previous
/// month's scrap yards first when numbers are short (§4.3).
pub fn phase13_build(ctx: &mut TurnCtx<'_, Eds>) {
    let all: Vec<Entry> = entries(ctx, 13);
    if all.is_empty() {
        return;
    }
    let mut perm = ctx.state.active_rulers();
    ctx.rng.shuffle(&mut perm);
    let free = ctx.state.ship_limit() as usize
        - ctx.state.ships.len().min(ctx.state.ship_limit() as usize);
    let mut queues: BTreeMap<RulerNr, Vec<Entry>> = BTreeMap::new();
    for e in all.iter().cloned() {
        queues.entry(e.0).or_default().push(e);
    }
    let mut passes: Vec<BTreeMap<RulerNr, Vec<Entry>>> = Vec::new();
    if free < all.len() {
        let prio = |e: &Entry| matches!(&e.2, Order::BuildShip(b) if ctx.state.scrap_yards_prev.contains(&b.star));
        let mut first: BTreeMap<RulerNr, Vec<Entry>> = BTreeMap::new();
        let mut rest: BTreeMap<RulerNr, Vec<Entry>> = BTreeMap::new();
        for (r, q) in queues {
            for e in q {
                if prio(&e) {
                    first.entry(r).or_default().push(e)
                } else {
                    rest.entry(r).or_default().push(e)
                }
            }
        }
        passes.push(first);
        passes.push(rest);
    } else {
        passes.push(queues);
    }
    for pass in passes {
        let mut pass: BTreeMap<RulerNr, std::collections::VecDeque<Entry>> =
            pass.into_iter().map(|(k, v)| (k, v.into())).collect();
        loop {
            let mut any = false;
            for r in &perm {
                if let Some(e) = pass.get_mut(r).and_then(|q| q.pop_front()) {
                    any = true;
                    if let Order::BuildShip(b) = &e.2 {
                        build_one(ctx, e.0, &e.1, b);
                    }
                }
            }
            if !any {
                break;
            }
        }
    }
}

pub fn phase14_scrap(ctx: &mut TurnCtx<'_, Eds>) {
    let p = ctx.state.params.clone();
    for (ruler, text, order) in entries(ctx, 14) {
        let Order::Scrap { ship } = order else {
            continue;
        };
        let st = &*ctx.state;
        let Some(sh) = st.ships.get(&ship).filter(|s| s.owner == ruler) else {
            msg(ctx.events, ruler, 14, true, Some(&text), m04(ship));
            continue;
        };
        let Some(star) = st
            .star_at(sh.x, sh.y)
            .filter(|s| s.facility == Some(Facility::W))
        else {
            msg(
                ctx.events,
                ruler,
                14,
                true,
                Some(&text),
                "Keine Werft an dieser Position – Befehl verworfen",
            );
            continue;
        };
        if star.owner.is_some_and(|o| st.hostile(o, ruler)) {
            msg(
                ctx.events,
                ruler,
                14,
                true,
                Some(&text),
                "Status 3 zum Besitzer – Befehl verworfen",
            );
            continue;
        }
        let sn = star.number;
        let ore = scrap_ore(&p, sh.typ);
        let line = format!(
            "Schiff {ship} {} ({}) verschrottet: {ore} Erz an Stern {sn}",
            sh.name,
            sh.class_letter()
        );
        let owner = star.owner;
        ctx.state.ships.remove(&ship);
        let s = ctx.state.stars.get_mut(&sn).expect("star");
        s.stock[0] = s.stock[0].saturating_add(ore).min(p.stock_cap);
        ctx.scratch.scrapped_at.insert(sn);
        msg(ctx.events, ruler, 14, false, Some(&text), line.clone());
        if let Some(o) = owner.filter(|o| *o != ruler) {
            msg(
                ctx.events,
                o,
                14,
                false,
                None,
                format!("Auf Deiner Werft {sn}: {line}"),
            );
        }
    }
    // Remembered for next month's build priority (phase 13 of this month has run).
    ctx.state.scrap_yards_prev = std::mem::take(&mut ctx.scratch.scrapped_at);
}
