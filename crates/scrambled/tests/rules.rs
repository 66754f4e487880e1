//! One test (at least) per checklist item of the specification (§11), each
//! set up as a position on Testland, resolved with orders in the mail notation.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test
use crate::common;
use arbitre_core::Ruleset;
use arbitre_scrambled::economy::{corruption, required, suppression};
use arbitre_scrambled::state::{Mark, Status};
use arbitre_scrambled::Scrambled;
use common::*;

fn base(extra: &[String]) -> arbitre_scrambled::State {
    let mut pos = vec![
        player("alice", "LOR", Some("LOR"), &[]),
        player("bob", "SWA", Some("SWA"), &[]),
        player("carol", "BAV", Some("BAV"), &[]),
        territory("LOR", Some("alice"), 100, &[("alice", 1000)]),
        territory("SWA", Some("bob"), 100, &[("bob", 1000)]),
        territory("BAV", Some("carol"), 100, &[("carol", 1000)]),
    ];
    pos.extend(extra.iter().cloned());
    testland(ABC, &pos.join("\n"))
}

#[test]
fn scn_7_diplomacy_marks_are_one_way_and_immediate() {
    let mut s = base(&[territory("BAD", None, 100, &[("alice", 100), ("bob", 100)])]);
    resolve(&mut s, &[("alice", "ENEMY Bob")]);
    assert_eq!(s.mark(&pid("alice"), &pid("bob")), Mark::Enemy);
    assert_eq!(s.mark(&pid("bob"), &pid("alice")), Mark::Ally);
    // Effective in this very resolution: Alice attacked Bob (by surprise).
    assert!(terr(&s, "BAD").conflict);
    assert_eq!(troops(&s, "BAD", "bob"), 60);
    resolve(&mut s, &[("alice", "ALLY ALL"), ("carol", "ENEMY ALL")]);
    assert_eq!(s.mark(&pid("alice"), &pid("bob")), Mark::Ally);
    assert_eq!(s.mark(&pid("carol"), &pid("alice")), Mark::Enemy);
    assert_eq!(s.mark(&pid("carol"), &pid("bob")), Mark::Enemy);
}

#[test]
fn scn_8_quit_dissolves_troops_and_neutralises_territories() {
    let mut s = base(&[territory("ALS", Some("alice"), 100, &[("alice", 50)])]);
    resolve(&mut s, &[("alice", "QUIT\nMOVE 100 LOR -> CHA")]);
    assert_eq!(s.players[&pid("alice")].status, Status::Quit(1));
    assert_eq!((owner(&s, "LOR"), owner(&s, "ALS")), (None, None));
    assert_eq!(s.troops_total(&pid("alice")), 0);
    assert_eq!(
        troops(&s, "CHA", "alice"),
        0,
        "the quitter's orders are cancelled"
    );
    assert_eq!(arbitre_scrambled::score::score(&s, &pid("alice")), -23_500);
    assert!(has_line(&report(&s, "bob"), "* Alice a quitté la partie."));
    // Orders naming the quitter now fail.
    let p = arbitre_scrambled::parser::parse(&s, &pid("bob"), "TRIBUTE 10 TO Alice");
    assert_eq!(p.error_count(), 1);
}

#[test]
fn scn_9_give_troops_capped_and_checked() {
    let mut s = base(&[territory("BAD", None, 100, &[("alice", 100)])]);
    resolve(
        &mut s,
        &[(
            "alice",
            "GIVE TROOPS 30 BAD TO Bob\nGIVE TROOPS 500 BAD TO Carol",
        )],
    );
    assert_eq!(
        (
            troops(&s, "BAD", "alice"),
            troops(&s, "BAD", "bob"),
            troops(&s, "BAD", "carol")
        ),
        (0, 30, 70)
    );
    let r = report(&s, "alice");
    assert!(
        has_line(
            &r,
            "[corrigé] GIVE TROOPS 500 BAD TO Carol — seulement 70 disponibles, 70 données"
        ),
        "{r}"
    );
    assert!(has_line(
        &report(&s, "bob"),
        "* Alice a donné 30 troupes à Bob en Baden (BAD)."
    ));
    for bad in ["GIVE TROOPS 5 LOR TO Alice", "GIVE TROOPS 5 LOR TO Zed"] {
        assert_eq!(
            arbitre_scrambled::parser::parse(&s, &pid("alice"), bad).error_count(),
            1,
            "{bad}"
        );
    }
}

#[test]
fn scn_10_move_to_non_adjacent_or_mountain_is_rejected() {
    let s = base(&[]);
    let p = arbitre_scrambled::parser::parse(
        &s,
        &pid("bob"),
        "MOVE 10 SWA -> LOR\nMOVE 10 SWA -> ALP\nMOVE 10 SWA -> BAD",
    );
    assert_eq!(p.error_count(), 2);
    assert_eq!(p.orders.len(), 1);
    assert!(p.diagnostics[1].reason.contains("montagne"));
}

#[test]
fn scn_11_moves_share_the_start_of_turn_pool_in_written_order() {
    let mut s = base(&[]);
    resolve(
        &mut s,
        &[(
            "bob",
            "MOVE 600 SWA -> BAD\nMOVE 600 SWA -> BOD\nMOVE 10 SWA -> BAD",
        )],
    );
    assert_eq!(
        (troops(&s, "BAD", "bob"), troops(&s, "BOD", "bob")),
        (600, 400)
    );
    let r = report(&s, "bob");
    assert!(
        has_line(
            &r,
            "[corrigé] MOVE 600 SWA -> BOD — seulement 400 disponibles, 400 déplacées"
        ),
        "{r}"
    );
    assert!(
        has_line(
            &r,
            "[échec] MOVE 10 SWA -> BAD — aucune troupe disponible en Swabia (SWA)"
        ),
        "{r}"
    );
}

#[test]
fn scn_12_troops_given_or_arrived_this_turn_do_not_move() {
    let mut s = base(&[territory("BAD", None, 100, &[("alice", 100)])]);
    resolve(
        &mut s,
        &[
            ("alice", "GIVE TROOPS 100 BAD TO Bob"),
            ("bob", "MOVE 100 BAD -> ALS\nMOVE 200 SWA -> BAD"),
        ],
    );
    // The parser rejects Bob's first line (no troops of his in BAD yet); even
    // written as ALL after receiving, nothing given moves.
    assert_eq!(troops(&s, "BAD", "bob"), 300);
    assert_eq!(troops(&s, "ALS", "bob"), 0);
    let mut s = base(&[territory("BAD", None, 100, &[("alice", 100), ("bob", 5)])]);
    resolve(
        &mut s,
        &[
            ("alice", "GIVE TROOPS 100 BAD TO Bob"),
            ("bob", "MOVE ALL BAD -> ALS\nMOVE 200 SWA -> BAD"),
        ],
    );
    assert_eq!(
        troops(&s, "ALS", "bob"),
        5,
        "only Bob's own start-of-turn troops move"
    );
    assert_eq!(troops(&s, "BAD", "bob"), 300);
}

#[test]
fn scn_13_armies_swapping_territories_do_not_fight() {
    let pos = [
        player("alice", "LOR", Some("LOR"), &["bob"]),
        player("bob", "SWA", Some("SWA"), &["alice"]),
        territory("LOR", Some("alice"), 100, &[]),
        territory("SWA", Some("bob"), 100, &[("bob", 1000)]),
        territory("BAD", Some("alice"), 100, &[("alice", 500)]),
    ]
    .join("\n");
    let mut s = testland(&["Alice", "Bob"], &pos);
    resolve(
        &mut s,
        &[
            ("alice", "MOVE 500 BAD -> SWA"),
            ("bob", "MOVE 1000 SWA -> BAD"),
        ],
    );
    assert!(s
        .log
        .iter()
        .all(|e| !matches!(e, arbitre_scrambled::Event::Battle { .. })));
    assert_eq!(troops(&s, "SWA", "alice"), 500);
    assert_eq!(owner(&s, "SWA").as_deref(), Some("alice"));
    assert_eq!(owner(&s, "BAD").as_deref(), Some("bob"));
}

#[test]
fn scn_19_scn_22_combat_only_with_an_enemy_mark() {
    let mut s = base(&[territory("BAD", None, 100, &[("alice", 100), ("bob", 100)])]);
    resolve(&mut s, &[]);
    assert!(!terr(&s, "BAD").conflict);
    assert_eq!(
        (troops(&s, "BAD", "alice"), troops(&s, "BAD", "bob")),
        (100, 100)
    );
    // Bob marks Alice enemy: he attacks, Alice (all allies) deals no damage.
    resolve(&mut s, &[("bob", "ENEMY Alice")]);
    assert!(terr(&s, "BAD").conflict);
    assert_eq!(
        troops(&s, "BAD", "bob"),
        100,
        "SCN-22: Alice marks everyone ally"
    );
    assert_eq!(troops(&s, "BAD", "alice"), 60);
    // Combat also happens at sea.
    let mut s = base(&[territory("BOD", None, 0, &[("alice", 100), ("bob", 100)])]);
    resolve(&mut s, &[("bob", "ENEMY Alice")]);
    assert!(terr(&s, "BOD").conflict);
}

#[test]
fn scn_20_damage_split_equally_with_round_half_up() {
    let pos = [
        player("alice", "LOR", Some("LOR"), &["bob", "carol"]),
        player("bob", "SWA", Some("SWA"), &["alice"]),
        player("carol", "BAV", Some("BAV"), &["alice"]),
        territory("LOR", Some("alice"), 100, &[]),
        territory("SWA", Some("bob"), 100, &[]),
        territory("BAV", Some("carol"), 100, &[]),
        territory(
            "BOD",
            None,
            0,
            &[("alice", 27), ("bob", 100), ("carol", 100)],
        ),
    ]
    .join("\n");
    let mut s = testland(ABC, &pos);
    resolve(&mut s, &[]);
    // Alice: dmg round_hu(27/5) = 5, split over 2 → round_hu(5/2) = 3 each.
    assert_eq!(
        (troops(&s, "BOD", "bob"), troops(&s, "BOD", "carol")),
        (97, 97)
    );
    // Bob and Carol deal 20 each; Alice's 27 fall to 0 (capped).
    assert_eq!(troops(&s, "BOD", "alice"), 0);
    assert!(has_line(&report(&s, "bob"), "Alice -> Bob 3"));
    // Alice took 40 hits for 27 troops: each share is shown scaled, 20 × 27 / 40 → 14.
    assert!(has_line(&report(&s, "alice"), "Bob -> Alice 14"));
    assert!(has_line(&report(&s, "alice"), "après Alice 0 (-27)"));
}

#[test]
fn scn_26_scn_27_capture_threshold_and_suppression_vector_9_6() {
    let world = "[world]\nname = \"w\"\n[[territory]]\nid = \"A\"\nname = \"Aa\"\nterrain = \"land\"\narea = 1234\nneighbours = [\"B\"]\n[[territory]]\nid = \"B\"\nname = \"Bb\"\nterrain = \"land\"\narea = 5000\nneighbours = [\"A\", \"C\"]\n[[territory]]\nid = \"C\"\nname = \"Cc\"\nterrain = \"land\"\narea = 5000\nneighbours = [\"B\"]\n";
    assert_eq!((required(1234, 50), required(1234, 20)), (25, 62));
    let run = |n: u64| {
        let pos = [
            player("alice", "B", Some("B"), &[]),
            player("bob", "C", Some("C"), &["alice"]),
            territory("B", Some("alice"), 100, &[]),
            territory("C", Some("bob"), 100, &[]),
            territory("A", Some("alice"), 100, &[("bob", n)]),
        ]
        .join("\n");
        let mut s = custom(&["Alice", "Bob"], world, &pos);
        resolve(&mut s, &[]);
        (
            owner(&s, "A"),
            terr(&s, "A").contested,
            terr(&s, "A").suppression,
        )
    };
    assert_eq!(run(24), (Some("alice".into()), true, 98));
    assert_eq!(run(25), (Some("bob".into()), false, 0));
    assert_eq!(suppression(24, 50, 1234), 98);
    assert_eq!(suppression(5000, 50, 1234), 100);
}

#[test]
fn scn_28_guests_neither_capture_nor_suppress() {
    let mut s = base(&[territory("CHA", Some("alice"), 100, &[("bob", 5000)])]);
    resolve(&mut s, &[]);
    let cha = terr(&s, "CHA");
    assert_eq!(cha.owner, Some(pid("alice")));
    assert!(!cha.contested);
    assert_eq!(cha.suppression, 0);
}

#[test]
fn scn_29_hostile_players_side_by_side_contest() {
    let pos = [
        player("alice", "LOR", Some("LOR"), &[]),
        player("bob", "SWA", Some("SWA"), &["alice"]),
        territory("LOR", Some("alice"), 100, &[]),
        territory("SWA", Some("bob"), 100, &[]),
        territory("PIC", None, 100, &[("alice", 2000), ("bob", 10)]),
    ]
    .join("\n");
    let mut s = testland(&["Alice", "Bob"], &pos);
    resolve(&mut s, &[]);
    // Bob's 10 survive (Alice trusts him), so the neutral territory stays neutral.
    assert_eq!(troops(&s, "PIC", "bob"), 10);
    assert_eq!(owner(&s, "PIC"), None);
    assert!(terr(&s, "PIC").contested);
}

#[test]
fn scn_31_empty_territory_keeps_its_owner() {
    let mut s = base(&[territory("IDF", Some("alice"), 100, &[("alice", 10)])]);
    resolve(&mut s, &[("alice", "MOVE 10 IDF -> CHA")]);
    assert_eq!(owner(&s, "IDF").as_deref(), Some("alice"));
}

#[test]
fn scn_32_seas_and_mountains_are_never_owned() {
    let mut s = base(&[territory("BOD", None, 0, &[("bob", 900)])]);
    resolve(&mut s, &[]);
    assert_eq!(owner(&s, "BOD"), None);
    assert!(terr(&s, "ALP").troops.is_empty());
    let p = arbitre_scrambled::parser::parse(&s, &pid("bob"), "ABANDON BOD\nPATH 10 BOD -> ALP");
    assert_eq!(p.error_count(), 2);
}

#[test]
fn scn_33_scn_45_captured_capital_stops_recruitment() {
    let pos = [
        player("alice", "LOR", Some("LOR"), &[]),
        player("bob", "SWA", Some("SWA"), &["alice"]),
        territory("LOR", Some("alice"), 100, &[]),
        territory("ALS", Some("alice"), 100, &[]),
        territory("SWA", Some("bob"), 100, &[]),
        territory("CHA", None, 100, &[("bob", 600)]),
    ]
    .join("\n");
    let mut s = testland(&["Alice", "Bob"], &pos);
    resolve(&mut s, &[("bob", "MOVE 600 CHA -> LOR")]);
    assert_eq!(owner(&s, "LOR").as_deref(), Some("bob"));
    assert_eq!(s.players[&pid("alice")].capital, None);
    assert_eq!(troops(&s, "LOR", "alice"), 0);
    let r = report(&s, "alice");
    assert!(
        has_line(&r, "* Alice n'a pas de capitale : recrutement annulé."),
        "{r}"
    );
    assert!(has_line(&r, "Pas de capitale : aucun recrutement"), "{r}");
    // Corruption is 50% without a capital.
    assert!(has_line(&r, "Alsace 10000 100% 50% 0% 5000"), "{r}");
    // Giving the capital away also drops it.
    let mut s = base(&[territory("ALS", Some("alice"), 100, &[])]);
    resolve(&mut s, &[("alice", "GIVE TERRITORY LOR TO Bob")]);
    assert_eq!(s.players[&pid("alice")].capital, None);
    let mut s = base(&[]);
    resolve(&mut s, &[("bob", "ABANDON SWA")]);
    assert_eq!(s.players[&pid("bob")].capital, None);
}

#[test]
fn scn_34_economic_ratio_changes() {
    let pos = [
        player("alice", "LOR", Some("LOR"), &["bob"]),
        player("bob", "SWA", Some("SWA"), &[]),
        territory("LOR", Some("alice"), 90, &[]),
        territory("SWA", Some("bob"), 10, &[]),
        territory("ALS", None, 50, &[("alice", 500)]),
        territory("CHA", None, 30, &[]),
        territory("BAD", Some("bob"), 50, &[("alice", 1000), ("bob", 10)]),
    ]
    .join("\n");
    let mut s = testland(&["Alice", "Bob"], &pos);
    resolve(&mut s, &[]);
    assert_eq!(terr(&s, "LOR").economy, 100, "peace +20, capped at 100");
    assert_eq!(terr(&s, "CHA").economy, 50, "neutral land grows too");
    assert_eq!(
        terr(&s, "ALS").economy,
        50,
        "captured without combat: unchanged"
    );
    assert_eq!(owner(&s, "ALS").as_deref(), Some("alice"));
    assert_eq!(
        terr(&s, "BAD").economy,
        30,
        "combat -20, even though captured"
    );
    assert_eq!(owner(&s, "BAD").as_deref(), Some("alice"));
    let mut s = testland(
        &["Alice", "Bob"],
        &[
            player("alice", "LOR", Some("LOR"), &["bob"]),
            player("bob", "SWA", Some("SWA"), &[]),
            territory("BAD", Some("bob"), 10, &[("alice", 1), ("bob", 1000)]),
        ]
        .join("\n"),
    );
    resolve(&mut s, &[]);
    assert_eq!(terr(&s, "BAD").economy, 0, "never below 0");
}

#[test]
fn scn_35_give_and_abandon_territory() {
    let mut s = base(&[
        territory("ALS", Some("alice"), 100, &[]),
        territory("CHA", Some("alice"), 100, &[]),
    ]);
    resolve(
        &mut s,
        &[(
            "alice",
            "GIVE TERRITORY ALS TO Bob\nABANDON ALS\nABANDON CHA\nGIVE TERRITORY SWA TO Carol",
        )],
    );
    assert_eq!(
        owner(&s, "ALS").as_deref(),
        Some("bob"),
        "the first order on ALS wins"
    );
    assert_eq!(owner(&s, "CHA"), None);
    assert_eq!(owner(&s, "SWA").as_deref(), Some("bob"));
    let r = report(&s, "alice");
    assert!(
        has_line(
            &r,
            "[échec] ABANDON ALS — un ordre précédent porte déjà sur ce territoire"
        ),
        "{r}"
    );
    assert!(has_line(&r, "[échec] GIVE TERRITORY SWA TO Carol — Swabia (SWA) ne vous appartient pas après les combats"), "{r}");
    assert!(has_line(
        &report(&s, "bob"),
        "* Alice a donné le territoire Alsace (ALS) à Bob."
    ));
}

#[test]
fn scn_37_corruption_by_moves_from_capital() {
    assert_eq!(corruption(Some(0), 2, 50), 0);
    assert_eq!(corruption(Some(1), 2, 50), 2);
    assert_eq!(corruption(Some(2), 2, 50), 4);
    assert_eq!(corruption(Some(30), 2, 50), 50);
    assert_eq!(corruption(None, 2, 50), 50);
    let mut s = base(&[
        territory("ALS", Some("alice"), 100, &[]),
        territory("BOH", Some("alice"), 100, &[]),
    ]);
    resolve(&mut s, &[]);
    // LOR → ALS → BAD → (SWA|BOD) → BAV → BOH: 5 moves, 10%.
    assert_eq!(
        arbitre_scrambled::revenue::corruption_of(&s, &pid("alice"), &"BOH".into()),
        10
    );
    assert!(has_line(
        &report(&s, "alice"),
        "Bohemia 10000 100% 10% 0% 9000"
    ));
}

#[test]
fn scn_40_tributes_capped_and_credited() {
    let mut s = base(&[]);
    resolve(
        &mut s,
        &[(
            "alice",
            "TRIBUTE 6000 TO Bob\nTRIBUTE 6000 TO Carol\nTRIBUTE 10 TO Carol",
        )],
    );
    let ra = report(&s, "alice");
    // Alice: one territory, net 10000.
    assert!(
        has_line(&ra, "[ok] TRIBUTE 6000 TO Bob — 6000 payés"),
        "{ra}"
    );
    assert!(
        has_line(
            &ra,
            "[corrigé] TRIBUTE 6000 TO Carol — seulement 4000 disponibles, 4000 payés"
        ),
        "{ra}"
    );
    assert!(
        has_line(
            &ra,
            "[corrigé] TRIBUTE 10 TO Carol — seulement 0 disponibles, 0 payés"
        ),
        "{ra}"
    );
    let rb = report(&s, "bob");
    assert!(has_line(&rb, "* Tribut de 6000 reçu d'Alice."), "{rb}");
    assert!(has_line(&rb, "Tributs reçus 6000"), "{rb}");
    assert!(has_line(&rb, "Disponible 16000"), "{rb}");
}

#[test]
fn scn_44_recruits_at_capital_and_leftover_lost() {
    let mut s = base(&[]);
    resolve(&mut s, &[]);
    // Net 10000 - upkeep 2000 = 8000 → 400 recruits.
    assert_eq!(troops(&s, "LOR", "alice"), 1400);
    assert!(has_line(
        &report(&s, "alice"),
        "Recrutement : 400 troupes à Lorraine (20 chacune) ; 0 non dépensés, perdus"
    ));
}

#[test]
fn scn_47_new_capital_order_replaces_and_cancel_clears() {
    let mut s = base(&[
        territory("ALS", Some("alice"), 100, &[]),
        territory("CHA", Some("alice"), 100, &[]),
    ]);
    resolve(&mut s, &[("alice", "CAPITAL ALS")]);
    assert_eq!(
        s.players[&pid("alice")]
            .pending_capital
            .as_ref()
            .map(|(t, d)| (t.as_str(), *d)),
        Some(("ALS", 2))
    );
    resolve(&mut s, &[("alice", "CAPITAL CHA")]);
    assert_eq!(
        s.players[&pid("alice")]
            .pending_capital
            .as_ref()
            .map(|(t, d)| (t.as_str(), *d)),
        Some(("CHA", 3))
    );
    assert_eq!(
        s.players[&pid("alice")]
            .capital
            .as_ref()
            .map(|t| t.as_str()),
        Some("LOR")
    );
    resolve(&mut s, &[("alice", "CANCEL CAPITAL")]);
    assert_eq!(s.players[&pid("alice")].pending_capital, None);
    resolve(&mut s, &[]);
    assert_eq!(
        s.players[&pid("alice")]
            .capital
            .as_ref()
            .map(|t| t.as_str()),
        Some("LOR")
    );
}

#[test]
fn scn_50_game_ends_after_turn_limit_with_final_report() {
    let mut s = from_position(
        ABC,
        "world = \"testland\"\nturn_limit = 30",
        &format!("turn = 29\n{}", abc_players("", "", "")),
    );
    assert!(Scrambled.outcome(&s).is_none());
    resolve(&mut s, &[]);
    let o = Scrambled.outcome(&s).expect("game over");
    assert_eq!(o.ranking.len(), 3);
    let r = report(&s, "alice");
    assert!(r.contains("== SCORES FINAUX =="), "{r}");
    assert!(has_line(&r, "* La partie est terminée."));
    let engine = arbitre_core::Adapter(Scrambled);
    let json = serde_json::to_string(&s).unwrap();
    assert!(matches!(
        arbitre_core::Engine::resolve(&engine, &json, 1, &Default::default()),
        Err(arbitre_core::EngineError::GameOver)
    ));
}

#[test]
fn scn_48_player_without_territory_or_troops_is_eliminated() {
    let pos = [
        player("alice", "LOR", Some("LOR"), &[]),
        player("bob", "SWA", None, &["alice"]),
        territory("LOR", Some("alice"), 100, &[("alice", 1000)]),
        territory("BAD", None, 100, &[("bob", 5)]),
    ]
    .join("\n");
    let mut s = testland(&["Alice", "Bob"], &pos);
    resolve(&mut s, &[("alice", "ENEMY Bob")]);
    // Bob has no income: his 5 desert; he has nothing left.
    assert_eq!(s.players[&pid("bob")].status, Status::Eliminated(1));
    assert_eq!(arbitre_scrambled::score::score(&s, &pid("bob")), -20_000);
    assert!(
        !Scrambled
            .players(&s)
            .iter()
            .find(|p| p.id == pid("bob"))
            .unwrap()
            .active
    );
}

#[test]
fn scn_65_outcome_does_not_depend_on_player_order() {
    // Renaming players changes the order they are processed in, not the result.
    let run = |a: &str, b: &str| {
        let pos = [
            player(a, "LOR", Some("LOR"), &[b]),
            player(b, "SWA", Some("SWA"), &[a]),
            territory("LOR", Some(a), 100, &[]),
            territory("SWA", Some(b), 100, &[]),
            territory("BAD", None, 100, &[(a, 400), (b, 300)]),
            territory("BOD", None, 0, &[(a, 200), (b, 250)]),
        ]
        .join("\n");
        let names = [a.to_string(), b.to_string()];
        let n: Vec<&str> = names.iter().map(|x| x.as_str()).collect();
        let mut s = testland(&n, &pos);
        resolve(
            &mut s,
            &[
                (
                    a,
                    "TRIBUTE 3000 TO X\nMOVE 200 BOD -> BAD"
                        .replace('X', b)
                        .as_str(),
                ),
                (b, "MOVE 250 BOD -> BAD"),
            ],
        );
        (
            troops(&s, "BAD", a),
            troops(&s, "BAD", b),
            troops(&s, "LOR", a),
            troops(&s, "SWA", b),
        )
    };
    let (a1, b1, la, sb) = run("alice", "zed");
    let (b2, a2, sb2, la2) = {
        let (x, y, l, sw) = run("zoe", "adam");
        (x, y, l, sw)
    };
    assert_eq!((a1, b1, la, sb), (b2, a2, sb2, la2));
}

#[test]
fn scn_21_no_surprise_message_without_a_hit() {
    // Bob's 2 troops deal round_hu(2 / 5) = 0: Alice is not told of an attack.
    let pos = [
        player("alice", "LOR", Some("LOR"), &[]),
        player("bob", "SWA", Some("SWA"), &["alice"]),
        territory("LOR", Some("alice"), 100, &[]),
        territory("SWA", Some("bob"), 100, &[]),
        territory("BOD", None, 0, &[("alice", 100), ("bob", 2)]),
    ]
    .join("\n");
    let mut s = testland(&["Alice", "Bob"], &pos);
    resolve(&mut s, &[]);
    assert!(terr(&s, "BOD").conflict);
    assert_eq!(troops(&s, "BOD", "alice"), 100);
    assert!(!report(&s, "alice").contains("ATTAQUE SURPRISE"));
}
