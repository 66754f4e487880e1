//! Issue 15: WWK rules the code got wrong against an independent model of
//! `../shared/rules/wwk.md`. Each test is named after its checklist item and
//! failed before its fix.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test
#![allow(clippy::field_reassign_with_default)]

use crate::common;

use arbitre_core::{PlayerId, Ruleset};
use arbitre_wwk::model::*;
use arbitre_wwk::{combat, control, economy, military, Scratch, Wwk};
use common::*;

// ---- Economy -------------------------------------------------------------

#[test]
fn wwk_34_aid_cap_counts_own_lines_only() {
    let mut st = trio();
    // IST shared by TUR and EGY, each with its own reserve there.
    st.zone_mut("IST").status = Status::Shared {
        by: vec!["EGY".into(), "TUR".into()],
    };
    st.add_unit("EGY", "INF", "IST");
    st.ledger_mut("TUR", "IST").ec = 14;
    st.ledger_mut("EGY", "IST").ec = 6;
    let ev = turn(
        &mut st,
        &[("tur", "IST AID 7 CAI"), ("egy", "IST AID 3 ATH")],
        &[],
    );
    let t = texts(&ev);
    assert!(t.contains("[IST] [AID] [7] [CAI] ... OK"), "{t}");
    assert!(t.contains("[IST] [AID] [3] [ATH] ... OK"), "{t}");
}

#[test]
fn wwk_61_unmaintained_air_base_takes_its_aircraft() {
    let mut st = trio();
    st.nations.get_mut("TUR").unwrap().treasury = 0;
    *st.ledger_mut("TUR", "IST") = Ledger::default();
    st.zone_mut("ANK").status = Status::Controlled { by: "TUR".into() };
    // Capacity 2 (one N symbol), three units: one is lost; d3 = 1 picks the ABSE.
    let abse = st.add_unit("TUR", "ABSE", "ANK");
    let f1 = st.add_unit("TUR", "FTR", "ANK");
    let f2 = st.add_unit("TUR", "FTR", "ANK");
    let mut sc = Scratch::default();
    step(&mut st, &mut sc, economy::maintenance, vec![1]);
    assert!(st.unit(abse).is_none(), "the ABSE is demobilised");
    assert!(
        st.unit(f1).is_none() && st.unit(f2).is_none(),
        "its aircraft go with it (§7.4)"
    );
}

#[test]
fn wwk_61_unmaintained_units_are_picked_in_side_code_id_order() {
    let mut st = trio();
    st.nations.get_mut("TUR").unwrap().treasury = 0;
    *st.ledger_mut("TUR", "IST") = Ledger::default();
    st.zone_mut("ANK").status = Status::Controlled { by: "TUR".into() };
    let lt = st.add_unit("TUR", "LT", "ANK");
    let i1 = st.add_unit("TUR", "INF", "ANK");
    let i2 = st.add_unit("TUR", "INF", "ANK");
    let mut sc = Scratch::default();
    // Candidates INF #i1, INF #i2, LT #lt (§5.16): d3 = 1 is INF #i1.
    step(&mut st, &mut sc, economy::maintenance, vec![1]);
    assert!(st.unit(lt).is_some(), "the LT is third in canonical order");
    assert!(st.unit(i1).is_none());
    assert!(st.unit(i2).is_some());
}

// ---- Nuclear ---------------------------------------------------------------

fn three_targets(st: &mut State) -> (UnitId, UnitId, UnitId) {
    st.set_diplo("TUR", "GRE", Diplo::War);
    st.zone_mut("MAC").status = Status::Controlled { by: "GRE".into() };
    let a = st.add_unit("GRE", "INF", "MAC");
    let b = st.add_unit("GRE", "LT", "MAC");
    let c = st.add_unit("GRE", "INF", "MAC");
    (a, b, c)
}

#[test]
fn wwk_105_emp_rolls_in_side_code_id_order() {
    let mut st = trio();
    let (inf1, lt2, inf3) = three_targets(&mut st);
    let mut sc = Scratch::default();
    let mut log = vec![];
    // No direct hit (roll 50 > 0), then EMP rolls 100, 1, 100 on INF, INF, LT.
    with_ctx(&mut st, &mut sc, vec![50, 100, 1, 100], |ctx| {
        combat::detonate(ctx, "TUR", "MAC", "20K", 0, false, false, &mut log)
    });
    assert!(st.unit(inf1).is_some());
    assert!(st.unit(lt2).is_some(), "{log:?}");
    assert!(
        st.unit(inf3).is_none(),
        "the second roll falls on INF #3: {log:?}"
    );
}

#[test]
fn wwk_104_direct_hit_victim_picked_in_side_code_id_order() {
    let mut st = trio();
    let (inf1, lt2, inf3) = three_targets(&mut st);
    let mut sc = Scratch::default();
    let mut log = vec![];
    // Direct hit (1 ≤ 100), pick d3 = 2 among INF, INF, LT, then two EMP rolls of 100.
    with_ctx(&mut st, &mut sc, vec![1, 2, 100, 100], |ctx| {
        combat::detonate(ctx, "TUR", "MAC", "20K", 100, false, false, &mut log)
    });
    assert!(st.unit(inf3).is_none(), "{log:?}");
    assert!(st.unit(inf1).is_some() && st.unit(lt2).is_some());
}

#[test]
fn wwk_104_nuclear_order_takes_a_launcher_holding_the_warhead() {
    let mut st = trio();
    st.set_diplo("TUR", "EGY", Diplo::War);
    let empty = st.add_unit("TUR", "IRBM", "IST");
    let loaded = st.add_unit("TUR", "IRBM", "IST");
    st.unit_mut(loaded).unwrap().heads.push("20K".into());
    let mut sc = Scratch::default();
    sc.items = items(&st, "tur", "IST 1 IRBM 20K CAI");
    step(&mut st, &mut sc, military::missiles, vec![100; 200]);
    assert!(result(&sc, 1).starts_with("OK"), "{:?}", sc.results);
    assert!(
        st.unit(loaded).unwrap().heads.is_empty(),
        "the loaded launcher fired"
    );
    assert!(
        !sc.ordered.contains(&empty),
        "the empty launcher stays free"
    );
}

#[test]
fn wwk_104_impossible_warhead_size_refused_on_reading() {
    let st = trio();
    let p = Wwk.parse_orders(
        &st,
        &PlayerId::from("tur"),
        "IST 1 SSM 1M CAI\nIST 1 IRBM 2x20K CAI\nIST 1 IRBM 20K CAI",
    );
    // Line 3 is well formed; only a warning says no IRBM stands in IST now.
    let bad: Vec<usize> = p
        .diagnostics
        .iter()
        .filter(|d| !d.warning)
        .map(|d| d.line)
        .collect();
    assert_eq!(bad, vec![1, 2], "{:?}", p.diagnostics);
    assert_eq!(p.orders.len(), 1);
}

// ---- Retreats --------------------------------------------------------------

#[test]
fn wwk_109_retreat_goes_to_an_adjacent_zone() {
    let mut st = trio();
    hold(&mut st, "TUR", "ANK");
    let lt = st.add_unit("TUR", "LT", "SYR");
    let mut sc = Scratch::default();
    // It came IST → ANK → SYR: IST is two zones away from SYR.
    sc.came_from.insert(lt, "IST".into());
    sc.retreat.insert(lt, "SYR".into());
    step(&mut st, &mut sc, combat::resolve_retreats, vec![]);
    assert_eq!(st.unit(lt).unwrap().at, "ANK");
}

#[test]
fn wwk_98_coastal_ship_never_retreats_into_the_high_sea() {
    let mut st = trio();
    // Every neighbour of AEG but the high sea ION is held by GRE.
    for z in ["IST", "MAC", "ATH", "EMD", "BLA"] {
        st.zone_mut(z).status = Status::Controlled { by: "GRE".into() };
    }
    let cst = st.add_unit("TUR", "CST", "AEG");
    let dd = st.add_unit("TUR", "DD", "AEG");
    let mut sc = Scratch::default();
    sc.retreat.insert(cst, "AEG".into());
    sc.retreat.insert(dd, "AEG".into());
    step(&mut st, &mut sc, combat::resolve_retreats, vec![]);
    assert!(
        st.unit(cst).is_none_or(|u| u.at != "ION"),
        "a coastal ship stays off the high sea"
    );
    assert_eq!(
        st.unit(dd).unwrap().at,
        "ION",
        "a destroyer may retreat there"
    );
}

#[test]
fn wwk_109_bases_never_retreat() {
    let mut st = trio();
    hold(&mut st, "TUR", "ANK");
    let fort = st.add_unit("TUR", "FORT", "SYR");
    let abse = st.add_unit("TUR", "ABSE", "SYR");
    let mut sc = Scratch::default();
    sc.retreat.insert(fort, "SYR".into());
    sc.retreat.insert(abse, "SYR".into());
    // The capture/demobilisation roll of immobile units, ABSE then FORT
    // (§5.16 order): 50 → captured, 51 → demobilised.
    step(&mut st, &mut sc, combat::resolve_retreats, vec![50, 51]);
    assert_eq!(st.unit(fort).unwrap().at, "SYR");
    assert_eq!(st.unit(abse).unwrap().at, "SYR");
    assert_eq!(sc.no_retreat.get(&abse), Some(&true));
    assert_eq!(sc.no_retreat.get(&fort), Some(&false));
}

// ---- An order without effect leaves its units free (§3.7) --------------------

#[test]
fn wwk_98_failed_move_leaves_its_units_free() {
    let mut st = trio();
    hold(&mut st, "TUR", "ANK");
    only(&mut st, "TUR", "LT", "IST", 2);
    let mut sc = Scratch::default();
    let (its, receipt) =
        items_refused_at_receipt(&st, "tur", "IST 1 LT MOVE SYR\nIST 2 LT MOVE ANK");
    sc.items = its;
    step(&mut st, &mut sc, military::movement, vec![]);
    assert!(result(&sc, 1).starts_with("FAILED"), "{:?}", sc.results);
    // The confirmation already gave the verdict resolution reaches.
    assert_eq!(receipt.len(), 1);
    assert!(
        result(&sc, 1).ends_with(&receipt[0]),
        "{receipt:?} {:?}",
        sc.results
    );
    assert_eq!(count(&st, "TUR", "LT", "ANK"), 2, "{:?}", sc.results);
}

#[test]
fn wwk_98_bad_path_rolls_no_blocking_die() {
    let mut st = trio();
    st.set_diplo("TUR", "GRE", Diplo::War);
    st.add_unit("GRE", "INF", "IST");
    only(&mut st, "TUR", "LT", "IST", 2);
    let mut sc = Scratch::default();
    // ANK and CAI are not adjacent: refused before any blocking pick.
    let (its, receipt) = items_refused_at_receipt(&st, "tur", "IST 2 LT MOVE ANK CAI");
    assert_eq!(
        receipt,
        ["chemin invalide : [CAI] n'est pas adjacente à [ANK]"]
    );
    sc.items = its;
    step(&mut st, &mut sc, military::movement, vec![]);
    assert!(
        result(&sc, 1).contains("chemin invalide"),
        "{:?}",
        sc.results
    );
    assert!(sc.log.rolls.is_empty());
    assert!(sc.ordered.is_empty());
}

/// Issue 17 item 8: what the state at receipt decides is said in the
/// confirmation. A MOVE along no link and aircraft sent by MOVE are refused
/// (and kept, so that the report still lists them); more units than the zone
/// holds is a warning, as some may still arrive before step 3.9.
#[test]
fn wwk_98_receipt_tells_what_movement_will_decide() {
    let mut st = trio();
    only(&mut st, "TUR", "LT", "IST", 2);
    let p = Wwk.parse_orders(
        &st,
        &PlayerId::from("tur"),
        "IST 1 LT MOVE SYR\nIST 2 FTR MOVE ANK\nIST 3 LT MOVE ANK\nIST 2 LT MOVE ANK SYR",
    );
    let got: Vec<(usize, bool, &str)> = p
        .diagnostics
        .iter()
        .map(|d| (d.line, d.warning, d.reason.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            (1, false, "chemin invalide : [SYR] n'est pas adjacente à [IST]"),
            (
                2,
                false,
                "MOVE ne déplace que les unités terrestres, navales et les hélicoptères, pas FTR (aucune unité disponible)"
            ),
            (
                3,
                true,
                "vous avez 2 LT en [IST] à la réception : l'ordre portera sur ceux qui y seront, 2 si rien ne change"
            ),
        ]
    );
    // Refused lines stay as orders for the report; every line is kept.
    assert_eq!(p.orders.len(), 4);
    assert_eq!(p.error_count(), 2);
}

#[test]
fn wwk_98_blocking_every_vehicle_rolls_no_die() {
    // D-94: two blockers for two vehicles pick both without a roll.
    let mut st = trio();
    st.set_diplo("TUR", "GRE", Diplo::War);
    hold(&mut st, "GRE", "BUL");
    st.add_unit("GRE", "INF", "BUL");
    only(&mut st, "TUR", "LT", "IST", 2);
    let mut sc = Scratch::default();
    sc.items = items(&st, "tur", "IST 2 LT MOVE BUL MAC");
    step(&mut st, &mut sc, military::movement, vec![]);
    assert_eq!(count(&st, "TUR", "LT", "BUL"), 2);
    assert!(sc.log.rolls.is_empty());
}

#[test]
fn wwk_101_out_of_range_miss_leaves_its_launcher_free() {
    let mut st = trio();
    st.set_diplo("TUR", "EGY", Diplo::War);
    hold(&mut st, "EGY", "SIN");
    let ssm = only(&mut st, "TUR", "SSM", "IST", 1)[0];
    let mut sc = Scratch::default();
    // SIN is 4 zones away, beyond the SSM's 3; CAI is 3.
    sc.items = items(&st, "tur", "IST 1 SSM MISS SIN\nIST 1 SSM MISS CAI");
    step(&mut st, &mut sc, military::missiles, vec![1; 20]);
    assert!(result(&sc, 1).starts_with("FAILED"), "{:?}", sc.results);
    assert!(result(&sc, 2).starts_with("OK"), "{:?}", sc.results);
    assert!(sc.ordered.contains(&ssm));
}

#[test]
fn wwk_92_out_of_range_caps_leaves_its_fighters_free() {
    let mut st = trio();
    let ftr = only(&mut st, "TUR", "FTR", "IST", 1)[0];
    let mut sc = Scratch::default();
    sc.items = items(&st, "tur", "IST 1 FTR CAPS SIN\nIST 1 FTR CAPS BUL");
    step(&mut st, &mut sc, military::caps, vec![]);
    assert!(
        result(&sc, 1).contains("hors de portée"),
        "{:?}",
        sc.results
    );
    assert_eq!(result(&sc, 2), "OK", "{:?}", sc.results);
    assert_eq!(sc.caps.get(&ftr).map(String::as_str), Some("BUL"));
}

#[test]
fn wwk_95_escorts_must_be_within_range_of_the_target() {
    let mut st = trio();
    st.set_diplo("TUR", "EGY", Diplo::War);
    hold(&mut st, "EGY", "SIN");
    only(&mut st, "TUR", "BMB", "IST", 1);
    let ftr = only(&mut st, "TUR", "FTR", "IST", 1)[0];
    let mut sc = Scratch::default();
    // SIN is 4 zones from IST: in the BMB's range 5, not in the FTR's 3.
    sc.items = items(&st, "tur", "IST 1 BMB BOMB SIN\nIST >> 1 FTR ESCT");
    step(&mut st, &mut sc, military::air, vec![100; 50]);
    assert!(result(&sc, 2).contains("à portée"), "{:?}", sc.results);
    assert!(!sc.ordered.contains(&ftr));
    assert_eq!(st.unit(ftr).unwrap().at, "IST");
}

#[test]
fn wwk_92_patrols_of_nations_at_peace_fight_apart() {
    let run = |allied: bool| {
        let mut st = trio();
        st.set_diplo("TUR", "EGY", Diplo::War);
        st.set_diplo("TUR", "GRE", Diplo::War);
        if allied {
            st.set_diplo("EGY", "GRE", Diplo::Allied);
        }
        hold(&mut st, "EGY", "SIN");
        only(&mut st, "TUR", "BMB", "IST", 1);
        let e = st.add_unit("EGY", "FTR", "SIN");
        let g = st.add_unit("GRE", "FTR", "SIN");
        let mut sc = Scratch::default();
        sc.caps.insert(e, "SIN".into());
        sc.caps.insert(g, "SIN".into());
        sc.items = items(&st, "tur", "IST 1 BMB BOMB SIN");
        let ev = step(&mut st, &mut sc, military::air, vec![100; 50]);
        texts(&ev).matches("CAP en [SIN]").count()
    };
    assert_eq!(run(false), 2, "at peace: two engagements");
    assert_eq!(run(true), 1, "allied: one group");
}

// ---- Neutral garrisons ------------------------------------------------------

#[test]
fn wwk_113_neutral_garrison_restored_not_added_to() {
    let mut st = trio();
    st.zone_mut("MAC").garrison = Some(vec!["MIL".into(), "MIL".into(), "LT".into()]);
    st.add_unit(NEUTRAL, "MIL", "MAC");
    let mut sc = Scratch::default();
    // Contested only against its own garrison (no nation held it), now neutral again.
    sc.status_before.insert(
        "MAC".into(),
        Status::Contested {
            by: vec!["TUR".into()],
            holder: None,
        },
    );
    step(&mut st, &mut sc, control::neutrals, vec![]);
    assert_eq!(count(&st, NEUTRAL, "MIL", "MAC"), 2);
    assert_eq!(count(&st, NEUTRAL, "LT", "MAC"), 1);
    assert_eq!(
        st.units.values().filter(|u| u.at == "MAC").count(),
        3,
        "no more than recorded"
    );
}

// ---- Transport by sea ---------------------------------------------------------

#[test]
fn wwk_99_land_units_at_sea_ride_in_their_transport() {
    let mut st = trio();
    hold(&mut st, "TUR", "MAC");
    let tls = only(&mut st, "TUR", "TLS", "IST", 1)[0];
    let inf = st.add_unit("TUR", "INF", "IST");
    st.units
        .retain(|_, u| !(u.owner == "TUR" && u.code == "INF" && u.at == "IST" && u.id != inf));
    let mut sc = Scratch::default();
    sc.items = items(&st, "tur", "IST 1 INF MOVE AEG");
    step(&mut st, &mut sc, military::movement, vec![]);
    assert_eq!(st.unit(tls).unwrap().at, "AEG");
    assert_eq!(
        st.unit(inf).unwrap().at,
        format!("@{tls}"),
        "aboard the TLS (§2.7)"
    );
    assert_eq!(st.unit_zone(inf).as_deref(), Some("AEG"));
    // Next turn the infantry takes its order from the transport's zone (§3.2).
    let mut sc = Scratch::default();
    sc.items = items(&st, "tur", "AEG 1 INF MOVE MAC");
    step(&mut st, &mut sc, military::movement, vec![]);
    assert_eq!(st.unit(inf).unwrap().at, "MAC", "{:?}", sc.results);
    // Sunk with its transport (§7.4).
    let mut st2 = trio();
    let tls2 = only(&mut st2, "TUR", "TLS", "IST", 1)[0];
    let mut sc = Scratch::default();
    sc.items = items(&st2, "tur", "IST 1 INF MOVE AEG");
    step(&mut st2, &mut sc, military::movement, vec![]);
    let aboard: Vec<UnitId> = st2
        .units
        .values()
        .filter(|u| u.at == format!("@{tls2}"))
        .map(|u| u.id)
        .collect();
    assert_eq!(aboard.len(), 1);
    st2.remove_unit(tls2);
    assert!(st2.unit(aboard[0]).is_none());
}

// ---- The last two random steps in (side, code, id) order -------------------

#[test]
fn wwk_93_sam_fate_rolls_in_side_code_id_order() {
    let mut st = trio();
    st.set_diplo("TUR", "GRE", Diplo::War);
    hold(&mut st, "GRE", "MAC");
    st.add_unit("GRE", "MAA", "MAC");
    st.units.retain(|_, u| {
        !(u.owner == "TUR" && u.at == "IST" && arbitre_wwk::catalog::sp(&u.code).is_air())
    });
    st.add_unit("TUR", "BMB", "IST");
    let ftr = st.add_unit("TUR", "FTR", "IST");
    let aftr = st.add_unit("TUR", "AFTR", "IST");
    let mut sc = Scratch::default();
    // The escort lines give FTR then AFTR; (side, code, id) gives AFTR then FTR.
    sc.items = items(
        &st,
        "tur",
        "IST 1 BMB BOMB MAC\nIST >> 1 FTR ESCT\nIST >> 1 AFTR ESCT",
    );
    // The SAM fires at the escorts: the first fate roll (1: destroyed) falls
    // on the AFTR, the second (100: unaffected) on the FTR.
    let mut rolls = vec![1];
    rolls.extend([100; 60]);
    let ev = step(&mut st, &mut sc, military::air, rolls);
    let t = texts(&ev);
    assert!(t.contains("DCA avancée"), "{t}");
    assert!(st.unit(aftr).is_none(), "{t}");
    assert!(st.unit(ftr).is_some(), "{t}");
}

#[test]
fn wwk_79_sn_warhead_picked_in_side_code_id_order() {
    let mut st = trio();
    for u in st.units.values_mut() {
        if u.owner == "EGY" && u.at == "CAI" {
            u.heads.clear();
        }
    }
    // The IRBM has the lower id, the ABSE comes first in (side, code, id).
    let irbm = st.add_unit("EGY", "IRBM", "CAI");
    st.unit_mut(irbm).unwrap().heads.push("20K".into());
    let abse = st.add_unit("EGY", "ABSE", "CAI");
    st.unit_mut(abse).unwrap().heads.push("1M".into());
    let mut sc = Scratch::default();
    sc.items = items(&st, "tur", "IST SPY SN CAI");
    // Success, not detected, then d2 = 1: the first candidate, the ABSE's 1M.
    step(
        &mut st,
        &mut sc,
        arbitre_wwk::intel::espionage,
        vec![99, 99, 1],
    );
    assert!(st.unit(abse).unwrap().heads.is_empty(), "{:?}", sc.results);
    assert_eq!(st.unit(irbm).unwrap().heads, vec!["20K".to_string()]);
}
