//! Phase 4, control and strategic movement (spec §4 steps 4.1–4.8, §5.14,
//! §5.15; rulebook "Contrôle des zones", "Forces neutres", "Guérilla",
//! "Mouvement stratégique"): guerrilla clashes, zone control, effects of
//! control changes, forced retreats, neutral garrisons, SMOV and the end-of-
//! phase reconnaissance snapshots.

use crate::catalog::{sp, Cat};
use crate::combat::{fate, retreat_zone, roll, thresholds, Fate, Rat};
use crate::intel::snapshot;
use crate::model::*;
use crate::orders::{Mission, Order, Selector};
use crate::turn::*;
use std::collections::BTreeSet;

/// Neutral garrison table (§5.15, TV-15): one roll per raw-material symbol.
pub fn garrison_roll(r: u32) -> &'static [&'static str] {
    match r {
        1..=60 => &["MIL"],
        61..=68 => &["ART"],
        69..=76 => &["AA"],
        77..=84 => &["LT"],
        85..=91 => &["ABSE", "FB"],
        92..=97 => &["FORT"],
        _ => &["SSM"],
    }
}

/// Roll a garrison: 2 MIL plus one roll per symbol (capital symbol excluded).
pub fn roll_garrison(ctx: &mut Ctx, z: &str) -> Vec<String> {
    let syms = ctx.state.zdef(z).map(|d| d.symbols.len()).unwrap_or(0);
    let mut v: Vec<String> = vec!["MIL".into(), "MIL".into()];
    for _ in 0..syms {
        let r = crate::turn::d(ctx.rng, &mut ctx.scratch.log, 100);
        v.extend(garrison_roll(r).iter().map(|s| s.to_string()));
    }
    v
}

fn place_garrison(ctx: &mut Ctx, z: &str, codes: &[String]) {
    for c in codes {
        let id = ctx.state.add_unit(NEUTRAL, c, z);
        if c == "SSM" {
            if let Some(u) = ctx.state.unit_mut(id) {
                u.heads.push("5N".into());
            }
            ctx.state.zone_mut(z).tacd.insert(NEUTRAL.into());
        }
    }
}

/// First attack on a neutral land zone generates its garrison (WWK-113).
pub fn ensure_garrison(ctx: &mut Ctx, z: &str) {
    let zs = ctx.state.zone(z);
    if zs.status != Status::Neutral || zs.garrison.is_some() || ctx.state.kind(z) != ZoneKind::Land
    {
        return;
    }
    let g = roll_garrison(ctx, z);
    place_garrison(ctx, z, &g);
    ctx.state.zone_mut(z).garrison = Some(g.clone());
    ev(
        ctx,
        Vis::Gm,
        Sec::Combat,
        format!("Garnison neutre de [{z}] : {}", g.join(", ")),
    );
}

/// Step 4.1 (WWK-114): guerrillas fight only infantry-type units.
pub fn guerrilla(ctx: &mut Ctx) {
    let zones: BTreeSet<String> = ctx
        .state
        .units
        .values()
        .filter(|u| u.owner == GUERRILLA)
        .map(|u| u.at.clone())
        .collect();
    for z in zones {
        let g: Vec<UnitId> = ctx
            .state
            .units
            .values()
            .filter(|u| u.owner == GUERRILLA && u.at == z)
            .map(|u| u.id)
            .collect();
        let inf: Vec<UnitId> = ctx
            .state
            .units
            .values()
            .filter(|u| {
                u.at == z && ctx.state.nations.contains_key(&u.owner) && sp(&u.code).cat == Cat::Inf
            })
            .map(|u| u.id)
            .collect();
        if g.is_empty() || inf.is_empty() {
            continue;
        }
        let tot = |ids: &[UnitId], f: &dyn Fn(&Unit) -> i64| {
            ids.iter()
                .filter_map(|id| ctx.state.unit(*id))
                .map(f)
                .sum::<i64>()
        };
        let fa_g = tot(&g, &|u| sp(&u.code).a);
        let fd_g = tot(&g, &|u| sp(&u.code).land_d());
        let fa_n = tot(&inf, &|u| sp(&u.code).a);
        let fd_n = tot(&inf, &|u| sp(&u.code).land_d());
        let mut log = vec![format!(
            "== GUÉRILLA [{z}] : guérilla FA {fa_g} FD {fd_g} ; infanterie FA {fa_n} FD {fd_n} =="
        )];
        let mut res = vec![];
        for id in &inf {
            let t = thresholds(Rat::int(fa_g), Rat::int(fd_n), 0);
            let (f, r) = fate(ctx.rng, &mut ctx.scratch.log, t);
            res.push((*id, f, r, t));
        }
        for id in &g {
            let t = thresholds(Rat::int(fa_n), Rat::int(fd_g), 0);
            let (f, r) = fate(ctx.rng, &mut ctx.scratch.log, t);
            res.push((*id, f, r, t));
        }
        let mut owners = BTreeSet::new();
        for (id, f, r, t) in res {
            let Some(u) = ctx.state.unit(id).cloned() else {
                continue;
            };
            owners.insert(u.owner.clone());
            log.push(format!(
                "  {} #{id} {} seuils {}/{} jet {} {}",
                u.owner,
                u.code,
                t.0,
                t.1,
                roll(r),
                f.fr()
            ));
            match f {
                Fate::Destroyed => {
                    ctx.state.remove_unit(id);
                }
                Fate::Retreat if u.owner != GUERRILLA => {
                    if let Some(dest) = retreat_zone(ctx.state, &u, &z, None) {
                        if let Some(x) = ctx.state.unit_mut(id) {
                            x.at = dest;
                        }
                    } else {
                        ctx.state.remove_unit(id);
                    }
                }
                _ => {}
            }
        }
        owners.remove(GUERRILLA);
        ev(
            ctx,
            Vis::Nations(owners.into_iter().collect()),
            Sec::Combat,
            log.join("\n"),
        );
    }
}

/// Who holds a zone by its units (§5.14): infantry on land, warships at sea.
pub fn decide(st: &State, z: &str, before: &Status) -> Status {
    decide_among(st, z, before, st.units.values().filter(|u| u.at == z))
}

/// [`decide`] given the units standing in `z` (from a [`UnitsAt`] index).
fn decide_among<'a>(
    st: &State,
    z: &str,
    before: &Status,
    here: impl Iterator<Item = &'a Unit>,
) -> Status {
    let sea = st.kind(z).is_sea();
    let holders: BTreeSet<String> = here
        .filter(|u| u.at == z && u.owner != GUERRILLA)
        .filter(|u| {
            if sea {
                sp(&u.code).is_warship()
            } else {
                sp(&u.code).cat == Cat::Inf
            }
        })
        .map(|u| u.owner.clone())
        .collect();
    let nations: Vec<String> = holders
        .iter()
        .filter(|h| st.nations.contains_key(*h))
        .cloned()
        .collect();
    if nations.is_empty() {
        return Status::Neutral;
    }
    let prev_holder = match before {
        Status::Controlled { by } => Some(by.clone()),
        Status::Contested { holder, .. } => holder.clone(),
        _ => None,
    };
    if holders.contains(NEUTRAL) {
        return Status::Contested {
            by: nations,
            holder: prev_holder,
        };
    }
    if nations.len() == 1 {
        return Status::Controlled {
            by: nations[0].clone(),
        };
    }
    let war = nations
        .iter()
        .any(|a| nations.iter().any(|b| st.diplo(a, b) == Diplo::War));
    if war {
        return Status::Contested {
            by: nations,
            holder: prev_holder,
        };
    }
    if let Some(big) = nations.iter().find(|n| st.factories(n, z) > 15) {
        return Status::Controlled { by: big.clone() };
    }
    if let Status::Shared { .. } = before {
        return Status::Shared { by: nations };
    }
    if let Some(h) = prev_holder.filter(|h| nations.contains(h)) {
        return Status::Controlled { by: h };
    }
    Status::Shared { by: nations }
}

/// Step 4.2 (WWK-110): control of every zone.
pub fn control(ctx: &mut Ctx) {
    let zones: Vec<String> = ctx.state.zones.keys().cloned().collect();
    // Units by zone, once (issue 9): this step only removes guerrillas of
    // the zone it decides, so the index stays exact for every later zone.
    let at = ctx.state.units_at();
    for z in zones {
        let before = ctx.state.zone(&z).status.clone();
        let mut now = decide_among(ctx.state, &z, &before, at.units(ctx.state, &z));
        // Only guerrillas left as infantry: neutral, guerrillas leave (S l.89).
        let guer: Vec<UnitId> = at
            .units(ctx.state, &z)
            .filter(|u| u.owner == GUERRILLA)
            .map(|u| u.id)
            .collect();
        if now == Status::Neutral && !guer.is_empty() && before != Status::Neutral {
            for g in guer {
                ctx.state.remove_unit(g);
            }
        }
        // Empty zone of the same controller at sea stays as it was (ships may roam).
        if ctx.state.kind(&z).is_sea() && now == Status::Neutral {
            now = Status::Neutral;
        }
        ctx.scratch.status_before.insert(z.clone(), before);
        ctx.state.zone_mut(&z).status = now;
    }
}

/// Step 4.3 (WWK-111, WWK-44, WWK-109): factory destruction rolls, stocks
/// stay, units unable to retreat are captured or demobilised.
pub fn control_effects(ctx: &mut Ctx) {
    let changes: Vec<(String, Status, Status)> = ctx
        .scratch
        .status_before
        .iter()
        .map(|(z, b)| (z.clone(), b.clone(), ctx.state.zone(z).status.clone()))
        // A holder that keeps its zone through a contest has not "taken" it.
        .filter(|(_, b, a)| {
            let prev = match b {
                Status::Controlled { by } => Some(by.as_str()),
                Status::Contested { holder, .. } => holder.as_deref(),
                _ => None,
            };
            a.controller().is_some() && prev != a.controller()
        })
        .collect();
    for (z, before, after) in changes {
        let new = after.controller().unwrap_or_default().to_string();
        let facs: Vec<UnitId> = ctx
            .state
            .units
            .values()
            .filter(|u| u.at == z && u.code == "FAC")
            .map(|u| u.id)
            .collect();
        let mut lost = 0;
        for f in facs {
            let r = crate::turn::d(ctx.rng, &mut ctx.scratch.log, 100);
            if r <= 25 {
                ctx.state.remove_unit(f);
                lost += 1;
            } else if let Some(u) = ctx.state.unit_mut(f) {
                u.owner = new.clone();
            }
        }
        // Stocks stay (S l.577): every ledger merges into the new controller's.
        let zm = ctx.state.zone_mut(&z);
        let mut merged = Ledger::default();
        for l in zm.ledgers.values() {
            merged.add(l);
        }
        zm.ledgers.clear();
        zm.ledgers.insert(new.clone(), merged);
        zm.ce = 0;
        zm.infiltration.remove(&new);
        let mut who = before.parties();
        who.push(new.clone());
        who.sort();
        who.dedup();
        ev(
            ctx,
            Vis::Nations(who),
            Sec::Combat,
            format!("[{z}] passe sous le contrôle de {new} ; usines détruites : {lost}"),
        );
    }
    for (id, captured) in std::mem::take(&mut ctx.scratch.no_retreat) {
        let Some(z) = ctx.state.unit_zone(id) else {
            continue;
        };
        match ctx.state.zone(&z).status.controller().map(str::to_string) {
            Some(c) if captured => {
                if let Some(u) = ctx.state.unit_mut(id) {
                    u.owner = c;
                    u.army = None;
                }
            }
            Some(_) => {
                crate::admin::demobilise(ctx.state, id);
            }
            None => {
                ctx.state.remove_unit(id);
            }
        }
    }
    // Soleil Vert: enemy infantry killed in a zone the nation controls → 1 N each.
    for (z, k) in std::mem::take(&mut ctx.scratch.infantry_killed) {
        if let Some(c) = ctx.state.zone(&z).status.controller().map(str::to_string) {
            if ctx
                .state
                .nations
                .get(&c)
                .is_some_and(|n| n.options.soylent_green)
            {
                ctx.state.ledger_mut(&c, &z).n += i64::from(k);
            }
        }
    }
}

/// Step 4.4 (WWK-112): units in a zone controlled by a non-ally retreat, or
/// surrender (at war) or are demobilised without refund.
pub fn forced_retreat(ctx: &mut Ctx) {
    let units: Vec<Unit> = ctx
        .state
        .units
        .values()
        .filter(|u| {
            ctx.state.nations.contains_key(&u.owner)
                && !u.at.starts_with('#')
                && !u.at.starts_with('@')
        })
        .cloned()
        .collect();
    for u in units {
        let Some(c) = ctx
            .state
            .zone(&u.at)
            .status
            .controller()
            .map(str::to_string)
        else {
            continue;
        };
        if ctx.state.friendly(&u.owner, &c) || ctx.state.unit(u.id).is_none() {
            continue;
        }
        if let Some(dest) = retreat_zone(
            ctx.state,
            &u,
            &u.at.clone(),
            ctx.scratch.came_from.get(&u.id).map(|s| s.as_str()),
        )
        .filter(|_| !sp(&u.code).is_base())
        {
            if let Some(x) = ctx.state.unit_mut(u.id) {
                x.at = dest.clone();
            }
            ev(
                ctx,
                to_nation(&u.owner),
                Sec::Combat,
                format!(
                    "Repli forcé : #{} {} de [{}] vers [{dest}]",
                    u.id, u.code, u.at
                ),
            );
        } else if ctx.state.diplo(&u.owner, &c) == Diplo::War {
            if let Some(x) = ctx.state.unit_mut(u.id) {
                x.owner = c.clone();
                x.army = None;
            }
            ev(
                ctx,
                Vis::Nations(vec![u.owner.clone(), c.clone()]),
                Sec::Combat,
                format!(
                    "#{} {} de {} en [{}] se rend à {c}",
                    u.id, u.code, u.owner, u.at
                ),
            );
        } else {
            ctx.state.remove_unit(u.id);
            ev(
                ctx,
                to_nation(&u.owner),
                Sec::Combat,
                format!(
                    "#{} {} en [{}] démobilisé (zone de {c})",
                    u.id, u.code, u.at
                ),
            );
        }
    }
}

/// Step 4.5 (WWK-113): reversion garrisons (90/10) and regeneration.
pub fn neutrals(ctx: &mut Ctx) {
    let zones: Vec<String> = ctx.state.zones.keys().cloned().collect();
    // Units by zone, once (issue 9): this step only adds units to the zone
    // it is handling, after reading it, so the index is exact for each zone.
    let at = ctx.state.units_at();
    for z in zones {
        if ctx.state.kind(&z) != ZoneKind::Land || ctx.state.zone(&z).status != Status::Neutral {
            continue;
        }
        let before = ctx
            .scratch
            .status_before
            .get(&z)
            .cloned()
            .unwrap_or_default();
        // Reversion is a zone a nation held turning neutral (§5.15, D-72). A
        // zone only contested against its own garrison (no nation held it,
        // D-68) is still the neutrals': its garrison is restored to its
        // recorded make-up below, never added to.
        let held_by_nation = match &before {
            Status::Neutral => false,
            Status::Contested { holder, .. } => holder
                .as_ref()
                .is_some_and(|h| ctx.state.nations.contains_key(h)),
            _ => true,
        };
        let recorded = ctx.state.zone(&z).garrison.is_some();
        if held_by_nation || (before != Status::Neutral && !recorded) {
            let g = roll_garrison(ctx, &z);
            let mut regular = vec![];
            for c in &g {
                let r = crate::turn::d(ctx.rng, &mut ctx.scratch.log, 100);
                if r <= 90 {
                    regular.push(c.clone());
                } else {
                    ctx.state.add_unit(GUERRILLA, "MIL", &z);
                }
            }
            place_garrison(ctx, &z, &regular);
            // Neutral units that outlived the nation's hold (a zone can be a
            // nation's while a neutral unit still stands in it) join the
            // fresh garrison: none is destroyed, and the stored make-up that
            // regeneration restores is what the neutrals hold now (D-72).
            let mut record = g;
            record.extend(
                at.units(ctx.state, &z)
                    .filter(|u| u.owner == NEUTRAL)
                    .map(|u| u.code.clone()),
            );
            ctx.state.zone_mut(&z).garrison = Some(record);
            ev(ctx, Vis::All, Sec::News, format!("[{z}] redevient neutre"));
            continue;
        }
        // Regeneration while neutrals hold the zone (S l.647).
        if let Some(g) = ctx.state.zone(&z).garrison.clone() {
            let mut missing = vec![];
            let mut have: Vec<String> = at
                .units(ctx.state, &z)
                .filter(|u| u.owner == NEUTRAL)
                .map(|u| u.code.clone())
                .collect();
            for c in g {
                if let Some(i) = have.iter().position(|h| *h == c) {
                    have.remove(i);
                } else {
                    missing.push(c);
                }
            }
            place_garrison(ctx, &z, &missing);
        }
    }
}

/// Step 4.6: second snapshot of space RECN, before SMOV.
pub fn space_recn2(ctx: &mut Ctx) {
    for (n, z) in ctx.scratch.space_recn.clone() {
        let s = snapshot(ctx.state, &z);
        ctx.scratch
            .snapshots
            .push((n, z, format!("RECN spatiale phase 4 avant SMOV : {s}")));
    }
}

/// Step 4.7 (WWK-115, TV-12): SMOV along own controlled or shared zones;
/// cancelled if a path zone was invaded or contested in phase 3.
pub fn smov(ctx: &mut Ctx) {
    for it in activation(ctx.scratch, ctx.state, |o| {
        matches!(
            o,
            Order::Mil {
                mission: Mission::Smov(_),
                ..
            }
        )
    }) {
        let Order::Mil {
            zone,
            sel,
            mission: Mission::Smov(path),
        } = &it.order
        else {
            continue;
        };
        let n = &it.nation;
        let mut full = vec![zone.clone()];
        full.extend(path.iter().cloned());
        let chain_ok = full.windows(2).all(|w| ctx.state.adjacent(&w[0], &w[1]));
        let own_ok = full
            .iter()
            .all(|z| ctx.state.zone(z).status.controls_or_shares(n));
        let hot = full.iter().any(|z| {
            ctx.scratch.invaded.contains(z.as_str())
                || matches!(ctx.state.zone(z).status, Status::Contested { .. })
        });
        if !chain_ok || !own_ok {
            ctx.scratch
                .fail(&it, "chemin hors de vos zones contrôlées ou partagées");
            continue;
        }
        if hot {
            ctx.scratch.fail(
                &it,
                "zone du chemin envahie ou contestée pendant la phase 3",
            );
            continue;
        }
        let ids = crate::military::select(ctx, &it, zone, sel, &|s| {
            (s.is_land() || s.is_naval()) && !s.is_base()
        });
        if ids.is_empty() {
            fail(ctx, &it, "aucune unité disponible");
            continue;
        }
        let dest = full.last().map(|z| z.to_string()).unwrap_or_default();
        for id in &ids {
            if let Some(u) = ctx.state.unit_mut(*id) {
                u.at = dest.clone();
            }
        }
        crate::military::embark(ctx.state, n, ids.iter().copied());
        ctx.scratch
            .set(&it, format!("OK  {} unité(s) en [{dest}]", ids.len()));
    }
}

/// Step 4.8 (WWK-108, WWK-78): land/naval RECN and the second RC snapshot.
pub fn recon_end(ctx: &mut Ctx) {
    for it in activation(
        ctx.scratch,
        ctx.state,
        |o| matches!(o, Order::Mil { mission: Mission::Recn(_), sel, .. } if !matches!(sel, Selector::Space(_)) && !matches!(sel, Selector::Units(_, c) if *c == "RSAT")),
    ) {
        let Order::Mil {
            zone,
            sel,
            mission: Mission::Recn(t),
        } = &it.order
        else {
            continue;
        };
        if !ctx.state.adjacent(zone, t) {
            ctx.scratch.fail(&it, format!("[{t}] n'est pas adjacente"));
            continue;
        }
        let sel1 = match sel {
            Selector::Units(_, c) => Selector::Units(Some(1), c),
            Selector::Group(_, g) => Selector::Group(Some(1), g),
            s => s.clone(),
        };
        let ids = crate::military::select(ctx, &it, zone, &sel1, &|s| {
            !s.is_base() && s.cat != Cat::Space
        });
        if ids.is_empty() {
            fail(ctx, &it, "aucune unité disponible");
            continue;
        }
        ctx.scratch.recon.insert((it.nation.clone(), t.to_string()));
        let s = snapshot(ctx.state, t);
        ctx.scratch.snapshots.push((
            it.nation.clone(),
            t.to_string(),
            format!("RECN fin de phase 4 : {s}"),
        ));
        ctx.scratch.ok(&it);
    }
    for (n, z) in ctx.scratch.rc_second.clone() {
        let s = snapshot(ctx.state, &z);
        let fac: usize = ctx
            .state
            .units
            .values()
            .filter(|u| u.at == z && u.code == "FAC")
            .count();
        ctx.scratch
            .snapshots
            .push((n, z, format!("RC fin de phase 4 : {s} ; usines {fac}")));
    }
}
