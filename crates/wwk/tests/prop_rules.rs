//! Issue 15, property test: random WWK positions played for several turns
//! with dice fixed by the case's seed (one stream per step, as in a game),
//! checking after every turn the invariants the defects broke:
//! every retreat ends in an adjacent zone the unit may enter, bases never
//! move, a refused or ineffective order leaves its units free, escorts fly
//! within their range, a neutral zone restored holds no more units than it
//! recorded.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;

use arbitre_core::{PlayerId, Rng, Ruleset, TurnCtx};
use arbitre_wwk::catalog::sp;
use arbitre_wwk::map::Mode;
use arbitre_wwk::model::*;
use arbitre_wwk::orders::{Mission, Order};
use arbitre_wwk::turn::{phases, Event, Item};
use arbitre_wwk::{military, Scratch, Wwk};
use proptest::prelude::*;
use std::collections::BTreeMap;

const NATIONS: [&str; 3] = ["TUR", "EGY", "GRE"];
const PLAYERS: [&str; 3] = ["tur", "egy", "gre"];
const LAND: [&str; 8] = ["INF", "LT", "MECH", "ART", "SSM", "FORT", "ABSE", "IRBM"];
const AIR: [&str; 3] = ["FTR", "BMB", "FB"];
const SEA: [&str; 4] = ["DD", "CST", "TLS", "CV"];
const HEADS: [&str; 3] = ["5K", "20K", "1M"];

/// One random line of military orders from nation `n` (valid or not: a
/// refused line must change nothing).
fn order_line(st: &State, n: &str, r: &mut Rng) -> String {
    let zones: Vec<&str> = st.map.zones.iter().map(|z| z.code.as_str()).collect();
    let pick = |r: &mut Rng, v: &[&str]| v[r.below(v.len() as u64) as usize].to_string();
    let mine: Vec<&str> = st
        .units
        .values()
        .filter(|u| u.owner == n && !u.at.starts_with('#') && !u.at.starts_with('@'))
        .map(|u| u.at.as_str())
        .collect();
    if mine.is_empty() {
        return String::new();
    }
    let z = pick(r, &mine);
    let k = 1 + r.below(3);
    let t = pick(r, &zones);
    match r.below(7) {
        0 | 1 => {
            // A path of 1 to 3 zones, mostly a walk along the map.
            let mut path = vec![];
            let mut cur = z.clone();
            for _ in 0..=r.below(3) {
                let next = if r.below(5) == 0 {
                    pick(r, &zones)
                } else {
                    pick(
                        r,
                        &st.neighbours(&cur)
                            .iter()
                            .map(String::as_str)
                            .collect::<Vec<_>>(),
                    )
                };
                path.push(next.clone());
                cur = next;
            }
            let code = pick(r, &["INF", "LT", "MECH", "DD", "CST", "TLS", "ART"]);
            format!("{z} {k} {code} MOVE {}", path.join(" "))
        }
        2 => format!("{z} {k} SSM MISS {t}"),
        3 => format!("{z} {k} FTR CAPS {t}"),
        4 => format!("{z} {k} BMB BOMB {t}\n{z} >> {} FTR ESCT", 1 + r.below(2)),
        5 => format!("{z} 1 IRBM {} {t}", pick(r, &HEADS)),
        _ => format!("{z} {k} FB BOMB {t}\n{z} >> 1 FTR ESCT\n{z} 1 FTR CAPS {t}"),
    }
}

/// A random position on the trio map: diplomacy, extra units, warheads.
fn position(seed: u64, extra: usize) -> State {
    let mut st = common::trio();
    let mut r = Rng::for_phase(seed, 0, "position");
    for (i, a) in NATIONS.iter().enumerate() {
        for b in NATIONS.iter().skip(i + 1) {
            if r.below(3) > 0 {
                st.set_diplo(a, b, Diplo::War);
            }
        }
    }
    let zones: Vec<ZoneDef> = st.map.zones.clone();
    for _ in 0..extra {
        let owner = NATIONS[r.below(3) as usize];
        let z = &zones[r.below(zones.len() as u64) as usize];
        let code = match z.kind {
            ZoneKind::Land => {
                if r.below(4) == 0 {
                    AIR[r.below(3) as usize]
                } else {
                    LAND[r.below(LAND.len() as u64) as usize]
                }
            }
            ZoneKind::Mountain => "INF",
            _ => SEA[r.below(4) as usize],
        };
        if AIR.contains(&code) && st.count(owner, "ABSE", &z.code) == 0 {
            st.add_unit(owner, "ABSE", &z.code);
        }
        let id = st.add_unit(owner, code, &z.code);
        if matches!(code, "IRBM" | "SSM") {
            let h = HEADS[r.below(2) as usize];
            if let Some(u) = st.unit_mut(id) {
                u.heads.push(h.into());
            }
        }
        // Someone's infantry holds the zone now and then.
        if z.kind == ZoneKind::Land && st.zone(&z.code).status == Status::Neutral && r.below(3) == 0
        {
            st.zone_mut(&z.code).status = Status::Controlled { by: owner.into() };
            st.add_unit(owner, "INF", &z.code);
        }
    }
    st
}

/// One turn through every step, keeping the scratch data for the checks.
fn play(st: &mut State, seed: u64, rng_orders: &mut Rng) -> (Scratch, Vec<Event>) {
    let mut parsed = BTreeMap::new();
    for (p, n) in PLAYERS.iter().zip(NATIONS) {
        let pid = PlayerId::from(*p);
        let mut text = Wwk.bot_orders(st, &pid, rng_orders);
        for _ in 0..4 {
            text.push('\n');
            text.push_str(&order_line(st, n, rng_orders));
        }
        parsed.insert(pid.clone(), Wwk.parse_orders(st, &pid, &text).orders);
    }
    let mut scratch = Scratch::default();
    let mut events = vec![];
    let turn = st.turn + 1;
    for ph in phases() {
        let mut rng = Rng::for_phase(seed, turn, ph.key);
        let mut ctx = TurnCtx {
            turn,
            state: &mut *st,
            orders: &parsed,
            scratch: &mut scratch,
            rng: &mut rng,
            events: &mut events,
        };
        (ph.run)(&mut ctx);
    }
    (scratch, events)
}

/// `#id CODE de [A] vers [B]` in a retreat line.
fn retreat_move(text: &str) -> Option<(UnitId, String, String)> {
    let rest = text
        .strip_prefix("Retraite : #")
        .or_else(|| text.strip_prefix("Repli forcé : #"))?;
    let (id, rest) = rest.split_once(' ')?;
    let (_, rest) = rest.split_once(" de [")?;
    let (a, rest) = rest.split_once("] vers [")?;
    let b = rest.strip_suffix(']')?;
    Some((id.parse().ok()?, a.to_string(), b.to_string()))
}

fn check_turn(before: &State, after: &State, sc: &Scratch, events: &[Event]) -> Result<(), String> {
    // Every retreat ends in an adjacent zone the unit may enter.
    for e in events {
        if let Some((id, a, b)) = retreat_move(&e.text) {
            let code = before
                .unit(id)
                .map(|u| u.code.clone())
                .ok_or(format!("retreat of unknown #{id}"))?;
            let owner = before.unit(id).map(|u| u.owner.clone()).unwrap_or_default();
            if !after.adjacent(&a, &b) {
                return Err(format!("#{id} {code} retreated {a} -> {b}, not adjacent"));
            }
            // Straits may open or close between the retreat and the end of the turn.
            if !military::can_step(before, &owner, sp(&code), &a, &b, false)
                && !military::can_step(after, &owner, sp(&code), &a, &b, false)
            {
                return Err(format!(
                    "#{id} {code} retreated {a} -> {b}, a zone it may not enter"
                ));
            }
        }
    }
    // Bases never move.
    for u in before
        .units
        .values()
        .filter(|u| sp(&u.code).is_base() && !u.at.starts_with('@'))
    {
        if let Some(v) = after.unit(u.id) {
            if v.at != u.at {
                return Err(format!(
                    "base #{} {} moved {} -> {}",
                    u.id, u.code, u.at, v.at
                ));
            }
        }
    }
    // A refused or ineffective order leaves its units free: every unit used
    // up this turn belongs to an order that succeeded or acted.
    for (key, claims) in &sc.claims {
        let res = sc.results.get(key).cloned().unwrap_or_default();
        if !res.starts_with("OK") && !sc.spent.contains(key) && !claims.is_empty() {
            return Err(format!(
                "{key:?} failed without effect ({res}) but keeps {claims:?}"
            ));
        }
    }
    for id in &sc.ordered {
        if !sc.claims.values().flatten().any(|(c, _)| c == id) {
            return Err(format!("#{id} used up by no order"));
        }
    }
    // Escorts fly within their range of the target.
    for it in &sc.items {
        let Order::Escort { zone: ez, of, .. } = &it.order else {
            continue;
        };
        let key = (it.nation.clone(), it.line);
        if !sc.results.get(&key).is_some_and(|r| r.starts_with("OK")) {
            continue;
        }
        let Some(target) = sc
            .items
            .iter()
            .find(|m: &&Item| m.nation == it.nation && m.line == *of)
            .and_then(|m| match &m.order {
                Order::Mil {
                    mission: Mission::Bomb(t) | Mission::Bmbc(t) | Mission::Drop(t),
                    ..
                } => Some(t.clone()),
                Order::Mil {
                    mission: Mission::Hmov(p),
                    ..
                } => p.last().cloned(),
                _ => None,
            })
        else {
            continue;
        };
        let d = before.dist(ez, &target, Mode::Air);
        for (id, _) in sc.claims.get(&key).into_iter().flatten() {
            let code = before.unit(*id).map(|u| u.code.clone()).unwrap_or_default();
            if sp(&code).range < d {
                return Err(format!(
                    "escort #{id} {code} of range {} flew {d} zones",
                    sp(&code).range
                ));
            }
        }
    }
    // A neutral zone restored holds no more neutral units than it recorded.
    for (z, zs) in &after.zones {
        if zs.status == Status::Neutral {
            if let Some(g) = &zs.garrison {
                let here = after
                    .units
                    .values()
                    .filter(|u| &u.at == z && u.owner == NEUTRAL)
                    .count();
                if here > g.len() {
                    return Err(format!(
                        "[{z}] holds {here} neutral units, {} recorded",
                        g.len()
                    ));
                }
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn wwk_109_random_turns_keep_the_rules_invariants(seed in any::<u64>(), extra in 0usize..40, turns in 2usize..5) {
        let mut st = position(seed, extra);
        let mut r = Rng::for_phase(seed, 0, "orders");
        for _ in 0..turns {
            if st.ended {
                break;
            }
            let before = st.clone();
            let (sc, events) = play(&mut st, seed, &mut r);
            Wwk.set_turn(&mut st, before.turn + 1);
            check_turn(&before, &st, &sc, &events).map_err(TestCaseError::fail)?;
        }
    }
}

/// The random games do reach the situations the invariants are about:
/// retreats, refused military orders, escorts that fly, restored garrisons.
#[test]
fn wwk_109_random_turns_reach_retreats_refusals_and_escorts() {
    let (mut retreats, mut refused, mut escorts) = (0, 0, 0);
    for seed in 0..40u64 {
        let mut st = position(seed, 30);
        let mut r = Rng::for_phase(seed, 0, "orders");
        for _ in 0..3 {
            let before = st.clone();
            let (sc, events) = play(&mut st, seed, &mut r);
            Wwk.set_turn(&mut st, before.turn + 1);
            retreats += events
                .iter()
                .filter(|e| retreat_move(&e.text).is_some())
                .count();
            for it in &sc.items {
                let res = sc
                    .results
                    .get(&(it.nation.clone(), it.line))
                    .cloned()
                    .unwrap_or_default();
                match &it.order {
                    Order::Mil { .. } if res.starts_with("FAILED") => refused += 1,
                    Order::Escort { .. } if res.starts_with("OK") => escorts += 1,
                    _ => {}
                }
            }
        }
    }
    assert!(
        retreats > 0 && refused > 0 && escorts > 0,
        "retreats {retreats}, refused {refused}, escorts {escorts}"
    );
}

/// Plays `turns` turns of the random game of `seed` (as the property does),
/// checking the invariants after each, and hands each turn's events to
/// `each`; the regressions below replay the seeds the property found.
fn replay_seed(seed: u64, extra: usize, turns: usize, mut each: impl FnMut(&[Event])) -> State {
    let mut st = position(seed, extra);
    let mut r = Rng::for_phase(seed, 0, "orders");
    for _ in 0..turns {
        let before = st.clone();
        let (sc, events) = play(&mut st, seed, &mut r);
        Wwk.set_turn(&mut st, before.turn + 1);
        check_turn(&before, &st, &sc, &events).unwrap();
        each(&events);
    }
    st
}

/// Found by the property above (seed 6542380933216561016, extra 0, 3 turns):
/// [BUL] was TUR's while a neutral LT still stood in it; the TUR infantry
/// retreated, the zone reverted, and the fresh garrison's four MIL were
/// recorded without the LT, so the zone held more neutral units than its
/// record. The survivor now joins the recorded garrison (D-72).
#[test]
fn wwk_113_regression_reversion_records_the_surviving_neutrals() {
    let st = replay_seed(6542380933216561016, 0, 3, |_| {});
    let bul = &st.zones["BUL"];
    assert_eq!(bul.status, Status::Neutral);
    let mut recorded = bul.garrison.clone().unwrap();
    recorded.sort();
    let mut here: Vec<String> = st
        .units
        .values()
        .filter(|u| u.at == "BUL" && u.owner == NEUTRAL)
        .map(|u| u.code.clone())
        .collect();
    here.sort();
    assert_eq!(
        here, recorded,
        "the neutrals standing in [BUL] are its record"
    );
}

/// Found by the property above (seed 9083740684411089060, extra 12, 2 turns):
/// a neutral FB whose zone lost its air base made an "emergency transfer" to
/// [BUL], another neutral zone, as if the neutrals were a nation, and [BUL]
/// then held more neutral units than its record. Neutral aircraft stay with
/// their zone's garrison (D-72, WWK-96).
#[test]
fn wwk_96_regression_neutral_aircraft_never_rebase_to_another_zone() {
    replay_seed(9083740684411089060, 12, 2, |events| {
        let neutral_transfers = events
            .iter()
            .filter(|e| e.text.starts_with("Transfert d'urgence"))
            .filter(|e| format!("{:?}", e.to).contains(NEUTRAL))
            .count();
        assert_eq!(neutral_transfers, 0, "no neutral plane rebases");
    });
}

/// A third seed the property found (seed 17168640581045167719, extra 14,
/// 2 turns: "[BUL] holds 7 neutral units, 5 recorded"), from the same two
/// causes as the regressions above; kept so that it stays held.
#[test]
fn wwk_113_regression_third_seed_keeps_the_garrison_invariant() {
    replay_seed(17168640581045167719, 14, 2, |_| {});
}
