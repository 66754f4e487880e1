//! Phase 3, military orders (spec §4 steps 3.1–3.9 and 3.11, §5.7–§5.13;
//! rulebook "Armée", "Satellites", "Missiles", "Nucléaire", "Missions
//! aériennes", "Hélicoptères", "Mouvement"). Combat itself (3.10) is in
//! `combat.rs`.
//!
//! Units are chosen by the selectors of §3.4 and become `ordered`, so a unit
//! executes at most one order per turn (D-91). They are claims of their order
//! line: an order that fails without effect gives them back (`turn::fail`,
//! §3.7), one that acted and came to nothing keeps them (`Scratch::spent`).

use crate::catalog::{self, sp, Cat, Mt};
use crate::combat::{bombing_exchange_exposed, detonate, fate, roll, thresholds, Fate, Rat};
use crate::control::ensure_garrison;
use crate::intake::{canonical, pick_m};
use crate::map::Mode;
use crate::model::*;
use crate::orders::{Mission, Order, Selector, Target};
use crate::parser::is_group;
use crate::turn::*;
use std::collections::BTreeMap;

pub fn has_spc(st: &State, n: &str, z: &str) -> bool {
    st.count(n, "SPC", z) > 0 || st.units.values().any(|u| u.owner == n && u.code == "SPB")
}

fn in_group(s: &catalog::Spec, g: &str) -> bool {
    match g {
        "I" => s.mt == Mt::I,
        "V" => s.mt == Mt::V,
        "I/V" => matches!(s.mt, Mt::I | Mt::V),
        "A" => matches!(s.mt, Mt::Air | Mt::H),
        "NV" => s.mt == Mt::Nv,
        _ => false,
    }
}

/// Select units for order `it` (§3.4, WWK-15..18) among those its kind can
/// use (`capable`). Returns the chosen ids, claimed by `it`: they act no more
/// this turn unless `it` fails without effect ([`fail`]).
pub fn select(
    ctx: &mut Ctx,
    it: &Item,
    z: &str,
    sel: &Selector,
    capable: &dyn Fn(&catalog::Spec) -> bool,
) -> Vec<UnitId> {
    select_where(ctx, it, z, sel, &|u| capable(sp(&u.code)))
}

/// [`select`] with a test on each unit rather than on its type, so that an
/// order takes units able to carry it out (a launcher holding the warhead,
/// an escort within range) rather than the first of the type.
pub fn select_where(
    ctx: &mut Ctx,
    it: &Item,
    z: &str,
    sel: &Selector,
    capable: &dyn Fn(&Unit) -> bool,
) -> Vec<UnitId> {
    let n = it.nation.as_str();
    // Units already ordered, immobilised or retreated this turn act no more.
    let free = |u: &Unit| {
        u.owner == n
            && !ctx.scratch.ordered.contains(&u.id)
            && !ctx.scratch.immobilised.contains(&u.id)
            && !ctx.scratch.retreated.contains(&u.id)
    };
    // A unit in a transport's hold is ordered from the transport's zone (§3.2).
    let in_z = |u: &Unit| {
        u.at == z
            || u.at
                .strip_prefix('@')
                .and_then(|c| c.parse().ok())
                .and_then(|c| ctx.state.unit(c))
                .is_some_and(|c| c.at == z)
    };
    let mut out: Vec<UnitId> = vec![];
    let mut leave_army = false;
    match sel {
        Selector::Space(l) => {
            out.extend(
                ctx.state
                    .units
                    .values()
                    .filter(|u| free(u) && &u.at == l && capable(u))
                    .map(|u| u.id),
            );
        }
        Selector::Units(k, code) => {
            // Space units are ordered from an SPC zone but stand in orbit (§3.2).
            let here = |u: &Unit| {
                if sp(&u.code).cat == Cat::Space {
                    u.at.starts_with('#')
                } else {
                    in_z(u)
                }
            };
            let mut c: Vec<&Unit> = ctx
                .state
                .units
                .values()
                .filter(|u| free(u) && &u.code == code && here(u) && capable(u))
                .collect();
            match k {
                None => c.retain(|u| u.army.is_none()),
                Some(_) => c.sort_by_key(|u| (u.army.is_some(), u.army.clone(), u.id)),
            }
            let k = k.unwrap_or(usize::MAX);
            out.extend(c.into_iter().take(k).map(|u| u.id));
            // Army members taken beyond the free units leave their army (S).
            leave_army = true;
        }
        Selector::Group(k, g) => {
            let mut c: Vec<&Unit> = ctx
                .state
                .units
                .values()
                .filter(|u| {
                    free(u)
                        && in_z(u)
                        && u.army.is_none()
                        && is_group(g)
                        && in_group(sp(&u.code), g)
                        && capable(u)
                })
                .collect();
            c.sort_by(|a, b| (&a.code, a.id).cmp(&(&b.code, b.id)));
            out.extend(c.into_iter().take(k.unwrap_or(usize::MAX)).map(|u| u.id));
        }
        Selector::AllArmy => {
            let here: Vec<&Unit> = ctx
                .state
                .units
                .values()
                .filter(|u| free(u) && in_z(u))
                .collect();
            let bad_armies: std::collections::BTreeSet<String> = here
                .iter()
                .filter(|u| !capable(u))
                .filter_map(|u| u.army.clone())
                .collect();
            out.extend(
                here.iter()
                    .filter(|u| {
                        capable(u) && u.army.as_ref().is_none_or(|a| !bad_armies.contains(a))
                    })
                    .map(|u| u.id),
            );
        }
        Selector::Army(name) => {
            out.extend(
                ctx.state
                    .units
                    .values()
                    .filter(|u| {
                        free(u)
                            && in_z(u)
                            && u.army
                                .as_deref()
                                .is_some_and(|a| a.eq_ignore_ascii_case(name))
                            && capable(u)
                    })
                    .map(|u| u.id),
            );
        }
    }
    for id in &out {
        let army = ctx.state.unit(*id).and_then(|u| u.army.clone());
        if leave_army {
            if let Some(u) = ctx.state.unit_mut(*id) {
                u.army = None;
            }
        }
        ctx.scratch.claim(it, *id, army);
    }
    out
}

fn zone_mil(o: &Order, f: fn(&Mission) -> bool) -> bool {
    matches!(o, Order::Mil { mission, .. } if f(mission))
}

/// Step 3.1 (WWK-19): `- - ARMY` regroupings (not the unit's order).
pub fn armies(ctx: &mut Ctx) {
    for it in activation(ctx.scratch, ctx.state, |o| matches!(o, Order::Army { .. })) {
        let Order::Army { zone, pairs, name } = &it.order else {
            continue;
        };
        let mut tagged = 0;
        for (k, code) in pairs {
            let mut c: Vec<&Unit> = ctx
                .state
                .units
                .values()
                .filter(|u| {
                    u.owner == it.nation
                        && &u.code == code
                        && &u.at == zone
                        && u.army.as_deref() != Some(name)
                })
                .collect();
            c.sort_by_key(|u| (u.army.is_some(), u.id));
            let ids: Vec<UnitId> = c.into_iter().take(*k).map(|u| u.id).collect();
            for id in ids {
                if let Some(u) = ctx.state.unit_mut(id) {
                    u.army = Some(name.clone());
                    tagged += 1;
                }
            }
        }
        if tagged == 0 {
            fail(ctx, &it, "aucune unité");
        } else {
            ctx.scratch
                .set(&it, format!("OK  {tagged} unité(s) dans {name}"));
        }
    }
}

/// Step 3.2 (WWK-92): CAP placement.
pub fn caps(ctx: &mut Ctx) {
    for it in activation(ctx.scratch, ctx.state, |o| {
        zone_mil(o, |m| matches!(m, Mission::Caps(_)))
    }) {
        let Order::Mil {
            zone,
            sel,
            mission: Mission::Caps(t),
        } = &it.order
        else {
            continue;
        };
        let d = ctx.state.dist(zone, t, Mode::Air);
        let ids = select(ctx, &it, zone, sel, &|s| s.has(catalog::M_CAPS));
        if ids.is_empty() {
            fail(ctx, &it, "aucune unité capable");
            continue;
        }
        let r = ids
            .iter()
            .filter_map(|id| ctx.state.unit(*id))
            .map(|u| sp(&u.code).range)
            .min()
            .unwrap_or(0);
        if d > r {
            fail(ctx, &it, format!("hors de portée ({} > {r})", show_d(d)));
            continue;
        }
        for id in ids {
            ctx.scratch.caps.insert(id, t.to_string());
        }
        ctx.scratch.ok(&it);
    }
}

fn show_d(d: u32) -> String {
    if d == u32::MAX {
        "inaccessible".into()
    } else {
        d.to_string()
    }
}

/// Marks the market closures of a nuclear use (§7.2.5, WWK-38).
pub fn nuclear_used(ctx: &mut Ctx, strategic: bool) {
    let until = ctx.turn + 3;
    let mut closed = false;
    if !ctx.state.market.first_nuke_used {
        ctx.state.market.first_nuke_used = true;
        closed = true;
    }
    if strategic && !ctx.state.market.first_strategic_used {
        ctx.state.market.first_strategic_used = true;
        closed = true;
    }
    if closed {
        ctx.state.market.closed_until = ctx.state.market.closed_until.max(until);
        ev(
            ctx,
            Vis::All,
            Sec::News,
            format!("MARCHÉ  fermé à tous jusqu'au tour {until} (emploi nucléaire)"),
        );
    }
}

/// ABM satellites of nation `n` that may still roll this turn (§5.9).
fn abm_sats(ctx: &Ctx, n: &str) -> Vec<(UnitId, u32)> {
    ctx.state
        .units
        .values()
        .filter(|u| u.owner == n && u.at.starts_with('#'))
        .filter(|u| {
            let s = sp(&u.code);
            s.abm > 0
                && (!s.has(catalog::ABM_IDLE) || !ctx.scratch.ordered.contains(&u.id))
                && !ctx.scratch.abm_sat_used.contains(&u.id)
        })
        .map(|u| (u.id, sp(&u.code).abm))
        .collect()
}

/// Step 3.3 (WWK-107): SATT against satellites; nuclear fire at `#TTNN`.
pub fn space(ctx: &mut Ctx) {
    let items = activation(ctx.scratch, ctx.state, |o| {
        matches!(
            o,
            Order::Mil {
                mission: Mission::Satt(Target::Space(_)),
                ..
            } | Order::Mil {
                mission: Mission::Nuke {
                    target: Target::Space(_),
                    ..
                },
                ..
            }
        )
    });
    for it in items {
        let Order::Mil { zone, sel, mission } = &it.order else {
            continue;
        };
        if !has_spc(ctx.state, &it.nation, zone) && matches!(mission, Mission::Satt(_)) {
            fail(ctx, &it, "pas de centre spatial");
            continue;
        }
        let label = match mission {
            Mission::Satt(t) | Mission::Nuke { target: t, .. } => t.label().to_string(),
            _ => continue,
        };
        let Some(target) = ctx.state.units.values().find(|u| u.at == label).cloned() else {
            fail(ctx, &it, format!("aucune cible en {label}"));
            continue;
        };
        match mission {
            Mission::Satt(_) => {
                let ids = select(ctx, &it, zone, sel, &|s| s.has(catalog::SAT_SPACE));
                if ids.is_empty() {
                    fail(ctx, &it, "aucun satellite d'attaque");
                    continue;
                }
                let mut txt = vec![];
                for id in ids {
                    let Some(a) = ctx.state.unit(id).cloned() else {
                        continue;
                    };
                    if a.code == "KSAT" {
                        let mut intercepted = false;
                        for (sid, p) in abm_sats(ctx, &target.owner) {
                            ctx.scratch.abm_sat_used.insert(sid);
                            let r = crate::turn::d(ctx.rng, &mut ctx.scratch.log, 100);
                            if r <= p {
                                intercepted = true;
                                txt.push(format!("KSAT #{id} intercepté (jet {r} <= {p})"));
                                break;
                            }
                        }
                        ctx.state.remove_unit(id);
                        if intercepted {
                            continue;
                        }
                    }
                    if ctx.state.unit(target.id).is_none() {
                        break;
                    }
                    let p = catalog::kill_pct(&target.code) + if a.code == "LSAT" { 10 } else { 0 };
                    let r = crate::turn::d(ctx.rng, &mut ctx.scratch.log, 100);
                    if r <= p {
                        ctx.state.remove_unit(target.id);
                        txt.push(format!(
                            "{} {label} détruit par {} (jet {r} <= {p})",
                            target.code, a.code
                        ));
                    } else {
                        txt.push(format!(
                            "{} {label} manqué par {} (jet {r} > {p})",
                            target.code, a.code
                        ));
                    }
                }
                ctx.scratch.set(&it, format!("OK  {}", txt.join(" ; ")));
                ev(
                    ctx,
                    Vis::Nation(target.owner.clone()),
                    Sec::Combat,
                    format!("ESPACE  attaque contre {label} : {}", txt.join(" ; ")),
                );
            }
            Mission::Nuke { k, head, .. } => {
                let h = head.clone();
                let k = *k;
                let ids = select_where(ctx, &it, zone, sel, &|u| {
                    sp(&u.code).has(catalog::SPACE_FIRE)
                        && u.heads.iter().filter(|x| **x == h).count() >= k
                });
                let Some(l) = ids.first().copied() else {
                    fail(ctx, &it, format!("aucun AIBM ou MSLP libre avec {k} tête(s) {h} (seuls eux tirent vers l'espace)"));
                    continue;
                };
                let Some(n) = take_heads(ctx, l, &h, k) else {
                    fail(ctx, &it, format!("têtes {h} insuffisantes"));
                    continue;
                };
                let w = catalog::warhead(&h).expect("known");
                nuclear_used(ctx, w.strategic);
                ev(
                    ctx,
                    Vis::All,
                    Sec::News,
                    format!("NUCLÉAIRE  tir détecté depuis [{zone}]"),
                );
                let mut txt = vec![];
                for _ in 0..n {
                    if ctx.state.unit(target.id).is_none() {
                        break;
                    }
                    let r = crate::turn::d(ctx.rng, &mut ctx.scratch.log, 100);
                    if r <= w.emp {
                        ctx.state.remove_unit(target.id);
                        txt.push(format!("{label} détruit (jet {r} <= {})", w.emp));
                    } else {
                        txt.push(format!("{label} indemne (jet {r})"));
                    }
                }
                ctx.scratch.set(&it, format!("OK  {}", txt.join(" ; ")));
            }
            _ => {}
        }
    }
}

/// Remove `k` warheads of `head` from launcher `id`.
fn take_heads(ctx: &mut Ctx, id: UnitId, head: &str, k: usize) -> Option<usize> {
    let u = ctx.state.unit_mut(id)?;
    let have = u.heads.iter().filter(|h| *h == head).count();
    if have < k {
        return None;
    }
    for _ in 0..k {
        let i = u.heads.iter().position(|h| h == head)?;
        u.heads.remove(i);
    }
    Some(k)
}

/// Attacks on a zone held by a nation at peace are refused (§3.7).
fn may_attack(st: &State, n: &str, z: &str) -> Result<(), String> {
    match &st.zone(z).status {
        Status::Controlled { by } if st.diplo(n, by) != Diplo::War && by != n => {
            Err(format!("pas en guerre avec {by}"))
        }
        Status::Controlled { by } if by == n => Err("zone à vous".into()),
        _ => Ok(()),
    }
}

fn hostile_targets(ctx: &Ctx, n: &str, z: &str, with_fac: bool) -> Vec<UnitId> {
    ctx.state
        .units
        .values()
        .filter(|u| u.at == z && ctx.state.hostile(n, &u.owner) && u.owner != GUERRILLA)
        .filter(|u| {
            let s = sp(&u.code);
            (s.cat != Cat::Civil || (with_fac && u.code == "FAC")) && s.cat != Cat::Space
        })
        .map(|u| u.id)
        .collect()
}

/// Step 3.4 (WWK-107): SATT against the ground and SATC.
pub fn sat_ground(ctx: &mut Ctx) {
    let items = activation(ctx.scratch, ctx.state, |o| {
        matches!(
            o,
            Order::Mil {
                mission: Mission::Satt(Target::Zone(_)) | Mission::Satc(_),
                ..
            }
        )
    });
    for it in items {
        let Order::Mil { zone, sel, mission } = &it.order else {
            continue;
        };
        let (t, civil) = match mission {
            Mission::Satt(Target::Zone(t)) => (t.clone(), false),
            Mission::Satc(t) => (t.clone(), true),
            _ => continue,
        };
        if !has_spc(ctx.state, &it.nation, zone) {
            fail(ctx, &it, "pas de centre spatial");
            continue;
        }
        if !ctx
            .scratch
            .recon
            .contains(&(it.nation.clone(), t.to_string()))
        {
            fail(ctx, &it, format!("pas de reconnaissance de [{t}] ce tour"));
            continue;
        }
        if let Err(e) = may_attack(ctx.state, &it.nation, &t) {
            fail(ctx, &it, e);
            continue;
        }
        let ids = select(ctx, &it, zone, sel, &|s| s.has(catalog::SAT_GROUND));
        if ids.is_empty() {
            fail(ctx, &it, "aucun satellite capable");
            continue;
        }
        ensure_garrison(ctx, &t);
        let mut fa = Rat::zero();
        for id in &ids {
            fa = fa.add(Rat::int(
                ctx.state.unit(*id).map(|u| sp(&u.code).a).unwrap_or(0),
            ));
        }
        let targets = hostile_targets(ctx, &it.nation, &t, civil);
        if targets.iter().any(|id| {
            ctx.state
                .unit(*id)
                .is_some_and(|u| sp(&u.code).has(catalog::ECM))
        }) {
            fa = fa.mul(1, 2);
        }
        if civil {
            fa = fa.mul(1, 2);
        }
        let fd = ground_defence(ctx.state, &targets);
        let mut log = vec![format!(
            "== SATELLITES contre [{t}] : FA {} FD {} ==",
            fa.show(),
            fd.show()
        )];
        ground_strike(ctx, &it.nation, &targets, fa, fd, &mut log);
        ctx.scratch.attacked.insert(t.to_string());
        ctx.scratch.ok(&it);
        notify(ctx, &it.nation, &t, log);
    }
}

/// One-sided strike (satellite, missile): DESTROYED or immobilised; factories
/// only on DESTROYED at −10.
fn ground_strike(
    ctx: &mut Ctx,
    firer: &str,
    targets: &[UnitId],
    fa: Rat,
    fd: Rat,
    log: &mut Vec<String>,
) {
    let mut ts = targets.to_vec();
    canonical(ctx.state, &mut ts);
    // ECM: one affect roll per ECM unit counts as 100 (§5.9 step 4).
    let mut ecm: Vec<UnitId> = ts
        .iter()
        .copied()
        .filter(|id| {
            ctx.state
                .unit(*id)
                .is_some_and(|u| sp(&u.code).has(catalog::ECM))
                && !ctx.scratch.ecm_used.contains(id)
        })
        .collect();
    for id in ts {
        let Some(u) = ctx.state.unit(id).cloned() else {
            continue;
        };
        let fac = u.code == "FAC";
        let t = thresholds(fa, fd, if fac { 10 } else { 0 });
        let (mut f, mut r) = fate(ctx.rng, &mut ctx.scratch.log, t);
        if let Some(e) = ecm.first().copied() {
            if f != Fate::Unaffected && !fac {
                ecm.remove(0);
                ctx.scratch.ecm_used.insert(e);
                f = Fate::Unaffected;
                r = Some(100);
            }
        }
        let out = match f {
            Fate::Destroyed => {
                ctx.state.remove_unit(id);
                if fac {
                    *ctx.scratch.civil_fac.entry(firer.to_string()).or_default() += 1;
                }
                "détruit"
            }
            Fate::Retreat if !fac => {
                ctx.scratch.immobilised.insert(id);
                "immobilisé"
            }
            _ => "indemne",
        };
        log.push(format!(
            "  {} #{id} {} seuils {}/{} jet {} -> {out}",
            u.owner,
            u.code,
            t.0,
            t.1,
            roll(r)
        ));
    }
}

fn notify(ctx: &mut Ctx, firer: &str, z: &str, log: Vec<String>) {
    let mut who = vec![firer.to_string()];
    who.extend(ctx.state.zone(z).status.parties());
    who.sort();
    who.dedup();
    ev(ctx, Vis::Nations(who), Sec::Combat, log.join("\n"));
}

/// Missile accuracy (§5.9, TV-10): 100 − 20·d, or 100 − 10·d with recon.
pub fn accuracy(d: u32, recon: bool) -> i64 {
    if d == u32::MAX || d > 10 {
        return 0;
    }
    let d = i64::from(d);
    (if recon { 100 - 10 * d } else { 100 - 20 * d }).clamp(0, 100)
}

/// Range of a launcher for a given fire (§5.8).
fn launcher_range(s: &catalog::Spec, nuke: bool) -> u32 {
    if s.cat == Cat::Space {
        return u32::MAX;
    }
    if s.code == "HART" && nuke {
        return 1;
    }
    s.bal.max(s.cru)
}

/// Step 3.5 (WWK-101..104): MISS, MISC and nuclear missiles and shells.
pub fn missiles(ctx: &mut Ctx) {
    let items = activation(ctx.scratch, ctx.state, |o| {
        matches!(
            o,
            Order::Mil {
                mission: Mission::Miss(_)
                    | Mission::Misc(_)
                    | Mission::Nuke {
                        target: Target::Zone(_),
                        ..
                    },
                ..
            }
        )
    });
    for it in items {
        let Order::Mil { zone, sel, mission } = &it.order else {
            continue;
        };
        // Nuclear drops by aircraft are air missions (3.6).
        if let Mission::Nuke { .. } = mission {
            if let Selector::Units(_, c) = sel {
                if sp(c).cat == Cat::Acft {
                    continue;
                }
            }
        }
        let (t, civil, nuke) = match mission {
            Mission::Miss(t) => (t.clone(), false, None),
            Mission::Misc(t) => (t.clone(), true, None),
            Mission::Nuke {
                k,
                head,
                target: Target::Zone(t),
            } => (t.clone(), false, Some((*k, head.clone()))),
            _ => continue,
        };
        if let Err(e) = may_attack(ctx.state, &it.nation, &t) {
            fail(ctx, &it, e);
            continue;
        }
        if let Some((_, h)) = &nuke {
            let w = catalog::warhead(h).expect("known");
            if w.strategic
                && ctx
                    .state
                    .units
                    .values()
                    .any(|u| u.at == t && ctx.state.friendly(&it.nation, &u.owner))
            {
                fail(
                    ctx,
                    &it,
                    "arme stratégique interdite sur une zone avec des unités amies",
                );
                continue;
            }
        }
        let is_nuke = nuke.is_some();
        let d = ctx.state.dist(zone, &t, Mode::Missile);
        let kind_ok = |s: &catalog::Spec| {
            if is_nuke {
                s.nuc > 0 && s.code != "ABSE"
            } else {
                s.bal > 0 || s.cru > 0
            }
        };
        // The order takes launchers able to fire it: in range and, for a
        // nuclear fire, holding the warheads (§3.7: an order without effect
        // leaves its units free, so it must not take one that cannot fire).
        let can_fire = |u: &Unit| {
            let s = sp(&u.code);
            kind_ok(s)
                && d <= launcher_range(s, is_nuke)
                && nuke
                    .as_ref()
                    .is_none_or(|(k, h)| u.heads.iter().filter(|x| *x == h).count() >= *k)
        };
        let ids = select_where(ctx, &it, zone, sel, &can_fire);
        if ids.is_empty() {
            let any = ctx.state.units.values().any(|u| {
                u.owner == it.nation
                    && (u.at == *zone || u.at.starts_with('#'))
                    && kind_ok(sp(&u.code))
            });
            let why = if !any {
                "aucun lanceur".to_string()
            } else if is_nuke {
                format!(
                    "aucun lanceur libre à portée ({}) avec les têtes demandées",
                    show_d(d)
                )
            } else {
                format!("aucun lanceur libre à portée ({})", show_d(d))
            };
            fail(ctx, &it, why);
            continue;
        }
        ensure_garrison(ctx, &t);
        let recon = ctx
            .scratch
            .recon
            .contains(&(it.nation.clone(), t.to_string()));
        let mut log = vec![format!(
            "== MISSILES de [{zone}] sur [{t}] (distance {}) ==",
            show_d(d)
        )];
        let mut fired = 0;
        for id in ids {
            let Some(l) = ctx.state.unit(id).cloned() else {
                continue;
            };
            let s = sp(&l.code);
            if d > launcher_range(s, is_nuke) {
                log.push(format!("  #{id} {} : hors de portée", l.code));
                continue;
            }
            let ballistic = s.bal > 0 || s.cat == Cat::Space;
            let shell = s.code == "HART";
            // Fire from orbit: space counts as 11 zones (S l.301).
            let d = if s.cat == Cat::Space { 11 } else { d };
            let heads = match &nuke {
                Some((k, h)) => match take_heads(ctx, id, h, *k) {
                    Some(n) => n,
                    None => {
                        log.push(format!("  #{id} {} : pas de tête {h}", l.code));
                        continue;
                    }
                },
                None => 0,
            };
            fired += 1;
            if is_nuke {
                ev(
                    ctx,
                    Vis::All,
                    Sec::News,
                    format!("NUCLÉAIRE  tir détecté depuis [{zone}]"),
                );
            }
            // Interception (§5.9 step 1); shells are not intercepted.
            if !shell && intercept(ctx, &it.nation, zone, &t, ballistic, &mut log) {
                log.push(format!("  salve #{id} {} interceptée", l.code));
                continue;
            }
            if let Some((_, h)) = &nuke {
                let p = if shell { 100 } else { accuracy(d, recon) };
                for _ in 0..heads {
                    detonate(ctx, &it.nation, &t, h, p, !shell, shell, &mut log);
                }
                continue;
            }
            let p = (accuracy(d, recon) - if civil { 20 } else { 0 }).clamp(0, 100);
            let r = crate::turn::d(ctx.rng, &mut ctx.scratch.log, 100);
            if i64::from(r) > p {
                log.push(format!("  salve #{id} {} manquée (jet {r} > {p})", l.code));
                continue;
            }
            log.push(format!("  salve #{id} {} au but (jet {r} <= {p})", l.code));
            let mut cands = hostile_targets(ctx, &it.nation, &t, civil);
            canonical(ctx.state, &mut cands);
            // Two distinct targets; with two or fewer candidates no pick is rolled (D-94).
            let chosen = pick_m(ctx.rng, &mut ctx.scratch.log, cands, 2);
            let fa = if ballistic {
                Rat::int(10)
            } else {
                Rat::int(s.a).mul(1, 2)
            };
            let fd = ground_defence(ctx.state, &chosen);
            ground_strike(ctx, &it.nation, &chosen, fa, fd, &mut log);
        }
        if fired == 0 {
            fail(ctx, &it, "aucune salve tirée (portée ou têtes)");
        } else {
            ctx.scratch.ok(&it);
        }
        ctx.scratch.attacked.insert(t.to_string());
        notify(ctx, &it.nation, &t, log);
    }
}

/// ABM (ballistic) or ACM (cruise) interception; true if intercepted.
fn intercept(
    ctx: &mut Ctx,
    firer: &str,
    from: &str,
    t: &str,
    ballistic: bool,
    log: &mut Vec<String>,
) -> bool {
    if ballistic {
        let abmps: Vec<UnitId> = ctx
            .state
            .units
            .values()
            .filter(|u| {
                u.at == t && u.code == "ABMP" && u.ammo > 0 && ctx.state.hostile(firer, &u.owner)
            })
            .map(|u| u.id)
            .collect();
        for id in abmps {
            if let Some(u) = ctx.state.unit_mut(id) {
                u.ammo -= 1;
            }
            let r = crate::turn::d(ctx.rng, &mut ctx.scratch.log, 100);
            if r <= 40 {
                log.push(format!("  ABMP #{id} intercepte (jet {r} <= 40)"));
                return true;
            }
        }
        if let Some(owner) = ctx.state.zone(t).status.controller().map(str::to_string) {
            for (sid, p) in abm_sats(ctx, &owner) {
                ctx.scratch.abm_sat_used.insert(sid);
                let r = crate::turn::d(ctx.rng, &mut ctx.scratch.log, 100);
                if r <= p {
                    log.push(format!("  satellite #{sid} intercepte (jet {r} <= {p})"));
                    return true;
                }
            }
        }
    } else {
        // ACM: in every zone of the cruise missile's path with an enemy CAP,
        // one aircraft that has not intercepted yet rolls (S l.339-343).
        let path = ctx
            .state
            .path(from, t, Mode::Missile)
            .unwrap_or_else(|| vec![t.to_string()]);
        for z in path.iter().skip(1) {
            let cap: Option<(UnitId, u32)> = ctx
                .scratch
                .caps
                .iter()
                .filter(|(id, cz)| cz.as_str() == z && !ctx.scratch.acm_used.contains(*id))
                .filter_map(|(id, _)| {
                    ctx.state
                        .unit(*id)
                        .filter(|u| ctx.state.hostile(firer, &u.owner))
                        .map(|u| (*id, sp(&u.code).acm))
                })
                .next();
            if let Some((id, p)) = cap {
                ctx.scratch.acm_used.insert(id);
                ctx.scratch.caps.remove(&id);
                let r = crate::turn::d(ctx.rng, &mut ctx.scratch.log, 100);
                if r <= p {
                    log.push(format!("  ACM #{id} en [{z}] intercepte (jet {r} <= {p})"));
                    return true;
                }
            }
        }
    }
    false
}

/// CAP engagement of a mission in zone `z` (§5.7.2–5.7.4). Escorts absorb the
/// engagement while any remain (WWK-95); stealth units may slip through
/// (WWK-100). Returns the surviving mission aircraft.
fn cap_engage(
    ctx: &mut Ctx,
    n: &str,
    z: &str,
    endpoint: bool,
    mission: &mut Vec<UnitId>,
    escorts: &mut Vec<UnitId>,
    log: &mut Vec<String>,
) {
    cap_engage_with(ctx, n, z, endpoint, false, mission, escorts, log)
}

/// `based`: aircraft based in `z` with no order also engage (HMOV end points, §5.7.7).
#[allow(clippy::too_many_arguments)]
fn cap_engage_with(
    ctx: &mut Ctx,
    n: &str,
    z: &str,
    endpoint: bool,
    based: bool,
    mission: &mut Vec<UnitId>,
    escorts: &mut Vec<UnitId>,
    log: &mut Vec<String>,
) {
    let mut caps: Vec<UnitId> = ctx
        .scratch
        .caps
        .iter()
        .filter(|(id, cz)| {
            cz.as_str() == z
                && ctx
                    .state
                    .unit(**id)
                    .is_some_and(|u| ctx.state.hostile(n, &u.owner))
        })
        .map(|(id, _)| *id)
        .collect();
    if based {
        let extra: Vec<UnitId> = ctx
            .state
            .units
            .values()
            .filter(|u| {
                u.at == z
                    && sp(&u.code).cat == Cat::Acft
                    && sp(&u.code).aa > 0
                    && ctx.state.hostile(n, &u.owner)
                    && !ctx.scratch.ordered.contains(&u.id)
                    && !caps.contains(&u.id)
            })
            .map(|u| u.id)
            .collect();
        caps.extend(extra);
    }
    // Patrols fight as one group only with their allies' (§5.7.2, WWK-92):
    // patrols of nations merely at peace with each other engage one group
    // after the other, nations in code order (D-92).
    canonical(ctx.state, &mut caps);
    let mut groups: Vec<Vec<UnitId>> = vec![];
    for id in caps {
        let Some(o) = ctx.state.unit(id).map(|u| u.owner.clone()) else {
            continue;
        };
        let slot = groups.iter_mut().find(|g| {
            g.iter().all(|x| {
                ctx.state
                    .unit(*x)
                    .is_some_and(|u| ctx.state.friendly(&u.owner, &o))
            })
        });
        match slot {
            Some(g) => g.push(id),
            None => groups.push(vec![id]),
        }
    }
    for caps in groups {
        let exposed_now = if escorts.is_empty() {
            mission.len()
        } else {
            escorts.len()
        };
        if exposed_now == 0 {
            break;
        }
        cap_group_engage(ctx, z, endpoint, caps, mission, escorts, log);
    }
}

/// One group of allied patrols against a mission (§5.7.3–5.7.4).
fn cap_group_engage(
    ctx: &mut Ctx,
    z: &str,
    endpoint: bool,
    caps: Vec<UnitId>,
    mission: &mut Vec<UnitId>,
    escorts: &mut Vec<UnitId>,
    log: &mut Vec<String>,
) {
    // DUAL aircraft on the bombing mission fight with `a` halved; escorts do not.
    let on_mission = escorts.is_empty();
    let exposed: &mut Vec<UnitId> = if on_mission { mission } else { escorts };
    // Stealth.
    let mut engaged = vec![];
    // Fate rolls walk (side, code, id) (§5.16): the patrols, then the
    // aircraft they engage.
    crate::intake::canonical(ctx.state, exposed);
    for id in exposed.iter() {
        let st = ctx
            .state
            .unit(*id)
            .is_some_and(|u| sp(&u.code).has(catalog::STLH));
        if st {
            let r = crate::turn::d(ctx.rng, &mut ctx.scratch.log, 100);
            let p = if endpoint { 20 } else { 70 };
            if r <= p {
                log.push(format!("  #{id} furtif ignore la CAP (jet {r} <= {p})"));
                continue;
            }
        }
        engaged.push(*id);
    }
    let fa_cap = sum(ctx, &caps, |s| s.aa);
    let fd_cap = sum(ctx, &caps, |s| s.land_d());
    let fa_m = if on_mission {
        sum_dual(ctx, &engaged)
    } else {
        sum(ctx, &engaged, |s| s.aa)
    };
    let fd_m = sum(ctx, &engaged, |s| s.land_d());
    log.push(format!(
        "  CAP en [{z}] : FA {} FD {} contre FA {} FD {}",
        fa_cap.show(),
        fd_cap.show(),
        fa_m.show(),
        fd_m.show()
    ));
    let mut lost = vec![];
    for id in &caps {
        let t = thresholds(fa_m, fd_cap, 0);
        let (f, r) = fate(ctx.rng, &mut ctx.scratch.log, t);
        log.push(format!(
            "  CAP #{id} seuils {}/{} jet {} {}",
            t.0,
            t.1,
            roll(r),
            f.fr()
        ));
        if f == Fate::Destroyed {
            ctx.state.remove_unit(*id);
        }
        ctx.scratch.caps.remove(id);
    }
    for id in &engaged {
        let t = thresholds(fa_cap, fd_m, 0);
        let (f, r) = fate(ctx.rng, &mut ctx.scratch.log, t);
        log.push(format!(
            "  #{id} seuils {}/{} jet {} {}",
            t.0,
            t.1,
            roll(r),
            f.fr()
        ));
        match f {
            Fate::Destroyed => {
                ctx.state.remove_unit(*id);
                lost.push(*id);
            }
            Fate::Retreat => lost.push(*id),
            Fate::Unaffected => {}
        }
    }
    exposed.retain(|id| !lost.contains(id));
}

fn sum(ctx: &Ctx, ids: &[UnitId], f: impl Fn(&catalog::Spec) -> i64) -> Rat {
    let mut r = Rat::zero();
    for id in ids {
        if let Some(u) = ctx.state.unit(*id) {
            let v = Rat::int(f(sp(&u.code)));
            r = r.add(if ctx.scratch.trsf.contains(id) {
                v.mul(1, 2)
            } else {
                v
            });
        }
    }
    r
}

/// Σ a with DUAL aircraft halved (they fly a bombing mission).
fn sum_dual(ctx: &Ctx, ids: &[UnitId]) -> Rat {
    let mut r = Rat::zero();
    for id in ids {
        if let Some(u) = ctx.state.unit(*id) {
            let s = sp(&u.code);
            let a = Rat::int(s.aa);
            // Halved once, for a DUAL bomber or a transfer flight.
            let half = s.has(catalog::DUAL) || ctx.scratch.trsf.contains(id);
            r = r.add(if half { a.mul(1, 2) } else { a });
        }
    }
    r
}

/// Step 3.6 (WWK-93..96): BOMB, BMBC, nuclear drops, DROP, TRSF with escorts.
pub fn air(ctx: &mut Ctx) {
    let items = activation(ctx.scratch, ctx.state, |o| {
        matches!(
            o,
            Order::Mil {
                mission: Mission::Bomb(_) | Mission::Bmbc(_) | Mission::Drop(_) | Mission::Trsf(_),
                ..
            }
        ) || matches!(o, Order::Mil { mission: Mission::Nuke { target: Target::Zone(_), .. }, sel: Selector::Units(_, c), .. } if sp(c).cat == Cat::Acft)
    });
    let escorts_all = activation(ctx.scratch, ctx.state, |o| {
        matches!(o, Order::Escort { .. })
    });
    for it in items {
        let Order::Mil { zone, sel, mission } = &it.order else {
            continue;
        };
        let (t, kind) = match mission {
            Mission::Bomb(t) => (t.clone(), "BOMB"),
            Mission::Bmbc(t) => (t.clone(), "BMBC"),
            Mission::Drop(t) => (t.clone(), "DROP"),
            Mission::Trsf(t) => (t.clone(), "TRSF"),
            Mission::Nuke {
                target: Target::Zone(t),
                ..
            } => (t.clone(), "NUKE"),
            _ => continue,
        };
        if kind != "TRSF" {
            if let Err(e) = may_attack(ctx.state, &it.nation, &t) {
                fail(ctx, &it, e);
                continue;
            }
        }
        if let Mission::Nuke { head, .. } = mission {
            let strategic = catalog::warhead(head).is_some_and(|w| w.strategic);
            if strategic
                && ctx
                    .state
                    .units
                    .values()
                    .any(|u| u.at == t && ctx.state.friendly(&it.nation, &u.owner))
            {
                fail(
                    ctx,
                    &it,
                    "arme stratégique interdite sur une zone avec des unités amies",
                );
                continue;
            }
        }
        if kind == "DROP" && ctx.state.count(&it.nation, "ABSE", zone) == 0 {
            fail(ctx, &it, "pas de base aérienne");
            continue;
        }
        let d = ctx.state.dist(zone, &t, Mode::Air);
        let capable: Box<dyn Fn(&catalog::Spec) -> bool> = match kind {
            "DROP" => Box::new(|s: &catalog::Spec| s.has(catalog::M_DROP)),
            "TRSF" => Box::new(|s: &catalog::Spec| s.is_air() || s.is_heli()),
            "NUKE" => Box::new(|s: &catalog::Spec| s.has(catalog::NBOMB)),
            _ => Box::new(|s: &catalog::Spec| s.has(catalog::M_BOMB)),
        };
        let mut ids = select(ctx, &it, zone, sel, capable.as_ref());
        if ids.is_empty() {
            fail(ctx, &it, "aucune unité capable");
            continue;
        }
        let reach = ids
            .iter()
            .filter_map(|id| ctx.state.unit(*id))
            .map(|u| {
                let s = sp(&u.code);
                match kind {
                    "DROP" => s.drop,
                    "TRSF" => 2 * s.range.max(2),
                    _ => s.range,
                }
            })
            .min()
            .unwrap_or(0);
        if d > reach {
            fail(
                ctx,
                &it,
                format!("hors de portée ({} > {reach})", show_d(d)),
            );
            continue;
        }
        if kind == "TRSF" {
            if ctx.state.count(&it.nation, "ABSE", &t) == 0
                && !ctx
                    .state
                    .units
                    .values()
                    .any(|u| u.owner == it.nation && u.at == t && sp(&u.code).carr > 0)
            {
                fail(ctx, &it, format!("pas de base ni de porte-avions en [{t}]"));
                continue;
            }
            // Capacity of the destination: 8 per ABSE plus the carriers' decks.
            let room = ctx.state.count(&it.nation, "ABSE", &t) * 8
                + ctx
                    .state
                    .units
                    .values()
                    .filter(|u| u.owner == it.nation && u.at == t)
                    .map(|u| sp(&u.code).carr as usize)
                    .sum::<usize>();
            let there = ctx
                .state
                .units
                .values()
                .filter(|u| u.owner == it.nation && u.at == t && sp(&u.code).cat == Cat::Acft)
                .count();
            if there + ids.len() > room {
                fail(
                    ctx,
                    &it,
                    format!(
                        "capacité de [{t}] dépassée ({} > {room})",
                        there + ids.len()
                    ),
                );
                continue;
            }
            // The transfer flies its path and meets enemy CAPs, A and D halved.
            let mut log = vec![format!("== TRANSFERT de [{zone}] vers [{t}] ==")];
            ctx.scratch.trsf.extend(ids.iter().copied());
            let path = ctx.state.path(zone, &t, Mode::Air).unwrap_or_default();
            let last = path.len().saturating_sub(1);
            for (i, pz) in path.iter().enumerate() {
                cap_engage(
                    ctx,
                    &it.nation,
                    pz,
                    i == 0 || i == last,
                    &mut ids,
                    &mut vec![],
                    &mut log,
                );
            }
            ids.retain(|id| ctx.state.unit(*id).is_some());
            for id in &ids {
                if let Some(u) = ctx.state.unit_mut(*id) {
                    u.at = t.to_string();
                }
            }
            ctx.scratch
                .set(&it, format!("OK  {} unité(s) transférée(s)", ids.len()));
            if log.len() > 1 {
                notify(ctx, &it.nation, &t, log);
            }
            continue;
        }
        // Escorts attached to this line.
        let mut escorts = vec![];
        for e in escorts_all.iter().filter(|e| {
            e.nation == it.nation && matches!(&e.order, Order::Escort { of, .. } if *of == it.line)
        }) {
            let Order::Escort {
                zone: ez, sel: es, ..
            } = &e.order
            else {
                continue;
            };
            // Escorts fly to the target: only those within range (§3.6.3).
            let ed = ctx.state.dist(ez, &t, Mode::Air);
            let got = select_where(ctx, e, ez, es, &|u| {
                sp(&u.code).has(catalog::M_ESCT) && ed <= sp(&u.code).range
            });
            if got.is_empty() {
                fail(
                    ctx,
                    e,
                    format!(
                        "aucune escorte disponible à portée de [{t}] ({})",
                        show_d(ed)
                    ),
                );
            } else {
                ctx.scratch.ok(e);
                escorts.extend(got);
            }
        }
        ensure_garrison(ctx, &t);
        let mut log = vec![format!(
            "== MISSION AÉRIENNE {kind} de [{zone}] sur [{t}] =="
        )];
        let path = ctx.state.path(zone, &t, Mode::Air).unwrap_or_default();
        let last = path.len().saturating_sub(1);
        for (i, pz) in path.iter().enumerate() {
            cap_engage(
                ctx,
                &it.nation,
                pz,
                i == 0 || i == last,
                &mut ids,
                &mut escorts,
                &mut log,
            );
        }
        let targets = hostile_targets(ctx, &it.nation, &t, kind == "BMBC");
        // Advanced DCA (SAM).
        let sams: Vec<UnitId> = targets
            .iter()
            .copied()
            .filter(|id| {
                ctx.state
                    .unit(*id)
                    .is_some_and(|u| sp(&u.code).has(catalog::SAM))
            })
            .collect();
        if kind == "NUKE" && sams.is_empty() {
            nuke_drop(ctx, &it, &t, &ids, &mut log);
        }
        // A HAIR drop skips the DCA (S l.391).
        let hair_drop = kind == "DROP"
            && ids
                .iter()
                .all(|id| ctx.state.unit(*id).is_some_and(|u| u.code == "HAIR"));
        if !sams.is_empty() && !hair_drop {
            let fa = sum(ctx, &sams, |s| s.aa);
            let mut exposed = if escorts.is_empty() {
                ids.clone()
            } else {
                escorts.clone()
            };
            // The fate rolls walk (side, code, id) (§5.16), not the order the
            // selector and the escort lines gave.
            crate::intake::canonical(ctx.state, &mut exposed);
            let fd = sum(ctx, &exposed, |s| {
                if s.cat == Cat::Inf {
                    s.d
                } else {
                    s.land_d()
                }
            });
            log.push(format!(
                "  DCA avancée FA {} contre FD {}",
                fa.show(),
                fd.show()
            ));
            for id in exposed {
                let t2 = thresholds(fa, fd, 0);
                let (f, r) = fate(ctx.rng, &mut ctx.scratch.log, t2);
                log.push(format!(
                    "  #{id} seuils {}/{} jet {} {}",
                    t2.0,
                    t2.1,
                    roll(r),
                    f.fr()
                ));
                if f != Fate::Unaffected {
                    if f == Fate::Destroyed || kind == "DROP" {
                        ctx.state.remove_unit(id);
                    }
                    ids.retain(|x| *x != id);
                    escorts.retain(|x| *x != id);
                }
            }
        }
        match kind {
            "NUKE" => {
                if !sams.is_empty() {
                    nuke_drop(ctx, &it, &t, &ids, &mut log);
                }
            }
            "DROP" => {
                for id in &ids {
                    if let Some(u) = ctx.state.unit_mut(*id) {
                        u.at = t.to_string();
                    }
                    ctx.scratch.landed.insert(*id);
                    ctx.scratch.came_from.insert(*id, zone.to_string());
                }
                ctx.scratch.invaded.insert(t.to_string());
                log.push(format!("  {} unité(s) parachutée(s) en [{t}]", ids.len()));
            }
            _ => {
                if !ids.is_empty() && !targets.is_empty() {
                    let alive: Vec<UnitId> = targets
                        .iter()
                        .copied()
                        .filter(|id| ctx.state.unit(*id).is_some())
                        .collect();
                    let exposed = if escorts.is_empty() {
                        ids.clone()
                    } else {
                        escorts.clone()
                    };
                    bombing_exchange_exposed(ctx, &ids, &exposed, &alive, kind == "BMBC", &mut log);
                }
            }
        }
        ctx.scratch.attacked.insert(t.to_string());
        ctx.scratch.ok(&it);
        notify(ctx, &it.nation, &t, log);
    }
}

fn nuke_drop(ctx: &mut Ctx, it: &Item, t: &str, ids: &[UnitId], log: &mut Vec<String>) {
    let Order::Mil {
        zone,
        mission: Mission::Nuke { head, .. },
        ..
    } = &it.order
    else {
        return;
    };
    for id in ids {
        // Bombs are taken from the base the aircraft flies from.
        let base = ctx
            .state
            .units
            .values()
            .find(|u| {
                u.owner == it.nation && u.at == *zone && u.code == "ABSE" && u.heads.contains(head)
            })
            .map(|u| u.id);
        let Some(b) = base else { continue };
        if take_heads(ctx, b, head, 1).is_none() {
            continue;
        }
        if ctx.state.unit(*id).is_none() {
            continue;
        }
        log.push(format!("  largage nucléaire {head} par #{id}"));
        detonate(ctx, &it.nation, t, head, 100, true, false, log);
    }
}

/// Step 3.7 (WWK-92): CAPs flying from carriers that move are recalled.
pub fn cap_recall(ctx: &mut Ctx) {
    let moving: Vec<String> = activation(ctx.scratch, ctx.state, |o| {
        zone_mil(o, |m| matches!(m, Mission::Move(_) | Mission::Smov(_)))
    })
    .iter()
    .filter_map(|i| i.order.zone().map(str::to_string))
    .collect();
    let recalled: Vec<UnitId> = ctx
        .scratch
        .caps
        .keys()
        .copied()
        .filter(|id| {
            ctx.state.unit(*id).is_some_and(|u| {
                moving.contains(&u.at)
                    && ctx.state.kind(&u.at).is_sea()
                    && ctx.state.units.values().any(|c| {
                        c.owner == u.owner
                            && c.at == u.at
                            && sp(&c.code).carr > 0
                            && ctx.scratch.ordered.contains(&c.id)
                    })
            })
        })
        .collect();
    for id in recalled {
        ctx.scratch.caps.remove(&id);
    }
}

/// Land-zone entry check (§5.13 step 5, WWK-33): a zone controlled by a nation
/// at peace with the mover (not shared with it) is closed.
pub fn may_enter(st: &State, n: &str, z: &str) -> bool {
    match &st.zone(z).status {
        Status::Controlled { by } => by == n || st.diplo(n, by) != Diplo::Peace,
        Status::Contested { by, .. } => {
            by.iter().all(|b| b == n || st.diplo(n, b) != Diplo::Peace) || by.iter().any(|b| b == n)
        }
        _ => true,
    }
}

fn hostile_present(st: &State, n: &str, z: &str) -> bool {
    st.units.values().any(|u| {
        u.at == z && u.owner != GUERRILLA && st.hostile(n, &u.owner) && !sp(&u.code).is_base()
    })
}

/// Step 3.8 (WWK-97): HMOV, with ACAV carrying [I]-type units.
pub fn hmov(ctx: &mut Ctx) {
    for it in activation(ctx.scratch, ctx.state, |o| {
        zone_mil(o, |m| matches!(m, Mission::Hmov(_)))
    }) {
        let Order::Mil {
            zone,
            sel,
            mission: Mission::Hmov(path),
        } = &it.order
        else {
            continue;
        };
        let dest = path.last().map(|z| z.to_string()).unwrap_or_default();
        let ok_end = |z: &str| {
            ctx.state.kind(z) == ZoneKind::Land
                || ctx.state.units.values().any(|u| {
                    u.owner == it.nation && u.at == z && matches!(u.code.as_str(), "CVH" | "AASH")
                })
        };
        if !ok_end(&dest) || ctx.state.kind(&dest) == ZoneKind::Mountain {
            fail(
                ctx,
                &it,
                "l'arrivée doit être terrestre ou porter un CVH/AASH",
            );
            continue;
        }
        let mut prev = zone.clone();
        let mut valid = true;
        for p in path {
            if !ctx.state.adjacent(&prev, p) || ctx.state.kind(p) == ZoneKind::Mountain {
                valid = false;
            }
            prev = p.clone();
        }
        if !valid || !may_enter(ctx.state, &it.nation, &dest) {
            fail(ctx, &it, "chemin invalide ou entrée interdite");
            continue;
        }
        let mut ids = select(ctx, &it, zone, sel, &|s| {
            s.has(catalog::M_HMOV) || s.mt == Mt::I
        });
        // [I]-type units ride ACAVs, one each.
        let infantry: Vec<UnitId> = ids
            .iter()
            .copied()
            .filter(|id| {
                ctx.state
                    .unit(*id)
                    .is_some_and(|u| sp(&u.code).mt == Mt::I && !sp(&u.code).has(catalog::M_HMOV))
            })
            .collect();
        let mut full_acavs: Vec<UnitId> = vec![];
        if !infantry.is_empty() {
            let acavs: Vec<UnitId> = ctx
                .state
                .units
                .values()
                .filter(|u| {
                    u.owner == it.nation
                        && u.at == *zone
                        && u.code == "ACAV"
                        && !ctx.scratch.ordered.contains(&u.id)
                })
                .map(|u| u.id)
                .take(infantry.len())
                .collect();
            if acavs.len() < infantry.len() {
                fail(
                    ctx,
                    &it,
                    format!(
                        "ACAV libres insuffisants ({} pour {})",
                        acavs.len(),
                        infantry.len()
                    ),
                );
                continue;
            }
            for a in &acavs {
                ctx.scratch.claim(&it, *a, None);
            }
            full_acavs = acavs.clone();
            ids.extend(acavs);
        }
        if ids.is_empty() {
            fail(ctx, &it, "aucune unité capable");
            continue;
        }
        // Escorts attached to this line fly with the helicopters (S l.421).
        let mut escorts: Vec<UnitId> = vec![];
        for e in activation(ctx.scratch, ctx.state, |o| {
            matches!(o, Order::Escort { .. })
        }) {
            let Order::Escort {
                zone: ez,
                sel: es,
                of,
            } = &e.order
            else {
                continue;
            };
            if e.nation != it.nation || *of != it.line {
                continue;
            }
            let ed = ctx.state.dist(ez, &dest, Mode::Air);
            let got = select_where(ctx, &e, ez, es, &|u| {
                sp(&u.code).has(catalog::M_ESCT) && ed <= sp(&u.code).range
            });
            if got.is_empty() {
                fail(
                    ctx,
                    &e,
                    format!(
                        "aucune escorte disponible à portée de [{dest}] ({})",
                        show_d(ed)
                    ),
                );
            } else {
                ctx.scratch.ok(&e);
                escorts.extend(got);
            }
        }
        let mut log = vec![format!("== HMOV de [{zone}] vers [{dest}] ==")];
        // Interception: 25% per crossed CAP zone; automatic at the end points.
        let mut full = vec![zone.clone()];
        full.extend(path.iter().cloned());
        for (i, z) in full.iter().enumerate() {
            let endpoint = i == 0 || i == full.len() - 1;
            let has_cap = ctx.scratch.caps.iter().any(|(id, cz)| {
                cz == z
                    && ctx
                        .state
                        .unit(*id)
                        .is_some_and(|u| ctx.state.hostile(&it.nation, &u.owner))
            }) || (endpoint
                && ctx.state.units.values().any(|u| {
                    &u.at == z
                        && sp(&u.code).cat == Cat::Acft
                        && sp(&u.code).aa > 0
                        && ctx.state.hostile(&it.nation, &u.owner)
                        && !ctx.scratch.ordered.contains(&u.id)
                }));
            if !has_cap {
                continue;
            }
            if !endpoint {
                let r = crate::turn::d(ctx.rng, &mut ctx.scratch.log, 100);
                if r > 25 {
                    log.push(format!("  CAP en [{z}] n'intercepte pas (jet {r} > 25)"));
                    continue;
                }
            }
            let mut helis: Vec<UnitId> = ids
                .iter()
                .copied()
                .filter(|id| ctx.state.unit(*id).is_some_and(|u| sp(&u.code).is_heli()))
                .collect();
            let before = helis.clone();
            cap_engage_with(
                ctx,
                &it.nation,
                z,
                endpoint,
                endpoint,
                &mut helis,
                &mut escorts,
                &mut log,
            );
            for h in before.iter().filter(|h| !helis.contains(h)) {
                ids.retain(|x| x != h);
            }
        }
        // Carried units share their ACAV's fate (S): destroyed with it, back
        // home with it when it aborts.
        let acavs: Vec<UnitId> = full_acavs.clone();
        for (inf, acav) in infantry.iter().zip(acavs.iter()) {
            if ctx.state.unit(*acav).is_none() {
                ctx.state.remove_unit(*inf);
                log.push(format!("  #{inf} transporté détruit avec son ACAV #{acav}"));
            } else if !ids.contains(acav) {
                ids.retain(|x| x != inf);
            }
        }
        let movers: Vec<UnitId> = ids
            .into_iter()
            .filter(|id| ctx.state.unit(*id).is_some())
            .collect();
        let hostile_dest = hostile_present(ctx.state, &it.nation, &dest);
        for id in &movers {
            if let Some(u) = ctx.state.unit_mut(*id) {
                u.at = dest.clone();
            }
            ctx.scratch.came_from.insert(*id, zone.to_string());
            if infantry.contains(id) && hostile_dest {
                ctx.scratch.landed.insert(*id);
            }
        }
        if hostile_dest
            || !ctx
                .state
                .zone(&dest)
                .status
                .parties()
                .iter()
                .any(|p| ctx.state.friendly(&it.nation, p))
        {
            ctx.scratch.invaded.insert(dest.clone());
        }
        ctx.scratch
            .set(&it, format!("OK  {} unité(s) en [{dest}]", movers.len()));
        if log.len() > 1 {
            notify(ctx, &it.nation, &dest, log);
        }
    }
}

/// Put the land units of `n` among `ids` that stand in a sea zone aboard
/// the nation's transports there, in canonical order, as long as holds have
/// room (TRN). Returns the units embarked.
pub fn embark(st: &mut State, n: &str, ids: impl Iterator<Item = UnitId>) -> Vec<UnitId> {
    let mut by_zone: BTreeMap<String, Vec<UnitId>> = BTreeMap::new();
    for id in ids {
        if let Some(u) = st.unit(id) {
            if u.owner == n
                && sp(&u.code).is_land()
                && sp(&u.code).trn == 0
                && st.kind(&u.at).is_sea()
            {
                by_zone.entry(u.at.clone()).or_default().push(id);
            }
        }
    }
    let mut out = vec![];
    for (z, mut land) in by_zone {
        canonical(st, &mut land);
        let mut ships: Vec<UnitId> = st
            .units
            .values()
            .filter(|u| u.owner == n && u.at == z && sp(&u.code).is_naval() && sp(&u.code).trn > 0)
            .map(|u| u.id)
            .collect();
        canonical(st, &mut ships);
        let mut land = land.into_iter();
        'ships: for s in ships {
            let tag = format!("@{s}");
            let cap = st.unit(s).map(|u| sp(&u.code).trn as usize).unwrap_or(0);
            let mut held = st.units.values().filter(|u| u.at == tag).count();
            while held < cap {
                let Some(id) = land.next() else { break 'ships };
                if let Some(u) = st.unit_mut(id) {
                    u.at = tag.clone();
                }
                held += 1;
                out.push(id);
            }
        }
    }
    out
}

/// Steps allowed for a unit on MOVE (§5.13 step 1).
pub fn steps(u: &Unit) -> usize {
    let s = sp(&u.code);
    if u.damaged {
        return 1;
    }
    match s.mt {
        Mt::I | Mt::H => 1,
        Mt::V => 2,
        Mt::Nv => 3,
        _ => 0,
    }
}

/// May a unit of this spec step from `a` into `b`? (terrain, straits, COAST)
pub fn can_step(st: &State, n: &str, s: &catalog::Spec, a: &str, b: &str, by_sea: bool) -> bool {
    if !st.adjacent(a, b) {
        return false;
    }
    let kb = st.kind(b);
    if kb == ZoneKind::Mountain && !matches!(s.mt, Mt::I) {
        return false;
    }
    if s.is_naval() {
        let ok = kb.is_sea() || st.zdef(b).is_some_and(|d| d.coastal);
        if s.has(catalog::COAST) && kb == ZoneKind::Highsea {
            return false;
        }
        return ok && st.strait_open(a, b, n);
    }
    if by_sea || s.has(catalog::AMPHI) {
        return (kb.is_sea() || kb == ZoneKind::Land) && st.strait_open(a, b, n);
    }
    kb == ZoneKind::Land || (kb == ZoneKind::Mountain && s.mt == Mt::I)
}

/// Blocking (§5.13 step 4, D-42): B = hostile combat units in `z` minus the
/// mover's regular infantry already there; max(B, 0) of the moving vehicles
/// and ships, picked at random (R14), are stopped. Returns the stopped ids.
fn block(ctx: &mut Ctx, n: &str, z: &str, movers: &[UnitId]) -> Vec<UnitId> {
    let hostile = ctx
        .state
        .units
        .values()
        .filter(|x| {
            x.at == z
                && x.owner != GUERRILLA
                && ctx.state.hostile(n, &x.owner)
                && !sp(&x.code).is_base()
        })
        .count();
    let pinned = ctx
        .state
        .units
        .values()
        .filter(|x| {
            x.at == z && x.owner == n && sp(&x.code).cat == Cat::Inf && !movers.contains(&x.id)
        })
        .count();
    let b = hostile.saturating_sub(pinned);
    let mut cands: Vec<UnitId> = movers
        .iter()
        .copied()
        .filter(|id| {
            ctx.state
                .unit(*id)
                .is_some_and(|u| matches!(sp(&u.code).mt, Mt::V | Mt::Nv))
        })
        .collect();
    canonical(ctx.state, &mut cands);
    pick_m(ctx.rng, &mut ctx.scratch.log, cands, b)
}

/// A zone where moving vehicles may be blocked on entry (§5.13 step 4).
fn blocking_zone(st: &State, n: &str, z: &str) -> bool {
    let s = &st.zone(z).status;
    matches!(s, Status::Contested { .. })
        || s.controller().is_some_and(|c| st.hostile(n, c))
        || (*s == Status::Neutral && st.units.values().any(|u| u.at == z && u.owner == NEUTRAL))
        || hostile_present(st, n, z)
}

/// Step 3.9 (WWK-98, WWK-99, WWK-33): MOVE with blocking, land and naval
/// transport, straits and the war check. A group moves step by step.
pub fn movement(ctx: &mut Ctx) {
    for it in activation(ctx.scratch, ctx.state, |o| {
        zone_mil(o, |m| matches!(m, Mission::Move(_)))
    }) {
        let Order::Mil {
            zone,
            sel,
            mission: Mission::Move(path),
        } = &it.order
        else {
            continue;
        };
        let n = it.nation.clone();
        // A path that is not a chain of adjacent zones is refused whole,
        // before any unit is taken or any die rolled (§3.7).
        let mut full: Vec<&str> = vec![zone.as_str()];
        full.extend(path.iter().map(crate::orders::ZoneId::as_str));
        if let Some(w) = full.windows(2).find(|w| !ctx.state.adjacent(w[0], w[1])) {
            let why = format!(
                "chemin invalide : [{}] n'est pas adjacente à [{}]",
                w[1], w[0]
            );
            fail(ctx, &it, why);
            continue;
        }
        let ids = select(ctx, &it, zone, sel, &|s| {
            matches!(s.mt, Mt::I | Mt::V | Mt::Nv | Mt::H)
        });
        if ids.is_empty() {
            fail(ctx, &it, "aucune unité disponible");
            continue;
        }
        // Units leaving a transport's hold land like those carried by sea.
        let aboard: std::collections::BTreeSet<UnitId> = ids
            .iter()
            .copied()
            .filter(|id| ctx.state.unit(*id).is_some_and(|u| u.at.starts_with('@')))
            .collect();
        let taco = ctx.state.zone(zone).taco.contains(&n);
        // Naval transport (§5.13 step 3): land units with a TLS/MSLC/AASH/HVCR here.
        // A transport serves one MOVE line a turn (D-91): those another line
        // took are not a lift for this one.
        let naval_lift = ctx.state.units.values().any(|u| {
            u.owner == n
                && u.at == *zone
                && matches!(u.code.as_str(), "TLS" | "MSLC" | "AASH" | "HVCR")
                && (!ctx.scratch.ordered.contains(&u.id) || ids.contains(&u.id))
        });
        let through_sea = path.iter().any(|p| ctx.state.kind(p).is_sea());
        // Land transport (§5.13 step 2, D-44): free TRN vehicles, alphabetical.
        let mut vehicles: Vec<UnitId> = ctx
            .state
            .units
            .values()
            .filter(|u| {
                u.owner == n
                    && u.at == *zone
                    && sp(&u.code).trn > 0
                    && sp(&u.code).is_land()
                    && (ids.contains(&u.id) || !ctx.scratch.ordered.contains(&u.id))
            })
            .map(|u| u.id)
            .collect();
        vehicles.sort_by_key(|id| ctx.state.unit(*id).map(|u| (u.code.clone(), u.id)));
        let infantry: Vec<UnitId> = ids
            .iter()
            .copied()
            .filter(|id| ctx.state.unit(*id).is_some_and(|u| sp(&u.code).mt == Mt::I))
            .collect();
        let mut group: Vec<UnitId> = ids.clone();
        let mut seats = 0usize;
        if path.len() >= 2 && !infantry.is_empty() && !(naval_lift && through_sea) {
            for v in &vehicles {
                if seats >= infantry.len() {
                    break;
                }
                ctx.scratch.claim(&it, *v, None);
                seats += ctx
                    .state
                    .unit(*v)
                    .map(|u| sp(&u.code).trn as usize)
                    .unwrap_or(0);
                if !group.contains(v) {
                    group.push(*v);
                }
            }
        }
        // Naval transports sail with the units they carry.
        if naval_lift
            && through_sea
            && group
                .iter()
                .any(|id| ctx.state.unit(*id).is_some_and(|u| sp(&u.code).is_land()))
        {
            let ships: Vec<UnitId> = ctx
                .state
                .units
                .values()
                .filter(|u| {
                    u.owner == n
                        && u.at == *zone
                        && matches!(u.code.as_str(), "TLS" | "MSLC" | "AASH")
                        && !ctx.scratch.ordered.contains(&u.id)
                })
                .map(|u| u.id)
                .collect();
            for sid in ships {
                ctx.scratch.claim(&it, sid, None);
                group.push(sid);
            }
        }
        // Steps allowed and mode per unit.
        let mut allowed: std::collections::BTreeMap<UnitId, (usize, bool)> = Default::default();
        let mut rides = seats;
        // Naval lift capacity (TRN of the transports here): land units beyond
        // it cannot take to the sea.
        let mut berths: usize = if naval_lift && through_sea {
            ctx.state
                .units
                .values()
                .filter(|u| {
                    u.owner == n
                        && u.at == *zone
                        && matches!(u.code.as_str(), "TLS" | "MSLC" | "AASH" | "HVCR")
                        && (group.contains(&u.id) || !ctx.scratch.ordered.contains(&u.id))
                })
                .map(|u| sp(&u.code).trn as usize)
                .sum()
        } else {
            0
        };
        for id in &group {
            let Some(u) = ctx.state.unit(*id) else {
                continue;
            };
            let s = sp(&u.code);
            let by_sea = s.is_land() && s.code != "HVCR" && berths > 0 && naval_lift && through_sea;
            if by_sea {
                berths -= 1;
            }
            let mut k = steps(u);
            if s.mt == Mt::I && rides > 0 && path.len() >= 2 {
                rides -= 1;
                k = 2;
                ctx.scratch.carried.insert(*id);
            }
            if by_sea {
                k = k.max(3);
            }
            allowed.insert(*id, (k, by_sea));
        }
        let mut active: Vec<UnitId> = group.clone();
        let mut cur = zone.clone();
        let mut notes: Vec<String> = vec![];
        let mut moved: std::collections::BTreeSet<UnitId> = Default::default();
        let mut blocked = false;
        for (i, p) in path.iter().enumerate() {
            active.retain(|id| {
                allowed.get(id).is_some_and(|a| a.0 > i) && ctx.state.unit(*id).is_some()
            });
            if active.is_empty() {
                break;
            }
            if ctx.state.kind(p) == ZoneKind::Land && !may_enter(ctx.state, &n, p) {
                notes.push(format!("[{p}] tenue par une nation en paix"));
                break;
            }
            let mut stepping = vec![];
            for id in &active {
                let Some(u) = ctx.state.unit(*id) else {
                    continue;
                };
                let (_, by_sea) = allowed[id];
                if can_step(ctx.state, &n, sp(&u.code), &cur, p, by_sea) {
                    stepping.push(*id);
                } else {
                    notes.push(format!("#{id} {} : passage impossible vers [{p}]", u.code));
                }
            }
            // Leaving the origin while it holds hostile units (D-43), for the
            // units able to leave at all; a zone entered on the way was
            // already checked on entry.
            if i == 0 && !stepping.is_empty() && hostile_present(ctx.state, &n, &cur) {
                for b in block(ctx, &n, &cur, &stepping) {
                    notes.push(format!("#{b} bloqué en [{cur}]"));
                    stepping.retain(|x| *x != b);
                    blocked = true;
                }
            }
            if stepping.is_empty() {
                break;
            }
            if ctx.state.kind(p) == ZoneKind::Land {
                ensure_garrison(ctx, p);
            }
            for id in &stepping {
                if let Some(x) = ctx.state.unit_mut(*id) {
                    x.at = p.to_string();
                }
                moved.insert(*id);
            }
            active = stepping;
            cur = p.clone();
            // Entering a blocking zone with more path to go.
            if i + 1 < path.len() && blocking_zone(ctx.state, &n, p) {
                for b in block(ctx, &n, p, &active) {
                    notes.push(format!("#{b} bloqué en [{p}]"));
                    active.retain(|x| *x != b);
                    blocked = true;
                }
            }
        }
        // Once per zone reached, not per unit (issue 9): units do not move
        // in this loop.
        let mut hostile_at: BTreeMap<String, bool> = BTreeMap::new();
        for id in &moved {
            let Some(u) = ctx.state.unit(*id).cloned() else {
                continue;
            };
            ctx.scratch.came_from.insert(*id, zone.to_string());
            if taco {
                ctx.scratch.taco_units.insert(*id);
            }
            let hostile_here = *hostile_at
                .entry(u.at.clone())
                .or_insert_with(|| hostile_present(ctx.state, &n, &u.at));
            if hostile_here
                || !ctx
                    .state
                    .zone(&u.at)
                    .status
                    .parties()
                    .iter()
                    .any(|p| ctx.state.friendly(&n, p))
            {
                ctx.scratch.invaded.insert(u.at.clone());
            }
            // Landing from a ship or a land transport (§5.13 step 6, S "débarque ...
            // d'un navire de transport, d'un transport terrestre").
            let carried = allowed.get(id).is_some_and(|a| a.1)
                || ctx.scratch.carried.contains(id)
                || aboard.contains(id);
            if carried
                && hostile_here
                && ctx.state.kind(&u.at) == ZoneKind::Land
                && sp(&u.code).is_land()
            {
                ctx.scratch.landed.insert(*id);
            }
        }
        // Land units ending at sea are aboard a transport there (§2.7,
        // §5.13.3): they move with it and go down with it (§7.4).
        embark(ctx.state, &n, moved.iter().copied());
        let k = moved.len();
        let why = if notes.is_empty() {
            "aucun mouvement".to_string()
        } else {
            notes.join(" ; ")
        };
        if k == 0 && blocked {
            // Blocked on leaving: the order acted, its units stay stopped.
            ctx.scratch.spent(&it, why);
        } else if k == 0 {
            for id in &group {
                ctx.scratch.carried.remove(id);
            }
            fail(ctx, &it, why);
        } else if notes.is_empty() {
            ctx.scratch
                .set(&it, format!("OK  {k} unité(s) déplacée(s)"));
        } else {
            ctx.scratch.set(
                &it,
                format!("OK  {k} unité(s) déplacée(s) ; {}", notes.join(" ; ")),
            );
        }
    }
}

/// Step 3.11 (WWK-96): aircraft whose base is gone make an emergency transfer
/// to the nearest own base within R − 1, or are lost; CAPs end.
pub fn return_to_base(ctx: &mut Ctx) {
    ctx.scratch.caps.clear();
    let planes: Vec<Unit> = ctx
        .state
        .units
        .values()
        .filter(|u| sp(&u.code).cat == Cat::Acft && !u.at.starts_with('@'))
        .cloned()
        .collect();
    // Bases (ABSE, carriers) by owner and units by place, once (issue 9):
    // only aircraft move or go in this step, and no aircraft is a base.
    let at = ctx.state.units_at();
    let mut bases_of: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for b in ctx
        .state
        .units
        .values()
        .filter(|b| (b.code == "ABSE" || sp(&b.code).carr > 0) && !b.at.starts_with('#'))
    {
        bases_of
            .entry(b.owner.clone())
            .or_default()
            .push(b.at.clone());
    }
    for p in planes {
        let based = at
            .units(ctx.state, &p.at)
            .any(|c| c.owner == p.owner && (c.code == "ABSE" || sp(&c.code).carr > 0));
        if based {
            continue;
        }
        let r = sp(&p.code).range.saturating_sub(1);
        let near = ctx.state.distances_within(&p.at, Mode::Air, r);
        let mut bases: Vec<(u32, String)> = bases_of
            .get(&p.owner)
            .into_iter()
            .flatten()
            .filter_map(|z| near.get(z).map(|d| (*d, z.clone())))
            .filter(|(d, _)| *d <= r)
            .collect();
        bases.sort();
        match bases.first() {
            // A neutral garrison belongs to its zone (D-72): its aircraft
            // never rebase to another neutral zone, whose stored garrison
            // they would swell; a lost one is rebuilt with its own zone's.
            Some((_, z)) if p.owner != NEUTRAL && !ctx.scratch.retreated.contains(&p.id) => {
                let z = z.clone();
                if let Some(u) = ctx.state.unit_mut(p.id) {
                    u.at = z.clone();
                }
                ev(
                    ctx,
                    to_nation(&p.owner),
                    Sec::Combat,
                    format!(
                        "Transfert d'urgence : #{} {} de [{}] vers [{z}]",
                        p.id, p.code, p.at
                    ),
                );
            }
            _ => {
                ctx.state.remove_unit(p.id);
                ev(
                    ctx,
                    to_nation(&p.owner),
                    Sec::Combat,
                    format!("#{} {} sans base en [{}] : perdu", p.id, p.code, p.at),
                );
            }
        }
    }
}

/// The defence a bombing or a ground attack meets from the units it targets:
/// a factory counts 4, any other unit its land defence.
fn ground_defence(state: &State, ids: &[UnitId]) -> Rat {
    ids.iter().fold(Rat::zero(), |fd, id| {
        let d = state
            .unit(*id)
            .map(|u| {
                if u.code == "FAC" {
                    4
                } else {
                    sp(&u.code).land_d()
                }
            })
            .unwrap_or(0);
        fd.add(Rat::int(d))
    })
}
