//! Phase 1, administration (spec §4 steps 1.1–1.8; rulebook "Aide
//! Internationale" to "Contre Espionnage", "Démobilisation"): diplomacy,
//! forced demobilisation, CE upgrade, demobilisation, transfers, aid,
//! exchanges and the world market.

use crate::catalog::{self, Cat};
use crate::model::*;
use crate::orders::Order;
use crate::turn::*;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// Step 1.1: CEASEFIRE pairs, BREAK, ALLY pairs, WAR (WWK-28..30).
pub fn diplomacy(ctx: &mut Ctx) {
    let items = activation(ctx.scratch, ctx.state, |o| {
        matches!(
            o,
            Order::War(_) | Order::Ceasefire(_) | Order::Ally(_) | Order::Break
        )
    });
    let wants = |kind: fn(&Order) -> Option<&String>, a: &str, b: &str| {
        items
            .iter()
            .any(|i| i.nation == a && kind(&i.order).map(|s| s.as_str()) == Some(b))
    };
    fn cf(o: &Order) -> Option<&String> {
        if let Order::Ceasefire(t) = o {
            Some(t)
        } else {
            None
        }
    }
    fn al(o: &Order) -> Option<&String> {
        if let Order::Ally(t) = o {
            Some(t)
        } else {
            None
        }
    }
    let start = ctx.state.clone();
    let mut ceasefired: BTreeSet<String> = BTreeSet::new();
    for it in items
        .iter()
        .filter(|i| matches!(i.order, Order::Ceasefire(_)))
    {
        let Order::Ceasefire(t) = &it.order else {
            continue;
        };
        if start.diplo(&it.nation, t) != Diplo::War {
            ctx.scratch.fail(it, format!("pas en guerre avec {t}"));
        } else if !wants(cf, t, &it.nation) {
            ctx.scratch
                .fail(it, format!("{t} n'a pas ordonné le cessez-le-feu"));
        } else {
            ctx.scratch.ok(it);
            if ctx.state.diplo(&it.nation, t) == Diplo::War {
                ctx.state.set_diplo(&it.nation, t, Diplo::Peace);
                ctx.scratch.demob_pairs.push((it.nation.clone(), t.clone()));
                ev(
                    ctx,
                    Vis::Nations(vec![it.nation.clone(), t.clone()]),
                    Sec::Diplo,
                    format!("Cessez-le-feu entre {} et {t}", it.nation),
                );
            }
            ceasefired.insert(pair_key(&it.nation, t));
        }
    }
    for it in items.iter().filter(|i| matches!(i.order, Order::Break)) {
        match ctx.state.ally_of(&it.nation) {
            None => ctx.scratch.fail(it, "aucune alliance"),
            Some(a) => {
                ctx.scratch.ok(it);
                ctx.state.set_diplo(&it.nation, &a, Diplo::Peace);
                ctx.scratch.demob_pairs.push((it.nation.clone(), a.clone()));
                ev(
                    ctx,
                    Vis::All,
                    Sec::Diplo,
                    format!("Rupture de l'alliance entre {} et {a}", it.nation),
                );
            }
        }
    }
    for it in items.iter().filter(|i| matches!(i.order, Order::Ally(_))) {
        let Order::Ally(t) = &it.order else { continue };
        let n = &it.nation;
        if !wants(al, t, n) {
            ctx.scratch
                .fail(it, format!("{t} n'a pas ordonné l'alliance"));
        } else if ctx.state.diplo(n, t) == Diplo::Allied {
            ctx.scratch.ok(it);
        } else if ctx.state.ally_of(n).is_some() || ctx.state.ally_of(t).is_some() {
            ctx.scratch.fail(it, "une seule alliance par nation");
        } else if ctx.state.diplo(n, t) == Diplo::War && !ceasefired.contains(&pair_key(n, t)) {
            ctx.scratch.fail(it, "en guerre sans cessez-le-feu");
        } else {
            ctx.scratch.ok(it);
            ctx.state.set_diplo(n, t, Diplo::Allied);
            ev(
                ctx,
                Vis::All,
                Sec::Diplo,
                format!("Alliance conclue entre {n} et {t}"),
            );
        }
    }
    for it in items.iter().filter(|i| matches!(i.order, Order::War(_))) {
        let Order::War(t) = &it.order else { continue };
        let n = &it.nation;
        match ctx.state.diplo(n, t) {
            Diplo::War => ctx.scratch.fail(it, format!("déjà en guerre avec {t}")),
            Diplo::Allied => ctx.scratch.fail(it, format!("allié de {t}")),
            Diplo::Peace => {
                ctx.scratch.ok(it);
                // D-11: both alliances join.
                let mut a = vec![n.clone()];
                a.extend(ctx.state.ally_of(n));
                let mut b = vec![t.clone()];
                b.extend(ctx.state.ally_of(t));
                for x in &a {
                    for y in &b {
                        if x != y && ctx.state.diplo(x, y) != Diplo::Allied {
                            ctx.state.set_diplo(x, y, Diplo::War);
                        }
                    }
                }
                ev(
                    ctx,
                    Vis::All,
                    Sec::Diplo,
                    format!("{n} déclare la guerre à {t}"),
                );
            }
        }
    }
}

/// Step 1.2 (WWK-31, D-12): units of either party standing in a zone
/// controlled by the other, or contested between them, are demobilised
/// without refund.
pub fn forced_demob(ctx: &mut Ctx) {
    let pairs = ctx.scratch.demob_pairs.clone();
    for (a, b) in pairs {
        for (x, y) in [(&a, &b), (&b, &a)] {
            let victims: Vec<UnitId> = ctx
                .state
                .units
                .values()
                .filter(|u| &u.owner == x)
                .filter(|u| {
                    let Some(z) = ctx.state.unit_zone(u.id) else {
                        return false;
                    };
                    match &ctx.state.zone(&z).status {
                        Status::Controlled { by } => by == y,
                        Status::Contested { by, .. } => by.contains(x) && by.contains(y),
                        _ => false,
                    }
                })
                .map(|u| u.id)
                .collect();
            if !victims.is_empty() {
                // Where and which units (issue 18 item 5): `[POL] 2 INF, 1 LT`.
                let mut by_zone: std::collections::BTreeMap<
                    String,
                    std::collections::BTreeMap<String, usize>,
                > = std::collections::BTreeMap::new();
                for id in &victims {
                    if let (Some(z), Some(u)) = (ctx.state.unit_zone(*id), ctx.state.unit(*id)) {
                        *by_zone
                            .entry(z)
                            .or_default()
                            .entry(u.code.clone())
                            .or_default() += 1;
                    }
                }
                for id in &victims {
                    ctx.state.remove_unit(*id);
                }
                let detail: Vec<String> = by_zone
                    .iter()
                    .map(|(z, m)| {
                        format!(
                            "[{z}] {}",
                            m.iter()
                                .map(|(c, k)| format!("{k} {c}"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        )
                    })
                    .collect();
                ev(
                    ctx,
                    to_nation(x),
                    Sec::Diplo,
                    format!(
                        "{} unité(s) hors des zones frontalières démobilisée(s) : {}",
                        victims.len(),
                        detail.join(" ; ")
                    ),
                );
            }
        }
    }
}

/// CE investment: (new CE, ec spent) (§6.1, D-14; TV-14).
pub fn ce_invest(ce: i64, ec: i64, cap: i64) -> (i64, i64) {
    let need = ((cap - ce).max(0) + 1) / 2;
    let spend = ec.min(need);
    ((ce + 2 * spend).min(cap), spend)
}

/// Step 1.3 (WWK-70): CE −2, then investments; PG maluses expire.
pub fn ce_upgrade(ctx: &mut Ctx) {
    for z in ctx.state.zones.values_mut() {
        z.ce = (z.ce - 2).max(0);
        z.pg_malus.clear();
    }
    for it in activation(ctx.scratch, ctx.state, |o| matches!(o, Order::Ce { .. })) {
        let Order::Ce { zone, ec } = &it.order else {
            continue;
        };
        if !ctx.state.zone(zone).status.controls_or_shares(&it.nation) {
            ctx.scratch.fail(&it, "zone ni contrôlée ni partagée");
            continue;
        }
        let have = ctx.state.ledger(&it.nation, zone).ec;
        let cap = ctx.state.params.ce_cap;
        let (ce, spent) = ce_invest(ctx.state.zone(zone).ce, (*ec).min(have), cap);
        if spent == 0 && ce < cap {
            ctx.scratch.fail(&it, "fonds insuffisants");
            continue;
        }
        ctx.state.ledger_mut(&it.nation, zone).ec -= spent;
        ctx.state.zone_mut(zone).ce = ce;
        ctx.scratch.set(&it, format!("OK  CE {ce} ({spent}ec)"));
    }
}

/// Refund of one demobilised unit (§7.4, D-71): floor(R/2) resource letters in
/// listed order skipping N, plus 1 ec (1 N instead under Soleil Vert for
/// infantry). Space units give nothing.
pub fn refund(code: &str, green: bool) -> Ledger {
    let mut l = Ledger::default();
    let Some(s) = catalog::spec(code) else {
        return l;
    };
    if s.cat == Cat::Space {
        return l;
    }
    let r = s.res.len() / 2;
    for c in s.res.chars().filter(|c| *c != 'N').take(r) {
        *l.res_mut(c) += 1;
    }
    if green && s.cat == Cat::Inf {
        l.n += 1;
    } else {
        l.ec += 1;
    }
    l
}

/// Demobilise one unit; refund into its zone if the owner holds it.
pub fn demobilise(st: &mut State, id: UnitId) -> bool {
    let Some(u) = st.unit(id).cloned() else {
        return false;
    };
    let zone = st.unit_zone(id);
    st.remove_unit(id);
    if let Some(z) = zone {
        if st.zone(&z).status.controls_or_shares(&u.owner) {
            let green = st
                .nations
                .get(&u.owner)
                .is_some_and(|n| n.options.soylent_green);
            let r = refund(&u.code, green);
            st.ledger_mut(&u.owner, &z).add(&r);
            return true;
        }
    }
    false
}

/// Step 1.4 (WWK-56, WWK-57): DEMOB and NAT DEMOB.
pub fn demob(ctx: &mut Ctx) {
    for it in activation(ctx.scratch, ctx.state, |o| {
        matches!(o, Order::Demob { .. } | Order::NatDemob(_))
    }) {
        let ids: Vec<UnitId> = match &it.order {
            Order::Demob { zone, code, q } => {
                let v: Vec<UnitId> = ctx
                    .state
                    .units
                    .values()
                    .filter(|u| u.owner == it.nation && &u.code == code && &u.at == zone)
                    .map(|u| u.id)
                    .collect();
                v.into_iter().take(q.unwrap_or(usize::MAX)).collect()
            }
            Order::NatDemob(code) => ctx
                .state
                .units
                .values()
                .filter(|u| u.owner == it.nation && &u.code == code)
                .map(|u| u.id)
                .collect(),
            _ => continue,
        };
        if ids.is_empty() {
            ctx.scratch.fail(&it, "aucune unité de ce type");
            continue;
        }
        let n = ids.len();
        for id in ids {
            demobilise(ctx.state, id);
        }
        ctx.scratch.set(&it, format!("OK  {n} démobilisée(s)"));
    }
}

/// Closed-market path rule (§7.2.5, D-10): adjacent zones each controlled or
/// shared by one of the two nations.
pub fn trade_path(st: &State, from: &str, to: &str, a: &str, b: &str) -> bool {
    let ok = |z: &str| {
        let s = &st.zone(z).status;
        s.controls_or_shares(a) || s.controls_or_shares(b)
    };
    let mut seen = BTreeSet::new();
    let mut q = VecDeque::from([from.to_string()]);
    seen.insert(from.to_string());
    while let Some(z) = q.pop_front() {
        if z == to {
            return true;
        }
        for n in st.neighbours(&z) {
            if !seen.contains(&n) && ok(&n) {
                seen.insert(n.clone());
                q.push_back(n);
            }
        }
    }
    false
}

pub fn market_closed_for(st: &State, n: &str, turn: u32) -> bool {
    st.market.closed_until >= turn || st.market.closed_for.get(n).is_some_and(|t| *t >= turn)
}

/// The nation whose ledger receives goods sent to zone `z`.
fn recipient(st: &State, z: &str) -> Option<String> {
    match &st.zone(z).status {
        Status::Controlled { by } => Some(by.clone()),
        Status::Shared { by } => by.first().cloned(),
        Status::Contested { holder, .. } => holder.clone(),
        Status::Neutral => None,
    }
}

/// Step 1.5 (WWK-35): XFER and NAT XFER.
pub fn xfer(ctx: &mut Ctx) {
    let turn = ctx.turn;
    for it in activation(ctx.scratch, ctx.state, |o| {
        matches!(o, Order::Xfer { .. } | Order::NatXfer { .. })
    }) {
        match &it.order {
            Order::NatXfer { ec, zone } => {
                let n = ctx.state.nations.get_mut(&it.nation).expect("nation");
                if n.treasury < *ec {
                    ctx.scratch
                        .fail(&it, format!("trésor insuffisant ({}ec)", n.treasury));
                } else if !ctx.state.zone(zone).status.controls_or_shares(&it.nation) {
                    ctx.scratch.fail(&it, "zone ni contrôlée ni partagée");
                } else {
                    ctx.state
                        .nations
                        .get_mut(&it.nation)
                        .expect("nation")
                        .treasury -= ec;
                    ctx.state.ledger_mut(&it.nation, zone).ec += ec;
                    ctx.scratch.ok(&it);
                }
            }
            Order::Xfer { from, q, res, to } => {
                let l = ctx.state.ledger(&it.nation, from);
                if l.res(*res) < *q {
                    ctx.scratch.fail(&it, "stock insuffisant");
                    continue;
                }
                match to {
                    None => {
                        ctx.state.ledger_mut(&it.nation, from).ec -= q;
                        ctx.state
                            .nations
                            .get_mut(&it.nation)
                            .expect("nation")
                            .treasury += q;
                        ctx.scratch.ok(&it);
                    }
                    Some(t) => {
                        if !ctx.state.zone(t).status.controls_or_shares(&it.nation) {
                            ctx.scratch
                                .fail(&it, format!("[{t}] n'est pas une zone de votre nation"));
                            continue;
                        }
                        if market_closed_for(ctx.state, &it.nation, turn)
                            && !trade_path(ctx.state, from, t, &it.nation, &it.nation)
                        {
                            ctx.scratch.fail(&it, "marché fermé et pas de chemin");
                            continue;
                        }
                        *ctx.state.ledger_mut(&it.nation, from).res_mut(*res) -= q;
                        *ctx.state.ledger_mut(&it.nation, t).res_mut(*res) += q;
                        ctx.scratch.ok(&it);
                    }
                }
            }
            _ => {}
        }
    }
}

/// Step 1.6 (WWK-34, D-9, D-69): AID ≤ floor(ec_start/2) over all the
/// nation's lines from the zone; another nation sharing the zone has its own cap.
pub fn aid(ctx: &mut Ctx) {
    let turn = ctx.turn;
    for it in activation(ctx.scratch, ctx.state, |o| matches!(o, Order::Aid { .. })) {
        let Order::Aid { from, ec, to } = &it.order else {
            continue;
        };
        let start = ctx
            .scratch
            .ec_start
            .get(&(it.nation.clone(), from.to_string()))
            .copied()
            .unwrap_or(0);
        let cap = start / 2;
        let key = (it.nation.clone(), from.to_string());
        let used = ctx.scratch.aid_used.get(&key).copied().unwrap_or(0);
        let Some(dest) = recipient(ctx.state, to) else {
            ctx.scratch
                .fail(&it, format!("[{to}] n'appartient à aucune nation"));
            continue;
        };
        if from == to {
            ctx.scratch.fail(&it, "même zone");
        } else if used + ec > cap {
            ctx.scratch.fail(
                &it,
                format!(
                    "au plus 50% des ec du début de tour ({} > {cap})",
                    used + ec
                ),
            );
        } else if ctx.state.ledger(&it.nation, from).ec < *ec {
            ctx.scratch.fail(&it, "fonds insuffisants");
        } else if market_closed_for(ctx.state, &it.nation, turn)
            && !trade_path(ctx.state, from, to, &it.nation, &dest)
        {
            ctx.scratch.fail(&it, "marché fermé et pas de chemin");
        } else {
            ctx.scratch.aid_used.insert(key, used + ec);
            ctx.state.ledger_mut(&it.nation, from).ec -= ec;
            ctx.state.ledger_mut(&dest, to).ec += ec;
            ctx.scratch.ok(&it);
            if dest != it.nation {
                ev(
                    ctx,
                    to_nation(&dest),
                    Sec::Economy,
                    format!("Aide internationale reçue en [{to}] : {ec}ec de [{from}]"),
                );
            }
        }
    }
}

/// Step 1.7 (WWK-36): mirrored EXCH orders between two nations.
pub fn exch(ctx: &mut Ctx) {
    let turn = ctx.turn;
    let items = activation(ctx.scratch, ctx.state, |o| matches!(o, Order::Exch { .. }));
    let mut done: BTreeSet<usize> = BTreeSet::new();
    for (i, a) in items.iter().enumerate() {
        if done.contains(&i) {
            continue;
        }
        let Order::Exch {
            from: fa,
            give: ga,
            get: gta,
            with: wa,
        } = &a.order
        else {
            continue;
        };
        let m = items.iter().enumerate().find(|(j, b)| {
            !done.contains(j)
                && *j != i
                && b.nation != a.nation
                && matches!(&b.order, Order::Exch { from, give, get, with } if from == wa && with == fa && give == gta && get == ga)
        });
        let Some((j, b)) = m else {
            ctx.scratch
                .fail(a, "pas d'ordre symétrique de l'autre zone");
            continue;
        };
        done.insert(i);
        done.insert(j);
        let (na, nb) = (&a.nation, &b.nation);
        let pay_a = ctx.state.ledger(na, fa).res(ga.1) >= ga.0;
        let pay_b = ctx.state.ledger(nb, wa).res(gta.1) >= gta.0;
        let path = !(market_closed_for(ctx.state, na, turn)
            || market_closed_for(ctx.state, nb, turn))
            || trade_path(ctx.state, fa, wa, na, nb);
        if !pay_a || !pay_b || !path {
            let why = if !path {
                "marché fermé et pas de chemin"
            } else {
                "une des zones ne peut pas payer"
            };
            ctx.scratch.fail(a, why);
            ctx.scratch.fail(b, why);
            continue;
        }
        *ctx.state.ledger_mut(na, fa).res_mut(ga.1) -= ga.0;
        *ctx.state.ledger_mut(nb, wa).res_mut(ga.1) += ga.0;
        *ctx.state.ledger_mut(nb, wa).res_mut(gta.1) -= gta.0;
        *ctx.state.ledger_mut(na, fa).res_mut(gta.1) += gta.0;
        ctx.scratch.ok(a);
        ctx.scratch.ok(b);
    }
}

/// Market totals check (§7.2.4, D-8): Some(k) when sold = 3k and bought = 2k.
pub fn market_k(sold: i64, bought: i64) -> Option<i64> {
    (sold > 0 && sold % 3 == 0 && bought * 3 == sold * 2).then_some(sold / 3)
}

/// Step 1.8 (WWK-37, WWK-40): the world market, atomic per nation.
pub fn market(ctx: &mut Ctx) {
    let turn = ctx.turn;
    let items = activation(ctx.scratch, ctx.state, |o| {
        matches!(o, Order::Market { .. })
    });
    let mut by_nation: BTreeMap<String, Vec<Item>> = BTreeMap::new();
    for it in items {
        by_nation.entry(it.nation.clone()).or_default().push(it);
    }
    for (n, lines) in by_nation {
        let mut sold = 0;
        let mut bought = 0;
        let mut err: Option<String> = None;
        let green = ctx
            .state
            .nations
            .get(&n)
            .is_some_and(|x| x.options.soylent_green);
        let mut need: BTreeMap<(String, char), i64> = BTreeMap::new();
        for it in &lines {
            let Order::Market { zone, sell, q, res } = &it.order else {
                continue;
            };
            if !ctx.state.zone(zone).status.controls_or_shares(&n) {
                err = Some(format!("[{zone}] n'est pas à vous"));
            }
            if *sell {
                sold += q;
                *need.entry((zone.to_string(), *res)).or_default() += q;
            } else {
                bought += q;
                if *res == 'N' && green {
                    err = Some("Soleil Vert : pas d'achat de N".into());
                }
            }
        }
        if market_closed_for(ctx.state, &n, turn) {
            err = Some("marché mondial fermé".into());
        }
        for ((z, r), q) in &need {
            if ctx.state.ledger(&n, z).res(*r) < *q {
                err = Some(format!("stock insuffisant en [{z}]"));
            }
        }
        if err.is_none() && market_k(sold, bought).is_none() {
            err = Some(format!(
                "il faut vendre 3k et acheter 2k (vendu {sold}, acheté {bought})"
            ));
        }
        if let Some(e) = err {
            for it in &lines {
                ctx.scratch.fail(it, &e);
            }
            continue;
        }
        for it in &lines {
            let Order::Market { zone, sell, q, res } = &it.order else {
                continue;
            };
            let l = ctx.state.ledger_mut(&n, zone).res_mut(*res);
            if *sell {
                *l -= q;
            } else {
                *l += q;
            }
            ctx.scratch.ok(it);
        }
    }
}
