//! Phase 0 (spec §4 steps 0.1–0.3): intake of the parsed orders, standing
//! orders, AI crises and initiative.

use crate::orders::Order;
use crate::turn::*;
use arbitre_core::Rng;

/// Random pick among `k` ordered candidates: `d(k)`; no roll when k ≤ 1 (D-94).
pub fn pick(rng: &mut Rng, log: &mut crate::turn::RollLog, k: usize) -> usize {
    if k <= 1 {
        0
    } else {
        crate::turn::d(rng, log, k as u32) as usize - 1
    }
}

/// Sort units into the canonical order of random steps (§5.16): side
/// (nations by code, then the neutral side and guerrillas, D-92), unit code,
/// id. Every pick and every per-unit roll walks its candidates in this order,
/// so the dice fall on the same units as in the specification.
pub fn canonical(st: &crate::model::State, ids: &mut [crate::model::UnitId]) {
    ids.sort_by_key(|id| {
        st.unit(*id).map(|u| {
            (
                !st.nations.contains_key(&u.owner),
                u.owner.clone(),
                u.code.clone(),
                u.id,
            )
        })
    });
}

/// `m` random picks without replacement among ordered candidates (§5.16):
/// one `d(k)` per pick; with k ≤ m every candidate is taken and no die is
/// rolled (D-94). Returns the picked candidates in pick order.
pub fn pick_m<T>(
    rng: &mut Rng,
    log: &mut crate::turn::RollLog,
    mut cands: Vec<T>,
    m: usize,
) -> Vec<T> {
    if cands.len() <= m {
        return cands;
    }
    let mut out = Vec::with_capacity(m);
    for _ in 0..m {
        let k = pick(rng, log, cands.len());
        out.push(cands.remove(k));
    }
    out
}

/// Step 0.1: flatten every nation's orders; record standing orders.
pub fn intake(ctx: &mut Ctx) {
    let mut items = vec![];
    for (pid, orders) in ctx.orders.iter() {
        let Some(n) = ctx.state.nation_of_player(pid.as_str()) else {
            continue;
        };
        let code = n.code.clone();
        for o in orders {
            items.push(Item {
                nation: code.clone(),
                line: o.line,
                text: o.text.to_string(),
                order: o.order.clone(),
            });
        }
    }
    items.sort_by(|a, b| (&a.nation, a.line).cmp(&(&b.nation, b.line)));
    for it in &items {
        match &it.order {
            Order::Research(w) => {
                if let Some(n) = ctx.state.nations.get_mut(&it.nation) {
                    n.research = *w;
                }
                ctx.scratch.ok(it);
            }
            Order::Opt { ai, yes } => {
                let n = ctx.state.nations.get_mut(&it.nation).expect("nation");
                let lost = if *ai {
                    n.options.ai_lost
                } else {
                    n.options.green_lost
                };
                if lost && *yes {
                    ctx.scratch.fail(it, "la fenêtre de choix est passée");
                    continue;
                }
                if *ai {
                    n.options.want_ai = *yes;
                } else {
                    n.options.want_green = *yes;
                }
                ctx.scratch.ok(it);
            }
            Order::Tac {
                zone,
                offensive,
                on,
            } => {
                let z = ctx.state.zone_mut(zone);
                let set = if *offensive { &mut z.taco } else { &mut z.tacd };
                if *on {
                    set.insert(it.nation.clone());
                } else {
                    set.remove(&it.nation);
                }
                ctx.scratch.ok(it);
            }
            _ => {}
        }
    }
    ctx.scratch.items = items;
}

/// AI crisis chance per turn (S l.683): max(2, 22 − max(0, L − 80)).
pub fn ai_crisis_pct(l: i32) -> u32 {
    (22 - (l - 80).max(0)).max(2) as u32
}

/// The chance this turn for a zone whose counter stands at `counter`: the
/// rulebook's per-turn chance is cumulative until a crisis resets it.
pub fn ai_crisis_chance(l: i32, counter: u32) -> u32 {
    (ai_crisis_pct(l) * (counter + 1)).min(100)
}

/// Step 0.2 (WWK-27, WWK-69): each zone of an AI nation rolls; a crisis
/// deletes 2 random orders of the zone, which then acts last, and resets the
/// zone's counter.
pub fn ai_crisis(ctx: &mut Ctx) {
    let ais: Vec<(String, i32)> = ctx
        .state
        .nations
        .values()
        .filter(|n| n.options.ai && n.active)
        .map(|n| (n.code.clone(), n.tech.l))
        .collect();
    for (n, l) in ais {
        let mut zones: Vec<String> = ctx.state.controlled(&n);
        zones.extend(ctx.state.shared(&n));
        zones.sort();
        for z in zones {
            let counter = ctx.state.zone(&z).ai_counter;
            let pct = ai_crisis_chance(l, counter);
            let r = crate::turn::d(ctx.rng, &mut ctx.scratch.log, 100);
            if r > pct {
                ctx.state.zone_mut(&z).ai_counter = counter + 1;
                continue;
            }
            ctx.state.zone_mut(&z).ai_counter = 0;
            ctx.scratch.crisis.insert(z.clone());
            let mut lines: Vec<usize> = ctx
                .scratch
                .items
                .iter()
                .filter(|i| {
                    i.nation == n
                        && i.order.zone() == Some(z.as_str())
                        && !matches!(i.order, Order::Build { .. })
                })
                .map(|i| i.line)
                .collect();
            let mut gone = pick_m(ctx.rng, &mut ctx.scratch.log, std::mem::take(&mut lines), 2);
            gone.sort();
            for l in &gone {
                ctx.scratch.deleted.insert((n.clone(), *l));
                ctx.scratch
                    .results
                    .insert((n.clone(), *l), "FAILED : crise de l'IA".into());
            }
            ev(
                ctx,
                to_nation(&n),
                Sec::Orders,
                format!(
                    "Crise de l'IA en [{z}] (jet {r} <= {pct}) : {} ordre(s) annulé(s)",
                    gone.len()
                ),
            );
        }
    }
}

/// Step 0.3 (WWK-24): initiative = L + 1d20, ties by d100 roll-off then code.
pub fn initiative(ctx: &mut Ctx) {
    let nations: Vec<(String, i32)> = ctx
        .state
        .nations
        .values()
        .filter(|n| n.active)
        .map(|n| (n.code.clone(), n.tech.l))
        .collect();
    let mut v: Vec<(i64, u32, String)> = vec![];
    for (n, l) in &nations {
        let r = crate::turn::d(ctx.rng, &mut ctx.scratch.log, 20);
        v.push((i64::from(*l) + i64::from(r), 0, n.clone()));
    }
    // Roll-offs for equal initiative.
    let vals: Vec<i64> = v.iter().map(|x| x.0).collect();
    for e in v.iter_mut() {
        if vals.iter().filter(|x| **x == e.0).count() > 1 {
            e.1 = crate::turn::d(ctx.rng, &mut ctx.scratch.log, 100);
        }
    }
    v.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2)));
    for (i, _, n) in &v {
        ctx.scratch.initiative.insert(n.clone(), *i);
        if let Some(x) = ctx.state.nations.get_mut(n) {
            x.initiative = *i;
        }
    }
    ctx.scratch.nation_order = v.into_iter().map(|x| x.2).collect();
    let starts: Vec<((String, String), i64)> = ctx
        .state
        .zones
        .iter()
        .flat_map(|(z, s)| {
            s.ledgers
                .iter()
                .map(move |(n, l)| ((n.clone(), z.clone()), l.ec))
        })
        .collect();
    ctx.scratch.ec_start.extend(starts);
}
