//! One test (at least) per checklist item of the EDS specification (§9), named
//! with the item's ID. Each sets up a state, gives orders, and asserts the
//! outcome and the report line.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;
use arbitre_core::{Rng, Ruleset, Viewer};
use arbitre_eds::events::Event;
use arbitre_eds::formulas::*;
use arbitre_eds::galaxy::*;
use arbitre_eds::jump::exit_point;
use arbitre_eds::model::*;
use arbitre_eds::params::Params;
use arbitre_eds::parser::{parse, split_entries};
use arbitre_eds::Eds;
use common::*;

// ---------- Set-up and state ----------

#[test]
fn eds_1_map_size_from_player_count() {
    let p = Params::default();
    assert_eq!(map_size(&p, 10), (96, 65));
    assert_eq!(map_size(&p, 17), (125, 85));
}

#[test]
fn eds_2_generation_gives_25n_stars_inside_and_apart() {
    let p = Params::default();
    let (w, h, stars) = generate(&p, 4, &mut Rng::for_setup(5));
    assert_eq!(stars.len(), 100);
    for (i, a) in stars.iter().enumerate() {
        assert!(a.x >= 1 && a.y >= 1 && a.x <= w && a.y <= h);
        for b in &stars[i + 1..] {
            assert!(
                (a.x - b.x).pow(2) + (a.y - b.y).pow(2) >= 4,
                "stars too close"
            );
        }
    }
}

#[test]
fn eds_3_every_home_has_8_to_16_neighbours() {
    let p = Params::default();
    for (n, seed) in [(3, 1), (5, 2), (10, 3)] {
        let (_, _, stars) = generate(&p, n, &mut Rng::for_setup(seed));
        for c in neighbour_counts(&stars, 10) {
            assert!((8..=16).contains(&c), "{c} neighbours");
        }
    }
    // The built-in standard galaxy too.
    let s = scenario("standard", 10);
    for r in &s.rulers {
        let h = &s.stars[&r.home_star];
        let c = s
            .stars
            .values()
            .filter(|t| {
                t.number != h.number
                    && s.rulers.iter().all(|o| o.home_star != t.number)
                    && within((t.x - h.x) as i64, (t.y - h.y) as i64, 10)
            })
            .count();
        assert!((8..=16).contains(&c));
    }
}

#[test]
fn eds_4_home_resources_balanced_around_median() {
    let p = Params::default();
    let (_, _, stars) = generate(&p, 6, &mut Rng::for_setup(9));
    let sums = home_sums(&stars, 10);
    for g in 0..3 {
        let m = median(&sums.iter().map(|s| s[g] as f64).collect::<Vec<_>>());
        for s in &sums {
            let rel = s[g] as f64 / m;
            assert!((0.75..=1.30).contains(&rel), "good {g}: {rel}");
        }
    }
}

#[test]
fn eds_5_rate_distributions_follow_the_bands() {
    let mut rng = Rng::for_setup(77);
    let n = 100_000;
    let mut sum = [0u64; 3];
    let mut band = [0u32; 6];
    for _ in 0..n {
        let r = draw_rates(&mut rng);
        assert!(r[0] <= 340 && r[1] <= 49 && r[2] <= 49);
        for g in 0..3 {
            sum[g] += r[g] as u64;
        }
        let b = ORE_BANDS
            .iter()
            .position(|(lo, hi, _)| (*lo..=*hi).contains(&r[0]))
            .unwrap();
        band[b] += 1;
    }
    let mean = sum[0] as f64 / n as f64;
    assert!((130.0..=132.0).contains(&mean), "ore mean {mean}");
    for (i, (_, _, share)) in ORE_BANDS.iter().enumerate() {
        let got = band[i] as f64 / n as f64 * 100.0;
        assert!((got - *share as f64).abs() < 0.5, "band {i}: {got}");
    }
    let mu = sum[1] as f64 / n as f64;
    assert!((11.5..=13.5).contains(&mu), "uranium mean {mu}");
    let mg = sum[2] as f64 / n as f64;
    assert!((24.0..=25.0).contains(&mg), "grain mean {mg}");
}

#[test]
fn eds_6_home_star_start_values() {
    let s = scenario("trio", 3);
    for r in &s.rulers {
        let h = &s.stars[&r.home_star];
        assert_eq!(
            (h.bv, h.facility, h.stock, h.rate, h.owner),
            (
                10,
                Some(Facility::W),
                [2000, 100, 400],
                [250, 25, 32],
                Some(r.number)
            )
        );
    }
}

#[test]
fn eds_7_ruler_start_values() {
    let s = scenario("trio", 3);
    for r in &s.rulers {
        assert_eq!((r.we, r.ev), (2500, 0));
        for o in 1..=3 {
            if o != r.number {
                assert_eq!(s.st(r.number, o), 2);
            }
        }
    }
}

#[test]
fn eds_8_home_base_is_created() {
    let s = scenario("trio", 3);
    let b = &s.ships[&7];
    assert!(b.home_base);
    assert_eq!(
        (
            b.owner,
            b.class_letter(),
            b.guns[0],
            b.shields[0],
            b.lx,
            b.tk,
            b.jg,
            b.lr,
            b.rw
        ),
        (2, 'H', 256, 256, 1, 0, 0, 0, 0)
    );
    assert_eq!(s.ships.len(), 18);
    assert_eq!(s.ship_limit(), 75);
}

#[test]
fn eds_9_five_start_ships() {
    let s = scenario("trio", 3);
    for (i, n) in (14..=18).enumerate() {
        let sh = &s.ships[&n];
        assert_eq!(
            (
                sh.owner,
                sh.class_letter(),
                sh.tk,
                sh.lr,
                sh.rw,
                sh.r,
                sh.sp
            ),
            (3, 'A', 5, 10, 10, 2, 0)
        );
        assert_eq!(sh.name, format!("NAMENLOS {}", i + 1));
        assert_eq!(sh.pos(), {
            let h = &s.stars[&s.rulers[2].home_star];
            (h.x, h.y)
        });
    }
}

#[test]
fn eds_10_scenarios_load_explicit_generated_and_position() {
    let s = scenario("standard", 10);
    assert_eq!((s.stars.len(), s.width, s.height), (250, 96, 65));
    let g = scenario("generate", 3);
    assert_eq!(g.stars.len(), 75);
    // A hard error: a star outside the map.
    let bad = arbitre_eds::setup::SCENARIOS[1]
        .1
        .replacen("x = ", "x = 999 #", 1);
    let mut cfg = config(3, toml::Table::new());
    cfg.files.insert("map_file".into(), bad);
    assert!(Eds.setup(&cfg, &mut Rng::for_setup(1)).is_err());
    // Unknown built-in map.
    let mut t = toml::Table::new();
    t.insert("map".into(), "nirgendwo".into());
    assert!(Eds.setup(&config(3, t), &mut Rng::for_setup(1)).is_err());
    // A full position, written and read back.
    let b = base();
    let text = arbitre_eds::setup::position_toml(&b);
    let b2 = position(&text);
    assert_eq!(b, b2);
    // Two stars on one point are refused.
    let twin = BASE.replacen("x = 10\ny = 5", "x = 5\ny = 5", 1);
    let mut t = toml::Table::new();
    t.insert(
        "position".into(),
        toml::Value::Table(toml::from_str(&twin).unwrap()),
    );
    assert!(Eds.setup(&config(3, t), &mut Rng::for_setup(1)).is_err());
}

#[test]
fn eds_11_parameters_override_defaults() {
    let mut t = toml::Table::new();
    t.insert("map".into(), "trio".into());
    t.insert("start_we".into(), toml::Value::Integer(4000));
    t.insert("stock_cap".into(), toml::Value::Integer(20000));
    let s = Eds.setup(&config(3, t), &mut Rng::for_setup(1)).unwrap();
    assert_eq!(s.rulers[0].we, 4000);
    assert_eq!(s.params.stock_cap, 20000);
    assert_eq!(s.params.tax_factor, 10);
    let mut t = toml::Table::new();
    t.insert("map".into(), "trio".into());
    t.insert("no_such_param".into(), toml::Value::Integer(1));
    assert!(Eds.setup(&config(3, t), &mut Rng::for_setup(1)).is_err());
}

#[test]
fn eds_12_ship_numbers_lowest_free_and_reused() {
    let mut s = base();
    // Scrap ship 2 at the home yard, then build: number 2 is free again next month.
    let ev = month(&mut s, &[(1, "[14]\n2\n")]);
    assert!(!s.ships.contains_key(&2), "{:?}", lines(&ev, 1));
    month(&mut s, &[(1, "[13]\n1,NEU,A,5,0,0,0,0,0,0,0,0,0,2\n")]);
    assert_eq!(s.ships[&2].name, "NEU");
    assert_eq!(s.lowest_free_ship_number(), Some(3));
}

#[test]
fn eds_13_month_labels_and_setup_sheet() {
    let p = Params::default();
    assert_eq!(month_label(&p, 1), "Monat 1 von 12, Jahr 1 (J1/M1)");
    assert_eq!(month_label(&p, 14), "Monat 2 von 12, Jahr 2 (J2/M2)");
    assert_eq!(year_name(&p, 1), "Jahr des Erwachens");
    let s = scenario("trio", 3);
    let body = Eds.report(&s, &[], &Viewer::Player(pid(1))).body;
    assert!(body
        .contains("Stand vor dem ersten Monat (Spielvorbereitung) · Jahr 1 – Jahr des Erwachens"));
    assert!(body.contains("Befehle für: Monat 1 von 12, Jahr 1 (J1/M1)"));
}

// ---------- Order intake ----------

#[test]
fn eds_14_header_lines_are_read() {
    let s = base();
    let p = parse(&s, "EDS BEFEHLE\nGALAXIS: PRUEFSTAND\nHERRSCHER: 01\nKENNWORT: x\nMONAT: J1/M3\n[16]\n5\nENDE\n[16]\n99");
    assert_eq!(p.orders.len(), 1, "{:?}", p.diagnostics);
    assert!(p.diagnostics.is_empty());
}

#[test]
fn eds_15_wrong_month_rejects_the_sheet() {
    let s = base();
    let p = parse(&s, "MONAT: J1/M2\n[16]\n5\n");
    assert!(p.orders.is_empty());
    assert!(p.diagnostics[0]
        .reason
        .contains("gesamter Befehlsbogen verworfen"));
    // Refused whole (issue 17 item 7): marked so that the daemon keeps the
    // sheet already stored, every entry an error, none accepted.
    assert!(p.refused);
    assert_eq!(p.error_count(), 2, "{:?}", p.diagnostics);
    assert_eq!(p.accepted_count(), 0);
    assert!(!parse(&s, "MONAT: J1/M3\n[16]\n5\n").refused);
}

#[test]
fn eds_16_sections_by_number_or_name_with_umlauts() {
    let s = base();
    let p = parse(
        &s,
        "[6 RÜCKZUG]\n2,1\n[RUECKZUG]\n2,2\n[6]\n2,3\n[rückzug]\n2,4\n[7 WAREN]\n1\n",
    );
    assert_eq!(p.orders.len(), 4);
    assert_eq!(
        p.orders[3].order,
        arbitre_eds::orders::Order::Retreat { ship: 2, r: 4 }
    );
    // An unknown section header, and the line under it that belongs to no section.
    assert_eq!(p.diagnostics.len(), 2);
}

#[test]
fn eds_17_slash_splits_entries_except_next_to_commas() {
    assert_eq!(split_entries("8,/,15,4"), vec!["8,/,15,4"]);
    assert_eq!(split_entries("8 , / , 15 , 4"), vec!["8 , / , 15 , 4"]);
    assert_eq!(split_entries("27 / 103"), vec!["27", "103"]);
    assert_eq!(
        split_entries("47,A,87,23 / 8,/,15,4"),
        vec!["47,A,87,23", "8,/,15,4"]
    );
}

#[test]
fn eds_18_fields_trimmed_zeros_allowed_separators_rejected() {
    let s = base();
    let p = parse(&s, "[3]\n 02 , 3 \n[17]\n2,2.500 / 2,+5 / 2,25\n");
    assert_eq!(p.orders.len(), 2);
    assert_eq!(
        p.orders[0].order,
        arbitre_eds::orders::Order::Status { ruler: 2, value: 3 }
    );
    assert_eq!(p.diagnostics.len(), 2);
    assert!(p.diagnostics[0].reason.starts_with("Syntaxfehler"));
}

#[test]
fn eds_19_entry_limits_per_kind() {
    let s = base();
    let p = parse(
        &s,
        "[1]\n1,A / 1,B / 1,C / 1,D / 1,E / 1,F\n[17]\n2,1/2,1/2,1/2,1\n",
    );
    assert_eq!(p.orders.len(), 8);
    assert_eq!(p.diagnostics.len(), 2);
    assert_eq!(
        p.diagnostics[0].reason,
        "Höchstzahl von 5 Einträgen überschritten – Eintrag ignoriert"
    );
    assert_eq!(
        p.diagnostics[1].reason,
        "Höchstzahl von 3 Einträgen überschritten – Eintrag ignoriert"
    );
    assert_eq!(
        Params::default().order_limits,
        [5, 5, 10, 10, 10, 10, 12, 10, 10, 10, 10, 10, 10, 10, 10, 10, 3, 10]
    );
}

#[test]
fn eds_20_planner_warns_when_more_is_committed_than_held() {
    let s = base();
    let p = Eds.parse_orders(&s, &pid(1), "[15]\n5,F\n[17]\n2,6000\n");
    let w: Vec<_> = p.diagnostics.iter().filter(|d| d.warning).collect();
    assert_eq!(w.len(), 1, "{:?}", p.diagnostics);
    assert_eq!(
        w[0].reason,
        "Verplant: 11000 WE, vorhanden: 10000 WE – Achtung, mehr verplant als vorhanden"
    );
    assert_eq!(p.orders.len(), 2, "the planner never blocks");
    // Ore per shipyard star: a class-D hull needs 400 Erz, star 1 holds 2000.
    let p = Eds.parse_orders(&s, &pid(1), "[13]\n1,A,J,0,0,0,0,0,0,0,0,0,0,2\n");
    assert!(p.diagnostics.iter().any(|d| d.warning && d.reason == "Werftstern 1: 2500 Erz verplant, vorhanden: 2000 Erz – Achtung, mehr verplant als vorhanden"), "{:?}", p.diagnostics);
}

/// The Zug-Planer pays a colony once however often it is ordered, in the
/// template's order of sections or not; two stars are two colonies.
#[test]
fn eds_20_planner_pays_a_colony_once() {
    let s = base();
    let warnings = |sheet: &str| -> Vec<String> {
        Eds.parse_orders(&s, &pid(1), sheet)
            .diagnostics
            .iter()
            .filter(|d| d.warning)
            .map(|d| d.reason.clone())
            .collect()
    };
    let once = warnings("[16]\n2\n[17]\n2,9999\n");
    assert_eq!(once.len(), 1, "a colony costs more than 1 WE: {once:?}");
    assert_eq!(warnings("[16]\n2\n2\n[17]\n2,9999\n"), once);
    assert_eq!(warnings("[17]\n2,9999\n[16]\n2\n2\n"), once);
    assert_eq!(warnings("[16]\n2\n[17]\n2,9999\n[16]\n2\n"), once);
    let twice = warnings("[16]\n2\n3\n2\n[17]\n2,9999\n");
    assert_eq!(twice.len(), 1);
    assert_ne!(twice, once, "star 3 is a second colony");
    assert_eq!(warnings("[17]\n2,9999\n[16]\n3\n2\n3\n"), twice);
}

#[test]
fn eds_21_empty_turn_still_runs_automatic_phases() {
    let mut s = base();
    let ev = month(&mut s, &[]);
    assert_eq!(s.rulers[1].we, 11000);
    assert_eq!(s.stars[&2].stock[2], 390);
    assert!(has_line(&ev, 2, "23 Steuern: 1000 WE"));
}

#[test]
fn eds_22_free_sections_are_routed() {
    let mut s = base();
    let ev = month(&mut s, &[(1, "[ANZEIGER]\nFrieden allen Sternen!\n[DIPLOMATIE 02]\nBündnis?\n[HINWEIS]\nUrlaub im Mai\n")]);
    let r2 = Eds.report(&s, &ev, &Viewer::Player(pid(2))).body;
    let r3 = Eds.report(&s, &ev, &Viewer::Player(pid(3))).body;
    assert!(r2.contains("--- 01 ALDEBARAN ---\nFrieden allen Sternen!"));
    assert!(r3.contains("--- 01 ALDEBARAN ---\nFrieden allen Sternen!"));
    assert!(r2.contains("DIPLOMATIE\n--- von 01 ALDEBARAN ---\nBündnis?"));
    assert!(!r3.contains("Bündnis?"));
    assert!(!r2.contains("Urlaub"));
    assert!(Eds
        .report(&s, &ev, &Viewer::GameMaster)
        .body
        .contains("HINWEISE AN DIE SPIELLEITUNG\n--- 01 ALDEBARAN ---\nUrlaub im Mai"));
}

// ---------- Phase processing ----------

#[test]
fn eds_23_phases_run_1_to_23_in_rulebook_order() {
    let keys: Vec<&str> = Eds.phases().iter().map(|p| p.key).collect();
    let want: Vec<String> = (1..=23).map(|i| i.to_string()).collect();
    assert_eq!(keys, want.iter().map(|s| s.as_str()).collect::<Vec<_>>());
    // Within a phase rulers go ascending: both transfers to ruler 3 happen, 1 before 2.
    let mut s = base();
    let ev = month(&mut s, &[(2, "[17]\n3,100\n"), (1, "[17]\n3,200\n")]);
    let t: Vec<(u8, u8, i64)> = ev
        .iter()
        .filter_map(|e| {
            if let Event::Transfer { from, to, amount } = e {
                Some((*from, *to, *amount))
            } else {
                None
            }
        })
        .collect();
    assert_eq!(t, vec![(1, 3, 200), (2, 3, 100)]);
}

#[test]
fn eds_24_money_checked_at_execution_with_the_rulebook_message() {
    let mut s = base();
    s.rulers[0].we = 5050;
    let ev = month(&mut s, &[(1, "[16]\n5\n1\n[15]\n5,F\n")]);
    // Industry (15) runs before colonisation (16): F takes 5000, then 50 are left for BV 3 (80).
    assert!(
        lines(&ev, 1).contains(
            &"16 Kolonisieren 5: 80 WE benötigt, nur 50 WE vorhanden – Befehl verworfen"
                .to_string()
        ),
        "{:?}",
        lines(&ev, 1)
    );
}

#[test]
fn eds_25_star_names() {
    let mut s = base();
    s.stars.get_mut(&2).unwrap().name = "ROSE".into();
    let ev = month(
        &mut s,
        &[
            (1, "[1]\n5,Madrahurianisch / 4,Nix / 1,madrahuriani\n"),
            (2, "[1]\n2, rosé\n"),
        ],
    );
    assert_eq!(s.stars[&5].name, "MADRAHURIANI");
    assert!(has_line(
        &ev,
        1,
        " 1 Sternname 5,Madrahurianisch: Name auf 12 Zeichen gekürzt: MADRAHURIANI"
    ));
    assert!(has_line(
        &ev,
        1,
        "Stern 4 gehört Dir nicht – Befehl verworfen"
    ));
    assert!(has_line(
        &ev,
        1,
        "Name MADRAHURIANI in Deinem Reich bereits vergeben – Befehl verworfen"
    ));
    assert_eq!(s.stars[&1].name, "ERDE");
    // Another ruler may use a name one ruler already has.
    month(&mut s, &[(2, "[1]\n2,Erde\n")]);
    assert_eq!(s.stars[&2].name, "ERDE");
}

#[test]
fn eds_26_ship_names_and_the_home_base() {
    let mut s = base();
    let ev = month(&mut s, &[(1, "[2]\n1,Bollwerk / 2,Arantua / 7,X\n")]);
    assert_eq!(s.ships[&1].name, "BOLLWERK");
    assert_eq!(s.ships[&2].name, "ARANTUA");
    assert!(has_line(
        &ev,
        1,
        "Schiff 7 gehört Dir nicht oder existiert nicht – Befehl verworfen"
    ));
}

#[test]
fn eds_27_status_is_one_sided_and_immediate() {
    let mut s = base();
    let ev = month(&mut s, &[(1, "[3]\n02,3 / 03,1 / 01,1 / 09,2\n")]);
    assert_eq!((s.st(1, 2), s.st(2, 1), s.st(1, 3)), (3, 2, 1));
    assert!(s.hostile(2, 1));
    assert!(has_line(&ev, 1, "Status zu Dir selbst nicht möglich"));
    assert!(has_line(
        &ev,
        1,
        "Herrscher 09 nicht (mehr) im Spiel – Befehl verworfen"
    ));
}

#[test]
fn eds_28_status_battles_come_before_repair_refuel_and_retreat() {
    let mut s = base();
    add_ship(&mut s, 20, 2, "B,5,0,20,0,0,0,20,0,0,0,4", 5, 5, 0);
    let ev = month(&mut s, &[(1, "[3]\n2,3\n"), (2, "[6]\n20,0\n")]);
    let b = battles(&ev);
    assert!(!b.is_empty());
    assert!(b[0]
        .text
        .starts_with("KAMPFBERICHT 1 · J1/M3 · Statusänderungen"));
    // R was still 4 in the battle: the ship never fled ("→" absent).
    assert!(!b[0].text.contains('→'));
}

#[test]
fn eds_29_repair_on_own_yard_with_cost_capacity_and_money() {
    let mut s = base();
    for n in [27u32, 103, 85] {
        add_ship(&mut s, n, 1, "C,0,0,15,10,0,0,20,15,0,0,2", 5, 5, 4);
        s.ships.get_mut(&n).unwrap().hits = 2;
    }
    s.stars.insert(
        7,
        Star {
            number: 7,
            x: 8,
            y: 12,
            name: String::new(),
            owner: Some(1),
            bv: 5,
            facility: Some(Facility::W),
            ljg: 0,
            tjg: 0,
            stock: [0; 3],
            rate: [0; 3],
        },
    );
    add_ship(&mut s, 39, 1, "C,0,0,15,10,0,0,20,15,0,0,2", 8, 12, 4);
    s.ships.get_mut(&39).unwrap().hits = 2;
    let before = s.rulers[0].we;
    let ev = month(&mut s, &[(1, "[4]\n27 / 103 / 85 / 39\n")]);
    assert_eq!(
        (
            s.ships[&27].hits,
            s.ships[&103].hits,
            s.ships[&85].hits,
            s.ships[&39].hits
        ),
        (0, 0, 1, 0)
    );
    assert!(has_line(
        &ev,
        1,
        " 4 Reparatur 85: nur 1 von 2 Treffern repariert (Werftkapazität)"
    ));
    assert_eq!(
        before - (s.rulers[0].we - 1000 - 40),
        2170,
        "{:?}",
        lines(&ev, 1)
    );
}

#[test]
fn eds_30_refuel_on_own_or_friendly_star_clamped_to_tank() {
    let mut s = base();
    add_ship(&mut s, 20, 2, "A,5,0,0,0,0,0,0,0,0,0,2", 5, 5, 0);
    add_ship(&mut s, 21, 3, "A,5,0,0,0,0,0,0,0,0,0,2", 5, 5, 0);
    s.ships.get_mut(&20).unwrap().sp = 0;
    s.ships.get_mut(&21).unwrap().sp = 0;
    s.ships.get_mut(&2).unwrap().sp = 3;
    s.rulers[0].status.insert(2, 1);
    let ev = month(
        &mut s,
        &[(1, "[5]\n2,5\n"), (2, "[5]\n20,4\n"), (3, "[5]\n21,4\n")],
    );
    assert_eq!(s.ships[&2].sp, 5);
    assert!(has_line(
        &ev,
        1,
        " 5 Auftanken 2,5: nur 2 von 5 ausgeführt (Tankgröße)"
    ));
    assert_eq!(s.ships[&20].sp, 4);
    assert_eq!(s.ships[&21].sp, 0);
    assert!(has_line(
        &ev,
        3,
        "Kein eigener oder befreundeter Stern (Status 1 erforderlich)"
    ));
    assert_eq!(s.stars[&1].stock[1], 100 - 2 - 4);
}

#[test]
fn eds_31_lost_check_after_refuelling() {
    let mut s = base();
    add_ship(&mut s, 20, 1, "A,5,0,0,0,0,0,0,0,0,0,2", 7, 7, 0);
    add_ship(&mut s, 21, 1, "A,5,0,0,0,0,0,0,0,0,0,2", 20, 10, 0);
    s.ships.get_mut(&20).unwrap().sp = 0;
    s.ships.get_mut(&21).unwrap().sp = 0;
    let ev = month(&mut s, &[]);
    assert!(!s.ships.contains_key(&20));
    assert!(s.ships.contains_key(&21), "over a star it is never lost");
    assert!(has_line(
        &ev,
        1,
        " 5 Schiff 20 SCHIFF 20 (A) bei (7,7): Verbindung abgebrochen – verschollen"
    ));
    assert_eq!(s.lowest_free_ship_number(), Some(3));
}

#[test]
fn eds_32_retreat_numbers_not_for_the_home_base() {
    let mut s = base();
    let ev = month(&mut s, &[(1, "[6]\n2,0 / 1,2\n")]);
    assert_eq!(s.ships[&2].r, 0);
    assert_eq!(s.ships[&1].r, 4);
    assert!(has_line(
        &ev,
        1,
        "Die Heimatbasis flieht nie – Befehl verworfen"
    ));
}

#[test]
fn eds_33_jump_order_is_random_and_reported() {
    let mut orders = std::collections::BTreeSet::new();
    for k in 0..8u32 {
        let mut s = base();
        s.month = k;
        let ev = month(&mut s, &[]);
        let o = ev
            .iter()
            .find_map(|e| {
                if let Event::JumpOrder(v) = e {
                    Some(v.clone())
                } else {
                    None
                }
            })
            .unwrap();
        let mut sorted = o.clone();
        sorted.sort();
        assert_eq!(sorted, vec![1, 2, 3]);
        orders.insert(o);
        let body = Eds.report(&s, &ev, &Viewer::Player(pid(1))).body;
        assert!(body.contains(" 7 Sprungreihenfolge: "));
    }
    assert!(orders.len() > 1, "the order changes from month to month");
}

#[test]
fn eds_34_one_controlled_jump_per_month_costing_uranium() {
    let mut s = base();
    add_ship(&mut s, 20, 1, "A,5,0,0,0,0,0,0,0,0,0,2", 5, 5, 0);
    s.ships.get_mut(&20).unwrap().sp = 0;
    let ev = month_scripted(
        &mut s,
        &[(1, "[7]\n2,/,10,5\n2,/,5,5\n20,/,10,5\n")],
        &[("7", vec![0, 0, 0])],
        false,
    );
    assert_eq!((s.ships[&2].x, s.ships[&2].sp), (10, 4));
    assert!(has_line(
        &ev,
        1,
        "Schiff 2 ist diesen Monat bereits gesprungen – Befehl verworfen"
    ));
    assert!(has_line(
        &ev,
        1,
        "Schiff 20 hat kein Uran im Tank – Befehl verworfen"
    ));
}

#[test]
fn eds_35_range_uses_rounded_distance_and_hits() {
    assert_eq!(distance(-8, 11), 14);
    assert!(within(10, 3, 10));
    assert!(!within(7, 8, 10));
    assert!(within(6, 8, 10));
    assert_eq!(
        [
            current_range(12, 1),
            current_range(12, 2),
            current_range(12, 3)
        ],
        [9, 7, 4]
    );
}

#[test]
fn eds_36_truncated_exit_points() {
    assert_eq!(exit_point((113, 56), (105, 67), 10), (107, 64));
    assert_eq!(exit_point((113, 56), (105, 67), 9), (108, 63));
    assert_eq!(exit_point((47, 23), (55, 30), 10), (54, 30));
    assert_eq!(exit_point((1, 1), (30, 30), 4), (4, 4));
    assert_eq!(exit_point((47, 23), (55, 29), 10), (55, 29));
}

#[test]
fn eds_37_misjump_lands_on_a_neighbour() {
    let mut s = base();
    // Permutation draws (2 below-calls), then misjump chance = 1, neighbour index 7 → (+1,+1).
    let ev = month_scripted(
        &mut s,
        &[(1, "[7]\n2,/,10,5\n")],
        &[("7", vec![0, 0, 1, 7])],
        false,
    );
    assert_eq!(s.ships[&2].pos(), (11, 6));
    assert!(has_line(
        &ev,
        1,
        "Schiff 2: Fehlsprung – Austritt bei (11,6)"
    ));
    assert_eq!(Params::default().misjump_denominator, 17);
}

#[test]
fn eds_38_fleet_jump_moves_higher_numbered_co_located_ships() {
    let mut s = base();
    add_ship(&mut s, 20, 1, "A,5,0,0,0,0,0,0,0,0,0,2", 5, 5, 0);
    add_ship(&mut s, 21, 1, "A,5,0,0,0,0,0,0,0,0,0,2", 5, 5, 0);
    s.ships.get_mut(&21).unwrap().sp = 0;
    month_scripted(
        &mut s,
        &[(1, "[7]\n2,A,10,5\n")],
        &[("7", vec![0, 0, 0, 0])],
        false,
    );
    assert_eq!(s.ships[&2].pos(), (10, 5));
    assert_eq!(s.ships[&20].pos(), (10, 5));
    assert_eq!(s.ships[&21].pos(), (5, 5), "no uranium: stays");
    assert_eq!(s.ships[&1].pos(), (5, 5), "home base never jumps");
}

#[test]
fn eds_39_battles_follow_each_rulers_jumps() {
    let mut s = base();
    s.rulers[1].status.insert(1, 3);
    add_ship(&mut s, 20, 2, "B,5,0,20,0,0,0,20,0,0,0,2", 18, 5, 0);
    let ev = month(&mut s, &[(1, "[7]\n2,/,10,5\n"), (2, "[7]\n20,/,10,5\n")]);
    let b = battles(&ev);
    assert!(
        b.iter()
            .any(|b| b.text.contains("· Hypersprünge") && (b.x, b.y) == (10, 5)),
        "{:?}",
        b
    );
}

#[test]
fn eds_40_unloading_goods() {
    let mut s = base();
    s.ships.get_mut(&2).unwrap().cargo = Some((Good::G, 10));
    s.stars.get_mut(&1).unwrap().stock[2] = 29_995;
    let ev = month(&mut s, &[(1, "[8]\n2,G,15\n")]);
    assert!(has_line(
        &ev,
        1,
        " 8 Waren ausladen 2,G,15: nur 5 von 15 ausgeführt (Lagergrenze)"
    ));
    assert_eq!(s.ships[&2].cargo, Some((Good::G, 5)));
    let mut s = base();
    s.ships.get_mut(&2).unwrap().cargo = Some((Good::E, 10));
    s.ships.get_mut(&2).unwrap().x = 10;
    month(&mut s, &[(1, "[8]\n2,E,10\n")]);
    assert_eq!(
        s.ships[&2].cargo, None,
        "unowned star: allowed; empty cargo shows -"
    );
    assert_eq!(s.stars[&4].stock[0], 10);
}

#[test]
fn eds_41_loading_goods() {
    let mut s = base();
    let ev = month(&mut s, &[(1, "[9]\n2,U,4 / 2,G,3 / 2,U,20\n")]);
    assert_eq!(s.ships[&2].cargo, Some((Good::U, 10)));
    assert!(has_line(
        &ev,
        1,
        "Falsche Ladungsart (an Bord: U) – Befehl verworfen"
    ));
    assert!(has_line(&ev, 1, "nur 6 von 20 ausgeführt (Laderaum)"));
    let mut s = base();
    add_ship(&mut s, 20, 2, "A,5,0,0,0,0,0,0,0,0,0,2", 5, 5, 0);
    let ev = month(&mut s, &[(2, "[9]\n20,G,5\n")]);
    assert!(has_line(&ev, 2, "Status 1 erforderlich"));
}

#[test]
fn eds_42_unloading_fighters_up_to_999() {
    let mut s = base();
    add_ship(&mut s, 20, 1, "D,0,20,0,0,0,0,0,0,0,0,2", 5, 5, 4);
    s.ships.get_mut(&20).unwrap().ljg = 10;
    s.ships.get_mut(&20).unwrap().tjg = 8;
    s.stars.get_mut(&1).unwrap().ljg = 995;
    let ev = month(&mut s, &[(1, "[10]\n20,10,8\n")]);
    assert_eq!(
        (
            s.stars[&1].ljg,
            s.stars[&1].tjg,
            s.ships[&20].ljg,
            s.ships[&20].tjg
        ),
        (999, 8, 6, 0)
    );
    assert!(has_line(&ev, 1, "nur 12 von 18 ausgeführt (999er-Grenze)"));
}

#[test]
fn eds_43_loading_fighters_lasers_first() {
    let mut s = base();
    add_ship(&mut s, 20, 1, "B,0,5,0,0,0,0,0,0,0,0,2", 5, 5, 4);
    s.stars.get_mut(&1).unwrap().ljg = 3;
    s.stars.get_mut(&1).unwrap().tjg = 30;
    month(&mut s, &[(1, "[11]\n20,3,30\n")]);
    assert_eq!((s.ships[&20].ljg, s.ships[&20].tjg), (3, 2));
}

#[test]
fn eds_44_fighter_building() {
    let mut s = base();
    let ev = month(
        &mut s,
        &[(1, "[12]\n1,L,6 / 1,T,4 / 1,L,1\n"), (2, "[12]\n2,T,1\n")],
    );
    assert_eq!((s.stars[&1].ljg, s.stars[&1].tjg), (6, 4));
    assert_eq!(s.stars[&1].stock[0], 2000 - 50);
    assert!(has_line(&ev, 1, "Werft auf Stern 1 bereits ausgelastet"));
    assert!(has_line(
        &ev,
        2,
        "Evolutionsstufe 0 zu niedrig für Thermojäger (mindestens 4)"
    ));
    assert_eq!(s.rulers[0].we, 10000 - 1200 + 1000 + 40);
}

#[test]
fn eds_45_ship_build_preconditions() {
    let mut s = base();
    let ev = month(&mut s, &[(1, "[13]\n1,ZU GROSS,B,6,5,0,0,0,0,0,0,0,0,2\n1,WAFFEN,B,0,0,41,0,0,0,0,0,0,0,2\n1,NEUTRO,B,0,0,0,0,1,0,0,0,0,0,2\n1,GUT,B,5,0,20,0,0,0,20,0,0,0,2\n1,ZWEITES,A,5,0,0,0,0,0,0,0,0,0,2\n5,KEINE WERFT,A,5,0,0,0,0,0,0,0,0,0,2\n")]);
    let l = lines(&ev, 1);
    assert!(
        l.iter()
            .any(|x| x.contains("Bauplan unzulässig: Tanks+Hangars 11 > 10")),
        "{l:?}"
    );
    assert!(l
        .iter()
        .any(|x| x.contains("Bauplan unzulässig: Waffen 41 > 40")));
    assert!(l
        .iter()
        .any(|x| x.contains("Evolutionsstufe 4 zu niedrig für Neutronen (mindestens 25)")));
    assert!(l
        .iter()
        .any(|x| x.contains("Werft hat diesen Monat bereits ein Schiff gebaut")));
    assert!(l.iter().any(|x| x.contains("Keine Werft auf Stern 5")));
    assert!(s.ships.values().any(|x| x.name == "GUT"));
    // A hostile ship over the yard blocks building.
    let mut s = base();
    s.rulers[1].status.insert(1, 3);
    add_ship(&mut s, 20, 2, "A,5,0,0,0,0,0,0,0,0,0,4", 12, 8, 0);
    s.stars.get_mut(&5).unwrap().facility = Some(Facility::W);
    let ev = month(&mut s, &[(1, "[13]\n5,X,A,5,0,0,0,0,0,0,0,0,0,2\n")]);
    assert!(
        has_line(
            &ev,
            1,
            "Feindliches Schiff über dem Stern – Bau nicht möglich"
        ) || !s.ships.contains_key(&20)
    );
}

#[test]
fn eds_46_ship_cost_and_design_values() {
    let mut s = base();
    let ev = month(
        &mut s,
        &[(
            1,
            "[13]\n1, Antorida, D, 10, 5, 20, 15, 0, 0, 30, 20, 0, 0, 1\n",
        )],
    );
    let sh = s
        .ships
        .values()
        .find(|x| x.name == "ANTORIDA")
        .expect("built");
    assert_eq!(
        (sh.lr, sh.rw, sh.lx, sh.tx, sh.sp, sh.hits, sh.r),
        (175, 15, 2, 1, 0, 0, 1)
    );
    assert_eq!(s.rulers[0].we, 10000 - 4150 + 1000 + 40);
    assert_eq!(s.stars[&1].stock[0], 1600);
    assert!(has_line(
        &ev,
        1,
        "Schiff 3 ANTORIDA (D) gebaut: 4150 WE, 400 Erz"
    ));
}

#[test]
fn eds_47_bad_build_names_become_namenlos() {
    let mut s = base();
    s.stars.get_mut(&5).unwrap().facility = Some(Facility::W);
    s.stars.get_mut(&5).unwrap().stock[0] = 100;
    let ev = month(&mut s, &[(1, "[13]\n1,NAMENLOS 1,A,5,0,0,0,0,0,0,0,0,0,2\n5,VIEL ZU LANGER NAME,A,5,0,0,0,0,0,0,0,0,0,2\n")]);
    let names: Vec<&str> = s
        .ships
        .values()
        .filter(|x| x.owner == 1)
        .map(|x| x.name.as_str())
        .collect();
    assert!(
        names.contains(&"NAMENLOS 2") && names.contains(&"NAMENLOS 3"),
        "{names:?}"
    );
    assert!(has_line(
        &ev,
        1,
        "Name ungültig oder vergeben – Schiff erhält den Namen NAMENLOS 2"
    ));
}

#[test]
fn eds_48_round_robin_and_scrap_yard_priority() {
    let mut s = base();
    s.params.ships_per_player = 1; // limit 3 ships: full already (1, 2 = 2 ships) → 1 free number
    s.ships.remove(&2);
    for st in [4u32, 6] {
        let x = s.stars.get_mut(&st).unwrap();
        x.owner = Some(if st == 4 { 2 } else { 3 });
        x.facility = Some(Facility::W);
        x.stock[0] = 500;
    }
    add_ship(&mut s, 2, 2, "A,5,0,0,0,0,0,0,0,0,0,2", 25, 5, 0);
    // Free numbers: 3 - 2 = 1; three build entries; ruler 3's yard 6 scrapped last month.
    s.scrap_yards_prev.insert(6);
    let b = "A,5,0,0,0,0,0,0,0,0,0,2";
    let ev = month(
        &mut s,
        &[
            (1, &format!("[13]\n1,EINS,{b}\n")),
            (2, &format!("[13]\n4,ZWEI,{b}\n")),
            (3, &format!("[13]\n6,DREI,{b}\n")),
        ],
    );
    assert!(
        s.ships.values().any(|x| x.name == "DREI"),
        "priority yard builds first"
    );
    assert_eq!(s.ships.len(), 3, "global limit never exceeded");
    assert!(has_line(
        &ev,
        1,
        "Globales Schiffslimit (3) erreicht – Befehl verworfen"
    ));
}

#[test]
fn eds_49_scrapping_returns_ore_to_the_yard_owner() {
    let mut s = base();
    s.ships.get_mut(&2).unwrap().cargo = Some((Good::G, 10));
    month(&mut s, &[(1, "[14]\n1 / 2\n")]);
    assert!(!s.ships.contains_key(&1) && !s.ships.contains_key(&2));
    assert_eq!(s.stars[&1].stock[0], 2000 + 960 + 15);
    assert_eq!(
        s.scrap_yards_prev.iter().copied().collect::<Vec<_>>(),
        vec![1]
    );
    let mut s = base();
    add_ship(&mut s, 20, 2, "A,5,0,0,0,0,0,0,0,0,0,2", 5, 5, 0);
    s.rulers[0].status.insert(2, 3);
    s.rulers[1].status.insert(1, 1);
    let ev = month(&mut s, &[(2, "[14]\n20\n")]);
    assert!(
        has_line(&ev, 2, "Status 3 zum Besitzer – Befehl verworfen") || !s.ships.contains_key(&20)
    );
}

#[test]
fn eds_50_industry_costs_and_minimum_population() {
    let mut s = base();
    s.stars.get_mut(&5).unwrap().bv = 3;
    let ev = month(&mut s, &[(1, "[15]\n5,W / 5,U / 5,U / 1,-\n")]);
    assert!(has_line(
        &ev,
        1,
        "Bevölkerungsgrad 3 zu niedrig (mindestens 5) – Befehl verworfen"
    ));
    assert!(has_line(
        &ev,
        1,
        "Anlage bereits vorhanden – Befehl verworfen"
    ));
    assert_eq!(
        (s.stars[&5].facility, s.stars[&1].facility),
        (Some(Facility::U), None)
    );
    assert_eq!(s.rulers[0].we, 10000 - 1000 + 1000 + 90);
}

#[test]
fn eds_51_colonisation_one_level_per_month() {
    let mut s = base();
    let ev = month(&mut s, &[(1, "[16]\n1 / 1\n")]);
    assert_eq!(s.stars[&1].bv, 11);
    assert!(has_line(
        &ev,
        1,
        "Stern 1 in diesem Monat bereits genannt – Befehl verworfen"
    ));
    assert_eq!(s.rulers[0].we, 10000 - 720 + 10 * 121 + 40);
    assert_eq!(colonise_cost(&Params::default(), 1), 20);
    s.stars.get_mut(&1).unwrap().bv = 20;
    let ev = month(&mut s, &[(1, "[16]\n1\n")]);
    assert!(has_line(
        &ev,
        1,
        "Bevölkerungsgrad bereits 20 – Befehl verworfen"
    ));
}

#[test]
fn eds_52_transfers_are_published_to_all() {
    let mut s = base();
    let ev = month(&mut s, &[(1, "[17]\n2,2500 / 3,725 / 1,5\n")]);
    assert_eq!(s.rulers[1].we, 10000 + 2500 + 1000);
    let body = Eds.report(&s, &ev, &Viewer::Player(pid(3))).body;
    assert!(body.contains("ÜBERWEISUNGEN IN DER GALAXIS\n01 ALDEBARAN an 02 BETEIGEUZE: 2500 WE\n01 ALDEBARAN an 03 CORVUS: 725 WE\n"));
}

#[test]
fn eds_53_star_handover() {
    let mut s = base();
    add_ship(&mut s, 20, 2, "A,5,0,0,0,0,0,0,0,0,0,2", 12, 8, 0);
    let ev = month(&mut s, &[(1, "[18]\n5,2 / 4,2\n")]);
    assert_eq!(s.stars[&5].owner, Some(2));
    assert_eq!(s.stars[&5].bv, 2);
    assert!(has_line(
        &ev,
        2,
        "18 Stern 5 (12,8) von Herrscher 01 erhalten"
    ));
    let mut s = base();
    s.stars.get_mut(&5).unwrap().ljg = 1;
    add_ship(&mut s, 20, 2, "A,5,0,0,0,0,0,0,0,0,0,2", 12, 8, 0);
    let ev = month(&mut s, &[(1, "[18]\n5,2 / 1,3\n")]);
    assert!(has_line(
        &ev,
        1,
        "Auf dem Stern sind Jäger stationiert – Übergabe nicht möglich"
    ));
    assert!(has_line(
        &ev,
        1,
        "Kein Schiff des Empfängers über dem Stern – Übergabe nicht möglich"
    ));
}

#[test]
fn eds_54_occupation() {
    let mut s = base();
    s.ships.get_mut(&2).unwrap().x = 10; // over unowned star 4
    add_ship(&mut s, 20, 2, "A,5,0,0,0,0,0,0,0,0,0,2", 20, 10, 0);
    add_ship(&mut s, 21, 3, "A,5,0,0,0,0,0,0,0,0,0,2", 20, 10, 0);
    add_ship(&mut s, 22, 2, "A,5,0,0,0,0,0,0,0,0,0,2", 12, 8, 0); // neutral at ruler 1's star
    let ev = month(&mut s, &[]);
    assert_eq!(s.stars[&4].owner, Some(1));
    assert!(has_line(&ev, 1, "19 Stern 4 (10,5) besetzt"));
    assert_eq!(s.stars[&6].owner, None, "two rulers: nobody occupies");
    assert_eq!(s.stars[&5].owner, Some(1), "not hostile: no occupation");
}

#[test]
fn eds_55_occupation_keeps_population_facility_stocks_and_name() {
    let mut s = base();
    s.stars.get_mut(&5).unwrap().name = "KOLONIE".into();
    s.stars.get_mut(&5).unwrap().facility = Some(Facility::G);
    s.rulers[1].status.insert(1, 3);
    add_ship(&mut s, 20, 2, "A,5,0,0,0,0,0,0,0,0,0,2", 12, 8, 0);
    s.stars.get_mut(&5).unwrap().stock[0] = 10;
    let ev = month(&mut s, &[]);
    let st = &s.stars[&5];
    // BV 2 is fed from 50 grain; the ore unloaded before the occupation stays.
    assert_eq!(
        (st.owner, st.bv, st.facility, st.name.as_str(), st.stock[0]),
        (Some(2), 2, Some(Facility::G), "KOLONIE", 10)
    );
    assert!(has_line(
        &ev,
        1,
        "19 Stern 5 (12,8) an Herrscher 02 verloren"
    ));
}

#[test]
fn eds_56_production_and_mine_decline() {
    let mut s = base();
    s.stars.get_mut(&5).unwrap().facility = Some(Facility::E);
    s.stars.get_mut(&5).unwrap().rate[0] = 250;
    let mut got = Vec::new();
    for _ in 0..5 {
        let before = s.stars[&5].stock[0];
        month(&mut s, &[]);
        got.push(s.stars[&5].stock[0] - before);
    }
    assert_eq!(got, vec![250, 225, 202, 181, 162]);
    assert_eq!(s.stars[&1].stock[0], 2000, "a shipyard produces nothing");
    let p = Params::default();
    let mut u = 25;
    let mut seq = Vec::new();
    for _ in 0..4 {
        seq.push(u);
        u = mine_decline(&p, u);
    }
    assert_eq!(seq, vec![25, 22, 19, 17]);
}

#[test]
fn eds_57_research_stations_in_star_order() {
    let mut s = base();
    for (n, bv) in [(4u32, 1u32), (5, 2), (6, 0)] {
        let st = s.stars.get_mut(&n).unwrap();
        st.owner = Some(1);
        st.facility = Some(Facility::F);
        st.bv = bv;
        st.stock[2] = 100;
    }
    // Two active stations (6 has BV 0): both succeed.
    let ev = month_scripted(&mut s, &[], &[("21", vec![1, 1]), ("7", vec![0, 0])], false);
    assert_eq!(s.rulers[0].ev, 6);
    assert!(has_line(
        &ev,
        1,
        "21 Forschung: 2 Erfolge, Evolutionsstufe jetzt 6"
    ));
    assert_eq!(research_chance(&Params::default(), 2), (240, 700));
}

#[test]
fn eds_58_grain_consumption_and_famine() {
    let mut s = base();
    s.stars.get_mut(&5).unwrap().bv = 5;
    s.stars.get_mut(&5).unwrap().stock[2] = 3;
    let ev = month(&mut s, &[]);
    assert_eq!((s.stars[&5].bv, s.stars[&5].stock[2]), (3, 0));
    assert!(has_line(
        &ev,
        1,
        "22 Stern 5: Hungersnot – Bevölkerung sinkt von 5 auf 3"
    ));
    assert_eq!(s.stars[&1].stock[2], 390);
}

#[test]
fn eds_59_taxes_after_occupation_and_famine() {
    let mut s = base();
    s.stars.get_mut(&5).unwrap().bv = 5;
    s.stars.get_mut(&5).unwrap().stock[2] = 3;
    month(&mut s, &[]);
    assert_eq!(s.rulers[0].we, 10000 + 1000 + 90);
}

#[test]
fn eds_60_average_ev_with_two_decimals() {
    let mut s = base();
    s.rulers[1].ev = 1;
    let ev = month(&mut s, &[]);
    let body = Eds.report(&s, &ev, &Viewer::Player(pid(2))).body;
    assert!(body.contains("DURCHSCHNITTLICHE EVOLUTIONSSTUFE ALLER REICHE: 1,67"));
}

#[test]
fn eds_61_victory_at_evolution_100_shared() {
    let mut s = base();
    s.rulers[0].ev = 100;
    s.rulers[2].ev = 100;
    let ev = month(&mut s, &[]);
    assert!(s.game_over);
    assert_eq!(s.winners, vec![1, 3]);
    let o = Eds.outcome(&s).unwrap();
    assert_eq!(o.ranking[0].rank, 1);
    assert_eq!(o.ranking[1].rank, 1);
    let body = Eds.report(&s, &ev, &Viewer::Player(pid(2))).body;
    assert!(
        body.contains("SPIELENDE\nEvolutionsstufe 100 erreicht. Sieger: 01 ALDEBARAN, 03 CORVUS")
    );
}

#[test]
fn eds_62_a_ruler_without_stars_and_ships_is_out() {
    let mut s = base();
    s.stars.get_mut(&3).unwrap().owner = None;
    s.ships.retain(|_, x| x.owner != 3);
    let ev = month(&mut s, &[]);
    assert!(!s.rulers[2].active);
    assert!(has_line(&ev, 3, "ausgeschieden"));
    let ev = month(&mut s, &[(1, "[17]\n3,10\n")]);
    assert!(has_line(
        &ev,
        1,
        "Herrscher 03 nicht (mehr) im Spiel – Befehl verworfen"
    ));
    assert!(!Eds.players(&s)[2].active);
}

#[test]
fn eds_23_registry_contract_info_and_adapter() {
    let info = Eds.info();
    assert_eq!(
        (info.id, info.name, info.lang, info.turn_word),
        (
            "eds",
            "Evolution der Sterne",
            arbitre_core::Lang::De,
            "Monat"
        )
    );
    let engine = arbitre_core::Adapter::boxed(Eds);
    let mut t = toml::Table::new();
    t.insert("map".into(), "duel".into());
    let snap = engine.setup(&config(2, t)).unwrap();
    assert_eq!(snap.turn, 0);
    assert_eq!(engine.players(&snap.state).unwrap().len(), 2);
    let c = engine
        .check(&snap.state, &pid(1), "[16]\n1\nQUATSCH\n")
        .unwrap();
    assert_eq!((c.orders, c.errors), (1, 1));
    assert_eq!(
        c.verdicts[1].verdict,
        arbitre_core::Verdict::Error(
            "Syntaxfehler (Spalte 1: erwartet eine Zahl, gefunden „QUATSCH“) – Befehl verworfen"
                .into()
        )
    );
}

#[test]
fn eds_14_the_example_mail_of_the_player_guide_parses_cleanly() {
    let guide =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/eds.md")).unwrap();
    let start = guide.find("## 4. Vollständiges Beispiel").unwrap();
    let block = &guide[start..];
    let a = block.find("```\n").unwrap() + 4;
    let b = a + block[a..].find("```").unwrap();
    let mail: Vec<&str> = block[a..b].lines().collect();
    assert!(mail[0].starts_with("SPIEL andromeda SPIELER karamon PASSWORT "));
    assert_eq!(*mail.last().unwrap(), "END");
    // The daemon strips the envelope; the rest is the order block.
    let inner = mail[1..mail.len() - 1].join("\n");
    let mut s = base();
    s.month = 3;
    let p = parse(&s, &inner);
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    assert_eq!(
        p.orders.len(),
        38 + 3,
        "every entry of every section, plus the three free texts"
    );
}

#[test]
fn eds_10_a_game_resumes_mid_game_from_a_position_file() {
    let mut b = base();
    b.month = 14;
    b.rulers[0].status.insert(2, 3);
    b.ships.get_mut(&2).unwrap().cargo = Some((Good::U, 7));
    let text = arbitre_eds::setup::position_toml(&b);
    let mut cfg = config(3, toml::Table::new());
    cfg.files.insert("position_file".into(), text);
    let s = Eds.setup(&cfg, &mut Rng::for_setup(1)).unwrap();
    assert_eq!(s.month, 14);
    assert_eq!(s.st(1, 2), 3);
    assert_eq!(s.ships[&2].cargo, Some((Good::U, 7)));
    let body = Eds.report(&s, &[], &Viewer::Player(pid(1))).body;
    assert!(body.contains("Stand nach Monat 2 von 12, Jahr 2 (J2/M2) · Jahr 2 – Jahr des Aufbruchs\nBefehle für: Monat 3 von 12, Jahr 2 (J2/M3)\n"));
    let p = parse(&s, "MONAT: J2/M3\n[16]\n1\n");
    assert_eq!(p.orders.len(), 1);
}

#[test]
fn eds_11_armament_weights_are_a_parameter() {
    let mut p = Params::default();
    assert_eq!(armament_we(&p, &[20, 15, 0, 0], &[30, 20, 0, 0]), 2550);
    p.arm_weights = [1, 3, 4, 8];
    assert_eq!(
        armament_we(&p, &[20, 15, 0, 0], &[30, 20, 0, 0]),
        400 + 675 + 900 + 1200
    );
}
