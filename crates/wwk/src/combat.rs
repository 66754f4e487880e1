//! Combat (spec §5.1–§5.6, §5.12; rulebook "Combat", "Artillerie", "Assaut",
//! "Hélicoptères", "Navires", "Retraite"): the exact-rational fate rule, sides
//! and multi-side fire, and step 3.10 zone by zone: defensive bombardment,
//! submarine and naval combat, assault duels, Tac Nuke fire, the land round and
//! retreats.
//!
//! FA and FD are exact rationals (halvings, artillery maluses and multi-side
//! divisions are applied without rounding) and thresholds are floored once,
//! as the rulebook's printed ranges require (§5.1).

use crate::catalog::{self, sp, Cat};
use crate::intake::pick;
use crate::model::*;
use crate::turn::*;
use arbitre_core::Rng;
use std::collections::{BTreeMap, BTreeSet};

/// An exact non-negative rational.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rat {
    pub n: i128,
    pub d: i128,
}

impl Rat {
    pub fn int(x: i64) -> Rat {
        Rat { n: x as i128, d: 1 }
    }
    pub fn zero() -> Rat {
        Rat::int(0)
    }
    #[allow(clippy::should_implement_trait)]
    pub fn add(self, o: Rat) -> Rat {
        Rat {
            n: self.n * o.d + o.n * self.d,
            d: self.d * o.d,
        }
        .norm()
    }
    pub fn mul(self, num: i64, den: i64) -> Rat {
        Rat {
            n: self.n * num as i128,
            d: self.d * den as i128,
        }
        .norm()
    }
    fn norm(self) -> Rat {
        fn gcd(a: i128, b: i128) -> i128 {
            if b == 0 {
                a.abs().max(1)
            } else {
                gcd(b, a % b)
            }
        }
        let g = gcd(self.n, self.d);
        Rat {
            n: self.n / g,
            d: self.d / g,
        }
    }
    pub fn lt(self, o: Rat) -> bool {
        self.n * o.d < o.n * self.d
    }
    /// Display with one decimal at most ("10.8").
    pub fn show(self) -> String {
        if self.n % self.d == 0 {
            format!("{}", self.n / self.d)
        } else {
            let tenths = self.n * 10 / self.d;
            format!("{}.{}", tenths / 10, tenths % 10)
        }
    }
}

/// Fate thresholds (§5.1): floor(100·FA/(2·FD)) and floor(100·FA/FD), minus the
/// protection modifier, clamped to 0..100.
pub fn thresholds(fa: Rat, fd: Rat, modifier: i64) -> (i64, i64) {
    if fd.n <= 0 {
        return if fa.n > 0 { (100, 100) } else { (0, 0) };
    }
    let num = 100 * fa.n * fd.d;
    let td = (num / (2 * fa.d * fd.n)) as i64;
    let tr = (num / (fa.d * fd.n)) as i64;
    // Clamp first, then the protection modifier (TV-32: 54/109 → 54/100 → 44/90).
    (
        (td.clamp(0, 100) - modifier).clamp(0, 100),
        (tr.clamp(0, 100) - modifier).clamp(0, 100),
    )
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fate {
    Destroyed,
    Retreat,
    Unaffected,
}

impl Fate {
    pub fn fr(self) -> &'static str {
        match self {
            Fate::Destroyed => "DÉTRUIT",
            Fate::Retreat => "RETRAITE",
            Fate::Unaffected => "INDEMNE",
        }
    }
}

/// Roll 1d100 against the thresholds; no roll when both are 0 (§5.1).
pub fn fate(rng: &mut Rng, log: &mut crate::turn::RollLog, t: (i64, i64)) -> (Fate, Option<u32>) {
    if t == (0, 0) {
        return (Fate::Unaffected, None);
    }
    let r = crate::turn::d(rng, log, 100);
    let f = if i64::from(r) <= t.0 {
        Fate::Destroyed
    } else if i64::from(r) <= t.1 {
        Fate::Retreat
    } else {
        Fate::Unaffected
    };
    (f, Some(r))
}

/// Sides of a zone (§5.2, D-92): greedy merge of owners with no hostile pair;
/// nations in code order, neutral and guerrilla last.
pub fn sides(st: &State, owners: &BTreeSet<String>) -> Vec<Vec<String>> {
    let mut list: Vec<String> = owners
        .iter()
        .filter(|o| st.nations.contains_key(*o))
        .cloned()
        .collect();
    list.extend(
        owners
            .iter()
            .filter(|o| !st.nations.contains_key(*o))
            .cloned(),
    );
    let mut out: Vec<Vec<String>> = vec![];
    for o in list {
        let slot = out
            .iter_mut()
            .find(|s| s.iter().all(|x| !st.hostile(x, &o)));
        match slot {
            Some(s) => s.push(o),
            None => out.push(vec![o]),
        }
    }
    out
}

pub fn sides_hostile(st: &State, a: &[String], b: &[String]) -> bool {
    a.iter().any(|x| b.iter().any(|y| st.hostile(x, y)))
}

/// A unit engaged in the land round (§5.4).
fn engaged(_st: &State, u: &Unit, z: &str) -> bool {
    let s = sp(&u.code);
    u.at == z && u.owner != GUERRILLA && !matches!(s.cat, Cat::Acft | Cat::Space | Cat::Civil)
}

/// D in the land round for this unit (D-38 for landed units).
fn unit_d(s: &catalog::Spec, landed: bool, halved: bool) -> Rat {
    let d = if landed { s.a + s.d } else { s.land_d() };
    if halved {
        Rat::int(d).mul(1, 2)
    } else {
        Rat::int(d)
    }
}

fn unit_a(s: &catalog::Spec, damaged: bool, halved: bool) -> Rat {
    let mut a = Rat::int(s.a);
    if damaged {
        a = a.mul(1, 2);
    }
    if halved {
        a = a.mul(1, 2);
    }
    a
}

/// Apply a fate result in land or naval combat (§5.3, §5.5).
fn apply(ctx: &mut Ctx, id: UnitId, f: Fate, z: &str, log: &mut Vec<String>) {
    if f == Fate::Unaffected {
        return;
    }
    let Some(u) = ctx.state.unit(id).cloned() else {
        return;
    };
    let s = sp(&u.code);
    let landed = ctx.scratch.landed.contains(&id) && !s.has(catalog::DEPL);
    let immob = ctx.scratch.immobilised.contains(&id);
    if landed || immob {
        ctx.state.remove_unit(id);
        log.push(format!("  {} #{} {} -> détruit", u.owner, id, u.code));
        if s.cat == Cat::Inf {
            *ctx.scratch
                .infantry_killed
                .entry(z.to_string())
                .or_default() += 1;
        }
        return;
    }
    if f == Fate::Destroyed && s.is_warship() {
        if u.damaged {
            ctx.state.remove_unit(id);
            log.push(format!(
                "  {} #{} {} -> coulé (déjà endommagé)",
                u.owner, id, u.code
            ));
            return;
        }
        let r1 = crate::turn::d(ctx.rng, &mut ctx.scratch.log, 100);
        if r1 > 50 {
            ctx.state.remove_unit(id);
            log.push(format!(
                "  {} #{} {} -> coulé (jet {r1})",
                u.owner, id, u.code
            ));
            return;
        }
        if let Some(x) = ctx.state.unit_mut(id) {
            x.damaged = true;
        }
        let r2 = crate::turn::d(ctx.rng, &mut ctx.scratch.log, 100);
        if r2 <= 50 {
            ctx.scratch.retreat.insert(id, z.to_string());
        }
        log.push(format!(
            "  {} #{} {} -> endommagé (jet {r1}), {} (jet {r2})",
            u.owner,
            id,
            u.code,
            if r2 <= 50 { "retraite" } else { "reste" }
        ));
        return;
    }
    if f == Fate::Destroyed {
        ctx.state.remove_unit(id);
        if s.cat == Cat::Inf {
            *ctx.scratch
                .infantry_killed
                .entry(z.to_string())
                .or_default() += 1;
        }
        return;
    }
    ctx.scratch.retreat.insert(id, z.to_string());
}

/// How a side's units fire at one target group.
type FireFn = Box<dyn Fn(&Unit) -> Rat>;

struct SideData {
    members: Vec<String>,
    units: Vec<UnitId>,
}

/// Step 3.10: combat in every zone where hostile sides meet.
pub fn combat(ctx: &mut Ctx) {
    // Only zones where engaged units of two owners stand can see a fight:
    // found in one pass over the units (issue 9). A fight only removes or
    // damages units of its own zone (retreats move after the loop), so a
    // zone skipped here would have been skipped by `combat_zone` too.
    let mut owners: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for u in ctx
        .state
        .units
        .values()
        .filter(|u| engaged(ctx.state, u, &u.at))
    {
        owners
            .entry(u.at.as_str())
            .or_default()
            .insert(u.owner.as_str());
    }
    let at = ctx.state.units_at();
    let zones: Vec<String> = ctx
        .state
        .map
        .zones
        .iter()
        .map(|z| z.code.clone())
        .filter(|z| owners.get(z.as_str()).is_some_and(|o| o.len() >= 2))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    for z in zones {
        let here = at.ids(&z).to_vec();
        combat_zone_among(ctx, &z, &here);
    }
    resolve_retreats(ctx);
}

pub fn combat_zone(ctx: &mut Ctx, z: &str) {
    let here: Vec<UnitId> = ctx
        .state
        .units
        .values()
        .filter(|u| u.at == z)
        .map(|u| u.id)
        .collect();
    combat_zone_among(ctx, z, &here)
}

/// Units of `here` (ids of the units that stood in `z` when the fight
/// began, in unit order) still in `z`. A fight only removes or damages the
/// units of its zone, so this is every unit in `z`, found without scanning
/// every unit of the game for each step of each fight (issue 9).
fn present<'a>(
    st: &'a State,
    here: &'a [UnitId],
    z: &'a str,
) -> impl Iterator<Item = &'a Unit> + 'a {
    here.iter()
        .filter_map(move |id| st.unit(*id))
        .filter(move |u| u.at == z)
}

/// [`combat_zone`] with the units standing in `z` (see [`present`]).
fn combat_zone_among(ctx: &mut Ctx, z: &str, here: &[UnitId]) {
    let owners: BTreeSet<String> = present(ctx.state, here, z)
        .filter(|u| engaged(ctx.state, u, z))
        .map(|u| u.owner.clone())
        .collect();
    if owners.len() < 2 {
        return;
    }
    let sd = sides(ctx.state, &owners);
    if sd.len() < 2 {
        return;
    }
    let mut any = false;
    for i in 0..sd.len() {
        for j in i + 1..sd.len() {
            any |= sides_hostile(ctx.state, &sd[i], &sd[j]);
        }
    }
    if !any {
        return;
    }
    ctx.scratch.attacked.insert(z.to_string());
    let mut log: Vec<String> = vec![format!("== COMBAT [{z}] tour {} étape 3.10 ==", ctx.turn)];
    let holder = match &ctx.state.zone(z).status {
        Status::Controlled { by } => Some(by.clone()),
        Status::Contested { holder, .. } => holder.clone(),
        Status::Neutral => Some(NEUTRAL.to_string()),
        Status::Shared { by } => by.first().cloned(),
    };
    defensive_bombardment(ctx, z, here, holder.as_deref(), &mut log);
    // Submarine nuclear torpedoes come before the naval fight (S l.539).
    let fired = tac_nukes(ctx, z, here, holder.as_deref(), true, 0, &mut log);
    naval(ctx, z, here, &mut log);
    assault(ctx, z, here, &mut log);
    tac_nukes(ctx, z, here, holder.as_deref(), false, fired, &mut log);
    land_round(ctx, z, here, &mut log);
    let parties: Vec<String> = owners
        .iter()
        .filter(|o| ctx.state.nations.contains_key(*o))
        .cloned()
        .collect();
    ev(ctx, Vis::Nations(parties), Sec::Combat, log.join("\n"));
}

fn build_sides(
    ctx: &Ctx,
    z: &str,
    here: &[UnitId],
    filter: impl Fn(&catalog::Spec) -> bool,
) -> Vec<SideData> {
    let owners: BTreeSet<String> = present(ctx.state, here, z)
        .filter(|u| engaged(ctx.state, u, z))
        .map(|u| u.owner.clone())
        .collect();
    sides(ctx.state, &owners)
        .into_iter()
        .map(|m| {
            let mut units: Vec<&Unit> = present(ctx.state, here, z)
                .filter(|u| {
                    engaged(ctx.state, u, z)
                        && m.contains(&u.owner)
                        && filter(sp(&u.code))
                        && !ctx.scratch.retreat.contains_key(&u.id)
                })
                .collect();
            units.sort_by(|a, b| (&a.code, a.id).cmp(&(&b.code, b.id)));
            SideData {
                members: m,
                units: units.into_iter().map(|u| u.id).collect(),
            }
        })
        .collect()
}

/// 3.10a (WWK-90): aircraft of the defender with no order bomb the attackers.
fn defensive_bombardment(
    ctx: &mut Ctx,
    z: &str,
    here: &[UnitId],
    holder: Option<&str>,
    log: &mut Vec<String>,
) {
    let Some(h) = holder else { return };
    // At sea, helicopters and VTOL aboard the holder's CVH strike too (S l.495).
    let cvh = ctx.state.kind(z).is_sea()
        && present(ctx.state, here, z).any(|u| u.code == "CVH" && ctx.state.friendly(h, &u.owner));
    let planes: Vec<UnitId> = present(ctx.state, here, z)
        .filter(|u| {
            let s = sp(&u.code);
            u.at == z
                && ctx.state.friendly(h, &u.owner)
                && ((s.cat == Cat::Acft && s.has(catalog::M_BOMB)) || (cvh && s.is_heli()))
        })
        .filter(|u| !ctx.scratch.ordered.contains(&u.id) && !ctx.scratch.caps.contains_key(&u.id))
        .map(|u| u.id)
        .collect();
    if planes.is_empty() {
        return;
    }
    let targets: Vec<UnitId> = present(ctx.state, here, z)
        .filter(|u| engaged(ctx.state, u, z) && ctx.state.hostile(h, &u.owner))
        .map(|u| u.id)
        .collect();
    if targets.is_empty() {
        return;
    }
    log.push(format!(
        "Bombardement défensif de {h} : {} avion(s)",
        planes.len()
    ));
    bombing_exchange(ctx, &planes, &targets, false, log);
}

/// A bombing exchange (§5.7.5 step 3): bombers' Σ A against the ground's dca
/// FD; the ground's Σ a against the aircraft. Ground results: destroyed or
/// immobilised; aircraft: destroyed or mission aborted.
pub fn bombing_exchange(
    ctx: &mut Ctx,
    planes: &[UnitId],
    targets: &[UnitId],
    civil: bool,
    log: &mut Vec<String>,
) {
    bombing_exchange_exposed(ctx, planes, planes, targets, civil, log)
}

/// As [`bombing_exchange`], the DCA firing at `exposed` (the escorts while any
/// remain, §5.7.3) rather than at the bombers.
pub fn bombing_exchange_exposed(
    ctx: &mut Ctx,
    planes: &[UnitId],
    exposed: &[UnitId],
    targets: &[UnitId],
    civil: bool,
    log: &mut Vec<String>,
) {
    let mut fa = Rat::zero();
    let mut fd_air = Rat::zero();
    for id in planes {
        if let Some(u) = ctx.state.unit(*id) {
            fa = fa.add(Rat::int(sp(&u.code).a));
        }
    }
    for id in exposed {
        if let Some(u) = ctx.state.unit(*id) {
            fd_air = fd_air.add(Rat::int(sp(&u.code).land_d()));
        }
    }
    if civil {
        fa = fa.mul(1, 2);
    }
    let mut fd_ground = Rat::zero();
    let mut dca = Rat::zero();
    for id in targets {
        if let Some(u) = ctx.state.unit(*id) {
            let s = sp(&u.code);
            fd_ground = fd_ground.add(Rat::int(if s.code == "FAC" { 4 } else { s.dca_d() }));
            if !s.has(catalog::SAM) {
                dca = dca.add(Rat::int(s.aa));
            }
        }
    }
    log.push(format!(
        "  bombardiers FA {} contre FD {} ; DCA FA {} contre FD {}",
        fa.show(),
        fd_ground.show(),
        dca.show(),
        fd_air.show()
    ));
    let mut ground: Vec<UnitId> = targets.to_vec();
    crate::intake::canonical(ctx.state, &mut ground);
    let mut res = vec![];
    for id in ground {
        let Some(u) = ctx.state.unit(id).cloned() else {
            continue;
        };
        let fac = u.code == "FAC";
        let t = thresholds(fa, fd_ground, if fac { 10 } else { 0 });
        let (f, r) = fate(ctx.rng, &mut ctx.scratch.log, t);
        res.push((id, u, f, r, t));
    }
    let mut air = vec![];
    // The ground's rolls, then the aircraft's, each in (side, code, id) order (§5.16).
    let mut exposed = exposed.to_vec();
    crate::intake::canonical(ctx.state, &mut exposed);
    for id in &exposed {
        let Some(u) = ctx.state.unit(*id).cloned() else {
            continue;
        };
        let t = thresholds(dca, fd_air, 0);
        let (f, r) = fate(ctx.rng, &mut ctx.scratch.log, t);
        air.push((*id, u, f, r, t));
    }
    for (id, u, f, r, t) in res {
        let fac = u.code == "FAC";
        let out = match f {
            Fate::Destroyed => {
                ctx.state.remove_unit(id);
                if fac {
                    *ctx.scratch
                        .civil_fac
                        .entry(planes_owner(ctx, planes))
                        .or_default() += 1;
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
    for (id, u, f, r, t) in air {
        let out = match f {
            Fate::Destroyed => {
                ctx.state.remove_unit(id);
                "abattu"
            }
            Fate::Retreat => "mission avortée",
            Fate::Unaffected => "indemne",
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

fn planes_owner(ctx: &Ctx, planes: &[UnitId]) -> String {
    planes
        .first()
        .and_then(|id| ctx.state.unit(*id))
        .map(|u| u.owner.clone())
        .unwrap_or_default()
}

pub fn roll(r: Option<u32>) -> String {
    r.map(|x| x.to_string()).unwrap_or_else(|| "-".into())
}

/// FA against side `x` from its hostile sides (§5.2): Σ FA_Y / k_Y.
fn fa_adv(
    ctx: &Ctx,
    sides: &[SideData],
    x: usize,
    val: &dyn Fn(&Unit) -> Rat,
    malus: &[(i64, i64)],
) -> Rat {
    let mut total = Rat::zero();
    for (y, sy) in sides.iter().enumerate() {
        if y == x || !sides_hostile(ctx.state, &sides[x].members, &sy.members) {
            continue;
        }
        let k = sides
            .iter()
            .enumerate()
            .filter(|(w, sw)| *w != y && sides_hostile(ctx.state, &sy.members, &sw.members))
            .count()
            .max(1);
        let mut fa = Rat::zero();
        for id in &sy.units {
            if let Some(u) = ctx.state.unit(*id) {
                fa = fa.add(val(u));
            }
        }
        let (mn, md) = malus[y];
        total = total.add(fa.mul(mn, md * k as i64));
    }
    total
}

/// 3.10b/c (WWK-89, WWK-87, WWK-88): submarine phase, then naval combat.
fn naval(ctx: &mut Ctx, z: &str, here: &[UnitId], log: &mut Vec<String>) {
    let sd = build_sides(ctx, z, here, |s| s.is_naval());
    let n_with = sd.iter().filter(|s| !s.units.is_empty()).count();
    if n_with < 2 {
        return;
    }
    log.push("Phase sous-marine et combat naval".into());
    for phase in 0..2 {
        let mut results = vec![];
        for (x, side) in sd.iter().enumerate() {
            let hostile_any = sd.iter().enumerate().any(|(y, o)| {
                y != x && !o.units.is_empty() && sides_hostile(ctx.state, &side.members, &o.members)
            });
            if !hostile_any {
                continue;
            }
            let surf: Vec<UnitId> = side
                .units
                .iter()
                .copied()
                .filter(|id| {
                    ctx.state
                        .unit(*id)
                        .is_some_and(|u| sp(&u.code).cat != Cat::Sub)
                })
                .collect();
            let subs: Vec<UnitId> = side
                .units
                .iter()
                .copied()
                .filter(|id| {
                    ctx.state
                        .unit(*id)
                        .is_some_and(|u| sp(&u.code).cat == Cat::Sub)
                })
                .collect();
            let ones = vec![(1i64, 1i64); sd.len()];
            // Phase 0: subs hit surface with A, surface hits subs with s.
            // Phase 1: surface vs surface with A, subs vs subs with A.
            let groups: Vec<(Vec<UnitId>, FireFn)> = if phase == 0 {
                vec![
                    (
                        surf.clone(),
                        Box::new(|u: &Unit| {
                            if sp(&u.code).cat == Cat::Sub {
                                unit_a(sp(&u.code), u.damaged, false)
                            } else {
                                Rat::zero()
                            }
                        }),
                    ),
                    (
                        subs.clone(),
                        Box::new(|u: &Unit| {
                            if sp(&u.code).cat != Cat::Sub {
                                Rat::int(sp(&u.code).s).mul(1, if u.damaged { 2 } else { 1 })
                            } else {
                                Rat::zero()
                            }
                        }),
                    ),
                ]
            } else {
                vec![
                    (
                        surf.clone(),
                        Box::new(|u: &Unit| {
                            if sp(&u.code).cat != Cat::Sub {
                                unit_a(sp(&u.code), u.damaged, false)
                            } else {
                                Rat::zero()
                            }
                        }),
                    ),
                    (
                        subs.clone(),
                        Box::new(|u: &Unit| {
                            if sp(&u.code).cat == Cat::Sub {
                                unit_a(sp(&u.code), u.damaged, false)
                            } else {
                                Rat::zero()
                            }
                        }),
                    ),
                ]
            };
            // Warships protecting transports (−10 each; only s > 0 against subs).
            for (gi, (targets, val)) in groups.iter().enumerate() {
                if targets.is_empty() {
                    continue;
                }
                let fa = fa_adv(ctx, &sd, x, val.as_ref(), &ones);
                let mut fd = Rat::zero();
                for id in targets {
                    if let Some(u) = ctx.state.unit(*id) {
                        fd = fd.add(Rat::int(sp(&u.code).a + sp(&u.code).d));
                    }
                }
                let protectors = side
                    .units
                    .iter()
                    .filter(|id| {
                        ctx.state.unit(**id).is_some_and(|u| {
                            sp(&u.code).is_warship() && (phase != 0 || gi != 0 || sp(&u.code).s > 0)
                        })
                    })
                    .count() as i64;
                for id in targets {
                    let Some(u) = ctx.state.unit(*id).cloned() else {
                        continue;
                    };
                    let s = sp(&u.code);
                    let m = if s.cat == Cat::Trans || s.carr > 0 {
                        10 * (protectors - i64::from(s.is_warship()))
                    } else {
                        0
                    };
                    let t = thresholds(fa, fd, m.max(0));
                    let (f, r) = fate(ctx.rng, &mut ctx.scratch.log, t);
                    log.push(format!(
                        "  {} #{} {} FA {} FD {} seuils {}/{} jet {} {}",
                        u.owner,
                        u.id,
                        u.code,
                        fa.show(),
                        fd.show(),
                        t.0,
                        t.1,
                        roll(r),
                        f.fr()
                    ));
                    results.push((*id, f));
                }
            }
        }
        for (id, f) in results {
            apply(ctx, id, f, z, log);
        }
    }
}

/// 3.10d (WWK-85): assault units cancel each other; the rest duel the enemy's
/// supporting units.
fn assault(ctx: &mut Ctx, z: &str, here: &[UnitId], log: &mut Vec<String>) {
    let sd = build_sides(ctx, z, here, |s| !s.is_naval() || s.is_warship());
    let n_aslt: Vec<i64> = sd
        .iter()
        .map(|s| {
            s.units
                .iter()
                .filter(|id| {
                    ctx.state
                        .unit(**id)
                        .is_some_and(|u| sp(&u.code).has(catalog::ASLT))
                })
                .count() as i64
        })
        .collect();
    for (x, side) in sd.iter().enumerate() {
        let enemy: i64 = sd
            .iter()
            .enumerate()
            .filter(|(y, o)| *y != x && sides_hostile(ctx.state, &side.members, &o.members))
            .map(|(y, _)| n_aslt[y])
            .sum();
        let m = (n_aslt[x] - enemy).max(0) as usize;
        if m == 0 {
            continue;
        }
        let mut asl: Vec<UnitId> = side
            .units
            .iter()
            .copied()
            .filter(|id| {
                ctx.state
                    .unit(*id)
                    .is_some_and(|u| sp(&u.code).has(catalog::ASLT))
            })
            .collect();
        asl.truncate(m);
        let mut sup: Vec<UnitId> = vec![];
        for (y, o) in sd.iter().enumerate() {
            if y != x && sides_hostile(ctx.state, &side.members, &o.members) {
                sup.extend(o.units.iter().copied().filter(|id| {
                    ctx.state
                        .unit(*id)
                        .is_some_and(|u| sp(&u.code).cat == Cat::Art || sp(&u.code).is_warship())
                }));
            }
        }
        for (a, s) in asl.into_iter().zip(sup) {
            let (Some(ua), Some(us)) = (ctx.state.unit(a).cloned(), ctx.state.unit(s).cloned())
            else {
                continue;
            };
            let (sa, ss) = (sp(&ua.code), sp(&us.code));
            let t_s = thresholds(Rat::int(sa.a), Rat::int(ss.land_d()), 0);
            let t_a = thresholds(Rat::int(ss.a), Rat::int(sa.land_d()), 0);
            let (fs, rs) = fate(ctx.rng, &mut ctx.scratch.log, t_s);
            let (fa, ra) = fate(ctx.rng, &mut ctx.scratch.log, t_a);
            log.push(format!(
                "Assaut {} #{} contre {} #{} : soutien {}/{} jet {} {} ; assaut {}/{} jet {} {}",
                ua.code,
                a,
                us.code,
                s,
                t_s.0,
                t_s.1,
                roll(rs),
                fs.fr(),
                t_a.0,
                t_a.1,
                roll(ra),
                fa.fr()
            ));
            match fs {
                Fate::Destroyed => {
                    ctx.state.remove_unit(s);
                }
                Fate::Retreat => {
                    ctx.scratch.retreat.insert(s, z.to_string());
                }
                Fate::Unaffected => {
                    ctx.scratch.neutralised.insert(s);
                }
            }
            if fa == Fate::Destroyed {
                ctx.state.remove_unit(a);
            } else {
                ctx.scratch.assault_halved.insert(a);
            }
        }
    }
}

/// Tactical EMP chance (§5.10.3): p_emp − friendly units; PROT halves
/// (floored); neutron ignores PROT; strategic: PROT −10.
pub fn emp_pct(w: &catalog::Warhead, friendly: i64, prot: bool) -> i64 {
    if w.strategic {
        let p = i64::from(w.emp);
        return if prot { p - 10 } else { p };
    }
    let p = (i64::from(w.emp) - friendly).max(0);
    if prot && !w.neutron {
        p / 2
    } else {
        p
    }
}

/// Detonate one warhead in zone `z` for `firer` (§5.10.2–5.10.3): direct hit
/// with chance `p_direct` (cancelled by ECM if `ecm_can`), then EMP.
#[allow(clippy::too_many_arguments)]
pub fn detonate(
    ctx: &mut Ctx,
    firer: &str,
    z: &str,
    head: &str,
    p_direct: i64,
    ecm_can: bool,
    units_only: bool,
    log: &mut Vec<String>,
) {
    let Some(w) = catalog::warhead(head) else {
        return;
    };
    crate::military::nuclear_used(ctx, w.strategic);
    let friendly = ctx
        .state
        .units
        .values()
        .filter(|u| u.at == z && ctx.state.friendly(firer, &u.owner))
        .count() as i64;
    let mut cands: Vec<UnitId> = ctx
        .state
        .units
        .values()
        .filter(|u| {
            u.at == z && !ctx.state.friendly(firer, &u.owner) && (!units_only || u.code != "FAC")
        })
        .map(|u| u.id)
        .collect();
    // The victim pick and the EMP rolls walk (side, code, id) (§5.16).
    crate::intake::canonical(ctx.state, &mut cands);
    let r = crate::turn::d(ctx.rng, &mut ctx.scratch.log, 100);
    if i64::from(r) <= p_direct && !cands.is_empty() {
        let ecm = if ecm_can {
            ctx.state
                .units
                .values()
                .find(|u| {
                    u.at == z
                        && !ctx.state.friendly(firer, &u.owner)
                        && sp(&u.code).has(catalog::ECM)
                        && !ctx.scratch.ecm_used.contains(&u.id)
                })
                .map(|u| u.id)
        } else {
            None
        };
        if let Some(e) = ecm {
            ctx.scratch.ecm_used.insert(e);
            log.push(format!("  {head} : coup direct annulé par ECM (jet {r})"));
        } else {
            let k = pick(ctx.rng, &mut ctx.scratch.log, cands.len());
            let id = cands.remove(k);
            let code = ctx
                .state
                .unit(id)
                .map(|u| u.code.clone())
                .unwrap_or_default();
            ctx.state.remove_unit(id);
            log.push(format!(
                "  {head} : coup direct (jet {r} <= {p_direct}) sur #{id} {code}"
            ));
        }
    } else {
        log.push(format!(
            "  {head} : pas de coup direct (jet {r}, {p_direct}%)"
        ));
    }
    for id in cands {
        let Some(u) = ctx.state.unit(id).cloned() else {
            continue;
        };
        let s = sp(&u.code);
        if u.code == "FAC" && !w.strategic {
            continue;
        }
        let p = if u.code == "FAC" {
            i64::from(w.emp) - 10
        } else {
            emp_pct(w, friendly, s.has(catalog::PROT))
        };
        let r = crate::turn::d(ctx.rng, &mut ctx.scratch.log, 100);
        if i64::from(r) <= p {
            ctx.state.remove_unit(id);
            log.push(format!(
                "  IEM : {} #{id} {} détruit (jet {r} <= {p})",
                u.owner, u.code
            ));
        }
    }
    if w.strategic {
        let until = ctx.turn + ctx.state.params.irradiation_turns;
        ctx.state.zone_mut(z).irradiated_until = until;
    }
}

/// 3.10e (WWK-106): TACD defenders and TACO attackers fire tactical warheads.
/// `subs`: only submarine launchers (torpedoes, before the naval fight), or
/// only the others (after the assault duels).
/// `already`: warheads the defenders fired earlier this turn (at most one per
/// attacking unit in all). Returns the defenders' warheads fired.
#[allow(clippy::too_many_arguments)]
fn tac_nukes(
    ctx: &mut Ctx,
    z: &str,
    here: &[UnitId],
    holder: Option<&str>,
    subs: bool,
    already: usize,
    log: &mut Vec<String>,
) -> usize {
    let Some(h) = holder else { return 0 };
    let tacd = ctx.state.zone(z).tacd.contains(h) || (h == NEUTRAL);
    let sd = build_sides(ctx, z, here, |_| true);
    let Some(hx) = sd.iter().position(|s| s.members.iter().any(|m| m == h)) else {
        return 0;
    };
    let ones = vec![(1i64, 1i64); sd.len()];
    let fa_att = fa_adv(ctx, &sd, hx, &|u: &Unit| Rat::int(sp(&u.code).a), &ones);
    let mut fd_def = Rat::zero();
    for id in &sd[hx].units {
        if let Some(u) = ctx.state.unit(*id) {
            fd_def = fd_def.add(Rat::int(sp(&u.code).land_d()));
        }
    }
    let enemies: Vec<UnitId> = sd
        .iter()
        .enumerate()
        .filter(|(y, o)| *y != hx && sides_hostile(ctx.state, &sd[hx].members, &o.members))
        .flat_map(|(_, o)| o.units.clone())
        .collect();
    let mut shooters: Vec<(String, UnitId)> = vec![];
    if tacd && !fa_att.mul(2, 1).lt(fd_def) {
        for id in &sd[hx].units {
            if let Some(u) = ctx.state.unit(*id) {
                if !u.heads.is_empty()
                    && !ctx.scratch.neutralised.contains(id)
                    && u.heads
                        .iter()
                        .any(|w| catalog::warhead(w).is_some_and(|w| !w.strategic))
                {
                    shooters.push((u.owner.clone(), *id));
                }
            }
        }
        shooters.retain(|(_, id)| {
            ctx.state
                .unit(*id)
                .is_some_and(|u| (sp(&u.code).cat == Cat::Sub) == subs)
        });
        shooters.truncate(enemies.len().saturating_sub(already));
    }
    let defenders = shooters.len();
    // TACO: attackers whose move came from a TACO zone.
    for id in ctx.scratch.taco_units.clone() {
        if let Some(u) = ctx.state.unit(id) {
            if u.at == z && ctx.state.hostile(&u.owner, h) && !u.heads.is_empty() {
                shooters.push((u.owner.clone(), id));
            }
        }
    }
    shooters.retain(|(_, id)| {
        ctx.state
            .unit(*id)
            .is_some_and(|u| (sp(&u.code).cat == Cat::Sub) == subs)
    });
    for (owner, id) in shooters {
        let Some(u) = ctx.state.unit_mut(id) else {
            continue;
        };
        // Largest EMP first (§5.10.5).
        let mut hs: Vec<(u32, usize)> = u
            .heads
            .iter()
            .enumerate()
            .filter_map(|(i, w)| {
                catalog::warhead(w)
                    .filter(|w| !w.strategic)
                    .map(|w| (w.emp, i))
            })
            .collect();
        hs.sort_by(|a, b| b.cmp(a));
        let Some((_, i)) = hs.first().copied() else {
            continue;
        };
        let head = u.heads.remove(i);
        let code = u.code.clone();
        log.push(format!(
            "Tir nucléaire tactique de {owner} #{id} {code} ({head})"
        ));
        ev(
            ctx,
            Vis::All,
            Sec::News,
            format!("NUCLÉAIRE  tir détecté depuis [{z}]"),
        );
        // Shells cannot be stopped by ECM (S l.507); submarine torpedoes can (S l.541).
        let torpedo = sp(&code).cat == Cat::Sub;
        detonate(ctx, &owner, z, &head, 100, torpedo, true, log);
    }
    defenders
}

/// 3.10f (WWK-80..84, WWK-86, WWK-91): one land round.
fn land_round(ctx: &mut Ctx, z: &str, here: &[UnitId], log: &mut Vec<String>) {
    let sd = build_sides(ctx, z, here, |s| !s.is_naval() || s.is_warship());
    if sd.iter().filter(|s| !s.units.is_empty()).count() < 2 {
        return;
    }
    let is_sea = ctx.state.kind(z).is_sea();
    if is_sea {
        // At sea the naval phases (3.10b/c) are the whole fight.
        return;
    }
    // Support malus of each side's best supporting unit, applied to its enemies.
    let mut best_sup: Vec<i64> = vec![];
    for side in &sd {
        let mut b = 0;
        for id in &side.units {
            let Some(u) = ctx.state.unit(*id) else {
                continue;
            };
            let s = sp(&u.code);
            if ctx.scratch.neutralised.contains(id) {
                continue;
            }
            let v = if s.cat == Cat::Art {
                s.sup
            } else if s.is_warship() && !is_sea {
                10
            } else {
                0
            };
            b = b.max(i64::from(v));
        }
        best_sup.push(b);
    }
    let malus: Vec<(i64, i64)> = (0..sd.len())
        .map(|x| {
            let s = (0..sd.len())
                .filter(|y| *y != x && sides_hostile(ctx.state, &sd[x].members, &sd[*y].members))
                .map(|y| best_sup[y])
                .max()
                .unwrap_or(0);
            (100 - s, 100)
        })
        .collect();
    let halved = ctx.scratch.assault_halved.clone();
    let land_a = |u: &Unit| unit_a(sp(&u.code), u.damaged, halved.contains(&u.id));
    let air_a = |u: &Unit| Rat::int(sp(&u.code).aa);
    let mut rolls = vec![];
    for (x, side) in sd.iter().enumerate() {
        if side.units.is_empty() {
            continue;
        }
        let mut fd = Rat::zero();
        let mut fd_heli = Rat::zero();
        let mut fa_own = Rat::zero();
        let arm = side
            .units
            .iter()
            .filter(|id| {
                ctx.state
                    .unit(**id)
                    .is_some_and(|u| sp(&u.code).has(catalog::ARM))
            })
            .count() as i64;
        for id in &side.units {
            let Some(u) = ctx.state.unit(*id) else {
                continue;
            };
            let s = sp(&u.code);
            let d = unit_d(s, ctx.scratch.landed.contains(id), halved.contains(id));
            fd = fd.add(d);
            fa_own = fa_own.add(land_a(u));
            if s.is_heli() {
                fd_heli = fd_heli.add(d);
            }
        }
        let (mn, md) = malus[x];
        let fd = fd.mul(mn, md);
        let fd_heli = fd_heli.mul(mn, md);
        let fa_g = fa_adv(ctx, &sd, x, &land_a, &malus);
        let fa_h = fa_adv(ctx, &sd, x, &air_a, &malus);
        log.push(format!(
            "{} : {}  FA {}  FD {}",
            side.members.join("+"),
            compo(ctx.state, &side.units),
            fa_own.mul(mn, md).show(),
            fd.show()
        ));
        for id in &side.units {
            let Some(u) = ctx.state.unit(*id).cloned() else {
                continue;
            };
            let s = sp(&u.code);
            // Warships in support are never rolled (§5.4.1).
            if s.is_warship() && !is_sea {
                continue;
            }
            let protect = if (s.trn > 0 && s.is_land()) || ctx.scratch.carried.contains(id) {
                5 * arm
            } else {
                0
            };
            let t = if s.is_heli() {
                thresholds(fa_h, fd_heli, protect)
            } else {
                thresholds(fa_g, fd, protect)
            };
            let (f, r) = fate(ctx.rng, &mut ctx.scratch.log, t);
            log.push(format!(
                "  {} #{} {} seuils {}/{} jet {} {}",
                u.owner,
                u.id,
                u.code,
                t.0,
                t.1,
                roll(r),
                f.fr()
            ));
            rolls.push((*id, f));
        }
    }
    for (id, f) in rolls {
        apply(ctx, id, f, z, log);
    }
}

fn compo(st: &State, ids: &[UnitId]) -> String {
    let mut m: BTreeMap<String, usize> = BTreeMap::new();
    for id in ids {
        if let Some(u) = st.unit(*id) {
            *m.entry(u.code.clone()).or_default() += 1;
        }
    }
    m.iter()
        .map(|(c, k)| format!("{k} {c}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Where a unit may retreat (§5.12, D-75; rulebook "zone contrôlée
/// adjacente"): an adjacent zone it could move into (terrain, straits,
/// coastal ships off the high sea: the MOVE rules of §5.13), controlled or
/// shared by its side, or a neutral sea zone for a ship; red-line crossings
/// excluded. The zone it came from is preferred only when it is adjacent.
/// Bases are immobile (§2.8.9): they never retreat.
pub fn retreat_zone(st: &State, u: &Unit, from: &str, came: Option<&str>) -> Option<String> {
    let s = sp(&u.code);
    if s.is_base() {
        return None;
    }
    let ok = |n: &str| {
        if st.is_crossing(from, n) || !crate::military::can_step(st, &u.owner, s, from, n, false) {
            return false;
        }
        let k = st.kind(n);
        let zs = &st.zone(n).status;
        let mine = zs.parties().iter().any(|p| st.friendly(&u.owner, p))
            && !matches!(zs, Status::Contested { .. });
        mine || (s.is_naval() && k.is_sea() && *zs == Status::Neutral)
    };
    if let Some(c) = came {
        if c != from && ok(c) {
            return Some(c.to_string());
        }
    }
    st.neighbours(from).into_iter().find(|n| ok(n))
}

/// 3.10g (WWK-109): retreats move after every combat; units that cannot
/// retreat are destroyed (infantry), captured or demobilised (decided at 4.3),
/// or scuttled/captured (ships).
pub fn resolve_retreats(ctx: &mut Ctx) {
    let mut list: Vec<(UnitId, String)> = std::mem::take(&mut ctx.scratch.retreat)
        .into_iter()
        .collect();
    // Retreats and their rolls in (side, code, id) order (§5.16).
    let mut order: Vec<UnitId> = list.iter().map(|(id, _)| *id).collect();
    crate::intake::canonical(ctx.state, &mut order);
    list.sort_by_key(|(id, _)| order.iter().position(|x| x == id));
    for (id, from) in list {
        let Some(u) = ctx.state.unit(id).cloned() else {
            continue;
        };
        let s = sp(&u.code);
        let came = ctx.scratch.came_from.get(&id).cloned();
        if s.cat == Cat::Acft || s.cat == Cat::Heli {
            ctx.scratch.retreated.insert(id);
            continue;
        }
        match retreat_zone(ctx.state, &u, &from, came.as_deref()) {
            Some(dest) => {
                if let Some(x) = ctx.state.unit_mut(id) {
                    x.at = dest.clone();
                }
                ctx.scratch.retreated.insert(id);
                ev(
                    ctx,
                    to_nation(&u.owner),
                    Sec::Combat,
                    format!("Retraite : #{id} {} de [{from}] vers [{dest}]", u.code),
                );
            }
            None => {
                if s.cat == Cat::Inf {
                    ctx.state.remove_unit(id);
                    ev(
                        ctx,
                        to_nation(&u.owner),
                        Sec::Combat,
                        format!(
                            "#{id} {} en [{from}] ne peut pas se replier : détruit",
                            u.code
                        ),
                    );
                } else if s.is_naval() {
                    // Capture needs an enemy infantry unit aboard a transport of
                    // the enemy fleet here (S l.563, D-77): at sea, infantry
                    // beside an enemy transport is aboard it.
                    // Infantry in a transport's hold (§2.7), or standing in
                    // the sea zone beside one (positions written before holds).
                    let transport_here = |t: &Unit, owner: &str| {
                        t.at == from && t.owner == owner && sp(&t.code).cat == Cat::Trans
                    };
                    let boarder = ctx
                        .state
                        .units
                        .values()
                        .filter(|x| {
                            ctx.state.hostile(&u.owner, &x.owner) && sp(&x.code).cat == Cat::Inf
                        })
                        .find(|x| {
                            match x
                                .at
                                .strip_prefix('@')
                                .and_then(|c| c.parse::<UnitId>().ok())
                            {
                                Some(c) => ctx
                                    .state
                                    .unit(c)
                                    .is_some_and(|t| transport_here(t, &x.owner)),
                                None => {
                                    x.at == from
                                        && ctx
                                            .state
                                            .units
                                            .values()
                                            .any(|t| transport_here(t, &x.owner))
                                }
                            }
                        })
                        .map(|x| (x.id, x.owner.clone()));
                    match boarder {
                        Some((inf, captor)) => {
                            let r = crate::turn::d(ctx.rng, &mut ctx.scratch.log, 100);
                            if r <= 50 {
                                ctx.state.remove_unit(inf);
                                if let Some(x) = ctx.state.unit_mut(id) {
                                    x.owner = captor.clone();
                                    x.army = None;
                                }
                                ev(
                                    ctx,
                                    Vis::Nations(vec![u.owner.clone(), captor.clone()]),
                                    Sec::Combat,
                                    format!(
                                        "#{id} {} en [{from}] capturé par {captor} (jet {r})",
                                        u.code
                                    ),
                                );
                            } else {
                                ctx.state.remove_unit(id);
                                ev(
                                    ctx,
                                    to_nation(&u.owner),
                                    Sec::Combat,
                                    format!(
                                        "#{id} {} en [{from}] sans retraite : sabordé (jet {r})",
                                        u.code
                                    ),
                                );
                            }
                        }
                        None => {
                            ctx.state.remove_unit(id);
                            ev(
                                ctx,
                                to_nation(&u.owner),
                                Sec::Combat,
                                format!("#{id} {} en [{from}] sans retraite : sabordé", u.code),
                            );
                        }
                    }
                } else {
                    let r = crate::turn::d(ctx.rng, &mut ctx.scratch.log, 100);
                    ctx.scratch.no_retreat.insert(id, r <= 50);
                    ev(
                        ctx,
                        to_nation(&u.owner),
                        Sec::Combat,
                        format!(
                            "#{id} {} en [{from}] sans retraite : {} (jet {r})",
                            u.code,
                            if r <= 50 { "capturé" } else { "démobilisé" }
                        ),
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wwk_80_fate_thresholds_tv2() {
        // INF vs INF: 3 against 8 → 18 / 37.
        assert_eq!(thresholds(Rat::int(3), Rat::int(8), 0), (18, 37));
        // INF vs LT: 6 against 8 → 37 / 75.
        assert_eq!(thresholds(Rat::int(6), Rat::int(8), 0), (37, 75));
        // LT vs INF: 3 against 10 → 15 / 30.
        assert_eq!(thresholds(Rat::int(3), Rat::int(10), 0), (15, 30));
        let t = thresholds(Rat::int(3), Rat::int(8), 0);
        for (r, f) in [
            (18, Fate::Destroyed),
            (19, Fate::Retreat),
            (37, Fate::Retreat),
            (38, Fate::Unaffected),
        ] {
            let mut rng = Rng::scripted_rolls([r]);
            assert_eq!(fate(&mut rng, &mut Default::default(), t).0, f, "roll {r}");
        }
        // Both thresholds 0: no roll consumed.
        let mut rng = Rng::scripted_rolls([]);
        assert_eq!(
            fate(&mut rng, &mut Default::default(), (0, 0)),
            (Fate::Unaffected, None)
        );
    }

    #[test]
    fn wwk_82_three_sided_tv24() {
        // FA_adv(A) = 8/2 + 6/2 = 7; FD_A = 20 → 17 / 35.
        let fa = Rat::int(8).mul(1, 2).add(Rat::int(6).mul(1, 2));
        assert_eq!(thresholds(fa, Rat::int(20), 0), (17, 35));
    }

    #[test]
    fn wwk_84_artillery_support_tv25() {
        // A: 2 INF + 1 ART → FA 10, FD 22; B: 2 LT → FA 12, FD 20; A's malus 0.9 on B.
        let fa_b = Rat::int(12).mul(90, 100);
        let fd_b = Rat::int(20).mul(90, 100);
        assert_eq!(fa_b.show(), "10.8");
        assert_eq!(thresholds(fa_b, Rat::int(22), 0), (24, 49));
        assert_eq!(thresholds(Rat::int(10), fd_b, 0), (27, 55));
    }

    #[test]
    fn wwk_85_assault_duel_tv26() {
        // MAR (A5, D10) vs ART (A4, D6): ART 41/83, MAR 20/40; survivor halved.
        assert_eq!(thresholds(Rat::int(5), Rat::int(6), 0), (41, 83));
        assert_eq!(thresholds(Rat::int(4), Rat::int(10), 0), (20, 40));
        let m = sp("MAR");
        assert_eq!(unit_a(m, false, true).show(), "2.5");
        assert_eq!(unit_d(m, false, true), Rat::int(5));
    }

    #[test]
    fn wwk_83_helicopter_combat_tv7() {
        let maa = sp("MAA");
        let acav = sp("ACAV");
        let ainf = sp("AINF");
        // MAA: FA_adv = 6 + 8 = 14, D = 20 → 35 / 70.
        assert_eq!(
            thresholds(Rat::int(acav.a + ainf.a), Rat::int(maa.land_d()), 0),
            (35, 70)
        );
        // ACAV: FA = MAA a 10 against FD_heli 16 → 31 / 62.
        assert_eq!(
            thresholds(Rat::int(maa.aa), unit_d(acav, false, false), 0),
            (31, 62)
        );
        // AINF landed: D = A + d = 18; side FD 34 → 11 / 23 (D-38).
        let fd = unit_d(acav, false, false).add(unit_d(ainf, true, false));
        assert_eq!(thresholds(Rat::int(maa.a), fd, 0), (11, 23));
    }

    #[test]
    fn wwk_87_transport_protection_tv32() {
        // 2 SS (FA 12) against DD (D 8) + TLS (D 3): 54 / 109 → clamped 54/100; TLS −10.
        assert_eq!(thresholds(Rat::int(12), Rat::int(11), 0), (54, 100));
        assert_eq!(thresholds(Rat::int(12), Rat::int(11), 10), (44, 90));
        // DD answers with s 6 against the subs (FD 20) → 15 / 30.
        assert_eq!(thresholds(Rat::int(6), Rat::int(20), 0), (15, 30));
    }

    #[test]
    fn wwk_105_emp_tv31() {
        let w20 = catalog::warhead("20K").unwrap();
        assert_eq!(emp_pct(w20, 3, false), 17);
        assert_eq!(emp_pct(w20, 3, true), 8);
        let m1 = catalog::warhead("1M").unwrap();
        assert_eq!(emp_pct(m1, 0, false), 50);
        assert_eq!(emp_pct(m1, 0, true), 40);
        let n5 = catalog::warhead("5N").unwrap();
        assert_eq!(emp_pct(n5, 2, true), 23);
    }
}
