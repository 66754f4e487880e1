//! Checklist tests (spec §11) and the rulebook's worked examples (§9) with
//! their exact numbers. Each test sets up a state, gives orders or inputs and
//! asserts the outcome.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;

use arbitre_core::{PlayerId, Rng, Ruleset};
use arbitre_wwk::admin::{ce_invest, market_k, refund};
use arbitre_wwk::catalog;
use arbitre_wwk::control::garrison_roll;
use arbitre_wwk::economy::{
    allocate, capacity, gain, income, price, research_points, victory_points,
};
use arbitre_wwk::intake::ai_crisis_pct;
use arbitre_wwk::intel::{fail_pct, pg_fail, rp_fail, st_fail};
use arbitre_wwk::military::accuracy;
use arbitre_wwk::model::*;
use arbitre_wwk::orders::{Mission, Order, SpyOp, Target};
use arbitre_wwk::parser::{parse_warhead, tokens};
use arbitre_wwk::setup::check_map;
use arbitre_wwk::Wwk;
use common::*;

fn own(st: &mut State, z: &str) {
    st.zone_mut(z).status = Status::Controlled { by: "TUR".into() };
    st.add_unit("TUR", "INF", z);
}

fn parse(st: &State, p: &str, text: &str) -> arbitre_core::Parsed<Order> {
    Wwk.parse_orders(st, &PlayerId::from(p), text)
}

#[test]
fn wwk_1_map_loader_rejects_bad_maps() {
    let z = |c: &str, adj: &[&str]| ZoneDef {
        code: c.into(),
        adjacent: adj.iter().map(|s| s.to_string()).collect(),
        ..Default::default()
    };
    assert!(check_map(&Map {
        zones: vec![z("AAB", &["AAC"]), z("AAC", &["AAB"])],
        ..Default::default()
    })
    .is_ok());
    assert!(
        check_map(&Map {
            zones: vec![z("AAB", &[]), z("AAB", &[])],
            ..Default::default()
        })
        .is_err(),
        "duplicate"
    );
    assert!(
        check_map(&Map {
            zones: vec![z("AIR", &[])],
            ..Default::default()
        })
        .is_err(),
        "reserved unit code"
    );
    assert!(
        check_map(&Map {
            zones: vec![z("AAB", &["AAC"]), z("AAC", &[])],
            ..Default::default()
        })
        .is_err(),
        "asymmetric"
    );
    let cfg = arbitre_core::SetupConfig {
        players: players(1),
        files: [(
            "scenario_file".to_string(),
            "[[zone]]\ncode = \"XYZ\"\nbogus = 1\n".to_string(),
        )]
        .into(),
        ..Default::default()
    };
    assert!(
        arbitre_wwk::setup::setup(&cfg).is_err(),
        "unknown keys are rejected"
    );
}

#[test]
fn wwk_2_default_start_package() {
    let st = trio();
    assert_eq!(count(&st, "TUR", "FAC", "IST"), 16);
    assert_eq!(count(&st, "TUR", "INF", "IST"), 7);
    assert_eq!(
        count(&st, "TUR", "DD", "IST"),
        2,
        "coastal home gets 2 DD and 1 TLS"
    );
    assert_eq!(st.ledger("TUR", "IST").ec, 20);
    assert_eq!(st.ledger("TUR", "IST").f, 4);
    let t = st.nations["TUR"].tech;
    assert_eq!(
        (t.l, t.n, t.i),
        (10, 0, 5),
        "specialty 10, weakness 0, others 5"
    );
    assert!(st.is_capital("TUR", "IST"));
}

#[test]
fn wwk_3_everyone_starts_at_peace() {
    let st = trio();
    assert!(st.diplomacy.is_empty());
    assert_eq!(st.diplo("TUR", "EGY"), Diplo::Peace);
    assert_eq!(st.ally_of("TUR"), None);
}

#[test]
fn wwk_4_rolls_are_injectable_per_step() {
    // Initiative (0.3): scripted d20 per nation in code order EGY, GRE, TUR.
    let mut st = trio();
    let ev = turn(
        &mut st,
        &[("tur", "IST BUILD INF 1")],
        &[("0.3", vec![1, 20, 10])],
    );
    assert!(!ev.is_empty());
    let mut r = Rng::for_phase(1, 1, "3.10");
    for _ in 0..200 {
        assert!((1..=100).contains(&r.d(100)));
    }
}

#[test]
fn wwk_8_brackets_and_case() {
    assert_eq!(
        tokens("ist [2] [inf] [MOVE] [ODE]"),
        vec!["IST", "2", "INF", "MOVE", "ODE"]
    );
    assert_eq!(tokens("[MENG] [2] [MOUSE"), vec!["MENG", "2", "MOUSE"]);
}

#[test]
fn wwk_9_aliases_warheads_and_leading_zone() {
    assert_eq!(tokens("2 FTR CAP AFG")[2], "CAPS");
    assert_eq!(tokens("ESCORT HMOVE SMOVE"), vec!["ESCT", "HMOV", "SMOV"]);
    assert_eq!(
        parse_warhead(&tokens("5x50kT")[0]),
        Some((5, "50K".to_string()))
    );
    assert_eq!(
        parse_warhead(&tokens("5MT")[0]),
        Some((1, "5M".to_string()))
    );
    let st = trio();
    let p = parse(
        &st,
        "tur",
        "IST [3] [BMB] [BOMB] [IST] [BUL]\nIST 2 INF MOVE IST BUL\nIST 1 ICBM 5x50kT CAI",
    );
    assert_eq!(p.orders.len(), 3, "{:?}", p.diagnostics);
    assert!(
        matches!(&p.orders[0].order, Order::Mil { mission: Mission::Bomb(z), .. } if z == "BUL")
    );
    assert!(
        matches!(&p.orders[1].order, Order::Mil { mission: Mission::Move(z), .. } if **z == ["BUL"])
    );
    assert!(
        matches!(&p.orders[2].order, Order::Mil { mission: Mission::Nuke { k: 5, head, target: Target::Zone(z) }, .. } if head == "50K" && z == "CAI")
    );
}

#[test]
fn wwk_10_order_budgets() {
    let st = trio();
    let text = "IST CE 1\nIST CE 1\nIST CE 1\nIST CE 1\nIST CE 1\nIST CE 1\nNAT WAR EGY\nNAT WAR GRE\nNAT SPY RT EGY\nNAT SPY RT GRE";
    let p = parse(&st, "tur", text);
    let errs: Vec<usize> = p.diagnostics.iter().map(|d| d.line).collect();
    assert_eq!(errs, vec![6, 10]);
    assert!(p.diagnostics[0].reason.contains("hors budget"));
}

#[test]
fn wwk_11_market_lines_cost_one_action() {
    let st = trio();
    let p = parse(&st, "tur", "NAT MARKET IST SELL 3 F\nNAT MARKET IST BUY 2 O\nNAT MARKET IST SELL 3 N\nNAT WAR EGY\nNAT WAR GRE\nNAT SPY RT EGY");
    assert_eq!(p.orders.len(), 5);
    assert_eq!(p.diagnostics.len(), 1);
    assert_eq!(p.diagnostics[0].line, 6);
}

#[test]
fn wwk_12_research_build_option_are_free() {
    let st = trio();
    let mut text =
        String::from("NAT RESEARCH I 10 V 10 A 10 NV 5 N 5 L 20\nNAT OPTION GREEN YES\n");
    for _ in 0..5 {
        text.push_str("IST CE 1\n");
    }
    text.push_str("IST BUILD INF 1\nIST BUILD LT 1\nNAT WAR EGY\nNAT WAR GRE\nNAT SPY RT EGY\n");
    let p = parse(&st, "tur", &text);
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
}

#[test]
fn wwk_13_economy_restored_gives_a_free_economic_order() {
    let mut st = trio();
    let text = "IST XFER 1 F NAT\nIST CE 1\nIST CE 1\nIST CE 1\nIST CE 1\nIST CE 1";
    assert_eq!(
        parse(&st, "tur", text).diagnostics.len(),
        1,
        "XFER F to NAT is invalid and uses no slot"
    );
    let text = "IST XFER 1 EC NAT\nIST CE 1\nIST CE 1\nIST CE 1\nIST CE 1\nIST CE 1";
    assert_eq!(parse(&st, "tur", text).diagnostics.len(), 1);
    st.nations.get_mut("TUR").unwrap().tech.l = 40;
    assert!(parse(&st, "tur", text).diagnostics.is_empty());
}

#[test]
fn wwk_14_ai_capital_gets_an_extra_order() {
    let mut st = trio();
    let text = "IST CE 1\nIST CE 1\nIST CE 1\nIST CE 1\nIST CE 1\nIST CE 1";
    assert_eq!(parse(&st, "tur", text).diagnostics.len(), 1);
    st.nations.get_mut("TUR").unwrap().options.ai = true;
    assert!(parse(&st, "tur", text).diagnostics.is_empty());
}

#[test]
fn wwk_19_army_regrouping_p1() {
    let mut st = trio();
    let p = parse(&st, "tur", "IST - - ARMY 2 LT 1 INF 2 ART MICKEY");
    assert!(
        matches!(&p.orders[0].order, Order::Army { pairs, name, .. } if pairs.len() == 3 && name == "MICKEY")
    );
    assert_eq!(
        parse(&st, "tur", "IST - - ARMY 1 LT 1 INF 1 ART 1 AA 1 ENG X")
            .diagnostics
            .len(),
        1,
        "at most 4 pairs"
    );
    turn(&mut st, &[("tur", "IST - - ARMY 2 LT 1 INF MICKEY")], &[]);
    assert_eq!(
        st.units
            .values()
            .filter(|u| u.army.as_deref() == Some("MICKEY"))
            .count(),
        3
    );
}

#[test]
fn wwk_15_selector_takes_free_units_first_then_breaks_armies() {
    let mut st = trio();
    own(&mut st, "ANK");
    turn(&mut st, &[("tur", "IST - - ARMY 4 LT MICKEY")], &[]);
    // 4 LT are all in MICKEY: "2 LT" takes army members, who leave the army.
    turn(&mut st, &[("tur", "IST 2 LT RECN BUL")], &[]);
    assert_eq!(
        st.units
            .values()
            .filter(|u| u.army.as_deref() == Some("MICKEY"))
            .count(),
        3,
        "RECN uses one unit, taken from the army, which leaves it"
    );
    let ev = turn(&mut st, &[("tur", "IST 2 LT MOVE ANK")], &[]);
    let _ = ev;
    assert_eq!(
        st.units
            .values()
            .filter(|u| u.army.as_deref() == Some("MICKEY"))
            .count(),
        2
    );
    assert_eq!(count(&st, "TUR", "LT", "ANK"), 2);
}

#[test]
fn wwk_16_group_selector_uses_units_outside_armies() {
    let mut st = trio();
    own(&mut st, "ANK");
    turn(&mut st, &[("tur", "IST - - ARMY 2 LT MICKEY")], &[]);
    turn(&mut st, &[("tur", "IST ALL V MOVE ANK")], &[]);
    // V group: 2 AA + 2 LT outside armies move; MICKEY's LT stay.
    assert_eq!(count(&st, "TUR", "LT", "ANK"), 2);
    assert_eq!(count(&st, "TUR", "AA", "ANK"), 2);
    assert_eq!(count(&st, "TUR", "LT", "IST"), 2);
}

#[test]
fn wwk_18_army_name_selector_moves_the_army() {
    let mut st = trio();
    own(&mut st, "ANK");
    turn(&mut st, &[("tur", "IST - - ARMY 2 LT 2 INF MICKEY")], &[]);
    turn(&mut st, &[("tur", "IST MICKEY MOVE ANK")], &[]);
    assert_eq!(
        count(&st, "TUR", "LT", "ANK") + count(&st, "TUR", "INF", "ANK"),
        5,
        "4 army members join the INF already there"
    );
}

#[test]
fn wwk_17_all_army_keeps_armies_whole() {
    let mut st = trio();
    own(&mut st, "ANK");
    turn(&mut st, &[("tur", "IST - - ARMY 2 LT 2 INF MICKEY")], &[]);
    turn(&mut st, &[("tur", "IST ALL ARMY MOVE ANK")], &[]);
    assert_eq!(
        st.units
            .values()
            .filter(|u| u.army.as_deref() == Some("MICKEY") && u.at == "ANK")
            .count(),
        4
    );
    assert_eq!(count(&st, "TUR", "FAC", "IST"), 16, "bases do not move");
}

#[test]
fn wwk_20_one_order_per_unit() {
    let mut st = trio();
    own(&mut st, "ANK");
    let ev = turn(
        &mut st,
        &[("tur", "IST 4 LT MOVE ANK\nIST 4 LT MOVE BUL")],
        &[],
    );
    assert_eq!(count(&st, "TUR", "LT", "ANK"), 4);
    assert_eq!(count(&st, "TUR", "LT", "BUL"), 0);
    assert!(texts(&ev).contains("[IST] [4] [LT] [MOVE] [BUL] ... FAILED"));
}

#[test]
fn wwk_21_escort_attaches_to_the_line_above() {
    let st = trio();
    let p = parse(&st, "tur", "IST 2 BMB BOMB BUL\nIST >> 2 FTR ESCT");
    assert!(matches!(p.orders[1].order, Order::Escort { of: 1, .. }));
    let p = parse(&st, "tur", "IST CE 1\nIST >> 2 FTR ESCT");
    assert_eq!(p.diagnostics.len(), 1);
}

#[test]
fn wwk_22_orders_are_echoed_with_their_result() {
    let mut st = trio();
    let ev = turn(
        &mut st,
        &[("tur", "IST 2 INF MOVE ANK\nNAT CEASEFIRE EGY")],
        &[],
    );
    let t = texts(&ev);
    assert!(t.contains("[IST] [2] [INF] [MOVE] [ANK] ... OK"), "{t}");
    assert!(t.contains("[NAT] [CEASEFIRE] [EGY] ... FAILED : pas en guerre avec EGY"));
}

#[test]
fn wwk_27_ai_crisis_chance_tv9() {
    assert_eq!(ai_crisis_pct(80), 22);
    assert_eq!(ai_crisis_pct(85), 17);
    assert_eq!(ai_crisis_pct(99), 3);
    assert_eq!(ai_crisis_pct(100), 2);
    assert_eq!(ai_crisis_pct(60), 22);
}

#[test]
fn wwk_28_war_drags_both_alliances_in() {
    let mut st = trio();
    st.set_diplo("TUR", "GRE", Diplo::Allied);
    turn(&mut st, &[("tur", "NAT WAR EGY")], &[]);
    assert_eq!(st.diplo("TUR", "EGY"), Diplo::War);
    assert_eq!(st.diplo("GRE", "EGY"), Diplo::War);
    assert_eq!(st.diplo("TUR", "GRE"), Diplo::Allied);
}

#[test]
fn wwk_29_ceasefire_needs_both_sides() {
    let mut st = trio();
    st.set_diplo("TUR", "EGY", Diplo::War);
    turn(&mut st, &[("tur", "NAT CEASEFIRE EGY")], &[]);
    assert_eq!(st.diplo("TUR", "EGY"), Diplo::War);
    turn(
        &mut st,
        &[("tur", "NAT CEASEFIRE EGY"), ("egy", "NAT CEASEFIRE TUR")],
        &[],
    );
    assert_eq!(st.diplo("TUR", "EGY"), Diplo::Peace);
}

#[test]
fn wwk_30_alliance_needs_both_and_is_unique() {
    let mut st = trio();
    turn(&mut st, &[("tur", "NAT ALLY EGY")], &[]);
    assert_eq!(st.diplo("TUR", "EGY"), Diplo::Peace);
    turn(
        &mut st,
        &[("tur", "NAT ALLY EGY"), ("egy", "NAT ALLY TUR")],
        &[],
    );
    assert_eq!(st.diplo("TUR", "EGY"), Diplo::Allied);
    let ev = turn(
        &mut st,
        &[("tur", "NAT ALLY GRE"), ("gre", "NAT ALLY TUR")],
        &[],
    );
    assert_eq!(st.diplo("TUR", "GRE"), Diplo::Peace);
    assert!(texts(&ev).contains("une seule alliance"));
    turn(&mut st, &[("egy", "NAT BREAK")], &[]);
    assert_eq!(st.diplo("TUR", "EGY"), Diplo::Peace);
}

#[test]
fn wwk_33_no_entry_into_a_zone_held_by_a_nation_at_peace() {
    let mut st = trio();
    st.zone_mut("ANK").status = Status::Controlled { by: "EGY".into() };
    st.add_unit("EGY", "INF", "ANK");
    let ev = turn(&mut st, &[("tur", "IST 2 INF MOVE ANK")], &[]);
    assert_eq!(count(&st, "TUR", "INF", "ANK"), 0);
    assert!(texts(&ev).contains("FAILED"));
}

#[test]
fn wwk_34_aid_limited_to_half_of_start_ec_tv20() {
    let mut st = trio();
    st.ledger_mut("TUR", "IST").ec = 17;
    let ev = turn(&mut st, &[("tur", "IST AID 5 CAI\nIST AID 4 CAI")], &[]);
    let t = texts(&ev);
    assert!(t.contains("[IST] [AID] [5] [CAI] ... OK"));
    assert!(t.contains("[IST] [AID] [4] [CAI] ... FAILED : au plus 50%"));
}

#[test]
fn wwk_35_xfer_needs_only_the_donor() {
    let mut st = trio();
    st.zone_mut("ANK").status = Status::Controlled { by: "TUR".into() };
    st.add_unit("TUR", "INF", "ANK");
    turn(
        &mut st,
        &[("tur", "IST XFER 3 F ANK\nIST XFER 5 EC NAT")],
        &[],
    );
    assert!(st.ledger("TUR", "ANK").f >= 3);
    assert_eq!(st.nations["TUR"].treasury, 5);
}

#[test]
fn wwk_36_exchange_needs_mirrored_orders() {
    let mut st = trio();
    let before = st.ledger("EGY", "CAI").o;
    turn(
        &mut st,
        &[("tur", "IST EXCH GIVE 2 F GET 3 EC WITH CAI")],
        &[],
    );
    assert_eq!(st.ledger("EGY", "CAI").o, before);
    let f_egy = st.ledger("EGY", "CAI").f;
    let ev = turn(
        &mut st,
        &[
            ("tur", "IST EXCH GIVE 2 F GET 3 EC WITH CAI"),
            ("egy", "CAI EXCH GIVE 3 EC GET 2 F WITH IST"),
        ],
        &[],
    );
    assert!(texts(&ev).contains("[CAI] [EXCH] [GIVE] [3] [EC] [GET] [2] [F] [WITH] [IST] ... OK"));
    assert!(st.ledger("EGY", "CAI").f >= f_egy + 2);
}

#[test]
fn wwk_37_market_three_for_two_tv19() {
    assert_eq!(market_k(9, 6), Some(3));
    assert_eq!(market_k(4, 2), None);
    assert_eq!(market_k(3, 4), None);
    let mut st = trio();
    let ev = turn(
        &mut st,
        &[("tur", "NAT MARKET IST SELL 3 F\nNAT MARKET IST BUY 2 U")],
        &[],
    );
    assert!(texts(&ev).contains("[NAT] [MARKET] [IST] [BUY] [2] [U] ... OK"));
    assert_eq!(st.ledger("TUR", "IST").u, 2);
    // Atomic: one line short of stock fails every line.
    let ev = turn(
        &mut st,
        &[("tur", "NAT MARKET IST SELL 3 O\nNAT MARKET IST BUY 2 U")],
        &[],
    );
    assert!(texts(&ev).contains("[NAT] [MARKET] [IST] [BUY] [2] [U] ... FAILED"));
}

#[test]
fn wwk_40_closed_market_refuses_trading() {
    let mut st = trio();
    st.market.closed_until = 5;
    let ev = turn(
        &mut st,
        &[(
            "tur",
            "NAT MARKET IST SELL 3 F\nNAT MARKET IST BUY 2 U\nIST AID 2 CAI",
        )],
        &[],
    );
    let t = texts(&ev);
    assert!(t.contains("marché mondial fermé"));
    assert!(t.contains("[IST] [AID] [2] [CAI] ... FAILED : marché fermé et pas de chemin"));
}

#[test]
fn wwk_41_income_tv21() {
    let mut st = trio();
    for u in st.units.values_mut() {
        if u.owner == "TUR" && u.code == "FAC" {
            u.at = "XXX".into();
        }
    }
    for _ in 0..4 {
        st.add_unit("TUR", "FAC", "IST");
    }
    let id = st.add_unit("TUR", "PROC", "IST");
    st.unit_mut(id).unwrap().res = Some('F');
    let (ec, r) = income(&st, "TUR", "IST");
    assert_eq!((ec, r.f, r.n), (10, 3, 2));
}

#[test]
fn wwk_43_guerrillas_halve_income_tv21() {
    let mut st = trio();
    for u in st.units.values_mut() {
        if u.owner == "TUR" && u.code == "FAC" {
            u.at = "XXX".into();
        }
    }
    for _ in 0..4 {
        st.add_unit("TUR", "FAC", "IST");
    }
    let id = st.add_unit("TUR", "PROC", "IST");
    st.unit_mut(id).unwrap().res = Some('F');
    st.add_unit(GUERRILLA, "INF", "IST");
    let (ec, r) = income(&st, "TUR", "IST");
    assert_eq!((ec, r.f, r.n), (5, 1, 1));
}

#[test]
fn wwk_42_shared_and_contested_income_tv21() {
    let mut st = trio();
    st.zone_mut("BUL").status = Status::Shared {
        by: vec!["TUR".into(), "GRE".into()],
    };
    st.add_unit("TUR", "FAC", "BUL");
    st.add_unit("TUR", "FAC", "BUL");
    let (ec, r) = income(&st, "TUR", "BUL");
    assert_eq!((ec, r.f, r.m), (5, 1, 1));
    st.zone_mut("BUL").status = Status::Contested {
        by: vec!["TUR".into(), "GRE".into()],
        holder: Some("TUR".into()),
    };
    assert_eq!(income(&st, "TUR", "BUL").0, 0);
}

#[test]
fn wwk_47_missing_resources_cost_tv3() {
    let stock = Ledger {
        f: 1,
        ..Default::default()
    };
    let (used, ec, workers) = price("FAC", &stock);
    assert_eq!((used.f, ec, workers), (1, 8, 3));
}

#[test]
fn wwk_48_tech_requirement_at_intake() {
    let st = trio();
    let p = parse(&st, "tur", "IST BUILD HT 1");
    assert!(p.diagnostics[0]
        .reason
        .contains("technologie insuffisante (V 25 requis)"));
}

#[test]
fn wwk_45_production_builds_in_held_zones() {
    let mut st = trio();
    let before = count(&st, "TUR", "INF", "IST");
    let ev = turn(&mut st, &[("tur", "IST BUILD INF 3")], &[]);
    assert_eq!(count(&st, "TUR", "INF", "IST"), before + 3);
    let _ = ev;
}

#[test]
fn wwk_52_capital_needs_more_than_15_factories_tv13() {
    let mut st = trio();
    assert!(st.is_capital("TUR", "IST"));
    let fac = st
        .units
        .values()
        .find(|u| u.code == "FAC" && u.owner == "TUR")
        .unwrap()
        .id;
    st.remove_unit(fac);
    assert!(!st.is_capital("TUR", "IST"));
}

#[test]
fn wwk_57_demobilisation_refund_tv23() {
    let hts = refund("HT", false);
    assert_eq!((hts.f, hts.ec), (1, 1));
    let inf = refund("INF", false);
    assert_eq!((inf.n, inf.ec), (0, 1));
    let green = refund("INF", true);
    assert_eq!((green.n, green.ec), (1, 0));
    let eng = refund("ENG", false);
    assert_eq!((eng.f, eng.n, eng.ec), (1, 0, 1));
    assert_eq!(refund("RSAT", false), Ledger::default());
}

#[test]
fn wwk_56_demob_removes_units_with_refund() {
    let mut st = trio();
    let ec = st.ledger("TUR", "IST").ec;
    let ev = turn(&mut st, &[("tur", "IST DEMOB LT 2")], &[]);
    assert_eq!(count(&st, "TUR", "LT", "IST"), 2);
    assert!(texts(&ev).contains("[IST] [DEMOB] [LT] [2] ... OK  2 démobilisée(s)"));
    let _ = ec;
}

#[test]
fn wwk_58_maintenance_capacity_tv22() {
    let mut st = trio();
    st.zone_mut("BUL").status = Status::Controlled { by: "TUR".into() };
    for _ in 0..4 {
        st.add_unit("TUR", "FAC", "BUL");
    }
    // BUL has no N symbol: 4. IST capital: 25 + 2 (one N symbol).
    assert_eq!(capacity(&st, "TUR", "BUL", 1), 4);
    assert_eq!(capacity(&st, "TUR", "IST", 1), 27);
    st.zone_mut("IST").irradiated_until = 3;
    assert_eq!(capacity(&st, "TUR", "IST", 2), 0);
}

#[test]
fn wwk_62_contested_factories_split_tv22() {
    let mut st = trio();
    st.zone_mut("BUL").status = Status::Contested {
        by: vec!["TUR".into(), "GRE".into()],
        holder: Some("TUR".into()),
    };
    for _ in 0..5 {
        st.add_unit("TUR", "FAC", "BUL");
    }
    assert_eq!(capacity(&st, "TUR", "BUL", 1), 3);
    assert_eq!(capacity(&st, "GRE", "BUL", 1), 2);
}

#[test]
fn wwk_63_research_points_tv4_tv5() {
    assert_eq!(research_points(10, 1), 60);
    assert_eq!(research_points(5, 1), 55);
    assert_eq!(research_points(0, 1), 50);
    assert_eq!(research_points(28, 7), 90);
}

#[test]
fn wwk_64_allocation_tv17() {
    assert_eq!(
        allocate(66, &[10, 10, 10, 5, 5, 20]),
        [11, 11, 11, 6, 6, 21]
    );
    assert_eq!(allocate(60, &[0; 6]), [10; 6]);
    assert_eq!(
        allocate(66, &[10, 10, 10, 5, 5, 20])[5] / 2,
        10,
        "ST halves L to 10"
    );
}

#[test]
fn wwk_65_gain_tv6() {
    assert_eq!(gain(9), (3, 0));
    assert_eq!(gain(11), (3, 31));
    assert_eq!(gain(10), (3, 16));
    assert_eq!(gain(54), (7, 34));
}

#[test]
fn wwk_66_drift_and_roll_for_fraction() {
    let mut st = trio();
    // RP 60 equal weights → 10 each: +3 and a 16% roll per field; all rolls 99.
    turn(&mut st, &[], &[("5.8", vec![99; 18])]);
    let t = st.nations["TUR"].tech;
    // TUR: specialty L 10 → 13 + 1; weakness N 0 → 3 − 1.
    assert_eq!((t.l, t.n, t.i), (14, 2, 8));
}

#[test]
fn wwk_70_counter_espionage_tv14() {
    assert_eq!(ce_invest(4, 10, 20), (20, 8));
    let mut st = trio();
    st.zone_mut("IST").ce = 6;
    turn(&mut st, &[("tur", "IST CE 10")], &[]);
    assert_eq!(st.zone("IST").ce, 20);
    turn(&mut st, &[], &[]);
    assert_eq!(st.zone("IST").ce, 18);
}

#[test]
fn wwk_71_national_missions_and_st_base_80() {
    assert_eq!(st_fail(30, 20, 8, true), 68);
    assert_eq!(st_fail(30, 20, 8, false), 78);
}

#[test]
fn wwk_72_fail_chances_clamped_tv18() {
    assert_eq!(fail_pct(SpyOp::Sc, 90, 0, 0, 0, false), 5);
    assert_eq!(fail_pct(SpyOp::Rr, 0, 60, 20, 0, false), 90);
}

#[test]
fn wwk_75_espionage_formulas_tv18() {
    assert_eq!(fail_pct(SpyOp::Sp, 30, 20, 10, 4, false), 56);
    assert_eq!(fail_pct(SpyOp::Sa, 30, 20, 10, 4, false), 36);
    assert_eq!(fail_pct(SpyOp::Rr, 30, 20, 10, 4, false), 26);
    assert_eq!(fail_pct(SpyOp::Rg, 30, 20, 10, 4, false), 56);
    assert_eq!(fail_pct(SpyOp::Rg, 30, 20, 10, 4, true), 76);
    assert_eq!(fail_pct(SpyOp::In, 30, 20, 10, 4, false), 36);
    assert_eq!(fail_pct(SpyOp::In, 30, 20, 10, 4, true), 56);
}

#[test]
fn wwk_76_propaganda_formula_tv18() {
    assert_eq!(rp_fail(10, 6), 36);
}

#[test]
fn wwk_77_purge_formula_tv18() {
    assert_eq!(pg_fail(20, 30, 6, 10, false), 13);
    assert_eq!(pg_fail(20, 30, 6, 10, true), 5);
}

#[test]
fn wwk_79_sabotage_production_destroys_a_factory() {
    let mut st = trio();
    // 2.2 rolls: fail roll 99 (success), detection 99 (undetected).
    let ev = turn(
        &mut st,
        &[("tur", "IST SPY SP CAI")],
        &[("2.2", vec![99, 99])],
    );
    assert_eq!(count(&st, "EGY", "FAC", "CAI"), 15);
    assert!(texts(&ev).contains("[CAI] SP : réussite"));
}

#[test]
fn wwk_73_detection_reveals_the_sponsor() {
    let mut st = trio();
    st.zone_mut("CAI").ce = 12; // after the −2 upgrade: 10 → detection ≤ 20.
    let ev = turn(
        &mut st,
        &[("tur", "IST SPY RR CAI")],
        &[("2.2", vec![99, 20])],
    );
    assert!(texts(&ev).contains("Détecté : RR contre [CAI] par TUR"));
}

#[test]
fn wwk_101_missile_accuracy_tv10() {
    assert_eq!(accuracy(0, false), 100);
    assert_eq!(accuracy(1, false), 80);
    assert_eq!(accuracy(1, true), 90);
    assert_eq!(accuracy(3, true), 70);
    assert_eq!(accuracy(5, false), 0);
    assert_eq!(accuracy(6, true), 40);
    assert_eq!(accuracy(11, true), 0);
}

#[test]
fn wwk_113_neutral_garrison_table_tv15() {
    assert_eq!(garrison_roll(45), &["MIL"]);
    assert_eq!(garrison_roll(88), &["ABSE", "FB"]);
    assert_eq!(garrison_roll(99), &["SSM"]);
    assert_eq!(garrison_roll(60), &["MIL"]);
    assert_eq!(garrison_roll(61), &["ART"]);
}

#[test]
fn wwk_116_victory_points_tv8() {
    // 186 ec, 24 symbols, 15 controlled, 2 shared; I70 V100 A50 Nv40 N100.
    assert_eq!(victory_points(15, 2, 186, 24, 360, 5), 468);
    assert_eq!(victory_points(15, 2, 186, 24, 360, 6), 390);
}

#[test]
fn wwk_91_bombing_immobilises_and_a_second_hit_destroys() {
    let mut st = trio();
    st.set_diplo("TUR", "GRE", Diplo::War);
    // BUL held by GRE with 1 INF; TUR bombs it with 2 BMB.
    st.zone_mut("BUL").status = Status::Controlled { by: "GRE".into() };
    let inf = st.add_unit("GRE", "INF", "BUL");
    for _ in 0..3 {
        st.add_unit("GRE", "INF", "BUL");
    }
    // FA 16 against FD 32 → 25/50. 3.6 rolls: 30 (RETREAT → immobilised), 99 ×3;
    // the INF have no anti-air attack, so the bombers roll nothing.
    let ev = turn(
        &mut st,
        &[("tur", "IST 2 BMB BOMB BUL")],
        &[("3.6", vec![30, 99, 99, 99])],
    );
    assert!(texts(&ev).contains("immobilisé"), "{}", texts(&ev));
    assert!(st.unit(inf).is_some());
}

#[test]
fn wwk_93_bomb_resolves_with_dca_tv28() {
    use arbitre_wwk::combat::{thresholds, Rat};
    // 3 BMB (FA 24) against 2 INF + 1 AA (dca FD 26): 46 / 92; AA a 6 vs FD 36: 8 / 16.
    assert_eq!(thresholds(Rat::int(24), Rat::int(26), 0), (46, 92));
    assert_eq!(thresholds(Rat::int(6), Rat::int(36), 0), (8, 16));
    assert_eq!(catalog::sp("BMB").land_d(), 12);
}

#[test]
fn wwk_95_escorts_absorb_cap_tv27() {
    use arbitre_wwk::combat::{thresholds, Rat};
    assert_eq!(thresholds(Rat::int(18), Rat::int(20), 0), (45, 90));
    assert_eq!(thresholds(Rat::int(12), Rat::int(30), 0), (20, 40));
}

#[test]
fn wwk_106_tacd_threshold_tv30() {
    use arbitre_wwk::combat::Rat;
    // FA 19 against FD 40: 2·19 < 40 → no fire; FA 20 → fire.
    assert!(Rat::int(19).mul(2, 1).lt(Rat::int(40)));
    assert!(!Rat::int(20).mul(2, 1).lt(Rat::int(40)));
}

#[test]
fn wwk_110_control_by_infantry() {
    let mut st = trio();
    turn(
        &mut st,
        &[("tur", "IST 3 INF MOVE ANK")],
        &[("3.9", vec![1, 1, 1, 1, 1, 1]), ("3.10", vec![100; 40])],
    );
    // ANK's garrison (2 MIL + 2 symbols) fought; with all rolls 100 nobody is hurt → contested.
    assert!(
        matches!(st.zone("ANK").status, Status::Contested { .. }),
        "{:?}",
        st.zone("ANK").status
    );
}

#[test]
fn wwk_115_smov_along_own_zones_tv12() {
    let mut st = trio();
    for z in ["ANK", "SYR"] {
        st.zone_mut(z).status = Status::Controlled { by: "TUR".into() };
        st.add_unit("TUR", "INF", z);
    }
    turn(&mut st, &[("tur", "IST 2 LT SMOV ANK SYR")], &[]);
    assert_eq!(count(&st, "TUR", "LT", "SYR"), 2);
    let ev = turn(&mut st, &[("tur", "SYR 2 LT SMOV ISR")], &[]);
    assert!(texts(&ev).contains("FAILED"), "ISR is neutral");
}

#[test]
fn wwk_67_sabotage_technologique_halves_the_field() {
    let mut st = trio();
    // 2.2: fail roll 99 (success), detection 99. EGY: RP 55, L gets 9 → 4.
    let ev = turn(
        &mut st,
        &[("tur", "NAT SPY ST EGY L")],
        &[("2.2", vec![99, 99])],
    );
    let t = texts(&ev);
    assert!(t.contains("ST -> EGY L : réussite"), "{t}");
    assert!(t.contains("L 4rp"), "{t}");
}

#[test]
fn wwk_74_no_guerrilla_on_turn_one() {
    let mut st = trio();
    st.zone_mut("SIN").status = Status::Controlled { by: "EGY".into() };
    st.add_unit("TUR", "INF", "ANK");
    st.zone_mut("ANK").status = Status::Controlled { by: "TUR".into() };
    let ev = turn(&mut st, &[("tur", "ANK SPY RG SIN")], &[]);
    assert!(texts(&ev).contains("guérilla interdite au tour 1"));
}

#[test]
fn wwk_61_unmaintained_units_are_demobilised() {
    let mut st = trio();
    st.ledger_mut("TUR", "IST").ec = 0;
    st.ledger_mut("TUR", "IST").n = 0;
    // No income would pay: make IST irradiated (capacity 0) through turn 1.
    st.zone_mut("IST").irradiated_until = 1;
    for _ in 0..10 {
        st.add_unit("TUR", "INF", "IST");
    }
    // 35 units, capacity 0: income 22ec pays 22, 2 N pay 4, 9 are lost.
    let before = st.units.values().filter(|u| u.owner == "TUR").count();
    let ev = turn(&mut st, &[], &[]);
    let after = st.units.values().filter(|u| u.owner == "TUR").count();
    assert_eq!(after, before - 9, "{}", texts(&ev));
    assert!(texts(&ev).contains("non entretenues, démobilisées"));
}

#[test]
fn wwk_7_turn_and_nation_header_lines_must_match() {
    let st = trio();
    let ok = parse(
        &st,
        "tur",
        "WWK ORDERS\nTURN 1\nNATION TUR\nIST CE 1\nEND\nthis is ignored",
    );
    assert_eq!(ok.orders.len(), 1);
    assert!(ok.diagnostics.is_empty(), "{:?}", ok.diagnostics);
    let bad = parse(&st, "tur", "TURN 2\nIST CE 1\nIST 2 INF MOVE ANK");
    assert!(bad.orders.is_empty(), "the whole message is rejected");
    assert_eq!(bad.error_count(), 3);
    assert!(bad.diagnostics[0]
        .reason
        .contains("ordres pour le tour 1 attendus"));
    let bad = parse(&st, "tur", "NATION EGY\nIST CE 1");
    assert!(bad.orders.is_empty());
}
