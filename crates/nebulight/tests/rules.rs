//! One test (at least) per checklist item of the specification (NEB-n), each
//! set up as a position, played through a real turn, and checked on the state
//! and on the report line.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;
use arbitre_core::{Engine, Rng, Ruleset};
use arbitre_nebulight::model::{FleetId, WorldId};
use arbitre_nebulight::Nebulight;
use common::*;

fn w(n: u32) -> WorldId {
    WorldId(n)
}
fn f(n: u32) -> FleetId {
    FleetId(n)
}

const HOME: &str = "[[world]]\nnumber = 1\nlinks = [2, 3]\nowner = 1\ncounter = 2\nindustries = 10\npopulation = 40\npop_limit = 60\nmp = 20\ncm = 2\nvi = 1\nvp = 1\n\n\
[[world]]\nnumber = 2\nlinks = [1, 3]\npopulation = 30\npop_limit = 40\nmp = 5\ncm = 3\n\n\
[[world]]\nnumber = 3\nlinks = [1, 2, 4]\nowner = 2\ncounter = 2\nindustries = 10\npopulation = 40\npop_limit = 60\nmp = 20\ncm = 2\nvi = 1\nvp = 1\n\n\
[[world]]\nnumber = 4\nlinks = [3]\npopulation = 5\npop_limit = 5\n\n";

fn home(extra: &str) -> arbitre_nebulight::NebState {
    position(&format!("{HOME}{extra}"))
}

#[test]
fn neb_1_builtin_maps_load_and_bad_maps_are_refused() {
    for name in ["duel", "duel-petit"] {
        let s = Nebulight
            .setup(
                &config(&[], &format!("map = \"{name}\"")),
                &mut Rng::for_setup(9),
            )
            .unwrap();
        assert_eq!(
            s.fleets.values().filter(|f| f.owner == Some(0)).count(),
            if name == "duel" { 5 } else { 3 }
        );
        assert!(s.worlds.values().any(|w| w.black_hole));
        // Symmetric links: every link has its reverse.
        for (a, x) in &s.worlds {
            for b in &x.links {
                assert!(s.worlds[b].links.contains(a), "{name}: {a:?}->{b:?}");
            }
        }
    }
    let head = "[map]\nrenumber = false\nsymmetric_links = false\n";
    let ok_worlds = "[[world]]\nnumber = 1\nlinks = [2]\nowner = 1\npopulation = 5\npop_limit = 5\n\n[[world]]\nnumber = 2\nlinks = [1]\nowner = 2\npopulation = 5\npop_limit = 5\n\n";
    let bad = [
        (
            "[[world]]\nnumber = 3\nlinks = [9]\n",
            "link to world 9, which does not exist",
        ),
        (
            "[[world]]\nnumber = 3\nlinks = [3]\n",
            "world 3: linked to itself",
        ),
        (
            "[[world]]\nnumber = 3\nlinks = [1]\nblack_hole = true\npopulation = 2\n",
            "world 3: a black hole holds nothing",
        ),
        (
            "[[world]]\nnumber = 3\nlinks = [1]\nowner = 1\n",
            "world 3: an owned world needs a population",
        ),
        (
            "[[world]]\nnumber = 3\nlinks = [1]\ncm = 11\n",
            "cm = 11: expected between 0 and 10",
        ),
        (
            "[[world]]\nnumber = 3\nlinks = [1]\npopulation = 20\npop_limit = 5\n",
            "world 3: population more than 10 above its limit",
        ),
        (
            "[[world]]\nnumber = 1\nlinks = [2]\n",
            "world 1 appears twice",
        ),
        (
            "[[fleet]]\nnumber = 1\nworld = 1\nvc = 1\ncargo_mp = 2\n",
            "fleet 1: cargo 2 above its hold 1",
        ),
    ];
    for (extra, needle) in bad {
        let text = format!("{head}{ok_worlds}{extra}");
        let e = Nebulight
            .setup(
                &config(&[("position_file", &text)], ""),
                &mut Rng::for_setup(1),
            )
            .unwrap_err();
        assert!(e.to_string().contains(needle), "{extra}: {e}");
    }
    // Directed links stay one-way without symmetric_links.
    let s = position("[[world]]\nnumber = 1\nlinks = [2]\nowner = 1\npopulation = 5\npop_limit = 5\n\n[[world]]\nnumber = 2\nlinks = [3]\n\n[[world]]\nnumber = 3\nlinks = [2]\n");
    assert!(!s.worlds[&w(2)].links.contains(&w(1)));
}

#[test]
fn neb_2_game_options_and_player_count() {
    let s = Nebulight
        .setup(
            &config(
                &[],
                "map = \"duel-petit\"\nturns = 5\nhide_foreign_cargo = false\n",
            ),
            &mut Rng::for_setup(1),
        )
        .unwrap();
    assert_eq!(s.max_turns, 5);
    assert!(!s.options.hide_foreign_cargo);
    assert!(s.options.enforce_known_worlds);
    let mut c = config(&[], "");
    c.players.truncate(1);
    assert!(Nebulight.setup(&c, &mut Rng::for_setup(1)).is_err());
    let e = Nebulight
        .setup(&config(&[], "map = \"nulle-part\""), &mut Rng::for_setup(1))
        .unwrap_err();
    assert!(e.to_string().contains("nulle-part"));
    // `[players.rules] slot` puts Miria in slot 1.
    let mut c = config(&[], "map = \"duel-petit\"");
    c.players[0]
        .options
        .insert("slot".into(), toml::Value::Integer(2));
    c.players[1]
        .options
        .insert("slot".into(), toml::Value::Integer(1));
    let s = Nebulight.setup(&c, &mut Rng::for_setup(1)).unwrap();
    assert_eq!(
        (s.players[0].id.as_str(), s.players[1].id.as_str()),
        ("miria", "maxtor")
    );
    c.players[1]
        .options
        .insert("slot".into(), toml::Value::Integer(2));
    assert!(Nebulight.setup(&c, &mut Rng::for_setup(1)).is_err());
    // A map file handed over by the daemon.
    let text = include_str!("../../../rulesets/nebulight/maps/duel-petit.toml");
    let s = Nebulight
        .setup(&config(&[("map_file", text)], ""), &mut Rng::for_setup(1))
        .unwrap();
    assert_eq!(s.worlds.len(), 12);
    // An inline position table.
    let s = Nebulight
        .setup(
            &config(&[], "[position.map]\nrenumber = false\n[position.game]\nturn = 7\n[[position.world]]\nnumber = 8\nlinks = [9]\nowner = 1\npopulation = 3\npop_limit = 3\n[[position.world]]\nnumber = 9\nlinks = [8]\n"),
            &mut Rng::for_setup(1),
        )
        .unwrap();
    assert_eq!(s.turn, 7);
    assert!(s.worlds[&w(9)].links.contains(&w(8)));
}

#[test]
fn neb_3_world_and_fleet_numbers_are_drawn_from_the_seed() {
    let make = |seed| {
        Nebulight
            .setup(&config(&[], "map = \"duel\""), &mut Rng::for_setup(seed))
            .unwrap()
    };
    let a = make(1);
    let b = make(1);
    let c = make(2);
    assert_eq!(a, b);
    assert_ne!(
        a.worlds.keys().collect::<Vec<_>>(),
        c.worlds.keys().collect::<Vec<_>>()
    );
    assert!(a.worlds.keys().all(|k| (1..=999).contains(&k.0)));
    assert!(a.fleets.keys().all(|k| (1..=400).contains(&k.0)));
    assert_eq!(a.worlds.len(), 41);
    // Same topology: the sorted degree list does not depend on numbering.
    let deg = |s: &arbitre_nebulight::NebState| {
        let mut d: Vec<usize> = s.worlds.values().map(|w| w.links.len()).collect();
        d.sort();
        d
    };
    assert_eq!(deg(&a), deg(&c));
}

#[test]
fn neb_4_initial_technologies_and_neutral_coefficients() {
    let s = Nebulight
        .setup(&config(&[], "map = \"duel-petit\""), &mut Rng::for_setup(3))
        .unwrap();
    for p in &s.players {
        assert_eq!(
            (
                p.dep.level,
                p.dep.progress,
                p.att.level,
                p.att.progress,
                p.def.level,
                p.def.progress
            ),
            (3, 0, 1, 0, 1, 0)
        );
    }
    assert!(report(&s, "maxtor").contains("DEPlacement : 3 (10)\nATTaque : 1 (5), Votre CA est de : 50\nDEFense : 1 (10), Votre CD est de : 100\n"));
    assert_eq!(
        (
            arbitre_nebulight::tech::ca(1),
            arbitre_nebulight::tech::cd(1)
        ),
        (50, 100)
    );
}

#[test]
fn neb_5_initial_up_and_turn_0_report() {
    let s = Nebulight
        .setup(&config(&[], "map = \"duel\""), &mut Rng::for_setup(3))
        .unwrap();
    let start = s
        .worlds
        .values()
        .find(|w| w.is_start && w.owner == Some(0))
        .unwrap();
    assert_eq!(start.up, 30);
    let r = report(&s, "maxtor");
    assert!(
        r.contains(" \"Maxtor\" [I=30]=1 [P=50(100)]=1 MP=30(+2) ["),
        "{r}"
    );
    assert!(r.contains("Points ce tour : 0 (total : 0)\n"));
    assert_eq!(r.lines().filter(|l| l.starts_with("Md_")).count(), 1);
}

#[test]
fn neb_9_onr_player_resolves_with_no_orders() {
    let mut s = home("");
    play(&mut s, &[("maxtor", "M_1 C 1 VI")]);
    assert_eq!(s.turn, 1);
    assert_eq!(s.worlds[&w(3)].population, 44);
    assert!(world_line(&report(&s, "miria"), 3).starts_with("M_3 (1,2,4) \"Miria:3\""));
}

#[test]
fn neb_10_ownership_is_checked_when_the_phase_runs() {
    // Neutral M_2 with 2 VI is taken by emigration in phase 5; its VI can then
    // be transferred in phase 9 of the same turn.
    let mut s = position(&HOME.replace(
        "population = 30\npop_limit = 40\nmp = 5\ncm = 3\n",
        "population = 30\npop_limit = 40\nmp = 5\ncm = 3\nvi = 2\n",
    ));
    play(
        &mut s,
        &[("maxtor", "M_2 T 2 VI VP\nM_1 E 5 N M_2\nM_3 C 1 VI")],
    );
    assert_eq!((s.worlds[&w(2)].vi, s.worlds[&w(2)].vp), (0, 2));
    assert_eq!(s.worlds[&w(2)].owner, Some(0));
    let r = report(&s, "maxtor");
    assert!(
        r.contains("M_3 C 1 VI : le monde M_3 ne vous appartient pas"),
        "{r}"
    );
}

#[test]
fn neb_11_one_exclusive_order_per_firing_point() {
    let mut s = home("[[fleet]]\nnumber = 7\nworld = 1\nowner = 1\nvc = 5\n\n[[fleet]]\nnumber = 8\nworld = 3\nowner = 2\nvc = 2\n");
    play(&mut s, &[("maxtor", "F_7 * F_8\nF_7 M_2\nF_7 * M")]);
    let r = report(&s, "maxtor");
    // F_8 is not on M_1: the fire order is void, so the move is the first valid one.
    assert!(
        r.contains("F_7 * F_8 : la flotte F_8 n'était pas sur M_1 au début du tour"),
        "{r}"
    );
    assert!(r.contains("F_7 * M : ordre exclusif déjà donné"), "{r}");
    assert_eq!(s.fleets[&f(7)].world, w(2));
}

#[test]
fn neb_13_neb_29_loading_the_last_populations_neutralises_the_world() {
    let mut s = position(
        "[[world]]\nnumber = 1\nlinks = [2]\nowner = 1\npopulation = 4\npop_limit = 5\nvi = 2\n\n[[world]]\nnumber = 2\nlinks = [1]\nowner = 2\npopulation = 9\npop_limit = 9\n\n\
         [[fleet]]\nnumber = 7\nworld = 1\nowner = 1\nvc = 6\n",
    );
    play(&mut s, &[("maxtor", "F_7 C N")]);
    assert_eq!(s.fleets[&f(7)].cargo_n, 4);
    let r = report(&s, "maxtor");
    // World neutral with its VI; case 1 of phase 13 (F_7 and the neutral VI) keeps it neutral.
    assert_eq!(world_line(&r, 1), "M_1 (2) \"(Maxtor)\" []=2 P=0(5)");
    assert!(r.contains("F_7 \"Maxtor\" [4N]=6"));
}

#[test]
fn neb_15_construction_costs_up_and_mp_and_is_partial() {
    let mut s = home("[[fleet]]\nnumber = 7\nworld = 1\nowner = 1\n");
    play(
        &mut s,
        &[("maxtor", "M_1 C 4 VC F_7\nM_1 C 10 VP\nM_1 C 1 VI")],
    );
    assert_eq!(s.fleets[&f(7)].vc, 4);
    assert_eq!(s.worlds[&w(1)].vp, 7);
    let r = report(&s, "maxtor");
    assert!(
        r.contains("M_1 C 10 VP : exécuté partiellement : 6 sur 10"),
        "{r}"
    );
    assert!(
        r.contains("M_1 C 1 VI : plus d'UP disponibles sur M_1"),
        "{r}"
    );
    // 10 MP spent, then 2 mined (44 pops − 10 employed).
    assert_eq!(s.worlds[&w(1)].mp, 12);
}

#[test]
fn neb_17_population_limit_plus_one_per_up() {
    let mut s = home("");
    play(&mut s, &[("maxtor", "M_1 C 3 P")]);
    assert_eq!(s.worlds[&w(1)].limit, 63);
    assert_eq!(s.worlds[&w(1)].mp, 19);
}

#[test]
fn neb_19_unloading_populations() {
    let extra = "[[fleet]]\nnumber = 7\nworld = 2\nowner = 1\nvc = 6\ncargo_n = 6\n\n[[fleet]]\nnumber = 8\nworld = 3\nowner = 1\nvc = 6\ncargo_n = 6\n\n\
                 [[fleet]]\nnumber = 9\nworld = 1\nowner = 1\nvc = 6\ncargo_n = 6\n";
    let mut s = home(extra);
    play(&mut s, &[("maxtor", "F_9 D 2 N\nF_8 D N\nF_7 D N")]);
    assert_eq!(s.fleets[&f(9)].cargo_n, 4);
    assert_eq!(s.worlds[&w(1)].population, 42 + 4);
    let r = report(&s, "maxtor");
    assert!(
        r.contains("F_8 D N : débarquement interdit sur M_3 (monde ennemi peuplé)"),
        "{r}"
    );
    // M_2 is neutral with P = 30 > 0: not allowed either.
    assert!(r.contains("F_7 D N : débarquement interdit sur M_2"), "{r}");
    // On a P = 0 world unloading captures it.
    let mut s = position(
        "[[world]]\nnumber = 1\nlinks = [2]\nowner = 1\npopulation = 4\npop_limit = 5\n\n[[world]]\nnumber = 2\nlinks = [1]\npop_limit = 8\n\n\
         [[fleet]]\nnumber = 7\nworld = 2\nowner = 1\nvc = 6\ncargo_n = 6\n",
    );
    play(&mut s, &[("maxtor", "F_7 D N")]);
    assert_eq!(
        world_line(&report(&s, "maxtor"), 2),
        "M_2 (1) \"Maxtor\"! P=6(8)"
    );
}

#[test]
fn neb_22_industries_at_four_up_whole_units() {
    let mut s = home("");
    play(&mut s, &[("maxtor", "M_1 C 3 I")]);
    assert_eq!(s.worlds[&w(1)].industries, 12);
    assert!(report(&s, "maxtor").contains("M_1 C 3 I : exécuté partiellement : 2 sur 3"));
    assert_eq!(s.worlds[&w(1)].mp, 20 - 8 + 2);
}

#[test]
fn neb_24_unloading_mp_anywhere_all_by_default() {
    let mut s = home("[[fleet]]\nnumber = 7\nworld = 2\nowner = 1\nvc = 6\ncargo_mp = 5\n\n[[fleet]]\nnumber = 8\nworld = 3\nowner = 1\nvc = 6\ncargo_mp = 5\n");
    play(&mut s, &[("maxtor", "F_7 D MP\nF_8 D 2 MP")]);
    assert_eq!(s.worlds[&w(2)].mp, 10);
    assert_eq!(s.fleets[&f(8)].cargo_mp, 3);
}

#[test]
fn neb_26_transferred_ships_belong_to_the_receiving_container() {
    let mut s = home("[[fleet]]\nnumber = 7\nworld = 1\nowner = 2\nvc = 1\n\n[[fleet]]\nnumber = 8\nworld = 1\nvc = 0\n\n[[fleet]]\nnumber = 9\nworld = 1\nowner = 1\nvc = 4\n");
    play(&mut s, &[("maxtor", "M_1 T 1 VI F_7\nF_9 T 3 VC F_8")]);
    assert_eq!(s.fleets[&f(7)].vc, 2);
    assert_eq!(s.fleets[&f(7)].owner, Some(1));
    assert_eq!(s.fleets[&f(8)].vc, 3);
    assert_eq!(s.fleets[&f(8)].owner, None);
}

#[test]
fn neb_28_loading_mp_needs_an_owned_world() {
    let mut s = home("[[fleet]]\nnumber = 7\nworld = 1\nowner = 1\nvc = 6\ncargo_n = 1\n\n[[fleet]]\nnumber = 8\nworld = 2\nowner = 1\nvc = 6\n");
    play(&mut s, &[("maxtor", "F_7 C MP\nF_8 C 3 MP")]);
    assert_eq!(s.fleets[&f(7)].cargo_mp, 5);
    assert!(report(&s, "maxtor").contains("F_8 C 3 MP : le monde M_2 ne vous appartient pas"));
}

#[test]
fn neb_33_neb_37_targets_and_order_of_destruction() {
    // F * P: VP first, then populations. F * I: VI first, then industries.
    let mut s = home("[[fleet]]\nnumber = 7\nworld = 3\nowner = 1\nvc = 10\n\n[[fleet]]\nnumber = 8\nworld = 3\nowner = 1\nvc = 10\n");
    play(&mut s, &[("maxtor", "F_7 * P\nF_8 * I")]);
    let x = &s.worlds[&w(3)];
    // T = 5, D = 5 each: VP 1 then 4 populations; VI 1 then 4 industries.
    assert_eq!((x.vp, x.vi, x.industries), (0, 0, 6));
    // With VI and VP gone and only Maxtor's ships left, M_3 is captured.
    let r = report(&s, "miria");
    assert_eq!(
        world_line(&r, 3),
        "M_3 (1,2,4) \"Maxtor(Miria)\"! I=6 P=36{-4N}(60) MP=20(+2)"
    );
    assert!(block(&r, 3).contains("F_7 \"Maxtor\" [?]=10?*P\nF_8 \"Maxtor\" [?]=10?*I\n"));
    // VI cannot fire at populations (parser), VP can execute them.
    let mut s = home("");
    play(&mut s, &[("maxtor", "VI M_1 * N\nVP M_1 * N")]);
    let r = report(&s, "maxtor");
    assert!(
        r.contains("VI M_1 * N : colonne 10 : les VI ne peuvent tirer que sur une flotte"),
        "{r}"
    );
    // 40 − 1 executed, then growth +3.
    assert!(world_line(&r, 1).contains("[P=42{-1N}(60)]=1*N"), "{r}");
}

#[test]
fn neb_34_target_fleet_must_have_been_there_at_the_start() {
    let mut s = home("[[fleet]]\nnumber = 7\nworld = 1\nowner = 1\nvc = 5\n\n[[fleet]]\nnumber = 8\nworld = 2\nowner = 2\nvc = 5\n");
    play(&mut s, &[("maxtor", "F_7 * F_8"), ("miria", "F_8 M_1")]);
    assert!(report(&s, "maxtor")
        .contains("F_7 * F_8 : la flotte F_8 n'était pas sur M_1 au début du tour"));
    assert_eq!(s.fleets[&f(8)].vc, 5);
}

#[test]
fn neb_38_killed_populations_cost_the_shooter_points() {
    let base = "[[fleet]]\nnumber = 7\nworld = 4\nowner = 1\nvc = 6\n";
    let mut a = home(base);
    let mut b = home(base);
    play(&mut a, &[("maxtor", "F_7 * P")]);
    play(&mut b, &[]);
    // 3 populations killed on neutral M_4: −3 points (the world is neutral, no P score).
    assert_eq!(a.log.players[0].kills, 3);
    assert_eq!(a.log.players[0].points, b.log.players[0].points - 3);
    assert!(world_line(&gm(&a), 4).contains("P=2{-3N}(5)"));
}

#[test]
fn neb_40_move_validation() {
    let mut s = position(
        "[[world]]\nnumber = 1\nlinks = [2]\nowner = 1\npopulation = 5\npop_limit = 5\nvi = 1\n\n\
         [[world]]\nnumber = 2\nlinks = [1, 3]\n\n[[world]]\nnumber = 3\nlinks = [2, 4]\n\n[[world]]\nnumber = 4\nlinks = [3, 5]\n\n[[world]]\nnumber = 5\nlinks = [4]\n\n\
         [[fleet]]\nnumber = 7\nworld = 1\nowner = 1\nvc = 5\n\n[[fleet]]\nnumber = 8\nworld = 1\nowner = 1\n\n[[fleet]]\nnumber = 9\nworld = 1\nowner = 1\nvc = 2\n\n\
         [[fleet]]\nnumber = 10\nworld = 1\nowner = 1\nvc = 2\n\n\
         [[player]]\nslot = 1\ndiscovered = [1, 2, 3, 4]\n",
    );
    play(
        &mut s,
        &[("maxtor", "F_7 MM 2 3 4 5\nF_8 M_2\nF_9 M_3\nF_10 MM 2 1 2")],
    );
    let r = report(&s, "maxtor");
    assert!(
        r.contains("F_7 MM 2 3 4 5 : chemin réduit à 3 mondes (DEP 3)"),
        "{r}"
    );
    assert_eq!(s.fleets[&f(7)].world, w(4));
    assert!(r.contains("F_8 M_2 : la flotte F_8 n'a aucun VC"), "{r}");
    assert!(r.contains("F_9 M_3 : M_3 n'est pas relié à M_1"), "{r}");
    assert_eq!(s.fleets[&f(10)].world, w(2));
    // M_5 is linked from M_4, now discovered, so it is known next turn; M_6 never.
    let mut s2 = s.clone();
    play(&mut s2, &[("maxtor", "F_7 M_5")]);
    assert_eq!(s2.fleets[&f(7)].world, w(5));
}

#[test]
fn neb_40_unknown_worlds_cannot_be_headed_for() {
    let mut s = position(
        "[[world]]\nnumber = 1\nlinks = [2]\nowner = 1\npopulation = 5\npop_limit = 5\nvi = 1\n\n\
         [[world]]\nnumber = 2\nlinks = [1, 3]\n\n[[world]]\nnumber = 3\nlinks = [2]\n\n\
         [[fleet]]\nnumber = 7\nworld = 1\nowner = 1\nvc = 5\n",
    );
    play(&mut s, &[("maxtor", "F_7 MM 2 3")]);
    assert!(report(&s, "maxtor").contains("F_7 MM 2 3 : M_3 vous est inconnu"));
}

#[test]
fn neb_50_counter_resets_on_capture_and_counts_after() {
    let mut s = position(
        "[[world]]\nnumber = 1\nlinks = [2]\nowner = 1\ncounter = 9\npopulation = 5\npop_limit = 5\nvi = 1\n\n\
         [[world]]\nnumber = 2\nlinks = [1]\npopulation = 5\npop_limit = 5\n\n\
         [[fleet]]\nnumber = 7\nworld = 1\nowner = 1\nvc = 5\n",
    );
    play(&mut s, &[("maxtor", "F_7 M_2")]);
    let r = report(&s, "maxtor");
    assert_eq!(world_line(&r, 2), "M_2 (1) \"Maxtor\"! P=5(5)");
    assert_eq!(world_line(&r, 1), "M_1 (2) \"Maxtor:10\" []=1 P=5(5)");
    play(&mut s, &[]);
    assert_eq!(
        world_line(&report(&s, "maxtor"), 2),
        "M_2 (1) \"Maxtor:1\" P=5(5)"
    );
}

#[test]
fn neb_57_final_result_after_the_last_turn() {
    let text =
        format!("[map]\nrenumber = false\nsymmetric_links = false\n[game]\nturns = 1\n{HOME}");
    let e = arbitre_core::Adapter(Nebulight);
    let snap = e.setup(&config(&[("position_file", &text)], "")).unwrap();
    let res = e.resolve(&snap.state, SEED, &Default::default()).unwrap();
    let out = res.outcome.expect("game over after turn 1");
    assert_eq!(out.ranking.len(), 2);
    let body = &res.reports[&arbitre_core::PlayerId::from("maxtor")].body;
    assert!(body.contains("Résultat final : Maxtor "), "{body}");
    // Symmetric position and no orders: a draw.
    assert!(body.contains("Match nul\n"), "{body}");
    assert!(matches!(
        e.resolve(&res.snapshot.state, SEED, &Default::default()),
        Err(arbitre_core::EngineError::GameOver)
    ));
}

#[test]
fn neb_58_neb_59_visibility_and_discoveries() {
    // M_2 keeps one neutral VP, so Maxtor's visit does not capture it.
    let mut s = position(&format!(
        "{}[[fleet]]\nnumber = 7\nworld = 1\nowner = 1\nvc = 5\n",
        HOME.replace("mp = 5\ncm = 3\n", "mp = 5\ncm = 3\nvp = 1\n")
    ));
    let r0 = report(&s, "miria");
    assert!(!r0.contains("M_1 ("), "{r0}");
    play(&mut s, &[("maxtor", "F_7 M_2")]);
    let r = report(&s, "maxtor");
    // Rule 1 (M_1 owned), rule 3 (M_2, fleet there).
    assert!(r.contains("M_1 (2,3)") && r.contains("M_2 (1,3)"), "{r}");
    assert!(!r.contains("M_3 ("));
    assert!(s.players[0].discovered.contains(&w(2)));
    // The fleet comes back: M_2 is no longer shown but stays discovered.
    play(&mut s, &[("maxtor", "F_7 M_1")]);
    let r = report(&s, "maxtor");
    assert!(
        r.contains("M_2 (1,3)"),
        "rule 4: the departure world is shown"
    );
    play(&mut s, &[]);
    let r = report(&s, "maxtor");
    assert!(!r.contains("M_2 (1,3)"), "{r}");
    assert!(s.players[0].discovered.contains(&w(2)));
    assert!(s.known(0).contains(&w(3)));
}

#[test]
fn neb_66_coordinates_are_the_last_part() {
    let s = position(
        "[[world]]\nnumber = 342\nlinks = [45, 89, 245, 368]\ncoords = [12, 7]\nowner = 1\ncounter = 3\npopulation = 49\npop_limit = 78\nvp = 1\nmp = 3\ncm = 1\n\n\
         [[world]]\nnumber = 45\nlinks = [342]\n\n[[world]]\nnumber = 89\nlinks = [342]\n\n[[world]]\nnumber = 245\nlinks = [342]\n\n[[world]]\nnumber = 368\nlinks = [342]\n",
    );
    assert_eq!(
        world_line(&report(&s, "maxtor"), 342),
        "M_342 (45,89,245,368) \"Maxtor:3\" [P=49(78)]=1 MP=3(+1) [12,7]"
    );
}

#[test]
fn neb_73_blocks_fleets_and_traces_in_ascending_order() {
    let mut s = home("[[fleet]]\nnumber = 30\nworld = 1\nowner = 1\nvc = 2\n\n[[fleet]]\nnumber = 4\nworld = 1\nowner = 1\nvc = 2\n\n[[fleet]]\nnumber = 12\nworld = 1\nowner = 1\nvc = 2\n");
    play(&mut s, &[("maxtor", "F_30 M_2\nF_12 M_2\nF_4 M_2")]);
    let r = report(&s, "maxtor");
    assert_eq!(
        block(&r, 2),
        "M_2 (1,3) \"Maxtor\"! P=30(40) MP=5(+3)\nF_4 \"Maxtor\" []=2 du M_1\nF_12 \"Maxtor\" []=2 du M_1\nF_30 \"Maxtor\" []=2 du M_1\n"
    );
    assert!(block(&r, 1).ends_with(
        "{F_4 \"Maxtor\" vers M_2}\n{F_12 \"Maxtor\" vers M_2}\n{F_30 \"Maxtor\" vers M_2}\n"
    ));
    assert!(r.find("M_1 (").unwrap() < r.find("M_2 (").unwrap());
}

#[test]
fn neb_27_cargo_check_after_a_fleet_probe() {
    let mut s =
        home("[[fleet]]\nnumber = 7\nworld = 1\nowner = 1\nvc = 3\ncargo_mp = 2\ncargo_n = 1\n");
    play(&mut s, &[("maxtor", "F_7 S M_2\nF_7 S M_3")]);
    // 1 VC left for 3 cargo: 2 MP lost first, then nothing more (1 N fits).
    assert!(block(&report(&s, "maxtor"), 1).contains("F_7 \"Maxtor\" [1N]=1\n"));
}

#[test]
fn neb_35_simultaneous_fire_adds_losses_and_caps_them() {
    // Two Maxtor fleets fire at Miria's F_9 (4 VC); F_9 fires back at F_7.
    // F_7: T = ceil(10×50/100) = 5 → D 5; F_8: T = 3 → D 3; total 8, capped at 4.
    // F_9 (snapshot 4 VC): T = 2 → F_7 loses 2, though F_9 is wiped out.
    let mut s = home(
        "[[fleet]]\nnumber = 7\nworld = 2\nowner = 1\nvc = 10\n\n[[fleet]]\nnumber = 8\nworld = 2\nowner = 1\nvc = 5\n\n\
         [[fleet]]\nnumber = 9\nworld = 2\nowner = 2\nvc = 4\n",
    );
    play(
        &mut s,
        &[("maxtor", "F_7 * F_9\nF_8 * F_9"), ("miria", "F_9 * F_7")],
    );
    let b = block(&gm(&s), 2);
    assert!(
        b.contains(
            "F_7 \"Maxtor\" []=8*F_9\nF_8 \"Maxtor\" []=5*F_9\nF_9 \"Maxtor(Miria)\"! *F_7\n"
        ),
        "{b}"
    );
}

#[test]
fn neb_39_interception_when_fire_empties_a_fleeing_fleet() {
    // Miria's F_9 (2 VC) tries to leave M_2; Maxtor's F_7 (10 VC) fires:
    // T = 5, D = ceil(5 × 50/100) = 3 (CD halved) ≥ 2 → intercepted.
    let mut s = home("[[fleet]]\nnumber = 7\nworld = 2\nowner = 1\nvc = 10\n\n[[fleet]]\nnumber = 9\nworld = 2\nowner = 2\nvc = 2\n");
    play(&mut s, &[("maxtor", "F_7 * F_9"), ("miria", "F_9 M_1")]);
    assert_eq!(s.fleets[&f(9)].world, w(2));
    let b = block(&report(&s, "miria"), 2);
    assert!(b.contains("F_9 \"Maxtor(Miria)\"!\n"), "{b}");
    assert!(
        !b.contains("{F_9"),
        "no trace for an intercepted fleet: {b}"
    );
    // With 10 VC instead, the flight succeeds with halved damage: 10 − 3 = 7.
    let mut s = home("[[fleet]]\nnumber = 7\nworld = 2\nowner = 1\nvc = 10\n\n[[fleet]]\nnumber = 9\nworld = 2\nowner = 2\nvc = 10\n");
    play(&mut s, &[("maxtor", "F_7 * F_9"), ("miria", "F_9 M_1")]);
    assert_eq!((s.fleets[&f(9)].world, s.fleets[&f(9)].vc), (w(1), 7));
}

#[test]
fn neb_70_wiped_out_shooter_keeps_its_mark() {
    // Maxtor's F_12 (1 VC) fires at M_3's protection while Miria's VP kill it;
    // Maxtor's F_13 keeps ships there, so case 1: F_12 turns neutral.
    let mut s = home("[[fleet]]\nnumber = 12\nworld = 3\nowner = 1\nvc = 1\n\n[[fleet]]\nnumber = 13\nworld = 3\nowner = 1\nvc = 6\n");
    play(
        &mut s,
        &[("maxtor", "F_12 * M"), ("miria", "VP M_3 * F_12")],
    );
    let b = block(&report(&s, "maxtor"), 3);
    assert!(b.contains("\nF_12 \"(Maxtor)\" *M\n"), "{b}");
    // The VP group that fired and was destroyed shows 0 and its mark.
    assert!(world_line(&b, 3).contains("[P=44(60)]=0*F_12"), "{b}");
}

#[test]
fn neb_45_emigrants_into_a_black_hole_are_lost_without_a_draw() {
    let mut s = position(
        "[[world]]\nnumber = 1\nlinks = [65]\nowner = 1\nindustries = 10\npopulation = 40\npop_limit = 40\nmp = 20\n\n\
         [[world]]\nnumber = 65\nblack_hole = true\nlinks = [1]\n",
    );
    // Phase 5 gets an empty scripted stream: any draw there would panic.
    play_scripted(
        &mut s,
        &[("maxtor", "M_1 E 5 N M_65")],
        "5-emigration",
        vec![],
    );
    // 40 − 5 emigrants, then growth +3; nobody arrives anywhere.
    assert_eq!(s.worlds[&w(1)].population, 38);
    assert_eq!(s.worlds[&w(65)].population, 0);
    let r = report(&s, "maxtor");
    assert!(r.contains("\nM_65 *** Trou noir ***\n"), "{r}");
}

#[test]
fn neb_44_black_hole_draws_stay_in_range() {
    for seed in 0..40u64 {
        let mut s = position(
            "[[world]]\nnumber = 60\nlinks = [65]\nowner = 1\npopulation = 10\npop_limit = 10\nvi = 1\n\n\
             [[world]]\nnumber = 65\nblack_hole = true\nlinks = [60, 70]\n\n[[world]]\nnumber = 66\nblack_hole = true\nlinks = [70]\n\n\
             [[world]]\nnumber = 70\nlinks = [65]\n\n[[world]]\nnumber = 300\nlinks = [70]\n\n\
             [[fleet]]\nnumber = 5\nworld = 60\nowner = 1\nvc = 10\ncargo_mp = 4\n",
        );
        let parsed = arbitre_core::engine::parse_all(
            &Nebulight,
            &s,
            &[(
                arbitre_core::PlayerId::from("maxtor"),
                "F_5 M_65".to_string(),
            )]
            .into(),
        );
        arbitre_core::engine::run_turn_with(&Nebulight, &mut s, &parsed, |k| {
            Rng::for_phase(seed, 1, k)
        });
        let fl = &s.fleets[&f(5)];
        assert!(fl.vc <= 10);
        assert!(!s.worlds[&fl.world].black_hole);
        assert_eq!(s.log.fleets[&f(5)].arrived_from, Some(w(65)));
    }
}

#[test]
fn neb_12_overpopulation_deaths_stay_within_the_surplus() {
    for seed in 0..40u64 {
        let mut s = position("[[world]]\nnumber = 1\nlinks = [2]\nowner = 1\npopulation = 30\npop_limit = 20\n\n[[world]]\nnumber = 2\nlinks = [1]\n");
        let parsed = arbitre_core::engine::parse_all(&Nebulight, &s, &Default::default());
        arbitre_core::engine::run_turn_with(&Nebulight, &mut s, &parsed, |k| {
            Rng::for_phase(seed, 1, k)
        });
        let d = s.log.worlds[&w(1)].deaths;
        assert!(d <= 10);
        assert_eq!(s.worlds[&w(1)].population, 30 - d);
    }
    // L = 0 and every surplus population dies: the world turns neutral.
    let mut s = position("[[world]]\nnumber = 1\nlinks = [2]\nowner = 1\npopulation = 3\n\n[[world]]\nnumber = 2\nlinks = [1]\nowner = 2\npopulation = 1\npop_limit = 1\n");
    play_scripted(&mut s, &[], "1-initialisation", vec![1, 1, 1]);
    assert_eq!(
        world_line(&report(&s, "maxtor"), 1),
        "M_1 (2) \"(Maxtor)\" P=0{-3N}(0)"
    );
}

#[test]
fn neb_66_svg_map_attached_when_the_map_has_coordinates() {
    let s = Nebulight
        .setup(&config(&[], "map = \"duel\""), &mut Rng::for_setup(3))
        .unwrap();
    let r = Nebulight.report(&s, &[], &arbitre_core::Viewer::Player("maxtor".into()));
    let svg = r
        .attachments
        .iter()
        .find(|a| a.mime == "image/svg+xml")
        .expect("svg map");
    let text = String::from_utf8(svg.content.clone()).unwrap();
    assert!(text.starts_with("<svg "));
    // Only worlds shown in full are drawn (issue 18 item 6, 9.13): at turn
    // 0 the start world alone, not its neighbours, whose coordinates no
    // report has given yet.
    let drawn = text.matches("<g data-id=\"M").count();
    assert_eq!(drawn, s.players[0].discovered.len());
    assert!(
        s.known(0).len() > drawn,
        "the neighbours are known, not drawn"
    );
    assert!(r.attachments.iter().any(|a| a.name == "ordres-tour-1.txt"));
    // A map without coordinates gets no picture.
    let s = home("");
    let r = Nebulight.report(&s, &[], &arbitre_core::Viewer::Player("maxtor".into()));
    assert!(r.attachments.iter().all(|a| a.mime != "image/svg+xml"));
}

#[test]
fn neb_58_spectators_see_scores_and_the_game_master_sees_everything() {
    let mut s = home("[[fleet]]\nnumber = 7\nworld = 2\nowner = 2\nvc = 3\ncargo_mp = 2\n");
    play(&mut s, &[]);
    let spec = Nebulight
        .report(&s, &[], &arbitre_core::Viewer::Spectator)
        .body;
    assert!(!spec.contains("M_"), "{spec}");
    assert!(spec.contains("Maxtor : ") && spec.contains("Miria : "));
    let g = gm(&s);
    for n in [1, 2, 3, 4] {
        assert!(g.contains(&format!("M_{n} (")), "{g}");
    }
    assert!(
        g.contains("F_7 \"Miria\" [2]=3\n"),
        "the game master sees cargo: {g}"
    );
}

#[test]
fn bot_uses_only_what_its_player_sees() {
    let e = arbitre_core::Adapter(Nebulight);
    let snap = e.setup(&config(&[], "map = \"duel\"")).unwrap();
    let s: arbitre_nebulight::NebState = serde_json::from_str(&snap.state).unwrap();
    let hidden: Vec<WorldId> = s
        .worlds
        .keys()
        .copied()
        .filter(|w| !arbitre_nebulight::visibility::visible(&s, 0).contains(w))
        .collect();
    let mut t = s.clone();
    for w in &hidden {
        let x = t.worlds.get_mut(w).unwrap();
        x.population += 7;
        x.vp += 3;
        x.mp += 11;
    }
    let orders = |st: &arbitre_nebulight::NebState| {
        Nebulight.bot_orders(
            st,
            &arbitre_core::PlayerId::from("maxtor"),
            &mut Rng::for_phase(1, 1, "bot:maxtor"),
        )
    };
    assert!(!orders(&s).is_empty());
    assert_eq!(orders(&s), orders(&t));
}

#[test]
fn engine_contract_id_language_and_verdicts() {
    let e = arbitre_core::Adapter::boxed(Nebulight);
    let info = e.info();
    assert_eq!((info.id, info.lang), ("nebulight", arbitre_core::Lang::Fr));
    let snap = e.setup(&config(&[], "map = \"duel-petit\"")).unwrap();
    // The map's numbers are drawn at random: the check at receipt refuses
    // an unknown world or fleet (issue 17 item 8), so the orders name real ones.
    let st: arbitre_nebulight::NebState = serde_json::from_str(&snap.state).unwrap();
    let (mine, fl) = st.fleets.iter().find(|(_, f)| f.owner == Some(0)).unwrap();
    let next = st.worlds[&fl.world].links[0];
    let c = e
        .check(
            &snap.state,
            &"maxtor".into(),
            &format!("{} C 0 VI\n\nF_1 -> 3\n# note\n{mine} {next}\n", fl.world),
        )
        .unwrap();
    use arbitre_core::Verdict;
    let v: Vec<(usize, &Verdict)> = c.verdicts.iter().map(|v| (v.line, &v.verdict)).collect();
    assert!(matches!(v[0], (1, Verdict::Warning(_))));
    assert!(matches!(v[1], (3, Verdict::Error(r)) if r.contains("Nebutil")));
    assert!(matches!(v[2], (5, Verdict::Ok)));
    assert_eq!((c.errors, c.warnings), (1, 1));
}
