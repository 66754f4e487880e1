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
                "{o} : {}",
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
        |o| matches!(o, Order::Mil { mission: Mission::Recn(_), sel, .. } if matches!(sel, Selector::Space(_)) || matches!(sel, Selector::Units(_, c) if *c == "RSAT")),
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
        ctx.scratch.recon.insert((it.nation.clone(), t.to_string()));
        ctx.scratch
            .space_recn
            .push((it.nation.clone(), t.to_string()));
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
                zone: Some(target.as_ref().unwrap_or(zone).to_string()),
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
            apply_mission(ctx, m);
        }
    }
}

/// What one espionage mission did (issue 23 item 4): [`run_mission`] decides
/// it and applies it to the state, [`render_mission`] writes its report lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MissionOutcome {
    pub op: SpyOp,
    pub actor: NationCode,
    /// The nation spied on; `None` for PG and RP, which act in the actor's own zone.
    pub target: Option<NationCode>,
    /// The zone of a local mission; `None` for the national RT and ST.
    pub zone: Option<ZoneCode>,
    pub fail_pct: i64,
    pub roll: u32,
    pub success: bool,
    /// The detection roll fell within 2 × CE: the target learns who did it
    /// (PG: the networks are identified).
    pub detected: bool,
    pub effect: MissionEffect,
}

/// How a target field stands for its nation, as RT reveals it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldKind {
    Specialty,
    Normal,
    Weakness,
}

/// What a mission changed beyond succeeding or failing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MissionEffect {
    /// Nothing to tell (RC, RR and RS report through the snapshots; a
    /// failed sabotage; a sabotage that found nothing to destroy).
    Nothing,
    /// RT: the kind of every field, and on success the levels.
    TechRevealed {
        kinds: Vec<(Field, FieldKind)>,
        levels: Option<Vec<(Field, i32)>>,
    },
    /// ST on this field (halved only on success).
    TechSabotage(Field),
    /// PG: the foreign networks of the zone, named when detected.
    Purge { networks: Vec<NationCode> },
    /// RP: partisans raised (one on failure).
    Partisans { count: usize, unit: String },
    /// RG: guerrillas raised.
    Guerrillas { count: usize, unit: String },
    /// IN: the actor's infiltration score after the mission.
    Infiltration(i64),
    /// SA: this aircraft type destroyed.
    AircraftDestroyed(String),
    /// SC: the zone's communications sabotaged.
    CommsSabotaged,
    /// SN: this warhead destroyed.
    WarheadDestroyed(String),
    /// SP: one factory destroyed.
    FactoryDestroyed,
    /// SR: the resources destroyed.
    ResourcesDestroyed(Ledger),
}

/// A mission refused before any roll, or run.
enum MissionRun {
    Refused(String),
    /// RT or ST against a nation that is not in the game: the rolls are
    /// drawn and nothing else happens (no report, no verdict).
    Lost,
    Done(MissionOutcome),
}

fn apply_mission(ctx: &mut Ctx, m: &Mission2) {
    match run_mission(ctx, m) {
        MissionRun::Refused(why) => ctx.scratch.fail(&m.it, why),
        MissionRun::Lost => {}
        MissionRun::Done(o) => {
            for (to, text) in render_mission(&o) {
                ev(ctx, to, Sec::Espionage, text);
            }
            ctx.scratch.set(&m.it, mission_verdict(&o));
        }
    }
}

/// Decides one mission, applies it to the state and the turn's scratch, and
/// returns what happened; writes no text.
fn run_mission(ctx: &mut Ctx, m: &Mission2) -> MissionRun {
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
            let Some(tn) = ctx.state.nations.get(&t).cloned() else {
                return MissionRun::Lost;
            };
            let effect = if op == SpyOp::Rt {
                let kind = |f: Field| {
                    if f == tn.specialty {
                        FieldKind::Specialty
                    } else if tn.weaknesses.contains(&f) {
                        FieldKind::Weakness
                    } else {
                        FieldKind::Normal
                    }
                };
                MissionEffect::TechRevealed {
                    kinds: Field::ALL.iter().map(|f| (*f, kind(*f))).collect(),
                    levels: ok.then(|| Field::ALL.iter().map(|f| (*f, tn.tech.get(*f))).collect()),
                }
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
                MissionEffect::TechSabotage(f)
            };
            return MissionRun::Done(MissionOutcome {
                op,
                actor: me,
                target: Some(t),
                zone: None,
                fail_pct: fail,
                roll: r,
                success: ok,
                detected: det <= (2 * ce) as u32,
                effect,
            });
        }
        SpyOp::Pg => {
            let z = m.zone.clone().unwrap_or_default();
            if !ctx.state.zone(&z).status.controls_or_shares(&me) {
                return MissionRun::Refused("zone ni contrôlée ni partagée".into());
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
            let detected = det <= (2 * zs.ce) as u32;
            return MissionRun::Done(MissionOutcome {
                op,
                actor: me,
                target: None,
                zone: Some(z),
                fail_pct: fail,
                roll: r,
                success: ok,
                detected,
                effect: MissionEffect::Purge {
                    networks: if detected { spies } else { vec![] },
                },
            });
        }
        SpyOp::Rp => {
            let z = m.zone.clone().unwrap_or_default();
            if !ctx.state.zone(&z).status.controls_or_shares(&me) {
                return MissionRun::Refused("zone ni contrôlée ni partagée".into());
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
            // Every mission draws its detection roll (D-15); propaganda in
            // one's own zone has nobody to reveal it to.
            let _det = crate::turn::d(ctx.rng, &mut ctx.scratch.log, 100);
            let ok = i64::from(r) > fail;
            let k = if ok {
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
            return MissionRun::Done(MissionOutcome {
                op,
                actor: me,
                target: None,
                zone: Some(z),
                fail_pct: fail,
                roll: r,
                success: ok,
                detected: false,
                effect: MissionEffect::Partisans {
                    count: k,
                    unit: ty.to_string(),
                },
            });
        }
        _ => {}
    }
    // Local missions against another nation's zone.
    let z = m.zone.clone().unwrap_or_default();
    let Some(t) = target_nation(ctx.state, &z, &me) else {
        return MissionRun::Refused(format!("[{z}] n'est tenue par aucune autre nation"));
    };
    if op == SpyOp::Rg && (ctx.turn == 1 || ctx.state.is_capital(&t, &z)) {
        return MissionRun::Refused("guérilla interdite au tour 1 et contre une capitale".into());
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
    let mut effect = MissionEffect::Nothing;
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
            effect = MissionEffect::Guerrillas {
                count: k,
                unit: ty.to_string(),
            };
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
            effect = MissionEffect::Infiltration(v);
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
            let mut cands: Vec<UnitId> = ctx
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
            crate::intake::canonical(ctx.state, &mut cands);
            if !cands.is_empty() {
                let k = pick(ctx.rng, &mut ctx.scratch.log, cands.len());
                let code = ctx
                    .state
                    .unit(cands[k])
                    .map(|u| u.code.clone())
                    .unwrap_or_default();
                ctx.state.remove_unit(cands[k]);
                effect = MissionEffect::AircraftDestroyed(code);
            }
        }
        SpyOp::Sc if ok => {
            ctx.scratch.sc_hit.insert(z.clone());
            effect = MissionEffect::CommsSabotaged;
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
                effect = MissionEffect::WarheadDestroyed(h);
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
                effect = MissionEffect::FactoryDestroyed;
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
            effect = MissionEffect::ResourcesDestroyed(lost);
        }
        _ => {}
    }
    MissionRun::Done(MissionOutcome {
        op,
        actor: me,
        target: Some(t),
        zone: Some(z),
        fail_pct: fail,
        roll: r,
        success: ok,
        detected: det <= (2 * zs.ce) as u32,
        effect,
    })
}

/// The order's verdict in the echo of the orders: RT and ST say whether they
/// succeeded, the others only that they ran.
fn mission_verdict(o: &MissionOutcome) -> &'static str {
    match (o.op, o.success) {
        (SpyOp::Rt | SpyOp::St, true) => "OK  réussite",
        (SpyOp::Rt | SpyOp::St, false) => "OK  échec",
        _ => "OK",
    }
}

/// The report lines of one mission, with who reads each: the actor's
/// account, then what the target learns (who did it when detected,
/// otherwise what it suffered).
pub fn render_mission(o: &MissionOutcome) -> Vec<(Vis, String)> {
    let verdict = if o.success { "réussite" } else { "échec" };
    let odds = format!("(échec {}%, jet {})", o.fail_pct, o.roll);
    let me = &o.actor;
    let t = o.target.clone().unwrap_or_default();
    let z = o.zone.clone().unwrap_or_default();
    let mut out = vec![];
    match &o.effect {
        MissionEffect::TechRevealed { kinds, levels } => {
            let types: Vec<String> = kinds
                .iter()
                .map(|(f, k)| {
                    let k = match k {
                        FieldKind::Specialty => "spécialité",
                        FieldKind::Weakness => "faiblesse",
                        FieldKind::Normal => "normal",
                    };
                    format!("{} {k}", f.label())
                })
                .collect();
            let mut s = format!(
                "RT -> {t} : {verdict} {odds} ; types : {}",
                types.join(", ")
            );
            if let Some(levels) = levels {
                let lv: Vec<String> = levels
                    .iter()
                    .map(|(f, v)| format!("{} {v}", f.label()))
                    .collect();
                s.push_str(&format!(" ; niveaux : {}", lv.join(" ")));
            }
            out.push((to_nation(me), s));
        }
        MissionEffect::TechSabotage(f) => {
            out.push((
                to_nation(me),
                format!("ST -> {t} {} : {verdict} {odds}", f.label()),
            ));
        }
        MissionEffect::Purge { networks } => {
            let mut s = format!(
                "[{z}] PG : {} {odds}",
                if o.success {
                    "réussite, infiltration éliminée"
                } else {
                    "échec, infiltration divisée par deux"
                }
            );
            if !networks.is_empty() {
                s.push_str(&format!(" ; réseaux identifiés : {}", networks.join(", ")));
            }
            out.push((to_nation(me), s));
            return out;
        }
        MissionEffect::Partisans { count, unit } => {
            out.push((
                to_nation(me),
                format!("[{z}] RP : {verdict} {odds} : {count} {unit} partisan(s)"),
            ));
            return out;
        }
        _ => {}
    }
    if o.zone.is_none() {
        // RT and ST: the target learns only who spied on it.
        if o.detected {
            out.push((
                to_nation(&t),
                format!("Détecté : {} contre notre nation par {me}", o.op.code()),
            ));
        }
        return out;
    }
    let mut mine = format!("[{z}] {} : {verdict} {odds}", o.op.code());
    let theirs = match &o.effect {
        MissionEffect::Guerrillas { count, unit } => {
            mine.push_str(&format!(" : {count} {unit} de guérilla"));
            Some(format!("[{z}] {count} {unit} de guérilla apparaissent"))
        }
        MissionEffect::Infiltration(v) => {
            mine.push_str(&format!(" : infiltration {v}"));
            None
        }
        MissionEffect::AircraftDestroyed(code) => {
            mine.push_str(&format!(" : 1 {code} détruit"));
            Some(format!("[{z}] sabotage : 1 {code} détruit"))
        }
        MissionEffect::CommsSabotaged => Some(format!("[{z}] communications sabotées")),
        MissionEffect::WarheadDestroyed(h) => {
            mine.push_str(&format!(" : 1 {h} détruite"));
            Some(format!("[{z}] sabotage : 1 tête {h} détruite"))
        }
        MissionEffect::FactoryDestroyed => {
            mine.push_str(" : 1 usine détruite");
            Some(format!("[{z}] sabotage : 1 usine détruite"))
        }
        MissionEffect::ResourcesDestroyed(lost) => {
            mine.push_str(&format!(" : détruit {}", lost.stock_line()));
            Some(format!(
                "[{z}] sabotage des ressources : perdu {}",
                lost.stock_line()
            ))
        }
        _ => None,
    };
    out.push((to_nation(me), mine));
    if o.detected {
        out.push((
            to_nation(&t),
            format!("Détecté : {} contre [{z}] par {me}", o.op.code()),
        ));
    } else if let Some(s) = theirs {
        out.push((to_nation(&t), s));
    }
    out
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
