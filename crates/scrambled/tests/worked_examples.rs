//! The worked examples of the rulebook and of the specification (§9), with
//! their exact numbers and report lines.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test
use crate::common;
use arbitre_scrambled::economy::{bureaucracy_bp, territory_income};
use arbitre_scrambled::score::score;
use arbitre_scrambled::state::Status;
use common::*;

/// §9.1, §9.2, §9.5 and the report of §7: Alice's resolution 7.
fn alice_resolution_7() -> arbitre_scrambled::State {
    let pos = [
        "turn = 6".to_string(),
        player("alice", "LOR", Some("LOR"), &[]),
        player("bob", "SWA", Some("SWA"), &[]),
        player("carol", "BAV", Some("BAV"), &[]),
        territory("LOR", Some("alice"), 100, &[("alice", 2200)]),
        territory("ALS", Some("alice"), 100, &[("alice", 100)]),
        territory("BAD", Some("alice"), 40, &[("alice", 500), ("bob", 40)]),
        territory("SWA", Some("bob"), 100, &[]),
        territory("BAV", Some("carol"), 100, &[("carol", 10)]),
    ]
    .join("\n");
    let mut s = testland(ABC, &pos);
    resolve(
        &mut s,
        &[
            (
                "alice",
                "MOVE 200 LOR -> ALS\nMOVE 900 BAD -> BOD\nTRIBUTE 1000 TO Carol",
            ),
            ("bob", "ENEMY Alice\nMOVE 40 BAD -> ALS"),
        ],
    );
    s
}

#[test]
fn scn_36_rulebook_revenue_example_5174() {
    // "10000 * 80% * 98% (1 - 2%) * 66% (1 - 33%) = 5174"
    assert_eq!(territory_income(10_000, 80, 2, 34), 5174);
    let s = alice_resolution_7();
    let als = terr(&s, "ALS");
    assert_eq!((als.economy, als.suppression), (80, 34));
    let r = report(&s, "alice");
    assert!(has_line(&r, "Alsace 10000 80% 2% 34% 5174"), "{r}");
}

#[test]
fn scn_38_rulebook_bureaucracy_table_quota_6() {
    let bp: Vec<u32> = (1..=7).map(|n| bureaucracy_bp(n, 6, 100, 50)).collect();
    assert_eq!(bp, vec![10000, 8091, 6398, 5425, 5109, 5000, 5000]);
    // The rulebook's table, rounded to whole percent.
    let pct: Vec<u32> = bp.iter().map(|b| (b + 50) / 100).collect();
    assert_eq!(pct, vec![100, 81, 64, 54, 51, 50, 50]);
    // Other quotas (spec §2.6).
    let q = |q: u32| {
        (1..=q)
            .map(|n| bureaucracy_bp(n, q, 100, 50))
            .collect::<Vec<_>>()
    };
    assert_eq!(q(2), vec![10000, 5000]);
    assert_eq!(q(3), vec![10000, 5453, 5000]);
    assert_eq!(q(4), vec![10000, 6276, 5222, 5000]);
    assert_eq!(q(5), vec![10000, 7262, 5675, 5143, 5000]);
    assert_eq!(q(8), vec![10000, 9066, 7945, 6603, 5672, 5243, 5083, 5000]);
    assert_eq!(
        q(10),
        vec![10000, 9497, 8914, 7961, 6846, 5954, 5434, 5184, 5076, 5000]
    );
    assert_eq!(
        (bureaucracy_bp(1, 1, 100, 50), bureaucracy_bp(2, 1, 100, 50)),
        (10000, 5000)
    );
    assert!((1..=8).all(|n| bureaucracy_bp(n, 6, 70, 70) == 7000));
}

#[test]
fn scn_39_scn_41_scn_44_full_player_economy_vector_9_2() {
    let s = alice_resolution_7();
    let r = report(&s, "alice");
    for l in [
        "Lorraine (cap) 10000 100% 0% 0% 10000",
        "Alsace 10000 80% 2% 34% 5174",
        "Baden 10000 60% 4% 0% 5760",
        "Revenu brut 20934",
        "Bureaucratie : 3 territoires, quote-part 6 -> 63,98 % Net 13393",
        "Tributs envoyés -1000",
        "Disponible 12393",
        "Entretien : 2284 chez soi x 2 + 500 à l'étranger x 3 -6068",
        "Budget 6325",
        "Recrutement : 316 troupes à Lorraine (20 chacune) ; 5 non dépensés, perdus",
        "[corrigé] MOVE 900 BAD -> BOD — seulement 500 disponibles, 500 déplacées",
        "* Tribut de 1000 payé à Carol.",
    ] {
        assert!(has_line(&r, l), "missing «{l}» in\n{r}");
    }
    assert_eq!(troops(&s, "LOR", "alice"), 2316);
    assert_eq!(troops(&s, "BOD", "alice"), 500);
}

#[test]
fn scn_21_surprise_attack_vector_9_5() {
    let s = alice_resolution_7();
    assert_eq!(
        (troops(&s, "ALS", "alice"), troops(&s, "ALS", "bob")),
        (284, 40)
    );
    let als = terr(&s, "ALS");
    assert!(als.contested && als.conflict);
    assert_eq!(als.supremacy.get(&pid("alice")), Some(&true));
    assert_eq!(als.supremacy.get(&pid("bob")), Some(&false));
    let r = report(&s, "alice");
    assert!(has_line(&r, "* ATTAQUE SURPRISE : les troupes de Bob ont attaqué les vôtres par surprise en Alsace (ALS) !"), "{r}");
    assert!(has_line(&r, "Bob -> Alice 16 (SURPRISE x2)"), "{r}");
    assert!(has_line(&r, "après Alice 284 (-16), Bob 40 (-0)"), "{r}");
    assert!(
        has_line(&r, "Alsace (ALS) — propriétaire Alice — CONFLIT, CONTESTÉ"),
        "{r}"
    );
    // Bob attacked, he is not surprised.
    assert!(!report(&s, "bob").contains("ATTAQUE SURPRISE"));
}

/// §9.4: three players in Bavaria.
fn bavaria() -> arbitre_scrambled::State {
    let pos = [
        player("alice", "LOR", Some("LOR"), &["bob", "carol"]),
        player("bob", "SWA", Some("SWA"), &["carol"]),
        player("carol", "BOH", Some("BOH"), &["alice", "bob"]),
        territory("LOR", Some("alice"), 100, &[]),
        territory("SWA", Some("bob"), 100, &[("bob", 100)]),
        territory("BOH", Some("carol"), 100, &[]),
        territory(
            "BAV",
            Some("carol"),
            100,
            &[("alice", 1000), ("bob", 600), ("carol", 400)],
        ),
    ]
    .join("\n");
    testland(ABC, &pos)
}

#[test]
fn scn_23_scn_24_three_player_battle_vector_9_4() {
    let mut s = bavaria();
    resolve(&mut s, &[]);
    assert_eq!(
        (
            troops(&s, "BAV", "alice"),
            troops(&s, "BAV", "bob"),
            troops(&s, "BAV", "carol")
        ),
        (960, 360, 180)
    );
    let bav = terr(&s, "BAV");
    assert!(bav.conflict && bav.contested);
    assert_eq!(owner(&s, "BAV").as_deref(), Some("carol"));
    assert_eq!(bav.suppression, 100);
    assert_eq!(bav.economy, 80);
    let sup = &bav.supremacy;
    assert_eq!(
        (sup[&pid("alice")], sup[&pid("bob")], sup[&pid("carol")]),
        (true, true, false)
    );
    let rb = report(&s, "bob");
    assert!(has_line(&rb, "* ATTAQUE SURPRISE : les troupes d'Alice ont attaqué les vôtres par surprise en Bavaria (BAV) !"), "{rb}");
    assert!(has_line(&rb, "Alice -> Bob 200 (SURPRISE x2)"));
    assert!(has_line(&rb, "Alice -> Carol 100"));
    assert!(has_line(&rb, "Bob -> Carol 120"));
    // Carol's income from BAV is zero (suppression 100%).
    assert!(has_line(
        &report(&s, "carol"),
        "Bavaria 10000 80% 2% 100% 0"
    ));
}

#[test]
fn scn_14_retreat_rule_vector_9_12() {
    let mut s = bavaria();
    resolve(&mut s, &[]);
    let moved = |order: &str| {
        let mut t = s.clone();
        resolve(&mut t, &[("carol", order)]);
        has_line(
            &report(&t, "carol"),
            &format!("[ok] {order} — 180 déplacées"),
        )
    };
    assert!(moved("MOVE 180 BAV -> BOH"), "to her own territory");
    assert!(moved("MOVE 180 BAV -> BOD"), "to an empty sea");
    assert!(
        !moved("MOVE 180 BAV -> SWA"),
        "into Bob's garrison without supremacy"
    );
    let mut t = s.clone();
    resolve(&mut t, &[("carol", "MOVE 180 BAV -> SWA")]);
    assert!(has_line(
        &report(&t, "carol"),
        "[échec] MOVE 180 BAV -> SWA — sans suprématie en Bavaria (BAV)"
    ));
    // Alice has supremacy and may go anywhere adjacent.
    let mut t = s.clone();
    resolve(&mut t, &[("alice", "MOVE 100 BAV -> SWA")]);
    assert!(has_line(
        &report(&t, "alice"),
        "[ok] MOVE 100 BAV -> SWA — 100 déplacées"
    ));
    // The acknowledgment warns Carol in advance.
    let p = arbitre_scrambled::parser::parse(
        &s,
        &pid("carol"),
        "MOVE 180 BAV -> SWA\nMOVE 180 BAV -> BOH",
    );
    assert_eq!(p.error_count(), 0);
    assert_eq!(p.diagnostics.len(), 1);
    assert!(p.diagnostics[0].warning && p.diagnostics[0].reason.contains("sans suprématie"));
    // A mountain is rejected when received.
    let p = arbitre_scrambled::parser::parse(&s, &pid("alice"), "MOVE 10 BAV -> ALP");
    assert_eq!(p.error_count(), 1);
}

#[test]
fn scn_30_two_allied_forces_vector_9_7() {
    let case = |d: u64, e: u64| {
        let pos = [
            player("dave", "BOH", Some("BOH"), &[]),
            player("erin", "BAD", Some("BAD"), &[]),
            territory("BOH", Some("dave"), 100, &[]),
            territory("BAD", Some("erin"), 100, &[]),
            territory("PIC", None, 0, &[("dave", d), ("erin", e)]),
        ]
        .join("\n");
        let mut s = testland(&["Dave", "Erin"], &pos);
        resolve(&mut s, &[]);
        (owner(&s, "PIC"), terr(&s, "PIC").contested)
    };
    assert_eq!(arbitre_scrambled::economy::required(19_400, 50), 388);
    assert_eq!(case(700, 650), (Some("dave".into()), false));
    assert_eq!(case(380, 350), (None, true));
    assert_eq!(case(500, 500), (None, true));
}

#[test]
fn scn_25_supremacy_for_everyone_vector_9_8() {
    let pos = [
        player("alice", "LOR", Some("LOR"), &["carol"]),
        player("bob", "SWA", Some("SWA"), &["alice"]),
        player("carol", "CHA", Some("CHA"), &["bob"]),
        territory("LOR", Some("alice"), 100, &[]),
        territory("SWA", Some("bob"), 100, &[]),
        territory("CHA", Some("carol"), 100, &[]),
        territory(
            "BOD",
            None,
            0,
            &[("alice", 300), ("bob", 300), ("carol", 300)],
        ),
    ]
    .join("\n");
    let mut s = testland(ABC, &pos);
    resolve(&mut s, &[]);
    for p in ["alice", "bob", "carol"] {
        assert_eq!(troops(&s, "BOD", p), 180);
        assert!(terr(&s, "BOD").supremacy[&pid(p)]);
        assert!(report(&s, p).contains("ATTAQUE SURPRISE"));
    }
    assert!(terr(&s, "BOD").conflict);
    assert_eq!(owner(&s, "BOD"), None);
}

#[test]
fn scn_24_two_player_and_zero_score_supremacy_vector_9_8() {
    let two = |a: u64, b: u64, bob_enemy: bool| {
        let bob_marks: &[&str] = if bob_enemy { &["alice"] } else { &[] };
        let pos = [
            player("alice", "LOR", Some("LOR"), &["bob"]),
            player("bob", "SWA", Some("SWA"), bob_marks),
            territory("LOR", Some("alice"), 100, &[]),
            territory("SWA", Some("bob"), 100, &[]),
            territory("BOD", None, 0, &[("alice", a), ("bob", b)]),
        ]
        .join("\n");
        let mut s = testland(&["Alice", "Bob"], &pos);
        resolve(&mut s, &[]);
        let t = terr(&s, "BOD");
        (
            troops(&s, "BOD", "alice"),
            troops(&s, "BOD", "bob"),
            t.supremacy[&pid("alice")],
            t.supremacy[&pid("bob")],
        )
    };
    // Supremacy scores: Alice 500 - 100 = 400, Bob 100 + 500 = 600.
    assert_eq!(two(500, 300, false), (500, 100, true, true));
    assert_eq!(two(200, 200, true), (160, 160, true, true));
}

#[test]
fn scn_42_desertion_vector_9_9() {
    let pos = [
        player("dave", "BOH", Some("BOH"), &[]),
        player("carol", "BAV", Some("BAV"), &[]),
        territory("BOH", Some("dave"), 10, &[("dave", 500)]),
        territory("BAV", Some("carol"), 100, &[("dave", 1000)]),
    ]
    .join("\n");
    let mut s = testland(&["Dave", "Carol"], &pos);
    resolve(&mut s, &[]);
    assert_eq!(
        (troops(&s, "BOH", "dave"), troops(&s, "BAV", "dave")),
        (375, 750)
    );
    let r = report(&s, "dave");
    for l in [
        "Bohemia (cap) 10000 30% 0% 0% 3000",
        "Entretien : 500 chez soi x 2 + 1000 à l'étranger x 3 -4000",
        "Budget -1000",
        "Désertion : déficit 1000, 375 troupes ont déserté ; aucun recrutement",
    ] {
        assert!(has_line(&r, l), "missing «{l}» in\n{r}");
    }
}

#[test]
fn scn_43_scn_48_ownership_recheck_after_desertion_vector_9_9() {
    let pos = [
        player("frank", "BAD", Some("BAD"), &["greg"]),
        player("greg", "IDF", None, &[]),
        territory("BAD", Some("frank"), 100, &[]),
        territory("SWA", None, 100, &[("frank", 450), ("greg", 780)]),
    ]
    .join("\n");
    let mut s = testland(&["Frank", "Greg"], &pos);
    resolve(&mut s, &[]);
    assert_eq!(troops(&s, "SWA", "greg"), 0);
    assert_eq!(owner(&s, "SWA").as_deref(), Some("frank"));
    assert_eq!(s.players[&pid("greg")].status, Status::Eliminated(1));
    assert!(has_line(
        &report(&s, "frank"),
        "* Swabia (SWA) passe sous le contrôle de Frank après des désertions."
    ));
    assert!(has_line(
        &report(&s, "frank"),
        "* Élimination : Greg n'a plus ni territoire ni troupe."
    ));
    assert_eq!(score(&s, &pid("greg")), -12_000);
}

fn path_game(extra_orders: &str) -> arbitre_scrambled::State {
    let pos = [
        "turn = 7\nnext_chain = 7".to_string(),
        player("alice", "LOR", Some("LOR"), &["bob"]),
        player("bob", "SWA", Some("SWA"), &["alice"]),
        territory("LOR", Some("alice"), 100, &[]),
        territory("ALS", Some("alice"), 100, &[("alice", 284)]),
        territory("SWA", Some("bob"), 100, &[]),
        territory("BAD", None, 100, &[("bob", 2000)]),
    ]
    .join("\n");
    let mut s = testland(&["Alice", "Bob"], &pos);
    let _ = extra_orders;
    resolve(&mut s, &[("alice", "PATH 300 ALS -> BAV")]);
    s
}

#[test]
fn scn_15_scn_16_scn_17_planned_path_and_cascade_vector_9_10() {
    let s0 = path_game("");
    // Route and tie-break: AVOID leaves out SWA; DIRECT picks BOD by dictionary order.
    let before = testland(
        &["Alice", "Bob"],
        &[
            player("alice", "LOR", Some("LOR"), &["bob"]),
            player("bob", "SWA", Some("SWA"), &["alice"]),
            territory("SWA", Some("bob"), 100, &[]),
        ]
        .join("\n"),
    );
    let ids = |v: Vec<arbitre_scrambled::world::TerrId>| {
        v.iter().map(|t| t.0.clone()).collect::<Vec<_>>().join(" ")
    };
    let route = |avoid| {
        ids(arbitre_scrambled::movement::plan_route(
            &before,
            &pid("alice"),
            &"ALS".into(),
            &"BAV".into(),
            avoid,
        )
        .unwrap())
    };
    assert_eq!(route(true), "ALS BAD BOD BAV");
    assert_eq!(route(false), "ALS BAD BOD BAV");
    // Step 1 moves the 284 available (fixed); later steps carry 284 — but Bob's
    // 2000 in BAD kill them all.
    let r = report(&s0, "alice");
    assert!(
        has_line(
            &r,
            "[corrigé] P7.1 300 ALS -> BAD — seulement 284 disponibles, 284 déplacées"
        ),
        "{r}"
    );
    assert!(
        has_line(
            &r,
            "P7 : ALS > BAD > BOD > BAV ; prochaine étape P7.2 BAD -> BOD avec 284 troupes"
        ),
        "{r}"
    );
    assert_eq!(troops(&s0, "BAD", "alice"), 0);
    let mut s = s0.clone();
    resolve(&mut s, &[]);
    let r = report(&s, "alice");
    assert!(
        has_line(
            &r,
            "[échec] P7.2 284 BAD -> BOD — aucune troupe disponible en Baden (BAD)"
        ),
        "{r}"
    );
    assert!(has_line(&r, "* Chemin P7 d'Alice : étapes à partir de P7.3 annulées (l'étape P7.2 n'a pas pu s'exécuter)."), "{r}");
    assert!(s.chains.is_empty());
}

#[test]
fn scn_18_cancel_chain_steps() {
    let pos = [
        "turn = 8\nnext_chain = 8".to_string(),
        player("alice", "LOR", Some("LOR"), &[]),
        territory("LOR", Some("alice"), 100, &[]),
        territory("BAD", None, 100, &[("alice", 284)]),
        "[[chain]]\nnumber = 7\nplayer = \"alice\"\nroute = [\"ALS\", \"BAD\", \"BOD\", \"BAV\"]\nnext = 1\nplanned = 284\n".to_string(),
    ]
    .join("\n");
    let s0 = testland(&["Alice"], &pos);
    let mut s = s0.clone();
    resolve(&mut s, &[("alice", "CANCEL P7.2")]);
    assert!(s.chains.is_empty());
    assert_eq!(troops(&s, "BAD", "alice"), 284);
    let mut s = s0.clone();
    resolve(&mut s, &[("alice", "CANCEL P7.3")]);
    assert_eq!(troops(&s, "BOD", "alice"), 284, "P7.2 still runs");
    assert!(s.chains.is_empty(), "P7.3 is gone");
    let mut s = s0.clone();
    resolve(&mut s, &[("alice", "CANCEL P7")]);
    assert!(s.chains.is_empty());
    assert_eq!(troops(&s, "BAD", "alice"), 284);
    let mut s = s0;
    resolve(&mut s, &[]);
    assert_eq!(troops(&s, "BOD", "alice"), 284);
    assert_eq!(s.chains[0].next, 2);
}

#[test]
fn scn_46_capital_move_timeline_vector_9_11() {
    let pos = [
        "turn = 7".to_string(),
        player("alice", "LOR", Some("LOR"), &[]),
        territory("LOR", Some("alice"), 100, &[]),
        territory("ALS", Some("alice"), 100, &[]),
        territory("BAD", Some("alice"), 100, &[]),
    ]
    .join("\n");
    let mut s = testland(&["Alice"], &pos);
    resolve(&mut s, &[("alice", "CAPITAL BAD")]);
    let r = report(&s, "alice");
    assert!(
        has_line(&r, "Déménagement : Baden (BAD) à la résolution du tour 9"),
        "{r}"
    );
    assert_eq!(
        s.players[&pid("alice")]
            .capital
            .as_ref()
            .map(|t| t.as_str()),
        Some("LOR")
    );
    resolve(&mut s, &[]);
    let r = report(&s, "alice");
    // Resolution 9: corruption from LOR, recruits at LOR, then the move.
    assert!(has_line(&r, "Baden 10000 100% 4% 0%"), "{r}");
    assert!(has_line(&r, "à Lorraine (20 chacune)"), "{r}");
    assert!(
        has_line(&r, "* La capitale d'Alice est désormais Baden (BAD)."),
        "{r}"
    );
    resolve(&mut s, &[]);
    let r = report(&s, "alice");
    assert!(has_line(&r, "Lorraine 10000 100% 4% 0%"), "{r}");
    assert!(has_line(&r, "Baden (cap) 10000 100% 0% 0%"), "{r}");
    assert!(has_line(&r, "à Baden (20 chacune)"), "{r}");
}

#[test]
fn scn_49_final_scores_vector_9_13() {
    let pos = [
        "turn = 30".to_string(),
        player("alice", "LOR", Some("LOR"), &[]),
        player("bob", "SWA", Some("SWA"), &[]),
        player("carol", "CHA", Some("BAV"), &[]),
        "[[player]]\nid = \"hugo\"\nstart = \"PIC\"\nstatus = \"quit\"\nstatus_turn = 12\n"
            .to_string(),
        "[[player]]\nid = \"greg\"\nstart = \"IDF\"\nstatus = \"eliminated\"\nstatus_turn = 9\n"
            .to_string(),
        territory("LOR", Some("alice"), 100, &[]),
        territory("ALS", Some("alice"), 100, &[]),
        territory("BAD", Some("alice"), 100, &[]),
        territory("SWA", Some("bob"), 100, &[]),
        territory("BAV", Some("carol"), 100, &[]),
        territory("BOH", Some("carol"), 100, &[]),
    ]
    .join("\n");
    let s = testland(&["Alice", "Bob", "Carol", "Hugo", "Greg"], &pos);
    let sc = |p: &str| score(&s, &pid(p));
    assert_eq!(
        (sc("alice"), sc("bob"), sc("carol"), sc("hugo"), sc("greg")),
        (21_000, 0, 29_400, -19_400, -12_000)
    );
    let ivan = testland(
        &["Ivan"],
        &[
            player("ivan", "BAV", None, &[]),
            territory("ALS", Some("ivan"), 100, &[]),
        ]
        .join("\n"),
    );
    assert_eq!(score(&ivan, &pid("ivan")), -24_000);
}
