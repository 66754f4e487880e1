//! Checklist tests that drive one step of the turn (spec §4) directly, with
//! scripted dice, or a whole turn from a prepared position.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test
#![allow(clippy::field_reassign_with_default)]

use crate::common;

use arbitre_wwk::catalog::sp;
use arbitre_wwk::model::*;
use arbitre_wwk::turn::{activation, phases};
use arbitre_wwk::{admin, combat, control, economy, intake, intel, military, Scratch};
use common::*;

#[test]
fn wwk_23_steps_run_in_the_spec_order() {
    let keys: Vec<&str> = phases().iter().map(|p| p.key).collect();
    let want = "0.1 0.2 0.3 1.1 1.2 1.3 1.4 1.5 1.6 1.7 1.8 2.1 2.2 2.3 3.1 3.2 3.3 3.4 3.5 3.6 3.7 3.8 3.9 3.10 3.11 4.1 4.2 4.3 4.4 4.5 4.6 4.7 4.8 5.1 5.2 5.3 5.4 5.5 5.6 5.7 5.8 5.9 5.10 5.11 5.12";
    assert_eq!(keys.join(" "), want);
}

#[test]
fn wwk_24_initiative_is_l_plus_d20() {
    let mut st = trio();
    let mut sc = Scratch::default();
    // d20 in code order EGY, GRE, TUR: EGY 5+1, GRE 5+20, TUR 10+10.
    step(&mut st, &mut sc, intake::initiative, vec![1, 20, 10]);
    assert_eq!(sc.nation_order, vec!["GRE", "TUR", "EGY"]);
    assert_eq!(sc.initiative["TUR"], 20);
    // Ties: a d100 roll-off, higher wins: EGY 5+15 = 20 ties TUR 10+10.
    let mut sc = Scratch::default();
    step(
        &mut st,
        &mut sc,
        intake::initiative,
        vec![15, 1, 10, 30, 70],
    );
    assert_eq!(sc.nation_order, vec!["TUR", "EGY", "GRE"]);
}

#[test]
fn wwk_25_ai_capitals_act_first() {
    let mut st = trio();
    st.nations.get_mut("EGY").unwrap().options.ai = true;
    let mut sc = Scratch::default();
    sc.nation_order = vec!["TUR".into(), "EGY".into(), "GRE".into()];
    sc.items = items(&st, "tur", "IST CE 1");
    sc.items.extend(items(&st, "egy", "CAI CE 1"));
    let order: Vec<String> = activation(&sc, &st, |_| true)
        .iter()
        .map(|i| i.nation.clone())
        .collect();
    assert_eq!(order, vec!["EGY", "TUR"]);
}

#[test]
fn wwk_26_sabotaged_zone_acts_last() {
    let st = trio();
    let mut sc = Scratch::default();
    sc.nation_order = vec!["TUR".into(), "EGY".into(), "GRE".into()];
    sc.items = items(&st, "tur", "IST CE 1");
    sc.items.extend(items(&st, "egy", "CAI CE 1"));
    sc.sc_hit.insert("IST".into());
    let order: Vec<String> = activation(&sc, &st, |_| true)
        .iter()
        .map(|i| i.nation.clone())
        .collect();
    assert_eq!(order, vec!["EGY", "TUR"]);
}

#[test]
fn wwk_31_ceasefire_demobilises_troops_outside_frontier_zones() {
    let mut st = trio();
    st.set_diplo("TUR", "EGY", Diplo::War);
    hold(&mut st, "EGY", "SIN");
    st.add_unit("TUR", "LT", "SIN");
    hold(&mut st, "TUR", "ANK");
    st.add_unit("EGY", "LT", "ANK");
    turn(
        &mut st,
        &[("tur", "NAT CEASEFIRE EGY"), ("egy", "NAT CEASEFIRE TUR")],
        &[],
    );
    assert_eq!(count(&st, "TUR", "LT", "SIN"), 0);
    assert_eq!(count(&st, "EGY", "LT", "ANK"), 0);
}

#[test]
fn wwk_32_allies_cross_but_do_not_use_each_others_factories() {
    let mut st = trio();
    st.set_diplo("TUR", "EGY", Diplo::Allied);
    assert!(military::may_enter(&st, "TUR", "CAI"));
    assert!(!military::may_enter(&st, "GRE", "CAI"));
    st.add_unit("TUR", "INF", "CAI");
    let ev = turn(&mut st, &[("tur", "CAI BUILD INF 1")], &[]);
    assert!(texts(&ev).contains("[CAI] [BUILD] [INF] [1] ... FAILED"));
}

#[test]
fn wwk_38_first_nuclear_use_closes_the_market() {
    let mut st = trio();
    st.set_diplo("TUR", "EGY", Diplo::War);
    let l = st.add_unit("TUR", "IRBM", "IST");
    st.unit_mut(l).unwrap().heads.push("5K".into());
    let ev = turn(&mut st, &[("tur", "IST 1 IRBM 5K CAI")], &[]);
    assert!(st.market.first_nuke_used);
    assert_eq!(st.market.closed_until, 4);
    let t = texts(&ev);
    assert!(t.contains("NUCLÉAIRE  tir détecté depuis [IST]"), "{t}");
    assert!(t.contains("MARCHÉ  fermé à tous jusqu'au tour 4"));
}

#[test]
fn wwk_104_nuclear_fire_announced_and_strategic_forbidden_over_friends() {
    let mut st = trio();
    st.set_diplo("TUR", "EGY", Diplo::War);
    let l = st.add_unit("TUR", "ICBM", "IST");
    st.unit_mut(l).unwrap().heads.push("1M".into());
    st.add_unit("TUR", "INF", "CAI");
    let ev = turn(&mut st, &[("tur", "IST 1 ICBM 1M CAI")], &[]);
    assert!(texts(&ev).contains("FAILED : arme stratégique interdite"));
    assert_eq!(st.unit(l).unwrap().heads, vec!["1M".to_string()]);
    // A MIRV of 2 × 5K is one missile: one announcement.
    st.unit_mut(l).unwrap().heads = vec!["5K".into(), "5K".into()];
    let ev = turn(&mut st, &[("tur", "IST 1 ICBM 2x5kT CAI")], &[]);
    assert_eq!(
        texts(&ev)
            .matches("NUCLÉAIRE  tir détecté depuis [IST]")
            .count(),
        1
    );
    assert!(st.unit(l).unwrap().heads.is_empty());
}

#[test]
fn wwk_39_civil_attacks_close_the_market_to_the_attacker() {
    let mut st = trio();
    let mut sc = Scratch::default();
    sc.civil_fac.insert("TUR".into(), 5);
    sc.civil_fac.insert("EGY".into(), 4);
    step(&mut st, &mut sc, economy::timers, vec![]);
    assert_eq!(st.market.closed_for.get("TUR"), Some(&2));
    assert_eq!(st.market.closed_for.get("EGY"), None);
    assert!(admin::market_closed_for(&st, "TUR", 2));
    assert!(!admin::market_closed_for(&st, "TUR", 3));
}

#[test]
fn wwk_44_stocks_stay_when_control_changes_and_wwk_111_factories_roll() {
    let mut st = trio();
    st.set_diplo("TUR", "GRE", Diplo::War);
    st.zone_mut("BUL").status = Status::Controlled { by: "GRE".into() };
    st.ledger_mut("GRE", "BUL").ec = 9;
    st.ledger_mut("GRE", "BUL").f = 3;
    for _ in 0..4 {
        st.add_unit("GRE", "FAC", "BUL");
    }
    st.add_unit("TUR", "INF", "BUL");
    let mut sc = Scratch::default();
    step(&mut st, &mut sc, control::control, vec![]);
    assert_eq!(
        st.zone("BUL").status,
        Status::Controlled { by: "TUR".into() }
    );
    // Factory rolls: 25 destroys, 26 keeps.
    step(
        &mut st,
        &mut sc,
        control::control_effects,
        vec![25, 26, 90, 1],
    );
    assert_eq!(count(&st, "TUR", "FAC", "BUL"), 2);
    assert_eq!(st.ledger("TUR", "BUL").ec, 9);
    assert_eq!(st.ledger("TUR", "BUL").f, 3);
    assert!(!st.zone("BUL").ledgers.contains_key("GRE"));
}

#[test]
fn wwk_46_engineers_build_bases_one_each() {
    let mut st = trio();
    st.ledger_mut("TUR", "IST").p = 4;
    let ev = turn(&mut st, &[("tur", "IST BUILD ABSE 3")], &[]);
    assert!(
        texts(&ev)
            .contains("[IST] [BUILD] [ABSE] [3] ... OK  2 ABSE sur 3 (génie insuffisant(e)s)"),
        "{}",
        texts(&ev)
    );
    assert_eq!(count(&st, "TUR", "ABSE", "IST"), 3);
}

#[test]
fn wwk_46_engineers_built_this_turn_cannot_build() {
    let mut st = trio();
    for u in st.units.values_mut() {
        if u.code == "ENG" {
            u.built = 1;
        }
    }
    let ev = turn(&mut st, &[("tur", "IST BUILD ABSE 1")], &[]);
    assert!(texts(&ev).contains("[IST] [BUILD] [ABSE] [1] ... FAILED"));
}

#[test]
fn wwk_49_aircraft_need_room_on_a_base() {
    let mut st = trio();
    st.ledger_mut("TUR", "IST").p = 10;
    st.ledger_mut("TUR", "IST").f = 10;
    st.ledger_mut("TUR", "IST").ec = 60;
    // 1 ABSE holds 8 aircraft; 4 are there.
    let ev = turn(&mut st, &[("tur", "IST BUILD FTR 5")], &[]);
    assert!(
        texts(&ev).contains("OK  4 FTR sur 5 (aucune base ou lanceur pour placer l'unité)"),
        "{}",
        texts(&ev)
    );
}

#[test]
fn wwk_49_warheads_need_a_launcher_or_base() {
    let mut st = trio();
    st.nations.get_mut("TUR").unwrap().tech.n = 10;
    st.ledger_mut("TUR", "IST").u = 2;
    turn(&mut st, &[("tur", "IST BUILD 5K 1")], &[]);
    let abse = st
        .units
        .values()
        .find(|u| u.owner == "TUR" && u.code == "ABSE")
        .unwrap();
    assert_eq!(abse.heads, vec!["5K".to_string()]);
}

#[test]
fn wwk_50_short_funds_cut_production() {
    let mut st = trio();
    st.ledger_mut("TUR", "IST").ec = 5;
    let ev = turn(&mut st, &[("tur", "IST BUILD INF 4")], &[]);
    assert!(
        texts(&ev).contains("OK  2 INF sur 4 (fonds insuffisants)"),
        "{}",
        texts(&ev)
    );
}

#[test]
fn wwk_51_factory_limit_20_plus_l() {
    let mut st = trio();
    for _ in 0..20 {
        st.add_unit("TUR", "FAC", "IST");
    }
    // 36 factories, L 10 → limit 30: 6 random demobilisations.
    let mut sc = Scratch::default();
    step(&mut st, &mut sc, economy::limits, vec![1, 1, 1, 1, 1, 1]);
    assert_eq!(count(&st, "TUR", "FAC", "IST"), 30);
}

#[test]
fn wwk_53_space_launch_is_numbered_and_announced() {
    let mut st = trio();
    st.nations.get_mut("TUR").unwrap().tech.a = 30;
    st.add_unit("TUR", "SPC", "IST");
    st.ledger_mut("TUR", "IST").m = 2;
    st.ledger_mut("TUR", "IST").o = 2;
    let ev = turn(&mut st, &[("tur", "IST BUILD RSAT 2")], &[]);
    assert!(texts(&ev).contains("ESPACE  RSAT #0101 lancé depuis [IST]"));
    assert!(texts(&ev).contains("ESPACE  RSAT #0102 lancé depuis [IST]"));
    assert!(ev
        .iter()
        .any(|e| e.to == arbitre_wwk::turn::Vis::All && e.text.contains("#0102")));
    assert_eq!(st.units.values().filter(|u| u.at == "#0101").count(), 1);
}

#[test]
fn wwk_54_build_assigns_an_army() {
    let mut st = trio();
    turn(&mut st, &[("tur", "IST BUILD INF 2 MOUSE")], &[]);
    assert_eq!(
        st.units
            .values()
            .filter(|u| u.army.as_deref() == Some("MOUSE"))
            .count(),
        2
    );
}

#[test]
fn wwk_55_damaged_warship_repaired_with_a_factory() {
    let mut st = trio();
    let dd = st
        .units
        .values()
        .find(|u| u.code == "DD" && u.owner == "TUR")
        .unwrap()
        .id;
    st.unit_mut(dd).unwrap().damaged = true;
    let mut sc = Scratch::default();
    step(&mut st, &mut sc, economy::repairs, vec![]);
    assert!(!st.unit(dd).unwrap().damaged);
    assert_eq!(sc.fac_used[&("TUR".to_string(), "IST".to_string())], 1);
}

#[test]
fn wwk_59_no_maintenance_for_civil_bases_and_rangers() {
    for c in ["FAC", "PROC", "SPC", "RNGR"] {
        assert!(!sp(c).needs_maint(), "{c}");
    }
    assert!(sp("INF").needs_maint());
}

#[test]
fn wwk_60_maintenance_payment_order_tv22() {
    let mut st = trio();
    hold(&mut st, "TUR", "ANK"); // 1 INF
    for _ in 0..4 {
        st.add_unit("TUR", "FAC", "ANK");
    }
    for _ in 0..10 {
        st.add_unit("TUR", "INF", "ANK");
    }
    st.add_unit("TUR", "RNGR", "ANK");
    st.ledger_mut("TUR", "ANK").ec = 3;
    st.ledger_mut("TUR", "ANK").n = 1;
    let mut sc = Scratch::default();
    // Capacity 4 + 2 = 6, 11 units: 3 ec and 1 N (2 units) pay for the 5.
    let ev = step(&mut st, &mut sc, economy::maintenance, vec![]);
    assert_eq!(st.ledger("TUR", "ANK").ec, 0);
    assert_eq!(st.ledger("TUR", "ANK").n, 0);
    assert_eq!(count(&st, "TUR", "INF", "ANK"), 11);
    assert!(texts(&ev).contains("[ANK] entretien : capacité 6, unités 11, surplus 5 : 3ec, 1 N"));
    // Variant: N stock 0 → 2 units by emergency from IST at 2 ec each.
    st.ledger_mut("TUR", "ANK").ec = 3;
    let ist = st.ledger("TUR", "IST").ec;
    let mut sc = Scratch::default();
    step(&mut st, &mut sc, economy::maintenance, vec![]);
    assert_eq!(st.ledger("TUR", "IST").ec, ist - 4);
}

#[test]
fn wwk_68_soylent_green_effects() {
    let mut st = trio();
    let before = economy::capacity(&st, "TUR", "ANK", 1);
    let _ = before;
    hold(&mut st, "TUR", "ANK");
    for _ in 0..3 {
        st.add_unit("TUR", "FAC", "ANK");
    }
    assert_eq!(economy::capacity(&st, "TUR", "ANK", 1), 3 + 2);
    st.nations.get_mut("TUR").unwrap().options.soylent_green = true;
    assert_eq!(
        economy::capacity(&st, "TUR", "ANK", 1),
        6,
        "factories ×2, N symbols 0"
    );
    assert_eq!(economy::income(&st, "TUR", "ANK").1.n, 0, "no N income");
    assert_eq!(admin::refund("INF", true).n, 1);
    let ev = turn(
        &mut st,
        &[("tur", "NAT MARKET IST SELL 3 F\nNAT MARKET IST BUY 2 N")],
        &[],
    );
    assert!(texts(&ev).contains("Soleil Vert : pas d'achat de N"));
}

#[test]
fn wwk_69_ai_crisis_deletes_two_orders() {
    let mut st = trio();
    let n = st.nations.get_mut("TUR").unwrap();
    n.options.ai = true;
    n.tech.l = 80;
    let mut sc = Scratch::default();
    sc.items = items(
        &st,
        "tur",
        "IST CE 1\nIST 2 INF MOVE ANK\nIST 2 LT MOVE BUL",
    );
    // Roll 22 ≤ 22: crisis; picks 1 of 3, then 1 of 2.
    step(&mut st, &mut sc, intake::ai_crisis, vec![22, 1, 1]);
    assert_eq!(sc.deleted.len(), 2);
    assert!(sc.deleted.contains(&("TUR".to_string(), 1)));
    assert!(sc.deleted.contains(&("TUR".to_string(), 2)));
    let mut sc2 = Scratch::default();
    sc2.items = sc.items.clone();
    step(&mut st, &mut sc2, intake::ai_crisis, vec![23]);
    assert!(sc2.deleted.is_empty());
}

#[test]
fn wwk_74_guerrilla_appears_on_success() {
    let mut st = trio();
    st.turn = 1;
    hold(&mut st, "EGY", "SIN");
    hold(&mut st, "TUR", "ANK");
    let mut sc = Scratch::default();
    sc.items = items(&st, "tur", "ANK SPY RG SIN");
    // fail roll 99 (success), detection 99, 1d2 = 2.
    step(&mut st, &mut sc, intel::espionage, vec![99, 99, 2]);
    assert_eq!(
        st.units
            .values()
            .filter(|u| u.owner == GUERRILLA && u.at == "SIN")
            .count(),
        2
    );
    // Not against a capital.
    let mut sc = Scratch::default();
    sc.items = items(&st, "tur", "ANK SPY RG CAI");
    step(&mut st, &mut sc, intel::espionage, vec![]);
    assert!(sc
        .results
        .values()
        .any(|r| r.contains("contre une capitale")));
}

#[test]
fn wwk_75_infiltration_tv16() {
    let mut st = trio();
    st.zone_mut("CAI").infiltration.insert("TUR".into(), 15);
    let mut sc = Scratch::default();
    sc.items = items(&st, "tur", "IST SPY IN CAI");
    // Success on a capital: 1d10 = 7 → 22 → capped at 20.
    step(&mut st, &mut sc, intel::espionage, vec![99, 99, 7]);
    assert_eq!(st.zone("CAI").infiltration["TUR"], 20);
    let mut sc = Scratch::default();
    sc.items = items(&st, "tur", "IST SPY IN CAI");
    step(&mut st, &mut sc, intel::espionage, vec![1, 99]);
    assert_eq!(
        st.zone("CAI").infiltration["TUR"],
        1,
        "failure sets the score to 1"
    );
}

#[test]
fn wwk_76_propaganda_raises_partisans() {
    let mut st = trio();
    let before = count(&st, "TUR", "MIL", "IST");
    let mut sc = Scratch::default();
    sc.items = items(&st, "tur", "IST SPY RP");
    // TUR can build MIL and INF: the second most advanced is MIL. Success, 1d4 = 3.
    step(&mut st, &mut sc, intel::espionage, vec![99, 99, 3]);
    assert_eq!(count(&st, "TUR", "MIL", "IST"), before + 3);
}

#[test]
fn wwk_77_purge_removes_infiltration() {
    let mut st = trio();
    st.zone_mut("IST").infiltration.insert("EGY".into(), 6);
    st.zone_mut("IST").ce = 10;
    let mut sc = Scratch::default();
    sc.items = items(&st, "tur", "IST SPY PG");
    step(&mut st, &mut sc, intel::espionage, vec![99, 99]);
    assert!(st.zone("IST").infiltration.is_empty());
    assert_eq!(st.zone("IST").ce, 0);
    st.zone_mut("IST").infiltration.insert("EGY".into(), 6);
    let mut sc = Scratch::default();
    sc.items = items(&st, "tur", "IST SPY PG");
    step(&mut st, &mut sc, intel::espionage, vec![1, 99]);
    assert_eq!(st.zone("IST").infiltration["EGY"], 3);
    assert!(st.zone("IST").pg_malus.contains("TUR"));
}

#[test]
fn wwk_78_rc_reports_at_phase_2_and_phase_4() {
    let mut st = trio();
    let ev = turn(
        &mut st,
        &[("tur", "IST SPY RC CAI")],
        &[("2.2", vec![99, 99])],
    );
    let t = texts(&ev);
    assert!(t.contains("[CAI] RC fin de phase 2 : [CTRL] EGY :"), "{t}");
    assert!(t.contains("[CAI] RC fin de phase 4 :"));
    let ev = turn(
        &mut st,
        &[("tur", "IST SPY RC CAI")],
        &[("2.2", vec![1, 99])],
    );
    let t = texts(&ev);
    assert!(t.contains("RC fin de phase 2") && !t.contains("RC fin de phase 4"));
    let ev = turn(
        &mut st,
        &[("tur", "NAT SPY RT EGY")],
        &[("2.2", vec![1, 99])],
    );
    let t = texts(&ev);
    assert!(
        t.contains("types : I spécialité") && !t.contains("niveaux"),
        "{t}"
    );
}

#[test]
fn wwk_79_sabotage_resources_aircraft_and_warheads() {
    let mut st = trio();
    let f0 = st.ledger("EGY", "CAI");
    let mut sc = Scratch::default();
    sc.items = items(&st, "tur", "IST SPY SR CAI");
    // 1d6 = 2 units; stock N4 F4 (order N M P O F U): picks 0 → N, 7 → F.
    step(&mut st, &mut sc, intel::espionage, vec![99, 99, 2, 1, 7]);
    let f1 = st.ledger("EGY", "CAI");
    assert_eq!((f0.n - f1.n, f0.f - f1.f), (1, 1));
    let planes = st
        .units
        .values()
        .filter(|u| u.owner == "EGY" && sp(&u.code).is_air())
        .count();
    let mut sc = Scratch::default();
    sc.items = items(&st, "tur", "IST SPY SA CAI");
    step(&mut st, &mut sc, intel::espionage, vec![99, 99, 1]);
    assert_eq!(
        st.units
            .values()
            .filter(|u| u.owner == "EGY" && sp(&u.code).is_air())
            .count(),
        planes - 1
    );
}

#[test]
fn wwk_86_landed_units_without_depl_are_destroyed_when_affected() {
    let mut st = trio();
    st.set_diplo("TUR", "GRE", Diplo::War);
    hold(&mut st, "GRE", "BUL");
    let t = st.add_unit("TUR", "INF", "BUL");
    let mut sc = Scratch::default();
    sc.landed.insert(t);
    // Sides GRE then TUR. GRE INF: 99; TUR INF (D = A + d = 7, FA 3): 21/42, roll 30 → RETREAT → destroyed.
    step(&mut st, &mut sc, combat::combat, vec![99, 30]);
    assert!(st.unit(t).is_none());
}

#[test]
fn wwk_88_warship_damage_tv33() {
    let mut st = trio();
    st.set_diplo("TUR", "GRE", Diplo::War);
    let g = st.add_unit("GRE", "DD", "AEG");
    st.add_unit("TUR", "DD", "AEG");
    let mut sc = Scratch::default();
    // Naval round: GRE DD 10 (destroyed), TUR DD 99; then damage 40 (damaged), 70 (stays).
    step(&mut st, &mut sc, combat::combat, vec![10, 99, 40, 70]);
    let d = st.unit(g).unwrap();
    assert!(d.damaged);
    assert_eq!(d.at, "AEG");
}

#[test]
fn wwk_89_submarine_phase_uses_s_against_subs() {
    let mut st = trio();
    st.set_diplo("TUR", "GRE", Diplo::War);
    let ss = st.add_unit("GRE", "SS", "AEG");
    let dd = st.add_unit("TUR", "DD", "AEG");
    let mut sc = Scratch::default();
    // Sub phase: GRE's surface ships (none); GRE SS hit by DD s 6 vs FD 10 → 30/60: roll 99.
    // TUR DD hit by SS A 6 vs FD 8 → 37/75: roll 99. Naval phase: no surface pair, no sub pair.
    let ev = step(&mut st, &mut sc, combat::combat, vec![99, 99]);
    let t = texts(&ev);
    assert!(
        t.contains(&format!("GRE #{ss} SS FA 6 FD 10 seuils 30/60")),
        "{t}"
    );
    assert!(
        t.contains(&format!("TUR #{dd} DD FA 6 FD 8 seuils 37/75")),
        "{t}"
    );
}

#[test]
fn wwk_90_defensive_bombardment_by_idle_aircraft() {
    let mut st = trio();
    st.set_diplo("TUR", "GRE", Diplo::War);
    hold(&mut st, "GRE", "BUL");
    st.add_unit("GRE", "BMB", "BUL");
    st.add_unit("TUR", "LT", "BUL");
    let ev = turn(&mut st, &[], &[]);
    assert!(texts(&ev).contains("Bombardement défensif de GRE : 1 avion(s)"));
}

#[test]
fn wwk_92_only_listed_types_fly_cap() {
    let mut st = trio();
    let ev = turn(&mut st, &[("tur", "IST 2 BMB CAPS BUL")], &[]);
    assert!(texts(&ev).contains("[IST] [2] [BMB] [CAPS] [BUL] ... FAILED : aucune unité capable"));
    let ev = turn(&mut st, &[("tur", "IST 2 FTR CAPS BUL")], &[]);
    assert!(texts(&ev).contains("[IST] [2] [FTR] [CAPS] [BUL] ... OK"));
}

#[test]
fn wwk_94_drop_starts_from_an_air_base() {
    let mut st = trio();
    hold(&mut st, "TUR", "ANK");
    for _ in 0..2 {
        st.add_unit("TUR", "AIR", "IST");
        st.add_unit("TUR", "AIR", "ANK");
    }
    let ev = turn(&mut st, &[("tur", "ANK 2 AIR DROP SYR")], &[]);
    assert!(texts(&ev).contains("FAILED : pas de base aérienne"));
    let ev = turn(&mut st, &[("tur", "IST 2 AIR DROP BUL")], &[]);
    assert!(
        texts(&ev).contains("2 unité(s) parachutée(s) en [BUL]"),
        "{}",
        texts(&ev)
    );
}

#[test]
fn wwk_96_transfer_and_emergency_fallback() {
    let mut st = trio();
    hold(&mut st, "TUR", "ANK");
    st.add_unit("TUR", "ABSE", "ANK");
    turn(&mut st, &[("tur", "IST 2 FTR TRSF ANK")], &[]);
    assert_eq!(count(&st, "TUR", "FTR", "ANK"), 2);
    // A bomber stranded in BUL (no base): nearest own base within R − 1 = 4.
    let b = st.add_unit("TUR", "BMB", "BUL");
    let mut sc = Scratch::default();
    step(&mut st, &mut sc, military::return_to_base, vec![]);
    assert_eq!(st.unit(b).unwrap().at, "IST");
}

#[test]
fn wwk_97_hmov_acav_carries_infantry() {
    let mut st = trio();
    hold(&mut st, "TUR", "ANK");
    for _ in 0..2 {
        st.add_unit("TUR", "ACAV", "IST");
        st.add_unit("TUR", "AINF", "IST");
    }
    let extra = st.add_unit("TUR", "AINF", "IST");
    let ev = turn(&mut st, &[("tur", "IST 3 AINF HMOV ANK")], &[]);
    st.remove_unit(extra);
    assert!(texts(&ev).contains("ACAV libres insuffisants"));
    turn(&mut st, &[("tur", "IST 2 AINF HMOV ANK")], &[]);
    assert_eq!(count(&st, "TUR", "AINF", "ANK"), 2);
    assert_eq!(count(&st, "TUR", "ACAV", "ANK"), 2);
}

#[test]
fn wwk_98_coastal_ships_and_straits() {
    let mut st = trio();
    let c = st.add_unit("TUR", "CST", "AEG");
    turn(&mut st, &[("tur", "AEG 1 CST MOVE ION")], &[]);
    assert_eq!(
        st.unit(c).unwrap().at,
        "AEG",
        "coastal ships stay off the high sea"
    );
    let g = st.add_unit("GRE", "DD", "BLA");
    turn(&mut st, &[("gre", "BLA 1 DD MOVE AEG")], &[]);
    assert_eq!(st.unit(g).unwrap().at, "BLA", "BLA-AEG needs IST");
    st.add_unit("TUR", "DD", "BLA");
    let t = st
        .units
        .values()
        .find(|u| u.owner == "TUR" && u.code == "DD" && u.at == "BLA")
        .unwrap()
        .id;
    turn(&mut st, &[("tur", "BLA 1 DD MOVE AEG")], &[]);
    assert_eq!(st.unit(t).unwrap().at, "AEG");
}

#[test]
fn wwk_99_land_transport_carries_two_infantry() {
    let mut st = trio();
    hold(&mut st, "TUR", "ANK");
    hold(&mut st, "TUR", "SYR");
    st.add_unit("TUR", "MINF", "IST");
    turn(&mut st, &[("tur", "IST 3 INF MOVE ANK SYR")], &[]);
    assert_eq!(
        count(&st, "TUR", "INF", "SYR"),
        1 + 2,
        "2 INF ride the MINF"
    );
    assert_eq!(
        count(&st, "TUR", "INF", "ANK"),
        1 + 1,
        "the third stops after one step"
    );
    assert_eq!(count(&st, "TUR", "MINF", "SYR"), 1);
}

#[test]
fn wwk_102_abmp_has_ten_shots_tv11() {
    let mut st = trio();
    st.set_diplo("TUR", "EGY", Diplo::War);
    let a = st.add_unit("EGY", "ABMP", "CAI");
    st.unit_mut(a).unwrap().ammo = 1;
    st.add_unit("TUR", "IRBM", "IST");
    st.add_unit("TUR", "IRBM", "IST");
    let mut sc = Scratch::default();
    sc.items = items(&st, "tur", "IST 2 IRBM MISS CAI");
    // Salvo 1: ABMP 99 (no), accuracy 100 (miss). Salvo 2: no ABMP roll left, accuracy 100.
    step(&mut st, &mut sc, military::missiles, vec![99, 100, 100]);
    assert_eq!(st.unit(a).unwrap().ammo, 0);
}

#[test]
fn wwk_103_ecm_cancels_a_conventional_affect_roll() {
    let mut st = trio();
    st.set_diplo("TUR", "EGY", Diplo::War);
    hold(&mut st, "EGY", "SIN");
    let amec = st.add_unit("EGY", "AMEC", "SIN");
    st.add_unit("TUR", "IRBM", "IST");
    let mut sc = Scratch::default();
    sc.items = items(&st, "tur", "IST 1 IRBM MISS SIN");
    // d(IST, SIN) = 4: accuracy 20; roll 1 hits; 2 candidates {AMEC, INF}: both, no pick roll (D-94);
    // fates: AMEC first (code order) roll 1 → ECM makes it 100; INF roll 99.
    step(&mut st, &mut sc, military::missiles, vec![1, 1, 99]);
    assert!(st.unit(amec).is_some());
    assert!(sc.ecm_used.contains(&amec));
}

#[test]
fn wwk_107_satellite_ground_attack_needs_recon_and_kill_table() {
    let mut st = trio();
    st.set_diplo("TUR", "EGY", Diplo::War);
    st.add_unit("TUR", "SPC", "IST");
    let l = st.add_unit("TUR", "LSAT", "#0101");
    let ev = turn(&mut st, &[("tur", "IST 1 LSAT SATT CAI")], &[]);
    assert!(texts(&ev).contains("FAILED : pas de reconnaissance de [CAI] ce tour"));
    let r = st.add_unit("EGY", "RSAT", "#0102");
    let mut sc = Scratch::default();
    sc.items = items(&st, "tur", "IST #0101 SATT #0102");
    // LSAT against RSAT: 80 + 10 = 90; roll 90 kills.
    step(&mut st, &mut sc, military::space, vec![90]);
    assert!(st.unit(r).is_none());
    assert!(st.unit(l).is_some());
}

#[test]
fn wwk_108_land_recon_reports_at_end_of_phase_4() {
    let mut st = trio();
    let ev = turn(&mut st, &[("tur", "IST 1 LT RECN BUL")], &[]);
    assert!(texts(&ev)
        .contains("[BUL] RECN fin de phase 4 : aucune information (zone neutre jamais envahie)"));
    let ev = turn(&mut st, &[("tur", "IST 1 LT RECN CAI")], &[]);
    assert!(texts(&ev).contains("FAILED : [CAI] n'est pas adjacente"));
}

#[test]
fn wwk_109_infantry_without_retreat_is_destroyed() {
    let mut st = trio();
    st.set_diplo("TUR", "GRE", Diplo::War);
    hold(&mut st, "GRE", "MAC");
    let t = st.add_unit("TUR", "INF", "MAC");
    let mut sc = Scratch::default();
    sc.retreat.insert(t, "MAC".into());
    // MAC's neighbours BUL (neutral), ATH (GRE), AEG, ION: none is TUR's.
    step(&mut st, &mut sc, combat::resolve_retreats, vec![]);
    assert!(st.unit(t).is_none());
    let lt = st.add_unit("TUR", "LT", "MAC");
    let mut sc = Scratch::default();
    sc.retreat.insert(lt, "MAC".into());
    step(&mut st, &mut sc, combat::resolve_retreats, vec![50]);
    assert_eq!(sc.no_retreat.get(&lt), Some(&true), "50 → captured");
}

#[test]
fn wwk_112_units_in_a_non_allied_zone_surrender_or_demobilise() {
    let mut st = trio();
    st.set_diplo("TUR", "GRE", Diplo::War);
    hold(&mut st, "GRE", "MAC");
    let lt = st.add_unit("TUR", "LT", "MAC");
    let mut sc = Scratch::default();
    step(&mut st, &mut sc, control::forced_retreat, vec![]);
    assert_eq!(st.unit(lt).unwrap().owner, "GRE", "at war: surrender");
    let lt2 = st.add_unit("EGY", "LT", "MAC");
    step(&mut st, &mut sc, control::forced_retreat, vec![]);
    assert!(st.unit(lt2).is_none(), "at peace: demobilised");
}

#[test]
fn wwk_114_guerrilla_clash_tv34_and_reversion() {
    let mut st = trio();
    hold(&mut st, "TUR", "ANK");
    let g1 = st.add_unit(GUERRILLA, "INF", "ANK");
    st.add_unit(GUERRILLA, "INF", "ANK");
    let mut sc = Scratch::default();
    // Own INF: 37/75 (roll 99); guerrillas FD 16: 9/18 (rolls 9, 99).
    let ev = step(&mut st, &mut sc, control::guerrilla, vec![99, 9, 99]);
    assert!(texts(&ev).contains("seuils 37/75"));
    assert!(texts(&ev).contains("seuils 9/18"));
    assert!(st.unit(g1).is_none());
    // Only guerrillas left as infantry: the zone reverts to neutral.
    let own = st
        .units
        .values()
        .find(|u| u.owner == "TUR" && u.at == "ANK")
        .unwrap()
        .id;
    st.remove_unit(own);
    let mut sc = Scratch::default();
    step(&mut st, &mut sc, control::control, vec![]);
    assert_eq!(st.zone("ANK").status, Status::Neutral);
    assert_eq!(
        st.units
            .values()
            .filter(|u| u.owner == GUERRILLA && u.at == "ANK")
            .count(),
        0
    );
}

#[test]
fn wwk_113_garrison_on_first_attack_tv15() {
    let mut st = trio();
    let mut sc = Scratch::default();
    // SYR has symbols P N: 2 MIL + rolls 45 (MIL) and 88 (ABSE + FB).
    sc.items = items(&st, "tur", "IST 2 BMB BOMB SYR");
    step(
        &mut st,
        &mut sc,
        military::air,
        vec![45, 88, 99, 99, 99, 99, 99, 99, 99, 99],
    );
    let g = st.zone("SYR").garrison.clone().unwrap();
    assert_eq!(g, vec!["MIL", "MIL", "MIL", "ABSE", "FB"]);
}

#[test]
fn wwk_117_end_conditions() {
    let mut st = trio();
    let mut sc = Scratch::default();
    for f in Field::ALL {
        st.nations.get_mut("GRE").unwrap().tech.set(f, 81);
    }
    step(&mut st, &mut sc, economy::victory, vec![]);
    assert!(st.ended);
    assert_eq!(st.winner, Some(vec!["GRE".to_string()]));
    use arbitre_core::Ruleset;
    let o = arbitre_wwk::Wwk.outcome(&st).unwrap();
    assert_eq!(o.ranking[0].rank, 1);
}

#[test]
fn wwk_118_report_shows_own_zones_and_hides_others() {
    use arbitre_core::{Ruleset, Viewer};
    let st = trio();
    let r = arbitre_wwk::Wwk
        .report(&st, &[], &Viewer::Player("tur".into()))
        .body;
    assert!(r.contains("[IST] Istanbul  [CTRL] TUR [CAPITAL]  symboles F N"));
    assert!(r.contains("TUR Stock 20ec F4 N4 M0 P0 O0 U0  usines 16  CE 0"));
    // Fog of war: Cairo has no ZONES line; the zone table (issue 18) names it
    // with its neighbours but its control is unknown.
    assert!(!r.contains("[CAI] Le Caire  ["), "fog of war");
    assert!(r.contains("[CAI] Le Caire (terre) ? | "), "fog of war");
    assert!(!r.contains("EGY"), "fog of war");
    let gm = arbitre_wwk::Wwk.report(&st, &[], &Viewer::GameMaster).body;
    assert!(gm.contains("[CAI] Le Caire"));
}

#[test]
fn wwk_119_public_news_and_private_espionage() {
    use arbitre_core::{Ruleset, Viewer};
    let mut st = trio();
    st.nations.get_mut("TUR").unwrap().tech.a = 30;
    st.add_unit("TUR", "SPC", "IST");
    st.ledger_mut("TUR", "IST").m = 2;
    st.ledger_mut("TUR", "IST").o = 2;
    let ev = turn(
        &mut st,
        &[("tur", "IST BUILD RSAT 1\nIST SPY RR CAI")],
        &[("2.2", vec![99, 99])],
    );
    let egy = arbitre_wwk::Wwk
        .report(&st, &ev, &Viewer::Player("egy".into()))
        .body;
    assert!(egy.contains("ESPACE  RSAT #0101 lancé depuis [IST]"));
    assert!(!egy.contains("RR [CAI]"));
    let tur = arbitre_wwk::Wwk
        .report(&st, &ev, &Viewer::Player("tur".into()))
        .body;
    assert!(tur.contains("[CAI] RR [CAI] :"));
}

#[test]
fn wwk_120_report_layout_and_bracket_echo() {
    use arbitre_core::{Ruleset, Viewer};
    let mut st = trio();
    let ev = turn(&mut st, &[("tur", "ist [2] [inf] [MOVE] [ANK]")], &[]);
    let r = arbitre_wwk::Wwk
        .report(&st, &ev, &Viewer::Player("tur".into()))
        .body;
    assert!(r.starts_with(
        "WWK RAPPORT DE TOUR  partie=t  tour=1  nation=TUR (Turquie)\n== NATION ==\nTech  I "
    ));
    assert!(r.contains("== ORDRES ==\n[IST] [2] [INF] [MOVE] [ANK] ... OK"));
    let order = [
        "== NATION ==",
        "== ORDRES ==",
        "== ZONES ==",
        "== ÉCONOMIE ==",
        "== RECHERCHE ==",
    ];
    let pos: Vec<usize> = order
        .iter()
        .map(|s| r.find(s).unwrap_or(usize::MAX))
        .collect();
    assert!(pos.windows(2).all(|w| w[0] < w[1]), "{pos:?}");
}

#[test]
fn wwk_100_stealth_may_slip_past_a_cap() {
    for (roll, slips) in [(20u64, true), (21, false)] {
        let mut st = trio();
        st.set_diplo("TUR", "GRE", Diplo::War);
        hold(&mut st, "GRE", "BUL");
        let cap = st.add_unit("GRE", "FTR", "BUL");
        st.add_unit("TUR", "SBMB", "IST");
        let mut sc = Scratch::default();
        sc.caps.insert(cap, "BUL".into());
        sc.items = items(&st, "tur", "IST 1 SBMB BOMB BUL");
        // IST (departure) has no enemy CAP; BUL is the arrival zone: 20%.
        let mut rolls = vec![roll];
        // Not slipping: CAP fate (FA 0: no roll), SBMB fate vs FA 6 / FD 26 → 11/23: 99.
        if !slips {
            rolls.push(99);
        }
        // Bombing: FA 18 vs INF 8 + FTR 10: two ground rolls, DCA a 6 vs 26: one roll.
        rolls.extend([99, 99, 99]);
        let ev = step(&mut st, &mut sc, military::air, rolls);
        assert_eq!(
            texts(&ev).contains("furtif ignore la CAP (jet 20 <= 20)"),
            slips,
            "{}",
            texts(&ev)
        );
    }
}

#[test]
fn wwk_111_each_factory_rolls_25_on_capture() {
    let mut st = trio();
    st.set_diplo("TUR", "GRE", Diplo::War);
    st.zone_mut("BUL").status = Status::Controlled { by: "GRE".into() };
    for _ in 0..3 {
        st.add_unit("GRE", "FAC", "BUL");
    }
    st.add_unit("TUR", "INF", "BUL");
    let mut sc = Scratch::default();
    step(&mut st, &mut sc, control::control, vec![]);
    step(&mut st, &mut sc, control::control_effects, vec![1, 25, 26]);
    assert_eq!(count(&st, "TUR", "FAC", "BUL"), 1);
}

#[test]
fn wwk_6_a_full_position_in_toml_resumes_mid_game() {
    let mut st = position(
        r#"
turn = 7
[params]
max_turns = 10
[nations.TUR]
name = "Turquie"
player = "ali"
specialty = "L"
weaknesses = ["N"]
tech = { I = 20, V = 30, A = 10, Nv = 5, N = 0, L = 41 }
treasury = 12
[nations.GRE]
name = "Grèce"
player = "zoe"
specialty = "Nv"
tech = { I = 10, V = 10, A = 10, Nv = 20, N = 0, L = 10 }
[diplomacy]
"GRE-TUR" = "war"
[zones.IST]
status = { kind = "controlled", by = "TUR" }
ce = 8
ledgers.TUR = { ec = 30, F = 5, N = 5 }
[zones.BUL]
status = { kind = "contested", by = ["GRE", "TUR"], holder = "GRE" }
[[units]]
id = 1
owner = "TUR"
code = "INF"
at = "IST"
[[units]]
id = 2
owner = "TUR"
code = "HT"
at = "BUL"
[[units]]
id = 3
owner = "GRE"
code = "INF"
at = "BUL"
"#,
    );
    assert_eq!(st.turn, 7);
    assert_eq!(st.nations["TUR"].player, "ali");
    assert_eq!(st.diplo("TUR", "GRE"), Diplo::War);
    assert_eq!(st.zone("IST").ce, 8);
    assert!(matches!(st.zone("BUL").status, Status::Contested { .. }));
    let ev = turn(&mut st, &[("ali", "IST XFER 2 EC NAT")], &[]);
    assert_eq!(st.turn, 8);
    assert!(texts(&ev).contains("== COMBAT [BUL] tour 8"));
    // 12 + 2 transferred − 1 for the HT's maintenance in BUL (no ledger there, D-65).
    assert_eq!(st.nations["TUR"].treasury, 13);
}

#[test]
fn wwk_2_world_scenario_for_eight_nations() {
    use arbitre_core::{PlayerId, PlayerSetup, Rng, Ruleset, SetupConfig};
    // Each seat names its nation (issue 18 item 3), in the scenario's order.
    let players: Vec<PlayerSetup> = ["FRA", "GBR", "GER", "RUS", "ITA", "ESP", "TUR", "EGY"]
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let mut options = toml::Table::new();
            options.insert("nation".into(), (*n).into());
            PlayerSetup {
                id: PlayerId::new(format!("p{i}")),
                name: format!("P{i}"),
                options,
            }
        })
        .collect();
    let mut opts = toml::Table::new();
    opts.insert("map".into(), "monde".into());
    let cfg = SetupConfig {
        game_id: "w".into(),
        seed: 1,
        players,
        options: opts,
        ..Default::default()
    };
    let st = arbitre_wwk::Wwk
        .setup(&cfg, &mut Rng::for_setup(1))
        .unwrap();
    assert_eq!(st.nations.len(), 8);
    assert!(st.is_capital("RUS", "MOS"));
    assert_eq!(count(&st, "RUS", "DD", "MOS"), 0, "Moscow is not coastal");
    // A player may pick a nation; parameters of [rules] override the scenario.
    let mut opts = toml::Table::new();
    opts.insert("map".into(), "trio".into());
    opts.insert("max_turns".into(), 12.into());
    let mut p = PlayerSetup {
        id: PlayerId::new("x"),
        name: "X".into(),
        options: Default::default(),
    };
    p.options.insert("nation".into(), "GRE".into());
    let cfg = SetupConfig {
        game_id: "w".into(),
        seed: 1,
        players: vec![p],
        options: opts,
        ..Default::default()
    };
    let st = arbitre_wwk::Wwk
        .setup(&cfg, &mut Rng::for_setup(1))
        .unwrap();
    assert_eq!(st.nations.keys().collect::<Vec<_>>(), vec!["GRE"]);
    assert_eq!(st.params.max_turns, 12);
    assert_eq!(
        st.zone("IST").status,
        Status::Neutral,
        "a nation without a player stays out"
    );
}

#[test]
fn wwk_27_ai_crisis_is_cumulative_and_the_zone_acts_last() {
    assert_eq!(intake::ai_crisis_chance(80, 0), 22);
    assert_eq!(intake::ai_crisis_chance(80, 1), 44);
    assert_eq!(intake::ai_crisis_chance(100, 2), 6);
    let mut st = trio();
    let n = st.nations.get_mut("TUR").unwrap();
    n.options.ai = true;
    n.tech.l = 80;
    st.zone_mut("IST").ai_counter = 1;
    let mut sc = Scratch::default();
    sc.nation_order = vec!["TUR".into(), "EGY".into()];
    sc.items = items(&st, "tur", "IST CE 1\nIST CE 1\nIST CE 1");
    sc.items.extend(items(&st, "egy", "CAI CE 1"));
    sc.sc_hit.insert("CAI".into());
    // 44% this turn: roll 44 is a crisis; picks 1 of 3, 1 of 2.
    step(&mut st, &mut sc, intake::ai_crisis, vec![44, 1, 1]);
    assert_eq!(st.zone("IST").ai_counter, 0);
    let order: Vec<String> = activation(&sc, &st, |_| true)
        .iter()
        .map(|i| format!("{}{}", i.nation, i.line))
        .collect();
    assert_eq!(
        order,
        vec!["EGY1", "TUR3"],
        "crisis zone after the SC-hit zone"
    );
}

#[test]
fn wwk_86_infantry_landed_by_a_land_transport() {
    let mut st = trio();
    st.set_diplo("TUR", "GRE", Diplo::War);
    hold(&mut st, "GRE", "MAC");
    hold(&mut st, "TUR", "BUL");
    let m = st.add_unit("TUR", "MINF", "IST");
    let _ = m;
    let a = st.add_unit("TUR", "INF", "IST");
    let mut sc = Scratch::default();
    sc.items = items(&st, "tur", "IST 1 INF MOVE BUL MAC");
    step(&mut st, &mut sc, military::movement, vec![]);
    let inf = st
        .units
        .values()
        .find(|u| u.owner == "TUR" && u.code == "INF" && u.at == "MAC")
        .map(|u| u.id)
        .unwrap();
    assert!(sc.carried.contains(&inf) && sc.landed.contains(&inf));
    let _ = a;
}

#[test]
fn wwk_95_escorted_bombers_are_untouched_while_escorts_remain() {
    let mut st = trio();
    st.set_diplo("TUR", "GRE", Diplo::War);
    hold(&mut st, "GRE", "BUL");
    let c1 = st.add_unit("GRE", "FTR", "BUL");
    let c2 = st.add_unit("GRE", "FTR", "BUL");
    let mut sc = Scratch::default();
    sc.caps.insert(c1, "BUL".into());
    sc.caps.insert(c2, "BUL".into());
    sc.items = items(&st, "tur", "IST 2 BMB BOMB BUL\nIST >> 2 FTR ESCT");
    // CAP at BUL: 2 CAP rolls and 2 escort rolls (30/60 each), then the bombing:
    // 3 ground rolls, and the DCA (a 12) fires at the 2 escorts (FD 20).
    let ev = step(&mut st, &mut sc, military::air, vec![99; 9]);
    let t = texts(&ev);
    assert!(
        t.contains("CAP en [BUL] : FA 12 FD 20 contre FA 12 FD 20"),
        "{t}"
    );
    assert!(t.contains("DCA FA 12 contre FD 20"), "{t}");
    assert!(
        !t.contains(" BMB seuils"),
        "the bombers are never engaged: {t}"
    );
}

#[test]
fn wwk_93_dual_aircraft_fight_with_a_halved_on_bombing_missions() {
    let mut st = trio();
    st.set_diplo("TUR", "GRE", Diplo::War);
    hold(&mut st, "GRE", "BUL");
    let c1 = st.add_unit("GRE", "FTR", "BUL");
    for _ in 0..2 {
        st.add_unit("TUR", "FB", "IST");
    }
    let mut sc = Scratch::default();
    sc.caps.insert(c1, "BUL".into());
    sc.items = items(&st, "tur", "IST 2 FB BOMB BUL");
    let ev = step(&mut st, &mut sc, military::air, vec![99; 8]);
    // 2 FB: a 5 each, halved → 5; D (5+4) each → 18.
    assert!(texts(&ev).contains("contre FA 5 FD 18"), "{}", texts(&ev));
}

#[test]
fn wwk_106_tacd_fires_at_the_attackers() {
    let mut st = trio();
    st.set_diplo("TUR", "GRE", Diplo::War);
    hold(&mut st, "GRE", "BUL");
    let ssm = st.add_unit("GRE", "SSM", "BUL");
    st.unit_mut(ssm).unwrap().heads.push("5K".into());
    st.zone_mut("BUL").tacd.insert("GRE".into());
    st.add_unit("TUR", "LT", "BUL");
    st.add_unit("TUR", "LT", "BUL");
    let mut sc = Scratch::default();
    // Attackers' FA 12 ≥ defenders' FD 12 / 2: one launcher fires one 5K.
    // Direct hit roll 50 (≤ 100), pick 1 of 2 LT, EMP on the other: 10 − 2 friendly = 8, roll 8.
    step(&mut st, &mut sc, combat::combat, vec![50, 1, 8]);
    assert_eq!(count(&st, "TUR", "LT", "BUL"), 0);
    assert!(st.unit(ssm).unwrap().heads.is_empty());
    assert!(st.market.first_nuke_used);
}

#[test]
fn wwk_106_no_tacd_fire_against_a_weak_attack() {
    let mut st = trio();
    st.set_diplo("TUR", "GRE", Diplo::War);
    hold(&mut st, "GRE", "BUL");
    for _ in 0..3 {
        st.add_unit("GRE", "INF", "BUL");
    }
    let ssm = st.add_unit("GRE", "SSM", "BUL");
    st.unit_mut(ssm).unwrap().heads.push("5K".into());
    st.zone_mut("BUL").tacd.insert("GRE".into());
    st.add_unit("TUR", "LT", "BUL");
    st.add_unit("TUR", "LT", "BUL");
    let mut sc = Scratch::default();
    // FA 12 < FD 36 / 2: no warhead; the land round rolls 5 + 2 times.
    step(&mut st, &mut sc, combat::combat, vec![99; 7]);
    assert_eq!(st.unit(ssm).unwrap().heads, vec!["5K".to_string()]);
}

#[test]
fn wwk_103_ecm_halves_satellite_fire_and_satc_halves_again() {
    let mut st = trio();
    st.set_diplo("TUR", "EGY", Diplo::War);
    st.add_unit("TUR", "SPC", "IST");
    st.add_unit("TUR", "LSAT", "#0101");
    hold(&mut st, "EGY", "SIN");
    let mut sc = Scratch::default();
    sc.recon.insert(("TUR".into(), "SIN".into()));
    sc.items = items(&st, "tur", "IST 1 LSAT SATT SIN");
    let ev = step(&mut st, &mut sc, military::sat_ground, vec![99]);
    assert!(
        texts(&ev).contains("== SATELLITES contre [SIN] : FA 10 FD 8 =="),
        "{}",
        texts(&ev)
    );
    st.add_unit("EGY", "AMEC", "SIN");
    let mut sc = Scratch::default();
    sc.recon.insert(("TUR".into(), "SIN".into()));
    sc.items = items(&st, "tur", "IST 1 LSAT SATC SIN");
    let ev = step(&mut st, &mut sc, military::sat_ground, vec![99, 99]);
    assert!(texts(&ev).contains("FA 2.5 FD 32"), "{}", texts(&ev));
}

#[test]
fn wwk_107_ksat_is_single_use_and_can_be_intercepted() {
    let mut st = trio();
    st.add_unit("TUR", "SPC", "IST");
    st.add_unit("EGY", "QSAT", "#0201");
    let r = st.add_unit("EGY", "RSAT", "#0202");
    let k = st.add_unit("TUR", "KSAT", "#0203");
    let mut sc = Scratch::default();
    sc.items = items(&st, "tur", "IST #0203 SATT #0202");
    step(&mut st, &mut sc, military::space, vec![25]);
    assert!(
        st.unit(k).is_none() && st.unit(r).is_some(),
        "intercepted by the QSAT (25 ≤ 25)"
    );
    let k2 = st.add_unit("TUR", "KSAT", "#0204");
    let mut sc = Scratch::default();
    sc.items = items(&st, "tur", "IST #0204 SATT #0202");
    step(&mut st, &mut sc, military::space, vec![26, 80]);
    assert!(
        st.unit(k2).is_none() && st.unit(r).is_none(),
        "kill 80% on an RSAT, KSAT consumed"
    );
}

#[test]
fn wwk_68_soylent_green_gains_food_from_killed_infantry() {
    let mut st = trio();
    st.nations.get_mut("TUR").unwrap().options.soylent_green = true;
    hold(&mut st, "TUR", "BUL");
    let mut sc = Scratch::default();
    sc.infantry_killed.insert("BUL".into(), 2);
    step(&mut st, &mut sc, control::control_effects, vec![]);
    assert_eq!(st.ledger("TUR", "BUL").n, 2);
}

#[test]
fn wwk_78_rs_adds_adjacent_zones_of_the_same_nation() {
    let mut st = trio();
    hold(&mut st, "EGY", "SIN");
    st.zone_mut("SIN").ce = 4;
    let ev = turn(
        &mut st,
        &[("tur", "IST SPY RS CAI")],
        &[("2.2", vec![99, 99])],
    );
    let t = texts(&ev);
    assert!(
        t.contains("RS [CAI] : CE 0") && t.contains("RS [SIN] : CE 2"),
        "{t}"
    );
}

#[test]
fn wwk_110_shared_zone_and_capital_tiebreak() {
    let mut st = trio();
    st.add_unit("TUR", "INF", "BUL");
    st.add_unit("GRE", "INF", "BUL");
    let mut sc = Scratch::default();
    step(&mut st, &mut sc, control::control, vec![]);
    assert_eq!(
        st.zone("BUL").status,
        Status::Shared {
            by: vec!["GRE".into(), "TUR".into()]
        }
    );
    for _ in 0..16 {
        st.add_unit("TUR", "FAC", "BUL");
    }
    let mut sc = Scratch::default();
    step(&mut st, &mut sc, control::control, vec![]);
    assert_eq!(
        st.zone("BUL").status,
        Status::Controlled { by: "TUR".into() },
        "more than 15 factories"
    );
    // At war: contested, the holder stays the defender.
    st.set_diplo("TUR", "GRE", Diplo::War);
    let mut sc = Scratch::default();
    step(&mut st, &mut sc, control::control, vec![]);
    assert_eq!(
        st.zone("BUL").status,
        Status::Contested {
            by: vec!["GRE".into(), "TUR".into()],
            holder: Some("TUR".into())
        }
    );
}

#[test]
fn wwk_92_carrier_caps_are_recalled_when_the_carrier_moves() {
    let mut st = trio();
    let cv = st.add_unit("GRE", "CV", "AEG");
    let f = st.add_unit("GRE", "FTR", "AEG");
    let mut sc = Scratch::default();
    sc.caps.insert(f, "ATH".into());
    sc.ordered.insert(cv);
    sc.items = items(&st, "gre", "AEG 1 CV MOVE ION");
    step(&mut st, &mut sc, military::cap_recall, vec![]);
    assert!(sc.caps.is_empty());
}

#[test]
fn wwk_102_one_acm_interception_per_aircraft() {
    let mut st = trio();
    st.set_diplo("TUR", "EGY", Diplo::War);
    hold(&mut st, "EGY", "SIN");
    let f = st.add_unit("EGY", "FTR", "SIN");
    st.add_unit("TUR", "CA", "EMD");
    st.add_unit("TUR", "CA", "EMD");
    let mut sc = Scratch::default();
    sc.caps.insert(f, "SIN".into());
    sc.items = items(&st, "tur", "EMD 2 CA MISS SIN");
    // EMD→SIN: d 2 (EMD-RED-SIN or EMD-ISR-SIN). Salvo 1: ACM roll 20 ≤ 20: intercepted.
    // Salvo 2: the FTR has intercepted already; accuracy 60: roll 61 misses.
    let ev = step(&mut st, &mut sc, military::missiles, vec![20, 61]);
    let t = texts(&ev);
    assert!(
        t.contains(&format!("ACM #{f} en [SIN] intercepte (jet 20 <= 20)")),
        "{t}"
    );
    assert!(t.contains("manquée (jet 61 > 60)"), "{t}");
}

#[test]
fn wwk_109_ship_captured_by_infantry_aboard_a_transport() {
    let mut st = trio();
    st.set_diplo("TUR", "GRE", Diplo::War);
    let dd = st.add_unit("GRE", "DD", "ION");
    st.add_unit("TUR", "TLS", "ION");
    let inf = st.add_unit("TUR", "MAR", "ION");
    // No GRE-held or neutral... ION's neighbours: AEG, MAC, ATH, LBY, EMD. Make them all unavailable.
    for z in ["AEG", "EMD"] {
        st.zone_mut(z).status = Status::Controlled { by: "TUR".into() };
    }
    for z in ["MAC", "ATH", "LBY"] {
        st.zone_mut(z).status = Status::Controlled { by: "EGY".into() };
    }
    let mut sc = Scratch::default();
    sc.retreat.insert(dd, "ION".into());
    step(&mut st, &mut sc, combat::resolve_retreats, vec![50]);
    assert_eq!(st.unit(dd).unwrap().owner, "TUR");
    assert!(st.unit(inf).is_none(), "the boarding infantry is spent");
}

#[test]
fn wwk_96_transfers_fly_with_halved_values() {
    let mut st = trio();
    st.set_diplo("TUR", "GRE", Diplo::War);
    hold(&mut st, "TUR", "ANK");
    st.add_unit("TUR", "ABSE", "ANK");
    let cap = st.add_unit("GRE", "FTR", "ANK");
    let mut sc = Scratch::default();
    sc.caps.insert(cap, "ANK".into());
    sc.items = items(&st, "tur", "IST 2 FTR TRSF ANK");
    let ev = step(&mut st, &mut sc, military::air, vec![99, 99, 99]);
    assert!(
        texts(&ev).contains("CAP en [ANK] : FA 6 FD 10 contre FA 6 FD 10"),
        "{}",
        texts(&ev)
    );
    assert_eq!(count(&st, "TUR", "FTR", "ANK"), 2);
}

#[test]
fn wwk_99_naval_transport_capacity() {
    let mut st = trio();
    hold(&mut st, "TUR", "ATH");
    st.zone_mut("ATH").status = Status::Controlled { by: "TUR".into() };
    // IST holds 1 TLS (TRN 2): of 3 INF sailing to ATH through AEG, 2 go.
    let mut sc = Scratch::default();
    sc.items = items(&st, "tur", "IST 3 INF MOVE AEG ATH");
    step(&mut st, &mut sc, military::movement, vec![]);
    assert_eq!(count(&st, "TUR", "INF", "ATH"), 1 + 2);
    assert_eq!(
        count(&st, "TUR", "TLS", "ATH"),
        1,
        "the transport sails with them"
    );
}

#[test]
fn wwk_90_helicopters_on_a_cvh_join_the_defensive_strike_at_sea() {
    let mut st = trio();
    st.set_diplo("TUR", "GRE", Diplo::War);
    st.zone_mut("ION").status = Status::Controlled { by: "GRE".into() };
    st.add_unit("GRE", "CVH", "ION");
    st.add_unit("GRE", "AH", "ION");
    st.add_unit("TUR", "DD", "ION");
    let ev = turn(&mut st, &[], &[]);
    assert!(
        texts(&ev).contains("Bombardement défensif de GRE : 1 avion(s)"),
        "{}",
        texts(&ev)
    );
}

#[test]
fn wwk_89_nuclear_torpedoes_fire_before_the_naval_fight() {
    let mut st = trio();
    st.set_diplo("TUR", "GRE", Diplo::War);
    st.zone_mut("ION").status = Status::Controlled { by: "GRE".into() };
    st.zone_mut("ION").tacd.insert("GRE".into());
    let ssn = st.add_unit("GRE", "SSN", "ION");
    st.unit_mut(ssn).unwrap().heads.push("5K".into());
    // Three DD: attackers' FA 12 ≥ the SSN's FD 18 / 2, so the torpedo fires.
    for _ in 0..3 {
        st.add_unit("TUR", "DD", "ION");
    }
    let ev = turn(&mut st, &[], &[]);
    let t = texts(&ev);
    let fire = t
        .find(&format!("Tir nucléaire tactique de GRE #{ssn} SSN (5K)"))
        .expect(&t);
    let naval = t.find("Phase sous-marine").unwrap_or(usize::MAX);
    assert!(fire < naval, "{t}");
}

#[test]
fn wwk_53_an_mslp_takes_the_local_warheads_into_orbit() {
    let mut st = trio();
    let n = st.nations.get_mut("TUR").unwrap();
    n.tech.a = 60;
    n.tech.n = 60;
    st.add_unit("TUR", "SPC", "IST");
    let abse = st
        .units
        .values()
        .find(|u| u.owner == "TUR" && u.code == "ABSE")
        .unwrap()
        .id;
    st.unit_mut(abse).unwrap().heads = vec!["5K".into(), "20K".into()];
    let l = st.ledger_mut("TUR", "IST");
    l.ec = 40;
    l.f = 5;
    l.m = 5;
    l.o = 5;
    l.u = 5;
    let ev = turn(&mut st, &[("tur", "IST BUILD MSLP 1")], &[]);
    assert!(
        texts(&ev).contains("ESPACE  MSLP #0101 lancé depuis [IST]"),
        "{}",
        texts(&ev)
    );
    let m = st.units.values().find(|u| u.code == "MSLP").unwrap();
    assert_eq!(m.heads, vec!["5K".to_string(), "20K".to_string()]);
    assert!(st.unit(abse).unwrap().heads.is_empty());
}

#[test]
fn wwk_98_hostile_units_block_one_vehicle_each() {
    let mut st = trio();
    st.set_diplo("TUR", "GRE", Diplo::War);
    hold(&mut st, "GRE", "BUL");
    let mut sc = Scratch::default();
    sc.items = items(&st, "tur", "IST 2 LT MOVE BUL MAC");
    // One hostile unit in BUL, no TUR infantry there: 1 of the 2 LT (pick 1) stops.
    // The other goes on to neutral MAC: its garrison rolls (M, F symbols) 1 and 1.
    let ev = step(&mut st, &mut sc, military::movement, vec![1, 1, 1]);
    let _ = ev;
    assert_eq!(count(&st, "TUR", "LT", "BUL"), 1);
    assert_eq!(count(&st, "TUR", "LT", "MAC"), 1);
    assert!(sc.results.values().any(|r| r.contains("bloqué en [BUL]")));
    // With one TUR infantry already in BUL the blocker is pinned: both go through.
    let mut st = trio();
    st.set_diplo("TUR", "GRE", Diplo::War);
    hold(&mut st, "GRE", "BUL");
    st.add_unit("TUR", "INF", "BUL");
    let mut sc = Scratch::default();
    sc.items = items(&st, "tur", "IST 2 LT MOVE BUL MAC");
    step(&mut st, &mut sc, military::movement, vec![1, 1]);
    assert_eq!(count(&st, "TUR", "LT", "MAC"), 2);
}

#[test]
fn wwk_104_no_strategic_air_drop_over_friendly_units() {
    let mut st = trio();
    st.set_diplo("TUR", "GRE", Diplo::War);
    hold(&mut st, "GRE", "BUL");
    st.add_unit("TUR", "INF", "BUL");
    let abse = st
        .units
        .values()
        .find(|u| u.owner == "TUR" && u.code == "ABSE")
        .unwrap()
        .id;
    st.unit_mut(abse).unwrap().heads.push("1M".into());
    let mut sc = Scratch::default();
    sc.items = items(&st, "tur", "IST 1 BMB 1M BUL");
    step(&mut st, &mut sc, military::air, vec![]);
    assert!(sc
        .results
        .values()
        .any(|r| r.contains("arme stratégique interdite")));
    assert_eq!(st.unit(abse).unwrap().heads, vec!["1M".to_string()]);
}

#[test]
fn wwk_113_neutral_garrison_regenerates_and_reverts() {
    // Regeneration: a neutral-held zone gets its stored garrison back.
    let mut st = trio();
    st.zone_mut("BUL").garrison = Some(vec!["MIL".into(), "MIL".into(), "LT".into()]);
    st.add_unit(NEUTRAL, "MIL", "BUL");
    let mut sc = Scratch::default();
    sc.status_before.insert("BUL".into(), Status::Neutral);
    step(&mut st, &mut sc, control::neutrals, vec![]);
    assert_eq!(count(&st, NEUTRAL, "MIL", "BUL"), 2);
    assert_eq!(count(&st, NEUTRAL, "LT", "BUL"), 1);
    // Reversion: a zone a nation held turns neutral: new garrison (2 MIL + 2
    // symbols: rolls 70 → AA, 10 → MIL), then 90/10 per unit: the AA rolls 91.
    let mut st = trio();
    let mut sc = Scratch::default();
    sc.status_before
        .insert("MAC".into(), Status::Controlled { by: "GRE".into() });
    let ev = step(
        &mut st,
        &mut sc,
        control::neutrals,
        vec![70, 10, 1, 1, 91, 1],
    );
    assert!(texts(&ev).contains("[MAC] redevient neutre"));
    assert_eq!(count(&st, NEUTRAL, "MIL", "MAC"), 3);
    assert_eq!(count(&st, NEUTRAL, "AA", "MAC"), 0);
    assert_eq!(
        st.units
            .values()
            .filter(|u| u.owner == GUERRILLA && u.at == "MAC")
            .count(),
        1
    );
}
