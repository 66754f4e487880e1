//! Phase 5, economy and research (spec §4 steps 5.1–5.12, §7; rulebook
//! "Production", "Accumulation", "Maintenance", "Recherche", "Points de
//! victoire", "Logistique"): production limits, repairs, bases and units,
//! income, maintenance, research, milestones, timers, victory points and the
//! end of the game.

use crate::catalog::{self, sp, Cat};
use crate::intake::pick;
use crate::model::*;
use crate::orders::Order;
use crate::turn::*;
use std::collections::BTreeMap;

/// Units that count for the factory / engineer limits.
fn is_engineer(code: &str) -> bool {
    sp(code).has(catalog::ENG)
}

/// Step 5.1 (WWK-51): more than 20 + L factories or engineers → random demobilisation.
pub fn limits(ctx: &mut Ctx) {
    let nations: Vec<(String, i32)> = ctx
        .state
        .nations
        .values()
        .map(|n| (n.code.clone(), n.tech.l))
        .collect();
    for (n, l) in nations {
        let cap = (20 + l) as usize;
        for class in [true, false] {
            let mut ids: Vec<UnitId> = ctx
                .state
                .units
                .values()
                .filter(|u| {
                    u.owner == n
                        && if class {
                            u.code == "FAC"
                        } else {
                            is_engineer(&u.code)
                        }
                })
                .map(|u| u.id)
                .collect();
            crate::intake::canonical(ctx.state, &mut ids);
            while ids.len() > cap {
                let k = pick(ctx.rng, &mut ctx.scratch.log, ids.len());
                let id = ids.remove(k);
                // Which unit and where, for the next turn's orders (issue 18 item 5).
                let what = ctx
                    .state
                    .unit(id)
                    .map(|u| {
                        format!(
                            "{} en [{}]",
                            u.code,
                            ctx.state.unit_zone(u.id).unwrap_or_default()
                        )
                    })
                    .unwrap_or_default();
                crate::admin::demobilise(ctx.state, id);
                ev(
                    ctx,
                    to_nation(&n),
                    Sec::Economy,
                    format!("Limite 20 + L dépassée : #{id} {what} démobilisé"),
                );
            }
        }
    }
}

/// Aircraft of `n` parked in `z` beyond the room its air bases (8 each) and
/// carriers still give there, removed: a base that goes takes the aircraft
/// it carries (§7.4, §7.5). The last in canonical order go first.
pub fn grounded_without_base(st: &mut State, n: &str, z: &str) -> Vec<(UnitId, String)> {
    let room: usize = st
        .units
        .values()
        .filter(|u| u.owner == n && u.at == z)
        .map(|u| {
            if u.code == "ABSE" {
                8
            } else {
                sp(&u.code).carr as usize
            }
        })
        .sum();
    let mut planes: Vec<UnitId> = st
        .units
        .values()
        .filter(|u| u.owner == n && u.at == z && sp(&u.code).cat == Cat::Acft)
        .map(|u| u.id)
        .collect();
    crate::intake::canonical(st, &mut planes);
    let mut out = vec![];
    while planes.len() > room {
        let Some(id) = planes.pop() else { break };
        if let Some(u) = st.remove_unit(id).into_iter().next() {
            out.push((id, u.code));
        }
    }
    out
}

/// Step 5.2 (WWK-55): damaged warships repaired with one factory.
pub fn repairs(ctx: &mut Ctx) {
    let ships: Vec<Unit> = ctx
        .state
        .units
        .values()
        .filter(|u| u.damaged)
        .cloned()
        .collect();
    for u in ships {
        if !ctx.state.zone(&u.at).status.controls_or_shares(&u.owner) {
            continue;
        }
        let key = (u.owner.clone(), u.at.clone());
        let used = ctx.scratch.fac_used.get(&key).copied().unwrap_or(0);
        if ctx.state.factories(&u.owner, &u.at) > used {
            ctx.scratch.fac_used.insert(key, used + 1);
            if let Some(x) = ctx.state.unit_mut(u.id) {
                x.damaged = false;
            }
            ev(
                ctx,
                to_nation(&u.owner),
                Sec::Economy,
                format!("[{}] #{} {} réparé (1 usine)", u.at, u.id, u.code),
            );
        }
    }
}

/// The cost of one item: (resource letters, ec).
fn cost(code: &str) -> (&'static str, i64) {
    if let Some(s) = catalog::spec(code) {
        (s.res, s.ec)
    } else if let Some(w) = catalog::warhead(code) {
        (w.res, w.ec)
    } else {
        ("", 0)
    }
}

/// Price of one item given the stock (§7.3, D-27, TV-3): missing resources
/// cost +3 ec and one more worker each. Returns (resources used, ec, workers).
pub fn price(code: &str, stock: &Ledger) -> (Ledger, i64, usize) {
    let (res, ec) = cost(code);
    let mut s = *stock;
    let mut used = Ledger::default();
    let mut extra = 0;
    for c in res.chars() {
        if s.res(c) > 0 {
            *s.res_mut(c) -= 1;
            *used.res_mut(c) += 1;
        } else {
            extra += 1;
        }
    }
    (used, ec + 3 * extra as i64, 1 + extra)
}

fn pay(st: &mut State, n: &str, z: &str, used: &Ledger, ec: i64) -> bool {
    let l = st.ledger(n, z);
    let treasury = st.nations.get(n).map(|x| x.treasury).unwrap_or(0);
    if l.ec + treasury < ec {
        return false;
    }
    let from_zone = ec.min(l.ec);
    let lm = st.ledger_mut(n, z);
    lm.ec -= from_zone;
    for r in RES {
        *lm.res_mut(r) -= used.res(r);
    }
    if let Some(x) = st.nations.get_mut(n) {
        x.treasury -= ec - from_zone;
    }
    true
}

/// What a BUILD line ran out of (§7.3 step 4, D-28): later lines that need
/// the same resource are cancelled.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Short {
    /// Factories (units) or engineers (bases) of a zone.
    Workers(ZoneCode),
    /// A zone's ec with the national treasury behind it.
    Funds(ZoneCode),
}

/// Build lines of one kind, in file order per nation (§7.3 step 4, D-28):
/// nations in activation order, each nation's lines in the order of its
/// file, whatever their zones (the treasury pays in that order).
fn build(ctx: &mut Ctx, bases: bool) {
    let mut items = activation(
        ctx.scratch,
        ctx.state,
        |o| matches!(o, Order::Build { code, .. } if catalog::spec(code).is_some_and(|s| s.is_base()) == bases),
    );
    items.sort_by_key(|i| (ctx.scratch.nation_rank(&i.nation), i.nation.clone(), i.line));
    let mut short: std::collections::BTreeSet<(NationCode, Short)> = Default::default();
    for it in items {
        let Order::Build {
            zone,
            code,
            q,
            host,
            army,
            res,
        } = &it.order
        else {
            continue;
        };
        let n = it.nation.clone();
        if !ctx.state.zone(zone).status.controls_or_shares(&n) {
            // Allies may build FAC and ABSE in an ally's zone (S l.41).
            let allied = ctx
                .state
                .zone(zone)
                .status
                .controller()
                .is_some_and(|c| ctx.state.diplo(&n, c) == Diplo::Allied);
            if !(allied && (*code == "FAC" || *code == "ABSE")) {
                ctx.scratch
                    .fail(&it, "production seulement en zone contrôlée ou partagée");
                continue;
            }
        }
        let l = ctx.state.nations[&n].tech.l;
        let key = (n.clone(), zone.to_string());
        let workers_total = if bases {
            ctx.state
                .units
                .values()
                .filter(|u| {
                    u.owner == n && u.at == *zone && is_engineer(&u.code) && u.built < ctx.turn
                })
                .count()
        } else {
            ctx.state.factories(&n, zone)
        };
        if let Some((_, r)) = [
            Short::Workers(zone.to_string()),
            Short::Funds(zone.to_string()),
        ]
        .into_iter()
        .map(|r| (n.clone(), r))
        .find(|k| short.contains(k))
        {
            let what = match r {
                Short::Workers(_) => {
                    if bases {
                        "génie"
                    } else {
                        "usines"
                    }
                }
                Short::Funds(_) => "fonds",
            };
            ctx.scratch.fail(
                &it,
                format!("annulé : {what} de [{zone}] épuisé(e)s par une ligne précédente"),
            );
            continue;
        }
        let spc = catalog::spec(code).is_some_and(|s| s.cat == Cat::Space);
        if spc && ctx.state.count(&n, "SPC", zone) == 0 {
            ctx.scratch.fail(&it, "un centre spatial est nécessaire");
            continue;
        }
        let mut built = 0;
        let mut why = String::new();
        for _ in 0..*q {
            let used_w = if bases {
                ctx.scratch.eng_used.get(&key)
            } else {
                ctx.scratch.fac_used.get(&key)
            }
            .copied()
            .unwrap_or(0);
            let stock = ctx.state.ledger(&n, zone);
            let (used, ec, workers) = price(code, &stock);
            if used_w + workers > workers_total {
                why = format!("{} insuffisant(e)s", if bases { "génie" } else { "usines" });
                short.insert((n.clone(), Short::Workers(zone.to_string())));
                break;
            }
            // Limits 20 + L (5.1) and one FORT per zone per nation (D-88).
            if *code == "FAC"
                && ctx
                    .state
                    .units
                    .values()
                    .filter(|u| u.owner == n && u.code == "FAC")
                    .count()
                    >= (20 + l) as usize
            {
                why = "limite 20 + L des usines".into();
                break;
            }
            if is_engineer(code)
                && ctx
                    .state
                    .units
                    .values()
                    .filter(|u| u.owner == n && is_engineer(&u.code))
                    .count()
                    >= (20 + l) as usize
            {
                why = "limite 20 + L du génie".into();
                break;
            }
            if *code == "FORT" && ctx.state.count(&n, "FORT", zone) > 0 {
                why = "une seule FORT par zone".into();
                break;
            }
            // Placement (§7.3, WWK-49).
            let place = placement(ctx.state, &n, zone, code, host.as_deref());
            let Some(at) = place else {
                why = "aucune base ou lanceur pour placer l'unité".into();
                break;
            };
            if !pay(ctx.state, &n, zone, &used, ec) {
                why = "fonds insuffisants".into();
                short.insert((n.clone(), Short::Funds(zone.to_string())));
                break;
            }
            if bases {
                ctx.scratch.eng_used.insert(key.clone(), used_w + workers);
            } else {
                ctx.scratch.fac_used.insert(key.clone(), used_w + workers);
            }
            match at {
                Place::Head(hid) => {
                    if let Some(h) = ctx.state.unit_mut(hid) {
                        h.heads.push(code.to_string());
                    }
                }
                Place::Zone => {
                    let id = ctx.state.add_unit(&n, code, zone);
                    let first_sym = ctx
                        .state
                        .zdef(zone)
                        .and_then(|d| d.symbols.first().copied());
                    if let Some(u) = ctx.state.unit_mut(id) {
                        u.built = ctx.turn;
                        u.army = army.clone();
                        if *code == "PROC" {
                            u.res = res.or(first_sym);
                        }
                    }
                    if spc {
                        launch(ctx, id, zone);
                    }
                }
            }
            built += 1;
        }
        if built == *q {
            ctx.scratch.set(&it, format!("OK  {built} {code}"));
        } else if built > 0 {
            ctx.scratch
                .set(&it, format!("OK  {built} {code} sur {q} ({why})"));
        } else {
            ctx.scratch.fail(&it, why);
        }
    }
}

enum Place {
    Zone,
    Head(UnitId),
}

fn placement(st: &State, n: &str, z: &str, code: &str, host: Option<&str>) -> Option<Place> {
    if let Some(w) = catalog::warhead(code) {
        let mut cands: Vec<&Unit> = st
            .units
            .values()
            .filter(|u| {
                u.owner == n
                    && u.at == z
                    && sp(&u.code).accepts(w)
                    && (u.heads.len() as u32) < sp(&u.code).nuc
            })
            .collect();
        if let Some(h) = host {
            cands.retain(|u| u.code == h);
        }
        cands.sort_by_key(|u| (u.code == "ABSE", u.id));
        return cands.first().map(|u| Place::Head(u.id));
    }
    let s = sp(code);
    if s.cat == Cat::Acft {
        let bases = st.count(n, "ABSE", z) * 8;
        let carr: u32 = st
            .units
            .values()
            .filter(|u| u.owner == n && u.at == z && sp(&u.code).carr > 0)
            .map(|u| sp(&u.code).carr)
            .sum();
        let planes = st
            .units
            .values()
            .filter(|u| u.owner == n && u.at == z && sp(&u.code).cat == Cat::Acft)
            .count();
        if planes >= bases + carr as usize {
            return None;
        }
    }
    Some(Place::Zone)
}

/// Space launch (§2.7, WWK-53): `#TTNN`, announced to everyone; an MSLP takes
/// the warheads of the local ABSE up to its capacity.
fn launch(ctx: &mut Ctx, id: UnitId, zone: &str) {
    let key = ctx.turn.to_string();
    let serial = ctx.state.launches.entry(key).or_default();
    *serial += 1;
    let label = format!("#{:02}{:02}", ctx.turn, serial);
    let code = ctx
        .state
        .unit(id)
        .map(|u| u.code.clone())
        .unwrap_or_default();
    let owner = ctx
        .state
        .unit(id)
        .map(|u| u.owner.clone())
        .unwrap_or_default();
    if code == "MSLP" {
        let mut taken = vec![];
        let bases: Vec<UnitId> = ctx
            .state
            .units
            .values()
            .filter(|u| u.owner == owner && u.at == zone && u.code == "ABSE")
            .map(|u| u.id)
            .collect();
        for b in bases {
            if let Some(u) = ctx.state.unit_mut(b) {
                while taken.len() < 5 && !u.heads.is_empty() {
                    taken.push(u.heads.remove(0));
                }
            }
        }
        if let Some(u) = ctx.state.unit_mut(id) {
            u.heads = taken;
        }
    }
    if let Some(u) = ctx.state.unit_mut(id) {
        u.at = label.clone();
    }
    ev(
        ctx,
        Vis::All,
        Sec::News,
        format!("ESPACE  {code} {label} lancé depuis [{zone}]"),
    );
}

/// Step 5.3 (WWK-46): bases by engineers.
pub fn bases(ctx: &mut Ctx) {
    build(ctx, true);
}

/// Step 5.4 (WWK-45, WWK-47..50, WWK-54): units by factories.
pub fn production(ctx: &mut Ctx) {
    build(ctx, false);
}

/// Step 5.5 (WWK-52): capital status changes are reported.
pub fn capitals(ctx: &mut Ctx) {
    let nations: Vec<String> = ctx.state.nations.keys().cloned().collect();
    for n in nations {
        let caps = ctx.state.capitals(&n);
        if !caps.is_empty() {
            ev(
                ctx,
                to_nation(&n),
                Sec::Economy,
                format!(
                    "Capitales : {}",
                    caps.iter()
                        .map(|z| format!("[{z}]"))
                        .collect::<Vec<_>>()
                        .join(" ")
                ),
            );
        }
    }
}

/// Income of nation `n` in zone `z` (§7.1, TV-21): (ec, resources).
pub fn income(st: &State, n: &str, z: &str) -> (i64, Ledger) {
    income_in(st, &st.units_at(), n, z)
}

/// [`income`] with the units found through an index of the units by place.
fn income_in(st: &State, at: &UnitsAt, n: &str, z: &str) -> (i64, Ledger) {
    let zs = st.zone(z);
    let def = st.zdef(z).cloned().unwrap_or_default();
    let green = st.nations.get(n).is_some_and(|x| x.options.soylent_green);
    let mut res = Ledger::default();
    let fac = at
        .units(st, z)
        .filter(|u| u.owner == n && u.code == "FAC")
        .count() as i64;
    let procs: Vec<char> = at
        .units(st, z)
        .filter(|u| u.owner == n && u.code == "PROC")
        .filter_map(|u| u.res)
        .collect();
    let (base, per) = match &zs.status {
        Status::Controlled { by } if by == n => (6, 2),
        Status::Shared { by } if by.iter().any(|x| x == n) => (3, 1),
        _ => return (0, res),
    };
    let mut ec = (base + fac).min(25);
    for s in &def.symbols {
        *res.res_mut(*s) += per;
    }
    for p in procs {
        *res.res_mut(p) += 1;
    }
    if at.units(st, z).any(|u| u.owner == GUERRILLA) {
        ec /= 2;
        for r in RES {
            *res.res_mut(r) /= 2;
        }
    }
    if green {
        res.n = 0;
    }
    (ec, res)
}

/// Step 5.6 (WWK-41..43): accumulation of ec and resources.
pub fn accumulation(ctx: &mut Ctx) {
    let pairs: Vec<(String, String)> = ctx
        .state
        .zones
        .iter()
        .flat_map(|(z, s)| s.status.parties().into_iter().map(move |n| (n, z.clone())))
        .collect();
    // Units by place, once (issue 9): this step changes ledgers only.
    let at = ctx.state.units_at();
    for (n, z) in pairs {
        let (ec, res) = income_in(ctx.state, &at, &n, &z);
        if ec == 0 && res == Ledger::default() {
            continue;
        }
        let l = ctx.state.ledger_mut(&n, &z);
        l.ec += ec;
        for r in RES {
            *l.res_mut(r) += res.res(r);
        }
        *ctx.scratch.income.entry(n.clone()).or_default() += ec;
        ev(
            ctx,
            to_nation(&n),
            Sec::Economy,
            format!("[{z}] revenu +{ec}ec {}", res.stock_line()),
        );
    }
}

/// Maintenance capacity of nation `n` in zone `z` (§7.5, WWK-58, WWK-62).
pub fn capacity(st: &State, n: &str, z: &str, turn: u32) -> i64 {
    capacity_in(st, &st.units_at(), n, z, turn)
}

/// [`capacity`] with the units found through an index of the units by place.
fn capacity_in(st: &State, at: &UnitsAt, n: &str, z: &str, turn: u32) -> i64 {
    let zs = st.zone(z);
    let factories = |owner: &str| {
        at.units(st, z)
            .filter(|u| u.owner == owner && u.code == "FAC")
            .count()
    };
    if zs.irradiated_until >= turn {
        return 0;
    }
    let green = st.nations.get(n).is_some_and(|x| x.options.soylent_green);
    let nsym = st
        .zdef(z)
        .map(|d| d.symbols.iter().filter(|s| **s == 'N').count())
        .unwrap_or(0) as i64;
    let guerrillas = at.units(st, z).any(|u| u.owner == GUERRILLA);
    let fac = match &zs.status {
        Status::Contested { by, holder } => {
            let total = at.units(st, z).filter(|u| u.code == "FAC").count() as i64;
            let k = by.len().max(1) as i64;
            let base = total / k;
            if holder.as_deref() == Some(n) {
                base + total % k
            } else {
                base
            }
        }
        _ if guerrillas => {
            // Contested for maintenance: holder and "guerrilla" split the factories.
            let total = factories(n) as i64;
            total - total / 2
        }
        _ => {
            let f = factories(n) as i64;
            // `State::is_capital`, with the factories counted above.
            if zs.status.controller() == Some(n) && f as usize >= st.params.capital_min_factories {
                25
            } else {
                f
            }
        }
    };
    let fac = if green { fac * 2 } else { fac };
    let food = if green { 0 } else { 2 * nsym };
    let allied = zs
        .status
        .controller()
        .is_some_and(|c| c != n && st.diplo(n, c) == Diplo::Allied);
    fac + food + if allied { 3 } else { 0 }
}

/// Step 5.7 (WWK-59..61): maintenance with ec, N, emergency, then losses.
pub fn maintenance(ctx: &mut Ctx) {
    let turn = ctx.turn;
    let mut groups: BTreeMap<(String, String), Vec<UnitId>> = BTreeMap::new();
    for u in ctx.state.units.values() {
        if !ctx.state.nations.contains_key(&u.owner) || !sp(&u.code).needs_maint() {
            continue;
        }
        let z = match ctx.state.unit_zone(u.id) {
            Some(z) => z,
            None => {
                // Space units: the zone of the lowest-coded own SPC.
                let spc = ctx
                    .state
                    .units
                    .values()
                    .filter(|x| x.owner == u.owner && x.code == "SPC")
                    .map(|x| x.at.clone())
                    .min();
                match spc {
                    Some(z) => z,
                    None => continue,
                }
            }
        };
        groups.entry((u.owner.clone(), z)).or_default().push(u.id);
    }
    // Units by place, once (issue 9): this step only removes units, and the
    // index skips removed ones.
    let at = ctx.state.units_at();
    for ((n, z), ids) in groups {
        let cap = capacity_in(ctx.state, &at, &n, &z, turn);
        let mut surplus = ids.len() as i64 - cap;
        if surplus <= 0 {
            continue;
        }
        let total = surplus;
        let mut paid_ec = 0;
        // 1. ec from the zone, then the treasury (D-65).
        let l = ctx.state.ledger(&n, &z).ec.max(0);
        let x = l.min(surplus);
        ctx.state.ledger_mut(&n, &z).ec -= x;
        surplus -= x;
        paid_ec += x;
        let t = ctx
            .state
            .nations
            .get(&n)
            .map(|x| x.treasury)
            .unwrap_or(0)
            .min(surplus)
            .max(0);
        if let Some(nn) = ctx.state.nations.get_mut(&n) {
            nn.treasury -= t;
        }
        surplus -= t;
        paid_ec += t;
        // 2. Each N in stock maintains 2 units.
        let mut used_n = 0;
        while surplus > 0 && ctx.state.ledger(&n, &z).n > 0 {
            ctx.state.ledger_mut(&n, &z).n -= 1;
            used_n += 1;
            surplus -= 2;
        }
        surplus = surplus.max(0);
        // 3. Emergency maintenance from adjacent controlled zones: 2 ec, then 1 N, per unit.
        let mut emergency = 0;
        // Which neighbouring zone paid how many units' upkeep (issue 18 item 5).
        let mut payers: Vec<String> = vec![];
        for adj in ctx.state.neighbours(&z) {
            let before = emergency;
            if ctx.state.zone(&adj).status.controller() != Some(n.as_str()) {
                continue;
            }
            while surplus > 0 && ctx.state.ledger(&n, &adj).ec >= 2 {
                ctx.state.ledger_mut(&n, &adj).ec -= 2;
                surplus -= 1;
                emergency += 1;
            }
            while surplus > 0 && ctx.state.ledger(&n, &adj).n >= 1 {
                ctx.state.ledger_mut(&n, &adj).n -= 1;
                surplus -= 1;
                emergency += 1;
            }
            if emergency > before {
                payers.push(format!("[{adj}] {}", emergency - before));
            }
        }
        let mut line = format!("[{z}] entretien : capacité {cap}, unités {}, surplus {total} : {paid_ec}ec, {used_n} N", ids.len());
        if emergency > 0 {
            line.push_str(&format!(
                ", {emergency} en urgence payées par {}",
                payers.join(", ")
            ));
        }
        // 4. Losses.
        if surplus > 0 {
            let contested = matches!(ctx.state.zone(&z).status, Status::Contested { .. });
            let mut cands = ids.clone();
            crate::intake::canonical(ctx.state, &mut cands);
            let mut lost = vec![];
            for id in crate::intake::pick_m(ctx.rng, &mut ctx.scratch.log, cands, surplus as usize)
            {
                let Some(code) = ctx.state.unit(id).map(|u| u.code.clone()) else {
                    continue;
                };
                // Demobilised "under §7.4" (§7.5): with everything it carries,
                // like a DEMOB order: an air base takes its aircraft along.
                if contested {
                    ctx.state.remove_unit(id);
                } else {
                    crate::admin::demobilise(ctx.state, id);
                }
                lost.push(format!("#{id} {code}"));
                if code == "ABSE" || sp(&code).carr > 0 {
                    for (pid, pcode) in grounded_without_base(ctx.state, &n, &z) {
                        lost.push(format!("#{pid} {pcode} (sans base)"));
                    }
                }
            }
            line.push_str(&format!(
                " ; non entretenues, {} : {}",
                if contested {
                    "détruites"
                } else {
                    "démobilisées"
                },
                lost.join(", ")
            ));
        }
        ev(ctx, to_nation(&n), Sec::Economy, line);
    }
}

/// RP of a nation (§7.6, TV-4, TV-5): 50 + L + 2·max(0, controlled − 1).
pub fn research_points(l: i64, controlled: i64) -> i64 {
    50 + l + 2 * (controlled - 1).max(0)
}

/// Allocation (§7.6, D-93, TV-17): 1 per field, the rest by weight with the
/// largest-remainder rule, ties in field order.
pub fn allocate(rp: i64, w: &[i64; 6]) -> [i64; 6] {
    let mut out = [1i64; 6];
    let rest = (rp - 6).max(0);
    let mut w = *w;
    if w.iter().all(|x| *x == 0) {
        w = [1; 6];
    }
    let sum: i64 = w.iter().sum();
    let mut rems = vec![];
    let mut given = 0;
    for i in 0..6 {
        let share = rest * w[i] / sum;
        out[i] += share;
        given += share;
        rems.push((rest * w[i] % sum, i));
    }
    rems.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    for (_, i) in rems.into_iter().take((rest - given) as usize) {
        out[i] += 1;
    }
    out
}

/// Gain of x RP (§7.6, D-30, TV-6): (whole gain, % chance of +1).
pub fn gain(x: i64) -> (i64, i64) {
    let q = isqrt(10000 * x.max(0));
    (q / 100, q % 100)
}

fn isqrt(n: i64) -> i64 {
    if n <= 0 {
        return 0;
    }
    let mut x = (n as f64).sqrt() as i64;
    while x * x > n {
        x -= 1;
    }
    while (x + 1) * (x + 1) <= n {
        x += 1;
    }
    x
}

/// Step 5.8 (WWK-63..67): research, ST halving, gains, drift.
pub fn research(ctx: &mut Ctx) {
    let codes: Vec<String> = ctx
        .state
        .nations
        .iter()
        .filter(|(_, n)| n.active)
        .map(|(c, _)| c.clone())
        .collect();
    for n in codes {
        let ctrl = ctx.state.controlled(&n).len() as i64;
        let nat = ctx.state.nations[&n].clone();
        let rp = research_points(i64::from(nat.tech.l), ctrl);
        let mut alloc = allocate(rp, &nat.research);
        if let Some(fs) = ctx.scratch.st_halved.get(&n) {
            for f in fs {
                alloc[f.idx()] /= 2;
            }
        }
        let mut tech = nat.tech;
        let mut parts = vec![];
        for f in Field::ALL {
            let x = alloc[f.idx()];
            let (g, pct) = gain(x);
            let mut total = g;
            let mut s = format!("{} {x}rp +{g}", f.label());
            if pct > 0 {
                let r = crate::turn::d(ctx.rng, &mut ctx.scratch.log, 100);
                if i64::from(r) <= pct {
                    total += 1;
                    s = format!("{} {x}rp +{}(+1 jet {r}<={pct})", f.label(), total);
                } else {
                    s = format!("{} {x}rp +{g}(jet {r}>{pct})", f.label());
                }
            }
            tech.set(f, tech.get(f) + total as i32);
            parts.push(s);
        }
        tech.set(nat.specialty, tech.get(nat.specialty) + 1);
        for w in &nat.weaknesses {
            tech.set(*w, tech.get(*w) - 1);
        }
        ctx.state.nations.get_mut(&n).expect("nation").tech = tech;
        ev(
            ctx,
            to_nation(&n),
            Sec::Research,
            format!(
                "RP {rp} : {} ; dérive {}",
                parts.join("  "),
                // No trailing comma when the nation has no weakness (issue 18 item 5).
                std::iter::once(format!("{} +1", nat.specialty.label()))
                    .chain(nat.weaknesses.iter().map(|w| format!("{} -1", w.label())))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        );
    }
}

/// Step 5.9 (WWK-68, WWK-69, WWK-13): L milestones and option windows (D-78).
pub fn milestones(ctx: &mut Ctx) {
    let turn = ctx.turn;
    let codes: Vec<String> = ctx.state.nations.keys().cloned().collect();
    for n in codes {
        let mut msgs = vec![];
        {
            let x = ctx.state.nations.get_mut(&n).expect("nation");
            let l = x.tech.l;
            x.options.economy_restored = l >= 40;
            for (ai, thr) in [(false, 60), (true, 80)] {
                let (seen, lost, want, on) = if ai {
                    (
                        &mut x.options.ai_seen,
                        &mut x.options.ai_lost,
                        x.options.want_ai,
                        &mut x.options.ai,
                    )
                } else {
                    (
                        &mut x.options.green_seen,
                        &mut x.options.green_lost,
                        x.options.want_green,
                        &mut x.options.soylent_green,
                    )
                };
                if *on || *lost {
                    continue;
                }
                if l >= thr && seen.is_none() {
                    *seen = Some(turn);
                    if want {
                        *on = true;
                        msgs.push(format!(
                            "Option {} adoptée",
                            if ai {
                                "Intelligence Artificielle"
                            } else {
                                "Soleil Vert"
                            }
                        ));
                    } else {
                        msgs.push(format!("L {thr} atteint : option {} possible au prochain tour (NAT OPTION {} YES)", if ai { "Intelligence Artificielle" } else { "Soleil Vert" }, if ai { "AI" } else { "GREEN" }));
                    }
                } else if let Some(t) = *seen {
                    if want {
                        *on = true;
                        msgs.push(format!(
                            "Option {} adoptée",
                            if ai {
                                "Intelligence Artificielle"
                            } else {
                                "Soleil Vert"
                            }
                        ));
                    } else if t < turn {
                        *lost = true;
                    }
                }
            }
        }
        for m in msgs {
            ev(ctx, to_nation(&n), Sec::Research, m);
        }
    }
}

/// Step 5.10 (WWK-39): civil attacks destroying ≥ 5 factories close the
/// market to the attacker for the next turn.
pub fn timers(ctx: &mut Ctx) {
    let turn = ctx.turn;
    for (n, k) in ctx.scratch.civil_fac.clone() {
        if k >= 5 && ctx.state.nations.contains_key(&n) {
            let e = ctx.state.market.closed_for.entry(n.clone()).or_default();
            *e = (*e).max(turn + 1);
            ev(ctx, Vis::All, Sec::News, format!("MARCHÉ  fermé à {n} jusqu'au tour {} ({k} usines détruites par attaques civiles)", turn + 1));
        }
    }
}

/// VP (§7.8, TV-8): floor(base × (I+V+A+Nv+N)/divisor / 100).
pub fn victory_points(
    controlled: i64,
    shared: i64,
    income: i64,
    symbols: i64,
    tech_sum: i64,
    divisor: i64,
) -> i64 {
    let base = 20 * controlled + 10 * shared + income + 6 * symbols;
    base * tech_sum / (divisor.max(1) * 100)
}

/// Step 5.11 (WWK-116, WWK-117): VP, superpower, end conditions.
pub fn victory(ctx: &mut Ctx) {
    let codes: Vec<String> = ctx.state.nations.keys().cloned().collect();
    let div = ctx.state.params.vp_tech_divisor;
    for n in &codes {
        let ctrl = ctx.state.controlled(n);
        let shrd = ctx.state.shared(n);
        let symbols: i64 = ctrl
            .iter()
            .chain(shrd.iter())
            .map(|z| {
                ctx.state
                    .zdef(z)
                    .map(|d| d.symbols.len() as i64)
                    .unwrap_or(0)
            })
            .sum();
        let income = ctx.scratch.income.get(n).copied().unwrap_or(0);
        let tech = ctx.state.nations[n].tech;
        let vp = victory_points(
            ctrl.len() as i64,
            shrd.len() as i64,
            income,
            symbols,
            tech.sum5(),
            div,
        );
        let caps = ctx.state.capitals(n).len();
        let x = ctx.state.nations.get_mut(n).expect("nation");
        x.vp = vp;
        x.superpower = tech.sum5() * 100 / div.max(1) >= 5000 || vp >= 250;
        x.capital_streak = if caps >= 7 { x.capital_streak + 1 } else { 0 };
        if ctrl.is_empty() && shrd.is_empty() && !ctx.state.units.values().any(|u| &u.owner == n) {
            x.active = false;
        }
    }
    let best_vp = |st: &State, cands: &[String]| -> Vec<String> {
        let m = cands.iter().map(|c| st.nations[c].vp).max().unwrap_or(0);
        cands
            .iter()
            .filter(|c| st.nations[*c].vp == m)
            .cloned()
            .collect()
    };
    let st = &*ctx.state;
    let c1: Vec<String> = codes
        .iter()
        .filter(|n| st.nations[*n].vp > 500)
        .cloned()
        .collect();
    let c2: Vec<String> = codes
        .iter()
        .filter(|n| {
            let t = st.nations[*n].tech;
            [t.i, t.v, t.a, t.nv, t.n].iter().all(|x| *x > 80)
        })
        .cloned()
        .collect();
    let c3: Vec<String> = codes
        .iter()
        .filter(|n| st.nations[*n].capital_streak >= 2)
        .cloned()
        .collect();
    let active: Vec<String> = codes
        .iter()
        .filter(|n| st.nations[*n].active)
        .cloned()
        .collect();
    let (winners, why) = if !c1.is_empty() {
        (best_vp(st, &c1), "suprématie mondiale (plus de 500 PV)")
    } else if !c2.is_empty() {
        (best_vp(st, &c2), "suprématie scientifique")
    } else if !c3.is_empty() {
        (
            best_vp(st, &c3),
            "suprématie économique (7 capitales deux tours de suite)",
        )
    } else if ctx.turn >= st.params.max_turns {
        (best_vp(st, &codes), "dernier tour atteint")
    } else if active.len() <= 1 && codes.len() > 1 {
        (active.clone(), "dernière nation en lice")
    } else {
        (vec![], "")
    };
    if !winners.is_empty() {
        ctx.state.winner = Some(winners.clone());
        ctx.state.ended = true;
        ev(
            ctx,
            Vis::All,
            Sec::News,
            format!("FIN DE PARTIE  {why} : {}", winners.join(", ")),
        );
    }
}

/// Step 5.12 (WWK-22): every order echoed with its result; recon snapshots.
pub fn echo(ctx: &mut Ctx) {
    ctx.state.roll_log = std::mem::take(&mut ctx.scratch.log.rolls);
    let items = ctx.scratch.items.clone();
    for it in items {
        let res = ctx
            .scratch
            .results
            .get(&(it.nation.clone(), it.line))
            .cloned()
            .unwrap_or_else(|| "OK".into());
        let line = format!("{} ... {res}", bracket(&it.text));
        ev(ctx, to_nation(&it.nation), Sec::Orders, line);
    }
    for (n, z, s) in ctx.scratch.snapshots.clone() {
        ev(ctx, to_nation(&n), Sec::Recon, format!("[{z}] {s}"));
    }
}

/// An order line in the rulebook's bracket notation: `[IST] [2] [INF] [MOVE] [BUL]`.
pub fn bracket(text: &str) -> String {
    crate::parser::tokens(text)
        .iter()
        .map(|t| format!("[{t}]"))
        .collect::<Vec<_>>()
        .join(" ")
}
