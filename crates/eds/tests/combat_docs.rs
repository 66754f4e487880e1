//! Checklist tests for combat (EDS-63…83), randomness (EDS-84…87), documents and
//! visibility (EDS-88…106) and administration (EDS-107…110).
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;
use arbitre_core::{Adapter, Engine, Rng, Ruleset, Viewer};
use arbitre_eds::combat::{battle, contested_points, resolve_point, BattleCounter};
use arbitre_eds::events::Event;
use arbitre_eds::formulas::*;
use arbitre_eds::model::*;
use arbitre_eds::report;
use arbitre_eds::Eds;
use common::*;
use std::collections::BTreeMap;

const MAX: u64 = u64::MAX;

fn fight(
    s: &mut State,
    pair: (u8, u8),
    x: i32,
    y: i32,
    script: Vec<u64>,
) -> (Vec<(u32, i32, i32)>, Vec<Event>) {
    let mut ev = Vec::new();
    let mut rng = Rng::scripted_rolls(script);
    let fled = battle(
        s,
        pair,
        x,
        y,
        "Hypersprünge",
        3,
        &mut BattleCounter::default(),
        &mut rng,
        &mut ev,
    );
    (fled, ev)
}

fn text(ev: &[Event]) -> String {
    battles(ev).iter().map(|b| b.text.clone()).collect()
}

/// ANTORIDA (ruler 1, built at EV 4) against a Großraumtransporter (ruler 2) at (20,10).
fn cv1() -> State {
    let mut s = base();
    add_ship(&mut s, 20, 1, "D,10,5,20,15,0,0,30,20,0,0,1", 20, 10, 4);
    s.ships.get_mut(&20).unwrap().name = "ANTORIDA".into();
    add_ship(&mut s, 21, 2, "B,5,0,20,0,0,0,20,0,0,0,2", 20, 10, 0);
    s.rulers[1].status.insert(1, 3);
    s
}

#[test]
fn eds_63_battle_exactly_when_a_pair_is_hostile() {
    let mut s = base();
    add_ship(&mut s, 20, 2, "A,5,0,0,0,0,0,0,0,0,0,2", 5, 5, 0);
    assert!(contested_points(&s).is_empty(), "neutral: no battle");
    s.rulers[0].status.insert(2, 1);
    s.rulers[1].status.insert(1, 3);
    assert_eq!(contested_points(&s), vec![(5, 5)]);
    // Ruler 1 is friendly, yet its home base shoots back and destroys the intruder.
    let ev = month(&mut s, &[]);
    assert!(!s.ships.contains_key(&20), "{}", text(&ev));
    // Stations alone: stationed fighters and an arriving hostile ship fight; a bare star does not.
    let mut s = base();
    s.rulers[1].status.insert(1, 3);
    add_ship(&mut s, 20, 2, "A,5,0,0,0,0,0,0,0,0,0,2", 12, 8, 0);
    assert!(contested_points(&s).is_empty());
    s.stars.get_mut(&5).unwrap().ljg = 2;
    assert_eq!(contested_points(&s), vec![(12, 8)]);
}

#[test]
fn eds_64_three_rulers_fight_in_random_pairs_until_no_hostile_pair_remains() {
    let mut s = base();
    for (n, o) in [(20u32, 1u8), (21, 2), (22, 3)] {
        add_ship(&mut s, n, o, "B,5,0,20,0,0,0,20,0,0,0,4", 20, 10, 1);
    }
    s.rulers[0].status.insert(2, 3);
    s.rulers[0].status.insert(3, 3);
    s.rulers[1].status.insert(3, 3);
    let mut ev = Vec::new();
    resolve_point(
        &mut s,
        20,
        10,
        "Statusänderungen",
        3,
        &mut BattleCounter::default(),
        &mut Rng::for_phase(1, 3, "3"),
        &mut ev,
    );
    assert!(battles(&ev).len() >= 2);
    let owners: std::collections::BTreeSet<u8> = s.ships_at(20, 10).map(|x| x.owner).collect();
    assert!(owners.len() <= 1, "no hostile pair left: {owners:?}");
}

#[test]
fn eds_65_side_one_is_the_lower_ruler_number() {
    let mut s = cv1();
    let (_, ev) = fight(&mut s, (2, 1), 20, 10, vec![MAX, MAX, MAX, 0]);
    assert!(text(&ev).contains("Kampfort (20,10): 01 ALDEBARAN (rot) gegen 02 BETEIGEUZE (blau)\n"));
}

#[test]
fn eds_66_all_fighters_launch_from_ships_and_own_star() {
    let mut s = base();
    add_ship(&mut s, 20, 1, "B,0,3,0,0,0,0,0,0,0,0,4", 12, 8, 0);
    s.ships.get_mut(&20).unwrap().ljg = 3;
    s.stars.get_mut(&5).unwrap().ljg = 10;
    add_ship(&mut s, 21, 2, "A,5,0,0,0,0,0,0,0,0,0,4", 12, 8, 0);
    s.rulers[1].status.insert(1, 3);
    let mut ev = Vec::new();
    resolve_point(
        &mut s,
        12,
        8,
        "Hypersprünge",
        3,
        &mut BattleCounter::default(),
        &mut Rng::for_phase(1, 3, "7"),
        &mut ev,
    );
    let t = text(&ev);
    assert!(t.contains("Gefochten: 1 B, 13 LJg gegen 1 A\n"), "{t}");
    assert!(t.contains("  Jäger: 13 LJg, 0 TJg\n"));
}

#[test]
fn eds_67_offence_is_usable_guns_times_strength() {
    let mut s = cv1();
    let a = s.ships.get_mut(&20).unwrap();
    assert_eq!((offence(a, 0), offence(a, 1)), (40, 15));
    a.hits = 1;
    assert_eq!((offence(a, 0), offence(a, 1)), (30, 11));
    assert_eq!(offence(a, 2), 0);
}

#[test]
fn eds_68_damaged_systems_are_reduced_by_quarters() {
    assert_eq!([usable(15, 1), usable(15, 2), usable(15, 3)], [11, 7, 3]);
    assert_eq!(
        [usable(256, 1), usable(256, 2), usable(256, 3)],
        [192, 128, 64]
    );
}

#[test]
fn eds_69_energy_is_divided_by_the_enemy_units_at_round_start() {
    let mut s = base();
    add_ship(&mut s, 20, 1, "D,0,0,105,0,0,0,55,0,0,0,4", 20, 10, 0);
    add_ship(&mut s, 21, 2, "A,5,0,0,0,0,0,0,0,0,0,4", 20, 10, 0);
    add_ship(&mut s, 22, 2, "A,5,0,0,0,0,0,0,0,0,0,4", 20, 10, 0);
    s.stars.get_mut(&6).unwrap().owner = Some(2);
    s.stars.get_mut(&6).unwrap().ljg = 8;
    s.rulers[0].status.insert(2, 3);
    // 105 laser energy on 10 units: 10,5 each. Ship 21 gets scatter ≈1 → 10 hits,
    // ship 22 scatter 0,6 → 6 hits (EDS-71: a fresh scatter per target).
    let mut script = vec![MAX, 0];
    for _ in 0..8 {
        script.extend([MAX, MAX]);
    }
    script.extend([MAX, 0]);
    let (_, ev) = fight(&mut s, (1, 2), 20, 10, script);
    let t = text(&ev);
    assert!(
        t.contains("Runde 1: SCHIFF 21(A)**********✗ SCHIFF 22(A)******✗ LJg(2) 8\n"),
        "{t}"
    );
}

#[test]
fn eds_70_salvos_in_order_with_shields_recomputed() {
    // CV-1 with all scatters ≈1: 1 laser hit, then 3 thermo hits on the weakened shields.
    let mut s = cv1();
    let (_, ev) = fight(&mut s, (1, 2), 20, 10, vec![MAX, MAX, MAX, 0]);
    assert!(text(&ev).contains("Runde 1: SCHIFF 21(B)****✗\n"));
    assert!(!s.ships.contains_key(&21));
}

#[test]
fn eds_71_scatter_factor_per_target() {
    let p = arbitre_eds::params::Params::default();
    assert!((scatter(&p, 0.0) - 0.6).abs() < 1e-12);
    assert!((scatter(&p, 0.125) - 0.8).abs() < 1e-12);
    assert!((scatter(&p, 0.216) - 0.84).abs() < 1e-12);
    // CV-1 with all scatters 0,6: 1 + 2 hits, the transporter survives with T 3 and flees (R 2).
    let mut s = cv1();
    let (fled, ev) = fight(&mut s, (1, 2), 20, 10, vec![0, 0, 0, 0, 0, 0]);
    assert!(
        text(&ev).contains("Runde 1: SCHIFF 21(B)***→\n"),
        "{}",
        text(&ev)
    );
    assert_eq!(fled, vec![(21, 19, 9)]);
    assert_eq!((s.ships[&21].hits, s.ships[&21].sp), (3, 4));
}

#[test]
fn eds_72_fighters_as_targets() {
    // CV-3: e = 10, scatter 1: u 0,5 → E 4 → 2 hits (destroyed); u 0,25 → E 1,5 → 0.
    assert_eq!(hits_from(10.0 * 1.0 * 0.5 - 1.0, M20[0][0] as u64), 2);
    assert_eq!(hits_from(10.0 * 1.0 * 0.25 - 1.0, M20[0][0] as u64), 0);
    // A thermo fighter hit by laser (S = 0,2): E 1,2 → 1 hit exactly; 1,19 → 0.
    assert_eq!(hits_from(1.2, M20[0][1] as u64), 1);
    assert_eq!(hits_from(1.19, M20[0][1] as u64), 0);
}

#[test]
fn eds_73_shield_matrix_in_twentieths() {
    let mut s = base();
    add_ship(&mut s, 20, 1, "F,0,0,0,0,0,0,20,15,10,0,2", 5, 5, 16);
    let sh = s.ships.get_mut(&20).unwrap();
    sh.lx = 3;
    sh.tx = 2;
    assert_eq!(
        (
            shield20(sh, 0),
            shield20(sh, 1),
            shield20(sh, 3),
            shield20(sh, 2)
        ),
        (67 * 20, 44 * 20, 8 * 20, 22 * 20)
    );
    sh.hits = 1;
    assert_eq!(shield20(sh, 0), 1002); // 50,1 (T-16)
}

#[test]
fn eds_74_hits_per_salvo_and_destruction() {
    assert_eq!(hits_from(40.0, 20 * 20), 1);
    assert_eq!(hits_from(15.0, 60), 3);
    assert_eq!(hits_from(20.0, 20 * 20), 0);
    let mut s = cv1();
    s.ships.get_mut(&21).unwrap().hits = 3;
    let (_, ev) = fight(&mut s, (1, 2), 20, 10, vec![MAX, MAX, 0]);
    assert!(
        text(&ev).contains("Runde 1: SCHIFF 21(B)******✗\n"),
        "{}",
        text(&ev)
    );
    assert!(!s.ships.contains_key(&21), "destroyed at 4 or more hits");
}

/// Two harmless freighters at EV 0: no weapon ever hits (CV-7).
fn stalemate(r_a: u32, r_b: u32) -> State {
    let mut s = base();
    add_ship(
        &mut s,
        20,
        1,
        &format!("B,5,0,20,0,0,0,20,0,0,0,{r_a}"),
        20,
        10,
        0,
    );
    add_ship(
        &mut s,
        21,
        2,
        &format!("B,5,0,20,0,0,0,20,0,0,0,{r_b}"),
        20,
        10,
        0,
    );
    s.rulers[0].status.insert(2, 3);
    s
}

#[test]
fn eds_75_explosions_hit_and_count_as_hit_this_round() {
    let mut s = stalemate(1, 4);
    let (fled, ev) = fight(&mut s, (1, 2), 20, 10, vec![MAX, MAX, 1, 0, 0]);
    assert!(
        text(&ev).contains("Runde 1: SCHIFF 20(B)*→\n"),
        "{}",
        text(&ev)
    );
    assert_eq!(fled.len(), 1);
    assert_eq!(s.params.explosion_ship_bp, 100);
    assert_eq!(s.params.explosion_fighter_bp, 25);
}

#[test]
fn eds_76_retreat_rules() {
    // R 0 flees after round 1 unhit.
    let mut s = stalemate(0, 4);
    let (fled, _) = fight(&mut s, (1, 2), 20, 10, vec![MAX, MAX, 0, 0, 3]);
    assert_eq!(fled, vec![(20, 19, 10)]);
    // Entering with T ≥ R flees after round 1 even unhit.
    let mut s = stalemate(2, 4);
    s.ships.get_mut(&20).unwrap().hits = 2;
    let (fled, _) = fight(&mut s, (1, 2), 20, 10, vec![MAX, MAX, 0, 0, 4]);
    assert_eq!(fled, vec![(20, 21, 10)]);
    // SP 0 never flees; the other side (R 0) does.
    let mut s = stalemate(0, 0);
    s.ships.get_mut(&20).unwrap().sp = 0;
    let (fled, _) = fight(&mut s, (1, 2), 20, 10, vec![MAX, MAX, 0, 0, 0]);
    assert_eq!(fled, vec![(21, 19, 9)]);
    assert_eq!(s.ships[&20].pos(), (20, 10));
}

#[test]
fn eds_77_flight_costs_uranium_and_leaves_fighters_behind() {
    let mut s = stalemate(0, 4);
    s.ships.get_mut(&20).unwrap().jg = 0;
    let mut ev = Vec::new();
    add_ship(&mut s, 22, 1, "B,0,5,0,0,0,0,0,0,0,0,0", 20, 10, 0);
    s.ships.get_mut(&22).unwrap().ljg = 5;
    resolve_point(
        &mut s,
        20,
        10,
        "Statusänderungen",
        3,
        &mut BattleCounter::default(),
        &mut Rng::for_phase(3, 3, "3"),
        &mut ev,
    );
    for n in [20u32, 22] {
        if let Some(sh) = s.ships.get(&n) {
            if sh.pos() != (20, 10) {
                assert_eq!(sh.sp, 4);
                assert_eq!(sh.ljg, 0, "its fighters stayed behind");
                assert!((sh.x - 20).abs() <= 1 && (sh.y - 10).abs() <= 1);
            }
        }
    }
    assert!(text(&ev).contains('→'));
}

#[test]
fn eds_78_flight_onto_enemies_starts_a_follow_up_battle() {
    let mut s = stalemate(0, 4);
    let mut n = 30;
    for dx in -1..=1 {
        for dy in -1..=1 {
            if (dx, dy) != (0, 0) {
                add_ship(&mut s, n, 2, "A,5,0,0,0,0,0,0,0,0,0,4", 20 + dx, 10 + dy, 0);
                n += 1;
            }
        }
    }
    let mut ev = Vec::new();
    resolve_point(
        &mut s,
        20,
        10,
        "Statusänderungen",
        3,
        &mut BattleCounter::default(),
        &mut Rng::for_phase(5, 3, "3"),
        &mut ev,
    );
    let b = battles(&ev);
    assert!(
        b.iter()
            .any(|b| b.text.contains("· Anschlussgefecht nach Rückzug")
                && b.short.contains(" Anschlussgefecht ")),
        "{b:?}"
    );
}

#[test]
fn eds_79_battle_ends_when_a_side_has_no_units() {
    let mut s = cv1();
    let (_, ev) = fight(&mut s, (1, 2), 20, 10, vec![MAX, MAX, MAX, 0]);
    assert!(text(&ev).contains("Ende nach 1 Runde. Am Kampfort verbleibt: 01 ALDEBARAN\n"));
}

fn fighter_return(x: i32, y: i32) -> String {
    let mut s = base();
    add_ship(&mut s, 20, 1, "B,0,3,30,0,0,0,0,0,0,0,4", x, y, 0);
    add_ship(&mut s, 21, 1, "B,0,1,0,0,0,0,0,0,0,0,4", x, y, 0);
    let star = s.star_nr_at(x, y).unwrap();
    let st = s.stars.get_mut(&star).unwrap();
    if st.owner == Some(1) {
        st.ljg = 5;
        st.tjg = 2;
    } else {
        s.ships.get_mut(&20).unwrap().ljg = 3;
        s.ships.get_mut(&21).unwrap().ljg = 1;
        s.ships.get_mut(&20).unwrap().jg = 6;
        s.ships.get_mut(&20).unwrap().ljg = 4;
        s.ships.get_mut(&20).unwrap().tjg = 2;
    }
    add_ship(&mut s, 22, 2, "A,5,0,0,0,0,0,0,0,0,0,4", x, y, 0);
    s.rulers[1].status.insert(1, 3);
    let (_, ev) = fight(
        &mut s,
        (1, 2),
        x,
        y,
        vec![MAX, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    );
    text(&ev)
}

#[test]
fn eds_80_surviving_fighters_go_to_hangars_then_own_star_else_lost() {
    // CV-6: 5 LJg and 2 TJg; ship 20 has 3 free hangars, 21 one; shuffled order (21, 20).
    let t = fighter_return(12, 8);
    assert!(t.contains("Verbleib der Jäger: 1: 4 LJg, 0 TJg in Hangars · 1 LJg, 2 TJg auf Stern · 0 LJg, 0 TJg verloren · 2: keine\n"), "{t}");
}

#[test]
fn eds_81_harmless_fleets_end_through_explosions() {
    let mut s = stalemate(4, 4);
    let mut ev = Vec::new();
    resolve_point(
        &mut s,
        20,
        10,
        "Statusänderungen",
        3,
        &mut BattleCounter::default(),
        &mut Rng::for_phase(8, 3, "3"),
        &mut ev,
    );
    let b = battles(&ev);
    assert_eq!(b.len(), 1);
    let rounds: u32 = b[0]
        .short
        .split(": ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(rounds <= 103, "{rounds}");
    assert!(b[0].text.contains("✗"));
}

#[test]
fn eds_82_damaged_ships_jump_shorter() {
    assert_eq!(current_range(12, 1), 9);
    let mut s = base();
    add_ship(&mut s, 20, 1, "A,5,0,0,0,0,0,0,0,0,0,2", 5, 5, 1);
    s.ships.get_mut(&20).unwrap().hits = 1;
    let ev = month_scripted(
        &mut s,
        &[(1, "[7]\n20,/,15,5\n")],
        &[("7", vec![0, 0, 0])],
        false,
    );
    assert!(has_line(&ev, 1, "Schiff 20: Ziel (15,5) außer Reichweite (Entfernung 10, Reichweite 9) – Austritt bei (14,5)"));
}

#[test]
fn eds_83_hits_do_not_touch_cargo_or_capacities() {
    let mut s = cv1();
    s.ships.get_mut(&21).unwrap().cargo = Some((Good::G, 40));
    let before = s.ships[&21].clone();
    fight(&mut s, (1, 2), 20, 10, vec![0, 0, 0, 0, 0, 0]);
    let after = &s.ships[&21];
    assert_eq!(after.hits, 3);
    assert_eq!(
        (after.cargo, after.lr, after.jg, after.tk),
        (before.cargo, before.lr, before.jg, before.tk)
    );
    assert_eq!(after.sp, before.sp - 1, "only the flight used uranium");
}

// ---------- Randomness ----------

#[test]
fn eds_84_replaying_a_month_reproduces_it() {
    let s0 = scenario("trio", 3);
    let json = serde_json::to_string(&s0).unwrap();
    let orders = [(1, "[5]\n2,5\n[7]\n2,/,10,10\n")];
    let mut a: State = serde_json::from_str(&json).unwrap();
    let mut b: State = serde_json::from_str(&json).unwrap();
    let ea = month(&mut a, &orders);
    let eb = month(&mut b, &orders);
    assert_eq!(
        serde_json::to_string(&a).unwrap(),
        serde_json::to_string(&b).unwrap()
    );
    assert_eq!(ea, eb);
}

#[test]
fn eds_85_independent_streams_per_month_and_phase() {
    let keys: Vec<&str> = Eds.phases().iter().map(|p| p.key).collect();
    for k in ["3", "7", "13", "21"] {
        assert!(keys.contains(&k));
    }
    // One more battle in phase 7 does not change the research draws of phase 21.
    let mk = |fight: bool| {
        let mut s = base();
        for n in [4u32, 6] {
            let st = s.stars.get_mut(&n).unwrap();
            st.owner = Some(1);
            st.facility = Some(Facility::F);
            st.bv = 1;
            st.stock[2] = 9;
        }
        if fight {
            add_ship(&mut s, 20, 2, "B,5,0,20,0,0,0,20,0,0,0,4", 5, 5, 0);
            s.rulers[1].status.insert(1, 3);
        }
        let ev = month(&mut s, &[]);
        (s.rulers[0].ev, battles(&ev).len())
    };
    let (ev_a, b_a) = mk(false);
    let (ev_b, b_b) = mk(true);
    assert_eq!((b_a, b_b > 0), (0, true));
    assert_eq!(ev_a, ev_b);
}

#[test]
fn eds_86_rng_primitives() {
    let mut r = Rng::scripted_u64([3, 15, 9, 10, 4]);
    let v: Vec<u64> = (0..5).map(|_| r.below(17)).collect();
    assert_eq!(v, vec![3, 15, 9, 10, 4]);
    let mut r = Rng::scripted_u64([0, MAX]);
    assert_eq!(r.unit_f64(), 0.0);
    assert!(r.unit_f64() < 1.0);
    let mut r = Rng::scripted_u64([0, 1]);
    let mut v = vec![1, 2, 3];
    r.shuffle(&mut v); // i=2: j=0 → [3,2,1]; i=1: j=1 → unchanged
    assert_eq!(v, vec![3, 2, 1]);
    let mut r = Rng::scripted_u64([0, 1]);
    assert!(r.chance(1, 17));
    assert!(!r.chance(1, 17));
}

#[test]
fn eds_87_re_evaluation_gives_identical_documents() {
    let engine = Adapter(Eds);
    let mut cfg = config(3, toml::Table::new());
    cfg.options.insert("map".into(), "trio".into());
    let snap = engine.setup(&cfg).unwrap();
    let orders: BTreeMap<_, _> = [(pid(1), "[5]\n2,5\n[7]\n2,/,10,10\n".to_string())].into();
    let a = engine.resolve(&snap.state, 9, &orders).unwrap();
    let b = engine.resolve(&snap.state, 9, &orders).unwrap();
    assert_eq!(a.snapshot, b.snapshot);
    assert_eq!(a.reports, b.reports);
    assert_eq!(a.game_master, b.game_master);
}

// ---------- Documents and visibility ----------

#[test]
fn eds_88_herrscherliste_at_setup() {
    let s = scenario("trio", 3);
    let body = Eds.report(&s, &[], &Viewer::Player(pid(2))).body;
    assert!(body.starts_with("EVOLUTION DER STERNE · HERRSCHERLISTE\nGalaxis: TESTGALAXIS (3 Herrscher)\nNr. Name\n01  ALDEBARAN\n02  BETEIGEUZE\n03  CORVUS\n"));
}

#[test]
fn eds_89_sternenkarte_symbols_rulers_and_directory() {
    let mut s = base();
    s.ships.get_mut(&2).unwrap().x = 10; // over unowned star 4
    add_ship(&mut s, 20, 1, "A,5,0,0,0,0,0,0,0,0,0,2", 8, 2, 0);
    let m = report::sternenkarte(&s, Some(1));
    let rows: Vec<&str> = m.lines().collect();
    assert_eq!(rows[3], "             1         2         3");
    assert_eq!(rows[4], "    123456789012345678901234567890");
    assert_eq!(rows[5 + 1], "  2 .......S......................");
    assert_eq!(rows[5 + 4], "  5 ....@....x..............*.....");
    assert_eq!(rows[5 + 7], "  8 ...........O..................");
    let e = |n: u32, x: i32, y: i32, name: &str| format!("{n:>4} {x:>3} {y:>3} {name:<12}");
    let first = format!(
        "{}  {}  {}  {}",
        e(1, 5, 5, "ERDE"),
        e(2, 25, 5, ""),
        e(3, 15, 15, ""),
        e(4, 10, 5, "")
    );
    assert!(
        m.contains(&format!(
            "STERNVERZEICHNIS (Nr. Xko Yko)\n{}\n",
            first.trim_end()
        )),
        "{m}"
    );
}

#[test]
fn eds_90_sheet_header() {
    let mut s = base();
    month(&mut s, &[]);
    let b = report::besitztuemerblatt(&s, 1);
    assert!(b.starts_with("EVOLUTION DER STERNE · BESITZTÜMERBLATT\nGalaxis: PRUEFSTAND (3 Herrscher, 30 × 20)\nHerrscher: 01 ALDEBARAN\nStand nach Monat 3 von 12, Jahr 1 (J1/M3) · Jahr 1 – Jahr des Erwachens\nBefehle für: Monat 4 von 12, Jahr 1 (J1/M4)\nZugabgabetermin: "), "{b}");
}

#[test]
fn eds_91_wealth_and_evolution_lines() {
    let s = base();
    let b = report::besitztuemerblatt(&s, 1);
    assert!(b.contains("\nVermögen: 10000 WE\nEvolutionsstufe: 4\n"));
}

#[test]
fn eds_92_status_table_shows_own_declared_status() {
    let mut s = base();
    s.rulers[0].status.insert(2, 3);
    s.rulers[2].status.insert(1, 1);
    let b = report::besitztuemerblatt(&s, 1);
    assert!(b.contains("STATUS ZU DEN HERRSCHERN\nNr:St Name\n02:3  BETEIGEUZE\n03:2  CORVUS\n"));
}

#[test]
fn eds_93_star_table_columns() {
    let s = base();
    let b = report::besitztuemerblatt(&s, 1);
    assert!(b.contains("STERNE\n Nr. Name         Xko Yko BV I Ljg Tjg     E     U     G ErE ErU ErG Bes\n   1 ERDE           5   5 10 W   0   0  2000   100   400 250  25  32  01\n   5               12   8  2 -   0   0     0     0    50 120   5  30  01\n"), "{b}");
}

#[test]
fn eds_94_ship_table_columns_and_order() {
    let mut s = base();
    add_ship(&mut s, 20, 1, "D,10,5,20,15,0,0,30,20,0,0,1", 3, 9, 4);
    s.ships.get_mut(&20).unwrap().cargo = Some((Good::E, 120));
    let b = report::besitztuemerblatt(&s, 1);
    let want = "RAUMSCHIFFE
                                                 ------Kanonen------ ------Schilde------
 Nr. Name         Xko Yko G  Tk  JG  LR RW LX TX    L    T    N    A    L    T    N    A T  SP Ljg Tjg Ladung R Bes
  20 SCHIFF 20      3   9 D  10   5 175 15  2  1   20   15    0    0   30   20    0    0 0  10   0   0 E,120  1  01
   1 HEIMATBASIS    5   5 H   0   0   0  0  1  0  256    0    0    0  256    0    0    0 0   0   0   0 -      4  01
   2 NAMENLOS 1     5   5 A   5   0  10 10  1  0    0    0    0    0    0    0    0    0 0   5   0   0 -      2  01
";
    assert!(b.contains(want), "{b}");
    assert_eq!(report::SHIP_HEADER1.find('-'), Some(49));
}

#[test]
fn eds_95_observations_follow_the_visibility_rules() {
    let mut s = base();
    add_ship(&mut s, 20, 2, "A,5,0,0,0,0,0,0,0,0,0,2", 12, 8, 0); // over ruler 1's star 5: seen
    add_ship(&mut s, 21, 3, "A,5,0,0,0,0,0,0,0,0,0,2", 15, 15, 0); // over its own home: hidden
    add_ship(&mut s, 22, 1, "A,5,0,0,0,0,0,0,0,0,0,2", 15, 15, 0);
    add_ship(&mut s, 23, 2, "A,5,0,0,0,0,0,0,0,0,0,2", 20, 10, 0); // at unowned star 6 with own ship 24: seen
    add_ship(&mut s, 24, 1, "A,5,0,0,0,0,0,0,0,0,0,2", 20, 10, 0);
    add_ship(&mut s, 25, 2, "A,5,0,0,0,0,0,0,0,0,0,2", 25, 15, 0); // far away: unseen
    let seen: Vec<u32> = report::observed_ships(&s, 1)
        .iter()
        .map(|x| x.number)
        .collect();
    assert_eq!(seen, vec![20, 23]);
    let stars: Vec<u32> = report::observed_stars(&s, 1)
        .iter()
        .map(|x| x.number)
        .collect();
    assert_eq!(stars, vec![3, 6]);
}

#[test]
fn eds_96_error_log_lines_carry_phase_name_and_entry() {
    let mut s = base();
    let ev = month(&mut s, &[(1, "[5]\n47,5\n")]);
    let body = Eds.report(&s, &ev, &Viewer::Player(pid(1))).body;
    assert!(body.contains("FEHLERPROTOKOLL\n 5 Auftanken 47,5: Schiff 47 gehört Dir nicht oder existiert nicht – Befehl verworfen\n"));
}

#[test]
fn eds_97_messages_list_the_months_events() {
    let mut s = base();
    s.stars.get_mut(&5).unwrap().bv = 5;
    s.stars.get_mut(&5).unwrap().stock[2] = 0;
    let ev = month_scripted(
        &mut s,
        &[(
            1,
            "[7]\n2,/,10,5\n[12]\n1,L,2\n[13]\n1,NEU,A,5,0,0,0,0,0,0,0,0,0,2\n",
        )],
        &[("7", vec![1, 0, 0])],
        false,
    );
    let body = Eds.report(&s, &ev, &Viewer::Player(pid(1))).body;
    for l in [
        " 7 Sprungreihenfolge: 03, 01, 02",
        "12 Jäger bauen 1,L,2: 2 Laserjäger auf Stern 1 gebaut",
        "13 Schiff bauen 1,NEU,A,5,0,0,0,0,0,0,0,0,0,2: Schiff 3 NEU (A) gebaut: 100 WE, 25 Erz",
        "19 Stern 4 (10,5) besetzt",
        "22 Stern 5: Hungersnot – Bevölkerung sinkt von 5 auf 0",
        "23 Steuern: 1000 WE",
    ] {
        assert!(body.contains(l), "{l}\n{body}");
    }
}

#[test]
fn eds_98_every_transfer_in_every_report() {
    let mut s = base();
    let ev = month(&mut s, &[(2, "[17]\n3,500\n")]);
    for r in 1..=3 {
        assert!(Eds
            .report(&s, &ev, &Viewer::Player(pid(r)))
            .body
            .contains("02 BETEIGEUZE an 03 CORVUS: 500 WE"));
    }
    assert!(Eds
        .report(&s, &ev, &Viewer::Spectator)
        .body
        .contains("02 BETEIGEUZE an 03 CORVUS: 500 WE"));
}

#[test]
fn eds_99_full_battle_report_layout() {
    let mut s = cv1();
    let (_, ev) = fight(&mut s, (1, 2), 20, 10, vec![0, 0, 0, 0, 0, 0]);
    let want = "KAMPFBERICHT 1 · J1/M3 · Hypersprünge
Kampfort (20,10): 01 ALDEBARAN (rot) gegen 02 BETEIGEUZE (blau)
Gefochten: 1 D gegen 1 B

Liste 1 · 01 ALDEBARAN
  20 ANTORIDA     (D)
  Jäger: 0 LJg, 0 TJg
  Waffensysteme: L T

Liste 2 · 02 BETEIGEUZE
  21 SCHIFF 21    (B)
  Jäger: 0 LJg, 0 TJg
  Waffensysteme: L

Runde 1: SCHIFF 21(B)***→
  Stand: 1: 1 Schiff, 0 LJg, 0 TJg · 2: 0 Schiffe, 0 LJg, 0 TJg
Ende nach 1 Runde. Am Kampfort verbleibt: 01 ALDEBARAN
Verbleib der Jäger: 1: keine · 2: keine
";
    assert_eq!(text(&ev), want);
    // Every ruler receives it.
    for r in 1..=3 {
        let mut s2 = s.clone();
        s2.month = 3;
        assert!(Eds
            .report(&s2, &ev, &Viewer::Player(pid(r)))
            .body
            .contains(want));
    }
}

#[test]
fn eds_100_short_battle_line_in_the_monatsbericht() {
    let mut s = cv1();
    let (_, ev) = fight(&mut s, (1, 2), 20, 10, vec![0, 0, 0, 0, 0, 0]);
    s.month = 3;
    let body = report::monatsbericht(&s, &ev, Some(3));
    assert!(body.contains("KAMPFBERICHTE (Kurzfassung)\nKampf 1 (20,10) 01 ALDEBARAN gegen 02 BETEIGEUZE: 1 Runde · 1: keine Verluste · 2: geflohen 1 B · am Kampfort verbleibt: 01 ALDEBARAN\n"), "{body}");
}

#[test]
fn eds_101_sternenanzeiger_with_announcements_and_signed_posts() {
    let mut s = base();
    s.announcements = "Die Galaxis ist eröffnet.".into();
    month(&mut s, &[(3, "[ANZEIGER]\nCORVUS grüßt alle Reiche.\n")]);
    assert_eq!(report::sternenanzeiger(&s), "DER STERNENANZEIGER · Galaxis PRUEFSTAND · Ausgabe J1/M3\nBEKANNTMACHUNGEN DER SPIELLEITUNG\nDie Galaxis ist eröffnet.\nBEITRÄGE\n--- 03 CORVUS ---\nCORVUS grüßt alle Reiche.\n");
}

#[test]
fn eds_102_diplomacy_reaches_only_its_addressee() {
    let mut s = base();
    let ev = month(&mut s, &[(3, "[DIPLOMATIE 01]\nGeheim.\n")]);
    assert!(Eds
        .report(&s, &ev, &Viewer::Player(pid(1)))
        .body
        .contains("--- von 03 CORVUS ---\nGeheim."));
    assert!(!Eds
        .report(&s, &ev, &Viewer::Player(pid(2)))
        .body
        .contains("Geheim."));
    assert!(!Eds
        .report(&s, &ev, &Viewer::Spectator)
        .body
        .contains("Geheim."));
}

#[test]
fn eds_103_blank_befehlsblatt_goes_out_and_parses_back() {
    let s = base();
    let rep = Eds.report(&s, &[], &Viewer::Player(pid(1)));
    let att = rep
        .attachments
        .iter()
        .find(|a| a.name == "befehlsblatt-J1M3.txt")
        .expect("template");
    let t = String::from_utf8(att.content.clone()).unwrap();
    assert!(t.starts_with("SPIEL testgalaxis SPIELER p1 PASSWORT <Dein Passwort>\n"));
    assert!(t.contains("MONAT: J1/M3\n"));
    assert!(
        t.contains("[7 SPRUNG]\n# Schiff,A,X,Y  oder  Schiff,/,X,Y   – höchstens 12 Einträge\n")
    );
    // The body between the envelope lines, filled in, is a valid sheet.
    let inner: String = t
        .lines()
        .skip(1)
        .filter(|l| *l != "END")
        .map(|l| format!("{l}\n"))
        .collect();
    let filled = inner.replace("[16 KOLONISIEREN]\n", "[16 KOLONISIEREN]\n5\n");
    let p = Eds.parse_orders(&s, &pid(1), &filled);
    assert_eq!(p.orders.len(), 1);
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    assert!(rep
        .attachments
        .iter()
        .any(|a| a.mime == "image/svg+xml"
            && String::from_utf8_lossy(&a.content).starts_with("<svg")));
}

#[test]
fn eds_104_lost_ships_only_in_the_owners_log() {
    let mut s = base();
    add_ship(&mut s, 20, 1, "A,5,0,0,0,0,0,0,0,0,0,2", 7, 7, 0);
    s.ships.get_mut(&20).unwrap().sp = 0;
    let ev = month(&mut s, &[]);
    assert!(Eds
        .report(&s, &ev, &Viewer::Player(pid(1)))
        .body
        .contains("verschollen"));
    assert!(!Eds
        .report(&s, &ev, &Viewer::Player(pid(2)))
        .body
        .contains("verschollen"));
    assert!(!Eds
        .report(&s, &ev, &Viewer::Spectator)
        .body
        .contains("verschollen"));
}

#[test]
fn eds_105_setup_documents() {
    let s = scenario("trio", 3);
    let rep = Eds.report(&s, &[], &Viewer::Player(pid(1)));
    for part in [
        "HERRSCHERLISTE",
        "BESITZTÜMERBLATT",
        "STERNENKARTE · Galaxis TESTGALAXIS · 01 ALDEBARAN · Spielvorbereitung",
        "DER STERNENANZEIGER",
    ] {
        assert!(rep.body.contains(part), "{part}");
    }
    assert_eq!(rep.attachments.len(), 2);
}

#[test]
fn eds_106_final_documents_name_the_winner() {
    let mut s = base();
    s.rulers[1].ev = 99;
    let st = s.stars.get_mut(&2).unwrap();
    st.facility = Some(Facility::F);
    let ev = month_scripted(&mut s, &[], &[("21", vec![1])], false);
    assert_eq!(s.winners, vec![2]);
    for r in 1..=3 {
        let rep = Eds.report(&s, &ev, &Viewer::Player(pid(r)));
        assert!(rep
            .body
            .contains("SPIELENDE\nEvolutionsstufe 100 erreicht. Sieger: 02 BETEIGEUZE"));
        assert_eq!(rep.attachments.len(), 1, "no order sheet after the end");
    }
    assert!(Eds.outcome(&s).unwrap().summary.contains("02 BETEIGEUZE"));
}

// ---------- Administration ----------

#[test]
fn eds_107_snapshots_rerun_any_month() {
    let engine = Adapter(Eds);
    let mut cfg = config(3, toml::Table::new());
    cfg.options.insert("map".into(), "trio".into());
    let s0 = engine.setup(&cfg).unwrap();
    let m1 = engine.resolve(&s0.state, 5, &BTreeMap::new()).unwrap();
    let m2 = engine
        .resolve(&m1.snapshot.state, 5, &BTreeMap::new())
        .unwrap();
    let again = engine
        .resolve(&m1.snapshot.state, 5, &BTreeMap::new())
        .unwrap();
    assert_eq!(m2.snapshot, again.snapshot);
    assert_eq!(m2.snapshot.turn, 2);
}

#[test]
fn eds_108_a_month_re_run_with_amended_orders() {
    let engine = Adapter(Eds);
    let mut cfg = config(3, toml::Table::new());
    cfg.options.insert("map".into(), "trio".into());
    let s0 = engine.setup(&cfg).unwrap();
    let first = engine.resolve(&s0.state, 5, &BTreeMap::new()).unwrap();
    let home = {
        let st: State = serde_json::from_str(&s0.state).unwrap();
        st.rulers[0].home_star
    };
    let amended: BTreeMap<_, _> = [(pid(1), format!("[16]\n{home}\n"))].into();
    let second = engine.resolve(&s0.state, 5, &amended).unwrap();
    assert_ne!(first.snapshot, second.snapshot);
    let st: State = serde_json::from_str(&second.snapshot.state).unwrap();
    assert_eq!(st.stars[&home].bv, 11);
}

#[test]
fn eds_109_parameters_frozen_in_the_state() {
    let mut t = toml::Table::new();
    t.insert("map".into(), "trio".into());
    t.insert("tax_factor".into(), toml::Value::Integer(20));
    let mut s = Eds.setup(&config(3, t), &mut Rng::for_setup(1)).unwrap();
    let p = s.params.clone();
    month(&mut s, &[(1, "[17]\n2,100\n")]);
    assert_eq!(s.params, p);
    assert_eq!(s.rulers[2].we, 2500 + 20 * 100);
}

#[test]
fn eds_107_a_report_sent_again_from_the_snapshot_is_identical() {
    let engine = Adapter(Eds);
    let mut cfg = config(3, toml::Table::new());
    cfg.options.insert("map".into(), "trio".into());
    let snap = engine.setup(&cfg).unwrap();
    let orders: BTreeMap<_, _> = [(
        pid(1),
        "[5]\n2,5\n[7]\n2,/,10,10\n[17]\n2,100\n".to_string(),
    )]
    .into();
    let res = engine.resolve(&snap.state, 9, &orders).unwrap();
    for p in 1..=3 {
        let again = engine
            .report(&res.snapshot.state, &Viewer::Player(pid(p)))
            .unwrap();
        assert_eq!(&again, &res.reports[&pid(p)]);
    }
    assert_eq!(
        engine
            .report(&res.snapshot.state, &Viewer::GameMaster)
            .unwrap(),
        res.game_master
    );
}
