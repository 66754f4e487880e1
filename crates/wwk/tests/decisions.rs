//! Issue 15: the points where the specification is unclear and arbitre
//! chose. Each decision is recorded in docs/wwk.md ("Décisions (issue 15)")
//! with the name of the test here that holds it.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test
#![allow(clippy::field_reassign_with_default)]

use crate::common;

use arbitre_wwk::catalog::sp;
use arbitre_wwk::economy::price;
use arbitre_wwk::model::*;
use arbitre_wwk::{combat, control, economy, military, Scratch};
use common::*;
use std::collections::BTreeSet;

fn moved(st: &mut State, player: &str, text: &str, rolls: Vec<u64>) -> Scratch {
    let mut sc = Scratch::default();
    sc.items = items(st, player, text);
    step(st, &mut sc, military::movement, rolls);
    sc
}

#[test]
fn wwk_99_decision_transport_ends_in_the_landing_zone() {
    let mut st = trio();
    hold(&mut st, "TUR", "MAC");
    let tls = only(&mut st, "TUR", "TLS", "IST", 1)[0];
    let inf = only(&mut st, "TUR", "INF", "IST", 1)[0];
    let sc = moved(&mut st, "tur", "IST 1 INF MOVE AEG MAC", vec![]);
    assert_eq!(st.unit(inf).unwrap().at, "MAC", "{:?}", sc.results);
    assert_eq!(
        st.unit(tls).unwrap().at,
        "MAC",
        "the transport puts in at the coastal zone of the landing"
    );
}

#[test]
fn wwk_99_decision_a_transport_serves_one_move_line() {
    let mut st = trio();
    only(&mut st, "TUR", "TLS", "IST", 1);
    only(&mut st, "TUR", "INF", "IST", 2);
    let sc = moved(
        &mut st,
        "tur",
        "IST 1 INF MOVE AEG\nIST 1 INF MOVE AEG",
        vec![],
    );
    assert!(result(&sc, 1).starts_with("OK"));
    assert!(result(&sc, 2).starts_with("FAILED"), "{:?}", sc.results);
    assert_eq!(
        count(&st, "TUR", "INF", "IST"),
        1,
        "the second infantry stays ashore, free"
    );
}

#[test]
fn wwk_96_decision_aircraft_of_a_sunk_carrier_without_base_in_reach_are_lost() {
    let mut st = trio();
    // RED is 3 zones from the ABSE at IST: beyond an FTR's R − 1 = 2.
    let f = st.add_unit("TUR", "FTR", "RED");
    let mut sc = Scratch::default();
    let ev = step(&mut st, &mut sc, military::return_to_base, vec![]);
    assert!(st.unit(f).is_none());
    assert!(texts(&ev).contains("sans base en [RED] : perdu"));
}

#[test]
fn wwk_98_decision_a_closed_strait_later_in_the_path_stops_the_ships_before_it() {
    let mut st = trio();
    let dd = st.add_unit("GRE", "DD", "ION");
    let sc = moved(&mut st, "gre", "ION 1 DD MOVE AEG BLA", vec![]);
    assert_eq!(st.unit(dd).unwrap().at, "AEG");
    let r = result(&sc, 1);
    assert!(
        r.starts_with("OK") && r.contains("passage impossible vers [BLA]"),
        "{r}"
    );
}

#[test]
fn wwk_98_decision_a_coastal_ship_ordered_into_the_high_sea_is_refused_and_stays_free() {
    let mut st = trio();
    let cst = st.add_unit("TUR", "CST", "AEG");
    let sc = moved(
        &mut st,
        "tur",
        "AEG 1 CST MOVE ION\nAEG 1 CST MOVE EMD",
        vec![],
    );
    assert!(result(&sc, 1).starts_with("FAILED"));
    assert_eq!(st.unit(cst).unwrap().at, "EMD", "{:?}", sc.results);
}

#[test]
fn wwk_33_decision_ships_may_enter_a_sea_zone_held_by_a_nation_at_peace() {
    let mut st = trio();
    st.zone_mut("EMD").status = Status::Controlled { by: "EGY".into() };
    st.add_unit("EGY", "DD", "EMD");
    let dd = st.add_unit("TUR", "DD", "AEG");
    moved(&mut st, "tur", "AEG 1 DD MOVE EMD", vec![]);
    assert_eq!(st.unit(dd).unwrap().at, "EMD");
}

#[test]
fn wwk_33_decision_a_zone_contested_by_several_nations_is_closed_if_one_is_at_peace() {
    let setup = |war_with_gre: bool| {
        let mut st = trio();
        st.zone_mut("ANK").status = Status::Contested {
            by: vec!["EGY".into(), "GRE".into()],
            holder: Some("EGY".into()),
        };
        st.add_unit("EGY", "INF", "ANK");
        st.add_unit("GRE", "INF", "ANK");
        st.set_diplo("TUR", "EGY", Diplo::War);
        if war_with_gre {
            st.set_diplo("TUR", "GRE", Diplo::War);
        }
        let i = only(&mut st, "TUR", "INF", "IST", 1)[0];
        moved(&mut st, "tur", "IST 1 INF MOVE ANK", vec![]);
        st.unit(i).unwrap().at.clone()
    };
    assert_eq!(
        setup(false),
        "IST",
        "GRE, a contestant, is at peace with TUR"
    );
    assert_eq!(setup(true), "ANK", "at war with every contestant");
}

#[test]
fn wwk_109_decision_retreats_follow_the_move_terrain_rules() {
    let mut st = trio();
    st.zone_mut("TAU").status = Status::Controlled { by: "TUR".into() };
    let inf = st.add_unit("TUR", "INF", "SYR");
    let lt = st.add_unit("TUR", "LT", "SYR");
    let mut sc = Scratch::default();
    sc.retreat.insert(inf, "SYR".into());
    sc.retreat.insert(lt, "SYR".into());
    step(&mut st, &mut sc, combat::resolve_retreats, vec![50]);
    assert_eq!(
        st.unit(inf).unwrap().at,
        "TAU",
        "infantry may retreat into a mountain"
    );
    assert_eq!(st.unit(lt).unwrap().at, "SYR", "a tank may not");
    assert_eq!(sc.no_retreat.get(&lt), Some(&true));
}

#[test]
fn wwk_98_decision_bases_do_not_block() {
    let mut st = trio();
    st.set_diplo("TUR", "GRE", Diplo::War);
    hold(&mut st, "GRE", "BUL");
    st.add_unit("GRE", "FORT", "BUL");
    only(&mut st, "TUR", "LT", "IST", 2);
    // One blocker (the INF, not the FORT): pick 1 of 2, then MAC's garrison rolls.
    moved(&mut st, "tur", "IST 2 LT MOVE BUL MAC", vec![1, 1, 1]);
    assert_eq!(count(&st, "TUR", "LT", "BUL"), 1);
    assert_eq!(count(&st, "TUR", "LT", "MAC"), 1);
}

#[test]
fn wwk_109_decision_retreats_resolve_in_side_code_id_order() {
    let mut st = trio();
    let lt = st.add_unit("TUR", "LT", "SYR");
    let art = st.add_unit("TUR", "ART", "SYR");
    let mut sc = Scratch::default();
    sc.retreat.insert(lt, "SYR".into());
    sc.retreat.insert(art, "SYR".into());
    // No zone to retreat to: ART (code order) rolls first.
    step(&mut st, &mut sc, combat::resolve_retreats, vec![50, 51]);
    assert_eq!(sc.no_retreat.get(&art), Some(&true));
    assert_eq!(sc.no_retreat.get(&lt), Some(&false));
}

#[test]
fn wwk_82_decision_the_neutral_side_comes_last() {
    let mut st = trio();
    st.set_diplo("EGY", "TUR", Diplo::War);
    let owners: BTreeSet<String> = [NEUTRAL, "TUR", "EGY"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let sides = combat::sides(&st, &owners);
    assert_eq!(
        sides,
        vec![
            vec!["EGY".to_string()],
            vec!["TUR".to_string()],
            vec![NEUTRAL.to_string()]
        ]
    );
}

#[test]
fn wwk_98_decision_no_blocking_on_the_last_zone_of_a_path() {
    let mut st = trio();
    st.set_diplo("TUR", "GRE", Diplo::War);
    hold(&mut st, "GRE", "BUL");
    only(&mut st, "TUR", "LT", "IST", 2);
    let sc = moved(&mut st, "tur", "IST 2 LT MOVE BUL", vec![]);
    assert_eq!(count(&st, "TUR", "LT", "BUL"), 2);
    assert!(sc.log.rolls.is_empty());
}

#[test]
fn wwk_112_decision_neutral_units_never_surrender_or_retreat() {
    let mut st = trio();
    hold(&mut st, "TUR", "MAC");
    let art = st.add_unit(NEUTRAL, "ART", "MAC");
    let mut sc = Scratch::default();
    step(&mut st, &mut sc, control::forced_retreat, vec![]);
    let u = st.unit(art).unwrap();
    assert_eq!((u.owner.as_str(), u.at.as_str()), (NEUTRAL, "MAC"));
}

#[test]
fn wwk_113_decision_an_emptied_neutral_zone_gets_its_recorded_garrison_back() {
    let mut st = trio();
    st.zone_mut("MAC").garrison = Some(vec!["MIL".into(), "MIL".into(), "LT".into()]);
    let mut sc = Scratch::default();
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
    assert!(sc.log.rolls.is_empty(), "restored, not rolled again");
}

#[test]
fn wwk_110_decision_the_factory_rule_beats_entered_the_same_turn() {
    let mut st = trio();
    for _ in 0..16 {
        st.add_unit("TUR", "FAC", "ANK");
    }
    st.add_unit("TUR", "INF", "ANK");
    st.add_unit("EGY", "INF", "ANK");
    assert_eq!(
        control::decide(&st, "ANK", &Status::Neutral),
        Status::Controlled { by: "TUR".into() }
    );
}

#[test]
fn wwk_93_decision_bombing_exchange_rolls_ground_then_aircraft() {
    let mut st = trio();
    st.set_diplo("TUR", "EGY", Diplo::War);
    let aa = st.add_unit("EGY", "AA", "SIN");
    let inf = st.add_unit("EGY", "INF", "SIN");
    let bmb = st.add_unit("TUR", "BMB", "SIN");
    let mut sc = Scratch::default();
    let mut log = vec![];
    // AA, INF (the ground, code order), then the bomber: 100, 100, 1.
    with_ctx(&mut st, &mut sc, vec![100, 100, 1], |ctx| {
        combat::bombing_exchange(ctx, &[bmb], &[aa, inf], false, &mut log)
    });
    assert!(st.unit(bmb).is_none(), "{log:?}");
    assert!(st.unit(aa).is_some() && st.unit(inf).is_some());
}

#[test]
fn wwk_92_decision_air_to_air_rolls_patrols_then_mission() {
    let mut st = trio();
    st.set_diplo("TUR", "EGY", Diplo::War);
    hold(&mut st, "EGY", "SIN");
    let cap = st.add_unit("EGY", "FTR", "SIN");
    let bmb = only(&mut st, "TUR", "BMB", "IST", 1)[0];
    let mut sc = Scratch::default();
    sc.caps.insert(cap, "SIN".into());
    sc.items = items(&st, "tur", "IST 1 BMB BOMB SIN");
    // CAP first (1: destroyed), then the bomber (100: untouched), then the bombing.
    step(
        &mut st,
        &mut sc,
        military::air,
        vec![1, 100, 100, 100, 100, 100],
    );
    assert!(st.unit(cap).is_none());
    assert!(st.unit(bmb).is_some());
}

#[test]
fn wwk_93_decision_aircraft_parked_in_the_target_zone_fire_back() {
    let mut st = trio();
    st.set_diplo("TUR", "EGY", Diplo::War);
    hold(&mut st, "EGY", "SIN");
    st.add_unit("EGY", "ABSE", "SIN");
    st.add_unit("EGY", "FTR", "SIN");
    only(&mut st, "TUR", "BMB", "IST", 1);
    let mut sc = Scratch::default();
    sc.items = items(&st, "tur", "IST 1 BMB BOMB SIN");
    let ev = step(&mut st, &mut sc, military::air, vec![100; 20]);
    let dca = sp("FTR").aa + sp("INF").aa + sp("ABSE").aa;
    assert!(
        texts(&ev).contains(&format!("DCA FA {dca} ")),
        "{}",
        texts(&ev)
    );
}

#[test]
fn wwk_101_decision_missile_and_bombing_orders_on_ones_own_zone_are_refused() {
    let mut st = trio();
    let ssm = only(&mut st, "TUR", "SSM", "IST", 1)[0];
    let mut sc = Scratch::default();
    sc.items = items(&st, "tur", "IST 1 SSM MISS IST\nIST 1 BMB BOMB IST");
    step(&mut st, &mut sc, military::missiles, vec![]);
    step(&mut st, &mut sc, military::air, vec![]);
    assert!(result(&sc, 1).contains("zone à vous"));
    assert!(result(&sc, 2).contains("zone à vous"));
    assert!(!sc.ordered.contains(&ssm));
}

#[test]
fn wwk_101_decision_two_targets_among_exactly_two_roll_no_pick() {
    let mut st = trio();
    st.set_diplo("TUR", "EGY", Diplo::War);
    hold(&mut st, "EGY", "ANK");
    st.add_unit("EGY", "LT", "ANK");
    only(&mut st, "TUR", "SSM", "IST", 1);
    let mut sc = Scratch::default();
    sc.items = items(&st, "tur", "IST 1 SSM MISS ANK");
    // Accuracy, then one fate roll per target: no pick.
    step(&mut st, &mut sc, military::missiles, vec![1, 100, 100]);
    assert_eq!(sc.log.rolls.len(), 3, "{:?}", sc.log.rolls);
}

#[test]
fn wwk_90_decision_aircraft_on_the_ground_stay_out_of_the_land_round() {
    let mut st = trio();
    st.set_diplo("TUR", "GRE", Diplo::War);
    hold(&mut st, "GRE", "MAC");
    st.add_unit("GRE", "ABSE", "MAC");
    st.add_unit("GRE", "FTR", "MAC");
    st.add_unit("TUR", "INF", "MAC");
    let mut sc = Scratch::default();
    let ev = with_ctx(&mut st, &mut sc, vec![100; 40], |ctx| {
        combat::combat_zone(ctx, "MAC")
    });
    let t = texts(&ev);
    let gre = t
        .lines()
        .find(|l| l.starts_with("GRE : "))
        .unwrap_or_default()
        .to_string();
    assert!(gre.contains("ABSE") && !gre.contains("FTR"), "{t}");
    assert!(
        t.contains("Bombardement défensif de GRE"),
        "they defend by bombardment (3.10a): {t}"
    );
}

#[test]
fn wwk_50_decision_build_lines_in_file_order_whatever_their_zone() {
    let mut st = trio();
    let (_, inf_price, _) = price("INF", &Ledger::default());
    *st.ledger_mut("TUR", "IST") = Ledger::default();
    hold(&mut st, "TUR", "ANK");
    st.add_unit("TUR", "FAC", "ANK");
    st.nations.get_mut("TUR").unwrap().treasury = inf_price;
    let mut sc = Scratch::default();
    sc.items = items(&st, "tur", "IST BUILD INF 1\nANK BUILD INF 1");
    step(&mut st, &mut sc, economy::production, vec![]);
    assert!(result(&sc, 1).starts_with("OK"), "{:?}", sc.results);
    assert!(result(&sc, 2).starts_with("FAILED"), "{:?}", sc.results);
}

#[test]
fn wwk_50_decision_later_lines_needing_the_exhausted_resource_are_cancelled() {
    let mut st = trio();
    let (_, inf_price, _) = price("INF", &Ledger::default());
    let (_, mil_price, _) = price("MIL", &Ledger::default());
    assert!(mil_price < inf_price);
    *st.ledger_mut("TUR", "IST") = Ledger::default();
    st.nations.get_mut("TUR").unwrap().treasury = inf_price + mil_price;
    let mils = count(&st, "TUR", "MIL", "IST");
    let mut sc = Scratch::default();
    sc.items = items(&st, "tur", "IST BUILD INF 2\nIST BUILD MIL 1");
    step(&mut st, &mut sc, economy::production, vec![]);
    assert!(
        result(&sc, 1).contains("OK  1 INF sur 2"),
        "{:?}",
        sc.results
    );
    assert!(result(&sc, 2).contains("annulé"), "{:?}", sc.results);
    assert_eq!(count(&st, "TUR", "MIL", "IST"), mils);
}
