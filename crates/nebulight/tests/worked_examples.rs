//! The rulebook's worked examples and the specification's test vectors
//! (spec section 10, TV-01..TV-24), with their exact numbers and report lines.
//! Where the rulebook's printed numbers contradict its own formulas, the test
//! follows the formula and says so.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;
use common::*;

const M15: &str = "[[world]]\nnumber = 15\nlinks = [13, 75, 584]\nowner = 1\n";

// TV-01: the reference world line.
#[test]
fn neb_76_tv01_reference_world_line_neb_61_neb_63_neb_64_neb_65() {
    let s = position(&format!(
        "{M15}counter = 6\nindustries = 2\nup = 2\nvi = 3\npopulation = 86\npop_limit = 167\nvp = 1\nmp = 7\ncm = 1\n\n{}",
        fillers(&[13, 75, 584], 15)
    ));
    assert_eq!(
        arbitre_nebulight::report::world_line(&s, arbitre_nebulight::model::WorldId(15)),
        "M_15 (13,75,584) \"Maxtor:6\" [I=2]=3 [P=86(167)]=1 MP=7(+1)"
    );
    // The same world with only VI left. (A player world needs P ≥ 1, so this
    // rendering is checked on a neutral-owned copy with the owner shown by the log.)
    let mut t = s.clone();
    let w = t
        .worlds
        .get_mut(&arbitre_nebulight::model::WorldId(15))
        .unwrap();
    *w = arbitre_nebulight::model::World {
        vi: 2,
        population: 0,
        limit: 0,
        ..w.clone()
    };
    w.industries = 0;
    w.vp = 0;
    w.mp = 0;
    w.cm = 0;
    w.up = 0;
    assert_eq!(
        arbitre_nebulight::report::world_line(&t, arbitre_nebulight::model::WorldId(15)),
        "M_15 (13,75,584) \"Maxtor:6\" []=2"
    );
}

fn tv02() -> arbitre_nebulight::NebState {
    position(&format!(
        "{M15}counter = 6\nindustries = 2\nup = 2\nvi = 3\npopulation = 86\npop_limit = 167\nvp = 1\nmp = 7\ncm = 1\n\n{}",
        fillers(&[13, 75, 584], 15)
    ))
}

// TV-02: growth, mining and the CM step at 7 turns (seed M_15).
#[test]
fn neb_76_tv02_growth_mining_cm_step_neb_51_neb_52_neb_53() {
    let mut s = tv02();
    play(&mut s, &[]);
    assert_eq!(
        world_line(&report(&s, "maxtor"), 15),
        "M_15 (13,75,584) \"Maxtor:7\" [I=2]=3 [P=94(167)]=1 MP=9(+2)"
    );
    // Variant: the 2 UP spent on 2 VP use 2 MP.
    let mut s = tv02();
    play(&mut s, &[("maxtor", "M_15 C 2 VP")]);
    assert_eq!(
        world_line(&report(&s, "maxtor"), 15),
        "M_15 (13,75,584) \"Maxtor:7\" [I=2]=3 [P=94(167)]=3 MP=7(+2)"
    );
}

// TV-03: overpopulation with forced draws: 2 of the 5 surplus die.
#[test]
fn neb_76_tv03_overpopulation_neb_12_neb_64() {
    let mut s = position(&format!(
        "{M15}counter = 5\nindustries = 2\nup = 2\nvi = 3\npopulation = 172\npop_limit = 167\nvp = 1\nmp = 7\ncm = 1\n\n{}",
        fillers(&[13, 75, 584], 15)
    ));
    play_scripted(&mut s, &[], "1-initialisation", vec![1, 0, 1, 0, 0]);
    assert_eq!(
        world_line(&report(&s, "maxtor"), 15),
        "M_15 (13,75,584) \"Maxtor:6\" [I=2]=3 [P=170{-2N}(167)]=1 MP=8(+1)"
    );
}

// TV-04: mining limited by the population (seed M_24).
#[test]
fn neb_76_tv04_mining_limited_by_population_neb_53() {
    let mut s = position(&format!(
        "[[world]]\nnumber = 24\nlinks = [12, 25, 685]\nowner = 1\ncounter = 4\npopulation = 2\npop_limit = 2\nmp = 5\ncm = 8\n\n{}",
        fillers(&[12, 25, 685], 24)
    ));
    play(&mut s, &[]);
    assert_eq!(
        world_line(&report(&s, "maxtor"), 24),
        "M_24 (12,25,685) \"Maxtor:5\" P=2(2) MP=7(+8)"
    );
}

fn tv05() -> arbitre_nebulight::NebState {
    position(&format!(
        "[[world]]\nnumber = 456\nlinks = [95, 465]\nowner = 1\ncounter = 3\nindustries = 8\npopulation = 11\npop_limit = 11\nmp = 10\ncm = 5\n\n{}",
        fillers(&[95, 465], 456)
    ))
}

// TV-05: workers shared between industries and mines (seed M_456).
#[test]
fn neb_76_tv05_workers_shared_neb_54_neb_16() {
    let mut s = tv05();
    assert_eq!(s.worlds[&arbitre_nebulight::model::WorldId(456)].up, 8);
    play(&mut s, &[("maxtor", "M_456 C 8 ATT")]);
    let r = report(&s, "maxtor");
    assert_eq!(
        world_line(&r, 456),
        "M_456 (95,465) \"Maxtor:4\" I=5/8 P=11(11) MP=5(+5)"
    );
    assert!(
        r.contains("\nATTaque : 2 (+3/5), Votre CA est de : 55\n"),
        "{r}"
    );
    let mut s = tv05();
    play(&mut s, &[]);
    assert_eq!(
        world_line(&report(&s, "maxtor"), 456),
        "M_456 (95,465) \"Maxtor:4\" I=8 P=11(11) MP=15(+5)"
    );
}

// TV-06: no mining capacity (seed M_125).
#[test]
fn neb_76_tv06_no_mining_capacity_neb_65() {
    let mut s = position(&format!(
        "[[world]]\nnumber = 125\nlinks = [56, 94, 129]\nowner = 1\npopulation = 20\npop_limit = 25\nmp = 10\n\n{}",
        fillers(&[56, 94, 129], 125)
    ));
    play(&mut s, &[]);
    assert_eq!(
        world_line(&report(&s, "maxtor"), 125),
        "M_125 (56,94,129) \"Maxtor:1\" P=22(25) MP=10"
    );
}

// TV-07: production limited by MP, then by population (seed M_100).
#[test]
fn neb_76_tv07_production_limited_neb_5_neb_55() {
    let base = |p: u32, mp: u32| {
        position(&format!(
            "[[world]]\nnumber = 100\nlinks = [234, 345]\nowner = 2\ncounter = 7\nindustries = 30\npopulation = {p}\npop_limit = 100\nmp = {mp}\ncm = 3\nvi = 1\nvp = 3\n\n{}",
            fillers(&[234, 345], 100)
        ))
    };
    let s = base(100, 25);
    assert_eq!(
        world_line(&report(&s, "miria"), 100),
        "M_100 (234,345) \"Miria:7\" [I=25/30]=1 [P=100(100)]=3 MP=25(+3)"
    );
    let s = base(22, 35);
    assert_eq!(
        world_line(&report(&s, "miria"), 100),
        "M_100 (234,345) \"Miria:7\" [I=22/30]=1 [P=22(100)]=3 MP=35(+3)"
    );
}

fn tv08(extra_fleet: bool) -> arbitre_nebulight::NebState {
    let mut s = scenario("exemple-paralysie");
    if extra_fleet {
        use arbitre_nebulight::model::{Fleet, FleetId, WorldId};
        s.fleets.insert(
            FleetId(30),
            Fleet {
                world: WorldId(100),
                owner: Some(1),
                vc: 4,
                cargo_mp: 0,
                cargo_n: 0,
            },
        );
    }
    s
}

// TV-08: paralysis by enemy presence (seed M_100 + F_25). The rulebook shows
// the phase-14 state with counter 7; here the turn is played from counter 3
// (so CM does not step up) with MP 22 + 3 extracted = 25.
#[test]
fn neb_76_tv08_paralysis_neb_55_neb_69_neb_71() {
    let mut s = tv08(false);
    play(&mut s, &[("maxtor", "F_25 M_100")]);
    let want = "M_100 (234,345) \"Miria:4\" [I=22/30]=3 [P=100(100)]=1 MP=25(+3)\nF_25 \"Maxtor\" []=10 du M_234\n";
    assert_eq!(block(&report(&s, "maxtor"), 100), want);
    assert_eq!(
        block(&report(&s, "miria"), 100),
        "M_100 (234,345) \"Miria:4\" [I=22/30]=3 [P=100(100)]=1 MP=25(+3)\nF_25 \"Maxtor\" [?]=10? du M_234\n"
    );
    // Counter-test: a Miria fleet with 4 VC on M_100 makes O = 11 ≥ 10.
    let mut s = tv08(true);
    play(&mut s, &[("maxtor", "F_25 M_100")]);
    assert!(world_line(&report(&s, "miria"), 100).contains("[I=25/30]=3"));
}

fn tv09() -> arbitre_nebulight::NebState {
    position(&format!(
        "[[world]]\nnumber = 456\nlinks = [95, 465]\nowner = 1\ncounter = 3\nindustries = 1\nvi = 3\npopulation = 11\npop_limit = 25\nmp = 10\ncm = 5\n\n{}",
        fillers(&[95, 465], 456)
    ))
}

// TV-09: industry from VI built in the same turn (seed M_456).
#[test]
fn neb_76_tv09_vi_to_industry_same_turn_neb_23() {
    for orders in [
        "M_456 C 1 VI\nVI M_456 C 1 I",
        "VI M_456 C 1 I\nM_456 C 1 VI",
    ] {
        let mut s = tv09();
        play(&mut s, &[("maxtor", orders)]);
        assert_eq!(
            world_line(&report(&s, "maxtor"), 456),
            "M_456 (95,465) \"Maxtor:4\" I=2 P=12(25) MP=14(+5)"
        );
    }
    let mut s = tv09();
    play(&mut s, &[("maxtor", "VI M_456 C 1 I")]);
    let r = report(&s, "maxtor");
    assert!(
        r.contains("VI M_456 C 1 I : moins de 4 VI sur M_456"),
        "{r}"
    );
}

// TV-10: the technology block.
#[test]
fn neb_76_tv10_technology_display_neb_60() {
    let s = position(&format!(
        "[[world]]\nnumber = 1\nlinks = [2]\nowner = 1\npopulation = 5\npop_limit = 5\n\n{}[[player]]\nslot = 1\ndep = 4\ndep_progress = 4\n",
        fillers(&[2], 1)
    ));
    let r = report(&s, "maxtor");
    assert!(r.contains(
        "Vos niveaux technologiques :\nDEPlacement : 4 (+4/10)\nATTaque : 1 (5), Votre CA est de : 50\nDEFense : 1 (10), Votre CD est de : 100\n"
    ), "{r}");
    // 14 DEP from a fresh player, then ATT 3 + 4 from two worlds.
    let mut s = position(
        "[[world]]\nnumber = 1\nlinks = [2]\nowner = 1\nindustries = 30\npopulation = 50\npop_limit = 50\nmp = 30\n\n\
         [[world]]\nnumber = 2\nlinks = [1]\nowner = 1\nindustries = 5\npopulation = 5\npop_limit = 5\nmp = 5\n\n",
    );
    play(
        &mut s,
        &[("maxtor", "M_1 C 14 DEP\nM_1 C 3 ATT\nM_2 C 4 ATT")],
    );
    let r = report(&s, "maxtor");
    assert!(
        r.contains("DEPlacement : 4 (+4/10)\nATTaque : 2 (+2/5), Votre CA est de : 55\n"),
        "{r}"
    );
}

fn tv11() -> arbitre_nebulight::NebState {
    scenario("exemple-ouverture")
}

// TV-11: the opening moves of Maxtor (rulebook), turn 0 and turn 1.
#[test]
fn neb_76_tv11_maxtor_opening_neb_5_neb_48_neb_61_neb_72() {
    let mut s = tv11();
    assert_eq!(
        block(&report(&s, "maxtor"), 127),
        "Md_127 (48,123,287) \"Maxtor\" [I=30]=1 [P=50(100)]=1 MP=30(+2)\nF_57 \"Maxtor\"\nF_128 \"Maxtor\"\nF_157 \"Maxtor\"\nF_240 \"Maxtor\"\nF_301 \"Maxtor\"\n"
    );
    play(
        &mut s,
        &[("maxtor", "M_127 C 10 VC F_57\nM_127 C 10 VC F_128\nM_127 C 10 VC F_157\nF_57 M_48\nF_128 M_123\nF_157 M_287\n")],
    );
    let r = report(&s, "maxtor");
    assert_eq!(
        block(&r, 48),
        "M_48 (127,256,304) \"Maxtor\"! P=89(120) MP=3(+5)\nF_57 \"Maxtor\" []=10 du M_127\n"
    );
    assert_eq!(
        block(&r, 127),
        "Md_127 (48,123,287) \"Maxtor:1\" [I=2/30]=1 [P=55(100)]=1 MP=2(+2)\nF_240 \"Maxtor\"\nF_301 \"Maxtor\"\n\
         {F_57 \"Maxtor\" vers M_48}\n{F_128 \"Maxtor\" vers M_123}\n{F_157 \"Maxtor\" vers M_287}\n"
    );
    assert!(r.starts_with("NÉBULIGHT - Partie test - Tour 1 - Compte rendu de Maxtor\n"));
}

fn tv12() -> arbitre_nebulight::NebState {
    scenario("exemple-combat")
}

// TV-12: both fleets fire (rulebook M_505). [SEED ERROR] the rulebook prints
// F_128 with 8 ships; its own arithmetic (12 destroyed out of 18) gives 6.
#[test]
fn neb_76_tv12_both_fire_neb_35_neb_27_neb_70() {
    let mut s = tv12();
    play(
        &mut s,
        &[("miria", "F_128 * F_258"), ("maxtor", "F_258 * F_128")],
    );
    assert_eq!(
        block(&gm(&s), 505),
        "M_505 (10,23,89) P=254(356) MP=15(+4)\nF_128 \"Miria\" []=6*F_258\nF_258 \"Maxtor\" [5N]=5*F_128\n"
    );
    assert!(block(&report(&s, "miria"), 505).contains("F_258 \"Maxtor\" [?]=5?*F_128\n"));
    assert!(block(&report(&s, "maxtor"), 505).contains("F_128 \"Miria\" [?]=6?*F_258\n"));
}

// TV-13: the flight variant: CD halved for the fleeing fleet.
#[test]
fn neb_76_tv13_flight_neb_39_neb_48_neb_72() {
    let mut s = tv12();
    play(
        &mut s,
        &[("miria", "F_128 * F_258"), ("maxtor", "F_258 M_10")],
    );
    let g = gm(&s);
    assert_eq!(
        block(&g, 10),
        "M_10 (45,505) \"Maxtor:2\" [P=320(353)]=1 MP=3(+2)\nF_258 \"Maxtor\" [12N]=12 du M_505\n"
    );
    assert_eq!(
        block(&g, 505),
        "M_505 (10,23,89) \"Miria\"! P=254(356) MP=15(+4)\nF_128 \"Miria\" []=18*F_258\n{F_258 \"Maxtor\" vers M_10}\n"
    );
    let mx = report(&s, "maxtor");
    assert!(mx.find("M_10 (").unwrap() < mx.find("M_505 (").unwrap());
    assert!(block(&mx, 505).contains("F_128 \"Miria\" [?]=18?*F_258\n"));
    let mi = report(&s, "miria");
    assert!(!mi.contains("M_10 ("), "{mi}");
    assert!(mi.contains("M_505 ("));
}

fn tv14() -> arbitre_nebulight::NebState {
    scenario("exemple-embuscade")
}

// TV-14: the ambush on M_463, with the rulebook's report lines.
#[test]
fn neb_76_tv14_ambush_neb_41_neb_42_neb_43_neb_36_neb_70_neb_72() {
    let mut s = tv14();
    play(
        &mut s,
        &[
            ("maxtor", "F_124 * M\nF_73 MM 54 463 247\nF_89 MM 463 247"),
            ("miria", "VP M_463 * F_124\nF_188 MM 463 54"),
        ],
    );
    assert_eq!(
        block(&report(&s, "maxtor"), 463),
        "M_463 (54,247,400) \"Miria:4\" []=4** [P=11(23)]=1*F_124 MP=3(+1)\n\
         F_89 \"(Maxtor)\" du M_54\nF_124 \"Maxtor\" []=10*M\n\
         {F_73 \"Maxtor\" du M_54 vers M_247}\n{F_188 \"Miria\" du M_? vers M_54}\n"
    );
    assert_eq!(
        block(&report(&s, "miria"), 463),
        "M_463 (54,247,400) \"Miria:4\" []=4** [P=11(23)]=1*F_124 MP=3(+1)\n\
         F_89 \"(Maxtor)\" du M_54\nF_124 \"Maxtor\" [?]=10?*M\n\
         {F_73 \"Maxtor\" du M_? vers M_247}\n{F_188 \"Miria\" du M_400 vers M_54}\n"
    );
    assert!(block(&report(&s, "maxtor"), 247).contains("F_73 \"Maxtor\" []=5 du M_463\n"));
}

// TV-15: emigration on a map where 15 → 235 exists. [SEED ILLUSTRATIVE] the
// rulebook's M_15 is not linked to 235, so there the order is rejected.
#[test]
fn neb_76_tv15_emigration_neb_18() {
    let pos = |links: &str| {
        position(&format!(
            "[[world]]\nnumber = 15\nlinks = [{links}]\nowner = 1\nindustries = 10\npopulation = 86\npop_limit = 167\nmp = 20\n\n\
             [[world]]\nnumber = 235\nlinks = [15]\npopulation = 20\npop_limit = 30\n\n{}",
            fillers(&[13, 75, 584], 15)
        ))
    };
    let mut s = pos("13, 75, 235, 584");
    play(&mut s, &[("maxtor", "M_15 E 8 N M_235")]);
    assert_eq!(
        s.worlds[&arbitre_nebulight::model::WorldId(15)].population,
        78 + 7
    );
    let r = report(&s, "maxtor");
    assert_eq!(world_line(&r, 235), "M_235 (15) \"Maxtor\"! P=28(30)");
    assert_eq!(s.worlds[&arbitre_nebulight::model::WorldId(15)].mp, 12);
    let mut s = pos("13, 75, 584");
    play(&mut s, &[("maxtor", "M_15 E 8 N M_235")]);
    assert!(report(&s, "maxtor").contains("M_15 E 8 N M_235 : M_235 n'est pas relié à M_15"));
}

fn tv16() -> arbitre_nebulight::NebState {
    position(&format!(
        "[[world]]\nnumber = 30\nlinks = [31]\nowner = 2\npopulation = 10\npop_limit = 10\n\n{}\
         [[fleet]]\nnumber = 176\nworld = 30\nowner = 2\nvc = 5\ncargo_mp = 5\n\n\
         [[fleet]]\nnumber = 177\nworld = 30\nowner = 2\nvc = 8\ncargo_mp = 5\ncargo_n = 2\n",
        fillers(&[31], 30)
    ))
}

// TV-16: cargo notation and simultaneous transfers.
#[test]
fn neb_76_tv16_transfers_neb_25_neb_27_neb_68_neb_74() {
    let mut s = tv16();
    play(
        &mut s,
        &[("miria", "F_177 T 4 VC F_176\nF_176 T 5 VC F_177")],
    );
    let b = block(&report(&s, "miria"), 30);
    assert!(
        b.contains("F_176 \"Miria\" [4]=4\nF_177 \"Miria\" [5,2N]=9\n"),
        "{b}"
    );
    let mut s = tv16();
    play(&mut s, &[("miria", "F_176 T 10 VC VI")]);
    let r = report(&s, "miria");
    assert!(
        r.contains("F_176 T 10 VC VI : exécuté partiellement : 5 sur 10"),
        "{r}"
    );
    assert!(block(&r, 30).contains("[]=5 P=10(10)"), "{r}");
    assert!(block(&r, 30).contains("F_176 \"Miria\"\n"), "{r}");
    let mut s = tv16();
    play(&mut s, &[("miria", "F_177 T 4 VC VP")]);
    assert!(block(&report(&s, "miria"), 30).contains("F_177 \"Miria\" [2,2N]=4\n"));
}

fn tv17(extra: &str) -> arbitre_nebulight::NebState {
    position(&format!(
        "[[world]]\nnumber = 300\nlinks = [301, 302]\nowner = 2\ncounter = 5\npopulation = 40\npop_limit = 50\nvp = 2\n\n{}\
         [[fleet]]\nnumber = 10\nworld = 300\nowner = 1\nvc = 5\n\n{extra}",
        fillers(&[301, 302], 300)
    ))
}

// TV-17: the three capture cases.
#[test]
fn neb_76_tv17_capture_case_3_from_enemy_neb_48_neb_62() {
    let mut s = tv17("[[fleet]]\nnumber = 21\nworld = 300\nowner = 2\n");
    play(
        &mut s,
        &[("maxtor", "F_10 * M"), ("miria", "VP M_300 * F_10")],
    );
    let r = report(&s, "maxtor");
    assert_eq!(
        block(&r, 300),
        "M_300 (301,302) \"Maxtor(Miria)\"! [P=40(50)]=0*F_10\nF_10 \"Maxtor\" []=4*M\nF_21 \"Maxtor(Miria)\"!\n"
    );
}

#[test]
fn neb_76_tv17_capture_case_1_neutralised_neb_46() {
    let mut s = tv17("[[fleet]]\nnumber = 20\nworld = 300\nowner = 2\nvc = 3\n");
    play(
        &mut s,
        &[("maxtor", "F_10 * M"), ("miria", "VP M_300 * F_10")],
    );
    assert_eq!(
        world_line(&report(&s, "miria"), 300),
        "M_300 (301,302) \"(Miria)\" [P=40(50)]=0*F_10"
    );
}

#[test]
fn neb_76_tv17_capture_case_2_kept_neb_47() {
    let mut s = position(&format!(
        "[[world]]\nnumber = 300\nlinks = [301]\nowner = 2\ncounter = 5\npopulation = 5\npop_limit = 5\n\n{}\
         [[fleet]]\nnumber = 22\nworld = 300\nowner = 2\n",
        fillers(&[301], 300)
    ));
    play(&mut s, &[]);
    let b = block(&report(&s, "miria"), 300);
    assert_eq!(b, "M_300 (301) \"Miria:6\" P=5(5)\nF_22 \"(Miria)\"\n");
}

#[test]
fn neb_76_tv17_p0_world_and_neutral_alone_neb_49_neb_48() {
    // Maxtor alone on a world with P = 0: no capture.
    let mut s = position(&format!(
        "[[world]]\nnumber = 5\nlinks = [6]\npop_limit = 10\n\n{}[[fleet]]\nnumber = 1\nworld = 5\nowner = 1\nvc = 4\n\n\
         [[fleet]]\nnumber = 2\nworld = 5\n",
        fillers(&[6], 5)
    ));
    play(&mut s, &[]);
    let b = block(&report(&s, "maxtor"), 5);
    assert_eq!(b, "M_5 (6) P=0(10)\nF_1 \"Maxtor\" []=4\nF_2 \"Maxtor\"!\n");
    // A neutral fleet alone on an unprotected Maxtor world neutralises it.
    let mut s = position(&format!(
        "[[world]]\nnumber = 5\nlinks = [6]\nowner = 1\ncounter = 2\npopulation = 10\npop_limit = 10\n\n{}\
         [[fleet]]\nnumber = 2\nworld = 5\nvc = 3\n",
        fillers(&[6], 5)
    ));
    play(&mut s, &[]);
    assert_eq!(
        world_line(&report(&s, "maxtor"), 5),
        "M_5 (6) \"(Maxtor)\" P=10(10)"
    );
}

fn tv18(p: u32, vi: u32) -> arbitre_nebulight::NebState {
    position(&format!(
        "[[world]]\nnumber = 200\nlinks = [201, 202]\npopulation = {p}\npop_limit = 30\nvi = {vi}\n\n\
         [[world]]\nnumber = 201\nlinks = [200]\nowner = 1\nindustries = 10\npopulation = 50\npop_limit = 50\nmp = 20\n\n\
         [[world]]\nnumber = 202\nlinks = [200]\nowner = 2\nindustries = 10\npopulation = 50\npop_limit = 50\nmp = 20\n\n"
    ))
}

// TV-18: emigration conflicts: strict majority, tie, cap with proportional shares.
#[test]
fn neb_76_tv18_emigration_conflicts_neb_20_neb_21() {
    let w = arbitre_nebulight::model::WorldId;
    let mut s = tv18(20, 0);
    play(
        &mut s,
        &[
            ("maxtor", "M_201 E 6 N M_200"),
            ("miria", "M_202 E 4 N M_200"),
        ],
    );
    assert_eq!(
        world_line(&report(&s, "maxtor"), 200),
        "M_200 (201,202) \"Maxtor\"! P=30(30)"
    );
    let mut s = tv18(20, 0);
    play(
        &mut s,
        &[
            ("maxtor", "M_201 E 5 N M_200"),
            ("miria", "M_202 E 5 N M_200"),
        ],
    );
    assert_eq!(
        world_line(&report(&s, "maxtor"), 200),
        "M_200 (201,202) P=30(30)"
    );
    let mut s = tv18(35, 3);
    // No overpopulation death in phase 1 (5 surplus draws forced to "lives").
    play_scripted(
        &mut s,
        &[
            ("maxtor", "M_201 E 6 N M_200"),
            ("miria", "M_202 E 4 N M_200"),
        ],
        "1-initialisation",
        vec![0; 5],
    );
    assert_eq!(
        world_line(&report(&s, "maxtor"), 200),
        "M_200 (201,202) \"Maxtor\"! []=3 P=40(30)"
    );
    assert!(report(&s, "maxtor").contains("M_201 E 6 N M_200 : exécuté partiellement : 3 sur 6"));
    assert!(report(&s, "miria").contains("M_202 E 4 N M_200 : exécuté partiellement : 2 sur 4"));
    // Only the granted emigrants spend UP (and MP): 20 − 3 = 17, then mining 0.
    assert_eq!(s.worlds[&w(201)].mp, 17);
    assert_eq!(s.worlds[&w(202)].mp, 18);
}

// TV-19: scoring with the rounding pinned (145/10 → 15).
#[test]
fn neb_76_tv19_scoring_neb_56() {
    let s = position(
        "[[world]]\nnumber = 127\nlinks = [48]\nowner = 1\nindustries = 30\nup = 2\npopulation = 55\npop_limit = 100\nmp = 2\ncm = 2\n\n\
         [[world]]\nnumber = 48\nlinks = [127]\nowner = 1\npopulation = 89\npop_limit = 120\ncm = 5\n\n\
         [[world]]\nnumber = 9\nlinks = [48]\nowner = 1\npopulation = 1\npop_limit = 1\n\n",
    );
    assert_eq!(arbitre_nebulight::update::points(&s, 0, 3), 51);
}

fn tv20() -> arbitre_nebulight::NebState {
    position(
        "[[world]]\nnumber = 15\nlinks = [13, 65]\nowner = 1\npopulation = 10\npop_limit = 10\nvi = 3\n\n\
         [[world]]\nnumber = 13\nlinks = [15]\npopulation = 7\npop_limit = 9\n\n\
         [[world]]\nnumber = 65\nblack_hole = true\nlinks = [15]\n\n\
         [[world]]\nnumber = 99\nlinks = [13]\n\n\
         [[fleet]]\nnumber = 57\nworld = 15\nowner = 1\nvc = 3\n",
    )
}

// TV-20: probes.
#[test]
fn neb_76_tv20_probes_neb_14_neb_45_neb_67() {
    let mut s = tv20();
    play(
        &mut s,
        &[("maxtor", "VI M_15 S M_13\nF_57 S M_65\nVI M_15 S M_99")],
    );
    let r = report(&s, "maxtor");
    assert_eq!(
        world_line(&r, 15),
        "M_15 (13,65) \"Maxtor:1\" []=2 P=10(10)"
    );
    assert_eq!(world_line(&r, 13), "M_13 (15) P=7(9)");
    assert!(r.contains("\nM_65 *** Trou noir ***\n"), "{r}");
    assert!(r.contains("F_57 \"Maxtor\" []=2\n"));
    assert!(r.contains("VI M_15 S M_99 : M_99 n'est pas relié à M_15"));
    let mut s = tv20();
    play(
        &mut s,
        &[(
            "maxtor",
            "F_57 S M_13\nF_57 S M_13\nF_57 S M_13\nF_57 S M_13",
        )],
    );
    let r = report(&s, "maxtor");
    assert_eq!(
        r.matches("plus aucun vaisseau pour sonder").count(),
        1,
        "{r}"
    );
    assert!(r.contains("F_57 \"Maxtor\"\n"));
}

// TV-21: a neutral world's VP ambush a passing fleet with cargo.
#[test]
fn neb_76_tv21_neutral_ambush_neb_41_neb_42() {
    let mut s = position(
        "[[world]]\nnumber = 49\nlinks = [50]\nowner = 1\npopulation = 10\npop_limit = 10\n\n\
         [[world]]\nnumber = 50\nlinks = [49, 51]\npopulation = 10\npop_limit = 10\nvp = 3\n\n\
         [[world]]\nnumber = 51\nlinks = [50]\n\n\
         [[fleet]]\nnumber = 7\nworld = 49\nowner = 1\nvc = 10\ncargo_mp = 5\n\n\
         [[player]]\nslot = 1\ndiscovered = [49, 50]\n",
    );
    play(&mut s, &[("maxtor", "F_7 MM 50 51")]);
    let r = report(&s, "maxtor");
    assert_eq!(world_line(&r, 50), "M_50 (49,51) [P=10(10)]=3**");
    assert!(
        block(&r, 51).contains("F_7 \"Maxtor\" [5]=5 du M_50\n"),
        "{r}"
    );
}

// TV-22: a black hole with forced draws: 40 % lost, thrown to M_300.
#[test]
fn neb_76_tv22_black_hole_neb_44_neb_71() {
    let mut s = position(
        "[[world]]\nnumber = 60\nlinks = [65]\nowner = 1\npopulation = 10\npop_limit = 10\nvi = 1\n\n\
         [[world]]\nnumber = 65\nblack_hole = true\nlinks = [60, 70]\n\n\
         [[world]]\nnumber = 70\nlinks = [65]\n\n\
         [[world]]\nnumber = 300\nlinks = [70]\npopulation = 3\npop_limit = 3\n\n\
         [[fleet]]\nnumber = 5\nworld = 60\nowner = 1\nvc = 10\ncargo_mp = 4\n\n\
         [[player]]\nslot = 1\ndiscovered = [60, 65, 70]\n",
    );
    // Non-black-hole worlds in ascending order: 60, 70, 300 → index 2.
    play_scripted(
        &mut s,
        &[("maxtor", "F_5 MM 65 70")],
        "12-combat",
        vec![40, 2],
    );
    let r = report(&s, "maxtor");
    assert!(r.contains("\nM_65 *** Trou noir ***\n"), "{r}");
    assert!(
        block(&r, 300).contains("F_5 \"Maxtor\" [4]=6 du M_65\n"),
        "{r}"
    );
    // Maxtor was alone with ships on M_300 (P = 3): captured.
    assert!(world_line(&r, 300).starts_with("M_300 (70) \"Maxtor\"!"));
}

// TV-23: order syntax equivalences on a real turn.
#[test]
fn neb_76_tv23_syntax_equivalences_neb_6_neb_7() {
    let run = |orders: &str| {
        let mut s = tv11();
        play(&mut s, &[("maxtor", orders)]);
        serde_json::to_string(&s.worlds).unwrap() + &serde_json::to_string(&s.fleets).unwrap()
    };
    let a = run("M_127 C 10 VC F_57\nF_57 M_48");
    assert_eq!(a, run("M 127 C 10 VC F 57\nF 57 MM 48"));
    assert_eq!(a, run("m127 c 10 vc f57\nf_57 m_48"));
}

/// The complete example mail of docs/nebulight.md is valid and gives the
/// report lines the guide shows.
#[test]
fn neb_7_player_guide_example_mail_plays_as_documented() {
    let doc = include_str!("../../../docs/nebulight.md");
    let mail = doc.split("```\nFrom:").nth(1).expect("example mail");
    let body = mail
        .split("MOT-DE-PASSE etoile-filante\n")
        .nth(1)
        .unwrap()
        .split("\nEND")
        .next()
        .unwrap();
    let p = arbitre_nebulight::parser::parse(body);
    assert_eq!(p.error_count(), 0);
    let mut s = tv11();
    s.game = "defi-07".into();
    play(&mut s, &[("maxtor", body)]);
    let r = report(&s, "maxtor");
    let shown = doc
        .split("Au tour suivant, le compte rendu de Maxtor contient notamment :\n\n```\n")
        .nth(1)
        .unwrap();
    for line in shown.split("\n```").next().unwrap().lines() {
        assert!(r.contains(&format!("{line}\n")), "{line}\n{r}");
    }
    let header = doc
        .split("un en-tête, vos niveaux technologiques et vos points :\n\n```\n")
        .nth(1)
        .unwrap();
    let header = header.split("```").next().unwrap();
    assert!(r.starts_with(header), "{header}\n---\n{r}");
}

// TV-24: CA/CD and T/D arithmetic, a table of inputs and outputs kept as
// data in tests/examples/tv24.toml (no position, no turn).
#[test]
fn neb_76_tv24_ca_cd_arithmetic_as_data() {
    use arbitre_nebulight::tech::{damage, hits};
    let doc: toml::Table = include_str!("examples/tv24.toml").parse().unwrap();
    let rows = |k: &str| -> Vec<toml::Table> {
        let v: Vec<toml::Table> = doc[k]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_table().unwrap().clone())
            .collect();
        assert!(!v.is_empty(), "no [[{k}]] rows");
        v
    };
    let int =
        |r: &toml::Table, k: &str| r[k].as_integer().unwrap_or_else(|| panic!("{k} in {r:?}"));
    for r in rows("hits") {
        let got = hits(
            int(&r, "ships") as u32,
            int(&r, "ca") as u32,
            r["ambush"].as_bool().unwrap(),
        );
        assert_eq!(got as i64, int(&r, "expect"), "{r:?}");
    }
    for r in rows("damage") {
        let cargo = r
            .get("hold")
            .map(|_| (int(&r, "hold") as u32, int(&r, "cargo") as u32));
        let got = damage(
            int(&r, "t") as u64,
            int(&r, "cd") as u32,
            cargo,
            r["flees"].as_bool().unwrap(),
        );
        assert_eq!(got as i64, int(&r, "expect"), "{r:?}");
    }
}
