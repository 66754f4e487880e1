//! The mail notation (spec §5.2, §6): readiness, replacement, header lines,
//! keywords, names, acknowledgments; garbage never panics.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test
use crate::common;
use arbitre_core::{Adapter, Engine, Verdict};
use arbitre_scrambled::orders::{Order, Qty};
use arbitre_scrambled::parser::parse;
use arbitre_scrambled::Scrambled;
use common::*;

fn base() -> arbitre_scrambled::State {
    let pos = [
        "turn = 7".to_string(),
        player("alice", "LOR", Some("LOR"), &[]),
        player("bob", "SWA", Some("SWA"), &[]),
        player("carol", "BAV", Some("BAV"), &[]),
        territory("LOR", Some("alice"), 100, &[("alice", 1000)]),
        territory("IDF", Some("alice"), 100, &[("alice", 100)]),
        territory("SWA", Some("bob"), 100, &[("bob", 1000)]),
        territory("BAV", Some("carol"), 100, &[("carol", 1000)]),
    ]
    .join("\n");
    testland(ABC, &pos)
}

#[test]
fn scn_51_ready_only_with_an_explicit_ready_line() {
    let s = base();
    assert!(parse(&s, &pid("alice"), "MOVE 10 LOR -> ALS\nREADY").ready);
    assert!(parse(&s, &pid("alice"), "PRÊT").ready, "French keyword");
    assert!(!parse(&s, &pid("alice"), "MOVE 10 LOR -> ALS").ready);
    let engine = Adapter(Scrambled);
    let json = serde_json::to_string(&s).unwrap();
    assert!(engine.check(&json, &pid("bob"), "READY").unwrap().ready);
}

#[test]
fn scn_52_a_new_set_replaces_the_old_one_and_can_withdraw_ready() {
    // The daemon keeps only the latest text; each text is judged on its own.
    let s = base();
    let first = parse(&s, &pid("alice"), "MOVE 10 LOR -> ALS\nREADY");
    let second = parse(&s, &pid("alice"), "MOVE 20 LOR -> CHA");
    assert!(first.ready && !second.ready);
    assert_eq!(second.orders.len(), 1);
    let mut t = s.clone();
    resolve(&mut t, &[("alice", "MOVE 20 LOR -> CHA")]);
    assert_eq!(
        (troops(&t, "ALS", "alice"), troops(&t, "CHA", "alice")),
        (0, 20)
    );
}

#[test]
fn scn_53_orders_for_the_wrong_turn_are_rejected() {
    // Sender address and password are the daemon's checks; a TURN line left in
    // the block is checked here against the open turn (8).
    let s = base();
    let p = parse(&s, &pid("alice"), "TURN 7\nMOVE 10 LOR -> ALS");
    // The TURN line and the move it carries: the set is refused whole.
    assert_eq!(p.error_count(), 2);
    assert!(
        p.diagnostics[0].reason.contains("le tour ouvert est le 8"),
        "{:?}",
        p.diagnostics
    );
    assert_eq!(
        parse(&s, &pid("alice"), "TURN 8\nMOVE 10 LOR -> ALS").error_count(),
        0
    );
    // A player who is out of the game cannot send orders.
    let mut q = s.clone();
    resolve(&mut q, &[("carol", "QUIT")]);
    assert_eq!(parse(&q, &pid("carol"), "READY").error_count(), 1);
}

#[test]
fn scn_54_case_comments_quotes_header_and_arrows() {
    let s = base();
    let text = "Bonjour, voici mes ordres\nGAME sn-test\nPLAYER alice\n> MOVE 1 LOR -> ALS (quoted reply)\n\
                move 10 lor -> als   # a comment\nMOVE 10 LOR → ALS\nMove 10 LOR TO als\nDEPLACER 10 LOR VERS ALS\n\
                # full comment line\n\nEND\nMOVE 999 LOR -> ALS";
    let p = parse(&s, &pid("alice"), text);
    assert_eq!(p.error_count(), 0, "{:?}", p.diagnostics);
    assert_eq!(p.orders.len(), 4);
    for o in &p.orders {
        assert_eq!(
            o.order,
            Order::Move {
                qty: Qty::N(10),
                from: "LOR".into(),
                to: "ALS".into()
            }
        );
    }
    assert_eq!(p.orders[0].line, 5);
}

#[test]
fn scn_55_names_resolve_by_id_name_then_folded_name() {
    let s = base();
    for r in [
        "IDF",
        "idf",
        "\"Île-de-France\"",
        "ile-de-france",
        "Ile_de_France",
        "\"ILE DE FRANCE\"",
    ] {
        let p = parse(&s, &pid("alice"), &format!("GIVE TROOPS 5 {r} TO Bob"));
        assert_eq!(p.error_count(), 0, "{r}: {:?}", p.diagnostics);
        assert!(
            matches!(&p.orders[0].order, Order::GiveTroops { terr, .. } if terr.as_str() == "IDF")
        );
    }
    let p = parse(
        &s,
        &pid("alice"),
        "GIVE TROOPS 5 Atlantis TO Bob\nTRIBUTE 5 TO bob\nTRIBUTE 5 TO BOB",
    );
    assert_eq!(p.error_count(), 1);
    assert!(p.diagnostics[0].reason.contains("territoire inconnu"));
    // Two players whose names fold the same are ambiguous.
    let pos = [
        player("alice", "LOR", Some("LOR"), &[]),
        player("zoe", "SWA", Some("SWA"), &[]),
        player("zoé", "BAV", Some("BAV"), &[]),
    ]
    .join("\n");
    let names = ["Alice", "Zoe", "Zoé"];
    let mut st = testland(&names, &pos);
    // Give both the same display name after folding and distinct ids.
    st.players.get_mut(&pid("zoe")).unwrap().name = "Zoe-X".into();
    st.players.get_mut(&pid("zoé")).unwrap().name = "Zoe X".into();
    let p = parse(&st, &pid("alice"), "TRIBUTE 5 TO zoe_x");
    assert!(
        p.diagnostics[0].reason.contains("ambigu"),
        "{:?}",
        p.diagnostics
    );
}

#[test]
fn scn_56_acknowledgment_has_one_verdict_per_line_with_path_preview() {
    let s = base();
    let engine = Adapter(Scrambled);
    let json = serde_json::to_string(&s).unwrap();
    let c = engine
        .check(&json, &pid("alice"), "MOVE 5000 LOR -> ALS\nPATH 300 LOR -> BAV\nGIVE TROOPS 100 CHA TO Bob\nCAPITAL IDF\nREADY")
        .unwrap();
    assert_eq!(c.verdicts.len(), 5);
    assert!(matches!(&c.verdicts[0].verdict, Verdict::Warning(w) if w.contains("seulement 1000")));
    assert!(
        matches!(&c.verdicts[1].verdict, Verdict::Warning(w) if w.contains("trajet LOR > ALS > BAD > BOD > BAV (4 tours)")),
        "{:?}",
        c.verdicts[1]
    );
    assert!(matches!(&c.verdicts[2].verdict, Verdict::Error(e) if e.contains("pas de troupes")));
    assert!(matches!(&c.verdicts[3].verdict, Verdict::Warning(w) if w.contains("tour 9")));
    assert_eq!(c.verdicts[4].verdict, Verdict::Ok);
    assert!(c.ready);
}

#[test]
fn every_order_of_the_notation_parses() {
    let s = base();
    let text = "QUIT\nREADY\nGIVE TROOPS ALL LOR TO Bob\nGIVE TERRITORY IDF TO Carol\nABANDON IDF\nMOVE ALL LOR -> CHA\n\
                PATH 5 LOR -> BOH DIRECT\nPATH 5 LOR -> BOH AVOID\nTRIBUTE ALL TO Carol\nCAPITAL IDF\nALLY Bob\nENEMY ALL\n\
                CANCEL CAPITAL\nDONNER TROUPES 5 LOR A Bob\nABANDONNER IDF\nTRIBUT 5 A Bob\nCAPITALE IDF\nALLIE Bob\nENNEMI Carol\nANNULER CAPITALE\nCHEMIN TOUT LOR VERS BOH EVITER";
    let p = parse(&s, &pid("alice"), text);
    // Every line parses; the two AVOID paths are refused because the set's
    // own marks (ENEMY ALL, then ALLIE Bob, ENNEMI Carol) leave Carol's
    // Bavaria, the only way to Bohemia, to be avoided (§3.1, issue 17 item 8).
    let errors: Vec<usize> = p
        .diagnostics
        .iter()
        .filter(|d| !d.warning)
        .map(|d| d.line)
        .collect();
    assert_eq!(errors, vec![8, 21], "{:?}", p.diagnostics);
    assert!(p
        .diagnostics
        .iter()
        .filter(|d| !d.warning)
        .all(|d| d.reason.starts_with("aucun chemin")));
    assert_eq!(p.orders.len(), 19);
}

#[test]
fn garbage_never_panics() {
    let s = base();
    let samples = [
        "",
        "\u{feff}",
        "\"",
        "\"unterminated",
        "MOVE",
        "MOVE -1 LOR -> ALS",
        "MOVE 99999999999999999999 LOR -> ALS",
        "MOVE 0 LOR -> ALS",
        "CANCEL P",
        "CANCEL P.",
        "CANCEL P9999999999999.1",
        "CANCEL Px.y",
        "GIVE",
        "GIVE TROOPS",
        "→→→",
        "PATH 1 LOR -> LOR",
        "TURN",
        "TURN x",
        "ALLY",
        "ENEMY alice",
        "\0\0\0",
        "💥 MOVE 💥",
        "# only",
        "MOVE 1 \"\" -> \"\"",
        "END",
        "READY READY",
    ];
    for t in samples {
        let _ = parse(&s, &pid("alice"), t);
    }
    // A pseudo-random soup of tokens.
    let words = [
        "MOVE",
        "PATH",
        "GIVE",
        "TROOPS",
        "TERRITORY",
        "->",
        "TO",
        "ALL",
        "LOR",
        "ALS",
        "BOD",
        "ALP",
        "1",
        "0",
        "\"",
        "#",
        "CANCEL",
        "P1.2",
        "Bob",
        "é",
        "TRIBUTE",
        "CAPITAL",
        "ENEMY",
    ];
    let mut x: u64 = 12345;
    for _ in 0..3000 {
        let mut line = String::new();
        for _ in 0..(x % 7) {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            line.push_str(words[(x >> 33) as usize % words.len()]);
            line.push(' ');
        }
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
        let p = parse(&s, &pid("alice"), &line);
        // Every order parsed from garbage resolves without panicking.
        let mut t = s.clone();
        if !p.orders.is_empty() {
            resolve(&mut t, &[("alice", line.as_str())]);
        }
    }
}

#[test]
fn scn_55_names_with_spaces_need_no_quotes() {
    let s = base();
    let p = parse(
        &s,
        &pid("alice"),
        "GIVE TROOPS 5 Ile de France TO Bob\nABANDON Ile de France\nMOVE 5 Ile de France -> Champagne\nPATH 5 Ile de France -> Bohemia DIRECT\nTRIBUTE 5 TO Bob",
    );
    assert_eq!(p.error_count(), 0, "{:?}", p.diagnostics);
    assert_eq!(p.orders.len(), 5);
    assert!(
        matches!(&p.orders[3].order, Order::Path { from, to, avoid: false, .. } if from.as_str() == "IDF" && to.as_str() == "BOH")
    );
}

/// Issue 17 item 8: a check at receipt sees the whole set. R0 applies the
/// set's ALLY/ENEMY lines before it routes the set's paths (§3.1 steps 2
/// and 4), so a `PATH … AVOID` is refused at receipt ("aucun chemin", §5.1)
/// only when no route exists under the marks the set itself gives.
#[test]
fn scn_7_scn_15_path_at_receipt_routes_with_the_sets_own_marks() {
    let pos = |alice_enemies: &[&str]| {
        let p = [
            "turn = 7".to_string(),
            player("alice", "LOR", Some("LOR"), alice_enemies),
            player("bob", "SWA", Some("SWA"), &[]),
            player("carol", "BAV", Some("BAV"), &[]),
            territory("LOR", Some("alice"), 100, &[("alice", 1000)]),
            // The only way from LOR to SWA goes through Bob's Baden.
            territory("BAD", Some("bob"), 100, &[]),
            territory("SWA", Some("bob"), 100, &[("bob", 10)]),
            territory("BAV", Some("carol"), 100, &[("carol", 1000)]),
        ]
        .join("\n");
        testland(ABC, &p)
    };
    // Alice marks Bob enemy before the mail: alone, the path has no route...
    let s = pos(&["bob"]);
    let alone = parse(&s, &pid("alice"), "PATH 10 LOR -> SWA");
    assert_eq!(alone.error_count(), 1, "{:?}", alone.diagnostics);
    assert!(alone.diagnostics[0].reason.contains("aucun chemin"));
    // ...but an ALLY line of the same set opens it, wherever it stands.
    for set in [
        "PATH 10 LOR -> SWA\nALLY Bob",
        "ALLY Bob\nPATH 10 LOR -> SWA",
    ] {
        let p = parse(&s, &pid("alice"), set);
        assert_eq!(p.error_count(), 0, "{set}: {:?}", p.diagnostics);
        assert_eq!(p.orders.len(), 2);
        // The resolution reaches the same verdict: the chain is planned.
        let mut t = s.clone();
        resolve(&mut t, &[("alice", set)]);
        assert!(
            t.chains.iter().any(|c| c.player == pid("alice")),
            "{set}: no chain planned"
        );
    }
    // The other way round: an ENEMY line of the set closes the route, at
    // receipt as at R0; a later ALLY line of the set reopens it.
    let s = pos(&[]);
    assert_eq!(
        parse(&s, &pid("alice"), "PATH 10 LOR -> SWA").error_count(),
        0
    );
    let closed = parse(&s, &pid("alice"), "ENEMY ALL\nPATH 10 LOR -> SWA");
    assert_eq!(closed.error_count(), 1, "{:?}", closed.diagnostics);
    let mut t = s.clone();
    resolve(&mut t, &[("alice", "ENEMY ALL\nPATH 10 LOR -> SWA")]);
    assert!(t.chains.iter().all(|c| c.player != pid("alice")));
    assert_eq!(
        parse(&s, &pid("alice"), "ENEMY ALL\nPATH 10 LOR -> SWA\nALLY Bob").error_count(),
        0
    );
    // DIRECT never looks at marks.
    assert_eq!(
        parse(&pos(&["bob"]), &pid("alice"), "PATH 10 LOR -> SWA DIRECT").error_count(),
        0
    );
}

/// Issue 17 item 7: a TURN line naming another turn refuses the whole set
/// (SCN-53): nothing of it stays in force, so the daemon never stores it
/// over the set already received.
#[test]
fn scn_53_a_set_for_another_turn_is_refused_whole() {
    let s = base();
    let p = parse(&s, &pid("alice"), "TURN 9\nMOVE 10 LOR -> ALS\nREADY");
    assert!(p.refused);
    assert!(p.orders.is_empty());
    assert!(!p.ready);
    assert_eq!(p.error_count(), 3, "{:?}", p.diagnostics);
    let engine = Adapter(Scrambled);
    let json = serde_json::to_string(&s).unwrap();
    let c = engine
        .check(&json, &pid("alice"), "TURN 9\nMOVE 10 LOR -> ALS")
        .unwrap();
    assert!(c.refused);
    assert_eq!(c.orders, 0);
    assert!(!parse(&s, &pid("alice"), "TURN 8\nMOVE 10 LOR -> ALS").refused);
}
