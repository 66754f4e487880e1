//! Phase 2, intelligence (spec §4 steps 2.1–2.3, §6; rulebook "Contre
//! Espionnage" to "Sabotage Technologique", "Reconnaissance"): space
//! reconnaissance, the fourteen espionage operations and the phase-2 snapshots.
//!
//! Every mission rolls its fail% first, then the target's detection roll
//! (D-15), so the number of rolls per mission is fixed (two), whatever happens.

use crate::catalog::{self, Cat};
use crate::intake::pick;
use crate::model::*;
use crate::orders::{Mission, Order, Selector, SpyOp};
use crate::turn::*;

/// Clamp of every fail% (S l.61).
pub fn clamp_fail(p: i64) -> i64 {
    p.clamp(5, 90)
}

/// The common formula (§6.2, D-16): base − m·(L_att − L_tgt) + CE − INF.
pub fn fail_pct(op: SpyOp, l_att: i64, l_tgt: i64, ce: i64, inf: i64, literal: bool) -> i64 {
    let m = if op == SpyOp::Sa { 2 } else { 1 };
    let diff = l_att - l_tgt;
    let raw = if literal && matches!(op, SpyOp::Rg | SpyOp::In) {
        op.base() + diff + ce - inf
    } else {
        op.base() - m * diff + ce - inf
    };
    clamp_fail(raw)
}

/// ST base: 70, or 80 against a nation with no capital (S l.197).
pub fn st_fail(l_att: i64, l_tgt: i64, ce: i64, has_capital: bool) -> i64 {
    let base = if has_capital { 70 } else { 80 };
    clamp_fail(base - (l_att - l_tgt) + ce)
}

/// RP (D-19): fail = 100 − (60 + own CE − highest foreign infiltration).
pub fn rp_fail(ce_own: i64, max_inf: i64) -> i64 {
    clamp_fail(100 - (60 + ce_own - max_inf))
}

/// PG (D-16, D-21): fail = 100 − (75 + (L − Ladv) + 2·INF + CE); literal
/// signs: success = 75 − (L − Ladv − 2·INF) + CE.
pub fn pg_fail(l: i64, l_adv: i64, inf: i64, ce: i64, literal: bool) -> i64 {
    let success = if literal {
        75 - (l - l_adv - 2 * inf) + ce
    } else {
        75 + (l - l_adv) + 2 * inf + ce
    };
    clamp_fail(100 - success)
}

/// The nation holding a zone, other than `actor`.
pub fn target_nation(st: &State, z: &str, actor: &str) -> Option<NationCode> {
    let s = &st.zone(z).status;
    let mut p = s.parties();
    if let Status::Contested {
        holder: Some(h), ..
    } = s
    {
        p.insert(0, h.clone());
    }
    p.into_iter().find(|n| n != actor)
}

/// Lowest CE among capitals controlled or shared; fallback: all zones (§6.1).
pub fn national_ce(st: &State, n: &str) -> (i64, bool) {
    let caps = st.capitals(n);
    if !caps.is_empty() {
        return (caps.iter().map(|z| st.zone(z).ce).min().unwrap_or(0), true);
    }
    let mut zs = st.controlled(n);
    zs.extend(st.shared(n));
    (zs.iter().map(|z| st.zone(z).ce).min().unwrap_or(0), false)
}

fn l_of(st: &State, n: &str) -> i64 {
    st.nations.get(n).map(|x| i64::from(x.tech.l)).unwrap_or(0)
}

/// Snapshot of a zone for recon reports (§8.1): units by owner and bases.
pub fn snapshot(st: &State, z: &str) -> String {
    let zs = st.zone(z);
    if zs.status == Status::Neutral && zs.garrison.is_none() {
        return "aucune information (zone neutre jamais envahie)".into();
    }
    let mut owners: std::collections::BTreeMap<String, std::collections::BTreeMap<String, usize>> =
        Default::default();
    for u in st.units.values() {
        // `unit_zone(u) == z`, resolving (and allocating) only for cargo.
        let here = if u.at.starts_with('@') {
            st.unit_zone(u.id).as_deref() == Some(z)
        } else {
            !u.at.starts_with('#') && u.at == z
        };
        if here {
            *owners
                .entry(u.owner.clone())
                .or_default()
                .entry(u.code.clone())
                .or_default() += 1;
        }
    }
    if owners.is_empty() {
        return format!("{} aucune unité", zs.status.tag());
    }
    let parts: Vec<String> = owners
        .iter()
        .map(|(o, m)| {
            format!(
                "{o}: {}",
                m.iter()
                    .map(|(c, k)| format!("{k} {c}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
        .collect();
    format!("{} {}", zs.status.tag(), parts.join(" ; "))
}

/// Step 2.1 (WWK-108): space RECN consumes the RSAT.
pub fn space_recn(ctx: &mut Ctx) {
    let items = activation(
        ctx.scratch,
        ctx.state,
        |o| matches!(o, Order::Mil { mission: Mission::Recn(_), sel, .. } if matches!(sel, Selector::Space(_)) || matches!(sel, Selector::Units(_, c) if c == "RSAT")),
    );
    for it in items {
        let Order::Mil {
            zone,
            sel,
            mission: Mission::Recn(t),
        } = &it.order
        else {
            continue;
        };
        if !crate::military::has_spc(ctx.state, &it.nation, zone) {
            ctx.scratch.fail(&it, "pas de centre spatial");
            continue;
        }
        let sat = ctx
            .state
            .units
            .values()
            .filter(|u| {
                u.owner == it.nation
                    && u.code == "RSAT"
                    && u.at.starts_with('#')
                    && !ctx.scratch.ordered.contains(&u.id)
            })
            .find(|u| match sel {
                Selector::Space(l) => &u.at == l,
                _ => true,
            })
            .map(|u| u.id);
        let Some(id) = sat else {
            ctx.scratch.fail(&it, "aucun RSAT disponible");
            continue;
        };
        ctx.state.remove_unit(id);
        ctx.scratch.recon.insert((it.nation.clone(), t.clone()));
        ctx.scratch.space_recn.push((it.nation.clone(), t.clone()));
        ctx.scratch.ok(&it);
    }
}

struct Mission2 {
    it: Item,
    op: SpyOp,
    zone: Option<String>,
    target: Option<String>,
}

/// Step 2.2: espionage in the fixed type order, activation order within a type.
pub fn espionage(ctx: &mut Ctx) {
    let items = activation(ctx.scratch, ctx.state, |o| {
        matches!(o, Order::Spy { .. } | Order::SpyNat { .. })
    });
    let mut ms: Vec<Mission2> = vec![];
    for it in items {
        let m = match &it.order {
            Order::Spy { zone, op, target } => Mission2 {
                op: *op,
                zone: Some(target.clone().unwrap_or(zone.clone())),
                target: None,
                it: it.clone(),
            },
            Order::SpyNat { op, target, .. } => Mission2 {
                op: *op,
                zone: None,
                target: Some(target.clone()),
                it: it.clone(),
            },
            _ => continue,
        };
        ms.push(m);
    }
    // RG: one per target zone (R6, D-23).
    let mut rg_zones: std::collections::BTreeMap<String, Vec<usize>> = Default::default();
    for (i, m) in ms.iter().enumerate() {
        if m.op == SpyOp::Rg {
            rg_zones
                .entry(m.zone.clone().unwrap_or_default())
                .or_default()
                .push(i);
        }
    }
    let mut void = std::collections::BTreeSet::new();
    for (_, idx) in rg_zones {
        if idx.len() > 1 {
            let k = pick(ctx.rng, &mut ctx.scratch.log, idx.len());
            for (j, i) in idx.iter().enumerate() {
                if j != k {
                    void.insert(*i);
                }
            }
        }
    }
    let mut rp_zones = std::collections::BTreeSet::new();
    for op in SpyOp::ORDER {
        for (i, m) in ms.iter().enumerate() {
            if m.op != op {
                continue;
            }
            if void.contains(&i) {
                ctx.scratch
                    .fail(&m.it, "une seule guérilla par zone et par tour");
                continue;
            }
            if op == SpyOp::Rp && !rp_zones.insert(m.zone.clone()) {
                ctx.scratch
                    .fail(&m.it, "une seule propagande par zone et par tour");
                continue;
            }
            run_mission(ctx, m);
        }
    }
}

fn run_mission(ctx: &mut Ctx, m: &Mission2) {
    let me = m.it.nation.clone();
    let literal = ctx.state.params.espionage_literal_signs;
    let l_att = l_of(ctx.state, &me);
    let op = m.op;
    match op {
        SpyOp::Rt | SpyOp::St => {
            let t = m.target.clone().unwrap_or_default();
            let (ce, has_cap) = national_ce(ctx.state, &t);
            let l_t = l_of(ctx.state, &t);
            let fail = if op == SpyOp::St {
                st_fail(l_att, l_t, ce, has_cap)
            } else {
                clamp_fail(40 - (l_att - l_t) + ce)
            };
            let r = crate::turn::d(ctx.rng, &mut ctx.scratch.log, 100);
            let det = crate::turn::d(ctx.rng, &mut ctx.scratch.log, 100);
            let ok = i64::from(r) > fail;
            let tn = ctx.state.nations.get(&t).cloned();
            let Some(tn) = tn else { return };
            let kind = |f: Field| {
                if f == tn.specialty {
                    "spécialité"
                } else if tn.weaknesses.contains(&f) {
                    "faiblesse"
                } else {
                    "normal"
                }
            };
            if op == SpyOp::Rt {
                let types: Vec<String> = Field::ALL
                    .iter()
                    .map(|f| format!("{} {}", f.label(), kind(*f)))
                    .collect();
                let mut s = format!(
                    "RT -> {t} : {} (échec {fail}%, jet {r}) ; types : {}",
                    if ok { "réussite" } else { "échec" },
                    types.join(", ")
                );
                if ok {
                    let lv: Vec<String> = Field::ALL
                        .iter()
                        .map(|f| format!("{} {}", f.label(), tn.tech.get(*f)))
                        .collect();
                    s.push_str(&format!(" ; niveaux : {}", lv.join(" ")));
                }
                ev(ctx, to_nation(&me), Sec::Espionage, s);
            } else {
                let f = match &m.it.order {
                    Order::SpyNat { field: Some(f), .. } => *f,
                    _ => Field::I,
                };
                if ok {
                    ctx.scratch
                        .st_halved
                        .entry(t.clone())
                        .or_default()
                        .insert(f);
                }
                ev(
                    ctx,
                    to_nation(&me),
                    Sec::Espionage,
                    format!(
                        "ST -> {t} {} : {} (échec {fail}%, jet {r})",
                        f.label(),
                        if ok { "réussite" } else { "échec" }
                    ),
                );
            }
            if det <= (2 * ce) as u32 {
                ev(
                    ctx,
                    to_nation(&t),
                    Sec::Espionage,
                    format!("Détecté : {} contre notre nation par {me}", op.code()),
                );
            }
            ctx.scratch
                .set(&m.it, if ok { "OK  réussite" } else { "OK  échec" });
            return;
        }
        SpyOp::Pg => {
            let z = m.zone.clone().unwrap_or_default();
            if !ctx.state.zone(&z).status.controls_or_shares(&me) {
                ctx.scratch.fail(&m.it, "zone ni contrôlée ni partagée");
                return;
            }
            let zs = ctx.state.zone(&z).clone();
            let mut top: Option<(i64, i64, String)> = None;
            for (n, inf) in &zs.infiltration {
                if n == &me || *inf <= 0 {
                    continue;
                }
                let cand = (*inf, l_of(ctx.state, n), n.clone());
                let better = match &top {
                    None => true,
                    Some(t) => {
                        (cand.0, cand.1) > (t.0, t.1)
                            || ((cand.0, cand.1) == (t.0, t.1) && cand.2 < t.2)
                    }
                };
                if better {
                    top = Some(cand);
                }
            }
            let (inf, l_adv) = top.as_ref().map(|t| (t.0, t.1)).unwrap_or((0, l_att));
            let fail = pg_fail(l_att, l_adv, inf, zs.ce, literal);
            let r = crate::turn::d(ctx.rng, &mut ctx.scratch.log, 100);
            let det = crate::turn::d(ctx.rng, &mut ctx.scratch.log, 100);
            let ok = i64::from(r) > fail;
            let zm = ctx.state.zone_mut(&z);
            let spies: Vec<String> = zm
                .infiltration
                .keys()
                .filter(|n| **n != me)
                .cloned()
                .collect();
            for n in &spies {
                let v = zm.infiltration.get_mut(n).expect("present");
                *v = if ok { 0 } else { *v / 2 };
            }
            zm.infiltration.retain(|_, v| *v > 0);
            if !ok {
                zm.pg_malus.insert(me.clone());
            }
            zm.ce = 0;
            let mut s = format!(
                "[{z}] PG : {} (échec {fail}%, jet {r})",
                if ok {
                    "réussite, infiltration éliminée"
                } else {
                    "échec, infiltration divisée par deux"
                }
            );
            if det <= (2 * zs.ce) as u32 && !spies.is_empty() {
                s.push_str(&format!(" ; réseaux identifiés : {}", spies.join(", ")));
            }
            ev(ctx, to_nation(&me), Sec::Espionage, s);
            ctx.scratch.ok(&m.it);
            return;
        }
        SpyOp::Rp => {
            let z = m.zone.clone().unwrap_or_default();
            if !ctx.state.zone(&z).status.controls_or_shares(&me) {
                ctx.scratch.fail(&m.it, "zone ni contrôlée ni partagée");
                return;
            }
            let zs = ctx.state.zone(&z).clone();
            let max_inf = zs
                .infiltration
                .iter()
                .filter(|(n, _)| **n != me)
                .map(|(_, v)| *v)
                .max()
                .unwrap_or(0);
            let fail = rp_fail(zs.ce, max_inf);
            let r = crate::turn::d(ctx.rng, &mut ctx.scratch.log, 100);
            let _det = crate::turn::d(ctx.rng, &mut ctx.scratch.log, 100);
            let k = if i64::from(r) > fail {
                crate::turn::d(ctx.rng, &mut ctx.scratch.log, 4) as usize
            } else {
                1
            };
            let tech = ctx.state.nations[&me].tech;
            let types = catalog::infantry_by_rank(&tech);
            let ty = types.get(1).or(types.first()).copied().unwrap_or("MIL");
            for _ in 0..k {
                ctx.state.add_unit(&me, ty, &z);
            }
            ev(
                ctx,
                to_nation(&me),
                Sec::Espionage,
                format!(
                    "[{z}] RP : {} (échec {fail}%, jet {r}) : {k} {ty} partisan(s)",
                    if i64::from(r) > fail {
                        "réussite"
                    } else {
                        "échec"
                    }
                ),
            );
            ctx.scratch.ok(&m.it);
            return;
        }
        _ => {}
    }
    // Local missions against another nation's zone.
    let z = m.zone.clone().unwrap_or_default();
    let Some(t) = target_nation(ctx.state, &z, &me) else {
        ctx.scratch
            .fail(&m.it, format!("[{z}] n'est tenue par aucune autre nation"));
        return;
    };
    if op == SpyOp::Rg && (ctx.turn == 1 || ctx.state.is_capital(&t, &z)) {
        ctx.scratch
            .fail(&m.it, "guérilla interdite au tour 1 et contre une capitale");
        return;
    }
    let zs = ctx.state.zone(&z).clone();
    let mut l_t = l_of(ctx.state, &t);
    if zs.pg_malus.contains(&t) {
        l_t -= 10;
    }
    let inf = zs.infiltration.get(&me).copied().unwrap_or(0);
    let fail = fail_pct(op, l_att, l_t, zs.ce, inf, literal);
    let r = crate::turn::d(ctx.rng, &mut ctx.scratch.log, 100);
    let det = crate::turn::d(ctx.rng, &mut ctx.scratch.log, 100);
    let ok = i64::from(r) > fail;
    let mut mine = format!(
        "[{z}] {} : {} (échec {fail}%, jet {r})",
        op.code(),
        if ok { "réussite" } else { "échec" }
    );
    let mut theirs: Option<String> = None;
    match op {
        SpyOp::Rg if ok => {
            let k = crate::turn::d(ctx.rng, &mut ctx.scratch.log, 2) as usize;
            let tech = ctx.state.nations[&t].tech;
            let ty = catalog::infantry_by_rank(&tech)
                .first()
                .copied()
                .unwrap_or("MIL");
            for _ in 0..k {
                ctx.state.add_unit(GUERRILLA, ty, &z);
            }
            mine.push_str(&format!(" : {k} {ty} de guérilla"));
            theirs = Some(format!("[{z}] {k} {ty} de guérilla apparaissent"));
        }
        SpyOp::In => {
            let cap = ctx.state.is_capital(&t, &z);
            let v = if ok {
                let add = if cap {
                    crate::turn::d(ctx.rng, &mut ctx.scratch.log, 10)
                } else {
                    crate::turn::d(ctx.rng, &mut ctx.scratch.log, 6)
                } as i64;
                (inf + add).min(20)
            } else {
                1
            };
            ctx.state.zone_mut(&z).infiltration.insert(me.clone(), v);
            mine.push_str(&format!(" : infiltration {v}"));
        }
        SpyOp::Rc => {
            ctx.scratch.recon.insert((me.clone(), z.clone()));
            let snap = snapshot(ctx.state, &z);
            let fac = ctx.state.factories(&t, &z);
            ctx.scratch.snapshots.push((
                me.clone(),
                z.clone(),
                format!("RC fin de phase 2 : {snap} ; usines {fac}"),
            ));
            if ok {
                ctx.scratch.rc_second.push((me.clone(), z.clone()));
            }
        }
        SpyOp::Rr | SpyOp::Rs => {
            let mut zones = vec![z.clone()];
            if ok {
                for n in ctx.state.neighbours(&z) {
                    if ctx.state.zone(&n).status.parties().contains(&t) {
                        zones.push(n);
                    }
                }
            }
            for zz in zones {
                let s = if op == SpyOp::Rr {
                    let l = ctx.state.ledger(&t, &zz);
                    format!("RR [{zz}] : {}ec {}", l.ec, l.stock_line())
                } else {
                    format!("RS [{zz}] : CE {}", ctx.state.zone(&zz).ce)
                };
                ctx.scratch.snapshots.push((me.clone(), zz, s));
            }
        }
        SpyOp::Sa if ok => {
            let cands: Vec<UnitId> = ctx
                .state
                .units
                .values()
                .filter(|u| {
                    u.owner == t
                        && ctx.state.unit_zone(u.id).as_deref() == Some(z.as_str())
                        && catalog::sp(&u.code).cat == Cat::Acft
                })
                .map(|u| u.id)
                .collect();
            let mut cands = cands;
            crate::intake::canonical(ctx.state, &mut cands);
            if !cands.is_empty() {
                let k = pick(ctx.rng, &mut ctx.scratch.log, cands.len());
                let code = ctx
                    .state
                    .unit(cands[k])
                    .map(|u| u.code.clone())
                    .unwrap_or_default();
                ctx.state.remove_unit(cands[k]);
                mine.push_str(&format!(" : 1 {code} détruit"));
                theirs = Some(format!("[{z}] sabotage : 1 {code} détruit"));
            }
        }
        SpyOp::Sc if ok => {
            ctx.scratch.sc_hit.insert(z.clone());
            theirs = Some(format!("[{z}] communications sabotées"));
        }
        SpyOp::Sn if ok => {
            // The warheads are candidates in their holders' (side, code, id)
            // order (§5.16), each holder's in loading order.
            let mut holders: Vec<UnitId> = ctx
                .state
                .units
                .values()
                .filter(|u| u.owner == t && u.at == z && !u.heads.is_empty())
                .map(|u| u.id)
                .collect();
            crate::intake::canonical(ctx.state, &mut holders);
            let cands: Vec<(UnitId, usize)> = holders
                .iter()
                .filter_map(|id| ctx.state.unit(*id))
                .flat_map(|u| (0..u.heads.len()).map(move |i| (u.id, i)))
                .collect();
            if !cands.is_empty() {
                let k = pick(ctx.rng, &mut ctx.scratch.log, cands.len());
                let (id, i) = cands[k];
                let h = ctx
                    .state
                    .unit_mut(id)
                    .map(|u| u.heads.remove(i))
                    .unwrap_or_default();
                mine.push_str(&format!(" : 1 {h} détruite"));
                theirs = Some(format!("[{z}] sabotage : 1 tête {h} détruite"));
            }
        }
        SpyOp::Sp if ok => {
            let facs: Vec<UnitId> = ctx
                .state
                .units
                .values()
                .filter(|u| u.owner == t && u.at == z && u.code == "FAC")
                .map(|u| u.id)
                .collect();
            if let Some(id) = facs.first() {
                ctx.state.remove_unit(*id);
                mine.push_str(" : 1 usine détruite");
                theirs = Some(format!("[{z}] sabotage : 1 usine détruite"));
            }
        }
        SpyOp::Sr if ok => {
            let k = crate::turn::d(ctx.rng, &mut ctx.scratch.log, 6);
            let mut lost = Ledger::default();
            for _ in 0..k {
                let l = ctx.state.ledger(&t, &z);
                let total: i64 = RES.iter().map(|r| l.res(*r)).sum();
                if total <= 0 {
                    break;
                }
                let mut x = pick(ctx.rng, &mut ctx.scratch.log, total as usize) as i64;
                for r in RES {
                    if x < l.res(r) {
                        *ctx.state.ledger_mut(&t, &z).res_mut(r) -= 1;
                        *lost.res_mut(r) += 1;
                        break;
                    }
                    x -= l.res(r);
                }
            }
            mine.push_str(&format!(" : détruit {}", lost.stock_line()));
            theirs = Some(format!(
                "[{z}] sabotage des ressources : perdu {}",
                lost.stock_line()
            ));
        }
        _ => {}
    }
    ev(ctx, to_nation(&me), Sec::Espionage, mine);
    let detected = det <= (2 * zs.ce) as u32;
    if detected {
        ev(
            ctx,
            to_nation(&t),
            Sec::Espionage,
            format!("Détecté : {} contre [{z}] par {me}", op.code()),
        );
    } else if let Some(s) = theirs {
        ev(ctx, to_nation(&t), Sec::Espionage, s);
    }
    ctx.scratch.ok(&m.it);
}

/// Step 2.3: end-of-phase-2 snapshots for space RECN.
pub fn snapshots_p2(ctx: &mut Ctx) {
    let v = ctx.scratch.space_recn.clone();
    for (n, z) in v {
        let s = snapshot(ctx.state, &z);
        ctx.scratch
            .snapshots
            .push((n, z, format!("RECN spatiale fin de phase 2 : {s}")));
    }
}
